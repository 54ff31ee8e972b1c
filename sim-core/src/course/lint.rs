//! What `fencelab lint` checks beyond parsing: every scenario runs and
//! every exercise can be solved — by asking the graders and the explorers,
//! as a learner's answer would. It lives apart from `lesson.rs` (which only
//! reads lessons) so the parser and the graders do not import each other.

use crate::Lang;
use crate::course::error::CourseError;
use crate::course::grade::{
    DesignExercise, breaking_schedule, mark_candidates, minimal_design, worked_solution,
};
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
    /// Mark: every candidate step must be rejected.
    NothingToTellApart,
    MissingScenario,
    /// Design: no choice of the open knobs is safe.
    NoSafeDesign,
    /// Design: the computed minimal design does not pass its own grader.
    MinimalFails,
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
                "every candidate step must be rejected: there is nothing to tell apart".to_owned(),
                "每个候选步骤都必须被拒绝：没有需要区分的东西".to_owned(),
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
            LintKind::MinimalFails => (
                "the computed minimal design does not pass the grader".to_owned(),
                "计算出的最省设计没有通过评分".to_owned(),
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
                let trace = crate::run(scenario);
                let candidate_steps = mark_candidates(scenario, candidates);
                let reject = candidate_steps
                    .iter()
                    .filter(|i| trace.should_reject.contains(i))
                    .count();
                if reject == 0 {
                    found(LintKind::NothingToFind);
                }
                if reject == candidate_steps.len() {
                    found(LintKind::NothingToTellApart);
                }
            }
            ExerciseKind::Predict { scenario, .. } => {
                if lesson.scenario(*scenario).is_none() {
                    found(LintKind::MissingScenario);
                }
            }
            kind @ ExerciseKind::Design { .. } => {
                // Solvable: a minimal safe design exists, and it passes the
                // grader (any design of the same least cost passes too, so
                // a tie between minimal designs is no problem).
                let minimal = DesignExercise::of(kind).map(|e| minimal_design(&e));
                match minimal {
                    Some(Ok(Some(_))) => {
                        if !worked_solution(lesson, exercise).is_ok_and(|s| s.grade.correct) {
                            found(LintKind::MinimalFails);
                        }
                    }
                    Some(Ok(None)) | None => found(LintKind::NoSafeDesign),
                    Some(Err(why)) => found(LintKind::World(why)),
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
