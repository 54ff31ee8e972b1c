//! The space-time diagram of a run, as both front ends draw it: a lane per
//! worker (a lease row above its steps), a lane for the user's cancels, one
//! for the job table and one per remote target; time runs left to right in
//! columns (one per step, one per quiet tick, one `⋯` per long quiet run).
//!
//! Every step is a glyph on its actor's lane (`C` claim, `W` write, …) and
//! an outcome symbol on the lane of the resource it reached, in the same
//! column (✓ took effect, ✗ rejected, ↺ duplicate, · nothing, ◷ waiting,
//! ‼ a violation, `?` hidden). One glyph per meaning, none from an emoji
//! font: `?` is only ever "hidden", and no action is a letter a lane is
//! commonly named (`B` was begin, next to worker B).
//!
//! The tick axis labels every tick that holds a step; steps of one tick
//! share one label that spans their columns (`span`), and a long quiet run
//! is one `⋯` column whose label says which ticks it stands for. The axis
//! is called "tick" in every language, as the lessons call it.
//!
//! A request that travels (a `write` with a `request`, arriving at its
//! `deliver`) is a [`Flight`]: a sloped arrow from the sender's lane at the
//! send's column to the target's lane at the arrival's column, with words
//! for who sent it when, when it arrives, what is checked where, and —
//! only when verdicts show — whether it was listed for reconciliation.
//!
//! Units are abstract — column and lane indices — so the terminal maps them
//! to cells and the page to SVG pixels. A [`Diagram`] is built for one
//! [`Reveal`]: what it hides (verdicts, the results of a predict exercise's
//! steps and the leases they granted) is never computed into it.

use serde::Serialize;

use crate::design::Protect;
use crate::lang::Lang;
use crate::leases::{Lease, LeaseClose, leases};
use crate::narrate::{
    action_word, describe_outcome, describe_pending, describe_step, protect_short, protect_words,
};
use crate::reveal::Reveal;
use crate::scenario::{Action, JobIdx, Scenario, WorkerIdx};
use crate::trace::{Outcome, Reason, Trace};

/// Runs of more quiet ticks than this collapse into one `⋯` column.
pub const MAX_EMPTY_RUN: u64 = 3;
/// Lease expiries further than this past the last step are given no column.
pub const LEASE_END_SLACK: u64 = 4;

/// What a lane holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LaneKind {
    /// A worker's leases (of one job, when it held several).
    Lease,
    /// A worker's steps.
    Worker,
    /// The user's cancels.
    User,
    /// The job table.
    Jobs,
    /// A remote target.
    Target,
}

/// One horizontal lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Lane {
    pub kind: LaneKind,
    /// Its label, in the learner's language (empty for a worker's only
    /// lease row).
    pub label: String,
    /// A second line: a target's protection, in a word or two of the
    /// learner's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sub: Option<&'static str>,
}

/// What a column stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ColumnKind {
    /// One step (steps of the same tick get a column each).
    Step { step: usize },
    /// A tick with no step.
    Quiet,
    /// Ticks `tick..=to` with nothing happening, drawn as one `⋯`.
    Gap { to: u64 },
}

/// One column of the diagram, at true time `tick`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Column {
    pub tick: u64,
    #[serde(flatten)]
    pub kind: ColumnKind,
}

/// A label on the tick axis: the tick where a new one starts, `⋯` over a gap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TickLabel {
    pub column: usize,
    /// The columns it stands over: more than one when several steps share
    /// the tick (the front ends draw the group under one label).
    pub span: usize,
    pub text: String,
    pub gap: bool,
    /// What a gap stands for, in the diagram's language ("ticks 2–8:
    /// nothing happens"); empty for a tick (its span says how many steps).
    pub words: String,
}

/// How a lease bar ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaseEnd {
    /// `lease_until` passed.
    Expired,
    /// The job was finished, failed or cancelled.
    Ended,
    /// A newer claim took the row.
    Replaced,
    /// Still running when the diagram ends: the bar is clipped by the
    /// diagram's right edge, not ended (drawn as running on).
    Beyond,
}

/// A lease as a bar on its worker's lease lane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeaseBar {
    pub lane: usize,
    pub worker: String,
    pub job: String,
    pub generation: u32,
    /// The claim's column.
    pub start_column: usize,
    /// The column boundary where it ends (exclusive; at least
    /// `start_column`, equal only for a lease that expired at once).
    pub end_column: usize,
    /// `lease_until` as written.
    pub until: i64,
    pub end: LeaseEnd,
    /// The bar in words, in the diagram's language (a tooltip, a screen
    /// reader's label).
    pub words: String,
}

/// A worker paused (or crashed) between two column boundaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Idle {
    pub lane: usize,
    pub from_column: usize,
    pub to_column: usize,
    pub crashed: bool,
    /// "crashed" or "paused", in the diagram's language.
    pub words: &'static str,
}

