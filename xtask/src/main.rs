//! `cargo xtask test`: every check fencelab has, in the order a failure is
//! cheapest to see — the one command the README and `.ci/run` both give.
//! It installs what it needs that cargo alone does not (the wasm32 target,
//! the matching wasm-bindgen CLI). `cargo xtask web` builds the browser
//! page into `web/dist/`.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(),
        Some("wasm-check") => wasm_check(),
        Some("wasm-test") => wasm_test(),
        Some("web") => web(),
        _ => {
            say("usage: cargo xtask test        run every check and test");
            say("       cargo xtask wasm-check  build the engine for wasm32-unknown-unknown");
            say(
                "       cargo xtask wasm-test   run the wasm tests under Node (installs wasm-bindgen-cli)",
            );
            say("       cargo xtask web         build the browser page into web/dist/");
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

/// The browser page: the wasm in the size-oriented `wasm-release` profile,
/// `wasm-bindgen --target web` into `web/dist/`, the static files beside
/// it, and the sizes (raw and gzipped) of what a browser downloads.
fn web() -> Result<(), String> {
    ensure_wasm_target()?;
    ensure_wasm_bindgen_cli()?;
    run(
        "the page's wasm (profile wasm-release)",
        cargo().args([
            "build",
            "-p",
            "fencelab-web",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "wasm-release",
        ]),
    )?;
    let dist = root().join("web/dist");
    if dist.exists() {
        std::fs::remove_dir_all(&dist)
            .map_err(|error| format!("cannot clear {}: {error}", dist.display()))?;
    }
    let wasm = root().join("target/wasm32-unknown-unknown/wasm-release/fencelab_web.wasm");
    run(
        "wasm-bindgen --target web",
        Command::new("wasm-bindgen")
            .args(["--target", "web", "--no-typescript", "--out-dir"])
            .arg(&dist)
            .arg(&wasm),
    )?;
    let static_dir = root().join("web/static");
    let entries = std::fs::read_dir(&static_dir)
        .map_err(|error| format!("cannot read {}: {error}", static_dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() {
            let to = dist.join(entry.file_name());
            std::fs::copy(&path, &to)
                .map_err(|error| format!("cannot copy {}: {error}", path.display()))?;
        }
    }
    report_sizes(&dist)?;
    say(&format!(
        "\nbuilt {}; serve it with `cargo run -p fencelab -- web` (or any static host)",
        dist.display()
    ));
    Ok(())
}

fn gzipped_len(bytes: &[u8]) -> Result<usize, String> {
    use std::io::Write as _;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder
        .write_all(bytes)
        .and_then(|()| encoder.finish())
        .map(|out| out.len())
        .map_err(|error| format!("gzip: {error}"))
}

/// Prints each file's size and the total, raw and gzipped.
fn report_sizes(dist: &Path) -> Result<(), String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dist)
        .map_err(|error| format!("cannot read {}: {error}", dist.display()))?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    say("\n==> sizes (what a browser downloads)");
    let (mut raw_total, mut gz_total) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path)
            .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        let gz = gzipped_len(&bytes)?;
        raw_total += bytes.len();
        gz_total += gz;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        say(&format!(
            "  {name:<24} {:>8.1} KB raw {:>8.1} KB gzipped",
            kb(bytes.len()),
            kb(gz)
        ));
    }
    say(&format!(
        "  {:<24} {:>8.1} KB raw {:>8.1} KB gzipped (budget 300 KB gzipped)",
        "total",
        kb(raw_total),
        kb(gz_total)
    ));
    Ok(())
}

#[allow(clippy::cast_precision_loss)]
fn kb(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}
