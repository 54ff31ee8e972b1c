//! The browser's door into sim-core: a thin layer of `wasm_bindgen`
//! exports, so the page and the terminal run the very same engine, course
//! and explorers.
//!
//! Everything is plain Rust returning `serde_json::Value` (or JSON text),
//! tested natively: [`Course`] owns the lessons and the progress,
//! [`timeline`] turns a scenario into what the page draws, and the free
//! functions run pasted scenarios and the explorers. The `bindings` module
//! only wraps them for JavaScript: data crosses as JSON text, errors as
//! `Error` exceptions whose message is the text here (`LINE:COL: message`
//! for a scenario).

mod course;
pub mod timeline;

pub use course::{Course, act_from_json};

use serde_json::{Value, json};
use sim_core::Lang;

use sim_core::explore::{
    Control, Exploration, ExplorerSettings, FormField, Report, ReportView, RunToEnd, SettingsError,
    explore_limited,
};

use crate::timeline::timeline;
use sim_core::Reveal;

/// Why a pasted scenario or the explorer's options were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebError {
    /// The scenario's mistakes, each with its line and column and its
    /// message in both languages.
    Scenario(Vec<sim_core::Diagnostic>),
    /// The explorer's options, as sim-core's settings builder refused them
    /// (the words `fencelab explore` and the terminal say).
    Settings(SettingsError),
}

impl WebError {
    /// The problem in words, in `lang`; a scenario's mistakes one
    /// `LINE:COL: message` a line.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            WebError::Scenario(diagnostics) => diagnostics
                .iter()
                .map(|d| d.display_in(lang))
                .collect::<Vec<_>>()
                .join("\n"),
            WebError::Settings(error) => error.message(lang),
        }
    }
}

/// In English; [`WebError::message`] gives either language.
impl std::fmt::Display for WebError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for WebError {}

/// The timeline of a pasted scenario (the sandbox), or its diagnostics.
pub fn sandbox(toml: &str, lang: Lang) -> Result<Value, WebError> {
    let scenario = sim_core::parse_scenario(toml.as_bytes()).map_err(WebError::Scenario)?;
    Ok(timeline(&scenario, lang, &Reveal::Everything))
}

/// Replays a scenario (TOML text) and returns the `fencelab run --json`
/// object, or the diagnostics as `LINE:COL: message` lines.
pub fn run_json(toml: &str) -> Result<String, WebError> {
    let scenario = sim_core::parse_scenario(toml.as_bytes()).map_err(WebError::Scenario)?;
    let trace = sim_core::run(&scenario);
    Ok(serde_json::to_string(&trace.run_json(&scenario)).unwrap_or_default())
}

/// The search the explorer's options describe (JSON text; the same knobs
/// as `fencelab explore`, read by sim-core's [`ExplorerSettings`]).
pub fn exploration(options_json: &str) -> Result<Exploration, WebError> {
    ExplorerSettings::from_json(options_json)
        .and_then(|settings| settings.build())
        .map_err(WebError::Settings)
}

/// Runs an explorer to the end and returns the `fencelab explore --json`
/// object (with `elapsed_ms` 0: the page measures time itself).
pub fn explore_json(options_json: &str, lang: Lang) -> Result<String, WebError> {
    let report = explore_with(options_json, &mut RunToEnd)?;
    Ok(serde_json::to_string(&report.report_json(0, lang)).unwrap_or_default())
}

/// Runs an explorer, telling `control` how it goes, and returns the
/// `fencelab explore --json` object plus the report in words (`view`,
/// sim-core's [`ReportView`], which the page draws) and, when it found a
/// counterexample, its `timeline` (with every verdict) for the page to
/// play. `elapsed_ms` says how long the search took (the page's clock).
pub fn explore_report(
    options_json: &str,
    lang: Lang,
    control: &mut dyn Control,
    elapsed_ms: &dyn Fn() -> u64,
) -> Result<Value, WebError> {
    let report = explore_with(options_json, control)?;
    let elapsed_ms = elapsed_ms();
    let mut value = report.to_json(elapsed_ms, lang);
    if let Value::Object(map) = &mut value {
        map.insert(
            "view".into(),
            serde_json::to_value(ReportView::new(&report, elapsed_ms, lang)).unwrap_or_default(),
        );
        if let Some(found) = &report.counterexample {
            map.insert(
                "timeline".into(),
                timeline(&found.scenario, lang, &Reveal::Everything),
            );
        }
    }
    Ok(value)
}

