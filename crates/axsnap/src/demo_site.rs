//! The demo shop, bundled into the binary and served on 127.0.0.1.

use std::sync::Arc;

use anyhow::Context;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

const FILES: &[(&str, &str, &str)] = &[
    ("/index.html", "text/html; charset=utf-8", include_str!("../demo-site/index.html")),
    ("/boots.html", "text/html; charset=utf-8", include_str!("../demo-site/boots.html")),
    ("/jackets.html", "text/html; charset=utf-8", include_str!("../demo-site/jackets.html")),
    ("/help.html", "text/html; charset=utf-8", include_str!("../demo-site/help.html")),
    ("/cart.html", "text/html; charset=utf-8", include_str!("../demo-site/cart.html")),
    ("/chrome.js", "text/javascript; charset=utf-8", include_str!("../demo-site/chrome.js")),
    ("/logo.svg", "image/svg+xml", include_str!("../demo-site/logo.svg")),
];

/// A running demo site; stops when dropped.
pub struct DemoSite {
    base: String,
    task: JoinHandle<()>,
}

impl DemoSite {
    /// Serves the site on an ephemeral loopback port.
    pub async fn start() -> anyhow::Result<DemoSite> {
        let listener = TcpListener::bind("127.0.0.1:0").await.context("cannot listen on 127.0.0.1")?;
        let addr = listener.local_addr()?;
        let files = Arc::new(FILES);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let files = Arc::clone(&files);
                tokio::spawn(async move {
                    // A client that hangs up mid-request is not our problem.
                    let _ = serve(stream, &files).await;
                });
            }
        });
        Ok(DemoSite { base: format!("http://{addr}"), task })
    }

    /// The URL of `path` on the site.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for DemoSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(mut stream: TcpStream, files: &[(&str, &str, &str)]) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 64 * 1024 {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let path = head.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let path = if path == "/" { "/index.html" } else { path };
    let (status, ctype, body) = match files.iter().find(|(p, _, _)| *p == path) {
        Some((_, ctype, body)) => ("200 OK", *ctype, *body),
        None => ("404 Not Found", "text/plain; charset=utf-8", "not found"),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}
