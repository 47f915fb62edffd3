//! The browser checks: which browser `axsnap mcp` would use (found as the server finds it, or
//! the endpoint it would connect to), then a trial of it with the server's own launch options:
//! start, open about:blank, take one snapshot, close.

use std::path::Path;
use std::time::{Duration, Instant};

use axsnap_agent::{Agent, AgentOptions};
use axsnap_cdp::{CdpBackend, CdpError, Endpoint};
use axsnap_core::backend::Backend;
use axsnap_core::session::{Mode, Request};
use axsnap_mcp::BrowserOptions;
use serde_json::json;

use super::{Check, Status};
use crate::cli::DoctorArgs;

/// Most time `BROWSER --version` may take (a browser that opens a window instead is killed).
const VERSION_WITHIN: Duration = Duration::from_secs(15);

/// What a user without a browser does first.
const INSTALL: &str =
    "install Chromium (Debian/Ubuntu: `apt install chromium`; Fedora: `dnf install chromium`; \
                       macOS and Windows: Google Chrome)";

/// Where the trial's browser comes from.
enum Source {
    /// Launched, as the server launches it.
    Launch,
    /// Connected to, at an endpoint (`--cdp-endpoint`, or one connection to `--cdp-pool`).
    Connect(Endpoint),
}

/// The `browser` check (what would be used) and the `launch` check (whether it works).
pub async fn check(a: &DoctorArgs) -> Vec<Check> {
    let options = BrowserOptions {
        executable: a.browser.clone(),
        cdp_endpoint: a.cdp_endpoint.clone(),
        cdp_pool: a.cdp_pool.clone(),
        cdp_headers: a.cdp_header.clone(),
        ..BrowserOptions::default()
    };
    let (browser, source) = if let Some(url) = &options.cdp_pool {
        // As the server does for a session: a connection of its own, named.
        let endpoint = options.endpoint(url).for_session(&format!("axsnap-doctor-{}", std::process::id()));
        let shown = endpoint.redacted();
        let c = Check::new("browser", Status::Ok, format!("a browser from the pool at {shown} (--cdp-pool)"))
            .field("endpoint", shown)
            .field("pool", true);
        (c, Some(Source::Connect(endpoint)))
    } else if let Some(url) = &options.cdp_endpoint {
        let endpoint = options.endpoint(url);
        let shown = endpoint.redacted();
        let c = Check::new("browser", Status::Ok, format!("the running browser at {shown} (--cdp-endpoint)"))
            .field("endpoint", shown)
            .field("pool", false);
        (c, Some(Source::Connect(endpoint)))
    } else {
        match axsnap_cdp::find_browser(options.executable.as_deref()) {
            Ok(path) => (found(&path).await, Some(Source::Launch)),
            Err(e) => (not_found(&e), None),
        }
    };
    let within = Duration::from_secs(a.timeout.max(1));
    let launch = match source {
        None => Check::new("launch", Status::Fail, "not tried: there is no browser to start")
            .fix("see the browser line above"),
        Some(source) => try_it(source, &options, within).await,
    };
    vec![browser, launch]
}

/// A browser found: its path and what `--version` says.
async fn found(path: &Path) -> Check {
    let shown = path.display().to_string();
    let c = Check::new("browser", Status::Ok, shown.clone()).field("path", shown.clone());
    match version(path).await {
        Ok(Some(v)) => Check { summary: format!("{shown}: {v}"), ..c }.field("version", v),
        Ok(None) => c.field("version", json!(null)).detail("its version is read when it starts (launch below)"),
        Err(why) => Check { status: Status::Warn, ..c }
            .field("version", json!(null))
            .detail(why)
            .fix(format!(
                "make sure {shown} is a Chromium or Chrome executable (--browser PATH, or AXSNAP_BROWSER); or {INSTALL}"
            )),
    }
}

