//! The app driven as a learner drives it: key events through the real
//! `message_for_event` and `update`, frames drawn by the real `view` into a
//! `TestBackend`, compared with the committed insta snapshots
//! (`snapshots/`). Every screen is checked at 80×24 and 120×40.
//!
//! Nothing here reads the clock or the environment. The course is lesson 1
//! of `lessons/` and two renamed copies of it, so lessons added by others do
//! not change the course-map snapshots. The key of lesson 1's mark
//! exercise is computed from `sim_core::run`, never written down.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use sim_core::course::{ExerciseKind, Lesson, Position, Progress, parse_lesson};
use sim_core::{Scenario, Text};

use super::model::{App, Screen};
use super::persist::{FILE_NAME, Notice, Store};
use super::theme::Theme;
use super::update::{Message, message_for_event, update};
use super::view::view;

mod explorer;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];
const PLAIN: Theme = Theme { color: false };

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `lessons/01-*.toml`, parsed.
fn lesson_one() -> Lesson {
    let dir = repo().join("lessons");
    let path = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("01-"))
                && p.extension().is_some_and(|e| e == "toml")
        })
        .expect("lessons/01-*.toml");
    parse_lesson(&std::fs::read(path).unwrap()).unwrap()
}

/// Lesson 1 and two copies with other ids, orders and titles.
fn course_lessons() -> Vec<Lesson> {
    let first = lesson_one();
    let mut lessons = vec![first.clone()];
    for (order, en, zh) in [
        (2, "A copy of lesson one", "第一课的副本"),
        (
            3,
            "Another copy, with a title long enough to be cut short",
            "另一个副本",
        ),
    ] {
        let mut copy = first.clone();
        copy.id = format!("{order:02}-copy");
        copy.order = order;
        copy.title = Text {
            en: en.to_owned(),
            zh: zh.to_owned(),
        };
        lessons.push(copy);
    }
    lessons
}

fn article_scenario() -> Scenario {
    let path = repo().join("examples/01-article-stale-finish.toml");
    sim_core::parse_scenario(&std::fs::read(path).unwrap()).unwrap()
}

struct Harness {
    app: App,
}

impl Harness {
    fn course(width: u16, height: u16) -> Harness {
        Harness::with(
            App::course(course_lessons(), Progress::default(), PLAIN),
            width,
            height,
        )
    }

    fn with(app: App, width: u16, height: u16) -> Harness {
        let mut harness = Harness { app };
        harness.event(Event::Resize(width, height));
        harness
    }

    fn event(&mut self, event: Event) {
        if let Some(message) = message_for_event(&self.app, &event) {
            update(&mut self.app, message);
        }
    }

    fn key(&mut self, code: KeyCode) -> &mut Harness {
        self.event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        self
    }

    fn keys(&mut self, codes: &[KeyCode]) -> &mut Harness {
        for code in codes {
            self.key(*code);
        }
        self
    }

    fn char(&mut self, ch: char) -> &mut Harness {
        self.key(KeyCode::Char(ch))
    }

    fn render(&self) -> String {
        let mut terminal =
            Terminal::new(TestBackend::new(self.app.width, self.app.height)).unwrap();
        terminal.draw(|frame| view(frame, &self.app)).unwrap();
        terminal.backend().to_string()
    }

    /// The open exercise's state.
    fn exercise(&self) -> &super::model::ExerciseState {
        match self.app.screen() {
            Screen::Exercise(state) => state,
            other => panic!("not on an exercise: {other:?}"),
        }
    }
}

/// Drives `script` on a fresh course at both sizes and snapshots the result.
fn check(name: &str, script: impl Fn(&mut Harness)) {
    for (width, height) in SIZES {
        let mut harness = Harness::course(width, height);
        script(&mut harness);
        insta::assert_snapshot!(format!("{name}_{width}x{height}"), harness.render());
    }
}

/// Index of lesson 1's first mark exercise.
fn mark_exercise(lesson: &Lesson) -> usize {
    lesson
        .exercises
        .iter()
        .position(|e| matches!(e.kind, ExerciseKind::Mark { .. }))
        .expect("lesson 1 has a mark exercise")
}

