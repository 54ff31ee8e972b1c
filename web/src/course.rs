//! The course behind the page: the lessons (the page's `lessons.json`, or
//! for tests the copy embedded at build time), the
//! learner's progress (the terminal's progress record, byte for byte), and
//! every question the page asks of them — answered as JSON values.
//!
//! Nothing here stores an answer: grades, solutions and timelines are
//! computed by sim-core when asked, exactly as `fencelab grade` does.

use serde_json::{Value, json};
use sim_core::Lang;
use sim_core::course::{
    Answer, DesignAnswer, Exercise, ExerciseKind, ExerciseProgress, Grade, Knob, Lesson, Progress,
    answer_from_json, concept_name, grade, parse_lesson, solution, strongest_safe_design,
};
use sim_core::{Action, Check, LeaseClock, Outcome, Protect, Text, TokenKind};

use crate::timeline::timeline;
use sim_core::Reveal;

#[cfg(feature = "embedded-lessons")]
include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// The lessons and the learner's progress.
#[derive(Debug)]
pub struct Course {
    /// In `order`.
    lessons: Vec<Lesson>,
    progress: Progress,
}

fn concepts(ids: &[String], lang: Lang) -> Vec<Value> {
    ids.iter()
        .map(|id| json!({ "id": id, "name": concept_name(id, lang).unwrap_or_default() }))
        .collect()
}

fn exercise_progress(progress: Option<&ExerciseProgress>) -> Value {
    let blank = ExerciseProgress::default();
    let progress = progress.unwrap_or(&blank);
    json!({
        "completed": progress.completed,
        "attempts": progress.attempts,
        "hints_used": progress.hints_used,
        "solution_seen": progress.solution_seen,
    })
}

fn outcome_name(outcome: Outcome) -> &'static str {
    outcome.name()
}

const OUTCOMES: [Outcome; 5] = [
    Outcome::Ok,
    Outcome::Rejected,
    Outcome::Duplicate,
    Outcome::Noop,
    Outcome::Waiting,
];

impl Course {
    /// The course this build embeds, with fresh progress.
    #[cfg(feature = "embedded-lessons")]
    pub fn embedded() -> Result<Course, String> {
        Course::from_sources(LESSONS)
    }

