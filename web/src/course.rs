//! The course behind the page as JSON: a thin layer over
//! [`sim_core::course::CourseSession`], which owns the lessons (the page's
//! `lessons.json`, or for tests the copy embedded at build time) and the
//! learner's progress (the terminal's record, byte for byte), and decides
//! every course rule — grading, hint order, when the solution opens, what a
//! timeline may show, completion. Here each answer only becomes the JSON
//! the page reads (`static/app.js`), from `Serialize` structs: what the
//! session does not give (a hidden hint, a takeaway before an attempt) is
//! absent by construction. The map, a lesson's page and the front door are
//! sim-core's views (`MapView`, `LessonView`, `FrontDoorView`) as they
//! serialize, with the timelines and answer choices added; an exercise on
//! the page is its screen ([`Course::act`]: sim-core's `ExerciseScreen`,
//! with the feedback's timelines).

use serde::Serialize;
use serde_json::{Map, Value};
use sim_core::course::practice::{RoundKey, Situation};
use sim_core::course::{
    Act, CourseError, CourseSession, Edit, Exercise, ExerciseKind, ExerciseScreen, FeedbackView,
    SelfCheckLevel,
};
use sim_core::{Lang, Reveal, Scenario};

use crate::timeline::timeline;

#[cfg(feature = "embedded-lessons")]
include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// The page's handle: one learner's course session.
#[derive(Debug)]
pub struct Course {
    session: CourseSession,
}

/// What a SQL exercise adds: the statements the learner writes and the
/// parameters they may name (a design's and a break's choices are on its
/// screen's editor, a mark's, predict's and quiz's are its screen's items).
#[derive(Serialize)]
struct SqlDetails {
    slots: Vec<&'static str>,
    params: [&'static str; 5],
    /// The job table: its columns and states, in words.
    table: String,
}

/// A quiz option as shown: its authored index (what an answer names) and text.
fn to_value(shown: &impl Serialize) -> Value {
    serde_json::to_value(shown).unwrap_or_default()
}

/// Adds to the `at`th object of the list `value[key]` the fields `more(at)`
/// gives: what a view leaves to the page (a story's timeline, the choices
/// an exercise's answer offers).
fn add_to_each(value: &mut Value, key: &str, add: impl Fn(usize, &mut Map<String, Value>)) {
    if let Some(Value::Array(list)) = value.get_mut(key) {
        for (at, shown) in list.iter_mut().enumerate() {
            if let Value::Object(shown) = shown {
                add(at, shown);
            }
        }
    }
}

/// A counterexample to the learner's design as a timeline: titled as what
/// it is to the learner, not after the preset the explorer matched (a
/// design the learner never picked), and without a description repeating
/// the explanation the grade already says once.
fn counterexample_timeline(scenario: &Scenario, lang: Lang) -> Value {
    // The title and description live in the scenario, so the share link's
    // TOML says the same as the drawing.
    let mut shown = scenario.clone();
    shown.title = sim_core::Text {
        en: "A counterexample to your design".to_owned(),
        zh: "你的设计的一个反例".to_owned(),
    };
    shown.description = None;
    timeline(&shown, lang, &Reveal::Everything)
}

/// An act as the page sends it (`{"act": "hand_in"}`, `{"act": "edit",
/// "edit": {"edit": "choose", "item": 3}}`, the JSON of sim-core's
/// [`Act`]), read by hand: the derived reader of a tagged enum costs the
/// page's initial download more than it can spare. `None` for anything
/// else (an unknown act, a change without its answer, an answer where none
/// belongs, another key).
pub fn act_from_json(text: &str) -> Option<Act> {
    let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    // (Read without taking the answer out: a map's removal code would
    // cost the download more than the copy costs the page.)
    if fields
        .keys()
        .any(|key| key != "act" && key != "answer" && key != "edit")
    {
        return None;
    }
    if let Some(edit) = fields.get("edit") {
        return (fields.len() == 2 && fields.get("act")?.as_str()? == "edit")
            .then(|| edit_from_json(edit))
            .flatten()
            .map(|edit| Act::Edit { edit });
    }
    let answer = fields.get("answer").cloned();
    Some(match (fields.get("act")?.as_str()?, answer) {
        ("open", None) => Act::Open,
        ("change", Some(answer)) => Act::Change { answer },
        ("hint", None) => Act::Hint,
        // No answer (or null): the answer in the making is handed in.
        ("hand_in", answer) => Act::HandIn {
            answer: answer.filter(|answer| !answer.is_null()),
        },
        ("solution", None) => Act::Solution,
        ("leave", None) => Act::Leave,
        _ => return None,
    })
}

/// A round's key as sim-core writes it (`{"pool": …, "seed": 3, "round":
/// 0, "level": 1, "focus": "takeover"}`), read by hand as an act is (the
/// derived reader costs the page's download); `None` for anything else.
fn round_key_from_json(text: &str) -> Option<RoundKey> {
    let Ok(Value::Object(fields)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    let number = |key: &str| u32::try_from(fields.get(key)?.as_u64()?).ok();
    let key = RoundKey {
        pool: fields.get("pool")?.as_str()?.to_owned(),
        seed: number("seed")?,
        round: number("round")?,
        level: u8::try_from(number("level")?).ok()?,
        focus: Situation::from_name(fields.get("focus")?.as_str()?)?,
    };
    (fields.len() == 5).then_some(key)
}

/// An editor's edit (`{"edit": "cycle", "row": 0, "field": 1, "forward":
/// true}`), read by hand as the act is; `None` for anything else.
fn edit_from_json(value: &Value) -> Option<Edit> {
    let Value::Object(fields) = value else {
        return None;
    };
    let number = |key: &str| u32::try_from(fields.get(key)?.as_u64()?).ok();
    let flag = |key: &str| fields.get(key)?.as_bool();
    let (edit, keys): (Edit, &[&str]) = match fields.get("edit")?.as_str()? {
        "set" => (
            Edit::Set {
                row: number("row")?,
                field: number("field")?,
                value: fields.get("value")?.as_str()?.to_owned(),
            },
            &["edit", "row", "field", "value"],
        ),
        "cycle" => (
            Edit::Cycle {
                row: number("row")?,
                field: number("field")?,
                forward: flag("forward")?,
            },
            &["edit", "row", "field", "forward"],
        ),
        "add_step" => (
            Edit::AddStep {
                after: match fields.get("after") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(number("after")?),
                },
            },
            &["edit", "after"],
        ),
        "remove_step" => (
            Edit::RemoveStep {
                row: number("row")?,
            },
            &["edit", "row"],
        ),
        "move_step" => (
            Edit::MoveStep {
                row: number("row")?,
                later: flag("later")?,
            },
            &["edit", "row", "later"],
        ),
        "choose" => (
            Edit::Choose {
                item: number("item")?,
                value: match fields.get("value") {
                    None | Some(Value::Null) => None,
                    Some(value) => Some(value.as_str()?.to_owned()),
                },
            },
            &["edit", "item", "value"],
        ),
        _ => return None,
    };
    fields
        .keys()
        .all(|key| keys.contains(&key.as_str()))
        .then_some(edit)
}

/// A feedback's counterexample as the page plays it: from its violating
/// step.
#[derive(Serialize)]
struct ScreenCounterexampleJson {
    step: u32,
    timeline: Value,
}

/// An exercise screen as the page draws it: sim-core's [`ExerciseScreen`]
/// as it serializes (every course decision made, in the learner's
/// language), with what it leaves to a front end's drawing added: each
/// feedback's counterexample and schedule (the try's, and the learner's
/// try beside a worked solution) as timelines with every verdict.
fn screen_json(screen: &ExerciseScreen, lang: Lang) -> Value {
    let mut value = to_value(screen);
    if let (Some(feedback), Some(shown)) = (&screen.feedback, value.get_mut("feedback")) {
        add_timelines(feedback, shown, lang);
    }
    value
}

fn add_timelines(feedback: &FeedbackView, shown: &mut Value, lang: Lang) {
    let Value::Object(shown) = shown else {
        return;
    };
    if let Some(found) = &feedback.counterexample {
        let played = ScreenCounterexampleJson {
            step: found.step,
            timeline: counterexample_timeline(&found.scenario, lang),
        };
        shown.insert("counterexample".to_owned(), to_value(&played));
    }
    if let Some(schedule) = &feedback.schedule {
        let drawn = timeline(schedule, lang, &Reveal::Everything);
        shown.insert("timeline".to_owned(), drawn);
    }
    if let (Some(yours), Some(drawn)) = (&feedback.your_try, shown.get_mut("your_try")) {
        add_timelines(yours, drawn, lang);
    }
}

/// What a SQL exercise adds to its JSON.
fn sql_details(exercise: &Exercise, lang: Lang) -> Option<SqlDetails> {
    match &exercise.kind {
        ExerciseKind::Sql { slots, .. } => Some(SqlDetails {
            slots: slots.iter().map(|slot| slot.name()).collect(),
            params: sim_core::sqllab::Slot::PARAMS,
            table: sim_core::sql::jobs_table_words(lang),
        }),
        _ => None,
    }
}

impl Course {
    /// The course this build embeds, with fresh progress.
    #[cfg(feature = "embedded-lessons")]
    pub fn embedded() -> Result<Course, CourseError> {
        Course::from_sources(LESSONS)
    }

