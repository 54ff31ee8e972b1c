//! Issue 20, point 1, in a real terminal: a learner's SQL runs off the UI
//! thread. Before, the statements ran on it: with the CPU statement of the
//! issue submitted, `q`, Esc, SIGTERM and SIGHUP did nothing for 25 s and
//! more, a closed terminal left the process spinning, and the typed
//! statements were not saved. Now the screen says they run, and `q`, a
//! signal or a closed terminal end the app within 2 s with the statements
//! in the progress file as the exercise's last answer.

use sim_core::course::{ExerciseKind, Lesson, Progress};

use crate::hangup::{Started, assert_gone_within_2s, start};
use crate::tmux::{lessons, open_exercise_by_keys};

/// The statement, as lesson 2's claim: each step of it asked
/// SQLite for a megabyte of random bytes (the box now refuses a value that
/// long before SQLite allocates it).
const CPU_CLAIM: &str = "UPDATE jobs SET owner = (SELECT sum(length(randomblob(1000000))) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000) SELECT x FROM c)) WHERE id = :job";
/// A statement that runs its whole time budget (values short enough for
/// the box, but ten million of them), even on the scratch table where the
/// box tries each statement alone: it changes every row, so the
/// subquery runs whatever the parameters.
const SLOW: &str = "UPDATE jobs SET owner = (SELECT sum(length(randomblob(16000))) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 10000000) SELECT x FROM c))";

/// Opens lesson 2's SQL exercise from the course map, types the CPU
/// statement as the claim and the slow one as every other statement, runs
/// them and waits until the screen says they run. Returns the lesson, the
/// exercise's id and the statements typed.
fn submit_the_cpu_statement(app: &Started) -> (Lesson, String, Vec<(String, String)>) {
    let lessons = lessons();
    let (at, lesson) = lessons
        .iter()
        .enumerate()
        .find(|(_, l)| l.id.starts_with("02-"))
        .expect("lesson 02");
    let (index, exercise) = lesson
        .exercises
        .iter()
        .enumerate()
        .find(|(_, e)| matches!(e.kind, ExerciseKind::Sql { .. }))
        .expect("lesson 02 has a sql exercise");
    let ExerciseKind::Sql { slots, .. } = &exercise.kind else {
        unreachable!("found as a sql exercise")
    };
    let tmux = &app.tmux;
    tmux.wait_for("the course map", |s| s.contains(&lessons[0].title.en));
    open_exercise_by_keys(tmux, at, lesson, index);
    tmux.wait_for("the SQL exercise", |s| s.contains("e edits · Enter runs"));
    tmux.send(&["e"]);
    let mut typed = Vec::new();
    for (n, slot) in slots.iter().enumerate() {
        if n > 0 {
            tmux.send(&["Tab"]);
        }
        let text = if n == 0 { CPU_CLAIM } else { SLOW };
        tmux.type_text(text);
        typed.push((slot.name().to_owned(), text.to_owned()));
    }
    tmux.wait_for("the last statement typed", |s| {
        s.contains("typing · Esc stops") && s.contains("10000000) SELECT x FROM c))")
    });
    // Esc alone (an Esc followed at once by a key reads as Alt+key).
    tmux.send(&["Escape"]);
    tmux.wait_for("typing stopped", |s| s.contains("e edits · Enter runs"));
    tmux.send(&["Enter"]);
    tmux.wait_for("the statements running", |s| {
        s.contains("Running your statements on SQLite")
    });
    (lesson.clone(), exercise.id.clone(), typed)
}

/// How a test ends the app while the statements run.
enum End {
    Quit,
    Sigterm,
    /// The pty hangs up (SIGHUP) and the input ends, as when a window closes.
    CloseTerminal,
}

/// Submits the CPU statement, ends the app by `end`, and wants it gone
/// within 2 s with the statements typed as the exercise's last answer in
/// the file, and no try counted.
fn ends_within_2s_with_the_statements_saved(end: End) {
    let app = start("--lessons lessons");
    let (lesson, exercise, typed) = submit_the_cpu_statement(&app);
    let Started {
        tmux,
        pid,
        data,
        _dir,
        ..
    } = app;
    match end {
        End::Quit => tmux.send(&["q"]),
        End::Sigterm => {
            let killed = std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
        }
        End::CloseTerminal => drop(tmux),
    }
    assert_gone_within_2s(pid);
    let saved = std::fs::read_to_string(data.join("progress.json"))
        .unwrap_or_else(|e| panic!("the progress file: {e}"));
    let progress = Progress::from_json(&saved).unwrap();
    let record = progress
        .exercise(&lesson.id, &exercise)
        .unwrap_or_else(|| panic!("no record of {exercise} in {saved}"));
    let last = record
        .last_answer()
        .unwrap_or_else(|| panic!("no last answer in {saved}"));
    for (slot, text) in &typed {
        assert_eq!(last[slot.as_str()], text.as_str(), "{saved}");
    }
    assert_eq!(record.attempts, 0, "nothing was graded: {saved}");
}

#[test]
fn q_ends_the_app_within_2s_while_the_cpu_statement_runs_and_saves_it() {
    ends_within_2s_with_the_statements_saved(End::Quit);
}

#[test]
fn sigterm_ends_the_app_within_2s_while_the_statements_run() {
    ends_within_2s_with_the_statements_saved(End::Sigterm);
}

#[test]
fn a_closed_terminal_ends_the_app_within_2s_while_the_statements_run() {
    ends_within_2s_with_the_statements_saved(End::CloseTerminal);
}
