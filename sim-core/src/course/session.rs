//! One learner's course: the lessons and the progress record, and every
//! course rule the front ends follow — grading (which records the attempt),
//! hints in order, the worked solution only after an attempt, what a
//! timeline may show ([`Reveal`]), completion. The terminal and the page
//! hold a [`CourseSession`] and ask it; they only lay its answers out.
//!
//! **The break editor's preview** shows the learner's schedule with its
//! outcomes but no verdicts ([`Reveal::NoVerdicts`]) until the exercise is
//! solved or its solution shown: whether the schedule breaks the design is
//! the grade's to say, as in every other exercise kind.

use std::collections::BTreeMap;

use crate::Lang;
use crate::Reveal;
use crate::course::answer_json::answer_from_json;
use crate::course::editor::Making;
use crate::course::error::{AnswerError, CourseError};
use crate::course::feedback::{Feedback, feedback};
use crate::course::grade::{Answer, Grade, Solution, grade, worked_solution};
use crate::course::kinds::predict::asked_steps;
use crate::course::last_answer::answer_to_json;
use crate::course::lesson::{Exercise, ExerciseKind, Lesson, parse_lesson};
use crate::course::order::option_order;
use crate::course::progress::{ExerciseProgress, Position, Progress, ProgressError};
use crate::course::screen::Shown;
use crate::scenario::{Scenario, Text};

/// The lessons (in course order) and the learner's progress.
#[derive(Debug, Clone, PartialEq)]
pub struct CourseSession {
    pub(crate) lessons: Vec<Lesson>,
    pub(crate) progress: Progress,
    /// Per (lesson, exercise): the feedback its screen shows now (the last
    /// try or the worked solution). Not saved: a screen reopened later
    /// starts from the learner's last answer.
    pub(crate) shown: BTreeMap<(String, String), Shown>,
    /// Per (lesson, exercise): the answer in the making (changed, handed
    /// in, or a design's or break's editor's, [`crate::course::Edit`]),
    /// kept even when it cannot be the last answer (empty: no mark, a
    /// schedule with no step). Not saved.
    pub(crate) making: BTreeMap<(String, String), Making>,
    /// The practice round open now, as a lesson of one mark exercise
    /// (`course::practice::round_lesson`). Not saved: the record keeps
    /// the round's key, which draws it again.
    pub(crate) practice: Option<Lesson>,
    /// The open round's key.
    pub(crate) practice_key: Option<crate::course::practice::RoundKey>,
}

/// A hint, as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// From 0.
    pub index: u32,
    pub text: Text,
    /// More hints follow.
    pub more: bool,
}

/// A graded try: the whole grade (the teacher's view: `fencelab grade`)
/// and what the learner may be shown of it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graded {
    pub grade: Grade,
    pub feedback: Feedback,
}

/// The self-check levels (C26).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelfCheckLevel {
    Basic,
    Intermediate,
    Senior,
}

impl std::str::FromStr for SelfCheckLevel {
    type Err = CourseError;

    fn from_str(name: &str) -> Result<SelfCheckLevel, CourseError> {
        match name {
            "basic" => Ok(SelfCheckLevel::Basic),
            "intermediate" => Ok(SelfCheckLevel::Intermediate),
            "senior" => Ok(SelfCheckLevel::Senior),
            other => Err(CourseError::UnknownSelfCheck(other.to_owned())),
        }
    }
}

impl CourseSession {
    /// A course from (file stem, TOML text) pairs, with fresh progress.
    /// Mistakes come back as `FILE.toml:LINE:COL: message` lines.
    pub fn from_sources(sources: &[(&str, &str)]) -> Result<CourseSession, CourseError> {
        let mut lessons = Vec::new();
        let mut problems = Vec::new();
        for (stem, text) in sources {
            match parse_lesson(text.as_bytes()) {
                Ok(lesson) if lesson.id == *stem => lessons.push(lesson),
                Ok(lesson) => problems.push(crate::Text {
                    en: format!(
                        "{stem}.toml:1:1: the lesson's id `{}` must equal the file name",
                        lesson.id
                    ),
                    zh: format!(
                        "{stem}.toml:1:1: 课程的 id `{}` 必须与文件名相同",
                        lesson.id
                    ),
                }),
                Err(diagnostics) => {
                    problems.extend(diagnostics.iter().map(|d| crate::Text {
                        en: format!("{stem}.toml:{}", d.display_in(Lang::En)),
                        zh: format!("{stem}.toml:{}", d.display_in(Lang::Zh)),
                    }));
                }
            }
        }
        if !problems.is_empty() {
            return Err(CourseError::Lessons(problems));
        }
        Ok(CourseSession::new(lessons, Progress::default()))
    }

