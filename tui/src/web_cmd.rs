//! `fencelab web`: serves the browser page on 127.0.0.1 only — the page
//! built into the binary (`web/dist/` as `cargo xtask web` left it when
//! fencelab was built, see `build.rs`), or a folder named with `--dir`. A
//! few static files, so a small std server is enough: one thread per
//! connection, GET and HEAD, the MIME types a browser insists on
//! (`application/wasm` for streaming compilation, `text/javascript` for
//! modules), nothing outside the page.
//!
//! A page elsewhere cannot read it through DNS rebinding (its name made to
//! resolve to 127.0.0.1): a request is answered only when its `Host` is
//! this server's own (`127.0.0.1`, `localhost` or `[::1]` with the served
//! port), else 403; and no path segment starting with `.` is ever served
//! (dotfiles such as `.ssh/` or `.git/` in a `--dir` folder), 404.
//!
//! Slow or idle clients cannot starve it: at most [`MAX_CONNECTIONS`] are
//! served at once (more wait in the kernel's backlog, holding none of our
//! file descriptors), and a request head must arrive whole within
//! [`HEAD_DEADLINE`] — a deadline over the whole head, not per read, so a
//! client trickling one header line a second is still dropped.
//!
//! Text, scripts and the wasm module go out gzip-compressed to a client
//! that accepts it (`Accept-Encoding`; every browser does): the page's
//! first load shrinks from about 1.2 MB to about a third. The embedded
//! page is compressed once per file and kept; a `--dir` folder's files are
//! compressed as they are asked for (they may change while served), up to
//! [`MAX_GZIP_BYTES`]; anything larger goes out as it is.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use sim_core::Lang;

use crate::report::EXIT_BAD_INPUT;

/// The longest request head read before giving up on a client.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// Connections served at once. Each holds one file descriptor, so this
/// stays far below the usual limit of 1,024 while leaving room for a
/// browser's handful of parallel requests many times over.
pub(crate) const MAX_CONNECTIONS: usize = 256;

/// The time a client has to send its whole request head.
pub(crate) const HEAD_DEADLINE: Duration = Duration::from_secs(5);

/// The time a client has to take each part of the answer.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest folder file compressed in memory before it is sent (the
/// page's largest, the wasm module, is about 1 MB).
const MAX_GZIP_BYTES: u64 = 16 << 20;

#[allow(clippy::print_stderr)]
fn say(line: &str) {
    eprintln!("{line}");
}

