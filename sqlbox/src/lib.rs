//! Untrusted SQL in a box: a learner's statement runs on a real SQLite only
//! if it is one statement of a kind the exercise asks for, within a size
//! limit, touching nothing but the job table, and within bounds of steps,
//! time and memory. Ready for the `sql` exercise kind (issue 14, point 4);
//! it knows nothing of the simulator.
//!
//! The checks, in order: the text's size and a NUL byte; SQLite's own parser
//! (a syntax error comes back with SQLite's message and its position as
//! line and column); one statement only; the kind (`UPDATE`, …) asked for;
//! then SQLite's authorizer refuses everything but reading, updating,
//! inserting into or deleting from tables and calling plain functions:
//! `ATTACH`, `DETACH`, `PRAGMA`, DDL, transactions, `load_extension()` and
//! the like.
//!
//! While it runs, SQLite's progress handler (every [`STEPS_PER_CHECK`]
//! virtual-machine steps) stops it after [`MAX_VM_STEPS`] steps (counted,
//! so the same statement is stopped at the same point everywhere), after
//! [`STATEMENT_BUDGET_MS`] of wall-clock time, past the deadline of the
//! run it belongs to ([`Outer`]: a battery's [`battery::BATTERY_BUDGET_MS`])
//! and as soon as the caller's [`Stop`] is set from another thread. Memory
//! is bounded twice: no string or blob (nor row) may be longer than
//! [`MAX_VALUE_BYTES`] (SQLite's `SQLITE_LIMIT_LENGTH`, checked before it
//! allocates, so `zeroblob(400000000)` costs nothing), and SQLite's hard
//! heap limit caps all it allocates at [`HEAP_LIMIT_BYTES`], temporary
//! tables and sorts included (the box keeps them in memory, where the
//! limit counts them). The heap limit is SQLite's, so it is **process-wide**:
//! once a statement ran in the box, every SQLite connection of the process
//! shares those bytes. fencelab's processes that run the box run no other
//! SQLite work (the terminal app, `fencelab grade`, the page's worker);
//! `run --db sqlite` never enters the box. The clock is `web-time`'s:
//! `std::time` natively, `performance.now()` in the page's Web Worker.

pub mod battery;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode};
use sim_core::Lang;
use web_time::Instant;

/// The longest statement accepted, in bytes.
pub const MAX_SQL_BYTES: usize = 4096;
/// The progress handler runs every this many virtual-machine steps: often
/// enough that even steps doing the most work one step can (a function
/// over a value of [`MAX_VALUE_BYTES`]) reach a deadline or a stop within
/// a few milliseconds, rare enough to cost nothing measurable.
pub const STEPS_PER_CHECK: i32 = 100;
/// At most this many virtual-machine steps per statement.
pub const MAX_VM_STEPS: u64 = 2_000_000;
/// The wall-clock budget of one statement. A lesson's statement runs in
/// well under a millisecond (the whole battery of the largest exercise in
/// a few); a thousand times that still answers at once for a learner.
pub const STATEMENT_BUDGET_MS: u64 = 1000;
/// The longest string, blob or row a statement may build, in bytes
/// (`SQLITE_LIMIT_LENGTH`). The job table's values are a few bytes and a
/// statement at most [`MAX_SQL_BYTES`], so no literal can be longer; four
/// times that leaves room for any honest expression.
pub const MAX_VALUE_BYTES: i32 = 16 * 1024;
/// The longest `LIKE` or `GLOB` pattern (`SQLITE_LIMIT_LIKE_PATTERN_LENGTH`):
/// a pattern's cost grows with its length times the text's, inside one
/// step; the lessons need none.
pub const MAX_LIKE_PATTERN_BYTES: i32 = 100;
/// SQLite's hard heap limit (`PRAGMA hard_heap_limit`), process-wide.
/// A battery needs about 200 KiB at its peak (measured: the reference
/// answers pass every lesson's plan under a 208 KiB limit and fail under
/// 156 KiB); 32 MiB is over a hundred times that, room for any honest
/// statement, and still stops one that sorts or collects big values
/// (16 KB each, by the thousand) long before it weighs on the machine.
pub const HEAP_LIMIT_BYTES: i64 = 32 << 20;

/// The kinds of statement an exercise may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Select,
    Insert,
    Update,
    Delete,
}

impl Kind {
    pub fn keyword(self) -> &'static str {
        match self {
            Kind::Select => "SELECT",
            Kind::Insert => "INSERT",
            Kind::Update => "UPDATE",
            Kind::Delete => "DELETE",
        }
    }
}

