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
fn a_change_list_loaded_again_keeps_every_ref() {
    // The user change list: its filters are three lists of the same "All", "Yes", "No" links
    // whose URLs differ only in the query, under unnamed wrappers; no structural key tells them
    // apart (it leaves the query out). Each "Yes" and "No" link is told apart by its whole
    // address (`refs/address.rs`), which carries its list by its contents, and the list's
    // "All" by its key inside it. The nine links got new refs (a 157 cl100k diff); now every
    // ref stays and nothing changed.
    let (mut s, client, auto) = session();
    let now = Instant::now();
    let first = s.snapshot(&client, &capture(recording("django_users_a")), &auto, now).unwrap();
    let again = s.snapshot(&client, &capture(recording("django_users_b")), &auto, now).unwrap();
    assert_eq!(again.answer, Answer::Unchanged { since_seq: 1 }, "{}", again.text);
    let filters = ["\"All\"", "\"Yes\"", "\"No\""];
    let filter_links = shown(&first.snapshot.tree)
        .into_iter()
        .filter(|l| filters.iter().any(|f| l.ends_with(&format!("link {f}"))));
    assert_eq!(filter_links.count(), 9);
    assert!(shown(&first.snapshot.tree).len() > 40, "too few refs to say anything");
    assert_eq!(shown(&first.snapshot.tree), shown(&again.snapshot.tree), "a ref moved");
}
