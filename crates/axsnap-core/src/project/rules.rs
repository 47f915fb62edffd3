//! The projection rules (1-4 and text limits): one bottom-up walk of the raw tree that builds
//! the working tree the views then cut.
//!
//! The walk is a post-order over an explicit stack. Finished nodes wait on a value stack; when
//! a node finishes, its children are the tail of that stack. A node that is dropped but whose
//! children stay (ignored, presentational, anonymous) simply leaves them there, so they are
//! hoisted in place into its parent without copying. Decisions that need a node's final
//! children (joining text, repeated labels, empty containers, name promotion) happen when it
//! finishes, after its children did, so the result is stable: projecting it again changes
//! nothing.

use std::collections::{HashMap, HashSet};

use crate::role::Role;
use crate::state::{Action, ActionSet, State, StateSet};
use crate::tree::{NativeId, Node, NodeId, Tree};

use super::icon_label;
use super::prose;
use super::text::{self, is_blank, is_blank_opt};
use super::work::Work;
use super::{ProjectOptions, ProjectStats, REDACTED};

/// States that say where a node is drawn, not what it is: they do not make a wrapper meaningful.
fn incidental_states() -> StateSet {
    StateSet::EMPTY.with(State::Focusable).with(State::Offscreen).with(State::Obscured)
}

/// Whether `states` holds nothing but incidental states.
fn only_incidental(states: StateSet) -> bool {
    states.bits() & !incidental_states().bits() == 0
}

/// A container with nothing of its own: no name, value, description, developer id, action or
/// meaningful state. Rule 2 replaces it by its children.
fn is_anonymous(n: &Node) -> bool {
    matches!(n.role, Role::Generic | Role::Group | Role::Other(_))
        && is_blank(&n.name)
        && is_blank_opt(&n.value)
        && is_blank_opt(&n.description)
        && is_blank_opt(&n.dev_id)
        && n.actions.is_empty()
        && only_incidental(n.states)
}

/// A named generic wrapper that only carries a name (rule 2 moves the name onto its single
/// unnamed child).
fn is_name_wrapper(n: &Node) -> bool {
    n.role == Role::Generic
        && !is_blank(&n.name)
        && is_blank_opt(&n.value)
        && is_blank_opt(&n.description)
        && is_blank_opt(&n.dev_id)
        && n.actions.is_empty()
        && only_incidental(n.states)
}

/// Roles that mean something even with no content, so an empty one stays (a separator, a table
/// cell that keeps its column, a widget, a surface). Images and text have rules of their own.
fn stays_when_empty(role: &Role) -> bool {
    role.is_widget()
        || matches!(
            role,
            Role::Separator
                | Role::Cell
                | Role::ColumnHeader
                | Role::RowHeader
                | Role::Row
                | Role::Image
                | Role::Text
                | Role::TextRun
                | Role::ProgressBar
                | Role::Meter
                | Role::Dialog
                | Role::AlertDialog
                | Role::Document
                | Role::Application
                | Role::Window
                | Role::More
        )
}

/// An empty container: no children and nothing of its own (rule 2 drops it). A developer id
/// alone does not keep it: it holds nothing to read or use (Gradio's empty
/// `data-testid="status-tracker"` boxes, one before every component).
fn is_empty_container(n: &Node) -> bool {
    n.children.is_empty() && says_nothing(n) && !stays_when_empty(&n.role)
}

/// No name, value, description or action of its own, and no state that means anything.
fn says_nothing(n: &Node) -> bool {
    is_blank(&n.name)
        && is_blank_opt(&n.value)
        && is_blank_opt(&n.description)
        && n.actions.is_empty()
        && only_incidental(n.states)
}

fn is_anonymous_leaf_content(n: &Node) -> bool {
    says_nothing(n) && is_blank_opt(&n.dev_id)
}

/// A text or label leaf that only shows text (rule 4 may drop it as a repeat).
fn is_text_leaf(n: &Node) -> bool {
    matches!(n.role, Role::Text | Role::Label)
        && n.children.is_empty()
        && n.actions.is_empty()
        && is_blank_opt(&n.value)
}

/// The text a child shows when it is only text: a text or label leaf's name, or the text of
/// an inline code span around a single text (`link "Vec<T>"` over `code: Vec<T>`). Rule 4
/// compares it with the parent's name and value.
fn shown_text<'t>(tree: &'t Tree, n: &'t Node) -> Option<&'t str> {
    if is_text_leaf(n) {
        return Some(n.name.as_str());
    }
    let [only] = n.children.as_slice() else { return None };
    let c = tree.node(*only);
    let plain_code = n.role == Role::Code && is_anonymous_leaf_content(n);
    (plain_code && c.role == Role::Text && is_text_leaf(c)).then_some(c.name.as_str())
}

/// How deep [`is_decor`] looks: icon markup is shallow; anything deeper is content.
const DECOR_DEPTH: usize = 4;

/// Whether `id` is decoration inside a control: a generic, group or image with nothing of its
/// own to say, whose children (at most `depth` levels) are decoration too.
fn is_decor(tree: &Tree, id: NodeId, depth: usize) -> bool {
    let n = tree.node(id);
    matches!(n.role, Role::Generic | Role::Group | Role::Image)
        && is_blank(&n.name)
        && is_blank_opt(&n.value)
        && is_blank_opt(&n.description)
        && is_blank_opt(&n.dev_id)
        && only_incidental(n.states)
        && (n.children.is_empty() || depth > 0 && n.children.iter().all(|&c| is_decor(tree, c, depth - 1)))
}

/// How deep [`label_parts`] looks: a label, its key binding, the keys.
const LABEL_DEPTH: usize = 4;

/// Collects the texts node `k` shows into `parts` when it only shows text: a text leaf, or a
/// label or generic with no value, description, developer id or state of its own, whose
/// actions are none (or a click and focus, inside a control that clicks: the row's own); a
/// named one stands for its content, an unnamed one for its children's texts, `depth` levels
/// down. False when it is anything else.
fn label_parts<'t>(tree: &'t Tree, k: NodeId, clicks: bool, depth: usize, parts: &mut Vec<&'t str>) -> bool {
    let c = tree.node(k);
    if is_text_leaf(c) {
        parts.push(c.name.as_str());
        return true;
    }
    let mut states = c.states;
    // Drawn over what a menu covers says where it is, not what it is.
    states.set(State::Covering, false);
    let plain = matches!(c.role, Role::Generic | Role::Label)
        && is_blank_opt(&c.value)
        && is_blank_opt(&c.description)
        && is_blank_opt(&c.dev_id)
        && only_incidental(states)
        && c.actions.iter().all(|a| clicks && matches!(a, Action::Click | Action::Focus));
    if !plain {
        return false;
    }
    if !is_blank(&c.name) {
        parts.push(c.name.as_str());
        return true;
    }
    depth > 0 && c.children.iter().all(|&g| label_parts(tree, g, clicks, depth - 1, parts))
}