    /// A course from the page's `lessons.json`: a list of `[file stem,
    /// TOML text]` pairs, as `cargo xtask web` writes it.
    pub fn from_json(text: &str) -> Result<CourseSession, CourseError> {
        let pairs: Vec<(String, String)> = serde_json::from_str(text)
            .map_err(|error| CourseError::LessonsJson(error.to_string()))?;
        let sources: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(stem, text)| (stem.as_str(), text.as_str()))
            .collect();
        CourseSession::from_sources(&sources)
    }

    /// Lessons already read, put in course order, with `progress`.
    pub fn new(mut lessons: Vec<Lesson>, progress: Progress) -> CourseSession {
        lessons.sort_by_key(|lesson| lesson.order);
        CourseSession {
            lessons,
            progress,
            shown: BTreeMap::new(),
            making: BTreeMap::new(),
            practice: None,
            practice_key: None,
        }
    }

    // ---- the lessons ------------------------------------------------------

    /// In course order.
    pub fn lessons(&self) -> &[Lesson] {
        &self.lessons
    }

    /// A lesson of the course, or the practice round open now (its id
    /// `practice/POOL`).
    pub fn lesson(&self, id: &str) -> Result<&Lesson, CourseError> {
        self.lessons
            .iter()
            .chain(self.practice.as_ref())
            .find(|lesson| lesson.id == id)
            .ok_or_else(|| CourseError::NoLesson(id.to_owned()))
    }

    pub fn exercise(&self, lesson: &str, id: &str) -> Result<(&Lesson, &Exercise), CourseError> {
        let found = self.lesson(lesson)?;
        let exercise = found.exercise(id).ok_or_else(|| CourseError::NoExercise {
            lesson: lesson.to_owned(),
            exercise: id.to_owned(),
        })?;
        Ok((found, exercise))
    }

    /// A lesson scenario by name (the lesson reader's timelines).
    pub fn scenario(&self, lesson: &str, name: &str) -> Result<&Scenario, CourseError> {
        self.lesson(lesson)?
            .scenarios
            .iter()
            .find(|(known, _)| known == name)
            .map(|(_, scenario)| scenario)
            .ok_or_else(|| CourseError::NoScenario {
                lesson: lesson.to_owned(),
                scenario: name.to_owned(),
            })
    }

    /// What a lesson's timeline of scenario `name` may show: everything,
    /// but not the statements a SQL exercise played on it asks its learner
    /// to write, until that exercise is done or its solution seen (the
    /// page shows a level's timeline above its exercises).
    pub fn scenario_reveal(&self, lesson: &str, name: &str) -> Result<Reveal, CourseError> {
        let found = self.lesson(lesson)?;
        self.scenario(lesson, name)?;
        let on_it = |index: usize| found.scenarios.get(index).is_some_and(|(n, _)| n == name);
        let hidden: Vec<_> = found
            .exercises
            .iter()
            .filter(|exercise| !self.is_revealed(lesson, &exercise.id))
            .filter_map(|exercise| match &exercise.kind {
                ExerciseKind::Sql { scenario, slots } if on_it(*scenario) => Some(slots),
                _ => None,
            })
            .flatten()
            .map(|slot| slot.action())
            .collect();
        Ok(if hidden.is_empty() {
            Reveal::Everything
        } else {
            Reveal::NotTheseStatements(hidden)
        })
    }

    /// The scenario an exercise's timeline shows (mark, predict, break).
    pub fn exercise_scenario(&self, lesson: &str, id: &str) -> Result<&Scenario, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        let index = exercise.kind.scenario().ok_or(CourseError::NoTimeline {
            kind: exercise.kind.name(),
        })?;
        found.scenario(index).ok_or(CourseError::MissingScenario)
    }

    /// The steps a predict exercise asks about (empty for other kinds).
    pub fn asked_steps(&self, lesson: &str, id: &str) -> Result<Vec<u32>, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        Ok(match &exercise.kind {
            ExerciseKind::Predict { scenario, steps } => found
                .scenario(*scenario)
                .map(|s| asked_steps(s, steps.as_deref()))
                .unwrap_or_default(),
            _ => Vec::new(),
        })
    }

    // ---- progress ---------------------------------------------------------

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Replaces the progress with a record read from JSON (any version this
    /// build knows). A damaged or newer record is refused and the current
    /// progress kept; the caller keeps the bytes aside.
    ///
    /// A record without a quiz seed (written before seeds existed) keeps
    /// this session's, so the options do not move.
    pub fn load_progress(&mut self, text: &str) -> Result<(), ProgressError> {
        let seed = self.progress.seed;
        self.progress = Progress::from_json(text)?;
        self.progress.seed = self.progress.seed.or(seed);
        // The editors start again from the record's last answers.
        self.making.clear();
        Ok(())
    }

    /// The progress record as JSON, at the current version.
    pub fn export_progress(&self) -> String {
        self.progress.to_json()
    }

    /// Takes in what another record holds (e.g. what another instance
    /// saved), losing nothing of this one ([`Progress::merge`]); the
    /// language and position stay this session's.
    pub fn merge_progress(&mut self, other: &Progress) {
        self.progress.merge(other);
    }

    /// Takes in `other` (what another instance saved, merged with this
    /// session's progress as it was when `base` was saved), keeping what
    /// this session changed since `base` ([`Progress::merge_since`]): the
    /// language, self-checks and position another instance chose are taken
    /// unless this session chose its own since.
    pub fn merge_progress_since(&mut self, base: &Progress, other: &Progress) {
        self.progress.merge_since(base, other);
    }

    /// Fresh progress, in the same language and with the same quiz seed
    /// (the options keep their places).
    pub fn reset_progress(&mut self) {
        self.progress = Progress {
            lang: self.progress.lang,
            seed: self.progress.seed,
            ..Progress::default()
        };
        self.shown.clear();
        self.making.clear();
    }

    /// Gives the record the quiz seed `fresh` unless it has one; `true`
    /// when it took it (then the record should be saved). The front end
    /// draws `fresh` from real randomness once at start (the OS in the
    /// terminal, `crypto.getRandomValues` on the page): sim-core has none.
    pub fn seed_if_missing(&mut self, fresh: u32) -> bool {
        let missing = self.progress.seed.is_none();
        if missing {
            self.progress.seed = Some(fresh);
        }
        missing
    }

    /// The order this learner sees a quiz's options in: position `p` on
    /// screen shows authored option `order[p]` ([`option_order`] of the
    /// progress seed; 0 for a record without one). Answers and keys name
    /// authored indices, never positions. Empty for other kinds.
    pub fn quiz_order(&self, lesson: &str, id: &str) -> Result<Vec<usize>, CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        Ok(match &exercise.kind {
            ExerciseKind::Quiz { options, .. } => {
                option_order(self.progress.seed.unwrap_or(0), lesson, id, options.len())
            }
            _ => Vec::new(),
        })
    }

    pub fn lang(&self) -> Lang {
        self.progress.lang
    }

    pub fn set_lang(&mut self, lang: Lang) {
        self.progress.lang = lang;
    }

    /// The learner's record of one exercise (blank when never opened).
    pub fn exercise_progress(&self, lesson: &str, id: &str) -> ExerciseProgress {
        self.progress
            .exercise(lesson, id)
            .cloned()
            .unwrap_or_default()
    }

    /// Records that the learner is on `page` of `lesson`: a section (then
    /// also read), or `sections` for the exercises page.
    pub fn visit(&mut self, lesson: &str, page: u32) -> Result<(), CourseError> {
        let sections = self.lesson(lesson)?.sections.len();
        if page as usize > sections {
            return Err(CourseError::NoSection {
                lesson: lesson.to_owned(),
                sections,
            });
        }
        // Updated in place, so fields a newer fencelab wrote stay.
        let position = self.progress.position.get_or_insert_with(Position::default);
        position.lesson = lesson.to_owned();
        position.section = page;
        position.at_map = false;
        if (page as usize) < sections {
            let read = &mut self
                .progress
                .lessons
                .entry(lesson.to_owned())
                .or_default()
                .sections_read;
            if !read.contains(&page) {
                read.push(page);
                read.sort_unstable();
            }
        }
        Ok(())
    }

    /// Records that section `section` of `lesson` was read, and that the
    /// learner is there.
    pub fn mark_read(&mut self, lesson: &str, section: u32) -> Result<(), CourseError> {
        let sections = self.lesson(lesson)?.sections.len();
        if section as usize >= sections {
            return Err(CourseError::NoSection {
                lesson: lesson.to_owned(),
                sections,
            });
        }
        self.visit(lesson, section)
    }

    /// Records that the learner went back to the course map from the
    /// lesson they were in (its page is kept for when they reopen it).
    pub fn leave_lesson(&mut self) {
        if let Some(position) = &mut self.progress.position {
            position.at_map = true;
        }
    }

    /// Where a relaunch opens: the lesson the learner was in and its page,
    /// or `None` for the course map (nothing visited yet, or they went back
    /// to the map last).
    pub fn resume_lesson(&self) -> Option<(&str, u32)> {
        let position = self.progress.position.as_ref().filter(|p| !p.at_map)?;
        self.lesson(&position.lesson).ok()?;
        Some((position.lesson.as_str(), self.resume_page(&position.lesson)))
    }

    /// The page to open `lesson` on: where the learner left it, else 0.
    pub fn resume_page(&self, lesson: &str) -> u32 {
        let sections = self.lesson(lesson).map_or(0, |l| l.sections.len()) as u32;
        self.progress
            .position
            .as_ref()
            .filter(|p| p.lesson == lesson)
            .map_or(0, |p| p.section.min(sections))
    }

    /// Ticks (or unticks) a self-check level.
    pub fn set_self_check(&mut self, level: SelfCheckLevel, done: bool) {
        let check = &mut self.progress.self_check;
        match level {
            SelfCheckLevel::Basic => check.basic = done,
            SelfCheckLevel::Intermediate => check.intermediate = done,
            SelfCheckLevel::Senior => check.senior = done,
        }
    }

    /// The sections of `lesson` read so far, by index, in order.
    pub fn sections_read(&self, lesson: &str) -> &[u32] {
        self.progress
            .lessons
            .get(lesson)
            .map_or(&[], |p| p.sections_read.as_slice())
    }

    // ---- completion -------------------------------------------------------

    pub fn is_complete(&self, lesson: &str, id: &str) -> bool {
        self.progress
            .exercise(lesson, id)
            .is_some_and(|p| p.completed)
    }

    /// Exercises of `lesson` completed, and its exercise count.
    pub fn completed(&self, lesson: &Lesson) -> (usize, usize) {
        let done = lesson
            .exercises
            .iter()
            .filter(|e| self.is_complete(&lesson.id, &e.id))
            .count();
        (done, lesson.exercises.len())
    }

    /// Exercises completed in the whole course, and the course's count.
    pub fn completed_overall(&self) -> (usize, usize) {
        self.lessons
            .iter()
            .map(|lesson| self.completed(lesson))
            .fold((0, 0), |(done, total), (d, t)| (done + d, total + t))
    }

    /// Whether the learner has begun: an exercise tried, a hint opened or a
    /// section read. The front door offers "Continue" from then on, "Start
    /// lesson 1" before.
    pub fn started(&self) -> bool {
        self.progress.lessons.values().any(|lesson| {
            !lesson.sections_read.is_empty()
                || lesson
                    .exercises
                    .values()
                    .any(|e| e.completed || e.attempts > 0 || e.hints_used > 0)
        })
    }

    /// The first exercise not completed, in course order (lesson, level,
    /// file: [`CourseSession::next_unfinished_after`]): (lesson index,
    /// exercise index).
    pub fn next_unfinished(&self) -> Option<(usize, usize)> {
        self.next_unfinished_after(None)
    }

    // ---- an exercise ------------------------------------------------------

    /// What a timeline of this exercise may show now: everything once it is
    /// complete or its solution was shown; before that no verdicts, and a
    /// predict exercise not the results it asks for. The break editor's
    /// preview follows the same policy (see the module doc).
    pub fn reveal(&self, lesson: &str, id: &str) -> Result<Reveal, CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        let done = self
            .progress
            .exercise(lesson, id)
            .is_some_and(|p| p.completed || p.solution_seen);
        Ok(match &exercise.kind {
            _ if done => Reveal::Everything,
            ExerciseKind::Predict { .. } => Reveal::NotTheseSteps(self.asked_steps(lesson, id)?),
            _ => Reveal::NoVerdicts,
        })
    }

    /// Reads an answer's JSON (the value an answers file holds under the
    /// exercise's kind).
    pub fn answer_from_json(
        &self,
        lesson: &str,
        id: &str,
        value: &serde_json::Value,
    ) -> Result<Answer, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        answer_from_json(found, exercise, value)
    }

    /// A `sql` exercise's plan, for the front end to run with the learner's
    /// statements (`sqlbox::battery::run`) before [`CourseSession::grade`].
    #[cfg(feature = "sql-lab")]
    pub fn sql_plan(&self, lesson: &str, id: &str) -> Result<crate::sqllab::Plan, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        super::kinds::sql::sql_plan(found, exercise)
    }

    /// Grades `answer`, computing the key now, and records the attempt;
    /// with it, what the learner may be shown ([`Feedback`]: a puzzle until
    /// solved). An empty answer is refused ([`AnswerError::Empty`]) and
    /// not counted: it would only spend a try.
    pub fn grade(
        &mut self,
        lesson: &str,
        id: &str,
        answer: &Answer,
    ) -> Result<Graded, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        if answer.is_empty() {
            return Err(AnswerError::Empty(answer.kind()).into());
        }
        let graded = grade(found, exercise, answer)?;
        // As the record will stand once this try is recorded.
        let before = self.exercise_progress(lesson, id);
        let shown = feedback(
            &exercise.kind,
            &graded,
            before.attempts.saturating_add(1),
            before.completed || before.solution_seen,
            &exercise.takeaway,
            &self.quiz_order(lesson, id)?,
            before.solution_seen && !before.completed,
        );
        self.progress.record_attempt(lesson, id, graded.correct);
        Ok(Graded {
            grade: graded,
            feedback: shown,
        })
    }

    /// Keeps `answer` as the learner's last answer (the front end calls it
    /// on a try and on leaving an exercise with an answer in the making;
    /// grading records only the try). An empty answer keeps nothing: it
    /// would hide the last real one.
    pub fn keep_answer(
        &mut self,
        lesson: &str,
        id: &str,
        answer: &Answer,
    ) -> Result<(), CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        if answer.is_empty() {
            return Ok(());
        }
        let value = answer_to_json(found, &exercise.kind, answer);
        self.progress
            .exercise_mut(lesson, id)
            .set_last_answer(value);
        Ok(())
    }

    /// [`CourseSession::keep_answer`] for an answer as JSON (what the page
    /// holds): read as an answer to this exercise, then kept in the one
    /// spelling both front ends write, so their records are the same.
    pub fn keep_answer_json(
        &mut self,
        lesson: &str,
        id: &str,
        value: &serde_json::Value,
    ) -> Result<(), CourseError> {
        let answer = self.answer_from_json(lesson, id, value)?;
        self.keep_answer(lesson, id, &answer)
    }

    /// The learner's last answer, read back against the lesson as it is
    /// now; `None` when there is none or it no longer fits (the lesson
    /// changed), so nothing stale is restored.
    pub fn last_answer(&self, lesson: &str, id: &str) -> Option<Answer> {
        let value = self.progress.exercise(lesson, id)?.last_answer()?;
        self.answer_from_json(lesson, id, value).ok()
    }

    /// A teacher's grade of a handed-in answer (`fencelab grade` over an
    /// answers file): the whole grade, every item with its reason, and an
    /// empty answer graded as what it is — nothing found. Records nothing:
    /// it is no learner's try.
    pub fn grade_handed_in(
        &self,
        lesson: &str,
        id: &str,
        answer: &Answer,
    ) -> Result<Grade, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        grade(found, exercise, answer)
    }

    /// The takeaway, once the exercise is solved or its solution seen: it
    /// says the point of the puzzle, so a wrong try does not show it.
    pub fn takeaway(&self, lesson: &str, id: &str) -> Result<Option<&Text>, CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        Ok(self.is_revealed(lesson, id).then_some(&exercise.takeaway))
    }

    /// The hints shown so far, in order.
    pub fn shown_hints(&self, lesson: &str, id: &str) -> Result<&[Text], CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        let used = self
            .progress
            .exercise(lesson, id)
            .map_or(0, |p| p.hints_used as usize)
            .min(exercise.hints.len());
        Ok(&exercise.hints[..used])
    }

    /// Hint `index` (from 0). Hints come in order: one already shown, or
    /// the next one; asking for the next records it.
    pub fn hint(&mut self, lesson: &str, id: &str, index: u32) -> Result<Hint, CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        let count = exercise.hints.len();
        let text = exercise
            .hints
            .get(index as usize)
            .cloned()
            .ok_or(CourseError::NoHint { index, count })?;
        let entry = self.progress.exercise_mut(lesson, id);
        if index > entry.hints_used {
            return Err(CourseError::HintOutOfOrder {
                index,
                next: entry.hints_used,
            });
        }
        entry.hints_used = entry.hints_used.max(index + 1);
        Ok(Hint {
            index,
            text,
            more: (index as usize + 1) < count,
        })
    }

    /// The next hint not yet shown; [`CourseError::NoMoreHints`] once all are.
    pub fn next_hint(&mut self, lesson: &str, id: &str) -> Result<Hint, CourseError> {
        let (_, exercise) = self.exercise(lesson, id)?;
        let count = exercise.hints.len();
        let record = self.exercise_progress(lesson, id);
        if record.hints_used as usize >= count {
            return Err(CourseError::NoMoreHints {
                attempted: record.attempts > 0,
            });
        }
        self.hint(lesson, id, record.hints_used)
    }

    /// The worked solution may be asked for now: only after an attempt.
    pub fn solution_available(&self, lesson: &str, id: &str) -> bool {
        self.progress
            .exercise(lesson, id)
            .is_some_and(|p| p.attempts > 0)
    }

    /// Everything about this exercise may be shown (complete, or its
    /// solution seen): what `reveal` answers as `Reveal::Everything`.
    pub fn is_revealed(&self, lesson: &str, id: &str) -> bool {
        self.reveal(lesson, id)
            .is_ok_and(|reveal| reveal.shows_verdicts())
    }

    /// The worked solution with its key, computed now; only after an
    /// attempt. Records that it was seen.
    pub fn solution(&mut self, lesson: &str, id: &str) -> Result<Solution, CourseError> {
        let (found, exercise) = self.exercise(lesson, id)?;
        if !self.solution_available(lesson, id) {
            return Err(CourseError::SolutionBeforeAttempt);
        }
        let solved = worked_solution(found, exercise)?;
        self.progress.exercise_mut(lesson, id).solution_seen = true;
        Ok(solved)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::course::levels::Standing;
    use crate::course::{MarkKey, mark_keys};
    use crate::scenario::Action;

    const LESSON: &str = r#"
id = "one"
order = 1
title = { en = "One", zh = "一" }
summary = { en = "A lesson.", zh = "一课。" }
concepts = ["C01"]

[[sections]]
title = { en = "Leases", zh = "租约" }
concepts = ["C01"]
body = { en = "Body.", zh = "正文。" }

[[exercises]]
id = "quiz"
kind = "quiz"
concepts = ["C01"]
prompt = { en = "Which?", zh = "哪个？" }
hints = [{ en = "First.", zh = "一。" }, { en = "Second.", zh = "二。" }]
takeaway = { en = "Done.", zh = "完成。" }
options = [
  { text = { en = "Right", zh = "对" }, correct = true, why = { en = "Yes.", zh = "是。" } },
  { text = { en = "Wrong", zh = "错" }, correct = false, why = { en = "No.", zh = "否。" } },
]
"#;

    fn session() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[("one", LESSON)])
    }

    fn both_lessons() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[("one", LESSON), ("nap", NAP)])
    }

    /// A nap: A's lease runs out and A writes before anyone claims (an
    /// `Either` step), then B claims and A writes again (must refuse).
    /// Also the screen's tests' lesson (`screen.rs`).
    pub(crate) const NAP: &str = r#"
