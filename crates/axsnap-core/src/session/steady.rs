//! Covers said once they hold: an element that was already on the page, drawn in the same
//! place, and starts covering others is said to cover them only when the next capture finds
//! it covering them too.
//!
//! Why: the hit test behind [`State::Covering`] is a moment's fact. A fixed footer over a
//! scrolling editor, or an editor's text layer over its own input, covers something in one
//! capture and nothing in the next as the content moves under it, and an agent was told
//! `+covering` and `-covering` on alternate answers about an overlay it never had to close.
//! What appears (a menu, a popover, a dialog and its backdrop, something shown or moved into
//! place) is new in its capture and says what it covers at once; that is the overlay an
//! opened menu answers.
//!
//! The memory is one capture deep per target: for each rendered node, a hash of its native
//! id and its box (a hash collision can only hold a cover back one answer longer), and the
//! covers it found.

use std::hash::{BuildHasher, Hash, Hasher};

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use crate::refs::TargetId;
use crate::state::State;
use crate::tree::{Node, NodeId, Tree};

/// What the last capture of each target held.
#[derive(Debug, Default)]
pub(crate) struct SteadyCovers {
    last: FxHashMap<TargetId, Last>,
}

/// One capture, as far as covers go.
#[derive(Debug, Default)]
struct Last {
    /// Each rendered node: its native id and box.
    placed: FxHashSet<u64>,
    /// Each cover: its native id and box.
    covers: FxHashSet<u64>,
}

impl SteadyCovers {
    /// Which covers of `tree` (a capture of `target`) to hold back: those that were in the
    /// last capture, rendered in the same place, and not covering then. Remembers `tree` as the
    /// last capture.
    pub(crate) fn held_back(&mut self, target: &TargetId, tree: &Tree) -> Vec<NodeId> {
        let mut now = Last::default();
        let mut held = Vec::new();
        let last = self.last.get(target);
        // The arena in memory order: a capture's tree as the backend sent it may share a
        // child or hold a cycle, which a walk would follow; a node not reachable is never shown.
        for id in (0..tree.arena_len()).map(|i| NodeId(i as u32)) {
            let n = tree.node(id);
            if n.flags.hidden {
                continue;
            }
            let key = placed(n);
            now.placed.insert(key);
            if !n.states.contains(State::Covering) {
                continue;
            }
            now.covers.insert(key);
            if last.is_some_and(|l| l.placed.contains(&key) && !l.covers.contains(&key)) {
                held.push(id);
            }
        }
        self.last.insert(target.clone(), now);
        held
    }

    /// Forgets a target (its tab closed).
    pub(crate) fn forget(&mut self, target: &TargetId) {
        self.last.remove(target);
    }
}

/// A node's native id and box, hashed: the box to the pixel, so that layout noise below one
/// does not make a node new.
fn placed(n: &Node) -> u64 {
    let mut h = FxBuildHasher.build_hasher();
    n.native.hash(&mut h);
    if let Some(b) = n.bounds {
        for v in [b.x, b.y, b.w, b.h] {
            (v.round() as i64).hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::role::Role;
    use crate::tree::{NativeId, Rect};

    /// A page with a footer (covering or not) at `footer_y`, and a menu when `menu`.
    fn page(covering: bool, footer_y: f64, menu: bool) -> (Tree, NodeId, Option<NodeId>) {
        let mut t = Tree::with_root(Node::new(Role::Document, "App", NativeId::new("d", "0")));
        let root = t.root().unwrap_or(NodeId(0));
        let mut footer = Node::new(Role::Generic, "", NativeId::new("d", "1"));
        footer.bounds = Some(Rect { x: 0.0, y: footer_y, w: 800.0, h: 30.0 });
        footer.states.set(State::Covering, covering);
        let footer = t.append(root, footer);
        let menu = menu.then(|| {
            let mut m = Node::new(Role::Menu, "", NativeId::new("d", "2"));
            m.bounds = Some(Rect { x: 10.0, y: 10.0, w: 100.0, h: 200.0 });
            m.states.set(State::Covering, true);
            t.append(root, m)
        });
        (t, footer, menu)
    }

    #[test]
    fn a_cover_in_place_says_so_from_its_second_capture() {
        let target = TargetId("t".into());
        let mut steady = SteadyCovers::default();
        let (t, _, _) = page(false, 570.0, false);
        assert!(steady.held_back(&target, &t).is_empty());
        let (t, footer, _) = page(true, 570.0, false);
        assert_eq!(steady.held_back(&target, &t), vec![footer], "first covering capture: held back");
        assert!(steady.held_back(&target, &t).is_empty(), "second: it holds");
        let (t, _, _) = page(false, 570.0, false);
        assert!(steady.held_back(&target, &t).is_empty());
        let (t, footer, _) = page(true, 570.0, false);
        assert_eq!(steady.held_back(&target, &t), vec![footer], "flapping back on: held back again");
    }

    #[test]
    fn what_appears_or_moves_into_place_says_so_at_once() {
        let target = TargetId("t".into());
        let mut steady = SteadyCovers::default();
        // The first capture of a target has nothing to hold against.
        let (t, _, _) = page(true, 570.0, false);
        assert!(steady.held_back(&target, &t).is_empty());
        let (t, _, _) = page(false, 570.0, false);
        steady.held_back(&target, &t);
        let (t, _, menu) = page(false, 570.0, true);
        assert!(menu.is_some());
        assert!(steady.held_back(&target, &t).is_empty(), "a menu that opened covers at once");
        let (t, _, _) = page(true, 400.0, false);
        assert!(steady.held_back(&target, &t).is_empty(), "a footer that moved is new there");
        // Another target's memory is its own.
        let (t, _, _) = page(true, 400.0, false);
        assert!(steady.held_back(&TargetId("u".into()), &t).is_empty());
    }

    #[test]
    fn a_hidden_node_is_no_node_in_place() {
        let target = TargetId("t".into());
        let mut steady = SteadyCovers::default();
        let (mut t, footer, _) = page(false, 570.0, false);
        t.node_mut(footer).flags.hidden = true;
        steady.held_back(&target, &t);
        let (t, _, _) = page(true, 570.0, false);
        assert!(steady.held_back(&target, &t).is_empty(), "shown where it was hidden: new");
    }
}