/// What `path --version` prints (`Chromium 140.0.7339.80 ...`). `None` where it prints
/// nothing useful: Chrome on Windows prints no version and may open a window instead, so
/// there it is not run (the trial reads the version from the browser itself).
async fn version(path: &Path) -> Result<Option<String>, String> {
    if cfg!(windows) {
        return Ok(None);
    }
    let shown = path.display();
    let run = tokio::process::Command::new(path)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true)
        .output();
    let out = match tokio::time::timeout(VERSION_WITHIN, run).await {
        Err(_) => {
            return Err(format!("`{shown} --version` did not answer within {} s", VERSION_WITHIN.as_secs()))
        }
        Ok(Err(e)) => return Err(format!("`{shown} --version` could not run: {e}")),
        Ok(Ok(out)) => out,
    };
    let first_line = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes);
        text.lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(|l| axsnap_core::caps::cap(l, 200).into_owned())
    };
    if !out.status.success() {
        let said = first_line(&out.stderr).or_else(|| first_line(&out.stdout));
        return Err(format!(
            "`{shown} --version` failed ({}){}",
            out.status,
            said.map(|s| format!(": {s}")).unwrap_or_default()
        ));
    }
    Ok(first_line(&out.stdout))
}

/// No browser: the finder's words, and what to do.
fn not_found(e: &CdpError) -> Check {
    let fix = match e {
        CdpError::BrowserPathInvalid { .. } => format!(
            "pass the path of a Chromium or Chrome executable with --browser PATH (or AXSNAP_BROWSER), or leave both \
             unset to use one found on PATH; or {INSTALL}"
        ),
        _ => format!(
            "{INSTALL}, or pass its path with --browser PATH (or AXSNAP_BROWSER); or connect to a running browser \
             with --cdp-endpoint http://HOST:PORT"
        ),
    };
    Check::new("browser", Status::Fail, e.to_string())
        .field("path", json!(null))
        .field("version", json!(null))
        .fix(fix)
}

/// Why a trial failed, and at which step.
struct Failed {
    /// `start`, `open about:blank`, `snapshot`, `close`.
    step: &'static str,
    /// The error's own words.
    error: String,
    /// The start's error, which says what to do.
    cause: Option<CdpError>,
}

/// The trial, within `within`, as the `launch` check.
async fn try_it(source: Source, options: &BrowserOptions, within: Duration) -> Check {
    let connect = matches!(source, Source::Connect(_));
    let root = axsnap_cdp::running_as_root();
    let t = Instant::now();
    let outcome = tokio::time::timeout(within, trial(source, options)).await;
    let took = t.elapsed();
    let mut c = match outcome {
        Ok(Ok(product)) => {
            // The browser's own word on its version: the only one for a connected browser, and
            // on Windows, where `--version` is not run.
            let how = match (connect, product.is_empty()) {
                (false, true) => "started headless".to_string(),
                (false, false) => format!("started headless ({product})"),
                (true, true) => "connected".to_string(),
                (true, false) => format!("connected to {product}"),
            };
            let summary =
                format!("{how}, opened about:blank, took a snapshot and closed in {:.1} s", took.as_secs_f64());
            Check::new("launch", Status::Ok, summary).field("product", product)
        }
        Ok(Err(f)) => {
            let fix = match &f.cause {
                Some(e) => start_fix(e, root),
                None => "the browser started but could not do that; run `AXSNAP_LOG=debug axsnap doctor` to see \
                         where it stopped, or try another browser with --browser PATH"
                    .to_string(),
            };
            Check::new("launch", Status::Fail, format!("failed to {}: {}", f.step, f.error))
                .field("error", f.error)
                .field("step", f.step)
                .fix(fix)
        }
        // The trial's browser went with its future (killed on drop, its profile removed).
        Err(_) => Check::new(
            "launch",
            Status::Fail,
            format!("the browser did not start, open a page and close within {} s", within.as_secs()),
        )
        .field("error", "timeout")
        .fix(
            "the machine may be slow or overloaded: try again with --timeout 120; `AXSNAP_LOG=debug axsnap doctor` \
             shows where it stopped",
        ),
    };
    let ok = c.status == Status::Ok;
    c = c.field("ok", ok).field("seconds", (took.as_secs_f64() * 100.0).round() / 100.0);
    if !connect {
        c = c.field("headless", true).field("root", root).detail(if root {
            "running as root: the browser is launched with --no-sandbox (Chromium refuses its sandbox as root)"
        } else {
            "not running as root: the browser keeps Chromium's sandbox"
        });
    }
    c
}

