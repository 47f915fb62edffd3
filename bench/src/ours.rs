//! axsnap's side: the snapshot `axsnap snapshot URL` prints, made through the library crates.
//!
//! The CLI launches Chromium through `axsnap-cdp` (headless, its own temporary profile, the
//! network-quiet flags), opens the URL in a new tab (which waits for `load`), captures, and
//! answers a full request with the default projection and view in the text form. This module
//! does the same steps: [`CdpBackend::launch`], [`Backend::open_target`],
//! [`CdpBackend::capture_with_stats`] and [`Session::snapshot`] with [`Mode::Full`]. A fresh
//! session per page, as each CLI run has, so ref numbers start at `e1` on every page; with
//! several views ([`Axsnap::snapshot_views`], such as [`interactive_view`] for `--interactive`)
//! a fresh session per view over the same captures.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::backend::{Backend, Capture};
use axsnap_core::project::{ProjectOptions, View};
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

/// The projection `axsnap snapshot URL --interactive` asks for: the default rules with the
/// interactive-only view (what the CLI's view flags set, the others off).
pub fn interactive_view() -> ProjectOptions {
    ProjectOptions { view: View { interactive_only: true, ..View::default() }, ..ProjectOptions::default() }
}

/// A browser launched through axsnap-cdp.
#[derive(Debug)]
pub struct Axsnap {
    backend: CdpBackend,
    /// Build every page from its DOM snapshot, without the accessibility tree.
    dom_only: bool,
    /// Ask for the accessibility tree on pages of any size.
    always_ax: bool,
}

impl Axsnap {
    /// Launches Chromium (`browser`, or the one [`axsnap_cdp::find_browser`] finds).
    pub async fn launch(browser: Option<PathBuf>) -> Result<Axsnap, BenchError> {
        let opts = LaunchOptions { executable: browser, ..LaunchOptions::default() };
        Ok(Axsnap { backend: CdpBackend::launch(opts).await?, dom_only: false, always_ax: false })
    }

    /// Builds every page from its DOM snapshot without asking for its accessibility tree
    /// ([`axsnap_cdp::CaptureOptions::dom_only`], what a big page's capture falls back to): for
    /// measuring that tree's time and recall against the full capture's.
    pub fn dom_only(mut self, on: bool) -> Axsnap {
        self.dom_only = on;
        self
    }

    /// Asks for the accessibility tree on pages of any size
    /// ([`axsnap_cdp::CaptureOptions::always_ax`]; by default a large page is built from its
    /// DOM snapshot): for measuring the two builds side by side.
    pub fn always_ax(mut self, on: bool) -> Axsnap {
        self.always_ax = on;
        self
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
        let views = [ProjectOptions::default()];
        match self.snapshot_views(url, runs, deadline, &views).await?.pop() {
            Some(one) => Ok(one),
            None => unreachable!("one view asked, one answered"),
        }
    }

    /// Like [`Axsnap::snapshot`], with one answer per view from the same captures: each view
    /// is answered by a session of its own, as a CLI run with that view's flags would answer
    /// (`views[i]` is what `axsnap snapshot URL --interactive` and the other view flags set;
    /// see [`interactive_view`]). The answers come in the order of `views`.
    pub async fn snapshot_views(
        &mut self,
        url: &str,
        runs: usize,
        deadline: Duration,
        views: &[ProjectOptions],
    ) -> Result<Vec<OurSnapshot>, BenchError> {
        let target = self.backend.open_target(url).await?;
        let result = self.snapshot_target(&target, url, runs, deadline, views).await;
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
        views: &[ProjectOptions],
    ) -> Result<Vec<OurSnapshot>, BenchError> {
        let mut sessions: Vec<Session> = views.iter().map(|_| Session::new(Policy::default())).collect();
        let mut capture_ms = Vec::new();
        let mut total_ms: Vec<Vec<f64>> = vec![Vec::new(); views.len()];
        let mut last = None;
        for _ in 0..runs.max(1) {
            let (responses, raw) = self
                .one_run(&mut sessions, views, target, url, deadline, &mut capture_ms, &mut total_ms)
                .await?;
            last = Some((responses, raw));
        }
        let Some((responses, raw)) = last else { unreachable!("at least one run") };
        Ok(responses
            .into_iter()
            .zip(total_ms)
            .map(|(response, total_ms)| OurSnapshot {
                url: url.to_string(),
                text: response.text,
                size: response.size,
                tree: response.snapshot.tree,
                raw: raw.clone(),
                capture_ms: capture_ms.clone(),
                total_ms,
            })
            .collect())
    }

    /// One capture and a full answer per view, the times appended to the lists (the capture's
    /// to `capture_ms`; to `total_ms[i]`, the capture's plus view `i`'s answer).
    #[allow(clippy::too_many_arguments)]
    async fn one_run(
        &mut self,
        sessions: &mut [Session],
        views: &[ProjectOptions],
        target: &TargetId,
        url: &str,
        deadline: Duration,
        capture_ms: &mut Vec<f64>,
        total_ms: &mut [Vec<f64>],
    ) -> Result<(Vec<Response>, Capture), BenchError> {
        let t0 = Instant::now();
        let out = if self.dom_only || self.always_ax {
            let page = self.backend.page(target).await?;
            let opts = axsnap_cdp::CaptureOptions {
                dom_only: self.dom_only,
                always_ax: self.always_ax,
                ..axsnap_cdp::CaptureOptions::default()
            };
            axsnap_cdp::capture_with(&page, deadline, &opts).await?
        } else {
            self.backend.capture_with_stats(target, deadline).await?
        };
        let captured = t0.elapsed();
        // A DOM-only capture always says it is one; anything else cut is an error here too.
        let asked = |r: &str| self.dom_only && r.contains("(a DOM-only capture)") && !r.contains("left out");
        if let Some(reason) = out.capture.partial.as_deref().filter(|r| !asked(r)) {
            return Err(BenchError::PartialCapture { url: url.to_string(), reason: reason.to_string() });
        }
        capture_ms.push(captured.as_secs_f64() * 1e3);
        let mut responses = Vec::with_capacity(views.len());
        for ((session, view), total) in sessions.iter_mut().zip(views).zip(total_ms.iter_mut()) {
            let request = Request {
                mode: Mode::Full,
                format: Format::Text,
                options: view.clone(),
                max_tokens: None,
                ..Request::default()
            };
            let t1 = Instant::now();
            let response =
                session.snapshot(&ClientId("bench".into()), &out.capture, &request, Instant::now())?;
            total.push((captured + t1.elapsed()).as_secs_f64() * 1e3);
            responses.push(response);
        }
        Ok((responses, out.capture))
    }

    /// Closes the browser.
    pub async fn close(self) -> Result<(), BenchError> {
        Ok(self.backend.close().await?)
    }
}
