//! Projection: from a raw capture to what the agent sees (DESIGN.md, "Projection").
//!
//! Each rule is switchable in [`ProjectOptions`] and counted in [`ProjectStats`], so a report
//! can say what each saved. Views (interactive-only, subtree scope, top surface, depth and node
//! caps) cut content; a cut is always said in the output as a synthetic [`Role::More`] node
//! whose name tells what was left out ("120 more items"), never silently.
//! Secrets are redacted whatever the backend sent and whatever the options: a raw tree that
//! still shows a secret's content is redacted first ([`crate::secret::redact`], on a copy),
//! and the walk replaces a secret's value and the text inside it with [`REDACTED`] again; an
//! empty secret value stays empty, so the agent can tell the field still needs filling.
//! Texts cut at [`ProjectOptions::max_text_chars`] end with the marker of [`crate::caps`]
//! (`…+1,234 chars`), the marker counted in the limit.
//!
//! Layout: `rules` applies rules 1-4 and the text limits in one bottom-up walk; `views`
//! (surface, interactive-only, viewport) and `cuts` (depth and node caps, final layout and
//! rule 5) each read the previous stage's tree and write a new one; `work` holds the working
//! tree and cut markers; `text` the whitespace, cutting and comparison helpers.
//!
//! Projection knows nothing of refs: a subtree scope is given as a [`NativeId`] (the caller
//! resolves the agent's ref first). The output is laid out in pre-order and keeps each kept
//! node's native id; synthetic nodes get ids in the [`SYNTHETIC_SCOPE`] scope.
//!
//! [`Role::More`]: crate::Role::More

use serde::{Deserialize, Serialize};

use crate::tree::{NativeId, NodeId, Tree};

mod cuts;
mod icon_label;
mod prose;
mod rules;
#[cfg(test)]
mod tests;
mod text;
mod views;
mod work;

use work::{attach_marker, more_items, Pending, Work};

pub use crate::secret::REDACTED;

/// The native scope of nodes projection makes up (cut markers).
pub const SYNTHETIC_SCOPE: &str = "axsnap:synthetic";

/// Which rules run and which view is taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectOptions {
    /// Rule 1: drop ignored, hidden and presentational nodes and text-run fragments.
    pub drop_hidden: bool,
    /// Rule 2: unwrap anonymous containers; promote a wrapper's name onto a single unnamed child.
    pub unwrap_anonymous: bool,
    /// Rule 3: join adjacent text, normalize whitespace, drop empty text.
    pub join_text: bool,
    /// Rule 4: drop a child label repeating its parent's name, and blank images with no action;
    /// also text repeating its parent's value, images repeating their parent's name, labels
    /// repeating the name of the control next to them, text repeating its description, and
    /// a name that only spells the content under it (not for a widget, unless that content
    /// holds another widget).
    pub drop_redundant: bool,
    /// Keep bounds at all (formats that carry coordinates). Off by default: the text form
    /// shows none, and bounds would make every scroll a change.
    pub keep_bounds: bool,
    /// Rule 5 (with `keep_bounds`): drop bounds of leaves that cannot be acted on.
    pub drop_leaf_bounds: bool,
    /// Names, values and descriptions longer than this many characters are cut, ending with
    /// the marker of [`crate::caps`] (`…+1,234 chars`, or a bare `…` when the limit is too
    /// small for it), the marker included in the limit.
    pub max_text_chars: usize,
    /// Values longer than this many characters are cut the same way. Far above
    /// `max_text_chars`: a value (a document in a text area) is kept whole so that a diff
    /// sees its changed span and `snapshot ref=… from=…` pages through it; renderings cap it
    /// ([`crate::caps::cap_paged`]). Never below `max_text_chars`.
    pub max_value_chars: usize,
    /// The view.
    pub view: View,
}

impl Default for ProjectOptions {
    fn default() -> Self {
        ProjectOptions {
            drop_hidden: true,
            unwrap_anonymous: true,
            join_text: true,
            drop_redundant: true,
            keep_bounds: false,
            drop_leaf_bounds: true,
            max_text_chars: 2000,
            max_value_chars: crate::caps::VALUE_CHARS,
            view: View::default(),
        }
    }
}

impl ProjectOptions {
    /// Every rule off: the raw tree as it came (secrets still redacted).
    pub fn raw() -> ProjectOptions {
        ProjectOptions {
            drop_hidden: false,
            unwrap_anonymous: false,
            join_text: false,
            drop_redundant: false,
            keep_bounds: true,
            drop_leaf_bounds: false,
            max_text_chars: usize::MAX,
            max_value_chars: usize::MAX,
            view: View::default(),
        }
    }
}

