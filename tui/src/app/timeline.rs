//! The space-time diagram: a lane per worker (its lease above its steps),
//! a lane for the user's cancels, one for the job table and one per remote
//! target; time runs left to right with tick labels.
//!
//! Every step is a glyph on its actor's lane (`C` claim, `W` write, …) and
//! an outcome symbol on the lane of the resource it reached, in the same
//! column (✓ took effect, ✗ rejected, ↺ duplicate, ⌛ waiting, · nothing,
//! ‼ a violation). The current step is drawn reversed with a line from
//! worker to resource. Symbols carry every meaning; colour only repeats it.
//!
//! [`Diagram`] is the layout, computed once per scenario; [`TimelineWidget`]
//! draws the part of it that fits, scrolled to keep the current step in view.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use sim_core::{Action, JobIdx, Outcome, Scenario, Trace, WorkerIdx};
use unicode_width::UnicodeWidthChar;

use super::text;
use super::theme::Theme;

/// Columns per step (the widest symbol, ⌛, takes two).
const SLOT: usize = 2;
/// Runs of more empty ticks than this collapse into one `⋯` column.
const MAX_EMPTY_RUN: u64 = 3;
/// Lease ends further than this past the last step are not given columns.
const LEASE_END_SLACK: u64 = 4;

#[derive(Debug, Clone)]
pub(crate) struct Lane {
    pub(crate) label: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColumnKind {
    Step(usize),
    /// A tick with no step.
    Empty,
    /// Ticks `tick..=to` with nothing happening, drawn as one `⋯`.
    Gap {
        to: u64,
    },
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Column {
    pub(crate) x: usize,
    pub(crate) tick: u64,
    pub(crate) kind: ColumnKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LeaseEnd {
    /// `lease_until` passed.
    Expired,
    /// The job was finished, failed or cancelled.
    Ended,
    /// A newer claim took the row.
    Replaced,
    /// Still running when the diagram ends.
    Beyond,
}

#[derive(Debug, Clone)]
pub(crate) struct LeaseBar {
    pub(crate) worker: WorkerIdx,
    pub(crate) job: JobIdx,
    pub(crate) generation: u32,
    pub(crate) start_x: usize,
    pub(crate) end_x: usize,
    pub(crate) until: i64,
    pub(crate) end: LeaseEnd,
}

/// A worker that is paused (or crashed) between two columns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Idle {
    pub(crate) worker: WorkerIdx,
    pub(crate) from_x: usize,
    pub(crate) to_x: usize,
    pub(crate) crashed: bool,
}

/// The layout of one scenario's timeline, in diagram columns.
#[derive(Debug, Clone)]
pub(crate) struct Diagram {
    pub(crate) lanes: Vec<Lane>,
    pub(crate) columns: Vec<Column>,
    /// Per step: its index in `columns`.
    step_column: Vec<usize>,
    pub(crate) width: usize,
    pub(crate) leases: Vec<LeaseBar>,
    pub(crate) idle: Vec<Idle>,
    /// Per worker: its lease rows, one per job it was granted.
    lease_lane: Vec<Vec<(JobIdx, usize)>>,
    step_lane: Vec<usize>,
    user_lane: Option<usize>,
    jobs_lane: usize,
    target_lane: Vec<usize>,
}

/// The letter a step shows on its actor's lane.
pub(crate) fn action_glyph(action: Action) -> char {
    match action {
        Action::Claim | Action::ClaimNext => 'C',
        Action::UpdateClaim => 'U',
        Action::Renew => 'R',
        Action::Write => 'W',
        Action::Finish => 'F',
        Action::Fail => 'E',
        Action::Cancel => 'K',
        Action::Register => 'G',
        Action::Check => '?',
        Action::Crash => 'X',
        Action::Pause => 'Z',
        Action::Resume => '>',
        Action::Begin => 'B',
        Action::Select => 'S',
        Action::SelectForUpdate => 'L',
        Action::SelectSkipLocked => 'Q',
        Action::Commit => 'M',
        Action::Rollback => '<',
    }
}

/// The legend of [`action_glyph`], for the help overlay.
pub(crate) const GLYPH_LEGEND: &[(&str, &str)] = &[
    ("C", "claim"),
    ("U", "update_claim"),
    ("R", "renew"),
    ("W", "write"),
    ("F", "finish"),
    ("E", "fail"),
    ("K", "cancel"),
    ("G", "register"),
    ("?", "check"),
    ("X", "crash"),
    ("Z", "pause"),
    (">", "resume"),
    ("B", "begin"),
    ("S", "select"),
    ("L", "select for update"),
    ("Q", "skip locked"),
    ("M", "commit"),
    ("<", "rollback"),
];

/// The symbol a step shows on its resource's lane. `reveal` shows the
/// oracle's verdict (‼); without it a violation shows its plain outcome.
pub(crate) fn outcome_glyph(trace: &Trace, index: usize, reveal: bool) -> char {
    let Some(record) = trace.steps.get(index) else {
        return ' ';
    };
    if reveal && trace.is_violation(index as u32) {
        return '‼';
    }
    match record.outcome {
        Outcome::Ok => '✓',
        Outcome::Rejected => '✗',
        Outcome::Duplicate => '↺',
        Outcome::Noop => '·',
        Outcome::Waiting => '⌛',
    }
}

impl Diagram {
    pub(crate) fn new(scenario: &Scenario, trace: &Trace) -> Diagram {
        Diagram::hiding(scenario, trace, &[])
    }

    /// The diagram without what the `hidden` steps' results would give
    /// away: the leases they granted, and their ending one early (as the
    /// web page's predict timeline).
    pub(crate) fn hiding(scenario: &Scenario, trace: &Trace, hidden: &[u32]) -> Diagram {
        let is_hidden = |step: usize| hidden.contains(&(step as u32));
        let mut spans = sim_core::leases(scenario, trace);
        spans.retain(|span| !is_hidden(span.start_step));
        for span in &mut spans {
            if span.closed.is_some_and(|(step, _)| is_hidden(step)) {
                span.closed = None;
            }
        }
        let multi_job = scenario.jobs.len() > 1;
        // Lanes: workers (a lease row per job they hold, then their steps),
        // the user, the job table, the targets.
        let mut lanes = Vec::new();
        let mut lease_lane: Vec<Vec<(JobIdx, usize)>> = Vec::new();
        let mut step_lane = Vec::new();
        for (index, worker) in scenario.workers.iter().enumerate() {
            let mut jobs: Vec<JobIdx> = Vec::new();
            for span in spans.iter().filter(|s| usize::from(s.worker) == index) {
                if !jobs.contains(&span.job) {
                    jobs.push(span.job);
                }
            }
            let labelled = multi_job && !jobs.is_empty();
            if !labelled {
                jobs = vec![0];
            }
            let mut rows = Vec::new();
            for job in jobs {
                rows.push((job, lanes.len()));
                lanes.push(Lane {
                    label: if labelled {
                        format!(" {}", scenario.job_id(job))
                    } else {
                        String::new()
                    },
                });
            }
            lease_lane.push(rows);
            step_lane.push(lanes.len());
            lanes.push(Lane {
                label: worker.id.clone(),
            });
        }
        let user_lane = scenario.steps.iter().any(|s| s.worker.is_none()).then(|| {
            lanes.push(Lane {
                label: "user".to_owned(),
            });
            lanes.len() - 1
        });
        let jobs_lane = lanes.len();
        lanes.push(Lane {
            label: if scenario.jobs.len() == 1 {
                format!("job {}", scenario.jobs[0])
            } else {
                "jobs".to_owned()
            },
        });
        let mut target_lane = Vec::new();
        for target in &scenario.targets {
            target_lane.push(lanes.len());
            lanes.push(Lane {
                label: target.id.clone(),
            });
        }

        let last_at = scenario.steps.last().map_or(0, |s| s.at);
        let mut ticks: Vec<u64> = vec![0, last_at.saturating_add(1)];
        ticks.extend(scenario.steps.iter().map(|s| s.at));
        for span in &spans {
            // A lease that ended before it expired needs no column for its expiry.
            let ended_first = span
                .closed
                .and_then(|(step, _)| scenario.steps.get(step))
                .is_some_and(|step| (step.at as i64) < span.expiry);
            if let Ok(expiry) = u64::try_from(span.expiry)
                && expiry <= last_at.saturating_add(LEASE_END_SLACK)
                && !ended_first
            {
                ticks.push(expiry);
            }
        }
        ticks.sort_unstable();
        ticks.dedup();

        // Columns: one per step, one per empty tick, one per long quiet run.
        let mut columns = Vec::with_capacity(scenario.steps.len() + ticks.len());
        let mut step_column = vec![0; scenario.steps.len()];
        let mut x = 0;
        let mut next_step = 0;
        for (position, &tick) in ticks.iter().enumerate() {
            let before = columns.len();
            while let Some(step) = scenario.steps.get(next_step)
                && step.at == tick
            {
                step_column[next_step] = columns.len();
                columns.push(Column {
                    x,
                    tick,
                    kind: ColumnKind::Step(next_step),
                });
                x += SLOT;
                next_step += 1;
            }
            if columns.len() == before {
                columns.push(Column {
                    x,
                    tick,
                    kind: ColumnKind::Empty,
                });
                x += SLOT;
            }
            if let Some(&following) = ticks.get(position + 1) {
                let quiet = following - tick - 1;
                if quiet > MAX_EMPTY_RUN {
                    columns.push(Column {
                        x,
                        tick: tick + 1,
                        kind: ColumnKind::Gap { to: following - 1 },
                    });
                    x += SLOT;
                } else {
                    for empty in tick + 1..following {
                        columns.push(Column {
                            x,
                            tick: empty,
                            kind: ColumnKind::Empty,
                        });
                        x += SLOT;
                    }
                }
            }
        }
        let width = x;

        let mut diagram = Diagram {
            lanes,
            columns,
            step_column,
            width,
            leases: Vec::new(),
            idle: Vec::new(),
            lease_lane,
            step_lane,
            user_lane,
            jobs_lane,
            target_lane,
        };
        diagram.leases = spans
            .iter()
            .map(|span| diagram.lease_bar(span, scenario.steps.len()))
            .collect();
        diagram.idle = diagram.idle_runs(scenario);
        diagram
    }

    fn lease_bar(&self, span: &sim_core::Lease, step_count: usize) -> LeaseBar {
        let start_x = self.step_x(span.start_step);
        let expiry_x = u64::try_from(span.expiry)
            .ok()
            .map_or(start_x + 1, |tick| self.x_of_tick(tick))
            .max(start_x + 1);
        let close = span.closed.map(|(step, close)| {
            let end = match close {
                sim_core::LeaseClose::Ended => LeaseEnd::Ended,
                sim_core::LeaseClose::Replaced => LeaseEnd::Replaced,
            };
            let x = self.step_x(step);
            // A finish ends the lease after its own column; a newer claim at its column.
            let x = if end == LeaseEnd::Ended { x + SLOT } else { x };
            (x.max(start_x + 1), end)
        });
        let (end_x, end) = match close {
            Some((x, end)) if x < expiry_x => (x, end),
            _ if expiry_x >= self.width && step_count > 0 => (self.width, LeaseEnd::Beyond),
            _ => (expiry_x, LeaseEnd::Expired),
        };
        LeaseBar {
            worker: span.worker,
            job: span.job,
            generation: span.generation,
            start_x,
            end_x,
            until: span.until,
            end,
        }
    }

    fn idle_runs(&self, scenario: &Scenario) -> Vec<Idle> {
        let mut runs = Vec::new();
        let mut since: Vec<Option<(usize, bool)>> = vec![None; scenario.workers.len()];
        for (index, step) in scenario.steps.iter().enumerate() {
            let Some(worker) = step.worker else { continue };
            let Some(slot) = since.get_mut(usize::from(worker)) else {
                continue;
            };
            let x = self.step_x(index);
            match step.action {
                Action::Pause if slot.is_none() => *slot = Some((x + SLOT, false)),
                Action::Crash => {
                    if let Some((from_x, crashed)) = slot.take() {
                        runs.push(Idle {
                            worker,
                            from_x,
                            to_x: x,
                            crashed,
                        });
                    }
                    *slot = Some((x + SLOT, true));
                }
                Action::Resume => {
                    if let Some((from_x, crashed)) = slot.take() {
                        runs.push(Idle {
                            worker,
                            from_x,
                            to_x: x,
                            crashed,
                        });
                    }
                }
                _ => {}
            }
        }
        for (worker, slot) in since.into_iter().enumerate() {
            if let Some((from_x, crashed)) = slot {
                runs.push(Idle {
                    worker: worker as WorkerIdx,
                    from_x,
                    to_x: self.width,
                    crashed,
                });
            }
        }
        runs
    }

    /// The lane `worker`'s lease of `job` is drawn on.
    fn lease_lane_of(&self, worker: WorkerIdx, job: JobIdx) -> Option<usize> {
        let rows = self.lease_lane.get(usize::from(worker))?;
        rows.iter()
            .find(|(j, _)| *j == job)
            .or(rows.first())
            .map(|(_, lane)| *lane)
    }

    /// The first column of step `index`.
    pub(crate) fn step_x(&self, index: usize) -> usize {
        self.step_column
            .get(index)
            .and_then(|c| self.columns.get(*c))
            .map_or(0, |c| c.x)
    }

    /// The first column at or after true time `tick`.
    fn x_of_tick(&self, tick: u64) -> usize {
        let found = self.columns.partition_point(|column| match column.kind {
            ColumnKind::Gap { to } => to < tick,
            _ => column.tick < tick,
        });
        self.columns.get(found).map_or(self.width, |c| c.x)
    }

    /// Rows the full diagram needs: the tick axis and every lane.
    pub(crate) fn height(&self) -> usize {
        1 + self.lanes.len()
    }

    /// The lane a step is drawn on (its worker, or the user).
    fn actor_lane(&self, scenario: &Scenario, index: usize) -> Option<usize> {
        let step = scenario.steps.get(index)?;
        match step.worker {
            Some(worker) => self.step_lane.get(usize::from(worker)).copied(),
            None => self.user_lane,
        }
    }

    /// The lane of the resource the step reached, if it reached one.
    fn resource_lane(&self, scenario: &Scenario, index: usize) -> Option<usize> {
        let step = scenario.steps.get(index)?;
        match step.action {
            Action::Pause | Action::Resume | Action::Crash => None,
            Action::Write | Action::Register => step
                .target
                .and_then(|t| self.target_lane.get(usize::from(t)).copied()),
            _ => Some(self.jobs_lane),
        }
    }
}

/// Where the diagram lands across an area: label columns on the left, then
/// the plot, scrolled by `offset` diagram columns. The widget draws with it
/// and mouse clicks are hit-tested with it, so the two always agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) label_width: usize,
    pub(crate) plot_width: usize,
    pub(crate) offset: usize,
}

impl Diagram {
    /// The window for an area `width` columns wide, scrolled to keep
    /// `cursor` in view; `extra_labels` are the widths of the extra rows' labels.
    pub(crate) fn window(
        &self,
        width: u16,
        cursor: Option<usize>,
        extra_labels: impl Iterator<Item = usize>,
    ) -> Window {
        let longest = self
            .lanes
            .iter()
            .map(|l| text::width(&l.label))
            .chain(extra_labels)
            .chain([4])
            .max()
            .unwrap_or(4);
        let label_width = (longest + 1).clamp(5, 12).min(usize::from(width) / 3);
        let plot_width = usize::from(width) - label_width;
        let cursor = cursor.filter(|c| *c < self.step_column.len());
        let cursor_x = cursor.map_or(0, |c| self.step_x(c));
        let offset = if self.width <= plot_width {
            0
        } else {
            (cursor_x + SLOT / 2)
                .saturating_sub(plot_width / 2)
                .min(self.width - plot_width)
        };
        Window {
            label_width,
            plot_width,
            offset,
        }
    }

