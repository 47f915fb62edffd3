//! Browsing sessions named by a handle, for MCP 2026-07-28 over HTTP.
//!
//! That revision has no protocol session: every request stands alone. A server that keeps
//! state (axsnap's browser context, refs and baselines) hands the client an explicit handle
//! and the client passes it back. A call without one opens a [`Slot`] and answers with its
//! new handle; later calls name it as `session`; the `close` tool and the idle timeout end it.
//!
//! Handles are 12 characters drawn from the OS's random source (60 bits): a client cannot
//! reach another client's session by guessing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::browsing::Browsing;
use crate::code::Code;
use crate::desktop::Desktop;
use crate::failure::Failure;

/// The argument that carries a session handle.
pub const SESSION_ARG: &str = "session";

/// Most handle sessions open at once: a client that never passes its handle back opens one
/// per call, and each may hold a browser context until it idles out.
pub const MAX_SESSIONS: usize = 512;

/// The letters a handle is made of: 32 of them, so a random byte maps to one without bias;
/// no 0/o, 1/l.
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// How long a handle is.
const HANDLE_LEN: usize = 12;

/// One session's state: its browser, its desktop (`--desktop`) and when it was last used.
pub struct Slot {
    /// The session's browser calls, one at a time.
    pub browsing: Arc<tokio::sync::Mutex<Browsing>>,
    /// The session's desktop: its own lock, so a slow app holds up no page.
    pub desktop: Option<Arc<tokio::sync::Mutex<Desktop>>>,
    last_used: Mutex<Instant>,
    /// Ended (closed, idle past the timeout, the server stopping): a call that still holds
    /// the slot must not run in it.
    ended: AtomicBool,
    /// With a state store: the stored version this copy is (0: none, or not known to be).
    version: AtomicU64,
}

impl Slot {
    /// A slot over `browsing` and `desktop`, used now.
    pub fn new(browsing: Browsing, desktop: Option<Desktop>) -> Slot {
        Slot {
            browsing: Arc::new(tokio::sync::Mutex::new(browsing)),
            desktop: desktop.map(|d| Arc::new(tokio::sync::Mutex::new(d))),
            last_used: Mutex::new(Instant::now()),
            ended: AtomicBool::new(false),
            version: AtomicU64::new(0),
        }
    }

    /// The stored version this copy of the session is (0: none known).
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// Notes the stored version this copy now is.
    pub fn set_version(&self, version: u64) {
        self.version.store(version, Ordering::Release);
    }

    /// Fails with `unknown_session` once the session has ended.
    pub fn check_open(&self) -> Result<(), Failure> {
        if self.ended.load(Ordering::Acquire) {
            return Err(Failure::tool(
                Code::UnknownSession,
                "this session ended (closed, or idle past the timeout) while the call waited; call without \
                 session to open a new one",
            ));
        }
        Ok(())
    }

    fn end(&self) {
        self.ended.store(true, Ordering::Release);
    }

    /// Marks the slot used now (a call started or ended).
    pub fn touch(&self) {
        *lock(&self.last_used) = Instant::now();
    }

    /// How long since the slot was last used.
    pub fn idle(&self) -> Duration {
        lock(&self.last_used).elapsed()
    }

    /// Whether a call is running on it (its browser or desktop lock is held).
    fn busy(&self) -> bool {
        self.browsing.try_lock().is_err() || self.desktop.as_ref().is_some_and(|d| d.try_lock().is_err())
    }
}

/// The open handle sessions of one server.
#[derive(Clone, Default)]
pub struct Handles {
    map: Arc<Mutex<HashMap<String, Arc<Slot>>>>,
    /// With a state store: one call at a time per handle on this server, from locking the
    /// session in the store to writing it back.
    gates: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>>,
}

/// Whether `handle` has a handle's shape (so that nothing else reaches the state store).
pub fn is_handle(handle: &str) -> bool {
    handle.len() == HANDLE_LEN && handle.bytes().all(|c| ALPHABET.contains(&c))
}

impl Handles {
    /// The session `handle` names, or a failure that says what to do.
    pub fn get(&self, handle: &str, idle_timeout: Duration) -> Result<Arc<Slot>, Failure> {
        lock(&self.map).get(handle).cloned().ok_or_else(|| self.unknown(handle, idle_timeout))
    }

