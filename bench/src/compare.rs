//! One side-by-side run: the same pages, served on 127.0.0.1, through Playwright's AI snapshot
//! and through axsnap, with the same Chromium, one browser after the other (never both at
//! once: on two cores they would slow each other's timings).

use std::path::{Path, PathBuf};
use std::time::Duration;

use axsnap_core::tokens::{measure, Size};

use crate::aria::AriaSnapshot;
use crate::error::BenchError;
use crate::ours::{Axsnap, OurSnapshot};
use crate::playwright::{self, PlaywrightOptions};
use crate::recall::{recall, Recall};
use crate::serve::StaticServer;

/// How to run a comparison.
#[derive(Clone, Debug)]
pub struct CompareOptions {
    /// The Chromium both sides launch (`None`: the one axsnap-cdp finds, `/usr/bin/chromium`
    /// on Debian).
    pub browser: Option<PathBuf>,
    /// The Node.js executable.
    pub node: PathBuf,
    /// The folder of the Playwright script (see [`playwright::default_dir`]).
    pub playwright_dir: PathBuf,
    /// Snapshots per page on each side (timings are their medians).
    pub runs: usize,
    /// How long an axsnap capture may take before it comes back partial (an error here).
    pub capture_deadline: Duration,
    /// axsnap builds each page from its DOM snapshot only ([`Axsnap::dom_only`]).
    pub dom_only: bool,
    /// axsnap asks for the accessibility tree on pages of any size ([`Axsnap::always_ax`]).
    pub always_ax: bool,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            browser: None,
            node: PathBuf::from("node"),
            playwright_dir: playwright::default_dir(),
            runs: 1,
            capture_deadline: Duration::from_secs(120),
            dom_only: false,
            always_ax: false,
        }
    }
}

/// Playwright's snapshot of one page, measured.
#[derive(Clone, Debug)]
pub struct TheirSnapshot {
    /// The text `ariaSnapshot` returned.
    pub text: String,
    /// Its size.
    pub size: Size,
    /// Its items.
    pub parsed: AriaSnapshot,
    /// Wall time of each snapshot call, in milliseconds.
    pub times_ms: Vec<f64>,
}

/// One page on both sides.
#[derive(Clone, Debug)]
pub struct PageComparison {
    /// The page, relative to the served root.
    pub page: String,
    /// Playwright's side.
    pub theirs: TheirSnapshot,
    /// axsnap's side.
    pub ours: OurSnapshot,
    /// How much of Playwright's snapshot ours holds.
    pub recall: Recall,
}

impl PageComparison {
    /// Our cl100k and o200k tokens as fractions of Playwright's.
    pub fn ratios(&self) -> (f64, f64) {
        let r = |ours: usize, theirs: usize| if theirs == 0 { 0.0 } else { ours as f64 / theirs as f64 };
        (
            r(self.ours.size.tokens_cl100k, self.theirs.size.tokens_cl100k),
            r(self.ours.size.tokens_o200k, self.theirs.size.tokens_o200k),
        )
    }
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The playwright-core version.
    pub playwright_core: String,
    /// The Playwright call that made the snapshots.
    pub api: String,
    /// The Chromium both sides used.
    pub browser: PathBuf,
    /// What it says with `--version`.
    pub browser_version: String,
    /// Snapshots per page on each side.
    pub runs: usize,
    /// The pages, in the order asked.
    pub pages: Vec<PageComparison>,
}

/// Serves `root`, snapshots each of `pages` (paths under it) with Playwright, then with
/// axsnap, and measures both.
pub async fn compare(root: &Path, pages: &[&str], opts: &CompareOptions) -> Result<Comparison, BenchError> {
    let browser = axsnap_cdp::find_browser(opts.browser.as_deref())?;
    let browser_version = browser_version(&browser);
    let server = StaticServer::start(root)?;
    let urls: Vec<String> = pages.iter().map(|p| server.url(p)).collect();

    let pw_opts = PlaywrightOptions {
        node: opts.node.clone(),
        dir: opts.playwright_dir.clone(),
        runs: opts.runs,
        ..PlaywrightOptions::new(browser.clone())
    };
    let pw_urls = urls.clone();
    // The script blocks on a child process: keep it off the async workers.
    let run = tokio::task::spawn_blocking(move || playwright::snapshots(&pw_opts, &pw_urls))
        .await
        .map_err(|e| BenchError::Playwright { command: "snapshot.mjs".into(), reason: e.to_string() })??;

    let mut axsnap =
        Axsnap::launch(Some(browser.clone())).await?.dom_only(opts.dom_only).always_ax(opts.always_ax);
    let mut ours = Vec::new();
    for url in &urls {
        match axsnap.snapshot(url, opts.runs, opts.capture_deadline).await {
            Ok(s) => ours.push(s),
            Err(e) => {
                let _ = axsnap.close().await;
                return Err(e);
            }
        }
    }
    axsnap.close().await?;

    let mut out = Vec::new();
    for ((page, theirs), ours) in pages.iter().zip(run.pages).zip(ours) {
        let parsed = AriaSnapshot::parse(&theirs.snapshot)?;
        let recall = recall(&parsed, &ours.tree);
        let theirs = TheirSnapshot {
            size: measure(&theirs.snapshot),
            text: theirs.snapshot,
            parsed,
            times_ms: theirs.times_ms,
        };
        out.push(PageComparison { page: page.to_string(), theirs, ours, recall });
    }
    Ok(Comparison {
        playwright_core: run.playwright_core,
        api: run.api,
        browser,
        browser_version,
        runs: opts.runs.max(1),
        pages: out,
    })
}

/// `browser --version`, or a note that it did not say.
fn browser_version(browser: &Path) -> String {
    match std::process::Command::new(browser).arg("--version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _ => "(version unknown)".into(),
    }
}

/// The median of `v` (the mean of the middle two for an even count); 0 for none.
pub fn median(v: &[f64]) -> f64 {
    let mut v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[f64::NAN, 5.0]), 5.0);
    }
}
