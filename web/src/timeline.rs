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
use sim_core::{
    Action, JobIdx, LeaseClock, Outcome, Preset, Scenario, Trace, WorkerIdx, describe_step,
    safety_reason, scenario_to_json,
};

/// How much of a run the page may see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reveal {
    /// Outcomes and the oracle's verdicts.
    Everything,
    /// Outcomes, but no verdicts (a mark exercise before it is solved).
    NoVerdicts,
    /// No verdicts, and not the outcomes of these steps (a predict exercise).
    NotTheseSteps(Vec<u32>),
}

impl Reveal {
    fn verdicts(&self) -> bool {
        *self == Reveal::Everything
    }

    fn step(&self, index: usize) -> bool {
        match self {
            Reveal::NotTheseSteps(hidden) => !hidden.contains(&(index as u32)),
            _ => true,
        }
    }
}

/// How a lease bar ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseEnd {
    /// `lease_until` passed.
    Expired,
    /// The job was finished, failed or cancelled.
    Ended,
    /// A newer claim took the row.
    Replaced,
}

impl LeaseEnd {
    fn name(self) -> &'static str {
        match self {
            LeaseEnd::Expired => "expired",
            LeaseEnd::Ended => "ended",
            LeaseEnd::Replaced => "replaced",
        }
    }
}

/// One lease the job table granted, in ticks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub worker: WorkerIdx,
    pub job: JobIdx,
    pub generation: u32,
    /// The claim that granted it.
    pub start_step: usize,
    /// `lease_until` as written (in the lease clock's time), after renewals.
    pub until: i64,
    /// `until` in true time (the lease clock may be skewed).
    pub expiry: i64,
    /// The step that ended it early (a finish, a cancel, a newer claim).
    pub closed: Option<(usize, LeaseEnd)>,
}

fn is_claim(action: Action) -> bool {
    matches!(
        action,
        Action::Claim | Action::ClaimNext | Action::UpdateClaim
    )
}

/// The leases the job table granted (the same spans the terminal draws).
pub fn leases(scenario: &Scenario, trace: &Trace) -> Vec<Lease> {
    let mut spans: Vec<Lease> = Vec::new();
    let mut active: Vec<Option<usize>> = vec![None; scenario.jobs.len()];
    let offset = |worker: WorkerIdx| match scenario.design.lease_clock {
        LeaseClock::Worker => scenario
            .worker_offsets
            .get(usize::from(worker))
            .copied()
            .unwrap_or(0),
        LeaseClock::Db => scenario.db_offset,
    };
    for (index, (step, record)) in scenario.steps.iter().zip(&trace.steps).enumerate() {
        if record.outcome != Outcome::Ok {
            continue;
        }
        let Some(job) = record.job else { continue };
        let Some(slot) = active.get_mut(usize::from(job)) else {
            continue;
        };
        match step.action {
            action if is_claim(action) => {
                let (Some(worker), Some(generation)) = (step.worker, record.generation) else {
                    continue;
                };
                if let Some(previous) = slot.take()
                    && let Some(span) = spans.get_mut(previous)
                {
                    span.closed.get_or_insert((index, LeaseEnd::Replaced));
                }
                let until = record
                    .lease_until
                    .unwrap_or_else(|| i64::try_from(step.at).unwrap_or(i64::MAX));
                spans.push(Lease {
                    worker,
                    job,
                    generation,
                    start_step: index,
                    until,
                    expiry: until.saturating_sub(offset(worker)),
                    closed: None,
                });
                *slot = Some(spans.len() - 1);
            }
            Action::Renew => {
                if let (Some(current), Some(until)) = (*slot, record.lease_until)
                    && let Some(span) = spans.get_mut(current)
                    && Some(span.worker) == step.worker
                {
                    span.until = until;
                    span.expiry = until.saturating_sub(offset(span.worker));
                }
            }
            Action::Finish | Action::Fail | Action::Cancel => {
                if let Some(current) = slot.take()
                    && let Some(span) = spans.get_mut(current)
                {
                    span.closed.get_or_insert((index, LeaseEnd::Ended));
                }
            }
            _ => {}
        }
    }
    spans
}

