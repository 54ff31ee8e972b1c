//! Property tests. Whatever bytes come in, parsing never panics and every
//! diagnostic points inside the text; whatever valid scenario comes in,
//! running it is deterministic and the trace agrees with MODEL.md §2–§5.
//!
//! Every property runs a fixed number of cases from a fixed ChaCha seed, with
//! no failure persistence, so a run draws the same inputs on every machine.
//! Scenarios are generated as TOML text and go through `parse_scenario`, so a
//! failure prints a file that `fencelab run` replays.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::cell::Cell;
use std::fmt::Write as _;

use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{
    Config, RngAlgorithm, TestCaseError, TestCaseResult, TestRng, TestRunner,
};
use sim_core::{
    Action, CheckSet, ClaimProcedure, Design, LeaseClock, Outcome, Preset, Protect, Reason,
    Scenario, TokenKind, Trace, ViolationKind, parse_scenario, run,
};

// ---------------------------------------------------------------------------
// The runner: explicit, deterministic configuration.

/// 32 bytes; each property flips the last one so they draw different inputs.
const SEED: [u8; 32] = *b"fencelab-props-fixed-seed-000001";

/// Runs `test` on `cases` inputs drawn from `strategy` with a fixed seed and
/// panics with proptest's shrunk counterexample if one fails.
fn check_all<S: Strategy>(
    cases: u32,
    salt: u8,
    strategy: S,
    test: impl Fn(S::Value) -> TestCaseResult,
) {
    let config = Config {
        cases,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut seed = SEED;
    seed[31] ^= salt;
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
    if let Err(error) = runner.run(&strategy, test) {
        panic!("{error}");
    }
}

/// `prop_assert!` that also prints the scenario text.
macro_rules! ensure {
    ($text:expr, $cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(TestCaseError::fail(format!(
                "{}\n--- input ---\n{}",
                format!($($fmt)+),
                $text
            )));
        }
    };
}

// ---------------------------------------------------------------------------
// A small TOML value tree and its renderer.

/// A TOML value as the generator builds it. `Raw` is written verbatim (dates,
/// floats, odd literals, broken syntax).
#[derive(Debug, Clone)]
enum Tv {
    Int(i128),
    Str(String),
    Bool(bool),
    Raw(String),
    Arr(Vec<Tv>),
    Tab(Vec<(String, Tv)>),
}

fn s(text: &str) -> Tv {
    Tv::Str(text.to_owned())
}

fn push_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Bare when TOML allows it; a key starting with `@` is written verbatim
/// (dotted keys such as `design.token`).
fn push_key(out: &mut String, key: &str) {
    if let Some(raw) = key.strip_prefix('@') {
        out.push_str(raw);
    } else if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        out.push_str(key);
    } else {
        push_string(out, key);
    }
}

fn push_value(out: &mut String, value: &Tv) {
    match value {
        Tv::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Tv::Str(text) => push_string(out, text),
        Tv::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Tv::Raw(raw) => out.push_str(raw),
        Tv::Arr(items) if items.iter().any(|item| matches!(item, Tv::Tab(_))) => {
            out.push_str("[\n");
            for item in items {
                out.push_str("  ");
                push_value(out, item);
                out.push_str(",\n");
            }
            out.push(']');
        }
        Tv::Arr(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                push_value(out, item);
            }
            out.push(']');
        }
        Tv::Tab(entries) if entries.is_empty() => out.push_str("{}"),
        Tv::Tab(entries) => {
            out.push_str("{ ");
            for (index, (key, item)) in entries.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                push_key(out, key);
                out.push_str(" = ");
                push_value(out, item);
            }
            out.push_str(" }");
        }
    }
}

fn push_entry(out: &mut String, key: &str, value: &Tv) {
    push_key(out, key);
    out.push_str(" = ");
    push_value(out, value);
    out.push('\n');
}

/// A document from top-level entries. With `sections`, tables become
/// `[key]` sections and arrays of tables `[[key]]` sections, after the plain
/// entries.
fn render(top: &[(String, Tv)], sections: bool) -> String {
    let mut head = String::new();
    let mut tail = String::new();
    for (key, value) in top {
        match value {
            Tv::Tab(entries) if sections => {
                tail.push_str("\n[");
                push_key(&mut tail, key);
                tail.push_str("]\n");
                for (inner, item) in entries {
                    push_entry(&mut tail, inner, item);
                }
            }
            Tv::Arr(items)
                if sections
                    && !items.is_empty()
                    && items.iter().all(|item| matches!(item, Tv::Tab(_))) =>
            {
                for item in items {
                    tail.push_str("\n[[");
                    push_key(&mut tail, key);
                    tail.push_str("]]\n");
                    if let Tv::Tab(entries) = item {
                        for (inner, value) in entries {
                            push_entry(&mut tail, inner, value);
                        }
                    }
                }
            }
            _ => push_entry(&mut head, key, value),
        }
    }
    head + &tail
}

// ---------------------------------------------------------------------------
// Structured scenarios.

#[derive(Debug, Clone)]
struct WorkerSpec {
    id: String,
    /// `Some` for a restarted incarnation `{ id = "A2", owner = "A" }`.
    owner: Option<String>,
}

#[derive(Debug, Clone, Copy)]
enum DesignSpec {
    /// No `design` key: `full`.
    Default,
    Preset(Preset),
    /// A `[design]` table listing every field.
    Table(Design),
}

/// One step as drawn; [`Spec::toml`] resolves it into a valid step.
#[derive(Debug, Clone)]
struct RawStep {
    delta: u8,
    worker: u8,
    action: Action,
    job: Option<u8>,
    target: u8,
    op: Option<u8>,
    value: Option<u8>,
    by_user: bool,
    note: bool,
}

#[derive(Debug, Clone)]
struct Spec {
    ttl: u8,
    seed: u64,
    workers: Vec<WorkerSpec>,
    /// Empty: the file lists no jobs (the single job `r`).
    jobs: Vec<String>,
    targets: Vec<(String, Option<Protect>)>,
    design: DesignSpec,
    db_offset: i8,
    /// Parallel to `workers` (extra entries are ignored).
    offsets: Vec<i8>,
    steps: Vec<RawStep>,
}

impl Spec {
    fn design(&self) -> Design {
        match self.design {
            DesignSpec::Default => Preset::Full.design(),
            DesignSpec::Preset(preset) => preset.design(),
            DesignSpec::Table(design) => design,
        }
    }

    fn protect(&self, target: usize) -> Protect {
        self.targets[target]
            .1
            .unwrap_or_else(|| self.design().target_protect)
    }

    fn job_ids(&self) -> Vec<String> {
        if self.jobs.is_empty() {
            vec!["r".to_owned()]
        } else {
            self.jobs.clone()
        }
    }

