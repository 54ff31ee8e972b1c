//! The bindings under Node (`wasm-bindgen-test-runner`): the explorers in
//! WebAssembly find the same counterexamples and count the same states as
//! natively (the numbers pinned in sim-core's native tests).
#![cfg(target_arch = "wasm32")]

use serde_json::Value;
use wasm_bindgen_test::wasm_bindgen_test;

fn explore(options: &str) -> Value {
    let text = fencelab_web::explore_json(options, "en").unwrap_or_default();
    serde_json::from_str(&text).unwrap_or_default()
}

#[wasm_bindgen_test]
fn exhaustive_search_counts_the_same_states_in_wasm() {
    let safe = explore(r#"{"design":"fenced-registered","exhaustive":true}"#);
    assert_eq!(safe["verdict"], "safe");
    assert_eq!(safe["stats"]["states"], 3017);
    let unsafe_ = explore(r#"{"design":"client-check","exhaustive":true}"#);
    assert_eq!(unsafe_["schedule"].as_array().map(Vec::len), Some(7));
}

#[wasm_bindgen_test]
fn random_search_shrinks_to_a_replayable_counterexample_in_wasm() {
    let found = explore(r#"{"design":"idempotency-only","seed":7,"cases":256}"#);
    assert_eq!(found["verdict"], "unsafe");
    let step = found["violation"]["step"].clone();
    let violations = found["trace"]["violations"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(violations.iter().any(|v| v["step"] == step));
}
