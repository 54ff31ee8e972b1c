//! The mark exercise: the learner marks the steps a safe system must refuse; the key is the oracle's, three-valued.

use super::prelude::*;

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

/// What a mark exercise's key says of one candidate step, computed from
/// the run: the oracle's verdict, and whether the worker's own lease had
/// run out while nobody had replaced it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkKey {
    /// Stale or after a terminal state (`Trace::should_reject`): a safe
    /// system must refuse it.
    MustRefuse,
    /// The worker holds the newest generation of an open job and its lease
    /// still runs: refusing it would be a mistake.
    MustAllow,
    /// The worker's own lease had run out, but no newer generation existed
    /// and the job was open: refusing it is conservative, letting it
    /// through breaks no safety. Or the step is superseded (or after the
    /// job ended) but changes no protected state (`Trace::may_reject`: a
    /// draft beside the official value, a request only sent). Marked or
    /// not, the answer is right.
    Either,
}

impl MarkKey {
    /// Whether marking (`true`) or leaving (`false`) the step is right.
    pub fn accepts(self, marked: bool) -> bool {
        match self {
            MarkKey::MustRefuse => marked,
            MarkKey::MustAllow => !marked,
            MarkKey::Either => true,
        }
    }
}

/// The key of step `index` of `scenario`'s run `trace`.
pub fn mark_key(scenario: &Scenario, trace: &crate::trace::Trace, index: u32) -> MarkKey {
    if trace.should_reject.contains(&index) {
        return MarkKey::MustRefuse;
    }
    if trace.may_reject.contains(&index) {
        return MarkKey::Either;
    }
    let Some(record) = trace.steps.get(index as usize) else {
        return MarkKey::MustAllow;
    };
    if record.expired != Some(true) {
        return MarkKey::MustAllow;
    }
    // The oracle judges only steps that can be effects, so "replaced" and
    // "open" are read from the run itself: a newer claim granted on the job
    // before this step (a claim that waited for a lock is granted at the
    // step that released it), or the job ended.
    let generation = record.generation.unwrap_or(0);
    let earlier = trace
        .steps
        .iter()
        .zip(&scenario.steps)
        .take(index as usize)
        .filter(|(done, _)| done.job.is_some() && done.job == record.job);
    let mut replaced = false;
    let mut open = true;
    for (done, step) in earlier {
        let granted_before = done.released_by.is_none_or(|released| released < index);
        if matches!(
            step.action,
            Action::Claim | Action::ClaimNext | Action::UpdateClaim
        ) && done.outcome == Outcome::Ok
            && granted_before
            && done.generation.unwrap_or(0) > generation
        {
            replaced = true;
        }
        if let Some(row) = &done.row {
            open = row.state.is_open();
        }
    }
    if replaced || !open {
        MarkKey::MustAllow
    } else {
        MarkKey::Either
    }
}

/// Every candidate step of a mark exercise with its key, in order.
pub fn mark_keys(scenario: &Scenario, candidates: &[Action]) -> Vec<(u32, MarkKey)> {
    let trace = crate::run(scenario);
    mark_candidates(scenario, candidates)
        .into_iter()
        .map(|index| (index, mark_key(scenario, &trace, index)))
        .collect()
}

/// Mark: every candidate step, right when the mark (or its absence) is
/// one the step's [`MarkKey`] accepts; a mark on a step that is not a
/// candidate is a wrong item of its own.
pub(crate) fn grade_mark(
    lesson: &Lesson,
    scenario: usize,
    candidates: &[Action],
    marked: &[u32],
) -> Result<Grade, CourseError> {
    let scenario = lesson
        .scenario(scenario)
        .ok_or(CourseError::MissingScenario)?;
    let trace = crate::run(scenario);
    let mut items: Vec<GradeItem> = mark_candidates(scenario, candidates)
        .into_iter()
        .map(|index| {
            let key = mark_key(scenario, &trace, index);
            let chose = marked.contains(&index);
            let right = key.accepts(chose);
            let verdict = |lang: Lang| {
                // A step that must be refused: the reason below says so and
                // what the step did, and the item's verdict says right or
                // wrong, so no head says it a second time.
                let head = match (key, chose) {
                    (MarkKey::MustRefuse, _) => "",
                    (MarkKey::MustAllow, true) => {
                        lang.pick("Wrong: it must be allowed.", "错标：它必须被放行。")
                    }
                    (MarkKey::MustAllow, false) => {
                        lang.pick("Right: it must be allowed.", "正确：它必须被放行。")
                    }
                    (MarkKey::Either, true) => lang.pick(
                        "Right: you refused it, which is allowed here.",
                        "正确：你拒绝了它，这里可以拒绝。",
                    ),
                    (MarkKey::Either, false) => lang.pick(
                        "Right: you let it through, which is safe here.",
                        "正确：你放行了它，这里放行是安全的。",
                    ),
                };
                let gap = if head.is_empty() {
                    ""
                } else {
                    lang.pick(" ", "")
                };
                format!(
                    "{head}{gap}{}",
                    safety_reason(scenario, &trace, index as usize, lang)
                )
            };
            GradeItem {
                index: Some(index),
                right,
                text: told(verdict),
            }
        })
        .collect();
    items.extend(
        marked
            .iter()
            .copied()
            .filter(|i| {
                scenario
                    .steps
                    .get(*i as usize)
                    .is_none_or(|step| !candidates.contains(&step.action))
            })
            .map(|index| GradeItem {
                index: Some(index),
                right: false,
                text: text(
                    "Not a step to judge in this exercise: leave it unmarked.".to_owned(),
                    "这一步不在本练习的判断范围内：不要标记它。".to_owned(),
                ),
            }),
    );
    Ok(finish(items, true, None, None))
}

