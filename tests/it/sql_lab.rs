//! The SQL lab (`sql` exercises, issue 14): learner statements run on a
//! real SQLite through `sqlbox::battery` and are judged against the model.
//!
//! The reference statements below are the test suite's own (the lesson
//! files hold none); every expected outcome comes from the simulator's run
//! of the battery's scenarios.

use fencelab::sqlbox::battery;
use sim_core::course::{Answer, CourseError, CourseSession, Lesson, SqlAnswer, parse_lesson};
use sim_core::sqllab::{Case, Plan, Slot, Statements, judge, plan};
use sim_core::{Lang, Scenario};

const CLAIM: &str = "UPDATE jobs\n\
   SET owner = :owner, lease_until = :now + :ttl, fence = fence + 1, state = 'running'\n\
 WHERE id = :job\n\
   AND (lease_until IS NULL OR lease_until <= :now)\n\
   AND state IN ('ready', 'running')\n\
RETURNING fence";
const RENEW: &str = "UPDATE jobs SET lease_until = :now + :ttl\n\
 WHERE id = :job AND owner = :owner AND fence = :token\n\
   AND lease_until > :now AND state = 'running'";
const FINISH: &str = "UPDATE jobs SET state = 'done'\n\
 WHERE id = :job AND owner = :owner AND fence = :token\n\
   AND lease_until > :now AND state = 'running'";
const CANCEL: &str =
    "UPDATE jobs SET state = 'cancelled' WHERE id = :job AND state IN ('ready', 'running')";

/// The reference set, for the slots asked.
fn reference(slots: &[Slot]) -> Statements {
    slots
        .iter()
        .map(|slot| {
            let text = match slot {
                Slot::Claim => CLAIM,
                Slot::Renew => RENEW,
                Slot::Finish => FINISH,
                Slot::Cancel => CANCEL,
            };
            (*slot, text.to_owned())
        })
        .collect()
}

const ALL: [Slot; 4] = [Slot::Claim, Slot::Renew, Slot::Finish, Slot::Cancel];

fn lab() -> Plan {
    let scenario: Scenario = Case::Takeover.scenario().unwrap();
    plan(&scenario, &ALL).unwrap()
}

/// The cases `statements` fail.
fn failing(plan: &Plan, statements: &Statements) -> Vec<Case> {
    judge(plan, &battery::run(plan, statements))
        .into_iter()
        .filter(|verdict| !verdict.passed())
        .map(|verdict| verdict.case)
        .collect()
}

fn lessons() -> Vec<Lesson> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| parse_lesson(&std::fs::read(path).unwrap()).unwrap())
        .collect()
}

#[test]
fn a_correct_set_passes_every_case() {
    let plan = lab();
    assert_eq!(failing(&plan, &reference(&ALL)), []);
    // The article's numbers, as SQLite produced them.
    let run = battery::run(&plan, &reference(&ALL));
    let takeover = plan
        .cases
        .iter()
        .position(|c| c.case == Case::Takeover)
        .unwrap();
    let rows: Vec<String> = run.cases[takeover]
        .steps
        .iter()
        .map(|step| format!("{step:?}"))
        .collect();
    assert!(
        rows[0].contains("rows: 1") && rows[0].contains("fence: 1"),
        "{rows:?}"
    );
    assert!(
        rows[1].contains("rows: 1") && rows[1].contains("fence: 2"),
        "{rows:?}"
    );
    assert!(rows[2].contains("rows: 0"), "{rows:?}");
    assert!(rows[3].contains("rows: 1"), "{rows:?}");
}

#[test]
fn dropping_the_state_condition_fails_the_cancelled_job() {
    let plan = lab();
    let mut loose = reference(&ALL);
    for slot in [Slot::Renew, Slot::Finish] {
        let text = loose[&slot].replace(" AND state = 'running'", "");
        loose.insert(slot, text);
    }
    assert!(failing(&plan, &loose).contains(&Case::Cancelled));
}