    /// The failure of a call that names no open session.
    pub fn unknown(&self, handle: &str, idle_timeout: Duration) -> Failure {
        let mins = idle_timeout.as_secs_f64() / 60.0;
        Failure::tool(
            Code::UnknownSession,
            format!(
                "no session {:?}: it was closed, idle for over {mins:.0} min, or the server restarted. Call \
                 without session to open a new one (its refs start over; navigate first)",
                clip(handle)
            ),
        )
    }

    /// Opens a session with `slot` and returns its new handle.
    pub fn open(&self, slot: Arc<Slot>) -> Result<String, Failure> {
        let mut map = lock(&self.map);
        if map.len() >= MAX_SESSIONS {
            return Err(too_many());
        }
        loop {
            let handle = new_handle()?;
            if let std::collections::hash_map::Entry::Vacant(v) = map.entry(handle.clone()) {
                v.insert(slot);
                return Ok(handle);
            }
        }
    }

    /// The gate of `handle`'s calls on this server (see `gates`).
    pub fn gate(&self, handle: &str) -> Arc<tokio::sync::Mutex<()>> {
        lock(&self.gates).entry(handle.to_string()).or_default().clone()
    }

    /// Forgets the gate of a handle no longer open.
    pub fn drop_gate(&self, handle: &str) {
        lock(&self.gates).remove(handle);
    }

    /// This server's copy of the session `handle` names, if it has one.
    pub fn local(&self, handle: &str) -> Option<Arc<Slot>> {
        lock(&self.map).get(handle).cloned()
    }

    /// Puts in a copy of `handle` read from the state store, returning the copy it replaces
    /// (stale: served elsewhere since) for the caller to let go of.
    /// When this server holds [`MAX_SESSIONS`] copies already, the least recently used one
    /// that is not busy goes too (it carries on from the store wherever it is called next);
    /// every copy put out is returned.
    pub fn replace(&self, handle: &str, slot: Arc<Slot>) -> Vec<Arc<Slot>> {
        let mut map = lock(&self.map);
        let mut out = Vec::new();
        if map.len() >= MAX_SESSIONS && !map.contains_key(handle) {
            let oldest =
                map.iter().filter(|(_, s)| !s.busy()).max_by_key(|(_, s)| s.idle()).map(|(h, _)| h.clone());
            out.extend(oldest.and_then(|h| map.remove(&h)));
        }
        out.extend(map.insert(handle.to_string(), slot));
        for o in &out {
            o.end();
        }
        out
    }

    /// Ends the session `handle` names; its slot is returned for the caller to release.
    pub fn remove(&self, handle: &str) -> Option<Arc<Slot>> {
        lock(&self.gates).remove(handle);
        let slot = lock(&self.map).remove(handle);
        if let Some(s) = &slot {
            s.end();
        }
        slot
    }

    /// Takes out the sessions idle for `timeout` or more with no call running.
    pub fn take_idle(&self, timeout: Duration) -> Vec<(String, Arc<Slot>)> {
        let mut map = lock(&self.map);
        let idle: Vec<String> =
            map.iter().filter(|(_, s)| s.idle() >= timeout && !s.busy()).map(|(h, _)| h.clone()).collect();
        let mut gates = lock(&self.gates);
        for h in &idle {
            gates.remove(h);
        }
        idle.into_iter().filter_map(|h| map.remove(&h).map(|s| (h, s))).inspect(|(_, s)| s.end()).collect()
    }

    /// Takes out every session (the server is stopping).
    pub fn take_all(&self) -> Vec<Arc<Slot>> {
        lock(&self.map).drain().map(|(_, s)| s).inspect(|s| s.end()).collect()
    }
}

fn too_many() -> Failure {
    Failure::tool(
        Code::TooManySessions,
        format!(
            "this server has {MAX_SESSIONS} sessions open; pass the session handle your first answer gave to \
             keep using one, or close sessions you are done with"
        ),
    )
}

/// A fresh handle from the OS's random source.
fn new_handle() -> Result<String, Failure> {
    let mut bytes = [0u8; HANDLE_LEN];
    getrandom::fill(&mut bytes).map_err(|e| {
        Failure::tool(Code::Internal, format!("no random source for a session handle ({e}); try again"))
    })?;
    Ok(bytes.iter().map(|b| char::from(ALPHABET[usize::from(b % 32)])).collect())
}

