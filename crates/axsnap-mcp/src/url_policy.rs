//! [`UrlPolicy`]: which URLs an agent may open. The server checks every URL a tool is given
//! (`navigate`, `tabs new`) and every URL an action leads to.
//!
//! - `http:` and `https:` are the web; `about:blank` is always allowed.
//! - Local and browser-internal schemes (`file:`, `data:`, `chrome:`, `devtools:`,
//!   `view-source:`, `blob:`, `filesystem:`, other `about:` pages, `chrome-extension:`) are
//!   refused unless [`UrlPolicy::allow_local`]: they read the machine's files or the
//!   browser's own pages.
//! - `javascript:` URLs are never navigations: refused always (actions run scripts).
//! - Any other scheme is refused as unknown.
//! - Origin lists: a URL whose origin matches a blocked entry is refused; when the allowed
//!   list is not empty, only matching URLs pass. An entry is an origin
//!   (`https://example.org`, `http://127.0.0.1:8000`), a host (`example.org`, any scheme and
//!   port) or a host pattern (`*.example.org`: the host and its subdomains).

use thiserror::Error;

/// Why a URL is refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum UrlRefused {
    /// Not a URL at all.
    #[error("{url:?} is not a URL; give an absolute URL such as https://example.org/")]
    Malformed {
        /// What was given.
        url: String,
    },
    /// A local or browser-internal scheme, refused without `--allow-local`.
    #[error("{scheme}: URLs open local files or browser-internal pages and are refused; start the server with --allow-local to allow them")]
    Local {
        /// The scheme.
        scheme: String,
    },
    /// A `javascript:` URL.
    #[error("javascript: URLs are scripts, not pages, and are refused; act on the page's elements instead")]
    Script,
    /// A scheme the browser cannot open as a web page.
    #[error("unknown URL scheme {scheme:?}; only http: and https: pages can be opened")]
    UnknownScheme {
        /// The scheme.
        scheme: String,
    },
    /// The origin is on the blocked list.
    #[error("{origin} is blocked by the server's --blocked-origins")]
    Blocked {
        /// The URL's origin.
        origin: String,
    },
    /// The allowed list is set and the origin is not on it.
    #[error("{origin} is not in the server's --allowed-origins ({allowed})")]
    NotAllowed {
        /// The URL's origin.
        origin: String,
        /// The allowed entries.
        allowed: String,
    },
}

/// Which URLs may be opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlPolicy {
    /// Allow local and browser-internal schemes (`file:`, `data:`, `chrome:`, ...).
    pub allow_local: bool,
    /// When not empty, only these origins, hosts or host patterns.
    pub allowed_origins: Vec<String>,
    /// Never these origins, hosts or host patterns.
    pub blocked_origins: Vec<String>,
}

const LOCAL_SCHEMES: &[&str] =
    &["file", "data", "chrome", "devtools", "view-source", "blob", "filesystem", "about", "chrome-extension"];

impl UrlPolicy {
    /// Checks `url`; `Ok` means it may be opened.
    ///
    /// ```
    /// use axsnap_mcp::UrlPolicy;
    /// let p = UrlPolicy { blocked_origins: vec!["*.ads.example".into()], ..UrlPolicy::default() };
    /// assert!(p.check("https://example.org/a").is_ok());
    /// assert!(p.check("file:///etc/passwd").is_err());
    /// assert!(p.check("https://x.ads.example/").is_err());
    /// ```
    pub fn check(&self, url: &str) -> Result<(), UrlRefused> {
        let trimmed = url.trim();
        if trimmed == "about:blank" {
            return Ok(());
        }
        let parsed = url::Url::parse(trimmed).map_err(|_| UrlRefused::Malformed { url: clip(url) })?;
        let scheme = parsed.scheme().to_ascii_lowercase();
        match scheme.as_str() {
            "http" | "https" => {}
            "javascript" => return Err(UrlRefused::Script),
            s if LOCAL_SCHEMES.contains(&s) => {
                if self.allow_local {
                    return Ok(());
                }
                return Err(UrlRefused::Local { scheme });
            }
            _ => return Err(UrlRefused::UnknownScheme { scheme: clip(&scheme) }),
        }
        let host = parsed.host_str().unwrap_or_default().to_ascii_lowercase();
        let port = parsed.port_or_known_default();
        let origin = parsed.origin().ascii_serialization();
        if self.blocked_origins.iter().any(|e| matches_entry(e, &scheme, &host, port)) {
            return Err(UrlRefused::Blocked { origin });
        }
        if !self.allowed_origins.is_empty()
            && !self.allowed_origins.iter().any(|e| matches_entry(e, &scheme, &host, port))
        {
            return Err(UrlRefused::NotAllowed { origin, allowed: self.allowed_origins.join(", ") });
        }
        Ok(())
    }
}