/// A cancel handle: the caller keeps a clone and sets it, from any thread,
/// to stop the statement (and the battery) running with the other one at
/// its next progress check.
#[derive(Debug, Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Asks whatever runs with this handle to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What bounds a statement from outside, besides its own budget: the run
/// it is part of (a battery), with its deadline, and the caller's [`Stop`].
#[derive(Debug, Clone, Default)]
pub struct Outer {
    /// When the whole run must be over, and its budget (for the message).
    pub deadline: Option<(Instant, u64)>,
    pub stop: Stop,
    /// The statement's own time budget; `None`: [`STATEMENT_BUDGET_MS`].
    /// (A test of another bound lifts it, so that a loaded machine's
    /// slowness cannot decide which bound is met first.)
    pub statement_budget_ms: Option<u64>,
}

impl Outer {
    /// A run of `budget_ms` from now, stopped also by `stop`.
    pub fn starting_now(budget_ms: u64, stop: &Stop) -> Outer {
        Outer {
            deadline: Some((Instant::now() + Duration::from_millis(budget_ms), budget_ms)),
            stop: stop.clone(),
            statement_budget_ms: None,
        }
    }
}

/// Why the progress handler stopped a statement (the first reason seen).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Interrupt {
    Steps,
    StatementTime,
    RunTime { budget_ms: u64 },
    Cancelled,
}

/// Why a statement was not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Empty,
    TooLong {
        bytes: usize,
    },
    /// A NUL byte would end the text early for SQLite.
    Nul,
    /// SQLite's own parser refused it; the position is the error's start.
    Syntax {
        message: String,
        line: usize,
        col: usize,
    },
    MultipleStatements,
    /// Its first keyword is not one of the kinds asked for.
    NotAsked {
        found: String,
        asked: Vec<Kind>,
    },
    /// It does something outside the box: `ATTACH`, `PRAGMA`, DDL, …
    Forbidden {
        what: String,
    },
    /// It names a parameter the exercise does not bind.
    UnknownParameter {
        name: String,
        known: Vec<String>,
    },
    /// It ran for more than [`MAX_VM_STEPS`] steps and was stopped.
    TooLongRunning,
    /// It ran for more than [`STATEMENT_BUDGET_MS`] and was stopped.
    TimedOut,
    /// The run it belongs to (a battery) went past its budget while it ran.
    RunTimedOut {
        budget_ms: u64,
    },
    /// It built a string, blob or row longer than [`MAX_VALUE_BYTES`].
    TooBig,
    /// It needed more memory than SQLite may have ([`HEAP_LIMIT_BYTES`]).
    OutOfMemory,
    /// The caller stopped it ([`Stop`]).
    Cancelled,
    /// Any other error SQLite reported while running it.
    Failed {
        message: String,
    },
}

