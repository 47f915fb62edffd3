//! Two trees with refs from the input bytes: `apply(prev, diff(prev, next)) == next`. Then
//! hostile diffs: the real diff mangled op by op, and as JSON byte by byte, must apply or fail
//! with an error, never panic.
#![no_main]

use axsnap_core::diff::{apply, diff, Diff, FieldChange, NewNode, NewSubtree, Op};
use axsnap_core::{NativeId, Node, NodeId, Rect, Ref, Role, State, StateSet, Tree};
use libfuzzer_sys::fuzz_target;

#[path = "bytes.rs"]
mod bytes;
use bytes::Bytes;

const ROLES: [Role; 4] = [Role::Generic, Role::Button, Role::Link, Role::ListItem];

/// A node's content from one byte: few distinct values, so look-alikes abound.
fn content(b: u8, native: String) -> Node {
    let mut n = Node::new(
        ROLES[(b & 3) as usize].clone(),
        ["", "a", "b"][((b >> 2) % 3) as usize],
        NativeId::new("d", native),
    );
    if b & 0x10 != 0 {
        n.value = Some(format!("v{}", b >> 6));
    }
    if b & 0x20 != 0 {
        n.states = StateSet::EMPTY.with(State::Checked);
    }
    if b & 0x40 != 0 {
        n.bounds = Some(Rect { x: f64::from(b), y: 0.0, w: 1.0, h: 1.0 });
    }
    if b & 0x80 != 0 {
        n.flags.hidden = true;
    }
    n
}

/// Builds a tree of up to `max` nodes: each node picks an earlier node as parent (a pick of 0
/// means the latest, which makes chains), a content byte and a ref.
fn build(bytes: &mut Bytes, max: usize, mut pick_ref: impl FnMut(&mut Bytes, usize) -> u32) -> Tree {
    let count = 1 + bytes.small(max);
    let root_ref = pick_ref(bytes, 0);
    let mut root = content(bytes.byte(), format!("{root_ref}"));
    root.ref_id = Some(Ref(root_ref));
    let mut t = Tree::with_root(root);
    let mut ids: Vec<NodeId> = vec![t.root().unwrap_or(NodeId(0))];
    for k in 1..count {
        let sel = bytes.byte() as usize;
        let parent = if sel < 96 { ids[ids.len() - 1] } else { ids[sel % ids.len()] };
        let r = pick_ref(bytes, k);
        let mut n = content(bytes.byte(), format!("{r}"));
        n.ref_id = Some(Ref(r));
        ids.push(t.append(parent, n));
    }
    t
}

/// Mangles one op of `d`, driven by the bytes.
fn mangle(d: &mut Diff, bytes: &mut Bytes, refs: u32) {
    let n = d.ops.len();
    let r = |b: &mut Bytes| Ref(b.byte() as u32 % refs.max(1));
    match bytes.byte() % 8 {
        0 if n > 1 => {
            let (i, j) = (bytes.small(n), bytes.small(n));
            d.ops.swap(i, j);
        }
        1 if n > 0 => {
            d.ops.remove(bytes.small(n));
        }
        2 if n > 0 => {
            let i = bytes.small(n);
            let op = d.ops[i].clone();
            d.ops.insert(bytes.small(n + 1), op);
        }
        3 => d.ops.push(Op::Remove { r: r(bytes) }),
        4 => d.ops.push(Op::Move { r: r(bytes), parent: r(bytes), after: Some(r(bytes)) }),
        5 => {
            let depth = bytes.byte() as u32 % 3;
            let mut node = content(bytes.byte(), "z".into());
            node.ref_id = Some(r(bytes));
            let subtree =
                NewSubtree { nodes: vec![NewNode { depth: 0, node: node.clone() }, NewNode { depth, node }] };
            d.ops.push(Op::Add { parent: r(bytes), after: None, subtree });
        }
        6 if n > 0 => {
            let i = bytes.small(n);
            match &mut d.ops[i] {
                Op::Add { parent, after, .. } => {
                    *parent = r(bytes);
                    *after = Some(r(bytes));
                }
                Op::Remove { r: x } | Op::Update { r: x, .. } | Op::Replace { r: x, .. } => *x = r(bytes),
                Op::Move { r: x, parent, .. } => {
                    *x = r(bytes);
                    *parent = r(bytes);
                }
            }
        }
        _ => d.ops.push(Op::Update {
            r: r(bytes),
            changes: vec![FieldChange::Name { old: "a".into(), new: "b".into() }],
        }),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let max = if bytes.byte() & 1 == 0 { 24 } else { 250 };
    // prev: refs 0..count, root 0.
    let prev = build(&mut bytes, max, |_, k| k as u32);
    let prev_len = prev.len() as u32;
    // next: the root keeps ref 0; each other node takes an unused prev ref or a fresh one.
    let mut used = vec![false; prev_len as usize];
    let mut fresh = prev_len;
    let next = build(&mut bytes, max, |b, k| {
        if k == 0 {
            used[0] = true;
            return 0;
        }
        let sel = b.byte() as usize;
        if sel < 160 {
            let want = sel % used.len();
            if !used[want] {
                used[want] = true;
                return want as u32;
            }
        }
        fresh += 1;
        fresh
    });

    let d = diff(&prev, &next).expect("trees with unique refs and one root ref diff");
    let back = apply(&prev, &d).expect("a diff applies to the tree it was made from");
    assert!(back == next, "apply(prev, diff(prev, next)) != next: {d:?}");
    let rev = diff(&next, &prev).expect("reverse diff");
    assert!(apply(&next, &rev).expect("reverse applies") == prev);

    // Hostile diffs: never a panic.
    let refs = fresh + 2;
    let mut bad = d.clone();
    while bytes.left() > 0 && bytes.byte() & 1 == 1 {
        mangle(&mut bad, &mut bytes, refs);
        let _ = apply(&prev, &bad);
        let _ = apply(&next, &bad);
    }
    if let Ok(mut json) = serde_json::to_vec(&d) {
        while bytes.left() >= 2 && !json.is_empty() {
            let at = bytes.small(json.len().min(256)) * json.len() / json.len().min(256).max(1);
            let at = at.min(json.len() - 1);
            json[at] = bytes.byte();
        }
        if let Ok(hostile) = serde_json::from_slice::<Diff>(&json) {
            let _ = apply(&prev, &hostile);
        }
    }
});