/// The files `fencelab web` serves.
#[derive(Debug)]
pub(crate) enum Site {
    /// A folder on disk (canonical, so that a request resolving outside it
    /// is seen to).
    Folder(PathBuf),
    /// Files in memory: (path below the page's root, bytes), as `build.rs`
    /// embeds them.
    Embedded(&'static [(&'static str, &'static [u8])]),
}

impl Site {
    /// The bytes a request target names, and the name that sets their
    /// Content-Type; `None` for anything outside the page.
    fn file(&self, target: &str) -> Option<(PathBuf, Body)> {
        let relative = request_path(target)?;
        match self {
            Site::Folder(root) => {
                let file = resolve(root, &relative)?;
                let opened = std::fs::File::open(&file).ok()?;
                let length = opened.metadata().ok()?.len();
                Some((file, Body::File(opened, length)))
            }
            Site::Embedded(files) => files
                .iter()
                .find(|(name, _)| *name == relative)
                .map(|(name, bytes)| (PathBuf::from(name), Body::Bytes(bytes))),
        }
    }
}

/// What an answer carries.
pub(crate) enum Body {
    Bytes(&'static [u8]),
    /// Compressed bytes, shared with the cache of the embedded page.
    Gzipped(Arc<Vec<u8>>),
    /// A file of the folder, streamed (never read whole into memory, so a
    /// large file costs a copy buffer per connection, not its size), and
    /// its length.
    File(std::fs::File, u64),
}

/// The page to serve: the folder `dir` names, else the embedded page.
/// Without either, what to do about it, in `lang`.
fn site(dir: Option<PathBuf>, lang: Lang) -> Result<Site, String> {
    match dir {
        Some(dir) if dir.join("index.html").is_file() => Ok(Site::Folder(
            std::fs::canonicalize(&dir).unwrap_or(dir),
        )),
        // A folder that is not there is said so, in the words every
        // reader uses; a folder without the page says how to build it.
        Some(dir) => Err(
            match crate::input::folder_problem(&dir, lang.pick("the page's folder", "网页文件夹"), lang) {
                Some(problem) => format!("{}: {problem}", dir.display()),
                None => format!(
                    "{}: {}",
                    dir.display(),
                    lang.pick(
                        "no index.html here (`cargo xtask web` builds the page into web/dist)",
                        "这里没有 index.html（`cargo xtask web` 会把网页构建到 web/dist）",
                    )
                ),
            },
        ),
        None => crate::embedded::PAGE.map(Site::Embedded).ok_or_else(|| {
            lang.pick(
                "fencelab web: this fencelab was built without the page. Build the page with\n\n    cargo xtask web\n\nthen rebuild fencelab (`cargo install --path tui`, or `cargo build`).",
                "fencelab web：这个 fencelab 构建时还没有网页。先用\n\n    cargo xtask web\n\n构建网页，再重新构建 fencelab（`cargo install --path tui` 或 `cargo build`）。",
            )
            .to_owned()
        }),
    }
}

pub(crate) fn web_command(port: u16, open: bool, dir: Option<PathBuf>, lang: Lang) -> ExitCode {
    let site = match site(dir, lang) {
        Ok(site) => site,
        Err(message) => {
            say(&message);
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, port)) {
        Ok(listener) => listener,
        Err(error) => {
            // A port in use (or not ours to take) is a bad argument.
            let why = match lang {
                Lang::En => error.to_string(),
                Lang::Zh => crate::report::io_error_zh(&error),
            };
            say(&format!(
                "fencelab web: {} 127.0.0.1:{port}: {why} ({} --port N)",
                lang.pick("cannot listen on", "无法监听"),
                lang.pick("try", "试试"),
            ));
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    let port = listener.local_addr().map_or(port, |a| a.port());
    let url = format!("http://127.0.0.1:{port}/");
    let what = match &site {
        Site::Folder(root) => root.display().to_string(),
        Site::Embedded(_) => lang.pick("the built-in page", "内置网页").to_owned(),
    };
    say(&format!(
        "fencelab web: {} {what} {} {url} ({})",
        lang.pick("serving", "正在提供"),
        lang.pick("at", "于"),
        lang.pick(
            "127.0.0.1 only; Ctrl-C stops",
            "仅限 127.0.0.1；Ctrl-C 停止"
        ),
    ));
    if open {
        open_browser(&url, lang);
    }
    serve(&listener, site);
    ExitCode::SUCCESS
}

fn open_browser(url: &str, lang: Lang) {
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
        say(&format!(
            "fencelab web: {}",
            lang.pick("open {url} in your browser", "请在浏览器中打开 {url}")
                .replace("{url}", url)
        ));
    }
}

/// How many connections are being served, and a signal when one ends.
#[derive(Default)]
struct Slots {
    busy: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    /// Waits until fewer than [`MAX_CONNECTIONS`] are busy, then takes one.
    fn take(&self) {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        while *busy >= MAX_CONNECTIONS {
            busy = self
                .freed
                .wait(busy)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *busy += 1;
    }

    fn give_back(&self) {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        *busy = busy.saturating_sub(1);
        self.freed.notify_one();
    }
}

/// Answers connections until the listener fails.
pub(crate) fn serve(listener: &TcpListener, site: Site) {
    let port = listener.local_addr().map_or(0, |address| address.port());
    let site = Arc::new(site);
    let slots = Arc::new(Slots::default());
    let gzipped = Arc::new(GzipCache::default());
    loop {
        // Take a slot before accepting, so that past the cap new clients
        // wait in the backlog rather than in our descriptor table.
        slots.take();
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(_) => {
                slots.give_back();
                // A full descriptor table or a reset client: try again
                // shortly rather than spin or stop serving.
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        let (site, slots, gzipped) = (Arc::clone(&site), Arc::clone(&slots), Arc::clone(&gzipped));
        let spawned = std::thread::Builder::new().spawn({
            let slots = Arc::clone(&slots);
            move || {
                let _ = handle(stream, &site, port, &gzipped);
                slots.give_back();
            }
        });
        if spawned.is_err() {
            slots.give_back();
        }
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
        // Markdown as text: a browser shows it rather than download it.
        "txt" | "toml" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The path below the page's root that a request target names
/// (`index.html` for a folder), or `None` for anything that could step
/// outside it or is hidden: a segment starting with `.` (`..`, `.ssh`,
/// `.git`), a backslash, or a percent-encoding.
pub(crate) fn request_path(target: &str) -> Option<String> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let mut parts = Vec::new();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        if part.starts_with('.') || part.contains('\\') || part.contains('%') {
            return None;
        }
        parts.push(part);
    }
    if path.ends_with('/') || path.is_empty() {
        parts.push("index.html");
    }
    Some(parts.join("/"))
}

/// The file `relative` names in the folder `root`, if it is inside it
/// (after links are followed).
fn resolve(root: &Path, relative: &str) -> Option<PathBuf> {
    let file = std::fs::canonicalize(root.join(relative)).ok()?;
    (file.starts_with(root) && file.is_file()).then_some(file)
}

/// Reads a request head (up to the blank line) within [`HEAD_DEADLINE`]
/// and [`MAX_HEAD_BYTES`]; `None` when the client is too slow, too long-
/// winded or gone.
fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let deadline = Instant::now() + HEAD_DEADLINE;
    let mut head = Vec::new();
    let mut chunk = [0_u8; 2048];
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        if left.is_zero() {
            return None;
        }
        stream.set_read_timeout(Some(left)).ok()?;
        let read = stream.read(&mut chunk).ok()?;
        if read == 0 {
            // The client finished sending: whatever came is the head.
            return Some(head);
        }
        head.extend_from_slice(chunk.get(..read)?);
        if head.windows(4).any(|w| w == b"\r\n\r\n") || head.windows(2).any(|w| w == b"\n\n") {
            return Some(head);
        }
        if head.len() > MAX_HEAD_BYTES {
            return None;
        }
    }
}

/// Whether the request head names this server as its one `Host`: an
/// address of this machine with the served port (a browser leaves the port
/// out only for port 80).
pub(crate) fn own_host(head: &[u8], port: u16) -> bool {
    let text = String::from_utf8_lossy(head);
    let mut hosts = text.lines().skip(1).filter_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("host")
            .then_some(value.trim())
    });
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return false;
    };
    ["127.0.0.1", "localhost", "[::1]"].iter().any(|name| {
        host.eq_ignore_ascii_case(&format!("{name}:{port}"))
            || (port == 80 && host.eq_ignore_ascii_case(name))
    })
}

