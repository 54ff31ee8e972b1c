//! The example stories in `examples/`: every file parses and runs, and every
//! story shows what its description promises (the violation it teaches, at
//! the step it names, or no violation at all for the safe designs).
//!
//! Steps are looked up by `(worker, do, at)` in the `--json` object rather
//! than by index, so adding a label step to a story does not break its test.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

const EXAMPLES_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");

/// Every story the course refers to; a missing file is a broken link.
const STORIES: [&str; 30] = [
    "01-article-stale-finish",
    "02-ttl-lock-double-execution",
    "03-check-then-write-race",
    "04-idempotency-key-stale-write",
    "05-highest-seen-gap",
    "06-registered-token-rejects",
    "07-cancel-then-commit",
    "07b-cancel-state-checked",
    "08-clock-skew-worker-time",
    "08b-clock-skew-db-time",
    "09-unlocked-select-double-claim",
    "09b-select-for-update-claim",
    "10-long-claim-transaction",
    "10b-long-claim-transaction-commit",
    "11-skip-locked-queue",
    "12-restarted-same-owner",
    "13-versioned-report",
    "14-random-token",
    "15-crash-releases-lock",
    "16-deadlock",
    "17-request-in-flight-sending-gateway",
    "17b-request-in-flight-registered",
    "17c-request-in-flight-cancel",
    "18-nowait",
    "19-delayed-batch",
    "19b-delayed-batch-checked",
    "20-token-of-a-rolled-back-claim",
    "21-approved-intent",
    "22-input-revision",
    "22b-input-revision-unchecked",
];

const OUTCOMES: [&str; 5] = ["ok", "rejected", "duplicate", "noop", "waiting"];

// ---------------------------------------------------------------- helpers

fn example_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(EXAMPLES_DIR)
        .unwrap_or_else(|err| panic!("cannot read {EXAMPLES_DIR}: {err}"))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .expect("UTF-8 file name")
        .to_owned()
}

fn parse_file(path: &Path) -> sim_core::Scenario {
    let bytes =
        std::fs::read(path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    match sim_core::parse_scenario(&bytes) {
        Ok(scenario) => scenario,
        Err(diagnostics) => {
            let shown: Vec<String> = diagnostics
                .iter()
                .map(|d| format!("{}:{}:{}: {}", path.display(), d.line, d.col, d.message))
                .collect();
            panic!("example does not parse:\n{}", shown.join("\n"));
        }
    }
}

fn run_path(path: &Path) -> Value {
    let scenario = parse_file(path);
    let trace = sim_core::run(&scenario);
    trace.to_json(&scenario)
}

/// The `fencelab run --json` object of `examples/<name>.toml`.
fn run(name: &str) -> Value {
    run_path(&Path::new(EXAMPLES_DIR).join(format!("{name}.toml")))
}

fn steps(trace: &Value) -> &Vec<Value> {
    trace["steps"].as_array().expect("`steps` is an array")
}

/// The one step done by `worker` (`None`: the user) with action `action` at
/// tick `at`.
fn step<'a>(trace: &'a Value, worker: Option<&str>, action: &str, at: u64) -> &'a Value {
    let found: Vec<&Value> = steps(trace)
        .iter()
        .filter(|s| {
            s["worker"].as_str() == worker && s["do"] == action && s["at"].as_u64() == Some(at)
        })
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{}: expected exactly one step {worker:?} {action} at {at}",
        trace["scenario"]
    );
    found[0]
}

fn a<'a>(trace: &'a Value, worker: &str, action: &str, at: u64) -> &'a Value {
    step(trace, Some(worker), action, at)
}

fn index(step: &Value) -> u64 {
    step["i"].as_u64().expect("step index `i`")
}

fn outcome(step: &Value) -> &str {
    step["outcome"].as_str().expect("step outcome")
}

fn reason(step: &Value) -> Option<&str> {
    step["reason"].as_str()
}

fn failed_checks(step: &Value) -> Vec<&str> {
    step["failed_checks"]
        .as_array()
        .map(|checks| checks.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The violation kinds the oracle reported for `step`.
fn violations_of<'a>(trace: &'a Value, step: &Value) -> Vec<&'a str> {
    let i = index(step);
    trace["violations"]
        .as_array()
        .expect("`violations` is an array")
        .iter()
        .filter(|v| v["step"].as_u64() == Some(i))
        .filter_map(|v| v["kind"].as_str())
        .collect()
}

fn index_list(trace: &Value, key: &str) -> BTreeSet<u64> {
    trace[key]
        .as_array()
        .unwrap_or_else(|| panic!("`{key}` is an array"))
        .iter()
        .map(|v| v.as_u64().expect("a step index"))
        .collect()
}

#[track_caller]
fn assert_step(step: &Value, want_outcome: &str) {
    assert_eq!(outcome(step), want_outcome, "step {step}");
}

#[track_caller]
fn assert_violation(trace: &Value, step: &Value, kind: &str) {
    let kinds = violations_of(trace, step);
    assert!(
        kinds.contains(&kind),
        "{}: expected a `{kind}` violation at step {step}; violations: {}",
        trace["scenario"],
        trace["violations"]
    );
}

