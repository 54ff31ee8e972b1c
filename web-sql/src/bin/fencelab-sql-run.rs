//! The native side of the page-versus-terminal check (web/tests/sql.test.mjs):
//! the same `run_plan` as the page's SQL engine, on the native SQLite.
//!
//! `fencelab-sql-run plan`: the takeover lab's plan (every slot) as JSON.
//! `fencelab-sql-run run`: reads `{"plan": …, "statements": …}` on stdin and
//! prints the `PlanRun` as JSON.

use std::io::{Read as _, Write as _};
use std::process::ExitCode;

use sim_core::sqllab::{Case, Slot, plan};
use strum::VariantArray as _;

/// The most this tool reads from stdin: a plan and its statements are a
/// few kilobytes; more is a mistake, not input.
const MAX_INPUT_BYTES: u64 = 1 << 20;

fn main() -> ExitCode {
    match go() {
        Ok(out) => {
            let mut stdout = std::io::stdout();
            if writeln!(stdout, "{out}").is_err() {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        // Bad input or usage, as every fencelab command says it.
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "fencelab-sql-run: {message}");
            ExitCode::from(2)
        }
    }
}

fn go() -> Result<String, String> {
    match std::env::args().nth(1).as_deref() {
        Some("plan") => {
            let scenario = Case::Takeover
                .scenario()
                .ok_or("the takeover case has no scenario")?;
            let lab = plan(&scenario, Slot::VARIANTS).map_err(|e| e.message(sim_core::Lang::En))?;
            serde_json::to_string(&lab).map_err(|e| e.to_string())
        }
        Some("run") => {
            let mut input = String::new();
            std::io::stdin()
                .take(MAX_INPUT_BYTES + 1)
                .read_to_string(&mut input)
                .map_err(|e| e.to_string())?;
            if input.len() as u64 > MAX_INPUT_BYTES {
                return Err(format!("stdin: more than {MAX_INPUT_BYTES} bytes"));
            }
            let value: serde_json::Value =
                serde_json::from_str(&input).map_err(|e| e.to_string())?;
            fencelab_web_sql::run_plan(&value["plan"].to_string(), &value["statements"].to_string())
        }
        _ => {
            Err("usage: fencelab-sql-run plan | run < {\"plan\": …, \"statements\": …}".to_owned())
        }
    }
}