/// Whether the request head says the client takes gzip: `gzip` (or `*`)
/// in `Accept-Encoding` with a quality above zero.
pub(crate) fn accepts_gzip(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    text.lines()
        .skip(1)
        .filter_map(|line| line.split_once(':'))
        .filter(|(name, _)| name.trim().eq_ignore_ascii_case("accept-encoding"))
        .flat_map(|(_, value)| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or_default().trim();
            let quality = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (name.eq_ignore_ascii_case("gzip") || name == "*") && quality > 0.0
        })
}

/// Whether a file of this Content-Type gains from compression (images
/// other than SVG are compressed already).
fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || ["application/wasm", "application/json", "image/svg+xml"].contains(&content_type)
}

fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes)?;
    encoder.finish()
}

/// The embedded page's files, compressed once each.
#[derive(Default)]
pub(crate) struct GzipCache(Mutex<std::collections::HashMap<usize, Arc<Vec<u8>>>>);

impl GzipCache {
    /// `body` compressed: from the cache for the embedded page (keyed by
    /// the bytes' address, which `build.rs` fixes for the process's life),
    /// read and compressed for a folder's file; `None` when it cannot be
    /// (too large, or unreadable now: then it is sent as it is).
    fn compress(&self, body: &mut Body) -> Option<Arc<Vec<u8>>> {
        match body {
            Body::Bytes(bytes) => {
                let key = bytes.as_ptr() as usize;
                if let Some(done) = self
                    .0
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get(&key)
                {
                    return Some(Arc::clone(done));
                }
                let done = Arc::new(gzip(bytes).ok()?);
                self.0
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(key, Arc::clone(&done));
                Some(done)
            }
            Body::File(file, length) if *length <= MAX_GZIP_BYTES => {
                let mut bytes = Vec::new();
                file.take(*length).read_to_end(&mut bytes).ok()?;
                Some(Arc::new(gzip(&bytes).ok()?))
            }
            Body::File(..) | Body::Gzipped(_) => None,
        }
    }
}

