//! Differential test: sim-core's job table against a real SQLite database.
//!
//! Random scenarios of `claim`, `renew`, `finish`, `fail` and `cancel` steps
//! under random designs (token kind, predicate subsets, lease clock, clock
//! offsets, a restarted incarnation sharing an owner identity, one to three
//! jobs, steps with and without `job`) are written as TOML text, parsed and
//! run by sim-core through its public API only, and replayed as the
//! conditional `UPDATE` statements of MODEL.md §2 on an in-memory SQLite
//! database. Every step must agree on the outcome, the claim's reason, the
//! token (a granted claim's new token, the token a renew/finish/fail carried),
//! the generation of a granted claim, the rows affected, the lease end
//! written, the resolved job and `failed_checks` of a renew, finish or fail;
//! the final job table (`jobs` in the JSON) must equal the SQLite table.
//!
//! The property test is deterministic: fixed case count, fixed ChaCha seed,
//! no failure-persistence files. A failure is shrunk by proptest, then
//! simplified greedily, and shown as the scenario TOML (paste it into a file
//! and `fencelab run` it) with the first step where the two disagree.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, params, params_from_iter};
use serde_json::Value;

/// Number of generated scenarios the property test must pass.
const CASES: u32 = 256;

/// Fixed seed: the same 256 scenarios on every run and every machine.
const SEED: [u8; 32] = *b"fencelab differential sqlite v1!";

// ---------------------------------------------------------------------------
// The generated scenario
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Act {
    Claim,
    Renew,
    Finish,
    Fail,
    Cancel,
}

impl Act {
    fn name(self) -> &'static str {
        match self {
            Act::Claim => "claim",
            Act::Renew => "renew",
            Act::Finish => "finish",
            Act::Fail => "fail",
            Act::Cancel => "cancel",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokenKind {
    Monotonic,
    None,
    Random,
}

impl TokenKind {
    fn name(self) -> &'static str {
        match self {
            TokenKind::Monotonic => "monotonic",
            TokenKind::None => "none",
            TokenKind::Random => "random",
        }
    }
}

/// The four predicates in their canonical order (the order of `failed_checks`).
const CHECKS: [&str; 4] = ["owner", "fence", "lease", "state"];

#[derive(Clone, Debug)]
struct Worker {
    id: &'static str,
    owner: &'static str,
}

#[derive(Clone, Debug)]
struct Step {
    at: i64,
    act: Act,
    /// Index into `Spec::workers`; `None` for the user's cancel.
    worker: Option<usize>,
    /// Index into `Spec::job_ids()`; `None` leaves `job` out of the TOML.
    job: Option<usize>,
}

#[derive(Clone)]
struct Spec {
    ttl: i64,
    workers: Vec<Worker>,
    /// `None`: no `jobs` key, the default single job `r`.
    jobs: Option<usize>,
    token: TokenKind,
    commit_checks: [bool; 4],
    renew_checks: [bool; 4],
    /// List the checks in reverse order in the TOML (the set is what counts).
    reverse_listing: bool,
    lease_clock_db: bool,
    /// Offsets per worker (same order as `workers`), then `db` last; `None`
    /// leaves out the `[clocks]` table.
    clocks: Option<Vec<i64>>,
    steps: Vec<Step>,
}

impl Spec {
    fn job_ids(&self) -> Vec<String> {
        match self.jobs {
            None => vec!["r".to_owned()],
            Some(n) => (1..=n).map(|k| format!("r{k}")).collect(),
        }
    }

    fn worker_offset(&self, w: usize) -> i64 {
        self.clocks.as_ref().map_or(0, |c| c[w])
    }

    fn db_offset(&self) -> i64 {
        self.clocks.as_ref().map_or(0, |c| c[self.workers.len()])
    }

    fn checks_toml(&self, set: [bool; 4]) -> String {
        let mut names: Vec<String> = CHECKS
            .iter()
            .zip(set)
            .filter(|(_, on)| *on)
            .map(|(n, _)| format!("\"{n}\""))
            .collect();
        if self.reverse_listing {
            names.reverse();
        }
        format!("[{}]", names.join(", "))
    }

    fn step_toml(&self, s: &Step) -> String {
        let mut out = format!("{{ at = {}", s.at);
        if let Some(w) = s.worker {
            let _ = write!(out, ", worker = \"{}\"", self.workers[w].id);
        }
        let _ = write!(out, ", do = \"{}\"", s.act.name());
        if let Some(j) = s.job {
            let _ = write!(out, ", job = \"{}\"", self.job_ids()[j]);
        }
        out.push_str(" }");
        out
    }

