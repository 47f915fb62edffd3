//! [`CdpBackend`]: the core's [`Backend`] over one browser.

use std::collections::HashMap;
use std::time::Duration;

use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, TargetAction, TargetSummary};
use axsnap_core::{Header, NativeId, TargetId};

use crate::browser::{Browser, LaunchOptions};
use crate::capture::{self, CaptureOutput, CaptureStats};
use crate::change;
use crate::error::CdpError;
use crate::page::PageHandle;
use crate::settle::SettleOptions;
use crate::{dialogs, nav, tabs};

/// How often a running capture looks for a JavaScript dialog that opened meanwhile.
const DIALOG_POLL: Duration = Duration::from_millis(20);

/// The Chromium backend: a browser and the tabs it has attached to.
///
/// Target ids are the CDP target ids of the tabs, with one exception that keeps them stable
/// for the agent: when a browser this backend launched dies (killed, crashed), the next call
/// starts a new one and reopens every tab it knew at its last URL, and the old ids go on naming
/// the reopened tabs. (Refs then carry over structurally, as after a navigation.)
#[derive(Debug)]
pub struct CdpBackend {
    browser: Browser,
    /// Attached tabs, by CDP target id.
    pages: HashMap<String, PageHandle>,
    /// The agent's id of the active tab.
    active: Option<String>,
    /// Per CDP target id, the root's native id in its last whole capture: a capture of a tab a
    /// dialog blocks reuses it, so the refs of the page keep their meaning.
    roots: HashMap<String, NativeId>,
    /// Agent id -> CDP target id, for tabs reopened after a browser restart.
    aliases: HashMap<String, String>,
    /// Agent id -> the last URL seen, for reopening after a browser restart.
    urls: HashMap<String, String>,
}

impl CdpBackend {
    /// Launches a browser.
    pub async fn launch(opts: LaunchOptions) -> Result<CdpBackend, CdpError> {
        Ok(CdpBackend::with_browser(Browser::launch(opts).await?))
    }

    /// Connects to a running browser (`ws://...` or `http://host:port`).
    pub async fn connect(endpoint: &str) -> Result<CdpBackend, CdpError> {
        Ok(CdpBackend::with_browser(Browser::connect(endpoint).await?))
    }

    /// Wraps a browser.
    pub fn with_browser(browser: Browser) -> CdpBackend {
        CdpBackend {
            browser,
            pages: HashMap::new(),
            active: None,
            roots: HashMap::new(),
            aliases: HashMap::new(),
            urls: HashMap::new(),
        }
    }

    /// The browser.
    pub fn browser(&self) -> &Browser {
        &self.browser
    }

    /// The browser, mutably (its process id, for one).
    pub fn browser_mut(&mut self) -> &mut Browser {
        &mut self.browser
    }

    /// Opens a new tab at `url`, makes it the active one and returns its id.
    pub async fn open(&mut self, url: &str) -> Result<TargetId, CdpError> {
        self.open_target(url).await
    }

    /// The active tab, if any.
    pub fn active(&self) -> Option<TargetId> {
        self.active.clone().map(TargetId)
    }

    /// Makes `target` the active tab.
    pub async fn set_active(&mut self, target: &TargetId) -> Result<(), CdpError> {
        self.page(target).await?;
        self.active = Some(target.0.clone());
        Ok(())
    }

    /// The CDP target id behind an agent's target id.
    fn cdp_id(&self, target: &TargetId) -> String {
        self.aliases.get(&target.0).cloned().unwrap_or_else(|| target.0.clone())
    }

    /// The agent's id of a CDP target id.
    fn agent_id(&self, cdp: &str) -> String {
        self.aliases
            .iter()
            .find(|(_, c)| c.as_str() == cdp)
            .map_or_else(|| cdp.to_string(), |(a, _)| a.clone())
    }

    /// The handle of a tab, attaching to it on first use.
    pub async fn page(&mut self, target: &TargetId) -> Result<PageHandle, CdpError> {
        self.revive().await?;
        let id = self.cdp_id(target);
        if let Some(p) = self.pages.get(&id) {
            return Ok(p.clone());
        }
        let p = self.browser.attach_page(&id).await.map_err(|e| match e {
            CdpError::NoSuchTarget(_) => CdpError::NoSuchTarget(target.0.clone()),
            e => e,
        })?;
        self.pages.insert(id, p.clone());
        Ok(p)
    }

