//! Grading every exercise kind, and the worked solutions — all computed by
//! the engine and the explorers from the lesson's scenario and design.

use crate::Lang;
use serde_json::Value;

use crate::course::error::{AnswerError, CourseError, StepProblem};
use crate::course::lesson::MinimalMemo;
use crate::course::lesson::{Exercise, ExerciseKind, Knob, Lesson, QuizOption};
use crate::design::{Check, CheckSet, Design, LeaseClock, Protect, TokenKind};
use crate::explore::{
    Bounds, Counterexample, Method, RunToEnd, Sites, World, WorldOptions, explore_for,
    violation_sites,
};
use crate::narrate::{describe_step, safety_reason};
use crate::resource::{MinimalDesign, RECONCILE_COST, ResourceKind};
use crate::scenario::{Action, MAX_TIME, Scenario, Step, Text};
#[cfg(feature = "sql-lab")]
use crate::sqllab::{self, Plan};
use crate::sqllab::{PlanRun, Slot, Statements};
use crate::trace::{Outcome, ViolationKind};

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
/// world, and the operation ids and values they name (indexed by
/// `OpRef::Named` and `ValueRef::Named`). The world itself — workers,
/// targets, design — always comes from the lesson.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    pub steps: Vec<Step>,
    pub ops: Vec<String>,
    pub values: Vec<String>,
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

fn text(en: String, zh: String) -> Text {
    Text { en, zh }
}

/// Both languages of a narration.
fn told(f: impl Fn(Lang) -> String) -> Text {
    text(f(Lang::En), f(Lang::Zh))
}

fn outcome_named(name: &str) -> Option<Outcome> {
    [
        Outcome::Ok,
        Outcome::Rejected,
        Outcome::Duplicate,
        Outcome::Noop,
        Outcome::Waiting,
    ]
    .into_iter()
    .find(|o| o.name() == name)
}

/// Reads an answer's JSON (the `mark`, `predict`, `design`, `break` or
/// `quiz` value of an answers file) for `exercise` of `lesson`.
pub fn answer_from_json(
    lesson: &Lesson,
    exercise: &Exercise,
    value: &Value,
) -> Result<Answer, CourseError> {
    // A list of distinct indices: `[2, 2, 2]` is a slip worth naming, not
    // an answer to grade as `[2]`.
    let indices = |value: &Value, what: &'static str| -> Result<Vec<u64>, AnswerError> {
        let mut seen = Vec::new();
        for item in value.as_array().ok_or(AnswerError::NotNumbers(what))? {
            let index = item.as_u64().ok_or(AnswerError::NotNumbers(what))?;
            if seen.contains(&index) {
                return Err(AnswerError::RepeatedIndex { what, index });
            }
            seen.push(index);
        }
        Ok(seen)
    };
    match &exercise.kind {
        ExerciseKind::Mark { scenario, .. } => {
            let count = lesson.scenario(*scenario).map_or(0, |s| s.steps.len()) as u64;
            let marked = indices(value, "mark")?;
            if let Some(bad) = marked.iter().find(|i| **i >= count) {
                return Err(AnswerError::NoStep { step: *bad, count }.into());
            }
            Ok(Answer::Mark(marked.into_iter().map(|i| i as u32).collect()))
        }
        ExerciseKind::Predict { scenario, steps } => {
            let count = lesson.scenario(*scenario).map_or(0, |s| s.steps.len()) as u32;
            let object = value.as_object().ok_or(AnswerError::PredictShape)?;
            let mut predictions = Vec::new();
            for (key, outcome) in object {
                let index: u32 = key
                    .parse()
                    .map_err(|_| AnswerError::NotStepIndex(key.clone()))?;
                if index >= count || steps.as_ref().is_some_and(|s| !s.contains(&index)) {
                    return Err(AnswerError::NotAsked(index).into());
                }
                let name = outcome.as_str().unwrap_or_default();
                let outcome =
                    outcome_named(name).ok_or_else(|| AnswerError::NotOutcome(name.to_owned()))?;
                predictions.push((index, outcome));
            }
            predictions.sort_by_key(|(index, _)| *index);
            Ok(Answer::Predict(predictions))
        }
        ExerciseKind::Design {
            open,
            world,
            resources,
            gateway,
            ..
        } => Ok(Answer::Design(design_answer_from_json(
            open, world, resources, *gateway, value,
        )?)),
        ExerciseKind::Break { scenario, .. } => {
            let shell = lesson
                .scenario(*scenario)
                .ok_or(CourseError::MissingScenario)?;
            Ok(Answer::Break(steps_from_json(shell, value)?))
        }
        ExerciseKind::Quiz { options, multiple } => {
            let chosen = indices(value, "quiz")?;
            if let Some(bad) = chosen.iter().find(|i| **i as usize >= options.len()) {
                return Err(AnswerError::NoOption(*bad).into());
            }
            if !multiple && chosen.len() > 1 {
                return Err(AnswerError::ChooseOne.into());
            }
            Ok(Answer::Quiz(
                chosen.into_iter().map(|i| i as usize).collect(),
            ))
        }
        ExerciseKind::Sql { slots, .. } => sql_answer_from_json(slots, value),
    }
}

