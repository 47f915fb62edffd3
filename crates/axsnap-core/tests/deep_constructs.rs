//! Depth: every stage of the engine on each construct a page nests, 100,000 levels deep, on a
//! thread with a small stack (a quarter of a tokio worker's), so any recursion on the input's
//! depth overflows here instead of in a user's server. Nested code spans overflowed the
//! renderer this way (issue 19).
//!
//! Each construct goes through what an agent's calls run: the auto snapshot at the default
//! budget (projection, refs, the outline and its line costs), the auto answer to a change (the
//! diff, or the outline of the new page), the whole page in the text and JSON forms, the diff
//! and its renderings, `apply`, and `find`.

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::diff::{apply, diff};
use axsnap_core::find::find;
use axsnap_core::outline::DEFAULT_MAX_TOKENS;
use axsnap_core::render::{render_diff, render_snapshot, Format};
use axsnap_core::session::{ClientId, Mode, Policy, Request, Session};
use axsnap_core::{Header, NativeId, Node, NodeId, Rect, Role, State, TargetId, Tree};

#[path = "common/deep.rs"]
mod deep;
use deep::{construct, DEPTH};

/// The stack the checks run on: tokio's workers have 2 MiB.
const STACK: usize = 512 * 1024;

/// `tree` under a modal dialog drawn over the whole page: every element one acts on is marked
/// covered, as the Chromium backend marks them.
fn covered(mut tree: Tree) -> Tree {
    let page = Rect { x: 0.0, y: 0.0, w: 1280.0, h: 720.0 };
    let ids: Vec<NodeId> = tree.preorder().map(|(id, _)| id).collect();
    for id in ids {
        let node = tree.node_mut(id);
        if node.actions.is_empty() {
            continue;
        }
        node.bounds = Some(Rect { x: 10.0, y: 10.0, w: 100.0, h: 20.0 });
        node.states.set(State::Obscured, true);
    }
    let mut dialog = Node::new(Role::Dialog, "Cookies", NativeId::new("d", "dialog"));
    dialog.bounds = Some(page);
    dialog.states.set(State::Covering, true);
    dialog.states.set(State::Modal, true);
    let root = tree.root().expect("a root");
    tree.append(root, dialog);
    tree
}

fn capture(tree: Tree) -> Capture {
    let header = Header { url: Some("https://deep.example/".into()), title: Some("Deep".into()) };
    Capture::new(TargetId("t".into()), header, tree, None)
}

/// Runs every stage on `kind`, on a small stack.
fn check(kind: &'static str) {
    let handle = std::thread::Builder::new()
        .name(kind.into())
        .stack_size(STACK)
        .spawn(move || run(kind))
        .expect("a thread");
    if let Err(e) = handle.join() {
        std::panic::resume_unwind(e);
    }
}

fn run(kind: &str) {
    let start = Instant::now();
    let v1 = construct(kind, "leaf");
    let v2 = construct(kind, "new leaf");
    let mut session = Session::new(Policy::default());
    let client = ClientId("a".into());
    let auto = Request { mode: Mode::Auto, also_json: true, ..Request::default() };
    let now = Instant::now();
    // Running text joins into one piece, cut at the text cap with its marker: the page fits,
    // the leaf is in the cut, and the cut is said.
    let joined = matches!(kind, "inline runs" | "preformatted");

    // The first answer: an outline within the budget.
    let first = session.snapshot(&client, &capture(v1), &auto, now).expect("a snapshot");
    assert!(first.size.tokens_cl100k <= DEFAULT_MAX_TOKENS, "{kind}: {} tokens", first.size.tokens_cl100k);
    assert!(joined || first.outline.is_some(), "{kind}: 100,000 levels fit the budget?");
    assert!(first.json.as_deref().is_some_and(|j| j.starts_with('{')), "{kind}: no JSON");

    // The answer to a change: within the budget too.
    let second = session.snapshot(&client, &capture(v2), &auto, now).expect("a second snapshot");
    assert!(second.size.tokens_cl100k <= DEFAULT_MAX_TOKENS, "{kind}: {} tokens", second.size.tokens_cl100k);

    // The whole pages, both forms.
    let (prev, next) = (&first.snapshot, &second.snapshot);
    let text = render_snapshot(next, Format::Text);
    assert!(
        text.contains("new leaf") || joined && text.contains(" chars"),
        "{kind}: the leaf is not in the whole text, and no cut says where it went"
    );
    assert!(joined || text.contains("[depth "), "{kind}: deep lines say their depth");
    let json = render_snapshot(next, Format::Json);
    let value: serde_json::Value = serde_json::from_str(&json).expect("the JSON form reads back");
    let nodes = value["nodes"].as_array().map_or(0, Vec::len);
    assert!(joined || nodes >= DEPTH, "{kind}: {nodes} nodes in the JSON form");

    // The diff: one change, exact, in both forms.
    let d = diff(&prev.tree, &next.tree).expect("a diff");
    assert!(apply(&prev.tree, &d).expect("it applies") == next.tree, "{kind}: apply(prev, diff) != next");
    let dt = render_diff(&d, &prev.tree, &next.tree, Format::Text);
    assert!(!d.ops.is_empty() && dt.len() < 10_000, "{kind}: diff text of {} bytes", dt.len());
    assert!(joined || dt.contains("new leaf"), "{kind}: the diff does not show the leaf: {dt}");
    let dj = render_diff(&d, &prev.tree, &next.tree, Format::Json);
    serde_json::from_str::<serde_json::Value>(&dj).expect("the diff's JSON reads back");

    // find reaches the bottom, with a short path.
    let query = match kind {
        "inline runs" => "x1",
        "preformatted" => "line 1",
        _ => "new leaf",
    };
    let hits = find(&next.tree, query, 1);
    let hit = hits.first().unwrap_or_else(|| panic!("{kind}: find missed the leaf"));
    assert!(hit.path.len() <= 5, "{kind}: {hit:?}");
    assert!(joined || hit.name.contains("new leaf"), "{kind}: {hit:?}");
    // A dialog opens over all of it: every level is covered (one line says so).
    let third = session.snapshot(&client, &capture(covered(construct(kind, "new leaf"))), &auto, now);
    let third = third.expect("a third snapshot");
    assert!(third.size.tokens_cl100k <= DEFAULT_MAX_TOKENS, "{kind}: {} tokens", third.size.tokens_cl100k);
    let d = diff(&next.tree, &third.snapshot.tree).expect("a diff");
    let dt = render_diff(&d, &next.tree, &third.snapshot.tree, Format::Text);
    let acted_on = !matches!(kind, "code spans" | "inline runs" | "tables" | "preformatted");
    assert!(
        !acted_on || dt.contains("covers"),
        "{kind}: the cover is not said: {}",
        &dt[..dt.len().min(2000)]
    );

    eprintln!("{kind}: {DEPTH} levels in {:.1} s", start.elapsed().as_secs_f64());
}

#[test]
fn code_spans() {
    check("code spans");
}

#[test]
fn links_in_code() {
    check("links in code");
}

#[test]
fn inline_runs() {
    check("inline runs");
}

#[test]
fn lists() {
    check("lists");
}

#[test]
fn tables() {
    check("tables");
}

#[test]
fn widgets() {
    check("widgets");
}

#[test]
fn sections() {
    check("sections");
}

#[test]
fn preformatted() {
    check("preformatted");
}

#[test]
fn shadow_roots() {
    check("shadow roots");
}
