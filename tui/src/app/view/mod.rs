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
use sim_core::Lang;
use sim_core::course::EditorKind;

use super::layout;
use super::model::{App, ExerciseState, LessonState, Screen, SqlWork, Work};
use super::text;
use super::theme::Theme;
use super::timeline::{GLYPH_LEGEND, action_name};

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

/// `(key, what it does)` for the current screen, most useful first.
pub(crate) fn screen_keys(app: &App) -> Vec<(&'static str, &'static str)> {
    let mut keys = screen_keys_all(app);
    if app.screens.len() < 2 {
        keys.retain(|(key, _)| *key != "Esc");
    }
    keys
}

fn screen_keys_all(app: &App) -> Vec<(&'static str, &'static str)> {
    // Descriptions in the learner's language; `l` offers the other one.
    let lang = app.lang();
    let other = lang.other().own_name();
    match app.screen() {
        Screen::Course(_) => vec![
            ("↑↓", lang.pick("choose", "选择")),
            ("Enter", lang.pick("open", "打开")),
            ("n", lang.pick("next unfinished", "下一道未完成")),
            ("e", lang.pick("explore", "探索")),
            ("l", other),
            ("p", lang.pick("progress", "进度")),
            ("Home/End", lang.pick("first/last", "首项/末项")),
        ],
        Screen::Lesson(state) => lesson_keys(app, state),
        Screen::Review(_) => vec![
            ("↑↓", lang.pick("choose", "选择")),
            ("Enter", lang.pick("open", "打开")),
            ("n", lang.pick("next unfinished", "下一道未完成")),
            ("Esc", lang.pick("back", "返回")),
            ("l", other),
            ("Home/End", lang.pick("first/last", "首项/末项")),
        ],
        Screen::Sandbox(_) => vec![
            ("←→", lang.pick("step", "单步")),
            ("Home/End", lang.pick("start/end", "开头/结尾")),
            ("Space", lang.pick("play", "播放")),
            ("↑↓", lang.pick("scroll", "滚动")),
            ("Esc", lang.pick("back", "返回")),
            ("l", other),
            ("e", lang.pick("explore", "探索")),
        ],
        Screen::Explorer(state) => explorer::keys(state, app.lang()),
        Screen::Exercise(state) => exercise_keys(state, app.lang()),
    }
}

/// The lesson reader's keys: the list's on the exercises page, else the
/// pages' (and the timeline's when the section has a scenario).
fn lesson_keys(app: &App, state: &LessonState) -> Vec<(&'static str, &'static str)> {
    let lang = app.lang();
    let other = lang.other().own_name();
    let lesson = app.lessons().get(state.lesson);
    let exercises_page = lesson.is_some_and(|l| state.page >= l.sections.len());
    if exercises_page {
        vec![
            ("↑↓", lang.pick("choose", "选择")),
            ("Enter", lang.pick("open", "打开")),
            ("←", lang.pick("page", "翻页")),
            ("Esc", lang.pick("back", "返回")),
            ("l", other),
            ("p", lang.pick("progress", "进度")),
            ("Home/End", lang.pick("first/last", "首项/末项")),
        ]
    } else {
        let timeline = lesson
            .and_then(|l| l.sections.get(state.page))
            .is_some_and(|s| s.scenario.is_some());
        let practice = lesson.is_some_and(|l| !layout::level_exercises(l, state.page).is_empty());
        let mut keys = vec![("←→", lang.pick("level", "关卡"))];
        if practice {
            keys.push(("Enter", lang.pick("exercise", "练习")));
        }
        keys.push(("↑↓", lang.pick("scroll", "滚动")));
        if timeline {
            keys.push(("t", lang.pick("timeline", "时间线")));
        }
        keys.extend([
            ("Esc", lang.pick("back", "返回")),
            ("l", other),
            ("p", lang.pick("progress", "进度")),
        ]);
        if practice {
            keys.push(("Tab", lang.pick("next exercise", "下一道练习")));
        }
        keys
    }
}