/// The kind of symbol a step shows on its resource's lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkKind {
    Ok,
    Rejected,
    Duplicate,
    Noop,
    Waiting,
    /// The oracle's verdict: it had to be refused (only when verdicts show).
    Violation,
    /// The result is not shown (a predict exercise's question).
    Hidden,
}

impl MarkKind {
    /// Every kind, in the order a legend lists them.
    pub const ALL: [MarkKind; 7] = [
        MarkKind::Ok,
        MarkKind::Rejected,
        MarkKind::Duplicate,
        MarkKind::Waiting,
        MarkKind::Noop,
        MarkKind::Violation,
        MarkKind::Hidden,
    ];

    pub fn of(outcome: Outcome) -> MarkKind {
        match outcome {
            Outcome::Ok => MarkKind::Ok,
            Outcome::Rejected => MarkKind::Rejected,
            Outcome::Duplicate => MarkKind::Duplicate,
            Outcome::Noop => MarkKind::Noop,
            Outcome::Waiting => MarkKind::Waiting,
        }
    }

    /// What the symbol means, in a word or two: the one name of each
    /// outcome in every legend, prediction and table ([`outcome_label`]
    /// says the same).
    pub fn words(self, lang: Lang) -> &'static str {
        match self {
            MarkKind::Ok => lang.pick("took effect", "生效"),
            MarkKind::Rejected => lang.pick("refused", "被拒绝"),
            MarkKind::Duplicate => lang.pick("duplicate", "重复"),
            MarkKind::Noop => lang.pick("changed nothing", "没有改变"),
            MarkKind::Waiting => lang.pick("waiting for a lock", "在等行锁"),
            MarkKind::Violation => lang.pick("violation", "违例"),
            MarkKind::Hidden => lang.pick("predict it", "待预测"),
        }
    }

    /// The symbol that carries the meaning without colour.
    pub fn symbol(self) -> char {
        match self {
            MarkKind::Ok => '✓',
            MarkKind::Rejected => '✗',
            MarkKind::Duplicate => '↺',
            MarkKind::Noop => '·',
            MarkKind::Waiting => '◷',
            MarkKind::Violation => '‼',
            MarkKind::Hidden => '?',
        }
    }
}

/// The job-table row after a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowAfter {
    pub job: String,
    pub owner: Option<String>,
    pub lease_until: Option<i64>,
    pub fence: u64,
    pub state: &'static str,
}

/// One step as the diagram shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepMark {
    pub at: u64,
    pub column: usize,
    /// The letter on the actor's lane, and the action in words.
    pub glyph: char,
    pub word: &'static str,
    /// The lane of the worker (or the user) that took it.
    pub actor: Option<usize>,
    /// The lane of the resource it reached, if it reached one.
    pub resource: Option<usize>,
    pub mark: MarkKind,
    pub symbol: char,
    /// The step in words, as much as may be shown.
    pub narration: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The job-table row after it; absent when its result is hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<RowAfter>,
    /// The SQL statement it stands for, for job-table steps; absent when
    /// its result is hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<crate::sql::StepSqlView>,
}

/// Where a request that travels is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckedAt {
    /// A sending gateway checked the job row when it left; whatever
    /// arrives is accepted.
    Send,
    /// The target checks it when it arrives, by its state then.
    Arrival,
    /// Nowhere: the target has no protection.
    Nowhere,
    /// An approved intent: the commit that approved it was the check; it
    /// leaves when the commit does, and whatever arrives is accepted.
    Commit,
}

/// A request in flight: sent by a `write` with a `request`, arriving at
/// its `deliver` (or still travelling when the diagram ends).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Flight {
    pub request: String,
    /// The `write` that sent it, and its `deliver` (none: still in flight
    /// at the end).
    pub send_step: usize,
    pub deliver_step: Option<usize>,
    /// The step it left at: its `write`, or for an intent the commit that
    /// approved it.
    pub leave_step: usize,
    /// From the sender's lane at the send's column…
    pub from_lane: Option<usize>,
    pub from_column: usize,
    /// …to the target's lane at the arrival's column (the column count
    /// when it never arrives).
    pub to_lane: Option<usize>,
    pub to_column: usize,
    pub checked: CheckedAt,
    /// Whether the run listed it for reconciliation (its job was cancelled
    /// or taken over while it travelled); `None` while verdicts are hidden.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reconcile: Option<bool>,
    /// The flight in words, in the diagram's language.
    pub words: String,
}