/// From the course map to lesson 1's mark exercise.
fn open_mark_exercise(h: &mut Harness) {
    let lesson = lesson_one();
    h.key(KeyCode::Enter);
    for _ in 0..lesson.sections.len() {
        h.key(KeyCode::Right);
    }
    for _ in 0..mark_exercise(&lesson) {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Enter);
}

/// The steps lesson 1's mark exercise must have marked, from the oracle.
fn mark_key() -> (Vec<u32>, Vec<u32>) {
    let lesson = lesson_one();
    let exercise = &lesson.exercises[mark_exercise(&lesson)];
    let ExerciseKind::Mark {
        scenario,
        candidates,
    } = &exercise.kind
    else {
        unreachable!()
    };
    let scenario = lesson.scenario(*scenario).unwrap();
    let trace = sim_core::run(scenario);
    let candidates: Vec<u32> = scenario
        .steps
        .iter()
        .enumerate()
        .filter(|(_, s)| candidates.contains(&s.action))
        .map(|(i, _)| i as u32)
        .collect();
    let key = candidates
        .iter()
        .copied()
        .filter(|i| trace.should_reject.contains(i))
        .collect();
    (candidates, key)
}

/// Visits every candidate with Tab and marks those in `chosen`.
fn mark(h: &mut Harness, chosen: &[u32]) {
    h.key(KeyCode::Home);
    let (candidates, _) = mark_key();
    for step in candidates {
        h.key(KeyCode::Tab);
        let cursor = h.exercise().timeline.as_ref().unwrap().cursor as u32;
        assert_eq!(cursor, step, "Tab walks the candidates in order");
        if chosen.contains(&step) {
            h.char('m');
        }
    }
}

#[test]
fn course_map() {
    check("course_map", |_| {});
}

#[test]
fn course_map_in_chinese_with_the_second_lesson_selected() {
    check("course_map_zh", |h| {
        h.char('l').key(KeyCode::Down);
    });
}

#[test]
fn lesson_reader() {
    check("lesson_reader", |h| {
        h.key(KeyCode::Enter);
    });
}

#[test]
fn lesson_reader_in_chinese_scrolled() {
    check("lesson_reader_zh", |h| {
        h.key(KeyCode::Enter)
            .key(KeyCode::Right)
            .char('l')
            .key(KeyCode::Down);
    });
}

#[test]
fn lesson_exercises_page() {
    check("lesson_exercises", |h| {
        h.key(KeyCode::Enter);
        for _ in 0..lesson_one().sections.len() {
            h.key(KeyCode::Right);
        }
    });
}

#[test]
fn section_timeline() {
    check("section_timeline", |h| {
        h.key(KeyCode::Enter).key(KeyCode::Right).char('t');
        h.keys(&[KeyCode::Right; 5]);
    });
}

#[test]
fn section_timeline_at_the_end() {
    check("section_timeline_end", |h| {
        h.key(KeyCode::Enter)
            .key(KeyCode::Right)
            .char('t')
            .key(KeyCode::End);
    });
}

#[test]
fn mark_exercise_start() {
    check("mark_start", open_mark_exercise);
}

#[test]
fn mark_exercise_hints() {
    check("mark_hints", |h| {
        open_mark_exercise(h);
        h.char('h').char('h');
    });
}

#[test]
fn mark_exercise_solution_needs_a_try_first() {
    check("mark_solution_refused", |h| {
        open_mark_exercise(h);
        h.char('s');
    });
}

#[test]
fn mark_exercise_wrong_try() {
    check("mark_wrong", |h| {
        open_mark_exercise(h);
        // Mark every candidate that need not be refused, and none that must.
        let (candidates, key) = mark_key();
        let wrong: Vec<u32> = candidates
            .into_iter()
            .filter(|c| !key.contains(c))
            .collect();
        mark(h, &wrong);
        h.key(KeyCode::Enter);
        assert!(!h.exercise().grade.as_ref().unwrap().correct);
    });
}

