//! The interleaving explorers (MODEL.md §7): an adversarial scheduler picks
//! which worker moves, when time advances and whether the user cancels;
//! proptest samples and shrinks schedules, breadth-first search covers them
//! all within bounds. Both share one step function ([`Machine`]), and both
//! hand back any counterexample as a scenario that [`crate::run`] replays to
//! the same violation.
//!
//! Like the rest of sim-core this reads no clock: callers measure elapsed
//! time themselves and may stop a search from the progress callback.

mod bfs;
mod explain;
mod machine;
mod offer;
mod random;
mod screen;
mod settings;

pub use random::play as play_choices;
pub use random::{Fit, MAX_DRAWS, draw_schedule, play_all};
mod world;

use crate::Lang;
use serde::Serialize;
use serde_json::Value;

pub use bfs::Sites;
pub use machine::{Blocked, Machine, Move, MoveResult, State};
pub use offer::{EXPLORER_OFFER, ExplorerOffer, NumberSetting};
pub use screen::{
    Allowed, ChoiceWords, ExplorerForm, FieldInput, FormField, FormKey, FoundView, ProgressView,
    ReportView, SHRINK_LINES, SettingRow, ShrinkLine, ShrinkView, Tone, bounds_words,
    crashes_words, design_and_world_words, form_fields, world_words,
};
pub use settings::{DESIGN_WHEN_UNSET, DesignChoice, Exploration, ExplorerSettings, SettingsError};
pub use world::{
    Bounds, Case, MAX_CLAIMS_BOUND, MAX_DELAY_BOUND, MAX_IN_FLIGHT, MAX_JOBS, MAX_SCHEDULE,
    MAX_TARGETS, MAX_TIME_BOUND, MAX_TTL, MAX_WORKERS, Op, WorkerSpec, World, WorldError,
    WorldOptions, classification,
};

use crate::scenario::{Action, Scenario, Step, Text};
use crate::trace::ViolationKind;

/// Which explorer to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// proptest over `cases` random schedules drawn from `seed`.
    Random { seed: u64, cases: u32 },
    /// Breadth-first over every distinct state within the bounds.
    Exhaustive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phase {
    #[default]
    Searching,
    Shrinking,
}

/// A snapshot for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    pub phase: Phase,
    pub cases: u32,
    pub states: u64,
    pub transitions: u64,
    pub shrink_steps: u32,
    pub depth: u32,
}

/// Receives progress; returning `false` stops the search (it then reports
/// [`Verdict::Cancelled`], or [`Verdict::Incomplete`] when
/// [`Control::out_of_time`] says the caller's time limit stopped it).
pub trait Control {
    fn progress(&mut self, progress: &Progress) -> bool;

    /// Whether the last `false` from [`Control::progress`] meant the
    /// caller's wall-clock limit ran out rather than a cancel. (sim-core
    /// reads no clock; the caller measures.)
    fn out_of_time(&self) -> bool {
        false
    }
}

/// The most distinct states the exhaustive explorer visits before it stops
/// with [`Verdict::Incomplete`]: its tables then hold about 0.5 GB, and the
/// largest world the forms offer gets there in well under a minute on a
/// slow machine. Far above every world the lessons and tests explore.
pub const DEFAULT_MAX_STATES: u64 = 4_000_000;

/// Caps on one search's work, beyond the world's bounds; reported with
/// them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Distinct states the exhaustive explorer may visit (the random
    /// explorer holds no states; its cases bound it).
    pub max_states: u64,
    /// The caller's wall-clock limit, in milliseconds, when it set one;
    /// enforced by the caller through [`Control`], reported here.
    pub time_limit_ms: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_states: DEFAULT_MAX_STATES,
            time_limit_ms: None,
        }
    }
}

impl<F: FnMut(&Progress) -> bool> Control for F {
    fn progress(&mut self, progress: &Progress) -> bool {
        self(progress)
    }
}

/// Never stops, observes nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunToEnd;

impl Control for RunToEnd {
    fn progress(&mut self, _: &Progress) -> bool {
        true
    }
}

/// Counts of what a search did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Random schedules tried (random explorer).
    pub cases: u32,
    /// Distinct states (exhaustive explorer).
    pub states: u64,
    /// Moves applied.
    pub transitions: u64,
    /// Shrinking iterations after the first failure (random explorer).
    pub shrink_steps: u32,
    /// Deepest level reached (exhaustive) in moves.
    pub depth: u32,
    /// Bytes the exhaustive search's tables held at the end.
    pub peak_bytes: usize,
    /// The exhaustive search stopped, incomplete, because its tables could
    /// not grow: memory ran out (the allocator refused).
    pub out_of_memory: bool,
}

