//! `fencelab run`: replay a scenario file and print the trace as a table or
//! as JSON.

use sim_core::Lang;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use sim_core::{
    Outcome, Scenario, Trace, job_state_label, outcome_label, reason_label, violation_label,
};
use unicode_width::UnicodeWidthStr;

use crate::style::{Style, Tone, inert, inert_lines};

/// Exit status for invalid input (files, arguments).
pub(crate) const EXIT_BAD_INPUT: u8 = 2;

/// Why a scenario file could not be loaded.
#[derive(Debug)]
pub(crate) enum LoadError {
    Read {
        path: String,
        error: crate::input::ReadError,
    },
    /// The file's mistakes, each with its line and column.
    Invalid {
        path: String,
        diagnostics: Vec<sim_core::Diagnostic>,
    },
}

impl LoadError {
    /// One line per problem, as `FILE:LINE:COL: message` for mistakes in
    /// the file.
    pub(crate) fn lines(&self, lang: Lang) -> Vec<String> {
        match self {
            LoadError::Read { path, error } => vec![error.line(path, lang)],
            LoadError::Invalid { path, diagnostics } => diagnostics
                .iter()
                .map(|d| format!("{path}:{}:{}: {}", d.line, d.col, d.message_in(lang)))
                .collect(),
        }
    }
}

/// An I/O error in Chinese where its kind says enough; else the system's
/// own words.
pub(crate) fn io_error_zh(error: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::NotFound => "文件不存在".to_owned(),
        ErrorKind::PermissionDenied => "没有权限".to_owned(),
        ErrorKind::IsADirectory => "这是一个文件夹".to_owned(),
        ErrorKind::InvalidData => "内容无效".to_owned(),
        ErrorKind::AddrInUse => "端口已被占用".to_owned(),
        ErrorKind::AddrNotAvailable => "地址不可用".to_owned(),
        _ => error.to_string(),
    }
}

/// In English; [`LoadError::lines`] gives either language.
impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.lines(Lang::En).join("\n"))
    }
}

impl std::error::Error for LoadError {}

/// Reads and validates a scenario file.
pub(crate) fn read_scenario(path: &Path) -> Result<Scenario, LoadError> {
    let shown = path.display().to_string();
    let bytes =
        crate::input::read_file(path, crate::input::InputKind::Scenario).map_err(|error| {
            LoadError::Read {
                path: shown.clone(),
                error,
            }
        })?;
    sim_core::parse_scenario(&bytes).map_err(|diagnostics| LoadError::Invalid {
        path: shown,
        diagnostics,
    })
}