/// Optional views that cut content. Every cut is said in the output.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    /// Actionable nodes plus named landmarks and headings for context.
    pub interactive_only: bool,
    /// Only the subtree of this element.
    pub scope: Option<NativeId>,
    /// With `scope`: only the scope's children from this index on, under it (the rest of a
    /// part too wide for one answer, as an outline's `… N more parts` line says:
    /// `snapshot ref=e5 from=900`). When the scope's value is past the text cap, its value
    /// from this character on instead (a cut value's marker says where: `…: from=1976`).
    pub from: Option<usize>,
    /// Only the top surface (the last open modal dialog, alert dialog, menu or alert), when one
    /// is open; the whole tree otherwise.
    pub top_surface: bool,
    /// Only nodes not marked offscreen, with "N more above/below" markers.
    pub viewport: bool,
    /// Deepest level shown (root = 0); deeper content becomes a "N more items" marker.
    pub max_depth: Option<usize>,
    /// Most nodes shown; the rest becomes "N more items" markers.
    pub max_nodes: Option<usize>,
}

/// What each rule removed, and what each view cut.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectStats {
    /// Raw nodes reachable from the root.
    pub raw_nodes: usize,
    /// Nodes in the output (synthetic markers included).
    pub output_nodes: usize,
    /// Rule 1: ignored, hidden, presentational and text-run nodes dropped.
    pub dropped_hidden: usize,
    /// Rule 2: anonymous containers unwrapped, and wrappers that only repeat the name of the
    /// one control they hold.
    pub unwrapped: usize,
    /// Rule 2: names promoted from a wrapper onto its single child.
    pub names_promoted: usize,
    /// Rule 2: containers left with no children and nothing of their own, dropped, and a
    /// control's decoration (icon spans with nothing of their own, whatever their listeners).
    pub empty_containers_dropped: usize,
    /// Rule 3: text nodes merged into a neighbour.
    pub text_joined: usize,
    /// Rule 3: empty text nodes dropped.
    pub empty_text_dropped: usize,
    /// Rule 4: child labels repeating the parent's name, and labels repeating the name of the
    /// control next to them, dropped.
    pub repeated_labels_dropped: usize,
    /// Rule 4: blank images dropped.
    pub blank_images_dropped: usize,
    /// Rule 4: texts repeating their parent's value (a field's own text) or a neighbouring
    /// control's description dropped. Labels repeating a neighbouring control's name count in
    /// `repeated_labels_dropped`.
    #[serde(default)]
    pub repeated_values_dropped: usize,
    /// Rule 4: images without actions repeating their parent's name dropped.
    #[serde(default)]
    pub repeated_images_dropped: usize,
    /// Rule 4: names that only spell the content shown under their node (a heading made of
    /// a link, a disclosure summary holding links) dropped; the content stands for them.
    #[serde(default)]
    pub content_names_dropped: usize,
    /// Rule 3: runs of text, code and links hoisted out of a dropped block, under a parent
    /// that also holds blocks, kept together as a paragraph (`prose`).
    #[serde(default)]
    pub paragraphs_grouped: usize,
    /// Rule 4: controls named by an icon and a label saying the same (`link "Edit Edit"`
    /// over `image "Edit"` and `text: Edit`), named once (`link "Edit"`); their children, which
    /// then only spell the name, count in `repeated_labels_dropped` and
    /// `repeated_images_dropped`.
    #[serde(default)]
    pub icon_names_said_once: usize,
    /// Rule 4: a menu's empty items (its drawn separators) made separators.
    #[serde(default)]
    pub separators_marked: usize,
    /// Rule 5: bounds dropped from leaves that cannot be acted on.
    pub leaf_bounds_dropped: usize,
    /// Texts cut at `max_text_chars`.
    pub texts_truncated: usize,
    /// Secret values, texts inside secrets and texts embedding them, redacted.
    pub redacted: usize,
    /// Nodes left out by the views (interactive-only, scope, surface, viewport, caps). The
    /// scope counts the raw nodes outside it; the other views count the projected nodes they
    /// cut (what their markers say, not counting markers of an earlier view).
    pub cut_by_view: usize,
    /// The scope element was not found (the view fell back to nothing and says so).
    pub scope_missing: bool,
    /// The interactive-only view made this output (the renderer leaves out what only reading
    /// needs: link URLs that tell same-named links apart).
    #[serde(default)]
    pub interactive_only: bool,
}

/// The result of [`project`].
#[derive(Clone, Debug)]
pub struct Projection {
    /// The projected tree, in pre-order, refs not yet assigned.
    pub tree: Tree,
    /// What was removed and cut.
    pub stats: ProjectStats,
    /// For each node of `tree` (by arena index), the node of the raw tree it stands for, which
    /// has the same native id; `None` for nodes projection made up (cut markers). Lets
    /// [`crate::refs::RefSpace::refresh_projection`] read refs found on the raw tree instead of
    /// looking each native id up again. Empty when unknown (a tree edited after projection).
    pub origin: Vec<Option<NodeId>>,
}

