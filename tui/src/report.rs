//! `fencelab run`: replay a scenario file and print the trace as a table or
//! as JSON.

use sim_core::Lang;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use sim_core::{Outcome, Preset, Scenario, Trace, ViolationKind};
use unicode_width::UnicodeWidthStr;

use crate::style::{Style, Tone};

/// Exit status for invalid input (files, arguments).
pub(crate) const EXIT_BAD_INPUT: u8 = 2;

/// Reads and validates a scenario file, printing `FILE:LINE:COL: message`
/// for every problem on stderr.
pub(crate) fn load_scenario(path: &Path) -> Result<Scenario, ExitCode> {
    let shown = path.display();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprint_lines(&[format!("{shown}: cannot read the file: {error}")]);
            return Err(ExitCode::from(EXIT_BAD_INPUT));
        }
    };
    sim_core::parse_scenario(&bytes).map_err(|diagnostics| {
        let lines: Vec<String> = diagnostics
            .iter()
            .map(|d| format!("{shown}:{}:{}: {}", d.line, d.col, d.message))
            .collect();
        eprint_lines(&lines);
        ExitCode::from(EXIT_BAD_INPUT)
    })
}

#[allow(clippy::print_stderr)]
fn eprint_lines(lines: &[String]) {
    for line in lines {
        eprintln!("{line}");
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
    let scenario = match load_scenario(path) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let trace = sim_core::run(&scenario);
    if json {
        let object = trace.to_json(&scenario);
        let text = serde_json::to_string_pretty(&object).unwrap_or_default();
        print_stdout(&(text + "\n"))
    } else {
        print_stdout(&render_table(&scenario, &trace, Style::for_stdout(), lang))
    }
}

/// The design as a reader would name it.
fn design_label(scenario: &Scenario) -> String {
    match Preset::of(&scenario.design) {
        Some(preset) => preset.name().to_owned(),
        None => {
            let d = scenario.design;
            format!(
                "custom (commit: {}; renew: {}; token {}; lease clock {}; targets {})",
                list_or_none(&d.commit_checks.names()),
                list_or_none(&d.renew_checks.names()),
                d.token.name(),
                d.lease_clock.name(),
                d.target_protect.name()
            )
        }
    }
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(", ")
    }
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

pub(crate) fn render_table(scenario: &Scenario, trace: &Trace, style: Style, lang: Lang) -> String {
    let mut out = String::new();
    let title = scenario.title.get(lang);
    let _ = writeln!(out, "{}  ({})", style.paint(Tone::Bold, title), scenario.id);
    if let Some(description) = &scenario.description {
        let _ = writeln!(out, "{}", style.paint(Tone::Dim, description.get(lang)));
    }
    let targets: Vec<String> = scenario
        .targets
        .iter()
        .map(|t| format!("{} ({})", t.id, t.protect.name()))
        .collect();
    let workers: Vec<&str> = scenario.workers.iter().map(|w| w.id.as_str()).collect();
    let _ = writeln!(
        out,
        "design {} · ttl {} · workers {} · jobs {} · targets {}",
        design_label(scenario),
        scenario.ttl,
        workers.join(", "),
        scenario.jobs.join(", "),
        if targets.is_empty() {
            "none".to_owned()
        } else {
            targets.join(", ")
        }
    );
    out.push('\n');

    let header = [
        "#", "at", "worker", "do", "job", "target", "outcome", "token", "gen", "",
    ];
    let mut rows: Vec<[String; 10]> = Vec::with_capacity(scenario.steps.len());
    for (index, (step, record)) in scenario.steps.iter().zip(&trace.steps).enumerate() {
        let mut outcome = format!("{} {}", record.outcome.symbol(), record.outcome.name());
        if let Some(failed) = record.failed_checks.filter(|f| !f.is_empty()) {
            let _ = write!(outcome, ": {}", failed.names().join(", "));
        }
        if let Some(reason) = record.reason {
            let _ = write!(outcome, " ({})", reason.name().replace('_', " "));
        }
        if let Some(valid) = record.lease_valid {
            outcome += if valid {
                " lease valid"
            } else {
                " lease invalid"
            };
        }
        if let Some(waited) = record.waited_until {
            let _ = write!(outcome, " after waiting until {waited}");
        }
        let mut marks = Vec::new();
        for violation in trace.violations.iter().filter(|v| v.step == index as u32) {
            marks.push(format!("‼ {}", violation.kind.name()));
        }
        if marks.is_empty() && trace.should_reject.contains(&(index as u32)) {
            marks.push("(had to be refused)".to_owned());
        }
        if record.expired == Some(true) {
            marks.push("lease expired".to_owned());
        }
        rows.push([
            index.to_string(),
            step.at.to_string(),
            step.worker
                .map_or("user".to_owned(), |w| scenario.worker_id(w).to_owned()),
            step.action.name().to_owned(),
            record
                .job
                .map(|j| scenario.job_id(j).to_owned())
                .unwrap_or_default(),
            step.target
                .map(|t| scenario.target_id(t).to_owned())
                .unwrap_or_default(),
            outcome,
            record.token.map(|t| t.to_string()).unwrap_or_default(),
            record.generation.map(|g| g.to_string()).unwrap_or_default(),
            marks.join(" · "),
        ]);
    }
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
        let record = &trace.steps[index];
        let tone = if trace.is_violation(index as u32) {
            Some(Tone::Bad)
        } else {
            match record.outcome {
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
                style.paint(Tone::Dim, &format!("└ {}", note.get(lang)))
            );
        }
    }
    out.push('\n');
    out += &render_summary(scenario, trace, style);
    out
}