impl Refusal {
    /// The refusal in words, in `lang`. Long because it is one arm per
    /// variant and language, each English beside its Chinese: split, a
    /// translation would drift from its English.
    pub fn message(&self, lang: Lang) -> String {
        let list = |kinds: &[Kind]| {
            kinds
                .iter()
                .map(|k| k.keyword())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match (self, lang) {
            (Refusal::Empty, Lang::En) => "the answer is empty: write one statement".to_owned(),
            (Refusal::Empty, Lang::Zh) => "答案是空的：请写一条语句".to_owned(),
            (Refusal::TooLong { bytes }, Lang::En) => {
                format!("the statement is {bytes} bytes long; at most {MAX_SQL_BYTES} are accepted")
            }
            (Refusal::TooLong { bytes }, Lang::Zh) => {
                format!("语句长 {bytes} 字节；最多接受 {MAX_SQL_BYTES} 字节")
            }
            (Refusal::Nul, Lang::En) => "the statement contains a NUL character".to_owned(),
            (Refusal::Nul, Lang::Zh) => "语句里有 NUL 字符".to_owned(),
            (Refusal::Syntax { message, line, col }, Lang::En) => {
                format!("{line}:{col}: SQLite: {message}")
            }
            (Refusal::Syntax { message, line, col }, Lang::Zh) => {
                format!("{line}:{col}：SQLite：{message}")
            }
            (Refusal::MultipleStatements, Lang::En) => {
                "only one statement is accepted; remove everything after the first `;`".to_owned()
            }
            (Refusal::MultipleStatements, Lang::Zh) => {
                "只接受一条语句；请删掉第一个 `;` 之后的内容".to_owned()
            }
            (Refusal::NotAsked { found, asked }, Lang::En) => {
                format!(
                    "a `{found}` statement was not asked for; write {}",
                    list(asked)
                )
            }
            (Refusal::NotAsked { found, asked }, Lang::Zh) => {
                format!("这里不要 `{found}` 语句；请写 {}", list(asked))
            }
            (Refusal::Forbidden { what }, Lang::En) => {
                format!(
                    "{what} is not allowed here: the statement may only read and change the job table"
                )
            }
            (Refusal::Forbidden { what }, Lang::Zh) => {
                format!("这里不允许 {what}：语句只能读取和修改任务表")
            }
            (Refusal::UnknownParameter { name, known }, Lang::En) => {
                format!(
                    "unknown parameter {name}; the parameters are {}",
                    known.join(", ")
                )
            }
            (Refusal::UnknownParameter { name, known }, Lang::Zh) => {
                format!("未知参数 {name}；可用的参数是 {}", known.join("、"))
            }
            (Refusal::TooLongRunning, Lang::En) => {
                format!("the statement ran for more than {MAX_VM_STEPS} steps and was stopped")
            }
            (Refusal::TooLongRunning, Lang::Zh) => {
                format!("语句运行超过 {MAX_VM_STEPS} 步，已被中止")
            }
            (Refusal::TimedOut, Lang::En) => {
                format!("the statement ran for more than {STATEMENT_BUDGET_MS} ms and was stopped")
            }
            (Refusal::TimedOut, Lang::Zh) => {
                format!("语句运行超过 {STATEMENT_BUDGET_MS} 毫秒，已被中止")
            }
            (Refusal::RunTimedOut { budget_ms }, Lang::En) => {
                format!("the statements ran for more than {budget_ms} ms in all and were stopped")
            }
            (Refusal::RunTimedOut { budget_ms }, Lang::Zh) => {
                format!("这些语句合计运行超过 {budget_ms} 毫秒，已被中止")
            }
            (Refusal::TooBig, Lang::En) => format!(
                "the statement builds a value longer than {MAX_VALUE_BYTES} bytes and was stopped \
                 (SQLite: string or blob too big); the job table needs only short values"
            ),
            (Refusal::TooBig, Lang::Zh) => format!(
                "语句生成的值超过 {MAX_VALUE_BYTES} 字节，已被中止（SQLite：字符串或 BLOB 过大）；\
                 任务表只需要很短的值"
            ),
            (Refusal::OutOfMemory, Lang::En) => format!(
                "the statement needed more than {} MiB of memory and was stopped",
                HEAP_LIMIT_BYTES >> 20
            ),
            (Refusal::OutOfMemory, Lang::Zh) => {
                format!("语句需要超过 {} MiB 内存，已被中止", HEAP_LIMIT_BYTES >> 20)
            }
            (Refusal::Cancelled, Lang::En) => "the run was cancelled".to_owned(),
            (Refusal::Cancelled, Lang::Zh) => "运行已取消".to_owned(),
            (Refusal::Failed { message }, Lang::En) => format!("SQLite: {message}"),
            (Refusal::Failed { message }, Lang::Zh) => format!("SQLite：{message}"),
        }
    }
}

impl Refusal {
    /// Any error of SQLite's not named otherwise, in its own words.
    pub fn failed(error: rusqlite::Error) -> Refusal {
        Refusal::Failed {
            message: error.to_string(),
        }
    }

    /// A bound of the box stopped the statement while it ran (steps, time,
    /// memory, a value's size, the caller's stop): it says nothing about
    /// whether the statement is right, only that it was not let finish.
    pub fn is_bound(&self) -> bool {
        matches!(
            self,
            Refusal::TooLongRunning
                | Refusal::TimedOut
                | Refusal::RunTimedOut { .. }
                | Refusal::TooBig
                | Refusal::OutOfMemory
                | Refusal::Cancelled
        )
    }
}

/// Line and column (1-based, in characters) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// The first keyword, after white space and comments, in upper case.
fn first_keyword(sql: &str) -> String {
    let mut rest = sql;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("--") {
            rest = after.split_once('\n').map_or("", |(_, tail)| tail);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, tail)| tail);
        } else {
            break;
        }
    }
    rest.chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect::<String>()
        .to_ascii_uppercase()
}

