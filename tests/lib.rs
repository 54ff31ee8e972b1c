//! Tests across crates live in `it/`; this library is empty on purpose.
