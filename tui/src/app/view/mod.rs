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
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use sim_core::course::EditorKind;
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
    let message = lang.pick(
        format!(
            "fencelab needs a larger window (80×24 is best; this one is {}×{}). q quits.",
            area.width, area.height
        ),
        format!(
            "fencelab 需要更大的窗口（最好 80×24；现在是 {}×{}）。按 q 退出。",
            area.width, area.height
        ),
    );
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
        prose(
            &mut lines,
            lang.pick(
                "╲╌→ a request in flight: it leaves the worker where the slope starts and takes effect at → on the target's lane (the trail runs to the edge while it has not arrived). Checks at the worker and a sending gateway happen at the send; every other check at the arrival.",
                "╲╌→ 在途的请求：从斜线起点离开 Worker，在目标那一行的 → 处生效（尚未到达时，轨迹一直延伸到边缘）。Worker 自己的检查和发送端网关在发送时检查；其他检查都在到达时进行。",
            ),
            theme.plain(),
        );
    }
    if let Screen::Exercise(state) = app.screen() {
        exercise_help(app, state, &mut lines, inner_width);
    }
    lines.push(Line::default());
    prose(
        &mut lines,
        lang.pick("Esc or ? closes this help.", "按 Esc 或 ? 关闭帮助。"),
        theme.dim(),
    );
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
    prose(
        lines,
        lang.pick("Reading the timeline", "怎样读时间线"),
        theme.title(),
    );
    let legend: Vec<String> = GLYPH_LEGEND
        .iter()
        .map(|action| {
            let word = sim_core::action_short(*action, lang);
            format!("{} {word}", sim_core::action_glyph(*action))
        })
        .collect();
    prose(
        lines,
        &format!("{}{}.", lang.pick("Steps: ", "步骤："), legend.join(" · ")),
        theme.plain(),
    );
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
            lang.pick("At the resource: ", "资源端："),
            marks.join(" · "),
            lang.pick(".", "。")
        ),
        theme.plain(),
    );
    prose(
        lines,
        lang.pick("━━ a lease: g2 is generation 2; ━ the time it has left at the current step, ─ the time spent; ┫ where it ended, the number after it is lease_until; ▸ it runs on past the edge. ┄ a paused worker. Axis: every tick with a step is labelled, 7── groups the steps of tick 7, ⋯ stands for quiet ticks. The line under the timeline names what it shows.",
            "━━ 租约：g2 表示第 2 代；━ 是当前步骤时剩下的时间，─ 是已用掉的时间；┫ 是它结束的位置，其后的数字是 lease_until；▸ 表示它延续到图外。┄ 表示暂停中的 Worker。时间轴：每个有步骤的 tick 都标出，7── 把 tick 7 的几个步骤归为一组，⋯ 代表略去的安静 tick。时间线下面一行说明图中的符号。",
        ),
        theme.plain(),
    );
    if let Screen::Exercise(state) = app.screen() {
        // The keys of a prediction, each with its outcome in the words every
        // legend uses (the screen's choices).
        let keys: Vec<String> = (state.screen.choosing.iter())
            .flat_map(|choosing| &choosing.choices)
            .map(|choice| format!("{} {}", choice.key, choice.label))
            .collect();
        let predict = lang.pick(
            format!("Predict: ? a step whose result you predict (hidden until solved); the guess row shows your prediction by the key that sets it: {}; Tab moves on to the next ? step. The last-try row: ✓ right · ✗ wrong.", keys.join(", ")),
            format!("预测：? 表示要你预测结果的步骤（解出之前隐藏）；「预测」一行用设置它的按键字母显示你的预测：{}；按 Tab 跳到下一个 ? 步骤。「上次」一行：✓ 对 · ✗ 错。", keys.join("、")),
        );
        let said = match &state.work {
            Work::Items { .. } if state.sets_each() => predict.as_str(),
            Work::Editor(_) => lang.pick(
                "Break: the timeline previews your schedule's outcomes, run again after each change; Enter grades it, and ‼ marks a violation once solved. The steps stay in tick order: a step whose tick passes another's moves past it.",
                "攻破：时间线预览你的调度中每一步的结果，每次修改后重新运行；按 Enter 评分，解出之后 ‼ 表示违例。步骤始终按 tick 排序：tick 越过另一步的步骤会移到它后面。",
            ),
            _ => lang.pick(
                "Marks: ○ a step you may mark · ● marked. After a try: ✓ right · ✗ wrong.",
                "标记：○ 可以标记的步骤 · ● 已标记。作答之后：✓ 对 · ✗ 错。",
            ),
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
        Work::Editor(work) if work.kind == EditorKind::Design => Some(lang.pick(
            "Design: ↑↓ (or Tab) picks a knob; Space or → changes it ([x] a predicate checked or a target sent to reconciliation, ‹ › a choice: a target offers only what its real resource supports, each with its cost), ← back. Enter lets the explorers try every schedule of the world; the answer must be safe and no costlier than needed. When they break it, t opens the counterexample.",
            "设计：↑↓（或 Tab）选择选项；空格或 → 修改（[x] 表示检查该谓词或把目标交给对账，‹ › 表示可选值：每个目标只提供它的真实资源支持的保护，各有代价），← 反向。Enter 让探索器尝试这个世界的所有调度；答案必须安全，代价也不能超过所需。被攻破时按 t 打开反例。",
        )),
        Work::Editor(_) => Some(lang.pick(
            "Schedule: ↑↓ picks a step, Tab a field ([ ] marks it), Space or → changes it and ← back, as in a design (tick, worker, action, target, job, and a write's op and value; a tick can also be typed), a adds a copy one tick later, x deletes, [ and ] move the step past its neighbour (taking its tick). t opens the schedule on its own timeline.",
            "调度：↑↓ 选择步骤，Tab 选择字段（[ ] 标出），空格或 → 修改、← 反向，与设计相同（tick、Worker、动作、目标、任务，以及写入的 op 和值；tick 也可以直接输入），a 在下一 tick 添加一份副本，x 删除，[ 和 ] 把步骤移过相邻的一步（并采用它的 tick）。按 t 在独立的时间线上打开调度。",
        )),
        Work::Sql(_) => Some(lang.pick(
            "SQL: write each statement as one UPDATE with named parameters (:job, :owner, :token, :now, :ttl). While you type, every key is text; Esc stops typing, e starts again, Tab switches the statement. Enter runs them on a real SQLite against the lesson's scenario and every edge case; a statement SQLite refuses is shown with its line:column and is not counted as a try.",
            "SQL：每条语句写成一条带命名参数（:job、:owner、:token、:now、:ttl）的 UPDATE。输入时每个键都是文字；Esc 结束输入，e 重新开始，Tab 切换语句。Enter 在真实的 SQLite 上，对本课的场景和每个边界用例运行这些语句；SQLite 拒绝的语句会标出行:列，不计入作答次数。",
        )),
        Work::Items { .. } if state.on_list() => Some(lang.pick(
            "Quiz: ( ) one answer, [ ] any number. A digit chooses the option with that number; the options stay on screen with the hints. From your second wrong try on, the first wrong option you chose says so; once solved or the solution is open, every option says ✓ true or ✗ false, and why.",
            "测验：( ) 单选，[ ] 多选。数字键选择对应编号的选项；打开提示时选项仍然显示。从第二次答错起，会指出你选错的第一个选项；解出或打开解答之后，每个选项都显示 ✓ 正确 或 ✗ 错误 以及原因。",
        )),
        _ => None,
    };
    if let Some(said) = said {
        lines.push(Line::default());
        prose(lines, said, theme.plain());
    }
    lines.push(Line::default());
    prose(
        lines,
        lang.pick("h reveals the next hint; s shows the worked solution, computed now, after your first try.",
            "h 显示下一条提示；第一次作答之后，s 显示现场计算的参考解答。",
        ),
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
    let mut block = overlay_block(lang.pick("Keys", "按键"), theme)
        .padding(ratatui::widgets::Padding::horizontal(1));
    // Too long for the window: say where the rest is, in symbols and words.
    if lines.len() > usize::from(rows) {
        let more = if usize::from(scroll + rows) < lines.len() {
            lang.pick(" ↓ more: ↑↓ scroll ", " ↓ 还有：↑↓ 滚动 ")
        } else {
            lang.pick(" ↑ ↑↓ scroll ", " ↑ ↑↓ 滚动 ")
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
