//! The model against a real PostgreSQL: every example, every lesson scenario
//! with job-table steps, the explorer's schedules over every claim procedure,
//! and random scenarios with transactions, `FOR
//! UPDATE`, `SKIP LOCKED`, `NOWAIT`, lock waits, rollbacks, crashes and
//! deadlocks are replayed through `fencelab run --db postgres://…` (one connection per
//! worker; waits and deadlock victims are the server's) and must agree with
//! the model at every step (docs/scenario-format.md §15).
//!
//! The server is `FENCELAB_PG_URL` (`.ci/run` starts a throwaway one). Without
//! it the tests fail under `CI=true` and skip, saying so, elsewhere.
//! The embedded SQLite replay runs the random single-connection scenarios
//! always.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;
use sim_core::Scenario;

/// Random scenarios replayed on PostgreSQL.
const PG_CASES: u64 = 200;
/// Random single-connection scenarios replayed on SQLite.
const SQLITE_CASES: u64 = 300;

/// The server's URL, or `None` (then the caller returns: skipped).
fn pg_url(test: &str) -> Option<String> {
    match std::env::var("FENCELAB_PG_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{test}: FENCELAB_PG_URL is not set under CI=true: .ci/run starts a PostgreSQL server for this test"
            );
            #[allow(clippy::print_stderr)]
            {
                eprintln!(
                    "{test}: SKIPPED: FENCELAB_PG_URL is not set (docs/scenario-format.md §15.6 says how to start a server)"
                );
            }
            None
        }
    }
}

/// The findings of one replay, or an empty list when every step agrees.
fn findings(scenario: &Scenario, db: &str) -> Vec<String> {
    let value = match fencelab_replay::replay_json(scenario, db) {
        Ok(value) => value,
        Err(error) => return vec![format!("the replay failed: {error}")],
    };
    let steps = value["steps"].as_array().cloned().unwrap_or_default();
    assert_eq!(steps.len(), scenario.steps.len(), "one db step per step");
    let mut out = Vec::new();
    for step in &steps {
        if step["agrees"] != Value::Bool(true) {
            out.push(format!("step {}: {}", step["i"], step["differences"]));
        }
    }
    if value["agrees"] != Value::Bool(out.is_empty()) {
        out.push("`agrees` does not sum up the steps".to_owned());
    }
    out
}

fn scenarios_in(dir: &str) -> Vec<(String, Scenario)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Ok(scenario) = sim_core::parse_scenario(&bytes) {
            out.push((name, scenario));
        } else if let Ok(lesson) = sim_core::course::parse_lesson(&bytes) {
            for (id, scenario) in lesson.scenarios {
                out.push((format!("{name}#{id}"), scenario));
            }
        } else {
            panic!("{}: neither a scenario nor a lesson", path.display());
        }
    }
    out
}

fn has_sql(scenario: &Scenario) -> bool {
    scenario.steps.iter().any(|s| {
        sim_core::sql::statement(scenario, s, 0, &blank(), sim_core::sql::Dialect::Postgres)
            .is_some()
    })
}

fn blank() -> sim_core::sql::Binding {
    sim_core::sql::Binding {
        owner: None,
        token: None,
        new_token: None,
        now: 0,
    }
}

#[test]
fn postgres_agrees_on_every_example_and_lesson_scenario() {
    let Some(url) = pg_url("postgres_agrees_on_every_example_and_lesson_scenario") else {
        return;
    };
    let mut all = scenarios_in("../examples");
    all.extend(scenarios_in("../lessons"));
    let mut replayed = 0;
    let mut report = String::new();
    for (name, scenario) in &all {
        if !has_sql(scenario) {
            continue;
        }
        replayed += 1;
        let found = findings(scenario, &url);
        if !found.is_empty() {
            let _ = writeln!(report, "{name}:\n  {}", found.join("\n  "));
        }
    }
    assert!(replayed >= 30, "only {replayed} scenarios had SQL");
    #[allow(clippy::print_stderr)]
    {
        eprintln!("replayed {replayed} example and lesson scenarios on PostgreSQL");
    }
    assert!(
        report.is_empty(),
        "PostgreSQL disagrees with the model:\n{report}"
    );
}

