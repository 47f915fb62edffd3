//! [`Recorder`]: a backend's record of its tabs' network requests and console messages, for an
//! agent that asks what a page loaded or logged (the MCP server's `network` group).
//!
//! A backend that records starts listening to a tab as soon as it has the tab's session,
//! before its first navigation (see [`crate::CdpBackend::set_recording`]), so a page's own
//! load is in the record. It keeps the last [`MAX_REQUESTS`] requests and [`MAX_MESSAGES`]
//! messages of all its tabs and counts the older ones it let go, so a page that polls or logs
//! in a loop costs bounded memory. Bodies stay in the browser until asked for
//! ([`Recorder::bodies`]).
//!
//! Nothing leaves the recorder unredacted: URLs, bodies and message texts pass through a
//! [`Redactor`] that knows the secret texts the tab's captures found.
//!
//! Out-of-process frames are recorded too (their sessions, as they attach under the tab's;
//! one attached before the recording began from its next request). Not recorded: what a popup
//! loaded before the backend attached to it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::conn::{str_field, RawEvent};
use crate::error::CdpError;
use crate::page::PageHandle;

mod console;
mod network;
pub mod redact;

pub use console::{Level, Message};
pub use network::Request;
pub use redact::Redactor;

/// Requests kept (all tabs); older ones are counted.
pub const MAX_REQUESTS: usize = 1_000;
/// Console messages kept (all tabs); older ones are counted.
pub const MAX_MESSAGES: usize = 1_000;
/// Secret texts remembered for redaction.
const MAX_SECRETS: usize = 256;
/// How long the browser may take to hand over a body.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The bodies of one request, redacted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bodies {
    /// The request's body as sent (a form, JSON), when it had one.
    pub request: Option<String>,
    /// The request body is longer than what the browser gave (what is shown is its start).
    pub request_cut: bool,
    /// The response's body as text, when it has one and it is text.
    pub response: Option<String>,
    /// The response body's size in bytes (decoded), when the browser had it.
    pub response_bytes: Option<usize>,
    /// Why there is no response text (binary, not kept, still loading, failed).
    pub response_note: Option<String>,
}

#[derive(Debug, Default)]
struct Records {
    next_request: u64,
    requests: VecDeque<Request>,
    requests_dropped: u64,
    /// (tab, CDP request id) -> the entry of its current hop.
    open: HashMap<(String, String), u64>,
    next_message: u64,
    messages: VecDeque<Message>,
    messages_dropped: u64,
    secrets: Vec<String>,
}

impl Records {
    fn request(&mut self, n: u64) -> Option<&mut Request> {
        let first = self.requests.front()?.n;
        let i = usize::try_from(n.checked_sub(first)?).ok()?;
        self.requests.get_mut(i)
    }

    fn open_request(&mut self, tab: &str, cdp_id: &str) -> Option<&mut Request> {
        let n = *self.open.get(&(tab.to_string(), cdp_id.to_string()))?;
        self.request(n)
    }

    fn push_request(&mut self, tab: &str, session: &str, p: &Value) {
        let Some(cdp_id) = str_field(p, "requestId") else { return };
        // A redirect: the hop before ends with its response, the next hop is a new entry.
        if let Some(response) = p.get("redirectResponse") {
            let ts = p.get("timestamp").and_then(Value::as_f64);
            if let Some(prev) = self.open_request(tab, cdp_id) {
                prev.responded(response);
                prev.ended(ts, None);
                prev.redirected = true;
            }
        }
        let n = self.next_request + 1;
        let Some(r) = Request::sent(n, tab, session, p) else { return };
        self.next_request = n;
        self.open.insert((tab.to_string(), cdp_id.to_string()), n);
        self.requests.push_back(r);
        while self.requests.len() > MAX_REQUESTS {
            self.requests.pop_front();
            self.requests_dropped += 1;
        }
        if self.open.len() > 2 * MAX_REQUESTS {
            let first = self.requests.front().map_or(0, |r| r.n);
            self.open.retain(|_, n| *n >= first);
        }
    }

    fn push_message(&mut self, tab: &str, method: &str, p: &Value) {
        let n = self.next_message + 1;
        let Some(m) = Message::from_event(n, tab, method, p) else { return };
        self.next_message = n;
        self.messages.push_back(m);
        while self.messages.len() > MAX_MESSAGES {
            self.messages.pop_front();
            self.messages_dropped += 1;
        }
    }

