//! The lesson reader: one section per page, scrollable, in the learner's
//! language; the last page lists the lesson's exercises. All of it is the
//! session's lesson view: titles, the path's states, standings.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, ListItem, Padding, Paragraph};
use sim_core::course::{ExerciseView, LessonView, SectionView, Standing};
use sim_core::words::terminal as words;

use super::{clamp_scroll, render_header, render_titled_list, section};
use crate::app::layout;
use crate::app::model::{App, LessonState};
use crate::app::text;
use crate::app::theme::Theme;

fn body_block(title: Line<'static>, theme: Theme) -> Block<'static> {
    section(title, theme).padding(Padding::horizontal(1))
}

/// The lines of a section, wrapped to `width`.
pub(crate) fn section_lines(app: &App, found: &SectionView, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let mut lines = Vec::new();
    for line in text::wrap(&super::course::concept_words(&found.concepts), width) {
        lines.push(Line::styled(line, theme.dim()));
    }
    lines.push(Line::default());
    lines.extend(text::wrap_styled(found.body, width, theme.plain(), theme));
    lines
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &LessonState) {
    let theme = app.theme;
    let lang = app.lang();
    let Some(lesson) = app.lesson_view(state.lesson) else {
        return;
    };
    let [header, body, link] = layout::lesson(area);
    render_header(
        frame,
        header,
        &words::lesson_header(lesson.order, lesson.title, lang),
        &level_path(app, &lesson, state.page),
        theme,
    );
    let Some(found) = lesson.sections.get(state.page) else {
        render_exercises(frame, body, app, &lesson, state);
        return;
    };
    let level: Vec<&ExerciseView> = lesson
        .exercises
        .iter()
        .filter(|e| e.level == state.page)
        .collect();
    let [body, practice] = layout::lesson_section(body, level.len());
    render_level_exercises(frame, practice, app, &level, state.exercise);
    let text_area = layout::lesson_text(body);
    let lines = section_lines(app, found, usize::from(text_area.width).max(1));
    let count = lines.len();
    let scroll = clamp_scroll(state.scroll, count, text_area.height);
    let title = Line::from(Span::styled(
        format!(
            " {} ",
            text::truncate(found.title, usize::from(body.width.saturating_sub(6)))
        ),
        theme.title(),
    ));
    frame.render_widget(body_block(title, theme), body);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), text_area);
    let below = usize::from(scroll) + usize::from(text_area.height) < count;
    render_link(frame, link, app, &lesson, state.page, below);
}

/// The bottom line: section `page`'s timeline and where the text
/// continues (`below`: more of this section).
fn render_link(
    frame: &mut Frame<'_>,
    link: Rect,
    app: &App,
    lesson: &LessonView,
    page: usize,
    below: bool,
) {
    let theme = app.theme;
    let lang = app.lang();
    let Some(found) = lesson.sections.get(page) else {
        return;
    };
    let more = if below {
        words::LESSON_MORE_BELOW.get(lang)
    } else if page + 1 < lesson.sections.len() {
        words::LESSON_ON_TO_NEXT_LEVEL.get(lang)
    } else {
        words::LESSON_ON_TO_ALL_EXERCISES.get(lang)
    };
    let mut spans = vec![Span::raw(" ")];
    let shown = found
        .scenario
        .as_ref()
        .and_then(|name| lesson.scenarios.iter().find(|s| s.name == *name));
    if let Some(scenario) = shown {
        spans.push(Span::styled("t", theme.key()));
        spans.push(Span::styled(
            // Its title only: the file's name for it is no learner's word.
            format!(
                " ▸ {}{}",
                words::LESSON_TIMELINE_LABEL.get(lang),
                scenario.title
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
/// screen (`page`) in brackets, and ≡ for the page listing every exercise.
pub(crate) fn level_path(app: &App, lesson: &LessonView, page: usize) -> String {
    let lang = app.lang();
    let levels = lesson.sections.len();
    let markers: Vec<String> = lesson
        .sections
        .iter()
        .enumerate()
        .map(|(at, level)| {
            let marker = level.state.marker();
            if at == page {
                format!("[{marker}]")
            } else {
                marker.to_owned()
            }
        })
        .collect();
    let (all, label) = if page >= levels {
        ("[≡]", words::LESSON_ALL_EXERCISES.get(lang).to_owned())
    } else {
        ("≡", words::level_of(page + 1, levels, lang))
    };
    format!("{label} {} {all}", markers.join("─"))
}

/// A level's exercises under its section: the one Enter opens marked.
fn render_level_exercises(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    level: &[&ExerciseView],
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
        .map(|exercise| {
            let status = &exercise.standing_label;
            let head = format!(" {:<3} ", exercise.symbol);
            let title_width = width.saturating_sub(text::width(&head) + text::width(status) + 3);
            ListItem::new(Line::from(vec![
                Span::styled(head, standing_style(exercise.standing, theme)),
                Span::styled(text::fit(exercise.title, title_width.max(4)), theme.plain()),
                Span::styled(format!("  {status}"), theme.dim()),
            ]))
        })
        .collect();
    let at = level.iter().position(|e| e.index == selected).unwrap_or(0);
    let list = (words::LESSON_PRACTISE_IT.get(lang), items);
    render_titled_list(frame, area, list, at, theme);
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
    lesson: &LessonView,
    state: &LessonState,
) {
    let theme = app.theme;
    let lang = app.lang();
    let [list_area, prompt_area] = layout::lesson_exercises(body, lesson.exercises.len());
    let width = usize::from(list_area.width);
    let items: Vec<ListItem<'_>> = lesson
        .exercises
        .iter()
        .map(|exercise| {
            let status = &exercise.standing_label;
            let marker = if exercise.index == state.exercise {
                "▸"
            } else {
                " "
            };
            let head = format!(
                "{marker} {:<3} {}. {}",
                exercise.symbol,
                exercise.index + 1,
                text::fit(exercise.kind_label, 8)
            );
            let title_width = width
                .saturating_sub(text::width(&head) + text::width(status) + 2)
                .max(4);
            ListItem::new(Line::from(vec![
                Span::raw(head),
                Span::styled(text::fit(exercise.title, title_width), theme.plain()),
                Span::styled(
                    format!("  {status}"),
                    standing_style(exercise.standing, theme),
                ),
            ]))
        })
        .collect();
    let list = (words::LESSON_EXERCISES.get(lang), items);
    render_titled_list(frame, list_area, list, state.exercise, theme);
    if let Some(exercise) = lesson.exercises.get(state.exercise) {
        let text_area = layout::lesson_text(prompt_area);
        let lines = text::wrap_styled(
            exercise.task,
            usize::from(text_area.width).max(1),
            theme.plain(),
            theme,
        );
        let title = Line::from(Span::styled(
            words::LESSON_THE_TASK.get(lang),
            theme.title(),
        ));
        frame.render_widget(body_block(title, theme), prompt_area);
        frame.render_widget(Paragraph::new(lines), text_area);
    }
}
