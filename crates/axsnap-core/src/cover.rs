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

use crate::state::State;
use crate::tree::{NodeId, Tree};

/// The covers of one tree, in document order.
#[derive(Clone, Debug, Default)]
pub struct Covers {
    nodes: Vec<NodeId>,
    /// Each node's place in pre-order and the size of its subtree, by arena index (empty when
    /// there is no cover): whether a cover is around a node is then two compares, not a walk
    /// up a tree that may be 100,000 deep.
    order: Vec<(u32, u32)>,
}

impl Covers {
    /// Finds the covers of `tree`.
    pub fn of(tree: &Tree) -> Covers {
        let pre: Vec<NodeId> = tree.preorder().map(|(id, _)| id).collect();
        let nodes: Vec<NodeId> =
            pre.iter().copied().filter(|id| tree.node(*id).states.contains(State::Covering)).collect();
        if nodes.is_empty() {
            return Covers { nodes, order: Vec::new() };
        }
        let mut order = vec![(0u32, 1u32); tree.arena_len()];
        for (i, id) in pre.iter().enumerate() {
            order[id.index()].0 = i as u32;
        }
        // Children come after their parent in pre-order: sizes add up from the end.
        for id in pre.iter().rev() {
            if let Some(p) = tree.node(*id).parent {
                order[p.index()].1 += order[id.index()].1;
            }
        }
        Covers { nodes, order }
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
}
