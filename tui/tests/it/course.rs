//! `fencelab lint` and `fencelab grade` on a fixture lesson.

use std::path::{Path, PathBuf};

use crate::{fencelab, stderr, stdout};

fn fixture_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture.toml");
    let lesson = dir.path().join("fixture.toml");
    std::fs::copy(source, &lesson).unwrap();
    (dir, lesson)
}

#[test]
fn lint_runs_every_check_and_prints_coverage() {
    let (dir, _) = fixture_dir();
    let output = fencelab(&["lint", &dir.path().display().to_string(), "--lang", "en"]);
    let text = stdout(&output);
    assert!(
        text.contains("1 lessons, 5 exercises, 1 scenarios"),
        "{text}"
    );
    assert!(text.contains("✓ C01"), "{text}");
    assert!(text.contains("✗ C03"), "{text}");
    assert_eq!(
        output.status.code(),
        Some(1),
        "uncovered concepts fail lint"
    );
    assert!(stderr(&output).contains("concept C03 is not both taught"));
}

#[test]
fn lint_locates_a_planted_error() {
    let (dir, lesson) = fixture_dir();
    let text = std::fs::read_to_string(&lesson).unwrap_or_default();
    std::fs::write(
        &lesson,
        text.replacen("kind = \"predict\"", "kind = \"predikt\"", 1),
    )
    .unwrap();
    let line = text
        .lines()
        .position(|l| l.contains("kind = \"predict\""))
        .map_or(0, |i| i + 1);
    let output = fencelab(&["lint", &dir.path().display().to_string()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let expected = format!(
        "{}:{line}:8: unknown exercise kind `predikt`; did you mean `predict`?",
        lesson.display()
    );
    assert!(
        stderr(&output).contains(&expected),
        "{}\nexpected {expected}",
        stderr(&output)
    );
}

#[test]
fn the_real_course_passes_lint() {
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lessons");
    let output = fencelab(&["lint", &lessons.display().to_string(), "--lang", "en"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}\n{}",
        stdout(&output),
        stderr(&output)
    );
    assert!(stdout(&output).contains("lint passed"));
    assert!(
        !stdout(&output).contains('✗'),
        "every concept covered:\n{}",
        stdout(&output)
    );
}

#[test]
fn grade_reports_every_answer_computed_by_the_simulator() {
    let (dir, _) = fixture_dir();
    let answers = dir.path().join("answers.json");
    std::fs::write(
        &answers,
        r#"{
  "learner": "Ada",
  "answers": [
    { "lesson": "fixture", "exercise": "mark", "mark": [] },
    { "lesson": "fixture", "exercise": "quiz", "quiz": [1] },
    { "lesson": "fixture", "exercise": "design",
      "design": { "commit_checks": ["owner", "fence", "lease", "state"], "target_protect": ["gateway"] } },
    { "lesson": "fixture", "exercise": "break",
      "break": [ { "at": 0, "worker": "A", "do": "claim" }, { "at": 5, "worker": "B", "do": "claim" },
                 { "at": 5, "worker": "A", "do": "write", "target": "mail" } ] }
  ]
}"#,
    )
    .unwrap();
    let dir_text = dir.path().display().to_string();
    let output = fencelab(&[
        "grade",
        &answers.display().to_string(),
        "--lessons",
        &dir_text,
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_default();
    assert_eq!(report["learner"], "Ada");
    assert_eq!(report["answers"], 4);
    assert_eq!(
        report["correct"], 3,
        "the empty mark misses the stale write: {report:#}"
    );
    assert_eq!(report["results"][0]["correct"], false);
    let table = stdout(&fencelab(&[
        "grade",
        &answers.display().to_string(),
        "--lessons",
        &dir_text,
        "--lang",
        "en",
    ]));
    assert!(table.contains("Ada: 3 of 4 answers correct"), "{table}");
    // The missed step is named, with why it had to be refused.
    assert!(
        table.contains("✗ step") && table.contains("It had to be refused"),
        "{table}"
    );
}

#[test]
fn a_bad_answer_is_located_and_exits_two() {
    let (dir, _) = fixture_dir();
    let answers = dir.path().join("answers.json");
    std::fs::write(
        &answers,
        "{\n  \"answers\": [\n    { \"lesson\": \"fixture\", \"exercise\": \"mark\", \"mark\": [1] },\n    { \"lesson\": \"fixture\", \"exercise\": \"nope\", \"mark\": [1] }\n  ]\n}\n",
    )
    .unwrap();
    let output = fencelab(&[
        "grade",
        &answers.display().to_string(),
        "--lessons",
        &dir.path().display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert_eq!(
        stderr(&output),
        format!(
            "{}:4:5: lesson `fixture` has no exercise `nope`\n",
            answers.display()
        )
    );
    std::fs::write(&answers, "{ \"answers\": [ ").unwrap();
    let output = fencelab(&[
        "grade",
        &answers.display().to_string(),
        "--lessons",
        &dir.path().display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with(&format!("{}:1:", answers.display())));
}

/// The English words left in `text` once identifiers (ids, kinds, design
/// terms) are taken out: none should be.
fn english_words(text: &str, identifiers: &[&str]) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphabetic() && c != '-' && c != '_')
        .filter(|word| word.chars().filter(char::is_ascii_alphabetic).count() >= 3)
        .filter(|word| !identifiers.contains(word))
        .map(str::to_owned)
        .collect()
}

#[test]
fn lint_and_grade_speak_chinese_with_lang_zh() {
    let (dir, _) = fixture_dir();
    let dir_text = dir.path().display().to_string();
    let identifiers = [
        "fixture",
        "mark",
        "quiz",
        "design",
        "break",
        "predict",
        "Ada",
        "fencing",
        "token",
        "owner",
        "fence",
        "lease",
        "state",
        "TTL",
        "Worker",
        "SKIP",
        "LOCKED",
        "PostgreSQL",
        "tmp",
        "json",
        "mail",
    ];
    let output = fencelab(&["lint", &dir_text, "--lang", "zh"]);
    let shown = stdout(&output) + &stderr(&output).replace(&dir_text, "");
    assert_eq!(
        english_words(&shown, &identifiers),
        Vec::<String>::new(),
        "{shown}"
    );
    assert!(shown.contains("个练习"), "{shown}");
    let answers = dir.path().join("answers.json");
    std::fs::write(
        &answers,
        r#"{ "learner": "Ada", "answers": [
            { "lesson": "fixture", "exercise": "mark", "mark": [] },
            { "lesson": "fixture", "exercise": "quiz", "quiz": [1] } ] }"#,
    )
    .unwrap();
    let path = answers.display().to_string();
    let output = fencelab(&["grade", &path, "--lessons", &dir_text, "--lang", "zh"]);
    let shown = stdout(&output);
    assert!(shown.contains("个答案中"), "{shown}");
    assert_eq!(
        english_words(&shown, &identifiers),
        Vec::<String>::new(),
        "{shown}"
    );
    std::fs::write(
        &answers,
        r#"{ "answers": [ { "lesson": "fixture", "exercise": "mark", "mark": [99] } ] }"#,
    )
    .unwrap();
    let output = fencelab(&["grade", &path, "--lessons", &dir_text, "--lang", "zh"]);
    let shown = stderr(&output).replace(&path, "");
    assert!(shown.contains("不存在"), "{shown}");
    assert_eq!(
        english_words(&shown, &identifiers),
        Vec::<String>::new(),
        "{shown}"
    );
}

/// `grade` on `text` as an answers file of the fixture lesson: its exit
/// status and what it printed on stderr, with the file's name as `F`.
fn grade_text(text: &str) -> (Option<i32>, String) {
    let (dir, _) = fixture_dir();
    let answers = dir.path().join("answers.json");
    std::fs::write(&answers, text).unwrap();
    let output = fencelab(&[
        "grade",
        &answers.display().to_string(),
        "--lessons",
        &dir.path().display().to_string(),
    ]);
    let shown = answers.display().to_string();
    (output.status.code(), stderr(&output).replace(&shown, "F"))
}

#[test]
fn answer_files_are_strict_and_say_what_is_wrong() {
    let cases = [
        (
            "{\"answers\": [\n  {\"lesson\": \"fixture\", \"exercise\": \"mark\", \"mark\": [1], \"quiz\": [0]}\n]}",
            "F:2:3: an answer answers one exercise with one key; this one has `mark` and `quiz`\n",
        ),
        (
            "{\"answers\": [\n  {\"lesson\": \"fixture\", \"lesson\": \"fixture\", \"exercise\": \"mark\", \"mark\": [1]}\n]}",
            "F:2:32: duplicate key `lesson`: each key may appear once in an object\n",
        ),
        (
            "{\"answers\": [], \"extra\": 1}",
            "F:1:23: unknown field `extra`, expected `learner` or `answers`\n",
        ),
        (
            "{\"answers\": [\n  {\"lesson\": \"fixture\", \"exercise\": \"mark\", \"mark\": [1], \"note\": 1}\n]}",
            "F:2:3: unknown key `note` in an answer; expected `lesson`, `exercise` and one of `mark`, `predict`, `design`, `break`, `quiz`, `sql`\n",
        ),
        (
            "{\"answers\": [\n  {\"lesson\": \"fixture\", \"exercise\": \"mark\", \"mark\": [2, 2, 2]}\n]}",
            "F:2:3: `fixture/mark`: `mark` lists 2 twice; list each once\n",
        ),
        (
            "{\"answers\": [\n  {\"lesson\": \"fixture\", \"exercise\": \"design\", \"design\": {\"commit_checks\": [\"owner\", \"owner\"]}}\n]}",
            "F:2:3: `fixture/design`: `commit_checks` lists `owner` twice; list each once\n",
        ),
        (
            "[]",
            "F:1:1: an answers file must be one JSON object, `{\"learner\": \"…\", \"answers\": [{\"lesson\": …, \"exercise\": …, \"mark\": …}, …]}` (lessons/README.md); this is a list\n",
        ),
        (
            "\n  \"answers\"",
            "F:2:3: an answers file must be one JSON object, `{\"learner\": \"…\", \"answers\": [{\"lesson\": …, \"exercise\": …, \"mark\": …}, …]}` (lessons/README.md); this is a string\n",
        ),
        (
            "{\"answers\": [5]}",
            "F:1:14: an answer must be an object with `lesson`, `exercise` and one of `mark`, `predict`, `design`, `break`, `quiz`, `sql`; this is a number\n",
        ),
    ];
    for (text, expected) in cases {
        let (code, message) = grade_text(text);
        assert_eq!(code, Some(2), "{text}");
        assert_eq!(message, expected, "{text}");
    }
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let (code, message) = grade_text(
        "\u{feff}{\"answers\": [{\"lesson\": \"fixture\", \"exercise\": \"mark\", \"mark\": []}]}",
    );
    assert_eq!(code, Some(0), "{message}");
}

/// The model's statements for lesson 2's SQL exercise, but a finish that
/// does not check `state`: it fails the cancelled-job case.
fn finish_without_state_check() -> sim_core::sqllab::Statements {
    use sim_core::sqllab::{Slot, model_statements};
    let mut statements = model_statements(&[Slot::Claim, Slot::Renew, Slot::Finish]);
    let finish = statements[&Slot::Finish].replace(" AND state = 'running'", "");
    statements.insert(Slot::Finish, finish);
    statements
}

/// An answers file in `dir` with `statements` as the answer to lesson 2's
/// SQL exercise.
fn sql_answers_file(dir: &Path, statements: &sim_core::sqllab::Statements) -> PathBuf {
    let answers = dir.join("answers.json");
    let answer = serde_json::json!({ "answers": [{
        "lesson": "02-token-in-the-commit",
        "exercise": "sql-claim-renew-finish",
        "sql": statements,
    }]});
    std::fs::write(&answers, answer.to_string()).unwrap();
    answers
}

/// `fencelab grade` runs a `sql` answer's statements on SQLite in the box
/// and grades them per case: the model's own statements pass, the same
/// without the finish's state check fails the cancelled job.
#[test]
fn grade_runs_sql_answers_on_sqlite() {
    use sim_core::sqllab::{Slot, model_statements};
    let right = model_statements(&[Slot::Claim, Slot::Renew, Slot::Finish]);
    let dir = tempfile::tempdir().unwrap();
    for (statements, passes) in [(right, true), (finish_without_state_check(), false)] {
        let answers = sql_answers_file(dir.path(), &statements);
        let output = fencelab(&["grade", &answers.display().to_string(), "--json"]);
        let report: serde_json::Value = serde_json::from_str(&stdout(&output))
            .unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)));
        let text = report.to_string();
        assert_eq!(report["answers"], 1, "{text}");
        assert_eq!(text.contains("\"correct\":true"), passes, "{text}");
        if !passes {
            assert!(text.contains("a cancelled job"), "{text}");
        }
    }
}