fn render_summary(scenario: &Scenario, trace: &Trace, style: Style) -> String {
    let mut out = String::new();
    if trace.violations.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            style.paint(
                Tone::Good,
                "✓ no violations: no stale or after-terminal effect took place"
            )
        );
    } else {
        let count = trace.violations.len();
        let _ = writeln!(
            out,
            "{}",
            style.paint(
                Tone::Bad,
                &format!("‼ {count} violation{}:", if count == 1 { "" } else { "s" })
            )
        );
        for violation in &trace.violations {
            let step = &scenario.steps[violation.step as usize];
            let record = &trace.steps[violation.step as usize];
            let who = step.worker.map_or("the user", |w| scenario.worker_id(w));
            let generation = record.generation.unwrap_or(0);
            let why = match violation.kind {
                ViolationKind::Stale => format!(
                    "{who} held generation {generation}, but a newer generation had already been granted"
                ),
                ViolationKind::AfterTerminal => {
                    "the job had already been cancelled or ended by another generation".to_owned()
                }
            };
            let target = step
                .target
                .map(|t| format!(" to {}", scenario.target_id(t)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  step {} ({} {}{target}) took effect although {why} [{}]",
                violation.step,
                who,
                step.action.name(),
                violation.kind.name()
            );
        }
    }
    let refused: Vec<String> = trace
        .should_reject
        .iter()
        .filter(|step| !trace.is_violation(**step))
        .map(u32::to_string)
        .collect();
    if !refused.is_empty() {
        let _ = writeln!(
            out,
            "✓ refused as they had to be: steps {}",
            refused.join(", ")
        );
    }
    if !trace.reconcile.is_empty() {
        let steps: Vec<String> = trace.reconcile.iter().map(u32::to_string).collect();
        let _ = writeln!(
            out,
            "↻ to reconcile (remote effects made before the cancel; cancelling did not undo them): steps {}",
            steps.join(", ")
        );
    }
    for ((job, row), generations) in scenario
        .jobs
        .iter()
        .zip(&trace.final_rows)
        .zip(&trace.generations)
    {
        let owner = row.owner.map_or("nobody", |o| scenario.owner_id(o));
        let _ = writeln!(
            out,
            "job {job}: {} · owner {owner} · fence {} · lease until {} · {generations} generation{} granted",
            row.state.name(),
            row.fence,
            row.lease_until
                .map_or("never leased".to_owned(), |t| t.to_string()),
            if *generations == 1 { "" } else { "s" }
        );
    }
    for (target, state) in scenario.targets.iter().zip(&trace.final_targets) {
        let value = state
            .value
            .as_ref()
            .map_or("nothing".to_owned(), |(value, step)| {
                format!("\"{value}\" (step {step})")
            });
        let mut extra = String::new();
        if !state.drafts.is_empty() {
            let _ = write!(extra, " · {} draft(s)", state.drafts.len());
        }
        let _ = writeln!(out, "target {}: holds {value}{extra}", target.id);
    }
    out
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
        let scenario = sim_core::parse_scenario(source).unwrap_or_else(|e| panic!("{e:?}"));
        let trace = sim_core::run(&scenario);
        let table = render_table(&scenario, &trace, Style::plain(), Lang::En);
        assert!(table.contains("‼ stale"), "{table}");
        assert!(!table.contains('\x1b'), "no escape codes without colour");
        assert!(table.contains("1 violation"), "{table}");
    }
}
