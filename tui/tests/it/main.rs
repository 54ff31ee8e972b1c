//! The `fencelab` binary, driven as a user or a script would.
// clippy.toml's allow-unwrap-in-tests covers `#[test]` functions; the
// helpers of an integration-test crate are test code too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a failing unwrap is a failing test, with its message"
)]

mod app;
mod chinese;
mod course;
mod db_url;
mod design_cost;
mod exercises_tmux;
mod explore;
mod hangup;
mod inert;
mod input;
mod install;
mod keys_tmux;
mod lock_wait;
mod module_graph;
mod practice;
mod practice_tmux;
mod run;
mod shared_progress;
mod sql;
mod sql_tmux;
mod tmux;
mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A home of its own for the binary under test, so that whatever language
/// or progress the machine's user saved never changes what a test sees.
pub(crate) fn test_home() -> &'static Path {
    static HOME: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    HOME.get_or_init(|| tempfile::tempdir().expect("a temporary home"))
        .path()
}

/// Runs the built binary with `args`, no terminal, no colour preference.
pub(crate) fn fencelab(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_fencelab"))
        .args(args)
        .env_remove("NO_COLOR")
        .env("LANG", "C")
        .env("HOME", test_home())
        .env("XDG_DATA_HOME", test_home().join("data"))
        .env("XDG_CONFIG_HOME", test_home().join("config"))
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot start fencelab: {error}"),
    }
}

pub(crate) fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples")
}

pub(crate) fn example(name: &str) -> String {
    examples_dir().join(name).display().to_string()
}

pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}