#[derive(Debug, Default)]
pub(crate) struct Search {
    pub stats: Stats,
    pub violation: Option<(Vec<Move>, ViolationKind)>,
    pub cancelled: bool,
    /// A limit (states, or the caller's time) stopped the search first.
    pub incomplete: bool,
    /// The exhaustive search ran out of states before its step bound.
    pub exhausted: bool,
    /// Ever-shorter failing schedules, the first failure first.
    pub shrink_history: Vec<Vec<Move>>,
    /// The moves to the first state met where a takeover waits on a held
    /// row lock (claim procedures with transactions).
    pub blocked: Option<Vec<Move>>,
    /// The moves up to and including the first statement the database
    /// refused as a deadlock (`lock_both_own_order`).
    pub deadlock: Option<Vec<Move>>,
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
    strum::EnumCount,
)]
#[strum(serialize_all = "snake_case")]
pub enum Verdict {
    /// No violation within the bounds (exhaustive: none exists; random:
    /// none was found).
    Safe,
    Unsafe,
    Cancelled,
    /// A limit (states or time) stopped the search before it concluded,
    /// with no violation found so far.
    Incomplete,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Verdict> {
        name.parse().ok()
    }

    /// Every variant.
    pub const ALL: [Verdict; <Verdict as strum::EnumCount>::COUNT] =
        crate::names::array_of(<Verdict as strum::VariantArray>::VARIANTS);
}

/// A failing schedule, as moves and as a scenario `fencelab run` replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    pub moves: Vec<Move>,
    pub scenario: Scenario,
    /// The scenario step that violates.
    pub step: u32,
    pub kind: ViolationKind,
    pub explanation: Text,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub verdict: Verdict,
    pub method: Method,
    pub world: World,
    /// The caps the search ran under.
    pub limits: Limits,
    pub stats: Stats,
    /// Exhaustive: every reachable state was visited before the step bound.
    pub exhausted: bool,
    pub counterexample: Option<Counterexample>,
    /// Random: the lengths-decreasing failing schedules met while shrinking.
    pub shrink_history: Vec<Vec<Move>>,
    /// A takeover the search saw wait on a held row lock: a liveness
    /// cost, whatever the verdict (safety) says.
    pub blocked_takeover: Option<BlockedTakeover>,
    /// A claim the search saw refused as a deadlock victim: a liveness
    /// cost too (the claim is lost and starts over), never a stale effect.
    pub deadlock: Option<Deadlock>,
}

/// A schedule whose last statement would have closed a cycle of row locks:
/// the database refused it (`deadlock`) and rolled its transaction back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadlock {
    /// The moves, the refused statement last.
    pub moves: Vec<Move>,
    /// The moves as a scenario: `run` shows its last step rejected with
    /// reason `deadlock`, and the other read run at that tick.
    pub scenario: Scenario,
    /// The refused statement's step.
    pub step: u32,
    pub explanation: Text,
}

/// A schedule after which a worker's claim waits for a row lock whose
/// holder's lease has ended: the lock outlives the lease, and nothing but
/// the holder's `commit` lets the takeover through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedTakeover {
    /// The moves up to the wait.
    pub moves: Vec<Move>,
    /// The moves and then the waiting claim, as a scenario: `run` shows its
    /// last step `waiting`.
    pub scenario: Scenario,
    /// The waiting claim's step.
    pub step: u32,
    pub explanation: Text,
}

/// Explores `world` with `method`. Deterministic: the same world, method
/// and seed always give the same report.
pub fn explore(
    world: &World,
    method: Method,
    control: &mut dyn Control,
) -> Result<Report, WorldError> {
    explore_for(world, method, None, control)
}

/// [`explore`], counting only violations of kind `want` (when given): the
/// search for a schedule that breaks a design in one particular way.
/// (The random explorer counts every kind.)
pub fn explore_for(
    world: &World,
    method: Method,
    want: Option<ViolationKind>,
    control: &mut dyn Control,
) -> Result<Report, WorldError> {
    explore_limited(world, method, want, Limits::default(), control)
}

/// Where violations can happen in `world` (every state within its bounds,
/// under the default state limit): what a design leaves to reconciliation.
pub fn violation_sites(world: &World) -> Result<Sites, WorldError> {
    let machine = Machine::new(world.clone())?;
    Ok(bfs::violation_sites(
        &machine,
        Limits::default().max_states,
        bfs::Budget::UNLIMITED,
    ))
}

/// [`explore_for`] under `limits` rather than the default ones.
pub fn explore_limited(
    world: &World,
    method: Method,
    want: Option<ViolationKind>,
    limits: Limits,
    control: &mut dyn Control,
) -> Result<Report, WorldError> {
    explore_within(world, method, want, limits, control, bfs::Budget::UNLIMITED)
}

