//! The explorers: the classification table, pinned counterexample lengths
//! and state counts, replay of every counterexample through the engine, the
//! step function against the engine, and determinism.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use sim_core::explore::{
    Case, Machine, Method, Move, Report, RunToEnd, Verdict, World, classification, explore,
    play_choices, schedule_scenario,
};
use sim_core::{ClaimProcedure, Outcome, Preset, Text, ViolationKind, run};

fn exhaustive(world: &World) -> Report {
    explore(world, Method::Exhaustive, &mut RunToEnd).unwrap()
}

fn case(name: &str, note: &str) -> Case {
    classification()
        .into_iter()
        .find(|c| c.name == name && c.world_note.en == note)
        .unwrap_or_else(|| panic!("no case {name} / {note}"))
}

/// Replays a report's counterexample through the engine: the violation must
/// be there, at the reported step, of the reported kind.
#[track_caller]
fn assert_replays(report: &Report) {
    let Some(found) = &report.counterexample else {
        panic!("no counterexample");
    };
    let text = sim_core::scenario_to_toml(&found.scenario);
    let reparsed = sim_core::parse_scenario(text.as_bytes())
        .unwrap_or_else(|e| panic!("counterexample does not parse: {e:?}\n{text}"));
    assert_eq!(reparsed, found.scenario, "the TOML round-trips");
    let trace = run(&reparsed);
    assert!(
        trace
            .violations
            .iter()
            .any(|v| v.step == found.step && v.kind == found.kind),
        "engine does not see {:?} at step {}: {:?}\n{text}",
        found.kind,
        found.step,
        trace.violations
    );
    let first = trace.violations.iter().map(|v| v.step).min();
    assert_eq!(
        first,
        Some(found.step),
        "the violation is the schedule's first"
    );
}

/// (design, world note, shortest counterexample length) for every case the
/// article says is unsafe; `None` for the ones it says are safe, with their
/// exact distinct-state count.
const TABLE: [(&str, &str, Result<usize, u64>); 24] = [
    ("ttl-lock-only", "two targets", Ok(6)),
    ("client-check", "two targets", Ok(7)),
    ("idempotency-only", "two targets", Ok(6)),
    ("fenced-highest-seen", "two targets", Ok(6)),
    ("fenced-registered", "two targets", Err(3017)),
    ("db-conditional", "job table only", Err(1221)),
    ("full", "two targets, cancel allowed", Err(6285)),
    ("fenced-registered", "two targets, cancel allowed", Ok(3)),
    (
        "custom: commit without fence",
        "job table only, B is a restarted A (same owner)",
        Ok(6),
    ),
    (
        "custom: random tokens, highest-seen targets",
        "two targets",
        Ok(6),
    ),
    (
        "custom: no state predicate",
        "job table only, cancel allowed",
        Ok(3),
    ),
    // Requests that travel: a sending gateway is as safe as `full` only
    // while writes are instantaneous.
    ("sending-gateway", "two targets, cancel allowed", Err(6285)),
    (
        "sending-gateway",
        "two targets, cancel allowed, requests delayed",
        Ok(4),
    ),
    (
        "full",
        "two targets, cancel allowed, requests delayed",
        Err(130_609),
    ),
    (
        "fenced-registered",
        "two targets, requests delayed",
        Err(65_713),
    ),
    (
        "custom: registered tokens, cancel epoch",
        "two targets, cancel allowed, requests delayed",
        Err(130_609),
    ),
    // How a worker claims, where no pause outlasts a lease: only a read
    // and a separate update lets two workers hold one live lease.
    ("claim: atomic", SHORT_LEASE_WORLD, Err(63)),
    ("claim: read_then_update", SHORT_LEASE_WORLD, Ok(5)),
    (
        "claim: select_for_update",
        "ttl-lock-only, 3 workers, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)",
        Err(834),
    ),
    (
        "claim: skip_locked",
        "ttl-lock-only, 3 workers, 2 jobs, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)",
        Err(10_674),
    ),
    (
        "claim: nowait",
        "ttl-lock-only, 3 workers, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)",
        Err(834),
    ),
    // Each claim locks both rows: safe either way; only the own order can
    // deadlock (see below).
    ("claim: lock_both_own_order", TWO_ROWS_WORLD, Err(661)),
    ("claim: lock_both_id_order", TWO_ROWS_WORLD, Err(652)),
    (
        "claim: held_across_work",
        "ttl-lock-only, two targets, leases can run out (time ≤ 12): a takeover waits on the held lock",
        Err(2288),
    ),
];

/// The world of the claim rows that lock both rows.
const TWO_ROWS_WORLD: &str =
    "ttl-lock-only, 2 jobs, a claim locks both rows, no pause outlasts a lease (time ≤ 2, TTL 3)";

/// Two claims that lock both rows, each in its own order, can deadlock:
/// the exhaustive explorer finds the shortest such schedule (both begin,
/// each locks its favourite row, one asks for the other's and waits, the
/// other asks for the first's), and the engine replays it: the statement
/// that closes the cycle is rejected with `deadlock`, and the waiting read
/// runs at that tick. In id order no schedule deadlocks. The random
/// explorer finds one too, and its scenario replays the same way.
#[test]
fn claims_that_lock_two_rows_in_their_own_orders_deadlock_and_in_id_order_never() {
    let replays = |deadlock: &sim_core::explore::Deadlock| {
        let text = sim_core::scenario_to_toml(&deadlock.scenario);
        let reparsed = sim_core::parse_scenario(text.as_bytes()).unwrap();
        let trace = run(&reparsed);
        let refused = &trace.steps[deadlock.step as usize];
        assert_eq!(refused.outcome, Outcome::Rejected, "{text}");
        assert_eq!(refused.reason, Some(sim_core::Reason::Deadlock), "{text}");
        let at = reparsed.steps[deadlock.step as usize].at;
        let ran: Vec<_> = trace
            .steps
            .iter()
            .filter(|record| record.waited_until == Some(at))
            .collect();
        assert_eq!(ran.len(), 1, "one waiting read ran at the deadlock\n{text}");
        assert_eq!(ran[0].outcome, Outcome::Ok, "{text}");
        assert!(trace.violations.is_empty(), "{text}");
    };
    let own = case("claim: lock_both_own_order", TWO_ROWS_WORLD).world;
    let report = exhaustive(&own);
    assert_eq!(report.verdict, Verdict::Safe);
    let deadlock = report.deadlock.as_ref().expect("a deadlock");
    assert_eq!(deadlock.moves.len(), 6, "{:?}", deadlock.moves);
    replays(deadlock);
    assert!(
        deadlock.explanation.en.contains("ORDER BY id") && deadlock.explanation.zh.contains("死锁"),
        "{:?}",
        deadlock.explanation
    );
    let random = explore(
        &own,
        Method::Random {
            seed: 1,
            cases: 256,
        },
        &mut RunToEnd,
    )
    .unwrap();
    replays(
        random
            .deadlock
            .as_ref()
            .expect("the random explorer meets one"),
    );
    let id = case("claim: lock_both_id_order", TWO_ROWS_WORLD).world;
    let report = exhaustive(&id);
    assert_eq!(report.verdict, Verdict::Safe);
    assert!(report.deadlock.is_none(), "{:?}", report.deadlock);
    // The other claim procedures lock one row: none deadlocks either.
    for case in classification() {
        if case.world.design.claim != ClaimProcedure::LockBothOwnOrder {
            assert!(exhaustive(&case.world).deadlock.is_none(), "{}", case.name);
        }
    }
}

