//! Runs a [`Plan`] of the SQL lab (`sim_core::sqllab`): the learner's
//! statements, each through the box ([`run_bounded`]: one `UPDATE`, the
//! authorizer, the bounds of steps, time and memory), on a fresh in-memory
//! SQLite per case, the whole run within [`BATTERY_BUDGET_MS`] and
//! stopped by the caller's [`Stop`]. It only reports what SQLite did;
//! sim-core judges it against the model. No native-only code: the page
//! runs the same function compiled to wasm.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};
use sim_core::Lang;
use sim_core::sql::SqlValue;
use sim_core::sqllab::{
    CaseRun, JobRow, Plan, PlanParam, PlanRun, PlanSql, Slot, SlotRefusal, Statements, StepRun,
};

use crate::{Kind, Outer, Refusal, Stop, run_bounded};

/// The statement kinds a lab answer may be: every slot is one `UPDATE`.
const ASKED: [Kind; 1] = [Kind::Update];

/// The wall-clock budget of a whole run: every slot's check and every
/// statement of every case (about fifty for the largest plan, all of them
/// together a few milliseconds). Five statements' budgets: a run of
/// statements that each stay just under their own budget still ends soon.
pub const BATTERY_BUDGET_MS: u64 = 5 * crate::STATEMENT_BUDGET_MS;

fn value(value: &SqlValue) -> Value {
    match value {
        SqlValue::Null => Value::Null,
        SqlValue::Int(n) => Value::Integer(*n),
        SqlValue::Text(text) => Value::Text(text.clone()),
    }
}

/// A database with the plan's job table, as every case starts.
fn fresh(plan: &Plan) -> Result<Connection, Refusal> {
    let conn = Connection::open_in_memory().map_err(Refusal::failed)?;
    for statement in &plan.schema {
        conn.execute_batch(statement).map_err(Refusal::failed)?;
    }
    Ok(conn)
}

fn read_row(conn: &Connection, plan: &Plan, job: &str) -> Option<JobRow> {
    conn.query_row(&plan.read_row, &[(":job", &job)], |row| {
        Ok(JobRow {
            owner: row.get(0)?,
            lease_until: row.get(1)?,
            fence: row.get(2)?,
            state: row.get(3)?,
        })
    })
    .optional()
    .ok()
    .flatten()
}

/// The rows a statement returned, each column by its name. A value the
/// job table cannot hold as `SqlValue` (a real, a blob) is returned as
/// its text, so it never equals a token.
fn returned(ran: &crate::Ran) -> Vec<Vec<(String, SqlValue)>> {
    ran.values
        .iter()
        .map(|row| {
            ran.columns
                .iter()
                .cloned()
                .zip(row.iter().map(|v| match v {
                    Value::Null => SqlValue::Null,
                    Value::Integer(n) => SqlValue::Int(*n),
                    Value::Text(text) => SqlValue::Text(text.clone()),
                    Value::Real(x) => SqlValue::Text(x.to_string()),
                    Value::Blob(bytes) => SqlValue::Text(format!("{} bytes", bytes.len())),
                }))
                .collect()
        })
        .collect()
}

fn bound(params: &[PlanParam]) -> Vec<(&str, Value)> {
    params
        .iter()
        .map(|p| (p.name.as_str(), value(&p.value)))
        .collect()
}

/// Every parameter a statement may name, bound to `NULL`: enough to check
/// a statement before the cases run.
fn null_params() -> Vec<(&'static str, Value)> {
    sim_core::sqllab::Slot::PARAMS
        .iter()
        .map(|name| (*name, Value::Null))
        .collect()
}

fn slot_refusal(slot: Slot, refusal: &Refusal) -> SlotRefusal {
    let (line, col) = match refusal {
        Refusal::Syntax { line, col, .. } => (u32::try_from(*line).ok(), u32::try_from(*col).ok()),
        _ => (None, None),
    };
    SlotRefusal {
        slot,
        en: refusal.message(Lang::En),
        zh: refusal.message(Lang::Zh),
        line,
        col,
        empty: matches!(refusal, Refusal::Empty),
    }
}

/// Runs `plan` with the learner's `statements`: first each asked slot's
/// statement alone on a scratch table (a refusal there — syntax, two
/// statements, `ATTACH`, … — stops everything), then every case. The
/// whole run has [`BATTERY_BUDGET_MS`].
pub fn run(plan: &Plan, statements: &Statements) -> PlanRun {
    run_stoppable(plan, statements, &Stop::new())
}

