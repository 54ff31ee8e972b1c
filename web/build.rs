//! Embeds the course for the tests (feature `embedded-lessons`, on by
//! default): every `../lessons/*.toml` becomes an `include_str!` entry of
//! `LESSONS` (file stem, text). The page's build leaves it out and fetches
//! the same pairs as `lessons.json`. The listing is shared with the
//! `fencelab` binary's build script, which embeds the same course.

#![allow(
    clippy::print_stdout,
    reason = "a build script talks to cargo on stdout"
)]

#[path = "../tui/build/embed.rs"]
#[allow(dead_code, reason = "the page's files are embedded by fencelab alone")]
mod embed;

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let lessons = embed::lessons(&manifest.join("../lessons"));
    embed::write_out(
        "lessons.rs",
        &embed::table(
            "The lessons this build embeds: (file stem, TOML text), in file-name order.",
            "LESSONS",
            false,
            &lessons,
        ),
    );
}
