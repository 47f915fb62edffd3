//! The client-view table (binary `client-view`, `scripts/bench-client-view`): what a model
//! receives from one navigation to a real docs page, per MCP server, in the text view and the
//! structured-first view ([`crate::client_view`]).
//!
//! Each page is served on 127.0.0.1 by the bench's file server ([`crate::serve`]); each arm
//! gets a fresh server per page, started as the workloads start it ([`crate::arms`]: the same
//! Chromium, a 1280×720 viewport), and makes one call, `navigate` (axsnap) or
//! `browser_navigate` (Playwright MCP). The arms:
//!
//! - `axsnap mcp`: default flags;
//! - `axsnap mcp --structured-content`: the JSON for programs, as every result carried it
//!   before issue 50;
//! - Playwright MCP (npm `@playwright/mcp`, pinned by `bench/node/package-lock.json`);
//! - Playwright MCP, then `browser_snapshot`: its navigation's answer links the snapshot as a
//!   file, so an agent that is to see the page calls `browser_snapshot` (as the workloads'
//!   `playwright-mcp` arm does); both answers counted.

use std::path::{Path, PathBuf};
use std::time::Duration;

use axsnap_core::tokens::Size;
use serde::Serialize;
use serde_json::json;

use crate::arms::{Arm, Tools};
use crate::client_view::ClientViews;
use crate::error::BenchError;
use crate::mcp_client::McpServer;
use crate::report::thousands;
use crate::serve::StaticServer;

/// How long a server may take to start, and its navigation to answer.
const TIMEOUT: Duration = Duration::from_secs(90);

/// Which docs a page is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Docs {
    /// The toolchain's Rust docs ([`crate::docs::rust_docs`]).
    Rust,
    /// Python's docs (Debian `python3-doc`).
    Python,
}

/// One page of the table.
#[derive(Clone, Copy, Debug)]
pub struct Page {
    /// How the table names it.
    pub label: &'static str,
    /// Its docs.
    pub docs: Docs,
    /// Its path under the docs root.
    pub path: &'static str,
}

/// The pages: a Rust book chapter (prose and code), Python's `stdtypes` (a long reference
/// page) and its tutorial's index (a short one).
pub const PAGES: [Page; 3] = [
    Page { label: "Rust book, ch04-01", docs: Docs::Rust, path: "book/ch04-01-what-is-ownership.html" },
    Page { label: "Python library/stdtypes.html", docs: Docs::Python, path: "library/stdtypes.html" },
    Page { label: "Python tutorial/index.html", docs: Docs::Python, path: "tutorial/index.html" },
];

/// One server of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewArm {
    /// `axsnap mcp` with default flags.
    Axsnap,
    /// `axsnap mcp --structured-content`.
    AxsnapStructured,
    /// Playwright MCP.
    PlaywrightMcp,
    /// Playwright MCP, with the `browser_snapshot` after the navigation.
    PlaywrightMcpSnapshot,
}

impl ViewArm {
    /// Every arm, in the table's order.
    pub const ALL: [ViewArm; 4] =
        [ViewArm::Axsnap, ViewArm::AxsnapStructured, ViewArm::PlaywrightMcp, ViewArm::PlaywrightMcpSnapshot];

