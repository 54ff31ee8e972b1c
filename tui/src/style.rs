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

/// `text` made safe to print on one line: every control character (C0,
/// newline included, DEL and C1) becomes one visible character of the same
/// width, so a file's title, name or value can never move the cursor,
/// clear the screen or set the terminal's title. C0 and DEL become their
/// Unicode Control Pictures (ESC is `␛`, BEL `␇`, newline `␊`, DEL `␡`);
/// C1, which has no pictures, becomes `�`. One column each, so tables and
/// the app's layout stay aligned. Used wherever text from a file reaches a
/// terminal: `run`, `explore`, `grade`, `lint`, their error messages and
/// every cell the app draws.
pub(crate) fn inert(text: &str) -> std::borrow::Cow<'_, str> {
    replace_controls(text, false)
}

/// [`inert`] for text of several lines: newlines stay.
pub(crate) fn inert_lines(text: &str) -> std::borrow::Cow<'_, str> {
    replace_controls(text, true)
}

/// The visible stand-in for a control character.
pub(crate) fn control_picture(c: char) -> char {
    match u32::from(c) {
        code @ 0..=0x1f => char::from_u32(0x2400 + code).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

fn replace_controls(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && !(keep_newlines && c == '\n');
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .map(|c| {
            if unsafe_char(c) {
                control_picture(c)
            } else {
                c
            }
        })
        .collect::<String>()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_visible_pictures() {
        let title = "a\u{1b}]0;PWNED\u{7}\u{1b}[2J\u{7f}\u{9b}b\tc\nd";
        assert_eq!(inert(title), "a␛]0;PWNED␇␛[2J␡�b␉c␊d");
        assert_eq!(inert_lines(title), "a␛]0;PWNED␇␛[2J␡�b␉c\nd");
        assert!(matches!(inert("租约 lease"), std::borrow::Cow::Borrowed(_)));
    }
}
