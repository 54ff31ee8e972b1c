//! `fencelab web` under slow clients (issue 11): clients that trickle a
//! request head cannot keep the server from answering others, and are
//! dropped once their head is overdue. Against a page that rebinds a name
//! to 127.0.0.1 (issue 20): only this server's own Host is answered, and no
//! dotfile is served.

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
    stream
        .write_all(format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n").as_bytes())
        .unwrap();
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
        .write_all(format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes())
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

/// Sends `request` and returns the status line of the answer.
fn status_of(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

/// DNS rebinding (issue 20): a page on `attacker.example` that makes its
/// name resolve to 127.0.0.1 sends its own Host, and is refused; so is
/// every dotfile (`.ssh/id_rsa`, `.git/config`), whatever the Host.
#[test]
fn a_foreign_host_and_dotfiles_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html>").unwrap();
    std::fs::create_dir_all(dir.path().join(".ssh")).unwrap();
    std::fs::write(dir.path().join(".ssh/id_rsa"), "secret").unwrap();
    std::fs::write(dir.path().join(".env"), "secret").unwrap();
    let (_server, port) = start(dir.path());
    let get = |path: &str, host: &str| {
        status_of(
            port,
            &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n"),
        )
    };
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("LocalHost:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(get("/", &host), "HTTP/1.1 200 OK", "{host}");
        for dotfile in ["/.ssh/id_rsa", "/.env", "/.ssh/", "/a/.git/config"] {
            assert_eq!(get(dotfile, &host), "HTTP/1.1 404 Not Found", "{dotfile}");
        }
    }
    for host in [
        "attacker.example".to_owned(),
        format!("attacker.example:{port}"),
        "127.0.0.1".to_owned(),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        format!("127.0.0.1.attacker.example:{port}"),
    ] {
        assert_eq!(get("/", &host), "HTTP/1.1 403 Forbidden", "{host}");
        assert_eq!(
            get("/.ssh/id_rsa", &host),
            "HTTP/1.1 403 Forbidden",
            "{host}"
        );
    }
    let no_host = status_of(port, "GET / HTTP/1.1\r\n\r\n");
    assert_eq!(no_host, "HTTP/1.1 403 Forbidden");
}

/// A port already in use is bad input, exit status 2 (issue 20), with the
/// reason, in both languages.
#[test]
fn a_port_in_use_exits_two() {
    let taken = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<!doctype html>").unwrap();
    let folder = dir.path().display().to_string();
    for (lang, words) in [
        ("en", "cannot listen on 127.0.0.1:"),
        ("zh", "无法监听 127.0.0.1:"),
    ] {
        let output = crate::fencelab(&["web", "--port", &port, "--dir", &folder, "--lang", lang]);
        assert_eq!(output.status.code(), Some(2), "{lang}");
        let message = crate::stderr(&output);
        assert!(message.contains(words), "{lang}: {message}");
    }
}
