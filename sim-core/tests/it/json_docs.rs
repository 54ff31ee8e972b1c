//! The typed JSON against its documentation: the keys `fencelab run --json`
//! and `fencelab explore --json` produce are exactly the keys
//! docs/scenario-format.md §12 and docs/explorers.md list, both ways, so a
//! field added (or renamed) without documentation fails here.

use std::collections::BTreeSet;

use serde_json::Value;
use sim_core::explore::{Method, RunToEnd, WorldOptions, explore};
use sim_core::{DesignSource, Preset};

const SCENARIO_FORMAT: &str = include_str!("../../../docs/scenario-format.md");
const EXPLORERS: &str = include_str!("../../../docs/explorers.md");

type Keys = BTreeSet<String>;

/// The text of `doc` from the heading that starts with `from` to the next
/// heading of the same level.
fn section<'d>(doc: &'d str, from: &str) -> &'d str {
    let start = doc
        .find(from)
        .unwrap_or_else(|| panic!("no section {from}"));
    let level = from.split(' ').next().unwrap_or("##");
    let rest = &doc[start + from.len()..];
    let end = rest.find(&format!("\n{level} ")).unwrap_or(rest.len());
    &rest[..end]
}

/// The backticked names in the first column of the table whose header's
/// first cell is `header`, e.g. `| step field | meaning |`.
fn table_keys(text: &str, header: &str) -> Keys {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|line| line.starts_with(&format!("| {header} |")))
        .unwrap_or_else(|| panic!("no table `{header}`"));
    let mut keys = Keys::new();
    for line in lines[start + 2..].iter().take_while(|l| l.starts_with('|')) {
        let first = line.split('|').nth(1).unwrap_or_default();
        keys.extend(backticked(first));
    }
    assert!(!keys.is_empty(), "table `{header}` lists no field");
    keys
}

/// The cell of the table row whose first column names `key`.
fn table_meaning<'t>(text: &'t str, key: &str) -> &'t str {
    text.lines()
        .find(|line| {
            line.starts_with('|')
                && backticked(line.split('|').nth(1).unwrap_or_default()).contains(key)
        })
        .and_then(|line| line.split('|').nth(2))
        .unwrap_or_else(|| panic!("no row for `{key}`"))
}

fn backticked(text: &str) -> Keys {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_owned)
        .collect()
}

/// The quoted words of a `[{ "step", "kind" }]` shape, or every `"key":`
/// of a JSON example.
fn quoted(text: &str, followed_by_colon: bool) -> Keys {
    let parts: Vec<&str> = text.split('"').collect();
    (1..parts.len())
        .step_by(2)
        .filter(|&i| {
            let after = parts.get(i + 1).unwrap_or(&"");
            !followed_by_colon || after.trim_start().starts_with(':')
        })
        .map(|i| parts[i])
        .filter(|word| {
            !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .map(str::to_owned)
        .collect()
}

fn keys_of(value: &Value) -> Keys {
    match value {
        Value::Object(map) => map.keys().cloned().collect(),
        _ => Keys::new(),
    }
}

/// The keys of every object in the array `value`.
fn element_keys(value: &Value) -> Keys {
    value
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(keys_of)
        .collect()
}

/// Every `fencelab run --json` of the examples, so that optional parts
/// (targets, drafts, violations) all occur.
fn example_runs() -> Vec<Value> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut runs = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "toml") {
            let bytes = std::fs::read(&path).unwrap();
            let scenario =
                sim_core::parse_scenario(&bytes).unwrap_or_else(|e| panic!("{path:?}: {e:?}"));
            let trace = sim_core::run(&scenario);
            runs.push(serde_json::to_value(trace.run_json(&scenario)).unwrap_or_default());
        }
    }
    assert!(runs.len() > 10, "the examples are there");
    runs
}

#[test]
fn run_json_has_exactly_the_documented_fields() {
    let doc = section(SCENARIO_FORMAT, "## 12. JSON output");
    let runs = example_runs();
    let union = |pick: &dyn Fn(&Value) -> Keys| -> Keys { runs.iter().flat_map(pick).collect() };

    assert_eq!(
        union(&keys_of),
        table_keys(doc, "top-level field"),
        "top level"
    );
    assert_eq!(
        union(&|r| element_keys(&r["steps"])),
        table_keys(doc, "step field"),
        "steps"
    );
    assert_eq!(
        union(&|r| element_keys(&r["jobs"])),
        table_keys(doc, "job field"),
        "jobs"
    );
    assert_eq!(
        union(&|r| element_keys(&r["targets"])),
        table_keys(doc, "target field"),
        "targets"
    );
    assert_eq!(
        union(&|r| element_keys(&r["violations"])),
        quoted(table_meaning(doc, "violations"), false),
        "violations"
    );
    let drafts = union(&|r| {
        r["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|t| element_keys(&t["drafts"]))
            .collect()
    });
    assert_eq!(
        drafts,
        quoted(table_meaning(doc, "drafts"), false),
        "drafts"
    );

    // The example object uses only documented keys.
    let example = doc
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_default();
    let documented: Keys = table_keys(doc, "top-level field")
        .union(&table_keys(doc, "step field"))
        .cloned()
        .collect();
    let shown = quoted(example, true);
    assert!(shown.len() > 15, "the example shows a step: {shown:?}");
    assert!(
        shown.is_subset(&documented),
        "{:?}",
        shown.difference(&documented)
    );
}

/// Every key of `value`, at any depth, without descending into `skip`.
fn deep_keys(value: &Value, skip: &[&str], into: &mut Keys) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                into.insert(key.clone());
                if !skip.contains(&key.as_str()) {
                    deep_keys(inner, skip, into);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| deep_keys(item, skip, into)),
        _ => {}
    }
}

#[test]
fn explore_json_has_exactly_the_documented_fields() {
    let doc = section(EXPLORERS, "## JSON (`--json`)");
    let example = doc
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_default();
    let documented = quoted(example, true);

    let preset = Preset::TtlLockOnly;
    let world = WorldOptions::new(preset.design(), DesignSource::Preset(preset))
        .world()
        .unwrap();
    let method = Method::Random { seed: 1, cases: 64 };
    let report = explore(&world, method, &mut RunToEnd).unwrap();
    assert!(report.counterexample.is_some(), "ttl-lock-only is unsafe");
    let json = serde_json::to_value(report.report_json(0, sim_core::Lang::En)).unwrap_or_default();
    // The counterexample and its trace have the keys of a scenario file and
    // of `run --json`, documented in docs/scenario-format.md.
    let mut produced = Keys::new();
    deep_keys(&json, &["counterexample", "trace"], &mut produced);
    assert_eq!(produced, documented);
}
