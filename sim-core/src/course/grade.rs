//! Grading every exercise kind, and the worked solutions — all computed by
//! the engine and the explorers from the lesson's scenario and design.

use crate::Lang;
use serde_json::Value;

use crate::course::lesson::{Exercise, ExerciseKind, Knob, Lesson};
use crate::design::{Check, CheckSet, Design, LeaseClock, Protect, TokenKind};
use crate::explore::{
    Bounds, Counterexample, Method, RunToEnd, Verdict, World, WorldOptions, explore_for,
};
use crate::narrate::{describe_step, safety_reason};
use crate::scenario::{Action, MAX_TIME, Scenario, Step, Text};
use crate::trace::{Outcome, ViolationKind};

/// A learner's answer to one exercise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The step indices marked as "must be rejected".
    Mark(Vec<u32>),
    /// (step index, predicted outcome).
    Predict(Vec<(u32, Outcome)>),
    Design(DesignAnswer),
    /// The learner's schedule.
    Break(Schedule),
    /// The chosen options' indices.
    Quiz(Vec<usize>),
}

/// A break exercise's answer: the steps of a schedule in the exercise's
/// world, and the operation ids and values they name (indexed by
/// `OpRef::Named` and `ValueRef::Named`). The world itself — workers,
/// targets, design — always comes from the lesson.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    pub steps: Vec<Step>,
    pub ops: Vec<String>,
    pub values: Vec<String>,
}

impl From<Vec<Step>> for Schedule {
    /// Steps that name no operation id or value of their own.
    fn from(steps: Vec<Step>) -> Schedule {
        Schedule {
            steps,
            ..Schedule::default()
        }
    }
}

/// The knobs a learner turned; `None` keeps the exercise's start value.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DesignAnswer {
    pub commit_checks: Option<CheckSet>,
    pub renew_checks: Option<CheckSet>,
    pub token: Option<TokenKind>,
    pub lease_clock: Option<LeaseClock>,
    pub target_protect: Option<Vec<Protect>>,
}

/// One graded part of an answer (a step, an option, a verdict).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeItem {
    /// The scenario step or quiz option it is about.
    pub index: Option<u32>,
    pub right: bool,
    pub text: Text,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grade {
    pub correct: bool,
    pub summary: Text,
    pub items: Vec<GradeItem>,
    /// Design: the explorers' counterexample to the learner's design.
    pub counterexample: Option<Counterexample>,
    /// Break: the learner's schedule as a scenario (with its world).
    pub scenario: Option<Scenario>,
}

fn text(en: String, zh: String) -> Text {
    Text { en, zh }
}

/// Both languages of a narration.
fn told(f: impl Fn(Lang) -> String) -> Text {
    text(f(Lang::En), f(Lang::Zh))
}

fn outcome_named(name: &str) -> Option<Outcome> {
    [
        Outcome::Ok,
        Outcome::Rejected,
        Outcome::Duplicate,
        Outcome::Noop,
        Outcome::Waiting,
    ]
    .into_iter()
    .find(|o| o.name() == name)
}