    /// A course from the page's `lessons.json`: a list of `[file stem,
    /// TOML text]` pairs, as `cargo xtask web` writes it.
    pub fn from_json(text: &str) -> Result<Course, CourseError> {
        CourseSession::from_json(text).map(|session| Course { session })
    }

    /// A course from (file stem, TOML text) pairs. Mistakes come back as
    /// `FILE.toml:LINE:COL: message` lines.
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<Course, CourseError> {
        CourseSession::from_sources(sources).map(|session| Course { session })
    }

    /// The session behind the page (the tests compare it with the terminal's).
    pub fn session(&self) -> &CourseSession {
        &self.session
    }

    // ---- progress ---------------------------------------------------------

    /// Replaces the progress with a record read from JSON (any version this
    /// build knows). A damaged or newer record is refused and the current
    /// progress kept; the caller keeps the bytes aside.
    pub fn load_progress(&mut self, text: &str) -> Result<(), CourseError> {
        Ok(self.session.load_progress(text)?)
    }

    /// Takes in a record another session wrote (the page's Web Worker,
    /// which grades a design off the main thread and records the try in
    /// its own session), losing nothing of this one: the try counts once,
    /// a completion stays, and what this session did meanwhile is kept.
    pub fn merge_progress(&mut self, text: &str) -> Result<(), CourseError> {
        let other = sim_core::course::Progress::from_json(text)?;
        self.session.merge_progress(&other);
        Ok(())
    }

    /// Takes in the record a worker's session wrote after acting on an
    /// exercise (a design graded off the page's thread, a SQL answer run
    /// on SQLite), where `sent` is this session's record as the worker
    /// loaded it. When this session did nothing since, the worker's record
    /// is simply its next state, last answers included (a kind this wasm
    /// cannot read, `sql`, is kept only there); otherwise the two merge,
    /// losing nothing learned ([`Course::merge_progress`]).
    pub fn take_worker_progress(&mut self, sent: &str, theirs: &str) -> Result<(), CourseError> {
        if self.progress_json() == sent {
            self.load_progress(theirs)
        } else {
            self.merge_progress(theirs)
        }
    }

    /// The progress record as JSON, the same as the terminal's file.
    pub fn progress_json(&self) -> String {
        self.session.export_progress()
    }

    pub fn reset_progress(&mut self) {
        self.session.reset_progress();
    }

    /// Gives the progress the quiz seed `fresh` (the page draws it from
    /// `crypto.getRandomValues`) unless it has one; `true` when it took it.
    pub fn seed_if_missing(&mut self, fresh: u32) -> bool {
        self.session.seed_if_missing(fresh)
    }

    pub fn lang(&self) -> Lang {
        self.session.lang()
    }

    pub fn set_lang(&mut self, lang: Lang) {
        self.session.set_lang(lang);
    }

    /// Records that section `section` of `lesson` was read, and that the
    /// learner is there.
    pub fn mark_read(&mut self, lesson: &str, section: u32) -> Result<(), CourseError> {
        self.session.mark_read(lesson, section)
    }

    /// Ticks (or unticks) a self-check level: `basic`, `intermediate`, `senior`.
    pub fn set_self_check(&mut self, level: &str, done: bool) -> Result<(), CourseError> {
        self.session
            .set_self_check(level.parse::<SelfCheckLevel>()?, done);
        Ok(())
    }

    // ---- what the page shows ---------------------------------------------

    /// The course map: every lesson with its progress (sim-core's
    /// `MapView`; the review is drawn from it too).
    pub fn map(&self, lang: Lang) -> Value {
        to_value(&self.session.map_view(lang))
    }

    /// The front door, in `lang` (sim-core's `FrontDoorView`), each story
    /// with its timeline: the stories are run now, by the engine.
    pub fn front_door(&self, lang: Lang) -> Value {
        let door = self.session.front_door_view(lang);
        let mut value = to_value(&door);
        add_to_each(&mut value, "stories", |at, shown| {
            if let Some(story) = door.stories.get(at) {
                let drawn = timeline(&story.scenario, lang, &Reveal::Everything);
                shown.insert("timeline".to_owned(), drawn);
            }
        });
        value
    }

