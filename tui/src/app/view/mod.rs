//! Drawing the [`App`]: a pure function of the model and the frame size.
//! Each screen has its module and `render` function; the footer, the help
//! overlay and the notice are shared here.

pub(crate) mod answer;
pub(crate) mod course;
pub(crate) mod exercise;
pub(crate) mod explorer;
pub(crate) mod items;
pub(crate) mod lesson;
pub(crate) mod review;
pub(crate) mod sandbox;

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, List, ListItem, ListState, Paragraph};
use sim_core::course::EditorKind;
use sim_core::words::terminal as words;
use sim_core::{Lang, MarkKind};

use super::model::{App, ExerciseState, Screen, Work};
use super::text;
use super::theme::Theme;
use super::timeline::GLYPH_LEGEND;
use super::{keys, layout};

/// Below this the screens give way to a request for a larger window.
pub(crate) use super::layout::clamp_scroll;

pub(crate) fn view(frame: &mut Frame<'_>, app: &App) {
    draw(frame, app);
    make_inert(frame.buffer_mut());
}

/// Every cell's control characters replaced by their pictures
/// ([`crate::style::control_picture`]), whichever widget drew them: a
/// title or note from a file holding ESC or BEL would otherwise reach the
/// terminal raw (and could, say, set its title). [`super::text`] makes text
/// inert before measuring it, so this pass only guards what bypassed it.
fn make_inert(buffer: &mut ratatui::buffer::Buffer) {
    for cell in &mut buffer.content {
        if cell.symbol().contains(char::is_control) {
            let symbol = crate::style::inert(cell.symbol()).into_owned();
            cell.set_symbol(&symbol);
        }
    }
}

fn draw(frame: &mut Frame<'_>, app: &App) {
    let area = frame.area();
    if layout::too_small(area.width, area.height) {
        render_too_small(frame, area, app.lang(), app.theme);
        return;
    }
    let [body, footer] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    match app.screen() {
        Screen::Course(state) => course::render(frame, body, app, state),
        Screen::Lesson(state) => lesson::render(frame, body, app, state),
        Screen::Review(state) => review::render(frame, body, app, state),
        Screen::Sandbox(state) => sandbox::render(frame, body, app, state),
        Screen::Exercise(state) => exercise::render(frame, body, app, state),
        Screen::Explorer(state) => explorer::render(frame, body, app, state),
    }
    render_footer(frame, footer, app);
    if app.help {
        render_help(frame, body, app);
    }
    if app.notice.is_some() {
        render_notice(frame, body, app);
    }
}

fn render_too_small(frame: &mut Frame<'_>, area: Rect, lang: Lang, theme: Theme) {
    let message = words::too_small(area.width, area.height, lang);
    let lines: Vec<Line<'_>> = text::wrap(&message, usize::from(area.width))
        .into_iter()
        .map(|l| Line::styled(l, theme.plain()))
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

fn key_spans(keys: &[(&str, &str)], gap: &'static str, theme: Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for (index, (key, what)) in keys.iter().enumerate() {
        if index > 0 {
            spans.push(Span::raw(gap));
        }
        spans.push(Span::styled((*key).to_owned(), theme.key()));
        spans.push(Span::styled(format!(" {what}"), theme.plain()));
    }
    spans
}

/// The keys of the screen, as many as fit, always ending in help and quit;
/// or the answer to the last key (see [`layout::footer`]).
fn render_footer(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let theme = app.theme;
    let footer = footer(app, area.width);
    let mut spans = vec![Span::raw(" ")];
    if let Some(status) = footer.status {
        spans.push(Span::styled(status, theme.warn()));
        spans.push(Span::raw(" ".repeat(footer.pad)));
    }
    spans.extend(key_spans(&footer.keys, "  ", theme));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The footer at `width`: this screen's keys placed by [`layout::footer`].
pub(crate) fn footer(app: &App, width: u16) -> layout::Footer {
    layout::footer(app, width, keys::footer_keys(app), keys::footer_tail(app))
}

/// Clears `area` for an overlay. A wide character (Chinese) just left of
/// it would cover the overlay's left border, so it is blanked too.
fn clear_overlay(frame: &mut Frame<'_>, area: Rect) {
    frame.render_widget(Clear, area);
    if area.x == 0 {
        return;
    }
    let buffer = frame.buffer_mut();
    for y in area.top()..area.bottom() {
        if let Some(cell) = buffer.cell_mut((area.x - 1, y))
            && text::width(cell.symbol()) > 1
        {
            cell.set_symbol(" ");
        }
    }
}

/// A centred rectangle of at most `width`×`height` inside `area`.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

fn overlay_block(title: &str, theme: Theme) -> Block<'static> {
    Block::new()
        .borders(Borders::ALL)
        .border_style(theme.border())
        .title(Span::styled(format!(" {title} "), theme.title()))
}

