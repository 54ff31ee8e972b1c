//! The one way fencelab reads a file it was given: scenarios (`run`,
//! `open`, `explore --design FILE`), lessons (a lessons folder), answers
//! (`grade`) and the saved progress.
//!
//! Every read is bounded, so that `fencelab run /dev/zero` or a progress
//! file linked to a device fails at once instead of filling the memory, and
//! special files (FIFO, device, directory) are refused from their metadata
//! before they are opened, so that a FIFO with no writer cannot block the
//! program. The failures are worded the same for every kind of file.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::Path;

use sim_core::Lang;

/// What a file is for; each kind has its own size limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputKind {
    /// A scenario file (`run`, `open`).
    Scenario,
    /// A design file (`explore --design FILE`).
    Design,
    /// A lesson file of a lessons folder.
    Lesson,
    /// An answers file (`grade`).
    Answers,
    /// The saved progress (`progress.json`).
    Progress,
    /// A save that waited for another instance, kept beside the progress
    /// (`progress.json.pending-…`): two progress records in one file.
    PendingProgress,
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

impl InputKind {
    /// The largest file of this kind fencelab reads, in bytes.
    ///
    /// Chosen with a wide margin over what exists: the largest example
    /// scenario is under 3 KiB, the largest lesson under 36 KiB, a design
    /// file a few hundred bytes. A scenario's limit also bounds its steps
    /// (a step takes at least about 30 bytes, so about 36 000 fit), which
    /// keeps `run --json` on the largest legal file within the memory budget
    /// stated in docs/scenario-format.md. A lesson is held parsed for the
    /// whole session (about 7 bytes per byte of scenario steps in it), and a
    /// folder holds up to 64 of them, so its limit is lower: 64 lessons of
    /// 256 KiB stay within the same budget.
    pub(crate) const fn limit(self) -> u64 {
        match self {
            InputKind::Scenario => MIB,
            InputKind::Design => 64 * KIB,
            InputKind::Lesson => 256 * KIB,
            InputKind::Answers | InputKind::Progress => MIB,
            InputKind::PendingProgress => 2 * MIB + 64 * KIB,
        }
    }
}

/// Why a file could not be read. Said the same way for every kind of file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// No such file.
    Missing,
    /// The path names a directory.
    Directory,
    /// Not allowed to read it.
    Permission,
    /// A FIFO, a device, a socket: not a regular file.
    NotRegular,
    /// Larger than the limit of its kind, in bytes.
    TooLarge { limit: u64 },
    /// Any other failure, in the system's own words.
    Other(String),
}

impl ReadError {
    fn from_io(error: &io::Error) -> ReadError {
        match error.kind() {
            io::ErrorKind::NotFound => ReadError::Missing,
            io::ErrorKind::PermissionDenied => ReadError::Permission,
            io::ErrorKind::IsADirectory => ReadError::Directory,
            _ => ReadError::Other(error.to_string()),
        }
    }

    /// What went wrong, without the file's name.
    pub(crate) fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (ReadError::Missing, Lang::En) => "cannot read the file: it does not exist".to_owned(),
            (ReadError::Missing, Lang::Zh) => "无法读取文件：文件不存在".to_owned(),
            (ReadError::Directory, Lang::En) => {
                "cannot read the file: it is a directory".to_owned()
            }
            (ReadError::Directory, Lang::Zh) => "无法读取文件：这是一个文件夹".to_owned(),
            (ReadError::Permission, Lang::En) => {
                "cannot read the file: permission denied".to_owned()
            }
            (ReadError::Permission, Lang::Zh) => "无法读取文件：没有权限".to_owned(),
            (ReadError::NotRegular, Lang::En) => {
                "cannot read the file: it is not a regular file (a FIFO, device or socket)"
                    .to_owned()
            }
            (ReadError::NotRegular, Lang::Zh) => {
                "无法读取文件：它不是普通文件（而是管道、设备或套接字）".to_owned()
            }
            (ReadError::TooLarge { limit }, Lang::En) => {
                format!(
                    "cannot read the file: it is larger than the limit of {}",
                    size_label(*limit)
                )
            }
            (ReadError::TooLarge { limit }, Lang::Zh) => {
                format!("无法读取文件：文件超过了 {} 的上限", size_label(*limit))
            }
            (ReadError::Other(error), Lang::En) => format!("cannot read the file: {error}"),
            (ReadError::Other(error), Lang::Zh) => format!("无法读取文件：{error}"),
        }
    }

    /// `PATH: message` (`PATH：message` in Chinese), the line fencelab
    /// prints for a file it could not read.
    pub(crate) fn line(&self, path: &str, lang: Lang) -> String {
        match lang {
            Lang::En => format!("{path}: {}", self.message(lang)),
            Lang::Zh => format!("{path}：{}", self.message(lang)),
        }
    }
}

