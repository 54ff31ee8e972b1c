//! How much of a run a learner may see.
//!
//! An exercise must not show its key before the learner has tried: a mark
//! exercise hides the oracle's verdicts, a predict exercise also hides the
//! results of the steps it asks about, and a lesson's timeline of the
//! scenario of a SQL exercise the statements its learner is asked to
//! write. The course decides which [`Reveal`]
//! applies (one policy, in `course`); everything that shows a run — the
//! diagram, the narration, the page's JSON — takes it and leaves the hidden
//! parts out by construction.

use crate::scenario::Action;

/// How much of a run may be shown.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Reveal {
    /// Outcomes and the oracle's verdicts.
    #[default]
    Everything,
    /// Outcomes, but no verdicts (a mark exercise before it is solved, a
    /// break exercise's preview).
    NoVerdicts,
    /// No verdicts, and not the results of these steps (a predict exercise).
    NotTheseSteps(Vec<u32>),
    /// Outcomes and verdicts, but not the SQL of the steps of these
    /// actions (a lesson's timeline of the scenario a SQL exercise asks
    /// those statements on, until it is done).
    NotTheseStatements(Vec<Action>),
}

impl Reveal {
    /// The oracle's verdicts (violations, should-reject, reconcile) may be shown.
    pub fn shows_verdicts(&self) -> bool {
        matches!(self, Reveal::Everything | Reveal::NotTheseStatements(_))
    }

    /// The result of step `index` (outcome, token, row, the lease it granted)
    /// may be shown.
    pub fn shows_step(&self, index: usize) -> bool {
        match self {
            Reveal::NotTheseSteps(hidden) => {
                u32::try_from(index).map_or(true, |index| !hidden.contains(&index))
            }
            Reveal::Everything | Reveal::NoVerdicts | Reveal::NotTheseStatements(_) => true,
        }
    }

    /// The SQL a step of `action` stands for may be shown.
    pub fn shows_sql(&self, action: Action) -> bool {
        match self {
            Reveal::NotTheseStatements(hidden) => !hidden.contains(&action),
            _ => true,
        }
    }
}
