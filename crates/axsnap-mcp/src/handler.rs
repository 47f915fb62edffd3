//! [`AxsnapServer`]: the MCP handler. It lists the tools, finds the session a call belongs
//! to, runs the call on that session's [`Browsing`] (one at a time per session), or with
//! `--desktop` the desktop's calls on its [`Desktop`], and turns replies and failures into MCP
//! results. A call stops when the client cancels it; one given a progress token is told of
//! while it runs ([`crate::progress`]).
//!
//! Where a session lives depends on the protocol revision:
//!
//! - stdio: the process is one session, whatever the revision;
//! - HTTP at 2025-11-25 and before: one session per protocol session (`Mcp-Session-Id`);
//! - HTTP at 2026-07-28 (stateless): a session per handle ([`crate::sessions`]) that the
//!   client passes back as the `session` argument.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use axsnap_core::progress;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, DiscoverResult,
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};

use crate::browsers::Browsers;
use crate::browsing::Browsing;
use crate::code::Code;
use crate::desktop::{self, Desktop};
use crate::failure::{self, Failure};
use crate::options::ServerOptions;
use crate::progress::Ticker;
use crate::reply::Reply;
use crate::sessions::{Handles, Slot, SESSION_ARG};
use crate::store::{Store, Token};
use crate::tool_name::ToolName;
use crate::tools;

mod stored;

use stored::Held;

/// What the server tells a client about itself on `initialize` and `server/discover`.
const INSTRUCTIONS: &str =
    "Browse with navigate, then act on elements by their refs (e12) from the answers. \
Every action answers with what changed since your last view (a diff), so you rarely need snapshot. \
Use find to locate elements on big pages. \
If an answer gives a session, pass it as session on every later call.";

/// What the instructions add with `--desktop`.
const DESKTOP_INSTRUCTIONS: &str = " Desktop apps: desktop_windows lists windows, desktop_launch starts an \
app; pass window (w3) to snapshot, find and actions to work in one, and use its refs with the same window.";

/// How long a client may cache `tools/list` and `server/discover` (2026-07-28): both are fixed
/// for a server's life and the same for every client (public).
const LIST_TTL_MS: u64 = 60 * 60 * 1000;

/// Most time closing the launched browser may take when the server stops.
const SHUTDOWN_WITHIN: Duration = Duration::from_secs(6);

/// The first protocol revision without protocol sessions.
const STATELESS: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// The MCP protocol revisions the server speaks, oldest first (`2024-11-05`, …): every
/// revision rmcp knows up to the first stateless one, as the server answers `initialize` and
/// `server/discover` with. For `axsnap doctor` and anyone else who asks.
pub fn protocol_versions() -> Vec<&'static str> {
    ProtocolVersion::known_up_to(&STATELESS).iter().map(ProtocolVersion::as_str).collect()
}

/// What every session of one server shares: options, the browser, the sessions.
#[derive(Clone)]
pub struct Shared {
    options: Arc<ServerOptions>,
    browsers: Browsers,
    tools: Arc<Vec<Tool>>,
    /// Sessions tied to a protocol session (or the process), for the idle reaper.
    sessions: Arc<Mutex<Vec<Weak<Slot>>>>,
    /// Sessions named by a handle (2026-07-28 over HTTP): this server's copies of them when
    /// a state store is shared with other servers.
    handles: Handles,
    /// The state store shared with other servers (`--state`).
    store: Option<Store>,
}

impl Shared {
    /// Shared state for a server with `options`; starts the idle reaper on the current runtime.
    /// `http`: served over HTTP, where a stateless client names its session by a handle.
    ///
    /// With a `store`, handle sessions are shared with the other servers on it: their state is
    /// written there after every call, and any of them can carry a session on.
    pub fn new(options: ServerOptions, http: bool, store: Option<Store>) -> Shared {
        axsnap_core::tokens::warm_in_background();
        let browsers = Browsers::new(options.browser.clone());
        let mut tools = tools::list(options.allow_eval, options.desktop, http, options.caps);
        if options.structured_content {
            crate::output_schema::declare(&mut tools, http);
        }
        let tools = Arc::new(tools);
        let shared = Shared {
            options: Arc::new(options),
            browsers,
            tools,
            sessions: Arc::new(Mutex::new(Vec::new())),
            handles: Handles::default(),
            store,
        };
        let reaper = shared.clone();
        tokio::spawn(async move { reaper.reap_idle().await });
        shared
    }

