//! A validated scenario: every name resolved to an index, every number in range.
//! [`crate::parse`] builds one from TOML; the explorers build them directly.

use std::fmt;

use crate::Lang;
use crate::design::{Design, Preset, Protect};

/// Index of a worker in [`Scenario::workers`].
pub type WorkerIdx = u16;
/// Index of a job in [`Scenario::jobs`].
pub type JobIdx = u16;
/// Index of a target in [`Scenario::targets`].
pub type TargetIdx = u16;
/// Index of an owner identity in [`Scenario::owners`].
pub type OwnerIdx = u16;

/// The largest tick, offset or TTL a scenario may use. Far beyond any lesson,
/// small enough that `t + offset + ttl` can never overflow an `i64`.
pub const MAX_TIME: i64 = 1_000_000_000;
/// The most steps one scenario may hold.
pub const MAX_STEPS: usize = 1_000_000;
/// The most workers, jobs or targets one scenario may name.
pub const MAX_IDS: usize = 256;
/// The largest batch number a `write` may carry: a holder's step within
/// its generation (C18). Far beyond any lesson.
pub const MAX_BATCH: u32 = 1_000_000;

/// A text in both course languages. A plain string in a file sets both.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Text {
    pub en: String,
    pub zh: String,
}

impl Text {
    pub fn both(text: &str) -> Text {
        Text {
            en: text.to_owned(),
            zh: text.to_owned(),
        }
    }

    /// The text in `lang`, falling back to the other language when one is
    /// empty.
    pub fn get(&self, lang: Lang) -> &str {
        let (first, second) = match lang {
            Lang::Zh => (&self.zh, &self.en),
            Lang::En => (&self.en, &self.zh),
        };
        if first.is_empty() { second } else { first }
    }
}

/// One process that runs the job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worker {
    pub id: String,
    /// The identity the `owner` column stores. Restarted incarnations share it.
    pub owner: OwnerIdx,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub id: String,
    pub protect: Protect,
    /// Whether the file named `protect` itself (else the design's default).
    pub own_protect: bool,
    /// Whether the target also keeps a progress revision (C18): the
    /// highest (token, batch) pair it applied, refusing a batched write
    /// whose pair is not above it (`stale_batch`). Checked after `protect`.
    pub check_batch: bool,
}

/// Everything a step can do. The first group is MODEL.md §4; the second is
/// fencelab's transaction vocabulary for queues and row locks (C10, C11, C19),
/// documented in `docs/scenario-format.md`.
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
pub enum Action {
    Claim,
    Renew,
    Write,
    Finish,
    Fail,
    Cancel,
    Register,
    Check,
    Crash,
    Pause,
    Resume,
    Begin,
    Select,
    SelectForUpdate,
    SelectSkipLocked,
    /// `SELECT … FOR UPDATE NOWAIT`: the read of `select_for_update`, but a
    /// row another transaction has locked fails it at once (`lock_not_available`).
    SelectNowait,
    UpdateClaim,
    ClaimNext,
    Commit,
    Rollback,
    /// The network delivers a request a `write` with `request` sent earlier.
    Deliver,
    /// The user changes the job's input while it may be running: the row's
    /// input revision advances (and, under the design's `input_revision`,
    /// its fence), so a result computed from the old input is stale (C15).
    Revise,
}

crate::names::named!(Action);

impl Action {
    /// Whether the step is done by a worker (all but the user's `cancel`
    /// and `revise`, and the network's `deliver`).
    pub fn needs_worker(self) -> bool {
        !matches!(self, Action::Cancel | Action::Deliver | Action::Revise)
    }

    /// Whether the step needs a `target`.
    pub fn needs_target(self) -> bool {
        matches!(self, Action::Write | Action::Register)
    }

    /// Statements on the job row that need its lock while another
    /// transaction holds it: all wait for it but `select_nowait`, which fails.
    pub fn needs_row_lock(self) -> bool {
        self.waits_for_row_lock() || self == Action::SelectNowait
    }

    /// Statements on the job row that wait while another transaction holds
    /// the row's lock.
    pub fn waits_for_row_lock(self) -> bool {
        matches!(
            self,
            Action::Claim
                | Action::Renew
                | Action::Finish
                | Action::Fail
                | Action::Cancel
                | Action::Revise
                | Action::SelectForUpdate
                | Action::UpdateClaim
        )
    }

