//! A raw CDP client: JSON method + params in, JSON result out, over its own WebSocket.
//!
//! chromiumoxide's typed API fails on enum values it does not know (browsers add roles and
//! properties), and its `Page` can only address its own session, not the sessions of
//! out-of-process iframes. So every call the capture path makes goes through this client: one
//! WebSocket (async-tungstenite, with the headers a pool may ask for on the upgrade) pumped by
//! one tokio task, which routes answers to callers by call id and broadcasts events. Any
//! session id can be addressed, and nothing is parsed beyond JSON.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_tungstenite::tungstenite::client::IntoClientRequest;
use async_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
use async_tungstenite::tungstenite::protocol::WebSocketConfig;
use async_tungstenite::tungstenite::{Error as WsError, Message};
use futures::StreamExt;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::error::CdpError;

/// The default time to wait for one CDP answer.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// How many recent answers [`RawCdp::round_trip`] is the quickest of: enough that one of them
/// is a trivial call, few enough to follow a network that changes.
pub const ROUND_TRIP_WINDOW: usize = 16;

/// The most [`RawCdp::round_trip`] says: a browser slower than this is busy, not far away.
pub const MAX_ROUND_TRIP: Duration = Duration::from_secs(2);

/// How long opening the WebSocket (TCP, the upgrade) may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

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

/// A message as it comes off the wire: an answer (`id`) or an event (`method`).
#[derive(Debug, Deserialize)]
struct Wire {
    id: Option<u64>,
    method: Option<String>,
    #[serde(rename = "sessionId", default)]
    session_id: Option<String>,
    #[serde(default)]
    params: Value,
    result: Option<Value>,
    error: Option<WireError>,
}

#[derive(Debug, Deserialize)]
struct WireError {
    #[serde(default)]
    message: String,
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
    /// The network's share of a call (µs): the quickest of the last answers.
    round_trip: Arc<AtomicU64>,
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
        RawCdp::connect_with(ws_url, &[]).await
    }

    /// [`RawCdp::connect`] with extra HTTP headers on the WebSocket upgrade (a pool's
    /// `Authorization`, say).
    pub async fn connect_with(ws_url: &str, headers: &[(String, String)]) -> Result<RawCdp, CdpError> {
        let fail = |reason: String, retry: bool| CdpError::ConnectFailed {
            endpoint: redact_url(ws_url),
            reason,
            retry,
        };
        let mut request = ws_url.into_client_request().map_err(|e| fail(e.to_string(), false))?;
        for (name, value) in headers {
            let name = HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| fail(format!("header name {name:?}: {e}"), false))?;
            let value = HeaderValue::from_str(value)
                .map_err(|e| fail(format!("the value of header {name}: {e}"), false))?;
            request.headers_mut().append(name, value);
        }
        let config = WebSocketConfig::default().max_message_size(None).max_frame_size(None);
        let connecting = async_tungstenite::tokio::connect_async_with_config(request, Some(config));
        let (ws, _) = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .map_err(|_| fail(format!("no WebSocket within {} s", CONNECT_TIMEOUT.as_secs()), false))?
            .map_err(|e| {
                let retry = match &e {
                    WsError::Url(_) => false,
                    WsError::Http(r) => !matches!(r.status().as_u16(), 401 | 403),
                    _ => true,
                };
                fail(e.to_string(), retry)
            })?;
        let (calls, rx) = mpsc::unbounded_channel();
        let (events, _) = broadcast::channel(8192);
        let close = Arc::new(tokio::sync::Notify::new());
        let round_trip = Arc::new(AtomicU64::new(0));
        let task = tokio::spawn(pump(ws, rx, events.clone(), close.clone(), round_trip.clone()));
        Ok(RawCdp { calls, round_trip, events, close, _task: Arc::new(TaskGuard(task)) })
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
        // A timeout is the browser's time to answer: a remote browser's round trip comes on top
        // (a page that answers a probe in 300 ms is not busy because the wire takes 400).
        let timeout = timeout + self.round_trip();
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

    /// How long the network alone takes per call: the quickest of the last
    /// [`ROUND_TRIP_WINDOW`] answers (zero before the first), at most [`MAX_ROUND_TRIP`].
    pub fn round_trip(&self) -> Duration {
        Duration::from_micros(self.round_trip.load(Ordering::Relaxed)).min(MAX_ROUND_TRIP)
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

type Pending = HashMap<u64, (String, Instant, oneshot::Sender<Result<Value, CdpError>>)>;

/// The durations of the last answers, for [`RawCdp::round_trip`].
struct RoundTrips {
    last: VecDeque<u64>,
    quickest: Arc<AtomicU64>,
}

impl RoundTrips {
    fn note(&mut self, took: Duration) {
        if self.last.len() == ROUND_TRIP_WINDOW {
            self.last.pop_front();
        }
        self.last.push_back(u64::try_from(took.as_micros()).unwrap_or(u64::MAX));
        let min = self.last.iter().copied().min().unwrap_or(0);
        self.quickest.store(min, Ordering::Relaxed);
    }
}

async fn pump<S>(
    mut ws: async_tungstenite::WebSocketStream<S>,
    mut calls: mpsc::UnboundedReceiver<Call>,
    events: broadcast::Sender<Arc<RawEvent>>,
    close: Arc<tokio::sync::Notify>,
    quickest: Arc<AtomicU64>,
) where
    S: futures::AsyncRead + futures::AsyncWrite + Unpin,
{
    let mut pending: Pending = HashMap::new();
    let mut trips = RoundTrips { last: VecDeque::with_capacity(ROUND_TRIP_WINDOW), quickest };
    let mut next_id: u64 = 0;
    loop {
        tokio::select! {
            call = calls.recv() => {
                let Some(call) = call else { break };
                next_id += 1;
                let mut message = json!({"id": next_id, "method": call.method, "params": call.params});
                if let Some(session) = call.session {
                    message["sessionId"] = Value::String(session);
                }
                // Callers that timed out dropped their receiver; forget them.
                if pending.len() > 256 {
                    pending.retain(|_, (_, _, tx)| !tx.is_closed());
                }
                // Method names only: parameters carry page values (typed passwords).
                tracing::trace!(id = next_id, method = %call.method, "cdp call");
                pending.insert(next_id, (call.method, Instant::now(), call.reply));
                if let Err(e) = ws.send(Message::Text(message.to_string().into())).await {
                    tracing::debug!("raw CDP connection failed sending: {e}");
                    break;
                }
            }
            msg = ws.next() => match msg {
                Some(Ok(Message::Text(text))) => deliver(text.as_str(), &mut pending, &events, &mut trips),
                Some(Ok(Message::Binary(bytes))) => {
                    deliver(&String::from_utf8_lossy(&bytes), &mut pending, &events, &mut trips);
                }
                Some(Ok(Message::Close(_))) | None => break,
                // Pings are answered by the stream itself.
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::debug!("raw CDP connection failed: {e}");
                    break;
                }
            },
            () = close.notified() => {
                let _ = ws.close(None).await;
                break;
            }
        }
    }
    // Dropping the senders fails every waiting caller with `Disconnected`.
    drop(pending);
}

