//! The learner's last answer, kept in the progress record so both front
//! ends show it again when the exercise is reopened. It is stored as the
//! JSON an answers file holds under the exercise's kind (what
//! [`answer_from_json`](crate::course::answer_from_json) reads), so the
//! terminal and the page write and read the same thing, and a lesson that
//! changed since simply fails to read it back (then nothing is restored).

use serde_json::{Map, Value, json};

use crate::course::grade::{Answer, DesignAnswer, Schedule};
use crate::course::lesson::{ExerciseKind, Knob, Lesson};
use crate::scenario::{Action, OpRef, Scenario, Step, ValueRef};

/// `answer` as the JSON of an answers file, for `lesson`'s exercise of
/// `kind` (a break schedule names its world's workers and targets).
pub fn answer_to_json(lesson: &Lesson, kind: &ExerciseKind, answer: &Answer) -> Value {
    match answer {
        Answer::Mark(marked) => json!(marked),
        Answer::Quiz(chosen) => json!(chosen),
        Answer::Predict(predicted) => Value::Object(
            predicted
                .iter()
                .map(|(step, outcome)| (step.to_string(), json!(outcome.name())))
                .collect(),
        ),
        Answer::Design(design) => design_to_json(kind, design),
        Answer::Break(schedule) => {
            let shell = kind.scenario().and_then(|index| lesson.scenario(index));
            match shell {
                Some(shell) => schedule_to_json(shell, schedule),
                None => Value::Array(Vec::new()),
            }
        }
        // The statements by slot; the run is redone on each try.
        #[cfg(feature = "sql-lab")]
        Answer::Sql(answer) => Value::Object(
            answer
                .statements
                .iter()
                .map(|(slot, text)| (slot.name().to_owned(), json!(text)))
                .collect(),
        ),
    }
}

/// Only the knobs the exercise opens, as [`Answer::Design`] reads them.
fn design_to_json(kind: &ExerciseKind, design: &DesignAnswer) -> Value {
    let open: &[Knob] = match kind {
        ExerciseKind::Design { open, .. } => open,
        _ => &[],
    };
    let mut object = Map::new();
    let mut put = |knob: Knob, value: Option<Value>| {
        if let Some(value) = value.filter(|_| open.contains(&knob)) {
            object.insert(knob.name().to_owned(), value);
        }
    };
    put(
        Knob::CommitChecks,
        design.commit_checks.map(|set| json!(set.names())),
    );
    put(
        Knob::RenewChecks,
        design.renew_checks.map(|set| json!(set.names())),
    );
    put(Knob::Token, design.token.map(|t| json!(t.name())));
    put(
        Knob::LeaseClock,
        design.lease_clock.map(|c| json!(c.name())),
    );
    put(
        Knob::TargetProtect,
        design
            .target_protect
            .as_ref()
            .map(|protects| Value::Array(protects.iter().map(|p| json!(p.name())).collect())),
    );
    if !design.reconcile.is_empty() {
        let targets: Vec<String> = design
            .reconcile
            .iter()
            .map(|t| format!("t{}", u32::from(*t) + 1))
            .collect();
        object.insert("reconcile".to_owned(), json!(targets));
    }
    Value::Object(object)
}

/// A break schedule's steps with the keys of a scenario's steps.
fn schedule_to_json(shell: &Scenario, schedule: &Schedule) -> Value {
    Value::Array(
        schedule
            .steps
            .iter()
            .map(|step| step_to_json(shell, schedule, step))
            .collect(),
    )
}

