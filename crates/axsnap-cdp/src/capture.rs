//! Capture: a tab's accessibility tree joined with layout, as the core's raw [`Tree`].
//!
//! Every session of the tab (the tab itself and each out-of-process iframe) is read at once,
//! each in two steps:
//! 1. `Runtime.evaluate(__axsnap.begin())` in the `axsnap` world of every frame: the
//!    change-signal baseline (read first, so anything that changes after it shows) and the
//!    element count;
//! 2. one pipelined batch: `Page.getFrameTree` (loader ids), `Page.getLayoutMetrics` (tab
//!    session only), `DOM.getFrameOwner` for every child frame (where to stitch it),
//!    `Accessibility.getFullAXTree` for every frame of the session, then `__axsnap.mark()`
//!    (covered actionable elements get an attribute), `DOMSnapshot.captureSnapshot` (bounds,
//!    attributes, marks, styles) and `__axsnap.unmark()`.
//!
//! The renderer runs a session's calls one after another. Placed after the AX calls, the mark
//! and the snapshot run while the AX answer (20 MB on a 60,000-node page) is still travelling
//! and being parsed, so they add almost no wall time. On pages of [`BIG_PAGE_ELEMENTS`] or
//! more they go first instead: Chromium's `getFullAXTree` grows faster than linearly with the
//! page (minutes at 50,000 elements), and a snapshot already in hand lets a capture that
//! misses its deadline still show the page, built from the DOM (`dom_tree`).
//!
//! Each answer is parsed as soon as it arrives, on the blocking pool, while the others are
//! still on their way; the big JSON values are freed there too, once the tree is built. A
//! second, smaller wave runs only for pages with iframes (`DOM.getBoxModel` of each iframe
//! element, to place its content) or with frames the first wave did not know. Nothing is
//! fetched per node.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::time::{Duration, Instant};

use axsnap_core::backend::Capture;
use axsnap_core::caps::thousands;
use axsnap_core::progress;
use axsnap_core::{Header, TargetId};
use serde_json::{json, Value};

use crate::assemble::Assembler;
use crate::ax::{self, AxDoc};
use crate::change::{parse_signal, Baseline, FrameSignal};
use crate::conn::{str_field, RawCdp};
use crate::dom_first;
use crate::error::CdpError;
use crate::frames::SessionInfo;
use crate::layout::{SnapIndex, STYLES};
use crate::page::PageHandle;
use crate::skeleton::{self, Skeleton};
use crate::slow_ax;

/// What a capture measured about itself.
#[derive(Clone, Debug, Default)]
pub struct CaptureStats {
    /// AX nodes received.
    pub ax_nodes: usize,
    /// Nodes built from the DOM snapshot because a frame's accessibility tree was missing.
    pub dom_nodes: usize,
    /// Nodes built from the DOM snapshot where a frame's accessibility tree had a hole (an
    /// open `<details>` with its content left out, a Chromium quirk).
    pub grafted_nodes: usize,
    /// Focus targets (a menu's submenu opener without a role) that an accessibility tree
    /// dropped or ignored, put back from the DOM snapshot (`lost_targets`).
    pub restored_targets: usize,
    /// Frames stitched.
    pub frames: usize,
    /// Sessions (renderers) read.
    pub sessions: usize,
    /// Wall time.
    pub elapsed: Duration,
}

/// A capture plus its stats.
#[derive(Clone, Debug)]
pub struct CaptureOutput {
    /// The capture.
    pub capture: Capture,
    /// Its stats.
    pub stats: CaptureStats,
    /// The secret texts the capture cut out (a password field's value): never shown, kept
    /// to cut them out of other outputs too (see [`crate::record::Redactor`]).
    pub secret_texts: Vec<String>,
}

/// From this many elements in a session's frames on, the DOM snapshot is taken before the
/// accessibility tree. Measured here (2 cores, Chromium 156): `getFullAXTree` on a list of
/// 5,000 elements took 1.6 s, 10,000: 2.9 s, 20,000: 7.4 s, 40,000: 32 s; the std `Vec` docs
/// page (16,000 elements) 2-4 s. Below this the snapshot is cheaper hidden behind the AX
/// answer; above it a deadline miss becomes likely, and the snapshot's cost (5-10% of the AX
/// call there) buys a real tree instead of an empty one.
pub const BIG_PAGE_ELEMENTS: u64 = 20_000;

