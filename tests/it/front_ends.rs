//! The terminal and the page teach the same course: for every exercise of
//! `lessons/`, the terminal app (driven by key presses through its real
//! `update`) and the page (through the calls its scripts make:
//! `Course::act`, and for SQL the worker's `hand_in_sql`) go through the
//! same steps — a hint before any try, the solution asked too early, an
//! untouched answer (refused uncounted when it is empty), a wrong answer
//! (for SQL a second one, naming the failing case), the worked solution,
//! then the page's key handed in again — and must draw the same screens
//! where `screens.rs` does not compare them, show the same timelines, and
//! keep the same progress record. After the wrong answer neither may show
//! any item's right value or reason, an option's explanation, or the
//! takeaway: an exercise stays a puzzle until solved.
//!
//! No answer is written here: the key comes from the session's worked
//! solution, computed by the engine and the explorers at run time, and the
//! wrong answer is that key with one item changed.

use fencelab::drive::{KeyCode, Learner};
use fencelab_web::Course;
use serde_json::{Value, json};
use sim_core::course::{Answer, ExerciseKind, Lesson, MarkKey, Progress, mark_keys, parse_lesson};
use sim_core::{Lang, Outcome, Reveal, Text};

use crate::screens;

const LANG: Lang = Lang::En;

pub(crate) fn lessons() -> Vec<Lesson> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut lessons: Vec<Lesson> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            parse_lesson(&bytes).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
        })
        .collect();
    lessons.sort_by_key(|lesson| lesson.order);
    lessons
}

/// What the page's timeline JSON reveals, as a `Reveal`.
fn page_reveal(timeline: &Value) -> Reveal {
    if timeline["revealed"] == true {
        return Reveal::Everything;
    }
    let hidden: Vec<u32> = timeline["steps"]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .enumerate()
                .filter(|(_, step)| step["mark"] == "hidden")
                .map(|(index, _)| index as u32)
                .collect()
        })
        .unwrap_or_default();
    if hidden.is_empty() {
        Reveal::NoVerdicts
    } else {
        Reveal::NotTheseSteps(hidden)
    }
}

/// The page's timeline of the exercise as it stands: the exercise's own, or
/// for a break exercise the editor's preview of its schedule in the making.
fn page_timeline(page: &Course, lesson: &str, exercise: &Value) -> Option<Value> {
    let id = exercise["id"].as_str().unwrap_or_default();
    if exercise["kind"] == "break" {
        page.schedule_preview(lesson, id, LANG).ok()
    } else {
        page.exercise_timeline(lesson, id, LANG).ok()
    }
}

/// The page's untouched answer: what its editor starts from.
fn blank_answer(exercise: &Value) -> Value {
    match exercise["kind"].as_str() {
        Some("predict" | "sql") => json!({}),
        _ => json!([]),
    }
}

/// The key with one item changed, so that it is wrong and not empty: a
/// mark answer also refusing a step that must be allowed, a prediction
/// changed, a quiz choice flipped. `None` for design and break, whose
/// untouched answer is the wrong try.
pub(crate) fn wrong_answer(lesson: &Lesson, kind: &ExerciseKind, key: &Answer) -> Option<Answer> {
    match (kind, key) {
        (
            ExerciseKind::Mark {
                scenario,
                candidates,
            },
            Answer::Mark(steps),
        ) => {
            let keys = mark_keys(lesson.scenario(*scenario)?, candidates);
            let allowed = keys.iter().find(|(_, k)| *k == MarkKey::MustAllow)?.0;
            let mut wrong = steps.clone();
            wrong.push(allowed);
            wrong.sort_unstable();
            Some(Answer::Mark(wrong))
        }
        (ExerciseKind::Predict { .. }, Answer::Predict(outcomes)) => {
            let mut wrong = outcomes.clone();
            let first = wrong.first_mut()?;
            first.1 = if first.1 == Outcome::Ok {
                Outcome::Rejected
            } else {
                Outcome::Ok
            };
            Some(Answer::Predict(wrong))
        }
        // The model's statements with the finish's state condition dropped.
        (ExerciseKind::Sql { .. }, Answer::Sql(sql)) => {
            let mut wrong = sql.clone();
            let finish = wrong.statements.get_mut(&sim_core::sqllab::Slot::Finish)?;
            *finish = finish.replace(" AND state = 'running'", "");
            Some(Answer::Sql(wrong))
        }
        (ExerciseKind::Quiz { options, multiple }, Answer::Quiz(chosen)) => {
            let other = (0..options.len()).find(|i| !chosen.contains(i))?;
            let wrong = if *multiple {
                let mut wrong = chosen.clone();
                wrong.push(other);
                wrong.sort_unstable();
                wrong
            } else {
                vec![other]
            };
            Some(Answer::Quiz(wrong))
        }
        _ => None,
    }
}

