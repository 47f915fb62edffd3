//! Property tests of refs: random raw trees, random edit scripts, and a ground truth of which
//! node is which element (a generator-side id that survives moves, renames, native-id churn
//! and an app's equal re-creation of an element, and that a different element put in another's
//! place does not share, even when it holds equal copies of the old one's children).
//!
//! After every refresh:
//! - every projected node has a ref, all distinct; new refs are fresh numbers, in document order;
//! - a ref never names a different element than the one it was first given to;
//! - a surviving element keeps its ref (outside scope churn and re-creation; under churn, when
//!   its structural key was unique it must be carried, and a re-created element whose content
//!   no sibling shared must be carried; otherwise it may go stale but never wrong);
//! - a removed element's ref resolves stale, and stays stale forever;
//! - a collection item (here a list item) whose name was replaced by a sibling's, or rotated
//!   among its siblings (a virtualized list recycling its rows), is another item: the model
//!   gives it a new ground-truth id, so its old ref must go stale and never name it again; a
//!   list item renamed alone stays the same item;
//! - a ref that went stale because its document left (a churn it was not carried across)
//!   comes back on its element when that same document returns (the same scope and native
//!   ids, as from a back-forward cache), and only then.
//!
//! And a session saved to JSON and restored before every step answers every step as the
//! original does (`crate::session::SavedSession`).
//!
//! Cases: `AXSNAP_PROPTEST_CASES` (default 10,000).

use std::collections::{HashMap, HashSet};

use axsnap_core::refs::{RefError, RefSpace};
use axsnap_core::{NativeId, Node, Ref, Role, TargetId, Tree};
use proptest::prelude::*;

const ROLES: [Role; 5] = [Role::Generic, Role::Button, Role::Link, Role::ListItem, Role::Heading];
const NAMES: [&str; 4] = ["", "a", "OK", "Save"];

#[derive(Clone, Debug)]
struct MNode {
    gid: u64,
    role: Role,
    name: String,
    value: Option<String>,
    /// A link's URL: one of three queries on one path, so that links of one name are told
    /// apart by their whole address some of the time, and share it the rest.
    url: Option<String>,
    scope: String,
    id: String,
    parent: Option<usize>,
    children: Vec<usize>,
    alive: bool,
}

/// The generator's world: elements with ground-truth ids.
#[derive(Clone, Debug)]
struct Model {
    nodes: Vec<MNode>,
    next_gid: u64,
    next_id: u64,
    next_scope: u64,
    /// The element the last edit re-created equal, when no sibling looked like it.
    recreated_unique: Option<u64>,
    /// The last churn, for `Return`: the scope that left, the scope that replaced it, and the
    /// native ids each node had before.
    parked: Option<Parked>,
}

/// A document that left with a churn and may come back.
#[derive(Clone, Debug)]
struct Parked {
    old: String,
    new: String,
    ids: Vec<(usize, String)>,
}

#[derive(Clone, Copy, Debug)]
enum Edit {
    Insert {
        parent: usize,
        look: usize,
        pos: usize,
        new_scope: bool,
    },
    Delete {
        node: usize,
    },
    Rename {
        node: usize,
        look: usize,
    },
    Value {
        node: usize,
        v: u8,
    },
    Move {
        node: usize,
        parent: usize,
        pos: usize,
    },
    Reorder {
        node: usize,
        by: usize,
    },
    Siblings {
        parent: usize,
        look: usize,
        count: usize,
    },
    Twin {
        node: usize,
    },
    Replace {
        node: usize,
        look: usize,
    },
    Churn {
        node: usize,
        delete: Option<usize>,
        reorder: Option<usize>,
    },
    /// Nothing changes, but the next capture is partial: it misses the subtree of `cut`.
    Partial {
        cut: usize,
    },
    /// The document the last churn replaced comes back (the back-forward cache): the nodes
    /// that churned get their old scope and native ids again.
    Return,
    /// A virtualized list shows other items in the elements it has: the named list items under
    /// a parent pass their names on `by` places (a scroll); each that changed is another item.
    Recycle {
        parent: usize,
        by: usize,
    },
    /// The app draws a part of the living document again (an AJAX page): the subtree of `node`
    /// with new native ids in the same scopes, the same elements, with one change on the way
    /// (`change` picks which, `at` where): none, one element renamed to `look`'s name, one
    /// element's children reordered, or one element replaced by a copy of a sibling (a
    /// look-alike that is a new element). One change per redraw, as every other edit here
    /// makes one: two at once (a rename that gives one element exactly the look of another
    /// that was replaced in the same step) no structure can tell from the other's redraw.
    Rebuild {
        node: usize,
        change: u8,
        at: usize,
        look: usize,
    },
}

