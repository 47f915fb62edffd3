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
    /// Print a snapshot of a recorded tree (--tree FILE).
    Snapshot(SnapshotArgs),
    /// Print the diff between two recorded trees.
    Diff(DiffArgs),
    /// Find elements by role and name in a recorded tree.
    Find(FindArgs),
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
    /// A recorded raw tree (axsnap-tree JSON).
    #[arg(long, value_name = "FILE")]
    pub tree: PathBuf,
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
    /// A recorded raw tree (axsnap-tree JSON).
    #[arg(long, value_name = "FILE")]
    pub tree: PathBuf,
    /// What to look for: a name, optionally with a kind word ("login button", "search box").
    pub query: String,
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
