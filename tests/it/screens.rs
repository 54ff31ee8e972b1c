//! Both front ends draw the same exercise screen. For every exercise of
//! `lessons/`, in both languages, the terminal app (driven by key presses
//! through its real `update`) and the page (through the calls its scripts
//! make: `Course::act` with the JSON of an `Act`, and for a `sql` exercise
//! the SQL worker's `sqlbox::battery::run` then `Course::hand_in_sql`) go
//! through one script — open, a wrong try, a hint, a second wrong try, the
//! worked solution, the key handed in — and the screen data each drew
//! after every step must be equal.
//!
//! No answer is written here: the key is the session's worked solution,
//! computed at run time, and the wrong answer is that key with one item
//! changed (`front_ends::wrong_answer`).

use fencelab::drive::{KeyCode, Learner};
use fencelab_web::Course;
use serde_json::{Value, json};
use sim_core::Lang;
use sim_core::course::{
    Answer, CourseError, DesignAnswer, DesignExercise, ExerciseKind, ExerciseScreen, Knob, Lesson,
    Pick, Progress, Schedule, answer_to_json,
};

use crate::front_ends::{lessons, wrong_answer};

/// The page's screen without what only the page adds (the counterexample,
/// the schedule and a break's preview as timelines, which the terminal
/// draws from the same scenarios): the counterexample's step is kept, so
/// both must show the same one.
fn page_screen(mut value: Value) -> Value {
    fn strip(feedback: &mut Value) -> Option<u64> {
        let shown = feedback.as_object_mut()?;
        shown.remove("timeline");
        let step = shown
            .remove("counterexample")
            .and_then(|c| c.get("step").and_then(Value::as_u64));
        if let Some(yours) = shown.get_mut("your_try") {
            strip(yours);
        }
        step
    }
    if let Some(feedback) = value.get_mut("feedback").filter(|f| f.is_object()) {
        let step = strip(feedback);
        feedback["counterexample_step"] = json!(step);
    }
    if let Some(shown) = value.as_object_mut() {
        shown.remove("preview");
    }
    value
}

/// The terminal's screen as data, with its counterexample's step.
fn terminal_screen(learner: &Learner, at: &str) -> Value {
    let screen = learner
        .screen()
        .unwrap_or_else(|| panic!("{at}: the terminal drew no exercise screen"));
    let mut value = serde_json::to_value(screen).unwrap();
    if let Some(feedback) = &screen.feedback {
        value["feedback"]["counterexample_step"] =
            json!(feedback.counterexample.as_ref().map(|c| c.step));
    }
    value
}

/// The page's screen after `act` (as its binding reads the JSON text),
/// without what only the page adds ([`page_screen`]), or the session's
/// refusal.
pub(crate) fn try_act(
    page: &mut Course,
    lesson: &str,
    id: &str,
    act: &Value,
    lang: Lang,
) -> Result<Value, CourseError> {
    let parsed = fencelab_web::act_from_json(&act.to_string())
        .unwrap_or_else(|| panic!("{lesson}/{id}: the page's act {act} does not read"));
    page.act(lesson, id, &parsed, lang).map(page_screen)
}

pub(crate) fn act(page: &mut Course, lesson: &str, id: &str, act: &Value, lang: Lang) -> Value {
    try_act(page, lesson, id, act, lang)
        .unwrap_or_else(|e| panic!("{lesson}/{id}: {act}: {}", e.message(lang)))
}

/// A hand-in on the page: a `sql` answer goes through the SQL worker's
/// calls (the battery, then `hand_in_sql`); a mark, predict or quiz answer
/// is chosen on the screen's items, one edit act per click as `app.js`
/// sends them, then handed in without an answer; any other through `act`.
pub(crate) fn hand_in(
    page: &mut Course,
    lesson: &Lesson,
    id: &str,
    answer: &Answer,
    lang: Lang,
) -> Value {
    let (_, exercise) = page.session().exercise(&lesson.id, id).unwrap();
    let answer = &as_the_form_sends(&exercise.kind, answer);
    let value = answer_to_json(lesson, &exercise.kind, answer);
    if let (ExerciseKind::Sql { .. }, Some(statements)) = (&exercise.kind, answer.sql_statements())
    {
        let plan = page.session().sql_plan(&lesson.id, id).unwrap();
        let run = sqlbox::battery::run(&plan, statements);
        let screen = page
            .hand_in_sql(&lesson.id, id, &value, run, lang)
            .unwrap_or_else(|e| panic!("{}/{id}: {}", lesson.id, e.message(lang)));
        return page_screen(screen);
    }
    let screen = (page.session().screen(&lesson.id, id, lang))
        .unwrap_or_else(|e| panic!("{}/{id}: {}", lesson.id, e.message(lang)));
    if screen.choosing.is_some() {
        for edit in item_clicks(&screen, answer) {
            let edit = json!({ "act": "edit", "edit": edit });
            act(page, &lesson.id, id, &edit, lang);
        }
        return act(page, &lesson.id, id, &json!({ "act": "hand_in" }), lang);
    }
    act(
        page,
        &lesson.id,
        id,
        &json!({ "act": "hand_in", "answer": value }),
        lang,
    )
}

