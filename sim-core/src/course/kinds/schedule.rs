//! The `break` exercise: the learner writes a schedule that makes a weak design violate; the engine runs it.

use super::prelude::*;

/// A schedule the explorers find to break the scenario's design (of the
/// wanted kind), as a counterexample; `Err` when its world does not fit.
pub(crate) fn breaking_schedule(
    scenario: &Scenario,
    want: Option<ViolationKind>,
) -> Result<Option<Counterexample>, CourseError> {
    let bounds = Bounds {
        max_time: u8::try_from((scenario.ttl * 4).clamp(12, 48)).unwrap_or(48),
        ..Bounds::default()
    };
    let world = World::from_scenario(scenario, bounds).map_err(CourseError::World)?;
    let report = super::design::search_exhaustive(&world, want)?;
    Ok(report.counterexample)
}

/// Break: right when the learner's schedule shows a violation (of the
/// wanted kind).
pub(crate) fn grade_break(
    lesson: &Lesson,
    scenario: usize,
    violation: Option<ViolationKind>,
    schedule: &Schedule,
) -> Result<Grade, CourseError> {
    let shell = lesson
        .scenario(scenario)
        .ok_or(CourseError::MissingScenario)?;
    let attempt = schedule_scenario(shell, schedule)?;
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
                    Some(kind) => format!(
                        "No violation of the kind asked for ({}): every effect in this schedule was safe.",
                        crate::violation_words(kind, Lang::En)
                    ),
                    None => "No violation: every effect in this schedule was safe.".to_owned(),
                },
                match violation {
                    Some(kind) => format!(
                        "没有所要求的违例（{}）：这个调度中的每个效果都是安全的。",
                        crate::violation_words(kind, Lang::Zh)
                    ),
                    None => "没有违例：这个调度中的每个效果都是安全的。".to_owned(),
                },
            ),
        }],
    };
    let correct = hit.is_some();
    let mut grade = finish(items, true, None, Some(attempt));
    grade.correct = correct;
    Ok(grade)
}

/// A break exercise's world `shell` running the learner's `schedule`,
/// checked: what the preview draws and the grader runs.
pub fn schedule_scenario(shell: &Scenario, schedule: &Schedule) -> Result<Scenario, CourseError> {
    let mut attempt = shell.clone();
    attempt.steps.clone_from(&schedule.steps);
    attempt.ops.clone_from(&schedule.ops);
    attempt.values.clone_from(&schedule.values);
    attempt.requests.clone_from(&schedule.requests);
    attempt.check().map_err(CourseError::Schedule)?;
    Ok(attempt)
}

/// A learner's schedule from JSON steps, checked against the world of
/// `shell`.
pub(crate) fn schedule(shell: &Scenario, value: &Value) -> Result<Schedule, AnswerError> {
    let entries = Vec::<Value>::deserialize(value).map_err(|_| AnswerError::BreakShape)?;
    if entries.len() > MAX_ANSWER_STEPS {
        return Err(AnswerError::TooManySteps);
    }
    // Interned into a scratch copy of the world, so indices match the tables.
    let mut names = Scenario {
        ops: Vec::new(),
        values: Vec::new(),
        requests: Vec::new(),
        ..shell.clone()
    };
    let mut steps: Vec<Step> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let previous = steps.last().map_or(0, |step| step.at);
        let step = object::<StepJson>(entry)
            .ok_or(StepProblem::NotObject)
            .and_then(|read| {
                read.map_err(|error| match unknown_field(&error) {
                    Some(key) => StepProblem::UnknownKey(key),
                    None => StepProblem::NotObject,
                })
            })
            .and_then(|shape| step(shell, &mut names, &shape, previous))
            .map_err(|problem| AnswerError::Step { index, problem })?;
        steps.push(step);
    }
    Ok(Schedule {
        steps,
        ops: names.ops,
        values: names.values,
        requests: names.requests,
    })
}

/// The index of `id` among `ids` (`key` names the field for the errors);
/// `None` when absent.
pub(crate) fn resolve<'a>(
    field: &Field<String>,
    key: &'static str,
    ids: impl IntoIterator<Item = &'a str>,
    unknown: fn(String) -> StepProblem,
) -> Result<Option<u16>, StepProblem> {
    let Some(id) = field.present() else {
        return Ok(None);
    };
    let id = id.map_err(|()| StepProblem::NotString(key))?;
    let found = ids.into_iter().position(|known| known == id);
    found
        .map(|at| Some(at as u16))
        .ok_or_else(|| unknown(id.clone()))
}

