//! The SQL a job-table step stands for: the statement the scenario's design
//! implies (its commit and renew checks, token kind and lease clock), in the
//! SQLite or PostgreSQL dialect, with named parameters and the values bound
//! at that step.
//!
//! The model's answer (rows affected, the token handed out) is the trace's;
//! this module only spells the statements. `fencelab sql` prints them as a
//! script, both front ends show a step's statement in its detail, and the
//! `--db` replays execute them on a real database and compare.
//!
//! Time in SQL: the job table's `lease_until` is in the ticks of the design's
//! lease clock. With `lease_clock = "worker"` the worker reads its own clock
//! and binds it as `:now`. With the database's clock, SQLite binds the
//! database's time as `:now` too (one connection: a statement runs when it is
//! sent); PostgreSQL calls `db_now()`, the simulated database clock, which a
//! statement evaluates when it runs — like `clock_timestamp()`, so that a
//! statement that waited for a row lock reads the time it ran at
//! (docs/scenario-format.md §10.2).

use std::fmt::{self, Write as _};

use crate::Lang;
use crate::design::{Check, CheckSet, LeaseClock, TokenKind};
use crate::scenario::{Action, JobIdx, Scenario, Step, WorkerIdx};
use crate::trace::{JobState, Outcome, Reason, Trace};

/// Which database's spelling.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Dialect {
    /// SQLite 3.35 or later (`RETURNING`). It has no row locks: `FOR UPDATE`,
    /// `SKIP LOCKED` and `NOWAIT` are left out.
    #[default]
    Sqlite,
    /// PostgreSQL 9.5 or later (`SKIP LOCKED`).
    Postgres,
}

impl Dialect {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The dialect a scenario is shown in: PostgreSQL when it uses
    /// transactions or row locks (SQLite has none), else SQLite, the
    /// article's demo.
    pub fn for_scenario(scenario: &Scenario) -> Dialect {
        let locks = scenario.steps.iter().any(|step| {
            matches!(
                step.action,
                Action::Begin
                    | Action::Commit
                    | Action::Rollback
                    | Action::SelectForUpdate
                    | Action::SelectSkipLocked
                    | Action::SelectNowait
            )
        });
        if locks {
            Dialect::Postgres
        } else {
            Dialect::Sqlite
        }
    }
}

/// A value bound to a parameter (in JSON: `null`, a number or a string).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum SqlValue {
    Null,
    Int(i64),
    Text(String),
}

impl fmt::Display for SqlValue {
    /// As a SQL literal: `NULL`, `7`, `'A'` (quotes doubled).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqlValue::Null => f.write_str("NULL"),
            SqlValue::Int(n) => write!(f, "{n}"),
            SqlValue::Text(text) => write!(f, "'{}'", text.replace('\'', "''")),
        }
    }
}

/// The type a parameter is declared with (PostgreSQL needs it to infer
/// `$1 + $2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SqlType {
    Int,
    Text,
}

/// One named parameter and the value bound at the step.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Param {
    pub name: &'static str,
    pub ty: SqlType,
    pub value: SqlValue,
}

/// What kind of statement it is, which says what its result means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatementKind {
    /// `UPDATE`: its row count is the answer; a claim returns `id, fence`.
    Update,
    /// `SELECT` of the job row.
    Select,
    /// `BEGIN`, `COMMIT`, `ROLLBACK`.
    Control,
}

/// A statement with `:name` placeholders and their values.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Statement {
    pub kind: StatementKind,
    /// The text with `:name` placeholders, in the dialect it was built for.
    pub text: String,
    /// Each name once, in order of first use.
    pub params: Vec<Param>,
}

impl Statement {
    /// The text with positional placeholders for a driver: `?1` (SQLite) or
    /// `$1::bigint` (PostgreSQL), and the values in that order.
    pub fn positional(&self, dialect: Dialect) -> (String, Vec<&SqlValue>) {
        let mut text = self.text.clone();
        // Longest names first, so `:token` never eats part of a longer name.
        let mut order: Vec<(usize, &Param)> = self.params.iter().enumerate().collect();
        order.sort_by_key(|(_, p)| std::cmp::Reverse(p.name.len()));
        for (k, param) in order {
            let placeholder = match (dialect, param.ty) {
                (Dialect::Sqlite, _) => format!("?{}", k + 1),
                (Dialect::Postgres, SqlType::Int) => format!("${}::bigint", k + 1),
                (Dialect::Postgres, SqlType::Text) => format!("${}::text", k + 1),
            };
            text = text.replace(&format!(":{}", param.name), &placeholder);
        }
        (text, self.params.iter().map(|p| &p.value).collect())
    }

