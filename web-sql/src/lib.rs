//! The page's SQL engine: the same box as the terminal's (`fencelab-sqlbox`,
//! rusqlite over SQLite's C source compiled to wasm32 by sqlite-wasm-rs), in
//! a wasm file of its own that `sql-worker.js` loads when a SQL exercise
//! opens.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// The version of the SQLite inside, e.g. `3.50.4`: the worker reports it
/// once the engine is ready.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen(js_name = sqliteVersion))]
pub fn sqlite_version() -> String {
    rusqlite::version().to_owned()
}
