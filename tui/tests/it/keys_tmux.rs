//! The key scheme in a real terminal (tmux at 80×24, as `tmux.rs`): a
//! prediction does not move the cursor by itself, and a quiz with a hint
//! open keeps its options on screen, a digit choosing the one shown with
//! that number.

use std::path::Path;
use std::time::Duration;

use sim_core::course::{ExerciseKind, Lesson};

use super::tmux::{Tmux, lesson_one, quoted, repo};

/// fencelab on the real lessons with a fresh progress folder, opened on
/// lesson 1's first exercise of `kind`.
fn open_lesson_one_exercise(kind: &str) -> (Tmux, tempfile::TempDir, Lesson, usize) {
    let lesson = lesson_one();
    let index = lesson
        .exercises
        .iter()
        .position(|e| e.kind.name() == kind)
        .unwrap_or_else(|| panic!("lesson 1 has a {kind} exercise"));
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "cd {repo} && {bin} --lessons lessons --data-dir {data}; sleep 60",
        repo = quoted(&repo()),
        data = quoted(&dir.path().join("data")),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    let tmux = Tmux::start(&command);
    let title = lesson.title.en.clone();
    tmux.wait_for("the course map", |s| s.contains(&title));
    tmux.send(&["Enter"]);
    for _ in 0..lesson.sections.len() {
        tmux.send(&["Right"]);
    }
    for _ in 0..index {
        tmux.send(&["Down"]);
    }
    tmux.send(&["Enter"]);
    let heading = format!("exercise {} of", index + 1);
    tmux.wait_for("the exercise", |s| s.contains(&heading));
    (tmux, dir, lesson, index)
}

/// The step-panel title's start, "Step N · tick T", on the screen.
fn current_step(screen: &str) -> Option<String> {
    screen.lines().find_map(|line| {
        let from = line.find("Step ")?;
        let rest = &line[from..];
        let tick = rest.find("· tick ")?;
        let end = rest[tick + 7..]
            .find(' ')
            .map_or(rest.len(), |e| tick + 7 + e);
        Some(rest[..end].to_owned())
    })
}

#[test]
fn a_prediction_does_not_move_to_the_next_step_by_itself() {
    let (tmux, _dir, _, _) = open_lesson_one_exercise("predict");
    tmux.send(&["Home", "Tab"]);
    let screen = tmux.wait_for("an asked step", |s| s.contains("your call"));
    let asked = current_step(&screen).unwrap_or_else(|| panic!("no step title:\n{screen}"));
    tmux.send(&["o"]);
    tmux.wait_for("the prediction shown", |s| {
        s.contains("Your prediction: ✓ ok")
    });
    // Give a stray automatic move time to happen before looking again.
    std::thread::sleep(Duration::from_millis(300));
    let screen = tmux.screen();
    assert_eq!(
        current_step(&screen).as_deref(),
        Some(asked.as_str()),
        "{screen}"
    );
    assert!(screen.contains("Your prediction: ✓ ok"), "{screen}");
    // Tab is what moves on.
    tmux.send(&["Tab"]);
    let moved = tmux.wait_for("the next asked step", |s| {
        current_step(s).is_some_and(|step| step != asked)
    });
    assert!(!moved.contains("Your prediction: ✓ ok"), "{moved}");
}

#[test]
fn a_quiz_with_a_hint_open_keeps_its_options() {
    let (tmux, _dir, lesson, index) = open_lesson_one_exercise("quiz");
    let ExerciseKind::Quiz { options, .. } = &lesson.exercises[index].kind else {
        unreachable!("found as a quiz")
    };
    tmux.send(&["h"]);
    // Waits for the whole frame: a capture may land while it is drawn.
    let starts: Vec<String> = options
        .iter()
        .map(|option| option.text.en.chars().take(16).collect())
        .collect();
    tmux.wait_for("the hint and every option", |s| {
        s.contains("Hints · 1 of") && starts.iter().all(|start| s.contains(start))
    });
    tmux.send(&["3"]);
    let screen = tmux.wait_for("option 3 chosen", |s| s.contains("(•) 3."));
    assert!(
        screen.contains("Hints · 1 of"),
        "the hint stays open:\n{screen}"
    );
}
