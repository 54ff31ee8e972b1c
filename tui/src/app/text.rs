//! Text for the terminal: wrapping that understands Chinese, truncation and
//! padding by display width, `code` spans and `**strong**` text.
//!
//! ratatui's own `Wrap` breaks lines only at spaces, so a Chinese paragraph
//! (which has none) would run off the edge. Everything here is pre-wrapped
//! with textwrap's Unicode line-breaking algorithm (UAX #14) and measured in
//! terminal columns (CJK characters are two wide).

use ratatui::style::{Modifier, Style};
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

/// Wrapped lines with `code` spans styled and `**strong**` text in bold.
/// The backticks stay, so the distinction survives without colour; the
/// `**` markers go (bold shows without colour too). A span may continue
/// across lines, never across a paragraph break.
pub(crate) fn wrap_styled(
    text: &str,
    width: usize,
    base: Style,
    theme: Theme,
) -> Vec<Line<'static>> {
    let (plain, strong) = without_strong_markers(text);
    // Wrapping only drops or breaks at whitespace, so the wrapped characters
    // appear in the source in order: walk both to find each one's emphasis.
    let source: Vec<char> = inert_lines(&plain).chars().collect();
    let mut cursor = 0;
    let mut in_code = false;
    wrap(&plain, width)
        .into_iter()
        .map(|line| {
            if line.is_empty() {
                in_code = false;
                return Line::default();
            }
            let mut spans: Vec<Span<'static>> = Vec::new();
            let mut current = String::new();
            let mut current_style = base;
            for ch in line.chars() {
                while cursor < source.len() && source[cursor] != ch {
                    cursor += 1;
                }
                let bold = strong.get(cursor).copied().unwrap_or(false);
                cursor += 1;
                let code = in_code || ch == '`';
                if ch == '`' {
                    in_code = !in_code;
                }
                let mut style = if code { theme.code() } else { base };
                if bold {
                    style = style.add_modifier(Modifier::BOLD);
                }
                if style != current_style && !current.is_empty() {
                    spans.push(Span::styled(std::mem::take(&mut current), current_style));
                }
                current_style = style;
                current.push(ch);
            }
            if !current.is_empty() {
                spans.push(Span::styled(current, current_style));
            }
            Line::from(spans)
        })
        .collect()
}

/// `text` without the `**` markers of strong spans, and for each remaining
/// character whether it is strong. As in Markdown, an opening marker is
/// followed and a closing one preceded by a non-space; markers inside
/// `code` are text, and so is a marker with no partner in its paragraph.
fn without_strong_markers(text: &str) -> (String, Vec<bool>) {
    let chars: Vec<char> = text.chars().collect();
    let marker_at = |i: usize| chars.get(i) == Some(&'*') && chars.get(i + 1) == Some(&'*');
    let solid = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c| !c.is_whitespace())
    };
    let opens = |i: usize| marker_at(i) && solid(Some(i + 2));
    let closes = |i: usize| marker_at(i) && solid(i.checked_sub(1));
    let partner_after = |from: usize| {
        let mut code = false;
        let mut j = from;
        while j < chars.len() {
            match chars[j] {
                '`' => code = !code,
                '\n' if chars.get(j + 1) == Some(&'\n') => return false,
                '*' if !code && closes(j) => return true,
                _ => {}
            }
            j += 1;
        }
        false
    };
    let mut plain = String::with_capacity(text.len());
    let mut strong_flags = Vec::with_capacity(chars.len());
    let (mut strong, mut code) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch == '`' {
            code = !code;
        } else if ch == '\n' && chars.get(i + 1) == Some(&'\n') {
            (strong, code) = (false, false);
        } else if !code
            && (if strong {
                closes(i)
            } else {
                opens(i) && partner_after(i + 2)
            })
        {
            strong = !strong;
            i += 2;
            continue;
        }
        plain.push(ch);
        strong_flags.push(strong);
        i += 1;
    }
    (plain, strong_flags)
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

    fn styled(text: &str, width: usize) -> Vec<Vec<(String, bool, bool)>> {
        let theme = Theme::from_env();
        wrap_styled(text, width, theme.plain(), theme)
            .into_iter()
            .map(|line| {
                line.spans
                    .into_iter()
                    .map(|span| {
                        let bold = span.style.add_modifier.contains(Modifier::BOLD);
                        let code = span.content.contains('`');
                        (span.content.into_owned(), bold, code)
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn strong_markers_become_bold_and_disappear() {
        let lines = styled("**Pass 1: what must happen.** List the claims.", 80);
        assert_eq!(
            lines,
            [vec![
                ("Pass 1: what must happen.".to_owned(), true, false),
                (" List the claims.".to_owned(), false, false),
            ]]
        );
    }

    #[test]
    fn strong_text_stays_bold_across_a_wrap_and_in_chinese() {
        let lines = styled("**第一遍：应该发生什么。** 按顺序列出所有成功的领取。", 12);
        let bold: String = lines
            .iter()
            .flatten()
            .filter(|(_, bold, _)| *bold)
            .map(|(text, _, _)| text.as_str())
            .collect();
        assert_eq!(bold, "第一遍：应该发生什么。");
        assert!(
            lines
                .iter()
                .flatten()
                .all(|(text, _, _)| !text.contains("**"))
        );
    }

    #[test]
    fn code_and_unpaired_markers_keep_their_asterisks() {
        let lines = styled("`a ** b` and 2 ** 3 and **`fence`** here", 80);
        let spans = &lines[0];
        assert!(
            spans.contains(&("`a ** b`".to_owned(), false, true)),
            "{spans:?}"
        );
        assert!(
            spans
                .iter()
                .any(|(t, bold, _)| t.contains("2 ** 3") && !bold),
            "{spans:?}"
        );
        assert!(
            spans.contains(&("`fence`".to_owned(), true, true)),
            "{spans:?}"
        );
    }

    #[test]
    fn strong_never_crosses_a_paragraph() {
        let lines = styled("**open\n\nclosed** end", 80);
        assert_eq!(lines[0], [("**open".to_owned(), false, false)]);
        assert_eq!(lines[2], [("closed** end".to_owned(), false, false)]);
    }
}
