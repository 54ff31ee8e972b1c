//! The space-time diagram in terminal cells. The layout — lanes, columns,
//! tick labels, lease bars, each step's glyph and outcome symbol — is
//! `sim_core::Diagram`, the one the web page draws too; this module maps
//! its columns to cells (`layout::Cells`: even columns, wide enough that
//! every tick label fits over its steps) and draws the part that fits,
//! scrolled to keep the current step in view.
//!
//! The axis labels every tick that holds a step; steps of one tick share
//! their label, drawn `7──` over the group; `⋯` stands for quiet ticks.
//! A lease bar is `━` for the time it has left at the current step and
//! `─` for the time spent, so it visibly runs out as the cursor moves;
//! `┫` is where it ended, `▸` that it runs on past the diagram's edge.
//! The last row is a one-line legend of what this diagram shows.
//!
//! The current step is drawn reversed with a line from worker to resource.
//! A request that travels is a trail from its send to its arrival: a `╲`
//! slope down from the sender's lane, then `╌` along the target's lane to
//! a `→` just before the arrival's symbol (to the edge while it is still in
//! flight), in the cells nothing else uses.
//! Symbols carry every meaning; colour only repeats it.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use sim_core::words::terminal as words;
use sim_core::{Action, ColumnKind, Diagram, Lang, LeaseBar, LeaseEnd, MarkKind, Trace};
use unicode_width::UnicodeWidthChar;

use super::layout::{self, Cells};
use super::text;
use super::theme::Theme;

/// The actions the help overlay's legend explains, one per glyph
/// (`claim_next` shares `C` with `claim`), each glyph from sim-core's one
/// table (`sim_core::action_glyph`), each word `sim_core::action_short`.
pub(crate) const GLYPH_LEGEND: &[Action] = &[
    Action::Claim,
    Action::UpdateClaim,
    Action::Renew,
    Action::Write,
    Action::Finish,
    Action::Fail,
    Action::Cancel,
    Action::Revise,
    Action::Register,
    Action::Check,
    Action::Crash,
    Action::Pause,
    Action::Resume,
    Action::Begin,
    Action::Select,
    Action::SelectForUpdate,
    Action::SelectSkipLocked,
    Action::SelectNowait,
    Action::Commit,
    Action::Rollback,
    Action::Deliver,
];

/// The one-line legend under a timeline: the glyphs, symbols and bars
/// this diagram shows, each with its word, as many as fit in `width`
/// (`… ? more` says the rest is in the help's legend).
pub(crate) fn legend_line(diagram: &Diagram, lang: Lang, width: usize) -> String {
    let mut items: Vec<String> = Vec::new();
    let mut push = |item: String| {
        if !items.contains(&item) {
            items.push(item);
        }
    };
    // Results first, the rarest and most telling before the plain ones:
    // the step line above the pane names the current action in words.
    let order = [
        MarkKind::Hidden,
        MarkKind::Violation,
        MarkKind::Rejected,
        MarkKind::Waiting,
        MarkKind::Duplicate,
        MarkKind::Ok,
        MarkKind::Noop,
    ];
    for mark in order {
        if diagram.steps.iter().any(|s| s.mark == mark) {
            push(format!("{} {}", mark.symbol(), mark.words(lang)));
        }
    }
    for step in &diagram.steps {
        if let Some(action) = Action::ALL
            .iter()
            .find(|a| sim_core::action_glyph(**a) == step.glyph)
        {
            push(format!(
                "{} {}",
                step.glyph,
                sim_core::action_short(*action, lang)
            ));
        }
    }
    if !diagram.leases.is_empty() {
        push(words::TIMELINE_LEASE_LEFT_SPENT.get(lang).to_owned());
    }
    if diagram.leases.iter().any(|l| l.end == LeaseEnd::Beyond) {
        push(words::TIMELINE_RUNS_ON.get(lang).to_owned());
    }
    if diagram.idle.iter().any(|i| !i.crashed) {
        push(words::TIMELINE_PAUSED.get(lang).to_owned());
    }
    if !diagram.flights.is_empty() {
        push(words::TIMELINE_IN_FLIGHT.get(lang).to_owned());
    }
    if diagram.tick_labels.iter().any(|l| l.gap) {
        push(words::TIMELINE_QUIET_TICKS.get(lang).to_owned());
    }
    let mut line = String::new();
    // Where the rest is, when not every item fits: the help's legend.
    let rest = words::TIMELINE_LEGEND_REST.get(lang);
    for (index, item) in items.iter().enumerate() {
        let sep = if line.is_empty() { "" } else { "  " };
        let more = if index + 1 < items.len() {
            text::width(rest) + 1
        } else {
            0
        };
        if text::width(&line) + text::width(sep) + text::width(item) + more > width {
            line += " ";
            line += rest;
            break;
        }
        line += sep;
        line += item;
    }
    line
}

