//! The change signal: AT-SPI events (children changed, properties, states, text) mark their
//! app dirty, so a window whose app said nothing since its last capture answers without one.
//!
//! Apps send events only when some listener registered for them with the registry, so
//! [`Events::listen`] registers; events are counted per app (its bus name) by a task that
//! reads the bus. A capture takes a mark of the count first; the window is unchanged while its
//! app's count still equals the mark. Events and replies from one app arrive in order, so a
//! round trip to the app before comparing (see [`Events::changed_since`]) sees every event
//! the app sent before it.
//!
//! Each app's latest events also keep the object each came from ([`LOG`] of them), so a
//! capture can read again only what changed ([`Events::sources_since`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

use futures::StreamExt;
use zbus::MessageStream;

use crate::bus::Bus;
use crate::error::AtspiError;
use crate::object::{ObjectRef, REGISTRY};

/// The event kinds registered and listened to.
const KINDS: &[&str] = &["object:", "window:"];

/// Events that change nothing a snapshot shows: GTK sends bounds changes for every frame
/// of an animation (a spinner: 60 a second), which would keep its window "changed" forever.
const IGNORED: &[&str] = &["BoundsChanged"];

/// Events queued before the counting task reads them.
const QUEUE: usize = 4096;

/// How many of an app's latest events keep the object they came from. An app that sends
/// more between two captures is read whole.
const LOG: usize = 20_000;

/// One app's events: how many, when the last came, and where the latest came from.
#[derive(Debug)]
struct AppEvents {
    count: u64,
    last: Instant,
    /// The object paths of the latest events, oldest first (at most [`LOG`]).
    sources: VecDeque<String>,
}

type Counts = Arc<Mutex<HashMap<String, AppEvents>>>;

/// Event counts per app, kept by a task that reads the bus while this lives. (The bus stops
/// delivering anything, replies included, while an event queue is full, so events are read
/// as they come, not when asked.)
#[derive(Debug)]
pub struct Events {
    counts: Counts,
    flush: mpsc::Sender<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

/// A point in an app's events, taken before a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark(u64);

impl Events {
    /// Registers for events and starts counting them.
    pub async fn listen(bus: &Bus) -> Result<Events, AtspiError> {
        let conn = bus.connection().clone();
        let mut streams = Vec::new();
        for iface in ["org.a11y.atspi.Event.Object", "org.a11y.atspi.Event.Window"] {
            let rule = zbus::MatchRule::builder()
                .msg_type(zbus::message::Type::Signal)
                .interface(iface)
                .map_err(|e| AtspiError::Call { what: "a match rule".into(), detail: e.to_string() })?
                .build();
            let stream = MessageStream::for_match_rule(rule, &conn, Some(QUEUE)).await.map_err(|e| {
                AtspiError::Call { what: format!("listening to {iface}"), detail: e.to_string() }
            })?;
            streams.push(stream);
        }
        let registry = ObjectRef::new(REGISTRY, "/org/a11y/atspi/registry");
        for kind in KINDS {
            bus.call::<_, ()>(&registry, "org.a11y.atspi.Registry", "RegisterEvent", &(*kind,)).await?;
        }
        let counts = Counts::default();
        let (flush, requests) = mpsc::channel(8);
        let task = tokio::spawn(count(futures::stream::select_all(streams), requests, counts.clone()));
        Ok(Events { counts, flush, task })
    }

    /// The current mark of `app`'s events.
    pub fn mark(&self, app: &str) -> Mark {
        Mark(self.counts.lock().unwrap_or_else(|p| p.into_inner()).get(app).map_or(0, |e| e.count))
    }

    /// The paths of the objects `app`'s events since `mark` came from, after the same round
    /// trip as [`Events::changed_since`]. `None` when that is not known: the log no longer
    /// reaches back to `mark`, or the event stream is not working.
    pub async fn sources_since(
        &self,
        bus: &Bus,
        app: &str,
        root: &ObjectRef,
        mark: Mark,
    ) -> Option<HashSet<String>> {
        let ping = bus.call::<_, u32>(root, crate::bus::iface::ACCESSIBLE, "GetRole", &()).await;
        if ping.is_err() || !self.flushed().await {
            return None;
        }
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let Some(e) = counts.get(app) else { return Some(HashSet::new()) };
        // The log holds the events numbered count - len + 1 ..= count.
        let logged_from = e.count - e.sources.len() as u64;
        if logged_from > mark.0 {
            return None;
        }
        let new = (e.count.saturating_sub(mark.0) as usize).min(e.sources.len());
        Some(e.sources.iter().skip(e.sources.len() - new).cloned().collect())
    }

    /// Whether `app` sent an event after `mark`. Makes a round trip to the app first: the bus
    /// delivers an app's messages in order, so every event it sent before answering is queued
    /// by then, and the counting task is asked to count the queue before the answer is
    /// given. `false` means "certainly nothing"; without a working event stream it is `true`.
    pub async fn changed_since(&self, bus: &Bus, app: &str, root: &ObjectRef, mark: Mark) -> bool {
        let ping = bus.call::<_, u32>(root, crate::bus::iface::ACCESSIBLE, "GetRole", &()).await;
        if ping.is_err() || !self.flushed().await {
            return true;
        }
        self.mark(app) != mark
    }

    /// How long since `app`'s last event (`None` if it sent none).
    pub async fn quiet_for(&self, app: &str) -> Option<Duration> {
        self.flushed().await;
        self.counts.lock().unwrap_or_else(|p| p.into_inner()).get(app).map(|e| e.last.elapsed())
    }

    /// Waits until the task has counted every event queued so far; `false` if it is gone.
    async fn flushed(&self) -> bool {
        let (done, wait) = oneshot::channel();
        if self.task.is_finished() || self.flush.send(done).await.is_err() {
            return false;
        }
        matches!(tokio::time::timeout(Duration::from_secs(1), wait).await, Ok(Ok(())))
    }
}

impl Drop for Events {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn count(
    mut signals: futures::stream::SelectAll<MessageStream>,
    mut flushes: mpsc::Receiver<oneshot::Sender<()>>,
    counts: Counts,
) {
    loop {
        // Biased: whatever the bus has queued is counted before a flush is answered.
        tokio::select! {
            biased;
            msg = signals.next() => {
                let Some(msg) = msg else { return };
                let Ok(msg) = msg else { continue };
                let header = msg.header();
                if header.member().is_some_and(|m| IGNORED.contains(&m.as_str())) {
                    continue;
                }
                if let Some(app) = header.sender() {
                    tracing::trace!(member = ?header.member(), path = ?header.path(), "event from {app}");
                    let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
                    let e = c.entry(app.to_string()).or_insert_with(|| AppEvents {
                        count: 0,
                        last: Instant::now(),
                        sources: VecDeque::new(),
                    });
                    e.count += 1;
                    e.last = Instant::now();
                    if e.sources.len() == LOG {
                        e.sources.pop_front();
                    }
                    e.sources.push_back(header.path().map(|p| p.as_str().to_string()).unwrap_or_default());
                }
            }
            req = flushes.recv() => {
                let Some(req) = req else { return };
                let _ = req.send(());
            }
        }
    }
}
