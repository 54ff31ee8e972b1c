//! `fencelab lint` and `fencelab grade`: the course from the command line,
//! for the people who write lessons and the people who grade them.

use sim_core::Lang;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use serde_json::Value;
use sim_core::course::{
    Answer, CourseSession, Grade, Lesson, Progress, concept_name, coverage, lint_course,
    lint_lesson, parse_lesson,
};

use crate::report::{EXIT_BAD_INPUT, print_stdout};
use crate::style::{Style, Tone, inert, inert_lines};

/// Exit status when lint finds a lesson that parses but fails a check.
const EXIT_LINT_FAILED: u8 = 1;

#[allow(clippy::print_stderr)]
fn complain(lines: &[String]) {
    for line in lines {
        // A message may quote the file.
        eprintln!("{}", inert_lines(line));
    }
}

/// A lesson file, read and parsed.
pub(crate) struct LessonFile {
    pub(crate) path: PathBuf,
    pub(crate) lesson: Lesson,
}

/// Where the course comes from: the lessons built into this binary (so an
/// installed `fencelab` works from any folder), or a folder of lesson files
/// (`--lessons DIR`, `fencelab lint DIR`) for the people who write them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LessonSource {
    Embedded,
    Folder(PathBuf),
}

impl LessonSource {
    /// The folder named on the command line, else the built-in course.
    pub(crate) fn from_arg(dir: Option<PathBuf>) -> LessonSource {
        dir.map_or(LessonSource::Embedded, LessonSource::Folder)
    }
}

impl std::fmt::Display for LessonSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LessonSource::Embedded => f.write_str("lessons (built into fencelab)"),
            LessonSource::Folder(dir) => write!(f, "{}", dir.display()),
        }
    }
}

/// A lesson file's name, as messages show it, and its bytes.
type LessonText = (PathBuf, Cow<'static, [u8]>);

/// Reads and parses the course, in `order`. Problems come back as
/// `FILE:LINE:COL: message` lines.
pub(crate) fn load_lessons(
    source: &LessonSource,
    lang: Lang,
) -> Result<Vec<LessonFile>, Vec<String>> {
    match source {
        LessonSource::Embedded => parse_lessons(embedded_lessons(), Vec::new(), lang),
        LessonSource::Folder(dir) => {
            let (texts, problems) = read_lessons_folder(dir, lang)?;
            parse_lessons(texts, problems, lang)
        }
    }
}

/// The built-in course, named as in the source tree (`lessons/STEM.toml`).
fn embedded_lessons() -> Vec<LessonText> {
    crate::embedded::LESSONS
        .iter()
        .map(|(stem, text)| {
            (
                Path::new("lessons").join(format!("{stem}.toml")),
                Cow::Borrowed(text.as_bytes()),
            )
        })
        .collect()
}

/// Most lesson files a lessons folder may hold: the course has 12, and each
/// file may be 1 MiB, so this bounds what `lint`, `grade` and the app hold
/// (the budgets in docs/scenario-format.md).
pub(crate) const MAX_LESSON_FILES: usize = 64;

/// Every `*.toml` file in `dir`, in file-name order, and a line for each
/// that could not be read.
fn read_lessons_folder(
    dir: &Path,
    lang: Lang,
) -> Result<(Vec<LessonText>, Vec<String>), Vec<String>> {
    if let Some(problem) =
        crate::input::folder_problem(dir, lang.pick("the lessons folder", "课程文件夹"), lang)
    {
        return Err(vec![match lang {
            Lang::En => format!("{}: {problem}", dir.display()),
            Lang::Zh => format!("{}：{problem}", dir.display()),
        }]);
    }
    let entries = std::fs::read_dir(dir).map_err(|error| {
        vec![match lang {
            Lang::En => format!("{}: cannot read the lessons folder: {error}", dir.display()),
            Lang::Zh => format!(
                "{}：无法读取课程文件夹：{}",
                dir.display(),
                crate::report::io_error_zh(&error)
            ),
        }]
    })?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    if paths.len() > MAX_LESSON_FILES {
        return Err(vec![match lang {
            Lang::En => format!(
                "{}: more than {MAX_LESSON_FILES} lesson files (*.toml): {} here; a course holds at most {MAX_LESSON_FILES}",
                dir.display(),
                paths.len()
            ),
            Lang::Zh => format!(
                "{}：课程文件超过 {MAX_LESSON_FILES} 个（这里有 {} 个 *.toml）；一门课最多 {MAX_LESSON_FILES} 个",
                dir.display(),
                paths.len()
            ),
        }]);
    }
    if paths.is_empty() {
        return Err(vec![match lang {
            Lang::En => format!("{}: no lesson files (*.toml) here", dir.display()),
            Lang::Zh => format!("{}：这里没有课程文件（*.toml）", dir.display()),
        }]);
    }
    let mut texts = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        match crate::input::read_file(&path, crate::input::InputKind::Lesson) {
            Ok(bytes) => texts.push((path, Cow::Owned(bytes))),
            Err(error) => problems.push(error.line(&path.display().to_string(), lang)),
        }
    }
    Ok((texts, problems))
}

