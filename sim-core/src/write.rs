//! Scenarios back to text: TOML files (MODEL.md §6) and the same structure
//! as JSON. [`crate::parse_scenario`] reads both outputs' TOML back to an
//! equal scenario.

use std::fmt::Write as _;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::design::{ClaimProcedure, Design, Preset};
use crate::scenario::{Action, DesignSource, OpRef, Scenario, Step, Text, ValueRef};

/// A TOML string literal, escaped. A JSON string is a TOML basic string
/// once DEL, which TOML wants escaped and JSON leaves as it is, is escaped
/// too. (Not `toml::Value`'s `Display`: it brings the float printer into the
/// page's wasm, several KB for no float anywhere.)
fn quoted(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_default()
        .replace('\u{7f}', "\\u007F")
}

fn text_toml(text: &Text) -> String {
    if text.en == text.zh {
        quoted(&text.en)
    } else {
        format!("{{ en = {}, zh = {} }}", quoted(&text.en), quoted(&text.zh))
    }
}

fn design_fields(design: &Design) -> Vec<(&'static str, String)> {
    let checks = |set: crate::CheckSet| {
        let list: Vec<String> = set.names().iter().map(|n| quoted(n)).collect();
        format!("[{}]", list.join(", "))
    };
    let mut fields = vec![
        ("token", quoted(design.token.name())),
        ("commit_checks", checks(design.commit_checks)),
        ("renew_checks", checks(design.renew_checks)),
        ("lease_clock", quoted(design.lease_clock.name())),
        ("register_on_claim", design.register_on_claim.to_string()),
        ("target_protect", quoted(design.target_protect.name())),
        ("worker_checks", design.worker_checks.to_string()),
    ];
    // Written only when on, so designs from before it existed read the same.
    if design.cancel_epoch {
        fields.push(("cancel_epoch", "true".to_owned()));
    }
    if design.claim != ClaimProcedure::Atomic {
        fields.push(("claim", quoted(design.claim.name())));
    }
    if design.input_revision {
        fields.push(("input_revision", "true".to_owned()));
    }
    fields
}

/// How the design is written: a preset name when it is one.
fn design_preset(scenario: &Scenario) -> Option<Preset> {
    match scenario.design_source {
        DesignSource::Preset(preset) if preset.design() == scenario.design => Some(preset),
        _ => Preset::of(&scenario.design).filter(|_| scenario.design_source != DesignSource::Table),
    }
}

/// One step's keys, in file order, as (key, TOML literal).
fn step_fields(scenario: &Scenario, step: &Step) -> Vec<(&'static str, String)> {
    let typed = step_json(scenario, step);
    let mut fields = vec![("at", typed.at.to_string())];
    let named = [
        ("worker", typed.worker),
        ("do", Some(typed.action)),
        ("job", typed.job),
        ("target", typed.target),
        ("op", typed.op),
        ("value", typed.value),
        ("request", typed.request),
    ];
    for (key, id) in named {
        if let Some(id) = id {
            fields.push((key, quoted(id)));
        }
    }
    if let Some(batch) = typed.batch {
        fields.push(("batch", batch.to_string()));
    }
    if let Some(note) = &step.note {
        fields.push(("note", text_toml(note)));
    }
    fields
}

