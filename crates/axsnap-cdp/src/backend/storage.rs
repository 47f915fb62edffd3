//! A backend's cookies and local storage, read and written whole or cookie by cookie (the
//! calls behind the MCP server's `storage` group and `--storage-state`).

use std::collections::HashSet;

use super::CdpBackend;
use crate::error::CdpError;
use crate::storage::{self, Cookie, StorageState};

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
            storage::set_cookies(&browser, self.context_id(), cookies).await
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

    /// The context's cookies and the local storage of the origins its tabs show now (an
    /// origin open in two tabs once).
    pub async fn storage_state(&mut self) -> Result<StorageState, CdpError> {
        let r = async {
            let browser = self.ready().await?;
            let cookies = storage::cookies(&browser, self.context_id()).await?;
            let mut origins = Vec::new();
            let mut seen = HashSet::new();
            for tab in self.own_tabs(&browser).await? {
                let page = match self.pages.get(&tab.id) {
                    Some(p) => p.clone(),
                    None => match browser.attach_page(&tab.id).await {
                        Ok(p) => p,
                        // A tab that closed meanwhile has nothing to save.
                        Err(CdpError::NoSuchTarget(_)) => continue,
                        Err(e) => return Err(e),
                    },
                };
                if let Some(o) = storage::local_storage(&page).await? {
                    if seen.insert(o.origin.clone()) {
                        origins.push(o);
                    }
                }
            }
            Ok(StorageState { cookies, origins })
        }
        .await;
        self.told(r)
    }

    /// Loads `state` into this backend's context: its cookies, and each origin's local storage
    /// (through a scratch tab that contacts no site). Returns the local storage items written.
    pub async fn load_storage_state(&mut self, state: &StorageState) -> Result<usize, CdpError> {
        let r = async {
            let browser = self.ready().await?;
            let context = self.context_id().map(str::to_string);
            storage::set_cookies(&browser, context.as_deref(), &state.cookies).await?;
            storage::put_local_storage(&browser, context.as_deref(), &state.origins).await
        }
        .await;
        self.told(r)
    }
}