    /// `:owner = 'A', :token = 1`, or empty.
    pub fn bindings(&self) -> String {
        self.params
            .iter()
            .map(|p| format!(":{} = {}", p.name, p.value))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The values a step's statement binds: what the worker knows when it sends
/// it. The model's run fills them in ([`step_sql`]); a replay on a real
/// database binds what that database handed out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The worker's owner identity.
    pub owner: Option<String>,
    /// The token the worker carries for the job (none: `NULL`).
    pub token: Option<u64>,
    /// For a claim under `token = "random"`: the token drawn for it.
    pub new_token: Option<u64>,
    /// The lease clock's reading, bound as `:now` where the dialect binds it.
    pub now: i64,
}

/// The statement `step` sends on `job` (the job it resolved to), or `None`
/// for steps that are not job-table statements (writes to targets, labels,
/// crashes).
pub fn statement(
    scenario: &Scenario,
    step: &Step,
    job: JobIdx,
    binding: &Binding,
    dialect: Dialect,
) -> Option<Statement> {
    let mut b = Builder::new(scenario, binding, dialect);
    let job_id = scenario.jobs.get(usize::from(job))?.clone();
    let kind = match step.action {
        Action::Claim | Action::ClaimNext | Action::UpdateClaim => {
            b.claim(step, job_id);
            StatementKind::Update
        }
        Action::Renew | Action::Finish | Action::Fail | Action::Cancel | Action::Revise => {
            b.update(step.action, job_id);
            StatementKind::Update
        }
        Action::Check
        | Action::Select
        | Action::SelectForUpdate
        | Action::SelectNowait
        | Action::SelectSkipLocked => {
            b.select(step, job_id);
            StatementKind::Select
        }
        Action::Begin => {
            b.text = "BEGIN".to_owned();
            StatementKind::Control
        }
        Action::Commit => {
            b.text = "COMMIT".to_owned();
            StatementKind::Control
        }
        Action::Rollback => {
            b.text = "ROLLBACK".to_owned();
            StatementKind::Control
        }
        Action::Write
        | Action::Deliver
        | Action::Register
        | Action::Crash
        | Action::Pause
        | Action::Resume => {
            return None;
        }
    };
    Some(Statement {
        kind,
        text: b.text,
        params: b.params,
    })
}

struct Builder<'a> {
    scenario: &'a Scenario,
    binding: &'a Binding,
    dialect: Dialect,
    text: String,
    params: Vec<Param>,
}

