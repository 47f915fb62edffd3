//! Property tests of diff/apply: on random trees and random edit scripts,
//! `apply(prev, diff(prev, next)) == next`, and the ops are well-formed.
//!
//! Cases: `AXSNAP_PROPTEST_CASES` (default 10,000). Long run:
//! `AXSNAP_PROPTEST_CASES=1000000 cargo test --release -p axsnap-core --test diff_props`.

use std::collections::{HashMap, HashSet};

use axsnap_core::diff::{apply, diff, Diff, Op};
use axsnap_core::{NativeId, Node, NodeId, Ref, Role, State, StateSet, Tree, ValueRange};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("AXSNAP_PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(10_000)
}

const ROLES: [Role; 5] = [Role::Generic, Role::Button, Role::Link, Role::ListItem, Role::Heading];
const NAMES: [&str; 4] = ["", "item", "Save", "x"];

/// Content of a node from a few random bits, so look-alike siblings are common.
fn content(bits: u32) -> (Role, String, Option<String>, StateSet) {
    let role = ROLES[(bits % 5) as usize].clone();
    let name = NAMES[((bits >> 3) % 4) as usize].to_string();
    let value = ((bits >> 5) % 3 == 0).then(|| format!("v{}", (bits >> 7) % 3));
    let mut states = StateSet::EMPTY;
    if (bits >> 9) % 4 == 0 {
        states.set(State::Checked, true);
    }
    (role, name, value, states)
}

/// Builds a tree and mints refs: each node a unique ref and a unique native id.
struct Builder {
    next_ref: u32,
}

impl Builder {
    fn node(&mut self, bits: u32) -> Node {
        let (role, name, value, states) = content(bits);
        let r = self.next_ref;
        self.next_ref += 1;
        let mut n = Node::new(role, name, NativeId::new("doc", format!("n{r}")));
        // Some carry a range, so that ranges are diffed and applied too.
        n.range = ((bits >> 11) % 4 == 0).then(|| ValueRange {
            min: 0.0,
            max: f64::from((bits >> 13) % 3),
            step: None,
        });
        n.value = value;
        n.states = states;
        n.ref_id = Some(Ref(r));
        n
    }
}

/// A tree shape.
#[derive(Clone, Debug)]
enum Shape {
    /// Node k+1 hangs under an earlier node picked by the k-th number.
    Random(Vec<(u32, u32)>),
    /// A chain `depth` deep with a few side leaves.
    Chain(u32),
    /// A root with `n` look-alike children, some with a child of their own.
    Wide(u32),
}

fn shape() -> impl Strategy<Value = Shape> {
    prop_oneof![
        30 => prop::collection::vec((any::<u32>(), any::<u32>()), 0..40).prop_map(Shape::Random),
        1 => (1000u32..1300).prop_map(Shape::Chain),
        3 => (2u32..60).prop_map(Shape::Wide),
    ]
}

fn build(shape: &Shape, b: &mut Builder) -> Tree {
    let mut t = Tree::with_root(b.node(0));
    let root = t.root().unwrap();
    match shape {
        Shape::Random(picks) => {
            let mut ids = vec![root];
            for (pick, bits) in picks {
                // Bias towards recent nodes so depth grows, not just width.
                let k = ids.len() as u32;
                let at = if pick % 3 == 0 { k - 1 - (pick / 3) % k.min(4) } else { pick % k };
                let id = t.append(ids[at as usize], b.node(*bits));
                ids.push(id);
            }
        }
        Shape::Chain(depth) => {
            let mut p = root;
            for i in 0..*depth {
                p = t.append(p, b.node(i % 7));
                if i % 97 == 0 {
                    t.append(p, b.node(3));
                }
            }
        }
        Shape::Wide(n) => {
            for i in 0..*n {
                let c = t.append(root, b.node(3 << 3)); // all "listitem item"
                if i % 5 == 0 {
                    t.append(c, b.node(1));
                }
            }
        }
    }
    t
}

