//! Files fencelab must refuse without reading them whole or blocking on
//! them: a device, a FIFO with no writer, a directory, a file over the
//! limit of its kind. Each command says which it was and exits 2.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::stderr;

/// Runs fencelab with `args`, killing it (and failing) if it has not
/// ended within a few seconds: a FIFO must not block it, /dev/zero must not
/// keep it reading.
fn fencelab_within_seconds(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fencelab"))
        .args(args)
        .env_remove("NO_COLOR")
        .env("LANG", "C")
        .env("HOME", crate::test_home())
        .env("XDG_DATA_HOME", crate::test_home().join("data"))
        .env("XDG_CONFIG_HOME", crate::test_home().join("config"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start fencelab");
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().expect("wait for fencelab").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fencelab {args:?} did not end within 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("collect fencelab's output")
}

/// Each command that reads a file named on the command line.
fn commands(path: &str) -> [Vec<&str>; 3] {
    [
        vec!["run", path],
        vec!["grade", path],
        vec!["explore", "--design", path],
    ]
}

fn assert_refused(path: &Path, expected: &str) {
    let shown = path.display().to_string();
    for args in commands(&shown) {
        let output = fencelab_within_seconds(&args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        // `explore` names itself first, as for all its errors.
        let message = stderr(&output);
        let line = format!("{shown}: cannot read the file: {expected}\n");
        assert!(
            message == line || message == format!("fencelab explore: {line}"),
            "{args:?}: {message}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_device_is_refused_unread() {
    assert_refused(
        Path::new("/dev/zero"),
        "it is not a regular file (a FIFO, device or socket)",
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_with_no_writer_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("scenario.toml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    assert_refused(&fifo, "it is not a regular file (a FIFO, device or socket)");
}

#[test]
fn a_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(dir.path(), "it is a directory");
}

#[test]
fn a_file_over_its_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.toml");
    // Over every kind's limit (the largest is a few MiB); spaces, so that
    // only the size can be the reason.
    std::fs::write(&big, vec![b' '; 5 * 1024 * 1024]).unwrap();
    let shown = big.display().to_string();
    for args in commands(&shown) {
        let output = fencelab_within_seconds(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = stderr(&output);
        assert!(
            message
                .trim_start_matches("fencelab explore: ")
                .starts_with(&format!(
                    "{shown}: cannot read the file: it is larger than the limit of "
                )),
            "{args:?}: {message}"
        );
    }
}

#[test]
fn a_missing_file_says_so() {
    let output = fencelab_within_seconds(&["run", "/nonexistent/scenario.toml"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "/nonexistent/scenario.toml: cannot read the file: it does not exist\n"
    );
}

#[test]
fn a_missing_folder_is_said_so_in_the_same_words_everywhere() {
    let missing = tempfile::tempdir().unwrap().path().join("gone");
    let missing = missing.to_str().unwrap();
    for (args, said) in [
        (
            vec!["web", "--port", "0", "--dir", missing],
            "cannot read the page's folder: it does not exist",
        ),
        (
            vec!["lint", missing],
            "cannot read the lessons folder: it does not exist",
        ),
    ] {
        let output = fencelab_within_seconds(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(said),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_bad_answers_file_says_what_is_wrong_in_either_language() {
    let dir = tempfile::tempdir().unwrap();
    for (text, en, zh) in [
        (
            r#"{"answers": [], "answers": []}"#,
            "1:25: duplicate key `answers`: each key may appear once in an object",
            "1:25: 重复的键 `answers`",
        ),
        (
            r#"{"answers": [], "teacher": 1}"#,
            "1:25: unknown field `teacher`",
            "1:25: 未知的键 `teacher`",
        ),
        (
            r#"{"learner": "x"}"#,
            "missing field `answers`",
            "缺少键 `answers`",
        ),
    ] {
        let path = dir.path().join("answers.json");
        std::fs::write(&path, text).unwrap();
        let path = path.to_str().unwrap();
        for (lang, said) in [("en", en), ("zh", zh)] {
            let output = fencelab_within_seconds(&["grade", path, "--lang", lang]);
            assert_eq!(output.status.code(), Some(2), "{text}");
            let shown = stderr(&output);
            assert!(shown.contains(said), "{text} ({lang}): {shown}");
            assert!(!shown.contains(" at line "), "{shown}");
        }
    }
}