impl Model {
    fn new() -> Model {
        let mut m = Model {
            nodes: Vec::new(),
            next_gid: 0,
            next_id: 0,
            next_scope: 1,
            recreated_unique: None,
            parked: None,
        };
        m.add(None, Role::Document, "", "s0".into(), 0);
        m
    }

    fn add(&mut self, parent: Option<usize>, role: Role, name: &str, scope: String, pos: usize) -> usize {
        let i = self.nodes.len();
        self.next_gid += 1;
        self.next_id += 1;
        let url = (role == Role::Link).then(|| format!("/p?q={}", self.next_gid % 3));
        self.nodes.push(MNode {
            gid: self.next_gid,
            role,
            name: name.to_string(),
            value: None,
            url,
            scope,
            id: self.next_id.to_string(),
            parent,
            children: Vec::new(),
            alive: true,
        });
        if let Some(p) = parent {
            let kids = &mut self.nodes[p].children;
            // `usize::MAX` appends.
            let at = if pos == usize::MAX { kids.len() } else { pos % (kids.len() + 1) };
            kids.insert(at, i);
        }
        i
    }

    fn fresh_scope(&mut self) -> String {
        self.next_scope += 1;
        format!("s{}", self.next_scope)
    }

    /// Live nodes in document order.
    fn order(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(self.nodes[i].children.iter().rev());
        }
        out
    }

    fn pick(&self, k: usize, non_root: bool) -> Option<usize> {
        let order = self.order();
        let cands: Vec<usize> = if non_root { order[1..].to_vec() } else { order };
        (!cands.is_empty()).then(|| cands[k % cands.len()])
    }

    fn subtree(&self, i: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![i];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.nodes[n].children.iter().rev());
        }
        out
    }

    fn detach(&mut self, i: usize) -> usize {
        let p = self.nodes[i].parent.take().unwrap();
        let kids = &mut self.nodes[p].children;
        let at = kids.iter().position(|c| *c == i).unwrap();
        kids.remove(at);
        at
    }

    fn delete(&mut self, i: usize) {
        self.detach(i);
        for n in self.subtree(i) {
            self.nodes[n].alive = false;
        }
    }

    /// The other children of `n`'s parent.
    fn siblings(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let kids = self.nodes[n].parent.map(|p| self.nodes[p].children.as_slice()).unwrap_or_default();
        kids.iter().copied().filter(move |&k| k != n)
    }

    /// `n` shows another item now: a new ground-truth id on the same element. Should the
    /// document it churned out of return, it would not show this item: it does not return.
    fn renew(&mut self, n: usize) {
        self.next_gid += 1;
        self.nodes[n].gid = self.next_gid;
        if let Some(parked) = &mut self.parked {
            parked.ids.retain(|(i, _)| *i != n);
        }
    }

    /// Copies the subtree of `n` under `parent` at `pos` with new native ids in the same
    /// scopes, the old nodes dead; `same` keeps the elements' ground-truth ids. Returns the
    /// copy's root.
    fn recreate(&mut self, n: usize, parent: usize, pos: usize, same: bool) -> usize {
        let mut root = None;
        let mut stack = vec![(n, parent, pos)];
        while let Some((old, new_parent, pos)) = stack.pop() {
            let o = self.nodes[old].clone();
            let c = self.add(Some(new_parent), o.role, &o.name, o.scope, pos);
            self.nodes[c].value = o.value;
            self.nodes[c].url = o.url;
            if same {
                self.nodes[c].gid = o.gid;
            }
            root.get_or_insert(c);
            // Popped in document order, each appended: the copy keeps the order.
            for k in o.children.iter().rev() {
                stack.push((*k, c, usize::MAX));
            }
            self.nodes[old].alive = false;
        }
        root.unwrap_or(n)
    }

    /// Renames `n` to the name of `look`.
    fn rename(&mut self, n: usize, look: usize) {
        let new = NAMES[look % NAMES.len()];
        let old = std::mem::replace(&mut self.nodes[n].name, new.to_string());
        // A list item's name replaced by one a sibling item shows, or its old name shown
        // by one: the element shows another item now. (NAMES are unlike one another, so
        // no rename here reads as an edit of the old name.)
        let item = self.nodes[n].role == Role::ListItem && !old.is_empty() && !new.is_empty() && old != new;
        if item
            && self.siblings(n).any(|k| {
                self.nodes[k].role == Role::ListItem
                    && (self.nodes[k].name == old || self.nodes[k].name == new)
            })
        {
            self.renew(n);
        }
    }

    /// A copy of the subtree of `n` under `parent` at `pos`: new elements with new native ids
    /// in `n`'s scopes; `n` stays.
    fn copy(&mut self, n: usize, parent: usize, pos: usize) {
        let mut stack = vec![(n, parent, pos)];
        while let Some((old, new_parent, pos)) = stack.pop() {
            let o = self.nodes[old].clone();
            let c = self.add(Some(new_parent), o.role, &o.name, o.scope, pos);
            self.nodes[c].value = o.value;
            self.nodes[c].url = o.url;
            for k in o.children.iter().rev() {
                stack.push((*k, c, usize::MAX));
            }
        }
    }

    /// The subtree's identity: roles and names of every node, in order.
    fn content(&self, i: usize) -> String {
        let m = &self.nodes[i];
        let kids: Vec<String> = m.children.iter().map(|&k| self.content(k)).collect();
        format!("{}:{:?}({})", m.role, m.name, kids.join(","))
    }

    /// Whether no sibling of `n` has its content.
    fn content_unique(&self, n: usize) -> bool {
        let Some(p) = self.nodes[n].parent else { return true };
        let own = self.content(n);
        self.nodes[p].children.iter().filter(|&&k| self.content(k) == own).count() == 1
    }

    /// Applies an edit; returns the churned scope, if the edit was a churn.
    fn apply(&mut self, e: Edit) -> Option<String> {
        self.recreated_unique = None;
        match e {
            Edit::Insert { parent, look, pos, new_scope } => {
                let p = self.pick(parent, false)?;
                let scope = if new_scope { self.fresh_scope() } else { self.nodes[p].scope.clone() };
                let (role, name) = look_of(look);
                self.add(Some(p), role, name, scope, pos);
            }
            Edit::Delete { node } => {
                let n = self.pick(node, true)?;
                self.delete(n);
            }
            Edit::Rename { node, look } => {
                let n = self.pick(node, false)?;
                self.rename(n, look);
            }
            Edit::Rebuild { node, change, at, look } => {
                let n = self.pick(node, true)?;
                let parent = self.nodes[n].parent.unwrap();
                let at_root = self.detach(n);
                let root = self.recreate(n, parent, at_root, true);
                let part = self.subtree(root);
                match change % 4 {
                    1 => self.rename(part[at % part.len()], look),
                    2 => {
                        let r = part[at % part.len()];
                        self.nodes[r].children.reverse();
                    }
                    3 if part.len() > 1 => {
                        // A node of the part (not its root) replaced by a copy of a sibling:
                        // another element, which looks like one that is still there.
                        let v = part[1 + at % (part.len() - 1)];
                        let sibling = self.siblings(v).next();
                        if let Some(model) = sibling {
                            let p = self.nodes[v].parent.unwrap();
                            let at = self.detach(v);
                            for d in self.subtree(v) {
                                self.nodes[d].alive = false;
                            }
                            self.copy(model, p, at);
                        }
                    }
                    _ => {}
                }
            }
            Edit::Recycle { parent, by } => {
                let p = self.pick(parent, false)?;
                let items: Vec<usize> = self.nodes[p]
                    .children
                    .iter()
                    .copied()
                    .filter(|&k| self.nodes[k].role == Role::ListItem && !self.nodes[k].name.is_empty())
                    .collect();
                if items.len() < 2 {
                    return None;
                }
                let by = 1 + by % (items.len() - 1);
                let names: Vec<String> = items.iter().map(|&k| self.nodes[k].name.clone()).collect();
                for (i, &k) in items.iter().enumerate() {
                    let name = names[(i + by) % items.len()].clone();
                    if name != self.nodes[k].name {
                        self.nodes[k].name = name;
                        self.renew(k);
                    }
                }
            }
            Edit::Value { node, v } => {
                let n = self.pick(node, false)?;
                self.nodes[n].value = Some(v.to_string());
            }
            Edit::Move { node, parent, pos } => {
                let n = self.pick(node, true)?;
                let inside: HashSet<usize> = self.subtree(n).into_iter().collect();
                let p = self.pick(parent, false)?;
                if inside.contains(&p) {
                    return None;
                }
                self.detach(n);
                self.nodes[n].parent = Some(p);
                let kids = &mut self.nodes[p].children;
                let at = pos % (kids.len() + 1);
                kids.insert(at, n);
            }
            Edit::Reorder { node, by } => {
                let n = self.pick(node, false)?;
                let kids = &mut self.nodes[n].children;
                if !kids.is_empty() {
                    if by % 2 == 0 {
                        kids.reverse();
                    } else {
                        let k = by % kids.len();
                        kids.rotate_left(k);
                    }
                }
            }
            Edit::Siblings { parent, look, count } => {
                let p = self.pick(parent, false)?;
                let (role, name) = look_of(look);
                let scope = self.nodes[p].scope.clone();
                for _ in 0..count {
                    self.add(Some(p), role.clone(), name, scope.clone(), usize::MAX);
                }
            }
            Edit::Twin { node } => {
                // The app re-creates an element equal: new native ids in the same scopes for
                // the same elements (the ground truth follows them).
                let n = self.pick(node, true)?;
                let parent = self.nodes[n].parent.unwrap();
                let unique = self.content_unique(n);
                let at = self.detach(n);
                let root = self.recreate(n, parent, at, true);
                if unique {
                    self.recreated_unique = Some(self.nodes[root].gid);
                }
            }
            Edit::Replace { node, look } => {
                // Another element in its place, holding equal copies of its children: new
                // elements all, none of which may take an old ref.
                let n = self.pick(node, true)?;
                let (role, name) = look_of(look);
                if (&role, name) == (&self.nodes[n].role, self.nodes[n].name.as_str()) {
                    return None;
                }
                let parent = self.nodes[n].parent.unwrap();
                let at = self.detach(n);
                let scope = self.nodes[n].scope.clone();
                let c = self.add(Some(parent), role, name, scope, at);
                self.nodes[n].alive = false;
                for k in self.nodes[n].children.clone() {
                    self.recreate(k, c, usize::MAX, false);
                }
            }
            Edit::Churn { node, delete, reorder } => {
                // A navigation to a copy of the document: same elements, all ids of one scope new.
                let n = self.pick(node, false)?;
                let old = self.nodes[n].scope.clone();
                let new = self.fresh_scope();
                let mut ids = Vec::new();
                for i in self.order() {
                    if self.nodes[i].scope == old {
                        self.next_id += 1;
                        self.nodes[i].scope = new.clone();
                        ids.push((i, std::mem::replace(&mut self.nodes[i].id, self.next_id.to_string())));
                    }
                }
                self.parked = Some(Parked { old: old.clone(), new, ids });
                if let Some(d) = delete.and_then(|d| self.pick(d, true)) {
                    self.delete(d);
                }
                if let Some(r) = reorder.and_then(|r| self.pick(r, false)) {
                    self.nodes[r].children.reverse();
                }
                return Some(old);
            }
            Edit::Partial { .. } => {}
            Edit::Return => {
                // Only a whole document comes back: every live node of the scope that replaced
                // it must be one of its own (nothing added there since).
                let parked = self.parked.take()?;
                let returning: HashSet<usize> = parked.ids.iter().map(|(i, _)| *i).collect();
                let order = self.order();
                if order.iter().any(|i| self.nodes[*i].scope == parked.new && !returning.contains(i)) {
                    return None;
                }
                for (i, id) in &parked.ids {
                    if self.nodes[*i].alive && self.nodes[*i].scope == parked.new {
                        self.nodes[*i].scope = parked.old.clone();
                        self.nodes[*i].id = id.clone();
                    }
                }
                return Some(parked.new);
            }
        }
        None
    }

    /// The raw tree a partial capture gives: the subtree of a picked non-root node missed.
    fn partial_tree(&self, cut: usize) -> Tree {
        let mut t = self.tree();
        if let Some(i) = self.pick(cut, true) {
            let native = NativeId::new(self.nodes[i].scope.clone(), self.nodes[i].id.clone());
            if let Some(id) = t.preorder().map(|(id, _)| id).find(|&id| t.node(id).native == native) {
                t.detach(id);
            }
        }
        t
    }

    fn tree(&self) -> Tree {
        let mut t = Tree::with_root(self.node(0));
        let mut stack = vec![(0usize, t.root().unwrap())];
        while let Some((m, id)) = stack.pop() {
            for &k in &self.nodes[m].children {
                let c = t.append(id, self.node(k));
                stack.push((k, c));
            }
        }
        t
    }

    fn node(&self, i: usize) -> Node {
        let m = &self.nodes[i];
        let mut n = Node::new(m.role.clone(), m.name.clone(), NativeId::new(m.scope.clone(), m.id.clone()));
        n.value = m.value.clone();
        n.url = m.url.clone();
        n
    }

    /// Ground truth: live element ids with their native id and scope.
    fn elements(&self) -> HashMap<u64, NativeId> {
        self.order()
            .into_iter()
            .map(|i| {
                (self.nodes[i].gid, NativeId::new(self.nodes[i].scope.clone(), self.nodes[i].id.clone()))
            })
            .collect()
    }

    /// Elements whose (role, name) chain from the root is unique in the tree.
    fn structurally_unique(&self) -> HashSet<u64> {
        let mut path: HashMap<usize, String> = HashMap::new();
        let mut count: HashMap<String, u32> = HashMap::new();
        for i in self.order() {
            let m = &self.nodes[i];
            let above = m.parent.map(|p| path[&p].clone()).unwrap_or_default();
            let p = format!("{above}/{}:{:?}", m.role, m.name);
            *count.entry(p.clone()).or_default() += 1;
            path.insert(i, p);
        }
        self.order().into_iter().filter(|i| count[&path[i]] == 1).map(|i| self.nodes[i].gid).collect()
    }

    fn gid_of_native(&self) -> HashMap<NativeId, u64> {
        self.elements().into_iter().map(|(g, n)| (n, g)).collect()
    }
}