/// Parses lesson files, checks that each id is its file name and that no
/// two share an `order`, and sorts them by `order`.
fn parse_lessons(
    texts: Vec<LessonText>,
    mut problems: Vec<String>,
    lang: Lang,
) -> Result<Vec<LessonFile>, Vec<String>> {
    let mut lessons = Vec::new();
    for (path, bytes) in texts {
        let shown = path.display().to_string();
        match parse_lesson(&bytes) {
            Ok(lesson) => {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if lesson.id != stem {
                    problems.push(match lang {
                        Lang::En => format!(
                            "{shown}:1:1: the lesson's id `{}` must equal the file name `{stem}`",
                            lesson.id
                        ),
                        Lang::Zh => format!(
                            "{shown}:1:1: 课程的 id `{}` 必须与文件名 `{stem}` 相同",
                            lesson.id
                        ),
                    });
                }
                lessons.push(LessonFile { path, lesson });
            }
            Err(diagnostics) => problems.extend(
                diagnostics
                    .iter()
                    .map(|d| format!("{shown}:{}:{}: {}", d.line, d.col, d.message_in(lang))),
            ),
        }
    }
    for (index, file) in lessons.iter().enumerate() {
        for other in &lessons[..index] {
            if other.lesson.order == file.lesson.order {
                problems.push(match lang {
                    Lang::En => format!(
                        "{}:1:1: `order = {}` is also used by {}",
                        file.path.display(),
                        file.lesson.order,
                        other.path.display()
                    ),
                    Lang::Zh => format!(
                        "{}:1:1: {} 也用了 `order = {}`",
                        file.path.display(),
                        other.path.display(),
                        file.lesson.order
                    ),
                });
            }
        }
    }
    if problems.is_empty() {
        lessons.sort_by_key(|file| file.lesson.order);
        Ok(lessons)
    } else {
        Err(problems)
    }
}

/// A lesson count, an exercise count and a scenario count, in `lang`.
fn lint_summary(lang: Lang, lessons: usize, exercises: usize, scenarios: usize) -> String {
    match lang {
        Lang::En => format!(
            "{lessons} lessons, {exercises} exercises, {scenarios} scenarios: every scenario ran"
        ),
        Lang::Zh => {
            format!("{lessons} 课，{exercises} 个练习，{scenarios} 个场景：每个场景都运行过")
        }
    }
}

/// The coverage table, a row per concept; returns the concepts not both
/// taught and practised.
fn coverage_table(
    out: &mut String,
    table: &[sim_core::course::Coverage],
    lang: Lang,
    style: &Style,
) -> Vec<&'static str> {
    let mut uncovered = Vec::new();
    for row in table {
        let mark = if row.is_covered() {
            style.paint(Tone::Good, "✓")
        } else {
            uncovered.push(row.concept);
            style.paint(Tone::Bad, "✗")
        };
        let _ = writeln!(
            out,
            "{mark} {} {} {} · {}",
            row.concept,
            crate::report::pad(concept_name(row.concept, lang).unwrap_or_default(), 50),
            if row.taught_in.is_empty() {
                "—".to_owned()
            } else {
                inert(&row.taught_in.join(", ")).into_owned()
            },
            if row.practised_in.is_empty() {
                "—".to_owned()
            } else {
                inert(&row.practised_in.join(", ")).into_owned()
            },
        );
    }
    uncovered
}