    /// The step drawn at terminal column `x` of a timeline drawn into
    /// `area` (any row of it), if a step is there.
    pub(crate) fn step_at(
        &self,
        area: Rect,
        cursor: Option<usize>,
        extra_labels: impl Iterator<Item = usize>,
        x: u16,
        y: u16,
    ) -> Option<usize> {
        if !(area.x..area.right()).contains(&x) || !(area.y..area.bottom()).contains(&y) {
            return None;
        }
        let window = self.window(area.width, cursor, extra_labels);
        let column = usize::from(x - area.x).checked_sub(window.label_width)?;
        if column >= window.plot_width {
            return None;
        }
        let plot_x = column + window.offset;
        self.columns.iter().find_map(|c| match c.kind {
            ColumnKind::Step(index) if (c.x..c.x + SLOT).contains(&plot_x) => Some(index),
            _ => None,
        })
    }
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
    pub(crate) scenario: &'a Scenario,
    pub(crate) trace: &'a Trace,
    pub(crate) cursor: Option<usize>,
    /// Show the oracle's verdicts (‼). Off in an exercise until it is solved.
    pub(crate) reveal: bool,
    /// Steps whose outcome is drawn as `?`: those a predict exercise asks about.
    pub(crate) hide: &'a [u32],
    pub(crate) extra: Vec<ExtraRow>,
    pub(crate) theme: Theme,
}

/// The visible window of the diagram, cell by cell.
struct Canvas {
    width: usize,
    height: usize,
    offset: usize,
    cells: Vec<(char, Style)>,
}

impl Canvas {
    fn index(&self, x: usize, row: usize) -> Option<usize> {
        let col = x.checked_sub(self.offset)?;
        (col < self.width && row < self.height).then_some(row * self.width + col)
    }

