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
        Some("wasm-test") => wasm_test(),
        _ => {
            say("usage: cargo xtask test        run every check and test");
            say("       cargo xtask wasm-check  build the engine for wasm32-unknown-unknown");
            say(
                "       cargo xtask wasm-test   run the wasm tests under Node (installs wasm-bindgen-cli)",
            );
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
    run(
        "fencelab lint lessons/: every exercise solvable, every concept covered",
        cargo().args([
            "run", "--quiet", "-p", "fencelab", "--", "lint", "lessons", "--lang", "en",
        ]),
    )?;
    wasm_check()?;
    wasm_test()?;
    run(
        "benchmarks compile",
        cargo().args(["bench", "--workspace", "--no-run"]),
    )?;
    say("\nall checks passed");
    Ok(())
}

/// The engine must build for the browser: no I/O, no clock, no threads.
/// sim-core is built through the web crate, which alone turns on
/// getrandom's JavaScript backend.
fn wasm_check() -> Result<(), String> {
    ensure_wasm_target()?;
    run(
        "the engine builds for wasm32-unknown-unknown",
        cargo().args([
            "build",
            "-p",
            "fencelab-web",
            "--target",
            "wasm32-unknown-unknown",
            "--release",
        ]),
    )
}

fn ensure_wasm_target() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).contains("wasm32-unknown-unknown"))
        .unwrap_or(false);
    if installed {
        return Ok(());
    }
    run(
        "rustup target add wasm32-unknown-unknown",
        Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]),
    )
}

/// The `wasm-bindgen` version Cargo.lock pins: the CLI must match it.
fn locked_wasm_bindgen() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|error| format!("cannot read Cargo.lock: {error}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\"" {
            if let Some(version) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
            {
                return Ok(version.to_owned());
            }
        }
    }
    Err("Cargo.lock pins no wasm-bindgen".to_owned())
}

/// Installs the `wasm-bindgen` CLI (and its test runner) at the locked
/// version, unless that version is already on the PATH. Built from source by
/// cargo: no prebuilt binary is downloaded.
fn ensure_wasm_bindgen_cli() -> Result<(), String> {
    let version = locked_wasm_bindgen()?;
    let current = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_default();
    if current.ends_with(&version) {
        return Ok(());
    }
    run(
        &format!("cargo install wasm-bindgen-cli --version ={version} (a few minutes, once)"),
        Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())).args([
            "install",
            "wasm-bindgen-cli",
            "--version",
            &format!("={version}"),
        ]),
    )
}

/// The engine compiled to WebAssembly, under Node: the bindings' own tests
/// (`wasm-bindgen-test-runner`) and the determinism test that compares the
/// wasm explorers with the native `fencelab explore --json`.
fn wasm_test() -> Result<(), String> {
    ensure_wasm_target()?;
    ensure_wasm_bindgen_cli()?;
    run(
        "wasm tests of the bindings under Node",
        cargo()
            .args([
                "test",
                "-p",
                "fencelab-web",
                "--target",
                "wasm32-unknown-unknown",
            ])
            .env(
                "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
                "wasm-bindgen-test-runner",
            ),
    )?;
    wasm_check()?;
    let out_dir = root().join("target/wasm-node");
    let wasm = root().join("target/wasm32-unknown-unknown/release/fencelab_web.wasm");
    run(
        "wasm-bindgen --target nodejs",
        Command::new("wasm-bindgen")
            .arg("--target")
            .arg("nodejs")
            .arg("--out-dir")
            .arg(&out_dir)
            .arg(&wasm),
    )?;
    run(
        "the native fencelab binary",
        cargo().args(["build", "-p", "fencelab"]),
    )?;
    let bin = root().join("target/debug/fencelab");
    run(
        "node --test: native and wasm give the same answers",
        Command::new("node")
            .args(["--test", "web/tests/"])
            .current_dir(root())
            .env("FENCELAB_BIN", &bin)
            .env("FENCELAB_WASM_NODE", out_dir.join("fencelab_web.js")),
    )
}