/// Reads an answer's JSON (the `mark`, `predict`, `design`, `break` or
/// `quiz` value of an answers file) for `exercise` of `lesson`.
pub fn answer_from_json(
    lesson: &Lesson,
    exercise: &Exercise,
    value: &Value,
) -> Result<Answer, String> {
    let indices = |value: &Value, what: &str| -> Result<Vec<u64>, String> {
        value
            .as_array()
            .ok_or_else(|| format!("`{what}` must be a list of numbers"))?
            .iter()
            .map(|v| {
                v.as_u64()
                    .ok_or_else(|| format!("`{what}` must be a list of numbers"))
            })
            .collect()
    };
    match &exercise.kind {
        ExerciseKind::Mark { scenario, .. } => {
            let count = lesson.scenario(*scenario).map_or(0, |s| s.steps.len()) as u64;
            let marked = indices(value, "mark")?;
            if let Some(bad) = marked.iter().find(|i| **i >= count) {
                return Err(format!(
                    "step {bad} does not exist (the timeline has {count} steps)"
                ));
            }
            Ok(Answer::Mark(marked.into_iter().map(|i| i as u32).collect()))
        }
        ExerciseKind::Predict { scenario, steps } => {
            let count = lesson.scenario(*scenario).map_or(0, |s| s.steps.len()) as u32;
            let object = value
                .as_object()
                .ok_or("`predict` must map step indices to outcomes, e.g. {\"1\": \"ok\"}")?;
            let mut predictions = Vec::new();
            for (key, outcome) in object {
                let index: u32 = key
                    .parse()
                    .map_err(|_| format!("`{key}` is not a step index"))?;
                if index >= count || steps.as_ref().is_some_and(|s| !s.contains(&index)) {
                    return Err(format!("step {index} is not one of this exercise's steps"));
                }
                let name = outcome.as_str().unwrap_or_default();
                let outcome = outcome_named(name).ok_or_else(|| {
                    format!("`{name}` is not an outcome: ok, rejected, duplicate, noop or waiting")
                })?;
                predictions.push((index, outcome));
            }
            predictions.sort_by_key(|(index, _)| *index);
            Ok(Answer::Predict(predictions))
        }
        ExerciseKind::Design { open, world, .. } => {
            let object = value.as_object().ok_or("`design` must be an object")?;
            let mut answer = DesignAnswer::default();
            for (key, field) in object {
                let knob = Knob::ALL
                    .into_iter()
                    .find(|k| k.name() == key)
                    .ok_or_else(|| format!("unknown design knob `{key}`"))?;
                if !open.contains(&knob) {
                    return Err(format!("this exercise does not let you change `{key}`"));
                }
                let names = |field: &Value| -> Result<Vec<String>, String> {
                    field
                        .as_array()
                        .ok_or_else(|| format!("`{key}` must be a list"))?
                        .iter()
                        .map(|v| {
                            v.as_str()
                                .map(str::to_owned)
                                .ok_or_else(|| format!("`{key}` must list names"))
                        })
                        .collect()
                };
                match knob {
                    Knob::CommitChecks | Knob::RenewChecks => {
                        let mut set = CheckSet::EMPTY;
                        for name in names(field)? {
                            set = set.with(
                                Check::from_name(&name)
                                    .ok_or_else(|| format!("unknown check `{name}`"))?,
                            );
                        }
                        if knob == Knob::CommitChecks {
                            answer.commit_checks = Some(set);
                        } else {
                            answer.renew_checks = Some(set);
                        }
                    }
                    Knob::Token => {
                        let name = field.as_str().unwrap_or_default();
                        answer.token = Some(
                            TokenKind::ALL
                                .into_iter()
                                .find(|t| t.name() == name)
                                .ok_or_else(|| format!("unknown token kind `{name}`"))?,
                        );
                    }
                    Knob::LeaseClock => {
                        let name = field.as_str().unwrap_or_default();
                        answer.lease_clock = Some(
                            LeaseClock::ALL
                                .into_iter()
                                .find(|c| c.name() == name)
                                .ok_or_else(|| format!("unknown lease clock `{name}`"))?,
                        );
                    }
                    Knob::TargetProtect => {
                        let protects: Result<Vec<Protect>, String> = names(field)?
                            .iter()
                            .map(|name| {
                                Protect::ALL
                                    .into_iter()
                                    .find(|p| p.name() == name)
                                    .ok_or_else(|| format!("unknown protection `{name}`"))
                            })
                            .collect();
                        let protects = protects?;
                        let count = world.targets.as_ref().map_or(0, Vec::len);
                        if protects.len() != count {
                            return Err(format!(
                                "`target_protect` needs one protection per target ({count})"
                            ));
                        }
                        answer.target_protect = Some(protects);
                    }
                }
            }
            Ok(Answer::Design(answer))
        }
        ExerciseKind::Break { scenario, .. } => {
            let shell = lesson
                .scenario(*scenario)
                .ok_or("the exercise has no scenario")?;
            Ok(Answer::Break(steps_from_json(shell, value)?))
        }
        ExerciseKind::Quiz { options, multiple } => {
            let chosen = indices(value, "quiz")?;
            if let Some(bad) = chosen.iter().find(|i| **i as usize >= options.len()) {
                return Err(format!("option {bad} does not exist"));
            }
            if !multiple && chosen.len() > 1 {
                return Err("choose one option".to_owned());
            }
            Ok(Answer::Quiz(
                chosen.into_iter().map(|i| i as usize).collect(),
            ))
        }
    }
}

