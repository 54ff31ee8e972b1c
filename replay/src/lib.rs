//! `fencelab run FILE --db …`: the scenario's job-table statements executed
//! on a real database next to the model, step by step, and every
//! disagreement recorded as a finding (the `fencelab` binary prints them).
//!
//! The replay is the application's side: it binds what *the database* handed
//! out (the fence a claim returned, whether a read saw the row claimable),
//! never the model's values, so the two can disagree. Only the clock and a
//! `token = "random"` claim's drawn token come from the scenario (they are the
//! application's inputs). Backends: [`sqlite`] (embedded, one connection, the
//! single-connection subset of actions) and [`pg`] (a connection per worker;
//! waits, `SKIP LOCKED` and deadlocks are the server's own).

mod failure;
mod pg;
mod sqlite;
mod url;

use std::collections::BTreeMap;

use serde::Serialize;
use sim_core::sql::{Binding, Dialect, SqlValue, Statement, StatementKind};
use sim_core::{Action, Lang, Outcome, Reason, Scenario, Step, StepTrace, TokenKind, Trace};

use crate::failure::DbFailure;

/// A row of the job table as a database shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DbRow {
    pub owner: Option<String>,
    pub lease_until: Option<i64>,
    pub fence: i64,
    pub state: String,
}

/// What a statement returned.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Answer {
    /// Rows an `UPDATE` changed (or a `SELECT` returned).
    pub(crate) affected: u64,
    /// The returned rows, column by column.
    pub(crate) rows: Vec<Vec<SqlValue>>,
}

/// Why a statement failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DbError {
    /// The server chose this statement as a deadlock victim (SQLSTATE 40P01).
    pub(crate) deadlock: bool,
    /// `NOWAIT` found the row locked (SQLSTATE 55P03).
    pub(crate) lock_not_available: bool,
    pub(crate) message: String,
}

pub(crate) type Reply = Result<Answer, DbError>;

/// What became of a statement just sent.
#[derive(Debug)]
pub(crate) enum Sent {
    Done(Reply),
    /// The server holds it in a lock wait.
    Waiting,
}

/// A database the replay talks to; actors are workers, then the user.
pub(crate) trait Backend {
    /// Sets the database clock `db_now()` reads (PostgreSQL).
    fn set_clock(&mut self, db_now: i64) -> Result<(), String>;
    /// Sends `statement` on `actor`'s connection and returns once it
    /// completed or the server is holding it in a lock wait.
    fn send(&mut self, actor: usize, statement: &Statement) -> Sent;
    /// After a step: waits until every waiting statement has either completed
    /// (returned here, with its actor) or is waiting for a lock again.
    fn settle(&mut self) -> Vec<(usize, Reply)>;
    /// The job row as `actor`'s connection sees it (its own uncommitted
    /// changes included).
    fn read_row(&mut self, actor: usize, job: &str) -> Option<DbRow>;
    /// The actor's process dies: its connection is closed.
    fn crash(&mut self, actor: usize);
    /// Ends the run: closes every connection, drops what it created.
    fn close(&mut self);
    /// The database stopped answering (the replay cannot go on).
    fn gone(&self) -> Option<DbFailure> {
        None
    }
}

/// One step as the database ran it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DbStep {
    pub i: usize,
    /// The statement, or null for steps without one (writes to targets, labels).
    pub sql: Option<String>,
    /// The values bound, as `:name = value, …`.
    pub bindings: String,
    pub sent: bool,
    pub rows: Option<u64>,
    /// For a claim: the fence it returned; for `select_skip_locked` and
    /// `claim_next`: the row chosen is `job`.
    pub fence: Option<i64>,
    pub job: Option<String>,
    /// For reads: whether the row was claimable; for `check`: the lease valid.
    pub claimable: Option<bool>,
    pub lease_valid: Option<bool>,
    pub waiting: bool,
    pub waited_until: Option<u64>,
    pub deadlock: bool,
    /// `select_nowait` failed at once on a row another transaction locked.
    pub lock_not_available: bool,
    pub error: Option<String>,
    pub row: Option<DbRow>,
    pub agrees: bool,
    pub differences: Vec<String>,
}

