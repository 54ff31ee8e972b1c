//! The PostgreSQL backend: one connection per worker and one for the user,
//! in a fresh schema per run, plus a monitor connection that sets the
//! simulated clock and watches the server's lock table. The connections run
//! on one tokio runtime (a worker thread of its own, so a statement out on
//! one connection progresses while the replay asks the monitor about it).
//!
//! A statement is *waiting* when the server says so: `pg_blocking_pids` of
//! its backend is not empty. No wall-clock guess decides it; the replay polls
//! until the statement has either returned or is blocked. The deadlock
//! victim is the server's choice: PostgreSQL checks a wait for a cycle once,
//! `deadlock_timeout` after it began (`pg_locks.waitstart`), and aborts the
//! waiter whose check finds the cycle. The replay sets `deadlock_timeout` to
//! 20 ms on its connections and lets every new wait pass three of them on
//! the server's clock before the next step, so an earlier wait has always
//! been checked (and found no cycle) before a later statement closes one:
//! the statement that closes the cycle is the victim, the model's rule.
//!
//! Nothing waits without a bound. Connecting (name lookup, TCP, start-up,
//! authentication) has [`CONNECT_BOUND`], or the URL's `connect_timeout`.
//! The replay's own statements (schema, clock, monitor, row reads) have
//! [`ANSWER_BOUND`]: a server silent that long is gone, and the replay stops
//! with that cause. A worker's statement may wait for a lock as long as the
//! scenario holds it, which the monitor sees; one that neither answers nor
//! waits for a lock is given up after [`PATIENCE`].

use std::future::Future;
use std::str::FromStr as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sim_core::Scenario;
use sim_core::sql::{Dialect, SqlValue, Statement, StatementKind};
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;
use tokio_postgres::config::Host;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Config, NoTls};

use super::{Answer, Backend, DbError, DbRow, ROW_QUERY, Reply, Sent, returns_rows};
use crate::failure::DbFailure;

/// The lock-wait check's period on the client side: how often the replay
/// asks the server; correctness does not depend on it.
const POLL: Duration = Duration::from_millis(2);
/// `deadlock_timeout` the replay asks for on its connections.
const DEADLOCK_TIMEOUT_MS: f64 = 20.0;
/// How long the replay waits for a worker's statement that neither answers
/// nor is reported in a lock wait (the server answers the monitor, so it is
/// alive) before it gives the statement up: a bound, not a guess at lock
/// waits, which the server reports itself.
const PATIENCE: Duration = Duration::from_secs(60);
/// Connecting, when the URL gives no `connect_timeout` (libpq waits
/// forever; fencelab does not): a local or LAN server connects in
/// milliseconds, a distant one in well under a second.
const CONNECT_BOUND: Duration = Duration::from_secs(10);
/// An answer to one of the replay's own statements (one row of a table of
/// at most 256 rows, or a catalogue query): milliseconds on any live
/// server; ten seconds of silence means it is not answering.
const ANSWER_BOUND: Duration = Duration::from_secs(10);

struct Conn {
    pid: i32,
    /// `None` once the actor crashed: its connection is closed.
    client: Option<Arc<Client>>,
    /// The statement out on this connection that the server holds in a lock
    /// wait.
    pending: Option<JoinHandle<Reply>>,
}

pub(crate) struct Postgres {
    /// Dropped without waiting (see `Drop`): a name lookup that outlived its
    /// bound may still be running on a blocking thread.
    runtime: Option<Runtime>,
    monitor: Client,
    schema: String,
    conns: Vec<Conn>,
    /// The server's `deadlock_timeout` on the replay's connections, in ms.
    deadlock_timeout_ms: f64,
    /// Set when the server stopped answering: every later call returns at
    /// once, and the replay stops.
    gone: Option<DbFailure>,
}

fn pg_error(error: &tokio_postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => error.to_string(),
    }
}

/// The error and its causes, `: `-separated (tokio-postgres words its kind
/// only, "error connecting to server", and puts the reason in the source).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut words = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        words.push_str(": ");
        words.push_str(&cause.to_string());
        source = cause.source();
    }
    words
}

