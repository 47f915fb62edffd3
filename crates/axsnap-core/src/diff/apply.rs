//! Applying a diff: replay its ops, checking each against the tree as it stands, on a working
//! copy whose siblings are doubly linked so that every insert, move and unlink is O(1) however
//! wide the sibling list.
//!
//! Any diff, including one read from hostile JSON, gives a tree or an [`ApplyError`]; nothing
//! here panics or recurses.

use std::collections::HashMap;

use super::fields::detached as node_content;
use super::{ApplyError, Diff, NewSubtree, Op};
use crate::refs::Ref;
use crate::tree::{Node, NodeId, Tree};

/// "No slot" in the link fields.
const NIL: u32 = u32::MAX;

/// Applies `diff` to `prev`, giving the next tree (compacted, in pre-order).
///
/// Each op is checked against the tree as the earlier ops left it: unknown refs, a sibling
/// that is not a child of the parent, an add bringing a ref the tree has, a move under itself,
/// a field whose `old` differs. Nodes of `prev` without a ref are carried along but cannot be
/// named; two nodes with one ref make the tree unusable ([`ApplyError::DuplicateRef`]).
pub fn apply(prev: &Tree, diff: &Diff) -> Result<Tree, ApplyError> {
    let mut work = Work::from_tree(prev)?;
    for (index, op) in diff.ops.iter().enumerate() {
        work.run(index, op)?;
    }
    Ok(work.into_tree())
}

/// One node of the working copy.
struct Slot {
    node: Node,
    parent: u32,
    first: u32,
    last: u32,
    prev: u32,
    next: u32,
}

/// The working copy: slots with sibling links, and where each live ref is.
struct Work {
    slots: Vec<Slot>,
    root: u32,
    by_ref: HashMap<Ref, u32>,
}

impl Work {
    fn from_tree(tree: &Tree) -> Result<Work, ApplyError> {
        let mut work = Work { slots: Vec::new(), root: NIL, by_ref: HashMap::new() };
        let Some(root) = tree.root() else { return Ok(work) };
        let mut stack: Vec<(NodeId, u32)> = vec![(root, NIL)];
        while let Some((id, parent)) = stack.pop() {
            let node = tree.node(id);
            // A hand-built arena with a cycle would otherwise be walked forever.
            if work.slots.len() >= tree.arena_len() {
                return Err(ApplyError::Inconsistent {
                    index: 0,
                    reason: "the tree to apply to is not a tree (a node is reachable twice)".into(),
                });
            }
            let slot = work.push(node_content(node));
            if let Some(r) = node.ref_id {
                if work.by_ref.insert(r, slot).is_some() {
                    return Err(ApplyError::DuplicateRef { r });
                }
            }
            if parent == NIL {
                work.root = slot;
            } else {
                work.link_last(parent, slot);
            }
            stack.extend(node.children.iter().rev().map(|c| (*c, slot)));
        }
        Ok(work)
    }

    fn push(&mut self, node: Node) -> u32 {
        self.slots.push(Slot { node, parent: NIL, first: NIL, last: NIL, prev: NIL, next: NIL });
        (self.slots.len() - 1) as u32
    }

    fn slot(&self, s: u32) -> &Slot {
        &self.slots[s as usize]
    }

    fn slot_mut(&mut self, s: u32) -> &mut Slot {
        &mut self.slots[s as usize]
    }

    fn link_last(&mut self, parent: u32, child: u32) {
        let last = self.slot(parent).last;
        self.link_after(parent, last, child);
    }

    /// Links the detached `child` under `parent` right after `after` (first when NIL).
    fn link_after(&mut self, parent: u32, after: u32, child: u32) {
        let next = if after == NIL { self.slot(parent).first } else { self.slot(after).next };
        {
            let c = self.slot_mut(child);
            c.parent = parent;
            c.prev = after;
            c.next = next;
        }
        if after == NIL {
            self.slot_mut(parent).first = child;
        } else {
            self.slot_mut(after).next = child;
        }
        if next == NIL {
            self.slot_mut(parent).last = child;
        } else {
            self.slot_mut(next).prev = child;
        }
    }

    /// Unlinks `child` from its parent; returns (parent, previous sibling).
    fn unlink(&mut self, child: u32) -> (u32, u32) {
        let Slot { parent, prev, next, .. } = *self.slot(child);
        if parent != NIL {
            if prev == NIL {
                self.slot_mut(parent).first = next;
            } else {
                self.slot_mut(prev).next = next;
            }
            if next == NIL {
                self.slot_mut(parent).last = prev;
            } else {
                self.slot_mut(next).prev = prev;
            }
        }
        let c = self.slot_mut(child);
        c.parent = NIL;
        c.prev = NIL;
        c.next = NIL;
        (parent, prev)
    }

    /// Unlinks `s` and forgets its whole subtree (refs and content).
    fn delete(&mut self, s: u32) -> (u32, u32) {
        let place = self.unlink(s);
        let mut stack = vec![s];
        while let Some(x) = stack.pop() {
            let mut c = self.slot(x).first;
            while c != NIL {
                stack.push(c);
                c = self.slot(c).next;
            }
            let node = std::mem::take(&mut self.slot_mut(x).node);
            if let Some(r) = node.ref_id {
                self.by_ref.remove(&r);
            }
            let slot = self.slot_mut(x);
            slot.first = NIL;
            slot.last = NIL;
        }
        place
    }

