//! The size caps (deepest level, most nodes) and the last pass that lays the result out.

use crate::tree::{NodeId, Tree};

use super::work::{attach_marker, more_items, Pending, Sizes, Work};
use super::{ProjectOptions, ProjectStats};

/// Cuts everything below level `max` (root = 0): a node at that level with children gets one
/// marker in their place, "after depth D: N more items".
pub(super) fn max_depth(mut work: Work, max: usize, stats: &mut ProjectStats) -> Work {
    let Some(root) = work.tree.root() else { return Work::default() };
    let sizes = Sizes::of(&work);
    let mut out = Work::with_capacity(sizes.order.len());
    let mut stack: Vec<(NodeId, Option<NodeId>, usize)> = vec![(root, None, 0)];
    while let Some((old, parent, depth)) = stack.pop() {
        let (new, kids) = work.move_node(old, &mut out, parent);
        if kids.is_empty() {
            continue;
        }
        if depth < max {
            stack.extend(kids.iter().rev().map(|&k| (k, Some(new), depth + 1)));
            Work::recycle(&mut out, new, kids);
            continue;
        }
        let items: usize = kids.iter().map(|k| sizes.items[k.index()]).sum();
        stats.cut_by_view += kids.iter().map(|k| sizes.real[k.index()]).sum::<usize>();
        let name = format!("after depth {max}: {}", more_items(items));
        attach_marker(&mut out, new, Pending { kind: "depth", items, name });
    }
    out
}

/// Keeps the first `max` nodes in document order (the root always) and puts one marker at the
/// end of each kept node whose children were cut, "N more items". The output holds at most
/// `max` nodes plus the markers (at most one per level of the last kept node's path).
pub(super) fn max_nodes(mut work: Work, max: usize, stats: &mut ProjectStats) -> Work {
    let Some(root) = work.tree.root() else { return Work::default() };
    let sizes = Sizes::of(&work);
    let mut out = Work::with_capacity(sizes.order.len().min(max.saturating_add(64)));
    let budget = max.max(1);
    let mut kept = 0usize;
    // Cut items per kept parent. The stack holds each parent's remaining children together,
    // so one parent's cuts are consecutive.
    let mut cuts: Vec<(NodeId, usize)> = Vec::new();
    let mut stack: Vec<(NodeId, Option<NodeId>)> = vec![(root, None)];
    while let Some((old, parent)) = stack.pop() {
        match parent {
            Some(p) if kept >= budget => {
                stats.cut_by_view += sizes.real[old.index()];
                let items = sizes.items[old.index()];
                match cuts.last_mut() {
                    Some((q, n)) if *q == p => *n += items,
                    _ => cuts.push((p, items)),
                }
            }
            _ => {
                kept += 1;
                let (new, kids) = work.move_node(old, &mut out, parent);
                stack.extend(kids.iter().rev().map(|&k| (k, Some(new))));
                Work::recycle(&mut out, new, kids);
            }
        }
    }
    for (parent, items) in cuts {
        attach_marker(&mut out, parent, Pending { kind: "nodes", items, name: more_items(items) });
    }
    out
}

/// Lays the result out in pre-order as the final tree and applies the bounds rule (rule 5).
/// Returns the tree and the raw node each of its nodes stands for.
pub(super) fn finish(
    work: Work,
    opts: &ProjectOptions,
    stats: &mut ProjectStats,
) -> (Tree, Vec<Option<NodeId>>) {
    let Work { mut tree, origin: old_origin, .. } = work;
    if tree.root().is_none() {
        return (Tree::new(), Vec::new());
    }
    // In place: a copy into a new arena cost a page fault per 4 KB of nodes on large pages.
    // The arena then holds exactly the reachable nodes: the output is kept (as a baseline).
    let new_of = tree.lay_out_in_preorder();
    let mut origin = vec![None; tree.arena_len()];
    for (old, new) in new_of.iter().enumerate() {
        if let Some(new) = new {
            origin[new.index()] = old_origin.get(old).copied().flatten();
        }
    }
    stats.output_nodes = tree.arena_len();
    for i in 0..tree.arena_len() {
        let n = tree.node_mut(NodeId(i as u32));
        if n.bounds.is_none() {
            continue;
        }
        if !opts.keep_bounds {
            n.bounds = None;
        } else if opts.drop_leaf_bounds
            && n.children.is_empty()
            && n.actions.is_empty()
            && !n.role.is_widget()
        {
            n.bounds = None;
            stats.leaf_bounds_dropped += 1;
        }
    }
    (tree, origin)
}