/// In English; [`ReadError::message`] gives either language.
impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ReadError {}

/// `1 MiB`, `64 KiB`: limits are whole binary units.
pub(crate) fn size_label(bytes: u64) -> String {
    if bytes >= MIB && bytes % MIB == 0 {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= KIB && bytes % KIB == 0 {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The bytes of the regular file at `path` (symbolic links followed), at
/// most `kind.limit()` of them.
///
/// The metadata is checked before the file is opened: opening a FIFO with
/// no writer would block, and a device may never end. The size is checked
/// again while reading, as a file may grow (or report no size, as files
/// under /proc do).
pub(crate) fn read_file(path: &Path, kind: InputKind) -> Result<Vec<u8>, ReadError> {
    let limit = kind.limit();
    let metadata = std::fs::metadata(path).map_err(|error| ReadError::from_io(&error))?;
    check_metadata(&metadata, limit)?;
    let file = File::open(path).map_err(|error| ReadError::from_io(&error))?;
    // The path may have been replaced between the two looks; what was
    // opened is what counts.
    let opened = file
        .metadata()
        .map_err(|error| ReadError::from_io(&error))?;
    check_metadata(&opened, limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|error| ReadError::from_io(&error))?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

fn check_metadata(metadata: &std::fs::Metadata, limit: u64) -> Result<(), ReadError> {
    if metadata.is_dir() {
        return Err(ReadError::Directory);
    }
    if !metadata.is_file() {
        return Err(ReadError::NotRegular);
    }
    if metadata.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(())
}

/// Why `dir` cannot be read as a folder, said as a file's problems are
/// (`what` names the folder in `lang`: "the lessons folder", "the page's
/// folder"), or `None` when it can.
pub(crate) fn folder_problem(dir: &Path, what: &str, lang: Lang) -> Option<String> {
    let reason = match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => match std::fs::read_dir(dir) {
            Ok(_) => return None,
            Err(error) => ReadError::from_io(&error),
        },
        Ok(_) => {
            return Some(lang.pick(
                format!("cannot read {what}: it is not a folder"),
                format!("无法读取{what}：这不是一个文件夹"),
            ));
        }
        Err(error) => ReadError::from_io(&error),
    };
    let why = match reason {
        ReadError::Missing => lang.pick("it does not exist", "文件夹不存在").to_owned(),
        ReadError::Permission => lang.pick("permission denied", "没有权限").to_owned(),
        other => other.message(lang),
    };
    Some(lang.pick(
        format!("cannot read {what}: {why}"),
        format!("无法读取{what}：{why}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_small_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.toml");
        std::fs::write(&path, b"id = 1\n").unwrap();
        assert_eq!(read_file(&path, InputKind::Scenario).unwrap(), b"id = 1\n");
    }

    #[test]
    fn refuses_a_file_over_the_limit_of_its_kind() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.toml");
        let limit = InputKind::Design.limit();
        std::fs::write(&path, vec![b' '; usize::try_from(limit).unwrap() + 1]).unwrap();
        assert_eq!(
            read_file(&path, InputKind::Design),
            Err(ReadError::TooLarge { limit })
        );
        std::fs::write(&path, vec![b' '; usize::try_from(limit).unwrap()]).unwrap();
        assert!(read_file(&path, InputKind::Design).is_ok());
    }

    #[test]
    fn names_a_missing_file_and_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            read_file(&dir.path().join("none"), InputKind::Answers),
            Err(ReadError::Missing)
        );
        assert_eq!(
            read_file(dir.path(), InputKind::Answers),
            Err(ReadError::Directory)
        );
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_device_without_reading_it() {
        assert_eq!(
            read_file(Path::new("/dev/zero"), InputKind::Progress),
            Err(ReadError::NotRegular)
        );
    }

    /// A progress file that links to /dev/zero once filled the memory.
    #[cfg(unix)]
    #[test]
    fn follows_a_link_and_refuses_the_device_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("progress.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(
            read_file(&link, InputKind::Progress),
            Err(ReadError::NotRegular)
        );
    }

    #[test]
    fn limits_are_said_in_binary_units() {
        assert_eq!(size_label(MIB), "1 MiB");
        assert_eq!(size_label(64 * KIB), "64 KiB");
        assert_eq!(size_label(100), "100 bytes");
    }
}
