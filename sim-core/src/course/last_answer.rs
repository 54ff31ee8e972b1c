//! The learner's last answer, kept in the progress record so both front
//! ends show it again when the exercise is reopened. It is stored as the
//! JSON an answers file holds under the exercise's kind (what
//! [`answer_from_json`](crate::course::answer_from_json) reads), so the
//! terminal and the page write and read the same thing, and a lesson that
//! changed since simply fails to read it back (then nothing is restored).
//!
//! This is the one writer of answers as JSON: the page's solution keys and
//! a break exercise's starting schedule are written here too, in the
//! typed shapes of [`answer_json`](super::answer_json).

#[allow(unused_imports)]
use crate::course::kinds::{design::*, mark::*, predict::*, quiz::*, schedule::*, sql::*};
use serde_json::Value;

use crate::course::answer_json::AnswerJson;
use crate::course::grade::Answer;
use crate::course::lesson::{ExerciseKind, Lesson};

/// `answer` as the JSON of an answers file, for `lesson`'s exercise of
/// `kind` (a break schedule names its world's workers and targets).
pub fn answer_to_json(lesson: &Lesson, kind: &ExerciseKind, answer: &Answer) -> Value {
    serde_json::to_value(answer_json(lesson, kind, answer)).unwrap_or_default()
}

/// `answer` in the typed shape of its kind, for `lesson`'s exercise of
/// `kind`.
pub fn answer_json(lesson: &Lesson, kind: &ExerciseKind, answer: &Answer) -> AnswerJson {
    match answer {
        Answer::Mark(marked) => AnswerJson::Indices(marked.iter().map(|i| u64::from(*i)).collect()),
        Answer::Quiz(chosen) => AnswerJson::Indices(chosen.iter().map(|i| *i as u64).collect()),
        Answer::Predict(predicted) => AnswerJson::Outcomes(
            predicted
                .iter()
                .map(|(step, outcome)| (step.to_string(), outcome.name().to_owned()))
                .collect(),
        ),
        Answer::Design(design) => AnswerJson::Design(design_json(kind, design)),
        Answer::Break(schedule) => {
            let shell = kind.scenario().and_then(|index| lesson.scenario(index));
            AnswerJson::Steps(shell.map_or_else(Vec::new, |shell| steps_json(shell, schedule)))
        }
        // The statements by slot; the run is redone on each try.
        #[cfg(feature = "sql-lab")]
        Answer::Sql(answer) => AnswerJson::Statements(
            answer
                .statements
                .iter()
                .map(|(slot, text)| (slot.name().to_owned(), text.clone()))
                .collect(),
        ),
    }
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

    /// Last answers as earlier builds wrote them read back and are written
    /// again byte for byte: the record's format stays readable both ways.
    #[test]
    fn a_last_answer_is_written_as_it_was_read() -> Result<(), CourseError> {
        let course = CourseSession::from_sources(&[
            (
                "01-liveness-vs-safety",
                include_str!("../../../lessons/01-liveness-vs-safety.toml"),
            ),
            (
                "03-check-at-the-resource",
                include_str!("../../../lessons/03-check-at-the-resource.toml"),
            ),
        ])?;
        let kept = [
            ("01-liveness-vs-safety", "mark-after-the-nap", r#"[8,10]"#),
            ("01-liveness-vs-safety", "quiz-expiry", r#"[1]"#),
            (
                "01-liveness-vs-safety",
                "predict-long-lease",
                r#"{"2":"rejected","3":"ok","6":"ok"}"#,
            ),
            (
                "01-liveness-vs-safety",
                "break-the-long-lease",
                r#"[{"at":0,"do":"claim","worker":"A"},{"at":8,"do":"write","note":{"en":"late","zh":"迟到"},"op":"send-1","target":"report","value":"v1","worker":"A"}]"#,
            ),
            (
                "03-check-at-the-resource",
                "design-protect-the-targets",
                r#"{"reconcile":["t2"],"target_protect":["registered_token","versioned"]}"#,
            ),
            (
                "03-check-at-the-resource",
                "design-protect-the-targets",
                r#"{}"#,
            ),
        ];
        for (lesson, id, text) in kept {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| CourseError::LessonsJson(e.to_string()))?;
            let answer = course.answer_from_json(lesson, id, &value)?;
            let (found, exercise) = course.exercise(lesson, id)?;
            let written = answer_to_json(found, &exercise.kind, &answer);
            assert_eq!(written.to_string(), text, "{id}");
        }
        Ok(())
    }
}
