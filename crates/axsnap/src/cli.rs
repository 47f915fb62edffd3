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
    /// Serve the browser tools over the Model Context Protocol: stdio (default) or streamable
    /// HTTP (--http 127.0.0.1:PORT).
    // Boxed: its options outweigh every other command's (clippy's large_enum_variant on
    // Windows, where paths are bigger).
    Mcp(Box<McpArgs>),
    /// Snapshot and search the windows of desktop apps (AT-SPI on Linux, UI Automation on
    /// Windows, or a recording anywhere): `apps`, `snapshot --app NAME`, `find --app NAME QUERY`.
    #[command(subcommand)]
    Desktop(DesktopCommand),
    /// Count the tokens of a text (a file, or standard input) as models do: bytes, cl100k_base
    /// and o200k_base, the tokenizers axsnap's budgets and figures use.
    Tokens(TokensArgs),
    /// Check this machine: the browser `axsnap mcp` would launch (or the one it would connect
    /// to) and a real start of it, the desktop's accessibility bus, and what the MCP server
    /// speaks; each with what to do when it falls short. Exits 1 when the browser tools cannot
    /// run here (with --desktop, also when the desktop tools cannot).
    Doctor(DoctorArgs),
}

/// `axsnap doctor`: the browser options are `axsnap mcp`'s, so it checks what the server
/// would use.
#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// The Chromium or Chrome executable (default: found on PATH and in the usual places).
    #[arg(long, value_name = "PATH", env = "AXSNAP_BROWSER")]
    pub browser: Option<PathBuf>,
    /// Check a running browser (ws://... or http://host:port) instead of launching one.
    #[arg(long, value_name = "URL", conflicts_with = "browser")]
    pub cdp_endpoint: Option<String>,
    /// Check a browser pool (one connection to URL) instead of launching a browser.
    #[arg(
        long,
        value_name = "URL",
        env = "AXSNAP_CDP_POOL",
        hide_env_values = true,
        conflicts_with_all = ["browser", "cdp_endpoint"]
    )]
    pub cdp_pool: Option<String>,
    /// A header sent when connecting to --cdp-endpoint or --cdp-pool, as NAME:VALUE
    /// (repeatable).
    #[arg(long, value_name = "NAME:VALUE", env = "AXSNAP_CDP_HEADER", hide_env_values = true, value_parser = parse_header)]
    pub cdp_header: Vec<(String, String)>,
    /// Require the desktop (as `axsnap mcp --desktop` uses it): exit 1 when its
    /// accessibility bus cannot be reached, instead of warning.
    #[arg(long)]
    pub desktop: bool,
    /// Most seconds the trial of the browser (start, open about:blank, one snapshot, close)
    /// may take.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub timeout: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
}

/// `axsnap tokens`.
#[derive(Debug, Args)]
pub struct TokensArgs {
    /// The files to count, each on a line of its own; none, or `-`: standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print JSON (`{"bytes": N, "cl100k": N, "o200k": N}`, one object per line).
    #[arg(long)]
    pub json: bool,
}

/// `axsnap desktop` subcommands.
#[derive(Debug, Subcommand)]
pub enum DesktopCommand {
    /// List the apps on the accessibility bus and their windows.
    Apps {
        /// Output format.
        #[arg(long, value_enum, default_value_t = FormatArg::Text)]
        format: FormatArg,
        /// List a recording's windows instead of the desktop's.
        #[arg(long, value_name = "PATH")]
        recording: Option<PathBuf>,
    },
    /// Print a snapshot of an app's window.
    Snapshot(DesktopSnapshotArgs),
    /// Find elements by role and name in an app's window.
    Find(DesktopFindArgs),
}

