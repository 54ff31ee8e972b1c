//! Replaying a long scenario: steps per second, against the floor of merely
//! pushing as many trace entries into a `Vec`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim_core::{Action, Outcome, Preset, Protect, Scenario, Step, StepTrace, run};

const STEPS: usize = 10_000;

/// Three workers take turns: each claims after the previous lease ran out,
/// writes to all three targets, renews, and the previous holder wakes up to
/// write stale — every kind of check runs on every round.
fn long_scenario() -> Scenario {
    let mut scenario = Scenario::new("bench", 4, &["A", "B", "C"]);
    scenario.set_design(
        Preset::DbConditional.design(),
        sim_core::DesignSource::Preset(Preset::DbConditional),
    );
    let targets = [
        scenario.add_target("plain", Some(Protect::None)),
        scenario.add_target("highest", Some(Protect::HighestToken)),
        scenario.add_target("registered", Some(Protect::RegisteredToken)),
    ];
    let mut at = 0;
    let mut round = 0u16;
    while scenario.steps.len() < STEPS {
        let worker = round % 3;
        let previous = (round + 2) % 3;
        scenario
            .steps
            .push(Step::new(at, Some(worker), Action::Claim));
        for target in targets {
            let mut write = Step::new(at + 1, Some(worker), Action::Write);
            write.target = Some(target);
            scenario.steps.push(write);
        }
        scenario
            .steps
            .push(Step::new(at + 2, Some(worker), Action::Renew));
        let mut stale = Step::new(at + 2, Some(previous), Action::Write);
        stale.target = Some(targets[round as usize % 3]);
        scenario.steps.push(stale);
        scenario
            .steps
            .push(Step::new(at + 3, Some(previous), Action::Renew));
        at += 7;
        round = round.wrapping_add(1);
    }
    scenario.steps.truncate(STEPS);
    scenario
}

fn bench_replay(c: &mut Criterion) {
    let scenario = long_scenario();
    if let Err(problem) = scenario.check() {
        panic!("benchmark scenario invalid: {problem}");
    }
    let trace = run(&scenario);
    assert!(!trace.violations.is_empty() || trace.should_reject.len() > STEPS / 20);
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(STEPS as u64));
    group.bench_function("run_10k_steps_3_workers_3_targets", |b| {
        b.iter(|| run(black_box(&scenario)));
    });
    let entry = StepTrace {
        job: Some(0),
        outcome: Outcome::Ok,
        reason: None,
        token: Some(1),
        failed_checks: None,
        generation: Some(1),
        newest_generation: Some(1),
        expired: Some(false),
        lease_valid: None,
        rows: Some(1),
        lease_until: Some(5),
        waited_until: None,
        released_by: None,
        row: None,
        request_step: None,
        approved_step: None,
    };
    group.bench_function("floor_vec_push_10k_trace_entries", |b| {
        b.iter(|| {
            let mut entries = Vec::with_capacity(STEPS);
            for index in 0..STEPS {
                let mut next = entry;
                next.token = Some(index as u64);
                entries.push(black_box(next));
            }
            entries
        });
    });
    group.finish();
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
