//! One side-by-side run against agent-browser, and its markdown: the same pages, served on
//! 127.0.0.1, through agent-browser's CLI and through axsnap, with the same Chromium, one tool
//! after the other (never both at once: on two cores they would slow each other's timings).
//!
//! Two modes, each tool's own pair:
//! - full: `agent-browser snapshot` against axsnap's full snapshot (`axsnap snapshot URL`);
//! - interactive: `agent-browser snapshot -i` against axsnap's interactive-only view (`axsnap
//!   snapshot URL --interactive`, [`interactive_view`]).
//!
//! Per page and mode: tokens (cl100k, o200k) and bytes on each side, ours as a fraction of
//! theirs, and how much of theirs ours holds ([`crate::recall`] with [`Rules::AGENT_BROWSER`]:
//! their interactive elements, and their visible text: in the interactive mode that is only
//! the names of the headings, landmarks and labels it keeps). Totals add the pages up, over the
//! book chapters ([`docs::BOOK_CHAPTERS`]) and over all pages.

use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use axsnap_core::tokens::{count_cl100k, measure, Size};

use crate::ab_snapshot;
use crate::agent_browser::{self, AgentBrowserOptions};
use crate::aria::AriaSnapshot;
use crate::compare::median;
use crate::cost::{costs, Style};
use crate::docs;
use crate::error::BenchError;
use crate::ours::{interactive_view, Axsnap, OurSnapshot};
use crate::recall::{recall_by, visible_text_by, Recall, Rules, Score};
use crate::report::{cut, thousands};
use crate::serve::StaticServer;

/// How to run the comparison.
#[derive(Clone, Debug)]
pub struct Options {
    /// The Chromium both sides launch (`None`: the one axsnap-cdp finds, `/usr/bin/chromium`
    /// on Debian).
    pub browser: Option<PathBuf>,
    /// agent-browser's native binary (see [`agent_browser::default_binary`]).
    pub binary: PathBuf,
    /// Snapshots per page and mode on each side (timings are their medians).
    pub runs: usize,
    /// How long an axsnap capture may take before it comes back partial (an error here).
    pub capture_deadline: Duration,
    /// How long one agent-browser command may take.
    pub command_timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            browser: None,
            binary: agent_browser::default_binary(),
            runs: 1,
            capture_deadline: Duration::from_secs(120),
            command_timeout: Duration::from_secs(300),
        }
    }
}

/// The two modes compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `agent-browser snapshot` against `axsnap snapshot URL`.
    Full,
    /// `agent-browser snapshot -i` against `axsnap snapshot URL --interactive`.
    Interactive,
}

impl Mode {
    /// Both, in the order reported.
    pub const ALL: [Mode; 2] = [Mode::Full, Mode::Interactive];

    /// What each tool is asked, for headings.
    pub fn title(self) -> &'static str {
        match self {
            Mode::Full => "full: `agent-browser snapshot` against `axsnap snapshot URL`",
            Mode::Interactive => {
                "interactive: `agent-browser snapshot -i` against `axsnap snapshot URL --interactive`"
            }
        }
    }

    /// A short name for file names.
    pub fn suffix(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Interactive => "interactive",
        }
    }
}

/// agent-browser's snapshot of a page in one mode, measured.
#[derive(Clone, Debug)]
pub struct TheirSnapshot {
    /// The text it printed.
    pub text: String,
    /// Its size.
    pub size: Size,
    /// Its items.
    pub parsed: AriaSnapshot,
    /// Wall time of each snapshot command, in milliseconds.
    pub times_ms: Vec<f64>,
}

impl TheirSnapshot {
    fn new(text: String, times_ms: Vec<f64>) -> Result<TheirSnapshot, BenchError> {
        Ok(TheirSnapshot { size: measure(&text), parsed: ab_snapshot::parse(&text)?, text, times_ms })
    }
}

/// One page in one mode on both sides.
#[derive(Clone, Debug)]
pub struct ModeComparison {
    /// agent-browser's side.
    pub theirs: TheirSnapshot,
    /// axsnap's side.
    pub ours: OurSnapshot,
    /// How much of theirs ours holds.
    pub recall: Recall,
}

