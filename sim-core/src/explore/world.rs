//! What the explorers explore: a world (workers, jobs, targets, a design),
//! the program every worker runs, and the bounds of the search (MODEL.md §7).

use crate::Lang;
use crate::design::{ClaimProcedure, Design, Preset, Protect, TokenKind};
use crate::scenario::{Action, DesignSource, Scenario, Step, Text};

/// Most workers a world may have (restarted incarnations included).
pub const MAX_WORKERS: usize = 4;
/// Most jobs a world may have.
pub const MAX_JOBS: usize = 3;
/// Most remote targets a world may have.
pub const MAX_TARGETS: usize = 4;
/// Largest `max_time` bound: times, leases and offsets must fit in an `i8`.
pub const MAX_TIME_BOUND: u8 = 48;
/// Largest TTL and largest clock offset (in magnitude).
pub const MAX_TTL: u8 = 15;
/// Most claims a world may grant in all.
pub const MAX_CLAIMS_BOUND: u8 = 8;
/// Longest schedule the random explorer draws.
pub const MAX_SCHEDULE: usize = 64;
/// Most requests a world may hold in flight at once (delays allowed).
pub const MAX_IN_FLIGHT: u8 = 3;
/// Largest bound on how long a request may travel, in ticks.
pub const MAX_DELAY_BOUND: u8 = 15;

/// One worker of a world.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkerSpec {
    pub id: String,
    /// Index into [`World::owner_ids`]: restarted incarnations share one.
    pub owner: u8,
    /// Clock offset (used when the design decides leases by worker time).
    pub clock_offset: i8,
}

/// How far a search goes. Every bound is stated in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Time never advances past this tick.
    pub max_time: u8,
    /// At most this many claims are granted in all.
    pub max_claims: u8,
    /// At most this many scheduler moves (time ticks included) in one schedule.
    pub max_steps: u16,
    /// Delivery delays: at most this many requests in flight at once. 0 (no
    /// delays): every write is instantaneous. Otherwise every write is sent,
    /// and the scheduler chooses when each request arrives.
    pub max_in_flight: u8,
    /// A request arrives at most this many ticks after it was sent (time
    /// does not advance past that before it is delivered).
    pub max_delay: u8,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_time: 12,
            max_claims: 3,
            max_steps: MAX_SCHEDULE as u16,
            max_in_flight: 0,
            max_delay: 4,
        }
    }
}

impl Bounds {
    /// These bounds with delivery delays allowed: up to 2 requests in
    /// flight, each arriving within 3 ticks (the standard world's TTL).
    pub fn with_delays(self) -> Bounds {
        Bounds {
            max_in_flight: 2,
            max_delay: 3,
            ..self
        }
    }
}

/// The world every explorer move is made in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct World {
    pub workers: Vec<WorkerSpec>,
    /// Owner identities, one per distinct `WorkerSpec::owner`.
    pub owner_ids: Vec<String>,
    pub jobs: u8,
    pub targets: Vec<Protect>,
    pub ttl: u8,
    pub design: Design,
    pub design_source: DesignSource,
    /// Workers renew before every write and before finishing.
    pub heartbeat: bool,
    /// A worker whose renew is refused stops (C04: stop issuing calls).
    pub stop_on_renew_failure: bool,
    /// The user may cancel a job once.
    pub allow_cancel: bool,
    /// The user may revise a job's input once (`revise`, C15).
    pub allow_revise: bool,
    pub db_offset: i8,
    /// Seeds `token = "random"`.
    pub seed: u64,
    pub bounds: Bounds,
    /// A bit per target whose effects the design sends to reconciliation:
    /// a violation there is expected, so the explorers do not count it.
    pub reconciled: u8,
    /// The scheduler may crash a worker whose open transaction holds a row
    /// lock: the transaction rolls back and the worker takes no more steps
    /// (docs/explorers.md, "Crashes").
    pub crashes: bool,
}

