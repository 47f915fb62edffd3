//! Refs: short durable names (`e12`) for live elements, and the table that keeps them.
//!
//! Rules (DESIGN.md, "Refs"):
//! - a ref is given on first sight and kept by native identity while the element lives, through
//!   renames, value and state changes and moves; but a collection item (a tree item, option,
//!   row, list item, tab, menu item) whose name was replaced by another item's is a new item,
//!   on the same element a virtualized list recycled: its ref goes stale (module `recycled`);
//! - when a whole native scope disappears (a navigation replaced the document), a ref may be
//!   carried to a node of the new capture only on a unique, unambiguous structural match;
//! - a ref whose element is gone is stale, forever: it is never retargeted to a look-alike;
//!   only when a document left and the browser restores that same document (its elements,
//!   with their native ids: the back-forward cache) do its refs come back with it (module
//!   `away`);
//! - refs are numbered in one space per session, so a ref from another target is recognized
//!   and refused as foreign.
//!
//! How [`RefSpace::refresh`] applies them:
//! - liveness is judged on the raw capture (every native id in it), so a node a view leaves
//!   out keeps its ref; only projected nodes receive new refs, in document order;
//! - a ref whose native id is missing while its native scope is still in the capture is stale,
//!   unless the app re-created the element equal (module `recreated`: the same whole-subtree
//!   content under the same matched ancestor, unique there on both sides) or drew the part it
//!   was in again, changed (module `rebuilt`: the keys a vanished scope is matched by, unique
//!   on both sides, top-down from the elements the page kept); another element put in its
//!   place, or one of several look-alikes, is a new element;
//! - a ref whose whole scope vanished may be carried, only to a node of a scope the previous
//!   capture did not have, only on a match unique on both sides (module `matching`: the whole-tree
//!   structural key of module `keys`, a link's whole address (module `address`), the key among
//!   siblings inside an already matched parent, or a container's matched contents when no
//!   other pair matches them as well); the table then names the new native id;
//! - a partial capture ([`RefSpace::refresh_partial`]: a deadline cut it, or a JavaScript dialog
//!   blocks the page) proves nothing about the elements it missed: their refs stay as they are
//!   (neither kept by a sighting nor made stale), nothing is carried, and the structure churn
//!   matching compares stays that of the last whole capture (a partial one may have missed a
//!   look-alike, so it shows no key unique); the next whole capture judges them. This cannot hit a wrong element: a ref still names one native id, and a backend
//!   refuses an action on a native id that is gone.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::project::Projection;
use crate::role::Role;
use crate::tree::{NativeId, NodeId, Tree};

mod address;
mod away;
mod derived;
mod keys;
mod matching;
mod rebuilt;
mod recreated;
mod recycled;
mod saved;
mod slots;

