//! What a run produces: one entry per scenario step, the oracle's verdicts and
//! the final state. [`Trace::to_json`] is the `fencelab run --json` object of
//! MODEL.md §6.

use serde::Serialize;
use serde_json::Value;

use crate::design::CheckSet;
use crate::scenario::{JobIdx, OwnerIdx, Scenario};

/// What happened to a step (MODEL.md §4, plus `waiting`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum Outcome {
    /// It took effect.
    Ok,
    /// The resource refused it.
    Rejected,
    /// An idempotent replay: accepted, no new effect.
    Duplicate,
    /// Nothing to do: labels, reads, checks, cancel of a terminal job.
    Noop,
    /// It waited for a row lock that was never released before the end.
    Waiting,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Outcome> {
        name.parse().ok()
    }

    /// Every variant.
    pub const ALL: [Outcome; <Outcome as strum::EnumCount>::COUNT] =
        crate::names::array_of(<Outcome as strum::VariantArray>::VARIANTS);

    /// The symbol that carries the outcome without colour.
    pub fn symbol(self) -> &'static str {
        match self {
            Outcome::Ok => "✓",
            Outcome::Rejected => "✗",
            Outcome::Duplicate => "↺",
            Outcome::Noop => "·",
            Outcome::Waiting => "◷",
        }
    }
}

/// Why a step came out the way it did, where the outcome alone does not say.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum Reason {
    /// A claim found an unexpired lease.
    LeaseHeld,
    /// A claim or cancel found the job done, failed or cancelled.
    Terminal,
    /// `select_skip_locked` or `claim_next` found no claimable unlocked row.
    NoneAvailable,
    /// A read saw the row claimable.
    Claimable,
    /// A read saw the row not claimable, or `update_claim` had not seen it claimable.
    NotClaimable,
    /// The worker was still waiting for a row lock, so this step did not run.
    Blocked,
    /// The worker had crashed.
    Crashed,
    /// Waiting here would have closed a cycle of lock waits; the database
    /// aborted the statement and rolled the transaction back.
    Deadlock,
    /// `select_nowait` found the row locked by another transaction: the
    /// database failed the statement at once (PostgreSQL's SQLSTATE 55P03)
    /// and the worker's transaction was rolled back.
    LockNotAvailable,
    AlreadyInTransaction,
    NoTransaction,
    /// A `highest_token` target had seen a higher token.
    StaleToken,
    /// A `check_batch` target had applied a higher (token, batch) pair, or
    /// this very pair: an older batch, or a repeat (C18).
    StaleBatch,
    /// A `registered_token` target has another generation registered.
    NotRegistered,
    /// A `register` with a token not higher than the registered one.
    NotHigher,
    /// A `versioned` target stored a draft; the official value is unchanged.
    Draft,
    /// A `write` with a request id was sent; it takes effect (or not) when
    /// its `deliver` step runs.
    Sent,
    /// A `deliver` found nothing in flight: its request was refused at send
    /// or never sent.
    NotSent,
    /// A `write` to an `approved_intent` target was recorded as an intent:
    /// it is sent only if the worker's `finish` commits.
    Intent,
}

impl Reason {
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Reason> {
        name.parse().ok()
    }

    /// Every variant.
    pub const ALL: [Reason; <Reason as strum::EnumCount>::COUNT] =
        crate::names::array_of(<Reason as strum::VariantArray>::VARIANTS);
}

/// The state column of the job table.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum JobState {
    Ready,
    Running,
    Done,
    Cancelled,
    Failed,
}

impl JobState {
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<JobState> {
        name.parse().ok()
    }

    /// Every variant.
    pub const ALL: [JobState; <JobState as strum::EnumCount>::COUNT] =
        crate::names::array_of(<JobState as strum::VariantArray>::VARIANTS);

    /// `state in (ready, running)`: a claim or cancel may still take it.
    pub fn is_open(self) -> bool {
        matches!(self, JobState::Ready | JobState::Running)
    }
}

/// One row of the job table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Row {
    pub owner: Option<OwnerIdx>,
    /// In the time of the clock the design decides leases by; `None` (SQL
    /// `NULL`) until the first claim, so a fresh job is claimable whatever
    /// any clock reads.
    pub lease_until: Option<i64>,
    pub fence: u64,
    pub state: JobState,
}