fn look_of(k: usize) -> (Role, &'static str) {
    (ROLES[k % ROLES.len()].clone(), NAMES[(k / ROLES.len()) % NAMES.len()])
}

fn edit() -> impl Strategy<Value = Edit> {
    let u = || 0usize..1000;
    prop_oneof![
        4 => (u(), u(), u(), prop::bool::weighted(0.15))
            .prop_map(|(parent, look, pos, new_scope)| Edit::Insert { parent, look, pos, new_scope }),
        3 => u().prop_map(|node| Edit::Delete { node }),
        2 => (u(), u()).prop_map(|(node, look)| Edit::Rename { node, look }),
        2 => (u(), any::<u8>()).prop_map(|(node, v)| Edit::Value { node, v }),
        2 => (u(), u(), u()).prop_map(|(node, parent, pos)| Edit::Move { node, parent, pos }),
        1 => (u(), u()).prop_map(|(node, by)| Edit::Reorder { node, by }),
        1 => (u(), u(), 2usize..6).prop_map(|(parent, look, count)| Edit::Siblings { parent, look, count }),
        2 => u().prop_map(|node| Edit::Twin { node }),
        2 => (u(), u()).prop_map(|(node, look)| Edit::Replace { node, look }),
        2 => (u(), prop::option::of(u()), prop::option::of(u()))
            .prop_map(|(node, delete, reorder)| Edit::Churn { node, delete, reorder }),
        1 => u().prop_map(|cut| Edit::Partial { cut }),
        2 => Just(Edit::Return),
        2 => (u(), u()).prop_map(|(parent, by)| Edit::Recycle { parent, by }),
        3 => (u(), any::<u8>(), u(), u()).prop_map(|(node, change, at, look)| Edit::Rebuild { node, change, at, look }),
    ]
}

