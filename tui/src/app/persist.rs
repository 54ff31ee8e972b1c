//! The learner's progress on disk: `progress.json` in the user data
//! directory (or `--data-dir`), in the record format sim-core defines
//! ([`Progress::to_json`]).
//!
//! Writes are atomic: a temporary file in the same directory, fsync, rename
//! over the old file, fsync of the directory. A crash mid-write leaves the
//! old file or the new one, never half of one. The temporary files are named
//! `.progress.json.XXXXXX.tmp`; one left by a killed save is removed under
//! the lock once it is had ([`Store::tidy`]; only names of that form, only
//! in the data folder, only when nobody holds the file's own lock; earlier
//! builds' `.tmpXXXXXX` only when empty or begun as a progress record).
//!
//! Several instances may share one data folder. Every save holds an
//! advisory lock (`progress.json.lock`, [`fs4`]) while it re-reads the file,
//! merges this instance's record into it and writes the result. The merge
//! is three-way ([`Progress::merge_since`]) from what this instance last
//! loaded or saved: nothing either instance learned is lost, and a choice
//! (language, self-checks, position) this instance did not make never
//! overwrites one another made. A file that turned unreadable meanwhile
//! (damaged, or written by a newer fencelab) is not overwritten: the save
//! fails and says so.
//!
//! The lock is only ever tried ([`Store::try_lock`], [`Store::lock_within`]),
//! never waited for inside the call, and the app does it off the UI thread
//! (`saver`). When it stays held on the way out, the record is kept whole in
//! a file of its own, `progress.json.pending-<ms>-<pid>-<n>`, with the base
//! it is to be merged from ([`Store::write_pending`]; a unique name needs no
//! lock). Loading shows pending files merged in; the next save or start under
//! the lock merges them into `progress.json` and removes them.
//!
//! A file that cannot be read as progress (truncated, garbage, written by a
//! newer fencelab) is never overwritten and never silently reset: it is moved
//! aside to `progress.json.bad-<n>`, the first free `n`, and the learner is
//! told where it went.

use sim_core::words::terminal as words;
use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sim_core::Lang;
use sim_core::course::{Progress, ProgressError};

/// A message the learner must see and dismiss, said in the app's language
/// when it is drawn (the learner may switch it while the notice is up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Notice {
    /// The progress file could not be read as progress and was moved aside.
    KeptAside {
        why: ProgressError,
        /// The file name it was moved to.
        kept: String,
        dir: String,
    },
    /// The progress file could not be read at all (permissions, I/O).
    Unreadable {
        path: String,
        error: crate::input::ReadError,
    },
    /// The progress file could not be read as progress, nor moved aside.
    NotMovedAside {
        path: String,
        why: ProgressError,
        error: String,
    },
    /// No home directory to keep progress in.
    NoHome,
}

impl Notice {
    pub(crate) fn kept_aside(why: ProgressError, kept: &str, dir: &str) -> Notice {
        Notice::KeptAside {
            why,
            kept: kept.to_owned(),
            dir: dir.to_owned(),
        }
    }

    pub(crate) fn title(&self, lang: Lang) -> &'static str {
        match self {
            Notice::KeptAside { .. } => words::PROGRESS_KEPT_ASIDE.get(lang),
            Notice::Unreadable { .. } | Notice::NotMovedAside { .. } => {
                words::PROGRESS_UNREADABLE.get(lang)
            }
            Notice::NoHome => words::PROGRESS_NOT_SAVED.get(lang),
        }
    }

    /// The notice's paragraphs.
    pub(crate) fn lines(&self, lang: Lang) -> Vec<String> {
        let not_saved = words::PROGRESS_NOT_SAVED_THIS_TIME.get(lang).to_owned();
        match self {
            Notice::KeptAside { why, kept, dir } => vec![
                words::progress_unreadable("progress.json", &why.message(lang), lang),
                words::progress_kept_as(kept, dir, lang),
                words::PROGRESS_STARTS_FRESH.get(lang).to_owned(),
            ],
            Notice::Unreadable { path, error } => vec![
                format!("{}{}", error.line(path, lang), words::FULL_STOP.get(lang)),
                not_saved,
            ],
            Notice::NotMovedAside { path, why, error } => vec![
                words::progress_unreadable(path, &why.message(lang), lang),
                words::progress_not_moved_aside(error, lang),
                not_saved,
            ],
            Notice::NoHome => vec![
                words::PROGRESS_NO_HOME.get(lang).to_owned(),
                words::PROGRESS_CHOOSE_DATA_DIR.get(lang).to_owned(),
            ],
        }
    }
}

