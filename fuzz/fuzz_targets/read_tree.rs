//! Any bytes into `interchange::read_tree`: an error or a tree, never a panic. A tree that is
//! read is then given refs and diffed against itself: the diff is empty and applies back.
#![no_main]

use axsnap_core::diff::{apply, diff};
use axsnap_core::interchange::{read_tree, ReadLimits};
use axsnap_core::Ref;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let limits = ReadLimits { max_bytes: 1 << 20, max_nodes: 20_000 };
    let Ok(rec) = read_tree(data, &limits) else { return };
    let mut tree = rec.tree;
    let ids: Vec<_> = tree.preorder().map(|(id, _)| id).collect();
    for (k, id) in ids.into_iter().enumerate() {
        tree.node_mut(id).ref_id = Some(Ref(k as u32));
    }
    let d = diff(&tree, &tree).expect("a tree with refs diffs against itself");
    assert!(d.is_empty(), "self-diff not empty: {d:?}");
    assert!(apply(&tree, &d).expect("empty diff applies") == tree);
});
