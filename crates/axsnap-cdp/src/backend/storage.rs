//! A backend's cookies and local storage, read and written whole or cookie by cookie (the
//! calls behind the MCP server's `storage` group and `--storage-state`).

use std::collections::HashSet;
use std::time::Duration;

use serde_json::json;

use super::CdpBackend;
use crate::error::CdpError;
use crate::storage::{self, Cookie, StorageState};
use crate::tabs;

/// How long a tab may take to hand over its local storage (a dialog blocks it).
const TAB_ANSWER: Duration = Duration::from_secs(2);

impl CdpBackend {
    /// Every cookie of this backend's context (starting the browser if needed).
    pub async fn cookies(&mut self) -> Result<Vec<Cookie>, CdpError> {
        let r = async {
            let browser = self.ready().await?;
            storage::cookies(&browser, self.context_id()).await
        }
        .await;
        self.told(r)
    }

    /// Sets `cookies` in this backend's context; an expired one removes its namesake.
    pub async fn set_cookies(&mut self, cookies: &[Cookie]) -> Result<(), CdpError> {
        let r = async {
            let browser = self.ready().await?;
            storage::set_cookies_kept(&browser, self.context_id(), cookies).await
        }
        .await;
        self.told(r)
    }

    /// Removes every cookie of this backend's context.
    pub async fn clear_cookies(&mut self) -> Result<(), CdpError> {
        let r = async {
            let browser = self.ready().await?;
            storage::clear_cookies(&browser, self.context_id()).await
        }
        .await;
        self.told(r)
    }

    /// The context's cookies and the local storage of the origins this backend's tabs show now
    /// (an origin open in two tabs once). Other tabs of a shared context are not touched; a tab
    /// that does not answer at once (a dialog open) is left out.
    pub async fn storage_state(&mut self) -> Result<StorageState, CdpError> {
        let r = async {
            let browser = self.ready().await?;
            let cookies = storage::cookies(&browser, self.context_id()).await?;
            let open: HashSet<String> = self.own_tabs(&browser).await?.into_iter().map(|t| t.id).collect();
            let mut pages: Vec<(String, crate::page::PageHandle)> = self
                .pages
                .iter()
                .filter(|(id, _)| open.contains(*id))
                .map(|(i, p)| (i.clone(), p.clone()))
                .collect();
            pages.sort_by(|a, b| a.0.cmp(&b.0));
            let mut origins = Vec::new();
            let mut seen = HashSet::new();
            for (id, page) in pages {
                if self.scratch.as_deref() == Some(id.as_str()) {
                    continue;
                }
                match tokio::time::timeout(TAB_ANSWER, storage::local_storage(&page)).await {
                    Ok(Ok(Some(o))) if seen.insert(o.origin.clone()) => origins.push(o),
                    Ok(Err(CdpError::Disconnected)) => return Err(CdpError::Disconnected),
                    _ => {}
                }
            }
            Ok(StorageState { cookies, origins })
        }
        .await;
        self.told(r)
    }

    /// Loads `state` into this backend's context: each origin's local storage (through a
    /// scratch tab that contacts no site), then its cookies. Returns the local storage items
    /// written.
    pub async fn load_storage_state(&mut self, state: &StorageState) -> Result<usize, CdpError> {
        let r = self.load_inner(state).await;
        self.told(r)
    }

    async fn load_inner(&mut self, state: &StorageState) -> Result<usize, CdpError> {
        let browser = self.ready().await?;
        let context = self.context_id().map(str::to_string);
        let mut items = 0;
        if state.origins.iter().any(|o| !o.local_storage.is_empty()) {
            let others = self.own_tabs(&browser).await?.len();
            let page = browser.new_page_in(context.as_deref(), "about:blank").await?;
            let id = page.target_id().to_string();
            let written = storage::put_local_storage(&page, &state.origins).await;
            if others > 0 {
                let _ = tabs::close(&browser, &id).await;
            } else {
                // Closing a context's last tab ends its browsing session, and the session
                // cookies go with it (seen on a launched Chromium, a moment after the close):
                // the scratch tab stays until this backend has a tab of its own.
                let _ = page.goto_within("about:blank", Duration::from_secs(5)).await;
                self.opened.insert(id.clone());
                self.scratch = Some(id);
            }
            items = written?;
        }
        storage::set_cookies_kept(&browser, context.as_deref(), &state.cookies).await?;
        Ok(items)
    }

    /// Closes the scratch tab a load left open, now that this backend has a tab of its own.
    pub(super) fn close_scratch(&mut self, browser: &crate::browser::Browser) {
        if let Some(id) = self.scratch.take() {
            self.opened.remove(&id);
            drop(browser.raw().send(
                None,
                "Target.closeTarget",
                json!({"targetId": id}),
                Duration::from_secs(5),
            ));
        }
    }
}
