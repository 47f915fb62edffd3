//! The change signal: whether a tab may have changed since its last capture, in one round trip
//! and without a capture.
//!
//! Every frame runs `js/change.js` in the isolated world [`crate::frames::WORLD`]: a
//! MutationObserver (document and every shadow root it can reach) plus listeners for input,
//! change, focus, scroll, hover, transitions, animations and more bump a generation counter.
//! Capture reads each frame's counter first (so anything after that read shows up as a change)
//! and keeps it as the [`Baseline`]. [`changed`] then reads every frame again in one pipelined
//! batch and answers `true` when anything differs or cannot be read:
//! - the tab's [`crate::frames::FrameWatch`] epoch moved (a navigation, a frame or context came
//!   or went, a crash);
//! - a frame's document token differs (a new document) or its counter moved;
//! - form state that script can set without any event (values, checked, selection) or the
//!   window scroll position differs;
//! - a CSS animation or transition is running (it may change what is visible at any moment);
//! - the page has closed shadow roots the script was not told about (it cannot observe them);
//! - a frame could not be read at capture time, or now.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::page::PageHandle;

/// How long one read may take before the answer is "changed".
const READ_TIMEOUT: Duration = Duration::from_secs(2);

/// What one frame's script reports.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct FrameSignal {
    /// Identifies the document instance the script runs in.
    pub token: String,
    /// The generation counter.
    pub gen: u64,
    /// A hash of form state.
    pub form: i64,
    /// Window scroll position.
    pub sx: f64,
    /// Window scroll position.
    pub sy: f64,
    /// A CSS animation or transition is running.
    pub anim: bool,
    /// Open shadow roots under observation.
    pub open: u64,
    /// Closed shadow roots the main-world shim reported (and observes).
    pub closed: u64,
    /// The document has focus.
    #[serde(default)]
    pub focus: bool,
}

impl FrameSignal {
    /// The signal with only the fields that must stay equal (not `anim`, which must be false).
    fn same_as(&self, other: &FrameSignal) -> bool {
        self.token == other.token
            && self.gen == other.gen
            && self.form == other.form
            && self.sx == other.sx
            && self.sy == other.sy
            && self.open == other.open
            && self.closed == other.closed
            && self.focus == other.focus
    }
}

/// The state read at the start of the last capture.
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    /// The watcher epoch when capture began.
    pub epoch: u64,
    /// `(session, context id, signal)` of every frame read.
    pub frames: Vec<(String, i64, FrameSignal)>,
    /// Every frame of the capture had a readable signal.
    pub complete: bool,
    /// Non user-agent shadow roots the DOM snapshot saw: open, closed.
    pub shadow_roots: (u64, u64),
}

/// Parses the value of a `Runtime.evaluate` of `__axsnap.read()` / `capture()`.
pub(crate) fn parse_signal(result: &Value) -> Option<FrameSignal> {
    if result.get("exceptionDetails").is_some() {
        return None;
    }
    serde_json::from_value(result.pointer("/result/value")?.clone()).ok()
}

/// The read expression.
pub(crate) const READ_EXPR: &str = "window.__axsnap ? window.__axsnap.read() : null";

/// Whether `page` may have changed since its last capture. `false` means certainly unchanged;
/// anything unreadable or uncertain gives `true`.
pub async fn changed(page: &PageHandle) -> bool {
    let Some(base) = page.baseline().lock().ok().and_then(|b| b.clone()) else { return true };
    if !base.complete || base.frames.is_empty() {
        return true;
    }
    if page.watch().epoch() != base.epoch || page.watch().crashed() {
        return true;
    }
    let reads: Vec<_> = base
        .frames
        .iter()
        .map(|(session, ctx, _)| {
            page.raw().send(
                Some(session),
                "Runtime.evaluate",
                json!({"expression": READ_EXPR, "contextId": ctx, "returnByValue": true}),
                READ_TIMEOUT,
            )
        })
        .collect();
    let results = futures::future::join_all(reads).await;
    let (mut open, mut closed) = (0, 0);
    for ((_, _, before), now) in base.frames.iter().zip(results) {
        let Some(now) = now.ok().as_ref().and_then(parse_signal) else { return true };
        if now.anim || !now.same_as(before) {
            return true;
        }
        open += now.open;
        closed += now.closed;
    }
    // Closed shadow roots the scripts do not observe could change unseen. (Open ones are found
    // by a scan at every capture; the DOM snapshot counts user-agent roots as open, so its open
    // count is no guide.)
    let _ = open;
    if closed < base.shadow_roots.1 {
        return true;
    }
    // An event (navigation, new frame) that arrived while we were reading.
    page.watch().epoch() != base.epoch
}
