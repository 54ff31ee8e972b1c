//! `fencelab explore`: attack a design with the interleaving explorers and
//! print the verdict, or the counterexample's timeline.

use sim_core::Lang;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sim_core::explore::{
    Bounds, Method, Phase, Progress, Report, Verdict, World, WorldOptions, classification, explore,
    move_label, safe_sentence,
};
use sim_core::{DesignSource, Preset, Protect};

use crate::report::{EXIT_BAD_INPUT, print_stdout, render_table};
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
    pub(crate) jobs: u8,
    pub(crate) cancel: bool,
    pub(crate) heartbeat: bool,
    pub(crate) restarted: bool,
    pub(crate) out: Option<PathBuf>,
    pub(crate) json: bool,
    pub(crate) all_presets: bool,
    pub(crate) lang: Lang,
}

#[allow(clippy::print_stderr)]
fn bad_input(message: &str) -> ExitCode {
    eprintln!("fencelab explore: {message}");
    ExitCode::from(EXIT_BAD_INPUT)
}

/// Resolves `--design`: a preset name, or a design file.
fn design_of(value: &str) -> Result<(sim_core::Design, DesignSource), ExitCode> {
    if let Some(preset) = Preset::from_name(value) {
        return Ok((preset.design(), DesignSource::Preset(preset)));
    }
    let path = Path::new(value);
    if !path.exists() {
        let names = Preset::ALL.map(Preset::name);
        let hint = match sim_core::closest(value, names) {
            Some(name) => format!("did you mean `{name}`?"),
            None => format!("presets: {}", names.join(", ")),
        };
        return Err(bad_input(&format!(
            "`{value}` is neither a design preset nor a file; {hint}"
        )));
    }
    let bytes = std::fs::read(path).map_err(|error| {
        bad_input(&format!(
            "{}: cannot read the file: {error}",
            path.display()
        ))
    })?;
    sim_core::parse_design(&bytes).map_err(|diagnostics| {
        #[allow(clippy::print_stderr)]
        for d in &diagnostics {
            eprintln!("{}:{}:{}: {}", path.display(), d.line, d.col, d.message);
        }
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

fn parse_targets(list: &str, default: Protect) -> Result<Vec<Protect>, ExitCode> {
    list.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(|item| {
            if item == "design" {
                return Ok(default);
            }
            Protect::ALL
                .into_iter()
                .find(|p| p.name() == item)
                .ok_or_else(|| {
                    let names = Protect::ALL.map(Protect::name);
                    let hint = sim_core::closest(item, names)
                        .map_or(format!("modes: {}", names.join(", ")), |n| {
                            format!("did you mean `{n}`?")
                        });
                    bad_input(&format!("unknown target protection `{item}`; {hint}"))
                })
        })
        .collect()
}

/// The world the options describe.
fn world_of(options: &ExploreOptions) -> Result<World, ExitCode> {
    let (design, source) = match &options.design {
        Some(value) => design_of(value)?,
        None => (Preset::Full.design(), DesignSource::Preset(Preset::Full)),
    };
    let mut world_options = WorldOptions::new(design, source);
    world_options.workers = options.workers;
    world_options.ttl = options.ttl;
    world_options.jobs = options.jobs;
    world_options.allow_cancel = options.cancel;
    world_options.heartbeat = options.heartbeat;
    world_options.restarted = options.restarted;
    world_options.seed = options.seed;
    world_options.bounds = Bounds {
        max_time: options.max_time,
        max_claims: options.max_claims,
        max_steps: options.max_steps,
    };
    if options.no_targets {
        world_options.targets = Some(Vec::new());
    } else if let Some(list) = &options.targets {
        world_options.targets = Some(parse_targets(list, design.target_protect)?);
    }
    world_options
        .world()
        .map_err(|error| bad_input(&error.to_string()))
}

fn method_of(options: &ExploreOptions) -> Method {
    if options.exhaustive {
        Method::Exhaustive
    } else {
        Method::Random {
            seed: options.seed,
            cases: options.cases,
        }
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
fn progress_bar(method: Method) -> ProgressBar {
    let bar = match method {
        Method::Random { cases, .. } => ProgressBar::new(u64::from(cases)),
        Method::Exhaustive => ProgressBar::new_spinner(),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr());
    let template = match method {
        Method::Random { .. } => "{spinner} {msg} [{bar:30}] {pos}/{len} cases",
        Method::Exhaustive => "{spinner} {msg}",
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

fn run_search(world: &World, method: Method) -> Result<(Report, u64), ExitCode> {
    let bar = progress_bar(method);
    let started = Instant::now();
    let mut observe = |progress: &Progress| {
        match progress.phase {
            Phase::Searching => {
                bar.set_position(u64::from(progress.cases));
                if progress.states > 0 {
                    bar.set_message(format!(
                        "exploring: {} states, {} transitions, depth {}",
                        progress.states, progress.transitions, progress.depth
                    ));
                } else {
                    bar.set_message("searching".to_owned());
                }
            }
            Phase::Shrinking => {
                bar.set_message(format!("shrinking: {} steps", progress.shrink_steps));
            }
        }
        true
    };
    let report =
        explore(world, method, &mut observe).map_err(|error| bad_input(&error.to_string()));
    bar.finish_and_clear();
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok((report?, elapsed_ms))
}

pub(crate) fn explore_command(options: &ExploreOptions) -> ExitCode {
    if options.all_presets {
        return classification_command(options);
    }
    let world = match world_of(options) {
        Ok(world) => world,
        Err(code) => return code,
    };
    let method = method_of(options);
    let (report, elapsed_ms) = match run_search(&world, method) {
        Ok(found) => found,
        Err(code) => return code,
    };
    if let Some(path) = &options.out {
        if let Some(found) = &report.counterexample {
            let text = sim_core::scenario_to_toml(&found.scenario);
            if let Err(error) = std::fs::write(path, text) {
                return bad_input(&format!("{}: cannot write: {error}", path.display()));
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

fn describe_world(world: &World) -> String {
    let design = Preset::of(&world.design).map_or_else(
        || {
            let d = world.design;
            format!(
                "custom design (commit: {}; renew: {}; token {}; lease clock {})",
                list_or_none(&d.commit_checks.names()),
                list_or_none(&d.renew_checks.names()),
                d.token.name(),
                d.lease_clock.name()
            )
        },
        |preset| preset.name().to_owned(),
    );
    let workers: Vec<&str> = world.workers.iter().map(|w| w.id.as_str()).collect();
    let targets: Vec<String> = world
        .targets
        .iter()
        .enumerate()
        .map(|(index, protect)| format!("{} ({})", world.target_id(index as u8), protect.name()))
        .collect();
    format!(
        "{design} · workers {} · {} job{} · targets {} · ttl {}{}{}",
        workers.join(", "),
        world.jobs,
        if world.jobs == 1 { "" } else { "s" },
        if targets.is_empty() {
            "none (job table only)".to_owned()
        } else {
            targets.join(", ")
        },
        world.ttl,
        if world.allow_cancel {
            " · the user may cancel"
        } else {
            ""
        },
        if world.heartbeat {
            " · heartbeat renews"
        } else {
            ""
        },
    )
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
}

fn render_report(
    report: &Report,
    elapsed_ms: u64,
    options: &ExploreOptions,
    style: Style,
) -> String {
    let world = &report.world;
    let mut out = String::new();
    let _ = writeln!(out, "{}", describe_world(world));
    let method = match report.method {
        Method::Random { seed, cases } => {
            format!("random exploration, seed {seed}, up to {cases} cases")
        }
        Method::Exhaustive => "exhaustive breadth-first search".to_owned(),
    };
    let _ = writeln!(
        out,
        "bounds: time ≤ {}, claims ≤ {}, moves per schedule ≤ {} · {method}",
        world.bounds.max_time, world.bounds.max_claims, world.bounds.max_steps
    );
    out.push('\n');
    let stats = &report.stats;
    match (&report.counterexample, report.verdict) {
        (Some(found), _) => {
            let labels: Vec<String> = found.moves.iter().map(|m| move_label(world, *m)).collect();
            let _ = writeln!(
                out,
                "{}",
                style.paint(
                    Tone::Bad,
                    &format!(
                        "‼ UNSAFE — counterexample of {} moves: {}",
                        found.moves.len(),
                        labels.join(" → ")
                    )
                )
            );
            let _ = writeln!(out, "{}", found.explanation.get(options.lang));
            out.push('\n');
            // The explanation is the scenario's description: shown once, above.
            let mut scenario = found.scenario.clone();
            scenario.description = None;
            let trace = sim_core::run(&scenario);
            out += &render_table(&scenario, &trace, style, options.lang);
            if report.shrink_history.len() > 1 {
                let lengths: Vec<String> = report
                    .shrink_history
                    .iter()
                    .map(|moves| moves.len().to_string())
                    .collect();
                let _ = writeln!(out, "\nshrinking: {} moves", lengths.join(" → "));
            }
        }
        (None, Verdict::Safe) => {
            let _ = writeln!(
                out,
                "{}",
                style.paint(
                    Tone::Good,
                    &format!("✓ {}", safe_sentence(report, options.lang))
                )
            );
        }
        (None, _) => {
            let _ = writeln!(out, "{}", safe_sentence(report, options.lang));
        }
    }
    let _ = writeln!(
        out,
        "\n{}",
        style.paint(
            Tone::Dim,
            &format!(
                "cases {} · states {} · transitions {} · shrink steps {} · depth {} · {elapsed_ms} ms",
                stats.cases, stats.states, stats.transitions, stats.shrink_steps, stats.depth
            )
        )
    );
    if let (Some(path), Some(_)) = (&options.out, &report.counterexample) {
        let _ = writeln!(
            out,
            "counterexample written to {} — replay it with: fencelab run {}",
            path.display(),
            path.display()
        );
    }
    out
}

/// `--all-presets`: the classification table, computed exhaustively.
fn classification_command(options: &ExploreOptions) -> ExitCode {
    let style = Style::for_stdout();
    let mut rows = Vec::new();
    let mut objects = Vec::new();
    for case in classification() {
        let Ok((report, elapsed_ms)) = run_search(&case.world, Method::Exhaustive) else {
            return ExitCode::from(EXIT_BAD_INPUT);
        };
        let shortest = report.counterexample.as_ref().map(|c| c.moves.len());
        objects.push(serde_json::json!({
            "design": case.name,
            "world": case.world_note.get(options.lang),
            "verdict": report.verdict.name(),
            "shortest_counterexample": shortest,
            "states": report.stats.states,
            "transitions": report.stats.transitions,
            "elapsed_ms": elapsed_ms,
            "explanation": report
                .counterexample
                .as_ref()
                .map_or_else(|| safe_sentence(&report, options.lang), |c| c.explanation.get(options.lang).to_owned()),
        }));
        rows.push((case, report));
    }
    if options.json {
        let text = serde_json::to_string_pretty(&objects).unwrap_or_default();
        return print_stdout(&(text + "\n"));
    }
    let mut out = String::from(
        "Every design in its world, explored exhaustively (time ≤ 12, claims ≤ 3):\n\n",
    );
    let name_width = rows
        .iter()
        .map(|(c, _)| c.name.chars().count())
        .max()
        .unwrap_or(0);
    let world_width = rows
        .iter()
        .map(|(c, _)| unicode_width::UnicodeWidthStr::width(c.world_note.get(options.lang)))
        .max()
        .unwrap_or(0);
    for (case, report) in &rows {
        let verdict = match report.verdict {
            Verdict::Unsafe => style.paint(Tone::Bad, "‼ unsafe"),
            Verdict::Safe => style.paint(Tone::Good, "✓ safe  "),
            Verdict::Cancelled => "cancelled".to_owned(),
        };
        let detail = match &report.counterexample {
            Some(found) => format!("shortest counterexample: {} moves", found.moves.len()),
            None => format!("{} states", report.stats.states),
        };
        let world_note = case.world_note.get(options.lang);
        let pad = world_width.saturating_sub(unicode_width::UnicodeWidthStr::width(world_note));
        let _ = writeln!(
            out,
            "{:name_width$}  {world_note}{}  {verdict}  {detail}",
            case.name,
            " ".repeat(pad),
        );
    }
    out += "\nReplay any row's counterexample: fencelab explore --design <preset> --exhaustive --out cex.toml && fencelab run cex.toml\n";
    print_stdout(&out)
}
