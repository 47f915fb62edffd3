//! A tree built from a DOM snapshot alone, for a document whose accessibility tree missed the
//! capture deadline (Chromium's `getFullAXTree` takes minutes on some large pages, the
//! snapshot seconds), so the agent still sees the page.
//!
//! Roles come from ARIA `role` attributes, else tag names; names from `aria-labelledby`,
//! `aria-label`, labels, `alt`, `value`, `title`, `placeholder` and, for roles named by their
//! content, the rendered text (bounded); text from rendered text nodes; states from attributes
//! and form state; bounds, developer id, password-ness, click, scroll and obscured from the
//! same snapshot facts a full capture uses. Native ids are the same as a full capture's (the
//! document's scope and the DOM backend node id), so refs stay valid when a later capture
//! gets the full tree. Elements that projection would unwrap anyway (anonymous generic
//! containers) are left out and their children hoisted.
//!
//! Approximations, on purpose: no CSS-generated content, no descriptions, no `aria-owns`,
//! slotted children under their host rather than their slot, spaces between text only at
//! block-like tags.

mod element;
mod gaps;
mod tags;
mod text;

use std::collections::HashMap;

use axsnap_core::{NativeId, Node, NodeId, Role, Tree};

use crate::layout::{Facts, RawDoc, SnapIndex};
use tags::{classify, Tag, A, ATTRS};
use text::{collapse, normalize};

pub(crate) use gaps::{details_gaps, Gap};

/// Longest text node, in bytes.
const MAX_TEXT: usize = 4000;

const ELEMENT: i64 = 1;
const TEXT: i64 = 3;
const DOCUMENT: i64 = 9;
const FRAGMENT: i64 = 11;

/// What building one document gave.
#[derive(Debug, Default)]
pub(crate) struct DomBuild {
    /// The document's node.
    pub root: Option<NodeId>,
    /// Nodes added.
    pub nodes: usize,
    /// Rendered DOM nodes left out for the node budget.
    pub cut: usize,
    /// `(backend node id, node)` of every iframe element, for stitching its frame.
    pub frames: Vec<(i64, NodeId)>,
    /// Names from text content stopped at [`NAME_WALK_BUDGET`].
    pub names_cut: bool,
}

/// Most DOM nodes all names from content of one document visit together (each name visits
/// at most 500): bounds the time on a page of nested named elements.
pub(crate) const NAME_WALK_BUDGET: usize = 1_000_000;

/// Builds document `d` of `snap` under `parent` (as the tree's root when `None`), with at most
/// `budget` nodes. `place` applies a node's DOM facts (bounds, developer id, ...).
pub(crate) fn build(
    tree: &mut Tree,
    parent: Option<NodeId>,
    snap: &SnapIndex,
    d: usize,
    scope: &str,
    budget: usize,
    place: &dyn Fn(&mut Node, &Facts),
) -> DomBuild {
    let Some(doc) = snap.doc(d) else { return DomBuild::default() };
    let mut b = Builder::new(snap, doc, d);
    b.run(tree, parent, scope, budget, place)
}

/// The role name a tag gives an element without an ARIA role, as far as the tag, an input's
/// type (`multiple` for a select that lists its options) and an anchor's `href` tell (the skeleton's elements; the DOM tree itself reads more of
/// the element).
pub(crate) fn tag_role(tag: &str, input_type: &str, has_href: bool) -> &'static str {
    match classify(tag) {
        Tag::A if has_href => "link",
        Tag::Button | Tag::Summary => "button",
        Tag::Input => tags::input_role(input_type),
        Tag::Select if input_type == "multiple" => "listbox",
        Tag::Select => "combobox",
        Tag::Option => "option",
        Tag::TextArea => "textbox",
        Tag::Heading(_) => "heading",
        Tag::Img | Tag::Svg => "image",
        Tag::Th => "columnheader",
        Tag::Label => "label",
        Tag::Role(r) => r,
        _ => "generic",
    }
}

