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

#[allow(unused_imports)]
use crate::course::kinds::{design::*, mark::*, predict::*, quiz::*, schedule::*, sql::*};
use std::collections::BTreeMap;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::course::error::{AnswerError, CourseError};
use crate::course::grade::Answer;
use crate::course::lesson::{Exercise, ExerciseKind, Lesson};

/// A break schedule of more steps than this is refused unread.
pub(crate) const MAX_ANSWER_STEPS: usize = 200;

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
    pub(crate) fn present(&self) -> Option<Result<&T, ()>> {
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
    pub claim: Field<String>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub cancel_epoch: Field<bool>,
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub input_revision: Field<bool>,
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
    /// A `write`'s request id (the write is sent and travels), or the one a
    /// `deliver` delivers.
    #[serde(default, skip_serializing_if = "Field::is_absent")]
    pub request: Field<String>,
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
pub(crate) fn unknown_field(error: &serde_json::Error) -> Option<String> {
    let rest = error.to_string();
    let rest = rest.strip_prefix("unknown field `")?;
    let (key, _) = rest.rsplit_once("`, expected")?;
    Some(key.to_owned())
}

/// `value` as a `T` that is a JSON object. serde would also read a struct
/// from a list, by position; an answer names its keys.
pub(crate) fn object<T: for<'de> Deserialize<'de>>(
    value: &Value,
) -> Option<Result<T, serde_json::Error>> {
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
            fronts,
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
                fronts: *fronts,
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
pub(crate) fn indices(value: &Value, what: &'static str) -> Result<Vec<u64>, AnswerError> {
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
