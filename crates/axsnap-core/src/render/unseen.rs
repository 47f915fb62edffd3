//! Whether a diff changes nothing an agent is shown: the test behind answering "no change" to a
//! page that was made again as it was (a reload).

use super::diff_text::{same_content, Side};
use super::line::{ref_worthy, LineCtx};
use crate::diff::{Diff, FieldChange, NewSubtree, Op};
use crate::refs::Ref;
use crate::tree::{Node, Tree};

/// A removed part: its nodes in pre-order, each with its depth below the part's root.
type Part<'t> = Vec<(u32, &'t Node)>;

/// Most removed-and-added pairs compared (each pair is compared whole).
const MAX_PAIRS: usize = 64;

/// Whether every op of `diff` (from `prev` to `next`) changes only what no form of the answer
/// shows an agent: a carried ref's new native id or bounds, or a part made again with the same
/// content whose refs the agent was never shown (look-alike texts, `" / "` twice, that no
/// structure can tell apart get new refs of their own, which only diffs name), in place or
/// removed and added again under the same parent.
pub fn unseen(diff: &Diff, prev: &Tree, next: &Tree) -> bool {
    let quiet_update = |op: &Op| match op {
        Op::Update { changes, .. } => {
            changes.iter().all(|c| matches!(c, FieldChange::Native { .. } | FieldChange::Bounds { .. }))
        }
        _ => false,
    };
    if diff.ops.iter().all(quiet_update) {
        return true;
    }
    let some = |op: &Op| matches!(op, Op::Replace { .. } | Op::Remove { .. } | Op::Add { .. });
    if !diff.ops.iter().all(|op| quiet_update(op) || some(op)) {
        return false;
    }
    let p = Side::new(prev);
    let ctx = LineCtx::for_tree(next, None);
    let never_shown =
        |r: &Ref| p.by_ref.get(r).is_some_and(|&id| prev.subtree(id).iter().all(|&o| !p.shows_ref(o)));
    let mut removed: Vec<(Option<Ref>, Part<'_>)> = Vec::new();
    let mut added: Vec<(Option<Ref>, &NewSubtree)> = Vec::new();
    for op in &diff.ops {
        match op {
            Op::Replace { r, subtree } if !(same_content(&p, *r, subtree, &ctx) && never_shown(r)) => {
                return false
            }
            Op::Remove { r } => {
                let Some(&id) = p.by_ref.get(r).filter(|_| never_shown(r)) else { return false };
                let parent = prev.node(id).parent.and_then(|q| prev.node(q).ref_id);
                removed.push((parent, with_depths(prev, id)));
            }
            Op::Add { parent, subtree, .. } => {
                if subtree.nodes.iter().any(|n| ref_worthy(&n.node, false)) {
                    return false;
                }
                added.push((Some(*parent), subtree));
            }
            _ => {}
        }
    }
    if removed.len() != added.len() || removed.len() > MAX_PAIRS {
        return false;
    }
    // Each removed part has an added twin under the same parent.
    let mut used = vec![false; added.len()];
    removed.iter().all(|(parent, old)| {
        let twin = added.iter().enumerate().position(|(j, (q, new))| {
            !used[j]
                && q == parent
                && old.len() == new.nodes.len()
                && old.iter().zip(&new.nodes).all(|((d, a), b)| *d == b.depth && looks_alike(a, &b.node))
        });
        twin.map(|j| used[j] = true).is_some()
    })
}

/// The subtree at `id` in pre-order with each node's depth below it.
fn with_depths(tree: &Tree, id: crate::tree::NodeId) -> Part<'_> {
    let mut out = Vec::new();
    let mut stack = vec![(id, 0u32)];
    while let Some((n, d)) = stack.pop() {
        out.push((d, tree.node(n)));
        stack.extend(tree.node(n).children.iter().rev().map(|&c| (c, d + 1)));
    }
    out
}

/// Whether two nodes read the same in every form shown (not their refs, native ids or bounds).
fn looks_alike(a: &Node, b: &Node) -> bool {
    a.role == b.role
        && a.name == b.name
        && a.value == b.value
        && a.description == b.description
        && a.states == b.states
        && a.actions == b.actions
        && a.level == b.level
        && a.url == b.url
        && a.options == b.options
        && crate::ValueRange::same(&a.range, &b.range)
}
