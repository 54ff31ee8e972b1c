//! Embeds what an installed `fencelab` must carry (`cargo install --path
//! tui` copies the binary and nothing else):
//!
//! - the course: every `../lessons/*.toml`, as `LESSONS` (file stem, text);
//! - the browser page: every file of `../web/dist/` (written by `cargo
//!   xtask web`) as `PAGE` (path, bytes), or `None` when the page has not
//!   been built — `fencelab web` then says how to build it.
//!
//! Cargo runs this again when a lesson changes, and when `web/dist`
//! appears, changes or goes: while it is absent, the whole `web/` folder
//! is watched, since a folder's creation shows only in its parent.

#![allow(
    clippy::print_stdout,
    reason = "a build script talks to cargo on stdout"
)]

#[path = "build/embed.rs"]
mod embed;

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let lessons = embed::lessons(&manifest.join("../lessons"));
    let mut out = embed::table(
        "The course this build embeds: (file stem, TOML text), in file-name order.",
        "LESSONS",
        false,
        &lessons,
    );

    let web = manifest.join("../web");
    let dist = web.join("dist");
    if dist.join("index.html").is_file() {
        println!("cargo::rerun-if-changed={}", dist.display());
        out.push_str(&embed::table(
            "The built page's files: (path below web/dist, bytes), in name order.",
            "PAGE_FILES",
            true,
            &embed::tree(&dist),
        ));
        out.push_str(
            "/// The built page, embedded because `web/dist` existed at build time.\n\
             pub(crate) const PAGE: Option<&[(&str, &[u8])]> = Some(PAGE_FILES);\n",
        );
    } else {
        println!("cargo::rerun-if-changed={}", web.display());
        out.push_str(
            "/// No page: `web/dist` did not exist when this binary was built.\n\
             pub(crate) const PAGE: Option<&[(&str, &[u8])]> = None;\n",
        );
    }
    embed::write_out("embedded.rs", &out);
}
