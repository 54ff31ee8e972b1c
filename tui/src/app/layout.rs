//! Where things are on the screen: the one layout module that the view
//! draws with, `update` scrolls with and the mouse hit-tests with, so what
//! is clicked or scrolled is what is drawn. Pure functions of the app's
//! size and state; no drawing here.

use std::sync::Arc;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Block, Borders, Padding};
use sim_core::{Diagram, Reveal};

use super::model::{App, SandboxState};
use super::{text, view};

/// Terminal columns per diagram column (the widest symbol, ⌛, takes two).
pub(crate) const SLOT: usize = 2;

/// The diagram's width in terminal columns.
pub(crate) fn diagram_width(diagram: &Diagram) -> usize {
    diagram.columns.len() * SLOT
}

/// Rows the full diagram needs: the tick axis and every lane.
pub(crate) fn diagram_height(diagram: &Diagram) -> usize {
    1 + diagram.lanes.len()
}

/// Where the diagram lands across an area: label columns on the left, then
/// the plot, scrolled by `offset` terminal columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) label_width: usize,
    pub(crate) plot_width: usize,
    pub(crate) offset: usize,
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
    let cursor_x = cursor.map_or(0, |c| diagram.step_column(c) * SLOT);
    let full = diagram_width(diagram);
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
    match diagram.columns.get((column + window.offset) / SLOT)?.kind {
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
fn sandbox_diagram(app: &App, state: &SandboxState) -> Arc<Diagram> {
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

/// The sandbox detail pane's largest scroll and one page, at the current
/// size (the pane's text is the view's, measured at the pane's width).
pub(crate) fn sandbox_detail_scroll(app: &App, state: &SandboxState) -> (u16, u16) {
    let areas = sandbox(body_area(app), &sandbox_diagram(app, state));
    let inner = padded_section_inner(areas.detail);
    let width = usize::from(inner.width).max(1);
    let lines = view::sandbox::detail_lines(state, app.lang(), width, app.theme).len();
    (
        clamp_scroll(u16::MAX, lines, inner.height),
        inner.height.saturating_sub(1).max(1),
    )
}
