//! The explorer screen: the setup (design, method, seed, world toggles)
//! above, the search below — its progress while it runs, then the verdict,
//! the explanation, the shrinking sequence and the bounds. The rows and
//! every word about the search are sim-core's explorer screen
//! (`sim_core::explore::screen`); this draws them, and says only the
//! terminal's own keys.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Padding, Paragraph};
use sim_core::Lang;
use sim_core::explore::{ProgressView, ReportView, ShrinkLine, Tone};
use sim_core::words::terminal as words;

use super::{clamp_scroll, render_header, section};
use crate::app::explorer::{ExplorerState, Run};
use crate::app::layout;
use crate::app::model::App;
use crate::app::text;
use crate::app::theme::Theme;

/// What the help overlay says about this screen.
pub(crate) fn help(lang: Lang) -> [&'static str; 3] {
    [
        words::EXPLORER_HELP_WHAT,
        words::EXPLORER_HELP_HOW,
        words::EXPLORER_HELP_KEYS,
    ]
    .map(|paragraph| paragraph.get(lang))
}

fn setup_lines(app: &App, state: &ExplorerState, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let rows = state.form.rows(app.lang());
    let widest = |text: fn(&sim_core::explore::SettingRow) -> &str| {
        rows.iter()
            .map(|row| text::width(text(row)))
            .max()
            .unwrap_or(0)
            + 2
    };
    let (label_width, value_width) = (widest(|row| &row.label), widest(|row| &row.value));
    rows.iter()
        .enumerate()
        .map(|(index, row)| {
            let focused = index == state.row;
            let marker = if focused { "▸ " } else { "  " };
            let value_style = if focused {
                theme.selected()
            } else {
                theme.plain()
            };
            let used = 2 + label_width + value_width;
            let mut spans = vec![
                Span::styled(marker, theme.accent()),
                Span::styled(text::fit(&row.label, label_width), theme.title()),
                Span::styled(row.value.clone(), value_style),
                Span::raw(" ".repeat(value_width - text::width(&row.value))),
            ];
            if width > used + 4 {
                spans.push(Span::styled(
                    text::truncate(&row.note, width - used),
                    theme.dim(),
                ));
            }
            Line::from(spans)
        })
        .collect()
}

/// `[█████░░░░░]`: the filled part is a different character, not only a colour.
fn bar(done: u64, total: u64, width: usize) -> String {
    let total = total.max(1);
    let filled =
        usize::try_from(done.min(total).saturating_mul(width as u64) / total).unwrap_or(width);
    format!("[{}{}]", "█".repeat(filled), "░".repeat(width - filled))
}

fn progress_lines(lang: Lang, run: &Run, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let Run::Running {
        method,
        max_steps,
        progress,
        elapsed_ms,
        cancelling,
        ..
    } = run
    else {
        return Vec::new();
    };
    let view = ProgressView::new(progress, *method, *max_steps, *elapsed_ms, lang);
    let bar_width = width.saturating_sub(2).min(40);
    let mut lines = vec![
        Line::styled(view.title, theme.title()),
        Line::styled(bar(view.done, view.total, bar_width), theme.accent()),
    ];
    for line in text::wrap(&view.counts, width) {
        lines.push(Line::styled(line, theme.plain()));
    }
    lines.push(Line::styled(view.elapsed, theme.dim()));
    lines.push(Line::default());
    let hint = if *cancelling {
        words::EXPLORER_CANCELLING.get(lang)
    } else {
        words::EXPLORER_HOW_TO_CANCEL.get(lang)
    };
    lines.push(Line::styled(hint.to_owned(), theme.dim()));
    lines
}

fn tone_style(tone: Tone, theme: Theme) -> Style {
    match tone {
        Tone::Good => theme.good(),
        Tone::Bad => theme.bad(),
        Tone::Warn => theme.warn(),
    }
}