/// What loading found.
#[derive(Debug)]
pub(crate) struct Loaded {
    pub(crate) progress: Progress,
    pub(crate) notice: Option<Notice>,
}

/// The progress file of one data directory.
#[derive(Debug)]
pub(crate) struct Store {
    dir: PathBuf,
    /// False when the existing file could not be read or moved aside: then
    /// nothing is written, so it is not overwritten.
    writable: bool,
    /// What this instance last loaded or saved: the base of the three-way
    /// merge ([`Progress::merge_since`]), so that only what the learner
    /// chose here since then overrides the file.
    base: Progress,
}

pub(crate) const FILE_NAME: &str = "progress.json";
/// The file whose advisory lock serialises saves (the progress file itself
/// is replaced by each save, so it cannot carry the lock).
pub(crate) const LOCK_NAME: &str = "progress.json.lock";
/// How a save's temporary file is named: `PREFIX` + random + `SUFFIX`.
const TEMP_PREFIX: &str = ".progress.json.";
const TEMP_SUFFIX: &str = ".tmp";
/// How a save kept aside because the lock was held is named:
/// `PREFIX` + milliseconds since 1970 (13 digits, so names sort by time)
/// + `-` pid + `-` attempt.
pub(crate) const PENDING_PREFIX: &str = "progress.json.pending-";
/// The first key of a pending file, with its format's version.
const PENDING_KEY: &str = "fencelab_pending";
const PENDING_VERSION: u64 = 1;
/// How often a lock held elsewhere is tried again by [`Store::lock_within`].
const LOCK_RETRY: Duration = Duration::from_millis(10);

/// The advisory lock on a data folder's progress, released when dropped
/// (closing the file releases it too, also when the process is killed).
pub(crate) struct ProgressLock(fs::File);

impl Drop for ProgressLock {
    fn drop(&mut self) {
        // Called as fs4's, not std's `File::unlock` (Rust 1.89+ only).
        let _ = fs4::FileExt::unlock(&self.0);
    }
}

/// Whether `name` is one of our save's temporary files.
fn is_our_temp_file(name: &str) -> bool {
    name.len() > TEMP_PREFIX.len() + TEMP_SUFFIX.len()
        && name.starts_with(TEMP_PREFIX)
        && name.ends_with(TEMP_SUFFIX)
}

/// Whether `path` is a temporary file an earlier fencelab's save left: it
/// named them as `tempfile` does by default (`.tmp` and six letters or
/// digits), so the name alone could be anyone's; only an empty file or one
/// that begins as [`Progress::to_json`] writes is taken as ours.
fn is_earlier_temp_file(name: &str, path: &Path) -> bool {
    let Some(random) = name.strip_prefix(".tmp") else {
        return false;
    };
    if random.len() != 6 || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let mut start = Vec::new();
    let Ok(file) = fs::File::open(path) else {
        return false;
    };
    if std::io::Read::read_to_end(&mut std::io::Read::take(file, 64), &mut start).is_err() {
        return false;
    }
    let begins = b"{\n  \"version\": ";
    start.is_empty() || start.starts_with(begins) || begins.starts_with(&start)
}

/// Whether nobody holds `path`'s own lock: a pending save's temporary file
/// is written without the folder's lock, holding its own instead, so a
/// start's tidying leaves a file that is still being written.
fn unheld(path: &Path) -> bool {
    fs::File::open(path).is_ok_and(|file| fs4::FileExt::try_lock(&file).is_ok())
}

/// Why a pending file is not folded in.
enum PendingError {
    /// Written by a newer fencelab: left for it.
    Newer,
    /// Unreadable: kept aside.
    Damaged,
}

/// The base and the record of a pending file.
fn read_pending(path: &Path) -> Result<(Progress, Progress), PendingError> {
    let bytes = crate::input::read_file(path, crate::input::InputKind::PendingProgress)
        .map_err(|_| PendingError::Damaged)?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|_| PendingError::Damaged)?;
    match value.get(PENDING_KEY).and_then(serde_json::Value::as_u64) {
        Some(PENDING_VERSION) => {}
        Some(newer) if newer > PENDING_VERSION => return Err(PendingError::Newer),
        _ => return Err(PendingError::Damaged),
    }
    let record = |key: &str| match value.get(key) {
        Some(record) => Progress::from_json(&record.to_string()).map_err(|why| match why {
            ProgressError::Newer(_) => PendingError::Newer,
            ProgressError::Corrupt(_) => PendingError::Damaged,
        }),
        None => Err(PendingError::Damaged),
    };
    Ok((record("base")?, record("progress")?))
}