/// One edit of the next tree. Numbers pick nodes modulo the current node count.
#[derive(Clone, Debug)]
enum Edit {
    Insert { at: u32, pos: u32, size: u8, bits: u32 },
    Delete { at: u32 },
    Rename { at: u32, name: u8 },
    SetValue { at: u32, value: Option<u8> },
    ToggleState { at: u32 },
    Move { at: u32, to: u32, pos: u32 },
    Reorder { at: u32, rotate: u32 },
    Reverse { at: u32 },
    ReplaceSubtree { at: u32 },
    NativeChange { at: u32 },
    Wrap { at: u32 },
    Unwrap { at: u32 },
}

fn edit() -> impl Strategy<Value = Edit> {
    let n = any::<u32>;
    prop_oneof![
        (n(), n(), 1u8..5, n()).prop_map(|(at, pos, size, bits)| Edit::Insert { at, pos, size, bits }),
        n().prop_map(|at| Edit::Delete { at }),
        (n(), 0u8..4).prop_map(|(at, name)| Edit::Rename { at, name }),
        (n(), prop::option::of(0u8..3)).prop_map(|(at, value)| Edit::SetValue { at, value }),
        n().prop_map(|at| Edit::ToggleState { at }),
        (n(), n(), n()).prop_map(|(at, to, pos)| Edit::Move { at, to, pos }),
        (n(), n()).prop_map(|(at, rotate)| Edit::Reorder { at, rotate }),
        n().prop_map(|at| Edit::Reverse { at }),
        n().prop_map(|at| Edit::ReplaceSubtree { at }),
        n().prop_map(|at| Edit::NativeChange { at }),
        n().prop_map(|at| Edit::Wrap { at }),
        n().prop_map(|at| Edit::Unwrap { at }),
    ]
}

fn nodes(t: &Tree) -> Vec<NodeId> {
    t.preorder().map(|(id, _)| id).collect()
}

fn pick(t: &Tree, sel: u32, non_root: bool) -> Option<NodeId> {
    let all = nodes(t);
    let skip = usize::from(non_root);
    (all.len() > skip).then(|| all[skip + sel as usize % (all.len() - skip)])
}

fn index_in_parent(t: &Tree, id: NodeId) -> Option<usize> {
    let p = t.node(id).parent?;
    t.node(p).children.iter().position(|c| *c == id)
}

fn is_under(t: &Tree, node: NodeId, ancestor: NodeId) -> bool {
    node == ancestor || t.ancestors(node).any(|a| a == ancestor)
}

fn run_edit(t: &mut Tree, e: &Edit, b: &mut Builder) {
    match *e {
        Edit::Insert { at, pos, size, bits } => {
            let Some(p) = pick(t, at, false) else { return };
            let idx = pos as usize % (t.node(p).children.len() + 1);
            let top = t.push(b.node(bits));
            t.attach(p, top, Some(idx));
            let mut last = top;
            for k in 1..size {
                last = t.append(if k % 2 == 0 { top } else { last }, b.node(bits.rotate_left(k.into())));
            }
        }
        Edit::Delete { at } => {
            if let Some(x) = pick(t, at, true) {
                t.detach(x);
            }
        }
        Edit::Rename { at, name } => {
            if let Some(x) = pick(t, at, false) {
                t.node_mut(x).name = format!("renamed{name}");
            }
        }
        Edit::SetValue { at, value } => {
            if let Some(x) = pick(t, at, false) {
                t.node_mut(x).value = value.map(|v| format!("typed{v}"));
                // A ranged control's bounds move with what is typed in some apps.
                t.node_mut(x).range =
                    value.map(|v| ValueRange { min: 0.0, max: f64::from(v) + 1.0, step: Some(0.5) });
            }
        }
        Edit::ToggleState { at } => {
            if let Some(x) = pick(t, at, false) {
                let s = &mut t.node_mut(x).states;
                s.set(State::Focused, !s.contains(State::Focused));
            }
        }
        Edit::Move { at, to, pos } => {
            let (Some(x), Some(p)) = (pick(t, at, true), pick(t, to, false)) else { return };
            if is_under(t, p, x) {
                return;
            }
            t.detach(x);
            let idx = pos as usize % (t.node(p).children.len() + 1);
            t.attach(p, x, Some(idx));
        }
        Edit::Reorder { at, rotate } => {
            if let Some(x) = pick(t, at, false) {
                let kids = &mut t.node_mut(x).children;
                if !kids.is_empty() {
                    let k = rotate as usize % kids.len();
                    kids.rotate_left(k);
                }
            }
        }
        Edit::Reverse { at } => {
            if let Some(x) = pick(t, at, false) {
                t.node_mut(x).children.reverse();
            }
        }
        Edit::ReplaceSubtree { at } => {
            // Same shape and content, all new refs and native ids: a re-rendered subtree.
            if let Some(x) = pick(t, at, true) {
                for id in t.subtree(x) {
                    let fresh = b.node(0);
                    let n = t.node_mut(id);
                    n.ref_id = fresh.ref_id;
                    n.native = fresh.native;
                }
            }
        }
        Edit::NativeChange { at } => {
            if let Some(x) = pick(t, at, false) {
                let n = t.node_mut(x);
                n.native = NativeId::new("doc2", format!("{}-churned", n.native.id));
            }
        }
        Edit::Wrap { at } => {
            let Some(x) = pick(t, at, true) else { return };
            let (Some(p), Some(idx)) = (t.node(x).parent, index_in_parent(t, x)) else { return };
            t.detach(x);
            let w = t.push(b.node(0));
            t.attach(p, w, Some(idx));
            t.attach(w, x, None);
        }
        Edit::Unwrap { at } => {
            let Some(x) = pick(t, at, true) else { return };
            let (Some(p), Some(idx)) = (t.node(x).parent, index_in_parent(t, x)) else { return };
            let kids = t.node(x).children.clone();
            t.detach(x);
            for (k, c) in kids.into_iter().enumerate() {
                t.detach(c);
                t.attach(p, c, Some(idx + k));
            }
        }
    }
}

