//! `fencelab lint` and `fencelab grade`: the course from the command line,
//! for the people who write lessons and the people who grade them.

use sim_core::Lang;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};
use sim_core::course::{
    Lesson, answer_from_json, check_lessons, concept_name, coverage, grade, parse_lesson,
};

use crate::report::{EXIT_BAD_INPUT, print_stdout};
use crate::style::{Style, Tone};

/// Exit status when lint finds a lesson that parses but fails a check.
const EXIT_LINT_FAILED: u8 = 1;

#[allow(clippy::print_stderr)]
fn complain(lines: &[String]) {
    for line in lines {
        eprintln!("{line}");
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
pub(crate) fn load_lessons(source: &LessonSource) -> Result<Vec<LessonFile>, Vec<String>> {
    match source {
        LessonSource::Embedded => parse_lessons(embedded_lessons(), Vec::new()),
        LessonSource::Folder(dir) => {
            let (texts, problems) = read_lessons_folder(dir)?;
            parse_lessons(texts, problems)
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

/// Every `*.toml` file in `dir`, in file-name order, and a line for each
/// that could not be read.
fn read_lessons_folder(dir: &Path) -> Result<(Vec<LessonText>, Vec<String>), Vec<String>> {
    let entries = std::fs::read_dir(dir).map_err(|error| {
        vec![format!(
            "{}: cannot read the lessons folder: {error}",
            dir.display()
        )]
    })?;
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(vec![format!(
            "{}: no lesson files (*.toml) here",
            dir.display()
        )]);
    }
    let mut texts = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        match std::fs::read(&path) {
            Ok(bytes) => texts.push((path, Cow::Owned(bytes))),
            Err(error) => {
                problems.push(format!("{}: cannot read the file: {error}", path.display()))
            }
        }
    }
    Ok((texts, problems))
}

/// Parses lesson files, checks that each id is its file name and that no
/// two share an `order`, and sorts them by `order`.
fn parse_lessons(
    texts: Vec<LessonText>,
    mut problems: Vec<String>,
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
                    problems.push(format!(
                        "{shown}:1:1: the lesson's id `{}` must equal the file name `{stem}`",
                        lesson.id
                    ));
                }
                lessons.push(LessonFile { path, lesson });
            }
            Err(diagnostics) => problems.extend(
                diagnostics
                    .iter()
                    .map(|d| format!("{shown}:{}:{}: {}", d.line, d.col, d.message)),
            ),
        }
    }
    for (index, file) in lessons.iter().enumerate() {
        for other in &lessons[..index] {
            if other.lesson.order == file.lesson.order {
                problems.push(format!(
                    "{}:1:1: `order = {}` is also used by {}",
                    file.path.display(),
                    file.lesson.order,
                    other.path.display()
                ));
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

pub(crate) fn lint_command(source: &LessonSource, lang: Lang) -> ExitCode {
    let lessons = match load_lessons(source) {
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
        for (line, col, message) in check_lessons(&file.lesson) {
            problems.push(format!("{}:{line}:{col}: {message}", file.path.display()));
        }
    }
    let plain: Vec<Lesson> = lessons.iter().map(|f| f.lesson.clone()).collect();
    let table = coverage(&plain);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} lessons, {} exercises, {} scenarios: every scenario ran",
        lessons.len(),
        exercises,
        plain.iter().map(|l| l.scenarios.len()).sum::<usize>()
    );
    let _ = writeln!(out, "\nconcept coverage (taught in · practised in):");
    let mut uncovered = Vec::new();
    for row in &table {
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
                row.taught_in.join(", ")
            },
            if row.practised_in.is_empty() {
                "—".to_owned()
            } else {
                row.practised_in.join(", ")
            },
        );
    }
    for concept in &uncovered {
        problems.push(format!(
            "{source}: concept {concept} is not both taught by a section and practised by a simulator-graded exercise"
        ));
    }
    let code = print_stdout(&out);
    if problems.is_empty() {
        let _ = print_stdout(&format!(
            "\n{}\n",
            style.paint(
                Tone::Good,
                "✓ lint passed: every exercise is solvable and every concept is covered"
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
struct AnswersFile<'a> {
    #[serde(default)]
    learner: Option<String>,
    #[serde(borrow)]
    answers: Vec<&'a serde_json::value::RawValue>,
}

pub(crate) fn grade_command(
    path: &Path,
    source: &LessonSource,
    json_output: bool,
    lang: Lang,
) -> ExitCode {
    let shown = path.display().to_string();
    let text = match std::fs::read(path).map(String::from_utf8) {
        Ok(Ok(text)) => text,
        Ok(Err(_)) => {
            complain(&[format!("{shown}:1:1: the answers file is not valid UTF-8")]);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
        Err(error) => {
            complain(&[format!("{shown}: cannot read the file: {error}")]);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let file: AnswersFile<'_> = match serde_json::from_str(&text) {
        Ok(file) => file,
        Err(error) => {
            complain(&[format!(
                "{shown}:{}:{}: {error}",
                error.line().max(1),
                error.column().max(1)
            )]);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let lessons = match load_lessons(source) {
        Ok(lessons) => lessons,
        Err(problems) => {
            complain(&problems);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let mut problems = Vec::new();
    let mut results = Vec::new();
    for raw in &file.answers {
        let (line, col) = sim_core::line_col(&text, offset_in(&text, raw.get()));
        let at = |message: String| format!("{shown}:{line}:{col}: {message}");
        let value: Value = match serde_json::from_str(raw.get()) {
            Ok(value) => value,
            Err(error) => {
                problems.push(at(error.to_string()));
                continue;
            }
        };
        let lesson_id = value
            .get("lesson")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let exercise_id = value
            .get("exercise")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(lesson) = lessons
            .iter()
            .map(|f| &f.lesson)
            .find(|l| l.id == lesson_id)
        else {
            problems.push(at(format!("unknown lesson `{lesson_id}`")));
            continue;
        };
        let Some(exercise) = lesson.exercise(exercise_id) else {
            problems.push(at(format!(
                "lesson `{lesson_id}` has no exercise `{exercise_id}`"
            )));
            continue;
        };
        let kind = exercise.kind.name();
        let Some(answer_value) = value.get(kind) else {
            problems.push(at(format!("`{lesson_id}/{exercise_id}` is a `{kind}` exercise: the answer needs a `{kind}` key")));
            continue;
        };
        let graded = answer_from_json(lesson, exercise, answer_value)
            .and_then(|answer| grade(lesson, exercise, &answer));
        match graded {
            Ok(result) => {
                results.push((lesson_id.to_owned(), exercise_id.to_owned(), kind, result))
            }
            Err(message) => problems.push(at(format!("`{lesson_id}/{exercise_id}`: {message}"))),
        }
    }
    if !problems.is_empty() {
        complain(&problems);
        return ExitCode::from(EXIT_BAD_INPUT);
    }
    let correct = results.iter().filter(|r| r.3.correct).count();
    if json_output {
        let entries: Vec<Value> = results
            .iter()
            .map(|(lesson, exercise, kind, result)| {
                json!({
                    "lesson": lesson,
                    "exercise": exercise,
                    "kind": kind,
                    "correct": result.correct,
                    "summary": result.summary.get(lang),
                    "items": result.items.iter().map(|item| json!({
                        "index": item.index,
                        "right": item.right,
                        "text": item.text.get(lang),
                    })).collect::<Vec<_>>(),
                    "counterexample": result.counterexample.as_ref().map(|c| sim_core::scenario_to_json(&c.scenario)),
                })
            })
            .collect();
        let object = json!({
            "learner": file.learner,
            "answers": results.len(),
            "correct": correct,
            "results": entries,
        });
        return print_stdout(&(serde_json::to_string_pretty(&object).unwrap_or_default() + "\n"));
    }
    let style = Style::for_stdout();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {correct} of {} answers correct\n",
        file.learner.as_deref().unwrap_or("learner"),
        results.len()
    );
    for (lesson, exercise, kind, result) in &results {
        let mark = if result.correct {
            style.paint(Tone::Good, "✓")
        } else {
            style.paint(Tone::Bad, "✗")
        };
        let _ = writeln!(
            out,
            "{mark} {lesson}/{exercise} ({kind}): {}",
            result.summary.get(lang)
        );
        for item in result.items.iter().filter(|item| !item.right) {
            let label = item.index.map(|i| format!("#{i} ")).unwrap_or_default();
            let _ = writeln!(out, "    ✗ {label}{}", item.text.get(lang));
        }
        if let Some(found) = &result.counterexample {
            let _ = writeln!(out, "    counterexample: {}", found.explanation.get(lang));
        }
    }
    print_stdout(&out)
}
