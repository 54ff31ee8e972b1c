//! The review screen: every exercise of the course with the learner's
//! tries, hints and how far each got, in the course session's order
//! (lesson, level, file), and the way to the next unfinished one.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};
use sim_core::Lang;
use sim_core::course::ReviewRow;

use super::{render_header, section};
use crate::app::layout;
use crate::app::model::{App, ReviewState};
use crate::app::text;

/// "2 hints", "提示 2 次".
fn hints(lang: Lang, used: u32) -> String {
    match (lang, used) {
        (Lang::Zh, n) => format!("提示 {n} 次"),
        (Lang::En, 1) => "1 hint".to_owned(),
        (Lang::En, n) => format!("{n} hints"),
    }
}

/// A row: sign, place, title, tries and hints, and the standing in words
/// in a column `standing_width` wide (the widest on the list: never cut).
fn row_line(app: &App, row: &ReviewRow, width: usize, standing_width: usize) -> Line<'static> {
    let lang = app.lang();
    let theme = app.theme;
    let order = app.lessons().get(row.lesson).map_or(0, |l| l.order);
    let place = format!("{order}.{}", row.level + 1);
    let counts = format!(
        "{} · {}",
        sim_core::course::tries_words(row.attempts, lang),
        hints(lang, row.hints_used)
    );
    let state = row.standing.label().get(lang).to_owned();
    let tail = format!(
        "  {} {}",
        text::fit(&counts, 20),
        text::fit(&state, standing_width)
    );
    // The sign is the course's (sim-core), padded to the widest, `(✓)`.
    let head = format!(" {:<3} {place:>5} ", row.standing.symbol());
    let title_width = width
        .saturating_sub(text::width(&head) + text::width(&tail))
        .max(4);
    Line::from(vec![
        Span::styled(head, super::lesson::standing_style(row.standing, theme)),
        Span::styled(text::fit(row.title.get(lang), title_width), theme.plain()),
        Span::styled(tail, super::lesson::standing_style(row.standing, theme)),
    ])
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ReviewState) {
    let theme = app.theme;
    let lang = app.lang();
    let rows = app.session.review();
    let solved = rows.iter().filter(|r| !r.standing.unfinished()).count();
    let [header, list_area, next_area] = layout::review(area);
    render_header(
        frame,
        header,
        lang.pick("Your progress", "学习进度"),
        &lang.pick(
            format!("{solved} of {} solved", rows.len()),
            format!("已解决 {solved}/{}", rows.len()),
        ),
        theme,
    );
    let width = usize::from(list_area.width);
    let standing_width = rows
        .iter()
        .map(|row| text::width(row.standing.label().get(lang)))
        .max()
        .unwrap_or(0);
    let items: Vec<ListItem<'_>> = rows
        .iter()
        .map(|row| ListItem::new(row_line(app, row, width, standing_width)))
        .collect();
    let title = Line::from(Span::styled(
        lang.pick(" Every exercise · lesson.level ", " 全部练习 · 课.关 "),
        theme.title(),
    ));
    let mut list_state = ListState::default().with_selected(Some(state.selected));
    frame.render_stateful_widget(
        List::new(items)
            .block(section(title, theme))
            .highlight_style(theme.selected()),
        list_area,
        &mut list_state,
    );
    let next = app
        .session
        .next_unfinished_after(None)
        .and_then(|(lesson, exercise)| {
            rows.iter()
                .find(|r| r.lesson == lesson && r.exercise == exercise)
        });
    let line = match next {
        Some(row) => Line::from(vec![
            Span::raw(" "),
            Span::styled("n", theme.key()),
            Span::styled(
                format!(
                    " ▸ {}{}",
                    lang.pick("next unfinished: ", "下一道未完成："),
                    row.title.get(lang)
                ),
                theme.accent(),
            ),
        ]),
        None => Line::styled(
            lang.pick(" Every exercise is solved.", " 所有练习都已解决。"),
            theme.good(),
        ),
    };
    frame.render_widget(Paragraph::new(line), next_area);
}