    /// With a persistent profile (`--user-data-dir`), starts the browser now: a profile another
    /// process holds is refused when the server starts, not on a session's first call.
    pub async fn claim_profile(&self) -> Result<(), axsnap_cdp::CdpError> {
        if self.options.browser.user_data_dir.is_some() {
            self.browsers.start().await?;
        }
        Ok(())
    }

    /// A handler for a new connection. `http`: sessions get a browser context of their own,
    /// and a 2026-07-28 call is routed by its `session` handle.
    pub fn session(&self, http: bool) -> AxsnapServer {
        AxsnapServer { shared: self.clone(), http, own: Arc::new(OnceLock::new()) }
    }

    /// A new session's state; nothing starts yet.
    /// `stored`: a handle session kept in the state store.
    fn slot(&self, isolated: bool, stored: bool) -> Slot {
        self.slot_with(Browsing::new(self.options.clone(), self.browsers.clone(), isolated, stored))
    }

    /// A session's state around `browsing`.
    fn slot_with(&self, browsing: Browsing) -> Slot {
        let desktop = self.options.desktop.then(|| Desktop::new(self.options.clone()));
        Slot::new(browsing, desktop)
    }

    /// Stops serving sessions: releases every session's browser context, waiting at most
    /// `within` for calls still running, then closes a launched browser (at most
    /// `SHUTDOWN_WITHIN`: a browser start in flight, a pool retrying, must not keep a
    /// stopping server past a supervisor's patience).
    pub async fn stop(&self, within: Duration) {
        self.release_all(within).await;
        if tokio::time::timeout(SHUTDOWN_WITHIN, self.browsers.shutdown()).await.is_err() {
            tracing::warn!("the browser did not close within {SHUTDOWN_WITHIN:?}; it goes with this process");
        }
    }

    /// Ends the handle session `handle`, if open, and releases its browser context.
    async fn end_session(&self, handle: &str) {
        if let Some(slot) = self.handles.remove(handle) {
            slot.browsing.lock().await.release("the session ended").await;
        }
        if let Some(store) = &self.store {
            let removed = match Token::new() {
                Ok(token) => store.remove(handle, &token).await,
                Err(e) => Err(e),
            };
            if let Err(e) = removed {
                tracing::warn!("session {handle}: removing it from the store: {e}");
            }
        }
    }

    /// Releases every session's browser context, waiting at most `within` for calls still
    /// running.
    async fn release_all(&self, within: Duration) {
        let slots: Vec<Arc<Slot>> = {
            let list = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
            list.iter().filter_map(Weak::upgrade).collect()
        };
        // With a store, handle sessions are the service's, not this server's: they carry on
        // on another server (in the same context when it reaches this browser).
        let stored = self.store.is_some();
        let mut work: Vec<(Arc<Slot>, bool)> = slots.into_iter().map(|s| (s, false)).collect();
        work.extend(self.handles.take_all().into_iter().map(|s| (s, stored)));
        let release = futures::future::join_all(work.iter().map(|(s, let_go)| async move {
            let mut browsing = s.browsing.lock().await;
            match let_go {
                true => browsing.let_go().await,
                false => browsing.release("the server stopped").await,
            }
        }));
        if tokio::time::timeout(within, release).await.is_err() {
            tracing::warn!(
                "some sessions were still busy when the server stopped; their contexts go with the browser"
            );
        }
    }

