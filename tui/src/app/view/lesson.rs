//! The lesson reader: one section per page, scrollable, in the learner's
//! language; the last page lists the lesson's exercises.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, List, ListItem, ListState, Padding, Paragraph};
use sim_core::course::{Lesson, Standing, concept_name};

use super::{clamp_scroll, render_header, section};
use crate::app::layout;
use crate::app::model::{App, LessonState};
use crate::app::text;
use crate::app::theme::Theme;

fn body_block(title: Line<'static>, theme: Theme) -> Block<'static> {
    section(title, theme).padding(Padding::horizontal(1))
}

/// The lines of section `page`, wrapped to `width`.
pub(crate) fn section_lines(
    app: &App,
    lesson: &Lesson,
    page: usize,
    width: usize,
) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    let Some(found) = lesson.sections.get(page) else {
        return Vec::new();
    };
    let mut lines = Vec::new();
    let concepts: Vec<String> = found
        .concepts
        .iter()
        .map(|c| format!("{c} {}", concept_name(c, lang).unwrap_or_default()))
        .collect();
    for line in text::wrap(&concepts.join(" · "), width) {
        lines.push(Line::styled(line, theme.dim()));
    }
    lines.push(Line::default());
    lines.extend(text::wrap_styled(
        found.body.get(lang),
        width,
        theme.plain(),
        theme,
    ));
    lines
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &LessonState) {
    let theme = app.theme;
    let lang = app.lang();
    let Some(lesson) = app.lessons().get(state.lesson) else {
        return;
    };
    let [header, body, link] = layout::lesson(area);
    let sections = lesson.sections.len();
    render_header(
        frame,
        header,
        &lang.pick(
            format!("Lesson {} · {}", lesson.order, lesson.title.get(lang)),
            format!("第 {} 课 · {}", lesson.order, lesson.title.get(lang)),
        ),
        &level_path(app, state),
        theme,
    );
    if state.page >= sections {
        render_exercises(frame, body, app, lesson, state);
        return;
    }
    let Some(found) = lesson.sections.get(state.page) else {
        return;
    };
    let level = layout::level_exercises(lesson, state.page);
    let [body, practice] = layout::lesson_section(body, level.len());
    render_level_exercises(frame, practice, app, lesson, &level, state.exercise);
    let text_area = layout::lesson_text(body);
    let lines = section_lines(app, lesson, state.page, usize::from(text_area.width).max(1));
    let count = lines.len();
    let scroll = clamp_scroll(state.scroll, count, text_area.height);
    let title = Line::from(Span::styled(
        format!(
            " {} ",
            text::truncate(
                found.title.get(lang),
                usize::from(body.width.saturating_sub(6))
            )
        ),
        theme.title(),
    ));
    frame.render_widget(body_block(title, theme), body);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), text_area);
    let below = usize::from(scroll) + usize::from(text_area.height) < count;
    render_link(frame, link, app, state, below);
}

