//! The bindings under Node (`wasm-bindgen-test-runner`): the explorers in
//! WebAssembly find the same counterexamples and count the same states as
//! natively (the numbers pinned in sim-core's native tests), and the
//! course (embedded lessons, the exercise screen's acts, progress) works
//! the same there.
#![cfg(target_arch = "wasm32")]
// `#[wasm_bindgen_test]` functions are not `#[test]`s to clippy, so
// allow-unwrap-in-tests does not reach them; they are test code all the same.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a failing unwrap is a failing test, with its message"
)]

use serde_json::{Value, json};
use sim_core::Lang;
use wasm_bindgen_test::wasm_bindgen_test;

fn explore(options: &str) -> Value {
    let text = fencelab_web::explore_json(options, Lang::En).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_default()
}

#[wasm_bindgen_test]
fn exhaustive_search_counts_the_same_states_in_wasm() {
    let safe = explore(r#"{"design":"fenced-registered","exhaustive":true}"#);
    assert_eq!(safe["verdict"], "safe");
    assert_eq!(safe["stats"]["states"], 3017);
    let unsafe_ = explore(r#"{"design":"client-check","exhaustive":true}"#);
    assert_eq!(unsafe_["schedule"].as_array().map(Vec::len), Some(7));
}

#[wasm_bindgen_test]
fn random_search_shrinks_to_a_replayable_counterexample_in_wasm() {
    let found = explore(r#"{"design":"idempotency-only","seed":7,"cases":256}"#);
    assert_eq!(found["verdict"], "unsafe");
    let step = found["violation"]["step"].clone();
    let violations = found["trace"]["violations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(violations.iter().any(|v| v["step"] == step));
}

/// The page's screen after `act` (JSON text, read as the page's binding
/// reads it), or the session's refusal in English.
fn act(
    course: &mut fencelab_web::Course,
    lesson: &str,
    id: &str,
    act: &Value,
) -> Result<Value, String> {
    let read = fencelab_web::act_from_json(&act.to_string()).unwrap();
    course
        .act(lesson, id, &read, Lang::En)
        .map_err(|e| e.message(Lang::En))
}

#[wasm_bindgen_test]
fn the_embedded_course_grades_and_keeps_progress_in_wasm() {
    let mut course = fencelab_web::Course::embedded().unwrap();
    let map = course.map(Lang::En);
    assert_eq!(map["lessons"].as_array().map(Vec::len), Some(12));
    let lesson = "01-liveness-vs-safety";
    let found = course.lesson_json(lesson, Lang::Zh).unwrap_or_default();
    let mark = found["exercises"]
        .as_array()
        .and_then(|list| list.iter().find(|e| e["kind"] == "mark").cloned())
        .unwrap_or_default();
    let id = mark["id"].as_str().unwrap_or_default().to_owned();
    let hidden = course
        .exercise_timeline(lesson, &id, Lang::En)
        .unwrap_or_default();
    assert_eq!(hidden["revealed"], false);
    let solution = json!({"act": "solution"});
    assert!(act(&mut course, lesson, &id, &solution).is_err());
    // An empty answer is refused and not counted: the solution stays shut.
    let empty = json!({"act": "hand_in", "answer": []});
    assert!(act(&mut course, lesson, &id, &empty).is_err());
    assert!(act(&mut course, lesson, &id, &solution).is_err());
    // Every candidate marked is wrong: lint keeps a step that must be allowed.
    let opened = act(&mut course, lesson, &id, &json!({"act": "open"})).unwrap();
    let candidates: Vec<&Value> = (opened["items"].as_array().into_iter().flatten())
        .map(|item| &item["index"])
        .collect();
    let every = json!({"act": "hand_in", "answer": candidates});
    let first = act(&mut course, lesson, &id, &every).unwrap();
    assert_eq!(first["feedback"]["tone"], "bad");
    assert_eq!(first["tries"], 1);
    let shown = act(&mut course, lesson, &id, &solution).unwrap();
    assert_eq!(shown["feedback"]["tone"], "solution");
    let key = json!({"act": "hand_in", "answer": shown["feedback"]["key_answer"]});
    let right = act(&mut course, lesson, &id, &key).unwrap();
    assert_eq!(right["feedback"]["tone"], "good");
    let saved = course.progress_json();
    let mut again = fencelab_web::Course::embedded().unwrap();
    again.load_progress(&saved).unwrap();
    let shown = again
        .exercise_timeline(lesson, &id, Lang::En)
        .unwrap_or_default();
    assert_eq!(shown["revealed"], true);
    let reopened = act(&mut again, lesson, &id, &json!({"act": "open"})).unwrap();
    assert_eq!(reopened["standing"], "solved-with-solution");
    assert_eq!(reopened["tries"], 2);
    assert!(again.load_progress("not json").is_err());
}

#[wasm_bindgen_test]
fn a_pasted_scenario_reports_line_and_column_in_wasm() {
    let error = fencelab_web::sandbox("id = \"x\"\nttl = 2\nworkers = [\"A\"]\nsteps = [{ at = 0, worker = \"Z\", do = \"claim\" }]\n", Lang::En)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(error.starts_with("4:"), "{error}");
}