/// An answers file that is not an object says what one looks like, in
/// Chinese too (issue 20: `[]` said "invalid length 1, expected struct
/// AnswersFile with 2 elements").
#[test]
fn an_answers_file_that_is_not_an_object_says_what_it_must_be() {
    let (dir, _) = fixture_dir();
    let answers = dir.path().join("answers.json");
    std::fs::write(&answers, "[]").unwrap();
    let path = answers.display().to_string();
    let output = fencelab(&["grade", &path, "--lang", "zh"]);
    assert_eq!(output.status.code(), Some(2));
    let shown = stderr(&output).replace(&path, "F");
    assert!(
        shown.starts_with("F:1:1: 答案文件必须是一个 JSON 对象"),
        "{shown}"
    );
    assert!(shown.contains("这里是列表"), "{shown}");
    assert!(!shown.contains("AnswersFile"), "{shown}");
}

/// The grade report names a `sql` answer's failures by the battery's cases
/// (numbered from 1, with their titles), not as steps (issue 20: "step 7").
#[test]
fn the_grade_report_names_sql_cases() {
    let dir = tempfile::tempdir().unwrap();
    let answers = sql_answers_file(dir.path(), &finish_without_state_check());
    let path = answers.display().to_string();
    for (lang, case, step) in [
        ("en", "    ✗ case 7: a cancelled job: step ", "✗ step "),
        ("zh", "    ✗ 用例 7：已取消的任务：第 ", "✗ 第 5 步：已取消"),
    ] {
        let output = fencelab(&["grade", &path, "--lang", lang]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.lines().any(|line| line.starts_with(case)),
            "{lang}: {text}"
        );
        assert!(!text.contains(step), "{lang}: {text}");
    }
}

