//! The `axsnap` command line: snapshots, diffs and find over recorded trees and live pages.

mod cli;
mod cmd;
mod demo_site;
mod live;
mod output;
mod pipeline;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    match cmd::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("axsnap: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
