//! The `sql` exercise: the learner's statements run on SQLite over the battery of cases (front ends run it; this module builds the plan and judges the run).

use super::prelude::*;

/// A `sql` exercise's plan: its scenario, then the lab's battery.
#[cfg(feature = "sql-lab")]
pub fn sql_plan(lesson: &Lesson, exercise: &Exercise) -> Result<Plan, CourseError> {
    let ExerciseKind::Sql { scenario, slots } = &exercise.kind else {
        return Err(CourseError::WrongKind {
            kind: exercise.kind.name(),
        });
    };
    let scenario = lesson
        .scenario(*scenario)
        .ok_or(CourseError::MissingScenario)?;
    sqllab::plan(scenario, slots).map_err(CourseError::SqlPlan)
}

/// A `sql` answer: one item per case, right when every statement of the
/// case changed the rows and left the job row the model says. Refused
/// statements are no grade ([`CourseError::SqlRefused`]).
#[cfg(feature = "sql-lab")]
pub(crate) fn grade_sql(
    lesson: &Lesson,
    exercise: &Exercise,
    answer: &SqlAnswer,
) -> Result<Grade, CourseError> {
    let plan = sql_plan(lesson, exercise)?;
    let run = answer.run.as_ref().ok_or(CourseError::SqlNotRun)?;
    if !run.refused.is_empty() {
        return Err(CourseError::SqlRefused(run.refused.clone()));
    }
    let items = sqllab::judge(&plan, run)
        .iter()
        .enumerate()
        .map(|(index, verdict)| GradeItem {
            index: u32::try_from(index).ok(),
            right: verdict.passed(),
            text: told(|lang| verdict.words(lang)),
        })
        .collect();
    Ok(finish(items, true, None, None))
}

/// A `sql` exercise's worked solution: the statements the model sends, and
/// per case what they must do (the model's row counts; no run needed).
#[cfg(feature = "sql-lab")]
pub(crate) fn sql_solution(
    lesson: &Lesson,
    exercise: &Exercise,
    slots: &[Slot],
) -> Result<Solution, CourseError> {
    let plan = sql_plan(lesson, exercise)?;
    let statements = sqllab::model_statements(slots);
    let items = plan
        .cases
        .iter()
        .enumerate()
        .map(|(index, case)| {
            let rows: Vec<String> = case.steps.iter().map(|s| s.rows.to_string()).collect();
            GradeItem {
                index: u32::try_from(index).ok(),
                right: true,
                text: told(|lang| {
                    let rows = rows.join(" / ");
                    match lang {
                        Lang::En => format!("{}: rows {rows}", case.case.title(lang)),
                        Lang::Zh => format!("{}：行数 {rows}", case.case.title(lang)),
                    }
                }),
            }
        })
        .collect();
    let mut grade = finish(items, true, None, None);
    grade.summary = told(|lang| {
        let mut out = lang
            .pick(
                "The statements the model sends (SQLite), and what each case needs:",
                "模型发出的语句（SQLite），以及每个用例要求的结果：",
            )
            .to_owned();
        for (slot, text) in &statements {
            out.push_str(&format!("\n{}: {text}", slot.name()));
        }
        out
    });
    Ok(Solution {
        grade,
        key: Answer::Sql(SqlAnswer {
            statements,
            run: None,
        }),
        design: None,
    })
}

/// A `sql` answer's statements by slot (`{ "claim": "UPDATE …", … }`).
#[cfg(feature = "sql-lab")]
pub(crate) fn sql_answer(slots: &[Slot], value: &Value) -> Result<Answer, CourseError> {
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
pub(crate) fn sql_answer(_: &[Slot], _: &Value) -> Result<Answer, CourseError> {
    Err(CourseError::WrongKind { kind: "sql" })
}

#[cfg(feature = "sql-lab")]
/// Lint of `sql` exercises, which sim-core cannot run alone: `run` runs a
/// plan with a reference statement set on a real SQLite (the test suite
/// keeps that set, not the lesson file), and every case must pass.
pub fn sql_unsolved(lesson: &Lesson, run: impl Fn(&Plan) -> PlanRun) -> Vec<LintProblem> {
    let mut problems = Vec::new();
    for exercise in &lesson.exercises {
        if !matches!(exercise.kind, ExerciseKind::Sql { .. }) {
            continue;
        }
        let problem = match sql_plan(lesson, exercise) {
            Ok(plan) => {
                let failing: Vec<_> = judge(&plan, &run(&plan))
                    .into_iter()
                    .filter(|verdict| !verdict.passed())
                    .map(|verdict| verdict.case)
                    .collect();
                (!failing.is_empty()).then_some(LintKind::SqlUnsolved(failing))
            }
            Err(why) => Some(LintKind::SqlPlan(
                why.message(Lang::En),
                why.message(Lang::Zh),
            )),
        };
        if let Some(problem) = problem {
            problems.push(LintProblem::of(exercise, problem));
        }
    }
    problems
}

/// Reading this kind from a lesson file.
impl Reader<'_> {
    /// A `sql` exercise's `statements`: distinct slot names, at least one
    /// (default claim, renew and finish).
    pub(crate) fn slots(&mut self, value: Option<&crate::parse::Value<'_>>) -> Option<Vec<Slot>> {
        let Some(value) = value else {
            return Some(vec![Slot::Claim, Slot::Renew, Slot::Finish]);
        };
        let entries = self.array(value, &name("`statements`"))?;
        let mut slots = Vec::new();
        for entry in entries {
            let named = self.choice(entry, &name("statement"), &SLOT_NAMES, |k| k)?;
            for slot in Slot::VARIANTS {
                if slot.name() == named && !slots.contains(slot) {
                    slots.push(*slot);
                }
            }
        }
        // A name listed twice counts once; an empty list is lint's to report.
        Some(slots)
    }
}
