//! sim-core's integration tests: one binary, one module per feature.

mod explore;
mod parse_errors;
mod props;
mod rules;
