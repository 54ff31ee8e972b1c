//! The app ends when its terminal does. A closed terminal (tmux's session
//! killed: the pty hangs up, the input ends) or SIGTERM ends the process
//! within 2 s with the progress saved; before, an orphaned app spun in
//! `read(0)` forever and ignored SIGTERM.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sim_core::Lang;
use sim_core::course::Progress;

use crate::tmux::{Tmux, lesson_one, quoted, repo};

/// The app in tmux, started through a shell that writes its pid first and
/// then becomes it (`exec`), so the pid is the app's own.
pub(crate) struct Started {
    pub(crate) tmux: Tmux,
    pub(crate) pid: u32,
    pub(crate) data: PathBuf,
    pub(crate) status: PathBuf,
    pub(crate) _dir: tempfile::TempDir,
}

pub(crate) fn start(args: &str) -> Started {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let pidfile = dir.path().join("pid");
    let status = dir.path().join("status");
    // The outer shell waits for the app and records its exit status (when
    // a terminal is still there to keep the shell alive).
    let command = format!(
        "cd {repo} && sh -c 'echo $$ > {pidfile}.tmp; mv {pidfile}.tmp {pidfile}; exec \"$0\" {args} --data-dir \"$1\"' {bin} {data}; \
         echo $? > {status}.tmp; mv {status}.tmp {status}; sleep 60",
        repo = quoted(&repo()),
        pidfile = quoted(&pidfile),
        status = quoted(&status),
        data = quoted(&data),
        bin = quoted(Path::new(env!("CARGO_BIN_EXE_fencelab"))),
    );
    let tmux = Tmux::start(&command);
    let deadline = Instant::now() + Duration::from_secs(20);
    let pid = loop {
        if let Ok(text) = std::fs::read_to_string(&pidfile) {
            break text.trim().parse::<u32>().unwrap();
        }
        assert!(Instant::now() < deadline, "no pid file");
        std::thread::sleep(Duration::from_millis(20));
    };
    Started {
        tmux,
        pid,
        data,
        status,
        _dir: dir,
    }
}

/// Whether `pid` still runs (a zombie nobody reaped has ended).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

pub(crate) fn assert_gone_within_2s(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(2);
    while running(pid) {
        if Instant::now() >= deadline {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // Do not leave a spinning process behind a failed test.
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("fencelab (pid {pid}) still runs 2 s later: {stat}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Opens the course, switches it to Chinese (a change that is saved) and
/// waits until the screen shows it.
fn switch_to_chinese(app: &Started) {
    switch_to_chinese_seeing(app, &lesson_one().title);
}

/// [`switch_to_chinese`] on a screen that shows `title`.
fn switch_to_chinese_seeing(app: &Started, title: &sim_core::Text) {
    app.tmux.wait_for("the app", |s| s.contains(&title.en));
    app.tmux.send(&["l"]);
    app.tmux
        .wait_for("the app in Chinese", |s| s.contains(&title.zh));
}

pub(crate) const COURSE: &str = "--lessons lessons";

fn saved_lang(data: &Path) -> Lang {
    let saved = std::fs::read_to_string(data.join("progress.json"))
        .unwrap_or_else(|e| panic!("the progress file: {e}"));
    Progress::from_json(&saved).unwrap().lang
}

#[test]
fn the_app_ends_when_its_terminal_is_closed_and_keeps_the_last_change() {
    let app = start(COURSE);
    switch_to_chinese(&app);
    // Killing the tmux server closes the app's terminal, as closing a
    // window or losing an ssh connection does.
    let Started {
        tmux,
        pid,
        data,
        _dir,
        ..
    } = app;
    drop(tmux);
    assert_gone_within_2s(pid);
    assert_eq!(saved_lang(&data), Lang::Zh);
}

#[test]
fn sigterm_ends_the_app_with_the_terminal_given_back() {
    let app = start(COURSE);
    switch_to_chinese(&app);
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &app.pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert_gone_within_2s(app.pid);
    let deadline = Instant::now() + Duration::from_secs(5);
    while !app.status.exists() {
        assert!(Instant::now() < deadline, "no exit status");
        std::thread::sleep(Duration::from_millis(20));
    }
    let code = std::fs::read_to_string(&app.status).unwrap();
    assert_eq!(code.trim(), "143", "128 + SIGTERM");
    assert_eq!(saved_lang(&app.data), Lang::Zh);
    // The main screen is back: the app's frame is gone from the pane.
    let screen = app.tmux.screen();
    assert!(!screen.contains(&lesson_one().title.zh), "{screen}");
}

#[test]
fn open_ends_when_its_terminal_is_closed_and_keeps_the_last_change() {
    let file = "examples/01-article-stale-finish.toml";
    let scenario = sim_core::parse_scenario(&std::fs::read(repo().join(file)).unwrap()).unwrap();
    let app = start(&format!("open {file}"));
    switch_to_chinese_seeing(&app, &scenario.title);
    let Started {
        tmux,
        pid,
        data,
        _dir,
        ..
    } = app;
    drop(tmux);
    assert_gone_within_2s(pid);
    assert_eq!(saved_lang(&data), Lang::Zh);
}
