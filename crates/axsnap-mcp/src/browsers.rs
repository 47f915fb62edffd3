//! [`Browsers`]: where each MCP session gets its browser backend.
//!
//! All sessions share one browser, held by a [`BrowserHost`] and started on the first call that
//! needs a page. An isolated session (HTTP) gets a browser context of its own: its cookies,
//! storage and tabs apart from every other session's. Stdio has one session, which works in
//! the browser's default context, as does a session on an attached `--cdp-endpoint` browser
//! served over stdio (the user attached it for its profile: logins, cookies).
//!
//! With `--cdp-pool` each session instead opens a connection of its own to the pool (which
//! hands each connection a browser), makes a context there, and closes it when released.
//!
//! When the browser dies the host starts a new one on the next call, and each session's
//! backend reopens its tabs at their last URLs (see [`axsnap_cdp::CdpBackend`]); a lost
//! connection to a browser we attached to is retried with backoff.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use axsnap_cdp::{AxTree, BrowserHost, BrowserSource, CdpBackend, Downloads, Endpoint, Handoff, Isolation};

use crate::options::BrowserOptions;

/// Hands out one backend per session: on the one shared browser, or (a pool) on a browser
/// connection of the session's own.
#[derive(Clone, Debug)]
pub struct Browsers {
    host: BrowserHost,
    /// `--cdp-pool`: the endpoint each session connects to on its own.
    pool: Option<Endpoint>,
    sessions: Arc<AtomicU64>,
    ax_tree: AxTree,
    /// A persistent profile (`--user-data-dir`): sessions share its default context.
    profile: bool,
    /// Where sessions' downloads are saved (`--output-dir`).
    output_dir: Option<std::path::PathBuf>,
}

impl Browsers {
    /// Browsers as `options` say; nothing starts yet.
    pub fn new(options: BrowserOptions) -> Browsers {
        let pool = options.cdp_pool.as_deref().map(|url| options.endpoint(url));
        let source = match options.cdp_endpoint.as_deref() {
            Some(url) => BrowserSource::Connect(options.endpoint(url)),
            None => BrowserSource::Launch(options.launch_options()),
        };
        Browsers {
            host: BrowserHost::new(source),
            pool,
            sessions: Arc::new(AtomicU64::new(0)),
            ax_tree: options.ax_tree,
            profile: options.user_data_dir.is_some(),
            output_dir: options.output_dir,
        }
    }

    /// A backend for a new session: cheap, no I/O. `isolated`: a browser context of its own.
    /// With a pool, the backend has a connection of its own (made on its first call; closed
    /// when it is dropped, which ends the pool's browser) and a context in it.
    /// `stored`: the session is kept in the state store, so its context must outlive this
    /// server's connection for another server to take it over.
    pub fn backend(&self, isolated: bool, stored: bool) -> CdpBackend {
        let (host, isolation) = self.host_for(isolated);
        self.prepared(host.backend(isolation), stored)
    }

    /// A backend that carries on from another server's `handoff` (see
    /// [`CdpBackend::resume`]): on the same browser context when this server's browser has it,
    /// else on tabs reopened at their last URLs.
    pub fn resume(&self, isolated: bool, handoff: Handoff) -> CdpBackend {
        let (host, isolation) = self.host_for(isolated);
        self.prepared(CdpBackend::resume(host, isolation, handoff), true)
    }

    /// The host a new session's backend works on, and how it is isolated there.
    fn host_for(&self, isolated: bool) -> (BrowserHost, Isolation) {
        match &self.pool {
            Some(pool) => {
                let n = self.sessions.fetch_add(1, Ordering::Relaxed) + 1;
                let id = format!("axsnap-{}-{n}", std::process::id());
                (BrowserHost::dedicated(BrowserSource::Connect(pool.for_session(&id))), Isolation::Context)
            }
            // A persistent profile is the user's: its default context (logins) for every session.
            None if self.profile => (self.host.clone(), Isolation::Shared),
            None => (self.host.clone(), if isolated { Isolation::Context } else { Isolation::Shared }),
        }
    }

    fn prepared(&self, mut b: CdpBackend, stored: bool) -> CdpBackend {
        b.set_ax_tree(self.ax_tree);
        b.set_outlive(stored);
        if let Some(dir) = &self.output_dir {
            match Downloads::new(dir) {
                Ok(d) => b.set_downloads(Some(d)),
                Err(e) => tracing::warn!("downloads stay refused: {}: {e}", dir.display()),
            }
        }
        b
    }

    /// Whether a session handed to another server leaves this one's backend to it: on a
    /// browser both reach, the context carries on there; this server's own browser (launched,
    /// or a pool's for this server's connection) nobody else reaches, so the context must be
    /// released here. (Servers sharing a store are taken to share their `--cdp-endpoint`.)
    pub fn reachable_elsewhere(&self) -> bool {
        self.pool.is_none() && matches!(self.host.source(), BrowserSource::Connect(_))
    }

    /// Releases what a session's backend holds (its context and tabs; never the shared
    /// browser). A pool session's connection is closed too, which gives its browser back.
    pub async fn release(&self, mut backend: CdpBackend) {
        if let Err(e) = backend.release().await {
            tracing::debug!("releasing a session's browser context: {e}");
        }
        if self.pool.is_some() {
            backend.host().shutdown().await;
        }
    }

    /// Starts the browser now (a persistent profile is claimed at start, so a second server on
    /// it is refused at once, not on its first call).
    pub async fn start(&self) -> Result<(), axsnap_cdp::CdpError> {
        self.host.browser().await.map(|_| ())
    }

    /// Closes a launched browser when the server stops (an attached one is left running).
    pub async fn shutdown(&self) {
        self.host.shutdown().await;
    }
}