impl DbStep {
    /// Step `index` before its statement is built or sent.
    fn unsent(index: usize) -> DbStep {
        DbStep {
            i: index,
            sql: None,
            bindings: String::new(),
            sent: false,
            rows: None,
            fence: None,
            job: None,
            claimable: None,
            lease_valid: None,
            waiting: false,
            waited_until: None,
            deadlock: false,
            lock_not_available: false,
            error: None,
            row: None,
            agrees: true,
            differences: Vec::new(),
        }
    }
}

/// The `db` object of `run --json --db`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DbJson {
    pub engine: &'static str,
    pub agrees: bool,
    pub steps: Vec<DbStep>,
}

/// Actions SQLite cannot replay faithfully: they need row locks and a
/// connection per worker.
fn needs_row_locks(action: Action) -> bool {
    matches!(
        action,
        Action::Begin
            | Action::Commit
            | Action::Rollback
            | Action::SelectForUpdate
            | Action::SelectSkipLocked
            | Action::SelectNowait
    )
}

/// Why `replay_db` gave no replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The scenario cannot be replayed on this database: a sentence in the
    /// language asked for; the file is to blame.
    Scenario(String),
    /// The `--db` value is to blame: not a database fencelab knows, or one
    /// it could not reach, that refused it, or that stopped answering.
    Db {
        /// The value as given, with anything that may be a password
        /// replaced by `***`.
        shown: String,
        /// What went wrong, in the language asked for (no password either).
        cause: String,
    },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Scenario(message) => f.write_str(message),
            ReplayError::Db { shown, cause } => write!(f, "--db {shown}: {cause}"),
        }
    }
}

/// Replays `scenario` (whose model run is `trace`) on `db`: `sqlite` or a
/// `postgres://…` URL. Errors are in `lang`.
pub fn replay_db(
    scenario: &Scenario,
    trace: &Trace,
    db: &str,
    lang: Lang,
) -> Result<DbJson, ReplayError> {
    let redacted = url::Redacted::new(db);
    let blame_db = |failure: DbFailure| ReplayError::Db {
        shown: redacted.shown.clone(),
        cause: redacted.scrub(&failure.words(lang)),
    };
    let (engine, steps) = if db == "sqlite" {
        if let Some(index) = scenario
            .steps
            .iter()
            .position(|s| needs_row_locks(s.action))
        {
            let action = scenario.steps[index].action.name();
            return Err(ReplayError::Scenario(match lang {
                Lang::En => format!(
                    "step {index} ({action}) needs row locks and a connection per worker, which SQLite does not have; replay it with --db postgres://…"
                ),
                Lang::Zh => format!(
                    "第 {index} 步（{action}）需要行锁和每个 Worker 各自的连接，SQLite 没有；请用 --db postgres://… 重放"
                ),
            }));
        }
        let mut backend = sqlite::Sqlite::open(scenario)
            .map_err(|detail| blame_db(DbFailure::Other { detail }))?;
        let steps = replay(scenario, trace, &mut backend, Dialect::Sqlite, lang);
        ("sqlite", steps.map_err(blame_db)?)
    } else if db.starts_with("postgres://") || db.starts_with("postgresql://") {
        let mut backend = pg::Postgres::open(db, scenario).map_err(blame_db)?;
        let steps = replay(scenario, trace, &mut backend, Dialect::Postgres, lang);
        ("postgres", steps.map_err(blame_db)?)
    } else {
        return Err(blame_db(DbFailure::NotADatabase));
    };
    Ok(DbJson {
        engine,
        agrees: steps.iter().all(|s| s.agrees),
        steps,
    })
}

/// The `db` object of `run --json --db` for `scenario`: for the cross-crate
/// tests (the PostgreSQL differential), not an interface.
pub fn replay_json(scenario: &Scenario, db: &str) -> Result<serde_json::Value, String> {
    let trace = sim_core::run(scenario);
    let db = replay_db(scenario, &trace, db, Lang::En).map_err(|e| e.to_string())?;
    serde_json::to_value(&db).map_err(|e| e.to_string())
}

/// The application's side of one worker (or the user).
#[derive(Debug, Default, Clone)]
struct ActorState {
    crashed: bool,
    /// The step whose statement the server holds in a lock wait.
    waiting: Option<usize>,
    in_transaction: bool,
    current_job: Option<usize>,
    /// Token per job index (`None` inside: claimed, but carries none).
    tokens: BTreeMap<usize, Option<u64>>,
    /// What the last read of each job said: claimable or not.
    observed: BTreeMap<usize, bool>,
    /// Tokens as they were before the open transaction changed them.
    undo: BTreeMap<usize, Option<Option<u64>>>,
}

