//! Property tests of outlines: on random trees and budgets, an outline and the parts its
//! folds open (recursively, each outlined to the same budget) hold every node of the tree
//! exactly once; each view's text fits the budget; and outlining is deterministic.
//!
//! Cases: `AXSNAP_PROPTEST_CASES` (default 2,000; each case renders and tokenizes).

use std::collections::HashMap;

use axsnap_core::outline::{outline, section, subtree};
use axsnap_core::render::{render_snapshot, Format};
use axsnap_core::tokens::count_cl100k;
use axsnap_core::{Header, NativeId, Node, NodeId, Ref, Role, Snapshot, TargetId, Tree};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("AXSNAP_PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(2_000)
}

const WORDS: [&str; 8] = ["install", "the", "crate", "and", "run", "cargo", "build", "release"];

/// A node from a few random bits: roles a page outline meets, names of varied length.
fn node(bits: u32, r: u32) -> Node {
    let role = match bits % 10 {
        0 => Role::Heading,
        1 => Role::Link,
        2 => Role::Button,
        3 => Role::List,
        4 => Role::ListItem,
        5 => Role::Navigation,
        6 => Role::Text,
        7 => Role::Paragraph,
        _ => Role::Generic,
    };
    let words = ((bits >> 4) % 12) as usize;
    let name: Vec<&str> = (0..words).map(|i| WORDS[(bits as usize >> 8).wrapping_add(i * 3) % 8]).collect();
    let mut n = Node::new(role.clone(), name.join(" "), NativeId::new("doc", format!("n{r}")));
    if role == Role::Heading {
        n.level = Some(1 + (bits >> 12) % 4);
    }
    n.ref_id = Some(Ref(r));
    n
}

/// A document root and nodes each hung under an earlier one (at most 8 children each).
fn tree(spec: &[(u32, u32)]) -> Tree {
    let mut root = Node::new(Role::Document, "Page", NativeId::new("doc", "n1"));
    root.ref_id = Some(Ref(1));
    let mut t = Tree::with_root(root);
    let mut ids: Vec<NodeId> = vec![t.root().unwrap()];
    for (k, &(parent, bits)) in spec.iter().enumerate() {
        let mut p = ids[parent as usize % ids.len()];
        // Text, links and headings are leaves (a heading never folds); fan-out is at most 8
        // (a wider page can need the outline's closing cut, which this property leaves out).
        while matches!(t.node(p).role, Role::Text | Role::Link | Role::Heading)
            || t.node(p).children.len() >= 8
        {
            match t.node(p).parent {
                Some(up) => p = up,
                None => break,
            }
        }
        if t.node(p).children.len() >= 8 {
            continue;
        }
        let id = t.append(p, node(bits, k as u32 + 2));
        ids.push(id);
    }
    t
}

fn text_of(tree: &Tree) -> String {
    let snap = Snapshot {
        target: TargetId("t".into()),
        seq: 1,
        header: Header { url: None, title: Some("Page".into()) },
        tree: tree.clone(),
        stats: Default::default(),
    };
    render_snapshot(&snap, Format::Text)
}

/// The part a fold opens, taken from the whole tree: a section head's section, else the
/// subtree; and whether it is a section (its root is the context line).
fn open_part(full: &Tree, r: Ref) -> (Tree, bool) {
    let id = full.preorder().map(|(id, _)| id).find(|&id| full.node(id).ref_id == Some(r)).unwrap();
    match section(full, id) {
        Some(part) => (part, true),
        None => (subtree(full, id), false),
    }
}

/// Counts the nodes each view shows, opening every fold. A node is held where it is first
/// shown: a folded node in the view that shows its line (its part's root, or its section's
/// head with what the head holds, is that same line again), everything else in its view.
fn hold(
    full: &Tree,
    view: &Tree,
    opened: Option<bool>,
    budget: usize,
    counts: &mut HashMap<Ref, usize>,
    depth: usize,
) {
    assert!(depth < 64, "opening folds does not end");
    let o = outline(view, None, budget);
    let text = text_of(&o.tree);
    assert_eq!(
        o.cut,
        0,
        "generated fan-out always fits; budget {budget}:\n{text}\n--- view:\n{}",
        text_of(view)
    );
    if o.folds > 0 {
        // The session counts the whole text and tries again with less room; the outline's own
        // estimate must already be close: within 10% of the budget.
        let tokens = count_cl100k(&text);
        assert!(tokens <= budget + budget / 10, "outline of {tokens} tokens over {budget}:\n{text}");
    }
    let root = o.tree.root().unwrap();
    // What was shown one level up: the root, and a section's head with all it holds.
    let mut seen_above = vec![false; o.tree.arena_len()];
    if opened.is_some() {
        seen_above[root.index()] = true;
    }
    if opened == Some(true) {
        if let Some(&head) = o.tree.node(root).children.first() {
            for d in o.tree.subtree(head) {
                seen_above[d.index()] = true;
            }
        }
    }
    for (id, _) in o.tree.preorder() {
        if seen_above[id.index()] {
            continue;
        }
        let n = o.tree.node(id);
        let r = n.ref_id.unwrap();
        *counts.entry(r).or_default() += 1;
        if n.folded.is_some() {
            let (part, is_section) = open_part(full, r);
            hold(full, &part, Some(is_section), budget, counts, depth + 1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn outline_and_opened_parts_hold_every_node_once(
        spec in prop::collection::vec((any::<u32>(), any::<u32>()), 1..160),
        budget in 800usize..2000,
    ) {
        let t = tree(&spec);
        let mut counts = HashMap::new();
        hold(&t, &t, None, budget, &mut counts, 0);
        for (id, _) in t.preorder() {
            let r = t.node(id).ref_id.unwrap();
            prop_assert_eq!(counts.get(&r).copied().unwrap_or(0), 1, "node {} held {:?} times", r, counts.get(&r));
        }
        prop_assert_eq!(counts.len(), t.len());
    }

    #[test]
    fn outlining_is_deterministic(
        spec in prop::collection::vec((any::<u32>(), any::<u32>()), 1..120),
        budget in 250usize..800,
    ) {
        let t = tree(&spec);
        let a = outline(&t, None, budget);
        let b = outline(&t, None, budget);
        prop_assert_eq!(text_of(&a.tree), text_of(&b.tree));
    }
}

#[test]
fn a_page_that_fits_is_whole() {
    let t = tree(&[(0, 7), (1, 17), (0, 1)]);
    let o = outline(&t, None, 10_000);
    assert_eq!(o.folds, 0);
    assert_eq!(text_of(&o.tree), text_of(&t));
}
