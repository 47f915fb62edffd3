//! Handle sessions kept in the state store (`--state`, [`crate::store`]): a call locks its
//! session there, works on this server's copy when it is the stored version or on one read
//! back from the store when another server served the session since, and writes it back.
//!
//! On one server a handle's calls also pass one at a time through its gate
//! ([`Handles::gate`](crate::sessions::Handles::gate)), from the lock to the write, so that a
//! call never sees a version another call of this server is still writing.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::OwnedMutexGuard;
use tokio::task::JoinHandle;

use super::Shared;
use crate::browsing::{Browsing, SavedBrowsing};
use crate::code::Code;
use crate::failure::Failure;
use crate::sessions::{is_handle, Slot};
use crate::store::{Locked, Store, StoreError, Token, LOCK_TTL};

/// A session locked in the store for one call. The lock is renewed while the call runs; a
/// call that ends without [`Shared::put_stored`] (cancelled: its future dropped) still has
/// its copy written back, so the next server carries on from what the page now is.
pub(super) struct Held {
    store: Store,
    token: Token,
    handle: String,
    slot: Arc<Slot>,
    keep: Duration,
    renew: JoinHandle<()>,
    done: bool,
    _gate: OwnedMutexGuard<()>,
}

/// Keeps the lock `token` holds on `handle` from lapsing until aborted.
fn renewer(store: &Store, handle: &str, token: &Token) -> JoinHandle<()> {
    let (s, h, t) = (store.clone(), handle.to_string(), token.clone());
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(LOCK_TTL / 3).await;
            match s.renew(&h, &t).await {
                Ok(true) => {}
                Ok(false) => {
                    tracing::warn!("session {h}: its lock lapsed during a call");
                    return;
                }
                Err(e) => tracing::warn!("session {h}: renewing its lock: {e}"),
            }
        }
    })
}

impl Drop for Held {
    fn drop(&mut self) {
        self.renew.abort();
        if self.done {
            return;
        }
        let (store, token, handle, slot, keep) =
            (self.store.clone(), self.token.clone(), self.handle.clone(), self.slot.clone(), self.keep);
        tokio::spawn(async move {
            if let Err(e) = write_back(&store, &token, &handle, &slot, keep).await {
                tracing::warn!("session {handle}: writing it back after a cancelled call: {e}");
                let _ = store.unlock(&handle, &token).await;
            }
        });
    }
}

fn unavailable(e: StoreError) -> Failure {
    Failure::tool(Code::StateUnavailable, e.to_string())
}

fn unreadable(handle: &str, e: impl std::fmt::Display) -> Failure {
    Failure::tool(
        Code::StateUnreadable,
        format!(
            "session {handle}'s stored state could not be read ({e}); call without session to open a new one"
        ),
    )
}

/// Writes `slot` as `handle`'s new state and lifts the lock (a copy that ended meanwhile, by
/// the reaper or the server stopping, is not written: only unlocked).
async fn write_back(
    store: &Store,
    token: &Token,
    handle: &str,
    slot: &Slot,
    keep: Duration,
) -> Result<(), StoreError> {
    if slot.check_open().is_err() {
        return store.unlock(handle, token).await;
    }
    let state = state_of(slot).await?;
    match store.commit(handle, token, &state, keep).await? {
        Some(v) => slot.set_version(v),
        None => {
            tracing::warn!(
                "session {handle}: its lock lapsed and another call may have taken it; not written"
            );
            slot.set_version(0);
        }
    }
    Ok(())
}

