//! Grading every exercise kind, and the worked solutions — all computed by
//! the engine and the explorers from the lesson's scenario and design.

use crate::Lang;
#[allow(unused_imports)]
use crate::course::kinds::{design::*, mark::*, predict::*, quiz::*, schedule::*, sql::*};

use crate::course::error::CourseError;
use crate::course::lesson::{Exercise, ExerciseKind, Lesson};
use crate::design::{CheckSet, ClaimProcedure, LeaseClock, Protect, TokenKind};
use crate::explore::Counterexample;
use crate::resource::MinimalDesign;
use crate::scenario::{Scenario, Step, Text};
use crate::sqllab::{PlanRun, Statements};
use crate::trace::Outcome;

/// A learner's answer to one exercise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The step indices marked as "must be rejected".
    Mark(Vec<u32>),
    /// (step index, predicted outcome).
    Predict(Vec<(u32, Outcome)>),
    Design(DesignAnswer),
    /// The learner's schedule.
    Break(Schedule),
    /// The chosen options' indices.
    Quiz(Vec<usize>),
    /// Only where the SQL lab is built in (feature `sql-lab`): the page's
    /// initial wasm carries no SQL answers.
    #[cfg(feature = "sql-lab")]
    Sql(SqlAnswer),
}

/// A `sql` exercise's answer: the learner's statements by slot, and the
/// front end's run of the exercise's plan with them
/// ([`CourseSession::sql_plan`](super::CourseSession::sql_plan), then
/// `sqlbox::battery::run`). sim-core cannot run SQLite; it judges the run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SqlAnswer {
    pub statements: Statements,
    /// `None` until the front end has run the plan.
    pub run: Option<PlanRun>,
}

/// A break exercise's answer: the steps of a schedule in the exercise's
/// world, and the operation ids, values and request ids they name
/// (indexed by `OpRef::Named`, `ValueRef::Named` and `Step::request`). The
/// world itself — workers, targets, design — always comes from the lesson.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    pub steps: Vec<Step>,
    pub ops: Vec<String>,
    pub values: Vec<String>,
    pub requests: Vec<String>,
}

impl Schedule {
    /// A scenario's steps, with the names they use: a break exercise's
    /// given schedule, or a counterexample's.
    pub fn of_scenario(scenario: &Scenario) -> Schedule {
        Schedule {
            steps: scenario.steps.clone(),
            ops: scenario.ops.clone(),
            values: scenario.values.clone(),
            requests: scenario.requests.clone(),
        }
    }
}

impl Answer {
    /// Nothing answered: no mark, no prediction, no option chosen, no step
    /// in the schedule. A design answer is never empty: it keeps the start
    /// values of the knobs it does not turn, and that is a design to test.
    pub fn is_empty(&self) -> bool {
        match self {
            Answer::Mark(marked) => marked.is_empty(),
            Answer::Predict(predicted) => predicted.is_empty(),
            Answer::Quiz(chosen) => chosen.is_empty(),
            Answer::Break(schedule) => schedule.steps.is_empty(),
            Answer::Design(_) => false,
            #[cfg(feature = "sql-lab")]
            Answer::Sql(answer) => answer.statements.values().all(|s| s.trim().is_empty()),
        }
    }

    /// A `sql` answer's statements (always `None` without the SQL lab).
    pub fn sql_statements(&self) -> Option<&Statements> {
        match self {
            #[cfg(feature = "sql-lab")]
            Answer::Sql(answer) => Some(&answer.statements),
            _ => None,
        }
    }

    /// The exercise kind this answers (`mark`, `predict`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Answer::Mark(_) => "mark",
            Answer::Predict(_) => "predict",
            Answer::Design(_) => "design",
            Answer::Break(_) => "break",
            Answer::Quiz(_) => "quiz",
            #[cfg(feature = "sql-lab")]
            Answer::Sql(_) => "sql",
        }
    }
}

impl From<Vec<Step>> for Schedule {
    /// Steps that name no operation id or value of their own.
    fn from(steps: Vec<Step>) -> Schedule {
        Schedule {
            steps,
            ..Schedule::default()
        }
    }
}

/// The knobs a learner turned; `None` keeps the exercise's start value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DesignAnswer {
    pub commit_checks: Option<CheckSet>,
    pub renew_checks: Option<CheckSet>,
    pub token: Option<TokenKind>,
    pub lease_clock: Option<LeaseClock>,
    pub target_protect: Option<Vec<Protect>>,
    pub claim: Option<ClaimProcedure>,
    pub cancel_epoch: Option<bool>,
    pub input_revision: Option<bool>,
    /// The targets (indices) whose effects the design leaves possible and
    /// sends to reconciliation.
    pub reconcile: Vec<u8>,
}

/// One graded part of an answer (a step, an option, a verdict).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeItem {
    /// The scenario step or quiz option it is about.
    pub index: Option<u32>,
    pub right: bool,
    pub text: Text,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grade {
    pub correct: bool,
    pub summary: Text,
    pub items: Vec<GradeItem>,
    /// Design: the explorers' counterexample to the learner's design.
    pub counterexample: Option<Counterexample>,
    /// Break: the learner's schedule as a scenario (with its world).
    pub scenario: Option<Scenario>,
}

pub(crate) fn text(en: String, zh: String) -> Text {
    Text { en, zh }
}

/// Both languages of a narration.
pub(crate) fn told(f: impl Fn(Lang) -> String) -> Text {
    text(f(Lang::En), f(Lang::Zh))
}