id = "nap"
order = 2
title = { en = "Nap", zh = "打盹" }
summary = { en = "A nap.", zh = "打盹。" }
concepts = ["C01"]

[[sections]]
title = { en = "Nap", zh = "打盹" }
concepts = ["C01"]
body = { en = "Body.", zh = "正文。" }

[scenarios.nap]
id = "nap"
ttl = 5
workers = ["A", "B"]
design = "ttl-lock-only"
steps = [
  { at = 0, worker = "A", do = "claim" },
  { at = 6, worker = "A", do = "write", target = "mail" },
  { at = 7, worker = "B", do = "claim" },
  { at = 8, worker = "B", do = "write", target = "mail" },
  { at = 9, worker = "A", do = "write", target = "mail" },
  { at = 10, worker = "B", do = "finish" },
]
[[scenarios.nap.targets]]
id = "mail"

[[exercises]]
id = "mark"
kind = "mark"
concepts = ["C01"]
prompt = { en = "Mark.", zh = "标记。" }
scenario = "nap"
hints = [{ en = "a", zh = "甲" }, { en = "b", zh = "乙" }]
takeaway = { en = "Generations, not clocks.", zh = "看代次，不看时钟。" }
"#;

    /// The nap's mark keys, from the run.
    fn nap_keys(course: &CourseSession) -> Result<Vec<(u32, MarkKey)>, CourseError> {
        let (lesson, exercise) = course.exercise("nap", "mark")?;
        let ExerciseKind::Mark {
            scenario,
            candidates,
        } = &exercise.kind
        else {
            return Err(CourseError::MissingScenario);
        };
        let scenario = lesson
            .scenario(*scenario)
            .ok_or(CourseError::MissingScenario)?;
        Ok(mark_keys(scenario, candidates))
    }

    fn steps_with(keys: &[(u32, MarkKey)], wanted: &[MarkKey]) -> Vec<u32> {
        keys.iter()
            .filter(|(_, key)| wanted.contains(key))
            .map(|(index, _)| *index)
            .collect()
    }

    #[test]
    fn started_by_a_try_or_a_read_section_not_by_a_refused_empty_answer() -> Result<(), CourseError>
    {
        let mut course = session()?;
        assert!(!course.started());
        assert!(course.grade("one", "quiz", &Answer::Quiz(vec![])).is_err());
        assert!(!course.started(), "an empty answer is not a try");
        course.grade("one", "quiz", &Answer::Quiz(vec![1]))?;
        assert!(course.started());
        let mut reader = session()?;
        reader.mark_read("one", 0)?;
        assert!(reader.started());
        Ok(())
    }

    #[test]
    fn an_empty_answer_is_refused_and_not_counted() -> Result<(), CourseError> {
        let mut course = both_lessons()?;
        for (id, empty) in [
            ("quiz", Answer::Quiz(vec![])),
            ("mark", Answer::Mark(vec![])),
        ] {
            let lesson = if id == "quiz" { "one" } else { "nap" };
            let refused = course.grade(lesson, id, &empty).err();
            assert!(
                matches!(refused, Some(CourseError::Answer(AnswerError::Empty(_)))),
                "{refused:?}"
            );
            assert!(refused.is_some_and(|e| e.message(Lang::Zh).contains("空答案")));
            assert_eq!(course.exercise_progress(lesson, id).attempts, 0);
            assert!(!course.solution_available(lesson, id));
        }
        Ok(())
    }

    #[test]
    fn refusing_an_either_step_is_right_and_called_conservative() -> Result<(), CourseError> {
        let mut course = both_lessons()?;
        let keys = nap_keys(&course)?;
        let either = steps_with(&keys, &[MarkKey::Either]);
        assert!(!either.is_empty(), "the nap has an either step: {keys:?}");
        for wanted in [
            vec![MarkKey::MustRefuse],
            vec![MarkKey::MustRefuse, MarkKey::Either],
        ] {
            let marked = steps_with(&keys, &wanted);
            let graded = course.grade("nap", "mark", &Answer::Mark(marked.clone()))?;
            assert!(graded.feedback.correct, "{marked:?}: {graded:?}");
            let told = graded
                .feedback
                .items
                .iter()
                .find(|item| item.index == either.first().copied())
                .map(|item| item.text.en.clone())
                .unwrap_or_default();
            assert!(told.contains("conservative"), "{told}");
        }
        // The worked solution marks only what must be refused.
        let solved = course.solution("nap", "mark")?;
        assert_eq!(
            solved.key,
            Answer::Mark(steps_with(&keys, &[MarkKey::MustRefuse]))
        );
        Ok(())
    }

    #[test]
    fn a_wrong_try_says_how_many_then_which_but_never_why() -> Result<(), CourseError> {
        let mut course = both_lessons()?;
        let keys = nap_keys(&course)?;
        // Every step that must be allowed marked: wrong, from the key.
        let allowed = steps_with(&keys, &[MarkKey::MustAllow]);
        let wrong = Answer::Mark(allowed.clone());
        let first = course.grade("nap", "mark", &wrong)?;
        assert!(!first.feedback.correct && !first.feedback.revealed);
        assert!(first.feedback.items.is_empty(), "{first:?}");
        assert!(first.feedback.takeaway.is_none());
        assert_eq!(course.takeaway("nap", "mark")?, None);
        let wrong_count = first.grade.items.iter().filter(|i| !i.right).count();
        assert!(
            first
                .feedback
                .summary
                .en
                .contains(&format!("{wrong_count} of {} steps", keys.len())),
            "{}",
            first.feedback.summary.en
        );
        let second = course.grade("nap", "mark", &wrong)?;
        let pointed: Vec<Option<u32>> = second.feedback.items.iter().map(|i| i.index).collect();
        let expected: Vec<Option<u32>> = second
            .grade
            .items
            .iter()
            .filter(|i| !i.right)
            .map(|i| i.index)
            .take(1)
            .collect();
        // The first wrong step only, besides the count.
        assert_eq!(pointed, expected);
        for item in &second.feedback.items {
            assert!(!item.right);
            assert!(
                !second.grade.items.iter().any(|full| full.text == item.text),
                "a reason leaked: {}",
                item.text.en
            );
        }
        // Once the solution is open, a wrong try shows everything.
        course.solution("nap", "mark")?;
        let third = course.grade("nap", "mark", &wrong)?;
        assert!(third.feedback.revealed && !third.feedback.correct);
        assert_eq!(third.feedback.items, third.grade.items);
        assert!(third.feedback.takeaway.is_some());
        Ok(())
    }

    #[test]
    fn hints_come_in_order_and_the_solution_after_an_attempt() -> Result<(), CourseError> {
        let mut course = session()?;
        assert!(matches!(
            course.hint("one", "quiz", 1),
            Err(CourseError::HintOutOfOrder { index: 1, next: 0 })
        ));
        assert_eq!(course.next_hint("one", "quiz")?.index, 0);
        assert!(!course.next_hint("one", "quiz")?.more);
        assert_eq!(
            course.next_hint("one", "quiz"),
            Err(CourseError::NoMoreHints { attempted: false })
        );
        assert_eq!(course.shown_hints("one", "quiz")?.len(), 2);
        assert_eq!(
            course.solution("one", "quiz"),
            Err(CourseError::SolutionBeforeAttempt)
        );
        assert_eq!(course.takeaway("one", "quiz")?, None);
        let wrong = course.grade("one", "quiz", &Answer::Quiz(vec![1]))?;
        assert!(!wrong.grade.correct);
        assert_eq!(course.reveal("one", "quiz")?, Reveal::NoVerdicts);
        let solved = course.solution("one", "quiz")?;
        assert!(solved.grade.correct);
        assert_eq!(course.reveal("one", "quiz")?, Reveal::Everything);
        assert!(
            course
                .takeaway("one", "quiz")?
                .is_some_and(|t| t.en == "Done.")
        );
        assert!(!course.is_complete("one", "quiz"));
        assert_eq!(course.next_unfinished(), Some((0, 0)));
        course.grade("one", "quiz", &solved.key)?;
        // Done for moving on, but solved with the solution: offered again.
        assert_eq!(course.completed(&course.lessons()[0]), (1, 1));
        assert_eq!(course.standing("one", "quiz"), Standing::SolvedWithSolution);
        assert_eq!(course.next_unfinished(), Some((0, 0)));
        Ok(())
    }

    #[test]
    fn errors_are_typed_and_said_in_both_languages() -> Result<(), CourseError> {
        let mut course = session()?;
        let missing = course.exercise("one", "nope").err();
        assert!(
            missing
                .as_ref()
                .is_some_and(|e| e.message(Lang::En).contains("no exercise"))
        );
        assert!(missing.is_some_and(|e| e.message(Lang::Zh).contains("没有练习")));
        assert!(course.mark_read("one", 1).is_err());
        assert!(course.visit("one", 1).is_ok());
        assert_eq!(
            course.progress().position.as_ref().map(|p| p.section),
            Some(1)
        );
        assert!("guru".parse::<SelfCheckLevel>().is_err());
        let broken = CourseSession::from_sources(&[("bad", "id = 1\n")]).err();
        assert!(
            broken.is_some_and(|e| e.to_string().starts_with("bad.toml:1:")),
            "a broken lesson is located"
        );
        Ok(())
    }

    #[test]
    fn the_quiz_seed_is_taken_once_and_survives_load_and_reset() -> Result<(), CourseError> {
        let mut course = session()?;
        assert!(course.seed_if_missing(5));
        assert!(!course.seed_if_missing(6), "a seed is never replaced");
        assert_eq!(course.progress().seed, Some(5));
        let order = course.quiz_order("one", "quiz")?;
        course.reset_progress();
        assert_eq!(course.quiz_order("one", "quiz")?, order);
        // A record written before seeds existed keeps this session's.
        course
            .load_progress(r#"{"version": 2, "lang": "en", "lessons": {}, "self_check": {"basic": false, "intermediate": false, "senior": false}, "position": null}"#)?;
        assert_eq!(course.progress().seed, Some(5));
        // The key names authored options whatever the order shows.
        course.grade("one", "quiz", &Answer::Quiz(vec![0]))?;
        assert!(course.is_complete("one", "quiz"));
        Ok(())
    }

    #[test]
    fn a_sql_exercise_shows_none_of_the_statements_it_asks_for() -> Result<(), CourseError> {
        const LESSON: &str = "05-cancel-and-reconcile";
        const ID: &str = "sql-cancel-and-commit";
        const ASKED: [Action; 4] = [Action::Claim, Action::Renew, Action::Finish, Action::Cancel];
        let mut course = CourseSession::from_sources(&[(
            LESSON,
            include_str!("../../../lessons/05-cancel-and-reconcile.toml"),
        )])?;
        let scenario = course.scenario(LESSON, "cancel-order")?.clone();
        let trace = crate::run(&scenario);
        let sql_of = |reveal: &Reveal| -> Vec<(Action, Option<String>)> {
            crate::diagram::Diagram::new(&scenario, &trace, Lang::En, reveal)
                .steps
                .iter()
                .zip(&scenario.steps)
                .map(|(mark, step)| (step.action, mark.sql.as_ref().map(|s| s.text.clone())))
                .collect()
        };
        let cancel_shown = |shown: &[(Action, Option<String>)]| {
            shown.iter().any(|(a, sql)| {
                *a == Action::Cancel && sql.as_deref().is_some_and(|t| t.contains("cancelled"))
            })
        };
        assert!(cancel_shown(&sql_of(&Reveal::Everything)));
        // The exercise's level shows this scenario's timeline above it: with
        // its verdicts, and none of the statements the exercise asks for.
        let reveal = course.scenario_reveal(LESSON, "cancel-order")?;
        assert!(reveal.shows_verdicts());
        let shown = sql_of(&reveal);
        assert!(!cancel_shown(&shown));
        for (action, sql) in &shown {
            if ASKED.contains(action) {
                assert_eq!(sql, &None, "{action:?}");
            }
        }
        // Another scenario of the lesson shows its statements.
        assert_eq!(
            course.scenario_reveal(LESSON, "cancel-gateway")?,
            Reveal::Everything
        );
        // Once the exercise's solution is seen, its statements are no secret.
        course.progress.exercise_mut(LESSON, ID).solution_seen = true;
        assert_eq!(
            course.scenario_reveal(LESSON, "cancel-order")?,
            Reveal::Everything
        );
        Ok(())
    }
}
