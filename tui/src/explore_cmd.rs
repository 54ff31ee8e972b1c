//! `fencelab explore`: attack a design with the interleaving explorers and
//! print the verdict, or the counterexample's timeline.

use sim_core::Lang;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sim_core::Preset;
use sim_core::explore::{
    Case, Control, DesignChoice, Exploration, ExplorerSettings, Limits, Method, Phase, Progress,
    Report, SettingsError, Verdict, World, classification, explore_limited, safe_sentence,
    schedule_labels,
};
use unicode_width::UnicodeWidthStr;

use crate::report::{EXIT_BAD_INPUT, io_error_zh, print_stdout, render_table};
use crate::style::{Style, Tone};

/// The validated options of `fencelab explore`.
#[derive(Debug, Clone)]
pub(crate) struct ExploreOptions {
    pub(crate) design: Option<String>,
    pub(crate) workers: u8,
    pub(crate) targets: Option<String>,
    pub(crate) no_targets: bool,
    pub(crate) ttl: u8,
    pub(crate) seed: u64,
    pub(crate) cases: u32,
    pub(crate) exhaustive: bool,
    pub(crate) max_time: u8,
    pub(crate) max_claims: u8,
    pub(crate) max_steps: u16,
    pub(crate) max_in_flight: u8,
    pub(crate) max_delay: u8,
    /// Distinct states the exhaustive search may visit.
    pub(crate) max_states: u64,
    /// Seconds the search may run.
    pub(crate) time_limit_s: u64,
    pub(crate) jobs: u8,
    pub(crate) cancel: bool,
    pub(crate) revise: bool,
    pub(crate) heartbeat: bool,
    pub(crate) restarted: bool,
    /// `--claim`: the claim procedure by name (sim-core checks it).
    pub(crate) claim: Option<String>,
    /// `--crash`: a worker holding a row lock may crash.
    pub(crate) crash: bool,
    pub(crate) out: Option<PathBuf>,
    pub(crate) json: bool,
    pub(crate) all_presets: bool,
    pub(crate) lang: Lang,
}

/// Why `fencelab explore` could not run.
#[derive(Debug)]
pub(crate) enum ExploreError {
    ReadDesign {
        path: String,
        error: crate::input::ReadError,
    },
    /// The design file's mistakes, each with its line and column.
    InvalidDesign {
        path: String,
        diagnostics: Vec<sim_core::Diagnostic>,
    },
    /// The settings sim-core refused (the same words the terminal's
    /// explorer screen and the page say).
    Settings(SettingsError),
    WriteCounterexample {
        path: String,
        error: std::io::Error,
    },
}

impl ExploreError {
    /// One line per problem, in `lang` (a design file's mistakes as
    /// `FILE:LINE:COL: message`).
    pub(crate) fn lines(&self, lang: Lang) -> Vec<String> {
        let line = match (self, lang) {
            (ExploreError::InvalidDesign { path, diagnostics }, _) => {
                return diagnostics
                    .iter()
                    .map(|d| format!("{path}:{}:{}: {}", d.line, d.col, d.message_in(lang)))
                    .collect();
            }
            (ExploreError::ReadDesign { path, error }, _) => error.line(path, lang),
            (ExploreError::Settings(error), _) => error.message(lang),
            (ExploreError::WriteCounterexample { path, error }, Lang::En) => {
                format!("{path}: cannot write: {error}")
            }
            (ExploreError::WriteCounterexample { path, error }, Lang::Zh) => {
                format!("{path}：无法写入：{}", io_error_zh(error))
            }
        };
        vec![format!("fencelab explore: {line}")]
    }

    /// Prints the error on stderr; the exit status for bad input.
    #[allow(clippy::print_stderr)]
    fn exit(&self, lang: Lang) -> ExitCode {
        for line in self.lines(lang) {
            // A message may quote the file or the command line.
            eprintln!("{}", crate::style::inert_lines(&line));
        }
        ExitCode::from(EXIT_BAD_INPUT)
    }
}

