//! Whether a diff changes nothing an agent is shown: the test behind answering "no change" to a
//! page that was made again as it was (a reload).

use super::diff_text::{same_content, Side};
use super::line::LineCtx;
use crate::diff::{Diff, FieldChange, Op};
use crate::tree::Tree;

/// Whether every op of `diff` (from `prev` to `next`) changes only what no form of the answer
/// shows an agent: a carried ref's new native id or bounds, or a part made again with the same
/// content whose refs the agent was never shown (look-alike texts, `" / "` twice, that no
/// structure can tell apart get new refs of their own, which only diffs name).
pub fn unseen(diff: &Diff, prev: &Tree, next: &Tree) -> bool {
    let quiet_update = |op: &Op| match op {
        Op::Update { changes, .. } => {
            changes.iter().all(|c| matches!(c, FieldChange::Native { .. } | FieldChange::Bounds { .. }))
        }
        _ => false,
    };
    if !diff.ops.iter().all(|op| quiet_update(op) || matches!(op, Op::Replace { .. })) {
        return false;
    }
    if diff.ops.iter().all(quiet_update) {
        return true;
    }
    let p = Side::new(prev);
    let ctx = LineCtx::for_tree(next, None);
    diff.ops.iter().all(|op| match op {
        Op::Replace { r, subtree } => {
            same_content(&p, *r, subtree, &ctx)
                && p.by_ref.get(r).is_some_and(|&id| prev.subtree(id).iter().all(|&o| !p.shows_ref(o)))
        }
        op => quiet_update(op),
    })
}