    /// A course from the page's `lessons.json`: a list of `[file stem,
    /// TOML text]` pairs, as `cargo xtask web` writes it.
    pub fn from_json(text: &str) -> Result<Course, String> {
        let pairs: Vec<(String, String)> = serde_json::from_str(text).map_err(|error| {
            format!("lessons.json: not a list of [file name, lesson text] pairs ({error})")
        })?;
        let sources: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(stem, text)| (stem.as_str(), text.as_str()))
            .collect();
        Course::from_sources(&sources)
    }

    /// A course from (file stem, TOML text) pairs. Mistakes come back as
    /// `FILE.toml:LINE:COL: message` lines.
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<Course, String> {
        let mut lessons = Vec::new();
        let mut problems = Vec::new();
        for (stem, text) in sources {
            match parse_lesson(text.as_bytes()) {
                Ok(lesson) if lesson.id == *stem => lessons.push(lesson),
                Ok(lesson) => problems.push(format!(
                    "{stem}.toml:1:1: the lesson's id `{}` must equal the file name",
                    lesson.id
                )),
                Err(diagnostics) => {
                    problems.extend(diagnostics.iter().map(|d| format!("{stem}.toml:{d}")));
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        lessons.sort_by_key(|lesson| lesson.order);
        Ok(Course {
            lessons,
            progress: Progress::default(),
        })
    }

    fn lesson(&self, id: &str) -> Result<&Lesson, String> {
        self.lessons
            .iter()
            .find(|lesson| lesson.id == id)
            .ok_or_else(|| format!("there is no lesson `{id}`"))
    }

    fn exercise<'a>(
        &'a self,
        lesson: &str,
        id: &str,
    ) -> Result<(&'a Lesson, &'a Exercise), String> {
        let found = self.lesson(lesson)?;
        let exercise = found
            .exercise(id)
            .ok_or_else(|| format!("lesson `{lesson}` has no exercise `{id}`"))?;
        Ok((found, exercise))
    }

    // ---- progress ---------------------------------------------------------

    /// Replaces the progress with a record read from JSON (any version this
    /// build knows). A damaged or newer record is refused and the current
    /// progress kept; the caller keeps the bytes aside.
    pub fn load_progress(&mut self, text: &str) -> Result<(), String> {
        let progress = Progress::from_json(text).map_err(|e| e.to_string())?;
        self.progress = progress;
        Ok(())
    }

    /// The progress record as JSON, the same as the terminal's file.
    pub fn progress_json(&self) -> String {
        self.progress.to_json()
    }

    pub fn reset_progress(&mut self) {
        let lang = self.progress.lang;
        self.progress = Progress {
            lang,
            ..Progress::default()
        };
    }

    pub fn lang(&self) -> Lang {
        self.progress.lang
    }

    pub fn set_lang(&mut self, lang: Lang) {
        self.progress.lang = lang;
    }

    /// Records that section `section` of `lesson` was read, and that the
    /// learner is there.
    pub fn mark_read(&mut self, lesson: &str, section: u32) -> Result<(), String> {
        let count = self.lesson(lesson)?.sections.len();
        if section as usize >= count {
            return Err(format!("lesson `{lesson}` has {count} sections"));
        }
        let entry = self.progress.lessons.entry(lesson.to_owned()).or_default();
        if !entry.sections_read.contains(&section) {
            entry.sections_read.push(section);
            entry.sections_read.sort_unstable();
        }
        self.progress.position = Some(sim_core::course::Position {
            lesson: lesson.to_owned(),
            section,
        });
        Ok(())
    }

    /// Ticks (or unticks) a self-check level: `basic`, `intermediate`, `senior`.
    pub fn set_self_check(&mut self, level: &str, done: bool) -> Result<(), String> {
        let check = &mut self.progress.self_check;
        match level {
            "basic" => check.basic = done,
            "intermediate" => check.intermediate = done,
            "senior" => check.senior = done,
            other => return Err(format!("unknown self-check level `{other}`")),
        }
        Ok(())
    }

    // ---- what the page shows ---------------------------------------------

    /// The course map: every lesson with its progress.
    pub fn map(&self, lang: Lang) -> Value {
        let lessons: Vec<Value> = self
            .lessons
            .iter()
            .map(|lesson| {
                let progress = self.progress.lessons.get(&lesson.id);
                let exercises: Vec<Value> = lesson
                    .exercises
                    .iter()
                    .map(|exercise| {
                        let done = progress.and_then(|p| p.exercises.get(&exercise.id));
                        json!({
                            "id": exercise.id,
                            "kind": exercise.kind.name(),
                            "progress": exercise_progress(done),
                        })
                    })
                    .collect();
                let completed = lesson
                    .exercises
                    .iter()
                    .filter(|e| {
                        self.progress
                            .exercise(&lesson.id, &e.id)
                            .is_some_and(|p| p.completed)
                    })
                    .count();
                json!({
                    "id": lesson.id,
                    "order": lesson.order,
                    "title": lesson.title.get(lang),
                    "summary": lesson.summary.get(lang),
                    "concepts": concepts(&lesson.concepts, lang),
                    "sections": lesson.sections.len(),
                    "sections_read": progress.map_or(0, |p| p.sections_read.len()),
                    "exercises": exercises,
                    "completed": completed,
                })
            })
            .collect();
        json!({
            "lang": self.lang(),
            "lessons": lessons,
            "position": self.progress.position.as_ref().map(|p| json!({ "lesson": p.lesson, "section": p.section })),
            "self_check": {
                "basic": self.progress.self_check.basic,
                "intermediate": self.progress.self_check.intermediate,
                "senior": self.progress.self_check.senior,
            },
        })
    }

    /// One lesson: its sections, scenarios and exercises, in `lang`.
    pub fn lesson_json(&self, id: &str, lang: Lang) -> Result<Value, String> {
        let lesson = self.lesson(id)?;
        let progress = self.progress.lessons.get(id);
        let scenario_name = |index: Option<usize>| {
            index
                .and_then(|i| lesson.scenarios.get(i))
                .map(|(n, _)| n.clone())
        };
        let sections: Vec<Value> = lesson
            .sections
            .iter()
            .enumerate()
            .map(|(index, section)| {
                json!({
                    "title": section.title.get(lang),
                    "body": section.body.get(lang),
                    "concepts": concepts(&section.concepts, lang),
                    "scenario": scenario_name(section.scenario),
                    "read": progress.is_some_and(|p| p.sections_read.contains(&(index as u32))),
                })
            })
            .collect();
        let scenarios: Vec<Value> = lesson
            .scenarios
            .iter()
            .map(|(name, scenario)| json!({ "name": name, "title": scenario.title.get(lang) }))
            .collect();
        let exercises: Vec<Value> = lesson
            .exercises
            .iter()
            .map(|exercise| self.exercise_json(lesson, exercise, lang))
            .collect();
        Ok(json!({
            "id": lesson.id,
            "order": lesson.order,
            "title": lesson.title.get(lang),
            "summary": lesson.summary.get(lang),
            "concepts": concepts(&lesson.concepts, lang),
            "sections": sections,
            "scenarios": scenarios,
            "exercises": exercises,
        }))
    }

    fn exercise_json(&self, lesson: &Lesson, exercise: &Exercise, lang: Lang) -> Value {
        let progress = self.progress.exercise(&lesson.id, &exercise.id);
        let attempted = progress.is_some_and(|p| p.attempts > 0);
        let hints_used = progress.map_or(0, |p| p.hints_used as usize);
        let shown_hints: Vec<&str> = exercise
            .hints
            .iter()
            .take(hints_used)
            .map(|h| h.get(lang))
            .collect();
        let mut object = json!({
            "id": exercise.id,
            "kind": exercise.kind.name(),
            "prompt": exercise.prompt.get(lang),
            "concepts": concepts(&exercise.concepts, lang),
            "hints": exercise.hints.len(),
            "shown_hints": shown_hints,
            "takeaway": attempted.then(|| exercise.takeaway.get(lang)),
            "progress": exercise_progress(progress),
            "scenario": exercise
                .kind
                .scenario()
                .and_then(|i| lesson.scenarios.get(i))
                .map(|(name, _)| name.clone()),
        });
        let extra = match &exercise.kind {
            ExerciseKind::Mark {
                scenario,
                candidates,
            } => {
                let steps: Vec<u32> = lesson
                    .scenario(*scenario)
                    .map(|s| sim_core::course::mark_candidates(s, candidates))
                    .unwrap_or_default();
                json!({
                    "candidates": candidates.iter().map(|a| a.name()).collect::<Vec<_>>(),
                    "candidate_steps": steps,
                })
            }
            ExerciseKind::Predict { scenario, steps } => {
                let count = lesson.scenario(*scenario).map_or(0, |s| s.steps.len());
                let asked: Vec<u32> = steps.clone().unwrap_or_else(|| (0..count as u32).collect());
                json!({
                    "steps": asked,
                    "outcomes": OUTCOMES.map(outcome_name),
                })
            }
            ExerciseKind::Design {
                start, open, world, ..
            } => json!({
                "open": open.iter().map(|k| k.name()).collect::<Vec<_>>(),
                "start": {
                    "commit_checks": start.commit_checks.names(),
                    "renew_checks": start.renew_checks.names(),
                    "token": start.token.name(),
                    "lease_clock": start.lease_clock.name(),
                    "target_protect": world
                        .targets
                        .as_ref()
                        .map(|t| t.iter().map(|p| p.name()).collect::<Vec<_>>())
                        .unwrap_or_default(),
                },
                "choices": {
                    "checks": Check::ALL.map(Check::name),
                    "token": TokenKind::ALL.map(TokenKind::name),
                    "lease_clock": LeaseClock::ALL.map(LeaseClock::name),
                    "target_protect": Protect::ALL.map(Protect::name),
                },
                "world": {
                    "workers": world.workers,
                    "targets": world.targets.as_ref().map_or(0, Vec::len),
                    "ttl": world.ttl,
                    "jobs": world.jobs,
                    "cancel": world.allow_cancel,
                    "heartbeat": world.heartbeat,
                    "restarted": world.restarted,
                },
            }),
            ExerciseKind::Break {
                scenario,
                violation,
            } => {
                let shell = lesson.scenario(*scenario);
                json!({
                    "violation": violation.map(|v| v.name()),
                    "steps": shell.map(answer_steps).unwrap_or_default(),
                    "workers": shell.map(|s| s.workers.iter().map(|w| w.id.clone()).collect::<Vec<_>>()),
                    "targets": shell.map(|s| s.targets.iter().map(|t| t.id.clone()).collect::<Vec<_>>()),
                    "jobs": shell.map(|s| s.jobs.clone()),
                    "actions": Action::ALL.map(Action::name),
                })
            }
            ExerciseKind::Quiz { multiple, options } => json!({
                "multiple": multiple,
                "options": options.iter().map(|o| o.text.get(lang)).collect::<Vec<_>>(),
            }),
        };
        if let (Value::Object(map), Value::Object(more)) = (&mut object, extra) {
            map.extend(more);
        }
        object
    }

    /// A lesson scenario's timeline with every verdict (the lesson reader).
    pub fn scenario_timeline(&self, lesson: &str, name: &str, lang: Lang) -> Result<Value, String> {
        let found = self.lesson(lesson)?;
        let (_, scenario) = found
            .scenarios
            .iter()
            .find(|(known, _)| known == name)
            .ok_or_else(|| format!("lesson `{lesson}` has no scenario `{name}`"))?;
        Ok(timeline(scenario, lang, &Reveal::Everything))
    }

    /// An exercise's timeline, showing only what the learner may see yet:
    /// no verdicts before the exercise is solved (or its solution shown),
    /// and no outcomes of the steps a predict exercise asks about.
    pub fn exercise_timeline(&self, lesson: &str, id: &str, lang: Lang) -> Result<Value, String> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let index = exercise
            .kind
            .scenario()
            .ok_or_else(|| format!("a `{}` exercise has no timeline", exercise.kind.name()))?;
        let scenario = found
            .scenario(index)
            .ok_or("the exercise's scenario is missing")?;
        let done = self
            .progress
            .exercise(lesson, id)
            .is_some_and(|p| p.completed || p.solution_seen);
        let reveal = match &exercise.kind {
            _ if done => Reveal::Everything,
            ExerciseKind::Predict { steps, .. } => Reveal::NotTheseSteps(
                steps
                    .clone()
                    .unwrap_or_else(|| (0..scenario.steps.len() as u32).collect()),
            ),
            _ => Reveal::NoVerdicts,
        };
        Ok(timeline(scenario, lang, &reveal))
    }

    /// The timeline of a break exercise's schedule as the learner edits it
    /// (the editor's live preview): outcomes, but no verdict — only
    /// grading says whether the schedule breaks the design. Records nothing.
    pub fn break_preview(
        &self,
        lesson: &str,
        id: &str,
        answer: &Value,
        lang: Lang,
    ) -> Result<Value, String> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let (ExerciseKind::Break { scenario, .. }, Answer::Break(schedule)) =
            (&exercise.kind, answer_from_json(found, exercise, answer)?)
        else {
            return Err(format!("`{id}` is not a break exercise"));
        };
        let mut attempt = found
            .scenario(*scenario)
            .ok_or("the exercise's scenario is missing")?
            .clone();
        attempt.steps = schedule.steps;
        attempt.ops = schedule.ops;
        attempt.values = schedule.values;
        attempt.check()?;
        Ok(timeline(&attempt, lang, &Reveal::NoVerdicts))
    }

    // ---- exercises --------------------------------------------------------

    /// Grades an answer (the value an answers file holds under the
    /// exercise's kind) and records the attempt.
    pub fn grade(
        &mut self,
        lesson: &str,
        id: &str,
        answer: &Value,
        lang: Lang,
    ) -> Result<Value, String> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let parsed = answer_from_json(found, exercise, answer)?;
        let graded = grade(found, exercise, &parsed)?;
        let takeaway = exercise.takeaway.get(lang).to_owned();
        let mut value = grade_json(&graded, lang);
        self.progress.record_attempt(lesson, id, graded.correct);
        if let Value::Object(map) = &mut value {
            map.insert("takeaway".into(), json!(takeaway));
            map.insert(
                "progress".into(),
                exercise_progress(self.progress.exercise(lesson, id)),
            );
        }
        Ok(value)
    }

    /// Hint `index` (from 0). Hints come in order: the next one only after
    /// the ones before it.
    pub fn hint(
        &mut self,
        lesson: &str,
        id: &str,
        index: u32,
        lang: Lang,
    ) -> Result<Value, String> {
        let (_, exercise) = self.exercise(lesson, id)?;
        let hint: Text = exercise
            .hints
            .get(index as usize)
            .cloned()
            .ok_or_else(|| format!("exercise `{id}` has {} hints", exercise.hints.len()))?;
        let count = exercise.hints.len();
        let entry = self.progress.exercise_mut(lesson, id);
        if index > entry.hints_used {
            return Err(format!(
                "hint {index} comes after hint {}",
                entry.hints_used
            ));
        }
        entry.hints_used = entry.hints_used.max(index + 1);
        Ok(json!({
            "index": index,
            "text": hint.get(lang),
            "more": (index as usize + 1) < count,
        }))
    }

    /// The worked solution with its reasons, computed now; only after an
    /// attempt.
    pub fn solution(&mut self, lesson: &str, id: &str, lang: Lang) -> Result<Value, String> {
        let attempts = self.progress.exercise(lesson, id).map_or(0, |p| p.attempts);
        let (found, exercise) = self.exercise(lesson, id)?;
        if attempts == 0 {
            return Err(if lang == Lang::Zh {
                "先自己试一次，再看解答。".to_owned()
            } else {
                "Try the exercise once before you see the solution.".to_owned()
            });
        }
        let (graded, key) = match &exercise.kind {
            ExerciseKind::Design {
                start, open, world, ..
            } => {
                let (design, targets) = strongest_safe_design(*start, open, world)
                    .ok_or("no safe choice exists among the open knobs")?;
                let mut key = serde_json::Map::new();
                let mut answer = DesignAnswer::default();
                for knob in open {
                    match knob {
                        Knob::CommitChecks => {
                            answer.commit_checks = Some(design.commit_checks);
                            key.insert(knob.name().into(), json!(design.commit_checks.names()));
                        }
                        Knob::RenewChecks => {
                            answer.renew_checks = Some(design.renew_checks);
                            key.insert(knob.name().into(), json!(design.renew_checks.names()));
                        }
                        Knob::Token => {
                            answer.token = Some(design.token);
                            key.insert(knob.name().into(), json!(design.token.name()));
                        }
                        Knob::LeaseClock => {
                            answer.lease_clock = Some(design.lease_clock);
                            key.insert(knob.name().into(), json!(design.lease_clock.name()));
                        }
                        Knob::TargetProtect => {
                            key.insert(
                                knob.name().into(),
                                json!(targets.iter().map(|p| p.name()).collect::<Vec<_>>()),
                            );
                            answer.target_protect = Some(targets.clone());
                        }
                    }
                }
                (
                    grade(found, exercise, &Answer::Design(answer))?,
                    Value::Object(key),
                )
            }
            _ => {
                let graded = solution(found, exercise)?;
                let key = solution_key(found, exercise, &graded);
                (graded, key)
            }
        };
        let takeaway = exercise.takeaway.get(lang).to_owned();
        self.progress.exercise_mut(lesson, id).solution_seen = true;
        let mut value = grade_json(&graded, lang);
        if let Value::Object(map) = &mut value {
            map.insert("key".into(), key);
            map.insert("takeaway".into(), json!(takeaway));
            map.insert(
                "progress".into(),
                exercise_progress(self.progress.exercise(lesson, id)),
            );
        }
        Ok(value)
    }
}

