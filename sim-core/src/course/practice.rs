//! Practice rounds (issue 24): fresh interleavings of a lesson's world,
//! drawn by the random explorer for each learner, marked by the learner
//! and keyed by the oracle, as a mark exercise is.
//!
//! A lesson's `[practice]` table names its world (the design that runs,
//! workers, targets, what the user may do) and the situations a round may
//! be about. A [`RoundKey`] (the pool, the learner's seed, the round's
//! number, its level and the situation it is for) draws one round, always
//! the same one ([`draw_round`]): proptest value trees seeded from the key,
//! played on the explorers' step function, written down as a scenario,
//! shrunk until a learner can follow it, and kept only when it is a good
//! puzzle ([`judge`]). Nothing in a round is written by hand: its key is
//! the oracle's ([`mark_key`]).
//!
//! What the learner did with each round is kept in the progress record
//! ([`crate::course::Progress::practice`]) and everything else — the next
//! round, its level, the situation it is for, the streak, the counts per
//! concept — is computed from it ([`PoolStanding`]), so two records merge
//! as the rest of the record does.

use crate::Lang;
use crate::Outcome;
use crate::course::error::CourseError;
use crate::course::kinds::mark::{MarkKey, mark_candidates, mark_key};
use crate::course::lesson::{Exercise, ExerciseKind, Lesson};
use crate::course::progress::ExerciseProgress;
use crate::explore::{Fit, Machine, Move, World, WorldError, WorldOptions};
use crate::scenario::{Action, Scenario, Text};
use crate::trace::{Trace, ViolationKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a round can be about: a kind of step a safe system must refuse,
/// told apart by how it came to be stale. Each belongs to one concept,
/// the unit the spaced-repetition queue counts.
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
    Serialize,
    Deserialize,
)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// A worker that was paused or slow acts after another worker's newer
    /// claim was granted (C01).
    Takeover,
    /// A restarted process of the same owner took the job over; the old
    /// process acts on (the owner matches, only the token differs: C03).
    Restarted,
    /// An old worker's step after the new holder had finished the job
    /// (C05: the commit checks the state too).
    AfterEnd,
    /// A step after the user cancelled the job (C15).
    Cancel,
    /// A request sent while its generation held the job arrives after it
    /// lost it (C16).
    InFlight,
    /// A result computed from an input the user has since revised (C15).
    Revised,
}

impl Situation {
    pub const ALL: &'static [Situation] = <Situation as strum::VariantArray>::VARIANTS;

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Situation> {
        name.parse().ok()
    }

    /// The oracle's violation a step of this situation is, where it
    /// takes effect.
    pub fn violation(self) -> ViolationKind {
        match self {
            Situation::Takeover
            | Situation::Restarted
            | Situation::InFlight
            | Situation::AfterEnd => ViolationKind::Stale,
            Situation::Cancel => ViolationKind::AfterTerminal,
            Situation::Revised => ViolationKind::StaleInput,
        }
    }

    /// The concept a round about this situation practises.
    pub fn concept(self) -> &'static str {
        match self {
            Situation::Takeover => "C01",
            Situation::Restarted => "C03",
            Situation::AfterEnd => "C05",
            Situation::Cancel | Situation::Revised => "C15",
            Situation::InFlight => "C16",
        }
    }

    /// The situation in a few words.
    pub fn words(self, lang: Lang) -> &'static str {
        match self {
            Situation::Takeover => lang.pick(
                "a stalled worker acting after a takeover",
                "停住的 Worker 在被接管之后继续动作",
            ),
            Situation::Restarted => lang.pick(
                "the old process of a restarted owner acting on",
                "同一个 owner 重启后，旧进程还在动作",
            ),
            Situation::AfterEnd => lang.pick(
                "an old worker's step after the new holder finished the job",
                "新持有者完成任务之后，旧 Worker 的步骤",
            ),
            Situation::Cancel => lang.pick("a step after a cancel", "取消之后的步骤"),
            Situation::InFlight => lang.pick(
                "a request arriving after its sender lost the job",
                "发送者失去任务之后才到达的请求",
            ),
            Situation::Revised => lang.pick(
                "a result from an input the user has revised",
                "用户已修改输入之后、基于旧输入的结果",
            ),
        }
    }
}

/// A lesson's practice world, from its `[practice]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PracticeWorld {
    /// The design that runs (what takes effect) and the world at its
    /// largest: a level takes at most this many workers and targets.
    pub options: WorldOptions,
    /// What a round of this lesson may be about, in the order the queue
    /// first offers them.
    pub situations: Vec<Situation>,
    /// The actions whose steps the learner marks.
    pub candidates: Vec<Action>,
    /// Where the `[practice]` table starts in its file, for lint messages.
    pub line: u32,
    pub col: u32,
}

/// The levels, from 1.
pub const PRACTICE_LEVELS: u8 = 4;

/// How large a round of one level may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSize {
    /// Workers, not counting a restarted incarnation.
    pub workers: u8,
    pub targets: u8,
    /// Scenario steps a round may have at most.
    pub max_steps: usize,
    /// Requests may travel (where the world lets them).
    pub delays: bool,
    pub max_time: u8,
}

const SIZES: [LevelSize; PRACTICE_LEVELS as usize] = [
    LevelSize {
        workers: 2,
        targets: 1,
        max_steps: 7,
        delays: false,
        max_time: 8,
    },
    LevelSize {
        workers: 2,
        targets: 2,
        max_steps: 9,
        delays: true,
        max_time: 10,
    },
    LevelSize {
        workers: 3,
        targets: 2,
        max_steps: 11,
        delays: true,
        max_time: 12,
    },
    LevelSize {
        workers: 3,
        targets: 3,
        max_steps: 14,
        delays: true,
        max_time: 14,
    },
];

/// The size of `level` (clamped to 1..=[`PRACTICE_LEVELS`]).
pub fn level_size(level: u8) -> LevelSize {
    SIZES[usize::from(level.clamp(1, PRACTICE_LEVELS) - 1)]
}

/// Which round: everything that draws it. The same key draws the same
/// round natively and in the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundKey {
    /// The lesson whose practice world it is drawn from.
    pub pool: String,
    /// The learner's seed (the progress record's).
    pub seed: u32,
    /// The round's number in its pool, from 0.
    pub round: u32,
    /// 1..=[`PRACTICE_LEVELS`].
    pub level: u8,
    /// What the round is for.
    pub focus: Situation,
}

