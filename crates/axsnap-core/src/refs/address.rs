//! Links told apart by their whole address: role, name and URL with its query.
//!
//! The structural keys (module `keys`) leave a link's query out, because sites rewrite it with
//! every page's state, and a link should keep its ref when they do. But some look-alikes differ
//! only there: Django's change-list filters are three lists of the same `All`, `Yes`, `No`
//! links, under unnamed wrappers, whose URLs differ only in the query
//! (`?is_staff__exact=1`, `?is_superuser__exact=1`, ...). No key tells them apart, so on a
//! reload each got a new ref.
//!
//! A link whose role, name and whole URL no other node of its capture had, matched to the one
//! node of the new capture that has them, is the same link: the same words leading to the same
//! place, and nothing else on either page alike. Two links with one address on either side
//! match nothing (Django's three `All` links, all `?`); a link whose name or query changed is
//! not matched here (other keys may still match it). A matched link's list is then matched by
//! its contents and the list's other items by their keys (module `matching`).

use std::hash::Hash;

use super::keys::{Fast128, Key, KeyMap};
use crate::role::Role;
use crate::tree::{Node, NodeId, Tree};

/// The address key of a link: role, name and whole URL (`None` for anything else).
pub(super) fn key(node: &Node) -> Option<Key> {
    if node.role != Role::Link {
        return None;
    }
    let url = node.url.as_deref()?;
    let mut h = Fast128::default();
    node.role.hash(&mut h);
    node.name.hash(&mut h);
    url.hash(&mut h);
    Some(h.finish128())
}

/// The address keys of `order`'s links, each with its one node, or `None` when several nodes
/// share it.
pub(super) fn unique(tree: &Tree, order: impl Iterator<Item = NodeId>) -> KeyMap<Option<NodeId>> {
    let mut out: KeyMap<Option<NodeId>> = KeyMap::default();
    for id in order {
        if let Some(k) = key(tree.node(id)) {
            out.entry(k).and_modify(|e| *e = None).or_insert(Some(id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::NativeId;

    fn link(name: &str, url: &str, id: &str) -> Node {
        let mut n = Node::new(Role::Link, name, NativeId::new("d", id));
        n.url = Some(url.into());
        n
    }

    #[test]
    fn a_query_tells_links_apart_and_a_shared_address_matches_nothing() {
        let mut t = Tree::with_root(Node::new(Role::Document, "", NativeId::new("d", "0")));
        let root = t.root().unwrap();
        let yes_staff = t.append(root, link("Yes", "/u/?is_staff__exact=1", "1"));
        let yes_super = t.append(root, link("Yes", "/u/?is_superuser__exact=1", "2"));
        let all_a = t.append(root, link("All", "/u/?", "3"));
        let all_b = t.append(root, link("All", "/u/?", "4"));
        let order: Vec<NodeId> = t.preorder().map(|(id, _)| id).collect();
        let u = unique(&t, order.into_iter());
        let of = |id: NodeId| key(t.node(id)).and_then(|k| u.get(&k).copied().flatten());
        assert_eq!(of(yes_staff), Some(yes_staff));
        assert_eq!(of(yes_super), Some(yes_super));
        assert_eq!((of(all_a), of(all_b)), (None, None));
        // Not a link: no address.
        assert_eq!(key(t.node(root)), None);
    }
}
