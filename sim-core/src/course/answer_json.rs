//! Answers as JSON: the typed shape of each exercise kind's answer (what an
//! answers file holds under the kind, and what the progress record keeps
//! as an exercise's `last_answer`), and reading it for an exercise.
//!
//! serde reads the shape — unknown keys are refused by
//! `deny_unknown_fields`, a key's value of the wrong type is kept as
//! [`Field::Not`] so the error can name the key — and then the lesson
//! decides the rest: a step the scenario lacks, a worker or target the
//! world does not have, a knob the exercise keeps closed, an option out of
//! range. The writer ([`answer_json`](super::answer_json)) builds the same
//! shapes, so what is written reads back.

use std::collections::BTreeMap;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::course::error::{AnswerError, CourseError, StepProblem};
#[cfg(feature = "sql-lab")]
use crate::course::grade::SqlAnswer;
use crate::course::grade::{Answer, DesignAnswer, Schedule};
use crate::course::lesson::{Exercise, ExerciseKind, Knob, Lesson};
use crate::design::{Check, CheckSet, LeaseClock, Protect, TokenKind};
use crate::explore::WorldOptions;
use crate::resource::ResourceKind;
use crate::scenario::{Action, MAX_TIME, Scenario, Step, Text};
use crate::sqllab::Slot;
use crate::trace::Outcome;

/// A break schedule of more steps than this is refused unread.
const MAX_ANSWER_STEPS: usize = 200;

/// One key's value in an answer: absent, of the type the answer needs, or
/// anything else (`null` included). serde's own type error would not say
/// which key held the wrong value; the learner's message must.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Field<T> {
    #[default]
    Absent,
    Is(T),
    Not,
}

impl<T> Field<T> {
    pub fn is_absent(&self) -> bool {
        matches!(self, Field::Absent)
    }

    /// `Some` when present: the value, or `Err` when it has the wrong type.
    fn present(&self) -> Option<Result<&T, ()>> {
        match self {
            Field::Absent => None,
            Field::Is(value) => Some(Ok(value)),
            Field::Not => Some(Err(())),
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Field<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Read<T> {
            Is(T),
            Not(IgnoredAny),
        }
        Ok(match Read::deserialize(deserializer)? {
            Read::Is(value) => Field::Is(value),
            Read::Not(_) => Field::Not,
        })
    }
}

impl<T: Serialize> Serialize for Field<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Field::Is(value) => value.serialize(serializer),
            // Never written: the writer builds only `Is`, and an absent key
            // is skipped.
            Field::Absent | Field::Not => serializer.serialize_unit(),
        }
    }
}

/// A list of names, each read on its own so `[1]` is "must list names",
/// not "must be a list".
pub type Names = Field<Vec<Field<String>>>;

/// `names` as a [`Names`] field.
pub(crate) fn names<'a>(names: impl IntoIterator<Item = &'a str>) -> Names {
    Field::Is(
        names
            .into_iter()
            .map(|name| Field::Is(name.to_owned()))
            .collect(),
    )
}

/// A design answer: the knobs the learner turned, and the targets sent to
/// reconciliation (`t1`, `t2`…).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DesignJson {
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub commit_checks: Names,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub renew_checks: Names,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub token: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub lease_clock: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub target_protect: Names,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub reconcile: Names,
}

/// One step of a break answer, with the keys of a scenario's steps.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StepJson {
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub at: Field<u64>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub worker: Field<String>,
    #[serde(rename = "do", default, skip_serializing_if = "Field::is_absent")]
    pub action: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub target: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub job: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub op: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub value: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub note: Field<NoteJson>,
}

/// A step's note: one string for both languages, or `{ "en", "zh" }`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum NoteJson {
    Both(String),
    Each(NoteText),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NoteText {
    pub en: String,
    pub zh: String,
}

/// An answer as JSON, whatever its kind: what the writer produces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum AnswerJson {
    /// `mark` (step indices) and `quiz` (option indices).
    Indices(Vec<u64>),
    /// `predict`: outcome names by step index.
    Outcomes(BTreeMap<String, String>),
    Design(DesignJson),
    /// `break`.
    Steps(Vec<StepJson>),
    /// `sql`: statements by slot name.
    Statements(BTreeMap<String, String>),
}

/// The key serde's `deny_unknown_fields` refused, from its message
/// (`` unknown field `KEY`, expected … ``): serde_json's error is only text.
fn unknown_field(error: &serde_json::Error) -> Option<String> {
    let rest = error.to_string();
    let rest = rest.strip_prefix("unknown field `")?;
    let (key, _) = rest.rsplit_once("`, expected")?;
    Some(key.to_owned())
}