/// A learner's schedule from JSON steps (`{ "at", "worker", "do", "target",
/// "job", "op", "value", "note" }`, the keys of a scenario's steps),
/// checked against the world of `shell`.
fn steps_from_json(shell: &Scenario, value: &Value) -> Result<Schedule, String> {
    let entries = value.as_array().ok_or("`break` must be a list of steps")?;
    if entries.len() > 200 {
        return Err("a schedule of at most 200 steps, please".to_owned());
    }
    // Interned into a scratch copy of the world, so indices match the tables.
    let mut names = Scenario {
        ops: Vec::new(),
        values: Vec::new(),
        ..shell.clone()
    };
    let mut steps = Vec::new();
    let mut previous = 0;
    for (index, entry) in entries.iter().enumerate() {
        let fail = |what: String| Err(format!("step {index}: {what}"));
        let Some(object) = entry.as_object() else {
            return fail("must be an object".to_owned());
        };
        if let Some(key) = object.keys().find(|k| {
            !["at", "worker", "do", "target", "job", "op", "value", "note"].contains(&k.as_str())
        }) {
            return fail(format!("unknown key `{key}`"));
        }
        let at = match object.get("at").and_then(Value::as_u64) {
            Some(at) if at <= MAX_TIME as u64 => at,
            _ => return fail("`at` must be a tick from 0".to_owned()),
        };
        if at < previous {
            return fail(format!(
                "`at` = {at} goes backwards (the step before is at {previous})"
            ));
        }
        previous = at;
        let name = object.get("do").and_then(Value::as_str).unwrap_or_default();
        let Some(action) = Action::from_name(name) else {
            return fail(format!("unknown action `{name}`"));
        };
        let worker = match object.get("worker").and_then(Value::as_str) {
            Some(id) => match shell.workers.iter().position(|w| w.id == id) {
                Some(found) => Some(found as u16),
                None => return fail(format!("unknown worker `{id}`")),
            },
            None if action.needs_worker() => return fail(format!("`{name}` needs a worker")),
            None => None,
        };
        let mut step = Step::new(at, worker, action);
        if let Some(id) = object.get("target").and_then(Value::as_str) {
            match shell.targets.iter().position(|t| t.id == id) {
                Some(found) => step.target = Some(found as u16),
                None => return fail(format!("unknown target `{id}`")),
            }
        } else if action.needs_target() {
            return fail(format!("`{name}` needs a target"));
        }
        if action == Action::Register
            && step
                .target
                .and_then(|t| shell.targets.get(usize::from(t)))
                .is_some_and(|t| t.protect != Protect::RegisteredToken)
        {
            return fail("`register` needs a registered_token target".to_owned());
        }
        if let Some(id) = object.get("job").and_then(Value::as_str) {
            match shell.jobs.iter().position(|j| j == id) {
                Some(found) => step.job = Some(found as u16),
                None => return fail(format!("unknown job `{id}`")),
            }
        }
        for key in ["op", "value"] {
            let Some(field) = object.get(key) else {
                continue;
            };
            let Some(name) = field.as_str().filter(|n| !n.is_empty() && n.len() <= 64) else {
                return fail(format!(
                    "`{key}` must be a non-empty string of at most 64 bytes"
                ));
            };
            if action != Action::Write {
                return fail(format!("only a write carries `{key}`"));
            }
            if key == "op" {
                step.op = names.intern_op(name);
            } else {
                step.value = names.intern_value(name);
            }
        }
        match object.get("note") {
            None => {}
            Some(Value::String(note)) => {
                step.note = Some(Text {
                    en: note.clone(),
                    zh: note.clone(),
                });
            }
            Some(Value::Object(note)) => {
                let side = |code: &str| note.get(code).and_then(Value::as_str).map(str::to_owned);
                match (side("en"), side("zh")) {
                    (Some(en), Some(zh)) if note.len() == 2 => {
                        step.note = Some(Text { en, zh });
                    }
                    _ => return fail("`note` must be a string or { en, zh }".to_owned()),
                }
            }
            Some(_) => return fail("`note` must be a string or { en, zh }".to_owned()),
        }
        steps.push(step);
    }
    Ok(Schedule {
        steps,
        ops: names.ops,
        values: names.values,
    })
}

/// The design a design-exercise answer makes of the start design.
fn chosen_design(start: Design, answer: &DesignAnswer) -> Design {
    Design {
        commit_checks: answer.commit_checks.unwrap_or(start.commit_checks),
        renew_checks: answer.renew_checks.unwrap_or(start.renew_checks),
        token: answer.token.unwrap_or(start.token),
        lease_clock: answer.lease_clock.unwrap_or(start.lease_clock),
        ..start
    }
}

