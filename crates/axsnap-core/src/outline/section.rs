//! Sections: which nodes head one (a heading, or a small wrapper of one), and the section a
//! head's ref opens.

use crate::role::Role;
use crate::tree::{Node, NodeId, Tree};

use super::{bare, copy_subtree};

/// The level a heading counts as (no level: 2, a section heading).
pub(super) fn heading_level(n: &Node) -> u32 {
    n.level.unwrap_or(2).clamp(1, 6)
}

/// Most nodes a wrapper around a heading may hold and still head a section as the heading
/// would (rustdoc's method summary: a button holding the signature's heading, its version
/// badge and a "Source" link).
const HEAD_WRAPPER_NODES: usize = 16;

/// Most characters of names a wrapper heading a section may hold (a head is never folded, so
/// it must stay a line or a few).
const HEAD_WRAPPER_CHARS: usize = 400;

/// The level of the section `id` heads, if it heads one: a heading, or a small wrapper (at
/// most 16 nodes and 400 characters) whose content is mostly a heading (the highest level in it, at most three levels down). A
/// section runs over the siblings after its head up to the next head of its level or above.
pub fn section_level(tree: &Tree, id: NodeId) -> Option<u32> {
    let n = tree.get(id)?;
    if n.role == Role::Heading {
        return Some(heading_level(n));
    }
    if n.children.is_empty() {
        return None;
    }
    let mut level = None;
    let mut seen = 0;
    let mut chars = 0;
    let mut stack = vec![(id, 0usize)];
    while let Some((d, depth)) = stack.pop() {
        let m = tree.node(d);
        seen += 1;
        chars += m.name.len() + m.value.as_ref().map_or(0, String::len);
        if seen > HEAD_WRAPPER_NODES || chars > HEAD_WRAPPER_CHARS {
            return None;
        }
        if m.role == Role::Heading && d != id {
            let l = heading_level(m);
            level = Some(level.map_or(l, |x: u32| x.min(l)));
        }
        if depth < 3 {
            stack.extend(m.children.iter().map(|&c| (c, depth + 1)));
        } else if !m.children.is_empty() {
            return None;
        }
    }
    level
}

/// The section a heading (or a small wrapper of one, see [`section_level`]) opens, as a tree:
/// its parent (its line gives the context, `main [e3]`) holding the head and the siblings
/// after it, up to the next head of its level or above, each with everything under it. This
/// is exactly what an outline folds under the head. `None` when `heading` heads no section
/// or has no parent.
///
/// ```
/// use axsnap_core::{NativeId, Node, Role, Tree};
/// use axsnap_core::outline::section;
///
/// let n = |role, name: &str, id: &str| Node::new(role, name, NativeId::new("d", id));
/// let mut t = Tree::with_root(n(Role::Main, "", "m"));
/// let root = t.root().unwrap();
/// let h1 = t.append(root, Node { level: Some(2), ..n(Role::Heading, "Install", "h1") });
/// t.append(root, n(Role::Paragraph, "Run the installer.", "p1"));
/// t.append(root, Node { level: Some(2), ..n(Role::Heading, "Use", "h2") });
/// let s = section(&t, h1).unwrap();
/// assert_eq!(s.len(), 3); // main, the heading, its paragraph
/// ```
pub fn section(tree: &Tree, heading: NodeId) -> Option<Tree> {
    let level = section_level(tree, heading)?;
    let parent = tree.get(heading)?.parent?;
    let siblings = &tree.node(parent).children;
    let at = siblings.iter().position(|&c| c == heading)?;
    let mut out = Tree::with_root(bare(tree.node(parent)));
    let root = out.root()?;
    copy_subtree(tree, heading, &mut out, root);
    for &c in &siblings[at + 1..] {
        if section_level(tree, c).is_some_and(|l| l <= level) {
            break;
        }
        copy_subtree(tree, c, &mut out, root);
    }
    Some(out)
}