/// A mark exercise needs at least one step of each of the two sure kinds:
/// an `Either` step alone tells nothing apart.
pub(crate) fn mark_problems(
    lesson: &Lesson,
    scenario: usize,
    candidates: &[Action],
) -> Vec<LintKind> {
    let Some(scenario) = lesson.scenario(scenario) else {
        return vec![LintKind::MissingScenario];
    };
    let keys = mark_keys(scenario, candidates);
    let has = |kind: MarkKey| keys.iter().any(|(_, key)| *key == kind);
    let mut found = Vec::new();
    if !has(MarkKey::MustRefuse) {
        found.push(LintKind::NothingToFind);
    }
    if !has(MarkKey::MustAllow) {
        found.push(LintKind::NothingToTellApart);
    }
    found
}

/// Reading this kind from a lesson file.
impl Reader<'_> {
    pub(crate) fn candidates(&mut self, value: &crate::parse::Value<'_>) -> Option<Vec<Action>> {
        let entries = self.array(value, &name("`candidates`"))?;
        let mut actions = Vec::new();
        for entry in entries {
            let action =
                self.choice(entry, &words("action", "动作"), &Action::ALL, Action::name)?;
            if !action.can_have_effect() {
                self.error(
                    entry.span(),
                    words(
                        format!(
                            "`{}` never has an effect to reject; candidates are write, finish, fail and renew",
                            action.name()
                        ),
                        format!(
                            "`{}` 从不产生可拒绝的效果；候选动作是 write、finish、fail 和 renew",
                            action.name()
                        ),
                    ),
                );
            }
            actions.push(action);
        }
        if actions.is_empty() {
            self.error(
                value.span(),
                words(
                    "`candidates` needs at least one action",
                    "`candidates` 至少需要一个动作",
                ),
            );
        }
        Some(actions)
    }
}

/// The candidate steps as the screen shows them: marked or not, what the
/// feedback may say of each, and each one's key while the worked solution
/// is shown.
pub(crate) fn mark_items(
    scenario: Option<&Scenario>,
    candidates: &[Action],
    answer: Option<&Answer>,
    named: &Named<'_>,
) -> Vec<Item> {
    let marked: &[u32] = match answer {
        Some(Answer::Mark(marked)) => marked,
        _ => &[],
    };
    let Some(scenario) = scenario else {
        return Vec::new();
    };
    let trace = named.solution.then(|| crate::run(scenario));
    let mark = named
        .lang
        .pick("● marked as must be refused", "● 已标记为必须拒绝");
    mark_candidates(scenario, candidates)
        .into_iter()
        .map(|index| {
            let chosen = marked.contains(&index);
            let sign = if chosen { "●" } else { "○" };
            let mut item = named.step(
                index,
                chosen.then(|| mark.to_owned()),
                sign.to_owned(),
                None,
            );
            item.key = trace.as_ref().map(|trace| {
                let (sign, tone) = match mark_key(scenario, trace, index) {
                    MarkKey::MustRefuse => ('●', KeyTone::Must),
                    MarkKey::Either => ('◐', KeyTone::Either),
                    MarkKey::MustAllow => ('·', KeyTone::Leave),
                };
                ItemKey { sign, tone }
            });
            item
        })
        .collect()
}

/// How a mark exercise's steps are chosen: any number, on its timeline.
pub(crate) fn mark_choosing(lang: Lang) -> Choosing {
    Choosing {
        on_timeline: true,
        pick: Pick::Any,
        prompt: lang
            .pick(
                "Mark every step that must be rejected (click it on the timeline or tick it here):",
                "标出每一个必须被拒绝的步骤（在时间线上点击，或在这里勾选）：",
            )
            .to_owned(),
        choices: vec![ItemChoice {
            value: "marked",
            key: 'm',
            label: lang
                .pick("marks it as must be refused", "标记为必须拒绝")
                .to_owned(),
        }],
        row_label: lang.pick("mark", "标记").to_owned(),
        blank: "○".to_owned(),
        unchosen: lang.pick("not marked", "未标记").to_owned(),
        not_an_item: lang
            .pick("Not a step to judge here", "这一步不需要判断")
            .to_owned(),
        why_tells_step: false,
        timeline_help: Some(
            lang.pick(
                "Click a step or use ← → (Home, End) when the timeline has focus; Space or Enter marks the step, or takes the mark off.",
                "点击某一步，或在时间线获得焦点时使用 ← →（Home、End）；按空格或 Enter 标记这一步，或取消标记。",
            )
            .to_owned(),
        ),
    }
}