fn syntax(sql: &str, error: &rusqlite::Error) -> Refusal {
    match error.sqlite_error_code() {
        Some(ErrorCode::TooBig) => return Refusal::TooBig,
        Some(ErrorCode::OutOfMemory) => return Refusal::OutOfMemory,
        _ => {}
    }
    match error {
        rusqlite::Error::SqlInputError { msg, offset, .. } => {
            let (line, col) = line_col(sql, usize::try_from(*offset).unwrap_or(0));
            Refusal::Syntax {
                message: msg.clone(),
                line,
                col,
            }
        }
        rusqlite::Error::MultipleStatement => Refusal::MultipleStatements,
        // SQLite gives no offset when the text ends before the statement
        // does; the place to go on writing is the end.
        rusqlite::Error::SqliteFailure(_, Some(msg)) if msg == "incomplete input" => {
            let (line, col) = line_col(sql.trim_end(), sql.len());
            Refusal::Syntax {
                message: msg.clone(),
                line,
                col,
            }
        }
        other => Refusal::Failed {
            message: other.to_string(),
        },
    }
}

/// What the authorizer saw that it refused (the first one).
type Seen = Arc<Mutex<Option<String>>>;

fn authorize(context: &AuthContext<'_>, refused: &Seen) -> Authorization {
    let denied = match context.action {
        AuthAction::Read { .. }
        | AuthAction::Select
        | AuthAction::Update { .. }
        | AuthAction::Insert { .. }
        | AuthAction::Delete { .. }
        | AuthAction::Recursive => None,
        AuthAction::Function { function_name }
            if !function_name.eq_ignore_ascii_case("load_extension") =>
        {
            None
        }
        AuthAction::Function { .. } => Some("load_extension()".to_owned()),
        AuthAction::Attach { .. } => Some("ATTACH".to_owned()),
        AuthAction::Detach { .. } => Some("DETACH".to_owned()),
        AuthAction::Pragma { pragma_name, .. } => Some(format!("PRAGMA {pragma_name}")),
        AuthAction::Transaction { .. } | AuthAction::Savepoint { .. } => {
            Some("a transaction statement".to_owned())
        }
        _ => Some("changing the schema".to_owned()),
    };
    match (denied, context.database_name) {
        (Some(what), _) => {
            if let Ok(mut first) = refused.lock() {
                first.get_or_insert(what);
            }
            Authorization::Deny
        }
        // Only the main database: not `temp`, nothing attached.
        (None, Some(database)) if database != "main" => {
            if let Ok(mut first) = refused.lock() {
                first.get_or_insert(format!("the database `{database}`"));
            }
            Authorization::Deny
        }
        (None, _) => Authorization::Allow,
    }
}

/// What an accepted statement did.
#[derive(Debug, Clone, PartialEq)]
pub struct Ran {
    /// Rows changed (`UPDATE`, `INSERT`, `DELETE`) or returned (`SELECT`).
    pub rows: usize,
    /// The names of the returned columns, as SQLite names them.
    pub columns: Vec<String>,
    /// Returned rows (a `SELECT`, or `RETURNING`), column by column.
    pub values: Vec<Vec<Value>>,
}

/// Checks `sql` and, if it stays in the box, runs it on `conn` with the
/// named `params` (`":owner"`, …), bounded by its own budgets only. The
/// connection's authorizer, progress handler and limits are set for the
/// call and removed after it.
pub fn run_untrusted(
    conn: &Connection,
    sql: &str,
    asked: &[Kind],
    params: &[(&str, Value)],
) -> Result<Ran, Refusal> {
    run_bounded(conn, sql, asked, params, &Outer::default())
}

/// [`run_untrusted`], also stopped by `outer`: the deadline of the run the
/// statement belongs to and the caller's [`Stop`].
pub fn run_bounded(
    conn: &Connection,
    sql: &str,
    asked: &[Kind],
    params: &[(&str, Value)],
    outer: &Outer,
) -> Result<Ran, Refusal> {
    if sql.len() > MAX_SQL_BYTES {
        return Err(Refusal::TooLong { bytes: sql.len() });
    }
    if sql.contains('\0') {
        return Err(Refusal::Nul);
    }
    if sql.trim().is_empty() {
        return Err(Refusal::Empty);
    }
    if outer.stop.is_stopped() {
        return Err(Refusal::Cancelled);
    }
    // Setting a hook or a limit fails only on a closed connection; nothing
    // runs then.
    let limits = Limits::set(conn).map_err(Refusal::failed)?;
    let result = check_and_run(conn, sql, asked, params, outer);
    let restored = limits.restore(conn);
    result.and_then(|ran| restored.map(|()| ran).map_err(Refusal::failed))
}

