//! Finding, launching and connecting to a browser.
//!
//! A launched browser is headless (unless asked otherwise), runs on its own temporary profile
//! (deleted on close) and gets flags that keep it off the network: no background networking,
//! component updates, sync or QUIC. A connected browser (`ws://...` or `http://host:port`) is
//! left running on close. Tabs open in the default browser context or in one made with
//! [`Browser::create_context`] (own cookies, storage and cache).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use chromiumoxide::browser::BrowserConfig;
use futures::StreamExt;
use serde_json::{json, Value};

use crate::conn::{str_field, RawCdp};
use crate::endpoint::Endpoint;
use crate::error::CdpError;
use crate::executable::find_browser;
use crate::page::PageHandle;

/// Flags every launched browser gets: no GPU, and nothing that reaches out to the network on
/// its own.
///
/// They replace chromiumoxide's defaults (Puppeteer's), which also turn off Chromium's IPC
/// flooding protection: with it off, a page that calls `history.pushState` 10,000 times
/// keeps the browser process busy for tens of seconds (every call becomes a history entry),
/// where Chromium would otherwise throttle the page.
pub const LAUNCH_FLAGS: &[&str] = &[
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--no-default-browser-check",
    // Timers and rendering of pages not in front run as in front: an agent's tabs are all
    // in use.
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--disable-breakpad",
    "--disable-client-side-phishing-detection",
    "--disable-component-extensions-with-background-pages",
    "--disable-dev-shm-usage",
    // Popups open as tabs the agent is told about.
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--force-color-profile=srgb",
    "--lang=en-US",
];

/// A command-line flag as chromiumoxide takes it: without its leading dashes, which it adds
/// (given `--x` it would pass `----x`, which Chromium ignores).
fn flag_key(flag: &str) -> &str {
    flag.trim_start_matches('-')
}

/// The viewport a launched browser's tabs get unless told otherwise.
pub const DEFAULT_VIEWPORT: (u32, u32) = (1280, 720);

/// How to launch a browser.
#[derive(Clone, Debug)]
pub struct LaunchOptions {
    /// The executable; found with [`find_browser`] when `None`.
    pub executable: Option<PathBuf>,
    /// Run without a window (default). A headed browser needs a display.
    pub headless: bool,
    /// Viewport size in CSS pixels (default 1280x720): every tab, in every context, gets it.
    pub window: (u32, u32),
    /// Extra command-line flags.
    pub extra_args: Vec<String>,
    /// How long to wait for the browser to open its DevTools endpoint.
    pub launch_timeout: Duration,
    /// A persistent profile directory (logins, cookies and storage kept across runs); `None`: a
    /// fresh temporary one, removed on close.
    pub user_data_dir: Option<PathBuf>,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            executable: None,
            headless: true,
            window: DEFAULT_VIEWPORT,
            extra_args: Vec::new(),
            launch_timeout: Duration::from_secs(20),
            user_data_dir: None,
        }
    }
}

/// The live process holding the profile `dir`, if one does: Chromium's `SingletonLock` names
/// `HOST-PID`; a lock of another host, or of a process gone, holds nothing (Chromium takes a
/// stale lock over itself).
pub fn profile_holder(dir: &Path) -> Option<u32> {
    let target = std::fs::read_link(dir.join("SingletonLock")).ok()?;
    let (host, pid) = target.to_str()?.rsplit_once('-')?;
    let pid: u32 = pid.parse().ok()?;
    let this_host = std::fs::read_to_string("/proc/sys/kernel/hostname").ok()?;
    (host == this_host.trim() && Path::new(&format!("/proc/{pid}")).exists()).then_some(pid)
}

/// A temporary browser profile directory, removed on drop.
#[derive(Debug)]
struct TempProfile(PathBuf);

impl TempProfile {
    fn create() -> Result<TempProfile, CdpError> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let name = format!(
            "axsnap-chromium-{}-{}-{}",
            std::process::id(),
            nanos,
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        let dir = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&dir).map_err(|e| CdpError::io("creating a temporary browser profile", e))?;
        Ok(TempProfile(dir))
    }
}