/// Explores `design` (with per-target protections) in the exercise's world.
fn attack(
    design: Design,
    targets: Option<Vec<Protect>>,
    world: &WorldOptions,
) -> Result<crate::explore::Report, String> {
    let mut options = world.clone();
    options.design = design;
    options.design_source = crate::scenario::DesignSource::Table;
    if let Some(targets) = targets {
        options.targets = Some(targets);
    }
    let world = options.world().map_err(|e| e.to_string())?;
    explore_for(&world, Method::Exhaustive, None, &mut RunToEnd).map_err(|e| e.to_string())
}

/// The strongest choice of the open knobs that is safe in `world`, if any:
/// every predicate, monotonic tokens, database time, and the first target
/// protection (gateway, registered, versioned, highest-seen) that holds.
pub fn strongest_safe_design(
    start: Design,
    open: &[Knob],
    world: &WorldOptions,
) -> Option<(Design, Vec<Protect>)> {
    let mut design = start;
    if open.contains(&Knob::CommitChecks) {
        design.commit_checks = CheckSet::ALL;
    }
    if open.contains(&Knob::RenewChecks) {
        design.renew_checks = CheckSet::ALL;
    }
    if open.contains(&Knob::Token) {
        design.token = TokenKind::Monotonic;
    }
    if open.contains(&Knob::LeaseClock) {
        design.lease_clock = LeaseClock::Db;
    }
    let count = world.targets.as_ref().map_or(0, Vec::len);
    let start_targets = world.targets.clone().unwrap_or_default();
    let choices: Vec<Vec<Protect>> = if open.contains(&Knob::TargetProtect) {
        [
            Protect::Gateway,
            Protect::RegisteredToken,
            Protect::Versioned,
            Protect::HighestToken,
        ]
        .into_iter()
        .map(|protect| vec![protect; count])
        .collect()
    } else {
        vec![start_targets]
    };
    choices.into_iter().find_map(|targets| {
        let report = attack(design, Some(targets.clone()), world).ok()?;
        (report.verdict == Verdict::Safe).then_some((design, targets))
    })
}

/// A schedule the explorers find to break the scenario's design (of the
/// wanted kind), as a counterexample; `Err` when its world does not fit.
pub(crate) fn breaking_schedule(
    scenario: &Scenario,
    want: Option<ViolationKind>,
) -> Result<Option<Counterexample>, String> {
    let bounds = Bounds {
        max_time: u8::try_from((scenario.ttl * 4).clamp(12, 48)).unwrap_or(48),
        ..Bounds::default()
    };
    let world = World::from_scenario(scenario, bounds).map_err(|e| e.to_string())?;
    let report =
        explore_for(&world, Method::Exhaustive, want, &mut RunToEnd).map_err(|e| e.to_string())?;
    Ok(report.counterexample)
}

/// The steps of `scenario` a mark exercise lets the learner mark: those
/// whose action is one of `candidates`, in order.
pub fn mark_candidates(scenario: &Scenario, candidates: &[Action]) -> Vec<u32> {
    scenario
        .steps
        .iter()
        .enumerate()
        .filter(|(_, step)| candidates.contains(&step.action))
        .map(|(index, _)| index as u32)
        .collect()
}