/// Something wrong with a world: a bound the compact state relies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorldError {
    /// A world (as [`WorldOptions`] build it) has 2 to `MAX_WORKERS` workers.
    OptionWorkers,
    Workers,
    Jobs,
    Targets,
    Ttl,
    TimeBound,
    ClaimBound,
    StepBound,
    /// Too many requests in flight for this world's state, or a delay
    /// bound out of range.
    InFlight,
    /// A scenario's worker clock is too far off for the explorer.
    WorkerOffset,
    /// A scenario's database clock is too far off for the explorer.
    DbOffset,
    ClockOffsets,
    WorkerIds,
    UnknownOwner,
    /// A claim procedure that reads one named row (`read_then_update`,
    /// `select_for_update`, `held_across_work`, `nowait`) in a world of
    /// several jobs.
    ClaimJobs,
    /// `lock_both_*` claim procedures lock the two rows of a two-job world.
    LockBothJobs,
    /// Revisions of the input in a world whose claims lock rows or whose
    /// tokens are random, which the explorers do not draw.
    Revise,
}

impl WorldError {
    /// The problem in words, in `lang`.
    pub fn message(self, lang: Lang) -> String {
        use WorldError as E;
        match (self, lang) {
            (E::OptionWorkers, Lang::En) => format!("a world has 2 to {MAX_WORKERS} workers"),
            (E::OptionWorkers, Lang::Zh) => format!("一个世界有 2 到 {MAX_WORKERS} 个 Worker"),
            (E::Workers, Lang::En) => format!("a world has 1 to {MAX_WORKERS} workers"),
            (E::Workers, Lang::Zh) => format!("一个世界有 1 到 {MAX_WORKERS} 个 Worker"),
            (E::Jobs, Lang::En) => format!("a world has 1 to {MAX_JOBS} jobs"),
            (E::Jobs, Lang::Zh) => format!("一个世界有 1 到 {MAX_JOBS} 个任务"),
            (E::Targets, Lang::En) => format!("a world has at most {MAX_TARGETS} targets"),
            (E::Targets, Lang::Zh) => format!("一个世界最多有 {MAX_TARGETS} 个目标"),
            (E::Ttl, Lang::En) => format!("the TTL must be between 1 and {MAX_TTL}"),
            (E::Ttl, Lang::Zh) => format!("租约时长必须在 1 到 {MAX_TTL} 之间"),
            (E::TimeBound, Lang::En) => {
                format!("the time bound must be at most {MAX_TIME_BOUND}")
            }
            (E::TimeBound, Lang::Zh) => format!("时间界限最多是 {MAX_TIME_BOUND}"),
            (E::ClaimBound, Lang::En) => {
                format!("the claim bound must be between 1 and {MAX_CLAIMS_BOUND}")
            }
            (E::ClaimBound, Lang::Zh) => format!("领取次数界限必须在 1 到 {MAX_CLAIMS_BOUND} 之间"),
            (E::StepBound, Lang::En) => "the step bound must be at least 1".to_owned(),
            (E::StepBound, Lang::Zh) => "步数界限至少是 1".to_owned(),
            (E::InFlight, Lang::En) => format!(
                "at most {MAX_IN_FLIGHT} requests in flight (fewer in the largest worlds), each delayed at most {MAX_DELAY_BOUND} ticks"
            ),
            (E::InFlight, Lang::Zh) => format!(
                "最多 {MAX_IN_FLIGHT} 个在途请求（最大的世界里更少），每个最多延迟 {MAX_DELAY_BOUND} 个时间单位"
            ),
            (E::WorkerOffset, Lang::En) => {
                format!("a worker's clock offset must lie within ±{MAX_TTL} for the explorer")
            }
            (E::WorkerOffset, Lang::Zh) => {
                format!("探索器要求 Worker 的时钟偏移在 ±{MAX_TTL} 之内")
            }
            (E::DbOffset, Lang::En) => {
                format!("the database's clock offset must lie within ±{MAX_TTL} for the explorer")
            }
            (E::DbOffset, Lang::Zh) => format!("探索器要求数据库的时钟偏移在 ±{MAX_TTL} 之内"),
            (E::ClockOffsets, Lang::En) => format!("clock offsets must lie within ±{MAX_TTL}"),
            (E::ClockOffsets, Lang::Zh) => format!("时钟偏移必须在 ±{MAX_TTL} 之内"),
            (E::WorkerIds, Lang::En) => "worker ids must be distinct and not `db`".to_owned(),
            (E::WorkerIds, Lang::Zh) => "Worker 的名字必须互不相同，且不能是 `db`".to_owned(),
            (E::UnknownOwner, Lang::En) => "a worker names an unknown owner".to_owned(),
            (E::UnknownOwner, Lang::Zh) => "有 Worker 指定了未知的 owner".to_owned(),
            (E::ClaimJobs, Lang::En) => "the claim procedures `read_then_update`, `select_for_update`, `held_across_work` and `nowait` read one named row: explore them with 1 job (several jobs: `atomic` or `skip_locked`)".to_owned(),
            (E::Revise, Lang::En) => "the explorers revise the input (`revise`) only where claims take no row lock (`atomic` or `read_then_update`) and tokens are not random".to_owned(),
            (E::Revise, Lang::Zh) => "探索器只在领取不加行锁（`atomic` 或 `read_then_update`）、令牌不是随机数的世界里修改输入（`revise`）".to_owned(),
            (E::LockBothJobs, Lang::En) => "the claim procedures `lock_both_own_order` and `lock_both_id_order` lock both rows of a two-job world: explore them with 2 jobs".to_owned(),
            (E::LockBothJobs, Lang::Zh) => "领取方式 `lock_both_own_order` 和 `lock_both_id_order` 会锁住两个任务的两行：请用 2 个任务探索".to_owned(),
            (E::ClaimJobs, Lang::Zh) => "领取方式 `read_then_update`、`select_for_update`、`held_across_work` 和 `nowait` 只读一行指定的任务：请用 1 个任务探索（多个任务请用 `atomic` 或 `skip_locked`）".to_owned(),
        }
    }
}

