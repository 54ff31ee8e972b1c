//! One integration-test binary for the tests that cross crates.
// clippy.toml's allow-unwrap-in-tests covers `#[test]` functions; the
// helpers of an integration-test crate are test code too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a failing unwrap is a failing test, with its message"
)]

mod differential;
mod examples;
mod front_ends;
mod postgres;
mod screens;
mod sql_lab;
mod stateright_peer;