/// The layout of one run's diagram (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagram {
    pub lanes: Vec<Lane>,
    pub columns: Vec<Column>,
    pub tick_labels: Vec<TickLabel>,
    pub leases: Vec<LeaseBar>,
    pub idle: Vec<Idle>,
    pub steps: Vec<StepMark>,
    /// Requests that travel, drawn as arrows from send to arrival.
    pub flights: Vec<Flight>,
}

/// The letter a step shows on its actor's lane.
pub fn action_glyph(action: Action) -> char {
    match action {
        Action::Claim | Action::ClaimNext => 'C',
        Action::UpdateClaim => 'U',
        Action::Renew => 'R',
        Action::Write => 'W',
        Action::Finish => 'F',
        Action::Fail => 'E',
        Action::Cancel => 'K',
        Action::Revise => 'V',
        Action::Register => 'G',
        Action::Check => '=',
        Action::Crash => 'X',
        Action::Pause => 'Z',
        Action::Resume => '>',
        Action::Deliver => 'D',
        Action::Begin => '[',
        Action::Select => 'S',
        Action::SelectForUpdate => 'L',
        Action::SelectSkipLocked => 'Q',
        Action::SelectNowait => 'N',
        Action::Commit => ']',
        Action::Rollback => '<',
    }
}

/// The kind of symbol step `index` shows: its outcome, `‼` for a violation
/// when `verdicts` may be shown.
pub fn mark_of(trace: &Trace, index: usize, verdicts: bool) -> Option<MarkKind> {
    let record = trace.steps.get(index)?;
    if verdicts && trace.is_violation(index as u32) {
        return Some(MarkKind::Violation);
    }
    Some(MarkKind::of(record.outcome))
}

/// Step `index` in words, as much as `reveal` lets show: the question of a
/// predict exercise, the outcome without the verdict, or everything.
pub fn narrate_step(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    lang: Lang,
    reveal: &Reveal,
) -> String {
    if !reveal.shows_step(index) {
        describe_pending(scenario, index, lang)
    } else if reveal.shows_verdicts() {
        describe_step(scenario, trace, index, lang)
    } else {
        describe_outcome(scenario, trace, index, lang)
    }
}

/// Where the lanes are: per worker its lease rows and its step lane.
struct Lanes {
    lanes: Vec<Lane>,
    /// Per worker: (job, lane) of its lease rows; the first is the default.
    lease_rows: Vec<Vec<(JobIdx, usize)>>,
    worker: Vec<usize>,
    user: Option<usize>,
    jobs: usize,
    targets: Vec<usize>,
}

impl Lanes {
    fn new(scenario: &Scenario, spans: &[Lease], lang: Lang) -> Lanes {
        let multi_job = scenario.jobs.len() > 1;
        let mut lanes = Vec::new();
        let mut lease_rows = Vec::new();
        let mut worker_lanes = Vec::new();
        for (index, worker) in scenario.workers.iter().enumerate() {
            let mut jobs = Vec::new();
            for span in spans.iter().filter(|s| usize::from(s.worker) == index) {
                if !jobs.contains(&span.job) {
                    jobs.push(span.job);
                }
            }
            // With several jobs, a worker that held leases gets a row per job.
            let labelled = multi_job && !jobs.is_empty();
            if !labelled {
                jobs = vec![0];
            }
            let mut rows = Vec::new();
            for job in jobs {
                rows.push((job, lanes.len()));
                lanes.push(Lane {
                    kind: LaneKind::Lease,
                    label: if labelled {
                        format!(" {}", scenario.job_id(job))
                    } else {
                        String::new()
                    },
                    sub: None,
                });
            }
            lease_rows.push(rows);
            worker_lanes.push(lanes.len());
            lanes.push(Lane {
                kind: LaneKind::Worker,
                label: worker.id.clone(),
                sub: None,
            });
        }
        // A delivery is drawn on its sender's lane, so only the user's own
        // steps (cancels) need a lane of their own.
        let user = scenario
            .steps
            .iter()
            .any(|s| s.worker.is_none() && s.action != Action::Deliver)
            .then(|| {
                lanes.push(Lane {
                    kind: LaneKind::User,
                    label: lang.pick("user", "用户").to_owned(),
                    sub: None,
                });
                lanes.len() - 1
            });
        let jobs = lanes.len();
        let label = match scenario.jobs.as_slice() {
            [only] => format!("{} {only}", lang.pick("job", "任务")),
            _ => lang.pick("jobs", "任务表").to_owned(),
        };
        lanes.push(Lane {
            kind: LaneKind::Jobs,
            label,
            sub: None,
        });
        let mut targets = Vec::new();
        for target in &scenario.targets {
            targets.push(lanes.len());
            lanes.push(Lane {
                kind: LaneKind::Target,
                label: target.id.clone(),
                sub: Some(protect_short(target.protect, lang)),
            });
        }
        Lanes {
            lanes,
            lease_rows,
            worker: worker_lanes,
            user,
            jobs,
            targets,
        }
    }