/// Start (launch or connect), open about:blank, take a snapshot, close; the browser's product
/// (`Chrome/140.0.7339.80`) when all went well.
async fn trial(source: Source, options: &BrowserOptions) -> Result<String, Failed> {
    let failed = |step, e: &dyn std::fmt::Display| Failed { step, error: e.to_string(), cause: None };
    let started = match &source {
        Source::Launch => CdpBackend::launch(options.launch_options()).await,
        Source::Connect(endpoint) => CdpBackend::connect(endpoint.clone()).await,
    };
    let backend = started.map_err(|e| Failed { step: "start", error: e.to_string(), cause: Some(e) })?;
    let product = match backend.browser() {
        Some(b) => b.raw().call(None, "Browser.getVersion", json!({})).await.ok(),
        None => None,
    };
    let product = product
        .as_ref()
        .and_then(|v| v.get("product"))
        .and_then(|p| p.as_str())
        .map(|p| axsnap_core::caps::cap(p, 200).into_owned())
        .unwrap_or_default();
    let mut agent = Agent::new(backend, None, AgentOptions::default());
    let request = Request { mode: Mode::Full, ..Request::default() };
    let looked = match agent.open("about:blank").await {
        Err(e) => Err(failed("open about:blank", &e)),
        Ok(_) => agent.snapshot(&request).await.map(|_| ()).map_err(|e| failed("take a snapshot", &e)),
    };
    let mut backend = agent.into_backend();
    // A connected browser is left running, without the tab the trial opened.
    if matches!(source, Source::Connect(_)) {
        if let Some(t) = backend.active() {
            let _ = backend.close_target(&t).await;
        }
    }
    let closed = backend.close().await;
    looked?;
    closed.map_err(|e| failed("close", &e))?;
    Ok(product)
}

/// What to do when the browser would not start, by why.
fn start_fix(e: &CdpError, root: bool) -> String {
    match e {
        CdpError::LaunchFailed { path, .. } => {
            let sandbox = if root {
                "axsnap runs as root here, so it already passes --no-sandbox".to_string()
            } else {
                "axsnap does not run as root here, so Chromium's sandbox is on: where it cannot start (a container \
                 without user namespaces), start Chromium yourself (`chromium --headless --no-sandbox \
                 --remote-debugging-port=9222`) and pass --cdp-endpoint http://127.0.0.1:9222"
                    .to_string()
            };
            format!(
                "check that `{} --version` runs; {sandbox}; if it is not a working Chromium or Chrome, {INSTALL} and \
                 pass --browser PATH",
                path.display()
            )
        }
        CdpError::ConnectFailed { .. } => "start the browser with --remote-debugging-port=PORT and pass its address \
             (--cdp-endpoint http://HOST:PORT or ws://HOST:PORT/devtools/browser/ID); a pool: check its URL and its \
             token (in the URL or --cdp-header)"
            .to_string(),
        CdpError::BrowserNotFound { .. } | CdpError::BrowserPathInvalid { .. } => {
            format!("{INSTALL}, or pass its path with --browser PATH (or AXSNAP_BROWSER)")
        }
        _ => "`AXSNAP_LOG=debug axsnap doctor` shows more; or try another browser with --browser PATH, or a running \
              one with --cdp-endpoint"
            .to_string(),
    }
}