/// The cause of a failed connection attempt.
fn connect_failure(error: &tokio_postgres::Error, bound: Duration) -> DbFailure {
    if let Some(db) = error.as_db_error() {
        // Class 28: invalid authorization specification (28000: no
        // pg_hba.conf entry, …; 28P01: wrong password).
        if db.code().code().starts_with("28") {
            return DbFailure::Authentication {
                server_said: Some(db.message().to_owned()),
            };
        }
        return DbFailure::Other {
            detail: pg_error(error),
        };
    }
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::NotFound => {
                    return DbFailure::Refused;
                }
                // tokio-postgres's own `connect_timeout` on the TCP connect.
                std::io::ErrorKind::TimedOut => return DbFailure::ConnectTimedOut { bound },
                _ => {}
            }
        }
        // The server asked for a password and the URL has none: the client
        // gives up before answering (its error kind is not public; its
        // words are, and the tests pin them).
        if cause.to_string() == "password missing" {
            return DbFailure::Authentication { server_said: None };
        }
        source = cause.source();
    }
    DbFailure::Other {
        detail: error_chain(error),
    }
}

/// Every TCP host of `config` resolves (an unknown host is a cause of its
/// own; tokio-postgres would report it as an I/O error like any other).
async fn resolve_hosts(config: &Config) -> Result<(), DbFailure> {
    if !config.get_hostaddrs().is_empty() {
        return Ok(());
    }
    for (i, host) in config.get_hosts().iter().enumerate() {
        if let Host::Tcp(name) = host {
            // tokio-postgres's rule: the host's own port, else the first.
            let port = config
                .get_ports()
                .get(i)
                .or_else(|| config.get_ports().first())
                .copied()
                .unwrap_or(5432);
            if tokio::net::lookup_host((name.as_str(), port))
                .await
                .is_err()
            {
                return Err(DbFailure::UnknownHost);
            }
        }
    }
    Ok(())
}

/// One connection, within `bound` from the first name lookup to the end of
/// authentication; its I/O runs on `runtime`.
fn connect(runtime: &Runtime, config: &Config, bound: Duration) -> Result<Client, DbFailure> {
    runtime.block_on(async {
        let attempt = async {
            resolve_hosts(config).await?;
            let (client, connection) = config
                .connect(NoTls)
                .await
                .map_err(|error| connect_failure(&error, bound))?;
            // Ends when every handle to the client is dropped (it then
            // closes the session) or the server closes it.
            tokio::spawn(async move {
                let _ = connection.await;
            });
            Ok(client)
        };
        tokio::time::timeout(bound, attempt)
            .await
            .unwrap_or(Err(DbFailure::ConnectTimedOut { bound }))
    })
}

/// `future`, one of the replay's own statements, awaited within
/// [`ANSWER_BOUND`]. Silence past it sets `gone`; nothing is sent once it is
/// set.
fn answered<T>(
    runtime: &Runtime,
    gone: &mut Option<DbFailure>,
    future: impl Future<Output = Result<T, tokio_postgres::Error>>,
) -> Result<T, String> {
    let silent = || {
        format!(
            "no answer from the server within {} s",
            ANSWER_BOUND.as_secs()
        )
    };
    if gone.is_some() {
        return Err(silent());
    }
    let outcome = runtime.block_on(async { tokio::time::timeout(ANSWER_BOUND, future).await });
    match outcome {
        Ok(result) => result.map_err(|error| pg_error(&error)),
        Err(_) => {
            *gone = Some(DbFailure::AnswerTimedOut {
                bound: ANSWER_BOUND,
            });
            Err(silent())
        }
    }
}

/// The failure behind a setup step that went wrong: silence, or the
/// server's refusal.
fn setup_failure(gone: Option<&DbFailure>, said: String) -> DbFailure {
    gone.cloned().unwrap_or(DbFailure::Other { detail: said })
}

