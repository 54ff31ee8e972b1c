//! Saving the progress off the UI thread, so that another fencelab holding
//! the data folder's lock (saving, or stopped with Ctrl-Z mid-save) never
//! freezes this one.
//!
//! One background thread owns the [`Store`]. The event loop hands it a
//! copy of the progress whenever it changed ([`Saving::turn`], one save at
//! a time) and takes in what each save wrote: another instance's progress,
//! three-way ([`sim_core::course::Progress::merge_since`]). The thread
//! never waits inside the lock call: it tries the lock every
//! [`LOCK_RETRY`] and, held elsewhere for [`SAY_WAITING_AFTER`], tells the
//! app, which says so on its footer until the lock is had. The tidying a
//! start needs the lock for ([`Store::tidy`]) is done there too, so a held
//! lock never keeps the first frame from being drawn.
//!
//! On the way out ([`Saving::finish`]) the thread gets the last progress
//! and tries the lock for [`FINAL_LOCK_WAIT`]; still held, it writes the
//! progress whole to a pending file of its own beside `progress.json`
//! ([`Store::write_pending`]), which the next save or start of any instance
//! merges in under the lock. Nothing is written half-way (every file is
//! written to a temporary one and renamed) and nothing is lost; the app
//! waits for that at most [`EXIT_WAIT`].

use sim_core::words::terminal as words;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use sim_core::Lang;
use sim_core::course::Progress;

use super::model::App;
use super::persist::Store;

/// How often the thread tries a lock held elsewhere. A save holds it for
/// a few milliseconds; this keeps waiting cheap and the wait short.
const LOCK_RETRY: Duration = Duration::from_millis(50);
/// How long the lock is held elsewhere before the app says it waits: an
/// ordinary save of another instance is over well before, so the words do
/// not flash at every overlap.
const SAY_WAITING_AFTER: Duration = Duration::from_millis(300);
/// How long the last save tries the lock before keeping the progress in a
/// pending file instead: long enough for another instance's ordinary save
/// to end, short enough to leave within [`EXIT_WAIT`].
const FINAL_LOCK_WAIT: Duration = Duration::from_millis(500);
/// The longest the app waits for the last save on its way out. The issue
/// asks that quitting end the app within 2 s; the last save takes
/// [`FINAL_LOCK_WAIT`] and a write at worst, this bounds a disk that
/// stalls too.
pub(crate) const EXIT_WAIT: Duration = Duration::from_millis(1500);

/// What the event loop asks of the thread.
enum Request {
    /// Merge this progress into the file (the one save under way).
    Save(Progress),
    /// The app is quitting: save this last progress, or keep it pending.
    /// `applied` counts the saves whose report the app took in, so the
    /// thread knows whether `progress` already saw the last one.
    Finish { progress: Progress, applied: u64 },
}

/// What the thread tells the event loop.
enum Report {
    /// The lock is held elsewhere (true) or was had again (false).
    Waiting(bool),
    /// `sent` was saved; the file now holds `merged`.
    Saved {
        sent: Box<Progress>,
        merged: Box<Progress>,
    },
    /// The save failed, in the system's words.
    Failed(String),
    /// The last save's outcome.
    Finished(Ending),
}

/// How the last save ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Nothing had changed since the last save.
    Nothing,
    /// In `progress.json`.
    Saved,
    /// In this pending file, merged in at the next save or start.
    Pending(PathBuf),
    /// Not saved, in the system's words.
    Failed(String),
}

impl Ending {
    /// What to tell the learner once the terminal is given back, if anything.
    pub(crate) fn farewell(&self, lang: Lang) -> Option<String> {
        match self {
            Ending::Nothing | Ending::Saved => None,
            Ending::Pending(path) => {
                Some(words::farewell_pending(&path.display().to_string(), lang))
            }
            Ending::Failed(error) => Some(words::farewell_not_saved(error, lang)),
        }
    }
}

/// What the footer says while the lock is held elsewhere.
pub(crate) fn waiting_words(lang: Lang) -> &'static str {
    words::WAITING_FOR_OTHER_SAVER.get(lang)
}

