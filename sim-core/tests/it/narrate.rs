//! The shared pieces both front ends draw from: lease spans, and a step in
//! words with and without the oracle's verdict.

use sim_core::{LeaseClose, Scenario};

const PAUSE: &str = r#"
id = "pause"
title = { en = "A paused worker", zh = "暂停的 Worker" }
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
clocks = { A = -2 }
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 6, worker = "B", do = "renew" },
  { at = 7, worker = "B", do = "finish" },
  { at = 8, worker = "A", do = "resume" },
  { at = 8, worker = "A", do = "finish" },
]
"#;

fn pause() -> Scenario {
    sim_core::parse_scenario(PAUSE.as_bytes()).unwrap()
}

#[test]
fn leases_end_when_replaced_or_finished() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let spans = sim_core::leases(&scenario, &trace);
    assert_eq!(spans.len(), 2);
    assert_eq!((spans[0].worker, spans[0].generation), (0, 1));
    assert_eq!(spans[0].start_step, 0);
    // Database time: the worker's skewed clock does not move the expiry.
    assert_eq!((spans[0].until, spans[0].expiry), (5, 5));
    assert_eq!(spans[0].closed, Some((2, LeaseClose::Replaced)));
    assert_eq!((spans[1].worker, spans[1].generation), (1, 2));
    // B's renew at 6 keeps 11; its finish ends the lease.
    assert_eq!(spans[1].until, 11);
    assert_eq!(spans[1].closed, Some((4, LeaseClose::Ended)));
}

#[test]
fn a_lease_on_the_worker_clock_expires_by_true_time() {
    // The same story with leases judged by the acting worker's clock.
    let text = PAUSE.replace("design = \"ttl-lock-only\"\n", "")
        + "\n[design]\nlease_clock = \"worker\"\ncommit_checks = []\nrenew_checks = []\ntarget_protect = \"none\"\n";
    let scenario =
        sim_core::parse_scenario(text.as_bytes()).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    let trace = sim_core::run(&scenario);
    let spans = sim_core::leases(&scenario, &trace);
    // A's clock reads t - 2: it writes lease_until = -2 + 5 = 3, which its
    // own clock passes at true time 5.
    assert_eq!((spans[0].until, spans[0].expiry), (3, 5));
}

#[test]
fn the_outcome_alone_leaves_out_the_verdict() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let stale = trace
        .violations
        .first()
        .map(|v| v.step as usize)
        .expect("the stale finish is a violation");
    for lang in sim_core::Lang::ALL {
        let full = sim_core::describe_step(&scenario, &trace, stale, lang);
        let plain = sim_core::describe_outcome(&scenario, &trace, stale, lang);
        let verdict = sim_core::safety_reason(&scenario, &trace, stale, lang);
        assert!(!plain.is_empty());
        assert!(full.starts_with(&plain), "{full} / {plain}");
        assert!(full.ends_with(&verdict), "{full} / {verdict}");
        assert!(!plain.contains(&verdict));
    }
    // A step nothing had to refuse reads the same either way.
    assert_eq!(
        sim_core::describe_step(&scenario, &trace, 2, sim_core::Lang::En),
        sim_core::describe_outcome(&scenario, &trace, 2, sim_core::Lang::En)
    );
}

#[test]
fn a_pending_step_names_the_action_but_not_its_result() {
    let scenario = pause();
    let trace = sim_core::run(&scenario);
    let asked = sim_core::describe_pending(&scenario, 6, sim_core::Lang::En);
    assert!(asked.starts_with("Tick 8: A's finish"), "{asked}");
    let done = sim_core::describe_outcome(&scenario, &trace, 6, sim_core::Lang::En);
    assert!(done.contains("took effect") && !asked.contains("took effect"));
    assert!(sim_core::describe_pending(&scenario, 6, sim_core::Lang::Zh).contains("时刻 8"));
    assert_eq!(
        sim_core::describe_pending(&scenario, 99, sim_core::Lang::En),
        ""
    );
}