    /// The lane `worker`'s lease of `job` is drawn on.
    fn lease(&self, worker: WorkerIdx, job: JobIdx) -> Option<usize> {
        let rows = self.lease_rows.get(usize::from(worker))?;
        rows.iter()
            .find(|(j, _)| *j == job)
            .or(rows.first())
            .map(|(_, lane)| *lane)
    }

    /// The lane a step is drawn on (its worker, or the user; a delivery:
    /// its sender).
    fn actor(&self, scenario: &Scenario, index: usize) -> Option<usize> {
        match scenario.acting_worker(index) {
            Some(worker) => self.worker.get(usize::from(worker)).copied(),
            None => self.user,
        }
    }

    /// The lane of the resource the step reached, if it reached one.
    fn resource(&self, scenario: &Scenario, index: usize) -> Option<usize> {
        let step = scenario.steps.get(index)?;
        match step.action {
            Action::Pause | Action::Resume | Action::Crash => None,
            Action::Write | Action::Register => step
                .target
                .and_then(|t| self.targets.get(usize::from(t)).copied()),
            Action::Deliver => scenario
                .sender_of(index)
                .and_then(|sent| sent.target)
                .and_then(|t| self.targets.get(usize::from(t)).copied()),
            _ => Some(self.jobs),
        }
    }
}

