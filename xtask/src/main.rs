//! `cargo xtask test`: every check fencelab has, in the order a failure is
//! cheapest to see — the one command the README and `.ci/run` both give.
//! It installs what it needs that cargo alone does not (the wasm32 target).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("wasm-check") => wasm_check(),
        _ => {
            say("usage: cargo xtask test        run every check and test");
            say("       cargo xtask wasm-check  build sim-core for wasm32-unknown-unknown");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            say(&format!("xtask: {message}"));
            ExitCode::FAILURE
        }
    }
}

#[allow(clippy::print_stderr)]
fn say(line: &str) {
    eprintln!("{line}");
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn cargo() -> Command {
    let mut command = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()));
    command.current_dir(root());
    command
}

fn run(what: &str, command: &mut Command) -> Result<(), String> {
    say(&format!("\n==> {what}"));
    let status = command
        .status()
        .map_err(|error| format!("{what}: cannot start: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

fn test() -> Result<(), String> {
    run(
        "cargo fmt --check",
        cargo().args(["fmt", "--all", "--check"]),
    )?;
    run(
        "cargo clippy",
        cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    run("cargo test", cargo().args(["test", "--workspace"]))?;
    wasm_check()?;
    run(
        "benchmarks compile",
        cargo().args(["bench", "--workspace", "--no-run"]),
    )?;
    say("\nall checks passed");
    Ok(())
}

/// sim-core must build for the browser: no I/O, no clock, no threads.
fn wasm_check() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).contains("wasm32-unknown-unknown"))
        .unwrap_or(false);
    if !installed {
        run(
            "rustup target add wasm32-unknown-unknown",
            Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]),
        )?;
    }
    run(
        "sim-core builds for wasm32-unknown-unknown",
        cargo().args([
            "build",
            "-p",
            "sim-core",
            "--target",
            "wasm32-unknown-unknown",
        ]),
    )
}