impl<'a> Builder<'a> {
    fn new(scenario: &'a Scenario, binding: &'a Binding, dialect: Dialect) -> Builder<'a> {
        Builder {
            scenario,
            binding,
            dialect,
            text: String::new(),
            params: Vec::new(),
        }
    }

    /// The claim `step` (a claim, claim-next or update-claim) sends on `job_id`.
    fn claim(&mut self, step: &Step, job_id: String) {
        let set = self.claim_set();
        self.text = match step.action {
            Action::ClaimNext => {
                let pick = self.pick_next(step.job.map(|_| job_id));
                format!("UPDATE jobs SET {set} WHERE id = ({pick}) RETURNING id, fence")
            }
            Action::Claim => {
                let claimable = self.claimable();
                let job = self.param("job", SqlValue::Text(job_id));
                format!(
                    "UPDATE jobs SET {set} WHERE id = {job} AND {claimable} RETURNING id, fence"
                )
            }
            _ => {
                let job = self.param("job", SqlValue::Text(job_id));
                format!("UPDATE jobs SET {set} WHERE id = {job} RETURNING id, fence")
            }
        };
    }

    /// The update a worker or the operator sends on a held job: `action` is
    /// a renew, finish, fail or cancel.
    fn update(&mut self, action: Action, job_id: String) {
        let scenario = self.scenario;
        let design = &scenario.design;
        self.text = match action {
            Action::Renew => {
                let now = self.now();
                let ttl = self.ttl();
                let job = self.param("job", SqlValue::Text(job_id));
                let checks = self.checks(design.renew_checks);
                format!("UPDATE jobs SET lease_until = {now} + {ttl} WHERE id = {job}{checks}")
            }
            Action::Revise => {
                let job = self.param("job", SqlValue::Text(job_id));
                // An input revision that moves the fence too: a token check
                // then sees that the input changed.
                let fence = if design.input_revision {
                    ", fence = fence + 1"
                } else {
                    ""
                };
                format!(
                    "UPDATE jobs SET input_rev = input_rev + 1{fence} WHERE id = {job} AND state IN ('ready', 'running')"
                )
            }
            Action::Cancel => {
                let job = self.param("job", SqlValue::Text(job_id));
                // A cancel epoch moves the fence, so a token check sees the cancel.
                let epoch = if design.cancel_epoch {
                    ", fence = fence + 1"
                } else {
                    ""
                };
                format!(
                    "UPDATE jobs SET state = 'cancelled'{epoch} WHERE id = {job} AND state IN ('ready', 'running')"
                )
            }
            _ => {
                let end = if action == Action::Finish {
                    "done"
                } else {
                    "failed"
                };
                let job = self.param("job", SqlValue::Text(job_id));
                let checks = self.checks(design.commit_checks);
                format!("UPDATE jobs SET state = '{end}' WHERE id = {job}{checks}")
            }
        };
    }

    /// The read `step` (a check or one of the selects) sends on `job_id`.
    fn select(&mut self, step: &Step, job_id: String) {
        self.text = match step.action {
            Action::Check => {
                let all = self.predicates(CheckSet::ALL).join(" AND ");
                let job = self.param("job", SqlValue::Text(job_id));
                format!(
                    "SELECT CASE WHEN {all} THEN 1 ELSE 0 END AS lease_valid FROM jobs WHERE id = {job}"
                )
            }
            Action::SelectSkipLocked => {
                let claimable = self.claimable();
                let only = match step.job {
                    Some(_) => format!(" AND id = {}", self.param("job", SqlValue::Text(job_id))),
                    None => String::new(),
                };
                let lock = self.skip_locked();
                format!(
                    "SELECT id, owner, lease_until, fence, state, 1 AS claimable FROM jobs \
                     WHERE {claimable}{only} ORDER BY pos LIMIT 1{lock}"
                )
            }
            _ => {
                let claimable = self.claimable();
                let job = self.param("job", SqlValue::Text(job_id));
                let lock = match (step.action, self.dialect) {
                    (_, Dialect::Sqlite) | (Action::Select, _) => "",
                    (Action::SelectNowait, Dialect::Postgres) => " FOR UPDATE NOWAIT",
                    (_, Dialect::Postgres) => " FOR UPDATE",
                };
                format!(
                    "SELECT id, owner, lease_until, fence, state, \
                     CASE WHEN {claimable} THEN 1 ELSE 0 END AS claimable \
                     FROM jobs WHERE id = {job}{lock}"
                )
            }
        };
    }

    /// Binds `name` (once) and returns its placeholder.
    fn param(&mut self, name: &'static str, value: SqlValue) -> String {
        if !self.params.iter().any(|p| p.name == name) {
            let ty = match value {
                SqlValue::Text(_) => SqlType::Text,
                SqlValue::Int(_) | SqlValue::Null => SqlType::Int,
            };
            self.params.push(Param { name, ty, value });
        }
        format!(":{name}")
    }

    fn int_param(&mut self, name: &'static str, value: Option<u64>) -> String {
        let value = value
            .and_then(|v| i64::try_from(v).ok())
            .map_or(SqlValue::Null, SqlValue::Int);
        self.param(name, value)
    }

    /// The lease clock's reading (see the module docs).
    fn now(&mut self) -> String {
        if self.dialect == Dialect::Postgres && self.scenario.design.lease_clock == LeaseClock::Db {
            "db_now()".to_owned()
        } else {
            self.param("now", SqlValue::Int(self.binding.now))
        }
    }

    fn ttl(&mut self) -> String {
        let ttl = i64::try_from(self.scenario.ttl).unwrap_or(i64::MAX);
        self.param("ttl", SqlValue::Int(ttl))
    }

    fn owner(&mut self) -> String {
        let owner = self
            .binding
            .owner
            .clone()
            .map_or(SqlValue::Null, SqlValue::Text);
        self.param("owner", owner)
    }

    /// `SET` of a claim: the new owner, lease and fence.
    fn claim_set(&mut self) -> String {
        let owner = self.owner();
        let now = self.now();
        let ttl = self.ttl();
        let fence = match self.scenario.design.token {
            TokenKind::Random => self.int_param("token", self.binding.new_token),
            TokenKind::Monotonic | TokenKind::None => "fence + 1".to_owned(),
        };
        format!("owner = {owner}, lease_until = {now} + {ttl}, fence = {fence}, state = 'running'")
    }

    /// The claim's condition: the lease is over (or was never taken) and the
    /// job is not finished.
    fn claimable(&mut self) -> String {
        let now = self.now();
        format!("(lease_until IS NULL OR lease_until <= {now}) AND state IN ('ready', 'running')")
    }

    fn skip_locked(&self) -> &'static str {
        match self.dialect {
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
            Dialect::Sqlite => "",
        }
    }

    /// The sub-select of `claim_next`: the first claimable row no other
    /// transaction has locked.
    fn pick_next(&mut self, only: Option<String>) -> String {
        let claimable = self.claimable();
        let only = match only {
            Some(job) => format!(" AND id = {}", self.param("job", SqlValue::Text(job))),
            None => String::new(),
        };
        let lock = self.skip_locked();
        format!("SELECT id FROM jobs WHERE {claimable}{only} ORDER BY pos LIMIT 1{lock}")
    }

    /// Each predicate of `checks` as SQL, in the canonical order.
    fn predicates(&mut self, checks: CheckSet) -> Vec<String> {
        checks
            .iter()
            .map(|check| match check {
                Check::Owner => format!("owner = {}", self.owner()),
                Check::Fence => {
                    let token = self.int_param("token", self.binding.token);
                    format!("fence = {token}")
                }
                Check::Lease => format!("lease_until > {}", self.now()),
                Check::State => "state = 'running'".to_owned(),
            })
            .collect()
    }

    /// ` AND owner = :owner AND …`, or empty for no checks.
    fn checks(&mut self, checks: CheckSet) -> String {
        self.predicates(checks)
            .iter()
            .map(|p| format!(" AND {p}"))
            .collect()
    }
}