    fn to_toml(&self) -> String {
        let mut out = String::new();
        out.push_str("id = \"diff\"\n");
        let _ = writeln!(out, "ttl = {}", self.ttl);
        let workers: Vec<String> = self
            .workers
            .iter()
            .map(|w| {
                if w.id == w.owner {
                    format!("\"{}\"", w.id)
                } else {
                    format!("{{ id = \"{}\", owner = \"{}\" }}", w.id, w.owner)
                }
            })
            .collect();
        let _ = writeln!(out, "workers = [{}]", workers.join(", "));
        if self.jobs.is_some() {
            let jobs: Vec<String> = self.job_ids().iter().map(|j| format!("\"{j}\"")).collect();
            let _ = writeln!(out, "jobs = [{}]", jobs.join(", "));
        }
        out.push_str("steps = [\n");
        for s in &self.steps {
            let _ = writeln!(out, "  {},", self.step_toml(s));
        }
        out.push_str("]\n\n[design]\n");
        let _ = writeln!(out, "token = \"{}\"", self.token.name());
        let _ = writeln!(
            out,
            "commit_checks = {}",
            self.checks_toml(self.commit_checks)
        );
        let _ = writeln!(
            out,
            "renew_checks = {}",
            self.checks_toml(self.renew_checks)
        );
        let clock = if self.lease_clock_db { "db" } else { "worker" };
        let _ = writeln!(out, "lease_clock = \"{clock}\"");
        if let Some(offsets) = &self.clocks {
            out.push_str("\n[clocks]\n");
            for (w, worker) in self.workers.iter().enumerate() {
                let _ = writeln!(out, "{} = {}", worker.id, offsets[w]);
            }
            let _ = writeln!(out, "db = {}", offsets[self.workers.len()]);
        }
        out
    }
}

/// A failing case prints as the scenario file it is.
impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{}", self.to_toml())
    }
}

fn act_strategy() -> impl Strategy<Value = Act> {
    prop_oneof![
        4 => Just(Act::Claim),
        3 => Just(Act::Renew),
        3 => Just(Act::Finish),
        1 => Just(Act::Fail),
        1 => Just(Act::Cancel),
    ]
}

fn token_strategy() -> impl Strategy<Value = TokenKind> {
    prop_oneof![
        5 => Just(TokenKind::Monotonic),
        2 => Just(TokenKind::None),
        2 => Just(TokenKind::Random),
    ]
}

/// Everything is generated independently and tied together with `%`, so that
/// every shrink of any part is still a valid scenario.
fn spec_strategy() -> impl Strategy<Value = Spec> {
    let step = (
        0i64..=3,
        act_strategy(),
        0usize..4,
        0usize..3,
        proptest::bool::weighted(0.1),
    );
    (
        1i64..=6,
        2usize..=3,
        proptest::bool::weighted(0.3),
        proptest::option::weighted(0.7, 1usize..=3),
        token_strategy(),
        any::<[bool; 4]>(),
        any::<[bool; 4]>(),
        any::<bool>(),
        proptest::bool::weighted(0.7),
        proptest::option::weighted(0.4, proptest::array::uniform5(-3i64..=3)),
        proptest::collection::vec(step, 1..=14),
        proptest::bool::weighted(0.8),
    )
        .prop_map(
            |(
                ttl,
                plain,
                restarted,
                jobs,
                token,
                commit_checks,
                renew_checks,
                reverse_listing,
                lease_clock_db,
                clocks,
                raw_steps,
                no_negative_time,
            )| {
                let mut workers: Vec<Worker> = ["A", "B", "C"][..plain]
                    .iter()
                    .map(|&id| Worker { id, owner: id })
                    .collect();
                if restarted {
                    workers.push(Worker {
                        id: "A2",
                        owner: "A",
                    });
                }
                let n_workers = workers.len();
                let n_jobs = jobs.unwrap_or(1);
                // Offsets for the workers present, then db.
                let clocks = clocks.map(|c| {
                    let mut v: Vec<i64> = c[..n_workers].to_vec();
                    v.push(c[4]);
                    v
                });
                // Mostly keep every local time non-negative (true ticks start
                // at 0); sometimes let a clock behind read below 0: a fresh
                // row's lease_until is NULL, so it is claimable even then.
                let shift = match &clocks {
                    Some(c) if no_negative_time => {
                        c.iter().copied().min().unwrap_or(0).min(0).abs()
                    }
                    _ => 0,
                };
                let mut at = shift;
                let steps = raw_steps
                    .into_iter()
                    .map(|(delta, act, w, j, omit_job)| {
                        at += delta;
                        Step {
                            at,
                            act,
                            worker: (act != Act::Cancel).then_some(w % n_workers),
                            job: (!omit_job).then_some(j % n_jobs),
                        }
                    })
                    .collect();
                Spec {
                    ttl,
                    workers,
                    jobs,
                    token,
                    commit_checks,
                    renew_checks,
                    reverse_listing,
                    lease_clock_db,
                    clocks,
                    steps,
                }
            },
        )
}

