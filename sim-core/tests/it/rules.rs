//! Every rule of MODEL.md as data: a scenario in, the expected outcomes out,
//! through one helper, [`check`].

use sim_core::{Scenario, Trace, parse_scenario, run};

/// Parses `scenario` (TOML), runs it, and compares a one-line-per-step
/// rendering of the trace with `expect` (leading/trailing blank lines and
/// indentation ignored).
#[track_caller]
fn check(scenario: &str, expect: &str) {
    let parsed = match parse_scenario(scenario.as_bytes()) {
        Ok(parsed) => parsed,
        Err(diagnostics) => panic!("scenario does not parse: {diagnostics:?}"),
    };
    let trace = run(&parsed);
    let actual = render(&parsed, &trace);
    let expected: Vec<&str> = expect
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect();
    let actual_lines: Vec<&str> = actual.lines().collect();
    assert_eq!(
        actual_lines, expected,
        "\n--- actual ---\n{actual}\n--- scenario ---\n{scenario}"
    );
}

/// `at worker do [job] [target] -> outcome (reason) token= gen= failed= rows= …`
/// then the oracle's lists.
fn render(scenario: &Scenario, trace: &Trace) -> String {
    let json = trace.to_json(scenario);
    let mut out = String::new();
    let steps = json["steps"].as_array().cloned().unwrap_or_default();
    for step in &steps {
        let mut line = format!(
            "{} {} {}",
            step["at"],
            step["worker"].as_str().unwrap_or("user"),
            step["do"].as_str().unwrap_or("?")
        );
        if scenario.jobs.len() > 1
            && let Some(job) = step["job"].as_str()
        {
            line += &format!(" {job}");
        }
        if let Some(target) = step["target"].as_str() {
            line += &format!(" @{target}");
        }
        line += &format!(" -> {}", step["outcome"].as_str().unwrap_or("?"));
        if let Some(reason) = step["reason"].as_str() {
            line += &format!(" ({reason})");
        }
        for key in ["token", "generation", "rows", "lease_until", "waited_until"] {
            if !step[key].is_null() {
                line += &format!(" {key}={}", step[key]);
            }
        }
        if let Some(failed) = step["failed_checks"].as_array()
            && !failed.is_empty()
        {
            let names: Vec<&str> = failed.iter().filter_map(|f| f.as_str()).collect();
            line += &format!(" failed={}", names.join(","));
        }
        if step["expired"] == true {
            line += " expired";
        }
        if let Some(valid) = step["lease_valid"].as_bool() {
            line += &format!(" valid={valid}");
        }
        for violation in json["violations"].as_array().into_iter().flatten() {
            if violation["step"] == step["i"] {
                line += &format!(" !{}", violation["kind"].as_str().unwrap_or("?"));
            }
        }
        out += &line;
        out.push('\n');
    }
    out += &format!("should_reject {}\n", json["should_reject"]);
    out += &format!("reconcile {}\n", json["reconcile"]);
    if json["reconcile_in_flight"]
        .as_array()
        .is_some_and(|l| !l.is_empty())
    {
        out += &format!("in flight {}\n", json["reconcile_in_flight"]);
    }
    out
}

