//! [`Request`]: one HTTP exchange of a tab as the recorder keeps it, built from the Network
//! domain's events (`requestWillBeSent`, `responseReceived`, `loadingFinished`,
//! `loadingFailed`). A redirect closes one entry and opens the next under the same CDP id.

use serde_json::Value;

use crate::conn::str_field;

/// Longest request body kept, in bytes (a bigger one is kept cut, and says so).
pub(super) const POST_DATA_BYTES: usize = 64 * 1024;
/// Longest URL kept, in bytes (a `data:` URL can be megabytes).
const URL_BYTES: usize = 4 * 1024;

/// One request of a tab.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Its number in the recorder, from 1 (what `body` asks by).
    pub n: u64,
    /// The CDP id of the tab that made it.
    pub tab: String,
    /// `GET`, `POST`, ...
    pub method: String,
    /// The URL as requested (unredacted: [`super::Recorder`] redacts on the way out).
    pub url: String,
    /// The resource type: `Document`, `Script`, `XHR`, `Fetch`, `Image`, ...
    pub kind: String,
    /// The response's status, once it came.
    pub status: Option<u16>,
    /// The response's MIME type.
    pub mime: Option<String>,
    /// The request's content type, for reading its body.
    pub request_type: Option<String>,
    /// Bytes received over the wire, once it finished.
    pub size: Option<u64>,
    /// Milliseconds from sending to the end (finished or failed).
    pub millis: Option<f64>,
    /// Why it failed (`net::ERR_...`, `canceled`), when it did.
    pub failed: Option<String>,
    /// Served from the memory or disk cache.
    pub cached: bool,
    /// A redirect: the next entry of the same request is where it led.
    pub redirected: bool,
    /// The request body as sent, when the page gave it (at most `POST_DATA_BYTES`).
    pub post_data: Option<String>,
    /// The body was longer than what is kept, or not sent with the event.
    pub post_data_cut: bool,
    pub(super) cdp_id: String,
    /// The CDP session that saw it (the tab's, or an out-of-process frame's): where its body is.
    pub(super) session: String,
    pub(super) started: f64,
}

impl Request {
    /// Whether it is still waiting for its end.
    pub fn pending(&self) -> bool {
        self.millis.is_none() && self.failed.is_none()
    }

    /// A new entry from `Network.requestWillBeSent`.
    pub(super) fn sent(n: u64, tab: &str, session: &str, p: &Value) -> Option<Request> {
        let cdp_id = str_field(p, "requestId")?.to_string();
        let req = p.get("request")?;
        let (post_data, post_data_cut) = match str_field(req, "postData") {
            Some(d) if d.len() > POST_DATA_BYTES => {
                let mut end = POST_DATA_BYTES;
                while !d.is_char_boundary(end) {
                    end -= 1;
                }
                (Some(d[..end].to_string()), true)
            }
            Some(d) => (Some(d.to_string()), false),
            None => (None, req.get("hasPostData").and_then(Value::as_bool).unwrap_or(false)),
        };
        let request_type = req.get("headers").and_then(Value::as_object).and_then(|h| {
            h.iter().find(|(k, _)| k.eq_ignore_ascii_case("content-type")).and_then(|(_, v)| v.as_str())
        });
        Some(Request {
            n,
            tab: tab.to_string(),
            method: str_field(req, "method").unwrap_or("GET").to_string(),
            url: cut_url(str_field(req, "url").unwrap_or_default()),
            kind: str_field(p, "type").unwrap_or("Other").to_string(),
            status: None,
            mime: None,
            request_type: request_type.map(str::to_string),
            size: None,
            millis: None,
            failed: None,
            cached: false,
            redirected: false,
            post_data,
            post_data_cut,
            cdp_id,
            session: session.to_string(),
            started: p.get("timestamp").and_then(Value::as_f64).unwrap_or(0.0),
        })
    }

