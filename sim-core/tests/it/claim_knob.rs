//! The claim procedure as a design knob (`open = ["claim"]`): read and
//! written back in answers, priced where reality charges (a transaction is
//! four round trips), refused when the explorers break it or when a
//! takeover can wait on a held row lock, and keyed on the cheapest safe
//! procedure. What is safe, blocked or cheapest is never written here: the
//! explorers say it first. Built from `lessons/` and a fixture at run time.

use serde_json::json;
use sim_core::course::{
    Act, Answer, CourseSession, DesignAnswer, DesignExercise, Exercise, Knob, Lesson,
    answer_from_json, answer_to_json, grade, parse_lesson, worked_solution,
};
use sim_core::explore::{Method, RunToEnd, WorldOptions, explore};
use sim_core::{ClaimProcedure, Lang, claim_cost};

/// A world where leases run out (time ≤ 12) and both targets are behind a
/// gateway: pauses cannot make stale effects, so what tells the claim
/// procedures apart is a revived job and a lock held past a lease.
const FIXTURE: &str = r#"
id = "claims"
order = 1
title = { en = "Claims", zh = "领取" }
summary = { en = "How to claim.", zh = "怎样领取。" }
concepts = ["C25"]

[[sections]]
title = { en = "Claims", zh = "领取" }
concepts = ["C25"]
body = { en = "A claim.", zh = "一次领取。" }

[[exercises]]
id = "held"
kind = "design"
concepts = ["C25"]
prompt = { en = "Claim.", zh = "领取。" }
start = { base = "full", claim = "held_across_work" }
open = ["claim"]
world = { workers = 2, targets = 2 }
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }

[[exercises]]
id = "queue"
kind = "design"
concepts = ["C25"]
prompt = { en = "Claim from a queue.", zh = "从队列领取。" }
start = "full"
open = ["claim"]
world = { workers = 2, targets = 1, jobs = 2 }
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }

[[exercises]]
id = "closed"
kind = "design"
concepts = ["C25"]
prompt = { en = "Protect.", zh = "保护。" }
start = "full"
open = ["commit_checks"]
world = { workers = 2, targets = 1 }
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "t", zh = "丁" }
"#;

const LESSON_04: &str = "04-claims-without-long-locks";

fn fixture() -> Lesson {
    parse_lesson(FIXTURE.as_bytes()).unwrap()
}

fn lessons_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons")
}

fn lesson_04() -> Lesson {
    let path = lessons_dir().join(format!("{LESSON_04}.toml"));
    parse_lesson(&std::fs::read(path).unwrap()).unwrap()
}

/// The design exercises of `lesson` that open the claim knob.
fn claim_exercises(lesson: &Lesson) -> Vec<&Exercise> {
    lesson
        .exercises
        .iter()
        .filter(|e| DesignExercise::of(&e.kind).is_some_and(|d| d.open.contains(&Knob::Claim)))
        .collect()
}

fn claim(procedure: ClaimProcedure) -> Answer {
    Answer::Design(DesignAnswer {
        claim: Some(procedure),
        ..DesignAnswer::default()
    })
}

