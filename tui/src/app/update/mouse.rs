//! Mouse events become [`Message`]s, as keys do. A click is hit-tested with
//! [`layout`], the module the view draws with, and [`measure`], which
//! places the view's own lines with it (the footer's key labels, the
//! course map's rows, a timeline's step columns, the explorer's settings),
//! so what is clicked is what is drawn.

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::{Message, message_for_key};
use crate::app::model::{App, Screen};
use crate::app::{layout, measure};

pub(crate) fn message_for_mouse(app: &App, mouse: MouseEvent) -> Option<Message> {
    if layout::too_small(app.width, app.height) {
        return None;
    }
    let (x, y) = (mouse.column, mouse.row);
    match mouse.kind {
        MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
            let up = mouse.kind == MouseEventKind::ScrollUp;
            if app.help || app.notice.is_some() {
                return None;
            }
            Some(match (app.screen(), up) {
                (Screen::Course(_), true) => Message::Up,
                (Screen::Course(_), false) => Message::Down,
                (_, true) => Message::ScrollUp,
                (_, false) => Message::ScrollDown,
            })
        }
        // Only the press: a release or a drag would act a second time.
        MouseEventKind::Down(MouseButton::Left) => click(app, x, y),
        _ => None,
    }
}

fn click(app: &App, x: u16, y: u16) -> Option<Message> {
    if app.notice.is_some() {
        return Some(Message::Dismiss);
    }
    if y + 1 == app.height {
        let key = measure::footer_hits(app)
            .into_iter()
            .find(|hit| (hit.from..hit.to).contains(&x))
            .and_then(|hit| key_of_label(hit.key, x - hit.from))?;
        return message_for_key(app, KeyEvent::new(key, KeyModifiers::NONE));
    }
    if app.help {
        return Some(Message::ToggleHelp);
    }
    match app.screen() {
        Screen::Course(state) => measure::course_row_at(app, state, x, y).map(Message::ClickRow),
        Screen::Sandbox(state) => {
            layout::sandbox_step_at(app, state, x, y).map(Message::SelectStep)
        }
        Screen::Exercise(state) => {
            measure::exercise_step_at(app, state, x, y).map(Message::SelectStep)
        }
        Screen::Explorer(_) => layout::explorer_row_at(app, x, y).map(Message::ClickRow),
        Screen::Review(state) => {
            layout::review_row_at(app, state.selected, x, y).map(Message::ClickRow)
        }
        Screen::Lesson(state) => match layout::lesson_click_at(app, state, x, y)? {
            Ok(row) => Some(Message::ClickRow(row)),
            Err(()) => Some(Message::OpenTimeline),
        },
    }
}

/// The key a footer label stands for, `at` columns into the label and its
/// description. A label naming two keys (`↑↓`, `Home/End`) is split: each
/// half is its own key, and its description is neither.
pub(crate) fn key_of_label(label: &str, at: u16) -> Option<KeyCode> {
    let at = usize::from(at);
    let pair = |first: KeyCode, second: KeyCode, split: usize, len: usize| {
        if at < split {
            Some(first)
        } else if at < len {
            Some(second)
        } else {
            None
        }
    };
    match label {
        "↑↓" => pair(KeyCode::Up, KeyCode::Down, 1, 2),
        "←→" => pair(KeyCode::Left, KeyCode::Right, 1, 2),
        "Home/End" => pair(KeyCode::Home, KeyCode::End, 5, 8),
        // ← and → each a column, then `/Space`.
        "←→/Space" if (2..8).contains(&at) => Some(KeyCode::Char(' ')),
        "←→/Space" => pair(KeyCode::Left, KeyCode::Right, 1, 2),
        "←" => Some(KeyCode::Left),
        "→" => Some(KeyCode::Right),
        "Enter" => Some(KeyCode::Enter),
        "Esc" => Some(KeyCode::Esc),
        "Space" => Some(KeyCode::Char(' ')),
        "Tab" => Some(KeyCode::Tab),
        other => {
            let mut chars = other.chars();
            match (chars.next(), chars.next()) {
                (Some(ch), None) => Some(KeyCode::Char(ch)),
                _ => None,
            }
        }
    }
}
