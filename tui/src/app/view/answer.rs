//! The answer panels of the design, break and SQL exercises (the items of
//! the others are `items.rs`'s): the answer in the making, then the grade
//! of the last try, and the worked solution. Each builder returns its lines and the line of the row the
//! cursor is on, so the panel can keep that row in view.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use sim_core::Lang;
use sim_core::course::{EditorField, EditorKind, EditorRow, FeedbackView, Input, Tone};
use sim_core::words::terminal as words;

use super::sandbox::step_head;
use crate::app::model::{EditorWork, ExerciseState, SqlWork, Timeline};
use crate::app::text;
use crate::app::theme::Theme;
use crate::app::timeline::outcome_glyph;

/// Lines of a panel and the line the cursor is on.
pub(crate) struct PanelText {
    pub(crate) lines: Vec<Line<'static>>,
    pub(crate) focus: Option<usize>,
}

/// `said` wrapped to `width` in `style`, onto `lines`.
pub(crate) fn prose(
    lines: &mut Vec<Line<'static>>,
    said: &str,
    width: usize,
    style: Style,
    theme: Theme,
) {
    lines.extend(text::wrap_styled(said, width, style, theme));
}

/// `✓ text` or `✗ text`, wrapped, for one graded item.
fn verdict(lines: &mut Vec<Line<'static>>, right: bool, said: &str, width: usize, theme: Theme) {
    let (mark, style) = if right {
        ("✓", theme.good())
    } else {
        ("✗", theme.bad())
    };
    prose(lines, &format!("{mark} {said}"), width, style, theme);
}

/// The feedback block's head (the try's verdict, or the worked
/// solution's title) with its summary, then the takeaway once the session
/// gives it: all the session's words.
pub(crate) fn feedback_head(
    lines: &mut Vec<Line<'static>>,
    feedback: &FeedbackView,
    lang: Lang,
    width: usize,
    theme: Theme,
) {
    let said = feedback_words(feedback);
    let style = match feedback.tone {
        Tone::Good => theme.good(),
        Tone::Bad => theme.bad(),
        Tone::Solution => theme.title(),
    };
    prose(lines, &said, width, style, theme);
    if let Some(said) = &feedback.takeaway {
        prose(
            lines,
            &format!("{}{said}", words::TAKEAWAY_LABEL.get(lang)),
            width,
            theme.plain(),
            theme,
        );
    }
}

/// The feedback's head and summary in one line (the worked solution's head
/// is its panel's title).
pub(crate) fn feedback_words(feedback: &FeedbackView) -> String {
    match feedback.tone {
        Tone::Good | Tone::Bad => format!("{} · {}", feedback.head, feedback.summary),
        Tone::Solution => feedback.summary.clone(),
    }
}

/// A field in words: a box for on or off, else its value (between ‹ ›
/// when `arrows` and it can change), then what it costs.
fn field_words(field: &EditorField, arrows: bool) -> String {
    let value = match field.input {
        Input::Toggle => {
            let mark = if field.value == "true" { "x" } else { " " };
            format!("[{mark}] {}", field.label)
        }
        _ if arrows && field.cyclable => format!("‹ {} ›", field.value_label),
        _ => field.value_label.clone(),
    };
    match &field.note {
        Some(note) => format!("{value} {note}"),
        None => value,
    }
}

