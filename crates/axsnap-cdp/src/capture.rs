//! Capture: a tab's accessibility tree joined with layout, as the core's raw [`Tree`].
//!
//! Round trips: every session of the tab (the tab itself and each out-of-process iframe) gets
//! one pipelined batch, all batches in flight at once:
//! 1. `Runtime.evaluate(__axsnap.capture())` in the `axsnap` world of every frame: reads the
//!    change-signal baseline and marks covered actionable elements;
//! 2. `Page.getFrameTree` (loader ids), `Page.getLayoutMetrics` (tab session only);
//! 3. `Accessibility.getFullAXTree` for every frame of the session;
//! 4. `DOM.getFrameOwner` for every child frame (where to stitch it);
//! 5. `DOMSnapshot.captureSnapshot` (bounds, attributes, marks, styles);
//! 6. `Runtime.evaluate(__axsnap.unmark())`.
//!
//! A second, smaller wave runs only for pages with iframes (`DOM.getBoxModel` of each iframe
//! element, to place its content) or with frames the first wave did not know.
//! Nothing is fetched per node.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use axsnap_core::backend::Capture;
use axsnap_core::{Action, Header, NativeId, Node, NodeId, Rect, Role, State, TargetId, Tree};
use serde_json::{json, Value};

use crate::ax::{self, AxNode, AxTree};
use crate::change::{parse_signal, Baseline, FrameSignal};
use crate::conn::str_field;
use crate::error::CdpError;
use crate::frames::SessionInfo;
use crate::layout::DocInfo;
use crate::layout::{SnapIndex, STYLES};
use crate::page::PageHandle;

/// What a capture measured about itself.
#[derive(Clone, Debug, Default)]
pub struct CaptureStats {
    /// AX nodes received.
    pub ax_nodes: usize,
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
}

const SIGNAL_EXPR: &str = "window.__axsnap ? window.__axsnap.capture() : null";
const UNMARK_EXPR: &str = "window.__axsnap ? window.__axsnap.unmark() : null";

/// What one session's batch returned.
#[derive(Default)]
struct SessionData {
    info: SessionInfo,
    /// The session's own root frame.
    root_frame: String,
    signals: Vec<(String, i64, Option<FrameSignal>)>,
    frames: Vec<FrameMeta>,
    viewport: Option<(f64, f64)>,
    ax: HashMap<String, AxTree>,
    /// Child frame -> backend node id of its `<iframe>` in this session.
    owners: HashMap<String, i64>,
    /// Child frame -> top-left of its `<iframe>`'s content box, in this session's viewport.
    content_origin: HashMap<String, (f64, f64)>,
    snap: Option<SnapIndex>,
}

#[derive(Clone, Debug, Default)]
struct FrameMeta {
    id: String,
    loader: String,
    url: String,
}

fn left(until: Instant) -> Duration {
    until.saturating_duration_since(Instant::now()).max(Duration::from_millis(1))
}