/// A `sql` answer's statements by slot (`{ "claim": "UPDATE …", … }`).
#[cfg(feature = "sql-lab")]
fn sql_answer_from_json(slots: &[Slot], value: &Value) -> Result<Answer, CourseError> {
    let object = value.as_object().ok_or(AnswerError::SqlShape)?;
    let mut statements = Statements::new();
    for (key, text) in object {
        let slot = slots
            .iter()
            .copied()
            .find(|slot| slot.name() == key)
            .ok_or_else(|| AnswerError::UnknownSlot(key.clone()))?;
        let text = text.as_str().ok_or(AnswerError::SqlShape)?;
        statements.insert(slot, text.to_owned());
    }
    Ok(Answer::Sql(SqlAnswer {
        statements,
        run: None,
    }))
}

/// Without the SQL lab (the page's build) a `sql` answer cannot be run.
#[cfg(not(feature = "sql-lab"))]
fn sql_answer_from_json(_: &[Slot], _: &Value) -> Result<Answer, CourseError> {
    Err(CourseError::WrongKind { kind: "sql" })
}

/// A `sql` exercise's plan: its scenario, then the lab's battery.
#[cfg(feature = "sql-lab")]
pub fn sql_plan(lesson: &Lesson, exercise: &Exercise) -> Result<Plan, CourseError> {
    let ExerciseKind::Sql { scenario, slots } = &exercise.kind else {
        return Err(CourseError::WrongKind {
            kind: exercise.kind.name(),
        });
    };
    let scenario = lesson
        .scenario(*scenario)
        .ok_or(CourseError::MissingScenario)?;
    sqllab::plan(scenario, slots).map_err(CourseError::SqlPlan)
}

/// A `sql` answer: one item per case, right when every statement of the
/// case changed the rows and left the job row the model says. Refused
/// statements are no grade ([`CourseError::SqlRefused`]).
#[cfg(feature = "sql-lab")]
fn grade_sql(
    lesson: &Lesson,
    exercise: &Exercise,
    answer: &SqlAnswer,
) -> Result<Grade, CourseError> {
    let plan = sql_plan(lesson, exercise)?;
    let run = answer.run.as_ref().ok_or(CourseError::SqlNotRun)?;
    if !run.refused.is_empty() {
        return Err(CourseError::SqlRefused(run.refused.clone()));
    }
    let items = sqllab::judge(&plan, run)
        .iter()
        .enumerate()
        .map(|(index, verdict)| GradeItem {
            index: u32::try_from(index).ok(),
            right: verdict.passed(),
            text: told(|lang| verdict.words(lang)),
        })
        .collect();
    Ok(finish(items, true, None, None))
}

/// A `sql` exercise's worked solution: the statements the model sends, and
/// per case what they must do (the model's row counts; no run needed).
#[cfg(feature = "sql-lab")]
fn sql_solution(
    lesson: &Lesson,
    exercise: &Exercise,
    slots: &[Slot],
) -> Result<Solution, CourseError> {
    let plan = sql_plan(lesson, exercise)?;
    let statements = sqllab::model_statements(slots);
    let items = plan
        .cases
        .iter()
        .enumerate()
        .map(|(index, case)| {
            let rows: Vec<String> = case.steps.iter().map(|s| s.rows.to_string()).collect();
            GradeItem {
                index: u32::try_from(index).ok(),
                right: true,
                text: told(|lang| {
                    let rows = rows.join(" / ");
                    match lang {
                        Lang::En => format!("{}: rows {rows}", case.case.title(lang)),
                        Lang::Zh => format!("{}：行数 {rows}", case.case.title(lang)),
                    }
                }),
            }
        })
        .collect();
    let mut grade = finish(items, true, None, None);
    grade.summary = told(|lang| {
        let mut out = lang
            .pick(
                "The statements the model sends (SQLite), and what each case needs:",
                "模型发出的语句（SQLite），以及每个用例要求的结果：",
            )
            .to_owned();
        for (slot, text) in &statements {
            out.push_str(&format!("\n{}: {text}", slot.name()));
        }
        out
    });
    Ok(Solution {
        grade,
        key: Answer::Sql(SqlAnswer {
            statements,
            run: None,
        }),
        design: None,
    })
}

/// A design answer's knobs (`{ "token": "monotonic", ... }`): only the
/// exercise's open knobs, each a value its kind knows.
fn design_answer_from_json(
    open: &[Knob],
    world: &WorldOptions,
    resources: &[ResourceKind],
    gateway: bool,
    value: &Value,
) -> Result<DesignAnswer, CourseError> {
    let object = value.as_object().ok_or(AnswerError::DesignShape)?;
    let mut answer = DesignAnswer::default();
    for (key, field) in object {
        if key == "reconcile" {
            answer.reconcile = distinct_names_from_json(key, field)?
                .into_iter()
                .map(|name| {
                    (0..resources.len())
                        .find(|t| format!("t{}", t + 1) == name)
                        .map(|t| t as u8)
                        .ok_or(AnswerError::NoTarget(name))
                })
                .collect::<Result<Vec<u8>, AnswerError>>()?;
            answer.reconcile.sort_unstable();
            continue;
        }
        let knob = Knob::ALL
            .into_iter()
            .find(|k| k.name() == key)
            .ok_or_else(|| AnswerError::UnknownKnob(key.clone()))?;
        if !open.contains(&knob) {
            return Err(AnswerError::ClosedKnob(key.clone()).into());
        }
        match knob {
            Knob::CommitChecks | Knob::RenewChecks => {
                let mut set = CheckSet::EMPTY;
                for name in distinct_names_from_json(key, field)? {
                    set = set.with(
                        Check::from_name(&name)
                            .ok_or_else(|| AnswerError::UnknownCheck(name.clone()))?,
                    );
                }
                if knob == Knob::CommitChecks {
                    answer.commit_checks = Some(set);
                } else {
                    answer.renew_checks = Some(set);
                }
            }
            Knob::Token => {
                let name = field.as_str().unwrap_or_default();
                answer.token = Some(
                    TokenKind::ALL
                        .into_iter()
                        .find(|t| t.name() == name)
                        .ok_or_else(|| AnswerError::UnknownToken(name.to_owned()))?,
                );
            }
            Knob::LeaseClock => {
                let name = field.as_str().unwrap_or_default();
                answer.lease_clock = Some(
                    LeaseClock::ALL
                        .into_iter()
                        .find(|c| c.name() == name)
                        .ok_or_else(|| AnswerError::UnknownClock(name.to_owned()))?,
                );
            }
            Knob::TargetProtect => {
                answer.target_protect = Some(target_protect_from_json(
                    names_from_json(key, field)?,
                    world,
                    resources,
                    gateway,
                )?);
            }
        }
    }
    Ok(answer)
}

