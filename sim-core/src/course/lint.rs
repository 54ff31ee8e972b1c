//! What `fencelab lint` checks beyond parsing: every scenario runs and
//! every exercise can be solved — by asking the graders and the explorers,
//! as a learner's answer would. It lives apart from `lesson.rs` (which only
//! reads lessons) so the parser and the graders do not import each other.

use crate::Lang;
use crate::course::error::CourseError;
#[cfg(feature = "sql-lab")]
use crate::course::kinds::sql::sql_plan;
#[allow(unused_imports)]
use crate::course::kinds::{design::*, mark::*, predict::*, quiz::*, schedule::*, sql::*};
use crate::course::lesson::{Exercise, ExerciseKind, Lesson, QuizOption};

/// One problem with an exercise, at the exercise's line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintProblem {
    pub line: u32,
    pub col: u32,
    pub exercise: String,
    pub kind: &'static str,
    pub problem: LintKind,
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LintKind {
    /// Mark: no candidate step must be rejected.
    NothingToFind,
    /// Mark: no candidate step must be allowed (every one must or may be
    /// refused), so marking everything would pass.
    NothingToTellApart,
    MissingScenario,
    /// No `title`: the front ends would fall back to the kind's name.
    MissingTitle,
    /// `section = N` names a section the lesson does not have.
    NoSuchSection {
        section: u32,
        sections: usize,
    },
    /// Design: no choice of the open knobs is safe.
    NoSafeDesign,
    /// Design: the computed minimal design does not pass its own grader.
    MinimalFails,
    /// Design: the world offers a supplement (a gateway or a dispatcher),
    /// yet the cheapest design, every target unprotected and nothing
    /// reconciled, is already safe: no cheaper answer can be wrong, so the
    /// supplement teaches nothing.
    NoCheaperWrongAnswer,
    /// Break: the explorers find no breaking schedule within bounds.
    Unbreakable,
    /// Practice: the world gives no good round about `situation` at
    /// `level` (the first learner's first round, seed 0).
    NoPracticeRound {
        situation: &'static str,
        level: u8,
    },
    /// Break: the world does not fit the explorer (its reason).
    World(CourseError),
    /// Sql: the scenario cannot become a plan (its reason, en and zh).
    SqlPlan(String, String),
    /// Sql: the reference statements the caller ran fail these cases.
    SqlUnsolved(Vec<crate::sqllab::Case>),
    /// Quiz: hint `hint` (from 0) names how many options are correct
    /// ("two of these", "exactly one", "其中有两句"), in `lang`.
    HintCountsAnswers {
        hint: usize,
        lang: Lang,
    },
    /// The whole course: the correct option is the strictly longest one in
    /// more than half of the single-choice quizzes, measured in `lang`'s
    /// text, so picking the longest would pass most of them unread.
    CorrectIsLongest {
        lang: Lang,
        /// The quizzes (`lesson/exercise`) whose correct option is longest.
        longest: Vec<String>,
        /// Single-choice quizzes in the course.
        quizzes: usize,
    },
}

