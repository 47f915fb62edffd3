//! `vs-agent-browser`: axsnap against agent-browser's snapshots on the local Rust docs, side by
//! side in one run, in both tools' full and interactive modes: tokens (cl100k, o200k), bytes,
//! the ratio, and how much of agent-browser's snapshot ours holds (its interactive elements and
//! visible text; the rules are in `axsnap_bench::recall`).
//!
//! ```text
//! scripts/bench-agent-browser [--runs N] [--misses] [--costs] [--save DIR] [--browser PATH]
//! cargo run --release -p axsnap-bench --bin vs-agent-browser -- [same options]
//! ```

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use axsnap_bench::vs_agent_browser::{self, compare, Mode, Options};
use axsnap_bench::{agent_browser, docs, runtime};
use clap::Parser;

/// axsnap against agent-browser on the local Rust docs.
#[derive(Parser, Debug)]
#[command(name = "vs-agent-browser")]
struct Args {
    /// The Chromium both sides launch (default: the one axsnap finds, /usr/bin/chromium).
    #[arg(long, value_name = "PATH", env = "AXSNAP_BROWSER")]
    browser: Option<PathBuf>,
    /// Snapshots per page and mode on each side; timings are their medians.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Pages under the docs root (default: five book chapters, the std index, the Vec page).
    #[arg(long = "page", value_name = "PATH")]
    pages: Vec<String>,
    /// List what recall missed.
    #[arg(long)]
    misses: bool,
    /// Show where each side's tokens go (the most expensive line kinds).
    #[arg(long)]
    costs: bool,
    /// Write both tools' snapshots of each page, in both modes, into this folder.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// agent-browser's native binary (default: the one `npm ci` put in bench/agent-browser).
    #[arg(long, value_name = "PATH")]
    agent_browser: Option<PathBuf>,
    /// Seconds an axsnap capture may take.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    capture_timeout: u64,
    /// Seconds one agent-browser command may take.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    command_timeout: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let root = docs::rust_docs()?;
    let pages: Vec<&str> = if args.pages.is_empty() {
        let mut pages = docs::BOOK_CHAPTERS.to_vec();
        pages.extend(docs::PAGES.iter().filter(|p| !docs::BOOK_CHAPTERS.contains(p)));
        pages
    } else {
        args.pages.iter().map(String::as_str).collect()
    };
    let opts = Options {
        browser: args.browser.clone(),
        binary: args.agent_browser.clone().unwrap_or_else(agent_browser::default_binary),
        runs: args.runs.max(1),
        capture_deadline: Duration::from_secs(args.capture_timeout),
        command_timeout: Duration::from_secs(args.command_timeout),
    };
    let c = runtime()?.block_on(compare(&root, &pages, &opts))?;
    println!(
        "{} ({}); axsnap {}; {} ({}); docs: {}\n",
        c.agent_browser,
        opts.binary.display(),
        env!("CARGO_PKG_VERSION"),
        c.browser_version,
        c.browser.display(),
        root.display()
    );
    for mode in Mode::ALL {
        println!("### {}\n", mode.title());
        println!("{}", vs_agent_browser::size_table(&c, mode));
    }
    println!("{}", vs_agent_browser::time_table(&c));
    if args.misses {
        println!("{}", vs_agent_browser::misses(&c));
    }
    if args.costs {
        println!("{}", vs_agent_browser::cost_report(&c, 12));
    }
    if let Some(dir) = &args.save {
        vs_agent_browser::save(&c, dir).with_context(|| format!("cannot write into {}", dir.display()))?;
        println!("snapshots written to {}", dir.display());
    }
    Ok(())
}