#[track_caller]
fn assert_no_violations(trace: &Value) {
    assert_eq!(
        trace["violations"],
        serde_json::json!([]),
        "{}: expected no violation",
        trace["scenario"]
    );
}

/// The steps the oracle flagged, as a set of indices.
fn violation_steps(trace: &Value) -> BTreeSet<u64> {
    trace["violations"]
        .as_array()
        .expect("`violations` is an array")
        .iter()
        .map(|v| v["step"].as_u64().expect("violation step"))
        .collect()
}

// ---------------------------------------------------------------- all files

#[test]
fn every_story_has_its_file() {
    let present: BTreeSet<String> = example_files().iter().map(|p| stem(p)).collect();
    for story in STORIES {
        assert!(present.contains(story), "examples/{story}.toml is missing");
    }
}

#[test]
fn every_example_parses_runs_and_is_well_formed() {
    let files = example_files();
    assert!(!files.is_empty(), "no examples found in {EXAMPLES_DIR}");
    for path in files {
        let name = stem(&path);
        let trace = run_path(&path);
        assert_eq!(trace["scenario"], name.as_str(), "the id is the file stem");
        let all = steps(&trace);
        assert!(!all.is_empty(), "{name}: no steps");
        for (position, s) in all.iter().enumerate() {
            assert_eq!(s["i"].as_u64(), Some(position as u64), "{name}: `i`");
            assert!(OUTCOMES.contains(&outcome(s)), "{name}: outcome of {s}");
        }
        let count = all.len() as u64;
        let flagged = violation_steps(&trace);
        let should_reject = index_list(&trace, "should_reject");
        let reconcile = index_list(&trace, "reconcile");
        for i in flagged.iter().chain(&should_reject).chain(&reconcile) {
            assert!(*i < count, "{name}: step index {i} out of range");
        }
        // MODEL.md §5: a violation is a step that should have been rejected
        // and took effect.
        assert!(
            flagged.is_subset(&should_reject),
            "{name}: violations {flagged:?} not within should_reject {should_reject:?}"
        );
        for v in trace["violations"].as_array().expect("violations") {
            let kind = v["kind"].as_str().expect("kind");
            assert!(
                ["stale", "after_terminal", "stale_batch", "stale_input"].contains(&kind),
                "{name}: kind {kind}"
            );
        }
    }
}

#[test]
fn every_example_runs_the_same_twice() {
    for path in example_files() {
        assert_eq!(run_path(&path), run_path(&path), "{}", path.display());
    }
}

/// Every file speaks both course languages in its title and description.
#[test]
fn every_example_has_bilingual_title_and_description() {
    for path in example_files() {
        let text = std::fs::read_to_string(&path).expect("example text");
        for key in ["title", "description"] {
            let line = text
                .lines()
                .find(|line| line.trim_start().starts_with(&format!("{key} =")))
                .unwrap_or_else(|| panic!("{}: no `{key}`", path.display()));
            assert!(
                line.contains("en = \"") && line.contains("zh = \""),
                "{}: `{key}` needs en and zh",
                path.display()
            );
        }
    }
}

// ---------------------------------------------------------------- stories

#[test]
fn story_01_article_example_comes_out_exactly() {
    let t = run("01-article-stale-finish");
    let a_claim = a(&t, "A", "claim", 0);
    let b_claim = a(&t, "B", "claim", 6);
    assert_step(a_claim, "ok");
    assert_step(b_claim, "ok");
    assert_eq!(a_claim["token"], 1);
    assert_eq!(b_claim["token"], 2);

    let a_finish = a(&t, "A", "finish", 7);
    assert_step(a_finish, "rejected");
    assert_eq!(a_finish["rows"], 0);
    assert_eq!(failed_checks(a_finish), ["owner", "fence"]);

    let b_finish = a(&t, "B", "finish", 7);
    assert_step(b_finish, "ok");
    assert_eq!(b_finish["rows"], 1);

    assert_no_violations(&t);
    // A's finish is exactly the step a safe design must refuse.
    assert_eq!(
        index_list(&t, "should_reject"),
        BTreeSet::from([index(a_finish)])
    );
}

#[test]
fn story_02_ttl_lock_lets_both_execute() {
    let t = run("02-ttl-lock-double-execution");
    assert_step(a(&t, "B", "claim", 6), "ok");
    assert_step(a(&t, "B", "finish", 8), "ok");
    let a_mail = a(&t, "A", "write", 9);
    let a_finish = a(&t, "A", "finish", 10);
    assert_step(a_mail, "ok");
    assert_step(a_finish, "ok");
    assert_violation(&t, a_mail, "stale");
    assert_violation(&t, a_finish, "stale");
    // B had already finished the job at 8.
    assert_violation(&t, a_finish, "after_terminal");
    // B, the current holder, did nothing wrong.
    for s in [a(&t, "B", "write", 7), a(&t, "B", "finish", 8)] {
        assert!(violations_of(&t, s).is_empty(), "B flagged: {s}");
    }
}

