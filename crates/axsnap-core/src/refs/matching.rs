//! Carrying refs across a native scope churn by unique structural matches.
//!
//! Only refs whose whole native scope vanished reach this module, and only new nodes in scopes
//! the previous capture did not have are candidates. A ref is carried when one of two unique
//! matches holds; otherwise it goes stale:
//!
//! 1. **Whole-tree key.** The old node's full key (own fields plus the ancestors' role/name
//!    chain) was unique among all nodes of the previous raw tree, the candidate's is unique among
//!    all nodes of the new raw tree, and they are equal.
//!    **Whole address.** A link whose role, name and whole URL (query included) were unique in
//!    the previous raw tree, to the one new node that has them (module `address`); across a
//!    vanished document only (`NewSide::by_address`).
//! 2. **Inside a matched parent.** The old node's raw parent had a ref that is now known to
//!    name a node of the new tree (kept or carried), the old node's sibling key (own fields
//!    plus its children's) was unique among its old siblings, the candidate is a child of that
//!    parent and its sibling key is unique among its new siblings, and they are equal. A parent
//!    that held no ref (an ignored wrapper) is looked through: the nearest ancestor that held
//!    one is the parent, its children are counted through such wrappers on the new side, and
//!    a key two old children under different wrappers share matches neither. Carried children become matched parents in
//!    turn, top-down.
//!
//! 3. **By matched descendants.** A container a site rebuilds on every page (mdBook's sidebar:
//!    unnamed nested lists, unique by neither key) is matched to the new node whose matched
//!    descendants are its own: same role and name, a strict majority on both sides (of the old
//!    node's descendants that were carried, and of the new node's) is the same set, and the
//!    pair is the best of both its nodes, with no other pair as good for either (by the share
//!    of both sides' matched descendants held in common). Two nested look-alikes around the
//!    same contents (a wrapper and its inner twin) tie, and neither is carried: their contents
//!    cannot tell them apart, and nesting order is position. A nested list with fewer
//!    contents than the list around it is told apart by its share.
//!
//! Passes 2 and 3 take turns (a few rounds at most): the children of a container pass 3
//! matched are matched by pass 2 in the next round.
//!
//! Uniqueness on both sides (1, 2), or a majority of both sides' contents that no other pair
//! matches as well (3), is what makes a carry safe: among look-alikes nothing is carried, and
//! position is never used. The keys compared were recorded from a whole capture: a partial one
//! may have missed a look-alike, so it proves nothing unique (`RefSpace::refresh_partial`).

use std::collections::HashMap;