impl Row {
    pub const INITIAL: Row = Row {
        owner: None,
        lease_until: None,
        fence: 0,
        state: JobState::Ready,
    };
}

/// The oracle's kinds of violation (MODEL.md §5).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum ViolationKind {
    /// A newer generation had already been granted.
    Stale,
    /// The job was already cancelled, or ended by another generation.
    AfterTerminal,
    /// The same generation had already applied a higher batch at this
    /// target: older progress over newer (C18).
    StaleBatch,
    /// The job's input was revised after this generation was granted: a
    /// result computed from the old input (C15).
    StaleInput,
}

impl ViolationKind {
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<ViolationKind> {
        name.parse().ok()
    }

    /// Every variant.
    pub const ALL: [ViolationKind; <ViolationKind as strum::EnumCount>::COUNT] =
        crate::names::array_of(<ViolationKind as strum::VariantArray>::VARIANTS);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Violation {
    pub step: u32,
    pub kind: ViolationKind,
}

/// The record of one scenario step. Fields that do not apply are `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepTrace {
    /// The job the step acted on (after defaulting); `None` for steps with no job.
    pub job: Option<JobIdx>,
    pub outcome: Outcome,
    pub reason: Option<Reason>,
    /// The token the worker carried (for a granted claim: the new one).
    pub token: Option<u64>,
    /// The predicates that were false, for steps that evaluated predicates.
    pub failed_checks: Option<CheckSet>,
    /// The generation the worker held for the job (a granted claim: its own).
    pub generation: Option<u32>,
    /// For steps the oracle judged: the newest generation granted for the job
    /// when the step ran.
    pub newest_generation: Option<u32>,
    /// The worker's own lease had run out by database time (MODEL.md §5).
    pub expired: Option<bool>,
    /// For `check`: what the worker learned.
    pub lease_valid: Option<bool>,
    /// Rows a job-table statement affected (0 or 1).
    pub rows: Option<u8>,
    /// The lease end a granted claim or applied renew wrote.
    pub lease_until: Option<i64>,
    /// For a statement that waited for a row lock: the tick it ran at.
    pub waited_until: Option<u64>,
    /// For a statement that waited for a row lock: the step that released
    /// the lock (a commit, rollback or crash of the holder), during which it
    /// ran. A claim that waited is granted there, not at its own step.
    pub released_by: Option<u32>,
    /// The job row after the step, for steps that touched or read it.
    pub row: Option<Row>,
    /// For a `write` that sent a request: the `deliver` step that delivered
    /// it (`None` while it is in flight). For a `deliver`: the `write` step
    /// that sent it.
    pub request_step: Option<u32>,
    /// For a `write` recorded as an intent: the step whose commit approved
    /// and dispatched it (its `finish`, or the `commit` of the transaction
    /// the finish was in); `None` while it was never approved.
    pub approved_step: Option<u32>,
}

impl StepTrace {
    pub(crate) const BLANK: StepTrace = StepTrace {
        job: None,
        outcome: Outcome::Noop,
        reason: None,
        token: None,
        failed_checks: None,
        generation: None,
        newest_generation: None,
        expired: None,
        lease_valid: None,
        rows: None,
        lease_until: None,
        waited_until: None,
        released_by: None,
        row: None,
        request_step: None,
        approved_step: None,
    };
}

/// The final state of one remote target.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TargetState {
    /// The accepted (for `versioned`: official) value and the step that wrote it.
    pub value: Option<(String, u32)>,
    /// `highest_token`: the highest token seen.
    pub highest: Option<u64>,
    /// `registered_token`: the registered generation's token.
    pub registered: Option<u64>,
    /// `versioned`: drafts written, as (step, value); orphans stay here.
    pub drafts: Vec<(u32, String)>,
    /// `check_batch`: the highest (token, batch) pair applied.
    pub progress: Option<(Option<u64>, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Parallel to the scenario's steps.
    pub steps: Vec<StepTrace>,
    pub violations: Vec<Violation>,
    pub should_reject: Vec<u32>,
    /// Steps by a superseded generation, or after the job was cancelled or
    /// ended by another, that change no protected state (a draft stored
    /// beside the official value, a request only sent): a safe system may
    /// refuse them or let them through. Never in `should_reject`.
    pub may_reject: Vec<u32>,
    pub reconcile: Vec<u32>,
    /// The `write` steps in `reconcile` whose request was still in flight
    /// when its job was cancelled or taken over.
    pub reconcile_in_flight: Vec<u32>,
    /// The job table at the end, parallel to the scenario's jobs.
    pub final_rows: Vec<Row>,
    /// Generations granted per job.
    pub generations: Vec<u32>,
    /// Parallel to the scenario's targets.
    pub final_targets: Vec<TargetState>,
}

