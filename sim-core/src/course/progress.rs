//! The learner's progress: one versioned JSON record, the same in the
//! terminal (a file) and the browser (localStorage), so it moves between
//! them. Older versions migrate; newer or corrupt ones are refused with a
//! reason, never silently reset — the caller keeps the bytes aside.

use crate::Lang;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The version this build writes.
pub const PROGRESS_VERSION: u32 = 2;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ExerciseProgress {
    pub completed: bool,
    pub attempts: u32,
    pub hints_used: u32,
    /// The worked solution was shown (only ever after an attempt).
    pub solution_seen: bool,
    /// Solved only after the worked solution was shown: done for moving
    /// on, but shown apart from a solve of the learner's own (the map, the
    /// review) and offered again after the unsolved exercises. Absent
    /// (false) in records written before it existed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub with_solution: bool,
    /// Keys this build does not know (written by a newer fencelab of the
    /// same version), kept so that saving does not drop them.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct LessonProgress {
    /// Sections the learner has read, by index.
    pub sections_read: Vec<u32>,
    pub exercises: BTreeMap<String, ExerciseProgress>,
    /// Keys this build does not know, kept through load and save.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// The self-check levels a learner ticks for themselves (C26).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SelfCheck {
    pub basic: bool,
    pub intermediate: bool,
    pub senior: bool,
    /// Fields a newer fencelab wrote, kept as they were.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// Where the learner left off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Position {
    pub lesson: String,
    pub section: u32,
    /// The learner went back from that lesson to the course map: a
    /// relaunch opens the map (on that lesson), not the lesson. Absent in
    /// older records: in the lesson.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_map: bool,
    /// Fields a newer fencelab wrote, kept as they were.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    /// The learner's language (a code this build does not know reads as
    /// English).
    pub lang: Lang,
    pub lessons: BTreeMap<String, LessonProgress>,
    pub self_check: SelfCheck,
    pub position: Option<Position>,
    /// This learner's seed for the order of quiz options
    /// ([`crate::course::CourseSession::quiz_order`]). The front end draws
    /// it once from real randomness (sim-core has none) and it is stored
    /// with the rest; records written before it existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u32>,
    /// Practice rounds (`course::practice`), per pool (the lesson whose
    /// world they are drawn from), per round (`round-3`), each kept as an
    /// exercise is, with the round's `level` and `focus` among its keys.
    /// Everything a front end shows of practice is computed from these,
    /// so they merge as exercises do. Absent in older records.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub practice: BTreeMap<String, BTreeMap<String, ExerciseProgress>>,
    /// Keys this build does not know, kept through load and save.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, Value>,
}

/// No unknown keys: the base of a lesson or exercise the base record lacks.
static EMPTY: BTreeMap<String, Value> = BTreeMap::new();

/// The key of an exercise's last answer ([`ExerciseProgress::last_answer`]).
const LAST_ANSWER: &str = "last_answer";

impl ExerciseProgress {
    /// The learner's last answer, as an answers file holds it under the
    /// exercise's kind (`course::last_answer`), restored when the exercise
    /// is reopened; records written before it existed have none. It lives
    /// among the record's other keys (`"last_answer": …`), so a merge
    /// keeps this record's and takes the other's only when this one has
    /// none, as for every key this build reads as it is.
    pub fn last_answer(&self) -> Option<&Value> {
        self.unknown.get(LAST_ANSWER)
    }

    pub fn set_last_answer(&mut self, answer: Value) {
        self.unknown.insert(LAST_ANSWER.to_owned(), answer);
    }
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            version: PROGRESS_VERSION,
            lang: Lang::En,
            lessons: BTreeMap::new(),
            self_check: SelfCheck::default(),
            position: None,
            seed: None,
            practice: BTreeMap::new(),
            unknown: BTreeMap::new(),
        }
    }
}

/// Why a progress record could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgressError {
    /// Not JSON, or not a progress record (truncated, garbage).
    Corrupt(String),
    /// Written by a newer fencelab: keep it for that version.
    Newer(u32),
}