/// In English; [`WorldError::message`] gives either language.
impl std::fmt::Display for WorldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for WorldError {}

/// For callers that still carry errors as English text.
impl From<WorldError> for String {
    fn from(error: WorldError) -> String {
        error.to_string()
    }
}

/// One step of a worker's program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// The atomic claim: `claim`, or `claim_next` with several jobs.
    Claim,
    Renew,
    Check,
    Write(u8),
    Finish,
    /// The claim procedures' statements (docs/scenario-format.md §10.2).
    Begin,
    /// A plain read of the row (`read_then_update`).
    Select,
    SelectForUpdate,
    SelectSkipLocked,
    /// `SELECT … FOR UPDATE NOWAIT`: fails at once on a row another
    /// transaction holds, and the transaction rolls back.
    SelectNowait,
    /// The unconditional claim of the row the worker's read saw claimable.
    UpdateClaim,
    Commit,
}

impl Op {
    /// Whether the step is a read that starts a claim: the step a worker
    /// retries until a claim is granted.
    pub fn is_claim_read(self) -> bool {
        matches!(
            self,
            Op::Claim | Op::Select | Op::SelectForUpdate | Op::SelectSkipLocked | Op::SelectNowait
        )
    }
}

impl World {
    /// The design lab's standard world: `workers` workers named A, B, C, D,
    /// one job, two targets with the design's protection, TTL 3, time ≤ 12.
    pub fn standard(design: Design, source: DesignSource, workers: usize) -> World {
        let count = workers.clamp(1, MAX_WORKERS);
        let names = ["A", "B", "C", "D"];
        World {
            workers: names
                .iter()
                .take(count)
                .enumerate()
                .map(|(index, name)| WorkerSpec {
                    id: (*name).to_owned(),
                    owner: index as u8,
                    clock_offset: 0,
                })
                .collect(),
            owner_ids: names.iter().take(count).map(|n| (*n).to_owned()).collect(),
            jobs: 1,
            targets: vec![design.target_protect; 2],
            ttl: 3,
            design,
            design_source: source,
            heartbeat: false,
            stop_on_renew_failure: true,
            allow_cancel: false,
            allow_revise: false,
            db_offset: 0,
            seed: 0,
            bounds: Bounds::default(),
            reconciled: 0,
            crashes: false,
        }
    }

    /// A preset's standard world.
    pub fn preset(preset: Preset, workers: usize) -> World {
        World::standard(preset.design(), DesignSource::Preset(preset), workers)
    }

    /// Replaces the last worker by a restarted incarnation of the first: same
    /// owner identity (the `owner` predicate cannot tell them apart).
    pub fn with_restarted_incarnation(mut self) -> World {
        if self.workers.len() >= 2 {
            let first = self.workers[0].id.clone();
            let last = self.workers.len() - 1;
            self.workers[last] = WorkerSpec {
                id: format!("{first}2"),
                owner: self.workers[0].owner,
                clock_offset: 0,
            };
            self.owner_ids.truncate(last);
        }
        self
    }