    /// The scenario as a TOML tree. Steps are made valid here: `write` needs a
    /// target (else it becomes `check`), `register` a `registered_token`
    /// target (else `check`), `op` and `value` go on writes only.
    fn tree(&self) -> Vec<(String, Tv)> {
        let mut top = vec![
            ("id".to_owned(), s("prop")),
            ("ttl".to_owned(), Tv::Int(self.ttl.into())),
        ];
        if self.seed != 0 {
            top.push(("seed".to_owned(), Tv::Int(self.seed.into())));
        }
        let workers = self
            .workers
            .iter()
            .map(|worker| match &worker.owner {
                None => s(&worker.id),
                Some(owner) => Tv::Tab(vec![
                    ("id".to_owned(), s(&worker.id)),
                    ("owner".to_owned(), s(owner)),
                ]),
            })
            .collect();
        top.push(("workers".to_owned(), Tv::Arr(workers)));
        if !self.jobs.is_empty() {
            top.push((
                "jobs".to_owned(),
                Tv::Arr(self.jobs.iter().map(|job| s(job)).collect()),
            ));
        }
        match self.design {
            DesignSpec::Default => {}
            DesignSpec::Preset(preset) => top.push(("design".to_owned(), s(preset.name()))),
            DesignSpec::Table(design) => {
                let checks = |set: CheckSet| Tv::Arr(set.names().into_iter().map(s).collect());
                top.push((
                    "design".to_owned(),
                    Tv::Tab(vec![
                        ("token".to_owned(), s(design.token.name())),
                        ("commit_checks".to_owned(), checks(design.commit_checks)),
                        ("renew_checks".to_owned(), checks(design.renew_checks)),
                        ("lease_clock".to_owned(), s(design.lease_clock.name())),
                        (
                            "register_on_claim".to_owned(),
                            Tv::Bool(design.register_on_claim),
                        ),
                        ("target_protect".to_owned(), s(design.target_protect.name())),
                        ("worker_checks".to_owned(), Tv::Bool(design.worker_checks)),
                        ("cancel_epoch".to_owned(), Tv::Bool(design.cancel_epoch)),
                        ("claim".to_owned(), s(design.claim.name())),
                    ]),
                ));
            }
        }
        if !self.targets.is_empty() {
            let targets = self
                .targets
                .iter()
                .map(|(id, protect)| {
                    let mut entries = vec![("id".to_owned(), s(id))];
                    if let Some(protect) = protect {
                        entries.push(("protect".to_owned(), s(protect.name())));
                    }
                    Tv::Tab(entries)
                })
                .collect();
            top.push(("targets".to_owned(), Tv::Arr(targets)));
        }
        let mut clocks = Vec::new();
        if self.db_offset != 0 {
            clocks.push(("db".to_owned(), Tv::Int(self.db_offset.into())));
        }
        for (worker, offset) in self.workers.iter().zip(&self.offsets) {
            if *offset != 0 {
                clocks.push((worker.id.clone(), Tv::Int((*offset).into())));
            }
        }
        if !clocks.is_empty() {
            top.push(("clocks".to_owned(), Tv::Tab(clocks)));
        }
        top.push(("steps".to_owned(), Tv::Arr(self.step_tree())));
        top
    }

    fn step_tree(&self) -> Vec<Tv> {
        let jobs = self.job_ids();
        let registered: Vec<usize> = (0..self.targets.len())
            .filter(|&t| self.protect(t) == Protect::RegisteredToken)
            .collect();
        let mut at = 0u64;
        let mut steps = Vec::new();
        // Requests that travel: a write drawn `by_user` is sent as a request;
        // a `pause` or `resume` drawn `by_user` delivers the oldest one.
        let (mut sent, mut delivered) = (0usize, 0usize);
        for raw in &self.steps {
            at += u64::from(raw.delta);
            let mut action = raw.action;
            if matches!(action, Action::Pause | Action::Resume) && raw.by_user && delivered < sent {
                steps.push(Tv::Tab(vec![
                    ("at".to_owned(), Tv::Int(at.into())),
                    ("do".to_owned(), s(Action::Deliver.name())),
                    ("request".to_owned(), s(&format!("q{delivered}"))),
                ]));
                delivered += 1;
                continue;
            }
            let target = match action {
                Action::Write if !self.targets.is_empty() => {
                    Some(usize::from(raw.target) % self.targets.len())
                }
                Action::Register if !registered.is_empty() => {
                    Some(registered[usize::from(raw.target) % registered.len()])
                }
                Action::Write | Action::Register => {
                    action = Action::Check;
                    None
                }
                _ => None,
            };
            let mut entries = vec![("at".to_owned(), Tv::Int(at.into()))];
            if !(action == Action::Cancel && raw.by_user) {
                let worker = &self.workers[usize::from(raw.worker) % self.workers.len()];
                entries.push(("worker".to_owned(), s(&worker.id)));
            }
            entries.push(("do".to_owned(), s(action.name())));
            if let Some(job) = raw.job {
                entries.push(("job".to_owned(), s(&jobs[usize::from(job) % jobs.len()])));
            }
            if let Some(target) = target {
                entries.push(("target".to_owned(), s(&self.targets[target].0)));
            }
            if action == Action::Write {
                if raw.by_user {
                    entries.push(("request".to_owned(), s(&format!("q{sent}"))));
                    sent += 1;
                }
                if let Some(op) = raw.op {
                    entries.push(("op".to_owned(), s(&format!("op-{}", op % 3))));
                }
                if let Some(value) = raw.value {
                    let value = if value % 4 == 0 {
                        Tv::Int(value.into())
                    } else {
                        s(&format!("值 {value}"))
                    };
                    entries.push(("value".to_owned(), value));
                }
            }
            if raw.note {
                entries.push((
                    "note".to_owned(),
                    Tv::Tab(vec![
                        ("en".to_owned(), s("a note")),
                        ("zh".to_owned(), s("注释")),
                    ]),
                ));
            }
            steps.push(Tv::Tab(entries));
        }
        steps
    }

    fn toml(&self) -> String {
        render(&self.tree(), false)
    }
}

/// Parses a generated scenario; the generator only makes valid ones.
fn parse_valid(text: &str) -> Result<Scenario, TestCaseError> {
    match parse_scenario(text.as_bytes()) {
        Ok(scenario) => Ok(scenario),
        Err(diagnostics) => Err(TestCaseError::fail(format!(
            "a generated scenario does not parse: {diagnostics:?}\n--- input ---\n{text}"
        ))),
    }
}

// --- strategies for structured scenarios -----------------------------------

type Weights = &'static [(Action, u32)];

const ALL_ACTIONS: Weights = &[
    (Action::Claim, 6),
    (Action::Renew, 3),
    (Action::Write, 4),
    (Action::Finish, 3),
    (Action::Fail, 1),
    (Action::Cancel, 1),
    (Action::Register, 2),
    (Action::Check, 1),
    (Action::Crash, 1),
    (Action::Pause, 1),
    (Action::Resume, 1),
    (Action::Begin, 3),
    (Action::Select, 2),
    (Action::SelectForUpdate, 2),
    (Action::SelectSkipLocked, 2),
    (Action::SelectNowait, 2),
    (Action::UpdateClaim, 3),
    (Action::ClaimNext, 2),
    (Action::Commit, 2),
    (Action::Rollback, 1),
];

/// The atomic job-table actions of MODEL.md §2 and the labels: no targets,
/// no transactions, no unconditional `update_claim`.
const ATOMIC_ACTIONS: Weights = &[
    (Action::Claim, 6),
    (Action::ClaimNext, 1),
    (Action::Renew, 3),
    (Action::Finish, 3),
    (Action::Fail, 1),
    (Action::Cancel, 1),
    (Action::Check, 1),
    (Action::Pause, 1),
    (Action::Resume, 1),
    (Action::Crash, 1),
];

