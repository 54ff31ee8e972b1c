//! Runs a [`Plan`] of the SQL lab (`sim_core::sqllab`): the learner's
//! statements, each through the box ([`run_untrusted`]: one `UPDATE`, the
//! authorizer, the step bound), on a fresh in-memory SQLite per case. It
//! only reports what SQLite did; sim-core judges it against the model. No
//! native-only code: the page runs the same function compiled to wasm.

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};
use sim_core::Lang;
use sim_core::sql::SqlValue;
use sim_core::sqllab::{
    CaseRun, JobRow, Plan, PlanParam, PlanRun, PlanSql, SlotRefusal, Statements, StepRun,
};

use crate::{Kind, Refusal, run_untrusted};

/// The statement kinds a lab answer may be: every slot is one `UPDATE`.
const ASKED: [Kind; 1] = [Kind::Update];

fn value(value: &SqlValue) -> Value {
    match value {
        SqlValue::Null => Value::Null,
        SqlValue::Int(n) => Value::Integer(*n),
        SqlValue::Text(text) => Value::Text(text.clone()),
    }
}

/// A database with the plan's job table, as every case starts.
fn fresh(plan: &Plan) -> Result<Connection, Refusal> {
    let failed = |error: rusqlite::Error| Refusal::Failed {
        message: error.to_string(),
    };
    let conn = Connection::open_in_memory().map_err(failed)?;
    for statement in &plan.schema {
        conn.execute_batch(statement).map_err(failed)?;
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

/// Runs `plan` with the learner's `statements`: first each asked slot's
/// statement alone on a scratch table (a refusal there — syntax, two
/// statements, `ATTACH`, … — stops everything), then every case.
pub fn run(plan: &Plan, statements: &Statements) -> PlanRun {
    let mut refused = Vec::new();
    for slot in &plan.slots {
        let text = statements.get(slot).map_or("", String::as_str);
        let outcome = fresh(plan)
            .and_then(|conn| run_untrusted(&conn, text, &ASKED, &null_params()).map(|_| ()));
        if let Err(refusal) = outcome {
            let (line, col) = match &refusal {
                Refusal::Syntax { line, col, .. } => {
                    (u32::try_from(*line).ok(), u32::try_from(*col).ok())
                }
                _ => (None, None),
            };
            refused.push(SlotRefusal {
                slot: *slot,
                en: refusal.message(Lang::En),
                zh: refusal.message(Lang::Zh),
                line,
                col,
            });
        }
    }
    if !refused.is_empty() {
        return PlanRun {
            refused,
            cases: Vec::new(),
        };
    }
    let cases = plan
        .cases
        .iter()
        .map(|case| {
            let mut run = CaseRun::default();
            let conn = match fresh(plan) {
                Ok(conn) => conn,
                Err(refusal) => {
                    run.steps.push(StepRun::Refused {
                        en: refusal.message(Lang::En),
                        zh: refusal.message(Lang::Zh),
                    });
                    return run;
                }
            };
            for step in &case.steps {
                let text = match &step.sql {
                    PlanSql::Slot(slot) => statements.get(slot).map_or("", String::as_str),
                    PlanSql::Fixed(text) => text.as_str(),
                };
                match run_untrusted(&conn, text, &ASKED, &bound(&step.params)) {
                    Ok(ran) => run.steps.push(StepRun::Ran {
                        rows: u64::try_from(ran.rows).unwrap_or(u64::MAX),
                        row: read_row(&conn, plan, &step.job),
                    }),
                    Err(refusal) => {
                        run.steps.push(StepRun::Refused {
                            en: refusal.message(Lang::En),
                            zh: refusal.message(Lang::Zh),
                        });
                        break;
                    }
                }
            }
            run
        })
        .collect();
    PlanRun { refused, cases }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::sqllab::{Case, Slot, judge, plan};

    const CLAIM: &str = "UPDATE jobs SET owner = :owner, lease_until = :now + :ttl,\n  \
                         fence = fence + 1, state = 'running'\nWHERE id = :job\n  \
                         AND (lease_until IS NULL OR lease_until <= :now)\n  \
                         AND state IN ('ready', 'running')";
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
