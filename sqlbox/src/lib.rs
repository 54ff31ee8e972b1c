//! Untrusted SQL in a box: a learner's statement runs on a real SQLite only
//! if it is one statement of a kind the exercise asks for, within a size
//! limit, touching nothing but the job table, and within a bounded number of
//! virtual-machine steps. Ready for the `sql` exercise kind (issue 14, point
//! 4); it knows nothing of the simulator.
//!
//! The checks, in order: the text's size and a NUL byte; SQLite's own parser
//! (a syntax error comes back with SQLite's message and its position as
//! line and column); one statement only; the kind (`UPDATE`, …) asked for;
//! then SQLite's authorizer refuses everything but reading, updating,
//! inserting into or deleting from tables and calling plain functions:
//! `ATTACH`, `DETACH`, `PRAGMA`, DDL, transactions, `load_extension()` and
//! the like. A progress handler stops a statement after [`MAX_VM_STEPS`]
//! virtual-machine steps, whatever its form (a recursive query that never
//! ends, a huge join), counted, not timed, so the same statement is stopped
//! at the same point everywhere.

pub mod battery;

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode};
use sim_core::Lang;

/// The longest statement accepted, in bytes.
pub const MAX_SQL_BYTES: usize = 4096;
/// The progress handler runs every this many virtual-machine steps.
const STEPS_PER_CHECK: i32 = 1000;
/// At most this many virtual-machine steps per statement.
pub const MAX_VM_STEPS: u64 = 2_000_000;

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
    /// Any other error SQLite reported while running it.
    Failed {
        message: String,
    },
}

impl Refusal {
    /// The refusal in words, in `lang`.
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
            (Refusal::Failed { message }, Lang::En) => format!("SQLite: {message}"),
            (Refusal::Failed { message }, Lang::Zh) => format!("SQLite：{message}"),
        }
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
    /// Returned rows (a `SELECT`, or `RETURNING`), column by column.
    pub values: Vec<Vec<Value>>,
}

/// Checks `sql` and, if it stays in the box, runs it on `conn` with the
/// named `params` (`":owner"`, …). The connection's authorizer and progress
/// handler are set for the call and removed after it.
pub fn run_untrusted(
    conn: &Connection,
    sql: &str,
    asked: &[Kind],
    params: &[(&str, Value)],
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
    // Setting a hook fails only on a closed connection; nothing runs then.
    let failed = |error: rusqlite::Error| Refusal::Failed {
        message: error.to_string(),
    };
    conn.authorizer(Some(move |context: AuthContext<'_>| {
        authorize(&context, &seen)
    }))
    .map_err(failed)?;
    let steps = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&steps);
    conn.progress_handler(
        STEPS_PER_CHECK,
        Some(move || {
            let done = counter.fetch_add(STEPS_PER_CHECK as u64, Ordering::Relaxed);
            done >= MAX_VM_STEPS
        }),
    )
    .map_err(failed)?;
    let result = run_boxed(conn, sql, params, &refused);
    let removed = conn
        .authorizer(None::<fn(AuthContext<'_>) -> Authorization>)
        .and(conn.progress_handler(STEPS_PER_CHECK, None::<fn() -> bool>));
    result.and_then(|ran| removed.map(|()| ran).map_err(failed))
}

fn run_boxed(
    conn: &Connection,
    sql: &str,
    params: &[(&str, Value)],
    refused: &Seen,
) -> Result<Ran, Refusal> {
    let forbidden = |error: rusqlite::Error| -> Refusal {
        if let Some(what) = refused.lock().ok().and_then(|mut first| first.take()) {
            return Refusal::Forbidden { what };
        }
        match error.sqlite_error_code() {
            Some(ErrorCode::OperationInterrupted) => Refusal::TooLongRunning,
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
