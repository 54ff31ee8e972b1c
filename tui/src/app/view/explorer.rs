//! The explorer screen: the setup (design, method, seed, world toggles)
//! above, the search below — its progress while it runs, then the verdict,
//! the explanation, the shrinking sequence and the bounds. Every word of a
//! result comes from the report the explorers computed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Padding, Paragraph};
use sim_core::Lang;
use sim_core::explore::{
    Counterexample, Method, Phase, Progress, Report, Verdict, World, safe_sentence,
};

use super::{clamp_scroll, render_header, section};
use crate::app::explorer::{ExplorerState, RANDOM_CASES, Run, Setting};
use crate::app::layout;
use crate::app::model::App;
use crate::app::text;
use crate::app::theme::Theme;

/// Most shrinking steps listed one per line; longer sequences keep their
/// first and last ones.
const SHRINK_LINES: usize = 8;

/// The footer's keys for the explorer.
pub(crate) fn keys(state: &ExplorerState, lang: Lang) -> Vec<(&'static str, &'static str)> {
    if state.running() {
        return vec![
            ("c", lang.pick("cancel", "取消")),
            ("Esc", lang.pick("cancel", "取消")),
        ];
    }
    let mut keys = vec![("Enter", lang.pick("run", "运行"))];
    if let Run::Done { report, .. } = &state.run
        && report.counterexample.is_some()
    {
        keys.push(("t", lang.pick("timeline", "时间线")));
    }
    keys.extend([
        ("↑↓", lang.pick("setting", "设置")),
        ("←→", lang.pick("change", "更改")),
        ("Esc", lang.pick("back", "返回")),
        ("l", lang.other().own_name()),
    ]);
    keys
}

/// What the help overlay says about this screen.
pub(crate) fn help(lang: Lang) -> [&'static str; 3] {
    lang.pick(
        [
            "The explorer: an adversarial scheduler tries the interleavings of the chosen design — which worker moves next, when time passes (a paused worker), when the user cancels.",
            "Random draws schedules from the seed and shrinks the first failure to a minimal counterexample (evidence, not proof). Exhaustive visits every state within the bounds, breadth first: the shortest counterexample, or safe within bounds.",
            "↑↓ choose a setting, ←→ or Space change it (digits type a seed), Enter runs, c or Esc cancels a running search, t plays the counterexample on the timeline. With the mouse: a click focuses a setting, a second click changes it.",
        ],
        [
            "探索器：对选定的设计，调度器尝试各种交错——哪个 Worker 先走、时间何时流逝（即暂停的 Worker）、用户何时取消。",
            "随机：按种子抽取调度，找到失败后收缩成最短的反例（这是证据，不是证明）。穷举：广度优先遍历界限内的所有状态，给出最短反例，或在界限内证明安全。",
            "↑↓ 选择设置，←→ 或空格更改（数字键输入种子），Enter 运行，c 或 Esc 取消正在运行的搜索，t 在时间线上播放反例。鼠标：点击一项设置选中它，再点击一次更改它。",
        ],
    )
}

fn on_off(on: bool) -> &'static str {
    if on { "[x]" } else { "[ ]" }
}

/// A setting's label, its value, and a note on what the value means: an
/// arm per setting, the longer ones in functions of their own.
fn setting_row(state: &ExplorerState, setting: Setting, lang: Lang) -> (String, String, String) {
    match setting {
        Setting::Design => design_row(state, lang),
        Setting::Method => method_row(state, lang),
        Setting::Seed => seed_row(state, lang),
        Setting::Cancel => (
            lang.pick("User cancel", "用户取消").to_owned(),
            on_off(state.cancel).to_owned(),
            lang.pick("the user may cancel the job once", "用户可以取消一次任务")
                .to_owned(),
        ),
        Setting::Heartbeat => (
            lang.pick("Heartbeat", "心跳续约").to_owned(),
            on_off(state.heartbeat).to_owned(),
            lang.pick(
                "workers renew before every write and finish",
                "Worker 每次写入和完成前都续约",
            )
            .to_owned(),
        ),
        Setting::Restarted => restarted_row(state, lang),
        Setting::InFlight => in_flight_row(state, lang),
        Setting::Delay => {
            let value = if state.max_in_flight == 0 {
                "—".to_owned()
            } else {
                format!("◂ {} ▸", state.max_delay)
            };
            (
                lang.pick("Max delay", "最大延迟").to_owned(),
                value,
                lang.pick(
                    "ticks a request may travel before it arrives",
                    "请求到达前最多在途的 tick 数",
                )
                .to_owned(),
            )
        }
        Setting::Targets => {
            let note = match &state.world().ok() {
                Some(world) if !world.targets.is_empty() => target_list(world, lang),
                _ => lang
                    .pick("none: the job table only", "无：只有任务表")
                    .to_owned(),
            };
            (
                lang.pick("Targets", "远端目标").to_owned(),
                on_off(state.targets).to_owned(),
                note,
            )
        }
    }
}

