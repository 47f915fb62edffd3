//! States that flip on many elements at once are said once in the text form of a diff: a cover
//! that opens over the page is one line naming it, whatever the number of controls under it,
//! and other shared flips one line naming every element. `apply` stays exact.

use axsnap_core::diff::{apply, diff};
use axsnap_core::render::{render_diff, Format};
use axsnap_core::tokens::count_cl100k;
use axsnap_core::{Action, NativeId, Node, Rect, Ref, Role, State, Tree};

fn button(r: u32, k: u32) -> Node {
    let mut n = Node::new(Role::Button, format!("Option {k}"), NativeId::new("d", format!("b{k}")));
    n.ref_id = Some(Ref(r));
    n.actions.set(Action::Click, true);
    // A grid of 8 columns, 40 px rows.
    n.bounds =
        Some(Rect { x: f64::from(k % 8) * 150.0, y: 100.0 + f64::from(k / 8) * 40.0, w: 140.0, h: 30.0 });
    n
}

/// A page of `controls` buttons; with `modal`, a backdrop covering all of them holds a dialog.
fn page(controls: u32, modal: bool) -> Tree {
    let mut root = Node::new(Role::Document, "App", NativeId::new("d", "root"));
    root.ref_id = Some(Ref(1));
    let mut t = Tree::with_root(root);
    let top = t.root().unwrap();
    let mut main = Node::new(Role::Main, "", NativeId::new("d", "main"));
    main.ref_id = Some(Ref(2));
    let main = t.append(top, main);
    for k in 0..controls {
        let mut b = button(10 + k, k);
        // Only what is in the viewport is hit-tested, so only that is marked obscured.
        if modal && b.bounds.is_some_and(|r| r.y < 720.0) {
            b.states.set(State::Obscured, true);
        }
        t.append(main, b);
    }
    if modal {
        let mut cover = Node::new(Role::Generic, "", NativeId::new("d", "overlay"));
        cover.ref_id = Some(Ref(5));
        cover.states.set(State::Covering, true);
        cover.bounds = Some(Rect { x: 0.0, y: 0.0, w: 1280.0, h: 720.0 });
        let cover = t.append(top, cover);
        let mut dialog = Node::new(Role::Dialog, "Settings", NativeId::new("d", "dialog"));
        dialog.ref_id = Some(Ref(6));
        let dialog = t.append(cover, dialog);
        let mut close = Node::new(Role::Button, "Close", NativeId::new("d", "close"));
        close.ref_id = Some(Ref(7));
        close.actions.set(Action::Click, true);
        t.append(dialog, close);
    }
    t
}

fn diff_text(prev: &Tree, next: &Tree) -> String {
    let d = diff(prev, next).expect("diff");
    assert!(apply(prev, &d).expect("apply") == next.compacted(), "apply is exact");
    render_diff(&d, prev, next, Format::Text)
}

#[test]
fn a_modal_opening_and_closing_is_said_once() {
    let open = diff_text(&page(100, false), &page(100, true));
    insta::assert_snapshot!("modal_open_100", open);
    let close = diff_text(&page(100, true), &page(100, false));
    insta::assert_snapshot!("modal_close_100", close);
    assert!(!open.contains("obscured"), "no per-element flips:\n{open}");
    // The tokens do not grow with the controls under the cover.
    for (a, b) in [(page(1000, false), page(1000, true)), (page(1000, true), page(1000, false))] {
        let big = diff_text(&a, &b);
        let small = if b.len() > a.len() { &open } else { &close };
        assert_eq!(big.lines().count(), small.lines().count(), "{big}");
        let (tb, ts) = (count_cl100k(&big), count_cl100k(small));
        assert!(tb <= ts + 4, "1,000 controls: {tb} tokens; 100 controls: {ts}\n{big}");
    }
}

#[test]
fn a_flip_shared_by_many_elements_names_each_once() {
    let prev = page(6, false);
    let mut next = page(6, false);
    let ids: Vec<_> = next.preorder().map(|(id, _)| id).collect();
    for id in ids {
        if next.node(id).role == Role::Button {
            next.node_mut(id).states.set(State::Disabled, true);
        }
    }
    let text = diff_text(&prev, &next);
    insta::assert_snapshot!("disabled_on_six", text);
    assert_eq!(text.lines().count(), 2, "{text}");
    // Under the threshold, one line each as before.
    let mut few = page(3, false);
    let ids: Vec<_> = few.preorder().map(|(id, _)| id).collect();
    for id in ids {
        if few.node(id).role == Role::Button {
            few.node_mut(id).states.set(State::Disabled, true);
        }
    }
    let text = diff_text(&page(3, false), &few);
    assert_eq!(text.lines().filter(|l| l.starts_with("~ e")).count(), 3, "{text}");
}
