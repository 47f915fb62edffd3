//! [`ServerOptions`]: how the MCP server gets its browser and what it lets agents do.

use std::path::PathBuf;
use std::time::Duration;

use axsnap_cdp::{Endpoint, LaunchOptions};

use crate::url_policy::UrlPolicy;

/// Where the browser comes from and how it looks. (`Debug` leaves out URL queries and header
/// values: a pool's token travels there.)
#[derive(Clone, PartialEq, Eq)]
pub struct BrowserOptions {
    /// The Chromium or Chrome executable (`None`: found on `PATH` and in the usual places).
    pub executable: Option<PathBuf>,
    /// Attach to a running browser (`ws://...` or `http://host:port`) instead of launching one;
    /// every session gets a browser context in it.
    pub cdp_endpoint: Option<String>,
    /// A browser pool: each session opens its own connection to this URL (`{session}` in it
    /// becomes the session's id), so sessions spread over the pool's browsers.
    pub cdp_pool: Option<String>,
    /// HTTP headers sent when connecting to `cdp_endpoint` or `cdp_pool` (`Authorization`).
    pub cdp_headers: Vec<(String, String)>,
    /// Launch without a window (default).
    pub headless: bool,
    /// Viewport size in CSS pixels (default 1280x720).
    pub viewport: (u32, u32),
    /// A persistent profile for the launched browser (`--user-data-dir`): every session works
    /// in its default context, so logins and cookies persist; `None`: a fresh temporary
    /// profile and a context per HTTP session.
    pub user_data_dir: Option<PathBuf>,
    /// Where downloads are saved (`--output-dir`); `None`: the browser refuses them.
    pub output_dir: Option<PathBuf>,
    /// Which tree pages are built from (default: the accessibility tree below
    /// [`axsnap_cdp::DOM_FIRST_ELEMENTS`] elements, the DOM snapshot from there on).
    pub ax_tree: axsnap_cdp::AxTree,
}

impl std::fmt::Debug for BrowserOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let url = |u: &Option<String>| u.as_deref().map(|u| axsnap_cdp::Endpoint::new(u).redacted());
        let headers: Vec<&str> = self.cdp_headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("BrowserOptions")
            .field("executable", &self.executable)
            .field("cdp_endpoint", &url(&self.cdp_endpoint))
            .field("cdp_pool", &url(&self.cdp_pool))
            .field("cdp_headers", &headers)
            .field("headless", &self.headless)
            .field("viewport", &self.viewport)
            .field("output_dir", &self.output_dir)
            .field("user_data_dir", &self.user_data_dir)
            .field("ax_tree", &self.ax_tree)
            .finish()
    }
}

impl Default for BrowserOptions {
    fn default() -> Self {
        BrowserOptions {
            executable: None,
            cdp_endpoint: None,
            cdp_pool: None,
            cdp_headers: Vec::new(),
            headless: true,
            viewport: (1280, 720),
            output_dir: None,
            user_data_dir: None,
            ax_tree: axsnap_cdp::AxTree::Auto,
        }
    }
}

impl BrowserOptions {
    /// How the server launches its browser (when it launches one: no `cdp_endpoint` or
    /// `cdp_pool`); `axsnap doctor` launches with the same, so what it checks is what a
    /// session gets.
    pub fn launch_options(&self) -> LaunchOptions {
        LaunchOptions {
            executable: self.executable.clone(),
            headless: self.headless,
            window: self.viewport,
            user_data_dir: self.user_data_dir.clone(),
            ..LaunchOptions::default()
        }
    }

    /// `url` (`cdp_endpoint` or `cdp_pool`) as the server connects to it: with `cdp_headers`.
    pub fn endpoint(&self, url: &str) -> Endpoint {
        self.cdp_headers.iter().fold(Endpoint::new(url), |e, (k, v)| e.with_header(k.clone(), v.clone()))
    }
}

/// What the server does for every session.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// The browser.
    pub browser: BrowserOptions,
    /// Which URLs may be opened.
    pub urls: UrlPolicy,
    /// Offer the `evaluate` tool (runs JavaScript in the page).
    pub allow_eval: bool,
    /// A session idle this long has its browser context released (and, over HTTP, the session
    /// ends).
    pub idle_timeout: Duration,
    /// A state store shared with other servers (`redis://…`, HTTP only): handle sessions
    /// live there, so any of the servers can serve any call. `None`: in this process only.
    pub state: Option<String>,
    /// The opt-in tool groups (`--caps`).
    pub caps: crate::caps::Caps,
    /// Where `upload` may take files from (`--upload-root`); none: uploads are off.
    pub upload_root: crate::upload::UploadRoot,
    /// Cookies and local storage every session starts with (`--storage-state FILE`, read at
    /// start), loaded into its browser context before its first page.
    pub storage_state: Option<std::sync::Arc<axsnap_cdp::storage::StorageState>>,
    /// Most time one capture may take before it answers with a partial tree.
    pub capture_deadline: Duration,
    /// Most time a `wait_for` may wait.
    pub max_wait: Duration,
    /// The token budget of a snapshot answer when the call gives none (cl100k): a page over
    /// it is sent as an outline. `None`: no budget.
    pub max_tokens: Option<usize>,
    /// Also offer the desktop's windows (AT-SPI): the `desktop_windows` tool, and a `window`
    /// argument on snapshot, find and the actions.
    pub desktop: bool,
    /// Replay this recording as the desktop (`--recording`) instead of the system's own
    /// (each session replays it from its start).
    pub desktop_recording: Option<std::path::PathBuf>,
    /// Put the answer's JSON form in each result's `structuredContent` and declare each
    /// tool's `outputSchema` (`--structured-content`). Off by default: most agent clients
    /// (Claude Code, Codex) give the model `structuredContent` instead of the text whenever
    /// a result carries it, so the text, complete on its own, is the one form sent.
    pub structured_content: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            browser: BrowserOptions::default(),
            urls: UrlPolicy::default(),
            allow_eval: false,
            idle_timeout: Duration::from_secs(30 * 60),
            state: None,
            caps: crate::caps::Caps::default(),
            upload_root: crate::upload::UploadRoot::default(),
            storage_state: None,
            capture_deadline: Duration::from_secs(10),
            max_wait: Duration::from_secs(60),
            max_tokens: Some(axsnap_core::outline::DEFAULT_MAX_TOKENS),
            desktop: false,
            desktop_recording: None,
            structured_content: false,
        }
    }
}