/// What a wrapper around one control does with itself when it goes ([`pass_through`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PassThrough {
    /// It says nothing the control does not: it simply goes.
    Goes,
    /// Its tooltip (`title`, a description) says more than the control's name, and the
    /// control has no description of its own: the control takes it.
    GivesDescription,
}

/// A wrapper with nothing of its own around the one control it holds, drawn once, as the
/// control: a toolbar slot titled "New Folder" around button "New Folder", an unnamed slot
/// that only listens for clicks (JupyterLab's toolbar items, each an unnamed clicking `div`
/// around a titled one around the button), a slot titled "Switch kernel" around button "No
/// Kernel" (the button takes the title as its description). A click on the wrapper is one on
/// the control (the control's own click bubbles to it), so a wrapper that only clicks goes
/// when its control clicks. A state the wrapper has is one the control has too (a disabled
/// slot around a disabled button). A wrapper with a name of its own (a group "Font" around a
/// spin button) stays.
fn pass_through(tree: &Tree, n: &Node) -> Option<PassThrough> {
    let [only] = n.children.as_slice() else { return None };
    let c = tree.node(*only);
    // A `<label>` around its control (`label [e2] [clickable]` over `textbox "Due date"`):
    // its text named the control, and a click on it is one on the control.
    let label = n.role == Role::Label && n.actions.iter().all(|a| matches!(a, Action::Click | Action::Focus));
    let plain = (matches!(n.role, Role::Generic | Role::Group) || label)
        && c.role.is_widget()
        && is_blank_opt(&n.value)
        && is_blank_opt(&n.dev_id)
        && (n.actions.is_empty() || label || clicks_through(n, c))
        && n.states.iter().all(|st| incidental_states().contains(st) || c.states.contains(st));
    if !plain || !(is_blank(&n.name) || text::same_words(&n.name, &c.name)) {
        return None;
    }
    let tip = n.description.as_deref().filter(|d| !is_blank(d));
    match tip {
        None => Some(PassThrough::Goes),
        Some(d)
            if text::same_words(d, &c.name)
                || c.description.as_deref().is_some_and(|cd| text::same_words(d, cd)) =>
        {
            Some(PassThrough::Goes)
        }
        Some(_) if is_blank_opt(&c.description) => Some(PassThrough::GivesDescription),
        Some(_) => None,
    }
}

/// The text a control's child shows when it is a label span: a generic with nothing of its
/// own but a click listener (a click on it is one on the control), around one text leaf
/// (JupyterLab's `button "JupyterLab"` over a clicking `span` reading "JupyterLab").
fn label_span_text<'t>(tree: &'t Tree, n: &'t Node) -> Option<&'t str> {
    let [only] = n.children.as_slice() else { return None };
    let c = tree.node(*only);
    let spans = n.role == Role::Generic
        && is_blank(&n.name)
        && is_blank_opt(&n.value)
        && is_blank_opt(&n.description)
        && is_blank_opt(&n.dev_id)
        && n.actions.iter().all(|a| matches!(a, Action::Click | Action::Focus))
        && only_incidental(n.states);
    (spans && c.role == Role::Text && is_text_leaf(c)).then_some(c.name.as_str())
}

/// Whether a control's child `n` only says the control's `name` again: a label span reading
/// it, or a generic named like the control whose text is all part of that name (a dialog
/// button "Select Kernel" over a `div` titled "Select Kernel" reading "Select").
fn repeats_control_name(tree: &Tree, n: &Node, name: &str) -> bool {
    if let Some(said) = label_span_text(tree, n) {
        return text::same_words(said, name);
    }
    let lower = name.to_lowercase();
    n.role == Role::Generic
        && text::same_words(&n.name, name)
        && is_blank_opt(&n.value)
        && n.description.as_deref().is_none_or(|d| is_blank(d) || text::same_words(d, name))
        && is_blank_opt(&n.dev_id)
        && n.actions.is_empty()
        && only_incidental(n.states)
        && n.children.iter().all(|&k| {
            let k = tree.node(k);
            is_text_leaf(k) && lower.contains(k.name.trim().to_lowercase().as_str())
        })
}

/// Whether all `wrapper` does is click or take focus, and `control` clicks.
fn clicks_through(wrapper: &Node, control: &Node) -> bool {
    control.actions.contains(Action::Click)
        && wrapper.actions.iter().all(|a| matches!(a, Action::Click | Action::Focus))
}

/// A plain run of text that can be joined with its neighbour (rule 3). Text in an editor has
/// the editor's actions; runs join only with runs of the same states and actions.
/// A text that says nothing and does nothing: whitespace alone (or characters no reader
/// sees), no value, description or link, no action.
fn is_idle_text(n: &Node) -> bool {
    n.role == Role::Text
        && n.children.is_empty()
        && is_blank(&n.name)
        && is_blank_opt(&n.value)
        && n.description.is_none()
        && n.url.is_none()
        && n.actions.is_empty()
}

fn is_joinable(n: &Node) -> bool {
    n.role == Role::Text
        && n.children.is_empty()
        && n.value.is_none()
        && n.description.is_none()
        && n.dev_id.is_none()
        && n.url.is_none()
}

/// One raw node being walked.
struct Frame {
    raw: NodeId,
    next_child: usize,
    /// Where this node's finished children start on the value stack.
    start: usize,
    /// Inside (or at) a password field.
    protected: bool,
    /// Inside (or at) preformatted text: whitespace is the page's.
    pre: bool,
}

/// The walk's state.
struct Builder<'a> {
    raw: &'a Tree,
    opts: &'a ProjectOptions,
    stats: &'a mut ProjectStats,
    out: Tree,
    /// For each node of `out`, the raw node it was made from.
    origin: Vec<Option<NodeId>>,
    seen: Vec<bool>,
    /// Finished output nodes waiting for their parent.
    done: Vec<NodeId>,
    /// Raw nodes visited (the walk's share of `raw_nodes`).
    visited: usize,
    /// Output nodes hoisted out of a block-level box that was not kept, as its first or last
    /// piece: text is never joined across them (`Output` and `Launcher`, two captions, are two
    /// texts), except in preformatted text, where a block is a line.
    starts_block: HashSet<NodeId>,
    ends_block: HashSet<NodeId>,
    /// The first of two or more pieces hoisted out of such a box, with the box (raw): its
    /// running text may become a paragraph again ([`prose`]).
    block_heads: prose::BlockHeads,
    /// Controls named once ([`icon_label`]), with the name the browser computed from their
    /// content, icons included: what a container named from the same content reads there
    /// (a cell "Edit Edit" around the link now named "Edit").
    said_with_icons: HashMap<NodeId, String>,
}

