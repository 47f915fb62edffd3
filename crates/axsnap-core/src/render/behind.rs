//! What a modal dialog hides: while one covers the page, the parts of the page under it are
//! one line each run (`… 26 elements behind the dialog "Welcome to the block editor"`), not
//! a line per element marked `[obscured]` that nothing can act on until the dialog closes.
//!
//! A part is behind when something in it is marked covered ([`State::Obscured`]) or lies
//! outside the viewport ([`State::Offscreen`]: the page cannot be scrolled to it while the
//! dialog is open), nothing in it an agent could act on is in view and uncovered, and it holds
//! no cover; nothing in the dialog is. The count is of what could be acted on. Only a cover
//! that is or holds a modal dialog folds: an open menu covers a corner, and the page beside it
//! stays usable. The tree
//! is not changed, so closing the dialog is a diff of the cover and one line for what it
//! uncovered, not the page added again.

use super::line::ref_worthy;
use crate::role::Role;
use crate::state::State;
use crate::tree::{NodeId, Tree};

/// Per node of a tree a modal dialog covers: how many elements to act on a part behind it
/// holds.
pub(super) struct Behind {
    /// By arena index: `Some(elements to act on)` for a part behind the dialog.
    count: Vec<Option<u32>>,
    /// The dialog's line: `the dialog "Welcome"`.
    dialog: String,
}

/// The refs of what a modal dialog hides in `tree`'s text form (module doc): the elements to
/// act on in the parts behind it, in document order; empty when nothing is folded.
pub(super) fn hidden_refs(tree: &Tree) -> Vec<crate::refs::Ref> {
    let Some(b) = Behind::of(tree) else { return Vec::new() };
    let mut out = Vec::new();
    let mut stack: Vec<(NodeId, bool)> = tree.root().map(|r| (r, false)).into_iter().collect();
    while let Some((id, under)) = stack.pop() {
        let n = tree.node(id);
        let under = under || b.folded(id).is_some();
        if under && n.ref_id.is_some() && !n.actions.is_empty() {
            out.extend(n.ref_id);
        }
        stack.extend(n.children.iter().rev().map(|&c| (c, under)));
    }
    out
}

/// Facts of a subtree, folded up from its children.
#[derive(Clone, Copy, Default)]
struct Part {
    covered: bool,
    open: bool,
    cover: bool,
    refs: u32,
}

impl Behind {
    /// The parts of `tree` behind its modal dialog, or `None` when no cover holds one.
    pub(super) fn of(tree: &Tree) -> Option<Behind> {
        let pre: Vec<NodeId> = tree.preorder().map(|(id, _)| id).collect();
        let found = pre.iter().copied().find(|&id| {
            let n = tree.node(id);
            matches!(n.role, Role::Dialog | Role::AlertDialog) && n.states.contains(State::Modal)
        })?;
        let dialog = tree.node(found);
        // The dialog must be drawn over the page: it or an ancestor is a cover.
        let mut at = Some(found);
        let mut covering = false;
        while let Some(id) = at {
            covering |= tree.node(id).states.contains(State::Covering);
            at = tree.node(id).parent;
        }
        if !covering {
            return None;
        }
        let mut parts = vec![Part::default(); tree.arena_len()];
        for &id in pre.iter().rev() {
            let n = tree.node(id);
            let holds_more = n.children.iter().any(|c| tree.node(*c).role == Role::More);
            // What an agent could act on (a landmark's ref is for scoping: it is behind when
            // its contents are).
            let acts = n.ref_id.is_some() && ref_worthy(n, holds_more) && !n.actions.is_empty();
            // Below or beside the viewport is behind the dialog too: the page cannot be
            // scrolled to it or used while the dialog is open (a long page under a cookie
            // dialog was a 43,000-token outline of what nothing could reach).
            let away = n.states.contains(State::Obscured) || n.states.contains(State::Offscreen);
            let mut p = Part {
                covered: away,
                open: acts && !away,
                cover: n.states.contains(State::Covering),
                refs: u32::from(acts),
            };
            for c in &n.children {
                let k = parts[c.index()];
                p.covered |= k.covered;
                p.open |= k.open;
                p.cover |= k.cover;
                p.refs = p.refs.saturating_add(k.refs);
            }
            parts[id.index()] = p;
        }
        let mut count: Vec<Option<u32>> =
            parts.iter().map(|p| (p.covered && !p.open && !p.cover).then_some(p.refs)).collect();
        // The dialog's own parts are what the agent acts on, in view or scrolled in it.
        for id in tree.subtree(found) {
            count[id.index()] = None;
        }
        let dialog = match dialog.name.as_str() {
            "" => "the dialog".to_string(),
            name => {
                let mut s = "the dialog ".to_string();
                super::line::push_quoted(&mut s, &super::bound::text(name));
                s
            }
        };
        Some(Behind { count, dialog })
    }