/// The job table as a learner writing statements for it needs it: its
/// columns and the values `state` takes, as the box creates it ([`schema`]).
pub fn jobs_table_words(lang: Lang) -> String {
    let states = [
        JobState::Ready,
        JobState::Running,
        JobState::Done,
        JobState::Failed,
        JobState::Cancelled,
    ]
    .map(|state| format!("'{}'", state.name()))
    .join(lang.pick(", ", "、"));
    let table = "jobs(id, pos, owner, lease_until, fence, state)";
    match lang {
        Lang::En => format!(
            "The table: {table}. state is one of {states}; a new job is 'ready', with fence 0 and neither owner nor lease_until."
        ),
        Lang::Zh => format!(
            "表：{table}。state 取 {states} 之一；新任务是 'ready'，fence 为 0，没有 owner 和 lease_until。"
        ),
    }
}

/// The statements that create and fill the job table (and, for
/// PostgreSQL, the simulated database clock `db_now()`).
pub fn schema(scenario: &Scenario, dialect: Dialect) -> Vec<String> {
    // The input revision is a column only where the user revises an
    // input, so every other scenario's table stays as it was.
    let input_rev = if scenario.steps.iter().any(|s| s.action == Action::Revise) {
        ", input_rev BIGINT NOT NULL DEFAULT 0"
    } else {
        ""
    };
    let mut out = vec![format!(
        "CREATE TABLE jobs (id TEXT PRIMARY KEY, pos INTEGER NOT NULL, owner TEXT, \
         lease_until BIGINT, fence BIGINT NOT NULL DEFAULT 0, \
         state TEXT NOT NULL DEFAULT 'ready'{input_rev})"
    )];
    for (pos, job) in scenario.jobs.iter().enumerate() {
        out.push(format!(
            "INSERT INTO jobs (id, pos) VALUES ({}, {pos})",
            SqlValue::Text(job.clone())
        ));
    }
    if dialect == Dialect::Postgres {
        out.push("CREATE TABLE sim_clock (now BIGINT NOT NULL)".to_owned());
        out.push(format!(
            "INSERT INTO sim_clock VALUES ({})",
            scenario.db_offset
        ));
        // VOLATILE: read afresh by each evaluation, as clock_timestamp() is.
        out.push(
            "CREATE FUNCTION db_now() RETURNS BIGINT VOLATILE LANGUAGE sql \
             AS 'SELECT now FROM sim_clock'"
                .to_owned(),
        );
    }
    out
}

