//! Where things are on the screen: the one layout module that the view
//! draws with and that [`measure`](super::measure) places the view's
//! lines with for `update` and the mouse, so what is clicked or scrolled
//! is what is drawn. Pure functions of the app's size and state and of the
//! sizes of what a screen shows, which its caller passes in: no screen's
//! text is built here (that is the view's, above this module), and no
//! drawing.

use std::sync::Arc;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Block, Borders, Padding};
use sim_core::course::Lesson;
use sim_core::{Diagram, Reveal};

use super::model::{App, ExerciseState, LessonState, SandboxState, Work};
use super::text;
use sim_core::explore::FormKey;

/// Terminal columns per diagram column, at the least: a symbol and a space.
pub(crate) const SLOT: usize = 2;

/// Where each diagram column starts, in terminal columns. Columns are even
/// — `SLOT` wide, or three once a tick needs two digits — and a tick whose
/// label is wider still than its columns widens its last one, so every
/// tick label fits over its steps with a space after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cells {
    /// The start of each column, then the end of the last.
    starts: Vec<usize>,
}

impl Cells {
    pub(crate) fn of(diagram: &Diagram) -> Cells {
        let label_width = |text: &str| text.chars().count() + 1;
        let base = diagram
            .tick_labels
            .iter()
            .filter(|l| !l.gap && l.span == 1)
            .map(|l| label_width(&l.text))
            .max()
            .unwrap_or(SLOT)
            .clamp(SLOT, 3);
        let mut widths = vec![base; diagram.columns.len()];
        for label in diagram.tick_labels.iter().filter(|l| !l.gap) {
            let have = label.span * base;
            let last = label.column + label.span.max(1) - 1;
            if let Some(width) = widths.get_mut(last) {
                *width += label_width(&label.text).saturating_sub(have);
            }
        }
        let mut starts = Vec::with_capacity(widths.len() + 1);
        let mut x = 0;
        starts.push(0);
        for width in widths {
            x += width;
            starts.push(x);
        }
        Cells { starts }
    }

    /// The cells for a plot `plot_width` columns wide: these, spread evenly
    /// to two or three times as wide when the plot has the room, so that a
    /// wide terminal shows a wide timeline rather than empty columns.
    pub(crate) fn fitted(diagram: &Diagram, plot_width: usize) -> Cells {
        let narrow = Cells::of(diagram);
        let spread = (plot_width / narrow.width().max(1)).clamp(1, 3);
        Cells {
            starts: narrow.starts.iter().map(|x| x * spread).collect(),
        }
    }

    /// The first terminal column of diagram column `column` (the width
    /// past the last).
    pub(crate) fn x(&self, column: usize) -> usize {
        let last = self.starts.len() - 1;
        self.starts[column.min(last)]
    }

    /// The diagram's width in terminal columns.
    pub(crate) fn width(&self) -> usize {
        self.x(usize::MAX)
    }

    /// The diagram column terminal column `x` is in.
    pub(crate) fn column_at(&self, x: usize) -> Option<usize> {
        (x < self.width()).then(|| self.starts.partition_point(|&start| start <= x) - 1)
    }
}

/// Rows the full diagram needs: the tick axis, every lane and the legend.
pub(crate) fn diagram_height(diagram: &Diagram) -> usize {
    2 + diagram.lanes.len()
}

/// Where the diagram lands across an area: label columns on the left, then
/// the plot, scrolled by `offset` terminal columns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) label_width: usize,
    pub(crate) plot_width: usize,
    pub(crate) offset: usize,
    /// Where each diagram column is drawn, fitted to the plot.
    pub(crate) cells: Cells,
}

/// The window for an area `width` columns wide, scrolled to keep `cursor`
/// in view; `extra_labels` are the widths of the extra rows' labels.
pub(crate) fn window(
    diagram: &Diagram,
    width: u16,
    cursor: Option<usize>,
    extra_labels: impl Iterator<Item = usize>,
) -> Window {
    let longest = diagram
        .lanes
        .iter()
        .map(|l| text::width(&l.label))
        .chain(extra_labels)
        .chain([4])
        .max()
        .unwrap_or(4);
    let label_width = (longest + 1).clamp(5, 12).min(usize::from(width) / 3);
    let plot_width = usize::from(width) - label_width;
    let cursor = cursor.filter(|c| *c < diagram.steps.len());
    let cells = Cells::fitted(diagram, plot_width);
    let cursor_x = cursor.map_or(0, |c| cells.x(diagram.step_column(c)));
    let full = cells.width();
    let offset = if full <= plot_width {
        0
    } else {
        (cursor_x + SLOT / 2)
            .saturating_sub(plot_width / 2)
            .min(full - plot_width)
    };
    Window {
        label_width,
        plot_width,
        offset,
        cells,
    }
}