const BEGIN_EXPR: &str = "window.__axsnap ? window.__axsnap.begin() : null";
const MARK_EXPR: &str = "window.__axsnap ? window.__axsnap.mark() : null";
const UNMARK_EXPR: &str = "window.__axsnap ? window.__axsnap.unmark() : null";

/// What one session's batch returned.
#[derive(Default)]
pub(crate) struct SessionData {
    pub info: SessionInfo,
    /// The session's own root frame.
    pub root_frame: String,
    pub signals: Vec<(String, i64, Option<FrameSignal>)>,
    pub frames: Vec<FrameMeta>,
    pub viewport: Option<(f64, f64)>,
    /// Frame -> its accessibility tree (taken by the assembler).
    pub ax: HashMap<String, AxDoc>,
    /// Child frame -> backend node id of its `<iframe>` in this session.
    pub owners: HashMap<String, i64>,
    /// Child frame -> top-left of its `<iframe>`'s content box, in this session's viewport.
    pub content_origin: HashMap<String, (f64, f64)>,
    pub snap: Option<SnapIndex>,
    /// Elements in the session's frames, as `begin()` counted them.
    pub elements: u64,
    /// The JSON answers, kept to be freed after assembly.
    pub spent: Vec<Value>,
    /// Why the accessibility tree was not asked for, when it was not (and the capture was
    /// not DOM-only).
    pub ax_skipped: Option<AxSkip>,
    /// The skeleton of a big page's own frame (`skeleton`), read before its DOM snapshot.
    pub skeleton: Option<Skeleton>,
}

/// Why a capture did not ask for a document's accessibility tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AxSkip {
    /// It missed a deadline on this document before (`slow_ax`).
    Missed,
    /// The page is so large that the call cannot arrive in the time left ([`ax_out_of_reach`]).
    OutOfReach,
    /// The page nests elements [`AX_DEPTH_LIMIT`] levels deep or more.
    TooDeep,
    /// The document is large: it is built from its DOM snapshot by design
    /// ([`crate::DOM_FIRST_ELEMENTS`]), and the capture is whole.
    Large,
}

/// From this depth of element nesting on, the DOM snapshot is taken before the accessibility
/// tree, as on a big page: Chromium's `getFullAXTree` grows far faster than the depth
/// (measured here, 2 cores, Chromium 156: nested lists 400 levels deep 0.9 s, 600: 2.9 s,
/// 1,000: 18 s; nested tables 2.3 s, 9.6 s and 49 s), while the snapshot takes 0.1-0.5 s.
pub const DEEP_PAGE_LEVELS: u64 = 256;

/// From this depth on the accessibility tree is not asked for at all (the page is built from
/// its DOM snapshot): past the HTML parser's own nesting limit (512), where only a script can
/// build a page, the call takes from seconds to minutes and keeps the renderer busy all along.
pub const AX_DEPTH_LIMIT: u64 = 512;

/// Chromium's `getFullAXTree` on a page of [`BIG_PAGE_ELEMENTS`] elements, measured (see
/// there); it grows about with the square of the page above that.
const AX_AT_BIG_PAGE: Duration = Duration::from_millis(7_400);

/// Whether a `getFullAXTree` call on a page of `elements` elements is out of reach of a
/// deadline `left` away: its expected time, from the measured curve, is over twice `left`.
/// Asking anyway would only keep the renderer busy (a call cannot be cancelled) while the DOM
/// snapshot is already enough to answer, and every later call (an action, the next capture)
/// would wait behind it. A slower machine than the one measured only makes the call slower, so
/// this skips no call that could arrive; a much faster one may lose a tree it could have had.
pub(crate) fn ax_out_of_reach(elements: u64, left: Duration) -> bool {
    if elements < BIG_PAGE_ELEMENTS {
        return false;
    }
    let scale = elements as f64 / BIG_PAGE_ELEMENTS as f64;
    AX_AT_BIG_PAGE.as_secs_f64() * scale * scale > 2.0 * left.as_secs_f64()
}