/// One step of a break answer, at or after tick `previous`; its operation
/// ids and values are interned into `names`.
pub(crate) fn step(
    shell: &Scenario,
    names: &mut Scenario,
    shape: &StepJson,
    previous: u64,
) -> Result<Step, StepProblem> {
    let at = match shape.at {
        Field::Is(at) if at <= MAX_TIME as u64 => at,
        _ => return Err(StepProblem::BadTick),
    };
    if at < previous {
        return Err(StepProblem::Backwards { at, previous });
    }
    let name = match &shape.action {
        Field::Is(name) => name.as_str(),
        Field::Absent => "",
        Field::Not => return Err(StepProblem::NotString("do")),
    };
    let action =
        Action::from_name(name).ok_or_else(|| StepProblem::UnknownAction(name.to_owned()))?;
    let workers = shell.workers.iter().map(|w| w.id.as_str());
    let worker = resolve(&shape.worker, "worker", workers, StepProblem::UnknownWorker)?;
    if worker.is_none() && action.needs_worker() {
        return Err(StepProblem::NeedsWorker(name.to_owned()));
    }
    let mut step = Step::new(at, worker, action);
    let targets = shell.targets.iter().map(|t| t.id.as_str());
    step.target = resolve(&shape.target, "target", targets, StepProblem::UnknownTarget)?;
    if step.target.is_none() && action.needs_target() {
        return Err(StepProblem::NeedsTarget(name.to_owned()));
    }
    if action == Action::Register
        && step
            .target
            .and_then(|t| shell.targets.get(usize::from(t)))
            .is_some_and(|t| t.protect != Protect::RegisteredToken)
    {
        return Err(StepProblem::RegisterTarget);
    }
    let jobs = shell.jobs.iter().map(String::as_str);
    step.job = resolve(&shape.job, "job", jobs, StepProblem::UnknownJob)?;
    for (key, field) in [("op", &shape.op), ("value", &shape.value)] {
        let Some(name) = field.present() else {
            continue;
        };
        let Some(name) = name.ok().filter(|n| !n.is_empty() && n.len() <= 64) else {
            return Err(StepProblem::BadName(key));
        };
        if action != Action::Write {
            return Err(StepProblem::OnlyWrite(key));
        }
        if key == "op" {
            step.op = names.intern_op(name);
        } else {
            step.value = names.intern_value(name);
        }
    }
    // Which write sends a request and whether it comes before its delivery
    // is the run's to say (`schedule_scenario`): an editor may leave a
    // delivery without its write for a while, and that is kept.
    match shape.request.present() {
        None if action == Action::Deliver => return Err(StepProblem::NeedsRequest),
        None => {}
        Some(name) => {
            let Some(name) = name.ok().filter(|n| !n.is_empty() && n.len() <= 64) else {
                return Err(StepProblem::BadName("request"));
            };
            if !matches!(action, Action::Write | Action::Deliver) {
                return Err(StepProblem::OnlyWriteOrDeliver);
            }
            step.request = Some(names.intern_request(name));
        }
    }
    step.note = match &shape.note {
        Field::Absent => None,
        Field::Is(NoteJson::Both(note)) => Some(Text {
            en: note.clone(),
            zh: note.clone(),
        }),
        Field::Is(NoteJson::Each(NoteText { en, zh })) => Some(Text {
            en: en.clone(),
            zh: zh.clone(),
        }),
        Field::Not => return Err(StepProblem::BadNote),
    };
    Ok(step)
}

/// A scenario's steps as the steps of a break answer (what a break
/// exercise's schedule starts from).
pub fn scenario_steps(scenario: &Scenario) -> Vec<StepJson> {
    steps_json(scenario, &Schedule::of_scenario(scenario))
}

/// `schedule`'s steps with the keys of a scenario's steps, naming `shell`'s
/// workers, targets and jobs and the schedule's operation ids, values and
/// request ids.
pub(crate) fn steps_json(shell: &Scenario, schedule: &Schedule) -> Vec<StepJson> {
    let Schedule {
        steps,
        ops,
        values,
        requests,
    } = schedule;
    let id = |id: &str| Field::Is(id.to_owned());
    let named = |names: &[String], index: u32| {
        names
            .get(index as usize)
            .map_or(Field::Absent, |name| id(name))
    };
    steps
        .iter()
        .map(|step| {
            let write = step.action == Action::Write;
            StepJson {
                at: Field::Is(step.at),
                worker: step
                    .worker
                    .map_or(Field::Absent, |w| id(shell.worker_id(w))),
                action: id(step.action.name()),
                target: step
                    .target
                    .map_or(Field::Absent, |t| id(shell.target_id(t))),
                job: step.job.map_or(Field::Absent, |j| id(shell.job_id(j))),
                op: match step.op {
                    OpRef::Named(index) if write => named(ops, index),
                    _ => Field::Absent,
                },
                value: match step.value {
                    ValueRef::Named(index) if write => named(values, index),
                    _ => Field::Absent,
                },
                request: match step.request {
                    Some(index) if write || step.action == Action::Deliver => {
                        named(requests, index)
                    }
                    _ => Field::Absent,
                },
                note: step.note.as_ref().map_or(Field::Absent, |note| {
                    Field::Is(NoteJson::Each(NoteText {
                        en: note.en.clone(),
                        zh: note.zh.clone(),
                    }))
                }),
            }
        })
        .collect()
}

/// A break exercise is solvable: the explorers find a breaking schedule.
pub(crate) fn break_problem(
    lesson: &Lesson,
    scenario: usize,
    violation: Option<ViolationKind>,
) -> Option<LintKind> {
    let Some(scenario) = lesson.scenario(scenario) else {
        return Some(LintKind::MissingScenario);
    };
    match breaking_schedule(scenario, violation) {
        Ok(Some(_)) => None,
        Ok(None) => Some(LintKind::Unbreakable),
        Err(why) => Some(LintKind::World(why)),
    }
}