/// The reading of the design's lease clock for `worker` at true time `at`.
pub fn lease_now(scenario: &Scenario, worker: Option<WorkerIdx>, at: u64) -> i64 {
    let at = i64::try_from(at).unwrap_or(i64::MAX);
    let offset = match (scenario.design.lease_clock, worker) {
        (LeaseClock::Worker, Some(w)) => scenario
            .worker_offsets
            .get(usize::from(w))
            .copied()
            .unwrap_or(0),
        _ => scenario.db_offset,
    };
    at.saturating_add(offset)
}

/// One step's SQL as the model ran it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSql {
    pub statement: Statement,
    /// Whether the worker sends it: not when it was blocked or had crashed,
    /// nor an `update_claim` whose read did not see the row claimable (the
    /// application decides not to).
    pub sent: bool,
    /// The rows the model says an `UPDATE` affected.
    pub rows: Option<u8>,
    /// When the statement ran, by the lease clock (a waiting statement:
    /// when its lock was released).
    pub now: i64,
}

/// The statement step `index` sent in the model's run, with the values the
/// model bound (`None` for steps that are not job-table statements).
pub fn step_sql(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    dialect: Dialect,
) -> Option<StepSql> {
    let step = scenario.steps.get(index)?;
    let record = trace.steps.get(index)?;
    let job = record.job.or(step.job).unwrap_or(0);
    let ran_at = record.waited_until.unwrap_or(step.at);
    let now = lease_now(scenario, step.worker, ran_at);
    let claims = matches!(
        step.action,
        Action::Claim | Action::ClaimNext | Action::UpdateClaim
    );
    let binding = Binding {
        owner: step
            .worker
            .and_then(|w| scenario.workers.get(usize::from(w)))
            .map(|w| scenario.owner_id(w.owner).to_owned()),
        // A claim's record holds the new token; what it carried before
        // does not enter its statement.
        token: if claims { None } else { record.token },
        new_token: if claims && record.outcome == Outcome::Ok {
            record.token
        } else {
            None
        },
        now,
    };
    let statement = statement(scenario, step, job, &binding, dialect)?;
    let sent = match record.reason {
        Some(Reason::Blocked | Reason::Crashed) => false,
        Some(Reason::NotClaimable) => step.action != Action::UpdateClaim,
        _ => true,
    };
    Some(StepSql {
        statement,
        sent,
        rows: record.rows.filter(|_| sent),
        now,
    })
}

/// A step's SQL as the front ends show it in the step's detail.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct StepSqlView {
    /// `sqlite` or `postgres` ([`Dialect::for_scenario`]).
    pub dialect: &'static str,
    pub text: String,
    /// The values bound, as `:name = value, …` (empty when none).
    pub bindings: String,
    /// Whether the worker sent it ([`StepSql::sent`]).
    pub sent: bool,
    /// The rows the model says it changed (`UPDATE`s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<u8>,
}