/// SplitMix64: a fixed sequence, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// One random scenario. With `locks`, workers open transactions, lock rows,
/// skip locked ones, roll back and crash; without, only single statements.
fn random_scenario(seed: u64, locks: bool) -> String {
    let mut rng = Rng(seed);
    let workers = ["A", "B", "C"][..2 + rng.below(2) as usize].to_vec();
    let jobs = 1 + rng.below(3);
    let ttl = 2 + rng.below(5);
    let mut out = format!("id = \"random-{seed}\"\nttl = {ttl}\n");
    let _ = writeln!(
        out,
        "workers = [{}]",
        workers
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let job_ids: Vec<String> = (1..=jobs).map(|k| format!("r{k}")).collect();
    let _ = writeln!(
        out,
        "jobs = [{}]",
        job_ids
            .iter()
            .map(|j| format!("\"{j}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let single = [
        "claim",
        "claim",
        "renew",
        "finish",
        "fail",
        "cancel",
        "check",
        "select",
        "update_claim",
        "claim_next",
    ];
    let locking = [
        "begin",
        "begin",
        "select_for_update",
        "select_for_update",
        "select_skip_locked",
        "select_nowait",
        "select_nowait",
        "update_claim",
        "commit",
        "commit",
        "rollback",
        "claim",
        "finish",
        "renew",
        "select",
        "claim_next",
        "cancel",
        "crash",
    ];
    out.push_str("steps = [\n");
    let mut at = 0;
    if locks && jobs >= 2 && rng.below(3) == 0 {
        // Two transactions each holding a row: the later steps may ask for
        // the other's row (a wait) from both sides (a deadlock), or B asks
        // for A's row without waiting (NOWAIT fails).
        out.push_str(
            "  { at = 0, worker = \"A\", do = \"begin\" },\n  { at = 0, worker = \"B\", do = \"begin\" },\n  \
             { at = 0, worker = \"A\", do = \"select_for_update\", job = \"r1\" },\n  \
             { at = 0, worker = \"B\", do = \"select_for_update\", job = \"r2\" },\n",
        );
        if rng.below(2) == 0 {
            let second = rng.pick(&["select_for_update", "claim", "renew", "select_nowait"]);
            let _ = writeln!(
                out,
                "  {{ at = 1, worker = \"A\", do = \"select_for_update\", job = \"r2\" }},\n  \
                 {{ at = 1, worker = \"B\", do = \"{second}\", job = \"r1\" }},"
            );
            at = 1;
        }
    }
    for _ in 0..4 + rng.below(12) {
        at += rng.below(3);
        let action = if locks && rng.below(3) > 0 {
            rng.pick(&locking)
        } else {
            rng.pick(&single)
        };
        let job = if rng.below(4) == 0 {
            String::new()
        } else {
            format!(", job = \"{}\"", job_ids[rng.below(jobs) as usize])
        };
        if action == "cancel" {
            let _ = writeln!(out, "  {{ at = {at}, do = \"cancel\"{job} }},");
        } else {
            let worker = rng.pick(&workers);
            let job = if action == "crash" {
                String::new()
            } else {
                job
            };
            let _ = writeln!(
                out,
                "  {{ at = {at}, worker = \"{worker}\", do = \"{action}\"{job} }},"
            );
        }
    }
    out.push_str("]\n\n[design]\nbase = \"db-conditional\"\n");
    let checks = ["owner", "fence", "lease", "state"];
    for key in ["commit_checks", "renew_checks"] {
        if rng.below(3) == 0 {
            let set: Vec<String> = checks
                .iter()
                .filter(|_| rng.below(2) == 0)
                .map(|c| format!("\"{c}\""))
                .collect();
            let _ = writeln!(out, "{key} = [{}]", set.join(", "));
        }
    }
    let _ = writeln!(
        out,
        "token = \"{}\"",
        rng.pick(&["monotonic", "monotonic", "none", "random"])
    );
    if rng.below(4) == 0 {
        let _ = writeln!(
            out,
            "lease_clock = \"worker\"\n\n[clocks]\nA = {}",
            rng.below(5) as i64 - 2
        );
    }
    out
}

/// What the model did in the generated scenarios, so that a generator that
/// stopped reaching waits or deadlocks fails the test.
fn tally(scenario: &Scenario, seen: &mut std::collections::BTreeSet<&'static str>) {
    let trace = sim_core::run(scenario);
    for (step, record) in scenario.steps.iter().zip(&trace.steps) {
        let name = match (step.action, record.outcome, record.reason) {
            (_, sim_core::Outcome::Waiting, _) => "waiting at the end",
            (_, _, Some(sim_core::Reason::Deadlock)) => "deadlock",
            (_, _, Some(sim_core::Reason::LockNotAvailable)) => "nowait refused",
            (sim_core::Action::SelectNowait, sim_core::Outcome::Ok, _) => "nowait",
            (_, _, Some(sim_core::Reason::NoneAvailable)) => "none available",
            (_, _, Some(sim_core::Reason::Blocked)) => "blocked",
            (sim_core::Action::Crash, _, _) => "crash",
            (sim_core::Action::Rollback, sim_core::Outcome::Ok, _) => "rollback",
            (sim_core::Action::SelectSkipLocked, sim_core::Outcome::Ok, _) => "skip locked",
            (sim_core::Action::ClaimNext, sim_core::Outcome::Ok, _) => "claim_next",
            (sim_core::Action::UpdateClaim, sim_core::Outcome::Ok, _) => "update_claim",
            (sim_core::Action::Finish, sim_core::Outcome::Ok, _) => "finish",
            _ if record.waited_until.is_some() => "ran after a wait",
            _ => continue,
        };
        seen.insert(name);
        if record.waited_until.is_some() {
            seen.insert("ran after a wait");
        }
    }
}

fn random_agreement(db: &str, cases: u64, locks: bool) {
    let mut report = String::new();
    let mut failures = 0;
    let mut seen = std::collections::BTreeSet::new();
    for case in 0..cases {
        let text = random_scenario(0xF00D_0000 + case, locks);
        let scenario = match sim_core::parse_scenario(text.as_bytes()) {
            Ok(scenario) => scenario,
            Err(diagnostics) => {
                panic!("the generator wrote a bad scenario: {diagnostics:?}\n{text}")
            }
        };
        tally(&scenario, &mut seen);
        let found = findings(&scenario, db);
        if !found.is_empty() {
            failures += 1;
            if failures <= 3 {
                let _ = writeln!(report, "--- case {case}:\n{}\n{text}", found.join("\n"));
            }
        }
    }
    assert!(
        report.is_empty(),
        "{failures} of {cases} random scenarios disagree; the first ones:\n{report}"
    );
    let wanted: &[&str] = if locks {
        &[
            "waiting at the end",
            "deadlock",
            "nowait refused",
            "nowait",
            "none available",
            "blocked",
            "crash",
            "rollback",
            "skip locked",
            "claim_next",
            "update_claim",
            "finish",
            "ran after a wait",
        ]
    } else {
        &["none available", "claim_next", "update_claim", "finish"]
    };
    for name in wanted {
        assert!(
            seen.contains(name),
            "the generator never produced `{name}`: {seen:?}"
        );
    }
}

#[test]
fn postgres_agrees_on_random_scenarios_with_transactions_and_locks() {
    let Some(url) = pg_url("postgres_agrees_on_random_scenarios_with_transactions_and_locks")
    else {
        return;
    };
    // FENCELAB_PG_CASES runs more (a longer search); never fewer.
    let cases = std::env::var("FENCELAB_PG_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .map_or(PG_CASES, |n: u64| n.max(PG_CASES));
    random_agreement(&url, cases, true);
}

#[test]
fn sqlite_replay_agrees_on_random_single_statement_scenarios() {
    random_agreement("sqlite", SQLITE_CASES, false);
}

/// Schedules the random explorer draws over each claim procedure's world
/// (and, for the transactional ones, a world where a lock holder may
/// crash), and every counterexample and blocked takeover the exhaustive explorer
/// finds in the classification's claim rows, replayed on PostgreSQL: the
/// explorer's step function, the engine and the server agree at every
/// step (issue 23: the differential runs explorer-drawn transactions too).
#[test]
fn postgres_agrees_on_explorer_drawn_claim_procedures() {
    use proptest::strategy::{Strategy as _, ValueTree as _};
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use sim_core::explore::{
        Machine, Method, RunToEnd, World, classification, explore, play_choices, schedule_scenario,
    };
    use sim_core::{ClaimProcedure, Preset, Text};
    let Some(url) = pg_url("postgres_agrees_on_explorer_drawn_claim_procedures") else {
        return;
    };
    let mut drawn: Vec<(String, Scenario)> = Vec::new();
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[23; 32]),
    );
    let strategy = proptest::array::uniform::<_, 48>(proptest::num::u32::ANY);
    for claim in ClaimProcedure::ALL {
        let jobs = if claim.single_job() { 1 } else { 2 };
        let mut contended = World::preset(Preset::ClientCheck, 3);
        contended.heartbeat = true;
        contended.allow_cancel = true;
        let mut conditional = World::preset(Preset::DbConditional, 2);
        conditional.targets = vec![sim_core::Protect::Gateway];
        for (index, mut world) in [contended, conditional].into_iter().enumerate() {
            world.design.claim = claim;
            // The second world has one job, so an atomic claim is `claim`
            // (but a claim that locks both rows needs two).
            world.jobs = if index == 0 || claim.locks_both() {
                jobs
            } else {
                1
            };
            let machine = Machine::new(world).unwrap();
            for case in 0..12 {
                let choices = strategy.new_tree(&mut runner).unwrap().current();
                let (moves, _) = play_choices(&machine, &choices);
                let id = format!("{}-{index}-{case}", claim.name());
                let played = schedule_scenario(&machine, &moves, &id, Text::both(&id));
                drawn.push((id, played.scenario));
            }
        }
    }
    // Worlds where a lock holder may crash, drawn after the others so
    // that their draws stay as they were.
    for claim in ClaimProcedure::ALL
        .into_iter()
        .filter(|c| c.transactional())
    {
        let mut world = World::preset(Preset::ClientCheck, 3);
        world.heartbeat = true;
        world.allow_cancel = true;
        world.design.claim = claim;
        world.jobs = if claim.single_job() { 1 } else { 2 };
        world.crashes = true;
        let machine = Machine::new(world).unwrap();
        for case in 0..12 {
            let choices = strategy.new_tree(&mut runner).unwrap().current();
            let (moves, _) = play_choices(&machine, &choices);
            let id = format!("{}-crash-{case}", claim.name());
            let played = schedule_scenario(&machine, &moves, &id, Text::both(&id));
            drawn.push((id, played.scenario));
        }
    }
    for case in classification() {
        if case.world.design.claim == ClaimProcedure::Atomic {
            continue;
        }
        let report = explore(&case.world, Method::Exhaustive, &mut RunToEnd).unwrap();
        if let Some(found) = report.counterexample {
            drawn.push((format!("{} counterexample", case.name), found.scenario));
        }
        if let Some(blocked) = report.blocked_takeover {
            drawn.push((format!("{} blocked takeover", case.name), blocked.scenario));
        }
        if let Some(deadlock) = report.deadlock {
            drawn.push((format!("{} deadlock", case.name), deadlock.scenario));
        }
    }
    let used: std::collections::BTreeSet<&str> = drawn
        .iter()
        .flat_map(|(_, s)| s.steps.iter().map(|step| step.action.name()))
        .collect();
    for action in [
        "begin",
        "select",
        "select_for_update",
        "select_skip_locked",
        "select_nowait",
        "update_claim",
        "commit",
        "claim",
        "claim_next",
        "crash",
    ] {
        assert!(
            used.contains(action),
            "no drawn schedule uses `{action}`: {used:?}"
        );
    }
    assert!(
        drawn.iter().any(|(id, _)| id.ends_with("blocked takeover")),
        "a blocked takeover is replayed"
    );
    // A lock cycle: the explorer's shortest deadlock, and random schedules
    // that meet one.
    let deadlocks = drawn
        .iter()
        .filter(|(_, scenario)| {
            sim_core::run(scenario)
                .steps
                .iter()
                .any(|record| record.reason == Some(sim_core::Reason::Deadlock))
        })
        .count();
    assert!(
        drawn.iter().any(|(id, _)| id.ends_with(" deadlock")) && deadlocks >= 2,
        "deadlocks are replayed ({deadlocks})"
    );
    assert!(
        drawn.iter().any(|(_, scenario)| {
            sim_core::run(scenario)
                .steps
                .iter()
                .any(|record| record.reason == Some(sim_core::Reason::LockNotAvailable))
        }),
        "a `NOWAIT` read that fails is replayed"
    );
    // A crash that rolled a claim back: its generation is granted again.
    assert!(
        drawn.iter().any(|(_, scenario)| {
            let mut granted = std::collections::BTreeSet::new();
            let trace = sim_core::run(scenario);
            scenario
                .steps
                .iter()
                .zip(&trace.steps)
                .filter(|(step, _)| step.action == sim_core::Action::UpdateClaim)
                .filter_map(|(_, record)| record.generation.map(|g| (record.job, g)))
                .any(|claim| !granted.insert(claim))
        }),
        "a crash that rolls back a claim is replayed"
    );
    let mut report = String::new();
    let mut failures = 0;
    for (id, scenario) in &drawn {
        assert!(has_sql(scenario), "{id}: no job-table step");
        let found = findings(scenario, &url);
        if !found.is_empty() {
            failures += 1;
            if failures <= 3 {
                let _ = writeln!(
                    report,
                    "--- {id}:\n{}\n{}",
                    found.join("\n"),
                    sim_core::scenario_to_toml(scenario)
                );
            }
        }
    }
    assert!(
        report.is_empty(),
        "{failures} of {} explorer-drawn scenarios disagree; the first ones:\n{report}",
        drawn.len()
    );
}