/// The event loop's side of the saving thread.
pub(crate) struct Saving {
    requests: Sender<Request>,
    reports: Receiver<Report>,
    /// What the file holds as far as the app knows (loaded, or the last
    /// save's result): what the progress is compared with for a change.
    base: Progress,
    /// The save under way: the copy sent, until its report comes.
    in_flight: bool,
    /// Saves whose report was taken in.
    applied: u64,
    _thread: JoinHandle<()>,
}

impl Saving {
    /// Starts the thread over `store`, already loaded.
    pub(crate) fn start(store: Store) -> Saving {
        let base = store.base().clone();
        let (requests, requests_in) = channel();
        let (reports_out, reports) = channel();
        let thread = std::thread::spawn(move || work(store, &requests_in, &reports_out));
        Saving {
            requests,
            reports,
            base,
            in_flight: false,
            applied: 0,
            _thread: thread,
        }
    }

    /// After every turn of the event loop: takes in what the thread
    /// reported and, when the progress changed and no save is under way,
    /// starts one. Never waits.
    pub(crate) fn turn(&mut self, app: &mut App) {
        while let Ok(report) = self.reports.try_recv() {
            match report {
                Report::Waiting(waiting) => app.progress_wait = waiting,
                Report::Saved { sent, merged } => {
                    // What another instance on the same folder saved shows
                    // here too; what the learner did meanwhile is kept.
                    app.session.merge_progress_since(&sent, &merged);
                    self.base = *merged;
                    self.in_flight = false;
                    self.applied += 1;
                }
                Report::Failed(error) => {
                    self.in_flight = false;
                    app.say(words::progress_save_failed(&error, app.lang()));
                }
                Report::Finished(_) => {}
            }
        }
        if !self.in_flight && *app.session.progress() != self.base {
            let sent = app.session.progress().clone();
            self.in_flight = self.requests.send(Request::Save(sent)).is_ok();
        }
    }

    /// The last save, on the way out: waits for it at most [`EXIT_WAIT`].
    pub(crate) fn finish(self, app: &App) -> Ending {
        let progress = app.session.progress();
        if !self.in_flight && *progress == self.base {
            return Ending::Nothing;
        }
        let finish = Request::Finish {
            progress: progress.clone(),
            applied: self.applied,
        };
        if self.requests.send(finish).is_err() {
            return Ending::Failed("the saving thread ended".to_owned());
        }
        let deadline = Instant::now() + EXIT_WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.reports.recv_timeout(left) {
                Ok(Report::Finished(ending)) => return ending,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Ending::Failed(format!(
                        "the disk did not answer within {} ms",
                        EXIT_WAIT.as_millis()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Ending::Failed("the saving thread ended".to_owned());
                }
            }
        }
    }
}

/// The saving thread: one save at a time, the lock only ever tried.
fn work(store: Store, requests: &Receiver<Request>, reports: &Sender<Report>) {
    let mut worker = Worker {
        store,
        reports,
        tidy: true,
        job: None,
        last_saved: None,
        saves: 0,
        held_since: None,
        said_waiting: false,
    };
    loop {
        // With work to do, the lock is tried again every LOCK_RETRY.
        let request = if worker.tidy || worker.job.is_some() {
            match requests.recv_timeout(LOCK_RETRY) {
                Ok(request) => Some(request),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        } else {
            match requests.recv() {
                Ok(request) => Some(request),
                Err(_) => return,
            }
        };
        match request {
            Some(Request::Save(progress)) => worker.job = Some(progress),
            Some(Request::Finish { progress, applied }) => {
                worker.finish(progress, applied);
                return;
            }
            None => {}
        }
        if worker.tidy || worker.job.is_some() {
            worker.try_lock_and_work();
        }
    }
}

/// What the saving thread keeps between requests.
struct Worker<'a> {
    store: Store,
    reports: &'a Sender<Report>,
    /// The start's tidying, still to do under the lock.
    tidy: bool,
    /// The save asked for and not yet done.
    job: Option<Progress>,
    /// The last save done: what was sent and what was written.
    last_saved: Option<(Progress, Progress)>,
    saves: u64,
    held_since: Option<Instant>,
    said_waiting: bool,
}