impl RoundKey {
    /// The seed proptest draws from: the key's fields mixed (FNV-1a over
    /// the pool's bytes, then each number), the same on every platform.
    pub fn draw_seed(&self) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |byte: u8| {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        };
        for byte in self.pool.bytes() {
            eat(byte);
        }
        eat(0xff);
        for byte in self.seed.to_le_bytes() {
            eat(byte);
        }
        for byte in self.round.to_le_bytes() {
            eat(byte);
        }
        eat(self.level);
        eat(Situation::ALL
            .iter()
            .position(|s| *s == self.focus)
            .unwrap_or(0) as u8);
        hash
    }

    /// The exercise id of the round (`round-3`), as progress keeps it.
    pub fn exercise_id(&self) -> String {
        format!("round-{}", self.round)
    }

    /// The id of the round's lesson (`practice/01-…`), as progress keeps it.
    pub fn lesson_id(&self) -> String {
        practice_lesson_id(&self.pool)
    }
}

/// The id of a pool's practice rounds' lesson.
pub fn practice_lesson_id(pool: &str) -> String {
    format!("{PRACTICE_PREFIX}{pool}")
}

/// Lesson ids of practice rounds start with this.
pub const PRACTICE_PREFIX: &str = "practice/";

/// A drawn round: its scenario, and what the oracle says of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub key: RoundKey,
    pub scenario: Scenario,
    pub candidates: Vec<Action>,
    /// The situations its must-refuse steps show.
    pub situations: Vec<Situation>,
    /// Candidate steps a safe system must refuse.
    pub refuse: usize,
    /// Candidate steps it must allow.
    pub allow: usize,
}

/// Why a round cannot be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PracticeError {
    /// The lesson has no `[practice]` table.
    NoPracticeWorld(String),
    /// The situation is not one this lesson's rounds are about.
    NotInWorld(Situation),
    World(WorldError),
    /// No good puzzle came out of the draws (a world too small for its
    /// situations; `fencelab lint` checks every lesson's).
    NoPuzzle,
}

impl PracticeError {
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (PracticeError::NoPracticeWorld(id), Lang::En) => {
                format!("lesson `{id}` has no practice world (no `[practice]` table)")
            }
            (PracticeError::NoPracticeWorld(id), Lang::Zh) => {
                format!("课程 `{id}` 没有练习世界（没有 `[practice]` 表）")
            }
            (PracticeError::NotInWorld(s), Lang::En) => {
                format!("this lesson's practice rounds are not about `{}`", s.name())
            }
            (PracticeError::NotInWorld(s), Lang::Zh) => {
                format!("这一课的练习轮次不涉及 `{}`", s.name())
            }
            (PracticeError::World(why), lang) => why.message(lang),
            (PracticeError::NoPuzzle, Lang::En) => format!(
                "no good puzzle within {} drawn schedules",
                crate::explore::MAX_DRAWS * DRAW_RUNS
            ),
            (PracticeError::NoPuzzle, Lang::Zh) => format!(
                "抽取了 {} 个调度，都不是合适的题目",
                crate::explore::MAX_DRAWS * DRAW_RUNS
            ),
        }
    }
}

impl std::fmt::Display for PracticeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for PracticeError {}

/// The explorers' world of `practice` at `level`.
/// A round about a request in flight has delays at every level.
pub fn level_world(
    practice: &PracticeWorld,
    level: u8,
    focus: Situation,
) -> Result<World, WorldError> {
    world_of(practice, level, focus, true)
}

/// The world of a level; `mixed`: at the top level, everything the world
/// offers at once (else only what the focus needs).
fn world_of(
    practice: &PracticeWorld,
    level: u8,
    focus: Situation,
    mixed: bool,
) -> Result<World, WorldError> {
    let size = level_size(level);
    let mut options = practice.options.clone();
    // What the world offers beyond workers and targets comes in with the
    // situation that needs it, and all of it at the top level: a cancel or
    // a request in flight in every round would crowd out the others.
    let top = mixed && level >= PRACTICE_LEVELS;
    options.allow_cancel &= top || focus == Situation::Cancel;
    options.allow_revise &= top || focus == Situation::Revised;
    options.restarted &= level >= 3 || focus == Situation::Restarted;
    let extra = u8::from(options.restarted);
    // A round about a restart: the old process, its restart and one other
    // worker, so the restart is the takeover to find.
    let workers = if focus == Situation::Restarted {
        2
    } else {
        size.workers
    };
    options.workers = (workers.min(options.workers) + extra).min(4);
    let available = options.targets.as_ref().map_or(2, Vec::len) as u8;
    let targets = size.targets.min(available).max(1);
    options.targets = Some(vec![options.design.target_protect; usize::from(targets)]);
    options.bounds.max_time = size.max_time;
    if !(top && size.delays) && focus != Situation::InFlight {
        options.bounds.max_in_flight = 0;
    }
    options.world()
}

/// What the oracle says of a drawn scenario: every candidate's key and the
/// situations of the steps to refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    pub keys: Vec<(u32, MarkKey)>,
    pub situations: Vec<Situation>,
    /// A step to refuse only because a stale step ended the job before it
    /// (the stale end should never have happened), or a worker turned away
    /// more than once: not a fair or readable puzzle.
    pub murky: bool,
}

impl Puzzle {
    pub fn refuse(&self) -> usize {
        self.keys
            .iter()
            .filter(|(_, k)| *k == MarkKey::MustRefuse)
            .count()
    }

    pub fn allow(&self) -> usize {
        self.keys
            .iter()
            .filter(|(_, k)| *k == MarkKey::MustAllow)
            .count()
    }
}

/// Runs `scenario` and judges its candidate steps.
pub fn judge(scenario: &Scenario, candidates: &[Action]) -> Puzzle {
    let trace = crate::run(scenario);
    let keys: Vec<(u32, MarkKey)> = mark_candidates(scenario, candidates)
        .into_iter()
        .map(|index| (index, mark_key(scenario, &trace, index)))
        .collect();
    let found: Vec<Option<Situation>> = trace
        .should_reject
        .iter()
        .map(|&index| situation_of(scenario, &trace, index))
        .collect();
    // A worker turned away more than once is noise a learner must read
    // past: no round is built on it.
    let mut turned_away: BTreeMap<u16, u32> = BTreeMap::new();
    for (step, done) in scenario.steps.iter().zip(&trace.steps) {
        if matches!(step.action, Action::Claim | Action::ClaimNext)
            && done.outcome != Outcome::Ok
            && let Some(worker) = step.worker
        {
            *turned_away.entry(worker).or_default() += 1;
        }
    }
    let murky = found.iter().any(Option::is_none) || turned_away.values().any(|n| *n > 1);
    let mut situations: Vec<Situation> = found.into_iter().flatten().collect();
    situations.sort_unstable();
    situations.dedup();
    Puzzle {
        keys,
        situations,
        murky,
    }
}

