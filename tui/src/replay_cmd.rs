//! `fencelab run FILE --db …`: the replay (crate `fencelab-replay`) runs the
//! scenario's statements on the database; this prints its table and
//! findings under the model's, or its `db` object in the JSON.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use fencelab_replay::{DbJson, DbStep, ReplayError};
use sim_core::{Lang, Outcome, Scenario};

use crate::report::{EXIT_BAD_INPUT, load_scenario_in, print_stdout};
use crate::style::{Style, Tone, inert};

pub(crate) fn run_on_db(path: &Path, db: &str, json: bool, lang: Lang) -> ExitCode {
    let scenario = match load_scenario_in(path, lang) {
        Ok(scenario) => scenario,
        Err(code) => return code,
    };
    let trace = sim_core::run(&scenario);
    let db_json = match fencelab_replay::replay_db(&scenario, &trace, db, lang) {
        Ok(db_json) => db_json,
        Err(error) => {
            // The scenario or the `--db` value, whichever is to blame.
            let line = match &error {
                ReplayError::Scenario(message) => {
                    format!("{}: {}", path.display(), inert(message))
                }
                ReplayError::Db { .. } => inert(&error.to_string()).into_owned(),
            };
            #[allow(clippy::print_stderr)]
            {
                eprintln!("{line}");
            }
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    if json {
        crate::run_json::print_run_json(trace.run_json(&scenario), Some(db_json))
    } else {
        let mut out = crate::report::render_table(&scenario, &trace, Style::for_stdout(), lang);
        out.push_str(&render_db(&scenario, &db_json, Style::for_stdout(), lang));
        print_stdout(&out)
    }
}

/// The replay's table: per step the statement's result on the database and
/// whether it agrees with the model; then the findings.
fn render_db(scenario: &Scenario, db: &DbJson, style: Style, lang: Lang) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{}",
        style.paint(
            Tone::Bold,
            &match lang {
                Lang::En => format!("The same statements on {}:", db.engine),
                Lang::Zh => format!("同样的语句在 {} 上：", db.engine),
            }
        )
    );
    for step in &db.steps {
        let Some(sql) = &step.sql else { continue };
        let s = &scenario.steps[step.i];
        let who = s
            .worker
            .map_or(lang.pick("user", "用户"), |w| scenario.worker_id(w));
        let result = step_result(step, lang);
        let mark = if step.agrees {
            style.paint(Tone::Good, "✓")
        } else {
            style.paint(Tone::Bad, "✗")
        };
        let line = format!(
            "{mark} {:>3} {:>4} {:<4} {:<18} {}",
            step.i,
            s.at,
            inert(who),
            s.action.name(),
            inert(&result)
        );
        let _ = writeln!(out, "{line}");
        let _ = writeln!(out, "      {}", style.paint(Tone::Dim, &inert(sql)));
        if !step.bindings.is_empty() {
            let _ = writeln!(
                out,
                "      {}",
                style.paint(Tone::Dim, &inert(&step.bindings))
            );
        }
    }
    write_findings(&mut out, db, style, lang);
    out
}

