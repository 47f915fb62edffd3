//! Carrying refs to elements an app re-created equal, in a document that lives on.
//!
//! Apps rebuild parts of their page while the page stays: TodoMVC rewrites its list's items on
//! every change, a spreadsheet re-creates its cells' accessible objects on every keystroke.
//! The old elements are gone and equal ones stand in their place; the agent sees the same
//! lines, and a new ref on each would make every step re-send them (and make the refs it holds
//! stale for nothing).
//!
//! A ref whose element is gone from a living scope is carried to a new node when all of these
//! hold, and otherwise goes stale as before:
//! - its nearest ancestor that had a ref (the *anchor*) names a node of the new capture, kept by
//!   native id or itself carried here (so matching runs top-down from kept elements);
//! - the new node sits under that anchor with no other ref-holding node between, as the old one
//!   did, and it is new (it holds no ref) in a scope the last capture had;
//! - its whole subtree is equal to the old one's: role, name, developer id, URL without its
//!   query and level of every node, in order (its `content` key), not values or states;
//! - that content is unique under the anchor on both sides: among the old element's
//!   ref-holding kin when it was recorded, and among every node under the anchor now (one a
//!   view leaves out counts too).
//!
//! So an element replaced by a different one (a row whose item changed) is not matched, nor is
//! anything inside it (its anchor is not matched); look-alikes (two equal rows) are never
//! matched; and position is never used.

use std::collections::HashMap;

use std::hash::Hasher;

use super::keys::{Fast128, FastState, Key, KeyMap, Keys};
use super::Ref;
use crate::tree::{NodeId, Tree};

/// A ref whose element is gone from a living scope, as its last whole capture recorded it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Gone {
    /// The ref.
    pub r: Ref,
    /// Its content key, recorded only when unique under its anchor.
    pub content: Key,
    /// The ref of its nearest raw ancestor that had one.
    pub anchor: Ref,
}

/// The new capture as this matching sees it.
pub(super) struct Now<'a> {
    /// The new raw tree, and its pre-order.
    pub raw: &'a Tree,
    pub order: &'a [NodeId],
    /// Its keys.
    pub keys: &'a Keys,
    /// The ref each raw node holds so far (kept or carried), by arena index.
    pub refs: &'a [Option<Ref>],
    /// Whether a node holds a ref or is about to receive one (it is projected).
    pub member: &'a dyn Fn(NodeId) -> bool,
    /// Whether a node may receive a carried ref (it holds none and its scope is not new).
    pub candidate: &'a dyn Fn(NodeId) -> bool,
}

/// Which gone refs carry to which new nodes. Each ref and each node is in at most one pair.
pub(super) fn carry(gone: &[Gone], now: &Now<'_>) -> Vec<(Ref, NodeId)> {
    let mut pairs = Vec::new();
    if gone.is_empty() {
        return pairs;
    }
    let n = now.raw.arena_len();
    // The nearest member ancestor of each node, and the members by (anchor, content) with their
    // count (pre-order: a parent's entry is made before its children's).
    let mut waiting: HashMap<Ref, Vec<Gone>, FastState> = HashMap::default();
    for g in gone {
        waiting.entry(g.anchor).or_default().push(*g);
    }
    let mut near: Vec<Option<NodeId>> = vec![None; n];
    let mut by_anchor: KeyMap<(u32, NodeId)> = KeyMap::default();
    let mut node_of: HashMap<Ref, NodeId, FastState> = HashMap::default();
    for &id in now.order {
        let node = now.raw.node(id);
        near[id.index()] = node.parent.and_then(|p| if (now.member)(p) { Some(p) } else { near[p.index()] });
        if let Some(r) = now.refs[id.index()].filter(|r| waiting.contains_key(r)) {
            node_of.insert(r, id);
        }
        // Every node counts against uniqueness, shown or not (a look-alike a view left out
        // is still a look-alike); only a member can take a ref. Counts are read only under an
        // anchor that may be matched: one holding a waited-on ref, or one without a ref (a
        // new node, which a carry may reach); the rest, nearly every node of a steady page,
        // are not counted.
        let matchable = |a: NodeId| now.refs[a.index()].is_none_or(|r| waiting.contains_key(&r));
        if let Some(a) = near[id.index()].filter(|&a| matchable(a)) {
            let e = by_anchor.entry(under(a, now.keys.content[id.index()])).or_insert((0, id));
            e.0 += 1;
        }
    }
    let mut queue: Vec<(Ref, NodeId)> =
        waiting.keys().filter_map(|a| node_of.get(a).map(|&id| (*a, id))).collect();
    let mut taken = vec![false; n];
    while let Some((anchor_ref, anchor)) = queue.pop() {
        let Some(olds) = waiting.remove(&anchor_ref) else { continue };
        for g in olds {
            let Some(&(1, id)) = by_anchor.get(&under(anchor, g.content)) else { continue };
            if taken[id.index()] || !(now.candidate)(id) || !(now.member)(id) {
                continue;
            }
            taken[id.index()] = true;
            pairs.push((g.r, id));
            if waiting.contains_key(&g.r) {
                queue.push((g.r, id));
            }
        }
    }
    pairs
}

/// One key for a content key under an anchor node: 128 bits, so two different pairs sharing
/// one is out of practical reach (and would only count them as look-alikes, which carries
/// nothing).
fn under(anchor: NodeId, content: Key) -> Key {
    let mut h = Fast128::default();
    h.write_u128(content);
    h.write_u32(anchor.0);
    h.finish128()
}
