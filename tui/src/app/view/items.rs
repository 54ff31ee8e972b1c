//! The items of a mark, predict or quiz exercise, drawn from the session's
//! screen alone (`ExerciseScreen::items` and `choosing`): the panel (on a
//! timeline the current step, else the list), the timeline's rows of the
//! learner's choices, the verdicts and the key, and the worked solution's
//! rows. Nothing here is one kind's own.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use sim_core::Lang;
use sim_core::course::{Choosing, FeedbackView, Item, KeyTone, Pick, Verdict};
use sim_core::words::terminal as words;

use super::answer::{PanelText, feedback_head, prose};
use super::sandbox::{step_head, step_lines, step_title};
use crate::app::model::{ExerciseState, Timeline, Work};
use crate::app::text;
use crate::app::theme::Theme;
use crate::app::timeline::ExtraRow;

/// The item at step or option `index`, if it is one.
fn item(state: &ExerciseState, index: u32) -> Option<&Item> {
    state.screen.items.iter().find(|i| i.index == index)
}

/// The step under the timeline's cursor, when the items are steps.
fn current_step<'a>(state: &'a ExerciseState, choosing: &Choosing) -> Option<&'a Timeline> {
    state.timeline.as_ref().filter(|_| choosing.on_timeline)
}

/// Whether the reveal hides step `index`'s result (a prediction asked).
fn hidden(state: &ExerciseState, index: u32) -> bool {
    !state.screen.reveal.reveal().shows_step(index as usize)
}

/// What the session may say of item `index`: its verdict in words, with
/// the last try's word on it or, once revealed, its reason. `false`:
/// nothing may be said of it yet.
fn item_verdict(
    lines: &mut Vec<Line<'static>>,
    state: &ExerciseState,
    index: u32,
    width: usize,
    theme: Theme,
) -> bool {
    let Some(item) = item(state, index) else {
        return false;
    };
    let Some(label) = &item.verdict_label else {
        return false;
    };
    let said = item.why.clone().or_else(|| {
        state
            .last_try()?
            .items
            .iter()
            .find(|i| i.index == Some(index))
            .map(|i| i.text.clone())
    });
    let line = match said {
        Some(said) => format!("{label} · {said}"),
        None => label.clone(),
    };
    prose(
        lines,
        &line,
        width,
        verdict_style(item.verdict, theme),
        theme,
    );
    true
}

fn verdict_style(verdict: Option<Verdict>, theme: Theme) -> Style {
    match verdict {
        Some(Verdict::Right | Verdict::True) => theme.good(),
        _ => theme.bad(),
    }
}

/// The panel's title: the current step (its result only once it may be
/// seen), or what to do with the list.
pub(crate) fn items_title(state: &ExerciseState, lang: Lang) -> String {
    let Some(choosing) = &state.screen.choosing else {
        return String::new();
    };
    let Some(timeline) = current_step(state, choosing) else {
        // A title takes no colon.
        return choosing.prompt.trim_end_matches([':', '：']).to_owned();
    };
    if hidden(state, timeline.cursor as u32) {
        format!(
            "{} · ? {}",
            step_head(&timeline.scenario, timeline.cursor, lang),
            words::YOUR_CALL.get(lang)
        )
    } else {
        let revealed = state.screen.reveal.reveal().shows_verdicts();
        step_title(
            &timeline.scenario,
            &timeline.trace,
            timeline.cursor,
            revealed,
            lang,
        )
    }
}