    /// When the browser this backend launched has died, starts a new one and reopens the tabs
    /// it knew at their last URLs (a tab whose URL no longer loads opens blank). A connected
    /// browser is not ours to start: its loss stays [`CdpError::Disconnected`].
    async fn revive(&mut self) -> Result<(), CdpError> {
        if self.browser.is_open() {
            return Ok(());
        }
        let Some(opts) = self.browser.launch_options().cloned() else { return Err(CdpError::Disconnected) };
        tracing::warn!("the browser is gone; starting a new one and reopening {} tab(s)", self.urls.len());
        let dead = std::mem::replace(&mut self.browser, Browser::launch(opts).await?);
        // Reaps the old process and deletes its profile.
        let _ = dead.close().await;
        self.pages.clear();
        self.roots.clear();
        self.aliases.clear();
        let mut tabs: Vec<(String, String)> = self.urls.drain().collect();
        tabs.sort();
        for (agent_id, url) in tabs {
            let page = match tabs::open(&self.browser, &url).await {
                Ok(p) => p,
                Err(CdpError::Disconnected) => return Err(CdpError::Disconnected),
                Err(e) => {
                    tracing::warn!("reopening {url} failed ({e}); the tab opens blank");
                    self.browser.new_page("about:blank").await?
                }
            };
            let id = page.target_id().to_string();
            self.pages.insert(id.clone(), page);
            self.aliases.insert(agent_id.clone(), id);
            self.urls.insert(agent_id, url);
        }
        Ok(())
    }

    /// Captures with stats (what [`Backend::capture`] does, plus timings).
    pub async fn capture_with_stats(
        &mut self,
        target: &TargetId,
        deadline: Duration,
    ) -> Result<CaptureOutput, CdpError> {
        let page = self.page(target).await?;
        if let Some(dialog) = page.watch().dialog() {
            let started = std::time::Instant::now();
            let capture = self.blocked(target, &dialog).await?;
            let stats = CaptureStats { elapsed: started.elapsed(), ..CaptureStats::default() };
            return Ok(CaptureOutput { capture, stats });
        }
        // A dialog that opens during the capture blocks the calls still to come until it is
        // answered: answer with the blocked capture as soon as the watcher sees it, instead
        // of at the deadline. (The calls already queued, the marks' removal among them, run
        // when the dialog is answered.)
        let dialog_opens = async {
            loop {
                if let Some(d) = page.watch().dialog() {
                    return d;
                }
                tokio::time::sleep(DIALOG_POLL).await;
            }
        };
        let mut out = tokio::select! {
            out = capture::capture(&page, deadline) => out?,
            dialog = dialog_opens => {
                let started = std::time::Instant::now();
                let capture = self.blocked(target, &dialog).await?;
                let stats = CaptureStats { elapsed: started.elapsed(), ..CaptureStats::default() };
                return Ok(CaptureOutput { capture, stats });
            }
        };
        // The core sees the agent's id, whatever tab stands behind it now.
        out.capture.target = target.clone();
        if let Some(url) = &out.capture.header.url {
            self.urls.insert(target.0.clone(), url.clone());
        }
        if out.capture.partial.is_none() {
            if let Some(root) = out.capture.tree.root() {
                self.roots.insert(page.target_id().to_string(), out.capture.tree.node(root).native.clone());
            }
        }
        Ok(out)
    }

    /// The capture of a tab a JavaScript dialog blocks (see [`dialogs::blocked_capture`]).
    async fn blocked(&mut self, target: &TargetId, dialog: &dialogs::Dialog) -> Result<Capture, CdpError> {
        let id = self.cdp_id(target);
        // The browser answers for the tab while its renderer waits on the dialog.
        let tabs = self.browser.page_targets().await?;
        let (url, title) =
            tabs.into_iter().find(|(t, _, _)| *t == id).map(|(_, u, t)| (u, t)).unwrap_or_default();
        let header =
            Header { url: Some(url).filter(|u| !u.is_empty()), title: Some(title).filter(|t| !t.is_empty()) };
        let root = self.roots.get(&id).cloned().unwrap_or_else(|| NativeId::new(format!("{id}:"), "root"));
        Ok(dialogs::blocked_capture(target, header, root, dialog))
    }

    /// The tab, unless a JavaScript dialog blocks it.
    async fn unblocked_page(&mut self, target: &TargetId) -> Result<PageHandle, CdpError> {
        let page = self.page(target).await?;
        match page.watch().dialog() {
            Some(d) => Err(d.blocks()),
            None => Ok(page),
        }
    }

    /// After an action that reported a dialog: waits (briefly) until the tab's watcher has seen
    /// it too, so the next capture knows the page is blocked instead of waiting on it.
    async fn note_dialog(&mut self, target: &TargetId, outcome: &Outcome) {
        if outcome.dialog.is_none() {
            return;
        }
        let Some(page) = self.pages.get(&self.cdp_id(target)) else { return };
        let until = std::time::Instant::now() + Duration::from_secs(1);
        while page.watch().dialog().is_none() && std::time::Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Attaches to the tabs an action opened (popups), so they can be captured at once, and
    /// names them by the agent's ids.
    async fn adopt_opened(&mut self, outcome: &mut Outcome) {
        for t in &mut outcome.opened {
            // A popup that closed again before we attached is simply not adopted.
            let _ = self.page(t).await;
            *t = TargetId(self.agent_id(&t.0));
        }
    }

    /// Closes the browser (a connected one is left running).
    pub async fn close(self) -> Result<(), CdpError> {
        self.browser.close().await
    }
}

impl Backend for CdpBackend {
    type Error = CdpError;