/// The claim rows' world where no pause outlasts a lease.
const SHORT_LEASE_WORLD: &str =
    "ttl-lock-only, two targets, no pause outlasts a lease (time ≤ 2, TTL 3)";

#[test]
fn the_classification_table_matches_the_article() {
    assert_eq!(classification().len(), TABLE.len());
    for (name, note, expected) in TABLE {
        let report = exhaustive(&case(name, note).world);
        match expected {
            Ok(length) => {
                assert_eq!(
                    report.verdict,
                    Verdict::Unsafe,
                    "{name} ({note}) must be unsafe"
                );
                let found = report.counterexample.as_ref().map(|c| c.moves.len());
                assert_eq!(
                    found,
                    Some(length),
                    "{name} ({note}): shortest counterexample"
                );
                assert_replays(&report);
            }
            Err(states) => {
                assert_eq!(
                    report.verdict,
                    Verdict::Safe,
                    "{name} ({note}) must be safe"
                );
                assert!(
                    report.exhausted,
                    "{name}: the step bound must not cut the search"
                );
                assert_eq!(
                    report.stats.states, states,
                    "{name} ({note}): distinct states"
                );
            }
        }
    }
}

#[test]
fn the_weakness_each_unsafe_case_shows_is_the_one_the_article_names() {
    let kind = |name: &str, note: &str| {
        exhaustive(&case(name, note).world)
            .counterexample
            .map(|c| (c.kind, c.explanation.en))
    };
    let Some((stale, text)) = kind("fenced-highest-seen", "two targets") else {
        panic!("safe?")
    };
    assert_eq!(stale, ViolationKind::Stale);
    assert!(text.contains("had not written here yet"), "{text}");
    let Some((after, text)) = kind(
        "custom: no state predicate",
        "job table only, cancel allowed",
    ) else {
        panic!("safe?")
    };
    assert_eq!(after, ViolationKind::AfterTerminal);
    assert!(text.contains("`state`"), "{text}");
    let Some((_, text)) = kind(
        "custom: commit without fence",
        "job table only, B is a restarted A (same owner)",
    ) else {
        panic!("safe?")
    };
    assert!(text.contains("false but not checked: `fence`"), "{text}");
    let Some((_, text)) = kind("idempotency-only", "two targets") else {
        panic!("safe?")
    };
    assert!(text.contains("idempotency key"), "{text}");
}

#[test]
fn proptest_finds_and_shrinks_a_counterexample_for_every_unsafe_case() {
    for (name, note, expected) in TABLE {
        let Ok(shortest) = expected else { continue };
        let world = case(name, note).world;
        let report = explore(
            &world,
            Method::Random {
                seed: 7,
                cases: 256,
            },
            &mut RunToEnd,
        )
        .unwrap();
        assert_eq!(report.verdict, Verdict::Unsafe, "{name} ({note})");
        assert_replays(&report);
        let found = report.counterexample.as_ref().map_or(0, |c| c.moves.len());
        assert!(
            found >= shortest,
            "{name}: shorter than breadth-first's shortest?"
        );
        let history: Vec<usize> = report.shrink_history.iter().map(Vec::len).collect();
        assert!(
            history.windows(2).all(|w| w[0] > w[1]),
            "shrinking only shortens: {history:?}"
        );
        assert_eq!(history.last().copied(), Some(found));
    }
}

#[test]
fn random_exploration_of_a_safe_design_answers_safe() {
    let report = explore(
        &World::preset(Preset::FencedRegistered, 2),
        Method::Random { seed: 3, cases: 64 },
        &mut RunToEnd,
    )
    .unwrap();
    assert_eq!(report.verdict, Verdict::Safe);
    assert_eq!(report.stats.cases, 64);
    assert!(report.counterexample.is_none());
}

#[test]
fn the_same_seed_gives_byte_identical_json() {
    let world = World::preset(Preset::IdempotencyOnly, 3);
    let json = |seed| {
        let report = explore(&world, Method::Random { seed, cases: 256 }, &mut RunToEnd).unwrap();
        serde_json::to_string(&report.to_json(0, sim_core::Lang::En)).unwrap_or_default()
    };
    assert_eq!(json(11), json(11));
    let exhaustive_json = |_: u8| {
        serde_json::to_string(&exhaustive(&world).to_json(0, sim_core::Lang::Zh))
            .unwrap_or_default()
    };
    assert_eq!(exhaustive_json(0), exhaustive_json(1));
}

#[test]
fn a_search_stops_when_the_caller_says_so() {
    let mut world = World::preset(Preset::Full, 4);
    world.bounds.max_time = 16;
    let mut calls = 0;
    let mut stop_at_second = |_: &sim_core::explore::Progress| {
        calls += 1;
        calls < 2
    };
    let report = explore(&world, Method::Exhaustive, &mut stop_at_second).unwrap();
    assert_eq!(report.verdict, Verdict::Cancelled);
    assert!(report.stats.states > 0 && report.stats.states < 362_689);
}

