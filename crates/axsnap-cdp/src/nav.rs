//! Navigation of a tab: go to a URL, back, forward, reload; each waits for the page to settle.

use axsnap_core::backend::Outcome;
use axsnap_core::progress;
use serde_json::{json, Value};

use crate::error::CdpError;
use crate::page::PageHandle;
use crate::settle::{SettleOptions, Watcher};

/// Goes to `url` (the errors of [`PageHandle::goto`]: unreachable, not HTML, a download), then
/// settles.
pub async fn navigate(page: &PageHandle, url: &str, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    let watcher = Watcher::start(page).await?;
    progress::report(|| {
        let url = crate::record::Redactor::new(Vec::new()).url(url);
        format!("loading {}", axsnap_core::caps::cap(&url, 200))
    });
    // A `beforeunload` dialog stops the navigation before it starts: then the tab has not
    // navigated (yet); accepting the dialog lets it go on.
    let gone = watcher.run(page.goto_within(url, opts.load)).await?.is_some();
    let mut out = watcher.settle(opts, false).await?;
    out.navigated |= gone;
    Ok(out)
}

/// Settles a tab that another tab just opened (a link with `target=_blank`, `window.open`):
/// it was loading before anyone watched it, so it is waited for as a navigation is, from
/// wherever it is now (still at `about:blank` while its server answers, or built by its
/// scripts after the load).
pub async fn arrive(page: &PageHandle, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    let watcher = Watcher::start(page).await?;
    let href = page.eval_within("location.href", std::time::Duration::from_secs(1)).await;
    let pending = matches!(href, Ok(Value::String(ref u)) if u == "about:blank");
    watcher.settle_arrival(opts, pending).await
}

/// Goes one entry back in the tab's history ([`CdpError::NoHistory`] at the first entry).
pub async fn back(page: &PageHandle, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    history(page, -1, "back", opts).await
}

/// Goes one entry forward in the tab's history ([`CdpError::NoHistory`] at the last entry).
pub async fn forward(page: &PageHandle, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    history(page, 1, "forward", opts).await
}

/// Reloads the page.
pub async fn reload(page: &PageHandle, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    let watcher = Watcher::start(page).await?;
    progress::report(|| "reloading the page".to_string());
    watcher.run(page.call("Page.reload", json!({}))).await?;
    watcher.settle(opts, true).await
}

async fn history(
    page: &PageHandle,
    step: i64,
    word: &'static str,
    opts: &SettleOptions,
) -> Result<Outcome, CdpError> {
    let h = page.call("Page.getNavigationHistory", json!({})).await?;
    let current = h.get("currentIndex").and_then(Value::as_i64).unwrap_or(0);
    let entries = h.get("entries").and_then(Value::as_array).cloned().unwrap_or_default();
    let target = current + step;
    let entry = usize::try_from(target).ok().and_then(|i| entries.get(i)).ok_or(CdpError::NoHistory(word))?;
    let id = entry.get("id").and_then(Value::as_i64).ok_or_else(|| CdpError::BadResponse {
        method: "Page.getNavigationHistory".into(),
        reason: "history entry without id".into(),
    })?;
    let watcher = Watcher::start(page).await?;
    progress::report(|| format!("going {word} in the tab's history"));
    watcher.run(page.call("Page.navigateToHistoryEntry", json!({"entryId": id}))).await?;
    watcher.settle(opts, true).await
}