// ---------------------------------------------------------------------------
// sim-core, as a black box
// ---------------------------------------------------------------------------

fn run_sim(toml: &str) -> Result<Value, String> {
    let scenario = sim_core::parse_scenario(toml.as_bytes())
        .map_err(|diags| format!("sim-core refused the scenario: {diags:?}"))?;
    let trace = sim_core::run(&scenario);
    Ok(trace.to_json(&scenario))
}

// ---------------------------------------------------------------------------
// The same scenario as SQL on SQLite
// ---------------------------------------------------------------------------

/// What SQLite says a step must report.
#[derive(Debug)]
struct Expected {
    job: String,
    outcome: &'static str,
    /// Only for refused claims.
    reason: Option<&'static str>,
    token: TokenExpect,
    rows: u64,
    /// For renew, finish and fail: the false predicates (empty when applied).
    failed_checks: Option<Vec<&'static str>>,
    /// For a granted claim: how many claims of this job were granted so far.
    generation: Option<u64>,
    /// The lease end a granted claim or applied renew wrote; null otherwise.
    lease_until: Option<i64>,
}

#[derive(Debug)]
enum TokenExpect {
    /// Not compared (a refused claim, a cancel).
    Skip,
    /// A granted claim under `token = "none"`, or a renew/finish/fail by a
    /// worker that carries no token for the job.
    Null,
    /// A granted claim under `token = "monotonic"`: the new fence; a
    /// renew/finish/fail: the token the worker carries for the job.
    Exactly(u64),
    /// A granted claim under `token = "random"`: sim-core's own value, used
    /// as the fence in SQL; it must be present.
    Present,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    owner: String,
    lease_until: Option<i64>,
    fence: i64,
    state: String,
    generations: i64,
}

struct SqlModel<'a> {
    spec: &'a Spec,
    jobs: Vec<String>,
    conn: Connection,
    /// Token each worker carries per job (absent: NULL).
    carried: BTreeMap<(usize, usize), i64>,
    /// The job each worker most recently claimed successfully.
    last_claimed: Vec<Option<usize>>,
}

fn checks_where(set: [bool; 4]) -> String {
    let preds = [
        " AND owner = ?",
        " AND fence = ?",
        " AND lease_until > ?",
        " AND state = 'running'",
    ];
    preds
        .iter()
        .zip(set)
        .filter(|(_, on)| *on)
        .map(|(p, _)| *p)
        .collect()
}

