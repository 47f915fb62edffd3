//! A static file server on 127.0.0.1 for the pages a workload opens (the local Rust docs).
//!
//! Both browsers load the pages from it, so neither touches the network. One thread accepts,
//! one thread serves each connection (a browser opens a handful); every answer closes its
//! connection, which keeps the server free of keep-alive bookkeeping. GET and HEAD only; paths
//! are percent-decoded and may not climb out of the root (`..` is refused, symlinks are
//! resolved and checked); a folder serves its `index.html`. With a [`StateProbe`], every HTML
//! page gets the probe's script and the server takes its reports.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::error::BenchError;
use crate::state_probe::{StateProbe, STATE_PATH};

/// Longest request head read (request line and headers); a larger one is refused.
const MAX_HEAD_BYTES: usize = 16 * 1024;

/// A client that sends nothing for this long is dropped.
const IO_TIMEOUT: Duration = Duration::from_secs(10);

/// A running server; it stops when dropped.
#[derive(Debug)]
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
    /// The paths of the HTML pages served, in order: what the browsers really loaded.
    pages: Arc<Mutex<Vec<String>>>,
    /// The app state its pages reported, when they carry the probe.
    probe: Option<StateProbe>,
}

impl StaticServer {
    /// Serves the files under `root` on 127.0.0.1, on a port the system picks.
    pub fn start(root: impl Into<PathBuf>) -> Result<StaticServer, BenchError> {
        StaticServer::start_with(root, None)
    }

    /// As [`StaticServer::start`]; with `probe`, the pages report the app's state to it.
    pub fn start_with(
        root: impl Into<PathBuf>,
        probe: Option<StateProbe>,
    ) -> Result<StaticServer, BenchError> {
        let root = root.into();
        // Canonical once, so the containment check below compares like with like.
        let root = Arc::new(root.canonicalize().map_err(BenchError::Serve)?);
        let listener = TcpListener::bind("127.0.0.1:0").map_err(BenchError::Serve)?;
        let addr = listener.local_addr().map_err(BenchError::Serve)?;
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let pages = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&pages);
        let conn_probe = probe.clone();
        let accept = std::thread::Builder::new()
            .name("static-accept".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if stop_flag.load(Ordering::Acquire) {
                        break;
                    }
                    // A failed accept (the client gave up) concerns that client only.
                    let Ok(stream) = stream else { continue };
                    let root = Arc::clone(&root);
                    let log = Arc::clone(&log);
                    let probe = conn_probe.clone();
                    let _ = std::thread::Builder::new()
                        .name("static-conn".into())
                        .spawn(move || handle(stream, &root, &log, probe.as_ref()));
                }
            })
            .map_err(BenchError::Serve)?;
        Ok(StaticServer { addr, stop, accept: Some(accept), pages, probe })
    }

    /// The paths (as requested, query included) of the HTML pages served so far, in order.
    pub fn pages_served(&self) -> Vec<String> {
        self.pages.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The app state the pages last reported (with a probe).
    pub fn app_state(&self) -> Option<serde_json::Value> {
        self.probe.as_ref()?.latest()
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The URL of `path` (relative to the root, with or without a leading `/`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}/{}", self.addr, path.trim_start_matches('/'))
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        // The accept loop blocks in accept(): one connection wakes it to see the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

/// Answers one request on `stream`. I/O errors end the connection: the client went away.
fn handle(stream: TcpStream, root: &Path, log: &Mutex<Vec<String>>, probe: Option<&StateProbe>) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let Ok(read_half) = stream.try_clone() else { return };
    let mut reader = BufReader::new(read_half.take(MAX_HEAD_BYTES as u64));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    // Read the headers to their blank line; none of them changes the answer.
    let mut complete = false;
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => break,
            Ok(_) if header == "\r\n" || header == "\n" => {
                complete = true;
                break;
            }
            Ok(_) => {}
        }
    }
    let mut stream = stream;
    let target = request_line.split_whitespace().nth(1).unwrap_or("");
    if let (Some(probe), Some(query)) =
        (probe, target.strip_prefix(STATE_PATH).and_then(|t| t.strip_prefix('?')))
    {
        if let Some(json) = percent_decode(query) {
            probe.record(json);
        }
        let _ = Answer::status(200, "OK").write_to(&mut stream);
        return;
    }
    let mut answer = if complete { answer(&request_line, root) } else { Answer::status(400, "Bad Request") };
    if answer.status == 200 && answer.content_type.starts_with("text/html") && !answer.head_only {
        log.lock().unwrap_or_else(PoisonError::into_inner).push(target.to_string());
        if probe.is_some() {
            answer.body = StateProbe::inject(&answer.body);
        }
    }
    let _ = answer.write_to(&mut stream);
}

/// A response about to be written.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    reason: &'static str,
    content_type: &'static str,
    body: Vec<u8>,
    /// HEAD: the headers of the GET answer, no body.
    head_only: bool,
}