fn handle(
    mut stream: TcpStream,
    site: &Site,
    port: u16,
    gzipped: &GzipCache,
) -> std::io::Result<()> {
    let Some(head) = read_head(&mut stream) else {
        return Ok(());
    };
    stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
    let mut request_line = String::new();
    BufReader::new(head.as_slice()).read_line(&mut request_line)?;
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    if !own_host(&head, port) {
        return respond(
            &mut stream,
            "403 Forbidden",
            "text/plain; charset=utf-8",
            Body::Bytes(b"this server answers only its own address: 127.0.0.1, localhost or [::1] with its port\n"),
            method == "HEAD",
        );
    }
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            Body::Bytes(b"GET or HEAD only\n"),
            method == "HEAD",
        );
    }
    match site.file(target) {
        Some((file, mut body)) => {
            let content_type = mime(&file);
            if compressible(content_type) && accepts_gzip(&head) {
                if let Some(compressed) = gzipped.compress(&mut body) {
                    body = Body::Gzipped(compressed);
                } else if let Body::File(..) = body {
                    // The file was read past its start for nothing: open it again.
                    match site.file(target) {
                        Some((_, again)) => body = again,
                        None => return Ok(()),
                    }
                }
            }
            respond(&mut stream, "200 OK", content_type, body, method == "HEAD")
        }
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain; charset=utf-8",
            Body::Bytes(b"not found\n"),
            method == "HEAD",
        ),
    }
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: Body,
    head_only: bool,
) -> std::io::Result<()> {
    let length = match &body {
        Body::Bytes(bytes) => bytes.len() as u64,
        Body::Gzipped(bytes) => bytes.len() as u64,
        Body::File(_, length) => *length,
    };
    // Caches must not hand a compressed answer to a client that did not
    // ask for one, nor the other way round.
    let encoding = match (&body, compressible(content_type)) {
        (Body::Gzipped(_), _) => "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n",
        (_, true) => "Vary: Accept-Encoding\r\n",
        (_, false) => "",
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n{encoding}Content-Length: {length}\r\nCache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(head.as_bytes())?;
    if !head_only {
        match body {
            Body::Bytes(bytes) => stream.write_all(bytes)?,
            Body::Gzipped(bytes) => stream.write_all(&bytes)?,
            // At most the length announced, should the file grow meanwhile.
            Body::File(file, length) => {
                std::io::copy(&mut file.take(length), stream)?;
            }
        }
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sends `request` with this server's own Host (as a browser on the
    /// page sends it) after its first line; the whole answer.
    fn get(port: u16, request: &str) -> String {
        let request = request.replacen("\r\n", &format!("\r\nHost: 127.0.0.1:{port}\r\n"), 1);
        let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        let _ = stream.read_to_string(&mut out);
        out
    }

    #[test]
    fn serves_the_folder_with_browser_mime_types_and_nothing_outside() {
        let dir = tempfile::tempdir().unwrap();
        let dist = dir.path().join("dist");
        std::fs::create_dir_all(&dist).unwrap();
        for (name, text) in [
            ("index.html", "<!doctype html>"),
            ("app.js", "export {}"),
            ("x.wasm", "\0asm"),
            ("style.css", "a{}"),
        ] {
            std::fs::write(dist.join(name), text).unwrap();
        }
        // Larger than any copy buffer: streamed whole, its length announced.
        std::fs::write(dist.join("big.txt"), "a".repeat(3 << 20)).unwrap();
        std::fs::write(dir.path().join("secret.txt"), "no").unwrap();
        let root = std::fs::canonicalize(&dist).unwrap();
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
        std::thread::spawn(move || serve(&listener, Site::Folder(root)));

        let index = get(port, "GET / HTTP/1.1\r\n\r\n");
        assert!(index.starts_with("HTTP/1.1 200 OK"), "{index}");
        assert!(index.contains("Content-Type: text/html"), "{index}");
        assert!(index.ends_with("<!doctype html>"), "{index}");
        let big = get(port, "GET /big.txt HTTP/1.1\r\n\r\n");
        assert!(
            big.contains("Content-Length: 3145728\r\n"),
            "{}",
            &big[..200]
        );
        assert!(big.ends_with(&"a".repeat(3 << 20)));
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

    /// A page in memory, as `build.rs` embeds one.
    const PAGE: &[(&str, &[u8])] = &[
        (".hidden", b"never served"),
        ("app.js", b"export {}"),
        ("index.html", b"<!doctype html>"),
        ("snippets/x/inline0.js", b"export const a = 1;"),
        ("x.wasm", b"\0asm"),
    ];

    #[test]
    fn serves_the_embedded_page_from_memory_with_the_same_rules() {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
        std::thread::spawn(move || serve(&listener, Site::Embedded(PAGE)));

        let index = get(port, "GET /?lang=zh HTTP/1.1\r\n\r\n");
        assert!(index.starts_with("HTTP/1.1 200 OK"), "{index}");
        assert!(index.contains("Content-Type: text/html"), "{index}");
        assert!(index.ends_with("<!doctype html>"), "{index}");
        let wasm = get(port, "GET /x.wasm HTTP/1.1\r\n\r\n");
        assert!(wasm.contains("Content-Type: application/wasm"), "{wasm}");
        assert!(wasm.ends_with("\0asm"), "{wasm}");
        let nested = get(port, "GET /snippets/x/inline0.js HTTP/1.1\r\n\r\n");
        assert!(nested.contains("text/javascript"), "{nested}");
        let head = get(port, "HEAD /app.js HTTP/1.1\r\n\r\n");
        assert!(
            head.contains("Content-Length: 9") && !head.contains("export"),
            "{head}"
        );
        for wrong in [
            "/../index.html",
            "/%2e%2e/x",
            "/snippets/./x/inline0.js",
            "/nope.js",
            "/snippets/",
            "/.hidden",
        ] {
            let answer = get(port, &format!("GET {wrong} HTTP/1.1\r\n\r\n"));
            assert!(answer.starts_with("HTTP/1.1 404"), "{wrong}: {answer}");
        }
        assert!(get(port, "PUT / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
    }

    /// Sends a request and returns the raw answer: head text and body bytes.
    fn get_bytes(port: u16, request: &str) -> (String, Vec<u8>) {
        let request = request.replacen("\r\n", &format!("\r\nHost: 127.0.0.1:{port}\r\n"), 1);
        let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port)).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut out = Vec::new();
        let _ = stream.read_to_end(&mut out);
        let split = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        let body = out.split_off(split);
        (String::from_utf8_lossy(&out).into_owned(), body)
    }

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn the_accept_encoding_header_is_read_with_its_qualities() {
        let head = |value: &str| format!("GET / HTTP/1.1\r\nAccept-Encoding: {value}\r\n\r\n");
        for (value, gzip) in [
            ("gzip, deflate, br, zstd", true),
            ("br;q=1.0, GZIP;q=0.5", true),
            ("*", true),
            ("gzip;q=0", false),
            ("deflate, br", false),
            ("identity", false),
            ("", false),
        ] {
            assert_eq!(accepts_gzip(head(value).as_bytes()), gzip, "{value:?}");
        }
        assert!(!accepts_gzip(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    }

    #[test]
    fn text_and_wasm_go_out_compressed_to_a_client_that_takes_gzip() {
        // A page large enough to gain from compression.
        let script = "export const words = 'fence';\n".repeat(4000);
        let page: &'static [(&'static str, &'static [u8])] = Box::leak(Box::new([
            (
                "app.js",
                &*Box::leak(script.clone().into_bytes().into_boxed_slice()),
            ),
            ("icon.png", b"\x89PNG not compressed again".as_slice()),
        ]));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>".repeat(3000)).unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for site in [Site::Embedded(page), Site::Folder(root)] {
            let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
            let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
            let (path, plain) = match &site {
                Site::Embedded(_) => ("/app.js", script.clone().into_bytes()),
                Site::Folder(_) => ("/", "<p>".repeat(3000).into_bytes()),
            };
            std::thread::spawn(move || serve(&listener, site));
            for _ in 0..2 {
                // Twice: the second answer may come from the cache.
                let (head, body) = get_bytes(
                    port,
                    &format!("GET {path} HTTP/1.1\r\nAccept-Encoding: gzip, br\r\n\r\n"),
                );
                assert!(head.contains("Content-Encoding: gzip\r\n"), "{head}");
                assert!(head.contains("Vary: Accept-Encoding\r\n"), "{head}");
                assert!(
                    head.contains(&format!("Content-Length: {}\r\n", body.len())),
                    "{head}"
                );
                assert!(
                    body.len() * 10 < plain.len(),
                    "{} of {}",
                    body.len(),
                    plain.len()
                );
                assert_eq!(gunzip(&body), plain);
            }
            let (head, body) = get_bytes(port, &format!("GET {path} HTTP/1.1\r\n\r\n"));
            assert!(!head.contains("Content-Encoding"), "{head}");
            assert!(head.contains("Vary: Accept-Encoding\r\n"), "{head}");
            assert_eq!(body, plain);
            let (head, body) = get_bytes(
                port,
                &format!("HEAD {path} HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n"),
            );
            assert!(
                head.contains("Content-Encoding: gzip\r\n") && body.is_empty(),
                "{head}"
            );
            if path == "/app.js" {
                let (head, body) = get_bytes(
                    port,
                    "GET /icon.png HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\n",
                );
                assert!(
                    !head.contains("Content-Encoding") && !head.contains("Vary"),
                    "{head}"
                );
                assert!(body.starts_with(b"\x89PNG"));
            }
        }
    }

    #[test]
    fn without_a_folder_the_built_in_page_or_how_to_build_it() {
        match (crate::embedded::PAGE, site(None, Lang::En)) {
            (Some(files), Ok(Site::Embedded(served))) => {
                assert_eq!(files.len(), served.len());
                assert!(served.iter().any(|(name, _)| *name == "index.html"));
            }
            (None, Err(message)) => {
                assert!(message.contains("cargo xtask web"), "{message}");
                let zh = site(None, Lang::Zh).err().unwrap_or_default();
                assert!(
                    zh.contains("构建") && zh.contains("cargo xtask web"),
                    "{zh}"
                );
            }
            (page, answer) => panic!("built with a page: {}; answered {answer:?}", page.is_some()),
        }
        let empty = tempfile::tempdir().unwrap();
        let answer = site(Some(empty.path().to_path_buf()), Lang::En);
        assert!(
            answer.as_ref().is_err_and(|m| m.contains("no index.html")),
            "{answer:?}"
        );
    }

    /// DNS rebinding: only this server's own Host is answered, once.
    #[test]
    fn only_the_servers_own_host_is_answered() {
        let head = |host: &str| format!("GET / HTTP/1.1\r\nAccept: */*\r\n{host}\r\n");
        for own in [
            "Host: 127.0.0.1:8000",
            "host:localhost:8000",
            "HOST:  LOCALHOST:8000 ",
            "Host: [::1]:8000",
        ] {
            assert!(own_host(head(own).as_bytes(), 8000), "{own}");
        }
        for foreign in [
            "Host: attacker.example:8000",
            "Host: 127.0.0.1",
            "Host: 127.0.0.1:8001",
            "Host: localhost.attacker.example:8000",
            "X-Host: 127.0.0.1:8000",
            "Host: 127.0.0.1:8000\r\nHost: attacker.example",
        ] {
            assert!(!own_host(head(foreign).as_bytes(), 8000), "{foreign}");
        }
        assert!(own_host(head("Host: localhost").as_bytes(), 80));
    }

    #[test]
    fn mime_types_by_extension() {
        assert_eq!(mime(Path::new("a.wasm")), "application/wasm");
        assert!(mime(Path::new("a.js")).starts_with("text/javascript"));
        assert_eq!(mime(Path::new("a.bin")), "application/octet-stream");
        assert!(mime(Path::new("scenario-format.md")).starts_with("text/plain"));
    }
}
