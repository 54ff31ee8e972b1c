//! The real binary in a real terminal: tmux runs `fencelab` at 80×24, the
//! test types as a learner would (`send-keys`) and reads the screen
//! (`capture-pane`). It opens lesson 1, completes its mark exercise, quits,
//! and checks the progress file and that the terminal settings (`stty -a`)
//! are what they were before the app started.
//!
//! The marks are computed from the engine's oracle at run time, never
//! written here. tmux is required: `.ci/run` installs it when missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sim_core::Scenario;
use sim_core::course::{Exercise, ExerciseKind, Lesson, Progress, mark_candidates, parse_lesson};

/// A tmux server of its own (`-L`), killed when the test ends, pass or fail.
pub(crate) struct Tmux {
    socket: String,
}

impl Tmux {
    pub(crate) fn start(command: &str) -> Tmux {
        // One server per test, also when several run in this process.
        static SERVERS: AtomicUsize = AtomicUsize::new(0);
        let socket = format!(
            "fencelab-test-{}-{}",
            std::process::id(),
            SERVERS.fetch_add(1, Ordering::Relaxed)
        );
        let tmux = Tmux { socket };
        let output = tmux.run(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "main",
            command,
        ]);
        assert!(
            output.status.success(),
            "tmux new-session failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            .output();
        match output {
            Ok(output) => output,
            Err(error) => panic!(
                "cannot run tmux ({error}): install it (`apt-get install -y tmux`); .ci/run does"
            ),
        }
    }

    /// Types `keys` (tmux key names: `Enter`, `Right`, `Tab`, `m`, …).
    pub(crate) fn send(&self, keys: &[&str]) {
        for key in keys {
            let output = self.run(&["send-keys", "-t", "main", key]);
            assert!(output.status.success(), "send-keys {key}");
        }
    }

    /// Types `text` as it is (`send-keys -l`: no key names).
    pub(crate) fn type_text(&self, text: &str) {
        let output = self.run(&["send-keys", "-t", "main", "-l", text]);
        assert!(output.status.success(), "send-keys -l {text}");
    }

    /// Resizes the window, as a learner dragging the terminal's corner.
    pub(crate) fn resize(&self, width: u16, height: u16) {
        let (width, height) = (width.to_string(), height.to_string());
        let output = self.run(&["resize-window", "-t", "main", "-x", &width, "-y", &height]);
        assert!(output.status.success(), "resize-window {width}x{height}");
    }