/// Runs of white space as one space: the terminal wraps its panel.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// After a wrong try neither front end says `secret` (a reason, a right
/// value, an explanation, the takeaway).
fn assert_unsaid(at: &str, secret: &Text, page: &Value, terminal: &str) {
    let said = squeezed(secret.get(LANG));
    if said.is_empty() {
        return;
    }
    assert!(
        !squeezed(&page.to_string()).contains(&said),
        "{at}: the page shows {said:?} after a wrong try"
    );
    assert!(
        !squeezed(terminal).contains(&said),
        "{at}: the terminal shows {said:?} after a wrong try"
    );
}

fn check_reveal(page: &Course, learner: &Learner, lesson: &str, exercise: &Value, when: &str) {
    let id = &exercise["id"];
    let shown = page_timeline(page, lesson, exercise).map(|t| page_reveal(&t));
    assert_eq!(learner.reveal(), shown, "{lesson}/{id} {when}: reveal");
}

/// `answer` as it is graded: a `sql` answer with the run of its
/// statements on SQLite (as the page's SQL worker runs them).
fn run_sql(page: &Course, lesson: &str, id: &str, answer: &Answer) -> Answer {
    let mut run = answer.clone();
    if let Answer::Sql(sql) = &mut run {
        let plan = page
            .session()
            .sql_plan(lesson, id)
            .unwrap_or_else(|e| panic!("{lesson}/{id}: {e}"));
        sql.run = Some(sqlbox::battery::run(&plan, &sql.statements));
    }
    run
}

/// A `sql` exercise after its first wrong try (the model's statements
/// with the finish's state condition dropped): a count only, no case
/// named; the second wrong try names the failing case and the row counts,
/// on both front ends.
fn sql_second_wrong_try(
    page: &mut Course,
    learner: &mut Learner,
    lesson: &Lesson,
    id: &str,
    first: &Value,
    wrong: &Answer,
    at: &str,
) {
    assert_eq!(
        first["feedback"]["items"],
        json!([]),
        "{at}: the first wrong try names cases"
    );
    let summary = first["feedback"]["summary"].as_str().unwrap_or_default();
    assert!(summary.contains("of"), "{at}: {first:#}");
    learner.enter_answer(wrong);
    learner.key(KeyCode::Enter);
    let second = screens::hand_in(page, lesson, id, wrong, LANG);
    screens::same(learner, &second, &format!("{at}: the second wrong try"));
    let (on_page, named) = (second.to_string(), learner.panel_text());
    for said in ["cancelled", "must change 0"] {
        assert!(named.contains(said), "{at}: the terminal: {named}");
        assert!(on_page.contains(said), "{at}: the page: {second:#}");
    }
}