/// Routes one message: an answer to its caller, an event to the subscribers.
fn deliver(
    text: &str,
    pending: &mut Pending,
    events: &broadcast::Sender<Arc<RawEvent>>,
    trips: &mut RoundTrips,
) {
    match serde_json::from_str::<Wire>(text) {
        Ok(Wire { id: Some(id), result, error, .. }) => {
            if let Some((method, sent, tx)) = pending.remove(&id) {
                trips.note(sent.elapsed());
                tracing::trace!(id, method = %method, "cdp answer");
                let result = match (result, error) {
                    (_, Some(err)) => Err(CdpError::Protocol { method, message: err.message }),
                    (Some(v), None) => Ok(v),
                    (None, None) => Ok(Value::Null),
                };
                let _ = tx.send(result);
            }
        }
        Ok(Wire { method: Some(method), session_id, params, .. }) => {
            let _ = events.send(Arc::new(RawEvent { method, session_id, params }));
        }
        Ok(_) => {}
        // A message we could not read: an answer to a call fails that call now (a result
        // nested past the JSON reader's depth limit, which a page can cause, would otherwise
        // leave its caller waiting out the timeout); any other message is skipped.
        Err(e) => {
            if let Some((method, _, tx)) = answer_id(text).and_then(|id| pending.remove(&id)) {
                let _ = tx.send(Err(unreadable(method, &e)));
            }
        }
    }
}

/// A URL as errors and logs may show it: without its query (a pool's token travels there).
pub(crate) fn redact_url(url: &str) -> String {
    match url.split_once('?') {
        Some((base, _)) => format!("{base}?…"),
        None => url.to_string(),
    }
}

/// The call id of a message that could not be read whole. Reading only the `id` field skips
/// the rest without the reader's depth limit, so it works on any nesting.
fn answer_id(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Head {
        id: Option<u64>,
    }
    serde_json::from_str::<Head>(text).ok()?.id
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
        assert_eq!(answer_id(&text), Some(42));
        let err = unreadable("Runtime.evaluate".into(), &whole);
        assert!(err.to_string().contains("nested too deeply"), "{err}");
    }

    #[test]
    fn the_round_trip_is_the_quickest_recent_answer() {
        let quickest = Arc::new(AtomicU64::new(0));
        let mut trips = RoundTrips { last: VecDeque::new(), quickest: quickest.clone() };
        trips.note(Duration::from_millis(120));
        trips.note(Duration::from_millis(100));
        trips.note(Duration::from_millis(900));
        assert_eq!(quickest.load(Ordering::Relaxed), 100_000);
        // A network that got slower is followed once the quick answers leave the window.
        for _ in 0..ROUND_TRIP_WINDOW {
            trips.note(Duration::from_millis(400));
        }
        assert_eq!(quickest.load(Ordering::Relaxed), 400_000);
    }

    #[test]
    fn an_event_or_garbage_names_no_call() {
        assert_eq!(answer_id(r#"{"method":"Page.loadEventFired","params":{}}"#), None);
        assert_eq!(answer_id("not json"), None);
        assert_eq!(answer_id(&nested_answer(7, 3)), Some(7));
    }
}