    /// Every so often, releases the browser context of sessions idle past the timeout, and
    /// ends idle handle sessions. A busy session (a call running) is never idle.
    async fn reap_idle(self) {
        let timeout = self.options.idle_timeout;
        let every = (timeout / 4).clamp(Duration::from_millis(200), Duration::from_secs(30));
        let mins = timeout.as_secs_f64() / 60.0;
        loop {
            tokio::time::sleep(every).await;
            if let Some(store) = &self.store {
                if let Err(e) = self.reap_stored(store).await {
                    tracing::warn!("ending idle sessions in the store: {e}");
                }
            }
            for (handle, slot) in self.handles.take_idle(timeout) {
                let mut browsing = slot.browsing.lock().await;
                if self.store.is_some() {
                    // Idle here, and not ended by the store's reaper: served elsewhere since.
                    browsing.let_go().await;
                    continue;
                }
                tracing::debug!("session {handle} idle for over {mins:.0} min: ended");
                browsing.release("the session ended").await;
            }
            let live: Vec<Arc<Slot>> = {
                let mut list = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
                list.retain(|w| w.strong_count() > 0);
                list.iter().filter_map(Weak::upgrade).collect()
            };
            for slot in live {
                let Ok(mut browsing) = slot.browsing.try_lock() else { continue };
                if browsing.is_open()
                    && Instant::now().saturating_duration_since(browsing.last_used()) >= timeout
                {
                    browsing
                        .release(format!(
                            "this session was idle for over {mins:.0} min, so its browser context was released \
                             (tabs, cookies and refs are gone)"
                        ))
                        .await;
                }
            }
        }
    }
}

/// The MCP handler of one connection: a protocol session, the stdio process, or (2026-07-28
/// over HTTP) one request.
#[derive(Clone)]
pub struct AxsnapServer {
    shared: Shared,
    /// Served over HTTP: contexts of their own, and handles for stateless calls.
    http: bool,
    /// The connection's own session, made on its first call.
    own: Arc<OnceLock<Arc<Slot>>>,
}

/// Which session a call runs in.
enum Target {
    /// The connection's own session.
    Own(Arc<Slot>),
    /// A handle session; `opened`: this call opened it; `held`: its lock in the state store.
    Handle { handle: String, slot: Arc<Slot>, opened: bool, held: Option<Held> },
}

impl AxsnapServer {
    /// A reply or failure as this server sends it ([`to_result`] with its options).
    fn to_result(&self, result: Result<Reply, Failure>) -> Result<CallToolResult, ErrorData> {
        to_result(result, self.shared.options.structured_content)
    }

    /// Runs one call outside MCP (tests, the CLI's demo) in the connection's own session: the
    /// same path `tools/call` takes.
    pub async fn call(&self, name: &str, arguments: Option<JsonObject>) -> Result<CallToolResult, ErrorData> {
        let Some(tool) = ToolName::parse(name) else {
            return self.to_result(Err(failure::unknown_tool(name)));
        };
        self.to_result(self.run(&self.own_slot(), tool, arguments.as_ref()).await)
    }

    /// The connection's own session, made on first use.
    fn own_slot(&self) -> Arc<Slot> {
        self.own
            .get_or_init(|| {
                let slot = Arc::new(self.shared.slot(self.http, false));
                let mut list = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
                list.retain(|w| w.strong_count() > 0);
                list.push(Arc::downgrade(&slot));
                slot
            })
            .clone()
    }

    /// The session a call belongs to. `stateless`: the request came at 2026-07-28 or later.
    async fn target(&self, stateless: bool, handle: Option<&Value>) -> Result<Target, Failure> {
        if !(self.http && stateless) {
            // stdio is one session, and a protocol session is its own: a handle is not needed,
            // and one a client sends anyway changes nothing.
            return Ok(Target::Own(self.own_slot()));
        }
        match handle {
            None | Some(Value::Null) => {
                let slot = Arc::new(self.shared.slot(true, self.shared.store.is_some()));
                let handle = self.shared.handles.open(slot.clone())?;
                Ok(Target::Handle { handle, slot, opened: true, held: None })
            }
            Some(Value::String(h)) => match &self.shared.store {
                Some(store) => {
                    let (slot, held) = self.shared.take_stored(store, h).await?;
                    Ok(Target::Handle { handle: h.clone(), slot, opened: false, held: Some(held) })
                }
                None => {
                    let slot = self.shared.handles.get(h, self.shared.options.idle_timeout)?;
                    Ok(Target::Handle { handle: h.clone(), slot, opened: false, held: None })
                }
            },
            Some(_) => Err(Failure::tool(
                Code::BadArgument,
                "session must be the string an earlier answer gave on its first line (session: …)",
            )),
        }
    }

