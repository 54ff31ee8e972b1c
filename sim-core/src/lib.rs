//! The fencelab model: a job table guarded by leases and fencing tokens,
//! remote targets with their own protections, and a safety oracle that says
//! which effects were stale — the behavioural contract of `docs/MODEL.md`.
//!
//! This crate contains no I/O: it reads no files, no clock and no
//! environment, and draws no randomness it was not seeded with. A scenario
//! goes in ([`parse_scenario`] or a [`Scenario`] built in code), a [`Trace`]
//! comes out ([`run`]). The same input gives the same output on every
//! platform, including `wasm32-unknown-unknown`. Bad input is an error value,
//! never a panic.

pub mod course;
mod design;
mod diagram;
mod engine;
pub mod explore;
mod lang;
mod leases;
mod names;
mod narrate;
mod oracle;
mod parse;
mod resource;
mod reveal;
mod scenario;
pub mod sql;
pub mod sqllab;
mod trace;
pub mod words;
mod write;

pub use design::{Check, CheckSet, ClaimProcedure, Design, LeaseClock, Preset, Protect, TokenKind};
pub use diagram::{
    CheckedAt, Column, ColumnKind, Diagram, Flight, Idle, LEASE_END_SLACK, Lane, LaneKind,
    LeaseBar, LeaseEnd, MAX_EMPTY_RUN, MarkKind, RowAfter, StepMark, TickLabel, action_glyph,
    mark_of, narrate_step,
};
pub use engine::run;
pub use lang::{Lang, UnknownLang};
pub use leases::{Lease, LeaseClose, leases};
pub use narrate::{
    SummaryLine, SummaryTone, action_short, action_word, check_words, claim_words, clock_words,
    describe_outcome, describe_pending, describe_step, design_words, job_state_label,
    outcome_label, protect_short, protect_words, reason_label, safety_reason, token_words,
    trace_summary, violation_label, violation_line, violation_words,
};
pub use parse::{Diagnostic, closest, line_col, parse_design, parse_scenario};
pub use resource::{
    Fronts, MinimalDesign, Offer, RECONCILE_COST, ResourceKind, cancel_epoch_cost,
    cancel_epoch_cost_words, cancel_epoch_words, claim_cost, claim_cost_words, input_revision_cost,
    input_revision_cost_words, input_revision_words, lease_clock_cost, lease_clock_cost_words,
    predicate_cost_words, reconcile_cost_words, token_cost_words,
};
pub use reveal::Reveal;
pub use scenario::{
    Action, DesignSource, JobIdx, MAX_BATCH, MAX_IDS, MAX_STEPS, MAX_TIME, OpRef, OwnerIdx,
    Scenario, ScenarioError, Step, StepProblem, Target, TargetIdx, Text, ValueRef, Worker,
    WorkerIdx,
};
pub use trace::{
    JobState, Outcome, Reason, Row, StepTrace, TargetState, Trace, Violation, ViolationKind,
};
pub use words::{PageCatalogue, SANDBOX_SAMPLE, page_words};
pub use write::{scenario_json, scenario_to_json, scenario_to_toml};

/// The typed JSON objects: `fencelab run --json` ([`Trace::run_json`]) and a
/// scenario file as JSON ([`scenario_json`]). Field names are the keys of
/// docs/scenario-format.md.
pub mod json {
    pub use crate::trace::{
        DraftJson, JobJson, ProgressJson, RunJson, StepJson, TargetJson, ViolationJson,
    };
    pub use crate::write::{
        DesignJson, DesignTableJson, ScenarioJson, StepFileJson, TargetFileJson, TextJson,
        WorkerJson,
    };
}
