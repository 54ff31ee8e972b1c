//! The course map: every lesson in order, its concepts, how many of its
//! exercises are complete, and which one is next.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};
use sim_core::Lang;
use sim_core::course::concept_name;

use super::{render_header, section};
use crate::app::layout;
use crate::app::model::{App, CourseState};
use crate::app::text;

/// The course map: the lesson list and the selected lesson's detail. Long
/// because the detail fills a tall window's spare rows line by line.
pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &CourseState) {
    let theme = app.theme;
    let lang = app.lang();
    let (done, total) = app.session.completed_overall();
    let [header, list_area, detail_area] = layout::course(app, area);
    render_header(
        frame,
        header,
        lang.pick("fencelab · the course", "fencelab · 课程"),
        &if lang == Lang::Zh {
            format!("练习 {done}/{total} · 中文")
        } else {
            format!("{done}/{total} exercises · English")
        },
        theme,
    );

    // The list.
    let width = usize::from(list_area.width);
    let next = app.next_lesson();
    let concepts_width = if width >= 70 {
        app.lessons()
            .iter()
            .map(|l| text::width(&l.concepts.join(" ")))
            .max()
            .unwrap_or(0)
            .min(24)
    } else {
        0
    };
    let items: Vec<ListItem<'_>> = app
        .lessons()
        .iter()
        .enumerate()
        .map(|(index, lesson)| {
            let (complete, count) = app.session.completed(lesson);
            let marker = if index == state.selected { "▸" } else { " " };
            let check = if count > 0 && complete == count {
                "✓"
            } else {
                " "
            };
            let counts = format!("{complete}/{count}{check}");
            let next_mark = if next == Some(index) {
                lang.pick("◂ next", "◂ 下一课")
            } else {
                ""
            };
            let next_width = text::width(lang.pick("◂ next", "◂ 下一课"));
            let fixed = 2 + 4 + 2 + concepts_width + 2 + 5 + 1 + next_width + 1;
            let title_width = width.saturating_sub(fixed).max(4);
            let mut spans = vec![
                Span::raw(format!("{marker} ")),
                Span::styled(format!("{:>2}  ", lesson.order), theme.dim()),
                Span::styled(
                    text::fit(lesson.title.get(lang), title_width),
                    theme.plain(),
                ),
                Span::raw("  "),
            ];
            if concepts_width > 0 {
                spans.push(Span::styled(
                    text::fit(&lesson.concepts.join(" "), concepts_width),
                    theme.dim(),
                ));
                spans.push(Span::raw("  "));
            }
            let counts_style = if count > 0 && complete == count {
                theme.good()
            } else {
                theme.plain()
            };
            spans.push(Span::styled(format!("{counts:>5}"), counts_style));
            spans.push(Span::raw(" "));
            spans.push(Span::styled(next_mark, theme.accent()));
            ListItem::new(Line::from(spans))
        })
        .collect();
    let title = Line::from(Span::styled(
        lang.pick(" Lessons ", " 课程 "),
        theme.title(),
    ));
    let list = List::new(items)
        .block(section(title, theme))
        .highlight_style(theme.selected());
    let mut list_state = ListState::default().with_selected(Some(state.selected));
    frame.render_stateful_widget(list, list_area, &mut list_state);

    // The selected lesson.
    let Some(lesson) = app.lessons().get(state.selected) else {
        frame.render_widget(
            Paragraph::new("No lessons.").block(section(Line::default(), theme)),
            detail_area,
        );
        return;
    };
    let wrap_width = usize::from(detail_area.width.saturating_sub(2)).clamp(1, 96);
    let mut lines: Vec<Line<'static>> =
        text::wrap_styled(lesson.summary.get(lang), wrap_width, theme.plain(), theme);
    lines.push(Line::default());
    let concepts: Vec<String> = lesson
        .concepts
        .iter()
        .map(|c| format!("{c} {}", concept_name(c, lang).unwrap_or_default()))
        .collect();
    for line in text::wrap(
        &format!(
            "{}{}",
            lang.pick("Concepts: ", "概念："),
            concepts.join(" · ")
        ),
        wrap_width,
    ) {
        lines.push(Line::styled(line, theme.dim()));
    }
    let (complete, count) = app.session.completed(lesson);
    let read = app
        .session
        .sections_read(&lesson.id)
        .iter()
        .filter(|s| (**s as usize) < lesson.sections.len())
        .count();
    let sections = lesson.sections.len();
    let status = if lang == Lang::Zh {
        format!("练习完成 {complete}/{count} · 已读小节 {read}/{sections}")
    } else {
        format!("Exercises: {complete} of {count} complete · sections read: {read} of {sections}")
    };
    for line in text::wrap(&status, wrap_width) {
        lines.push(Line::styled(line, theme.dim()));
    }
    // What the lesson holds, for the rows a tall window has to spare.
    let read: &[u32] = app.session.sections_read(&lesson.id);
    lines.push(Line::default());
    for (index, found) in lesson.sections.iter().enumerate() {
        let mark = if read.contains(&(index as u32)) {
            "✓"
        } else {
            " "
        };
        let line = format!("{mark} §{} {}", index + 1, found.title.get(lang));
        lines.push(Line::styled(
            text::truncate(&line, wrap_width),
            theme.plain(),
        ));
    }
    for exercise in &lesson.exercises {
        let done = app.session.is_complete(&lesson.id, &exercise.id);
        let line = format!(
            "{} {} {}",
            if done { "✓" } else { " " },
            text::fit(exercise.kind.label(lang), 8),
            exercise.id
        );
        lines.push(Line::styled(
            text::truncate(&line, wrap_width),
            theme.plain(),
        ));
    }
    let title = Line::from(Span::styled(
        format!(
            " {} ",
            text::truncate(
                lesson.title.get(lang),
                usize::from(detail_area.width.saturating_sub(6))
            )
        ),
        theme.title(),
    ));
    frame.render_widget(
        Paragraph::new(lines)
            .block(section(title, theme).padding(ratatui::widgets::Padding::horizontal(1))),
        detail_area,
    );
}