#[test]
fn dropping_fence_fails_the_restarted_incarnation() {
    let plan = lab();
    let mut loose = reference(&ALL);
    for slot in [Slot::Renew, Slot::Finish] {
        let text = loose[&slot].replace(" AND fence = :token", "");
        loose.insert(slot, text);
    }
    let failed = failing(&plan, &loose);
    assert!(failed.contains(&Case::RestartedIncarnation), "{failed:?}");
    // The owner still tells a different worker apart: that case passes.
    assert!(!failed.contains(&Case::DifferentOwner), "{failed:?}");
}

#[test]
fn a_claim_that_forgets_the_null_lease_fails_the_never_claimed_job() {
    let plan = lab();
    let mut loose = reference(&ALL);
    let text = loose[&Slot::Claim].replace(
        "(lease_until IS NULL OR lease_until <= :now)",
        "lease_until <= :now",
    );
    loose.insert(Slot::Claim, text);
    assert!(failing(&plan, &loose).contains(&Case::NeverClaimed));
}

/// `statements` with `from` replaced by `to` in `slot`'s statement (which
/// must hold it: a variant that changes nothing tests nothing).
fn variant(statements: &Statements, slot: Slot, from: &str, to: &str) -> Statements {
    let mut changed = statements.clone();
    assert!(changed[&slot].contains(from), "{from} in {slot:?}");
    changed.insert(slot, changed[&slot].replace(from, to));
    changed
}

/// Issue 23: a claim that takes a lease only once it is past its end
/// (`<` for `<=`), and a renew or finish that still counts the last tick
/// as held (`>=` for `>`), each fail the case that runs every statement
/// exactly at `lease_until`.
#[test]
fn off_by_one_lease_comparisons_fail_the_lease_boundary() {
    let plan = lab();
    let reference = reference(&ALL);
    for (slot, from, to) in [
        (Slot::Claim, "lease_until <= :now", "lease_until < :now"),
        (Slot::Renew, "lease_until > :now", "lease_until >= :now"),
        (Slot::Finish, "lease_until > :now", "lease_until >= :now"),
    ] {
        let failed = failing(&plan, &variant(&reference, slot, from, to));
        assert!(
            failed.contains(&Case::LeaseBoundary),
            "{slot:?}: {failed:?}"
        );
    }
}

/// Issue 23: a claim without `RETURNING` changes the right rows but never
/// tells its worker the token; it fails the case that checks the token
/// alone, and says so. Returning another column fails it too.
#[test]
fn a_claim_that_returns_no_token_fails_its_own_case_and_says_why() {
    let plan = lab();
    let reference = reference(&ALL);
    for returning in ["", "\nRETURNING id", "\nRETURNING lease_until"] {
        let statements = variant(&reference, Slot::Claim, "\nRETURNING fence", returning);
        let verdicts = judge(&plan, &battery::run(&plan, &statements));
        let failed: Vec<Case> = verdicts
            .iter()
            .filter(|v| !v.passed())
            .map(|v| v.case)
            .collect();
        assert_eq!(failed, [Case::ClaimReturnsToken], "{returning:?}");
        let said = verdicts
            .iter()
            .find(|v| !v.passed())
            .unwrap()
            .words(Lang::En);
        assert!(said.contains("returned no fence"), "{said}");
    }
    // Spelled as the model sends it, or in capitals, it passes.
    for returning in ["\nRETURNING id, fence", "\nreturning FENCE"] {
        let statements = variant(&reference, Slot::Claim, "\nRETURNING fence", returning);
        assert_eq!(failing(&plan, &statements), [], "{returning:?}");
    }
}

/// Issue 23: a ready job can be cancelled too; a cancel limited to
/// running jobs fails the case that cancels one nobody claimed.
#[test]
fn a_running_only_cancel_fails_the_cancel_of_a_ready_job() {
    let plan = lab();
    let statements = variant(
        &reference(&ALL),
        Slot::Cancel,
        "state IN ('ready', 'running')",
        "state = 'running'",
    );
    let failed = failing(&plan, &statements);
    assert_eq!(failed, [Case::CancelReady], "{failed:?}");
}