    fn apply(&mut self, tab: &str, ev: &RawEvent) {
        let p = &ev.params;
        let id = str_field(p, "requestId").unwrap_or_default();
        match ev.method.as_str() {
            "Network.requestWillBeSent" => {
                self.push_request(tab, ev.session_id.as_deref().unwrap_or_default(), p)
            }
            "Network.responseReceived" => {
                if let (Some(r), Some(response)) = (self.open_request(tab, id), p.get("response")) {
                    r.responded(response);
                }
            }
            "Network.requestServedFromCache" => {
                if let Some(r) = self.open_request(tab, id) {
                    r.cached = true;
                }
            }
            "Network.loadingFinished" => {
                let ts = p.get("timestamp").and_then(Value::as_f64);
                let size = p.get("encodedDataLength").and_then(Value::as_f64).map(|s| s.max(0.0) as u64);
                if let Some(r) = self.open_request(tab, id) {
                    r.ended(ts, size);
                }
                self.open.remove(&(tab.to_string(), id.to_string()));
            }
            "Network.loadingFailed" => {
                if let Some(r) = self.open_request(tab, id) {
                    r.failed(p);
                }
                self.open.remove(&(tab.to_string(), id.to_string()));
            }
            "Runtime.consoleAPICalled" | "Runtime.exceptionThrown" | "Log.entryAdded" => {
                self.push_message(tab, &ev.method, p)
            }
            _ => {}
        }
    }
}

/// A backend's record of its tabs' requests and console messages. Dropping it stops the
/// listening.
#[derive(Debug, Default)]
pub struct Recorder {
    records: Arc<Mutex<Records>>,
    /// Listening tasks, by the CDP session they listen to.
    tasks: HashMap<String, tokio::task::JoinHandle<()>>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        for t in self.tasks.values() {
            t.abort();
        }
    }
}

impl Recorder {
    /// An empty record.
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// Records `page` from now on (once per session): its requests (with bodies up to
    /// 64 KiB kept by the browser), console messages and the browser's log entries. The
    /// enabling calls are queued before this returns, so a navigation sent after it is seen.
    pub fn watch(&mut self, page: &PageHandle) {
        let session = page.session_id().to_string();
        if self.tasks.get(&session).is_some_and(|t| !t.is_finished()) {
            return;
        }
        // A tab's earlier sessions (before a replacement) end with it.
        self.tasks.retain(|_, t| !t.is_finished());
        let events = page.raw().subscribe();
        // Frames in other processes attached before now: their events from now on.
        let frames: Vec<String> =
            page.watch().snapshot().sessions.into_iter().skip(1).map(|s| s.session_id).collect();
        for s in std::iter::once(&session).chain(&frames) {
            enable(page.raw(), s);
        }
        let task = tokio::spawn(listen(
            page.raw().clone(),
            events,
            (session.clone(), frames),
            page.target_id().to_string(),
            self.records.clone(),
        ));
        self.tasks.insert(session, task);
    }

    /// Remembers secret texts a capture found, to cut them out of everything shown.
    pub fn note_secrets(&self, texts: &[String]) {
        if texts.is_empty() {
            return;
        }
        let mut r = lock(&self.records);
        for t in texts {
            if !r.secrets.contains(t) {
                r.secrets.push(t.clone());
            }
        }
        let over = r.secrets.len().saturating_sub(MAX_SECRETS);
        r.secrets.drain(..over);
    }

    /// The redactor for what is shown now.
    pub fn redactor(&self) -> Redactor {
        Redactor::new(lock(&self.records).secrets.clone())
    }

    /// The requests of the tab `tab` (CDP id) still kept, oldest first, with URLs redacted and
    /// no bodies ([`Recorder::bodies`] has them); and how many requests (of all tabs) were let
    /// go before them.
    pub fn requests(&self, tab: &str) -> (Vec<Request>, u64) {
        let red = self.redactor();
        let (mut list, dropped) = {
            let r = lock(&self.records);
            let list: Vec<Request> = r
                .requests
                .iter()
                .filter(|q| q.tab == tab)
                .map(|q| Request { post_data: None, ..q.clone() })
                .collect();
            (list, r.requests_dropped)
        };
        // Redacted outside the lock: the listeners go on meanwhile.
        for q in &mut list {
            q.url = red.url(&q.url);
        }
        (list, dropped)
    }

    /// Request number `n`, as in [`Recorder::requests`], if still kept.
    pub fn request(&self, n: u64) -> Option<Request> {
        let red = self.redactor();
        let mut q = lock(&self.records).request(n).map(|q| Request { post_data: None, ..q.clone() })?;
        q.url = red.url(&q.url);
        Some(q)
    }

    /// The console messages of the tab `tab` (CDP id) still kept, oldest first, redacted; and
    /// how many messages (of all tabs) were let go before them.
    pub fn messages(&self, tab: &str) -> (Vec<Message>, u64) {
        let red = self.redactor();
        let (mut list, dropped) = {
            let r = lock(&self.records);
            let list: Vec<Message> = r.messages.iter().filter(|m| m.tab == tab).cloned().collect();
            (list, r.messages_dropped)
        };
        for m in &mut list {
            m.text = red.text(&m.text);
            m.location = m.location.take().map(|l| red.url(&l));
        }
        (list, dropped)
    }

