//! `vs-playwright`: axsnap's snapshot against Playwright's AI snapshot on the local Rust docs,
//! side by side in one run: tokens (cl100k, o200k), bytes, the ratio, and how much of
//! Playwright's snapshot ours holds (interactive elements and visible text; the rules are in
//! `axsnap_bench::recall`).
//!
//! ```text
//! scripts/bench-playwright [--runs N] [--misses] [--costs] [--save DIR] [--browser PATH] [--dom-only | --always-ax]
//! cargo run --release -p axsnap-bench --bin vs-playwright -- [same options]
//! ```

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use axsnap_bench::compare::{compare, CompareOptions};
use axsnap_bench::{docs, playwright, report, runtime};
use axsnap_core::interchange::{write_tree, TargetInfo};
use clap::Parser;

/// axsnap against Playwright's AI snapshot on the local Rust docs.
#[derive(Parser, Debug)]
#[command(name = "vs-playwright")]
struct Args {
    /// The Chromium both sides launch (default: the one axsnap finds, /usr/bin/chromium).
    #[arg(long, value_name = "PATH", env = "AXSNAP_BROWSER")]
    browser: Option<PathBuf>,
    /// Snapshots per page on each side; timings are their medians.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Pages under the docs root (default: a book chapter, the std index, the Vec page).
    #[arg(long = "page", value_name = "PATH")]
    pages: Vec<String>,
    /// List what recall missed.
    #[arg(long)]
    misses: bool,
    /// Show where each side's tokens go (the most expensive line kinds).
    #[arg(long)]
    costs: bool,
    /// Write both snapshots of each page (and axsnap's raw capture) into this folder.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// The Node.js executable.
    #[arg(long, value_name = "PATH", default_value = "node")]
    node: PathBuf,
    /// Seconds an axsnap capture may take.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    capture_timeout: u64,
    /// Build axsnap's tree from the DOM snapshot only, without the accessibility tree (what a
    /// big page's capture falls back to): its time and recall against Playwright's.
    #[arg(long)]
    dom_only: bool,
    /// Ask for the accessibility tree on pages of any size (by default a page of
    /// axsnap_cdp::DOM_FIRST_ELEMENTS elements or more is built from its DOM snapshot).
    #[arg(long)]
    always_ax: bool,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let root = docs::rust_docs()?;
    let pages: Vec<&str> = if args.pages.is_empty() {
        docs::PAGES.to_vec()
    } else {
        args.pages.iter().map(String::as_str).collect()
    };
    let opts = CompareOptions {
        browser: args.browser.clone(),
        node: args.node.clone(),
        playwright_dir: playwright::default_dir(),
        runs: args.runs.max(1),
        capture_deadline: Duration::from_secs(args.capture_timeout),
        dom_only: args.dom_only,
        always_ax: args.always_ax,
    };
    let c = runtime()?.block_on(compare(&root, &pages, &opts))?;
    println!(
        "playwright-core {} ({}); axsnap {}; {} ({}); docs: {}\n",
        c.playwright_core,
        c.api,
        env!("CARGO_PKG_VERSION"),
        c.browser_version,
        c.browser.display(),
        root.display()
    );
    println!("{}", report::size_table(&c));
    println!("{}", report::time_table(&c));
    if args.misses {
        println!("{}", report::misses(&c));
    }
    if args.costs {
        println!("{}", report::cost_report(&c, 12));
    }
    if let Some(dir) = &args.save {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        for p in &c.pages {
            let stem = p.page.replace(['/', '.'], "_");
            let write = |suffix: &str, text: &str| {
                let path = dir.join(format!("{stem}.{suffix}"));
                std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
            };
            write("playwright.yaml", &p.theirs.text)?;
            write("axsnap.txt", &p.ours.text)?;
            let raw = &p.ours.raw;
            let info = TargetInfo {
                kind: "page".into(),
                id: raw.target.0.clone(),
                url: raw.header.url.clone(),
                title: raw.header.title.clone(),
            };
            // The raw capture in the interchange form: `axsnap snapshot --tree FILE` replays it.
            write("axsnap-raw.json", &write_tree(&raw.tree, &info))?;
        }
        println!("snapshots written to {}", dir.display());
    }
    Ok(())
}
