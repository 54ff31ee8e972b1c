//! Colours and emphasis. Colour only ever repeats what a symbol or a word
//! already says: with `NO_COLOR` (or `--no-color` in tests) every style keeps
//! its modifiers (bold, reversed) and drops its colour.

use ratatui::style::{Color, Modifier, Style};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Theme {
    pub(crate) color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set to a non-empty value (<https://no-color.org>).
    pub(crate) fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
    }

    fn paint(self, color: Color, style: Style) -> Style {
        if self.color { style.fg(color) } else { style }
    }

    pub(crate) fn plain(self) -> Style {
        Style::new()
    }

    pub(crate) fn title(self) -> Style {
        Style::new().add_modifier(Modifier::BOLD)
    }

    /// Secondary text: grey on colour terminals, plain otherwise.
    pub(crate) fn dim(self) -> Style {
        self.paint(Color::DarkGray, Style::new())
    }

    pub(crate) fn good(self) -> Style {
        self.paint(Color::Green, Style::new())
    }

    /// Something went wrong or is unsafe: bold even without colour.
    pub(crate) fn bad(self) -> Style {
        self.paint(Color::Red, Style::new().add_modifier(Modifier::BOLD))
    }

    pub(crate) fn warn(self) -> Style {
        self.paint(Color::Yellow, Style::new())
    }

    pub(crate) fn accent(self) -> Style {
        self.paint(Color::Cyan, Style::new())
    }

    pub(crate) fn code(self) -> Style {
        self.paint(Color::Yellow, Style::new())
    }

    pub(crate) fn key(self) -> Style {
        self.paint(Color::Cyan, Style::new().add_modifier(Modifier::BOLD))
    }

    /// The selected row or the current step: reversed, which needs no colour.
    pub(crate) fn selected(self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub(crate) fn border(self) -> Style {
        self.paint(Color::DarkGray, Style::new())
    }
}