impl StepSqlView {
    /// Step `index`'s statement, or `None` for steps without one.
    pub fn of(scenario: &Scenario, trace: &Trace, index: usize) -> Option<StepSqlView> {
        let dialect = Dialect::for_scenario(scenario);
        let sql = step_sql(scenario, trace, index, dialect)?;
        let mut bindings = sql.statement.bindings();
        if sql.statement.text.contains("db_now()") {
            if !bindings.is_empty() {
                bindings.push_str(", ");
            }
            let _ = write!(bindings, "db_now() = {}", sql.now);
        }
        Some(StepSqlView {
            dialect: dialect.name(),
            rows: if sql.statement.kind == StatementKind::Update {
                sql.rows
            } else {
                None
            },
            text: sql.statement.text,
            bindings,
            sent: sql.sent,
        })
    }

    /// The lines a terminal shows: the statement, its values and rows.
    pub fn lines(&self, lang: crate::Lang) -> Vec<String> {
        let mut out = vec![format!("SQL ({}): {}", self.dialect, self.text)];
        if !self.bindings.is_empty() {
            out.push(self.bindings.clone());
        }
        if !self.sent {
            out.push(
                lang.pick(
                    "(not sent: the worker was blocked, had crashed, or had not seen the row claimable)",
                    "（未发送：Worker 被阻塞、已崩溃，或未看到这一行可领取）",
                )
                .to_owned(),
            );
        } else if let Some(rows) = self.rows {
            out.push(match lang {
                crate::Lang::En if rows == 1 => "→ 1 row changed".to_owned(),
                crate::Lang::En => format!("→ {rows} rows changed"),
                crate::Lang::Zh => format!("→ 改动 {rows} 行"),
            });
        }
        out
    }
}