/// `DOMSnapshot.captureSnapshot` per element of the page, measured here (2 cores, Chromium
/// 156, quiet): 50,000 buttons 1.7-2.9 s, 200,000 spans 3.2-5.1 s (8 s with two CPU hogs).
const SNAPSHOT_PER_ELEMENT: Duration = Duration::from_micros(30);

/// Whether the DOM snapshot of a page of `elements` elements may miss a deadline `left` away:
/// its expected time is over half of `left` (a busy machine doubles it). Only then is the
/// skeleton read first: the walk and its per-element id calls cost up to a second or so,
/// which a page whose snapshot comes in time should not pay on every capture.
pub(crate) fn snapshot_at_risk(elements: u64, left: Duration) -> bool {
    let expected = SNAPSHOT_PER_ELEMENT.as_secs_f64() * elements as f64;
    2.0 * expected > left.as_secs_f64()
}

/// A frame as `Page.getFrameTree` describes it.
#[derive(Clone, Debug, Default)]
pub(crate) struct FrameMeta {
    pub id: String,
    pub loader: String,
    pub url: String,
}

fn left(until: Instant) -> Duration {
    until.saturating_duration_since(Instant::now()).max(Duration::from_millis(1))
}

/// Which tree the pages of a backend are built from (`--ax-tree`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AxTree {
    /// The browser's accessibility tree below [`crate::DOM_FIRST_ELEMENTS`] elements, the DOM
    /// snapshot from there on (the faster of the two builds).
    #[default]
    Auto,
    /// The accessibility tree at any size where it can arrive in time: names and roles as the
    /// browser computes them, at its cost on large pages.
    Always,
    /// The DOM snapshot on every page (partial, and says so).
    Never,
}

impl AxTree {
    /// The capture options that say it.
    pub fn options(self) -> CaptureOptions {
        CaptureOptions {
            always_ax: self == AxTree::Always,
            dom_only: self == AxTree::Never,
            ..CaptureOptions::default()
        }
    }
}

/// How to capture.
#[derive(Clone, Debug, Default)]
pub struct CaptureOptions {
    /// Build every document from its DOM snapshot without asking for its accessibility tree:
    /// what a capture falls back to when that tree misses the deadline (the result is partial
    /// and says so). For comparing the two, and for tests.
    pub dom_only: bool,
    /// Build the page from its skeleton alone (`skeleton`), without its accessibility tree or
    /// DOM snapshot: what a capture of a big page falls back to when both miss the deadline.
    /// For tests.
    pub skeleton_only: bool,
    /// Ask for the accessibility tree on a page of any size, where it can arrive in time
    /// (names and roles as the browser computes them, at its cost on large pages): what a
    /// capture of a page under [`crate::DOM_FIRST_ELEMENTS`] elements does anyway. For
    /// comparing the two builds, and for tests.
    pub always_ax: bool,
}

/// Captures `page` for the core, giving up with a partial tree at `deadline`, and records the
/// change-signal baseline.
pub async fn capture(page: &PageHandle, deadline: Duration) -> Result<CaptureOutput, CdpError> {
    capture_with(page, deadline, &CaptureOptions::default()).await
}

