//! Unit tests of diff and apply: every op kind, every error.

use super::*;
use crate::tree::{NativeId, NodeId, Rect};
use crate::{Role, State};

/// A node with ref `r`, name `n<r>` and native id `<r>`.
fn node(r: u32) -> Node {
    let mut n = Node::new(Role::Generic, format!("n{r}"), NativeId::new("d", r.to_string()));
    n.ref_id = Some(Ref(r));
    n
}

/// Builds a tree from `1(2 3(4) 5)`: numbers are refs, parentheses hold children.
fn t(spec: &str) -> Tree {
    let mut tree = Tree::new();
    let mut stack: Vec<NodeId> = Vec::new();
    let mut last: Option<NodeId> = None;
    let mut num = String::new();
    let flush = |num: &mut String, tree: &mut Tree, stack: &[NodeId], last: &mut Option<NodeId>| {
        if num.is_empty() {
            return;
        }
        let n = node(num.parse().unwrap());
        num.clear();
        let id = match stack.last() {
            Some(p) => tree.append(*p, n),
            None => {
                let id = tree.push(n);
                tree.set_root(id);
                id
            }
        };
        *last = Some(id);
    };
    for ch in spec.chars() {
        match ch {
            '0'..='9' => num.push(ch),
            '(' => {
                flush(&mut num, &mut tree, &stack, &mut last);
                stack.push(last.unwrap());
            }
            ')' => {
                flush(&mut num, &mut tree, &stack, &mut last);
                stack.pop();
            }
            _ => flush(&mut num, &mut tree, &stack, &mut last),
        }
    }
    flush(&mut num, &mut tree, &stack, &mut last);
    tree
}

fn find(tree: &Tree, r: u32) -> NodeId {
    tree.preorder().map(|(id, _)| id).find(|id| tree.node(*id).ref_id == Some(Ref(r))).unwrap()
}

/// Diffs, checks the round trip (also through JSON), returns the diff.
fn check(prev: &Tree, next: &Tree) -> Diff {
    let d = diff(prev, next).unwrap();
    let back = apply(prev, &d).unwrap();
    assert!(back == *next, "apply(prev, diff) != next\ndiff: {d:#?}");
    let json = serde_json::to_string(&d).unwrap();
    let again: Diff = serde_json::from_str(&json).unwrap();
    assert_eq!(again, d);
    assert!(apply(prev, &again).unwrap() == *next);
    d
}

fn kinds(d: &Diff) -> Vec<String> {
    d.ops
        .iter()
        .map(|op| match op {
            Op::Add { parent, after, subtree } => format!(
                "add {} under {parent} after {} ({})",
                subtree.root().and_then(|n| n.ref_id).unwrap(),
                after.map(|a| a.to_string()).unwrap_or("-".into()),
                subtree.len()
            ),
            Op::Remove { r } => format!("remove {r}"),
            Op::Update { r, changes } => {
                format!("update {r} {}", changes.iter().map(|c| c.field()).collect::<Vec<_>>().join(","))
            }
            Op::Move { r, parent, after } => format!(
                "move {r} under {parent} after {}",
                after.map(|a| a.to_string()).unwrap_or("-".into())
            ),
            Op::Replace { r, subtree } => format!(
                "replace {r} by {} ({})",
                subtree.root().and_then(|n| n.ref_id).unwrap(),
                subtree.len()
            ),
        })
        .collect()
}

#[test]
fn identical_trees_give_no_ops() {
    let a = t("1(2 3(4) 5)");
    let d = check(&a, &a.clone());
    assert!(d.is_empty());
    assert_eq!(d.unchanged, 5);
}