/// The whole scenario as a SQL script: the schema, then per step a comment
/// (who, when, what the model says) and the statement with its values.
pub fn script(scenario: &Scenario, trace: &Trace, dialect: Dialect) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- {}: the job-table statements, {} dialect",
        scenario.id,
        dialect.name()
    );
    for line in schema(scenario, dialect) {
        let _ = writeln!(out, "{line};");
    }
    for (index, step) in scenario.steps.iter().enumerate() {
        let Some(sql) = step_sql(scenario, trace, index, dialect) else {
            continue;
        };
        let who = step.worker.map_or("user", |w| scenario.worker_id(w));
        let record = trace.steps.get(index);
        let outcome = record.map_or("", |r| r.outcome.name());
        let rows = match sql.rows {
            Some(rows) => format!(", {rows} row{}", if rows == 1 { "" } else { "s" }),
            None => String::new(),
        };
        let when = match record.and_then(|r| r.waited_until) {
            Some(ran) => format!("at {} (ran at {ran})", step.at),
            None => format!("at {}", step.at),
        };
        let _ = writeln!(
            out,
            "\n-- step {index}, {when}: {who} {} → model: {outcome}{rows}",
            step.action.name()
        );
        if dialect == Dialect::Postgres
            && scenario.design.lease_clock == LeaseClock::Db
            && sql.statement.text.contains("db_now()")
        {
            let _ = writeln!(out, "-- db_now() = {}", sql.now);
        }
        let bindings = sql.statement.bindings();
        if !bindings.is_empty() {
            let _ = writeln!(out, "-- {bindings}");
        }
        if sql.sent {
            let _ = writeln!(out, "{};", sql.statement.text);
        } else {
            let _ = writeln!(out, "-- (not sent) {};", sql.statement.text);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words a learner writes statements from name exactly the table
    /// the box creates: every column of its CREATE TABLE, every state.
    #[test]
    fn the_table_in_words_is_the_table_the_box_creates() {
        let scenario = article();
        let create = schema(&scenario, Dialect::Sqlite).remove(0);
        let columns: Vec<&str> = create
            .split_once('(')
            .map(|(_, rest)| rest)
            .unwrap_or_default()
            .split(", ")
            .filter_map(|column| column.split_whitespace().next())
            .collect();
        assert_eq!(
            columns,
            ["id", "pos", "owner", "lease_until", "fence", "state"]
        );
        for lang in [Lang::En, Lang::Zh] {
            let words = jobs_table_words(lang);
            assert!(
                words.contains(&format!("jobs({})", columns.join(", "))),
                "{words}"
            );
            for state in ["ready", "running", "done", "failed", "cancelled"] {
                assert!(words.contains(&format!("'{state}'")), "{words}");
                assert!(JobState::from_name(state).is_some(), "{state}");
            }
        }
    }

    fn article() -> Scenario {
        let text = "id = \"a\"\nttl = 5\nworkers = [\"A\", \"B\"]\ndesign = \"db-conditional\"\n\
                    steps = [\n{ at = 0, worker = \"A\", do = \"claim\" },\n\
                    { at = 6, worker = \"B\", do = \"claim\" },\n\
                    { at = 7, worker = \"A\", do = \"finish\" },\n\
                    { at = 7, worker = \"B\", do = \"finish\" },\n]\n";
        crate::parse_scenario(text.as_bytes()).unwrap_or_else(|_| Scenario::new("x", 1, &["A"]))
    }

    #[test]
    fn the_article_finish_binds_the_carried_token_and_the_model_row_count() {
        let scenario = article();
        let trace = crate::run(&scenario);
        let sql = step_sql(&scenario, &trace, 2, Dialect::Sqlite);
        let Some(sql) = sql else {
            panic!("a finish has SQL");
        };
        assert_eq!(
            sql.statement.text,
            "UPDATE jobs SET state = 'done' WHERE id = :job AND owner = :owner \
             AND fence = :token AND lease_until > :now AND state = 'running'"
        );
        assert_eq!(
            sql.statement.bindings(),
            ":job = 'r', :owner = 'A', :token = 1, :now = 7"
        );
        assert_eq!(sql.rows, Some(0));
        let Some(pg) = step_sql(&scenario, &trace, 2, Dialect::Postgres) else {
            panic!("a finish has SQL");
        };
        let (text, values) = pg.statement.positional(Dialect::Postgres);
        assert!(
            text.contains("owner = $2::text AND fence = $3::bigint"),
            "{text}"
        );
        assert!(text.contains("lease_until > db_now()"), "{text}");
        assert_eq!(values.len(), 3);
    }

    #[test]
    fn claims_return_the_fence_and_labels_have_no_sql() {
        let scenario = article();
        let trace = crate::run(&scenario);
        let script = script(&scenario, &trace, Dialect::Sqlite);
        assert!(script.contains("fence = fence + 1"), "{script}");
        assert!(script.contains("RETURNING id, fence"), "{script}");
        assert!(script.contains("model: rejected, 0 rows"), "{script}");
        assert!(script.contains("model: ok, 1 row\n"), "{script}");
        let mut pause = Step::new(0, Some(0), Action::Pause);
        pause.job = None;
        let binding = Binding {
            owner: None,
            token: None,
            new_token: None,
            now: 0,
        };
        assert_eq!(
            statement(&scenario, &pause, 0, &binding, Dialect::Sqlite),
            None
        );
    }

    #[test]
    fn nowait_is_for_update_nowait_in_postgres_and_a_plain_read_in_sqlite() {
        let text = "id = \"n\"\nttl = 5\nworkers = [\"A\", \"B\"]\n\
                    steps = [\n{ at = 0, worker = \"A\", do = \"begin\" },\n\
                    { at = 0, worker = \"A\", do = \"select_nowait\" },\n\
                    { at = 1, worker = \"B\", do = \"select_nowait\" },\n]\n";
        let Ok(scenario) = crate::parse_scenario(text.as_bytes()) else {
            panic!("the scenario parses");
        };
        assert_eq!(Dialect::for_scenario(&scenario), Dialect::Postgres);
        let trace = crate::run(&scenario);
        let read = |index, dialect| match step_sql(&scenario, &trace, index, dialect) {
            Some(sql) => sql,
            None => panic!("a NOWAIT read has SQL"),
        };
        let pg = read(1, Dialect::Postgres);
        assert!(
            pg.statement
                .text
                .ends_with("WHERE id = :job FOR UPDATE NOWAIT"),
            "{}",
            pg.statement.text
        );
        // B's refused NOWAIT was still sent: the database refused it.
        assert!(read(2, Dialect::Postgres).sent);
        let sqlite = read(1, Dialect::Sqlite);
        assert!(
            sqlite.statement.text.ends_with("WHERE id = :job"),
            "{}",
            sqlite.statement.text
        );
    }
}