/// [`capture`] with options.
pub async fn capture_with(
    page: &PageHandle,
    deadline: Duration,
    opts: &CaptureOptions,
) -> Result<CaptureOutput, CdpError> {
    let start = Instant::now();
    let until = start + deadline;
    let watch = page.watch().snapshot();
    if watch.crashed {
        return Err(CdpError::Crashed);
    }
    let epoch = watch.epoch;
    let mut notes: Vec<String> = Vec::new();
    progress::report(|| match watch.sessions.len() {
        1 => "capturing the page (reading it from the browser)".to_string(),
        n => format!("capturing the page (reading it from the browser: {n} renderer sessions)"),
    });

    // Wave 1: every session at once.
    let batches: Vec<_> = watch
        .sessions
        .iter()
        .map(|s| {
            let root = s.frame_id.clone().unwrap_or_else(|| page.target_id().to_string());
            let oop_children: Vec<String> = watch
                .sessions
                .iter()
                .filter(|c| c.parent.as_deref() == Some(s.session_id.as_str()))
                .filter_map(|c| c.frame_id.clone())
                .collect();
            let plan = Plan {
                is_tab: s.frame_id.is_none(),
                dom_only: opts.dom_only,
                skeleton_only: opts.skeleton_only,
                always_ax: opts.always_ax,
                until,
                deadline,
            };
            first_wave(page.raw(), s.clone(), root, oop_children, plan)
        })
        .collect();
    let mut sessions: Vec<SessionData> = futures::future::join_all(batches).await;
    if !page.raw().is_open() {
        return Err(CdpError::Disconnected);
    }

    // Wave 2: frames the first wave did not know, and where each iframe's content sits.
    second_wave(page.raw(), &mut sessions, until, opts.dom_only || opts.skeleton_only, &mut notes).await;

    let ax_nodes = sessions.iter().flat_map(|s| s.ax.values()).map(|d| d.nodes.len()).sum();
    progress::report(|| {
        let dom: usize = sessions.iter().filter_map(|s| s.snap.as_ref()).map(SnapIndex::node_count).sum();
        format!(
            "capturing the page (assembling {} DOM and {} accessibility nodes)",
            thousands(dom),
            thousands(ax_nodes)
        )
    });
    let mut asm = Assembler::new(&mut sessions, page.target_id());
    let waves = start.elapsed();
    let built = asm.build(deadline, opts.dom_only, &mut notes);
    tracing::debug!(
        waves_ms = waves.as_millis() as u64,
        assemble_ms = (start.elapsed() - waves).as_millis() as u64,
        nodes = built.tree.len(),
        "capture: assembled"
    );
    // Secrets never leave the backend: the capture's constructor redacts their values, the
    // text inside them and every name that embeds them (the title too, which is the root's
    // name), with the secret texts the DOM snapshot gave.
    let secret_texts = asm.secret_texts();
    let title = match (&asm.title, built.tree.root()) {
        (Some(_), Some(root)) => Some(built.tree.node(root).name.clone()),
        _ => None,
    };
    let header = Header {
        url: asm.main_url.clone().filter(|u| !u.is_empty()),
        title: title.filter(|t| !t.is_empty()),
    };
    let stats = CaptureStats {
        ax_nodes,
        dom_nodes: built.dom_nodes,
        grafted_nodes: asm.grafted,
        restored_targets: asm.restored,
        frames: built.frames_stitched,
        sessions: sessions.len(),
        elapsed: Duration::ZERO,
    };

    // The change-signal baseline: complete only when every captured frame was read.
    let mut frames = Vec::new();
    let mut complete = notes.is_empty();
    let mut shadow = (0, 0);
    for s in &sessions {
        for (_, ctx, sig) in &s.signals {
            match sig {
                Some(sig) => frames.push((s.info.session_id.clone(), *ctx, sig.clone())),
                None => complete = false,
            }
        }
        let read: HashSet<&str> = s.signals.iter().filter(|x| x.2.is_some()).map(|x| x.0.as_str()).collect();
        if s.frames.iter().any(|f| !read.contains(f.id.as_str())) {
            complete = false;
        }
        match &s.snap {
            Some(snap) => {
                shadow.0 += snap.shadow_roots.0;
                shadow.1 += snap.shadow_roots.1;
            }
            None => complete = false,
        }
    }
    if let Ok(mut b) = page.baseline().lock() {
        *b = Some(Baseline { epoch, frames, complete, shadow_roots: shadow });
    }

    let spent: Vec<Value> = sessions.iter_mut().flat_map(|s| std::mem::take(&mut s.spent)).collect();
    tokio::task::spawn_blocking(move || drop(spent));
    let partial = if notes.is_empty() { None } else { Some(notes.join("; ")) };
    let stats = CaptureStats { elapsed: start.elapsed(), ..stats };
    Ok(CaptureOutput {
        capture: Capture::with_secret_texts(
            TargetId(page.target_id().to_string()),
            header,
            built.tree,
            partial,
            &secret_texts,
        ),
        stats,
        secret_texts,
    })
}