impl Answer {
    fn status(status: u16, reason: &'static str) -> Answer {
        let body = format!("{status} {reason}\n").into_bytes();
        Answer { status, reason, content_type: "text/plain; charset=utf-8", body, head_only: false }
    }

    /// `no-cache`: every load asks the server again (no arm is served another's copy), as
    /// static hosting of docs lets a browser keep a page it leaves in its back-forward cache
    /// (`no-store` forbids that, and static hosting does not send it).
    fn write_to(&self, w: &mut impl Write) -> std::io::Result<()> {
        let head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\n\
             Connection: close\r\n\r\n",
            self.status,
            self.reason,
            self.content_type,
            self.body.len()
        );
        w.write_all(head.as_bytes())?;
        if !self.head_only {
            w.write_all(&self.body)?;
        }
        w.flush()
    }
}

/// The answer to `request_line` (`GET /path HTTP/1.1`) for files under `root`.
fn answer(request_line: &str, root: &Path) -> Answer {
    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return Answer::status(400, "Bad Request");
    };
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        _ => return Answer::status(405, "Method Not Allowed"),
    };
    let Some(file) = resolve(root, target) else { return Answer::status(404, "Not Found") };
    match std::fs::read(&file) {
        Ok(body) => Answer { status: 200, reason: "OK", content_type: content_type(&file), body, head_only },
        Err(_) => Answer::status(404, "Not Found"),
    }
}

/// The file a request target names under `root`, if it is a file inside it.
fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
    let mut file = root.to_path_buf();
    for component in Path::new(decoded.trim_start_matches('/')).components() {
        match component {
            Component::Normal(c) => file.push(c),
            Component::CurDir => {}
            // `..`, a root or a prefix inside the path: nothing to serve outside the root.
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let real = file.canonicalize().ok()?;
    (real.starts_with(root) && real.is_file()).then_some(real)
}

/// `%XX` escapes decoded; `None` for a bad escape or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The content type of a file, by extension: the types the Rust docs use, then a default.
fn content_type(file: &Path) -> &'static str {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "txt" | "md" => "text/plain; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A throwaway folder with a page, a stylesheet and a subfolder.
    fn site() -> PathBuf {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "axsnap-bench-serve-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>home</p>").unwrap();
        std::fs::write(dir.join("a b.css"), "p{}").unwrap();
        std::fs::write(dir.join("sub/index.html"), "<p>sub</p>").unwrap();
        dir
    }

    fn get(server: &StaticServer, request: &str) -> String {
        let mut s = TcpStream::connect(server.addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn serves_files_with_their_types() {
        let root = site();
        let server = StaticServer::start(&root).unwrap();
        let r = get(&server, "GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert!(r.contains("Content-Type: text/html; charset=utf-8\r\n"), "{r}");
        assert!(r.contains("Content-Length: 11\r\n") && r.ends_with("<p>home</p>"), "{r}");
        let r = get(&server, "GET /a%20b.css?v=1 HTTP/1.1\r\n\r\n");
        assert!(r.contains("200 OK") && r.contains("text/css") && r.ends_with("p{}"), "{r}");
        let r = get(&server, "GET /sub/ HTTP/1.1\r\n\r\n");
        assert!(r.ends_with("<p>sub</p>"), "{r}");
        assert_eq!(server.url("/sub/x.html"), format!("http://127.0.0.1:{}/sub/x.html", server.port()));
        drop(server);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn refuses_what_it_should() {
        let root = site();
        let server = StaticServer::start(&root).unwrap();
        assert!(get(&server, "GET /missing.html HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(get(&server, "GET /../etc/passwd HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(get(&server, "GET /sub/%2e%2e/%2e%2e/x HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(get(&server, "GET /%zz HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(get(&server, "POST /index.html HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
        assert!(get(&server, "GARBAGE\r\n\r\n").starts_with("HTTP/1.1 400"));
        let head = get(&server, "HEAD /index.html HTTP/1.1\r\n\r\n");
        assert!(head.contains("Content-Length: 11\r\n") && head.ends_with("\r\n\r\n"), "{head}");
        drop(server);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_probed_site_reports_its_state() {
        let root = site();
        let probe = StateProbe::default();
        let server = StaticServer::start_with(&root, Some(probe.clone())).unwrap();
        let page = get(&server, "GET /index.html HTTP/1.1\r\n\r\n");
        assert!(page.contains("<script>") && page.ends_with("<p>home</p>"), "{page}");
        let r = get(&server, "GET /__bench/state?%7B%22k%22%3A%22v%22%7D HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(r.starts_with("HTTP/1.1 200 OK\r\n"), "{r}");
        assert_eq!(server.app_state(), Some(serde_json::json!({"k": "v"})));
        assert_eq!(server.pages_served(), ["/index.html"], "a report is not a page");
        drop(server);
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn types_by_extension() {
        assert_eq!(content_type(Path::new("x.WOFF2")), "font/woff2");
        assert_eq!(content_type(Path::new("x.js")), "text/javascript; charset=utf-8");
        assert_eq!(content_type(Path::new("x")), "application/octet-stream");
    }
}