impl Postgres {
    pub(crate) fn open(url: &str, scenario: &Scenario) -> Result<Postgres, DbFailure> {
        let config = Config::from_str(url).map_err(|error| DbFailure::Other {
            detail: error_chain(&error),
        })?;
        // libpq's `connect_timeout` (whole seconds; 0 or absent means
        // "forever", which fencelab does not do).
        let bound = config
            .get_connect_timeout()
            .copied()
            .unwrap_or(CONNECT_BOUND);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|error| DbFailure::Other {
                detail: error.to_string(),
            })?;
        let monitor = match connect(&runtime, &config, bound) {
            Ok(monitor) => monitor,
            Err(failure) => {
                // Without waiting for a name lookup past its bound.
                runtime.shutdown_background();
                return Err(failure);
            }
        };
        // A fresh schema per run, so that parallel runs never meet.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let schema = format!("fencelab_{}_{nanos}", std::process::id());
        let mut gone = None;
        let created = answered(
            &runtime,
            &mut gone,
            monitor.batch_execute(&format!(
                "CREATE SCHEMA {schema}; SET search_path TO {schema}"
            )),
        );
        if let Err(said) = created {
            runtime.shutdown_background();
            return Err(setup_failure(gone.as_ref(), said));
        }
        let mut this = Postgres {
            runtime: Some(runtime),
            monitor,
            schema,
            conns: Vec::new(),
            deadlock_timeout_ms: DEADLOCK_TIMEOUT_MS,
            gone,
        };
        if let Err(failure) = this.set_up(scenario, &config, bound) {
            // Drops the schema (unless the server is gone).
            this.close();
            return Err(failure);
        }
        Ok(this)
    }

    /// The job table, then a connection per worker and one for the user.
    fn set_up(
        &mut self,
        scenario: &Scenario,
        config: &Config,
        bound: Duration,
    ) -> Result<(), DbFailure> {
        let Some(runtime) = &self.runtime else {
            return Ok(());
        };
        let gone = &mut self.gone;
        for statement in sim_core::sql::schema(scenario, Dialect::Postgres) {
            answered(runtime, gone, self.monitor.batch_execute(&statement))
                .map_err(|said| setup_failure(gone.as_ref(), said))?;
        }
        for _ in 0..=scenario.workers.len() {
            let client = connect(runtime, config, bound)?;
            let search_path = format!("SET search_path TO {}", self.schema);
            answered(runtime, gone, client.batch_execute(&search_path))
                .map_err(|said| setup_failure(gone.as_ref(), said))?;
            // Needs a superuser; without it the server's own value stands.
            let deadlock_timeout = format!("SET deadlock_timeout = '{DEADLOCK_TIMEOUT_MS}ms'");
            let _ = answered(runtime, gone, client.batch_execute(&deadlock_timeout));
            let row = answered(
                runtime,
                gone,
                client.query_one(
                    "SELECT pg_backend_pid(), setting::float8 FROM pg_settings \
                     WHERE name = 'deadlock_timeout'",
                    &[],
                ),
            )
            .map_err(|said| setup_failure(gone.as_ref(), said))?;
            let pid: i32 = row.get(0);
            let timeout: f64 = row.get(1);
            self.deadlock_timeout_ms = self.deadlock_timeout_ms.max(timeout);
            self.conns.push(Conn {
                pid,
                client: Some(Arc::new(client)),
                pending: None,
            });
        }
        Ok(())
    }

    /// One row from the monitor connection, within [`ANSWER_BOUND`].
    fn monitor_row(
        &mut self,
        query: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<tokio_postgres::Row, String> {
        let Some(runtime) = &self.runtime else {
            return Err("no runtime".to_owned());
        };
        answered(
            runtime,
            &mut self.gone,
            self.monitor.query_one(query, params),
        )
    }

    /// Whether the backend `pid` is blocked by another, and for how many
    /// milliseconds (server clock) it has waited.
    fn blocked(&mut self, pid: i32) -> (bool, f64) {
        let row = self.monitor_row(
            "SELECT cardinality(pg_blocking_pids($1)) > 0, \
             COALESCE((SELECT extract(epoch FROM clock_timestamp() - min(waitstart)) * 1000 \
                       FROM pg_locks WHERE pid = $1 AND NOT granted), 0)::float8",
            &[&pid],
        );
        match row {
            Ok(row) => (row.get(0), row.get(1)),
            // The monitor connection is gone: report the statement as
            // waiting rather than poll forever (the comparison will say so).
            Err(_) => (true, f64::INFINITY),
        }
    }

    /// Blocked long enough that the server has checked this wait for a
    /// deadlock (see the module docs).
    fn settled_wait(&mut self, pid: i32) -> bool {
        let (blocked, waited_ms) = self.blocked(pid);
        blocked && waited_ms > 3.0 * self.deadlock_timeout_ms
    }

    /// The reply of a finished (or finishing) statement task.
    fn reply_of(&self, task: JoinHandle<Reply>) -> Reply {
        let Some(runtime) = &self.runtime else {
            return Err(closed());
        };
        runtime.block_on(task).unwrap_or_else(|_| Err(closed()))
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

fn closed() -> DbError {
    DbError {
        deadlock: false,
        lock_not_available: false,
        message: "the connection closed".to_owned(),
    }
}

/// Runs one statement of a worker (or the user) and, after an error, ends
/// the aborted transaction as the application would.
async fn run(
    client: Arc<Client>,
    text: String,
    values: Vec<SqlValue>,
    control: bool,
    returns: bool,
) -> Reply {
    let result = if control {
        client
            .batch_execute(&text)
            .await
            .map(|()| Answer::default())
    } else {
        let owned: Vec<Box<dyn ToSql + Sync + Send>> = values
            .into_iter()
            .map(|v| -> Box<dyn ToSql + Sync + Send> {
                match v {
                    SqlValue::Null => Box::new(Option::<i64>::None),
                    SqlValue::Int(n) => Box::new(n),
                    SqlValue::Text(t) => Box::new(t),
                }
            })
            .collect();
        let params: Vec<&(dyn ToSql + Sync)> = owned
            .iter()
            .map(|v| -> &(dyn ToSql + Sync) { v.as_ref() })
            .collect();
        if returns {
            client.query(&text, &params).await.map(|rows| Answer {
                affected: rows.len() as u64,
                rows: rows.iter().map(row_values).collect(),
            })
        } else {
            client.execute(&text, &params).await.map(|affected| Answer {
                affected,
                rows: Vec::new(),
            })
        }
    };
    match result {
        Ok(answer) => Ok(answer),
        Err(error) => {
            let deadlock = error.code() == Some(&SqlState::T_R_DEADLOCK_DETECTED);
            let lock_not_available = error.code() == Some(&SqlState::LOCK_NOT_AVAILABLE);
            // The application ends an aborted transaction (outside one this
            // is a harmless warning).
            let _ = client.batch_execute("ROLLBACK").await;
            Err(DbError {
                deadlock,
                lock_not_available,
                message: pg_error(&error),
            })
        }
    }
}

fn row_values(row: &tokio_postgres::Row) -> Vec<SqlValue> {
    (0..row.len())
        .map(|k| {
            let ty = row.columns()[k].type_().clone();
            let value = if ty == Type::INT8 {
                row.try_get::<_, Option<i64>>(k)
                    .ok()
                    .flatten()
                    .map(SqlValue::Int)
            } else if ty == Type::INT4 {
                row.try_get::<_, Option<i32>>(k)
                    .ok()
                    .flatten()
                    .map(|n| SqlValue::Int(i64::from(n)))
            } else if ty == Type::BOOL {
                row.try_get::<_, Option<bool>>(k)
                    .ok()
                    .flatten()
                    .map(|b| SqlValue::Int(i64::from(b)))
            } else {
                row.try_get::<_, Option<String>>(k)
                    .ok()
                    .flatten()
                    .map(SqlValue::Text)
            };
            value.unwrap_or(SqlValue::Null)
        })
        .collect()
}

impl Backend for Postgres {
    fn set_clock(&mut self, db_now: i64) -> Result<(), String> {
        let Some(runtime) = &self.runtime else {
            return Ok(());
        };
        answered(
            runtime,
            &mut self.gone,
            self.monitor
                .execute("UPDATE sim_clock SET now = $1", &[&db_now]),
        )
        .map(|_| ())
    }

    fn send(&mut self, actor: usize, statement: &Statement) -> Sent {
        let (text, values) = statement.positional(Dialect::Postgres);
        let (Some(runtime), Some(conn)) = (&self.runtime, self.conns.get(actor)) else {
            return Sent::Done(Err(DbError {
                deadlock: false,
                lock_not_available: false,
                message: "no connection".to_owned(),
            }));
        };
        let Some(client) = conn.client.clone() else {
            return Sent::Done(Err(DbError {
                deadlock: false,
                lock_not_available: false,
                message: "no connection".to_owned(),
            }));
        };
        let pid = conn.pid;
        let mut task = runtime.spawn(run(
            client,
            text,
            values.into_iter().cloned().collect(),
            statement.kind == StatementKind::Control,
            returns_rows(statement),
        ));
        let deadline = Instant::now() + PATIENCE;
        loop {
            if self.gone.is_some() {
                task.abort();
                return Sent::Done(Err(closed()));
            }
            if Instant::now() > deadline {
                task.abort();
                // Ends the backend so nothing it holds outlives the replay.
                self.crash(actor);
                return Sent::Done(Err(DbError {
                    deadlock: false,
                    lock_not_available: false,
                    message: format!("no answer from the server within {} s", PATIENCE.as_secs()),
                }));
            }
            let Some(runtime) = &self.runtime else {
                return Sent::Done(Err(closed()));
            };
            let answer = runtime.block_on(async { tokio::time::timeout(POLL, &mut task).await });
            match answer {
                Ok(Ok(reply)) => return Sent::Done(reply),
                Ok(Err(_)) => return Sent::Done(Err(closed())),
                Err(_) => {
                    if self.settled_wait(pid) {
                        // The server's deadlock check of this wait has run;
                        // had it found a cycle, the answer is already here.
                        if task.is_finished() {
                            return Sent::Done(self.reply_of(task));
                        }
                        if let Some(conn) = self.conns.get_mut(actor) {
                            conn.pending = Some(task);
                        }
                        return Sent::Waiting;
                    }
                }
            }
        }
    }

    fn settle(&mut self) -> Vec<(usize, Reply)> {
        let mut done = Vec::new();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let mut unsettled = false;
            for actor in 0..self.conns.len() {
                let Some(task) = self.conns[actor].pending.take() else {
                    continue;
                };
                if task.is_finished() {
                    let reply = self.reply_of(task);
                    done.push((actor, reply));
                    unsettled = true;
                } else {
                    self.conns[actor].pending = Some(task);
                    let pid = self.conns[actor].pid;
                    if !self.settled_wait(pid) {
                        unsettled = true;
                    }
                }
            }
            // Past the deadline, what has not answered stays waiting.
            if !unsettled || self.gone.is_some() || Instant::now() > deadline {
                return done;
            }
            std::thread::sleep(POLL);
        }
    }

    fn read_row(&mut self, actor: usize, job: &str) -> Option<DbRow> {
        let client = self.conns.get(actor)?.client.clone()?;
        let runtime = self.runtime.as_ref()?;
        let query = format!("{ROW_QUERY}$1");
        let row = answered(runtime, &mut self.gone, client.query_opt(&query, &[&job]))
            .ok()
            .flatten()?;
        Some(DbRow {
            owner: row.get(0),
            lease_until: row.get(1),
            fence: row.get(2),
            state: row.get(3),
        })
    }

    fn crash(&mut self, actor: usize) {
        let Some(conn) = self.conns.get_mut(actor) else {
            return;
        };
        let Some(client) = conn.client.take() else {
            return;
        };
        let pid = conn.pid;
        let task = conn.pending.take();
        // The server sees the connection close: it rolls back and frees locks.
        let _ = self.monitor_row("SELECT pg_terminate_backend($1)", &[&pid]);
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline
            && self
                .monitor_row(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                    &[&pid],
                )
                .is_ok_and(|row| row.get::<_, i64>(0) > 0)
        {
            std::thread::sleep(POLL);
        }
        if let Some(task) = task {
            task.abort();
        }
        drop(client);
    }

    fn close(&mut self) {
        for k in 0..self.conns.len() {
            let pid = self.conns[k].pid;
            if let Some(task) = self.conns[k].pending.take() {
                if self.conns[k].client.is_some() {
                    let _ = self.monitor_row("SELECT pg_terminate_backend($1)", &[&pid]);
                }
                task.abort();
            }
            // The last handle: the connection ends its session.
            self.conns[k].client = None;
        }
        if let Some(runtime) = &self.runtime {
            let drop_schema = format!("DROP SCHEMA {} CASCADE", self.schema);
            let _ = answered(
                runtime,
                &mut self.gone,
                self.monitor.batch_execute(&drop_schema),
            );
        }
    }

    fn gone(&self) -> Option<DbFailure> {
        self.gone.clone()
    }
}