/// The whole of lesson 1's mark exercise, from the course map: a wrong
/// try, the right marks, the worked solution, back to the map.
#[test]
fn full_pass_through_lesson_one_mark_exercise() {
    let lesson = lesson_one();
    let exercise_id = lesson.exercises[mark_exercise(&lesson)].id.clone();
    let (_, key) = mark_key();
    assert!(!key.is_empty());
    for (width, height) in SIZES {
        let mut h = Harness::course(width, height);
        open_mark_exercise(&mut h);
        h.key(KeyCode::Enter); // nothing marked: a wrong try
        mark(&mut h, &key);
        h.key(KeyCode::Enter);
        let record = h.app.progress.exercise(&lesson.id, &exercise_id).unwrap();
        assert!(record.completed, "{record:?}");
        assert_eq!(record.attempts, 2);
        insta::assert_snapshot!(format!("mark_complete_{width}x{height}"), h.render());

        h.char('s');
        assert!(
            h.app
                .progress
                .exercise(&lesson.id, &exercise_id)
                .unwrap()
                .solution_seen
        );
        insta::assert_snapshot!(format!("mark_solution_{width}x{height}"), h.render());

        h.key(KeyCode::Esc);
        insta::assert_snapshot!(
            format!("mark_back_to_exercises_{width}x{height}"),
            h.render()
        );
        h.key(KeyCode::Esc);
        insta::assert_snapshot!(format!("mark_back_to_course_{width}x{height}"), h.render());
        let position = h.app.progress.position.clone().unwrap();
        assert_eq!(position.lesson, lesson.id);
    }
}

#[test]
fn other_exercise_kinds_say_they_come_next() {
    let lesson = lesson_one();
    let other = lesson
        .exercises
        .iter()
        .position(|e| !matches!(e.kind, ExerciseKind::Mark { .. }))
        .expect("lesson 1 has another kind of exercise");
    check("other_kind", |h| {
        h.key(KeyCode::Enter);
        for _ in 0..lesson.sections.len() {
            h.key(KeyCode::Right);
        }
        for _ in 0..other {
            h.key(KeyCode::Down);
        }
        h.key(KeyCode::Enter)
            .key(KeyCode::Enter)
            .char('h')
            .char('s');
    });
}

#[test]
fn help_overlay() {
    check("help", |h| {
        open_mark_exercise(h);
        h.char('?');
    });
}

#[test]
fn help_overlay_closes_and_q_quits_from_anywhere() {
    let mut h = Harness::course(80, 24);
    open_mark_exercise(&mut h);
    h.char('?');
    assert!(h.app.help);
    h.char('m');
    assert!(
        h.exercise().marks.is_empty(),
        "keys do not reach the screen under the help"
    );
    h.key(KeyCode::Esc);
    assert!(!h.app.help);
    assert!(
        matches!(h.app.screen(), Screen::Exercise(_)),
        "Esc closed the help only"
    );
    h.char('?').char('q');
    assert!(h.app.quit);
}

#[test]
fn key_releases_are_ignored() {
    let mut h = Harness::course(80, 24);
    let mut release = KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE);
    release.kind = KeyEventKind::Release;
    h.event(Event::Key(release));
    assert!(matches!(h.app.screen(), Screen::Course(_)));
    h.event(Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(h.app.quit, "Ctrl-C quits in raw mode");
}

#[test]
fn opened_file() {
    for (width, height) in SIZES {
        let app = App::sandbox(
            "examples/01-article-stale-finish.toml".to_owned(),
            article_scenario(),
            Progress::default(),
            PLAIN,
        );
        let mut h = Harness::with(app, width, height);
        h.keys(&[KeyCode::Right, KeyCode::Right]);
        insta::assert_snapshot!(format!("open_file_{width}x{height}"), h.render());
        h.key(KeyCode::End);
        insta::assert_snapshot!(format!("open_file_end_{width}x{height}"), h.render());
    }
}

/// Several jobs: a lease row per job a worker was granted.
#[test]
fn opened_file_with_several_jobs() {
    let path = repo().join("examples/11-skip-locked-queue.toml");
    let scenario = sim_core::parse_scenario(&std::fs::read(path).unwrap()).unwrap();
    for (width, height) in SIZES {
        let app = App::sandbox(
            "examples/11-skip-locked-queue.toml".to_owned(),
            scenario.clone(),
            Progress::default(),
            PLAIN,
        );
        let mut h = Harness::with(app, width, height);
        h.key(KeyCode::End);
        insta::assert_snapshot!(format!("open_jobs_{width}x{height}"), h.render());
    }
}