/// [`explore_limited`] with the exhaustive search's tables held to
/// `budget` (the tests' way to run out of memory).
fn explore_within(
    world: &World,
    method: Method,
    want: Option<ViolationKind>,
    limits: Limits,
    control: &mut dyn Control,
    budget: bfs::Budget,
) -> Result<Report, WorldError> {
    let machine = Machine::new(world.clone())?;
    let search = match method {
        Method::Random { seed, cases } => random::explore(&machine, seed, cases, control),
        Method::Exhaustive => bfs::explore(&machine, want, limits.max_states, control, budget),
    };
    Ok(report_of(&machine, method, limits, control, search))
}

/// [`explore_for`] with the exhaustive explorer: what the course grades
/// designs and breaks with. It names no random explorer, so a build that
/// only grades (the page's own wasm, whose searches run in a worker built
/// with the explorers) links neither it nor proptest.
pub fn explore_exhaustive(
    world: &World,
    want: Option<ViolationKind>,
    control: &mut dyn Control,
) -> Result<Report, WorldError> {
    let machine = Machine::new(world.clone())?;
    let limits = Limits::default();
    let search = bfs::explore(
        &machine,
        want,
        limits.max_states,
        control,
        bfs::Budget::UNLIMITED,
    );
    Ok(report_of(
        &machine,
        Method::Exhaustive,
        limits,
        control,
        search,
    ))
}

/// A finished search as a report.
fn report_of(
    machine: &Machine,
    method: Method,
    limits: Limits,
    control: &mut dyn Control,
    mut search: Search,
) -> Report {
    let world = machine.world();
    if search.cancelled && control.out_of_time() {
        search.cancelled = false;
        search.incomplete = true;
    }
    let verdict = if search.violation.is_some() {
        Verdict::Unsafe
    } else if search.incomplete {
        Verdict::Incomplete
    } else if search.cancelled {
        Verdict::Cancelled
    } else {
        Verdict::Safe
    };
    let counterexample = search
        .violation
        .as_ref()
        .map(|(moves, kind)| counterexample(machine, moves, *kind, method));
    let blocked_takeover = search
        .blocked
        .as_ref()
        .and_then(|moves| blocked_takeover(machine, moves));
    let deadlock = search
        .deadlock
        .as_ref()
        .and_then(|moves| deadlock(machine, moves));
    Report {
        verdict,
        method,
        world: world.clone(),
        limits,
        stats: search.stats,
        exhausted: search.exhausted,
        counterexample,
        shrink_history: search.shrink_history,
        blocked_takeover,
        deadlock,
    }
}

/// The deadlock `moves` end with: the schedule written down, and the
/// cycle in words.
/// Worker `worker`'s id in `world` (empty for no such worker).
fn worker_id(world: &World, worker: u8) -> String {
    world
        .workers
        .get(usize::from(worker))
        .map_or_else(String::new, |w| w.id.clone())
}

fn deadlock(machine: &Machine, moves: &[Move]) -> Option<Deadlock> {
    let world = machine.world();
    let (prefix, last) = moves.split_at(moves.len().checked_sub(1)?);
    let Some(&Move::Worker(victim)) = last.first() else {
        return None;
    };
    let mut state = machine.initial();
    for &chosen in prefix {
        machine.apply(&mut state, chosen);
    }
    let (holder, held, wanted) = machine.deadlock_cycle(&state, victim)?;
    let title = Text {
        en: "Two claims lock two rows in opposite orders".to_owned(),
        zh: "两个领取以相反顺序锁两行".to_owned(),
    };
    let mut played = schedule_scenario(machine, moves, "deadlock", title);
    let step = played.scenario.steps.len().checked_sub(1)? as u32;
    let name = |worker: u8| worker_id(world, worker);
    let (victim, holder) = (name(victim), name(holder));
    let (held, wanted) = (world.job_id(held), world.job_id(wanted));
    let at = state.time();
    let explanation = Text {
        en: format!(
            "Deadlock: at tick {at} {holder} holds {wanted}'s row lock and waits for {held}'s, which {victim} holds; {victim}'s SELECT … FOR UPDATE of {wanted} would wait for {holder}, so each would wait for the other forever. The database refuses {victim}'s statement (deadlock) and rolls its transaction back; {holder}'s read runs at once. No stale effect, but {victim}'s claim is lost and starts over: locking the rows in one order for every worker (ORDER BY id) makes the cycle impossible."
        ),
        zh: format!(
            "死锁：tick {at} 时 {holder} 持有 {wanted} 的行锁，在等 {held} 的行锁，而 {held} 在 {victim} 手里；{victim} 对 {wanted} 的 SELECT … FOR UPDATE 要等 {holder}，双方将永远互等。数据库拒绝 {victim} 的这条语句（deadlock），回滚它的事务；{holder} 的读取立刻执行。没有旧代次的写入，但 {victim} 这次领取白做了，只能从头再来：所有 Worker 按同一个顺序加锁（ORDER BY id），这种环就不会出现。"
        ),
    };
    played.scenario.description = Some(explanation.clone());
    Some(Deadlock {
        moves: moves.to_vec(),
        scenario: played.scenario,
        step,
        explanation,
    })
}