/// A design knob's list of names (`key` is the knob, for the error).
fn names_from_json(key: &str, field: &Value) -> Result<Vec<String>, AnswerError> {
    field
        .as_array()
        .ok_or_else(|| AnswerError::NotList(key.to_owned()))?
        .iter()
        .map(|v| {
            v.as_str()
                .map(str::to_owned)
                .ok_or_else(|| AnswerError::NotNames(key.to_owned()))
        })
        .collect()
}

/// A check knob's names, each listed once: `["owner", "owner"]` is a slip
/// to name, not a set to quietly collapse.
fn distinct_names_from_json(key: &str, field: &Value) -> Result<Vec<String>, AnswerError> {
    let names = names_from_json(key, field)?;
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(AnswerError::RepeatedName {
                key: key.to_owned(),
                name: name.clone(),
            });
        }
    }
    Ok(names)
}

/// `target_protect`'s protections, one per target of `world`, each one its
/// resource offers.
fn target_protect_from_json(
    names: Vec<String>,
    world: &WorldOptions,
    resources: &[ResourceKind],
    gateway: bool,
) -> Result<Vec<Protect>, AnswerError> {
    let protects = names
        .iter()
        .map(|name| {
            Protect::ALL
                .into_iter()
                .find(|p| p.name() == name)
                .ok_or_else(|| AnswerError::UnknownProtect(name.clone()))
        })
        .collect::<Result<Vec<Protect>, AnswerError>>()?;
    let count = world.targets.as_ref().map_or(0, Vec::len);
    if protects.len() != count {
        return Err(AnswerError::TargetCount(count));
    }
    for (index, (protect, kind)) in protects.iter().zip(resources).enumerate() {
        if kind.offer(*protect, gateway).is_none() {
            return Err(AnswerError::Unsupported {
                target: format!("t{}", index + 1),
                kind: *kind,
                protect: *protect,
                gateway,
            });
        }
    }
    Ok(protects)
}

/// A learner's schedule from JSON steps (`{ "at", "worker", "do", "target",
/// "job", "op", "value", "note" }`, the keys of a scenario's steps),
/// checked against the world of `shell`.
fn steps_from_json(shell: &Scenario, value: &Value) -> Result<Schedule, AnswerError> {
    let entries = value.as_array().ok_or(AnswerError::BreakShape)?;
    if entries.len() > 200 {
        return Err(AnswerError::TooManySteps);
    }
    // Interned into a scratch copy of the world, so indices match the tables.
    let mut names = Scenario {
        ops: Vec::new(),
        values: Vec::new(),
        ..shell.clone()
    };
    let mut steps: Vec<Step> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let previous = steps.last().map_or(0, |step| step.at);
        let step = step_from_json(shell, &mut names, entry, previous)
            .map_err(|problem| AnswerError::Step { index, problem })?;
        steps.push(step);
    }
    Ok(Schedule {
        steps,
        ops: names.ops,
        values: names.values,
    })
}

/// One step of a break answer, at or after tick `previous`; its operation
/// ids and values are interned into `names`.
fn step_from_json(
    shell: &Scenario,
    names: &mut Scenario,
    entry: &Value,
    previous: u64,
) -> Result<Step, StepProblem> {
    let object = entry.as_object().ok_or(StepProblem::NotObject)?;
    if let Some(key) = object.keys().find(|k| {
        !["at", "worker", "do", "target", "job", "op", "value", "note"].contains(&k.as_str())
    }) {
        return Err(StepProblem::UnknownKey(key.clone()));
    }
    let at = match object.get("at").and_then(Value::as_u64) {
        Some(at) if at <= MAX_TIME as u64 => at,
        _ => return Err(StepProblem::BadTick),
    };
    if at < previous {
        return Err(StepProblem::Backwards { at, previous });
    }
    let name = object.get("do").and_then(Value::as_str).unwrap_or_default();
    let action =
        Action::from_name(name).ok_or_else(|| StepProblem::UnknownAction(name.to_owned()))?;
    let worker = match object.get("worker").and_then(Value::as_str) {
        Some(id) => match shell.workers.iter().position(|w| w.id == id) {
            Some(found) => Some(found as u16),
            None => return Err(StepProblem::UnknownWorker(id.to_owned())),
        },
        None if action.needs_worker() => return Err(StepProblem::NeedsWorker(name.to_owned())),
        None => None,
    };
    let mut step = Step::new(at, worker, action);
    if let Some(id) = object.get("target").and_then(Value::as_str) {
        let found = shell.targets.iter().position(|t| t.id == id);
        step.target = Some(found.ok_or_else(|| StepProblem::UnknownTarget(id.to_owned()))? as u16);
    } else if action.needs_target() {
        return Err(StepProblem::NeedsTarget(name.to_owned()));
    }
    if action == Action::Register
        && step
            .target
            .and_then(|t| shell.targets.get(usize::from(t)))
            .is_some_and(|t| t.protect != Protect::RegisteredToken)
    {
        return Err(StepProblem::RegisterTarget);
    }
    if let Some(id) = object.get("job").and_then(Value::as_str) {
        let found = shell.jobs.iter().position(|j| j == id);
        step.job = Some(found.ok_or_else(|| StepProblem::UnknownJob(id.to_owned()))? as u16);
    }
    for key in ["op", "value"] as [&'static str; 2] {
        let Some(field) = object.get(key) else {
            continue;
        };
        let Some(name) = field.as_str().filter(|n| !n.is_empty() && n.len() <= 64) else {
            return Err(StepProblem::BadName(key));
        };
        if action != Action::Write {
            return Err(StepProblem::OnlyWrite(key));
        }
        if key == "op" {
            step.op = names.intern_op(name);
        } else {
            step.value = names.intern_value(name);
        }
    }
    step.note = note_from_json(object.get("note"))?;
    Ok(step)
}

