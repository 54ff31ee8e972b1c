//! What a learner is shown of a grade: an exercise stays a puzzle until it
//! is solved (TEACHING.md). A wrong try says how many items are wrong and,
//! from the second wrong try on, which ones — never their right values,
//! their reasons or the takeaway; those appear once the answer is right,
//! the exercise was completed before, or its worked solution was opened.
//! The session builds it ([`CourseSession::grade`](super::CourseSession::grade)),
//! so the terminal and the page show the same and neither decides.
//!
//! Two kinds keep what their wrong grade says because it is no key: a
//! design's counterexample is the lesson of a design exercise, and a break
//! schedule's "no violation" names no recipe.

use crate::Lang;
use crate::course::grade::{Grade, GradeItem};
#[allow(unused_imports)]
use crate::course::kinds::{design::*, mark::*, predict::*, quiz::*, schedule::*, sql::*};
use crate::course::lesson::ExerciseKind;
use crate::explore::Counterexample;
use crate::scenario::{Scenario, Text};

/// A grade as a learner may see it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub correct: bool,
    /// The whole grade is shown: items with their reasons, the takeaway.
    pub revealed: bool,
    pub summary: Text,
    /// The items shown: all of them once revealed; before that none after
    /// the first wrong try, then only the wrong ones, each without its
    /// reason (a design's or a break's single verdict is kept).
    pub items: Vec<GradeItem>,
    pub takeaway: Option<Text>,
    /// Design: the explorers' counterexample to the learner's design.
    pub counterexample: Option<Counterexample>,
    /// Break: the learner's schedule with its verdicts, once revealed.
    pub scenario: Option<Scenario>,
}

/// What the learner's grade shows after `attempts` tries (this one
/// included); `revealed`: the exercise was completed or its solution seen.
/// `order` is the order a quiz's options are shown in (authored indices),
/// by which the first wrong one is found and numbered. `after_solution`:
/// the worked solution was seen and the exercise not solved before.
pub(crate) fn feedback(
    kind: &ExerciseKind,
    grade: &Grade,
    attempts: u32,
    revealed: bool,
    takeaway: &Text,
    order: &[usize],
    after_solution: bool,
) -> Feedback {
    if grade.correct || revealed {
        // A right answer after the worked solution was seen is no solve of
        // the learner's own: it says so instead of praising.
        let summary = if grade.correct && after_solution {
            let total = grade.items.len();
            both(|lang| match lang {
                Lang::En => format!(
                    "{total} of {total} right, with the solution seen first: solve it alone later."
                ),
                Lang::Zh => format!("{total} 项全对，但你先看过解答：过些时候独立再解一次。"),
            })
        } else {
            grade.summary.clone()
        };
        return Feedback {
            correct: grade.correct,
            revealed: true,
            summary,
            items: grade.items.clone(),
            takeaway: Some(takeaway.clone()),
            counterexample: grade.counterexample.clone(),
            scenario: grade.scenario.clone(),
        };
    }
    let noun = match kind {
        ExerciseKind::Design { .. } => {
            return Feedback {
                counterexample: grade.counterexample.clone(),
                ..hidden(grade.summary.clone(), grade.items.clone())
            };
        }
        ExerciseKind::Break { .. } => {
            return hidden(
                both(|lang| {
                    lang.pick(
                        "This schedule breaks nothing yet.",
                        "这个调度还没有攻破任何东西。",
                    )
                    .to_owned()
                }),
                grade.items.clone(),
            );
        }
        ExerciseKind::Quiz { options, multiple } => {
            return quiz_feedback(grade, options, *multiple, attempts, order);
        }
        ExerciseKind::Mark { .. } => Noun::Step,
        ExerciseKind::Predict { .. } => Noun::Prediction,
        #[cfg(feature = "sql-lab")]
        ExerciseKind::Sql { .. } => Noun::Case,
        // Without the SQL lab nothing grades a `sql` exercise.
        #[cfg(not(feature = "sql-lab"))]
        ExerciseKind::Sql { .. } => return hidden(grade.summary.clone(), Vec::new()),
    };
    counted(noun, grade, attempts)
}

