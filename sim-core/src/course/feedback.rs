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
pub(crate) fn feedback(
    kind: &ExerciseKind,
    grade: &Grade,
    attempts: u32,
    revealed: bool,
    takeaway: &Text,
) -> Feedback {
    if grade.correct || revealed {
        return Feedback {
            correct: grade.correct,
            revealed: true,
            summary: grade.summary.clone(),
            items: grade.items.clone(),
            takeaway: Some(takeaway.clone()),
            counterexample: grade.counterexample.clone(),
            scenario: grade.scenario.clone(),
        };
    }
    let hidden = |summary: Text, items: Vec<GradeItem>| Feedback {
        correct: false,
        revealed: false,
        summary,
        items,
        takeaway: None,
        counterexample: None,
        scenario: None,
    };
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
        ExerciseKind::Mark { .. } => Noun::Step,
        ExerciseKind::Predict { .. } => Noun::Prediction,
        ExerciseKind::Quiz { .. } => Noun::Option,
        ExerciseKind::Sql { .. } => Noun::Case,
    };
    let wrong: Vec<&GradeItem> = grade.items.iter().filter(|item| !item.right).collect();
    let total = grade.items.len();
    if attempts <= 1 {
        let summary = both(|lang| {
            let count = noun.count(wrong.len(), total, lang);
            match lang {
                Lang::En => format!(
                    "{count} wrong. Think again; from your next try on, the wrong ones are pointed out."
                ),
                Lang::Zh => {
                    format!("{count}不对。再想想；从下一次作答起，会指出是哪几项。")
                }
            }
        });
        return hidden(summary, Vec::new());
    }
    let which: Vec<u32> = wrong.iter().filter_map(|item| item.index).collect();
    let summary = both(|lang| {
        let count = noun.count(wrong.len(), total, lang);
        let named = noun.which(&which, lang);
        match lang {
            Lang::En => format!("{count} wrong — {named}."),
            Lang::Zh => format!("{count}不对——{named}。"),
        }
    });
    // A failing SQL case keeps its text: the case, the step and the row
    // count produced against the one required — the lab's feedback, which
    // names no statement.
    let items = wrong
        .iter()
        .map(|item| GradeItem {
            index: item.index,
            right: false,
            text: if noun == Noun::Case {
                item.text.clone()
            } else {
                noun.not_yet()
            },
        })
        .collect();
    hidden(summary, items)
}

/// What the items of a mark, predict or quiz grade are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Noun {
    Step,
    Prediction,
    Option,
    /// A case of the SQL lab's battery.
    Case,
}

impl Noun {
    /// `2 of 5 steps` / `5 步中有 2 步`.
    fn count(self, wrong: usize, total: usize, lang: Lang) -> String {
        match (self, lang) {
            (Noun::Step, Lang::En) => format!("{wrong} of {total} steps"),
            (Noun::Prediction, Lang::En) => format!("{wrong} of {total} predictions"),
            (Noun::Option, Lang::En) => format!("{wrong} of {total} options"),
            (Noun::Step, Lang::Zh) => format!("{total} 步中有 {wrong} 步"),
            (Noun::Prediction, Lang::Zh) => format!("{total} 个预测中有 {wrong} 个"),
            (Noun::Option, Lang::Zh) => format!("{total} 个选项中有 {wrong} 个"),
            (Noun::Case, Lang::En) => format!("{wrong} of {total} cases"),
            (Noun::Case, Lang::Zh) => format!("{total} 个用例中有 {wrong} 个"),
        }
    }

    /// Which items are wrong: steps by number; options by the ✗ the front
    /// end puts on them (their order on screen is the front end's).
    fn which(self, indices: &[u32], lang: Lang) -> String {
        let numbers = |sep: &str| {
            indices
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(sep)
        };
        match (self, lang) {
            (Noun::Option, Lang::En) => "marked ✗".to_owned(),
            (Noun::Option, Lang::Zh) => "已标 ✗".to_owned(),
            (Noun::Case, Lang::En) => "see below".to_owned(),
            (Noun::Case, Lang::Zh) => "见下文".to_owned(),
            (_, Lang::En) if indices.len() == 1 => format!("step {}", numbers("")),
            (_, Lang::En) => format!("steps {}", numbers(", ")),
            (_, Lang::Zh) => format!("第 {} 步", numbers("、")),
        }
    }

    /// A wrong item's text: that it is wrong, not what is right.
    fn not_yet(self) -> Text {
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
            Noun::Case => Text {
                en: "This case does not pass yet.".to_owned(),
                zh: "这个用例还没有通过。".to_owned(),
            },
        }
    }
}

fn both(said: impl Fn(Lang) -> String) -> Text {
    Text {
        en: said(Lang::En),
        zh: said(Lang::Zh),
    }
}
