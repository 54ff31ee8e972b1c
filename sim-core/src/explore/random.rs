//! Random exploration with proptest: schedules are arrays of `u32` choices
//! drawn from a caller-given seed, and a failing schedule is shrunk to a
//! minimal one with proptest's value trees.
//!
//! Only `u32` values are drawn, from fixed-size arrays, never `usize`
//! ranges or `sample::select`: those draw differently on 32-bit wasm than
//! on 64-bit native, and one seed must give one schedule everywhere.

use proptest::prelude::any;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use crate::explore::machine::{Machine, Move};
use crate::explore::world::MAX_SCHEDULE;
use crate::explore::{Control, Phase, Progress, Search};
use crate::trace::ViolationKind;

/// The most shrink iterations after a failure.
const MAX_SHRINK_ITERATIONS: u32 = 4096;

type Choices = [u32; MAX_SCHEDULE];

/// A runner whose configuration is written out in full, so nothing is read
/// from the environment (`Config::default()` reads `PROPTEST_*` variables).
fn runner(seed: u64) -> TestRunner {
    let config = Config {
        cases: 0,
        max_local_rejects: 0,
        max_global_rejects: 0,
        max_flat_map_regens: 0,
        failure_persistence: None,
        source_file: None,
        test_name: None,
        max_shrink_time: 0,
        max_shrink_iters: MAX_SHRINK_ITERATIONS,
        max_default_size_range: 0,
        result_cache: proptest::test_runner::noop_result_cache,
        verbose: 0,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        _non_exhaustive: (),
    };
    let mut bytes = [0u8; 32];
    for (index, chunk) in bytes.chunks_exact_mut(8).enumerate() {
        let word = seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(index as u64 + 1));
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Plays `choices` from the initial state. Each choice `c` picks, among the
/// `n` enabled moves, nothing when `c % (n + 1) == 0` (so shrinking toward 0
/// drops moves) and move `c % (n + 1) - 1` otherwise. Returns the moves made
/// and, if one was an unsafe effect, its kind (the schedule ends there).
pub fn play(machine: &Machine, choices: &[u32]) -> (Vec<Move>, Option<ViolationKind>) {
    let limit = usize::from(machine.world().bounds.max_steps);
    play_to(machine, choices, limit, true)
}

/// [`play`] and [`play_all`]: at most `limit` choices, ending at the
/// first violation when `stop` says so.
fn play_to(
    machine: &Machine,
    choices: &[u32],
    limit: usize,
    stop: bool,
) -> (Vec<Move>, Option<ViolationKind>) {
    let mut state = machine.initial();
    let mut moves = Vec::with_capacity(8);
    let mut played = Vec::new();
    for &choice in choices.iter().take(limit) {
        machine.moves(&state, &mut moves);
        if moves.is_empty() {
            break;
        }
        let pick = choice % (moves.len() as u32 + 1);
        if pick == 0 {
            continue;
        }
        let chosen = moves[pick as usize - 1];
        played.push(chosen);
        if let Some(kind) = machine.apply(&mut state, chosen).violation
            && stop
        {
            return (played, Some(kind));
        }
    }
    (played, None)
}

/// The moves of `played` up to the first state where a takeover waits on a
/// held lock, if one does.
fn blocked_prefix(machine: &Machine, played: &[Move]) -> Option<Vec<Move>> {
    let mut state = machine.initial();
    for (index, &chosen) in played.iter().enumerate() {
        machine.apply(&mut state, chosen);
        if machine.blocked_takeover(&state).is_some() {
            return Some(played[..=index].to_vec());
        }
    }
    None
}

/// The moves of `played` up to the first statement refused as a
/// deadlock, if one was.
fn deadlock_prefix(machine: &Machine, played: &[Move]) -> Option<Vec<Move>> {
    let mut state = machine.initial();
    for (index, &chosen) in played.iter().enumerate() {
        if machine.apply(&mut state, chosen).deadlock {
            return Some(played[..=index].to_vec());
        }
    }
    None
}

/// Runs up to `cases` random schedules; on the first failure, shrinks it.
pub(crate) fn explore(
    machine: &Machine,
    seed: u64,
    cases: u32,
    control: &mut dyn Control,
) -> Search {
    let mut runner = runner(seed);
    let strategy = proptest::array::uniform::<_, MAX_SCHEDULE>(any::<u32>());
    let mut search = Search::default();
    for _ in 0..cases {
        let Ok(mut tree) = strategy.new_tree(&mut runner) else {
            break;
        };
        search.stats.cases += 1;
        let (played, violation) = play(machine, &tree.current());
        search.stats.transitions += played.len() as u64;
        if machine.locks() && search.blocked.is_none() {
            search.blocked = blocked_prefix(machine, &played);
        }
        if machine.can_deadlock() && search.deadlock.is_none() {
            search.deadlock = deadlock_prefix(machine, &played);
        }
        let progress = Progress {
            cases: search.stats.cases,
            transitions: search.stats.transitions,
            ..Progress::default()
        };
        if !control.progress(&progress) {
            search.cancelled = true;
            return search;
        }
        if let Some(kind) = violation {
            search.shrink_history.push(played.clone());
            search.violation = Some((played, kind));
            shrink(machine, &mut tree, &mut search, control);
            return search;
        }
    }
    search
}

/// proptest's shrinking loop: simplify while the case still fails,
/// complicate when it passes, until neither can move.
fn shrink(
    machine: &Machine,
    tree: &mut impl ValueTree<Value = Choices>,
    search: &mut Search,
    control: &mut dyn Control,
) {
    if !tree.simplify() {
        return;
    }
    while search.stats.shrink_steps < MAX_SHRINK_ITERATIONS {
        search.stats.shrink_steps += 1;
        let (played, violation) = play(machine, &tree.current());
        search.stats.transitions += played.len() as u64;
        let stepped = match violation {
            Some(kind) => {
                // Keep the shortest failing schedule seen (proptest's last
                // failure is simplest by its own measure, not always shortest).
                let best_len = search
                    .violation
                    .as_ref()
                    .map_or(usize::MAX, |(b, _)| b.len());
                if played.len() < best_len {
                    search.shrink_history.push(played.clone());
                }
                if played.len() <= best_len {
                    search.violation = Some((played, kind));
                }
                tree.simplify()
            }
            None => tree.complicate(),
        };
        if !stepped {
            break;
        }
        if search.stats.shrink_steps % 64 == 0 {
            let progress = Progress {
                phase: Phase::Shrinking,
                cases: search.stats.cases,
                shrink_steps: search.stats.shrink_steps,
                transitions: search.stats.transitions,
                ..Progress::default()
            };
            if !control.progress(&progress) {
                search.cancelled = true;
                return;
            }
        }
    }
}

/// What a schedule drawn for a practice round is worth
/// ([`draw_schedule`]'s judge).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// Not a puzzle: nothing to refuse, nothing to allow, or not what the
    /// round is for.
    Reject,
    /// A puzzle, but longer than a learner can follow at this level:
    /// shrink it.
    TooLong,
    /// A puzzle of a readable size.
    Good,
}