    async fn targets(&mut self) -> Result<Vec<TargetSummary>, CdpError> {
        self.revive().await?;
        let tabs: Vec<(String, String, String)> = self
            .browser
            .page_targets()
            .await?
            .into_iter()
            .map(|(id, url, title)| (self.agent_id(&id), url, title))
            .collect();
        if self.active.as_ref().is_none_or(|a| !tabs.iter().any(|(id, _, _)| id == a)) {
            self.active = tabs.first().map(|(id, _, _)| id.clone());
        }
        for (id, url, _) in &tabs {
            if !url.is_empty() {
                self.urls.insert(id.clone(), url.clone());
            }
        }
        Ok(tabs
            .into_iter()
            .map(|(id, url, title)| TargetSummary {
                active: self.active.as_deref() == Some(id.as_str()),
                id: TargetId(id),
                header: Header {
                    url: Some(url).filter(|u| !u.is_empty()),
                    title: Some(title).filter(|t| !t.is_empty()),
                },
            })
            .collect())
    }

    async fn capture(&mut self, target: &TargetId, deadline: Duration) -> Result<Capture, CdpError> {
        Ok(self.capture_with_stats(target, deadline).await?.capture)
    }

    async fn act(
        &mut self,
        target: &TargetId,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<Outcome, CdpError> {
        let page = self.unblocked_page(target).await?;
        let mut outcome = crate::act::act(&page, element, action).await?;
        self.note_dialog(target, &outcome).await;
        self.adopt_opened(&mut outcome).await;
        Ok(outcome)
    }

    async fn act_on_target(&mut self, target: &TargetId, action: &TargetAction) -> Result<Outcome, CdpError> {
        let page = match action {
            TargetAction::AcceptDialog { .. } | TargetAction::DismissDialog => self.page(target).await?,
            _ => self.unblocked_page(target).await?,
        };
        let opts = SettleOptions::default();
        let mut outcome = match action {
            TargetAction::Navigate { url } => nav::navigate(&page, url, &opts).await?,
            TargetAction::Back => nav::back(&page, &opts).await?,
            TargetAction::Forward => nav::forward(&page, &opts).await?,
            TargetAction::Reload => nav::reload(&page, &opts).await?,
            TargetAction::Press { keys } => crate::act::press_page(&page, keys, &opts).await?,
            TargetAction::Scroll { dx, dy } => crate::act::scroll_page(&page, *dx, *dy, &opts).await?,
            TargetAction::AcceptDialog { text } => {
                dialogs::answer(&page, &dialogs::Answer::Accept(text.clone()), &opts).await?
            }
            TargetAction::DismissDialog => dialogs::answer(&page, &dialogs::Answer::Dismiss, &opts).await?,
        };
        self.note_dialog(target, &outcome).await;
        self.adopt_opened(&mut outcome).await;
        Ok(outcome)
    }

    async fn open_target(&mut self, url: &str) -> Result<TargetId, CdpError> {
        self.revive().await?;
        let page = tabs::open(&self.browser, url).await?;
        let id = page.target_id().to_string();
        self.pages.insert(id.clone(), page);
        self.urls.insert(id.clone(), url.to_string());
        self.active = Some(id.clone());
        Ok(TargetId(id))
    }

    async fn close_target(&mut self, target: &TargetId) -> Result<(), CdpError> {
        self.revive().await?;
        let id = self.cdp_id(target);
        tabs::close(&self.browser, &id).await.map_err(|e| match e {
            CdpError::NoSuchTarget(_) => CdpError::NoSuchTarget(target.0.clone()),
            e => e,
        })?;
        self.pages.remove(&id);
        self.roots.remove(&id);
        self.aliases.remove(&target.0);
        self.urls.remove(&target.0);
        if self.active.as_deref() == Some(target.0.as_str()) {
            self.active = None;
        }
        Ok(())
    }

    fn element_gone(error: &CdpError) -> bool {
        matches!(error, CdpError::StaleElement { .. })
    }

    async fn changed(&mut self, target: &TargetId) -> Result<bool, CdpError> {
        let page = self.page(target).await?;
        // A blocked page answers no script; its blocked capture is cheap and always current.
        if page.watch().dialog().is_some() {
            return Ok(true);
        }
        Ok(change::changed(&page).await)
    }
}
