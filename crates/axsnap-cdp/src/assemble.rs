//! Builds the core tree of a capture from what its sessions returned: frame by frame, top
//! down, each document's accessibility tree (or, when that missed the deadline, its DOM
//! snapshot; when that missed it too, the page's skeleton) placed under the iframe node that
//! shows it, every node given its native id and its DOM facts (bounds in the top-level
//! viewport, offscreen, obscured, developer id, secrets, click and scroll).

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};
use std::time::Duration;

use axsnap_core::{Action, NativeId, Node, NodeId, Rect, Role, State, Tree, ValueRange};

use crate::ax::AxDoc;
use crate::capture::{AxSkip, FrameMeta, SessionData};
use crate::dom_tree::{self, DomBuild, Gap, NAME_WALK_BUDGET};
use crate::layout::{DocInfo, Facts, SnapIndex};
use crate::lost_targets;
use crate::skeleton::{self, Skeleton};

/// Most nodes a capture builds from DOM snapshots; past it the rest is counted, not built.
pub const MAX_DOM_NODES: usize = 100_000;

/// The assembled tree and what it took.
pub(crate) struct Built {
    pub tree: Tree,
    /// Nodes built from a DOM snapshot.
    pub dom_nodes: usize,
    pub frames_stitched: usize,
}

/// Builds the core tree from the sessions' data.
pub(crate) struct Assembler<'a> {
    sessions: &'a [SessionData],
    target_id: &'a str,
    /// Frame -> (session, its accessibility tree), taken from the sessions.
    ax: HashMap<String, (usize, AxDoc)>,
    /// Frame -> (session, document index) in a DOM snapshot.
    snap_docs: HashMap<&'a str, (usize, usize)>,
    meta: HashMap<&'a str, &'a FrameMeta>,
    docs: HashMap<&'a str, &'a DocInfo>,
    /// (session, backend node id of an `<iframe>`) -> the frame it shows.
    owner_of: HashMap<(usize, i64), &'a str>,
    /// Frame -> viewport position of its content's top-left corner.
    origin: HashMap<String, (f64, f64)>,
    viewport: Option<(f64, f64)>,
    /// The main frame's URL.
    pub main_url: Option<String>,
    /// The main document's title.
    pub title: Option<String>,
    /// Nodes built from a DOM snapshot where an accessibility tree had a hole.
    pub grafted: usize,
    /// Focus targets the accessibility trees dropped or ignored, put back (`lost_targets`).
    pub restored: usize,
}