impl ActorState {
    fn set_token(&mut self, job: usize, token: Option<u64>) {
        if self.in_transaction && !self.undo.contains_key(&job) {
            self.undo.insert(job, self.tokens.get(&job).copied());
        }
        self.tokens.insert(job, token);
    }

    /// The transaction ended: a rollback takes back the tokens it handed out.
    fn end_transaction(&mut self, commit: bool) {
        let undo = std::mem::take(&mut self.undo);
        if !commit {
            for (job, before) in undo {
                match before {
                    Some(token) => self.tokens.insert(job, token),
                    None => self.tokens.remove(&job),
                };
            }
        }
        self.in_transaction = false;
    }
}

struct Replay<'a> {
    scenario: &'a Scenario,
    trace: &'a Trace,
    dialect: Dialect,
    actors: Vec<ActorState>,
    steps: Vec<DbStep>,
}

fn job_index(scenario: &Scenario, id: &str) -> Option<usize> {
    scenario.jobs.iter().position(|j| j == id)
}

fn as_int(value: Option<&SqlValue>) -> Option<i64> {
    match value {
        Some(SqlValue::Int(n)) => Some(*n),
        _ => None,
    }
}

fn as_text(value: Option<&SqlValue>) -> Option<String> {
    match value {
        Some(SqlValue::Text(t)) => Some(t.clone()),
        _ => None,
    }
}

/// Replays every step on `backend` and compares each with the model; stops
/// when the database stops answering.
fn replay(
    scenario: &Scenario,
    trace: &Trace,
    backend: &mut dyn Backend,
    dialect: Dialect,
    lang: Lang,
) -> Result<Vec<DbStep>, DbFailure> {
    let mut replay = Replay {
        scenario,
        trace,
        dialect,
        actors: vec![ActorState::default(); scenario.workers.len() + 1],
        steps: Vec::with_capacity(scenario.steps.len()),
    };
    for index in 0..scenario.steps.len() {
        replay.step(backend, index);
        if let Some(failure) = backend.gone() {
            backend.close();
            return Err(failure);
        }
    }
    backend.close();
    for index in 0..replay.steps.len() {
        let differences = replay.compare(index, lang);
        let step = &mut replay.steps[index];
        step.agrees = differences.is_empty();
        step.differences = differences;
    }
    Ok(replay.steps)
}