/// The memory bounds, set on a connection, with what they replaced.
struct Limits {
    before: Vec<(Limit, i32)>,
}

impl Limits {
    const SET: [(Limit, i32); 2] = [
        (Limit::SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES),
        (
            Limit::SQLITE_LIMIT_LIKE_PATTERN_LENGTH,
            MAX_LIKE_PATTERN_BYTES,
        ),
    ];

    /// Sets the bounds on `conn`, before anything of the learner's runs
    /// (and before the authorizer, which would refuse the pragmas):
    /// temporary tables and sorts in memory, where the process-wide heap
    /// limit counts them instead of spilling into files.
    fn set(conn: &Connection) -> rusqlite::Result<Limits> {
        conn.execute_batch("PRAGMA temp_store = MEMORY")?;
        // Lowers the limit only (SQLite never raises it from a pragma); it
        // answers with the limit in force.
        conn.query_row(
            &format!("PRAGMA hard_heap_limit = {HEAP_LIMIT_BYTES}"),
            [],
            |row| row.get::<_, i64>(0),
        )?;
        let mut before = Vec::with_capacity(Limits::SET.len());
        for (limit, value) in Limits::SET {
            before.push((limit, conn.set_limit(limit, value)?));
        }
        Ok(Limits { before })
    }

    /// Gives `conn` its limits back: the connection is ordinary again
    /// (the heap limit, process-wide, stays).
    fn restore(self, conn: &Connection) -> rusqlite::Result<()> {
        for (limit, value) in self.before {
            conn.set_limit(limit, value)?;
        }
        Ok(())
    }
}

