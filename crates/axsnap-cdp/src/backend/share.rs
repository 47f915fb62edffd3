//! A backend's share of the host's browser: its context in the current browser generation,
//! the tabs it owns there, re-creating both after the browser was started again, and letting
//! them go.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use axsnap_core::TargetId;
use serde_json::json;

use super::CdpBackend;
use crate::browser::Browser;
use crate::conn::{str_field, RawCdp};
use crate::endpoint::Endpoint;
use crate::error::CdpError;
use crate::host::Isolation;
use crate::tabs::{self, Tab};

/// A backend's share of one browser generation.
#[derive(Debug)]
pub(super) struct Live {
    pub(super) generation: u64,
    /// The browser's connection, for the release on drop (which cannot wait).
    pub(super) raw: RawCdp,
    /// Its own browser context ([`Isolation::Context`]).
    pub(super) context: Option<String>,
    /// The browser's default context, when it says ([`Isolation::Shared`] lists its tabs).
    pub(super) default_context: Option<String>,
}

impl CdpBackend {
    /// Releases what this backend holds: its own context with every tab in it
    /// ([`Isolation::Context`]), or the tabs it opened ([`Isolation::Shared`]; the other
    /// tabs of the default context are left alone, only detached from). Never closes the
    /// browser. Idempotent; a later call starts afresh (a new context, no tabs).
    pub async fn release(&mut self) -> Result<(), CdpError> {
        let Some(live) = self.live.take() else {
            let pending = self.dispose_pending().await;
            self.forget();
            return pending;
        };
        // The context and tabs of an earlier browser died with it.
        let browser = self.host.browser_now().filter(|_| self.host.generation() == Some(live.generation));
        let result = match (browser, &live.context) {
            (None, _) => Ok(()),
            (Some(browser), Some(context)) => match browser.dispose_context(context).await {
                Ok(()) | Err(CdpError::Disconnected) => Ok(()),
                Err(e) => Err(e),
            },
            (Some(browser), None) => {
                let mine: HashSet<String> =
                    self.opened.iter().map(|a| self.cdp_id(&TargetId(a.clone()))).collect();
                // A tab that closed by itself meanwhile is not an error here.
                futures::future::join_all(mine.iter().map(|id| tabs::close(&browser, id))).await;
                let detaches = self.pages.iter().filter(|(id, _)| !mine.contains(*id)).map(|(_, p)| {
                    browser.raw().call(None, "Target.detachFromTarget", json!({"sessionId": p.session_id()}))
                });
                futures::future::join_all(detaches).await;
                Ok(())
            }
        };
        self.forget();
        result
    }

    /// Drops every tab and the context from this backend's books, with no I/O.
    pub(super) fn forget(&mut self) {
        self.live = None;
        self.adopt = None;
        self.pages.clear();
        self.active = None;
        self.roots.clear();
        self.aliases.clear();
        self.urls.clear();
        self.opened.clear();
        self.scratch = None;
        self.loss_told = false;
    }

    /// Notes that a result told the agent the browser was lost.
    pub(super) fn told<T>(&mut self, r: Result<T, CdpError>) -> Result<T, CdpError> {
        if matches!(r, Err(CdpError::Disconnected)) {
            self.loss_told = true;
        }
        r
    }

    /// The running browser with this backend's context in it: starts the browser when there is
    /// none (or it died), makes the context on first use, and after a restart reopens the tabs
    /// it knew (see the type's docs).
    pub(super) async fn ready(&mut self) -> Result<Arc<Browser>, CdpError> {
        let running = self.host.running().await?;
        if self.live.as_ref().is_some_and(|l| l.generation == running.generation) {
            return Ok(running.browser);
        }
        let adopting = self.adopt.take();
        if let Some(context) = &adopting {
            if self.take_over(&running, context.as_deref()).await? {
                self.enable_downloads(&running.browser).await;
                return Ok(running.browser);
            }
        }
        // A handed-over session whose context is gone reopens its tabs as after a restart.
        let restoring = self.live.is_some() || (adopting.is_some() && !self.urls.is_empty());
        let browser = running.browser;
        self.pages.clear();
        self.roots.clear();
        let context = match self.isolation {
            Isolation::Context => match browser.create_context(self.outlive).await {
                Ok(c) => Some(c),
                // A pool that gives each connection a browser of its own may refuse contexts;
                // that browser's default context is then this backend's alone.
                Err(CdpError::Protocol { message, .. }) if self.host.is_dedicated() => {
                    tracing::warn!(
                        "the browser at {} refused a browser context ({message}); working in its default one",
                        browser.endpoint().map(Endpoint::redacted).unwrap_or_default()
                    );
                    None
                }
                Err(e) => return Err(e),
            },
            Isolation::Shared => None,
        };
        self.live = Some(Live {
            generation: running.generation,
            raw: browser.raw().clone(),
            context,
            default_context: running.default_context,
        });
        self.enable_downloads(&browser).await;
        if restoring {
            let reopened = self.reopen(&browser).await?;
            if reopened > 0 && !std::mem::take(&mut self.loss_told) {
                return Err(CdpError::BrowserRestarted { tabs: reopened });
            }
        }
        self.loss_told = false;
        Ok(browser)
    }

