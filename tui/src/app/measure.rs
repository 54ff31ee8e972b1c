//! What the view draws, measured at the current size: the scroll limits
//! `update` keeps to and the hit tests the mouse clicks with. Each builds
//! the view's own lines and areas ([`view`]) and places them with
//! [`layout`], so what is scrolled or clicked is what is drawn. Above the
//! view, so that layout stays below it: layout places what it is given
//! and never builds a screen's text.

use ratatui::layout::Rect;

use super::explorer::ExplorerState;
use super::layout::{
    self, FooterHit, body_area, clamp_scroll, list_row_at, padded_section_inner, section_inner,
};
use super::model::{App, CourseState, ExerciseState, LessonState, SandboxState};
use super::{text, view};

/// The largest scroll of `lines` lines in `inner`, and one page.
fn scroll_and_page(lines: usize, inner: Rect) -> (u16, u16) {
    (
        clamp_scroll(u16::MAX, lines, inner.height),
        inner.height.saturating_sub(1).max(1),
    )
}

/// The sandbox detail pane's largest scroll and one page, at the current
/// size (the pane's text is the view's, measured at the pane's width).
pub(crate) fn sandbox_detail_scroll(app: &App, state: &SandboxState) -> (u16, u16) {
    let areas = layout::sandbox(body_area(app), &layout::sandbox_diagram(app, state));
    let inner = padded_section_inner(areas.detail);
    let width = usize::from(inner.width).max(1);
    let lines = view::sandbox::detail_lines(state, app.lang(), width, app.theme).len();
    scroll_and_page(lines, inner)
}

/// The lesson drawn at `(x, y)` on the course map, for a mouse click.
pub(crate) fn course_row_at(app: &App, state: &CourseState, x: u16, y: u16) -> Option<usize> {
    let [_, _, list, _] = view::course::areas(app, body_area(app));
    list_row_at(
        section_inner(list),
        state.selected,
        app.lessons().len(),
        x,
        y,
    )
}

/// How far the current section can scroll at the current size.
pub(crate) fn lesson_max_scroll(app: &App, state: &LessonState) -> u16 {
    let Some(found) = app.lessons().get(state.lesson) else {
        return 0;
    };
    let inner = layout::lesson_text(layout::lesson_text_area(app, found, state.page));
    let width = usize::from(inner.width).max(1);
    let lines = app
        .lesson_view(state.lesson)
        .and_then(|lesson| {
            let found = lesson.sections.get(state.page)?;
            Some(view::lesson::section_lines(app, found, width).len())
        })
        .unwrap_or(0);
    clamp_scroll(u16::MAX, lines, inner.height)
}

/// The explorer result's largest scroll and one page, at the current size.
pub(crate) fn explorer_result_scroll(app: &App, state: &ExplorerState) -> (u16, u16) {
    let [_, _, result] = layout::explorer(body_area(app));
    let inner = padded_section_inner(result);
    let width = usize::from(inner.width).max(1);
    let lines = view::explorer::result_lines(app, state, width).len();
    scroll_and_page(lines, inner)
}

/// The step drawn at `(x, y)` on an exercise's timeline, for a mouse
/// click: the same areas, diagram and extra rows as the view draws.
pub(crate) fn exercise_step_at(app: &App, state: &ExerciseState, x: u16, y: u16) -> Option<usize> {
    let timeline = state.shown_timeline()?;
    let area = view::exercise::areas(app, state, body_area(app)).timeline?;
    let labels: Vec<usize> = view::exercise::extra_rows(app, state)
        .iter()
        .map(|row| text::width(&row.label))
        .collect();
    let diagram = view::exercise::shown_diagram(app, state, timeline);
    let cursor = Some(timeline.cursor);
    layout::step_at(
        &diagram,
        section_inner(area),
        cursor,
        labels.into_iter(),
        x,
        y,
    )
}

/// The exercise panel's largest scroll and one page, at the current size.
pub(crate) fn exercise_panel_scroll(app: &App, state: &ExerciseState) -> (u16, u16) {
    let inner = padded_section_inner(view::exercise::areas(app, state, body_area(app)).panel);
    let width = usize::from(inner.width).max(1);
    let lines = view::exercise::panel_lines(app, state, width).lines.len();
    scroll_and_page(lines, inner)
}

/// The exercise panel's scroll moved as little as needed to show its
/// focused line (a knob, a step, an option), within bounds.
pub(crate) fn exercise_panel_follow(app: &App, state: &ExerciseState) -> u16 {
    let inner = padded_section_inner(view::exercise::areas(app, state, body_area(app)).panel);
    let width = usize::from(inner.width).max(1);
    let panel = view::exercise::panel_lines(app, state, width);
    let scroll = layout::follow(state.panel_scroll, panel.focus, inner.height);
    clamp_scroll(scroll, panel.lines.len(), inner.height)
}

/// Where the footer's keys are, at the current size.
pub(crate) fn footer_hits(app: &App) -> Vec<FooterHit> {
    view::footer(app, app.width).hits
}

/// The largest help scroll at the current size (the overlay's text is the
/// view's, measured at the overlay's width).
pub(crate) fn help_scroll_max(app: &App) -> u16 {
    let body = body_area(app);
    let (_, lines) = view::help_lines(app, body);
    clamp_scroll(u16::MAX, lines.len(), body.height.saturating_sub(2))
}
