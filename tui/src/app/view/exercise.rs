//! An exercise: its task, the timeline to work on (mark), and a panel with
//! the current step, the hints or the worked solution. What the course
//! says — standing, hints, feedback, verdicts, cost — is the session's
//! [`ExerciseScreen`](sim_core::course::ExerciseScreen), drawn as it is.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Padding, Paragraph};
use sim_core::course::{EditorKind, Exercise, FeedbackView, Lesson, Tone};
use sim_core::words::terminal as words;
use sim_core::{Diagram, Lang, Reveal};
use std::sync::Arc;

use super::answer::{self, PanelText, prose};
use super::items;
use super::sandbox::timeline_title;
use super::{clamp_scroll, render_header, section};
use crate::app::layout;
use crate::app::model::{App, ExerciseState, Panel, Timeline, Work};
use crate::app::text;
use crate::app::theme::Theme;
use crate::app::timeline::{ExtraRow, TimelineWidget};

/// What the exercise's timelines may show now: the session's one policy,
/// the same as the page's.
fn reveal(state: &ExerciseState) -> Reveal {
    state.screen.reveal.reveal()
}

/// The worked solution, while the screen shows it.
fn shown_solution(state: &ExerciseState) -> Option<&FeedbackView> {
    state
        .screen
        .feedback
        .as_ref()
        .filter(|feedback| feedback.tone == Tone::Solution)
}

/// What the timeline on screen may show; `None` when the exercise shows
/// no timeline (design, quiz, a break schedule that cannot run).
pub(crate) fn timeline_reveal(state: &ExerciseState) -> Option<Reveal> {
    state.shown_timeline()?;
    Some(reveal(state))
}

/// The rows under the lanes: the learner's choices, the last try, the key.
pub(crate) fn extra_rows(app: &App, state: &ExerciseState) -> Vec<ExtraRow> {
    items::item_rows(state, app.lang(), app.theme)
}

/// The timeline's diagram as shown now: as much as the session's reveal
/// lets show (nothing is computed into it that the reveal hides).
pub(crate) fn shown_diagram(app: &App, state: &ExerciseState, timeline: &Timeline) -> Arc<Diagram> {
    let reveal = timeline_reveal(state).unwrap_or(Reveal::NoVerdicts);
    timeline.diagram(app.lang(), &reveal)
}

fn panel_title(app: &App, state: &ExerciseState, exercise: &Exercise) -> String {
    let lang = app.lang();
    let revealed = state.screen.hints.len();
    match state.panel {
        Panel::Hints => words::hints_title(revealed, exercise.hints.len(), lang),
        Panel::Solution => shown_solution(state)
            .map(|solution| solution.head.clone())
            .unwrap_or_default(),
        Panel::Step => match &state.work {
            Work::Items { .. } => items::items_title(state, lang),
            Work::Editor(work) if work.kind == EditorKind::Design => {
                words::DESIGN_PANEL_TITLE.get(lang).to_owned()
            }
            Work::Editor(_) => {
                let steps = state.screen.editor.as_ref().map_or(0, |e| e.rows.len());
                words::schedule_title(steps, lang)
            }
            Work::Sql(work) => answer::sql_title(work, lang),
        },
    }
}

/// The bottom panel's lines: the hints, the worked solution, or the
/// current step with the last grade. The one place that chooses between
/// them; the items' lines live in `items.rs`, the editors' in `answer.rs`.
pub(crate) fn panel_lines(app: &App, state: &ExerciseState, width: usize) -> PanelText {
    let theme = app.theme;
    let lang = app.lang();
    match state.panel {
        Panel::Hints => hints_panel(app, state, width),
        Panel::Solution => PanelText {
            lines: solution_lines(app, state, width),
            focus: None,
        },
        Panel::Step => {
            let revealed = reveal(state).shows_verdicts();
            step_panel(state, revealed, lang, width, theme)
        }
    }
}

