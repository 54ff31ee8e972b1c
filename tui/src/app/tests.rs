//! Tests (placeholder).
