//! Design exercises are graded on a minimal safe design: an answers file
//! that turns every knob of every design exercise of `lessons/` to its
//! strongest allowed value passes at most a quarter of them, while the
//! minimal design the simulator computes passes each. Both answers files
//! are built here, from the lessons, at run time.

use std::path::Path;

use serde_json::{Value, json};
use sim_core::course::{
    Answer, DesignAnswer, DesignExercise, ExerciseKind, Knob, Lesson, parse_lesson, worked_solution,
};
use sim_core::{CheckSet, ClaimProcedure, LeaseClock, TokenKind};

use crate::{fencelab, stderr};

fn lessons_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons")
}

fn lessons() -> Vec<Lesson> {
    let mut lessons: Vec<Lesson> = std::fs::read_dir(lessons_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .map(|path| parse_lesson(&std::fs::read(&path).unwrap()).unwrap())
        .collect();
    lessons.sort_by_key(|l| l.order);
    lessons
}

fn design_json(answer: &DesignAnswer) -> Value {
    let mut object = serde_json::Map::new();
    let checks = |set: CheckSet| json!(set.names());
    if let Some(set) = answer.commit_checks {
        object.insert("commit_checks".into(), checks(set));
    }
    if let Some(set) = answer.renew_checks {
        object.insert("renew_checks".into(), checks(set));
    }
    if let Some(token) = answer.token {
        object.insert("token".into(), json!(token.name()));
    }
    if let Some(clock) = answer.lease_clock {
        object.insert("lease_clock".into(), json!(clock.name()));
    }
    if let Some(targets) = &answer.target_protect {
        let names: Vec<&str> = targets.iter().map(|p| p.name()).collect();
        object.insert("target_protect".into(), json!(names));
    }
    if let Some(claim) = answer.claim {
        object.insert("claim".into(), json!(claim.name()));
    }
    if let Some(epoch) = answer.cancel_epoch {
        object.insert("cancel_epoch".into(), json!(epoch));
    }
    if let Some(advance) = answer.input_revision {
        object.insert("input_revision".into(), json!(advance));
    }
    let reconcile: Vec<String> = answer
        .reconcile
        .iter()
        .map(|t| format!("t{}", t + 1))
        .collect();
    object.insert("reconcile".into(), json!(reconcile));
    Value::Object(object)
}

/// Every open knob at its strongest: all four predicates, monotonic tokens,
/// the database's clock, each target's costliest protection its resource
/// offers, the cancel epoch, and the dearest claim procedure that is never refused on its
/// own account: a claim in a short transaction (`select_for_update`, or
/// `skip_locked` where the world has several jobs). `held_across_work`
/// costs as much but blocks takeovers wherever a lease can run out, and
/// `read_then_update` is unsafe. Reconciliation lists exactly the targets
/// that design leaves reachable, so the answer fails only if it is not
/// minimal.
fn strongest(exercise: &DesignExercise<'_>) -> DesignAnswer {
    strongest_reconciling(exercise, false)
}

/// [`strongest`], reconciling every target when `everything` (the learner
/// who ticks every box), else exactly the targets that design leaves
/// reachable.
fn strongest_reconciling(exercise: &DesignExercise<'_>, everything: bool) -> DesignAnswer {
    let open = |knob| exercise.open.contains(&knob);
    let mut answer = DesignAnswer {
        commit_checks: open(Knob::CommitChecks).then_some(CheckSet::ALL),
        renew_checks: open(Knob::RenewChecks).then_some(CheckSet::ALL),
        token: open(Knob::Token).then_some(TokenKind::Monotonic),
        lease_clock: open(Knob::LeaseClock).then_some(LeaseClock::Db),
        target_protect: open(Knob::TargetProtect).then(|| {
            exercise
                .resources
                .iter()
                .map(|kind| kind.strongest(exercise.fronts))
                .collect()
        }),
        claim: open(Knob::Claim).then(|| {
            let offered = exercise.claims_offered();
            [ClaimProcedure::SelectForUpdate, ClaimProcedure::SkipLocked]
                .into_iter()
                .find(|claim| offered.contains(claim))
                .expect("a world offers a claim in a short transaction")
        }),
        cancel_epoch: open(Knob::CancelEpoch).then_some(true),
        input_revision: open(Knob::InputRevision).then_some(true),
        reconcile: Vec::new(),
    };
    answer.reconcile = if everything {
        (0..exercise.start_targets().len() as u8).collect()
    } else {
        exercise
            .reconciliation_needed(&answer)
            .unwrap()
            .expect("the strongest design keeps the job table safe")
    };
    answer
}

/// Grades `answers` (lesson, exercise, design answer) with the binary;
/// returns how many were correct.
fn graded_correct(answers: &[(String, String, Value)]) -> u64 {
    graded(answers).0
}

/// Grades `answers` with the binary: how many were correct, and which
/// (`lesson/exercise`).
fn graded(answers: &[(String, String, Value)]) -> (u64, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("answers.json");
    let list: Vec<Value> = answers
        .iter()
        .map(|(lesson, exercise, design)| {
            json!({ "lesson": lesson, "exercise": exercise, "design": design })
        })
        .collect();
    std::fs::write(&file, json!({ "answers": list }).to_string()).unwrap();
    let output = fencelab(&[
        "grade",
        &file.display().to_string(),
        "--lessons",
        &lessons_dir().display().to_string(),
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["answers"], answers.len() as u64, "{report:#}");
    let correct = report["correct"].as_u64().unwrap();
    let which = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["correct"] == true)
        .map(|result| format!("{}/{}", result["lesson"], result["exercise"]))
        .collect();
    (correct, which)
}

#[test]
fn every_knob_strongest_fails_most_design_exercises_and_the_minimal_design_passes_each() {
    let lessons = lessons();
    let mut strongest_answers = Vec::new();
    let mut minimal_answers = Vec::new();
    for lesson in &lessons {
        for exercise in &lesson.exercises {
            let Some(design) = DesignExercise::of(&exercise.kind) else {
                continue;
            };
            assert!(matches!(exercise.kind, ExerciseKind::Design { .. }));
            strongest_answers.push((
                lesson.id.clone(),
                exercise.id.clone(),
                design_json(&strongest(&design)),
            ));
            let Answer::Design(minimal) = worked_solution(lesson, exercise).unwrap().key else {
                panic!("a design exercise's key is a design");
            };
            minimal_answers.push((
                lesson.id.clone(),
                exercise.id.clone(),
                design_json(&minimal),
            ));
        }
    }
    let total = strongest_answers.len() as u64;
    assert!(total >= 8, "the course has {total} design exercises");
    let strongest_passed = graded_correct(&strongest_answers);
    assert!(
        strongest_passed * 4 <= total,
        "every knob strongest passes {strongest_passed} of {total} design exercises"
    );
    assert_eq!(
        graded_correct(&minimal_answers),
        total,
        "the computed minimal design passes every design exercise"
    );
}

/// The learner who ticks every box: every open knob at its strongest and
/// every target sent to reconciliation. Free knobs cost nothing only where
/// reality charges nothing, so this wins at most one design exercise.
#[test]
fn ticking_every_box_and_reconciling_everything_wins_at_most_one_design_exercise() {
    let lessons = lessons();
    let mut answers = Vec::new();
    for lesson in &lessons {
        for exercise in &lesson.exercises {
            if let Some(design) = DesignExercise::of(&exercise.kind) {
                answers.push((
                    lesson.id.clone(),
                    exercise.id.clone(),
                    design_json(&strongest_reconciling(&design, true)),
                ));
            }
        }
    }
    let (passed, which) = graded(&answers);
    assert!(
        passed <= 1,
        "ticking every box wins {passed} of {} design exercises: {which:?}",
        answers.len()
    );
}