/// A handle as an error may quote it: short, whatever the client sent.
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Plain data: a panic elsewhere while holding the lock leaves nothing half-done.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::browsers::Browsers;
    use crate::options::ServerOptions;

    fn slot() -> Arc<Slot> {
        let options = ServerOptions::default();
        let browsers = Browsers::new(options.browser.clone());
        Arc::new(Slot::new(Browsing::new(Arc::new(options), browsers, true, false), None))
    }

    fn code(f: Failure) -> &'static str {
        match f {
            Failure::Tool { code, .. } => code.as_str(),
            Failure::Protocol(_) => "protocol",
        }
    }

    #[test]
    fn open_get_remove() {
        let handles = Handles::default();
        let a = handles.open(slot()).unwrap_or_default();
        let b = handles.open(slot()).unwrap_or_default();
        assert_ne!(a, b);
        let minute = Duration::from_secs(60);
        assert!(handles.get(&a, minute).is_ok());
        let removed = handles.remove(&a);
        assert!(removed.as_ref().is_some_and(|s| s.check_open().is_err()), "a call holding it stops");
        assert_eq!(handles.get(&a, minute).err().map(code), Some("unknown_session"));
        assert!(handles.get(&b, minute).is_ok(), "the other session stays");
    }

    #[test]
    fn idle_sessions_are_taken_busy_ones_kept() {
        let handles = Handles::default();
        let idle = handles.open(slot()).unwrap_or_default();
        let busy_slot = slot();
        let busy = handles.open(busy_slot.clone()).unwrap_or_default();
        let _call = busy_slot.browsing.try_lock();
        std::thread::sleep(Duration::from_millis(20));
        let taken: Vec<String> =
            handles.take_idle(Duration::from_millis(10)).into_iter().map(|(h, _)| h).collect();
        assert_eq!(taken, [idle]);
        assert!(handles.get(&busy, Duration::ZERO).is_ok());
        assert!(handles.take_idle(Duration::from_secs(60)).is_empty(), "nothing idle that long");
    }

    #[test]
    fn at_most_max_sessions() {
        let handles = Handles::default();
        for _ in 0..MAX_SESSIONS {
            assert!(handles.open(slot()).is_ok());
        }
        assert_eq!(handles.open(slot()).err().map(code), Some("too_many_sessions"));
        assert_eq!(handles.take_all().len(), MAX_SESSIONS);
        assert!(handles.open(slot()).is_ok());
    }

    #[test]
    fn a_copy_read_from_the_store_puts_out_the_oldest_idle_one_when_full() {
        let handles = Handles::default();
        let mut first = String::new();
        for i in 0..MAX_SESSIONS {
            let h = handles.open(slot()).unwrap_or_default();
            if i == 0 {
                first = h;
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        for s in lock(&handles.map).iter().filter(|(h, _)| **h != first).map(|(_, s)| s.clone()) {
            s.touch();
        }
        let out = handles.replace("newcomer", slot());
        assert_eq!(out.len(), 1);
        assert!(out[0].check_open().is_err(), "the copy put out is ended");
        assert!(handles.local(&first).is_none(), "the least recently used went");
        assert!(handles.local("newcomer").is_some());
        let again = handles.replace("newcomer", slot());
        assert_eq!(again.len(), 1, "the copy it replaces is put out");
    }

    #[test]
    fn only_a_handles_shape_is_a_handle() {
        assert!(is_handle(&new_handle().unwrap_or_default()));
        for bad in ["", "short", "abcdefghijk0", "abcdefghijkm:lock", "ABCDEFGHIJKM", "abcdefghijkmn"] {
            assert!(!is_handle(bad), "{bad}");
        }
    }

    #[test]
    fn handles_are_short_distinct_and_from_the_alphabet() {
        let a = new_handle().unwrap_or_default();
        let b = new_handle().unwrap_or_default();
        assert_eq!(a.len(), HANDLE_LEN);
        assert_ne!(a, b);
        assert!(a.bytes().all(|c| ALPHABET.contains(&c)), "{a}");
    }
}