    /// The world of a scenario: its workers (with their owners and clocks),
    /// jobs, targets, TTL, design and seed, within the explorer's limits.
    pub fn from_scenario(scenario: &Scenario, bounds: Bounds) -> Result<World, WorldError> {
        let small = |value: i64, error: WorldError| {
            i8::try_from(value)
                .ok()
                .filter(|v| v.unsigned_abs() <= MAX_TTL)
                .ok_or(error)
        };
        let mut owners: Vec<String> = Vec::new();
        let mut workers = Vec::new();
        for (worker, offset) in scenario.workers.iter().zip(&scenario.worker_offsets) {
            let owner = scenario.owner_id(worker.owner).to_owned();
            let index = match owners.iter().position(|o| *o == owner) {
                Some(found) => found,
                None => {
                    owners.push(owner);
                    owners.len() - 1
                }
            };
            workers.push(WorkerSpec {
                id: worker.id.clone(),
                owner: index as u8,
                clock_offset: small(*offset, WorldError::WorkerOffset)?,
            });
        }
        let world = World {
            workers,
            owner_ids: owners,
            jobs: u8::try_from(scenario.jobs.len()).unwrap_or(u8::MAX),
            targets: scenario.targets.iter().map(|t| t.protect).collect(),
            ttl: u8::try_from(scenario.ttl).unwrap_or(u8::MAX),
            design: scenario.design,
            design_source: scenario.design_source,
            // The explorers renew (and the user cancels) where the scenario
            // shows it: a break exercise about renewals needs renewing workers.
            heartbeat: scenario.steps.iter().any(|s| s.action == Action::Renew),
            stop_on_renew_failure: true,
            allow_cancel: scenario.steps.iter().any(|s| s.action == Action::Cancel),
            allow_revise: scenario.steps.iter().any(|s| s.action == Action::Revise),
            db_offset: small(scenario.db_offset, WorldError::DbOffset)?,
            seed: scenario.seed,
            bounds,
            reconciled: 0,
            // Hand-written crashes say nothing about where a generated
            // worker may crash: a scenario's world has none.
            crashes: false,
        };
        world.validate()?;
        Ok(world)
    }