/// `value` as a `T` that is a JSON object. serde would also read a struct
/// from a list, by position; an answer names its keys.
fn object<T: for<'de> Deserialize<'de>>(value: &Value) -> Option<Result<T, serde_json::Error>> {
    value.is_object().then(|| T::deserialize(value))
}

/// Reads an answer's JSON (the `mark`, `predict`, `design`, `break`,
/// `quiz` or `sql` value of an answers file) for `exercise` of `lesson`.
pub fn answer_from_json(
    lesson: &Lesson,
    exercise: &Exercise,
    value: &Value,
) -> Result<Answer, CourseError> {
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
            let asked =
                |index: u32| index < count && steps.as_ref().is_none_or(|s| s.contains(&index));
            Ok(Answer::Predict(predictions(value, asked)?))
        }
        ExerciseKind::Design {
            open,
            world,
            resources,
            gateway,
            ..
        } => {
            let read = object::<DesignJson>(value).ok_or(AnswerError::DesignShape)?;
            let shape = read.map_err(|error| match unknown_field(&error) {
                Some(key) => AnswerError::UnknownKnob(key),
                None => AnswerError::DesignShape,
            })?;
            let target = TargetFacts {
                world,
                resources,
                gateway: *gateway,
            };
            Ok(Answer::Design(design_answer(open, &target, &shape)?))
        }
        ExerciseKind::Break { scenario, .. } => {
            let shell = lesson
                .scenario(*scenario)
                .ok_or(CourseError::MissingScenario)?;
            Ok(Answer::Break(schedule(shell, value)?))
        }
        ExerciseKind::Quiz { options, multiple } => {
            let chosen = indices(value, "quiz")?;
            // `try_from`: on the page's 32-bit wasm a cast would wrap.
            let beyond = |i: &u64| usize::try_from(*i).map_or(true, |i| i >= options.len());
            if let Some(bad) = chosen.iter().copied().find(beyond) {
                return Err(AnswerError::NoOption(bad).into());
            }
            if !multiple && chosen.len() > 1 {
                return Err(AnswerError::ChooseOne.into());
            }
            Ok(Answer::Quiz(
                chosen.into_iter().map(|i| i as usize).collect(),
            ))
        }
        ExerciseKind::Sql { slots, .. } => sql_answer(slots, value),
    }
}

/// A list of distinct indices (`what` is the kind): `[2, 2, 2]` is a slip
/// worth naming, not an answer to grade as `[2]`.
fn indices(value: &Value, what: &'static str) -> Result<Vec<u64>, AnswerError> {
    let listed = Vec::<u64>::deserialize(value).map_err(|_| AnswerError::NotNumbers(what))?;
    for (at, index) in listed.iter().enumerate() {
        if listed[..at].contains(index) {
            return Err(AnswerError::RepeatedIndex {
                what,
                index: *index,
            });
        }
    }
    Ok(listed)
}

/// A predict answer: an outcome per asked step, in step order.
fn predictions(
    value: &Value,
    asked: impl Fn(u32) -> bool,
) -> Result<Vec<(u32, Outcome)>, AnswerError> {
    let map =
        BTreeMap::<String, String>::deserialize(value).map_err(|_| AnswerError::PredictShape)?;
    let mut predicted = Vec::new();
    for (key, name) in map {
        let index: u32 = key.parse().map_err(|_| AnswerError::NotStepIndex(key))?;
        if !asked(index) {
            return Err(AnswerError::NotAsked(index));
        }
        let outcome = Outcome::from_name(&name).ok_or(AnswerError::NotOutcome(name))?;
        predicted.push((index, outcome));
    }
    predicted.sort_by_key(|(index, _)| *index);
    Ok(predicted)
}

/// A `sql` answer's statements by slot (`{ "claim": "UPDATE …", … }`).
#[cfg(feature = "sql-lab")]
fn sql_answer(slots: &[Slot], value: &Value) -> Result<Answer, CourseError> {
    let map = BTreeMap::<String, String>::deserialize(value).map_err(|_| AnswerError::SqlShape)?;
    let mut statements = crate::sqllab::Statements::new();
    for (key, text) in map {
        let slot = slots
            .iter()
            .copied()
            .find(|slot| slot.name() == key)
            .ok_or(AnswerError::UnknownSlot(key))?;
        statements.insert(slot, text);
    }
    Ok(Answer::Sql(SqlAnswer {
        statements,
        run: None,
    }))
}

/// Without the SQL lab (the page's build) a `sql` answer cannot be run.
#[cfg(not(feature = "sql-lab"))]
fn sql_answer(_: &[Slot], _: &Value) -> Result<Answer, CourseError> {
    Err(CourseError::WrongKind { kind: "sql" })
}