pub(crate) fn lint_command(source: &LessonSource, lang: Lang) -> ExitCode {
    let lessons = match load_lessons(source, lang) {
        Ok(lessons) => lessons,
        Err(problems) => {
            complain(&problems);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let style = Style::for_stdout();
    let mut problems = Vec::new();
    let mut exercises = 0;
    for file in &lessons {
        exercises += file.lesson.exercises.len();
        for problem in lint_lesson(&file.lesson) {
            problems.push(format!(
                "{}:{}:{}: {}",
                file.path.display(),
                problem.line,
                problem.col,
                problem.message(lang)
            ));
        }
    }
    let plain: Vec<Lesson> = lessons.iter().map(|f| f.lesson.clone()).collect();
    // What only the whole course shows (e.g. where the quizzes' answers sit).
    for problem in lint_course(&plain) {
        problems.push(format!("{source}: {}", problem.message(lang)));
    }
    let table = coverage(&plain);
    let mut out = String::new();
    let scenarios = plain.iter().map(|l| l.scenarios.len()).sum::<usize>();
    let _ = writeln!(
        out,
        "{}",
        lint_summary(lang, lessons.len(), exercises, scenarios)
    );
    let _ = writeln!(
        out,
        "\n{}",
        lang.pick(
            "concept coverage (taught in · practised in):",
            "概念覆盖（讲授于 · 练习于）："
        )
    );
    let uncovered = coverage_table(&mut out, &table, lang, &style);
    for concept in &uncovered {
        problems.push(match lang {
            Lang::En => format!(
                "{source}: concept {concept} is not both taught by a section and practised by a simulator-graded exercise"
            ),
            Lang::Zh => format!(
                "{source}：概念 {concept} 需要既有一节讲授它，又有一个由模拟器评分的练习来练它"
            ),
        });
    }
    let code = print_stdout(&out);
    if problems.is_empty() {
        let _ = print_stdout(&format!(
            "\n{}\n",
            style.paint(
                Tone::Good,
                lang.pick(
                    "✓ lint passed: every exercise is solvable and every concept is covered",
                    "✓ 检查通过：每个练习都可解，每个概念都已覆盖"
                )
            )
        ));
        code
    } else {
        complain(&problems);
        ExitCode::from(EXIT_LINT_FAILED)
    }
}

/// Where `inner` (a slice of `outer`) starts, as a byte offset.
fn offset_in(outer: &str, inner: &str) -> usize {
    (inner.as_ptr() as usize)
        .saturating_sub(outer.as_ptr() as usize)
        .min(outer.len())
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswersFile<'a> {
    #[serde(default)]
    learner: Option<String>,
    #[serde(borrow)]
    answers: Vec<&'a serde_json::value::RawValue>,
}

/// serde_json's reason for refusing an answers file, in Chinese: the
/// mistakes this file format names itself (a repeated key, an unknown or a
/// missing top-level key) are said in full; for plain JSON syntax serde's
/// English reason stays English, and its place is given.
fn answers_error_zh(error: &serde_json::Error) -> String {
    let english = error.to_string();
    let key = english.split('`').nth(1).unwrap_or_default();
    if english.starts_with("duplicate key `") {
        format!("重复的键 `{key}`：一个对象里每个键只能出现一次")
    } else if english.starts_with("unknown field `") {
        format!("未知的键 `{key}`：答案文件的顶层只能有 `learner` 和 `answers`")
    } else if english.starts_with("missing field `") {
        format!("缺少键 `{key}`")
    } else if error.is_syntax() || error.is_eof() {
        "这里不是有效的 JSON".to_owned()
    } else {
        "这里不是有效的答案文件：顶层应是一个含 `answers` 列表的对象".to_owned()
    }
}

/// `FILE:LINE:COL: …` when `text` is valid JSON but not an object: what an
/// answers file must look like (serde would name its own struct instead).
fn not_an_object(text: &str, shown: &str, lang: Lang) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    if value.is_object() {
        return None;
    }
    let start = text.len() - text.trim_start().len();
    let (line, col) = sim_core::line_col(text, start);
    let shape = r#"`{"learner": "…", "answers": [{"lesson": …, "exercise": …, "mark": …}, …]}`"#;
    Some(match lang {
        Lang::En => format!(
            "{shown}:{line}:{col}: an answers file must be one JSON object, {shape} (lessons/README.md); this is {}",
            json_kind(&value)
        ),
        Lang::Zh => format!(
            "{shown}:{line}:{col}: 答案文件必须是一个 JSON 对象，{shape}（格式见 lessons/README.md）；这里是{}",
            json_kind_zh(&value)
        ),
    })
}

/// The answer keys of an answer, one per exercise kind.
const ANSWER_KINDS: [&str; 6] = ["mark", "predict", "design", "break", "quiz", "sql"];

/// Any JSON value, refused (with the position serde_json gives) when one of
/// its objects repeats a key: serde_json would silently keep the last one,
/// so the learner would be graded on an answer they may not have meant.
struct DistinctKeys;

impl<'de> serde::Deserialize<'de> for DistinctKeys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(DistinctKeysVisitor)
    }
}