/// The label of the digit keys that pick a quiz's options, by how many.
const DIGIT_LABELS: [&str; 9] = ["1", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7", "1-8", "1-9"];

/// Keys the app also takes that the footer leaves out for room: the vi
/// rows and the keys of an earlier version, listed in the help so that it
/// names every key the screen handles (a test checks they agree).
pub(crate) fn screen_aliases(app: &App) -> Vec<(&'static str, &'static str)> {
    let lang = app.lang();
    let rows = ("k j", lang.pick("as ↑↓", "同 ↑↓"));
    match app.screen() {
        Screen::Course(_) | Screen::Review(_) => {
            vec![rows, ("→", lang.pick("as Enter", "同 Enter"))]
        }
        Screen::Lesson(state) => {
            let exercises_page = app
                .lessons()
                .get(state.lesson)
                .is_some_and(|l| state.page >= l.sections.len());
            let mut keys = vec![
                rows,
                ("PgUp/PgDn", lang.pick("scroll by a page", "按页滚动")),
                ("→", lang.pick("next page", "下一页")),
                ("Space", lang.pick("as PgDn", "同 PgDn")),
            ];
            let practice = app.lessons().get(state.lesson).is_some_and(|l| {
                !exercises_page && !layout::level_exercises(l, state.page).is_empty()
            });
            if !exercises_page && !practice {
                keys.push(("Enter", lang.pick("next page", "下一页")));
            }
            if practice {
                keys.push(("Shift-Tab", lang.pick("as Tab, backwards", "同 Tab，反向")));
            }
            keys
        }
        Screen::Sandbox(_) => vec![
            rows,
            ("PgUp/PgDn", lang.pick("scroll by a page", "按页滚动")),
        ],
        Screen::Explorer(state) if state.running() => vec![("l", app.lang().other().own_name())],
        Screen::Explorer(state) => {
            let mut keys = vec![
                rows,
                ("Space", lang.pick("as →", "同 →")),
                ("r", lang.pick("as Enter", "同 Enter")),
                ("Home/End", lang.pick("first/last setting", "首项/末项设置")),
                ("PgUp/PgDn", lang.pick("scroll the result", "滚动结果")),
            ];
            if state.form.takes_digits(state.setting()) {
                keys.extend([
                    ("0-9", lang.pick("type a seed", "输入种子")),
                    ("Backspace", lang.pick("erase a digit", "删除一位")),
                ]);
            }
            keys
        }
        Screen::Exercise(_) if app.sql_running() => Vec::new(),
        Screen::Exercise(state) => {
            let mut keys = exercise_aliases(state, app.lang());
            keys.push(("Shift-Tab", lang.pick("as Tab, backwards", "同 Tab，反向")));
            keys
        }
    }
}

/// An exercise's keys beyond its footer (see [`screen_aliases`]).
fn exercise_aliases(state: &ExerciseState, lang: Lang) -> Vec<(&'static str, &'static str)> {
    let rows = ("k j", lang.pick("as ↑↓", "同 ↑↓"));
    match &state.work {
        Work::Mark | Work::Predict { .. } => vec![
            ("↑↓", lang.pick("scroll the panel", "滚动面板")),
            rows,
            ("PgUp/PgDn", lang.pick("scroll by a page", "按页滚动")),
        ],
        Work::Editor(work) if work.kind == EditorKind::Design => vec![rows],
        Work::Quiz { .. } => vec![rows],
        Work::Sql(work) if work.editing => vec![("Space", lang.pick("type a space", "输入空格"))],
        Work::Sql(_) => vec![
            rows,
            ("PgUp/PgDn", lang.pick("scroll by a page", "按页滚动")),
        ],
        Work::Editor(_) => {
            let mut keys = vec![
                rows,
                ("+ = -", lang.pick("as → → ←", "同 → → ←")),
                ("Insert/Delete", lang.pick("as a x", "同 a x")),
            ];
            if (state.editor_field())
                .is_some_and(|f| matches!(f.input, sim_core::course::Input::Number { .. }))
            {
                keys.extend([
                    ("0-9", lang.pick("type the tick", "输入 tick")),
                    ("Backspace", lang.pick("erase a digit", "删除一位")),
                ]);
            }
            keys
        }
    }
}

/// Keys and what they do, in the footer's order.
type Keys = Vec<(&'static str, &'static str)>;

/// An exercise's keys: its kind's own, then those every kind shares.
fn exercise_keys(state: &ExerciseState, lang: Lang) -> Vec<(&'static str, &'static str)> {
    if let Work::Sql(work) = &state.work
        && let Some(keys) = sql_busy_keys(work, lang)
    {
        return keys;
    }
    // Each kind's own keys, then those every kind shares, then the keys
    // that only save presses (the footer drops these first at 80 columns).
    let (mut keys, later) = kind_keys(state, lang);
    keys.extend([
        ("h", lang.pick("hint", "提示")),
        ("Esc", lang.pick("back", "返回")),
        ("s", lang.pick("solution", "解答")),
    ]);
    keys.extend(later);
    // Where ↑↓ choose rows, the panel scrolls by page.
    if matches!(state.work, Work::Editor(_) | Work::Quiz { .. }) {
        keys.push(("PgUp/PgDn", lang.pick("scroll", "滚动")));
    }
    keys.push(("l", lang.other().own_name()));
    keys
}

/// A SQL exercise's only keys while its statement is typed or run, if it
/// is: typing, every printable key is text and Esc alone leaves it;
/// running, the exercise waits and Esc cancels.
fn sql_busy_keys(work: &SqlWork, lang: Lang) -> Option<Keys> {
    if work.running.is_some() {
        return Some(vec![
            ("Esc", lang.pick("cancel the run", "取消运行")),
            ("l", lang.other().own_name()),
        ]);
    }
    work.editing.then(|| {
        vec![
            ("Esc", lang.pick("done typing", "结束输入")),
            ("Tab", lang.pick("next statement", "下一条语句")),
            ("Enter", lang.pick("new line", "换行")),
            ("←→", lang.pick("move", "移动")),
            ("↑↓", lang.pick("line", "换行移动")),
            ("Home/End", lang.pick("line start/end", "行首/行尾")),
            ("Backspace", lang.pick("erase left", "删除左边")),
            ("Delete", lang.pick("erase right", "删除右边")),
            ("!-~", lang.pick("type", "输入")),
        ]
    })
}

/// An exercise kind's own keys, and the ones that only save presses.
fn kind_keys(state: &ExerciseState, lang: Lang) -> (Keys, Keys) {
    let home_end = ("Home/End", lang.pick("start/end", "开头/结尾"));
    let first_last = ("Home/End", lang.pick("first/last", "首项/末项"));
    match &state.work {
        Work::Sql(_) => (
            vec![
                ("Enter", lang.pick("run the cases", "运行用例")),
                ("e", lang.pick("edit", "编辑")),
                ("Tab", lang.pick("next statement", "下一条语句")),
                ("↑↓", lang.pick("scroll", "滚动")),
            ],
            vec![],
        ),
        Work::Mark => (
            vec![
                ("Tab", lang.pick("next ○", "下一个 ○")),
                ("m", lang.pick("mark", "标记")),
                ("Enter", lang.pick("submit", "提交")),
                ("←→", lang.pick("step", "单步")),
            ],
            vec![("Space", lang.pick("play", "播放")), home_end],
        ),
        Work::Predict { .. } => (
            vec![
                ("Tab", lang.pick("next ?", "下一个 ?")),
                (
                    "o r d n w",
                    lang.pick("ok/rejected/dup/noop/wait", "成功/拒绝/重复/无操作/等待"),
                ),
                ("Enter", lang.pick("submit", "提交")),
                ("←→", lang.pick("step", "单步")),
            ],
            vec![("Space", lang.pick("play", "播放")), home_end],
        ),
        Work::Editor(work) if work.kind == EditorKind::Design => (
            vec![
                ("↑↓", lang.pick("knob", "选项")),
                ("←→/Space", lang.pick("change", "更改")),
                ("Enter", lang.pick("submit", "提交")),
                ("t", lang.pick("counterexample", "反例")),
            ],
            vec![("Tab", lang.pick("next knob", "下一个选项")), first_last],
        ),
        Work::Editor(_) => (
            vec![
                ("↑↓", lang.pick("step", "步骤")),
                ("Tab", lang.pick("field", "字段")),
                ("←→/Space", lang.pick("change", "更改")),
                ("Enter", lang.pick("submit", "提交")),
                ("a", lang.pick("add", "添加")),
                ("x", lang.pick("delete", "删除")),
                ("[ ]", lang.pick("move", "移动")),
                ("t", lang.pick("timeline", "时间线")),
            ],
            vec![first_last],
        ),
        Work::Quiz {
            multiple, order, ..
        } => quiz_keys(*multiple, order.len(), lang),
    }
}

/// A quiz's keys: a digit per option (one chooses, several toggle).
fn quiz_keys(multiple: bool, options: usize, lang: Lang) -> (Keys, Keys) {
    let first_last = ("Home/End", lang.pick("first/last", "首项/末项"));
    (
        vec![
            (
                DIGIT_LABELS[options.clamp(1, DIGIT_LABELS.len()) - 1],
                if multiple {
                    lang.pick("choose/unchoose", "选中/取消")
                } else {
                    lang.pick("choose", "选择")
                },
            ),
            ("Enter", lang.pick("submit", "提交")),
            ("↑↓", lang.pick("option", "选项")),
            ("Space", lang.pick("choose", "选择")),
        ],
        vec![("Tab", lang.pick("next option", "下一个选项")), first_last],
    )
}

fn key_spans(keys: &[(&str, &str)], theme: Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    for (index, (key, what)) in keys.iter().enumerate() {
        if index > 0 {
            spans.push(Span::raw("  "));
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
    spans.extend(key_spans(&footer.keys, theme));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The footer at `width`: this screen's keys placed by [`layout::footer`].
pub(crate) fn footer(app: &App, width: u16) -> layout::Footer {
    layout::footer(app, width, screen_keys(app), footer_tail(app))
}

/// The footer's last two keys, help and quit.
pub(crate) fn footer_tail(app: &App) -> Vec<(&'static str, &'static str)> {
    // While a statement is typed, ? and q are text (Ctrl-C still quits).
    if sql_typing(app) {
        return Vec::new();
    }
    footer_tail_keys(app.lang()).to_vec()
}

/// Whether keys type into a SQL statement now.
pub(crate) fn sql_typing(app: &App) -> bool {
    matches!(app.screen(), Screen::Exercise(state) if matches!(&state.work, Work::Sql(work) if work.editing))
}

/// Help and quit, as the footer ends.
fn footer_tail_keys(lang: Lang) -> [(&'static str, &'static str); 2] {
    [
        ("?", lang.pick("help", "帮助")),
        ("q", lang.pick("quit", "退出")),
    ]
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

/// Every key the help lists for the current screen, as `(key, what it
/// does)`: the footer's, help and quit, and the aliases. A test checks
/// these are exactly the keys the screen handles.
pub(crate) fn help_keys(app: &App) -> Vec<(&'static str, &'static str)> {
    let lang = app.lang();
    let mut keys = screen_keys(app);
    if sql_typing(app) {
        keys.extend(screen_aliases(app));
        return keys;
    }
    keys.extend([
        ("?", lang.pick("this help", "本帮助")),
        (
            "q",
            lang.pick(
                "quit, from anywhere (Ctrl-C too)",
                "退出，任何界面都可以（Ctrl-C 亦可）",
            ),
        ),
    ]);
    keys.extend(screen_aliases(app));
    keys
}

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
        .map(|(action, _)| {
            let word = action_name(*action, lang);
            format!("{} {word}", sim_core::action_glyph(*action))
        })
        .collect();
    prose(
        lines,
        &format!("{}{}.", lang.pick("Steps: ", "步骤："), legend.join(" · ")),
        theme.plain(),
    );
    prose(
        lines,
        lang.pick("At the resource: ✓ took effect · ✗ rejected · ↺ duplicate (no new effect) · ◷ waiting for a row lock · · nothing to do · ‼ a violation: a stale or after-terminal effect · ? hidden: predict it.",
            "资源端：✓ 生效 · ✗ 被拒绝 · ↺ 重复请求（没有新效果） · ◷ 等待行锁 · · 无事可做 · ‼ 违例：旧代次的或任务结束后的效果 · ? 隐藏：请你预测。",
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
        let said = match &state.work {
            Work::Predict { .. } => lang.pick(
                "Predict: ? a step whose result you predict (hidden until solved); the guess row shows your prediction by its key: o ok, r rejected, d duplicate, n noop, w waiting, the keys that set it; Tab moves on to the next ? step. The last-try row: ✓ right · ✗ wrong.",
                "预测：? 表示要你预测结果的步骤（解出之前隐藏）；「预测」一行用按键字母显示你的预测：o ok、r rejected、d duplicate、n noop、w waiting，也就是设置它的按键；按 Tab 跳到下一个 ? 步骤。「上次」一行：✓ 对 · ✗ 错。",
            ),
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
        Work::Quiz { .. } => Some(lang.pick(
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
    lines.push(Line::from(vec![
        Span::styled("Enter", theme.key()),
        Span::styled(
            format!(" {}   ", app.lang().pick("continue", "继续")),
            theme.plain(),
        ),
        Span::styled("q", theme.key()),
        Span::styled(
            format!(" {}", app.lang().pick("quit", "退出")),
            theme.plain(),
        ),
    ]));
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