    fn set(&mut self, x: usize, row: usize, ch: char, style: Style) {
        if let Some(i) = self.index(x, row) {
            self.cells[i] = (ch, style);
        }
    }

    fn is_blank(&self, x: usize, row: usize) -> bool {
        self.index(x, row)
            .and_then(|i| self.cells.get(i))
            .is_some_and(|(ch, _)| *ch == ' ')
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
}

impl Widget for TimelineWidget<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.width == 0 || area.height == 0 {
            return;
        }
        let d = self.diagram;
        let theme = self.theme;

        // Rows: the axis, then the lanes that fit, then the extra rows.
        let height = usize::from(area.height);
        let axis_rows = usize::from(height >= 2);
        let extra_rows = self.extra.len().min(height.saturating_sub(axis_rows + 1));
        let lane_rows = (height - axis_rows - extra_rows).min(d.lanes.len());
        let cursor = self.cursor.filter(|c| *c < self.scenario.steps.len());
        let focus_lane = cursor
            .and_then(|c| d.actor_lane(self.scenario, c))
            .unwrap_or(0);
        let lane_offset = if d.lanes.len() > lane_rows {
            (focus_lane + 1)
                .saturating_sub(lane_rows)
                .min(d.lanes.len() - lane_rows)
        } else {
            0
        };
        let lane_row = |lane: usize| -> Option<usize> {
            (lane >= lane_offset && lane < lane_offset + lane_rows)
                .then(|| axis_rows + lane - lane_offset)
        };
        let rows = axis_rows + lane_rows + extra_rows;

