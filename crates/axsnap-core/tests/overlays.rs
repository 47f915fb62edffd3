//! Overlays through the session (issue 45, item 7): what a modal dialog covers is one line of a
//! whole answer; closing the dialog over a page the client was never shown answers the page,
//! and over a page it was shown, a diff.

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::session::{Answer, ClientId, FullReason, Mode, Policy, Request, Session};
use axsnap_core::{Action, Header, NativeId, Node, Rect, Role, State, TargetId, Tree};

/// An editor of `n` buttons, under a modal welcome dialog when `modal`.
fn editor(n: usize, modal: bool) -> Capture {
    let node = |role, name: &str, id: &str| Node::new(role, name, NativeId::new("doc", id));
    let mut t = Tree::with_root(node(Role::Document, "Editor", "root"));
    let root = t.root().unwrap();
    let bar = t.append(root, node(Role::Toolbar, "Tools", "bar"));
    for i in 0..n {
        let mut b = node(Role::Button, &format!("Tool {i}"), &format!("b{i}"));
        b.actions.set(Action::Click, true);
        b.bounds = Some(Rect { x: 10.0 * i as f64, y: 0.0, w: 8.0, h: 8.0 });
        b.states.set(State::Obscured, modal);
        t.append(bar, b);
    }
    if modal {
        let mut overlay = node(Role::Generic, "", "overlay");
        overlay.states.set(State::Covering, true);
        overlay.bounds = Some(Rect { x: 0.0, y: 0.0, w: 1000.0, h: 800.0 });
        let overlay = t.append(root, overlay);
        let mut dialog = node(Role::Dialog, "Welcome to the block editor", "dialog");
        dialog.states.set(State::Modal, true);
        let dialog = t.append(overlay, dialog);
        let mut close = node(Role::Button, "Close", "close");
        close.actions.set(Action::Click, true);
        t.append(dialog, close);
    }
    let header = Header { url: Some("https://editor.example/".into()), title: Some("Editor".into()) };
    Capture::new(TargetId("tab".into()), header, t, None)
}

fn auto() -> Request {
    Request { mode: Mode::Auto, ..Request::default() }
}

#[test]
fn a_modal_over_an_unseen_page_folds_it_and_closing_it_answers_the_page() {
    let mut s = Session::new(Policy::default());
    let (c, now) = (ClientId("agent".into()), Instant::now());
    let first = s.snapshot(&c, &editor(26, true), &auto(), now).unwrap();
    assert!(
        first.text.contains("… 26 elements behind the dialog \"Welcome to the block editor\""),
        "{}",
        first.text
    );
    assert!(!first.text.contains("Tool 3") && !first.text.contains("[obscured]"), "{}", first.text);
    // Closed: a diff would say "no longer covered: e2, e3 …" of refs never shown.
    let closed = s.snapshot(&c, &editor(26, false), &auto(), now).unwrap();
    assert_eq!(closed.answer, Answer::Full { reason: Some(FullReason::Uncovered) }, "{}", closed.text);
    assert!(closed.text.contains("button \"Tool 25\""), "{}", closed.text);
}

#[test]
fn a_modal_over_a_seen_page_opens_and_closes_as_diffs() {
    let mut s = Session::new(Policy::default());
    let (c, now) = (ClientId("agent".into()), Instant::now());
    s.snapshot(&c, &editor(26, false), &auto(), now).unwrap();
    let opened = s.snapshot(&c, &editor(26, true), &auto(), now).unwrap();
    assert!(
        opened.text.contains("26 elements now covered") || opened.text.contains("26 elements behind"),
        "{}",
        opened.text
    );
    assert!(!opened.text.contains("[obscured]"), "{}", opened.text);
    let closed = s.snapshot(&c, &editor(26, false), &auto(), now).unwrap();
    assert_eq!(closed.answer, Answer::Diff { from_seq: 2 }, "{}", closed.text);
    assert!(closed.text.contains("26 elements no longer covered"), "{}", closed.text);
}