/// The bottom line: the section's timeline and where the text continues
/// (`below`: more of this section).
fn render_link(frame: &mut Frame<'_>, link: Rect, app: &App, state: &LessonState, below: bool) {
    let theme = app.theme;
    let lang = app.lang();
    let Some(lesson) = app.lessons().get(state.lesson) else {
        return;
    };
    let Some(found) = lesson.sections.get(state.page) else {
        return;
    };
    let sections = lesson.sections.len();
    let more = if below {
        lang.pick("↓ more", "↓ 更多")
    } else if state.page + 1 < sections {
        lang.pick("→ next level", "→ 下一关")
    } else {
        lang.pick("→ all exercises", "→ 全部练习")
    };
    let mut spans = vec![Span::raw(" ")];
    if let Some((name, scenario)) = found.scenario.and_then(|i| lesson.scenarios.get(i)) {
        spans.push(Span::styled("t", theme.key()));
        spans.push(Span::styled(
            format!(
                " ▸ {}{} ({name})",
                lang.pick("timeline: ", "时间线："),
                scenario.title.get(lang)
            ),
            theme.accent(),
        ));
    }
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let room = usize::from(link.width);
    if used + text::width(more) + 2 <= room {
        spans.push(Span::raw(" ".repeat(room - used - text::width(more) - 1)));
        spans.push(Span::styled(more, theme.dim()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), link);
}

/// The lesson's path, as the header's right side: "level 2 of 3 ●─[◉]─○ ≡"
/// — one marker per level (● done, ◉ where to go on, ○ open), the one on
/// screen in brackets, and ≡ for the page listing every exercise.
pub(crate) fn level_path(app: &App, state: &LessonState) -> String {
    let lang = app.lang();
    let levels = app.session.levels(state.lesson);
    let markers: Vec<String> = levels
        .iter()
        .map(|level| {
            let marker = level.state.marker();
            if level.section == state.page {
                format!("[{marker}]")
            } else {
                marker.to_owned()
            }
        })
        .collect();
    let all = if state.page >= levels.len() {
        "[≡]"
    } else {
        "≡"
    };
    let label = if state.page >= levels.len() {
        lang.pick("all exercises", "全部练习").to_owned()
    } else {
        lang.pick(
            format!("level {} of {}", state.page + 1, levels.len()),
            format!("第 {}/{} 关", state.page + 1, levels.len()),
        )
    };
    format!("{label} {} {all}", markers.join("─"))
}

/// A level's exercises under its section: the one Enter opens marked.
fn render_level_exercises(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    lesson: &Lesson,
    level: &[usize],
    selected: usize,
) {
    if level.is_empty() || area.height == 0 {
        return;
    }
    let theme = app.theme;
    let lang = app.lang();
    let width = usize::from(area.width);
    let items: Vec<ListItem<'_>> = level
        .iter()
        .filter_map(|index| lesson.exercises.get(*index))
        .map(|exercise| {
            let standing = app.session.standing(&lesson.id, &exercise.id);
            let status = standing.label().get(lang).to_owned();
            let head = format!(" {:<3} ", standing.symbol());
            let title_width = width.saturating_sub(text::width(&head) + text::width(&status) + 3);
            ListItem::new(Line::from(vec![
                Span::styled(head, standing_style(standing, theme)),
                Span::styled(
                    text::fit(exercise.title(lang), title_width.max(4)),
                    theme.plain(),
                ),
                Span::styled(format!("  {status}"), theme.dim()),
            ]))
        })
        .collect();
    let title = Line::from(Span::styled(
        lang.pick(" Practise it · Enter ", " 练一练 · Enter "),
        theme.title(),
    ));
    let at = level.iter().position(|e| *e == selected).unwrap_or(0);
    let mut list_state = ListState::default().with_selected(Some(at));
    frame.render_stateful_widget(
        List::new(items)
            .block(section(title, theme))
            .highlight_style(theme.selected()),
        area,
        &mut list_state,
    );
}

/// How an exercise's standing is drawn: done in the good colour, a shown
/// solution as a warning, the rest dim.
pub(crate) fn standing_style(standing: Standing, theme: Theme) -> ratatui::style::Style {
    match standing {
        Standing::Solved | Standing::SolvedWithSolution => theme.good(),
        Standing::Revealed => theme.warn(),
        Standing::NotStarted | Standing::Tried => theme.dim(),
    }
}

fn render_exercises(
    frame: &mut Frame<'_>,
    body: Rect,
    app: &App,
    lesson: &Lesson,
    state: &LessonState,
) {
    let theme = app.theme;
    let lang = app.lang();
    let [list_area, prompt_area] = layout::lesson_exercises(body, lesson);
    let width = usize::from(list_area.width);
    let items: Vec<ListItem<'_>> = lesson
        .exercises
        .iter()
        .enumerate()
        .map(|(index, exercise)| {
            let standing = app.session.standing(&lesson.id, &exercise.id);
            let status = standing.label().get(lang).to_owned();
            let marker = if index == state.exercise { "▸" } else { " " };
            let head = format!(
                "{marker} {:<3} {}. {}",
                standing.symbol(),
                index + 1,
                text::fit(exercise.kind.label(lang), 8)
            );
            let title_width = width
                .saturating_sub(text::width(&head) + text::width(&status) + 2)
                .max(4);
            ListItem::new(Line::from(vec![
                Span::raw(head),
                Span::styled(text::fit(exercise.title(lang), title_width), theme.plain()),
                Span::styled(format!("  {status}"), standing_style(standing, theme)),
            ]))
        })
        .collect();
    let title = Line::from(Span::styled(
        lang.pick(" Exercises ", " 练习 "),
        theme.title(),
    ));
    let mut list_state = ListState::default().with_selected(Some(state.exercise));
    frame.render_stateful_widget(
        List::new(items)
            .block(section(title, theme))
            .highlight_style(theme.selected()),
        list_area,
        &mut list_state,
    );
    if let Some(exercise) = lesson.exercises.get(state.exercise) {
        let text_area = layout::lesson_text(prompt_area);
        let lines = text::wrap_styled(
            exercise.prompt.get(lang),
            usize::from(text_area.width).max(1),
            theme.plain(),
            theme,
        );
        let title = Line::from(Span::styled(
            lang.pick(" The task ", " 题目 "),
            theme.title(),
        ));
        frame.render_widget(body_block(title, theme), prompt_area);
        frame.render_widget(Paragraph::new(lines), text_area);
    }
}
