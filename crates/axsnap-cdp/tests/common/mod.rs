//! Test support: a tiny static HTTP server on 127.0.0.1 and one shared headless browser per
//! test binary.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use axsnap_cdp::{Browser, LaunchOptions};

/// The fixture pages.
pub fn pages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pages")
}

/// A static file server on an ephemeral loopback port; lives until the process exits.
#[derive(Clone, Debug)]
pub struct Server {
    /// The port.
    pub port: u16,
}

impl Server {
    /// Serves `tests/pages`.
    pub fn pages() -> Server {
        Server::start(pages_dir())
    }

    /// Serves `root`.
    pub fn start(root: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = root.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &root, port);
                });
            }
        });
        Server { port }
    }

    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{}", self.port, path.trim_start_matches('/'))
    }

    /// `http://localhost:PORT/path`: another site than 127.0.0.1, so an iframe from here is
    /// out-of-process under site isolation.
    pub fn url_other_site(&self, path: &str) -> String {
        format!("http://localhost:{}/{}", self.port, path.trim_start_matches('/'))
    }
}

/// Serves one request. Special paths: `/__download` (an attachment), `/__hang` (never answers),
/// `/__json` (application/json), `/__cookie` (a page that shows the request's cookies and
/// localStorage; `?set=V` sets the cookie `who=V` and the storage item `who`). Query strings are ignored for files; `{{PORT2}}` in an HTML
/// file is replaced by the `port2` query parameter, so a page can point an iframe at a second
/// server.
fn serve(mut stream: TcpStream, root: &Path, _port: u16) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut cookie = String::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((name, value)) = h.split_once(':') {
            if name.eq_ignore_ascii_case("cookie") {
                cookie = value.trim().to_string();
            }
        }
    }
    let target = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let (path, query) = target.split_once('?').unwrap_or((target.as_str(), ""));
    let respond = |s: &mut TcpStream, status: &str, ctype: &str, extra: &str, body: &[u8]| {
        let head = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n{extra}Cache-Control: no-store\r\nConnection: close\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes())?;
        s.write_all(body)
    };
    match path {
        "/__download" => {
            return respond(
                &mut stream,
                "200 OK",
                "application/octet-stream",
                "Content-Disposition: attachment; filename=\"x.bin\"\r\n",
                b"binary",
            )
        }
        "/__json" => return respond(&mut stream, "200 OK", "application/json", "", b"{\"a\":1}"),
        "/__cookie" => {
            let set = query.split('&').find_map(|kv| kv.strip_prefix("set="));
            let header = set.map(|v| format!("Set-Cookie: who={v}; Path=/\r\n")).unwrap_or_default();
            let store = set.map(|v| format!("localStorage.setItem('who', '{v}');")).unwrap_or_default();
            let cookie = if cookie.is_empty() { "none".to_string() } else { cookie };
            let body = format!(
                "<!doctype html><title>Cookie</title><p>cookie: {cookie}</p><p id=storage></p>\
                 <script>{store}document.getElementById('storage').textContent = \
                 'storage: ' + (localStorage.getItem('who') || 'none');</script>"
            );
            return respond(&mut stream, "200 OK", "text/html; charset=utf-8", &header, body.as_bytes());
        }
        "/__hang" => {
            std::thread::sleep(Duration::from_secs(120));
            return Ok(());
        }
        "/__stream" => {
            // An event stream: one event, then open for as long as the page is.
            stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\ndata: hello\n\n",
            )?;
            stream.flush()?;
            std::thread::sleep(Duration::from_secs(120));
            return Ok(());
        }
        _ => {}
    }
    let rel = path.trim_start_matches('/');
    let rel = if rel.is_empty() || rel.ends_with('/') { format!("{rel}index.html") } else { rel.to_string() };
    if rel.split('/').any(|seg| seg == "..") {
        return respond(&mut stream, "403 Forbidden", "text/plain", "", b"forbidden");
    }
    let file = root.join(&rel);
    let mut body = Vec::new();
    match std::fs::File::open(&file).and_then(|mut f| f.read_to_end(&mut body)) {
        Ok(_) => {}
        Err(_) => return respond(&mut stream, "404 Not Found", "text/html", "", b"<h1>not found</h1>"),
    }
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    let ctype = match ext {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css",
        "js" => "text/javascript",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "json" => "application/json",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "txt" => "text/plain",
        _ => "application/octet-stream",
    };
    if ext == "html" {
        if let Some(p2) = query.split('&').find_map(|kv| kv.strip_prefix("port2=")) {
            let text = String::from_utf8_lossy(&body).replace("{{PORT2}}", p2);
            body = text.into_bytes();
        }
    }
    respond(&mut stream, "200 OK", ctype, "", &body)
}