#[test]
fn a_search_past_its_state_cap_or_time_is_incomplete() {
    use sim_core::explore::{Limits, explore_limited};
    let mut world = World::preset(Preset::Full, 4);
    world.bounds.max_time = 16;
    let limits = Limits {
        max_states: 1000,
        time_limit_ms: None,
    };
    let report =
        explore_limited(&world, Method::Exhaustive, None, limits, &mut RunToEndCheck).unwrap();
    assert_eq!(report.verdict, Verdict::Incomplete);
    assert_eq!(report.stats.states, 1000);
    assert!(report.counterexample.is_none());
    let json = report.to_json(0, sim_core::Lang::En);
    assert_eq!(json["verdict"], "incomplete");
    assert_eq!(json["bounds"]["max_states"], 1000);
    assert!(
        json["explanation"]
            .as_str()
            .is_some_and(|e| e.starts_with("Incomplete: 1000 states explored, no violation found")),
        "{json}"
    );

    /// Stops at its first progress report, as a caller whose clock ran out.
    struct OutOfTime;
    impl sim_core::explore::Control for OutOfTime {
        fn progress(&mut self, _: &sim_core::explore::Progress) -> bool {
            false
        }
        fn out_of_time(&self) -> bool {
            true
        }
    }
    let timed = Limits {
        max_states: u64::MAX,
        time_limit_ms: Some(1),
    };
    let report = explore_limited(&world, Method::Exhaustive, None, timed, &mut OutOfTime).unwrap();
    assert_eq!(report.verdict, Verdict::Incomplete);
    assert_eq!(
        report.to_json(0, sim_core::Lang::En)["bounds"]["time_limit_ms"],
        1
    );
}

/// Never stops.
struct RunToEndCheck;
impl sim_core::explore::Control for RunToEndCheck {
    fn progress(&mut self, _: &sim_core::explore::Progress) -> bool {
        true
    }
}

#[test]
fn invalid_worlds_are_errors_not_panics() {
    let mut world = World::preset(Preset::Full, 2);
    world.ttl = 0;
    assert!(explore(&world, Method::Exhaustive, &mut RunToEnd).is_err());
    let mut world = World::preset(Preset::Full, 2);
    world.bounds.max_time = 200;
    assert!(Machine::new(world).is_err());
}

/// The step function and the engine agree: any schedule, written down as a
/// scenario, gives the same outcome for every step and the same first
/// violation.
#[test]
fn the_step_function_agrees_with_the_engine_on_random_schedules() {
    let config = Config {
        failure_persistence: None,
        cases: 0,
        ..Config::with_cases(0)
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[42; 32]));
    let worlds: Vec<World> = classification()
        .into_iter()
        .map(|c| c.world)
        .chain([
            {
                let mut world = World::preset(Preset::IdempotencyOnly, 3);
                world.jobs = 2;
                world.heartbeat = true;
                world
            },
            {
                let mut world = World::preset(Preset::FencedHighestSeen, 3);
                world.design.lease_clock = sim_core::LeaseClock::Worker;
                world.workers[1].clock_offset = 2;
                world.db_offset = -1;
                world.allow_cancel = true;
                world.targets = vec![
                    sim_core::Protect::Versioned,
                    sim_core::Protect::Gateway,
                    sim_core::Protect::RegisteredToken,
                ];
                world
            },
            {
                // Requests that travel to every kind of target, random
                // tokens, cancel epochs and heartbeats.
                let mut world = World::preset(Preset::SendingGateway, 2);
                world.design.token = sim_core::TokenKind::Random;
                world.design.cancel_epoch = true;
                world.design.commit_checks = sim_core::CheckSet::from_bits(0b1011);
                world.seed = 7;
                world.allow_cancel = true;
                world.heartbeat = true;
                world.targets = vec![
                    sim_core::Protect::SendingGateway,
                    sim_core::Protect::Gateway,
                    sim_core::Protect::RegisteredToken,
                    sim_core::Protect::ApprovedIntent,
                ];
                world.bounds.max_in_flight = 3;
                world.bounds.max_delay = 2;
                world
            },
            {
                // An outbox behind a weak commit, without delays.
                let mut world = World::preset(Preset::ClientCheck, 3);
                world.targets = vec![sim_core::Protect::ApprovedIntent, sim_core::Protect::None];
                world.allow_cancel = true;
                world
            },
            {
                let mut world = World::preset(Preset::IdempotencyOnly, 3);
                world.targets.push(sim_core::Protect::Versioned);
                world.design.cancel_epoch = true;
                world.allow_cancel = true;
                world.jobs = 2;
                world.bounds = world.bounds.with_delays();
                world
            },
            {
                // Revisions of the input that advance the fence, with a
                // cancel epoch beside them, at every kind of token check.
                let mut world = World::preset(Preset::FencedRegistered, 3);
                world.allow_revise = true;
                world.allow_cancel = true;
                world.heartbeat = true;
                world.design.cancel_epoch = true;
                world.design.input_revision = true;
                world.targets = vec![
                    sim_core::Protect::RegisteredToken,
                    sim_core::Protect::HighestToken,
                    sim_core::Protect::Gateway,
                ];
                world
            },
            {
                // Revisions nothing compares, two jobs, requests that travel.
                let mut world = World::preset(Preset::ClientCheck, 3);
                world.allow_revise = true;
                world.jobs = 2;
                world.targets = vec![
                    sim_core::Protect::SendingGateway,
                    sim_core::Protect::RegisteredToken,
                ];
                world.bounds = world.bounds.with_delays();
                world
            },
            {
                // A revision under a claim read apart from its update.
                let mut world = World::preset(Preset::DbConditional, 3);
                world.allow_revise = true;
                world.design.input_revision = true;
                world.design.claim = ClaimProcedure::ReadThenUpdate;
                world.targets = vec![sim_core::Protect::HighestToken];
                world
            },
            {
                let mut world = World::preset(Preset::ClientCheck, 4).with_restarted_incarnation();
                world.design.token = sim_core::TokenKind::None;
                world.heartbeat = true;
                world.stop_on_renew_failure = false;
                world
            },
        ])
        .chain(procedure_worlds())
        .collect();
    let strategy = proptest::array::uniform::<_, 64>(any::<u32>());
    for world in &worlds {
        let machine = Machine::new(world.clone()).unwrap();
        for _ in 0..200 {
            let choices = strategy.new_tree(&mut runner).unwrap().current();
            let (moves, violation) = play_choices(&machine, &choices);
            let played = schedule_scenario(&machine, &moves, "agree", Text::both("agree"));
            let trace = run(&played.scenario);
            // A statement that would wait is never a move, but the second
            // read of `lock_both_*`, which may begin to wait (and, never
            // released, ends `waiting`); a waiting worker takes no step.
            let locks_both = world.design.claim.locks_both();
            assert!(
                trace
                    .steps
                    .iter()
                    .all(|record| (locks_both || record.outcome != Outcome::Waiting)
                        && record.reason != Some(sim_core::Reason::Blocked)),
                "a step waits in the engine\n{}",
                sim_core::scenario_to_toml(&played.scenario)
            );
            for (index, (result, record)) in played.results.iter().zip(&trace.steps).enumerate() {
                // A client check "applies" when it finds the lease valid.
                let engine_applied = match result.op {
                    Some(sim_core::explore::Op::Check) => record.lease_valid == Some(true),
                    _ => record.outcome == Outcome::Ok,
                };
                assert_eq!(
                    result.applied,
                    engine_applied,
                    "step {index} differs: machine {result:?}, engine {record:?}\n{}",
                    sim_core::scenario_to_toml(&played.scenario)
                );
            }
            let engine_first = trace.violations.first().map(|v| (v.step, v.kind));
            let machine_first = violation.map(|kind| (played.results.len() as u32 - 1, kind));
            assert_eq!(
                machine_first,
                engine_first,
                "first violation differs\n{}",
                sim_core::scenario_to_toml(&played.scenario)
            );
            let _ = Move::Tick;
        }
    }
}

