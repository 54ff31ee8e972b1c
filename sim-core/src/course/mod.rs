//! The course model shared by the terminal and the browser: lessons read
//! from TOML (`lessons/README.md`), exercises graded by the engine and the
//! explorers at run time, and the learner's progress record.
//!
//! Like the rest of sim-core it does no I/O: callers read the files and
//! hand over bytes.

mod answer_json;
mod choose;
mod editor;
mod error;
mod feedback;
pub mod front_door;
mod grade;
mod kinds;
mod last_answer;
mod lesson;
mod levels;
mod lint;
mod order;
pub mod practice;
mod progress;
mod screen;
mod session;
mod views;

pub use crate::resource::MinimalDesign;
pub use answer_json::{
    AnswerJson, DesignJson, Field, Names, NoteJson, NoteText, StepJson, answer_from_json,
};
pub use editor::{
    Choice, Edit, EditRefused, Editor, EditorField, EditorKind, EditorRow, Input, schedule_actions,
};
pub use error::{AnswerError, CourseError, StepProblem};
pub use feedback::Feedback;
pub use grade::{
    Answer, DesignAnswer, Grade, GradeItem, Schedule, Solution, SqlAnswer, grade, solution,
    worked_solution,
};
pub use kinds::design::{DesignExercise, minimal_design};
pub use kinds::mark::{MarkKey, mark_candidates, mark_key, mark_keys};
pub use kinds::predict::asked_steps;
pub use kinds::schedule::{scenario_steps, schedule_scenario};
#[cfg(feature = "sql-lab")]
pub use kinds::sql::sql_plan;
#[cfg(feature = "sql-lab")]
pub use kinds::sql::sql_unsolved;
pub use last_answer::{answer_json, answer_to_json};
pub use lesson::{
    Exercise, ExerciseKind, Knob, Lesson, MinimalMemo, QuizOption, Section, parse_lesson,
};
pub use levels::{Level, LevelState, Standing};
pub use lint::{LintKind, LintProblem, check_lessons, lint_course, lint_lesson};
pub use order::option_order;
pub use progress::{
    ExerciseProgress, LessonProgress, PROGRESS_VERSION, Position, Progress, ProgressError,
    SelfCheck,
};
pub use screen::{
    Act, Choosing, ExerciseScreen, FeedbackItem, FeedbackView, Item, ItemChoice, ItemKey, KeyTone,
    Pick, RevealView, Tone, Verdict, tries_words,
};
pub use session::{CourseSession, Graded, Hint, SelfCheckLevel};
pub use views::{
    ConceptView, ExerciseView, FrontDoorView, LessonView, MapLessonView, MapView, NextView,
    ReviewLine, ReviewView, ScenarioView, SectionView, StoryView, hints_words,
};

use crate::Lang;
use crate::scenario::Text;

/// The concepts every course must cover (`../shared/seed/CONCEPTS.md`):
/// id, English name, Chinese name.
pub const CONCEPTS: [(&str, &str, &str); 27] = [
    ("C01", "Liveness vs safety", "活性与安全"),
    ("C02", "A longer TTL is not safety", "更长的 TTL 不是安全"),
    (
        "C03",
        "Claims produce a monotonic fencing token",
        "领取产生单调递增的 fencing token",
    ),
    (
        "C04",
        "Renew must match owner and token",
        "续约必须匹配 owner 和 token",
    ),
    (
        "C05",
        "The commit is one conditional update",
        "提交是一条条件更新",
    ),
    (
        "C06",
        "Check-then-act leaves a window",
        "先检查后执行留下窗口",
    ),
    ("C07", "Token vs operation id", "token 与操作 ID"),
    (
        "C08",
        "Check at the resource that takes the effect",
        "在产生效果的资源端检查",
    ),
    (
        "C09",
        "Highest-seen fencing vs registration or a gateway",
        "最高已见 token 与登记或网关",
    ),
    (
        "C10",
        "No lock across the whole run",
        "不要在整个执行期间持锁",
    ),
    (
        "C11",
        "Queues: SKIP LOCKED, and the unlocked race",
        "队列：SKIP LOCKED 与无锁竞态",
    ),
    (
        "C12",
        "Batch writes are fenced batch by batch",
        "批量写入逐批校验",
    ),
    (
        "C13",
        "One time source for leases",
        "租约判断使用同一时间源",
    ),
    ("C14", "The acceptance test", "验收测试"),
    (
        "C15",
        "Cancelled while the lease is valid",
        "租约有效时被取消",
    ),
    (
        "C16",
        "Cancel first, remote requests still sent",
        "已取消但远端请求仍在发送",
    ),
    (
        "C17",
        "A target that does not understand tokens",
        "不识别 token 的远端目标",
    ),
    (
        "C18",
        "Fence per batch vs per claim",
        "按批次还是按领取递增 fence",
    ),
    (
        "C19",
        "A PostgreSQL claim without a window",
        "没有窗口的 PostgreSQL 领取",
    ),
    ("C20", "The remote report file", "远端报告文件"),
    (
        "C21",
        "A model call longer than the lease",
        "比租约更长的模型调用",
    ),
    (
        "C22",
        "Pitfall: TTL expiry kills the old worker",
        "误区：TTL 过期会杀死旧 Worker",
    ),
    ("C23", "Pitfall: random tokens", "误区：随机 token"),
    (
        "C24",
        "Pitfall: checking only in the worker",
        "误区：只在 Worker 内检查",
    ),
    (
        "C25",
        "Pitfall: the lock held across the task",
        "误区：整个任务持有数据库锁",
    ),
    ("C26", "Self-check levels", "自我检查的层级"),
    ("C27", "The consolidation exercise", "巩固练习"),
];

/// The name of concept `id` in `lang`, if it is one.
pub fn concept_name(id: &str, lang: Lang) -> Option<&'static str> {
    CONCEPTS
        .iter()
        .find(|(known, _, _)| *known == id)
        .map(|(_, en, zh)| lang.pick(*en, *zh))
}

/// Where each concept is taught and practised in a set of lessons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    pub concept: &'static str,
    /// Lessons with a section that teaches it.
    pub taught_in: Vec<String>,
    /// `lesson/exercise` of simulator-graded exercises that practise it.
    pub practised_in: Vec<String>,
    /// `lesson/exercise` of quizzes about it.
    pub quizzed_in: Vec<String>,
}

impl Coverage {
    pub fn is_covered(&self) -> bool {
        !self.taught_in.is_empty() && !self.practised_in.is_empty()
    }
}

/// The coverage table of C01–C27 over `lessons`.
pub fn coverage(lessons: &[Lesson]) -> Vec<Coverage> {
    CONCEPTS
        .iter()
        .map(|(concept, _, _)| {
            let mut row = Coverage {
                concept,
                taught_in: Vec::new(),
                practised_in: Vec::new(),
                quizzed_in: Vec::new(),
            };
            for lesson in lessons {
                if lesson
                    .sections
                    .iter()
                    .any(|s| s.concepts.iter().any(|c| c == concept))
                {
                    row.taught_in.push(lesson.id.clone());
                }
                for exercise in &lesson.exercises {
                    if !exercise.concepts.iter().any(|c| c == concept) {
                        continue;
                    }
                    let name = format!("{}/{}", lesson.id, exercise.id);
                    match exercise.kind {
                        ExerciseKind::Quiz { .. } => row.quizzed_in.push(name),
                        _ => row.practised_in.push(name),
                    }
                }
            }
            row
        })
        .collect()
}

/// Both languages of a text are present.
pub(crate) fn complete(text: &Text) -> bool {
    !text.en.trim().is_empty() && !text.zh.trim().is_empty()
}
