//! `fencelab run`: the table, the JSON, and bad input.

use std::io::Write as _;

use crate::{example, examples_dir, fencelab, stderr, stdout};

#[test]
fn table_shows_outcomes_with_symbols_and_no_colour_when_piped() {
    let output = fencelab(&["run", &example("01-article-stale-finish.toml")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let table = stdout(&output);
    assert!(table.contains("✗ refused: owner, fence"), "{table}");
    assert!(table.contains("✓ took effect"), "{table}");
    assert!(table.contains("no violations"), "{table}");
    assert!(!table.contains('\x1b'), "stdout is a pipe: no colour");
}

#[test]
fn violations_are_marked_and_summarised_and_still_exit_zero() {
    let output = fencelab(&["run", &example("02-ttl-lock-double-execution.toml")]);
    assert_eq!(output.status.code(), Some(0));
    let table = stdout(&output);
    assert!(table.contains("‼ stale"), "{table}");
    assert!(table.contains("violations:"), "{table}");
}

#[test]
fn json_is_one_object_with_the_model_fields() {
    let output = fencelab(&["run", &example("01-article-stale-finish.toml"), "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = match serde_json::from_slice(&output.stdout) {
        Ok(json) => json,
        Err(error) => panic!("not JSON: {error}\n{}", stdout(&output)),
    };
    assert_eq!(json["scenario"], "01-article-stale-finish");
    let steps = json["steps"].as_array().map_or(0, Vec::len);
    assert_eq!(steps, 4);
    for field in [
        "i",
        "at",
        "worker",
        "do",
        "job",
        "target",
        "outcome",
        "reason",
        "token",
        "failed_checks",
        "generation",
        "expired",
        "lease_valid",
    ] {
        assert!(json["steps"][0].get(field).is_some(), "missing {field}");
    }
    assert_eq!(
        json["steps"][2]["failed_checks"],
        serde_json::json!(["owner", "fence"])
    );
    assert_eq!(json["violations"], serde_json::json!([]));
    assert_eq!(json["should_reject"], serde_json::json!([2]));
}

#[test]
fn every_example_runs_in_both_forms() {
    let Ok(entries) = std::fs::read_dir(examples_dir()) else {
        panic!("no examples directory");
    };
    let mut count = 0;
    for entry in entries.flatten() {
        let path = entry.path().display().to_string();
        if !path.ends_with(".toml") {
            continue;
        }
        count += 1;
        for args in [
            vec!["run", path.as_str()],
            vec!["run", path.as_str(), "--json"],
        ] {
            let output = fencelab(&args);
            assert_eq!(output.status.code(), Some(0), "{path}: {}", stderr(&output));
            assert!(stderr(&output).is_empty(), "{path}: {}", stderr(&output));
        }
    }
    assert!(count >= 10, "only {count} examples");
}

fn scenario_file(contents: &[u8]) -> tempfile::NamedTempFile {
    let file = tempfile::Builder::new().suffix(".toml").tempfile();
    let Ok(mut file) = file else {
        panic!("cannot create a temporary file");
    };
    if let Err(error) = file.write_all(contents) {
        panic!("cannot write: {error}");
    }
    file
}

#[test]
fn a_bad_file_gives_file_line_col_on_stderr_exit_two_and_nothing_on_stdout() {
    let file = scenario_file(b"id = \"x\"\nttl = 5\nworkers = [\"A\"]\nsteps = [{ at = 0, worker = \"B\", do = \"claim\" }]\n");
    let path = file.path().display().to_string();
    for json in [false, true] {
        let mut args = vec!["run", path.as_str()];
        if json {
            args.push("--json");
        }
        let output = fencelab(&args);
        assert_eq!(output.status.code(), Some(2));
        assert!(output.stdout.is_empty(), "stdout: {}", stdout(&output));
        assert_eq!(
            stderr(&output),
            format!("{path}:4:29: unknown worker `B`; expected one of `A`\n")
        );
    }
}

#[test]
fn missing_empty_and_binary_files_are_bad_input() {
    let output = fencelab(&["run", "/nonexistent/scenario.toml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("/nonexistent/scenario.toml: cannot read the file"));
    assert!(output.stdout.is_empty());

    for contents in [&b""[..], &b"\x00\xff\xfe garbage"[..]] {
        let file = scenario_file(contents);
        let path = file.path().display().to_string();
        let output = fencelab(&["run", &path]);
        assert_eq!(output.status.code(), Some(2));
        assert!(
            stderr(&output).starts_with(&format!("{path}:1:")),
            "{}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn bad_arguments_exit_two_and_help_explains_with_examples() {
    let output = fencelab(&["run", "--no-such-flag", "x.toml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());

    let help = stdout(&fencelab(&["--help"]));
    assert!(
        help.contains("Examples:") && help.contains("NO_COLOR"),
        "{help}"
    );
    let run_help = stdout(&fencelab(&["run", "--help"]));
    for option in ["--json", "--lang", "Examples:", "FILE:LINE:COL"] {
        assert!(
            run_help.contains(option),
            "run --help lacks {option}:\n{run_help}"
        );
    }
}
