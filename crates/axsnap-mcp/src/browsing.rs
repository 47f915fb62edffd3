//! [`Browsing`]: one MCP session's browser work. It owns the session's [`Agent`] (refs,
//! baselines, the current tab), started on the first call that needs a page, and turns each
//! tool call into agent operations and a [`Reply`].
//!
//! Calls of one session run one at a time (the server holds a lock per session); sessions do
//! not wait on each other.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axsnap_cdp::{CdpBackend, CdpError, PageLog};
use axsnap_core::backend::{Backend, ElementAction, PointerAction, TargetAction, TargetSummary};
use axsnap_core::TargetId;
use rmcp::model::JsonObject;
use serde_json::json;

use axsnap_cdp::Handoff;
use axsnap_core::session::RestoreError;
use serde::{Deserialize, Serialize};

use crate::args::Args;
use crate::browsers::Browsers;
use crate::calls::{self, auto_request, Op};
use crate::code::Code;
use crate::failure::{clip, clip_bytes, Failure, Tab};
use crate::options::ServerOptions;
use crate::reply::{Fetched, Happenings, Reply};
use crate::surface::{self, Call, Done};
use crate::tool_name::ToolName;
use axsnap_agent::{Agent, SavedAgent, Step};

mod images;
mod inspect;
mod storage;

/// How long an answer waits for the downloads its action began to end.
const DOWNLOAD_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// What a reply after a browser restart says first.
const LOST: &str = "the browser had stopped and was started again: this session's tabs were reopened at \
                    their last URLs, and their state (form input, cookies, scroll, script state) was lost";

/// A backend that waits as the server's options say: a navigation waits for its load half as
/// long as a capture may take (a page that never loads answers as it stands), and a page that
/// shows nothing yet may take the whole capture budget to show something.
fn settled(mut backend: CdpBackend, options: &ServerOptions) -> CdpBackend {
    let settle = backend.settle_options();
    let load = options.capture_deadline / 2;
    let blank = options.capture_deadline;
    backend.set_settle_options(axsnap_cdp::SettleOptions { load, blank, ..settle });
    backend.set_recording(options.caps.network);
    backend
}

/// One session's browsing written out, for another server to carry on ([`Browsing::save`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedBrowsing {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tabs: Vec<TargetId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    released: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent: Option<SavedAgent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    backend: Option<Handoff>,
    /// `--storage-state` is still to be loaded into the context.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    state_pending: bool,
}

/// One session's browser state.
pub struct Browsing {
    options: Arc<ServerOptions>,
    browsers: Browsers,
    isolated: bool,
    /// Kept in the state store: the context outlives this server, and dropping this copy
    /// leaves it to the other servers.
    stored: bool,
    agent: Option<Agent<CdpBackend>>,
    logs: HashMap<TargetId, PageLog>,
    /// This session's tabs in the order they opened: `tabs` numbers them so, and shows no
    /// other tab the browser has (its start page, another client's tabs).
    tabs: Vec<TargetId>,
    last_used: Instant,
    /// Why the browser context went, when it did (`close`, idle): said on the next call.
    released: Option<String>,
    /// The context was made since `--storage-state` was last loaded into one.
    state_pending: bool,
}

impl Browsing {
    /// A session's browsing; nothing starts until a call needs a page. `isolated`: a browser
    /// context of its own (HTTP sessions) rather than the browser's default one (stdio).
    /// `stored`: kept in the state store (its context outlives this server).
    pub fn new(options: Arc<ServerOptions>, browsers: Browsers, isolated: bool, stored: bool) -> Browsing {
        Browsing {
            options,
            browsers,
            isolated,
            stored,
            agent: None,
            logs: HashMap::new(),
            tabs: Vec::new(),
            last_used: Instant::now(),
            released: None,
            state_pending: false,
        }
    }

    /// Everything another server needs to carry this session on: refs, baselines, tabs and
    /// the browser context's id. (Page logs are not kept: they are the connection's.)
    pub fn save(&self) -> SavedBrowsing {
        let now = Instant::now();
        SavedBrowsing {
            tabs: self.tabs.clone(),
            released: self.released.clone(),
            agent: self.agent.as_ref().map(|a| a.save(now)),
            backend: self.agent.as_ref().map(|a| a.backend_ref().handoff()),
            state_pending: self.state_pending,
        }
    }

