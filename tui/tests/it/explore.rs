//! `fencelab explore`: verdicts, JSON, counterexample files, bad input.

use crate::{fencelab, stderr, stdout};

fn json_of(args: &[&str]) -> serde_json::Value {
    let output = fencelab(args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("not JSON: {error}\n{}", stdout(&output)))
}

#[test]
fn json_has_verdict_bounds_stats_explanation_and_counterexample() {
    let report = json_of(&[
        "explore",
        "--design",
        "ttl-lock-only",
        "--json",
        "--lang",
        "en",
    ]);
    assert_eq!(report["verdict"], "unsafe");
    for key in [
        "cases",
        "states",
        "transitions",
        "shrink_steps",
        "elapsed_ms",
    ] {
        assert!(report["stats"].get(key).is_some(), "stats.{key}");
    }
    assert_eq!(report["bounds"]["max_time"], 12);
    assert!(
        report["explanation"]
            .as_str()
            .is_some_and(|e| e.contains("generation"))
    );
    let counterexample = &report["counterexample"];
    assert_eq!(counterexample["design"], "ttl-lock-only");
    assert!(
        counterexample["steps"]
            .as_array()
            .is_some_and(|s| !s.is_empty())
    );

    let safe = json_of(&[
        "explore",
        "--design",
        "fenced-registered",
        "--exhaustive",
        "--json",
    ]);
    assert_eq!(safe["verdict"], "safe");
    assert!(safe.get("counterexample").is_none());
    assert!(safe["stats"]["states"].as_u64().is_some_and(|n| n > 100));
}

#[test]
fn the_counterexample_file_replays_to_the_same_violation() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cex.toml");
    let path_text = path.display().to_string();
    let report = json_of(&[
        "explore",
        "--design",
        "fenced-highest-seen",
        "--exhaustive",
        "--json",
        "--out",
        &path_text,
    ]);
    let replay = json_of(&["run", &path_text, "--json"]);
    let step = &report["violation"]["step"];
    let kind = &report["violation"]["kind"];
    let violations = replay["violations"].as_array().cloned().unwrap_or_default();
    assert!(
        violations
            .iter()
            .any(|v| &v["step"] == step && &v["kind"] == kind),
        "{violations:?} lacks {step} {kind}"
    );
}

