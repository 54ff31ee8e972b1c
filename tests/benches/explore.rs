//! Exhaustive exploration throughput, in distinct states per second:
//! sim-core's breadth-first explorer against the `stateright` model
//! checker (single-threaded BFS) running the same step function, at about
//! 10^5 and 10^6 distinct states.
//!
//! Before measuring, each size is run once by both checkers to check that
//! they agree on the state count, and to print memory per distinct state:
//! ours as the search reports it (`peak_bytes`, the tables it held at the
//! end), and for both the growth of the peak resident set of a fresh child
//! process (this binary again, told by `FENCELAB_PEAK_RSS` to run one
//! search and print `VmHWM` minus its starting `VmRSS`; Linux only).

#![allow(
    clippy::print_stderr,
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used
)]

#[path = "../peer/mod.rs"]
mod peer;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput, criterion_group};
use sim_core::Preset;
use sim_core::explore::{Method, RunToEnd, Verdict, World, explore};
use stateright::{Checker, Model};

use peer::{NO_VIOLATION, Peer};

/// The `full` design with cancel allowed (safe), `workers` workers.
fn world(workers: usize, max_time: u8, max_claims: u8) -> World {
    let mut world = World::preset(Preset::Full, workers);
    world.allow_cancel = true;
    world.bounds.max_time = max_time;
    world.bounds.max_claims = max_claims;
    world
}

fn ours(world: &World) -> u64 {
    let report = explore(world, Method::Exhaustive, &mut RunToEnd).expect("valid world");
    report.stats.states
}

fn stateright(world: &World) -> usize {
    let checker = Peer::new(world.clone())
        .expect("valid world")
        .checker()
        .threads(1)
        .spawn_bfs()
        .join();
    checker.unique_state_count()
}

/// A field of `/proc/self/status` in bytes (`VmHWM`, `VmRSS`), if readable.
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The environment variable that makes this binary a child measuring one
/// search: `ours` or `stateright`, then workers, time and claim bounds.
const PEAK_RSS_VAR: &str = "FENCELAB_PEAK_RSS";

/// In a fresh child process, how much the peak resident set grows while
/// one search runs, if measurable.
fn peak_rss_growth(checker: &str, world: &World) -> Option<u64> {
    let spec = format!(
        "{checker}:{}:{}:{}",
        world.workers.len(),
        world.bounds.max_time,
        world.bounds.max_claims
    );
    let output = std::process::Command::new(std::env::current_exe().ok()?)
        .env(PEAK_RSS_VAR, spec)
        .output()
        .ok()?;
    String::from_utf8(output.stdout).ok()?.trim().parse().ok()
}

/// The child's side of [`peak_rss_growth`]: prints the growth in bytes.
fn peak_rss_child(spec: &str) {
    let fields: Vec<&str> = spec.split(':').collect();
    let [checker, workers, max_time, max_claims] = fields[..] else {
        panic!("bad {PEAK_RSS_VAR}: {spec}");
    };
    let world = world(
        workers.parse().expect("workers"),
        max_time.parse().expect("max_time"),
        max_claims.parse().expect("max_claims"),
    );
    let before = status_bytes("VmRSS:").expect("/proc/self/status");
    match checker {
        "ours" => {
            black_box(ours(&world));
        }
        _ => {
            black_box(stateright(&world));
        }
    }
    let peak = status_bytes("VmHWM:").expect("/proc/self/status");
    println!("{}", peak.saturating_sub(before));
}

/// Checks agreement, prints counts and memory, returns the state count.
fn survey(label: &str, world: &World) -> u64 {
    let report = explore(world, Method::Exhaustive, &mut RunToEnd).expect("valid world");
    assert_eq!(report.verdict, Verdict::Safe);
    assert!(report.exhausted);
    let states = report.stats.states;
    let checker = Peer::new(world.clone())
        .expect("valid world")
        .checker()
        .threads(1)
        .spawn_bfs()
        .join();
    assert!(checker.discovery(NO_VIOLATION).is_none());
    assert_eq!(
        checker.unique_state_count() as u64,
        states,
        "{label}: state counts differ"
    );
    eprintln!(
        "{label}: {} workers, time <= {}, claims <= {}, cancel: {states} distinct states \
         (stateright {}), {} transitions, depth {}",
        world.workers.len(),
        world.bounds.max_time,
        world.bounds.max_claims,
        checker.unique_state_count(),
        report.stats.transitions,
        report.stats.depth,
    );
    drop(checker);
    eprintln!(
        "{label}: sim-core tables {} bytes = {:.1} bytes/state",
        report.stats.peak_bytes,
        report.stats.peak_bytes as f64 / states as f64
    );
    let per_state = |bytes: Option<u64>| {
        bytes.map_or_else(
            || "n/a".to_owned(),
            |b| format!("{:.1} bytes/state", b as f64 / states as f64),
        )
    };
    let rss_ours = peak_rss_growth("ours", world);
    let rss_peer = peak_rss_growth("stateright", world);
    eprintln!(
        "{label}: peak RSS growth, fresh process: sim-core {}, stateright {}",
        per_state(rss_ours),
        per_state(rss_peer)
    );
    states
}

fn bench_size(c: &mut Criterion, label: &str, world: &World) {
    let states = survey(label, world);
    let mut group = c.benchmark_group(format!("explore/{label}"));
    group
        .throughput(Throughput::Elements(states))
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("sim-core", |b| b.iter(|| ours(black_box(world))));
    group.bench_function("stateright", |b| b.iter(|| stateright(black_box(world))));
    group.finish();
}

fn bench_explore(c: &mut Criterion) {
    bench_size(c, "1e5", &world(3, 16, 3));
    bench_size(c, "1e6", &world(4, 24, 3));
}

criterion_group!(benches, bench_explore);

// `criterion_main!`, plus the child mode of `peak_rss_growth`.
fn main() {
    if let Ok(spec) = std::env::var(PEAK_RSS_VAR) {
        peak_rss_child(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