struct DistinctKeysVisitor;

impl<'de> serde::de::Visitor<'de> for DistinctKeysVisitor {
    type Value = DistinctKeys;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<DistinctKeys, E> {
        Ok(DistinctKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<DistinctKeys, E> {
        Ok(DistinctKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<DistinctKeys, E> {
        Ok(DistinctKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<DistinctKeys, E> {
        Ok(DistinctKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<DistinctKeys, E> {
        Ok(DistinctKeys)
    }

    fn visit_unit<E>(self) -> Result<DistinctKeys, E> {
        Ok(DistinctKeys)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<DistinctKeys, A::Error> {
        while seq.next_element::<DistinctKeys>()?.is_some() {}
        Ok(DistinctKeys)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<DistinctKeys, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate key `{key}`: each key may appear once in an object"
                )));
            }
            map.next_value::<DistinctKeys>()?;
        }
        Ok(DistinctKeys)
    }
}

/// What is wrong with the shape of one answer (its keys), before its
/// exercise is looked up.
fn answer_shape_problem(value: &Value, lang: Lang) -> Option<String> {
    let Some(object) = value.as_object() else {
        return Some(match lang {
            Lang::En => format!(
                "an answer must be an object with `lesson`, `exercise` and one of `{}`; this is {}",
                ANSWER_KINDS.join("`, `"),
                json_kind(value)
            ),
            Lang::Zh => format!(
                "答案必须是一个对象，含 `lesson`、`exercise` 和 `{}` 之一；这里是{}",
                ANSWER_KINDS.join("`、`"),
                json_kind_zh(value)
            ),
        });
    };
    // A practice round's answer: its key and the marks, nothing else.
    if object.contains_key("practice") {
        return object
            .keys()
            .find(|key| !matches!(key.as_str(), "practice" | "mark"))
            .map(|unknown| match lang {
                Lang::En => format!(
                    "unknown key `{unknown}` in a practice answer; expected `practice` (the round's key) and `mark`"
                ),
                Lang::Zh => format!(
                    "练习答案中有未知的键 `{unknown}`；应为 `practice`（轮次的键）和 `mark`"
                ),
            })
            .or_else(|| {
                (!object.contains_key("mark")).then(|| {
                    lang.pick(
                        "a practice answer needs a `mark` key: the steps to refuse",
                        "练习答案需要一个 `mark` 键：要拒绝的步骤",
                    )
                    .to_owned()
                })
            });
    }
    if let Some(unknown) = object.keys().find(|key| {
        !matches!(key.as_str(), "lesson" | "exercise") && !ANSWER_KINDS.contains(&key.as_str())
    }) {
        return Some(match lang {
            Lang::En => format!(
                "unknown key `{unknown}` in an answer; expected `lesson`, `exercise` and one of `{}`",
                ANSWER_KINDS.join("`, `")
            ),
            Lang::Zh => format!(
                "答案中有未知的键 `{unknown}`；应为 `lesson`、`exercise` 和 `{}` 之一",
                ANSWER_KINDS.join("`、`")
            ),
        });
    }
    for key in ["lesson", "exercise"] {
        match object.get(key) {
            Some(Value::String(_)) => {}
            Some(other) => {
                return Some(match lang {
                    Lang::En => format!("`{key}` must be a string; this is {}", json_kind(other)),
                    Lang::Zh => format!("`{key}` 必须是字符串；这里是{}", json_kind_zh(other)),
                });
            }
            None => {
                return Some(match lang {
                    Lang::En => format!("the answer has no `{key}`"),
                    Lang::Zh => format!("答案缺少 `{key}`"),
                });
            }
        }
    }
    let kinds: Vec<&str> = ANSWER_KINDS
        .into_iter()
        .filter(|kind| object.contains_key(*kind))
        .collect();
    (kinds.len() > 1).then(|| match lang {
        Lang::En => format!(
            "an answer answers one exercise with one key; this one has `{}`",
            kinds.join("` and `")
        ),
        Lang::Zh => format!(
            "一个答案只用一个答案键回答一道练习；这里有 `{}`",
            kinds.join("` 和 `")
        ),
    })
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn json_kind_zh(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "布尔值",
        Value::Number(_) => "数字",
        Value::String(_) => "字符串",
        Value::Array(_) => "列表",
        Value::Object(_) => "对象",
    }
}

/// One graded answer.
struct Graded {
    lesson: String,
    exercise: String,
    kind: &'static str,
    grade: Grade,
}

/// `grade --json`: the whole report.
#[derive(Serialize)]
struct GradeReport<'a> {
    learner: Option<&'a str>,
    answers: usize,
    correct: usize,
    results: Vec<GradeResultJson<'a>>,
}

#[derive(Serialize)]
struct GradeResultJson<'a> {
    lesson: &'a str,
    exercise: &'a str,
    kind: &'static str,
    correct: bool,
    summary: &'a str,
    items: Vec<GradeItemJson<'a>>,
    /// The counterexample scenario, in the JSON form of the scenario format.
    counterexample: Option<Value>,
}

#[derive(Serialize)]
struct GradeItemJson<'a> {
    index: Option<u32>,
    right: bool,
    text: &'a str,
}

/// The answers file's text, or the line to complain with.
fn read_answers(path: &Path, lang: Lang) -> Result<String, String> {
    let shown = path.display().to_string();
    match crate::input::read_file(path, crate::input::InputKind::Answers).map(String::from_utf8) {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(_)) => Err(format!(
            "{shown}:1:1: {}",
            lang.pick(
                "the answers file is not valid UTF-8",
                "答案文件不是有效的 UTF-8 文本"
            )
        )),
        Err(error) => Err(error.line(&shown, lang)),
    }
}