/// How step `index`, which a safe system must refuse, came to be stale.
fn situation_of(scenario: &Scenario, trace: &Trace, index: u32) -> Option<Situation> {
    let step = scenario.steps.get(index as usize)?;
    let record = trace.steps.get(index as usize)?;
    if step.action == Action::Deliver {
        return Some(Situation::InFlight);
    }
    let earlier = || {
        scenario
            .steps
            .iter()
            .zip(&trace.steps)
            .take(index as usize)
            .filter(|(_, done)| done.job.is_some() && done.job == record.job)
    };
    if let (Some(generation), Some(newest)) = (record.generation, record.newest_generation)
        && generation < newest
    {
        // The newest holder: the worker of the claim that granted it.
        let newest_owner = earlier()
            .filter(|(s, done)| {
                matches!(
                    s.action,
                    Action::Claim | Action::ClaimNext | Action::UpdateClaim
                ) && done.generation == Some(newest)
            })
            .find_map(|(s, _)| s.worker)
            .and_then(|w| scenario.workers.get(usize::from(w)))
            .map(|w| w.owner);
        let own_owner = step
            .worker
            .and_then(|w| scenario.workers.get(usize::from(w)))
            .map(|w| w.owner);
        if newest_owner.is_some() && newest_owner == own_owner {
            return Some(Situation::Restarted);
        }
        // The new holder had already finished (or failed) the job, in its
        // own right: the old worker writes over a job that is over.
        let ended_by_newest = earlier().any(|(s, done)| {
            matches!(s.action, Action::Finish | Action::Fail)
                && done.outcome == Outcome::Ok
                && done.generation == Some(newest)
        });
        return Some(if ended_by_newest {
            Situation::AfterEnd
        } else {
            Situation::Takeover
        });
    }
    let happened = |action: Action| {
        earlier().any(|(s, done)| s.action == action && done.outcome == Outcome::Ok)
    };
    if happened(Action::Cancel) {
        return Some(Situation::Cancel);
    }
    if happened(Action::Revise) {
        return Some(Situation::Revised);
    }
    // Ended by a step that was itself stale: a safe system would have
    // refused that end, so this step's key would hang on a write that
    // should never have happened. No round is built on that.
    let ended_by = earlier()
        .enumerate()
        .filter(|(_, (s, done))| {
            matches!(s.action, Action::Finish | Action::Fail) && done.outcome == Outcome::Ok
        })
        .map(|(at, _)| at as u32)
        .last();
    match ended_by {
        Some(at) if trace.should_reject.contains(&at) => None,
        _ => Some(Situation::AfterEnd),
    }
}

/// Whether playing `moves` meets a violation of kind `wanted`: a design
/// that protects no target lets every stale write through, so a schedule
/// without one has no step about the round's situation to refuse.
fn violates(machine: &Machine, moves: &[Move], wanted: ViolationKind) -> bool {
    let mut state = machine.initial();
    moves
        .iter()
        .any(|&chosen| machine.apply(&mut state, chosen).violation == Some(wanted))
}

/// A worker doing the same thing twice at one tick (a claim retried
/// before any time passed): noise a learner must read past.
fn repeats(scenario: &Scenario) -> bool {
    scenario.steps.iter().enumerate().any(|(index, step)| {
        step.worker.is_some()
            && matches!(step.action, Action::Claim | Action::ClaimNext)
            && scenario.steps[..index].iter().any(|earlier| {
                earlier.at == step.at
                    && earlier.worker == step.worker
                    && earlier.action == step.action
                    && earlier.target == step.target
            })
    })
}

/// How many workers act in `scenario`.
fn actors(scenario: &Scenario) -> usize {
    let mut seen: Vec<u16> = scenario.steps.iter().filter_map(|s| s.worker).collect();
    seen.sort_unstable();
    seen.dedup();
    seen.len()
}

/// Draws the round of `key` from `practice` (the lesson `key.pool`'s
/// world): schedules drawn from the key's seed until one is a good puzzle
/// of the level's size about `key.focus` — at least one candidate step to
/// refuse and one to allow, at least two workers acting, at most the
/// level's steps (a longer puzzle is shrunk).
pub fn draw_round(practice: &PracticeWorld, key: &RoundKey) -> Result<Round, PracticeError> {
    if !practice.situations.contains(&key.focus) {
        return Err(PracticeError::NotInWorld(key.focus));
    }
    // At the top level everything the world offers is mixed in; where
    // that crowds the situation out, the round is drawn without the rest.
    let mut last = Err(PracticeError::NoPuzzle);
    for mixed in [true, false] {
        if !mixed && key.level < PRACTICE_LEVELS {
            break;
        }
        let world =
            world_of(practice, key.level, key.focus, mixed).map_err(PracticeError::World)?;
        // The mixed world gets one run of draws: where it crowds the
        // situation out, the focused world finds one sooner.
        let runs = if mixed && key.level >= PRACTICE_LEVELS {
            1
        } else {
            DRAW_RUNS
        };
        last = draw_in(practice, key, world, runs);
        if last.is_ok() {
            break;
        }
    }
    last
}