    /// One lesson's page, in `lang` (sim-core's `LessonView`), each
    /// exercise with the choices its answer offers.
    pub fn lesson_json(&self, id: &str, lang: Lang) -> Result<Value, CourseError> {
        let lesson = self.session.lesson(id)?;
        let details = lesson
            .exercises
            .iter()
            .map(|exercise| sql_details(exercise, lang))
            .collect::<Vec<_>>();
        let mut value = to_value(&self.session.lesson_view(id, lang)?);
        // A SQL exercise's statements and parameters beside its view.
        add_to_each(&mut value, "exercises", |at, shown| {
            if let Some(Value::Object(more)) =
                details.get(at).and_then(Option::as_ref).map(to_value)
            {
                shown.extend(more);
            }
        });
        Ok(value)
    }

    /// A lesson scenario's timeline with every verdict (the lesson reader).
    pub fn scenario_timeline(
        &self,
        lesson: &str,
        name: &str,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let scenario = self.session.scenario(lesson, name)?;
        let reveal = self.session.scenario_reveal(lesson, name)?;
        Ok(timeline(scenario, lang, &reveal))
    }

    /// An exercise's timeline, showing what the session's reveal allows.
    pub fn exercise_timeline(
        &self,
        lesson: &str,
        id: &str,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let scenario = self.session.exercise_scenario(lesson, id)?;
        let reveal = self.session.reveal(lesson, id)?;
        Ok(timeline(scenario, lang, &reveal))
    }

    // ---- exercises --------------------------------------------------------

    /// The learner's action on an exercise (open, a change of the answer
    /// in the making, a hint, a hand-in, the solution, leaving) and the
    /// exercise's screen after it ([`screen_json`]): everything the page
    /// draws of an exercise, decided by the session.
    pub fn act(
        &mut self,
        lesson: &str,
        id: &str,
        act: &Act,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let screen = self.session.act(lesson, id, act, lang)?;
        let mut value = screen_json(&screen, lang);
        // A break's schedule in the making, run: the editor's live preview
        // (none when it cannot run: the editor says why).
        if let (Value::Object(shown), Ok(preview)) =
            (&mut value, self.schedule_preview(lesson, id, lang))
        {
            shown.insert("preview".to_owned(), preview);
        }
        Ok(value)
    }

    // ---- practice rounds (issue 24) -------------------------------------

    /// A pool's practice as the page shows it (sim-core's `PracticeView`):
    /// the round to draw now (`key`), its words, the learner's standing,
    /// and whether the round open now is finished.
    pub fn practice_view(&self, pool: &str, lang: Lang) -> Result<Value, CourseError> {
        Ok(to_value(&self.session.practice_view(pool, lang)?))
    }

    /// Opens a round the page's practice worker drew (`key_json`, the
    /// scenario's TOML text), after the session checked it is the round
    /// to play now and a fair puzzle; its exercise screen as
    /// [`Course::act`] gives it on opening.
    pub fn open_practice(
        &mut self,
        key_json: &str,
        toml: &str,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let key = round_key_from_json(key_json)
            .ok_or_else(|| CourseError::PracticeRound(format!("not a round's key: {key_json}")))?;
        let scenario = sim_core::parse_scenario(toml.as_bytes()).map_err(|diagnostics| {
            CourseError::PracticeRound(
                diagnostics
                    .first()
                    .map(|d| d.display_in(lang))
                    .unwrap_or_default(),
            )
        })?;
        self.session.open_practice(&key, scenario)?;
        self.act(&key.lesson_id(), &key.exercise_id(), &Act::Open, lang)
    }

    /// Every pool's practice and the counts per concept (sim-core's
    /// `PracticeReview`), for the page's review.
    pub fn practice_review(&self, lang: Lang) -> Value {
        to_value(&self.session.practice_review(lang))
    }

    /// The timeline of a break exercise's schedule in the making (the
    /// editor's live preview), as the session's reveal allows: outcomes,
    /// verdicts only once it is solved or its solution shown. Records
    /// nothing.
    pub fn schedule_preview(
        &self,
        lesson: &str,
        id: &str,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let attempt = self.session.schedule_preview(lesson, id)?;
        Ok(timeline(&attempt, lang, &self.session.reveal(lesson, id)?))
    }