    /// Steps whose effect the oracle judges (MODEL.md §5): they change
    /// protected state when they take effect.
    pub fn can_have_effect(self) -> bool {
        matches!(
            self,
            Action::Write | Action::Finish | Action::Fail | Action::Renew | Action::Deliver
        )
    }
}

/// The operation id a write carries: the business action's identity, stable
/// across takeover (C07). Without an explicit `op` it is `"<job>:<target>"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpRef {
    Named(u32),
    JobTarget,
}

/// The value a write carries. Without an explicit `value` it is the worker id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueRef {
    Named(u32),
    WorkerId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub at: u64,
    /// `None` only for the user's `cancel`.
    pub worker: Option<WorkerIdx>,
    pub action: Action,
    /// `None`: the worker's current job (MODEL.md §4 default).
    pub job: Option<JobIdx>,
    pub target: Option<TargetIdx>,
    pub op: OpRef,
    pub value: ValueRef,
    /// A `write` with a request id is *sent* at `at` and takes effect when a
    /// `deliver` step names the same id; `deliver` names the request it
    /// delivers. An index into [`Scenario::requests`].
    pub request: Option<u32>,
    /// A `write`'s batch number: the holder's step within its generation
    /// (C18), 1..=[`MAX_BATCH`]. Only targets with `check_batch` look at it.
    pub batch: Option<u32>,
    pub note: Option<Text>,
}

impl Step {
    /// A step with no job, target, op, value or note of its own.
    pub fn new(at: u64, worker: Option<WorkerIdx>, action: Action) -> Step {
        Step {
            at,
            worker,
            action,
            job: None,
            target: None,
            op: OpRef::JobTarget,
            value: ValueRef::WorkerId,
            request: None,
            batch: None,
            note: None,
        }
    }
}

/// How the scenario's design was written, so it can be written back the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DesignSource {
    /// No `design` key: `full`.
    Default,
    Preset(Preset),
    Table,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub id: String,
    pub title: Text,
    pub description: Option<Text>,
    pub ttl: u64,
    pub workers: Vec<Worker>,
    /// Owner identities, in order of first appearance among `workers`.
    pub owners: Vec<String>,
    pub jobs: Vec<String>,
    /// Whether the file listed `jobs` (else the single default job `r`).
    pub jobs_listed: bool,
    pub design: Design,
    pub design_source: DesignSource,
    pub targets: Vec<Target>,
    /// Clock offset of the database node.
    pub db_offset: i64,
    /// Clock offset per worker, parallel to `workers`.
    pub worker_offsets: Vec<i64>,
    /// Seeds the generator of `token = "random"`.
    pub seed: u64,
    pub steps: Vec<Step>,
    /// Explicit operation ids, indexed by [`OpRef::Named`].
    pub ops: Vec<String>,
    /// Explicit write values, indexed by [`ValueRef::Named`].
    pub values: Vec<String>,
    /// Request ids of writes that travel, indexed by [`Step::request`].
    pub requests: Vec<String>,
}

impl Scenario {
    /// An empty scenario: one job `r`, the `full` design, no steps. Builders
    /// (tests, explorers) fill it in; [`Scenario::check`] validates the result.
    pub fn new(id: &str, ttl: u64, worker_ids: &[&str]) -> Scenario {
        let mut scenario = Scenario {
            id: id.to_owned(),
            title: Text::both(id),
            description: None,
            ttl,
            workers: Vec::new(),
            owners: Vec::new(),
            jobs: vec!["r".to_owned()],
            jobs_listed: false,
            design: Design::default(),
            design_source: DesignSource::Default,
            targets: Vec::new(),
            db_offset: 0,
            worker_offsets: Vec::new(),
            seed: 0,
            steps: Vec::new(),
            ops: Vec::new(),
            values: Vec::new(),
            requests: Vec::new(),
        };
        for worker_id in worker_ids {
            scenario.add_worker(worker_id, worker_id);
        }
        scenario
    }

    /// Adds a worker whose owner identity is `owner` (its own id unless it is
    /// a restarted incarnation).
    pub fn add_worker(&mut self, id: &str, owner: &str) -> WorkerIdx {
        let owner_idx = match self.owners.iter().position(|known| known == owner) {
            Some(found) => found,
            None => {
                self.owners.push(owner.to_owned());
                self.owners.len() - 1
            }
        };
        self.workers.push(Worker {
            id: id.to_owned(),
            owner: idx16(owner_idx),
        });
        self.worker_offsets.push(0);
        idx16(self.workers.len() - 1)
    }

