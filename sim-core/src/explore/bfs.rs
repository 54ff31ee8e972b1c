//! Exhaustive exploration: breadth-first over distinct states, so the first
//! violation found ends the shortest failing schedule.

use crate::explore::machine::{Machine, Move, State};
use crate::explore::{Control, Progress, Search};
use crate::trace::ViolationKind;

/// How often (in distinct states) progress is reported.
const PROGRESS_EVERY: u64 = 1 << 14;

/// A fixed-key fingerprint of a state: the same state always gives the same
/// number, on every platform, so runs repeat. Never 0 (0 marks empty slots).
pub(crate) fn fingerprint(state: &State) -> u64 {
    let mut hash: u64 = 0x243F_6A88_85A3_08D3;
    for word in state.words() {
        hash = (hash ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        hash ^= hash >> 29;
    }
    hash = (hash ^ (hash >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    hash ^= hash >> 32;
    hash | 1
}

/// An open-addressing set of fingerprints. It holds no node index: nodes
/// are numbered in insertion order, and parent links live in their own
/// vector, so a probe touches one cache line.
struct Visited {
    keys: Vec<u64>,
    len: usize,
}

impl Visited {
    fn new() -> Visited {
        Visited {
            keys: vec![0; 1 << 12],
            len: 0,
        }
    }

    /// Inserts `key` unless present; returns whether it was new.
    fn insert(&mut self, key: u64) -> bool {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut slot = (key as usize) & mask;
        loop {
            match self.keys[slot] {
                0 => {
                    self.keys[slot] = key;
                    self.len += 1;
                    return true;
                }
                existing if existing == key => return false,
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let capacity = self.keys.len() * 2;
        let old_keys = std::mem::replace(&mut self.keys, vec![0; capacity]);
        let mask = capacity - 1;
        for key in old_keys.into_iter().filter(|key| *key != 0) {
            let mut slot = (key as usize) & mask;
            while self.keys[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.keys[slot] = key;
        }
    }

    fn bytes(&self) -> usize {
        self.keys.len() * std::mem::size_of::<u64>()
    }
}

/// Explores every state reachable within the world's bounds, or the first
/// `max_states` of them. Reports the
/// first violation (of kind `want`, if given) breadth-first order meets,
/// which ends a shortest failing schedule.
pub(crate) fn explore(
    machine: &Machine,
    want: Option<ViolationKind>,
    max_states: u64,
    control: &mut dyn Control,
) -> Search {
    let initial = machine.initial();
    let max_depth = machine.world().bounds.max_steps;
    let mut visited = Visited::new();
    // Node i: its parent node and the move that reached it.
    let mut parents: Vec<(u32, u8)> = vec![(u32::MAX, 0)];
    visited.insert(fingerprint(&initial));
    let mut frontier: Vec<(State, u32)> = vec![(initial, 0)];
    let mut next: Vec<(State, u32)> = Vec::new();
    let mut moves = Vec::with_capacity(8);
    let mut search = Search::default();
    search.stats.states = 1;
    let mut depth: u16 = 0;
    let mut reported = 0;
    while !frontier.is_empty() && depth < max_depth {
        for (state, node) in frontier.drain(..) {
            machine.moves(&state, &mut moves);
            for &chosen in &moves {
                let mut successor = state;
                let result = machine.apply(&mut successor, chosen);
                search.stats.transitions += 1;
                if let Some(kind) = result.violation.filter(|k| want.is_none_or(|w| w == *k)) {
                    let mut path = path_to(&parents, node);
                    path.push(chosen);
                    search.stats.depth = u32::from(depth) + 1;
                    search.violation = Some((path, kind));
                    search.stats.peak_bytes = visited.bytes() + parents.len() * 8;
                    return search;
                }
                if visited.insert(fingerprint(&successor)) {
                    let id = parents.len() as u32;
                    parents.push((node, chosen.code()));
                    next.push((successor, id));
                    search.stats.states += 1;
                    if search.stats.states >= max_states {
                        search.incomplete = true;
                        search.stats.depth = u32::from(depth);
                        search.stats.peak_bytes = visited.bytes() + parents.len() * 8;
                        return search;
                    }
                }
            }
            if search.stats.states - reported >= PROGRESS_EVERY {
                reported = search.stats.states;
                let progress = Progress {
                    states: search.stats.states,
                    transitions: search.stats.transitions,
                    depth: u32::from(depth),
                    ..Progress::default()
                };
                if !control.progress(&progress) {
                    search.cancelled = true;
                    return search;
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        if !frontier.is_empty() {
            depth += 1;
        }
        search.stats.depth = u32::from(depth);
    }
    search.stats.peak_bytes = visited.bytes()
        + parents.capacity() * std::mem::size_of::<(u32, u8)>()
        + frontier.capacity().max(next.capacity()) * std::mem::size_of::<(State, u32)>();
    search.exhausted = frontier.is_empty();
    search
}

/// The moves from the initial state to `node`.
fn path_to(parents: &[(u32, u8)], node: u32) -> Vec<Move> {
    let mut path = Vec::new();
    let mut current = node;
    while let Some(&(parent, code)) = parents.get(current as usize) {
        if parent == u32::MAX {
            break;
        }
        path.push(Move::from_code(code));
        current = parent;
    }
    path.reverse();
    path
}

/// Where a world's violations can happen: the job table (claims, renews,
/// finishes) and a bit per target, over every state within the bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sites {
    pub job_table: bool,
    /// Bit `t`: a violating write to target `t` is reachable.
    pub targets: u8,
    /// The state limit stopped the search: the sites found are not all.
    pub incomplete: bool,
    /// Distinct states visited.
    pub states: u64,
    /// Every reachable state was visited before the step bound.
    pub exhausted: bool,
}

/// Visits every state reachable within the world's bounds (or the first
/// `max_states`) and records every violating move's site. Unlike
/// [`explore`] it goes on past a violation: a violation at one target does
/// not stop the world, so later ones elsewhere are reachable too.
pub(crate) fn violation_sites(machine: &Machine, max_states: u64) -> Sites {
    let initial = machine.initial();
    let max_depth = machine.world().bounds.max_steps;
    let mut visited = Visited::new();
    visited.insert(fingerprint(&initial));
    let mut frontier: Vec<State> = vec![initial];
    let mut next: Vec<State> = Vec::new();
    let mut moves = Vec::with_capacity(8);
    let mut sites = Sites::default();
    let mut states: u64 = 1;
    let mut depth: u16 = 0;
    while !frontier.is_empty() && depth < max_depth {
        for state in frontier.drain(..) {
            machine.moves(&state, &mut moves);
            for &chosen in &moves {
                let mut successor = state;
                let result = machine.apply(&mut successor, chosen);
                if result.violation.is_some() {
                    match result.op {
                        Some(crate::explore::Op::Write(target)) => {
                            sites.targets |= 1 << target;
                        }
                        _ => sites.job_table = true,
                    }
                }
                if visited.insert(fingerprint(&successor)) {
                    next.push(successor);
                    states += 1;
                    if states >= max_states {
                        sites.incomplete = true;
                        sites.states = states;
                        return sites;
                    }
                }
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        depth += 1;
    }
    sites.states = states;
    sites.exhausted = frontier.is_empty();
    sites
}