/// What a statement did on the database: not sent, waiting, rolled back,
/// an error, or its rows and what it read.
fn step_result(step: &DbStep, lang: Lang) -> String {
    if !step.sent {
        return lang.pick("not sent", "未发送").to_owned();
    }
    if step.waiting {
        return lang
            .pick("◷ still waiting for a row lock", "◷ 仍在等待行锁")
            .to_owned();
    }
    if step.deadlock {
        return lang
            .pick("✗ deadlock: rolled back", "✗ 死锁：已回滚")
            .to_owned();
    }
    if step.lock_not_available {
        return lang
            .pick(
                "✗ row locked, NOWAIT failed: rolled back",
                "✗ 行已被锁，NOWAIT 失败：已回滚",
            )
            .to_owned();
    }
    if let Some(error) = &step.error {
        return format!("{} {error}", lang.pick("error:", "错误："));
    }
    let mut parts: Vec<String> = Vec::new();
    if let Some(rows) = step.rows {
        parts.push(match lang {
            Lang::En if rows == 1 => "1 row".to_owned(),
            Lang::En => format!("{rows} rows"),
            Lang::Zh => format!("{rows} 行"),
        });
    }
    if let Some(fence) = step.fence {
        parts.push(format!("fence {fence}"));
    }
    if let Some(job) = &step.job {
        parts.push(job.clone());
    }
    if let Some(claimable) = step.claimable {
        parts.push(
            match (claimable, lang) {
                (true, Lang::En) => "claimable",
                (false, Lang::En) => "not claimable",
                (true, Lang::Zh) => "可领取",
                (false, Lang::Zh) => "不可领取",
            }
            .to_owned(),
        );
    }
    if let Some(valid) = step.lease_valid {
        parts.push(
            match (valid, lang) {
                (true, Lang::En) => "lease valid",
                (false, Lang::En) => "lease invalid",
                (true, Lang::Zh) => "租约有效",
                (false, Lang::Zh) => "租约无效",
            }
            .to_owned(),
        );
    }
    if let Some(until) = step.waited_until {
        parts.push(match lang {
            Lang::En => format!("ran at {until} after a lock wait"),
            Lang::Zh => format!("等锁后在 {until} 执行"),
        });
    }
    if parts.is_empty() {
        parts.push(sim_core::outcome_label(Outcome::Ok, lang).to_owned());
    }
    parts.join(lang.pick(", ", "，"))
}

/// The findings: the steps where the database disagrees with the model,
/// and how; or that it agrees at every step.
fn write_findings(out: &mut String, db: &DbJson, style: Style, lang: Lang) {
    let findings: Vec<&DbStep> = db.steps.iter().filter(|s| !s.agrees).collect();
    if findings.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            style.paint(
                Tone::Good,
                lang.pick(
                    "✓ The database agrees with the model at every step.",
                    "✓ 数据库在每一步都与模型一致。"
                )
            )
        );
    } else {
        let _ = writeln!(
            out,
            "\n{}",
            style.paint(
                Tone::Bad,
                &match lang {
                    Lang::En => format!(
                        "‼ Findings: the database disagrees with the model at {} step(s):",
                        findings.len()
                    ),
                    Lang::Zh => format!("‼ 发现：数据库在 {} 步与模型不一致：", findings.len()),
                }
            )
        );
        for step in findings {
            let said = inert(&step.differences.join(lang.pick("; ", "；"))).into_owned();
            let _ = match lang {
                Lang::En => writeln!(out, "  step {}: {said}", step.i),
                Lang::Zh => writeln!(out, "  第 {} 步：{said}", step.i),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's example replayed on SQLite (every step agrees).
    fn article() -> (Scenario, DbJson) {
        let text = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/01-article-stale-finish.toml"
        ))
        .unwrap_or_default();
        let Ok(scenario) = sim_core::parse_scenario(&text) else {
            panic!("the example parses");
        };
        let trace = sim_core::run(&scenario);
        let db = fencelab_replay::replay_db(&scenario, &trace, "sqlite", Lang::En);
        let Ok(db) = db else {
            panic!("the article replays on SQLite: {db:?}");
        };
        (scenario, db)
    }

    #[test]
    fn a_nowait_refused_by_the_database_is_drawn_in_chinese() {
        let (scenario, mut db) = article();
        db.steps[0].lock_not_available = true;
        let shown = render_db(&scenario, &db, Style::plain(), Lang::Zh);
        assert!(shown.contains("✗ 行已被锁，NOWAIT 失败：已回滚"), "{shown}");
    }

    #[test]
    fn findings_are_listed_in_both_languages() {
        let (scenario, mut db) = article();
        for lang in [Lang::En, Lang::Zh] {
            db.steps[0].agrees = false;
            db.steps[0].differences = vec![
                lang.pick("rows: model 1, database 0", "行数：模型 1，数据库 0")
                    .to_owned(),
            ];
            let shown = render_db(&scenario, &db, Style::plain(), lang);
            let expected = lang.pick(
                "step 0: rows: model 1, database 0",
                "第 0 步：行数：模型 1，数据库 0",
            );
            assert!(shown.contains(expected), "{shown}");
            assert!(shown.contains('‼'), "{shown}");
        }
    }
}