/// The items' panel: on a timeline, the current step; else the list.
pub(crate) fn items_panel(
    state: &ExerciseState,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> PanelText {
    let Some(choosing) = &state.screen.choosing else {
        return PanelText {
            lines: Vec::new(),
            focus: None,
        };
    };
    match current_step(state, choosing) {
        Some(timeline) => PanelText {
            lines: step_panel(state, choosing, timeline, lang, width, theme),
            focus: None,
        },
        None => list_panel(state, choosing, lang, width, theme),
    }
}

/// The current step: the learner's choice on it and the keys that change
/// it, the last try, what may be said of it, then the step — before its
/// result while that is hidden, only its note where the reason told it.
fn step_panel(
    state: &ExerciseState,
    choosing: &Choosing,
    timeline: &Timeline,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let step = timeline.cursor as u32;
    let (said, style) = choice_line(item(state, step), choosing, lang, theme);
    prose(&mut lines, &said, width, style, theme);
    if let Some(feedback) = state.last_try() {
        feedback_head(&mut lines, feedback, lang, width, theme);
    }
    let told = item_verdict(&mut lines, state, step, width, theme);
    lines.push(Line::default());
    let revealed = state.screen.reveal.reveal().shows_verdicts();
    if told && revealed && choosing.why_tells_step {
        if let Some(note) =
            (timeline.scenario.steps.get(timeline.cursor)).and_then(|s| s.note.as_ref())
        {
            let said = format!("{}{}", words::STEP_NOTE_LABEL.get(lang), note.get(lang));
            prose(&mut lines, &said, width, theme.dim(), theme);
        }
    } else if hidden(state, step) {
        let pending = sim_core::describe_pending(&timeline.scenario, timeline.cursor, lang);
        prose(&mut lines, &pending, width, theme.plain(), theme);
    } else {
        lines.extend(step_lines(timeline, lang, revealed, width, theme));
    }
    lines
}

/// The learner's choice on a step and the keys that change it, or that
/// the step is no item.
fn choice_line(
    item: Option<&Item>,
    choosing: &Choosing,
    lang: Lang,
    theme: Theme,
) -> (String, Style) {
    let letters: Vec<String> = choosing.choices.iter().map(|c| c.key.to_string()).collect();
    let letters = letters.join("/");
    match item {
        Some(Item {
            choice: Some(choice),
            ..
        }) => (
            words::choice_and_keys(choice, &letters, lang),
            theme.accent(),
        ),
        Some(_) => {
            let keys: Vec<String> = (choosing.choices.iter())
                .map(|c| format!("{} {}", c.key, c.label))
                .collect();
            let said = format!(
                "{} {} · {}",
                choosing.blank,
                choosing.unchosen,
                keys.join(" · ")
            );
            (said, theme.plain())
        }
        None => (
            words::not_an_item(&choosing.not_an_item, &choosing.blank, lang),
            theme.dim(),
        ),
    }
}

/// The list: every item with its sign and number (the cursor's marked),
/// what the session may say of it, then the keys.
fn list_panel(
    state: &ExerciseState,
    choosing: &Choosing,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> PanelText {
    let cursor = match &state.work {
        Work::Items { cursor } => *cursor,
        _ => 0,
    };
    let mut lines = Vec::new();
    let mut focus = None;
    if let Some(grade) = state.last_try() {
        feedback_head(&mut lines, grade, lang, width, theme);
        lines.push(Line::default());
    }
    for (position, item) in state.screen.items.iter().enumerate() {
        let current = position == cursor;
        if current {
            focus = Some(lines.len());
        }
        // The number it is shown at, never its authored index.
        let head = format!(
            "{} {} {}. ",
            if current { "▸" } else { " " },
            item.sign,
            position + 1
        );
        let indent = text::width(&head);
        let style = if current {
            theme.selected()
        } else {
            theme.plain()
        };
        let said = item.text.as_deref().unwrap_or(&item.label);
        for (at, piece) in text::wrap(said, width.saturating_sub(indent).max(8))
            .into_iter()
            .enumerate()
        {
            let lead = if at == 0 {
                head.clone()
            } else {
                " ".repeat(indent)
            };
            lines.push(Line::from(vec![
                Span::styled(lead, theme.accent()),
                Span::styled(piece, style),
            ]));
        }
        let mut verdict = Vec::new();
        if item_verdict(
            &mut verdict,
            state,
            item.index,
            width.saturating_sub(indent),
            theme,
        ) {
            lines.extend(verdict.into_iter().map(|line| {
                let mut spans = vec![Span::raw(" ".repeat(indent))];
                spans.extend(line.spans);
                Line::from(spans)
            }));
        }
    }
    lines.push(Line::default());
    prose(
        &mut lines,
        list_keys(choosing.pick, lang),
        width,
        theme.dim(),
        theme,
    );
    PanelText { lines, focus }
}

/// A list's keys, for one choice or for any number.
fn list_keys(pick: Pick, lang: Lang) -> &'static str {
    if pick == Pick::One {
        words::LIST_KEYS_ONE.get(lang)
    } else {
        words::LIST_KEYS_ANY.get(lang)
    }
}

/// The rows under a timeline's lanes: the learner's choices, then the
/// verdicts the session gives (none before it names an item), then the
/// key while the worked solution is shown.
pub(crate) fn item_rows(state: &ExerciseState, lang: Lang, theme: Theme) -> Vec<ExtraRow> {
    let Some(choosing) = state.screen.choosing.as_ref().filter(|c| c.on_timeline) else {
        return Vec::new();
    };
    let items = &state.screen.items;
    let sign = |said: &str| said.chars().next().unwrap_or(' ');
    let mut rows = vec![ExtraRow {
        label: choosing.row_label.clone(),
        cells: (items.iter())
            .map(|item| {
                let style = if item.chosen {
                    theme.accent()
                } else {
                    theme.dim()
                };
                (item.index as usize, sign(&item.sign), style)
            })
            .collect(),
    }];
    let verdicts: Vec<(usize, char, Style)> = (items.iter())
        .filter_map(|item| match item.verdict? {
            Verdict::Right | Verdict::True => Some((item.index as usize, '✓', theme.good())),
            Verdict::Wrong | Verdict::False => Some((item.index as usize, '✗', theme.bad())),
        })
        .collect();
    if !verdicts.is_empty() {
        rows.push(ExtraRow {
            label: words::LAST_TRY_ROW.get(lang).to_owned(),
            cells: verdicts,
        });
    }
    let keys: Vec<(usize, char, Style)> = (items.iter())
        .filter_map(|item| {
            let key = item.key.as_ref()?;
            Some((item.index as usize, key.sign, key_style(key.tone, theme)))
        })
        .collect();
    if !keys.is_empty() {
        rows.push(ExtraRow {
            label: words::SOLUTION_KEY_ROW.get(lang).to_owned(),
            cells: keys,
        });
    }
    rows
}

fn key_style(tone: KeyTone, theme: Theme) -> Style {
    match tone {
        KeyTone::Must => theme.bad(),
        KeyTone::Either => theme.accent(),
        KeyTone::Leave => theme.dim(),
    }
}

/// The worked solution's rows: on a timeline, each graded step with its
/// key's sign, its result and why; in a list, every item with the
/// session's word on it and why.
pub(crate) fn items_solution(
    state: &ExerciseState,
    solution: &FeedbackView,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let Some(choosing) = &state.screen.choosing else {
        return lines;
    };
    if let Some(timeline) = current_step(state, choosing) {
        for graded in &solution.items {
            let Some(index) = graded.index else { continue };
            lines.push(Line::default());
            let title = step_title(
                &timeline.scenario,
                &timeline.trace,
                index as usize,
                true,
                lang,
            );
            let (said, style) = match item(state, index).and_then(|i| i.key.as_ref()) {
                // The key's own "leave" is dim on the timeline, plain here.
                Some(key) if key.tone == KeyTone::Leave => {
                    (format!("{} {title}", key.sign), theme.plain())
                }
                Some(key) => (format!("{} {title}", key.sign), key_style(key.tone, theme)),
                None => (title, theme.title()),
            };
            prose(&mut lines, &said, width, style, theme);
            prose(&mut lines, &graded.text, width, theme.plain(), theme);
        }
        return lines;
    }
    lines.push(Line::default());
    for (position, item) in state.screen.items.iter().enumerate() {
        if position > 0 {
            lines.push(Line::default());
        }
        let said = format!(
            "{}. {} — {}",
            position + 1,
            item.text.as_deref().unwrap_or(&item.label),
            item.verdict_label.as_deref().unwrap_or_default()
        );
        prose(
            &mut lines,
            &said,
            width,
            verdict_style(item.verdict, theme),
            theme,
        );
        if let Some(why) = &item.why {
            prose(&mut lines, why, width, theme.plain(), theme);
        }
    }
    lines
}