    /// A session's browsing carried on from `saved` (written by this server or another).
    pub fn resume(
        options: Arc<ServerOptions>,
        browsers: Browsers,
        saved: SavedBrowsing,
    ) -> Result<Browsing, RestoreError> {
        let agent = match (saved.agent, saved.backend) {
            (Some(agent), Some(handoff)) => {
                let backend = settled(browsers.resume(true, handoff), &options);
                Some(Agent::resume(backend, agent, surface::agent_options(&options), Instant::now())?)
            }
            _ => None,
        };
        Ok(Browsing {
            options,
            browsers,
            isolated: true,
            stored: true,
            agent,
            logs: HashMap::new(),
            tabs: saved.tabs,
            last_used: Instant::now(),
            released: saved.released,
            state_pending: saved.state_pending,
        })
    }

    /// Lets go of this copy of a session another server carried on since: its context goes on
    /// there when that server reaches the same browser, and is released here otherwise.
    pub async fn let_go(&mut self) {
        if self.browsers.reachable_elsewhere() {
            self.disown();
        } else {
            self.release("the session moved to another server").await;
        }
    }

    /// Lets go of this copy without touching its context: another copy carries on with it.
    pub fn disown(&mut self) {
        self.logs.clear();
        self.tabs.clear();
        if let Some(mut backend) = self.agent.take().map(Agent::into_backend) {
            backend.disown();
        }
    }

    /// When the session last made a call.
    pub fn last_used(&self) -> Instant {
        self.last_used
    }

    /// Whether a browser context is held.
    pub fn is_open(&self) -> bool {
        self.agent.is_some()
    }

    /// Releases the session's browser context (tabs, cookies, storage), saying `why` on the
    /// next call.
    pub async fn release(&mut self, why: impl Into<String>) {
        self.logs.clear();
        self.tabs.clear();
        if let Some(agent) = self.agent.take() {
            self.browsers.release(agent.into_backend()).await;
            self.released = Some(why.into());
        }
    }

    /// Takes the backend out for a release that cannot wait (the session's owner is gone).
    pub fn take_backend(&mut self) -> Option<CdpBackend> {
        self.logs.clear();
        self.tabs.clear();
        self.agent.take().map(Agent::into_backend)
    }

    /// Runs one tool call. A call that finds the browser was started again since the last
    /// one (it died while this session was idle) is run again on the reopened tabs when it
    /// only looks or navigates, and its answer says the pages' state was lost; an action on
    /// an element is not repeated blindly on a page that lost its state.
    pub async fn call(&mut self, tool: ToolName, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        self.last_used = Instant::now();
        let mut result = self.dispatch(tool, args).await;
        if matches!(&result, Err(Failure::Tool { code: Code::BrowserRestarted, .. })) && tool.repeatable() {
            result = self.dispatch(tool, args).await;
            match &mut result {
                Ok(reply) => {
                    reply.text = format!("# {LOST}\n{}", reply.text);
                    reply.structured.insert("browser_restarted".into(), json!(true));
                }
                Err(Failure::Tool { message, .. }) => *message = format!("{LOST}; then: {message}"),
                Err(_) => {}
            }
        }
        self.last_used = Instant::now();
        result
    }