impl Drop for TempProfile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A browser this process launched or connected to.
pub struct Browser {
    /// chromiumoxide's handle on a launched browser (its process); `None` when connected to,
    /// where ours is the only connection (a pool gives each connection a browser of its own).
    inner: Option<chromiumoxide::Browser>,
    handler: Option<tokio::task::JoinHandle<()>>,
    raw: RawCdp,
    ws_url: String,
    /// The endpoint a connected browser was reached at (what a reconnection needs).
    endpoint: Option<Endpoint>,
    launched: bool,
    /// The process id of a launched browser.
    pid: Option<u32>,
    /// How it was launched (`None` when connected to): what a restart needs.
    options: Option<LaunchOptions>,
    /// When this handle was made (a launched browser: when it started).
    since: std::time::Instant,
    // Declared last: dropped after the process is gone.
    profile: Option<TempProfile>,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL of a pool's browser carries its token in the query.
        f.debug_struct("Browser")
            .field("ws_url", &crate::conn::redact_url(&self.ws_url))
            .field("launched", &self.launched)
            .finish()
    }
}

impl Browser {
    /// Launches a headless browser on a fresh temporary profile.
    pub async fn launch(opts: LaunchOptions) -> Result<Browser, CdpError> {
        let exe = find_browser(opts.executable.as_deref())?;
        let (profile, dir) = match &opts.user_data_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| CdpError::io("creating the browser profile", e))?;
                if let Some(pid) = profile_holder(dir) {
                    return Err(CdpError::ProfileInUse { dir: dir.clone(), pid });
                }
                (None, dir.clone())
            }
            None => {
                let p = TempProfile::create()?;
                let dir = p.0.clone();
                (Some(p), dir)
            }
        };
        let mut builder = BrowserConfig::builder()
            .chrome_executable(&exe)
            .user_data_dir(&dir)
            .window_size(opts.window.0, opts.window.1)
            .viewport(None)
            .launch_timeout(opts.launch_timeout)
            .disable_default_args()
            .args(LAUNCH_FLAGS.iter().copied().map(flag_key));
        if !opts.headless {
            builder = builder.with_head();
        }
        // Chromium refuses to start sandboxed as root; a non-root user keeps the sandbox.
        if running_as_root() {
            builder = builder.no_sandbox();
        }
        let builder = builder.args(opts.extra_args.iter().map(String::as_str).map(flag_key));
        let config =
            builder.build().map_err(|reason| CdpError::LaunchFailed { path: exe.clone(), reason })?;
        let options = Some(opts);
        let launched = chromiumoxide::Browser::launch(config).await;
        let (mut inner, handler) = launched.map_err(|e| {
            // A profile another browser took meanwhile (it started between the check and now).
            let holder = options
                .as_ref()
                .and_then(|o| o.user_data_dir.as_deref())
                .and_then(|d| Some((d, profile_holder(d)?)));
            match holder {
                Some((dir, pid)) => CdpError::ProfileInUse { dir: dir.to_path_buf(), pid },
                None => CdpError::LaunchFailed { path: exe.clone(), reason: e.to_string() },
            }
        })?;
        let pid = inner.get_mut_child().and_then(|c| c.as_mut_inner().id());
        let ws_url = inner.websocket_address().clone();
        let handler = spawn_handler(handler);
        quiet_oxide(&inner).await;
        let raw = RawCdp::connect(&ws_url).await?;
        let browser = Browser {
            inner: Some(inner),
            handler: Some(handler),
            raw,
            ws_url,
            endpoint: None,
            launched: true,
            pid,
            options,
            since: std::time::Instant::now(),
            profile,
        };
        // Downloads never land on disk; a navigation to one fails instead.
        let _ = browser.raw.call(None, "Browser.setDownloadBehavior", json!({"behavior": "deny"})).await;
        Ok(browser)
    }

    /// Connects to a running browser: `ws://...` (the browser's WebSocket endpoint, or a pool's,
    /// which hands each connection a browser) or `http://host:port` (resolved through
    /// `/json/version`), sending the endpoint's headers. It is left running on close.
    pub async fn connect(endpoint: impl Into<Endpoint>) -> Result<Browser, CdpError> {
        let endpoint = endpoint.into();
        let url = endpoint.url();
        let ws_url = if url.starts_with("ws://") || url.starts_with("wss://") {
            url.to_string()
        } else if let Some(rest) = url.strip_prefix("http://") {
            crate::json_version::resolve_ws_url(&endpoint, rest).await?
        } else {
            return Err(CdpError::ConnectFailed {
                endpoint: endpoint.redacted(),
                reason: "the endpoint must start with ws://, wss:// or http://".into(),
                retry: false,
            });
        };
        if ws_url.starts_with("wss://") {
            return Err(CdpError::ConnectFailed {
                endpoint: endpoint.redacted(),
                reason:
                    "wss:// (TLS) is not supported yet; reach the browser over ws:// (an SSH tunnel or a \
                         TLS-terminating proxy in front of it)"
                        .into(),
                retry: false,
            });
        }
        let raw = RawCdp::connect_with(&ws_url, endpoint.headers()).await?;
        Ok(Browser {
            inner: None,
            handler: None,
            raw,
            ws_url,
            endpoint: Some(endpoint),
            launched: false,
            pid: None,
            options: None,
            since: std::time::Instant::now(),
            profile: None,
        })
    }

    /// The endpoint a connected browser was reached at (`None` for a launched one).
    pub fn endpoint(&self) -> Option<&Endpoint> {
        self.endpoint.as_ref()
    }

    /// The browser's DevTools WebSocket URL.
    pub fn ws_url(&self) -> &str {
        &self.ws_url
    }

    /// Whether this process launched the browser (and closes it on [`Browser::close`]).
    pub fn launched(&self) -> bool {
        self.launched
    }

    /// The options a launched browser was started with (`None` for a connected one).
    pub fn launch_options(&self) -> Option<&LaunchOptions> {
        self.options.as_ref()
    }

    /// The viewport every tab gets (a launched browser's; a connected browser's tabs keep the
    /// size of their windows).
    pub fn viewport(&self) -> Option<(u32, u32)> {
        self.options.as_ref().map(|o| o.window)
    }

    /// Whether the connection to the browser is still up.
    pub fn is_open(&self) -> bool {
        self.raw.is_open()
    }

    /// How long ago this browser was launched or connected to.
    pub fn age(&self) -> std::time::Duration {
        self.since.elapsed()
    }

    /// The process id of a launched browser (`None` for a connected one).
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The temporary profile directory of a launched browser.
    pub fn profile_dir(&self) -> Option<&Path> {
        self.profile.as_ref().map(|p| p.0.as_path())
    }

    /// The raw CDP connection.
    pub fn raw(&self) -> &RawCdp {
        &self.raw
    }

    /// Opens a new tab at `url` (use `about:blank` for an empty one) in the default context.
    pub async fn new_page(&self, url: &str) -> Result<PageHandle, CdpError> {
        self.new_page_in(None, url).await
    }

    /// Opens a new tab at `url` in the browser context `context` (`None`: the default one).
    pub async fn new_page_in(&self, context: Option<&str>, url: &str) -> Result<PageHandle, CdpError> {
        let mut params = json!({"url": "about:blank"});
        if let Some(c) = context {
            params["browserContextId"] = json!(c);
        }
        let created = self.raw.call(None, "Target.createTarget", params).await?;
        let target_id = str_field(&created, "targetId")
            .ok_or_else(|| CdpError::BadResponse {
                method: "Target.createTarget".into(),
                reason: "no targetId".into(),
            })?
            .to_string();
        let page = PageHandle::attach(self, &target_id).await?;
        if url != "about:blank" {
            page.goto(url).await?;
        }
        Ok(page)
    }

    /// Creates a browser context: its own cookies, storage and cache, like an incognito
    /// profile. It is disposed when [`Browser::dispose_context`] is called or, unless
    /// `outlive` is set, when this connection closes (so a connected browser never keeps the
    /// contexts of a client that went away). `outlive`: another connection (another server
    /// process) may take the context over, and disposes of it when done.
    pub async fn create_context(&self, outlive: bool) -> Result<String, CdpError> {
        let v =
            self.raw.call(None, "Target.createBrowserContext", json!({"disposeOnDetach": !outlive})).await?;
        str_field(&v, "browserContextId").map(str::to_string).ok_or_else(|| CdpError::BadResponse {
            method: "Target.createBrowserContext".into(),
            reason: "no browserContextId".into(),
        })
    }

    /// The ids of the browser contexts the browser has besides its default one.
    pub async fn context_ids(&self) -> Result<Vec<String>, CdpError> {
        let v = self.raw.call(None, "Target.getBrowserContexts", json!({})).await?;
        let ids = v.get("browserContextIds").and_then(Value::as_array).cloned().unwrap_or_default();
        Ok(ids.iter().filter_map(Value::as_str).map(str::to_string).collect())
    }

    /// Disposes a browser context, closing its tabs.
    pub async fn dispose_context(&self, context: &str) -> Result<(), CdpError> {
        self.raw.call(None, "Target.disposeBrowserContext", json!({"browserContextId": context})).await?;
        Ok(())
    }

    /// The page targets (tabs) the browser has, as `(target id, url, title)`.
    pub async fn page_targets(&self) -> Result<Vec<(String, String, String)>, CdpError> {
        let v = self.raw.call(None, "Target.getTargets", json!({})).await?;
        let infos = v.get("targetInfos").and_then(Value::as_array).cloned().unwrap_or_default();
        Ok(infos
            .iter()
            .filter(|t| str_field(t, "type") == Some("page"))
            .map(|t| {
                let s = |k| str_field(t, k).unwrap_or_default().to_string();
                (s("targetId"), s("url"), s("title"))
            })
            .collect())
    }

    /// Attaches to an existing tab by target id.
    pub async fn attach_page(&self, target_id: &str) -> Result<PageHandle, CdpError> {
        PageHandle::attach(self, target_id).await
    }

    /// Closes the browser if this process launched it (and deletes its profile); only
    /// disconnects from a browser it connected to.
    pub async fn close(mut self) -> Result<(), CdpError> {
        if let Some(inner) = self.inner.as_mut() {
            let _ = tokio::time::timeout(Duration::from_secs(5), inner.close()).await;
            let exited = tokio::time::timeout(Duration::from_secs(5), inner.wait()).await;
            if !matches!(exited, Ok(Ok(_))) {
                let _ = inner.kill().await;
            }
        }
        if let Some(handler) = &self.handler {
            handler.abort();
        }
        // Tab handles share the raw connection; close it for them too.
        self.raw.close();
        Ok(())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(handler) = &self.handler {
            handler.abort();
        }
        self.raw.close();
        // chromiumoxide's child is killed on drop; make it certain before the profile goes.
        if let Some(child) = self.inner.as_mut().and_then(|i| i.get_mut_child()) {
            let _ = child.as_mut_inner().start_kill();
        }
    }
}