    /// Hands in a `sql` answer (its statements by slot) with the SQL
    /// engine's `run` of the plan (`CourseSession::sql_plan`, run by
    /// `sqlbox::battery`): graded, the try recorded and shown, the answer
    /// kept, as [`Course::act`] hands in others; the screen after it. Only
    /// in the SQL engine's wasm (`web-sql`).
    #[cfg(feature = "sql-lab")]
    pub fn hand_in_sql(
        &mut self,
        lesson: &str,
        id: &str,
        answer: &Value,
        run: sim_core::sqllab::PlanRun,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let mut parsed = self.session.answer_from_json(lesson, id, answer)?;
        if let sim_core::course::Answer::Sql(sql) = &mut parsed {
            sql.run = Some(run);
        }
        let graded = self.session.grade(lesson, id, &parsed)?;
        self.session.keep_answer(lesson, id, &parsed)?;
        self.session.show_graded(lesson, id, graded);
        let screen = self.session.screen(lesson, id, lang)?;
        Ok(screen_json(&screen, lang))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sim_core::course::Progress;

    fn course() -> Course {
        Course::embedded().unwrap()
    }

    fn first_of_kind(course: &Course, kind: &str) -> (String, String) {
        course
            .session
            .lessons()
            .iter()
            .find_map(|lesson| {
                lesson
                    .exercises
                    .iter()
                    .find(|e| e.kind.name() == kind)
                    .map(|e| (lesson.id.clone(), e.id.clone()))
            })
            .unwrap_or_default()
    }

    /// A first try that is not empty, built from what the page offers:
    /// every candidate marked, the first asked step predicted, the start
    /// design, the starting schedule, the first option.
    fn first_try(course: &Course, lesson: &str, id: &str) -> Value {
        let shown = course.lesson_json(lesson, Lang::En).unwrap_or_default();
        let editor = course.session.screen(lesson, id, Lang::En);
        let exercise = shown["exercises"]
            .as_array()
            .and_then(|all| all.iter().find(|e| e["id"] == id))
            .cloned()
            .unwrap_or_default();
        let items: Vec<u32> = (editor.as_ref().map(|s| s.items.as_slice()))
            .unwrap_or_default()
            .iter()
            .map(|item| item.index)
            .collect();
        match exercise["kind"].as_str() {
            Some("mark") => json!(items),
            Some("predict") => json!({ items[0].to_string(): "ok" }),
            Some("quiz") => json!([0]),
            // What the editor shows: the design's start, the schedule given.
            Some("design" | "break") => editor.map(|s| s.answer).unwrap_or_default(),
            _ => json!({}),
        }
    }

    /// The page's screen JSON after `act`, read as the wasm reads the
    /// page's JSON text, or the session's refusal.
    fn try_act(
        course: &mut Course,
        lesson: &str,
        id: &str,
        act: &Value,
        lang: Lang,
    ) -> Result<Value, CourseError> {
        let read = act_from_json(&act.to_string()).unwrap_or_else(|| panic!("unread: {act}"));
        course.act(lesson, id, &read, lang)
    }

    /// The page's screen JSON after `act`, in English.
    fn act(course: &mut Course, lesson: &str, id: &str, act: Value) -> Value {
        try_act(course, lesson, id, &act, Lang::En)
            .unwrap_or_else(|e| panic!("{lesson}/{id}: {act}: {e}"))
    }

    /// `answer` handed in, in English.
    fn hand_in(course: &mut Course, lesson: &str, id: &str, answer: &Value) -> Value {
        act(
            course,
            lesson,
            id,
            json!({"act": "hand_in", "answer": answer}),
        )
    }

    /// The worked solution's key, as an answer, from its screen.
    fn solution_key(course: &mut Course, lesson: &str, id: &str) -> Value {
        let solution = act(course, lesson, id, json!({"act": "solution"}));
        let feedback = &solution["feedback"];
        assert_eq!(feedback["tone"], "solution", "{lesson}/{id}: {solution:#}");
        let items = feedback["items"].as_array().cloned().unwrap_or_default();
        assert!(
            items.iter().all(|item| item["right"] == true),
            "{lesson}/{id}: the solution grades right: {solution:#}"
        );
        feedback["key_answer"].clone()
    }

    #[test]
    fn every_lesson_is_embedded_in_order() {
        let course = course();
        assert_eq!(course.session.lessons().len(), LESSONS.len());
        assert!(course.session.lessons().len() >= 12);
        let map = course.map(Lang::Zh);
        assert_eq!(map["lessons"][0]["id"], "01-liveness-vs-safety");
        assert_eq!(map["lessons"][0]["title"], "租约不是关机键");
        assert_eq!(map["lang"], "en");
        let orders: Vec<u64> = map["lessons"]
            .as_array()
            .map(|l| l.iter().filter_map(|l| l["order"].as_u64()).collect())
            .unwrap_or_default();
        assert!(orders.windows(2).all(|w| w[0] < w[1]), "{orders:?}");
    }

    #[test]
    fn the_pages_lessons_json_makes_the_same_course() {
        let pairs: Vec<(&str, &str)> = LESSONS.to_vec();
        let text = serde_json::to_string(&pairs).unwrap_or_default();
        let fetched = Course::from_json(&text).unwrap();
        assert_eq!(fetched.session.lessons(), course().session.lessons());
        for bad in ["", "{}", "[[\"a\"]]", "[[1, 2]]"] {
            let error = Course::from_json(bad)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(error.starts_with("lessons.json:"), "{bad}: {error}");
        }
        // A broken lesson inside it is located in its own file.
        let broken = serde_json::to_string(&[("bad", "id = 1\n")]).unwrap_or_default();
        let error = Course::from_json(&broken)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.starts_with("bad.toml:1:"), "{error}");
    }