pub(crate) use super::keys::help_keys;

/// The help overlay's width and its text at that width.
pub(crate) fn help_lines(app: &App, body: Rect) -> (u16, Vec<Line<'static>>) {
    let theme = app.theme;
    let lang = app.lang();
    let width = body.width.saturating_sub(4).min(72);
    let inner_width = usize::from(width.saturating_sub(4)).max(1);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (key, what) in help_keys(app) {
        lines.push(Line::from(vec![
            Span::styled(text::fit(key, 10), theme.key()),
            Span::styled(what.to_owned(), theme.plain()),
        ]));
    }
    let shown = match app.screen() {
        Screen::Sandbox(state) => Some(&state.timeline),
        Screen::Exercise(state) => state.shown_timeline(),
        _ => None,
    };
    let timeline = shown.is_some();
    let flights = shown.is_some_and(|t| t.scenario.steps.iter().any(|step| step.request.is_some()));
    let prose = |lines: &mut Vec<Line<'static>>, text: &str, style: Style| {
        push_prose(lines, text, inner_width, style);
    };
    if let Screen::Explorer(_) = app.screen() {
        lines.push(Line::default());
        for paragraph in explorer::help(lang) {
            prose(&mut lines, paragraph, theme.plain());
        }
    }
    if timeline {
        timeline_help(app, &mut lines, inner_width);
    }
    if flights {
        prose(&mut lines, words::HELP_FLIGHTS.get(lang), theme.plain());
    }
    if let Screen::Exercise(state) = app.screen() {
        exercise_help(app, state, &mut lines, inner_width);
    }
    lines.push(Line::default());
    prose(&mut lines, words::HELP_CLOSES.get(lang), theme.dim());
    (width, lines)
}

/// `text` wrapped to `width`, one styled line per row.
fn push_prose(lines: &mut Vec<Line<'static>>, text: &str, width: usize, style: Style) {
    for line in text::wrap(text, width) {
        lines.push(Line::styled(line, style));
    }
}

/// The help on reading a timeline: glyphs, symbols, leases, and the rows
/// an exercise adds.
fn timeline_help(app: &App, lines: &mut Vec<Line<'static>>, inner_width: usize) {
    let theme = app.theme;
    let lang = app.lang();
    let prose = |lines: &mut Vec<Line<'static>>, text: &str, style: Style| {
        push_prose(lines, text, inner_width, style);
    };
    lines.push(Line::default());
    prose(lines, words::HELP_TIMELINE_TITLE.get(lang), theme.title());
    let legend: Vec<String> = GLYPH_LEGEND
        .iter()
        .map(|action| {
            let word = sim_core::action_short(*action, lang);
            format!("{} {word}", sim_core::action_glyph(*action))
        })
        .collect();
    prose(lines, &words::steps_legend(&legend, lang), theme.plain());
    // The outcomes as the page's legend says them (each in the words every
    // legend uses, `MarkKind::words`, with what a violation is).
    let marks: Vec<String> = MarkKind::ALL
        .iter()
        .filter_map(|mark| {
            let symbol = mark.symbol().to_string();
            let item = sim_core::words::LEGEND
                .iter()
                .find(|i| i.symbol == symbol)?;
            Some(format!("{symbol} {}", lang.pick(item.en, item.zh)))
        })
        .collect();
    prose(
        lines,
        &format!(
            "{}{}{}",
            words::HELP_AT_THE_RESOURCE_LABEL.get(lang),
            marks.join(" · "),
            words::FULL_STOP.get(lang)
        ),
        theme.plain(),
    );
    prose(lines, words::HELP_LEASES_AND_AXIS.get(lang), theme.plain());
    if let Screen::Exercise(state) = app.screen() {
        // The keys of a prediction, each with its outcome in the words every
        // legend uses (the screen's choices).
        let keys: Vec<String> = (state.screen.choosing.iter())
            .flat_map(|choosing| &choosing.choices)
            .map(|choice| format!("{} {}", choice.key, choice.label))
            .collect();
        let predict = words::predict_help(&keys, lang);
        let said = match &state.work {
            Work::Items { .. } if state.sets_each() => predict.as_str(),
            Work::Editor(_) => words::HELP_BREAK_TIMELINE.get(lang),
            _ => words::HELP_MARK_TIMELINE.get(lang),
        };
        prose(lines, said, theme.plain());
    }
}