impl LintKind {
    /// What is wrong, in English and in Chinese.
    fn said(&self) -> (String, String) {
        match self {
            LintKind::NothingToFind => (
                "no candidate step must be rejected: there is nothing to find".to_owned(),
                "没有候选步骤必须被拒绝：没有可找的东西".to_owned(),
            ),
            LintKind::NothingToTellApart => (
                "no candidate step must be allowed: marking every step would pass, so there is nothing to tell apart".to_owned(),
                "没有必须放行的候选步骤：全部标记就能通过，没有需要区分的东西".to_owned(),
            ),
            LintKind::MissingScenario => (
                "its scenario is missing".to_owned(),
                "它的场景不存在".to_owned(),
            ),
            LintKind::MissingTitle => (
                "it has no `title = { en, zh }`: learners would see only its kind".to_owned(),
                "它没有 `title = { en, zh }`：学习者只能看到它的类型".to_owned(),
            ),
            LintKind::NoSuchSection { section, sections } => (
                format!("`section = {section}` names no section: the lesson has {sections}, counted from 1"),
                format!("`section = {section}` 指向的小节不存在：这一课有 {sections} 个小节，从 1 数起"),
            ),
            LintKind::NoSafeDesign => (
                "no choice of the open knobs is safe in this world: the exercise cannot be solved"
                    .to_owned(),
                "在这个世界里，开放选项的任何组合都不安全：这个练习无解".to_owned(),
            ),
            LintKind::NoCheaperWrongAnswer => (
                "the world offers a gateway or a dispatcher, but the design with no protection and no reconciliation is already safe: no cheaper answer is wrong".to_owned(),
                "这个世界提供了网关或派发器，但不加任何保护、不做对账的设计已经安全：没有更便宜的错误答案".to_owned(),
            ),
            LintKind::MinimalFails => (
                "the computed minimal design does not pass the grader".to_owned(),
                "计算出的最省设计没有通过评分".to_owned(),
            ),
            LintKind::NoPracticeRound { situation, level } => (
                format!(
                    "no good practice round about `{situation}` at level {level}: the world is too small or too crowded for it"
                ),
                format!("在第 {level} 级抽不到关于 `{situation}` 的合适练习轮次：这个世界太小或太拥挤"),
            ),
            LintKind::Unbreakable => (
                "the explorers find no schedule that breaks this design within bounds".to_owned(),
                "探索器在界限内找不到攻破这个设计的调度".to_owned(),
            ),
            LintKind::World(why) => (
                format!(
                    "its world does not fit the explorer: {}",
                    why.message(Lang::En)
                ),
                format!("它的世界不适合探索器：{}", why.message(Lang::Zh)),
            ),
            LintKind::SqlPlan(en, zh) => (en.clone(), zh.clone()),
            LintKind::SqlUnsolved(cases) => (
                format!(
                    "the reference statements fail these cases, so the exercise cannot be solved: {}",
                    cases.iter().map(|c| c.title(Lang::En)).collect::<Vec<_>>().join("; ")
                ),
                format!(
                    "参考语句没有通过这些用例，这道练习无法完成：{}",
                    cases.iter().map(|c| c.title(Lang::Zh)).collect::<Vec<_>>().join("；")
                ),
            ),
            LintKind::HintCountsAnswers { hint, lang } => (
                format!(
                    "hint {} names how many options are correct ({} text): a learner could count instead of think",
                    hint + 1,
                    lang.pick("English", "Chinese")
                ),
                format!(
                    "第 {} 条提示说出了正确选项的个数（{}文本）：学习者可以靠数数而不是思考来作答",
                    hint + 1,
                    lang.pick("英文", "中文")
                ),
            ),
            LintKind::CorrectIsLongest {
                lang,
                longest,
                quizzes,
            } => longest_said(*lang, longest, *quizzes),
        }
    }

    /// What is wrong, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let (en, zh) = self.said();
        lang.pick(&en, &zh).to_owned()
    }
}

/// [`LintKind::CorrectIsLongest`] in English and Chinese.
pub(crate) fn longest_said(lang: Lang, longest: &[String], quizzes: usize) -> (String, String) {
    (
        format!(
            "in {} of {quizzes} single-choice quizzes the correct option is the longest ({} text), so the longest option is a winning guess; at most half may be: {}",
            longest.len(),
            lang.pick("English", "Chinese"),
            longest.join(", ")
        ),
        format!(
            "{quizzes} 道单选题中有 {} 道的正确选项最长（{}文本），挑最长的选项就能蒙对；最多只能有一半这样：{}",
            longest.len(),
            lang.pick("英文", "中文"),
            longest.join("、")
        ),
    )
}

impl LintProblem {
    /// `problem` of `exercise`, at its position.
    pub(crate) fn of(exercise: &Exercise, problem: LintKind) -> LintProblem {
        LintProblem {
            line: exercise.line,
            col: exercise.col,
            exercise: exercise.id.clone(),
            kind: exercise.kind.name(),
            problem,
        }
    }

    /// `exercise `id` (kind): what is wrong`, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let (en, zh) = self.problem.said();
        match lang {
            Lang::En => format!("exercise `{}` ({}): {en}", self.exercise, self.kind),
            Lang::Zh => format!("练习 `{}`（{}）：{zh}", self.exercise, self.kind),
        }
    }
}

/// Every problem lint finds in `lesson`, in exercise order.
pub fn lint_lesson(lesson: &Lesson) -> Vec<LintProblem> {
    let mut problems = practice_problems(lesson);
    for exercise in &lesson.exercises {
        problems.extend(
            exercise_problems(lesson, exercise)
                .into_iter()
                .map(|problem| LintProblem::of(exercise, problem)),
        );
    }
    problems
}