/// The step drawn at terminal column `x` of a diagram drawn into `area`
/// (any row of it), if a step is there.
pub(crate) fn step_at(
    diagram: &Diagram,
    area: Rect,
    cursor: Option<usize>,
    extra_labels: impl Iterator<Item = usize>,
    x: u16,
    y: u16,
) -> Option<usize> {
    if !(area.x..area.right()).contains(&x) || !(area.y..area.bottom()).contains(&y) {
        return None;
    }
    let window = window(diagram, area.width, cursor, extra_labels);
    let column = usize::from(x - area.x).checked_sub(window.label_width)?;
    if column >= window.plot_width {
        return None;
    }
    let column = window.cells.column_at(column + window.offset)?;
    match diagram.columns.get(column)?.kind {
        sim_core::ColumnKind::Step { step } => Some(step),
        _ => None,
    }
}

/// Splits `area` into a timeline `wanted` rows high (plus its divider) and
/// the pane below it, which keeps at least `min_detail` rows.
pub(crate) fn split_timeline(area: Rect, wanted: usize, min_detail: u16) -> [Rect; 2] {
    let wanted = u16::try_from(wanted).unwrap_or(u16::MAX).saturating_add(1);
    let room = area
        .height
        .saturating_sub(min_detail)
        .max(area.height.min(3));
    Layout::vertical([Constraint::Length(wanted.min(room)), Constraint::Min(0)]).areas(area)
}

/// The smallest terminal the app draws in; smaller gets a one-line plea.
pub(crate) const MIN_WIDTH: u16 = 24;
pub(crate) const MIN_HEIGHT: u16 = 6;

/// Whether the terminal is too small to draw the app (or click in it).
pub(crate) fn too_small(width: u16, height: u16) -> bool {
    width < MIN_WIDTH || height < MIN_HEIGHT
}

/// The area the screens get: all but the footer row.
pub(crate) fn body_area(app: &App) -> Rect {
    Rect::new(0, 0, app.width, app.height.saturating_sub(1))
}

/// The app's section divider: a block with only its top border. The view
/// styles and titles it; its geometry is here.
pub(crate) fn section_block() -> Block<'static> {
    Block::new().borders(Borders::TOP)
}

/// The inside of a section in `area`.
pub(crate) fn section_inner(area: Rect) -> Rect {
    section_block().inner(area)
}

/// The inside of a section in `area`, with a column of padding each side.
pub(crate) fn padded_section_inner(area: Rect) -> Rect {
    section_block().padding(Padding::horizontal(1)).inner(area)
}

/// `scroll`, moved as little as needed to keep the `focus` line in view.
pub(crate) fn follow(scroll: u16, focus: Option<usize>, rows: u16) -> u16 {
    let Some(focus) = focus.and_then(|f| u16::try_from(f).ok()) else {
        return scroll;
    };
    if focus < scroll {
        focus
    } else if rows > 0 && focus >= scroll.saturating_add(rows) {
        focus - rows + 1
    } else {
        scroll
    }
}

/// `lines` scrolled by `scroll`, clamped so the last line stays on screen.
pub(crate) fn clamp_scroll(scroll: u16, lines: usize, rows: u16) -> u16 {
    let max = lines.saturating_sub(usize::from(rows));
    scroll.min(u16::try_from(max).unwrap_or(u16::MAX))
}

/// The sandbox screen (`fencelab open FILE`): a header row, the timeline,
/// the current step's detail below.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SandboxAreas {
    pub(crate) header: Rect,
    pub(crate) diagram: Rect,
    pub(crate) detail: Rect,
}