/// In English; [`ExploreError::lines`] gives either language.
impl std::fmt::Display for ExploreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.lines(Lang::En).join("\n"))
    }
}

impl std::error::Error for ExploreError {}

/// Resolves `--design`: a preset name (sim-core checks it), or a design
/// file, read here. A value that names no preset is a file when it exists
/// or looks like a path, so a missing file is said to be missing.
fn design_of(value: &str) -> Result<DesignChoice, ExploreError> {
    let path = Path::new(value);
    let is_file = Preset::from_name(value).is_none()
        && (path.exists() || path.components().count() > 1 || path.extension().is_some());
    if !is_file {
        return Ok(DesignChoice::Named(value.to_owned()));
    }
    let shown = path.display().to_string();
    let bytes =
        crate::input::read_file(path, crate::input::InputKind::Design).map_err(|error| {
            ExploreError::ReadDesign {
                path: shown.clone(),
                error,
            }
        })?;
    sim_core::parse_design(&bytes)
        .map(|(design, source)| DesignChoice::Given { design, source })
        .map_err(|diagnostics| ExploreError::InvalidDesign {
            path: shown,
            diagnostics,
        })
}

/// The options as sim-core's explorer settings: `--targets` split at its
/// commas (sim-core refuses an empty item, so `,,,` is not "no targets"),
/// `--no-targets` as no target.
fn settings_of(options: &ExploreOptions) -> Result<ExplorerSettings, ExploreError> {
    let design = options.design.as_deref().map(design_of).transpose()?;
    let targets = if options.no_targets {
        Some(Vec::new())
    } else {
        options
            .targets
            .as_ref()
            .map(|list| list.split(',').map(str::to_owned).collect())
    };
    Ok(ExplorerSettings {
        design,
        workers: Some(u64::from(options.workers)),
        targets,
        ttl: Some(u64::from(options.ttl)),
        jobs: Some(u64::from(options.jobs)),
        seed: Some(options.seed),
        cases: Some(u64::from(options.cases)),
        exhaustive: options.exhaustive,
        max_time: Some(u64::from(options.max_time)),
        max_claims: Some(u64::from(options.max_claims)),
        max_steps: Some(u64::from(options.max_steps)),
        max_in_flight: Some(u64::from(options.max_in_flight)),
        max_delay: Some(u64::from(options.max_delay)),
        max_states: Some(options.max_states),
        time_limit_s: Some(options.time_limit_s),
        cancel: options.cancel,
        revise: options.revise,
        heartbeat: options.heartbeat,
        restarted: options.restarted,
        claim: options.claim.clone(),
        crash: options.crash,
    })
}