/// Runs `parse` on the blocking pool; hands the JSON back with the result, to be freed once
/// the capture is built: freeing a 20 MB JSON value takes about as long as reading it, and
/// would compete for the CPU with assembly.
async fn parse_off_thread<T: Send + 'static>(v: Value, parse: fn(&Value) -> Option<T>) -> Parsed<T> {
    match tokio::task::spawn_blocking(move || (parse(&v), v)).await {
        Ok((t, v)) => Parsed { value: t, spent: Some(v), missed: false },
        Err(_) => Parsed::none(false),
    }
}

/// A parsed answer and the JSON it was read from.
struct Parsed<T> {
    value: Option<T>,
    spent: Option<Value>,
    /// The call missed its deadline.
    missed: bool,
}

impl<T> Parsed<T> {
    fn none(missed: bool) -> Parsed<T> {
        Parsed { value: None, spent: None, missed }
    }
}

fn parse_ax(v: &Value) -> Option<AxDoc> {
    ax::parse_doc(v).ok()
}

fn parse_snapshot(v: &Value) -> Option<SnapIndex> {
    SnapIndex::parse(v).ok()
}

/// `getFullAXTree` for `frame`, parsed as soon as it arrives.
fn ax_call(
    raw: &RawCdp,
    session: Option<&str>,
    frame: &str,
    t: Duration,
) -> impl Future<Output = Parsed<AxDoc>> + Send + 'static {
    let call = raw.send(session, "Accessibility.getFullAXTree", json!({"frameId": frame}), t);
    async move {
        match call.await {
            Ok(v) => parse_off_thread(v, parse_ax).await,
            Err(e) => Parsed::none(matches!(e, CdpError::Timeout { .. })),
        }
    }
}

/// Marks covered elements in every frame, takes the DOM snapshot (parsed as soon as it
/// arrives), and removes the marks: queued now, in that order.
fn layout_calls(
    raw: &RawCdp,
    session: Option<&str>,
    contexts: &[(String, i64)],
    t: Duration,
) -> impl Future<Output = Parsed<SnapIndex>> + Send + 'static {
    let marks: Vec<_> = contexts
        .iter()
        .map(|(_, ctx)| {
            raw.send(session, "Runtime.evaluate", json!({"expression": MARK_EXPR, "contextId": ctx}), t)
        })
        .collect();
    let snap = raw.send(
        session,
        "DOMSnapshot.captureSnapshot",
        json!({"computedStyles": STYLES, "includeDOMRects": false, "includePaintOrder": false}),
        t,
    );
    let unmarks: Vec<_> = contexts
        .iter()
        .map(|(_, ctx)| {
            raw.send(session, "Runtime.evaluate", json!({"expression": UNMARK_EXPR, "contextId": ctx}), t)
        })
        .collect();
    async move {
        let (_, snap, _) = futures::join!(
            futures::future::join_all(marks),
            async move {
                match snap.await {
                    Ok(v) => parse_off_thread(v, parse_snapshot).await,
                    Err(_) => Parsed::none(false),
                }
            },
            futures::future::join_all(unmarks),
        );
        snap
    }
}

/// What one session's first wave asks for.
#[derive(Clone, Copy)]
struct Plan {
    /// The tab's own session (the viewport is read there).
    is_tab: bool,
    dom_only: bool,
    skeleton_only: bool,
    always_ax: bool,
    until: Instant,
    /// The whole capture's deadline (`until` less it is the start).
    deadline: Duration,
}