/// The ticks that get a column: 0, every step's, the tick after the last
/// step, and lease expiries close enough to the end that did not end first.
fn ticks(scenario: &Scenario, spans: &[Lease]) -> Vec<u64> {
    let last_at = scenario.steps.last().map_or(0, |s| s.at);
    let mut ticks: Vec<u64> = vec![0, last_at.saturating_add(1)];
    ticks.extend(scenario.steps.iter().map(|s| s.at));
    for span in spans {
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
    ticks
}

/// Columns: one per step, one per quiet tick, one `⋯` per long quiet run;
/// and per step, its column.
fn columns(scenario: &Scenario, ticks: &[u64]) -> (Vec<Column>, Vec<usize>) {
    let mut columns = Vec::with_capacity(scenario.steps.len() + ticks.len());
    let mut step_column = vec![0; scenario.steps.len()];
    let mut next_step = 0;
    for (position, &tick) in ticks.iter().enumerate() {
        let before = columns.len();
        while let Some(step) = scenario.steps.get(next_step)
            && step.at == tick
        {
            if let Some(slot) = step_column.get_mut(next_step) {
                *slot = columns.len();
            }
            columns.push(Column {
                tick,
                kind: ColumnKind::Step { step: next_step },
            });
            next_step += 1;
        }
        if columns.len() == before {
            columns.push(Column {
                tick,
                kind: ColumnKind::Quiet,
            });
        }
        if let Some(&following) = ticks.get(position + 1) {
            let quiet = following - tick - 1;
            if quiet > MAX_EMPTY_RUN {
                columns.push(Column {
                    tick: tick + 1,
                    kind: ColumnKind::Gap { to: following - 1 },
                });
            } else {
                columns.extend((tick + 1..following).map(|empty| Column {
                    tick: empty,
                    kind: ColumnKind::Quiet,
                }));
            }
        }
    }
    (columns, step_column)
}

/// The axis labels: one per tick, spanning its columns, `⋯` over a gap.
fn tick_labels(columns: &[Column], lang: Lang) -> Vec<TickLabel> {
    let mut labels: Vec<TickLabel> = Vec::new();
    let mut previous = None;
    for (index, column) in columns.iter().enumerate() {
        match column.kind {
            ColumnKind::Gap { to } => labels.push(TickLabel {
                column: index,
                span: 1,
                text: "⋯".to_owned(),
                gap: true,
                // One `format!` for both languages: every call site is
                // code in the page's wasm, which has a size budget.
                words: format!(
                    "{} {}–{to}{}",
                    lang.pick("ticks", "tick"),
                    column.tick,
                    lang.pick(": nothing happens", "：什么也没发生")
                ),
            }),
            _ if previous == Some(column.tick) => {
                if let Some(label) = labels.last_mut() {
                    label.span += 1;
                }
            }
            _ => labels.push(TickLabel {
                column: index,
                span: 1,
                text: column.tick.to_string(),
                gap: false,
                words: String::new(),
            }),
        }
        previous = match column.kind {
            ColumnKind::Gap { .. } => None,
            _ => Some(column.tick),
        };
    }
    labels
}

/// The first column at or after true time `tick` (the column count past
/// the end).
fn column_of_tick(columns: &[Column], tick: u64) -> usize {
    columns.partition_point(|column| match column.kind {
        ColumnKind::Gap { to } => to < tick,
        _ => column.tick < tick,
    })
}

fn lease_bar(
    scenario: &Scenario,
    span: &Lease,
    lanes: &Lanes,
    columns: &[Column],
    step_column: &[usize],
) -> Option<LeaseBar> {
    let column_of_step = |step: usize| step_column.get(step).copied().unwrap_or(0);
    // A claim that waited for a lock holds its lease from its grant.
    let start = column_of_step(span.granted_step);
    let expiry = u64::try_from(span.expiry).map_or(start, |tick| column_of_tick(columns, tick));
    // A finish ends the lease after its own column; a newer claim at its column.
    let close = span.closed.map(|(step, close)| match close {
        LeaseClose::Ended => (column_of_step(step) + 1, LeaseEnd::Ended),
        LeaseClose::Replaced => (column_of_step(step), LeaseEnd::Replaced),
    });
    let (end_column, end) = match close {
        Some((column, end)) if column < expiry && start < expiry => (column, end),
        _ if expiry >= columns.len() && !scenario.steps.is_empty() => {
            (columns.len(), LeaseEnd::Beyond)
        }
        _ => (expiry, LeaseEnd::Expired),
    };
    Some(LeaseBar {
        lane: lanes.lease(span.worker, span.job)?,
        worker: scenario.worker_id(span.worker).to_owned(),
        job: scenario.job_id(span.job).to_owned(),
        generation: span.generation,
        start_column: start,
        end_column: end_column.max(start),
        until: span.until,
        end,
        words: String::new(),
    })
}

/// A lease bar in words: whose, on which job, which generation, until when
/// and how it ended.
fn lease_words(bar: &LeaseBar, lang: Lang) -> String {
    let (worker, job, generation, until) = (&bar.worker, &bar.job, bar.generation, bar.until);
    let end = match bar.end {
        LeaseEnd::Expired => lang.pick("expired", "已到期"),
        LeaseEnd::Ended => lang.pick("the job ended", "任务已结束"),
        LeaseEnd::Replaced => lang.pick("a newer claim took the job", "被更新的领取取代"),
        LeaseEnd::Beyond => lang.pick("still running at the end", "到最后仍在进行"),
    };
    match lang {
        Lang::En => {
            format!("{worker}: lease on {job}, generation {generation}, until {until} — {end}")
        }
        Lang::Zh => format!("{worker}：任务 {job} 的租约，第 {generation} 代，到 {until} —— {end}"),
    }
}

/// Paused and crashed stretches: from after a pause (or crash) to the
/// resume (or the next crash, or the end).
fn idle_runs(scenario: &Scenario, lanes: &Lanes, step_column: &[usize], width: usize) -> Vec<Idle> {
    let mut runs = Vec::new();
    let mut since: Vec<Option<(usize, bool)>> = vec![None; scenario.workers.len()];
    let mut close = |worker: usize, open: Option<(usize, bool)>, to_column: usize| {
        if let (Some((from_column, crashed)), Some(&lane)) = (open, lanes.worker.get(worker)) {
            runs.push(Idle {
                lane,
                from_column,
                to_column,
                crashed,
                words: "",
            });
        }
    };
    for (index, step) in scenario.steps.iter().enumerate() {
        let Some(worker) = step.worker.map(usize::from) else {
            continue;
        };
        let Some(slot) = since.get_mut(worker) else {
            continue;
        };
        let column = step_column.get(index).copied().unwrap_or(0);
        match step.action {
            Action::Pause if slot.is_none() => *slot = Some((column + 1, false)),
            Action::Crash => {
                close(worker, slot.take(), column);
                *slot = Some((column + 1, true));
            }
            Action::Resume => close(worker, slot.take(), column),
            _ => {}
        }
    }
    for (worker, slot) in since.into_iter().enumerate() {
        close(worker, slot, width);
    }
    runs
}

/// Step `index` as the diagram shows it: its result only if `reveal`
/// shows the step, its verdict only if it shows verdicts.
fn step_mark(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    lang: Lang,
    reveal: &Reveal,
    lanes: &Lanes,
    step_column: &[usize],
) -> Option<StepMark> {
    let step = scenario.steps.get(index)?;
    let shown = reveal.shows_step(index);
    let mark = if shown {
        mark_of(trace, index, reveal.shows_verdicts()).unwrap_or(MarkKind::Noop)
    } else {
        MarkKind::Hidden
    };
    let row = match trace.steps.get(index) {
        Some(record) if shown => record.row.zip(record.job).map(|(row, job)| RowAfter {
            job: scenario.job_id(job).to_owned(),
            owner: row.owner.map(|o| scenario.owner_id(o).to_owned()),
            lease_until: row.lease_until,
            fence: row.fence,
            state: row.state.name(),
        }),
        _ => None,
    };
    Some(StepMark {
        at: step.at,
        column: step_column.get(index).copied().unwrap_or(0),
        glyph: action_glyph(step.action),
        word: action_word(step.action, lang),
        actor: lanes.actor(scenario, index),
        resource: lanes.resource(scenario, index),
        mark,
        symbol: mark.symbol(),
        narration: narrate_step(scenario, trace, index, lang, reveal),
        note: step.note.as_ref().map(|n| n.get(lang).to_owned()),
        row,
        sql: (shown && reveal.shows_sql(step.action))
            .then(|| crate::sql::StepSqlView::of(scenario, trace, index))
            .flatten(),
    })
}

/// The request step `send` sent, as the diagram shows it; none when the
/// step is not a send, was refused at send, or its result is hidden (an
/// arrow would tell that it left).
fn flight(
    scenario: &Scenario,
    trace: &Trace,
    send: usize,
    reveal: &Reveal,
    lanes: &Lanes,
    step_column: &[usize],
    width: usize,
) -> Option<Flight> {
    let step = scenario.steps.get(send)?;
    let record = trace.steps.get(send)?;
    // An intent leaves with the commit that approved it.
    let leaves = match record.reason {
        Some(Reason::Sent) => send,
        Some(Reason::Intent) => record.approved_step? as usize,
        _ => return None,
    };
    if step.action != Action::Write || !reveal.shows_step(leaves) {
        return None;
    }
    let request = scenario.requests.get(step.request? as usize)?.clone();
    let deliver_step = record.request_step.map(|d| d as usize);
    let target = step.target?;
    let protect = scenario.targets.get(usize::from(target))?.protect;
    let checked = match protect {
        Protect::SendingGateway => CheckedAt::Send,
        Protect::ApprovedIntent => CheckedAt::Commit,
        Protect::None => CheckedAt::Nowhere,
        _ => CheckedAt::Arrival,
    };
    let reconcile = reveal
        .shows_verdicts()
        .then(|| trace.reconcile_in_flight.contains(&(send as u32)));
    Some(Flight {
        request,
        send_step: send,
        deliver_step,
        leave_step: leaves,
        from_lane: lanes.actor(scenario, send),
        from_column: step_column.get(leaves).copied().unwrap_or(0),
        to_lane: lanes.targets.get(usize::from(target)).copied(),
        to_column: deliver_step
            .and_then(|d| step_column.get(d).copied())
            .unwrap_or(width),
        checked,
        reconcile,
        words: String::new(),
    })
}

/// A flight in words: who sent it when, when it arrives, what is checked
/// where, and whether it is listed for reconciliation.
fn flight_words(scenario: &Scenario, flight: &Flight, lang: Lang) -> String {
    let who = who_sent(scenario, flight.send_step, lang);
    let id = &flight.request;
    let send = flight.send_step;
    let sent_at = scenario.steps.get(send).map_or(0, |s| s.at);
    let target = scenario
        .steps
        .get(send)
        .and_then(|s| s.target)
        .map_or("", |t| scenario.target_id(t));
    let protection = scenario
        .steps
        .get(send)
        .and_then(|s| s.target)
        .and_then(|t| scenario.targets.get(usize::from(t)))
        .map_or("", |t| protect_words(t.protect, lang));
    let leave = flight.leave_step;
    let left_at = scenario.steps.get(leave).map_or(0, |s| s.at);
    let mut words = match (leave == send, lang) {
        (true, Lang::En) => {
            format!("{who}'s request `{id}` to `{target}` is sent at tick {sent_at} (step {send})")
        }
        (true, Lang::Zh) => {
            format!("{who} 发往 `{target}` 的请求 `{id}` 在 tick {sent_at}（第 {send} 步）发出")
        }
        (false, Lang::En) => format!(
            "{who}'s request `{id}` to `{target}`, recorded as an intent at step {send}, is sent at tick {left_at} (step {leave}, the commit that approved it)"
        ),
        (false, Lang::Zh) => format!(
            "{who} 发往 `{target}` 的请求 `{id}` 在第 {send} 步记为意图，在 tick {left_at}（第 {leave} 步，批准它的那次提交）发出"
        ),
    };
    words += &match (flight.deliver_step, lang) {
        (Some(step), Lang::En) => {
            let at = scenario.steps.get(step).map_or(0, |s| s.at);
            format!(" and arrives at tick {at} (step {step}).")
        }
        (Some(step), Lang::Zh) => {
            let at = scenario.steps.get(step).map_or(0, |s| s.at);
            format!("，在 tick {at}（第 {step} 步）到达。")
        }
        (None, Lang::En) => " and is still in flight at the end.".to_owned(),
        (None, Lang::Zh) => "，到最后仍在途中。".to_owned(),
    };
    words += &match (flight.checked, lang) {
        (CheckedAt::Send, Lang::En) => format!(
            " A sending gateway checked the job row when it left; `{target}` accepts whatever arrives."
        ),
        (CheckedAt::Send, Lang::Zh) => {
            format!("发出时由发送端网关核对任务行；`{target}` 对到达的请求照单全收。")
        }
        (CheckedAt::Arrival, Lang::En) => format!(
            " Checked when it arrives, at `{target}` ({protection}), against the state then."
        ),
        (CheckedAt::Arrival, Lang::Zh) => {
            format!("到达时在 `{target}`（{protection}）按那时的状态检查。")
        }
        (CheckedAt::Commit, Lang::En) => format!(
            " It was an intent until the commit approved it, and only then left; `{target}` accepts whatever the dispatcher sends."
        ),
        (CheckedAt::Commit, Lang::Zh) => {
            format!(
                "它在提交批准之前只是一条意图，批准之后才发出；`{target}` 接受派发器发来的一切。"
            )
        }
        (CheckedAt::Nowhere, Lang::En) => format!(" `{target}` checks nothing ({protection})."),
        (CheckedAt::Nowhere, Lang::Zh) => format!("`{target}` 什么也不检查（{protection}）。"),
    };
    if flight.reconcile == Some(true) {
        words += lang.pick(
            " Its job was cancelled or taken over while it travelled: it is listed for reconciliation.",
            "它在途时任务被取消或被接管：它被列入对账。",
        );
    }
    words
}

/// The worker that sent the request of step `send`.
fn who_sent(scenario: &Scenario, send: usize, lang: Lang) -> String {
    match scenario.steps.get(send).and_then(|s| s.worker) {
        Some(worker) => scenario.worker_id(worker).to_owned(),
        None => lang.pick("the user", "用户").to_owned(),
    }
}

impl Diagram {
    /// The diagram of `trace`, a run of `scenario`, showing what `reveal`
    /// lets show, with words in `lang`.
    pub fn new(scenario: &Scenario, trace: &Trace, lang: Lang, reveal: &Reveal) -> Diagram {
        // Leases granted by hidden steps are left out (a claim that waited
        // is granted at the step that released its lock: that one too), and
        // a hidden step does not end one: either would tell a result.
        let mut spans = leases(scenario, trace);
        spans.retain(|span| {
            reveal.shows_step(span.start_step) && reveal.shows_step(span.granted_step)
        });
        for span in &mut spans {
            if span
                .closed
                .is_some_and(|(step, _)| !reveal.shows_step(step))
            {
                span.closed = None;
            }
        }
        let lanes = Lanes::new(scenario, &spans, lang);
        let (columns, step_column) = columns(scenario, &ticks(scenario, &spans));
        let mut leases: Vec<LeaseBar> = spans
            .iter()
            .filter_map(|span| lease_bar(scenario, span, &lanes, &columns, &step_column))
            .collect();
        for bar in &mut leases {
            bar.words = lease_words(bar, lang);
        }
        let mut idle = idle_runs(scenario, &lanes, &step_column, columns.len());
        for run in &mut idle {
            run.words = if run.crashed {
                lang.pick("crashed", "已崩溃")
            } else {
                lang.pick("paused", "已暂停")
            };
        }
        let steps = (0..scenario.steps.len())
            .filter_map(|index| {
                step_mark(scenario, trace, index, lang, reveal, &lanes, &step_column)
            })
            .collect();
        let flights: Vec<Flight> = (0..scenario.steps.len())
            .filter_map(|send| {
                flight(
                    scenario,
                    trace,
                    send,
                    reveal,
                    &lanes,
                    &step_column,
                    columns.len(),
                )
            })
            .map(|mut flight| {
                flight.words = flight_words(scenario, &flight, lang);
                flight
            })
            .collect();
        Diagram {
            tick_labels: tick_labels(&columns, lang),
            lanes: lanes.lanes,
            columns,
            leases,
            idle,
            steps,
            flights,
        }
    }

    /// The flight step `index` sends or delivers, if it is one.
    pub fn flight_of_step(&self, index: usize) -> Option<&Flight> {
        self.flights
            .iter()
            .find(|f| f.send_step == index || f.deliver_step == Some(index))
    }

    /// The first column at or after true time `tick`.
    pub fn column_of_tick(&self, tick: u64) -> usize {
        column_of_tick(&self.columns, tick)
    }

    /// The column of step `index` (0 when there is none).
    pub fn step_column(&self, index: usize) -> usize {
        self.steps.get(index).map_or(0, |s| s.column)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn diagram(text: &str, lang: Lang) -> Diagram {
        let scenario = crate::parse_scenario(text.as_bytes()).unwrap();
        let trace = crate::run(&scenario);
        Diagram::new(&scenario, &trace, lang, &Reveal::Everything)
    }

    /// Two-digit ticks, three steps in one tick, a long quiet run.
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
          { at = 14, worker = "B", do = "write", target = "report" },
          { at = 14, worker = "B", do = "finish" },
        ]
        [[targets]]
        id = "report"
        protect = "none"
    "#;

    #[test]
    fn every_tick_with_a_step_is_labelled_once_over_all_its_steps() {
        let diagram = diagram(CROWDED, Lang::En);
        for step in &diagram.steps {
            let label = diagram
                .tick_labels
                .iter()
                .find(|l| !l.gap && l.text == step.at.to_string())
                .unwrap_or_else(|| panic!("tick {} has no label", step.at));
            assert!(
                (label.column..label.column + label.span).contains(&step.column),
                "step at tick {} (column {}) is outside its label {label:?}",
                step.at,
                step.column
            );
        }
        let twelve = diagram.tick_labels.iter().find(|l| l.text == "12").unwrap();
        assert_eq!(twelve.span, 3, "three steps share tick 12");
        // Labels never overlap and never repeat a tick.
        for pair in diagram.tick_labels.windows(2) {
            assert!(pair[0].column + pair[0].span <= pair[1].column, "{pair:?}");
            assert!(pair[0].text != pair[1].text || pair[0].gap, "{pair:?}");
        }
    }

    #[test]
    fn a_gap_says_which_ticks_it_stands_for() {
        let diagram = diagram(CROWDED, Lang::En);
        let gap = diagram.tick_labels.iter().find(|l| l.gap).unwrap();
        assert_eq!(gap.text, "⋯");
        // Tick 5 has a column of its own: A's lease runs out there.
        assert_eq!(gap.words, "ticks 6–9: nothing happens");
        let zh = super::tests::diagram(CROWDED, Lang::Zh);
        assert!(
            zh.tick_labels
                .iter()
                .any(|l| l.words == "tick 6–9：什么也没发生")
        );
    }

    #[test]
    fn a_lease_past_the_edge_is_clipped_not_ended() {
        // B's lease (ttl 50) runs far past the last step: clipped by the edge.
        // A's lease ends with its finish, inside the diagram.
        let diagram = diagram(
            r#"
            id = "t"
            ttl = 50
            workers = ["A", "B"]
            jobs = ["a", "b"]
            steps = [
              { at = 0, worker = "A", do = "claim", job = "a" },
              { at = 1, worker = "B", do = "claim", job = "b" },
              { at = 2, worker = "A", do = "finish", job = "a" },
              { at = 3, worker = "B", do = "write", job = "b", target = "report" },
            ]
            [[targets]]
            id = "report"
            protect = "none"
        "#,
            Lang::En,
        );
        let a = diagram.leases.iter().find(|l| l.worker == "A").unwrap();
        let b = diagram.leases.iter().find(|l| l.worker == "B").unwrap();
        assert_eq!(a.end, LeaseEnd::Ended);
        assert_eq!(a.end_column, diagram.steps[2].column + 1);
        assert_eq!(b.end, LeaseEnd::Beyond);
        assert_eq!(b.end_column, diagram.columns.len(), "it runs to the edge");
        assert!(b.words.contains("still running at the end"), "{}", b.words);
    }

    #[test]
    fn a_lease_that_runs_out_ends_at_its_expiry_tick() {
        let diagram = diagram(CROWDED, Lang::En);
        let a = diagram.leases.iter().find(|l| l.generation == 1).unwrap();
        assert_eq!(a.end, LeaseEnd::Expired);
        assert_eq!(a.until, 5);
        // The bar stops at the column boundary where tick 5 would start:
        // inside the quiet run after the pause.
        assert_eq!(a.end_column, diagram.column_of_tick(5));
    }

    #[test]
    fn no_glyph_means_two_things_or_needs_an_emoji_font() {
        let hidden = MarkKind::Hidden.symbol();
        let mut glyphs: Vec<char> = Action::ALL.iter().map(|a| action_glyph(*a)).collect();
        assert!(!glyphs.contains(&hidden), "`?` is only for hidden results");
        glyphs.sort_unstable();
        glyphs.dedup();
        // claim and claim_next share `C`: one meaning, a claim.
        assert_eq!(glyphs.len(), Action::ALL.len() - 1);
        // No action is a capital a worker lane is commonly named.
        for lane in ['A', 'B'] {
            assert!(!glyphs.contains(&lane), "{lane}");
        }
        for mark in MarkKind::ALL {
            let symbol = mark.symbol() as u32;
            // Emoji-presentation blocks (⌛ is U+231B) and the pictographs.
            assert!(
                !(0x2300..=0x23FF).contains(&symbol) && symbol < 0x1F000,
                "{mark:?}"
            );
        }
    }
}