impl ProgressError {
    /// The reason in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (ProgressError::Corrupt(why), Lang::En) => {
                format!("the progress record is damaged: {why}")
            }
            (ProgressError::Corrupt(why), Lang::Zh) => format!("进度记录已损坏：{why}"),
            (ProgressError::Newer(version), Lang::En) => format!(
                "the progress record is version {version}, newer than this fencelab understands ({PROGRESS_VERSION})"
            ),
            (ProgressError::Newer(version), Lang::Zh) => format!(
                "进度记录是第 {version} 版，比这个 fencelab 能读的版本（{PROGRESS_VERSION}）更新"
            ),
        }
    }
}

impl std::fmt::Display for ProgressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ProgressError {}

/// Folds one exercise's (or practice round's) record into another:
/// completed or solution seen in either, the larger counts, a solve of
/// the learner's own winning; `base` is `Some` in a three-way merge (the
/// base record's entry, if it had one).
fn merge_exercise(
    exercise: &mut ExerciseProgress,
    their_exercise: &ExerciseProgress,
    base: Option<Option<&ExerciseProgress>>,
) {
    exercise.with_solution = match (exercise.completed, their_exercise.completed) {
        // A solve of the learner's own, in either record, wins.
        (true, true) => exercise.with_solution && their_exercise.with_solution,
        (true, false) => exercise.with_solution,
        (false, true) => their_exercise.with_solution,
        (false, false) => false,
    };
    exercise.completed |= their_exercise.completed;
    exercise.attempts = exercise.attempts.max(their_exercise.attempts);
    exercise.hints_used = exercise.hints_used.max(their_exercise.hints_used);
    exercise.solution_seen |= their_exercise.solution_seen;
    // The last answer keeps its rule: this record's, if any.
    merge_unknown(
        &mut exercise.unknown,
        &their_exercise.unknown,
        base.map(|b| b.map(|b| &b.unknown).unwrap_or(&EMPTY)),
        &[LAST_ANSWER],
    );
}

/// Folds `theirs`' unknown keys into `ours`: a key only one side has is
/// kept; on a clash `ours` wins, unless `base` says ours is only the value
/// this record started from (three-way: it did not change it), then
/// `theirs` wins. `ours_always` names keys whose clash `ours` wins even so
/// (an exercise's last answer). A key is never dropped.
fn merge_unknown(
    ours: &mut BTreeMap<String, Value>,
    theirs: &BTreeMap<String, Value>,
    base: Option<&BTreeMap<String, Value>>,
    ours_always: &[&str],
) {
    for (key, value) in theirs {
        match ours.get_mut(key) {
            None => {
                ours.insert(key.clone(), value.clone());
            }
            Some(mine) => {
                let unchanged = base.is_some_and(|base| base.get(key) == Some(&*mine));
                if unchanged && !ours_always.contains(&key.as_str()) {
                    mine.clone_from(value);
                }
            }
        }
    }
}

/// A last-writer-wins field in a three-way merge: this record's value
/// when it changed since `base`, else `theirs`.
fn changed_or_theirs<T: PartialEq + Clone>(ours: &mut T, base: &T, theirs: &T) {
    if ours == base {
        ours.clone_from(theirs);
    }
}

/// Version 1, the first format: a flat list of completed exercises.
#[derive(Debug, Deserialize)]
struct ProgressV1 {
    #[serde(default)]
    lang: Option<String>,
    /// `"lesson/exercise"` ids.
    #[serde(default)]
    completed: Vec<String>,
    /// Attempts per `"lesson/exercise"`.
    #[serde(default)]
    attempts: BTreeMap<String, u32>,
}