/// [`draw_round`] in one world.
fn draw_in(
    practice: &PracticeWorld,
    key: &RoundKey,
    world: World,
    runs: u32,
) -> Result<Round, PracticeError> {
    let machine = Machine::new(world).map_err(PracticeError::World)?;
    let size = level_size(key.level);
    let id = format!("practice-{}-{}-{}", key.pool, key.seed, key.round);
    let title = round_title(key);
    let build = |moves: &[Move]| {
        let played = crate::explore::schedule_scenario(&machine, moves, &id, title.clone());
        let mut scenario = played.scenario;
        // A claim turned away changes nothing; a worker's first one is part
        // of the story (it tried too early), the rest are noise.
        let mut turned_away = [false; crate::explore::MAX_WORKERS];
        let mut keep = played
            .results
            .iter()
            .zip(&scenario.steps)
            .map(|(result, step)| {
                let refused_claim =
                    matches!(step.action, Action::Claim | Action::ClaimNext) && !result.applied;
                match step.worker.map(usize::from) {
                    Some(worker) if refused_claim && worker < turned_away.len() => {
                        !std::mem::replace(&mut turned_away[worker], true)
                    }
                    _ => true,
                }
            });
        let kept: Vec<bool> = keep.by_ref().collect();
        let mut flags = kept.into_iter();
        scenario.steps.retain(|_| flags.next().unwrap_or(true));
        scenario
    };
    // The oracle's kind of violation the focus needs, for a quick look at
    // the machine's own verdicts before the scenario is built and run.
    let wanted = key.focus.violation();
    let mut judge_moves = |moves: &[Move]| {
        if practice.options.design.target_protect == crate::design::Protect::None
            && !violates(&machine, moves, wanted)
        {
            return Fit::Reject;
        }
        let scenario = build(moves);
        if repeats(&scenario) {
            return Fit::Reject;
        }
        let puzzle = judge(&scenario, &practice.candidates);
        let good = !puzzle.murky
            && puzzle.refuse() >= 1
            && puzzle.allow() >= 1
            && actors(&scenario) >= 2
            && puzzle.situations.contains(&key.focus);
        match (good, scenario.steps.len() <= size.max_steps) {
            (false, _) => Fit::Reject,
            (true, true) => Fit::Good,
            (true, false) => Fit::TooLong,
        }
    };
    // Enough choices for the level's steps and the ticks between them.
    let limit = size.max_steps * 3;
    // A rare world needs more draws: a few more runs of them, each seeded
    // on from the key, so the round is still the key's alone.
    let moves = (0..runs)
        .find_map(|run| {
            let seed = key
                .draw_seed()
                .wrapping_add(u64::from(run).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            crate::explore::draw_schedule(&machine, seed, limit, &mut judge_moves)
        })
        .ok_or(PracticeError::NoPuzzle)?;
    let scenario = with_pauses(build(&moves));
    let puzzle = judge(&scenario, &practice.candidates);
    Ok(Round {
        key: key.clone(),
        refuse: puzzle.refuse(),
        allow: puzzle.allow(),
        situations: puzzle.situations,
        candidates: practice.candidates.clone(),
        scenario,
    })
}

/// The story told: where another worker's claim was granted between two
/// steps of a worker, that worker was stalled across it — a `pause` after
/// its earlier step and a `resume` before its later one, at the same ticks.
/// The engine does nothing for either (they only draw the stalled stretch
/// on the timeline), so every other step's result and key stay as they were.
pub fn with_pauses(mut scenario: Scenario) -> Scenario {
    let trace = crate::run(&scenario);
    let granted: Vec<(u64, Option<u16>)> = scenario
        .steps
        .iter()
        .zip(&trace.steps)
        .filter(|(step, done)| {
            matches!(
                step.action,
                Action::Claim | Action::ClaimNext | Action::UpdateClaim
            ) && done.outcome == Outcome::Ok
        })
        .map(|(step, _)| (step.at, step.worker))
        .collect();
    // (index of the earlier step, index of the later step) per stall.
    let mut stalls: Vec<(usize, usize)> = Vec::new();
    let mut last_of: BTreeMap<u16, usize> = BTreeMap::new();
    for (index, step) in scenario.steps.iter().enumerate() {
        let Some(worker) = step.worker else {
            continue;
        };
        if let Some(&before) = last_of.get(&worker) {
            let from = scenario.steps[before].at;
            let taken_over = granted.iter().any(|(at, by)| {
                *by != Some(worker) && *at >= from && *at <= step.at && step.at > from
            });
            if taken_over {
                stalls.push((before, index));
            }
        }
        last_of.insert(worker, index);
    }
    if stalls.is_empty() {
        return scenario;
    }
    let mut steps = Vec::with_capacity(scenario.steps.len() + 2 * stalls.len());
    for (index, step) in scenario.steps.iter().enumerate() {
        if let Some((before, _)) = stalls.iter().find(|(_, after)| *after == index) {
            let _ = before;
            steps.push(crate::scenario::Step::new(
                step.at,
                step.worker,
                Action::Resume,
            ));
        }
        steps.push(step.clone());
        if stalls.iter().any(|(before, _)| *before == index) {
            steps.push(crate::scenario::Step::new(
                step.at,
                step.worker,
                Action::Pause,
            ));
        }
    }
    scenario.steps = steps;
    scenario
}

/// Runs of [`crate::explore::MAX_DRAWS`] draws before a round gives up.
const DRAW_RUNS: u32 = 4;

/// "Practice round 4 · level 2".
pub fn round_title(key: &RoundKey) -> Text {
    Text {
        en: format!("Practice round {} · level {}", key.round + 1, key.level),
        zh: format!("练习第 {} 轮 · 第 {} 级", key.round + 1, key.level),
    }
}

/// The round as a lesson of one mark exercise, so the course's exercise
/// screen, feedback and worked solution serve it unchanged.
pub fn round_lesson(key: &RoundKey, scenario: Scenario, candidates: Vec<Action>) -> Lesson {
    let concept = key.focus.concept().to_owned();
    let exercise = Exercise {
        id: key.exercise_id(),
        kind: ExerciseKind::Mark {
            scenario: 0,
            candidates,
        },
        concepts: vec![concept.clone()],
        title: Some(round_title(key)),
        section: None,
        prompt: Text {
            en: format!(
                "A fresh timeline, drawn for you; this round is about {}. Workers may stall at any moment (a pause, a slow network), so a gap in a worker's steps can hide one. Whatever this design let through, mark the steps a safe system must refuse.",
                key.focus.words(Lang::En)
            ),
            zh: format!(
                "一条为你新抽取的时间线；这一轮关于：{}。Worker 随时可能停住（一次暂停、一段慢网络），所以某个 Worker 步骤之间的空档里可能就藏着一次停顿。不管这个设计放行了什么，标出一个安全的系统必须拒绝的步骤。",
                key.focus.words(Lang::Zh)
            ),
        },
        hints: vec![
            Text {
                en: "For each marked step, ask which claim the worker acts on, and whether a newer claim of the job was granted before the step ran.".to_owned(),
                zh: "对每个要判断的步骤都问一句：这个 Worker 是凭哪一次领取在行动？这一步执行之前，这个任务有没有更新的领取已经成功？".to_owned(),
            },
            Text {
                en: "A step must also be refused when the job had already ended, been cancelled or had its input revised before it; a request counts where and when it arrives.".to_owned(),
                zh: "如果任务在这一步之前已经结束、被取消或输入被修改，这一步也必须被拒绝；一个请求按它到达的地点和时刻来判断。".to_owned(),
            },
        ],
        takeaway: Text {
            en: "The key came from the oracle, which judges every step by its generation alone: a lease that ran out replaced nobody; a newer claim, an ended job, a cancel or a revised input did.".to_owned(),
            zh: "答案来自判定器，它只按代次判断每一步：租约过期本身没有取代任何人；取代旧代次的是更新的领取、已经结束的任务、取消，或被修改的输入。".to_owned(),
        },
        line: 0,
        col: 0,
    };
    Lesson {
        id: key.lesson_id(),
        order: 0,
        title: round_title(key),
        summary: Text::default(),
        concepts: vec![concept],
        sections: Vec::new(),
        scenarios: vec![("round".to_owned(), scenario)],
        exercises: vec![exercise],
        practice: None,
    }
}

// ---- standing, from the record --------------------------------------------

/// What the progress record says of one pool's rounds, computed from the
/// rounds kept there (`Progress::practice`): what the next round is and
/// how the learner stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PoolStanding {
    /// The round to show now: the last one drawn if it is not finished,
    /// else the next number.
    pub round: u32,
    /// The current round is one drawn before and not yet finished.
    pub open: bool,
    pub level: u8,
    /// Rounds right at the first try, counted back from the last
    /// finished one.
    pub streak: u32,
    /// Rounds finished (solved, or the solution shown).
    pub finished: u32,
    /// Rounds right at the first try.
    pub right_first: u32,
    /// Per concept: (finished, right at the first try).
    pub concepts: BTreeMap<String, (u32, u32)>,
}

