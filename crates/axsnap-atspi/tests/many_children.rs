//! A container that reports a huge child count (a GTK tree view of 100,000 rows, which
//! manages its descendants): the capture reads a bounded number of them, in bounded time, and
//! says how many it left unread.
#![cfg(target_os = "linux")]

mod common;

use std::time::{Duration, Instant};

use axsnap_atspi::fetch::MANY_CHILDREN;
use axsnap_core::backend::Backend;
use common::desktop::Desktop;
use common::driver::Driver;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_child_count_is_read_bounded_with_a_note() {
    let desktop = Desktop::start().expect("a desktop session");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/apps/big_list.py");
    let _app = desktop.spawn("/usr/bin/python3", &[script]).expect("the big list app");
    let mut d = Driver::start(&desktop, "big_list.py").await;
    let start = Instant::now();
    let capture = d.backend.capture(&d.target, Duration::from_secs(20)).await.expect("a capture");
    let took = start.elapsed();
    let tree = &capture.tree;
    let table = tree
        .preorder()
        .map(|(id, _)| id)
        .find(|id| tree.node(*id).children.len() > 100)
        .expect("the tree view with its rows");
    let kids = &tree.node(table).children;
    // The first MANY_CHILDREN cells are read, and one note says what was not.
    assert!(kids.len() <= MANY_CHILDREN as usize + 1, "{} children read", kids.len());
    let note = tree.node(*kids.last().expect("children"));
    assert_eq!(note.role, axsnap_core::Role::More, "{note:?}");
    assert!(note.name.contains("more children not read"), "{}", note.name);
    assert!(took < Duration::from_secs(15), "the capture took {took:?}");
    let r = d.snapshot().await;
    assert!(r.text.contains("more children not read"), "{}", r.text);
    println!("captured {} raw nodes in {took:?}; the note: {}", tree.len(), note.name);
}