#[test]
fn story_03_check_then_write_leaves_a_window() {
    let t = run("03-check-then-write-race");
    let check = a(&t, "A", "check", 4);
    assert_eq!(
        check["lease_valid"], true,
        "A's lease was valid when checked"
    );
    assert_step(a(&t, "B", "claim", 6), "ok");
    let stale_write = a(&t, "A", "write", 9);
    assert_step(stale_write, "ok");
    assert_eq!(violations_of(&t, stale_write), ["stale"]);
    assert_eq!(violation_steps(&t), BTreeSet::from([index(stale_write)]));
}

#[test]
fn story_04_idempotency_key_is_not_a_fence() {
    let t = run("04-idempotency-key-stale-write");
    let b_close = a(&t, "B", "write", 7);
    assert_step(b_close, "ok");
    assert_eq!(b_close["op"], "close-ticket");

    let a_repeat = a(&t, "A", "write", 9);
    assert_step(a_repeat, "duplicate");
    assert!(
        violations_of(&t, a_repeat).is_empty(),
        "a duplicate has no effect"
    );
    assert!(
        index_list(&t, "should_reject").contains(&index(a_repeat)),
        "the replay would be stale had it taken effect"
    );

    let a_reopen = a(&t, "A", "write", 10);
    assert_eq!(a_reopen["op"], "reopen-ticket");
    assert_step(a_reopen, "ok");
    assert_violation(&t, a_reopen, "stale");
    assert_eq!(violation_steps(&t), BTreeSet::from([index(a_reopen)]));
}

#[test]
fn story_05_highest_seen_accepts_where_the_new_token_never_arrived() {
    let t = run("05-highest-seen-gap");
    let to_report = a(&t, "A", "write", 9);
    assert_eq!(to_report["target"], "report");
    assert_step(to_report, "rejected");

    let to_ledger = a(&t, "A", "write", 10);
    assert_eq!(to_ledger["target"], "ledger");
    assert_eq!(to_ledger["token"], 1);
    assert_step(to_ledger, "ok");
    assert_violation(&t, to_ledger, "stale");
    assert_eq!(violation_steps(&t), BTreeSet::from([index(to_ledger)]));

    assert_step(a(&t, "A", "finish", 10), "rejected");
    assert_step(a(&t, "B", "write", 10), "ok");
    assert_step(a(&t, "B", "finish", 10), "ok");
}

#[test]
fn story_06_registered_fencing_rejects_at_once() {
    let t = run("06-registered-token-rejects");
    assert_step(a(&t, "A", "write", 1), "ok");
    assert_step(a(&t, "A", "write", 9), "rejected");
    assert_step(a(&t, "A", "write", 10), "rejected");
    assert_step(a(&t, "B", "write", 10), "ok");
    assert_step(a(&t, "B", "finish", 10), "ok");
    assert_no_violations(&t);
}