/// The editor's rows: each row's label (blank where it repeats the row
/// above: a check set spans four rows), then its fields — one field in
/// words, several in columns as wide as their widest value, the one under
/// the `cursor` bracketed, one that cannot change dim — then, with a
/// `preview` (and whether it shows verdicts, and in which language), the
/// step's outcome in the learner's words (its glyph alone, or under the
/// step, where they do not fit in `width`). Also the line of the cursor's row. Long because it
/// lays out one row whole — label, aligned fields, the cursor's brackets,
/// the outcome beside or under it — so the columns are measured once.
fn editor_rows(
    rows: &[EditorRow],
    cursor: Option<(usize, usize)>,
    preview: Option<(&Timeline, bool, Lang)>,
    width: usize,
    theme: Theme,
) -> (Vec<Line<'static>>, Option<usize>) {
    let label_width = rows
        .iter()
        .map(|r| text::width(&r.label))
        .max()
        .unwrap_or(0)
        + 2;
    let columns = rows.iter().map(|r| r.fields.len()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.fields.get(c))
                .map(|f| text::width(&field_words(f, false)) + 2)
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut lines = Vec::new();
    // The line each row starts on (a row may take two).
    let mut starts = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        starts.push(lines.len());
        let current = cursor
            .filter(|(at, _)| *at == index)
            .map(|(_, field)| field);
        let repeated = index > 0 && rows[index - 1].label == row.label;
        let mut spans = vec![
            Span::styled(if current.is_some() { "▸ " } else { "  " }, theme.accent()),
            Span::styled(
                text::fit(if repeated { "" } else { &row.label }, label_width),
                theme.dim(),
            ),
        ];
        if let [field] = row.fields.as_slice() {
            let style = if current.is_some() {
                theme.selected()
            } else {
                theme.plain()
            };
            spans.push(Span::styled(field_words(field, true), style));
        }
        for (position, field) in row
            .fields
            .iter()
            .enumerate()
            .filter(|_| row.fields.len() > 1)
        {
            let words = field_words(field, false);
            let (shown, style) = if current == Some(position) {
                let style = theme.selected().add_modifier(Modifier::BOLD);
                (format!("[{words}]"), style)
            } else if field.cyclable {
                (format!(" {words} "), theme.plain())
            } else {
                (format!(" {words} "), theme.dim())
            };
            spans.push(Span::styled(text::fit(&shown, widths[position]), style));
        }
        if let Some(preview) = preview {
            let (glyph, words, style) = preview_outcome(preview, index, theme);
            // An outcome whose words do not fit beside its step shows its
            // glyph only (the legend says it in words); one that does not
            // fit at all goes under its step.
            let used: usize = spans.iter().map(|s| text::width(&s.content)).sum();
            let said = if used + text::width(&words) <= width {
                words
            } else {
                glyph
            };
            if used + text::width(&said) > width {
                lines.push(Line::from(std::mem::take(&mut spans)));
                spans.push(Span::raw(" ".repeat(label_width + 1)));
            }
            spans.push(Span::styled(said, style));
        }
        lines.push(Line::from(spans));
    }
    let focus = cursor.and_then(|(row, _)| starts.get(row).copied());
    (lines, focus)
}

/// A step's outcome in the break's preview: its glyph alone, and with the
/// learner's words; as a violation once verdicts show.
fn preview_outcome(
    (timeline, verdicts, lang): (&Timeline, bool, Lang),
    index: usize,
    theme: Theme,
) -> (String, String, Style) {
    let glyph = outcome_glyph(&timeline.trace, index, verdicts);
    let style = if verdicts && timeline.trace.is_violation(index as u32) {
        theme.bad()
    } else {
        theme.dim()
    };
    let outcome =
        (timeline.trace.steps.get(index)).map_or("", |r| sim_core::outcome_label(r.outcome, lang));
    (format!(" {glyph}"), format!(" {glyph} {outcome}"), style)
}

