//! The harness's error type: what failed and, where there is one, what to do next.

use std::path::PathBuf;

use thiserror::Error;

/// An error of the harness.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The local Rust documentation is not where the toolchain says it is.
    #[error(
        "no local Rust docs at {path}: install them with `rustup component add rust-docs`, or point \
         AXSNAP_RUST_DOCS at a folder holding book/ and std/"
    )]
    DocsMissing {
        /// The folder looked in.
        path: PathBuf,
    },
    /// `rustc --print sysroot` could not be run or said nothing.
    #[error("cannot ask rustc for its sysroot: {reason}; set AXSNAP_RUST_DOCS to the docs folder instead")]
    NoSysroot {
        /// What failed.
        reason: String,
    },
    /// The static server could not bind or accept.
    #[error("the static file server failed: {0}")]
    Serve(#[source] std::io::Error),
    /// Playwright's side did not run: Node.js missing, `npm ci` not run, the script failed.
    #[error("running Playwright ({command}) failed: {reason}")]
    Playwright {
        /// The command line, for the reader to re-run by hand.
        command: String,
        /// What failed (the script's stderr when it wrote one).
        reason: String,
    },
    /// The Playwright script wrote something that is not its JSON-lines protocol.
    #[error("the Playwright script's output is not what it should be: {0}")]
    PlaywrightOutput(String),
    /// agent-browser's side did not run: `npm ci` not run in bench/agent-browser, the CLI
    /// failed or answered with an error.
    #[error("running agent-browser ({command}) failed: {reason}")]
    AgentBrowser {
        /// The command line, for the reader to re-run by hand.
        command: String,
        /// What failed (the CLI's error or stderr).
        reason: String,
    },
    /// agent-browser's `--json` answer is not what it should be.
    #[error("agent-browser's answer is not what it should be: {0}")]
    AgentBrowserOutput(String),
    /// An agent-browser snapshot line could not be parsed.
    #[error("line {line} of agent-browser's snapshot: {reason}")]
    AgentBrowserParse {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A Playwright snapshot line could not be parsed.
    #[error("line {line} of Playwright's snapshot: {reason}")]
    AriaParse {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// axsnap's side failed (launch, open, capture).
    #[error("axsnap: {0}")]
    Axsnap(#[from] axsnap_cdp::CdpError),
    /// axsnap's session refused the request (it names no ref, so this is a bug).
    #[error("axsnap's session: {0}")]
    Session(#[from] axsnap_core::session::SessionError),
    /// axsnap's capture was cut short, so its size and recall would not be comparable.
    #[error("axsnap's capture of {url} is partial ({reason}); raise the capture deadline")]
    PartialCapture {
        /// The page.
        url: String,
        /// What the capture says is missing.
        reason: String,
    },
    /// An MCP server did not start, answer the handshake or list its tools.
    #[error("the MCP server `{command}`: {reason}")]
    Mcp {
        /// The command line that starts it.
        command: String,
        /// What failed (with the end of its stderr when it wrote one).
        reason: String,
    },
    /// A workload file cannot be read or is not a workload.
    #[error("workload: {0}")]
    Workload(String),
    /// A workflow step failed: the agent could not find what to act on, the action failed,
    /// or its answer did not show what the step should have done.
    #[error("workflow: {0}")]
    Workflow(String),
    /// A chart of the report could not be drawn or written.
    #[error("chart: {0}")]
    Chart(String),
    /// An async runtime could not be started.
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
}