    /// How the table names it.
    pub fn name(self) -> &'static str {
        match self {
            ViewArm::Axsnap => "axsnap mcp",
            ViewArm::AxsnapStructured => "axsnap mcp --structured-content",
            ViewArm::PlaywrightMcp => "Playwright MCP",
            ViewArm::PlaywrightMcpSnapshot => "Playwright MCP + browser_snapshot",
        }
    }

    /// Its name on the command line.
    pub fn key(self) -> &'static str {
        match self {
            ViewArm::Axsnap => "axsnap",
            ViewArm::AxsnapStructured => "axsnap-structured",
            ViewArm::PlaywrightMcp => "playwright-mcp",
            ViewArm::PlaywrightMcpSnapshot => "playwright-mcp-snapshot",
        }
    }

    /// The arm of that command-line name.
    pub fn parse(key: &str) -> Option<ViewArm> {
        ViewArm::ALL.into_iter().find(|a| a.key() == key)
    }

    /// Whether it runs Playwright MCP.
    pub fn is_playwright(self) -> bool {
        matches!(self, ViewArm::PlaywrightMcp | ViewArm::PlaywrightMcpSnapshot)
    }

    /// Its command line and working folder, as the workloads start it; `out` takes the files
    /// it writes.
    pub fn command(self, tools: &Tools, out: &Path) -> Result<(Vec<String>, Option<PathBuf>), BenchError> {
        let arm = match self {
            ViewArm::Axsnap | ViewArm::AxsnapStructured => Arm::AxsnapAuto,
            ViewArm::PlaywrightMcp | ViewArm::PlaywrightMcpSnapshot => Arm::PlaywrightMcp,
        };
        let (mut argv, cwd) = arm
            .command(tools, out, false)
            .ok_or_else(|| BenchError::Workload(format!("{} has no server command", arm.name())))?;
        if self == ViewArm::AxsnapStructured {
            argv.push("--structured-content".into());
        }
        Ok((argv, cwd))
    }

    /// The calls that open `url` and show the page.
    pub fn calls(self, url: &str) -> Vec<(&'static str, serde_json::Value)> {
        match self {
            ViewArm::Axsnap | ViewArm::AxsnapStructured => vec![("navigate", json!({ "url": url }))],
            ViewArm::PlaywrightMcp => vec![("browser_navigate", json!({ "url": url }))],
            ViewArm::PlaywrightMcpSnapshot => {
                vec![("browser_navigate", json!({ "url": url })), ("browser_snapshot", json!({}))]
            }
        }
    }
}

/// One page through one arm.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The page's label.
    pub page: String,
    /// Its docs.
    pub docs: Docs,
    /// Its path under the docs root.
    pub path: String,
    /// The arm's name.
    pub arm: String,
    /// The server's name and version as it said them (and the npm package's, for a peer).
    pub server: String,
    /// The tools called, in order.
    pub calls: Vec<String>,
    /// An answer carried `structuredContent`.
    pub structured: bool,
    /// An answer was a tool error.
    pub is_error: bool,
    /// The text view, the answers added up; the median over runs.
    pub text: Size,
    /// The structured-first view, the answers added up; the median over runs.
    pub structured_first: Size,
    /// The text view of each run.
    pub text_runs: Vec<Size>,
    /// The structured-first view of each run.
    pub structured_first_runs: Vec<Size>,
    /// The first answer's first line, to see what it was.
    pub first_line: String,
}

/// Where the pages come from.
#[derive(Clone, Debug)]
pub struct DocsRoots {
    /// The Rust docs (`share/doc/rust/html` of the toolchain).
    pub rust: PathBuf,
    /// Python's docs (`/usr/share/doc/python3-doc/html`).
    pub python: PathBuf,
}

impl DocsRoots {
    fn root(&self, docs: Docs) -> &Path {
        match docs {
            Docs::Rust => &self.rust,
            Docs::Python => &self.python,
        }
    }
}

/// Measures every page through every arm in `arms`, `runs` times (at least once), a fresh
/// server for each page and run; `out` takes the servers' files and the last run's answers in
/// both views (`<page>-<arm>.text.txt` and `.structured-first.txt`).
///
/// Several runs, because axsnap's JSON differs from run to run: every node names its frame and
/// document by Chromium's random 32-digit hex ids, which tokenize differently each time.
pub async fn measure(
    tools: &Tools,
    roots: &DocsRoots,
    arms: &[ViewArm],
    runs: usize,
    out: &Path,
) -> Result<Vec<Row>, BenchError> {
    std::fs::create_dir_all(out).map_err(BenchError::Serve)?;
    for page in PAGES {
        let root = roots.root(page.docs);
        if !root.join(page.path).is_file() {
            return Err(BenchError::Workload(format!("no {} under {}", page.path, root.display())));
        }
    }
    let mut rows: Vec<Row> = Vec::new();
    for _ in 0..runs.max(1) {
        for page in PAGES {
            let site = StaticServer::start(roots.root(page.docs))?;
            let url = site.url(page.path);
            for &arm in arms {
                let row = measure_one(tools, page, arm, &url, out).await?;
                match rows.iter_mut().find(|r| r.path == row.path && r.arm == row.arm) {
                    Some(r) => r.add_run(&row),
                    None => rows.push(row),
                }
            }
        }
    }
    Ok(rows)
}