/// [`ATOMIC_ACTIONS`] plus writes and registrations.
const ATOMIC_AND_WRITES: Weights = &[
    (Action::Claim, 6),
    (Action::ClaimNext, 1),
    (Action::Renew, 3),
    (Action::Write, 5),
    (Action::Register, 2),
    (Action::Finish, 3),
    (Action::Fail, 1),
    (Action::Cancel, 1),
    (Action::Check, 1),
    (Action::Pause, 1),
    (Action::Resume, 1),
    (Action::Crash, 1),
];

/// Steps that leave the job table and the token generator alone.
const SIDE_ACTIONS: Weights = &[
    (Action::Check, 1),
    (Action::Write, 3),
    (Action::Register, 2),
    (Action::Pause, 1),
    (Action::Resume, 1),
];

/// Draws a `u32` and reduces it (not `select`, whose `usize` draws differ
/// between 32- and 64-bit targets).
fn action(weights: Weights) -> BoxedStrategy<Action> {
    let total: u32 = weights.iter().map(|(_, weight)| weight).sum();
    (0..total)
        .prop_map(move |mut draw| {
            for (action, weight) in weights {
                if draw < *weight {
                    return *action;
                }
                draw -= weight;
            }
            weights[0].0
        })
        .boxed()
}

fn raw_step(weights: Weights) -> BoxedStrategy<RawStep> {
    (
        prop_oneof![2 => Just(0u8), 3 => 1u8..=2, 1 => 3u8..=7],
        any::<u8>(),
        action(weights),
        prop::option::weighted(0.4, any::<u8>()),
        any::<u8>(),
        prop::option::weighted(0.3, any::<u8>()),
        prop::option::weighted(0.3, any::<u8>()),
        prop::bool::weighted(0.5),
        prop::bool::weighted(0.1),
    )
        .prop_map(
            |(delta, worker, action, job, target, op, value, by_user, note)| RawStep {
                delta,
                worker,
                action,
                job,
                target,
                op,
                value,
                by_user,
                note,
            },
        )
        .boxed()
}

/// 2–4 workers; about a third are restarted incarnations of an earlier one.
fn workers() -> BoxedStrategy<Vec<WorkerSpec>> {
    const ORIGINALS: [&str; 4] = ["A", "B", "C", "工人"];
    prop::collection::vec((prop::bool::weighted(0.3), any::<u8>()), 2..=4)
        .prop_map(|draws| {
            let mut originals: Vec<&str> = Vec::new();
            let mut workers = Vec::new();
            for (index, (restart, pick)) in draws.into_iter().enumerate() {
                if restart && !originals.is_empty() {
                    let base = originals[usize::from(pick) % originals.len()];
                    workers.push(WorkerSpec {
                        id: format!("{base}{}", index + 1),
                        owner: Some(base.to_owned()),
                    });
                } else {
                    let id = ORIGINALS[originals.len()];
                    originals.push(id);
                    workers.push(WorkerSpec {
                        id: id.to_owned(),
                        owner: None,
                    });
                }
            }
            workers
        })
        .boxed()
}

fn offset() -> BoxedStrategy<i8> {
    prop_oneof![3 => Just(0i8), 1 => -3i8..=3].boxed()
}

fn protect_of(index: u8) -> Protect {
    Protect::ALL[usize::from(index) % Protect::ALL.len()]
}

fn any_protect() -> BoxedStrategy<Option<Protect>> {
    prop::option::weighted(0.7, (0u8..7).prop_map(protect_of)).boxed()
}

fn any_design() -> BoxedStrategy<DesignSpec> {
    let table = (
        0u8..3,
        0u8..16,
        0u8..16,
        any::<bool>(),
        any::<bool>(),
        0u8..7,
        any::<bool>(),
    )
        .prop_map(
            |(token, commit, renew, worker_clock, register, protect, checks)| {
                DesignSpec::Table(Design {
                    token: TokenKind::ALL[usize::from(token)],
                    commit_checks: CheckSet::from_bits(commit),
                    renew_checks: CheckSet::from_bits(renew),
                    lease_clock: if worker_clock {
                        LeaseClock::Worker
                    } else {
                        LeaseClock::Db
                    },
                    register_on_claim: register,
                    target_protect: protect_of(protect),
                    worker_checks: checks,
                    // worker_checks changes nothing in a hand-written
                    // scenario, so its draw doubles as the cancel epoch's.
                    cancel_epoch: checks,
                    // And the input revision's, mixed with the clock's.
                    input_revision: checks != worker_clock,
                    // The claim procedure only steers the explorers' workers,
                    // so the renew checks' draw picks it too: the key is
                    // written and read back.
                    claim: ClaimProcedure::ALL[usize::from(renew) % ClaimProcedure::ALL.len()],
                })
            },
        );
    prop_oneof![
        1 => Just(DesignSpec::Default),
        3 => (0u8..7).prop_map(|i| DesignSpec::Preset(Preset::ALL[usize::from(i)])),
        3 => table,
    ]
    .boxed()
}

/// `full` written in each of the three ways.
fn full_design() -> BoxedStrategy<DesignSpec> {
    prop_oneof![
        Just(DesignSpec::Default),
        Just(DesignSpec::Preset(Preset::Full)),
        Just(DesignSpec::Table(Preset::Full.design())),
    ]
    .boxed()
}

fn spec(
    weights: Weights,
    design: BoxedStrategy<DesignSpec>,
    protect: BoxedStrategy<Option<Protect>>,
    max_steps: usize,
) -> BoxedStrategy<Spec> {
    const JOBS: [&str; 3] = ["r1", "任务2", "r3"];
    const TARGETS: [&str; 3] = ["mail", "report", "账本"];
    (
        1u8..=6,
        0u64..=i64::MAX as u64,
        workers(),
        0usize..=3,
        prop::collection::vec(protect, 0..=3),
        design,
        offset(),
        prop::collection::vec(offset(), 4),
        prop::collection::vec(raw_step(weights), 0..=max_steps),
    )
        .prop_map(
            |(ttl, seed, workers, jobs, protects, design, db_offset, offsets, steps)| Spec {
                ttl,
                seed,
                workers,
                jobs: JOBS[..jobs].iter().map(|j| (*j).to_owned()).collect(),
                targets: TARGETS
                    .iter()
                    .zip(protects)
                    .map(|(id, protect)| ((*id).to_owned(), protect))
                    .collect(),
                design,
                db_offset,
                offsets,
                steps,
            },
        )
        .boxed()
}

// ---------------------------------------------------------------------------
// Checks shared by every structured scenario.

fn is_grant_action(action: Action) -> bool {
    matches!(
        action,
        Action::Claim | Action::ClaimNext | Action::UpdateClaim
    )
}

