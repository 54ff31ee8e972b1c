//! The terminal and the page teach the same course: for every exercise of
//! `lessons/`, the terminal app (driven by key presses through its real
//! `update`) and the page's `Course` (its JSON) go through the same steps —
//! a hint, the solution asked too early, an untouched answer (refused
//! uncounted when it is empty), a wrong answer, the worked solution, then
//! the solution's key entered again — and must show the same reveal, hint,
//! grade and solution, and keep the same progress record. After the wrong
//! answer neither may show any item's right value or reason, an option's
//! explanation, or the takeaway: an exercise stays a puzzle until solved.
//!
//! No answer is written here: the key comes from the session's worked
//! solution, computed by the engine and the explorers at run time, and the
//! wrong answer is that key with one item changed.

use fencelab::drive::{KeyCode, Learner};
use fencelab_web::Course;
use serde_json::{Value, json};
use sim_core::course::{
    Answer, ExerciseKind, Feedback, Grade, Lesson, MarkKey, Progress, answer_to_json, mark_keys,
    parse_lesson,
};
use sim_core::{Lang, Reveal};
use sim_core::{Outcome, Text};

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

/// What the terminal shows of a try, as the page's JSON has it.
fn feedback_value(grade: &Feedback) -> Value {
    json!({
        "correct": grade.correct,
        "summary": grade.summary.get(LANG),
        "items": grade.items.iter().map(|item| json!({
            "index": item.index,
            "right": item.right,
            "text": item.text.get(LANG),
        })).collect::<Vec<_>>(),
    })
}

/// A worked solution's grade as the page's JSON has it.
fn grade_value(grade: &Grade) -> Value {
    json!({
        "correct": grade.correct,
        "summary": grade.summary.get(LANG),
        "items": grade.items.iter().map(|item| json!({
            "index": item.index,
            "right": item.right,
            "text": item.text.get(LANG),
        })).collect::<Vec<_>>(),
    })
}

