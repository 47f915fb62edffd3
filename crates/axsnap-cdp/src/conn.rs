//! A raw CDP client: JSON method + params in, JSON result out, over its own WebSocket.
//!
//! chromiumoxide's typed API fails on enum values it does not know (browsers add roles and
//! properties), and its `Page` can only address its own session, not the sessions of
//! out-of-process iframes. So every call the capture path makes goes through this client: a
//! second connection (chromiumoxide's [`Connection`] with untyped events) pumped by one tokio task, which routes answers to callers by call id and broadcasts
//! events. Any session id can be addressed, and nothing is parsed beyond JSON.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::target::SessionId;
use chromiumoxide::conn::Connection;
use chromiumoxide::types::{CallId, EventMessage, Message, Method, MethodId};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::error::CdpError;

/// The default time to wait for one CDP answer.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// An event from the browser, untyped.
#[derive(Clone, Debug)]
pub struct RawEvent {
    /// `Domain.event`.
    pub method: String,
    /// The session it came from (`None`: the browser session).
    pub session_id: Option<String>,
    /// Its parameters.
    pub params: Value,
}

/// An event as it comes off the wire. (chromiumoxide's `CdpJsonEventMessage` does not read the
/// `sessionId` field, which flattened sessions depend on.)
#[derive(Debug, Deserialize)]
struct WireEvent {
    method: String,
    #[serde(rename = "sessionId", default)]
    session_id: Option<String>,
    #[serde(default)]
    params: Value,
}

impl Method for WireEvent {
    fn identifier(&self) -> MethodId {
        self.method.clone().into()
    }
}

impl EventMessage for WireEvent {
    fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }
}

struct Call {
    method: String,
    session: Option<String>,
    params: Value,
    reply: oneshot::Sender<Result<Value, CdpError>>,
}

/// A handle on the raw connection; cheap to clone.
#[derive(Clone)]
pub struct RawCdp {
    calls: mpsc::UnboundedSender<Call>,
    events: broadcast::Sender<Arc<RawEvent>>,
    /// Tells the pump to close the connection (handles held elsewhere keep it otherwise).
    close: Arc<tokio::sync::Notify>,
    _task: Arc<TaskGuard>,
}

/// Aborts the pump task when the last handle goes.
struct TaskGuard(tokio::task::JoinHandle<()>);

impl Drop for TaskGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl std::fmt::Debug for RawCdp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawCdp").finish_non_exhaustive()
    }
}

impl RawCdp {
    /// Opens a connection to a browser's WebSocket endpoint and starts its pump task.
    pub async fn connect(ws_url: &str) -> Result<RawCdp, CdpError> {
        let conn = Connection::<WireEvent>::connect(ws_url)
            .await
            .map_err(|e| CdpError::ConnectFailed { endpoint: ws_url.to_string(), reason: e.to_string() })?;
        let (calls, rx) = mpsc::unbounded_channel();
        let (events, _) = broadcast::channel(8192);
        let close = Arc::new(tokio::sync::Notify::new());
        let task = tokio::spawn(pump(conn, rx, events.clone(), close.clone()));
        Ok(RawCdp { calls, events, close, _task: Arc::new(TaskGuard(task)) })
    }

    /// Subscribes to every event from now on (all sessions).
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<RawEvent>> {
        self.events.subscribe()
    }

    /// Sends `method` with `params` to `session` (`None`: the browser) and waits up to
    /// [`CALL_TIMEOUT`] for its result.
    pub async fn call(&self, session: Option<&str>, method: &str, params: Value) -> Result<Value, CdpError> {
        self.call_within(session, method, params, CALL_TIMEOUT).await
    }