        // Columns: labels on the left, the plot scrolled to the cursor.
        let Window {
            label_width,
            plot_width,
            offset,
        } = d.window(
            area.width,
            cursor,
            self.extra.iter().map(|e| text::width(&e.label)),
        );
        let mut canvas = Canvas {
            width: plot_width,
            height: rows,
            offset,
            cells: vec![(' ', Style::new()); plot_width * rows],
        };

        // Leases, on each worker's lease lane.
        let lease_style = theme.accent().add_modifier(Modifier::BOLD);
        for bar in &d.leases {
            let Some(row) = d.lease_lane_of(bar.worker, bar.job).and_then(lane_row) else {
                continue;
            };
            for x in bar.start_x..bar.end_x.min(offset + plot_width) {
                canvas.set(x, row, '━', lease_style);
            }
            let label = format!("g{}", bar.generation);
            if bar.end_x - bar.start_x > label.chars().count() {
                canvas.text(bar.start_x, row, &label, lease_style);
            }
            if bar.end != LeaseEnd::Beyond {
                canvas.set(bar.end_x - 1, row, '┫', lease_style);
            }
        }
        // Expiry ticks after the bars, only where nothing else is drawn.
        for bar in &d.leases {
            if bar.end == LeaseEnd::Expired
                && let Some(row) = d.lease_lane_of(bar.worker, bar.job).and_then(lane_row)
            {
                canvas.text_if_blank(bar.end_x, row, &bar.until.to_string(), theme.dim());
            }
        }
        // Pauses and crashes, on the step lanes.
        for run in &d.idle {
            let Some(row) = d
                .step_lane
                .get(usize::from(run.worker))
                .and_then(|l| lane_row(*l))
            else {
                continue;
            };
            let fill = if run.crashed { ' ' } else { '┄' };
            for x in run.from_x.max(offset)..run.to_x.min(offset + plot_width) {
                canvas.set(x, row, fill, theme.dim());
            }
        }