/// [`run`], stopped as soon as `stop` is set (from another thread): the
/// run then ends with [`Refusal::Cancelled`] for the slot that was running.
///
/// A bound of the box ([`Refusal::is_bound`]: steps, time, memory, a
/// value's size, the stop) met during a case ends the whole run the same
/// way as a refusal up front: named for its slot, no case judged, so the
/// session counts no try; it says the statement was not let finish, not
/// that it is wrong.
pub fn run_stoppable(plan: &Plan, statements: &Statements, stop: &Stop) -> PlanRun {
    run_within(
        plan,
        statements,
        &Outer::starting_now(BATTERY_BUDGET_MS, stop),
    )
}

/// [`run_stoppable`] within `outer`'s deadline.
fn run_within(plan: &Plan, statements: &Statements, outer: &Outer) -> PlanRun {
    let mut refused = Vec::new();
    for slot in &plan.slots {
        let text = statements.get(slot).map_or("", String::as_str);
        let outcome = fresh(plan)
            .and_then(|conn| run_bounded(&conn, text, &ASKED, &null_params(), outer).map(|_| ()));
        if let Err(refusal) = outcome {
            refused.push(slot_refusal(*slot, &refusal));
            // Past the run's deadline or stopped, the next slot would be too.
            if matches!(refusal, Refusal::RunTimedOut { .. } | Refusal::Cancelled) {
                break;
            }
        }
    }
    if !refused.is_empty() {
        return PlanRun {
            refused,
            cases: Vec::new(),
        };
    }
    let mut cases = Vec::with_capacity(plan.cases.len());
    for case in &plan.cases {
        match run_case(plan, case, statements, outer) {
            Ok(run) => cases.push(run),
            Err(refusal) => {
                return PlanRun {
                    refused: vec![refusal],
                    cases: Vec::new(),
                };
            }
        }
    }
    PlanRun { refused, cases }
}