use away::Away;
use keys::{Fast128, FastState, Key, KeyHasher, Keys};
use matching::{Churned, NewSide};
pub(crate) use saved::SavedRefs;
use slots::Slots;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A ref: `e` followed by a number. Unique within a [`RefSpace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ref(pub u32);

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}", self.0)
    }
}

impl FromStr for Ref {
    type Err = RefError;

    /// Parses `e12` (surrounding whitespace and brackets, as in `[e12]`, are tolerated).
    fn from_str(s: &str) -> Result<Ref, RefError> {
        let t = s.trim().trim_start_matches('[').trim_end_matches(']');
        t.strip_prefix('e')
            .and_then(|n| if n.starts_with('+') { None } else { n.parse::<u32>().ok() })
            .map(Ref)
            .ok_or_else(|| RefError::Malformed { input: s.to_string() })
    }
}

impl Serialize for Ref {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ref {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The name of a target (a page, a window) within a session.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TargetId(pub String);

impl fmt::Display for TargetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why a ref cannot be used.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RefError {
    /// Not of the form `e<number>`.
    #[error("{input:?} is not a ref; refs look like e12 and come from a snapshot")]
    Malformed {
        /// What was given.
        input: String,
    },
    /// Never given out in this session.
    #[error("ref {0} was never given out; take a snapshot and use a ref from it")]
    Unknown(Ref),
    /// The element is gone (removed or replaced, even by an identical twin).
    #[error(
        "ref {r} is stale: the {role} {name:?} it named is gone; take a new snapshot and use a current ref"
    )]
    Stale {
        /// The ref.
        r: Ref,
        /// Role of the element when last seen.
        role: String,
        /// Name of the element when last seen.
        name: String,
    },
    /// Went stale long ago; what it named is no longer remembered.
    #[error("ref {0} is stale: its element went long ago; take a new snapshot and use a current ref")]
    Forgotten(Ref),
    /// Belongs to another target.
    #[error(
        "ref {r} belongs to target {owner}, not {asked}; switch to that target or use a ref from this one"
    )]
    Foreign {
        /// The ref.
        r: Ref,
        /// The target it belongs to.
        owner: TargetId,
        /// The target it was used on.
        asked: TargetId,
    },
}

/// What one [`RefSpace::refresh`] did, for reports and tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefStats {
    /// Refs kept by native identity.
    pub kept: usize,
    /// Refs carried to a new native id by a unique structural match (scope churn).
    pub carried: usize,
    /// New refs given out.
    pub assigned: usize,
    /// Refs that became stale in this refresh.
    pub staled: usize,
    /// Refs that came back with their document (one the browser restored, such as a page of
    /// the back-forward cache), on the elements they named before it left.
    pub returned: usize,
}

/// All refs of one client session: one numbering, one table per target.
///
/// Refs are numbered from `e1` up, never reused. A ref is live while its element is in the
/// target's captures (judged on the raw tree, so a node a view leaves out stays live) and stale
/// forever once it is gone; a stale ref keeps the role and name last shown, for the error, until
/// it is old enough to be forgotten (module `slots`).
#[derive(Debug, Default)]
pub struct RefSpace {
    /// Every ref ever given, indexed by number - 1 (long-stale ones forgotten).
    slots: Slots,
    /// Per-target tables, indexed by [`Slot::target`].
    targets: Vec<TargetRefs>,
    /// Target id to index in `targets`.
    target_index: HashMap<TargetId, u32>,
    /// Refresh counter, to mark refs seen and written in the current refresh.
    generation: u64,
}

/// One ref.
#[derive(Debug)]
struct Slot {
    /// Index of the owning target.
    target: u32,
    /// The element's native id; `None` once stale.
    native: Option<NativeId>,
    /// Role last shown (or captured, if never shown).
    role: Role,
    /// Name last shown.
    name: String,
    /// How the element sat in the last raw tree that had it, for churn matching.
    structure: Option<Structure>,
    /// Last refresh whose capture had the element.
    seen: u64,
    /// Last refresh that wrote this ref into a projected tree.
    written: u64,
}

/// Structural facts about an element in the last raw capture that had it.
#[derive(Clone, Copy, Debug)]
struct Structure {
    /// Full key, if unique in that capture.
    full: Option<Key>,
    /// Local key, if unique among its siblings.
    local: Option<Key>,
    /// Ref of its raw parent, if that had one.
    parent: Option<Ref>,
    /// Ref of its nearest raw ancestor that had one (wrappers without refs skipped).
    ancestor: Option<Ref>,
    /// Content key (the whole subtree's identity), if unique among the ref-holding nodes
    /// under the same `ancestor`.
    content: Option<Key>,
    /// A link's address key (role, name, whole URL), if unique in that capture.
    address: Option<Key>,
}

/// The refs of one target.
#[derive(Debug)]
struct TargetRefs {
    id: TargetId,
    /// Live refs by native id.
    by_native: NativeIndex,
    /// Refs given to a second node with an already seen native id (a backend bug); they go
    /// stale at the next refresh.
    extra: Vec<Ref>,
    /// Native scopes in the last capture.
    scopes: HashSet<String>,
    /// Refs of documents that left the captures, in case the same document comes back.
    away: Away,
}

impl RefSpace {
    /// An empty space.
    pub fn new() -> RefSpace {
        RefSpace::default()
    }

    /// Brings the target's table up to date with a new capture and writes refs into the
    /// projected tree.
    ///
    /// `raw` is the whole capture (liveness is judged on it, so a node a view left out is not
    /// stale); `projected` is what the agent will see: every node reachable in it gets
    /// `ref_id = Some(..)`, new ones numbered in document order. Nodes of `projected` whose
    /// native id is not in `raw` (synthetic cut markers) count as part of the capture. Raw
    /// nodes that are not projected get no new ref, but keep one they have.
    ///
    /// Native ids should be unique within a capture; if the projected tree repeats one, the
    /// repeat gets a ref of its own that goes stale at the next refresh, so refs in one
    /// snapshot are always distinct.
    pub fn refresh(&mut self, target: &TargetId, raw: &Tree, projected: &mut Tree) -> RefStats {
        self.refresh_with(target, raw, projected, &[], false)
    }

    /// [`RefSpace::refresh`] for what [`crate::project::project`] made of `raw`: the same refs
    /// and stats, found faster on large trees, because the projection says which raw node each
    /// projected node stands for ([`Projection::origin`]) and a ref found on the raw tree is
    /// not looked up again. An `origin` that does not cover the tree (empty, or the tree was
    /// edited after projection) is ignored.
    ///
    /// One difference, for a backend that repeats a native id within a capture (a bug): the
    /// structure remembered for churn matching comes from the raw node the projected one was
    /// made from, not from every raw node with that id.
    pub fn refresh_projection(
        &mut self,
        target: &TargetId,
        raw: &Tree,
        projection: &mut Projection,
    ) -> RefStats {
        self.refresh_with(target, raw, &mut projection.tree, &projection.origin, false)
    }

    /// [`RefSpace::refresh_partial`] for what [`crate::project::project`] made of `raw`; see
    /// [`RefSpace::refresh_projection`].
    pub fn refresh_projection_partial(
        &mut self,
        target: &TargetId,
        raw: &Tree,
        projection: &mut Projection,
    ) -> RefStats {
        self.refresh_with(target, raw, &mut projection.tree, &projection.origin, true)
    }

    /// Reads what a refresh needs from `raw` alone: which refs its nodes hold now and, for a
    /// whole capture, its structural keys. It changes nothing, so it can run while `raw` is
    /// being projected (on large pages the two take about as long);
    /// [`RefSpace::refresh_read`] then finishes the refresh with the projection. A read is
    /// good for the next refresh of this space only: one made before another refresh is
    /// ignored (the refresh reads `raw` again).
    pub fn read_raw<'r>(&self, target: &TargetId, raw: &'r Tree, whole: bool) -> RawRead<'r> {
        let table = self.target_index.get(target).map(|&i| &self.targets[i as usize]);
        let (scopes, order, refs) = walk_raw(raw, |n| table.and_then(|t| t.by_native.get(&self.slots, n)));
        let keys = whole.then(|| Keys::of(raw, &order));
        RawRead { raw, target: target.clone(), generation: self.generation, order, refs, scopes, keys }
    }

    /// [`RefSpace::refresh_projection`] (or its partial form, for `partial`) on a read of
    /// the raw tree made by [`RefSpace::read_raw`]: the same refs and stats.
    pub fn refresh_read(
        &mut self,
        read: RawRead<'_>,
        projection: &mut Projection,
        partial: bool,
    ) -> RefStats {
        let (raw, target) = (read.raw, read.target.clone());
        let fresh = read.generation == self.generation && (partial || read.keys.is_some());
        let read = fresh.then_some(read);
        self.refresh_steps(&target, raw, &mut projection.tree, &projection.origin, partial, read, None)
    }

    /// [`RefSpace::refresh`] for a partial capture: refs of elements it does not contain are
    /// left alone instead of going stale, and no ref is carried across a scope change, because
    /// a partial capture does not show that anything is gone. Nor does it show a structural key
    /// unique (what it missed may hold a look-alike), so churn matching keeps comparing what the
    /// last whole capture recorded.
    pub fn refresh_partial(&mut self, target: &TargetId, raw: &Tree, projected: &mut Tree) -> RefStats {
        self.refresh_with(target, raw, projected, &[], true)
    }

    /// `origin`: for each projected node, the raw node with its native id (see
    /// [`Projection::origin`]), or empty.
    fn refresh_with(
        &mut self,
        target: &TargetId,
        raw: &Tree,
        projected: &mut Tree,
        origin: &[Option<NodeId>],
        partial: bool,
    ) -> RefStats {
        // The structural keys read only the raw tree, and the steps before them take about
        // as long on a large capture: computed beside them, they cost no wall time where a
        // second core is free. Only a whole capture reads them.
        if partial || raw.arena_len() < KEYS_ASIDE_NODES {
            return self.refresh_steps(target, raw, projected, origin, partial, None, None);
        }
        std::thread::scope(|scope| {
            let keys = scope.spawn(|| {
                let order: Vec<NodeId> = raw.preorder().map(|(id, _)| id).collect();
                Keys::of(raw, &order)
            });
            self.refresh_steps(target, raw, projected, origin, partial, None, Some(keys))
        })
    }

    /// The steps of a refresh (see [`RefSpace::refresh_with`]). `read`: what
    /// [`RefSpace::read_raw`] read of `raw` for this refresh; `keys_aside`: the structural
    /// keys of `raw`, being computed on another thread.
    #[allow(clippy::too_many_arguments)]
    fn refresh_steps(
        &mut self,
        target: &TargetId,
        raw: &Tree,
        projected: &mut Tree,
        origin: &[Option<NodeId>],
        partial: bool,
        read: Option<RawRead<'_>>,
        keys_aside: Option<std::thread::ScopedJoinHandle<'_, Keys>>,
    ) -> RefStats {
        let origin = if origin.len() == projected.arena_len() { origin } else { &[] };
        self.generation += 1;
        let generation = self.generation;
        let ti = self.target_slot(target);
        let RefSpace { slots, targets, .. } = self;
        let t = &mut targets[ti as usize];
        let mut stats = RefStats::default();

        // Duplicates handed out last time go stale now.
        for r in std::mem::take(&mut t.extra) {
            slots.make_stale(slot_index(r));
            stats.staled += 1;
        }

        // 1. Keep refs by native identity (one walk of each tree, which also notes the
        // pre-order and the scopes present; the raw walk may have been made by `read_raw`).
        let (mut scopes_now, raw_order, mut raw_refs, read_keys) = match read {
            Some(read) => (read.scopes, read.order, read.refs, read.keys),
            None => {
                let (scopes_now, raw_order, raw_refs) = walk_raw(raw, |n| t.by_native.get(slots, n));
                (scopes_now, raw_order, raw_refs, None)
            }
        };
        for r in raw_refs.iter().flatten() {
            let slot = &mut slots[slot_index(*r)];
            if slot.seen != generation {
                slot.seen = generation;
                stats.kept += 1;
            }
        }
        // Refs 1b brings back (their names are from before the document left).
        let mut came_back: HashSet<Ref> = HashSet::new();
        // 1b. A document that left and is back (the same one: its scope and native ids) brings
        // its refs back to the elements they named (module `away`).
        if !t.away.is_empty() {
            let back: HashSet<&str> =
                scopes_now.set.iter().copied().filter(|s| !t.scopes.contains(*s)).collect();
            let back = if back.is_empty() { HashMap::new() } else { t.away.take_back(&back) };
            if !back.is_empty() {
                for &id in &raw_order {
                    let native = &raw.node(id).native;
                    let Some(&r) = back.get(native).filter(|_| raw_refs[id.index()].is_none()) else {
                        continue;
                    };
                    // A forgotten slot, or one live elsewhere (never: a stale ref is only away
                    // once), stays as it is.
                    let i = slot_index(r);
                    if slots.get(i).is_none_or(|s| s.native.is_some()) || !t.by_native.insert(native, r) {
                        continue;
                    }
                    slots.repoint(i, native.clone());
                    slots[i].seen = generation;
                    raw_refs[id.index()] = Some(r);
                    came_back.insert(r);
                    stats.returned += 1;
                }
            }
        }
        // Projected nodes are raw nodes or synthetic markers (whose native ids are not in raw).
        // The raw node a projected one was made from, when known, was looked up just above.
        let raw_len = raw_refs.len();
        let from_raw = |id: NodeId| origin.get(id.index()).copied().flatten().filter(|o| o.index() < raw_len);
        let mut proj_order: Vec<NodeId> = Vec::with_capacity(projected.arena_len());
        let mut proj_refs: Vec<Option<Ref>> = Vec::with_capacity(projected.arena_len());
        for (id, _) in projected.preorder() {
            proj_order.push(id);
            let native = &projected.node(id).native;
            scopes_now.add(&native.scope);
            let found = match from_raw(id) {
                Some(o) => {
                    debug_assert!(raw.node(o).native == *native, "projection origin names another node");
                    raw_refs[o.index()]
                }
                None => t.by_native.get(slots, native),
            };
            proj_refs.push(found);
            if let Some(r) = found {
                let slot = &mut slots[slot_index(r)];
                if slot.seen != generation {
                    slot.seen = generation;
                    stats.kept += 1;
                }
            }
        }
        let scopes_now = scopes_now.set;

        // 1c. A collection item that now shows another item (a virtualized list's recycled
        // row) is a new item: its ref goes stale, and step 4 gives it a new one (module
        // `recycled`).
        for k in find_recycled(projected, &proj_order, &proj_refs, slots, &came_back) {
            let Some(r) = proj_refs[k].take() else { continue };
            if let Some(native) = slots.make_stale(slot_index(r)) {
                t.by_native.remove(&native);
            }
            match from_raw(proj_order[k]) {
                Some(o) => raw_refs[o.index()] = None,
                None => raw_refs.iter_mut().filter(|x| **x == Some(r)).for_each(|x| *x = None),
            }
            stats.kept = stats.kept.saturating_sub(1);
            stats.staled += 1;
        }

        // 2. Refs not seen: gone if their scope lives on, churn candidates if it vanished.
        let mut gone: Vec<Ref> = Vec::new();
        let mut churned: Vec<Ref> = Vec::new();
        for r in t.by_native.refs() {
            let slot = &slots[slot_index(r)];
            if slot.seen != generation && !partial {
                let scope = slot.native.as_ref().map_or("", |n| n.scope.as_str());
                if scopes_now.contains(scope) {
                    gone.push(r);
                } else {
                    churned.push(r);
                }
            }
        }

        let next_scopes: Option<HashSet<String>> = if partial {
            // What a partial capture missed may still be there: add to the scopes, drop none.
            scopes_now.iter().any(|s| !t.scopes.contains(*s)).then(|| {
                let mut all = t.scopes.clone();
                all.extend(scopes_now.into_iter().map(str::to_owned));
                all
            })
        } else {
            (t.scopes.len() != scopes_now.len() || scopes_now.iter().any(|s| !t.scopes.contains(*s)))
                .then(|| scopes_now.into_iter().map(str::to_owned).collect())
        };

        // Native ids of the carried refs, new -> old, for step 3c.
        let mut moved: HashMap<NativeId, NativeId> = HashMap::new();
        // 3. Carry churned refs on unique structural matches.
        // Keys are only read from a whole capture (a partial one carries nothing and records no
        // structure: see step 5).
        let keys = match read_keys {
            Some(keys) if !partial => Some(keys),
            _ => (!partial).then(|| match keys_aside.map(|k| k.join()) {
                Some(Ok(keys)) => keys,
                // Computed here when not aside (or, should that thread have died, again).
                _ => Keys::of(raw, &raw_order),
            }),
        };
        if let Some(keys) = keys.as_ref().filter(|_| !churned.is_empty()) {
            churned.sort_unstable();
            let olds: Vec<Churned> = churned
                .iter()
                .map(|&r| {
                    let s = slots[slot_index(r)].structure;
                    let slot = &slots[slot_index(r)];
                    Churned {
                        r,
                        full: s.and_then(|s| s.full),
                        local: s.and_then(|s| s.local),
                        parent: s.and_then(|s| s.parent),
                        ancestor: s.and_then(|s| s.ancestor),
                        address: s.and_then(|s| s.address),
                        role: slot.role.clone(),
                        name: slot.name.clone(),
                    }
                })
                .collect();
            let old_scopes = &t.scopes;
            let candidate = |id: NodeId| {
                raw_refs[id.index()].is_none() && !old_scopes.contains(&raw.node(id).native.scope)
            };
            let pairs = matching::carry(
                &olds,
                &NewSide { raw, keys, refs: &raw_refs, candidate: &candidate, by_address: true },
            );
            for (r, id) in pairs {
                let native = raw.node(id).native.clone();
                if !t.by_native.insert(&native, r) {
                    continue; // a key collision (never seen in practice): let it go stale
                }
                slots[slot_index(r)].seen = generation;
                if let Some(old) = slots.repoint(slot_index(r), native.clone()) {
                    t.by_native.remove(&old);
                    moved.insert(native, old);
                }
                raw_refs[id.index()] = Some(r);
                stats.carried += 1;
            }
        }
        // Refs of a scope that left and were not carried: stale, and remembered in case the
        // same document comes back.
        let left: Vec<Ref> =
            churned.into_iter().filter(|r| slots[slot_index(*r)].seen != generation).collect();
        // 3b and 3b' take turns: a part drawn again opens its anchors to equal re-creations
        // inside it (look-alike cells told apart by what they hold), and those to its keys.
        for _ in 0..REBUILT_ROUNDS {
            let carried_before = stats.carried;
            // 3b. Carry refs of elements re-created equal in a living scope (module `recreated`).
            if let Some(keys) = keys.as_ref().filter(|_| !gone.is_empty()) {
                let olds: Vec<recreated::Gone> = gone
                    .iter()
                    .filter_map(|&r| {
                        let s = slots[slot_index(r)].structure?;
                        Some(recreated::Gone { r, content: s.content?, anchor: s.ancestor? })
                    })
                    .collect();
                if !olds.is_empty() {
                    // A raw node is a member when it holds a ref or is shown. A shown node whose
                    // native id held a ref in step 1 holds it in `raw_refs` too (the same lookup),
                    // so only the shown nodes step 1 found no ref for need remembering: in a
                    // steady page, the few new ones.
                    // Those the projection tells the raw node of are marked on it; the others are
                    // found by native id.
                    let mut shown_at: Vec<bool> = Vec::new();
                    let mut shown: HashSet<&NativeId, FastState> = HashSet::default();
                    for (&id, _) in proj_order.iter().zip(&proj_refs).filter(|(_, r)| r.is_none()) {
                        match from_raw(id) {
                            Some(o) => {
                                shown_at.resize(raw_len, false);
                                shown_at[o.index()] = true;
                            }
                            None => {
                                shown.insert(&projected.node(id).native);
                            }
                        }
                    }
                    let old_scopes = &t.scopes;
                    let member = |id: NodeId| {
                        raw_refs[id.index()].is_some()
                            || shown_at.get(id.index()).copied().unwrap_or(false)
                            || (!shown.is_empty() && shown.contains(&raw.node(id).native))
                    };
                    let candidate = |id: NodeId| {
                        raw_refs[id.index()].is_none() && old_scopes.contains(&raw.node(id).native.scope)
                    };
                    let now = recreated::Now {
                        raw,
                        order: &raw_order,
                        keys,
                        refs: &raw_refs,
                        member: &member,
                        candidate: &candidate,
                    };
                    let pairs = recreated::carry(&olds, &now);
                    drop(shown);
                    for (r, id) in pairs {
                        let native = raw.node(id).native.clone();
                        if !t.by_native.insert(&native, r) {
                            continue;
                        }
                        slots[slot_index(r)].seen = generation;
                        if let Some(old) = slots.repoint(slot_index(r), native) {
                            t.by_native.remove(&old);
                        }
                        raw_refs[id.index()] = Some(r);
                        stats.carried += 1;
                    }
                    gone.retain(|r| slots[slot_index(*r)].seen != generation);
                }
            }
            // 3b'. Carry refs into a part of a living document the app drew again with new native
            // ids and a few changes (module `rebuilt`): what 3b could not, its content not equal.
            if let Some(keys) = keys.as_ref().filter(|_| !gone.is_empty()) {
                let old_scopes = &t.scopes;
                let candidate = |id: NodeId| {
                    raw_refs[id.index()].is_none() && old_scopes.contains(&raw.node(id).native.scope)
                };
                let new = NewSide { raw, keys, refs: &raw_refs, candidate: &candidate, by_address: false };
                let pairs = rebuilt::carry(&rebuilt::olds(slots, &gone), &new);
                for (r, id) in pairs {
                    let native = raw.node(id).native.clone();
                    if !t.by_native.insert(&native, r) {
                        continue;
                    }
                    slots[slot_index(r)].seen = generation;
                    if let Some(old) = slots.repoint(slot_index(r), native.clone()) {
                        t.by_native.remove(&old);
                        moved.insert(native, old);
                    }
                    raw_refs[id.index()] = Some(r);
                    stats.carried += 1;
                }
                gone.retain(|r| slots[slot_index(*r)].seen != generation);
            }
            if stats.carried == carried_before || gone.is_empty() {
                break;
            }
        }
        // 3c. A made-up node named after its first child follows that child's carry (module
        // `derived`): its old id lives in a scope that never leaves, so it would go stale.
        for (k, old) in derived::followers(projected, &proj_order, &proj_refs, &moved) {
            let Some(r) = t.by_native.get(slots, &old) else { continue };
            let Some(at) = gone.iter().position(|g| *g == r) else { continue };
            let native = projected.node(proj_order[k]).native.clone();
            if !t.by_native.insert(&native, r) {
                continue;
            }
            gone.swap_remove(at);
            slots[slot_index(r)].seen = generation;
            slots.repoint(slot_index(r), native);
            t.by_native.remove(&old);
            proj_refs[k] = Some(r);
            stats.carried += 1;
        }
        for r in gone {
            if let Some(native) = slots.make_stale(slot_index(r)) {
                t.by_native.remove(&native);
            }
            stats.staled += 1;
        }
        if !left.is_empty() {
            let mut away = Vec::with_capacity(left.len());
            for r in left {
                if let Some(native) = slots.make_stale(slot_index(r)) {
                    t.by_native.remove(&native);
                    away.push((r, native));
                }
                stats.staled += 1;
            }
            t.away.record(away);
        }

        // 4. Write refs into the projected tree, giving new ones in document order: first to
        // the nodes the text form shows a ref on, then to the rest (which only diffs and the
        // JSON form name), so the refs an agent reads stay short (`e285`, not `e1285`).
        let shown: Vec<bool> = proj_order
            .iter()
            .map(|&id| {
                let n = projected.node(id);
                let holds_more = n.children.iter().any(|c| projected.node(*c).role == Role::More);
                crate::render::ref_worthy(n, holds_more)
            })
            .collect();
        for pass in [true, false] {
            for ((&id, &known), &shows) in proj_order.iter().zip(&proj_refs).zip(&shown) {
                if shows != pass {
                    continue;
                }
                let node = projected.node_mut(id);
                // A ref found in step 1 was seen, so it is still live; look up only the others.
                let found = known.or_else(|| t.by_native.get(slots, &node.native));
                let r = match found {
                    Some(r) if slots[slot_index(r)].written != generation => r,
                    found => {
                        let r = Ref(slots.len() as u32 + 1);
                        slots.push(Slot {
                            target: ti,
                            native: Some(node.native.clone()),
                            role: node.role.clone(),
                            name: node.name.clone(),
                            structure: None,
                            seen: generation,
                            written: generation,
                        });
                        if found.is_some() || !t.by_native.insert(&node.native, r) {
                            t.extra.push(r);
                        } else if let Some(o) = from_raw(id) {
                            // The raw node now holds it too (for step 5).
                            raw_refs[o.index()] = Some(r);
                        }
                        stats.assigned += 1;
                        r
                    }
                };
                let slot = &mut slots[slot_index(r)];
                slot.written = generation;
                if slot.role != node.role {
                    slot.role = node.role.clone();
                }
                if slot.name != node.name {
                    slot.name.clone_from(&node.name);
                }
                node.ref_id = Some(r);
            }
        }

        // 5. Remember where every element with a ref sits in the raw tree, for churn matching
        // later. Only a whole capture shows that a key is unique: a partial one may have missed
        // the look-alikes, so the structure of its last whole capture stays.
        if let Some(keys) = &keys {
            // Without origins, a raw node whose ref was given in step 4 is found by its id.
            let look_up_new = stats.assigned > 0 && origin.is_empty();
            remember_structure(slots, &t.by_native, raw, &raw_order, &mut raw_refs, keys, look_up_new);
        }

        if let Some(scopes) = next_scopes {
            t.scopes = scopes;
        }
        if stats.staled > 0 {
            slots.forget_old();
        }
        stats
    }

    /// The native id a ref names on `target`, or why it cannot be used.
    pub fn resolve(&self, target: &TargetId, r: Ref) -> Result<&NativeId, RefError> {
        let i =
            r.0.checked_sub(1)
                .map(|i| i as usize)
                .filter(|&i| i < self.slots.len())
                .ok_or(RefError::Unknown(r))?;
        // Only chunks of stale refs are ever dropped.
        let slot = self.slots.get(i).ok_or(RefError::Forgotten(r))?;
        let owner = &self.targets[slot.target as usize].id;
        if owner != target {
            return Err(RefError::Foreign { r, owner: owner.clone(), asked: target.clone() });
        }
        slot.native.as_ref().ok_or_else(|| RefError::Stale {
            r,
            role: slot.role.as_str().to_string(),
            name: slot.name.clone(),
        })
    }

    /// Forgets a target (its tab closed): its refs become stale.
    pub fn forget_target(&mut self, target: &TargetId) {
        let Some(&ti) = self.target_index.get(target) else { return };
        let t = &mut self.targets[ti as usize];
        for r in t.by_native.0.drain().map(|(_, r)| r).chain(t.extra.drain(..)) {
            self.slots.make_stale(slot_index(r));
        }
        t.scopes.clear();
        t.away.clear();
    }

    /// Number of refs given out so far (live and stale, all targets).
    pub fn issued(&self) -> usize {
        self.slots.len()
    }

    /// Number of refs whose details are still held in memory: the live ones, and the stale
    /// ones that are recent or share a chunk of 1,024 numbers with a live one. Older stale
    /// refs are forgotten ([`RefError::Forgotten`]), so a long session's table stays bounded.
    pub fn retained(&self) -> usize {
        self.slots.retained()
    }

    /// The index of `target`'s table, made on first use.
    fn target_slot(&mut self, target: &TargetId) -> u32 {
        if let Some(&i) = self.target_index.get(target) {
            return i;
        }
        let i = self.targets.len() as u32;
        self.targets.push(TargetRefs {
            id: target.clone(),
            by_native: NativeIndex::default(),
            extra: Vec::new(),
            scopes: HashSet::new(),
            away: Away::default(),
        });
        self.target_index.insert(target.clone(), i);
        i
    }
}

/// The projected nodes (indices into `order`) that are collection items showing another item
/// than their ref named (module `recycled`). `refs`: each node's ref found so far; `came_back`:
/// refs of a returning document, whose last names are from before it left.
fn find_recycled(
    projected: &Tree,
    order: &[NodeId],
    refs: &[Option<Ref>],
    slots: &Slots,
    came_back: &HashSet<Ref>,
) -> Vec<usize> {
    let was = |k: usize| -> Option<&str> {
        let r = refs[k].filter(|r| !came_back.contains(r))?;
        let slot = &slots[slot_index(r)];
        (slot.role == projected.node(order[k]).role).then_some(slot.name.as_str())
    };
    // Parents of a renamed collection item: in a steady page, none, and nothing more is done.
    let mut parents: Vec<NodeId> = order
        .iter()
        .enumerate()
        .filter(|&(k, &id)| {
            let n = projected.node(id);
            recycled::is_collection_item(&n.role) && was(k).is_some_and(|w| w != n.name)
        })
        .filter_map(|(_, &id)| projected.node(id).parent)
        .collect();
    if parents.is_empty() {
        return Vec::new();
    }
    parents.sort_unstable_by_key(|p| p.index());
    parents.dedup();
    let mut at = vec![usize::MAX; projected.arena_len()];
    for (k, id) in order.iter().enumerate() {
        at[id.index()] = k;
    }
    let mut out = Vec::new();
    for p in parents {
        let kids: Vec<usize> =
            projected.node(p).children.iter().map(|c| at[c.index()]).filter(|&k| k != usize::MAX).collect();
        let items: Vec<recycled::Item<'_>> = kids
            .iter()
            .map(|&k| {
                let n = projected.node(order[k]);
                recycled::Item { role: &n.role, was: was(k), now: &n.name }
            })
            .collect();
        out.extend(recycled::replaced(&items).into_iter().map(|i| kids[i]));
    }
    out
}

/// Records, for every raw node with a ref, how it sits in `raw` (its keys where they are unique,
/// its parent's and nearest ancestor's refs): what churn matching compares when its scope goes.
/// `look_up_new`: refs were given out in this refresh, so nodes without one in `raw_refs` may
/// have one now.
fn remember_structure(
    slots: &mut Slots,
    by_native: &NativeIndex,
    raw: &Tree,
    raw_order: &[NodeId],
    raw_refs: &mut [Option<Ref>],
    keys: &Keys,
    look_up_new: bool,
) {
    // The nearest ancestor with a ref, per raw node (pre-order: parents come first), and each
    // ref-holding node with its parent's ref and its (nearest ancestor, content) key.
    let mut nearest: Vec<Option<Ref>> = vec![None; raw.arena_len()];
    let mut holders: Vec<(NodeId, Ref, Option<Ref>)> = Vec::new();
    let mut kin: Vec<Key> = Vec::new();
    for &id in raw_order {
        let node = raw.node(id);
        nearest[id.index()] = node.parent.and_then(|p| raw_refs[p.index()].or(nearest[p.index()]));
        let r = match raw_refs[id.index()] {
            Some(r) => r,
            None if look_up_new => match by_native.get(slots, &node.native) {
                Some(r) => {
                    raw_refs[id.index()] = Some(r);
                    r
                }
                None => continue,
            },
            None => continue,
        };
        holders.push((id, r, node.parent.and_then(|p| raw_refs[p.index()])));
        kin.push(kin_key(nearest[id.index()], keys.content[id.index()]));
    }
    let unique_kin = keys::unique_keys(kin.len(), 0..kin.len(), |i| kin[i]);
    let addresses = address::unique(raw, raw_order.iter().copied());
    // A repeated native id (a backend bug) puts one ref on several nodes: the first holds it.
    let mut recorded = vec![false; slots.len()];
    for (i, &(id, r, parent)) in holders.iter().enumerate() {
        if std::mem::replace(&mut recorded[slot_index(r)], true) {
            continue;
        }
        let slot = &mut slots[slot_index(r)];
        debug_assert!(slot.native.as_ref() == Some(&raw.node(id).native), "a ref on a node it does not name");
        let content = keys.content[id.index()];
        slot.structure = Some(Structure {
            full: keys.full_unique(id).then(|| keys.full[id.index()]),
            local: keys.sibling_unique[id.index()].then(|| keys.sibling[id.index()]),
            parent,
            ancestor: nearest[id.index()],
            content: unique_kin[i].then_some(content),
            address: address::key(raw.node(id)).filter(|k| matches!(addresses.get(k), Some(Some(_)))),
        });
    }
}

/// One key for a content key under an anchor (the nearest ancestor's ref).
fn kin_key(anchor: Option<Ref>, content: Key) -> Key {
    let mut h = Fast128::default();
    h.write_u128(content);
    h.write_u32(anchor.map_or(0, |r| r.0));
    h.finish128()
}

/// One walk of a raw capture: the scopes present, the pre-order, and the ref `lookup` finds
/// for each node's native id (by arena index).
fn walk_raw<'r>(
    raw: &'r Tree,
    lookup: impl Fn(&NativeId) -> Option<Ref>,
) -> (Scopes<'r>, Vec<NodeId>, Vec<Option<Ref>>) {
    let mut scopes = Scopes::default();
    let mut order: Vec<NodeId> = Vec::with_capacity(raw.arena_len());
    let mut refs: Vec<Option<Ref>> = vec![None; raw.arena_len()];
    for (id, _) in raw.preorder() {
        order.push(id);
        let native = &raw.node(id).native;
        scopes.add(&native.scope);
        refs[id.index()] = lookup(native);
    }
    (scopes, order, refs)
}

/// From this many raw nodes on, a whole capture's structural keys are computed on a thread of
/// their own, beside the first steps of the refresh (below it, a thread costs more than it
/// saves).
const KEYS_ASIDE_NODES: usize = 20_000;

/// Rounds of steps 3b and 3b' (each round's carries open the next round's anchors).
const REBUILT_ROUNDS: usize = 4;

/// The index in `RefSpace::slots` of a ref this space gave out.
fn slot_index(r: Ref) -> usize {
    r.0 as usize - 1
}

/// Live refs by native id. Keyed by a 64-bit hash of the native id, which keeps the table
/// small (16-byte entries: a 100,000-ref table stays in cache far better than one of 128-bit
/// keys) and its probes free of string compares; every hit is checked against the ref's own
/// native id, so a key collision reads as "absent" (a new ref) and can never name a wrong
/// element.
#[derive(Debug, Default)]
struct NativeIndex(HashMap<u64, Ref, BuildHasherDefault<KeyHasher>>);

impl NativeIndex {
    fn key(native: &NativeId) -> u64 {
        let mut h = Fast128::default();
        native.scope.hash(&mut h);
        native.id.hash(&mut h);
        h.finish()
    }

    /// The live ref of `native`.
    fn get(&self, slots: &Slots, native: &NativeId) -> Option<Ref> {
        let r = *self.0.get(&NativeIndex::key(native))?;
        (slots[slot_index(r)].native.as_ref() == Some(native)).then_some(r)
    }

    /// Records `native -> r`; `false` when the key is taken (a duplicate or a collision).
    fn insert(&mut self, native: &NativeId, r: Ref) -> bool {
        match self.0.entry(NativeIndex::key(native)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(r);
                true
            }
            std::collections::hash_map::Entry::Occupied(_) => false,
        }
    }

    /// Forgets a native id recorded with [`NativeIndex::insert`].
    fn remove(&mut self, native: &NativeId) {
        self.0.remove(&NativeIndex::key(native));
    }

    /// The live refs, in no particular order.
    fn refs(&self) -> impl Iterator<Item = Ref> + '_ {
        self.0.values().copied()
    }
}

/// What [`RefSpace::read_raw`] read of a raw capture, for [`RefSpace::refresh_read`].
pub struct RawRead<'r> {
    raw: &'r Tree,
    target: TargetId,
    /// The space's refresh counter when read: the read is good for the next refresh only.
    generation: u64,
    order: Vec<NodeId>,
    refs: Vec<Option<Ref>>,
    scopes: Scopes<'r>,
    keys: Option<Keys>,
}

impl fmt::Debug for RawRead<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawRead").field("target", &self.target).field("nodes", &self.order.len()).finish()
    }
}

/// The native scopes present in a capture, collected node by node.
#[derive(Default)]
struct Scopes<'t> {
    set: HashSet<&'t str>,
    last: Option<&'t str>,
}

impl<'t> Scopes<'t> {
    fn add(&mut self, scope: &'t str) {
        // Neighbours nearly always share a scope: skip the set for them.
        if self.last != Some(scope) {
            self.set.insert(scope);
            self.last = Some(scope);
        }
    }
}

#[cfg(test)]
mod tests;
