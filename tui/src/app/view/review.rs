//! The review screen: every exercise of the course with the learner's
//! tries, hints and how far each got, in the course session's order
//! (lesson, level, file), and the way to the next unfinished one — the
//! session's review view, drawn.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{ListItem, Paragraph};
use sim_core::course::ReviewLine;
use sim_core::words::terminal as words;

use super::lesson::standing_style;
use super::{render_header, render_titled_list};
use crate::app::layout;
use crate::app::model::{App, ReviewState};
use crate::app::text;

/// A row: sign, place, title, then tries and hints, and the standing in
/// words, in columns as wide as the widest on the list (`tail_widths`):
/// never cut, the title gives way.
fn row_line(
    app: &App,
    row: &ReviewLine,
    width: usize,
    tail_widths: (usize, usize),
) -> Line<'static> {
    let theme = app.theme;
    let exercise = &row.exercise;
    let (counts_width, standing_width) = tail_widths;
    let tail = format!(
        "  {}  {}",
        text::fit(&row.counts, counts_width),
        text::fit(&exercise.standing_label, standing_width)
    );
    // The sign is the course's (sim-core), padded to the widest, `(✓)`.
    let head = format!(" {:<3} {:>5} ", exercise.symbol, row.place);
    let title_width = width
        .saturating_sub(text::width(&head) + text::width(&tail))
        .max(4);
    let style = standing_style(exercise.standing, theme);
    Line::from(vec![
        Span::styled(head, style),
        Span::styled(text::fit(exercise.title, title_width), theme.plain()),
        Span::styled(tail, style),
    ])
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ReviewState) {
    let theme = app.theme;
    let lang = app.lang();
    let review = app.session.review_view(lang);
    let (solved, total) = (review.solved, review.total);
    let [header, list_area, practice_area, next_area] =
        layout::review(area, layout::review_practice_rows(app));
    render_header(
        frame,
        header,
        words::YOUR_PROGRESS.get(lang),
        &words::solved_of(solved, total, lang),
        theme,
    );
    let width = usize::from(list_area.width);
    let widest = |of: fn(&ReviewLine) -> usize| review.rows.iter().map(of).max().unwrap_or(0);
    let tail_widths = (
        widest(|row| text::width(&row.counts)),
        widest(|row| text::width(&row.exercise.standing_label)),
    );
    let items: Vec<ListItem<'_>> = review
        .rows
        .iter()
        .map(|row| ListItem::new(row_line(app, row, width, tail_widths)))
        .collect();
    let list = (words::REVIEW_LIST_TITLE.get(lang), items);
    render_titled_list(frame, list_area, list, state.selected, theme);
    let line = match review.next {
        Some(next) => Line::from(vec![
            Span::raw(" "),
            Span::styled("n", theme.key()),
            Span::styled(
                format!(
                    " ▸ {}{}",
                    words::REVIEW_NEXT_UNFINISHED_LABEL.get(lang),
                    next.title
                ),
                theme.accent(),
            ),
        ]),
        None => Line::styled(format!(" {}", words::ALL_SOLVED.get(lang)), theme.good()),
    };
    frame.render_widget(Paragraph::new(line), next_area);
    // Practice: the standing over every pool, then the counts per concept.
    let practice = &review.practice;
    let concepts = if practice.concepts.is_empty() {
        words::REVIEW_NO_PRACTICE.get(lang).to_owned()
    } else {
        practice
            .concepts
            .iter()
            .map(|c| format!("{} {}", c.concept, c.words))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let width = usize::from(practice_area.width).saturating_sub(1);
    let lines = vec![
        Line::from(vec![
            Span::styled(format!(" {} ", practice.heading), theme.title()),
            Span::styled(
                text::fit(
                    &practice.streak_line,
                    width.saturating_sub(text::width(&practice.heading) + 2),
                ),
                theme.plain(),
            ),
        ]),
        Line::styled(format!(" {}", text::fit(&concepts, width)), theme.dim()),
    ];
    frame.render_widget(Paragraph::new(lines), practice_area);
}