/// Applies the rules to the subtree of `start` (kept as the root whatever it is) and returns
/// the working tree (post-order arena, root set) with the raw node each of its nodes was made
/// from, and the number of raw nodes visited.
///
/// `capacity` bounds the nodes the walk can keep (the subtree's size or more); reserving it
/// up front saves regrowing an arena of large nodes.
pub(super) fn build(
    raw: &Tree,
    start: NodeId,
    capacity: usize,
    opts: &ProjectOptions,
    stats: &mut ProjectStats,
) -> (Work, usize) {
    let mut b = Builder {
        raw,
        opts,
        stats,
        // Pages past what is used are never touched.
        out: Tree::with_capacity(capacity),
        origin: Vec::with_capacity(capacity),
        seen: vec![false; raw.arena_len()],
        done: Vec::new(),
        visited: 0,
        starts_block: HashSet::new(),
        ends_block: HashSet::new(),
        block_heads: prose::BlockHeads::new(),
        said_with_icons: HashMap::new(),
    };
    let Some(first) = raw.get(start) else { return (Work::default(), 0) };
    b.seen[start.index()] = true;
    b.visited = 1;
    let mut stack = vec![Frame {
        raw: start,
        next_child: 0,
        start: 0,
        protected: first.states.contains(State::Protected),
        pre: first.flags.pre,
    }];
    while let Some(top) = stack.last_mut() {
        let node = raw.node(top.raw);
        if let Some(&child) = node.children.get(top.next_child) {
            top.next_child += 1;
            let (protected, pre) = (top.protected, top.pre);
            // A child id outside the arena or seen before (a cycle, a shared child) is skipped:
            // every node is projected at most once.
            let Some(c) = raw.get(child) else { continue };
            if b.seen[child.index()] {
                continue;
            }
            b.seen[child.index()] = true;
            b.visited += 1;
            if opts.drop_hidden && (c.flags.hidden || c.role == Role::TextRun) {
                let below = b.skip_subtree(child);
                b.stats.dropped_hidden += 1 + below;
                continue;
            }
            stack.push(Frame {
                raw: child,
                next_child: 0,
                start: b.done.len(),
                protected: protected || c.states.contains(State::Protected),
                pre: pre || c.flags.pre,
            });
        } else if let Some(frame) = stack.pop() {
            let is_root = stack.is_empty();
            b.finish(frame, is_root);
        }
    }
    if let Some(&root) = b.done.last() {
        b.out.set_root(root);
    }
    (Work { tree: b.out, origin: b.origin, markers: Default::default() }, b.visited)
}

/// The paragraph that stands for a dropped block's running text (see [`prose`]): the block's
/// identity and place, nothing of its own to act on.
fn paragraph_for(block: &Node) -> Node {
    Node {
        role: Role::Paragraph,
        bounds: block.bounds,
        native: block.native.clone(),
        flags: crate::tree::RawFlags { block: true, ..Default::default() },
        ..Node::default()
    }
}

/// A copy of one raw node with no children, under the rules' text handling (the root of an
/// output whose scope was not found).
pub(super) fn shell(raw: &Node, opts: &ProjectOptions, stats: &mut ProjectStats) -> Node {
    copy_node(raw, opts, raw.states.contains(State::Protected), raw.flags.pre, stats)
}

/// What a node in the content under a name reads as in that name, as the browser computes a
/// name from content: a field (a text box, a combo box, a picker) its value, or when it holds
/// none, its own name (its placeholder: Chromium names a cell holding an empty search box
/// "Filter rows: Search this table", and, once typed into, "Filter rows: Lantern"); anything
/// else its name. Read as such, a name that only repeats a field's value goes with the rest,
/// so typing into the field changes the field alone.
fn content_text(n: &Node) -> &str {
    let field = is_text_field(&n.role) || n.role.is_picker();
    match n.value.as_deref() {
        Some(v) if field && !is_blank(v) => v,
        _ => &n.name,
    }
}

/// A field whose value is typed text, which the browser holds in an inner editor of its own
/// (`<input>`, `<textarea>`, an editable combo box, `<input type=number>`).
fn is_text_field(role: &Role) -> bool {
    matches!(role, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton)
}

