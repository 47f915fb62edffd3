//! axsnap's side: the snapshot `axsnap snapshot URL` prints, made through the library crates.
//!
//! The CLI launches Chromium through `axsnap-cdp` (headless, its own temporary profile, the
//! network-quiet flags), opens the URL in a new tab (which waits for `load`), captures, and
//! answers a full request with the default projection and view in the text form. This module
//! does the same steps: [`CdpBackend::launch`], [`Backend::open_target`],
//! [`CdpBackend::capture_with_stats`] and [`Session::snapshot`] with [`Mode::Full`]. A fresh
//! session per page, as each CLI run has, so ref numbers start at `e1` on every page.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::backend::{Backend, Capture};
use axsnap_core::render::Format;
use axsnap_core::session::{ClientId, Mode, Policy, Request, Response, Session};
use axsnap_core::tokens::Size;
use axsnap_core::{TargetId, Tree};

use crate::error::BenchError;

/// What axsnap gave for one page.
#[derive(Clone, Debug)]
pub struct OurSnapshot {
    /// The page.
    pub url: String,
    /// The text the CLI prints (without `--stats`).
    pub text: String,
    /// Its size.
    pub size: Size,
    /// The projected tree the text renders.
    pub tree: Tree,
    /// The raw capture it was projected from (the last run's), for diagnosis.
    pub raw: Capture,
    /// Wall time of each capture, in milliseconds.
    pub capture_ms: Vec<f64>,
    /// Wall time of each capture plus projection, refs and rendering (what an agent waits for),
    /// in milliseconds.
    pub total_ms: Vec<f64>,
}

/// A browser launched through axsnap-cdp.
#[derive(Debug)]
pub struct Axsnap {
    backend: CdpBackend,
}

impl Axsnap {
    /// Launches Chromium (`browser`, or the one [`axsnap_cdp::find_browser`] finds).
    pub async fn launch(browser: Option<PathBuf>) -> Result<Axsnap, BenchError> {
        let opts = LaunchOptions { executable: browser, ..LaunchOptions::default() };
        Ok(Axsnap { backend: CdpBackend::launch(opts).await? })
    }

    /// Opens `url` in a new tab, snapshots it `runs` times (timing; the last text is kept) and
    /// closes the tab. A capture that takes longer than `deadline` comes back partial, which is
    /// an error here: a partial tree is not comparable.
    pub async fn snapshot(
        &mut self,
        url: &str,
        runs: usize,
        deadline: Duration,
    ) -> Result<OurSnapshot, BenchError> {
        let target = self.backend.open_target(url).await?;
        let result = self.snapshot_target(&target, url, runs, deadline).await;
        // The tab is gone either way; a failure to close it does not change the figures.
        let _ = self.backend.close_target(&target).await;
        result
    }

    async fn snapshot_target(
        &mut self,
        target: &TargetId,
        url: &str,
        runs: usize,
        deadline: Duration,
    ) -> Result<OurSnapshot, BenchError> {
        let mut session = Session::new(Policy::default());
        let (mut capture_ms, mut total_ms) = (Vec::new(), Vec::new());
        let (mut response, mut raw) =
            self.one_run(&mut session, target, url, deadline, &mut capture_ms, &mut total_ms).await?;
        for _ in 1..runs {
            (response, raw) =
                self.one_run(&mut session, target, url, deadline, &mut capture_ms, &mut total_ms).await?;
        }
        Ok(OurSnapshot {
            url: url.to_string(),
            text: response.text,
            size: response.size,
            tree: response.snapshot.tree,
            raw,
            capture_ms,
            total_ms,
        })
    }

    /// One capture and full answer, its times appended to the two lists.
    async fn one_run(
        &mut self,
        session: &mut Session,
        target: &TargetId,
        url: &str,
        deadline: Duration,
        capture_ms: &mut Vec<f64>,
        total_ms: &mut Vec<f64>,
    ) -> Result<(Response, Capture), BenchError> {
        let request = Request { mode: Mode::Full, format: Format::Text, ..Request::default() };
        let t0 = Instant::now();
        let out = self.backend.capture_with_stats(target, deadline).await?;
        let captured = t0.elapsed();
        if let Some(reason) = &out.capture.partial {
            return Err(BenchError::PartialCapture { url: url.to_string(), reason: reason.clone() });
        }
        let response = session.snapshot(&ClientId("bench".into()), &out.capture, &request, Instant::now())?;
        total_ms.push(t0.elapsed().as_secs_f64() * 1e3);
        capture_ms.push(captured.as_secs_f64() * 1e3);
        Ok((response, out.capture))
    }

    /// Closes the browser.
    pub async fn close(self) -> Result<(), BenchError> {
        Ok(self.backend.close().await?)
    }
}