impl Store {
    pub(crate) fn new(dir: PathBuf) -> Store {
        Store {
            dir,
            writable: true,
            base: Progress::default(),
        }
    }

    /// The user data directory (`directories`), e.g.
    /// `~/.local/share/fencelab` on Linux.
    pub(crate) fn default_dir() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "fencelab").map(|d| d.data_dir().to_path_buf())
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    pub(crate) fn is_writable(&self) -> bool {
        self.writable
    }

    /// What this instance last loaded or saved.
    pub(crate) fn base(&self) -> &Progress {
        &self.base
    }

    /// The language of the saved progress (pending saves included);
    /// English when there is none or it cannot be read. Reads only:
    /// [`Store::load`] deals with a damaged file.
    pub(crate) fn saved_lang(&self) -> sim_core::Lang {
        let saved = match self.read_current() {
            Ok(Some(Ok(progress))) => progress,
            Ok(None) => Progress::default(),
            _ => return sim_core::Lang::En,
        };
        self.fold_pending(saved, false).0.lang
    }

    /// Takes the folder's advisory lock if nobody holds it; `None` when
    /// another instance does. Never waits: the app tries again later.
    pub(crate) fn try_lock(&self) -> io::Result<Option<ProgressLock>> {
        fs::create_dir_all(&self.dir)?;
        let mut options = fs::OpenOptions::new();
        options.create(true).truncate(false).write(true);
        // A lock file swapped for a FIFO would block the open; this fails
        // instead.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut options,
            i32::try_from(rustix::fs::OFlags::NONBLOCK.bits()).unwrap_or(0),
        );
        let file = options.open(self.dir.join(LOCK_NAME))?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(Some(ProgressLock(file))),
            Err(fs4::TryLockError::WouldBlock) => Ok(None),
            Err(fs4::TryLockError::Error(error)) => Err(error),
        }
    }

    /// Takes the lock, trying again until `wait` has passed; `None` when
    /// another instance held it all that time.
    pub(crate) fn lock_within(&self, wait: Duration) -> io::Result<Option<ProgressLock>> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(lock) = self.try_lock()? {
                return Ok(Some(lock));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(None);
            }
            std::thread::sleep(LOCK_RETRY.min(left));
        }
    }

    /// What needs the lock once at start, done when it is first had:
    /// removes temporary files that a killed save left (only those nobody
    /// is writing), and folds the saves other instances kept aside while
    /// the lock was held into the progress file. Best effort: what cannot
    /// be removed or read stays, harmlessly.
    pub(crate) fn tidy(&self, _lock: &ProgressLock) {
        if !self.writable || !self.dir.is_dir() {
            return;
        }
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            // `file_type` does not follow links: a link is never removed.
            if !entry.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let ours = entry.file_name().to_str().is_some_and(|name| {
                is_our_temp_file(name) || is_earlier_temp_file(name, &entry.path())
            });
            if ours && unheld(&entry.path()) {
                let _ = fs::remove_file(entry.path());
            }
        }
        if self.pending_files().is_empty() {
            return;
        }
        let on_disk = match self.read_current() {
            Ok(None) => Progress::default(),
            Ok(Some(Ok(progress))) => progress,
            // Not overwritten; the pending files wait.
            _ => return,
        };
        let (folded, used) = self.fold_pending(on_disk, true);
        if !used.is_empty() && self.write(&folded).is_ok() {
            remove_all(&self.dir, &used);
        }
    }

    /// The pending files in the folder, oldest first.
    fn pending_files(&self) -> Vec<PathBuf> {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
            .filter(|entry| {
                entry
                    .file_name()
                    .to_str()
                    .is_some_and(|name| name.starts_with(PENDING_PREFIX))
            })
            .map(|entry| entry.path())
            .collect();
        found.sort();
        found
    }

    /// `onto` with every pending file's record merged in, oldest first,
    /// each three-way from the base it was kept with; and the files that
    /// were. A damaged one is kept aside when `set_aside` (under the lock).
    fn fold_pending(&self, mut onto: Progress, set_aside: bool) -> (Progress, Vec<PathBuf>) {
        let mut used = Vec::new();
        for path in self.pending_files() {
            match read_pending(&path) {
                Ok((base, mut record)) => {
                    record.merge_since(&base, &onto);
                    onto = record;
                    used.push(path);
                }
                Err(PendingError::Newer) => {}
                Err(PendingError::Damaged) => {
                    if set_aside {
                        let _ = self.set_aside(&path);
                    }
                }
            }
        }
        (onto, used)
    }

    /// The progress file as it is now: `None` when there is none.
    fn read_current(&self) -> io::Result<Option<Result<Progress, ProgressError>>> {
        // The same bounded reader as at start: a file swapped for a FIFO or
        // a huge one while the app runs is refused, not read forever.
        match crate::input::read_file(&self.path(), crate::input::InputKind::Progress) {
            Ok(bytes) => Ok(Some(
                String::from_utf8(bytes)
                    .map_err(|_| ProgressError::Corrupt("it is not UTF-8 text".to_owned()))
                    .and_then(|text| Progress::from_json(&text)),
            )),
            Err(crate::input::ReadError::Missing) => Ok(None),
            Err(error) => Err(io::Error::other(error.to_string())),
        }
    }

    /// Reads the progress, keeping an unreadable file aside, with the saves
    /// other instances kept aside merged in. Takes no lock (each file is
    /// only ever replaced whole), so it never waits: the tidying that needs
    /// the lock is [`Store::tidy`], done later off the UI thread.
    pub(crate) fn load(&mut self) -> Loaded {
        let loaded = self.load_file();
        let (progress, _) = self.fold_pending(loaded.progress, false);
        self.base = progress.clone();
        Loaded {
            progress,
            notice: loaded.notice,
        }
    }

    fn load_file(&mut self) -> Loaded {
        let path = self.path();
        let bytes = match crate::input::read_file(&path, crate::input::InputKind::Progress) {
            Ok(bytes) => bytes,
            Err(crate::input::ReadError::Missing) => {
                return Loaded {
                    progress: Progress::default(),
                    notice: None,
                };
            }
            Err(error) => {
                self.writable = false;
                return Loaded {
                    progress: Progress::default(),
                    notice: Some(Notice::Unreadable {
                        path: path.display().to_string(),
                        error,
                    }),
                };
            }
        };
        let parsed = String::from_utf8(bytes)
            .map_err(|_| ProgressError::Corrupt("it is not UTF-8 text".to_owned()))
            .and_then(|text| Progress::from_json(&text));
        let why = match parsed {
            Ok(progress) => {
                return Loaded {
                    progress,
                    notice: None,
                };
            }
            Err(why) => why,
        };
        let notice = match self.set_aside(&path) {
            Ok(kept) => {
                let name = kept
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                Notice::kept_aside(why, &name, &self.dir.display().to_string())
            }
            Err(error) => {
                self.writable = false;
                Notice::NotMovedAside {
                    path: path.display().to_string(),
                    why,
                    error: error.to_string(),
                }
            }
        };
        Loaded {
            progress: Progress::default(),
            notice: Some(notice),
        }
    }

    /// Moves `from` to `progress.json.bad-<n>`, the first free `n`.
    fn set_aside(&self, from: &Path) -> io::Result<PathBuf> {
        for n in 1..=10_000u32 {
            let kept = self.dir.join(format!("{FILE_NAME}.bad-{n}"));
            match fs::symlink_metadata(&kept) {
                Ok(_) => continue,
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    fs::rename(from, &kept)?;
                    sync_dir(&self.dir);
                    return Ok(kept);
                }
                Err(error) => return Err(error),
            }
        }
        Err(io::Error::other(
            "every name from progress.json.bad-1 to progress.json.bad-10000 is taken",
        ))
    }

    /// Merges `progress` into the file under the folder's lock and writes
    /// the result atomically (temp file, fsync, rename): three-way from
    /// what this instance last loaded or saved, with the saves other
    /// instances kept aside folded in first. Returns what was written, so
    /// the caller can take in another instance's progress.
    pub(crate) fn save_locked(
        &mut self,
        _lock: &ProgressLock,
        progress: &Progress,
    ) -> io::Result<Progress> {
        if !self.writable {
            return Ok(progress.clone());
        }
        let on_disk = match self.read_current()? {
            // Nobody else wrote (or the file was removed): as last known.
            None => self.base.clone(),
            Some(Ok(on_disk)) => on_disk,
            Some(Err(why)) => {
                return Err(io::Error::other(format!(
                    "{} changed and cannot be read now ({why}); it is not overwritten",
                    self.path().display()
                )));
            }
        };
        let (on_disk, used) = self.fold_pending(on_disk, true);
        let mut merged = progress.clone();
        merged.merge_since(&self.base, &on_disk);
        self.write(&merged)?;
        remove_all(&self.dir, &used);
        self.base = merged.clone();
        Ok(merged)
    }

    /// Waits for the lock (a test's two instances), then
    /// [`Store::save_locked`].
    #[cfg(test)]
    pub(crate) fn save(&mut self, progress: &Progress) -> io::Result<Progress> {
        let lock = self
            .lock_within(Duration::from_secs(60))?
            .ok_or_else(|| io::Error::other("the lock stayed held"))?;
        self.save_locked(&lock, progress)
    }

    /// A new temporary file in the folder, named as [`is_our_temp_file`]
    /// knows.
    fn temp_file(&self) -> io::Result<tempfile::NamedTempFile> {
        tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(&self.dir)
    }

    /// Writes `progress` over the file: temp file, fsync, rename, fsync of
    /// the folder.
    fn write(&self, progress: &Progress) -> io::Result<()> {
        let text = readable_text(progress)?;
        let mut file = self.temp_file()?;
        file.write_all(text.as_bytes())?;
        file.write_all(b"\n")?;
        file.as_file().sync_all()?;
        file.persist(self.path()).map_err(|error| error.error)?;
        sync_dir(&self.dir);
        Ok(())
    }

    /// Keeps `progress` beside the progress file without the lock (another
    /// instance holds it), in a file of its own that nobody else names:
    /// `progress.json.pending-…`, with the base it is merged from. Written
    /// whole or not at all (temp file, fsync, rename); the next save or
    /// start under the lock merges it in and removes it.
    pub(crate) fn write_pending(&self, progress: &Progress) -> io::Result<PathBuf> {
        if !self.writable {
            return Err(io::Error::other("the progress file is not written"));
        }
        fs::create_dir_all(&self.dir)?;
        let text = format!(
            "{{\"{PENDING_KEY}\": {PENDING_VERSION},\n\"base\": {},\n\"progress\": {}}}\n",
            readable_text(&self.base)?,
            readable_text(progress)?
        );
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_millis());
        let pid = std::process::id();
        let mut last_error = io::Error::other("no name was free");
        for attempt in 0..8 {
            let mut file = self.temp_file()?;
            // Held until the rename, so that a start's tidying (which
            // removes only unheld temporary files) leaves it; if tidying
            // got to it first, try a new one.
            if fs4::FileExt::try_lock(file.as_file()).is_err() {
                continue;
            }
            file.write_all(text.as_bytes())?;
            file.as_file().sync_all()?;
            let kept = self
                .dir
                .join(format!("{PENDING_PREFIX}{millis:013}-{pid}-{attempt}"));
            match file.persist_noclobber(&kept) {
                Ok(_) => {
                    sync_dir(&self.dir);
                    return Ok(kept);
                }
                Err(error) => last_error = error.error,
            }
        }
        Err(last_error)
    }
}

