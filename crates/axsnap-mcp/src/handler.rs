//! [`AxsnapServer`]: the MCP handler of one session. It lists the tools, runs calls on the
//! session's [`Browsing`] (one at a time per session), or with `--desktop` the desktop's
//! calls on its [`Desktop`], and turns replies and failures into MCP results.
//!
//! axsnap keeps a browser context, refs and baselines per MCP session, so it speaks protocol
//! revisions up to 2025-11-25, the last with sessions; a client that speaks 2026-07-28
//! (sessionless) negotiates down.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};

use crate::browsers::Browsers;
use crate::browsing::Browsing;
use crate::desktop::{self, Desktop};
use crate::failure::Failure;
use crate::options::ServerOptions;
use crate::reply::Reply;
use crate::tools;

/// What the server tells a client about itself on `initialize`.
const INSTRUCTIONS: &str =
    "Browse with navigate, then act on elements by their refs (e12) from the answers. \
Every action answers with what changed since your last view (a diff), so you rarely need snapshot. \
Use find to locate elements on big pages.";

/// What the instructions add with `--desktop`.
const DESKTOP_INSTRUCTIONS: &str = " Desktop apps: desktop_windows lists windows, desktop_launch starts an \
app; pass window (w3) to snapshot, find and actions to work in one, and use its refs with the same window.";

/// What every session of one server shares: options, the browser, the idle reaper's list.
#[derive(Clone)]
pub struct Shared {
    options: Arc<ServerOptions>,
    browsers: Browsers,
    tools: Arc<Vec<Tool>>,
    sessions: Arc<Mutex<Vec<Weak<tokio::sync::Mutex<Browsing>>>>>,
}

impl Shared {
    /// Shared state for a server with `options`; starts the idle reaper on the current runtime.
    pub fn new(options: ServerOptions) -> Shared {
        axsnap_core::tokens::warm_in_background();
        let browsers = Browsers::new(options.browser.clone());
        let tools = Arc::new(tools::list(options.allow_eval, options.desktop));
        let shared = Shared {
            options: Arc::new(options),
            browsers,
            tools,
            sessions: Arc::new(Mutex::new(Vec::new())),
        };
        let reaper = shared.clone();
        tokio::spawn(async move { reaper.reap_idle().await });
        shared
    }

    /// The browsers (to shut them down when the server stops).
    pub fn browsers(&self) -> &Browsers {
        &self.browsers
    }

    /// A handler for a new session. `isolated`: a browser context of its own.
    pub fn session(&self, isolated: bool) -> AxsnapServer {
        let browsing = Arc::new(tokio::sync::Mutex::new(Browsing::new(
            self.options.clone(),
            self.browsers.clone(),
            isolated,
        )));
        let mut list = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        list.retain(|w| w.strong_count() > 0);
        list.push(Arc::downgrade(&browsing));
        let desktop = self
            .options
            .desktop
            .then(|| Arc::new(tokio::sync::Mutex::new(Desktop::new(self.options.clone()))));
        AxsnapServer { shared: self.clone(), browsing, desktop }
    }

    /// Every so often, releases the browser context of sessions idle past the timeout. A busy
    /// session (a call running) is never idle.
    async fn reap_idle(self) {
        let timeout = self.options.idle_timeout;
        let every = (timeout / 4).clamp(Duration::from_millis(200), Duration::from_secs(30));
        loop {
            tokio::time::sleep(every).await;
            let live: Vec<Arc<tokio::sync::Mutex<Browsing>>> = {
                let mut list = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
                list.retain(|w| w.strong_count() > 0);
                list.iter().filter_map(Weak::upgrade).collect()
            };
            for b in live {
                let Ok(mut browsing) = b.try_lock() else { continue };
                if browsing.is_open()
                    && Instant::now().saturating_duration_since(browsing.last_used()) >= timeout
                {
                    let mins = timeout.as_secs_f64() / 60.0;
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

/// The MCP handler of one session.
#[derive(Clone)]
pub struct AxsnapServer {
    shared: Shared,
    browsing: Arc<tokio::sync::Mutex<Browsing>>,
    /// The session's desktop (`--desktop`): its own lock, so a slow app holds up no page.
    desktop: Option<Arc<tokio::sync::Mutex<Desktop>>>,
}

impl AxsnapServer {
    /// Releases the session's browser context now (stdio end, server shutdown).
    pub async fn release(&self) {
        self.browsing.lock().await.release("the session ended").await;
    }

    /// Runs one call outside MCP (tests, the CLI's demo): the same path `tools/call` takes.
    pub async fn call(
        &self,
        name: &str,
        arguments: Option<rmcp::model::JsonObject>,
    ) -> Result<CallToolResult, ErrorData> {
        to_result(self.run(name, arguments.as_ref()).await)
    }

    /// Runs one call where it goes: the session's desktop or its browser.
    async fn run(&self, name: &str, arguments: Option<&rmcp::model::JsonObject>) -> Result<Reply, Failure> {
        if let Some(desktop) = &self.desktop {
            if let Some(route) = desktop::route(name, arguments)? {
                return desktop.lock().await.call(route, name, arguments).await;
            }
        }
        self.browsing.lock().await.call(name, arguments).await
    }
}

impl ServerHandler for AxsnapServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("axsnap", env!("CARGO_PKG_VERSION"))
                    .with_title("axsnap: compact, diffable accessibility snapshots"),
            )
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
            .with_instructions(if self.desktop.is_some() {
                format!("{INSTRUCTIONS}{DESKTOP_INSTRUCTIONS}")
            } else {
                INSTRUCTIONS.to_string()
            })
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2025_11_25))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.shared.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let work = self.run(&request.name, request.arguments.as_ref());
        // A client that gives up (cancels, disconnects) stops the call; the session's lock is
        // released with the dropped future, so its next call runs.
        let result = tokio::select! {
            r = work => r,
            _ = context.ct.cancelled() => Err(Failure::tool("cancelled", "the call was cancelled by the client")),
        };
        to_result(result).map(CallToolResponse::from)
    }
}

/// A reply or failure as an MCP result (or a protocol error).
fn to_result(result: Result<Reply, Failure>) -> Result<CallToolResult, ErrorData> {
    match result {
        Ok(reply) => {
            let mut content = vec![ContentBlock::text(reply.text)];
            if let Some(png) = reply.image {
                content.push(ContentBlock::image(png, "image/png"));
            }
            let mut r = CallToolResult::success(content);
            r.structured_content = Some(Value::Object(reply.structured));
            Ok(r)
        }
        Err(Failure::Tool { code, message }) => {
            let mut r = CallToolResult::error(vec![ContentBlock::text(message.clone())]);
            r.structured_content = Some(json!({"kind": "error", "error": code, "message": message}));
            Ok(r)
        }
        Err(Failure::Protocol(e)) => Err(e),
    }
}