impl<'a> SqlModel<'a> {
    fn new(spec: &'a Spec) -> Self {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE jobs (id TEXT PRIMARY KEY, owner TEXT NOT NULL, \
             lease_until INTEGER, fence INTEGER NOT NULL, state TEXT NOT NULL, \
             generations INTEGER NOT NULL DEFAULT 0);",
        )
        .unwrap();
        let jobs = spec.job_ids();
        for j in &jobs {
            conn.execute(
                "INSERT INTO jobs (id, owner, lease_until, fence, state) VALUES (?1, '', NULL, 0, 'ready')",
                params![j],
            )
            .unwrap();
        }
        SqlModel {
            spec,
            jobs,
            conn,
            carried: BTreeMap::new(),
            last_claimed: vec![None; spec.workers.len()],
        }
    }

    fn row(&self, job: usize) -> Row {
        self.conn
            .query_row(
                "SELECT owner, lease_until, fence, state, generations FROM jobs WHERE id = ?1",
                params![self.jobs[job]],
                |r| {
                    Ok(Row {
                        owner: r.get(0)?,
                        lease_until: r.get(1)?,
                        fence: r.get(2)?,
                        state: r.get(3)?,
                        generations: r.get(4)?,
                    })
                },
            )
            .unwrap()
    }

    fn now(&self, step: &Step) -> i64 {
        match step.worker {
            Some(w) if !self.spec.lease_clock_db => step.at + self.spec.worker_offset(w),
            _ => step.at + self.spec.db_offset(),
        }
    }

    fn resolve_job(&self, step: &Step) -> usize {
        step.job
            .or_else(|| step.worker.and_then(|w| self.last_claimed[w]))
            .unwrap_or(0)
    }

    fn token_param(&self, w: usize, job: usize) -> SqlValue {
        self.carried
            .get(&(w, job))
            .map_or(SqlValue::Null, |&t| SqlValue::Integer(t))
    }

    /// Which of the four predicates are false right now (SQL semantics:
    /// NULL counts as false), restricted to `set`, in canonical order.
    fn failed_checks(&self, set: [bool; 4], w: usize, job: usize, now: i64) -> Vec<&'static str> {
        let truth: [Option<bool>; 4] = self
            .conn
            .query_row(
                "SELECT owner = ?1, fence = ?2, lease_until > ?3, state = 'running' \
                 FROM jobs WHERE id = ?4",
                params![
                    self.spec.workers[w].owner,
                    self.token_param(w, job),
                    now,
                    self.jobs[job]
                ],
                |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?]),
            )
            .unwrap();
        CHECKS
            .iter()
            .zip(set)
            .zip(truth)
            .filter(|((_, on), holds)| *on && *holds != Some(true))
            .map(|((name, _), _)| *name)
            .collect()
    }

    /// The conditional update for a renew/finish/fail with predicate set `set`.
    fn guarded_update(
        &self,
        set_clause: &str,
        set_params: Vec<SqlValue>,
        checks: [bool; 4],
        w: usize,
        job: usize,
        now: i64,
    ) -> usize {
        let sql = format!(
            "UPDATE jobs SET {set_clause} WHERE id = ?{}",
            checks_where(checks)
        );
        let mut ps = set_params;
        ps.push(SqlValue::Text(self.jobs[job].clone()));
        if checks[0] {
            ps.push(SqlValue::Text(self.spec.workers[w].owner.to_owned()));
        }
        if checks[1] {
            ps.push(self.token_param(w, job));
        }
        if checks[2] {
            ps.push(SqlValue::Integer(now));
        }
        self.conn.execute(&sql, params_from_iter(ps)).unwrap()
    }

    /// Run one step; `sim_token` is sim-core's token for this step (used as
    /// the new fence of a granted claim under `token = "random"`).
    fn step(&mut self, step: &Step, sim_token: Option<u64>) -> Result<Expected, String> {
        let job = self.resolve_job(step);
        let job_id = self.jobs[job].clone();
        let now = self.now(step);
        let spec = self.spec;
        let mut exp = Expected {
            job: job_id.clone(),
            outcome: "ok",
            reason: None,
            token: TokenExpect::Skip,
            rows: 0,
            failed_checks: None,
            generation: None,
            lease_until: None,
        };
        match step.act {
            Act::Cancel => {
                let rows = self
                    .conn
                    .execute(
                        "UPDATE jobs SET state = 'cancelled' WHERE id = ?1 AND state IN ('ready', 'running')",
                        params![job_id],
                    )
                    .unwrap();
                exp.rows = rows as u64;
                exp.outcome = if rows == 1 { "ok" } else { "noop" };
            }
            Act::Claim => {
                let w = step.worker.expect("claim has a worker");
                // Under token = "random", sim-core's seeded token becomes the
                // fence. Without one (sim-core granted nothing) fall back to
                // fence + 1: the outcome comparison then reports the step.
                return match (spec.token, sim_token) {
                    (TokenKind::Random, Some(t)) => {
                        self.claim_with(exp, w, job, now, "?", vec![SqlValue::Integer(t as i64)])
                    }
                    _ => self.claim_with(exp, w, job, now, "fence + 1", vec![]),
                };
            }
            Act::Renew | Act::Finish | Act::Fail => {
                let w = step.worker.expect("worker step has a worker");
                let (set_clause, set_params, checks) = match step.act {
                    Act::Renew => (
                        "lease_until = ?",
                        vec![SqlValue::Integer(now + spec.ttl)],
                        spec.renew_checks,
                    ),
                    Act::Finish => ("state = 'done'", vec![], spec.commit_checks),
                    _ => ("state = 'failed'", vec![], spec.commit_checks),
                };
                let failed = self.failed_checks(checks, w, job, now);
                exp.token = match self.carried.get(&(w, job)) {
                    Some(&t) => TokenExpect::Exactly(t as u64),
                    None => TokenExpect::Null,
                };
                let rows = self.guarded_update(set_clause, set_params, checks, w, job, now);
                exp.rows = rows as u64;
                if rows == 1 && step.act == Act::Renew {
                    exp.lease_until = Some(now + spec.ttl);
                }
                if rows == 1 {
                    if !failed.is_empty() {
                        return Err(format!(
                            "internal: UPDATE matched although {failed:?} are false"
                        ));
                    }
                } else {
                    exp.outcome = "rejected";
                }
                exp.failed_checks = Some(failed);
            }
        }
        Ok(exp)
    }

    fn claim_with(
        &mut self,
        mut exp: Expected,
        w: usize,
        job: usize,
        now: i64,
        fence_expr: &str,
        fence_params: Vec<SqlValue>,
    ) -> Result<Expected, String> {
        let spec = self.spec;
        let before = self.row(job);
        let sql = format!(
            "UPDATE jobs SET owner = ?, lease_until = ?, fence = {fence_expr}, state = 'running', \
             generations = generations + 1 WHERE id = ? AND (lease_until IS NULL OR lease_until <= ?) AND state IN ('ready', 'running')"
        );
        let mut ps = vec![
            SqlValue::Text(spec.workers[w].owner.to_owned()),
            SqlValue::Integer(now + spec.ttl),
        ];
        ps.extend(fence_params);
        ps.push(SqlValue::Text(self.jobs[job].clone()));
        ps.push(SqlValue::Integer(now));
        let rows = self.conn.execute(&sql, params_from_iter(ps)).unwrap();
        exp.rows = rows as u64;
        if rows == 1 {
            let after = self.row(job);
            let fence = after.fence;
            exp.generation = Some(after.generations as u64);
            exp.lease_until = after.lease_until;
            self.last_claimed[w] = Some(job);
            match spec.token {
                TokenKind::None => {
                    self.carried.remove(&(w, job));
                    exp.token = TokenExpect::Null;
                }
                TokenKind::Monotonic => {
                    self.carried.insert((w, job), fence);
                    exp.token = TokenExpect::Exactly(fence as u64);
                }
                TokenKind::Random => {
                    self.carried.insert((w, job), fence);
                    exp.token = TokenExpect::Present;
                }
            }
        } else {
            exp.outcome = "rejected";
            exp.reason = Some(
                if matches!(before.state.as_str(), "done" | "cancelled" | "failed") {
                    "terminal"
                } else {
                    "lease_held"
                },
            );
        }
        Ok(exp)
    }
}