/// A wrong try of a mark, predict or SQL exercise: the count, and from
/// the second wrong try on the first wrong item by position, never more.
fn counted(noun: Noun, grade: &Grade, attempts: u32) -> Feedback {
    let wrong: Vec<&GradeItem> = grade.items.iter().filter(|item| !item.right).collect();
    let total = grade.items.len();
    if attempts <= 1 {
        let summary = both(|lang| {
            let count = noun.count(wrong.len(), total, lang);
            match lang {
                Lang::En => format!(
                    "{count} wrong. Think again; from your next try on, the first wrong one is pointed out."
                ),
                Lang::Zh => {
                    format!("{count}不对。再想想；从下一次作答起，会指出第一处错误。")
                }
            }
        });
        return hidden(summary, Vec::new());
    }
    // From the second wrong try on: the count, and the first wrong item
    // by position (steps and cases are in order), never more.
    let first = wrong.first().copied();
    let summary = both(|lang| {
        let count = noun.count(wrong.len(), total, lang);
        let named = noun.which(first.and_then(|item| item.index), lang);
        match lang {
            Lang::En => format!("{count} wrong — the first: {named}."),
            Lang::Zh => format!("{count}不对——第一处：{named}。"),
        }
    });
    let items = first
        .into_iter()
        .map(|item| GradeItem {
            index: item.index,
            right: false,
            text: noun.wrong_item(item),
        })
        .collect();
    hidden(summary, items)
}

/// A wrong try as the learner may see it: no reasons, no takeaway.
pub(crate) fn hidden(summary: Text, items: Vec<GradeItem>) -> Feedback {
    Feedback {
        correct: false,
        revealed: false,
        summary,
        items,
        takeaway: None,
        counterexample: None,
        scenario: None,
    }
}

/// What the items of a mark, predict or quiz grade are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Noun {
    Step,
    Prediction,
    Option,
    /// A case of the SQL lab's battery.
    #[cfg(feature = "sql-lab")]
    Case,
}

impl Noun {
    /// `2 of 5 steps` / `5 步中有 2 步`.
    pub(crate) fn count(self, wrong: usize, total: usize, lang: Lang) -> String {
        match (self, lang) {
            (Noun::Step, Lang::En) => format!("{wrong} of {total} steps"),
            (Noun::Prediction, Lang::En) => format!("{wrong} of {total} predictions"),
            (Noun::Option, Lang::En) => format!("{wrong} of {total} options"),
            (Noun::Step, Lang::Zh) => format!("{total} 步中有 {wrong} 步"),
            (Noun::Prediction, Lang::Zh) => format!("{total} 个预测中有 {wrong} 个"),
            (Noun::Option, Lang::Zh) => format!("{total} 个选项中有 {wrong} 个"),
            #[cfg(feature = "sql-lab")]
            (Noun::Case, Lang::En) => format!("{wrong} of {total} cases"),
            #[cfg(feature = "sql-lab")]
            (Noun::Case, Lang::Zh) => format!("{total} 个用例中有 {wrong} 个"),
        }
    }

    /// The first wrong item: a step by number, a failing case below.
    pub(crate) fn which(self, index: Option<u32>, lang: Lang) -> String {
        match (self, lang, index) {
            #[cfg(feature = "sql-lab")]
            (Noun::Case, Lang::En, _) => "see below".to_owned(),
            #[cfg(feature = "sql-lab")]
            (Noun::Case, Lang::Zh, _) => "见下文".to_owned(),
            (_, Lang::En, Some(index)) => format!("step {index}"),
            (_, Lang::Zh, Some(index)) => format!("第 {index} 步"),
            (_, Lang::En, None) => "see below".to_owned(),
            (_, Lang::Zh, None) => "见下文".to_owned(),
        }
    }

    /// What a wrong item says from the second wrong try on: a failing SQL
    /// case keeps its text (the case, the step and the row count produced
    /// against the one required, no statement); others only that they are
    /// wrong.
    pub(crate) fn wrong_item(self, item: &GradeItem) -> Text {
        #[cfg(feature = "sql-lab")]
        if self == Noun::Case {
            return item.text.clone();
        }
        let _ = item;
        self.not_yet()
    }

    /// A wrong item's text: that it is wrong, not what is right.
    pub(crate) fn not_yet(self) -> Text {
        match self {
            Noun::Step => Text {
                en: "Not right yet: look at this step again.".to_owned(),
                zh: "还不对：再看看这一步。".to_owned(),
            },
            Noun::Prediction => Text {
                en: "Not right yet: think again about what this step does.".to_owned(),
                zh: "还不对：再想想这一步会怎样。".to_owned(),
            },
            Noun::Option => Text {
                en: "Your choice here is not right yet.".to_owned(),
                zh: "你在这一项上的选择还不对。".to_owned(),
            },
            #[cfg(feature = "sql-lab")]
            Noun::Case => Text {
                en: "This case does not pass yet.".to_owned(),
                zh: "这个用例还没有通过。".to_owned(),
            },
        }
    }
}

pub(crate) fn both(said: impl Fn(Lang) -> String) -> Text {
    Text {
        en: said(Lang::En),
        zh: said(Lang::Zh),
    }
}
