//! Refs of made-up nodes that follow the node they are named after.
//!
//! A projection makes up a few nodes that stand for no element (a loose sentence's paragraph)
//! and names each after its first child ([`NativeId::derived`]), so the same sentence keeps
//! its ref from one capture to the next. When the page's document is replaced by an equal one
//! (a reload), the child's ref is carried to its new native id by structure; the made-up node
//! follows it here, or it would read as removed and added again around kept content.
//!
//! Only a node whose id is derived from its own first child's, and only when that child's ref
//! was carried in this refresh from the id the old node was derived from, takes the old ref:
//! the same rule that kept the child keeps its made-up parent.

use std::collections::HashMap;

use super::Ref;
use crate::tree::{NativeId, NodeId, Tree};

/// The made-up nodes of `projected` (in `order`, holding no ref yet in `refs`) whose first
/// child moved from an old native id to its new one (`moved`: new -> old), each with the
/// native id its old self held: `(position in order, old native id)`.
pub(super) fn followers(
    projected: &Tree,
    order: &[NodeId],
    refs: &[Option<Ref>],
    moved: &HashMap<NativeId, NativeId>,
) -> Vec<(usize, NativeId)> {
    let mut out = Vec::new();
    if moved.is_empty() {
        return out;
    }
    for (k, (&id, known)) in order.iter().zip(refs).enumerate() {
        if known.is_some() {
            continue;
        }
        let node = projected.node(id);
        let Some(&first) = node.children.first() else { continue };
        let base = &projected.node(first).native;
        let (Some(kind), Some(old_base)) = (node.native.derived_kind(base), moved.get(base)) else {
            continue;
        };
        out.push((k, NativeId::derived(&node.native.scope, kind, old_base)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Node, Role};

    #[test]
    fn a_made_up_node_follows_its_first_child_only() {
        let (old, new) = (NativeId::new("doc1", "7"), NativeId::new("doc2", "9"));
        let mut t = Tree::with_root(Node::new(Role::Generic, "", NativeId::new("doc2", "1")));
        let root = t.root().unwrap();
        let para = t.append(root, Node::new(Role::Paragraph, "", NativeId::derived("syn", "sentence", &new)));
        t.append(para, Node::new(Role::Text, "Hi", new.clone()));
        // Named after another node than its first child: no follower.
        let other =
            t.append(root, Node::new(Role::Paragraph, "", NativeId::derived("syn", "sentence", &old)));
        t.append(other, Node::new(Role::Text, "Ho", NativeId::new("doc2", "3")));
        let order: Vec<NodeId> = t.preorder().map(|(id, _)| id).collect();
        let refs = vec![None; order.len()];
        let moved: HashMap<NativeId, NativeId> = [(new.clone(), old.clone())].into_iter().collect();
        let got = followers(&t, &order, &refs, &moved);
        assert_eq!(got, vec![(1, NativeId::derived("syn", "sentence", &old))]);
        // A node that already holds a ref keeps it.
        let mut held = refs.clone();
        held[1] = Some(Ref(4));
        assert!(followers(&t, &order, &held, &moved).is_empty());
    }
}
