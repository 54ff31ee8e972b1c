//! Files compiled into a crate, shared by two build scripts: `fencelab`'s
//! (`tui/build.rs`: the lessons and the built page) and `fencelab-web`'s
//! (`web/build.rs`: the lessons, for its tests). A build script lists the
//! files, tells cargo to run it again when they change, and writes a table
//! of `(name, include_str!/include_bytes!(absolute path))` pairs that the
//! crate `include!`s from `OUT_DIR`: the bytes are the compiler's to embed,
//! no copy of them passes through the script.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The lesson files: `dir/*.toml`, named by file stem, in file-name order.
/// Cargo runs the script again when the folder or any of them changes.
pub(crate) fn lessons(dir: &Path) -> Vec<(String, PathBuf)> {
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            println!("cargo::rerun-if-changed={}", path.display());
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (stem, path)
        })
        .collect()
}

/// Every file under `dir`, at any depth, named by its path below `dir`
/// with `/` between parts, in name order. (Cargo watches a folder given
/// to `rerun-if-changed` at every depth, so the caller names only `dir`.)
pub(crate) fn tree(dir: &Path) -> Vec<(String, PathBuf)> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if path.is_dir() {
                walk(&path, &format!("{name}/"), out);
            } else if path.is_file() {
                out.push((name, path));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out.sort();
    out
}

/// The source of `pub(crate) const NAME: &[(&str, &str)]` (or `&[u8]` with
/// `bytes`) holding `files`, with `doc` as its doc comment.
pub(crate) fn table(doc: &str, name: &str, bytes: bool, files: &[(String, PathBuf)]) -> String {
    let (ty, include) = if bytes {
        ("[u8]", "include_bytes")
    } else {
        ("str", "include_str")
    };
    let mut out = format!("/// {doc}\npub(crate) const {name}: &[(&str, &{ty})] = &[\n");
    for (key, path) in files {
        let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let _ = writeln!(
            out,
            "    ({key:?}, {include}!({:?})),",
            absolute.display().to_string()
        );
    }
    out.push_str("];\n");
    out
}

/// Writes `text` to `OUT_DIR/file`.
pub(crate) fn write_out(file: &str, text: &str) {
    let target = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join(file);
    if let Err(error) = std::fs::write(&target, text) {
        panic!("cannot write {}: {error}", target.display());
    }
}