/// The blocked takeover after `moves`: the schedule written down, the
/// waiting claim added, and the wait in words.
fn blocked_takeover(machine: &Machine, moves: &[Move]) -> Option<BlockedTakeover> {
    let world = machine.world();
    let mut state = machine.initial();
    for &chosen in moves {
        machine.apply(&mut state, chosen);
    }
    let blocked = machine.blocked_takeover(&state)?;
    let title = Text {
        en: "A takeover waits on a held lock".to_owned(),
        zh: "接管在等一把被占住的锁".to_owned(),
    };
    let mut played = schedule_scenario(machine, moves, "blocked-takeover", title);
    let at = u64::from(state.time());
    played
        .scenario
        .steps
        .push(world.step_for(blocked.waiter, Op::SelectForUpdate, at));
    let step = played.scenario.steps.len().saturating_sub(1) as u32;
    let name = |worker: u8| worker_id(world, worker);
    let (waiter, holder, until) = (
        name(blocked.waiter),
        name(blocked.holder),
        blocked.lease_until,
    );
    let explanation = Text {
        en: format!(
            "Takeover blocked while the lock is held: at tick {at} {waiter}'s claim (SELECT … FOR UPDATE) waits for the row lock {holder}'s open transaction holds, although the lease ended at tick {until}. The lock does not expire with the lease: nothing but {holder}'s commit lets the takeover through (a liveness cost, not a stale effect)."
        ),
        zh: format!(
            "锁被占住，接管受阻：tick {at} 时 {waiter} 的领取（SELECT … FOR UPDATE）在等 {holder} 未提交的事务持有的行锁，尽管租约在 tick {until} 已经到期。行锁不会随租约到期：只有 {holder} 提交，接管才能进行（这是活性代价，不是旧代次的写入）。"
        ),
    };
    played.scenario.description = Some(explanation.clone());
    Some(BlockedTakeover {
        moves: moves.to_vec(),
        scenario: played.scenario,
        step,
        explanation,
    })
}

/// A schedule played out: the scenario its moves become, and for every
/// scenario step the move's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub scenario: Scenario,
    /// Parallel to `scenario.steps`.
    pub results: Vec<MoveResult>,
}

/// Plays `moves` from the initial state and writes them down as scenario
/// steps (ticks become the steps' times). Moves that are not enabled are
/// skipped.
pub fn schedule_scenario(machine: &Machine, moves: &[Move], id: &str, title: Text) -> Played {
    let world = machine.world();
    let mut scenario = world.scenario_shell(id, title);
    let mut results: Vec<MoveResult> = Vec::new();
    let mut state = machine.initial();
    // Under `lock_both_*`: each worker's read that waits, by its result's
    // index, until a rollback releases it and it runs (the engine reports
    // the step by how it ended).
    let mut waiting: [Option<usize>; world::MAX_WORKERS] = [None; world::MAX_WORKERS];
    for &chosen in moves {
        let at = u64::from(state.time());
        match chosen {
            Move::Tick => {
                machine.apply(&mut state, chosen);
            }
            Move::Cancel(job) | Move::Revise(job) => {
                let action = if matches!(chosen, Move::Cancel(_)) {
                    Action::Cancel
                } else {
                    Action::Revise
                };
                let mut step = Step::new(at, None, action);
                if world.jobs > 1 {
                    step.job = Some(u16::from(job));
                }
                scenario.steps.push(step);
                results.push(machine.apply(&mut state, chosen));
            }
            Move::Worker(worker) => {
                let Some(op) = machine.next_op(&state, worker) else {
                    continue;
                };
                let mut step = world.step_for(worker, op, at);
                step.job = machine.step_job(&state, worker).map(u16::from);
                // With delays every write is a request that travels, but an
                // outbox's intent, which lands with its commit.
                if let (Op::Write(target), true) = (op, machine.delays())
                    && machine.sends(target)
                {
                    let id = request_id(world, worker, target);
                    step.request = Some(scenario.intern_request(&id));
                }
                scenario.steps.push(step);
                results.push(machine.apply(&mut state, chosen));
            }
            Move::Deliver(slot) => {
                let Some((worker, target, _)) = machine.in_flight(&state, slot) else {
                    continue;
                };
                let mut step = Step::new(at, None, Action::Deliver);
                step.request = Some(scenario.intern_request(&request_id(world, worker, target)));
                scenario.steps.push(step);
                results.push(machine.apply(&mut state, chosen));
            }
            Move::Crash(worker) => {
                scenario
                    .steps
                    .push(Step::new(at, Some(u16::from(worker)), Action::Crash));
                results.push(machine.apply(&mut state, chosen));
            }
        }
        for (worker, slot) in waiting.iter_mut().enumerate() {
            let now_waiting = machine.waiting(&state, worker as u8);
            match (*slot, now_waiting) {
                (None, true) => *slot = results.len().checked_sub(1),
                (Some(index), false) => {
                    // Released: the read ran and locked its row.
                    if let Some(result) = results.get_mut(index) {
                        result.applied = true;
                    }
                    *slot = None;
                }
                _ => {}
            }
        }
    }
    Played { scenario, results }
}