/// A round of the record, as the standing needs it.
fn record_level(record: &ExerciseProgress) -> u8 {
    record
        .unknown
        .get("level")
        .and_then(serde_json::Value::as_u64)
        .map_or(1, |l| l.clamp(1, u64::from(PRACTICE_LEVELS)) as u8)
}

fn record_focus(record: &ExerciseProgress) -> Option<Situation> {
    record
        .unknown
        .get("focus")
        .and_then(serde_json::Value::as_str)
        .and_then(Situation::from_name)
}

/// Finished: solved, or its worked solution was shown.
fn finished(record: &ExerciseProgress) -> bool {
    record.completed || record.solution_seen
}

/// Right at the first try, on its own.
fn right_first(record: &ExerciseProgress) -> bool {
    record.completed && record.attempts == 1 && !record.with_solution && !record.solution_seen
}

/// The rounds of a pool in the record, by number.
pub fn pool_rounds(rounds: &BTreeMap<String, ExerciseProgress>) -> Vec<(u32, &ExerciseProgress)> {
    let mut numbered: Vec<(u32, &ExerciseProgress)> = rounds
        .iter()
        .filter_map(|(id, record)| {
            id.strip_prefix("round-")
                .and_then(|n| n.parse().ok())
                .map(|n| (n, record))
        })
        .collect();
    numbered.sort_by_key(|(n, _)| *n);
    numbered
}

/// The standing of a pool from its rounds: two rounds right at the first
/// try in a row raise the level, a round not right at the first try
/// lowers it (never below 1, never above [`PRACTICE_LEVELS`]).
pub fn pool_standing(rounds: &BTreeMap<String, ExerciseProgress>) -> PoolStanding {
    let numbered = pool_rounds(rounds);
    let mut level = 1u8;
    let mut in_a_row = 0u32;
    let mut streak = 0u32;
    let mut finished_count = 0u32;
    let mut right_count = 0u32;
    let mut concepts: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for (_, record) in numbered.iter().filter(|(_, r)| finished(r)) {
        finished_count += 1;
        let right = right_first(record);
        if let Some(focus) = record_focus(record) {
            let entry = concepts.entry(focus.concept().to_owned()).or_default();
            entry.0 += 1;
            entry.1 += u32::from(right);
        }
        if right {
            right_count += 1;
            streak += 1;
            in_a_row += 1;
            if in_a_row >= 2 {
                level = (record_level(record) + 1).min(PRACTICE_LEVELS);
                in_a_row = 0;
            } else {
                level = record_level(record);
            }
        } else {
            streak = 0;
            in_a_row = 0;
            level = record_level(record).saturating_sub(1).max(1);
        }
    }
    let (round, open) = match numbered.last() {
        Some((n, record)) if !finished(record) => (*n, true),
        Some((n, _)) => (n + 1, false),
        None => (0, false),
    };
    if open && let Some((_, record)) = numbered.last() {
        level = record_level(record);
    }
    PoolStanding {
        round,
        open,
        level,
        streak,
        finished: finished_count,
        right_first: right_count,
        concepts,
    }
}

/// The situation the next round of a pool is for: a Leitner queue per
/// concept over the pool's finished rounds. A concept right at the first
/// try moves up a box and waits 2^box rounds before it comes back; a
/// wrong one goes back to the first box and is due at once. The most
/// overdue concept wins, ties in the lesson's order; the situation is the
/// first of that concept the lesson lists (rotating among them when it
/// has several).
pub fn next_focus(
    situations: &[Situation],
    rounds: &BTreeMap<String, ExerciseProgress>,
) -> Option<Situation> {
    let numbered = pool_rounds(rounds);
    if let Some((_, record)) = numbered.last()
        && !finished(record)
        && let Some(focus) = record_focus(record)
        && situations.contains(&focus)
    {
        return Some(focus);
    }
    let mut concepts: Vec<&'static str> = Vec::new();
    for situation in situations {
        if !concepts.contains(&situation.concept()) {
            concepts.push(situation.concept());
        }
    }
    // Per concept: its box, the round it was last seen in, and how often.
    let mut boxes: BTreeMap<&str, (u32, Option<usize>, usize)> = BTreeMap::new();
    let done: Vec<&ExerciseProgress> = numbered
        .iter()
        .map(|(_, r)| *r)
        .filter(|r| finished(r))
        .collect();
    for (index, record) in done.iter().enumerate() {
        let Some(focus) = record_focus(record) else {
            continue;
        };
        let entry = boxes.entry(focus.concept()).or_insert((0, None, 0));
        entry.0 = if right_first(record) { entry.0 + 1 } else { 0 };
        entry.1 = Some(index);
        entry.2 += 1;
    }
    let now = done.len();
    let concept = concepts
        .iter()
        .enumerate()
        .max_by_key(|(order, concept)| {
            let (level, last, _) = boxes.get(*concept).copied().unwrap_or((0, None, 0));
            // Never seen: due first, in the lesson's order.
            let overdue: i64 = match last {
                None => i64::MAX / 2,
                Some(last) => {
                    let waited = (now - last) as i64;
                    // A miss (box 0) is due at once; box b waits 2^b rounds.
                    let wait = if level == 0 { 0 } else { 1i64 << level.min(10) };
                    waited - wait
                }
            };
            (overdue, std::cmp::Reverse(*order))
        })
        .map(|(_, c)| *c)?;
    let of_concept: Vec<Situation> = situations
        .iter()
        .copied()
        .filter(|s| s.concept() == concept)
        .collect();
    let seen = boxes.get(concept).map_or(0, |b| b.2);
    of_concept.get(seen % of_concept.len().max(1)).copied()
}

