//! One integration-test binary for the tests that cross crates.

mod differential;
mod examples;
mod stateright_peer;
