//! Text for the terminal: wrapping that understands Chinese, truncation and
//! padding by display width, and `code` spans.
//!
//! ratatui's own `Wrap` breaks lines only at spaces, so a Chinese paragraph
//! (which has none) would run off the edge. Everything here is pre-wrapped
//! with textwrap's Unicode line-breaking algorithm (UAX #14) and measured in
//! terminal columns (CJK characters are two wide).

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use textwrap::{Options, WordSeparator};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::theme::Theme;
use crate::style::{inert, inert_lines};

/// Wraps `text` to `width` columns. Lines of the source stay lines; blank
/// lines (paragraph breaks) are kept, trailing ones dropped. Control
/// characters are made visible first ([`inert_lines`]), so they are
/// measured as drawn.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let text = inert_lines(text);
    let width = width.max(1);
    let options = Options::new(width)
        .word_separator(WordSeparator::UnicodeBreakProperties)
        .break_words(true);
    let mut lines = Vec::new();
    for source in text.trim_end().lines() {
        if source.trim().is_empty() {
            lines.push(String::new());
            continue;
        }
        for line in textwrap::wrap(source.trim_end(), &options) {
            lines.push(line.into_owned());
        }
    }
    lines
}

/// Wrapped lines with `code` spans styled; the backticks stay, so the
/// distinction survives without colour. A span may continue across lines.
pub(crate) fn wrap_styled(
    text: &str,
    width: usize,
    base: Style,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut in_code = false;
    wrap(text, width)
        .into_iter()
        .map(|line| {
            if line.is_empty() {
                in_code = false;
                return Line::default();
            }
            let mut spans = Vec::new();
            let mut current = String::new();
            for ch in line.chars() {
                if ch == '`' {
                    if in_code {
                        current.push(ch);
                        spans.push(Span::styled(std::mem::take(&mut current), theme.code()));
                    } else {
                        if !current.is_empty() {
                            spans.push(Span::styled(std::mem::take(&mut current), base));
                        }
                        current.push(ch);
                    }
                    in_code = !in_code;
                } else {
                    current.push(ch);
                }
            }
            if !current.is_empty() {
                let style = if in_code { theme.code() } else { base };
                spans.push(Span::styled(current, style));
            }
            Line::from(spans)
        })
        .collect()
}

/// `text` cut to at most `width` columns, with `…` when cut; control
/// characters made visible ([`inert`]).
pub(crate) fn truncate(text: &str, width: usize) -> String {
    let text = inert(text);
    if text.width() <= width {
        return text.into_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for ch in text.chars() {
        let w = ch.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(ch);
        used += w;
    }
    out.push('…');
    out
}

/// `text` truncated and padded with spaces to exactly `width` columns.
pub(crate) fn fit(text: &str, width: usize) -> String {
    let cut = truncate(text, width);
    let pad = width.saturating_sub(cut.width());
    format!("{cut}{}", " ".repeat(pad))
}

/// Display width in columns, as drawn (control characters made visible).
pub(crate) fn width(text: &str) -> usize {
    inert(text).width()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_wraps_without_spaces() {
        let lines = wrap(
            "租约只回答一个问题：别人能不能接手这个任务？它从不回答另一个问题。",
            20,
        );
        assert!(lines.len() > 1, "{lines:?}");
        assert!(lines.iter().all(|l| l.width() <= 20), "{lines:?}");
    }

    #[test]
    fn paragraphs_survive() {
        let lines = wrap("one two\n\nthree", 80);
        assert_eq!(lines, ["one two", "", "three"]);
    }

    #[test]
    fn tiny_widths_do_not_loop() {
        for width in 0..4 {
            let lines = wrap("租约 lease 续约", width);
            assert!(!lines.is_empty());
        }
    }

    #[test]
    fn truncation_counts_columns() {
        assert_eq!(truncate("租约不是关机键", 7), "租约不…");
        assert_eq!(fit("ab", 4), "ab  ");
    }
}