/// Reads and validates a scenario file, printing every problem on stderr
/// in `lang`.
pub(crate) fn load_scenario_in(path: &Path, lang: Lang) -> Result<Scenario, ExitCode> {
    read_scenario(path).map_err(|error| {
        eprint_lines(&error.lines(lang));
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

#[allow(clippy::print_stderr)]
fn eprint_lines(lines: &[String]) {
    for line in lines {
        // A message may quote the file.
        eprintln!("{}", inert_lines(line));
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
pub(crate) fn print_stdout(text: &str) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

pub(crate) fn run_command(path: &Path, json: bool, lang: Lang) -> ExitCode {
    let scenario = match load_scenario_in(path, lang) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let trace = sim_core::run(&scenario);
    if json {
        crate::run_json::print_run_json(trace.run_json(&scenario), None)
    } else {
        print_stdout(&render_table(&scenario, &trace, Style::for_stdout(), lang))
    }
}

/// The design as a reader would name it: a preset's name, or its knobs
/// (sim-core's words, which the page draws too).
pub(crate) fn design_label(design: &sim_core::Design, lang: Lang) -> String {
    sim_core::design_words(design, lang)
}

/// Pads `text` to `width` terminal columns (CJK characters count double).
pub(crate) fn pad(text: &str, width: usize) -> String {
    let shown = text.width();
    format!("{text}{}", " ".repeat(width.saturating_sub(shown)))
}

fn pad_left(text: &str, width: usize) -> String {
    let shown = text.width();
    format!("{}{text}", " ".repeat(width.saturating_sub(shown)))
}

/// The outcome column: symbol, outcome, false checks, reason, what a check
/// learned, and how long the step waited.
fn outcome_cell(record: &sim_core::StepTrace, lang: Lang) -> String {
    let mut cell = format!(
        "{} {}",
        record.outcome.symbol(),
        outcome_label(record.outcome, lang)
    );
    if let Some(failed) = record.failed_checks.filter(|f| !f.is_empty()) {
        let _ = write!(
            cell,
            "{}{}",
            lang.pick(": ", "："),
            failed.names().join(lang.pick(", ", "、"))
        );
    }
    if let Some(reason) = record.reason {
        let _ = match lang {
            Lang::En => write!(cell, " ({})", reason_label(reason, lang)),
            Lang::Zh => write!(cell, "（{}）", reason_label(reason, lang)),
        };
    }
    if let Some(valid) = record.lease_valid {
        cell += match (valid, lang) {
            (true, Lang::En) => " lease valid",
            (false, Lang::En) => " lease invalid",
            (true, Lang::Zh) => "，租约有效",
            (false, Lang::Zh) => "，租约无效",
        };
    }
    if let Some(waited) = record.waited_until {
        let _ = match lang {
            Lang::En => write!(cell, " after waiting until {waited}"),
            Lang::Zh => write!(cell, "，等到 {waited} 才执行"),
        };
    }
    cell
}

/// The scenario's title, description and world in a few lines.
fn render_heading(scenario: &Scenario, style: Style, lang: Lang) -> String {
    let mut out = String::new();
    // Text from the file is made inert before it is painted or printed.
    let title = inert(scenario.title.get(lang));
    let id = inert(&scenario.id);
    let _ = writeln!(out, "{}  ({id})", style.paint(Tone::Bold, &title));
    if let Some(description) = &scenario.description {
        let description = inert_lines(description.get(lang));
        let _ = writeln!(out, "{}", style.paint(Tone::Dim, &description));
    }
    let targets: Vec<String> = scenario
        .targets
        .iter()
        .map(|t| {
            let batch = if t.check_batch { ", check_batch" } else { "" };
            format!("{} ({}{batch})", t.id, t.protect.name())
        })
        .collect();
    let workers: Vec<&str> = scenario.workers.iter().map(|w| w.id.as_str()).collect();
    let (design, ttl) = (design_label(&scenario.design, lang), scenario.ttl);
    let workers = workers.join(", ");
    let jobs = scenario.jobs.join(", ");
    let targets = if targets.is_empty() {
        lang.pick("none", "无").to_owned()
    } else {
        targets.join(", ")
    };
    let world = match lang {
        Lang::En => {
            format!(
                "design {design} · ttl {ttl} · workers {workers} · jobs {jobs} · targets {targets}"
            )
        }
        Lang::Zh => {
            format!(
                "设计 {design} · 租约时长 {ttl} · Worker {workers} · 任务 {jobs} · 目标 {targets}"
            )
        }
    };
    let _ = writeln!(out, "{}", inert(&world));
    out
}

/// The table's cells for step `index`.
fn step_row(scenario: &Scenario, trace: &Trace, index: usize, lang: Lang) -> [String; 10] {
    let (step, record) = (&scenario.steps[index], &trace.steps[index]);
    let mut marks = Vec::new();
    for violation in trace.violations.iter().filter(|v| v.step == index as u32) {
        marks.push(format!("‼ {}", violation_label(violation.kind, lang)));
    }
    if marks.is_empty() && trace.should_reject.contains(&(index as u32)) {
        marks.push(lang.pick("(had to be refused)", "（必须拒绝）").to_owned());
    }
    if record.expired == Some(true) {
        marks.push(lang.pick("lease expired", "租约已过期").to_owned());
    }
    let id = |found: Option<&str>| found.unwrap_or_default().to_owned();
    [
        index.to_string(),
        step.at.to_string(),
        scenario
            .acting_worker(index)
            .map_or(lang.pick("user", "用户"), |w| scenario.worker_id(w))
            .to_owned(),
        step.action.name().to_owned(),
        id(record.job.map(|j| scenario.job_id(j))),
        id(step
            .target
            .or_else(|| scenario.sender_of(index).and_then(|s| s.target))
            .map(|t| scenario.target_id(t))),
        outcome_cell(record, lang),
        record.token.map(|t| t.to_string()).unwrap_or_default(),
        record.generation.map(|g| g.to_string()).unwrap_or_default(),
        marks.join(" · "),
    ]
    // Names come from the file; the cells are measured and painted later.
    .map(|cell| inert(&cell).into_owned())
}

pub(crate) fn render_table(scenario: &Scenario, trace: &Trace, style: Style, lang: Lang) -> String {
    let mut out = render_heading(scenario, style, lang);
    out.push('\n');
    let header = match lang {
        Lang::En => [
            "#", "at", "worker", "do", "job", "target", "outcome", "token", "gen", "",
        ],
        Lang::Zh => [
            "#", "tick", "Worker", "动作", "任务", "目标", "结果", "令牌", "代次", "",
        ],
    };
    let rows: Vec<[String; 10]> = (0..scenario.steps.len().min(trace.steps.len()))
        .map(|index| step_row(scenario, trace, index, lang))
        .collect();
    let mut widths = header.map(UnicodeWidthStr::width);
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.width());
        }
    }
    let numeric = [
        true, true, false, false, false, false, false, true, true, false,
    ];
    let line = |cells: &[String; 10]| -> String {
        let mut text = String::new();
        for (column, cell) in cells.iter().enumerate() {
            if column + 1 == cells.len() {
                text += cell;
            } else if numeric[column] {
                text += &pad_left(cell, widths[column]);
                text += "  ";
            } else {
                text += &pad(cell, widths[column]);
                text += "  ";
            }
        }
        text.trim_end().to_owned()
    };
    let header_cells = header.map(str::to_owned);
    let _ = writeln!(out, "{}", style.paint(Tone::Dim, &line(&header_cells)));
    for (index, row) in rows.iter().enumerate() {
        let text = line(row);
        let tone = if trace.is_violation(index as u32) {
            Some(Tone::Bad)
        } else {
            match trace.steps[index].outcome {
                Outcome::Rejected => Some(Tone::Warn),
                Outcome::Noop | Outcome::Waiting => Some(Tone::Dim),
                Outcome::Ok | Outcome::Duplicate => None,
            }
        };
        let _ = writeln!(
            out,
            "{}",
            tone.map_or(text.clone(), |tone| style.paint(tone, &text))
        );
        if let Some(note) = &scenario.steps[index].note {
            let indent = " ".repeat(widths[0] + 2);
            let _ = writeln!(
                out,
                "{indent}{}",
                style.paint(Tone::Dim, &format!("└ {}", inert(note.get(lang))))
            );
        }
    }
    out.push('\n');
    out += &render_summary(scenario, trace, style, lang);
    out += &render_final_state(scenario, trace, lang);
    out
}

/// sim-core's summary of the replay, painted.
fn render_summary(scenario: &Scenario, trace: &Trace, style: Style, lang: Lang) -> String {
    let mut out = String::new();
    for line in sim_core::trace_summary(scenario, trace, lang) {
        let text = inert(&line.text);
        let _ = match (line.item, line.tone) {
            (true, _) => writeln!(out, "  {text}"),
            (false, sim_core::SummaryTone::Good) => {
                writeln!(out, "{}", style.paint(Tone::Good, &text))
            }
            (false, sim_core::SummaryTone::Bad) => {
                writeln!(out, "{}", style.paint(Tone::Bad, &text))
            }
            (false, sim_core::SummaryTone::Todo) => writeln!(out, "{text}"),
        };
    }
    out
}

/// The job table and the targets at the end.
fn render_final_state(scenario: &Scenario, trace: &Trace, lang: Lang) -> String {
    let mut out = String::new();
    for ((job, row), generations) in scenario
        .jobs
        .iter()
        .zip(&trace.final_rows)
        .zip(&trace.generations)
    {
        let owner = row
            .owner
            .map_or(lang.pick("nobody", "无"), |o| scenario.owner_id(o));
        let state = job_state_label(row.state, lang);
        let fence = row.fence;
        let until = row.lease_until.map_or_else(
            || lang.pick("never leased", "从未租出").to_owned(),
            |t| t.to_string(),
        );
        let _ = match lang {
            Lang::En => writeln!(
                out,
                "job {job}: {state} · owner {owner} · fence {fence} · lease until {until} · {generations} generation{} granted",
                if *generations == 1 { "" } else { "s" }
            ),
            Lang::Zh => writeln!(
                out,
                "任务 {job}：{state} · owner {owner} · fence {fence} · 租约到 {until} · 共领取 {generations} 代"
            ),
        };
    }
    for (target, state) in scenario.targets.iter().zip(&trace.final_targets) {
        let value = state.value.as_ref().map_or_else(
            || lang.pick("nothing", "空").to_owned(),
            |(value, step)| match lang {
                Lang::En => format!("\"{value}\" (step {step})"),
                Lang::Zh => format!("\"{value}\"（第 {step} 步）"),
            },
        );
        let drafts = state.drafts.len();
        let id = &target.id;
        let _ = match (drafts, lang) {
            (0, Lang::En) => writeln!(out, "target {id}: holds {value}"),
            (_, Lang::En) => writeln!(out, "target {id}: holds {value} · {drafts} draft(s)"),
            (0, Lang::Zh) => writeln!(out, "目标 {id}：值为 {value}"),
            (_, Lang::Zh) => writeln!(out, "目标 {id}：值为 {value} · {drafts} 个草稿"),
        };
    }
    // Job, owner and target names and the values come from the file; the
    // text has no colour of its own.
    inert_lines(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_marks_violations_without_colour() {
        let source = br#"
            id = "t"
            ttl = 5
            workers = ["A", "B"]
            design = "ttl-lock-only"
            steps = [
              { at = 0, worker = "A", do = "claim" },
              { at = 6, worker = "B", do = "claim" },
              { at = 7, worker = "A", do = "finish" },
            ]
        "#;
        let scenario = sim_core::parse_scenario(source).unwrap();
        let trace = sim_core::run(&scenario);
        let table = render_table(&scenario, &trace, Style::plain(), Lang::En);
        assert!(table.contains("‼ stale"), "{table}");
        assert!(!table.contains('\x1b'), "no escape codes without colour");
        assert!(table.contains("1 violation"), "{table}");
    }
}