/// Issue 23: lesson 05's exercise runs a design without a cancel epoch, as
/// its prompt says: a cancel that also advances the fence writes a row the
/// model does not, and fails.
#[test]
fn a_cancel_that_advances_the_fence_fails_where_the_design_has_no_epoch() {
    let lessons = lessons();
    let lesson = lessons.iter().find(|l| l.id.starts_with("05-")).unwrap();
    let exercise = lesson
        .exercises
        .iter()
        .find(|e| e.kind.name() == "sql")
        .unwrap();
    let sim_core::course::ExerciseKind::Sql { scenario, slots } = &exercise.kind else {
        unreachable!()
    };
    assert!(!lesson.scenario(*scenario).unwrap().design.cancel_epoch);
    let session = CourseSession::new(lessons.clone(), sim_core::course::Progress::default());
    let plan = session.sql_plan(&lesson.id, &exercise.id).unwrap();
    let statements = variant(
        &reference(slots),
        Slot::Cancel,
        "SET state = 'cancelled'",
        "SET state = 'cancelled', fence = fence + 1",
    );
    let failed = failing(&plan, &statements);
    assert!(failed.contains(&Case::Lesson), "{failed:?}");
    assert!(failed.contains(&Case::Cancelled), "{failed:?}");
}

/// Every `sql` exercise's worked solution (the statements the model sends)
/// passes every case of its plan, the new ones included.
#[test]
fn every_worked_solution_passes_every_case() {
    for lesson in lessons() {
        let problems = sim_core::course::sql_unsolved(&lesson, |plan| {
            battery::run(plan, &sim_core::sqllab::model_statements(&plan.slots))
        });
        assert!(problems.is_empty(), "{}: {problems:?}", lesson.id);
    }
}

/// The course's `sql` exercise, graded through the session as a front end
/// does: statements run in the box, then judged.
fn session_and_exercise() -> (CourseSession, String, String, Vec<Slot>) {
    let lessons = lessons();
    let (lesson, exercise) = lessons
        .iter()
        .find_map(|lesson| {
            let exercise = lesson.exercises.iter().find(|e| e.kind.name() == "sql")?;
            Some((lesson.id.clone(), exercise.clone()))
        })
        .expect("the course has a sql exercise");
    let sim_core::course::ExerciseKind::Sql { slots, .. } = &exercise.kind else {
        unreachable!()
    };
    let slots = slots.clone();
    (
        CourseSession::new(lessons, sim_core::course::Progress::default()),
        lesson,
        exercise.id,
        slots,
    )
}

fn answer(session: &CourseSession, lesson: &str, id: &str, statements: Statements) -> Answer {
    let plan = session.sql_plan(lesson, id).unwrap();
    let run = battery::run(&plan, &statements);
    Answer::Sql(SqlAnswer {
        statements,
        run: Some(run),
    })
}

#[test]
fn attach_or_two_statements_are_refused_with_a_clear_message_and_not_counted() {
    let (mut session, lesson, id, slots) = session_and_exercise();
    for (bad, said) in [
        (
            format!("{FINISH}; DELETE FROM jobs"),
            "only one statement is accepted",
        ),
        (
            "ATTACH DATABASE 'other.db' AS other".to_owned(),
            "a `ATTACH` statement was not asked for",
        ),
        (
            "UPDATE jobs SET state = (SELECT load_extension('x'))".to_owned(),
            "load_extension() is not allowed here",
        ),
    ] {
        let mut statements = reference(&slots);
        statements.insert(Slot::Finish, bad);
        let answer = answer(&session, &lesson, &id, statements);
        let Err(CourseError::SqlRefused(refused)) = session.grade(&lesson, &id, &answer) else {
            panic!("not refused: {said}");
        };
        assert_eq!(refused[0].slot, Slot::Finish);
        let message = CourseError::SqlRefused(refused).message(Lang::En);
        assert!(message.contains(said), "{message}");
    }
    assert_eq!(session.exercise_progress(&lesson, &id).attempts, 0);
}

