//! `webapp-workflow`: the 13-step IDE task of `axsnap_bench::webapp` on
//! `fixtures/webapp/ide.html`, served on 127.0.0.1: the tokens of each of axsnap's auto answers,
//! and with `--playwright` Playwright's AI snapshot of the same page at the same step (what
//! Playwright MCP sends after each action), measured side by side in one run.
//!
//! ```text
//! cargo run -p axsnap-bench --bin webapp-workflow -- [--playwright] [--controls N] [--show]
//! ```

use std::path::{Path, PathBuf};

use axsnap_bench::runtime;
use axsnap_bench::serve::StaticServer;
use axsnap_bench::webapp::{Driver, Follower, StepFigure, IDE_WORKFLOW};
use axsnap_core::tokens::{count_cl100k, count_o200k};
use clap::Parser;

/// Tokens per step of an agent's task in a web app, beside Playwright's AI snapshot.
#[derive(Parser, Debug)]
#[command(name = "webapp-workflow")]
struct Args {
    /// The Chromium to drive (default: the one found on the machine).
    #[arg(long, value_name = "PATH")]
    browser: Option<PathBuf>,
    /// Also take Playwright's AI snapshot at each step (needs Node.js and `npm ci` in
    /// bench/playwright).
    #[arg(long)]
    playwright: bool,
    /// Node.js, for --playwright.
    #[arg(long, value_name = "PATH", default_value = "node")]
    node: PathBuf,
    /// Controls in the page's Preferences grid (under the dialogs).
    #[arg(long, value_name = "N", default_value_t = 24)]
    controls: u32,
    /// Print each answer.
    #[arg(long)]
    show: bool,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/webapp");
    let server = StaticServer::start(root)?;
    let url = server.url(&format!("ide.html?controls={}", args.controls));
    let rt = runtime()?;
    let mut driver = rt.block_on(Driver::launch(args.browser.clone()))?;
    let result = rt.block_on(run(&mut driver, &url, &args));
    rt.block_on(driver.close());
    let rows = result?;
    let theirs_name = rows.first().and_then(|r| r.1.as_ref()).map(|_| "Playwright AI snapshot");
    println!(
        "| # | step | axsnap answer | cl100k | o200k | full cl100k |{}",
        if theirs_name.is_some() { " Playwright cl100k | o200k |" } else { "" }
    );
    println!("|---|---|---|---|---|---|{}", if theirs_name.is_some() { "---|---|" } else { "" });
    let (mut ours, mut ours_o, mut full, mut theirs, mut theirs_o) = (0, 0, 0, 0, 0);
    for (k, (f, pw)) in rows.iter().enumerate() {
        ours += f.cl100k;
        ours_o += f.o200k;
        full += f.full_cl100k.unwrap_or(0);
        let mut line = format!(
            "| {} | {} | {} | {} | {} | {} |",
            k + 1,
            f.label,
            f.kind,
            f.cl100k,
            f.o200k,
            f.full_cl100k.map_or("-".into(), |t| t.to_string())
        );
        if let Some((c, o)) = pw {
            theirs += c;
            theirs_o += o;
            line.push_str(&format!(" {c} | {o} |"));
        }
        println!("{line}");
    }
    let mut total = format!("| | total | | {ours} | {ours_o} | {full} |");
    if theirs_name.is_some() {
        total.push_str(&format!(" {theirs} | {theirs_o} |"));
    }
    println!("{total}");
    if theirs > 0 {
        println!(
            "\naxsnap / Playwright: {:.2} (cl100k), {:.2} (o200k); axsnap auto / axsnap full: {:.2}",
            ours as f64 / theirs as f64,
            ours_o as f64 / theirs_o.max(1) as f64,
            ours as f64 / full.max(1) as f64
        );
    }
    Ok(())
}

type Row = (StepFigure, Option<(usize, usize)>);

async fn run(driver: &mut Driver, url: &str, args: &Args) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    let first = driver.open(url).await?;
    let mut follower = match (args.playwright, driver.ws_url()) {
        (true, Some(ws)) => Some(Follower::start(&args.node, &ws, "ide.html")?),
        (true, None) => anyhow::bail!("no DevTools URL to connect Playwright to"),
        (false, _) => None,
    };
    if let Some(f) = &follower {
        eprintln!("Playwright: playwright-core {}", f.version);
    }
    let mut push = |fig: StepFigure, follower: &mut Option<Follower>| -> anyhow::Result<()> {
        if args.show {
            println!("## {}\n{}", fig.label, fig.text);
        }
        let pw = match follower {
            Some(f) => {
                let s = f.snapshot()?;
                if args.show {
                    println!("## Playwright\n{s}");
                }
                Some((count_cl100k(&s), count_o200k(&s)))
            }
            None => None,
        };
        rows.push((fig, pw));
        Ok(())
    };
    push(first, &mut follower)?;
    for s in IDE_WORKFLOW {
        let fig = driver.step(s).await?;
        push(fig, &mut follower)?;
    }
    Ok(rows)
}