/// The symbol a step shows on its resource's lane. `reveal` shows the
/// oracle's verdict (‼); without it a violation shows its plain outcome.
pub(crate) fn outcome_glyph(trace: &Trace, index: usize, reveal: bool) -> char {
    sim_core::mark_of(trace, index, reveal).map_or(' ', MarkKind::symbol)
}

/// An extra row under the lanes: one symbol per listed step (the marks of
/// a mark exercise, the grade of the last try, the key).
#[derive(Debug, Clone)]
pub(crate) struct ExtraRow {
    pub(crate) label: String,
    pub(crate) cells: Vec<(usize, char, Style)>,
}

/// Draws a [`Diagram`] into an area.
#[derive(Debug)]
pub(crate) struct TimelineWidget<'a> {
    pub(crate) diagram: &'a Diagram,
    pub(crate) cursor: Option<usize>,
    pub(crate) extra: Vec<ExtraRow>,
    pub(crate) theme: Theme,
    /// The language of the legend line.
    pub(crate) lang: Lang,
}

/// The rows of the area: the tick axis, the lanes that fit (scrolled to
/// the current step's actor), the extra rows, then the legend line.
struct Rows {
    axis: usize,
    lane_offset: usize,
    lanes: usize,
    extra: usize,
    legend: usize,
}

impl Rows {
    fn new(diagram: &Diagram, height: usize, extra: usize, cursor: Option<usize>) -> Rows {
        let axis = usize::from(height >= 2);
        // The legend is kept before the extra rows: it explains them too.
        let legend = usize::from(height >= 4);
        let extra = extra.min(height.saturating_sub(axis + legend + 1));
        let count = diagram.lanes.len();
        let lanes = (height - axis - extra - legend).min(count);
        let focus = cursor
            .and_then(|c| diagram.steps.get(c))
            .and_then(|step| step.actor)
            .unwrap_or(0);
        let lane_offset = if count > lanes {
            (focus + 1).saturating_sub(lanes).min(count - lanes)
        } else {
            0
        };
        Rows {
            axis,
            lane_offset,
            lanes,
            extra,
            legend,
        }
    }

    /// The row lane `lane` is drawn in, if it fits.
    fn lane(&self, lane: usize) -> Option<usize> {
        (lane >= self.lane_offset && lane < self.lane_offset + self.lanes)
            .then(|| self.axis + lane - self.lane_offset)
    }

    fn total(&self) -> usize {
        self.axis + self.lanes + self.extra + self.legend
    }
}

/// The visible window of the diagram, cell by cell.
struct Canvas {
    width: usize,
    height: usize,
    offset: usize,
    cells: Vec<(char, Style)>,
    /// Where each diagram column starts.
    columns: Cells,
}

impl Canvas {
    fn index(&self, x: usize, row: usize) -> Option<usize> {
        let col = x.checked_sub(self.offset)?;
        (col < self.width && row < self.height).then_some(row * self.width + col)
    }

    fn get(&self, x: usize, row: usize) -> Option<char> {
        self.index(x, row)
            .and_then(|i| self.cells.get(i))
            .map(|(ch, _)| *ch)
    }

    fn set(&mut self, x: usize, row: usize, ch: char, style: Style) {
        if let Some(i) = self.index(x, row) {
            self.cells[i] = (ch, style);
        }
    }

    fn is_blank(&self, x: usize, row: usize) -> bool {
        self.get(x, row) == Some(' ')
    }

    fn text(&mut self, x: usize, row: usize, text: &str, style: Style) {
        for (i, ch) in text.chars().enumerate() {
            self.set(x + i, row, ch, style);
        }
    }

    /// Writes `text` only if every cell it needs is blank.
    fn text_if_blank(&mut self, x: usize, row: usize, text: &str, style: Style) {
        let count = text.chars().count();
        if (x..x + count).all(|c| self.is_blank(c, row) || self.index(c, row).is_none()) {
            self.text(x, row, text, style);
        }
    }