        // Steps: glyph on the actor's lane, outcome on the resource's lane.
        let first = d.columns.partition_point(|c| c.x + SLOT <= offset);
        for column in d.columns.iter().skip(first) {
            if column.x >= offset + plot_width {
                break;
            }
            let ColumnKind::Step(index) = column.kind else {
                continue;
            };
            let current = cursor == Some(index);
            let record = self.trace.steps.get(index);
            let hidden = self.hide.contains(&(index as u32));
            let violation = self.reveal && self.trace.is_violation(index as u32);
            let tone = match record.map(|r| r.outcome) {
                _ if hidden => theme.plain(),
                _ if violation => theme.bad(),
                Some(Outcome::Rejected) => theme.warn(),
                Some(Outcome::Noop | Outcome::Waiting) => theme.dim(),
                _ => theme.plain(),
            };
            let style = if current {
                tone.add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                tone
            };
            let actor = d.actor_lane(self.scenario, index).and_then(lane_row);
            let resource = d.resource_lane(self.scenario, index);
            if let Some(step) = self.scenario.steps.get(index)
                && let Some(row) = actor
            {
                canvas.set(column.x, row, action_glyph(step.action), style);
            }
            if let Some(row) = resource.and_then(lane_row) {
                let glyph = if hidden {
                    '?'
                } else {
                    outcome_glyph(self.trace, index, self.reveal)
                };
                canvas.set(column.x, row, glyph, style);
            }
            // The current step: a line from its actor down to its resource.
            if current
                && let (Some(from), Some(to)) = (d.actor_lane(self.scenario, index), resource)
            {
                let line = theme.plain().add_modifier(Modifier::BOLD);
                for lane in (from.min(to) + 1)..from.max(to) {
                    if let Some(row) = lane_row(lane) {
                        if canvas.is_blank(column.x, row) {
                            canvas.set(column.x, row, '│', line);
                        } else if canvas
                            .index(column.x, row)
                            .and_then(|i| canvas.cells.get(i))
                            .is_some_and(|(ch, _)| *ch == '━')
                        {
                            canvas.set(column.x, row, '╂', line);
                        }
                    }
                }
            }
        }

