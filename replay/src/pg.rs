//! The PostgreSQL backend: one connection (and one client thread) per worker
//! and one for the user, in a fresh schema per run, plus a monitor connection
//! that sets the simulated clock and watches the server's lock table.
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

use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Duration;

use postgres::error::SqlState;
use postgres::types::{ToSql, Type};
use postgres::{Client, NoTls};
use sim_core::Scenario;
use sim_core::sql::{Dialect, SqlValue, Statement, StatementKind};

use super::{Answer, Backend, DbError, DbRow, ROW_QUERY, Reply, Sent, returns_rows};

/// The lock-wait check's period on the client side: how often the replay
/// asks the server; correctness does not depend on it.
const POLL: Duration = Duration::from_millis(2);
/// `deadlock_timeout` the replay asks for on its connections.
const DEADLOCK_TIMEOUT_MS: f64 = 20.0;
/// How long the replay waits for a server that neither answers nor reports
/// a lock wait (a hung server or network) before it gives the statement up:
/// a bound, not a guess at lock waits, which the server reports itself.
const PATIENCE: Duration = Duration::from_secs(60);

enum Request {
    Run {
        text: String,
        values: Vec<SqlValue>,
        control: bool,
        returns: bool,
    },
    ReadRow(String),
}

enum Response {
    Statement(Reply),
    Row(Option<DbRow>),
}

struct Conn {
    pid: i32,
    requests: Option<Sender<Request>>,
    responses: Receiver<Response>,
    thread: Option<JoinHandle<()>>,
    /// A statement is out and has not answered yet.
    pending: bool,
    crashed: bool,
}

pub(crate) struct Postgres {
    monitor: Client,
    schema: String,
    conns: Vec<Conn>,
    /// The server's `deadlock_timeout` on the replay's connections, in ms.
    deadlock_timeout_ms: f64,
}

fn pg_error(error: &postgres::Error) -> String {
    match error.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => error.to_string(),
    }
}

impl Postgres {
    pub(crate) fn open(url: &str, scenario: &Scenario) -> Result<Postgres, String> {
        let connect = || Client::connect(url, NoTls).map_err(|e| pg_error(&e));
        let mut monitor = connect()?;
        // A fresh schema per run, so that parallel runs never meet.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let schema = format!("fencelab_{}_{nanos}", std::process::id());
        monitor
            .batch_execute(&format!(
                "CREATE SCHEMA {schema}; SET search_path TO {schema}"
            ))
            .map_err(|e| pg_error(&e))?;
        let mut this = Postgres {
            monitor,
            schema,
            conns: Vec::new(),
            deadlock_timeout_ms: DEADLOCK_TIMEOUT_MS,
        };
        for statement in sim_core::sql::schema(scenario, Dialect::Postgres) {
            this.monitor
                .batch_execute(&statement)
                .map_err(|e| pg_error(&e))?;
        }
        for _ in 0..=scenario.workers.len() {
            let mut client = connect()?;
            client
                .batch_execute(&format!("SET search_path TO {}", this.schema))
                .map_err(|e| pg_error(&e))?;
            // Needs a superuser; without it the server's own value stands.
            let _ =
                client.batch_execute(&format!("SET deadlock_timeout = '{DEADLOCK_TIMEOUT_MS}ms'"));
            let row = client
                .query_one(
                    "SELECT pg_backend_pid(), setting::float8 FROM pg_settings \
                     WHERE name = 'deadlock_timeout'",
                    &[],
                )
                .map_err(|e| pg_error(&e))?;
            let pid: i32 = row.get(0);
            let timeout: f64 = row.get(1);
            this.deadlock_timeout_ms = this.deadlock_timeout_ms.max(timeout);
            let (requests, inbox) = channel();
            let (outbox, responses) = channel();
            let thread = std::thread::spawn(move || serve(client, &inbox, &outbox));
            this.conns.push(Conn {
                pid,
                requests: Some(requests),
                responses,
                thread: Some(thread),
                pending: false,
                crashed: false,
            });
        }
        Ok(this)
    }