/// Every claim procedure in worlds that reach its corners: heartbeats and
/// client checks inside and outside the transaction, cancels, random
/// tokens, worker clocks, requests that travel, every kind of target,
/// several jobs where the procedure claims from a queue.
fn procedure_worlds() -> Vec<World> {
    let mut worlds = Vec::new();
    for claim in ClaimProcedure::ALL {
        let jobs = if claim.single_job() { 1 } else { 2 };
        let with = |mut world: World| {
            world.design.claim = claim;
            if claim.locks_both() {
                world.jobs = 2;
            }
            world
        };
        worlds.push(with({
            let mut world = World::preset(Preset::ClientCheck, 3);
            world.heartbeat = true;
            world.allow_cancel = true;
            world.jobs = jobs;
            world
        }));
        worlds.push(with({
            let mut world = World::preset(Preset::Full, 3);
            world.design.token = sim_core::TokenKind::Random;
            world.design.worker_checks = true;
            world.seed = 5;
            world.allow_cancel = true;
            world.targets = vec![
                sim_core::Protect::Gateway,
                sim_core::Protect::RegisteredToken,
                sim_core::Protect::HighestToken,
            ];
            world
        }));
        worlds.push(with({
            let mut world = World::preset(Preset::DbConditional, 2);
            world.design.lease_clock = sim_core::LeaseClock::Worker;
            world.design.commit_checks = sim_core::CheckSet::from_bits(0b0101);
            world.design.renew_checks = sim_core::CheckSet::from_bits(0b0110);
            world.workers[1].clock_offset = -2;
            world.heartbeat = true;
            world.stop_on_renew_failure = false;
            world.targets = vec![sim_core::Protect::Gateway];
            world
        }));
        worlds.push(with({
            let mut world = World::preset(Preset::SendingGateway, 3).with_restarted_incarnation();
            world.design.cancel_epoch = true;
            world.allow_cancel = true;
            world.jobs = jobs;
            world.targets = vec![
                sim_core::Protect::SendingGateway,
                sim_core::Protect::RegisteredToken,
            ];
            world.bounds = world.bounds.with_delays();
            world
        }));
        let first = worlds.len();
        worlds.push(with({
            let mut world = World::preset(Preset::TtlLockOnly, 4);
            world.ttl = 2;
            world.jobs = jobs;
            world.bounds.max_claims = 5;
            world
        }));
        if claim.transactional() {
            // The same worlds where a lock holder may crash: its claim and
            // (held across the work) its renews and finish roll back.
            let crashing: Vec<World> = worlds[first - 4..]
                .iter()
                .cloned()
                .map(|mut world| {
                    world.crashes = true;
                    world
                })
                .collect();
            worlds.extend(crashing);
        }
    }
    worlds
}

/// Plays `moves` in `machine`, each of which must be offered, and returns
/// the state reached.
#[track_caller]
fn play_offered(machine: &Machine, moves: &[Move]) -> sim_core::explore::State {
    let mut state = machine.initial();
    let mut enabled = Vec::new();
    for &chosen in moves {
        machine.moves(&state, &mut enabled);
        assert!(
            enabled.contains(&chosen),
            "{chosen:?} not offered: {enabled:?}"
        );
        machine.apply(&mut state, chosen);
    }
    state
}