/// Reading a lesson's `[practice]` table.
impl crate::parse::Reader<'_> {
    pub(crate) fn practice_world(
        &mut self,
        value: &crate::parse::Value<'_>,
    ) -> Option<PracticeWorld> {
        use crate::parse::{name, words};
        let table = self.table(value, &name("`practice`"))?;
        const KEYS: [&str; 4] = ["design", "situations", "candidates", "world"];
        let fields = self.fields(table, value.span(), &KEYS, &name("`practice`"));
        let (design, source) = match fields.get(0) {
            Some(value) => self.design(value)?,
            None => (
                crate::Preset::TtlLockOnly.design(),
                crate::scenario::DesignSource::Preset(crate::Preset::TtlLockOnly),
            ),
        };
        let mut options = WorldOptions::new(design, source);
        let situations_value = self.required(
            &fields,
            1,
            "situations",
            &words("the `practice` table", "`practice` 表"),
        )?;
        let entries = self.array(situations_value, &name("`practice.situations`"))?;
        let mut situations = Vec::new();
        for entry in entries {
            if let Some(situation) = self.choice(
                entry,
                &words("situation", "情形"),
                Situation::ALL,
                Situation::name,
            ) && !situations.contains(&situation)
            {
                situations.push(situation);
            }
        }
        if situations.is_empty() {
            self.error(
                situations_value.span(),
                words(
                    "`practice.situations` names at least one situation",
                    "`practice.situations` 至少要列出一种情形",
                ),
            );
        }
        let candidates = match fields.get(2) {
            Some(value) => self.candidates(value)?,
            None => vec![Action::Write, Action::Finish],
        };
        let resources = match fields.get(3) {
            Some(value) => self.world_table(value, &mut options)?.0,
            None => vec![crate::resource::ResourceKind::Generic; 2],
        };
        options.targets = Some(vec![design.target_protect; resources.len().max(1)]);
        let (line, col) = crate::parse::line_col(self.text, value.span().start);
        let practice = PracticeWorld {
            options,
            situations,
            candidates,
            line,
            col,
        };
        let problem = practice
            .situations
            .iter()
            .find_map(|&focus| level_world(&practice, PRACTICE_LEVELS, focus).err());
        if let Some(problem) = problem {
            self.error(
                value.span(),
                words(
                    format!("the practice world is invalid: {problem}"),
                    format!("练习世界无效：{}", problem.message(Lang::Zh)),
                ),
            );
            return None;
        }
        Some(practice)
    }
}

// ---- the session ------------------------------------------------------------

/// A concept's practice counts, as the review shows them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConceptCount {
    pub concept: String,
    pub name: &'static str,
    pub finished: u32,
    pub right_first: u32,
    /// "3 of 4 right at the first try".
    pub words: String,
}

/// A pool's practice as both front ends show it: the round to play now
/// and the learner's standing, in the learner's language.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PracticeView {
    /// The lesson whose world the rounds are drawn from.
    pub pool: String,
    pub pool_title: String,
    /// "Practice" / "练习".
    pub heading: String,
    /// The round to draw and open next (the open one while it is not
    /// finished), and the exercise open now (else the key's).
    pub key: RoundKey,
    pub lesson: String,
    pub exercise: String,
    /// "Round 4 · level 2 · about: …".
    pub round_line: String,
    pub level: u8,
    pub streak: u32,
    pub finished: u32,
    pub right_first: u32,
    /// "Streak 2 · 5 rounds · 4 right at the first try".
    pub standing_line: String,
    /// The same in a few words, for a header: "practice 1 · round 4 ·
    /// level 2/4" and "streak 2 · 4/5 right".
    pub header: String,
    pub standing_short: String,
    pub concepts: Vec<ConceptCount>,
    /// What practice is, in one sentence.
    pub about: String,
    /// The round open now is finished: the next one may be drawn.
    pub round_finished: bool,
    pub next_button: String,
}

/// Every pool's practice, for the review screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PracticeReview {
    pub heading: String,
    pub pools: Vec<PracticeView>,
    /// Per concept over all pools.
    pub concepts: Vec<ConceptCount>,
    /// The best streak now running in any pool, in words.
    pub streak_line: String,
}

/// "1 round", "3 rounds".
fn rounds_en(count: u32) -> String {
    if count == 1 {
        "1 round".to_owned()
    } else {
        format!("{count} rounds")
    }
}

fn count_words(finished: u32, right: u32, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{right} of {finished} right at the first try"),
        Lang::Zh => format!("{finished} 轮中 {right} 轮一次答对"),
    }
}

fn concept_counts(counts: &BTreeMap<String, (u32, u32)>, lang: Lang) -> Vec<ConceptCount> {
    counts
        .iter()
        .map(|(concept, (finished, right))| ConceptCount {
            concept: concept.clone(),
            name: crate::course::concept_name(concept, lang).unwrap_or(""),
            finished: *finished,
            right_first: *right,
            words: count_words(*finished, *right, lang),
        })
        .collect()
}

static NO_ROUNDS: BTreeMap<String, ExerciseProgress> = BTreeMap::new();

impl crate::course::CourseSession {
    /// The lessons with a practice world, in course order.
    pub fn practice_pools(&self) -> Vec<&Lesson> {
        self.lessons
            .iter()
            .filter(|lesson| lesson.practice.is_some())
            .collect()
    }

    fn practice_world(&self, pool: &str) -> Result<(&Lesson, &PracticeWorld), CourseError> {
        let lesson = self
            .lessons
            .iter()
            .find(|lesson| lesson.id == pool)
            .ok_or_else(|| CourseError::NoLesson(pool.to_owned()))?;
        let practice = lesson.practice.as_ref().ok_or_else(|| {
            CourseError::Practice(PracticeError::NoPracticeWorld(pool.to_owned()))
        })?;
        Ok((lesson, practice))
    }

    /// The round `pool` shows now: the open round if one is drawn and not
    /// finished, else the next, at the level the learner's rounds earned
    /// and about the situation the queue says is due.
    pub fn practice_key(&self, pool: &str) -> Result<RoundKey, CourseError> {
        let (_, practice) = self.practice_world(pool)?;
        let rounds = self.progress.practice.get(pool).unwrap_or(&NO_ROUNDS);
        let standing = pool_standing(rounds);
        let focus = next_focus(&practice.situations, rounds)
            .or(practice.situations.first().copied())
            .ok_or(CourseError::Practice(PracticeError::NoPuzzle))?;
        Ok(RoundKey {
            pool: pool.to_owned(),
            seed: self.progress.seed.unwrap_or(0),
            round: standing.round,
            level: standing.level,
            focus,
        })
    }