/// What a design answer's targets are checked against.
struct TargetFacts<'a> {
    world: &'a WorldOptions,
    resources: &'a [ResourceKind],
    gateway: bool,
}

/// A design answer's knobs: only the exercise's open knobs, each a value
/// its kind knows.
fn design_answer(
    open: &[Knob],
    target: &TargetFacts<'_>,
    shape: &DesignJson,
) -> Result<DesignAnswer, AnswerError> {
    let given = [
        (Knob::CommitChecks, shape.commit_checks.is_absent()),
        (Knob::RenewChecks, shape.renew_checks.is_absent()),
        (Knob::Token, shape.token.is_absent()),
        (Knob::LeaseClock, shape.lease_clock.is_absent()),
        (Knob::TargetProtect, shape.target_protect.is_absent()),
    ];
    if let Some((closed, _)) = given
        .iter()
        .find(|(knob, absent)| !absent && !open.contains(knob))
    {
        return Err(AnswerError::ClosedKnob(closed.name().to_owned()));
    }
    let checks = |key: &str, field: &Names| -> Result<Option<CheckSet>, AnswerError> {
        let Some(listed) = distinct_names(key, field)? else {
            return Ok(None);
        };
        let mut set = CheckSet::EMPTY;
        for name in listed {
            set = set.with(
                Check::from_name(name).ok_or_else(|| AnswerError::UnknownCheck(name.to_owned()))?,
            );
        }
        Ok(Some(set))
    };
    // A name of the wrong type is an unknown name: `unknown token kind ``.
    fn named(field: &Field<String>) -> Option<&str> {
        match field {
            Field::Absent => None,
            Field::Is(name) => Some(name.as_str()),
            Field::Not => Some(""),
        }
    }
    let mut answer = DesignAnswer {
        commit_checks: checks("commit_checks", &shape.commit_checks)?,
        renew_checks: checks("renew_checks", &shape.renew_checks)?,
        ..DesignAnswer::default()
    };
    if let Some(name) = named(&shape.token) {
        let token = TokenKind::from_name(name);
        answer.token = Some(token.ok_or_else(|| AnswerError::UnknownToken(name.to_owned()))?);
    }
    if let Some(name) = named(&shape.lease_clock) {
        let clock = LeaseClock::from_name(name);
        answer.lease_clock = Some(clock.ok_or_else(|| AnswerError::UnknownClock(name.to_owned()))?);
    }
    if let Some(listed) = list_names("target_protect", &shape.target_protect)? {
        answer.target_protect = Some(target_protect(&listed, target)?);
    }
    answer.reconcile = reconcile(&shape.reconcile, target.resources.len())?;
    Ok(answer)
}

/// A knob's list of names (`key` is the knob, for the error); `None` when
/// absent.
fn list_names<'a>(key: &str, field: &'a Names) -> Result<Option<Vec<&'a str>>, AnswerError> {
    let Some(listed) = field.present() else {
        return Ok(None);
    };
    let listed = listed.map_err(|()| AnswerError::NotList(key.to_owned()))?;
    listed
        .iter()
        .map(|name| match name {
            Field::Is(name) => Ok(name.as_str()),
            Field::Absent | Field::Not => Err(AnswerError::NotNames(key.to_owned())),
        })
        .collect::<Result<Vec<&str>, AnswerError>>()
        .map(Some)
}

/// A knob's names, each listed once: `["owner", "owner"]` is a slip to
/// name, not a set to quietly collapse.
fn distinct_names<'a>(key: &str, field: &'a Names) -> Result<Option<Vec<&'a str>>, AnswerError> {
    let listed = list_names(key, field)?;
    let names = listed.as_deref().unwrap_or_default();
    if let Some((_, name)) = names
        .iter()
        .enumerate()
        .find(|(at, name)| names[..*at].contains(name))
    {
        return Err(AnswerError::RepeatedName {
            key: key.to_owned(),
            name: (*name).to_owned(),
        });
    }
    Ok(listed)
}

/// The targets sent to reconciliation, by index, sorted: each a target of
/// the world (`t1` … `tN`), each once.
fn reconcile(field: &Names, targets: usize) -> Result<Vec<u8>, AnswerError> {
    let mut reconciled = distinct_names("reconcile", field)?
        .unwrap_or_default()
        .into_iter()
        .map(|name| {
            (0..targets)
                .find(|t| format!("t{}", t + 1) == name)
                .map(|t| t as u8)
                .ok_or_else(|| AnswerError::NoTarget(name.to_owned()))
        })
        .collect::<Result<Vec<u8>, AnswerError>>()?;
    reconciled.sort_unstable();
    Ok(reconciled)
}

