//! Tabs of a browser: list, switch, open, close. Popups opened by a page are ordinary tabs
//! here; [`crate::settle`] reports them in `Outcome::opened` of the action that opened them.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::browser::Browser;
use crate::conn::str_field;
use crate::error::CdpError;
use crate::page::PageHandle;

/// One tab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tab {
    /// Its CDP target id.
    pub id: String,
    /// Its URL.
    pub url: String,
    /// Its title.
    pub title: String,
    /// The tab that opened it (a popup), if any.
    pub opener: Option<String>,
    /// The browser context it lives in (the default context has an id too).
    pub context: Option<String>,
}

/// The browser's tabs, in the browser's order.
pub async fn list(browser: &Browser) -> Result<Vec<Tab>, CdpError> {
    let v = browser.raw().call(None, "Target.getTargets", json!({})).await?;
    let infos = v.get("targetInfos").and_then(Value::as_array).cloned().unwrap_or_default();
    Ok(infos
        .iter()
        .filter(|t| str_field(t, "type") == Some("page"))
        .map(|t| Tab {
            id: str_field(t, "targetId").unwrap_or_default().to_string(),
            url: str_field(t, "url").unwrap_or_default().to_string(),
            title: str_field(t, "title").unwrap_or_default().to_string(),
            opener: str_field(t, "openerId").map(str::to_string),
            context: str_field(t, "browserContextId").map(str::to_string),
        })
        .collect())
}

/// Brings the tab `id` to the front ([`CdpError::NoSuchTarget`] when there is none).
pub async fn switch(browser: &Browser, id: &str) -> Result<(), CdpError> {
    if !list(browser).await?.iter().any(|t| t.id == id) {
        return Err(CdpError::NoSuchTarget(id.to_string()));
    }
    browser.raw().call(None, "Target.activateTarget", json!({"targetId": id})).await?;
    Ok(())
}

/// Opens a new tab at `url` (with the errors of [`PageHandle::goto`]). On an error the new tab
/// is closed again.
pub async fn open(browser: &Browser, url: &str) -> Result<PageHandle, CdpError> {
    open_in(browser, None, url, crate::page::LOAD_TIMEOUT).await
}

/// [`open`] in the browser context `context` (`None`: the default one), waiting at most `load`
/// for the page's load event.
pub async fn open_in(
    browser: &Browser,
    context: Option<&str>,
    url: &str,
    load: Duration,
) -> Result<PageHandle, CdpError> {
    let page = browser.new_page_in(context, "about:blank").await?;
    if url != "about:blank" {
        if let Err(e) = page.goto_within(url, load).await {
            let _ = close(browser, page.target_id()).await;
            return Err(e);
        }
    }
    Ok(page)
}

/// How long [`close`] waits for a closed tab to leave the list.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Closes the tab `id` ([`CdpError::NoSuchTarget`] when there is none) and waits (briefly) until
/// the browser no longer lists it, so a list right after does not show it.
pub async fn close(browser: &Browser, id: &str) -> Result<(), CdpError> {
    if !list(browser).await?.iter().any(|t| t.id == id) {
        return Err(CdpError::NoSuchTarget(id.to_string()));
    }
    browser.raw().call(None, "Target.closeTarget", json!({"targetId": id})).await?;
    let until = Instant::now() + CLOSE_WAIT;
    while Instant::now() < until && list(browser).await?.iter().any(|t| t.id == id) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}