async fn first_wave(
    raw: &RawCdp,
    info: SessionInfo,
    root_frame: String,
    oop_children: Vec<String>,
    plan: Plan,
) -> SessionData {
    let until = plan.until;
    let sid = Some(info.session_id.as_str());
    let mut contexts: Vec<(String, i64)> = info.contexts.iter().map(|(f, c)| (f.clone(), *c)).collect();
    contexts.sort();

    // Step 1: the change-signal read and the page size, one round trip.
    let begins: Vec<_> = contexts
        .iter()
        .map(|(_, ctx)| {
            raw.send(
                sid,
                "Runtime.evaluate",
                json!({"expression": BEGIN_EXPR, "contextId": ctx, "returnByValue": true}),
                left(until),
            )
        })
        .collect();
    let begins = futures::future::join_all(begins).await;
    let begun = Instant::now();
    let elements: u64 =
        begins.iter().filter_map(|r| r.as_ref().ok()?.pointer("/result/value/elements")?.as_u64()).sum();
    let token = contexts
        .iter()
        .zip(&begins)
        .find(|((f, _), _)| *f == root_frame)
        .and_then(|(_, r)| r.as_ref().ok()?.pointer("/result/value/token")?.as_str().map(str::to_string));
    let depth: u64 = begins
        .iter()
        .filter_map(|r| r.as_ref().ok()?.pointer("/result/value/depth")?.as_u64())
        .max()
        .unwrap_or(0);
    let forced = plan.dom_only || plan.skeleton_only;
    let value = |r: &Result<Value, CdpError>, key: &str| {
        r.as_ref().ok()?.pointer(&format!("/result/value/{key}"))?.as_u64()
    };
    let counted = begins.iter().map(|r| value(r, "aria")).collect::<Option<Vec<u64>>>();
    let page = dom_first::Page {
        elements,
        aria: counted.map(|c| c.iter().sum()),
        shadow_roots: begins
            .iter()
            .map(|r| value(r, "open").unwrap_or(0) + value(r, "closed").unwrap_or(0))
            .sum(),
        origin: contexts.iter().zip(&begins).find(|((f, _), _)| *f == root_frame).and_then(|(_, r)| {
            r.as_ref().ok()?.pointer("/result/value/origin")?.as_str().map(str::to_string)
        }),
    };
    let large = !forced && !plan.always_ax && dom_first::dom_first(token.as_deref(), &page);
    let remembered = !large && token.as_deref().is_some_and(|t| slow_ax::known(t, elements));
    let too_deep = !large && !remembered && depth >= AX_DEPTH_LIMIT;
    let out_of_reach = !large && !remembered && (too_deep || ax_out_of_reach(elements, left(until)));
    let skip_ax = forced || large || remembered || out_of_reach;
    let big = elements >= BIG_PAGE_ELEMENTS || depth >= DEEP_PAGE_LEVELS || skip_ax;

    // On a big page whose snapshot may miss the deadline, the skeleton first: what to show if
    // it does (the renderer would run the walk only after the snapshot).
    let root_context = contexts.iter().find(|(f, _)| *f == root_frame).map(|(_, c)| *c);
    let at_risk = big && !plan.dom_only && snapshot_at_risk(elements, left(until));
    let skeleton = match root_context {
        Some(ctx) if plan.is_tab && (plan.skeleton_only || at_risk) => {
            skeleton::read(raw, sid, ctx, left(until)).await
        }
        _ => None,
    };
    let walked = Instant::now();

    // Step 2: everything else, in the order the renderer should run it.
    let t = left(until);
    let frame_tree = raw.send(sid, "Page.getFrameTree", json!({}), t);
    let metrics = plan.is_tab.then(|| raw.send(sid, "Page.getLayoutMetrics", json!({}), t));
    let mut ax_frames: Vec<String> = vec![root_frame.clone()];
    ax_frames.extend(contexts.iter().map(|(f, _)| f.clone()).filter(|f| *f != root_frame));
    let mut owner_frames: Vec<String> = ax_frames[1..].to_vec();
    owner_frames.extend(oop_children);
    let owner_calls: Vec<_> =
        owner_frames.iter().map(|f| raw.send(sid, "DOM.getFrameOwner", json!({"frameId": f}), t)).collect();
    let layout_first = (big && !plan.skeleton_only).then(|| layout_calls(raw, sid, &contexts, t));
    let ax_calls: Vec<_> =
        if skip_ax { Vec::new() } else { ax_frames.iter().map(|f| ax_call(raw, sid, f, t)).collect() };
    let layout = async {
        match layout_first {
            Some(l) => l.await,
            None if plan.skeleton_only => Parsed::none(false),
            None => layout_calls(raw, sid, &contexts, t).await,
        }
    };

    let (frame_tree, metrics, (ax, ax_at), owners, (snap, snap_at)) = futures::join!(
        frame_tree,
        async {
            match metrics {
                Some(m) => Some(m.await),
                None => None,
            }
        },
        timed(begun, futures::future::join_all(ax_calls)),
        futures::future::join_all(owner_calls),
        timed(begun, layout),
    );
    tracing::debug!(
        session = %info.session_id,
        elements,
        aria = ?page.aria,
        shadow_roots = page.shadow_roots,
        dom_first = large,
        big,
        begin_ms = (begun - (until - plan.deadline)).as_millis() as u64,
        skeleton_ms = (walked - begun).as_millis() as u64,
        skeleton_nodes = skeleton.as_ref().map_or(0, |s| s.rows.len()),
        ax_ms = ax_at.as_millis() as u64,
        ax_missed = ax.iter().any(|a| a.missed),
        snapshot_ms = snap_at.as_millis() as u64,
        snapshot = snap.value.is_some(),
        "capture: first wave"
    );

    if let (Some(token), Some(root)) = (&token, ax.first()) {
        if root.missed {
            slow_ax::remember(token, elements);
        }
    }
    let mut data =
        SessionData { info, root_frame, elements, snap: snap.value, skeleton, ..SessionData::default() };
    data.ax_skipped = match (forced, remembered, out_of_reach) {
        (true, _, _) => None,
        _ if large => Some(AxSkip::Large),
        (false, true, _) => Some(AxSkip::Missed),
        (false, false, true) if too_deep => Some(AxSkip::TooDeep),
        (false, false, true) => Some(AxSkip::OutOfReach),
        (false, false, false) => None,
    };
    data.spent.extend(snap.spent);
    data.signals = contexts
        .into_iter()
        .zip(begins)
        .map(|((f, c), r)| (f, c, r.ok().as_ref().and_then(parse_signal)))
        .collect();
    if let Ok(ft) = frame_tree {
        data.frames = flatten_frame_tree(&ft);
    }
    if let Some(Ok(m)) = metrics {
        let vp = m.get("cssLayoutViewport").or_else(|| m.get("layoutViewport"));
        let w = vp.and_then(|v| v.get("clientWidth")).and_then(Value::as_f64);
        let h = vp.and_then(|v| v.get("clientHeight")).and_then(Value::as_f64);
        if let (Some(w), Some(h)) = (w, h) {
            data.viewport = Some((w, h));
        }
    }
    for (f, doc) in ax_frames.into_iter().zip(ax) {
        data.spent.extend(doc.spent);
        if let Some(doc) = doc.value {
            data.ax.insert(f, doc);
        }
    }
    for (f, r) in owner_frames.into_iter().zip(owners) {
        if let Some(id) = r.ok().and_then(|v| v.get("backendNodeId").and_then(Value::as_i64)) {
            data.owners.insert(f, id);
        }
    }
    data
}

