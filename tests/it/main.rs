//! One integration-test binary for the tests that cross crates.

mod differential;
mod examples;
mod front_ends;
mod stateright_peer;