/// A practice world that cannot draw a round of one of its situations at
/// one of the levels (the first learner's first round).
fn practice_problems(lesson: &Lesson) -> Vec<LintProblem> {
    use crate::course::practice::{PRACTICE_LEVELS, RoundKey, draw_round};
    let Some(practice) = &lesson.practice else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    for &situation in &practice.situations {
        for level in 1..=PRACTICE_LEVELS {
            let key = RoundKey {
                pool: lesson.id.clone(),
                seed: 0,
                round: 0,
                level,
                focus: situation,
            };
            if draw_round(practice, &key).is_err() {
                problems.push(LintProblem {
                    line: practice.line,
                    col: practice.col,
                    exercise: "practice".to_owned(),
                    kind: "practice",
                    problem: LintKind::NoPracticeRound {
                        situation: situation.name(),
                        level,
                    },
                });
            }
        }
    }
    problems
}

/// What is wrong with `exercise`, in the order lint reports it.
pub(crate) fn exercise_problems(lesson: &Lesson, exercise: &Exercise) -> Vec<LintKind> {
    let mut found = Vec::new();
    if exercise.title.is_none() {
        found.push(LintKind::MissingTitle);
    }
    if let Some(section) = exercise.section
        && section as usize > lesson.sections.len()
    {
        found.push(LintKind::NoSuchSection {
            section,
            sections: lesson.sections.len(),
        });
    }
    match &exercise.kind {
        ExerciseKind::Mark {
            scenario,
            candidates,
        } => found.extend(mark_problems(lesson, *scenario, candidates)),
        ExerciseKind::Predict { scenario, .. } => {
            if lesson.scenario(*scenario).is_none() {
                found.push(LintKind::MissingScenario);
            }
        }
        kind @ ExerciseKind::Design { .. } => found.extend(design_problem(lesson, exercise, kind)),
        ExerciseKind::Break {
            scenario,
            violation,
        } => found.extend(break_problem(lesson, *scenario, *violation)),
        // Solvable is proven by the test suite, which runs a reference
        // statement set on SQLite ([`sql_unsolved`]); here: the plan can
        // be built at all (where the SQL lab is built in).
        #[cfg(not(feature = "sql-lab"))]
        ExerciseKind::Sql { .. } => {}
        #[cfg(feature = "sql-lab")]
        ExerciseKind::Sql { slots, .. } => {
            // The parser takes an empty `statements` list: nothing to write.
            if slots.is_empty() {
                found.push(LintKind::SqlPlan(
                    "`statements` names none of claim, renew, finish, cancel".to_owned(),
                    "`statements` 没有列出 claim、renew、finish、cancel 中的任何一个".to_owned(),
                ));
            }
            match sql_plan(lesson, exercise) {
                Ok(_) => {}
                Err(CourseError::MissingScenario) => found.push(LintKind::MissingScenario),
                Err(why) => found.push(LintKind::SqlPlan(
                    why.message(Lang::En),
                    why.message(Lang::Zh),
                )),
            }
        }
        ExerciseKind::Quiz { .. } => found.extend(quiz_problems(exercise)),
    }
    found
}

/// Lint over the whole course, for what no single lesson shows: whether the
/// correct option is the strictly longest one in more than half of the
/// course's single-choice quizzes, in either language (each measured on
/// its own text, in characters). A tie for longest does not count: the
/// learner cannot pick by length then.
pub fn lint_course(lessons: &[Lesson]) -> Vec<LintKind> {
    let single: Vec<(String, &[QuizOption])> = lessons
        .iter()
        .flat_map(|lesson| {
            lesson
                .exercises
                .iter()
                .filter_map(move |exercise| match &exercise.kind {
                    ExerciseKind::Quiz {
                        multiple: false,
                        options,
                    } => Some((format!("{}/{}", lesson.id, exercise.id), options.as_slice())),
                    _ => None,
                })
        })
        .collect();
    [Lang::En, Lang::Zh]
        .into_iter()
        .filter_map(|lang| {
            let longest: Vec<String> = single
                .iter()
                .filter(|(_, options)| correct_is_longest(options, lang))
                .map(|(name, _)| name.clone())
                .collect();
            (longest.len() * 2 > single.len()).then_some(LintKind::CorrectIsLongest {
                lang,
                longest,
                quizzes: single.len(),
            })
        })
        .collect()
}

/// Numbers as English words (and digits, see [`is_count`]).
const NUMBER_WORDS: [&str; 8] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight",
];

/// Words that stand for the options, or say what a counted group of them is.
const OPTION_WORDS: [&str; 16] = [
    "options",
    "answers",
    "statements",
    "choices",
    "claims",
    "sentences",
    "replies",
    "correct",
    "right",
    "true",
    "wrong",
    "false",
    "pitfalls",
    "are",
    "is",
    "apply",
];

