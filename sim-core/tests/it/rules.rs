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
