//! A tree built from a DOM snapshot alone: what a large document is built from by design
//! (`dom_first`: Chromium's `getFullAXTree` grows faster than the page, the snapshot about
//! linearly), and what any document falls back to when its accessibility tree missed the
//! capture deadline.
//!
//! Roles come from ARIA `role` attributes, else tag names; names from `aria-labelledby`,
//! `aria-label`, labels, legends, `alt`, `value`, `title`, `placeholder` and, for roles named
//! by their content, the rendered text (bounded); descriptions from `aria-describedby`,
//! `aria-description` and tooltips; text from rendered text nodes, spaces as the line draws
//! them (preformatted text kept whole); states from attributes and form state; bounds,
//! developer id, password-ness, click, scroll and obscured from the same snapshot facts a full
//! capture uses. Boxes that are laid out but not drawn (`visibility: hidden`) and the content
//! of a closed `<details>` are left out, as the browser leaves them out. Native ids are the
//! same as a full capture's (the document's scope and the DOM backend node id), so refs stay
//! valid when a later capture gets the full tree. Elements that projection would unwrap
//! anyway (anonymous generic containers) are left out and their children hoisted, except a
//! block, which stays as an ignored node so that text on either side of it is not joined.
//!
//! Rendered, the result reads as the accessibility tree's on the test pages
//! (`tests/dom_fidelity.rs`), except where the snapshot cannot know: the browser's own widgets
//! inside date, time, colour and file inputs (a text box here), a check box's mixed state set
//! by a script, `aria-owns`, and list markers (left out).

mod editor_lines;
mod element;
mod gaps;
mod tags;
mod text;

use std::collections::HashMap;

use axsnap_core::{NativeId, Node, NodeId, Role, Tree};

use crate::layout::{Facts, RawDoc, SnapIndex};
use tags::{classify, Tag, A, ATTRS};
use text::{bounded, collapse, normalize};

pub(crate) use editor_lines::{editor_views, EditorView};
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
        Tag::Label | Tag::Legend => "label",
        Tag::Fieldset | Tag::Details => "group",
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
        .map(|&(i, up)| Step { i, up: Some(up), ..Step::top(i) })
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
    /// Inside an element whose text keeps its spaces and line breaks.
    pre: bool,
    /// Inside an editable host (`contenteditable`): every node there answers clicks (the
    /// snapshot says so), which marks no target of its own.
    in_editable: bool,
}

impl Step {
    /// A step at node `i` with nothing inherited.
    fn top(i: usize) -> Step {
        Step { i, up: None, label: None, in_select: false, pre: false, in_editable: false }
    }
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

    /// Laid out and drawn (not `visibility: hidden`).
    fn drawn(&self, i: usize) -> bool {
        self.snap.drawn(self.d, i)
    }

    /// Whether element `i` is an editable host (`contenteditable` empty or `true`).
    fn editable_host(&self, i: usize) -> bool {
        self.attr(i, A::Contenteditable).is_some_and(|v| v.is_empty() || v.eq_ignore_ascii_case("true"))
    }

    /// The rendered text of a text node (its own text inside a `<select>`, which has none), as
    /// written where CSS only changed its case (`cased`).
    fn text(&self, i: usize, in_select: bool) -> Option<&'s str> {
        let backend = self.doc.nodes.backend_node_id.get(i).copied();
        if self.snap.casing(self.d).is_some_and(|c| backend.is_some_and(|b| c.transformed(b))) {
            return self.doc.nodes.node_value.get(i).and_then(|&s| self.snap.string(s));
        }
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
        let start = Step { up: parent, ..Step::top(root) };
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
            if rendered[i] || self.drawn(i) || Some(i) == root {
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
            let mut facts = self.snap.facts_at(self.d, i);
            if step.in_editable {
                facts.clickable = false;
                facts.pointer = false;
            }
            let backend = self.doc.nodes.backend_node_id[i];
            let mut next_up = step.up;
            let mut label = step.label;
            let mut in_select = step.in_select;
            let mut pre = step.pre;
            let mut in_editable = step.in_editable;
            let mut walk_children = true;
            let mut only_summary = false;
            let node = match self.kind(i) {
                DOCUMENT => {
                    let title = self.snap.string(self.doc.title).unwrap_or_default();
                    // The document's URL, as the accessibility tree's root has it (links are
                    // shown relative to it).
                    let url = (!self.base_url.is_empty()).then(|| self.base_url.to_string());
                    Some(Node { role: Role::Document, name: normalize(title), url, ..Node::default() })
                }
                TEXT => {
                    let raw = self.text(i, step.in_select).unwrap_or_default();
                    // Preformatted text keeps its spaces and line breaks; elsewhere a run of
                    // spaces is one, and a space between two inline elements stays (it
                    // separates their words).
                    let text =
                        if step.pre { bounded(raw, MAX_TEXT).to_string() } else { collapse(raw, MAX_TEXT) };
                    let bare = text.trim_matches(' ');
                    let repeats = !bare.is_empty() && step.up.is_some_and(|p| tree.node(p).name == bare);
                    // A space the line collapsed away (at a line's end, between blocks) has
                    // no width: nothing separates there.
                    let collapsed = bare.is_empty() && !step.pre && facts.bounds.is_none_or(|b| b.w <= 0.0);
                    let node = Node { role: Role::Text, name: text.clone(), ..Node::default() };
                    (!text.is_empty() && !repeats && !collapsed).then_some(node)
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
                    if tag == Tag::Details && self.attr(i, A::Open).is_none() {
                        only_summary = true;
                    }
                    pre = facts.pre || (pre && !self.has_layout(i));
                    in_editable |= self.editable_host(i);
                    let mut node = self.element(i, tag, &step, facts.clickable);
                    // A paragraph laid out inline is no paragraph to the browser: its text
                    // runs on with what is around it (Sphinx's admonitions: `Note:` and the
                    // text after it are two inline `<p>`s).
                    if tag == Tag::Role("paragraph")
                        && node.role == Role::Paragraph
                        && self.attr(i, A::Role).is_none()
                        && facts.inline
                    {
                        node.role = Role::None;
                    }
                    // A drop-down's options are on it, as the accessibility tree's are made
                    // (`ax::fold_select_popups`).
                    if tag == Tag::Select && node.role == Role::ComboBox {
                        node.options = self.select_options(i);
                        walk_children = false;
                    }
                    // The browser leaves out a label that names a check box or radio
                    // button: its text is the control's name, and a click on it is a click
                    // on the control.
                    let names_toggle = tag == Tag::Label && self.labels_toggle(i);
                    let anonymous = names_toggle
                        || (matches!(node.role, Role::Generic | Role::None)
                            && node.name.is_empty()
                            && node.description.is_none()
                            && node.states.is_empty()
                            && facts.dev_id.is_none()
                            && !facts.clickable
                            && !facts.scrollable
                            && tag != Tag::Frame);
                    if !anonymous {
                        Some(node)
                    } else if facts.block {
                        // A block still ends a run of text: kept, as the accessibility tree
                        // keeps it, ignored, so projection unwraps it without joining the
                        // text on either side.
                        let mut n = Node { role: Role::None, ..Node::default() };
                        n.flags.ignored = true;
                        Some(n)
                    } else {
                        None
                    }
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
                let summary = only_summary.then(|| self.first_child(i, Tag::Summary)).flatten();
                for &c in self.children(i).iter().rev() {
                    if only_summary && Some(c as usize) != summary {
                        continue;
                    }
                    stack.push(Step { i: c as usize, up: next_up, label, in_select, pre, in_editable });
                }
            }
        }
        out.names_cut = self.names_cut;
        out
    }
}
