//! Practice rounds drawn from the lessons' practice worlds (issue 24).

use sim_core::Action;
use sim_core::course::practice::{PRACTICE_LEVELS, RoundKey, draw_round, judge, level_size};
use sim_core::course::{Lesson, MarkKey, parse_lesson};
use std::collections::BTreeSet;

fn lessons() -> Vec<Lesson> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut lessons: Vec<Lesson> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|entry| {
            let path = entry.unwrap().path();
            (path.extension()? == "toml").then_some(path)
        })
        .map(|path| parse_lesson(&std::fs::read(&path).unwrap()).unwrap())
        .collect();
    lessons.sort_by_key(|l| l.order);
    lessons
}

/// For every lesson with a practice world and every situation it names,
/// 200 learners' first rounds (seeds 0..200, levels 1 to 4 in turn):
/// each a good puzzle about its situation, whose written scenario reads
/// back and keys the same, and at least 150 distinct timelines.
#[test]
fn every_practice_world_gives_distinct_good_rounds_that_replay() {
    let lessons = lessons();
    let with_practice: Vec<&Lesson> = lessons.iter().filter(|l| l.practice.is_some()).collect();
    assert!(with_practice.len() >= 5, "{}", with_practice.len());
    for lesson in with_practice {
        let practice = lesson.practice.as_ref().unwrap();
        for &focus in &practice.situations {
            let mut distinct = BTreeSet::new();
            for seed in 0..200u32 {
                let key = RoundKey {
                    pool: lesson.id.clone(),
                    seed,
                    round: 0,
                    level: 1 + (seed % u32::from(PRACTICE_LEVELS)) as u8,
                    focus,
                };
                let round = draw_round(practice, &key)
                    .unwrap_or_else(|e| panic!("{} {key:?}: {e}", lesson.id));
                assert!(round.refuse >= 1 && round.allow >= 1);
                // The level's size counts what workers do; a stall's pause
                // and resume only tell the story.
                let acts = round
                    .scenario
                    .steps
                    .iter()
                    .filter(|s| !matches!(s.action, Action::Pause | Action::Resume))
                    .count();
                assert!(acts <= level_size(key.level).max_steps);
                let text = sim_core::scenario_to_toml(&round.scenario);
                let again = sim_core::parse_scenario(text.as_bytes()).unwrap();
                let first = judge(&round.scenario, &round.candidates);
                let replayed = judge(&again, &round.candidates);
                assert_eq!(first, replayed, "{text}");
                assert!(replayed.situations.contains(&focus), "{focus:?}: {text}");
                // The story, not the id (which names the seed).
                distinct.insert(format!("{:?}", again.steps));
            }
            assert!(
                distinct.len() >= 150,
                "{} {focus:?}: {} distinct rounds of 200",
                lesson.id,
                distinct.len()
            );
        }
    }
}

/// The same key draws the same round; another round number another one.
#[test]
fn a_key_draws_one_round() {
    let lessons = lessons();
    let lesson = lessons.iter().find(|l| l.practice.is_some()).unwrap();
    let practice = lesson.practice.as_ref().unwrap();
    let key = RoundKey {
        pool: lesson.id.clone(),
        seed: 7,
        round: 3,
        level: 2,
        focus: practice.situations[0],
    };
    let one = draw_round(practice, &key).unwrap();
    assert_eq!(one, draw_round(practice, &key).unwrap());
    let next = RoundKey { round: 4, ..key };
    assert_ne!(
        one.scenario.steps,
        draw_round(practice, &next).unwrap().scenario.steps
    );
}

fn course() -> sim_core::course::CourseSession {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut sources = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            sources.push((stem, std::fs::read_to_string(&path).unwrap()));
        }
    }
    let pairs: Vec<(&str, &str)> = sources
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    sim_core::course::CourseSession::from_sources(&pairs).unwrap()
}

