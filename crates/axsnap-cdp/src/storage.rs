//! A browser context's cookies and local storage, read and written whole: [`StorageState`]
//! (in Playwright's `storageState` JSON form, so a file saved by either tool loads in the
//! other), and the CDP calls behind it.
//!
//! Local storage belongs to an origin and is only reachable from a document of that origin.
//! Reading takes it from the context's open tabs; writing goes through a scratch tab whose
//! requests are answered by the browser itself ([`Fetch`](https://chromedevtools.github.io/devtools-protocol/tot/Fetch/)
//! interception, an empty page), so no site is contacted and none need be running.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::browser::Browser;
use crate::conn::str_field;
use crate::error::CdpError;
use crate::page::PageHandle;

/// How long the scratch tab may take to show an origin's empty page.
const ORIGIN_LOAD: Duration = Duration::from_secs(5);

/// Cookies and local storage, as Playwright's `storageState` writes them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StorageState {
    /// The cookies.
    #[serde(default)]
    pub cookies: Vec<Cookie>,
    /// Local storage, by origin.
    #[serde(default)]
    pub origins: Vec<OriginStorage>,
}

/// One cookie.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cookie {
    /// Its name.
    pub name: String,
    /// Its value (a secret, often: never shown in answers).
    pub value: String,
    /// Its domain (`.example.com` for a domain cookie).
    pub domain: String,
    /// Its path.
    #[serde(default = "root_path")]
    pub path: String,
    /// When it expires, in seconds since the epoch; -1: when the browser closes.
    #[serde(default = "session_expiry")]
    pub expires: f64,
    /// Hidden from scripts.
    #[serde(default)]
    pub http_only: bool,
    /// Sent over HTTPS only.
    #[serde(default)]
    pub secure: bool,
    /// `Strict`, `Lax` or `None`.
    #[serde(default = "lax")]
    pub same_site: String,
}

fn root_path() -> String {
    "/".into()
}

fn session_expiry() -> f64 {
    -1.0
}

fn lax() -> String {
    "Lax".into()
}

/// One origin's local storage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OriginStorage {
    /// `scheme://host[:port]`.
    pub origin: String,
    /// Its items.
    #[serde(default)]
    pub local_storage: Vec<Item>,
}

/// One local storage item.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// Its key.
    pub name: String,
    /// Its value.
    pub value: String,
}

impl Cookie {
    /// A cookie as `Storage.getCookies` describes it.
    fn from_cdp(c: &Value) -> Option<Cookie> {
        let session = c.get("session").and_then(Value::as_bool).unwrap_or(false);
        Some(Cookie {
            name: str_field(c, "name")?.to_string(),
            value: str_field(c, "value").unwrap_or_default().to_string(),
            domain: str_field(c, "domain").unwrap_or_default().to_string(),
            path: str_field(c, "path").unwrap_or("/").to_string(),
            expires: if session { -1.0 } else { c.get("expires").and_then(Value::as_f64).unwrap_or(-1.0) },
            http_only: c.get("httpOnly").and_then(Value::as_bool).unwrap_or(false),
            secure: c.get("secure").and_then(Value::as_bool).unwrap_or(false),
            same_site: str_field(c, "sameSite").unwrap_or("Lax").to_string(),
        })
    }

    /// The cookie as `Storage.setCookies` takes it.
    fn to_cdp(&self) -> Value {
        let mut v = json!({
            "name": self.name, "value": self.value, "domain": self.domain, "path": self.path,
            "httpOnly": self.http_only, "secure": self.secure,
        });
        if matches!(self.same_site.as_str(), "Strict" | "Lax" | "None") {
            v["sameSite"] = json!(self.same_site);
        }
        if self.expires > 0.0 {
            v["expires"] = json!(self.expires);
        }
        v
    }

    /// Whether it is sent to `host` (its domain, or a subdomain of a `.domain` cookie).
    pub fn matches_host(&self, host: &str) -> bool {
        let d = self.domain.trim_start_matches('.');
        host.eq_ignore_ascii_case(d)
            || host.to_ascii_lowercase().ends_with(&format!(".{}", d.to_ascii_lowercase()))
    }
}

