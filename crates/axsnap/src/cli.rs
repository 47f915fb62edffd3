//! Command-line arguments.

use std::path::PathBuf;

use axsnap_core::render::Format;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Compact, diffable accessibility snapshots for LLM agents.
#[derive(Debug, Parser)]
#[command(name = "axsnap", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a snapshot of a live page (URL) or of a recorded tree (--tree FILE).
    Snapshot(SnapshotArgs),
    /// Print the diff between two recorded trees.
    Diff(DiffArgs),
    /// Find elements by role and name in a live page or a recorded tree.
    Find(FindArgs),
    /// Serve a small demo shop on 127.0.0.1 and drive it as an agent would, printing every
    /// answer (the first full, then diffs) with its size and its saving against a full snapshot.
    Demo(DemoArgs),
}

/// Which browser to use for live pages.
#[derive(Debug, Args)]
pub struct BrowserArgs {
    /// The Chromium or Chrome executable (default: found on PATH and in the usual places).
    #[arg(long, value_name = "PATH", env = "AXSNAP_BROWSER")]
    pub browser: Option<PathBuf>,
    /// Connect to a running browser instead of launching one (ws://... or http://host:port);
    /// it is left running on exit.
    #[arg(long, value_name = "URL", conflicts_with = "browser")]
    pub cdp_endpoint: Option<String>,
    /// Most seconds a capture may take before it returns a partial tree.
    #[arg(long, value_name = "SECS", default_value_t = 20)]
    pub capture_timeout: u64,
}

/// `axsnap demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Browser options.
    #[command(flatten)]
    pub browser: BrowserArgs,
    /// Print each answer's text, not only its size.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub show: bool,
}

/// Output options shared by the commands that print a snapshot or a diff.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
    /// End the output with one line: bytes=B tokens_cl100k=N tokens_o200k=M.
    #[arg(long)]
    pub stats: bool,
}

/// Projection view options.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Only actionable elements, with named landmarks and headings for context.
    #[arg(long)]
    pub interactive: bool,
    /// Only the top surface (an open dialog, menu or alert), when there is one.
    #[arg(long)]
    pub top_surface: bool,
    /// Only what is inside the viewport, with "N more above/below" hints.
    #[arg(long)]
    pub viewport: bool,
    /// Show at most this many levels.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Show at most this many nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<usize>,
}

/// `axsnap snapshot`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    /// The page to load (http://, https://, file://).
    #[arg(required_unless_present = "tree", conflicts_with = "tree")]
    pub url: Option<String>,
    /// A recorded raw tree (axsnap-tree JSON) instead of a live page.
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Also write the page's raw tree to FILE in the interchange form (a fixture, a bug report).
    #[arg(long, value_name = "FILE", requires = "url")]
    pub record: Option<PathBuf>,
    /// Browser options.
    #[command(flatten)]
    pub browser: BrowserArgs,
    /// View options.
    #[command(flatten)]
    pub view: ViewArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `axsnap diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier recorded tree.
    pub old: PathBuf,
    /// The later recorded tree.
    pub new: PathBuf,
    /// View options (applied to both).
    #[command(flatten)]
    pub view: ViewArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `axsnap find`.
#[derive(Debug, Args)]
pub struct FindArgs {
    /// `URL QUERY` for a live page, or just `QUERY` with --tree. QUERY is a name, optionally
    /// with a kind word ("login button", "search box").
    #[arg(num_args = 1..=2, required = true, value_name = "URL] [QUERY")]
    pub args: Vec<String>,
    /// A recorded raw tree (axsnap-tree JSON) instead of a live page.
    #[arg(long, value_name = "FILE")]
    pub tree: Option<PathBuf>,
    /// Browser options.
    #[command(flatten)]
    pub browser: BrowserArgs,
    /// Most results.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
}

/// `--format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Compact text for models.
    Text,
    /// JSON for programs.
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
        }
    }
}