// ---------------------------------------------------------------------------
// The comparison
// ---------------------------------------------------------------------------

fn json_str(v: &Value) -> Option<&str> {
    v.as_str()
}

/// `failed_checks` as a list of names; absent or null reads as empty.
fn json_checks(v: &Value) -> Result<Vec<String>, String> {
    match v {
        Value::Null => Ok(vec![]),
        Value::Array(items) => items
            .iter()
            .map(|i| {
                i.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("failed_checks entry is not a string: {i}"))
            })
            .collect(),
        other => Err(format!("failed_checks is neither a list nor null: {other}")),
    }
}

/// Differences between sim-core's step and SQLite's, empty when they agree.
fn diff_step(sim: &Value, exp: &Expected) -> Vec<String> {
    let mut diffs = Vec::new();
    let outcome = json_str(&sim["outcome"]);
    if outcome != Some(exp.outcome) {
        diffs.push(format!(
            "outcome: sim-core {:?}, SQLite {:?}",
            outcome, exp.outcome
        ));
    }
    let job = json_str(&sim["job"]);
    if job != Some(exp.job.as_str()) {
        diffs.push(format!("job: sim-core {:?}, SQLite {:?}", job, exp.job));
    }
    let rows = sim["rows"].as_u64();
    if rows != Some(exp.rows) {
        diffs.push(format!(
            "rows: sim-core {}, SQLite {}",
            sim["rows"], exp.rows
        ));
    }
    if let Some(reason) = exp.reason {
        let got = json_str(&sim["reason"]);
        if got != Some(reason) {
            diffs.push(format!("reason: sim-core {:?}, SQLite {:?}", got, reason));
        }
    }
    let token = &sim["token"];
    match exp.token {
        TokenExpect::Skip => {}
        TokenExpect::Null => {
            if !token.is_null() {
                diffs.push(format!(
                    "token: sim-core {token}, SQLite null (token = \"none\")"
                ));
            }
        }
        TokenExpect::Exactly(t) => {
            if token.as_u64() != Some(t) {
                diffs.push(format!("token: sim-core {token}, SQLite {t}"));
            }
        }
        TokenExpect::Present => {
            if token.as_u64().is_none() {
                diffs.push(format!("token: sim-core {token}, expected a random u64"));
            }
        }
    }
    if let Some(g) = exp.generation {
        if sim["generation"].as_u64() != Some(g) {
            diffs.push(format!(
                "generation: sim-core {}, SQLite {g}",
                sim["generation"]
            ));
        }
    }
    if sim["lease_until"].as_i64() != exp.lease_until {
        diffs.push(format!(
            "lease_until written: sim-core {}, SQLite {:?}",
            sim["lease_until"], exp.lease_until
        ));
    }
    if let Some(expected) = &exp.failed_checks {
        match json_checks(&sim["failed_checks"]) {
            Ok(got) => {
                if got.iter().map(String::as_str).ne(expected.iter().copied()) {
                    diffs.push(format!(
                        "failed_checks: sim-core {got:?}, SQLite {expected:?}"
                    ));
                }
            }
            Err(e) => diffs.push(e),
        }
    }
    diffs
}