/// The design row: the preset, and its token, checks and targets.
fn design_row(state: &ExplorerState, lang: Lang) -> (String, String, String) {
    let preset = state.preset();
    let design = preset.design();
    let checks = design.commit_checks.names();
    let checks = if checks.is_empty() {
        lang.pick("none", "无").to_owned()
    } else {
        checks.join(lang.pick(", ", "、"))
    };
    let note = lang.pick(
        format!(
            "token: {} · commit checks {checks} · targets: {}",
            sim_core::token_words(design.token, lang),
            sim_core::protect_words(design.target_protect, lang)
        ),
        format!(
            "令牌 {} · 提交检查 {checks} · 目标 {}",
            sim_core::token_words(design.token, lang),
            sim_core::protect_words(design.target_protect, lang)
        ),
    );
    (
        lang.pick("Design", "设计").to_owned(),
        format!(
            "◂ {} ▸ {}/{}",
            preset.name(),
            state.preset + 1,
            sim_core::Preset::ALL.len()
        ),
        note,
    )
}

/// The method row: random or exhaustive, and what each does.
fn method_row(state: &ExplorerState, lang: Lang) -> (String, String, String) {
    let value = if state.exhaustive {
        lang.pick("exhaustive", "穷举").to_owned()
    } else {
        lang.pick("random", "随机").to_owned()
    };
    let note = if state.exhaustive {
        lang.pick(
            "breadth first over every state within bounds",
            "广度优先遍历界限内的每个状态",
        )
        .to_owned()
    } else {
        lang.pick(
            format!("{RANDOM_CASES} random schedules, shrunk on failure"),
            format!("{RANDOM_CASES} 个随机调度，失败后收缩"),
        )
    };
    (
        lang.pick("Method", "方法").to_owned(),
        format!("◂ {value} ▸"),
        note,
    )
}

/// The seed row: the seed a random search uses, none for an exhaustive one.
fn seed_row(state: &ExplorerState, lang: Lang) -> (String, String, String) {
    if state.exhaustive {
        (
            lang.pick("Seed", "种子").to_owned(),
            "—".to_owned(),
            lang.pick("exhaustive search needs none", "穷举搜索不需要种子")
                .to_owned(),
        )
    } else {
        (
            lang.pick("Seed", "种子").to_owned(),
            format!("◂ {} ▸", state.seed),
            lang.pick(
                "type digits, Backspace erases · same seed, same schedules",
                "可输入数字，Backspace 删除 · 同一个种子，同样的调度",
            )
            .to_owned(),
        )
    }
}

/// The restarted row, naming the workers the world has now.
fn restarted_row(state: &ExplorerState, lang: Lang) -> (String, String, String) {
    let names: Vec<String> = state
        .world()
        .ok()
        .as_ref()
        .map(|w| w.workers.iter().map(|s| s.id.clone()).collect())
        .unwrap_or_default();
    let note = lang.pick(
        format!(
            "the last worker is A restarted (same owner identity) · now: {}",
            names.join(", ")
        ),
        format!(
            "最后一个 Worker 是 A 重启后的化身（同一身份） · 现在：{}",
            names.join("、")
        ),
    );
    (
        lang.pick("Restarted", "重启化身").to_owned(),
        on_off(state.restarted).to_owned(),
        note,
    )
}

/// The in-flight row: how many requests may travel at once.
fn in_flight_row(state: &ExplorerState, lang: Lang) -> (String, String, String) {
    let note = if state.max_in_flight == 0 {
        lang.pick(
            "no delays: every write takes effect when it is made",
            "没有延迟：每次写入在发出时立即生效",
        )
        .to_owned()
    } else {
        lang.pick(
            "requests travelling at once; the scheduler picks when each arrives",
            "同时在途的请求数；调度器决定每个请求何时到达",
        )
        .to_owned()
    };
    (
        lang.pick("In flight", "在途请求").to_owned(),
        format!("◂ {} ▸", state.max_in_flight),
        note,
    )
}

