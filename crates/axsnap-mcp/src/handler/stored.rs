//! Handle sessions kept in the state store (`--state`, [`crate::store`]): a call locks its
//! session there, works on this server's copy when it is the stored version or on one read
//! back from the store when another server served the session since, and writes it back.

use std::sync::Arc;

use tokio::task::JoinHandle;

use super::Shared;
use crate::browsing::{Browsing, SavedBrowsing};
use crate::failure::Failure;
use crate::sessions::Slot;
use crate::store::{Locked, Store, StoreError, LOCK_TTL};

/// A session locked in the store for one call: the lock is renewed while the call runs, and
/// lifted when the guard goes without a write (a cancelled call).
pub(super) struct Held {
    store: Store,
    handle: String,
    renew: JoinHandle<()>,
    done: bool,
}

impl Held {
    fn new(store: &Store, handle: &str) -> Held {
        let (s, h) = (store.clone(), handle.to_string());
        let renew = tokio::spawn(async move {
            loop {
                tokio::time::sleep(LOCK_TTL / 3).await;
                match s.renew(&h).await {
                    Ok(true) => {}
                    Ok(false) => {
                        tracing::warn!("session {h}: this server's lock lapsed during a call");
                        return;
                    }
                    Err(e) => tracing::warn!("session {h}: renewing its lock: {e}"),
                }
            }
        });
        Held { store: store.clone(), handle: handle.to_string(), renew, done: false }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.renew.abort();
        if !self.done {
            let (s, h) = (self.store.clone(), std::mem::take(&mut self.handle));
            tokio::spawn(async move {
                if let Err(e) = s.unlock(&h).await {
                    tracing::warn!("session {h}: lifting its lock: {e}");
                }
            });
        }
    }
}

fn unavailable(e: StoreError) -> Failure {
    Failure::tool("state_unavailable", e.to_string())
}

impl Shared {
    /// The session `handle` names, locked in the store for this call: this server's copy when
    /// it is the stored version, else the stored state read back (the copy it replaces is let
    /// go of).
    pub(super) async fn take_stored(
        &self,
        store: &Store,
        handle: &str,
    ) -> Result<(Arc<Slot>, Held), Failure> {
        let version = match store.lock(handle).await.map_err(unavailable)? {
            Locked::At(v) => v,
            Locked::Unknown => {
                if let Some(stale) = self.handles.remove(handle) {
                    tokio::spawn(async move { stale.browsing.lock().await.let_go().await });
                }
                return Err(self.handles.unknown(handle, self.options.idle_timeout));
            }
        };
        let held = Held::new(store, handle);
        if let Some(slot) = self.handles.local(handle).filter(|s| s.version() == version) {
            return Ok((slot, held));
        }
        let Some(bytes) = store.load(handle).await.map_err(unavailable)? else {
            return Err(self.handles.unknown(handle, self.options.idle_timeout));
        };
        let saved: SavedBrowsing = serde_json::from_slice(&bytes).map_err(|e| {
            Failure::tool(
                "state_unreadable",
                format!(
                    "session {handle}'s stored state could not be read ({e}); close it and open a new one"
                ),
            )
        })?;
        let browsing = Browsing::resume(self.options.clone(), self.browsers.clone(), saved).map_err(|e| {
            Failure::tool(
                "state_unreadable",
                format!(
                    "session {handle}'s stored state could not be read ({e}); close it and open a new one"
                ),
            )
        })?;
        tracing::debug!("session {handle}: carried on from version {version} in the store");
        let slot = Arc::new(self.slot_with(browsing));
        slot.set_version(version);
        if let Some(stale) = self.handles.replace(handle, slot.clone())? {
            tokio::spawn(async move { stale.browsing.lock().await.let_go().await });
        }
        Ok((slot, held))
    }

    /// After a call: writes the session back and lifts its lock, or, when the call ended it,
    /// forgets it in the store.
    pub(super) async fn put_stored(&self, mut held: Held, slot: &Slot, ended: bool) {
        held.done = true;
        let handle = held.handle.clone();
        let result = if ended {
            held.store.remove(&handle).await
        } else {
            match self.state_of(slot).await {
                Ok(state) => match held.store.commit(&handle, &state, self.options.idle_timeout).await {
                    Ok(Some(v)) => {
                        slot.set_version(v);
                        Ok(())
                    }
                    Ok(None) => {
                        tracing::warn!(
                            "session {handle}: its lock lapsed and another server took it; not written"
                        );
                        slot.set_version(0);
                        Ok(())
                    }
                    Err(e) => Err(e),
                },
                Err(e) => Err(e),
            }
        };
        if let Err(e) = result {
            // This copy stays the one this server works on (the stored one is older, at the
            // version this copy was read at); other servers carry on from the older one.
            tracing::warn!("session {handle}: writing it to the store: {e}");
            held.done = false;
        }
    }

    /// Stores a session this call opened.
    pub(super) async fn create_stored(&self, store: &Store, handle: &str, slot: &Slot) {
        let created = match self.state_of(slot).await {
            Ok(state) => store.create(handle, &state, self.options.idle_timeout).await,
            Err(e) => Err(e),
        };
        match created {
            Ok(true) => slot.set_version(1),
            Ok(false) => tracing::warn!("session {handle} was in the store already; not written"),
            Err(e) => tracing::warn!("session {handle}: writing it to the store: {e}"),
        }
    }

    async fn state_of(&self, slot: &Slot) -> Result<Vec<u8>, StoreError> {
        let saved = slot.browsing.lock().await.save();
        serde_json::to_vec(&saved).map_err(|e| StoreError::Redis(format!("the session's state: {e}")))
    }

    /// Ends the sessions idle in the store past the timeout, whichever server served them:
    /// the first server to claim one releases its browser context.
    pub(super) async fn reap_stored(&self, store: &Store) -> Result<(), StoreError> {
        let timeout = self.options.idle_timeout;
        for handle in store.idle(timeout, 64).await? {
            let Some(version) = store.claim(&handle, timeout).await? else { continue };
            let local = self.handles.remove(&handle);
            match local {
                Some(slot) if slot.version() == version => {
                    slot.browsing.lock().await.release("the session ended").await;
                }
                local => {
                    if let Some(stale) = local {
                        stale.browsing.lock().await.let_go().await;
                    }
                    let saved = store.load(&handle).await?.and_then(|b| serde_json::from_slice(&b).ok());
                    let resumed = saved.and_then(|s: SavedBrowsing| {
                        Browsing::resume(self.options.clone(), self.browsers.clone(), s).ok()
                    });
                    if let Some(mut browsing) = resumed {
                        browsing.release("the session ended").await;
                    }
                }
            }
            store.remove(&handle).await?;
            tracing::debug!("session {handle} idle past the timeout: ended");
        }
        Ok(())
    }
}