/// The sandbox's areas in `body` for a timeline of `diagram`.
pub(crate) fn sandbox(body: Rect, diagram: &Diagram) -> SandboxAreas {
    let [header, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
    let [diagram, detail] = split_timeline(rest, diagram_height(diagram), 5);
    SandboxAreas {
        header,
        diagram,
        detail,
    }
}

/// The sandbox's diagram, as drawn: the whole run, every verdict.
pub(crate) fn sandbox_diagram(app: &App, state: &SandboxState) -> Arc<Diagram> {
    state.timeline.diagram(app.lang(), &Reveal::Everything)
}

/// The step drawn at `(x, y)` on the sandbox's timeline, for a click.
pub(crate) fn sandbox_step_at(app: &App, state: &SandboxState, x: u16, y: u16) -> Option<usize> {
    let diagram = sandbox_diagram(app, state);
    let areas = sandbox(body_area(app), &diagram);
    let inner = section_inner(areas.diagram);
    let cursor = Some(state.timeline.cursor);
    step_at(&diagram, inner, cursor, std::iter::empty(), x, y)
}

/// Whether `(x, y)` is inside `area`.
fn contains(area: Rect, x: u16, y: u16) -> bool {
    (area.x..area.right()).contains(&x) && (area.y..area.bottom()).contains(&y)
}

/// The row of a list drawn in `inner` with a fresh `ListState` (which
/// scrolls just far enough to show the `selected` row at the bottom) that
/// is at `(x, y)`, among `count` rows.
pub(crate) fn list_row_at(
    inner: Rect,
    selected: usize,
    count: usize,
    x: u16,
    y: u16,
) -> Option<usize> {
    if !contains(inner, x, y) {
        return None;
    }
    let offset = (selected + 1).saturating_sub(usize::from(inner.height));
    let row = offset + usize::from(y - inner.y);
    (row < count).then_some(row)
}

/// The course map: the header, the front door (the problem, the story,
/// Start or Continue), the lesson list and the selected lesson's details.
/// The list gets what it needs, leaving the details a few rows.
/// `door_lines` is how many lines the door's text takes at the body's
/// width less its borders.
pub(crate) fn course(app: &App, body: Rect, door_lines: usize) -> [Rect; 4] {
    let rows = body.height.saturating_sub(1);
    // The door never takes more than a third of the window.
    let door = (door_lines as u16).min(rows / 3);
    let rows = rows.saturating_sub(door);
    let wanted = (app.lessons().len() as u16).saturating_add(1);
    let detail_min = 3.min(rows / 2);
    let list_rows = wanted.min(rows.saturating_sub(detail_min)).max(rows.min(3));
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(door),
        Constraint::Length(list_rows),
        Constraint::Min(0),
    ])
    .areas(body)
}

/// The review screen: the header, the list, the "next unfinished" line.
/// The review: header, list, the practice lines (none when the course
/// has no practice rounds), the next unfinished.
pub(crate) fn review(body: Rect, practice_rows: u16) -> [Rect; 4] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(practice_rows),
        Constraint::Length(1),
    ])
    .areas(body)
}

/// The practice lines under the review's list: its standing and the
/// counts per concept, when the course has practice rounds.
pub(crate) fn review_practice_rows(app: &App) -> u16 {
    if app.session.practice_pools().is_empty() {
        0
    } else {
        2
    }
}

/// The review row drawn at `(x, y)`, for a mouse click.
pub(crate) fn review_row_at(app: &App, selected: usize, x: u16, y: u16) -> Option<usize> {
    let [_, list, _, _] = review(body_area(app), review_practice_rows(app));
    let count = app.session.course_order().len();
    list_row_at(section_inner(list), selected, count, x, y)
}

/// Widest text column of the lesson reader: long lines are hard to read.
const TEXT_WIDTH: u16 = 96;

/// The lesson reader: the header, the section, the timeline link row.
pub(crate) fn lesson(body: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(body)
}

/// Where a section's text goes inside `area`: at most [`TEXT_WIDTH`] wide,
/// in the middle of a wider screen (not left against its edge, with the
/// rest of the screen empty beside it).
pub(crate) fn lesson_text(area: Rect) -> Rect {
    let inner = padded_section_inner(area);
    let width = inner.width.min(TEXT_WIDTH);
    Rect {
        x: inner.x + (inner.width - width) / 2,
        width,
        ..inner
    }
}