/// One page, both modes.
#[derive(Clone, Debug)]
pub struct PageComparison {
    /// The page, relative to the served root.
    pub page: String,
    /// `snapshot` against the full snapshot.
    pub full: ModeComparison,
    /// `snapshot -i` against the interactive-only view.
    pub interactive: ModeComparison,
}

impl PageComparison {
    /// The comparison of `mode`.
    pub fn mode(&self, mode: Mode) -> &ModeComparison {
        match mode {
            Mode::Full => &self.full,
            Mode::Interactive => &self.interactive,
        }
    }
}

/// A whole run.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// What `agent-browser --version` says.
    pub agent_browser: String,
    /// The Chromium both sides used.
    pub browser: PathBuf,
    /// What it says with `--version`.
    pub browser_version: String,
    /// Snapshots per page and mode on each side.
    pub runs: usize,
    /// The pages, in the order asked.
    pub pages: Vec<PageComparison>,
}

/// Serves `root`, snapshots each of `pages` (paths under it) with agent-browser, then with
/// axsnap, in both modes, and measures both.
pub async fn compare(root: &Path, pages: &[&str], opts: &Options) -> Result<Comparison, BenchError> {
    let browser = axsnap_cdp::find_browser(opts.browser.as_deref())?;
    let browser_version = browser_version(&browser);
    let server = StaticServer::start(root)?;
    let urls: Vec<String> = pages.iter().map(|p| server.url(p)).collect();

    let ab_opts = AgentBrowserOptions {
        binary: opts.binary.clone(),
        runs: opts.runs,
        timeout: opts.command_timeout,
        ..AgentBrowserOptions::new(browser.clone())
    };
    let ab_urls = urls.clone();
    // The CLI blocks on child processes: keep it off the async workers.
    let (version, theirs) = tokio::task::spawn_blocking(move || {
        let version = agent_browser::version(&ab_opts)?;
        let pages = ab_urls
            .iter()
            .map(|u| agent_browser::snapshot_page(&ab_opts, u))
            .collect::<Result<Vec<_>, _>>()?;
        Ok::<_, BenchError>((version, pages))
    })
    .await
    .map_err(|e| BenchError::AgentBrowser { command: "agent-browser".into(), reason: e.to_string() })??;

    let views = [Default::default(), interactive_view()];
    let mut axsnap = Axsnap::launch(Some(browser.clone())).await?;
    let mut ours = Vec::new();
    for url in &urls {
        match axsnap.snapshot_views(url, opts.runs, opts.capture_deadline, &views).await {
            Ok(s) => ours.push(s),
            Err(e) => {
                let _ = axsnap.close().await;
                return Err(e);
            }
        }
    }
    axsnap.close().await?;

    let mut out = Vec::new();
    for ((page, theirs), ours) in pages.iter().zip(theirs).zip(ours) {
        let mut ours = ours.into_iter();
        let (Some(our_full), Some(our_interactive)) = (ours.next(), ours.next()) else {
            unreachable!("two views asked, two answered")
        };
        let full = TheirSnapshot::new(theirs.full, theirs.full_ms)?;
        let interactive = TheirSnapshot::new(theirs.interactive, theirs.interactive_ms)?;
        let rules = Rules::AGENT_BROWSER;
        out.push(PageComparison {
            page: page.to_string(),
            full: ModeComparison {
                recall: recall_by(&rules, &full.parsed, &our_full.tree),
                theirs: full,
                ours: our_full,
            },
            interactive: ModeComparison {
                recall: recall_by(&rules, &interactive.parsed, &our_interactive.tree),
                theirs: interactive,
                ours: our_interactive,
            },
        });
    }
    Ok(Comparison { agent_browser: version, browser, browser_version, runs: opts.runs.max(1), pages: out })
}

/// `browser --version`, or a note that it did not say.
fn browser_version(browser: &Path) -> String {
    match std::process::Command::new(browser).arg("--version").output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        _ => "(version unknown)".into(),
    }
}

/// Sizes and recalls added up over some pages.
#[derive(Clone, Debug, Default, PartialEq)]
struct Sum {
    pages: usize,
    theirs: Size,
    ours: Size,
    interactive: (usize, usize),
    text: (usize, usize),
}

