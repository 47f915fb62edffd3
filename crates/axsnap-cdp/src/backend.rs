//! [`CdpBackend`]: the core's [`Backend`] over one session's share of a browser.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, Refusal, TargetAction, TargetSummary};
use axsnap_core::{Header, NativeId, TargetId};

use crate::browser::{Browser, LaunchOptions};
use crate::capture::{self, AxTree, CaptureOutput, CaptureStats};
use crate::change;
use crate::error::CdpError;
use crate::host::{BrowserHost, BrowserSource, Isolation};
use crate::page::PageHandle;
use crate::settle::SettleOptions;
use crate::tabs;
use crate::{dialogs, nav};

mod handoff;
mod recording;
mod replace;
mod share;
mod storage;

pub use handoff::Handoff;
use share::Live;

/// How long an action waits to attach to a popup it opened (a busy one does not answer).
const ADOPT_WAIT: Duration = Duration::from_secs(2);

/// How often a running capture looks for a JavaScript dialog that opened meanwhile.
const DIALOG_POLL: Duration = Duration::from_millis(20);
/// A capture that finds an empty document still loading looks again this many times, after
/// this pause.
const BETWEEN_LOADS_LOOKS: usize = 3;
const BETWEEN_LOADS_PAUSE: Duration = Duration::from_millis(60);

/// The Chromium backend of one session: its tabs in a browser a [`BrowserHost`] shares.
///
/// With [`Isolation::Context`] the tabs live in a browser context of the backend's own, made
/// on its first call that needs the browser: it lists only that context's tabs, opens tabs and
/// receives popups there, and an id of another context's tab is [`CdpError::NoSuchTarget`].
/// With [`Isolation::Shared`] it works in the browser's default context.
///
/// Target ids are the CDP target ids of the tabs, with one exception that keeps them stable
/// for the agent: when the browser dies (killed, crashed) the host starts a new one on the next
/// call, this backend reopens every tab it knew at its last URL (in a fresh context), and the
/// old ids go on naming the reopened tabs. (Refs then carry over structurally, as after a
/// navigation.) Page state (form input, cookies, storage) is lost; the backend says so once,
/// with [`CdpError::Disconnected`] from the call the death interrupted or, when it was idle,
/// with [`CdpError::BrowserRestarted`] from its first call after the restart.
///
/// Dropping a backend releases it as [`CdpBackend::release`] would, without waiting.
#[derive(Debug)]
pub struct CdpBackend {
    host: BrowserHost,
    isolation: Isolation,
    /// Its share of the current browser; `None` before its first call and after a release.
    live: Option<Live>,
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
    /// Agent ids of the tabs this backend opened (and their popups): what a release closes
    /// in the shared context, where the other tabs are not this backend's to close.
    opened: HashSet<String>,
    /// A call returned [`CdpError::Disconnected`] since the browser was lost, so the loss has
    /// been told and the restore after it need not tell it again.
    loss_told: bool,
    /// How actions and navigations wait: settle quiet and cap, and the load wait.
    settle: SettleOptions,
    /// Which tree pages are built from.
    ax_tree: AxTree,
    /// The context it makes outlives its connection ([`CdpBackend::set_outlive`]).
    outlive: bool,
    /// Where downloads are saved ([`CdpBackend::set_downloads`]); `None`: the browser refuses
    /// them.
    downloads: Option<crate::downloads::Downloads>,
    /// A handed-over share to take on the first call ([`CdpBackend::resume`]): the context
    /// another process made, if it made one.
    adopt: Option<Option<String>>,
    /// Its tabs' requests and console messages, when it records ([`CdpBackend::set_recording`]).
    recorder: Option<crate::record::Recorder>,
    /// A scratch tab a storage load left open until this backend opens a tab of its own
    /// (see [`CdpBackend::load_storage_state`]).
    scratch: Option<String>,
}

impl CdpBackend {
    /// Launches a browser now and returns a backend alone on it, in its default context (the
    /// single-owner use: the CLI, benches, tests). [`CdpBackend::close`] closes the browser.
    pub async fn launch(opts: LaunchOptions) -> Result<CdpBackend, CdpError> {
        let host = BrowserHost::new(BrowserSource::Launch(opts));
        host.browser().await?;
        Ok(host.backend(Isolation::Shared))
    }