    /// [`RawCdp::call`] with an explicit timeout.
    pub async fn call_within(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, CdpError> {
        self.send(session, method, params, timeout).await
    }

    /// Queues the call now (so calls made one after another reach the browser in that order,
    /// however their futures are polled) and returns a future of its result.
    pub fn send(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> impl std::future::Future<Output = Result<Value, CdpError>> + Send + 'static {
        let (reply, rx) = oneshot::channel();
        let call = Call { method: method.to_string(), session: session.map(str::to_string), params, reply };
        let sent = self.calls.send(call).is_ok();
        let method = method.to_string();
        async move {
            if !sent {
                return Err(CdpError::Disconnected);
            }
            match tokio::time::timeout(timeout, rx).await {
                Ok(Ok(result)) => result,
                Ok(Err(_)) => Err(CdpError::Disconnected),
                Err(_) => Err(CdpError::Timeout { method, timeout }),
            }
        }
    }

    /// Whether the connection is still up.
    pub fn is_open(&self) -> bool {
        !self.calls.is_closed()
    }

    /// Closes the connection for every handle on it, after the calls queued so far are sent:
    /// calls waiting for an answer then fail with [`CdpError::Disconnected`].
    pub fn close(&self) {
        self.close.notify_one();
    }
}

type Pending = HashMap<CallId, (String, oneshot::Sender<Result<Value, CdpError>>)>;

async fn pump(
    mut conn: Connection<WireEvent>,
    mut calls: mpsc::UnboundedReceiver<Call>,
    events: broadcast::Sender<Arc<RawEvent>>,
    close: Arc<tokio::sync::Notify>,
) {
    let mut pending: Pending = HashMap::new();
    loop {
        tokio::select! {
            call = calls.recv() => {
                let Some(call) = call else { break };
                let session = call.session.map(SessionId::new);
                match conn.submit_command(call.method.clone().into(), session, call.params) {
                    Ok(id) => {
                        // Callers that timed out dropped their receiver; forget them.
                        if pending.len() > 256 {
                            pending.retain(|_, (_, tx)| !tx.is_closed());
                        }
                        pending.insert(id, (call.method, call.reply));
                    }
                    Err(e) => {
                        let _ = call.reply.send(Err(CdpError::BadResponse {
                            method: call.method,
                            reason: format!("could not encode params: {e}"),
                        }));
                    }
                }
            }
            msg = conn.next() => match msg {
                Some(Ok(Message::Response(resp))) => {
                    if let Some((method, tx)) = pending.remove(&resp.id) {
                        let result = match (resp.result, resp.error) {
                            (_, Some(err)) => Err(CdpError::Protocol { method, message: err.message }),
                            (Some(v), None) => Ok(v),
                            (None, None) => Ok(Value::Null),
                        };
                        let _ = tx.send(result);
                    }
                }
                Some(Ok(Message::Event(ev))) => {
                    let ev = RawEvent {
                        method: ev.method,
                        session_id: ev.session_id,
                        params: ev.params,
                    };
                    let _ = events.send(Arc::new(ev));
                }
                // A message we could not parse as JSON-RPC: an answer to a call fails that
                // call now (a result nested past the JSON reader's depth limit, which a page
                // can cause, would otherwise leave its caller waiting out the timeout); any
                // other message is skipped and the stream goes on.
                Some(Err(chromiumoxide::error::CdpError::InvalidMessage(text, e))) => {
                    if let Some((method, tx)) = answer_id(&text).and_then(|id| pending.remove(&id)) {
                        let _ = tx.send(Err(unreadable(method, &e)));
                    }
                }
                Some(Err(e)) => {
                    tracing::debug!("raw CDP connection failed: {e}");
                    break;
                }
                None => break,
            },
            () = close.notified() => break,
        }
    }
    // Dropping the senders fails every waiting caller with `Disconnected`.
    drop(pending);
}

/// The call id of a message that could not be read whole. Reading only the `id` field skips
/// the rest without the reader's depth limit, so it works on any nesting.
fn answer_id(text: &str) -> Option<CallId> {
    #[derive(Deserialize)]
    struct Head {
        id: Option<usize>,
    }
    serde_json::from_str::<Head>(text).ok()?.id.map(CallId::new)
}

/// The error for an answer that could not be read.
fn unreadable(method: String, e: &serde_json::Error) -> CdpError {
    let reason = if e.to_string().contains("recursion limit") {
        "the answer is nested too deeply to read (past 127 levels); the page built a value or \
         a frame tree that deep"
            .to_string()
    } else {
        format!("the answer is not valid JSON-RPC: {e}")
    };
    CdpError::BadResponse { method, reason }
}

/// Reads a string field, tolerating its absence.
pub(crate) fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer whose result nests `depth` arrays.
    fn nested_answer(id: usize, depth: usize) -> String {
        format!(
            r#"{{"id":{id},"result":{{"result":{{"value":{}{}}}}}}}"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    }

    #[test]
    fn a_too_deep_answer_still_names_its_call() {
        let text = nested_answer(42, 100_000);
        let whole = serde_json::from_str::<Value>(&text).expect_err("past the depth limit");
        assert_eq!(answer_id(&text), Some(CallId::new(42)));
        let err = unreadable("Runtime.evaluate".into(), &whole);
        assert!(err.to_string().contains("nested too deeply"), "{err}");
    }

    #[test]
    fn an_event_or_garbage_names_no_call() {
        assert_eq!(answer_id(r#"{"method":"Page.loadEventFired","params":{}}"#), None);
        assert_eq!(answer_id("not json"), None);
        assert_eq!(answer_id(&nested_answer(7, 3)), Some(CallId::new(7)));
    }
}
