//! The explorer screen and the mouse, driven like the rest of the app:
//! events through `message_for_event` and `update`. A search the screen
//! starts is taken from the outbox and run here, synchronously, through
//! the same `run_search` the runtime's thread calls; the events it sends
//! carry a fixed elapsed time, so the snapshots never see the clock.

use ratatui::crossterm::event::{
    Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::style::Modifier;
use sim_core::course::Progress;
use sim_core::explore::{Progress as SearchProgress, Verdict};

use super::*;
use crate::app::explorer::{Command, ExplorerState, Run, SearchEvent, run_search};

/// The elapsed time every search event carries in the tests.
const ELAPSED_MS: u64 = 1234;

impl Harness {
    /// Runs every search the app asked for to its end (or until
    /// `max_calls` progress calls, then the callback says stop), feeding
    /// the app its last progress and its report.
    pub(super) fn settle(&mut self, max_calls: u32) {
        for command in std::mem::take(&mut self.app.outbox) {
            let Command::Start(request) = command else {
                continue;
            };
            let mut calls = 0;
            let mut last = None;
            let mut control = |progress: &SearchProgress| {
                calls += 1;
                last = Some(*progress);
                calls <= max_calls
            };
            let result = run_search(&request, &mut control);
            if let Some(progress) = last {
                crate::app::update::explorer::receive(
                    &mut self.app,
                    SearchEvent::Progress {
                        id: request.id,
                        progress,
                        elapsed_ms: ELAPSED_MS,
                    },
                );
            }
            crate::app::update::explorer::receive(
                &mut self.app,
                SearchEvent::Finished {
                    id: request.id,
                    result,
                    elapsed_ms: ELAPSED_MS,
                },
            );
        }
    }

    fn explorer(&self) -> &ExplorerState {
        match self.app.screen() {
            Screen::Explorer(state) => state,
            other => panic!("not on the explorer: {other:?}"),
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        self.mouse(MouseEventKind::Down(MouseButton::Left), x, y);
    }

    fn mouse(&mut self, kind: MouseEventKind, x: u16, y: u16) {
        self.event(Event::Mouse(MouseEvent {
            kind,
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        }));
    }

    /// The rendered screen's rows.
    fn rows(&self) -> Vec<String> {
        let mut terminal =
            Terminal::new(TestBackend::new(self.app.width, self.app.height)).unwrap();
        terminal.draw(|frame| view(frame, &self.app)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..buffer.area.height)
            .map(|y| {
                (0..buffer.area.width)
                    .map(|x| buffer[(x, y)].symbol().to_owned())
                    .collect::<String>()
            })
            .collect()
    }

    /// The first reversed cell on screen below the header: the current
    /// step's glyph on a timeline.
    fn reversed_cell(&self) -> (u16, u16) {
        let mut terminal =
            Terminal::new(TestBackend::new(self.app.width, self.app.height)).unwrap();
        terminal.draw(|frame| view(frame, &self.app)).unwrap();
        let buffer = terminal.backend().buffer();
        for y in 1..buffer.area.height {
            for x in 0..buffer.area.width {
                if buffer[(x, y)].modifier.contains(Modifier::REVERSED) {
                    return (x, y);
                }
            }
        }
        panic!("no reversed cell")
    }
}

/// Column and row of `needle` on the rendered screen (columns counted in
/// cells, so wide characters before it count twice).
fn find(rows: &[String], needle: &str) -> (u16, u16) {
    for (y, row) in rows.iter().enumerate() {
        if let Some(byte) = row.find(needle) {
            let x = crate::app::text::width(&row[..byte]);
            return (x as u16, y as u16);
        }
    }
    panic!("`{needle}` not on screen:\n{}", rows.join("\n"))
}

/// Column and row of `needle` on the footer.
fn find_footer(rows: &[String], needle: &str) -> (u16, u16) {
    let last = rows.len() - 1;
    let (x, _) = find(&rows[last..], needle);
    (x, last as u16)
}

/// From the course map to the explorer, on `preset_steps` presets past the
/// first, exhaustive when asked.
fn open_explorer(h: &mut Harness, preset_steps: usize, exhaustive: bool) {
    h.char('e');
    for _ in 0..preset_steps {
        h.key(KeyCode::Right);
    }
    if exhaustive {
        h.key(KeyCode::Down).key(KeyCode::Right).key(KeyCode::Up);
    }
}

#[test]
fn explorer_setup() {
    check("explorer_setup", |h| open_explorer(h, 0, false));
}

#[test]
fn explorer_setup_in_chinese() {
    check("explorer_setup_zh", |h| {
        h.char('l');
        open_explorer(h, 0, false);
        h.key(KeyCode::Down);
    });
}

#[test]
fn explorer_running_shows_progress_and_no_clock() {
    check("explorer_running", |h| {
        open_explorer(h, 0, false);
        h.key(KeyCode::Enter);
        let Some(Command::Start(request)) = h.app.outbox.first().cloned() else {
            panic!("Enter asks the runtime for a search")
        };
        crate::app::update::explorer::receive(
            &mut h.app,
            SearchEvent::Progress {
                id: request.id,
                progress: SearchProgress {
                    cases: 100,
                    transitions: 4000,
                    ..SearchProgress::default()
                },
                elapsed_ms: ELAPSED_MS,
            },
        );
    });
}

/// ttl-lock-only, random, seed 1: a counterexample, shrunk.
#[test]
fn explorer_unsafe_random() {
    check("explorer_unsafe", |h| {
        open_explorer(h, 0, false);
        h.key(KeyCode::Enter).settle(u32::MAX);
        let Run::Done { report, .. } = &h.explorer().run else {
            panic!("the search finished: {:?}", h.explorer().run)
        };
        assert_eq!(report.verdict, Verdict::Unsafe);
        assert!(report.shrink_history.len() > 1, "it shrank");
    });
}

#[test]
fn explorer_unsafe_random_in_chinese() {
    check("explorer_unsafe_zh", |h| {
        h.char('l');
        open_explorer(h, 0, false);
        h.key(KeyCode::Enter).settle(u32::MAX);
    });
}

/// fenced-registered, exhaustive: safe within the stated bounds.
#[test]
fn explorer_safe_exhaustive() {
    check("explorer_safe", |h| {
        open_explorer(h, 4, true);
        assert_eq!(h.explorer().form.design.name(), "fenced-registered");
        h.key(KeyCode::Enter).settle(u32::MAX);
        let Run::Done { report, .. } = &h.explorer().run else {
            panic!("the search finished")
        };
        assert_eq!(report.verdict, Verdict::Safe);
        assert!(report.counterexample.is_none());
        assert!(report.stats.states > 0);
    });
}

/// `t` plays the counterexample in the sandbox, at the violating step.
#[test]
fn explorer_counterexample_on_the_timeline() {
    check("explorer_timeline", |h| {
        open_explorer(h, 0, false);
        h.key(KeyCode::Enter).settle(u32::MAX);
        let Run::Done { report, .. } = &h.explorer().run else {
            panic!("the search finished")
        };
        let found = report.counterexample.clone().expect("unsafe");
        h.char('t');
        let Screen::Sandbox(state) = h.app.screen() else {
            panic!("t opens the timeline")
        };
        assert_eq!(state.timeline.scenario, found.scenario);
        assert_eq!(state.timeline.cursor, found.step as usize);
        assert!(
            state.timeline.trace.is_violation(found.step),
            "the replayed scenario violates at the explained step"
        );
    });
}

#[test]
fn cancel_stops_a_running_search() {
    let mut h = Harness::course(80, 24);
    open_explorer(&mut h, 0, false);
    h.key(KeyCode::Enter);
    assert!(h.explorer().running());
    // Esc while running cancels, it does not leave the screen.
    h.key(KeyCode::Esc);
    assert!(
        h.explorer().running(),
        "still running until the search stops"
    );
    let Some(Command::Start(request)) = h.app.outbox.first().cloned() else {
        panic!("a search was asked for")
    };
    assert!(
        h.app.outbox.contains(&Command::Cancel(request.id)),
        "{:?}",
        h.app.outbox
    );
    // The runtime's callback answers "stop" once cancel was asked for.
    let cancelled = h.app.outbox.contains(&Command::Cancel(request.id));
    let mut calls = 0;
    let mut control = |_: &SearchProgress| {
        calls += 1;
        !cancelled
    };
    let result = run_search(&request, &mut control);
    assert_eq!(calls, 1, "the search stopped at its first progress call");
    let report = result.unwrap();
    assert_eq!(report.verdict, Verdict::Cancelled);
    h.app.outbox.clear();
    crate::app::update::explorer::receive(
        &mut h.app,
        SearchEvent::Finished {
            id: request.id,
            result: Ok(report),
            elapsed_ms: ELAPSED_MS,
        },
    );
    let screen = h.render();
    assert!(screen.contains("Cancelled"), "{screen}");
    assert!(
        screen.contains("cancelled before it could conclude"),
        "{screen}"
    );
    // And c, too.
    h.key(KeyCode::Enter);
    h.char('c');
    assert!(matches!(h.app.outbox.last(), Some(Command::Cancel(_))));
}

#[test]
fn changing_a_setting_clears_the_result() {
    let mut h = Harness::course(80, 24);
    open_explorer(&mut h, 0, false);
    h.key(KeyCode::Enter).settle(u32::MAX);
    assert!(matches!(h.explorer().run, Run::Done { .. }));
    h.key(KeyCode::Down).key(KeyCode::Down).key(KeyCode::Right);
    assert_eq!(h.explorer().form.seed, 2);
    assert_eq!(h.explorer().run, Run::Idle);
}

#[test]
fn the_sandbox_opens_the_explorer_on_its_design() {
    let app = App::sandbox(
        "x".to_owned(),
        article_scenario(),
        Progress::default(),
        PLAIN,
    );
    let mut h = Harness::with(app, 80, 24);
    let preset = sim_core::Preset::of(&article_scenario().design);
    h.char('e');
    assert_eq!(
        Some(h.explorer().form.design),
        preset.or(Some(sim_core::Preset::TtlLockOnly))
    );
    h.key(KeyCode::Esc);
    assert!(matches!(h.app.screen(), Screen::Sandbox(_)));
}

/// A click on a step's column selects it: the column is found on the
/// drawn screen (the reversed glyph of the current step), not computed.
#[test]
fn a_click_on_a_step_selects_it() {
    for (width, height) in SIZES {
        let app = App::sandbox(
            "x".to_owned(),
            article_scenario(),
            Progress::default(),
            PLAIN,
        );
        let mut h = Harness::with(app, width, height);
        let steps = article_scenario().steps.len();
        let target = steps / 2;
        for _ in 0..target {
            h.key(KeyCode::Right);
        }
        let (x, y) = h.reversed_cell();
        h.key(KeyCode::Left);
        h.click(x, y);
        let Screen::Sandbox(state) = h.app.screen() else {
            panic!()
        };
        assert_eq!(state.timeline.cursor, target, "{width}x{height}");
        // The other cell of the step's two-column slot selects it too.
        h.key(KeyCode::Home);
        let cursor_x = h.reversed_cell().0;
        h.click(cursor_x + 1, y);
        let Screen::Sandbox(state) = h.app.screen() else {
            panic!()
        };
        assert_eq!(state.timeline.cursor, 0, "{width}x{height}");
        // The lane labels select nothing.
        h.click(1, y);
        let Screen::Sandbox(state) = h.app.screen() else {
            panic!()
        };
        assert_eq!(state.timeline.cursor, 0);
    }
}

#[test]
fn a_click_on_a_mark_exercise_step_selects_it() {
    let mut h = Harness::course(120, 40);
    open_mark_exercise(&mut h);
    let (candidates, _) = mark_key();
    let target = *candidates.last().unwrap() as usize;
    for _ in 0..target {
        h.key(KeyCode::Right);
    }
    let (x, y) = h.reversed_cell();
    h.key(KeyCode::Home);
    h.click(x, y);
    assert_eq!(h.exercise().timeline.as_ref().unwrap().cursor, target);
    h.char('m');
    assert!(marked(&h).contains(&(target as u32)));
}

#[test]
fn a_click_on_a_course_row_selects_it_and_a_second_opens_it() {
    for (width, height) in SIZES {
        let mut h = Harness::course(width, height);
        let (_, y) = find(&h.rows(), "A copy of lesson one");
        h.click(4, y);
        let Screen::Course(state) = h.app.screen() else {
            panic!()
        };
        assert_eq!(state.selected, 1);
        h.click(4, y);
        let Screen::Lesson(state) = h.app.screen() else {
            panic!("a click on the selected row opens it")
        };
        assert_eq!(state.lesson, 1);
    }
}

#[test]
fn a_click_on_a_footer_key_acts_as_the_key() {
    for (width, height) in SIZES {
        let mut h = Harness::course(width, height);
        let (x, y) = find_footer(&h.rows(), "e explore");
        assert_eq!(y + 1, height, "on the footer");
        // On the description, not only on the key.
        h.click(x + 4, y);
        assert!(matches!(h.app.screen(), Screen::Explorer(_)));
        let (x, y) = find_footer(&h.rows(), "Enter run");
        h.click(x, y);
        assert!(h.explorer().running(), "Enter run, clicked, runs");
        h.settle(u32::MAX);
        let (x, y) = find_footer(&h.rows(), "t timeline");
        h.click(x, y);
        assert!(matches!(h.app.screen(), Screen::Sandbox(_)));
        let (x, y) = find_footer(&h.rows(), "? help");
        h.click(x, y);
        assert!(h.app.help);
    }
}

#[test]
fn a_click_on_the_arrows_of_a_footer_label_is_that_arrow() {
    let mut h = Harness::course(80, 24);
    let (x, y) = find_footer(&h.rows(), "↑↓ choose");
    h.click(x + 1, y);
    let Screen::Course(state) = h.app.screen() else {
        panic!()
    };
    assert_eq!(state.selected, 1, "↓");
    h.click(x, y);
    let Screen::Course(state) = h.app.screen() else {
        panic!()
    };
    assert_eq!(state.selected, 0, "↑");
}

#[test]
fn the_wheel_scrolls_and_clicks_choose_settings() {
    let mut h = Harness::course(80, 24);
    h.mouse(MouseEventKind::ScrollDown, 10, 5);
    let Screen::Course(state) = h.app.screen() else {
        panic!()
    };
    assert_eq!(state.selected, 1);
    h.char('e');
    let (x, y) = find(&h.rows(), "Method");
    h.click(x, y);
    assert_eq!(h.explorer().row, 1, "a click focuses the setting");
    h.click(x, y);
    assert!(h.explorer().form.exhaustive, "a second click changes it");
    // Releases and drags do not act a second time.
    h.mouse(MouseEventKind::Up(MouseButton::Left), x, y);
    h.mouse(MouseEventKind::Drag(MouseButton::Left), x, y);
    assert!(h.explorer().form.exhaustive);
}

#[test]
fn explorer_help() {
    check("explorer_help", |h| {
        open_explorer(h, 0, false);
        h.char('?');
    });
}

#[test]
fn the_seed_takes_digits() {
    let mut h = Harness::course(80, 24);
    open_explorer(&mut h, 0, false);
    h.keys(&[KeyCode::Down, KeyCode::Down, KeyCode::Backspace]);
    assert_eq!(h.explorer().form.seed, 0);
    h.keys(&[KeyCode::Char('4'), KeyCode::Char('2')]);
    assert_eq!(h.explorer().form.seed, 42);
    h.key(KeyCode::Enter).settle(u32::MAX);
    let Run::Done { report, .. } = &h.explorer().run else {
        panic!("the search finished")
    };
    assert_eq!(
        report.method,
        sim_core::explore::Method::Random {
            seed: 42,
            cases: sim_core::explore::EXPLORER_OFFER.cases.default as u32
        }
    );
    assert!(h.render().contains("seed 42"));
}

/// The runtime's thread body: its progress callback stops the search once
/// the cancel flag is set, and it always ends with `Finished`.
#[test]
fn the_search_thread_obeys_its_cancel_flag() {
    use std::sync::atomic::AtomicBool;
    use std::sync::mpsc::channel;

    let state = ExplorerState::new(None);
    let request = crate::app::explorer::SearchRequest {
        id: 7,
        world: state.form.world().unwrap(),
        method: state.form.method(),
    };
    for (cancel, verdict) in [(true, Verdict::Cancelled), (false, Verdict::Unsafe)] {
        let (sender, events) = channel();
        crate::app::search_thread(&request, &AtomicBool::new(cancel), &sender);
        drop(sender);
        let events: Vec<SearchEvent> = events.iter().collect();
        let Some(SearchEvent::Finished { id, result, .. }) = events.last() else {
            panic!("{events:?}")
        };
        assert_eq!(*id, 7);
        assert_eq!(result.as_ref().unwrap().verdict, verdict);
        let progress = events
            .iter()
            .filter(|e| matches!(e, SearchEvent::Progress { .. }))
            .count();
        assert_eq!(progress > 0, !cancel, "{events:?}");
    }
}

#[test]
fn explorer_help_in_chinese() {
    check("explorer_help_zh", |h| {
        h.char('l');
        open_explorer(h, 0, false);
        h.char('?');
    });
}

/// In a short window the course list scrolls; a click still lands on the
/// row drawn where it was clicked.
#[test]
fn a_click_on_a_scrolled_course_list_hits_the_drawn_row() {
    let mut h = Harness::course(80, 8);
    h.keys(&[KeyCode::Down, KeyCode::Down]);
    let rows = h.rows();
    let (_, second) = find(&rows, "A copy of lesson one");
    let (_, third) = find(&rows, "Another copy");
    assert!(
        !rows.iter().any(|r| r.contains("  1  A lease is not")),
        "the list is scrolled past lesson 1:\n{}",
        rows.join("\n")
    );
    h.click(4, second);
    let Screen::Course(state) = h.app.screen() else {
        panic!()
    };
    assert_eq!(state.selected, 1);
    h.keys(&[KeyCode::Down]);
    h.click(4, third);
    let Screen::Lesson(state) = h.app.screen() else {
        panic!("the selected row, clicked, opens")
    };
    assert_eq!(state.lesson, 2);
}

#[test]
fn clicks_on_a_lesson_choose_exercises_and_open_the_timeline() {
    for (width, height) in SIZES {
        let mut h = Harness::course(width, height);
        // The first section with a timeline: a click on its link opens it.
        let lesson = lesson_one();
        let linked = lesson
            .sections
            .iter()
            .position(|s| s.scenario.is_some())
            .expect("lesson 1 shows a timeline");
        h.key(KeyCode::Enter);
        for _ in 0..linked {
            h.key(KeyCode::Right);
        }
        let (x, y) = find(&h.rows(), "▸ timeline: ");
        h.click(x, y);
        assert!(
            matches!(h.app.screen(), Screen::Sandbox(_)),
            "{width}x{height}"
        );
        h.key(KeyCode::Esc);
        for _ in linked..lesson.sections.len() {
            h.key(KeyCode::Right);
        }
        let second = lesson.exercises[1].title(sim_core::Lang::En);
        let (_, y) = find(&h.rows(), second);
        h.click(4, y);
        let Screen::Lesson(state) = h.app.screen() else {
            panic!()
        };
        assert_eq!(state.exercise, 1);
        h.click(4, y);
        assert_eq!(h.exercise().exercise, 1, "the selected row, clicked, opens");
    }
}

/// Every design with every toggle is a world sim-core accepts, so the
/// setup never offers a combination that cannot run.
#[test]
fn every_setup_is_a_valid_world() {
    for preset in 0..sim_core::Preset::ALL.len() {
        for bits in 0..16u8 {
            let mut state = ExplorerState::new(None);
            state.form.design = sim_core::Preset::ALL[preset];
            state.form.cancel = bits & 1 != 0;
            state.form.heartbeat = bits & 2 != 0;
            state.form.restarted = bits & 4 != 0;
            state.form.targets = bits & 8 != 0;
            let world = state.form.world();
            assert!(world.is_ok(), "{preset} {bits:04b}: {world:?}");
        }
    }
}

/// The delay bounds the command line has (`--max-in-flight`,
/// `--max-delay`) are on the screen, within sim-core's offer: with a
/// request allowed in flight, the sending gateway is found unsafe, and the
/// report states the delay bounds.
#[test]
fn explorer_offers_delivery_delays() {
    let mut h = Harness::course(100, 40);
    open_explorer(&mut h, 0, false);
    for _ in 0..sim_core::Preset::ALL.len() {
        if h.explorer().form.design == sim_core::Preset::SendingGateway {
            break;
        }
        h.key(KeyCode::Right);
    }
    assert_eq!(h.explorer().form.design, sim_core::Preset::SendingGateway);
    // Down to the in-flight row; left of its minimum stays at the minimum.
    while h.explorer().setting() != sim_core::explore::FormKey::InFlight {
        h.key(KeyCode::Down);
    }
    h.key(KeyCode::Left);
    assert_eq!(h.explorer().form.max_in_flight, 0);
    h.key(KeyCode::Right);
    assert_eq!(h.explorer().form.world().unwrap().bounds.max_in_flight, 1);
    h.key(KeyCode::Down);
    for _ in 0..20 {
        h.key(KeyCode::Right);
    }
    let top = sim_core::explore::EXPLORER_OFFER.max_delay.max;
    assert_eq!(u64::from(h.explorer().form.max_delay), top);
    h.key(KeyCode::Enter).settle(u32::MAX);
    let Run::Done { report, .. } = &h.explorer().run else {
        panic!("the search finished")
    };
    assert_eq!(report.verdict, Verdict::Unsafe);
    let found = report.counterexample.as_ref().expect("unsafe");
    assert!(
        found
            .scenario
            .steps
            .iter()
            .any(|s| s.action == sim_core::Action::Deliver),
        "the counterexample needs a request that travels"
    );
    let screen = h.rows().join("\n");
    assert!(
        screen.contains(&format!("in flight ≤ 1 · delay ≤ {top}")),
        "{screen}"
    );
}

/// A number typed on a freshly focused seed row replaces the seed (`1`
/// then `42` gives 42, not 142); further digits append.
#[test]
fn a_typed_seed_replaces_the_old_one() {
    let mut h = Harness::course(80, 24);
    open_explorer(&mut h, 0, false);
    h.keys(&[KeyCode::Down, KeyCode::Down]);
    assert_ne!(h.explorer().form.seed, 0, "the seed starts at its default");
    h.keys(&[KeyCode::Char('4'), KeyCode::Char('2')]);
    assert_eq!(h.explorer().form.seed, 42);
    h.key(KeyCode::Char('7'));
    assert_eq!(h.explorer().form.seed, 427, "digits after the first append");
    h.keys(&[KeyCode::Up, KeyCode::Down, KeyCode::Char('5')]);
    assert_eq!(
        h.explorer().form.seed,
        5,
        "focused again, a digit starts anew"
    );
}

/// The seed row takes only seeds sim-core's offer allows (the command
/// line's `--seed` range): a digit that would pass its maximum is not
/// taken, so every seed typed is a world the builder accepts.
#[test]
fn the_seed_stays_within_the_offered_range() {
    let mut h = Harness::course(80, 24);
    open_explorer(&mut h, 0, false);
    h.keys(&[KeyCode::Down, KeyCode::Down]);
    let max = sim_core::explore::EXPLORER_OFFER.seed.max;
    let digits: Vec<KeyCode> = max.to_string().chars().map(KeyCode::Char).collect();
    h.keys(&digits);
    assert_eq!(h.explorer().form.seed, max);
    h.key(KeyCode::Char('7'));
    assert_eq!(
        h.explorer().form.seed,
        max,
        "one digit more would leave the range"
    );
    assert!(h.explorer().form.world().is_ok());
}