/// `f`'s output and when it arrived after `since`, for the debug log: where a slow capture
/// spends its time.
async fn timed<T>(since: Instant, f: impl Future<Output = T>) -> (T, Duration) {
    let v = f.await;
    (v, since.elapsed())
}

fn flatten_frame_tree(ft: &Value) -> Vec<FrameMeta> {
    let mut out = Vec::new();
    let mut stack: Vec<&Value> = ft.get("frameTree").into_iter().collect();
    while let Some(node) = stack.pop() {
        if let Some(f) = node.get("frame") {
            let url = format!(
                "{}{}",
                str_field(f, "url").unwrap_or_default(),
                str_field(f, "urlFragment").unwrap_or_default()
            );
            out.push(FrameMeta {
                id: str_field(f, "id").unwrap_or_default().to_string(),
                loader: str_field(f, "loaderId").unwrap_or_default().to_string(),
                url,
            });
        }
        if let Some(kids) = node.get("childFrames").and_then(Value::as_array) {
            stack.extend(kids.iter().rev());
        }
    }
    out
}

/// Fetches what wave 1 could not know: frames without an `axsnap` context (AX tree and owner),
/// and the content box of every iframe element (where its document sits).
async fn second_wave(
    raw: &RawCdp,
    sessions: &mut [SessionData],
    until: Instant,
    dom_only: bool,
    notes: &mut Vec<String>,
) {
    let t = left(until);
    // Frames served by their own (iframe) session are not this session's to fetch.
    let oop: HashSet<String> = sessions.iter().filter_map(|s| s.info.frame_id.clone()).collect();
    let mut missing = Vec::new();
    let mut boxes = Vec::new();
    for (si, s) in sessions.iter().enumerate() {
        let sid = Some(s.info.session_id.as_str());
        // Asked in wave 1 already (a frame with a context), or not to be asked: a call that
        // cannot arrive in time would still keep the renderer busy.
        let asked = |f: &str| s.signals.iter().any(|(sf, _, _)| sf == f);
        let ask = !dom_only && s.ax_skipped.is_none() && Instant::now() < until;
        for f in &s.frames {
            if f.id != s.root_frame && !s.ax.contains_key(&f.id) && !oop.contains(&f.id) {
                let ax = (ask && !asked(&f.id)).then(|| ax_call(raw, sid, &f.id, t));
                let owner = raw.send(sid, "DOM.getFrameOwner", json!({"frameId": f.id}), t);
                missing.push((si, f.id.clone(), ax, owner));
            }
        }
        for (frame, backend) in &s.owners {
            let bm = raw.send(sid, "DOM.getBoxModel", json!({"backendNodeId": backend}), t);
            boxes.push((si, frame.clone(), bm));
        }
    }
    let missing_results =
        futures::future::join_all(missing.into_iter().map(|(si, f, ax, owner)| async move {
            let ax = match ax {
                Some(ax) => ax.await,
                None => Parsed::none(false),
            };
            (si, f, ax, owner.await)
        }))
        .await;
    let box_results =
        futures::future::join_all(boxes.into_iter().map(|(si, f, bm)| async move { (si, f, bm.await) }))
            .await;
    for (si, f, ax, owner) in missing_results {
        sessions[si].spent.extend(ax.spent);
        match ax.value {
            Some(doc) => {
                sessions[si].ax.insert(f.clone(), doc);
            }
            // The assembler builds it from the DOM snapshot if it can, and says so.
            None => {
                if sessions[si].snap.as_ref().and_then(|s| s.doc_of_frame(&f)).is_none() {
                    notes.push(format!("frame {f} was not captured (it did not answer in time)"));
                }
            }
        }
        if let Some(id) = owner.ok().and_then(|v| v.get("backendNodeId").and_then(Value::as_i64)) {
            sessions[si].owners.insert(f, id);
        }
    }
    for (si, f, bm) in box_results {
        if let Some(q) = bm.ok().and_then(|v| v.pointer("/model/content").cloned()) {
            let x = q.get(0).and_then(Value::as_f64);
            let y = q.get(1).and_then(Value::as_f64);
            if let (Some(x), Some(y)) = (x, y) {
                sessions[si].content_origin.insert(f, (x, y));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skeleton_is_read_only_where_the_snapshot_may_miss_the_deadline() {
        let s = Duration::from_secs;
        // 50,000 elements: about 1.5 s expected, safe with 11.5 s left, not with 2 s.
        assert!(!snapshot_at_risk(50_000, s(11)) && snapshot_at_risk(50_000, s(2)));
        // 200,000 elements: about 6 s, at risk even with the whole default deadline.
        assert!(snapshot_at_risk(200_000, Duration::from_millis(11_500)));
        assert!(!snapshot_at_risk(16_000, s(10)));
    }

    #[test]
    fn the_accessibility_tree_is_out_of_reach_only_of_pages_far_over_the_deadline() {
        let s = Duration::from_secs;
        // Below the big-page size it is always asked for, whatever the deadline.
        assert!(!ax_out_of_reach(BIG_PAGE_ELEMENTS - 1, Duration::from_millis(1)));
        // The std Vec page (16,000) and a 30,000-element page at the default 10 s: asked.
        assert!(!ax_out_of_reach(16_000, s(10)) && !ax_out_of_reach(30_000, s(10)));
        // 50,000 elements: about 46 s expected, out of reach of 10 s and 20 s, not of 60 s.
        assert!(ax_out_of_reach(50_000, s(10)) && ax_out_of_reach(50_000, s(20)));
        assert!(!ax_out_of_reach(50_000, s(60)));
    }
}