    /// Connects to a running browser now (`ws://...` or `http://host:port`) and returns a
    /// backend alone on it, in its default context.
    pub async fn connect(endpoint: impl Into<crate::Endpoint>) -> Result<CdpBackend, CdpError> {
        let host = BrowserHost::new(BrowserSource::Connect(endpoint.into()));
        host.browser().await?;
        Ok(host.backend(Isolation::Shared))
    }

    /// A backend alone on a running browser, in its default context.
    pub async fn with_browser(browser: Browser) -> CdpBackend {
        BrowserHost::with_browser(browser).await.backend(Isolation::Shared)
    }

    pub(crate) fn new(host: BrowserHost, isolation: Isolation) -> CdpBackend {
        CdpBackend {
            host,
            isolation,
            live: None,
            pages: HashMap::new(),
            active: None,
            roots: HashMap::new(),
            aliases: HashMap::new(),
            urls: HashMap::new(),
            opened: HashSet::new(),
            loss_told: false,
            settle: SettleOptions::default(),
            ax_tree: AxTree::Auto,
            outlive: false,
            downloads: None,
            adopt: None,
            recorder: None,
            scratch: None,
        }
    }

    /// How actions and navigations wait for the page (see [`SettleOptions`]); a caller with a
    /// deadline shortens the load wait to fit it.
    pub fn set_settle_options(&mut self, opts: SettleOptions) {
        self.settle = opts;
    }

    /// Which tree this backend's captures build pages from (default [`AxTree::Auto`]).
    pub fn set_ax_tree(&mut self, ax_tree: AxTree) {
        self.ax_tree = ax_tree;
    }

    /// How actions and navigations wait for the page.
    pub fn settle_options(&self) -> SettleOptions {
        self.settle
    }

    /// The host whose browser this backend uses.
    pub fn host(&self) -> &BrowserHost {
        &self.host
    }

    /// How this backend's tabs are kept apart from others'.
    pub fn isolation(&self) -> Isolation {
        self.isolation
    }

    /// The id of this backend's own browser context, once made ([`Isolation::Context`]).
    pub fn context_id(&self) -> Option<&str> {
        self.live.as_ref().and_then(|l| l.context.as_deref())
    }

    /// The running browser, if any (no browser is started).
    pub fn browser(&self) -> Option<Arc<Browser>> {
        self.host.browser_now()
    }

    /// Opens a new tab at `url`, makes it the active one and returns its id.
    pub async fn open(&mut self, url: &str) -> Result<TargetId, CdpError> {
        self.open_target(url).await
    }

    /// Saves this backend's downloads with `downloads` (from its next share of a browser on).
    pub fn set_downloads(&mut self, downloads: Option<crate::downloads::Downloads>) {
        self.downloads = downloads;
    }