impl Builder<'_> {
    /// Drops a text field's inner editor: the editable element the browser puts inside a field
    /// to hold its text (`generic [editable]` over the value's text), which only repeats the
    /// field's value (or holds nothing when the field is empty).
    fn drop_inner_editor(&mut self, id: NodeId, value: Option<&str>, kids: &mut Vec<NodeId>) {
        const MAX_NODES: usize = 2_000;
        if !is_text_field(&self.out.node(id).role) {
            return;
        }
        let out = &self.out;
        let value = value.unwrap_or("");
        let before = kids.len();
        kids.retain(|&k| {
            let c = out.node(k);
            if c.role != Role::Generic || !c.states.contains(State::Editable) || !is_blank(&c.name) {
                return true;
            }
            let mut texts: Vec<&str> = Vec::new();
            let mut stack = vec![k];
            let mut seen = 0;
            while let Some(x) = stack.pop() {
                seen += 1;
                let n = out.node(x);
                if seen > MAX_NODES || (x != k && n.role.is_widget()) {
                    return true;
                }
                if n.role == Role::Text || (n.children.is_empty() && !is_blank(&n.name)) {
                    texts.push(&n.name);
                }
                stack.extend(n.children.iter().rev().copied());
            }
            let repeats = if texts.is_empty() {
                is_blank(value)
            } else {
                text::parts_read_as(value, texts.iter().copied()) || text::cut_parts_begin(value, &texts)
            };
            !repeats
        });
        self.stats.repeated_values_dropped += before - kids.len();
    }

    /// Whether `value` is an editor's text that the content under it shows line by line (a
    /// `contenteditable` element's value is its text): the lines stay, the value goes. A
    /// text field keeps its value, which is what typing sets.
    fn is_spelled_editor_value(&self, id: NodeId, value: Option<&str>, kids: &[NodeId]) -> bool {
        const MAX_TEXTS: usize = 5_000;
        let n = self.out.node(id);
        if !n.states.contains(State::Editable) || is_text_field(&n.role) {
            return false;
        }
        // An empty editor's value says nothing its emptiness does not.
        let Some(value) = value else { return false };
        if is_blank(value) {
            return true;
        }
        let mut texts: Vec<&str> = Vec::new();
        let mut stack: Vec<NodeId> = kids.iter().rev().copied().collect();
        while let Some(k) = stack.pop() {
            if texts.len() > MAX_TEXTS {
                return false;
            }
            let c = self.out.node(k);
            if c.role == Role::Text {
                texts.push(&c.name);
            }
            stack.extend(c.children.iter().rev().copied());
        }
        !texts.is_empty() && text::parts_read_as(value, texts.iter().copied())
    }

    /// A wrapper inside an editor that is editable only because the editor is (a code
    /// editor's line `div`s and token spans): nothing of its own, so its text joins the
    /// editor's, a line per block in preformatted text.
    fn is_editor_part(&self, raw: &Node) -> bool {
        // Not in a text field: its inner editor repeats the field's value and goes whole
        // (`drop_inner_editor`).
        let in_editor = raw
            .parent
            .and_then(|p| self.raw.get(p))
            .is_some_and(|p| p.states.contains(State::Editable) && !is_text_field(&p.role));
        let mut states = raw.states;
        states.set(State::Editable, false);
        in_editor
            && matches!(raw.role, Role::Generic | Role::Group)
            && is_blank(&raw.name)
            && is_blank_opt(&raw.value)
            && is_blank_opt(&raw.description)
            && is_blank_opt(&raw.dev_id)
            && raw.actions.iter().all(|a| matches!(a, Action::Click | Action::SetValue | Action::Focus))
            && only_incidental(states)
    }

    /// Remembers the edges of a block-level box whose pieces (from `start` on the value stack)
    /// were hoisted into its parent.
    fn mark_block(&mut self, raw_id: NodeId, start: usize) {
        let raw = self.raw.node(raw_id);
        if !raw.flags.block || start >= self.done.len() {
            return;
        }
        self.starts_block.insert(self.done[start]);
        if self.done.len() - start >= 2 {
            self.block_heads.insert(self.done[start], raw_id);
        }
        if let Some(&last) = self.done.last() {
            self.ends_block.insert(last);
        }
    }

    /// Marks a dropped subtree seen and counts its nodes below `id`.
    fn skip_subtree(&mut self, id: NodeId) -> usize {
        let mut count = 0;
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            for &c in &self.raw.node(n).children {
                if self.raw.get(c).is_some() && !self.seen[c.index()] {
                    self.seen[c.index()] = true;
                    count += 1;
                    stack.push(c);
                }
            }
        }
        self.visited += count;
        count
    }

    /// A raw node whose children are all finished.
    fn finish(&mut self, frame: Frame, is_root: bool) {
        let raw = self.raw.node(frame.raw);
        let opts = self.opts;
        if !is_root {
            if opts.drop_hidden && (raw.flags.ignored || raw.role == Role::None) {
                // Its children stay where they are on the value stack: hoisted in place.
                self.stats.dropped_hidden += 1;
                self.mark_block(frame.raw, frame.start);
                return;
            }
            if opts.unwrap_anonymous && (is_anonymous(raw) || self.is_editor_part(raw)) {
                self.stats.unwrapped += 1;
                self.mark_block(frame.raw, frame.start);
                return;
            }
        }
        let node = copy_node(raw, opts, frame.protected, frame.pre, self.stats);
        let id = self.out.push(node);
        self.origin.push(Some(frame.raw));
        let kids: Vec<NodeId> = self.done.drain(frame.start..).collect();
        self.out.node_mut(id).children = kids;
        self.tidy_children(id);
        // An editor left with no content (tidying only runs on nodes with children).
        if opts.drop_redundant
            && self.out.node(id).children.is_empty()
            && self.is_spelled_editor_value(id, self.out.node(id).value.as_deref(), &[])
        {
            self.out.node_mut(id).value = None;
            self.stats.repeated_values_dropped += 1;
        }
        if is_root {
            self.done.push(id);
            return;
        }
        let n = self.out.node(id);
        if opts.drop_redundant
            && n.role == Role::Image
            && n.children.is_empty()
            && is_blank(&n.name)
            && n.actions.is_empty()
        {
            self.stats.blank_images_dropped += 1;
            return;
        }
        // Whitespace alone stays until its run is joined: it is what separates its neighbours.
        if opts.join_text
            && n.role == Role::Text
            && n.children.is_empty()
            && n.name.is_empty()
            && is_blank_opt(&n.value)
        {
            self.stats.empty_text_dropped += 1;
            return;
        }
        if opts.unwrap_anonymous {
            if is_empty_container(n) {
                self.stats.empty_containers_dropped += 1;
                return;
            }
            if let Some(how) = pass_through(&self.out, n).filter(|_| opts.drop_redundant) {
                let child = n.children[0];
                if how == PassThrough::GivesDescription {
                    let tip = self.out.node_mut(id).description.take();
                    self.out.node_mut(child).description = tip;
                }
                self.stats.unwrapped += 1;
                self.done.push(child);
                return;
            }
            if is_name_wrapper(n) && n.children.len() == 1 {
                let child = n.children[0];
                let c = self.out.node(child);
                // Not onto text: a text's name is its content (and is redacted in a password
                // field, which a promoted name would escape).
                if is_blank(&c.name) && !matches!(c.role, Role::More | Role::Text | Role::TextRun) {
                    let name = std::mem::take(&mut self.out.node_mut(id).name);
                    self.out.node_mut(child).name = name;
                    // The child's own children may now repeat its new name.
                    self.tidy_children(child);
                    self.stats.names_promoted += 1;
                    self.done.push(child);
                    return;
                }
            }
        }
        self.done.push(id);
    }

    /// Rules 3 and 4 on a finished node's children: repeats of the node's name and value,
    /// then joining, then repeats again (a joined run may now equal the name or value), then
    /// images repeating the name and labels or texts repeating a neighbouring control. Dropping
    /// repeats first means no drop can make two texts adjacent after joining; a sibling repeat
    /// always leaves its control next to the gap, so it cannot either. Edge spaces are
    /// trimmed after every drop, since a drop can leave a run at the edge.
    fn tidy_children(&mut self, id: NodeId) {
        let opts = self.opts;
        if self.out.node(id).children.is_empty() || !(opts.drop_redundant || opts.join_text) {
            return;
        }
        let mut kids = std::mem::take(&mut self.out.node_mut(id).children);
        let name = std::mem::take(&mut self.out.node_mut(id).name);
        let value = self.out.node_mut(id).value.take();
        if opts.drop_redundant {
            self.drop_repeats(&name, value.as_deref(), &mut kids);
        }
        let runs = if opts.join_text { self.join_runs(&mut kids) } else { Vec::new() };
        let mut name = name;
        let mut value = value;
        if opts.drop_redundant {
            self.drop_inner_editor(id, value.as_deref(), &mut kids);
        }
        if opts.drop_redundant && self.is_spelled_editor_value(id, value.as_deref(), &kids) {
            value = None;
            self.stats.repeated_values_dropped += 1;
        }
        if opts.drop_redundant && self.out.node(id).role.is_widget() {
            self.drop_decor(&mut kids);
            self.say_icon_name_once(id, &mut name, &mut kids);
            self.drop_name_repeats(&name, &mut kids);
            self.drop_label_parts(id, &name, &mut kids);
        }
        if opts.drop_redundant && matches!(self.out.node(id).role, Role::Menu | Role::MenuBar) {
            self.mark_separators(&kids);
        }
        if opts.drop_redundant {
            self.drop_repeats(&name, value.as_deref(), &mut kids);
            self.drop_spelled_name(&name, &mut kids);
            self.drop_repeated_images(&name, &mut kids);
            self.drop_sibling_repeats(&mut kids);
            // Also in the interactive-only view: it keeps a heading's content whole (its links
            // say it), and a widget named by content that holds other widgets (rustdoc's
            // method summary holding the signature's heading) keeps them.
            if self.content_spells_name(id, &name, value.as_deref(), &kids) {
                name.clear();
                self.stats.content_names_dropped += 1;
            }
        }
        // Last, once every drop is done: a drop after joining can take away the inline
        // neighbour a run's edge space was kept for (a logo image repeating the name), and a
        // second projection would then trim it.
        self.trim_run_edges(&kids, &runs);
        let edges = self.mark_block_edges(&kids, &runs);
        if opts.join_text && !self.block_heads.is_empty() {
            let raw = self.raw;
            let origin = &mut self.origin;
            self.stats.paragraphs_grouped +=
                prose::group(&mut self.out, &mut kids, &self.block_heads, &self.ends_block, &mut |out, b| {
                    origin.push(Some(b));
                    out.push(paragraph_for(raw.node(b)))
                });
        }
        let editor = self.out.node(id).states.contains(State::Editable);
        if opts.join_text && !editor && !self.out.node(id).role.is_widget() {
            let origin = &mut self.origin;
            self.stats.paragraphs_grouped +=
                prose::group_loose(&mut self.out, &mut kids, &edges, &mut |out, first| {
                    // The paragraph stands for no element: a synthetic id named after its first
                    // piece, so the same sentence keeps it from one capture to the next.
                    let at = out.node(first);
                    let native = NativeId::derived(super::SYNTHETIC_SCOPE, "sentence", &at.native);
                    let node = Node { native, ..paragraph_for(at) };
                    origin.push(None);
                    out.push(node)
                });
        }
        let n = self.out.node_mut(id);
        n.children = kids;
        n.name = name;
        n.value = value;
    }

    /// Whether `name` only spells the content shown under the node (a name computed from
    /// content: a heading made of a link, a `<summary>` holding a signature with links), so
    /// the content can stand for it. Not when the children are all text (then the children
    /// go, [`Self::drop_spelled_name`]), and not for a widget whose content has no other
    /// widget: a link or button keeps the name it is found and acted on by.
    ///
    /// The content is read from the leaves (their names) in order, whitespace ignored, a field
    /// as the browser reads it into its container's name ([`content_text`]: a cell named
    /// "Lantern" over a textbox holding "Lantern"); the walk stops as soon as it reads past
    /// the name or has visited a few nodes per character, so a node costs at most about its
    /// name's length.
    fn content_spells_name(&self, id: NodeId, name: &str, value: Option<&str>, kids: &[NodeId]) -> bool {
        let out = &self.out;
        let role = &out.node(id).role;
        if is_blank(name)
            || kids.is_empty()
            || value.is_some_and(|v| !is_blank(v))
            || matches!(role, Role::Document | Role::Window | Role::Dialog | Role::AlertDialog | Role::Other(_))
            // Without its name a generic or group with nothing else of its own would be an
            // anonymous wrapper, which a second projection would unwrap: projecting twice
            // must change nothing. One that scrolls or can be acted on stays.
            || (matches!(role, Role::Generic | Role::Group) && {
                let n = out.node(id);
                n.actions.is_empty() && only_incidental(n.states) && is_blank_opt(&n.dev_id) && is_blank_opt(&n.description)
            })
            || kids.iter().all(|&k| is_text_leaf(out.node(k)))
        {
            return false;
        }
        // A name cut at the text limit spells the start of the content: what it shows must
        // match, and the content may go on past it.
        let cut = crate::caps::is_cut(name);
        let shown = if cut { name.rfind(crate::caps::MARK).map_or(name, |i| &name[..i]) } else { name };
        let want: Vec<char> = shown.chars().filter(|c| !c.is_whitespace()).collect();
        if want.is_empty() {
            return false;
        }
        let mut budget = 4 * want.len() + 64;
        let mut read = 0;
        let mut holds_widget = false;
        let mut stack: Vec<NodeId> = kids.iter().rev().copied().collect();
        while let Some(k) = stack.pop() {
            budget = match budget.checked_sub(1) {
                Some(b) => b,
                None => return false,
            };
            let c = out.node(k);
            holds_widget |= c.role.is_widget();
            let field = is_text_field(&c.role) || c.role.is_picker();
            if !field && !c.children.is_empty() {
                stack.extend(c.children.iter().rev().copied());
                continue;
            }
            let said = self.said_with_icons.get(&k).map_or_else(|| content_text(c), String::as_str);
            for ch in said.chars().filter(|c| !c.is_whitespace()) {
                if cut && read == want.len() {
                    return holds_widget || !role.is_widget();
                }
                if want.get(read) != Some(&ch) {
                    return false;
                }
                read += 1;
            }
        }
        read == want.len() && (holds_widget || !role.is_widget())
    }

    /// Drops text and label children (and code spans around one text) that repeat `name` (a
    /// label repeating its parent) or `value` (the text a field or an editable combobox shows
    /// of its own value).
    fn drop_repeats(&mut self, name: &str, value: Option<&str>, kids: &mut Vec<NodeId>) {
        let value = value.filter(|v| !is_blank(v));
        if is_blank(name) && value.is_none() {
            return;
        }
        let out = &self.out;
        let (mut labels, mut values) = (0, 0);
        kids.retain(|&k| {
            let Some(said) = shown_text(out, out.node(k)) else { return true };
            if !is_blank(name) && text::same_words(said, name) {
                labels += 1;
                return false;
            }
            if value.is_some_and(|v| text::same_words(said, v)) {
                values += 1;
                return false;
            }
            true
        });
        self.stats.repeated_labels_dropped += labels;
        self.stats.repeated_values_dropped += values;
    }

    /// Drops a control's decoration: children with nothing of their own to say (no name,
    /// value, description, developer id or meaningful state) holding only more of the same
    /// (icon spans, an unnamed svg). A click on one is a click on the control, so a click
    /// listener does not keep one (apps put listeners on icon spans).
    fn drop_decor(&mut self, kids: &mut Vec<NodeId>) {
        let before = kids.len();
        let out = &self.out;
        kids.retain(|&k| !is_decor(out, k, DECOR_DEPTH));
        self.stats.empty_containers_dropped += before - kids.len();
    }

    /// Names a control made of icons and labels saying the same by its labels alone, and
    /// drops the children, which then only spell that name ([`icon_label`]).
    fn say_icon_name_once(&mut self, id: NodeId, name: &mut String, kids: &mut Vec<NodeId>) {
        let out = &self.out;
        let Some(once) = icon_label::name_without_icons(out, name, kids, |t, k| shown_text(t, t.node(k)))
        else {
            return;
        };
        let icons = kids.iter().filter(|&&k| out.node(k).role == Role::Image).count();
        self.stats.icon_names_said_once += 1;
        self.stats.repeated_images_dropped += icons;
        self.stats.repeated_labels_dropped += kids.len() - icons;
        self.said_with_icons.insert(id, std::mem::replace(name, once));
        kids.clear();
    }

    /// Drops a control's children that only say its `name` again ([`repeats_control_name`]).
    fn drop_name_repeats(&mut self, name: &str, kids: &mut Vec<NodeId>) {
        if is_blank(name) {
            return;
        }
        let before = kids.len();
        let out = &self.out;
        kids.retain(|&k| !repeats_control_name(out, out.node(k), name));
        self.stats.repeated_labels_dropped += before - kids.len();
    }

    /// Drops a control's children when together they only spell its `name`: a menu item
    /// named from its content, `Rename... F2`, whose label is a span of its own with an
    /// `aria-label` (a second ref, `generic "Rename..." [e339]`, drawn over what the menu
    /// covers) beside its key binding's text; a command palette's option `Add Line Comment,
    /// Control+K Control+C` over its label and its key binding spelled a key per line
    /// (`text: Ctrl` / `+` / `text: K`). Each child is text, or a label or generic that says
    /// nothing else and does nothing but what the control does (a click on a row that
    /// clicks); a named one stands for its content. The spelling is compared on letters and
    /// digits alone (the name's `, ` between label and keys is not drawn).
    fn drop_label_parts(&mut self, id: NodeId, name: &str, kids: &mut Vec<NodeId>) {
        if is_blank(name) || kids.is_empty() {
            return;
        }
        let out = &self.out;
        let clicks = out.node(id).actions.contains(Action::Click);
        let mut parts = Vec::new();
        if kids.iter().all(|&k| label_parts(out, k, clicks, LABEL_DEPTH, &mut parts))
            && text::same_letters(name, parts.into_iter())
        {
            self.stats.repeated_labels_dropped += kids.len();
            kids.clear();
        }
    }

    /// Makes a menu's empty, nameless children separators: a menu draws its separators as
    /// empty items, and a ref on one (`generic [e337] [disabled]`) is a target that does
    /// nothing. Monaco writes `<a class="separator" role="presentation" tabindex="-1"
    /// aria-disabled="true">`, which the browser keeps as a focusable generic; VS Code's
    /// workbench menus write `<a role="checkbox" aria-disabled="true" aria-label="">`, a
    /// checkbox. A disabled item (checkbox or menu item) with no name, content or state of
    /// its own is no choice the user can make: it only draws a line.
    fn mark_separators(&mut self, kids: &[NodeId]) {
        for &k in kids {
            let c = self.out.node_mut(k);
            let empty = c.children.is_empty()
                && is_blank(&c.name)
                && is_blank_opt(&c.value)
                && is_blank_opt(&c.description)
                && is_blank_opt(&c.url);
            let focus_only = c.role == Role::Generic && c.actions.iter().all(|a| a == Action::Focus);
            // Disabled does nothing; a checked or expanded item still says something.
            let mut states = c.states;
            states.set(State::Disabled, false);
            states.set(State::Covering, false);
            let dead_item = matches!(
                c.role,
                Role::CheckBox | Role::MenuItem | Role::MenuItemCheckbox | Role::MenuItemRadio
            ) && c.states.contains(State::Disabled)
                && only_incidental(states);
            if empty && (focus_only || dead_item) {
                c.role = Role::Separator;
                c.states = StateSet::EMPTY;
                c.actions = ActionSet::EMPTY;
                self.stats.separators_marked += 1;
            }
        }
    }

    /// Drops image children without actions that only repeat `name` (a logo inside a link
    /// named like it), also when the image's tooltip says its name again (`<img alt="Home"
    /// title="Home">` in a link "Home").
    fn drop_repeated_images(&mut self, name: &str, kids: &mut Vec<NodeId>) {
        if is_blank(name) {
            return;
        }
        let out = &self.out;
        let before = kids.len();
        kids.retain(|&k| {
            let c = out.node(k);
            !(c.role == Role::Image
                && c.children.is_empty()
                && c.actions.is_empty()
                && is_blank_opt(&c.value)
                && c.description.as_deref().is_none_or(|d| is_blank(d) || text::same_words(d, &c.name))
                && text::same_words(&c.name, name))
        });
        self.stats.repeated_images_dropped += before - kids.len();
    }

    /// Drops siblings that repeat a form control next to them: a label reading the control's
    /// name (before or after it), a text reading its description. Labels that repeat in a run
    /// all go, so a second projection finds nothing more to drop.
    fn drop_sibling_repeats(&mut self, kids: &mut Vec<NodeId>) {
        if kids.len() < 2 {
            return;
        }
        let out = &self.out;
        let (mut labels, mut texts) = (0, 0);
        let mut pass = |kids: &mut Vec<NodeId>| {
            let mut prev: Option<NodeId> = None;
            kids.retain(|&k| {
                match prev.and_then(|p| sibling_repeat(out, out.node(p), out.node(k))) {
                    Some(SiblingRepeat::Label) => labels += 1,
                    Some(SiblingRepeat::Description) => texts += 1,
                    None => {
                        prev = Some(k);
                        return true;
                    }
                }
                false
            });
        };
        // After the control, then before it.
        pass(kids);
        kids.reverse();
        pass(kids);
        kids.reverse();
        self.stats.repeated_labels_dropped += labels;
        self.stats.repeated_values_dropped += texts;
    }

    /// Drops the children when they are all text (or code spans around one text) that
    /// together spells `name`.
    fn drop_spelled_name(&mut self, name: &str, kids: &mut Vec<NodeId>) {
        if is_blank(name) || kids.len() < 2 {
            return;
        }
        let out = &self.out;
        let Some(parts) = kids.iter().map(|&k| shown_text(out, out.node(k))).collect::<Option<Vec<&str>>>()
        else {
            return;
        };
        if text::parts_read_as(name, parts.into_iter()) {
            self.stats.repeated_labels_dropped += kids.len();
            kids.clear();
        }
    }

    /// Joins each run of adjacent plain text siblings into its first node, with exactly the
    /// whitespace the pieces carry (none between `"foo"` and `"bar"`), never across the edge of
    /// a block (two captions stay two texts); in preformatted text a block edge is a line
    /// break. Then runs of whitespace alone go. Returns each run's first and last piece, for
    /// [`Self::trim_run_edges`].
    fn join_runs(&mut self, kids: &mut Vec<NodeId>) -> Vec<(NodeId, NodeId)> {
        let max = self.opts.max_text_chars;
        let mut kept = 0;
        let mut run: Option<RunState> = None;
        // Each run's first and last piece.
        let mut runs: Vec<(NodeId, NodeId)> = Vec::new();
        for i in 0..kids.len() {
            let k = kids[i];
            let joins = match &run {
                Some(r) => {
                    let (head, c) = (self.out.node(r.head), self.out.node(k));
                    // A text marked a block's edge by an earlier projection is one too, and
                    // a text that is a block of its own (an editor's line) joins nothing.
                    let own_block = head.flags.block || c.flags.block;
                    let edge =
                        self.ends_block.contains(&r.tail) || self.starts_block.contains(&k) || own_block;
                    // Being out of view is where a piece is, not what it is: a run may
                    // straddle the viewport's edge, and a piece with no box of its own (a
                    // pseudo element's `:`) is never marked.
                    let mut seen = c.states;
                    seen.set(State::Offscreen, head.states.contains(State::Offscreen));
                    is_joinable(c)
                        && seen == head.states
                        && c.actions == head.actions
                        && c.flags.pre == head.flags.pre
                        && (!edge || (c.flags.pre && !own_block))
                }
                None => false,
            };
            if let (true, Some(r)) = (joins, run.as_mut()) {
                self.stats.text_joined += 1;
                let edge = self.ends_block.contains(&r.tail) || self.starts_block.contains(&k);
                r.tail = k;
                let mut piece = std::mem::take(&mut self.out.node_mut(k).name);
                let bounds = self.out.node(k).bounds;
                let pre = self.out.node(k).flags.pre;
                let out_of_view = self.out.node(k).states.contains(State::Offscreen) || bounds.is_none();
                let head = self.out.node_mut(r.head);
                head.bounds = union(head.bounds, bounds);
                if !out_of_view {
                    head.states.set(State::Offscreen, false);
                }
                // Two redacted runs read as one: "[redacted] [redacted]" would be redacted again
                // by a second projection.
                let repeat = piece == REDACTED && head.name.ends_with(REDACTED);
                if !repeat {
                    // Past the limit, pieces are only counted, for the cut marker.
                    let last: &str = if r.full { &r.last } else { &head.name };
                    let sep = if pre && edge && !last.ends_with('\n') && !piece.starts_with('\n') {
                        "\n"
                    } else {
                        ""
                    };
                    if !pre && last.ends_with(' ') && piece.starts_with(' ') {
                        piece.remove(0);
                    }
                    r.chars += sep.len() + text::char_len(&piece);
                    if r.full {
                        r.last = piece;
                    } else {
                        let s = &mut head.name;
                        s.push_str(sep);
                        s.push_str(&piece);
                        if r.chars > max {
                            r.full = true;
                        }
                    }
                }
                continue;
            }
            if let Some(r) = run.take() {
                runs.push((r.head, r.tail));
                self.end_run(r, max);
            }
            kids[kept] = k;
            kept += 1;
            let c = self.out.node(k);
            run = is_joinable(c).then(|| RunState {
                head: k,
                tail: k,
                chars: text::char_len(&c.name),
                full: false,
                last: String::new(),
            });
        }
        if let Some(r) = run {
            runs.push((r.head, r.tail));
            self.end_run(r, max);
        }
        kids.truncate(kept);
        self.tidy_runs(kids, &runs);
        runs
    }

    /// Drops runs of whitespace alone (and a lone text with nothing to say, [`is_idle_text`]),
    /// and in preformatted text makes a block's edge a line break where the neighbour is
    /// inline.
    fn tidy_runs(&mut self, kids: &mut Vec<NodeId>, runs: &[(NodeId, NodeId)]) {
        let tails: std::collections::HashMap<NodeId, NodeId> = runs.iter().copied().collect();
        let mut dropped = 0;
        let n = kids.len();
        let mut keep = vec![true; n];
        // A text no run took (it has a developer id: phpMyAdmin's `<span
        // id="togglequerybox_spacer">` holding a line break) and that is whitespace alone
        // separates nothing when no text is beside it: between two elements the renderer puts
        // its own space, and as a line of its own it would read `text:`.
        let texts: Vec<bool> = kids.iter().map(|&k| self.out.node(k).role == Role::Text).collect();
        let idle: Vec<bool> = kids
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let text_beside = (i > 0 && texts[i - 1]) || texts.get(i + 1).copied().unwrap_or(false);
                !tails.contains_key(&k) && is_idle_text(self.out.node(k)) && !text_beside
            })
            .collect();
        for (i, &k) in kids.iter().enumerate() {
            if idle[i] {
                keep[i] = false;
                dropped += 1;
                continue;
            }
            let Some(&tail) = tails.get(&k) else { continue };
            let node = self.out.node_mut(k);
            if is_blank(&node.name) {
                keep[i] = false;
                dropped += 1;
                continue;
            }
            if node.flags.pre {
                // In preformatted text a block's edge is a line break, also where the
                // neighbour is a link (rustdoc's `where` clause after a signature's last
                // link): the renderer draws the run a line per line.
                let starts = i > 0 && self.starts_block.contains(&k) && !node.name.starts_with('\n');
                let ends = self.ends_block.contains(&tail) && !node.name.ends_with('\n');
                let inline_at = |j: usize| kids.get(j).is_some_and(|&s| self.out.node(s).role == Role::Link);
                let (starts, ends) = (starts && inline_at(i - 1), ends && inline_at(i + 1));
                let node = self.out.node_mut(k);
                if starts {
                    node.name.insert(0, '\n');
                }
                if ends {
                    node.name.push('\n');
                }
            }
        }
        if dropped > 0 {
            let mut i = 0;
            kids.retain(|_| {
                i += 1;
                keep[i - 1]
            });
            self.stats.empty_text_dropped += dropped;
        }
    }

    /// Trims a run's edge space where nothing inline is on that side: the first or last child,
    /// or the edge of a block. A space before a link stays (the renderer draws the two
    /// inline). Preformatted runs keep theirs.
    fn trim_run_edges(&mut self, kids: &[NodeId], runs: &[(NodeId, NodeId)]) {
        if runs.is_empty() {
            return;
        }
        let tails: std::collections::HashMap<NodeId, NodeId> = runs.iter().copied().collect();
        let n = kids.len();
        for (i, &k) in kids.iter().enumerate() {
            let Some(&tail) = tails.get(&k) else { continue };
            let ends = i + 1 == n || self.ends_block.contains(&tail);
            let starts = i == 0 || self.starts_block.contains(&k);
            let node = self.out.node_mut(k);
            if node.flags.pre {
                continue;
            }
            if ends {
                let trimmed = node.name.trim_end_matches(' ').len();
                node.name.truncate(trimmed);
            }
            if starts && node.name.starts_with(' ') {
                node.name.remove(0);
            }
        }
    }

    /// Marks a run of text that begins or ends a block-level box, beside an inline neighbour,
    /// as a block: the renderer draws it apart from that neighbour. A search result's title
    /// link and its snippet (`<a>…</a><div>The Lighthouse…</div>`) read
    /// `[Lighthouse of Alexandria](e126)The Lighthouse…` when the snippet's box was dropped,
    /// one word made of two blocks. Text carries its own spaces, so nothing else separates it.
    /// Returns which edge each marked run is, so a loose sentence may still begin with the
    /// text that begins a block and end with the one that ends it ([`prose::group_loose`]).
    fn mark_block_edges(&mut self, kids: &[NodeId], runs: &[(NodeId, NodeId)]) -> prose::Edges {
        let mut edges = prose::Edges::default();
        if runs.is_empty() || (self.starts_block.is_empty() && self.ends_block.is_empty()) {
            return edges;
        }
        let tails: std::collections::HashMap<NodeId, NodeId> = runs.iter().copied().collect();
        let n = kids.len();
        for (i, &k) in kids.iter().enumerate() {
            let Some(&tail) = tails.get(&k) else { continue };
            let starts = i > 0 && self.starts_block.contains(&k);
            let ends = i + 1 < n && self.ends_block.contains(&tail);
            let node = self.out.node_mut(k);
            if (starts || ends) && !node.flags.pre {
                node.flags.block = true;
                if starts {
                    edges.starts.insert(k);
                }
                if ends {
                    edges.ends.insert(k);
                }
            }
        }
        edges
    }

    /// Cuts a joined run that went past the limit, its marker counting the whole run.
    fn end_run(&mut self, r: RunState, max: usize) {
        if r.full && crate::caps::cut_counted(&mut self.out.node_mut(r.head).name, r.chars, max) {
            self.stats.texts_truncated += 1;
        }
    }
}