/// Runs the search the options describe, telling `control` how it goes.
fn explore_with(options_json: &str, control: &mut dyn Control) -> Result<Report, WebError> {
    let Exploration {
        world,
        method,
        limits,
    } = exploration(options_json)?;
    explore_limited(&world, method, None, limits, control)
        .map_err(|error| WebError::Settings(SettingsError::World(error)))
}

/// A practice round drawn (issue 24): the round of `key_json` (the JSON of
/// sim-core's `RoundKey`, as `Course::practice_view` gives it) from the
/// practice world of its pool, read from the page's `lessons_json` (its
/// `[file stem, TOML text]` pairs); `{key, scenario}`, the scenario as its
/// TOML text, which the page's `Course::open_practice` checks and opens.
/// Drawing runs the random explorer (proptest): only the explorer's build
/// has it, in the page's practice worker. Errors are said in `lang`.
#[cfg(feature = "explorer")]
pub fn draw_practice(lessons_json: &str, key_json: &str, lang: Lang) -> Result<Value, String> {
    use sim_core::course::CourseError;
    use sim_core::course::practice::{PracticeError, RoundKey, draw_round};
    let key: RoundKey = serde_json::from_str(key_json)
        .map_err(|error| CourseError::PracticeRound(error.to_string()).message(lang))?;
    let pairs: Vec<(String, String)> = serde_json::from_str(lessons_json)
        .map_err(|error| CourseError::LessonsJson(error.to_string()).message(lang))?;
    let text = pairs
        .iter()
        .find(|(stem, _)| *stem == key.pool)
        .map(|(_, text)| text)
        .ok_or_else(|| CourseError::NoLesson(key.pool.clone()).message(lang))?;
    let lesson = sim_core::course::parse_lesson(text.as_bytes()).map_err(|diagnostics| {
        diagnostics
            .iter()
            .map(|d| format!("{}.toml:{}", key.pool, d.display_in(lang)))
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    let practice = lesson
        .practice
        .as_ref()
        .ok_or_else(|| PracticeError::NoPracticeWorld(key.pool.clone()).message(lang))?;
    let round = draw_round(practice, &key).map_err(|error| error.message(lang))?;
    Ok(json!({
        "key": round.key,
        "scenario": sim_core::scenario_to_toml(&round.scenario),
    }))
}

/// What the explorer's form offers: each field of sim-core's explorer
/// screen with its label, default and range or choices, in `lang`.
#[derive(Debug, serde::Serialize)]
pub struct ExplorerChoices {
    fields: Vec<FormField>,
}

pub fn explorer_choices(lang: Lang) -> ExplorerChoices {
    ExplorerChoices {
        fields: sim_core::explore::form_fields(lang),
    }
}

/// The version of the engine, for the page's footer.
pub fn engine_version() -> String {
    json!(env!("CARGO_PKG_VERSION")).to_string()
}

// Not in the SQL engine's wasm (`web-sql`, which turns on `sql-lab` and
// uses the `Course` above): the page's bindings belong to the page's wasm.
#[cfg(all(target_arch = "wasm32", not(feature = "sql-lab")))]
pub mod bindings {
    //! The JavaScript face of the crate: one `Course` handle that owns the
    //! lessons and the progress, and a few free functions. Data crosses as
    //! JSON text (the page calls `JSON.parse`, which is faster than building
    //! objects field by field across the boundary and keeps the wasm
    //! smaller); every error becomes one `Error` exception through [`fail`].

    use serde_json::Value;
    use sim_core::Lang;
    use sim_core::course::CourseError;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(start)]
    pub fn start() {
        console_error_panic_hook::set_once();
    }

    /// The one conversion of an error into a JavaScript exception.
    fn fail(message: impl std::fmt::Display) -> JsError {
        JsError::new(&message.to_string())
    }

    /// A result as JSON text, or the exception.
    fn to_js<E: std::fmt::Display>(value: Result<Value, E>) -> Result<String, JsError> {
        value.map(|v| v.to_string()).map_err(fail)
    }

    /// A course answer as JSON text, or the exception in the learner's
    /// language.
    fn course_js(value: Result<Value, CourseError>, lang: Lang) -> Result<String, JsError> {
        value
            .map(|v| v.to_string())
            .map_err(|e| fail(e.message(lang)))
    }

    /// A language code from the page: `en` or `zh`.
    fn language(code: &str) -> Result<Lang, JsError> {
        code.parse().map_err(fail)
    }

    /// The course: lessons embedded at build time, and the learner's progress.
    #[wasm_bindgen]
    #[derive(Debug)]
    pub struct Course {
        inner: super::Course,
    }

    #[wasm_bindgen]
    impl Course {
        /// The course in `lessons` (the text of the page's `lessons.json`),
        /// with fresh progress.
        #[wasm_bindgen(constructor)]
        pub fn new(lessons: &str) -> Result<Course, JsError> {
            Ok(Course {
                inner: super::Course::from_json(lessons).map_err(fail)?,
            })
        }

        /// Reads a progress record (any known version); throws if it is
        /// damaged or newer, keeping the current progress.
        #[wasm_bindgen(js_name = loadProgress)]
        pub fn load_progress(&mut self, text: &str) -> Result<(), JsError> {
            let lang = self.inner.lang();
            self.inner
                .load_progress(text)
                .map_err(|e| fail(e.message(lang)))
        }

        /// Takes in the record a worker's session wrote after acting on an
        /// exercise, `sent` being this record as the worker loaded it (see
        /// `Course::take_worker_progress`); throws if it is damaged.
        #[wasm_bindgen(js_name = takeWorkerProgress)]
        pub fn take_worker_progress(&mut self, sent: &str, theirs: &str) -> Result<(), JsError> {
            let lang = self.inner.lang();
            self.inner
                .take_worker_progress(sent, theirs)
                .map_err(|e| fail(e.message(lang)))
        }

        /// The progress record as JSON text (the terminal's file format).
        #[wasm_bindgen(js_name = progressJson)]
        pub fn progress_json(&self) -> String {
            self.inner.progress_json()
        }

        #[wasm_bindgen(js_name = resetProgress)]
        pub fn reset_progress(&mut self) {
            self.inner.reset_progress();
        }

        /// Gives the progress the quiz seed `fresh` (from
        /// `crypto.getRandomValues`) unless it has one; `true` when it
        /// took it, and the record should be saved.
        #[wasm_bindgen(js_name = seedIfMissing)]
        pub fn seed_if_missing(&mut self, fresh: u32) -> bool {
            self.inner.seed_if_missing(fresh)
        }

        pub fn lang(&self) -> String {
            self.inner.lang().code().to_owned()
        }

        #[wasm_bindgen(js_name = setLang)]
        pub fn set_lang(&mut self, lang: &str) -> Result<(), JsError> {
            self.inner.set_lang(language(lang)?);
            Ok(())
        }

        #[wasm_bindgen(js_name = markRead)]
        pub fn mark_read(&mut self, lesson: &str, section: u32) -> Result<(), JsError> {
            let lang = self.inner.lang();
            self.inner
                .mark_read(lesson, section)
                .map_err(|e| fail(e.message(lang)))
        }

        #[wasm_bindgen(js_name = setSelfCheck)]
        pub fn set_self_check(&mut self, level: &str, done: bool) -> Result<(), JsError> {
            let lang = self.inner.lang();
            self.inner
                .set_self_check(level, done)
                .map_err(|e| fail(e.message(lang)))
        }

        /// The course map with progress.
        pub fn map(&self) -> String {
            self.inner.map(self.inner.lang()).to_string()
        }

        /// The front door: the problem, the two stories run now, and where
        /// Start or Continue leads.
        #[wasm_bindgen(js_name = frontDoor)]
        pub fn front_door(&self) -> String {
            self.inner.front_door(self.inner.lang()).to_string()
        }

        pub fn lesson(&self, id: &str) -> Result<String, JsError> {
            let lang = self.inner.lang();
            course_js(self.inner.lesson_json(id, lang), lang)
        }

        /// A lesson scenario's timeline, with every verdict.
        #[wasm_bindgen(js_name = scenarioTimeline)]
        pub fn scenario_timeline(&self, lesson: &str, name: &str) -> Result<String, JsError> {
            let lang = self.inner.lang();
            course_js(self.inner.scenario_timeline(lesson, name, lang), lang)
        }

        /// An exercise's timeline, without what would give the key away.
        #[wasm_bindgen(js_name = exerciseTimeline)]
        pub fn exercise_timeline(&self, lesson: &str, exercise: &str) -> Result<String, JsError> {
            let lang = self.inner.lang();
            course_js(self.inner.exercise_timeline(lesson, exercise, lang), lang)
        }

        /// The learner's action on an exercise (JSON text of sim-core's
        /// `Act`: `{"act":"open"}`, `{"act":"change","answer":…}`,
        /// `{"act":"hint"}`, `{"act":"hand_in","answer":…}`,
        /// `{"act":"solution"}`, `{"act":"leave"}`, `{"act":"edit","edit":…}`)
        /// and the exercise's screen after it, as JSON text (a break's with
        /// its schedule's preview).
        pub fn act(
            &mut self,
            lesson: &str,
            exercise: &str,
            act_json: &str,
        ) -> Result<String, JsError> {
            let lang = self.inner.lang();
            let act = super::act_from_json(act_json).ok_or_else(|| {
                fail(format!(
                    "{}{act_json}",
                    lang.pick("the action is not understood: ", "无法理解这个操作：")
                ))
            })?;
            course_js(self.inner.act(lesson, exercise, &act, lang), lang)
        }

        /// A pool's practice (round to draw, words, standing) as JSON text.
        #[wasm_bindgen(js_name = practiceView)]
        pub fn practice_view(&self, pool: &str) -> Result<String, JsError> {
            let lang = self.inner.lang();
            course_js(self.inner.practice_view(pool, lang), lang)
        }

        /// Opens a round drawn in the practice worker (its key as JSON
        /// text, its scenario as TOML) once the session has checked it;
        /// the exercise's screen as JSON text, as `act` opens one.
        #[wasm_bindgen(js_name = openPractice)]
        pub fn open_practice(&mut self, key_json: &str, toml: &str) -> Result<String, JsError> {
            let lang = self.inner.lang();
            course_js(self.inner.open_practice(key_json, toml, lang), lang)
        }

        /// Every pool's practice and the counts per concept, for the review.
        #[wasm_bindgen(js_name = practiceReview)]
        pub fn practice_review(&self) -> String {
            self.inner.practice_review(self.inner.lang()).to_string()
        }
    }

    /// The timeline of a pasted scenario; throws `LINE:COL: message` lines.
    #[wasm_bindgen]
    pub fn sandbox(toml: &str, lang: &str) -> Result<String, JsError> {
        let lang = language(lang)?;
        to_js(super::sandbox(toml, lang).map_err(|e| e.message(lang)))
    }

    /// The least time between two progress reports to the page.
    #[cfg(feature = "explorer")]
    const PROGRESS_EVERY_MS: f64 = 50.0;

    /// Progress reports for `explore`, passed at most every
    /// [`PROGRESS_EVERY_MS`] to a JavaScript function `(progress) =>
    /// boolean` as the JSON text of sim-core's `ProgressView` (the words
    /// the page shows); `false` stops the search. It also stops it,
    /// incomplete, once the options' time limit has passed (sim-core reads
    /// no clock; the page's does).
    #[cfg(feature = "explorer")]
    struct Reporter<'f> {
        callback: &'f js_sys::Function,
        lang: Lang,
        method: sim_core::explore::Method,
        max_steps: u16,
        started_ms: f64,
        reported_ms: f64,
        limit_ms: f64,
        out_of_time: bool,
    }

    #[cfg(feature = "explorer")]
    impl sim_core::explore::Control for Reporter<'_> {
        fn out_of_time(&self) -> bool {
            self.out_of_time
        }

        fn progress(&mut self, progress: &sim_core::explore::Progress) -> bool {
            let now = js_sys::Date::now();
            if now - self.started_ms >= self.limit_ms {
                self.out_of_time = true;
                return false;
            }
            if now - self.reported_ms < PROGRESS_EVERY_MS {
                return true;
            }
            self.reported_ms = now;
            let view = sim_core::explore::ProgressView::new(
                progress,
                self.method,
                self.max_steps,
                (now - self.started_ms) as u64,
                self.lang,
            );
            let text = serde_json::to_string(&view).unwrap_or_default();
            !matches!(
                self.callback
                    .call1(&JsValue::NULL, &JsValue::from_str(&text))
                    .map(|r| r.as_bool()),
                Ok(Some(false))
            )
        }
    }

    /// Runs an explorer (options as JSON text, the knobs of `fencelab
    /// explore`), calling `on_progress` as it goes; the report (JSON text)
    /// with its words (`view`) and the counterexample's `timeline`.
    #[cfg(feature = "explorer")]
    #[wasm_bindgen]
    pub fn explore(
        options_json: &str,
        lang: &str,
        on_progress: &js_sys::Function,
    ) -> Result<String, JsError> {
        let lang = language(lang)?;
        let exploration = super::exploration(options_json).ok();
        let limit_ms = exploration
            .as_ref()
            .and_then(|exploration| exploration.limits.time_limit_ms)
            .map_or(f64::INFINITY, |ms| ms as f64);
        let (method, max_steps) = exploration
            .map_or((sim_core::explore::Method::Exhaustive, 0), |exploration| {
                (exploration.method, exploration.world.bounds.max_steps)
            });
        let started_ms = js_sys::Date::now();
        let mut reporter = Reporter {
            callback: on_progress,
            lang,
            method,
            max_steps,
            started_ms,
            reported_ms: f64::NEG_INFINITY,
            limit_ms,
            out_of_time: false,
        };
        let elapsed_ms = || (js_sys::Date::now() - started_ms).max(0.0) as u64;
        to_js(
            super::explore_report(options_json, lang, &mut reporter, &elapsed_ms)
                .map_err(|e| e.message(lang)),
        )
    }

    /// A practice round of `key_json` drawn from its pool's world in
    /// `lessons_json` (the page's `lessons.json`): `{key, scenario}` as
    /// JSON text, the scenario as TOML. For the page's practice worker.
    #[cfg(feature = "explorer")]
    #[wasm_bindgen(js_name = drawPractice)]
    pub fn draw_practice(
        lessons_json: &str,
        key_json: &str,
        lang: &str,
    ) -> Result<String, JsError> {
        let lang = language(lang)?;
        to_js(super::draw_practice(lessons_json, key_json, lang))
    }

    #[wasm_bindgen(js_name = explorerChoices)]
    pub fn explorer_choices(lang: &str) -> Result<String, JsError> {
        let lang = language(lang)?;
        Ok(serde_json::to_string(&super::explorer_choices(lang)).unwrap_or_default())
    }

    /// The page's own words in `lang` (sim-core's catalogue, JSON text:
    /// `{lang, tag, words, legend}`), read when the page starts and when
    /// the learner switches language.
    #[wasm_bindgen(js_name = pageWords)]
    pub fn page_words(lang: &str) -> Result<String, JsError> {
        let lang = language(lang)?;
        Ok(serde_json::to_string(&sim_core::page_words(lang)).unwrap_or_default())
    }

    /// The scenario (TOML text) the sandbox opens with.
    #[wasm_bindgen(js_name = sandboxSample)]
    pub fn sandbox_sample() -> String {
        sim_core::SANDBOX_SAMPLE.to_owned()
    }

    /// The language a browser's `navigator.language` asks for (`en`, `zh`).
    #[wasm_bindgen(js_name = langOfLocale)]
    pub fn lang_of_locale(locale: &str) -> String {
        Lang::of_locale(locale).code().to_owned()
    }

    /// `fencelab run --json` of a scenario's TOML text.
    #[cfg(feature = "node-api")]
    #[wasm_bindgen(js_name = runJson)]
    pub fn run_json(toml: &str) -> Result<String, JsError> {
        super::run_json(toml).map_err(fail)
    }

    /// `fencelab explore --json` for the options object's JSON text.
    #[cfg(feature = "node-api")]
    #[wasm_bindgen(js_name = exploreJson)]
    pub fn explore_json(options_json: &str, lang: &str) -> Result<String, JsError> {
        let lang = language(lang)?;
        super::explore_json(options_json, lang).map_err(|e| fail(e.message(lang)))
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
    fn the_largest_world_stops_incomplete_at_the_state_cap() {
        let options = r#"{"design":"full","exhaustive":true,"workers":4,"jobs":3,
            "targets":["gateway","gateway","gateway","gateway"],"max_time":48,"max_claims":8,
            "max_steps":64,"cancel":true,"heartbeat":true,"restarted":true,"max_states":5000}"#;
        let text = explore_json(options, Lang::Zh).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(value["verdict"], "incomplete");
        assert_eq!(value["stats"]["states"], 5000);
        assert_eq!(value["bounds"]["max_states"], 5000);
        assert_eq!(value["bounds"]["time_limit_ms"], 30_000);
        let explanation = value["explanation"].as_str().unwrap_or_default();
        assert!(
            explanation.starts_with("未完成：已探索 5000 个状态"),
            "{explanation}"
        );
        let default = exploration("{}").unwrap().limits;
        assert_eq!(
            default.max_states,
            sim_core::explore::EXPLORER_OFFER.max_states.default
        );
    }

    #[test]
    fn explore_json_matches_a_direct_run() {
        let text =
            explore_json(r#"{"design":"ttl-lock-only","exhaustive":true}"#, Lang::En).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(value["verdict"], "unsafe");
        assert_eq!(value["schedule"].as_array().map(Vec::len), Some(6));
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(explore_json("{", Lang::En).is_err());
        assert!(explore_json(r#"{"design":"nope"}"#, Lang::En).is_err());
        assert!(explore_json(r#"{"workers":9}"#, Lang::En).is_err());
        assert!(explore_json(r#"{"targets":["fencing"]}"#, Lang::En).is_err());
        assert!(run_json("id = 1").is_err());
    }

    #[test]
    fn a_pasted_scenario_becomes_a_timeline_or_line_col_errors() {
        let toml = "id = \"s\"\nttl = 2\nworkers = [\"A\", \"B\"]\ndesign = \"ttl-lock-only\"\nsteps = [\n  { at = 0, worker = \"A\", do = \"claim\" },\n  { at = 3, worker = \"B\", do = \"claim\" },\n  { at = 4, worker = \"A\", do = \"finish\" },\n]\n";
        let value = sandbox(toml, Lang::En).unwrap();
        assert_eq!(value["violations"][0]["step"], 2);
        assert_eq!(value["leases"].as_array().map(Vec::len), Some(2));
        let error = sandbox("id = \"s\"\nttl = 2\nworkers = [\"A\"]\nsteps = [{ at = 0, worker = \"Z\", do = \"claim\" }]\n", Lang::En)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.starts_with("4:"), "{error}");
        let error = sandbox("id = \"s\"\nttl = 2\nworkers = [\"A\"]\nsteps = [{ at = 0, worker = \"Z\", do = \"claim\" }]\n", Lang::Zh)
            .err()
            .map(|e| e.message(Lang::Zh))
            .unwrap_or_default();
        assert!(error.starts_with("4:"), "{error}");
        assert!(
            error.contains("未知的 Worker `Z`"),
            "in the page's language: {error}"
        );
    }

    #[test]
    fn explore_report_carries_the_counterexample_timeline_and_stops_when_told() {
        let found = explore_report(
            r#"{"design":"ttl-lock-only","exhaustive":true}"#,
            Lang::En,
            &mut RunToEnd,
            &|| 1500,
        )
        .unwrap();
        assert_eq!(found["verdict"], "unsafe");
        let step = found["violation"]["step"].as_u64().unwrap_or(999) as usize;
        assert_eq!(found["timeline"]["steps"][step]["mark"], "violation");
        // The words the page draws are sim-core's report view of the same
        // search, with the time the page measured.
        assert_eq!(found["stats"]["elapsed_ms"], 1500);
        let view = &found["view"];
        assert_eq!(view["title"], "‼ UNSAFE");
        assert_eq!(view["tone"], "bad");
        assert_eq!(view["counterexample"]["step"], found["violation"]["step"]);
        let schedule: Vec<&str> = found["schedule"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(view["counterexample"]["schedule"], schedule.join(" "));
        assert!(
            view["stats"]
                .as_str()
                .unwrap_or_default()
                .ends_with("· 1.5 s"),
            "{view}"
        );
        let mut calls = 0;
        let mut stop = |_: &sim_core::explore::Progress| {
            calls += 1;
            false
        };
        let stopped = explore_report(
            r#"{"design":"full","cases":1000}"#,
            Lang::En,
            &mut stop,
            &|| 0,
        )
        .unwrap();
        assert_eq!(stopped["verdict"], "cancelled");
        assert_eq!(stopped["view"]["tone"], "warn");
        assert_eq!(calls, 1);
        let choices = serde_json::to_value(explorer_choices(Lang::Zh)).unwrap();
        let field = |key: &str| {
            choices["fields"]
                .as_array()
                .and_then(|fields| fields.iter().find(|f| f["key"] == key))
                .cloned()
                .unwrap_or_default()
        };
        let targets = field("targets");
        assert!(
            targets["options"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o["value"] == "highest_token"
                    && o["words"]
                        == sim_core::protect_words(sim_core::Protect::HighestToken, Lang::Zh))
        );
        assert_eq!(field("design")["options"].as_array().map(Vec::len), Some(8));
        // A design is offered by its name and what it is made of, not a bare id.
        let designs = field("design")["options"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let full = designs.iter().find(|d| d["value"] == "full");
        let note = full.and_then(|d| d["note"].as_str()).unwrap_or_default();
        assert!(note.contains("令牌"), "{note}");
        assert_eq!(field("design")["default"], "ttl-lock-only");
        assert_eq!(field("workers")["input"], "number");
        assert_eq!(field("workers")["max"], 4);
        assert_eq!(field("max_in_flight")["default"], 0);
        assert_eq!(field("cancel")["input"], "switch");
        let delayed =
            exploration(r#"{ "design": "sending-gateway", "max_in_flight": 2, "max_delay": 3 }"#)
                .unwrap()
                .world;
        assert_eq!(
            (delayed.bounds.max_in_flight, delayed.bounds.max_delay),
            (2, 3)
        );
        assert!(exploration(r#"{ "max_in_flight": 9 }"#).is_err());
        // Out of the offered range is refused, with the range in the message.
        let error = exploration(r#"{ "workers": 9 }"#).err().unwrap();
        assert_eq!(
            error.message(Lang::En),
            "`workers` must be an integer between 2 and 4"
        );
    }
}
