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

/// The search's tables could not grow: the allocator refused (a memory
/// limit such as `ulimit -v`, or wasm's 4 GiB), or they would pass the
/// [`Budget`]. The search then stops incomplete, saying so, rather than
/// abort the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutOfMemory;

/// Bytes the search's tables may hold in all. Only the allocator limits a
/// real search ([`Budget::UNLIMITED`]); a test sets a small cap to take
/// the out-of-memory path without exhausting the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub(crate) cap_bytes: usize,
}

impl Budget {
    pub(crate) const UNLIMITED: Budget = Budget {
        cap_bytes: usize::MAX,
    };

    /// Whether `extra` more bytes fit beside the `held` ones.
    fn allows(self, held: usize, extra: usize) -> bool {
        held.saturating_add(extra) <= self.cap_bytes
    }
}

/// Makes room for one more element, doubling as `Vec::push` would, but
/// through `try_reserve`: a refused allocation is an error, not an abort.
fn room_for_one<T>(vec: &mut Vec<T>, held: usize, budget: Budget) -> Result<(), OutOfMemory> {
    if vec.len() < vec.capacity() {
        return Ok(());
    }
    let more = vec.capacity().max(16);
    if !budget.allows(held, more.saturating_mul(std::mem::size_of::<T>())) {
        return Err(OutOfMemory);
    }
    vec.try_reserve_exact(more).map_err(|_| OutOfMemory)
}