#[test]
fn article_example_rejects_the_stale_finish() {
    check(
        r#"
        id = "seed"
        ttl = 5
        workers = ["A", "B"]
        design = "db-conditional"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "A", do = "finish" },
          { at = 7, worker = "B", do = "finish" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 A finish -> rejected token=1 generation=1 rows=0 failed=owner,fence expired
        7 B finish -> ok token=2 generation=2 rows=1
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn claim_is_refused_while_the_lease_holds_and_after_the_end() {
    check(
        r#"
        id = "claim"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 4, worker = "B", do = "claim" },
          { at = 5, worker = "B", do = "claim" },
          { at = 6, worker = "B", do = "finish" },
          { at = 20, worker = "A", do = "claim" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        4 B claim -> rejected (lease_held) rows=0
        5 B claim -> ok token=2 generation=2 rows=1 lease_until=10
        6 B finish -> ok token=2 generation=2 rows=1
        20 A claim -> rejected (terminal) rows=0
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn renew_must_match_owner_and_token() {
    // C04: the old worker may not renew the new holder's lease; the holder may.
    check(
        r#"
        id = "renew"
        ttl = 5
        workers = ["A", "B"]
        design = "db-conditional"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 3, worker = "A", do = "renew" },
          { at = 9, worker = "B", do = "claim" },
          { at = 10, worker = "A", do = "renew" },
          { at = 11, worker = "B", do = "renew" },
          { at = 20, worker = "B", do = "renew" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        3 A renew -> ok token=1 generation=1 rows=1 lease_until=8
        9 B claim -> ok token=2 generation=2 rows=1 lease_until=14
        10 A renew -> rejected token=1 generation=1 rows=0 failed=owner,fence expired
        11 B renew -> ok token=2 generation=2 rows=1 lease_until=16
        20 B renew -> rejected token=2 generation=2 rows=0 failed=lease expired
        should_reject [3]
        reconcile []
        ",
    );
}

#[test]
fn an_unchecked_renew_by_the_old_worker_is_a_stale_effect() {
    check(
        r#"
        id = "renew-unchecked"
        ttl = 5
        workers = ["A", "B"]
        design = "ttl-lock-only"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "A", do = "renew" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 A renew -> ok token=1 generation=1 rows=1 lease_until=12 expired !stale
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn a_restarted_incarnation_passes_the_owner_check_but_not_the_fence() {
    // A2 is A restarted on the same host: the owner column cannot tell them apart.
    let steps = r#"
        ttl = 5
        workers = ["A", { id = "A2", owner = "A" }]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 6, worker = "A2", do = "claim" },
          { at = 7, worker = "A", do = "finish" },
        ]
        "#;
    check(
        &format!("id = \"owner-only\"\n{steps}\n[design]\ncommit_checks = [\"owner\"]\n"),
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        6 A2 claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 A finish -> ok token=1 generation=1 rows=1 expired !stale
        should_reject [2]
        reconcile []
        ",
    );
    check(
        &format!(
            "id = \"with-fence\"\n{steps}\n[design]\ncommit_checks = [\"owner\", \"fence\"]\n"
        ),
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        6 A2 claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 A finish -> rejected token=1 generation=1 rows=0 failed=fence expired
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn fail_ends_the_job_like_finish_and_cancel_of_an_ended_job_is_a_noop() {
    check(
        r#"
        id = "fail"
        ttl = 5
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "fail" },
          { at = 2, do = "cancel" },
          { at = 3, worker = "A", do = "finish" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A fail -> ok token=1 generation=1 rows=1
        2 user cancel -> noop (terminal) rows=0
        3 A finish -> rejected token=1 generation=1 rows=0 failed=state
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn cancel_stops_commits_that_check_state_and_lists_remote_effects() {
    // C15/C16: cancelling first rejects the later commit; the write made
    // before it is listed for reconciliation, not undone.
    check(
        r#"
        id = "cancel"
        ttl = 10
        workers = ["A"]
        design = "full"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "write", target = "mail" },
          { at = 2, do = "cancel" },
          { at = 3, worker = "A", do = "write", target = "mail" },
          { at = 4, worker = "A", do = "finish" },
        ]
        [[targets]]
        id = "mail"
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=10
        1 A write @mail -> ok token=1 generation=1
        2 user cancel -> ok rows=1
        3 A write @mail -> rejected token=1 generation=1 failed=state
        4 A finish -> rejected token=1 generation=1 rows=0 failed=state
        should_reject [3,4]
        reconcile [1]
        ",
    );
}

#[test]
fn without_the_state_predicate_a_commit_after_cancel_goes_through() {
    check(
        r#"
        id = "cancel-no-state"
        ttl = 10
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 2, do = "cancel" },
          { at = 4, worker = "A", do = "finish" },
        ]
        [design]
        commit_checks = ["owner", "fence", "lease"]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=10
        2 user cancel -> ok rows=1
        4 A finish -> ok token=1 generation=1 rows=1 !after_terminal
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn a_finish_after_another_generation_finished_is_after_terminal() {
    check(
        r#"
        id = "double-finish"
        ttl = 5
        workers = ["A", "B"]
        design = "ttl-lock-only"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "B", do = "finish" },
          { at = 8, worker = "B", do = "finish" },
          { at = 9, worker = "A", do = "finish" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 B finish -> ok token=2 generation=2 rows=1
        8 B finish -> ok token=2 generation=2 rows=1
        9 A finish -> ok token=1 generation=1 rows=1 expired !stale !after_terminal
        should_reject [4]
        reconcile []
        ",
    );
}

#[test]
fn an_expired_lease_without_a_newer_generation_is_not_a_violation() {
    // MODEL.md §5: the lease predicate rejects it conservatively; without
    // that predicate it commits, and that is safe.
    check(
        r#"
        id = "expired"
        ttl = 5
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 8, worker = "A", do = "finish" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        8 A finish -> rejected token=1 generation=1 rows=0 failed=lease expired
        should_reject []
        reconcile []
        ",
    );
    check(
        r#"
        id = "expired-unchecked"
        ttl = 5
        workers = ["A"]
        design = "ttl-lock-only"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 8, worker = "A", do = "finish" },
        ]
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        8 A finish -> ok token=1 generation=1 rows=1 expired
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn the_worker_clock_decides_leases_only_when_the_design_says_so() {
    // C13: B's clock runs 3 ticks ahead. With database time B must wait;
    // with worker time it takes over while A's lease is still valid.
    let body = r#"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 3, worker = "B", do = "claim" },
          { at = 4, worker = "A", do = "finish" },
        ]
        [clocks]
        B = 3
        "#;
    check(
        &format!(
            "id = \"db-clock\"\n{body}\n[design]\ncommit_checks = [\"lease\"]\nlease_clock = \"db\"\n"
        ),
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        3 B claim -> rejected (lease_held) rows=0
        4 A finish -> ok token=1 generation=1 rows=1
        should_reject []
        reconcile []
        ",
    );
    check(
        &format!(
            "id = \"worker-clock\"\n{body}\n[design]\ncommit_checks = [\"lease\"]\nlease_clock = \"worker\"\n"
        ),
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        3 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        4 A finish -> ok token=1 generation=1 rows=1 !stale
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn the_database_clock_offset_shifts_every_lease_decision() {
    check(
        r#"
        id = "db-offset"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 3, worker = "B", do = "claim" },
        ]
        [clocks]
        db = 100
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=105
        3 B claim -> rejected (lease_held) rows=0
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn a_worker_without_a_token_fails_the_fence_predicate() {
    // token = "none": the fence column still counts claims, but nobody carries it.
    check(
        r#"
        id = "no-token"
        ttl = 5
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "finish" },
        ]
        [design]
        token = "none"
        "#,
        "
        0 A claim -> ok generation=1 rows=1 lease_until=5
        1 A finish -> rejected generation=1 rows=0 failed=fence
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn random_tokens_cannot_order_generations_at_a_highest_token_target() {
    // C23: seed 3 draws a first token higher than the second, so the
    // target takes the stale write and refuses the new holder's.
    check(
        r#"
        id = "random"
        ttl = 5
        workers = ["A", "B"]
        seed = 3
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "A", do = "write", target = "t" },
          { at = 8, worker = "B", do = "write", target = "t" },
        ]
        [design]
        base = "fenced-highest-seen"
        token = "random"
        [[targets]]
        id = "t"
        "#,
        "
        0 A claim -> ok token=656848 generation=1 rows=1 lease_until=5
        6 B claim -> ok token=251437 generation=2 rows=1 lease_until=11
        7 A write @t -> ok token=656848 generation=1 expired !stale
        8 B write @t -> rejected (stale_token) token=251437 generation=2 failed=fence
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn each_protection_mode_decides_a_stale_write_its_own_way() {
    // The same pause-and-takeover against one target of every mode. B writes
    // only to `seen_b` before A wakes, so `highest` has not yet seen token 2.
    check(
        r#"
        id = "modes"
        ttl = 5
        workers = ["A", "B"]
        design = "db-conditional"
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "B", do = "write", target = "keyed", op = "send" },
          { at = 7, worker = "B", do = "write", target = "seen_b" },
          { at = 8, worker = "A", do = "write", target = "plain" },
          { at = 8, worker = "A", do = "write", target = "keyed", op = "send" },
          { at = 8, worker = "A", do = "write", target = "keyed", op = "resend" },
          { at = 8, worker = "A", do = "write", target = "highest" },
          { at = 8, worker = "A", do = "write", target = "seen_b" },
          { at = 8, worker = "A", do = "write", target = "registered" },
          { at = 8, worker = "A", do = "write", target = "gateway" },
          { at = 8, worker = "A", do = "write", target = "versioned", value = "old" },
          { at = 9, worker = "B", do = "write", target = "versioned", value = "new" },
          { at = 9, worker = "B", do = "finish" },
        ]
        [[targets]]
        id = "plain"
        protect = "none"
        [[targets]]
        id = "keyed"
        protect = "idempotency_key"
        [[targets]]
        id = "highest"
        protect = "highest_token"
        [[targets]]
        id = "seen_b"
        protect = "highest_token"
        [[targets]]
        id = "registered"
        protect = "registered_token"
        [[targets]]
        id = "gateway"
        protect = "gateway"
        [[targets]]
        id = "versioned"
        protect = "versioned"
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 B write @keyed -> ok token=2 generation=2
        7 B write @seen_b -> ok token=2 generation=2
        8 A write @plain -> ok token=1 generation=1 expired !stale
        8 A write @keyed -> duplicate token=1 generation=1 expired
        8 A write @keyed -> ok token=1 generation=1 expired !stale
        8 A write @highest -> ok token=1 generation=1 expired !stale
        8 A write @seen_b -> rejected (stale_token) token=1 generation=1 failed=fence expired
        8 A write @registered -> rejected (not_registered) token=1 generation=1 failed=fence expired
        8 A write @gateway -> rejected token=1 generation=1 failed=owner,fence expired
        8 A write @versioned -> ok (draft) token=1 generation=1 expired
        9 B write @versioned -> ok (draft) token=2 generation=2
        9 B finish -> ok token=2 generation=2 rows=1
        should_reject [4,5,6,7,8,9,10]
        reconcile []
        ",
    );
}

#[test]
fn a_versioned_target_switches_its_official_value_only_on_a_committed_finish() {
    // C20: the stale worker's draft stays an orphan.
    let source = r#"
        id = "versioned"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "write", target = "report", value = "v1" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "B", do = "write", target = "report", value = "v2" },
          { at = 8, worker = "A", do = "write", target = "report", value = "v1-late" },
          { at = 8, worker = "A", do = "finish" },
          { at = 9, worker = "B", do = "finish" },
        ]
        [design]
        target_protect = "versioned"
        [[targets]]
        id = "report"
        "#;
    let scenario = parse_scenario(source.as_bytes()).unwrap();
    let trace = run(&scenario);
    let report = &trace.final_targets[0];
    assert_eq!(
        report.value,
        Some(("v2".to_owned(), 3)),
        "official = B's draft"
    );
    assert_eq!(
        report.drafts.len(),
        3,
        "every draft is kept, orphans included"
    );
    assert!(trace.violations.is_empty(), "{:?}", trace.violations);
}

#[test]
fn registration_follows_claims_unless_the_design_turns_it_off() {
    check(
        r#"
        id = "register"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "write", target = "t" },
          { at = 2, worker = "A", do = "register", target = "t" },
          { at = 3, worker = "A", do = "write", target = "t" },
          { at = 6, worker = "B", do = "claim" },
          { at = 7, worker = "B", do = "write", target = "t" },
          { at = 7, worker = "B", do = "register", target = "t" },
          { at = 8, worker = "A", do = "register", target = "t" },
          { at = 8, worker = "A", do = "write", target = "t" },
          { at = 9, worker = "B", do = "write", target = "t" },
        ]
        [design]
        register_on_claim = false
        [[targets]]
        id = "t"
        protect = "registered_token"
        "#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A write @t -> rejected (not_registered) token=1 generation=1 failed=fence
        2 A register @t -> ok token=1 generation=1
        3 A write @t -> ok token=1 generation=1
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 B write @t -> rejected (not_registered) token=2 generation=2 failed=fence
        7 B register @t -> ok token=2 generation=2
        8 A register @t -> rejected (not_higher) token=1 generation=1 failed=fence expired
        8 A write @t -> rejected (not_registered) token=1 generation=1 failed=fence expired
        9 B write @t -> ok token=2 generation=2
        should_reject [8]
        reconcile []
        ",
    );
}

#[test]
fn steps_default_to_the_current_job_and_crash_ends_a_worker() {
    check(
        r#"
        id = "defaults"
        ttl = 5
        workers = ["A", "B"]
        jobs = ["j1", "j2"]
        steps = [
          { at = 0, worker = "A", do = "claim", job = "j2" },
          { at = 1, worker = "A", do = "check" },
          { at = 1, worker = "B", do = "check" },
          { at = 2, worker = "A", do = "pause" },
          { at = 3, worker = "A", do = "crash" },
          { at = 4, worker = "A", do = "finish" },
          { at = 4, worker = "B", do = "claim" },
        ]
        "#,
        "
        0 A claim j2 -> ok token=1 generation=1 rows=1 lease_until=5
        1 A check j2 -> noop token=1 generation=1 valid=true
        1 B check j1 -> noop valid=false
        2 A pause j2 -> noop
        3 A crash -> noop
        4 A finish -> noop (crashed)
        4 B claim j1 -> ok token=1 generation=1 rows=1 lease_until=9
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn an_unlocked_read_then_update_lets_two_workers_claim_the_same_row() {
    // C11/C19: both read "claimable", both run their separate UPDATE.
    check(
        r#"
        id = "race"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "select" },
          { at = 0, worker = "B", do = "select" },
          { at = 1, worker = "A", do = "update_claim" },
          { at = 1, worker = "B", do = "update_claim" },
          { at = 2, worker = "A", do = "finish" },
          { at = 2, worker = "B", do = "update_claim" },
        ]
        "#,
        "
        0 A select -> noop (claimable)
        0 B select -> noop (claimable)
        1 A update_claim -> ok token=1 generation=1 rows=1 lease_until=6
        1 B update_claim -> ok token=2 generation=2 rows=1 lease_until=6
        2 A finish -> rejected token=1 generation=1 rows=0 failed=owner,fence
        2 B update_claim -> noop (not_claimable) rows=0
        should_reject [4]
        reconcile []
        ",
    );
}

#[test]
fn only_a_statement_matching_the_committed_row_waits_for_its_lock() {
    // PostgreSQL's rule (found by `run --db postgres`): B's finish fails its
    // checks on the committed row, so it changes nothing at once instead of
    // waiting for A's lock; the user's cancel matches and waits.
    check(
        r#"
        id = "which-waits"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "select_for_update" },
          { at = 1, worker = "B", do = "finish" },
          { at = 1, do = "cancel" },
          { at = 2, worker = "A", do = "commit" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A select_for_update -> ok (claimable)
        1 B finish -> rejected rows=0 failed=owner,fence,lease,state
        1 user cancel -> ok rows=1 waited_until=2
        2 A commit -> ok
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn a_plain_read_sees_the_last_committed_row_not_another_transactions_claim() {
    // PostgreSQL's read committed (found by `run --db postgres`): B's
    // unlocked read and check do not see A's uncommitted claim; A sees its
    // own. After A's rollback, B's claim on the strength of its read is right.
    check(
        r#"
        id = "visibility"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "select_for_update" },
          { at = 0, worker = "A", do = "update_claim" },
          { at = 1, worker = "A", do = "check" },
          { at = 1, worker = "B", do = "select" },
          { at = 1, worker = "B", do = "check" },
          { at = 2, worker = "A", do = "rollback" },
          { at = 3, worker = "B", do = "update_claim" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A select_for_update -> ok (claimable)
        0 A update_claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A check -> noop token=1 generation=1 valid=true
        1 B select -> noop (claimable)
        1 B check -> noop valid=false
        2 A rollback -> ok
        3 B update_claim -> ok token=1 generation=1 rows=1 lease_until=8
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn for_update_in_a_transaction_makes_the_second_reader_wait_and_see_the_claim() {
    check(
        r#"
        id = "for-update"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "select_for_update" },
          { at = 0, worker = "B", do = "begin" },
          { at = 0, worker = "B", do = "select_for_update" },
          { at = 1, worker = "B", do = "update_claim" },
          { at = 1, worker = "A", do = "update_claim" },
          { at = 2, worker = "A", do = "commit" },
          { at = 3, worker = "B", do = "update_claim" },
          { at = 3, worker = "B", do = "commit" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A select_for_update -> ok (claimable)
        0 B begin -> ok
        0 B select_for_update -> ok (not_claimable) waited_until=2
        1 B update_claim -> noop (blocked)
        1 A update_claim -> ok token=1 generation=1 rows=1 lease_until=6
        2 A commit -> ok
        3 B update_claim -> noop (not_claimable) rows=0
        3 B commit -> ok
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn for_update_outside_a_transaction_releases_the_lock_at_once() {
    // As in PostgreSQL's autocommit: the lock lasts one statement, so the
    // read-then-update still races.
    check(
        r#"
        id = "for-update-autocommit"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "select_for_update" },
          { at = 0, worker = "B", do = "select_for_update" },
          { at = 1, worker = "A", do = "update_claim" },
          { at = 1, worker = "B", do = "update_claim" },
        ]
        "#,
        "
        0 A select_for_update -> ok (claimable)
        0 B select_for_update -> ok (claimable)
        1 A update_claim -> ok token=1 generation=1 rows=1 lease_until=6
        1 B update_claim -> ok token=2 generation=2 rows=1 lease_until=6
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn skip_locked_passes_over_locked_rows_and_claim_next_is_atomic() {
    check(
        r#"
        id = "skip-locked"
        ttl = 5
        workers = ["A", "B", "C"]
        jobs = ["r1", "r2"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "select_skip_locked" },
          { at = 0, worker = "B", do = "begin" },
          { at = 0, worker = "B", do = "select_skip_locked" },
          { at = 0, worker = "C", do = "select_skip_locked" },
          { at = 1, worker = "A", do = "update_claim" },
          { at = 1, worker = "A", do = "commit" },
          { at = 1, worker = "C", do = "claim_next" },
          { at = 2, worker = "B", do = "update_claim" },
          { at = 2, worker = "B", do = "commit" },
          { at = 3, worker = "C", do = "claim_next" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A select_skip_locked r1 -> ok (claimable)
        0 B begin -> ok
        0 B select_skip_locked r2 -> ok (claimable)
        0 C select_skip_locked -> noop (none_available) rows=0
        1 A update_claim r1 -> ok token=1 generation=1 rows=1 lease_until=6
        1 A commit -> ok
        1 C claim_next -> noop (none_available) rows=0
        2 B update_claim r2 -> ok token=1 generation=1 rows=1 lease_until=7
        2 B commit -> ok
        3 C claim_next -> noop (none_available) rows=0
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn a_claim_transaction_left_open_blocks_takeover_until_it_ends() {
    // C10/C25: the paused worker keeps its row lock; B's claim waits past the
    // lease's end, and runs only when A's transaction finally ends. The
    // user's cancel queued behind it then cancels B's fresh claim.
    check(
        r#"
        id = "long-tx"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "claim" },
          { at = 8, worker = "B", do = "claim" },
          { at = 9, worker = "B", do = "finish" },
          { at = 9, do = "cancel" },
          { at = 30, worker = "A", do = "commit" },
          { at = 31, worker = "B", do = "finish" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        8 B claim -> ok token=2 generation=2 rows=1 lease_until=35 waited_until=30
        9 B finish -> noop (blocked)
        9 user cancel -> ok rows=1 waited_until=30
        30 A commit -> ok
        31 B finish -> rejected token=2 generation=2 rows=0 failed=state
        should_reject [6]
        reconcile []
        ",
    );
}

#[test]
fn a_crash_rolls_back_the_open_transaction_and_frees_its_locks() {
    // B's claim waited on a row that the rollback left unchanged, so its
    // first evaluation stands, with the time it was sent: lease until 1 + 5
    // (PostgreSQL's rule, checked with `run --db postgres`).
    check(
        r#"
        id = "crash-rollback"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "B", do = "claim" },
          { at = 2, worker = "A", do = "crash" },
          { at = 3, worker = "B", do = "finish" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 B claim -> ok token=1 generation=1 rows=1 lease_until=6 waited_until=2
        2 A crash -> noop
        3 B finish -> ok token=1 generation=1 rows=1
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn a_lock_cycle_is_broken_by_aborting_the_statement_that_closes_it() {
    check(
        r#"
        id = "deadlock"
        ttl = 5
        workers = ["A", "B"]
        jobs = ["r1", "r2"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "B", do = "begin" },
          { at = 0, worker = "A", do = "select_for_update", job = "r1" },
          { at = 0, worker = "B", do = "select_for_update", job = "r2" },
          { at = 1, worker = "A", do = "select_for_update", job = "r2" },
          { at = 1, worker = "B", do = "select_for_update", job = "r1" },
          { at = 2, worker = "B", do = "commit" },
        ]
        "#,
        "
        0 A begin -> ok
        0 B begin -> ok
        0 A select_for_update r1 -> ok (claimable)
        0 B select_for_update r2 -> ok (claimable)
        1 A select_for_update r2 -> ok (claimable) waited_until=1
        1 B select_for_update r1 -> rejected (deadlock) rows=0
        2 B commit -> noop (no_transaction)
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn a_rollback_takes_back_the_claim_and_its_generation() {
    check(
        r#"
        id = "rollback"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "A", do = "finish" },
          { at = 2, worker = "A", do = "rollback" },
          { at = 3, worker = "B", do = "claim" },
          { at = 4, worker = "A", do = "finish" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A finish -> ok token=1 generation=1 rows=1
        2 A rollback -> ok
        3 B claim -> ok token=1 generation=1 rows=1 lease_until=8
        4 A finish -> rejected rows=0 failed=owner,fence
        should_reject [5]
        reconcile []
        ",
    );
}

#[test]
fn a_design_table_takes_omitted_fields_from_full_or_from_its_base() {
    let design_of = |design: &str| {
        let source = format!(
            "id = \"d\"\nttl = 3\nworkers = [\"A\"]\n[[targets]]\nid = \"own\"\nprotect = \"none\"\n[[targets]]\nid = \"default\"\n{design}"
        );
        let scenario = parse_scenario(source.as_bytes()).unwrap();
        (scenario.design, scenario.targets)
    };
    let (full, targets) = design_of("[design]\ntoken = \"random\"\n");
    assert_eq!(full.commit_checks, sim_core::CheckSet::ALL);
    assert_eq!(full.target_protect, sim_core::Protect::Gateway);
    assert_eq!(
        targets[0].protect,
        sim_core::Protect::None,
        "a target's own protect wins"
    );
    assert_eq!(targets[1].protect, sim_core::Protect::Gateway);
    let (based, targets) =
        design_of("[design]\nbase = \"idempotency-only\"\nworker_checks = true\n");
    assert!(based.commit_checks.is_empty());
    assert!(based.worker_checks);
    assert_eq!(targets[1].protect, sim_core::Protect::IdempotencyKey);
    let (none, _) = design_of("");
    assert_eq!(
        none,
        sim_core::Preset::Full.design(),
        "no design means full"
    );
}

#[test]
fn a_request_is_checked_where_each_check_sits() {
    check(
        r#"
id = "where-checks-sit"
ttl = 5
workers = ["A", "B"]
design = "full"
targets = [
  { id = "g", protect = "gateway" },
  { id = "s", protect = "sending_gateway" },
  { id = "h", protect = "highest_token" },
  { id = "r", protect = "registered_token" },
  { id = "i", protect = "idempotency_key" },
  { id = "v", protect = "versioned" },
]
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "write", target = "g", request = "a-g" },
  { at = 1, worker = "A", do = "write", target = "s", request = "a-s" },
  { at = 1, worker = "A", do = "write", target = "h", request = "a-h" },
  { at = 1, worker = "A", do = "write", target = "r", request = "a-r" },
  { at = 1, worker = "A", do = "write", target = "i", request = "a-i" },
  { at = 1, worker = "A", do = "write", target = "v", request = "a-v" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "B", do = "write", target = "h" },
  { at = 8, worker = "A", do = "crash" },
  { at = 9, do = "deliver", request = "a-g" },
  { at = 9, do = "deliver", request = "a-s" },
  { at = 9, do = "deliver", request = "a-h" },
  { at = 9, do = "deliver", request = "a-r" },
  { at = 9, do = "deliver", request = "a-i" },
  { at = 9, do = "deliver", request = "a-v" },
]
"#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A write @g -> noop (sent) token=1 generation=1
        1 A write @s -> noop (sent) token=1 generation=1
        1 A write @h -> noop (sent) token=1 generation=1
        1 A write @r -> noop (sent) token=1 generation=1
        1 A write @i -> noop (sent) token=1 generation=1
        1 A write @v -> noop (sent) token=1 generation=1
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 B write @h -> ok token=2 generation=2
        8 A crash -> noop
        9 A deliver @g -> rejected token=1 generation=1 failed=owner,fence expired
        9 A deliver @s -> ok token=1 generation=1 expired !stale
        9 A deliver @h -> rejected (stale_token) token=1 generation=1 failed=fence expired
        9 A deliver @r -> rejected (not_registered) token=1 generation=1 failed=fence expired
        9 A deliver @i -> ok token=1 generation=1 expired !stale
        9 A deliver @v -> ok (draft) token=1 generation=1 expired
        should_reject [10,11,12,13,14]
        reconcile [1,2,3,4,5,6]
        in flight [1,2,3,4,5,6]
        ",
    );
}

#[test]
fn a_sending_gateway_refuses_at_send_and_nothing_travels() {
    check(
        r#"
id = "refused-at-send"
ttl = 5
workers = ["A", "B"]
design = "sending-gateway"
targets = [{ id = "s" }]
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "write", target = "s", request = "early" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "A", do = "write", target = "s", request = "late" },
  { at = 8, do = "deliver", request = "late" },
  { at = 8, worker = "B", do = "write", target = "s" },
]
"#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A write @s -> noop (sent) token=1 generation=1
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 A write @s -> rejected token=1 generation=1 failed=owner,fence expired
        8 user deliver -> noop (not_sent)
        8 B write @s -> ok token=2 generation=2
        should_reject []
        reconcile [1]
        in flight [1]
        ",
    );
}

#[test]
fn a_cancel_epoch_fails_the_fence_predicate_of_a_later_commit() {
    let scenario = |epoch: bool| {
        format!(
            r#"
id = "epoch"
ttl = 10
workers = ["A"]
steps = [
  {{ at = 0, worker = "A", do = "claim" }},
  {{ at = 2, do = "cancel" }},
  {{ at = 3, worker = "A", do = "finish" }},
]

[design]
base = "db-conditional"
commit_checks = ["owner", "fence", "lease"]
cancel_epoch = {epoch}
"#
        )
    };
    check(
        &scenario(true),
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=10
        2 user cancel -> ok rows=1
        3 A finish -> rejected token=1 generation=1 rows=0 failed=fence
        should_reject [2]
        reconcile []
        ",
    );
    check(
        &scenario(false),
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=10
        2 user cancel -> ok rows=1
        3 A finish -> ok token=1 generation=1 rows=1 !after_terminal
        should_reject [2]
        reconcile []
        ",
    );
}

#[test]
fn a_takeover_that_rolls_back_lists_nothing_for_reconciliation() {
    // B's takeover lists A's travelling request only while B's transaction
    // is open; the rollback takes the claim back, so A is again the current
    // holder and its request lands as an ordinary write of the job.
    check(
        r#"
id = "rolled-back-takeover"
ttl = 5
workers = ["A", "B"]
design = "sending-gateway"
targets = [{ id = "s" }]
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "write", target = "s", request = "a-s" },
  { at = 6, worker = "B", do = "begin" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "B", do = "rollback" },
  { at = 8, do = "deliver", request = "a-s" },
]
"#,
        "
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 A write @s -> noop (sent) token=1 generation=1
        6 B begin -> ok
        6 B claim -> ok token=2 generation=2 rows=1 lease_until=11
        7 B rollback -> ok
        8 A deliver @s -> ok token=1 generation=1 expired
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn nowait_on_a_row_another_transaction_locked_fails_at_once_and_rolls_back() {
    // B's NOWAIT meets A's lock on r1: it fails at once instead of waiting,
    // and B's transaction is rolled back (as after a deadlock), taking back
    // its claim of r2 and the lock on it: C then claims r2 afresh.
    check(
        r#"
        id = "nowait-refused"
        ttl = 5
        workers = ["A", "B", "C"]
        jobs = ["r1", "r2"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "select_for_update", job = "r1" },
          { at = 0, worker = "B", do = "begin" },
          { at = 0, worker = "B", do = "claim", job = "r2" },
          { at = 1, worker = "B", do = "select_nowait", job = "r1" },
          { at = 1, worker = "B", do = "update_claim", job = "r1" },
          { at = 2, worker = "B", do = "commit" },
          { at = 2, worker = "C", do = "claim", job = "r2" },
          { at = 3, worker = "A", do = "update_claim", job = "r1" },
          { at = 3, worker = "A", do = "commit" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A select_for_update r1 -> ok (claimable)
        0 B begin -> ok
        0 B claim r2 -> ok token=1 generation=1 rows=1 lease_until=5
        1 B select_nowait r1 -> rejected (lock_not_available) rows=0
        1 B update_claim r1 -> noop (not_claimable) rows=0
        2 B commit -> noop (no_transaction)
        2 C claim r2 -> ok token=1 generation=1 rows=1 lease_until=7
        3 A update_claim r1 -> ok token=1 generation=1 rows=1 lease_until=8
        3 A commit -> ok
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn nowait_outside_a_transaction_fails_on_a_locked_row_and_holds_nothing() {
    // Autocommit: the failed NOWAIT has no transaction to roll back, and B
    // is not left waiting — its next statement, a claim, does wait.
    check(
        r#"
        id = "nowait-autocommit"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "claim" },
          { at = 1, worker = "B", do = "select_nowait" },
          { at = 1, worker = "B", do = "claim" },
          { at = 2, worker = "A", do = "rollback" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A claim -> ok token=1 generation=1 rows=1 lease_until=5
        1 B select_nowait -> rejected (lock_not_available) rows=0
        1 B claim -> ok token=1 generation=1 rows=1 lease_until=6 waited_until=2
        2 A rollback -> ok
        should_reject []
        reconcile []
        ",
    );
}

#[test]
fn nowait_on_a_free_or_own_row_locks_it_like_for_update() {
    // Free: A's NOWAIT reads and locks the row, and again on its own lock.
    // B's plain FOR UPDATE then waits for A's commit; a NOWAIT after the
    // commit finds the row free and sees A's claim.
    check(
        r#"
        id = "nowait-free"
        ttl = 5
        workers = ["A", "B"]
        steps = [
          { at = 0, worker = "A", do = "begin" },
          { at = 0, worker = "A", do = "select_nowait" },
          { at = 0, worker = "A", do = "select_nowait" },
          { at = 0, worker = "B", do = "begin" },
          { at = 0, worker = "B", do = "select_for_update" },
          { at = 1, worker = "A", do = "update_claim" },
          { at = 1, worker = "A", do = "commit" },
          { at = 2, worker = "B", do = "commit" },
          { at = 2, worker = "B", do = "select_nowait" },
        ]
        "#,
        "
        0 A begin -> ok
        0 A select_nowait -> ok (claimable)
        0 A select_nowait -> ok (claimable)
        0 B begin -> ok
        0 B select_for_update -> ok (not_claimable) waited_until=1
        1 A update_claim -> ok token=1 generation=1 rows=1 lease_until=6
        1 A commit -> ok
        2 B commit -> ok
        2 B select_nowait -> ok (not_claimable)
        should_reject []
        reconcile []
        ",
    );
}
