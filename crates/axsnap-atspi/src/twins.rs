//! A window's menu bar shown once. LibreOffice with its GTK 3 plugin (Debian's
//! `libreoffice-gtk3`) exposes its menu bar twice over AT-SPI: GTK's native menu bar, which
//! opens its menus on a click, and VCL's own under the frame's root pane, with the same items
//! in the same order. The same menus twice would cost an agent every item twice and leave it
//! to guess which one works; the first in document order (GTK's) is kept, and a later menu bar
//! whose items read the same is left out of the capture.

use axsnap_core::{NodeId, Role, Tree};

/// Leaves out every menu bar whose items' names are, in order, those of an earlier one in the
/// tree (at least two items: an empty or one-item bar says too little to call it a twin).
/// Returns how many it left out. One pass over the tree; no recursion.
pub fn drop_twin_menu_bars(tree: &mut Tree) -> usize {
    let mut seen: Vec<Vec<String>> = Vec::new();
    let mut twins: Vec<NodeId> = Vec::new();
    for (id, _) in tree.preorder() {
        let node = tree.node(id);
        if node.role != Role::MenuBar {
            continue;
        }
        let items: Vec<String> =
            node.children.iter().map(|c| tree.node(*c).name.trim().to_string()).collect();
        if items.len() < 2 || items.iter().any(String::is_empty) {
            continue;
        }
        if seen.contains(&items) {
            twins.push(id);
        } else {
            seen.push(items);
        }
    }
    for id in &twins {
        tree.detach(*id);
    }
    twins.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axsnap_core::{NativeId, Node};

    fn bar(tree: &mut Tree, under: NodeId, id: &str, items: &[&str]) -> NodeId {
        let b = tree.append(under, Node::new(Role::MenuBar, "", NativeId::new("app", id)));
        for (k, name) in items.iter().enumerate() {
            tree.append(b, Node::new(Role::MenuItem, *name, NativeId::new("app", format!("{id}-{k}"))));
        }
        b
    }

    #[test]
    fn the_later_of_two_menu_bars_with_the_same_items_goes() {
        // As LibreOffice Calc 7.4 shows it: GTK's bar under the window, VCL's under the frame.
        let mut tree = Tree::with_root(Node::new(Role::Window, "Untitled 1", NativeId::new("app", "w")));
        let root = tree.root().unwrap();
        let gtk = bar(&mut tree, root, "gtk", &["File", "Edit", "View", "Help"]);
        let frame = tree.append(root, Node::new(Role::Generic, "Untitled 1", NativeId::new("app", "f")));
        let vcl = bar(&mut tree, frame, "vcl", &["File", "Edit", "View", "Help"]);
        // A bar with other items, and a one-item bar repeated, stay.
        let other = bar(&mut tree, frame, "other", &["File", "Edit"]);
        let one = bar(&mut tree, frame, "one", &["Help"]);
        let one_again = bar(&mut tree, frame, "one2", &["Help"]);
        assert_eq!(drop_twin_menu_bars(&mut tree), 1);
        let kept: Vec<NodeId> = tree.preorder().map(|(id, _)| id).collect();
        assert!(kept.contains(&gtk) && !kept.contains(&vcl), "the first is kept");
        for id in [other, one, one_again] {
            assert!(kept.contains(&id));
        }
        assert_eq!(drop_twin_menu_bars(&mut tree), 0);
    }
}