    pub fn add_target(&mut self, id: &str, protect: Option<Protect>) -> TargetIdx {
        self.targets.push(Target {
            id: id.to_owned(),
            protect: protect.unwrap_or(self.design.target_protect),
            own_protect: protect.is_some(),
            check_batch: false,
        });
        idx16(self.targets.len() - 1)
    }

    /// Sets the design, re-deriving the protection of targets that take the
    /// design's default.
    pub fn set_design(&mut self, design: Design, source: DesignSource) {
        self.design = design;
        self.design_source = source;
        for target in &mut self.targets {
            if !target.own_protect {
                target.protect = design.target_protect;
            }
        }
    }

    pub fn intern_op(&mut self, op: &str) -> OpRef {
        OpRef::Named(intern(&mut self.ops, op))
    }

    /// The index of request id `request`, added if new.
    pub fn intern_request(&mut self, request: &str) -> u32 {
        intern(&mut self.requests, request)
    }

    pub fn intern_value(&mut self, value: &str) -> ValueRef {
        ValueRef::Named(intern(&mut self.values, value))
    }

    /// For a `deliver` step: the `write` that sent its request. Its worker,
    /// target, op and value are the delivery's.
    pub fn sender_of(&self, index: usize) -> Option<&Step> {
        let step = self.steps.get(index)?;
        if step.action != Action::Deliver {
            return None;
        }
        let request = step.request?;
        self.steps[..index]
            .iter()
            .rev()
            .find(|s| s.action == Action::Write && s.request == Some(request))
    }

    /// The worker a step is about: its own, or for a `deliver` the sender's.
    pub fn acting_worker(&self, index: usize) -> Option<WorkerIdx> {
        let step = self.steps.get(index)?;
        step.worker
            .or_else(|| self.sender_of(index).and_then(|s| s.worker))
    }

    pub fn worker_id(&self, worker: WorkerIdx) -> &str {
        self.workers
            .get(usize::from(worker))
            .map_or("?", |w| w.id.as_str())
    }

    pub fn job_id(&self, job: JobIdx) -> &str {
        self.jobs.get(usize::from(job)).map_or("?", String::as_str)
    }

    pub fn target_id(&self, target: TargetIdx) -> &str {
        self.targets
            .get(usize::from(target))
            .map_or("?", |t| t.id.as_str())
    }

    pub fn owner_id(&self, owner: OwnerIdx) -> &str {
        self.owners
            .get(usize::from(owner))
            .map_or("?", String::as_str)
    }

    /// The text of an operation id as a write to `target` for `job` carries it.
    pub fn op_text(&self, op: OpRef, job: JobIdx, target: TargetIdx) -> String {
        match op {
            OpRef::Named(index) => self.ops.get(index as usize).cloned().unwrap_or_default(),
            OpRef::JobTarget => format!("{}:{}", self.job_id(job), self.target_id(target)),
        }
    }

    pub fn value_text(&self, value: ValueRef, worker: WorkerIdx) -> String {
        match value {
            ValueRef::Named(index) => self.values.get(index as usize).cloned().unwrap_or_default(),
            ValueRef::WorkerId => self.worker_id(worker).to_owned(),
        }
    }

    /// Checks the invariants the engine relies on (indices in range, times
    /// non-decreasing and bounded). [`crate::parse`] guarantees them for files;
    /// builders call this before running.
    pub fn check(&self) -> Result<(), ScenarioError> {
        use ScenarioError as E;
        if self.ttl == 0 || self.ttl > MAX_TIME as u64 {
            return Err(E::Ttl);
        }
        if self.workers.is_empty() || self.workers.len() > MAX_IDS {
            return Err(E::Workers);
        }
        if self.jobs.is_empty() || self.jobs.len() > MAX_IDS || self.targets.len() > MAX_IDS {
            return Err(E::JobsOrTargets);
        }
        if self.worker_offsets.len() != self.workers.len() {
            return Err(E::OffsetPerWorker);
        }
        let offsets_ok = std::iter::once(&self.db_offset)
            .chain(&self.worker_offsets)
            .all(|offset| offset.abs() <= MAX_TIME);
        if !offsets_ok {
            return Err(E::ClockOffsets);
        }
        if self.steps.len() > MAX_STEPS {
            return Err(E::TooManySteps);
        }
        if self
            .workers
            .iter()
            .any(|w| usize::from(w.owner) >= self.owners.len())
        {
            return Err(E::UnknownOwner);
        }
        let mut previous_at = 0;
        // Per request id: 1 once a write sent it, 2 once a deliver named it.
        let mut request_seen = vec![0u8; self.requests.len()];
        for (index, step) in self.steps.iter().enumerate() {
            self.check_step(step, previous_at, &mut request_seen)
                .map_err(|problem| E::Step { index, problem })?;
            previous_at = step.at;
        }
        Ok(())
    }

