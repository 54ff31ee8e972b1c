//! SQLite's hard heap limit, which the box sets, is process-wide: a test
//! that reaches it would starve whatever else runs SQLite in its process at
//! that moment. So it has this test binary to itself, one test.
#![allow(
    clippy::unwrap_used,
    reason = "a failing unwrap is a failing test, with its message"
)]

use rusqlite::Connection;
use rusqlite::types::Value;
use sqlbox::{HEAP_LIMIT_BYTES, Kind, Outer, Refusal, run_bounded, run_untrusted};

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

/// Values each within the length limit, but collected by the thousand (a
/// sort, a `DISTINCT`): the heap limit stops the statement, temporary
/// storage included, and the box works as before afterwards.
#[test]
fn a_statement_that_collects_more_than_the_heap_limit_is_stopped() {
    let job = [(":job", Value::Text("r".to_owned()))];
    for collects in [
        "(SELECT count(DISTINCT randomblob(16000)) FROM (WITH RECURSIVE c(x) AS \
         (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 100000) SELECT x FROM c))",
        "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 100000) \
         SELECT count(*) FROM (SELECT randomblob(16000) AS r FROM c ORDER BY r))",
    ] {
        let conn = table();
        let sql = format!("UPDATE jobs SET owner = {collects} WHERE id = :job");
        // No time budget to race: on a loaded machine the clock could
        // stop the statement before the heap does.
        let untimed = Outer {
            statement_budget_ms: Some(600_000),
            ..Outer::default()
        };
        assert_eq!(
            run_bounded(&conn, &sql, &[Kind::Update], &job, &untimed),
            Err(Refusal::OutOfMemory),
            "{sql}"
        );
    }
    // The limit in force is the box's (a pragma can only lower it).
    let conn = table();
    let limit: i64 = conn
        .query_row("PRAGMA hard_heap_limit", [], |r| r.get(0))
        .unwrap();
    assert_eq!(limit, HEAP_LIMIT_BYTES);
    let fine = "UPDATE jobs SET owner = 'A', fence = fence + 1 WHERE id = :job";
    assert_eq!(
        run_untrusted(&conn, fine, &[Kind::Update], &job).map(|ran| ran.rows),
        Ok(1)
    );
}