#[test]
fn field_changes_are_updates() {
    let a = t("1(2 3(4) 5)");
    let mut b = a.clone();
    let n4 = find(&b, 4);
    b.node_mut(n4).name = "renamed".into();
    b.node_mut(n4).value = Some("v".into());
    b.node_mut(n4).states = b.node(n4).states.with(State::Checked);
    let n2 = find(&b, 2);
    b.node_mut(n2).native = NativeId::new("d2", "x");
    b.node_mut(n2).bounds = Some(Rect { x: 1.0, y: 2.0, w: 3.0, h: 4.0 });
    let n5 = find(&b, 5);
    b.node_mut(n5).role = Role::Button;
    b.node_mut(n5).flags.hidden = true;
    let d = check(&a, &b);
    assert_eq!(
        kinds(&d),
        vec!["update e2 bounds,native", "update e4 name,value,states", "update e5 role,flags"]
    );
    assert_eq!(d.unchanged, 2);
    match &d.ops[1] {
        Op::Update { changes, .. } => {
            assert_eq!(changes[0], FieldChange::Name { old: "n4".into(), new: "renamed".into() })
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn adds_say_where() {
    let d = check(&t("1(2 3)"), &t("1(6 2 7(8 9(10)) 3)"));
    assert_eq!(kinds(&d), vec!["add e6 under e1 after - (1)", "add e7 under e1 after e2 (4)"]);
    assert_eq!(d.unchanged, 3);
}

#[test]
fn add_under_new_node_carries_only_new_nodes() {
    // 3 is kept but moves under the new 7: the add carries 7 and 8, a move brings 3 in.
    let d = check(&t("1(2 3)"), &t("1(2 7(3 8))"));
    assert_eq!(kinds(&d), vec!["add e7 under e1 after e2 (2)", "move e3 under e7 after -"]);
}

#[test]
fn removes_are_one_op_per_topmost_node() {
    let d = check(&t("1(2(3 4) 5)"), &t("1(5)"));
    assert_eq!(kinds(&d), vec!["remove e2"]);
    assert_eq!(d.unchanged, 2);
}

#[test]
fn survivors_are_moved_out_before_their_ancestor_is_removed() {
    let d = check(&t("1(2(3(4)) 5)"), &t("1(5(4))"));
    assert_eq!(kinds(&d), vec!["move e4 under e5 after -", "remove e2"]);
    // The survivor comes later in document order than the removed node's place.
    let d = check(&t("1(2(3) 5 6)"), &t("1(5 6(3))"));
    assert_eq!(kinds(&d), vec!["move e3 under e6 after -", "remove e2"]);
}

#[test]
fn moves_across_parents() {
    let d = check(&t("1(2(3 4) 5(6))"), &t("1(2(4) 5(6 3))"));
    assert_eq!(kinds(&d), vec!["move e3 under e5 after e6"]);
    assert_eq!(d.unchanged, 5);
}

#[test]
fn one_reorder_is_one_move() {
    let d = check(&t("1(2 3 4 5 6)"), &t("1(6 2 3 4 5)"));
    assert_eq!(kinds(&d), vec!["move e6 under e1 after -"]);
    let d = check(&t("1(2 3 4 5 6)"), &t("1(2 3 5 6 4)"));
    assert_eq!(kinds(&d), vec!["move e4 under e1 after e6"]);
    let d = check(&t("1(2 3 4 5 6)"), &t("1(6 5 4 3 2)"));
    assert_eq!(d.ops.len(), 4);
}

#[test]
fn a_new_node_in_a_removed_nodes_place_replaces_it() {
    let d = check(&t("1(2 3 4)"), &t("1(2 9(10) 4)"));
    assert_eq!(kinds(&d), vec!["replace e3 by e9 (2)"]);
    // First child too.
    let d = check(&t("1(2 3)"), &t("1(9 3)"));
    assert_eq!(kinds(&d), vec!["replace e2 by e9 (1)"]);
    // Not when the removed node had a survivor inside.
    let d = check(&t("1(2 3(5) 4)"), &t("1(2 9 4 5)"));
    assert_eq!(kinds(&d), vec!["add e9 under e1 after e2 (1)", "move e5 under e1 after e4", "remove e3"]);
}

#[test]
fn a_mostly_new_subtree_is_replaced_keeping_its_ref() {
    let prev = t("1(2 3(4 5 6 7) 8)");
    let mut next = t("1(2 3(10 11 12 13 4) 8)");
    let n3 = find(&next, 3);
    next.node_mut(n3).name = "list".into();
    let d = check(&prev, &next);
    assert_eq!(kinds(&d), vec!["replace e3 by e3 (6)"]);
    assert_eq!(d.unchanged, 3);
    // A few changes in a big subtree stay fine-grained.
    let d = check(&t("1(2 3(4 5 6 7 8 9) 10)"), &t("1(2 3(4 5 6 7 8 11) 10)"));
    assert_eq!(kinds(&d), vec!["replace e9 by e11 (1)"]);
}

#[test]
fn replace_of_a_node_that_also_moved() {
    let prev = t("1(2(3(4 5 6)) 7)");
    let next = t("1(2 7 3(8 9 10))");
    let d = check(&prev, &next);
    assert_eq!(kinds(&d), vec!["move e3 under e1 after e7", "replace e3 by e3 (4)"]);
}

#[test]
fn mixed_edit() {
    let prev = t("1(2(3 4 5) 6(7 8) 9(10(11)))");
    let next = t("1(6(8 7 4) 12(13) 9(11 14) 2(3))");
    check(&prev, &next);
}

#[test]
fn diff_errors() {
    let a = t("1(2 3)");
    assert_eq!(diff(&Tree::new(), &a), Err(DiffError::Empty));
    assert_eq!(diff(&a, &Tree::new()), Err(DiffError::Empty));
    assert_eq!(diff(&a, &t("9(2 3)")), Err(DiffError::RootChanged { prev: Ref(1), next: Ref(9) }));
    let mut b = a.clone();
    let n2 = find(&b, 2);
    b.node_mut(n2).ref_id = None;
    assert_eq!(diff(&a, &b), Err(DiffError::MissingRef { which: "next" }));
    assert_eq!(diff(&b, &a), Err(DiffError::MissingRef { which: "prev" }));
    assert_eq!(diff(&a, &t("1(2 2)")), Err(DiffError::DuplicateRef { r: Ref(2), which: "next" }));
    // Sparse refs take the hash-map index; duplicates are caught there too.
    assert_eq!(
        diff(&t("1(4000000000 4000000000)"), &a),
        Err(DiffError::DuplicateRef { r: Ref(4_000_000_000), which: "prev" })
    );
    let sparse = t("1(4000000000 3)");
    check(&sparse, &t("1(3 4000000000(7))"));
}

fn one(op: Op) -> Diff {
    Diff { from_seq: 0, to_seq: 0, ops: vec![op], unchanged: 0 }
}

fn sub(refs: &[(u32, u32)]) -> NewSubtree {
    NewSubtree { nodes: refs.iter().map(|(r, depth)| NewNode { depth: *depth, node: node(*r) }).collect() }
}

#[test]
fn apply_unknown_ref() {
    let a = t("1(2 3)");
    let err = |op| apply(&a, &one(op)).unwrap_err();
    assert_eq!(err(Op::Remove { r: Ref(9) }), ApplyError::UnknownRef { index: 0, r: Ref(9) });
    assert_eq!(
        err(Op::Update { r: Ref(9), changes: vec![] }),
        ApplyError::UnknownRef { index: 0, r: Ref(9) }
    );
    assert_eq!(
        err(Op::Move { r: Ref(2), parent: Ref(9), after: None }),
        ApplyError::UnknownRef { index: 0, r: Ref(9) }
    );
    assert_eq!(
        err(Op::Add { parent: Ref(1), after: Some(Ref(9)), subtree: sub(&[(5, 0)]) }),
        ApplyError::UnknownRef { index: 0, r: Ref(9) }
    );
    assert_eq!(
        err(Op::Replace { r: Ref(9), subtree: sub(&[(5, 0)]) }),
        ApplyError::UnknownRef { index: 0, r: Ref(9) }
    );
    // A ref removed by an earlier op is unknown to later ones.
    let d = Diff {
        ops: vec![Op::Remove { r: Ref(2) }, Op::Remove { r: Ref(2) }],
        ..one(Op::Remove { r: Ref(2) })
    };
    assert_eq!(apply(&a, &d).unwrap_err(), ApplyError::UnknownRef { index: 1, r: Ref(2) });
}

#[test]
fn apply_bad_position() {
    let a = t("1(2(4) 3)");
    let err = |op| apply(&a, &one(op)).unwrap_err();
    assert_eq!(
        err(Op::Add { parent: Ref(1), after: Some(Ref(4)), subtree: sub(&[(5, 0)]) }),
        ApplyError::BadPosition { index: 0, parent: Ref(1), after: Ref(4) }
    );
    assert_eq!(
        err(Op::Move { r: Ref(3), parent: Ref(2), after: Some(Ref(3)) }),
        ApplyError::BadPosition { index: 0, parent: Ref(2), after: Ref(3) }
    );
    assert_eq!(
        err(Op::Move { r: Ref(3), parent: Ref(1), after: Some(Ref(3)) }),
        ApplyError::BadPosition { index: 0, parent: Ref(1), after: Ref(3) }
    );
}

#[test]
fn apply_inconsistent() {
    let a = t("1(2(4) 3)");
    let err = |op| match apply(&a, &one(op)).unwrap_err() {
        ApplyError::Inconsistent { index: 0, reason } => reason,
        other => panic!("{other:?}"),
    };
    assert!(err(Op::Add { parent: Ref(1), after: None, subtree: sub(&[(4, 0)]) }).contains("already has"));
    assert!(
        err(Op::Add { parent: Ref(1), after: None, subtree: sub(&[(5, 0), (5, 1)]) }).contains("already has")
    );
    assert!(err(Op::Add { parent: Ref(1), after: None, subtree: sub(&[]) }).contains("no node"));
    assert!(err(Op::Add { parent: Ref(1), after: None, subtree: sub(&[(5, 1)]) }).contains("depth"));
    assert!(err(Op::Add { parent: Ref(1), after: None, subtree: sub(&[(5, 0), (6, 2)]) }).contains("depth"));
    assert!(err(Op::Add { parent: Ref(1), after: None, subtree: sub(&[(5, 0), (6, 0)]) }).contains("depth"));
    let mut no_ref = sub(&[(5, 0)]);
    no_ref.nodes[0].node.ref_id = None;
    assert!(err(Op::Add { parent: Ref(1), after: None, subtree: no_ref }).contains("no ref"));
    assert!(err(Op::Move { r: Ref(2), parent: Ref(4), after: None }).contains("under itself"));
    assert!(err(Op::Move { r: Ref(2), parent: Ref(2), after: None }).contains("under itself"));
    assert!(err(Op::Move { r: Ref(1), parent: Ref(2), after: None }).contains("root"));
    assert!(err(Op::Remove { r: Ref(1) }).contains("root"));
    assert!(err(Op::Update { r: Ref(2), changes: vec![] }).contains("nothing"));
    // A replace may reuse refs from its own subtree, not from elsewhere.
    assert!(err(Op::Replace { r: Ref(2), subtree: sub(&[(2, 0), (3, 1)]) }).contains("already has"));
    let ok = apply(&a, &one(Op::Replace { r: Ref(2), subtree: sub(&[(4, 0), (2, 1)]) })).unwrap();
    assert!(ok == t("1(4(2) 3)"));
    let root = apply(&a, &one(Op::Replace { r: Ref(1), subtree: sub(&[(1, 0), (7, 1)]) })).unwrap();
    assert!(root == t("1(7)"));
}

#[test]
fn apply_old_mismatch() {
    let a = t("1(2 3)");
    let d = one(Op::Update {
        r: Ref(2),
        changes: vec![FieldChange::Name { old: "other".into(), new: "x".into() }],
    });
    assert_eq!(apply(&a, &d).unwrap_err(), ApplyError::OldMismatch { index: 0, field: "name" });
    let d = one(Op::Update {
        r: Ref(3),
        changes: vec![
            FieldChange::Name { old: "n3".into(), new: "x".into() },
            FieldChange::Level { old: Some(2), new: None },
        ],
    });
    assert_eq!(apply(&a, &d).unwrap_err(), ApplyError::OldMismatch { index: 0, field: "level" });
}

#[test]
fn apply_rejects_a_tree_with_a_repeated_ref() {
    let a = t("1(2 2)");
    let d = one(Op::Remove { r: Ref(2) });
    assert_eq!(apply(&a, &d).unwrap_err(), ApplyError::DuplicateRef { r: Ref(2) });
}

#[test]
fn apply_of_nothing_on_empty_tree() {
    let d = Diff { from_seq: 0, to_seq: 0, ops: vec![], unchanged: 0 };
    assert!(apply(&Tree::new(), &d).unwrap() == Tree::new());
}

#[test]
fn hostile_json_gives_errors_not_panics() {
    let a = t("1(2(4) 3)");
    for json in [
        r#"{"from_seq":0,"to_seq":0,"unchanged":0,"ops":[{"op":"move","r":"e2","parent":"e4","after":null}]}"#,
        r#"{"from_seq":0,"to_seq":0,"unchanged":0,"ops":[{"op":"add","parent":"e1","after":"e1","subtree":{"nodes":[{"depth":0,"role":"button","native":{"scope":"","id":""},"ref":"e9"}]}}]}"#,
        r#"{"from_seq":0,"to_seq":0,"unchanged":0,"ops":[{"op":"replace","r":"e1","subtree":{"nodes":[{"depth":3,"role":"button","native":{"scope":"","id":""},"ref":"e9"}]}}]}"#,
    ] {
        let d: Diff = serde_json::from_str(json).unwrap();
        assert!(apply(&a, &d).is_err(), "{json}");
    }
}

#[test]
fn deep_chains_do_not_recurse() {
    let depth = 100_000u32;
    let mut prev = Tree::with_root(node(0));
    let mut p = prev.root().unwrap();
    for r in 1..depth {
        p = prev.append(p, node(r));
    }
    // Rename the deepest node, and hang a new 100,000-deep chain under the root.
    let mut next = prev.clone();
    let deepest = find(&next, depth - 1);
    next.node_mut(deepest).name = "bottom".into();
    let mut q = next.root().unwrap();
    for r in depth..2 * depth {
        q = next.append(q, node(r));
    }
    let d = diff(&prev, &next).unwrap();
    assert_eq!(d.ops.len(), 2);
    assert!(apply(&prev, &d).unwrap() == next);
    let json = serde_json::to_string(&d).unwrap();
    let again: Diff = serde_json::from_str(&json).unwrap();
    assert!(again == d);
    // And removing it again.
    let d = diff(&next, &prev).unwrap();
    assert_eq!(kinds(&d).len(), 2);
    assert!(apply(&next, &d).unwrap() == prev);
}

#[test]
fn wide_reversal_is_not_quadratic() {
    let width = 50_000u32;
    let mut prev = Tree::with_root(node(0));
    let root = prev.root().unwrap();
    for r in 1..=width {
        prev.append(root, node(r));
    }
    let mut next = Tree::with_root(node(0));
    let root = next.root().unwrap();
    for r in (1..=width).rev() {
        next.append(root, node(r));
    }
    let d = diff(&prev, &next).unwrap();
    assert_eq!(d.ops.len(), width as usize - 1);
    assert!(apply(&prev, &d).unwrap() == next);
}

#[test]
fn new_subtree_as_a_tree_and_op_targets() {
    let s = sub(&[(5, 0), (6, 1), (7, 2), (8, 1)]);
    assert!(s.to_tree().unwrap() == t("5(6(7) 8)"));
    assert!(sub(&[(5, 0), (6, 2)]).to_tree().is_none());
    assert!(sub(&[(5, 0), (6, 0)]).to_tree().is_none());
    assert_eq!(Op::Add { parent: Ref(1), after: None, subtree: s }.target(), Some(Ref(5)));
    assert_eq!(Op::Remove { r: Ref(3) }.target(), Some(Ref(3)));
}