    /// Runs one call in its session: the session's desktop or its browser.
    async fn run(
        &self,
        slot: &Slot,
        name: ToolName,
        arguments: Option<&JsonObject>,
    ) -> Result<Reply, Failure> {
        slot.touch();
        let result = async {
            let queued = || "waiting for this session's previous call to finish".to_string();
            let running = || format!("running {}", name.as_str());
            if let Some(desktop) = &slot.desktop {
                if let Some(route) = desktop::route(name, arguments)? {
                    progress::report(queued);
                    let mut desktop = desktop.lock().await;
                    slot.check_open()?;
                    progress::report(running);
                    return desktop.call(route, name, arguments).await;
                }
            }
            progress::report(queued);
            let mut browsing = slot.browsing.lock().await;
            // A call that waited behind `close`, or met the idle reaper, finds the session gone.
            slot.check_open()?;
            progress::report(running);
            browsing.call(name, arguments).await
        }
        .await;
        slot.touch();
        result
    }

    /// Runs a call in its target session, and ends a handle session that `close` closed.
    async fn run_in(
        &self,
        target: &mut Target,
        name: ToolName,
        arguments: Option<&JsonObject>,
    ) -> Result<Reply, Failure> {
        match target {
            Target::Own(slot) => self.run(slot, name, arguments).await,
            Target::Handle { handle, slot, opened, held } => {
                let closing = name == ToolName::Close && arguments.is_none_or(|a| a.is_empty());
                let mut result = if closing {
                    // Ended before the close runs, under the session's lock: a call queued
                    // behind it finds the session gone rather than a fresh context.
                    let mut browsing = slot.browsing.lock().await;
                    self.shared.handles.remove(handle);
                    browsing.call(name, arguments).await
                } else {
                    self.run(slot, name, arguments).await
                };
                // A failed first call ends the session it opened, so a bad first call leaves
                // nothing behind.
                let ended = (*opened && result.is_err()) || closing;
                if *opened && result.is_err() {
                    self.shared.end_session(handle).await;
                }
                if let Some(held) = held.take() {
                    self.shared.put_stored(held, ended).await;
                } else if let (Some(store), true, false) = (&self.shared.store, *opened, ended) {
                    if let Err(f) = self.shared.create_stored(store, handle, slot).await {
                        self.shared.end_session(handle).await;
                        result = Err(f);
                    }
                }
                match &mut result {
                    Ok(reply) => {
                        reply.structured.insert(SESSION_ARG.into(), json!(handle));
                        if name == ToolName::Close {
                            reply.text = format!("{}; session {handle} ended", reply.text);
                        } else if *opened {
                            reply.text = format!(
                                "session: {handle} (opened by this call; pass it as session on every later call)\n{}",
                                reply.text
                            );
                        }
                    }
                    // A call that needed an earlier call's page or refs most likely lost its
                    // handle: say so.
                    Err(Failure::Tool { code, message })
                        if *opened
                            && matches!(
                                *code,
                                Code::NoPage
                                    | Code::UnknownRef
                                    | Code::StaleRef
                                    | Code::BadRef
                                    | Code::NoDialog
                                    | Code::NoHistory
                            ) =>
                    {
                        *message = format!(
                            "{message} (this call passed no session, so it ran in a new, empty one; pass the \
                             session an earlier answer gave to work in that one)"
                        );
                    }
                    Err(_) => {}
                }
                result
            }
        }
    }
}

