//! The design lab's standard world (2 workers, the job table and two
//! targets, TTL 3, cancel allowed, time ≤ 12), checked exhaustively: the
//! check a learner waits for after pressing "attack my design"; and the
//! same world with delivery delays (requests in flight).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sim_core::Preset;
use sim_core::explore::{Method, RunToEnd, World, explore};

fn bench_design_lab(c: &mut Criterion) {
    let mut group = c.benchmark_group("design_lab");
    for preset in [Preset::Full, Preset::FencedRegistered, Preset::TtlLockOnly] {
        let mut world = World::preset(preset, 2);
        world.allow_cancel = true;
        world.bounds.max_time = 12;
        group.bench_function(format!("exhaustive_{}", preset.name()), |b| {
            b.iter(|| explore(black_box(&world), Method::Exhaustive, &mut RunToEnd));
        });
    }
    // The same world when requests travel (at most 2 in flight, each
    // arriving within 3 ticks): the designs that stay safe, searched whole.
    for preset in [Preset::Full, Preset::FencedRegistered] {
        let mut world = World::preset(preset, 2);
        world.allow_cancel = preset == Preset::Full;
        world.bounds = world.bounds.with_delays();
        group.bench_function(format!("exhaustive_{}_with_delays", preset.name()), |b| {
            b.iter(|| explore(black_box(&world), Method::Exhaustive, &mut RunToEnd));
        });
    }
    group.finish();
}

criterion_group!(benches, bench_design_lab);
criterion_main!(benches);