    /// Checks every bound the compact state relies on.
    pub fn validate(&self) -> Result<(), WorldError> {
        if self.workers.is_empty() || self.workers.len() > MAX_WORKERS {
            return Err(WorldError::Workers);
        }
        if self.jobs == 0 || usize::from(self.jobs) > MAX_JOBS {
            return Err(WorldError::Jobs);
        }
        if self.jobs > 1 && self.design.claim.single_job() {
            return Err(WorldError::ClaimJobs);
        }
        if self.design.claim.locks_both() && self.jobs != 2 {
            return Err(WorldError::LockBothJobs);
        }
        // A revise waits for a claim transaction's lock and would have to
        // be undone with it; a random token's fence moves otherwise than a
        // counter's. Neither is drawn.
        if self.allow_revise
            && (self.design.claim.transactional() || self.design.token == TokenKind::Random)
        {
            return Err(WorldError::Revise);
        }
        if self.targets.len() > MAX_TARGETS {
            return Err(WorldError::Targets);
        }
        if self.ttl == 0 || self.ttl > MAX_TTL {
            return Err(WorldError::Ttl);
        }
        if self.bounds.max_time > MAX_TIME_BOUND {
            return Err(WorldError::TimeBound);
        }
        if self.bounds.max_claims == 0 || self.bounds.max_claims > MAX_CLAIMS_BOUND {
            return Err(WorldError::ClaimBound);
        }
        if self.bounds.max_steps == 0 {
            return Err(WorldError::StepBound);
        }
        let fixed = crate::explore::machine::fixed_bytes(
            self.design.claim,
            usize::from(self.jobs),
            self.workers.len(),
            self.targets.len(),
        );
        let flights =
            usize::from(self.bounds.max_in_flight) * crate::explore::machine::FLIGHT_BYTES;
        if self.bounds.max_in_flight > MAX_IN_FLIGHT
            || self.bounds.max_delay > MAX_DELAY_BOUND
            || fixed + flights > crate::explore::machine::STATE_BYTES
        {
            return Err(WorldError::InFlight);
        }
        let offsets_ok = std::iter::once(self.db_offset)
            .chain(self.workers.iter().map(|w| w.clock_offset))
            .all(|offset| offset.unsigned_abs() <= MAX_TTL);
        if !offsets_ok {
            return Err(WorldError::ClockOffsets);
        }
        let mut ids: Vec<&str> = self.workers.iter().map(|w| w.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.len() != self.workers.len() || ids.contains(&"db") {
            return Err(WorldError::WorkerIds);
        }
        if self
            .workers
            .iter()
            .any(|w| usize::from(w.owner) >= self.owner_ids.len())
        {
            return Err(WorldError::UnknownOwner);
        }
        Ok(())
    }

    /// The program every worker runs: claim (retrying while refused) by
    /// the design's claim procedure, then for each target an optional
    /// renew, an optional client-side check and the write, then an optional
    /// renew and the finish; `held_across_work` commits only after it.
    pub fn program(&self) -> Vec<Op> {
        let mut program = match self.design.claim {
            ClaimProcedure::Atomic => vec![Op::Claim],
            ClaimProcedure::ReadThenUpdate => vec![Op::Select, Op::UpdateClaim],
            ClaimProcedure::SelectForUpdate => {
                vec![Op::Begin, Op::SelectForUpdate, Op::UpdateClaim, Op::Commit]
            }
            ClaimProcedure::SkipLocked => {
                vec![Op::Begin, Op::SelectSkipLocked, Op::UpdateClaim, Op::Commit]
            }
            ClaimProcedure::HeldAcrossWork => vec![Op::Begin, Op::SelectForUpdate, Op::UpdateClaim],
            ClaimProcedure::Nowait => {
                vec![Op::Begin, Op::SelectNowait, Op::UpdateClaim, Op::Commit]
            }
            ClaimProcedure::LockBothOwnOrder | ClaimProcedure::LockBothIdOrder => vec![
                Op::Begin,
                Op::SelectForUpdate,
                Op::SelectForUpdate,
                Op::UpdateClaim,
                Op::Commit,
            ],
        };
        for target in 0..self.targets.len() {
            if self.heartbeat {
                program.push(Op::Renew);
            }
            if self.design.worker_checks {
                program.push(Op::Check);
            }
            program.push(Op::Write(target as u8));
        }
        if self.heartbeat {
            program.push(Op::Renew);
        }
        program.push(Op::Finish);
        if self.design.claim == ClaimProcedure::HeldAcrossWork {
            program.push(Op::Commit);
        }
        program
    }

    pub fn job_id(&self, job: u8) -> String {
        if self.jobs == 1 {
            "r".to_owned()
        } else {
            format!("r{}", job + 1)
        }
    }

    pub fn target_id(&self, target: u8) -> String {
        format!("t{}", target + 1)
    }

    /// The empty scenario of this world: workers, jobs, targets, clocks,
    /// design and seed, no steps.
    pub fn scenario_shell(&self, id: &str, title: Text) -> Scenario {
        let mut scenario = Scenario::new(id, u64::from(self.ttl), &[]);
        scenario.title = title;
        for worker in &self.workers {
            let owner = self
                .owner_ids
                .get(usize::from(worker.owner))
                .map_or(worker.id.as_str(), String::as_str);
            scenario.add_worker(&worker.id, owner);
        }
        scenario.jobs = (0..self.jobs).map(|job| self.job_id(job)).collect();
        scenario.jobs_listed = self.jobs > 1;
        scenario.set_design(self.design, self.design_source);
        for (index, protect) in self.targets.iter().enumerate() {
            let own = (*protect != self.design.target_protect).then_some(*protect);
            scenario.add_target(&self.target_id(index as u8), own);
        }
        scenario.db_offset = i64::from(self.db_offset);
        for (offset, worker) in scenario.worker_offsets.iter_mut().zip(&self.workers) {
            *offset = i64::from(worker.clock_offset);
        }
        scenario.seed = self.seed;
        scenario
    }

    /// The scenario step a worker's program step becomes.
    pub(crate) fn step_for(&self, worker: u8, op: Op, at: u64) -> Step {
        let action = match op {
            Op::Claim if self.jobs > 1 => Action::ClaimNext,
            Op::Claim => Action::Claim,
            Op::Renew => Action::Renew,
            Op::Check => Action::Check,
            Op::Write(_) => Action::Write,
            Op::Finish => Action::Finish,
            Op::Begin => Action::Begin,
            Op::Select => Action::Select,
            Op::SelectForUpdate => Action::SelectForUpdate,
            Op::SelectSkipLocked => Action::SelectSkipLocked,
            Op::SelectNowait => Action::SelectNowait,
            Op::UpdateClaim => Action::UpdateClaim,
            Op::Commit => Action::Commit,
        };
        let mut step = Step::new(at, Some(u16::from(worker)), action);
        if let Op::Write(target) = op {
            step.target = Some(u16::from(target));
        }
        step
    }
}

/// One row of the classification table: a design in the world that shows
/// what it does and does not protect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// A short name, e.g. `fenced-highest-seen` or `custom: commit without fence`.
    pub name: String,
    /// The name as a reader sees it: a preset's name in both languages, a
    /// custom design's weakness in words.
    pub label: Text,
    /// What the world adds to the standard one, in words.
    pub world_note: Text,
    pub world: World,
}