/// The request id of `worker`'s write to `target` (each worker writes each
/// target once): e.g. `A-t1`.
fn request_id(world: &World, worker: u8, target: u8) -> String {
    let id = world
        .workers
        .get(usize::from(worker))
        .map_or("?", |w| w.id.as_str());
    format!("{id}-{}", world.target_id(target))
}

/// Replays `moves` to build the scenario and explain the last move.
pub fn counterexample(
    machine: &Machine,
    moves: &[Move],
    kind: ViolationKind,
    method: Method,
) -> Counterexample {
    let (id, title) = counterexample_title(machine.world(), method);
    let (prefix, last) = moves.split_at(moves.len().saturating_sub(1));
    let mut played = schedule_scenario(machine, moves, &id, title);
    // The state before the last move, to explain it.
    let mut state = machine.initial();
    for &chosen in prefix {
        machine.apply(&mut state, chosen);
    }
    let step = played.scenario.steps.len().saturating_sub(1) as u32;
    let explanation = explain_move(machine, &state, last.first().copied(), step, kind);
    played.scenario.description = Some(explanation.clone());
    Counterexample {
        moves: moves.to_vec(),
        scenario: played.scenario,
        step,
        kind,
        explanation,
    }
}

/// A counterexample's scenario id and title: the design's name and how
/// the schedule was found.
fn counterexample_title(world: &World, method: Method) -> (String, Text) {
    let design_name = crate::Preset::of(&world.design).map_or("custom", crate::Preset::name);
    let (id, how_en, how_zh) = match method {
        Method::Random { seed, .. } => (
            format!("counterexample-{design_name}-seed-{seed}"),
            format!("found by random exploration, seed {seed}"),
            format!("随机探索找到，种子 {seed}"),
        ),
        Method::Exhaustive => (
            format!("counterexample-{design_name}"),
            "the shortest, found by exhaustive search".to_owned(),
            "穷举搜索找到的最短反例".to_owned(),
        ),
    };
    let design_zh = crate::Preset::of(&world.design).map_or("自定义设计", crate::Preset::name);
    let title = Text {
        en: format!("Counterexample for {design_name} ({how_en})"),
        zh: format!("{design_zh} 的反例（{how_zh}）"),
    };
    (id, title)
}

/// The last move of a counterexample in words, from `state` (the state
/// before it), `step` being its index in the scenario.
fn explain_move(
    machine: &Machine,
    state: &State,
    last: Option<Move>,
    step: u32,
    kind: ViolationKind,
) -> Text {
    let world = machine.world();
    // The worker whose move violated, and the program step it was: its own
    // move, or the write whose request was delivered (and when it was sent).
    let violating = match last {
        Some(Move::Worker(worker)) => machine.next_op(state, worker).map(|op| (worker, op, None)),
        Some(Move::Deliver(slot)) => machine
            .in_flight(state, slot)
            .map(|(worker, target, sent)| (worker, Op::Write(target), Some(sent))),
        _ => None,
    };
    match violating {
        Some((worker, op, sent)) => {
            let target = match op {
                Op::Write(t) => Some(t),
                _ => None,
            };
            let before = machine.before(state, worker, target);
            let name = |w: u8| world.workers.get(usize::from(w)).map(|s| s.id.clone());
            let text = explain::explain(&explain::Facts {
                world,
                worker: name(worker).unwrap_or_default(),
                op,
                step,
                at: u64::from(state.time()),
                generation: u32::from(before.generation),
                newest_generation: u32::from(before.newest_generation),
                newest_holder: before.newest_holder.and_then(name),
                kind,
                all_failed: before.all_failed,
                cancelled: before.cancelled,
                carried_token: before.carried_token,
                highest_seen: before.highest_seen,
            });
            match sent {
                Some(sent) => Text {
                    en: format!(
                        "The request was sent at tick {sent} and arrived at tick {}. {}",
                        state.time(),
                        text.en
                    ),
                    zh: format!(
                        "这个请求在 tick {sent} 发出，在 tick {} 到达。{}",
                        state.time(),
                        text.zh
                    ),
                },
                None => text,
            }
        }
        None => Text::default(),
    }
}