    #[test]
    fn a_broken_lesson_is_reported_with_file_line_and_column() {
        let error = Course::from_sources(&[("bad", "id = 1\n")])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.starts_with("bad.toml:1:"), "{error}");
        let error = Course::from_sources(&[("other", LESSONS[0].1)])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("must equal the file name"), "{error}");
        let error = Course::from_sources(&[("bad", "id = 1\n")])
            .err()
            .map(|e| e.message(Lang::Zh))
            .unwrap_or_default();
        assert!(
            error.starts_with("bad.toml:1:") && error.contains("必须是字符串"),
            "in the page's language: {error}"
        );
    }

    /// A design exercise over real resources: each target's kind, only its
    /// offers with their costs, and a solution key that says what to
    /// reconcile; the key sent back as an answer is graded right.
    #[test]
    fn a_design_over_real_resources_offers_only_what_each_supports() {
        let mut course = course();
        let lesson = "11-acceptance-test-and-self-check";
        let id = "design-every-resource";
        let opened = try_act(&mut course, lesson, id, &json!({"act": "open"}), Lang::Zh).unwrap();
        let rows = opened["editor"]["rows"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let targets: Vec<&Value> = rows
            .iter()
            .filter(|row| row["fields"][0]["name"] == "protect")
            .collect();
        assert_eq!(targets.len(), 3, "{opened:#}");
        assert_eq!(targets[1]["label"], "t2 短信 / 邮件发送");
        let mailer_offers: Vec<&str> = targets[1]["fields"][0]["choices"]
            .as_array()
            .map(|o| o.iter().filter_map(|o| o["value"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(mailer_offers, ["none"]);
        let gateway =
            json!({"act": "hand_in", "answer": { "target_protect": ["none", "gateway", "none"] }});
        let refused = try_act(&mut course, lesson, id, &gateway, Lang::En);
        assert!(refused.is_err(), "a mailer offers no gateway");
        let none = json!({ "target_protect": ["none", "none", "none"] });
        let tried = hand_in(&mut course, lesson, id, &none);
        assert_eq!(tried["feedback"]["tone"], "bad", "{tried:#}");
        assert_eq!(tried["tries"], 1, "the refused answer is not counted");
        let key = solution_key(&mut course, lesson, id);
        assert!(key["reconcile"].is_array(), "{key:#}");
        let again = hand_in(&mut course, lesson, id, &key);
        assert_eq!(again["feedback"]["tone"], "good", "{again:#}");
    }

    #[test]
    fn every_lesson_and_every_exercise_timeline_renders() {
        let course = course();
        for lesson in course.session.lessons() {
            let value = course.lesson_json(&lesson.id, Lang::En).unwrap();
            assert_eq!(
                value["sections"].as_array().map(Vec::len),
                Some(lesson.sections.len())
            );
            for (name, _) in &lesson.scenarios {
                let timeline = course
                    .scenario_timeline(&lesson.id, name, Lang::Zh)
                    .unwrap();
                assert_eq!(timeline["revealed"], true);
            }
            for exercise in &lesson.exercises {
                let result = course.exercise_timeline(&lesson.id, &exercise.id, Lang::En);
                assert_eq!(result.is_ok(), exercise.kind.scenario().is_some());
            }
        }
    }

    #[test]
    fn a_sql_exercises_level_shows_its_timeline_without_the_statements_asked() {
        let course = course();
        let value = course
            .scenario_timeline("05-cancel-and-reconcile", "cancel-order", Lang::En)
            .unwrap_or_default();
        assert_eq!(value["revealed"], true);
        let steps = value["steps"].as_array().cloned().unwrap_or_default();
        assert!(!steps.is_empty());
        assert!(steps.iter().all(|step| step["sql"].is_null()), "{value}");
        assert!(!value.to_string().contains("UPDATE"), "{value}");
        // A lesson's other timelines keep their statements.
        let other = course
            .scenario_timeline("02-token-in-the-commit", "renew-race", Lang::En)
            .unwrap_or_default();
        assert!(other.to_string().contains("UPDATE"), "{other}");
    }

    #[test]
    fn a_mark_exercise_is_graded_recorded_and_then_revealed() {
        let mut course = course();
        let (lesson, id) = first_of_kind(&course, "mark");
        let before = course
            .exercise_timeline(&lesson, &id, Lang::En)
            .unwrap_or_default();
        assert_eq!(before["revealed"], false);
        assert!(before.get("violations").is_none(), "{before}");
        // No solution before an attempt; an empty answer is refused and
        // not counted.
        let solution = json!({"act": "solution"});
        let empty = json!({"act": "hand_in", "answer": []});
        assert!(try_act(&mut course, &lesson, &id, &solution, Lang::En).is_err());
        assert!(try_act(&mut course, &lesson, &id, &empty, Lang::En).is_err());
        assert!(try_act(&mut course, &lesson, &id, &solution, Lang::En).is_err());
        // Every candidate marked: wrong, since lint wants a step that must
        // be allowed. The grade says how many, not which, nor the takeaway:
        // no feedback line, no reason beside a step.
        let every = first_try(&course, &lesson, &id);
        let wrong = hand_in(&mut course, &lesson, &id, &every);
        let feedback = &wrong["feedback"];
        assert_eq!(feedback["tone"], "bad", "{wrong:#}");
        assert_eq!(feedback["takeaway"], Value::Null, "{wrong:#}");
        assert_eq!(feedback["items"], json!([]), "{wrong:#}");
        let items = wrong["items"].as_array().cloned().unwrap_or_default();
        assert!(!items.is_empty(), "{wrong:#}");
        assert!(items.iter().all(|i| i["why"].is_null()), "{wrong:#}");
        assert_eq!(wrong["tries"], 1);
        let key = solution_key(&mut course, &lesson, &id);
        let handed = json!({"act": "hand_in", "answer": key});
        let right = try_act(&mut course, &lesson, &id, &handed, Lang::Zh).unwrap();
        assert_eq!(right["feedback"]["tone"], "good", "{right:#}");
        assert!(
            right["feedback"]["items"][0]["text"]
                .as_str()
                .is_some_and(|t| t.contains("正确")),
            "{right:#}"
        );
        let after = course
            .exercise_timeline(&lesson, &id, Lang::En)
            .unwrap_or_default();
        assert_eq!(after["revealed"], true);
        let progress = Progress::from_json(&course.progress_json()).unwrap_or_default();
        let entry = progress.exercise(&lesson, &id).cloned().unwrap_or_default();
        assert!(entry.completed && entry.solution_seen);
        assert_eq!(entry.attempts, 2);
    }

    #[test]
    fn every_kind_has_a_solution_that_grades_correct() {
        let mut course = course();
        for kind in ["mark", "predict", "design", "break", "quiz"] {
            let (lesson, id) = first_of_kind(&course, kind);
            let first = first_try(&course, &lesson, &id);
            hand_in(&mut course, &lesson, &id, &first);
            let key = solution_key(&mut course, &lesson, &id);
            let again = hand_in(&mut course, &lesson, &id, &key);
            assert_eq!(again["feedback"]["tone"], "good", "{kind}: {again:#}");
        }
    }

    #[test]
    fn every_break_exercise_takes_its_starting_schedule_as_an_answer() {
        let mut course = course();
        let breaks: Vec<(String, String)> = course
            .session
            .lessons()
            .iter()
            .flat_map(|lesson| {
                lesson
                    .exercises
                    .iter()
                    .filter(|e| e.kind.name() == "break")
                    .map(|e| (lesson.id.clone(), e.id.clone()))
            })
            .collect();
        assert!(!breaks.is_empty());
        for (lesson, id) in breaks {
            // What the editor shows before any edit: the schedule given.
            let opened = act(&mut course, &lesson, &id, json!({"act": "open"}));
            let graded = hand_in(&mut course, &lesson, &id, &opened["answer"]);
            assert_eq!(graded["tries"], 1, "{lesson}/{id}: {graded:#}");
            let key = solution_key(&mut course, &lesson, &id);
            let again = hand_in(&mut course, &lesson, &id, &key);
            assert_eq!(again["feedback"]["tone"], "good", "{lesson}/{id}");
        }
    }

    /// A break's screen carries its schedule in the making as a preview:
    /// outcomes but no verdict before it is solved, following each edit;
    /// a schedule naming an unknown worker is refused.
    #[test]
    fn a_break_screen_previews_its_schedule_with_outcomes_but_no_verdict() {
        let mut course = course();
        let (lesson, id) = first_of_kind(&course, "break");
        let opened = act(&mut course, &lesson, &id, json!({"act": "open"}));
        let steps = opened["answer"].as_array().map_or(0, Vec::len);
        let preview = &opened["preview"];
        assert_eq!(preview["steps"].as_array().map(Vec::len), Some(steps));
        assert_eq!(preview["revealed"], false);
        assert_eq!(preview["toml"], Value::Null);
        let remove = json!({"act": "edit", "edit": {"edit": "remove_step", "row": 0}});
        let removed = act(&mut course, &lesson, &id, remove);
        let left = removed["preview"]["steps"].as_array().map(Vec::len);
        assert_eq!(left, Some(steps - 1), "{removed:#}");
        let bad =
            json!({"act": "change", "answer": [{"at": 0, "worker": "Nobody", "do": "claim"}]});
        let refused = try_act(&mut course, &lesson, &id, &bad, Lang::En);
        assert!(refused.is_err_and(|e| e.to_string().contains("unknown worker")));
        let (mark_lesson, mark) = first_of_kind(&course, "mark");
        let marked = act(&mut course, &mark_lesson, &mark, json!({"act": "open"}));
        assert!(marked.get("preview").is_none());
    }

    #[test]
    fn a_predict_timeline_hides_the_outcomes_it_asks_for() {
        let course = course();
        let (lesson, id) = first_of_kind(&course, "predict");
        let screen = course.session.screen(&lesson, &id, Lang::En).unwrap();
        let asked = screen.items[0].index as usize;
        let timeline = course
            .exercise_timeline(&lesson, &id, Lang::En)
            .unwrap_or_default();
        assert_eq!(timeline["steps"][asked]["mark"], "hidden");
        assert!(timeline["steps"][asked].get("row").is_none());
    }

    #[test]
    fn hints_come_in_order_and_are_counted() {
        let mut course = course();
        let (lesson, id) = first_of_kind(&course, "mark");
        let opened = act(&mut course, &lesson, &id, json!({"act": "open"}));
        assert_eq!(opened["hints"], json!([]));
        assert!(
            opened["hint_button"]
                .as_str()
                .is_some_and(|b| b.starts_with("Show a hint (1/"))
        );
        act(&mut course, &lesson, &id, json!({"act": "hint"}));
        let second = act(&mut course, &lesson, &id, json!({"act": "hint"}));
        assert_eq!(second["hints"].as_array().map(Vec::len), Some(2));
        let map = course.map(Lang::En);
        let listed = map["lessons"][0]["exercises"]
            .as_array()
            .and_then(|l| l.iter().find(|e| e["id"] == json!(id)).cloned())
            .unwrap_or_default();
        assert_eq!(listed["hints"], 2);
        // None past the last: an error, and nothing changes.
        let hints = course.session.exercise(&lesson, &id).unwrap().1.hints.len();
        for _ in 2..hints {
            act(&mut course, &lesson, &id, json!({"act": "hint"}));
        }
        assert!(course.act(&lesson, &id, &Act::Hint, Lang::En).is_err());
    }

    /// Two wrong tries at a mark exercise, then the solution: shown as the
    /// solution beside the learner's try, never calling anything correct;
    /// the key handed in is "solved with the solution", which the map says
    /// with its sign.
    #[test]
    fn the_solution_is_shown_as_the_solution_and_copying_it_is_marked() {
        let mut course = course();
        let (lesson, id) = first_of_kind(&course, "mark");
        let every = first_try(&course, &lesson, &id);
        let change = act(
            &mut course,
            &lesson,
            &id,
            json!({"act": "change", "answer": every}),
        );
        assert_eq!(change["answer"], every);
        assert_eq!(change["feedback"], Value::Null);
        for _ in 0..2 {
            let wrong = act(
                &mut course,
                &lesson,
                &id,
                json!({"act": "hand_in", "answer": every}),
            );
            assert_eq!(wrong["feedback"]["tone"], "bad", "{wrong:#}");
        }
        let solution = act(&mut course, &lesson, &id, json!({"act": "solution"}));
        let feedback = &solution["feedback"];
        assert_eq!(feedback["tone"], "solution");
        assert_eq!(feedback["your_try"]["tone"], "bad");
        let said = solution.to_string();
        for praise in ["Correct", "well done", "✓ Right"] {
            assert!(!said.contains(praise), "{praise}: {said}");
        }
        let key = feedback["key_answer"].clone();
        let copied = act(
            &mut course,
            &lesson,
            &id,
            json!({"act": "hand_in", "answer": key}),
        );
        assert_eq!(copied["feedback"]["tone"], "good");
        assert_eq!(copied["standing"], "solved-with-solution");
        let map = course.map(Lang::En);
        let listed = map["lessons"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|l| l["exercises"].as_array().cloned().unwrap_or_default())
            .find(|e| e["id"] == json!(id))
            .unwrap_or_default();
        assert_eq!(listed["standing"], "solved-with-solution");
        assert_eq!(listed["symbol"], "(✓)");
        assert_eq!(listed["standing_label"], "solved with the solution");
        // Leaving drops the feedback; the answer stays.
        let left = act(&mut course, &lesson, &id, json!({"act": "leave"}));
        assert_eq!(left["feedback"], Value::Null);
        assert_eq!(left["answer"], key);
    }

    /// A design's try on the screen carries its counterexample as a
    /// timeline (titled for the learner), and the solution's "your try"
    /// carries it too.
    #[test]
    fn a_screen_carries_the_counterexample_as_a_timeline() {
        let mut course = course();
        let (lesson, id) = first_of_kind(&course, "design");
        let tried = act(
            &mut course,
            &lesson,
            &id,
            json!({"act": "hand_in", "answer": {}}),
        );
        let found = &tried["feedback"]["counterexample"];
        assert!(found["step"].is_u64(), "{tried:#}");
        assert_eq!(
            found["timeline"]["title"],
            "A counterexample to your design"
        );
        assert!(tried["cost_label"].is_string(), "{tried:#}");
        let solution = act(&mut course, &lesson, &id, json!({"act": "solution"}));
        let yours = &solution["feedback"]["your_try"]["counterexample"];
        assert_eq!(
            yours["timeline"]["title"],
            "A counterexample to your design"
        );
    }

    /// The page's acts read by hand as sim-core writes them; anything
    /// else is refused.
    #[test]
    fn acts_are_read_as_sim_core_writes_them() {
        let acts = [
            Act::Open,
            Act::Change {
                answer: json!([1, 2]),
            },
            Act::Hint,
            Act::HandIn {
                answer: Some(json!({"3": "ok"})),
            },
            Act::HandIn { answer: None },
            Act::Solution,
            Act::Leave,
            Act::Edit {
                edit: Edit::Set {
                    row: 1,
                    field: 0,
                    value: "12".to_owned(),
                },
            },
            Act::Edit {
                edit: Edit::Cycle {
                    row: 0,
                    field: 2,
                    forward: false,
                },
            },
            Act::Edit {
                edit: Edit::AddStep { after: None },
            },
            Act::Edit {
                edit: Edit::AddStep { after: Some(3) },
            },
            Act::Edit {
                edit: Edit::RemoveStep { row: 2 },
            },
            Act::Edit {
                edit: Edit::MoveStep {
                    row: 2,
                    later: true,
                },
            },
            Act::Edit {
                edit: Edit::Choose {
                    item: 3,
                    value: Some("ok".to_owned()),
                },
            },
            Act::Edit {
                edit: Edit::Choose {
                    item: 0,
                    value: None,
                },
            },
        ];
        for act in acts {
            let text = serde_json::to_string(&act).unwrap();
            assert_eq!(act_from_json(&text), Some(act), "{text}");
        }
        for bad in [
            "",
            "[]",
            r#"{"act": "dance"}"#,
            r#"{"act": "edit", "edit": {"edit": "choose", "item": 1, "value": 2}}"#,
            r#"{"act": "edit", "edit": {"edit": "choose", "value": "ok"}}"#,
            r#"{"act": "hint", "answer": 1}"#,
            r#"{"act": "open", "x": 1}"#,
            r#"{"act": 1}"#,
            r#"{"act": "edit"}"#,
            r#"{"act": "open", "edit": {"edit": "remove_step", "row": 1}}"#,
            r#"{"act": "edit", "edit": {"edit": "remove_step", "row": -1}}"#,
            r#"{"act": "edit", "edit": {"edit": "cycle", "row": 1, "field": 0}}"#,
            r#"{"act": "edit", "edit": {"edit": "set", "row": 1, "field": 0, "value": 3}}"#,
            r#"{"act": "edit", "edit": {"edit": "remove_step", "row": 1, "x": 1}}"#,
        ] {
            assert_eq!(act_from_json(bad), None, "{bad}");
        }
    }

    /// A worker's record is taken whole when the page did nothing since it
    /// was sent (its last answers too), and merged otherwise.
    #[test]
    fn a_workers_record_is_taken_whole_or_merged() {
        let mut page = course();
        let (lesson, id) = first_of_kind(&page, "quiz");
        act(
            &mut page,
            &lesson,
            &id,
            json!({"act": "change", "answer": [1]}),
        );
        let sent = page.progress_json();
        let mut worker = course();
        worker.load_progress(&sent).unwrap();
        act(
            &mut worker,
            &lesson,
            &id,
            json!({"act": "change", "answer": [2]}),
        );
        page.take_worker_progress(&sent, &worker.progress_json())
            .unwrap();
        let screen = act(&mut page, &lesson, &id, json!({"act": "open"}));
        assert_eq!(screen["answer"], json!([2]));
        // The page moved on meanwhile: merged, its own hint kept.
        let sent = page.progress_json();
        worker.load_progress(&sent).unwrap();
        act(
            &mut worker,
            &lesson,
            &id,
            json!({"act": "hand_in", "answer": [3]}),
        );
        act(&mut page, &lesson, &id, json!({"act": "hint"}));
        page.take_worker_progress(&sent, &worker.progress_json())
            .unwrap();
        let record = Progress::from_json(&page.progress_json()).unwrap();
        let entry = record.exercise(&lesson, &id).unwrap();
        assert_eq!((entry.attempts, entry.hints_used), (1, 1));
    }

    /// The page's grading worker: a second session grades a design and
    /// records the try; merged into the page's session, the try counts
    /// once and a hint the page showed meanwhile is kept.
    #[test]
    fn a_record_from_the_grading_worker_merges_without_loss() {
        let mut page = course();
        let (lesson, id) = first_of_kind(&page, "design");
        let (quiz_lesson, quiz) = first_of_kind(&page, "quiz");
        let mut worker = course();
        worker.load_progress(&page.progress_json()).unwrap();
        let answer = first_try(&worker, &lesson, &id);
        hand_in(&mut worker, &lesson, &id, &answer);
        // Meanwhile, on the page: a hint on another exercise.
        act(&mut page, &quiz_lesson, &quiz, json!({"act": "hint"}));
        page.merge_progress(&worker.progress_json()).unwrap();
        let record = Progress::from_json(&page.progress_json()).unwrap();
        assert_eq!(record.exercise(&lesson, &id).unwrap().attempts, 1);
        assert_eq!(record.exercise(&quiz_lesson, &quiz).unwrap().hints_used, 1);
        // Merged twice (a repeated message), still one try.
        page.merge_progress(&worker.progress_json()).unwrap();
        let record = Progress::from_json(&page.progress_json()).unwrap();
        assert_eq!(record.exercise(&lesson, &id).unwrap().attempts, 1);
        assert!(page.merge_progress("{ not json").is_err());
    }

    #[test]
    fn progress_round_trips_and_bad_records_are_refused() {
        let mut course = course();
        course.set_lang(Lang::Zh);
        course
            .mark_read("01-liveness-vs-safety", 1)
            .unwrap_or_default();
        assert!(course.mark_read("01-liveness-vs-safety", 99).is_err());
        let saved = course.progress_json();
        let mut other = Course::embedded().unwrap();
        other.load_progress(&saved).unwrap();
        assert_eq!(other.lang(), Lang::Zh);
        assert_eq!(other.map(Lang::En)["lessons"][0]["sections_read"], 1);
        assert_eq!(other.map(Lang::En)["position"]["section"], 1);
        // Damaged and newer records are refused; the progress stays.
        assert!(other.load_progress("{\"version\": 2, \"lang\":").is_err());
        let newer = other
            .load_progress(r#"{"version": 99}"#)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(newer.contains("newer"), "{newer}");
        assert_eq!(other.lang(), Lang::Zh);
        // Version 1 migrates.
        other
            .load_progress(r#"{"version":1,"completed":["01-liveness-vs-safety/x"]}"#)
            .unwrap();
        assert_eq!(other.lang(), Lang::En);
        other.reset_progress();
        assert_eq!(other.map(Lang::En)["lessons"][0]["sections_read"], 0);
    }

    #[test]
    fn the_front_door_tells_the_engines_endings_and_where_to_go() {
        let mut course = course();
        let door = course.front_door(Lang::En);
        let stories = door["stories"].as_array().unwrap();
        assert_eq!(stories.len(), 2);
        // Without a token A's late write is a violation; with one it bounces.
        assert_eq!(stories[0]["violation"], true);
        assert_eq!(stories[1]["landed"], false);
        assert_eq!(
            stories[1]["timeline"]["steps"][stories[1]["ending_step"].as_u64().unwrap() as usize]["mark"],
            "rejected"
        );
        assert_eq!(door["started"], false);
        let first = course.session.lessons()[0].exercises[0].clone();
        assert_eq!(door["next"]["title"], first.title(Lang::En));
        assert_ne!(door["next"]["title"], first.id.as_str());
        // A first (wrong) try: the learner has begun; Continue still leads
        // to the same unfinished exercise.
        let (quiz_lesson, quiz) = first_of_kind(&course, "quiz");
        let tried = hand_in(&mut course, &quiz_lesson, &quiz, &json!([0]));
        assert_eq!(tried["feedback"]["tone"], "bad", "{tried:#}");
        let door = course.front_door(Lang::Zh);
        assert_eq!(door["started"], true);
        assert_eq!(door["next"]["title"], first.title(Lang::Zh));
    }

    #[test]
    fn a_design_counterexample_is_titled_for_the_learner_not_after_a_preset() {
        let mut course = course();
        let (lesson, design) = first_of_kind(&course, "design");
        let start = act(&mut course, &lesson, &design, json!({"act": "open"}))["answer"].clone();
        let answer = json!({ "commit_checks": start["commit_checks"], "renew_checks": start["renew_checks"], "reconcile": [] });
        let graded = hand_in(&mut course, &lesson, &design, &answer);
        let found = &graded["feedback"]["counterexample"];
        assert!(found.is_object(), "the start design is unsafe: {graded:#}");
        assert_eq!(
            found["timeline"]["title"],
            "A counterexample to your design"
        );
        assert!(found["timeline"].get("description").is_none());
        assert!(
            !found["timeline"]["toml"]
                .as_str()
                .unwrap_or("")
                .contains("Counterexample for")
        );
    }

    #[test]
    fn unknown_names_are_errors_not_panics() {
        let mut course = course();
        assert!(course.lesson_json("nope", Lang::En).is_err());
        assert!(
            course
                .exercise_timeline("01-liveness-vs-safety", "nope", Lang::En)
                .is_err()
        );
        assert!(
            course
                .scenario_timeline("01-liveness-vs-safety", "nope", Lang::En)
                .is_err()
        );
        let hand = |answer: Value| json!({"act": "hand_in", "answer": answer});
        let lesson = "01-liveness-vs-safety";
        assert!(try_act(&mut course, lesson, "nope", &hand(json!([])), Lang::En).is_err());
        assert!(
            try_act(
                &mut course,
                "nope",
                "nope",
                &json!({"act": "open"}),
                Lang::En
            )
            .is_err()
        );
        let (lesson, id) = first_of_kind(&course, "mark");
        assert!(try_act(&mut course, &lesson, &id, &hand(json!({"x": 1})), Lang::En).is_err());
        assert!(try_act(&mut course, &lesson, &id, &hand(json!([999])), Lang::En).is_err());
        assert!(course.set_self_check("basic", true).is_ok());
        assert!(course.set_self_check("guru", true).is_err());
    }

    /// A practice round as the page plays it: drawn from the view's key in
    /// the worker's export (`crate::draw_practice`, from lessons.json),
    /// opened by the session (which refuses a round not to be played now),
    /// answered on its exercise screen as a mark exercise; once finished
    /// the view offers the next round, and the review counts it.
    #[test]
    fn a_practice_round_is_drawn_opened_answered_and_counted() {
        let mut course = course();
        course.seed_if_missing(11);
        let pool = "01-liveness-vs-safety";
        let lessons = serde_json::to_string(&LESSONS.to_vec()).unwrap_or_default();
        let view = course.practice_view(pool, Lang::En).unwrap();
        assert_eq!(view["key"]["round"], 0);
        assert_eq!(view["key"]["seed"], 11);
        assert_eq!(view["round_finished"], false);
        let key = view["key"].to_string();
        let drawn = crate::draw_practice(&lessons, &key, Lang::En).unwrap();
        assert_eq!(drawn["key"], view["key"]);
        let toml = drawn["scenario"].as_str().unwrap_or_default();
        // Another round than the one to play now is refused.
        let mut later = view["key"].clone();
        later["round"] = json!(3);
        assert!(
            course
                .open_practice(&later.to_string(), toml, Lang::En)
                .is_err()
        );
        assert!(course.open_practice(&key, "id = 1", Lang::En).is_err());
        let screen = course.open_practice(&key, toml, Lang::En).unwrap();
        assert_eq!(screen["kind"], "mark");
        assert_eq!(screen["lesson"], format!("practice/{pool}"));
        assert_eq!(screen["exercise"], "round-0");
        assert_eq!(screen["practice"]["round_finished"], false);
        let (lesson, id) = (
            screen["lesson"].as_str().unwrap_or_default().to_owned(),
            screen["exercise"].as_str().unwrap_or_default().to_owned(),
        );
        assert!(course.exercise_timeline(&lesson, &id, Lang::En).is_ok());
        // Every candidate marked is wrong (a round has a step to allow).
        let every: Vec<u32> = screen["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|item| item["index"].as_u64().map(|i| i as u32))
            .collect();
        let tried = hand_in(&mut course, &lesson, &id, &json!(every));
        assert_eq!(tried["feedback"]["tone"], "bad", "{tried:#}");
        assert_eq!(tried["practice"]["round_finished"], false);
        let key_answer = solution_key(&mut course, &lesson, &id);
        let right = hand_in(&mut course, &lesson, &id, &key_answer);
        assert_eq!(right["practice"]["round_finished"], true, "{right:#}");
        let next = course.practice_view(pool, Lang::En).unwrap();
        assert_eq!(next["key"]["round"], 1);
        assert_eq!(next["round_finished"], true);
        let review = course.practice_review(Lang::En);
        let rounds: u64 = review["pools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["finished"].as_u64())
            .sum();
        assert_eq!(rounds, 1);
        assert_eq!(review["concepts"][0]["finished"], 1);
        assert_eq!(review["concepts"][0]["right_first"], 0);
        // The map and the lesson's page say which lessons have practice.
        let map = course.map(Lang::Zh);
        assert!(map["lessons"][0]["practice"].is_string());
        assert!(
            course.lesson_json(pool, Lang::En).unwrap()["practice"].is_string(),
            "lesson 1 has practice rounds"
        );
        // The worker's draw refuses what it cannot draw, in the language asked.
        let mut nowhere = view["key"].clone();
        nowhere["pool"] = json!("nope");
        let error = crate::draw_practice(&lessons, &nowhere.to_string(), Lang::Zh)
            .err()
            .unwrap_or_default();
        assert!(error.contains("没有课程"), "{error}");
        assert!(crate::draw_practice(&lessons, "{}", Lang::En).is_err());
    }

    /// The page's path, review and last answer come from the session: a
    /// section's level state, each exercise's level, the map's exercises in
    /// course order with their standing and the next unfinished one, and a
    /// try's answer kept in the record and given back.
    #[test]
    fn levels_review_and_the_last_answer_reach_the_page() {
        let mut course = course();
        let lesson = "01-liveness-vs-safety";
        let shown = course.lesson_json(lesson, Lang::En).unwrap();
        let states: Vec<&str> = shown["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["state"].as_str().unwrap())
            .collect();
        assert_eq!(states.first(), Some(&"current"));
        assert!(states[1..].iter().all(|s| *s == "open"));
        let found = &course.session.lessons()[0];
        for exercise in shown["exercises"].as_array().unwrap() {
            let id = exercise["id"].as_str().unwrap();
            let index = found.exercises.iter().position(|e| e.id == id).unwrap();
            assert_eq!(exercise["level"], json!(found.level_of(index)));
        }
        let map = course.map(Lang::En);
        let listed: Vec<&str> = map["lessons"][0]["exercises"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        let order: Vec<String> = course
            .session
            .course_order()
            .into_iter()
            .filter(|(at, _)| *at == 0)
            .map(|(_, e)| found.exercises[e].id.clone())
            .collect();
        assert_eq!(listed, order);
        assert_eq!(map["next"]["exercise"], json!(order[0]));
        assert_eq!(map["lessons"][0]["exercises"][0]["standing"], "not-started");
        // The counts the map and the review show are the session's.
        assert_eq!(map["completed"], 0);
        assert_eq!(map["total"], course.session().completed_overall().1);
        assert_eq!(map["lessons"][0]["done"], false);
        // A try: counted on the map, the answer kept and given back on
        // the screen.
        let answer = first_try(&course, lesson, &order[0]);
        act(
            &mut course,
            lesson,
            &order[0],
            json!({"act": "hand_in", "answer": answer}),
        );
        let map = course.map(Lang::En);
        let first = &map["lessons"][0]["exercises"][0];
        assert_eq!(first["tries"], 1);
        assert_ne!(first["standing"], "not-started");
        let screen = act(&mut course, lesson, &order[0], json!({"act": "open"}));
        assert_eq!(screen["answer"], answer);
    }
}