fn target_list(world: &World, lang: Lang) -> String {
    let list: Vec<String> = world
        .targets
        .iter()
        .enumerate()
        .map(|(index, protect)| {
            format!(
                "{} ({})",
                world.target_id(index as u8),
                sim_core::protect_words(*protect, lang)
            )
        })
        .collect();
    list.join(lang.pick(", ", "、"))
}

fn setup_lines(app: &App, state: &ExplorerState, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    let label_width = Setting::ALL
        .iter()
        .map(|s| text::width(&setting_row(state, *s, lang).0))
        .max()
        .unwrap_or(0)
        + 2;
    let value_width = Setting::ALL
        .iter()
        .map(|s| text::width(&setting_row(state, *s, lang).1))
        .max()
        .unwrap_or(0)
        + 2;
    Setting::ALL
        .iter()
        .enumerate()
        .map(|(index, setting)| {
            let (label, value, note) = setting_row(state, *setting, lang);
            let focused = index == state.row;
            let marker = if focused { "▸ " } else { "  " };
            let value_style = if focused {
                theme.selected()
            } else {
                theme.plain()
            };
            let used = 2 + label_width + value_width;
            let mut spans = vec![
                Span::styled(marker, theme.accent()),
                Span::styled(text::fit(&label, label_width), theme.title()),
                Span::styled(value.clone(), value_style),
                Span::raw(" ".repeat(value_width - text::width(&value))),
            ];
            if width > used + 4 {
                spans.push(Span::styled(
                    text::truncate(&note, width - used),
                    theme.dim(),
                ));
            }
            Line::from(spans)
        })
        .collect()
}

fn elapsed(ms: u64) -> String {
    format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
}

/// `[█████░░░░░]`: the filled part is a different character, not only a colour.
fn bar(done: u64, total: u64, width: usize) -> String {
    let total = total.max(1);
    let filled =
        usize::try_from(done.min(total).saturating_mul(width as u64) / total).unwrap_or(width);
    format!("[{}{}]", "█".repeat(filled), "░".repeat(width - filled))
}

fn describe_world(world: &World, lang: Lang) -> String {
    let workers: Vec<&str> = world.workers.iter().map(|w| w.id.as_str()).collect();
    let targets = if world.targets.is_empty() {
        lang.pick("none (job table only)", "无（只有任务表）")
            .to_owned()
    } else {
        target_list(world, lang)
    };
    let mut out = match lang {
        Lang::En => format!(
            "World: workers {} · {} job{} · targets {targets} · ttl {}",
            workers.join(", "),
            world.jobs,
            if world.jobs == 1 { "" } else { "s" },
            world.ttl
        ),
        Lang::Zh => format!(
            "世界：Worker {} · {} 个任务 · 目标 {targets} · ttl {}",
            workers.join("、"),
            world.jobs,
            world.ttl
        ),
    };
    if world.allow_cancel {
        out += lang.pick(" · the user may cancel", " · 用户可取消");
    }
    if world.heartbeat {
        out += lang.pick(" · heartbeat renews", " · 心跳续约");
    }
    out
}

fn describe_bounds(world: &World, method: Method, lang: Lang) -> String {
    let b = world.bounds;
    let method = match method {
        Method::Random { seed, cases } => lang.pick(
            format!("random, seed {seed}, up to {cases} cases"),
            format!("随机，种子 {seed}，最多 {cases} 个调度"),
        ),
        Method::Exhaustive => lang
            .pick("exhaustive breadth-first search", "穷举广度优先搜索")
            .to_owned(),
    };
    // The delay bounds are stated only where delays are allowed, so a
    // world without them reads as before.
    let delays = match (b.max_in_flight, lang) {
        (0, _) => String::new(),
        (n, Lang::Zh) => format!(" · 在途 ≤ {n} · 延迟 ≤ {}", b.max_delay),
        (n, Lang::En) => format!(" · in flight ≤ {n} · delay ≤ {}", b.max_delay),
    };
    lang.pick(
        format!(
            "Bounds: time ≤ {} · claims ≤ {} · moves per schedule ≤ {}{delays} · {method}",
            b.max_time, b.max_claims, b.max_steps
        ),
        format!(
            "界限：时间 ≤ {} · 领取 ≤ {} · 每个调度 ≤ {} 步{delays} · {method}",
            b.max_time, b.max_claims, b.max_steps
        ),
    )
}