/// A schedule in words, move by move: [`move_label`], except that a
/// delivery names the request it delivers (`deliver A-t1`), which only
/// replaying the schedule can tell.
pub fn schedule_labels(world: &World, moves: &[Move]) -> Vec<String> {
    let Ok(machine) = Machine::new(world.clone()) else {
        return moves.iter().map(|m| move_label(world, *m)).collect();
    };
    let mut state = machine.initial();
    moves
        .iter()
        .map(|&chosen| {
            let label = match chosen {
                Move::Deliver(slot) => match machine.in_flight(&state, slot) {
                    Some((worker, target, _)) => {
                        format!("deliver {}", request_id(world, worker, target))
                    }
                    None => move_label(world, chosen),
                },
                _ => move_label(world, chosen),
            };
            machine.apply(&mut state, chosen);
            label
        })
        .collect()
}

/// A move in words: the worker's id, `tick`, or `cancel <job>`.
pub fn move_label(world: &World, chosen: Move) -> String {
    match chosen {
        Move::Worker(worker) => world
            .workers
            .get(usize::from(worker))
            .map_or("?".to_owned(), |w| w.id.clone()),
        Move::Tick => "tick".to_owned(),
        Move::Cancel(job) => format!("cancel {}", world.job_id(job)),
        Move::Revise(job) => format!("revise {}", world.job_id(job)),
        Move::Deliver(slot) => format!("deliver #{slot}"),
        Move::Crash(worker) => format!(
            "crash {}",
            world
                .workers
                .get(usize::from(worker))
                .map_or("?", |w| w.id.as_str())
        ),
    }
}

impl Report {
    /// The bounds and world the verdict holds within.
    pub fn bounds_json(&self) -> BoundsJson<'_> {
        let world = &self.world;
        BoundsJson {
            max_time: world.bounds.max_time,
            max_claims: world.bounds.max_claims,
            max_steps: world.bounds.max_steps,
            max_in_flight: world.bounds.max_in_flight,
            max_delay: world.bounds.max_delay,
            max_states: self.limits.max_states,
            time_limit_ms: self.limits.time_limit_ms,
            workers: world.workers.iter().map(|w| w.id.as_str()).collect(),
            jobs: world.jobs,
            targets: world.targets.iter().map(|p| p.name()).collect(),
            ttl: world.ttl,
            cancel: world.allow_cancel,
            revise: world.allow_revise,
            heartbeat: world.heartbeat,
            stop_on_renew_failure: world.stop_on_renew_failure,
            claim: world.design.claim.name(),
            crash: world.crashes,
        }
    }

    /// The `fencelab explore --json` object as a value; see
    /// [`Report::report_json`].
    pub fn to_json(&self, elapsed_ms: u64, lang: Lang) -> Value {
        serde_json::to_value(self.report_json(elapsed_ms, lang)).unwrap_or(Value::Null)
    }

    /// The `fencelab explore --json` object (docs/explorers.md). `elapsed_ms`
    /// is measured by the caller (sim-core reads no clock).
    pub fn report_json(&self, elapsed_ms: u64, lang: Lang) -> ReportJson<'_> {
        let (method, seed) = match self.method {
            Method::Random { seed, .. } => ("random", Some(seed)),
            Method::Exhaustive => ("exhaustive", None),
        };
        let explanation = match &self.counterexample {
            Some(found) => found.explanation.get(lang).to_owned(),
            None => safe_sentence(self, lang),
        };
        let schedule = |moves: &[Move]| -> Vec<String> { schedule_labels(&self.world, moves) };
        ReportJson {
            verdict: self.verdict.name(),
            method,
            seed,
            design: crate::Preset::of(&self.world.design).map_or("custom", crate::Preset::name),
            bounds: self.bounds_json(),
            stats: StatsJson {
                cases: self.stats.cases,
                states: self.stats.states,
                transitions: self.stats.transitions,
                shrink_steps: self.stats.shrink_steps,
                depth: self.stats.depth,
                elapsed_ms,
            },
            exhausted: self.exhausted,
            explanation,
            shrinking: self
                .shrink_history
                .iter()
                .map(|moves| ShrinkJson {
                    moves: moves.len(),
                    schedule: schedule(moves),
                })
                .collect(),
            blocked_takeover: self.blocked_takeover.as_ref().map(|blocked| BlockedJson {
                schedule: schedule(&blocked.moves),
                explanation: blocked.explanation.get(lang).to_owned(),
            }),
            deadlock: self.deadlock.as_ref().map(|deadlock| BlockedJson {
                schedule: schedule(&deadlock.moves),
                explanation: deadlock.explanation.get(lang).to_owned(),
            }),
            found: self.counterexample.as_ref().map(|found| FoundJson {
                counterexample: crate::write::scenario_json(&found.scenario),
                violation: crate::Violation {
                    step: found.step,
                    kind: found.kind,
                }
                .json(),
                schedule: schedule(&found.moves),
                trace: crate::run(&found.scenario).run_json(&found.scenario),
            }),
        }
    }
}