fn check_and_run(
    conn: &Connection,
    sql: &str,
    asked: &[Kind],
    params: &[(&str, Value)],
    outer: &Outer,
) -> Result<Ran, Refusal> {
    // SQLite's parser first, with nothing refused yet: a syntax error or a
    // second statement is named as such. (Preparing runs nothing.)
    drop(conn.prepare(sql).map_err(|e| syntax(sql, &e))?);
    let found = first_keyword(sql);
    if found.is_empty() {
        return Err(Refusal::Empty);
    }
    if !asked.iter().any(|kind| kind.keyword() == found) {
        return Err(Refusal::NotAsked {
            found,
            asked: asked.to_vec(),
        });
    }
    let refused: Seen = Arc::new(Mutex::new(None));
    let seen = Arc::clone(&refused);
    conn.authorizer(Some(move |context: AuthContext<'_>| {
        authorize(&context, &seen)
    }))
    .map_err(Refusal::failed)?;
    let interrupted: Arc<OnceLock<Interrupt>> = Arc::new(OnceLock::new());
    let cause = Arc::clone(&interrupted);
    let deadline = Instant::now()
        + Duration::from_millis(outer.statement_budget_ms.unwrap_or(STATEMENT_BUDGET_MS));
    let (run_deadline, stop) = (outer.deadline, outer.stop.clone());
    let mut steps: u64 = 0;
    conn.progress_handler(
        STEPS_PER_CHECK,
        Some(move || {
            steps += STEPS_PER_CHECK as u64;
            let now = Instant::now();
            let why = if stop.is_stopped() {
                Interrupt::Cancelled
            } else if steps > MAX_VM_STEPS {
                Interrupt::Steps
            } else if now >= deadline {
                Interrupt::StatementTime
            } else if let Some((at, budget_ms)) = run_deadline
                && now >= at
            {
                Interrupt::RunTime { budget_ms }
            } else {
                return false;
            };
            // The first reason is the one; SQLite stops at this `true`.
            let _ = cause.set(why);
            true
        }),
    )
    .map_err(Refusal::failed)?;
    let result = run_boxed(conn, sql, params, &refused, &interrupted);
    let removed = conn
        .authorizer(None::<fn(AuthContext<'_>) -> Authorization>)
        .and(conn.progress_handler(STEPS_PER_CHECK, None::<fn() -> bool>));
    result.and_then(|ran| removed.map(|()| ran).map_err(Refusal::failed))
}

fn run_boxed(
    conn: &Connection,
    sql: &str,
    params: &[(&str, Value)],
    refused: &Seen,
    interrupted: &OnceLock<Interrupt>,
) -> Result<Ran, Refusal> {
    let forbidden = |error: rusqlite::Error| -> Refusal {
        if let Some(what) = refused.lock().ok().and_then(|mut first| first.take()) {
            return Refusal::Forbidden { what };
        }
        match error.sqlite_error_code() {
            Some(ErrorCode::OperationInterrupted) => match interrupted.get() {
                Some(Interrupt::StatementTime) => Refusal::TimedOut,
                Some(Interrupt::RunTime { budget_ms }) => Refusal::RunTimedOut {
                    budget_ms: *budget_ms,
                },
                Some(Interrupt::Cancelled) => Refusal::Cancelled,
                Some(Interrupt::Steps) | None => Refusal::TooLongRunning,
            },
            _ => syntax(sql, &error),
        }
    };
    let mut statement = conn.prepare(sql).map_err(forbidden)?;
    let known: Vec<String> = params.iter().map(|(name, _)| (*name).to_owned()).collect();
    for index in 1..=statement.parameter_count() {
        let name = statement.parameter_name(index).unwrap_or("?").to_owned();
        match params.iter().find(|(given, _)| *given == name) {
            Some((_, value)) => statement
                .raw_bind_parameter(index, value)
                .map_err(forbidden)?,
            None => return Err(Refusal::UnknownParameter { name, known }),
        }
    }
    let columns = statement.column_count();
    let names: Vec<String> = statement
        .column_names()
        .into_iter()
        .map(str::to_owned)
        .collect();
    let mut values = Vec::new();
    let mut rows = statement.raw_query();
    loop {
        match rows.next() {
            Ok(Some(row)) => {
                let mut out = Vec::with_capacity(columns);
                for k in 0..columns {
                    out.push(row.get::<_, Value>(k).map_err(forbidden)?);
                }
                values.push(out);
            }
            Ok(None) => break,
            Err(error) => return Err(forbidden(error)),
        }
    }
    drop(rows);
    let changed = if columns == 0 || !statement.readonly() {
        usize::try_from(conn.changes()).unwrap_or(usize::MAX)
    } else {
        values.len()
    };
    Ok(Ran {
        rows: if columns > 0 && statement.readonly() {
            values.len()
        } else {
            changed
        },
        columns: names,
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE jobs (id TEXT PRIMARY KEY, owner TEXT, lease_until INTEGER, \
             fence INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL DEFAULT 'ready');
             INSERT INTO jobs (id) VALUES ('r');",
        )
        .unwrap();
        conn
    }

    fn params() -> Vec<(&'static str, Value)> {
        vec![
            (":job", Value::Text("r".to_owned())),
            (":owner", Value::Text("A".to_owned())),
            (":now", Value::Integer(0)),
            (":ttl", Value::Integer(5)),
        ]
    }

    const CLAIM: &str = "UPDATE jobs SET owner = :owner, lease_until = :now + :ttl, \
                         fence = fence + 1, state = 'running' WHERE id = :job \
                         AND (lease_until IS NULL OR lease_until <= :now) \
                         AND state IN ('ready', 'running')";

    #[test]
    fn an_asked_for_update_runs_with_named_parameters() {
        let conn = table();
        let ran = run_untrusted(&conn, CLAIM, &[Kind::Update], &params()).unwrap();
        assert_eq!(ran.rows, 1);
        let again = run_untrusted(&conn, CLAIM, &[Kind::Update], &params()).unwrap();
        assert_eq!(again.rows, 0, "the lease is held");
        // The box is taken down after the call: the connection is ordinary again.
        conn.execute_batch("PRAGMA user_version = 1").unwrap();
    }

    #[test]
    fn attach_pragma_extensions_ddl_and_two_statements_are_refused() {
        let conn = table();
        let refused =
            |sql: &str| run_untrusted(&conn, sql, &[Kind::Update, Kind::Select], &params());
        assert_eq!(
            refused("UPDATE jobs SET state = 'done'; DELETE FROM jobs"),
            Err(Refusal::MultipleStatements)
        );
        assert!(matches!(
            refused("ATTACH DATABASE '/tmp/x.db' AS x"),
            Err(Refusal::NotAsked { .. })
        ));
        assert!(matches!(
            refused("PRAGMA writable_schema = 1"),
            Err(Refusal::NotAsked { .. })
        ));
        assert_eq!(
            refused("SELECT load_extension('/tmp/evil')"),
            Err(Refusal::Forbidden {
                what: "load_extension()".to_owned()
            })
        );
        assert_eq!(
            refused("SELECT * FROM pragma_table_info('jobs')"),
            Err(Refusal::Forbidden {
                what: "PRAGMA table_info".to_owned()
            })
        );
        assert!(matches!(
            refused("UPDATE temp.sqlite_master SET sql = ''"),
            Err(Refusal::Forbidden { .. } | Refusal::Syntax { .. } | Refusal::Failed { .. })
        ));
        let message = refused("UPDATE jobs SET state = 'done'; ATTACH 'x' AS y")
            .unwrap_err()
            .message(Lang::En);
        assert!(message.contains("only one statement"), "{message}");
        // Nothing refused has changed the table.
        let state: String = conn
            .query_row("SELECT state FROM jobs", [], |r| r.get(0))
            .unwrap();
        assert_eq!(state, "ready");
    }

    #[test]
    fn a_syntax_error_has_sqlites_message_and_position() {
        let conn = table();
        let error = run_untrusted(
            &conn,
            "UPDATE jobs\nSET state = 'done' WHER id = :job",
            &[Kind::Update],
            &params(),
        );
        let Err(Refusal::Syntax { message, line, col }) = error else {
            panic!("{error:?}");
        };
        assert!(message.contains("near \"WHER\""), "{message}");
        assert_eq!((line, col), (2, 20), "{message}");
    }

    /// Issue 22: a statement that stops short ("incomplete input", which
    /// SQLite reports without an offset) is a syntax error at its end.
    #[test]
    fn an_unfinished_statement_is_a_syntax_error_at_its_end() {
        let conn = table();
        for (sql, at) in [
            ("UPDATE jobs SET", (1, 16)),
            ("UPDATE jobs\nSET state = 'done'\nWHERE id = (", (3, 13)),
            // An unclosed string: where it opens.
            ("UPDATE jobs SET state = 'x' WHERE id = 'a", (1, 40)),
        ] {
            let error = run_untrusted(&conn, sql, &[Kind::Update], &params());
            let Err(Refusal::Syntax { message, line, col }) = &error else {
                panic!("{sql}: {error:?}");
            };
            assert_eq!((*line, *col), at, "{sql}: {message}");
            let said = error.unwrap_err().message(Lang::En);
            assert!(said.starts_with(&format!("{}:{}: ", at.0, at.1)), "{said}");
        }
    }

    #[test]
    fn an_endless_query_is_stopped_by_counting_steps() {
        let conn = table();
        let endless = "UPDATE jobs SET fence = (WITH RECURSIVE c(x) AS \
                       (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c)";
        assert_eq!(
            run_untrusted(&conn, endless, &[Kind::Update], &params()),
            Err(Refusal::TooLongRunning)
        );
    }

    fn job() -> Vec<(&'static str, Value)> {
        vec![(":job", Value::Text("r".to_owned()))]
    }

    /// Issue 20: values of hundreds of megabytes (the process once reached
    /// 3.9 GB and aborted) are refused by the length limit before SQLite
    /// allocates them: the refusal is "too big", never "out of memory",
    /// and the table is unchanged.
    #[test]
    fn the_issues_huge_values_are_refused_before_they_are_allocated() {
        let conn = table();
        for value in [
            "hex(zeroblob(400000000))",
            "randomblob(500000000)",
            "hex(zeroblob(1e8))",
            "(SELECT sum(length(randomblob(1000000))) FROM (WITH RECURSIVE c(x) AS \
             (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000) SELECT x FROM c))",
        ] {
            let sql = format!("UPDATE jobs SET owner = {value} WHERE id = :job");
            assert_eq!(
                run_untrusted(&conn, &sql, &[Kind::Update], &job()),
                Err(Refusal::TooBig),
                "{sql}"
            );
        }
        let owner: Option<String> = conn
            .query_row("SELECT owner FROM jobs", [], |r| r.get(0))
            .unwrap();
        assert_eq!(owner, None);
        // A value (and so the row) well within the limit is fine.
        let fits = format!(
            "UPDATE jobs SET owner = hex(zeroblob({})) WHERE id = :job",
            MAX_VALUE_BYTES / 4
        );
        assert!(run_untrusted(&conn, &fits, &[Kind::Update], &job()).is_ok());
    }

    /// Rows of four 16 KB values each (within every other bound): stopped
    /// by the clock at its budget, long before its millions of steps.
    #[test]
    fn a_statement_is_stopped_at_its_time_budget() {
        let conn = table();
        let slow = "UPDATE jobs SET owner = (SELECT sum(length(randomblob(16000)) \
                    + length(randomblob(16000)) + length(randomblob(16000)) \
                    + length(randomblob(16000))) FROM (WITH RECURSIVE c(x) AS \
                    (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000000) SELECT x FROM c)) \
                    WHERE id = :job";
        let started = Instant::now();
        assert_eq!(
            run_untrusted(&conn, slow, &[Kind::Update], &job()),
            Err(Refusal::TimedOut)
        );
        // Generous: the budget, and the time to the next check on a slow,
        // busy machine.
        let limit = Duration::from_millis(STATEMENT_BUDGET_MS) + Duration::from_secs(2);
        assert!(started.elapsed() < limit, "{:?}", started.elapsed());
        // The outer run's deadline, when it comes first, is the one named.
        let outer = Outer::starting_now(50, &Stop::new());
        assert_eq!(
            run_bounded(&conn, slow, &[Kind::Update], &job(), &outer),
            Err(Refusal::RunTimedOut { budget_ms: 50 })
        );
    }

    #[test]
    fn a_stop_set_from_another_thread_ends_the_statement() {
        let conn = table();
        let endless = "UPDATE jobs SET owner = (SELECT sum(length(randomblob(16000))) FROM \
                       (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) \
                       SELECT x FROM c)) WHERE id = :job";
        let outer = Outer::default();
        let stop = outer.stop.clone();
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            stop.stop();
        });
        assert_eq!(
            run_bounded(&conn, endless, &[Kind::Update], &job(), &outer),
            Err(Refusal::Cancelled)
        );
        thread.join().unwrap();
    }

    /// The box's limits hold only during the call: the connection has its
    /// own back afterwards.
    #[test]
    fn the_limits_are_given_back_after_the_call() {
        let conn = table();
        let before = conn.limit(Limit::SQLITE_LIMIT_LENGTH).unwrap();
        assert!(before > MAX_VALUE_BYTES);
        let _ = run_untrusted(&conn, CLAIM, &[Kind::Update], &params());
        assert_eq!(conn.limit(Limit::SQLITE_LIMIT_LENGTH).unwrap(), before);
        let big: i64 = conn
            .query_row("SELECT length(zeroblob(1000000))", [], |r| r.get(0))
            .unwrap();
        assert_eq!(big, 1_000_000);
    }

    #[test]
    fn limits_and_unknown_parameters_are_named() {
        let conn = table();
        let long = format!(
            "UPDATE jobs SET state = 'done' WHERE id = :job{}",
            " ".repeat(MAX_SQL_BYTES)
        );
        assert!(matches!(
            run_untrusted(&conn, &long, &[Kind::Update], &params()),
            Err(Refusal::TooLong { .. })
        ));
        assert_eq!(
            run_untrusted(&conn, "  -- nothing\n", &[Kind::Update], &params()),
            Err(Refusal::Empty)
        );
        assert!(matches!(
            run_untrusted(
                &conn,
                "UPDATE jobs SET state = :state",
                &[Kind::Update],
                &params()
            ),
            Err(Refusal::UnknownParameter { .. })
        ));
        assert!(matches!(
            run_untrusted(&conn, "DELETE FROM jobs", &[Kind::Update], &params()),
            Err(Refusal::NotAsked { .. })
        ));
        for refusal in [
            Refusal::Empty,
            Refusal::MultipleStatements,
            Refusal::TooLongRunning,
            Refusal::TimedOut,
            Refusal::RunTimedOut { budget_ms: 5 },
            Refusal::TooBig,
            Refusal::OutOfMemory,
            Refusal::Cancelled,
        ] {
            assert_ne!(refusal.message(Lang::En), refusal.message(Lang::Zh));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 256,
            failure_persistence: None,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            ..ProptestConfig::default()
        })]

        /// No input panics or runs away: every answer is a result or a refusal.
        #[test]
        fn any_text_is_answered_without_panic(text in "\\PC{0,200}") {
            let conn = table();
            let _ = run_untrusted(&conn, &text, &[Kind::Update, Kind::Select], &params());
        }

        /// Mangled versions of a real claim: cut, spliced with dangerous words.
        #[test]
        fn mangled_statements_stay_in_the_box(
            cut in 0usize..CLAIM.len(),
            word in prop::sample::select(vec!["; ATTACH 'x' AS y", " PRAGMA ", "load_extension('x')", "; DROP TABLE jobs", "/*", "'", ":nope", "WITH RECURSIVE"]),
        ) {
            let conn = table();
            let text = format!("{}{word}{}", &CLAIM[..cut], &CLAIM[cut..]);
            let _ = run_untrusted(&conn, &text, &[Kind::Update], &params());
            let count: i64 = conn.query_row("SELECT count(*) FROM jobs", [], |r| r.get(0)).unwrap();
            prop_assert_eq!(count, 1, "the table is still there: {}", text);
        }
    }
}