/// The most schedules a practice round draws before it gives up.
pub const MAX_DRAWS: u32 = 400;

/// The most shrink iterations one drawn practice schedule gets.
const MAX_ROUND_SHRINKS: u32 = 600;

/// Plays `choices` as [`play`] does, but on past a violation: a practice
/// round is a whole story, and what comes after a stale write is part of
/// it. At most `limit` choices are read.
pub fn play_all(machine: &Machine, choices: &[u32], limit: usize) -> Vec<Move> {
    play_to(machine, choices, limit, false).0
}

/// Draws schedules from `seed` (proptest value trees, as the random
/// explorer does) until `judge` calls one [`Fit::Good`]; a puzzle that is
/// [`Fit::TooLong`] is shrunk with proptest's simplify/complicate loop
/// until it is short enough or cannot shrink. `limit` choices are read
/// per schedule. `None` after [`MAX_DRAWS`] schedules.
pub fn draw_schedule(
    machine: &Machine,
    seed: u64,
    limit: usize,
    judge: &mut dyn FnMut(&[Move]) -> Fit,
) -> Option<Vec<Move>> {
    let mut runner = runner(seed);
    let strategy = proptest::array::uniform::<_, MAX_SCHEDULE>(any::<u32>());
    for _ in 0..MAX_DRAWS {
        let mut tree = strategy.new_tree(&mut runner).ok()?;
        let played = play_all(machine, &tree.current(), limit);
        match judge(&played) {
            Fit::Reject => continue,
            Fit::Good => return Some(played),
            Fit::TooLong => {}
        }
        // Often only the end is too much: the longest prefix that is a
        // readable puzzle, before proptest's shrinking.
        if let Some(prefix) = (1..played.len())
            .rev()
            .map(|length| &played[..length])
            .find(|prefix| judge(prefix) == Fit::Good)
        {
            return Some(prefix.to_vec());
        }
        let mut shrinks = 0;
        let mut stepped = tree.simplify();
        while stepped && shrinks < MAX_ROUND_SHRINKS {
            shrinks += 1;
            let played = play_all(machine, &tree.current(), limit);
            stepped = match judge(&played) {
                Fit::Good => return Some(played),
                Fit::TooLong => tree.simplify(),
                Fit::Reject => tree.complicate(),
            };
        }
    }
    None
}