#[test]
fn play_moves_one_step_per_tick_and_stops_at_the_end() {
    let app = App::sandbox(
        "x".to_owned(),
        article_scenario(),
        Progress::default(),
        PLAIN,
    );
    let mut h = Harness::with(app, 80, 24);
    let steps = article_scenario().steps.len();
    h.char(' ');
    assert!(h.app.playing());
    for _ in 0..steps + 3 {
        update(&mut h.app, Message::Tick);
    }
    assert!(!h.app.playing());
    let Screen::Sandbox(state) = h.app.screen() else {
        panic!()
    };
    assert_eq!(state.timeline.cursor, steps - 1);
}

#[test]
fn progress_notice() {
    for (width, height) in SIZES {
        let mut app = App::course(course_lessons(), Progress::default(), PLAIN);
        app.notice = Some(Notice::kept_aside(
            "the progress record is damaged: EOF while parsing an object at line 3 column 0",
            "progress.json.bad-1",
            "/home/learner/.local/share/fencelab",
        ));
        let mut h = Harness::with(app, width, height);
        insta::assert_snapshot!(format!("progress_notice_{width}x{height}"), h.render());
        h.key(KeyCode::Enter);
        assert!(h.app.notice.is_none());
    }
}

#[test]
fn too_small_a_window() {
    let h = Harness::course(20, 5);
    insta::assert_snapshot!("too_small_20x5", h.render());
}

#[test]
fn resumes_at_the_saved_position() {
    let lesson = lesson_one();
    let progress = Progress {
        position: Some(Position {
            lesson: lesson.id.clone(),
            section: 1,
        }),
        lang: "zh".to_owned(),
        ..Progress::default()
    };
    let mut h = Harness::with(App::course(course_lessons(), progress, PLAIN), 80, 24);
    match h.app.screen() {
        Screen::Lesson(state) => assert_eq!((state.lesson, state.page), (0, 1)),
        other => panic!("{other:?}"),
    }
    insta::assert_snapshot!("resumed_80x24", h.render());
    h.key(KeyCode::Esc);
    assert!(
        matches!(h.app.screen(), Screen::Course(_)),
        "Esc goes back to the map"
    );
}

/// A progress file cut off mid-write, or garbage, is kept aside with a
/// message and the app starts with fresh progress, without a panic.
#[test]
fn a_damaged_progress_file_is_kept_aside_and_the_learner_told() {
    let valid = {
        let mut progress = Progress::default();
        progress.record_attempt("01-liveness-vs-safety", "mark-after-the-nap", true);
        progress.to_json()
    };
    let truncated = valid.as_bytes()[..valid.len() / 2].to_vec();
    let garbage = vec![0xff, 0xfe, 0x00, b'{', 0x80];
    let dir = tempfile::tempdir().unwrap();
    for (n, bytes) in [(1, truncated), (2, garbage)] {
        std::fs::write(dir.path().join(FILE_NAME), &bytes).unwrap();
        let mut store = Store::new(dir.path().to_path_buf());
        let loaded = store.load();
        assert_eq!(loaded.progress, Progress::default());
        let kept = format!("progress.json.bad-{n}");
        assert_eq!(
            std::fs::read(dir.path().join(&kept)).unwrap(),
            bytes,
            "kept byte for byte"
        );
        assert!(!dir.path().join(FILE_NAME).exists());

        let mut app = App::course(course_lessons(), loaded.progress, PLAIN);
        app.notice = loaded.notice;
        let h = Harness::with(app, 80, 24);
        let screen = h.render();
        assert!(screen.contains("kept aside"), "{screen}");
        assert!(screen.contains(&kept), "{screen}");

        // The next save writes a fresh file and leaves the kept one alone.
        store.save(&h.app.progress).unwrap();
        assert!(
            Progress::from_json(&std::fs::read_to_string(dir.path().join(FILE_NAME)).unwrap())
                .is_ok()
        );
        assert_eq!(std::fs::read(dir.path().join(&kept)).unwrap(), bytes);
        std::fs::remove_file(dir.path().join(FILE_NAME)).unwrap();
    }
}

// ---------------------------------------------------------------------------
// Any size, any keys: never a panic.

/// Every input the property test draws from. `q` and Ctrl-C are left out so
/// sequences keep going.
#[derive(Debug, Clone, Copy)]
enum Input {
    Key(KeyCode),
    Release(KeyCode),
    Resize(u16, u16),
    Tick,
    /// A mouse event: its kind (an index into `MOUSE`), column and row.
    Mouse(u32, u16, u16),
    /// The runtime runs the searches asked for (bounded, so some stop early).
    Settle,
}

