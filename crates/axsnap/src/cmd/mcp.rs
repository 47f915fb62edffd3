//! `axsnap mcp`: the MCP server over stdio or streamable HTTP.

use std::time::Duration;

use anyhow::Context;
use axsnap_mcp::{BrowserOptions, HttpOptions, ServerOptions, UrlPolicy};

use crate::cli::McpArgs;

pub fn run(a: &McpArgs) -> anyhow::Result<()> {
    if !a.headless && a.cdp_endpoint.is_none() && a.cdp_pool.is_none() && !has_display() {
        // Chromium with a window exits at once without a display; say why before any session
        // meets it.
        anyhow::bail!(
            "--headless false needs a display (DISPLAY or WAYLAND_DISPLAY is not set); run under a desktop \
             session or xvfb-run, or leave the browser headless"
        );
    }
    if !a.cdp_header.is_empty() && a.cdp_endpoint.is_none() && a.cdp_pool.is_none() {
        anyhow::bail!("--cdp-header goes with --cdp-endpoint or --cdp-pool");
    }
    let caps = axsnap_mcp::Caps::parse(&a.caps).map_err(|e| anyhow::anyhow!("--caps: {e}"))?;
    if let Some(dir) = &a.upload_root {
        if !dir.is_dir() {
            anyhow::bail!(
                "--upload-root {}: not a directory (uploads come from the files under it)",
                dir.display()
            );
        }
    }
    let urls = UrlPolicy {
        allow_local: a.allow_local,
        allowed_origins: a.allowed_origins.iter().filter(|s| !s.trim().is_empty()).cloned().collect(),
        blocked_origins: a.blocked_origins.iter().filter(|s| !s.trim().is_empty()).cloned().collect(),
    };
    let storage_state = match &a.storage_state {
        None => None,
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("--storage-state {}", path.display()))?;
            let state = axsnap_mcp::storage_state::parse(&bytes)
                .map_err(|e| anyhow::anyhow!("--storage-state {}: {e}", path.display()))?;
            let (state, skipped) = axsnap_mcp::storage_state::allowed(&state, &urls);
            if !skipped.is_empty() {
                eprintln!(
                    "axsnap mcp: --storage-state: left out {} site(s) the URL policy refuses: {}",
                    skipped.len(),
                    skipped.join(", ")
                );
            }
            Some(std::sync::Arc::new(state))
        }
    };
    if !(a.idle_timeout > 0.0 && a.idle_timeout.is_finite()) {
        anyhow::bail!("--idle-timeout must be a positive number of minutes");
    }
    let options = ServerOptions {
        browser: BrowserOptions {
            executable: a.browser.clone(),
            cdp_endpoint: a.cdp_endpoint.clone(),
            cdp_pool: a.cdp_pool.clone(),
            cdp_headers: a.cdp_header.clone(),
            headless: a.headless,
            viewport: a.viewport,
            ax_tree: a.ax_tree.into(),
            output_dir: a.output_dir.clone(),
            user_data_dir: a.user_data_dir.clone(),
        },
        urls,
        allow_eval: a.allow_eval,
        idle_timeout: Duration::from_secs_f64(a.idle_timeout * 60.0),
        state: a.state.clone(),
        caps,
        upload_root: axsnap_mcp::UploadRoot(a.upload_root.clone()),
        storage_state,
        capture_deadline: Duration::from_secs(a.capture_timeout.max(1)),
        max_tokens: (a.max_tokens > 0).then_some(a.max_tokens),
        desktop: a.desktop,
        desktop_recording: a.recording.clone(),
        structured_content: a.structured_content,
        ..ServerOptions::default()
    };
    let rt = crate::live::runtime()?;
    let served = rt.block_on(async {
        let shutdown = async {
            let signal = stop_signal().await;
            eprintln!("axsnap mcp: {signal}: stopping, closing the browsers it launched");
        };
        let serve = async {
            match a.http {
                None => axsnap_mcp::serve_stdio(options, shutdown).await.context("axsnap mcp (stdio)"),
                Some(bind) => {
                    let http = HttpOptions {
                        bind,
                        auth_token: a.auth_token.clone(),
                        allowed_hosts: a.allowed_host.clone(),
                    };
                    let on_bound =
                        |addr| eprintln!("axsnap mcp: serving http://{addr}{}", axsnap_mcp::MCP_PATH);
                    axsnap_mcp::serve_http(options, http, on_bound, shutdown)
                        .await
                        .context("axsnap mcp (http)")
                }
            }
        };
        tokio::select! {
            served = serve => served,
            () = panic_on_request() => unreachable!("panic_on_request never returns"),
        }
    });
    // The stdio transport reads stdin on a blocking thread that only a line or EOF ends; a
    // server stopped by a signal must not wait for either (the browsers are closed by now).
    rt.shutdown_timeout(Duration::from_millis(500));
    served
}

/// The first of the signals that ask a server to stop: SIGINT (Ctrl-C), SIGTERM (what
/// systemd, `docker stop` and Kubernetes send) and SIGHUP (the terminal went away).
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let term = signal(SignalKind::terminate());
        let hup = signal(SignalKind::hangup());
        if let (Ok(mut term), Ok(mut hup)) = (term, hup) {
            return tokio::select! {
                _ = tokio::signal::ctrl_c() => "SIGINT",
                _ = term.recv() => "SIGTERM",
                _ = hup.recv() => "SIGHUP",
            };
        }
        eprintln!("axsnap mcp: cannot watch SIGTERM and SIGHUP; only Ctrl-C stops the server cleanly");
    }
    let _ = tokio::signal::ctrl_c().await;
    "SIGINT"
}

/// A fault the tests inject: with `AXSNAP_TEST_PANIC_ON=PATH`, the server panics on its main
/// task once PATH exists, so that the tests can check that a panic, too, closes the browsers
/// (the runtime's tasks are dropped as the panic unwinds). Without the variable it waits
/// forever.
async fn panic_on_request() {
    let Some(path) = std::env::var_os("AXSNAP_TEST_PANIC_ON") else {
        return std::future::pending().await;
    };
    let path = std::path::PathBuf::from(path);
    loop {
        if path.exists() {
            panic!("AXSNAP_TEST_PANIC_ON: {} exists", path.display());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether a browser window could open here.
fn has_display() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()))
}
