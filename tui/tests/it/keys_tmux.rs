//! The key scheme in a real terminal (tmux at 80×24, as `tmux.rs`): a
//! prediction does not move the cursor by itself (and is said in the
//! outcome's words, never with the ✓ and ✗ of right and wrong), a quiz
//! with a hint open keeps its options on screen, a digit choosing the one
//! shown with that number, and a quiz solved by copying its worked
//! solution is "solved with the solution" on the review, and the first key
//! after a resize acts.

use std::path::Path;
use std::time::Duration;

use sim_core::course::{ExerciseKind, Lesson, Progress, option_order};

use super::tmux::{Tmux, lesson_one, quoted, repo, start_with_progress};

/// The quiz seed of the progress each test starts with, so a quiz's
/// options stand where `option_order` says.
const SEED: u32 = 7;

/// fencelab on the real lessons with a fresh progress folder (holding only
/// the quiz seed [`SEED`]), opened on lesson 1's first exercise of `kind`.
fn open_lesson_one_exercise(kind: &str) -> (Tmux, tempfile::TempDir, Lesson, usize) {
    let lesson = lesson_one();
    let index = lesson
        .exercises
        .iter()
        .position(|e| e.kind.name() == kind)
        .unwrap_or_else(|| panic!("lesson 1 has a {kind} exercise"));
    let (tmux, dir) = start_with_progress(&Progress {
        seed: Some(SEED),
        ..Progress::default()
    });
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
    // The header names the exercise by its title, after its level.
    let heading = format!("· {}", lesson.exercises[index].title(sim_core::Lang::En));
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
        s.contains("Your prediction: took effect")
    });
    // Give a stray automatic move time to happen before looking again.
    std::thread::sleep(Duration::from_millis(300));
    let screen = tmux.screen();
    assert_eq!(
        current_step(&screen).as_deref(),
        Some(asked.as_str()),
        "{screen}"
    );
    assert!(screen.contains("Your prediction: took effect"), "{screen}");
    // Tab is what moves on.
    tmux.send(&["Tab"]);
    let moved = tmux.wait_for("the next asked step", |s| {
        current_step(s).is_some_and(|step| step != asked)
    });
    assert!(!moved.contains("Your prediction: took effect"), "{moved}");
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

/// Lesson 1 as levels, the review screen and "next unfinished", in a real
/// terminal: exercise titles (never ids) on the level, the review listing
/// every exercise, and `n` opening the first one not solved.
#[test]
fn the_review_and_next_unfinished_in_a_real_terminal() {
    let lesson = lesson_one();
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "cd {repo} && {bin} --lessons lessons --data-dir {data}; sleep 60",
        repo = quoted(&repo()),
        data = quoted(&dir.path().join("data")),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for("the course map", |s| s.contains(&lesson.title.en));
    // Lesson 1, its second level: the section and the exercises that
    // practise it, by title, under a path of level markers.
    let levels = lesson.levels();
    let second: Vec<&str> = levels[1]
        .iter()
        .map(|e| lesson.exercises[*e].title(sim_core::Lang::En))
        .collect();
    assert!(!second.is_empty(), "lesson 1's second level has exercises");
    tmux.send(&["Enter", "Right"]);
    let screen = tmux.wait_for("the second level, whole", |s| {
        s.contains("level 2 of") && second.iter().all(|t| s.contains(t)) && s.contains("? help")
    });
    assert!(screen.contains("[◉]"), "{screen}");
    for e in &levels[1] {
        assert!(!screen.contains(&lesson.exercises[*e].id), "{screen}");
    }
    // The review: every exercise of lesson 1 by title, none started.
    tmux.send(&["p"]);
    let first_title = lesson.exercises[levels[1][0]].title(sim_core::Lang::En);
    let screen = tmux.wait_for("the review, whole", |s| {
        s.contains("Your progress") && s.contains("next unfinished:") && s.contains("? help")
    });
    assert!(screen.contains("not started"), "{screen}");
    assert!(
        screen.contains(&format!("next unfinished: {first_title}")),
        "{screen}"
    );
    for exercise in &lesson.exercises {
        assert!(
            screen.contains(exercise.title(sim_core::Lang::En)),
            "{screen}"
        );
    }
    // n opens it, its header naming it.
    tmux.send(&["n"]);
    let screen = tmux.wait_for("the next unfinished exercise", |s| {
        s.contains(&format!(
            "level 2 of {} · {first_title}",
            lesson.sections.len()
        )) && s.contains("? help")
    });
    assert!(!screen.contains("Your progress"), "{screen}");
    tmux.send(&["q"]);
}