/// Captures `page` for the core, giving up with a partial tree at `deadline`, and records the
/// change-signal baseline.
pub async fn capture(page: &PageHandle, deadline: Duration) -> Result<CaptureOutput, CdpError> {
    let start = Instant::now();
    let until = start + deadline;
    let watch = page.watch().snapshot();
    if watch.crashed {
        return Err(CdpError::Crashed);
    }
    let epoch = watch.epoch;
    let mut notes: Vec<String> = Vec::new();

    // Wave 1: one batch per session, all in flight at once.
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
            first_wave(page, s.clone(), root, oop_children, s.frame_id.is_none(), until)
        })
        .collect();
    let mut sessions: Vec<SessionData> = futures::future::join_all(batches).await;
    if !page.raw().is_open() {
        return Err(CdpError::Disconnected);
    }

    // Wave 2: frames the first wave did not know, and where each iframe's content sits.
    second_wave(page, &mut sessions, until, &mut notes).await;

    // Assemble.
    let mut asm = Assembler::new(&sessions, page.target_id());
    let tree = asm.build(&mut notes);
    let header = Header {
        url: asm.main_url.clone().filter(|u| !u.is_empty()),
        title: asm.title.clone().filter(|t| !t.is_empty()),
    };
    if tree.len() <= 1 && !sessions.first().is_some_and(|s| s.ax.contains_key(&s.root_frame)) {
        notes.insert(
            0,
            format!(
                "the page did not give its accessibility tree within {:?} (a script may be stuck); nothing \
                 below the page root was captured",
                deadline
            ),
        );
    }

    // The change-signal baseline: complete only when every captured frame was read.
    let mut frames = Vec::new();
    let mut complete = notes.is_empty();
    let mut shadow = (0, 0);
    for s in &sessions {
        for (frame, ctx, sig) in &s.signals {
            match sig {
                Some(sig) => frames.push((s.info.session_id.clone(), *ctx, sig.clone())),
                None => complete = false,
            }
            let _ = frame;
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

    let stats = CaptureStats {
        ax_nodes: sessions.iter().flat_map(|s| s.ax.values()).map(|t| t.nodes.len()).sum(),
        frames: asm.frames_stitched,
        sessions: sessions.len(),
        elapsed: start.elapsed(),
    };
    let partial = if notes.is_empty() { None } else { Some(notes.join("; ")) };
    Ok(CaptureOutput {
        capture: Capture { target: TargetId(page.target_id().to_string()), header, tree, partial },
        stats,
    })
}

async fn first_wave(
    page: &PageHandle,
    info: SessionInfo,
    root_frame: String,
    oop_children: Vec<String>,
    is_tab: bool,
    until: Instant,
) -> SessionData {
    let raw = page.raw();
    let sid = Some(info.session_id.as_str());
    let t = left(until);
    // Order matters: the signal read comes first, so anything that changes after it shows.
    let mut contexts: Vec<(String, i64)> = info.contexts.iter().map(|(f, c)| (f.clone(), *c)).collect();
    contexts.sort();
    let signal_calls: Vec<_> = contexts
        .iter()
        .map(|(_, ctx)| {
            raw.send(
                sid,
                "Runtime.evaluate",
                json!({"expression": SIGNAL_EXPR, "contextId": ctx, "returnByValue": true}),
                t,
            )
        })
        .collect();
    let frame_tree = raw.send(sid, "Page.getFrameTree", json!({}), t);
    let metrics = is_tab.then(|| raw.send(sid, "Page.getLayoutMetrics", json!({}), t));
    let mut ax_frames: Vec<String> = vec![root_frame.clone()];
    ax_frames.extend(contexts.iter().map(|(f, _)| f.clone()).filter(|f| *f != root_frame));
    let ax_calls: Vec<_> = ax_frames
        .iter()
        .map(|f| raw.send(sid, "Accessibility.getFullAXTree", json!({"frameId": f}), t))
        .collect();
    let mut owner_frames: Vec<String> = ax_frames[1..].to_vec();
    owner_frames.extend(oop_children);
    let owner_calls: Vec<_> =
        owner_frames.iter().map(|f| raw.send(sid, "DOM.getFrameOwner", json!({"frameId": f}), t)).collect();
    let snap_call = raw.send(
        sid,
        "DOMSnapshot.captureSnapshot",
        json!({"computedStyles": STYLES, "includeDOMRects": false, "includePaintOrder": false}),
        t,
    );
    let unmark_calls: Vec<_> = contexts
        .iter()
        .map(|(_, ctx)| {
            raw.send(sid, "Runtime.evaluate", json!({"expression": UNMARK_EXPR, "contextId": ctx}), t)
        })
        .collect();

    let (signals, frame_tree, metrics, ax, owners, snap, _) = futures::join!(
        futures::future::join_all(signal_calls),
        frame_tree,
        async {
            match metrics {
                Some(m) => Some(m.await),
                None => None,
            }
        },
        futures::future::join_all(ax_calls),
        futures::future::join_all(owner_calls),
        snap_call,
        futures::future::join_all(unmark_calls),
    );

    let mut data = SessionData { info, root_frame, ..SessionData::default() };
    data.signals = contexts
        .into_iter()
        .zip(signals)
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
    for (f, r) in ax_frames.into_iter().zip(ax) {
        if let Some(tree) = r.ok().and_then(|v| ax::parse_full_tree(v).ok()) {
            data.ax.insert(f, tree);
        }
    }
    for (f, r) in owner_frames.into_iter().zip(owners) {
        if let Some(id) = r.ok().and_then(|v| v.get("backendNodeId").and_then(Value::as_i64)) {
            data.owners.insert(f, id);
        }
    }
    data.snap = snap.ok().and_then(|v| SnapIndex::parse(v).ok());
    data
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
    page: &PageHandle,
    sessions: &mut [SessionData],
    until: Instant,
    notes: &mut Vec<String>,
) {
    let raw = page.raw();
    let t = left(until);
    // Frames served by their own (iframe) session are not this session's to fetch.
    let oop: HashSet<String> = sessions.iter().filter_map(|s| s.info.frame_id.clone()).collect();
    let mut missing = Vec::new();
    let mut boxes = Vec::new();
    for (si, s) in sessions.iter().enumerate() {
        let sid = Some(s.info.session_id.as_str());
        for f in &s.frames {
            if f.id != s.root_frame && !s.ax.contains_key(&f.id) && !oop.contains(&f.id) {
                let ax = raw.send(sid, "Accessibility.getFullAXTree", json!({"frameId": f.id}), t);
                let owner = raw.send(sid, "DOM.getFrameOwner", json!({"frameId": f.id}), t);
                missing.push((si, f.id.clone(), ax, owner));
            }
        }
        for (frame, backend) in &s.owners {
            let bm = raw.send(sid, "DOM.getBoxModel", json!({"backendNodeId": backend}), t);
            boxes.push((si, frame.clone(), bm));
        }
    }
    let missing_results = futures::future::join_all(
        missing.into_iter().map(|(si, f, ax, owner)| async move { (si, f, ax.await, owner.await) }),
    )
    .await;
    let box_results =
        futures::future::join_all(boxes.into_iter().map(|(si, f, bm)| async move { (si, f, bm.await) }))
            .await;
    for (si, f, ax, owner) in missing_results {
        match ax.ok().and_then(|v| ax::parse_full_tree(v).ok()) {
            Some(tree) => {
                sessions[si].ax.insert(f.clone(), tree);
            }
            None => notes.push(format!("frame {f} was not captured (it did not answer in time)")),
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

/// Builds the core tree from the sessions' data, frame by frame, top-down.
struct Assembler<'a> {
    sessions: &'a [SessionData],
    target_id: &'a str,
    /// Frame -> session whose AX answer has it.
    home: HashMap<&'a str, usize>,
    meta: HashMap<&'a str, &'a FrameMeta>,
    docs: HashMap<&'a str, &'a DocInfo>,
    /// (session, backend node id of an `<iframe>`) -> the frame it shows.
    owner_of: HashMap<(usize, i64), &'a str>,
    /// Frame -> viewport position of its content's top-left corner.
    origin: HashMap<String, (f64, f64)>,
    viewport: Option<(f64, f64)>,
    main_url: Option<String>,
    title: Option<String>,
    frames_stitched: usize,
}

impl<'a> Assembler<'a> {
    fn new(sessions: &'a [SessionData], target_id: &'a str) -> Assembler<'a> {
        let mut home = HashMap::new();
        let mut meta = HashMap::new();
        let mut docs = HashMap::new();
        let mut owner_of = HashMap::new();
        for (si, s) in sessions.iter().enumerate() {
            for f in s.ax.keys() {
                home.entry(f.as_str()).or_insert(si);
            }
            for f in &s.frames {
                meta.entry(f.id.as_str()).or_insert(f);
            }
            if let Some(snap) = &s.snap {
                for d in &snap.infos {
                    docs.entry(d.frame_id.as_str()).or_insert(d);
                }
            }
            for (frame, backend) in &s.owners {
                owner_of.insert((si, *backend), frame.as_str());
            }
        }
        let viewport = sessions.first().and_then(|s| s.viewport);
        let main_url = meta.get(target_id).map(|m| m.url.clone());
        Assembler {
            sessions,
            target_id,
            home,
            meta,
            docs,
            owner_of,
            origin: HashMap::new(),
            viewport,
            main_url,
            title: None,
            frames_stitched: 0,
        }
    }

    fn build(&mut self, notes: &mut Vec<String>) -> Tree {
        let mut tree = Tree::new();
        let main =
            self.sessions.first().map(|s| s.root_frame.clone()).unwrap_or_else(|| self.target_id.into());
        self.origin.insert(main.clone(), (0.0, 0.0));
        let mut frames: Vec<(String, Option<NodeId>)> = vec![(main.clone(), None)];
        let mut seen: HashSet<String> = HashSet::new();
        while let Some((frame, parent)) = frames.pop() {
            if !seen.insert(frame.clone()) {
                continue;
            }
            let Some(&si) = self.home.get(frame.as_str()) else {
                if parent.is_some() {
                    notes.push(format!("frame {frame} was not captured (no accessibility tree)"));
                } else {
                    let root =
                        tree.push(Node::new(Role::Document, "", NativeId::new(self.scope(&frame), "root")));
                    tree.set_root(root);
                }
                continue;
            };
            if parent.is_some() {
                self.frames_stitched += 1;
            }
            let children = self.add_document(&mut tree, si, &frame, parent, frame == main);
            frames.extend(children.into_iter().rev());
        }
        tree
    }

    fn scope(&self, frame: &str) -> String {
        let loader = self.meta.get(frame).map(|m| m.loader.as_str()).unwrap_or_default();
        format!("{frame}:{loader}")
    }

    /// Adds one document's AX tree under `parent` (as the root when `None`); returns the child
    /// frames to stitch under their iframe nodes.
    fn add_document(
        &mut self,
        tree: &mut Tree,
        si: usize,
        frame: &str,
        parent: Option<NodeId>,
        is_main: bool,
    ) -> Vec<(String, Option<NodeId>)> {
        let session = &self.sessions[si];
        let Some(ax) = session.ax.get(frame) else { return Vec::new() };
        let scope = self.scope(frame);
        let index: HashMap<&str, usize> =
            ax.nodes.iter().enumerate().map(|(i, n)| (n.node_id.as_str(), i)).collect();
        let root_ix = ax
            .nodes
            .iter()
            .position(|n| n.parent_id.as_deref().is_none_or(|p| !index.contains_key(p)))
            .unwrap_or(0);
        let mut visited = vec![false; ax.nodes.len()];
        let mut child_frames = Vec::new();
        let mut stack: Vec<(usize, Option<NodeId>)> = vec![(root_ix, parent)];
        while let Some((ix, up)) = stack.pop() {
            if ix >= ax.nodes.len() || std::mem::replace(&mut visited[ix], true) {
                continue;
            }
            let axn = &ax.nodes[ix];
            let mut node = self.convert(si, frame, &scope, axn);
            if is_main && ix == root_ix {
                self.title = Some(node.name.clone());
                self.root_scroll(&mut node, si, frame);
            }
            let id = match up {
                Some(p) => tree.append(p, node),
                None => {
                    let id = tree.push(node);
                    tree.set_root(id);
                    id
                }
            };
            if let Some(child) = axn.backend_dom_node_id.and_then(|b| self.owner_of.get(&(si, b))) {
                let child = child.to_string();
                let content = session.content_origin.get(&child).copied();
                let local_root = self.origin.get(&session.root_frame).copied().unwrap_or((0.0, 0.0));
                if let Some((x, y)) = content {
                    self.origin.insert(child.clone(), (local_root.0 + x, local_root.1 + y));
                }
                child_frames.push((child, Some(id)));
            }
            for c in axn.child_ids.iter().rev() {
                if let Some(&cix) = index.get(c.as_str()) {
                    stack.push((cix, Some(id)));
                }
            }
        }
        child_frames
    }

    /// The page root scrolls when its content is larger than the viewport.
    fn root_scroll(&self, node: &mut Node, _si: usize, frame: &str) {
        if let (Some(doc), Some((w, h))) = (self.docs.get(frame), self.viewport) {
            if doc.content.0 > w + 1.0 || doc.content.1 > h + 1.0 {
                node.actions.set(Action::Scroll, true);
            }
        }
    }

    fn convert(&self, si: usize, frame: &str, scope: &str, axn: &AxNode) -> Node {
        let mut node = ax::to_node(axn);
        node.native = match axn.backend_dom_node_id {
            Some(id) => NativeId::new(scope, id.to_string()),
            None => NativeId::new(scope, format!("ax:{}", axn.node_id)),
        };
        let snap = self.sessions[si].snap.as_ref();
        let facts = axn.backend_dom_node_id.and_then(|b| snap.and_then(|s| s.facts(b)));
        let Some(f) = facts else {
            // Without the DOM facts a text field cannot be told apart from a password field:
            // its value is not trusted out.
            if matches!(node.role, Role::TextBox) || node.states.contains(State::Editable) {
                node.value = None;
            }
            return node;
        };
        node.dev_id = f.dev_id;
        if f.password {
            node.value = None;
            node.states.set(State::Protected, true);
        }
        if f.clickable
            && !node.actions.contains(Action::Click)
            && !matches!(node.role, Role::Document | Role::Text | Role::TextRun)
        {
            node.actions.set(Action::Click, true);
        }
        if f.scrollable {
            node.actions.set(Action::Scroll, true);
        }
        if let Some(b) = f.bounds {
            let doc_frame = if f.frame_id.is_empty() { frame } else { f.frame_id.as_str() };
            let (ox, oy) = self.origin.get(doc_frame).copied().unwrap_or((0.0, 0.0));
            let (sx, sy) = self.docs.get(doc_frame).map(|d| d.scroll).unwrap_or((0.0, 0.0));
            let r = Rect { x: b.x - sx + ox, y: b.y - sy + oy, w: b.w, h: b.h };
            if let Some((vw, vh)) = self.viewport {
                let outside = r.x + r.w <= 0.0 || r.y + r.h <= 0.0 || r.x >= vw || r.y >= vh;
                if outside && (r.w > 0.0 || r.h > 0.0) {
                    node.states.set(State::Offscreen, true);
                }
            }
            node.bounds = Some(r);
        }
        if f.covered && !node.actions.is_empty() {
            node.states.set(State::Obscured, true);
        }
        node
    }
}