/// One step with the keys a scenario file gives it; absent keys are left out.
fn step_json<'s>(scenario: &'s Scenario, step: &'s Step) -> StepFileJson<'s> {
    let named =
        |table: &'s [String], index: u32| table.get(index as usize).map_or("", String::as_str);
    let (op, value) = if step.action == Action::Write {
        let op = match step.op {
            OpRef::Named(index) => Some(named(&scenario.ops, index)),
            _ => None,
        };
        let value = match step.value {
            ValueRef::Named(index) => Some(named(&scenario.values, index)),
            _ => None,
        };
        (op, value)
    } else {
        (None, None)
    };
    StepFileJson {
        at: step.at,
        worker: step.worker.map(|w| scenario.worker_id(w)),
        action: step.action.name(),
        job: step.job.map(|j| scenario.job_id(j)),
        target: step.target.map(|t| scenario.target_id(t)),
        op,
        value,
        request: step
            .request
            .and_then(|r| scenario.requests.get(r as usize))
            .map(String::as_str),
        batch: step.batch,
        note: step.note.as_ref().map(TextJson::of),
    }
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
            .map(|(key, literal)| format!("{key} = {literal}"))
            .collect();
        let _ = writeln!(out, "  {{ {} }},", fields.join(", "));
    }
    out.push_str("]\n");
    if preset.is_none() {
        out.push_str("\n[design]\n");
        for (key, literal) in design_fields(&scenario.design) {
            let _ = writeln!(out, "{key} = {literal}");
        }
    }
    for target in &scenario.targets {
        let _ = write!(out, "\n[[targets]]\nid = {}\n", quoted(&target.id));
        if target.own_protect {
            let _ = writeln!(out, "protect = {}", quoted(target.protect.name()));
        }
        if target.check_batch {
            out.push_str("check_batch = true\n");
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

/// The scenario with the keys and shapes of its TOML file, as JSON; see
/// [`scenario_json`] for the typed form.
pub fn scenario_to_json(scenario: &Scenario) -> Value {
    serde_json::to_value(scenario_json(scenario)).unwrap_or(Value::Null)
}

/// The scenario with the keys and shapes of its TOML file (the
/// `counterexample` of `explore --json`).
pub fn scenario_json(scenario: &Scenario) -> ScenarioJson<'_> {
    let workers = scenario
        .workers
        .iter()
        .map(|w| {
            let owner = scenario.owner_id(w.owner);
            if owner == w.id {
                WorkerJson::Id(&w.id)
            } else {
                WorkerJson::Owned { id: &w.id, owner }
            }
        })
        .collect();
    let design = match design_preset(scenario) {
        Some(preset) => DesignJson::Preset(preset.name()),
        None => DesignJson::Table(DesignTableJson::of(&scenario.design)),
    };
    let offsets = std::iter::once(("db", scenario.db_offset)).chain(
        scenario
            .workers
            .iter()
            .zip(&scenario.worker_offsets)
            .map(|(w, offset)| (w.id.as_str(), *offset)),
    );
    ScenarioJson {
        id: &scenario.id,
        title: TextJson::of(&scenario.title),
        description: scenario.description.as_ref().map(TextJson::of),
        ttl: scenario.ttl,
        workers,
        jobs: &scenario.jobs,
        seed: scenario.seed,
        design,
        steps: scenario
            .steps
            .iter()
            .map(|step| step_json(scenario, step))
            .collect(),
        targets: scenario
            .targets
            .iter()
            .map(|t| TargetFileJson {
                id: &t.id,
                protect: t.protect.name(),
                check_batch: t.check_batch,
            })
            .collect(),
        clocks: offsets.filter(|(_, offset)| *offset != 0).collect(),
    }
}

/// A scenario file as JSON: the keys of docs/scenario-format.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScenarioJson<'s> {
    pub id: &'s str,
    pub title: TextJson<'s>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<TextJson<'s>>,
    pub ttl: u64,
    pub workers: Vec<WorkerJson<'s>>,
    pub jobs: &'s [String],
    pub seed: u64,
    pub design: DesignJson,
    pub steps: Vec<StepFileJson<'s>>,
    pub targets: Vec<TargetFileJson<'s>>,
    /// Clock offsets that are not zero, by node (`db` or a worker id).
    pub clocks: BTreeMap<&'s str, i64>,
}

/// A text: one string when both languages read the same, else both.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum TextJson<'s> {
    Same(&'s str),
    Both { en: &'s str, zh: &'s str },
}

impl<'s> TextJson<'s> {
    fn of(text: &'s Text) -> TextJson<'s> {
        if text.en == text.zh {
            TextJson::Same(&text.en)
        } else {
            TextJson::Both {
                en: &text.en,
                zh: &text.zh,
            }
        }
    }
}

/// A worker: its id, or its id and the owner identity it shares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum WorkerJson<'s> {
    Id(&'s str),
    Owned { id: &'s str, owner: &'s str },
}

/// A design: a preset's name, or a `[design]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum DesignJson {
    Preset(&'static str),
    Table(DesignTableJson),
}

/// The keys of a `[design]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignTableJson {
    pub token: &'static str,
    pub commit_checks: Vec<&'static str>,
    pub renew_checks: Vec<&'static str>,
    pub lease_clock: &'static str,
    pub register_on_claim: bool,
    pub target_protect: &'static str,
    pub worker_checks: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cancel_epoch: bool,
    /// Absent for `atomic`, so designs from before it existed read the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<&'static str>,
    /// Absent when off, so designs from before it existed read the same.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub input_revision: bool,
}

impl DesignTableJson {
    pub fn of(design: &Design) -> DesignTableJson {
        DesignTableJson {
            token: design.token.name(),
            commit_checks: design.commit_checks.names(),
            renew_checks: design.renew_checks.names(),
            lease_clock: design.lease_clock.name(),
            register_on_claim: design.register_on_claim,
            target_protect: design.target_protect.name(),
            worker_checks: design.worker_checks,
            cancel_epoch: design.cancel_epoch,
            claim: (design.claim != ClaimProcedure::Atomic).then(|| design.claim.name()),
            input_revision: design.input_revision,
        }
    }
}

/// A step of a scenario file; keys that do not apply are absent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepFileJson<'s> {
    pub at: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worker: Option<&'s str>,
    #[serde(rename = "do")]
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub job: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<TextJson<'s>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetFileJson<'s> {
    pub id: &'s str,
    pub protect: &'static str,
    /// Absent when off, so targets from before it existed read the same.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub check_batch: bool,
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn a_quoted_string_reads_back_as_toml_unchanged() {
        for text in [
            "plain",
            "say \"hi\" \\ there",
            "two\nlines\tand a tab\r",
            "del \u{7f} bell \u{7} nul \u{0} esc \u{1b}",
            "租约在 tick 5 到期 'quoted'",
            "",
        ] {
            let line = format!("value = {}", quoted(text));
            let table: toml::Table = line.parse().unwrap();
            assert_eq!(table["value"].as_str(), Some(text), "{line}");
        }
    }
}
