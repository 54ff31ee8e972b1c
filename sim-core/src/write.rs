//! Scenarios back to text: TOML files (MODEL.md §6) and the same structure
//! as JSON. [`crate::parse_scenario`] reads both outputs' TOML back to an
//! equal scenario.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::design::{Design, Preset};
use crate::scenario::{Action, DesignSource, OpRef, Scenario, Step, Text, ValueRef};

/// A TOML string literal, escaped.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

fn text_toml(text: &Text) -> String {
    if text.en == text.zh {
        quoted(&text.en)
    } else {
        format!("{{ en = {}, zh = {} }}", quoted(&text.en), quoted(&text.zh))
    }
}

fn text_json(text: &Text) -> Value {
    if text.en == text.zh {
        json!(text.en)
    } else {
        json!({ "en": text.en, "zh": text.zh })
    }
}

fn design_fields(design: &Design) -> Vec<(&'static str, String, Value)> {
    let checks = |set: crate::CheckSet| {
        let names = set.names();
        let list: Vec<String> = names.iter().map(|n| quoted(n)).collect();
        (format!("[{}]", list.join(", ")), json!(names))
    };
    let (commit_toml, commit_json) = checks(design.commit_checks);
    let (renew_toml, renew_json) = checks(design.renew_checks);
    vec![
        (
            "token",
            quoted(design.token.name()),
            json!(design.token.name()),
        ),
        ("commit_checks", commit_toml, commit_json),
        ("renew_checks", renew_toml, renew_json),
        (
            "lease_clock",
            quoted(design.lease_clock.name()),
            json!(design.lease_clock.name()),
        ),
        (
            "register_on_claim",
            design.register_on_claim.to_string(),
            json!(design.register_on_claim),
        ),
        (
            "target_protect",
            quoted(design.target_protect.name()),
            json!(design.target_protect.name()),
        ),
        (
            "worker_checks",
            design.worker_checks.to_string(),
            json!(design.worker_checks),
        ),
    ]
}

/// How the design is written: a preset name when it is one.
fn design_preset(scenario: &Scenario) -> Option<Preset> {
    match scenario.design_source {
        DesignSource::Preset(preset) if preset.design() == scenario.design => Some(preset),
        _ => Preset::of(&scenario.design).filter(|_| scenario.design_source != DesignSource::Table),
    }
}

/// One step's keys, in file order, as (key, TOML literal, JSON value).
fn step_fields(scenario: &Scenario, step: &Step) -> Vec<(&'static str, String, Value)> {
    let mut fields = vec![("at", step.at.to_string(), json!(step.at))];
    if let Some(worker) = step.worker {
        let id = scenario.worker_id(worker);
        fields.push(("worker", quoted(id), json!(id)));
    }
    fields.push(("do", quoted(step.action.name()), json!(step.action.name())));
    if let Some(job) = step.job {
        let id = scenario.job_id(job);
        fields.push(("job", quoted(id), json!(id)));
    }
    if let Some(target) = step.target {
        let id = scenario.target_id(target);
        fields.push(("target", quoted(id), json!(id)));
    }
    if step.action == Action::Write {
        if let OpRef::Named(index) = step.op {
            let op = scenario.ops.get(index as usize).map_or("", String::as_str);
            fields.push(("op", quoted(op), json!(op)));
        }
        if let ValueRef::Named(index) = step.value {
            let value = scenario
                .values
                .get(index as usize)
                .map_or("", String::as_str);
            fields.push(("value", quoted(value), json!(value)));
        }
    }
    if let Some(note) = &step.note {
        fields.push(("note", text_toml(note), text_json(note)));
    }
    fields
}

