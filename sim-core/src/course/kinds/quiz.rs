//! The quiz: one or several options; a wrong try counts only the learner's choices.

use super::prelude::*;

/// Quiz: every option, right when chosen exactly if it is correct; each
/// says why.
pub(crate) fn grade_quiz(options: &[QuizOption], chosen: &[usize]) -> Grade {
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
    finish(items, true, None, None)
}

/// A quiz's hints must not say how many options are correct.
pub(crate) fn quiz_problems(exercise: &Exercise) -> Vec<LintKind> {
    let mut found = Vec::new();
    for (hint, text) in exercise.hints.iter().enumerate() {
        if counts_answers_en(&text.en) {
            found.push(LintKind::HintCountsAnswers {
                hint,
                lang: Lang::En,
            });
        }
        if counts_answers_zh(&text.zh) {
            found.push(LintKind::HintCountsAnswers {
                hint,
                lang: Lang::Zh,
            });
        }
    }
    found
}

/// The correct option is longer than every other one, in `lang`.
pub(crate) fn correct_is_longest(options: &[QuizOption], lang: Lang) -> bool {
    let length = |option: &QuizOption| option.text.get(lang).chars().count();
    let right = options.iter().filter(|o| o.correct).map(length).max();
    let wrong = options.iter().filter(|o| !o.correct).map(length).max();
    match (right, wrong) {
        (Some(right), Some(wrong)) => right > wrong,
        _ => false,
    }
}

/// A wrong quiz try counts only what the learner did: the chosen options
/// that are wrong and, for a multiple choice, how many right options are
/// missing — never which. From the second wrong try on it names the first
/// wrong chosen option by its number on screen; it never says anything
/// about an option the learner did not choose.
pub(crate) fn quiz_feedback(
    grade: &Grade,
    options: &[QuizOption],
    multiple: bool,
    attempts: u32,
    order: &[usize],
) -> Feedback {
    // A quiz grade has an item per option: right when it was chosen
    // exactly if it is correct.
    let wrong = |index: usize| {
        grade
            .items
            .iter()
            .any(|item| item.index == u32::try_from(index).ok() && !item.right)
    };
    let correct = |index: usize| options.get(index).is_some_and(|o| o.correct);
    let chosen_wrong: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| wrong(i) && !correct(i))
        .collect();
    let chosen = order.iter().filter(|&&i| wrong(i) != correct(i)).count();
    let missing = order.iter().filter(|&&i| wrong(i) && correct(i)).count();
    let first = chosen_wrong.first().copied().filter(|_| attempts > 1);
    let number = first.and_then(|index| order.iter().position(|&at| at == index).map(|p| p + 1));
    let tally = Tally {
        multiple,
        chosen,
        chosen_wrong: chosen_wrong.len(),
        missing,
        number,
        first_try: attempts <= 1,
    };
    let items = first
        .and_then(|index| u32::try_from(index).ok())
        .map(|index| GradeItem {
            index: Some(index),
            right: false,
            text: Noun::Option.not_yet(),
        })
        .into_iter()
        .collect();
    hidden(both(|lang| tally.said(lang)), items)
}

/// What a wrong quiz try may say, counted.
struct Tally {
    multiple: bool,
    chosen: usize,
    chosen_wrong: usize,
    missing: usize,
    /// The first wrong chosen option's number on screen (second try on).
    number: Option<usize>,
    first_try: bool,
}

impl Tally {
    fn said(&self, lang: Lang) -> String {
        let (chosen, wrong, missing) = (self.chosen, self.chosen_wrong, self.missing);
        let mut said = match (self.multiple, lang, wrong) {
            (false, _, _) => lang
                .pick("The option you chose is not right.", "你选的选项不对。")
                .to_owned(),
            (true, Lang::En, 0) => "None of the options you chose is wrong".to_owned(),
            (true, Lang::En, 1) => format!("1 of the {chosen} options you chose is wrong"),
            (true, Lang::En, n) => format!("{n} of the {chosen} options you chose are wrong"),
            (true, Lang::Zh, 0) => "你选的选项没有错的".to_owned(),
            (true, Lang::Zh, n) => format!("你选的 {chosen} 个选项中有 {n} 个不对"),
        };
        if self.multiple {
            said.push_str(&match (missing, lang) {
                (0, _) => lang.pick(".", "。").to_owned(),
                (1, Lang::En) => "; 1 right option is missing.".to_owned(),
                (n, Lang::En) => format!("; {n} right options are missing."),
                (n, Lang::Zh) => format!("；还少选了 {n} 个正确的选项。"),
            });
        }
        if let Some(number) = self.number {
            said.push_str(&match lang {
                Lang::En => format!(" The first wrong one you chose: option {number}."),
                Lang::Zh => format!("你选错的第一个：选项 {number}。"),
            });
        } else if self.first_try {
            said.push_str(lang.pick(
                " Think again; from your next try on, the first wrong choice is pointed out.",
                "再想想；从下一次作答起，会指出你选错的第一个。",
            ));
        }
        said
    }
}