    /// Request `n`'s bodies, redacted, asking `page` (its tab) for the response's. `None`: no
    /// such request is kept.
    pub async fn bodies(&self, page: &PageHandle, n: u64) -> Result<Option<Bodies>, CdpError> {
        let Some(q) = lock(&self.records).request(n).cloned() else { return Ok(None) };
        let red = self.redactor();
        let mut out = Bodies {
            request: q.post_data.as_deref().map(|d| red.body(q.request_type.as_deref(), d)),
            request_cut: q.post_data_cut,
            ..Bodies::default()
        };
        if q.post_data_cut {
            // Cut, or not sent with the event: asked for whole, to be redacted whole.
            let asked = page
                .raw()
                .call_within(
                    Some(&q.session),
                    "Network.getRequestPostData",
                    json!({"requestId": q.cdp_id}),
                    BODY_TIMEOUT,
                )
                .await;
            if let Some(d) = asked.ok().as_ref().and_then(|v| str_field(v, "postData")) {
                out.request = Some(red.body(q.request_type.as_deref(), d));
                out.request_cut = false;
            }
        }
        if q.redirected {
            // The browser keeps one body per request: the last hop's.
            out.response_note = Some("a redirect: no body kept (the next entry is where it led)".into());
            return Ok(Some(out));
        }
        // A response whose body the page never read may not have ended: its body can still
        // be there, so it is asked for once the response came.
        if q.pending() && q.status.is_none() {
            out.response_note = Some("still loading".into());
            return Ok(Some(out));
        }
        if let Some(why) = &q.failed {
            out.response_note = Some(format!("no response: {why}"));
            return Ok(Some(out));
        }
        let got = page
            .raw()
            .call_within(
                Some(&q.session),
                "Network.getResponseBody",
                json!({"requestId": q.cdp_id}),
                BODY_TIMEOUT,
            )
            .await;
        let got = match got {
            Ok(v) => v,
            Err(CdpError::Protocol { .. }) if q.pending() => {
                out.response_note = Some("not ended yet (still loading, or the page has not read it)".into());
                return Ok(Some(out));
            }
            Err(CdpError::Protocol { .. }) => {
                out.response_note =
                    Some("the browser no longer has it (a redirect, or the page moved on)".into());
                return Ok(Some(out));
            }
            Err(e) => return Err(e),
        };
        let raw = str_field(&got, "body").unwrap_or_default();
        let bytes = if got.get("base64Encoded").and_then(Value::as_bool).unwrap_or(false) {
            base64::engine::general_purpose::STANDARD.decode(raw).unwrap_or_default()
        } else {
            raw.as_bytes().to_vec()
        };
        out.response_bytes = Some(bytes.len());
        match (textual(q.mime.as_deref()), String::from_utf8(bytes)) {
            (true, Ok(text)) => out.response = Some(red.body(q.mime.as_deref(), &text)),
            _ => out.response_note = Some(format!("binary ({})", q.mime.as_deref().unwrap_or("no type"))),
        }
        Ok(Some(out))
    }
}

/// Whether a response of this MIME type reads as text.
fn textual(mime: Option<&str>) -> bool {
    let m = mime.unwrap_or("").to_ascii_lowercase();
    m.starts_with("text/")
        || ["json", "xml", "javascript", "ecmascript", "x-www-form-urlencoded", "svg", "csv"]
            .iter()
            .any(|t| m.contains(t))
}

fn lock(m: &Mutex<Records>) -> MutexGuard<'_, Records> {
    // Plain records: a panic elsewhere cannot leave them harmful.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

async fn listen(
    raw: crate::conn::RawCdp,
    mut events: tokio::sync::broadcast::Receiver<Arc<RawEvent>>,
    (session, frames): (String, Vec<String>),
    tab: String,
    records: Arc<Mutex<Records>>,
) {
    // The tab's session and those of its out-of-process frames, as they attach under it.
    let mut mine: HashSet<String> = frames.into_iter().chain([session.clone()]).collect();
    loop {
        let ev = match events.recv().await {
            Ok(ev) => ev,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => break,
        };
        let from_mine = ev.session_id.as_deref().is_some_and(|s| mine.contains(s));
        match ev.method.as_str() {
            "Target.attachedToTarget" if from_mine => {
                let child = str_field(&ev.params, "sessionId");
                let is_frame =
                    ev.params.pointer("/targetInfo/type").and_then(Value::as_str) == Some("iframe");
                if let (Some(child), true) = (child, is_frame) {
                    mine.insert(child.to_string());
                    enable(&raw, child);
                }
            }
            "Target.detachedFromTarget" if from_mine || ev.session_id.is_none() => {
                if let Some(gone) = str_field(&ev.params, "sessionId") {
                    if gone == session {
                        break;
                    }
                    mine.remove(gone);
                }
            }
            _ if from_mine => lock(&records).apply(&tab, &ev),
            _ => {}
        }
    }
}

