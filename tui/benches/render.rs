//! The terminal app's speed (issue 5): one frame of a 200-step timeline
//! through ratatui's `TestBackend` (target: under 1 ms median), and the
//! work `fencelab` does before its first frame — reading the twelve
//! lessons and the progress file, building the course, drawing the map.
//!
//! `cargo bench -p fencelab --bench render`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use fencelab::bench::Frames;

/// A 200-step scenario: three workers that claim, write to two targets,
/// renew, pause past their lease and finish, over and over.
fn two_hundred_steps() -> sim_core::Scenario {
    let mut steps = String::new();
    let mut at = 0;
    let pattern = [
        ("claim", None),
        ("write", Some("ledger")),
        ("renew", None),
        ("pause", None),
        ("write", Some("report")),
        ("finish", None),
        ("check", None),
    ];
    for index in 0..200 {
        let worker = ["A", "B", "C"][index % 3];
        let (action, target) = pattern[(index / 3) % pattern.len()];
        let target = target.map_or(String::new(), |t| format!(", target = \"{t}\""));
        writeln!(
            steps,
            "  {{ at = {at}, worker = \"{worker}\", do = \"{action}\"{target} }},"
        )
        .unwrap();
        if index % 2 == 1 {
            at += 1;
        }
    }
    let text = format!(
        "id = \"bench\"\ntitle = {{ en = \"Two hundred steps\", zh = \"两百步\" }}\nttl = 4\n\
         workers = [\"A\", \"B\", \"C\"]\njobs = [\"r1\", \"r2\", \"r3\"]\ndesign = \"fenced-highest-seen\"\n\
         steps = [\n{steps}]\n\n[[targets]]\nid = \"ledger\"\n\n[[targets]]\nid = \"report\"\nprotect = \"none\"\n"
    );
    sim_core::parse_scenario(text.as_bytes()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn timeline_frame(c: &mut Criterion) {
    let scenario = two_hundred_steps();
    assert_eq!(scenario.steps.len(), 200);
    let mut group = c.benchmark_group("timeline frame, 200 steps");
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let mut frames = Frames::sandbox(scenario.clone(), width, height).unwrap();
        // Every step in turn, so the frame is not always the first one.
        group.bench_function(format!("{width}x{height}"), |b| {
            b.iter(|| {
                frames.step();
                black_box(frames.draw().unwrap())
            });
        });
    }
    group.finish();
}

fn start_up(c: &mut Criterion) {
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let data = tempfile::tempdir().unwrap();
    c.bench_function("start-up to first frame (12 lessons, 80x24)", |b| {
        b.iter(|| {
            let mut frames = Frames::course(&lessons, data.path(), 80, 24).unwrap();
            black_box(frames.draw().unwrap())
        });
    });
}

criterion_group!(benches, timeline_frame, start_up);
criterion_main!(benches);