impl<'a> Assembler<'a> {
    /// Takes the accessibility trees out of `sessions` and indexes the rest.
    pub fn new(sessions: &'a mut [SessionData], target_id: &'a str) -> Assembler<'a> {
        let mut ax = HashMap::new();
        for (si, s) in sessions.iter_mut().enumerate() {
            for (f, doc) in std::mem::take(&mut s.ax) {
                ax.entry(f).or_insert((si, doc));
            }
        }
        let sessions: &'a [SessionData] = sessions;
        let mut meta = HashMap::new();
        let mut docs = HashMap::new();
        let mut snap_docs = HashMap::new();
        let mut owner_of = HashMap::new();
        for (si, s) in sessions.iter().enumerate() {
            for f in &s.frames {
                meta.entry(f.id.as_str()).or_insert(f);
            }
            if let Some(snap) = &s.snap {
                for (d, info) in snap.infos.iter().enumerate() {
                    docs.entry(info.frame_id.as_str()).or_insert(info);
                    snap_docs.entry(info.frame_id.as_str()).or_insert((si, d));
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
            ax,
            snap_docs,
            meta,
            docs,
            owner_of,
            origin: HashMap::new(),
            viewport,
            main_url,
            title: None,
            grafted: 0,
            restored: 0,
        }
    }

    /// Builds the tree; says in `notes` what is missing and why (`deadline` for the words;
    /// `dom_only`: the accessibility trees were not asked for).
    pub fn build(&mut self, deadline: Duration, dom_only: bool, notes: &mut Vec<String>) -> Built {
        let mut tree = Tree::with_capacity(self.ax.values().map(|(_, d)| d.nodes.len()).sum::<usize>() + 1);
        let main =
            self.sessions.first().map(|s| s.root_frame.clone()).unwrap_or_else(|| self.target_id.into());
        self.origin.insert(main.clone(), (0.0, 0.0));
        let mut frames: Vec<(String, Option<NodeId>)> = vec![(main.clone(), None)];
        let mut seen: HashSet<String> = HashSet::new();
        let (mut stitched, mut dom_nodes, mut dom_cut, mut names_cut) = (0, 0, 0, false);
        let mut from_dom: Vec<(String, u64)> = Vec::new();
        // Whether every document built from its snapshot was built so by design (a large
        // document, `dom_first`), not for want of its accessibility tree.
        let mut by_design = true;
        let mut main_captured = true;
        let mut from_skeleton = None;
        while let Some((frame, parent)) = frames.pop() {
            if !seen.insert(frame.clone()) {
                continue;
            }
            let is_main = frame == main;
            let children = if let Some((si, doc)) = self.ax.remove(&frame) {
                self.add_ax_document(&mut tree, si, &frame, parent, is_main, doc)
            } else if let Some(&(si, d)) = self.snap_docs.get(frame.as_str()) {
                let budget = MAX_DOM_NODES.saturating_sub(dom_nodes);
                let (children, out) =
                    self.add_dom_document(&mut tree, si, d, &frame, parent, is_main, budget);
                dom_nodes += out.nodes;
                dom_cut += out.cut;
                names_cut |= out.names_cut;
                from_dom.push((frame.clone(), self.sessions[si].elements));
                by_design &= self.sessions[si].ax_skipped == Some(AxSkip::Large);
                children
            } else {
                let skeleton = self.sessions.first().and_then(|s| s.skeleton.as_ref());
                match (parent, skeleton) {
                    (Some(_), _) => {
                        notes.push(format!("frame {frame} was not captured (no accessibility tree)"))
                    }
                    (None, Some(sk)) => {
                        let (_, added) = skeleton::build(
                            &mut tree,
                            None,
                            sk,
                            &self.scope(&frame),
                            &sk.title,
                            self.viewport,
                        );
                        self.title = Some(sk.title.clone());
                        from_skeleton = Some((added, sk));
                    }
                    (None, None) => {
                        main_captured = false;
                        let native = NativeId::new(self.scope(&frame), "root");
                        let root = tree.push(Node::new(Role::Document, "", native));
                        tree.set_root(root);
                    }
                }
                continue;
            };
            if parent.is_some() {
                stitched += 1;
            }
            frames.extend(children.into_iter().rev());
        }
        let secs = deadline.as_secs_f64();
        if !main_captured {
            let elements = self.sessions.first().map_or(0, |s| s.elements);
            let why = if elements > 0 {
                format!("a page of {elements} elements still loading or being laid out, or a long script")
            } else {
                "a long or endless script, or a page still loading".to_string()
            };
            notes.insert(
                0,
                format!(
                    "the page did not give its accessibility tree or DOM snapshot within {secs:.1} s \
                     ({why}); nothing below the page root was captured: ask again, or with a longer \
                     capture timeout"
                ),
            );
        }
        if let Some((added, sk)) = from_skeleton {
            notes.insert(0, skeleton_note(secs, self.sessions.first().map_or(0, |s| s.elements), added, sk));
        }
        let whole = by_design && dom_cut == 0 && !names_cut && !dom_only;
        if whole && !from_dom.is_empty() {
            tracing::debug!(
                documents = from_dom.len(),
                nodes = dom_nodes,
                "capture: large, built from the DOM snapshot"
            );
        } else if !from_dom.is_empty() {
            let skipped = |why| self.sessions.iter().any(|s| s.ax_skipped == Some(why));
            let why = if dom_only {
                "was not asked for (a DOM-only capture)".to_string()
            } else if skipped(AxSkip::Missed) {
                "was not asked for: it did not arrive in time on this document before, and the call \
                 keeps the browser busy for minutes on a page this large"
                    .to_string()
            } else if skipped(AxSkip::TooDeep) {
                format!(
                    "was not asked for: the page nests elements {} levels deep or more, where Chromium's \
                     getFullAXTree takes from seconds to minutes and keeps the browser busy all along",
                    crate::capture::AX_DEPTH_LIMIT
                )
            } else if skipped(AxSkip::Large) {
                format!(
                    "was not asked for: the page is large ({} elements or more), where the DOM snapshot \
                     is faster to build from",
                    crate::DOM_FIRST_ELEMENTS
                )
            } else if skipped(AxSkip::OutOfReach) {
                format!(
                    "was not asked for: on a page this large Chromium's getFullAXTree takes far longer \
                     than the {secs:.1} s deadline, and the call would keep the browser busy long after it"
                )
            } else {
                format!("did not arrive within {secs:.1} s (Chromium's getFullAXTree is slow on large pages)")
            };
            let mut note = dom_note(&main, &from_dom, &why, dom_nodes, dom_cut);
            if names_cut {
                note.push_str(&format!(
                    "; names from text content stopped after {NAME_WALK_BUDGET} DOM nodes were read for them"
                ));
            }
            notes.insert(0, note);
        }
        Built { tree, dom_nodes, frames_stitched: stitched }
    }

    /// The secret texts the sessions' DOM snapshots hold (see `secrets.rs`).
    pub fn secret_texts(&self) -> Vec<String> {
        self.sessions
            .iter()
            .filter_map(|s| s.snap.as_ref())
            .flat_map(|s| s.secret_texts().iter().cloned())
            .chain(
                self.sessions
                    .iter()
                    .filter_map(|s| s.skeleton.as_ref())
                    .flat_map(|s| s.secrets.iter().cloned()),
            )
            .collect()
    }

    fn scope(&self, frame: &str) -> String {
        let loader = self.meta.get(frame).map(|m| m.loader.as_str()).unwrap_or_default();
        format!("{frame}:{loader}")
    }

    /// Adds one document's AX tree under `parent` (as the root when `None`); returns the child
    /// frames to stitch under their iframe nodes.
    fn add_ax_document(
        &mut self,
        tree: &mut Tree,
        si: usize,
        frame: &str,
        parent: Option<NodeId>,
        is_main: bool,
        mut doc: AxDoc,
    ) -> Vec<(String, Option<NodeId>)> {
        let scope = self.scope(frame);
        let snap = self.sessions[si].snap.as_ref();
        if let (Some(snap), Some(&(s, d))) = (snap, self.snap_docs.get(frame)) {
            if s == si {
                self.restored += lost_targets::restore(&mut doc, snap, d);
            }
        }
        // Names as written, not as CSS transformed them (`cased`).
        let casing = match (snap, self.snap_docs.get(frame)) {
            (Some(snap), Some(&(s, d))) if s == si => snap.casing(d),
            _ => None,
        };
        let gaps = self.details_gaps(si, frame, &doc);
        let mut editors: HashMap<i64, dom_tree::EditorView> = match (snap, self.snap_docs.get(frame)) {
            (Some(snap), Some(&(s, d))) if s == si => {
                dom_tree::editor_views(snap, d).into_iter().map(|v| (v.surface, v)).collect()
            }
            _ => HashMap::new(),
        };
        let mut graft_on: HashMap<i64, NodeId> = HashMap::new();
        let mut visited = vec![false; doc.nodes.len()];
        let mut child_frames = Vec::new();
        let mut stack: Vec<(usize, Option<NodeId>)> = vec![(doc.root, parent)];
        while let Some((ix, up)) = stack.pop() {
            if ix >= doc.nodes.len() || std::mem::replace(&mut visited[ix], true) {
                continue;
            }
            let mut node = std::mem::take(&mut doc.nodes[ix]);
            let backend = doc.backend.get(ix).copied().flatten();
            let native = doc.native_id.get_mut(ix).map(std::mem::take).unwrap_or_default();
            node.native = NativeId { scope: scope.clone(), id: native };
            if let Some(c) = casing {
                if let std::borrow::Cow::Owned(name) = c.restore(backend, &node.name) {
                    node.name = name;
                }
            }
            let facts = backend.and_then(|b| snap.and_then(|s| s.facts(b)));
            self.place(&mut node, frame, facts.as_ref(), snap);
            if is_main && ix == doc.root {
                self.title = Some(node.name.clone());
                if self.root_scrolls(frame) {
                    node.actions.set(Action::Scroll, true);
                }
            }
            let id = match up {
                Some(p) => tree.append(p, node),
                None => {
                    let id = tree.push(node);
                    tree.set_root(id);
                    id
                }
            };
            let view = backend.and_then(|b| editors.remove(&b));
            if let Some(view) = &view {
                self.add_editor_lines(tree, id, view, &scope, frame, snap);
            }
            if let Some(b) = backend {
                self.child_frame(si, b, id, &mut child_frames);
                if gaps.as_ref().is_some_and(|(_, g)| g.iter().any(|g| g.details == b)) {
                    graft_on.insert(b, id);
                }
            }
            // An editor whose surface holds its lines: the lines read above stand for them.
            if view.is_some_and(|v| v.holds_lines) {
                continue;
            }
            for &c in doc.children(ix).iter().rev() {
                stack.push((c as usize, Some(id)));
            }
        }
        if let (Some((d, gaps)), Some(snap)) = (gaps, snap) {
            let parts: Vec<(usize, NodeId)> = gaps
                .iter()
                .filter_map(|g| graft_on.get(&g.details).map(|&id| (g, id)))
                .flat_map(|(g, id)| g.content.iter().map(move |&i| (i, id)))
                .collect();
            let this = &*self;
            let out = dom_tree::build_under(tree, snap, d, &scope, &parts, MAX_DOM_NODES, &|node, f| {
                this.place(node, frame, Some(f), Some(snap))
            });
            self.grafted += out.nodes;
            for &(backend, id) in &out.frames {
                self.child_frame(si, backend, id, &mut child_frames);
            }
        }
        child_frames
    }

    /// Puts the lines a code editor draws under its edit surface `id` ([`dom_tree::EditorView`]):
    /// a text per line, preformatted, its number first where the gutter draws one. A line's id
    /// is its number in this editor (the editor reuses its line elements as it scrolls), so an
    /// edit in a line is a change of that line.
    fn add_editor_lines(
        &self,
        tree: &mut Tree,
        id: NodeId,
        view: &dom_tree::EditorView,
        scope: &str,
        frame: &str,
        snap: Option<&SnapIndex>,
    ) {
        // The value of a surface that holds the lines is those lines run together.
        if !view.lines.is_empty() {
            tree.node_mut(id).value = None;
        }
        for (k, line) in view.lines.iter().enumerate() {
            let key = match line.number {
                Some(n) => format!("{}:line:{n}", view.surface),
                None => format!("{}:row:{k}", view.surface),
            };
            let mut node = Node::new(Role::Text, line.shown(), NativeId::new(scope, key));
            // Each line a block of its own: never joined with the next into one text.
            node.flags.pre = true;
            node.flags.block = true;
            let facts = snap.and_then(|s| s.facts(line.backend));
            self.place(&mut node, frame, facts.as_ref(), snap);
            tree.append(id, node);
        }
    }

    /// The open `<details>` of `frame` whose content its accessibility tree left out (a
    /// Chromium quirk, see `dom_tree::gaps`), with the snapshot document they are in.
    fn details_gaps(&self, si: usize, frame: &str, doc: &AxDoc) -> Option<(usize, Vec<Gap>)> {
        let snap = self.sessions[si].snap.as_ref()?;
        let &(snap_session, d) = self.snap_docs.get(frame)?;
        if snap_session != si {
            return None;
        }
        // Indexed on first use: most documents have no open <details> and never ask.
        let in_ax: OnceCell<HashSet<i64>> = OnceCell::new();
        let gaps = dom_tree::details_gaps(snap, d, &|b| {
            in_ax.get_or_init(|| doc.backend.iter().flatten().copied().collect()).contains(&b)
        });
        (!gaps.is_empty()).then_some((d, gaps))
    }

    /// Adds one document built from its DOM snapshot (the accessibility tree missed the
    /// deadline).
    #[allow(clippy::too_many_arguments)]
    fn add_dom_document(
        &mut self,
        tree: &mut Tree,
        si: usize,
        d: usize,
        frame: &str,
        parent: Option<NodeId>,
        is_main: bool,
        budget: usize,
    ) -> (Vec<(String, Option<NodeId>)>, DomBuild) {
        let scope = self.scope(frame);
        let Some(snap) = self.sessions[si].snap.as_ref() else { return (Vec::new(), DomBuild::default()) };
        let this = &*self;
        let out = dom_tree::build(tree, parent, snap, d, &scope, budget, &|node: &mut Node, f: &Facts| {
            this.place(node, frame, Some(f), Some(snap))
        });
        if let (Some(root), true) = (out.root, is_main) {
            self.title = Some(tree.node(root).name.clone());
            if self.root_scrolls(frame) {
                tree.node_mut(root).actions.set(Action::Scroll, true);
            }
        }
        let mut child_frames = Vec::new();
        for &(backend, id) in &out.frames {
            self.child_frame(si, backend, id, &mut child_frames);
        }
        (child_frames, out)
    }

    /// If `backend` is an `<iframe>` of session `si`, queues its frame for stitching under
    /// `id` and records where its content sits.
    fn child_frame(&mut self, si: usize, backend: i64, id: NodeId, out: &mut Vec<(String, Option<NodeId>)>) {
        let Some(child) = self.owner_of.get(&(si, backend)) else { return };
        let child = child.to_string();
        let session = &self.sessions[si];
        let content = session.content_origin.get(&child).copied();
        let local_root = self.origin.get(&session.root_frame).copied().unwrap_or((0.0, 0.0));
        if let Some((x, y)) = content {
            self.origin.insert(child.clone(), (local_root.0 + x, local_root.1 + y));
        }
        out.push((child, Some(id)));
    }

    /// The page root scrolls when its content is larger than the viewport.
    fn root_scrolls(&self, frame: &str) -> bool {
        match (self.docs.get(frame), self.viewport) {
            (Some(doc), Some((w, h))) => doc.content.0 > w + 1.0 || doc.content.1 > h + 1.0,
            _ => false,
        }
    }

    /// Applies the DOM facts of a node of `frame`: developer id, read-only, secrets, click,
    /// scroll, bounds in the top-level viewport, offscreen, obscured.
    fn place(&self, node: &mut Node, frame: &str, facts: Option<&Facts>, snap: Option<&SnapIndex>) {
        let Some(f) = facts else {
            // Without the DOM facts a text field cannot be told apart from a password field:
            // its value is not trusted out.
            if matches!(node.role, Role::TextBox) || node.states.contains(State::Editable) {
                node.value = None;
            }
            return;
        };
        node.dev_id = f.dev_id.clone();
        // The attribute makes inputs read-only. Chromium's tree says so of text fields only:
        // a read-only date, time or colour input (a textbox here) read as one that takes a
        // fill, and a read-only number input as editable.
        // The accessibility tree gives a range's bounds but not its step.
        if let (Some(range), Some(step)) = (node.range.as_mut(), f.step) {
            if let Some(stepped) = ValueRange::new(range.min, range.max, Some(step)) {
                *range = stepped;
            }
        }
        // Chromium calls a month, week and datetime-local input alike; the type tells them.
        if let (true, Some(picker)) = (node.role.is_picker(), &f.picker) {
            node.role = picker.clone();
        }
        if f.readonly && (matches!(node.role, Role::TextBox | Role::SpinButton) || node.role.is_picker()) {
            node.states.set(State::Readonly, true);
            if node.role == Role::SpinButton {
                node.states.set(State::Editable, false);
            }
        }
        // The value stays for now: the core's redaction, run on the whole capture before it
        // leaves the backend, reads it to cut it out of names that embed it.
        if f.secret {
            node.states.set(State::Protected, true);
        }
        if f.embeds_secret {
            node.flags.embeds_secret = true;
        }
        // A click listener on a box under 2 px either way (a tab bar's measuring sliver) is
        // nothing anyone could aim at: no click target of its own.
        let aimable = f.bounds.is_none_or(|b| b.w >= 2.0 && b.h >= 2.0);
        if f.clickable
            && aimable
            && !node.actions.contains(Action::Click)
            && !matches!(node.role, Role::Document | Role::Text | Role::TextRun)
        {
            node.actions.set(Action::Click, true);
        }
        if f.scrollable {
            node.actions.set(Action::Scroll, true);
        }
        if let Some(b) = f.bounds {
            let doc_frame = snap
                .and_then(|s| s.frame_of_doc(f.doc))
                .map(|i| i.frame_id.as_str())
                .filter(|id| !id.is_empty())
                .unwrap_or(frame);
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
        node.flags.block = f.block;
        node.flags.pre = f.pre;
        // A click target the platform found nothing in (a card `div` with a pointer cursor of
        // its own, which Chromium leaves out as uninteresting) stays, so it gets a ref.
        if f.pointer
            && node.flags.ignored
            && !node.flags.hidden
            && matches!(node.role, Role::None | Role::Generic)
        {
            node.flags.ignored = false;
            node.role = Role::Generic;
        }
        // What covers others is said once, on it: it stays in the tree even when the platform
        // found nothing in it worth keeping (a backdrop).
        if f.covering && !matches!(node.role, Role::Document | Role::Text | Role::TextRun) {
            node.states.set(State::Covering, true);
            node.flags.ignored = false;
            if node.role == Role::None {
                node.role = Role::Generic;
            }
        }
    }
}

/// The partial note for a page built from its skeleton: what it holds and what it lacks.
fn skeleton_note(secs: f64, elements: u64, added: usize, sk: &Skeleton) -> String {
    let mut note = format!(
        "the page ({elements} elements) did not give its accessibility tree or DOM snapshot within {secs:.1} s; \
         its skeleton was read instead ({added} nodes): the landmarks and headings, the controls and text \
         blocks in the viewport and the first others, with names and text cut short and no values"
    );
    if sk.dropped > 0 {
        note.push_str(&format!("; {} elements outside the viewport were left out", sk.dropped));
    }
    if !sk.complete {
        note.push_str(&format!("; the walk stopped at its bounds after {} elements", sk.seen));
    }
    note.push_str(": ask again (the next capture may get the whole page), or with a longer capture timeout");
    note
}

/// The partial note for frames built from the DOM: what was cut and why.
fn dom_note(main: &str, frames: &[(String, u64)], why: &str, nodes: usize, cut: usize) -> String {
    let what = match frames {
        [(f, elements)] if f == main => format!("the page's accessibility tree ({elements} elements)"),
        [(f, _)] => format!("the accessibility tree of frame {f}"),
        _ => format!("the accessibility trees of {} frames", frames.len()),
    };
    let mut note = format!(
        "{what} {why}; {nodes} nodes were built from the DOM snapshot instead: roles from tags and ARIA roles, names \
         from labels, alt text and text content, so computed names, descriptions and ARIA relations \
         may differ from a full capture; refs stay valid when a later capture gets the full tree"
    );
    if cut > 0 {
        note.push_str(&format!("; {cut} rendered DOM nodes past the first {MAX_DOM_NODES} were left out"));
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ax::parse_doc;
    use serde_json::json;

    /// A document whose AX tree has an open `<details>` with its summary only, while the DOM
    /// snapshot has its content: the content is built from the snapshot under the details.
    #[test]
    fn open_details_content_missing_from_the_ax_tree_is_built_from_the_dom() {
        let ax = parse_doc(&json!({"nodes": [
            {"nodeId": "1", "role": {"type": "internalRole", "value": "RootWebArea"},
             "name": {"type": "computedString", "value": "Page"}, "childIds": ["2"], "backendDOMNodeId": 1},
            {"nodeId": "2", "role": {"type": "role", "value": "group"}, "parentId": "1",
             "childIds": ["3"], "backendDOMNodeId": 4},
            {"nodeId": "3", "role": {"type": "role", "value": "DisclosureTriangle"}, "parentId": "2",
             "name": {"type": "computedString", "value": "More"}, "backendDOMNodeId": 5}
        ]}))
        .unwrap();
        let strings = [
            "F",
            "#document",
            "HTML",
            "BODY",
            "DETAILS",
            "SUMMARY",
            "DIV",
            "P",
            "#text",
            "open",
            "",
            "Hidden words",
        ];
        let snap = SnapIndex::parse(&json!({
            "strings": strings,
            "documents": [{
                "frameId": 0,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3, 3, 5, 6],
                    "nodeType": [9, 1, 1, 1, 1, 1, 1, 3],
                    "nodeName": [1, 2, 3, 4, 5, 6, 7, 8],
                    "backendNodeId": [1, 2, 3, 4, 5, 6, 7, 8],
                    "attributes": [[], [], [], [9, 10], [], [], [], []]
                },
                "layout": {
                    "nodeIndex": [1, 2, 3, 4, 5, 6, 7],
                    "bounds": [[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9],[0,0,9,9]],
                    "text": [-1, -1, -1, -1, -1, -1, 11]
                }
            }]
        }))
        .unwrap();
        let mut sessions = vec![SessionData {
            root_frame: "F".into(),
            frames: vec![FrameMeta { id: "F".into(), loader: "L".into(), url: "http://x/".into() }],
            ax: HashMap::from([("F".to_string(), ax)]),
            snap: Some(snap),
            ..SessionData::default()
        }];
        let mut asm = Assembler::new(&mut sessions, "F");
        let mut notes = Vec::new();
        let built = asm.build(Duration::from_secs(1), false, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(asm.grafted, 2, "the paragraph and its text");
        let t = &built.tree;
        let group = t.preorder().map(|(id, _)| id).find(|&id| t.node(id).role == Role::Group).unwrap();
        let kids: Vec<_> = t.node(group).children.iter().map(|&k| t.node(k)).collect();
        assert_eq!(kids.len(), 2, "{kids:?}");
        assert_eq!(kids[1].role, Role::Paragraph);
        assert_eq!(kids[1].native, NativeId::new("F:L", "7"));
        let text = t.node(kids[1].children[0]);
        assert_eq!((text.role.clone(), text.name.as_str()), (Role::Text, "Hidden words"));
    }
}