/// A finished search: the verdict (with the counterexample and how it was
/// shrunk, when there is one), then the world, the bounds and the counts.
fn report_lines(view: &ReportView, lang: Lang, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let prose = |lines: &mut Vec<Line<'static>>, text: &str, style| {
        lines.extend(text::wrap_styled(text, width, style, theme));
    };
    prose(&mut lines, &view.summary, tone_style(view.tone, theme));
    if let Some(found) = &view.counterexample {
        prose(&mut lines, &found.schedule, theme.code());
        prose(&mut lines, &found.explanation, theme.plain());
        prose(
            &mut lines,
            words::EXPLORER_PLAY_COUNTEREXAMPLE.get(lang),
            theme.dim(),
        );
    }
    if let Some(shrinking) = &view.shrinking {
        lines.push(Line::default());
        prose(&mut lines, &shrinking.head, theme.title());
        let number_width = shrinking
            .lines
            .iter()
            .map(|line| match line {
                ShrinkLine::Schedule { moves, .. } => moves.to_string().len(),
                ShrinkLine::Elided => 1,
            })
            .max()
            .unwrap_or(1);
        for line in &shrinking.lines {
            lines.push(match line {
                ShrinkLine::Schedule { moves, schedule } => Line::styled(
                    text::truncate(&format!("{moves:>number_width$}  {schedule}"), width),
                    theme.plain(),
                ),
                ShrinkLine::Elided => {
                    Line::styled(format!("{:>number_width$}  …", "⋮"), theme.dim())
                }
            });
        }
    }
    lines.push(Line::default());
    for text in [&view.world, &view.bounds, &view.limits, &view.stats] {
        prose(&mut lines, text, theme.dim());
    }
    lines
}

fn result_title(state: &ExplorerState, lang: Lang) -> String {
    let title = match &state.run {
        Run::Idle => words::EXPLORER_RESULT.get(lang).to_owned(),
        Run::Running { .. } => words::SEARCHING.get(lang).to_owned(),
        Run::Failed(_) => words::EXPLORER_COULD_NOT_RUN.get(lang).to_owned(),
        Run::Done { report, elapsed_ms } => ReportView::new(report, *elapsed_ms, lang).title,
    };
    format!(" {title} ")
}

pub(crate) fn result_lines(app: &App, state: &ExplorerState, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    match &state.run {
        Run::Idle => match state.form.preview(lang) {
            Ok(words) => {
                // The setting in focus, its note whole (its row cuts it).
                let mut lines: Vec<Line<'static>> = Vec::new();
                if let Some(row) = state.form.rows(lang).get(state.row) {
                    let about = format!("▸ {}: {}", row.label, row.note);
                    lines.extend(text::wrap_styled(&about, width, theme.dim(), theme));
                    lines.push(Line::default());
                }
                lines.extend(
                    words
                        .iter()
                        .flat_map(|text| text::wrap_styled(text, width, theme.plain(), theme)),
                );
                lines.push(Line::default());
                lines.extend(text::wrap_styled(
                    words::EXPLORER_HOW_TO_RUN.get(lang),
                    width,
                    theme.dim(),
                    theme,
                ));
                lines
            }
            Err(why) => text::wrap_styled(&why, width, theme.warn(), theme),
        },
        Run::Running { .. } => progress_lines(lang, &state.run, width, theme),
        Run::Done { report, elapsed_ms } => report_lines(
            &ReportView::new(report, *elapsed_ms, lang),
            lang,
            width,
            theme,
        ),
        Run::Failed(why) => text::wrap_styled(&why.message(lang), width, theme.warn(), theme),
    }
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ExplorerState) {
    let theme = app.theme;
    let lang = app.lang();
    let [header, setup, result] = layout::explorer(area);
    render_header(
        frame,
        header,
        words::EXPLORER_HEADER.get(lang),
        &state.form.summary(lang),
        theme,
    );

    let title = Line::from(Span::styled(words::EXPLORER_SETUP.get(lang), theme.title()));
    let block = section(title, theme);
    let inner = layout::section_inner(setup);
    frame.render_widget(block, setup);
    frame.render_widget(
        Paragraph::new(setup_lines(app, state, usize::from(inner.width))),
        inner,
    );

    let inner = layout::padded_section_inner(result);
    let lines = result_lines(app, state, usize::from(inner.width).max(1));
    let scroll = clamp_scroll(state.scroll, lines.len(), inner.height);
    let mut title = vec![Span::styled(result_title(state, lang), theme.title())];
    // Said in words, so a learner knows there is more below.
    let max = clamp_scroll(u16::MAX, lines.len(), inner.height);
    if max > 0 {
        let more = if scroll < max {
            words::MORE_BELOW_PGDN.get(lang)
        } else {
            words::MORE_ABOVE_PGUP.get(lang)
        };
        title.push(Span::styled(more, theme.dim()));
    }
    let block = section(Line::from(title), theme).padding(Padding::horizontal(1));
    frame.render_widget(block, result);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
}