/// Grades every answer of `file` in `session`; problems come back as
/// `FILE:LINE:COL: message` lines in `lang`.
fn grade_answers(
    session: &CourseSession,
    file: &AnswersFile<'_>,
    text: &str,
    shown: &str,
    lang: Lang,
) -> Result<Vec<Graded>, Vec<String>> {
    let mut problems = Vec::new();
    let mut results = Vec::new();
    for raw in &file.answers {
        let (line, col) = sim_core::line_col(text, offset_in(text, raw.get()));
        let at = |message: String| format!("{shown}:{line}:{col}: {message}");
        let value: Value = match serde_json::from_str(raw.get()) {
            Ok(value) => value,
            Err(error) => {
                problems.push(at(error.to_string()));
                continue;
            }
        };
        if let Some(problem) = answer_shape_problem(&value, lang) {
            problems.push(at(problem));
            continue;
        }
        if let Some(key) = value.get("practice") {
            match grade_practice(session, key, &value["mark"], lang) {
                Ok(graded) => results.push(graded),
                Err(problem) => problems.push(at(problem)),
            }
            continue;
        }
        let field = |key: &str| value.get(key).and_then(Value::as_str).unwrap_or_default();
        let (lesson_id, exercise_id) = (field("lesson"), field("exercise"));
        let kind = match session.exercise(lesson_id, exercise_id) {
            Ok((_, exercise)) => exercise.kind.name(),
            Err(error) => {
                problems.push(at(error.message(lang)));
                continue;
            }
        };
        let Some(answer_value) = value.get(kind) else {
            problems.push(at(match lang {
                Lang::En => format!(
                    "`{lesson_id}/{exercise_id}` is a `{kind}` exercise: the answer needs a `{kind}` key"
                ),
                Lang::Zh => format!(
                    "`{lesson_id}/{exercise_id}` 是 `{kind}` 练习：答案需要一个 `{kind}` 键"
                ),
            }));
            continue;
        };
        let graded = session
            .answer_from_json(lesson_id, exercise_id, answer_value)
            // SQL statements run here, on SQLite in the box, before grading.
            .and_then(|answer| run_sql(session, lesson_id, exercise_id, answer))
            // A teacher's report: the whole grade, every item with its
            // reason; an empty answer is graded (as wrong), not refused.
            .and_then(|answer| session.grade_handed_in(lesson_id, exercise_id, &answer));
        match graded {
            Ok(grade) => results.push(Graded {
                lesson: lesson_id.to_owned(),
                exercise: exercise_id.to_owned(),
                kind,
                grade,
            }),
            Err(error) => problems.push(at(format!(
                "`{lesson_id}/{exercise_id}`: {}",
                error.message(lang)
            ))),
        }
    }
    if problems.is_empty() {
        Ok(results)
    } else {
        Err(problems)
    }
}

