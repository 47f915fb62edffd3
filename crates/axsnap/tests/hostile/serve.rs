//! A tiny static file server on 127.0.0.1 for the hostile pages: one thread per connection,
//! files from one directory, and `/hang/...`, which never answers (a request the network
//! leaves pending: the connection is held open, silent, for [`HANG`]).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a `/hang/` request is held without an answer: longer than any case may run.
const HANG: Duration = Duration::from_secs(120);

/// A server on an ephemeral loopback port; it lives until the test process exits.
pub struct Server {
    port: u16,
}

impl Server {
    /// Serves the files under `root`.
    pub fn start(root: PathBuf) -> std::io::Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = root.clone();
                std::thread::spawn(move || {
                    let _ = serve(stream, &root);
                });
            }
        });
        Ok(Server { port })
    }

    /// `http://127.0.0.1:PORT/path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{}", self.port, path.trim_start_matches('/'))
    }
}

fn serve(mut stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
    }
    let target = line.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/").trim_start_matches('/');
    if path.starts_with("hang/") {
        std::thread::sleep(HANG);
        return Ok(());
    }
    let file = (!path.split('/').any(|s| s == "..")).then(|| root.join(path));
    let mut body = Vec::new();
    let found = file
        .as_ref()
        .is_some_and(|f| std::fs::File::open(f).and_then(|mut f| f.read_to_end(&mut body)).is_ok());
    let (status, ctype) = match (found, path.rsplit('.').next()) {
        (false, _) => ("404 Not Found", "text/html"),
        (true, Some("html")) => ("200 OK", "text/html; charset=utf-8"),
        (true, Some("json")) => ("200 OK", "application/json"),
        (true, _) => ("200 OK", "text/plain; charset=utf-8"),
    };
    if !found {
        body = b"<h1>not found</h1>".to_vec();
    }
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)
}
