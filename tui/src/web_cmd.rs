//! `fencelab web`: serves the browser page (`web/dist/`, built by `cargo
//! xtask web`) on 127.0.0.1 only — a few static files, so a small std
//! server is enough: one thread per connection, GET and HEAD, the MIME
//! types a browser insists on (`application/wasm` for streaming
//! compilation, `text/javascript` for modules), nothing outside the folder.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::report::EXIT_BAD_INPUT;

/// The longest request head read before giving up on a client.
const MAX_HEAD_BYTES: u64 = 16 * 1024;

#[allow(clippy::print_stderr)]
fn say(line: &str) {
    eprintln!("{line}");
}

/// The built page: `web/dist` under the current directory, else beside
/// the workspace this binary was built from.
fn find_dist(dir: Option<PathBuf>) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match dir {
        Some(dir) => vec![dir],
        None => vec![
            PathBuf::from("web/dist"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/dist"),
        ],
    };
    candidates
        .into_iter()
        .find(|dir| dir.join("index.html").is_file())
}

pub(crate) fn web_command(port: u16, open: bool, dir: Option<PathBuf>) -> ExitCode {
    let Some(root) = find_dist(dir) else {
        say(
            "fencelab web: the page has not been built yet. Build it with:\n\n    cargo xtask web\n",
        );
        return ExitCode::from(EXIT_BAD_INPUT);
    };
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, port)) {
        Ok(listener) => listener,
        Err(error) => {
            say(&format!(
                "fencelab web: cannot listen on 127.0.0.1:{port}: {error} (try --port N)"
            ));
            return ExitCode::FAILURE;
        }
    };
    let port = listener.local_addr().map_or(port, |a| a.port());
    let url = format!("http://127.0.0.1:{port}/");
    say(&format!(
        "fencelab web: serving {} at {url} (127.0.0.1 only; Ctrl-C stops)",
        root.display()
    ));
    if open {
        open_browser(&url);
    }
    serve(&listener, &root);
    ExitCode::SUCCESS
}

fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(windows) {
        std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if command.is_err() {
        say(&format!("fencelab web: open {url} in your browser"));
    }
}

/// Answers connections until the listener fails.
pub(crate) fn serve(listener: &TcpListener, root: &Path) {
    for stream in listener.incoming().flatten() {
        let root = root.to_path_buf();
        std::thread::spawn(move || {
            let _ = handle(stream, &root);
        });
    }
}

/// The Content-Type of a file, by extension.
pub(crate) fn mime(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "toml" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file a request path names, if it is inside `root`.
pub(crate) fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let mut file = root.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        if part == "." || part == ".." || part.contains('\\') || part.contains('%') {
            return None;
        }
        file.push(part);
    }
    if path.ends_with('/') || path.is_empty() {
        file.push("index.html");
    }
    let file = std::fs::canonicalize(file).ok()?;
    (file.starts_with(root) && file.is_file()).then_some(file)
}

fn handle(stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(MAX_HEAD_BYTES));
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Drain the headers; nothing in them changes the answer.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut stream = stream;
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET or HEAD only\n",
            method == "HEAD",
        );
    }
    match resolve(root, target).and_then(|file| std::fs::read(&file).ok().map(|b| (file, b))) {
        Some((file, body)) => respond(&mut stream, "200 OK", mime(&file), &body, method == "HEAD"),
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain; charset=utf-8",
            b"not found\n",
            method == "HEAD",
        ),
    }
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    head_only: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(port: u16, request: &str) -> String {
        let mut stream =
            TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap_or_else(|e| panic!("{e}"));
        stream
            .write_all(request.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        let mut out = String::new();
        let _ = stream.read_to_string(&mut out);
        out
    }

    #[test]
    fn serves_the_folder_with_browser_mime_types_and_nothing_outside() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let dist = dir.path().join("dist");
        std::fs::create_dir_all(&dist).unwrap_or_else(|e| panic!("{e}"));
        for (name, text) in [
            ("index.html", "<!doctype html>"),
            ("app.js", "export {}"),
            ("x.wasm", "\0asm"),
            ("style.css", "a{}"),
        ] {
            std::fs::write(dist.join(name), text).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(dir.path().join("secret.txt"), "no").unwrap_or_else(|e| panic!("{e}"));
        let root = std::fs::canonicalize(&dist).unwrap_or_else(|e| panic!("{e}"));
        let listener =
            TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
        std::thread::spawn(move || serve(&listener, &root));

        let index = get(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(index.starts_with("HTTP/1.1 200 OK"), "{index}");
        assert!(index.contains("Content-Type: text/html"), "{index}");
        assert!(index.ends_with("<!doctype html>"), "{index}");
        let wasm = get(port, "GET /x.wasm?v=1 HTTP/1.1\r\n\r\n");
        assert!(wasm.contains("Content-Type: application/wasm"), "{wasm}");
        assert!(get(port, "GET /app.js HTTP/1.1\r\n\r\n").contains("text/javascript"));
        assert!(get(port, "GET /style.css HTTP/1.1\r\n\r\n").contains("text/css"));
        let head = get(port, "HEAD /app.js HTTP/1.1\r\n\r\n");
        assert!(
            head.contains("Content-Length: 9") && !head.contains("export"),
            "{head}"
        );
        for escape in ["/../secret.txt", "/%2e%2e/secret.txt", "/nope.js"] {
            let answer = get(port, &format!("GET {escape} HTTP/1.1\r\n\r\n"));
            assert!(answer.starts_with("HTTP/1.1 404"), "{escape}: {answer}");
        }
        assert!(get(port, "POST / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
    }

    #[test]
    fn mime_types_by_extension() {
        assert_eq!(mime(Path::new("a.wasm")), "application/wasm");
        assert!(mime(Path::new("a.js")).starts_with("text/javascript"));
        assert_eq!(mime(Path::new("a.bin")), "application/octet-stream");
    }
}