    fn find(&self, index: usize, r: Ref) -> Result<u32, ApplyError> {
        self.by_ref.get(&r).copied().ok_or(ApplyError::UnknownRef { index, r })
    }

    /// Resolves an insert position: `parent` and, if given, `after`, a child of it.
    fn position(&self, index: usize, parent: Ref, after: Option<Ref>) -> Result<(u32, u32), ApplyError> {
        let ps = self.find(index, parent)?;
        let Some(a) = after else { return Ok((ps, NIL)) };
        let as_ = self.find(index, a)?;
        if self.slot(as_).parent != ps {
            return Err(ApplyError::BadPosition { index, parent, after: a });
        }
        Ok((ps, as_))
    }

    fn run(&mut self, index: usize, op: &Op) -> Result<(), ApplyError> {
        let inconsistent = |reason: String| ApplyError::Inconsistent { index, reason };
        match op {
            Op::Add { parent, after, subtree } => {
                let (ps, as_) = self.position(index, *parent, *after)?;
                let top = self.build(index, subtree)?;
                self.link_after(ps, as_, top);
            }
            Op::Remove { r } => {
                let s = self.find(index, *r)?;
                if s == self.root {
                    return Err(inconsistent(format!("{r} is the root, which cannot be removed")));
                }
                self.delete(s);
            }
            Op::Update { r, changes } => {
                let s = self.find(index, *r)?;
                if changes.is_empty() {
                    return Err(inconsistent(format!("the update of {r} changes nothing")));
                }
                let node = &mut self.slots[s as usize].node;
                for change in changes {
                    change.apply_to(node).map_err(|field| ApplyError::OldMismatch { index, field })?;
                }
            }
            Op::Move { r, parent, after } => {
                let s = self.find(index, *r)?;
                if s == self.root {
                    return Err(inconsistent(format!("{r} is the root, which cannot move")));
                }
                let (ps, as_) = self.position(index, *parent, *after)?;
                if as_ == s {
                    return Err(ApplyError::BadPosition { index, parent: *parent, after: *r });
                }
                // The new parent must not be the node or under it.
                let mut up = ps;
                while up != NIL {
                    if up == s {
                        return Err(inconsistent(format!(
                            "moving {r} under {parent} would put it under itself"
                        )));
                    }
                    up = self.slot(up).parent;
                }
                self.unlink(s);
                self.link_after(ps, as_, s);
            }
            Op::Replace { r, subtree } => {
                let s = self.find(index, *r)?;
                let (parent, before) = self.delete(s);
                let top = self.build(index, subtree)?;
                if parent == NIL {
                    self.root = top;
                } else {
                    self.link_after(parent, before, top);
                }
            }
        }
        Ok(())
    }

    /// Builds `subtree` as detached slots, registering its refs; returns its top slot.
    fn build(&mut self, index: usize, subtree: &NewSubtree) -> Result<u32, ApplyError> {
        let inconsistent = |reason: String| ApplyError::Inconsistent { index, reason };
        if subtree.nodes.is_empty() {
            return Err(inconsistent("the subtree has no node".into()));
        }
        let mut path: Vec<u32> = Vec::new();
        for (k, new) in subtree.nodes.iter().enumerate() {
            let depth = new.depth as usize;
            if (k == 0) != (depth == 0) || depth > path.len() {
                return Err(inconsistent(format!(
                    "node {k} of the subtree has depth {depth}, which does not follow from the nodes before it"
                )));
            }
            let Some(r) = new.node.ref_id else {
                return Err(inconsistent(format!("node {k} of the subtree has no ref")));
            };
            if self.by_ref.contains_key(&r) {
                return Err(inconsistent(format!("the subtree brings {r}, which the tree already has")));
            }
            let s = self.push(node_content(&new.node));
            self.by_ref.insert(r, s);
            path.truncate(depth);
            if let Some(&parent) = path.last() {
                self.link_last(parent, s);
            }
            path.push(s);
        }
        Ok(path[0])
    }

    /// The live tree, compacted in pre-order.
    fn into_tree(mut self) -> Tree {
        let mut out = Tree::new();
        if self.root == NIL {
            return out;
        }
        let mut stack: Vec<(u32, Option<NodeId>)> = vec![(self.root, None)];
        let mut kids: Vec<u32> = Vec::new();
        while let Some((s, parent)) = stack.pop() {
            let id = out.push(std::mem::take(&mut self.slots[s as usize].node));
            match parent {
                Some(p) => out.attach(p, id, None),
                None => out.set_root(id),
            }
            kids.clear();
            let mut c = self.slot(s).first;
            while c != NIL {
                kids.push(c);
                c = self.slot(c).next;
            }
            stack.extend(kids.iter().rev().map(|c| (*c, Some(id))));
        }
        out
    }
}