/// One page through one arm, a fresh server: a row of one run.
async fn measure_one(
    tools: &Tools,
    page: Page,
    arm: ViewArm,
    url: &str,
    out: &Path,
) -> Result<Row, BenchError> {
    let (argv, cwd) = arm.command(tools, &out.join("servers"))?;
    let server = McpServer::start(&argv, cwd.as_deref(), &[], TIMEOUT).await?;
    let name = match peer_version(arm, tools) {
        Some(v) => format!("{v} ({})", server.server),
        None => server.server.clone(),
    };
    let calls = arm.calls(url);
    let mut answers = Vec::new();
    for (tool, args) in &calls {
        match server.call_with_views(tool, args.clone(), TIMEOUT).await {
            Ok(a) => answers.push(a),
            Err(e) => {
                server.stop().await;
                return Err(e);
            }
        }
    }
    server.stop().await;
    let stem = format!("{}-{}", slug(page.path), slug(arm.key()));
    let joined = |view: fn(&ClientViews) -> &str| -> String {
        answers.iter().map(|(_, v)| view(v)).collect::<Vec<_>>().join("\n\n")
    };
    let views = [
        ("text", joined(ClientViews::text_view)),
        ("structured-first", joined(ClientViews::structured_first_view)),
    ];
    for (view, text) in views {
        let file = out.join(format!("{stem}.{view}.txt"));
        std::fs::write(&file, text).map_err(BenchError::Serve)?;
    }
    let (mut text, mut structured_first) = (Size::default(), Size::default());
    for (a, _) in &answers {
        add(&mut text, a.size);
        add(&mut structured_first, a.structured_first);
    }
    let first_line =
        answers.first().and_then(|(a, _)| a.text.lines().next()).unwrap_or("").chars().take(200).collect();
    Ok(Row {
        page: page.label.to_string(),
        docs: page.docs,
        path: page.path.to_string(),
        arm: arm.name().to_string(),
        server: name,
        calls: calls.iter().map(|(tool, _)| tool.to_string()).collect(),
        structured: answers.iter().any(|(a, _)| a.structured),
        is_error: answers.iter().any(|(a, _)| a.is_error),
        text,
        structured_first,
        text_runs: vec![text],
        structured_first_runs: vec![structured_first],
        first_line,
    })
}

impl Row {
    /// Adds another run of the same page and arm: its sizes join the runs, and `text` and
    /// `structured_first` become the medians over them (each of bytes and tokens on its own).
    pub fn add_run(&mut self, other: &Row) {
        self.text_runs.extend(other.text_runs.iter().copied());
        self.structured_first_runs.extend(other.structured_first_runs.iter().copied());
        self.structured |= other.structured;
        self.is_error |= other.is_error;
        self.text = median_size(&self.text_runs);
        self.structured_first = median_size(&self.structured_first_runs);
    }
}

/// The median of each of bytes, cl100k and o200k over `sizes` (the lower middle for an even
/// count: a size is counted, never averaged).
fn median_size(sizes: &[Size]) -> Size {
    let median = |f: fn(&Size) -> usize| {
        let mut v: Vec<usize> = sizes.iter().map(f).collect();
        v.sort_unstable();
        v.get(v.len().saturating_sub(1) / 2).copied().unwrap_or(0)
    };
    Size {
        bytes: median(|s| s.bytes),
        tokens_cl100k: median(|s| s.tokens_cl100k),
        tokens_o200k: median(|s| s.tokens_o200k),
    }
}