    /// A response arrived (`Network.responseReceived`, or the `redirectResponse` of the next
    /// hop's `requestWillBeSent`).
    pub(super) fn responded(&mut self, response: &Value) {
        self.status = response.get("status").and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok());
        self.mime = str_field(response, "mimeType").filter(|m| !m.is_empty()).map(str::to_string);
        self.cached = response.get("fromDiskCache").and_then(Value::as_bool).unwrap_or(false)
            || response.get("fromPrefetchCache").and_then(Value::as_bool).unwrap_or(false)
            || response.get("fromServiceWorker").and_then(Value::as_bool).unwrap_or(false);
    }

    /// The exchange ended at `timestamp` (seconds, the browser's monotonic clock).
    pub(super) fn ended(&mut self, timestamp: Option<f64>, size: Option<u64>) {
        let end = timestamp.unwrap_or(self.started);
        self.millis = Some(((end - self.started) * 1000.0).max(0.0));
        if size.is_some() {
            self.size = size;
        }
    }

    /// It failed (`Network.loadingFailed`).
    pub(super) fn failed(&mut self, p: &Value) {
        let canceled = p.get("canceled").and_then(Value::as_bool).unwrap_or(false);
        let text = str_field(p, "errorText").filter(|t| !t.is_empty()).unwrap_or("failed");
        self.failed = Some(if canceled { "canceled".to_string() } else { text.to_string() });
        self.ended(p.get("timestamp").and_then(Value::as_f64), None);
    }
}

/// A URL of at most [`URL_BYTES`], cut on a character boundary with what was left out said.
fn cut_url(url: &str) -> String {
    if url.len() <= URL_BYTES {
        return url.to_string();
    }
    let mut end = URL_BYTES;
    while !url.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…+{} bytes", &url[..end], url.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_exchange_from_its_events() {
        let p = json!({"requestId": "7.1", "type": "Fetch", "timestamp": 10.0,
            "request": {"method": "POST", "url": "http://a/api", "postData": "{\"a\":1}",
                        "headers": {"Content-Type": "application/json"}}});
        let mut r = Request::sent(3, "T", "S", &p).unwrap();
        assert!(r.pending());
        assert_eq!(
            (r.method.as_str(), r.kind.as_str(), r.request_type.as_deref()),
            ("POST", "Fetch", Some("application/json"))
        );
        r.responded(&json!({"status": 201, "mimeType": "application/json"}));
        r.ended(Some(10.25), Some(512));
        assert_eq!((r.status, r.size, r.millis), (Some(201), Some(512), Some(250.0)));
        assert!(!r.pending());
        let mut f = Request::sent(
            4,
            "T",
            "S",
            &json!({"requestId": "8", "timestamp": 1.0, "request": {"url": "http://b"}}),
        )
        .unwrap();
        f.failed(&json!({"errorText": "net::ERR_CONNECTION_REFUSED", "timestamp": 1.5}));
        assert_eq!(f.failed.as_deref(), Some("net::ERR_CONNECTION_REFUSED"));
        assert!(Request::sent(5, "T", "S", &json!({"request": {}})).is_none());
    }

    #[test]
    fn long_urls_are_cut() {
        let url = format!("data:image/png;base64,{}", "é".repeat(URL_BYTES));
        let r = Request::sent(1, "T", "S", &json!({"requestId": "1", "request": {"url": url}})).unwrap();
        assert!(r.url.len() < URL_BYTES + 32 && r.url.ends_with(" bytes"), "{}", r.url.len());
    }

    #[test]
    fn long_bodies_are_cut_on_a_char_boundary() {
        let body = "é".repeat(POST_DATA_BYTES);
        let r =
            Request::sent(1, "T", "S", &json!({"requestId": "1", "request": {"url": "u", "postData": body}}))
                .unwrap();
        assert!(r.post_data_cut && r.post_data.unwrap().len() <= POST_DATA_BYTES);
    }
}