/// A crash, unlike a pause, ends the takeover a held lock blocks: the
/// holder's transaction rolls back, so its claim never happened, and the
/// waiting worker claims the same generation again. The engine agrees step
/// by step, and no step of the schedule waits there.
#[test]
fn a_crash_rolls_back_the_holders_claim_and_lets_the_takeover_through() {
    let mut world = World::preset(Preset::TtlLockOnly, 2);
    world.design.claim = ClaimProcedure::HeldAcrossWork;
    world.targets.truncate(1);
    world.crashes = true;
    let machine = Machine::new(world.clone()).unwrap();
    let (a, b) = (Move::Worker(0), Move::Worker(1));
    // A: begin, select_for_update, update_claim, write (its claim not
    // committed); B: begin; three ticks: A's lease has ended.
    let held = [a, a, a, a, b, Move::Tick, Move::Tick, Move::Tick];
    let state = play_offered(&machine, &held);
    let mut enabled = Vec::new();
    machine.moves(&state, &mut enabled);
    assert!(!enabled.contains(&b), "B's claim waits for A's lock");
    assert!(machine.blocked_takeover(&state).is_some());
    assert!(enabled.contains(&Move::Crash(0)));
    assert!(!enabled.contains(&Move::Crash(1)), "B holds no lock");
    let mut moves = held.to_vec();
    moves.extend([Move::Crash(0), b, b, b]);
    let state = play_offered(&machine, &moves);
    assert!(machine.blocked_takeover(&state).is_none());
    assert!(machine.worker_done(&state, 0));
    let played = schedule_scenario(&machine, &moves, "crash", Text::both("crash"));
    let actions: Vec<&str> = played
        .scenario
        .steps
        .iter()
        .map(|s| s.action.name())
        .collect();
    assert_eq!(
        actions,
        [
            "begin",
            "select_for_update",
            "update_claim",
            "write",
            "begin",
            "crash",
            "select_for_update",
            "update_claim",
            "write"
        ]
    );
    let trace = run(&played.scenario);
    for (result, record) in played.results.iter().zip(&trace.steps) {
        assert_eq!(result.applied, record.outcome == Outcome::Ok, "{record:?}");
        assert_ne!(record.outcome, Outcome::Waiting);
    }
    // A's claim was rolled back: B's is generation 1 again, and B's write
    // is no violation.
    assert_eq!(trace.steps[2].generation, Some(1));
    assert_eq!(trace.steps[7].generation, Some(1));
    assert!(trace.violations.is_empty(), "{:?}", trace.violations);
    // Without crashes the scheduler has no such move.
    world.crashes = false;
    let machine = Machine::new(world).unwrap();
    let state = play_offered(&machine, &held);
    machine.moves(&state, &mut enabled);
    assert!(!enabled.iter().any(|m| matches!(m, Move::Crash(_))));
}

/// A request sent under a claim whose transaction a crash rolled back
/// holds no generation: the next claim is granted the same number and
/// token, and the request that lands after it is a stale effect. The
/// explorer finds it with delays on, and the engine replays the same
/// violation at the same step; its explanation says why no token check
/// can tell the two apart.
#[test]
fn a_request_of_a_rolled_back_claim_is_stale_after_the_next_claim() {
    // The token registered at the target on every claim: a request of a
    // committed older generation is refused on arrival.
    let mut world = World::preset(Preset::FencedRegistered, 2);
    world.design.claim = ClaimProcedure::HeldAcrossWork;
    world.design_source = sim_core::DesignSource::Table;
    world.targets.truncate(1);
    world.crashes = true;
    world.bounds.max_in_flight = 1;
    world.bounds.max_delay = 3;
    let report = exhaustive(&world);
    assert_eq!(report.verdict, Verdict::Unsafe);
    let found = report.counterexample.as_ref().expect("a counterexample");
    let actions: Vec<&str> = found
        .scenario
        .steps
        .iter()
        .map(|s| s.action.name())
        .collect();
    assert!(actions.contains(&"crash"), "{actions:?}");
    assert_eq!(actions.last(), Some(&"deliver"), "{actions:?}");
    let trace = run(&found.scenario);
    assert_eq!(trace.violations.len(), 1, "{:?}", trace.violations);
    let violation = trace.violations[0];
    assert_eq!(violation.kind, sim_core::ViolationKind::Stale);
    let landed = &trace.steps[violation.step as usize];
    assert_eq!(landed.generation, None, "sent under no generation");
    let claims: Vec<_> = trace
        .steps
        .iter()
        .filter(|s| s.outcome == Outcome::Ok && s.token.is_some() && s.job.is_some())
        .filter_map(|s| s.token)
        .collect();
    assert!(
        claims.iter().all(|t| *t == 1),
        "one token, twice: {claims:?}"
    );
    let words = found.explanation.en.clone();
    assert!(words.contains("never committed"), "{words}");
    assert!(found.explanation.zh.contains("从未提交"));
    // Without crashes, or with the claim committed before the work, the
    // same world is safe.
    world.crashes = false;
    assert_eq!(exhaustive(&world).verdict, Verdict::Safe);
    world.crashes = true;
    world.design.claim = ClaimProcedure::SelectForUpdate;
    assert_eq!(exhaustive(&world).verdict, Verdict::Safe);
}

/// `nowait`: a read that finds the row locked fails at once
/// (`lock_not_available`), its transaction rolls back, and the worker
/// starts its claim over with `begin`; once the lock is free its read
/// locks the row as `select_for_update` would.
#[test]
fn a_nowait_read_on_a_locked_row_fails_and_starts_over() {
    let mut world = World::preset(Preset::TtlLockOnly, 2);
    world.design.claim = ClaimProcedure::Nowait;
    let machine = Machine::new(world).unwrap();
    assert_eq!(
        machine.program()[..4],
        [
            sim_core::explore::Op::Begin,
            sim_core::explore::Op::SelectNowait,
            sim_core::explore::Op::UpdateClaim,
            sim_core::explore::Op::Commit
        ]
    );
    let (a, b) = (Move::Worker(0), Move::Worker(1));
    // A: begin, select_nowait (locks); B: begin, select_nowait (fails),
    // begin again; A: update_claim, commit; B: select_nowait (the row is
    // A's now: not claimable), commit.
    let moves = [a, a, b, b, b, a, a, b, b];
    let state = play_offered(&machine, &moves);
    assert_eq!(
        machine.next_op(&state, 1),
        Some(sim_core::explore::Op::Begin)
    );
    let played = schedule_scenario(&machine, &moves, "nowait", Text::both("nowait"));
    let trace = run(&played.scenario);
    let failed = &trace.steps[3];
    assert_eq!(failed.outcome, Outcome::Rejected);
    assert_eq!(failed.reason, Some(sim_core::Reason::LockNotAvailable));
    assert_eq!(trace.steps[4].outcome, Outcome::Ok, "B begins again");
    for (result, record) in played.results.iter().zip(&trace.steps) {
        assert_eq!(result.applied, record.outcome == Outcome::Ok, "{record:?}");
    }
    assert_eq!(trace.steps[7].reason, Some(sim_core::Reason::NotClaimable));
}