pub(crate) fn is_count(word: &str) -> bool {
    NUMBER_WORDS.contains(&word) || (!word.is_empty() && word.chars().all(|c| c.is_ascii_digit()))
}

/// An English hint that says how many options are right: "exactly one",
/// "only two", "two of these", "two of the statements", "three
/// statements", "one correct", "both are", "none of them", "all but one".
/// "one of the workers" is not one: only options are counted.
pub(crate) fn counts_answers_en(hint: &str) -> bool {
    let lower = hint.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let word = |at: usize| words.get(at).copied().unwrap_or("");
    (0..words.len()).any(|at| {
        let (first, second, third, fourth) = (word(at), word(at + 1), word(at + 2), word(at + 3));
        let counted = is_count(first) || matches!(first, "both" | "none");
        let of_options = second == "of"
            && (third == "them"
                || (matches!(third, "these" | "those" | "the")
                    && (fourth.is_empty() || OPTION_WORDS.contains(&fourth))));
        (matches!(first, "exactly" | "only" | "just" | "precisely") && is_count(second))
            || (counted && of_options)
            || (counted && OPTION_WORDS.contains(&second))
            || (first == "all" && second == "but" && is_count(third))
    })
}

/// A Chinese hint that says how many options are right: a number and a
/// measure word (两个, 一项, 两句) led by 其中 / 只有 / 恰好 … or followed by
/// 选项 / 说法 / 正确 …; a count alone ("一个数字") is not one.
pub(crate) fn counts_answers_zh(hint: &str) -> bool {
    const NUMBERS: &str = "一二两三四五六七八九十0123456789";
    const MEASURES: &str = "个项句条处种";
    const BEFORE: [&str; 8] = [
        "其中",
        "只有",
        "恰好",
        "正好",
        "仅有",
        "共有",
        "有且仅有",
        "都",
    ];
    const AFTER: [&str; 9] = [
        "选项", "说法", "答案", "正确", "是对", "是错", "误区", "对的", "错的",
    ];
    let chars: Vec<char> = hint.chars().collect();
    chars.windows(2).enumerate().any(|(at, pair)| {
        if !(NUMBERS.contains(pair[0]) && MEASURES.contains(pair[1])) {
            return false;
        }
        let before: String = chars[at.saturating_sub(4)..at].iter().collect();
        let after: String = chars[(at + 2).min(chars.len())..(at + 6).min(chars.len())]
            .iter()
            .collect();
        BEFORE.iter().any(|w| before.contains(w)) || AFTER.iter().any(|w| after.contains(w))
    })
}