/// What the step did to documents: the scope it churned (or that left when a document came
/// back), and whether a document came back.
#[derive(Clone, Copy, Default)]
struct Step<'a> {
    churned: Option<&'a str>,
    returned: bool,
}

/// What the oracle remembers between refreshes.
#[derive(Default)]
struct Oracle {
    /// Every ref given out, with the element it was given to.
    gid_of_ref: HashMap<Ref, u64>,
    /// Refs that resolved stale once.
    stale: HashSet<Ref>,
    /// Highest ref number given out.
    max_ref: u32,
}

/// Checks one refresh. `before`/`after` are the model around the step; `churned` the scope the
/// step churned, if any.
fn check(
    space: &RefSpace,
    oracle: &mut Oracle,
    target: &TargetId,
    projected: &Tree,
    before: Option<&Model>,
    after: &Model,
    step: Step<'_>,
) -> Result<(), TestCaseError> {
    let Step { churned, returned } = step;
    let gid_of = after.gid_of_native();
    let live_now = after.elements();
    let prev_live: HashMap<u64, NativeId> = before.map(Model::elements).unwrap_or_default();
    let prev_unique = before.map(Model::structurally_unique).unwrap_or_default();

    // Every projected node has a distinct ref; new refs are fresh and consecutive (the nodes
    // the text form shows a ref on are numbered first, each group in document order).
    let mut seen = HashSet::new();
    let mut new_refs = Vec::new();
    let mut shown_ref_of: HashMap<u64, Ref> = HashMap::new();
    for (id, _) in projected.preorder() {
        let node = projected.node(id);
        let r = node.ref_id.ok_or_else(|| TestCaseError::fail("a projected node has no ref"))?;
        prop_assert!(seen.insert(r), "ref {} written twice", r);
        let gid = gid_of[&node.native];
        shown_ref_of.insert(gid, r);
        match oracle.gid_of_ref.get(&r) {
            Some(&g) => prop_assert_eq!(g, gid, "ref {} moved to another element", r),
            None => {
                new_refs.push(r.0);
                oracle.gid_of_ref.insert(r, gid);
            }
        }
    }
    new_refs.sort_unstable();
    let fresh: Vec<u32> = (oracle.max_ref + 1..).take(new_refs.len()).collect();
    prop_assert_eq!(&new_refs, &fresh, "new refs are fresh and consecutive");
    oracle.max_ref += new_refs.len() as u32;

    for (&r, &gid) in &oracle.gid_of_ref {
        match space.resolve(target, r) {
            Ok(native) => {
                // Only a returning document brings a stale ref back (on its own element: below).
                if oracle.stale.remove(&r) {
                    prop_assert!(returned, "stale ref {} came back", r);
                }
                prop_assert_eq!(Some(native), live_now.get(&gid), "ref {} names a wrong element", r);
            }
            Err(RefError::Stale { .. }) => {
                let stale_before = !oracle.stale.insert(r);
                let (Some(now), Some(was)) = (live_now.get(&gid), prev_live.get(&gid)) else { continue };
                // The element survived this step with a ref live before it. The ref may go
                // only if the element's scope churned and it had look-alikes.
                if before.is_some() && !stale_before {
                    // Or if it was re-created (a new native id in a living scope) and had a
                    // look-alike beside it.
                    let recreated = now != was && churned.is_none();
                    // Or if its document came back and the element took back the ref it had
                    // there (the model's churned copy and its original are one element; a real
                    // page's look-alike on the page in between is not).
                    let took_back = returned && shown_ref_of.get(&gid).is_some_and(|s| *s != r);
                    let excused = (churned == Some(was.scope.as_str()) && !prev_unique.contains(&gid))
                        || (recreated && after.recreated_unique != Some(gid))
                        || took_back;
                    prop_assert!(excused, "ref {} of surviving element {:?} -> {:?} went stale", r, was, now);
                }
            }
            Err(e) => prop_assert!(false, "ref {} failed with {}", r, e),
        }
    }
    Ok(())
}