impl Worker<'_> {
    /// The last save, of `progress`, which the app made having taken in
    /// `applied` saves' reports.
    fn finish(&mut self, mut progress: Progress, applied: u64) {
        // The app made `progress` before it took in the last save's
        // report: take it in now, as the app would have.
        if applied < self.saves {
            if let Some((sent, merged)) = &self.last_saved {
                progress.merge_since(sent, merged);
            }
        }
        let ending = last_save(&mut self.store, &progress, self.tidy);
        let _ = self.reports.send(Report::Finished(ending));
    }

    /// Tries the lock once: had, the start's tidying and the save asked
    /// for are done under it; held elsewhere long enough, the app is told
    /// that it waits; failing, the save is reported failed.
    fn try_lock_and_work(&mut self) {
        match self.store.try_lock() {
            Ok(Some(lock)) => {
                if self.tidy {
                    self.store.tidy(&lock);
                    self.tidy = false;
                }
                if let Some(sent) = self.job.take() {
                    let report = match self.store.save_locked(&lock, &sent) {
                        Ok(merged) => {
                            self.saves += 1;
                            self.last_saved = Some((sent.clone(), merged.clone()));
                            Report::Saved {
                                sent: Box::new(sent),
                                merged: Box::new(merged),
                            }
                        }
                        Err(error) => Report::Failed(error.to_string()),
                    };
                    let _ = self.reports.send(report);
                }
                drop(lock);
                self.held_since = None;
                if self.said_waiting {
                    self.said_waiting = false;
                    let _ = self.reports.send(Report::Waiting(false));
                }
            }
            Ok(None) => {
                let since = *self.held_since.get_or_insert_with(Instant::now);
                if !self.said_waiting && since.elapsed() >= SAY_WAITING_AFTER {
                    self.said_waiting = true;
                    let _ = self.reports.send(Report::Waiting(true));
                }
            }
            Err(error) => {
                self.tidy = false;
                if self.job.take().is_some() {
                    let _ = self.reports.send(Report::Failed(error.to_string()));
                }
            }
        }
    }
}