/// [`lint_lesson`] as `(line, col, English message)` triples.
pub fn check_lessons(lesson: &Lesson) -> Vec<(u32, u32, String)> {
    lint_lesson(lesson)
        .into_iter()
        .map(|p| (p.line, p.col, p.message(Lang::En)))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]

    use super::*;

    #[test]
    fn english_hints_that_count_the_answers_are_caught() {
        for counting in [
            "Two of the statements describe what this course recommends.",
            "Exactly one of them is safe.",
            "Only two options survive a pause.",
            "Two of these are fine.",
            "Three statements are pitfalls.",
            "Both are right.",
            "None of them is wrong.",
            "All but one are pitfalls.",
            "2 correct.",
        ] {
            assert!(counts_answers_en(counting), "{counting}");
        }
        for innocent in [
            "Who could possibly tell A's process that its lease ended?",
            "One of the workers pauses at tick 3.",
            "Think about two workers and one row.",
            "Go through the checkpoints one by one.",
            "Which mistake costs more: stopping early, or writing late?",
        ] {
            assert!(!counts_answers_en(innocent), "{innocent}");
        }
    }

    #[test]
    fn chinese_hints_that_count_the_answers_are_caught() {
        for counting in [
            "其中有两句描述的正是本课程推荐的做法。",
            "只有一个是安全的。",
            "有两个选项是对的。",
            "恰好三项正确。",
        ] {
            assert!(counts_answers_zh(counting), "{counting}");
        }
        for innocent in [
            "想想租约到底是什么：某一行里的一个数字。",
            "三个检查点逐个核对：哪些已经在这段话里？",
            "想想两个 Worker 和一行数据。",
        ] {
            assert!(!counts_answers_zh(innocent), "{innocent}");
        }
    }

    fn quiz(id: &str, options: &[(&str, bool)]) -> String {
        let options: Vec<String> = options
            .iter()
            .map(|(text, correct)| {
                format!(
                    "  {{ text = {{ en = \"{text}\", zh = \"{text}\" }}, correct = {correct}, why = {{ en = \"w\", zh = \"w\" }} }},\n"
                )
            })
            .collect();
        format!(
            "[[exercises]]\nid = \"{id}\"\nkind = \"quiz\"\nconcepts = [\"C01\"]\nprompt = {{ en = \"p\", zh = \"p\" }}\nhints = [{{ en = \"a\", zh = \"甲\" }}, {{ en = \"b\", zh = \"乙\" }}]\ntakeaway = {{ en = \"t\", zh = \"t\" }}\noptions = [\n{}]\n",
            options.concat()
        )
    }

    fn lesson(quizzes: &[String]) -> Lesson {
        let text = format!(
            "id = \"one\"\norder = 1\ntitle = {{ en = \"O\", zh = \"O\" }}\nsummary = {{ en = \"s\", zh = \"s\" }}\nconcepts = [\"C01\"]\n\n[[sections]]\ntitle = {{ en = \"S\", zh = \"S\" }}\nconcepts = [\"C01\"]\nbody = {{ en = \"b\", zh = \"b\" }}\n\n{}",
            quizzes.concat()
        );
        crate::course::parse_lesson(text.as_bytes()).unwrap_or_else(|d| panic!("{d:?}"))
    }

    #[test]
    fn an_exercise_without_a_title_is_reported_and_falls_back_to_its_kind() {
        let options = [("yes", true), ("no", false)];
        let untitled = lesson(&[quiz("q", &options)]);
        let problems = lint_lesson(&untitled);
        assert!(problems.iter().any(|p| p.problem == LintKind::MissingTitle));
        assert_eq!(untitled.exercises[0].title(Lang::En), "quiz");
        let titled = quiz("q", &options).replace(
            "kind = \"quiz\"",
            "kind = \"quiz\"\ntitle = { en = \"Yes or no\", zh = \"是或否\" }",
        );
        let titled = lesson(&[titled]);
        assert!(
            lint_lesson(&titled)
                .iter()
                .all(|p| p.problem != LintKind::MissingTitle)
        );
        assert_eq!(titled.exercises[0].title(Lang::Zh), "是或否");
    }

    #[test]
    fn a_section_the_lesson_lacks_is_reported() {
        let options = [("yes", true), ("no", false)];
        let placed = |n: u32| {
            quiz("q", &options).replace(
                "kind = \"quiz\"",
                &format!("kind = \"quiz\"\nsection = {n}"),
            )
        };
        let sections = lesson(&[placed(1)]).sections.len();
        let fits = lesson(&[placed(u32::try_from(sections).unwrap_or(1))]);
        assert_eq!(fits.exercises[0].section, Some(sections as u32));
        assert!(
            lint_lesson(&fits)
                .iter()
                .all(|p| !matches!(p.problem, LintKind::NoSuchSection { .. }))
        );
        let beyond = lint_lesson(&lesson(&[placed(sections as u32 + 1)]));
        assert!(
            beyond.iter().any(|p| p.problem
                == LintKind::NoSuchSection {
                    section: sections as u32 + 1,
                    sections
                }),
            "{beyond:?}"
        );
    }

    #[test]
    fn the_correct_option_may_be_longest_in_at_most_half_the_quizzes() {
        let longest = quiz("a", &[("short", false), ("the long right one", true)]);
        let shorter = quiz("b", &[("a long wrong option", false), ("right", true)]);
        let tie = quiz("c", &[("equal", false), ("same!", true)]);
        // One of two is half: allowed.
        assert_eq!(
            lint_course(&[lesson(&[longest.clone(), shorter.clone()])]),
            []
        );
        // Two of three (a tie does not count as longest, a second longest does).
        let course = [lesson(&[
            longest.clone(),
            shorter,
            quiz("d", &[("x", false), ("yy", true)]),
        ])];
        let found = lint_course(&course);
        assert_eq!(found.len(), 2, "English and Chinese: {found:?}");
        assert!(
            matches!(&found[0], LintKind::CorrectIsLongest { lang: Lang::En, longest, quizzes: 3 } if longest == &["one/a", "one/d"])
        );
        assert!(found[1].message(Lang::Zh).contains("3 道单选题中有 2 道"));
        assert_eq!(lint_course(&[lesson(&[longest, tie])]), []);
    }
}
