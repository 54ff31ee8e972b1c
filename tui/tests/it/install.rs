//! An installed `fencelab` carries its course and its page: `cargo install
//! --path tui` copies one file, so nothing may be read from the source tree.
//!
//! `an_installed_fencelab_works_from_an_empty_folder` does what a new user
//! does — install into a temporary root, then, from an empty folder,
//! `fencelab lint`, `fencelab grade`, `fencelab web` and the app itself. It
//! is `#[ignore]`d because the install must find the built page
//! (`web/dist/`) to embed it: `cargo xtask test` runs it after `cargo xtask
//! web` (see xtask's module doc), and `cargo xtask install-test` runs the two
//! alone.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{Ipv4Addr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use sim_core::course::{ExerciseKind, mark_candidates};

use crate::tmux::{Tmux, lesson_one, quoted, repo};
use crate::{fencelab, stderr, stdout};

/// Runs `bin` with `args` in the folder `dir`, as `fencelab` does.
fn run_in(bin: &Path, dir: &Path, args: &[&str]) -> Output {
    let output = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("LANG", "C")
        .output();
    match output {
        Ok(output) => output,
        Err(error) => panic!("cannot start {}: {error}", bin.display()),
    }
}

#[test]
fn the_built_in_course_is_the_lessons_folder() {
    let empty = tempfile::tempdir().unwrap();
    let built_in = run_in(
        Path::new(env!("CARGO_BIN_EXE_fencelab")),
        empty.path(),
        &["lint", "--lang", "en"],
    );
    assert_eq!(built_in.status.code(), Some(0), "{}", stderr(&built_in));
    let folder = fencelab(&[
        "lint",
        &repo().join("lessons").display().to_string(),
        "--lang",
        "en",
    ]);
    assert_eq!(stdout(&built_in), stdout(&folder));
}

/// `cargo install --path tui --root ROOT`, as a user types it, with two
/// changes for speed alone: `--debug` and the workspace's own target
/// directory (`CARGO_TARGET_DIR`), so that cargo reuses what `cargo test`
/// has just compiled instead of building everything again in release mode.
/// `--locked --offline`: the versions Cargo.lock pins, which `cargo test`
/// has already fetched and built, without asking the registry's index.
/// CARGO_HOME stays as it is: only the root is temporary.
fn install(root: &Path) -> PathBuf {
    let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is inside the target directory");
    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args(["install", "--debug", "--locked", "--offline", "--path"])
        .arg(repo().join("tui"))
        .arg("--root")
        .arg(root)
        .env("CARGO_TARGET_DIR", target_dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot start cargo: {e}"));
    assert!(
        output.status.success(),
        "cargo install failed:\n{}",
        stderr(&output)
    );
    root.join("bin")
        .join(format!("fencelab{}", std::env::consts::EXE_SUFFIX))
}

/// A child process killed when the test ends, pass or fail.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `GET path` on 127.0.0.1:`port`, naming the server as a browser does
/// (it answers only its own Host): the response head and body.
fn get(port: u16, path: &str) -> (String, Vec<u8>) {
    get_with(port, path, "")
}

/// `GET path` with more header lines (each ending `\r\n`).
fn get_with(port: u16, path: &str, headers: &str) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}\r\n").as_bytes(),
        )
        .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of head in {}", String::from_utf8_lossy(&response)));
    let body = response.split_off(split + 4);
    (String::from_utf8_lossy(&response).into_owned(), body)
}

/// The installed `fencelab web` serves the page it embedded: `/` and the
/// wasm, byte for byte what `cargo xtask web` wrote, over 127.0.0.1.
fn check_web(bin: &Path, empty: &Path, dist: &Path) {
    let mut child = Command::new(bin)
        .args(["web", "--port", "0", "--lang", "en"])
        .current_dir(empty)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start fencelab web: {e}"));
    let errors = child.stderr.take();
    let server = Server(child);
    let mut line = String::new();
    if let Some(errors) = errors {
        let _ = BufReader::new(errors).read_line(&mut line);
    }
    let port: u16 = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("fencelab web said no address: {line:?}"));

    let (head, body) = get(port, "/");
    assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
    assert!(head.contains("Content-Type: text/html"), "{head}");
    let index = std::fs::read(dist.join("index.html")).unwrap();
    assert!(body == index, "/ is not web/dist/index.html");

    let wasm = std::fs::read_dir(dist)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "wasm"))
        .unwrap_or_else(|| panic!("no .wasm in {}", dist.display()));
    let name = wasm
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (head, body) = get(port, &format!("/{name}"));
    assert!(head.starts_with("HTTP/1.1 200 OK"), "{name}: {head}");
    assert!(head.contains("Content-Type: application/wasm"), "{head}");
    let bytes = std::fs::read(&wasm).unwrap();
    assert!(body == bytes, "/{name} is not {}", wasm.display());
    // A browser takes it compressed, less than half the size.
    let (head, body) = get_with(port, &format!("/{name}"), "Accept-Encoding: gzip, br\r\n");
    assert!(head.contains("Content-Encoding: gzip"), "{head}");
    assert!(
        body.len() * 2 < bytes.len(),
        "{} gzipped of {}",
        body.len(),
        bytes.len()
    );
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(body.as_slice())
        .read_to_end(&mut unpacked)
        .unwrap();
    assert!(
        unpacked == bytes,
        "/{name} gzipped is not {}",
        wasm.display()
    );
    drop(server);
}