/// Reading this kind from a lesson file.
impl Reader<'_> {
    pub(crate) fn quiz(&mut self, fields: &crate::parse::Fields<'_, '_>) -> Option<ExerciseKind> {
        let multiple = fields
            .get(13)
            .and_then(|v| self.bool(v, &name("`multiple`")))
            .unwrap_or(false);
        let value = self.required(
            fields,
            14,
            "options",
            &words("this `quiz` exercise", "这道 `quiz` 练习"),
        )?;
        let entries = self.array(value, &name("`options`"))?;
        let mut options = Vec::new();
        for entry in entries {
            let Some(table) = self.table(entry, &words("a quiz option", "测验选项")) else {
                continue;
            };
            let option_fields = self.fields(
                table,
                entry.span(),
                &["text", "correct", "why"],
                &words("a quiz option", "测验选项"),
            );
            let text = self
                .required(&option_fields, 0, "text", &words("this option", "这个选项"))
                .and_then(|v| self.bilingual(v, &words("the option's `text`", "选项的 `text`")));
            let correct = self
                .required(
                    &option_fields,
                    1,
                    "correct",
                    &words("this option", "这个选项"),
                )
                .and_then(|v| self.bool(v, &name("`correct`")));
            let why = self
                .required(&option_fields, 2, "why", &words("this option", "这个选项"))
                .and_then(|v| self.bilingual(v, &words("the option's `why`", "选项的 `why`")));
            if let (Some(text), Some(correct), Some(why)) = (text, correct, why) {
                options.push(QuizOption { text, correct, why });
            }
        }
        let correct = options.iter().filter(|o| o.correct).count();
        if options.len() < 2 {
            self.error(
                value.span(),
                words("a quiz needs at least two options", "测验至少需要两个选项"),
            );
        } else if correct == 0 {
            self.error(
                value.span(),
                words(
                    "a quiz needs at least one correct option",
                    "测验至少需要一个正确选项",
                ),
            );
        } else if !multiple && correct > 1 {
            self.error(
                value.span(),
                words("a single-choice quiz needs exactly one correct option (or set `multiple = true`)", "单选测验必须恰好有一个正确选项（或设置 `multiple = true`）"),
            );
        }
        Some(ExerciseKind::Quiz { multiple, options })
    }
}

/// The options in this learner's order, with their choice. Before the quiz
/// is solved or its solution opened, only a chosen option the try names
/// gets a mark; after, every option says whether it is true.
pub(crate) fn quiz_items(
    order: &[usize],
    options: &[QuizOption],
    multiple: bool,
    answer: Option<&Answer>,
    named: &Named<'_>,
) -> Vec<Item> {
    let chosen: &[usize] = match answer {
        Some(Answer::Quiz(chosen)) => chosen,
        _ => &[],
    };
    let lang = named.lang;
    order
        .iter()
        .enumerate()
        .filter_map(|(position, &index)| {
            let option = options.get(index)?;
            let picked = chosen.contains(&index);
            let at = u32::try_from(index).ok()?;
            let verdict = match (named.revealed, option.correct) {
                (true, true) => Some(Verdict::True),
                (true, false) => Some(Verdict::False),
                (false, _) => named.verdict(at).filter(|_| picked),
            };
            let sign = match (multiple, picked) {
                (true, true) => "[x]",
                (true, false) => "[ ]",
                (false, true) => "(•)",
                (false, false) => "( )",
            };
            Some(Item {
                index: at,
                label: option_label(position + 1, lang),
                choice: picked.then(|| lang.pick("chosen", "已选").to_owned()),
                chosen: picked,
                verdict,
                verdict_label: verdict.map(|v| verdict_label(v, lang)),
                why: named.revealed.then(|| option.why.get(lang).to_owned()),
                text: Some(option.text.get(lang).to_owned()),
                sign: sign.to_owned(),
                value: None,
                key: None,
            })
        })
        .collect()
}

/// How a quiz's options are chosen: one, or any number, from a list.
pub(crate) fn quiz_choosing(multiple: bool, lang: Lang) -> Choosing {
    let (pick, prompt) = if multiple {
        (
            Pick::Any,
            lang.pick("Choose every correct option:", "选出所有正确的选项："),
        )
    } else {
        (Pick::One, lang.pick("Choose one option:", "选择一个选项："))
    };
    Choosing {
        on_timeline: false,
        pick,
        prompt: prompt.to_owned(),
        choices: Vec::new(),
        row_label: String::new(),
        blank: String::new(),
        unchosen: String::new(),
        not_an_item: String::new(),
        why_tells_step: false,
        timeline_help: None,
    }
}