impl Trace {
    pub fn is_violation(&self, step: u32) -> bool {
        self.violations
            .iter()
            .any(|violation| violation.step == step)
    }

    /// The `fencelab run --json` object (MODEL.md §6) as a value; see
    /// [`Trace::run_json`] for the typed form it is serialized from.
    pub fn to_json(&self, scenario: &Scenario) -> Value {
        serde_json::to_value(self.run_json(scenario)).unwrap_or(Value::Null)
    }

    /// The `fencelab run --json` object (MODEL.md §6, docs/scenario-format.md
    /// §12). Every step carries every field, `null` where it does not apply,
    /// so consumers see one shape.
    pub fn run_json<'s>(&self, scenario: &'s Scenario) -> RunJson<'s> {
        let steps = (0..scenario.steps.len().min(self.steps.len()))
            .map(|index| self.step_json(scenario, index))
            .collect();
        let jobs = scenario
            .jobs
            .iter()
            .zip(&self.final_rows)
            .zip(&self.generations)
            .map(|((id, row), generations)| JobJson {
                id,
                owner: row.owner.map(|o| scenario.owner_id(o)),
                lease_until: row.lease_until,
                fence: row.fence,
                state: row.state.name(),
                generations: *generations,
            })
            .collect();
        let targets = scenario
            .targets
            .iter()
            .zip(&self.final_targets)
            .map(|(target, state)| TargetJson {
                id: &target.id,
                protect: target.protect.name(),
                value: state.value.as_ref().map(|v| v.0.clone()),
                value_step: state.value.as_ref().map(|v| v.1),
                highest: state.highest,
                registered: state.registered,
                check_batch: target.check_batch,
                progress: state
                    .progress
                    .map(|(token, batch)| ProgressJson { token, batch }),
                drafts: state
                    .drafts
                    .iter()
                    .map(|(step, value)| DraftJson {
                        step: *step,
                        value: value.clone(),
                    })
                    .collect(),
            })
            .collect();
        RunJson {
            scenario: &scenario.id,
            steps,
            violations: self.violations.iter().map(|v| v.json()).collect(),
            should_reject: self.should_reject.clone(),
            reconcile: self.reconcile.clone(),
            reconcile_in_flight: self.reconcile_in_flight.clone(),
            jobs,
            targets,
        }
    }

    /// Step `index` of [`Trace::run_json`].
    fn step_json<'s>(&self, scenario: &'s Scenario, index: usize) -> StepJson<'s> {
        let (step, record) = (&scenario.steps[index], &self.steps[index]);
        // A delivery is shown with the worker, target, op and value of the
        // request it delivers.
        let sender = match (step.action, record.request_step) {
            (crate::Action::Deliver, Some(sent)) => scenario.steps.get(sent as usize),
            _ => None,
        };
        let (sent_step, arrived_step) = match step.action {
            crate::Action::Deliver => (record.request_step, None),
            _ => (None, record.request_step),
        };
        let at_of = |other: Option<u32>| {
            other
                .and_then(|other| scenario.steps.get(other as usize))
                .map(|other| other.at)
        };
        let shown = sender.unwrap_or(step);
        let (op, value) = match (shown.action, record.job, shown.target, shown.worker) {
            (crate::Action::Write, Some(job), Some(t), Some(w)) => (
                Some(scenario.op_text(shown.op, job, t)),
                Some(scenario.value_text(shown.value, w)),
            ),
            _ => (None, None),
        };
        StepJson {
            i: index,
            at: step.at,
            worker: shown.worker.map(|w| scenario.worker_id(w)),
            action: step.action.name(),
            job: record.job.map(|job| scenario.job_id(job)),
            target: shown.target.map(|t| scenario.target_id(t)),
            outcome: record.outcome.name(),
            reason: record.reason.map(Reason::name),
            token: record.token,
            failed_checks: record.failed_checks.map(CheckSet::names),
            generation: record.generation,
            newest_generation: record.newest_generation,
            expired: record.expired,
            lease_valid: record.lease_valid,
            rows: record.rows,
            lease_until: record.lease_until,
            op,
            value,
            batch: match shown.action {
                crate::Action::Write => shown.batch,
                _ => None,
            },
            waited_until: record.waited_until,
            request: step
                .request
                .and_then(|r| scenario.requests.get(r as usize))
                .map(String::as_str),
            sent_step,
            sent_at: at_of(sent_step),
            arrived_step,
            arrived_at: at_of(arrived_step),
            approved_step: record.approved_step,
            violation: self.is_violation(index as u32),
        }
    }
}