#[test]
#[ignore = "installs fencelab; needs web/dist: `cargo xtask test` runs it after `cargo xtask web`"]
fn an_installed_fencelab_works_from_an_empty_folder() {
    let dist = repo().join("web/dist");
    assert!(
        dist.join("index.html").is_file(),
        "build the page first (`cargo xtask web`): the install embeds web/dist"
    );
    let root = tempfile::tempdir().unwrap();
    let bin = install(root.path());
    let empty = tempfile::tempdir().unwrap();

    // lint: the built-in course, every check, the coverage table.
    let lint = run_in(&bin, empty.path(), &["lint", "--lang", "en"]);
    assert_eq!(lint.status.code(), Some(0), "{}", stderr(&lint));
    let table = stdout(&lint);
    assert!(
        table.contains("concept coverage") && table.contains("lint passed"),
        "{table}"
    );

    // grade: lesson 1's mark exercise, answered once as the oracle says
    // (the steps that had to be refused) and once with nothing marked.
    let lesson = lesson_one();
    let (exercise, scenario, candidates) = lesson
        .exercises
        .iter()
        .find_map(|exercise| match &exercise.kind {
            ExerciseKind::Mark {
                scenario,
                candidates,
            } => Some((exercise, *scenario, candidates)),
            _ => None,
        })
        .expect("lesson 1 has a mark exercise");
    let scenario = lesson
        .scenario(scenario)
        .expect("the mark exercise's scenario");
    let trace = sim_core::run(scenario);
    let refused: Vec<u32> = mark_candidates(scenario, candidates)
        .into_iter()
        .filter(|step| trace.should_reject.contains(step))
        .collect();
    assert!(!refused.is_empty(), "the exercise has a step to refuse");
    let answer = |marks: &[u32]| serde_json::json!({ "lesson": lesson.id, "exercise": exercise.id, "mark": marks });
    let answers = root.path().join("answers.json");
    let file =
        serde_json::json!({ "learner": "new user", "answers": [answer(&refused), answer(&[])] });
    std::fs::write(&answers, file.to_string()).unwrap();
    let grade = run_in(
        &bin,
        empty.path(),
        &["grade", &answers.display().to_string(), "--json"],
    );
    assert_eq!(grade.status.code(), Some(0), "{}", stderr(&grade));
    let report: serde_json::Value = serde_json::from_slice(&grade.stdout).unwrap_or_default();
    assert_eq!(report["answers"], 2, "{report:#}");
    assert_eq!(report["results"][0]["correct"], true, "{report:#}");
    assert_eq!(report["results"][1]["correct"], false, "{report:#}");

    check_web(&bin, empty.path(), &dist);

    // The app: the course map of the built-in course, and `q` quits.
    let data = root.path().join("data");
    let status = root.path().join("status");
    let tmux = Tmux::start(&format!(
        "cd {empty} && {bin} --data-dir {data}; echo $? > {status}.tmp; mv {status}.tmp {status}; sleep 60",
        empty = quoted(empty.path()),
        bin = quoted(&bin),
        data = quoted(&data),
        status = quoted(&status),
    ));
    tmux.wait_for("the course map", |s| s.contains(&lesson.title.en));
    tmux.send(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !status.exists() {
        assert!(
            Instant::now() < deadline,
            "fencelab did not quit; the screen shows:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let code = std::fs::read_to_string(&status).unwrap();
    assert_eq!(code.trim(), "0", "fencelab's exit status");

    let left: Vec<_> = std::fs::read_dir(empty.path())
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name())
        .collect();
    assert!(left.is_empty(), "fencelab wrote into the folder: {left:?}");
}
