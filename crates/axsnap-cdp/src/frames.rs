//! Frames and sessions of one tab: the tab's own session plus one session per out-of-process
//! iframe (auto-attached, flattened), the `axsnap` isolated-world context of every frame, and
//! an epoch that moves on anything structural (navigation, frames or contexts coming and going,
//! a JavaScript dialog opening or closing, a crash). Capture reads the sessions, contexts and the
//! open dialog; the change signal compares epochs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::conn::{str_field, RawCdp, RawEvent};
use crate::dialogs::Dialog;
use crate::error::CdpError;

/// Name of the isolated world the change signal and capture helpers live in.
pub const WORLD: &str = "axsnap";

/// The change-signal and capture helper script (isolated world).
pub const CHANGE_JS: &str = include_str!("js/change.js");
/// The main-world shim that announces shadow roots.
pub const SHADOW_SHIM_JS: &str = include_str!("js/shadow_shim.js");

const SETUP_TIMEOUT: Duration = Duration::from_secs(10);

/// One CDP session of the tab.
#[derive(Clone, Debug, Default)]
pub struct SessionInfo {
    /// The session id.
    pub session_id: String,
    /// For an iframe session: its frame id (the iframe target id); `None` for the tab itself.
    pub frame_id: Option<String>,
    /// The session it was attached under.
    pub parent: Option<String>,
    /// Frame id -> execution context id of the `axsnap` world in that frame.
    pub contexts: HashMap<String, i64>,
}

/// What the watcher knows.
#[derive(Clone, Debug, Default)]
pub struct WatchState {
    /// Moves on every structural event.
    pub epoch: u64,
    /// The tab's session first, then iframe sessions in attach order.
    pub sessions: Vec<SessionInfo>,
    /// The renderer crashed.
    pub crashed: bool,
    /// The JavaScript dialog open on the tab or one of its frames, whoever opened it. While
    /// one is open the page answers no calls that need its main thread.
    pub dialog: Option<Dialog>,
}

impl WatchState {
    fn session_mut(&mut self, id: &str) -> Option<&mut SessionInfo> {
        self.sessions.iter_mut().find(|s| s.session_id == id)
    }
}