fn progress_lines(lang: Lang, run: &Run, width: usize, theme: Theme) -> Vec<Line<'static>> {
    let Run::Running {
        method,
        max_steps,
        progress,
        elapsed_ms,
        cancelling,
        ..
    } = run
    else {
        return Vec::new();
    };
    let bar_width = width.saturating_sub(2).min(40);
    let mut lines = Vec::new();
    let (what, done, total, counts) = progress_phase(progress, *method, *max_steps, lang);
    lines.push(Line::styled(what.to_owned(), theme.title()));
    lines.push(Line::styled(bar(done, total, bar_width), theme.accent()));
    for line in text::wrap(&counts, width) {
        lines.push(Line::styled(line, theme.plain()));
    }
    lines.push(Line::styled(
        format!("{}{}", lang.pick("elapsed ", "用时 "), elapsed(*elapsed_ms)),
        theme.dim(),
    ));
    lines.push(Line::default());
    let hint = if *cancelling {
        lang.pick("Cancelling…", "正在取消……")
    } else {
        lang.pick("c or Esc cancels the search.", "按 c 或 Esc 取消搜索。")
    };
    lines.push(Line::styled(hint.to_owned(), theme.dim()));
    lines
}

/// What a running search is doing, how far along its bar is (done of
/// total), and its counts in words.
fn progress_phase(
    progress: &Progress,
    method: Method,
    max_steps: u16,
    lang: Lang,
) -> (&'static str, u64, u64, String) {
    match (progress.phase, method) {
        (Phase::Shrinking, _) => (
            lang.pick("Shrinking the failing schedule…", "正在收缩失败的调度……"),
            1,
            1,
            lang.pick(
                format!(
                    "{} shrink steps · schedule {} failed",
                    progress.shrink_steps, progress.cases
                ),
                format!(
                    "收缩 {} 步 · 第 {} 个调度失败",
                    progress.shrink_steps, progress.cases
                ),
            ),
        ),
        (Phase::Searching, Method::Random { cases, .. }) => (
            lang.pick("Trying random schedules…", "正在尝试随机调度……"),
            u64::from(progress.cases),
            u64::from(cases),
            lang.pick(
                format!(
                    "{} of {cases} cases · {} transitions",
                    progress.cases, progress.transitions
                ),
                format!(
                    "{} / {cases} 个调度 · {} 次转移",
                    progress.cases, progress.transitions
                ),
            ),
        ),
        (Phase::Searching, Method::Exhaustive) => (
            lang.pick(
                "Visiting every state, breadth first…",
                "正在广度优先遍历所有状态……",
            ),
            u64::from(progress.depth),
            u64::from(max_steps),
            lang.pick(
                format!(
                    "depth {} of at most {max_steps} · {} states · {} transitions",
                    progress.depth, progress.states, progress.transitions
                ),
                format!(
                    "深度 {} / 至多 {max_steps} · {} 个状态 · {} 次转移",
                    progress.depth, progress.states, progress.transitions
                ),
            ),
        ),
    }
}

fn schedule(report: &Report, moves: &[sim_core::explore::Move]) -> String {
    sim_core::explore::schedule_labels(&report.world, moves).join(" ")
}

/// A finished search: the verdict (with the counterexample and how it was
/// shrunk, when there is one), then the world, the bounds and the counts.
fn report_lines(
    report: &Report,
    elapsed_ms: u64,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let prose = |lines: &mut Vec<Line<'static>>, text: &str, style| {
        lines.extend(text::wrap_styled(text, width, style, theme));
    };
    match (&report.counterexample, report.verdict) {
        (Some(found), _) => {
            lines.extend(counterexample_lines(report, found, lang, width, theme));
            lines.extend(shrink_lines(report, lang, width, theme));
        }
        (None, Verdict::Safe) => {
            prose(
                &mut lines,
                &format!("✓ {}", safe_sentence(report, lang)),
                theme.good(),
            );
        }
        (None, _) => {
            prose(
                &mut lines,
                &format!("■ {}", safe_sentence(report, lang)),
                theme.warn(),
            );
        }
    }
    lines.push(Line::default());
    prose(
        &mut lines,
        &describe_world(&report.world, lang),
        theme.dim(),
    );
    prose(
        &mut lines,
        &describe_bounds(&report.world, report.method, lang),
        theme.dim(),
    );
    let (states, seconds) = (
        report.limits.max_states,
        report.limits.time_limit_ms.unwrap_or_default() / 1000,
    );
    prose(
        &mut lines,
        &match lang {
            Lang::En => format!("Limits: states ≤ {states} · {seconds} s"),
            Lang::Zh => format!("上限：状态 ≤ {states} · {seconds} 秒"),
        },
        theme.dim(),
    );
    prose(
        &mut lines,
        &describe_stats(report, elapsed_ms, lang),
        theme.dim(),
    );
    lines
}

