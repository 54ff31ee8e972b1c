//! `fencelab web` under slow clients (issue 11): clients that trickle a
//! request head cannot keep the server from answering others, and are
//! dropped once their head is overdue.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `fencelab web --port 0 --dir DIR` and returns it with its port.
fn start(dir: &std::path::Path) -> (Server, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fencelab"))
        .args(["web", "--port", "0", "--lang", "en", "--dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let errors = child.stderr.take();
    let server = Server(child);
    let mut line = String::new();
    if let Some(errors) = errors {
        let _ = BufReader::new(errors).read_line(&mut line);
    }
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|port| port.parse().ok())
        .unwrap_or_else(|| panic!("fencelab web said no address: {line:?}"));
    (server, port)
}

/// A client that has sent the start of a request and then nothing.
fn slow_client(port: u16) -> TcpStream {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    stream
}

#[test]
fn slow_clients_neither_starve_others_nor_stay_forever() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html>").unwrap();
    let (_server, port) = start(dir.path());

    let mut slow: Vec<TcpStream> = (0..200).map(|_| slow_client(port)).collect();

    // A normal request is answered at once, with 200 heads still open.
    let asked = Instant::now();
    let mut client = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    client
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    client
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = client.read_to_string(&mut answer);
    assert!(
        answer.starts_with("HTTP/1.1 200 OK") && answer.ends_with("<!doctype html>"),
        "after {:?}: {answer:?}",
        asked.elapsed()
    );
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );

    // One client keeps sending a header line every 200 ms, which resets
    // any per-read timeout; the server still drops it (EOF or reset)
    // once its head is overdue, within the 5 s deadline and a margin.
    let mut trickler = slow.pop().unwrap();
    let start = Instant::now();
    let dropped = loop {
        if start.elapsed() > Duration::from_secs(10) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(200));
        if trickler.write_all(b"X-Slow: 1\r\n").is_err() {
            break true;
        }
        trickler
            .set_read_timeout(Some(Duration::from_millis(1)))
            .unwrap();
        let mut byte = [0_u8; 1];
        match trickler.read(&mut byte) {
            Ok(0) => break true,
            Ok(_) => panic!("the server answered an unfinished request"),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => break true,
        }
    };
    let waited = start.elapsed();
    assert!(dropped, "a trickling client was kept {waited:?}");
    assert!(
        waited >= Duration::from_secs(3) && waited < Duration::from_secs(8),
        "dropped after {waited:?}"
    );
    drop(slow);
}