fn refs_of(t: &Tree) -> HashMap<Ref, usize> {
    t.preorder().enumerate().map(|(pos, (id, _))| (t.node(id).ref_id.unwrap(), pos)).collect()
}

/// Checks the diff's ops against both trees: each names nodes of the right kind, and all
/// but removes come in document order of `next`; `unchanged` counts what it should.
fn check_ops(prev: &Tree, next: &Tree, d: &Diff) -> Result<(), TestCaseError> {
    let (pr, nr) = (refs_of(prev), refs_of(next));
    let mut last_pos = 0usize;
    let mut touched: HashSet<Ref> = HashSet::new();
    for op in &d.ops {
        let at = match op {
            Op::Add { parent, after, subtree } => {
                prop_assert!(
                    nr.contains_key(parent) && pr.contains_key(parent),
                    "add under a non-kept {parent}"
                );
                if let Some(a) = after {
                    prop_assert!(nr.contains_key(a));
                }
                for n in &subtree.nodes {
                    let r = n.node.ref_id.unwrap();
                    prop_assert!(!pr.contains_key(&r), "add of {r}, which prev has");
                    prop_assert!(nr.contains_key(&r));
                }
                Some(nr[&subtree.nodes[0].node.ref_id.unwrap()])
            }
            Op::Remove { r } => {
                prop_assert!(pr.contains_key(r) && !nr.contains_key(r), "remove of {r}");
                None
            }
            Op::Update { r, changes } => {
                prop_assert!(pr.contains_key(r) && nr.contains_key(r));
                prop_assert!(!changes.is_empty());
                touched.insert(*r);
                Some(nr[r])
            }
            Op::Move { r, parent, .. } => {
                prop_assert!(pr.contains_key(r) && nr.contains_key(r) && nr.contains_key(parent));
                touched.insert(*r);
                Some(nr[r])
            }
            Op::Replace { r, subtree } => {
                prop_assert!(pr.contains_key(r));
                for n in &subtree.nodes {
                    let s = n.node.ref_id.unwrap();
                    prop_assert!(nr.contains_key(&s));
                    if pr.contains_key(&s) {
                        touched.insert(s);
                    }
                }
                Some(nr[&subtree.nodes[0].node.ref_id.unwrap()])
            }
        };
        if let Some(pos) = at {
            prop_assert!(pos >= last_pos, "ops out of document order: {op:?}");
            last_pos = pos;
        }
    }
    let kept = nr.keys().filter(|r| pr.contains_key(r)).count();
    prop_assert_eq!(d.unchanged, kept - touched.len());
    Ok(())
}