impl Sum {
    fn add(&mut self, m: &ModeComparison) {
        let add = |a: &mut Size, b: &Size| {
            a.bytes += b.bytes;
            a.tokens_cl100k += b.tokens_cl100k;
            a.tokens_o200k += b.tokens_o200k;
        };
        self.pages += 1;
        add(&mut self.theirs, &m.theirs.size);
        add(&mut self.ours, &m.ours.size);
        self.interactive.0 += m.recall.interactive.found;
        self.interactive.1 += m.recall.interactive.total;
        self.text.0 += m.recall.text.found;
        self.text.1 += m.recall.text.total;
    }
}

fn ratio(ours: usize, theirs: usize) -> f64 {
    if theirs == 0 {
        0.0
    } else {
        100.0 * ours as f64 / theirs as f64
    }
}

fn fraction(found: usize, total: usize) -> String {
    let pct = if total == 0 { 100.0 } else { 100.0 * found as f64 / total as f64 };
    format!("{}/{} ({pct:.1}%)", thousands(found), thousands(total))
}

fn score(s: &Score) -> String {
    fraction(s.found, s.total)
}

fn row(out: &mut String, label: &str, theirs: &Size, ours: &Size, interactive: String, text: String) {
    let _ = writeln!(
        out,
        "| {label} | {} / {} | {} | {} / {} | {} | {:.1}% / {:.1}% | {interactive} | {text} |",
        thousands(theirs.tokens_cl100k),
        thousands(theirs.tokens_o200k),
        thousands(theirs.bytes),
        thousands(ours.tokens_cl100k),
        thousands(ours.tokens_o200k),
        thousands(ours.bytes),
        ratio(ours.tokens_cl100k, theirs.tokens_cl100k),
        ratio(ours.tokens_o200k, theirs.tokens_o200k),
    );
}

/// The size and recall table of one mode: a row per page, then the totals over the book
/// chapters among them and over all of them.
pub fn size_table(c: &Comparison, mode: Mode) -> String {
    let text_head = match mode {
        Mode::Full => "text recall",
        Mode::Interactive => "context recall (names of headings, landmarks)",
    };
    let mut out = format!(
        "| page | agent-browser tokens (cl100k / o200k) | agent-browser bytes | axsnap tokens (cl100k / o200k) \
         | axsnap bytes | ours / theirs (cl100k / o200k) | interactive recall | {text_head} |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- |\n"
    );
    let (mut book, mut all) = (Sum::default(), Sum::default());
    for p in &c.pages {
        let m = p.mode(mode);
        row(
            &mut out,
            &p.page,
            &m.theirs.size,
            &m.ours.size,
            score(&m.recall.interactive),
            score(&m.recall.text),
        );
        if docs::BOOK_CHAPTERS.contains(&p.page.as_str()) {
            book.add(m);
        }
        all.add(m);
    }
    for (label, sum) in [("book chapters", &book), ("all pages", &all)] {
        if sum.pages > 1 {
            row(
                &mut out,
                &format!("**total, {} {label}**", sum.pages),
                &sum.theirs,
                &sum.ours,
                fraction(sum.interactive.0, sum.interactive.1),
                fraction(sum.text.0, sum.text.1),
            );
        }
    }
    out
}

/// The timing table: medians of the runs, both modes.
pub fn time_table(c: &Comparison) -> String {
    let mut out = format!(
        "| page | agent-browser `snapshot` / `snapshot -i` (CLI wall time, median of {n}) | axsnap capture \
         (median of {n}) | axsnap capture + project + render, full / interactive |\n| --- | --- | --- | --- |\n",
        n = c.runs
    );
    for p in &c.pages {
        let _ = writeln!(
            out,
            "| {} | {:.0} ms / {:.0} ms | {:.0} ms | {:.0} ms / {:.0} ms |",
            p.page,
            median(&p.full.theirs.times_ms),
            median(&p.interactive.theirs.times_ms),
            median(&p.full.ours.capture_ms),
            median(&p.full.ours.total_ms),
            median(&p.interactive.ours.total_ms),
        );
    }
    out
}

