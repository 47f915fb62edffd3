//! The `axsnap` command line: snapshots, diffs and find over recorded trees and live pages.

mod cli;
mod cmd;
mod demo_site;
mod doctor;
mod live;
mod output;
mod pipeline;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    init_logging();
    match cmd::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("axsnap: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Warnings (a browser restarted, a release that failed) and, when asked, more go to stderr:
/// stdout carries the answers (and, for `axsnap mcp` over stdio, the protocol). `AXSNAP_LOG`
/// (or `RUST_LOG`) takes a filter such as `axsnap_cdp=debug`; the default is `warn`. The CDP
/// client's raw message logs are never on: they carry page values.
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = std::env::var("AXSNAP_LOG")
        .or_else(|_| std::env::var("RUST_LOG"))
        .ok()
        .and_then(|f| EnvFilter::try_new(f).ok())
        .unwrap_or_else(|| EnvFilter::new("warn"))
        // The CDP client's own debug and trace logs print every message the browser sends,
        // page values (passwords) included: they stay off whatever the filter says.
        .add_directive("chromiumoxide=warn".parse().expect("a valid directive"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(true)
        .try_init();
}