/// The editor of a design or a break: a break's preview in words and the
/// last try first, then the rows, the cost, the exercise's world, and a
/// design's grade or a break's keys.
pub(crate) fn editor_step(
    state: &ExerciseState,
    work: &EditorWork,
    verdicts: bool,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> PanelText {
    let mut lines = Vec::new();
    let Some(editor) = &state.screen.editor else {
        return PanelText { lines, focus: None };
    };
    let schedule = work.kind == EditorKind::Schedule;
    if schedule {
        preview_words(
            &mut lines,
            editor.problem.as_deref(),
            work,
            verdicts,
            lang,
            width,
            theme,
        );
        if let Some(grade) = state.last_try() {
            feedback_head(&mut lines, grade, lang, width, theme);
            for item in &grade.items {
                verdict(&mut lines, item.right, &item.text, width, theme);
            }
        }
        lines.push(Line::default());
    }
    let preview = work.preview.as_ref().map(|t| (t, verdicts, lang));
    let (rows, focus) = editor_rows(
        &editor.rows,
        Some((work.row, work.field)),
        preview,
        width,
        theme,
    );
    let focus = focus.map(|row| row + lines.len());
    lines.extend(rows);
    if editor.rows.is_empty() {
        let said = if schedule {
            words::SCHEDULE_EMPTY.get(lang)
        } else {
            words::DESIGN_NOTHING_TO_CHANGE.get(lang)
        };
        prose(&mut lines, said, width, theme.dim(), theme);
    }
    // What the rows cost, where they cost something.
    if let Some(cost) = (state.screen.cost_label.as_ref())
        .filter(|_| editor.rows.iter().any(|r| r.detail.is_some()))
    {
        lines.push(Line::default());
        prose(&mut lines, cost, width, theme.plain(), theme);
        if let Some(detail) = editor.rows.get(work.row).and_then(|r| r.detail.as_ref()) {
            prose(&mut lines, detail, width, theme.dim(), theme);
        }
    }
    // A design's world closes its panel: its grade, above, stays in view.
    if schedule {
        prose(&mut lines, &editor.world, width, theme.dim(), theme);
        lines.push(Line::default());
        prose(
            &mut lines,
            words::SCHEDULE_KEYS.get(lang),
            width,
            theme.dim(),
            theme,
        );
    } else {
        lines.push(Line::default());
        design_grade(&mut lines, state.last_try(), lang, width, theme);
        prose(&mut lines, &editor.world, width, theme.dim(), theme);
    }
    PanelText { lines, focus }
}

/// Design: how to ask the explorers before a try; after one, whether
/// the design was safe, why, and how to see the counterexample.
fn design_grade(
    lines: &mut Vec<Line<'static>>,
    grade: Option<&FeedbackView>,
    lang: Lang,
    width: usize,
    theme: Theme,
) {
    match grade {
        None => prose(
            lines,
            words::DESIGN_HOW_TO_SUBMIT.get(lang),
            width,
            theme.dim(),
            theme,
        ),
        Some(grade) => {
            feedback_head(lines, grade, lang, width, theme);
            // Each part (safety, reconciliation, cost) says itself whether
            // it held.
            for item in &grade.items {
                verdict(lines, item.right, &item.text, width, theme);
            }
            if grade.counterexample.is_some() {
                prose(
                    lines,
                    words::DESIGN_OPEN_COUNTEREXAMPLE.get(lang),
                    width,
                    theme.dim(),
                    theme,
                );
            }
        }
    }
}

/// Design, worked solution: the safe choice of the open knobs on the
/// editor's rows (the session's key), its cost, and each part's verdict.
pub(crate) fn design_solution(
    solution: &FeedbackView,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(cost) = &solution.key_cost_label {
        prose(&mut lines, cost, width, theme.plain(), theme);
    }
    if let Some(rows) = &solution.key_rows {
        lines.extend(editor_rows(rows, None, None, width, theme).0);
        lines.push(Line::default());
    }
    for item in &solution.items {
        verdict(&mut lines, item.right, &item.text, width, theme);
    }
    lines
}

/// What the preview says of the schedule: that it cannot run (`problem`),
/// its outcomes only (before the exercise is solved), or its violations.
fn preview_words(
    lines: &mut Vec<Line<'static>>,
    problem: Option<&str>,
    work: &EditorWork,
    verdicts: bool,
    lang: Lang,
    width: usize,
    theme: Theme,
) {
    match (&work.preview, problem) {
        (None, _) | (Some(_), Some(_)) => prose(
            lines,
            &format!(
                "{}{}",
                words::SCHEDULE_CANNOT_RUN.get(lang),
                problem.unwrap_or_default()
            ),
            width,
            theme.warn(),
            theme,
        ),
        // Before it is solved the preview shows outcomes only: the grade
        // says whether the schedule breaks the design (ARCHITECTURE.md).
        (Some(_), None) if !verdicts => prose(
            lines,
            words::SCHEDULE_PREVIEW_OUTCOMES.get(lang),
            width,
            theme.dim(),
            theme,
        ),
        (Some(timeline), None) if timeline.trace.violations.is_empty() => prose(
            lines,
            words::SCHEDULE_NO_VIOLATION_YET.get(lang),
            width,
            theme.dim(),
            theme,
        ),
        (Some(timeline), None) => {
            let kinds: Vec<&str> = timeline
                .trace
                .violations
                .iter()
                .map(|v| sim_core::violation_words(v.kind, lang))
                .collect();
            prose(
                lines,
                &format!(
                    "‼ {}{} · Enter",
                    words::SCHEDULE_PREVIEW_VIOLATION.get(lang),
                    kinds.join(", ")
                ),
                width,
                theme.bad(),
                theme,
            );
        }
    }
}

/// Break, worked solution: a schedule the explorers found, step by step.
pub(crate) fn break_solution(
    solution: &FeedbackView,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for item in &solution.items {
        verdict(&mut lines, item.right, &item.text, width, theme);
    }
    if let Some(scenario) = &solution.schedule {
        lines.push(Line::default());
        prose(
            &mut lines,
            words::SOLUTION_BREAKING_SCHEDULE.get(lang),
            width,
            theme.plain(),
            theme,
        );
        for index in 0..scenario.steps.len() {
            let bad = solution.items.iter().any(|i| i.index == Some(index as u32));
            lines.push(Line::styled(
                format!(
                    "{} {}",
                    if bad { "‼" } else { " " },
                    step_head(scenario, index, lang)
                ),
                if bad { theme.bad() } else { theme.plain() },
            ));
        }
    }
    lines
}

/// The SQL editor's title: the statements, the one on screen bracketed.
pub(crate) fn sql_title(work: &SqlWork, lang: Lang) -> String {
    let names: Vec<String> = work
        .slots
        .iter()
        .enumerate()
        .map(|(index, slot)| {
            if index == work.slot {
                format!("[{}]", slot.tab_label(lang))
            } else {
                slot.tab_label(lang)
            }
        })
        .collect();
    let mode = if work.running.is_some() {
        words::SQL_MODE_RUNNING.get(lang)
    } else if work.editing {
        words::SQL_MODE_TYPING.get(lang)
    } else {
        words::SQL_MODE_COMMANDS.get(lang)
    };
    format!("SQL · {} · {mode}", names.join(" "))
}

/// The SQL editor: the statement on screen with line numbers and its
/// cursor, the parameters, what SQLite refused, and the last try.
pub(crate) fn sql_step(
    state: &ExerciseState,
    work: &SqlWork,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> PanelText {
    let (text, _) = work.current();
    let (mut lines, focus) = sql_statement_lines(work, width, theme);
    if text.is_empty() {
        prose(
            &mut lines,
            words::SQL_EMPTY_STATEMENT.get(lang),
            width,
            theme.dim(),
            theme,
        );
    }
    lines.push(Line::default());
    prose(
        &mut lines,
        &format!(
            "{}{}",
            words::SQL_PARAMETERS_LABEL.get(lang),
            sim_core::sqllab::Slot::PARAMS.join(" ")
        ),
        width,
        theme.dim(),
        theme,
    );
    prose(
        &mut lines,
        &sim_core::sql::jobs_table_words(lang),
        width,
        theme.dim(),
        theme,
    );
    sql_answer_lines(&mut lines, state, work, lang, width, theme);
    PanelText { lines, focus }
}

/// The statement on screen, a numbered row per line, and the row the
/// cursor is on while it is typed. Long lines wrap at the panel's width (a
/// statement is read whole); each piece after the first is marked as the
/// same line going on.
fn sql_statement_lines(
    work: &SqlWork,
    width: usize,
    theme: Theme,
) -> (Vec<Line<'static>>, Option<usize>) {
    let mut lines = Vec::new();
    let (text, cursor) = work.current();
    let mut focus = None;
    let mut offset = 0;
    let cursor_style = theme.selected().add_modifier(Modifier::REVERSED);
    let room = width.saturating_sub(5).max(1);
    for (number, line) in text.split('\n').enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let here = (work.editing && (offset..=offset + chars.len()).contains(&cursor))
            .then(|| cursor - offset);
        let mut pieces = word_pieces(&chars, room);
        // The cursor after a full last piece starts a piece of its own.
        if here == Some(chars.len()) && pieces.last().is_some_and(|(s, e)| e - s >= room) {
            pieces.push((chars.len(), chars.len()));
        }
        let count = pieces.len();
        for (piece, (start, end)) in pieces.into_iter().enumerate() {
            let last = piece + 1 == count;
            let gutter = if piece == 0 {
                format!("{:>3}│", number + 1)
            } else {
                "   ↪".to_owned()
            };
            let mut spans = vec![Span::styled(gutter, theme.dim())];
            let text_of = |from: usize, to: usize| -> String {
                chars
                    .get(from..to)
                    .map_or_else(String::new, |c| c.iter().collect())
            };
            match here.filter(|&at| (start..end).contains(&at) || (last && at == end)) {
                Some(at) => {
                    focus = Some(lines.len());
                    let under = chars.get(at).map_or(" ".to_owned(), char::to_string);
                    spans.push(Span::styled(text_of(start, at), theme.plain()));
                    spans.push(Span::styled(under, cursor_style));
                    spans.push(Span::styled(text_of((at + 1).min(end), end), theme.plain()));
                }
                None => spans.push(Span::styled(text_of(start, end), theme.plain())),
            }
            lines.push(Line::from(spans));
        }
        offset += chars.len() + 1;
    }
    (lines, focus)
}

/// A line cut into pieces of at most `room` characters, each ending after
/// a space where one falls within it, so a word is never split ("fen/ce")
/// unless it alone is longer than a piece.
fn word_pieces(chars: &[char], room: usize) -> Vec<(usize, usize)> {
    let mut pieces = Vec::new();
    let mut start = 0;
    while chars.len() - start > room {
        let hard = start + room;
        let cut = (start + 1..=hard)
            .rev()
            .find(|&at| chars.get(at - 1) == Some(&' '))
            .unwrap_or(hard);
        pieces.push((start, cut));
        start = cut;
    }
    pieces.push((start, chars.len()));
    pieces
}

/// Under the statement: that it runs now, or what SQLite refused and the
/// last try's grade.
fn sql_answer_lines(
    lines: &mut Vec<Line<'static>>,
    state: &ExerciseState,
    work: &SqlWork,
    lang: Lang,
    width: usize,
    theme: Theme,
) {
    if let Some(running) = work.running {
        lines.push(Line::default());
        let said = if running.cancelling {
            words::SQL_CANCELLING.get(lang)
        } else {
            words::SQL_RUNNING.get(lang)
        };
        prose(lines, said, width, theme.warn(), theme);
        // The answer below is the last try's, not this one's.
        return;
    }
    for refusal in &work.refused {
        let said = lang.pick(&refusal.en, &refusal.zh);
        verdict(
            lines,
            false,
            &format!("{}: {said}", refusal.slot.name()),
            width,
            theme,
        );
    }
    if let Some(grade) = state.last_try() {
        lines.push(Line::default());
        feedback_head(lines, grade, lang, width, theme);
        for item in &grade.items {
            verdict(lines, item.right, &item.text, width, theme);
        }
    }
}

/// A SQL exercise's worked solution: the model's statements (the
/// session's key, by slot) and what each case needs of them.
pub(crate) fn sql_solution(
    solution: &FeedbackView,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(serde_json::Value::Object(statements)) = &solution.key_answer {
        for (slot, statement) in statements {
            let said = format!("{slot}: {}", statement.as_str().unwrap_or_default());
            prose(&mut lines, &said, width, theme.plain(), theme);
        }
        lines.push(Line::default());
    }
    for item in &solution.items {
        prose(&mut lines, &item.text, width, theme.plain(), theme);
    }
    lines
}
