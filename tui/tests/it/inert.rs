//! Text from a file never reaches the terminal as control characters:
//! a scenario title that would set the terminal's title and clear the
//! screen, or a learner's name holding ESC and BEL, is printed with
//! visible pictures (`␛`, `␇`) instead.

use std::path::Path;

use crate::{example, fencelab, stderr};

const HOSTILE: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2J";

fn assert_inert(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        !bytes.iter().any(|&b| b == 0x1b || b == 0x07),
        "an ESC or BEL byte was printed:\n{text:?}"
    );
    assert!(text.contains("␛]0;PWNED␇␛[2J"), "{text}");
}

#[test]
fn run_prints_a_hostile_title_description_and_note_as_pictures() {
    let source = std::fs::read_to_string(example("01-article-stale-finish.toml")).unwrap();
    let escaped = HOSTILE
        .replace('\u{1b}', "\\u001b")
        .replace('\u{7}', "\\u0007");
    let source = source
        .replace(
            "en = \"Stale finish after takeover\"",
            &format!("en = \"Stale {escaped}\""),
        )
        .replace(
            "en = \"A claims the job",
            &format!("en = \"{escaped} A claims the job"),
        )
        .replace("en = \"A wakes up", &format!("en = \"{escaped} A wakes up"));
    assert_eq!(source.matches("PWNED").count(), 3, "the example changed");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("evil.toml");
    std::fs::write(&file, source).unwrap();
    let output = fencelab(&["run", &file.display().to_string(), "--lang", "en"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_inert(&output.stdout);
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.matches("PWNED").count(), 3, "{text}");
}

#[test]
fn grade_prints_a_hostile_learner_name_as_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture.toml");
    std::fs::copy(fixture, dir.path().join("fixture.toml")).unwrap();
    let answers = dir.path().join("answers.json");
    let learner = serde_json::to_string(&format!("Ada{HOSTILE}")).unwrap();
    std::fs::write(
        &answers,
        format!(
            r#"{{ "learner": {learner}, "answers": [
                {{ "lesson": "fixture", "exercise": "quiz", "quiz": [1] }} ] }}"#
        ),
    )
    .unwrap();
    let output = fencelab(&[
        "grade",
        &answers.display().to_string(),
        "--lessons",
        &dir.path().display().to_string(),
        "--lang",
        "en",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_inert(&output.stdout);
}
