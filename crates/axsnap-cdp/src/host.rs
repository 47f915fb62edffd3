//! [`BrowserHost`]: one browser shared by many backends, started when one first needs it.
//!
//! The host owns the browser; a [`CdpBackend`] asks it for the running browser on every call.
//! Each start (the first launch or connection, a restart after the browser died, a start after
//! [`BrowserHost::shutdown`]) is a new *generation*: a backend that finds the generation moved
//! knows its context and tabs died with the old browser and re-creates them.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};

use crate::backend::CdpBackend;
use crate::browser::{Browser, LaunchOptions};
use crate::conn::str_field;
use crate::endpoint::Endpoint;
use crate::error::CdpError;

/// Where the browser comes from.
#[derive(Clone, Debug)]
pub enum BrowserSource {
    /// Launch one (headless by default, on a temporary profile).
    Launch(LaunchOptions),
    /// Attach to a running browser: `ws://...` (its DevTools WebSocket, or a pool's) or
    /// `http://host:port`, with the endpoint's headers.
    Connect(Endpoint),
}

/// How a backend's tabs are kept apart from other backends' tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// The browser's default context: one session alone (stdio), or a connected browser whose
    /// profile (cookies, logins) the user wants. Lists every tab of that context.
    Shared,
    /// A browser context of its own (`Target.createBrowserContext`): its own cookies, storage,
    /// cache and tabs, disposed when the backend is released.
    Context,
}

/// One browser shared by many sessions (`Clone` gives another handle on the same browser).
///
/// Nothing is launched until a backend needs the browser. A launched browser that died is
/// started again once, on the next call of any backend, and every backend then re-creates its
/// context and reopens its tabs. A connected browser is never started by us: when its
/// connection is lost the next call connects again (and fails clearly if it is gone).
#[derive(Clone, Debug)]
pub struct BrowserHost {
    inner: Arc<HostInner>,
}

#[derive(Debug)]
struct HostInner {
    source: BrowserSource,
    /// The browser is this host's alone (a pool's browser for one session): when it refuses
    /// a context, its default one is as good.
    dedicated: bool,
    /// The browser now, if one was started and not shut down (it may have died since).
    current: Mutex<Option<Running>>,
    /// Held while starting a browser, so concurrent calls start one, not one each.
    starting: tokio::sync::Mutex<()>,
    /// Generations handed out so far.
    generations: AtomicU64,
}

/// A started browser and its generation.
#[derive(Clone, Debug)]
pub(crate) struct Running {
    pub(crate) browser: Arc<Browser>,
    pub(crate) generation: u64,
    /// The id of the default browser context (its tabs are the [`Isolation::Shared`] ones).
    pub(crate) default_context: Option<String>,
}

impl BrowserHost {
    /// A host that launches or connects on first use.
    pub fn new(source: BrowserSource) -> BrowserHost {
        BrowserHost::with_source(source, false)
    }

    /// A host whose browser serves one backend alone: a pool's browser for one session. Its
    /// backend works in a context of its own, or in the browser's default context when the
    /// browser refuses contexts (a shared browser's refusal is an error instead: sessions
    /// there must never share cookies and tabs).
    pub fn dedicated(source: BrowserSource) -> BrowserHost {
        BrowserHost::with_source(source, true)
    }

    /// Whether the browser serves one backend alone ([`BrowserHost::dedicated`]).
    pub fn is_dedicated(&self) -> bool {
        self.inner.dedicated
    }

    fn with_source(source: BrowserSource, dedicated: bool) -> BrowserHost {
        BrowserHost {
            inner: Arc::new(HostInner {
                source,
                dedicated,
                current: Mutex::new(None),
                starting: tokio::sync::Mutex::const_new(()),
                generations: AtomicU64::new(0),
            }),
        }
    }

    /// A host around a browser that is already running: a launched one is restarted with the
    /// same options when it dies, a connected one is connected to again.
    pub async fn with_browser(browser: Browser) -> BrowserHost {
        let source = match browser.launch_options() {
            Some(opts) => BrowserSource::Launch(opts.clone()),
            None => BrowserSource::Connect(
                browser.endpoint().cloned().unwrap_or_else(|| Endpoint::new(browser.ws_url())),
            ),
        };
        let host = BrowserHost::new(source);
        let running = host.running_from(browser).await;
        *host.current() = Some(running);
        host
    }

    /// A backend for one session: cheap, no I/O. With [`Isolation::Context`] its tabs live in
    /// a browser context of its own, created on its first call that needs the browser.
    pub fn backend(&self, isolation: Isolation) -> CdpBackend {
        CdpBackend::new(self.clone(), isolation)
    }

    /// Where the browser comes from.
    pub fn source(&self) -> &BrowserSource {
        &self.inner.source
    }

    /// Whether a browser is running now (started and its connection up).
    pub fn is_running(&self) -> bool {
        self.current().as_ref().is_some_and(|r| r.browser.is_open())
    }

    /// The running browser, if any, without starting one.
    pub fn browser_now(&self) -> Option<Arc<Browser>> {
        self.current().as_ref().filter(|r| r.browser.is_open()).map(|r| r.browser.clone())
    }

    /// The process id of the running launched browser.
    pub fn pid(&self) -> Option<u32> {
        self.browser_now().and_then(|b| b.pid())
    }