fn step_to_json(shell: &Scenario, schedule: &Schedule, step: &Step) -> Value {
    let mut object = Map::new();
    object.insert("at".to_owned(), json!(step.at));
    if let Some(worker) = step.worker {
        object.insert("worker".to_owned(), json!(shell.worker_id(worker)));
    }
    object.insert("do".to_owned(), json!(step.action.name()));
    if let Some(target) = step.target {
        object.insert("target".to_owned(), json!(shell.target_id(target)));
    }
    if let Some(job) = step.job {
        object.insert("job".to_owned(), json!(shell.job_id(job)));
    }
    if step.action == Action::Write {
        if let OpRef::Named(index) = step.op
            && let Some(name) = schedule.ops.get(index as usize)
        {
            object.insert("op".to_owned(), json!(name));
        }
        if let ValueRef::Named(index) = step.value
            && let Some(name) = schedule.values.get(index as usize)
        {
            object.insert("value".to_owned(), json!(name));
        }
    }
    if let Some(note) = &step.note {
        object.insert("note".to_owned(), json!({ "en": note.en, "zh": note.zh }));
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::answer_to_json;
    use crate::course::error::CourseError;
    #[cfg(feature = "sql-lab")]
    use crate::course::grade::Answer;
    use crate::course::session::CourseSession;
    use crate::course::worked_solution;

    /// Two real lessons: between them every exercise kind.
    fn two_lessons() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[
            (
                "01-liveness-vs-safety",
                include_str!("../../../lessons/01-liveness-vs-safety.toml"),
            ),
            (
                "02-token-in-the-commit",
                include_str!("../../../lessons/02-token-in-the-commit.toml"),
            ),
        ])
    }

    #[test]
    fn the_last_answer_of_every_kind_survives_the_progress_file() -> Result<(), CourseError> {
        let mut course = two_lessons()?;
        let mut kinds = Vec::new();
        let mut answers = Vec::new();
        for lesson in course.lessons().to_vec() {
            for exercise in &lesson.exercises {
                let key = match worked_solution(&lesson, exercise) {
                    Ok(solution) => solution.key,
                    // Without the SQL lab a sql exercise has no worked solution.
                    Err(CourseError::WrongKind { kind: "sql" }) => continue,
                    Err(other) => return Err(other),
                };
                // A sql answer is kept as its statements; the run is redone
                // on every try.
                #[cfg(feature = "sql-lab")]
                let key = match key {
                    Answer::Sql(mut sql) => {
                        sql.run = None;
                        Answer::Sql(sql)
                    }
                    other => other,
                };
                kinds.push(key.kind());
                answers.push((lesson.id.clone(), exercise.id.clone(), key));
            }
        }
        for kind in ["mark", "predict", "design", "break", "quiz"] {
            assert!(kinds.contains(&kind), "no {kind} exercise: {kinds:?}");
        }
        for (lesson, id, key) in &answers {
            assert_eq!(course.last_answer(lesson, id), None);
            if key.kind() != "sql" {
                course.grade(lesson, id, key)?;
            }
            course.keep_answer(lesson, id, key)?;
        }
        // Saved, read back by another front end, and restored.
        let mut reopened = two_lessons()?;
        reopened
            .load_progress(&course.export_progress())
            .map_err(|e| CourseError::LessonsJson(e.to_string()))?;
        for (lesson, id, key) in &answers {
            assert_eq!(reopened.last_answer(lesson, id).as_ref(), Some(key), "{id}");
        }
        // The page keeps the JSON it holds: the same answer comes back.
        let mut page = two_lessons()?;
        for (lesson, id, key) in &answers {
            let (found, exercise) = page.exercise(lesson, id)?;
            let value = answer_to_json(found, &exercise.kind, key);
            page.keep_answer_json(lesson, id, &value)?;
            assert_eq!(page.last_answer(lesson, id).as_ref(), Some(key), "{id}");
        }
        // An old record without last answers still loads, restoring none.
        let mut old = two_lessons()?;
        old.load_progress(
            r#"{"version": 2, "lang": "en", "self_check": {"basic": false, "intermediate": false, "senior": false}, "position": null,
                "lessons": {"01-liveness-vs-safety": {"sections_read": [0], "exercises": {"quiz-expiry": {"completed": false, "attempts": 1, "hints_used": 0, "solution_seen": false}}}}}"#,
        )
        .map_err(|e| CourseError::LessonsJson(e.to_string()))?;
        assert_eq!(
            old.exercise_progress("01-liveness-vs-safety", "quiz-expiry")
                .attempts,
            1
        );
        assert_eq!(
            old.last_answer("01-liveness-vs-safety", "quiz-expiry"),
            None
        );
        // Kept without grading, and a later empty answer hides nothing.
        let (lesson, id, key) = &answers[0];
        old.keep_answer(lesson, id, key)?;
        old.keep_answer(lesson, id, &crate::course::Answer::Mark(Vec::new()))?;
        assert_eq!(old.last_answer(lesson, id).as_ref(), Some(key));
        assert_eq!(old.exercise_progress(lesson, id).attempts, 0);
        Ok(())
    }
}