fn context_param(mut params: Value, context: Option<&str>) -> Value {
    if let Some(c) = context {
        params["browserContextId"] = json!(c);
    }
    params
}

/// Every cookie of the context `context` (`None`: the default one).
pub async fn cookies(browser: &Browser, context: Option<&str>) -> Result<Vec<Cookie>, CdpError> {
    cookies_of(browser, context).await
}

async fn cookies_of(browser: &Browser, context: Option<&str>) -> Result<Vec<Cookie>, CdpError> {
    let got = browser.raw().call(None, "Storage.getCookies", context_param(json!({}), context)).await?;
    Ok(got
        .get("cookies")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Cookie::from_cdp)
        .collect())
}

/// Sets `cookies` in the context (replacing those of the same name, domain and path). A
/// cookie that expired is removed.
pub async fn set_cookies(
    browser: &Browser,
    context: Option<&str>,
    cookies: &[Cookie],
) -> Result<(), CdpError> {
    if cookies.is_empty() {
        return Ok(());
    }
    // A profile's cookie store loads on first use and drops the session cookies it holds as
    // it does; a cookie set before that is dropped with them (seen on a launched Chromium's
    // default context): read first, so the store has loaded.
    browser.raw().call(None, "Storage.getCookies", context_param(json!({}), context)).await?;
    let list: Vec<Value> = cookies.iter().map(Cookie::to_cdp).collect();
    browser.raw().call(None, "Storage.setCookies", context_param(json!({"cookies": list}), context)).await?;
    Ok(())
}

/// How long after a launch Chromium may still drop the session cookies of its default
/// context: it does, once, a moment after it starts (seen at 0.4 to 0.7 s here), whatever was
/// set before.
const STARTUP_DROP: Duration = Duration::from_secs(2);

/// [`set_cookies`], then, in a launched browser's default context while it may still drop
/// session cookies (`STARTUP_DROP`), watches them until it did (and sets again those that
/// went) or that time is past.
pub async fn set_cookies_kept(
    browser: &Browser,
    context: Option<&str>,
    cookies: &[Cookie],
) -> Result<(), CdpError> {
    set_cookies(browser, context, cookies).await?;
    if context.is_some() || !browser.launched() {
        return Ok(());
    }
    while browser.age() < STARTUP_DROP {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = cookies_of(browser, context).await?;
        let gone: Vec<Cookie> = cookies
            .iter()
            .filter(|c| {
                !now.iter().any(|n| {
                    n.name == c.name
                        && n.domain.trim_start_matches('.') == c.domain.trim_start_matches('.')
                        && n.path == c.path
                })
            })
            .cloned()
            .collect();
        if !gone.is_empty() {
            tracing::debug!("the browser dropped {} cookie(s) as it started; setting them again", gone.len());
            set_cookies(browser, context, &gone).await?;
            // It drops them once: the ones set again stay.
            break;
        }
    }
    Ok(())
}

/// Removes every cookie of the context.
pub async fn clear_cookies(browser: &Browser, context: Option<&str>) -> Result<(), CdpError> {
    browser.raw().call(None, "Storage.clearCookies", context_param(json!({}), context)).await?;
    Ok(())
}

/// The local storage of the document `page` shows (`None`: an opaque origin such as
/// `about:blank` or `data:`, or one that refuses storage).
pub async fn local_storage(page: &PageHandle) -> Result<Option<OriginStorage>, CdpError> {
    let v = page
        .eval(
            "(() => { try { const o = location.origin; if (!o || o === 'null') return null; \
             return {origin: o, localStorage: Object.keys(localStorage).map(k => ({name: k, value: localStorage.getItem(k)}))}; \
             } catch (e) { return null; } })()",
        )
        .await?;
    Ok(serde_json::from_value::<Option<OriginStorage>>(v).ok().flatten())
}