    /// The running browser, started (launched or connected) when there is none or it died.
    pub async fn browser(&self) -> Result<Arc<Browser>, CdpError> {
        Ok(self.running().await?.browser)
    }

    /// The running browser and its generation; starts one when needed. A start that fails is
    /// an error of this call, and the next call tries again.
    pub(crate) async fn running(&self) -> Result<Running, CdpError> {
        if let Some(r) = self.live() {
            return Ok(r);
        }
        let _one = self.inner.starting.lock().await;
        // Another call may have started it while this one waited.
        if let Some(r) = self.live() {
            return Ok(r);
        }
        let dead = self.current().take();
        if let Some(dead) = dead {
            tracing::warn!(
                "the browser is gone (generation {}); starting a new one, every session's page state is lost",
                dead.generation
            );
            // The last holder's drop kills what is left of the process (tokio reaps it) and
            // deletes its profile.
            drop(dead);
        }
        let browser = match &self.inner.source {
            BrowserSource::Launch(opts) => {
                axsnap_core::progress::report(|| "starting the browser".to_string());
                let browser = Browser::launch(opts.clone()).await?;
                // A headed browser would exit with its last window.
                if opts.headless {
                    close_startup_tabs(&browser).await;
                }
                browser
            }
            BrowserSource::Connect(endpoint) => {
                // Not the endpoint: its URL may carry credentials.
                axsnap_core::progress::report(|| "connecting to the browser".to_string());
                connect_with_backoff(endpoint).await?
            }
        };
        let running = self.running_from(browser).await;
        *self.current() = Some(running.clone());
        Ok(running)
    }

    /// The current generation, if a browser was started and not shut down.
    pub(crate) fn generation(&self) -> Option<u64> {
        self.current().as_ref().map(|r| r.generation)
    }

    /// Closes a launched browser (a connected one is left running, only disconnected from);
    /// backends used later start a new one.
    pub async fn shutdown(&self) {
        let _one = self.inner.starting.lock().await;
        let Some(running) = self.current().take() else { return };
        match Arc::try_unwrap(running.browser) {
            Ok(b) => {
                let _ = b.close().await;
            }
            Err(shared) => {
                // A call in flight still holds it: ask a launched browser to exit; the process
                // is killed and its profile deleted when the last holder lets go.
                if shared.launched() {
                    let _ = shared
                        .raw()
                        .call_within(None, "Browser.close", json!({}), Duration::from_secs(5))
                        .await;
                } else {
                    // A pool ends a browser when its connection goes: let it go now.
                    shared.raw().close();
                }
            }
        }
    }

    fn live(&self) -> Option<Running> {
        self.current().as_ref().filter(|r| r.browser.is_open()).cloned()
    }

    fn current(&self) -> MutexGuard<'_, Option<Running>> {
        // Plain data: a panic elsewhere while holding the lock leaves nothing half-done.
        self.inner.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    async fn running_from(&self, browser: Browser) -> Running {
        let default_context = default_context(&browser).await;
        let generation = self.inner.generations.fetch_add(1, Ordering::Relaxed) + 1;
        Running { browser: Arc::new(browser), generation, default_context }
    }
}

/// The pauses between attempts to connect: a pool that restarts, or a connection dropped by
/// the network, is usually back within a few seconds.
const CONNECT_BACKOFF: [Duration; 4] = [
    Duration::from_millis(250),
    Duration::from_millis(750),
    Duration::from_millis(1500),
    Duration::from_secs(3),
];

/// No new attempt starts this long after the first: a call (and every other session's, and a
/// stopping server, all behind the host's start lock) waits for a lost browser about this
/// long, plus one attempt's own timeout.
const CONNECT_DEADLINE: Duration = Duration::from_secs(8);

/// Connects to `endpoint`, trying again after each of [`CONNECT_BACKOFF`]'s pauses while the
/// browser cannot be reached, until [`CONNECT_DEADLINE`]. A refusal that retrying cannot fix
/// (a bad URL, a refused token) and an attempt that timed out fail at once.
async fn connect_with_backoff(endpoint: &Endpoint) -> Result<Browser, CdpError> {
    let started = std::time::Instant::now();
    let mut pauses = CONNECT_BACKOFF.iter();
    loop {
        match Browser::connect(endpoint.clone()).await {
            Ok(b) => return Ok(b),
            Err(e @ CdpError::ConnectFailed { retry: true, .. }) => match pauses.next() {
                Some(pause) if started.elapsed() + *pause < CONNECT_DEADLINE => {
                    tracing::debug!(
                        "connecting to {} failed ({e}); trying again in {pause:?}",
                        endpoint.redacted()
                    );
                    tokio::time::sleep(*pause).await;
                }
                _ => return Err(e),
            },
            Err(e) => return Err(e),
        }
    }
}

/// The id of the browser's default context (`None` when the browser does not say).
async fn default_context(browser: &Browser) -> Option<String> {
    let v: Value = browser.raw().call(None, "Target.getBrowserContexts", json!({})).await.ok()?;
    str_field(&v, "defaultBrowserContextId").map(str::to_string)
}

/// Closes the tab a browser opens at start (`chrome://newtab/`), which no session asked for.
/// A headless browser runs on with no tab at all.
async fn close_startup_tabs(browser: &Browser) {
    let Ok(tabs) = browser.page_targets().await else { return };
    for (id, _, _) in tabs {
        let _ = browser.raw().call(None, "Target.closeTarget", json!({"targetId": id})).await;
    }
}