/// Projects a raw tree. Never fails and never recurses on input depth: any tree gives a
/// bounded result that says what it cut.
///
/// Order: the scope picks the subtree first (on the raw tree, where the caller's id lives);
/// the rules run once, bottom-up; then the views cut, each on the previous one's result: top
/// surface, interactive-only, viewport, depth cap, node cap. The caps come last so that they
/// bound the final output, markers of the other views included.
pub fn project(raw: &Tree, opts: &ProjectOptions) -> Projection {
    let mut stats = ProjectStats::default();
    // A backend that let a secret's content through: redact a copy (rare; the check is cheap).
    let redacted;
    let raw = if crate::secret::needs_redaction(raw) {
        let mut copy = raw.clone();
        stats.redacted += crate::secret::redact(&mut copy, &[]);
        redacted = copy;
        &redacted
    } else {
        raw
    };
    // A cover over nothing an agent could act on is no overlay in its way: it says nothing.
    let quieted;
    let raw = {
        let covers = crate::cover::Covers::of(raw);
        let idle = covers.idle(raw);
        if idle.is_empty() {
            raw
        } else {
            let mut copy = raw.clone();
            crate::cover::quiet(&mut copy, &idle);
            quieted = copy;
            &quieted
        }
    };
    let Some(raw_root) = raw.root().filter(|r| raw.get(*r).is_some()) else {
        return Projection { tree: Tree::new(), stats, origin: Vec::new() };
    };
    let view = &opts.view;
    let start = match &view.scope {
        None => Some(raw_root),
        Some(target) => find_native(raw, raw_root, target),
    };
    let mut work = match start {
        Some(start) => {
            // A scope may be a small part of a large capture: reserve only for its subtree.
            let capacity = if start == raw_root { raw.arena_len() } else { count_reachable(raw, start) };
            let (work, visited) = rules::build(raw, start, capacity, opts, &mut stats);
            stats.raw_nodes = if start == raw_root { visited } else { count_reachable(raw, raw_root) };
            stats.cut_by_view += stats.raw_nodes.saturating_sub(visited);
            work
        }
        None => scope_missing(raw, raw_root, opts, &mut stats),
    };
    if view.top_surface {
        work = views::top_surface(work, &mut stats);
    }
    if view.interactive_only {
        work = views::interactive_only(work, opts.max_text_chars, &mut stats);
        stats.interactive_only = true;
    }
    if view.viewport {
        work = views::viewport(work, &mut stats);
    }
    if let Some(max) = view.max_depth {
        work = cuts::max_depth(work, max, &mut stats);
    }
    if let Some(max) = view.max_nodes {
        work = cuts::max_nodes(work, max, &mut stats);
    }
    let (tree, origin) = cuts::finish(work, opts, &mut stats);
    Projection { tree, stats, origin }
}

/// The output when the scope element is not in the capture: the root alone, with a marker
/// saying that nothing else is shown.
fn scope_missing(raw: &Tree, root: NodeId, opts: &ProjectOptions, stats: &mut ProjectStats) -> Work {
    stats.scope_missing = true;
    stats.raw_nodes = count_reachable(raw, root);
    let hidden = stats.raw_nodes.saturating_sub(1);
    stats.cut_by_view += hidden;
    let mut work = Work::default();
    let new_root = work.push(rules::shell(raw.node(root), opts, stats), Some(root));
    work.tree.set_root(new_root);
    let name = format!("scope element not found: {}", more_items(hidden));
    attach_marker(&mut work, new_root, Pending { kind: "scope", items: hidden, name });
    work
}

/// Walks the raw nodes reachable from `root` once each (cycles and shared children are not
/// followed twice), calling `visit` on each until it returns `true`.
fn walk_raw(raw: &Tree, root: NodeId, mut visit: impl FnMut(NodeId) -> bool) -> Option<NodeId> {
    let mut seen = vec![false; raw.arena_len()];
    seen[root.index()] = true;
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if visit(id) {
            return Some(id);
        }
        for &c in raw.node(id).children.iter().rev() {
            if raw.get(c).is_some() && !seen[c.index()] {
                seen[c.index()] = true;
                stack.push(c);
            }
        }
    }
    None
}

/// Raw nodes reachable from the root.
fn count_reachable(raw: &Tree, root: NodeId) -> usize {
    let mut n = 0;
    walk_raw(raw, root, |_| {
        n += 1;
        false
    });
    n
}

/// The first raw node in document order with this native id.
fn find_native(raw: &Tree, root: NodeId, target: &NativeId) -> Option<NodeId> {
    walk_raw(raw, root, |id| raw.node(id).native == *target)
}
