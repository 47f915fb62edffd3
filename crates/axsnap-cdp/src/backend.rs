//! [`CdpBackend`]: the core's [`Backend`] over one browser.

use std::collections::HashMap;
use std::time::Duration;

use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, TargetAction, TargetSummary};
use axsnap_core::{Header, NativeId, TargetId};

use crate::browser::{Browser, LaunchOptions};
use crate::capture::{self, CaptureOutput};
use crate::change;
use crate::error::CdpError;
use crate::page::PageHandle;
use crate::settle::SettleOptions;
use crate::{dialogs, nav, tabs};

/// The Chromium backend: a browser and the tabs it has attached to. Target ids are CDP target
/// ids.
#[derive(Debug)]
pub struct CdpBackend {
    browser: Browser,
    pages: HashMap<String, PageHandle>,
    active: Option<String>,
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
        CdpBackend { browser, pages: HashMap::new(), active: None }
    }

    /// The browser.
    pub fn browser(&self) -> &Browser {
        &self.browser
    }

    /// Opens a new tab at `url`, makes it the active one and returns its id.
    pub async fn open(&mut self, url: &str) -> Result<TargetId, CdpError> {
        let page = self.browser.new_page(url).await?;
        let id = page.target_id().to_string();
        self.pages.insert(id.clone(), page);
        self.active = Some(id.clone());
        Ok(TargetId(id))
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

    /// The handle of a tab, attaching to it on first use.
    pub async fn page(&mut self, target: &TargetId) -> Result<PageHandle, CdpError> {
        if let Some(p) = self.pages.get(&target.0) {
            return Ok(p.clone());
        }
        let p = self.browser.attach_page(&target.0).await?;
        self.pages.insert(target.0.clone(), p.clone());
        Ok(p)
    }

    /// Captures with stats (what [`Backend::capture`] does, plus timings).
    pub async fn capture_with_stats(
        &mut self,
        target: &TargetId,
        deadline: Duration,
    ) -> Result<CaptureOutput, CdpError> {
        let page = self.page(target).await?;
        capture::capture(&page, deadline).await
    }

    /// Attaches to the tabs an action opened (popups), so they can be captured at once.
    async fn adopt_opened(&mut self, outcome: &Outcome) {
        for t in &outcome.opened {
            // A popup that closed again before we attached is simply not adopted.
            let _ = self.page(t).await;
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
        let tabs = self.browser.page_targets().await?;
        if self.active.as_ref().is_none_or(|a| !tabs.iter().any(|(id, _, _)| id == a)) {
            self.active = tabs.first().map(|(id, _, _)| id.clone());
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
        let page = self.page(target).await?;
        let outcome = crate::act::act(&page, element, action).await?;
        self.adopt_opened(&outcome).await;
        Ok(outcome)
    }

    async fn act_on_target(&mut self, target: &TargetId, action: &TargetAction) -> Result<Outcome, CdpError> {
        let page = self.page(target).await?;
        let opts = SettleOptions::default();
        let outcome = match action {
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
        self.adopt_opened(&outcome).await;
        Ok(outcome)
    }

    async fn open_target(&mut self, url: &str) -> Result<TargetId, CdpError> {
        let page = tabs::open(&self.browser, url).await?;
        let id = page.target_id().to_string();
        self.pages.insert(id.clone(), page);
        self.active = Some(id.clone());
        Ok(TargetId(id))
    }

    async fn close_target(&mut self, target: &TargetId) -> Result<(), CdpError> {
        tabs::close(&self.browser, &target.0).await?;
        self.pages.remove(&target.0);
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
        Ok(change::changed(&page).await)
    }
}
