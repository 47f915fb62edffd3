//! [`Endpoint`]: where a running browser (or a pool of them) is reached, and with which headers.
//!
//! A browser's own DevTools endpoint is `ws://host:port/devtools/browser/<id>`, or
//! `http://host:port`, which `/json/version` resolves to it. A pool (browserless, a hosted one)
//! hands out a browser per WebSocket connection at a URL such as
//! `ws://pool:3000/chromium?token=…`, and may want a header on the upgrade
//! (`Authorization: Bearer …`). Header values and query strings carry secrets: `Debug` and
//! [`Endpoint::redacted`] leave them out.

/// Where a browser is reached: its URL and the HTTP headers the connection sends.
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    url: String,
    headers: Vec<(String, String)>,
}

/// What `{session}` in an endpoint's URL becomes: see [`Endpoint::for_session`].
pub const SESSION_PLACEHOLDER: &str = "{session}";

impl Endpoint {
    /// An endpoint at `url` (`ws://`, `wss://` or `http://`), with no headers.
    pub fn new(url: impl Into<String>) -> Endpoint {
        Endpoint { url: url.into(), headers: Vec::new() }
    }

    /// The same endpoint, also sending the header `name: value`.
    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Endpoint {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The headers sent on the upgrade (and on `/json/version`).
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The endpoint one session connects to: `{session}` in the URL replaced by `id` (a pool
    /// that routes or labels by it); without the placeholder, the same endpoint.
    pub fn for_session(&self, id: &str) -> Endpoint {
        Endpoint { url: self.url.replace(SESSION_PLACEHOLDER, id), headers: self.headers.clone() }
    }

    /// The URL as errors and logs show it: without its query, where tokens travel.
    pub fn redacted(&self) -> String {
        crate::conn::redact_url(&self.url)
    }
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Endpoint").field("url", &self.redacted()).field("headers", &names).finish()
    }
}

impl From<&str> for Endpoint {
    fn from(url: &str) -> Endpoint {
        Endpoint::new(url)
    }
}

impl From<&String> for Endpoint {
    fn from(url: &String) -> Endpoint {
        Endpoint::new(url.as_str())
    }
}

impl From<String> for Endpoint {
    fn from(url: String) -> Endpoint {
        Endpoint::new(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_stay_out_of_debug_and_errors() {
        let e = Endpoint::new("ws://pool:3000/chromium?token=s3cret")
            .with_header("Authorization", "Bearer s3cret");
        let shown = format!("{e:?} {}", e.redacted());
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("ws://pool:3000/chromium") && shown.contains("Authorization"), "{shown}");
    }

    #[test]
    fn a_session_fills_the_placeholder() {
        let e = Endpoint::new("ws://pool/chromium?token=t&label={session}").with_header("X", "y");
        let s = e.for_session("abc");
        assert_eq!(s.url(), "ws://pool/chromium?token=t&label=abc");
        assert_eq!(s.headers(), e.headers());
        assert_eq!(Endpoint::new("ws://a").for_session("abc").url(), "ws://a");
    }
}