/// Worlds where a lock holder may crash: the short-lease claim rows stay
/// safe (a rolled-back claim did no work), a held transaction's blocked
/// takeover is still found (a pause is not a crash), and every
/// counterexample a crashing world yields, by either explorer, replays
/// through the engine.
#[test]
fn crashing_worlds_keep_their_verdicts_and_their_counterexamples_replay() {
    let expected = [
        ("claim: select_for_update", 3285u64),
        ("claim: skip_locked", 37_827),
        // The same states as `select_for_update`: a read that fails and
        // starts over returns to the state before its `begin`.
        ("claim: nowait", 3285),
        ("claim: held_across_work", 7761),
    ];
    for (name, states) in expected {
        let mut world = classification()
            .into_iter()
            .find(|c| c.name == name)
            .unwrap()
            .world;
        world.crashes = true;
        let report = exhaustive(&world);
        assert_eq!(report.verdict, Verdict::Safe, "{name}");
        assert!(report.exhausted, "{name}");
        assert_eq!(report.stats.states, states, "{name}: distinct states");
        assert_eq!(
            report.blocked_takeover.is_some(),
            world.design.claim == ClaimProcedure::HeldAcrossWork,
            "{name}"
        );
        assert_eq!(
            report.to_json(0, sim_core::Lang::En)["bounds"]["crash"],
            true
        );
    }
    // With leases that run out, the lease alone protects nothing (but for
    // the lock held across the work): each procedure's counterexample
    // replays, with crashes in its world.
    for claim in ClaimProcedure::ALL
        .into_iter()
        .filter(|c| c.transactional())
    {
        let mut world = World::preset(Preset::TtlLockOnly, 3);
        world.design.claim = claim;
        world.design_source = sim_core::DesignSource::Table;
        world.crashes = true;
        world.jobs = if claim.single_job() { 1 } else { 2 };
        for method in [
            Method::Exhaustive,
            Method::Random {
                seed: 3,
                cases: 256,
            },
        ] {
            let report = explore(&world, method, &mut RunToEnd).unwrap();
            if claim.locks_both() && method != Method::Exhaustive && report.counterexample.is_none()
            {
                // Two of three workers prefer different rows; the random
                // explorer need not meet the third's takeover in 256 cases
                // (the exhaustive one must).
                continue;
            }
            if claim == ClaimProcedure::HeldAcrossWork {
                // The lock outlives every lease, and a crash rolls the
                // holder's claim back: no one ever works beside it.
                assert_eq!(report.verdict, Verdict::Safe, "{method:?}");
                continue;
            }
            assert_eq!(report.verdict, Verdict::Unsafe, "{claim:?} {method:?}");
            assert_replays(&report);
        }
    }
}

/// Each claim procedure's verdict in its classification world, by the
/// exhaustive explorer: only `read_then_update` lets a live lease be
/// taken over, and its shortest counterexample is the race itself — both
/// read, both update, the first holder writes — which the engine replays
/// to the same stale write.
#[test]
fn each_claim_procedure_has_its_verdict_and_read_then_update_races() {
    for claim in ClaimProcedure::ALL {
        let name = format!("claim: {}", claim.name());
        let case = classification()
            .into_iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no row {name}"));
        assert_eq!(case.world.design.claim, claim);
        assert!((2..=3).contains(&case.world.workers.len()), "{name}");
        let report = exhaustive(&case.world);
        assert_eq!(
            report.to_json(0, sim_core::Lang::En)["bounds"]["claim"],
            claim.name()
        );
        if claim != ClaimProcedure::ReadThenUpdate {
            assert_eq!(report.verdict, Verdict::Safe, "{name}");
            assert!(report.exhausted, "{name}");
            continue;
        }
        assert_eq!(report.verdict, Verdict::Unsafe);
        assert_replays(&report);
        let found = report.counterexample.as_ref().unwrap();
        assert_eq!(found.kind, ViolationKind::Stale);
        assert!(found.explanation.en.contains("(read_then_update)"));
        assert!(found.explanation.zh.contains("（read_then_update）"));
        let actions: Vec<&str> = found
            .scenario
            .steps
            .iter()
            .map(|s| s.action.name())
            .collect();
        assert_eq!(
            actions,
            ["select", "select", "update_claim", "update_claim", "write"]
        );
        let trace = run(&found.scenario);
        // Both updates took the row, at tick 0: the second took over a
        // lease that had not ended.
        assert_eq!(trace.steps[2].generation, Some(1));
        assert_eq!(trace.steps[3].generation, Some(2));
        assert!(found.scenario.steps.iter().all(|s| s.at == 0));
        // An atomic claim in the same world is safe: the race is the
        // procedure's.
        let mut atomic = case.world.clone();
        atomic.design.claim = ClaimProcedure::Atomic;
        assert_eq!(exhaustive(&atomic).verdict, Verdict::Safe);
    }
}

/// Holding the claim's transaction across the work is safe, and its cost
/// shows: a takeover waits on the lock after the lease ended. Written
/// down, the waiting claim is `waiting` in the engine.
#[test]
fn held_across_work_reports_the_takeover_its_lock_blocks() {
    let case = case(
        "claim: held_across_work",
        "ttl-lock-only, two targets, leases can run out (time ≤ 12): a takeover waits on the held lock",
    );
    for method in [
        Method::Exhaustive,
        Method::Random {
            seed: 1,
            cases: 256,
        },
    ] {
        let report = explore(&case.world, method, &mut RunToEnd).unwrap();
        assert_eq!(report.verdict, Verdict::Safe, "{method:?}");
        let blocked = report
            .blocked_takeover
            .as_ref()
            .unwrap_or_else(|| panic!("{method:?}: no blocked takeover"));
        let trace = run(&blocked.scenario);
        let waiting = &trace.steps[blocked.step as usize];
        assert_eq!(waiting.outcome, Outcome::Waiting, "{method:?}");
        let claim = &blocked.scenario.steps[blocked.step as usize];
        assert_eq!(claim.action, sim_core::Action::SelectForUpdate);
        // The lease the lock protects had ended when the claim came.
        let lease_until = trace
            .steps
            .iter()
            .find_map(|s| s.lease_until)
            .expect("a claim was granted");
        assert!(
            lease_until <= claim.at as i64,
            "{lease_until} > {}",
            claim.at
        );
        assert!(
            blocked
                .explanation
                .en
                .contains("Takeover blocked while the lock is held")
        );
        assert!(blocked.explanation.zh.contains("接管受阻"));
        let json = report.to_json(0, sim_core::Lang::En);
        assert!(json["blocked_takeover"]["schedule"].is_array(), "{json}");
    }
    // Breadth-first finds the nearest: A claims and the lease runs out.
    let report = exhaustive(&case.world);
    let moves = &report.blocked_takeover.as_ref().unwrap().moves;
    assert_eq!(moves.len(), 7, "{moves:?}");
    // Procedures that hold no lock while the lease runs out show none.
    for claim in [ClaimProcedure::Atomic, ClaimProcedure::ReadThenUpdate] {
        let mut world = case.world.clone();
        world.design.claim = claim;
        let report = exhaustive(&world);
        assert!(report.blocked_takeover.is_none(), "{claim:?}");
        assert!(report.to_json(0, sim_core::Lang::En)["blocked_takeover"].is_null());
    }
}