    /// Copies the canvas into `buf` right of `left` label columns; a wide
    /// symbol takes the cell after it, and is left out where it would not fit.
    fn blit(&self, area: Rect, left: usize, buf: &mut Buffer) {
        for row in 0..self.height {
            let y = area.y + row as u16;
            let mut skip = 0;
            for col in 0..self.width {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let (ch, style) = self.cells[row * self.width + col];
                if ch == ' ' && style == Style::new() {
                    continue;
                }
                let x = area.x + (left + col) as u16;
                let room = self.width - col;
                let wide = ch.width().unwrap_or(1);
                if wide > room {
                    continue;
                }
                if wide == 1 {
                    if let Some(cell) = buf.cell_mut((x, y)) {
                        cell.set_char(ch).set_style(style);
                    }
                } else {
                    buf.set_stringn(x, y, ch.to_string(), room, style);
                }
                skip = wide.saturating_sub(1);
            }
        }
    }
}

/// A lease bar's first cell and the cell after its last: at least one
/// cell wide, even for a lease that expired at once.
fn bar_cells(bar: &LeaseBar, cells: &Cells) -> (usize, usize) {
    let start = cells.x(bar.start_column);
    (start, cells.x(bar.end_column).max(start + 1))
}

impl TimelineWidget<'_> {
    /// Leases on their lanes — spent (`─`) up to the current step, left
    /// (`━`) after it — then the expiry ticks where nothing else is.
    fn draw_leases(&self, canvas: &mut Canvas, rows: &Rows, cursor: Option<usize>) {
        let lease_style = self.theme.accent().add_modifier(Modifier::BOLD);
        let spent_style = self.theme.accent();
        let right = canvas.offset + canvas.width;
        let now = cursor.map_or(0, |c| canvas.columns.x(self.diagram.step_column(c)));
        for bar in &self.diagram.leases {
            let Some(row) = rows.lane(bar.lane) else {
                continue;
            };
            let (start_x, end_x) = bar_cells(bar, &canvas.columns);
            for x in start_x..end_x.min(right) {
                if x < now {
                    canvas.set(x, row, '─', spent_style);
                } else {
                    canvas.set(x, row, '━', lease_style);
                }
            }
            let label = format!("g{}", bar.generation);
            if end_x - start_x > label.chars().count() {
                canvas.text(start_x, row, &label, lease_style);
            }
            // Clipped by the diagram's edge: it runs on, it did not end.
            let cap = if bar.end == LeaseEnd::Beyond {
                '▸'
            } else {
                '┫'
            };
            canvas.set(end_x - 1, row, cap, lease_style);
        }
        for bar in &self.diagram.leases {
            if bar.end == LeaseEnd::Expired
                && let Some(row) = rows.lane(bar.lane)
            {
                let (_, end_x) = bar_cells(bar, &canvas.columns);
                canvas.text_if_blank(end_x, row, &bar.until.to_string(), self.theme.dim());
            }
        }
    }

    /// Pauses (`┄`) and crashes (blank), on the step lanes.
    fn draw_idle(&self, canvas: &mut Canvas, rows: &Rows) {
        let right = canvas.offset + canvas.width;
        for run in &self.diagram.idle {
            let Some(row) = rows.lane(run.lane) else {
                continue;
            };
            let fill = if run.crashed { ' ' } else { '┄' };
            let from = canvas.columns.x(run.from_column).max(canvas.offset);
            for x in from..canvas.columns.x(run.to_column).min(right) {
                canvas.set(x, row, fill, self.theme.dim());
            }
        }
    }

    /// Steps in the window: glyph on the actor's lane, symbol on the
    /// resource's lane; the current one reversed, with a line between.
    fn draw_steps(&self, canvas: &mut Canvas, rows: &Rows, cursor: Option<usize>) {
        let theme = self.theme;
        let first = canvas.columns.column_at(canvas.offset).unwrap_or(0);
        let right = canvas.offset + canvas.width;
        for (column, kind) in self.diagram.columns.iter().enumerate().skip(first) {
            let x = canvas.columns.x(column);
            if x >= right {
                break;
            }
            let ColumnKind::Step { step: index } = kind.kind else {
                continue;
            };
            let Some(step) = self.diagram.steps.get(index) else {
                continue;
            };
            let current = cursor == Some(index);
            let tone = match step.mark {
                MarkKind::Violation => theme.bad(),
                MarkKind::Rejected => theme.warn(),
                MarkKind::Noop | MarkKind::Waiting => theme.dim(),
                MarkKind::Ok | MarkKind::Duplicate | MarkKind::Hidden => theme.plain(),
            };
            let style = if current {
                tone.add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                tone
            };
            if let Some(row) = step.actor.and_then(|lane| rows.lane(lane)) {
                canvas.set(x, row, step.glyph, style);
            }
            if let Some(row) = step.resource.and_then(|lane| rows.lane(lane)) {
                canvas.set(x, row, step.symbol, style);
            }
            if current && let (Some(from), Some(to)) = (step.actor, step.resource) {
                let line = theme.plain().add_modifier(Modifier::BOLD);
                for row in (from.min(to) + 1..from.max(to)).filter_map(|lane| rows.lane(lane)) {
                    match canvas.get(x, row) {
                        Some(' ') => canvas.set(x, row, '│', line),
                        Some('━') => canvas.set(x, row, '╂', line),
                        Some('─') => canvas.set(x, row, '┼', line),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Requests in flight: from the send, down to the target's lane, along
    /// it to the arrival. Only blank cells are used, so every glyph and
    /// symbol stays readable; the trail is bold while its send or arrival
    /// is the current step.
    fn draw_flights(&self, canvas: &mut Canvas, rows: &Rows, cursor: Option<usize>) {
        let right = canvas.offset + canvas.width;
        for flight in &self.diagram.flights {
            let (Some(from), Some(to)) = (flight.from_lane, flight.to_lane) else {
                continue;
            };
            let current =
                cursor.is_some_and(|c| c == flight.send_step || Some(c) == flight.deliver_step);
            let style = if current {
                self.theme.plain().add_modifier(Modifier::BOLD)
            } else {
                self.theme.dim()
            };
            // The arrival's symbol sits at its column's first cell; the
            // arrow ends in the cell before it.
            let arrow_x = canvas.columns.x(flight.to_column).saturating_sub(1);
            let from_x = canvas.columns.x(flight.from_column);
            let mut x = from_x + 1;
            for lane in from.saturating_add(1)..to {
                if x >= arrow_x {
                    break;
                }
                if let Some(row) = rows.lane(lane)
                    && canvas.is_blank(x, row)
                {
                    canvas.set(x, row, '╲', style);
                }
                x += 1;
            }
            let Some(row) = rows.lane(to) else {
                continue;
            };
            for x in x.max(canvas.offset)..arrow_x.min(right) {
                if canvas.is_blank(x, row) {
                    canvas.set(x, row, '╌', style);
                }
            }
            if arrow_x > from_x && canvas.is_blank(arrow_x, row) {
                canvas.set(arrow_x, row, '→', style);
            }
        }
    }

    fn draw_extra(&self, canvas: &mut Canvas, rows: &Rows, cursor: Option<usize>) {
        for (position, extra) in self.extra.iter().take(rows.extra).enumerate() {
            let row = rows.axis + rows.lanes + position;
            for (step, ch, style) in &extra.cells {
                let style = if cursor == Some(*step) {
                    style.add_modifier(Modifier::REVERSED)
                } else {
                    *style
                };
                let x = canvas.columns.x(self.diagram.step_column(*step));
                canvas.set(x, row, *ch, style);
            }
        }
    }

    /// The tick axis: every label (the cells make room for each), a `─`
    /// run over the other steps of its tick, `⋯` over gaps, and arrows
    /// where the diagram goes on out of the window.
    fn draw_axis(&self, canvas: &mut Canvas) {
        let dim = self.theme.dim();
        let (offset, right) = (canvas.offset, canvas.offset + canvas.width);
        for label in &self.diagram.tick_labels {
            let x = canvas.columns.x(label.column);
            if x >= right {
                break;
            }
            if label.gap {
                canvas.set(x, 0, '⋯', dim);
                continue;
            }
            canvas.text(x, 0, &label.text, dim);
            if label.span > 1 {
                let from = x + label.text.chars().count();
                let to = canvas.columns.x(label.column + label.span - 1) + 1;
                for x in from..to {
                    canvas.set(x, 0, '─', dim);
                }
            }
        }
        if offset > 0 {
            canvas.set(offset, 0, '◂', self.theme.plain());
        }
        if right < canvas.columns.width() {
            canvas.set(right - 1, 0, '▸', self.theme.plain());
        }
    }

    /// The labels left of the plot: the axis's, the lanes shown, the extra rows.
    fn draw_labels(&self, area: Rect, rows: &Rows, label_width: usize, buf: &mut Buffer) {
        let theme = self.theme;
        let axis = sim_core::words::shared::AXIS_TICKS.get(self.lang);
        let labels = std::iter::once((axis, theme.dim()))
            .take(rows.axis)
            .chain(
                self.diagram
                    .lanes
                    .iter()
                    .skip(rows.lane_offset)
                    .take(rows.lanes)
                    .map(|l| (l.label.as_str(), theme.title())),
            )
            .chain(
                self.extra
                    .iter()
                    .take(rows.extra)
                    .map(|e| (e.label.as_str(), theme.dim())),
            );
        for (row, (label, style)) in labels.enumerate() {
            let y = area.y + row as u16;
            let shown = text::truncate(label, label_width.saturating_sub(1));
            buf.set_stringn(area.x, y, shown, label_width, style);
        }
        if rows.legend == 1 {
            let y = area.y + (rows.total() - 1) as u16;
            let width = usize::from(area.width);
            let line = legend_line(self.diagram, self.lang, width);
            buf.set_stringn(area.x, y, line, width, theme.dim());
        }
    }
}

impl Widget for TimelineWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.width == 0 || area.height == 0 {
            return;
        }
        let diagram = self.diagram;
        let cursor = self.cursor.filter(|c| *c < diagram.steps.len());
        let rows = Rows::new(diagram, usize::from(area.height), self.extra.len(), cursor);
        let window = layout::window(
            diagram,
            area.width,
            cursor,
            self.extra.iter().map(|e| text::width(&e.label)),
        );
        let mut canvas = Canvas {
            width: window.plot_width,
            height: rows.total() - rows.legend,
            offset: window.offset,
            cells: vec![(' ', Style::new()); window.plot_width * (rows.total() - rows.legend)],
            columns: window.cells,
        };
        self.draw_leases(&mut canvas, &rows, cursor);
        self.draw_idle(&mut canvas, &rows);
        self.draw_steps(&mut canvas, &rows, cursor);
        self.draw_flights(&mut canvas, &rows, cursor);
        self.draw_extra(&mut canvas, &rows, cursor);
        if rows.axis == 1 {
            self.draw_axis(&mut canvas);
        }
        self.draw_labels(area, &rows, window.label_width, buf);
        canvas.blit(area, window.label_width, buf);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use sim_core::{Reveal, Scenario};

    use super::*;

    fn scenario(text: &str) -> (Scenario, Trace) {
        let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
        let trace = sim_core::run(&scenario);
        (scenario, trace)
    }

    fn draw(scenario: &Scenario, trace: &Trace, cursor: usize, width: u16, height: u16) -> String {
        let diagram = Diagram::new(scenario, trace, Lang::En, &Reveal::Everything);
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| {
                frame.render_widget(
                    TimelineWidget {
                        diagram: &diagram,
                        cursor: Some(cursor),
                        extra: Vec::new(),
                        theme: Theme { color: false },
                        lang: Lang::En,
                    },
                    frame.area(),
                );
            })
            .unwrap();
        terminal.backend().to_string()
    }

    const STALE: &str = r#"
        id = "t"
        ttl = 5
        workers = ["A", "B"]
        design = "ttl-lock-only"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "pause" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "A", do = "resume" },
          { at = 7, worker = "A", do = "finish" },
          { at = 8, worker = "B", do = "finish" },
        ]
    "#;

    #[test]
    fn a_violation_is_a_symbol_not_only_a_colour() {
        let (scenario, trace) = scenario(STALE);
        let text = draw(&scenario, &trace, 4, 60, 8);
        assert!(text.contains('‼'), "{text}");
        assert!(text.contains("g1"), "{text}");
        assert!(text.contains('┄'), "the pause is drawn: {text}");
        // A's lease ends where the axis says 5, with its `lease_until` after it.
        let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        let five = lines[0]
            .windows(3)
            .position(|w| w == [' ', '5', ' '])
            .unwrap()
            + 1;
        assert_eq!(lines[1][five], '5', "{text}");
        assert_eq!(lines[1][five - 1], '┫', "{text}");
    }

    #[test]
    fn hidden_results_are_question_marks() {
        let (scenario, trace) = scenario(STALE);
        let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::NotTheseSteps(vec![2]));
        let mut terminal = Terminal::new(TestBackend::new(60, 8)).unwrap();
        terminal
            .draw(|frame| {
                let widget = TimelineWidget {
                    diagram: &diagram,
                    cursor: Some(2),
                    extra: Vec::new(),
                    theme: Theme { color: false },
                    lang: Lang::En,
                };
                frame.render_widget(widget, frame.area());
            })
            .unwrap();
        let text = terminal.backend().to_string();
        assert!(text.contains('?') && !text.contains('‼'), "{text}");
        assert!(
            !text.contains("g2"),
            "B's lease would tell the claim's result: {text}"
        );
    }

    #[test]
    fn long_quiet_runs_collapse() {
        let (scenario, trace) = scenario(
            r#"
            id = "t"
            ttl = 5
            workers = ["A"]
            steps = [
              { at = 0, worker = "A", do = "claim" },
              { at = 900000000, worker = "A", do = "finish" },
            ]
        "#,
        );
        let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
        assert!(Cells::of(&diagram).width() < 40);
        let text = draw(&scenario, &trace, 1, 40, 6);
        assert!(text.contains('⋯'), "{text}");
    }

    #[test]
    fn the_help_legend_explains_every_glyph() {
        let explained: Vec<char> = GLYPH_LEGEND
            .iter()
            .map(|action| sim_core::action_glyph(*action))
            .collect();
        for action in Action::ALL {
            let glyph = sim_core::action_glyph(action);
            assert!(explained.contains(&glyph), "{action:?} ({glyph})");
        }
        let mut unique = explained.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), explained.len(), "one entry per glyph");
    }

    /// Two-digit ticks, and three steps in tick 12.
    const CROWDED: &str = r#"
        id = "t"
        ttl = 5
        workers = ["A", "B"]
        design = "ttl-lock-only"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "pause" },
          { at = 10, worker = "B", do = "claim" },
          { at = 12, worker = "A", do = "resume" },
          { at = 12, worker = "A", do = "write", target = "report" },
          { at = 12, worker = "A", do = "finish" },
          { at = 14, worker = "B", do = "finish" },
        ]
        [[targets]]
        id = "report"
        protect = "none"
    "#;

    #[test]
    fn every_tick_with_a_step_is_labelled_over_its_steps() {
        let (scenario, trace) = scenario(CROWDED);
        let text = draw(&scenario, &trace, 4, 60, 9);
        let lines: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
        // `"` opens each line of the backend's dump; the plot starts after
        // the labels.
        let diagram = Diagram::new(&scenario, &trace, Lang::En, &Reveal::Everything);
        let window = layout::window(&diagram, 60, Some(4), std::iter::empty());
        let cells = &window.cells;
        let axis = &lines[0];
        for step in &diagram.steps {
            let label = diagram
                .tick_labels
                .iter()
                .find(|l| !l.gap && l.text == step.at.to_string())
                .unwrap();
            let x = 1 + window.label_width + cells.x(label.column);
            let shown: String = axis[x..x + label.text.len()].iter().collect();
            assert_eq!(shown, label.text, "{text}");
            // Each step of the tick sits under the label or its `─` run.
            let step_x = 1 + window.label_width + cells.x(step.column);
            assert!(
                step_x == x || axis[step_x] == '─',
                "step at tick {} is under {:?}: {text}",
                step.at,
                axis[step_x]
            );
        }
        assert!(text.contains("12──"), "{text}");
    }

    #[test]
    fn a_clipped_lease_runs_on_and_an_ended_one_stops() {
        let (scenario, trace) = scenario(
            r#"
            id = "t"
            ttl = 50
            workers = ["A", "B"]
            jobs = ["a", "b"]
            steps = [
              { at = 0, worker = "A", do = "claim", job = "a" },
              { at = 1, worker = "B", do = "claim", job = "b" },
              { at = 2, worker = "A", do = "finish", job = "a" },
            ]
        "#,
        );
        let text = draw(&scenario, &trace, 2, 70, 8);
        let lines: Vec<&str> = text.lines().collect();
        let a = lines.iter().find(|l| l.contains("g1")).unwrap();
        let b = lines.iter().rfind(|l| l.contains("g1")).unwrap();
        assert!(
            a.contains('┫') && !a.contains('▸'),
            "A's lease ended: {text}"
        );
        assert!(b.contains('▸') && !b.contains('┫'), "B's runs on: {text}");
        // At the last step, A's lease is all spent; B's is left past it.
        assert!(b.contains('━'), "{text}");
        assert!(text.contains("━ lease left ─ spent  ▸ runs on"), "{text}");
    }

    #[test]
    fn tiny_areas_do_not_panic() {
        let (scenario, trace) = scenario(STALE);
        for (w, h) in [(1, 1), (2, 1), (1, 5), (6, 2), (13, 3)] {
            let _ = draw(&scenario, &trace, 5, w, h);
        }
    }
}
