//! Live pages: launching or connecting to a browser and opening a page in it.

use std::time::Duration;

use anyhow::Context;
use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::backend::Backend;
use axsnap_core::TargetId;
use axsnap_mcp::{Agent, AgentOptions};

use crate::cli::BrowserArgs;

/// A browser with one page open for this command.
pub struct Live {
    /// The agent over the browser, on the page this command opened.
    pub agent: Agent<CdpBackend>,
    target: TargetId,
    connected: bool,
}

impl Live {
    /// Launches (or connects to) a browser and opens `url` in a new tab.
    pub async fn open(args: &BrowserArgs, url: &str) -> anyhow::Result<Live> {
        let (mut backend, connected) = match &args.cdp_endpoint {
            Some(endpoint) => (CdpBackend::connect(endpoint).await?, true),
            None => {
                let opts = LaunchOptions { executable: args.browser.clone(), ..LaunchOptions::default() };
                (CdpBackend::launch(opts).await?, false)
            }
        };
        let target = match backend.open_target(url).await {
            Ok(t) => t,
            Err(e) => {
                let _ = backend.close().await;
                return Err(e).with_context(|| format!("cannot open {url}"));
            }
        };
        let options = AgentOptions {
            capture_deadline: Duration::from_secs(args.capture_timeout),
            ..AgentOptions::default()
        };
        Ok(Live { agent: Agent::new(backend, Some(target.clone()), options), target, connected })
    }

    /// Closes the page; a launched browser is closed, a connected one left running.
    pub async fn close(self) -> anyhow::Result<()> {
        let Live { agent, target, connected } = self;
        let mut backend = agent.into_backend();
        if connected {
            backend.close_target(&target).await.context("cannot close the page in the connected browser")?;
        }
        backend.close().await.context("cannot close the browser")?;
        Ok(())
    }
}

/// A runtime for the commands that drive a browser.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}
