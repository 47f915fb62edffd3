//! `tools-list-tokens`: the tokens of an MCP server's `tools/list` result (o200k_base and
//! cl100k_base), the cost every agent pays on every start. The server is any command line that
//! speaks MCP over stdio.
//!
//! ```text
//! scripts/tools-list-tokens [-- COMMAND [ARGS...]]     (Playwright MCP, then COMMAND)
//! cargo run -p axsnap-bench --bin tools-list-tokens -- [--json] [--save FILE] -- COMMAND [ARGS...]
//! ```

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use axsnap_bench::runtime;
use axsnap_bench::tools_list::{measure_tools_list, ServerCommand};
use clap::Parser;

/// The tokens of an MCP server's tools/list result.
#[derive(Parser, Debug)]
#[command(name = "tools-list-tokens")]
struct Args {
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Write the result object (compact JSON, one page a line) to this file.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Run the server in this folder.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Seconds the server has to start and list its tools.
    #[arg(long, value_name = "SECS", default_value_t = 120)]
    timeout: u64,
    /// The server's command line (after `--`).
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let cmd = ServerCommand {
        argv: args.command.clone(),
        cwd: args.cwd.clone(),
        timeout: Duration::from_secs(args.timeout),
    };
    let list = runtime()?.block_on(measure_tools_list(&cmd))?;
    if let Some(path) = &args.save {
        let mut text = list.pages.join("\n");
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        let out = serde_json::json!({
            "command": args.command.join(" "),
            "server": list.server,
            "protocol_version": list.protocol_version,
            "tools": list.tools.len(),
            "pages": list.pages.len(),
            "bytes": list.size.bytes,
            "tokens_o200k": list.size.tokens_o200k,
            "tokens_cl100k": list.size.tokens_cl100k,
        });
        println!("{out}");
    } else {
        println!("server:   {} (protocol {})", list.server, list.protocol_version);
        println!("command:  {}", args.command.join(" "));
        println!(
            "tools:    {} ({} page{}): {}",
            list.tools.len(),
            list.pages.len(),
            if list.pages.len() == 1 { "" } else { "s" },
            list.tools.join(", ")
        );
        println!("result:   {} bytes of compact JSON", list.size.bytes);
        println!("o200k_base:  {} tokens", list.size.tokens_o200k);
        println!("cl100k_base: {} tokens", list.size.tokens_cl100k);
    }
    Ok(())
}