/// The classification table's worlds: every preset in the design lab's
/// standard world, plus the custom designs and world changes that expose a
/// specific weakness. The verdicts are computed by the explorers.
pub fn classification() -> Vec<Case> {
    let mut cases = preset_cases();
    cases.extend(custom_cases());
    cases.extend(delayed_cases());
    cases.extend(claim_cases());
    cases
}

/// A classification note (or label) in English and Chinese.
fn note(en: &str, zh: &str) -> Text {
    Text {
        en: en.to_owned(),
        zh: zh.to_owned(),
    }
}

/// The classification's presets: each in the standard world, then those
/// whose weakness shows only with the job table alone or with cancel.
fn preset_cases() -> Vec<Case> {
    let standard = |preset: Preset| World::preset(preset, 2);
    let mut cases: Vec<Case> = [
        Preset::TtlLockOnly,
        Preset::ClientCheck,
        Preset::IdempotencyOnly,
        Preset::FencedHighestSeen,
        Preset::FencedRegistered,
    ]
    .into_iter()
    .map(|preset| Case {
        name: preset.name().to_owned(),
        label: note(preset.name(), preset.name()),
        world_note: note("two targets", "两个远端目标"),
        world: standard(preset),
    })
    .collect();
    let mut job_table_only = standard(Preset::DbConditional);
    job_table_only.targets.clear();
    cases.push(Case {
        name: Preset::DbConditional.name().to_owned(),
        label: note(Preset::DbConditional.name(), Preset::DbConditional.name()),
        world_note: note("job table only", "只有任务表"),
        world: job_table_only,
    });
    let mut full = standard(Preset::Full);
    full.allow_cancel = true;
    cases.push(Case {
        name: Preset::Full.name().to_owned(),
        label: note(Preset::Full.name(), Preset::Full.name()),
        world_note: note("two targets, cancel allowed", "两个远端目标，允许取消"),
        world: full,
    });
    let mut registered_cancel = standard(Preset::FencedRegistered);
    registered_cancel.allow_cancel = true;
    cases.push(Case {
        name: Preset::FencedRegistered.name().to_owned(),
        label: note(
            Preset::FencedRegistered.name(),
            Preset::FencedRegistered.name(),
        ),
        world_note: note("two targets, cancel allowed", "两个远端目标，允许取消"),
        world: registered_cancel,
    });
    cases
}

/// The classification's custom designs: one predicate or the token kind
/// changed from a preset, each in the world that exposes the change.
fn custom_cases() -> Vec<Case> {
    use crate::design::{Check, CheckSet, TokenKind};
    let standard = |preset: Preset| World::preset(preset, 2);
    let without = |check: Check| {
        CheckSet::from_bits(CheckSet::ALL.bits() & !CheckSet::EMPTY.with(check).bits())
    };
    let mut cases = Vec::new();
    let mut no_fence = standard(Preset::DbConditional).with_restarted_incarnation();
    no_fence.targets.clear();
    no_fence.design.commit_checks = without(Check::Fence);
    no_fence.design_source = DesignSource::Table;
    cases.push(Case {
        name: "custom: commit without fence".to_owned(),
        label: note("custom: commit without fence", "自定义：提交不检查 fence"),
        world_note: note(
            "job table only, B is a restarted A (same owner)",
            "只有任务表，第二个 Worker 是重启后的 A（同一 owner）",
        ),
        world: no_fence,
    });
    let mut random = standard(Preset::FencedHighestSeen);
    random.design.token = TokenKind::Random;
    random.design_source = DesignSource::Table;
    cases.push(Case {
        name: "custom: random tokens, highest-seen targets".to_owned(),
        label: note(
            "custom: random tokens, highest-seen targets",
            "自定义：随机令牌，目标只记最高令牌",
        ),
        world_note: note("two targets", "两个远端目标"),
        world: random,
    });
    let mut no_state = standard(Preset::DbConditional);
    no_state.targets.clear();
    no_state.design.commit_checks = without(Check::State);
    no_state.design.renew_checks = without(Check::State);
    no_state.design_source = DesignSource::Table;
    no_state.allow_cancel = true;
    cases.push(Case {
        name: "custom: no state predicate".to_owned(),
        label: note("custom: no state predicate", "自定义：不检查 state"),
        world_note: note("job table only, cancel allowed", "只有任务表，允许取消"),
        world: no_state,
    });
    cases
}