/// The classification's delayed rows: a design safe while writes are
/// instantaneous is unsafe once they travel, and its shortest
/// counterexample, written to a file, replays through `fencelab run`.
#[test]
fn delays_break_the_sending_gateway_and_its_counterexample_replays() {
    let rows = json_of(&["explore", "--all-presets", "--json", "--lang", "en"]);
    let verdict = |design: &str, world: &str| {
        rows.as_array()
            .into_iter()
            .flatten()
            .find(|row| row["design"] == design && row["world"] == world)
            .map(|row| row["verdict"].clone())
            .unwrap_or_else(|| panic!("no row {design} / {world}"))
    };
    assert_eq!(
        verdict("sending-gateway", "two targets, cancel allowed"),
        "safe"
    );
    assert_eq!(
        verdict(
            "sending-gateway",
            "two targets, cancel allowed, requests delayed"
        ),
        "unsafe"
    );
    assert_eq!(
        verdict("full", "two targets, cancel allowed, requests delayed"),
        "safe"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cex.toml");
    let path_text = path.display().to_string();
    let report = json_of(&[
        "explore",
        "--design",
        "sending-gateway",
        "--exhaustive",
        "--cancel",
        "--max-in-flight",
        "2",
        "--max-delay",
        "3",
        "--json",
        "--out",
        &path_text,
    ]);
    assert_eq!(report["bounds"]["max_in_flight"], 2);
    assert_eq!(report["bounds"]["max_delay"], 3);
    let replay = json_of(&["run", &path_text, "--json"]);
    let step = report["violation"]["step"].as_u64().unwrap();
    let kind = &report["violation"]["kind"];
    let violations = replay["violations"].as_array().cloned().unwrap_or_default();
    assert!(
        violations
            .iter()
            .any(|v| v["step"].as_u64() == Some(step) && &v["kind"] == kind),
        "{violations:?} lacks {step} {kind}"
    );
    // The violating step is the delivery of a request sent earlier.
    let delivered = &replay["steps"][step as usize];
    assert_eq!(delivered["do"], "deliver");
    assert!(
        delivered["sent_step"]
            .as_u64()
            .is_some_and(|sent| sent < step)
    );
    let text = stdout(&fencelab(&[
        "explore",
        "--design",
        "sending-gateway",
        "--exhaustive",
        "--cancel",
        "--max-in-flight",
        "2",
        "--lang",
        "en",
    ]));
    assert!(text.contains("in flight ≤ 2"), "{text}");
}

#[test]
fn the_table_shows_the_verdict_and_the_timeline() {
    let output = fencelab(&[
        "explore",
        "--design",
        "client-check",
        "--exhaustive",
        "--lang",
        "en",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.contains("‼ UNSAFE — counterexample of 7 moves"),
        "{text}"
    );
    assert!(
        text.contains("check"),
        "the client check is on the timeline: {text}"
    );
    let safe = stdout(&fencelab(&[
        "explore",
        "--design",
        "full",
        "--cancel",
        "--exhaustive",
    ]));
    assert!(safe.contains("✓ Safe within bounds"), "{safe}");
}

#[test]
fn all_presets_prints_the_classification_table() {
    let text = stdout(&fencelab(&["explore", "--all-presets", "--lang", "en"]));
    for line in [
        "ttl-lock-only",
        "fenced-registered",
        "custom: no state predicate",
    ] {
        assert!(text.contains(line), "{text}");
    }
    // Every line fits a 100-column terminal (English text: a char a column).
    for line in text.lines() {
        assert!(
            line.chars().count() <= 100,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    let rows = json_of(&["explore", "--all-presets", "--json"]);
    assert!(rows.as_array().is_some_and(|r| r.len() >= 10));
}

#[test]
fn bad_input_exits_two_with_a_message() {
    for args in [
        vec!["explore", "--design", "fencd-registered"],
        vec!["explore", "--targets", "none,fencing"],
        vec!["explore", "--workers", "9"],
        vec!["explore", "--design", "/nonexistent/design.toml"],
    ] {
        let output = fencelab(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!stderr(&output).is_empty());
    }
    let message = stderr(&fencelab(&["explore", "--design", "fencd-registered"]));
    assert!(
        message.contains("did you mean `fenced-registered`?"),
        "{message}"
    );
}

#[test]
fn a_design_file_is_read_and_its_mistakes_located() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("design.toml");
    let bad = dir.path().join("bad.toml");
    let write = |path: &std::path::Path, text: &str| {
        std::fs::write(path, text).unwrap();
    };
    write(
        &good,
        "commit_checks = [\"owner\", \"lease\", \"state\"]\ntarget_protect = \"gateway\"\n",
    );
    write(&bad, "commit_checks = [\"owner\"]\ntokn = \"random\"\n");
    let report = json_of(&[
        "explore",
        "--design",
        &good.display().to_string(),
        "--restarted",
        "--no-targets",
        "--exhaustive",
        "--json",
    ]);
    assert_eq!(
        report["verdict"], "unsafe",
        "a commit without fence falls to a restarted worker"
    );
    let output = fencelab(&["explore", "--design", &bad.display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with(&format!("{}:2:1: unknown key `tokn`", bad.display())),
        "{}",
        stderr(&output)
    );
}

/// Every bound at its maximum (issue 11): once endless and ever larger, now
/// it stops at the state cap with the incomplete verdict, in both
/// languages and in the JSON, and exits 0.
#[test]
fn the_largest_world_ends_incomplete_at_the_state_cap() {
    let worst = [
        "explore",
        "--design",
        "full",
        "--exhaustive",
        "--workers",
        "4",
        "--jobs",
        "3",
        "--targets",
        "gateway,gateway,gateway,gateway",
        "--max-time",
        "48",
        "--max-claims",
        "8",
        "--max-steps",
        "64",
        "--cancel",
        "--heartbeat",
        "--restarted",
        "--max-states",
        "20000",
    ];
    let output = fencelab(&[&worst[..], &["--lang", "en"]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("Incomplete: 20000 states explored, no violation found"),
        "{text}"
    );
    assert!(text.contains("Limits: states ≤ 20000 · 30 s"), "{text}");
    let zh = fencelab(&[&worst[..], &["--lang", "zh"]].concat());
    assert_eq!(zh.status.code(), Some(0), "{}", stderr(&zh));
    assert!(
        stdout(&zh).contains("未完成：已探索 20000 个状态，没有发现违例"),
        "{}",
        stdout(&zh)
    );
    let report = json_of(&[&worst[..], &["--json", "--time-limit", "20"]].concat());
    assert_eq!(report["verdict"], "incomplete");
    assert_eq!(report["stats"]["states"], 20000);
    assert_eq!(report["bounds"]["max_states"], 20000);
    assert_eq!(report["bounds"]["time_limit_ms"], 20000);
}

/// On a terminal the largest world's search shows its progress at once
/// (issue 11: it once printed nothing for a minute), and the time limit
/// ends it.
#[test]
fn a_long_search_shows_progress_on_a_terminal_at_once() {
    use crate::tmux::{Tmux, quoted};
    use std::time::{Duration, Instant};
    let command = format!(
        "{} explore --lang en --design full --exhaustive --workers 4 --jobs 3 \
         --targets gateway,gateway,gateway,gateway --max-time 48 --max-claims 8 \
         --max-steps 64 --cancel --heartbeat --restarted --time-limit 3; sleep 30",
        quoted(std::path::Path::new(env!("CARGO_BIN_EXE_fencelab")))
    );
    let started = Instant::now();
    let tmux = Tmux::start(&command);
    tmux.wait_for("progress", |screen| {
        screen.contains("searching") || screen.contains("exploring:")
    });
    let shown = started.elapsed();
    // A second, plus slack for tmux starting on a busy shared machine.
    assert!(shown < Duration::from_secs(2), "progress after {shown:?}");
    let screen = tmux.wait_for("the verdict", |screen| screen.contains("Incomplete:"));
    assert!(screen.contains("no violation found"), "{screen}");
}

/// `--targets` that names no protection (`,,,`, an empty string, an empty
/// item) is refused, not read as "no targets" (issue 20): `--no-targets`
/// says that.
#[test]
fn an_empty_target_list_is_refused() {
    for list in [",,,", "", "none,,gateway", " "] {
        for lang in ["en", "zh"] {
            let output = fencelab(&["explore", "--targets", list, "--lang", lang]);
            assert_eq!(output.status.code(), Some(2), "{list:?} {lang}");
            assert!(output.stdout.is_empty(), "{list:?}: {}", stdout(&output));
            let message = stderr(&output);
            let expected = if lang == "en" {
                "a target without a protection"
            } else {
                "有目标没有写保护方式"
            };
            assert!(message.contains(expected), "{list:?}: {message}");
        }
    }
}

/// `--all-presets` explores each row's own world: a world option beside it
/// would be ignored, so it is refused (issue 20), while the limits and
/// `--json` still apply.
#[test]
fn all_presets_refuses_the_options_it_would_ignore() {
    for extra in [
        &["--design", "full"][..],
        &["--workers", "3"],
        &["--targets", "none"],
        &["--no-targets"],
        &["--exhaustive"],
        &["--cancel"],
        &["--crash"],
        &["--seed", "7"],
        &["--out", "cex.toml"],
    ] {
        let mut args = vec!["explore", "--all-presets"];
        args.extend_from_slice(extra);
        let output = fencelab(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&output).contains("cannot be used with"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// A scenario file as `--design` (issue 20): without a `design` key it is
/// the scenario's default, `full`; with one, that design; in both
/// languages, and the counterexample of a weak one still replays.
#[test]
fn a_scenario_file_names_the_design() {
    let dir = tempfile::tempdir().unwrap();
    let example = std::fs::read_to_string(crate::example("01-article-stale-finish.toml")).unwrap();
    let without: String = example
        .lines()
        .filter(|line| !line.starts_with("design"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_ne!(without, example, "the example names its design");
    let path = dir.path().join("scenario.toml");
    std::fs::write(&path, &without).unwrap();
    let file = path.display().to_string();
    let report = json_of(&["explore", "--design", &file, "--json"]);
    assert_eq!(report["design"], "full", "{report}");
    for lang in ["en", "zh"] {
        let output = fencelab(&["explore", "--design", &file, "--lang", lang]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert!(
            stdout(&output).starts_with("full · "),
            "{}",
            stdout(&output)
        );
    }
    let weak = without.replacen("ttl =", "design = \"ttl-lock-only\"\nttl =", 1);
    std::fs::write(&path, weak).unwrap();
    let report = json_of(&["explore", "--design", &file, "--exhaustive", "--json"]);
    assert_eq!(report["design"], "ttl-lock-only");
    assert_eq!(report["verdict"], "unsafe");
}

/// `--claim` chooses how the workers claim: listed in `--help`, checked by
/// name (exit 2, with a suggestion), stated in the JSON's bounds; a race
/// found under `read_then_update` is written out and replays through
/// `fencelab run`, and `held_across_work` reports the takeover its lock
/// blocks.
#[test]
fn the_claim_procedure_is_a_choice_the_explorers_attack() {
    let help = stdout(&fencelab(&["explore", "--help"]));
    for name in sim_core::ClaimProcedure::ALL.map(sim_core::ClaimProcedure::name) {
        assert!(help.contains(name), "--help lacks {name}: {help}");
    }
    assert!(help.contains("--claim"), "{help}");
    let output = fencelab(&["explore", "--claim", "select_for_updat"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("did you mean `select_for_update`?"),
        "{}",
        stderr(&output)
    );
    let output = fencelab(&["explore", "--claim", "read_then_update", "--jobs", "2"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("race.toml");
    let path_text = path.display().to_string();
    let race = json_of(&[
        "explore",
        "--design",
        "ttl-lock-only",
        "--claim",
        "read_then_update",
        "--max-time",
        "2",
        "--exhaustive",
        "--json",
        "--out",
        &path_text,
    ]);
    assert_eq!(race["verdict"], "unsafe");
    assert_eq!(race["bounds"]["claim"], "read_then_update");
    assert_eq!(race["schedule"].as_array().map(Vec::len), Some(5));
    assert!(race["blocked_takeover"].is_null());
    let replay = json_of(&["run", &path_text, "--json"]);
    let violations = replay["violations"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        violations.first().map(|v| v["kind"].clone()),
        Some("stale".into())
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("claim = \"read_then_update\""), "{text}");

    // `nowait` where a lock holder may crash: the lease alone still
    // protects nothing once it runs out, and the counterexample replays.
    assert!(help.contains("--crash"), "{help}");
    let crash_path = dir.path().join("crash.toml");
    let crash_text = crash_path.display().to_string();
    let crashing = json_of(&[
        "explore",
        "--design",
        "ttl-lock-only",
        "--claim",
        "nowait",
        "--crash",
        "--exhaustive",
        "--json",
        "--out",
        &crash_text,
    ]);
    assert_eq!(crashing["verdict"], "unsafe");
    assert_eq!(crashing["bounds"]["claim"], "nowait");
    assert_eq!(crashing["bounds"]["crash"], true);
    let replay = json_of(&["run", &crash_text, "--json"]);
    assert!(
        replay["violations"]
            .as_array()
            .is_some_and(|found| !found.is_empty()),
        "{replay}"
    );
    let atomic = json_of(&["explore", "--exhaustive", "--json"]);
    assert_eq!(atomic["bounds"]["claim"], "atomic");
    assert_eq!(atomic["bounds"]["crash"], false);
    let held = json_of(&[
        "explore",
        "--claim",
        "held_across_work",
        "--exhaustive",
        "--json",
    ]);
    assert_eq!(held["verdict"], "safe");
    assert!(
        held["blocked_takeover"]["explanation"]
            .as_str()
            .is_some_and(|e| e.contains("Takeover blocked while the lock is held")),
        "{held}"
    );
    let text = stdout(&fencelab(&[
        "explore",
        "--claim",
        "held_across_work",
        "--exhaustive",
        "--lang",
        "en",
    ]));
    assert!(text.contains("a takeover waited on a held lock"), "{text}");
    assert!(text.contains("waiting"), "{text}");
}

/// The classification's claim rows: only `read_then_update` is unsafe, and
/// the held transaction's row notes the blocked takeover.
#[test]
fn the_classification_has_a_row_per_claim_procedure() {
    let rows = json_of(&["explore", "--all-presets", "--json", "--lang", "en"]);
    let row = |design: &str| {
        rows.as_array()
            .into_iter()
            .flatten()
            .find(|row| row["design"] == design)
            .cloned()
            .unwrap_or_else(|| panic!("no row {design}"))
    };
    for claim in sim_core::ClaimProcedure::ALL {
        let found = row(&format!("claim: {}", claim.name()));
        let unsafe_expected = claim == sim_core::ClaimProcedure::ReadThenUpdate;
        assert_eq!(
            found["verdict"],
            if unsafe_expected { "unsafe" } else { "safe" },
            "{found}"
        );
        assert_eq!(
            found["blocked_takeover"],
            claim == sim_core::ClaimProcedure::HeldAcrossWork,
            "{found}"
        );
    }
    let text = stdout(&fencelab(&["explore", "--all-presets", "--lang", "en"]));
    assert!(
        text.contains("takeover blocked while the lock is held"),
        "{text}"
    );
    let output = fencelab(&["explore", "--all-presets", "--claim", "atomic"]);
    assert_eq!(output.status.code(), Some(2));
}