        // Extra rows.
        for (position, extra) in self.extra.iter().take(extra_rows).enumerate() {
            let row = axis_rows + lane_rows + position;
            for (step, ch, style) in &extra.cells {
                let style = if cursor == Some(*step) {
                    style.add_modifier(Modifier::REVERSED)
                } else {
                    *style
                };
                canvas.set(d.step_x(*step), row, *ch, style);
            }
        }

        // The tick axis.
        if axis_rows == 1 {
            let mut free_from = 0;
            let mut previous_tick = None;
            for column in d.columns.iter().skip(first.saturating_sub(1)) {
                if column.x >= offset + plot_width {
                    break;
                }
                match column.kind {
                    ColumnKind::Gap { .. } => {
                        canvas.set(column.x, 0, '⋯', theme.dim());
                        free_from = column.x + 2;
                    }
                    _ if previous_tick != Some(column.tick) => {
                        let label = column.tick.to_string();
                        if column.x >= free_from && column.x >= offset {
                            canvas.text(column.x, 0, &label, theme.dim());
                            free_from = column.x + label.len() + 1;
                        }
                    }
                    _ => {}
                }
                previous_tick = Some(column.tick);
            }
            if offset > 0 {
                canvas.set(offset, 0, '◂', theme.plain());
            }
            if offset + plot_width < d.width {
                canvas.set(offset + plot_width - 1, 0, '▸', theme.plain());
            }
        }

