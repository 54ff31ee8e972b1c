//! Two real app processes on one data folder (each in its own tmux): the
//! first completes lesson 1's mark exercise, then the second — started
//! before that, so its own record knows nothing of it — reads a section.
//! The file must end with both: saves merge with what is on disk, under a
//! lock, instead of overwriting it — and the second then shows the first's
//! exercise too.
//!
//! The marks are computed from the engine's oracle at run time.

use std::path::Path;
use std::time::{Duration, Instant};

use sim_core::course::Progress;

use crate::tmux::{Tmux, lesson_one, lesson_one_mark, quoted, repo};

/// The app on `data`, in its own tmux; `status` appears when it has quit.
pub(crate) fn app_on(data: &Path, status: &Path) -> Tmux {
    let command = format!(
        "cd {repo} && {bin} --lessons lessons --data-dir {data}; \
         echo $? > {status}.tmp; mv {status}.tmp {status}; sleep 60",
        repo = quoted(&repo()),
        status = quoted(status),
        data = quoted(data),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    Tmux::start(&command)
}

pub(crate) fn wait_until(what: &str, tmux: &Tmux, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(
            Instant::now() < deadline,
            "waited 20 s for {what}; the screen shows:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The course map header's count of exercises done ("1/12 exercises").
fn exercises_done(screen: &str) -> Option<u32> {
    let line = screen.lines().find(|l| l.contains(" exercises · "))?;
    let before = line.split(" exercises · ").next()?;
    let count = before.split_whitespace().last()?;
    count.split('/').next()?.parse().ok()
}

pub(crate) fn saved(data: &Path) -> Option<Progress> {
    let text = std::fs::read_to_string(data.join("progress.json")).ok()?;
    Progress::from_json(&text).ok()
}

#[test]
fn two_apps_on_one_folder_keep_both_learners_progress() {
    let lesson = lesson_one();
    let (exercise_index, exercise, scenario, steps) = lesson_one_mark(&lesson);
    let trace = sim_core::run(scenario);
    assert!(lesson.sections.len() >= 2, "lesson 1 has two sections");

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let first_status = dir.path().join("first-status");
    let second_status = dir.path().join("second-status");
    let title = lesson.title.en.clone();
    // Both start on a fresh folder and load the same (empty) progress.
    let first = app_on(&data, &first_status);
    first.wait_for("the first app's course map", |s| s.contains(&title));
    let second = app_on(&data, &second_status);
    second.wait_for("the second app's course map", |s| {
        s.contains(&title) && exercises_done(s) == Some(0)
    });

    // The first completes the mark exercise.
    first.send(&["Enter"]);
    for _ in 0..lesson.sections.len() {
        first.send(&["Right"]);
    }
    for _ in 0..exercise_index {
        first.send(&["Down"]);
    }
    first.send(&["Enter", "Home"]);
    for step in &steps {
        first.send(&["Tab"]);
        if trace.should_reject.contains(step) {
            first.send(&["m"]);
        }
    }
    first.send(&["Enter"]);
    wait_until(
        "the first app to save the completed exercise",
        &first,
        || {
            saved(&data)
                .and_then(|p| p.exercise(&lesson.id, &exercise.id).cloned())
                .is_some_and(|e| e.completed)
        },
    );

    // The second, which never saw that, opens lesson 1 and reads its
    // second section.
    second.send(&["Enter", "Right"]);
    wait_until(
        "the second app to save the section it read",
        &second,
        || {
            saved(&data).is_some_and(|p| {
                p.lessons
                    .get(&lesson.id)
                    .is_some_and(|l| l.sections_read.contains(&1))
            })
        },
    );
    // Its save took in the first's progress: back on its course map, the
    // count of exercises done includes the first's.
    second.send(&["Escape"]);
    second.wait_for("the second app to count the first's exercise", |s| {
        exercises_done(s) == Some(1)
    });
    second.send(&["q"]);
    first.send(&["q"]);
    wait_until("the second app to quit", &second, || second_status.exists());
    wait_until("the first app to quit", &first, || first_status.exists());

    let text = std::fs::read_to_string(data.join("progress.json")).unwrap();
    let progress = Progress::from_json(&text).unwrap();
    let record = progress
        .exercise(&lesson.id, &exercise.id)
        .unwrap_or_else(|| panic!("the first app's exercise is lost: {text}"));
    assert!(record.completed, "{text}");
    assert_eq!(record.attempts, 1, "{text}");
    assert!(
        progress.lessons[&lesson.id].sections_read.contains(&1),
        "the second app's section is lost: {text}"
    );
    let leftovers: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains("tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}
