//! Peer cross-check: sim-core's breadth-first explorer against the
//! `stateright` model checker running the same step function
//! ([`sim_core::explore::Machine`]) as a [`stateright::Model`].
//!
//! On safe worlds both must visit exactly the same number of distinct
//! states (the initial one included) and, since neither prunes
//! anything else, stateright's count of generated states (repeats
//! included) must be our transition count plus the initial state. Our
//! search stops at the first violation and stateright at the first
//! discovery, so counts are only comparable on safe worlds; for an unsafe
//! one we only check that both find a violation and that stateright's
//! shortest counterexample is as long as ours.
//!
//! stateright runs single-threaded, with no depth or state-count target
//! and no timeout; our step bound (`max_steps`) is far beyond these
//! worlds' depth, which `report.exhausted` confirms.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

#[path = "../peer/mod.rs"]
mod peer;

use sim_core::Preset;
use sim_core::explore::{Method, RunToEnd, Verdict, World, classification, explore};
use stateright::{Checker, Model};

use peer::{NO_VIOLATION, Peer};

/// What the two checkers found in one world.
#[derive(Debug)]
struct Counts {
    ours_states: u64,
    ours_transitions: u64,
    ours_depth: u32,
    peer_unique: usize,
    peer_generated: usize,
    peer_depth: usize,
}

fn compare_safe(name: &str, world: &World) -> Counts {
    let report = explore(world, Method::Exhaustive, &mut RunToEnd).expect("valid world");
    assert_eq!(report.verdict, Verdict::Safe, "{name}: our verdict");
    assert!(report.exhausted, "{name}: our search hit the step bound");
    assert!(
        report.stats.depth < u32::from(world.bounds.max_steps),
        "{name}: depth {} reaches the step bound",
        report.stats.depth
    );

    let checker = Peer::new(world.clone())
        .expect("valid world")
        .checker()
        .threads(1)
        .spawn_bfs()
        .join();
    assert!(checker.is_done(), "{name}: stateright did not finish");
    assert!(
        checker.discovery(NO_VIOLATION).is_none(),
        "{name}: stateright found a counterexample our search missed: {:?}",
        checker.discovery(NO_VIOLATION)
    );
    let counts = Counts {
        ours_states: report.stats.states,
        ours_transitions: report.stats.transitions,
        ours_depth: report.stats.depth,
        peer_unique: checker.unique_state_count(),
        peer_generated: checker.state_count(),
        peer_depth: checker.max_depth(),
    };
    assert_eq!(
        counts.ours_states, counts.peer_unique as u64,
        "{name}: distinct states differ: {counts:?}"
    );
    assert_eq!(
        counts.ours_transitions + 1,
        counts.peer_generated as u64,
        "{name}: transitions differ: {counts:?}"
    );
    // stateright numbers the initial state's depth 1, we number it 0.
    assert_eq!(
        u64::from(counts.ours_depth) + 1,
        counts.peer_depth as u64,
        "{name}: depths differ: {counts:?}"
    );
    counts
}

#[test]
fn stateright_agrees_on_safe_worlds() {
    // The classification table's `full` row: two workers, two targets,
    // cancel allowed, time ≤ 12, three claims.
    let mut full = World::preset(Preset::Full, 2);
    full.allow_cancel = true;

    // Three workers, registered-token targets, no cancel, a shorter clock.
    let mut registered = World::preset(Preset::FencedRegistered, 3);
    registered.bounds.max_time = 8;

    // Four workers on the job table alone, more claims, a longer clock.
    let mut conditional = World::preset(Preset::DbConditional, 4);
    conditional.targets.clear();
    conditional.bounds.max_time = 10;
    conditional.bounds.max_claims = 4;

    // Heartbeats (renew before every write) with three workers and cancel.
    let mut heartbeat = World::preset(Preset::Full, 3);
    heartbeat.allow_cancel = true;
    heartbeat.heartbeat = true;
    heartbeat.bounds.max_time = 6;

    for (name, world) in [
        ("full, 2 workers, cancel, time<=12, claims<=3", &full),
        (
            "fenced-registered, 3 workers, time<=8, claims<=3",
            &registered,
        ),
        (
            "db-conditional job table only, 4 workers, time<=10, claims<=4",
            &conditional,
        ),
        (
            "full + heartbeat, 3 workers, cancel, time<=6, claims<=3",
            &heartbeat,
        ),
    ] {
        let counts = compare_safe(name, world);
        println!("{name}: {counts:?}");
    }
}

/// Every safe row of the classification table, in its own world. The
/// claim procedures' rows are included: the peer runs the same step
/// function, row locks and waiting statements (not offered as moves) and
/// all, so it needs nothing of its own for them.
#[test]
fn stateright_agrees_on_the_safe_classification_rows() {
    for case in classification() {
        let report = explore(&case.world, Method::Exhaustive, &mut RunToEnd).expect("valid world");
        if report.verdict == Verdict::Safe {
            let counts = compare_safe(&case.name, &case.world);
            println!("{} ({}): {counts:?}", case.name, case.world_note.en);
        } else {
            // Unsafe: both must find one, stateright's BFS path (initial state
            // included) as short as ours.
            let checker = Peer::new(case.world.clone())
                .expect("valid world")
                .checker()
                .threads(1)
                .spawn_bfs()
                .join();
            let path = checker
                .discovery(NO_VIOLATION)
                .unwrap_or_else(|| panic!("{}: stateright found no violation", case.name));
            let ours = report.counterexample.expect("unsafe has a counterexample");
            let theirs = path.into_actions().len();
            assert_eq!(
                theirs,
                ours.moves.len(),
                "{}: shortest counterexample lengths differ",
                case.name
            );
            println!(
                "{} ({}): unsafe, shortest counterexample {theirs} moves in both",
                case.name, case.world_note.en
            );
        }
    }
}