/// Watches one tab's events; stops when dropped.
#[derive(Debug)]
pub struct FrameWatch {
    state: Arc<Mutex<WatchState>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for FrameWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FrameWatch {
    /// Starts watching the tab session `session_id` and prepares it: runtime events, the
    /// change-signal scripts (for future documents and the current one), accessibility, and
    /// auto-attach of out-of-process iframes.
    pub async fn start(raw: &RawCdp, session_id: &str) -> Result<FrameWatch, CdpError> {
        let state = Arc::new(Mutex::new(WatchState {
            epoch: 0,
            sessions: vec![SessionInfo { session_id: session_id.to_string(), ..SessionInfo::default() }],
            crashed: false,
            dialog: None,
        }));
        // Subscribe before enabling anything so no event is missed.
        let events = raw.subscribe();
        let task = tokio::spawn(watch(raw.clone(), events, state.clone()));
        prepare_session(raw, session_id, false).await?;
        Ok(FrameWatch { state, task })
    }

    /// A copy of what the watcher knows now.
    pub fn snapshot(&self) -> WatchState {
        lock(&self.state).clone()
    }

    /// The current epoch.
    pub fn epoch(&self) -> u64 {
        lock(&self.state).epoch
    }

    /// Whether the renderer crashed.
    pub fn crashed(&self) -> bool {
        lock(&self.state).crashed
    }

    /// The JavaScript dialog that is open now, if any.
    pub fn dialog(&self) -> Option<Dialog> {
        lock(&self.state).dialog.clone()
    }
}

fn lock(m: &Mutex<WatchState>) -> MutexGuard<'_, WatchState> {
    // A panic while holding the lock leaves plain data behind; keep using it.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Enables what capture and the change signal need on one session. For an auto-attached
/// iframe session (`resume`), lets it run afterwards: it waits for us so that our scripts are
/// in place before its document starts.
///
/// Not the Accessibility domain: `getFullAXTree` answers without it, with the same nodes and
/// ids (measured on the std `Vec` page: 62,020 nodes either way, the AX-only ids the same
/// between two calls and changed by a mutation either way), while enabling it makes the
/// renderer keep an accessibility tree up to date through every change the page makes: the
/// `Vec` page loaded in 1.65 s instead of 1.27 s, and a page that builds 1,500 nested
/// `role=button`s took 7.8 s to lay out instead of 0.08 s, so no capture of it arrived.
async fn prepare_session(raw: &RawCdp, session: &str, resume: bool) -> Result<(), CdpError> {
    let s = Some(session);
    let t = SETUP_TIMEOUT;
    let calls = vec![
        raw.send(s, "Runtime.enable", json!({}), t),
        // For `Inspector.targetCrashed`: a crashed renderer answers nothing, so say so at once.
        raw.send(s, "Inspector.enable", json!({}), t),
        raw.send(s, "Page.enable", json!({}), t),
        raw.send(
            s,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": SHADOW_SHIM_JS, "runImmediately": true}),
            t,
        ),
        raw.send(
            s,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": CHANGE_JS, "worldName": WORLD, "runImmediately": true}),
            t,
        ),
        raw.send(
            s,
            "Target.setAutoAttach",
            json!({"autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true}),
            t,
        ),
    ];
    let results = futures::future::join_all(calls).await;
    if resume {
        let _ = raw.send(s, "Runtime.runIfWaitingForDebugger", json!({}), t).await;
    }
    for r in results {
        r?;
    }
    Ok(())
}

async fn watch(
    raw: RawCdp,
    mut events: tokio::sync::broadcast::Receiver<Arc<RawEvent>>,
    state: Arc<Mutex<WatchState>>,
) {
    loop {
        let ev = match events.recv().await {
            Ok(ev) => ev,
            Err(RecvError::Lagged(_)) => {
                // Events were lost: anything may have happened.
                lock(&state).epoch += 1;
                continue;
            }
            Err(RecvError::Closed) => break,
        };
        let Some(session) = ev.session_id.as_deref() else { continue };
        let mut st = lock(&state);
        if !st.sessions.iter().any(|s| s.session_id == session) {
            continue;
        }
        let p = &ev.params;
        match ev.method.as_str() {
            "Target.attachedToTarget" => {
                let child = str_field(p, "sessionId").unwrap_or_default().to_string();
                let info = p.get("targetInfo").cloned().unwrap_or(Value::Null);
                let waiting = p.get("waitingForDebugger").and_then(Value::as_bool).unwrap_or(false);
                if str_field(&info, "type") == Some("iframe") {
                    st.sessions.push(SessionInfo {
                        session_id: child.clone(),
                        frame_id: str_field(&info, "targetId").map(str::to_string),
                        parent: Some(session.to_string()),
                        contexts: HashMap::new(),
                    });
                    st.epoch += 1;
                    let raw = raw.clone();
                    tokio::spawn(async move {
                        if let Err(e) = prepare_session(&raw, &child, true).await {
                            tracing::debug!("preparing iframe session failed: {e}");
                        }
                    });
                } else if waiting {
                    // Workers and the like: not ours to capture, but they must not stay paused.
                    let raw = raw.clone();
                    tokio::spawn(async move {
                        let _ = raw
                            .send(Some(&child), "Runtime.runIfWaitingForDebugger", json!({}), SETUP_TIMEOUT)
                            .await;
                    });
                }
            }
            "Target.detachedFromTarget" => {
                if let Some(child) = str_field(p, "sessionId") {
                    st.sessions.retain(|s| s.session_id != child);
                    st.epoch += 1;
                }
            }
            "Runtime.executionContextCreated" => {
                // Only our world matters; other worlds (the page's, chromiumoxide's) come and go
                // with the navigations that are counted below.
                let ctx = p.get("context").cloned().unwrap_or(Value::Null);
                if str_field(&ctx, "name") == Some(WORLD) {
                    let frame = ctx.pointer("/auxData/frameId").and_then(Value::as_str).map(str::to_string);
                    let id = ctx.get("id").and_then(Value::as_i64);
                    if let (Some(frame), Some(id), Some(s)) = (frame, id, st.session_mut(session)) {
                        s.contexts.insert(frame, id);
                    }
                    st.epoch += 1;
                }
            }
            "Runtime.executionContextDestroyed" => {
                let id = p.get("executionContextId").and_then(Value::as_i64);
                if let Some(s) = st.session_mut(session) {
                    let before = s.contexts.len();
                    s.contexts.retain(|_, c| Some(*c) != id);
                    if s.contexts.len() != before {
                        st.epoch += 1;
                    }
                }
            }
            "Runtime.executionContextsCleared" => {
                if let Some(s) = st.session_mut(session) {
                    s.contexts.clear();
                }
                st.epoch += 1;
            }
            "Page.frameNavigated"
            | "Page.navigatedWithinDocument"
            | "Page.frameAttached"
            | "Page.frameDetached"
            | "Page.documentOpened" => st.epoch += 1,
            "Inspector.targetCrashed" => {
                st.crashed = true;
                st.dialog = None;
                st.epoch += 1;
            }
            // A crashed tab that is reloaded or navigated gets a new renderer; the browser
            // carries our session's domains and scripts over to it.
            "Inspector.targetReloadedAfterCrash" => {
                st.crashed = false;
                st.epoch += 1;
            }
            "Page.javascriptDialogOpening" => {
                st.dialog = Some(Dialog::from_event(session, p));
                st.epoch += 1;
            }
            "Page.javascriptDialogClosed" => {
                st.dialog = None;
                st.epoch += 1;
            }
            _ => {}
        }
    }
}