/// The `fencelab explore --json` object (docs/explorers.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportJson<'r> {
    pub verdict: &'static str,
    /// `random` or `exhaustive`.
    pub method: &'static str,
    /// The random explorer's seed; `null` for the exhaustive one.
    pub seed: Option<u64>,
    /// The preset's name, or `custom`.
    pub design: &'static str,
    pub bounds: BoundsJson<'r>,
    pub stats: StatsJson,
    pub exhausted: bool,
    pub explanation: String,
    pub shrinking: Vec<ShrinkJson>,
    /// A takeover that waited on a held row lock, or `null`.
    pub blocked_takeover: Option<BlockedJson>,
    /// A claim refused as a deadlock victim, or `null`.
    pub deadlock: Option<BlockedJson>,
    /// Absent when the verdict is safe (or cancelled).
    #[serde(flatten)]
    pub found: Option<FoundJson<'r>>,
}

/// The bounds and world of a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoundsJson<'r> {
    pub max_time: u8,
    pub max_claims: u8,
    pub max_steps: u16,
    /// Requests in flight at once (0: no delivery delays).
    pub max_in_flight: u8,
    /// Ticks a request may travel.
    pub max_delay: u8,
    /// The exhaustive explorer's cap on distinct states.
    pub max_states: u64,
    /// The caller's wall-clock limit, or `null`.
    pub time_limit_ms: Option<u64>,
    pub workers: Vec<&'r str>,
    pub jobs: u8,
    pub targets: Vec<&'static str>,
    pub ttl: u8,
    pub cancel: bool,
    /// The user may revise a job's input once.
    pub revise: bool,
    pub heartbeat: bool,
    pub stop_on_renew_failure: bool,
    /// How the workers claim: the design's claim procedure.
    pub claim: &'static str,
    /// Whether the scheduler may crash a worker holding a row lock.
    pub crash: bool,
}

/// A takeover that waited on a held row lock: the schedule up to the wait
/// and the wait in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlockedJson {
    pub schedule: Vec<String>,
    pub explanation: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StatsJson {
    pub cases: u32,
    pub states: u64,
    pub transitions: u64,
    pub shrink_steps: u32,
    pub depth: u32,
    pub elapsed_ms: u64,
}

/// One failing schedule met while shrinking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShrinkJson {
    pub moves: usize,
    pub schedule: Vec<String>,
}

/// The counterexample's fields of [`ReportJson`], present together.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FoundJson<'r> {
    /// The scenario, with the keys of a scenario file.
    pub counterexample: crate::json::ScenarioJson<'r>,
    pub violation: crate::json::ViolationJson,
    pub schedule: Vec<String>,
    /// `fencelab run --json` of the counterexample.
    pub trace: crate::json::RunJson<'r>,
}

/// "Safe within bounds" in words.
pub fn safe_sentence(report: &Report, lang: Lang) -> String {
    match report.verdict {
        Verdict::Cancelled => lang
            .pick(
                "The search was cancelled before it could conclude.",
                "搜索已取消，没有结论。",
            )
            .to_owned(),
        Verdict::Incomplete => incomplete_sentence(report, lang),
        _ => concluded_sentence(report, lang),
    }
}