/// A scenario's steps with only the keys a `break` answer takes (`at`,
/// `worker`, `do`, `target`, `job`, `op`, `value`): what the learner starts from and what
/// the solution shows, both ready to be sent back as an answer.
fn answer_steps(scenario: &sim_core::Scenario) -> Value {
    const KEYS: [&str; 7] = ["at", "worker", "do", "target", "job", "op", "value"];
    let steps = sim_core::scenario_to_json(scenario)["steps"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let kept: Vec<Value> = steps
        .into_iter()
        .map(|step| match step {
            Value::Object(fields) => Value::Object(
                fields
                    .into_iter()
                    .filter(|(key, _)| KEYS.contains(&key.as_str()))
                    .collect(),
            ),
            other => other,
        })
        .collect();
    Value::Array(kept)
}

/// The key of a solution, in the shape of an answer.
fn solution_key(lesson: &Lesson, exercise: &Exercise, graded: &Grade) -> Value {
    match &exercise.kind {
        ExerciseKind::Mark {
            scenario,
            candidates,
        } => {
            let Some(scenario) = lesson.scenario(*scenario) else {
                return Value::Null;
            };
            let trace = sim_core::run(scenario);
            let key: Vec<u32> = sim_core::course::mark_candidates(scenario, candidates)
                .into_iter()
                .filter(|i| trace.should_reject.contains(i))
                .collect();
            json!(key)
        }
        ExerciseKind::Predict { scenario, steps } => {
            let Some(scenario) = lesson.scenario(*scenario) else {
                return Value::Null;
            };
            let trace = sim_core::run(scenario);
            let asked = steps
                .clone()
                .unwrap_or_else(|| (0..scenario.steps.len() as u32).collect());
            let key: serde_json::Map<String, Value> = asked
                .into_iter()
                .filter_map(|i| {
                    trace
                        .steps
                        .get(i as usize)
                        .map(|r| (i.to_string(), json!(r.outcome.name())))
                })
                .collect();
            Value::Object(key)
        }
        ExerciseKind::Break { .. } => graded.scenario.as_ref().map_or(Value::Null, answer_steps),
        ExerciseKind::Quiz { options, .. } => json!(
            options
                .iter()
                .enumerate()
                .filter(|(_, o)| o.correct)
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        ),
        ExerciseKind::Design { .. } => Value::Null,
    }
}

/// A grade as the page shows it: items, and any counterexample or schedule
/// as a timeline with every verdict.
pub fn grade_json(graded: &Grade, lang: Lang) -> Value {
    let items: Vec<Value> = graded
        .items
        .iter()
        .map(
            |item| json!({ "index": item.index, "right": item.right, "text": item.text.get(lang) }),
        )
        .collect();
    let counterexample = graded.counterexample.as_ref().map(|found| {
        json!({
            "step": found.step,
            "kind": found.kind.name(),
            "explanation": found.explanation.get(lang),
            "timeline": timeline(&found.scenario, lang, &Reveal::Everything),
        })
    });
    json!({
        "correct": graded.correct,
        "summary": graded.summary.get(lang),
        "items": items,
        "counterexample": counterexample,
        "timeline": graded
            .scenario
            .as_ref()
            .map(|s| timeline(s, lang, &Reveal::Everything)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn course() -> Course {
        Course::embedded().unwrap_or_else(|e| panic!("{e}"))
    }

    fn first_of_kind(course: &Course, kind: &str) -> (String, String) {
        course
            .lessons
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

    #[test]
    fn every_lesson_is_embedded_in_order() {
        let course = course();
        assert_eq!(course.lessons.len(), LESSONS.len());
        assert!(course.lessons.len() >= 12);
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
        let fetched = Course::from_json(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(fetched.lessons, course().lessons);
        for bad in ["", "{}", "[[\"a\"]]", "[[1, 2]]"] {
            let error = Course::from_json(bad).err().unwrap_or_default();
            assert!(error.starts_with("lessons.json:"), "{bad}: {error}");
        }
        // A broken lesson inside it is located in its own file.
        let broken = serde_json::to_string(&[("bad", "id = 1\n")]).unwrap_or_default();
        let error = Course::from_json(&broken).err().unwrap_or_default();
        assert!(error.starts_with("bad.toml:1:"), "{error}");
    }

    #[test]
    fn a_broken_lesson_is_reported_with_file_line_and_column() {
        let error = Course::from_sources(&[("bad", "id = 1\n")])
            .err()
            .unwrap_or_default();
        assert!(error.starts_with("bad.toml:1:"), "{error}");
        let error = Course::from_sources(&[("other", LESSONS[0].1)])
            .err()
            .unwrap_or_default();
        assert!(error.contains("must equal the file name"), "{error}");
    }

    #[test]
    fn every_lesson_and_every_exercise_timeline_renders() {
        let course = course();
        for lesson in &course.lessons {
            let value = course
                .lesson_json(&lesson.id, Lang::En)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                value["sections"].as_array().map(Vec::len),
                Some(lesson.sections.len())
            );
            for (name, _) in &lesson.scenarios {
                let timeline = course
                    .scenario_timeline(&lesson.id, name, Lang::Zh)
                    .unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(timeline["revealed"], true);
            }
            for exercise in &lesson.exercises {
                let result = course.exercise_timeline(&lesson.id, &exercise.id, Lang::En);
                assert_eq!(result.is_ok(), exercise.kind.scenario().is_some());
            }
        }
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
        // No solution before an attempt.
        assert!(course.solution(&lesson, &id, Lang::En).is_err());
        let wrong = course
            .grade(&lesson, &id, &json!([]), Lang::En)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(wrong["correct"], false);
        assert!(wrong["takeaway"].is_string());
        assert_eq!(wrong["progress"]["attempts"], 1);
        let solved = course
            .solution(&lesson, &id, Lang::En)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(solved["correct"], true);
        let key = solved["key"].clone();
        let right = course
            .grade(&lesson, &id, &key, Lang::Zh)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(right["correct"], true, "{right}");
        assert!(
            right["items"][0]["text"]
                .as_str()
                .is_some_and(|t| t.contains("正确"))
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
            let blank = match kind {
                "predict" | "design" => json!({}),
                _ => json!([]),
            };
            course
                .grade(&lesson, &id, &blank, Lang::En)
                .unwrap_or_else(|e| panic!("{kind}: {e}"));
            let solved = course
                .solution(&lesson, &id, Lang::En)
                .unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(solved["correct"], true, "{kind}: {solved}");
            let again = course
                .grade(&lesson, &id, &solved["key"], Lang::En)
                .unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(again["correct"], true, "{kind}: {again}");
        }
    }

    #[test]
    fn every_break_exercise_takes_its_starting_schedule_as_an_answer() {
        let mut course = course();
        let breaks: Vec<(String, String)> = course
            .lessons
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
            let shown = course.lesson_json(&lesson, Lang::En).unwrap_or_default();
            let exercise = shown["exercises"]
                .as_array()
                .and_then(|l| l.iter().find(|e| e["id"] == json!(id)).cloned())
                .unwrap_or_default();
            let graded = course.grade(&lesson, &id, &exercise["steps"], Lang::En);
            assert!(graded.is_ok(), "{lesson}/{id}: {graded:?}");
            let solved = course
                .solution(&lesson, &id, Lang::En)
                .unwrap_or_else(|e| panic!("{e}"));
            let again = course
                .grade(&lesson, &id, &solved["key"], Lang::En)
                .unwrap_or_else(|e| panic!("{lesson}/{id}: {e}"));
            assert_eq!(again["correct"], true, "{lesson}/{id}");
        }
    }

    #[test]
    fn a_break_preview_shows_outcomes_but_no_verdict_and_refuses_bad_steps() {
        let course = course();
        let (lesson, id) = first_of_kind(&course, "break");
        let shown = course.lesson_json(&lesson, Lang::En).unwrap_or_default();
        let exercise = shown["exercises"]
            .as_array()
            .and_then(|l| l.iter().find(|e| e["id"] == json!(id)).cloned())
            .unwrap_or_default();
        let steps = exercise["steps"].as_array().map_or(0, Vec::len);
        let preview = course
            .break_preview(&lesson, &id, &exercise["steps"], Lang::En)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(preview["steps"].as_array().map(Vec::len), Some(steps));
        assert_eq!(preview["revealed"], false);
        assert_eq!(preview["toml"], Value::Null);
        let bad = course.break_preview(
            &lesson,
            &id,
            &json!([{"at": 0, "worker": "Nobody", "do": "claim"}]),
            Lang::En,
        );
        assert!(bad.is_err_and(|e| e.contains("unknown worker")));
        let (mark_lesson, mark) = first_of_kind(&course, "mark");
        assert!(
            course
                .break_preview(&mark_lesson, &mark, &json!([]), Lang::En)
                .is_err()
        );
    }

    #[test]
    fn a_predict_timeline_hides_the_outcomes_it_asks_for() {
        let course = course();
        let (lesson, id) = first_of_kind(&course, "predict");
        let value = course.lesson_json(&lesson, Lang::En).unwrap_or_default();
        let exercise = value["exercises"]
            .as_array()
            .and_then(|list| list.iter().find(|e| e["id"] == json!(id)).cloned())
            .unwrap_or_default();
        let asked = exercise["steps"][0].as_u64().unwrap_or(0) as usize;
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
        assert!(course.hint(&lesson, &id, 1, Lang::En).is_err());
        let first = course.hint(&lesson, &id, 0, Lang::En).unwrap_or_default();
        assert_eq!(first["more"], true);
        assert!(course.hint(&lesson, &id, 1, Lang::En).is_ok());
        let value = course.lesson_json(&lesson, Lang::En).unwrap_or_default();
        let shown = value["exercises"]
            .as_array()
            .and_then(|l| l.iter().find(|e| e["id"] == json!(id)).cloned())
            .unwrap_or_default();
        assert_eq!(shown["shown_hints"].as_array().map(Vec::len), Some(2));
        assert_eq!(shown["progress"]["hints_used"], 2);
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
        let mut other = Course::embedded().unwrap_or_else(|e| panic!("{e}"));
        other
            .load_progress(&saved)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(other.lang(), Lang::Zh);
        assert_eq!(other.map(Lang::En)["lessons"][0]["sections_read"], 1);
        assert_eq!(other.map(Lang::En)["position"]["section"], 1);
        // Damaged and newer records are refused; the progress stays.
        assert!(other.load_progress("{\"version\": 2, \"lang\":").is_err());
        let newer = other
            .load_progress(r#"{"version": 99}"#)
            .err()
            .unwrap_or_default();
        assert!(newer.contains("newer"), "{newer}");
        assert_eq!(other.lang(), Lang::Zh);
        // Version 1 migrates.
        other
            .load_progress(r#"{"version":1,"completed":["01-liveness-vs-safety/x"]}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(other.lang(), Lang::En);
        other.reset_progress();
        assert_eq!(other.map(Lang::En)["lessons"][0]["sections_read"], 0);
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
        assert!(
            course
                .grade("01-liveness-vs-safety", "nope", &json!([]), Lang::En)
                .is_err()
        );
        let (lesson, id) = first_of_kind(&course, "mark");
        assert!(
            course
                .grade(&lesson, &id, &json!({"x": 1}), Lang::En)
                .is_err()
        );
        assert!(course.grade(&lesson, &id, &json!([999]), Lang::En).is_err());
        assert!(course.set_self_check("basic", true).is_ok());
        assert!(course.set_self_check("guru", true).is_err());
    }
}