/// The choices the page's items send to turn the screen's choices into
/// `answer` (`{"edit": "choose", …}`): an item whose state differs is
/// toggled (any number), the one option chosen (one), or set to its value
/// or cleared (each).
fn item_clicks(screen: &ExerciseScreen, answer: &Answer) -> Vec<Value> {
    let one = screen
        .choosing
        .as_ref()
        .is_some_and(|c| c.pick == Pick::One);
    (screen.items.iter())
        .filter_map(|item| {
            let index = item.index;
            let (click, value) = match answer {
                Answer::Mark(steps) => (steps.contains(&index) != item.chosen, None),
                Answer::Quiz(options) => {
                    let want = options.contains(&(index as usize));
                    // A radio is only ever clicked on.
                    let click = if one {
                        want && !item.chosen
                    } else {
                        want != item.chosen
                    };
                    (click, None)
                }
                Answer::Predict(outcomes) => {
                    let want = (outcomes.iter())
                        .find(|(at, _)| *at == index)
                        .map(|(_, outcome)| outcome.name());
                    (want != item.value, want)
                }
                _ => (false, None),
            };
            click.then(|| json!({ "edit": "choose", "item": index, "value": value }))
        })
        .collect()
}

/// The answer a learner starts from where no item can be changed: a
/// design's start values, a break exercise's given schedule.
pub(crate) fn untouched(lesson: &Lesson, kind: &ExerciseKind) -> Option<Answer> {
    match kind {
        ExerciseKind::Design { .. } => Some(Answer::Design(DesignAnswer::default())),
        ExerciseKind::Break { scenario, .. } => {
            let shell = lesson.scenario(*scenario)?;
            Some(Answer::Break(Schedule::of_scenario(shell)))
        }
        _ => None,
    }
}

/// A design answer as the page's form hands it in: every open knob with
/// the value its control shows (a knob not turned keeps its start value).
fn as_the_form_sends(kind: &ExerciseKind, answer: &Answer) -> Answer {
    let (Some(design), Answer::Design(turned)) = (DesignExercise::of(kind), answer) else {
        return answer.clone();
    };
    let open = |knob: Knob| design.open.contains(&knob);
    let start = design.start;
    Answer::Design(DesignAnswer {
        commit_checks: open(Knob::CommitChecks)
            .then(|| turned.commit_checks.unwrap_or(start.commit_checks)),
        renew_checks: open(Knob::RenewChecks)
            .then(|| turned.renew_checks.unwrap_or(start.renew_checks)),
        token: open(Knob::Token).then(|| turned.token.unwrap_or(start.token)),
        lease_clock: open(Knob::LeaseClock)
            .then(|| turned.lease_clock.unwrap_or(start.lease_clock)),
        target_protect: open(Knob::TargetProtect).then(|| {
            turned
                .target_protect
                .clone()
                .unwrap_or_else(|| design.start_targets())
        }),
        claim: open(Knob::Claim).then(|| turned.claim.unwrap_or(start.claim)),
        cancel_epoch: open(Knob::CancelEpoch)
            .then(|| turned.cancel_epoch.unwrap_or(start.cancel_epoch)),
        input_revision: open(Knob::InputRevision)
            .then(|| turned.input_revision.unwrap_or(start.input_revision)),
        reconcile: turned.reconcile.clone(),
    })
}

/// Where two values differ, as `path: left ≠ right` lines.
fn differences(path: &str, left: &Value, right: &Value, out: &mut Vec<String>) {
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => {
            for key in l.keys().chain(r.keys().filter(|k| !l.contains_key(*k))) {
                let (a, b) = (
                    l.get(key).unwrap_or(&Value::Null),
                    r.get(key).unwrap_or(&Value::Null),
                );
                differences(&format!("{path}.{key}"), a, b, out);
            }
        }
        (Value::Array(l), Value::Array(r)) if l.len() == r.len() => {
            for (i, (a, b)) in l.iter().zip(r).enumerate() {
                differences(&format!("{path}[{i}]"), a, b, out);
            }
        }
        _ if left != right => out.push(format!("{path}: {left} ≠ {right}")),
        _ => {}
    }
}

pub(crate) fn same(learner: &Learner, page: &Value, at: &str) {
    let terminal = terminal_screen(learner, at);
    let mut found = Vec::new();
    differences("screen", &terminal, page, &mut found);
    assert!(
        found.is_empty(),
        "{at}: the terminal (left) and the page (right) drew different screens:\n{}",
        found.join("\n")
    );
}