/// [`safe_sentence`] of a search a limit stopped: which one.
fn incomplete_sentence(report: &Report, lang: Lang) -> String {
    let states = report.stats.states;
    match (report.method, lang) {
        (Method::Random { .. }, Lang::En) => format!(
            "Incomplete: {} random schedules tried, no violation found — the time limit ({} s) stopped the search.",
            report.stats.cases,
            report.limits.time_limit_ms.unwrap_or_default() / 1000,
        ),
        (Method::Random { .. }, Lang::Zh) => format!(
            "未完成：已尝试 {} 个随机调度，没有发现违例——搜索被时间上限（{} 秒）截停。",
            report.stats.cases,
            report.limits.time_limit_ms.unwrap_or_default() / 1000,
        ),
        (Method::Exhaustive, Lang::En) if report.stats.out_of_memory => {
            format!(
                "Incomplete: {states} states explored, no violation found — memory ran out: the search's tables (about {} MiB) could not grow. A smaller state cap or smaller bounds need less.",
                report.stats.peak_bytes >> 20,
            )
        }
        (Method::Exhaustive, Lang::Zh) if report.stats.out_of_memory => {
            format!(
                "未完成：已探索 {states} 个状态，没有发现违例——内存不够：搜索的表（约 {} 兆字节）无法再增长。调低状态上限或缩小界限可以少用内存。",
                report.stats.peak_bytes >> 20,
            )
        }
        (Method::Exhaustive, Lang::En) => format!(
            "Incomplete: {states} states explored, no violation found — a limit stopped the search (at most {} states{}).",
            report.limits.max_states,
            report
                .limits
                .time_limit_ms
                .map_or(String::new(), |ms| format!(", {} s", ms / 1000)),
        ),
        (Method::Exhaustive, Lang::Zh) => format!(
            "未完成：已探索 {states} 个状态，没有发现违例——搜索被上限截停（最多 {} 个状态{}）。",
            report.limits.max_states,
            report
                .limits
                .time_limit_ms
                .map_or(String::new(), |ms| format!("，{} 秒", ms / 1000)),
        ),
    }
}

/// [`safe_sentence`] of a search that ended without a violation: proven
/// within bounds (exhaustive) or evidence only (random).
fn concluded_sentence(report: &Report, lang: Lang) -> String {
    let world = &report.world;
    let (time, claims, moves) = (
        world.bounds.max_time,
        world.bounds.max_claims,
        world.bounds.max_steps,
    );
    let states = report.stats.states;
    match (report.method, lang) {
        (Method::Exhaustive, Lang::En) => {
            let cut = if report.exhausted {
                ""
            } else {
                " (the step bound cut some schedules short)"
            };
            let delays = if world.bounds.max_in_flight > 0 {
                format!(
                    ", with up to {} requests in flight, each arriving within {} ticks",
                    world.bounds.max_in_flight, world.bounds.max_delay
                )
            } else {
                String::new()
            };
            format!(
                "Safe within bounds: no violation in any of the {states} distinct states with time ≤ {time}, at most {claims} claims and {moves} moves per schedule{delays}{cut}."
            )
        }
        (Method::Exhaustive, Lang::Zh) => {
            let cut = if report.exhausted {
                ""
            } else {
                "（达到步数上限）"
            };
            let delays = if world.bounds.max_in_flight > 0 {
                format!(
                    "、同时最多 {} 个请求在路上且每个在 {} 个 tick 内到达",
                    world.bounds.max_in_flight, world.bounds.max_delay
                )
            } else {
                String::new()
            };
            format!(
                "在界限内安全：时间 ≤ {time}、最多 {claims} 次领取、每个调度最多 {moves} 步{delays}，共 {states} 个不同状态都没有违例{cut}。"
            )
        }
        (Method::Random { seed, .. }, Lang::En) => format!(
            "No violation in {} random schedules (seed {seed}); that is evidence, not proof — the exhaustive search proves it within bounds.",
            report.stats.cases
        ),
        (Method::Random { seed, .. }, Lang::Zh) => format!(
            "{} 个随机调度（种子 {seed}）都没有违例；这不是证明，穷举搜索才是。",
            report.stats.cases
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Out of memory, the report is `incomplete` and says why, in both
    /// languages (issue 20), instead of the process aborting.
    #[test]
    fn out_of_memory_is_an_incomplete_verdict_with_its_reason() {
        let world = ExplorerSettings::from_json(
            r#"{"workers":4,"jobs":3,"max_time":48,"max_claims":8,"cancel":true,"heartbeat":true}"#,
        )
        .and_then(|settings| settings.world())
        .unwrap();
        let budget = bfs::Budget { cap_bytes: 2 << 20 };
        let report = explore_within(
            &world,
            Method::Exhaustive,
            None,
            Limits::default(),
            &mut RunToEnd,
            budget,
        )
        .unwrap();
        assert_eq!(report.verdict, Verdict::Incomplete);
        assert!(report.stats.out_of_memory);
        let en = safe_sentence(&report, Lang::En);
        assert!(
            en.starts_with("Incomplete: ") && en.contains("memory ran out"),
            "{en}"
        );
        let zh = safe_sentence(&report, Lang::Zh);
        assert!(zh.contains("内存不够"), "{zh}");
        assert_eq!(report.to_json(0, Lang::En)["verdict"], "incomplete");
    }
}
