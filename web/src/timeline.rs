//! A scenario's timeline as the page draws it: the `fencelab run --json`
//! object, every step in words (`describe_step`), the job-table row after
//! each step and the leases the job table granted — everything computed
//! here, so the page only lays it out.
//!
//! An exercise must not show its key before the learner has tried: a mark
//! exercise hides the oracle's verdicts (`violation`, `should_reject`, the
//! "had to be refused" sentence), a predict exercise also hides the
//! outcomes of the steps it asks about. [`Reveal`] says how much to show;
//! what is hidden never leaves Rust.

use serde_json::{Value, json};
use sim_core::Lang;
use sim_core::{Preset, Reveal, Scenario, Trace, describe_step, scenario_to_toml};

/// The step in words, without the oracle's verdict when that is hidden.
fn narration(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    lang: Lang,
    reveal: &Reveal,
) -> String {
    if !reveal.shows_step(index) {
        sim_core::describe_pending(scenario, index, lang)
    } else if reveal.shows_verdicts() {
        describe_step(scenario, trace, index, lang)
    } else {
        sim_core::describe_outcome(scenario, trace, index, lang)
    }
}

/// Fields of a `run --json` step that tell its result.
const RESULT_FIELDS: [&str; 12] = [
    "outcome",
    "reason",
    "token",
    "failed_checks",
    "generation",
    "newest_generation",
    "expired",
    "lease_valid",
    "rows",
    "lease_until",
    "waited_until",
    "violation",
];

/// The page's timeline object for `scenario` (see the module docs).
pub fn timeline(scenario: &Scenario, lang: Lang, reveal: &Reveal) -> Value {
    let trace = sim_core::run(scenario);
    let mut run = trace.to_json(scenario);
    if !reveal.shows_verdicts()
        && let Value::Object(map) = &mut run
    {
        for key in ["violations", "should_reject", "reconcile"] {
            map.insert(key.into(), json!([]));
        }
        if let Some(Value::Array(steps)) = map.get_mut("steps") {
            for (index, step) in steps.iter_mut().enumerate() {
                if let Value::Object(fields) = step {
                    fields.insert("violation".into(), Value::Null);
                    if !reveal.shows_step(index) {
                        for key in RESULT_FIELDS {
                            fields.insert(key.into(), Value::Null);
                        }
                    }
                }
            }
        }
    }
    let narration: Vec<String> = (0..scenario.steps.len())
        .map(|index| narration(scenario, &trace, index, lang, reveal))
        .collect();
    let notes: Vec<Value> = scenario
        .steps
        .iter()
        .map(|step| json!(step.note.as_ref().map(|n| n.get(lang))))
        .collect();
    let rows: Vec<Value> = trace
        .steps
        .iter()
        .enumerate()
        .map(|(index, record)| match (record.row, record.job) {
            (Some(row), Some(job)) if reveal.shows_step(index) => json!({
                "job": scenario.job_id(job),
                "owner": row.owner.map(|o| scenario.owner_id(o)),
                "lease_until": row.lease_until,
                "fence": row.fence,
                "state": row.state.name(),
            }),
            _ => Value::Null,
        })
        .collect();
    let leases: Vec<Value> = sim_core::leases(scenario, &trace)
        .into_iter()
        .filter(|lease| reveal.shows_step(lease.start_step))
        .map(|lease| {
            let closed = lease
                .closed
                .filter(|(step, _)| reveal.shows_step(*step))
                .map(|(step, end)| json!({ "step": step, "end": end.name() }));
            json!({
                "worker": scenario.worker_id(lease.worker),
                "job": scenario.job_id(lease.job),
                "generation": lease.generation,
                "start_step": lease.start_step,
                "start": scenario.steps.get(lease.start_step).map(|s| s.at),
                "until": lease.until,
                "expiry": lease.expiry,
                "closed": closed,
            })
        })
        .collect();
    let design = Preset::of(&scenario.design).map_or("custom", Preset::name);
    json!({
        "id": scenario.id,
        "title": scenario.title.get(lang),
        "description": scenario.description.as_ref().map(|d| d.get(lang)),
        "ttl": scenario.ttl,
        "design": design,
        "workers": scenario.workers.iter().map(|w| w.id.clone()).collect::<Vec<_>>(),
        "jobs": scenario.jobs,
        "targets": scenario
            .targets
            .iter()
            .map(|t| json!({ "id": t.id, "protect": t.protect.name() }))
            .collect::<Vec<_>>(),
        // The scenario file, for a share link; none for an exercise before it
        // is solved.
        "toml": reveal.shows_verdicts().then(|| scenario_to_toml(scenario)),
        "run": run,
        "narration": narration,
        "notes": notes,
        "rows": rows,
        "leases": leases,
        "revealed": reveal.shows_verdicts(),
        "hidden": match reveal {
            Reveal::NotTheseSteps(steps) => json!(steps),
            _ => json!([]),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAUSE: &str = r#"
id = "pause"
title = { en = "A paused worker", zh = "暂停的 Worker" }
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 1, worker = "A", do = "pause" },
  { at = 6, worker = "B", do = "claim" },
  { at = 7, worker = "B", do = "finish", note = { en = "B is done", zh = "B 完成" } },
  { at = 8, worker = "A", do = "resume" },
  { at = 8, worker = "A", do = "finish" },
]
"#;

    fn pause() -> Scenario {
        sim_core::parse_scenario(PAUSE.as_bytes()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn everything_shows_the_violation_and_its_reason() {
        let value = timeline(&pause(), Lang::En, &Reveal::Everything);
        assert_eq!(value["run"]["steps"][5]["violation"], true);
        assert_eq!(value["run"]["should_reject"], json!([5]));
        let said = value["narration"][5].as_str().unwrap_or_default();
        assert!(said.contains("had to be refused"), "{said}");
        assert_eq!(value["notes"][3], "B is done");
        assert_eq!(value["rows"][2]["owner"], "B");
        assert_eq!(value["revealed"], true);
        let toml = value["toml"].as_str().unwrap_or_default();
        let again = sim_core::parse_scenario(toml.as_bytes()).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(again.steps.len(), 6);
    }

    #[test]
    fn hidden_verdicts_never_leave_rust() {
        let value = timeline(&pause(), Lang::Zh, &Reveal::NoVerdicts);
        let text = value.to_string();
        assert!(!text.contains("必须被拒绝"), "{text}");
        assert_eq!(value["run"]["violations"], json!([]));
        assert_eq!(value["run"]["should_reject"], json!([]));
        assert_eq!(value["run"]["steps"][5]["violation"], Value::Null);
        assert_eq!(value["run"]["steps"][5]["outcome"], "ok");
        assert_eq!(value["notes"][3], "B 完成");
    }

    #[test]
    fn hidden_steps_show_no_outcome() {
        let value = timeline(&pause(), Lang::En, &Reveal::NotTheseSteps(vec![2]));
        assert_eq!(value["run"]["steps"][2]["outcome"], Value::Null);
        assert_eq!(value["run"]["steps"][2]["generation"], Value::Null);
        assert_eq!(value["rows"][2], Value::Null);
        assert_eq!(value["leases"].as_array().map(Vec::len), Some(1));
        let said = value["narration"][2].as_str().unwrap_or_default();
        assert!(said.contains("What will it do?"), "{said}");
        assert_eq!(value["run"]["steps"][3]["outcome"], "ok");
    }
}
