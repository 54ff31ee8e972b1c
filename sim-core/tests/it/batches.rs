//! Batches within one holder's generation (C18): the `batch` of a write,
//! a target's `check_batch` revision, and the oracle's `stale_batch`.

use sim_core::{Lang, Outcome, Reason, Scenario, Trace, ViolationKind, parse_scenario, run};

/// A sends batches 2 and 3 as requests; batch 3 arrives first. Then B takes
/// over and writes its batch 1. `{check}` is put into the target's table.
fn delayed(check: &str) -> String {
    format!(
        r#"
id = "delayed"
ttl = 10
workers = ["A", "B"]
design = "fenced-highest-seen"
steps = [
  {{ at = 0, worker = "A", do = "claim" }},
  {{ at = 1, worker = "A", do = "write", target = "report", batch = 2, request = "a2" }},
  {{ at = 2, worker = "A", do = "write", target = "report", batch = 3, request = "a3" }},
  {{ at = 3, do = "deliver", request = "a3" }},
  {{ at = 4, do = "deliver", request = "a2" }},
  {{ at = 5, worker = "A", do = "write", target = "report", batch = 3 }},
  {{ at = 12, worker = "B", do = "claim" }},
  {{ at = 13, worker = "B", do = "write", target = "report", batch = 1 }},
  {{ at = 14, worker = "A", do = "write", target = "report", batch = 9 }},
]

[[targets]]
id = "report"
{check}
"#
    )
}

const LATE: usize = 4;
const REPEAT: usize = 5;
const TAKEOVER_WRITE: usize = 7;
const STALE_HOLDER: usize = 8;

fn parsed(text: &str) -> Scenario {
    parse_scenario(text.as_bytes()).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

fn ran(text: &str) -> (Scenario, Trace) {
    let scenario = parsed(text);
    let trace = run(&scenario);
    (scenario, trace)
}

#[test]
fn the_revision_refuses_an_older_or_repeated_batch_of_the_same_token() {
    let (_, trace) = ran(&delayed("check_batch = true"));
    let late = &trace.steps[LATE];
    assert_eq!(late.outcome, Outcome::Rejected);
    assert_eq!(late.reason, Some(Reason::StaleBatch));
    let repeat = &trace.steps[REPEAT];
    assert_eq!(repeat.outcome, Outcome::Rejected);
    assert_eq!(repeat.reason, Some(Reason::StaleBatch));
    // A higher token starts over at any batch.
    assert_eq!(trace.steps[TAKEOVER_WRITE].outcome, Outcome::Ok);
    // A lower token is the protection's to refuse, and says so.
    assert_eq!(trace.steps[STALE_HOLDER].reason, Some(Reason::StaleToken));
    assert_eq!(trace.final_targets[0].progress, Some((Some(2), 1)));
    assert!(trace.violations.is_empty());
}

#[test]
fn the_revision_alone_orders_tokens_too() {
    // Without a token check, the (token, batch) pair still refuses a lower
    // token: as `WHERE (fence, step) < (:token, :batch)` would.
    let (_, trace) = ran(&delayed("protect = \"none\"\ncheck_batch = true"));
    assert_eq!(trace.steps[STALE_HOLDER].outcome, Outcome::Rejected);
    assert_eq!(trace.steps[STALE_HOLDER].reason, Some(Reason::StaleBatch));
    assert_eq!(trace.steps[LATE].reason, Some(Reason::StaleBatch));
}

#[test]
fn without_the_check_the_older_batch_is_a_violation() {
    let (_, trace) = ran(&delayed(""));
    assert_eq!(trace.steps[LATE].outcome, Outcome::Ok);
    let late = LATE as u32;
    assert!(trace.should_reject.contains(&late));
    assert_eq!(
        trace
            .violations
            .iter()
            .map(|v| (v.step, v.kind))
            .collect::<Vec<_>>(),
        vec![(late, ViolationKind::StaleBatch)]
    );
    // A repeat of the highest applied batch may go either way.
    let repeat = REPEAT as u32;
    assert!(trace.may_reject.contains(&repeat));
    assert!(!trace.should_reject.contains(&repeat));
    // Another generation's batch 1 after A's batch 3 is no older progress.
    assert!(!trace.should_reject.contains(&(TAKEOVER_WRITE as u32)));
    // The superseded holder's write is judged stale, as before.
    assert!(trace.should_reject.contains(&(STALE_HOLDER as u32)));
    assert_eq!(trace.final_targets[0].progress, None);
}

#[test]
fn the_verdict_is_the_same_whatever_the_target_checks() {
    let (_, plain) = ran(&delayed(""));
    let (_, checked) = ran(&delayed("check_batch = true"));
    assert_eq!(plain.should_reject, checked.should_reject);
}

#[test]
fn writes_without_a_batch_are_unchanged_by_the_check() {
    let without = delayed("").replace(", batch = ", ", value = ");
    let with_check = delayed("check_batch = true").replace(", batch = ", ", value = ");
    let (_, plain) = ran(&without);
    let (_, checked) = ran(&with_check);
    assert_eq!(plain.steps, checked.steps);
    assert_eq!(plain.violations, checked.violations);
    assert_eq!(plain.should_reject, checked.should_reject);
    assert_eq!(checked.final_targets[0].progress, None);
}

#[test]
fn a_refused_batch_does_not_use_up_an_idempotency_key() {
    let text = r#"
id = "keyed"
ttl = 10
workers = ["A"]
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "write", target = "t", op = "a", batch = 2 },
  { at = 2, worker = "A", do = "write", target = "t", op = "b", batch = 1 },
  { at = 3, worker = "A", do = "write", target = "t", op = "b", batch = 3 },
]