/// The last save: under the lock if it can be had within
/// [`FINAL_LOCK_WAIT`], else kept in a pending file.
fn last_save(store: &mut Store, progress: &Progress, tidy: bool) -> Ending {
    if !store.is_writable() {
        return Ending::Nothing;
    }
    if let Ok(Some(lock)) = store.lock_within(FINAL_LOCK_WAIT) {
        if tidy {
            store.tidy(&lock);
        }
        if store.save_locked(&lock, progress).is_ok() {
            return Ending::Saved;
        }
    }
    match store.write_pending(progress) {
        Ok(path) => Ending::Pending(path),
        Err(error) => Ending::Failed(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::app::theme::Theme;

    fn app_on(dir: &std::path::Path) -> (App, Saving) {
        let mut store = Store::new(dir.to_path_buf());
        let loaded = store.load();
        let app = App::course(Vec::new(), loaded.progress, Theme { color: false });
        (app, Saving::start(store))
    }

    fn on_disk(dir: &std::path::Path) -> Option<Progress> {
        let text = std::fs::read_to_string(dir.join(super::super::persist::FILE_NAME)).ok()?;
        Progress::from_json(&text).ok()
    }

    /// Waits until `done` holds (the thread works meanwhile).
    fn until(mut done: impl FnMut() -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done() {
            assert!(Instant::now() < deadline, "waited 20 s");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Turns until `done` holds.
    fn turn_until(saving: &mut Saving, app: &mut App, done: impl Fn(&App) -> bool) {
        until(|| {
            saving.turn(app);
            done(app)
        });
    }

    #[test]
    fn a_held_lock_never_blocks_a_turn_and_the_last_save_is_kept_pending() {
        let dir = tempfile::tempdir().unwrap();
        let holder = Store::new(dir.path().to_path_buf());
        let lock = holder.try_lock().unwrap().unwrap();
        let (mut app, mut saving) = app_on(dir.path());
        app.session.set_lang(Lang::Zh);
        let started = Instant::now();
        saving.turn(&mut app);
        assert!(started.elapsed() < LOCK_RETRY, "a turn never waits");
        turn_until(&mut saving, &mut app, |app| app.progress_wait);
        let started = Instant::now();
        let ending = saving.finish(&app);
        assert!(started.elapsed() < EXIT_WAIT, "{:?}", started.elapsed());
        let Ending::Pending(path) = &ending else {
            panic!("{ending:?}")
        };
        assert!(path.exists());
        assert!(ending.farewell(Lang::En).unwrap().contains("next starts"));
        assert!(ending.farewell(Lang::Zh).unwrap().contains("下次启动"));
        assert!(on_disk(dir.path()).is_none(), "nothing under a held lock");
        drop(lock);
        let (mut app, mut saving) = app_on(dir.path());
        assert_eq!(app.lang(), Lang::Zh, "the next start shows it");
        // Its first save (the start's tidying) writes it into the file.
        app.session.seed_if_missing(1);
        turn_until(&mut saving, &mut app, |_| {
            on_disk(dir.path()).is_some_and(|p| p.lang == Lang::Zh) && !path.exists()
        });
    }

    /// The app quits before it took in the last save's report: the last
    /// progress is taken in as the report would have been, so another
    /// instance's choice the save brought is not overwritten.
    #[test]
    fn the_last_save_takes_in_a_report_the_app_had_not_seen() {
        let dir = tempfile::tempdir().unwrap();
        let (mut app, mut saving) = app_on(dir.path());
        // Another instance ticks a self-check level.
        let mut other = Store::new(dir.path().to_path_buf());
        let mut theirs = other.load().progress;
        theirs.self_check.basic = true;
        other.save(&theirs).unwrap();
        // This one switches language; its save brings the tick.
        app.session.set_lang(Lang::Zh);
        saving.turn(&mut app);
        until(|| on_disk(dir.path()).is_some_and(|p| p.lang == Lang::Zh));
        assert!(!app.session.progress().self_check.basic, "not taken in yet");
        assert_eq!(saving.finish(&app), Ending::Saved);
        let saved = on_disk(dir.path()).unwrap();
        assert!(saved.self_check.basic, "the other's tick");
        assert_eq!(saved.lang, Lang::Zh);
    }

    /// Once a save's report is taken in, the progress is what the file
    /// holds: an idle app starts no more saves, whatever another instance
    /// wrote (choices, unknown keys, last answers, facts).
    #[test]
    fn an_idle_app_saves_nothing_more_after_taking_in_another_s_record() {
        let dir = tempfile::tempdir().unwrap();
        let (mut app, mut saving) = app_on(dir.path());
        let mut other = Store::new(dir.path().to_path_buf());
        let mut theirs = other.load().progress;
        theirs.lang = Lang::Zh;
        theirs.self_check.senior = true;
        theirs.seed = Some(3);
        theirs.position = Some(sim_core::course::Position {
            lesson: "02".to_owned(),
            ..Default::default()
        });
        theirs
            .unknown
            .insert("future".to_owned(), serde_json::json!([1]));
        theirs
            .exercise_mut("02", "quiz")
            .set_last_answer(serde_json::json!([0]));
        theirs
            .lessons
            .entry("02".to_owned())
            .or_default()
            .sections_read = vec![3, 1];
        other.save(&theirs).unwrap();
        app.session.seed_if_missing(9);
        app.session
            .set_self_check(sim_core::course::SelfCheckLevel::Basic, true);
        turn_until(&mut saving, &mut app, |app| app.lang() == Lang::Zh);
        for _ in 0..5 {
            saving.turn(&mut app);
            assert!(!saving.in_flight, "no further save");
        }
        assert_eq!(*app.session.progress(), on_disk(dir.path()).unwrap());
    }
}