impl Model {
    /// A model grown by inserting `init`'s (parent, look-alike, new scope) nodes in order.
    fn with(init: Vec<(usize, usize, bool)>) -> Model {
        let mut model = Model::new();
        for (parent, look, new_scope) in init {
            model.apply(Edit::Insert { parent, look, pos: usize::MAX, new_scope });
        }
        model
    }
}

fn cases() -> u32 {
    std::env::var("AXSNAP_PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn refs_follow_elements_and_never_retarget(
        init in prop::collection::vec((0usize..1000, 0usize..1000, prop::bool::weighted(0.1)), 0..30),
        edits in prop::collection::vec(edit(), 1..16),
    ) {
        let mut model = Model::with(init);
        let target = TargetId("t".into());
        let mut space = RefSpace::new();
        let mut oracle = Oracle::default();
        let raw = model.tree();
        let mut projected = raw.clone();
        space.refresh(&target, &raw, &mut projected);
        check(&space, &mut oracle, &target, &projected, None, &model, Step::default())?;
        // Refs the last churn made stale, by element: a `Return` must bring them back.
        let mut left: HashMap<u64, Ref> = HashMap::new();
        for e in edits {
            let before = model.clone();
            let live_before: HashSet<Ref> =
                oracle.gid_of_ref.keys().copied().filter(|r| space.resolve(&target, *r).is_ok()).collect();
            let churned = model.apply(e);
            let raw = match e {
                Edit::Partial { cut } => model.partial_tree(cut),
                _ => model.tree(),
            };
            let mut projected = raw.clone();
            if matches!(e, Edit::Partial { .. }) {
                space.refresh_partial(&target, &raw, &mut projected);
            } else {
                space.refresh(&target, &raw, &mut projected);
            }
            let returned = matches!(e, Edit::Return) && churned.is_some();
            let step = Step { churned: churned.as_deref(), returned };
            check(&space, &mut oracle, &target, &projected, Some(&before), &model, step)?;
            match e {
                Edit::Churn { .. } if churned.is_some() => {
                    left = live_before
                        .iter()
                        .filter(|r| matches!(space.resolve(&target, **r), Err(RefError::Stale { .. })))
                        .map(|r| (oracle.gid_of_ref[r], *r))
                        .collect();
                }
                Edit::Return if returned => {
                    let live = model.elements();
                    let old_scope = before.parked.as_ref().map(|p| p.old.clone()).unwrap_or_default();
                    for (gid, r) in std::mem::take(&mut left) {
                        let Some(native) = live.get(&gid).filter(|n| n.scope == old_scope) else { continue };
                        prop_assert_eq!(space.resolve(&target, r).ok(), Some(native), "ref {} did not come back", r);
                    }
                }
                _ => {}
            }
        }
    }
}