/// Which window of which app.
#[derive(Debug, Args)]
pub struct WindowArgs {
    /// The app's name as `axsnap desktop apps` lists it (exact, any case, or a unique part).
    #[arg(long, value_name = "NAME")]
    pub app: String,
    /// The window's title (exact or a unique part); default: the app's active window, else
    /// its first one on screen.
    #[arg(long, value_name = "TITLE")]
    pub window: Option<String>,
    /// Most seconds a capture may take before it gives a partial window.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub capture_timeout: u64,
    /// Read the window from a recording (an `axsnap-desktop-recording` JSON file, a Windows
    /// tree Accessibility Insights saved: `.hier`, `.snapshot`, `.a11ytest`, or a macOS AX
    /// recording, `.axjson`; these last as one app named after the file) instead of the
    /// desktop: the same answers on any machine.
    #[arg(long, value_name = "PATH")]
    pub recording: Option<PathBuf>,
}

/// `axsnap desktop snapshot`.
#[derive(Debug, Args)]
pub struct DesktopSnapshotArgs {
    /// The window.
    #[command(flatten)]
    pub window: WindowArgs,
    /// Also write the window to FILE: its raw tree in the interchange form (a recording's
    /// window tree), or on Windows the window as UI Automation read it, in Accessibility
    /// Insights' element JSON, which `--recording FILE` replays on any system.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The token budget (cl100k): a bigger window is shown as an outline; 0 for no budget.
    #[arg(long, value_name = "N", default_value_t = axsnap_core::outline::DEFAULT_MAX_TOKENS)]
    pub max_tokens: usize,
    /// Show only the part with this ref.
    #[arg(long = "ref", value_name = "REF")]
    pub scope: Option<String>,
    /// View options.
    #[command(flatten)]
    pub view: ViewArgs,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `axsnap desktop find`.
#[derive(Debug, Args)]
pub struct DesktopFindArgs {
    /// The window.
    #[command(flatten)]
    pub window: WindowArgs,
    /// A name, optionally with a kind word ("OK button", "name entry").
    pub query: String,
    /// Most results.
    #[arg(long, default_value_t = 10)]
    pub limit: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub format: FormatArg,
}

/// `axsnap mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve streamable HTTP on this address (path /mcp) instead of stdio. Port 0 picks a free
    /// port; the address is printed on stderr.
    #[arg(long, value_name = "ADDR:PORT")]
    pub http: Option<std::net::SocketAddr>,
    /// Bearer token every HTTP request must carry; required to bind a non-loopback address.
    #[arg(long, value_name = "TOKEN", env = "AXSNAP_AUTH_TOKEN", hide_env_values = true)]
    pub auth_token: Option<String>,
    /// Another HOST:PORT that requests may name in Host (and Origin) besides the bound
    /// address: a load balancer's or proxy's address in front of this server (repeatable).
    #[arg(long, value_name = "HOST:PORT", requires = "http")]
    pub allowed_host: Vec<String>,
    /// Opt-in tool groups, comma-separated: network (network_requests, console), vision (mouse
    /// at viewport pixels), pdf (print the page to a PDF under --output-dir), storage (storage
    /// save/load under --output-dir, cookies), or all.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub caps: Vec<String>,
    /// Launch the browser on this persistent profile (logins, cookies and storage kept across
    /// runs; every session works in its default context). One server per directory.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["cdp_endpoint", "cdp_pool"])]
    pub user_data_dir: Option<PathBuf>,
    /// Cookies and local storage every session starts with: a JSON file in Playwright's
    /// storageState form (what `storage save` writes). Sites the URL policy refuses are left out.
    #[arg(long, value_name = "FILE")]
    pub storage_state: Option<PathBuf>,
    /// Save downloads under DIR (with the name the site suggests, never over a file; each
    /// answer says what its action downloaded). Without it downloads are refused.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// The directory the upload tool may take files from (only regular files under it; none:
    /// uploads are off).
    #[arg(long, value_name = "DIR")]
    pub upload_root: Option<PathBuf>,
    /// Share sessions with other servers through this Redis (redis://HOST:PORT[/DB]): a
    /// session's refs, baselines and tabs are kept there, so any server behind one load
    /// balancer can serve any call of a 2026-07-28 client, and a server that dies loses none.
    #[arg(long, value_name = "URL", env = "AXSNAP_STATE", hide_env_values = true, requires = "http")]
    pub state: Option<String>,
    /// The Chromium or Chrome executable (default: found on PATH and in the usual places).
    #[arg(long, value_name = "PATH", env = "AXSNAP_BROWSER")]
    pub browser: Option<PathBuf>,
    /// Attach to a running browser (ws://... or http://host:port) instead of launching one;
    /// each session gets a browser context in it.
    #[arg(long, value_name = "URL", conflicts_with = "browser")]
    pub cdp_endpoint: Option<String>,
    /// A browser pool (e.g. browserless: ws://pool:3000/chromium?token=T): each session opens
    /// its own connection to URL, so sessions spread over the pool's browsers; `{session}` in
    /// URL becomes the session's id. From the environment, it stays out of `ps`.
    #[arg(
        long,
        value_name = "URL",
        env = "AXSNAP_CDP_POOL",
        hide_env_values = true,
        conflicts_with_all = ["browser", "cdp_endpoint"]
    )]
    pub cdp_pool: Option<String>,
    /// A header sent when connecting to --cdp-endpoint or --cdp-pool, as NAME:VALUE
    /// (repeatable), e.g. "Authorization: Bearer T". From the environment (one header), it
    /// stays out of `ps`.
    #[arg(long, value_name = "NAME:VALUE", env = "AXSNAP_CDP_HEADER", hide_env_values = true, value_parser = parse_header)]
    pub cdp_header: Vec<(String, String)>,
    /// Run the browser without a window (default true; --headless false shows it).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    pub headless: bool,
    /// Viewport size in CSS pixels.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_viewport)]
    pub viewport: (u32, u32),
    /// Release a session's browser context after this many minutes without a call.
    #[arg(long, value_name = "MINUTES", default_value_t = 30.0)]
    pub idle_timeout: f64,
    /// Most seconds a capture may take before it answers with a partial page.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub capture_timeout: u64,
    /// Token budget of a snapshot answer (cl100k) when a call gives none: a bigger page is
    /// sent as an outline; 0 for no budget.
    #[arg(long, value_name = "N", default_value_t = axsnap_core::outline::DEFAULT_MAX_TOKENS)]
    pub max_tokens: usize,
    /// Allow file:, data:, chrome:, devtools: and view-source: URLs.
    #[arg(long)]
    pub allow_local: bool,
    /// Only these origins, hosts or host patterns (comma-separated; `*.example.org`).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,
    /// Never these origins, hosts or host patterns (comma-separated).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub blocked_origins: Vec<String>,
    /// Offer the evaluate tool, which runs JavaScript in the page.
    #[arg(long)]
    pub allow_eval: bool,
    /// Also offer the desktop's windows (AT-SPI on Linux): the desktop_windows tool, and a
    /// `window` target on snapshot, find and the actions.
    #[arg(long)]
    pub desktop: bool,
    /// With --desktop: replay this recording (an `axsnap-desktop-recording` JSON file, an
    /// Accessibility Insights `.hier`, `.snapshot` or `.a11ytest`, or a macOS AX `.axjson`) as
    /// the desktop, each session from its start, instead of the system's own.
    #[arg(long, value_name = "PATH", requires = "desktop")]
    pub recording: Option<PathBuf>,
    /// Also put each answer's JSON form in `structuredContent` and declare every tool's
    /// outputSchema: for hosts that give the model the text and keep the JSON for themselves.
    /// Most agent clients (Claude Code, Codex) give the model the JSON instead of the text,
    /// at 10-14 times its tokens, so it is off by default.
    #[arg(long, env = "AXSNAP_STRUCTURED_CONTENT")]
    pub structured_content: bool,
    /// Which tree web pages are built from.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = AxTreeArg::Auto)]
    pub ax_tree: AxTreeArg,
}