/// A step's note: one string for both languages, or `{ "en", "zh" }`.
fn note_from_json(note: Option<&Value>) -> Result<Option<Text>, StepProblem> {
    match note {
        None => Ok(None),
        Some(Value::String(note)) => Ok(Some(Text {
            en: note.clone(),
            zh: note.clone(),
        })),
        Some(Value::Object(note)) => {
            let side = |code: &str| note.get(code).and_then(Value::as_str).map(str::to_owned);
            match (side("en"), side("zh")) {
                (Some(en), Some(zh)) if note.len() == 2 => Ok(Some(Text { en, zh })),
                _ => Err(StepProblem::BadNote),
            }
        }
        Some(_) => Err(StepProblem::BadNote),
    }
}

/// The design a design-exercise answer makes of the start design.
fn chosen_design(start: Design, answer: &DesignAnswer) -> Design {
    Design {
        commit_checks: answer.commit_checks.unwrap_or(start.commit_checks),
        renew_checks: answer.renew_checks.unwrap_or(start.renew_checks),
        token: answer.token.unwrap_or(start.token),
        lease_clock: answer.lease_clock.unwrap_or(start.lease_clock),
        ..start
    }
}

/// The exercise's world with `design`, the targets' protections and the
/// targets sent to reconciliation (whose violations are not counted).
fn design_world(
    design: Design,
    targets: &[Protect],
    reconcile: &[u8],
    world: &WorldOptions,
) -> Result<World, CourseError> {
    let mut options = world.clone();
    options.design = design;
    options.design_source = crate::scenario::DesignSource::Table;
    options.targets = Some(targets.to_vec());
    let mut built = options.world().map_err(CourseError::World)?;
    built.reconciled = reconcile
        .iter()
        .filter(|t| usize::from(**t) < targets.len())
        .fold(0, |mask, t| mask | (1 << t));
    Ok(built)
}

/// Where violations can happen under `design` with `targets`.
fn sites_of(
    design: Design,
    targets: &[Protect],
    world: &WorldOptions,
) -> Result<Sites, CourseError> {
    let built = design_world(design, targets, &[], world)?;
    let sites = violation_sites(&built).map_err(CourseError::World)?;
    if sites.incomplete {
        return Err(CourseError::ExplorationIncomplete);
    }
    Ok(sites)
}

/// The design exercise's fixed facts, borrowed from its [`ExerciseKind`].
#[derive(Debug, Clone, Copy)]
pub struct DesignExercise<'a> {
    pub start: Design,
    pub open: &'a [Knob],
    pub world: &'a WorldOptions,
    pub resources: &'a [ResourceKind],
    pub gateway: bool,
    memo: &'a MinimalMemo,
}

