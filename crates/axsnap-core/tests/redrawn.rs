//! A part of a page the site draws again in the same document (an AJAX page) keeps its refs
//! where structure shows the elements are the same: the answer is what changed, not the part
//! again with every ref new (`refs/rebuilt.rs`).
//!
//! The fixtures are phpMyAdmin 5.2.1 recorded by the bench's `record-workload` (see
//! `fixtures/trees/phpmyadmin/README.md`): every element of the content area and of the tab
//! bar has a new native id after each step.

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::interchange::{read_tree, RecordedTree};
use axsnap_core::render::ref_shown;
use axsnap_core::session::{Answer, ClientId, Mode, Policy, Request, Session};
use axsnap_core::snapshot::Snapshot;
use axsnap_core::tokens::count_cl100k;
use axsnap_core::{Header, TargetId, Tree};

fn recording(name: &str) -> RecordedTree {
    let path = format!("{}/../../fixtures/trees/phpmyadmin/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_tree(&bytes, &Default::default()).unwrap()
}

fn capture(rec: RecordedTree) -> Capture {
    let header = Header { url: rec.target.url.clone(), title: rec.target.title.clone() };
    Capture::new(TargetId("tab".into()), header, rec.tree, None)
}

/// The refs shown on links whose name is one of `names`, in page order.
fn link_refs(tree: &Tree, names: &[&str]) -> Vec<String> {
    tree.preorder()
        .filter(|&(id, _)| ref_shown(tree, id))
        .map(|(id, _)| tree.node(id))
        .filter(|n| n.role == axsnap_core::Role::Link && names.contains(&n.name.as_str()))
        .filter_map(|n| n.ref_id.map(|r| format!("{r} {:?}", n.name)))
        .collect()
}

/// `first` answered whole, then `then` in auto mode: both snapshots and the second answer.
fn two_steps(first: &str, then: &str) -> (Snapshot, Snapshot, Answer, String) {
    let auto = Request { mode: Mode::Auto, ..Request::default() };
    let (mut s, client, now) = (Session::new(Policy::default()), ClientId("agent".into()), Instant::now());
    let a = s.snapshot(&client, &capture(recording(first)), &auto, now).unwrap();
    let b = s.snapshot(&client, &capture(recording(then)), &auto, now).unwrap();
    (a.snapshot, b.snapshot, b.answer, b.text)
}

#[test]
fn a_table_drawn_again_after_saving_keeps_its_rows_refs() {
    // Go on the edit form: phpMyAdmin draws the browse table again, one cell changed and a
    // "1 row affected." message added, every element new. The answer was 4,998 cl100k with
    // every row's ref new (`[Edit Edit](e1204)` where it was `e441`).
    let (before, after, answer, text) = two_steps("browsed", "saved");
    assert_eq!(answer, Answer::Diff { from_seq: 1 }, "{text}");
    let tokens = count_cl100k(&text);
    assert!(tokens < 1_200, "{tokens} cl100k:\n{text}");
    assert!(text.contains("1 row affected."), "{text}");
    assert!(text.contains("Paraffin, new glass fitted in December."), "{text}");
    // Every row's action links keep their refs (25 rows of Edit, Copy, Delete, and the
    // query's own Edit link).
    let actions = ["Edit", "Copy", "Delete"];
    let was = link_refs(&before.tree, &actions);
    assert_eq!(was.len(), 76, "{was:?}");
    // (Saving adds an Edit link of its own, beside the message.)
    let now = link_refs(&after.tree, &actions);
    assert!(was.iter().all(|l| now.contains(l)), "a row's link changed ref:\n{was:?}\n{now:?}");
    // So do the column headers' sort links and the query's tools.
    let tools = ["id", "name", "price", "stock", "notes", "Edit inline", "Explain SQL", "Refresh", "SELECT"];
    let was = link_refs(&before.tree, &tools);
    assert!(was.len() >= tools.len(), "{was:?}");
    let now = link_refs(&after.tree, &tools);
    assert!(was.iter().all(|l| now.contains(l)), "{was:?}\n{now:?}");
}

#[test]
fn a_tab_bar_drawn_again_keeps_its_tabs_refs() {
    // The SQL tab: phpMyAdmin draws its tab bar again with the page; only `(current)` moved to
    // the SQL tab. The answer replaced the bar whole (`= generic with "Browse" in e122
    // replaced by:` and nine tabs with new refs).
    let (before, after, answer, text) = two_steps("saved", "sql");
    assert_eq!(answer, Answer::Diff { from_seq: 1 }, "{text}");
    // (Projection leaves the icon's repeat out of each tab's name.)
    let tabs = ["Browse", "Structure", "Search", "Insert", "Export", "Import", "Operations", "Triggers"];
    // Every such link on the SQL page (the eight tabs, the navigation's "Structure") is one the
    // agent saw, under the ref it saw.
    let (was, now) = (link_refs(&before.tree, &tabs), link_refs(&after.tree, &tabs));
    assert!(now.len() > tabs.len(), "{now:?}");
    assert!(now.iter().all(|l| was.contains(l)), "a tab changed ref:\n{was:?}\n{now:?}");
    // What the answer says of the bar is the tab that became current, not the bar again.
    assert!(text.contains("SQL (current)"), "{text}");
    assert!(!text.contains("Structure"), "{text}");
}
