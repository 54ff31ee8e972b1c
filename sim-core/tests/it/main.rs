//! sim-core's integration tests: one binary, one module per feature.
// clippy.toml's allow-unwrap-in-tests covers `#[test]` functions; the
// helpers of an integration-test crate are test code too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a failing unwrap is a failing test, with its message"
)]

mod batches;
mod catalogue;
mod claim_knob;
mod course;
mod diagram;
mod explore;
mod json_docs;
mod narrate;
mod parse_errors;
mod props;
mod rules;