/// The hints the session shows, and whether another may be asked for (the
/// session's words); a quiz's options under them.
fn hints_panel(app: &App, state: &ExerciseState, width: usize) -> PanelText {
    let theme = app.theme;
    let lang = app.lang();
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (index, hint) in state.screen.hints.iter().enumerate() {
        if index > 0 {
            lines.push(Line::default());
        }
        let numbered = format!("{}. {hint}", index + 1);
        prose(&mut lines, &numbered, width, theme.plain(), theme);
    }
    lines.push(Line::default());
    let more = if state.screen.more_hints {
        format!("h · {}", state.screen.hint_button)
    } else {
        state.screen.hint_button.clone()
    };
    prose(&mut lines, &more, width, theme.dim(), theme);
    // A quiz keeps its options under its hints, and a design or break its
    // editor: their keys still act, so what they act on stays in sight.
    let below = match &state.work {
        Work::Items { .. } if state.on_list() => items::items_panel(state, lang, width, theme),
        Work::Editor(work) => {
            let revealed = reveal(state).shows_verdicts();
            answer::editor_step(state, work, revealed, lang, width, theme)
        }
        _ => return PanelText { lines, focus: None },
    };
    lines.push(Line::default());
    let focus = below.focus.map(|f| f + lines.len());
    lines.extend(below.lines);
    PanelText { lines, focus }
}

/// The worked solution as the session shows it: its head, the takeaway,
/// the key in words, the solution in the exercise kind's terms, then the
/// learner's own last try beside it, as it was graded.
fn solution_lines(app: &App, state: &ExerciseState, width: usize) -> Vec<Line<'static>> {
    let (lang, theme) = (app.lang(), app.theme);
    let mut lines: Vec<Line<'static>> = Vec::new();
    let Some(solution) = shown_solution(state) else {
        return lines;
    };
    answer::feedback_head(&mut lines, solution, lang, width, theme);
    if let Some(key) = &solution.key {
        let said = format!("{}{key}", words::SOLUTION_KEY_LABEL.get(lang));
        prose(&mut lines, &said, width, theme.plain(), theme);
    }
    match &state.work {
        Work::Items { .. } => {
            lines.extend(items::items_solution(state, solution, lang, width, theme));
        }
        Work::Editor(work) if work.kind == EditorKind::Design => {
            lines.push(Line::default());
            lines.extend(answer::design_solution(solution, width, theme));
        }
        Work::Editor(_) => {
            lines.push(Line::default());
            lines.extend(answer::break_solution(solution, lang, width, theme));
        }
        Work::Sql(_) => {
            lines.push(Line::default());
            lines.extend(answer::sql_solution(solution, width, theme));
        }
    }
    if let Some(yours) = &solution.your_try {
        lines.push(Line::default());
        prose(
            &mut lines,
            words::LAST_TRY_LABEL.get(lang),
            width,
            theme.title(),
            theme,
        );
        let style = if yours.tone == Tone::Good {
            theme.good()
        } else {
            theme.bad()
        };
        let said = answer::feedback_words(yours);
        prose(&mut lines, &said, width, style, theme);
    }
    lines
}