    /// The round `pool` shows now ([`CourseSession::practice_key`]), drawn
    /// and opened. The page draws in its explorer worker and hands the
    /// round over with [`CourseSession::open_practice_toml`] instead.
    pub fn open_next_practice(&mut self, pool: &str) -> Result<RoundKey, CourseError> {
        let key = self.practice_key(pool)?;
        let (_, practice) = self.practice_world(pool)?;
        let round = draw_round(practice, &key).map_err(CourseError::Practice)?;
        self.open_practice(&key, round.scenario)?;
        Ok(key)
    }

    /// The round of `key` drawn, whatever the record says (for teachers
    /// and `fencelab practice`).
    pub fn practice_round(&self, key: &RoundKey) -> Result<Round, CourseError> {
        let (_, practice) = self.practice_world(&key.pool)?;
        draw_round(practice, key).map_err(CourseError::Practice)
    }

    /// A practice answer graded as a teacher sees it (`fencelab grade`):
    /// the round of `key` drawn again, the marks (`mark`'s JSON, step
    /// indices) graded by the oracle's key. The record is not touched.
    pub fn grade_practice(
        &self,
        key: &RoundKey,
        marks: &serde_json::Value,
    ) -> Result<(Round, crate::course::Grade), CourseError> {
        let round = self.practice_round(key)?;
        let lesson = round_lesson(key, round.scenario.clone(), round.candidates.clone());
        let exercise = lesson
            .exercises
            .first()
            .ok_or(CourseError::MissingScenario)?;
        let answer = crate::course::answer_from_json(&lesson, exercise, marks)?;
        let grade = crate::course::grade(&lesson, exercise, &answer)?;
        Ok((round, grade))
    }

    /// Opens a drawn round of `key` (which must be the round its pool
    /// shows now) with its scenario, and records the round's level and
    /// situation.
    pub fn open_practice(&mut self, key: &RoundKey, scenario: Scenario) -> Result<(), CourseError> {
        let expected = self.practice_key(&key.pool)?;
        if *key != expected {
            return Err(CourseError::PracticeRound(format!(
                "round {} of `{}` is not the one to play now (round {})",
                key.round, key.pool, expected.round
            )));
        }
        let (_, practice) = self.practice_world(&key.pool)?;
        let candidates = practice.candidates.clone();
        let puzzle = judge(&scenario, &candidates);
        if puzzle.refuse() == 0 || puzzle.allow() == 0 {
            return Err(CourseError::PracticeRound(
                "its timeline has no step to refuse or none to allow".to_owned(),
            ));
        }
        let record = self
            .progress
            .exercise_mut(&key.lesson_id(), &key.exercise_id());
        record
            .unknown
            .entry("level".to_owned())
            .or_insert_with(|| serde_json::Value::from(key.level));
        record
            .unknown
            .entry("focus".to_owned())
            .or_insert_with(|| serde_json::Value::from(key.focus.name()));
        let lesson_id = key.lesson_id();
        let exercise_id = key.exercise_id();
        self.shown
            .retain(|(lesson, _), _| lesson.as_str() != lesson_id.as_str());
        self.making
            .retain(|(lesson, _), _| lesson.as_str() != lesson_id.as_str());
        let _ = exercise_id;
        self.practice = Some(round_lesson(key, scenario, candidates));
        self.practice_key = Some(key.clone());
        Ok(())
    }

    /// [`CourseSession::open_practice`] for a round the page's worker drew:
    /// the key as JSON and the scenario as TOML.
    pub fn open_practice_toml(
        &mut self,
        key_json: &str,
        toml: &str,
    ) -> Result<RoundKey, CourseError> {
        let key: RoundKey = serde_json::from_str(key_json)
            .map_err(|error| CourseError::PracticeRound(error.to_string()))?;
        let scenario = crate::parse_scenario(toml.as_bytes()).map_err(|diagnostics| {
            CourseError::PracticeRound(
                diagnostics
                    .first()
                    .map(|d| d.display_in(Lang::En))
                    .unwrap_or_default(),
            )
        })?;
        self.open_practice(&key, scenario)?;
        Ok(key)
    }

    /// The round open now as its lesson of one mark exercise, if any.
    pub fn open_round_lesson(&self) -> Option<&Lesson> {
        self.practice.as_ref()
    }

    /// The round open now, if any: its key's lesson and exercise ids.
    pub fn open_round(&self) -> Option<(&str, &str)> {
        let lesson = self.practice.as_ref()?;
        Some((lesson.id.as_str(), lesson.exercises.first()?.id.as_str()))
    }

    /// A pool's practice as the front ends show it.
    pub fn practice_view(&self, pool: &str, lang: Lang) -> Result<PracticeView, CourseError> {
        let (lesson, _) = self.practice_world(pool)?;
        let key = self.practice_key(pool)?;
        let rounds = self.progress.practice.get(pool).unwrap_or(&NO_ROUNDS);
        let standing = pool_standing(rounds);
        // The round open now in this pool, if one is: finished, the next
        // may be drawn.
        let open = self
            .practice
            .as_ref()
            .filter(|round| round.id == key.lesson_id())
            .and_then(|round| round.exercises.first())
            .map(|exercise| exercise.id.clone());
        let round_finished = open.as_ref().is_some_and(|id| {
            self.progress
                .exercise(&key.lesson_id(), id)
                .is_some_and(finished)
        });
        // The round the learner is on: the open one, else the next.
        let shown = self
            .practice_key
            .as_ref()
            .filter(|open| open.pool == pool)
            .unwrap_or(&key);
        Ok(PracticeView {
            pool: pool.to_owned(),
            pool_title: lesson.title.get(lang).to_owned(),
            heading: lang.pick("Practice", "练习").to_owned(),
            lesson: key.lesson_id(),
            exercise: open.unwrap_or_else(|| key.exercise_id()),
            round_line: match lang {
                Lang::En => format!(
                    "Round {} · level {} of {PRACTICE_LEVELS} · about {}",
                    shown.round + 1,
                    shown.level,
                    shown.focus.words(lang)
                ),
                Lang::Zh => format!(
                    "第 {} 轮 · 第 {} 级（共 {PRACTICE_LEVELS} 级）· 关于：{}",
                    shown.round + 1,
                    shown.level,
                    shown.focus.words(lang)
                ),
            },
            level: shown.level,
            streak: standing.streak,
            finished: standing.finished,
            right_first: standing.right_first,
            standing_line: match lang {
                Lang::En => format!(
                    "streak {} · {} · {}",
                    standing.streak,
                    rounds_en(standing.finished),
                    count_words(standing.finished, standing.right_first, lang)
                ),
                Lang::Zh => format!(
                    "连对 {} · 已完成 {} 轮 · {}",
                    standing.streak,
                    standing.finished,
                    count_words(standing.finished, standing.right_first, lang)
                ),
            },
            header: match lang {
                Lang::En => format!(
                    "Practice {} · round {} · level {}/{PRACTICE_LEVELS}",
                    lesson.order,
                    shown.round + 1,
                    shown.level
                ),
                Lang::Zh => format!(
                    "练习 {} · 第 {} 轮 · 第 {}/{PRACTICE_LEVELS} 级",
                    lesson.order,
                    shown.round + 1,
                    shown.level
                ),
            },
            standing_short: match lang {
                Lang::En => format!(
                    "streak {} · {}/{} right",
                    standing.streak, standing.right_first, standing.finished
                ),
                Lang::Zh => format!(
                    "连对 {} · 一次答对 {}/{}",
                    standing.streak, standing.right_first, standing.finished
                ),
            },
            concepts: concept_counts(&standing.concepts, lang),
            about: lang
                .pick(
                    "Endless practice: every round is a fresh timeline of this lesson's world, drawn for you and keyed by the oracle. Two rounds right at the first try raise the level; a miss brings its concept back sooner.",
                    "无尽练习：每一轮都是为你从本课的世界里新抽取的时间线，答案由判定器给出。连续两轮一次答对就升一级；答错的概念会更早再出现。",
                )
                .to_owned(),
            round_finished,
            next_button: lang.pick("Next round", "下一轮").to_owned(),
            key,
        })
    }