/// `--ax-tree`: when to ask for the browser's accessibility tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AxTreeArg {
    /// Below 5,000 elements; a larger page is built from its DOM snapshot, which is faster.
    Auto,
    /// On every page where it can arrive in time: names as the browser computes them, slower
    /// on large pages.
    Always,
    /// Never: every page is built from its DOM snapshot (and says so).
    Never,
}

impl From<AxTreeArg> for axsnap_cdp::AxTree {
    fn from(a: AxTreeArg) -> axsnap_cdp::AxTree {
        match a {
            AxTreeArg::Auto => axsnap_cdp::AxTree::Auto,
            AxTreeArg::Always => axsnap_cdp::AxTree::Always,
            AxTreeArg::Never => axsnap_cdp::AxTree::Never,
        }
    }
}

/// `NAME:VALUE` (spaces around the value trimmed) as a header; no line breaks in either.
fn parse_header(s: &str) -> Result<(String, String), String> {
    let (name, value) = s.split_once(':').ok_or_else(|| format!("{s:?} is not NAME:VALUE"))?;
    let (name, value) = (name.trim(), value.trim());
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(format!("{name:?} is not a header name"));
    }
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err(format!("the value of {name} has a control character (a line break?)"));
    }
    Ok((name.to_string(), value.to_string()))
}

