//! Pass 4 of churn matching: look-alike siblings told apart by the elements around them.
//!
//! A page may hold look-alikes that nothing in them tells apart: Django's admin filters are
//! three lists of the same `All`, `Yes`, `No` links (their URLs differ in the query only),
//! each after its own button (`By staff status`). Passes 1 to 3 carry none of them, rightly:
//! position alone must never move a ref. What does tell them apart is what is around each:
//! the element just before it and the one just after, under the same matched ancestor.
//!
//! An old element is carried here when, under a parent known on both sides, its neighbours
//! (the ref-holding nodes just before and after it under that ancestor, or the edge) are both
//! known on the new side, and between those two the new side has exactly one unknown node of
//! its sibling key, and no other old element has that key and those neighbours. Both
//! neighbours must match: an element removed between two look-alikes leaves the next one with
//! another neighbour after it, so it is not taken for the one removed.

use std::collections::HashMap;

use super::keys::Key;
use super::matching::{Churned, NewSide};
use super::Ref;
use crate::tree::NodeId;

/// Old elements left unmatched under each matched parent: the parent's new node and the old
/// elements (indices into the churned list).
pub(super) type Left = HashMap<Ref, (NodeId, Vec<usize>)>;

/// How many nodes under one parent are looked at (a page's root holds them all).
const MAX_WALK: usize = 20_000;

/// Carries what it can of `left` (module doc); returns the pairs it made.
pub(super) fn carry(
    churned: &[Churned],
    new: &NewSide<'_>,
    left: &mut Left,
    matched: &mut [bool],
    taken: &mut [bool],
    pairs: &[(Ref, NodeId)],
) -> Vec<(Ref, NodeId)> {
    let mut made = Vec::new();
    if left.is_empty() {
        return made;
    }
    let mut at: HashMap<NodeId, Ref> = pairs.iter().map(|&(r, id)| (id, r)).collect();
    let parents: Vec<Ref> = left.keys().copied().collect();
    for parent_ref in parents {
        let Some((parent, olds)) = left.get(&parent_ref) else { continue };
        let parent = *parent;
        type Slot = (Key, Option<Ref>, Option<Ref>);
        let mut by_place: HashMap<Slot, Option<usize>> = HashMap::new();
        for &i in olds.iter().filter(|&&i| !matched[i]) {
            if let Some(k) = churned[i].local {
                let (b, a) = churned[i].neighbours;
                by_place.entry((k, b, a)).and_modify(|e| *e = None).or_insert(Some(i));
            }
        }
        if by_place.is_empty() {
            left.remove(&parent_ref);
            continue;
        }
        let known =
            |id: NodeId, at: &HashMap<NodeId, Ref>| new.refs[id.index()].or_else(|| at.get(&id).copied());
        // The parent's subtree in document order, known nodes standing for their subtrees:
        // the gaps between known nodes, each with the unknown nodes in it.
        let mut found: HashMap<Slot, Option<NodeId>> = HashMap::new();
        let mut gap: Vec<NodeId> = Vec::new();
        let mut before: Option<Ref> = None;
        let mut stack: Vec<NodeId> = new.raw.node(parent).children.iter().rev().copied().collect();
        let mut seen = 0usize;
        let close = |found: &mut HashMap<Slot, Option<NodeId>>, gap: &mut Vec<NodeId>, before, after| {
            for id in gap.drain(..) {
                let slot: Slot = (new.keys.sibling[id.index()], before, after);
                if by_place.contains_key(&slot) {
                    found.entry(slot).and_modify(|e| *e = None).or_insert(Some(id));
                }
            }
        };
        let mut whole = true;
        while let Some(id) = stack.pop() {
            seen += 1;
            if seen > MAX_WALK {
                whole = false;
                break;
            }
            match known(id, &at) {
                Some(r) => {
                    close(&mut found, &mut gap, before, Some(r));
                    before = Some(r);
                }
                None => {
                    gap.push(id);
                    stack.extend(new.raw.node(id).children.iter().rev().copied());
                }
            }
        }
        if !whole {
            // A cut walk cannot say what is unique; nothing is carried under this parent.
            left.remove(&parent_ref);
            continue;
        }
        close(&mut found, &mut gap, before, None);
        for (slot, node) in found {
            let (Some(id), Some(&Some(i))) = (node, by_place.get(&slot)) else { continue };
            if matched[i] || taken[id.index()] || !(new.candidate)(id) {
                continue;
            }
            matched[i] = true;
            taken[id.index()] = true;
            at.insert(id, churned[i].r);
            made.push((churned[i].r, id));
        }
        left.remove(&parent_ref);
    }
    made.sort_by_key(|&(r, id)| (id.0, r));
    made
}
