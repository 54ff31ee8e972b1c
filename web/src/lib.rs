//! The browser's door into sim-core: a thin layer of `wasm_bindgen`
//! functions that take and return JSON text, so the page and the terminal
//! run the very same engine and explorers.
//!
//! The plain functions (`*_json`) are ordinary Rust, tested natively; the
//! `#[wasm_bindgen]` exports only wrap them.

use serde_json::{Value, json};
use sim_core::explore::{Bounds, Method, RunToEnd, WorldOptions, explore};
use sim_core::{DesignSource, Preset, Protect};

/// Replays a scenario (TOML text) and returns the `fencelab run --json`
/// object, or the diagnostics as `LINE:COL: message` lines.
pub fn run_json(toml: &str) -> Result<String, String> {
    let scenario = sim_core::parse_scenario(toml.as_bytes()).map_err(|diagnostics| {
        diagnostics
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    Ok(sim_core::run(&scenario).to_json(&scenario).to_string())
}

fn field<'v>(options: &'v Value, key: &str) -> Option<&'v Value> {
    options.get(key).filter(|value| !value.is_null())
}

fn small(options: &Value, key: &str, default: u64, max: u64) -> Result<u64, String> {
    match field(options, key) {
        None => Ok(default),
        Some(value) => match value.as_u64() {
            Some(number) if number <= max => Ok(number),
            _ => Err(format!("`{key}` must be an integer between 0 and {max}")),
        },
    }
}

/// The world and method described by explorer options (the same knobs as
/// `fencelab explore`): `design` (a preset name), `workers`, `targets` (a
/// list of protection names; `[]` for the job table alone), `ttl`, `jobs`,
/// `cancel`, `heartbeat`, `restarted`, `seed`, `cases`, `exhaustive`,
/// `max_time`, `max_claims`, `max_steps`.
pub fn explore_options(options: &Value) -> Result<(sim_core::explore::World, Method), String> {
    let name = field(options, "design")
        .and_then(Value::as_str)
        .unwrap_or("full");
    let preset =
        Preset::from_name(name).ok_or_else(|| format!("unknown design preset `{name}`"))?;
    let mut world = WorldOptions::new(preset.design(), DesignSource::Preset(preset));
    world.workers = small(options, "workers", 2, 4)? as u8;
    world.ttl = small(options, "ttl", 3, 15)? as u8;
    world.jobs = small(options, "jobs", 1, 3)? as u8;
    world.seed = small(options, "seed", 1, u64::from(u32::MAX))?;
    let flag = |key: &str| {
        field(options, key)
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    world.allow_cancel = flag("cancel");
    world.heartbeat = flag("heartbeat");
    world.restarted = flag("restarted");
    world.bounds = Bounds {
        max_time: small(options, "max_time", 12, 48)? as u8,
        max_claims: small(options, "max_claims", 3, 8)? as u8,
        max_steps: small(options, "max_steps", 64, 64)? as u16,
    };
    if let Some(list) = field(options, "targets") {
        let names = list.as_array().ok_or("`targets` must be a list")?;
        let targets: Result<Vec<Protect>, String> = names
            .iter()
            .map(|name| {
                let text = name.as_str().unwrap_or_default();
                Protect::ALL
                    .into_iter()
                    .find(|p| p.name() == text)
                    .ok_or_else(|| format!("unknown target protection `{text}`"))
            })
            .collect();
        world.targets = Some(targets?);
    }
    let method = if flag("exhaustive") {
        Method::Exhaustive
    } else {
        Method::Random {
            seed: world.seed,
            cases: small(options, "cases", 256, 1_000_000)? as u32,
        }
    };
    Ok((world.world().map_err(|e| e.to_string())?, method))
}

/// Runs an explorer to the end and returns the `fencelab explore --json`
/// object (with `elapsed_ms` 0: the page measures time itself).
pub fn explore_json(options_json: &str, lang: &str) -> Result<String, String> {
    let options: Value =
        serde_json::from_str(options_json).map_err(|e| format!("options are not JSON: {e}"))?;
    let (world, method) = explore_options(&options)?;
    let report = explore(&world, method, &mut RunToEnd).map_err(|e| e.to_string())?;
    Ok(report.to_json(0, lang).to_string())
}

/// The version of the engine, for the page's footer.
pub fn engine_version() -> String {
    json!(env!("CARGO_PKG_VERSION")).to_string()
}

#[cfg(target_arch = "wasm32")]
pub mod bindings {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(start)]
    pub fn start() {
        console_error_panic_hook::set_once();
    }

    /// `fencelab run --json` of a scenario's TOML text.
    #[wasm_bindgen(js_name = runJson)]
    pub fn run_json(toml: &str) -> Result<String, JsError> {
        super::run_json(toml).map_err(|message| JsError::new(&message))
    }

    /// `fencelab explore --json` for the options object's JSON text.
    #[wasm_bindgen(js_name = exploreJson)]
    pub fn explore_json(options_json: &str, lang: &str) -> Result<String, JsError> {
        super::explore_json(options_json, lang).map_err(|message| JsError::new(&message))
    }

    #[wasm_bindgen(js_name = engineVersion)]
    pub fn engine_version() -> String {
        super::engine_version()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explore_json_matches_a_direct_run() {
        let text = explore_json(r#"{"design":"ttl-lock-only","exhaustive":true}"#, "en")
            .unwrap_or_else(|e| panic!("{e}"));
        let value: Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(value["verdict"], "unsafe");
        assert_eq!(value["schedule"].as_array().map(Vec::len), Some(6));
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(explore_json("{", "en").is_err());
        assert!(explore_json(r#"{"design":"nope"}"#, "en").is_err());
        assert!(explore_json(r#"{"workers":9}"#, "en").is_err());
        assert!(explore_json(r#"{"targets":["fencing"]}"#, "en").is_err());
        assert!(run_json("id = 1").is_err());
    }
}
