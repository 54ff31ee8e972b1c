//! What the binary carries, written by `build.rs`: the course
//! (`LESSONS`, from `lessons/*.toml`) and, when `web/dist` existed at build
//! time, the browser page (`PAGE`). An installed `fencelab` needs no files
//! beside it.

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));