/// Grades `answer` to `exercise` of `lesson`, computing the key now.
pub fn grade(lesson: &Lesson, exercise: &Exercise, answer: &Answer) -> Result<Grade, String> {
    match (&exercise.kind, answer) {
        (
            ExerciseKind::Mark {
                scenario,
                candidates,
            },
            Answer::Mark(marked),
        ) => {
            let scenario = lesson.scenario(*scenario).ok_or("missing scenario")?;
            let trace = crate::run(scenario);
            let items: Vec<GradeItem> = mark_candidates(scenario, candidates)
                .into_iter()
                .map(|index| {
                    let must = trace.should_reject.contains(&index);
                    let chose = marked.contains(&index);
                    let verdict = |lang: Lang| {
                        let head = match (must == chose, must, lang == Lang::Zh) {
                            (true, true, false) => "Right: it must be rejected.",
                            (true, false, false) => "Right: it need not be rejected.",
                            (false, true, false) => "Missed: it must be rejected.",
                            (false, false, false) => "Wrong: it need not be rejected.",
                            (true, true, true) => "正确：它必须被拒绝。",
                            (true, false, true) => "正确：它不需要被拒绝。",
                            (false, true, true) => "漏标：它必须被拒绝。",
                            (false, false, true) => "错标：它不需要被拒绝。",
                        };
                        let gap = if lang == Lang::Zh { "" } else { " " };
                        format!(
                            "{head}{gap}{}",
                            safety_reason(scenario, &trace, index as usize, lang)
                        )
                    };
                    GradeItem {
                        index: Some(index),
                        right: must == chose,
                        text: told(verdict),
                    }
                })
                .collect();
            let stray: Vec<u32> = marked
                .iter()
                .copied()
                .filter(|i| {
                    scenario
                        .steps
                        .get(*i as usize)
                        .is_none_or(|step| !candidates.contains(&step.action))
                })
                .collect();
            Ok(finish(items, stray.is_empty(), None, None))
        }
        (ExerciseKind::Predict { scenario, steps }, Answer::Predict(predicted)) => {
            let scenario = lesson.scenario(*scenario).ok_or("missing scenario")?;
            let trace = crate::run(scenario);
            let asked: Vec<u32> = steps
                .clone()
                .unwrap_or_else(|| (0..scenario.steps.len() as u32).collect());
            let items: Vec<GradeItem> = asked
                .into_iter()
                .map(|index| {
                    let actual = trace
                        .steps
                        .get(index as usize)
                        .map_or(Outcome::Noop, |r| r.outcome);
                    let guess = predicted.iter().find(|(i, _)| *i == index).map(|(_, o)| *o);
                    let right = guess == Some(actual);
                    GradeItem {
                        index: Some(index),
                        right,
                        text: told(|lang| {
                            let head = match (right, guess, lang == Lang::Zh) {
                                (true, _, false) => format!("Right: {}.", actual.name()),
                                (true, _, true) => format!("正确：{}。", actual.name()),
                                (false, None, false) => {
                                    format!("No prediction; it was {}.", actual.name())
                                }
                                (false, None, true) => {
                                    format!("没有预测；结果是 {}。", actual.name())
                                }
                                (false, Some(g), false) => {
                                    format!("You said {}; it was {}.", g.name(), actual.name())
                                }
                                (false, Some(g), true) => {
                                    format!("你预测 {}；结果是 {}。", g.name(), actual.name())
                                }
                            };
                            let gap = if lang == Lang::Zh { "" } else { " " };
                            format!(
                                "{head}{gap}{}",
                                describe_step(scenario, &trace, index as usize, lang)
                            )
                        }),
                    }
                })
                .collect();
            Ok(finish(items, true, None, None))
        }
        (ExerciseKind::Design { start, world, .. }, Answer::Design(choice)) => {
            let design = chosen_design(*start, choice);
            let report = attack(design, choice.target_protect.clone(), world)?;
            let safe = report.verdict == Verdict::Safe;
            let summary = match &report.counterexample {
                Some(found) => found.explanation.clone(),
                None => text(
                    crate::explore::safe_sentence(&report, Lang::En),
                    crate::explore::safe_sentence(&report, Lang::Zh),
                ),
            };
            Ok(Grade {
                correct: safe,
                summary,
                items: vec![GradeItem {
                    index: None,
                    right: safe,
                    text: text(
                        if safe {
                            "The explorers could not break it."
                        } else {
                            "The explorers broke it: see the counterexample."
                        }
                        .to_owned(),
                        if safe {
                            "探索器没能攻破它。"
                        } else {
                            "探索器攻破了它：请看反例。"
                        }
                        .to_owned(),
                    ),
                }],
                counterexample: report.counterexample,
                scenario: None,
            })
        }
        (
            ExerciseKind::Break {
                scenario,
                violation,
            },
            Answer::Break(schedule),
        ) => {
            let shell = lesson.scenario(*scenario).ok_or("missing scenario")?;
            let mut attempt = shell.clone();
            attempt.steps.clone_from(&schedule.steps);
            attempt.ops.clone_from(&schedule.ops);
            attempt.values.clone_from(&schedule.values);
            attempt.check()?;
            let trace = crate::run(&attempt);
            let hit = trace
                .violations
                .iter()
                .find(|v| violation.is_none_or(|want| want == v.kind));
            let items = match hit {
                Some(found) => vec![GradeItem {
                    index: Some(found.step),
                    right: true,
                    text: told(|lang| describe_step(&attempt, &trace, found.step as usize, lang)),
                }],
                None => vec![GradeItem {
                    index: None,
                    right: false,
                    text: text(
                        match violation {
                            Some(kind) => format!("No {} violation: every effect in this schedule was safe. Which worker should wake up late, and after whose claim?", kind.name()),
                            None => "No violation: every effect in this schedule was safe. Which worker should wake up late, and after whose claim?".to_owned(),
                        },
                        "没有违例：这个调度中的每个效果都是安全的。哪个 Worker 应该晚一点醒来？在谁领取之后？".to_owned(),
                    ),
                }],
            };
            let correct = hit.is_some();
            let mut grade = finish(items, true, None, Some(attempt));
            grade.correct = correct;
            Ok(grade)
        }
        (ExerciseKind::Quiz { options, .. }, Answer::Quiz(chosen)) => {
            let items: Vec<GradeItem> = options
                .iter()
                .enumerate()
                .map(|(index, option)| {
                    let picked = chosen.contains(&index);
                    GradeItem {
                        index: Some(index as u32),
                        right: picked == option.correct,
                        text: option.why.clone(),
                    }
                })
                .collect();
            Ok(finish(items, true, None, None))
        }
        _ => Err(format!(
            "this answer does not fit a `{}` exercise",
            exercise.kind.name()
        )),
    }
}