/// A procedure that reads one named row needs a world of one job.
#[test]
fn single_row_procedures_refuse_several_jobs() {
    for claim in ClaimProcedure::ALL {
        let mut world = World::preset(Preset::Full, 2);
        world.design.claim = claim;
        world.jobs = 2;
        let refused = Machine::new(world).err();
        if claim.single_job() {
            assert_eq!(refused, Some(sim_core::explore::WorldError::ClaimJobs));
            let message = refused.unwrap().message(sim_core::Lang::Zh);
            assert!(message.contains("1 个任务"), "{message}");
        } else {
            assert_eq!(refused, None, "{claim:?}");
        }
    }
}

#[test]
#[ignore = "measurement for the notes: cargo test --release -- --ignored proptest_hit_rate"]
#[allow(clippy::print_stdout)]
fn proptest_hit_rate() {
    for (name, note, expected) in TABLE {
        if expected.is_err() {
            continue;
        }
        let world = case(name, note).world;
        let found = (0..100u64)
            .filter(|seed| {
                explore(
                    &world,
                    Method::Random {
                        seed: *seed,
                        cases: 256,
                    },
                    &mut RunToEnd,
                )
                .map(|r| r.verdict == Verdict::Unsafe)
                .unwrap_or(false)
            })
            .count();
        println!("{name} ({note}): {found}/100 seeds find a counterexample within 256 cases");
        assert!(found >= 99, "{name}");
    }
}

/// With delays, a write takes effect when its request is delivered: the
/// sites search puts a violating delivery at its target, never at the job
/// table, and a target sent to reconciliation expects what lands there,
/// a dispatcher's target (`sending_gateway`) included.
#[test]
fn a_delivered_violation_is_a_site_at_its_target() {
    use sim_core::Protect;
    let mut world = World::preset(Preset::Full, 2);
    world.allow_cancel = true;
    world.targets = vec![Protect::None, Protect::SendingGateway];
    world.bounds = world.bounds.with_delays();
    let sites = sim_core::explore::violation_sites(&world).unwrap();
    assert!(!sites.incomplete);
    assert!(!sites.job_table, "the job table is safe under `full`");
    assert_eq!(
        sites.targets, 0b11,
        "both targets take a request landing after a cancel"
    );
    world.reconciled = 0b11;
    assert_eq!(exhaustive(&world).verdict, Verdict::Safe);
    world.reconciled = 0b01;
    let report = exhaustive(&world);
    assert_eq!(report.verdict, Verdict::Unsafe);
    assert_replays(&report);
}

/// Under another transaction's row lock a finish waits (is no move) only
/// when its condition holds on the row's last committed version; else it
/// runs at once there and is refused, as in the engine (§15.4). A's lease
/// has run out and B's transaction has claimed the row, uncommitted.
#[test]
fn a_finish_under_another_lock_waits_only_if_the_committed_row_matches() {
    use sim_core::{Check, CheckSet};
    let schedule = |commit_checks: CheckSet| {
        let mut world = World::preset(Preset::DbConditional, 2);
        world.targets.clear();
        world.design.claim = ClaimProcedure::SelectForUpdate;
        world.design.commit_checks = commit_checks;
        let machine = Machine::new(world).unwrap();
        let (a, b) = (Move::Worker(0), Move::Worker(1));
        // A: begin, select_for_update, update_claim, commit; three ticks;
        // B: begin, select_for_update, update_claim (not committed).
        let moves = [a, a, a, a, Move::Tick, Move::Tick, Move::Tick, b, b, b];
        let mut state = machine.initial();
        let mut enabled = Vec::new();
        for chosen in moves {
            machine.moves(&state, &mut enabled);
            assert!(enabled.contains(&chosen), "{chosen:?} not offered");
            machine.apply(&mut state, chosen);
        }
        machine.moves(&state, &mut enabled);
        (machine, moves, enabled.contains(&a))
    };
    // With `lease` checked, A's finish is false on the committed row (A's
    // own, its lease over): it runs at once and is refused.
    let (machine, moves, offered) = schedule(CheckSet::ALL);
    assert!(offered);
    let mut all = moves.to_vec();
    all.push(Move::Worker(0));
    let played = schedule_scenario(&machine, &all, "finish", Text::both("finish"));
    let trace = run(&played.scenario);
    let finish = trace.steps.last().unwrap();
    assert_eq!(finish.outcome, Outcome::Rejected);
    assert_eq!(played.results.last().map(|r| r.applied), Some(false));
    let failed = finish.failed_checks.unwrap();
    assert!(failed.contains(Check::Lease) && !failed.contains(Check::Fence));
    // Without it, the committed row (still A's) matches: the finish would
    // wait for B's lock, so it is no move until B commits.
    let without_lease = CheckSet::EMPTY
        .with(Check::Owner)
        .with(Check::Fence)
        .with(Check::State);
    let (_, _, offered) = schedule(without_lease);
    assert!(!offered);
}