/// A section page: the section's text, and below it the exercises of its
/// level (`exercises` of them; no room when there are none).
pub(crate) fn lesson_section(area: Rect, exercises: usize) -> [Rect; 2] {
    let rows = if exercises == 0 {
        0
    } else {
        (exercises as u16).saturating_add(1)
    };
    Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(rows.min(area.height.saturating_sub(4))),
    ])
    .areas(area)
}

/// The exercises of section `page`'s level in `lesson`, by index.
pub(crate) fn level_exercises(lesson: &Lesson, page: usize) -> Vec<usize> {
    lesson.levels().get(page).cloned().unwrap_or_default()
}

/// The exercises page: the list and the selected exercise's task.
pub(crate) fn lesson_exercises(area: Rect, exercises: usize) -> [Rect; 2] {
    let rows = (exercises as u16).saturating_add(1);
    Layout::vertical([
        Constraint::Length(rows.min(area.height.saturating_sub(3).max(2))),
        Constraint::Min(0),
    ])
    .areas(area)
}

/// What a click at `(x, y)` hits in the lesson reader: an exercise's row on
/// the exercises page (`Some(Ok(index))`), or a section's timeline link
/// (`Some(Err(()))`).
pub(crate) fn lesson_click_at(
    app: &App,
    state: &LessonState,
    x: u16,
    y: u16,
) -> Option<Result<usize, ()>> {
    let found = app.lessons().get(state.lesson)?;
    let [_, body, link] = lesson(body_area(app));
    if state.page < found.sections.len() {
        let linked = found.sections.get(state.page)?.scenario.is_some();
        if linked && y == link.y && (link.x..link.right()).contains(&x) {
            return Some(Err(()));
        }
        let level = level_exercises(found, state.page);
        let [_, boxed] = lesson_section(body, level.len());
        let selected = level.iter().position(|e| *e == state.exercise).unwrap_or(0);
        let row = list_row_at(section_inner(boxed), selected, level.len(), x, y)?;
        return level.get(row).copied().map(Ok);
    }
    let [list, _] = lesson_exercises(body, found.exercises.len());
    let count = found.exercises.len();
    list_row_at(section_inner(list), state.exercise, count, x, y).map(Ok)
}

/// Rows one page-down moves in the lesson reader.
pub(crate) fn lesson_page_rows(app: &App, state: &LessonState) -> u16 {
    let Some(found) = app.lessons().get(state.lesson) else {
        return 1;
    };
    lesson_text(lesson_text_area(app, found, state.page))
        .height
        .saturating_sub(1)
        .max(1)
}

/// Where section `page`'s text block goes at the current size.
pub(crate) fn lesson_text_area(app: &App, found: &Lesson, page: usize) -> Rect {
    let [_, body, _] = lesson(body_area(app));
    let [text, _] = lesson_section(body, level_exercises(found, page).len());
    text
}

/// The explorer: the header, the settings, the result.
pub(crate) fn explorer(body: Rect) -> [Rect; 3] {
    let setup = u16::try_from(FormKey::ALL.len()).unwrap_or(u16::MAX) + 1;
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(setup),
        Constraint::Min(0),
    ])
    .areas(body)
}

/// The explorer setting drawn at `(x, y)`, for a mouse click.
pub(crate) fn explorer_row_at(app: &App, x: u16, y: u16) -> Option<usize> {
    let [_, setup, _] = explorer(body_area(app));
    let inner = section_inner(setup);
    if !contains(inner, x, y) {
        return None;
    }
    let row = usize::from(y - inner.y);
    (row < FormKey::ALL.len()).then_some(row)
}

/// The rows an exercise's task text may always take; on a taller screen
/// it may take up to half the body, so that every task of the course can
/// be read whole at 80×24 (the panel below scrolls instead).
const PROMPT_ROWS: usize = 5;

/// An exercise screen: header, task, the timeline (for exercises with
/// one), the panel (the current step, hints, solution or editor).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ExerciseAreas {
    pub(crate) header: Rect,
    pub(crate) prompt: Rect,
    pub(crate) timeline: Option<Rect>,
    pub(crate) panel: Rect,
}

