//! Issue 20: another fencelab holding the data folder's lock (saving, or
//! stopped with Ctrl-Z mid-save) never freezes this one. The test holds
//! the lock itself, as `flock DIR/progress.json.lock sleep 60` would; the
//! real app runs in tmux. Before, `l` (a change, so a save) sat in the
//! kernel's lock wait and `q` did nothing; held at launch, the screen
//! stayed blank.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sim_core::Lang;
use sim_core::course::Progress;

use crate::hangup::{COURSE, Started, assert_gone_within_2s, start};
use crate::shared_progress::{app_on, saved, wait_until};
use crate::tmux::{Tmux, lesson_one};

const WAITING_EN: &str = "Waiting for another fencelab using the same data folder";
const WAITING_ZH: &str = "正在等待另一个使用同一数据文件夹的 fencelab";

/// Holds the folder's advisory lock until dropped, as another instance
/// mid-save does.
fn hold_lock(data: &Path) -> File {
    std::fs::create_dir_all(data).unwrap();
    let file = File::create(data.join("progress.json.lock")).unwrap();
    fs4::FileExt::lock(&file).unwrap();
    file
}

/// Sends `q` and checks that the app ended within 2 s with status 0.
fn quit_within_2s(tmux: &Tmux, status: &Path) {
    let sent = Instant::now();
    tmux.send(&["q"]);
    while !status.exists() {
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "fencelab still runs 2 s after q; the screen shows:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let code = std::fs::read_to_string(status).unwrap();
    assert_eq!(code.trim(), "0", "fencelab's exit status");
}

/// The folder's files whose name contains `part`.
fn files_named(data: &Path, part: &str) -> Vec<PathBuf> {
    std::fs::read_dir(data)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .collect()
}

#[test]
fn with_the_lock_held_elsewhere_l_then_q_ends_within_2s_and_the_language_is_kept() {
    let title = lesson_one().title;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A record with a quiz seed, so the start has nothing to save.
    std::fs::create_dir_all(&data).unwrap();
    let record = Progress {
        seed: Some(1),
        ..Progress::default()
    };
    std::fs::write(data.join("progress.json"), record.to_json()).unwrap();
    let first_status = dir.path().join("first-status");
    let first = app_on(&data, &first_status);
    first.wait_for("the course map", |s| s.contains(&title.en));

    let lock = hold_lock(&data);
    first.send(&["l"]);
    // The switch is drawn at once, and the footer says why it is not saved.
    first.wait_for("the app in Chinese, waiting for the lock", |s| {
        s.contains(&title.zh) && s.contains(WAITING_ZH)
    });
    quit_within_2s(&first, &first_status);
    // Nothing was written half-way: the file is as it was.
    assert_eq!(saved(&data).unwrap().lang, Lang::En);
    assert!(files_named(&data, ".tmp").is_empty());

    // The lock is released; the next start has the language chosen, and
    // writes it into progress.json under the lock.
    drop(lock);
    let second_status = dir.path().join("second-status");
    let second = app_on(&data, &second_status);
    second.wait_for("the next start, in Chinese", |s| s.contains(&title.zh));
    wait_until("the language in progress.json", &second, || {
        saved(&data).is_some_and(|p| p.lang == Lang::Zh) && files_named(&data, "pending").is_empty()
    });
    quit_within_2s(&second, &second_status);
    assert_eq!(saved(&data).unwrap().lang, Lang::Zh);
    assert!(files_named(&data, "tmp").is_empty());
}

#[test]
fn with_the_lock_held_at_launch_the_app_draws_says_it_waits_and_q_ends_it_within_2s() {
    let title = lesson_one().title;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let lock = hold_lock(&data);
    let status = dir.path().join("status");
    let app = app_on(&data, &status);
    app.wait_for("the course map, waiting for the lock", |s| {
        s.contains(&title.en) && s.contains(WAITING_EN)
    });
    quit_within_2s(&app, &status);
    drop(lock);
    // The start's change (its quiz seed) was kept whole beside the file.
    assert!(saved(&data).is_none(), "nothing was written under the lock");
    let pending = files_named(&data, "progress.json.pending-");
    assert_eq!(pending.len(), 1, "{pending:?}");
    assert!(files_named(&data, ".tmp").is_empty());
}

/// How the app is ended while it waits for the lock.
enum End {
    /// tmux's server killed: the terminal closes (SIGHUP, input gone).
    CloseTerminal,
    Sigterm,
}

/// Chinese saved; then, with the lock held elsewhere, back to English and
/// the app ended by `end`: it is gone within 2 s, progress.json is as it
/// was, and the next start has English and writes it into the file.
fn ended_while_waiting_loses_nothing(end: End) {
    let title = lesson_one().title;
    let app = start(COURSE);
    app.tmux.wait_for("the app", |s| s.contains(&title.en));
    app.tmux.send(&["l"]);
    wait_until("Chinese saved", &app.tmux, || {
        saved(&app.data).is_some_and(|p| p.lang == Lang::Zh)
    });
    let lock = hold_lock(&app.data);
    app.tmux.send(&["l"]);
    app.tmux.wait_for("English, waiting for the lock", |s| {
        s.contains(&title.en) && s.contains(WAITING_EN)
    });
    let Started {
        tmux, pid, data, ..
    } = app;
    let _tmux = match end {
        End::CloseTerminal => {
            drop(tmux);
            None
        }
        End::Sigterm => {
            let killed = std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
            Some(tmux)
        }
    };
    assert_gone_within_2s(pid);
    assert_eq!(saved(&data).unwrap().lang, Lang::Zh, "nothing half-way");
    assert_eq!(files_named(&data, "progress.json.pending-").len(), 1);
    assert!(files_named(&data, ".tmp").is_empty());
    drop(lock);
    let status = data.with_file_name("next-status");
    let next = app_on(&data, &status);
    next.wait_for("the next start, in English", |s| s.contains(&title.en));
    wait_until("English in progress.json", &next, || {
        saved(&data).is_some_and(|p| p.lang == Lang::En) && files_named(&data, "pending").is_empty()
    });
    quit_within_2s(&next, &status);
}

#[test]
fn a_closed_terminal_while_waiting_for_the_lock_ends_the_app_and_loses_nothing() {
    ended_while_waiting_loses_nothing(End::CloseTerminal);
}

#[test]
fn sigterm_while_waiting_for_the_lock_ends_the_app_and_loses_nothing() {
    ended_while_waiting_loses_nothing(End::Sigterm);
}