fn roundtrip(prev: &Tree, next: &Tree) -> Result<Diff, TestCaseError> {
    let d = diff(prev, next).map_err(|e| TestCaseError::fail(format!("diff failed: {e}")))?;
    let back = apply(prev, &d).map_err(|e| TestCaseError::fail(format!("apply failed: {e}\n{d:#?}")))?;
    prop_assert!(back == *next, "apply(prev, diff(prev, next)) != next\n{:#?}", d);
    check_ops(prev, next, &d)?;
    Ok(d)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn apply_of_diff_gives_next(shape in shape(), edits in prop::collection::vec(edit(), 0..12)) {
        let mut b = Builder { next_ref: 0 };
        let prev = build(&shape, &mut b);
        let mut next = prev.clone();
        for e in &edits {
            run_edit(&mut next, e, &mut b);
        }
        let next = next.compacted();
        let d = roundtrip(&prev, &next)?;
        if edits.is_empty() {
            prop_assert!(d.is_empty());
        }
        // The reverse direction holds too, and a JSON round trip changes nothing.
        roundtrip(&next, &prev)?;
        let json = serde_json::to_string(&d).unwrap();
        let again: Diff = serde_json::from_str(&json).unwrap();
        prop_assert!(apply(&prev, &again).unwrap() == next);
    }

    #[test]
    fn one_sibling_moved_is_one_move(n in 2usize..200, from in any::<usize>(), to in any::<usize>()) {
        let mut b = Builder { next_ref: 0 };
        let prev = build(&Shape::Wide(n as u32), &mut b);
        let mut next = prev.clone();
        let root = next.root().unwrap();
        let kids = &mut next.node_mut(root).children;
        let x = kids.remove(from % n);
        kids.insert(to % n, x);
        let d = roundtrip(&prev, &next)?;
        prop_assert_eq!(d.ops.len(), usize::from(from % n != to % n));
    }
}

/// Ad hoc timing on 100,000-node trees with a 1% edit (run in release:
/// `cargo test --release -p axsnap-core --test diff_props -- --ignored --nocapture timing`).
#[test]
#[ignore]
fn timing_100k() {
    use std::time::Instant;
    let mut seed: u64 = 0x5eed;
    let mut rand = move |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) % n.max(1)) as u32
    };
    let shapes: Vec<(&str, Shape)> = vec![
        ("page-like", Shape::Random((0..99_999u32).map(|_| (rand(u64::MAX), rand(1 << 12))).collect())),
        ("chain", Shape::Chain(99_000)),
        ("wide", Shape::Wide(99_999)),
    ];
    for (label, shape) in shapes {
        let mut b = Builder { next_ref: 0 };
        let prev = build(&shape, &mut b);
        let mut next = prev.clone();
        let edits = prev.len() / 100;
        for k in 0..edits {
            let e = match k % 5 {
                0 => Edit::Rename { at: rand(1 << 31), name: 1 },
                1 => Edit::SetValue { at: rand(1 << 31), value: Some(2) },
                2 => Edit::Insert { at: rand(1 << 31), pos: rand(1 << 31), size: 2, bits: rand(1 << 12) },
                3 => Edit::Delete { at: rand(1 << 31) },
                _ => Edit::Move { at: rand(1 << 31), to: rand(1 << 31), pos: rand(1 << 31) },
            };
            run_edit(&mut next, &e, &mut b);
        }
        let next = next.compacted();
        let mut best = (f64::MAX, f64::MAX);
        let mut ops = 0;
        for _ in 0..5 {
            let t0 = Instant::now();
            let d = diff(&prev, &next).unwrap();
            let t1 = Instant::now();
            let back = apply(&prev, &d).unwrap();
            let t2 = Instant::now();
            assert!(back == next);
            ops = d.ops.len();
            best.0 = best.0.min((t1 - t0).as_secs_f64() * 1e3);
            best.1 = best.1.min((t2 - t1).as_secs_f64() * 1e3);
        }
        println!(
            "{label}: {} -> {} nodes, {edits} edits, {ops} ops: diff {:.1} ms, apply {:.1} ms",
            prev.len(),
            next.len(),
            best.0,
            best.1
        );
    }
}
