//! What covers what: a backend marks the elements drawn over others
//! ([`State::Covering`], an open menu, a modal's backdrop) and the elements under them
//! ([`State::Obscured`]); this module tells, for a covered element, which cover it is under.
//! The diff's text form says a cover once instead of a flip per covered element, and a refused
//! action names the cover to close.
//!
//! ```
//! use axsnap_core::{cover, NativeId, Node, Rect, Role, State, Tree};
//!
//! let mut t = Tree::with_root(Node::new(Role::Document, "App", NativeId::new("d", "0")));
//! let root = t.root().unwrap();
//! let mut button = Node::new(Role::Button, "Save", NativeId::new("d", "1"));
//! button.bounds = Some(Rect { x: 10.0, y: 10.0, w: 80.0, h: 20.0 });
//! button.states.set(State::Obscured, true);
//! let button = t.append(root, button);
//! let mut menu = Node::new(Role::Generic, "", NativeId::new("d", "2"));
//! menu.bounds = Some(Rect { x: 0.0, y: 0.0, w: 200.0, h: 300.0 });
//! menu.states.set(State::Covering, true);
//! let menu = t.append(root, menu);
//! assert_eq!(cover::Covers::of(&t).cover_of(&t, button), Some(menu));
//! ```

use rustc_hash::FxHashSet;

use crate::state::State;
use crate::tree::{NodeId, Tree};

/// The covers of one tree, in document order.
#[derive(Clone, Debug, Default)]
pub struct Covers {
    nodes: Vec<NodeId>,
    /// The nodes reachable from the root, in document order, each once (empty when there is no
    /// cover).
    pre: Vec<NodeId>,
    /// Each node's place in pre-order and the size of its subtree, by arena index (empty when
    /// there is no cover): whether a cover is around a node is then two compares, not a walk
    /// up a tree that may be 100,000 deep.
    order: Vec<(u32, u32)>,
}

impl Covers {
    /// Finds the covers of `tree`. A raw tree as a backend sent it is walked safely: a node
    /// reached twice (a shared child, a cycle) counts where it was first reached.
    pub fn of(tree: &Tree) -> Covers {
        // Most captures have no cover: one look at each node of the arena says so.
        let any = (0..tree.arena_len()).any(|i| tree.node(NodeId(i as u32)).states.contains(State::Covering));
        let Some(root) = tree.root().filter(|_| any) else {
            return Covers::default();
        };
        // Pre-order by a stack, each node once, with the parent it was reached from.
        let mut reached_from: Vec<Option<Option<NodeId>>> = vec![None; tree.arena_len()];
        let mut pre = Vec::new();
        let mut stack = vec![(root, None)];
        while let Some((id, from)) = stack.pop() {
            match reached_from.get_mut(id.index()) {
                Some(slot @ None) => *slot = Some(from),
                _ => continue,
            }
            pre.push(id);
            for &c in tree.node(id).children.iter().rev() {
                if tree.get(c).is_some() {
                    stack.push((c, Some(id)));
                }
            }
        }
        let nodes: Vec<NodeId> =
            pre.iter().copied().filter(|id| tree.node(*id).states.contains(State::Covering)).collect();
        let mut order = vec![(0u32, 1u32); tree.arena_len()];
        for (i, id) in pre.iter().enumerate() {
            order[id.index()].0 = i as u32;
        }
        // Children come after their parent in pre-order: sizes add up from the end.
        for id in pre.iter().rev() {
            if let Some(Some(Some(p))) = reached_from.get(id.index()) {
                order[p.index()].1 += order[id.index()].1;
            }
        }
        Covers { nodes, pre, order }
    }

    /// Whether `c` is `id` or one of its ancestors.
    fn around(&self, c: NodeId, id: NodeId) -> bool {
        match (self.order.get(c.index()), self.order.get(id.index())) {
            (Some(&(start, size)), Some(&(at, _))) => at >= start && at - start < size,
            _ => false,
        }
    }

    /// Whether the tree has no cover.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// What covers `id`: the last cover in document order (drawn last, so on top) whose box
    /// holds `id`'s centre and that is not around it; else the only cover there is. `None`
    /// when no cover can be told.
    pub fn cover_of(&self, tree: &Tree, id: NodeId) -> Option<NodeId> {
        let around = |c: NodeId| self.around(c, id);
        let hit = tree.node(id).bounds.map(|b| b.center()).and_then(|(x, y)| {
            self.nodes.iter().rev().copied().find(|c| {
                !around(*c)
                    && tree
                        .node(*c)
                        .bounds
                        .is_some_and(|b| x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h)
            })
        });
        let only = match self.nodes.as_slice() {
            [c] if !around(*c) => Some(*c),
            _ => None,
        };
        hit.or(only)
    }

    /// The covers, in document order.
    pub fn nodes(&self) -> &[NodeId] {
        &self.nodes
    }

    /// Each covered element ([`State::Obscured`]) with the cover it is under, where one can be
    /// told, in document order.
    pub fn covered(&self, tree: &Tree) -> Vec<(NodeId, NodeId)> {
        if self.nodes.is_empty() {
            return Vec::new();
        }
        self.pre
            .iter()
            .copied()
            .filter(|id| tree.node(*id).states.contains(State::Obscured))
            .filter_map(|id| self.cover_of(tree, id).map(|c| (id, c)))
            .collect()
    }

    /// The covers no covered element is under: drawn over the page, but over nothing an agent
    /// could act on (a code editor's text layer over its own hidden input). Saying them would
    /// tell the agent of an overlay where there is none in its way.
    pub fn idle(&self, tree: &Tree) -> Vec<NodeId> {
        let busy: FxHashSet<NodeId> = self.covered(tree).into_iter().map(|(_, c)| c).collect();
        self.nodes.iter().copied().filter(|c| !busy.contains(c)).collect()
    }
}

/// Takes back what `quiet` cover: each loses [`State::Covering`], and each element only
/// they cover loses [`State::Obscured`], so that the tree says neither half of it.
///
/// ```
/// use axsnap_core::{cover, NativeId, Node, Rect, Role, State, Tree};
///
/// let mut t = Tree::with_root(Node::new(Role::Document, "App", NativeId::new("d", "0")));
/// let root = t.root().unwrap();
/// let mut layer = Node::new(Role::Generic, "", NativeId::new("d", "1"));
/// layer.states.set(State::Covering, true);
/// let layer = t.append(root, layer);
/// assert_eq!(cover::Covers::of(&t).idle(&t), vec![layer]);
/// cover::quiet(&mut t, &[layer]);
/// assert!(!t.node(layer).states.contains(State::Covering));
/// ```
pub fn quiet(tree: &mut Tree, quiet: &[NodeId]) {
    if quiet.is_empty() {
        return;
    }
    let quiet_set: FxHashSet<NodeId> = quiet.iter().copied().collect();
    let covered = Covers::of(tree).covered(tree);
    for (id, c) in covered {
        if quiet_set.contains(&c) {
            tree.node_mut(id).states.set(State::Obscured, false);
        }
    }
    for c in quiet {
        tree.node_mut(*c).states.set(State::Covering, false);
    }
}