    async fn dispatch(&mut self, tool: ToolName, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        match Call::read(tool, args, &[], &self.options)? {
            // An action may open tabs, download, log errors or lead to a refused URL: this
            // surface's own watch goes around it.
            Some(Call::Act(op)) => return self.run(op).await,
            Some(call) => {
                let options = self.options.clone();
                let agent = self.agent_with_page()?;
                return Ok(match surface::run(agent, call, &Tab, &options).await? {
                    Done::Found(query, hits) => calls::find_reply(&query, &hits),
                    Done::Step(step, notes) => {
                        Reply::step(&step, &Happenings { notes, ..Happenings::default() })
                    }
                    // Only actions close tabs, and they do not come this way.
                    Done::Closed(_) => {
                        Reply::message(tool.as_str(), "the action closed this tab; call tabs for the others")
                    }
                });
            }
            None => {}
        }
        match tool {
            ToolName::Navigate => {
                let a = Args::new(tool.as_str(), args, &["url"])?;
                let url = a.str("url")?.trim().to_string();
                self.options.urls.check(&url)?;
                if self.agent.as_ref().and_then(|a| a.target()).is_none() {
                    self.run(Op::Open(url)).await
                } else {
                    self.run(Op::Target(TargetAction::Navigate { url })).await
                }
            }
            ToolName::Back | ToolName::Forward | ToolName::Reload => {
                let action = match tool {
                    ToolName::Back => TargetAction::Back,
                    ToolName::Forward => TargetAction::Forward,
                    _ => TargetAction::Reload,
                };
                Args::new(tool.as_str(), args, &[])?;
                self.run(Op::Target(action)).await
            }
            ToolName::Tabs => self.tabs(args).await,
            ToolName::Drag => {
                let a = Args::new(tool.as_str(), args, &["from_ref", "to_ref"])?;
                let (from, to) = (a.str("from_ref")?.to_string(), a.str("to_ref")?);
                // The drop target is named by its ref now: a stale one is this call's error.
                let to = self.agent_with_page()?.resolve(to)?;
                self.run(Op::Element { r: from, action: ElementAction::DragTo { to } }).await
            }
            ToolName::Upload => {
                let a = Args::new(tool.as_str(), args, &["ref", "paths"])?;
                let r = a.str("ref")?.to_string();
                let paths = self.options.upload_root.check(&a.strings("paths")?)?;
                self.run(Op::Element { r, action: ElementAction::SetFiles { paths } }).await
            }
            ToolName::Dialog => {
                let a = Args::new(tool.as_str(), args, &["accept", "prompt_text"])?;
                let action = if a.bool("accept")? {
                    TargetAction::AcceptDialog { text: a.opt_str("prompt_text")?.map(str::to_string) }
                } else {
                    TargetAction::DismissDialog
                };
                self.run(Op::Target(action)).await
            }
            ToolName::Screenshot => self.screenshot(args).await,
            ToolName::Close => {
                Args::new(tool.as_str(), args, &[])?;
                let had = self.agent.is_some();
                self.release("this session closed its browser context").await;
                // A close is not a reason to greet the next call with a warning.
                self.released = None;
                Ok(Reply::message(
                    "closed",
                    if had {
                        "closed this session's browser context: its tabs, cookies and storage are gone; the next \
                         navigate starts afresh"
                    } else {
                        "nothing to close: this session has no browser context open"
                    },
                ))
            }
            ToolName::Evaluate if self.options.allow_eval => self.evaluate(args).await,
            ToolName::Mouse if self.options.caps.vision => {
                let a = Args::new(tool.as_str(), args, &["x", "y", "action", "dx", "dy"])?;
                let coord = |f| -> Result<f64, Failure> {
                    a.opt_number(f, 0.0, 100_000.0)?.ok_or_else(|| {
                        Failure::tool(
                            Code::BadArgument,
                            format!("{f} is required: viewport CSS pixels from its top left"),
                        )
                    })
                };
                let (x, y) = (coord("x")?, coord("y")?);
                let does = match a.choice("action", &["click", "move", "down", "up", "wheel"])? {
                    "click" => PointerAction::Click,
                    "move" => PointerAction::Move,
                    "down" => PointerAction::Down,
                    "up" => PointerAction::Up,
                    _ => PointerAction::Wheel {
                        dx: a.opt_number("dx", -100_000.0, 100_000.0)?.unwrap_or(0.0),
                        dy: a.opt_number("dy", -100_000.0, 100_000.0)?.unwrap_or(0.0),
                    },
                };
                self.run(Op::Target(TargetAction::Pointer { x, y, does })).await
            }
            ToolName::Pdf if self.options.caps.pdf => self.pdf(args).await,
            ToolName::NetworkRequests if self.options.caps.network => self.network_requests(args).await,
            ToolName::Console if self.options.caps.network => self.console(args).await,
            ToolName::Storage if self.options.caps.storage => self.storage(args).await,
            ToolName::Cookies if self.options.caps.storage => self.cookies(args).await,
            // A tool this run does not offer (a group not on, no `--desktop`), or a
            // desktop tool without its window: as unknown as a name the server never had.
            _ => Err(crate::failure::unknown_tool(tool.as_str())),
        }
    }

    /// The agent, started on first use; a released session says why it starts afresh.
    async fn agent(&mut self) -> Result<&mut Agent<CdpBackend>, Failure> {
        let (browsers, options) = (&self.browsers, &self.options);
        let (isolated, stored) = (self.isolated, self.stored);
        let start = async || Ok(settled(browsers.backend(isolated, stored), options));
        if surface::started(&mut self.agent, options, start).await?.1 {
            self.state_pending = options.storage_state.is_some();
        }
        self.load_start_state().await?;
        self.agent
            .as_mut()
            .ok_or_else(|| Failure::tool(Code::BrowserUnavailable, "the browser could not be started"))
    }

