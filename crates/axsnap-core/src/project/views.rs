//! The views that choose what part of the page to show: the top surface, interactive-only and
//! the viewport. Each reads a working tree and writes a new one in pre-order; each counts what
//! it cut in `cut_by_view`, and the surface and viewport views leave markers where they cut.

use crate::role::Role;
use crate::state::State;
use crate::tree::NodeId;

use super::text;
use super::work::{attach_marker, more_items, Pending, Sizes, Work};
use super::ProjectStats;

/// A surface that hides the rest: a modal dialog or an alert dialog.
fn is_modal_surface(n: &crate::tree::Node) -> bool {
    matches!(n.role, Role::AlertDialog) || (n.role == Role::Dialog && n.states.contains(State::Modal))
}

/// Keeps the root and the last top surface in document order under it (a modal dialog, or
/// failing that an open menu or alert), with a marker saying how much else was hidden.
/// Without a surface the tree is returned as it is.
pub(super) fn top_surface(mut work: Work, stats: &mut ProjectStats) -> Work {
    let Some(root) = work.tree.root() else { return work };
    let sizes = Sizes::of(&work);
    let last = |pred: &dyn Fn(&crate::tree::Node) -> bool| {
        sizes.order.iter().rev().copied().find(|&id| id != root && pred(work.tree.node(id)))
    };
    let surface = last(&is_modal_surface).or_else(|| last(&|n| matches!(n.role, Role::Menu | Role::Alert)));
    let Some(surface) = surface else { return work };
    let hidden_items = sizes.items[root.index()] - work.weight(root) - sizes.items[surface.index()];
    let hidden_real = sizes.real[root.index()]
        - usize::from(!work.markers.contains_key(&root))
        - sizes.real[surface.index()];
    stats.cut_by_view += hidden_real;
    let role = work.tree.node(surface).role.clone();
    let mut out = Work::with_capacity(sizes.order.len() - hidden_real.min(sizes.order.len()) + 1);
    let (new_root, _) = work.move_node(root, &mut out, None);
    if hidden_items > 0 {
        let name = format!("{} hidden behind the {}", more_items(hidden_items), role);
        attach_marker(&mut out, new_root, Pending { kind: "surface", items: hidden_items, name });
    }
    work.move_subtree(surface, &mut out, Some(new_root));
    out
}

/// Whether the interactive-only view keeps a node: what an agent can act on, and the context
/// that says where it is (named landmarks, headings, dialogs and alerts). Markers always stay.
fn keeps_interactive(n: &crate::tree::Node) -> bool {
    !n.actions.is_empty()
        || n.role.is_widget()
        || n.role == Role::Heading
        || n.role == Role::More
        || (n.role.is_landmark() && !text::is_blank(&n.name))
        || matches!(n.role, Role::Dialog | Role::AlertDialog | Role::Alert)
}

/// Keeps actionable nodes and their context, each under its nearest kept ancestor. An
/// actionable node without a name takes the text it contained as its name, so a button made
/// of text still says what it does.
pub(super) fn interactive_only(mut work: Work, max_text: usize, stats: &mut ProjectStats) -> Work {
    let mut out = Work::with_capacity(work.tree.arena_len());
    let Some(root) = work.tree.root() else { return out };
    // (old node, new parent, the unnamed actionable node collecting text for its name)
    let mut stack: Vec<(NodeId, Option<NodeId>, Option<NodeId>)> = vec![(root, None, None)];
    let mut named_from_text: Vec<NodeId> = Vec::new();
    while let Some((old, parent, collector)) = stack.pop() {
        let n = work.tree.node(old);
        if parent.is_some() && n.role == Role::Heading {
            // A heading is context kept whole: its text and links draw one line, as in the
            // full view (`h4: pub fn [with_capacity](e390)(…)`).
            work.move_subtree(old, &mut out, parent);
            continue;
        }
        if parent.is_none() || keeps_interactive(n) {
            // Scrolling and focus say nothing of what a node does: a scroller's text is its
            // content (a chapter, a compiler's output), not its name.
            let actionable = n.role.is_widget()
                || n.actions
                    .iter()
                    .any(|a| !matches!(a, crate::state::Action::Scroll | crate::state::Action::Focus));
            let unnamed = text::is_blank(&n.name);
            let (new, kids) = work.move_node(old, &mut out, parent);
            let collector = (actionable && unnamed && parent.is_some()).then_some(new);
            stack.extend(kids.iter().rev().map(|&k| (k, Some(new), collector)));
            Work::recycle(&mut out, new, kids);
            continue;
        }
        stats.cut_by_view += 1;
        if let Some(target) = collector {
            if matches!(n.role, Role::Text | Role::Label) && !text::is_blank(&n.name) {
                let piece = std::mem::take(&mut work.tree.node_mut(old).name);
                let name = &mut out.tree.node_mut(target).name;
                if name.is_empty() {
                    named_from_text.push(target);
                } else if text::needs_space(name, &piece) {
                    name.push(' ');
                }
                name.push_str(&piece);
            }
        }
        let kids = std::mem::take(&mut work.tree.node_mut(old).children);
        stack.extend(kids.iter().rev().map(|&k| (k, parent, collector)));
    }
    for id in named_from_text {
        // A node that holds other things to act on is a region of the page (a chapter's
        // wrapper with a click listener), not a button made of text: its text is content.
        if !out.tree.node(id).children.is_empty() {
            out.tree.node_mut(id).name.clear();
            continue;
        }
        // Pieces keep the page's edge spaces; the name does not start or end with one.
        let name = &mut out.tree.node_mut(id).name;
        let trimmed = name.trim().to_string();
        *name = trimmed;
        stats.texts_truncated += usize::from(text::cut(name, max_text));
    }
    out
}