    pub(crate) fn screen(&self) -> String {
        let output = self.run(&["capture-pane", "-p", "-t", "main"]);
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until `done` holds, showing the last screen if it never does.
    pub(crate) fn wait_for(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        self.wait_within(Duration::from_secs(20), done)
            .unwrap_or_else(|screen| panic!("waited 20 s for {what}; the screen shows:\n{screen}"))
    }

    /// Waits at most `time` until `done` holds: the screen where it does,
    /// or the last screen seen.
    pub(crate) fn wait_within(
        &self,
        time: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = Instant::now() + time;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return Ok(screen);
            }
            if Instant::now() >= deadline {
                return Err(screen);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

pub(crate) fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every lesson of `lessons/`, in course order.
pub(crate) fn lessons() -> Vec<Lesson> {
    let dir = repo().join("lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut lessons: Vec<Lesson> = files
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            parse_lesson(&bytes).unwrap_or_else(|e| panic!("{}: {e:?}", p.display()))
        })
        .collect();
    lessons.sort_by_key(|l| l.order);
    lessons
}

pub(crate) fn lesson_one() -> Lesson {
    lessons()
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no lessons in {}", repo().join("lessons").display()))
}

/// Lesson 1's mark exercise: its place in the lesson, the exercise, its
/// scenario and the steps a learner may mark (computed, never written down).
pub(crate) fn lesson_one_mark(lesson: &Lesson) -> (usize, &Exercise, &Scenario, Vec<u32>) {
    let (index, exercise) = lesson
        .exercises
        .iter()
        .enumerate()
        .find(|(_, e)| matches!(e.kind, ExerciseKind::Mark { .. }))
        .expect("lesson 1 has a mark exercise");
    let ExerciseKind::Mark {
        scenario,
        candidates,
    } = &exercise.kind
    else {
        unreachable!("found as a mark exercise")
    };
    let scenario = lesson
        .scenario(*scenario)
        .expect("the mark exercise's scenario");
    let steps = mark_candidates(scenario, candidates);
    (index, exercise, scenario, steps)
}

/// fencelab on the lessons of `lessons/` at 80×24, its data folder (in
/// the temporary folder returned) holding `progress` as the learner's
/// record.
pub(crate) fn start_with_progress(progress: &Progress) -> (Tmux, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("progress.json"), progress.to_json()).unwrap();
    let command = format!(
        "cd {repo} && {bin} --lessons lessons --data-dir {data}; sleep 60",
        repo = quoted(&repo()),
        data = quoted(&data),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    (Tmux::start(&command), dir)
}

/// From the course map of a fresh course (lesson 1 chosen) to exercise
/// `index` of `lesson`, the map's row `row`, as a learner goes: the
/// lesson's row, Enter, → to the exercise's level, Tab to it in the
/// level's list, Enter.
pub(crate) fn open_exercise_by_keys(tmux: &Tmux, row: usize, lesson: &Lesson, index: usize) {
    let level = lesson.level_of(index);
    let place = lesson.levels()[level]
        .iter()
        .position(|e| *e == index)
        .expect("the exercise is on its level");
    for _ in 0..row {
        tmux.send(&["Down"]);
    }
    tmux.send(&["Enter"]);
    for _ in 0..level {
        tmux.send(&["Right"]);
    }
    for _ in 0..place {
        tmux.send(&["Tab"]);
    }
    tmux.send(&["Enter"]);
}

/// A path quoted for `sh -c`.
pub(crate) fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

#[test]
fn a_learner_completes_lesson_one_mark_exercise_in_a_real_terminal() {
    let lesson = lesson_one();
    let (exercise_index, exercise, scenario, steps) = lesson_one_mark(&lesson);
    let trace = sim_core::run(scenario);
    assert!(
        steps.iter().any(|s| trace.should_reject.contains(s)),
        "the exercise has a step to reject"
    );

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let before = dir.path().join("stty-before");
    let after = dir.path().join("stty-after");
    let status = dir.path().join("status");
    // The shell records the terminal settings around the app, then its
    // exit status; the status file appearing says the app has quit.
    let command = format!(
        "cd {repo} && stty -a > {before} && {bin} --lessons lessons --data-dir {data}; \
         code=$?; stty -a > {after}; echo $code > {status}.tmp; mv {status}.tmp {status}; sleep 60",
        repo = quoted(&repo()),
        before = quoted(&before),
        after = quoted(&after),
        status = quoted(&status),
        data = quoted(&data),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    let tmux = Tmux::start(&command);

    let title = lesson.title.en.clone();
    tmux.wait_for("the course map", |s| s.contains(&title));
    // Lesson 1 is what is next on a fresh course: open it, go past its
    // sections to the exercises page, choose the mark exercise.
    tmux.send(&["Enter"]);
    for _ in 0..lesson.sections.len() {
        tmux.send(&["Right"]);
    }
    for _ in 0..exercise_index {
        tmux.send(&["Down"]);
    }
    tmux.send(&["Enter", "Home"]);
    // Tab walks the candidate steps in order; mark those the oracle says
    // must be rejected, then submit.
    for step in &steps {
        tmux.send(&["Tab"]);
        if trace.should_reject.contains(step) {
            tmux.send(&["m"]);
        }
    }
    tmux.send(&["Enter"]);
    // The header shows the session's standing.
    tmux.wait_for("the exercise graded complete", |s| s.contains("✓ solved"));
    tmux.send(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !status.exists() {
        assert!(
            Instant::now() < deadline,
            "fencelab did not quit; the screen shows:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let code = std::fs::read_to_string(&status).unwrap();
    assert_eq!(code.trim(), "0", "fencelab's exit status");

    let saved = std::fs::read_to_string(data.join("progress.json"))
        .unwrap_or_else(|e| panic!("the progress file: {e}"));
    let progress = Progress::from_json(&saved).unwrap();
    let record = progress
        .exercise(&lesson.id, &exercise.id)
        .unwrap_or_else(|| panic!("no record of the exercise in {saved}"));
    assert!(record.completed, "{saved}");
    assert_eq!(record.attempts, 1);

    let before = std::fs::read_to_string(&before).unwrap();
    let after = std::fs::read_to_string(&after).unwrap();
    assert!(before.contains("icanon") && before.contains("echo"));
    assert_eq!(before, after, "the terminal settings are restored");
    // The main screen is back: the app's frame is gone from the pane.
    let screen = tmux.screen();
    assert!(!screen.contains(&title), "{screen}");
}

/// Issue 15: at 80×24 the timeline labels every tick that holds a step
/// (two-digit ticks and several steps in one tick included) and keeps a
/// legend line under it.
#[test]
fn the_timeline_labels_every_tick_with_a_step_and_keeps_a_legend_line() {
    let file = "examples/05-highest-seen-gap.toml";
    let scenario = sim_core::parse_scenario(&std::fs::read(repo().join(file)).unwrap()).unwrap();
    assert!(
        scenario.steps.iter().any(|s| s.at >= 10),
        "the example has two-digit ticks"
    );
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "cd {repo} && {bin} open {file} --data-dir {data}; sleep 60",
        repo = quoted(&repo()),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
        data = quoted(&dir.path().join("data")),
    );
    let tmux = Tmux::start(&command);
    // The whole frame: the axis, the legend line and the footer's last key.
    let screen = tmux.wait_for("the timeline with its legend", |s| {
        s.lines().any(|l| l.starts_with("tick "))
            && s.contains("took effect")
            && s.contains("q quit")
    });
    let lines: Vec<&str> = screen.lines().collect();
    let axis = lines.iter().position(|l| l.starts_with("tick ")).unwrap();
    let labels: Vec<u64> = lines[axis]
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    for step in &scenario.steps {
        assert!(
            labels.contains(&step.at),
            "tick {} holds a step but has no label:\n{screen}",
            step.at
        );
    }
    // The legend line sits right under the lanes, before the step's line.
    let legend = lines
        .iter()
        .position(|l| l.contains("took effect") && l.contains("claim"))
        .unwrap_or_else(|| panic!("no legend line:\n{screen}"));
    assert!(legend > axis, "{screen}");
    assert!(
        lines[legend + 1].contains("Step 0 · tick 0"),
        "the step line follows the legend:\n{screen}"
    );
}