    /// The agent of a session that has a page open; otherwise an error saying how to get one.
    fn agent_with_page(&mut self) -> Result<&mut Agent<CdpBackend>, Failure> {
        if let Some(why) = self.released.take() {
            return Err(Failure::tool(
                Code::NoPage,
                format!("{why}, so no page is open; call navigate with a URL"),
            ));
        }
        match self.agent.as_mut() {
            Some(a) if a.target().is_some() => Ok(a),
            _ => Err(Failure::tool(
                Code::NoPage,
                "no page is open in this session; call navigate with a URL first",
            )),
        }
    }

    /// Adds a tab to this session's list (once).
    fn note_tab(&mut self, t: &TargetId) {
        if !self.tabs.contains(t) {
            self.tabs.push(t.clone());
        }
    }

    /// This session's tabs that are still open, in the order they opened.
    async fn session_tabs(&mut self) -> Result<Vec<TargetSummary>, Failure> {
        let agent = self.agent_with_page()?;
        let all = agent.backend().targets().await?;
        self.tabs.retain(|t| all.iter().any(|s| &s.id == t));
        Ok(self.tabs.iter().filter_map(|t| all.iter().find(|s| &s.id == t).cloned()).collect())
    }

    /// Starts listening to a tab's console and downloads, once per page. A tab that cannot be reached
    /// goes unwatched, but news of the browser's loss is passed on: it is the agent's to hear.
    async fn watch_tab(&mut self, target: &TargetId) -> Result<(), Failure> {
        let Some(agent) = self.agent.as_mut() else { return Ok(()) };
        match agent.backend().page(target).await {
            Ok(page) => {
                // A tab replaced under the same id (its renderer was blocked) is a new session.
                if self.logs.get(target).is_none_or(|l| l.session_id() != page.session_id()) {
                    self.logs.insert(target.clone(), PageLog::start(&page));
                }
                Ok(())
            }
            Err(e @ (CdpError::BrowserRestarted { .. } | CdpError::Disconnected)) => Err(e.into()),
            Err(_) => Ok(()),
        }
    }

    fn log_counts(&self, target: Option<&TargetId>) -> (u64, u64) {
        target.and_then(|t| self.logs.get(t)).map(PageLog::counts).unwrap_or((0, 0))
    }

    /// Runs an operation and answers with its step and what else it caused.
    async fn run(&mut self, op: Op) -> Result<Reply, Failure> {
        if !matches!(op, Op::Open(_)) {
            self.agent_with_page()?;
        } else {
            self.released = None;
        }
        let before = self.agent.as_ref().and_then(|a| a.target().cloned());
        if let Some(t) = &before {
            self.watch_tab(t).await?;
        }
        let counts = self.log_counts(before.as_ref());
        let agent = self.agent().await?;
        let ended_before = agent.backend_ref().downloads().map(axsnap_cdp::Downloads::ended);
        let step = surface::perform(agent, op).await;
        let step = match step {
            Ok(s) => s,
            Err(axsnap_agent::AgentError::Backend(CdpError::Disconnected)) => {
                // The backend starts a new browser on the next call and reopens the tabs: the
                // refs carry over structurally, the pages' state does not.
                return Err(Failure::from(CdpError::Disconnected));
            }
            Err(e) => return Err(e.into()),
        };
        if let Some(t) = self.agent.as_ref().and_then(|a| a.target().cloned()) {
            self.note_tab(&t);
        }
        for t in step.outcome.iter().flat_map(|o| o.opened.iter()) {
            self.note_tab(t);
        }
        self.guard_destination(&step).await?;
        let mut happened = self.happenings(before.as_ref(), counts, &step).await;
        if let Some(seen) = ended_before {
            self.downloaded(&mut happened, seen).await;
        }
        Ok(Reply::step(&step, &happened))
    }

