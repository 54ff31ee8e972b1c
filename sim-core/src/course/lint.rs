//! What `fencelab lint` checks beyond parsing: every scenario runs and
//! every exercise can be solved — by asking the graders and the explorers,
//! as a learner's answer would. It lives apart from `lesson.rs` (which only
//! reads lessons) so the parser and the graders do not import each other.

use crate::Lang;
use crate::course::error::CourseError;
use crate::course::grade::{MarkKey, breaking_schedule, mark_keys, strongest_safe_design};
use crate::course::lesson::{ExerciseKind, Lesson};

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
    /// Design: no choice of the open knobs is safe.
    NoSafeDesign,
    /// Break: the explorers find no breaking schedule within bounds.
    Unbreakable,
    /// Break: the world does not fit the explorer (its reason).
    World(CourseError),
}

impl LintProblem {
    /// `exercise `id` (kind): what is wrong`, in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        let (en, zh) = match &self.problem {
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
            LintKind::NoSafeDesign => (
                "no choice of the open knobs is safe in this world: the exercise cannot be solved"
                    .to_owned(),
                "在这个世界里，开放选项的任何组合都不安全：这个练习无解".to_owned(),
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
        };
        match lang {
            Lang::En => format!("exercise `{}` ({}): {en}", self.exercise, self.kind),
            Lang::Zh => format!("练习 `{}`（{}）：{zh}", self.exercise, self.kind),
        }
    }
}

/// Every problem lint finds in `lesson`, in exercise order.
pub fn lint_lesson(lesson: &Lesson) -> Vec<LintProblem> {
    let mut problems = Vec::new();
    for exercise in &lesson.exercises {
        let mut found = |problem: LintKind| {
            problems.push(LintProblem {
                line: exercise.line,
                col: exercise.col,
                exercise: exercise.id.clone(),
                kind: exercise.kind.name(),
                problem,
            });
        };
        match &exercise.kind {
            ExerciseKind::Mark {
                scenario,
                candidates,
            } => {
                let Some(scenario) = lesson.scenario(*scenario) else {
                    found(LintKind::MissingScenario);
                    continue;
                };
                // At least one step of each of the two sure kinds: an
                // `Either` step alone tells nothing apart.
                let keys = mark_keys(scenario, candidates);
                let has = |kind: MarkKey| keys.iter().any(|(_, key)| *key == kind);
                if !has(MarkKey::MustRefuse) {
                    found(LintKind::NothingToFind);
                }
                if !has(MarkKey::MustAllow) {
                    found(LintKind::NothingToTellApart);
                }
            }
            ExerciseKind::Predict { scenario, .. } => {
                if lesson.scenario(*scenario).is_none() {
                    found(LintKind::MissingScenario);
                }
            }
            ExerciseKind::Design {
                start, open, world, ..
            } => {
                if strongest_safe_design(*start, open, world).is_none() {
                    found(LintKind::NoSafeDesign);
                }
            }
            ExerciseKind::Break {
                scenario,
                violation,
            } => {
                let Some(scenario) = lesson.scenario(*scenario) else {
                    found(LintKind::MissingScenario);
                    continue;
                };
                match breaking_schedule(scenario, *violation) {
                    Ok(Some(_)) => {}
                    Ok(None) => found(LintKind::Unbreakable),
                    Err(why) => found(LintKind::World(why)),
                }
            }
            ExerciseKind::Quiz { .. } => {}
        }
    }
    problems
}

/// [`lint_lesson`] as `(line, col, English message)` triples.
pub fn check_lessons(lesson: &Lesson) -> Vec<(u32, u32, String)> {
    lint_lesson(lesson)
        .into_iter()
        .map(|p| (p.line, p.col, p.message(Lang::En)))
        .collect()
}