[[targets]]
id = "t"
protect = "idempotency_key"
check_batch = true
"#;
    let (_, trace) = ran(text);
    assert_eq!(trace.steps[2].reason, Some(Reason::StaleBatch));
    assert_eq!(trace.steps[3].outcome, Outcome::Ok);
}

#[test]
fn batches_round_trip_through_the_writer() {
    for check in ["", "check_batch = true"] {
        let scenario = parsed(&delayed(check));
        let written = sim_core::scenario_to_toml(&scenario);
        assert_eq!(parsed(&written), scenario, "{written}");
        let json = sim_core::scenario_to_json(&scenario);
        assert_eq!(json["steps"][1]["batch"], 2);
        assert!(json["steps"][0].get("batch").is_none());
        assert_eq!(
            json["targets"][0].get("check_batch").is_some(),
            !check.is_empty()
        );
    }
}

#[test]
fn run_json_shows_the_batch_of_a_write_and_of_its_delivery() {
    let (scenario, trace) = ran(&delayed("check_batch = true"));
    let json = trace.to_json(&scenario);
    assert_eq!(json["steps"][1]["batch"], 2);
    assert_eq!(json["steps"][LATE]["batch"], 2);
    assert!(json["steps"][0]["batch"].is_null());
    assert_eq!(json["targets"][0]["check_batch"], true);
    assert_eq!(json["targets"][0]["progress"]["token"], 2);
}

#[test]
fn narration_says_the_batch_and_why_in_both_languages() {
    let (scenario, trace) = ran(&delayed(""));
    let en = sim_core::describe_step(&scenario, &trace, LATE, Lang::En);
    assert!(en.contains("(batch 2)"), "{en}");
    assert!(en.contains("already applied batch 3"), "{en}");
    assert!(en.contains("a violation"), "{en}");
    let zh = sim_core::describe_step(&scenario, &trace, LATE, Lang::Zh);
    assert!(zh.contains("（批次 2）"), "{zh}");
    assert!(zh.contains("批次 3"), "{zh}");
    assert!(zh.contains("违例"), "{zh}");
    let violation = trace.violations[0];
    let line = sim_core::violation_line(&scenario, &trace, &violation, Lang::En);
    assert!(
        line.contains("batch 3") && line.ends_with("[stale_batch]"),
        "{line}"
    );
    let line = sim_core::violation_line(&scenario, &trace, &violation, Lang::Zh);
    assert!(
        line.contains("批次 3") && line.ends_with("[stale_batch]"),
        "{line}"
    );
    // The repeat: either is correct, said as such.
    let repeat = sim_core::safety_reason(&scenario, &trace, REPEAT, Lang::En);
    assert!(repeat.contains("either is correct"), "{repeat}");
    let repeat = sim_core::safety_reason(&scenario, &trace, REPEAT, Lang::Zh);
    assert!(repeat.contains("两种处理都正确"), "{repeat}");

    let (scenario, trace) = ran(&delayed("check_batch = true"));
    let en = sim_core::describe_step(&scenario, &trace, LATE, Lang::En);
    assert!(
        en.contains("progress revision") && en.contains("and it was"),
        "{en}"
    );
    let zh = sim_core::describe_step(&scenario, &trace, LATE, Lang::Zh);
    assert!(zh.contains("进度") && zh.contains("也确实被拒绝了"), "{zh}");
    assert_eq!(
        sim_core::reason_label(Reason::StaleBatch, Lang::En),
        "stale batch"
    );
    assert_eq!(
        sim_core::violation_label(ViolationKind::StaleBatch, Lang::Zh),
        "旧批次生效"
    );
}
