//! Colour for terminal output: only on a terminal, never with `NO_COLOR`.
//! Every coloured word also carries a symbol, so nothing depends on colour.

use std::io::IsTerminal;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Good,
    Bad,
    Warn,
    Dim,
    Bold,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    color: bool,
}

impl Style {
    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty
    /// (<https://no-color.org>).
    pub(crate) fn for_stdout() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            color: !no_color && std::io::stdout().is_terminal(),
        }
    }

    #[cfg(test)]
    pub(crate) fn plain() -> Style {
        Style { color: false }
    }

    pub(crate) fn paint(self, tone: Tone, text: &str) -> String {
        if !self.color || text.is_empty() {
            return text.to_owned();
        }
        let code = match tone {
            Tone::Good => "32",
            Tone::Bad => "1;31",
            Tone::Warn => "33",
            Tone::Dim => "2",
            Tone::Bold => "1",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}
