//! The terminal app's command line: what happens before the terminal is
//! taken over. Bad files are reported as `FILE:LINE:COL: message` with
//! exit status 2 and the screen untouched (no escape codes on stdout).

use std::path::Path;

use crate::{examples_dir, fencelab, stderr, stdout};

#[test]
fn open_reports_a_bad_scenario_with_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "id = \"x\"\nttl = 0\nworkers = [\"A\"]\n").unwrap();
    let shown = file.display().to_string();
    let output = fencelab(&["open", &shown]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!("{shown}:2:7:")),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).is_empty(), "the terminal was not touched");
}

#[test]
fn open_reports_a_bad_scenario_in_the_learners_language() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let progress = sim_core::course::Progress {
        lang: sim_core::Lang::Zh,
        ..Default::default()
    };
    let saved = progress.to_json();
    std::fs::write(data.join("progress.json"), &saved).unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "id = \"x\"\nttl = 5\nworkrs = [\"A\"]\n").unwrap();
    let shown = file.display().to_string();
    let output = fencelab(&["open", &shown, "--data-dir", &data.display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains(&format!(
            "{shown}:3:1: 场景中没有键 `workrs`；你是不是想写 `workers`？"
        )),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(data.join("progress.json")).unwrap(),
        saved,
        "the progress file is only read"
    );
}

#[test]
fn open_reports_a_missing_file() {
    let output = fencelab(&["open", "no-such-file.toml"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no-such-file.toml: cannot read the file"));
}

#[test]
fn the_course_reports_broken_lessons_before_starting() {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture.toml");
    let text = std::fs::read_to_string(source).unwrap();
    let lesson = dir.path().join("fixture.toml");
    std::fs::write(
        &lesson,
        text.replacen("kind = \"predict\"", "kind = \"predikt\"", 1),
    )
    .unwrap();
    let data = dir.path().join("data");
    let output = fencelab(&[
        "--lessons",
        &dir.path().display().to_string(),
        "--data-dir",
        &data.display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let errors = stderr(&output);
    let prefix = format!("{}:", lesson.display());
    assert!(
        errors
            .lines()
            .any(|l| l.starts_with(&prefix) && l.contains("predikt")),
        "{errors}"
    );
    assert!(stdout(&output).is_empty());
    assert!(
        !data.exists(),
        "no progress is touched when the course cannot start"
    );
}

#[test]
fn the_course_needs_a_lessons_folder() {
    let output = fencelab(&["--lessons", "no-such-folder"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .contains("no-such-folder: cannot read the lessons folder: it does not exist")
    );
}

#[test]
fn without_a_terminal_the_app_says_so_instead_of_drawing() {
    let dir = tempfile::tempdir().unwrap();
    let file = examples_dir().join("01-article-stale-finish.toml");
    let output = fencelab(&[
        "open",
        &file.display().to_string(),
        "--data-dir",
        &dir.path().display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("needs a terminal"),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).is_empty());
}