/// `claim` is an optional key of a design table: a design without it is
/// `atomic` and equal to what it was; one with it reads, writes back and
/// reads again the same; a misspelt one is refused by name.
#[test]
fn the_claim_key_is_optional_and_round_trips() {
    let (old, _) = sim_core::parse_design(b"base = \"db-conditional\"\n").unwrap();
    assert_eq!(old.claim, ClaimProcedure::Atomic);
    assert_eq!(old, Preset::DbConditional.design());
    let (preset, _) = sim_core::parse_design(b"design = \"full\"\n").unwrap();
    assert_eq!(preset.claim, ClaimProcedure::Atomic);
    for claim in ClaimProcedure::ALL {
        let text = format!("base = \"ttl-lock-only\"\nclaim = \"{}\"\n", claim.name());
        let (design, _) = sim_core::parse_design(text.as_bytes()).unwrap();
        assert_eq!(design.claim, claim);
        assert_eq!(
            sim_core::Design {
                claim: ClaimProcedure::Atomic,
                ..design
            },
            Preset::TtlLockOnly.design()
        );
        let mut world = World::preset(Preset::TtlLockOnly, 2);
        world.design = design;
        let scenario = world.scenario_shell("claim", Text::both("claim"));
        let written = sim_core::scenario_to_toml(&scenario);
        assert_eq!(
            written.contains("claim = "),
            claim != ClaimProcedure::Atomic,
            "{written}"
        );
        let reread = sim_core::parse_scenario(written.as_bytes()).unwrap();
        assert_eq!(reread.design, design, "{written}");
    }
    let refused = sim_core::parse_design(b"claim = \"read_than_update\"\n").unwrap_err();
    let message = refused[0].message_in(sim_core::Lang::En);
    assert!(message.contains("read_then_update"), "{message}");
}

/// A counterexample's explanation is sentences joined with spaces; in
/// Chinese no space follows a full stop.
#[test]
fn chinese_explanations_put_no_space_after_a_full_stop() {
    let mut explained = 0;
    for case in classification().into_iter().take(12) {
        if let Some(found) = exhaustive(&case.world).counterexample {
            explained += 1;
            assert!(
                !found.explanation.zh.contains("。 "),
                "{}: {}",
                case.name,
                found.explanation.zh
            );
        }
    }
    assert!(explained >= 5, "{explained}");
}

/// An outbox sends only what a commit approved: in front of a resource
/// that checks nothing it is safe with requests in flight and cancels
/// exactly when the commit is, and a weak commit's counterexample replays.
#[test]
fn an_outbox_is_as_safe_as_the_commit_that_approves_it() {
    use sim_core::Protect;
    let mut world = World::preset(Preset::DbConditional, 3);
    world.targets = vec![Protect::ApprovedIntent, Protect::ApprovedIntent];
    world.allow_cancel = true;
    world.bounds = world.bounds.with_delays();
    let report = exhaustive(&world);
    assert_eq!(report.verdict, Verdict::Safe, "{:?}", report.counterexample);
    // The same targets behind the dispatcher that checks at send are not.
    let mut sending = world.clone();
    sending.targets = vec![Protect::SendingGateway, Protect::SendingGateway];
    let broken = exhaustive(&sending);
    assert_eq!(broken.verdict, Verdict::Unsafe);
    assert_replays(&broken);
    // Behind a commit that checks nothing, the stale commit sends its
    // intents with it.
    let mut weak = World::preset(Preset::TtlLockOnly, 3);
    weak.targets = world.targets.clone();
    weak.allow_cancel = true;
    weak.bounds = world.bounds;
    let report = exhaustive(&weak);
    assert_eq!(report.verdict, Verdict::Unsafe);
    assert_replays(&report);
    let found = report.counterexample.as_ref().unwrap();
    let trace = sim_core::run(&found.scenario);
    let finish = found.step as usize;
    assert_eq!(
        found.scenario.steps[finish].action,
        sim_core::Action::Finish
    );
    // Its intent was approved by that commit and landed with it.
    assert!(
        trace
            .steps
            .iter()
            .any(|record| record.approved_step == Some(found.step)),
        "{}",
        sim_core::scenario_to_toml(&found.scenario)
    );
}

/// A revise of the input (C15) in the explorers: with tokens registered at
/// the targets and a commit that checks the fence, a revise that does not
/// move the fence lets A's result of the old input through (`stale_input`,
/// the shortest schedule: A claims, the user revises, A writes), and the
/// counterexample replays; with `input_revision` the same design is safe.
/// The claim procedures that lock rows and random tokens are refused.
#[test]
fn a_revision_breaks_what_does_not_compare_it_and_input_revision_mends_it() {
    let mut world = World::preset(Preset::FencedRegistered, 2);
    world.design.commit_checks = sim_core::CheckSet::ALL;
    world.design_source = sim_core::DesignSource::Table;
    world.allow_revise = true;
    let report = exhaustive(&world);
    assert_eq!(report.verdict, Verdict::Unsafe);
    let found = report.counterexample.as_ref().unwrap();
    assert_eq!(found.kind, ViolationKind::StaleInput);
    assert_eq!(found.moves.len(), 3, "{:?}", found.moves);
    assert!(
        matches!(found.moves[1], Move::Revise(0)),
        "{:?}",
        found.moves
    );
    assert_replays(&report);
    assert!(
        found.explanation.en.contains("input_revision") && found.explanation.zh.contains("修订号"),
        "{:?}",
        found.explanation
    );
    world.design.input_revision = true;
    let report = exhaustive(&world);
    assert_eq!(report.verdict, Verdict::Safe, "{:?}", report.counterexample);
    // Without the fence in the commit, the fence the revise moved is seen
    // only at the targets: the finish is a result of the old input.
    world.design.commit_checks = sim_core::CheckSet::from_bits(0b1101);
    let report = exhaustive(&world);
    assert_eq!(
        report.counterexample.as_ref().map(|c| c.kind),
        Some(ViolationKind::StaleInput)
    );
    assert_replays(&report);
    for (claim, token) in [
        (
            ClaimProcedure::SelectForUpdate,
            sim_core::TokenKind::Monotonic,
        ),
        (ClaimProcedure::Atomic, sim_core::TokenKind::Random),
    ] {
        let mut refused = world.clone();
        refused.design.claim = claim;
        refused.design.token = token;
        assert_eq!(
            Machine::new(refused).err(),
            Some(sim_core::explore::WorldError::Revise)
        );
    }
}