/// The record's text as the file holds it: pretty, unless that would be
/// longer than a progress file may be read back (a record that was read at
/// the limit grows by its indentation); then on one line; and when even
/// that is too long, not written at all — an error, the file kept as it
/// was, rather than a file the next start would refuse.
fn readable_text(progress: &Progress) -> io::Result<String> {
    let limit = crate::input::InputKind::Progress.limit();
    let pretty = progress.to_json();
    if (pretty.len() as u64) < limit {
        return Ok(pretty);
    }
    let compact = progress.to_json_compact();
    if (compact.len() as u64) < limit {
        return Ok(compact);
    }
    Err(io::Error::other(format!(
        "the progress record is {} bytes, more than the {} a progress file may hold; it is not saved",
        compact.len(),
        crate::input::size_label(limit)
    )))
}

/// Removes `paths` (pending files now in the progress file).
fn remove_all(dir: &Path, paths: &[PathBuf]) {
    for path in paths {
        let _ = fs::remove_file(path);
    }
    sync_dir(dir);
}

/// Makes a rename in `dir` durable (POSIX needs the directory synced too).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn save_then_load_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::new(dir.path().join("nested"));
        let mut progress = Progress {
            lang: sim_core::Lang::Zh,
            ..Progress::default()
        };
        progress.record_attempt("01", "mark", true);
        store.save(&progress).unwrap();
        let mut again = Store::new(dir.path().join("nested"));
        let loaded = again.load();
        assert_eq!(loaded.progress, progress);
        assert!(loaded.notice.is_none());
        let leftovers: Vec<_> = fs::read_dir(dir.path().join("nested"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .filter(|name| name != LOCK_NAME)
            .collect();
        assert_eq!(leftovers, [FILE_NAME], "no temporary file is left behind");
    }

    /// A record many exercises long, as big as `bytes` on one line.
    fn big_record(bytes: usize) -> Progress {
        let mut progress = Progress::default();
        let mut at = 0;
        // Grown in batches sized from what is left, measured once a batch.
        loop {
            let now = progress.to_json_compact().len();
            if now >= bytes {
                return progress;
            }
            for _ in 0..((bytes - now) / 128).max(1) {
                let entry = progress.exercise_mut("01", &format!("exercise-{at:06}"));
                entry.set_last_answer(serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8]));
                at += 1;
            }
        }
    }

    #[test]
    fn a_record_read_at_the_limit_is_saved_so_that_it_reads_back() {
        // Its pretty text is far longer than a progress file may be; the
        // save writes it on one line, and the next start reads it.
        let limit = crate::input::InputKind::Progress.limit() as usize;
        let progress = big_record(limit - 4096);
        assert!(progress.to_json().len() > limit);
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::new(dir.path().to_path_buf());
        store.save(&progress).unwrap();
        let loaded = Store::new(dir.path().to_path_buf()).load();
        assert!(loaded.notice.is_none(), "{:?}", loaded.notice);
        assert_eq!(loaded.progress, progress);
        // One too big even on one line is not written: the file stays.
        let bigger = big_record(limit + 4096);
        let before = fs::read(dir.path().join(FILE_NAME)).unwrap();
        let error = store.save(&bigger).unwrap_err().to_string();
        assert!(error.contains("not saved"), "{error}");
        assert_eq!(fs::read(dir.path().join(FILE_NAME)).unwrap(), before);
    }

    #[test]
    fn missing_file_is_fresh_progress() {
        let dir = tempfile::tempdir().unwrap();
        let loaded = Store::new(dir.path().to_path_buf()).load();
        assert_eq!(loaded.progress, Progress::default());
        assert!(loaded.notice.is_none());
    }

    #[test]
    fn newer_version_is_kept_aside_with_the_first_free_number() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("progress.json.bad-1"), "older garbage").unwrap();
        let newer = r#"{"version": 99, "lang": "en"}"#;
        fs::write(dir.path().join(FILE_NAME), newer).unwrap();
        let mut store = Store::new(dir.path().to_path_buf());
        let loaded = store.load();
        let notice = loaded.notice.unwrap();
        assert!(
            notice
                .lines(Lang::En)
                .join(" ")
                .contains("progress.json.bad-2"),
            "{notice:?}"
        );
        assert!(
            notice.lines(Lang::En).join(" ").contains("version 99"),
            "{notice:?}"
        );
        let zh = notice.lines(Lang::Zh).join(" ");
        assert!(
            zh.contains("progress.json.bad-2") && zh.contains("99"),
            "{zh}"
        );
        assert_ne!(notice.title(Lang::En), notice.title(Lang::Zh));
        assert_eq!(
            fs::read_to_string(dir.path().join("progress.json.bad-2")).unwrap(),
            newer
        );
        assert!(!dir.path().join(FILE_NAME).exists());
        assert!(store.is_writable());
    }

    #[test]
    fn saves_from_two_stores_on_one_folder_merge() {
        let dir = tempfile::tempdir().unwrap();
        let mut first = Store::new(dir.path().to_path_buf());
        let mut second = Store::new(dir.path().to_path_buf());
        let mut first_progress = first.load().progress;
        let mut second_progress = second.load().progress;
        first_progress.record_attempt("01", "mark", true);
        first.save(&first_progress).unwrap();
        second_progress
            .lessons
            .entry("01".to_owned())
            .or_default()
            .sections_read
            .push(1);
        second_progress.lang = Lang::Zh;
        second.save(&second_progress).unwrap();
        let saved = Store::new(dir.path().to_path_buf()).load().progress;
        assert!(saved.exercise("01", "mark").unwrap().completed);
        assert_eq!(saved.lessons["01"].sections_read, [1]);
        assert_eq!(saved.lang, Lang::Zh, "the last saver's language");
    }

    /// Issue 20: a language chosen and a self-check unticked in one
    /// instance survive another instance's unrelated save (before, the
    /// last saver's whole record won, and self-checks were ORed).
    #[test]
    fn a_choice_made_in_one_store_survives_another_store_s_unrelated_save() {
        let dir = tempfile::tempdir().unwrap();
        let mut ticked = Progress::default();
        ticked.self_check.basic = true;
        Store::new(dir.path().to_path_buf()).save(&ticked).unwrap();
        let mut first = Store::new(dir.path().to_path_buf());
        let mut second = Store::new(dir.path().to_path_buf());
        let mut first_progress = first.load().progress;
        let mut second_progress = second.load().progress;
        first_progress.lang = Lang::Zh;
        first_progress.self_check.basic = false;
        first.save(&first_progress).unwrap();
        second_progress.record_attempt("01", "mark", true);
        let merged = second.save(&second_progress).unwrap();
        let saved = Store::new(dir.path().to_path_buf()).load().progress;
        assert_eq!(saved, merged);
        assert_eq!(saved.lang, Lang::Zh, "the first's language");
        assert!(!saved.self_check.basic, "the first's untick");
        assert!(saved.exercise("01", "mark").unwrap().completed);
        // The second changes its mind after that: its choice now wins.
        second_progress = merged;
        second_progress.lang = Lang::En;
        second.save(&second_progress).unwrap();
        assert_eq!(
            Store::new(dir.path().to_path_buf()).load().progress.lang,
            Lang::En
        );
    }

    /// The lock held elsewhere: the save is kept whole in a pending file of
    /// its own, without the lock; the next load shows it, the next save or
    /// start under the lock writes it into the file and removes it.
    #[test]
    fn a_save_kept_pending_while_the_lock_is_held_reaches_the_file_later() {
        let dir = tempfile::tempdir().unwrap();
        let mut holder = Store::new(dir.path().to_path_buf());
        let mut waiter = Store::new(dir.path().to_path_buf());
        let mut holder_progress = holder.load().progress;
        holder.save(&holder_progress).unwrap();
        let mut waiting = waiter.load().progress;
        let lock = holder.try_lock().unwrap().unwrap();
        assert!(waiter.try_lock().unwrap().is_none(), "never waits");
        assert!(
            waiter
                .lock_within(Duration::from_millis(50))
                .unwrap()
                .is_none()
        );
        waiting.lang = Lang::Zh;
        waiting.record_attempt("01", "mark", true);
        let pending = waiter.write_pending(&waiting).unwrap();
        assert!(
            pending
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(PENDING_PREFIX)
        );
        // The next load shows it; the file is as it was.
        let shown = Store::new(dir.path().to_path_buf()).load().progress;
        assert_eq!(shown.lang, Lang::Zh);
        assert!(shown.exercise("01", "mark").unwrap().completed);
        assert!(pending.exists(), "loading removes nothing");
        assert_eq!(read(&dir).lang, Lang::En);
        // The holder's next save (a change of its own) takes it in.
        holder_progress.self_check.senior = true;
        let merged = holder.save_locked(&lock, &holder_progress).unwrap();
        assert!(!pending.exists());
        assert_eq!(read(&dir), merged);
        assert_eq!(merged.lang, Lang::Zh, "the waiter's choice");
        assert!(merged.self_check.senior, "the holder's");
        assert!(merged.exercise("01", "mark").unwrap().completed);

        // Kept pending again; this time the next start's tidying takes it in.
        waiting = merged;
        waiting.self_check.basic = true;
        let mut waiter = Store::new(dir.path().to_path_buf());
        waiter.load();
        let pending = waiter.write_pending(&waiting).unwrap();
        drop(lock);
        let mut next = Store::new(dir.path().to_path_buf());
        let shown = next.load().progress;
        assert!(shown.self_check.basic);
        next.tidy(&next.try_lock().unwrap().unwrap());
        assert!(!pending.exists());
        assert_eq!(read(&dir), shown);
    }

    fn read(dir: &tempfile::TempDir) -> Progress {
        Progress::from_json(&fs::read_to_string(dir.path().join(FILE_NAME)).unwrap()).unwrap()
    }

    /// A pending file's temporary file is written without the folder's
    /// lock, so tidying must leave it while its writer holds it.
    #[test]
    fn tidying_leaves_a_temporary_file_that_is_being_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path().to_path_buf());
        let writing = store.temp_file().unwrap();
        fs4::FileExt::try_lock(writing.as_file()).unwrap();
        store.tidy(&store.try_lock().unwrap().unwrap());
        assert!(writing.path().exists());
        fs4::FileExt::unlock(writing.as_file()).unwrap();
        store.tidy(&store.try_lock().unwrap().unwrap());
        assert!(!writing.path().exists());
    }

    #[test]
    fn concurrent_saves_lose_no_exercise() {
        // Without the lock, one save's read-merge-write interleaves with
        // another's and the later rename drops what the other just wrote.
        let dir = tempfile::tempdir().unwrap();
        let savers: Vec<_> = ["a", "b", "c"]
            .into_iter()
            .map(|who| {
                let dir = dir.path().to_path_buf();
                std::thread::spawn(move || {
                    let mut store = Store::new(dir);
                    let mut progress = Progress::default();
                    for n in 0..50 {
                        progress.record_attempt("01", &format!("{who}{n}"), true);
                        store.save(&progress).unwrap();
                    }
                })
            })
            .collect();
        for saver in savers {
            saver.join().unwrap();
        }
        let saved = Store::new(dir.path().to_path_buf()).load().progress;
        assert_eq!(saved.lessons["01"].exercises.len(), 150);
    }

    #[test]
    fn a_file_that_turned_unreadable_is_not_overwritten_by_a_save() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::new(dir.path().to_path_buf());
        let mut progress = store.load().progress;
        let newer = r#"{"version": 99, "lang": "en"}"#;
        fs::write(dir.path().join(FILE_NAME), newer).unwrap();
        progress.record_attempt("01", "mark", true);
        let error = store.save(&progress).unwrap_err().to_string();
        assert!(error.contains("not overwritten"), "{error}");
        assert_eq!(
            fs::read_to_string(dir.path().join(FILE_NAME)).unwrap(),
            newer
        );
    }

    #[test]
    fn unknown_keys_survive_a_save() {
        let dir = tempfile::tempdir().unwrap();
        let text = r#"{"version": 2, "lang": "en", "lessons": {}, "position": null,
            "self_check": {"basic": false, "intermediate": false, "senior": false},
            "streak": {"days": 3}}"#;
        fs::write(dir.path().join(FILE_NAME), text).unwrap();
        let mut store = Store::new(dir.path().to_path_buf());
        let mut progress = store.load().progress;
        progress.record_attempt("01", "mark", true);
        store.save(&progress).unwrap();
        let saved: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(dir.path().join(FILE_NAME)).unwrap()).unwrap();
        assert_eq!(saved["streak"]["days"], 3, "{saved}");
        assert_eq!(
            saved["lessons"]["01"]["exercises"]["mark"]["completed"],
            true
        );
    }

    #[test]
    fn temporary_files_of_a_killed_save_are_removed_at_start_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        // What a save killed between creating its temporary file and
        // renaming it leaves: a file named as save names them.
        let store = Store::new(dir.path().to_path_buf());
        let killed = store.temp_file().unwrap();
        let (_, stale) = killed.keep().unwrap();
        fs::write(&stale, "{\"version\": 2, \"la").unwrap();
        // What an earlier fencelab's killed save left (its default names):
        // one not yet written, one cut short.
        let earlier = [".tmpAbC123", ".tmp0x9Zq1"];
        fs::write(dir.path().join(earlier[0]), "").unwrap();
        fs::write(
            dir.path().join(earlier[1]),
            &Progress::default().to_json()[..20],
        )
        .unwrap();
        // Files that are not ours stay, also with such a name.
        let others = [
            ".tmpXyZ789",
            ".tmpshort",
            "notes.tmp",
            ".progress.json.tmp",
            "progress.json.bad-1",
        ];
        for name in others {
            fs::write(dir.path().join(name), "keep me").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            dir.path().join("notes.tmp"),
            dir.path().join(".progress.json.link.tmp"),
        )
        .unwrap();
        let mut store = store;
        let loaded = store.load();
        assert!(loaded.notice.is_none());
        // Loading takes no lock and removes nothing; the tidying under the
        // lock does.
        assert!(stale.exists());
        store.tidy(&store.try_lock().unwrap().unwrap());
        assert!(!stale.exists(), "{} is left", stale.display());
        for name in earlier {
            assert!(!dir.path().join(name).exists(), "{name} is left");
        }
        for name in others {
            assert!(dir.path().join(name).exists(), "{name} was removed");
        }
        #[cfg(unix)]
        assert!(
            fs::symlink_metadata(dir.path().join(".progress.json.link.tmp")).is_ok(),
            "a link is never removed"
        );
    }
}
