//! The course map: the front door (the problem in one sentence, the story
//! of a stale write with and without a fencing token as the engine tells
//! it, and Start or Continue), then every lesson in order, how many of its
//! exercises are complete, and which one is next.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{ListItem, Paragraph};
use sim_core::course::{ConceptView, LessonView, MapView};
use sim_core::words::terminal as words;

use super::{render_header, render_titled_list, section};
use crate::app::layout;
use crate::app::model::{App, CourseState};
use crate::app::text;

/// The course map's areas in `body`, the door as tall as its text.
pub(crate) fn areas(app: &App, body: Rect) -> [Rect; 4] {
    let door = door_lines(app, usize::from(body.width.saturating_sub(2)));
    layout::course(app, body, door.len())
}

/// The course map: the front door, the lesson list and the selected
/// lesson's detail, from the session's map view.
pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &CourseState) {
    let theme = app.theme;
    let lang = app.lang();
    let map = app.session.map_view(lang);
    let (done, total) = (map.completed, map.total);
    let [header, door_area, list_area, detail_area] = areas(app, area);
    render_header(
        frame,
        header,
        words::COURSE_HEADER.get(lang),
        &words::course_counts(done, total, lang),
        theme,
    );

    let door = door_lines(app, usize::from(door_area.width.saturating_sub(2)));
    frame.render_widget(
        Paragraph::new(door).block(
            ratatui::widgets::Block::new().padding(ratatui::widgets::Padding::horizontal(1)),
        ),
        door_area,
    );
    render_list(frame, list_area, app, &map, state);
    render_detail(frame, detail_area, app, state);
}

/// The lesson list: each lesson's number, title, exercises done and the
/// next one to do.
fn render_list(
    frame: &mut Frame<'_>,
    list_area: Rect,
    app: &App,
    map: &MapView<'_>,
    state: &CourseState,
) {
    let theme = app.theme;
    let lang = app.lang();
    let width = usize::from(list_area.width);
    let next = map.next.as_ref().map(|next| next.at.0);
    let items: Vec<ListItem<'_>> = map
        .lessons
        .iter()
        .enumerate()
        .map(|(index, lesson)| {
            let (complete, count) = (lesson.completed, lesson.exercises.len());
            let all_done = count > 0 && lesson.done;
            let marker = if index == state.selected { "▸" } else { " " };
            let check = if all_done { "✓" } else { " " };
            let counts = format!("{complete}/{count}{check}");
            let next_mark = if next == Some(index) {
                words::COURSE_NEXT_MARK.get(lang)
            } else {
                ""
            };
            let next_width = text::width(words::COURSE_NEXT_MARK.get(lang));
            // No concept codes here: they are for teachers and the curious,
            // and the selected lesson's details name them.
            let fixed = 2 + 4 + 2 + 5 + 1 + next_width + 1;
            let title_width = width.saturating_sub(fixed).max(4);
            let counts_style = if all_done {
                theme.good()
            } else {
                theme.plain()
            };
            ListItem::new(Line::from(vec![
                Span::raw(format!("{marker} ")),
                Span::styled(format!("{:>2}  ", lesson.order), theme.dim()),
                Span::styled(text::fit(lesson.title, title_width), theme.plain()),
                Span::raw("  "),
                Span::styled(format!("{counts:>5}"), counts_style),
                Span::raw(" "),
                Span::styled(next_mark, theme.accent()),
            ]))
        })
        .collect();
    let list = (words::COURSE_LESSONS.get(lang), items);
    render_titled_list(frame, list_area, list, state.selected, theme);
}

/// The selected lesson: its summary, concepts and standing, then its
/// sections and exercises for the rows a tall window has to spare.
fn render_detail(frame: &mut Frame<'_>, detail_area: Rect, app: &App, state: &CourseState) {
    let theme = app.theme;
    let Some(lesson) = app.lesson_view(state.selected) else {
        frame.render_widget(
            Paragraph::new("No lessons.").block(section(Line::default(), theme)),
            detail_area,
        );
        return;
    };
    let wrap_width = usize::from(detail_area.width.saturating_sub(2)).clamp(1, 96);
    let mut lines = lesson_summary(app, &lesson, wrap_width);
    lines.extend(lesson_contents(app, &lesson, wrap_width));
    // A lesson with practice rounds says which key draws one.
    let practice = lesson.practice.map(|said| format!(" {said} "));
    let room = usize::from(detail_area.width.saturating_sub(6))
        .saturating_sub(practice.as_ref().map_or(0, |p| text::width(p) + 3));
    let mut spans = vec![Span::styled(
        format!(" {} ", text::truncate(lesson.title, room.max(8))),
        theme.title(),
    )];
    if let Some(practice) = practice {
        spans.push(Span::raw("─ "));
        spans.push(Span::styled("r", theme.key()));
        spans.push(Span::styled(practice, theme.accent()));
    }
    let title = Line::from(spans);
    frame.render_widget(
        Paragraph::new(lines)
            .block(section(title, theme).padding(ratatui::widgets::Padding::horizontal(1))),
        detail_area,
    );
}

