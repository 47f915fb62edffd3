//! The working tree the views pass along, the cut markers they leave, and the copy that lays a
//! tree out in pre-order.
//!
//! Each view reads one working tree and writes a new one in pre-order, moving nodes out of the
//! old arena (`mem::take`), so a view costs no string copies and no recursion.

use std::collections::HashMap;

use crate::role::Role;
use crate::tree::{NativeId, Node, NodeId, Tree};

use super::SYNTHETIC_SCOPE;

/// A tree between two stages, with the weight of each cut marker in it.
#[derive(Debug, Default)]
pub(super) struct Work {
    /// The tree (root set unless empty).
    pub tree: Tree,
    /// For each node of `tree` (by arena index), the raw node it stands for (the same native
    /// id); `None` for a cut marker. Grows with the tree: nodes enter only through
    /// [`Work::push`].
    pub origin: Vec<Option<NodeId>>,
    /// For each marker: how many items it stands for.
    pub markers: HashMap<NodeId, usize>,
}

impl Work {
    /// An empty working tree with room for `n` nodes. Large trees are built without regrowing
    /// (moving hundreds of bytes per node on each doubling dominated the cost).
    pub fn with_capacity(n: usize) -> Work {
        Work { tree: Tree::with_capacity(n), origin: Vec::with_capacity(n), markers: HashMap::new() }
    }

    /// Adds a detached node made from raw node `origin` (`None`: made up).
    pub fn push(&mut self, node: Node, origin: Option<NodeId>) -> NodeId {
        self.origin.push(origin);
        self.tree.push(node)
    }

    /// How many items `id` stands for: a marker its count, any other node 1.
    pub fn weight(&self, id: NodeId) -> usize {
        self.markers.get(&id).copied().unwrap_or(1)
    }

    /// Moves node `old` out of this tree into `out` under `parent` (as the root for `None`),
    /// carrying its marker weight. Returns the new id and the old children, in order.
    pub fn move_node(
        &mut self,
        old: NodeId,
        out: &mut Work,
        parent: Option<NodeId>,
    ) -> (NodeId, Vec<NodeId>) {
        let mut node = std::mem::take(self.tree.node_mut(old));
        let kids = std::mem::take(&mut node.children);
        let new = out.push(node, self.origin.get(old.index()).copied().flatten());
        match parent {
            Some(p) => out.tree.attach(p, new, None),
            None => out.tree.set_root(new),
        }
        if let Some(w) = self.markers.get(&old) {
            out.markers.insert(new, *w);
        }
        (new, kids)
    }

    /// Gives the emptied old child list of a moved node back to it as storage for its new
    /// children, so attaching them neither allocates nor regrows.
    pub fn recycle(out: &mut Work, new: NodeId, mut kids: Vec<NodeId>) {
        kids.clear();
        let slot = &mut out.tree.node_mut(new).children;
        if slot.is_empty() && slot.capacity() < kids.capacity() {
            *slot = kids;
        }
    }

    /// Copies the subtree of `old` into `out` under `parent` unchanged, in pre-order.
    pub fn move_subtree(&mut self, old: NodeId, out: &mut Work, parent: Option<NodeId>) -> NodeId {
        let (top, kids) = self.move_node(old, out, parent);
        let mut stack: Vec<(NodeId, NodeId)> = kids.iter().rev().map(|&k| (k, top)).collect();
        Work::recycle(out, top, kids);
        while let Some((id, p)) = stack.pop() {
            let (new, kids) = self.move_node(id, out, Some(p));
            stack.extend(kids.iter().rev().map(|&k| (k, new)));
            Work::recycle(out, new, kids);
        }
        top
    }
}

/// Per-node subtree figures, indexed by arena index.
pub(super) struct Sizes {
    /// Reachable nodes in pre-order.
    pub order: Vec<NodeId>,
    /// Items in each subtree (markers count as what they stand for).
    pub items: Vec<usize>,
    /// Real (non-marker) nodes in each subtree.
    pub real: Vec<usize>,
}

impl Sizes {
    /// Computes the figures bottom-up over a reversed pre-order (no recursion).
    pub fn of(work: &Work) -> Sizes {
        let len = work.tree.arena_len();
        let order: Vec<NodeId> = work.tree.preorder().map(|(id, _)| id).collect();
        let mut items = vec![0usize; len];
        let mut real = vec![0usize; len];
        for &id in order.iter().rev() {
            let is_marker = work.markers.contains_key(&id);
            let (mut i, mut r) = (work.weight(id), usize::from(!is_marker));
            for &c in &work.tree.node(id).children {
                i += items[c.index()];
                r += real[c.index()];
            }
            items[id.index()] = i;
            real[id.index()] = r;
        }
        Sizes { order, items, real }
    }
}

/// A marker waiting to be placed.
pub(super) struct Pending {
    /// Which view made it (part of its id).
    pub kind: &'static str,
    /// How many items it stands for.
    pub items: usize,
    /// What it says.
    pub name: String,
}

/// `"1 more item"`, `"7 more items"`.
pub(super) fn more_items(n: usize) -> String {
    if n == 1 {
        "1 more item".to_string()
    } else {
        format!("{n} more items")
    }
}

/// Adds a marker as the last child of `parent`. Its native id is built from the parent's id,
/// the view that cut and its position, so the same cut gets the same id every time.
pub(super) fn attach_marker(out: &mut Work, parent: NodeId, m: Pending) -> NodeId {
    let p = out.tree.node(parent);
    let pos = p.children.len();
    // The scope's length makes the id unambiguous whatever characters the parts hold.
    let id = format!("{}{}@{}:{}/{}", m.kind, pos, p.native.scope.len(), p.native.scope, p.native.id);
    let node = Node::new(Role::More, m.name, NativeId::new(SYNTHETIC_SCOPE, id));
    let new = out.push(node, None);
    out.tree.attach(parent, new, None);
    out.markers.insert(new, m.items);
    new
}