        // Blit: labels, then the canvas.
        let labels = std::iter::once(("tick".to_owned(), theme.dim()))
            .take(axis_rows)
            .chain(
                d.lanes
                    .iter()
                    .skip(lane_offset)
                    .take(lane_rows)
                    .map(|l| (l.label.clone(), theme.title())),
            )
            .chain(
                self.extra
                    .iter()
                    .take(extra_rows)
                    .map(|e| (e.label.clone(), theme.dim())),
            );
        for (row, (label, style)) in labels.enumerate() {
            let y = area.y + row as u16;
            let shown = text::truncate(&label, label_width.saturating_sub(1));
            buf.set_stringn(area.x, y, shown, label_width, style);
        }
        for row in 0..rows {
            let y = area.y + row as u16;
            let mut skip = 0;
            for col in 0..plot_width {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let (ch, style) = canvas.cells[row * plot_width + col];
                if ch == ' ' && style == Style::new() {
                    continue;
                }
                let x = area.x + (label_width + col) as u16;
                let room = plot_width - col;
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;

    fn scenario(text: &str) -> (Scenario, Trace) {
        let scenario = sim_core::parse_scenario(text.as_bytes()).unwrap();
        let trace = sim_core::run(&scenario);
        (scenario, trace)
    }

    fn draw(scenario: &Scenario, trace: &Trace, cursor: usize, width: u16, height: u16) -> String {
        let diagram = Diagram::new(scenario, trace);
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| {
                frame.render_widget(
                    TimelineWidget {
                        diagram: &diagram,
                        scenario,
                        trace,
                        cursor: Some(cursor),
                        reveal: true,
                        hide: &[],
                        extra: Vec::new(),
                        theme: Theme { color: false },
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
    fn leases_expire_where_the_axis_says() {
        let (scenario, trace) = scenario(STALE);
        let diagram = Diagram::new(&scenario, &trace);
        let first = &diagram.leases[0];
        assert_eq!(first.generation, 1);
        assert_eq!(first.end, LeaseEnd::Expired);
        assert_eq!(first.until, 5);
        // Ticks 0..=5 each take one slot before the expiry column.
        assert_eq!(first.end_x, diagram.x_of_tick(5));
        let second = &diagram.leases[1];
        assert_eq!(second.generation, 2);
        assert_eq!(
            second.end,
            LeaseEnd::Ended,
            "A's stale finish ended the job"
        );
    }

    #[test]
    fn a_violation_is_a_symbol_not_only_a_colour() {
        let (scenario, trace) = scenario(STALE);
        let text = draw(&scenario, &trace, 4, 60, 8);
        assert!(text.contains('‼'), "{text}");
        assert!(text.contains("g1"), "{text}");
        assert!(text.contains('┄'), "the pause is drawn: {text}");
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
        let diagram = Diagram::new(&scenario, &trace);
        assert!(diagram.width < 40, "{}", diagram.width);
        let text = draw(&scenario, &trace, 1, 40, 6);
        assert!(text.contains('⋯'), "{text}");
    }

    #[test]
    fn tiny_areas_do_not_panic() {
        let (scenario, trace) = scenario(STALE);
        for (w, h) in [(1, 1), (2, 1), (1, 5), (6, 2), (13, 3)] {
            let _ = draw(&scenario, &trace, 5, w, h);
        }
    }
}
