//! `bench`: workloads on real apps driven over MCP through each arm as an agent would, every
//! answer measured, the task checked on the app; a report in markdown and JSON.
//!
//! ```text
//! scripts/bench [WORKLOAD...] [--runs N] [--arms LIST] [--out DIR]
//! ```

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use axsnap_bench::arms::{Arm, Tools};
use axsnap_bench::charts::write_charts;
use axsnap_bench::drive::{run_once, RunRecord};
use axsnap_bench::runtime;
use axsnap_bench::workload::Workload;
use axsnap_bench::workload_report::{markdown, summarize};
use clap::Parser;

/// Workloads on real apps over MCP, side by side.
#[derive(Parser, Debug)]
#[command(name = "bench")]
struct Args {
    /// Workloads to run, by name (default: every file in bench/workloads).
    workloads: Vec<String>,
    /// Runs of each workload per arm; the arms' order rotates from run to run.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Arms, comma-separated (axsnap-auto, axsnap-full, playwright-mcp, playwright-mcp-0.0.68,
    /// chrome-devtools-mcp, linux-desktop-mcp); each workload runs through those that serve its
    /// kind (browser or desktop).
    #[arg(
        long,
        default_value = "axsnap-auto,axsnap-full,playwright-mcp,playwright-mcp-0.0.68,chrome-devtools-mcp,agent-browser,agent-browser-i,linux-desktop-mcp",
        value_delimiter = ','
    )]
    arms: Vec<String>,
    /// Where report.md, report.json and the runs' scratch files go.
    #[arg(long, default_value = "target/bench")]
    out: PathBuf,
    /// The axsnap binary.
    #[arg(long, env = "AXSNAP_BIN", default_value = "target/release/axsnap")]
    axsnap: PathBuf,
    /// The Chromium every arm drives.
    #[arg(long, env = "AXSNAP_BROWSER", default_value = "/usr/bin/chromium")]
    browser: PathBuf,
    /// The bench's npm packages (the peer MCP servers and the web apps), as `npm ci` in
    /// bench/node installs them.
    #[arg(long, env = "AXSNAP_BENCH_NODE_MODULES", default_value = "bench/node/node_modules")]
    node_modules: PathBuf,
    /// The desktop peer's venv (linux-desktop-mcp), as scripts/bench makes it.
    #[arg(long, env = "AXSNAP_BENCH_DESKTOP_VENV", default_value = "target/bench-desktop-venv")]
    desktop_venv: PathBuf,
    /// agent-browser's native binary (default: the one `npm ci --ignore-scripts` in
    /// bench/agent-browser installs).
    #[arg(long, env = "AXSNAP_BENCH_AGENT_BROWSER")]
    agent_browser: Option<PathBuf>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let arms: Vec<Arm> = args
        .arms
        .iter()
        .map(|a| Arm::parse(a).with_context(|| format!("no arm {a:?}; the arms are {}", Arm::names())))
        .collect::<anyhow::Result<_>>()?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads");
    let mut workloads = Workload::all_in(&dir)?;
    if !args.workloads.is_empty() {
        for name in &args.workloads {
            if !workloads.iter().any(|w| &w.name == name) {
                let known: Vec<&str> = workloads.iter().map(|w| w.name.as_str()).collect();
                bail!("no workload {name:?} in {}; there are: {}", dir.display(), known.join(", "));
            }
        }
        workloads.retain(|w| args.workloads.contains(&w.name));
    }
    for (what, p) in [("axsnap", &args.axsnap), ("Chromium", &args.browser)] {
        if !p.is_file() {
            bail!("no {what} at {} (scripts/bench builds and installs what it needs)", p.display());
        }
    }
    let any_web = workloads.iter().any(|w| w.app.desktop().is_none());
    if any_web && !args.node_modules.is_dir() {
        bail!(
            "no npm packages at {} (scripts/bench installs them: npm ci in bench/node)",
            args.node_modules.display()
        );
    }
    let tools = Tools {
        axsnap: args.axsnap.canonicalize()?,
        chromium: args.browser.clone(),
        node_modules: args.node_modules.canonicalize().unwrap_or_else(|_| args.node_modules.clone()),
        desktop_venv: args.desktop_venv.clone(),
        agent_browser: args.agent_browser.clone().unwrap_or_else(axsnap_bench::agent_browser::default_binary),
    };
    let any_desktop = workloads.iter().any(|w| w.app.desktop().is_some());
    if any_desktop && arms.contains(&Arm::LinuxDesktopMcp) {
        let exe = tools.desktop_venv.join("bin/linux-desktop-mcp");
        if !exe.is_file() {
            bail!("no linux-desktop-mcp at {} (scripts/bench installs it)", exe.display());
        }
    }
    for arm in arms.iter().filter(|_| any_web) {
        if arm.is_shell() && !tools.agent_browser.is_file() {
            bail!(
                "no agent-browser at {} (scripts/bench installs it: npm ci --ignore-scripts in bench/agent-browser)",
                tools.agent_browser.display()
            );
        }
        if let Some(pkg) = arm.package(&tools) {
            if !pkg.join("package.json").is_file() {
                bail!("no {} at {} (npm ci in bench/node installs it)", arm.name(), pkg.display());
            }
        }
    }
    std::fs::create_dir_all(&args.out)?;
    let out = args.out.canonicalize()?;
    let rt = runtime()?;
    let mut records = Vec::new();
    for w in &workloads {
        let desktop = w.app.desktop().is_some();
        let arms: Vec<Arm> = arms.iter().copied().filter(|a| a.serves(desktop)).collect();
        for run in 0..args.runs {
            // Rotate the arms so none always runs first on a cold machine.
            let n = arms.len();
            for k in 0..n {
                let arm = arms[(k + run) % n];
                eprintln!("bench: {} run {} {} …", w.name, run + 1, arm.name());
                // A run that could not start (the app or the server) is that run's failure,
                // said in the report; the other runs go on.
                let rec = rt
                    .block_on(run_once(w, arm, run, &tools, &out))
                    .unwrap_or_else(|e| RunRecord::not_started(w, arm, run, e.to_string()));
                let total: usize = rec.steps.iter().map(|s| s.tokens_cl100k).sum();
                let json: usize = rec.steps.iter().map(|s| s.structured_first_tokens_cl100k).sum();
                let views = if json == total { String::new() } else { format!(" ({json} structured-first)") };
                match &rec.failure {
                    None => eprintln!("bench:   ok, {} steps, {total} tokens{views}", rec.steps.len()),
                    Some(f) => eprintln!("bench:   FAILED: {f}"),
                }
                records.push(rec);
            }
        }
    }
    let names: Vec<&str> = arms.iter().map(|a| a.name()).collect();
    let summaries = summarize(&records, &names);
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let json = serde_json::json!({"command": command, "summaries": summaries, "runs": records});
    std::fs::write(out.join("report.json"), serde_json::to_string_pretty(&json)?)?;
    let charts = write_charts(&summaries, &out)?;
    let mut md = markdown(&records, &summaries, &command);
    if !charts.is_empty() {
        md.push_str("## Charts\n\n");
        for c in &charts {
            md.push_str(&format!("![{c}]({c})\n\n"));
        }
    }
    std::fs::write(out.join("report.md"), &md)?;
    println!("{md}");
    eprintln!("bench: report in {}", out.join("report.md").display());
    Ok(())
}
