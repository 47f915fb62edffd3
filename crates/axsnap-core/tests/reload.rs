//! A page loaded again (a reload, or a navigation back to the same URL) is answered against what
//! the agent saw: the browser gave every element a new native id, so every ref is carried by
//! structure (`refs/matching.rs`), and an unchanged page answers that nothing changed.
//!
//! The fixtures are Django 5.2's admin (PyPI `Django`, served on 127.0.0.1) recorded twice with
//! `axsnap snapshot --record`, each time in a fresh browser (inline text boxes trimmed; the
//! projection drops them).

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::interchange::{read_tree, RecordedTree};
use axsnap_core::render::ref_shown;
use axsnap_core::session::{Answer, ClientId, Mode, Policy, Request, Session};
use axsnap_core::{Header, TargetId, Tree};

fn recording(name: &str) -> RecordedTree {
    let path = format!("{}/../../fixtures/trees/reload/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_tree(&bytes, &Default::default()).unwrap()
}

/// The recording as a capture of one tab (the two were made in two browsers).
fn capture(rec: RecordedTree) -> Capture {
    let header = Header { url: rec.target.url.clone(), title: rec.target.title.clone() };
    Capture::new(TargetId("tab".into()), header, rec.tree, None)
}

/// Every ref the agent is shown, with its line's role and name, in page order.
fn shown(tree: &Tree) -> Vec<String> {
    tree.preorder()
        .filter(|&(id, _)| ref_shown(tree, id))
        .map(|(id, _)| tree.node(id))
        .filter_map(|n| n.ref_id.map(|r| format!("{r} {} {:?}", n.role, n.name)))
        .collect()
}

fn session() -> (Session, ClientId, Request) {
    let auto = Request { mode: Mode::Auto, ..Request::default() };
    (Session::new(Policy::default()), ClientId("agent".into()), auto)
}

#[test]
fn an_unchanged_page_loaded_again_answers_that_nothing_changed() {
    // The admin's index: a loose sentence made a paragraph ("Welcome, admin. View site /
    // Change password /", which kept no ref across documents and read as removed and added
    // again), two look-alike " / " texts, and table rows under an ignored wrapper (matched by
    // their links, then their cells: the cells read as replaced).
    let (mut s, client, auto) = session();
    let now = Instant::now();
    let first = s.snapshot(&client, &capture(recording("django_index_a")), &auto, now).unwrap();
    let again = s.snapshot(&client, &capture(recording("django_index_b")), &auto, now).unwrap();
    assert_eq!(again.answer, Answer::Unchanged { since_seq: 1 }, "{}", again.text);
    assert!(shown(&first.snapshot.tree).len() > 20, "too few refs to say anything");
    assert_eq!(shown(&first.snapshot.tree), shown(&again.snapshot.tree), "a ref moved");
}

#[test]
fn a_change_list_loaded_again_keeps_even_look_alike_refs() {
    // The user change list: its filters are three lists of the same "All", "Yes", "No" links
    // whose URLs differ only in the query, under unnamed wrappers; what tells them apart is the
    // button before each ("By staff status") and after (the next one's), which no structural
    // key holds (`refs/neighbours.rs`). And two cells "-" side by side in a row, which nothing
    // tells apart, made again with new refs the agent was never shown.
    let (mut s, client, auto) = session();
    let now = Instant::now();
    let first = s.snapshot(&client, &capture(recording("django_users_a")), &auto, now).unwrap();
    let again = s.snapshot(&client, &capture(recording("django_users_b")), &auto, now).unwrap();
    assert_eq!(again.answer, Answer::Unchanged { since_seq: 1 }, "{}", again.text);
    let filters = shown(&first.snapshot.tree).into_iter().filter(|l| l.ends_with("link \"All\"")).count();
    assert_eq!(filters, 3, "the fixture's three filters");
    assert!(shown(&first.snapshot.tree).len() > 40, "too few refs to say anything");
    assert_eq!(shown(&first.snapshot.tree), shown(&again.snapshot.tree), "a ref moved");
}

#[test]
fn a_look_alike_whose_neighbour_went_is_not_taken_for_another() {
    // The second filter list and its button removed from the page loaded again: the third
    // list now follows the first, where the second was, but it is not the second (its
    // neighbour after it differs), so the second's ref does not move to it.
    let (mut s, client, auto) = session();
    let now = Instant::now();
    let first = s.snapshot(&client, &capture(recording("django_users_a")), &auto, now).unwrap();
    let mut rec = recording("django_users_b");
    let t = &mut rec.tree;
    let second = t
        .preorder()
        .map(|(id, _)| id)
        .find(|&id| t.node(id).name.contains("By superuser status"))
        .expect("the second filter's button");
    // Its filter group: the nearest ancestor holding a list too.
    let mut group = second;
    while !t.subtree(group).iter().any(|&n| t.node(n).role == axsnap_core::Role::List) {
        group = t.node(group).parent.expect("a group around the button");
    }
    t.detach(group);
    let again = s.snapshot(&client, &capture(rec), &auto, now).unwrap();
    let before = shown(&first.snapshot.tree);
    let after = shown(&again.snapshot.tree);
    let all = |v: &[String]| v.iter().filter(|l| l.ends_with("link \"All\"")).cloned().collect::<Vec<_>>();
    let (was, now_) = (all(&before), all(&after));
    assert_eq!((was.len(), now_.len()), (3, 2), "{}", again.text);
    // Each keeps its own ref or gets a new one (a neighbour of the first went too, so it may
    // not be told apart any more), never another's.
    assert!(now_[0] == was[0] || !was.contains(&now_[0]), "{now_:?} after {was:?}");
    assert!(now_[1] == was[2] || !was.contains(&now_[1]), "{now_:?} after {was:?}");
}