    /// [`Scenario::check`] of one step, after a step at `previous_at`;
    /// `request_seen` tracks each request id's write and delivery.
    fn check_step(
        &self,
        step: &Step,
        previous_at: u64,
        request_seen: &mut [u8],
    ) -> Result<(), StepProblem> {
        if step.at < previous_at {
            return Err(StepProblem::AtGoesBackwards);
        }
        if step.at > MAX_TIME as u64 {
            return Err(StepProblem::AtTooLarge);
        }
        match step.worker {
            Some(worker) if usize::from(worker) >= self.workers.len() => {
                return Err(StepProblem::UnknownWorker);
            }
            None if step.action.needs_worker() => return Err(StepProblem::NeedsWorker),
            _ => {}
        }
        if step
            .job
            .is_some_and(|job| usize::from(job) >= self.jobs.len())
        {
            return Err(StepProblem::UnknownJob);
        }
        match step.target {
            Some(target) if usize::from(target) >= self.targets.len() => {
                return Err(StepProblem::UnknownTarget);
            }
            None if step.action.needs_target() => return Err(StepProblem::NeedsTarget),
            _ => {}
        }
        if let OpRef::Named(op) = step.op
            && op as usize >= self.ops.len()
        {
            return Err(StepProblem::UnknownOp);
        }
        if let ValueRef::Named(value) = step.value
            && value as usize >= self.values.len()
        {
            return Err(StepProblem::UnknownValue);
        }
        match (step.action, step.batch) {
            (_, None) => {}
            (Action::Write, Some(batch)) if (1..=MAX_BATCH).contains(&batch) => {}
            _ => return Err(StepProblem::Batch),
        }
        match (step.action, step.request) {
            (Action::Deliver, None) => return Err(StepProblem::NeedsRequest),
            (Action::Write | Action::Deliver, Some(request)) => {
                let Some(seen) = request_seen.get_mut(request as usize) else {
                    return Err(StepProblem::UnknownRequest);
                };
                let (expected, next) = match step.action {
                    Action::Write => (0, 1),
                    _ => (1, 2),
                };
                if *seen != expected {
                    return Err(StepProblem::RequestOrder);
                }
                *seen = next;
            }
            (_, Some(_)) => return Err(StepProblem::UnknownRequest),
            _ => {}
        }
        Ok(())
    }
}

/// Why [`Scenario::check`] refused a scenario built in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScenarioError {
    Ttl,
    Workers,
    JobsOrTargets,
    OffsetPerWorker,
    ClockOffsets,
    TooManySteps,
    UnknownOwner,
    Step { index: usize, problem: StepProblem },
}

/// What is wrong with one step of a scenario built in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepProblem {
    AtGoesBackwards,
    AtTooLarge,
    UnknownWorker,
    NeedsWorker,
    UnknownJob,
    UnknownTarget,
    NeedsTarget,
    UnknownOp,
    UnknownValue,
    /// A `deliver` without a request.
    NeedsRequest,
    /// A request id out of range, or on a step other than `write`/`deliver`.
    UnknownRequest,
    /// A request sent twice, delivered twice, or delivered before it was sent.
    RequestOrder,
    /// A batch number out of range, or on a step other than `write`.
    Batch,
}

