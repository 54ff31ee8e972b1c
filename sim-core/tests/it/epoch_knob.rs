//! The cancel epoch as a design knob (`open = ["cancel_epoch"]`): read and
//! written back in answers, priced (a call to the registering targets on
//! every cancel), drawn as a toggle with its cost, and keyed on what the
//! explorers prove. Whether the epoch is needed is never written here: the
//! explorers say it first. Built from `lessons/` at run time.

use serde_json::json;
use sim_core::course::{
    Act, Answer, CourseSession, DesignAnswer, DesignExercise, Exercise, Knob, Lesson,
    answer_from_json, answer_to_json, grade, parse_lesson, worked_solution,
};
use sim_core::{Lang, cancel_epoch_cost};

const LESSON_05: &str = "05-cancel-and-reconcile";

fn lesson_text() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../lessons")
        .join(format!("{LESSON_05}.toml"));
    std::fs::read_to_string(path).unwrap()
}

fn lesson_05() -> Lesson {
    parse_lesson(lesson_text().as_bytes()).unwrap()
}

/// The design exercises of `lesson` that open the cancel epoch.
fn epoch_exercises(lesson: &Lesson) -> Vec<&Exercise> {
    lesson
        .exercises
        .iter()
        .filter(|e| {
            DesignExercise::of(&e.kind).is_some_and(|d| d.open.contains(&Knob::CancelEpoch))
        })
        .collect()
}

#[test]
fn the_epoch_knob_parses_and_round_trips_in_answers() {
    assert_eq!(Knob::from_name("cancel_epoch"), Some(Knob::CancelEpoch));
    let lesson = lesson_05();
    let exercises = epoch_exercises(&lesson);
    assert!(!exercises.is_empty(), "lesson 05 opens the cancel epoch");
    for exercise in exercises {
        for on in [false, true] {
            let written = json!({ "cancel_epoch": on });
            let read = answer_from_json(&lesson, exercise, &written).unwrap();
            assert_eq!(
                read,
                Answer::Design(DesignAnswer {
                    cancel_epoch: Some(on),
                    ..DesignAnswer::default()
                })
            );
            assert_eq!(answer_to_json(&lesson, &exercise.kind, &read), written);
        }
        let wrong = answer_from_json(&lesson, exercise, &json!({ "cancel_epoch": "yes" }));
        let wrong = wrong.unwrap_err();
        assert!(
            wrong
                .message(Lang::En)
                .contains("`cancel_epoch` must be true or false")
        );
        assert!(
            wrong
                .message(Lang::Zh)
                .contains("`cancel_epoch` 必须是 true 或 false")
        );
    }
    // An exercise that does not open the knob refuses it by name.
    let closed = lesson
        .exercises
        .iter()
        .find(|e| DesignExercise::of(&e.kind).is_some_and(|d| !d.open.contains(&Knob::CancelEpoch)))
        .expect("lesson 05 has a design exercise without the epoch");
    let refused = answer_from_json(&lesson, closed, &json!({ "cancel_epoch": true })).unwrap_err();
    assert!(refused.message(Lang::En).contains("`cancel_epoch`"));
}

/// The editor draws the epoch as a toggle with its cost and what it costs
/// in reality, in both languages, and an edit turns it.
#[test]
fn the_editor_toggles_the_epoch_and_says_what_it_costs() {
    let text = lesson_text();
    let mut course = CourseSession::from_sources(&[(LESSON_05, text.as_str())]).unwrap();
    let lesson = lesson_05();
    let id = epoch_exercises(&lesson)[0].id.clone();
    for lang in [Lang::En, Lang::Zh] {
        let (row, knob) = crate::editor_row(&mut course, LESSON_05, &id, "cancel_epoch", lang);
        let field = &knob.fields[0];
        assert!(field.label.contains(sim_core::cancel_epoch_words(lang)));
        assert!(field.label.contains(&cancel_epoch_cost(true).to_string()));
        let detail = knob.detail.clone().unwrap();
        let was_on = field.value == "true";
        assert_eq!(detail, sim_core::cancel_epoch_cost_words(was_on, lang));
        let toggle = Act::Edit {
            edit: sim_core::course::Edit::Set {
                row,
                field: 0,
                value: (!was_on).to_string(),
            },
        };
        let turned = course.act(LESSON_05, &id, &toggle, lang).unwrap();
        let turned = &turned.editor.unwrap().rows[row as usize];
        assert_eq!(turned.fields[0].value, (!was_on).to_string());
        assert_eq!(
            turned.detail.as_deref(),
            Some(sim_core::cancel_epoch_cost_words(!was_on, lang))
        );
    }
}

/// The key is the explorers' cheapest safe design; where it turns the
/// epoch on, the same design without it is broken after a cancel, and the
/// grader says so with a counterexample the engine replays.
#[test]
fn the_key_turns_the_epoch_on_only_where_the_explorers_need_it() {
    let lesson = lesson_05();
    for exercise in epoch_exercises(&lesson) {
        let worked = worked_solution(&lesson, exercise).unwrap();
        assert!(worked.grade.correct, "{}", exercise.id);
        let Answer::Design(key) = &worked.key else {
            panic!("a design key")
        };
        let epoch = key.cancel_epoch.expect("the key turns the epoch knob");
        let flipped = DesignAnswer {
            cancel_epoch: Some(!epoch),
            ..key.clone()
        };
        let graded = grade(&lesson, exercise, &Answer::Design(flipped.clone())).unwrap();
        assert!(
            !graded.correct,
            "{}: the key without its epoch passes",
            exercise.id
        );
        if epoch {
            // Without the epoch the same protections are broken: the
            // counterexample is an effect after the cancel, and it replays.
            let found = graded.counterexample.expect("broken without the epoch");
            assert!(
                found.explanation.en.contains("cancelled"),
                "{}",
                found.explanation.en
            );
            let played = sim_core::run(&found.scenario);
            assert!(
                played
                    .violations
                    .iter()
                    .any(|v| v.step == found.step && v.kind == found.kind),
                "{:?}",
                played.violations
            );
        }
    }
}