/// The verdict of a search that failed: the counterexample's length and
/// violation, its schedule, why it breaks, and how to watch it.
fn counterexample_lines(
    report: &Report,
    found: &Counterexample,
    lang: Lang,
    width: usize,
    theme: Theme,
) -> Vec<Line<'static>> {
    let head = lang.pick(
        format!(
            "‼ UNSAFE — a counterexample of {} moves; step {} violates ({}):",
            found.moves.len(),
            found.step,
            sim_core::violation_words(found.kind, lang)
        ),
        format!(
            "‼ 不安全 —— 反例共 {} 步，第 {} 步违例（{}）：",
            found.moves.len(),
            found.step,
            sim_core::violation_words(found.kind, lang)
        ),
    );
    let watch = lang.pick(
        "t plays it on the timeline, at the step that violates.",
        "按 t 在时间线上播放它，停在违例的那一步。",
    );
    [
        (head.as_str(), theme.bad()),
        (&schedule(report, &found.moves), theme.code()),
        (found.explanation.get(lang), theme.plain()),
        (watch, theme.dim()),
    ]
    .into_iter()
    .flat_map(|(text, style)| text::wrap_styled(text, width, style, theme))
    .collect()
}

/// The failing schedules met while shrinking, one per line; a long history
/// keeps its first and last ones. Nothing when there was no shrinking.
fn shrink_lines(report: &Report, lang: Lang, width: usize, theme: Theme) -> Vec<Line<'static>> {
    if report.shrink_history.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![Line::default()];
    let lengths: Vec<String> = report
        .shrink_history
        .iter()
        .map(|moves| moves.len().to_string())
        .collect();
    let head = lang.pick(
        format!("Shrinking: {} moves", lengths.join(" → ")),
        format!("收缩：{} 步", lengths.join(" → ")),
    );
    lines.extend(text::wrap_styled(&head, width, theme.title(), theme));
    let count = report.shrink_history.len();
    let number_width = lengths.iter().map(String::len).max().unwrap_or(1);
    for (index, moves) in report.shrink_history.iter().enumerate() {
        let keep =
            count <= SHRINK_LINES || index < SHRINK_LINES / 2 || index + SHRINK_LINES / 2 >= count;
        if !keep {
            if index == SHRINK_LINES / 2 {
                lines.push(Line::styled(
                    format!("{:>number_width$}  …", "⋮"),
                    theme.dim(),
                ));
            }
            continue;
        }
        let line = format!(
            "{:>number_width$}  {}",
            moves.len(),
            schedule(report, moves)
        );
        lines.push(Line::styled(text::truncate(&line, width), theme.plain()));
    }
    lines
}

/// What the search did: its counts for its method, and how long it took.
fn describe_stats(report: &Report, elapsed_ms: u64, lang: Lang) -> String {
    let s = report.stats;
    match report.method {
        Method::Random { .. } => lang.pick(
            format!(
                "cases {} · transitions {} · shrink steps {} · {}",
                s.cases,
                s.transitions,
                s.shrink_steps,
                elapsed(elapsed_ms)
            ),
            format!(
                "调度 {} · 转移 {} · 收缩 {} 步 · {}",
                s.cases,
                s.transitions,
                s.shrink_steps,
                elapsed(elapsed_ms)
            ),
        ),
        Method::Exhaustive => lang.pick(
            format!(
                "states {} · transitions {} · depth {} · {}",
                s.states,
                s.transitions,
                s.depth,
                elapsed(elapsed_ms)
            ),
            format!(
                "状态 {} · 转移 {} · 深度 {} · {}",
                s.states,
                s.transitions,
                s.depth,
                elapsed(elapsed_ms)
            ),
        ),
    }
}