/// Runs the scenario twice (a), then checks (c), (d), (f) and the other
/// trace invariants that hold for every valid scenario. Returns the trace.
fn run_and_check(scenario: &Scenario, text: &str) -> Result<Trace, TestCaseError> {
    ensure!(
        text,
        scenario.check().is_ok(),
        "check() refused a parsed scenario"
    );
    let trace = run(scenario);
    let again = run(scenario);
    ensure!(text, trace == again, "two runs of one scenario differ");
    ensure!(
        text,
        trace.steps.len() == scenario.steps.len(),
        "{} trace entries for {} steps",
        trace.steps.len(),
        scenario.steps.len()
    );
    let json = trace.to_json(scenario);
    ensure!(
        text,
        json == again.to_json(scenario),
        "two JSON renderings differ"
    );
    ensure!(
        text,
        serde_json::to_string(&json).is_ok(),
        "JSON does not serialize"
    );
    let steps = json["steps"].as_array().cloned().unwrap_or_default();
    ensure!(text, steps.len() == scenario.steps.len(), "JSON step count");

    let uses_transactions = scenario.steps.iter().any(|s| s.action == Action::Begin);
    let token_kind = scenario.design.token;

    // (c) violations ⊆ should_reject, and every violation took effect.
    for violation in &trace.violations {
        let i = violation.step as usize;
        ensure!(
            text,
            trace.should_reject.contains(&violation.step),
            "violation at step {i} is not in should_reject {:?}",
            trace.should_reject
        );
        ensure!(
            text,
            steps.get(i).is_some_and(|step| step["outcome"] == "ok"),
            "violation at step {i} whose outcome is {:?}",
            steps.get(i).map(|step| &step["outcome"])
        );
        ensure!(
            text,
            scenario.steps[i].action.can_have_effect(),
            "violation at step {i}, a `{}`",
            scenario.steps[i].action.name()
        );
    }
    for (i, step) in steps.iter().enumerate() {
        ensure!(text, step["i"] == i, "JSON step {i} has i = {}", step["i"]);
        ensure!(
            text,
            step["do"] == scenario.steps[i].action.name(),
            "JSON step {i} has the wrong `do`"
        );
        ensure!(
            text,
            step["violation"] == trace.is_violation(i as u32),
            "JSON step {i}: `violation` disagrees with the list"
        );
    }

    // Without transactions nothing is taken back, so an effect the oracle
    // flagged in should_reject is a violation exactly when it took effect.
    if !uses_transactions {
        for (i, step) in scenario.steps.iter().enumerate() {
            let versioned_write = step.action == Action::Write
                && step
                    .target
                    .and_then(|t| scenario.targets.get(usize::from(t)))
                    .is_some_and(|t| t.protect == Protect::Versioned);
            if step.action.can_have_effect()
                && !versioned_write
                && trace.steps[i].outcome == Outcome::Ok
            {
                ensure!(
                    text,
                    trace.should_reject.contains(&(i as u32)) == trace.is_violation(i as u32),
                    "step {i} took effect: in should_reject = {}, violation = {}",
                    trace.should_reject.contains(&(i as u32)),
                    trace.is_violation(i as u32)
                );
            }
        }
    }

    // (d) generations count granted claims; tokens follow the token kind.
    // A claim that waited for a row lock is granted when the lock is
    // released, after later steps: bound generations by the total.
    let mut grants = vec![0u32; scenario.jobs.len()];
    for (step, record) in scenario.steps.iter().zip(&trace.steps) {
        if is_grant_action(step.action)
            && record.outcome == Outcome::Ok
            && let Some(count) = record.job.and_then(|job| grants.get_mut(usize::from(job)))
        {
            *count += 1;
        }
    }
    let mut last_generation = vec![0u32; scenario.jobs.len()];
    for (i, (step, record)) in scenario.steps.iter().zip(&trace.steps).enumerate() {
        if !is_grant_action(step.action) || record.outcome != Outcome::Ok {
            continue;
        }
        let Some(job) = record.job.map(usize::from) else {
            ensure!(text, false, "granted claim at step {i} names no job");
            continue;
        };
        let Some(generation) = record.generation else {
            ensure!(text, false, "granted claim at step {i} has no generation");
            continue;
        };
        let fence = record.row.map(|row| row.fence);
        // A cancel under `cancel_epoch` advanced the fence once: a claim
        // that still takes the row (an `update_claim` on a stale read)
        // counts on from there.
        // A cancel that waited for a row lock ran when the lock was freed,
        // maybe after this claim: its epoch may or may not come first.
        let cancels = |waited: bool| {
            scenario.design.cancel_epoch
                && scenario.steps[..i]
                    .iter()
                    .zip(&trace.steps)
                    .any(|(step, earlier)| {
                        step.action == Action::Cancel
                            && earlier.outcome == Outcome::Ok
                            && earlier.job == Some(job as u16)
                            && earlier.waited_until.is_some() == waited
                    })
        };
        let epoch = cancels(false);
        let expected_fence = u64::from(generation) + u64::from(epoch);
        let expected_fence = if cancels(true) && fence == Some(expected_fence + 1) {
            expected_fence + 1
        } else {
            expected_fence
        };
        ensure!(
            text,
            generation >= 1 && generation <= grants[job],
            "claim at step {i}: generation {generation} of {} grants",
            grants[job]
        );
        if !uses_transactions {
            ensure!(
                text,
                generation == last_generation[job] + 1,
                "claim at step {i}: generation {generation}, previous {}",
                last_generation[job]
            );
        }
        match token_kind {
            TokenKind::Monotonic => {
                ensure!(
                    text,
                    record.token == Some(expected_fence) && fence == record.token,
                    "monotonic claim at step {i}: token {:?}, fence {fence:?}, generation {generation}",
                    record.token
                );
            }
            TokenKind::None => ensure!(
                text,
                record.token.is_none() && fence == Some(expected_fence),
                "token-less claim at step {i}: token {:?}, fence {fence:?}",
                record.token
            ),
            TokenKind::Random => ensure!(
                text,
                record.token.is_some_and(|t| (1..1_000_000).contains(&t)) && fence == record.token,
                "random claim at step {i}: token {:?}, fence {fence:?}",
                record.token
            ),
        }
        last_generation[job] = generation;
    }
    for (job, row) in trace.final_rows.iter().enumerate() {
        let generations = trace.generations[job];
        ensure!(
            text,
            generations <= grants[job],
            "job {job}: {generations} generations from {} grants",
            grants[job]
        );
        if !uses_transactions {
            ensure!(text, generations == grants[job], "job {job}: generations");
        }
        if token_kind != TokenKind::Random {
            // A cancel under `cancel_epoch` advances the fence once more.
            let cancelled = scenario
                .steps
                .iter()
                .zip(&trace.steps)
                .any(|(step, record)| {
                    step.action == Action::Cancel
                        && record.outcome == Outcome::Ok
                        && record.job == Some(job as u16)
                });
            let epoch = scenario.design.cancel_epoch && cancelled;
            ensure!(
                text,
                row.fence == u64::from(generations) + u64::from(epoch),
                "job {job}: fence {} but {generations} generations",
                row.fence
            );
        }
    }

    // (f) after its crash a worker does nothing.
    for (c, crash) in scenario.steps.iter().enumerate() {
        if crash.action != Action::Crash {
            continue;
        }
        for (i, step) in scenario.steps.iter().enumerate().skip(c + 1) {
            if step.worker == crash.worker {
                ensure!(
                    text,
                    trace.steps[i].outcome == Outcome::Noop
                        && trace.steps[i].reason == Some(Reason::Crashed),
                    "step {i} comes after its worker's crash at {c} but is {:?} ({:?})",
                    trace.steps[i].outcome,
                    trace.steps[i].reason
                );
            }
        }
    }

    // A statement still waiting at the end blocks everything its worker does
    // afterwards (a crash would have ended the wait).
    for (w, waiting) in scenario.steps.iter().enumerate() {
        if trace.steps[w].outcome != Outcome::Waiting {
            continue;
        }
        ensure!(
            text,
            waiting.worker.is_some() || waiting.action == Action::Cancel,
            "waiting step {w}"
        );
        for (i, step) in scenario.steps.iter().enumerate().skip(w + 1) {
            if step.worker == waiting.worker {
                ensure!(
                    text,
                    trace.steps[i].outcome == Outcome::Noop
                        && trace.steps[i].reason == Some(Reason::Blocked),
                    "step {i} comes after its worker's unfinished wait at {w} but is {:?} ({:?})",
                    trace.steps[i].outcome,
                    trace.steps[i].reason
                );
            }
        }
    }

    // A refusal says why (MODEL.md §4).
    for (i, (step, record)) in scenario.steps.iter().zip(&trace.steps).enumerate() {
        if record.outcome != Outcome::Rejected {
            continue;
        }
        match step.action {
            Action::Claim => ensure!(
                text,
                matches!(
                    record.reason,
                    Some(Reason::LeaseHeld | Reason::Terminal | Reason::Deadlock)
                ),
                "refused claim at step {i} with reason {:?}",
                record.reason
            ),
            // NOWAIT never waits, so it is never a deadlock victim either.
            Action::SelectNowait => ensure!(
                text,
                record.reason == Some(Reason::LockNotAvailable),
                "refused select_nowait at step {i} with reason {:?}",
                record.reason
            ),
            Action::Renew | Action::Finish | Action::Fail | Action::Write | Action::Register
                if record.reason != Some(Reason::Deadlock) =>
            {
                ensure!(
                    text,
                    record
                        .failed_checks
                        .is_some_and(|failed| !failed.is_empty()),
                    "refused `{}` at step {i} names no failed check",
                    step.action.name()
                );
            }
            _ => {}
        }
        if matches!(step.action, Action::Renew | Action::Finish | Action::Fail)
            && let Some(failed) = record.failed_checks
        {
            ensure!(
                text,
                (record.outcome == Outcome::Ok) == failed.is_empty(),
                "step {i}: outcome {:?} with failed checks {failed:?}",
                record.outcome
            );
        }
    }
    for (i, (step, record)) in scenario.steps.iter().zip(&trace.steps).enumerate() {
        if step.action == Action::Check && record.reason.is_none() {
            ensure!(
                text,
                record.lease_valid.is_some(),
                "check at step {i} learned nothing"
            );
        }
    }

    // Reconciliation lists applied writes and deliveries, in order, and the
    // sends of requests that were in flight (marked so).
    ensure!(
        text,
        trace.reconcile.windows(2).all(|pair| pair[0] < pair[1]),
        "reconcile is not sorted: {:?}",
        trace.reconcile
    );
    for &r in &trace.reconcile_in_flight {
        let i = r as usize;
        ensure!(
            text,
            trace.reconcile.contains(&r)
                && scenario
                    .steps
                    .get(i)
                    .is_some_and(|s| s.action == Action::Write && s.request.is_some())
                && trace.steps[i].reason == Some(sim_core::Reason::Sent),
            "reconcile_in_flight lists step {i}, not a sent request in reconcile"
        );
    }
    for &r in &trace.reconcile {
        let i = r as usize;
        if trace.reconcile_in_flight.contains(&r) {
            continue;
        }
        ensure!(
            text,
            scenario
                .steps
                .get(i)
                .is_some_and(|s| matches!(s.action, Action::Write | Action::Deliver))
                && trace.steps[i].outcome == Outcome::Ok,
            "reconcile lists step {i}, not an applied write"
        );
    }
    Ok(trace)
}