/// Builds the DOM subtrees rooted at the nodes `parts` (document `d`'s node index, the tree
/// node it goes under), in order, with at most `budget` nodes in all: the content the
/// accessibility tree left out (see [`details_gaps`]).
pub(crate) fn build_under(
    tree: &mut Tree,
    snap: &SnapIndex,
    d: usize,
    scope: &str,
    parts: &[(usize, NodeId)],
    budget: usize,
    place: &dyn Fn(&mut Node, &Facts),
) -> DomBuild {
    let Some(doc) = snap.doc(d) else { return DomBuild::default() };
    let mut b = Builder::new(snap, doc, d);
    let starts = parts
        .iter()
        .rev()
        .filter(|(i, _)| *i < b.n)
        .map(|&(i, up)| Step { i, up: Some(up), label: None, in_select: false })
        .collect();
    b.walk(tree, starts, None, scope, budget, place)
}

/// One document's tables, indexed for the walk.
struct Builder<'s> {
    snap: &'s SnapIndex,
    doc: &'s RawDoc,
    d: usize,
    n: usize,
    attr_ids: [Option<i64>; ATTRS.len()],
    tags: HashMap<i64, Tag>,
    roles: HashMap<&'s str, Role>,
    child_start: Vec<u32>,
    child_list: Vec<u32>,
    /// Element id -> node, built on first use (labels, `aria-labelledby`).
    by_id: Option<HashMap<&'s str, usize>>,
    /// Control id -> its `<label for>`, built on first use.
    label_for: Option<HashMap<&'s str, usize>>,
    base_url: &'s str,
    /// Left of [`NAME_WALK_BUDGET`].
    walk_budget: usize,
    names_cut: bool,
}

/// One step of the walk: a DOM node, the tree node it goes under, its nearest `<label>`
/// ancestor, and whether it is inside a `<select>` (options have no layout of their own).
struct Step {
    i: usize,
    up: Option<NodeId>,
    label: Option<usize>,
    in_select: bool,
}