/// Whether an allowed/blocked entry covers a URL's scheme, host and port.
fn matches_entry(entry: &str, scheme: &str, host: &str, port: Option<u16>) -> bool {
    let entry = entry.trim().trim_end_matches('/').to_ascii_lowercase();
    if entry.is_empty() {
        return false;
    }
    if entry.contains("://") {
        let Ok(e) = url::Url::parse(&entry) else { return false };
        let Some(eh) = e.host_str() else { return false };
        return e.scheme() == scheme && host_matches(eh, host) && e.port_or_known_default() == port;
    }
    // A bare host may carry a port: `127.0.0.1:8000`.
    match entry.rsplit_once(':') {
        Some((h, p)) if p.chars().all(|c| c.is_ascii_digit()) && !h.is_empty() => {
            host_matches(h, host) && p.parse::<u16>().ok() == port
        }
        _ => host_matches(&entry, host),
    }
}

fn host_matches(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(base) => host == base || host.ends_with(&format!(".{base}")),
        None => pattern == host,
    }
}

/// A URL as it may appear in an error: at most 200 characters.
fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= 200 {
        return s.to_string();
    }
    let head: String = s.chars().take(200).collect();
    format!("{head}…+{} chars", n - 200)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemes() {
        let p = UrlPolicy::default();
        assert!(p.check("http://127.0.0.1:9/").is_ok());
        assert!(p.check("about:blank").is_ok());
        for local in [
            "file:///etc/passwd",
            "data:text/html,hi",
            "chrome://crash",
            "view-source:http://a/",
            "devtools://x",
        ] {
            assert!(matches!(p.check(local), Err(UrlRefused::Local { .. })), "{local}");
        }
        assert_eq!(p.check("javascript:alert(1)"), Err(UrlRefused::Script));
        assert!(matches!(p.check("foo://bar/baz"), Err(UrlRefused::UnknownScheme { .. })));
        assert!(matches!(p.check("not a url"), Err(UrlRefused::Malformed { .. })));
        let local = UrlPolicy { allow_local: true, ..UrlPolicy::default() };
        assert!(local.check("file:///tmp/x.html").is_ok());
        assert_eq!(local.check("javascript:1"), Err(UrlRefused::Script));
    }

    #[test]
    fn origin_lists() {
        let p = UrlPolicy {
            allowed_origins: vec!["http://127.0.0.1:8000".into(), "*.example.org".into()],
            blocked_origins: vec!["bad.example.org".into()],
            ..UrlPolicy::default()
        };
        assert!(p.check("http://127.0.0.1:8000/x").is_ok());
        assert!(matches!(p.check("http://127.0.0.1:8001/x"), Err(UrlRefused::NotAllowed { .. })));
        assert!(p.check("https://example.org/").is_ok());
        assert!(p.check("https://a.example.org/").is_ok());
        assert!(matches!(p.check("https://bad.example.org/"), Err(UrlRefused::Blocked { .. })));
        assert!(matches!(p.check("https://example.com/"), Err(UrlRefused::NotAllowed { .. })));
        let ported = UrlPolicy { blocked_origins: vec!["127.0.0.1:9000".into()], ..UrlPolicy::default() };
        assert!(ported.check("http://127.0.0.1:9000/").is_err());
        assert!(ported.check("http://127.0.0.1:9001/").is_ok());
    }

    #[test]
    fn errors_are_bounded() {
        let long = format!("foo://{}", "a".repeat(10_000));
        let msg = UrlPolicy::default().check(&long).unwrap_err().to_string();
        assert!(msg.len() < 400, "{}", msg.len());
    }
}
