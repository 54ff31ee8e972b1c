//! The learner's progress on disk: `progress.json` in the user data
//! directory (or `--data-dir`), in the record format sim-core defines
//! ([`Progress::to_json`]).
//!
//! Writes are atomic: a temporary file in the same directory, fsync, rename
//! over the old file, fsync of the directory. A crash mid-write leaves the
//! old file or the new one, never half of one. The temporary files are named
//! `.progress.json.XXXXXX.tmp`; one left by a killed save is removed when
//! the app next starts (only names of that form, only in the data folder;
//! earlier builds' `.tmpXXXXXX` only when empty or begun as a progress record).
//!
//! Several instances may share one data folder. Every save holds an
//! advisory lock (`progress.json.lock`, [`fs4`]) while it re-reads the file,
//! merges it with this instance's record ([`Progress::merge`]: nothing
//! either instance learned is lost) and writes the result. A file that
//! turned unreadable meanwhile (damaged, or written by a newer fencelab) is
//! not overwritten: the save fails and says so.
//!
//! A file that cannot be read as progress (truncated, garbage, written by a
//! newer fencelab) is never overwritten and never silently reset: it is moved
//! aside to `progress.json.bad-<n>`, the first free `n`, and the learner is
//! told where it went.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use sim_core::Lang;
use sim_core::course::{PROGRESS_VERSION, Progress, ProgressError};

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
            Notice::KeptAside { .. } => lang.pick(
                "Your saved progress was kept aside",
                "已保存的进度被放到了一边",
            ),
            Notice::Unreadable { .. } | Notice::NotMovedAside { .. } => lang.pick(
                "Your saved progress could not be read",
                "无法读取已保存的进度",
            ),
            Notice::NoHome => lang.pick("Progress will not be saved", "进度不会被保存"),
        }
    }

    /// The notice's paragraphs.
    pub(crate) fn lines(&self, lang: Lang) -> Vec<String> {
        let not_saved = lang
            .pick(
                "Progress will not be saved this time, so that file is not overwritten.",
                "这次不会保存进度，以免覆盖那个文件。",
            )
            .to_owned();
        match (self, lang) {
            (Notice::KeptAside { why, kept, dir }, Lang::En) => vec![
                format!("fencelab could not read progress.json: {why}."),
                format!("The file is kept, untouched, as {kept} in {dir}."),
                "You start with fresh progress; nothing was deleted.".to_owned(),
            ],
            (Notice::KeptAside { why, kept, dir }, Lang::Zh) => vec![
                format!(
                    "fencelab 无法读取 progress.json：{}。",
                    progress_error_zh(why)
                ),
                format!("这个文件原样保留为 {dir} 中的 {kept}。"),
                "你将从新的进度开始；没有删除任何东西。".to_owned(),
            ],
            (Notice::Unreadable { path, error }, Lang::En) => {
                vec![format!("{}.", error.line(path, lang)), not_saved]
            }
            (Notice::Unreadable { path, error }, Lang::Zh) => {
                vec![format!("{}。", error.line(path, lang)), not_saved]
            }
            (Notice::NotMovedAside { path, why, error }, Lang::En) => vec![
                format!("fencelab could not read {path}: {why}."),
                format!("Moving it aside failed too ({error})."),
                not_saved,
            ],
            (Notice::NotMovedAside { path, why, error }, Lang::Zh) => vec![
                format!("fencelab 无法读取 {path}：{}。", progress_error_zh(why)),
                format!("把它移到一边也失败了（{error}）。"),
                not_saved,
            ],
            (Notice::NoHome, Lang::En) => vec![
                "fencelab found no home directory to keep your progress in.".to_owned(),
                "Start it with --data-dir DIR to choose a folder.".to_owned(),
            ],
            (Notice::NoHome, Lang::Zh) => vec![
                "fencelab 找不到可以保存进度的主目录。".to_owned(),
                "用 --data-dir DIR 启动，选一个文件夹。".to_owned(),
            ],
        }
    }
}