impl<'s> Builder<'s> {
    fn new(snap: &'s SnapIndex, doc: &'s RawDoc, d: usize) -> Builder<'s> {
        let nodes = &doc.nodes;
        let n = nodes.parent_index.len().min(nodes.node_type.len()).min(nodes.backend_node_id.len());
        // Children lists from parent indices; the table is in document order, so a parent
        // comes before its children (anything else is dropped, which also rules out cycles).
        let parent = |i: usize| usize::try_from(nodes.parent_index[i]).ok().filter(|&p| p < i);
        let mut count = vec![0u32; n + 1];
        for i in 0..n {
            if let Some(p) = parent(i) {
                count[p + 1] += 1;
            }
        }
        for i in 0..n {
            count[i + 1] += count[i];
        }
        let mut fill = count.clone();
        let mut child_list = vec![0u32; count[n] as usize];
        // The snapshot lists an `::after` before its element's other children; it is drawn
        // after them, so it goes last.
        let after = snap.find_string("after");
        let is_after = |i: usize| after.is_some() && nodes.pseudo_type.get(i) == after;
        for last in [false, true] {
            for i in 0..n {
                if let Some(p) = parent(i).filter(|_| is_after(i) == last) {
                    child_list[fill[p] as usize] = i as u32;
                    fill[p] += 1;
                }
            }
        }
        let mut attr_ids = [None; ATTRS.len()];
        for (slot, name) in attr_ids.iter_mut().zip(ATTRS) {
            *slot = snap.find_string(name);
        }
        let base_url = snap.string(doc.document_url).unwrap_or_default();
        Builder {
            snap,
            doc,
            d,
            n,
            attr_ids,
            tags: HashMap::new(),
            roles: HashMap::new(),
            child_start: count,
            child_list,
            by_id: None,
            label_for: None,
            base_url,
            walk_budget: NAME_WALK_BUDGET,
            names_cut: false,
        }
    }

    fn children(&self, i: usize) -> &[u32] {
        let (a, b) = (self.child_start[i] as usize, self.child_start[i + 1] as usize);
        &self.child_list[a..b]
    }

    fn kind(&self, i: usize) -> i64 {
        self.doc.nodes.node_type[i]
    }

    fn tag(&mut self, i: usize) -> Tag {
        let Some(&name) = self.doc.nodes.node_name.get(i) else { return Tag::Plain };
        if let Some(t) = self.tags.get(&name) {
            return *t;
        }
        let t = classify(self.snap.string(name).unwrap_or_default());
        self.tags.insert(name, t);
        t
    }

    fn attr(&self, i: usize, a: A) -> Option<&'s str> {
        let key = self.attr_ids[a as usize]?;
        let list = self.doc.nodes.attributes.get(i)?;
        // An empty value comes as index -1.
        list.chunks_exact(2).find(|p| p[0] == key).map(|p| self.snap.string(p[1]).unwrap_or(""))
    }

    fn attr_true(&self, i: usize, a: A) -> bool {
        self.attr(i, a).is_some_and(|v| v.eq_ignore_ascii_case("true"))
    }

    fn has_layout(&self, i: usize) -> bool {
        self.snap.layout_index(self.d, i).is_some()
    }

    /// The rendered text of a text node (its own text inside a `<select>`, which has none).
    fn text(&self, i: usize, in_select: bool) -> Option<&'s str> {
        if let Some(k) = self.snap.layout_index(self.d, i) {
            let t = self.doc.layout.text.get(k).and_then(|&s| self.snap.string(s));
            if t.is_some() {
                return t;
            }
        }
        if in_select {
            return self.doc.nodes.node_value.get(i).and_then(|&s| self.snap.string(s));
        }
        None
    }

    /// Whether element `i` is an `::before` or `::after` pseudo element: its content (CSS
    /// `content:`, rustdoc's "Collapse" toggles) is text the page shows and the accessibility
    /// tree reads. Markers and the rest are not.
    fn generated(&self, i: usize) -> bool {
        let Some(t) = self.doc.nodes.pseudo_type.get(i) else { return false };
        matches!(self.snap.string(t), Some("before" | "after"))
    }

    fn input_type(&self, i: usize) -> String {
        self.attr(i, A::Type).unwrap_or("text").to_ascii_lowercase()
    }

    /// Whether the node and its subtree are never shown.
    fn excluded(&mut self, i: usize) -> bool {
        let doc: &'s RawDoc = self.doc;
        let nodes = &doc.nodes;
        match self.kind(i) {
            ELEMENT => {
                (nodes.pseudo_type.get(i).is_some() && !self.generated(i))
                    || self.attr_true(i, A::AriaHidden)
                    || match self.tag(i) {
                        Tag::Skip => true,
                        Tag::Input => self.input_type(i) == "hidden",
                        _ => false,
                    }
            }
            FRAGMENT => {
                let kind = nodes.shadow_root_type.get(i).and_then(|s| self.snap.string(s));
                !matches!(kind, Some("open") | Some("closed"))
            }
            TEXT | DOCUMENT => false,
            _ => true,
        }
    }

    fn run(
        &mut self,
        tree: &mut Tree,
        parent: Option<NodeId>,
        scope: &str,
        budget: usize,
        place: &dyn Fn(&mut Node, &Facts),
    ) -> DomBuild {
        let Some(root) = (0..self.n).find(|&i| self.kind(i) == DOCUMENT) else { return DomBuild::default() };
        let start = Step { i: root, up: parent, label: None, in_select: false };
        self.walk(tree, vec![start], Some(root), scope, budget, place)
    }

    /// Builds from the nodes of `stack` down (the last first); `root` is the document node
    /// when the whole document is built.
    fn walk(
        &mut self,
        tree: &mut Tree,
        mut stack: Vec<Step>,
        root: Option<usize>,
        scope: &str,
        budget: usize,
        place: &dyn Fn(&mut Node, &Facts),
    ) -> DomBuild {
        let mut out = DomBuild::default();
        // Rendered: has a layout box, or a descendant has one. Bottom-up, so the reverse of
        // document order; an excluded node stops it.
        let mut rendered = vec![false; self.n];
        let mut total = 0usize;
        for i in (0..self.n).rev() {
            if self.excluded(i) {
                rendered[i] = false;
                continue;
            }
            if rendered[i] || self.has_layout(i) || Some(i) == root {
                rendered[i] = true;
                total += 1;
                if let Some(p) = usize::try_from(self.doc.nodes.parent_index[i]).ok().filter(|&p| p < i) {
                    rendered[p] = true;
                }
            }
        }
        let mut visited = 0usize;
        while let Some(step) = stack.pop() {
            let i = step.i;
            let shown = rendered[i] || (step.in_select && !self.excluded(i));
            if !shown {
                continue;
            }
            visited += 1;
            if out.nodes >= budget {
                out.cut = total.saturating_sub(visited) + 1;
                break;
            }
            let facts = self.snap.facts_at(self.d, i);
            let backend = self.doc.nodes.backend_node_id[i];
            let mut next_up = step.up;
            let mut label = step.label;
            let mut in_select = step.in_select;
            let mut walk_children = true;
            let node = match self.kind(i) {
                DOCUMENT => {
                    let title = self.snap.string(self.doc.title).unwrap_or_default();
                    Some(Node { role: Role::Document, name: normalize(title), ..Node::default() })
                }
                TEXT => {
                    let text =
                        self.text(i, step.in_select).map(|t| collapse(t, MAX_TEXT)).unwrap_or_default();
                    let bare = text.trim_matches(' ');
                    let repeats = step.up.is_some_and(|p| tree.node(p).name == bare);
                    let node = Node { role: Role::Text, name: text.clone(), ..Node::default() };
                    (!bare.is_empty() && !repeats).then_some(node)
                }
                ELEMENT if self.generated(i) => {
                    let text = self.text(i, false).map(|t| collapse(t, MAX_TEXT)).unwrap_or_default();
                    let bare = text.trim_matches(' ');
                    (!bare.is_empty()).then(|| Node {
                        role: Role::Text,
                        name: text.clone(),
                        ..Node::default()
                    })
                }
                ELEMENT => {
                    let tag = self.tag(i);
                    if tag == Tag::Frame || tag == Tag::Svg {
                        walk_children = false;
                    }
                    if matches!(tag, Tag::Select | Tag::OptGroup) {
                        in_select = true;
                    }
                    if tag == Tag::Label && self.attr(i, A::For).is_none() {
                        label = Some(i);
                    }
                    let mut node = self.element(i, tag, &step, facts.clickable);
                    // A drop-down's options are on it, as the accessibility tree's are made
                    // (`ax::fold_select_popups`).
                    if tag == Tag::Select && node.role == Role::ComboBox {
                        node.options = self.select_options(i);
                        walk_children = false;
                    }
                    let anonymous = matches!(node.role, Role::Generic | Role::None)
                        && node.name.is_empty()
                        && node.states.is_empty()
                        && facts.dev_id.is_none()
                        && !facts.clickable
                        && !facts.scrollable
                        && tag != Tag::Frame;
                    (!anonymous).then_some(node)
                }
                // A shadow root: its children go under the host.
                _ => None,
            };
            if let Some(mut node) = node {
                node.native = NativeId::new(scope, backend.to_string());
                place(&mut node, &facts);
                let is_frame = self.kind(i) == ELEMENT && self.tag(i) == Tag::Frame;
                let id = match step.up {
                    Some(p) => tree.append(p, node),
                    None => {
                        let id = tree.push(node);
                        tree.set_root(id);
                        id
                    }
                };
                if out.root.is_none() {
                    out.root = Some(id);
                }
                if is_frame {
                    out.frames.push((backend, id));
                }
                out.nodes += 1;
                next_up = Some(id);
            }
            if walk_children {
                for &c in self.children(i).iter().rev() {
                    stack.push(Step { i: c as usize, up: next_up, label, in_select });
                }
            }
        }
        out.names_cut = self.names_cut;
        out
    }
}