/// The `Network.enable` parameters every enable on a tab uses (each replaces the last): request
/// bodies up to 64 KiB come with their events.
pub fn network_enable() -> Value {
    json!({"maxPostDataSize": network::POST_DATA_BYTES})
}

/// Turns on the events the record reads on `session` (queued now, answered whenever: a tab a
/// dialog blocks answers later).
fn enable(raw: &crate::conn::RawCdp, session: &str) {
    let network = raw.send(Some(session), "Network.enable", network_enable(), BODY_TIMEOUT);
    let log = raw.send(Some(session), "Log.enable", json!({}), BODY_TIMEOUT);
    tokio::spawn(async move {
        let _ = futures::future::join(network, log).await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(method: &str, params: Value) -> RawEvent {
        RawEvent { method: method.into(), session_id: Some("S".into()), params }
    }

    #[test]
    fn redirects_failures_and_bounds() {
        let mut r = Records::default();
        r.apply("T", &ev("Network.requestWillBeSent", json!({"requestId": "1", "timestamp": 1.0, "type": "Document", "request": {"method": "GET", "url": "http://a/old"}})));
        r.apply("T", &ev("Network.requestWillBeSent", json!({"requestId": "1", "timestamp": 1.1, "type": "Document", "request": {"method": "GET", "url": "http://a/new?token=s3cret"},
            "redirectResponse": {"status": 302, "mimeType": "text/html"}})));
        r.apply(
            "T",
            &ev(
                "Network.responseReceived",
                json!({"requestId": "1", "response": {"status": 200, "mimeType": "text/html"}}),
            ),
        );
        r.apply(
            "T",
            &ev(
                "Network.loadingFinished",
                json!({"requestId": "1", "timestamp": 1.3, "encodedDataLength": 900}),
            ),
        );
        r.apply(
            "U",
            &ev(
                "Network.requestWillBeSent",
                json!({"requestId": "2", "timestamp": 2.0, "request": {"url": "http://b/"}}),
            ),
        );
        r.apply(
            "U",
            &ev(
                "Network.loadingFailed",
                json!({"requestId": "2", "timestamp": 2.5, "errorText": "net::ERR_FAILED"}),
            ),
        );
        assert_eq!(r.requests.len(), 3);
        assert_eq!(
            (r.requests[0].status, r.requests[1].status, r.requests[1].size),
            (Some(302), Some(200), Some(900))
        );
        assert_eq!(r.requests[2].failed.as_deref(), Some("net::ERR_FAILED"));
        assert!(r.open.is_empty());
        for i in 0..MAX_REQUESTS + 5 {
            r.apply(
                "T",
                &ev(
                    "Network.requestWillBeSent",
                    json!({"requestId": format!("x{i}"), "request": {"url": "http://a/poll"}}),
                ),
            );
        }
        assert_eq!((r.requests.len(), r.requests_dropped), (MAX_REQUESTS, 8));
        assert!(r.open.len() <= 2 * MAX_REQUESTS);
        let first = r.requests.front().unwrap().n;
        assert_eq!(r.request(first).map(|q| q.n), Some(first));
        assert!(r.request(first - 1).is_none());
    }

    #[test]
    fn what_is_shown_is_redacted() {
        let rec = Recorder::new();
        {
            let mut r = lock(&rec.records);
            r.apply("T", &ev("Network.requestWillBeSent", json!({"requestId": "1", "request": {"method": "POST", "url": "http://a/login?next=/&token=abc",
                "postData": "user=ann&p=hunter22", "headers": {"content-type": "application/x-www-form-urlencoded"}}})));
            r.apply(
                "T",
                &ev(
                    "Runtime.consoleAPICalled",
                    json!({"type": "log", "args": [{"type": "string", "value": "logging in with hunter22"}]}),
                ),
            );
        }
        rec.note_secrets(&["hunter22".to_string()]);
        let (reqs, dropped) = rec.requests("T");
        assert_eq!(dropped, 0);
        assert_eq!(reqs[0].url, format!("http://a/login?next=/&token={}", redact::REDACTED));
        assert!(reqs[0].post_data.is_none(), "a listing carries no bodies");
        let (msgs, _) = rec.messages("T");
        assert_eq!(msgs[0].text, format!("logging in with {}", redact::REDACTED));
        assert!(rec.requests("U").0.is_empty());
    }

    #[test]
    fn textual_types() {
        assert!(textual(Some("application/json; charset=utf-8")) && textual(Some("text/csv")));
        assert!(!textual(Some("image/png")) && !textual(None));
    }
}
