//! Carrying refs across a native scope churn by unique structural matches.
//!
//! Only refs whose whole native scope vanished reach this module, and only new nodes in scopes
//! the previous capture did not have are candidates. A ref is carried when one of two unique
//! matches holds; otherwise it goes stale:
//!
//! 1. **Whole-tree key.** The old node's full key (own fields plus the ancestors' role/name
//!    chain) was unique among all nodes of the previous raw tree, the candidate's is unique among
//!    all nodes of the new raw tree, and they are equal.
//! 2. **Inside a matched parent.** The old node's raw parent had a ref that is now known to
//!    name a node of the new tree (kept or carried), the old node's sibling key (own fields
//!    plus its children's) was unique among its old siblings, the candidate is a child of that
//!    parent and its sibling key is unique among its new siblings, and they are equal. Carried children become matched parents in
//!    turn, top-down.
//!
//! Uniqueness on both sides is what makes a carry safe: among look-alikes nothing is carried,
//! and position is never used.

use std::collections::HashMap;

use super::keys::{Key, KeyMap, Keys};
use super::Ref;
use crate::tree::{NodeId, Tree};

/// What the previous capture said about a ref whose scope vanished.
#[derive(Clone, Debug)]
pub(super) struct Churned {
    /// The ref.
    pub r: Ref,
    /// Full key, when it was unique in the previous raw tree (`None`: not matchable by it).
    pub full: Option<Key>,
    /// Local key, when it was unique among the previous siblings (`None`: not matchable by it).
    pub local: Option<Key>,
    /// The ref of the raw parent, when it had one.
    pub parent: Option<Ref>,
}

/// The new raw tree as matching sees it.
pub(super) struct NewSide<'a> {
    /// The new raw tree.
    pub raw: &'a Tree,
    /// Its keys.
    pub keys: &'a Keys,
    /// The ref each raw node already holds (kept by native id), by arena index.
    pub refs: &'a [Option<Ref>],
    /// Whether a node may receive a carried ref (it holds none and its scope is new).
    pub candidate: &'a dyn Fn(NodeId) -> bool,
}

/// Decides which churned refs carry to which new raw nodes. Each ref and each node appears in
/// at most one pair.
pub(super) fn carry(churned: &[Churned], new: &NewSide<'_>) -> Vec<(Ref, NodeId)> {
    let mut pairs = Vec::new();
    let mut taken = vec![false; new.raw.arena_len()];
    let mut matched = vec![false; churned.len()];

    // Pass 1: whole-tree keys. Old keys are unique by construction of `full`.
    let by_full: KeyMap<usize> =
        churned.iter().enumerate().filter_map(|(i, c)| c.full.map(|k| (k, i))).collect();
    if !by_full.is_empty() {
        for (id, _) in new.raw.preorder() {
            let key = new.keys.full[id.index()];
            if let Some(&i) = by_full.get(&key) {
                if !matched[i] && (new.candidate)(id) && new.keys.full_unique(id) {
                    matched[i] = true;
                    taken[id.index()] = true;
                    pairs.push((churned[i].r, id));
                }
            }
        }
    }

    // Pass 2: children unique among siblings inside parents known on both sides.
    let mut children_of: HashMap<Ref, Vec<usize>> = HashMap::new();
    for (i, c) in churned.iter().enumerate() {
        if let (false, Some(_), Some(p)) = (matched[i], c.local, c.parent) {
            children_of.entry(p).or_default().push(i);
        }
    }
    if children_of.is_empty() {
        return pairs;
    }
    let mut queue: Vec<(Ref, NodeId)> = Vec::new();
    for (id, _) in new.raw.preorder() {
        if let Some(r) = new.refs[id.index()] {
            if children_of.contains_key(&r) {
                queue.push((r, id));
            }
        }
    }
    queue.extend(pairs.iter().filter(|(r, _)| children_of.contains_key(r)).copied());
    while let Some((parent_ref, parent)) = queue.pop() {
        let Some(olds) = children_of.remove(&parent_ref) else { continue };
        let old_by_local: KeyMap<usize> =
            olds.iter().filter_map(|&i| churned[i].local.map(|k| (k, i))).collect();
        for &kid in &new.raw.node(parent).children {
            let key = new.keys.sibling[kid.index()];
            let Some(&i) = old_by_local.get(&key) else { continue };
            if matched[i]
                || taken[kid.index()]
                || !new.keys.sibling_unique[kid.index()]
                || !(new.candidate)(kid)
            {
                continue;
            }
            matched[i] = true;
            taken[kid.index()] = true;
            let r = churned[i].r;
            pairs.push((r, kid));
            if children_of.contains_key(&r) {
                queue.push((r, kid));
            }
        }
    }
    pairs
}