async fn state_of(slot: &Slot) -> Result<Vec<u8>, StoreError> {
    let saved = slot.browsing.lock().await.save();
    serde_json::to_vec(&saved).map_err(|e| StoreError::Redis(format!("the session's state: {e}")))
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
        let unknown = || self.handles.unknown(handle, self.options.idle_timeout);
        if !is_handle(handle) {
            return Err(unknown());
        }
        let gate = self.handles.gate(handle).lock_owned().await;
        let token = Token::new().map_err(unavailable)?;
        let version = match store.lock(handle, &token).await.map_err(unavailable)? {
            Locked::At(v) => v,
            Locked::Unknown => {
                // Closed or ended elsewhere: this server's copy goes too.
                if let Some(stale) = self.handles.remove(handle) {
                    tokio::spawn(async move { stale.browsing.lock().await.let_go().await });
                }
                return Err(unknown());
            }
        };
        let slot = match self.handles.local(handle).filter(|s| s.version() == version) {
            Some(slot) => slot,
            None => match self.read_stored(store, handle).await {
                Ok(browsing) => {
                    tracing::debug!("session {handle}: carried on from version {version} in the store");
                    let slot = Arc::new(self.slot_with(browsing));
                    slot.set_version(version);
                    for stale in self.handles.replace(handle, slot.clone()) {
                        tokio::spawn(async move { stale.browsing.lock().await.let_go().await });
                    }
                    slot
                }
                Err(f) => {
                    let _ = store.unlock(handle, &token).await;
                    if self.handles.local(handle).is_none() {
                        self.handles.drop_gate(handle);
                    }
                    return Err(f);
                }
            },
        };
        let held = Held {
            store: store.clone(),
            renew: renewer(store, handle, &token),
            token,
            handle: handle.to_string(),
            slot: slot.clone(),
            keep: self.options.idle_timeout,
            done: false,
            _gate: gate,
        };
        Ok((slot, held))
    }

    /// A session's stored state, read back.
    async fn read_stored(&self, store: &Store, handle: &str) -> Result<Browsing, Failure> {
        let unknown = || self.handles.unknown(handle, self.options.idle_timeout);
        let bytes = store.load(handle).await.map_err(unavailable)?.ok_or_else(unknown)?;
        let saved: SavedBrowsing = serde_json::from_slice(&bytes).map_err(|e| unreadable(handle, e))?;
        Browsing::resume(self.options.clone(), self.browsers.clone(), saved)
            .map_err(|e| unreadable(handle, e))
    }

    /// After a call: writes the session back and lifts its lock, or, when the call ended it,
    /// forgets it in the store.
    pub(super) async fn put_stored(&self, mut held: Held, ended: bool) {
        let result = if ended {
            held.store.remove(&held.handle, &held.token).await
        } else {
            write_back(&held.store, &held.token, &held.handle, &held.slot, held.keep).await
        };
        match result {
            Ok(()) => held.done = true,
            // This copy stays the one this server works on (the stored one is older, at the
            // version this copy was read at); the drop lifts the lock.
            Err(e) => {
                tracing::warn!("session {}: writing it to the store: {e}", held.handle);
                held.done = true;
                let _ = held.store.unlock(&held.handle, &held.token).await;
            }
        }
    }

    /// Stores a session this call opened; a session that cannot be stored is no session
    /// (another server would not know it), so the call fails.
    pub(super) async fn create_stored(
        &self,
        store: &Store,
        handle: &str,
        slot: &Slot,
    ) -> Result<(), Failure> {
        let state = state_of(slot).await.map_err(unavailable)?;
        match store.create(handle, &state, self.options.idle_timeout).await.map_err(unavailable)? {
            true => {
                slot.set_version(1);
                Ok(())
            }
            false => Err(Failure::tool(
                Code::Internal,
                format!("session {handle} was in the store already; try again"),
            )),
        }
    }

    /// Ends the sessions idle in the store past the timeout, whichever server served them:
    /// the first server to claim one releases its browser context, holding its lock while it
    /// does; the session leaves the store's list only once ended.
    pub(super) async fn reap_stored(&self, store: &Store) -> Result<(), StoreError> {
        let timeout = self.options.idle_timeout;
        for handle in store.idle(timeout, 64).await? {
            let token = Token::new()?;
            let Some(version) = store.claim(&handle, &token, timeout).await? else { continue };
            let renew = renewer(store, &handle, &token);
            let ended = async {
                match self.handles.remove(&handle) {
                    Some(slot) if slot.version() == version => {
                        slot.browsing.lock().await.release("the session ended").await;
                    }
                    local => {
                        if let Some(stale) = local {
                            stale.browsing.lock().await.let_go().await;
                        }
                        let saved =
                            store.load(&handle).await?.map(|b| serde_json::from_slice::<SavedBrowsing>(&b));
                        match saved.map(|s| {
                            s.map(|s| Browsing::resume(self.options.clone(), self.browsers.clone(), s))
                        }) {
                            Some(Ok(Ok(mut browsing))) => browsing.release("the session ended").await,
                            Some(_) => tracing::warn!(
                                "session {handle}: its stored state is unreadable; ended as it is"
                            ),
                            None => {}
                        }
                    }
                }
                store.remove(&handle, &token).await
            }
            .await;
            renew.abort();
            ended?;
            tracing::debug!("session {handle} idle past the timeout: ended");
        }
        Ok(())
    }
}