impl Violation {
    /// `{ "step", "kind" }`, as `run --json` and `explore --json` list it.
    pub fn json(&self) -> ViolationJson {
        ViolationJson {
            step: self.step,
            kind: self.kind.name(),
        }
    }
}

/// The `fencelab run --json` object (docs/scenario-format.md §12). Field
/// names are the documented keys; a test compares them with the document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunJson<'s> {
    /// The scenario's id.
    pub scenario: &'s str,
    pub steps: Vec<StepJson<'s>>,
    pub violations: Vec<ViolationJson>,
    pub should_reject: Vec<u32>,
    pub reconcile: Vec<u32>,
    /// The `write` steps in `reconcile` whose request was in flight.
    pub reconcile_in_flight: Vec<u32>,
    /// The job table at the end.
    pub jobs: Vec<JobJson<'s>>,
    /// The remote targets at the end.
    pub targets: Vec<TargetJson<'s>>,
}

/// One step of [`RunJson`]: the step as run and its [`StepTrace`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepJson<'s> {
    pub i: usize,
    pub at: u64,
    pub worker: Option<&'s str>,
    #[serde(rename = "do")]
    pub action: &'static str,
    pub job: Option<&'s str>,
    pub target: Option<&'s str>,
    pub outcome: &'static str,
    pub reason: Option<&'static str>,
    pub token: Option<u64>,
    pub failed_checks: Option<Vec<&'static str>>,
    pub generation: Option<u32>,
    pub newest_generation: Option<u32>,
    pub expired: Option<bool>,
    pub lease_valid: Option<bool>,
    pub rows: Option<u8>,
    pub lease_until: Option<i64>,
    pub op: Option<String>,
    pub value: Option<String>,
    /// For a `write` (and the `deliver` of its request): its batch number.
    pub batch: Option<u32>,
    pub waited_until: Option<u64>,
    /// The request id of a `write` that travels, or of a `deliver`.
    pub request: Option<&'s str>,
    /// For a `deliver`: the `write` step that sent the request, and its tick.
    pub sent_step: Option<u32>,
    pub sent_at: Option<u64>,
    /// For a `write` that sent a request: the `deliver` step and its tick
    /// (`null` while the request is in flight at the end).
    pub arrived_step: Option<u32>,
    pub arrived_at: Option<u64>,
    /// For a `write` to an `approved_intent` target: the step whose commit
    /// approved and dispatched the intent (`null` if none did).
    pub approved_step: Option<u32>,
    pub violation: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ViolationJson {
    pub step: u32,
    pub kind: &'static str,
}

/// A job row at the end of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JobJson<'s> {
    pub id: &'s str,
    pub owner: Option<&'s str>,
    pub lease_until: Option<i64>,
    pub fence: u64,
    pub state: &'static str,
    /// How many generations were granted.
    pub generations: u32,
}

/// A remote target at the end of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetJson<'s> {
    pub id: &'s str,
    pub protect: &'static str,
    /// The accepted (for `versioned`: official) value.
    pub value: Option<String>,
    /// The step that wrote `value`.
    pub value_step: Option<u32>,
    pub highest: Option<u64>,
    pub registered: Option<u64>,
    /// Whether the target checks batch numbers (C18).
    pub check_batch: bool,
    /// `check_batch`: the highest (token, batch) pair applied.
    pub progress: Option<ProgressJson>,
    pub drafts: Vec<DraftJson>,
}

/// A `check_batch` target's progress revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProgressJson {
    pub token: Option<u64>,
    pub batch: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DraftJson {
    pub step: u32,
    pub value: String,
}