fn result_title(state: &ExplorerState, lang: Lang) -> String {
    let title = match &state.run {
        Run::Idle => lang.pick("Result", "结果"),
        Run::Running { .. } => lang.pick("Searching…", "搜索中……"),
        Run::Failed(_) => lang.pick("Could not run", "无法运行"),
        Run::Done { report, .. } => match report.verdict {
            Verdict::Unsafe => lang.pick("‼ UNSAFE", "‼ 不安全"),
            Verdict::Safe => match report.method {
                Method::Exhaustive => lang.pick("✓ SAFE within bounds", "✓ 在界限内安全"),
                Method::Random { .. } => lang.pick("✓ no violation found", "✓ 没有找到违例"),
            },
            Verdict::Cancelled => lang.pick("■ Cancelled", "■ 已取消"),
            Verdict::Incomplete => lang.pick("◌ Incomplete", "◌ 未完成"),
        },
    };
    format!(" {title} ")
}

pub(crate) fn result_lines(app: &App, state: &ExplorerState, width: usize) -> Vec<Line<'static>> {
    let theme = app.theme;
    let lang = app.lang();
    match &state.run {
        Run::Idle => {
            let mut lines = Vec::new();
            match state.world() {
                Ok(world) => {
                    lines.extend(text::wrap_styled(
                        &describe_world(&world, lang),
                        width,
                        theme.plain(),
                        theme,
                    ));
                    lines.extend(text::wrap_styled(
                        &describe_bounds(&world, state.method(), lang),
                        width,
                        theme.plain(),
                        theme,
                    ));
                    lines.push(Line::default());
                    lines.extend(text::wrap_styled(
                        lang.pick(
                            "Enter runs the search. Can the scheduler make this design break?",
                            "按 Enter 运行搜索。调度器能让这个设计出错吗？",
                        ),
                        width,
                        theme.dim(),
                        theme,
                    ));
                }
                Err(why) => {
                    lines.extend(text::wrap_styled(
                        &why.message(lang),
                        width,
                        theme.warn(),
                        theme,
                    ));
                }
            }
            lines
        }
        Run::Running { .. } => progress_lines(lang, &state.run, width, theme),
        Run::Done { report, elapsed_ms } => report_lines(report, *elapsed_ms, lang, width, theme),
        Run::Failed(why) => text::wrap_styled(&why.message(lang), width, theme.warn(), theme),
    }
}

pub(crate) fn render(frame: &mut Frame<'_>, area: Rect, app: &App, state: &ExplorerState) {
    let theme = app.theme;
    let lang = app.lang();
    let [header, setup, result] = layout::explorer(area);
    let method = if state.exhaustive {
        lang.pick("exhaustive", "穷举").to_owned()
    } else {
        lang.pick(
            format!("random · seed {}", state.seed),
            format!("随机 · 种子 {}", state.seed),
        )
    };
    render_header(
        frame,
        header,
        lang.pick("fencelab · explore a design", "fencelab · 探索一个设计"),
        &format!("{} · {method}", state.preset().name()),
        theme,
    );

    let title = Line::from(Span::styled(lang.pick(" Setup ", " 设置 "), theme.title()));
    let block = section(title, theme);
    let inner = layout::section_inner(setup);
    frame.render_widget(block, setup);
    frame.render_widget(
        Paragraph::new(setup_lines(app, state, usize::from(inner.width))),
        inner,
    );

    let inner = layout::padded_section_inner(result);
    let lines = result_lines(app, state, usize::from(inner.width).max(1));
    let scroll = clamp_scroll(state.scroll, lines.len(), inner.height);
    let mut title = vec![Span::styled(result_title(state, lang), theme.title())];
    // Said in words, so a learner knows there is more below.
    let max = clamp_scroll(u16::MAX, lines.len(), inner.height);
    if max > 0 {
        let more = if scroll < max {
            lang.pick(" ↓ more: PgDn ", " ↓ 还有：PgDn ")
        } else {
            lang.pick(" ↑ PgUp ", " ↑ PgUp ")
        };
        title.push(Span::styled(more, theme.dim()));
    }
    let block = section(Line::from(title), theme).padding(Padding::horizontal(1));
    frame.render_widget(block, result);
    frame.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
}