// ---------------------------------------------------------------------------
// 1. Arbitrary bytes.

/// A valid scenario with CJK text and several lines, for byte mutations.
const SEED_TEXT: &str = r#"id = "seed"
title = { en = "Stale finish", zh = "接管后的过期提交" }
ttl = 5
workers = ["A", "B", { id = "A2", owner = "A" }]
jobs = ["r1", "r2"]
design = "full"
steps = [
  { at = 0, worker = "A", do = "claim", job = "r1" },
  { at = 6, worker = "B", do = "claim", job = "r1" },
  { at = 7, worker = "A", do = "write", target = "t", op = "x", value = "值" },
  { at = 7, worker = "B", do = "finish" },
  { at = 8, do = "cancel", job = "r2" },
]

[[targets]]
id = "t"
protect = "registered_token"

[clocks]
A = -3
"#;

const TOMLISH: &[u8] = b"=[]{}\"'#\n\n \t,.-_+:0123456789abcdefrstuwxyzAB\\\r";

/// Whether (line, col) names a character of `text` or the end of its line.
fn inside(text: &str, line: u32, col: u32) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    line >= 1
        && col >= 1
        && (line as usize) <= lines.len()
        && (col as usize) <= lines[line as usize - 1].chars().count() + 1
}

#[derive(Debug, Clone)]
enum ByteEdit {
    Overwrite(u32, u8),
    Insert(u32, u8),
    Delete(u32),
    Truncate(u32),
}

fn byte_inputs() -> BoxedStrategy<Vec<u8>> {
    let edit = prop_oneof![
        (any::<u32>(), any::<u8>()).prop_map(|(at, b)| ByteEdit::Overwrite(at, b)),
        (any::<u32>(), select(TOMLISH)).prop_map(|(at, b)| ByteEdit::Insert(at, b)),
        any::<u32>().prop_map(ByteEdit::Delete),
        any::<u32>().prop_map(ByteEdit::Truncate),
    ];
    let mutated = (
        prop::collection::vec(edit, 0..6),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(edits, bom, crlf)| {
            let text = if crlf {
                SEED_TEXT.replace('\n', "\r\n")
            } else {
                SEED_TEXT.to_owned()
            };
            let mut bytes = Vec::new();
            if bom {
                bytes.extend_from_slice("\u{feff}".as_bytes());
            }
            bytes.extend_from_slice(text.as_bytes());
            for edit in edits {
                let len = bytes.len().max(1);
                match edit {
                    ByteEdit::Overwrite(at, b) => {
                        if let Some(slot) = bytes.get_mut(at as usize % len) {
                            *slot = b;
                        }
                    }
                    ByteEdit::Insert(at, b) => bytes.insert(at as usize % (bytes.len() + 1), b),
                    ByteEdit::Delete(at) => {
                        if !bytes.is_empty() {
                            bytes.remove(at as usize % len);
                        }
                    }
                    ByteEdit::Truncate(at) => bytes.truncate(at as usize % len),
                }
            }
            bytes
        });
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        prop::collection::vec(select(TOMLISH), 0..300),
        mutated,
    ]
    .boxed()
}