/// The search the options describe.
fn exploration_of(options: &ExploreOptions) -> Result<Exploration, ExploreError> {
    settings_of(options)?
        .build()
        .map_err(ExploreError::Settings)
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
fn progress_bar(method: Method, lang: Lang) -> ProgressBar {
    let bar = match method {
        Method::Random { cases, .. } => ProgressBar::new(u64::from(cases)),
        Method::Exhaustive => ProgressBar::new_spinner(),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let template = match (method, lang) {
        (Method::Random { .. }, Lang::En) => "{spinner} {msg} [{bar:30}] {pos}/{len} cases",
        (Method::Random { .. }, Lang::Zh) => "{spinner} {msg} [{bar:30}] {pos}/{len} 个调度",
        (Method::Exhaustive, _) => "{spinner} {msg}",
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A progress callback stopped by a wall-clock limit (sim-core reads no
/// clock, so the limit lives here).
pub(crate) struct TimeLimited<F> {
    pub(crate) observe: F,
    pub(crate) started: Instant,
    pub(crate) limit: Duration,
    pub(crate) out_of_time: bool,
}

impl<F: FnMut(&Progress) -> bool> Control for TimeLimited<F> {
    fn progress(&mut self, progress: &Progress) -> bool {
        if self.started.elapsed() >= self.limit {
            self.out_of_time = true;
            return false;
        }
        (self.observe)(progress)
    }

    fn out_of_time(&self) -> bool {
        self.out_of_time
    }
}

/// The caps `options` set (all that `--all-presets` takes).
fn limits_of(options: &ExploreOptions) -> Result<Limits, ExploreError> {
    ExplorerSettings {
        max_states: Some(options.max_states),
        time_limit_s: Some(options.time_limit_s),
        ..ExplorerSettings::default()
    }
    .limits()
    .map_err(ExploreError::Settings)
}

fn run_search(
    world: &World,
    method: Method,
    limits: Limits,
    lang: Lang,
) -> Result<(Report, u64), ExploreError> {
    let bar = progress_bar(method, lang);
    // Redraw on its own, so a terminal sees the search start at once.
    bar.enable_steady_tick(Duration::from_millis(100));
    bar.set_message(lang.pick("searching", "搜索中").to_owned());
    let started = Instant::now();
    let mut observe = |progress: &Progress| {
        match progress.phase {
            Phase::Searching => {
                bar.set_position(u64::from(progress.cases));
                let (states, transitions, depth) =
                    (progress.states, progress.transitions, progress.depth);
                bar.set_message(match (states > 0, lang) {
                    (true, Lang::En) => format!(
                        "exploring: {states} states, {transitions} transitions, depth {depth}"
                    ),
                    (true, Lang::Zh) => {
                        format!("探索中：{states} 个状态，{transitions} 次转移，深度 {depth}")
                    }
                    (false, _) => lang.pick("searching", "搜索中").to_owned(),
                });
            }
            Phase::Shrinking => {
                let steps = progress.shrink_steps;
                bar.set_message(match lang {
                    Lang::En => format!("shrinking: {steps} steps"),
                    Lang::Zh => format!("收缩中：{steps} 步"),
                });
            }
        }
        true
    };
    let mut control = TimeLimited {
        observe: &mut observe,
        started,
        limit: Duration::from_millis(limits.time_limit_ms.unwrap_or(u64::MAX)),
        out_of_time: false,
    };
    let report = explore_limited(world, method, None, limits, &mut control)
        .map_err(|error| ExploreError::Settings(SettingsError::World(error)));
    bar.finish_and_clear();
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok((report?, elapsed_ms))
}

pub(crate) fn explore_command(options: &ExploreOptions) -> ExitCode {
    if options.all_presets {
        return classification_command(options);
    }
    let Exploration {
        world,
        method,
        limits,
    } = match exploration_of(options) {
        Ok(exploration) => exploration,
        Err(error) => return error.exit(options.lang),
    };
    let (report, elapsed_ms) = match run_search(&world, method, limits, options.lang) {
        Ok(found) => found,
        Err(error) => return error.exit(options.lang),
    };
    if let Some(path) = &options.out {
        if let Some(found) = &report.counterexample {
            let text = sim_core::scenario_to_toml(&found.scenario);
            if let Err(error) = std::fs::write(path, text) {
                return ExploreError::WriteCounterexample {
                    path: path.display().to_string(),
                    error,
                }
                .exit(options.lang);
            }
        }
    }
    if options.json {
        let object = report.to_json(elapsed_ms, options.lang);
        let text = serde_json::to_string_pretty(&object).unwrap_or_default();
        return print_stdout(&(text + "\n"));
    }
    print_stdout(&render_report(
        &report,
        elapsed_ms,
        options,
        Style::for_stdout(),
    ))
}

/// The counterexample: its moves, its explanation, its table and how
/// shrinking shortened it.
fn render_counterexample(
    report: &Report,
    found: &sim_core::explore::Counterexample,
    style: Style,
    lang: Lang,
) -> String {
    let mut out = String::new();
    let labels: Vec<String> = schedule_labels(&report.world, &found.moves);
    let (count, schedule) = (found.moves.len(), labels.join(" → "));
    let headline = match lang {
        Lang::En => format!("‼ UNSAFE — counterexample of {count} moves: {schedule}"),
        Lang::Zh => format!("‼ 不安全——{count} 步的反例：{schedule}"),
    };
    out += &explained_table(
        &style.paint(Tone::Bad, &headline),
        &found.explanation,
        &found.scenario,
        style,
        lang,
    );
    if report.shrink_history.len() > 1 {
        let lengths: Vec<String> = report
            .shrink_history
            .iter()
            .map(|moves| moves.len().to_string())
            .collect();
        let lengths = lengths.join(" → ");
        let _ = match lang {
            Lang::En => writeln!(out, "\nshrinking: {lengths} moves"),
            Lang::Zh => writeln!(out, "\n收缩：{lengths} 步"),
        };
    }
    out
}

/// A takeover that waited on a held lock: the liveness cost under the
/// verdict, its schedule and its table (the waiting claim last).
fn render_blocked(
    report: &Report,
    blocked: &sim_core::explore::BlockedTakeover,
    style: Style,
    lang: Lang,
) -> String {
    let labels = schedule_labels(&report.world, &blocked.moves).join(" → ");
    let headline = match lang {
        Lang::En => format!("\n◷ liveness: a takeover waited on a held lock, after {labels}"),
        Lang::Zh => format!("\n◷ 活性：接管在等一把被占住的锁，调度：{labels}"),
    };
    explained_table(
        &style.paint(Tone::Dim, &headline),
        &blocked.explanation,
        &blocked.scenario,
        style,
        lang,
    )
}

/// A claim refused as a deadlock victim: the liveness cost under the
/// verdict, its schedule and its table (the refused statement last).
fn render_deadlock(
    report: &Report,
    deadlock: &sim_core::explore::Deadlock,
    style: Style,
    lang: Lang,
) -> String {
    let labels = schedule_labels(&report.world, &deadlock.moves).join(" → ");
    let headline = match lang {
        Lang::En => {
            format!("\n◷ liveness: a claim was refused as a deadlock victim, after {labels}")
        }
        Lang::Zh => format!("\n◷ 活性：一次领取作为死锁的牺牲者被拒绝，调度：{labels}"),
    };
    explained_table(
        &style.paint(Tone::Dim, &headline),
        &deadlock.explanation,
        &deadlock.scenario,
        style,
        lang,
    )
}

/// A headline, the explanation, and the scenario's table, run.
fn explained_table(
    headline: &str,
    explanation: &sim_core::Text,
    scenario: &sim_core::Scenario,
    style: Style,
    lang: Lang,
) -> String {
    let mut out = format!("{headline}\n{}\n\n", explanation.get(lang));
    // The explanation is the scenario's description: shown once, above.
    let mut scenario = scenario.clone();
    scenario.description = None;
    let trace = sim_core::run(&scenario);
    out += &render_table(&scenario, &trace, style, lang);
    out
}

/// The report as text: world, bounds, verdict (with the counterexample's
/// table), statistics.
fn render_report(
    report: &Report,
    elapsed_ms: u64,
    options: &ExploreOptions,
    style: Style,
) -> String {
    let lang = options.lang;
    let world = &report.world;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        sim_core::explore::design_and_world_words(world, lang)
    );
    // The bounds and limits in sim-core's words, which the page draws too.
    let view = sim_core::explore::ReportView::new(report, elapsed_ms, lang);
    let _ = writeln!(out, "{}\n{}", view.bounds, view.limits);
    out.push('\n');
    match (&report.counterexample, report.verdict) {
        (Some(found), _) => out += &render_counterexample(report, found, style, lang),
        (None, Verdict::Safe) => {
            let safe = format!("✓ {}", safe_sentence(report, lang));
            let _ = writeln!(out, "{}", style.paint(Tone::Good, &safe));
        }
        (None, _) => {
            let _ = writeln!(out, "{}", safe_sentence(report, lang));
        }
    }
    if let Some(blocked) = &report.blocked_takeover {
        out += &render_blocked(report, blocked, style, lang);
    }
    if let Some(deadlock) = &report.deadlock {
        out += &render_deadlock(report, deadlock, style, lang);
    }
    let stats = &report.stats;
    let (cases, states, transitions) = (stats.cases, stats.states, stats.transitions);
    let (shrink_steps, depth) = (stats.shrink_steps, stats.depth);
    let counts = match lang {
        Lang::En => format!(
            "cases {cases} · states {states} · transitions {transitions} · shrink steps {shrink_steps} · depth {depth} · {elapsed_ms} ms"
        ),
        Lang::Zh => format!(
            "调度 {cases} · 状态 {states} · 转移 {transitions} · 收缩步数 {shrink_steps} · 深度 {depth} · {elapsed_ms} ms"
        ),
    };
    let _ = writeln!(out, "\n{}", style.paint(Tone::Dim, &counts));
    if let (Some(path), Some(_)) = (&options.out, &report.counterexample) {
        let path = path.display().to_string();
        let path = crate::style::inert(&path);
        let _ = match lang {
            Lang::En => writeln!(
                out,
                "counterexample written to {path} — replay it with: fencelab run {path}"
            ),
            Lang::Zh => writeln!(out, "反例已写入 {path}——重放：fencelab run {path}"),
        };
    }
    out
}

/// One row of `explore --all-presets --json`.
#[derive(Debug, serde::Serialize)]
struct ClassificationRow<'c> {
    design: &'c str,
    world: &'c str,
    verdict: &'static str,
    shortest_counterexample: Option<usize>,
    states: u64,
    transitions: u64,
    elapsed_ms: u64,
    explanation: String,
    /// Whether a takeover waited on a held row lock.
    blocked_takeover: bool,
}

/// The widest line of the classification table, in columns.
const CLASSIFICATION_WIDTH: usize = 100;

/// One design of the classification, its exhaustive search's report and
/// how long that took.
type Classified = (Case, Report, u64);

/// `--all-presets`: the classification table, computed exhaustively.
fn classification_command(options: &ExploreOptions) -> ExitCode {
    let lang = options.lang;
    let limits = match limits_of(options) {
        Ok(limits) => limits,
        Err(error) => return error.exit(lang),
    };
    let mut rows = Vec::new();
    for case in classification() {
        let (report, elapsed_ms) = match run_search(&case.world, Method::Exhaustive, limits, lang) {
            Ok(found) => found,
            Err(error) => return error.exit(lang),
        };
        rows.push((case, report, elapsed_ms));
    }
    if options.json {
        let text =
            serde_json::to_string_pretty(&classification_json(&rows, lang)).unwrap_or_default();
        return print_stdout(&(text + "\n"));
    }
    print_stdout(&classification_table(&rows, lang, Style::for_stdout()))
}

/// The classification as `--json` prints it: an object per design.
fn classification_json(rows: &[Classified], lang: Lang) -> Vec<ClassificationRow<'_>> {
    rows.iter()
        .map(|(case, report, elapsed_ms)| ClassificationRow {
            design: &case.name,
            world: case.world_note.get(lang),
            verdict: report.verdict.name(),
            shortest_counterexample: report.counterexample.as_ref().map(|c| c.moves.len()),
            states: report.stats.states,
            transitions: report.stats.transitions,
            elapsed_ms: *elapsed_ms,
            explanation: report.counterexample.as_ref().map_or_else(
                || safe_sentence(report, lang),
                |c| c.explanation.get(lang).to_owned(),
            ),
            blocked_takeover: report.blocked_takeover.is_some(),
        })
        .collect()
}

/// The classification table: a row per design, its verdict and shortest
/// counterexample or states searched, its world under it; then how to
/// replay a row.
fn classification_table(rows: &[Classified], lang: Lang, style: Style) -> String {
    let delayed = sim_core::explore::Bounds::default().with_delays();
    let (in_flight, delay) = (delayed.max_in_flight, delayed.max_delay);
    let mut out = match lang {
        Lang::En => format!(
            "Every design in its world, explored exhaustively (time ≤ 12 unless its world says\n\
             otherwise, claims ≤ 3).\n\
             \"Requests delayed\": ≤ {in_flight} requests in flight, each arriving within {delay} ticks.\n\n"
        ),
        Lang::Zh => format!(
            "每个设计在它的世界里穷举探索（除非世界另有说明，时间 ≤ 12；领取 ≤ 3）。\n\
             “请求有延迟”：在途请求 ≤ {in_flight} 个，每个在 {delay} 个 tick 内到达。\n\n"
        ),
    };
    let name_width = rows
        .iter()
        .map(|(c, _, _)| UnicodeWidthStr::width(c.label.get(lang)))
        .max()
        .unwrap_or(0);
    for (case, report, _) in rows {
        let verdict = match report.verdict {
            Verdict::Unsafe => style.paint(Tone::Bad, lang.pick("‼ unsafe", "‼ 不安全")),
            Verdict::Safe => style.paint(Tone::Good, lang.pick("✓ safe  ", "✓ 安全  ")),
            Verdict::Cancelled => lang.pick("cancelled", "已取消").to_owned(),
            Verdict::Incomplete => lang.pick("incomplete", "未完成").to_owned(),
        };
        let detail = match (&report.counterexample, lang) {
            (Some(found), Lang::En) => {
                format!("shortest counterexample: {} moves", found.moves.len())
            }
            (Some(found), Lang::Zh) => format!("最短反例：{} 步", found.moves.len()),
            (None, Lang::En) => format!("{} states", report.stats.states),
            (None, Lang::Zh) => format!("{} 个状态", report.stats.states),
        };
        let (name, world_note) = (case.label.get(lang), case.world_note.get(lang));
        let name_pad = " ".repeat(name_width.saturating_sub(UnicodeWidthStr::width(name)));
        // The world on its own indented lines, so that a row fits 100
        // columns (name, verdict and detail on one line were 138).
        let _ = writeln!(out, "{name}{name_pad}  {verdict}  {detail}");
        for line in textwrap::wrap(world_note, CLASSIFICATION_WIDTH - 4) {
            let _ = writeln!(out, "    {line}");
        }
        if report.blocked_takeover.is_some() {
            let note = lang.pick(
                "◷ takeover blocked while the lock is held (a liveness cost)",
                "◷ 锁被占住时接管受阻（活性代价）",
            );
            let _ = writeln!(out, "    {}", style.paint(Tone::Dim, note));
        }
        if report.deadlock.is_some() {
            let note = lang.pick(
                "◷ deadlock: a claim is refused and starts over (a liveness cost)",
                "◷ 死锁：一次领取被拒绝，只能重来（活性代价）",
            );
            let _ = writeln!(out, "    {}", style.paint(Tone::Dim, note));
        }
    }
    out += lang.pick(
        "\nReplay any row's counterexample:\n  fencelab explore --design <preset> --exhaustive --out cex.toml && fencelab run cex.toml\n",
        "\n重放任意一行的反例：\n  fencelab explore --design <预设> --exhaustive --out cex.toml && fencelab run cex.toml\n",
    );
    let _ = match lang {
        Lang::En => writeln!(
            out,
            "(for a row with requests delayed, add --cancel --max-in-flight {in_flight} --max-delay {delay})"
        ),
        Lang::Zh => writeln!(
            out,
            "（请求有延迟的行，再加 --cancel --max-in-flight {in_flight} --max-delay {delay}）"
        ),
    };
    out
}
