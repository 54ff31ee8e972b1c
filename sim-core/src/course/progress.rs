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
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct LessonProgress {
    /// Sections the learner has read, by index.
    pub sections_read: Vec<u32>,
    pub exercises: BTreeMap<String, ExerciseProgress>,
}

/// The self-check levels a learner ticks for themselves (C26).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct SelfCheck {
    pub basic: bool,
    pub intermediate: bool,
    pub senior: bool,
}

/// Where the learner left off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Position {
    pub lesson: String,
    pub section: u32,
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
}

impl Default for Progress {
    fn default() -> Self {
        Progress {
            version: PROGRESS_VERSION,
            lang: Lang::En,
            lessons: BTreeMap::new(),
            self_check: SelfCheck::default(),
            position: None,
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

    pub fn exercise_mut(&mut self, lesson: &str, exercise: &str) -> &mut ExerciseProgress {
        self.lessons
            .entry(lesson.to_owned())
            .or_default()
            .exercises
            .entry(exercise.to_owned())
            .or_default()
    }

    pub fn exercise(&self, lesson: &str, exercise: &str) -> Option<&ExerciseProgress> {
        self.lessons.get(lesson)?.exercises.get(exercise)
    }

    /// Records an attempt and whether it was right.
    pub fn record_attempt(&mut self, lesson: &str, exercise: &str, correct: bool) {
        let entry = self.exercise_mut(lesson, exercise);
        entry.attempts = entry.attempts.saturating_add(1);
        entry.completed |= correct;
    }
}