    /// Whether the backend `pid` is blocked by another, and for how many
    /// milliseconds (server clock) it has waited.
    fn blocked(&mut self, pid: i32) -> (bool, f64) {
        let row = self.monitor.query_one(
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

    fn conn(&mut self, actor: usize) -> Option<&mut Conn> {
        self.conns.get_mut(actor).filter(|c| !c.crashed)
    }
}

/// One client's thread: runs what it is asked, in order.
fn serve(mut client: Client, inbox: &Receiver<Request>, outbox: &Sender<Response>) {
    while let Ok(request) = inbox.recv() {
        let response = match request {
            Request::Run {
                text,
                values,
                control,
                returns,
            } => Response::Statement(run(&mut client, &text, &values, control, returns)),
            Request::ReadRow(job) => Response::Row(read_row(&mut client, &job)),
        };
        if outbox.send(response).is_err() {
            break;
        }
    }
}

fn run(
    client: &mut Client,
    text: &str,
    values: &[SqlValue],
    control: bool,
    returns: bool,
) -> Reply {
    let result = if control {
        client.batch_execute(text).map(|()| Answer::default())
    } else {
        let owned: Vec<Box<dyn ToSql + Sync>> = values
            .iter()
            .map(|v| -> Box<dyn ToSql + Sync> {
                match v {
                    SqlValue::Null => Box::new(Option::<i64>::None),
                    SqlValue::Int(n) => Box::new(*n),
                    SqlValue::Text(t) => Box::new(t.clone()),
                }
            })
            .collect();
        let params: Vec<&(dyn ToSql + Sync)> = owned.iter().map(AsRef::as_ref).collect();
        if returns {
            client.query(text, &params).map(|rows| Answer {
                affected: rows.len() as u64,
                rows: rows.iter().map(row_values).collect(),
            })
        } else {
            client.execute(text, &params).map(|affected| Answer {
                affected,
                rows: Vec::new(),
            })
        }
    };
    result.map_err(|error| {
        let deadlock = error.code() == Some(&SqlState::T_R_DEADLOCK_DETECTED);
        let lock_not_available = error.code() == Some(&SqlState::LOCK_NOT_AVAILABLE);
        // The application ends an aborted transaction (outside one this is
        // a harmless warning).
        let _ = client.batch_execute("ROLLBACK");
        DbError {
            deadlock,
            lock_not_available,
            message: pg_error(&error),
        }
    })
}

fn row_values(row: &postgres::Row) -> Vec<SqlValue> {
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

fn read_row(client: &mut Client, job: &str) -> Option<DbRow> {
    let row = client
        .query_opt(&format!("{ROW_QUERY}$1"), &[&job])
        .ok()
        .flatten()?;
    Some(DbRow {
        owner: row.get(0),
        lease_until: row.get(1),
        fence: row.get(2),
        state: row.get(3),
    })
}

impl Backend for Postgres {
    fn set_clock(&mut self, db_now: i64) -> Result<(), String> {
        self.monitor
            .execute("UPDATE sim_clock SET now = $1", &[&db_now])
            .map(|_| ())
            .map_err(|e| pg_error(&e))
    }

    fn send(&mut self, actor: usize, statement: &Statement) -> Sent {
        let (text, values) = statement.positional(Dialect::Postgres);
        let request = Request::Run {
            text,
            values: values.into_iter().cloned().collect(),
            control: statement.kind == StatementKind::Control,
            returns: returns_rows(statement),
        };
        let Some(conn) = self.conn(actor) else {
            return Sent::Done(Err(DbError {
                deadlock: false,
                lock_not_available: false,
                message: "no connection".to_owned(),
            }));
        };
        let pid = conn.pid;
        if conn
            .requests
            .as_ref()
            .is_none_or(|requests| requests.send(request).is_err())
        {
            return Sent::Done(Err(DbError {
                deadlock: false,
                lock_not_available: false,
                message: "the connection's thread ended".to_owned(),
            }));
        }
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            if std::time::Instant::now() > deadline {
                // Ends the backend so nothing it holds outlives the replay.
                self.crash(actor);
                return Sent::Done(Err(DbError {
                    deadlock: false,
                    lock_not_available: false,
                    message: format!("no answer from the server within {} s", PATIENCE.as_secs()),
                }));
            }
            let answer = self.conns[actor].responses.recv_timeout(POLL);
            match answer {
                Ok(Response::Statement(reply)) => return Sent::Done(reply),
                Ok(Response::Row(_)) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Sent::Done(Err(DbError {
                        deadlock: false,
                        lock_not_available: false,
                        message: "the connection closed".to_owned(),
                    }));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if self.settled_wait(pid) {
                        // The server's deadlock check of this wait has run;
                        // had it found a cycle, the answer is already here.
                        if let Ok(Response::Statement(reply)) =
                            self.conns[actor].responses.try_recv()
                        {
                            return Sent::Done(reply);
                        }
                        self.conns[actor].pending = true;
                        return Sent::Waiting;
                    }
                }
            }
        }
    }

    fn settle(&mut self) -> Vec<(usize, Reply)> {
        let mut done = Vec::new();
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let mut unsettled = false;
            for actor in 0..self.conns.len() {
                if !self.conns[actor].pending || self.conns[actor].crashed {
                    continue;
                }
                match self.conns[actor].responses.try_recv() {
                    Ok(Response::Statement(reply)) => {
                        self.conns[actor].pending = false;
                        done.push((actor, reply));
                        unsettled = true;
                    }
                    _ => {
                        let pid = self.conns[actor].pid;
                        if !self.settled_wait(pid) {
                            unsettled = true;
                        }
                    }
                }
            }
            // Past the deadline, what has not answered stays waiting.
            if !unsettled || std::time::Instant::now() > deadline {
                return done;
            }
            std::thread::sleep(POLL);
        }
    }

    fn read_row(&mut self, actor: usize, job: &str) -> Option<DbRow> {
        let conn = self.conn(actor)?;
        conn.requests
            .as_ref()?
            .send(Request::ReadRow(job.to_owned()))
            .ok()?;
        match conn.responses.recv() {
            Ok(Response::Row(row)) => row,
            _ => None,
        }
    }

    fn crash(&mut self, actor: usize) {
        let Some(conn) = self.conn(actor) else {
            return;
        };
        let pid = conn.pid;
        conn.crashed = true;
        conn.pending = false;
        conn.requests = None;
        // The server sees the connection close: it rolls back and frees locks.
        let _ = self
            .monitor
            .execute("SELECT pg_terminate_backend($1)", &[&pid]);
        let deadline = std::time::Instant::now() + PATIENCE;
        while std::time::Instant::now() < deadline
            && self
                .monitor
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                    &[&pid],
                )
                .is_ok_and(|row| row.get::<_, i64>(0) > 0)
        {
            std::thread::sleep(POLL);
        }
    }

    fn close(&mut self) {
        for conn in &mut self.conns {
            if conn.pending && !conn.crashed {
                let _ = self
                    .monitor
                    .execute("SELECT pg_terminate_backend($1)", &[&conn.pid]);
            }
            conn.requests = None;
        }
        for conn in &mut self.conns {
            if let Some(thread) = conn.thread.take() {
                let _ = thread.join();
            }
        }
        let _ = self
            .monitor
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.schema));
    }
}