    /// After an action: a page that led to a refused URL (a link to a blocked origin) is taken
    /// back, and the action answers with the refusal. A navigation the network failed (the
    /// browser's own `chrome-error:` page) is taken back too, and named by the browser's error.
    async fn guard_destination(&mut self, step: &Step) -> Result<(), Failure> {
        let Some(url) = step.response.snapshot.header.url.clone() else { return Ok(()) };
        if url.starts_with("chrome-error:") {
            let failed = step.outcome.as_ref().and_then(|o| o.failed_navigation.clone());
            self.go_back().await;
            let text = match failed {
                Some(f) => format!(
                    "the navigation the action started, to {}, failed: {}; the browser showed its error page, so it went back",
                    clip(&f.url),
                    f.error
                ),
                None => "the action led to the browser's error page (the page could not be loaded); went back"
                    .to_string(),
            };
            return Err(Failure::tool(Code::NavigationFailed, text));
        }
        let Err(refused) = self.options.urls.check(&url) else { return Ok(()) };
        self.go_back().await;
        Err(Failure::tool(
            Code::UrlRefused,
            format!("the action led to {}, which is refused: {refused}; went back", clip(&url)),
        ))
    }

    /// Takes the current tab back one page, or to `about:blank` when it has no page to go back to.
    async fn go_back(&mut self) {
        if let Some(agent) = self.agent.as_mut() {
            let back = agent.act_on_target(&TargetAction::Back).await;
            if back.is_err() {
                let _ = agent.act_on_target(&TargetAction::Navigate { url: "about:blank".into() }).await;
            }
        }
    }

    /// With `--output-dir`: the downloads the action began, once they ended (waiting at most
    /// [`DOWNLOAD_WAIT`] for them), instead of "refused".
    async fn downloaded(&mut self, h: &mut Happenings, seen: u64) {
        let Some(downloads) = self.agent.as_ref().and_then(|a| a.backend_ref().downloads()).cloned() else {
            return;
        };
        let begun = h.downloads.take().map_or(0, |(n, _)| n);
        let until = Instant::now() + DOWNLOAD_WAIT;
        while downloads.ended() < seen + begun && Instant::now() < until {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        h.saved = downloads
            .ended_after(seen)
            .into_iter()
            .map(|d| match d {
                axsnap_cdp::Download::Saved { name, size, path } => Fetched::Saved { name, size, path },
                axsnap_cdp::Download::Failed { name } => Fetched::Failed { name },
            })
            .collect();
        h.downloading = begun.saturating_sub(h.saved.len() as u64);
    }

    /// New tabs, console errors and downloads since `counts` was read on `before`.
    async fn happenings(&mut self, before: Option<&TargetId>, counts: (u64, u64), step: &Step) -> Happenings {
        let mut h = Happenings::default();
        if let Some(t) = before {
            if let Some(log) = self.logs.get(t) {
                let st = log.state();
                if st.errors > counts.0 {
                    h.console_errors =
                        Some((st.errors - counts.0, st.first_error_after(counts.0).map(str::to_string)));
                }
                if st.downloads > counts.1 {
                    h.downloads = Some((
                        st.downloads - counts.1,
                        st.first_download_after(counts.1).map(str::to_string),
                    ));
                }
            }
        }
        let opened = step.outcome.as_ref().map(|o| o.opened.clone()).unwrap_or_default();
        h.switched = opened.last().is_some_and(|t| self.agent.as_ref().and_then(|a| a.target()) == Some(t));
        if !opened.is_empty() {
            if let Ok(tabs) = self.session_tabs().await {
                for t in &opened {
                    if let Some(i) = tabs.iter().position(|s| &s.id == t) {
                        h.new_tabs.push((i, tabs[i].header.url.clone().unwrap_or_default()));
                    }
                }
            }
            for t in &opened {
                // After the action: a loss met here is told by the next call.
                let _ = self.watch_tab(t).await;
            }
        }
        h
    }

    async fn tabs(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Tabs.as_str(), args, &["action", "index", "url"])?;
        let action = a.choice("action", &["list", "new", "select", "close"])?;
        let index = a.opt_int("index", 0, 10_000)?.map(|i| i as usize);
        let url = a.opt_str("url")?.map(str::to_string);
        match action {
            "new" => {
                let url = url.unwrap_or_else(|| "about:blank".into());
                self.options.urls.check(&url)?;
                self.run(Op::Open(url)).await
            }
            "list" => {
                let tabs = self.session_tabs().await?;
                let current = self.agent.as_ref().and_then(|a| a.target().cloned());
                Ok(tab_list(&tabs, current.as_ref(), None))
            }
            "select" => {
                let Some(i) = index else {
                    return Err(crate::args::ArgError::Missing {
                        tool: ToolName::Tabs.as_str(),
                        field: "index",
                        expected: "a tab index from tabs list".into(),
                    }
                    .into());
                };
                let tabs = self.session_tabs().await?;
                let tab = tabs.get(i).ok_or_else(|| no_tab(i, tabs.len()))?;
                let id = tab.id.clone();
                let agent = self.agent_with_page()?;
                agent.backend().set_active(&id).await?;
                agent.set_target(id.clone());
                self.watch_tab(&id).await?;
                let request = auto_request(&self.options);
                let agent = self.agent_with_page()?;
                let step = agent.snapshot(&request).await?;
                let mut reply = Reply::step(
                    &step,
                    &Happenings { notes: vec![format!("tab {i} is current")], ..Happenings::default() },
                );
                reply.structured.insert("tab".into(), json!(i));
                Ok(reply)
            }
            _ => {
                let tabs = self.session_tabs().await?;
                let agent = self.agent_with_page()?;
                let current = agent.target().cloned();
                let i = match index {
                    Some(i) => i,
                    None => tabs.iter().position(|t| Some(&t.id) == current.as_ref()).unwrap_or(0),
                };
                let tab = tabs.get(i).ok_or_else(|| no_tab(i, tabs.len()))?;
                let id = tab.id.clone();
                agent.backend().close_target(&id).await?;
                agent.forget_target(&id);
                self.logs.remove(&id);
                let Some(agent) = self.agent.as_mut() else {
                    return Ok(Reply::message("tabs", format!("closed tab {i}")));
                };
                let all = agent.backend().targets().await?;
                self.tabs.retain(|t| t != &id && all.iter().any(|s| &s.id == t));
                let rest: Vec<TargetSummary> =
                    self.tabs.iter().filter_map(|t| all.iter().find(|s| &s.id == t).cloned()).collect();
                let Some(agent) = self.agent.as_mut() else {
                    return Ok(Reply::message("tabs", format!("closed tab {i}")));
                };
                if agent.target().is_none() {
                    if let Some(first) = rest.first() {
                        agent.set_target(first.id.clone());
                        let _ = agent.backend().set_active(&first.id).await;
                    }
                }
                let current = agent.target().cloned();
                Ok(tab_list(&rest, current.as_ref(), Some(format!("closed tab {i}"))))
            }
        }
    }