fn walk(lang: Lang) -> usize {
    let lessons = lessons();
    let progress = Progress {
        lang,
        ..Progress::default()
    };
    let mut learner = Learner::with_progress(lessons.clone(), progress.clone());
    let mut page = Course::embedded().unwrap();
    page.load_progress(&progress.to_json()).unwrap();
    let mut walked = 0;
    for (lesson_index, lesson) in lessons.iter().enumerate() {
        for (index, exercise) in lesson.exercises.iter().enumerate() {
            let id = exercise.id.as_str();
            let at = |step: &str| format!("{}/{id} ({lang:?}) {step}", lesson.id);
            let key = sim_core::course::worked_solution(lesson, exercise)
                .unwrap_or_else(|e| panic!("{}: {e:?}", at("key")))
                .key;
            let wrong = wrong_answer(lesson, &exercise.kind, &key)
                .or_else(|| untouched(lesson, &exercise.kind))
                .unwrap_or_else(|| panic!("{}: no wrong answer to make", at("wrong")));

            learner.open_exercise(lesson_index, index);
            let opened = act(&mut page, &lesson.id, id, &json!({ "act": "open" }), lang);
            same(&learner, &opened, &at("open"));
            // A design's or break's editor is the session's, drawn by both
            // (its rows, choices and words are part of the screen compared).
            let edited = matches!(
                exercise.kind,
                ExerciseKind::Design { .. } | ExerciseKind::Break { .. }
            );
            assert_eq!(opened["editor"].is_object(), edited, "{}", at("editor"));
            // The page edits through the same act; the next screens compared
            // come after a hand-in, which both make the answer in the making.
            let cyclable = opened["editor"]["rows"][0]["fields"][0]["cyclable"] == json!(true);
            if edited && cyclable {
                let edit = json!({ "act": "edit", "edit": { "edit": "cycle", "row": 0, "field": 0, "forward": true } });
                let turned = act(&mut page, &lesson.id, id, &edit, lang);
                assert_ne!(
                    turned["editor"]["rows"][0]["fields"][0]["value"],
                    opened["editor"]["rows"][0]["fields"][0]["value"],
                    "{}",
                    at("an edit")
                );
            }

            learner.enter_answer(&wrong);
            learner.key(KeyCode::Enter);
            let first = hand_in(&mut page, lesson, id, &wrong, lang);
            same(&learner, &first, &at("a wrong try"));
            assert_eq!(first["feedback"]["tone"], "bad", "{}", at("a wrong try"));

            learner.key(KeyCode::Char('h'));
            let hinted = act(&mut page, &lesson.id, id, &json!({ "act": "hint" }), lang);
            same(&learner, &hinted, &at("a hint"));

            learner.enter_answer(&wrong);
            learner.key(KeyCode::Enter);
            let second = hand_in(&mut page, lesson, id, &wrong, lang);
            same(&learner, &second, &at("a second wrong try"));

            learner.key(KeyCode::Char('s'));
            let solution = act(
                &mut page,
                &lesson.id,
                id,
                &json!({ "act": "solution" }),
                lang,
            );
            same(&learner, &solution, &at("the solution"));
            assert_eq!(
                solution["feedback"]["tone"],
                "solution",
                "{}",
                at("solution")
            );
            assert_eq!(
                solution["feedback"]["your_try"]["tone"],
                "bad",
                "{}",
                at("the solution keeps the learner's try as graded")
            );

            // Back to the lesson and in again: the screen starts from the
            // learner's last answer, without the feedback.
            learner.key(KeyCode::Esc);
            learner.key(KeyCode::Enter);
            act(&mut page, &lesson.id, id, &json!({ "act": "leave" }), lang);
            let reopened = act(&mut page, &lesson.id, id, &json!({ "act": "open" }), lang);
            same(&learner, &reopened, &at("reopened"));
            learner.enter_answer(&key);
            learner.key(KeyCode::Enter);
            let right = hand_in(&mut page, lesson, id, &key, lang);
            same(&learner, &right, &at("the key handed in"));
            assert_eq!(right["feedback"]["tone"], "good", "{}", at("right"));
            assert_eq!(
                right["standing"],
                "solved-with-solution",
                "{}",
                at("a key copied after the solution")
            );
            walked += 1;
        }
    }
    walked
}

#[test]
fn both_front_ends_draw_the_same_screen_on_every_exercise_in_english() {
    let walked = walk(Lang::En);
    assert!(walked >= 60, "{walked} exercises walked");
}

#[test]
fn both_front_ends_draw_the_same_screen_on_every_exercise_in_chinese() {
    let walked = walk(Lang::Zh);
    assert!(walked >= 60, "{walked} exercises walked");
}
