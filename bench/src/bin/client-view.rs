//! `client-view`: what a model receives from one navigation to real docs pages, through
//! `axsnap mcp`, `axsnap mcp --structured-content` and Playwright MCP, in the text view and
//! the structured-first view (Claude Code, Codex, OpenCode); a markdown table and JSON.
//!
//! ```text
//! scripts/bench-client-view [--runs N] [--arms LIST] [--out DIR]
//! ```

use std::path::PathBuf;

use anyhow::{bail, Context};
use axsnap_bench::arms::Tools;
use axsnap_bench::client_view_table::{json, markdown, measure, DocsRoots, ViewArm};
use axsnap_bench::runtime;
use clap::Parser;

/// One navigation per docs page and server, counted in both client views.
#[derive(Parser, Debug)]
#[command(name = "client-view")]
struct Args {
    /// Arms, comma-separated: axsnap, axsnap-structured, playwright-mcp,
    /// playwright-mcp-snapshot (its navigation, then browser_snapshot).
    #[arg(
        long,
        default_value = "axsnap,axsnap-structured,playwright-mcp,playwright-mcp-snapshot",
        value_delimiter = ','
    )]
    arms: Vec<String>,
    /// Runs of every page and arm; the table gives medians (axsnap's JSON varies from run to
    /// run: Chromium's random frame and document ids tokenize differently).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Where client-view.md, client-view.json and the answers (client-view/) go.
    #[arg(long, default_value = "target/bench")]
    out: PathBuf,
    /// The axsnap binary (its tokens do not depend on the build profile).
    #[arg(long, env = "AXSNAP_BIN", default_value = "target/release/axsnap")]
    axsnap: PathBuf,
    /// The Chromium every arm drives.
    #[arg(long, env = "AXSNAP_BROWSER", default_value = "/usr/bin/chromium")]
    browser: PathBuf,
    /// The bench's npm packages (Playwright MCP), as `npm ci` in bench/node installs them.
    #[arg(long, env = "AXSNAP_BENCH_NODE_MODULES", default_value = "bench/node/node_modules")]
    node_modules: PathBuf,
    /// The Rust docs root (default: the toolchain's, or AXSNAP_RUST_DOCS).
    #[arg(long)]
    rust_docs: Option<PathBuf>,
    /// Python's docs root (Debian python3-doc).
    #[arg(long, default_value = "/usr/share/doc/python3-doc/html")]
    python_docs: PathBuf,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let arms: Vec<ViewArm> = args
        .arms
        .iter()
        .map(|a| {
            ViewArm::parse(a).with_context(|| {
                let names: Vec<&str> = ViewArm::ALL.iter().map(|v| v.key()).collect();
                format!("no arm {a:?}; the arms are {}", names.join(", "))
            })
        })
        .collect::<anyhow::Result<_>>()?;
    for (what, p) in [("axsnap", &args.axsnap), ("Chromium", &args.browser)] {
        if !p.is_file() {
            bail!(
                "no {what} at {} (scripts/bench-client-view builds and installs what it needs)",
                p.display()
            );
        }
    }
    if arms.iter().any(|a| a.is_playwright()) && !args.node_modules.join("@playwright/mcp/cli.js").is_file() {
        bail!("no Playwright MCP under {} (npm ci in bench/node installs it)", args.node_modules.display());
    }
    let rust = match args.rust_docs {
        Some(p) => p,
        None => axsnap_bench::docs::rust_docs()?,
    };
    let roots = DocsRoots { rust, python: args.python_docs };
    let tools = Tools {
        axsnap: args.axsnap.canonicalize()?,
        chromium: args.browser.clone(),
        node_modules: args.node_modules.canonicalize().unwrap_or_else(|_| args.node_modules.clone()),
        // Neither is used: no desktop arm, no agent-browser.
        desktop_venv: PathBuf::new(),
        agent_browser: PathBuf::new(),
    };
    std::fs::create_dir_all(&args.out)?;
    let out = args.out.canonicalize()?;
    let rows = runtime()?
        .block_on(measure(&tools, &roots, &arms, args.runs, &out.join("client-view")))
        .context("measuring the client views")?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let md = format!(
        "{}\nRust docs: {}; Python docs: {}. The answers are in {}.\n",
        markdown(&rows, &command),
        roots.rust.display(),
        roots.python.display(),
        out.join("client-view").display()
    );
    std::fs::write(out.join("client-view.md"), &md)?;
    std::fs::write(out.join("client-view.json"), serde_json::to_string_pretty(&json(&rows, &command))?)?;
    println!("{md}");
    eprintln!("client-view: report in {}", out.join("client-view.md").display());
    Ok(())
}
