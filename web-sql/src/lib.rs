//! The page's SQL engine: the same box as the terminal's (`fencelab-sqlbox`,
//! rusqlite over SQLite's C source compiled to wasm32 by sqlite-wasm-rs), in
//! a wasm file of its own that `sql-worker.js` loads when a SQL exercise
//! opens. It also grades `sql` exercises: like the design grader's worker,
//! it holds its own course session (the page's lessons, the page's progress
//! as sent), builds the exercise's plan, runs it on SQLite, judges the run
//! there (recording the try by the session's rules) and hands back the
//! exercise's screen and the progress record, which the page takes in
//! (every act on a SQL exercise goes through here: the page's own wasm
//! cannot read a SQL answer). The lab's judge lives
//! here, not in the page's wasm, whose first download has a budget. The
//! box's bounds (time, through `performance.now()` in the worker; memory)
//! are compiled in; the worker reports the run's budget ([`sql_budget_ms`])
//! and `sql.js` restarts a worker that overruns it.

use std::cell::RefCell;

use fencelab_web::Course;
use serde_json::{Value, json};
use sim_core::Lang;
use sim_core::course::Act;
use sim_core::sqllab::{Plan, PlanRun, Statements};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

/// The version of the SQLite inside, e.g. `3.50.4`: the worker reports it
/// once the engine is ready.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen(js_name = sqliteVersion))]
pub fn sqlite_version() -> String {
    rusqlite::version().to_owned()
}

/// The wall-clock budget of one run of a plan, in milliseconds
/// (`sqlbox::battery::BATTERY_BUDGET_MS`): the box stops a run past it, so
/// the worker answers within it; `sql.js` ends a worker that has not
/// answered within it and a margin.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen(js_name = sqlBudgetMs))]
pub fn sql_budget_ms() -> u32 {
    u32::try_from(sqlbox::battery::BATTERY_BUDGET_MS).unwrap_or(u32::MAX)
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

thread_local! {
    /// The worker's course session and the lessons text it was built from.
    static SESSION: RefCell<Option<(String, Course)>> = const { RefCell::new(None) };
}

/// The page's state for one request: its lessons (the text of
/// `lessons.json`), its progress record and its language.
#[derive(Debug, Clone, Copy)]
pub struct PageState<'a> {
    pub lessons: &'a str,
    pub progress: &'a str,
    pub lang: &'a str,
}

/// Runs `f` on the session for `page`: built again only when the lessons
/// change, with the page's progress and language loaded every time.
fn with_session(
    page: PageState<'_>,
    f: impl FnOnce(&mut Course, Lang) -> Result<Value, String>,
) -> Result<String, String> {
    let lang: Lang = page.lang.parse().unwrap_or(Lang::En);
    SESSION.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|(text, _)| text != page.lessons) {
            let course = Course::from_json(page.lessons).map_err(|e| e.message(lang))?;
            *slot = Some((page.lessons.to_owned(), course));
        }
        let Some((_, course)) = slot.as_mut() else {
            return Err("no course".to_owned());
        };
        course.set_lang(lang);
        course
            .load_progress(page.progress)
            .map_err(|e| e.message(lang))?;
        let value = f(course, lang)?;
        Ok(json!({ "progress": course.progress_json(), "value": value }).to_string())
    })
}

/// The learner's action on a `sql` exercise (`act`: the JSON of
/// sim-core's `Act`), in the worker's session. A hand-in runs the
/// exercise's plan with the statements on SQLite first: `{"progress",
/// "value"}` as JSON, where `value` is `{"refused": [...], "status"}` when
/// the box refused a statement (not a try; `status` sums it up), else `{"screen": …}`, the exercise's
/// screen after the act as the page's `Course.act` gives it (the try
/// recorded in `progress`).
pub fn act_sql(
    page: PageState<'_>,
    lesson: &str,
    exercise: &str,
    act: &str,
) -> Result<String, String> {
    let act: Act = serde_json::from_str(act).map_err(|error| format!("act: {error}"))?;
    with_session(page, |course, lang| {
        let screen = match &act {
            Act::HandIn {
                answer: Some(answer),
            } => {
                let texts: Statements = serde_json::from_value(answer.clone())
                    .map_err(|error| format!("statements: {error}"))?;
                let plan = course
                    .session()
                    .sql_plan(lesson, exercise)
                    .map_err(|e| e.message(lang))?;
                let run: PlanRun = sqlbox::battery::run(&plan, &texts);
                if !run.refused.is_empty() {
                    // Each refusal in the page's language: the page holds no words.
                    let refused: Vec<Value> = run
                        .refused
                        .iter()
                        .map(|r| json!({ "slot": r.slot, "message": r.message(lang), "line": r.line, "col": r.col }))
                        .collect();
                    let status = sim_core::sqllab::SlotRefusal::status(&run.refused, lang);
                    return Ok(json!({ "refused": refused, "status": status }));
                }
                course.hand_in_sql(lesson, exercise, answer, run, lang)
            }
            other => course.act(lesson, exercise, other, lang),
        };
        Ok(json!({ "screen": screen.map_err(|e| e.message(lang))? }))
    })
}

#[cfg(target_arch = "wasm32")]
pub mod bindings {
    //! The worker's calls; every error becomes a thrown `Error`.

    use wasm_bindgen::JsError;
    use wasm_bindgen::prelude::wasm_bindgen;

    use super::PageState;

    #[wasm_bindgen(start)]
    pub fn start() {
        console_error_panic_hook::set_once();
    }

    #[wasm_bindgen(js_name = runPlan)]
    pub fn run_plan(plan: &str, statements: &str) -> Result<String, JsError> {
        super::run_plan(plan, statements).map_err(|message| JsError::new(&message))
    }

    #[wasm_bindgen(js_name = actSql)]
    pub fn act_sql(
        lessons: &str,
        progress: &str,
        lang: &str,
        lesson: &str,
        exercise: &str,
        act: &str,
    ) -> Result<String, JsError> {
        let page = PageState {
            lessons,
            progress,
            lang,
        };
        super::act_sql(page, lesson, exercise, act).map_err(|message| JsError::new(&message))
    }
}