fn said(graded: &sim_core::course::Grade, lang: Lang) -> String {
    graded
        .items
        .iter()
        .map(|i| i.text.get(lang).to_owned())
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn the_claim_knob_parses_and_round_trips_in_answers() {
    assert_eq!(Knob::from_name("claim"), Some(Knob::Claim));
    let lesson = lesson_04();
    let exercises = claim_exercises(&lesson);
    assert!(!exercises.is_empty(), "lesson 04 opens the claim knob");
    for exercise in exercises {
        let facts = DesignExercise::of(&exercise.kind).unwrap();
        // Every procedure but those that lock two jobs' rows: the world
        // has one job, and they are refused by name.
        let one_job: Vec<ClaimProcedure> = ClaimProcedure::ALL
            .into_iter()
            .filter(|c| !c.locks_both())
            .collect();
        assert_eq!(facts.world.jobs, 1);
        assert_eq!(facts.claims_offered(), one_job);
        for both in [
            ClaimProcedure::LockBothOwnOrder,
            ClaimProcedure::LockBothIdOrder,
        ] {
            let written = json!({ "claim": both.name() });
            let refused = answer_from_json(&lesson, exercise, &written).unwrap_err();
            assert!(
                refused.message(Lang::En).contains("locks both rows")
                    && refused.message(Lang::Zh).contains("两行"),
                "{}",
                refused.message(Lang::En)
            );
        }
        for procedure in one_job {
            let written = json!({ "claim": procedure.name() });
            let read = answer_from_json(&lesson, exercise, &written).unwrap();
            assert_eq!(read, claim(procedure));
            assert_eq!(answer_to_json(&lesson, &exercise.kind, &read), written);
        }
        let unknown = answer_from_json(&lesson, exercise, &json!({ "claim": "optimistic" }));
        let message = unknown.unwrap_err().message(Lang::En);
        assert!(
            message.contains("unknown claim procedure `optimistic`"),
            "{message}"
        );
    }
    let fixture = fixture();
    // A closed knob is refused by name.
    let closed = fixture.exercise("closed").unwrap();
    let refused = answer_from_json(&fixture, closed, &json!({ "claim": "atomic" })).unwrap_err();
    assert!(refused.message(Lang::En).contains("`claim`"));
    // With several jobs only the procedures that read no named row are
    // offered (with two, those that lock both rows too), and the others
    // are refused in both languages.
    let queue = fixture.exercise("queue").unwrap();
    let facts = DesignExercise::of(&queue.kind).unwrap();
    assert_eq!(facts.world.jobs, 2);
    assert_eq!(
        facts.claims_offered(),
        vec![
            ClaimProcedure::Atomic,
            ClaimProcedure::SkipLocked,
            ClaimProcedure::LockBothOwnOrder,
            ClaimProcedure::LockBothIdOrder
        ]
    );
    let refused =
        answer_from_json(&fixture, queue, &json!({ "claim": "select_for_update" })).unwrap_err();
    assert!(refused.message(Lang::En).contains("several jobs"));
    assert!(refused.message(Lang::Zh).contains("多个任务"));
}

/// The editor offers each procedure as its SQL with its cost, in both
/// languages, and an edit turns the knob; a value not offered is refused.
#[test]
fn the_editor_shows_each_procedure_as_its_sql_with_its_cost() {
    let text = std::fs::read_to_string(lessons_dir().join(format!("{LESSON_04}.toml"))).unwrap();
    let mut course = CourseSession::from_sources(&[(LESSON_04, text.as_str())]).unwrap();
    let lesson = lesson_04();
    let id = claim_exercises(&lesson)[0].id.clone();
    for lang in [Lang::En, Lang::Zh] {
        let (row, knob) = crate::editor_row(&mut course, LESSON_04, &id, "claim", lang);
        let field = &knob.fields[0];
        let values: Vec<&str> = field.choices.iter().map(|c| c.value.as_str()).collect();
        let offered: Vec<ClaimProcedure> = ClaimProcedure::ALL
            .into_iter()
            .filter(|c| c.runs_with_jobs(1))
            .collect();
        let names: Vec<&str> = offered.iter().map(|c| c.name()).collect();
        assert_eq!(values, names);
        for (choice, procedure) in field.choices.iter().zip(offered) {
            assert!(
                choice
                    .label
                    .contains(sim_core::claim_words(procedure, lang)),
                "{}",
                choice.label
            );
            let cost = claim_cost(procedure);
            assert!(choice.label.contains(&cost.to_string()), "{}", choice.label);
        }
        let atomic = &field.choices[0].label;
        assert!(atomic.contains("UPDATE") && atomic.contains("RETURNING fence"));
        assert!(knob.detail.is_some());
        let set = |value: &str| Act::Edit {
            edit: sim_core::course::Edit::Set {
                row,
                field: 0,
                value: value.to_owned(),
            },
        };
        let turned = course
            .act(LESSON_04, &id, &set("skip_locked"), lang)
            .unwrap();
        let field = &turned.editor.unwrap().rows[row as usize].fields[0];
        assert_eq!(field.value, "skip_locked");
        assert!(
            course
                .act(LESSON_04, &id, &set("optimistic"), lang)
                .is_err()
        );
    }
}

/// Holding the claim's transaction across the work keeps the job safe, but
/// a paused holder's lock outlives its lease: the grader refuses it with
/// the wait the explorers found, whatever it costs, in both languages.
#[test]
fn held_across_work_is_refused_for_the_takeover_it_blocks() {
    let lesson = fixture();
    let exercise = lesson.exercise("held").unwrap();
    let facts = DesignExercise::of(&exercise.kind).unwrap();
    // The explorers' own report on the learner's world.
    let mut options: WorldOptions = facts.world.clone();
    options.design.claim = ClaimProcedure::HeldAcrossWork;
    let report = explore(&options.world().unwrap(), Method::Exhaustive, &mut RunToEnd).unwrap();
    let blocked = report.blocked_takeover.expect("the takeover waits");
    assert!(report.counterexample.is_none(), "safe for the row");

    let graded = grade(&lesson, exercise, &claim(ClaimProcedure::HeldAcrossWork)).unwrap();
    assert!(!graded.correct);
    assert!(graded.counterexample.is_none());
    assert!(graded.items[0].right, "the safety verdict holds");
    let en = said(&graded, Lang::En);
    assert!(
        en.contains("Holds the claim's row lock across the work")
            && en.contains(&blocked.explanation.en),
        "{en}"
    );
    assert!(
        !en.contains("minimal") && !en.contains("Not minimal"),
        "{en}"
    );
    let zh = said(&graded, Lang::Zh);
    assert!(
        zh.contains("行锁") && zh.contains(&blocked.explanation.zh),
        "{zh}"
    );

    // The minimal design claims without a lock held past a lease.
    let worked = worked_solution(&lesson, exercise).unwrap();
    assert!(worked.grade.correct);
    let Answer::Design(key) = worked.key else {
        panic!("a design key")
    };
    assert_eq!(key.claim, Some(ClaimProcedure::Atomic));
}

/// A plain read and a separate update costs nothing and is unsafe: the
/// grader shows the explorers' counterexample, and it replays in the
/// engine, written down and read back.
#[test]
fn read_then_update_is_refused_as_unsafe_with_a_counterexample_that_replays() {
    for (lesson, id) in [(lesson_04(), None), (fixture(), Some("held"))] {
        let exercises = match id {
            Some(id) => vec![lesson.exercise(id).unwrap()],
            None => claim_exercises(&lesson),
        };
        for exercise in exercises {
            let graded = grade(&lesson, exercise, &claim(ClaimProcedure::ReadThenUpdate)).unwrap();
            assert!(!graded.correct);
            assert!(said(&graded, Lang::En).starts_with("Unsafe"));
            let found = graded.counterexample.expect("a counterexample");
            let played = sim_core::run(&found.scenario);
            assert!(
                played
                    .violations
                    .iter()
                    .any(|v| v.step == found.step && v.kind == found.kind),
                "{:?}",
                played.violations
            );
            let written = sim_core::scenario_to_toml(&found.scenario);
            let read = sim_core::parse_scenario(written.as_bytes()).unwrap();
            assert_eq!(sim_core::run(&read).violations, played.violations);
            assert!(
                read.steps
                    .iter()
                    .any(|s| s.action == sim_core::Action::UpdateClaim),
                "the counterexample claims with its own update"
            );
        }
    }
}

/// Every claim exercise of the course is keyed on a procedure the
/// explorers cannot break and that holds no lock across the work; each
/// other procedure is refused (unsafe, blocking, or dearer).
#[test]
fn the_minimal_claim_is_safe_and_holds_no_lock_across_the_work() {
    let lesson = lesson_04();
    for exercise in claim_exercises(&lesson) {
        let worked = worked_solution(&lesson, exercise).unwrap();
        assert!(worked.grade.correct, "{}", exercise.id);
        let Answer::Design(key) = &worked.key else {
            panic!("a design key")
        };
        let chosen = key.claim.expect("the key turns the claim knob");
        assert!(
            !matches!(
                chosen,
                ClaimProcedure::HeldAcrossWork | ClaimProcedure::ReadThenUpdate
            ),
            "{chosen:?}"
        );
        let facts = DesignExercise::of(&exercise.kind).unwrap();
        let mut options: WorldOptions = facts.world.clone();
        options.design.claim = chosen;
        let report = explore(&options.world().unwrap(), Method::Exhaustive, &mut RunToEnd).unwrap();
        assert!(report.counterexample.is_none() && report.blocked_takeover.is_none());
        for other in facts.claims_offered().into_iter().filter(|c| *c != chosen) {
            let graded = grade(&lesson, exercise, &claim(other)).unwrap();
            assert!(!graded.correct, "{}: {other:?} passes too", exercise.id);
            if claim_cost(other) > claim_cost(chosen) && graded.items[0].right {
                assert!(
                    said(&graded, Lang::En).contains("a cheaper design is also safe"),
                    "{}",
                    said(&graded, Lang::En)
                );
            }
        }
    }
}