/// A quiz answered wrong, its worked solution opened, then its key handed
/// in: the review says "solved with the solution" with the sign `(✓)`,
/// not solved alone. The options' order comes from the quiz seed the
/// progress file is given before the start.
#[test]
fn a_quiz_solved_with_its_solution_says_so_on_the_review() {
    let (tmux, _dir, lesson, index) = open_lesson_one_exercise("quiz");
    let exercise = &lesson.exercises[index];
    let ExerciseKind::Quiz { options, .. } = &exercise.kind else {
        unreachable!("found as a quiz")
    };
    let order = option_order(SEED, &lesson.id, &exercise.id, options.len());
    // The number shown beside an option (from 1), in this learner's order.
    let shown_at = |right: bool| {
        let at = order
            .iter()
            .position(|&o| options[o].correct == right)
            .expect("a right and a wrong option");
        (at + 1).to_string()
    };
    let (right, wrong) = (shown_at(true), shown_at(false));
    let title = exercise.title(sim_core::Lang::En);
    tmux.send(&[wrong.as_str(), "Enter"]);
    tmux.wait_for("the wrong try", |s| s.contains("✗ Not yet"));
    tmux.send(&["s"]);
    let solution = tmux.wait_for("the worked solution", |s| {
        s.contains("The worked solution") && s.contains("✓ true")
    });
    assert!(!solution.contains("✓ Right"), "{solution}");
    assert!(!solution.contains("well done"), "{solution}");
    // The first digit brings the options back, the second chooses.
    tmux.send(&[right.as_str(), right.as_str(), "Enter"]);
    let screen = tmux.wait_for("the key handed in", |s| {
        s.contains("(✓) solved with the solution")
    });
    assert!(!screen.contains("✓ solved ·"), "{screen}");
    tmux.send(&["Escape"]);
    // Back on the lesson before the next key: an Escape and a `p` read
    // together are Alt-p to a terminal.
    let heading = format!("· {title}");
    tmux.wait_for("the lesson again", |s| !s.contains(&heading));
    tmux.send(&["p"]);
    let review = tmux.wait_for("the review, whole", |s| {
        s.contains("Your progress") && s.contains("? help")
    });
    let row = review
        .lines()
        .find(|line| line.contains(title))
        .unwrap_or_else(|| panic!("no row for {title}:\n{review}"));
    assert!(row.contains("(✓)"), "{review}");
    assert!(row.contains("solved with the solution"), "{review}");
    tmux.send(&["q"]);
}

/// Issue 22: the first key after a resize acts once (it was swallowed, and
/// the next one acted twice), `q` too.
#[test]
fn the_first_key_after_a_resize_acts() {
    let lesson = lesson_one();
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "cd {repo} && {bin} --lessons lessons --data-dir {data}; sleep 60",
        repo = quoted(&repo()),
        data = quoted(dir.path()),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    let tmux = Tmux::start(&command);
    let title = lesson.title.en.clone();
    tmux.wait_for("the course map", |s| s.contains(&title));
    tmux.send(&["Enter"]);
    tmux.wait_for("lesson 1's first level", |s| s.contains("level 1 of"));
    let widest = |screen: &str| screen.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    for (step, (width, height)) in [(100, 30), (80, 24)].into_iter().enumerate() {
        tmux.resize(width, height);
        // Drawn at the new size: the header's right end is at the edge.
        tmux.wait_for("the screen at its new size", |s| {
            widest(s) == usize::from(width)
        });
        tmux.send(&["Right"]);
        let level = format!("level {} of", step + 2);
        tmux.wait_for(&level, |s| s.contains(&level));
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            tmux.screen().contains(&level),
            "one key, one step:\n{}",
            tmux.screen()
        );
    }
    tmux.resize(120, 40);
    tmux.wait_for("the screen at 120 columns", |s| widest(s) == 120);
    tmux.send(&["q"]);
    tmux.wait_for("the app gone", |s| !s.contains(&title));
}