/// [`ProgressError`] in Chinese (its `Display` is English; the parser's own
/// detail stays as the parser wrote it).
fn progress_error_zh(error: &ProgressError) -> String {
    match error {
        ProgressError::Corrupt(why) => format!("进度记录已损坏：{why}"),
        ProgressError::Newer(version) => format!(
            "进度记录的版本是 {version}，比这个 fencelab 能理解的版本（{PROGRESS_VERSION}）更新"
        ),
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
}

pub(crate) const FILE_NAME: &str = "progress.json";
/// The file whose advisory lock serialises saves (the progress file itself
/// is replaced by each save, so it cannot carry the lock).
pub(crate) const LOCK_NAME: &str = "progress.json.lock";
/// How a save's temporary file is named: `PREFIX` + random + `SUFFIX`.
const TEMP_PREFIX: &str = ".progress.json.";
const TEMP_SUFFIX: &str = ".tmp";

/// The advisory lock on a data folder's progress, released when dropped
/// (closing the file releases it too, also when the process is killed).
struct ProgressLock(fs::File);

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

impl Store {
    pub(crate) fn new(dir: PathBuf) -> Store {
        Store {
            dir,
            writable: true,
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

    #[cfg(test)]
    pub(crate) fn is_writable(&self) -> bool {
        self.writable
    }

    /// The language of the saved progress; English when there is none or
    /// it cannot be read. Reads only: [`Store::load`] deals with a damaged file.
    pub(crate) fn saved_lang(&self) -> sim_core::Lang {
        crate::input::read_file(&self.path(), crate::input::InputKind::Progress)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| Progress::from_json(&text).ok())
            .map_or(sim_core::Lang::En, |progress| progress.lang)
    }

    /// Takes the folder's advisory lock, waiting for another instance's
    /// save to finish.
    fn lock(&self) -> io::Result<ProgressLock> {
        fs::create_dir_all(&self.dir)?;
        let file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join(LOCK_NAME))?;
        fs4::FileExt::lock(&file)?;
        Ok(ProgressLock(file))
    }

    /// Removes temporary files that a killed save left. Under the lock, so
    /// that no other instance is between writing one and renaming it.
    /// Best effort: what cannot be removed stays, harmlessly.
    fn remove_stale_temp_files(&self) {
        if !self.dir.is_dir() {
            return;
        }
        let Ok(_lock) = self.lock() else { return };
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
            if ours {
                let _ = fs::remove_file(entry.path());
            }
        }
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

    /// Reads the progress, keeping an unreadable file aside.
    pub(crate) fn load(&mut self) -> Loaded {
        self.remove_stale_temp_files();
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
        let notice = match self.set_aside() {
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

    /// Moves the progress file to `progress.json.bad-<n>`, the first free `n`.
    fn set_aside(&self) -> io::Result<PathBuf> {
        for n in 1..=10_000u32 {
            let kept = self.dir.join(format!("{FILE_NAME}.bad-{n}"));
            match fs::symlink_metadata(&kept) {
                Ok(_) => continue,
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    fs::rename(self.path(), &kept)?;
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
    /// the result atomically (temp file, fsync, rename). Returns what was
    /// written, so the caller can take in another instance's progress.
    pub(crate) fn save(&self, progress: &Progress) -> io::Result<Progress> {
        if !self.writable {
            return Ok(progress.clone());
        }
        let _lock = self.lock()?;
        let mut merged = progress.clone();
        match self.read_current()? {
            None => {}
            Some(Ok(on_disk)) => merged.merge(&on_disk),
            Some(Err(why)) => {
                return Err(io::Error::other(format!(
                    "{} changed and cannot be read now ({why}); it is not overwritten",
                    self.path().display()
                )));
            }
        }
        let mut file = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(&self.dir)?;
        file.write_all(merged.to_json().as_bytes())?;
        file.write_all(b"\n")?;
        file.as_file().sync_all()?;
        file.persist(self.path()).map_err(|error| error.error)?;
        sync_dir(&self.dir);
        Ok(merged)
    }
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
        let store = Store::new(dir.path().join("nested"));
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
                    let store = Store::new(dir);
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
        let killed = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(dir.path())
            .unwrap();
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
