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
use crate::course::lesson::{ExerciseKind, QuizOption};
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
/// by which the first wrong one is found and numbered.
pub(crate) fn feedback(
    kind: &ExerciseKind,
    grade: &Grade,
    attempts: u32,
    revealed: bool,
    takeaway: &Text,
    order: &[usize],
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
fn hidden(summary: Text, items: Vec<GradeItem>) -> Feedback {
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

/// A wrong quiz try counts only what the learner did: the chosen options
/// that are wrong and, for a multiple choice, how many right options are
/// missing — never which. From the second wrong try on it names the first
/// wrong chosen option by its number on screen; it never says anything
/// about an option the learner did not choose.
fn quiz_feedback(
    grade: &Grade,
    options: &[QuizOption],
    multiple: bool,
    attempts: u32,
    order: &[usize],
) -> Feedback {
    let chosen_wrong: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&index| {
            grade.items.iter().any(|item| {
                item.index == Some(index as u32)
                    && !item.right
                    && options.get(index).is_some_and(|o| !o.correct)
            })
        })
        .collect();
    let chosen: usize = grade
        .items
        .iter()
        .filter(|item| {
            item.index
                .and_then(|i| options.get(i as usize))
                .is_some_and(|option| option.correct == item.right)
        })
        .count();
    let missing = options
        .iter()
        .enumerate()
        .filter(|(index, option)| {
            option.correct
                && grade
                    .items
                    .iter()
                    .any(|item| item.index == Some(*index as u32) && !item.right)
        })
        .count();
    let first = (attempts > 1)
        .then(|| chosen_wrong.first().copied())
        .flatten();
    let number = first.and_then(|index| order.iter().position(|&at| at == index).map(|p| p + 1));
    let summary = both(|lang| {
        let mut said = match (multiple, lang) {
            (false, Lang::En) => "The option you chose is not right.".to_owned(),
            (false, Lang::Zh) => "你选的选项不对。".to_owned(),
            (true, Lang::En) => match chosen_wrong.len() {
                0 => "None of the options you chose is wrong".to_owned(),
                1 => format!("1 of the {chosen} options you chose is wrong"),
                n => format!("{n} of the {chosen} options you chose are wrong"),
            },
            (true, Lang::Zh) => match chosen_wrong.len() {
                0 => "你选的选项没有错的".to_owned(),
                n => format!("你选的 {chosen} 个选项中有 {n} 个不对"),
            },
        };
        if multiple {
            said.push_str(&match (missing, lang) {
                (0, Lang::En) => ".".to_owned(),
                (1, Lang::En) => "; 1 right option is missing.".to_owned(),
                (n, Lang::En) => format!("; {n} right options are missing."),
                (0, Lang::Zh) => "。".to_owned(),
                (n, Lang::Zh) => format!("；还少选了 {n} 个正确的选项。"),
            });
        }
        if let Some(number) = number {
            said.push_str(&match lang {
                Lang::En => format!(" The first wrong one you chose: option {number}."),
                Lang::Zh => format!("你选错的第一个：选项 {number}。"),
            });
        } else if attempts <= 1 {
            said.push_str(lang.pick(
                " Think again; from your next try on, the first wrong choice is pointed out.",
                "再想想；从下一次作答起，会指出你选错的第一个。",
            ));
        }
        said
    });
    let items = first
        .map(|index| GradeItem {
            index: Some(index as u32),
            right: false,
            text: Noun::Option.not_yet(),
        })
        .into_iter()
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
    #[cfg(feature = "sql-lab")]
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
            #[cfg(feature = "sql-lab")]
            (Noun::Case, Lang::En) => format!("{wrong} of {total} cases"),
            #[cfg(feature = "sql-lab")]
            (Noun::Case, Lang::Zh) => format!("{total} 个用例中有 {wrong} 个"),
        }
    }

    /// The first wrong item: a step by number, a failing case below.
    fn which(self, index: Option<u32>, lang: Lang) -> String {
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
    fn wrong_item(self, item: &GradeItem) -> Text {
        #[cfg(feature = "sql-lab")]
        if self == Noun::Case {
            return item.text.clone();
        }
        let _ = item;
        self.not_yet()
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
            #[cfg(feature = "sql-lab")]
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