/// A page-like tree of `n` nodes: sections of lists of items with links and buttons.
fn big_tree(n: usize, scope: &str) -> Tree {
    let mut t = Tree::with_root(Node::new(Role::Document, "Big", NativeId::new(scope, "0")));
    let root = t.root().unwrap();
    let mut parents = vec![root];
    let mut i = 1;
    while i < n {
        let p = parents[(i * 7919) % parents.len()];
        let role = ROLES[i % ROLES.len()].clone();
        let name = if i % 3 == 0 { String::new() } else { format!("item {}", i % 5000) };
        let id = t.append(p, Node::new(role, name, NativeId::new(scope, i.to_string())));
        if i % 4 == 0 {
            parents.push(id);
        }
        i += 1;
    }
    t
}

/// Time this thread spent on a CPU, in ns (Linux `schedstat`); wall time on a loaded machine
/// says little. Falls back to 0 elsewhere.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// Timing of refresh on a 100k-node tree; run with
/// `cargo test --release -p axsnap-core --test refs_props -- --ignored --nocapture`.
#[test]
#[ignore]
fn refresh_100k_timing() {
    let raw = big_tree(100_000, "d1");
    let churned = big_tree(100_000, "d2");
    let target = TargetId("t".into());
    let mut space = RefSpace::new();
    let mut run = |raw: &Tree, what: &str| {
        let mut p = raw.clone();
        let (c0, t0) = (cpu_ns(), std::time::Instant::now());
        let st = space.refresh(&target, raw, &mut p);
        let (cpu, wall) = ((cpu_ns() - c0) as f64 / 1e6, t0.elapsed().as_secs_f64() * 1e3);
        println!("{what}: cpu {cpu:.1} ms, wall {wall:.1} ms, {st:?}");
    };
    let (c0, t0) = (cpu_ns(), std::time::Instant::now());
    let n = raw.preorder().count();
    let walk = (cpu_ns() - c0) as f64 / 1e6;
    println!(
        "calibration: one pre-order walk of {n} nodes: cpu {walk:.1} ms, wall {:.1} ms",
        t0.elapsed().as_secs_f64() * 1e3
    );
    run(&raw, "first (all new)");
    for _ in 0..3 {
        run(&raw, "steady (all kept)");
    }
    run(&churned, "whole-document churn");
    run(&churned, "steady after churn");
}