/// Bytes a vector's buffer holds.
fn bytes_of<T>(vec: &Vec<T>) -> usize {
    vec.capacity() * std::mem::size_of::<T>()
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

    /// Inserts `key` unless present; returns whether it was new. Growing
    /// the set may fail: `held` is what the search's other tables hold.
    fn insert(&mut self, key: u64, held: usize, budget: Budget) -> Result<bool, OutOfMemory> {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow(held, budget)?;
        }
        let mask = self.keys.len() - 1;
        let mut slot = (key as usize) & mask;
        loop {
            match self.keys[slot] {
                0 => {
                    self.keys[slot] = key;
                    self.len += 1;
                    return Ok(true);
                }
                existing if existing == key => return Ok(false),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    /// Doubles the table. While it rehashes, the old and the new arrays
    /// are both held: the budget counts both.
    fn grow(&mut self, held: usize, budget: Budget) -> Result<(), OutOfMemory> {
        let capacity = self.keys.len() * 2;
        let bytes = capacity.saturating_mul(std::mem::size_of::<u64>());
        if !budget.allows(held.saturating_add(self.bytes()), bytes) {
            return Err(OutOfMemory);
        }
        let mut keys = Vec::new();
        keys.try_reserve_exact(capacity).map_err(|_| OutOfMemory)?;
        keys.resize(capacity, 0);
        let old_keys = std::mem::replace(&mut self.keys, keys);
        let mask = capacity - 1;
        for key in old_keys.into_iter().filter(|key| *key != 0) {
            let mut slot = (key as usize) & mask;
            while self.keys[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.keys[slot] = key;
        }
        Ok(())
    }

    fn bytes(&self) -> usize {
        bytes_of(&self.keys)
    }
}

/// Explores every state reachable within the world's bounds, or the first
/// `max_states` of them, or as many as memory holds. Reports the
/// first violation (of kind `want`, if given) breadth-first order meets,
/// which ends a shortest failing schedule.
// Long because it is the search loop itself: expand a level, check each
// move, record new states, report progress; split, the hot loop would
// pass its five tables around.
pub(crate) fn explore(
    machine: &Machine,
    want: Option<ViolationKind>,
    max_states: u64,
    control: &mut dyn Control,
    budget: Budget,
) -> Search {
    let initial = machine.initial();
    let max_depth = machine.world().bounds.max_steps;
    let mut visited = Visited::new();
    // Node i: its parent node and the move that reached it.
    let mut parents: Vec<(u32, u8)> = vec![(u32::MAX, 0)];
    let _ = visited.insert(fingerprint(&initial), 0, Budget::UNLIMITED);
    let mut frontier: Vec<(State, u32)> = vec![(initial, 0)];
    let mut next: Vec<(State, u32)> = Vec::new();
    let mut moves = Vec::with_capacity(8);
    let mut search = Search::default();
    search.stats.states = 1;
    let mut depth: u16 = 0;
    let mut reported = 0;
    // The first state (breadth-first: the nearest) where a takeover waits
    // on a held lock is reported with the verdict.
    let watch_blocked = machine.locks();
    while !frontier.is_empty() && depth < max_depth {
        // The frontier keeps its buffer while it is drained.
        let frontier_bytes = bytes_of(&frontier);
        for (state, node) in frontier.drain(..) {
            machine.moves(&state, &mut moves);
            for &chosen in &moves {
                let mut successor = state;
                let result = machine.apply(&mut successor, chosen);
                search.stats.transitions += 1;
                if result.deadlock && search.deadlock.is_none() {
                    let mut path = path_to(&parents, node);
                    path.push(chosen);
                    search.deadlock = Some(path);
                }
                if let Some(kind) = result.violation.filter(|k| want.is_none_or(|w| w == *k)) {
                    let mut path = path_to(&parents, node);
                    path.push(chosen);
                    search.stats.depth = u32::from(depth) + 1;
                    search.violation = Some((path, kind));
                    search.stats.peak_bytes = visited.bytes() + parents.len() * 8;
                    return search;
                }
                let held = frontier_bytes + bytes_of(&parents) + bytes_of(&next);
                let added = visited
                    .insert(fingerprint(&successor), held, budget)
                    .and_then(|new| {
                        if new {
                            let held = frontier_bytes + visited.bytes() + bytes_of(&next);
                            room_for_one(&mut parents, held, budget)?;
                            let held = frontier_bytes + visited.bytes() + bytes_of(&parents);
                            room_for_one(&mut next, held, budget)?;
                        }
                        Ok(new)
                    });
                match added {
                    Ok(false) => {}
                    Ok(true) => {
                        let id = parents.len() as u32;
                        parents.push((node, chosen.code()));
                        next.push((successor, id));
                        if watch_blocked
                            && search.blocked.is_none()
                            && machine.blocked_takeover(&successor).is_some()
                        {
                            search.blocked = Some(path_to(&parents, id));
                        }
                        search.stats.states += 1;
                        if search.stats.states >= max_states {
                            search.incomplete = true;
                            search.stats.depth = u32::from(depth);
                            search.stats.peak_bytes = visited.bytes() + parents.len() * 8;
                            return search;
                        }
                    }
                    Err(OutOfMemory) => {
                        search.incomplete = true;
                        search.stats.out_of_memory = true;
                        search.stats.depth = u32::from(depth);
                        search.stats.peak_bytes =
                            frontier_bytes + visited.bytes() + bytes_of(&parents) + bytes_of(&next);
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
    /// The state limit (or memory) stopped the search: the sites found
    /// are not all.
    pub incomplete: bool,
    /// Memory ran out: the tables could not grow.
    pub out_of_memory: bool,
    /// Distinct states visited.
    pub states: u64,
    /// Every reachable state was visited before the step bound.
    pub exhausted: bool,
    /// A state is reachable where a takeover waits on a held row lock
    /// (see [`Machine::blocked_takeover`]): a liveness cost, whatever the
    /// sites of violations.
    pub blocked_takeover: bool,
}

/// Visits every state reachable within the world's bounds (or the first
/// `max_states`, or as many as memory holds) and records every violating move's site. Unlike
/// [`explore`] it goes on past a violation: a violation at one target does
/// not stop the world, so later ones elsewhere are reachable too.
pub(crate) fn violation_sites(machine: &Machine, max_states: u64, budget: Budget) -> Sites {
    let initial = machine.initial();
    let max_depth = machine.world().bounds.max_steps;
    let mut visited = Visited::new();
    let _ = visited.insert(fingerprint(&initial), 0, Budget::UNLIMITED);
    let mut frontier: Vec<State> = vec![initial];
    let mut next: Vec<State> = Vec::new();
    let mut moves = Vec::with_capacity(8);
    let mut sites = Sites::default();
    let mut states: u64 = 1;
    let mut depth: u16 = 0;
    let watch_blocked = machine.locks();
    while !frontier.is_empty() && depth < max_depth {
        let frontier_bytes = bytes_of(&frontier);
        for state in frontier.drain(..) {
            machine.moves(&state, &mut moves);
            for &chosen in &moves {
                // A delivery is a write landing at its target: the target
                // is the request's, known before the move takes it.
                let delivered = match chosen {
                    Move::Deliver(slot) => machine.in_flight(&state, slot).map(|(_, t, _)| t),
                    _ => None,
                };
                let mut successor = state;
                let result = machine.apply(&mut successor, chosen);
                if result.violation.is_some() {
                    match (result.op, delivered) {
                        (Some(crate::explore::Op::Write(target)), _) | (_, Some(target)) => {
                            sites.targets |= 1 << target;
                        }
                        _ => sites.job_table = true,
                    }
                }
                let held = frontier_bytes + bytes_of(&next);
                let added = visited
                    .insert(fingerprint(&successor), held, budget)
                    .and_then(|new| {
                        if new {
                            room_for_one(&mut next, frontier_bytes + visited.bytes(), budget)?;
                        }
                        Ok(new)
                    });
                match added {
                    Ok(false) => {}
                    Ok(true) => {
                        if watch_blocked
                            && !sites.blocked_takeover
                            && machine.blocked_takeover(&successor).is_some()
                        {
                            sites.blocked_takeover = true;
                        }
                        next.push(successor);
                        states += 1;
                        if states >= max_states {
                            sites.incomplete = true;
                            sites.states = states;
                            return sites;
                        }
                    }
                    // Not all sites are known: the caller must not call
                    // the design safe.
                    Err(OutOfMemory) => {
                        sites.incomplete = true;
                        sites.out_of_memory = true;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::{ExplorerSettings, RunToEnd};

    /// The largest world the forms offer: millions of states.
    fn largest() -> Machine {
        let settings = ExplorerSettings::from_json(
            r#"{"workers":4,"jobs":3,"targets":["gateway","gateway","gateway","gateway"],
                "max_time":48,"max_claims":8,"cancel":true,"heartbeat":true,"restarted":true}"#,
        )
        .unwrap();
        Machine::new(settings.world().unwrap()).unwrap()
    }

    /// When the tables cannot grow, the search stops incomplete and says
    /// why, holding no more than it may (issue 20: it aborted the process
    /// with "memory allocation of 1,006,632,960 bytes failed").
    #[test]
    fn the_search_stops_incomplete_when_its_tables_cannot_grow() {
        let machine = largest();
        let budget = Budget { cap_bytes: 4 << 20 };
        let search = explore(&machine, None, u64::MAX, &mut RunToEnd, budget);
        assert!(search.incomplete && search.stats.out_of_memory);
        assert!(search.violation.is_none() && !search.cancelled);
        assert!(search.stats.states > 10_000, "{}", search.stats.states);
        assert!(
            search.stats.peak_bytes <= budget.cap_bytes,
            "{} bytes",
            search.stats.peak_bytes
        );
        let sites = violation_sites(&machine, u64::MAX, budget);
        assert!(sites.incomplete && sites.out_of_memory);
        // Unlimited, the same world stops at its state cap instead.
        let search = explore(&machine, None, 20_000, &mut RunToEnd, Budget::UNLIMITED);
        assert!(search.incomplete && !search.stats.out_of_memory);
    }

    /// A growth the allocator cannot give (here: more bytes than the
    /// address space has) is an error the search handles, where `push`
    /// would abort; and the budget refuses before the allocator is asked.
    #[test]
    fn a_refused_allocation_is_an_error_not_an_abort() {
        let mut huge: Vec<[u8; 1 << 60]> = Vec::new();
        assert_eq!(
            room_for_one(&mut huge, 0, Budget::UNLIMITED),
            Err(OutOfMemory)
        );
        let mut small: Vec<u64> = Vec::new();
        assert_eq!(
            room_for_one(&mut small, 0, Budget { cap_bytes: 64 }),
            Err(OutOfMemory)
        );
        assert_eq!(
            room_for_one(&mut small, 0, Budget { cap_bytes: 128 }),
            Ok(())
        );
        assert_eq!(small.capacity(), 16);
    }
}