impl Replay<'_> {
    fn step(&mut self, backend: &mut dyn Backend, index: usize) {
        let scenario = self.scenario;
        let step = &scenario.steps[index];
        let actor = step.worker.map_or(scenario.workers.len(), usize::from);
        self.steps.push(DbStep::unsent(index));
        let db_now = sim_core::sql::lease_now(scenario, None, step.at);
        if let Err(message) = backend.set_clock(db_now) {
            self.steps[index].error = Some(message);
        }
        let state = &self.actors[actor];
        let job = step.job.map(usize::from).or(state.current_job).unwrap_or(0);
        let blocked = state.crashed || state.waiting.is_some();
        if step.action == Action::Crash {
            self.crash(backend, actor, step.at);
            return;
        }
        let binding = self.binding(index, actor, job);
        let job_u16 = u16::try_from(job).unwrap_or(0);
        let Some(statement) =
            sim_core::sql::statement(scenario, step, job_u16, &binding, self.dialect)
        else {
            return;
        };
        self.steps[index].sql = Some(statement.text.clone());
        self.steps[index].bindings = statement.bindings();
        if blocked {
            return;
        }
        if step.action == Action::UpdateClaim
            && self.actors[actor].observed.remove(&job) != Some(true)
        {
            // The application only claims a row its last read saw claimable.
            return;
        }
        self.steps[index].sent = true;
        match backend.send(actor, &statement) {
            Sent::Done(reply) => {
                self.apply(backend, actor, index, job, reply, None);
            }
            Sent::Waiting => {
                self.actors[actor].waiting = Some(index);
                self.steps[index].waiting = true;
            }
        }
        self.absorb(backend.settle(), step.at, backend);
    }

    /// The actor's connection closes: a statement it had waiting never
    /// runs, and its open transaction ends without a commit.
    fn crash(&mut self, backend: &mut dyn Backend, actor: usize, at: u64) {
        if let Some(waiting) = self.actors[actor].waiting.take() {
            // Sent, but it never ran: the connection closed under it.
            self.steps[waiting].waiting = false;
            self.steps[waiting].sent = false;
        }
        backend.crash(actor);
        let state = &mut self.actors[actor];
        state.end_transaction(false);
        state.crashed = true;
        self.absorb(backend.settle(), at, backend);
    }

    /// What step `index` binds, sent by `actor` on `job`.
    fn binding(&self, index: usize, actor: usize, job: usize) -> Binding {
        let scenario = self.scenario;
        let step = &scenario.steps[index];
        Binding {
            owner: step
                .worker
                .and_then(|w| scenario.workers.get(usize::from(w)))
                .map(|w| scenario.owner_id(w.owner).to_owned()),
            token: self.actors[actor].tokens.get(&job).copied().flatten(),
            // The random draw of a claim: the model's, when it granted the
            // claim; otherwise 0, a value no draw gives (the column is NOT
            // NULL, and a claim the database grants but the model refused is
            // a finding whatever it binds).
            new_token: match (scenario.design.token, self.trace.steps.get(index)) {
                (TokenKind::Random, Some(record)) if record.outcome == Outcome::Ok => record.token,
                (TokenKind::Random, _) => Some(0),
                _ => None,
            },
            now: sim_core::sql::lease_now(scenario, step.worker, step.at),
        }
    }

    /// Statements that finished waiting during the step at `at`.
    fn absorb(&mut self, done: Vec<(usize, Reply)>, at: u64, backend: &mut dyn Backend) {
        // Several statements released together ran one after another on the
        // server before the replay could look: the row after each one is not
        // observable, only the row after all of them.
        let together = done.len() > 1;
        for (actor, reply) in done {
            let Some(index) = self.actors.get_mut(actor).and_then(|a| a.waiting.take()) else {
                continue;
            };
            self.steps[index].waiting = false;
            let step = &self.scenario.steps[index];
            let job = step
                .job
                .map(usize::from)
                .or(self.actors[actor].current_job)
                .unwrap_or(0);
            self.apply(backend, actor, index, job, reply, Some(at));
            if together {
                self.steps[index].row = None;
            }
        }
    }

    /// Records a statement's reply and what the application learns from it.
    fn apply(
        &mut self,
        backend: &mut dyn Backend,
        actor: usize,
        index: usize,
        job: usize,
        reply: Reply,
        waited_until: Option<u64>,
    ) {
        self.steps[index].waited_until = waited_until;
        let answer = match reply {
            Ok(answer) => answer,
            Err(error) => {
                self.refused(actor, index, job, error);
                return;
            }
        };
        if let Some(job) = self.learn(actor, index, job, &answer) {
            if let Some(id) = self.scenario.jobs.get(job) {
                self.steps[index].row = backend.read_row(actor, id);
            }
        }
    }

    /// Records the error the database answered step `index` with.
    fn refused(&mut self, actor: usize, index: usize, job: usize, error: DbError) {
        let action = self.scenario.steps[index].action;
        let state = &mut self.actors[actor];
        if state.in_transaction {
            // The application rolls an aborted transaction back.
            state.end_transaction(false);
        }
        if action == Action::UpdateClaim {
            // The claim did not happen: the read that justified it is
            // not used up (as in the model).
            state.observed.insert(job, true);
        }
        let record = &mut self.steps[index];
        record.deadlock = error.deadlock;
        record.lock_not_available = error.lock_not_available;
        if !error.deadlock && !error.lock_not_available {
            record.error = Some(error.message);
        }
    }

    /// Records what the database answered step `index` (sent by `actor`
    /// on `job`) and what the application learns from it; returns the job
    /// whose row to read after it, if any.
    fn learn(&mut self, actor: usize, index: usize, job: usize, answer: &Answer) -> Option<usize> {
        let scenario = self.scenario;
        let action = scenario.steps[index].action;
        let record = &mut self.steps[index];
        let state = &mut self.actors[actor];
        let mut row_job = Some(job);
        match action {
            Action::Begin => state.in_transaction = true,
            Action::Commit | Action::Rollback => {
                state.end_transaction(action == Action::Commit);
                row_job = None;
            }
            Action::Claim | Action::ClaimNext | Action::UpdateClaim => {
                record.rows = Some(answer.affected);
                if let Some(first) = answer.rows.first() {
                    let claimed = as_text(first.first())
                        .and_then(|id| job_index(scenario, &id))
                        .unwrap_or(job);
                    let fence = as_int(first.get(1));
                    record.fence = fence;
                    record.job = scenario.jobs.get(claimed).cloned();
                    let token = match scenario.design.token {
                        TokenKind::None => None,
                        TokenKind::Monotonic | TokenKind::Random => {
                            fence.and_then(|f| u64::try_from(f).ok())
                        }
                    };
                    state.set_token(claimed, token);
                    state.current_job = Some(claimed);
                    row_job = Some(claimed);
                } else if action == Action::ClaimNext {
                    row_job = None;
                }
            }
            Action::Renew | Action::Finish | Action::Fail | Action::Cancel | Action::Revise => {
                record.rows = Some(answer.affected);
            }
            Action::Select
            | Action::SelectForUpdate
            | Action::SelectSkipLocked
            | Action::SelectNowait => match answer.rows.first() {
                Some(first) => {
                    let seen = as_text(first.first())
                        .and_then(|id| job_index(scenario, &id))
                        .unwrap_or(job);
                    let claimable = as_int(first.get(5)) == Some(1);
                    record.claimable = Some(claimable);
                    if action == Action::SelectSkipLocked {
                        record.job = scenario.jobs.get(seen).cloned();
                    }
                    state.observed.insert(seen, claimable);
                    state.current_job = Some(seen);
                    row_job = Some(seen);
                }
                None => row_job = None,
            },
            Action::Check => {
                record.lease_valid = answer.rows.first().map(|r| as_int(r.first()) == Some(1));
            }
            Action::Write
            | Action::Deliver
            | Action::Register
            | Action::Crash
            | Action::Pause
            | Action::Resume => {}
        }
        row_job
    }

    /// The differences between the database's step and the model's.
    fn compare(&self, index: usize, lang: Lang) -> Vec<String> {
        let db = &self.steps[index];
        let (Some(step), Some(model)) =
            (self.scenario.steps.get(index), self.trace.steps.get(index))
        else {
            return Vec::new();
        };
        if db.sql.is_none() {
            return Vec::new();
        }
        let says = Says(lang);
        if let Some(stopped) = self.stop_difference(index, model, db, says) {
            return stopped;
        }
        if db.waiting || db.deadlock || db.lock_not_available {
            return Vec::new();
        }
        let mut diffs = self.reply_differences(step, model, db, says);
        diffs.extend(self.read_differences(step, model, db, says));
        diffs
    }

    /// Whether the comparison ends before the statement's effect: with the
    /// one difference found (an error, a statement sent on one side only,
    /// a wait, deadlock or `NOWAIT` on one side only), or with none when
    /// neither side sent it. `None`: the comparison goes on.
    fn stop_difference(
        &self,
        index: usize,
        model: &StepTrace,
        db: &DbStep,
        says: Says,
    ) -> Option<Vec<String>> {
        if let Some(error) = &db.error {
            return Some(vec![match says.0 {
                Lang::En => format!("the database refused the statement: {error}"),
                Lang::Zh => format!("数据库拒绝了这条语句：{error}"),
            }]);
        }
        // Blocked, crashed, or an `update_claim` after a read that did not
        // see the row claimable: the model did not run it.
        let model_sent = sim_core::sql::step_sql(self.scenario, self.trace, index, self.dialect)
            .is_some_and(|sql| sql.sent);
        if model_sent != db.sent {
            return Some(vec![says.both(
                "sent",
                "已发送",
                says.yes_no(model_sent),
                says.yes_no(db.sent),
            )]);
        }
        if !db.sent {
            return Some(Vec::new());
        }
        // What stops a statement short, in the order the server reports it:
        // the first disagreement is the finding.
        [
            (
                "still waiting at the end",
                "结束时仍在等待",
                model.outcome == Outcome::Waiting,
                db.waiting,
            ),
            (
                "deadlock victim",
                "死锁牺牲者",
                model.reason == Some(Reason::Deadlock),
                db.deadlock,
            ),
            (
                "NOWAIT found the row locked",
                "NOWAIT 遇到行已被锁",
                model.reason == Some(Reason::LockNotAvailable),
                db.lock_not_available,
            ),
        ]
        .into_iter()
        .find(|(_, _, model_says, db_says)| model_says != db_says)
        .map(|(en, zh, model_says, db_says)| {
            vec![says.both(en, zh, says.yes_no(model_says), says.yes_no(db_says))]
        })
    }

    /// The differences in what a statement that ran on both sides did: when
    /// it ran, the rows it changed, the row it chose, the fence it handed out.
    fn reply_differences(
        &self,
        step: &Step,
        model: &StepTrace,
        db: &DbStep,
        says: Says,
    ) -> Vec<String> {
        let mut diffs = Vec::new();
        if model.waited_until != db.waited_until {
            diffs.push(says.both(
                "ran after a lock wait at",
                "等锁后执行的 tick",
                says.maybe(model.waited_until.map(|t| t.to_string())),
                says.maybe(db.waited_until.map(|t| t.to_string())),
            ));
        }
        let is_update = matches!(
            step.action,
            Action::Claim
                | Action::ClaimNext
                | Action::UpdateClaim
                | Action::Renew
                | Action::Finish
                | Action::Fail
                | Action::Cancel
                | Action::Revise
        );
        if is_update && model.rows.map(u64::from) != db.rows {
            diffs.push(says.both(
                "rows",
                "行数",
                says.maybe(model.rows.map(|r| r.to_string())),
                says.maybe(db.rows.map(|r| r.to_string())),
            ));
        }
        let model_job = match model.reason {
            Some(Reason::NoneAvailable) => None,
            _ => model.job.map(|j| self.scenario.job_id(j).to_owned()),
        };
        if matches!(step.action, Action::ClaimNext | Action::SelectSkipLocked)
            && model_job != db.job
        {
            diffs.push(says.both(
                "row chosen",
                "选中的行",
                says.maybe(model_job),
                says.maybe(db.job.clone()),
            ));
        }
        if matches!(
            step.action,
            Action::Claim | Action::ClaimNext | Action::UpdateClaim
        ) && model.outcome == Outcome::Ok
        {
            let model_fence = model.row.map(|r| r.fence);
            if model_fence.and_then(|f| i64::try_from(f).ok()) != db.fence {
                diffs.push(says.both(
                    "fence handed out",
                    "发出的 fence",
                    says.maybe(model_fence.map(|f| f.to_string())),
                    says.maybe(db.fence.map(|f| f.to_string())),
                ));
            }
        }
        diffs
    }

    /// The differences in what the application read: whether a row was
    /// claimable, whether the lease was valid, and the row after the step.
    fn read_differences(
        &self,
        step: &Step,
        model: &StepTrace,
        db: &DbStep,
        says: Says,
    ) -> Vec<String> {
        let mut diffs = Vec::new();
        if matches!(
            step.action,
            Action::Select | Action::SelectForUpdate | Action::SelectNowait
        ) {
            let model_claimable = model.reason == Some(Reason::Claimable);
            if db.claimable != Some(model_claimable) {
                diffs.push(says.both(
                    "the read saw the row claimable",
                    "读取时这一行可领取",
                    says.yes_no(model_claimable),
                    says.maybe(db.claimable.map(|v| says.yes_no(v))),
                ));
            }
        }
        if step.action == Action::Check && db.lease_valid != model.lease_valid {
            diffs.push(says.both(
                "lease valid",
                "租约有效",
                says.maybe(model.lease_valid.map(|v| says.yes_no(v))),
                says.maybe(db.lease_valid.map(|v| says.yes_no(v))),
            ));
        }
        if let (Some(row), Some(db_row)) = (model.row, &db.row) {
            let model_row = DbRow {
                owner: row.owner.map(|o| self.scenario.owner_id(o).to_owned()),
                lease_until: row.lease_until,
                fence: i64::try_from(row.fence).unwrap_or(i64::MAX),
                state: row.state.name().to_owned(),
            };
            if &model_row != db_row {
                diffs.push(says.both(
                    "row after the step",
                    "这一步之后的行",
                    row_words(&model_row),
                    row_words(db_row),
                ));
            }
        }
        diffs
    }
}

