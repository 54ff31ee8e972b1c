//! A scenario on its own: the timeline and, under it, what the current
//! step did in words (`sim_core::describe_step`) — the text a screen reader
//! or a learner who prefers reading follows.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Padding, Paragraph};
use sim_core::words::terminal as words;
use sim_core::{Lang, Preset, Reveal, Scenario, Trace};

use super::{clamp_scroll, render_header, section};
use crate::app::layout;
use crate::app::model::{App, SandboxState, Timeline};
use crate::app::text;
use crate::app::theme::Theme;
use crate::app::timeline::{ExtraRow, TimelineWidget, outcome_glyph};

pub(crate) fn design_label(scenario: &Scenario, lang: Lang) -> String {
    match Preset::of(&scenario.design) {
        Some(preset) => preset.name().to_owned(),
        None => words::SANDBOX_CUSTOM_DESIGN.get(lang).to_owned(),
    }
}

/// "Step 4 · tick 7 · A write (W) → report · ✓ ok", with "‼ stale" when revealed.
pub(crate) fn step_title(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    reveal: bool,
    lang: Lang,
) -> String {
    let (Some(_), Some(record)) = (scenario.steps.get(index), trace.steps.get(index)) else {
        return words::SANDBOX_NO_STEPS.get(lang).to_owned();
    };
    let glyph = outcome_glyph(trace, index, false);
    let mut title = format!(
        "{} · {glyph} {}",
        step_head(scenario, index, lang),
        sim_core::outcome_label(record.outcome, lang)
    );
    if reveal {
        for violation in trace.violations.iter().filter(|v| v.step == index as u32) {
            title += &format!(" · ‼ {}", sim_core::violation_words(violation.kind, lang));
        }
    }
    title
}

/// "Step 4 · tick 7 · A write (W) → report": the step without its result.
pub(crate) fn step_head(scenario: &Scenario, index: usize, lang: Lang) -> String {
    let Some(step) = scenario.steps.get(index) else {
        return words::SANDBOX_NO_STEPS.get(lang).to_owned();
    };
    // A delivery is the sender's request reaching the sender's target.
    let actor = scenario
        .acting_worker(index)
        .map_or(words::SANDBOX_USER.get(lang), |w| scenario.worker_id(w));
    let target = step
        .target
        .or_else(|| scenario.sender_of(index).and_then(|s| s.target))
        .map(|t| format!(" → {}", scenario.target_id(t)))
        .unwrap_or_default();
    let head = words::sandbox_step(index, step.at, lang);
    // The glyph the timeline shows, then the action in words.
    let glyph = sim_core::action_glyph(step.action);
    let name = sim_core::action_short(step.action, lang);
    format!("{head} · {actor} {name} ({glyph}){target}")
}

/// What the step did and why. Without `reveal` the oracle's verdict is
/// left out, so a mark exercise does not give its key away.
pub(crate) fn step_text(
    scenario: &Scenario,
    trace: &Trace,
    index: usize,
    lang: Lang,
    reveal: bool,
) -> String {
    let reveal = if reveal {
        Reveal::Everything
    } else {
        Reveal::NoVerdicts
    };
    sim_core::narrate_step(scenario, trace, index, lang, &reveal)
}

/// The detail lines of the current step.
pub(crate) fn step_lines(
    timeline: &Timeline,
    lang: Lang,
    reveal: bool,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let index = timeline.cursor;
    let mut lines = Vec::new();
    if timeline.len() == 0 {
        lines.push(Line::styled(
            words::SANDBOX_EMPTY_SCENARIO.get(lang),
            theme.dim(),
        ));
        return lines;
    }
    let said = step_text(&timeline.scenario, &timeline.trace, index, lang, reveal);
    lines.extend(text::wrap_styled(&said, width, theme.plain(), theme));
    // A request's send and its arrival each tell the whole trip.
    let shown = if reveal {
        Reveal::Everything
    } else {
        Reveal::NoVerdicts
    };
    if let Some(flight) = timeline.diagram(lang, &shown).flight_of_step(index) {
        let trip = format!("↦ {}", flight.words);
        lines.extend(text::wrap_styled(&trip, width, theme.plain(), theme));
    }
    if let Some(note) = timeline
        .scenario
        .steps
        .get(index)
        .and_then(|s| s.note.as_ref())
    {
        for line in text::wrap(
            &format!("{}{}", words::STEP_NOTE_LABEL.get(lang), note.get(lang)),
            width,
        ) {
            lines.push(Line::styled(line, theme.dim()));
        }
    }
    lines
}

/// The current step, then what the scenario is about.
pub(crate) fn detail_lines(
    state: &SandboxState,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines = step_lines(&state.timeline, lang, true, width, theme);
    // The statement the step stands for, with its values and row count.
    let diagram = state.timeline.diagram(lang, &Reveal::Everything);
    if let Some(sql) = diagram
        .steps
        .get(state.timeline.cursor)
        .and_then(|mark| mark.sql.as_ref())
    {
        lines.push(Line::default());
        for line in sql.lines(lang) {
            for wrapped in text::wrap(&line, width) {
                lines.push(Line::styled(wrapped, theme.dim()));
            }
        }
    }
    if let Some(description) = &state.timeline.scenario.description {
        lines.push(Line::default());
        lines.extend(text::wrap_styled(
            description.get(lang),
            width,
            theme.dim(),
            theme,
        ));
    }
    lines
}

/// The timeline block's title: design and lease length.
pub(crate) fn timeline_title(timeline: &Timeline, lang: Lang, theme: Theme) -> Line<'static> {
    Line::from(Span::styled(
        format!(
            " {} {} · ttl {} ",
            words::SANDBOX_TITLE.get(lang),
            design_label(&timeline.scenario, lang),
            timeline.scenario.ttl
        ),
        theme.title(),
    ))
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &SandboxState) {
    let theme = app.theme;
    let lang = app.lang();
    let timeline = &state.timeline;
    let diagram = timeline.diagram(lang, &Reveal::Everything);
    let areas = layout::sandbox(area, &diagram);
    let playing = if timeline.playing {
        words::SANDBOX_PLAYING.get(lang)
    } else {
        words::SANDBOX_PAUSED.get(lang)
    };
    let position = match timeline.len().checked_sub(1) {
        None => words::SANDBOX_NO_STEPS.get(lang).to_owned(),
        Some(last) => words::sandbox_position(timeline.cursor, last, playing, lang),
    };
    render_header(
        frame,
        areas.header,
        &format!("{} · {}", timeline.scenario.title.get(lang), state.source),
        &position,
        theme,
    );
    let block = section(timeline_title(timeline, lang, theme), theme);
    let inner = block.inner(areas.diagram);
    frame.render_widget(block, areas.diagram);
    frame.render_widget(
        TimelineWidget {
            diagram: &diagram,
            cursor: Some(timeline.cursor),
            extra: Vec::<ExtraRow>::new(),
            theme,
            lang,
        },
        inner,
    );
    let title = Line::from(Span::styled(
        format!(
            " {} ",
            step_title(
                &timeline.scenario,
                &timeline.trace,
                timeline.cursor,
                true,
                lang
            )
        ),
        theme.title(),
    ));
    let block = section(title, theme).padding(Padding::horizontal(1));
    let inner = block.inner(areas.detail);
    let lines = detail_lines(state, lang, usize::from(inner.width).max(1), theme);
    let scroll = clamp_scroll(state.detail_scroll, lines.len(), inner.height);
    frame.render_widget(block, areas.detail);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
}