impl Progress {
    /// Reads any version this build knows, migrating older ones.
    pub fn from_json(text: &str) -> Result<Progress, ProgressError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| ProgressError::Corrupt(e.to_string()))?;
        let field = value
            .get("version")
            .ok_or_else(|| ProgressError::Corrupt("it has no `version`".to_owned()))?;
        // Say what is wrong with a `version` that is there (2^64, -1, "2"),
        // not that it is missing.
        let version = field
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| {
                ProgressError::Corrupt(format!(
                    "its `version` {field} is not a version number (a whole number from 0 to {})",
                    u32::MAX
                ))
            })?;
        match version {
            1 => {
                let old: ProgressV1 = serde_json::from_value(value)
                    .map_err(|e| ProgressError::Corrupt(e.to_string()))?;
                Ok(Progress::from_v1(old))
            }
            PROGRESS_VERSION => {
                let progress: Progress = serde_json::from_value(value)
                    .map_err(|e| ProgressError::Corrupt(e.to_string()))?;
                Ok(progress)
            }
            newer if newer > PROGRESS_VERSION => Err(ProgressError::Newer(newer)),
            other => Err(ProgressError::Corrupt(format!("unknown version {other}"))),
        }
    }

    fn from_v1(old: ProgressV1) -> Progress {
        let mut progress = Progress {
            lang: old.lang.and_then(|l| l.parse().ok()).unwrap_or_default(),
            ..Progress::default()
        };
        for id in &old.completed {
            if let Some((lesson, exercise)) = id.split_once('/') {
                let entry = progress.exercise_mut(lesson, exercise);
                entry.completed = true;
                entry.attempts = entry.attempts.max(1);
            }
        }
        for (id, attempts) in &old.attempts {
            if let Some((lesson, exercise)) = id.split_once('/') {
                let entry = progress.exercise_mut(lesson, exercise);
                entry.attempts = entry.attempts.max(*attempts);
            }
        }
        progress
    }

    /// The record as pretty JSON, always at the current version.
    pub fn to_json(&self) -> String {
        let mut current = self.clone();
        current.version = PROGRESS_VERSION;
        serde_json::to_string_pretty(&current).unwrap_or_default()
    }

    /// The record as JSON on one line, at the current version: what a
    /// front end writes when the pretty text would be longer than it may
    /// read back.
    pub fn to_json_compact(&self) -> String {
        let mut current = self.clone();
        current.version = PROGRESS_VERSION;
        serde_json::to_string(&current).unwrap_or_default()
    }

    /// A lesson's exercise, or a practice round (`practice/POOL`,
    /// `round-N`).
    pub fn exercise_mut(&mut self, lesson: &str, exercise: &str) -> &mut ExerciseProgress {
        if let Some(pool) = lesson.strip_prefix(crate::course::practice::PRACTICE_PREFIX) {
            return self
                .practice
                .entry(pool.to_owned())
                .or_default()
                .entry(exercise.to_owned())
                .or_default();
        }
        self.lessons
            .entry(lesson.to_owned())
            .or_default()
            .exercises
            .entry(exercise.to_owned())
            .or_default()
    }

    pub fn exercise(&self, lesson: &str, exercise: &str) -> Option<&ExerciseProgress> {
        if let Some(pool) = lesson.strip_prefix(crate::course::practice::PRACTICE_PREFIX) {
            return self.practice.get(pool)?.get(exercise);
        }
        self.lessons.get(lesson)?.exercises.get(exercise)
    }

    /// Folds `other` (e.g. the record another instance saved meanwhile)
    /// into this one without losing anything either learned: an exercise is
    /// completed or its solution seen if it is in either, attempts and hints
    /// are the larger count, sections read and self-checks are the union.
    /// The language, position and each exercise's last answer are this
    /// record's (its latest choice); `other`'s are used only when this one
    /// has none. Of two quiz
    /// seeds the smaller is kept: one seed, whichever record merges which,
    /// so two instances that merge each other agree on the order of
    /// options. Unknown keys are kept from both, this record's winning a
    /// clash.
    ///
    /// Everything but language, position, last answers and clashing
    /// unknown keys is
    /// commutative, associative and idempotent.
    ///
    /// Two records that descend from a known common one merge better with
    /// [`Progress::merge_since`].
    pub fn merge(&mut self, other: &Progress) {
        self.merge_facts(other, None);
        self.self_check.basic |= other.self_check.basic;
        self.self_check.intermediate |= other.self_check.intermediate;
        self.self_check.senior |= other.self_check.senior;
        if let (Some(ours), Some(theirs)) = (&mut self.position, &other.position) {
            merge_unknown(&mut ours.unknown, &theirs.unknown, None, &[]);
        }
        if self.position.is_none() {
            self.position.clone_from(&other.position);
        }
    }

    /// A three-way merge: folds `other` into this record, where `base` is
    /// the record this one grew from (what this instance last loaded or
    /// saved) and `other` is, say, the file as another instance left it.
    ///
    /// What is learned merges as in [`Progress::merge`] (a completed
    /// exercise, attempts, hints, a seen solution, sections read, the
    /// seed, each exercise's last answer: nothing is lost). What is
    /// *chosen* — the language, each self-check level, the position and
    /// unknown keys — is this record's only where it differs from `base`,
    /// else `other`'s: a choice this instance did not make never overwrites
    /// one another instance made, and unticking a self-check level survives.
    ///
    /// With `base == self` (nothing chosen here) every choice is `other`'s.
    pub fn merge_since(&mut self, base: &Progress, other: &Progress) {
        self.merge_facts(other, Some(base));
        changed_or_theirs(&mut self.lang, &base.lang, &other.lang);
        let checks = &mut self.self_check;
        changed_or_theirs(
            &mut checks.basic,
            &base.self_check.basic,
            &other.self_check.basic,
        );
        changed_or_theirs(
            &mut checks.intermediate,
            &base.self_check.intermediate,
            &other.self_check.intermediate,
        );
        changed_or_theirs(
            &mut checks.senior,
            &base.self_check.senior,
            &other.self_check.senior,
        );
        if self.position == base.position {
            self.position.clone_from(&other.position);
        } else if let (Some(ours), Some(theirs)) = (&mut self.position, &other.position) {
            merge_unknown(&mut ours.unknown, &theirs.unknown, None, &[]);
        }
    }

    /// What both merges share: the facts (completions, counts, sections,
    /// the seed) and the unknown keys (three-way when `base` is given).
    fn merge_facts(&mut self, other: &Progress, base: Option<&Progress>) {
        for (name, theirs) in &other.lessons {
            let base_lesson = base.and_then(|b| b.lessons.get(name));
            let ours = self.lessons.entry(name.clone()).or_default();
            ours.sections_read
                .extend(theirs.sections_read.iter().copied());
            ours.sections_read.sort_unstable();
            ours.sections_read.dedup();
            for (id, their_exercise) in &theirs.exercises {
                let base_exercise = base_lesson.and_then(|b| b.exercises.get(id));
                let exercise = ours.exercises.entry(id.clone()).or_default();
                merge_exercise(exercise, their_exercise, base.map(|_| base_exercise));
            }
            merge_unknown(
                &mut ours.unknown,
                &theirs.unknown,
                base.map(|_| base_lesson.map(|b| &b.unknown).unwrap_or(&EMPTY)),
                &[],
            );
        }
        merge_unknown(
            &mut self.self_check.unknown,
            &other.self_check.unknown,
            base.map(|b| &b.self_check.unknown),
            &[],
        );
        for (pool, theirs) in &other.practice {
            let base_pool = base.and_then(|b| b.practice.get(pool));
            let ours = self.practice.entry(pool.clone()).or_default();
            for (id, their_round) in theirs {
                let base_round = base_pool.and_then(|b| b.get(id));
                let round = ours.entry(id.clone()).or_default();
                merge_exercise(round, their_round, base.map(|_| base_round));
            }
        }
        self.seed = match (self.seed, other.seed) {
            (Some(ours), Some(theirs)) => Some(ours.min(theirs)),
            (ours, theirs) => ours.or(theirs),
        };
        merge_unknown(
            &mut self.unknown,
            &other.unknown,
            base.map(|b| &b.unknown),
            &[],
        );
    }

    /// Records an attempt and whether it was right. A first right answer
    /// after the worked solution was shown is "solved with the solution".
    pub fn record_attempt(&mut self, lesson: &str, exercise: &str, correct: bool) {
        let entry = self.exercise_mut(lesson, exercise);
        entry.attempts = entry.attempts.saturating_add(1);
        if correct && !entry.completed {
            entry.completed = true;
            entry.with_solution = entry.solution_seen;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// One instance completed an exercise; the other read a section, used a
    /// hint and switched language.
    fn two_records() -> (Progress, Progress) {
        let mut first = Progress::default();
        first.record_attempt("01", "mark", false);
        first.record_attempt("01", "mark", true);
        first
            .lessons
            .entry("01".to_owned())
            .or_default()
            .sections_read = vec![0, 2];
        first.self_check.basic = true;
        first.seed = Some(41);
        first.position = Some(Position {
            lesson: "01".to_owned(),
            section: 2,
            ..Position::default()
        });
        let mut second = Progress {
            lang: Lang::Zh,
            ..Progress::default()
        };
        second
            .lessons
            .entry("01".to_owned())
            .or_default()
            .sections_read = vec![1, 2];
        second.exercise_mut("01", "mark").hints_used = 1;
        second.exercise_mut("02", "quiz").solution_seen = true;
        second.exercise_mut("02", "quiz").attempts = 4;
        second.self_check.senior = true;
        second.seed = Some(7);
        second.position = Some(Position {
            lesson: "02".to_owned(),
            section: 0,
            ..Position::default()
        });
        (first, second)
    }

    #[test]
    fn merge_loses_nothing_either_learned() {
        let (first, second) = two_records();
        let mut merged = second.clone();
        merged.merge(&first);
        let mark = merged.exercise("01", "mark").unwrap();
        assert!(mark.completed, "the first's completion survives");
        assert_eq!((mark.attempts, mark.hints_used), (2, 1));
        let quiz = merged.exercise("02", "quiz").unwrap();
        assert!(quiz.solution_seen && !quiz.completed);
        assert_eq!(quiz.attempts, 4);
        assert_eq!(merged.lessons["01"].sections_read, [0, 1, 2]);
        assert!(merged.self_check.basic && merged.self_check.senior);
        assert!(!merged.self_check.intermediate);
        assert_eq!(merged.seed, Some(7), "one seed, the smaller");
        // The merging instance's own choices win.
        assert_eq!(merged.lang, Lang::Zh);
        assert_eq!(merged.position.as_ref().unwrap().lesson, "02");
    }

    #[test]
    fn merge_is_commutative_but_for_language_and_position() {
        let (first, second) = two_records();
        let mut one_way = first.clone();
        one_way.merge(&second);
        let mut other_way = second.clone();
        other_way.merge(&first);
        assert_ne!(one_way.lang, other_way.lang);
        assert_ne!(one_way.position, other_way.position);
        other_way.lang = one_way.lang;
        other_way.position.clone_from(&one_way.position);
        assert_eq!(one_way, other_way);
    }

    #[test]
    fn merge_is_idempotent_and_keeps_a_missing_position() {
        let (first, _) = two_records();
        let mut twice = first.clone();
        twice.merge(&first);
        assert_eq!(twice, first);
        let mut fresh = Progress::default();
        fresh.merge(&first);
        assert_eq!(fresh.position, first.position);
    }

    /// Issue 20: one instance (`local`) switched nothing; another saved
    /// Chinese and unticked a self-check level meanwhile (`disk`). Merging
    /// `local` into the file must keep the other's choices.
    #[test]
    fn a_choice_this_record_did_not_make_never_overwrites_another() {
        let mut base = Progress::default();
        base.self_check.basic = true;
        base.self_check.senior = true;
        base.exercise_mut("01", "quiz")
            .set_last_answer(serde_json::json!([1]));
        base.unknown
            .insert("future_top".to_owned(), serde_json::json!(1));
        // This instance completed an exercise and nothing else.
        let mut local = base.clone();
        local.record_attempt("01", "mark", true);
        // Another switched to Chinese, unticked `basic`, ticked
        // `intermediate`, moved on, and a newer build changed a key.
        let mut disk = base.clone();
        disk.lang = Lang::Zh;
        disk.self_check.basic = false;
        disk.self_check.intermediate = true;
        disk.position = Some(Position {
            lesson: "02".to_owned(),
            ..Position::default()
        });
        disk.unknown
            .insert("future_top".to_owned(), serde_json::json!(2));
        disk.exercise_mut("01", "quiz")
            .set_last_answer(serde_json::json!([2]));

        let mut merged = local.clone();
        merged.merge_since(&base, &disk);
        assert_eq!(merged.lang, Lang::Zh, "the other's language");
        assert!(!merged.self_check.basic, "the untick survives");
        assert!(merged.self_check.intermediate && merged.self_check.senior);
        assert_eq!(merged.position, disk.position);
        assert_eq!(merged.unknown["future_top"], 2);
        assert!(merged.exercise("01", "mark").unwrap().completed);
        // A last answer keeps its rule: this record's.
        assert_eq!(
            merged.exercise("01", "quiz").unwrap().last_answer(),
            Some(&serde_json::json!([1]))
        );

        // The two-way merge (what saves did before) loses both choices.
        let mut two_way = local.clone();
        two_way.merge(&disk);
        assert_eq!(two_way.lang, Lang::En);
        assert!(two_way.self_check.basic);
    }

    /// What this record chose since `base` wins over the file's, the
    /// untick included; facts merge as ever (nothing completed is lost).
    #[test]
    fn a_choice_this_record_made_wins_and_nothing_learned_is_lost() {
        let (first, second) = two_records();
        let base = first.clone();
        let mut local = first.clone();
        local.lang = Lang::Zh;
        local.self_check.basic = false;
        local.position = None;
        let mut disk = first.clone();
        disk.self_check.senior = true;
        disk.merge(&second);
        disk.lang = Lang::En;

        let mut merged = local.clone();
        merged.merge_since(&base, &disk);
        assert_eq!(merged.lang, Lang::Zh);
        assert!(!merged.self_check.basic, "unticked here");
        assert!(merged.self_check.senior, "ticked there");
        assert_eq!(merged.position, None, "moved here");
        let mark = merged.exercise("01", "mark").unwrap();
        assert!(mark.completed);
        assert_eq!((mark.attempts, mark.hints_used), (2, 1));
        assert!(merged.exercise("02", "quiz").unwrap().solution_seen);
        assert_eq!(merged.lessons["01"].sections_read, [0, 1, 2]);
        assert_eq!(merged.seed, Some(7));

        // Nothing chosen here: the result is the file, plus what was learned.
        let mut unchanged = base.clone();
        unchanged.merge_since(&base, &disk);
        assert_eq!(unchanged, disk);
    }

    #[test]
    fn a_record_without_a_seed_loads_and_takes_one_in_a_merge() {
        let text = r#"{"version": 2, "lang": "zh", "lessons": {},
            "self_check": {"basic": true, "intermediate": false, "senior": false},
            "position": null}"#;
        let mut old = Progress::from_json(text).unwrap();
        assert_eq!(old.seed, None);
        assert!(old.self_check.basic);
        assert!(
            !old.to_json().contains("seed"),
            "no seed is not written as null"
        );
        let (first, _) = two_records();
        old.merge(&first);
        assert_eq!(old.seed, Some(41));
        let again = Progress::from_json(&old.to_json()).unwrap();
        assert_eq!(again.seed, Some(41));
    }

    #[test]
    fn unknown_keys_survive_load_save_and_merge() {
        let text = r#"{
            "version": 2, "lang": "en", "future_top": [1, 2],
            "lessons": {"01": {"sections_read": [0], "future_lesson": "x",
                "exercises": {"mark": {"completed": true, "attempts": 1,
                    "hints_used": 0, "solution_seen": false, "future_exercise": {"a": 1}}}}},
            "self_check": {"basic": false, "intermediate": false, "senior": false, "future_check": 3},
            "position": {"lesson": "01", "section": 0, "future_position": true}
        }"#;
        let progress = Progress::from_json(text).unwrap();
        let again = Progress::from_json(&progress.to_json()).unwrap();
        assert_eq!(again, progress);
        let saved: Value = serde_json::from_str(&again.to_json()).unwrap();
        assert_eq!(saved["future_top"], serde_json::json!([1, 2]));
        assert_eq!(saved["lessons"]["01"]["future_lesson"], "x");
        assert_eq!(saved["self_check"]["future_check"], 3);
        assert_eq!(saved["position"]["future_position"], true);
        assert_eq!(
            saved["lessons"]["01"]["exercises"]["mark"]["future_exercise"]["a"],
            1
        );
        // An instance that never saw those keys keeps them when it merges.
        let mut other = Progress::default();
        other.record_attempt("01", "mark", false);
        other.merge(&progress);
        assert_eq!(other.unknown["future_top"], serde_json::json!([1, 2]));
        assert_eq!(other.self_check.unknown["future_check"], 3);
        assert_eq!(
            other.exercise("01", "mark").unwrap().unknown["future_exercise"]["a"],
            1
        );
    }
}