/// The answer the oracle keys right (every must-refuse step) and one it
/// keys wrong (every candidate marked, a must-allow step among them).
fn answers(course: &sim_core::course::CourseSession, lesson: &str) -> (Vec<u32>, Vec<u32>) {
    let found = course.lesson(lesson).unwrap();
    let scenario = &found.scenarios[0].1;
    let sim_core::course::ExerciseKind::Mark { candidates, .. } = &found.exercises[0].kind else {
        panic!("a practice round is a mark exercise");
    };
    let keys = sim_core::course::mark_keys(scenario, candidates);
    let right = keys
        .iter()
        .filter(|(_, k)| *k == MarkKey::MustRefuse)
        .map(|(i, _)| *i)
        .collect();
    let wrong = keys.iter().map(|(i, _)| *i).collect();
    (right, wrong)
}

#[test]
fn a_learner_answers_rounds_and_the_level_and_record_follow() {
    use sim_core::Lang;
    use sim_core::course::Act;
    let mut course = course();
    course.seed_if_missing(42);
    let pool = "01-liveness-vs-safety";
    let first = course.open_next_practice(pool).unwrap();
    assert_eq!((first.round, first.level), (0, 1));
    let (lesson, id) = (first.lesson_id(), first.exercise_id());
    let first_steps = course.lesson(&lesson).unwrap().scenarios[0].1.steps.clone();
    let (right, wrong) = answers(&course, &lesson);
    // Wrong, then right: the round is solved, not at the first try.
    let screen = course
        .act(
            &lesson,
            &id,
            &Act::HandIn {
                answer: Some(serde_json::json!(wrong)),
            },
            Lang::En,
        )
        .unwrap();
    assert_eq!(screen.tries, 1);
    assert!(!course.practice_view(pool, Lang::En).unwrap().round_finished);
    // Reopening the pool keeps the open round.
    assert_eq!(course.practice_key(pool).unwrap(), first);
    course
        .act(
            &lesson,
            &id,
            &Act::HandIn {
                answer: Some(serde_json::json!(right)),
            },
            Lang::En,
        )
        .unwrap();
    let view = course.practice_view(pool, Lang::En).unwrap();
    assert_eq!((view.finished, view.right_first, view.streak), (1, 0, 0));
    assert!(
        view.round_finished,
        "the open round is solved: the next may be drawn"
    );
    assert_eq!(view.exercise, id);
    assert_eq!(view.key.round, 1);
    let screen = course.screen(&lesson, &id, Lang::En).unwrap();
    assert!(screen.practice.is_some_and(|p| p.round_finished));
    // Two rounds right at the first try raise the level.
    for round in 1..=2 {
        let key = course.open_next_practice(pool).unwrap();
        assert_eq!((key.round, key.level), (round, 1));
        let (right, _) = answers(&course, &key.lesson_id());
        if round == 1 {
            let steps = &course.lesson(&key.lesson_id()).unwrap().scenarios[0]
                .1
                .steps;
            assert_ne!(
                *steps, first_steps,
                "the next round is a different timeline"
            );
        }
        course
            .act(
                &key.lesson_id(),
                &key.exercise_id(),
                &Act::HandIn {
                    answer: Some(serde_json::json!(right)),
                },
                Lang::En,
            )
            .unwrap();
    }
    let view = course.practice_view(pool, Lang::Zh).unwrap();
    assert_eq!((view.finished, view.right_first, view.streak), (3, 2, 2));
    // The round shown (the last, level 1) is finished; the next is level 2.
    assert_eq!((view.level, view.key.level, view.key.round), (1, 2, 3));
    assert!(
        view.standing_line.contains("连对 2"),
        "{}",
        view.standing_line
    );
    // The record round-trips and merges: nothing learned is lost.
    let saved = course.export_progress();
    let mut other = sim_core::course::Progress::from_json(&saved).unwrap();
    other.practice.clear();
    other.merge(&sim_core::course::Progress::from_json(&saved).unwrap());
    assert_eq!(other.practice, course.progress().practice);
    let review = course.practice_review(Lang::En);
    assert!(
        review
            .concepts
            .iter()
            .any(|c| c.concept == "C01" || c.concept == "C05")
    );
}
