//! One module per exercise kind: each holds what is particular to its kind
//! — its answer read from JSON and written back, its grade, its worked
//! solution's key, what a wrong try may say, its lint — so that adding a
//! kind adds one module here and a line in each dispatching `match`
//! (`grade::grade`, `grade::solution_key`, `answer_json::answer_from_json`,
//! `last_answer::answer_json`, `lint::exercise_problems`,
//! `feedback::feedback`, `screen::items`), which the compiler lists.
//! `break` is `schedule` here (`break` is a Rust keyword).

pub(crate) mod design;
pub(crate) mod mark;
pub(crate) mod predict;
pub(crate) mod quiz;
pub(crate) mod schedule;
pub(crate) mod sql;

/// What the kinds' modules share: the course's types and the model's.
#[allow(unused_imports)]
mod prelude {
    pub(crate) use std::collections::BTreeMap;

    pub(crate) use serde::{Deserialize, Serialize};
    pub(crate) use serde_json::Value;

    pub(crate) use crate::Lang;
    pub(crate) use crate::course::answer_json::*;
    pub(crate) use crate::course::error::{AnswerError, CourseError, StepProblem};
    pub(crate) use crate::course::feedback::*;
    pub(crate) use crate::course::grade::*;
    pub(crate) use crate::course::lesson::{DESIGN_TARGETS, SLOT_NAMES};
    pub(crate) use crate::course::lesson::{
        Exercise, ExerciseKind, Knob, Lesson, MinimalMemo, QuizOption,
    };
    pub(crate) use crate::course::lint::*;
    pub(crate) use crate::course::screen::{
        Choosing, Item, ItemChoice, ItemKey, KeyTone, Named, Pick, Verdict, option_label,
        verdict_label,
    };
    pub(crate) use crate::course::{CONCEPTS, complete};
    pub(crate) use crate::design::Preset;
    pub(crate) use crate::design::{
        Check, CheckSet, ClaimProcedure, Design, LeaseClock, Protect, TokenKind,
    };
    pub(crate) use crate::explore::*;
    pub(crate) use crate::explore::{Bounds, WorldOptions};
    pub(crate) use crate::explore::{MAX_DELAY_BOUND, MAX_IN_FLIGHT};
    pub(crate) use crate::narrate::{describe_step, safety_reason};
    pub(crate) use crate::parse::{Diagnostic, Reader, decode, document, line_col, name, words};
    pub(crate) use crate::resource::{Fronts, MinimalDesign, RECONCILE_COST, ResourceKind};
    pub(crate) use crate::scenario::DesignSource;
    pub(crate) use crate::scenario::{Action, MAX_TIME, OpRef, Scenario, Step, Text, ValueRef};
    #[cfg(feature = "sql-lab")]
    pub(crate) use crate::sqllab::{self, Plan, judge};
    pub(crate) use crate::sqllab::{PlanRun, Slot, Statements};
    pub(crate) use crate::trace::{Outcome, ViolationKind};
    pub(crate) use strum::VariantArray as _;
}