/// The exercise screen's areas in `body`. `timeline_rows` is the rows the
/// shown timeline's diagram and extra rows take (`None`: no timeline).
pub(crate) fn exercise(
    app: &App,
    state: &ExerciseState,
    body: Rect,
    timeline_rows: Option<usize>,
) -> ExerciseAreas {
    let text_width = usize::from(body.width.saturating_sub(2)).max(1);
    // Wrapped as the view draws it: the screen's task, its markup resolved.
    let task_lines = text::wrap_styled(
        &state.screen.task,
        text_width,
        ratatui::style::Style::new(),
        app.theme,
    );
    let most = PROMPT_ROWS.max(usize::from(body.height / 2).saturating_sub(1));
    let prompt_lines = task_lines.len().min(most) as u16;
    let [header, prompt, rest] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(prompt_lines + 1),
        Constraint::Min(0),
    ])
    .areas(body);
    // The break editor needs room for its list of steps under the preview
    // (its last line, the keys, repeats the footer's and may scroll away
    // before the timeline's legend line does).
    let min_panel = if matches!(&state.work, Work::Editor(work) if work.kind == sim_core::course::EditorKind::Schedule)
    {
        8
    } else {
        5
    };
    let Some(wanted) = timeline_rows else {
        return ExerciseAreas {
            header,
            prompt,
            timeline: None,
            panel: rest,
        };
    };
    let [timeline, panel] = split_timeline(rest, wanted, min_panel);
    ExerciseAreas {
        header,
        prompt,
        timeline: Some(timeline),
        panel,
    }
}

/// A clickable key label on the footer: columns `from..to` (its key and
/// description) act as `key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FooterHit {
    pub(crate) from: u16,
    pub(crate) to: u16,
    pub(crate) key: &'static str,
}

/// The footer row, after a one-column margin: the answer to the last key
/// (then `pad` blank columns) or the screen's keys, with where each is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Footer {
    pub(crate) status: Option<String>,
    pub(crate) pad: usize,
    pub(crate) keys: Vec<(&'static str, &'static str)>,
    pub(crate) hits: Vec<FooterHit>,
}

/// Columns `keys` take, two apart.
fn keys_width(keys: &[(&str, &str)]) -> usize {
    keys.iter()
        .map(|(k, w)| text::width(k) + 1 + text::width(w))
        .sum::<usize>()
        + 2 * keys.len().saturating_sub(1)
}

/// The footer at `width`: the keys of the screen, as many as fit, always
/// ending in help and quit; or the answer to the last key, right of which
/// help and quit still fit (or nothing, when they do not). `screen_keys`
/// are the screen's keys in order, `tail` help and quit.
pub(crate) fn footer(
    app: &App,
    width: u16,
    screen_keys: Vec<(&'static str, &'static str)>,
    tail: Vec<(&'static str, &'static str)>,
) -> Footer {
    let room = usize::from(width).saturating_sub(1);
    let waiting = app
        .progress_wait
        .then(|| super::saver::waiting_words(app.lang()).to_owned());
    let (status, pad, keys) = if let Some(status) = app.status.as_ref().or(waiting.as_ref()) {
        let tail_width = keys_width(&tail) + 2;
        let shown = text::truncate(status, room.saturating_sub(tail_width).max(room / 2));
        let used = 1 + text::width(&shown);
        if used + tail_width > room {
            return Footer {
                status: Some(shown),
                pad: 0,
                keys: Vec::new(),
                hits: Vec::new(),
            };
        }
        (Some(shown), room - used - tail_width + 2, tail.to_vec())
    } else {
        let mut keys: Vec<(&'static str, &'static str)> = Vec::new();
        for key in screen_keys {
            let mut trial = keys.clone();
            trial.push(key);
            trial.extend(tail.iter().copied());
            if keys_width(&trial) <= room {
                keys.push(key);
            }
        }
        keys.extend(tail.iter().copied());
        (None, 0, keys)
    };
    let mut x = 1 + status.as_deref().map_or(0, text::width) + pad;
    let mut hits = Vec::new();
    for (index, (key, what)) in keys.iter().enumerate() {
        if index > 0 {
            x += 2;
        }
        let end = x + text::width(key) + 1 + text::width(what);
        hits.push(FooterHit {
            from: u16::try_from(x).unwrap_or(u16::MAX),
            to: u16::try_from(end).unwrap_or(u16::MAX),
            key,
        });
        x = end;
    }
    Footer {
        status,
        pad,
        keys,
        hits,
    }
}
