//! Carrying refs into a part of a living document that the app drew again, changed.
//!
//! Sites redraw a part of their page in the same document: phpMyAdmin's AJAX pages replace the
//! whole content area and the tab bar after every step (the same table with one cell changed
//! and a message added; the same nine tabs with `(current)` moved). Every element there is new
//! to the browser, so no ref follows a native id; module `recreated` carries an element only
//! when its whole subtree came back equal, which a part with one changed cell never does (nor
//! anything inside it: its anchor is not carried). Without this module the agent would get the
//! whole part again with every ref new, and the refs it held would be stale for nothing.
//!
//! Such a part is what a navigation is to a document: what it held left with it, and what is
//! there now was drawn anew. So the refs gone from a living document that `recreated` did not
//! carry are matched as a vanished document's are (module `matching`), on the same evidence:
//! a full key (the ancestors' roles and names, the node's own fields) unique in the old and in
//! the new capture; a sibling key unique on both sides under a parent matched on both sides
//! (kept, or carried here), top-down from the elements the page kept; or a container's matched
//! contents, a strict majority of both sides and no other pair as good. Candidates are the new
//! nodes of living scopes (holding no ref); a vanished scope's refs and new scopes are
//! `matching`'s, as before.
//!
//! This and `recreated` take turns (`RefSpace::refresh`): a container matched here is an
//! anchor there, so look-alike cells a key one level deep cannot tell apart are told apart by
//! their whole contents; and an element `recreated` carries opens its children to the keys.
//!
//! What this does not carry, so no ref lands on another element: a row or item replaced by
//! another (its own key differs: its cells, its link's name), anything among look-alikes (a key
//! shared on either side matches nothing), and anything under a parent that was not matched.
//! An element whose own fields changed (a cell's text) gets a new ref: its key is its evidence.
//! Position is never used. Nor are links matched by their whole address alone here (module
//! `address`), as they are across a vanished document: in a living one, a container replaced
//! by another element that holds copies of the same links holds new links, and an address
//! says nothing of the container around it (the whole-tree key, which has its ancestors'
//! names, does). The limit it shares with `recreated` and `matching`: an element
//! that in the same step took exactly the look (key) of another that left (one renamed to what
//! a removed sibling was) is taken for it; structure alone cannot tell the two apart, and the
//! refs property test draws one change per redraw.

use super::matching::{self, Churned, NewSide};
use super::slots::Slots;
use super::{slot_index, Ref};
use crate::tree::NodeId;

/// What the last whole capture recorded of `gone` refs (elements whose native ids left a
/// living document): those it recorded a structure for, sorted (pairs come out in one order).
pub(super) fn olds(slots: &Slots, gone: &[Ref]) -> Vec<Churned> {
    let mut out: Vec<Churned> = gone
        .iter()
        .filter_map(|&r| {
            let slot = &slots[slot_index(r)];
            let s = slot.structure?;
            Some(Churned {
                r,
                full: s.full,
                local: s.local,
                parent: s.parent,
                ancestor: s.ancestor,
                address: s.address,
                role: slot.role.clone(),
                name: slot.name.clone(),
            })
        })
        .collect();
    out.sort_unstable_by_key(|c| c.r);
    out
}

/// Which gone refs carry to which new nodes of living scopes (`new.candidate` says which may
/// take one). Each ref and each node is in at most one pair.
pub(super) fn carry(gone: &[Churned], new: &NewSide<'_>) -> Vec<(Ref, NodeId)> {
    if gone.is_empty() {
        return Vec::new();
    }
    matching::carry(gone, new)
}
