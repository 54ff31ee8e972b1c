//! The explorer screen's messages, and the news of its searches
//! ([`receive`]): the state is [`ExplorerState`]'s (see
//! [`app::explorer`](crate::app::explorer)).

use sim_core::explore::{FormKey, Progress};
use sim_core::words::terminal as words;

use super::Message;
use crate::app::explorer::{Command, ExplorerState, Run, SearchEvent, SearchRequest};
use crate::app::measure;
use crate::app::model::{App, SandboxState, Screen, Timeline};

/// Applies `message` to the explorer screen; returns a screen to push.
pub(crate) fn update(app: &mut App, state: &mut ExplorerState, message: Message) -> Option<Screen> {
    use Message as M;
    let rows = FormKey::ALL.len();
    match message {
        M::Up if !state.running() => {
            state.row = state.row.saturating_sub(1);
            state.seed_fresh = true;
        }
        M::Down if !state.running() => {
            state.row = (state.row + 1).min(rows - 1);
            state.seed_fresh = true;
        }
        M::ListStart if !state.running() => {
            state.row = 0;
            state.seed_fresh = true;
        }
        M::ListEnd if !state.running() => {
            state.row = rows - 1;
            state.seed_fresh = true;
        }
        M::ClickRow(row) if !state.running() && row < rows => {
            if state.row == row {
                state.change(true);
            } else {
                state.row = row;
                state.seed_fresh = true;
            }
        }
        M::PrevValue | M::NextValue if !state.running() => {
            state.change(message == M::NextValue);
        }
        M::Run if !state.running() => start(app, state),
        M::SeedDigit(digit) if !state.running() => {
            // The first digit on the focused row replaces the seed, the
            // next ones append.
            state.form.type_digit(digit, state.seed_fresh);
            state.seed_fresh = false;
            state.run = Run::Idle;
        }
        M::SeedErase if !state.running() => {
            state.seed_fresh = false;
            state.form.erase_digit();
            state.run = Run::Idle;
        }
        M::CancelSearch => {
            if let Run::Running { id, cancelling, .. } = &mut state.run {
                if !*cancelling {
                    *cancelling = true;
                    app.outbox.push(Command::Cancel(*id));
                }
                app.say(words::EXPLORER_CANCELLING_SEARCH);
            }
        }
        M::OpenTimeline => return open_counterexample(app, state),
        M::ScrollUp
        | M::ScrollDown
        | M::PageUp
        | M::PageDown
        | M::Resize { .. }
        | M::ToggleLang => scroll_result(app, state, message),
        _ => {}
    }
    None
}

/// The sandbox on the finished search's counterexample, at the step that
/// broke the design; none when the design held.
fn open_counterexample(app: &mut App, state: &ExplorerState) -> Option<Screen> {
    let Run::Done { report, .. } = &state.run else {
        return None;
    };
    match &report.counterexample {
        Some(found) => {
            let mut timeline = Timeline::new(found.scenario.clone());
            timeline.cursor = (found.step as usize).min(timeline.len().saturating_sub(1));
            let source = words::EXPLORER_SOURCE.get(app.lang()).to_owned();
            Some(Screen::Sandbox(Box::new(SandboxState {
                source,
                timeline,
                detail_scroll: 0,
            })))
        }
        None => {
            app.say(words::EXPLORER_NOTHING_TO_PLAY);
            None
        }
    }
}

/// Scrolls the result by a line or a page, kept within what it shows at
/// the current size (a resize or the other language may shorten it).
fn scroll_result(app: &App, state: &mut ExplorerState, message: Message) {
    let (max, page) = measure::explorer_result_scroll(app, state);
    state.scroll = match message {
        Message::ScrollUp => state.scroll.saturating_sub(1),
        Message::ScrollDown => state.scroll.saturating_add(1),
        Message::PageUp => state.scroll.saturating_sub(page),
        Message::PageDown => state.scroll.saturating_add(page),
        _ => state.scroll,
    }
    .min(max);
}

fn start(app: &mut App, state: &mut ExplorerState) {
    state.scroll = 0;
    match state.form.settings().build() {
        Ok(sim_core::explore::Exploration { world, method, .. }) => {
            app.searches += 1;
            let id = app.searches;
            state.run = Run::Running {
                id,
                method,
                max_steps: world.bounds.max_steps,
                progress: Progress::default(),
                elapsed_ms: 0,
                cancelling: false,
            };
            app.outbox
                .push(Command::Start(SearchRequest { id, world, method }));
        }
        Err(why) => state.run = Run::Failed(why),
    }
}

/// Applies a running search's news to the explorer screen that started it.
pub(crate) fn receive(app: &mut App, event: SearchEvent) {
    let wanted = match &event {
        SearchEvent::Progress { id, .. } | SearchEvent::Finished { id, .. } => *id,
    };
    let found = app.screens.iter_mut().find_map(|screen| match screen {
        Screen::Explorer(state) => match state.run {
            Run::Running { id, .. } if id == wanted => Some(state),
            _ => None,
        },
        _ => None,
    });
    let Some(state) = found else { return };
    match event {
        SearchEvent::Progress {
            progress: now,
            elapsed_ms: ms,
            ..
        } => {
            if let Run::Running {
                progress,
                elapsed_ms,
                ..
            } = &mut state.run
            {
                *progress = now;
                *elapsed_ms = ms;
            }
        }
        SearchEvent::Finished {
            result, elapsed_ms, ..
        } => {
            state.scroll = 0;
            state.run = match result {
                Ok(report) => Run::Done { report, elapsed_ms },
                Err(why) => Run::Failed(why),
            };
        }
    }
}