/// A step in words without its result: what a predict exercise asks about.
fn unresolved_step(scenario: &Scenario, index: usize, lang: &str) -> String {
    let Some(step) = scenario.steps.get(index) else {
        return String::new();
    };
    let zh = lang == "zh";
    let actor = match step.worker {
        Some(worker) => scenario.worker_id(worker).to_owned(),
        None if zh => "用户".to_owned(),
        None => "the user".to_owned(),
    };
    let place = step
        .target
        .map(|t| {
            let id = scenario.target_id(t);
            if zh {
                format!("（目标 `{id}`）")
            } else {
                format!(" to `{id}`")
            }
        })
        .unwrap_or_default();
    if zh {
        format!(
            "时刻 {}：{actor} 执行 {}{place}。结果如何？",
            step.at,
            step.action.name()
        )
    } else {
        format!(
            "Tick {}: {actor}'s {}{place}. What will it do?",
            step.at,
            step.action.name()
        )
    }
}

/// The step in words, without the oracle's verdict when that is hidden.
fn narration(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    lang: &str,
    reveal: &Reveal,
) -> String {
    if !reveal.step(index) {
        return unresolved_step(scenario, index, lang);
    }
    let full = describe_step(scenario, trace, index, lang);
    if reveal.verdicts() {
        return full;
    }
    // describe_step appends the safety reason to steps that had to be
    // refused or whose lease had expired; that sentence is the key.
    let verdict = format!(" {}", safety_reason(scenario, trace, index, lang));
    match full.strip_suffix(&verdict) {
        Some(plain) => plain.to_owned(),
        None => full,
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
pub fn timeline(scenario: &Scenario, lang: &str, reveal: &Reveal) -> Value {
    let trace = sim_core::run(scenario);
    let mut run = trace.to_json(scenario);
    if !reveal.verdicts()
        && let Value::Object(map) = &mut run
    {
        for key in ["violations", "should_reject", "reconcile"] {
            map.insert(key.into(), json!([]));
        }
        if let Some(Value::Array(steps)) = map.get_mut("steps") {
            for (index, step) in steps.iter_mut().enumerate() {
                if let Value::Object(fields) = step {
                    fields.insert("violation".into(), Value::Null);
                    if !reveal.step(index) {
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
            (Some(row), Some(job)) if reveal.step(index) => json!({
                "job": scenario.job_id(job),
                "owner": row.owner.map(|o| scenario.owner_id(o)),
                "lease_until": row.lease_until,
                "fence": row.fence,
                "state": row.state.name(),
            }),
            _ => Value::Null,
        })
        .collect();
    let leases: Vec<Value> = leases(scenario, &trace)
        .into_iter()
        .filter(|lease| reveal.step(lease.start_step))
        .map(|lease| {
            let closed = lease
                .closed
                .filter(|(step, _)| reveal.step(*step))
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
        "scenario": scenario_to_json(scenario),
        "run": run,
        "narration": narration,
        "notes": notes,
        "rows": rows,
        "leases": leases,
        "revealed": reveal.verdicts(),
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
    fn leases_end_when_replaced_or_finished() {
        let scenario = pause();
        let trace = sim_core::run(&scenario);
        let spans = leases(&scenario, &trace);
        assert_eq!(spans.len(), 2);
        assert_eq!(spans[0].generation, 1);
        assert_eq!(spans[0].expiry, 5);
        assert_eq!(spans[0].closed, Some((2, LeaseEnd::Replaced)));
        assert_eq!(spans[1].closed, Some((3, LeaseEnd::Ended)));
    }

    #[test]
    fn everything_shows_the_violation_and_its_reason() {
        let value = timeline(&pause(), "en", &Reveal::Everything);
        assert_eq!(value["run"]["steps"][5]["violation"], true);
        assert_eq!(value["run"]["should_reject"], json!([5]));
        let said = value["narration"][5].as_str().unwrap_or_default();
        assert!(said.contains("had to be refused"), "{said}");
        assert_eq!(value["notes"][3], "B is done");
        assert_eq!(value["rows"][2]["owner"], "B");
        assert_eq!(value["revealed"], true);
    }

    #[test]
    fn hidden_verdicts_never_leave_rust() {
        let value = timeline(&pause(), "zh", &Reveal::NoVerdicts);
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
        let value = timeline(&pause(), "en", &Reveal::NotTheseSteps(vec![2]));
        assert_eq!(value["run"]["steps"][2]["outcome"], Value::Null);
        assert_eq!(value["run"]["steps"][2]["generation"], Value::Null);
        assert_eq!(value["rows"][2], Value::Null);
        assert_eq!(value["leases"].as_array().map(Vec::len), Some(1));
        let said = value["narration"][2].as_str().unwrap_or_default();
        assert!(said.contains("What will it do?"), "{said}");
        assert_eq!(value["run"]["steps"][3]["outcome"], "ok");
    }
}
