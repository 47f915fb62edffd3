//! [`Browsers`]: where each MCP session gets its browser backend.
//!
//! All sessions share one browser, held by a [`BrowserHost`] and started on the first call that
//! needs a page. An isolated session (HTTP) gets a browser context of its own: its cookies,
//! storage and tabs apart from every other session's. Stdio has one session, which works in
//! the browser's default context, as does a session on an attached `--cdp-endpoint` browser
//! served over stdio (the user attached it for its profile: logins, cookies).
//!
//! When the browser dies the host starts a new one on the next call, and each session's
//! backend reopens its tabs at their last URLs (see [`axsnap_cdp::CdpBackend`]).

use axsnap_cdp::{AxTree, BrowserHost, BrowserSource, CdpBackend, Isolation, LaunchOptions};

use crate::options::BrowserOptions;

/// Hands out one backend per session, all on one shared browser.
#[derive(Clone, Debug)]
pub struct Browsers {
    host: BrowserHost,
    ax_tree: AxTree,
}

impl Browsers {
    /// Browsers as `options` say; nothing starts yet.
    pub fn new(options: BrowserOptions) -> Browsers {
        let source = match options.cdp_endpoint {
            Some(endpoint) => BrowserSource::Connect(endpoint),
            None => BrowserSource::Launch(LaunchOptions {
                executable: options.executable,
                headless: options.headless,
                window: options.viewport,
                ..LaunchOptions::default()
            }),
        };
        Browsers { host: BrowserHost::new(source), ax_tree: options.ax_tree }
    }

    /// A backend for a new session: cheap, no I/O. `isolated`: a browser context of its own.
    pub fn backend(&self, isolated: bool) -> CdpBackend {
        let mut b = self.host.backend(if isolated { Isolation::Context } else { Isolation::Shared });
        b.set_ax_tree(self.ax_tree);
        b
    }

    /// The shared browser's host.
    pub fn host(&self) -> &BrowserHost {
        &self.host
    }

    /// Releases what a session's backend holds (its context and tabs; never the browser).
    pub async fn release(&self, mut backend: CdpBackend) {
        if let Err(e) = backend.release().await {
            tracing::debug!("releasing a session's browser context: {e}");
        }
    }

    /// Closes a launched browser when the server stops (an attached one is left running).
    pub async fn shutdown(&self) {
        self.host.shutdown().await;
    }
}
