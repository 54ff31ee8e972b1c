//! The embedded SQLite backend: one in-memory database, one connection.
//! Every statement runs when it is sent (no other connection holds locks).

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, params_from_iter};
use sim_core::Scenario;
use sim_core::sql::{Dialect, SqlValue, Statement};

use super::{Answer, Backend, DbError, DbRow, ROW_QUERY, Reply, Sent, returns_rows};

pub(crate) struct Sqlite {
    conn: Connection,
}

impl Sqlite {
    pub(crate) fn open(scenario: &Scenario) -> Result<Sqlite, String> {
        let conn = Connection::open_in_memory().map_err(|e| e.to_string())?;
        for statement in sim_core::sql::schema(scenario, Dialect::Sqlite) {
            conn.execute_batch(&statement).map_err(|e| e.to_string())?;
        }
        Ok(Sqlite { conn })
    }

    fn run(&self, statement: &Statement) -> rusqlite::Result<Answer> {
        let (text, values) = statement.positional(Dialect::Sqlite);
        let values: Vec<Value> = values.into_iter().map(to_sqlite).collect();
        let mut prepared = self.conn.prepare(&text)?;
        if !returns_rows(statement) {
            let affected = prepared.execute(params_from_iter(values))?;
            return Ok(Answer {
                affected: affected as u64,
                rows: Vec::new(),
            });
        }
        let columns = prepared.column_count();
        let mut rows = Vec::new();
        let mut query = prepared.query(params_from_iter(values))?;
        while let Some(row) = query.next()? {
            let mut out = Vec::with_capacity(columns);
            for k in 0..columns {
                out.push(match row.get_ref(k)? {
                    ValueRef::Null => SqlValue::Null,
                    ValueRef::Integer(n) => SqlValue::Int(n),
                    ValueRef::Text(t) => SqlValue::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Real(r) => SqlValue::Text(r.to_string()),
                    ValueRef::Blob(_) => SqlValue::Null,
                });
            }
            rows.push(out);
        }
        Ok(Answer {
            affected: rows.len() as u64,
            rows,
        })
    }
}

fn to_sqlite(value: &SqlValue) -> Value {
    match value {
        SqlValue::Null => Value::Null,
        SqlValue::Int(n) => Value::Integer(*n),
        SqlValue::Text(t) => Value::Text(t.clone()),
    }
}

impl Backend for Sqlite {
    fn set_clock(&mut self, _db_now: i64) -> Result<(), String> {
        // SQLite binds the time as `:now`: nothing to set.
        Ok(())
    }

    fn send(&mut self, _actor: usize, statement: &Statement) -> Sent {
        Sent::Done(self.run(statement).map_err(|e| DbError {
            deadlock: false,
            lock_not_available: false,
            message: e.to_string(),
        }))
    }

    fn settle(&mut self) -> Vec<(usize, Reply)> {
        Vec::new()
    }

    fn read_row(&mut self, _actor: usize, job: &str) -> Option<DbRow> {
        self.conn
            .query_row(&format!("{ROW_QUERY}?1"), [job], |r| {
                Ok(DbRow {
                    owner: r.get(0)?,
                    lease_until: r.get(1)?,
                    fence: r.get(2)?,
                    state: r.get(3)?,
                })
            })
            .ok()
    }

    fn crash(&mut self, _actor: usize) {
        // One connection and no transactions in the SQLite subset: a crash
        // leaves nothing to roll back.
    }

    fn close(&mut self) {}
}
