//! Capture-time figures, side by side in one run: axsnap's full capture against a raw
//! `Accessibility.getFullAXTree` call on the same page (medians, and the median of each run's
//! own ratio), and the unchanged-page check.
//!
//! ```text
//! cargo run --release -p axsnap-cdp --example figures [RUNS]
//! ```
//!
//! Pages: the local Rust docs that ship with the toolchain (`rustc --print sysroot`), served on
//! 127.0.0.1.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use axsnap_cdp::{capture, changed, Browser, LaunchOptions};
use serde_json::json;

/// The pause before each measured call.
const QUIET: Duration = Duration::from_millis(1000);

const PAGES: &[&str] = &["book/ch04-01-what-is-ownership.html", "std/index.html", "std/vec/struct.Vec.html"];

fn docs_root() -> PathBuf {
    let out = std::process::Command::new("rustc").args(["--print", "sysroot"]).output().expect("run rustc");
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("share/doc/rust/html")
}

/// A minimal static server for the docs.
fn serve(root: PathBuf) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            std::thread::spawn(move || {
                let mut s = stream;
                let mut reader = BufReader::new(s.try_clone().unwrap());
                let mut line = String::new();
                let _ = reader.read_line(&mut line);
                loop {
                    let mut h = String::new();
                    if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
                        break;
                    }
                }
                let path =
                    line.split_whitespace().nth(1).unwrap_or("/").split(['?', '#']).next().unwrap_or("/");
                let file = root.join(path.trim_start_matches('/'));
                let mut body = Vec::new();
                let ok = std::fs::File::open(&file).and_then(|mut f| f.read_to_end(&mut body)).is_ok();
                let ctype = match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
                    "html" => "text/html; charset=utf-8",
                    "css" => "text/css",
                    "js" => "text/javascript",
                    "svg" => "image/svg+xml",
                    "woff2" => "font/woff2",
                    "png" => "image/png",
                    _ => "application/octet-stream",
                };
                let status = if ok { "200 OK" } else { "404 Not Found" };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = s.write_all(head.as_bytes());
                let _ = s.write_all(&body);
            });
        }
    });
    port
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(7);
    let root = docs_root();
    assert!(root.join(PAGES[0]).exists(), "no local Rust docs at {}", root.display());
    let port = serve(root);
    let browser = Browser::launch(LaunchOptions::default()).await.expect("launch");
    println!(
        "{:<42} {:>8} {:>12} {:>12} {:>7} {:>8} {:>12}",
        "page", "AX nodes", "raw AX (ms)", "axsnap (ms)", "ratio", "paired", "unchanged"
    );
    for p in PAGES {
        let page = browser.new_page(&format!("http://127.0.0.1:{port}/{p}")).await.expect("open");
        tokio::time::sleep(Duration::from_millis(500)).await;
        // Warm up both paths once.
        let _ = page.call("Accessibility.getFullAXTree", json!({})).await.unwrap();
        let _ = capture(&page, Duration::from_secs(60)).await.unwrap();
        let (mut raw, mut ours) = (Vec::new(), Vec::new());
        let mut nodes = 0;
        for run in 0..runs {
            // Each measured call starts from a quiet process: neither side's leftover work
            // (freeing a 20 MB answer takes a few hundred ms) may slow the other's call. The
            // two go in turns, so neither always runs first.
            for side in [run % 2, 1 - run % 2] {
                tokio::time::sleep(QUIET).await;
                let t0 = Instant::now();
                if side == 0 {
                    let v = page.call("Accessibility.getFullAXTree", json!({})).await.unwrap();
                    raw.push(t0.elapsed());
                    nodes = v["nodes"].as_array().map(|a| a.len()).unwrap_or(0);
                } else {
                    let out = capture(&page, Duration::from_secs(60)).await.unwrap();
                    ours.push(t0.elapsed());
                    assert!(out.capture.partial.is_none());
                }
            }
        }
        tokio::time::sleep(QUIET).await;
        let mut unchanged = Vec::new();
        for _ in 0..30 {
            let t0 = Instant::now();
            let c = changed(&page).await;
            unchanged.push(t0.elapsed());
            assert!(!c, "{p} reads as changed while quiet");
        }
        // Also the median of each run's own ratio: on a loaded machine the two calls of one
        // run share their load, so it moves less than the ratio of the medians.
        let mut paired: Vec<f64> =
            raw.iter().zip(&ours).map(|(r, o)| o.as_secs_f64() / r.as_secs_f64()).collect();
        paired.sort_by(f64::total_cmp);
        let (r, o) = (median(raw), median(ours));
        println!(
            "{:<42} {:>8} {:>12.1} {:>12.1} {:>6.2}x {:>7.2}x {:>10.2}ms",
            p,
            nodes,
            r.as_secs_f64() * 1e3,
            o.as_secs_f64() * 1e3,
            o.as_secs_f64() / r.as_secs_f64(),
            paired[paired.len() / 2],
            median(unchanged).as_secs_f64() * 1e3
        );
        page.close().await.unwrap();
    }
    browser.close().await.unwrap();
}
