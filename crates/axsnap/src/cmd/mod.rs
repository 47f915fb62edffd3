//! One module per subcommand.

mod demo;
mod demo_mcp;
mod desktop;
mod diff;
mod find;
mod mcp;
mod snapshot;
mod tokens;

use crate::cli::{Cli, Command};

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Snapshot(a) => snapshot::run(&a),
        Command::Diff(a) => diff::run(&a),
        Command::Find(a) => find::run(&a),
        Command::Demo(a) => demo::run(&a),
        Command::Mcp(a) => mcp::run(&a),
        Command::Desktop(c) => desktop::run(&c),
        Command::Tokens(a) => tokens::run(&a),
        Command::Doctor(a) => crate::doctor::run(&a),
    }
}