/// The refs a projected tree shows, in document order (with each node's native id).
fn shown_refs(t: &Tree) -> Vec<(NativeId, Option<Ref>)> {
    t.preorder().map(|(id, _)| (t.node(id).native.clone(), t.node(id).ref_id)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 10, ..ProptestConfig::default() })]

    /// `refresh_projection`, which reads the raw node each projected node came from instead
    /// of looking its native id up, and `read_raw` + `refresh_read` (the raw tree read while
    /// it is projected) give the same refs and stats as `refresh` on the same projections,
    /// through every kind of edit (churn, re-creation, partial captures).
    #[test]
    fn refresh_from_a_projection_matches_refresh(
        init in prop::collection::vec((0usize..1000, 0usize..1000, prop::bool::weighted(0.1)), 0..30),
        edits in prop::collection::vec(edit(), 1..16),
    ) {
        use axsnap_core::project::{project, ProjectOptions};
        let mut model = Model::with(init);
        let target = TargetId("t".into());
        let (mut by_id, mut by_origin, mut by_read) = (RefSpace::new(), RefSpace::new(), RefSpace::new());
        let opts = ProjectOptions::default();
        let mut step = |raw: &Tree, partial: bool| -> Result<(), TestCaseError> {
            let mut a = project(raw, &opts);
            let mut b = project(raw, &opts);
            let mut c = project(raw, &opts);
            let (sa, sb) = if partial {
                (by_id.refresh_partial(&target, raw, &mut a.tree), by_origin.refresh_projection_partial(&target, raw, &mut b))
            } else {
                (by_id.refresh(&target, raw, &mut a.tree), by_origin.refresh_projection(&target, raw, &mut b))
            };
            let read = by_read.read_raw(&target, raw, !partial);
            let sc = by_read.refresh_read(read, &mut c, partial);
            prop_assert_eq!(&sa, &sb);
            prop_assert_eq!(&sa, &sc);
            prop_assert_eq!(shown_refs(&a.tree), shown_refs(&b.tree));
            prop_assert_eq!(shown_refs(&a.tree), shown_refs(&c.tree));
            Ok(())
        };
        step(&model.tree(), false)?;
        for e in edits {
            model.apply(e);
            match e {
                Edit::Partial { cut } => step(&model.partial_tree(cut), true)?,
                _ => step(&model.tree(), false)?,
            }
        }
    }
}