/// `target_protect`'s protections, one per target of the world, each one
/// its resource offers.
fn target_protect(names: &[&str], target: &TargetFacts<'_>) -> Result<Vec<Protect>, AnswerError> {
    let protects = names
        .iter()
        .map(|name| {
            Protect::from_name(name).ok_or_else(|| AnswerError::UnknownProtect((*name).to_owned()))
        })
        .collect::<Result<Vec<Protect>, AnswerError>>()?;
    let count = target.world.targets.as_ref().map_or(0, Vec::len);
    if protects.len() != count {
        return Err(AnswerError::TargetCount(count));
    }
    for (index, (protect, kind)) in protects.iter().zip(target.resources).enumerate() {
        if kind.offer(*protect, target.gateway).is_none() {
            return Err(AnswerError::Unsupported {
                target: format!("t{}", index + 1),
                kind: *kind,
                protect: *protect,
                gateway: target.gateway,
            });
        }
    }
    Ok(protects)
}

/// A learner's schedule from JSON steps, checked against the world of
/// `shell`.
fn schedule(shell: &Scenario, value: &Value) -> Result<Schedule, AnswerError> {
    let entries = Vec::<Value>::deserialize(value).map_err(|_| AnswerError::BreakShape)?;
    if entries.len() > MAX_ANSWER_STEPS {
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
        let step = object::<StepJson>(entry)
            .ok_or(StepProblem::NotObject)
            .and_then(|read| {
                read.map_err(|error| match unknown_field(&error) {
                    Some(key) => StepProblem::UnknownKey(key),
                    None => StepProblem::NotObject,
                })
            })
            .and_then(|shape| step(shell, &mut names, &shape, previous))
            .map_err(|problem| AnswerError::Step { index, problem })?;
        steps.push(step);
    }
    Ok(Schedule {
        steps,
        ops: names.ops,
        values: names.values,
    })
}

/// The index of `id` among `ids` (`key` names the field for the errors);
/// `None` when absent.
fn resolve<'a>(
    field: &Field<String>,
    key: &'static str,
    ids: impl IntoIterator<Item = &'a str>,
    unknown: fn(String) -> StepProblem,
) -> Result<Option<u16>, StepProblem> {
    let Some(id) = field.present() else {
        return Ok(None);
    };
    let id = id.map_err(|()| StepProblem::NotString(key))?;
    let found = ids.into_iter().position(|known| known == id);
    found
        .map(|at| Some(at as u16))
        .ok_or_else(|| unknown(id.clone()))
}

/// One step of a break answer, at or after tick `previous`; its operation
/// ids and values are interned into `names`.
fn step(
    shell: &Scenario,
    names: &mut Scenario,
    shape: &StepJson,
    previous: u64,
) -> Result<Step, StepProblem> {
    let at = match shape.at {
        Field::Is(at) if at <= MAX_TIME as u64 => at,
        _ => return Err(StepProblem::BadTick),
    };
    if at < previous {
        return Err(StepProblem::Backwards { at, previous });
    }
    let name = match &shape.action {
        Field::Is(name) => name.as_str(),
        Field::Absent => "",
        Field::Not => return Err(StepProblem::NotString("do")),
    };
    let action =
        Action::from_name(name).ok_or_else(|| StepProblem::UnknownAction(name.to_owned()))?;
    let workers = shell.workers.iter().map(|w| w.id.as_str());
    let worker = resolve(&shape.worker, "worker", workers, StepProblem::UnknownWorker)?;
    if worker.is_none() && action.needs_worker() {
        return Err(StepProblem::NeedsWorker(name.to_owned()));
    }
    let mut step = Step::new(at, worker, action);
    let targets = shell.targets.iter().map(|t| t.id.as_str());
    step.target = resolve(&shape.target, "target", targets, StepProblem::UnknownTarget)?;
    if step.target.is_none() && action.needs_target() {
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
    let jobs = shell.jobs.iter().map(String::as_str);
    step.job = resolve(&shape.job, "job", jobs, StepProblem::UnknownJob)?;
    for (key, field) in [("op", &shape.op), ("value", &shape.value)] {
        let Some(name) = field.present() else {
            continue;
        };
        let Some(name) = name.ok().filter(|n| !n.is_empty() && n.len() <= 64) else {
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
    step.note = match &shape.note {
        Field::Absent => None,
        Field::Is(NoteJson::Both(note)) => Some(Text {
            en: note.clone(),
            zh: note.clone(),
        }),
        Field::Is(NoteJson::Each(NoteText { en, zh })) => Some(Text {
            en: en.clone(),
            zh: zh.clone(),
        }),
        Field::Not => return Err(StepProblem::BadNote),
    };
    Ok(step)
}
