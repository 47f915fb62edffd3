//! A heading's section: what `snapshot ref=<heading>` opens.

use crate::tree::{NodeId, Tree};

use super::{bare, copy_subtree, section_level};

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
