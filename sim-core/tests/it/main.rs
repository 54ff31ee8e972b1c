//! sim-core's integration tests: one binary, one module per feature.

mod course;
mod diagram;
mod explore;
mod json_docs;
mod narrate;
mod parse_errors;
mod props;
mod rules;