/// Grades `answer` to `exercise` of `lesson`, computing the key now.
pub fn grade(lesson: &Lesson, exercise: &Exercise, answer: &Answer) -> Result<Grade, CourseError> {
    match (&exercise.kind, answer) {
        (
            ExerciseKind::Mark {
                scenario,
                candidates,
            },
            Answer::Mark(marked),
        ) => grade_mark(lesson, *scenario, candidates, marked),
        (ExerciseKind::Predict { scenario, steps }, Answer::Predict(predicted)) => {
            grade_predict(lesson, *scenario, steps.as_deref(), predicted)
        }
        (kind @ ExerciseKind::Design { .. }, Answer::Design(choice)) => {
            let exercise =
                DesignExercise::of(kind).ok_or(CourseError::WrongKind { kind: kind.name() })?;
            grade_design(&exercise, choice)
        }
        (
            ExerciseKind::Break {
                scenario,
                violation,
            },
            Answer::Break(schedule),
        ) => grade_break(lesson, *scenario, *violation, schedule),
        (ExerciseKind::Quiz { options, .. }, Answer::Quiz(chosen)) => {
            Ok(grade_quiz(options, chosen))
        }
        #[cfg(feature = "sql-lab")]
        (ExerciseKind::Sql { .. }, Answer::Sql(answer)) => grade_sql(lesson, exercise, answer),
        _ => Err(CourseError::WrongKind {
            kind: exercise.kind.name(),
        }),
    }
}

/// A grade whose items must all be right (and `extra` hold).
pub(crate) fn finish(
    items: Vec<GradeItem>,
    extra: bool,
    counterexample: Option<Counterexample>,
    scenario: Option<Scenario>,
) -> Grade {
    let right = items.iter().filter(|i| i.right).count();
    let total = items.len();
    let correct = extra && right == total;
    Grade {
        correct,
        summary: text(
            format!(
                "{right} of {total} right{}",
                if correct { " — well done." } else { "." }
            ),
            format!(
                "{total} 项中答对 {right} 项{}",
                if correct { "——做得好。" } else { "。" }
            ),
        ),
        items,
        counterexample,
        scenario,
    }
}

/// A worked solution: the key in the shape of an answer, graded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub grade: Grade,
    pub key: Answer,
    /// Design exercises: the minimal safe design, for front ends that show
    /// every knob.
    pub design: Option<MinimalDesign>,
}

/// The worked solution, computed now: the key with its reasons.
pub fn solution(lesson: &Lesson, exercise: &Exercise) -> Result<Grade, CourseError> {
    worked_solution(lesson, exercise).map(|solved| solved.grade)
}

/// The key of `exercise`, computed now by the engine or the explorers.
pub(crate) fn solution_key(
    lesson: &Lesson,
    exercise: &Exercise,
) -> Result<(Answer, Option<MinimalDesign>), CourseError> {
    let key = match &exercise.kind {
        ExerciseKind::Mark {
            scenario,
            candidates,
        } => {
            let scenario = lesson
                .scenario(*scenario)
                .ok_or(CourseError::MissingScenario)?;
            // The least the learner must mark: an `Either` step is left
            // unmarked, and its item says refusing it would be conservative.
            Answer::Mark(
                mark_keys(scenario, candidates)
                    .into_iter()
                    .filter(|(_, key)| *key == MarkKey::MustRefuse)
                    .map(|(index, _)| index)
                    .collect(),
            )
        }
        ExerciseKind::Predict { scenario, steps } => {
            let scenario = lesson
                .scenario(*scenario)
                .ok_or(CourseError::MissingScenario)?;
            let trace = crate::run(scenario);
            Answer::Predict(
                asked_steps(scenario, steps.as_deref())
                    .into_iter()
                    .filter_map(|i| trace.steps.get(i as usize).map(|r| (i, r.outcome)))
                    .collect(),
            )
        }
        kind @ ExerciseKind::Design { .. } => {
            let exercise = DesignExercise::of(kind).ok_or(CourseError::NoSafeDesign)?;
            let (key, minimal) = design_key(&exercise)?;
            return Ok((Answer::Design(key), Some(minimal)));
        }
        ExerciseKind::Break {
            scenario,
            violation,
        } => {
            let shell = lesson
                .scenario(*scenario)
                .ok_or(CourseError::MissingScenario)?;
            let found =
                breaking_schedule(shell, *violation)?.ok_or(CourseError::NoBreakingSchedule)?;
            Answer::Break(Schedule::of_scenario(&found.scenario))
        }
        ExerciseKind::Quiz { options, .. } => Answer::Quiz(
            options
                .iter()
                .enumerate()
                .filter(|(_, o)| o.correct)
                .map(|(i, _)| i)
                .collect(),
        ),
        // Its worked solution is `sql_solution`'s, computed without a key run.
        ExerciseKind::Sql { .. } => return Err(CourseError::WrongKind { kind: "sql" }),
    };
    Ok((key, None))
}

/// The worked solution with its key: the key graded like any answer.
pub fn worked_solution(lesson: &Lesson, exercise: &Exercise) -> Result<Solution, CourseError> {
    #[cfg(feature = "sql-lab")]
    if let ExerciseKind::Sql { slots, .. } = &exercise.kind {
        return sql_solution(lesson, exercise, slots);
    }
    let (key, design) = solution_key(lesson, exercise)?;
    let grade = grade(lesson, exercise, &key)?;
    Ok(Solution { grade, key, design })
}