#[test]
fn the_terminal_and_the_page_agree_on_every_exercise() {
    let mut page = Course::embedded().unwrap();
    let mut learner = Learner::new(lessons());
    let ids: Vec<String> = learner
        .session()
        .lessons()
        .iter()
        .map(|l| l.id.clone())
        .collect();
    let mut checked = 0;
    for (lesson_index, lesson) in ids.iter().enumerate() {
        let shown = page.lesson_json(lesson, LANG).unwrap();
        let exercises = shown["exercises"].as_array().cloned().unwrap_or_default();
        for (index, exercise) in exercises.iter().enumerate() {
            let id = exercise["id"].as_str().unwrap_or_default();
            let at = format!("{lesson}/{id}");
            learner.open_exercise(lesson_index, index);
            assert_eq!(learner.on_exercise(), Some((lesson_index, index)), "{at}");
            let opened = screens::act(&mut page, lesson, id, &json!({"act": "open"}), LANG);
            screens::same(&learner, &opened, &format!("{at}: open"));
            check_reveal(&page, &learner, lesson, exercise, "before a try");

            // The first hint, before any try.
            learner.key(KeyCode::Char('h'));
            let hinted = screens::act(&mut page, lesson, id, &json!({"act": "hint"}), LANG);
            // The hints part of the screens (the terminal also keeps its
            // untouched answer in the making on any key, the page only
            // when it is edited: their `answer` may differ here).
            let terminal = learner
                .screen()
                .map(|screen| serde_json::to_value(screen).unwrap())
                .unwrap_or_default();
            for part in ["hints", "more_hints", "hint_button"] {
                assert_eq!(
                    terminal[part], hinted[part],
                    "{at}: a hint before a try: {part}"
                );
            }
            let hints = learner
                .session()
                .shown_hints(lesson, id)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(
                hints.iter().map(|h| h.get(LANG)).collect::<Vec<_>>(),
                [hinted["hints"][0].as_str().unwrap_or_default()],
                "{at}: the first hint"
            );

            // The solution before any try: both refuse.
            learner.key(KeyCode::Char('s'));
            assert!(learner.solution().is_none(), "{at}: solution before a try");
            let early = screens::try_act(&mut page, lesson, id, &json!({"act": "solution"}), LANG);
            assert!(
                early.is_err(),
                "{at}: the page opened the solution before a try"
            );

            let (found, authored) = learner
                .session()
                .exercise(lesson, id)
                .map(|(l, e)| (l.clone(), e.clone()))
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let key = sim_core::course::worked_solution(&found, &authored)
                .unwrap_or_else(|e| panic!("{at}: {e}"))
                .key;

            // The untouched answer: a design's start values and a break
            // exercise's given schedule are a try; the others are empty,
            // refused and not counted.
            learner.key(KeyCode::Enter);
            let graded = match screens::untouched(&found, &authored.kind) {
                Some(untouched) => {
                    let graded = screens::hand_in(&mut page, &found, id, &untouched, LANG);
                    screens::same(&learner, &graded, &format!("{at}: untouched answer"));
                    graded
                }
                None => {
                    let blank = json!({"act": "hand_in", "answer": blank_answer(exercise)});
                    let refused = screens::try_act(&mut page, lesson, id, &blank, LANG)
                        .err()
                        .unwrap_or_else(|| panic!("{at}: the page graded an empty answer"));
                    assert_eq!(
                        learner.grade(),
                        None,
                        "{at}: the terminal graded an empty answer"
                    );
                    let said = learner.status().unwrap_or_default();
                    assert!(said.contains(&refused.message(LANG)), "{at}: {said}");
                    for (side, session) in
                        [("terminal", learner.session()), ("page", page.session())]
                    {
                        let tries = session.exercise_progress(lesson, id).attempts;
                        assert_eq!(tries, 0, "{at}: the {side} counted an empty answer");
                    }
                    // A wrong answer instead, the key with one item changed.
                    let wrong = wrong_answer(&found, &authored.kind, &key)
                        .unwrap_or_else(|| panic!("{at}: no wrong answer to make"));
                    learner.enter_answer(&wrong);
                    learner.key(KeyCode::Enter);
                    let graded = screens::hand_in(&mut page, &found, id, &wrong, LANG);
                    screens::same(&learner, &graded, &format!("{at}: wrong answer"));
                    assert_eq!(graded["feedback"]["tone"], "bad", "{at}: {graded:#}");
                    // What a teacher sees of it, every item with its reason.
                    let full = sim_core::course::grade(
                        &found,
                        &authored,
                        &run_sql(&page, lesson, id, &wrong),
                    )
                    .unwrap_or_else(|e| panic!("{at}: {e}"));
                    let shown = learner.panel_text();
                    for item in &full.items {
                        assert_unsaid(&at, &item.text, &graded, &shown);
                    }
                    if let ExerciseKind::Quiz { options, .. } = &authored.kind {
                        for option in options {
                            assert_unsaid(&at, &option.why, &graded, &shown);
                        }
                    }
                    if let ExerciseKind::Sql { .. } = &authored.kind {
                        sql_second_wrong_try(
                            &mut page,
                            &mut learner,
                            &found,
                            id,
                            &graded,
                            &wrong,
                            &at,
                        );
                    }
                    graded
                }
            };
            if graded["feedback"]["tone"] == "bad" {
                check_reveal(&page, &learner, lesson, exercise, "after a wrong try");
                assert_eq!(
                    graded["feedback"]["takeaway"],
                    Value::Null,
                    "{at}: {graded:#}"
                );
                assert_unsaid(&at, &authored.takeaway, &graded, &learner.panel_text());
            }

            // The worked solution (both screens equal: tests/it/screens.rs).
            learner.key(KeyCode::Char('s'));
            let solved = screens::act(&mut page, lesson, id, &json!({"act": "solution"}), LANG);
            assert_eq!(solved["feedback"]["tone"], "solution", "{at}: {solved:#}");
            let items = solved["feedback"]["items"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert!(
                items.iter().all(|item| item["right"] == true),
                "{at}: the solution grades right: {solved:#}"
            );
            check_reveal(&page, &learner, lesson, exercise, "after the solution");

            // The page's key, handed in again in a fresh visit.
            let page_key = page
                .session()
                .answer_from_json(lesson, id, &solved["feedback"]["key_answer"])
                .unwrap_or_else(|e| panic!("{at}: the page's key does not read: {e}"));
            assert_eq!(
                page_key, key,
                "{at}: the page's key is the worked solution's"
            );
            learner.key(KeyCode::Esc);
            learner.key(KeyCode::Enter);
            learner.enter_answer(&key);
            learner.key(KeyCode::Enter);
            screens::act(&mut page, lesson, id, &json!({"act": "leave"}), LANG);
            screens::act(&mut page, lesson, id, &json!({"act": "open"}), LANG);
            let again = screens::hand_in(&mut page, &found, id, &page_key, LANG);
            assert_eq!(
                again["feedback"]["tone"], "good",
                "{at}: the key grades right"
            );
            assert_eq!(
                learner.grade().map(|g| g.correct),
                Some(true),
                "{at}: the key"
            );
            if let Answer::Break(schedule) = &key {
                assert!(!schedule.steps.is_empty(), "{at}: a breaking schedule");
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} exercises");
    let page_progress: Value = serde_json::from_str(&page.progress_json()).unwrap();
    let terminal_progress: Value =
        serde_json::from_str(&learner.session().export_progress()).unwrap();
    // The same record of every exercise, SQL's too (the terminal also read
    // the pages it walked through; the page here did not).
    for lesson in &ids {
        assert_eq!(
            terminal_progress["lessons"][lesson]["exercises"],
            page_progress["lessons"][lesson]["exercises"],
            "{lesson}: progress"
        );
    }
}

/// Every quiz's options in the order each front end shows them to a
/// learner with `seed`: (lesson/exercise, terminal order, page order), the
/// page holding the record the terminal saved and drawing its screen's
/// items in order.
fn quiz_orders(lessons: &[Lesson], seed: u32) -> Vec<(String, Vec<usize>, Vec<usize>)> {
    let progress = Progress {
        seed: Some(seed),
        ..Progress::default()
    };
    let mut learner = Learner::with_progress(lessons.to_vec(), progress);
    let mut page = Course::embedded().unwrap();
    page.load_progress(&learner.session().export_progress())
        .unwrap();
    let mut orders = Vec::new();
    for (lesson_index, lesson) in lessons.iter().enumerate() {
        for (index, exercise) in lesson.exercises.iter().enumerate() {
            if !matches!(exercise.kind, ExerciseKind::Quiz { .. }) {
                continue;
            }
            learner.open_exercise(lesson_index, index);
            let terminal = learner.quiz_order();
            // The page draws the options as its screen's items, in order.
            let open = json!({"act": "open"});
            let screen = screens::act(&mut page, &lesson.id, &exercise.id, &open, LANG);
            let on_page: Vec<usize> = screen["items"]
                .as_array()
                .unwrap_or_else(|| panic!("{}/{}: no options", lesson.id, exercise.id))
                .iter()
                .map(|item| item["index"].as_u64().unwrap() as usize)
                .collect();
            orders.push((
                format!("{}/{}", lesson.id, exercise.id),
                terminal.unwrap_or_default(),
                on_page,
            ));
        }
    }
    orders
}

/// One learner sees each quiz's options in one order on both front ends;
/// another learner sees the correct option of some single-choice quiz at
/// a different position.
#[test]
fn a_learners_quiz_order_is_the_same_on_both_front_ends() {
    let lessons = lessons();
    let first = quiz_orders(&lessons, 1);
    let second = quiz_orders(&lessons, 2);
    assert!(first.len() >= 7, "only {} quizzes", first.len());
    for (at, terminal, page) in first.iter().chain(&second) {
        assert_eq!(terminal, page, "{at}: the same seed, another order");
    }
    let moved = lessons
        .iter()
        .flat_map(|lesson| lesson.exercises.iter().map(move |e| (lesson, e)))
        .filter_map(|(lesson, exercise)| match &exercise.kind {
            ExerciseKind::Quiz {
                multiple: false,
                options,
            } => {
                let correct = options.iter().position(|o| o.correct)?;
                let at = format!("{}/{}", lesson.id, exercise.id);
                let position = |orders: &[(String, Vec<usize>, Vec<usize>)]| {
                    orders
                        .iter()
                        .find(|(name, _, _)| *name == at)
                        .and_then(|(_, order, _)| order.iter().position(|&o| o == correct))
                };
                Some(position(&first) != position(&second))
            }
            _ => None,
        })
        .filter(|moved| *moved)
        .count();
    assert!(
        moved > 0,
        "two learners see every correct option at one position"
    );
}