/// The classification's cases where requests travel: where each check
/// sits starts to matter. A sending gateway is as safe as `full` while
/// writes are instantaneous, and not once they take time.
fn delayed_cases() -> Vec<Case> {
    use crate::design::Preset as P;
    let delayed_note = || {
        note(
            "two targets, cancel allowed, requests delayed",
            "两个远端目标，允许取消，请求有延迟",
        )
    };
    let with_cancel = |preset: P, delays: bool| {
        let mut world = World::preset(preset, 2);
        world.allow_cancel = true;
        if delays {
            world.bounds = world.bounds.with_delays();
        }
        world
    };
    let preset_case = |preset: P, world: World, world_note: Text| Case {
        name: preset.name().to_owned(),
        label: note(preset.name(), preset.name()),
        world_note,
        world,
    };
    let mut epoch = with_cancel(P::FencedRegistered, true);
    epoch.design.cancel_epoch = true;
    epoch.design_source = DesignSource::Table;
    vec![
        preset_case(
            P::SendingGateway,
            with_cancel(P::SendingGateway, false),
            note("two targets, cancel allowed", "两个远端目标，允许取消"),
        ),
        preset_case(
            P::SendingGateway,
            with_cancel(P::SendingGateway, true),
            delayed_note(),
        ),
        preset_case(P::Full, with_cancel(P::Full, true), delayed_note()),
        preset_case(
            P::FencedRegistered,
            {
                let mut world = World::preset(P::FencedRegistered, 2);
                world.bounds = world.bounds.with_delays();
                world
            },
            note("two targets, requests delayed", "两个远端目标，请求有延迟"),
        ),
        Case {
            name: "custom: registered tokens, cancel epoch".to_owned(),
            label: note(
                "custom: registered tokens, cancel epoch",
                "自定义：登记令牌，取消推进纪元",
            ),
            world_note: delayed_note(),
            world: epoch,
        },
    ]
}

