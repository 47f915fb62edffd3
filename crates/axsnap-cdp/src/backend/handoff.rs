//! Handing a backend's tabs to another process: a server that shares its sessions through a
//! state store writes a [`Handoff`] after each call, and whichever server takes the session
//! next resumes from it ([`CdpBackend::resume`]).
//!
//! On a browser both servers reach (`--cdp-endpoint`), the session's context outlived the
//! server that made it (it was created with [`CdpBackend::set_outlive`]): the new backend takes
//! it over as it is, tabs, page state and native ids included, so refs keep naming the same
//! elements. Where the context is gone (a pool browser that closed with its connection, a
//! browser that was restarted) the tabs are reopened at their last URLs, as after a browser
//! restart, and the first call says the page state was lost ([`CdpError::BrowserRestarted`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::share::Live;
use super::CdpBackend;
use crate::browser::Browser;
use crate::error::CdpError;
use crate::host::{BrowserHost, BrowserSource, Isolation, Running};

/// What another process needs to carry on with a backend's tabs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handoff {
    /// The backend's own browser context, when it made one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// Whether the backend had taken its share of a browser (false before its first call).
    #[serde(default)]
    pub started: bool,
    /// The agent's id of the active tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<String>,
    /// Agent id -> CDP target id, for tabs reopened under an old id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub aliases: BTreeMap<String, String>,
    /// Agent id -> the tab's last URL, to reopen it where the context is gone.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub urls: BTreeMap<String, String>,
    /// Agent ids of the tabs the backend opened (a release closes them).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub opened: BTreeSet<String>,
}

impl CdpBackend {
    /// What another process needs to resume this backend's tabs (see the module docs).
    pub fn handoff(&self) -> Handoff {
        let context = match (&self.live, &self.adopt) {
            (Some(live), _) => live.context.clone(),
            (None, Some(pending)) => pending.clone(),
            (None, None) => None,
        };
        Handoff {
            context,
            started: self.live.is_some() || self.adopt.is_some(),
            active: self.active.clone(),
            aliases: self.aliases.iter().map(|(a, c)| (a.clone(), c.clone())).collect(),
            urls: self.urls.iter().map(|(a, u)| (a.clone(), u.clone())).collect(),
            opened: self.opened.iter().cloned().collect(),
        }
    }

    /// A backend on `host` that carries on from `handoff`: on its first call it takes the
    /// context over when the browser still has it, and otherwise reopens the tabs at their
    /// last URLs. No I/O until then.
    pub fn resume(host: BrowserHost, isolation: Isolation, handoff: Handoff) -> CdpBackend {
        let mut b = CdpBackend::new(host, isolation);
        b.active = handoff.active;
        b.aliases = handoff.aliases.into_iter().collect();
        b.urls = handoff.urls.into_iter().collect();
        b.opened = handoff.opened.into_iter().collect();
        b.adopt = handoff.started.then_some(handoff.context);
        b
    }

    /// Makes the context this backend creates outlive its connection, so that another process
    /// can take it over ([`CdpBackend::resume`]); whoever ends the session disposes of it.
    pub fn set_outlive(&mut self, outlive: bool) {
        self.outlive = outlive;
    }

    /// Lets go of the context and tabs without closing them: another process carries the
    /// session on. Dropping the backend afterwards closes nothing.
    pub fn disown(&mut self) {
        self.forget();
    }

    /// Takes over the context a handoff named, when the browser still has it; `false` when it
    /// is gone (the tabs are then reopened).
    pub(super) async fn take_over(
        &mut self,
        running: &Running,
        context: Option<&str>,
    ) -> Result<bool, CdpError> {
        let browser = &running.browser;
        let alive = match (self.isolation, context) {
            (Isolation::Context, Some(c)) => browser.context_ids().await?.iter().any(|id| id == c),
            // A pool browser's default context died with the connection that had it.
            (Isolation::Context, None) => false,
            (Isolation::Shared, _) => true,
        };
        if alive {
            tracing::debug!("took over a session's browser context from another server");
            self.live = Some(Live {
                generation: running.generation,
                raw: browser.raw().clone(),
                context: context.map(str::to_string),
                default_context: running.default_context.clone(),
            });
        }
        Ok(alive)
    }

    /// Disposes of a handed-over context this backend never took over (its session ended
    /// before another call came), where a browser both processes reach still has it.
    pub(super) async fn dispose_pending(&mut self) -> Result<(), CdpError> {
        let Some(Some(context)) = self.adopt.take() else { return Ok(()) };
        // A launched browser or a pool's browser is this process's own: the context is not
        // in it.
        if self.host.is_dedicated() || !matches!(self.host.source(), BrowserSource::Connect(_)) {
            return Ok(());
        }
        let browser: Arc<Browser> = self.host.browser().await?;
        if browser.context_ids().await?.contains(&context) {
            match browser.dispose_context(&context).await {
                Ok(()) | Err(CdpError::Disconnected) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}