/// The help on an exercise's own keys, and on hints and the solution.
fn exercise_help(
    app: &App,
    state: &ExerciseState,
    lines: &mut Vec<Line<'static>>,
    inner_width: usize,
) {
    let theme = app.theme;
    let lang = app.lang();
    let prose = |lines: &mut Vec<Line<'static>>, text: &str, style: Style| {
        push_prose(lines, text, inner_width, style);
    };
    let said = match &state.work {
        Work::Editor(work) if work.kind == EditorKind::Design => Some(words::HELP_DESIGN.get(lang)),
        Work::Editor(_) => Some(words::HELP_SCHEDULE.get(lang)),
        Work::Sql(_) => Some(words::HELP_SQL.get(lang)),
        Work::Items { .. } if state.on_list() => Some(words::HELP_QUIZ.get(lang)),
        _ => None,
    };
    if let Some(said) = said {
        lines.push(Line::default());
        prose(lines, said, theme.plain());
    }
    lines.push(Line::default());
    prose(
        lines,
        words::HELP_HINTS_AND_SOLUTION.get(lang),
        theme.plain(),
    );
}

fn render_help(frame: &mut Frame<'_>, body: Rect, app: &App) {
    let theme = app.theme;
    let lang = app.lang();
    let (width, lines) = help_lines(app, body);
    let height = (lines.len() as u16 + 2).min(body.height);
    let rows = height.saturating_sub(2);
    let scroll = clamp_scroll(app.help_scroll, lines.len(), rows);
    let mut block = overlay_block(words::HELP_TITLE.get(lang), theme)
        .padding(ratatui::widgets::Padding::horizontal(1));
    // Too long for the window: say where the rest is, in symbols and words.
    if lines.len() > usize::from(rows) {
        let more = if usize::from(scroll + rows) < lines.len() {
            words::HELP_MORE_BELOW.get(lang)
        } else {
            words::HELP_MORE_ABOVE.get(lang)
        };
        block = block.title_bottom(Span::styled(more, theme.dim()));
    }
    let area = centered(body, width, height);
    clear_overlay(frame, area);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)).block(block), area);
}

fn render_notice(frame: &mut Frame<'_>, body: Rect, app: &App) {
    let Some(notice) = &app.notice else { return };
    let theme = app.theme;
    let width = body.width.saturating_sub(4).min(72);
    let inner_width = usize::from(width.saturating_sub(4)).max(1);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for paragraph in &notice.lines(app.lang()) {
        for line in text::wrap(paragraph, inner_width) {
            lines.push(Line::styled(line, theme.plain()));
        }
    }
    lines.push(Line::default());
    let notice_keys = keys::notice_keys(app.lang());
    lines.push(Line::from(key_spans(&notice_keys, "   ", theme)));
    let height = (lines.len() as u16 + 2).min(body.height);
    let area = centered(body, width, height);
    clear_overlay(frame, area);
    frame.render_widget(
        Paragraph::new(lines).block(
            overlay_block(notice.title(app.lang()), theme)
                .border_style(theme.warn())
                .padding(ratatui::widgets::Padding::horizontal(1)),
        ),
        area,
    );
}

/// A one-row header: `left` and, right-aligned, `right`.
pub(crate) fn render_header(
    frame: &mut Frame<'_>,
    area: Rect,
    left: &str,
    right: &str,
    theme: Theme,
) {
    let width = usize::from(area.width);
    let right = text::truncate(right, width / 2);
    let left_room = width.saturating_sub(text::width(&right) + 2);
    let left = text::truncate(left, left_room.saturating_sub(1));
    let gap = width.saturating_sub(1 + text::width(&left) + text::width(&right) + 1);
    let line = Line::from(vec![
        Span::raw(" "),
        Span::styled(left, theme.title()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme.dim()),
        Span::raw(" "),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

/// A block with only its top border, titled: the app's section divider.
pub(crate) fn section(title: Line<'static>, theme: Theme) -> Block<'static> {
    layout::section_block()
        .border_style(theme.border())
        .title(title)
}

/// A list of rows under a section `title`, the `selected` row highlighted
/// (and scrolled into view): the course's lessons, a level's exercises,
/// the review.
pub(crate) fn render_titled_list(
    frame: &mut Frame<'_>,
    area: Rect,
    (title, items): (&str, Vec<ListItem<'_>>),
    selected: usize,
    theme: Theme,
) {
    let title = Line::from(Span::styled(title.to_owned(), theme.title()));
    let list = List::new(items)
        .block(section(title, theme))
        .highlight_style(theme.selected());
    let mut state = ListState::default().with_selected(Some(selected));
    frame.render_stateful_widget(list, area, &mut state);
}