const MOUSE: [MouseEventKind; 5] = [
    MouseEventKind::Down(MouseButton::Left),
    MouseEventKind::Up(MouseButton::Left),
    MouseEventKind::Down(MouseButton::Right),
    MouseEventKind::ScrollUp,
    MouseEventKind::ScrollDown,
];

const KEYS: [KeyCode; 29] = [
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::PageUp,
    KeyCode::PageDown,
    KeyCode::Enter,
    KeyCode::Esc,
    KeyCode::Tab,
    KeyCode::BackTab,
    KeyCode::Backspace,
    KeyCode::Char(' '),
    KeyCode::Char('m'),
    KeyCode::Char('h'),
    KeyCode::Char('s'),
    KeyCode::Char('t'),
    KeyCode::Char('l'),
    KeyCode::Char('?'),
    KeyCode::Char('j'),
    KeyCode::Char('k'),
    KeyCode::Char('x'),
    KeyCode::Enter,
    KeyCode::Right,
    KeyCode::Tab,
    KeyCode::Char('e'),
    KeyCode::Char('r'),
    KeyCode::Char('c'),
];

fn input() -> impl Strategy<Value = Input> {
    // u32 draws, reduced: one seed, one sequence, on every platform.
    let key = (0u32..KEYS.len() as u32).prop_map(|i| KEYS[i as usize]);
    prop_oneof![
        12 => key.clone().prop_map(Input::Key),
        1 => key.prop_map(Input::Release),
        1 => (1u16..=300, 1u16..=120).prop_map(|(w, h)| Input::Resize(w, h)),
        1 => Just(Input::Tick),
        4 => (0u32..MOUSE.len() as u32, 0u16..=300, 0u16..=120)
            .prop_map(|(k, x, y)| Input::Mouse(k, x, y)),
        1 => Just(Input::Settle),
    ]
}

#[test]
fn any_size_and_any_keys_never_panic() {
    let lessons = course_lessons();
    let scenario = article_scenario();
    let config = Config {
        cases: 64,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        ..Config::default()
    };
    let seed = *b"fencelab-tui-never-panics-seed01";
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    let strategy = (
        1u16..=300,
        1u16..=120,
        0u32..4,
        proptest::collection::vec(input(), 0..48),
    );
    let result = runner.run(&strategy, |(width, height, start, inputs)| {
        let progress = match start {
            2 => Progress {
                position: Some(Position {
                    lesson: lessons[0].id.clone(),
                    section: 99,
                }),
                lang: "zh".to_owned(),
                ..Progress::default()
            },
            _ => Progress::default(),
        };
        let app = if start == 1 {
            App::sandbox("x".to_owned(), scenario.clone(), progress, PLAIN)
        } else {
            App::course(lessons.clone(), progress, PLAIN)
        };
        let mut h = Harness::with(app, width, height);
        if start == 3 {
            h.char('e');
        }
        // One terminal for the whole sequence, as in the real app: frames
        // are diffed against the previous one.
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        let draw = |app: &App, terminal: &mut Terminal<TestBackend>| {
            terminal.draw(|frame| view(frame, app)).map(|_| ()).unwrap();
        };
        draw(&h.app, &mut terminal);
        for input in inputs {
            match input {
                Input::Key(code) => {
                    h.key(code);
                }
                Input::Release(code) => {
                    let mut event = KeyEvent::new(code, KeyModifiers::NONE);
                    event.kind = KeyEventKind::Release;
                    h.event(Event::Key(event));
                }
                Input::Resize(w, h2) => {
                    h.event(Event::Resize(w, h2));
                    terminal.backend_mut().resize(w, h2);
                }
                Input::Tick => update(&mut h.app, Message::Tick),
                Input::Mouse(kind, column, row) => h.event(Event::Mouse(MouseEvent {
                    kind: MOUSE[kind as usize],
                    column,
                    row,
                    modifiers: KeyModifiers::NONE,
                })),
                Input::Settle => h.settle(400),
            }
            draw(&h.app, &mut terminal);
        }
        prop_assert!(!h.app.screens.is_empty());
        Ok(())
    });
    if let Err(error) = result {
        panic!("{error}");
    }
}
