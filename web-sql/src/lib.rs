//! The page's SQL engine: the same box as the terminal's (`fencelab-sqlbox`,
//! rusqlite over SQLite's C source compiled to wasm32 by sqlite-wasm-rs), in
//! a wasm file of its own that `sql-worker.js` loads when a SQL exercise
//! opens. It runs a SQL lab plan (`sim_core::sqllab::Plan`, built by the
//! page's course session) with the learner's statements and hands back what
//! SQLite did; the course session judges it, as in the terminal.

use sim_core::sqllab::{Plan, Statements};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// The version of the SQLite inside, e.g. `3.50.4`: the worker reports it
/// once the engine is ready.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen(js_name = sqliteVersion))]
pub fn sqlite_version() -> String {
    rusqlite::version().to_owned()
}

/// Runs `plan` (a `Plan` as JSON) with `statements` (slot → text, as JSON)
/// through `sqlbox::battery::run`; the `PlanRun` as JSON, or why the input
/// could not be read.
pub fn run_plan(plan: &str, statements: &str) -> Result<String, String> {
    let plan: Plan = serde_json::from_str(plan).map_err(|error| format!("plan: {error}"))?;
    let statements: Statements =
        serde_json::from_str(statements).map_err(|error| format!("statements: {error}"))?;
    serde_json::to_string(&sqlbox::battery::run(&plan, &statements))
        .map_err(|error| format!("run: {error}"))
}

/// [`run_plan`] for JavaScript: an error becomes a thrown `Error`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen(js_name = runPlan)]
pub fn run_plan_js(plan: &str, statements: &str) -> Result<String, wasm_bindgen::JsError> {
    console_error_panic_hook::set_once();
    run_plan(plan, statements).map_err(|message| wasm_bindgen::JsError::new(&message))
}