fn parse_viewport(s: &str) -> Result<(u32, u32), String> {
    let (w, h) =
        s.split_once(['x', 'X']).ok_or_else(|| format!("{s:?} is not WIDTHxHEIGHT, e.g. 1280x720"))?;
    let dim = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (100..=10_000).contains(n))
            .ok_or_else(|| format!("{v:?} is not a size from 100 to 10000 pixels"))
    };
    Ok((dim(w)?, dim(h)?))
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
    /// Most seconds for the page's load and its capture together: a page still loading,
    /// busy in a script or waiting on the network is captured as it then stands (partial,
    /// with a note saying why).
    #[arg(long, value_name = "SECS", default_value_t = 20)]
    pub capture_timeout: u64,
    /// Answer the JavaScript dialogs (alert, confirm, prompt) the page opens while loading;
    /// without it, an open dialog is reported with the page behind it.
    #[arg(long, value_enum, value_name = "ANSWER")]
    pub dialog: Option<DialogAnswer>,
    /// Which tree the page is built from.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = AxTreeArg::Auto)]
    pub ax_tree: AxTreeArg,
}

/// How `--dialog` answers a JavaScript dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DialogAnswer {
    /// OK (a prompt gets its default text).
    Accept,
    /// Cancel.
    Dismiss,
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
    /// Run the same steps through `axsnap mcp` over stdio, as an MCP client would, instead of
    /// calling the agent directly.
    #[arg(long)]
    pub mcp: bool,
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
    /// The token budget (cl100k): a page over it is shown as an outline whose folded parts
    /// each say their ref and size; 0 for no budget.
    #[arg(long, value_name = "N", default_value_t = axsnap_core::outline::DEFAULT_MAX_TOKENS)]
    pub max_tokens: usize,
    /// Show only the part with this ref (a folded part of an outline; a heading's ref shows
    /// its section). Refs are numbered in page order, so the same page gives the same refs.
    #[arg(long = "ref", value_name = "REF")]
    pub scope: Option<String>,
    /// With --ref: only its children from this index on (the rest of a part too wide for one
    /// answer, as the outline's `… N more parts` line says); on an element whose value was
    /// cut (`…+515 chars: from=1976`), its value from this character on.
    #[arg(long, value_name = "N", requires = "scope")]
    pub from: Option<usize>,
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

#[cfg(test)]
mod tests {
    use super::parse_header;

    #[test]
    fn headers_are_name_colon_value() {
        assert_eq!(
            parse_header("Authorization: Bearer t:1"),
            Ok(("Authorization".into(), "Bearer t:1".into()))
        );
        assert!(parse_header("no colon").is_err());
        assert!(parse_header("Bad Name: x").is_err());
        assert!(parse_header("X: a\r\nInjected: b").is_err(), "no line breaks into the request");
    }
}