/// 05 and 06 are one timeline under two designs: the same steps should be
/// refused, only what actually happened differs.
#[test]
fn stories_05_and_06_share_a_timeline() {
    let highest = run("05-highest-seen-gap");
    let registered = run("06-registered-token-rejects");
    let shape = |t: &Value| -> Vec<(Value, Value, Value, Value)> {
        steps(t)
            .iter()
            .map(|s| {
                (
                    s["at"].clone(),
                    s["worker"].clone(),
                    s["do"].clone(),
                    s["target"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(shape(&highest), shape(&registered));
    assert_eq!(
        index_list(&highest, "should_reject"),
        index_list(&registered, "should_reject")
    );
}

#[test]
fn story_07_cancel_then_commit_without_state_check() {
    let t = run("07-cancel-then-commit");
    let refund = a(&t, "A", "write", 2);
    assert_step(refund, "ok");
    assert_eq!(refund["op"], "refund-order-42");
    assert_step(step(&t, None, "cancel", 3), "ok");

    let finish = a(&t, "A", "finish", 5);
    assert_step(finish, "ok");
    assert_eq!(violations_of(&t, finish), ["after_terminal"]);
    assert_eq!(violation_steps(&t), BTreeSet::from([index(finish)]));

    assert!(
        index_list(&t, "reconcile").contains(&index(refund)),
        "the refund sent before the cancel must be reconciled"
    );
}

#[test]
fn story_07b_cancel_first_refuses_later_commits() {
    let t = run("07b-cancel-state-checked");
    let refund = a(&t, "A", "write", 2);
    assert_step(refund, "ok");
    assert_step(step(&t, None, "cancel", 3), "ok");

    let late_refund = a(&t, "A", "write", 4);
    assert_step(late_refund, "rejected");
    assert_eq!(failed_checks(late_refund), ["state"]);

    let finish = a(&t, "A", "finish", 5);
    assert_step(finish, "rejected");
    assert_eq!(failed_checks(finish), ["state"]);

    assert_no_violations(&t);
    assert_eq!(index_list(&t, "reconcile"), BTreeSet::from([index(refund)]));
    let should_reject = index_list(&t, "should_reject");
    assert!(should_reject.contains(&index(late_refund)));
    assert!(should_reject.contains(&index(finish)));
}

/// The `run --json` object of `examples/<name>.toml` with its design
/// changed by `change` (the same timeline under another design).
fn run_changed(name: &str, change: impl FnOnce(&mut sim_core::Scenario)) -> Value {
    let mut scenario = parse_file(&Path::new(EXAMPLES_DIR).join(format!("{name}.toml")));
    change(&mut scenario);
    scenario.check().expect("still a valid scenario");
    sim_core::run(&scenario).to_json(&scenario)
}

/// The send at 4 and the delivery at 9 of the stories 17, 17b and 17c.
fn send_and_delivery(t: &Value) -> (&Value, &Value) {
    let send = a(t, "A", "write", 4);
    let delivery = a(t, "A", "deliver", 9);
    assert_eq!(outcome(send), "noop");
    assert_eq!(reason(send), Some("sent"));
    assert_eq!(send["arrived_step"].as_u64(), Some(index(delivery)));
    assert_eq!(send["arrived_at"].as_u64(), Some(9));
    assert_eq!(delivery["sent_step"].as_u64(), Some(index(send)));
    assert_eq!(delivery["sent_at"].as_u64(), Some(4));
    assert_eq!(delivery["request"], "a-refund");
    assert_eq!(delivery["target"], "payments");
    (send, delivery)
}

#[test]
fn story_17_a_sending_gateway_lets_a_request_land_after_the_takeover() {
    let t = run("17-request-in-flight-sending-gateway");
    let (send, delivery) = send_and_delivery(&t);
    assert_eq!(failed_checks(send), Vec::<&str>::new(), "checked at send");
    assert_step(a(&t, "B", "claim", 6), "ok");
    assert_step(delivery, "ok");
    assert_violation(&t, delivery, "stale");
    assert_eq!(violation_steps(&t), BTreeSet::from([index(delivery)]));
    // B's takeover found A's request in flight: pending reconciliation.
    assert_eq!(
        index_list(&t, "reconcile_in_flight"),
        BTreeSet::from([index(send)])
    );

    // The same timeline under `full`, whose gateway is the writer: the check
    // is made when the request arrives, and refuses it.
    let writer = run_changed("17-request-in-flight-sending-gateway", |s| {
        s.set_design(
            sim_core::Preset::Full.design(),
            sim_core::DesignSource::Table,
        );
    });
    let (_, delivery) = send_and_delivery(&writer);
    assert_step(delivery, "rejected");
    assert_no_violations(&writer);
    // And with instantaneous writes the sending gateway is as safe as `full`.
    let instant = run_changed("17-request-in-flight-sending-gateway", |s| {
        s.steps
            .retain(|step| step.action != sim_core::Action::Deliver);
        for step in &mut s.steps {
            if step.action == sim_core::Action::Write {
                step.request = None;
                step.at = 9;
            }
        }
        s.steps.sort_by_key(|step| step.at);
        s.requests.clear();
    });
    assert_step(a(&instant, "A", "write", 9), "rejected");
    assert_no_violations(&instant);
}

#[test]
fn story_17b_a_registered_token_refuses_the_late_request() {
    let t = run("17b-request-in-flight-registered");
    let (send, delivery) = send_and_delivery(&t);
    assert_step(delivery, "rejected");
    assert_eq!(reason(delivery), Some("not_registered"));
    assert_no_violations(&t);
    assert!(index_list(&t, "should_reject").contains(&index(delivery)));
    assert_eq!(
        index_list(&t, "reconcile_in_flight"),
        BTreeSet::from([index(send)])
    );
}

#[test]
fn story_17c_a_cancel_lists_the_request_in_flight_and_its_epoch_refuses_it() {
    let t = run("17c-request-in-flight-cancel");
    let (send, delivery) = send_and_delivery(&t);
    assert_step(step(&t, None, "cancel", 6), "ok");
    assert_eq!(index_list(&t, "reconcile"), BTreeSet::from([index(send)]));
    assert_eq!(
        index_list(&t, "reconcile_in_flight"),
        BTreeSet::from([index(send)])
    );
    assert_step(delivery, "rejected");
    assert_eq!(reason(delivery), Some("not_registered"));
    assert_eq!(t["jobs"][0]["fence"], 2, "the cancel advanced the epoch");
    assert_eq!(t["targets"][0]["registered"], 2);
    assert_no_violations(&t);

    // Without the cancel epoch the registered token is still A's: the
    // refund lands after the cancel.
    let no_epoch = run_changed("17c-request-in-flight-cancel", |s| {
        let mut design = s.design;
        design.cancel_epoch = false;
        s.set_design(design, sim_core::DesignSource::Table);
    });
    let (send, delivery) = send_and_delivery(&no_epoch);
    assert_step(delivery, "ok");
    assert_eq!(violations_of(&no_epoch, delivery), ["after_terminal"]);
    assert_eq!(
        index_list(&no_epoch, "reconcile_in_flight"),
        BTreeSet::from([index(send)])
    );
}

#[test]
fn story_08_fast_worker_clock_takes_over_a_live_lease() {
    let t = run("08-clock-skew-worker-time");
    let b_claim = a(&t, "B", "claim", 3);
    assert_step(b_claim, "ok");
    assert_eq!(b_claim["token"], 2);

    let a_write = a(&t, "A", "write", 4);
    let a_finish = a(&t, "A", "finish", 4);
    assert_step(a_write, "ok");
    assert_step(a_finish, "ok");
    assert_violation(&t, a_write, "stale");
    assert_violation(&t, a_finish, "stale");
    // A had not paused: by database time its lease (until 5) was valid at 4.
    assert_ne!(a_finish["expired"], true, "A's own lease had not expired");
}

#[test]
fn story_08b_database_time_refuses_the_early_takeover() {
    let t = run("08b-clock-skew-db-time");
    let b_claim = a(&t, "B", "claim", 3);
    assert_step(b_claim, "rejected");
    assert_eq!(reason(b_claim), Some("lease_held"));
    assert_step(a(&t, "A", "write", 4), "ok");
    assert_step(a(&t, "A", "finish", 4), "ok");
    assert_no_violations(&t);
}

#[test]
fn story_09_unlocked_read_then_update_claims_twice() {
    let t = run("09-unlocked-select-double-claim");
    let a_claim = a(&t, "A", "update_claim", 1);
    let b_claim = a(&t, "B", "update_claim", 1);
    assert_step(a_claim, "ok");
    assert_step(b_claim, "ok");
    assert_eq!(a_claim["token"], 1);
    assert_eq!(b_claim["token"], 2);
    assert_eq!(a_claim["rows"], 1);
    assert_eq!(b_claim["rows"], 1);

    let a_mail = a(&t, "A", "write", 2);
    assert_step(a_mail, "ok");
    assert_violation(&t, a_mail, "stale");
    assert_eq!(violation_steps(&t), BTreeSet::from([index(a_mail)]));

    let a_finish = a(&t, "A", "finish", 3);
    assert_step(a_finish, "rejected");
    assert_eq!(a_finish["rows"], 0);
    assert_eq!(failed_checks(a_finish), ["owner", "fence"]);
    assert_step(a(&t, "B", "finish", 3), "ok");
}

#[test]
fn story_09b_select_for_update_serialises_the_claim() {
    let t = run("09b-select-for-update-claim");
    let b_read = a(&t, "B", "select_for_update", 0);
    assert_step(b_read, "ok");
    assert_eq!(b_read["waited_until"], 1, "B's read ran when A committed");

    let a_claim = a(&t, "A", "update_claim", 1);
    assert_step(a_claim, "ok");
    assert_eq!(a_claim["token"], 1);

    let b_claim = a(&t, "B", "update_claim", 2);
    assert_step(b_claim, "noop");
    assert_eq!(reason(b_claim), Some("not_claimable"));

    let claims_granted = steps(&t)
        .iter()
        .filter(|s| s["do"] == "update_claim" && s["outcome"] == "ok")
        .count();
    assert_eq!(claims_granted, 1);
    assert_step(a(&t, "A", "finish", 4), "ok");
    assert_no_violations(&t);
}

#[test]
fn story_10_long_claim_transaction_blocks_takeover() {
    let t = run("10-long-claim-transaction");
    let a_claim = a(&t, "A", "update_claim", 0);
    assert_step(a_claim, "ok");
    assert_eq!(a_claim["token"], 1);

    let b_claim = a(&t, "B", "claim", 8);
    assert_step(b_claim, "waiting");
    assert!(b_claim["token"].is_null(), "B never got a token");

    let b_finish = a(&t, "B", "finish", 12);
    assert_step(b_finish, "noop");
    assert_eq!(reason(b_finish), Some("blocked"));
    assert_no_violations(&t);
}

#[test]
fn story_10b_commit_at_last_lets_takeover_through() {
    let t = run("10b-long-claim-transaction-commit");
    let a_finish = a(&t, "A", "finish", 20);
    assert_step(a_finish, "rejected");
    assert!(failed_checks(a_finish).contains(&"lease"));
    assert_eq!(a_finish["expired"], true);
    assert_step(a(&t, "A", "commit", 20), "ok");

    let b_claim = a(&t, "B", "claim", 8);
    assert_step(b_claim, "ok");
    assert_eq!(b_claim["waited_until"], 20);
    assert_eq!(b_claim["token"], 2);
    assert_step(a(&t, "B", "finish", 21), "ok");
    assert_no_violations(&t);
}

#[test]
fn story_11_skip_locked_queue_hands_out_different_rows() {
    let t = run("11-skip-locked-queue");
    assert_eq!(a(&t, "A", "select_skip_locked", 0)["job"], "r1");
    assert_eq!(a(&t, "B", "select_skip_locked", 0)["job"], "r2");

    for (worker, job) in [("A", "r1"), ("B", "r2")] {
        let claim = a(&t, worker, "update_claim", 1);
        assert_step(claim, "ok");
        assert_eq!(claim["job"], job);
        assert_eq!(claim["token"], 1);
    }

    let c_first = a(&t, "C", "claim_next", 2);
    assert_step(c_first, "ok");
    assert_eq!(c_first["job"], "r3");
    assert_eq!(c_first["token"], 1);

    let c_empty = a(&t, "C", "claim_next", 3);
    assert_step(c_empty, "noop");
    assert_eq!(reason(c_empty), Some("none_available"));

    assert_step(a(&t, "B", "finish", 4), "ok");
    let c_finish_r3 = a(&t, "C", "finish", 4);
    assert_step(c_finish_r3, "ok");
    assert_eq!(c_finish_r3["job"], "r3");

    let c_takeover = a(&t, "C", "claim_next", 8);
    assert_step(c_takeover, "ok");
    assert_eq!(c_takeover["job"], "r1");
    assert_eq!(c_takeover["token"], 2);

    let a_finish = a(&t, "A", "finish", 9);
    assert_eq!(a_finish["job"], "r1");
    assert_step(a_finish, "rejected");
    assert_eq!(a_finish["rows"], 0);
    let c_finish_r1 = a(&t, "C", "finish", 9);
    assert_eq!(c_finish_r1["job"], "r1");
    assert_step(c_finish_r1, "ok");
    assert_no_violations(&t);
}

#[test]
fn story_12_owner_name_cannot_tell_incarnations_apart() {
    let t = run("12-restarted-same-owner");
    let a2_claim = a(&t, "A2", "claim", 6);
    assert_step(a2_claim, "ok");
    assert_eq!(a2_claim["token"], 2);

    let old_finish = a(&t, "A", "finish", 7);
    assert_step(old_finish, "ok");
    assert_eq!(violations_of(&t, old_finish), ["stale"]);

    let a2_finish = a(&t, "A2", "finish", 8);
    assert_step(a2_finish, "rejected");
    assert_eq!(failed_checks(a2_finish), ["state"]);
    assert_eq!(violation_steps(&t), BTreeSet::from([index(old_finish)]));
}

#[test]
fn story_13_versioned_target_keeps_stale_drafts_unofficial() {
    let t = run("13-versioned-report");
    assert_step(a(&t, "B", "finish", 8), "ok");
    assert_step(a(&t, "A", "finish", 10), "rejected");
    assert!(
        outcome(a(&t, "A", "write", 9)) != "rejected",
        "a versioned target stores every draft"
    );
    assert_no_violations(&t);
}

#[test]
fn story_14_random_tokens_cannot_order_generations() {
    let t = run("14-random-token");
    let a_token = a(&t, "A", "claim", 0)["token"].as_u64().expect("A's token");
    let b_token = a(&t, "B", "claim", 6)["token"].as_u64().expect("B's token");
    assert!(
        a_token > b_token,
        "the story needs A's random token ({a_token}) above B's ({b_token}); \
         the generator changed, so pick another `seed` in the file"
    );
    let a_write = a(&t, "A", "write", 9);
    assert_step(a_write, "ok");
    assert_violation(&t, a_write, "stale");
    assert_step(a(&t, "B", "write", 10), "rejected");
    assert_eq!(violation_steps(&t), BTreeSet::from([index(a_write)]));
    // Generations still count claims, whatever the token values are.
    assert_eq!(a_write["generation"], 1);
}

#[test]
fn story_15_crash_rolls_back_and_releases_the_row() {
    let t = run("15-crash-releases-lock");
    assert_step(a(&t, "A", "update_claim", 0), "ok");
    let b_claim = a(&t, "B", "claim", 3);
    assert_step(b_claim, "ok");
    assert!(b_claim["waited_until"].is_null(), "nothing held the row");
    // A's claim was never committed, so B's is the first generation.
    assert_eq!(b_claim["token"], 1);
    assert_eq!(b_claim["generation"], 1);
    let dead = a(&t, "A", "finish", 4);
    assert_step(dead, "noop");
    assert_eq!(reason(dead), Some("crashed"));
    assert_step(a(&t, "B", "finish", 4), "ok");
    assert_no_violations(&t);
}

#[test]
fn story_16_lock_cycle_is_broken() {
    let t = run("16-deadlock");
    let b_second = a(&t, "B", "select_for_update", 1);
    assert_step(b_second, "rejected");
    assert_eq!(reason(b_second), Some("deadlock"));
    let a_second = a(&t, "A", "select_for_update", 1);
    assert_step(a_second, "ok");
    assert_eq!(a_second["waited_until"], 1);
    for s in steps(&t).iter().filter(|s| s["do"] == "update_claim") {
        assert_step(s, "ok");
    }
    assert_no_violations(&t);
}

#[test]
fn story_18_nowait_fails_at_once_and_ends_the_transaction() {
    let t = run("18-nowait");
    let a_read = a(&t, "A", "select_nowait", 0);
    assert_step(a_read, "ok");
    assert_eq!(a_read["job"], "r1");
    let b_refused = a(&t, "B", "select_nowait", 0);
    assert_step(b_refused, "rejected");
    assert_eq!(reason(b_refused), Some("lock_not_available"));
    assert!(b_refused["waited_until"].is_null(), "NOWAIT never waits");
    // The failure ended B's transaction: its first COMMIT has none.
    let b_commits: Vec<&Value> = steps(&t)
        .iter()
        .filter(|s| s["worker"] == "B" && s["do"] == "commit")
        .collect();
    assert_eq!(reason(b_commits[0]), Some("no_transaction"));
    assert_step(b_commits[1], "ok");
    let b_second = a(&t, "B", "select_nowait", 1);
    assert_step(b_second, "ok");
    assert_eq!(b_second["job"], "r2");
    for s in steps(&t).iter().filter(|s| s["do"] == "update_claim") {
        assert_step(s, "ok");
        assert_eq!(s["generation"], 1);
    }
    assert!(
        steps(&t).iter().all(|s| s["waited_until"].is_null()),
        "no step waited"
    );
    assert_no_violations(&t);
}

#[test]
fn story_19_a_delayed_older_batch_passes_the_token_check_only() {
    let plain = run("19-delayed-batch");
    let late = step(&plain, Some("A"), "deliver", 6);
    assert_step(late, "ok");
    assert_eq!(late["batch"], 2);
    assert_eq!(late["token"], 1, "the same token as batch 3");
    let kinds: Vec<&Value> = plain["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| &v["kind"])
        .collect();
    assert_eq!(kinds, ["stale_batch"]);
    assert_eq!(violation_steps(&plain), BTreeSet::from([index(late)]));
    // The takeover is caught by the token, with or without the batch check.
    let checked = run("19b-delayed-batch-checked");
    for t in [&plain, &checked] {
        let after_takeover = step(t, Some("A"), "deliver", 14);
        assert_step(after_takeover, "rejected");
        assert_eq!(reason(after_takeover), Some("stale_token"));
        assert_step(a(t, "B", "write", 13), "ok");
    }
    let refused = step(&checked, Some("A"), "deliver", 6);
    assert_step(refused, "rejected");
    assert_eq!(reason(refused), Some("stale_batch"));
    assert_eq!(checked["targets"][0]["check_batch"], true);
    assert_eq!(checked["targets"][0]["progress"]["token"], 2);
    assert_eq!(checked["targets"][0]["progress"]["batch"], 1);
    assert_no_violations(&checked);
}

#[test]
fn story_20_a_rolled_back_claim_hands_its_token_out_again() {
    let t = run("20-token-of-a-rolled-back-claim");
    let sent = a(&t, "A", "write", 1);
    assert_eq!(sent["token"], 1);
    assert_eq!(sent["generation"], 1, "sent while the claim was open");
    let b_claim = a(&t, "B", "claim", 3);
    assert_step(b_claim, "ok");
    assert_eq!(b_claim["token"], 1, "the rollback took the fence back");
    assert_eq!(
        b_claim["generation"], 1,
        "the rolled-back claim was never granted"
    );
    let late = step(&t, Some("A"), "deliver", 6);
    assert_step(late, "ok");
    assert!(
        late["generation"].is_null(),
        "a request of a rolled-back claim holds no generation: {late}"
    );
    assert_violation(&t, late, "stale");
    assert_eq!(violation_steps(&t), BTreeSet::from([index(late)]));
}

#[test]
fn story_21_only_an_approved_intent_is_sent() {
    let t = run("21-approved-intent");
    // Writes to an outbox send nothing: each is an intent.
    for (worker, at) in [("A", 1), ("B", 5)] {
        let intent = a(&t, worker, "write", at);
        assert_step(intent, "noop");
        assert_eq!(intent["reason"], "intent", "{intent}");
    }
    let b_finish = a(&t, "B", "finish", 6);
    assert_step(b_finish, "ok");
    // B's commit approved B's intent, which left with it and landed later.
    let b_intent = a(&t, "B", "write", 5);
    assert_eq!(b_intent["approved_step"], index(b_finish));
    let landed = step(&t, Some("B"), "deliver", 8);
    assert_step(landed, "ok");
    assert_eq!(landed["sent_step"], index(b_intent));
    // A's late commit is refused, so its intent never left.
    let a_finish = a(&t, "A", "finish", 6);
    assert_step(a_finish, "rejected");
    assert!(a(&t, "A", "write", 1)["approved_step"].is_null());
    let never = step(&t, None, "deliver", 7);
    assert_step(never, "noop");
    assert_eq!(never["reason"], "not_sent");
    assert_no_violations(&t);
    assert_eq!(t["targets"][0]["value"], "sent by B", "{}", t["targets"]);
}

/// A revise while A works: under `input_revision` the fence advances, so
/// A's result of the old input is refused at the report and at its finish,
/// though owner, lease and state still hold; B claims later with a token two
/// above A's (the claim's and the revision's).
#[test]
fn story_22_an_input_revision_refuses_the_old_result() {
    let t = run("22-input-revision");
    let revise = step(&t, None, "revise", 2);
    assert_step(revise, "ok");
    assert_eq!(revise["rows"], 1, "{revise}");
    for (action, at) in [("write", 3), ("finish", 4)] {
        let refused = a(&t, "A", action, at);
        assert_step(refused, "rejected");
        assert_eq!(failed_checks(refused), vec!["fence"], "{refused}");
    }
    assert!(index_list(&t, "should_reject").contains(&index(a(&t, "A", "finish", 4))));
    let b_claim = a(&t, "B", "claim", 11);
    assert_step(b_claim, "ok");
    assert_eq!(b_claim["token"], 3, "{b_claim}");
    assert_step(a(&t, "B", "finish", 13), "ok");
    assert_no_violations(&t);
}

/// The same timeline without `input_revision`: nothing compares the
/// revision, every check passes, and both of A's later effects are results
/// of the old input.
#[test]
fn story_22b_an_unchecked_revision_lets_the_old_result_through() {
    let t = run("22b-input-revision-unchecked");
    assert_step(a(&t, "A", "write", 1), "ok");
    for (action, at) in [("write", 3), ("finish", 4)] {
        let landed = a(&t, "A", action, at);
        assert_step(landed, "ok");
        assert_violation(&t, landed, "stale_input");
    }
    assert_eq!(violation_steps(&t).len(), 2);
    assert_eq!(reason(a(&t, "B", "claim", 11)), Some("terminal"));
}

/// The default job of a step is the worker's most recently claimed *or
/// selected* job (the scenario-format spec). Multi-job stories name `job`
/// explicitly, so they do not depend on this; this test pins the rule itself.
#[test]
fn default_job_follows_the_last_plain_select() {
    let text = r#"
id = "default-job"
ttl = 5
workers = ["A"]
jobs = ["r1", "r2"]
design = "db-conditional"
steps = [
  { at = 0, worker = "A", do = "select", job = "r2" },
  { at = 0, worker = "A", do = "update_claim" },
]
"#;
    let scenario = sim_core::parse_scenario(text.as_bytes()).expect("parses");
    let t = sim_core::run(&scenario).to_json(&scenario);
    let claim = a(&t, "A", "update_claim", 0);
    assert_eq!(
        claim["job"], "r2",
        "update_claim should act on the row A just read"
    );
    assert_step(claim, "ok");
}

/// The bug stories and the safe stories, as the course presents them.
#[test]
fn bug_stories_violate_and_safe_stories_do_not() {
    let buggy = [
        "02-ttl-lock-double-execution",
        "03-check-then-write-race",
        "04-idempotency-key-stale-write",
        "05-highest-seen-gap",
        "07-cancel-then-commit",
        "08-clock-skew-worker-time",
        "09-unlocked-select-double-claim",
        "12-restarted-same-owner",
        "14-random-token",
        "19-delayed-batch",
        "20-token-of-a-rolled-back-claim",
    ];
    let safe = [
        "01-article-stale-finish",
        "06-registered-token-rejects",
        "07b-cancel-state-checked",
        "08b-clock-skew-db-time",
        "09b-select-for-update-claim",
        "10-long-claim-transaction",
        "10b-long-claim-transaction-commit",
        "11-skip-locked-queue",
        "13-versioned-report",
        "15-crash-releases-lock",
        "16-deadlock",
        "18-nowait",
        "19b-delayed-batch-checked",
        "21-approved-intent",
    ];
    for name in buggy {
        assert!(
            !violation_steps(&run(name)).is_empty(),
            "{name}: expected a violation"
        );
    }
    for name in safe {
        assert_no_violations(&run(name));
    }
}

// ---------------------------------------------------------------- the format reference

/// Every complete scenario shown in `docs/scenario-format.md` (a ```toml block
/// with an `id =` line) parses and runs, so the reference cannot drift from
/// the parser.
#[test]
fn scenarios_in_the_format_reference_parse_and_run() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scenario-format.md");
    let text = std::fs::read_to_string(path).expect("docs/scenario-format.md");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```toml") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    let complete: Vec<&String> = blocks
        .iter()
        .filter(|b| b.lines().any(|l| l.starts_with("id =")))
        .collect();
    assert!(
        complete.len() >= 5,
        "expected several complete scenarios in the reference"
    );
    for block in complete {
        let scenario = sim_core::parse_scenario(block.as_bytes()).unwrap_or_else(|diagnostics| {
            let shown: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
            panic!(
                "a scenario in the reference does not parse:\n{block}\n{}",
                shown.join("\n")
            )
        });
        let trace = sim_core::run(&scenario).to_json(&scenario);
        assert!(!steps(&trace).is_empty());
    }
}

/// Every example written back as TOML parses to the same scenario: the
/// writer the explorers use for counterexamples loses nothing.
#[test]
fn every_example_round_trips_through_the_toml_writer() {
    for path in example_files() {
        let scenario = parse_file(&path);
        let text = sim_core::scenario_to_toml(&scenario);
        let again = sim_core::parse_scenario(text.as_bytes()).unwrap_or_else(|e| {
            panic!(
                "{}: written TOML does not parse: {e:?}\n{text}",
                path.display()
            )
        });
        assert_eq!(again, scenario, "{}:\n{text}", path.display());
    }
}