/// A long page under a modal dialog: the first 40 of `n` buttons are in the viewport (covered
/// by the dialog's backdrop), the rest below it, offscreen, with a paragraph every ten.
fn long_page(n: usize) -> Capture {
    let node = |role, name: &str, id: &str| Node::new(role, name, NativeId::new("doc", id));
    let mut t = Tree::with_root(node(Role::Document, "Docs", "root"));
    let root = t.root().unwrap();
    let main = t.append(root, node(Role::Main, "", "main"));
    for i in 0..n {
        let mut b = node(Role::Button, &format!("Copy example {i}"), &format!("b{i}"));
        b.actions.set(Action::Click, true);
        b.bounds = Some(Rect { x: 10.0, y: 20.0 * i as f64, w: 8.0, h: 8.0 });
        b.states.set(if i < 40 { State::Obscured } else { State::Offscreen }, true);
        t.append(main, b);
        if i % 10 == 9 {
            let mut p = node(
                Role::Paragraph,
                &format!("Paragraph {i} explains the example above."),
                &format!("p{i}"),
            );
            p.states.set(State::Offscreen, i >= 40);
            t.append(main, p);
        }
    }
    let mut overlay = node(Role::Generic, "", "overlay");
    overlay.states.set(State::Covering, true);
    overlay.bounds = Some(Rect { x: 0.0, y: 0.0, w: 1000.0, h: 800.0 });
    let overlay = t.append(root, overlay);
    let mut dialog = node(Role::Dialog, "Cookie settings", "dialog");
    dialog.states.set(State::Modal, true);
    let dialog = t.append(overlay, dialog);
    for name in ["Accept all", "Reject all", "Customise"] {
        let mut b = node(Role::Button, name, name);
        b.actions.set(Action::Click, true);
        t.append(dialog, b);
    }
    let header = Header { url: Some("https://docs.example/".into()), title: Some("Docs".into()) };
    Capture::new(TargetId("tab".into()), header, t, None)
}

#[test]
fn a_page_over_the_budget_under_a_modal_is_the_dialog_and_one_line_behind_it() {
    let mut s = Session::new(Policy::default());
    let (c, now) = (ClientId("agent".into()), Instant::now());
    let first = s.snapshot(&c, &long_page(3_000), &auto(), now).unwrap();
    println!("{}", first.text);
    assert!(!first.text.starts_with("# outline"), "{}", first.text);
    assert!(first.text.contains("button \"Reject all\""), "{}", first.text);
    assert!(first.text.contains("elements behind the dialog \"Cookie settings\""), "{}", first.text);
    assert!(!first.text.contains("Copy example 2999"), "{}", first.text);
}

/// A page over the budget whose one big part of `n` buttons the outline opens with its first
/// ones; `covered`: a settings panel (no dialog role, as many apps draw them) drawn over it,
/// every button marked covered.
fn grid_page(n: usize, covered: bool) -> Capture {
    let node = |role, name: &str, id: &str| Node::new(role, name, NativeId::new("doc", id));
    let mut t = Tree::with_root(node(Role::Document, "Grid", "root"));
    let root = t.root().unwrap();
    let bar = t.append(root, node(Role::Toolbar, "Tools", "bar"));
    for name in ["New", "Open", "Save"] {
        let mut b = node(Role::Button, name, name);
        b.actions.set(Action::Click, true);
        b.states.set(State::Obscured, covered);
        t.append(bar, b);
    }
    let mut h = node(Role::Heading, "Preferences", "h");
    h.level = Some(2);
    t.append(root, h);
    let grid = t.append(root, node(Role::Group, "Options", "grid"));
    for i in 0..n {
        let mut b = node(Role::Button, &format!("Option {i}"), &format!("o{i}"));
        b.actions.set(Action::Click, true);
        b.states.set(State::Offscreen, i >= 30);
        b.states.set(State::Obscured, covered && i < 30);
        t.append(grid, b);
    }
    if covered {
        let mut panel = node(Role::Generic, "", "panel");
        panel.states.set(State::Covering, true);
        let panel = t.append(root, panel);
        let mut close = node(Role::Button, "Close settings", "close");
        close.actions.set(Action::Click, true);
        t.append(panel, close);
    }
    let header = Header { url: Some("https://grid.example/".into()), title: Some("Grid".into()) };
    Capture::new(TargetId("tab".into()), header, t, None)
}

#[test]
fn a_panel_over_an_outlined_page_is_a_diff_the_cut_kept() {
    let mut s = Session::new(Policy::default());
    let (c, now) = (ClientId("agent".into()), Instant::now());
    let first = s.snapshot(&c, &grid_page(3_000, false), &auto(), now).unwrap();
    assert!(first.text.contains("more parts"), "{}", first.text);
    // Every covered button's line is a few tokens longer (`[obscured]`): the cut must not move.
    let opened = s.snapshot(&c, &grid_page(3_000, true), &auto(), now).unwrap();
    assert_eq!(opened.answer, Answer::Diff { from_seq: 1 }, "{}", opened.text);
    assert!(opened.text.contains("Close settings"), "{}", opened.text);
    assert!(!opened.text.contains("more parts"), "the cut moved:\n{}", opened.text);
    let closed = s.snapshot(&c, &grid_page(3_000, false), &auto(), now).unwrap();
    assert_eq!(closed.answer, Answer::Diff { from_seq: 2 }, "{}", closed.text);
    for t in [&opened.text, &closed.text] {
        assert!(!t.contains("e42949"), "the cut line's ref is never shown:\n{t}");
    }
    // The same page with fewer parts moves the cut line's count: a change of its line.
    let fewer = s.snapshot(&c, &grid_page(2_900, false), &auto(), now).unwrap();
    assert!(!fewer.text.contains("e42949"), "{}", fewer.text);
    println!("{}\n---\n{}\n---\n{}", opened.text, closed.text, fewer.text);
}