/// The current step's panel, per exercise kind, with the last grade.
fn step_panel(
    state: &ExerciseState,
    revealed: bool,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> PanelText {
    match &state.work {
        Work::Items { .. } => items::items_panel(state, lang, width, theme),
        Work::Editor(work) => answer::editor_step(state, work, revealed, lang, width, theme),
        Work::Sql(work) => answer::sql_step(state, work, lang, width, theme),
    }
}

/// Every line of the exercise's bottom panel as plain text, scrolled into
/// view or not, at `width` columns: what the cross-front-end test reads to
/// check that a wrong try gives no key away.
pub(crate) fn panel_plain_text(app: &App, state: &ExerciseState, width: usize) -> String {
    panel_lines(app, state, width)
        .lines
        .iter()
        .map(|line| {
            line.spans
                .iter()
                .map(|span| span.content.as_ref())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The exercise screen's areas in `body`, the timeline as tall as the
/// diagram shown and its extra rows.
pub(crate) fn areas(app: &App, state: &ExerciseState, body: Rect) -> layout::ExerciseAreas {
    let timeline_rows = state.shown_timeline().map(|timeline| {
        let diagram = shown_diagram(app, state, timeline);
        layout::diagram_height(&diagram) + extra_rows(app, state).len()
    });
    layout::exercise(app, state, body, timeline_rows)
}

/// The exercise screen: header, task, timeline, panel, each area drawn by
/// its own function.
pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ExerciseState) {
    let Some((lesson, exercise)) = app.lesson_exercise(state.lesson, state.exercise) else {
        return;
    };
    let areas = areas(app, state, area);
    render_exercise_header(frame, areas.header, app, state, lesson, exercise);
    render_prompt(frame, areas.prompt, app, state);
    if let Some(diagram_area) = areas.timeline {
        render_timeline(frame, diagram_area, app, state);
    }
    render_panel(frame, areas.panel, app, state, exercise);
}

/// The header: the lesson, level and exercise; the session's standing
/// (with its sign and the tries) and the hints shown.
fn render_exercise_header(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    state: &ExerciseState,
    lesson: &Lesson,
    exercise: &Exercise,
) {
    let lang = app.lang();
    let screen = &state.screen;
    let hints = format!(
        "{} {}/{}",
        words::HINTS_TITLE.get(lang),
        screen.hints.len(),
        exercise.hints.len()
    );
    let right = if screen.standing_label.is_empty() {
        hints
    } else {
        format!("{} · {hints}", screen.standing_label)
    };
    // A practice round: its pool and round on the left, the learner's
    // practice standing on the right.
    if let Some(practice) = &screen.practice {
        let left = if screen.standing_label.is_empty() {
            practice.header.clone()
        } else {
            format!("{} · {}", practice.header, screen.standing_label)
        };
        render_header(frame, area, &left, &practice.standing_short, app.theme);
        return;
    }
    let level = lesson.level_of(state.exercise) + 1;
    let levels = lesson.sections.len().max(1);
    let left = words::exercise_header(lesson.order, level, levels, &screen.title, lang);
    render_header(frame, area, &left, &right, app.theme);
}

/// The task under the kind's name, cut with `…` where it does not fit.
fn render_prompt(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ExerciseState) {
    let theme = app.theme;
    let title = Line::from(Span::styled(
        format!(" {} ", state.screen.kind_label),
        theme.title(),
    ));
    let block = section(title, theme).padding(Padding::horizontal(1));
    let inner = block.inner(area);
    let mut prompt = text::wrap_styled(
        &state.screen.task,
        usize::from(inner.width).max(1),
        theme.plain(),
        theme,
    );
    if prompt.len() > usize::from(inner.height) && inner.height > 0 {
        prompt.truncate(usize::from(inner.height));
        if let Some(last) = prompt.last_mut() {
            last.spans.push(Span::styled(" …", theme.dim()));
        }
    }
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(prompt), inner);
}

/// The bottom panel, scrolled to keep its focused line in view.
fn render_panel(
    frame: &mut Frame<'_>,
    area: Rect,
    app: &App,
    state: &ExerciseState,
    exercise: &Exercise,
) {
    let theme = app.theme;
    let title = Line::from(Span::styled(
        format!(" {} ", panel_title(app, state, exercise)),
        theme.title(),
    ));
    let mut block = section(title, theme).padding(Padding::horizontal(1));
    let inner = block.inner(area);
    let PanelText { lines, .. } = panel_lines(app, state, usize::from(inner.width).max(1));
    // The update keeps the focused line in view (`measure::
    // exercise_panel_follow`); here the scroll is only kept in bounds, so a
    // page key may take the focus out of view to show what is below.
    let scroll = clamp_scroll(state.panel_scroll, lines.len(), inner.height);
    // Said on the panel's right, so a learner knows there is more below
    // and which key shows it (the footer at 80 columns has no room).
    let max = clamp_scroll(u16::MAX, lines.len(), inner.height);
    if max > 0 {
        let more = if scroll < max {
            words::MORE_BELOW_PGDN
        } else {
            words::MORE_ABOVE_PGUP
        };
        let more = Span::styled(more.get(app.lang()), theme.dim());
        block = block.title_top(Line::from(more).right_aligned());
    }
    frame.render_widget(block, area);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
}

/// The exercise's timeline, as much as the session's reveal lets show
/// (a break preview too: its outcomes, and its verdicts only once solved;
/// ARCHITECTURE.md, "the break preview"), with its extra rows.
fn render_timeline(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ExerciseState) {
    let Some(timeline) = state.shown_timeline() else {
        return;
    };
    let block = section(timeline_title(timeline, app.lang(), app.theme), app.theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    frame.render_widget(
        TimelineWidget {
            diagram: &shown_diagram(app, state, timeline),
            cursor: Some(timeline.cursor),
            extra: extra_rows(app, state),
            theme: app.theme,
            lang: app.lang(),
        },
        inner,
    );
}