/// The parts of the page's grade the terminal shows.
fn page_grade(value: &Value) -> Value {
    json!({
        "correct": value["correct"],
        "summary": value["summary"],
        "items": value["items"],
    })
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
/// for a break exercise the editor's preview of `schedule`.
fn page_timeline(page: &Course, lesson: &str, exercise: &Value, schedule: &Value) -> Option<Value> {
    let id = exercise["id"].as_str().unwrap_or_default();
    if exercise["kind"] == "break" {
        page.break_preview(lesson, id, schedule, LANG).ok()
    } else {
        page.exercise_timeline(lesson, id, LANG).ok()
    }
}

/// The page's untouched answer: what its editor starts from.
fn blank_answer(exercise: &Value) -> Value {
    match exercise["kind"].as_str() {
        Some("predict" | "design" | "sql") => json!({}),
        Some("break") => exercise["steps"].clone(),
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
    let shown = page_timeline(page, lesson, exercise, &exercise["steps"]).map(|t| page_reveal(&t));
    assert_eq!(learner.reveal(), shown, "{lesson}/{id} {when}: reveal");
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
            check_reveal(&page, &learner, lesson, exercise, "before a try");

            // The first hint.
            learner.key(KeyCode::Char('h'));
            let hint = page
                .hint(lesson, id, 0, LANG)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let hints = learner
                .session()
                .shown_hints(lesson, id)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(
                hints.first().map(|h| h.get(LANG)),
                hint["text"].as_str(),
                "{at}: hint"
            );

            // The solution before any try: both refuse.
            learner.key(KeyCode::Char('s'));
            assert!(learner.solution().is_none(), "{at}: solution before a try");
            assert!(page.solution(lesson, id, LANG).is_err(), "{at}");

            let (found, authored) = learner
                .session()
                .exercise(lesson, id)
                .map(|(l, e)| (l.clone(), e.clone()))
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let key = sim_core::course::worked_solution(&found, &authored)
                .unwrap_or_else(|e| panic!("{at}: {e}"))
                .key;

            // The untouched answer: refused and not counted when empty.
            learner.key(KeyCode::Enter);
            let untouched = page.grade(lesson, id, &blank_answer(exercise), LANG);
            let terminal = learner.grade().map(feedback_value);
            let graded = match untouched {
                Ok(graded) => {
                    assert_eq!(
                        terminal,
                        Some(page_grade(&graded)),
                        "{at}: untouched answer"
                    );
                    graded
                }
                Err(refused) => {
                    assert_eq!(terminal, None, "{at}: the terminal graded an empty answer");
                    let said = learner.status().unwrap_or_default();
                    assert!(said.contains(&refused.message(LANG)), "{at}: {said}");
                    assert_eq!(
                        learner.session().exercise_progress(lesson, id).attempts,
                        0,
                        "{at}: an empty answer was counted"
                    );
                    // A wrong answer instead, the key with one item changed.
                    let wrong = wrong_answer(&found, &authored.kind, &key)
                        .unwrap_or_else(|| panic!("{at}: no wrong answer to make"));
                    learner.enter_answer(&wrong);
                    learner.key(KeyCode::Enter);
                    // The page runs SQL only once it has its engine (the
                    // terminal runs it natively): the terminal's side alone.
                    if let ExerciseKind::Sql { .. } = &authored.kind {
                        sql_terminal_walk(&mut learner, &found, &authored, &key, &wrong, &at);
                        checked += 1;
                        continue;
                    }
                    let graded = page
                        .grade(
                            lesson,
                            id,
                            &answer_to_json(&found, &authored.kind, &wrong),
                            LANG,
                        )
                        .unwrap_or_else(|e| panic!("{at}: {e}"));
                    let terminal = learner.grade().map(feedback_value);
                    assert_eq!(terminal, Some(page_grade(&graded)), "{at}: wrong answer");
                    assert_eq!(graded["correct"], false, "{at}: {graded}");
                    // What a teacher sees of it, every item with its reason.
                    let full = sim_core::course::grade(&found, &authored, &wrong)
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
                    graded
                }
            };
            if graded["correct"] == false {
                check_reveal(&page, &learner, lesson, exercise, "after a wrong try");
                assert!(graded.get("takeaway").is_none(), "{at}: {graded}");
                assert_unsaid(&at, &authored.takeaway, &graded, &learner.panel_text());
            }

            // The worked solution.
            learner.key(KeyCode::Char('s'));
            let solved = page
                .solution(lesson, id, LANG)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let terminal = learner.solution().map(grade_value);
            assert_eq!(terminal, Some(page_grade(&solved)), "{at}: solution");
            assert_eq!(solved["correct"], true, "{at}: the solution grades right");
            check_reveal(&page, &learner, lesson, exercise, "after the solution");

            // The key, entered again in a fresh visit.
            learner.key(KeyCode::Esc);
            learner.key(KeyCode::Enter);
            learner.enter_answer(&key);
            learner.key(KeyCode::Enter);
            let again = page
                .grade(lesson, id, &solved["key"], LANG)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let terminal = learner.grade().map(feedback_value);
            assert_eq!(terminal, Some(page_grade(&again)), "{at}: the key");
            assert_eq!(again["correct"], true, "{at}: the key grades right");
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
    let sql_ids: Vec<String> = learner
        .session()
        .lessons()
        .iter()
        .flat_map(|l| &l.exercises)
        .filter(|e| matches!(e.kind, ExerciseKind::Sql { .. }))
        .map(|e| e.id.clone())
        .collect();
    // The same record of every exercise (the terminal also read the pages it
    // walked through; the page here did not).
    // SQL exercises are graded by the terminal only (the page runs no SQL
    // yet), so their records differ by design.
    let graded_by_both = |record: &Value| -> Value {
        let mut record = record.clone();
        if let Some(exercises) = record.as_object_mut() {
            exercises.retain(|id, _| !sql_ids.contains(id));
        }
        record
    };
    for lesson in &ids {
        assert_eq!(
            graded_by_both(&terminal_progress["lessons"][lesson]["exercises"]),
            graded_by_both(&page_progress["lessons"][lesson]["exercises"]),
            "{lesson}: progress"
        );
    }
}

/// A `sql` exercise in the terminal after its wrong try (entered and
/// graded already): a count only, no case named, no takeaway; the worked
/// solution; then the key typed again grades right.
fn sql_terminal_walk(
    learner: &mut Learner,
    lesson: &Lesson,
    exercise: &sim_core::course::Exercise,
    key: &Answer,
    wrong: &Answer,
    at: &str,
) {
    let graded = learner
        .grade()
        .cloned()
        .unwrap_or_else(|| panic!("{at}: the wrong try was not graded: {:?}", learner.status()));
    assert!(!graded.correct, "{at}: the wrong statements passed");
    assert!(
        graded.items.is_empty(),
        "{at}: the first wrong try names cases"
    );
    assert!(graded.summary.get(LANG).contains("of"), "{at}: {graded:?}");
    assert_unsaid(at, &exercise.takeaway, &Value::Null, &learner.panel_text());
    assert_eq!(
        learner
            .session()
            .exercise_progress(&lesson.id, &exercise.id)
            .attempts,
        1,
        "{at}"
    );
    // The second wrong try names the failing case and the row counts.
    learner.enter_answer(wrong);
    learner.key(KeyCode::Enter);
    let named = learner.panel_text();
    assert!(named.contains("cancelled"), "{at}: {named}");
    assert!(named.contains("must change 0"), "{at}: {named}");
    learner.key(KeyCode::Char('s'));
    let solution = learner
        .solution()
        .unwrap_or_else(|| panic!("{at}: no solution"));
    assert!(solution.correct, "{at}");
    learner.key(KeyCode::Esc);
    learner.key(KeyCode::Enter);
    learner.enter_answer(key);
    learner.key(KeyCode::Enter);
    let again = learner
        .grade()
        .unwrap_or_else(|| panic!("{at}: key not graded"));
    assert!(
        again.correct,
        "{at}: the model's statements fail: {:?}",
        again.items
    );
}

/// Every quiz's options in the order each front end shows them to a
/// learner with `seed`: (lesson/exercise, terminal order, page order), the
/// page holding the record the terminal saved.
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
        let shown = page.lesson_json(&lesson.id, LANG).unwrap();
        for (index, exercise) in lesson.exercises.iter().enumerate() {
            if !matches!(exercise.kind, ExerciseKind::Quiz { .. }) {
                continue;
            }
            learner.open_exercise(lesson_index, index);
            let terminal = learner.quiz_order().map(<[usize]>::to_vec);
            let on_page: Vec<usize> = shown["exercises"][index]["options"]
                .as_array()
                .unwrap_or_else(|| panic!("{}/{}: no options", lesson.id, exercise.id))
                .iter()
                .map(|option| option["index"].as_u64().unwrap() as usize)
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