/// `s` added to `into`.
fn add(into: &mut Size, s: Size) {
    into.bytes += s.bytes;
    into.tokens_cl100k += s.tokens_cl100k;
    into.tokens_o200k += s.tokens_o200k;
}

/// The installed npm package's `name@version` for a peer.
fn peer_version(arm: ViewArm, tools: &Tools) -> Option<String> {
    if !arm.is_playwright() {
        return None;
    }
    let dir = Arm::PlaywrightMcp.package(tools)?;
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(format!("{}@{}", v.get("name")?.as_str()?, v.get("version")?.as_str()?))
}

/// `s` as a file name: ASCII letters and digits, anything else `-`.
fn slug(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect()
}

/// `median`, and the range over `runs` in brackets when they differ.
fn cell(median: usize, runs: &[Size], f: fn(&Size) -> usize) -> String {
    let (lo, hi) = (runs.iter().map(f).min().unwrap_or(median), runs.iter().map(f).max().unwrap_or(median));
    if lo == hi {
        thousands(median)
    } else {
        format!("{} ({}–{})", thousands(median), thousands(lo), thousands(hi))
    }
}

/// The table in markdown: one row per page and arm.
pub fn markdown(rows: &[Row], command: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "# What the model receives from `navigate` (client views)\n\n`{command}`\n");
    let _ = writeln!(
        out,
        "One navigation per page, a fresh server each, medians over {} runs (the range in brackets where runs differ). *text*: the result's text content, what text-first clients (Kimi Code) give the model. *structured-first*: its `structuredContent` as compact JSON when it carries it and is no error, else the text: what Claude Code, Codex and OpenCode give the model. × is structured-first over text, cl100k.\n",
        rows.iter().map(|r| r.text_runs.len()).max().unwrap_or(0)
    );
    let _ = writeln!(
        out,
        "| page | arm | structuredContent | text cl100k | text o200k | structured-first cl100k | structured-first o200k | × |"
    );
    let _ = writeln!(out, "|{}", " --- |".repeat(8));
    for r in rows {
        let ratio = if r.text.tokens_cl100k > 0 {
            format!("{:.1}", r.structured_first.tokens_cl100k as f64 / r.text.tokens_cl100k as f64)
        } else {
            "–".to_string()
        };
        let _ = writeln!(
            out,
            "| {} | {} | {}{} | {} | {} | {} | {} | {} |",
            r.page,
            r.arm,
            if r.structured { "yes" } else { "no" },
            if r.is_error { " (error)" } else { "" },
            cell(r.text.tokens_cl100k, &r.text_runs, |s| s.tokens_cl100k),
            cell(r.text.tokens_o200k, &r.text_runs, |s| s.tokens_o200k),
            cell(r.structured_first.tokens_cl100k, &r.structured_first_runs, |s| s.tokens_cl100k),
            cell(r.structured_first.tokens_o200k, &r.structured_first_runs, |s| s.tokens_o200k),
            ratio
        );
    }
    // Each arm's server once (the same version answers every page).
    let mut servers: Vec<(&str, &str)> = Vec::new();
    for r in rows {
        if !servers.iter().any(|(arm, _)| *arm == r.arm) {
            servers.push((&r.arm, &r.server));
        }
    }
    let _ = writeln!(out, "\nServers:\n");
    for (arm, server) in servers {
        let _ = writeln!(out, "- {arm}: {server}");
    }
    out
}