/// Stops chromiumoxide's own handler from attaching to the tabs we open. It would attach with
/// `waitForDebuggerOnStart`, and the browser then holds every out-of-process iframe's
/// navigation until each such client resumes it; chromiumoxide does not resume while its own
/// set-up of the tab is still running, and under load an iframe could wait forever. We drive
/// tabs through our own connection only.
async fn quiet_oxide(inner: &chromiumoxide::Browser) {
    let off = chromiumoxide::cdp::browser_protocol::target::SetDiscoverTargetsParams::new(false);
    if let Err(e) = inner.execute(off).await {
        tracing::debug!("turning chromiumoxide's target discovery off failed: {e}");
    }
}

fn spawn_handler(mut handler: chromiumoxide::Handler) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        // Errors here are single unreadable messages; the stream ends when the browser goes.
        while let Some(event) = handler.next().await {
            if let Err(e) = event {
                tracing::trace!("chromiumoxide handler: {e}");
            }
        }
    })
}

/// Whether this process runs as root (its effective user). Chromium refuses to start
/// sandboxed as root, so a browser launched then gets `--no-sandbox`; `axsnap doctor` says
/// which case it is.
pub fn running_as_root() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // The owner of our own /proc entry is our effective user; no libc needed.
        std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        false
    }
}