#[test]
fn feedback_gives_a_count_first_then_the_case_and_the_row_counts() {
    let (mut session, lesson, id, slots) = session_and_exercise();
    let mut loose = reference(&slots);
    let text = loose[&Slot::Finish].replace(" AND state = 'running'", "");
    loose.insert(Slot::Finish, text);
    let first = session
        .grade(&lesson, &id, &answer(&session, &lesson, &id, loose.clone()))
        .unwrap();
    assert!(!first.feedback.correct);
    assert!(first.feedback.items.is_empty(), "{:?}", first.feedback);
    let second = session
        .grade(&lesson, &id, &answer(&session, &lesson, &id, loose))
        .unwrap();
    let said: Vec<&str> = second
        .feedback
        .items
        .iter()
        .map(|i| i.text.en.as_str())
        .collect();
    assert!(
        said.iter()
            .any(|s| s.contains("a cancelled job")
                && s.contains("changed 1 row(s); it must change 0")),
        "{said:?}"
    );
    // No statement is shown before it is solved or its solution seen.
    assert!(said.iter().all(|s| !s.contains("UPDATE")), "{said:?}");
    let right = session
        .grade(
            &lesson,
            &id,
            &answer(&session, &lesson, &id, reference(&slots)),
        )
        .unwrap();
    assert!(right.feedback.correct, "{:?}", right.feedback.items);
}

/// Lint's proof that every `sql` exercise of the course can be solved: the
/// reference statements pass every case of its plan.
#[test]
fn every_sql_exercise_of_the_course_is_solvable_with_the_reference_statements() {
    let mut exercises = 0;
    for lesson in lessons() {
        exercises += lesson
            .exercises
            .iter()
            .filter(|e| e.kind.name() == "sql")
            .count();
        let problems = sim_core::course::sql_unsolved(&lesson, |plan| {
            battery::run(plan, &reference(&plan.slots))
        });
        assert!(problems.is_empty(), "{}: {problems:?}", lesson.id);
    }
    assert!(exercises > 0, "the course has no sql exercise");
}

/// Issue 20: the statements that once ran for minutes or took gigabytes,
/// as the claim of lesson 02's exercise and the cancel of lesson 05's,
/// graded through the session: refused with their cause named, for their
/// slot, within the battery's budget, and not counted as a try.
#[test]
fn the_issues_runaway_statements_are_refused_with_a_named_cause_and_not_counted() {
    let lessons = lessons();
    let sql_exercise = |prefix: &str| {
        let lesson = lessons.iter().find(|l| l.id.starts_with(prefix)).unwrap();
        let exercise = lesson
            .exercises
            .iter()
            .find(|e| e.kind.name() == "sql")
            .unwrap();
        let sim_core::course::ExerciseKind::Sql { slots, .. } = &exercise.kind else {
            unreachable!()
        };
        (lesson.id.clone(), exercise.id.clone(), slots.clone())
    };
    let mut session = CourseSession::new(lessons.clone(), sim_core::course::Progress::default());
    let too_big = "builds a value longer than 16384 bytes";
    for (prefix, slot, statement) in [
        (
            "02-",
            Slot::Claim,
            "UPDATE jobs SET owner = (SELECT sum(length(randomblob(1000000))) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000) SELECT x FROM c)) WHERE id = :job",
        ),
        (
            "02-",
            Slot::Claim,
            "UPDATE jobs SET owner = hex(zeroblob(400000000)) WHERE id = :job",
        ),
        (
            "02-",
            Slot::Claim,
            "UPDATE jobs SET owner = randomblob(500000000) WHERE id = :job",
        ),
        (
            "05-",
            Slot::Cancel,
            "UPDATE jobs SET owner = hex(zeroblob(1e8)) WHERE id = :job",
        ),
    ] {
        let (lesson, id, slots) = sql_exercise(prefix);
        let mut statements = reference(&slots);
        statements.insert(slot, statement.to_owned());
        let started = std::time::Instant::now();
        let answer = answer(&session, &lesson, &id, statements);
        assert!(
            started.elapsed().as_millis() < u128::from(battery::BATTERY_BUDGET_MS),
            "{statement}: {:?}",
            started.elapsed()
        );
        let Err(CourseError::SqlRefused(refused)) = session.grade(&lesson, &id, &answer) else {
            panic!("not refused: {statement}");
        };
        assert_eq!(refused[0].slot, slot, "{statement}");
        let message = CourseError::SqlRefused(refused).message(Lang::En);
        assert!(message.contains(too_big), "{statement}: {message}");
        assert_eq!(session.exercise_progress(&lesson, &id).attempts, 0);
    }
}