use super::address;
use super::keys::{Key, KeyMap, Keys};
use super::Ref;
use crate::role::Role;
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
    /// The ref of the nearest raw ancestor that had one.
    pub ancestor: Option<Ref>,
    /// A link's address key (module `address`), when it was unique in the previous raw tree.
    pub address: Option<Key>,
    /// Its role when it was last shown.
    pub role: Role,
    /// Its name when it was last shown.
    pub name: String,
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
    /// Whether links may be matched by their whole address (pass 1b): across a vanished
    /// document only (see module `rebuilt` for why not inside a living one).
    pub by_address: bool,
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

    // Pass 1b: links by their whole address (module `address`), unique on both sides.
    if new.by_address && churned.iter().any(|c| c.address.is_some()) {
        let now = address::unique(new.raw, new.raw.preorder().map(|(id, _)| id));
        for (i, c) in churned.iter().enumerate() {
            let Some(Some(id)) = c.address.and_then(|k| now.get(&k).copied()) else { continue };
            if !matched[i] && !taken[id.index()] && (new.candidate)(id) {
                matched[i] = true;
                taken[id.index()] = true;
                pairs.push((c.r, id));
            }
        }
    }

    // Pass 2: children unique among siblings inside parents known on both sides.
    let mut children_of: HashMap<Ref, Vec<usize>> = HashMap::new();
    for (i, c) in churned.iter().enumerate() {
        // Under a wrapper that held no ref (an ignored node), the nearest ancestor that did.
        if let (false, Some(_), Some(p)) = (matched[i], c.local, c.parent.or(c.ancestor)) {
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
    // A container matched by its contents (pass 3) is a matched parent in turn: its children
    // are looked for again (a table's rows under an ignored wrapper with no ref are matched
    // by their cells' links, then the cells inside them). Each round needs a new match.
    for _ in 0..MATCH_ROUNDS {
        pass_siblings(churned, new, &mut children_of, queue, &mut matched, &mut taken, &mut pairs);
        let before = pairs.len();
        by_descendants(churned, new, &mut matched, &mut taken, &mut pairs);
        queue = pairs[before..].iter().filter(|(r, _)| children_of.contains_key(r)).copied().collect();
        if queue.is_empty() {
            break;
        }
    }
    pairs
}

/// Rounds of passes 2 and 3 (each round's containers open the next round's children).
const MATCH_ROUNDS: usize = 4;

/// Pass 2's walk: children unique among siblings under parents matched on both sides.
fn pass_siblings(
    churned: &[Churned],
    new: &NewSide<'_>,
    children_of: &mut HashMap<Ref, Vec<usize>>,
    mut queue: Vec<(Ref, NodeId)>,
    matched: &mut [bool],
    taken: &mut [bool],
    pairs: &mut Vec<(Ref, NodeId)>,
) {
    let mut kids: Vec<NodeId> = Vec::new();
    while let Some((parent_ref, parent)) = queue.pop() {
        let Some(olds) = children_of.remove(&parent_ref) else { continue };
        // The parent's own children first, each unique among its siblings on both sides; then
        // those that were under wrappers with no ref, among the children through wrappers,
        // where a key two of them share (under different wrappers) matches neither.
        for through in [false, true] {
            let mut old_by_local: KeyMap<Option<usize>> = KeyMap::default();
            for &i in olds.iter().filter(|&&i| churned[i].parent.is_none() == through) {
                if let Some(k) = churned[i].local {
                    old_by_local.entry(k).and_modify(|e| *e = None).or_insert(Some(i));
                }
            }
            if old_by_local.is_empty() {
                continue;
            }
            kids.clear();
            match through {
                false => kids.extend_from_slice(&new.raw.node(parent).children),
                true => children_through_wrappers(new, parent, &mut kids),
            }
            let mut count: KeyMap<u32> = KeyMap::default();
            if through {
                for &kid in &kids {
                    *count.entry(new.keys.sibling[kid.index()]).or_default() += 1;
                }
            }
            for &kid in &kids {
                let key = new.keys.sibling[kid.index()];
                let Some(&Some(i)) = old_by_local.get(&key) else { continue };
                let unique = match through {
                    false => new.keys.sibling_unique[kid.index()],
                    true => count[&key] == 1,
                };
                if matched[i] || taken[kid.index()] || !unique || !(new.candidate)(kid) {
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
    }
}

/// How deep pass 2 looks through wrappers for a parent's children.
const WRAPPER_DEPTH: usize = 4;

/// The children of `parent` as the old side's refs saw them: its raw children, with those the
/// projection never shows (ignored nodes and `none`, which held no ref, so the old side
/// counted their children as the parent's) replaced by their own children, a few levels deep.
fn children_through_wrappers(new: &NewSide<'_>, parent: NodeId, out: &mut Vec<NodeId>) {
    out.clear();
    let mut stack: Vec<(NodeId, usize)> =
        new.raw.node(parent).children.iter().rev().map(|&k| (k, 0)).collect();
    while let Some((id, depth)) = stack.pop() {
        let n = new.raw.node(id);
        let wrapper = (n.flags.ignored || n.role == Role::None) && new.refs[id.index()].is_none();
        if wrapper && depth < WRAPPER_DEPTH {
            stack.extend(n.children.iter().rev().map(|&k| (k, depth + 1)));
        } else {
            out.push(id);
        }
    }
}

/// How far up a matched node's ancestors are searched for containers (raw trees have
/// wrappers without refs on the new side; the old side counts only nodes with refs).
const OLD_LEVELS: usize = 8;
const NEW_LEVELS: usize = 24;

/// Pass 3: containers matched by their matched descendants (see the module doc).
fn by_descendants(
    churned: &[Churned],
    new: &NewSide<'_>,
    matched: &mut [bool],
    taken: &mut [bool],
    pairs: &mut Vec<(Ref, NodeId)>,
) {
    let index: HashMap<Ref, usize> = churned.iter().enumerate().map(|(i, c)| (c.r, i)).collect();
    // Matched old refs with their new nodes: the carried ones (all of a vanished scope's refs
    // are churned, so these are what the old containers held).
    let carried: Vec<(usize, NodeId)> =
        pairs.iter().filter_map(|&(r, id)| index.get(&r).map(|&i| (i, id))).collect();
    if carried.is_empty() {
        return;
    }
    // For each carried node: its unmatched old containers (up the `ancestor` chain) and its
    // new candidate ancestors; a vote for every pair of the same role and name.
    let mut old_count: HashMap<usize, u32> = HashMap::new();
    let mut new_count: HashMap<NodeId, u32> = HashMap::new();
    let mut votes: HashMap<(usize, NodeId), u32> = HashMap::new();
    for &(i, id) in &carried {
        let mut olds = Vec::new();
        let mut up = churned[i].ancestor;
        while let Some(a) = up {
            let Some(&j) = index.get(&a) else { break };
            if !matched[j] {
                olds.push(j);
            }
            if olds.len() >= OLD_LEVELS {
                break;
            }
            up = churned[j].ancestor;
        }
        let mut news = Vec::new();
        let mut p = new.raw.node(id).parent;
        while let Some(n) = p {
            if news.len() >= NEW_LEVELS {
                break;
            }
            if !taken[n.index()] && (new.candidate)(n) {
                news.push(n);
            }
            p = new.raw.node(n).parent;
        }
        for &j in &olds {
            *old_count.entry(j).or_default() += 1;
        }
        for &n in &news {
            *new_count.entry(n).or_default() += 1;
        }
        for &j in &olds {
            for &n in &news {
                let node = new.raw.node(n);
                if node.role == churned[j].role && node.name == churned[j].name {
                    *votes.entry((j, n)).or_default() += 1;
                }
            }
        }
    }
    // A pair qualifies on strict majorities of both sides. Among qualifying pairs, it is
    // carried only when it is the best for both its old and its new node, and no other pair
    // is as good for either (by the share of both sides' matched contents it holds in
    // common). Two qualifying new nodes for one old container are nested (their matched
    // contents overlap), so a tie is a wrapper and its look-alike around the same contents:
    // nothing tells them apart, and nothing is carried.
    let qualifying: Vec<((usize, NodeId), Share)> = votes
        .into_iter()
        .filter(|&((j, n), v)| 2 * v > old_count[&j] && 2 * v > new_count[&n])
        .map(|((j, n), v)| ((j, n), Share { common: v, union: old_count[&j] + new_count[&n] - v }))
        .collect();
    let mut best_old: HashMap<usize, Best> = HashMap::new();
    let mut best_new: HashMap<NodeId, Best> = HashMap::new();
    for &((j, n), share) in &qualifying {
        best_old.entry(j).or_insert(Best { share, count: 0 }).offer(share);
        best_new.entry(n).or_insert(Best { share, count: 0 }).offer(share);
    }
    let mut accepted: Vec<(usize, NodeId)> = qualifying
        .into_iter()
        .filter(|&((j, n), share)| best_old[&j].is_unique(share) && best_new[&n].is_unique(share))
        .map(|(pair, _)| pair)
        .collect();
    // Each accepted pair is the only best of both its nodes, so no node is in two of them;
    // sorting only fixes the order refs are reported in.
    accepted.sort_by_key(|&(j, n)| (n.0, churned[j].r));
    for (j, n) in accepted {
        matched[j] = true;
        taken[n.index()] = true;
        pairs.push((churned[j].r, n));
    }
}

/// How much of two containers' matched contents they hold in common: `common` of the
/// `union` of both sides' matched descendants (a Jaccard share, kept as a fraction).
#[derive(Clone, Copy, Debug)]
struct Share {
    common: u32,
    union: u32,
}

impl Share {
    fn cmp(self, other: Share) -> std::cmp::Ordering {
        (u64::from(self.common) * u64::from(other.union))
            .cmp(&(u64::from(other.common) * u64::from(self.union)))
    }
}

/// The best share one node was offered, and how many pairs offered it.
#[derive(Clone, Copy, Debug)]
struct Best {
    share: Share,
    count: u32,
}

impl Best {
    fn offer(&mut self, share: Share) {
        match share.cmp(self.share) {
            std::cmp::Ordering::Greater => *self = Best { share, count: 1 },
            std::cmp::Ordering::Equal => self.count += 1,
            std::cmp::Ordering::Less => {}
        }
    }

    /// Whether `share` is the best and no other pair offered as much.
    fn is_unique(&self, share: Share) -> bool {
        self.count == 1 && share.cmp(self.share).is_eq()
    }
}