    async fn evaluate(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Evaluate.as_str(), args, &["expression"])?;
        let expression = a.str("expression")?.to_string();
        let agent = self.agent_with_page()?;
        let target = agent.target().cloned().ok_or(axsnap_agent::AgentError::<CdpError>::NoTarget)?;
        let page = agent.backend().page(&target).await?;
        let value = page.eval(&expression).await?;
        let text = clip_bytes(&value.to_string());
        let mut reply = Reply::message("evaluate", text);
        reply.structured.insert("value".into(), value);
        Ok(reply)
    }
}

impl Drop for Browsing {
    fn drop(&mut self) {
        // The session ended (disconnect, DELETE, keep-alive timeout): release its context.
        // A stored session is the service's: this copy goes, the session does not.
        if self.stored {
            self.disown();
            return;
        }
        let Some(backend) = self.take_backend() else { return };
        let browsers = self.browsers.clone();
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move { browsers.release(backend).await });
        }
    }
}

fn no_tab(i: usize, n: usize) -> Failure {
    Failure::tool(
        Code::TabGone,
        format!("there is no tab {i}: this session has {n} tab(s), numbered from 0; list them with tabs"),
    )
}

fn tab_list(
    tabs: &[axsnap_core::backend::TargetSummary],
    current: Option<&TargetId>,
    lead: Option<String>,
) -> Reply {
    let mut text = String::new();
    if let Some(l) = &lead {
        text.push_str(&format!("# {l}\n"));
    }
    let mut list = Vec::new();
    for (i, t) in tabs.iter().enumerate() {
        let is_current = Some(&t.id) == current;
        let title = t.header.title.as_deref().unwrap_or("");
        let url = t.header.url.as_deref().unwrap_or("about:blank");
        text.push_str(&format!(
            "tab {i}: {:?} {}{}\n",
            clip(title),
            clip(url),
            if is_current { " (current)" } else { "" }
        ));
        list.push(json!({"index": i, "title": title, "url": url, "current": is_current}));
    }
    if tabs.is_empty() {
        text.push_str("no tabs are open; call navigate or tabs new\n");
    }
    let mut reply = Reply::message("tabs", text);
    reply.structured.remove("message");
    reply.structured.insert("tabs".into(), serde_json::Value::Array(list));
    reply
}