/// One step of a session and of its copy saved to JSON and restored just before: the same
/// answer in every part, and every ref number resolves alike (live, stale with its role and
/// name, forgotten, unknown).
fn step_both(
    original: &mut axsnap_core::session::Session,
    restored: &mut axsnap_core::session::Session,
    raw: &Tree,
    partial: bool,
    now: std::time::Instant,
) -> Result<(), TestCaseError> {
    use axsnap_core::backend::Capture;
    use axsnap_core::session::{ClientId, Policy, Request, SavedSession, Session};
    let bytes = serde_json::to_vec(&restored.save(now)).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let saved: SavedSession =
        serde_json::from_slice(&bytes).map_err(|e| TestCaseError::fail(e.to_string()))?;
    *restored =
        Session::restore(Policy::default(), saved, now).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let target = TargetId("t".into());
    let header = axsnap_core::Header { url: Some("https://a.example/".into()), title: None };
    let cap = Capture::new(target.clone(), header, raw.clone(), partial.then(|| "cut short".to_string()));
    let (client, request) = (ClientId("c".into()), Request { also_json: true, ..Request::default() });
    let a =
        original.snapshot(&client, &cap, &request, now).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let b =
        restored.snapshot(&client, &cap, &request, now).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(a.answer, b.answer);
    prop_assert_eq!(&a.text, &b.text);
    prop_assert_eq!(&a.json, &b.json);
    prop_assert_eq!(&a.refs, &b.refs);
    prop_assert!(a.snapshot == b.snapshot, "the snapshots differ");
    prop_assert_eq!(original.refs().issued(), restored.refs().issued());
    prop_assert_eq!(original.refs().retained(), restored.refs().retained());
    for i in 0..=original.refs().issued() as u32 + 1 {
        prop_assert_eq!(original.resolve(&target, Ref(i)), restored.resolve(&target, Ref(i)), "ref {}", i);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 10, ..ProptestConfig::default() })]

    /// A session saved to JSON and restored before every step (as a server handing its
    /// sessions to another through a store) answers every step as the original does, through
    /// every kind of edit: churn, documents that come back, re-creation, partial captures.
    #[test]
    fn a_session_restored_before_every_step_answers_as_the_original(
        init in prop::collection::vec((0usize..1000, 0usize..1000, prop::bool::weighted(0.1)), 0..30),
        edits in prop::collection::vec(edit(), 1..16),
    ) {
        use axsnap_core::session::{Policy, Session};
        let mut model = Model::with(init);
        let (mut original, mut restored) = (Session::new(Policy::default()), Session::new(Policy::default()));
        let t0 = std::time::Instant::now();
        step_both(&mut original, &mut restored, &model.tree(), false, t0)?;
        for (k, e) in edits.into_iter().enumerate() {
            model.apply(e);
            let now = t0 + std::time::Duration::from_millis(1_500 * (k as u64 + 1));
            match e {
                Edit::Partial { cut } => step_both(&mut original, &mut restored, &model.partial_tree(cut), true, now)?,
                _ => step_both(&mut original, &mut restored, &model.tree(), false, now)?,
            }
        }
    }
}