/// A practice round's answer: the round drawn again from its key, the
/// marks graded by the oracle's key.
fn grade_practice(
    session: &CourseSession,
    key: &Value,
    marks: &Value,
    lang: Lang,
) -> Result<Graded, String> {
    let key: sim_core::course::practice::RoundKey =
        serde_json::from_value(key.clone()).map_err(|error| match lang {
            Lang::En => format!("`practice` is not a round's key: {error}"),
            Lang::Zh => format!("`practice` 不是一个轮次的键：{error}"),
        })?;
    let (_, grade) = session
        .grade_practice(&key, marks)
        .map_err(|error| error.message(lang))?;
    Ok(Graded {
        lesson: key.lesson_id(),
        exercise: key.exercise_id(),
        kind: "mark",
        grade,
    })
}

/// A `sql` answer with its statements run against the exercise's plan;
/// any other answer as it is.
fn run_sql(
    session: &CourseSession,
    lesson_id: &str,
    exercise_id: &str,
    answer: Answer,
) -> Result<Answer, sim_core::course::CourseError> {
    let Answer::Sql(mut sql) = answer else {
        return Ok(answer);
    };
    let plan = session.sql_plan(lesson_id, exercise_id)?;
    sql.run = Some(sqlbox::battery::run(&plan, &sql.statements));
    Ok(Answer::Sql(sql))
}