    /// Every pool's practice and the counts per concept, for the review.
    pub fn practice_review(&self, lang: Lang) -> PracticeReview {
        let pools: Vec<PracticeView> = self
            .practice_pools()
            .iter()
            .filter_map(|lesson| self.practice_view(&lesson.id, lang).ok())
            .collect();
        let mut totals: BTreeMap<String, (u32, u32)> = BTreeMap::new();
        for pool in &pools {
            for count in &pool.concepts {
                let entry = totals.entry(count.concept.clone()).or_default();
                entry.0 += count.finished;
                entry.1 += count.right_first;
            }
        }
        let best = pools.iter().map(|p| p.streak).max().unwrap_or(0);
        PracticeReview {
            heading: lang.pick("Practice", "练习").to_owned(),
            concepts: concept_counts(&totals, lang),
            streak_line: match lang {
                Lang::En => format!(
                    "best streak running: {best} · {} in all",
                    rounds_en(pools.iter().map(|p| p.finished).sum::<u32>())
                ),
                Lang::Zh => format!(
                    "当前最长连对：{best} · 共完成 {} 轮",
                    pools.iter().map(|p| p.finished).sum::<u32>()
                ),
            },
            pools,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished round about `focus`, right at the first try or not.
    fn round(focus: Situation, level: u8, right: bool) -> ExerciseProgress {
        let mut record = ExerciseProgress {
            completed: true,
            attempts: if right { 1 } else { 2 },
            ..ExerciseProgress::default()
        };
        record
            .unknown
            .insert("focus".to_owned(), serde_json::Value::from(focus.name()));
        record
            .unknown
            .insert("level".to_owned(), serde_json::Value::from(level));
        record
    }

    fn rounds(list: &[(Situation, u8, bool)]) -> BTreeMap<String, ExerciseProgress> {
        list.iter()
            .enumerate()
            .map(|(n, (s, l, r))| (format!("round-{n}"), round(*s, *l, *r)))
            .collect()
    }

    const LESSON_12: [Situation; 3] =
        [Situation::Takeover, Situation::Restarted, Situation::Cancel];

    #[test]
    fn concepts_never_seen_come_first_in_the_lessons_order() {
        let none = BTreeMap::new();
        assert_eq!(next_focus(&LESSON_12, &none), Some(Situation::Takeover));
        let one = rounds(&[(Situation::Takeover, 1, true)]);
        assert_eq!(next_focus(&LESSON_12, &one), Some(Situation::Restarted));
        let two = rounds(&[
            (Situation::Takeover, 1, true),
            (Situation::Restarted, 1, true),
        ]);
        assert_eq!(next_focus(&LESSON_12, &two), Some(Situation::Cancel));
    }

    #[test]
    fn a_miss_brings_its_concept_back_before_the_ones_answered_right() {
        // All three seen once; the restart was missed: it is due first.
        let seen = rounds(&[
            (Situation::Takeover, 1, true),
            (Situation::Restarted, 1, false),
            (Situation::Cancel, 1, true),
        ]);
        assert_eq!(next_focus(&LESSON_12, &seen), Some(Situation::Restarted));
        // Answered right twice, a concept waits longer than one right once.
        let boxes = rounds(&[
            (Situation::Takeover, 1, true),
            (Situation::Takeover, 1, true),
            (Situation::Restarted, 1, true),
            (Situation::Cancel, 1, true),
        ]);
        assert_ne!(next_focus(&LESSON_12, &boxes), Some(Situation::Takeover));
    }

    #[test]
    fn two_right_in_a_row_raise_the_level_and_a_miss_lowers_it() {
        let standing = pool_standing(&rounds(&[
            (Situation::Takeover, 1, true),
            (Situation::Takeover, 1, true),
        ]));
        assert_eq!((standing.round, standing.level, standing.streak), (2, 2, 2));
        let missed = pool_standing(&rounds(&[
            (Situation::Takeover, 2, true),
            (Situation::Takeover, 3, false),
        ]));
        assert_eq!((missed.level, missed.streak, missed.right_first), (2, 0, 1));
        let top = pool_standing(&rounds(&[
            (Situation::Takeover, 4, true),
            (Situation::Takeover, 4, true),
        ]));
        assert_eq!(top.level, PRACTICE_LEVELS, "never above the top");
    }

    #[test]
    fn an_open_round_is_shown_again_at_its_own_level_and_focus() {
        let mut open = rounds(&[(Situation::Takeover, 1, true)]);
        let mut unfinished = round(Situation::Cancel, 3, false);
        unfinished.completed = false;
        unfinished.attempts = 1;
        open.insert("round-1".to_owned(), unfinished);
        let standing = pool_standing(&open);
        assert_eq!(
            (standing.round, standing.open, standing.level),
            (1, true, 3)
        );
        assert_eq!(next_focus(&LESSON_12, &open), Some(Situation::Cancel));
    }
}