/// Writes each origin's items into local storage through `page`, a scratch tab of the
/// context: its requests are answered here with an empty page, so no site is contacted. Adds
/// to what is there, replacing items of the same key; returns how many items it wrote. The
/// tab is left at the last origin's empty page: close it.
pub async fn put_local_storage(page: &PageHandle, origins: &[OriginStorage]) -> Result<usize, CdpError> {
    let origins: Vec<&OriginStorage> = origins.iter().filter(|o| !o.local_storage.is_empty()).collect();
    if origins.is_empty() {
        return Ok(0);
    }
    write_origins(page, &origins).await
}

async fn write_origins(page: &PageHandle, origins: &[&OriginStorage]) -> Result<usize, CdpError> {
    // Every request of the scratch tab is answered here with an empty page.
    let mut events = page.raw().subscribe();
    let session = page.session_id().to_string();
    let raw = page.raw().clone();
    let answering = tokio::spawn(async move {
        loop {
            let ev = match events.recv().await {
                Ok(ev) => ev,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            };
            if ev.method != "Fetch.requestPaused" || ev.session_id.as_deref() != Some(session.as_str()) {
                continue;
            }
            let Some(id) = str_field(&ev.params, "requestId") else { continue };
            drop(raw.send(
                Some(&session),
                "Fetch.fulfillRequest",
                json!({"requestId": id, "responseCode": 200,
                       "responseHeaders": [{"name": "Content-Type", "value": "text/html"}], "body": ""}),
                Duration::from_secs(5),
            ));
        }
    });
    let result = async {
        page.call("Fetch.enable", json!({"patterns": [{"urlPattern": "*"}]})).await?;
        let mut written = 0;
        for o in origins {
            page.goto_within(&format!("{}/", o.origin.trim_end_matches('/')), ORIGIN_LOAD).await?;
            let items = serde_json::to_string(&o.local_storage).unwrap_or_else(|_| "[]".into());
            let n = page
                .eval(&format!(
                    "(() => {{ const items = {items}; for (const i of items) localStorage.setItem(i.name, i.value); return items.length; }})()"
                ))
                .await?;
            written += n.as_u64().unwrap_or(0) as usize;
        }
        Ok(written)
    }
    .await;
    answering.abort();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_playwright_storage_state() {
        let text = r#"{"cookies":[{"name":"sid","value":"abc","domain":"127.0.0.1","path":"/","expires":-1,
            "httpOnly":true,"secure":false,"sameSite":"Lax"},{"name":"pref","value":"dark","domain":".example.com"}],
            "origins":[{"origin":"http://127.0.0.1:8000","localStorage":[{"name":"theme","value":"dark"}]}]}"#;
        let s: StorageState = serde_json::from_str(text).unwrap();
        assert_eq!(s.cookies.len(), 2);
        assert!(s.cookies[0].http_only && s.cookies[1].path == "/" && s.cookies[1].expires == -1.0);
        assert_eq!(s.origins[0].local_storage[0].name, "theme");
        let back: StorageState = serde_json::from_str(&serde_json::to_string(&s).unwrap()).unwrap();
        assert_eq!(back, s);
        assert!(serde_json::to_string(&s).unwrap().contains("\"httpOnly\":true"));
    }

    #[test]
    fn cookies_to_and_from_cdp() {
        let c = Cookie::from_cdp(&json!({"name": "a", "value": "1", "domain": ".x.org", "path": "/p",
            "expires": 1.9e9, "session": false, "httpOnly": false, "secure": true, "sameSite": "Strict"}))
        .unwrap();
        assert_eq!(c.to_cdp()["expires"], json!(1.9e9));
        assert!(c.matches_host("x.org") && c.matches_host("www.x.org") && !c.matches_host("y.org"));
        let s = Cookie::from_cdp(
            &json!({"name": "b", "value": "2", "domain": "h", "expires": 5.0, "session": true}),
        )
        .unwrap();
        assert_eq!(s.expires, -1.0);
        assert!(s.to_cdp().get("expires").is_none());
    }
}