    /// Lets this backend's context download into its folder, when it saves downloads.
    async fn enable_downloads(&self, browser: &Browser) {
        let (Some(downloads), Some(live)) = (&self.downloads, &self.live) else { return };
        if let Err(e) = downloads.enable(browser.raw(), live.context.as_deref()).await {
            tracing::warn!("downloads stay refused in a session's context: {e}");
        }
    }

    /// Reopens the tabs this backend knew at their last URLs (a tab whose URL no longer loads
    /// opens blank) under their old ids, and returns how many. A tab that outlived the loss
    /// (a connected browser's default context after a reconnection) is kept as it is.
    async fn reopen(&mut self, browser: &Browser) -> Result<usize, CdpError> {
        let alive: HashSet<String> = match self.isolation {
            Isolation::Shared if !browser.launched() => {
                self.own_tabs(browser).await?.into_iter().map(|t| t.id).collect()
            }
            _ => HashSet::new(),
        };
        let old_aliases = std::mem::take(&mut self.aliases);
        let mut known: Vec<(String, String)> =
            self.urls.iter().map(|(a, u)| (a.clone(), u.clone())).collect();
        known.sort();
        let context = self.live.as_ref().and_then(|l| l.context.clone());
        tracing::warn!("the browser was restarted; reopening {} tab(s) of a session", known.len());
        let mut reopened = 0;
        for (agent_id, url) in known {
            let old = old_aliases.get(&agent_id).cloned().unwrap_or_else(|| agent_id.clone());
            if alive.contains(&old) {
                if old != agent_id {
                    self.aliases.insert(agent_id, old);
                }
                continue;
            }
            let page = match tabs::open_in(browser, context.as_deref(), &url, self.settle.load).await {
                Ok(p) => p,
                Err(CdpError::Disconnected) => return Err(CdpError::Disconnected),
                Err(e) => {
                    tracing::warn!("reopening {url} failed ({e}); the tab opens blank");
                    browser.new_page_in(context.as_deref(), "about:blank").await?
                }
            };
            let id = page.target_id().to_string();
            self.keep_page(id.clone(), page);
            self.aliases.insert(agent_id.clone(), id);
            // This backend made it, so a release closes it.
            self.opened.insert(agent_id);
            reopened += 1;
        }
        Ok(reopened)
    }

    /// Whether a tab lives in this backend's context.
    fn owns(&self, tab: &Tab) -> bool {
        let Some(live) = &self.live else { return false };
        match (&live.context, &live.default_context) {
            (Some(mine), _) => tab.context.as_deref() == Some(mine.as_str()),
            (None, Some(default)) => tab.context.as_deref() == Some(default.as_str()),
            // A browser that names no default context: every tab is in it.
            (None, None) => true,
        }
    }

    /// The tabs of this backend's context, in the browser's order.
    pub(super) async fn own_tabs(&self, browser: &Browser) -> Result<Vec<Tab>, CdpError> {
        Ok(tabs::list(browser).await?.into_iter().filter(|t| self.owns(t)).collect())
    }

    /// Fails with [`CdpError::NoSuchTarget`] (naming the agent's id) unless the CDP target `id`
    /// is a tab of this backend's context.
    pub(super) async fn check_owned(
        &self,
        browser: &Browser,
        id: &str,
        target: &TargetId,
    ) -> Result<(), CdpError> {
        let v = browser.raw().call(None, "Target.getTargetInfo", json!({"targetId": id})).await;
        let info = match v {
            Ok(v) => v.get("targetInfo").cloned().unwrap_or_default(),
            Err(CdpError::Protocol { .. }) => return Err(CdpError::NoSuchTarget(target.0.clone())),
            Err(e) => return Err(e),
        };
        let tab = Tab {
            id: id.to_string(),
            url: String::new(),
            title: String::new(),
            opener: None,
            context: str_field(&info, "browserContextId").map(str::to_string),
        };
        if str_field(&info, "type") == Some("page") && self.owns(&tab) {
            Ok(())
        } else {
            Err(CdpError::NoSuchTarget(target.0.clone()))
        }
    }
}

impl Drop for CdpBackend {
    /// Releases without waiting: the calls are queued on the connection at once, and the
    /// browser carries them out whether or not anyone reads the answers.
    fn drop(&mut self) {
        let Some(live) = self.live.take() else { return };
        if self.host.generation() != Some(live.generation) || !live.raw.is_open() {
            return;
        }
        let t = Duration::from_secs(5);
        if let Some(context) = &live.context {
            drop(live.raw.send(
                None,
                "Target.disposeBrowserContext",
                json!({"browserContextId": context}),
                t,
            ));
        } else {
            for agent in &self.opened {
                let id = self.aliases.get(agent).unwrap_or(agent);
                drop(live.raw.send(None, "Target.closeTarget", json!({"targetId": id}), t));
            }
        }
    }
}