/// Where a cut offscreen subtree lies relative to what is shown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Above,
    Below,
    Unknown,
}

impl Side {
    fn words(self) -> &'static str {
        match self {
            Side::Above => "above",
            Side::Below => "below",
            Side::Unknown => "offscreen",
        }
    }
}

/// One entry of a view's walk: a node to copy or a marker to place, under a new parent.
enum Item {
    Node(NodeId, NodeId),
    Marker(Pending, NodeId),
}

/// Drops offscreen subtrees (a node marked offscreen stays while something below it is on
/// screen), with a marker for each run of cut siblings: "N more items above", "below", or
/// "offscreen" when bounds do not tell.
pub(super) fn viewport(mut work: Work, stats: &mut ProjectStats) -> Work {
    let Some(root) = work.tree.root() else { return Work::default() };
    let sizes = Sizes::of(&work);
    let mut out = Work::with_capacity(sizes.order.len());
    // all_off[i]: node i and everything below it are offscreen.
    let mut all_off = vec![false; work.tree.arena_len()];
    for &id in sizes.order.iter().rev() {
        let n = work.tree.node(id);
        all_off[id.index()] =
            n.states.contains(State::Offscreen) && n.children.iter().all(|c| all_off[c.index()]);
    }
    // The first node shown (with bounds) divides above from below.
    let reference = sizes
        .order
        .iter()
        .filter(|&&id| id != root && !work.tree.node(id).states.contains(State::Offscreen))
        .find_map(|&id| work.tree.node(id).bounds);
    let side_of = |bounds: Option<crate::tree::Rect>| match (bounds, reference) {
        (Some(b), Some(r)) if b.y < r.y => Side::Above,
        (Some(_), Some(_)) => Side::Below,
        _ => Side::Unknown,
    };
    let (new_root, kids) = work.move_node(root, &mut out, None);
    let mut stack: Vec<Item> = Vec::new();
    let mut plan: Vec<Item> = Vec::new();
    let mut pending_kids = Some((kids, new_root));
    loop {
        if let Some((kids, parent)) = pending_kids.take() {
            // Plan this parent's children in order, merging runs of cut siblings.
            let mut run: Option<(Side, usize)> = None;
            for &k in &kids {
                if all_off[k.index()] {
                    let side = side_of(work.tree.node(k).bounds);
                    stats.cut_by_view += sizes.real[k.index()];
                    let items = sizes.items[k.index()];
                    match &mut run {
                        Some((s, n)) if *s == side => *n += items,
                        _ => {
                            flush(&mut run, &mut plan, parent);
                            run = Some((side, items));
                        }
                    }
                } else {
                    flush(&mut run, &mut plan, parent);
                    plan.push(Item::Node(k, parent));
                }
            }
            flush(&mut run, &mut plan, parent);
            stack.extend(plan.drain(..).rev());
            Work::recycle(&mut out, parent, kids);
        }
        match stack.pop() {
            None => break,
            Some(Item::Marker(m, parent)) => {
                attach_marker(&mut out, parent, m);
            }
            Some(Item::Node(old, parent)) => {
                let (new, kids) = work.move_node(old, &mut out, Some(parent));
                pending_kids = Some((kids, new));
            }
        }
    }
    out
}

/// Turns a finished run of cut siblings into a marker entry.
fn flush(run: &mut Option<(Side, usize)>, plan: &mut Vec<Item>, parent: NodeId) {
    if let Some((side, items)) = run.take() {
        let name = format!("{} {}", more_items(items), side.words());
        plan.push(Item::Marker(Pending { kind: "viewport", items, name }, parent));
    }
}