/// A lessons folder holds at most 64 lesson files (issue 20: every command
/// has a memory budget, so every input has a bound; the course has 12):
/// one more is refused before any is read, in both languages.
#[test]
fn a_lessons_folder_of_too_many_files_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture.toml");
    let text = std::fs::read_to_string(source).unwrap();
    let write_lessons = |count: usize| {
        for n in 1..=count {
            let lesson = text
                .replacen("id = \"fixture\"", &format!("id = \"l{n:03}\""), 1)
                .replacen("order = 1", &format!("order = {n}"), 1);
            std::fs::write(dir.path().join(format!("l{n:03}.toml")), lesson).unwrap();
        }
    };
    let answers = dir.path().join("answers.json");
    std::fs::write(&answers, r#"{"answers": []}"#).unwrap();
    let grade = |lang: &str| {
        fencelab(&[
            "grade",
            &answers.display().to_string(),
            "--lessons",
            &dir.path().display().to_string(),
            "--lang",
            lang,
        ])
    };
    write_lessons(64);
    let output = grade("en");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    write_lessons(65);
    for (lang, words) in [
        ("en", "more than 64 lesson files"),
        ("zh", "课程文件超过 64 个"),
    ] {
        let output = grade(lang);
        assert_eq!(output.status.code(), Some(2), "{lang}");
        assert!(stderr(&output).contains(words), "{}", stderr(&output));
    }
}

/// A lesson file is at most 256 KiB (seven times the largest lesson): it
/// is held parsed all session, 64 to a folder, within the memory budget.
#[test]
fn a_lesson_over_256_kib_is_refused() {
    let (dir, lesson) = fixture_dir();
    let text = std::fs::read_to_string(&lesson).unwrap();
    let padded = |size: usize| {
        let head = "\n[scenarios.big]\nid = \"big\"\nttl = 5\nworkers = [\"A\"]\nsteps = [\n";
        let step = "{at=0,worker=\"A\",do=\"claim\"},";
        let room = size - text.len() - head.len() - 3;
        format!("{text}{head}{}]\n", step.repeat(room / step.len()))
    };
    let folder = dir.path().display().to_string();
    std::fs::write(&lesson, padded(256 * 1024)).unwrap();
    let output = fencelab(&["lint", &folder]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    std::fs::write(&lesson, padded(257 * 1024)).unwrap();
    let output = fencelab(&["lint", &folder]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("it is larger than the limit of 256 KiB"),
        "{}",
        stderr(&output)
    );
}