fn grade_report_json(learner: Option<&str>, results: &[Graded], lang: Lang) -> String {
    let report = GradeReport {
        learner,
        answers: results.len(),
        correct: results.iter().filter(|r| r.grade.correct).count(),
        results: results
            .iter()
            .map(|result| GradeResultJson {
                lesson: &result.lesson,
                exercise: &result.exercise,
                kind: result.kind,
                correct: result.grade.correct,
                summary: result.grade.summary.get(lang),
                items: result
                    .grade
                    .items
                    .iter()
                    .map(|item| GradeItemJson {
                        index: item.index,
                        right: item.right,
                        text: item.text.get(lang),
                    })
                    .collect(),
                counterexample: result
                    .grade
                    .counterexample
                    .as_ref()
                    .map(|c| sim_core::scenario_to_json(&c.scenario)),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}

fn grade_report_table(learner: Option<&str>, results: &[Graded], lang: Lang) -> String {
    let style = Style::for_stdout();
    let correct = results.iter().filter(|r| r.grade.correct).count();
    let mut out = String::new();
    // The learner's name, ids and texts come from files: made inert.
    let learner = inert(learner.unwrap_or(lang.pick("learner", "学习者")));
    let _ = match lang {
        Lang::En => writeln!(
            out,
            "{learner}: {correct} of {} answers correct\n",
            results.len()
        ),
        Lang::Zh => writeln!(
            out,
            "{learner}：{} 个答案中 {correct} 个正确\n",
            results.len()
        ),
    };
    for result in results {
        let mark = if result.grade.correct {
            style.paint(Tone::Good, "✓")
        } else {
            style.paint(Tone::Bad, "✗")
        };
        let line = format!(
            "{}/{} ({}){}{}",
            result.lesson,
            result.exercise,
            result.kind,
            lang.pick(": ", "："),
            result.grade.summary.get(lang)
        );
        let _ = writeln!(out, "{mark} {}", inert(&line));
        for item in result.grade.items.iter().filter(|item| !item.right) {
            // Options and a SQL battery's cases counted from 1 as a reader
            // counts them (a case's text starts with its title); steps by
            // the number the timeline gives them.
            let label = item
                .index
                .map(|i| match (result.kind, lang) {
                    ("quiz", Lang::En) => format!("option {}: ", i + 1),
                    ("quiz", Lang::Zh) => format!("选项 {}：", i + 1),
                    ("sql", Lang::En) => format!("case {}: ", i + 1),
                    ("sql", Lang::Zh) => format!("用例 {}：", i + 1),
                    (_, Lang::En) => format!("step {i}: "),
                    (_, Lang::Zh) => format!("第 {i} 步："),
                })
                .unwrap_or_default();
            let _ = writeln!(out, "    ✗ {label}{}", inert(item.text.get(lang)));
        }
        if let Some(found) = &result.grade.counterexample {
            let _ = writeln!(
                out,
                "    {}{}",
                lang.pick("counterexample: ", "反例："),
                inert(found.explanation.get(lang))
            );
        }
    }
    out
}

pub(crate) fn grade_command(
    path: &Path,
    source: &LessonSource,
    json_output: bool,
    lang: Lang,
) -> ExitCode {
    let shown = path.display().to_string();
    let text = match read_answers(path, lang) {
        Ok(text) => text,
        Err(line) => {
            complain(&[line]);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    // A byte-order mark (as some Windows editors write) is not part of the
    // JSON; positions are counted after it, as editors show them.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let parsed = serde_json::from_str::<DistinctKeys>(text)
        .and_then(|DistinctKeys| serde_json::from_str::<AnswersFile<'_>>(text));
    if parsed.is_err() {
        if let Some(line) = not_an_object(text, &shown, lang) {
            complain(&[line]);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    }
    let file: AnswersFile<'_> = match parsed {
        Ok(file) => file,
        Err(error) => {
            let (line, col) = (error.line().max(1), error.column().max(1));
            complain(&[match lang {
                // serde's own " at line L column C" is already in front.
                Lang::En => {
                    let reason = error.to_string();
                    let reason = reason.rsplit_once(" at line ").map_or(&*reason, |(r, _)| r);
                    format!("{shown}:{line}:{col}: {reason}")
                }
                Lang::Zh => format!("{shown}:{line}:{col}: {}", answers_error_zh(&error)),
            }]);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let lessons = match load_lessons(source, lang) {
        Ok(lessons) => lessons,
        Err(problems) => {
            complain(&problems);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let session = CourseSession::new(
        lessons.into_iter().map(|file| file.lesson).collect(),
        Progress::default(),
    );
    let results = match grade_answers(&session, &file, text, &shown, lang) {
        Ok(results) => results,
        Err(problems) => {
            complain(&problems);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let learner = file.learner.as_deref();
    print_stdout(&if json_output {
        grade_report_json(learner, &results, lang)
    } else {
        grade_report_table(learner, &results, lang)
    })
}