/// Run `spec` through both and return a readable report of the first
/// disagreeing step, if any. Every compared (action, outcome) is tallied in
/// `seen`.
fn compare(spec: &Spec, seen: &RefCell<BTreeMap<String, u32>>) -> Result<(), String> {
    let toml = spec.to_toml();
    let json = run_sim(&toml).map_err(|e| format!("{e}\n--- scenario ---\n{toml}"))?;
    let steps = json["steps"]
        .as_array()
        .ok_or_else(|| format!("JSON has no steps array\n--- scenario ---\n{toml}"))?;
    if steps.len() != spec.steps.len() {
        return Err(format!(
            "sim-core traced {} steps for {} in the scenario\n--- scenario ---\n{toml}",
            steps.len(),
            spec.steps.len()
        ));
    }
    let mut model = SqlModel::new(spec);
    for (i, (step, sim)) in spec.steps.iter().zip(steps).enumerate() {
        let exp = model.step(step, sim["token"].as_u64())?;
        let diffs = diff_step(sim, &exp);
        if !diffs.is_empty() {
            let job = model.jobs.iter().position(|j| *j == exp.job).unwrap_or(0);
            let row = model.row(job);
            return Err(format!(
                "step {i} disagrees: {}\n  step: {}\n  sim-core: {sim}\n  SQLite: {exp:?}\n  \
                 SQLite row after the step: {row:?}\n--- scenario ---\n{toml}",
                diffs.join("; "),
                spec.step_toml(step),
            ));
        }
        let key = match exp.reason {
            Some(r) => format!("{} {} {r}", step.act.name(), exp.outcome),
            None => format!("{} {}", step.act.name(), exp.outcome),
        };
        *seen.borrow_mut().entry(key).or_default() += 1;
    }
    // The job table at the end (`jobs` in the JSON), row by row.
    if let Some(final_rows) = json.get("jobs").and_then(Value::as_array) {
        let diffs = diff_final_rows(&model, final_rows);
        if !diffs.is_empty() {
            return Err(format!(
                "final job table disagrees: {}\n  sim-core jobs: {}\n--- scenario ---\n{toml}",
                diffs.join("; "),
                json["jobs"],
            ));
        }
    }
    Ok(())
}

/// Differences between sim-core's final `jobs` and the SQLite table.
fn diff_final_rows(model: &SqlModel<'_>, final_rows: &[Value]) -> Vec<String> {
    let mut diffs = Vec::new();
    if final_rows.len() != model.jobs.len() {
        diffs.push(format!(
            "sim-core lists {} jobs, SQLite has {}",
            final_rows.len(),
            model.jobs.len()
        ));
        return diffs;
    }
    for (k, sim) in final_rows.iter().enumerate() {
        let row = model.row(k);
        let id = &model.jobs[k];
        if sim["id"].as_str() != Some(id.as_str()) {
            diffs.push(format!("job {k}: id sim-core {}, SQLite {id:?}", sim["id"]));
        }
        // An empty owner column is null in the JSON.
        let owner = sim["owner"].as_str().unwrap_or("");
        if owner != row.owner || (sim["owner"].is_null() != row.owner.is_empty()) {
            diffs.push(format!(
                "{id}: owner sim-core {}, SQLite {:?}",
                sim["owner"], row.owner
            ));
        }
        if sim["lease_until"].as_i64() != row.lease_until {
            diffs.push(format!(
                "{id}: lease_until sim-core {}, SQLite {:?}",
                sim["lease_until"], row.lease_until
            ));
        }
        // Random fences may exceed i64::MAX; SQLite holds them wrapped.
        if sim["fence"].as_u64() != Some(row.fence as u64) {
            diffs.push(format!(
                "{id}: fence sim-core {}, SQLite {}",
                sim["fence"], row.fence as u64
            ));
        }
        if sim["state"].as_str() != Some(row.state.as_str()) {
            diffs.push(format!(
                "{id}: state sim-core {}, SQLite {:?}",
                sim["state"], row.state
            ));
        }
        if let Some(g) = sim.get("generations") {
            if g.as_i64() != Some(row.generations) {
                diffs.push(format!(
                    "{id}: generations sim-core {g}, SQLite {}",
                    row.generations
                ));
            }
        }
    }
    diffs
}