    /// Whether any part is behind the dialog.
    pub(super) fn folds_any(&self) -> bool {
        self.count.iter().any(Option::is_some)
    }

    /// How many elements to act on `id`'s part holds, when it is behind the dialog.
    pub(super) fn folded(&self, id: NodeId) -> Option<u32> {
        self.count.get(id.index()).copied().flatten()
    }

    /// The line that stands for a run of parts behind the dialog.
    pub(super) fn line(&self, refs: u32) -> String {
        match refs {
            0 => format!("… more of the page behind {}", self.dialog),
            1 => format!("… 1 element behind {}", self.dialog),
            n => format!("… {} elements behind {}", crate::caps::thousands(n as usize), self.dialog),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refs::Ref;
    use crate::state::Action;
    use crate::{NativeId, Node};

    fn node(role: Role, name: &str, id: u32, states: &[State]) -> Node {
        let click = role == Role::Button;
        let mut n = Node::new(role, name, NativeId::new("d", id.to_string()));
        n.ref_id = Some(Ref(id));
        n.actions.set(Action::Click, click);
        for s in states {
            n.states.set(*s, true);
        }
        n
    }

    #[test]
    fn only_parts_wholly_under_a_modal_dialog_fold() {
        let mut t = Tree::with_root(node(Role::Document, "Editor", 1, &[]));
        let root = t.root().unwrap();
        let bar = t.append(root, node(Role::Toolbar, "", 2, &[]));
        t.append(bar, node(Role::Button, "Undo", 3, &[State::Obscured]));
        t.append(bar, node(Role::Button, "Redo", 4, &[State::Obscured]));
        let mixed = t.append(root, node(Role::Group, "", 5, &[]));
        t.append(mixed, node(Role::Button, "Help", 6, &[]));
        t.append(mixed, node(Role::Button, "Save", 7, &[State::Obscured]));
        let text = t.append(root, node(Role::Text, "Draft", 8, &[]));
        let cover = t.append(root, node(Role::Generic, "", 9, &[State::Covering]));
        let dialog = t.append(cover, node(Role::Dialog, "Welcome", 10, &[State::Modal]));
        t.append(dialog, node(Role::Button, "Close", 11, &[]));
        let b = Behind::of(&t).unwrap();
        assert_eq!(b.folded(bar), Some(2));
        assert_eq!(b.folded(mixed), None, "Help is not covered");
        assert_eq!(b.folded(text), None, "nothing in it is covered");
        assert_eq!(b.folded(cover), None);
        assert_eq!(b.line(2), "… 2 elements behind the dialog \"Welcome\"");
        assert_eq!(b.line(3_000), "… 3,000 elements behind the dialog \"Welcome\"");
        assert_eq!(b.line(0), "… more of the page behind the dialog \"Welcome\"");
        // Below the viewport is behind too, text alone included; the dialog's own parts
        // scrolled out of view are not.
        let below = t.append(root, node(Role::Group, "", 12, &[]));
        t.append(below, node(Role::Button, "Next page", 13, &[State::Offscreen]));
        let note = t.append(root, node(Role::Text, "Footer note", 14, &[State::Offscreen]));
        let late = t.append(dialog, node(Role::Button, "Accept all", 15, &[State::Offscreen]));
        let b = Behind::of(&t).unwrap();
        assert_eq!(b.folded(below), Some(1));
        assert_eq!(b.folded(note), Some(0));
        assert_eq!(b.folded(late), None, "the dialog's own button");
        assert_eq!(b.folded(dialog), None);
        // A dialog that is not modal, or not drawn over the page, folds nothing.
        t.node_mut(dialog).states.set(State::Modal, false);
        assert!(Behind::of(&t).is_none());
        t.node_mut(dialog).states.set(State::Modal, true);
        t.node_mut(cover).states.set(State::Covering, false);
        assert!(Behind::of(&t).is_none());
    }
}
