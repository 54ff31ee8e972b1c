//! Drawing a practice round (issue 24): a learner waits for it after
//! pressing "next round", so drawing and shrinking one must stay well under
//! 50 ms natively (the page's worker is measured by web/e2e/measure.mjs).
//! Each lesson with a practice world, its first and its costliest
//! situation, at levels 1 and 4; criterion reports each median
//! (`target/criterion/practice/*/new/estimates.json`).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use sim_core::course::parse_lesson;
use sim_core::course::practice::{RoundKey, draw_round};

fn bench_practice(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut lessons: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .filter_map(|path| std::fs::read(&path).ok())
        .filter_map(|bytes| parse_lesson(&bytes).ok())
        .filter(|lesson| lesson.practice.is_some())
        .collect();
    lessons.sort_by_key(|lesson| lesson.order);
    let mut group = c.benchmark_group("practice");
    for lesson in &lessons {
        let Some(practice) = &lesson.practice else {
            continue;
        };
        for &focus in &practice.situations {
            for level in [1u8, 4] {
                let name = format!("{}_{}_level{level}", &lesson.id[..2], focus.name());
                // A fresh learner's round each iteration (seeds in turn), so
                // the median is over rounds, not one lucky draw.
                let mut seed = 0u32;
                group.bench_function(name, |b| {
                    b.iter(|| {
                        seed = seed.wrapping_add(1) % 64;
                        let key = RoundKey {
                            pool: lesson.id.clone(),
                            seed,
                            round: 0,
                            level,
                            focus,
                        };
                        black_box(draw_round(practice, &key))
                    });
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, bench_practice);
criterion_main!(benches);