/// A finding's words in one language.
#[derive(Clone, Copy)]
struct Says(Lang);

impl Says {
    /// "what: model …, database …".
    fn both(self, what_en: &str, what_zh: &str, model: String, database: String) -> String {
        match self.0 {
            Lang::En => format!("{what_en}: model {model}, database {database}"),
            Lang::Zh => format!("{what_zh}：模型 {model}，数据库 {database}"),
        }
    }

    fn yes_no(self, value: bool) -> String {
        self.0
            .pick(
                if value { "yes" } else { "no" },
                if value { "是" } else { "否" },
            )
            .to_owned()
    }

    /// `value`, or "none".
    fn maybe(self, value: Option<String>) -> String {
        value.unwrap_or_else(|| self.0.pick("none", "无").to_owned())
    }
}

fn row_words(row: &DbRow) -> String {
    format!(
        "(owner {}, lease_until {}, fence {}, state {})",
        row.owner.as_deref().unwrap_or("NULL"),
        row.lease_until.map_or("NULL".to_owned(), |l| l.to_string()),
        row.fence,
        row.state
    )
}

/// The SELECT that reads a job row for comparison.
pub(crate) const ROW_QUERY: &str = "SELECT owner, lease_until, fence, state FROM jobs WHERE id = ";

/// Which kind a statement is, for the backends' choice of driver call.
pub(crate) fn returns_rows(statement: &Statement) -> bool {
    statement.kind == StatementKind::Select || statement.text.contains("RETURNING")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database that changes and returns nothing: every claim and commit
    /// must come out as a finding.
    struct Unmoved;

    impl Backend for Unmoved {
        fn set_clock(&mut self, _db_now: i64) -> Result<(), String> {
            Ok(())
        }
        fn send(&mut self, _actor: usize, _statement: &Statement) -> Sent {
            Sent::Done(Ok(Answer::default()))
        }
        fn settle(&mut self) -> Vec<(usize, Reply)> {
            Vec::new()
        }
        fn read_row(&mut self, _actor: usize, _job: &str) -> Option<DbRow> {
            None
        }
        fn crash(&mut self, _actor: usize) {}
        fn close(&mut self) {}
    }

    /// A database where every `NOWAIT` finds its row locked (SQLSTATE
    /// 55P03) and nothing else changes anything.
    struct AlwaysLocked;

    impl Backend for AlwaysLocked {
        fn set_clock(&mut self, _db_now: i64) -> Result<(), String> {
            Ok(())
        }
        fn send(&mut self, _actor: usize, statement: &Statement) -> Sent {
            if statement.text.ends_with("NOWAIT") {
                Sent::Done(Err(DbError {
                    deadlock: false,
                    lock_not_available: true,
                    message: "55P03: could not obtain lock on row".to_owned(),
                }))
            } else {
                Sent::Done(Ok(Answer::default()))
            }
        }
        fn settle(&mut self) -> Vec<(usize, Reply)> {
            Vec::new()
        }
        fn read_row(&mut self, _actor: usize, _job: &str) -> Option<DbRow> {
            None
        }
        fn crash(&mut self, _actor: usize) {}
        fn close(&mut self) {}
    }

    /// An example scenario and its model run.
    fn example(name: &str) -> (Scenario, Trace) {
        let path = format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read(path).unwrap_or_default();
        let Ok(scenario) = sim_core::parse_scenario(&text) else {
            panic!("{name} parses");
        };
        let trace = sim_core::run(&scenario);
        (scenario, trace)
    }

    #[test]
    fn a_nowait_refused_by_the_database_is_compared_with_the_model() {
        let (scenario, trace) = example("18-nowait.toml");
        let Ok(steps) = replay(
            &scenario,
            &trace,
            &mut AlwaysLocked,
            Dialect::Postgres,
            Lang::En,
        ) else {
            panic!("the mock database never goes away");
        };
        // A's NOWAIT found r1 free in the model: a finding.
        assert_eq!(
            steps[1].differences,
            ["NOWAIT found the row locked: model no, database yes"]
        );
        // B's found it locked in both, and nothing else is said of it.
        assert!(steps[3].lock_not_available && steps[3].error.is_none());
        assert!(steps[3].agrees, "{:?}", steps[3]);
    }

    #[test]
    fn a_database_that_disagrees_gives_findings_in_both_languages() {
        let (scenario, trace) = example("01-article-stale-finish.toml");
        for lang in [Lang::En, Lang::Zh] {
            let Ok(steps) = replay(&scenario, &trace, &mut Unmoved, Dialect::Sqlite, lang) else {
                panic!("the mock database never goes away");
            };
            assert!(!steps[0].agrees, "{:?}", steps[0]);
            assert!(steps[2].agrees, "A's finish changes 0 rows in both");
            assert!(!steps[3].agrees);
            let expected = lang.pick("rows: model 1, database 0", "行数：模型 1，数据库 0");
            assert_eq!(
                steps[0].differences.first().map(String::as_str),
                Some(expected)
            );
        }
    }
}