/// How a sibling repeats a control next to it.
enum SiblingRepeat {
    /// A label reading the control's name.
    Label,
    /// Text reading the control's description.
    Description,
}

/// Whether `other`, next to `control`, only repeats it.
fn sibling_repeat(tree: &Tree, control: &Node, other: &Node) -> Option<SiblingRepeat> {
    if !control.role.is_widget() || other.role.is_widget() {
        return None;
    }
    let said = plain_text(tree, other)?;
    // A label, or a bare text or span beside the control saying its name (Gradio's
    // `<span data-testid="block-info">Greeting</span>` over its dropdown named "Greeting").
    let says_names = matches!(other.role, Role::Label | Role::Text | Role::Generic);
    if says_names && !is_blank(&control.name) && text::same_words(said, &control.name) {
        return Some(SiblingRepeat::Label);
    }
    match control.description.as_deref() {
        Some(d) if !is_blank(d) && text::same_words(said, d) => Some(SiblingRepeat::Description),
        _ => None,
    }
}

/// The text a text-only element shows: its name as a leaf, or its single text child's as an
/// unnamed wrapper (a `<label>` around its text). `None` for anything that does more.
fn plain_text<'t>(tree: &'t Tree, n: &'t Node) -> Option<&'t str> {
    // A label's click only focuses its control: it is still only text.
    let only_label_actions = n.role == Role::Label
        && n.actions.iter().all(|a| matches!(a, crate::state::Action::Click | crate::state::Action::Focus));
    if !matches!(n.role, Role::Text | Role::Label | Role::Generic | Role::Paragraph)
        || !(n.actions.is_empty() || only_label_actions)
        || !is_blank_opt(&n.value)
        || !is_blank_opt(&n.description)
        || !only_incidental(n.states)
    {
        return None;
    }
    match n.children.as_slice() {
        [] if !is_blank(&n.name) => Some(n.name.as_str()),
        [c] if is_blank(&n.name) => {
            let c = tree.node(*c);
            (is_text_leaf(c) && c.role == Role::Text && !is_blank(&c.name)).then_some(c.name.as_str())
        }
        _ => None,
    }
}

