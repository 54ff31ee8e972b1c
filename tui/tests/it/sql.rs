//! `fencelab sql` and `fencelab run --db sqlite`: the article's statements,
//! its replay on a real SQLite, bad input, and the `db` JSON against its
//! documentation (docs/scenario-format.md §15.5).

use std::collections::BTreeSet;
use std::io::Write as _;

use serde_json::Value;

use crate::{example, examples_dir, fencelab, stderr, stdout};

const SCENARIO_FORMAT: &str = include_str!("../../../docs/scenario-format.md");

#[test]
fn sql_prints_the_articles_statements_with_values_and_row_counts() {
    let output = fencelab(&["sql", &example("01-article-stale-finish.toml")]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let script = stdout(&output);
    assert!(script.contains("CREATE TABLE jobs"), "{script}");
    assert_eq!(
        script.matches("fence = fence + 1").count(),
        2,
        "two claims: {script}"
    );
    assert!(
        script.contains(
            "-- step 2, at 7: A finish → model: rejected, 0 rows\n\
             -- :job = 'r', :owner = 'A', :token = 1, :now = 7\n\
             UPDATE jobs SET state = 'done' WHERE id = :job AND owner = :owner AND fence = :token AND lease_until > :now AND state = 'running';"
        ),
        "{script}"
    );
    assert!(script.contains("B finish → model: ok, 1 row\n"), "{script}");

    let output = fencelab(&[
        "sql",
        &example("11-skip-locked-queue.toml"),
        "--dialect",
        "postgres",
    ]);
    let script = stdout(&output);
    assert!(script.contains("FOR UPDATE SKIP LOCKED"), "{script}");
    assert!(script.contains("CREATE FUNCTION db_now()"), "{script}");
    assert!(
        script.contains("BEGIN;\n") && script.contains("COMMIT;\n"),
        "{script}"
    );
}

#[test]
fn run_on_sqlite_shows_tokens_one_and_two_and_rows_zero_and_one_agreeing() {
    let file = example("01-article-stale-finish.toml");
    let output = fencelab(&["run", &file, "--db", "sqlite", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let db = &json["db"];
    assert_eq!(db["engine"], "sqlite");
    assert_eq!(db["agrees"], true, "{db}");
    let steps = db["steps"].as_array().unwrap();
    let fences: Vec<&Value> = steps[..2].iter().map(|s| &s["fence"]).collect();
    assert_eq!(fences, [1, 2]);
    let rows: Vec<&Value> = steps[2..].iter().map(|s| &s["rows"]).collect();
    assert_eq!(rows, [0, 1]);
    // The model's own fields are still there and say the same.
    assert_eq!(json["steps"][2]["rows"], 0);
    assert_eq!(json["steps"][3]["rows"], 1);

    let table = stdout(&fencelab(&["run", &file, "--db", "sqlite"]));
    assert!(table.contains("The same statements on sqlite:"), "{table}");
    assert!(table.contains("1 row, fence 2, r"), "{table}");
    assert!(
        table.contains("✓ The database agrees with the model at every step."),
        "{table}"
    );
}

#[test]
fn bad_input_to_sql_and_db_exits_two_with_nothing_on_stdout() {
    let file = tempfile::Builder::new().suffix(".toml").tempfile();
    let Ok(mut file) = file else {
        panic!("cannot create a temporary file");
    };
    file.write_all(b"id = \"x\"\nttl = 5\nworkers = [\"A\"]\nsteps = [{ at = 0, worker = \"B\", do = \"claim\" }]\n")
        .unwrap();
    let path = file.path().display().to_string();
    for args in [
        vec!["sql", path.as_str()],
        vec!["run", path.as_str(), "--db", "sqlite"],
    ] {
        let output = fencelab(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(
            stderr(&output),
            format!("{path}:4:29: unknown worker `B`; expected one of `A`\n")
        );
    }
    // SQLite has no row locks: a scenario with transactions is refused.
    let deadlock = example("16-deadlock.toml");
    let output = fencelab(&["run", &deadlock, "--db", "sqlite"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        stderr(&output).contains("--db postgres://"),
        "{}",
        stderr(&output)
    );
    // Neither sqlite nor a PostgreSQL URL.
    let output = fencelab(&["run", &deadlock, "--db", "mysql://x"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("expected `sqlite`"),
        "{}",
        stderr(&output)
    );
    // A dialect clap does not know.
    let output = fencelab(&["sql", &deadlock, "--dialect", "oracle"]);
    assert_eq!(output.status.code(), Some(2));
}

/// The backticked names in the first column of the table headed `header`.
fn table_keys(header: &str) -> BTreeSet<String> {
    let lines: Vec<&str> = SCENARIO_FORMAT.lines().collect();
    let start = lines
        .iter()
        .position(|line| line.starts_with(&format!("| {header} |")))
        .unwrap_or_else(|| panic!("no table `{header}`"));
    lines[start + 2..]
        .iter()
        .take_while(|line| line.starts_with('|'))
        .flat_map(|line| {
            let first = line.split('|').nth(1).unwrap_or_default();
            first
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_db_json_has_exactly_the_documented_fields() {
    let mut top = BTreeSet::new();
    let mut step_keys = BTreeSet::new();
    let mut replayed = 0;
    for entry in std::fs::read_dir(examples_dir()).unwrap() {
        let path = entry.unwrap().path();
        let path = path.display().to_string();
        let output = fencelab(&["run", &path, "--db", "sqlite", "--json"]);
        if output.status.code() == Some(2) {
            continue; // transactions: SQLite refuses
        }
        replayed += 1;
        let json: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["db"]["agrees"], true, "{path}: {}", json["db"]);
        top.extend(keys(&json["db"]));
        for step in json["db"]["steps"].as_array().unwrap() {
            step_keys.extend(keys(step));
        }
    }
    assert!(replayed >= 10, "{replayed} examples replayed");
    assert_eq!(top, table_keys("db field"));
    assert_eq!(step_keys, table_keys("db step field"));
}