// ---------------------------------------------------------------------------
// Greedy minimisation after proptest's own shrinking
// ---------------------------------------------------------------------------

/// Does `spec` still show a disagreement (or make sim-core panic)?
fn failure_of(spec: &Spec) -> Option<String> {
    let seen = RefCell::new(BTreeMap::new());
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compare(spec, &seen))) {
        Ok(Ok(())) => None,
        Ok(Err(report)) => Some(report),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            Some(format!(
                "panicked: {msg}\n--- scenario ---\n{}",
                spec.to_toml()
            ))
        }
    }
}

fn without_worker(spec: &Spec, w: usize) -> Option<Spec> {
    if spec.workers.len() <= 2 || spec.steps.iter().any(|s| s.worker == Some(w)) {
        return None;
    }
    let mut next = spec.clone();
    next.workers.remove(w);
    if let Some(c) = next.clocks.as_mut() {
        c.remove(w);
    }
    for s in &mut next.steps {
        if let Some(x) = s.worker.as_mut() {
            if *x > w {
                *x -= 1;
            }
        }
    }
    Some(next)
}

/// Simpler variants of `spec`, most aggressive first.
fn simpler(spec: &Spec) -> Vec<Spec> {
    let mut out = Vec::new();
    if spec.steps.len() > 1 {
        for k in 0..spec.steps.len() {
            let mut next = spec.clone();
            next.steps.remove(k);
            out.push(next);
        }
    }
    for w in (0..spec.workers.len()).rev() {
        out.extend(without_worker(spec, w));
    }
    if let Some(n) = spec.jobs {
        let used_top = spec.steps.iter().any(|s| s.job == Some(n - 1));
        if n > 1 && !used_top {
            let mut next = spec.clone();
            next.jobs = Some(n - 1);
            out.push(next);
        }
    }
    if spec.clocks.is_some() {
        let mut next = spec.clone();
        next.clocks = None;
        out.push(next);
        for k in 0..spec.workers.len() + 1 {
            if spec.clocks.as_ref().is_some_and(|c| c[k] != 0) {
                let mut next = spec.clone();
                if let Some(c) = next.clocks.as_mut() {
                    c[k] = 0;
                }
                out.push(next);
            }
        }
    }
    if let Some(first) = spec.steps.first().map(|s| s.at).filter(|&a| a > 0) {
        // Start the story earlier, if the clocks allow it.
        let min_offset = spec
            .clocks
            .as_ref()
            .map_or(0, |c| c.iter().copied().min().unwrap_or(0));
        let lowest = (-min_offset).max(0);
        if first > lowest {
            let mut next = spec.clone();
            for s in &mut next.steps {
                s.at -= first - lowest;
            }
            out.push(next);
        }
    }
    for k in 1..spec.steps.len() {
        // Close a gap between two steps.
        let gap = spec.steps[k].at - spec.steps[k - 1].at;
        if gap > 0 {
            let mut next = spec.clone();
            for s in &mut next.steps[k..] {
                s.at -= 1;
            }
            out.push(next);
        }
    }
    for k in 0..4 {
        for commit in [true, false] {
            let set = if commit {
                spec.commit_checks
            } else {
                spec.renew_checks
            };
            if set[k] {
                let mut next = spec.clone();
                if commit {
                    next.commit_checks[k] = false;
                } else {
                    next.renew_checks[k] = false;
                }
                out.push(next);
            }
        }
    }
    if spec.token != TokenKind::Monotonic {
        let mut next = spec.clone();
        next.token = TokenKind::Monotonic;
        out.push(next);
    }
    if !spec.lease_clock_db {
        let mut next = spec.clone();
        next.lease_clock_db = true;
        out.push(next);
    }
    if spec.reverse_listing {
        let mut next = spec.clone();
        next.reverse_listing = false;
        out.push(next);
    }
    if spec.ttl > 1 {
        let mut next = spec.clone();
        next.ttl -= 1;
        out.push(next);
    }
    out
}