/// The text run being joined.
struct RunState {
    head: NodeId,
    /// The last piece joined.
    tail: NodeId,
    /// Characters of the whole run joined.
    chars: usize,
    /// Past the limit: later pieces are counted but not appended.
    full: bool,
    /// The last piece counted while full (whether a space goes before the next one).
    last: String,
}

/// The rectangle covering both.
fn union(a: Option<crate::tree::Rect>, b: Option<crate::tree::Rect>) -> Option<crate::tree::Rect> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let (x, y) = (a.x.min(b.x), a.y.min(b.y));
            let (r, bo) = ((a.x + a.w).max(b.x + b.w), (a.y + a.h).max(b.y + b.h));
            Some(crate::tree::Rect { x, y, w: r - x, h: bo - y })
        }
        (a, None) => a,
        (None, b) => b,
    }
}

/// A raw node's content under the text rules, without children, refs or raw flags. Password
/// values (and text inside a password field) are redacted whatever the options.
///
/// A text node's name is the page's characters: inside preformatted text exactly, elsewhere
/// with whitespace runs made one space but its edges kept (see [`text::normalized_edges`]),
/// so that joining pieces of running text adds no space the page does not have.
fn copy_node(
    raw: &Node,
    opts: &ProjectOptions,
    protected: bool,
    pre: bool,
    stats: &mut ProjectStats,
) -> Node {
    let is_text = matches!(raw.role, Role::Text | Role::TextRun);
    let mut text_up_to = |s: &str, piece: bool, max: usize| {
        // A redaction stays whole under any limit (a second projection sees it as plain text).
        if s == REDACTED {
            return s.to_string();
        }
        let (t, was_cut) = match (opts.join_text, piece, pre) {
            (true, true, false) => text::normalized_edges(s, max),
            (true, false, _) => text::normalized(s, max),
            (false, _, _) | (true, true, true) => text::limited(s, max),
        };
        stats.texts_truncated += usize::from(was_cut);
        t
    };
    let max_value = opts.max_value_chars.max(opts.max_text_chars);
    let mut value = raw.value.as_deref().map(|v| text_up_to(v, false, max_value));
    let mut text = |s: &str, piece: bool| text_up_to(s, piece, opts.max_text_chars);
    let mut name = text(&raw.name, is_text);
    // Only a name the platform computed from the node's content can repeat it by accident;
    // text nodes are the page's own words.
    if !matches!(raw.role, Role::Text | Role::TextRun) {
        if let Some(once) = text::once(&name) {
            name = once;
        }
    }
    let mut description = raw.description.as_deref().map(|d| text(d, false));
    // A control whose name was only icon-font glyphs (`\u{f102}`) is named by its tooltip or
    // title when it has one, which the platform gave as its description.
    if name.is_empty()
        && !is_text
        && !raw.name.is_empty()
        && description.as_deref().is_some_and(|d| !d.is_empty())
    {
        name = description.take().unwrap_or_default();
    }
    if protected {
        if value.as_deref().is_some_and(|v| !v.is_empty() && v != REDACTED) {
            value = Some(REDACTED.to_string());
            stats.redacted += 1;
        }
        // Text inside a password field would show what the value hides.
        if matches!(raw.role, Role::Text | Role::TextRun) && !name.is_empty() && name != REDACTED {
            name = REDACTED.to_string();
            stats.redacted += 1;
        }
    }
    Node {
        role: raw.role.clone(),
        name,
        value,
        description,
        states: raw.states,
        actions: raw.actions,
        level: raw.level,
        url: raw.url.clone(),
        options: raw.options.clone(),
        range: raw.range,
        bounds: raw.bounds,
        dev_id: raw.dev_id.clone(),
        native: raw.native.clone(),
        ref_id: None,
        // What the renderer needs of the layout: preformatted text is drawn a line per line,
        // and a block-level element drawn inline is set apart by spaces (text too, where
        // projection marked it a block's edge, `Builder::mark_block_edges`).
        flags: crate::tree::RawFlags { pre: pre && is_text, block: raw.flags.block, ..Default::default() },
        folded: None,
        children: Vec::new(),
        parent: None,
    }
}