/// The scenario as a TOML file in the format of `docs/scenario-format.md`.
pub fn scenario_to_toml(scenario: &Scenario) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "id = {}", quoted(&scenario.id));
    let _ = writeln!(out, "title = {}", text_toml(&scenario.title));
    if let Some(description) = &scenario.description {
        let _ = writeln!(out, "description = {}", text_toml(description));
    }
    let _ = writeln!(out, "ttl = {}", scenario.ttl);
    let workers: Vec<String> = scenario
        .workers
        .iter()
        .map(|w| {
            let owner = scenario.owner_id(w.owner);
            if owner == w.id {
                quoted(&w.id)
            } else {
                format!("{{ id = {}, owner = {} }}", quoted(&w.id), quoted(owner))
            }
        })
        .collect();
    let _ = writeln!(out, "workers = [{}]", workers.join(", "));
    if scenario.jobs_listed || scenario.jobs != ["r"] {
        let jobs: Vec<String> = scenario.jobs.iter().map(|j| quoted(j)).collect();
        let _ = writeln!(out, "jobs = [{}]", jobs.join(", "));
    }
    if scenario.seed != 0 {
        let _ = writeln!(out, "seed = {}", scenario.seed);
    }
    let preset = design_preset(scenario);
    if let Some(preset) = preset
        && scenario.design_source != DesignSource::Default
    {
        let _ = writeln!(out, "design = {}", quoted(preset.name()));
    }
    out.push_str("steps = [\n");
    for step in &scenario.steps {
        let fields: Vec<String> = step_fields(scenario, step)
            .into_iter()
            .map(|(key, literal, _)| format!("{key} = {literal}"))
            .collect();
        let _ = writeln!(out, "  {{ {} }},", fields.join(", "));
    }
    out.push_str("]\n");
    if preset.is_none() {
        out.push_str("\n[design]\n");
        for (key, literal, _) in design_fields(&scenario.design) {
            let _ = writeln!(out, "{key} = {literal}");
        }
    }
    for target in &scenario.targets {
        let _ = write!(out, "\n[[targets]]\nid = {}\n", quoted(&target.id));
        if target.own_protect {
            let _ = writeln!(out, "protect = {}", quoted(target.protect.name()));
        }
    }
    let offsets: Vec<(String, i64)> = std::iter::once(("db".to_owned(), scenario.db_offset))
        .chain(
            scenario
                .workers
                .iter()
                .zip(&scenario.worker_offsets)
                .map(|(w, offset)| (w.id.clone(), *offset)),
        )
        .filter(|(_, offset)| *offset != 0)
        .collect();
    if !offsets.is_empty() {
        out.push_str("\n[clocks]\n");
        for (node, offset) in offsets {
            let _ = writeln!(out, "{} = {offset}", quoted(&node));
        }
    }
    out
}

/// The scenario with the keys and shapes of its TOML file, as JSON.
pub fn scenario_to_json(scenario: &Scenario) -> Value {
    let mut object = Map::new();
    object.insert("id".into(), json!(scenario.id));
    object.insert("title".into(), text_json(&scenario.title));
    if let Some(description) = &scenario.description {
        object.insert("description".into(), text_json(description));
    }
    object.insert("ttl".into(), json!(scenario.ttl));
    let workers: Vec<Value> = scenario
        .workers
        .iter()
        .map(|w| {
            let owner = scenario.owner_id(w.owner);
            if owner == w.id {
                json!(w.id)
            } else {
                json!({ "id": w.id, "owner": owner })
            }
        })
        .collect();
    object.insert("workers".into(), Value::Array(workers));
    object.insert("jobs".into(), json!(scenario.jobs));
    object.insert("seed".into(), json!(scenario.seed));
    let design = match design_preset(scenario) {
        Some(preset) => json!(preset.name()),
        None => {
            let fields: Map<String, Value> = design_fields(&scenario.design)
                .into_iter()
                .map(|(key, _, value)| (key.to_owned(), value))
                .collect();
            Value::Object(fields)
        }
    };
    object.insert("design".into(), design);
    let steps: Vec<Value> = scenario
        .steps
        .iter()
        .map(|step| {
            let fields: Map<String, Value> = step_fields(scenario, step)
                .into_iter()
                .map(|(key, _, value)| (key.to_owned(), value))
                .collect();
            Value::Object(fields)
        })
        .collect();
    object.insert("steps".into(), Value::Array(steps));
    let targets: Vec<Value> = scenario
        .targets
        .iter()
        .map(|t| json!({ "id": t.id, "protect": t.protect.name() }))
        .collect();
    object.insert("targets".into(), Value::Array(targets));
    let mut clocks = Map::new();
    if scenario.db_offset != 0 {
        clocks.insert("db".into(), json!(scenario.db_offset));
    }
    for (worker, offset) in scenario.workers.iter().zip(&scenario.worker_offsets) {
        if *offset != 0 {
            clocks.insert(worker.id.clone(), json!(offset));
        }
    }
    object.insert("clocks".into(), Value::Object(clocks));
    Value::Object(object)
}