/// One case on a fresh table; `Err` when a bound of the box stopped one of
/// its statements (named for the learner's slot that ran last: a model's
/// own statement is never the one to blame).
fn run_case(
    plan: &Plan,
    case: &sim_core::sqllab::PlanCase,
    statements: &Statements,
    outer: &Outer,
) -> Result<CaseRun, SlotRefusal> {
    let mut run = CaseRun::default();
    let conn = match fresh(plan) {
        Ok(conn) => conn,
        Err(refusal) => {
            run.steps.push(StepRun::Refused {
                en: refusal.message(Lang::En),
                zh: refusal.message(Lang::Zh),
            });
            return Ok(run);
        }
    };
    let mut blamed = plan.slots.first().copied().unwrap_or(Slot::Claim);
    for step in &case.steps {
        let text = match &step.sql {
            PlanSql::Slot(slot) => {
                blamed = *slot;
                statements.get(slot).map_or("", String::as_str)
            }
            PlanSql::Fixed(text) => text.as_str(),
        };
        match run_bounded(&conn, text, &ASKED, &bound(&step.params), outer) {
            Ok(ran) => run.steps.push(StepRun::Ran {
                rows: u64::try_from(ran.rows).unwrap_or(u64::MAX),
                row: read_row(&conn, plan, &step.job),
                returned: returned(&ran),
            }),
            Err(refusal) if refusal.is_bound() => return Err(slot_refusal(blamed, &refusal)),
            Err(refusal) => {
                run.steps.push(StepRun::Refused {
                    en: refusal.message(Lang::En),
                    zh: refusal.message(Lang::Zh),
                });
                break;
            }
        }
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::sqllab::{Case, judge, plan};

    const CLAIM: &str = "UPDATE jobs SET owner = :owner, lease_until = :now + :ttl,\n  \
                         fence = fence + 1, state = 'running'\nWHERE id = :job\n  \
                         AND (lease_until IS NULL OR lease_until <= :now)\n  \
                         AND state IN ('ready', 'running')\nRETURNING fence";
    const RENEW: &str = "UPDATE jobs SET lease_until = :now + :ttl WHERE id = :job \
                         AND owner = :owner AND fence = :token AND lease_until > :now \
                         AND state = 'running'";
    const FINISH: &str = "UPDATE jobs SET state = 'done' WHERE id = :job AND owner = :owner \
                          AND fence = :token AND lease_until > :now AND state = 'running'";

    fn answers() -> Statements {
        [
            (Slot::Claim, CLAIM),
            (Slot::Renew, RENEW),
            (Slot::Finish, FINISH),
        ]
        .into_iter()
        .map(|(slot, text)| (slot, text.to_owned()))
        .collect()
    }

    fn lab() -> Plan {
        let scenario = Case::Takeover.scenario().unwrap();
        plan(&scenario, &[Slot::Claim, Slot::Renew, Slot::Finish]).unwrap()
    }

    #[test]
    fn a_correct_set_passes_every_case_and_a_missing_check_fails_its_case() {
        let plan = lab();
        let verdicts = judge(&plan, &run(&plan, &answers()));
        assert!(verdicts.iter().all(|v| v.passed()), "{verdicts:#?}");
        let mut loose = answers();
        loose.insert(Slot::Finish, FINISH.replace(" AND state = 'running'", ""));
        let verdicts = judge(&plan, &run(&plan, &loose));
        let failed: Vec<Case> = verdicts
            .iter()
            .filter(|v| !v.passed())
            .map(|v| v.case)
            .collect();
        assert!(failed.contains(&Case::Cancelled), "{failed:?}");
    }

    #[test]
    fn a_refused_statement_stops_the_run_with_its_slot_and_position() {
        let plan = lab();
        let mut bad = answers();
        bad.insert(
            Slot::Renew,
            "UPDATE jobs\nSET x = 1 WHER id = :job".to_owned(),
        );
        let result = run(&plan, &bad);
        assert!(result.cases.is_empty());
        assert_eq!(result.refused.len(), 1);
        assert_eq!(result.refused[0].slot, Slot::Renew);
        assert_eq!(result.refused[0].line, Some(2));
    }

    /// Runs ten million steps that each build a 16 KB value: short enough
    /// for the box, long enough to take seconds; on the scratch table too
    /// (it changes every row, whatever the parameters).
    const SLOW: &str = "UPDATE jobs SET owner = (SELECT sum(length(randomblob(16000))) FROM \
                        (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c \
                        LIMIT 10000000) SELECT x FROM c))";

    /// [`SLOW`] for every slot of `plan`.
    fn all_slow(plan: &Plan) -> Statements {
        plan.slots
            .iter()
            .map(|slot| (*slot, SLOW.to_owned()))
            .collect()
    }

    /// Issue 20: the CPU statement of the issue, as the claim. It asked
    /// SQLite for a megabyte per step (over 120 s); now the value is
    /// refused at its first step, named for the claim, within the budget.
    #[test]
    fn the_issues_cpu_statement_as_the_claim_is_stopped_within_the_budget() {
        let plan = lab();
        let mut typed = answers();
        typed.insert(
            Slot::Claim,
            "UPDATE jobs SET owner = (SELECT sum(length(randomblob(1000000))) FROM \
             (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000) \
             SELECT x FROM c)) WHERE id = :job"
                .to_owned(),
        );
        let started = web_time::Instant::now();
        let result = run(&plan, &typed);
        assert!(
            started.elapsed().as_millis() < u128::from(BATTERY_BUDGET_MS),
            "{:?}",
            started.elapsed()
        );
        assert!(result.cases.is_empty(), "no case is judged: {result:?}");
        assert_eq!(result.refused.len(), 1, "{result:?}");
        assert_eq!(result.refused[0].slot, Slot::Claim);
        assert_eq!(result.refused[0].en, Refusal::TooBig.message(Lang::En));
    }

    /// The battery's own deadline stops a statement still within its own
    /// budget, and nothing after it runs.
    #[test]
    fn the_runs_deadline_stops_the_battery() {
        let plan = lab();
        let typed = all_slow(&plan);
        let outer = Outer::starting_now(100, &Stop::new());
        let result = run_within(&plan, &typed, &outer);
        let refused: Vec<(Slot, &str)> = result
            .refused
            .iter()
            .map(|r| (r.slot, r.en.as_str()))
            .collect();
        let said = Refusal::RunTimedOut { budget_ms: 100 }.message(Lang::En);
        assert_eq!(refused, [(plan.slots[0], said.as_str())]);
        assert!(result.cases.is_empty());
    }

    /// A stop set from another thread ends the run at the statement's next
    /// progress check: cancelled, not graded.
    #[test]
    fn a_stop_from_another_thread_cancels_the_battery() {
        let plan = lab();
        let typed = all_slow(&plan);
        let stop = Stop::new();
        let stopper = stop.clone();
        let thread = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stopper.stop();
        });
        let result = run_stoppable(&plan, &typed, &stop);
        thread.join().unwrap();
        assert_eq!(result.refused.len(), 1, "{result:?}");
        assert_eq!(result.refused[0].en, Refusal::Cancelled.message(Lang::En));
        // Stopped before it starts: nothing runs at all.
        let result = run_stoppable(&plan, &answers(), &stop);
        assert_eq!(result.refused[0].en, Refusal::Cancelled.message(Lang::En));
        assert!(result.cases.is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 64,
            failure_persistence: None,
            rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Whatever the learner types, the battery answers (a run or a
        /// refusal) and the judge gives a verdict per case: no panic.
        #[test]
        fn any_statement_is_run_or_refused_without_panic(cut in 0usize..FINISH.len(), text in "\\PC{0,60}") {
            let plan = lab();
            let mut typed = answers();
            typed.insert(Slot::Finish, format!("{}{text}", &FINISH[..cut]));
            let run = run(&plan, &typed);
            proptest::prop_assert_eq!(judge(&plan, &run).len(), plan.cases.len());
        }
    }
}
