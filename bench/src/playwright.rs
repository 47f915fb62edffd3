//! Playwright's side: runs `playwright/snapshot.mjs` (Node.js, npm `playwright-core` pinned by
//! `playwright/package-lock.json`) and reads its snapshots.
//!
//! The script launches the given Chromium through Playwright (`executablePath`, the same
//! network-quiet flags axsnap uses, Playwright's own fresh profile, a 1280x800 viewport like
//! axsnap's window), opens each URL, waits for `load` and prints
//! `page.ariaSnapshot({ mode: 'ai' })`: the public AI snapshot of playwright-core >= 1.64,
//! with `[ref=eN]` markers and iframes inlined. Its protocol is JSON lines on stdout: first
//! `{"playwright_core", "api"}`, then one `{"url", "snapshot", "times_ms"}` per URL.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::error::BenchError;

/// How to run the Playwright script.
#[derive(Clone, Debug)]
pub struct PlaywrightOptions {
    /// The Node.js executable.
    pub node: PathBuf,
    /// The folder holding `snapshot.mjs`, `package.json` and (after `npm ci`) `node_modules`.
    pub dir: PathBuf,
    /// The Chromium executable Playwright launches.
    pub browser: PathBuf,
    /// Snapshots taken per page (timing); the text of the last one is kept.
    pub runs: usize,
    /// Viewport in CSS pixels.
    pub viewport: (u32, u32),
    /// The whole run is stopped after this long.
    pub timeout: Duration,
}

impl PlaywrightOptions {
    /// Defaults for `browser`: `node` from `PATH`, this crate's `playwright/` folder, one run,
    /// 1280x800, ten minutes.
    pub fn new(browser: PathBuf) -> PlaywrightOptions {
        PlaywrightOptions {
            node: PathBuf::from("node"),
            dir: default_dir(),
            browser,
            runs: 1,
            viewport: (1280, 800),
            timeout: Duration::from_secs(600),
        }
    }
}

/// This crate's `playwright/` folder.
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("playwright")
}

/// What one run of the script gave.
#[derive(Clone, Debug)]
pub struct PlaywrightRun {
    /// The playwright-core version that made the snapshots.
    pub playwright_core: String,
    /// The API call that made them.
    pub api: String,
    /// One entry per URL, in the order asked.
    pub pages: Vec<PlaywrightPage>,
}

/// Playwright's snapshot of one page.
#[derive(Clone, Debug, Deserialize)]
pub struct PlaywrightPage {
    /// The URL opened.
    pub url: String,
    /// The snapshot text, exactly as the API returned it.
    pub snapshot: String,
    /// Wall time of each snapshot call, in milliseconds.
    pub times_ms: Vec<f64>,
}

#[derive(Deserialize)]
struct HeaderLine {
    playwright_core: String,
    api: String,
}

/// Runs the script on `urls` (one browser for all of them).
pub fn snapshots(opts: &PlaywrightOptions, urls: &[String]) -> Result<PlaywrightRun, BenchError> {
    let script = opts.dir.join("snapshot.mjs");
    let mut args: Vec<String> = vec![
        script.to_string_lossy().into_owned(),
        "--browser".into(),
        opts.browser.to_string_lossy().into_owned(),
        "--runs".into(),
        opts.runs.max(1).to_string(),
        "--viewport".into(),
        format!("{}x{}", opts.viewport.0, opts.viewport.1),
    ];
    args.extend(urls.iter().cloned());
    let command = format!("{} {}", opts.node.display(), args.join(" "));
    let fail = |reason: String| BenchError::Playwright { command: command.clone(), reason };
    if !opts.dir.join("node_modules/playwright-core/package.json").is_file() {
        return Err(fail(format!(
            "playwright-core is not installed in {}: run `npm ci` there (scripts/bench-playwright does)",
            opts.dir.display()
        )));
    }
    let mut child = Command::new(&opts.node)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("cannot start {}: {e} (install Node.js >= 20)", opts.node.display())))?;
    // Drain both pipes on threads: a snapshot of a large page fills a pipe buffer many times.
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let deadline = Instant::now() + opts.timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail(format!("no answer within {} s; it was stopped", opts.timeout.as_secs())));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(fail(format!("cannot wait for it: {e}"))),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if !status.success() {
        return Err(fail(format!("{status}: {}", String::from_utf8_lossy(&stderr).trim())));
    }
    let run = parse_output(&String::from_utf8_lossy(&stdout))?;
    if run.pages.len() != urls.len() {
        return Err(BenchError::PlaywrightOutput(format!(
            "{} pages asked, {} answered",
            urls.len(),
            run.pages.len()
        )));
    }
    Ok(run)
}

/// Reads the script's JSON lines.
pub fn parse_output(stdout: &str) -> Result<PlaywrightRun, BenchError> {
    let bad = |what: String| BenchError::PlaywrightOutput(what);
    let mut lines = stdout.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().ok_or_else(|| bad("no output".into()))?;
    let header: HeaderLine = serde_json::from_str(first).map_err(|e| bad(format!("header line: {e}")))?;
    let pages = lines
        .map(|l| serde_json::from_str::<PlaywrightPage>(l).map_err(|e| bad(format!("page line: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PlaywrightRun { playwright_core: header.playwright_core, api: header.api, pages })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_protocol() {
        let out = "{\"playwright_core\":\"1.65.1\",\"api\":\"page.ariaSnapshot\"}\n\
                   {\"url\":\"http://x/\",\"snapshot\":\"- text: hi\",\"times_ms\":[1.5,2]}\n";
        let run = parse_output(out).unwrap();
        assert_eq!(run.playwright_core, "1.65.1");
        assert_eq!(run.pages.len(), 1);
        assert_eq!(run.pages[0].snapshot, "- text: hi");
        assert_eq!(run.pages[0].times_ms, vec![1.5, 2.0]);
    }

    #[test]
    fn rejects_other_output() {
        assert!(parse_output("").is_err());
        assert!(parse_output("hello\n").is_err());
        assert!(parse_output("{\"playwright_core\":\"1\",\"api\":\"x\"}\n{\"url\":1}\n").is_err());
    }

    #[test]
    fn says_when_npm_ci_is_missing() {
        let mut opts = PlaywrightOptions::new(PathBuf::from("/usr/bin/chromium"));
        opts.dir = std::env::temp_dir().join("axsnap-bench-no-such-dir");
        let e = snapshots(&opts, &["http://127.0.0.1:1/".into()]).unwrap_err();
        assert!(e.to_string().contains("npm ci"), "{e}");
    }
}