/// What recall missed, per page and mode, with agent-browser's refs to find it in its text.
pub fn misses(c: &Comparison) -> String {
    let mut out = String::new();
    for mode in Mode::ALL {
        for p in &c.pages {
            let m = p.mode(mode);
            for (kind, s) in [("interactive", &m.recall.interactive), ("text", &m.recall.text)] {
                let _ = writeln!(
                    out,
                    "{} ({}) — {kind}: {} missed",
                    p.page,
                    mode.suffix(),
                    thousands(s.misses.len())
                );
                for miss in &s.misses {
                    let text = if miss.what.contains(&miss.text) {
                        String::new()
                    } else {
                        format!(": {}", cut(&miss.text, 100))
                    };
                    let _ = writeln!(
                        out,
                        "  - {}{}{}{}",
                        miss.what,
                        miss.ref_id.as_deref().map(|r| format!(" [{r}]")).unwrap_or_default(),
                        text,
                        miss.near.as_deref().map(|n| format!(" (ours: {n:?})")).unwrap_or_default()
                    );
                }
            }
        }
    }
    out
}

/// Where each side's tokens go, per page and mode: the most expensive line kinds (the role
/// word a line starts with; agent-browser's lines read as Playwright's, `- role ...`).
pub fn cost_report(c: &Comparison, top: usize) -> String {
    let mut out = String::new();
    for mode in Mode::ALL {
        for p in &c.pages {
            let m = p.mode(mode);
            let floor = count_cl100k(&visible_text_by(&Rules::AGENT_BROWSER, &m.theirs.parsed).join("\n"));
            let _ = writeln!(
                out,
                "{} ({}): agent-browser's visible text alone, one string a line: {} tokens",
                p.page,
                mode.suffix(),
                thousands(floor)
            );
            for (side, text, style) in [
                ("axsnap", &m.ours.text, Style::Axsnap),
                ("agent-browser", &m.theirs.text, Style::Playwright),
            ] {
                let k = costs(text, style);
                let words = match k.words {
                    0 => String::new(),
                    w => format!("; its words alone {}", thousands(w)),
                };
                let _ = writeln!(
                    out,
                    "  {side}: {} tokens by line; indentation {}, refs {}{words}",
                    thousands(k.tokens),
                    thousands(k.indent),
                    thousands(k.refs)
                );
                for kind in k.kinds.iter().take(top) {
                    let _ = writeln!(
                        out,
                        "    {:<18} {:>7} lines {:>8} tokens",
                        kind.kind,
                        thousands(kind.lines),
                        thousands(kind.tokens)
                    );
                }
            }
        }
        // The floor on the book chapters: our words alone and our refs, against half of
        // agent-browser's snapshot (the goal).
        let (mut words, mut refs, mut theirs) = (0, 0, 0);
        for p in c.pages.iter().filter(|p| docs::BOOK_CHAPTERS.contains(&p.page.as_str())) {
            let m = p.mode(mode);
            let k = costs(&m.ours.text, Style::Axsnap);
            words += k.words;
            refs += k.refs;
            theirs += m.theirs.size.tokens_cl100k;
        }
        let _ = writeln!(
            out,
            "book chapters ({}): axsnap's words alone {} + its refs {} = {}, against half of agent-browser's {}: {}",
            mode.suffix(),
            thousands(words),
            thousands(refs),
            thousands(words + refs),
            thousands(theirs),
            thousands(theirs / 2)
        );
    }
    out
}

/// Writes each page's four texts into `dir`: `<page>.agent-browser.<mode>.txt` and
/// `<page>.axsnap.<mode>.txt`.
pub fn save(c: &Comparison, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for p in &c.pages {
        let stem = p.page.replace(['/', '.'], "_");
        for mode in Mode::ALL {
            let m = p.mode(mode);
            std::fs::write(dir.join(format!("{stem}.agent-browser.{}.txt", mode.suffix())), &m.theirs.text)?;
            std::fs::write(dir.join(format!("{stem}.axsnap.{}.txt", mode.suffix())), &m.ours.text)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_fractions() {
        assert_eq!(ratio(1, 0), 0.0);
        assert_eq!(ratio(1, 4), 25.0);
        assert_eq!(fraction(0, 0), "0/0 (100.0%)");
        assert_eq!(fraction(1234, 2468), "1,234/2,468 (50.0%)");
    }
}