/// Greedily simplify a failing `spec` while it keeps failing.
fn minimize(mut spec: Spec, mut report: String) -> (Spec, String) {
    'outer: for _ in 0..1000 {
        for candidate in simpler(&spec) {
            if let Some(r) = failure_of(&candidate) {
                spec = candidate;
                report = r;
                continue 'outer;
            }
        }
        break;
    }
    (spec, report)
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn differential_sim_core_agrees_with_sqlite() {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        rng_algorithm: RngAlgorithm::ChaCha,
        max_shrink_iters: 10_000,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &SEED));
    let seen = RefCell::new(BTreeMap::<String, u32>::new());
    let result = runner.run(&spec_strategy(), |spec| {
        compare(&spec, &seen).map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, spec)) => {
            let (spec, report) = minimize(spec, reason.message().to_string());
            if report.contains("--- scenario ---") {
                panic!("sim-core and SQLite disagree (minimised case):\n{report}");
            }
            panic!(
                "sim-core and SQLite disagree (minimised case):\n{report}\n--- scenario ---{spec:?}"
            );
        }
        Err(TestError::Abort(reason)) => panic!("differential test aborted: {reason}"),
    }
    // The generator must actually reach every interesting branch.
    let seen = seen.into_inner();
    for key in [
        "claim ok",
        "claim rejected lease_held",
        "claim rejected terminal",
        "renew ok",
        "renew rejected",
        "finish ok",
        "finish rejected",
        "fail ok",
        "fail rejected",
        "cancel ok",
        "cancel noop",
    ] {
        assert!(
            seen.get(key).copied().unwrap_or(0) > 0,
            "the generator never produced `{key}`; seen: {seen:?}"
        );
    }
}

/// The seed article's example (MODEL.md §2), via the `db-conditional` preset
/// and the default job: the same in SQLite and in sim-core.
#[test]
fn differential_article_example() {
    let toml = "\
id = \"seed-sqlite\"
ttl = 5
workers = [\"A\", \"B\"]
design = \"db-conditional\"
steps = [
  { at = 0, worker = \"A\", do = \"claim\" },
  { at = 6, worker = \"B\", do = \"claim\" },
  { at = 7, worker = \"A\", do = \"finish\" },
  { at = 7, worker = \"B\", do = \"finish\" },
]
";
    // The same scenario as a Spec (db-conditional = all four checks).
    let spec = Spec {
        ttl: 5,
        workers: vec![
            Worker {
                id: "A",
                owner: "A",
            },
            Worker {
                id: "B",
                owner: "B",
            },
        ],
        jobs: None,
        token: TokenKind::Monotonic,
        commit_checks: [true; 4],
        renew_checks: [true; 4],
        reverse_listing: false,
        lease_clock_db: true,
        clocks: None,
        steps: vec![
            Step {
                at: 0,
                act: Act::Claim,
                worker: Some(0),
                job: None,
            },
            Step {
                at: 6,
                act: Act::Claim,
                worker: Some(1),
                job: None,
            },
            Step {
                at: 7,
                act: Act::Finish,
                worker: Some(0),
                job: None,
            },
            Step {
                at: 7,
                act: Act::Finish,
                worker: Some(1),
                job: None,
            },
        ],
    };

    let mut model = SqlModel::new(&spec);
    let sql: Vec<Expected> = spec
        .steps
        .iter()
        .map(|s| model.step(s, None).unwrap())
        .collect();
    // SQLite's side of the story, spelled out.
    assert!(matches!(sql[0].token, TokenExpect::Exactly(1)));
    assert!(matches!(sql[1].token, TokenExpect::Exactly(2)));
    assert_eq!((sql[2].outcome, sql[2].rows), ("rejected", 0));
    assert_eq!(sql[2].failed_checks, Some(vec!["owner", "fence"]));
    assert_eq!((sql[3].outcome, sql[3].rows), ("ok", 1));
    assert_eq!(model.row(0).state, "done");

    // sim-core's side, step by step, both from the preset file and from the
    // equivalent explicit [design] table.
    for text in [toml.to_owned(), spec.to_toml()] {
        let json = run_sim(&text).unwrap();
        let steps = json["steps"].as_array().expect("steps array");
        assert_eq!(steps.len(), 4, "{json}");
        for (i, (sim, exp)) in steps.iter().zip(&sql).enumerate() {
            let diffs = diff_step(sim, exp);
            assert!(
                diffs.is_empty(),
                "step {i}: {}\n{text}\n{json}",
                diffs.join("; ")
            );
        }
        assert_eq!(steps[0]["token"], 1);
        assert_eq!(steps[1]["token"], 2);
        assert_eq!(steps[2]["rows"], 0);
        assert_eq!(steps[3]["rows"], 1);
    }
}