/// The report as JSON: the command and the rows.
pub fn json(rows: &[Row], command: &str) -> serde_json::Value {
    json!({ "command": command, "rows": rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(tokens: usize) -> Size {
        Size { bytes: tokens * 4, tokens_cl100k: tokens, tokens_o200k: tokens - tokens / 10 }
    }

    fn row(arm: ViewArm, text: usize, sf: usize, structured: bool) -> Row {
        Row {
            page: "Rust book, ch04-01".into(),
            docs: Docs::Rust,
            path: "book/ch04-01-what-is-ownership.html".into(),
            arm: arm.name().into(),
            server: "axsnap 0.1.0".into(),
            calls: vec!["navigate".into()],
            structured,
            is_error: false,
            text: size(text),
            structured_first: size(sf),
            text_runs: vec![size(text)],
            structured_first_runs: vec![size(sf)],
            first_line: "# page".into(),
        }
    }

    #[test]
    fn runs_are_summed_up_by_their_median_and_range() {
        let mut r = row(ViewArm::AxsnapStructured, 8210, 79182, true);
        r.add_run(&row(ViewArm::AxsnapStructured, 8210, 81000, true));
        r.add_run(&row(ViewArm::AxsnapStructured, 8210, 77000, true));
        assert_eq!(r.structured_first.tokens_cl100k, 79182);
        assert_eq!(r.text.tokens_cl100k, 8210);
        assert_eq!(r.structured_first_runs.len(), 3);
        let md = markdown(&[r], "client-view --runs 3");
        assert!(md.contains("medians over 3 runs"), "{md}");
        assert!(md.contains("| yes | 8,210 | 7,389 | 79,182 (77,000–81,000) |"), "{md}");
        assert_eq!(median_size(&[size(10), size(30)]).tokens_cl100k, 10);
        assert_eq!(median_size(&[]), Size::default());
    }

    #[test]
    fn the_table_gives_both_views() {
        let rows =
            vec![row(ViewArm::Axsnap, 8210, 8210, false), row(ViewArm::AxsnapStructured, 8210, 79182, true)];
        let md = markdown(&rows, "client-view");
        assert!(
            md.contains("| Rust book, ch04-01 | axsnap mcp | no | 8,210 | 7,389 | 8,210 | 7,389 | 1.0 |"),
            "{md}"
        );
        assert!(
            md.contains("| axsnap mcp --structured-content | yes | 8,210 | 7,389 | 79,182 | 71,264 | 9.6 |"),
            "{md}"
        );
        assert_eq!(md.matches("- axsnap mcp: axsnap 0.1.0").count(), 1, "{md}");
        let v = json(&rows, "client-view");
        assert_eq!(v["rows"][1]["structured_first"]["tokens_cl100k"], 79182);
        assert_eq!(v["rows"][1]["docs"], "rust");
    }

    #[test]
    fn arms_are_started_as_the_workloads_start_them() {
        let tools = Tools {
            axsnap: "/x/axsnap".into(),
            chromium: "/usr/bin/chromium".into(),
            node_modules: "/n".into(),
            desktop_venv: "/v".into(),
            agent_browser: "/a".into(),
        };
        let out = Path::new("/o");
        let (plain, _) = ViewArm::Axsnap.command(&tools, out).unwrap();
        assert_eq!(&plain[..2], ["/x/axsnap", "mcp"]);
        assert!(!plain.contains(&"--structured-content".to_string()));
        let (structured, _) = ViewArm::AxsnapStructured.command(&tools, out).unwrap();
        assert_eq!(structured.last().map(String::as_str), Some("--structured-content"));
        let (pw, cwd) = ViewArm::PlaywrightMcp.command(&tools, out).unwrap();
        assert!(pw.iter().any(|a| a == "--no-sandbox") && pw.iter().any(|a| a == "--isolated"), "{pw:?}");
        assert_eq!(cwd, Some(PathBuf::from("/n/@playwright/mcp")));
        assert_eq!(ViewArm::PlaywrightMcp.calls("u").len(), 1);
        let both: Vec<&str> = ViewArm::PlaywrightMcpSnapshot.calls("u").iter().map(|c| c.0).collect();
        assert_eq!(both, ["browser_navigate", "browser_snapshot"]);
        for a in ViewArm::ALL {
            assert_eq!(ViewArm::parse(a.key()), Some(a));
        }
        assert_eq!(thousands(143855), "143,855");
        assert_eq!(thousands(999), "999");
        assert_eq!(slug("book/ch04-01.html"), "book-ch04-01-html");
    }
}
