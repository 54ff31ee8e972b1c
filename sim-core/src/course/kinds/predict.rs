//! The predict exercise: the learner predicts the outcome of asked steps; the key is the engine's run.

use super::prelude::*;

/// Predict: every asked step, right when the predicted outcome is the run's.
pub(crate) fn grade_predict(
    lesson: &Lesson,
    scenario: usize,
    steps: Option<&[u32]>,
    predicted: &[(u32, Outcome)],
) -> Result<Grade, CourseError> {
    let scenario = lesson
        .scenario(scenario)
        .ok_or(CourseError::MissingScenario)?;
    let trace = crate::run(scenario);
    let items: Vec<GradeItem> = asked_steps(scenario, steps)
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
                    let said = |outcome: Outcome| crate::outcome_label(outcome, lang);
                    let head = match (right, guess) {
                        (true, _) => lang.pick(
                            format!("Right: {}.", said(actual)),
                            format!("正确：结果是“{}”。", said(actual)),
                        ),
                        (false, None) => lang.pick(
                            format!("No prediction; it was {}.", said(actual)),
                            format!("没有预测；实际结果是“{}”。", said(actual)),
                        ),
                        (false, Some(g)) => lang.pick(
                            format!("You said {}; it was {}.", said(g), said(actual)),
                            format!("你预测的是“{}”，实际结果是“{}”。", said(g), said(actual)),
                        ),
                    };
                    let gap = lang.pick(" ", "");
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

/// The steps a predict exercise asks about: its list (those in the
/// scenario), or every step.
pub fn asked_steps(scenario: &Scenario, steps: Option<&[u32]>) -> Vec<u32> {
    let count = u32::try_from(scenario.steps.len()).unwrap_or(u32::MAX);
    match steps {
        Some(steps) => steps.iter().copied().filter(|s| *s < count).collect(),
        None => (0..count).collect(),
    }
}

/// A predict answer: an outcome per asked step, in step order.
pub(crate) fn predictions(
    value: &Value,
    asked: impl Fn(u32) -> bool,
) -> Result<Vec<(u32, Outcome)>, AnswerError> {
    let map =
        BTreeMap::<String, String>::deserialize(value).map_err(|_| AnswerError::PredictShape)?;
    let mut predicted = Vec::new();
    for (key, name) in map {
        let index: u32 = key.parse().map_err(|_| AnswerError::NotStepIndex(key))?;
        if !asked(index) {
            return Err(AnswerError::NotAsked(index));
        }
        let outcome = Outcome::from_name(&name).ok_or(AnswerError::NotOutcome(name))?;
        predicted.push((index, outcome));
    }
    predicted.sort_by_key(|(index, _)| *index);
    Ok(predicted)
}

/// Reading this kind from a lesson file.
impl Reader<'_> {
    pub(crate) fn step_indices(
        &mut self,
        value: &crate::parse::Value<'_>,
        count: usize,
    ) -> Option<Vec<u32>> {
        let entries = self.array(value, &name("`steps`"))?;
        let mut steps = Vec::new();
        for entry in entries {
            let max = i64::try_from(count).unwrap_or(0) - 1;
            let index = self.integer(entry, &words("a step index", "步骤序号"), 0, max.max(0))?;
            if count == 0 {
                self.error(
                    entry.span(),
                    words("the scenario has no steps", "场景里没有步骤"),
                );
            }
            steps.push(u32::try_from(index).unwrap_or(0));
        }
        if steps.is_empty() {
            self.error(
                value.span(),
                words(
                    "`steps` needs at least one step index",
                    "`steps` 至少需要一个步骤序号",
                ),
            );
        }
        Some(steps)
    }
}

/// The outcomes a prediction may name, each with its key letter, in the
/// order the choices list them.
const PREDICTABLE: [(Outcome, char); 5] = [
    (Outcome::Ok, 'o'),
    (Outcome::Rejected, 'r'),
    (Outcome::Duplicate, 'd'),
    (Outcome::Noop, 'n'),
    (Outcome::Waiting, 'w'),
];

/// The asked steps as the screen shows them: the learner's guess in words
/// and by its key letter, and what the feedback may say of it.
pub(crate) fn predict_items(
    asked: &[u32],
    answer: Option<&Answer>,
    named: &Named<'_>,
) -> Vec<Item> {
    let predicted: &[(u32, Outcome)] = match answer {
        Some(Answer::Predict(predicted)) => predicted,
        _ => &[],
    };
    let lang = named.lang;
    asked
        .iter()
        .map(|&index| {
            let guess = predicted
                .iter()
                .find(|(at, _)| *at == index)
                .map(|(_, o)| *o);
            let words = guess.map(|o| {
                let said = crate::narrate::outcome_label(o, lang);
                lang.pick(
                    format!("Your prediction: {said}"),
                    format!("你的预测：{said}"),
                )
            });
            let letter = guess
                .and_then(|o| PREDICTABLE.iter().find(|(at, _)| *at == o))
                .map_or('?', |(_, key)| *key);
            named.step(index, words, letter.to_string(), guess.map(Outcome::name))
        })
        .collect()
}

/// How a predict exercise's steps are chosen: each set to an outcome, on
/// its timeline.
pub(crate) fn predict_choosing(lang: Lang) -> Choosing {
    Choosing {
        on_timeline: true,
        pick: Pick::Each,
        prompt: lang
            .pick("Predict each step’s outcome:", "预测每一步的结果：")
            .to_owned(),
        choices: PREDICTABLE
            .iter()
            .map(|&(outcome, key)| ItemChoice {
                value: outcome.name(),
                key,
                label: crate::narrate::outcome_label(outcome, lang).to_owned(),
            })
            .collect(),
        row_label: lang.pick("guess", "预测").to_owned(),
        blank: "?".to_owned(),
        unchosen: lang.pick("not predicted yet", "尚未预测").to_owned(),
        not_an_item: lang
            .pick("Not a step to predict", "这一步不需要预测")
            .to_owned(),
        why_tells_step: true,
        timeline_help: Some(
            lang.pick(
                "Click a step or use ← → (Home, End) when the timeline has focus; Space or Enter takes you to the step's prediction.",
                "点击某一步，或在时间线获得焦点时使用 ← →（Home、End）；按空格或 Enter 跳到这一步的预测。",
            )
            .to_owned(),
        ),
    }
}