impl<'a> DesignExercise<'a> {
    /// The design facts of `kind`, if it is a design exercise.
    pub fn of(kind: &'a ExerciseKind) -> Option<DesignExercise<'a>> {
        match kind {
            ExerciseKind::Design {
                start,
                open,
                world,
                resources,
                gateway,
                minimal,
                ..
            } => Some(DesignExercise {
                start: *start,
                open,
                world,
                resources,
                gateway: *gateway,
                memo: minimal,
            }),
            _ => None,
        }
    }

    /// The targets' protections at the start.
    pub fn start_targets(&self) -> Vec<Protect> {
        self.world.targets.clone().unwrap_or_default()
    }

    /// The design and target protections an answer chooses.
    pub fn chosen(&self, answer: &DesignAnswer) -> (Design, Vec<Protect>) {
        let design = chosen_design(self.start, answer);
        let targets = answer
            .target_protect
            .clone()
            .filter(|_| self.open.contains(&Knob::TargetProtect))
            .unwrap_or_else(|| self.start_targets());
        (design, targets)
    }

    /// What the protections `targets` and the reconciliation of
    /// `reconcile` cost, by the catalogue (`None`: a target's resource does
    /// not offer its protection).
    pub fn cost(&self, targets: &[Protect], reconcile: &[u8]) -> Option<u32> {
        let mut total = RECONCILE_COST * reconcile.len() as u32;
        for (protect, kind) in targets.iter().zip(self.resources) {
            total += kind.offer(*protect, self.gateway)?.cost;
        }
        Some(total)
    }

    /// The targets where a violation stays reachable under the answer's
    /// design and protections: the reconciliation list that design needs
    /// (`None` when the job table itself is unsafe). For tests and tools
    /// that build answers; the grader never tells a learner.
    pub fn reconciliation_needed(
        &self,
        answer: &DesignAnswer,
    ) -> Result<Option<Vec<u8>>, CourseError> {
        let (design, targets) = self.chosen(answer);
        let sites = sites_of(design, &targets, self.world)?;
        Ok((!sites.job_table).then(|| {
            (0..targets.len() as u8)
                .filter(|t| sites.targets & (1 << t) != 0)
                .collect()
        }))
    }

    /// The open knobs that cost nothing (the job table's predicates, the
    /// token, the lease clock), each at its strongest: a predicate more in
    /// the same statement never makes a design less safe.
    fn free_knobs_strongest(&self) -> Design {
        let mut design = self.start;
        if self.open.contains(&Knob::CommitChecks) {
            design.commit_checks = CheckSet::ALL;
        }
        if self.open.contains(&Knob::RenewChecks) {
            design.renew_checks = CheckSet::ALL;
        }
        if self.open.contains(&Knob::Token) {
            design.token = TokenKind::Monotonic;
        }
        if self.open.contains(&Knob::LeaseClock) {
            design.lease_clock = LeaseClock::Db;
        }
        design
    }
}

/// The least cost of a safe design for the exercise, proved by the
/// explorers, with one design that has it; `None` when no choice of the
/// open knobs keeps the job table safe.
///
/// Targets do not interact: a write's acceptance changes only its own
/// target's state, and a worker goes on with its program whatever a
/// target answered. So whether a violation can reach target `t` depends on
/// `t`'s protection alone, and one search per option position (every
/// target given its k-th offer) finds, for every target and offer, whether
/// the target must then be reconciled. The cheapest choice per target is
/// then the cheapest design: the same result as enumerating every
/// combination, in a handful of searches.
///
/// It takes several exhaustive searches and never changes for a loaded
/// exercise, so it is computed once and kept with the exercise.
pub fn minimal_design(exercise: &DesignExercise<'_>) -> Result<Option<MinimalDesign>, CourseError> {
    exercise
        .memo
        .get_or_init(|| compute_minimal_design(exercise))
        .clone()
}

fn compute_minimal_design(
    exercise: &DesignExercise<'_>,
) -> Result<Option<MinimalDesign>, CourseError> {
    let design = exercise.free_knobs_strongest();
    let start_targets = exercise.start_targets();
    let choices: Vec<Vec<Protect>> = if exercise.open.contains(&Knob::TargetProtect) {
        exercise
            .resources
            .iter()
            .map(|kind| {
                kind.offers(exercise.gateway)
                    .into_iter()
                    .map(|o| o.protect)
                    .collect()
            })
            .collect()
    } else {
        start_targets.iter().map(|p| vec![*p]).collect()
    };
    let widest = choices.iter().map(Vec::len).max().unwrap_or(1).max(1);
    // reaches[t][k]: a violation reaches target t under its k-th choice.
    let mut reaches: Vec<Vec<bool>> = choices.iter().map(|c| vec![false; c.len()]).collect();
    for k in 0..widest {
        let targets: Vec<Protect> = choices.iter().map(|c| c[k.min(c.len() - 1)]).collect();
        let sites = sites_of(design, &targets, exercise.world)?;
        if sites.job_table {
            return Ok(None);
        }
        for (t, reach) in reaches.iter_mut().enumerate() {
            if k < reach.len() {
                reach[k] = sites.targets & (1 << t) != 0;
            }
        }
    }
    let mut targets = Vec::new();
    let mut reconcile = Vec::new();
    for (t, (options, reach)) in choices.iter().zip(&reaches).enumerate() {
        let kind = exercise
            .resources
            .get(t)
            .copied()
            .unwrap_or(ResourceKind::Generic);
        let price = |k: usize| {
            kind.offer(options[k], exercise.gateway)
                .map_or(u32::MAX / 4, |o| o.cost)
                + if reach[k] { RECONCILE_COST } else { 0 }
        };
        let best = (0..options.len()).min_by_key(|k| price(*k)).unwrap_or(0);
        targets.push(options[best]);
        if reach[best] {
            reconcile.push(t as u8);
        }
    }
    let cost = exercise
        .cost(&targets, &reconcile)
        .ok_or(CourseError::NoSafeDesign)?;
    Ok(Some(MinimalDesign {
        design,
        targets,
        reconcile,
        cost,
    }))
}

/// Target ids `t1`, `t2`… of `indices`, for feedback.
fn target_names(indices: impl IntoIterator<Item = u8>) -> String {
    indices
        .into_iter()
        .map(|t| format!("t{}", t + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A schedule the explorers find to break the scenario's design (of the
/// wanted kind), as a counterexample; `Err` when its world does not fit.
pub(crate) fn breaking_schedule(
    scenario: &Scenario,
    want: Option<ViolationKind>,
) -> Result<Option<Counterexample>, CourseError> {
    let bounds = Bounds {
        max_time: u8::try_from((scenario.ttl * 4).clamp(12, 48)).unwrap_or(48),
        ..Bounds::default()
    };
    let world = World::from_scenario(scenario, bounds).map_err(CourseError::World)?;
    let report =
        explore_for(&world, Method::Exhaustive, want, &mut RunToEnd).map_err(CourseError::World)?;
    Ok(report.counterexample)
}

/// The steps of `scenario` a mark exercise lets the learner mark: those
/// whose action is one of `candidates`, in order.
pub fn mark_candidates(scenario: &Scenario, candidates: &[Action]) -> Vec<u32> {
    scenario
        .steps
        .iter()
        .enumerate()
        .filter(|(_, step)| candidates.contains(&step.action))
        .map(|(index, _)| index as u32)
        .collect()
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

/// What a mark exercise's key says of one candidate step, computed from
/// the run: the oracle's verdict, and whether the worker's own lease had
/// run out while nobody had replaced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkKey {
    /// Stale or after a terminal state (`Trace::should_reject`): a safe
    /// system must refuse it.
    MustRefuse,
    /// The worker holds the newest generation of an open job and its lease
    /// still runs: refusing it would be a mistake.
    MustAllow,
    /// The worker's own lease had run out, but no newer generation existed
    /// and the job was open: refusing it is conservative, letting it
    /// through breaks no safety. Marked or not, the answer is right.
    Either,
}

impl MarkKey {
    /// Whether marking (`true`) or leaving (`false`) the step is right.
    pub fn accepts(self, marked: bool) -> bool {
        match self {
            MarkKey::MustRefuse => marked,
            MarkKey::MustAllow => !marked,
            MarkKey::Either => true,
        }
    }
}

/// The key of step `index` of `scenario`'s run `trace`.
pub fn mark_key(scenario: &Scenario, trace: &crate::trace::Trace, index: u32) -> MarkKey {
    if trace.should_reject.contains(&index) {
        return MarkKey::MustRefuse;
    }
    let Some(record) = trace.steps.get(index as usize) else {
        return MarkKey::MustAllow;
    };
    if record.expired != Some(true) {
        return MarkKey::MustAllow;
    }
    // The oracle judges only steps on protected state (a draft upload is
    // not), so "replaced" and "open" are read from the run itself: a newer
    // claim granted on the job before this step, or the job ended.
    let generation = record.generation.unwrap_or(0);
    let earlier = trace
        .steps
        .iter()
        .zip(&scenario.steps)
        .take(index as usize)
        .filter(|(done, _)| done.job.is_some() && done.job == record.job);
    let mut replaced = false;
    let mut open = true;
    for (done, step) in earlier {
        if step.action == Action::Claim
            && done.outcome == Outcome::Ok
            && done.generation.unwrap_or(0) > generation
        {
            replaced = true;
        }
        if let Some(row) = &done.row {
            open = row.state.is_open();
        }
    }
    if replaced || !open {
        MarkKey::MustAllow
    } else {
        MarkKey::Either
    }
}

/// Every candidate step of a mark exercise with its key, in order.
pub fn mark_keys(scenario: &Scenario, candidates: &[Action]) -> Vec<(u32, MarkKey)> {
    let trace = crate::run(scenario);
    mark_candidates(scenario, candidates)
        .into_iter()
        .map(|index| (index, mark_key(scenario, &trace, index)))
        .collect()
}

/// Mark: every candidate step, right when the mark (or its absence) is
/// one the step's [`MarkKey`] accepts; a mark on a step that is not a
/// candidate is a wrong item of its own.
fn grade_mark(
    lesson: &Lesson,
    scenario: usize,
    candidates: &[Action],
    marked: &[u32],
) -> Result<Grade, CourseError> {
    let scenario = lesson
        .scenario(scenario)
        .ok_or(CourseError::MissingScenario)?;
    let trace = crate::run(scenario);
    let mut items: Vec<GradeItem> = mark_candidates(scenario, candidates)
        .into_iter()
        .map(|index| {
            let key = mark_key(scenario, &trace, index);
            let chose = marked.contains(&index);
            let right = key.accepts(chose);
            let verdict = |lang: Lang| {
                let head = match (key, chose) {
                    (MarkKey::MustRefuse, true) => {
                        lang.pick("Right: it must be refused.", "正确：它必须被拒绝。")
                    }
                    (MarkKey::MustRefuse, false) => {
                        lang.pick("Missed: it must be refused.", "漏标：它必须被拒绝。")
                    }
                    (MarkKey::MustAllow, true) => {
                        lang.pick("Wrong: it must be allowed.", "错标：它必须被放行。")
                    }
                    (MarkKey::MustAllow, false) => {
                        lang.pick("Right: it must be allowed.", "正确：它必须被放行。")
                    }
                    (MarkKey::Either, true) => lang.pick(
                        "Right: you refused it, which is allowed here.",
                        "正确：你拒绝了它，这里可以拒绝。",
                    ),
                    (MarkKey::Either, false) => lang.pick(
                        "Right: you let it through, which is safe here.",
                        "正确：你放行了它，这里放行是安全的。",
                    ),
                };
                let gap = lang.pick(" ", "");
                format!(
                    "{head}{gap}{}",
                    safety_reason(scenario, &trace, index as usize, lang)
                )
            };
            GradeItem {
                index: Some(index),
                right,
                text: told(verdict),
            }
        })
        .collect();
    items.extend(
        marked
            .iter()
            .copied()
            .filter(|i| {
                scenario
                    .steps
                    .get(*i as usize)
                    .is_none_or(|step| !candidates.contains(&step.action))
            })
            .map(|index| GradeItem {
                index: Some(index),
                right: false,
                text: text(
                    "Not a step to judge in this exercise: leave it unmarked.".to_owned(),
                    "这一步不在本练习的判断范围内：不要标记它。".to_owned(),
                ),
            }),
    );
    Ok(finish(items, true, None, None))
}

/// Predict: every asked step, right when the predicted outcome is the run's.
fn grade_predict(
    lesson: &Lesson,
    scenario: usize,
    steps: Option<&[u32]>,
    predicted: &[(u32, Outcome)],
) -> Result<Grade, CourseError> {
    let scenario = lesson
        .scenario(scenario)
        .ok_or(CourseError::MissingScenario)?;
    let trace = crate::run(scenario);
    let items: Vec<GradeItem> = asked_steps(scenario, steps)
        .into_iter()
        .map(|index| {
            let actual = trace
                .steps
                .get(index as usize)
                .map_or(Outcome::Noop, |r| r.outcome);
            let guess = predicted.iter().find(|(i, _)| *i == index).map(|(_, o)| *o);
            let right = guess == Some(actual);
            GradeItem {
                index: Some(index),
                right,
                text: told(|lang| {
                    let said = |outcome: Outcome| crate::outcome_label(outcome, lang);
                    let head = match (right, guess) {
                        (true, _) => lang.pick(
                            format!("Right: {}.", said(actual)),
                            format!("正确：{}。", said(actual)),
                        ),
                        (false, None) => lang.pick(
                            format!("No prediction; it was {}.", said(actual)),
                            format!("没有预测；结果是 {}。", said(actual)),
                        ),
                        (false, Some(g)) => lang.pick(
                            format!("You said {}; it was {}.", said(g), said(actual)),
                            format!("你预测 {}；结果是 {}。", said(g), said(actual)),
                        ),
                    };
                    let gap = lang.pick(" ", "");
                    format!(
                        "{head}{gap}{}",
                        describe_step(scenario, &trace, index as usize, lang)
                    )
                }),
            }
        })
        .collect();
    Ok(finish(items, true, None, None))
}

/// Design: right when the design is safe (the explorers find no violation
/// except at the targets sent to reconciliation), every target sent to
/// reconciliation really is reachable by a violation, and no cheaper
/// choice is also safe. A wrong answer says which part failed, never the
/// cheaper design.
fn grade_design(
    exercise: &DesignExercise<'_>,
    choice: &DesignAnswer,
) -> Result<Grade, CourseError> {
    let (design, targets) = exercise.chosen(choice);
    let cost = exercise
        .cost(&targets, &choice.reconcile)
        .ok_or(CourseError::NoSafeDesign)?;
    let sites = sites_of(design, &targets, exercise.world)?;
    let mask = choice.reconcile.iter().fold(0u8, |mask, t| mask | (1 << t));
    let safe = !sites.job_table && sites.targets & !mask == 0;
    let mut items = Vec::new();
    let mut counterexample = None;
    let summary;
    if safe {
        // The sites search visited every state the explorer would: its
        // count is the proof's size, said as the explorer says it.
        let report = crate::explore::Report {
            verdict: crate::explore::Verdict::Safe,
            method: Method::Exhaustive,
            world: design_world(design, &targets, &choice.reconcile, exercise.world)?,
            limits: crate::explore::Limits::default(),
            stats: crate::explore::Stats {
                states: sites.states,
                ..crate::explore::Stats::default()
            },
            exhausted: sites.exhausted,
            counterexample: None,
            shrink_history: Vec::new(),
        };
        summary = text(
            crate::explore::safe_sentence(&report, Lang::En),
            crate::explore::safe_sentence(&report, Lang::Zh),
        );
        items.push(GradeItem {
            index: None,
            right: true,
            text: if choice.reconcile.is_empty() {
                text(
                    "Safe: the explorers found no stale or after-cancel effect.".to_owned(),
                    "安全：探索器没有找到任何旧代次的或取消之后的效果。".to_owned(),
                )
            } else {
                let names = target_names(choice.reconcile.iter().copied());
                text(
                    format!("Safe: the explorers found no stale or after-cancel effect outside {names}, which you send to reconciliation."),
                    format!("安全：除了交给对账的 {names}，探索器没有在别处找到旧代次的或取消之后的效果。"),
                )
            },
        });
    } else {
        let report = explore_for(
            &design_world(design, &targets, &choice.reconcile, exercise.world)?,
            Method::Exhaustive,
            None,
            &mut RunToEnd,
        )
        .map_err(CourseError::World)?;
        summary = match &report.counterexample {
            Some(found) => found.explanation.clone(),
            None => text(
                crate::explore::safe_sentence(&report, Lang::En),
                crate::explore::safe_sentence(&report, Lang::Zh),
            ),
        };
        counterexample = report.counterexample;
        items.push(GradeItem {
            index: None,
            right: false,
            text: text(
                "Unsafe: the explorers broke it; see the counterexample.".to_owned(),
                "不安全：探索器攻破了它，请看反例。".to_owned(),
            ),
        });
    }
    // Reconciling a target no violation can reach is work for nothing.
    let needless: Vec<u8> = choice
        .reconcile
        .iter()
        .copied()
        .filter(|t| sites.targets & (1 << t) == 0)
        .collect();
    if !needless.is_empty() {
        let names = target_names(needless.iter().copied());
        items.push(GradeItem {
            index: None,
            right: false,
            text: text(
                format!("Reconciliation list wrong: no violation can reach {names} with the protection you chose, so there is nothing to reconcile there."),
                format!("对账清单有误：在你选的保护下，没有任何违例能到达 {names}，那里没有东西需要对账。"),
            ),
        });
    }
    let minimal = if safe && needless.is_empty() {
        minimal_design(exercise)?.map(|m| m.cost)
    } else {
        None
    };
    let cheaper = minimal.is_some_and(|least| least < cost);
    if safe && needless.is_empty() {
        items.push(GradeItem {
            index: None,
            right: !cheaper,
            text: if cheaper {
                text(
                    format!(
                        "Not minimal: your design costs {cost}, and a cheaper design is also safe."
                    ),
                    format!("不是最省的：你的设计代价是 {cost}，还有更便宜的设计同样安全。"),
                )
            } else {
                text(
                    format!("Minimal: your design costs {cost}, and no cheaper choice is safe."),
                    format!("最省：你的设计代价是 {cost}，没有更便宜的选择是安全的。"),
                )
            },
        });
    }
    let correct = items.iter().all(|item| item.right);
    Ok(Grade {
        correct,
        summary,
        items,
        counterexample,
        scenario: None,
    })
}

/// Break: right when the learner's schedule shows a violation (of the
/// wanted kind).
fn grade_break(
    lesson: &Lesson,
    scenario: usize,
    violation: Option<ViolationKind>,
    schedule: &Schedule,
) -> Result<Grade, CourseError> {
    let shell = lesson
        .scenario(scenario)
        .ok_or(CourseError::MissingScenario)?;
    let attempt = schedule_scenario(shell, schedule)?;
    let trace = crate::run(&attempt);
    let hit = trace
        .violations
        .iter()
        .find(|v| violation.is_none_or(|want| want == v.kind));
    let items = match hit {
        Some(found) => vec![GradeItem {
            index: Some(found.step),
            right: true,
            text: told(|lang| describe_step(&attempt, &trace, found.step as usize, lang)),
        }],
        None => vec![GradeItem {
            index: None,
            right: false,
            text: text(
                match violation {
                    Some(kind) => format!(
                        "No violation of the kind asked for ({}): every effect in this schedule was safe.",
                        crate::violation_words(kind, Lang::En)
                    ),
                    None => "No violation: every effect in this schedule was safe.".to_owned(),
                },
                match violation {
                    Some(kind) => format!(
                        "没有所要求的违例（{}）：这个调度中的每个效果都是安全的。",
                        crate::violation_words(kind, Lang::Zh)
                    ),
                    None => "没有违例：这个调度中的每个效果都是安全的。".to_owned(),
                },
            ),
        }],
    };
    let correct = hit.is_some();
    let mut grade = finish(items, true, None, Some(attempt));
    grade.correct = correct;
    Ok(grade)
}

/// Quiz: every option, right when chosen exactly if it is correct; each
/// says why.
fn grade_quiz(options: &[QuizOption], chosen: &[usize]) -> Grade {
    let items: Vec<GradeItem> = options
        .iter()
        .enumerate()
        .map(|(index, option)| {
            let picked = chosen.contains(&index);
            GradeItem {
                index: Some(index as u32),
                right: picked == option.correct,
                text: option.why.clone(),
            }
        })
        .collect();
    finish(items, true, None, None)
}

/// A grade whose items must all be right (and `extra` hold).
fn finish(
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
fn solution_key(
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
        kind @ ExerciseKind::Design { open, .. } => {
            let exercise = DesignExercise::of(kind).ok_or(CourseError::NoSafeDesign)?;
            let minimal = minimal_design(&exercise)?.ok_or(CourseError::NoSafeDesign)?;
            let design = minimal.design;
            let answer = DesignAnswer {
                commit_checks: open
                    .contains(&Knob::CommitChecks)
                    .then_some(design.commit_checks),
                renew_checks: open
                    .contains(&Knob::RenewChecks)
                    .then_some(design.renew_checks),
                token: open.contains(&Knob::Token).then_some(design.token),
                lease_clock: open
                    .contains(&Knob::LeaseClock)
                    .then_some(design.lease_clock),
                target_protect: open
                    .contains(&Knob::TargetProtect)
                    .then(|| minimal.targets.clone()),
                reconcile: minimal.reconcile.clone(),
            };
            return Ok((Answer::Design(answer), Some(minimal)));
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
            Answer::Break(Schedule {
                steps: found.scenario.steps,
                ops: found.scenario.ops,
                values: found.scenario.values,
            })
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

/// The steps a predict exercise asks about: its list (those in the
/// scenario), or every step.
pub fn asked_steps(scenario: &Scenario, steps: Option<&[u32]>) -> Vec<u32> {
    let count = u32::try_from(scenario.steps.len()).unwrap_or(u32::MAX);
    match steps {
        Some(steps) => steps.iter().copied().filter(|s| *s < count).collect(),
        None => (0..count).collect(),
    }
}

/// A break exercise's world `shell` running the learner's `schedule`,
/// checked: what the preview draws and the grader runs.
pub fn schedule_scenario(shell: &Scenario, schedule: &Schedule) -> Result<Scenario, CourseError> {
    let mut attempt = shell.clone();
    attempt.steps.clone_from(&schedule.steps);
    attempt.ops.clone_from(&schedule.ops);
    attempt.values.clone_from(&schedule.values);
    attempt.check().map_err(CourseError::Schedule)?;
    Ok(attempt)
}
