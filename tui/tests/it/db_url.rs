//! `fencelab run FILE --db postgres://…` against servers that cannot serve
//! the replay: nothing listening, an unknown host, a server that accepts and
//! never answers, one that stops answering, one that refuses the password.
//! Each ends within its bound with exit status 2 and one line that blames the
//! `--db` value (not the scenario file), names the cause, and shows no
//! password from the URL.

use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::{example, stderr, stdout, test_home};

/// The password every URL here carries; it must never be printed.
const SECRET: &str = "s3cr3tPW";

/// Longer than any bound the replay keeps by default (10 s to connect, 10 s
/// for an answer), with room for a loaded machine: past it the test fails
/// instead of hanging.
const GIVE_UP: Duration = Duration::from_secs(40);

/// Runs the binary with `args`; kills it and fails the test if it has not
/// ended within [`GIVE_UP`]. Returns its output and how long it ran.
fn fencelab_bounded(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fencelab"))
        .args(args)
        .env("LANG", "C")
        .env("HOME", test_home())
        .env("XDG_DATA_HOME", test_home().join("data"))
        .env("XDG_CONFIG_HOME", test_home().join("config"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fencelab starts");
    while child
        .try_wait()
        .expect("the child can be waited for")
        .is_none()
    {
        if started.elapsed() > GIVE_UP {
            let _ = child.kill();
            let output = child.wait_with_output().expect("the killed child");
            panic!(
                "fencelab {args:?} still running after {GIVE_UP:?}; stderr so far: {}",
                stderr(&output)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let elapsed = started.elapsed();
    (child.wait_with_output().expect("the output"), elapsed)
}

/// Runs `run FILE --db url` (plus `extra`) and checks what every failure to
/// reach the database shares: exit 2, nothing on stdout, one line on stderr
/// that starts with the `--db` value as shown and says nothing of the file,
/// and no password. Returns stderr and the time it took.
fn refused_db(url: &str, shown: &str, extra: &[&str]) -> (String, Duration) {
    let file = example("01-article-stale-finish.toml");
    let mut args = vec!["run", file.as_str(), "--db", url];
    args.extend_from_slice(extra);
    let (output, elapsed) = fencelab_bounded(&args);
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
    assert!(output.stdout.is_empty(), "{args:?}: {}", stdout(&output));
    assert!(
        said.starts_with(&format!("--db {shown}")),
        "{args:?}: blames the --db value: {said}"
    );
    assert!(
        !said.contains("01-article"),
        "{args:?}: not the file: {said}"
    );
    assert_eq!(said.lines().count(), 1, "{args:?}: {said}");
    assert!(!said.contains(SECRET), "{args:?}: a password shown: {said}");
    (said, elapsed)
}

/// A port nothing listens on: bound, then let go.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// A listener on 127.0.0.1 that hands every connection to `serve` on a
/// thread of its own (the threads end with the test process).
fn server(serve: fn(TcpStream)) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let port = listener.local_addr().expect("its address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || serve(stream));
        }
    });
    port
}

/// Accepts and never answers: the connection stays open, silent.
fn silent(stream: TcpStream) {
    std::thread::sleep(GIVE_UP * 2);
    drop(stream);
}

/// Reads one length-prefixed message of the client (the start-up message
/// has no type byte, the others have one).
fn read_message(stream: &mut TcpStream, typed: bool) -> Option<Vec<u8>> {
    if typed {
        let mut kind = [0u8; 1];
        stream.read_exact(&mut kind).ok()?;
    }
    let mut length = [0u8; 4];
    stream.read_exact(&mut length).ok()?;
    let length = usize::try_from(u32::from_be_bytes(length)).ok()?;
    let mut body = vec![0u8; length.checked_sub(4)?];
    stream.read_exact(&mut body).ok()?;
    Some(body)
}

/// PostgreSQL's start-up: `AuthenticationOk`, `ReadyForQuery` — then it
/// never answers a statement.
fn answers_start_up_then_silent(mut stream: TcpStream) {
    if read_message(&mut stream, false).is_none() {
        return;
    }
    let _ = stream.write_all(&[b'R', 0, 0, 0, 8, 0, 0, 0, 0, b'Z', 0, 0, 0, 5, b'I']);
    silent(stream);
}

/// Asks for a cleartext password and refuses whatever comes, as PostgreSQL
/// does: `FATAL 28P01 password authentication failed for user "bob"`.
fn refuses_the_password(mut stream: TcpStream) {
    if read_message(&mut stream, false).is_none() {
        return;
    }
    let _ = stream.write_all(&[b'R', 0, 0, 0, 8, 0, 0, 0, 3]);
    if read_message(&mut stream, true).is_none() {
        return;
    }
    let mut fields = Vec::new();
    for (code, text) in [
        (b'S', "FATAL"),
        (b'V', "FATAL"),
        (b'C', "28P01"),
        (b'M', "password authentication failed for user \"bob\""),
    ] {
        fields.push(code);
        fields.extend_from_slice(text.as_bytes());
        fields.push(0);
    }
    fields.push(0);
    let length = u32::try_from(fields.len() + 4).unwrap_or(u32::MAX);
    let mut message = vec![b'E'];
    message.extend_from_slice(&length.to_be_bytes());
    message.extend_from_slice(&fields);
    let _ = stream.write_all(&message);
}

#[test]
fn a_server_that_accepts_and_never_answers_times_out_connecting() {
    let port = server(silent);
    let url = format!("postgres://127.0.0.1:{port}/x");
    let (said, elapsed) = refused_db(&url, &url, &[]);
    assert!(said.contains("timed out connecting"), "{said}");
    assert!(said.contains("10 s"), "the bound is named: {said}");
    #[allow(clippy::print_stderr)]
    {
        eprintln!("silent listener: the error after {elapsed:?}");
    }
}

#[test]
fn connect_timeout_in_the_url_sets_the_bound() {
    let port = server(silent);
    let url = format!("postgres://127.0.0.1:{port}/x?connect_timeout=1");
    let (said, elapsed) = refused_db(&url, &url, &["--lang", "zh"]);
    assert!(said.contains("连接超时"), "{said}");
    assert!(said.contains("1 秒"), "{said}");
    // Well under the default 10 s: the URL's bound was used.
    assert!(elapsed < Duration::from_secs(8), "{elapsed:?}");
}

#[test]
fn a_server_that_stops_answering_times_out_waiting_for_an_answer() {
    let port = server(answers_start_up_then_silent);
    let url = format!("postgres://bob:{SECRET}@127.0.0.1:{port}/x");
    let shown = format!("postgres://bob:***@127.0.0.1:{port}/x");
    let (said, elapsed) = refused_db(&url, &shown, &[]);
    assert!(said.contains("timed out waiting for an answer"), "{said}");
    #[allow(clippy::print_stderr)]
    {
        eprintln!("silent after start-up: the error after {elapsed:?}");
    }
}

#[test]
fn a_refused_port_says_connection_refused_and_names_the_url() {
    let port = free_port();
    let url = format!("postgres://bob:{SECRET}@127.0.0.1:{port}/x");
    let shown = format!("postgres://bob:***@127.0.0.1:{port}/x");
    let (said, _) = refused_db(&url, &shown, &[]);
    assert!(said.contains("connection refused"), "{said}");
    let (said, _) = refused_db(&url, &shown, &["--lang", "zh"]);
    assert!(said.contains("连接被拒绝"), "{said}");
}

#[test]
fn an_unknown_host_says_unknown_host() {
    let url = format!("postgres://bob:{SECRET}@fencelab-nowhere.invalid/x");
    let shown = "postgres://bob:***@fencelab-nowhere.invalid/x";
    let (said, _) = refused_db(&url, shown, &[]);
    assert!(said.contains("unknown host"), "{said}");
    assert!(said.contains("fencelab-nowhere.invalid"), "{said}");
    let (said, _) = refused_db(&url, shown, &["--lang", "zh"]);
    assert!(said.contains("未知主机"), "{said}");
}

#[test]
fn a_refused_password_says_authentication_failed() {
    let port = server(refuses_the_password);
    let url = format!("postgres://bob:{SECRET}@127.0.0.1:{port}/x");
    let shown = format!("postgres://bob:***@127.0.0.1:{port}/x");
    let (said, _) = refused_db(&url, &shown, &[]);
    assert!(said.contains("authentication failed"), "{said}");
    let (said, _) = refused_db(&url, &shown, &["--lang", "zh"]);
    assert!(said.contains("认证失败"), "{said}");
    // No password in the URL: the server asks for one all the same.
    let url = format!("postgres://bob@127.0.0.1:{port}/x");
    let (said, _) = refused_db(&url, &url, &[]);
    assert!(said.contains("authentication failed"), "{said}");
    assert!(said.contains("gives none"), "{said}");
}

#[test]
fn no_password_is_printed_from_any_url() {
    let port = free_port();
    for (url, shown) in [
        (
            "mysql://bob:s3cr3tPW@h/db".to_owned(),
            "mysql://bob:***@h/db".to_owned(),
        ),
        (
            "postgres://bob:s3cr3tPW@127.0.0.1:notaport/x".to_owned(),
            "postgres://bob:***@127.0.0.1:***/x".to_owned(),
        ),
        (
            // The host left out: the client reads the password as a port.
            "postgres://bob:s3cr3tPW/x".to_owned(),
            "postgres://bob:***/x".to_owned(),
        ),
        (
            // A password with characters a URL should have escaped.
            "postgresql://bob:s3cr3tPW/?#@127.0.0.1:1/x".to_owned(),
            "postgresql://bob:***@127.0.0.1:1/x".to_owned(),
        ),
        (
            format!("postgres://127.0.0.1:{port}/x?password=s3cr3tPW"),
            format!("postgres://127.0.0.1:{port}/x?password=***"),
        ),
        (
            "host=h password=s3cr3tPW".to_owned(),
            "host=h password=***".to_owned(),
        ),
        ("bob:s3cr3tPW@h/db".to_owned(), "bob:***@h/db".to_owned()),
    ] {
        for lang in ["en", "zh"] {
            refused_db(&url, &shown, &["--lang", lang]);
        }
    }
}