/// A grade whose items must all be right (and `extra` hold).
fn finish(
    items: Vec<GradeItem>,
    extra: bool,
    counterexample: Option<Counterexample>,
    scenario: Option<Scenario>,
) -> Grade {
    let right = items.iter().filter(|i| i.right).count();
    let total = items.len();
    let correct = extra && right == total;
    Grade {
        correct,
        summary: text(
            format!(
                "{right} of {total} right{}",
                if correct { " — well done." } else { "." }
            ),
            format!(
                "{total} 项中答对 {right} 项{}",
                if correct { "——做得好。" } else { "。" }
            ),
        ),
        items,
        counterexample,
        scenario,
    }
}

/// The worked solution, computed now: the key with its reasons.
pub fn solution(lesson: &Lesson, exercise: &Exercise) -> Result<Grade, String> {
    match &exercise.kind {
        ExerciseKind::Mark {
            scenario,
            candidates,
        } => {
            let scenario = lesson.scenario(*scenario).ok_or("missing scenario")?;
            let trace = crate::run(scenario);
            let key: Vec<u32> = mark_candidates(scenario, candidates)
                .into_iter()
                .filter(|i| trace.should_reject.contains(i))
                .collect();
            grade(lesson, exercise, &Answer::Mark(key))
        }
        ExerciseKind::Predict { scenario, steps } => {
            let scenario = lesson.scenario(*scenario).ok_or("missing scenario")?;
            let trace = crate::run(scenario);
            let asked = steps
                .clone()
                .unwrap_or_else(|| (0..scenario.steps.len() as u32).collect());
            let key = asked
                .into_iter()
                .filter_map(|i| trace.steps.get(i as usize).map(|r| (i, r.outcome)))
                .collect();
            grade(lesson, exercise, &Answer::Predict(key))
        }
        ExerciseKind::Design {
            start, open, world, ..
        } => {
            let (design, targets) = strongest_safe_design(*start, open, world)
                .ok_or("no safe choice exists among the open knobs")?;
            let answer = DesignAnswer {
                commit_checks: open
                    .contains(&Knob::CommitChecks)
                    .then_some(design.commit_checks),
                renew_checks: open
                    .contains(&Knob::RenewChecks)
                    .then_some(design.renew_checks),
                token: open.contains(&Knob::Token).then_some(design.token),
                lease_clock: open
                    .contains(&Knob::LeaseClock)
                    .then_some(design.lease_clock),
                target_protect: open.contains(&Knob::TargetProtect).then_some(targets),
            };
            grade(lesson, exercise, &Answer::Design(answer))
        }
        ExerciseKind::Break {
            scenario,
            violation,
        } => {
            let shell = lesson.scenario(*scenario).ok_or("missing scenario")?;
            let found = breaking_schedule(shell, *violation)?
                .ok_or("the explorers find no schedule that breaks this design")?;
            let schedule = Schedule {
                steps: found.scenario.steps,
                ops: found.scenario.ops,
                values: found.scenario.values,
            };
            grade(lesson, exercise, &Answer::Break(schedule))
        }
        ExerciseKind::Quiz { options, .. } => {
            let key = options
                .iter()
                .enumerate()
                .filter(|(_, o)| o.correct)
                .map(|(i, _)| i)
                .collect();
            grade(lesson, exercise, &Answer::Quiz(key))
        }
    }
}