impl ServerHandler for AxsnapServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("axsnap", env!("CARGO_PKG_VERSION"))
                    .with_title("axsnap: compact, diffable accessibility snapshots"),
            )
            .with_protocol_version(STATELESS)
            .with_instructions(if self.shared.options.desktop {
                format!("{INSTRUCTIONS}{DESKTOP_INSTRUCTIONS}")
            } else {
                INSTRUCTIONS.to_string()
            })
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&STATELESS))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.shared.tools.as_ref().clone())
            .with_ttl_ms(LIST_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn discover(&self, _context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        Ok(DiscoverResult::from_server_info(self.supported_protocol_versions().into_owned(), self.get_info())
            .with_ttl_ms(LIST_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A request of a revision without `initialize` has no protocol session to hang on.
        let stateless = context.protocol_version().is_some_and(|v| !v.has_initialize());
        let mut arguments = request.arguments;
        let handle = arguments.as_mut().and_then(|a| a.remove(SESSION_ARG));
        let Some(name) = ToolName::parse(&request.name) else {
            return self.to_result(Err(failure::unknown_tool(&request.name))).map(CallToolResponse::from);
        };
        if self.http && stateless && handle.is_none() && name == ToolName::Close {
            let reply = Reply::message(
                "closed",
                "no session was named, so nothing was closed; pass session to close one",
            );
            return self.to_result(Ok(reply)).map(CallToolResponse::from);
        }
        let mut target = match self.target(stateless, handle.as_ref()).await {
            Ok(t) => t,
            Err(f) => return self.to_result(Err(f)).map(CallToolResponse::from),
        };
        let opened_handle = match &target {
            Target::Handle { handle, opened: true, .. } => Some(handle.clone()),
            _ => None,
        };
        // A client that gave a progress token hears, past a second, what the call is doing.
        let listener = context.meta.get_progress_token().map(|token| {
            let stage = progress::Progress::new();
            let peer = context.peer.clone();
            let ticker = Ticker::start(stage.clone(), move |tick| {
                let note =
                    ProgressNotificationParam::new(token.clone(), tick.progress).with_message(tick.message);
                let peer = peer.clone();
                async move { peer.notify_progress(note).await.is_ok() }
            });
            (stage, ticker)
        });
        let stage = listener.as_ref().map(|(stage, _)| stage.clone());
        let run = self.run_in(&mut target, name, arguments.as_ref());
        let work = async move {
            match stage {
                Some(stage) => progress::scoped(stage, run).await,
                None => run.await,
            }
        };
        // A client that gives up (cancels, disconnects) stops the call; the session's lock is
        // released with the dropped future, so its next call runs.
        let result = tokio::select! {
            r = work => r,
            _ = context.ct.cancelled() => {
                // The client never learnt the handle of a session its cancelled call opened.
                if let Some(handle) = opened_handle {
                    let shared = self.shared.clone();
                    tokio::spawn(async move { shared.end_session(&handle).await });
                }
                Err(Failure::tool(Code::Cancelled, "the call was cancelled by the client"))
            }
        };
        // Nothing is told of a call after its answer (or its cancellation).
        if let Some((_, ticker)) = listener {
            ticker.stop().await;
        }
        self.to_result(result).map(CallToolResponse::from)
    }
}

/// A reply or failure as an MCP result (or a protocol error). The text is the whole answer
/// and the same with or without `structuredContent`: an error's text starts with its code
/// (`stale_ref: …`), since a client that reads the text (and Claude Code drops
/// `structuredContent` on errors) has nothing else. `structured`: also the JSON form
/// (`--structured-content`).
fn to_result(result: Result<Reply, Failure>, structured: bool) -> Result<CallToolResult, ErrorData> {
    match result {
        Ok(reply) => {
            let mut content = vec![ContentBlock::text(reply.text)];
            if let Some(png) = reply.image {
                content.push(ContentBlock::image(png, "image/png"));
            }
            let mut r = CallToolResult::success(content);
            if structured {
                r.structured_content = Some(Value::Object(reply.structured));
            }
            Ok(r)
        }
        Err(Failure::Tool { code, message }) => {
            let mut r = CallToolResult::error(vec![ContentBlock::text(error_text(code.as_str(), &message))]);
            if structured {
                r.structured_content = Some(json!({"kind": "error", "error": code, "message": message}));
            }
            Ok(r)
        }
        Err(Failure::Protocol(e)) => Err(e),
    }
}

/// An error's text: its code, then what went wrong and what to do next.
pub(crate) fn error_text(code: &str, message: &str) -> String {
    format!("{code}: {message}")
}