/// The classification's claim procedures: how a worker claims, with a
/// design that trusts the lease alone (`ttl-lock-only`, two unprotected
/// targets). Where no pause outlasts a lease (time ≤ 2 < TTL 3), every
/// procedure that makes the claim exclusive is safe and only
/// `read_then_update` is not: it takes over a live lease (`nowait` is
/// safe too: a read that finds the row locked fails and starts over). Holding the claim
/// transaction across the work is safe even where leases run out, because
/// the lock outlives the lease: the takeover waits. Locking two rows each
/// in its own order is safe too, but two claims can deadlock; in id order
/// they cannot.
fn claim_cases() -> Vec<Case> {
    let within_lease = |claim: ClaimProcedure, workers: usize, jobs: u8| {
        let mut world = World::preset(Preset::TtlLockOnly, workers);
        world.design.claim = claim;
        world.design_source = DesignSource::Table;
        world.jobs = jobs;
        world.bounds.max_time = 2;
        world
    };
    let claim_case = |claim: ClaimProcedure, world: World, world_note: Text| Case {
        name: format!("claim: {}", claim.name()),
        label: note(
            &format!("claim: {}", claim.name()),
            &format!("领取方式：{}", claim.name()),
        ),
        world_note,
        world,
    };
    let short = || {
        note(
            "ttl-lock-only, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)",
            "ttl-lock-only，两个远端目标，没有停顿长过租约（时间 ≤ 2，租约 3）",
        )
    };
    let three_workers = || {
        note(
            "ttl-lock-only, 3 workers, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)",
            "ttl-lock-only，3 个 Worker，两个远端目标，没有停顿长过租约（时间 ≤ 2，租约 3）",
        )
    };
    let two_rows = || {
        note(
            "ttl-lock-only, 2 jobs, a claim locks both rows, no pause outlasts a lease (time ≤ 2, TTL 3)",
            "ttl-lock-only，2 个任务，每次领取锁住两行，没有停顿长过租约（时间 ≤ 2，租约 3）",
        )
    };
    let mut held = World::preset(Preset::TtlLockOnly, 2);
    held.design.claim = ClaimProcedure::HeldAcrossWork;
    held.design_source = DesignSource::Table;
    vec![
        claim_case(
            ClaimProcedure::Atomic,
            within_lease(ClaimProcedure::Atomic, 2, 1),
            short(),
        ),
        claim_case(
            ClaimProcedure::ReadThenUpdate,
            within_lease(ClaimProcedure::ReadThenUpdate, 2, 1),
            short(),
        ),
        claim_case(
            ClaimProcedure::SelectForUpdate,
            within_lease(ClaimProcedure::SelectForUpdate, 3, 1),
            three_workers(),
        ),
        claim_case(
            ClaimProcedure::SkipLocked,
            within_lease(ClaimProcedure::SkipLocked, 3, 2),
            note(
                "ttl-lock-only, 3 workers, 2 jobs, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)",
                "ttl-lock-only，3 个 Worker，2 个任务，两个远端目标，没有停顿长过租约（时间 ≤ 2，租约 3）",
            ),
        ),
        claim_case(
            ClaimProcedure::Nowait,
            within_lease(ClaimProcedure::Nowait, 3, 1),
            three_workers(),
        ),
        claim_case(
            ClaimProcedure::LockBothOwnOrder,
            within_lease(ClaimProcedure::LockBothOwnOrder, 2, 2),
            two_rows(),
        ),
        claim_case(
            ClaimProcedure::LockBothIdOrder,
            within_lease(ClaimProcedure::LockBothIdOrder, 2, 2),
            two_rows(),
        ),
        claim_case(
            ClaimProcedure::HeldAcrossWork,
            held,
            note(
                "ttl-lock-only, two targets, leases can run out (time ≤ 12): a takeover waits on the held lock",
                "ttl-lock-only，两个远端目标，租约可能到期（时间 ≤ 12）：接管要等被占住的锁",
            ),
        ),
    ]
}

/// The knobs of a world, as the command line and the browser page take
/// them; [`WorldOptions::world`] turns them into a validated [`World`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldOptions {
    pub design: Design,
    pub design_source: DesignSource,
    pub workers: u8,
    /// `None`: two targets with the design's protection.
    pub targets: Option<Vec<Protect>>,
    pub ttl: u8,
    pub jobs: u8,
    pub allow_cancel: bool,
    /// The user may revise a job's input once.
    pub allow_revise: bool,
    pub heartbeat: bool,
    /// The last worker is a restarted incarnation of the first.
    pub restarted: bool,
    /// The scheduler may crash a worker holding a row lock.
    pub crashes: bool,
    pub seed: u64,
    pub bounds: Bounds,
}

impl WorldOptions {
    /// The standard world's options for `design`.
    pub fn new(design: Design, design_source: DesignSource) -> WorldOptions {
        WorldOptions {
            design,
            design_source,
            workers: 2,
            targets: None,
            ttl: 3,
            jobs: 1,
            allow_cancel: false,
            allow_revise: false,
            heartbeat: false,
            restarted: false,
            crashes: false,
            seed: 0,
            bounds: Bounds::default(),
        }
    }

    pub fn world(&self) -> Result<World, WorldError> {
        if !(2..=MAX_WORKERS as u8).contains(&self.workers) {
            return Err(WorldError::OptionWorkers);
        }
        let mut world = World::standard(self.design, self.design_source, usize::from(self.workers));
        if self.restarted {
            world = world.with_restarted_incarnation();
        }
        world.ttl = self.ttl;
        world.jobs = self.jobs;
        world.allow_cancel = self.allow_cancel;
        world.allow_revise = self.allow_revise;
        world.heartbeat = self.heartbeat;
        world.crashes = self.crashes;
        world.seed = self.seed;
        world.bounds = self.bounds;
        if let Some(targets) = &self.targets {
            world.targets.clone_from(targets);
        }
        world.validate()?;
        Ok(world)
    }
}