impl StepProblem {
    pub fn message(self, lang: Lang) -> &'static str {
        use StepProblem as P;
        match (self, lang) {
            (P::AtGoesBackwards, Lang::En) => "`at` goes backwards",
            (P::AtGoesBackwards, Lang::Zh) => "`at` 比前一步小",
            (P::AtTooLarge, Lang::En) => "`at` is too large",
            (P::AtTooLarge, Lang::Zh) => "`at` 太大",
            (P::UnknownWorker, Lang::En) => "unknown worker",
            (P::UnknownWorker, Lang::Zh) => "未知的 Worker",
            (P::NeedsWorker, Lang::En) => "needs a worker",
            (P::NeedsWorker, Lang::Zh) => "需要一个 Worker",
            (P::UnknownJob, Lang::En) => "unknown job",
            (P::UnknownJob, Lang::Zh) => "未知的任务",
            (P::UnknownTarget, Lang::En) => "unknown target",
            (P::UnknownTarget, Lang::Zh) => "未知的目标",
            (P::NeedsTarget, Lang::En) => "needs a target",
            (P::NeedsTarget, Lang::Zh) => "需要一个目标",
            (P::UnknownOp, Lang::En) => "unknown op",
            (P::UnknownOp, Lang::Zh) => "未知的 `op`",
            (P::UnknownValue, Lang::En) => "unknown value",
            (P::UnknownValue, Lang::Zh) => "未知的 `value`",
            (P::NeedsRequest, Lang::En) => "`deliver` needs a request",
            (P::NeedsRequest, Lang::Zh) => "`deliver` 需要一个请求",
            (P::UnknownRequest, Lang::En) => "unknown request",
            (P::UnknownRequest, Lang::Zh) => "未知的请求",
            (P::RequestOrder, Lang::En) => "a request is sent once, then delivered at most once",
            (P::RequestOrder, Lang::Zh) => "一个请求只发送一次，之后最多送达一次",
            (P::Batch, Lang::En) => "only a `write` carries a batch, from 1 to 1000000",
            (P::Batch, Lang::Zh) => "只有 `write` 带批次号，范围是 1 到 1000000",
        }
    }
}

impl ScenarioError {
    /// The problem in words, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        use ScenarioError as E;
        match (self, lang) {
            (E::Ttl, Lang::En) => format!("ttl must be between 1 and {MAX_TIME}"),
            (E::Ttl, Lang::Zh) => format!("`ttl` 必须在 1 到 {MAX_TIME} 之间"),
            (E::Workers, Lang::En) => format!("between 1 and {MAX_IDS} workers are needed"),
            (E::Workers, Lang::Zh) => format!("需要 1 到 {MAX_IDS} 个 Worker"),
            (E::JobsOrTargets, Lang::En) => {
                format!("between 1 and {MAX_IDS} jobs, at most {MAX_IDS} targets")
            }
            (E::JobsOrTargets, Lang::Zh) => {
                format!("需要 1 到 {MAX_IDS} 个任务，最多 {MAX_IDS} 个目标")
            }
            (E::OffsetPerWorker, Lang::En) => "one clock offset per worker is needed".to_owned(),
            (E::OffsetPerWorker, Lang::Zh) => "每个 Worker 需要一个时钟偏移".to_owned(),
            (E::ClockOffsets, Lang::En) => format!("clock offsets must lie within ±{MAX_TIME}"),
            (E::ClockOffsets, Lang::Zh) => format!("时钟偏移必须在 ±{MAX_TIME} 之内"),
            (E::TooManySteps, Lang::En) => format!("at most {MAX_STEPS} steps"),
            (E::TooManySteps, Lang::Zh) => format!("最多 {MAX_STEPS} 步"),
            (E::UnknownOwner, Lang::En) => "a worker names an unknown owner".to_owned(),
            (E::UnknownOwner, Lang::Zh) => "有 Worker 指定了未知的 owner".to_owned(),
            (E::Step { index, problem }, Lang::En) => {
                format!("step {index}: {}", problem.message(lang))
            }
            (E::Step { index, problem }, Lang::Zh) => {
                format!("第 {index} 步：{}", problem.message(lang))
            }
        }
    }
}

/// In English; [`ScenarioError::message`] gives either language.
impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ScenarioError {}

/// For callers that still carry errors as English text.
impl From<ScenarioError> for String {
    fn from(error: ScenarioError) -> String {
        error.to_string()
    }
}

fn intern(table: &mut Vec<String>, text: &str) -> u32 {
    let index = match table.iter().position(|known| known == text) {
        Some(found) => found,
        None => {
            table.push(text.to_owned());
            table.len() - 1
        }
    };
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// Converts an index bounded by [`MAX_IDS`] to the 16-bit index type.
pub(crate) fn idx16(index: usize) -> u16 {
    u16::try_from(index).unwrap_or(u16::MAX)
}