#[test]
fn arbitrary_bytes_never_panic_and_diagnostics_point_into_the_text() {
    check_all(1500, 1, byte_inputs(), |bytes| {
        let lines = bytes.iter().filter(|b| **b == b'\n').count() + 1;
        let lossy = String::from_utf8_lossy(&bytes);
        let text = lossy.strip_prefix('\u{feff}').unwrap_or(&lossy);
        match parse_scenario(&bytes) {
            Ok(scenario) => {
                run_and_check(&scenario, text)?;
            }
            Err(diagnostics) => {
                ensure!(text, !diagnostics.is_empty(), "Err with no diagnostic");
                for d in &diagnostics {
                    ensure!(
                        text,
                        d.line >= 1 && d.col >= 1 && !d.message.is_empty(),
                        "bad diagnostic {d:?}"
                    );
                    ensure!(
                        text,
                        d.line as usize <= lines + 1,
                        "line past the end: {d:?}"
                    );
                    ensure!(text, inside(text, d.line, d.col), "outside the text: {d:?}");
                }
            }
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// 2. TOML-shaped input: valid scenarios with grammar-aware mutations.

#[rustfmt::skip]
const KEYS: &[&str] = &[
    "id", "title", "description", "ttl", "workers", "jobs", "design", "steps", "targets",
    "clocks", "seed", "at", "worker", "do", "job", "target", "op", "value", "note", "base",
    "token", "commit_checks", "renew_checks", "lease_clock", "register_on_claim",
    "target_protect", "worker_checks", "protect", "owner", "en", "zh", "db", "A", "B",
    "request", "cancel_epoch", "deliver", "sending_gateway",
    // unknown, misspelt, odd
    "tll", "stepz", "Id", "x", "", " ", "键", "@design.token", "@a.b.c", "@clocks.A",
];

#[rustfmt::skip]
const STRINGS: &[&str] = &[
    "A", "B", "A2", "C", "工人", "r", "r1", "任务2", "r3", "mail", "report", "账本", "db", "", " ",
    "\u{1}", "tab\there", "a\"b", "🦀", "\u{200b}", "claim", "renew", "write", "finish", "fail",
    "cancel", "register", "check", "crash", "pause", "resume", "begin", "select",
    "select_for_update", "select_skip_locked", "select_nowait", "update_claim", "claim_next",
    "commit", "rollback", "Claim", "clam", "ttl-lock-only", "client-check", "idempotency-only",
    "fenced-highest-seen", "fenced-registered", "db-conditional", "full", "fenced", "none",
    "idempotency_key", "highest_token", "registered_token", "gateway", "versioned", "owner",
    "fence", "lease", "state", "monotonic", "random", "worker",
    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长长",
];

const EXTREME_INTS: &[i128] = &[
    -1,
    0,
    1,
    -1_000_000_000,
    1_000_000_000,
    1_000_000_001,
    -1_000_000_001,
    65_536,
    i64::MAX as i128,
    i64::MIN as i128,
    i64::MAX as i128 + 1,
    u64::MAX as i128,
    99_999_999_999_999_999_999_999,
];

#[rustfmt::skip]
const RAW: &[&str] = &[
    "1.5", "-0.0", "inf", "-inf", "nan", "1e999", "1979-05-27", "1979-05-27T07:32:00Z",
    "07:32:00", "0xff", "0x7FFFFFFFFFFFFFFF", "0o17", "0b101", "1_000", "+5", "-0", "'literal'",
    "\"\"\"multi\nline\"\"\"", "'''raw\nlines'''", "\"unterminated", "[1, \"mixed\"]",
    "{ a = { b = { c = 1 } } }", "{}", "[]", "[[]]", "= =", "\"\\q\"", "truee", "0x", "1__0",
    "\"\\uD800\"", "{ a = 1, a = 2 }",
];

fn key() -> BoxedStrategy<String> {
    select(KEYS).prop_map(str::to_owned).boxed()
}

fn wild_value() -> BoxedStrategy<Tv> {
    let leaf = prop_oneof![
        select(EXTREME_INTS).prop_map(Tv::Int),
        any::<i64>().prop_map(|n| Tv::Int(n.into())),
        (-5i128..=12).prop_map(Tv::Int),
        any::<bool>().prop_map(Tv::Bool),
        select(STRINGS).prop_map(s),
        select(RAW).prop_map(|raw| Tv::Raw(raw.to_owned())),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Tv::Arr),
            prop::collection::vec((key(), inner), 0..4).prop_map(Tv::Tab),
        ]
    })
    .boxed()
}

#[derive(Debug, Clone)]
enum Edit {
    Replace(Tv),
    Delete,
    Insert(String, Tv),
    Duplicate,
}

/// An edit at the end of a path of indices into the tree (each reduced
/// modulo the length of the container it indexes).
#[derive(Debug, Clone)]
struct Mutation {
    path: Vec<u32>,
    edit: Edit,
}

fn mutation() -> BoxedStrategy<Mutation> {
    let edit = prop_oneof![
        4 => wild_value().prop_map(Edit::Replace),
        2 => Just(Edit::Delete),
        2 => (key(), wild_value()).prop_map(|(k, v)| Edit::Insert(k, v)),
        2 => Just(Edit::Duplicate),
    ];
    (prop::collection::vec(any::<u32>(), 1..=4), edit)
        .prop_map(|(path, edit)| Mutation { path, edit })
        .boxed()
}

fn edit_table(entries: &mut Vec<(String, Tv)>, path: &[u32], edit: &Edit) {
    if entries.is_empty() {
        match edit {
            Edit::Insert(key, value) => entries.push((key.clone(), value.clone())),
            Edit::Replace(value) => entries.push(("x".to_owned(), value.clone())),
            Edit::Delete | Edit::Duplicate => {}
        }
        return;
    }
    let index = path.first().map_or(0, |p| *p as usize % entries.len());
    if path.len() > 1 {
        match &mut entries[index].1 {
            Tv::Tab(inner) => return edit_table(inner, &path[1..], edit),
            Tv::Arr(items) => return edit_array(items, &path[1..], edit),
            _ => {}
        }
    }
    match edit {
        Edit::Replace(value) => entries[index].1 = value.clone(),
        Edit::Delete => {
            entries.remove(index);
        }
        Edit::Insert(key, value) => entries.insert(index, (key.clone(), value.clone())),
        Edit::Duplicate => {
            let copy = entries[index].clone();
            entries.insert(index, copy);
        }
    }
}

fn edit_array(items: &mut Vec<Tv>, path: &[u32], edit: &Edit) {
    if items.is_empty() {
        if let Edit::Insert(_, value) | Edit::Replace(value) = edit {
            items.push(value.clone());
        }
        return;
    }
    let index = path.first().map_or(0, |p| *p as usize % items.len());
    if path.len() > 1 {
        match &mut items[index] {
            Tv::Tab(inner) => return edit_table(inner, &path[1..], edit),
            Tv::Arr(inner) => return edit_array(inner, &path[1..], edit),
            _ => {}
        }
    }
    match edit {
        Edit::Replace(value) => items[index] = value.clone(),
        Edit::Delete => {
            items.remove(index);
        }
        Edit::Insert(_, value) => items.insert(index, value.clone()),
        Edit::Duplicate => {
            let copy = items[index].clone();
            items.insert(index, copy);
        }
    }
}

#[test]
fn toml_shaped_input_never_panics_and_diagnostics_point_into_the_text() {
    let parsed = Cell::new(0u32);
    let refused = Cell::new(0u32);
    let mutations = prop_oneof![
        1 => Just(Vec::new()),
        3 => prop::collection::vec(mutation(), 1..=3),
    ];
    let strategy = (
        spec(ALL_ACTIONS, any_design(), any_protect(), 12),
        any::<bool>(),
        mutations,
    );
    check_all(700, 2, strategy, |(spec, sections, mutations)| {
        let mut tree = spec.tree();
        for mutation in &mutations {
            edit_table(&mut tree, &mutation.path, &mutation.edit);
        }
        let text = render(&tree, sections);
        match parse_scenario(text.as_bytes()) {
            Ok(scenario) => {
                parsed.set(parsed.get() + 1);
                run_and_check(&scenario, &text)?;
            }
            Err(diagnostics) => {
                refused.set(refused.get() + 1);
                ensure!(
                    text,
                    !mutations.is_empty(),
                    "an unmutated generated scenario does not parse: {diagnostics:?}"
                );
                ensure!(
                    text,
                    !diagnostics.is_empty() && diagnostics.len() <= 20,
                    "{} diagnostics",
                    diagnostics.len()
                );
                for d in &diagnostics {
                    ensure!(text, !d.message.is_empty(), "empty message at {d:?}");
                    ensure!(
                        text,
                        !d.zh.is_empty() && d.zh != d.message,
                        "no Chinese message at {d:?}"
                    );
                    ensure!(
                        text,
                        inside(&text, d.line, d.col),
                        "outside the text: {d:?}"
                    );
                }
            }
        }
        Ok(())
    });
    // Both branches must be exercised for the property to mean anything.
    assert!(parsed.get() >= 150, "only {} inputs parsed", parsed.get());
    assert!(
        refused.get() >= 150,
        "only {} inputs were refused",
        refused.get()
    );
}

// ---------------------------------------------------------------------------
// 3. Structured valid scenarios.

/// (a) determinism, (c) should_reject ⊇ violations, (d) generations and
/// tokens, (f) crashed workers, over every action and every design.
#[test]
fn structured_scenarios_are_deterministic_and_consistent() {
    let granted = Cell::new(0u32);
    let violated = Cell::new(0u32);
    let waited = Cell::new(0u32);
    let refused_nowait = Cell::new(0u32);
    // 1000 cases: a NOWAIT that fails rolls its transaction back, which
    // leaves fewer lock waits to end than 600 cases reach.
    check_all(
        1000,
        3,
        spec(ALL_ACTIONS, any_design(), any_protect(), 24),
        |spec| {
            let text = spec.toml();
            let scenario = parse_valid(&text)?;
            let trace = run_and_check(&scenario, &text)?;
            if trace.generations.iter().any(|g| *g >= 2) {
                granted.set(granted.get() + 1);
            }
            if !trace.violations.is_empty() {
                violated.set(violated.get() + 1);
            }
            if trace.steps.iter().any(|s| s.waited_until.is_some()) {
                waited.set(waited.get() + 1);
            }
            if trace
                .steps
                .iter()
                .any(|s| s.reason == Some(Reason::LockNotAvailable))
            {
                refused_nowait.set(refused_nowait.get() + 1);
            }
            Ok(())
        },
    );
    assert!(
        granted.get() >= 100,
        "{} runs with a takeover",
        granted.get()
    );
    assert!(
        violated.get() >= 50,
        "{} runs with a violation",
        violated.get()
    );
    assert!(
        waited.get() >= 10,
        "{} runs where a lock wait ended",
        waited.get()
    );
    assert!(
        refused_nowait.get() >= 10,
        "{} runs where a NOWAIT found the row locked",
        refused_nowait.get()
    );
}

/// (b) The issue's oracle property: with atomic job-table statements only,
/// `db-conditional` and `full` never let a stale or post-terminal effect
/// through.
#[test]
fn atomic_job_table_is_never_violated_under_db_conditional_and_full() {
    let design = prop_oneof![
        Just(DesignSpec::Preset(Preset::DbConditional)),
        Just(DesignSpec::Table(Preset::DbConditional.design())),
        full_design(),
    ];
    let judged = Cell::new(0u32);
    check_all(
        450,
        4,
        spec(ATOMIC_ACTIONS, design.boxed(), any_protect(), 24),
        |spec| {
            let text = spec.toml();
            let scenario = parse_valid(&text)?;
            let trace = run_and_check(&scenario, &text)?;
            ensure!(
                text,
                trace.violations.is_empty(),
                "violations {:?}",
                trace.violations
            );
            if !trace.should_reject.is_empty() {
                judged.set(judged.get() + 1);
            }
            Ok(())
        },
    );
    // The property is vacuous unless stale attempts happen and are refused.
    assert!(
        judged.get() >= 100,
        "{} runs with a stale attempt",
        judged.get()
    );
}

/// (b) With `full`, writes to targets that take the default protection
/// (`gateway`), name `gateway`, or are `registered_token`: no stale effect
/// ever. The one effect that does get through is a `registered_token` write
/// by the current holder after the user cancelled the job: that target
/// compares tokens only and cannot know about the cancel (MODEL.md §3), and
/// the oracle calls it `after_terminal` (§5). Without a cancel there is no
/// violation at all.
#[test]
fn full_with_gateway_and_registered_targets_has_no_stale_effect() {
    let protect = prop_oneof![
        Just(None),
        Just(Some(Protect::Gateway)),
        Just(Some(Protect::RegisteredToken)),
    ];
    let writes_after_cancel = Cell::new(0u32);
    let refused_writes = Cell::new(0u32);
    check_all(
        450,
        5,
        spec(ATOMIC_AND_WRITES, full_design(), protect.boxed(), 24),
        |spec| {
            let text = spec.toml();
            let scenario = parse_valid(&text)?;
            let trace = run_and_check(&scenario, &text)?;
            for violation in &trace.violations {
                let i = violation.step as usize;
                // A delivery is judged at the target its request was sent to.
                let step = scenario.sender_of(i).unwrap_or(&scenario.steps[i]);
                let registered = step
                    .target
                    .and_then(|t| scenario.targets.get(usize::from(t)))
                    .is_some_and(|t| t.protect == Protect::RegisteredToken);
                let cancelled_before =
                    scenario.steps[..i]
                        .iter()
                        .zip(&trace.steps)
                        .any(|(earlier, record)| {
                            earlier.action == Action::Cancel
                                && record.outcome == Outcome::Ok
                                && record.job == trace.steps[i].job
                        });
                ensure!(
                    text,
                    violation.kind == ViolationKind::AfterTerminal
                        && step.action == Action::Write
                        && registered
                        && cancelled_before,
                    "violation {violation:?} at a `{}`",
                    step.action.name()
                );
                writes_after_cancel.set(writes_after_cancel.get() + 1);
            }
            let refused =
                scenario
                    .steps
                    .iter()
                    .zip(&trace.steps)
                    .enumerate()
                    .any(|(i, (step, record))| {
                        step.action == Action::Write
                            && record.outcome == Outcome::Rejected
                            && trace.should_reject.contains(&(i as u32))
                    });
            if refused {
                refused_writes.set(refused_writes.get() + 1);
            }
            Ok(())
        },
    );
    assert!(
        refused_writes.get() >= 50,
        "{} runs refused a stale write",
        refused_writes.get()
    );
    assert!(
        writes_after_cancel.get() >= 1,
        "the cancel-then-registered-write case never came up"
    );
}

/// (e) `token = "random"`: one seed, one token sequence; another seed,
/// another sequence; the job table decides the same either way.
#[test]
fn random_tokens_follow_the_seed() {
    let strategy = (
        spec(SIDE_ACTIONS, any_design(), any_protect(), 12),
        prop::collection::vec((any::<u8>(), any::<u8>()), 2..=6),
        0u8..7,
        0u64..=i64::MAX as u64,
    );
    check_all(250, 6, strategy, |(mut spec, claims, base, other_seed)| {
        // Claims one ttl apart, each on a named job, with side steps at the
        // same tick: every claim is granted (the previous lease has just
        // ended), whatever the side steps do.
        let extras = std::mem::take(&mut spec.steps);
        let mut extras = extras.into_iter();
        for (k, (worker, job)) in claims.iter().enumerate() {
            spec.steps.push(RawStep {
                delta: if k == 0 { 0 } else { spec.ttl },
                worker: *worker,
                action: Action::Claim,
                job: Some(*job),
                target: 0,
                op: None,
                value: None,
                by_user: false,
                note: false,
            });
            for extra in extras.by_ref().take(2) {
                spec.steps.push(RawStep { delta: 0, ..extra });
            }
        }
        spec.design = DesignSpec::Table(Design {
            token: TokenKind::Random,
            lease_clock: LeaseClock::Db,
            ..Preset::ALL[usize::from(base)].design()
        });
        spec.db_offset = spec.db_offset.abs();
        let text = spec.toml();
        let scenario = parse_valid(&text)?;
        let first = run_and_check(&scenario, &text)?;

        let mut reseeded_spec = spec.clone();
        reseeded_spec.seed = if other_seed == spec.seed {
            other_seed ^ 1
        } else {
            other_seed
        };
        let reseeded_text = reseeded_spec.toml();
        let reseeded = parse_valid(&reseeded_text)?;
        let second = run_and_check(&reseeded, &reseeded_text)?;

        let tokens = |trace: &Trace| -> Vec<Option<u64>> {
            scenario
                .steps
                .iter()
                .zip(&trace.steps)
                .filter(|(step, record)| {
                    step.action == Action::Claim && record.outcome == Outcome::Ok
                })
                .map(|(_, record)| record.token)
                .collect()
        };
        let (ours, theirs) = (tokens(&first), tokens(&second));
        ensure!(
            text,
            ours.len() == claims.len(),
            "{} of {} spaced claims granted",
            ours.len(),
            claims.len()
        );
        ensure!(
            text,
            ours == tokens(&run(&scenario)),
            "same seed, other tokens"
        );
        ensure!(
            text,
            ours != theirs,
            "seeds {} and {} drew the same tokens {ours:?}",
            spec.seed,
            reseeded_spec.seed
        );
        for (i, step) in scenario.steps.iter().enumerate() {
            let job_table = matches!(
                step.action,
                Action::Claim
                    | Action::Renew
                    | Action::Finish
                    | Action::Fail
                    | Action::Cancel
                    | Action::Check
            );
            if job_table {
                ensure!(
                    text,
                    first.steps[i].outcome == second.steps[i].outcome
                        && first.steps[i].generation == second.steps[i].generation,
                    "step {i} decided differently under another seed"
                );
            }
        }
        Ok(())
    });
}

// ---------------------------------------------------------------------------
// Concrete cases found while writing the properties.

/// The reason (b) above is not "no violation at all": a `registered_token`
/// target accepts the registered holder's write after a cancel.
#[test]
fn registered_token_write_after_cancel_is_after_terminal() {
    let text = r#"
        id = "cancel-then-registered-write"
        ttl = 5
        workers = ["A"]
        steps = [
          { at = 0, worker = "A", do = "claim" },
          { at = 1, do = "cancel" },
          { at = 2, worker = "A", do = "write", target = "t" },
        ]

        [[targets]]
        id = "t"
        protect = "registered_token"
    "#;
    let scenario = parse_scenario(text.as_bytes()).expect("parses");
    let trace = run(&scenario);
    assert_eq!(trace.steps[2].outcome, Outcome::Ok);
    assert_eq!(trace.violations.len(), 1);
    assert_eq!(trace.violations[0].step, 2);
    assert_eq!(trace.violations[0].kind, ViolationKind::AfterTerminal);
}

/// A job nobody ever claimed is claimable at once: its `lease_until` is NULL,
/// so even a deciding clock that reads below 0 (a negative `db` offset, or a
/// slow worker under `lease_clock = "worker"`) finds no lease in the way.
#[test]
fn fresh_job_is_claimable_whatever_the_clock_offset() {
    for (clocks, design) in [
        ("db = -2", ""),
        ("A = -3", "design = { lease_clock = \"worker\" }"),
    ] {
        let text = format!(
            "id = \"fresh\"\nttl = 5\nworkers = [\"A\"]\n{design}\n\
             steps = [{{ at = 0, worker = \"A\", do = \"claim\" }}]\n[clocks]\n{clocks}\n"
        );
        let scenario = parse_scenario(text.as_bytes()).expect("parses");
        let trace = run(&scenario);
        assert_eq!(
            (trace.steps[0].outcome, trace.steps[0].reason),
            (Outcome::Ok, None),
            "{text}"
        );
    }
}

/// A JSON value shaped like an answer, sometimes: the keys and words answers
/// use, mixed with plain garbage, nested a few levels.
fn answer_values() -> BoxedStrategy<serde_json::Value> {
    use serde_json::Value;
    const WORDS: [&str; 24] = [
        "ok",
        "rejected",
        "duplicate",
        "noop",
        "waiting",
        "owner",
        "fence",
        "state",
        "lease",
        "monotonic",
        "random",
        "none",
        "db",
        "worker",
        "gateway",
        "registered_token",
        "highest_token",
        "claim",
        "write",
        "finish",
        "A",
        "B",
        "t1",
        "",
    ];
    const KEYS: [&str; 14] = [
        "at",
        "worker",
        "do",
        "target",
        "job",
        "op",
        "value",
        "note",
        "commit_checks",
        "renew_checks",
        "token",
        "lease_clock",
        "target_protect",
        "zz",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (0u32..40).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        select(WORDS.as_slice()).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((select(KEYS.as_slice()), inner), 0..6).prop_map(|pairs| {
                Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
    .boxed()
}

#[test]
fn arbitrary_answers_never_panic_for_any_exercise_of_the_course() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .map(|path| {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, std::fs::read_to_string(&path).unwrap())
        })
        .collect();
    sources.sort();
    let pairs: Vec<(&str, &str)> = sources
        .iter()
        .map(|(stem, text)| (stem.as_str(), text.as_str()))
        .collect();
    let session = Cell::new(Some(
        sim_core::course::CourseSession::from_sources(&pairs).unwrap(),
    ));
    let exercises: Vec<(String, String)> = session
        .take()
        .map(|s| {
            let list = s
                .lessons()
                .iter()
                .flat_map(|l| l.exercises.iter().map(|e| (l.id.clone(), e.id.clone())))
                .collect();
            session.set(Some(s));
            list
        })
        .unwrap();
    let graded = Cell::new(0u32);
    check_all(600, 77, (any::<u32>(), answer_values()), |(pick, value)| {
        let (lesson, exercise) = &exercises[pick as usize % exercises.len()];
        let mut current = session.take().unwrap();
        // Grading a parsed answer must also end without a panic; a
        // refusal is an error value with words in both languages.
        // An empty answer the session refuses uncounted still goes to the
        // grader itself, which must take it too.
        let outcome = current
            .answer_from_json(lesson, exercise, &value)
            .and_then(|answer| match current.grade(lesson, exercise, &answer) {
                Err(sim_core::course::CourseError::Answer(
                    sim_core::course::AnswerError::Empty(_),
                )) => {
                    let (found, exercise) = current.exercise(lesson, exercise)?;
                    sim_core::course::grade(found, exercise, &answer).map(|_| ())
                }
                other => other.map(|_| ()),
            });
        match &outcome {
            Ok(_) => graded.set(graded.get() + 1),
            Err(error) => {
                prop_assert!(!error.message(sim_core::Lang::En).is_empty());
                prop_assert!(!error.message(sim_core::Lang::Zh).is_empty());
            }
        }
        session.set(Some(current));
        Ok(())
    });
    // The generator must reach the graders, not only the shape checks.
    assert!(
        graded.get() >= 20,
        "only {} answers were graded",
        graded.get()
    );
}
