//! A tab whose renderer does not answer (an endless script, a synchronous request the network
//! never answers) cannot be navigated away: the browser waits on the renderer to leave the
//! page. Before a navigation such a tab is given one chance (its running script is
//! terminated) and is otherwise replaced by a fresh tab under the same agent id, the old one
//! being closed from the browser side without waiting on it.

use std::time::Duration;

use axsnap_core::TargetId;
use serde_json::json;

use super::CdpBackend;
use crate::error::CdpError;
use crate::page::PageHandle;

/// How long a renderer may take to answer a trivial question before it counts as blocked.
const PROBE: Duration = Duration::from_millis(1000);

impl CdpBackend {
    /// `page` when its renderer answers; otherwise (after trying to stop its script) a fresh,
    /// blank tab in its place, and `true`.
    pub(super) async fn responsive_page(
        &mut self,
        target: &TargetId,
        page: PageHandle,
    ) -> Result<(PageHandle, bool), CdpError> {
        if answers(&page).await {
            return Ok((page, false));
        }
        // Runtime.terminateExecution is served while the page's main thread is busy: it stops
        // an endless script. A page blocked in a synchronous request stays blocked.
        let _ = page.call_within("Runtime.terminateExecution", json!({}), PROBE).await;
        if answers(&page).await {
            return Ok((page, false));
        }
        let browser = self.ready().await?;
        let context = self.live.as_ref().and_then(|l| l.context.clone());
        let fresh = browser.new_page_in(context.as_deref(), "about:blank").await?;
        let old = page.target_id().to_string();
        let new = fresh.target_id().to_string();
        tracing::warn!("tab {old} does not answer; replacing it with {new} for the navigation");
        // Queued now, answered whenever: nothing waits on the blocked renderer again.
        drop(browser.raw().send(
            None,
            "Target.closeTarget",
            json!({"targetId": old}),
            Duration::from_secs(5),
        ));
        self.pages.remove(&old);
        self.roots.remove(&old);
        self.keep_page(new.clone(), fresh.clone());
        if target.0 == new {
            self.aliases.remove(&target.0);
        } else {
            self.aliases.insert(target.0.clone(), new);
        }
        if self.active.as_deref() == Some(target.0.as_str()) {
            let _ = browser
                .raw()
                .call_within(None, "Target.activateTarget", json!({"targetId": fresh.target_id()}), PROBE)
                .await;
        }
        Ok((fresh, true))
    }
}

/// Whether the page's renderer answers a trivial evaluation quickly.
async fn answers(page: &PageHandle) -> bool {
    page.eval_within("1", PROBE).await.is_ok()
}
