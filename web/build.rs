//! Embeds the course for the tests (feature `embedded-lessons`, on by
//! default): every `../lessons/*.toml` becomes an `include_str!` entry of
//! `LESSONS` (file stem, text). The page's build leaves it out and fetches
//! the same pairs as `lessons.json`.

#![allow(
    clippy::print_stdout,
    reason = "a build script talks to cargo on stdout"
)]

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let dir = manifest.join("../lessons");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let mut out = String::from(
        "/// The lessons this build embeds: (file stem, TOML text), in file-name order.\n\
         pub(crate) const LESSONS: &[(&str, &str)] = &[\n",
    );
    for path in &paths {
        println!("cargo::rerun-if-changed={}", path.display());
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        let _ = writeln!(
            out,
            "    ({stem:?}, include_str!({:?})),",
            absolute.display().to_string()
        );
    }
    out.push_str("];\n");
    let target = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("lessons.rs");
    if let Err(error) = std::fs::write(&target, out) {
        panic!("cannot write {}: {error}", target.display());
    }
}