    /// Where this backend's downloads are saved, when they are.
    pub fn downloads(&self) -> Option<&crate::downloads::Downloads> {
        self.downloads.as_ref()
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

    /// The handle of a tab of this backend, attaching to it on first use.
    pub async fn page(&mut self, target: &TargetId) -> Result<PageHandle, CdpError> {
        let r = self.page_inner(target).await;
        self.told(r)
    }

    /// Captures with stats (what [`Backend::capture`] does, plus timings).
    pub async fn capture_with_stats(
        &mut self,
        target: &TargetId,
        deadline: Duration,
    ) -> Result<CaptureOutput, CdpError> {
        let r = self.capture_inner(target, deadline).await;
        self.told(r)
    }

    /// Closes the browser (a connected one is left running) after disposing this backend's own
    /// context, if it has one: the single-owner end of [`CdpBackend::launch`].
    pub async fn close(mut self) -> Result<(), CdpError> {
        let released = if self.isolation == Isolation::Context { self.release().await } else { Ok(()) };
        self.forget();
        self.host.shutdown().await;
        released
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

    async fn page_inner(&mut self, target: &TargetId) -> Result<PageHandle, CdpError> {
        let browser = self.ready().await?;
        let id = self.cdp_id(target);
        if let Some(p) = self.pages.get(&id) {
            return Ok(p.clone());
        }
        self.check_owned(&browser, &id, target).await?;
        let p = browser.attach_page(&id).await.map_err(|e| match e {
            CdpError::NoSuchTarget(_) => CdpError::NoSuchTarget(target.0.clone()),
            e => e,
        })?;
        self.keep_page(id, p.clone());
        Ok(p)
    }

    async fn capture_inner(
        &mut self,
        target: &TargetId,
        deadline: Duration,
    ) -> Result<CaptureOutput, CdpError> {
        let page = self.page_inner(target).await?;
        if let Some(dialog) = page.watch().dialog() {
            let started = std::time::Instant::now();
            let capture = self.blocked(target, &dialog).await?;
            let stats = CaptureStats { elapsed: started.elapsed(), ..CaptureStats::default() };
            return Ok(CaptureOutput { capture, stats, secret_texts: Vec::new() });
        }
        // A dialog that opens during the capture blocks the calls still to come until it is
        // answered: answer with the blocked capture as soon as the watcher sees it, instead
        // of at the deadline. (The calls already queued, the marks' removal among them, run
        // when the dialog is answered.)
        let dialog_opens = || async {
            loop {
                if let Some(d) = page.watch().dialog() {
                    return d;
                }
                tokio::time::sleep(DIALOG_POLL).await;
            }
        };
        let started = std::time::Instant::now();
        let opts = self.ax_tree.options();
        let mut looks = 0;
        let mut out = loop {
            let left = deadline.saturating_sub(started.elapsed());
            let out = tokio::select! {
                out = capture::capture_with(&page, left, &opts) => out?,
                dialog = dialog_opens() => {
                    let started = std::time::Instant::now();
                    let capture = self.blocked(target, &dialog).await?;
                    let stats = CaptureStats { elapsed: started.elapsed(), ..CaptureStats::default() };
                    return Ok(CaptureOutput { capture, stats, secret_texts: Vec::new() });
                }
            };
            // A document caught between loads (empty and still loading: a page that reloads
            // itself) is a moment, not the page: look again, a few times within the deadline.
            looks += 1;
            let tree = &out.capture.tree;
            let between_loads = tree.root().is_some_and(|r| {
                tree.node(r).children.is_empty() && tree.node(r).states.contains(axsnap_core::State::Busy)
            });
            if !between_loads
                || looks > BETWEEN_LOADS_LOOKS
                || started.elapsed() + BETWEEN_LOADS_PAUSE * 4 > deadline
            {
                break out;
            }
            tokio::time::sleep(BETWEEN_LOADS_PAUSE).await;
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
        if let Some(r) = &self.recorder {
            r.note_secrets(&out.secret_texts);
        }
        Ok(out)
    }

    /// The capture of a tab a JavaScript dialog blocks (see [`dialogs::blocked_capture`]).
    async fn blocked(&mut self, target: &TargetId, dialog: &dialogs::Dialog) -> Result<Capture, CdpError> {
        let browser = self.ready().await?;
        let id = self.cdp_id(target);
        // The browser answers for the tab while its renderer waits on the dialog.
        let tabs = browser.page_targets().await?;
        let (url, title) =
            tabs.into_iter().find(|(t, _, _)| *t == id).map(|(_, u, t)| (u, t)).unwrap_or_default();
        let header =
            Header { url: Some(url).filter(|u| !u.is_empty()), title: Some(title).filter(|t| !t.is_empty()) };
        let root = self.roots.get(&id).cloned().unwrap_or_else(|| NativeId::new(format!("{id}:"), "root"));
        Ok(dialogs::blocked_capture(target, header, root, dialog))
    }

    /// The tab, unless a JavaScript dialog blocks it.
    async fn unblocked_page(&mut self, target: &TargetId) -> Result<PageHandle, CdpError> {
        let page = self.page_inner(target).await?;
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

    /// Attaches to the tabs an action opened (popups, which open in the opener's context), so
    /// they can be captured at once, and names them by the agent's ids.
    /// Attaches to the tabs `outcome` says were opened and names them as the agent knows
    /// them. With `follow` (the agent is taken to the last of them), that tab is settled too,
    /// and the outcome is its: the answer is of the page the agent arrives at, which was still
    /// loading (or building itself) when the opener settled.
    async fn adopt_opened(&mut self, outcome: &mut Outcome, follow: bool) {
        let last = outcome.opened.len().checked_sub(1);
        for (i, t) in outcome.opened.iter_mut().enumerate() {
            // A popup that closed again before we attached, or whose page is too busy to
            // answer at once, is simply not adopted now (a later call attaches to it).
            let attached = tokio::time::timeout(ADOPT_WAIT, self.page_inner(t)).await;
            if let Ok(Ok(page)) = &attached {
                self.opened.insert(self.agent_id(&t.0));
                if follow && Some(i) == last {
                    if let Ok(arrived) = nav::arrive(page, &self.settle).await {
                        outcome.settled = arrived.settled;
                        outcome.unsettled = arrived.unsettled;
                        outcome.elapsed += arrived.elapsed;
                        if arrived.dialog.is_some() {
                            outcome.dialog = arrived.dialog;
                        }
                    }
                }
            }
            *t = TargetId(self.agent_id(&t.0));
        }
    }

    async fn targets_inner(&mut self) -> Result<Vec<TargetSummary>, CdpError> {
        // A backend that never opened a tab has none; asking must not start a browser.
        let nothing_yet = self.live.is_none()
            && match self.isolation {
                Isolation::Context => true,
                Isolation::Shared => {
                    matches!(self.host.source(), BrowserSource::Launch(_)) && !self.host.is_running()
                }
            };
        if nothing_yet {
            return Ok(Vec::new());
        }
        let browser = self.ready().await?;
        let tabs: Vec<(String, String, String)> = self
            .own_tabs(&browser)
            .await?
            .into_iter()
            .map(|t| (self.agent_id(&t.id), t.url, t.title))
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

    async fn act_inner(
        &mut self,
        target: &TargetId,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<Outcome, CdpError> {
        let page = self.unblocked_page(target).await?;
        let mut outcome = crate::act::act_with(&page, element, action, &self.settle).await?;
        self.note_dialog(target, &outcome).await;
        self.adopt_opened(&mut outcome, true).await;
        Ok(outcome)
    }

    async fn act_on_target_inner(
        &mut self,
        target: &TargetId,
        action: &TargetAction,
    ) -> Result<Outcome, CdpError> {
        let page = match action {
            TargetAction::AcceptDialog { .. } | TargetAction::DismissDialog => {
                self.page_inner(target).await?
            }
            _ => self.unblocked_page(target).await?,
        };
        let opts = self.settle;
        // A navigation must not wait on a renderer that does not answer: such a tab is
        // replaced first (see `replace.rs`).
        let (page, replaced) = match action {
            TargetAction::Navigate { .. } | TargetAction::Reload => {
                self.responsive_page(target, page).await?
            }
            _ => (page, false),
        };
        let last_url = self.urls.get(&target.0).cloned();
        let mut outcome = match action {
            TargetAction::Navigate { url } => nav::navigate(&page, url, &opts).await?,
            TargetAction::Reload if replaced => match last_url {
                Some(url) => nav::navigate(&page, &url, &opts).await?,
                None => nav::reload(&page, &opts).await?,
            },
            TargetAction::Back => nav::back(&page, &opts).await?,
            TargetAction::Forward => nav::forward(&page, &opts).await?,
            TargetAction::Reload => nav::reload(&page, &opts).await?,
            TargetAction::Press { keys } => crate::act::press_page(&page, keys, &opts).await?,
            TargetAction::Scroll { dx, dy } => crate::act::scroll_page(&page, *dx, *dy, &opts).await?,
            TargetAction::Pointer { x, y, does } => crate::act::pointer(&page, *x, *y, *does, &opts).await?,
            TargetAction::AcceptDialog { text } => {
                dialogs::answer(&page, &dialogs::Answer::Accept(text.clone()), &opts).await?
            }
            TargetAction::DismissDialog => dialogs::answer(&page, &dialogs::Answer::Dismiss, &opts).await?,
        };
        self.note_dialog(target, &outcome).await;
        // A key press on a link takes the agent to the tab it opened; a page that opens tabs
        // as it loads does not (the MCP server's agent, `axsnap-mcp`, follows the same rule).
        let follow = matches!(action, TargetAction::Press { .. });
        self.adopt_opened(&mut outcome, follow).await;
        Ok(outcome)
    }

    async fn open_target_inner(&mut self, url: &str) -> Result<TargetId, CdpError> {
        let browser = self.ready().await?;
        let context = self.live.as_ref().and_then(|l| l.context.clone());
        let page = if self.recorder.is_some() {
            // Recorded from its first request on: kept (and watched) before it navigates.
            let page = tabs::open_in(&browser, context.as_deref(), "about:blank", self.settle.load).await?;
            self.keep_page(page.target_id().to_string(), page.clone());
            if url != "about:blank" {
                if let Err(e) = page.goto_within(url, self.settle.load).await {
                    self.pages.remove(page.target_id());
                    let _ = tabs::close(&browser, page.target_id()).await;
                    return Err(e);
                }
            }
            page
        } else {
            tabs::open_in(&browser, context.as_deref(), url, self.settle.load).await?
        };
        let id = page.target_id().to_string();
        self.pages.insert(id.clone(), page);
        self.close_scratch(&browser);
        self.urls.insert(id.clone(), url.to_string());
        self.opened.insert(id.clone());
        self.active = Some(id.clone());
        Ok(TargetId(id))
    }

    async fn close_target_inner(&mut self, target: &TargetId) -> Result<(), CdpError> {
        let browser = self.ready().await?;
        let id = self.cdp_id(target);
        self.check_owned(&browser, &id, target).await?;
        tabs::close(&browser, &id).await.map_err(|e| match e {
            CdpError::NoSuchTarget(_) => CdpError::NoSuchTarget(target.0.clone()),
            e => e,
        })?;
        self.pages.remove(&id);
        self.roots.remove(&id);
        self.aliases.remove(&target.0);
        self.urls.remove(&target.0);
        self.opened.remove(&target.0);
        if self.active.as_deref() == Some(target.0.as_str()) {
            self.active = None;
        }
        Ok(())
    }

    async fn changed_inner(&mut self, target: &TargetId) -> Result<bool, CdpError> {
        // The browser died or was started again since this backend last used it: everything
        // changed, and the capture that follows restores the tabs and tells the caller (a
        // change signal's error is not something a caller reports).
        let current = self.host.browser_now().and(self.host.generation());
        if self.live.as_ref().is_some_and(|l| Some(l.generation) != current) {
            return Ok(true);
        }
        let page = self.page_inner(target).await?;
        // A blocked page answers no script; its blocked capture is cheap and always current.
        if page.watch().dialog().is_some() {
            return Ok(true);
        }
        Ok(change::changed(&page).await)
    }
}

impl Backend for CdpBackend {
    type Error = CdpError;

    async fn targets(&mut self) -> Result<Vec<TargetSummary>, CdpError> {
        let r = self.targets_inner().await;
        self.told(r)
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
        let r = self.act_inner(target, element, action).await;
        self.told(r)
    }

    async fn act_on_target(&mut self, target: &TargetId, action: &TargetAction) -> Result<Outcome, CdpError> {
        let r = self.act_on_target_inner(target, action).await;
        self.told(r)
    }

    async fn open_target(&mut self, url: &str) -> Result<TargetId, CdpError> {
        let r = self.open_target_inner(url).await;
        self.told(r)
    }

    async fn close_target(&mut self, target: &TargetId) -> Result<(), CdpError> {
        let r = self.close_target_inner(target).await;
        self.told(r)
    }

    fn refusal(error: &CdpError) -> Option<Refusal> {
        match error {
            CdpError::StaleElement { .. } => Some(Refusal::Gone),
            CdpError::Covered { .. } => Some(Refusal::Covered),
            CdpError::NotActionable { kind, .. } => Some(*kind),
            CdpError::UnknownKey(_) => Some(Refusal::BadKey),
            CdpError::NoSuchOption { .. } => Some(Refusal::NoSuchOption),
            _ => None,
        }
    }

    async fn changed(&mut self, target: &TargetId) -> Result<bool, CdpError> {
        // Not `told`: callers treat a failed signal as "changed" and report nothing, so a loss
        // met here is still to be told by the capture that follows.
        self.changed_inner(target).await
    }
}