/// Concepts as `C01 Liveness vs safety · C02 …`.
pub(crate) fn concept_words(concepts: &[ConceptView]) -> String {
    let named: Vec<String> = concepts
        .iter()
        .map(|c| format!("{} {}", c.id, c.name))
        .collect();
    named.join(" · ")
}

/// A lesson's summary, its concepts, and how much of it is done.
fn lesson_summary(app: &App, lesson: &LessonView, wrap_width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    let mut lines: Vec<Line<'static>> =
        text::wrap_styled(lesson.summary, wrap_width, theme.plain(), theme);
    lines.push(Line::default());
    let concepts = concept_words(&lesson.concepts);
    let said = format!("{}{concepts}", words::COURSE_CONCEPTS_LABEL.get(lang));
    for line in text::wrap(&said, wrap_width) {
        lines.push(Line::styled(line, theme.dim()));
    }
    let (complete, count) = (lesson.completed, lesson.exercises.len());
    let (read, sections) = (lesson.sections_read, lesson.sections.len());
    let status = words::lesson_standing(complete, count, read, sections, lang);
    for line in text::wrap(&status, wrap_width) {
        lines.push(Line::styled(line, theme.dim()));
    }
    lines
}

/// What the lesson holds: its sections (✓ read) and exercises (their
/// standing's sign), one line each, after a blank line.
fn lesson_contents(app: &App, lesson: &LessonView, wrap_width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    let sections = lesson.sections.iter().enumerate().map(|(index, found)| {
        let mark = if found.read { "✓" } else { " " };
        // A section is a level, named as the lesson's path names it.
        words::level_line(mark, index + 1, found.title, lang)
    });
    let exercises = lesson.exercises.iter().map(|exercise| {
        format!(
            "{:<3} {} {}",
            exercise.symbol,
            text::fit(exercise.kind_label, 8),
            exercise.title
        )
    });
    std::iter::once(Line::default())
        .chain(
            sections
                .chain(exercises)
                .map(|line| Line::styled(text::truncate(&line, wrap_width), theme.plain())),
        )
        .collect()
}

/// The front door in `width` columns: the problem, the story with its two
/// endings (run by the engine now), and what Enter or `n` does.
pub(crate) fn door_lines(app: &App, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    let width = width.max(1);
    let door = app.session.front_door_view(lang);
    let mut lines: Vec<Line<'static>> = text::wrap(door.problem, width)
        .into_iter()
        .map(|line| Line::styled(line, theme.title()))
        .collect();
    let endings = door.stories.iter().map(|story| {
        format!(
            "{}{}{} {}{}",
            story.title,
            words::LABEL_SEP.get(lang),
            story.symbol,
            story.ending,
            words::FULL_STOP.get(lang)
        )
    });
    // The story, then each ending on its own line.
    let story = words::COURSE_STORY.get(lang);
    for said in std::iter::once(story.to_owned()).chain(endings) {
        lines.extend(
            text::wrap(&said, width)
                .into_iter()
                .map(|line| Line::styled(line, theme.plain())),
        );
    }
    let (key, what) = match door.next {
        Some(next) if door.started => {
            ("n", words::continue_at(next.lesson_order, next.title, lang))
        }
        Some(_) => ("Enter", words::START_LESSON_1.get(lang).to_owned()),
        None => ("", words::COURSE_ALL_SOLVED.get(lang).to_owned()),
    };
    let mut spans = vec![Span::styled("▶ ", theme.accent())];
    if !key.is_empty() {
        spans.push(Span::styled(format!("{key} "), theme.key()));
    }
    spans.push(Span::styled(
        text::truncate(&what, width.saturating_sub(8)),
        theme.accent(),
    ));
    lines.push(Line::from(spans));
    lines
}