/// The runtime every test of this binary runs on (the shared browser's tasks live here).
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap()
    })
}

/// The browser the tests use. Installs nothing: it must be at /usr/bin/chromium (or on PATH).
pub async fn launch_browser() -> Browser {
    if axsnap_cdp::find_browser(None).is_err() {
        panic!(
            "no Chromium found (/usr/bin/chromium is missing); run the test command from the README, \
             which installs it (apt-get install chromium)"
        );
    }
    let mut b = Browser::launch(LaunchOptions::default()).await.expect("launch the browser");
    register_cleanup(&mut b);
    b
}

/// One browser per test binary, launched on first use and killed when the process exits.
pub async fn browser() -> &'static Browser {
    static B: tokio::sync::OnceCell<Browser> = tokio::sync::OnceCell::const_new();
    B.get_or_init(launch_browser).await
}

/// Runs a test body on the shared runtime.
pub fn run<F: std::future::Future>(f: F) -> F::Output {
    runtime().block_on(f)
}

static CLEANUP: OnceLock<std::sync::Mutex<Vec<(u32, PathBuf)>>> = OnceLock::new();

fn register_cleanup(b: &mut Browser) {
    let (Some(pid), Some(dir)) = (b.pid(), b.profile_dir().map(Path::to_path_buf)) else { return };
    let list = CLEANUP.get_or_init(Default::default);
    let first = list.lock().map(|l| l.is_empty()).unwrap_or(false);
    if let Ok(mut l) = list.lock() {
        l.push((pid, dir));
    }
    if first {
        // Statics are never dropped, so a shared browser would outlive the test process.
        unsafe {
            libc::atexit(kill_browsers);
        }
    }
}

extern "C" fn kill_browsers() {
    if let Some(list) = CLEANUP.get() {
        if let Ok(l) = list.lock() {
            for (pid, dir) in l.iter() {
                unsafe {
                    libc::kill(*pid as libc::pid_t, libc::SIGKILL);
                }
                std::thread::sleep(Duration::from_millis(50));
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
}

/// Test helpers over captured trees.
pub mod find {
    use axsnap_core::{Node, Role, Tree};

    /// The first node (document order) with this role and name.
    pub fn node<'t>(tree: &'t Tree, role: Role, name: &str) -> Option<&'t Node> {
        tree.preorder().map(|(id, _)| tree.node(id)).find(|n| n.role == role && n.name == name)
    }

    /// Like [`node`], panicking with a dump of similar nodes when absent.
    pub fn must<'t>(tree: &'t Tree, role: Role, name: &str) -> &'t Node {
        node(tree, role.clone(), name).unwrap_or_else(|| {
            let same: Vec<String> = tree
                .preorder()
                .map(|(id, _)| tree.node(id))
                .filter(|n| n.role == role || n.name == name)
                .map(|n| format!("{} {:?}", n.role, n.name))
                .collect();
            panic!("no {role} {name:?}; nodes with that role or name: {same:?}")
        })
    }

    /// Whether any node has this name (any role).
    pub fn has_name(tree: &Tree, name: &str) -> bool {
        tree.preorder().any(|(id, _)| tree.node(id).name == name)
    }

    /// Every node serialized, one JSON line each (for "appears nowhere" checks).
    pub fn dump(tree: &Tree) -> String {
        tree.preorder().map(|(id, _)| serde_json::to_string(tree.node(id)).unwrap() + "\n").collect()
    }
}
