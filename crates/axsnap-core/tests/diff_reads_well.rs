//! Diffs that read well: no node is "replaced" by an equal one or by a node of another kind,
//! a text made again reads as the change of its words, and a long name that changed shows the
//! change, not both names whole. `apply` stays exact in every case.

use axsnap_core::diff::{apply, diff, Op};
use axsnap_core::render::{render_diff, Format};
use axsnap_core::{Action, NativeId, Node, Ref, Role, Tree};

/// `(ref, role, name, native id, clickable)` children of the page root.
fn page(kids: &[(u32, Role, &str, &str, bool)]) -> Tree {
    let mut root = Node::new(Role::Document, "App", NativeId::new("d", "root"));
    root.ref_id = Some(Ref(1));
    let mut t = Tree::with_root(root);
    let top = t.root().unwrap();
    let mut main = Node::new(Role::Main, "", NativeId::new("d", "main"));
    main.ref_id = Some(Ref(2));
    let main = t.append(top, main);
    for (r, role, name, native, click) in kids {
        let mut n = Node::new(role.clone(), *name, NativeId::new("d", *native));
        n.ref_id = Some(Ref(*r));
        n.actions.set(Action::Click, *click);
        t.append(main, n);
    }
    t
}

fn text_of(prev: &Tree, next: &Tree) -> (String, Vec<Op>) {
    let d = diff(prev, next).expect("diff");
    assert!(apply(prev, &d).expect("apply") == next.compacted(), "apply is exact");
    (render_diff(&d, prev, next, Format::Text), d.ops)
}

#[test]
fn a_node_of_another_kind_is_not_a_replacement() {
    // A toolbar goes and a status text appears where it stood.
    let prev = page(&[(10, Role::Heading, "Files", "h", false), (11, Role::Toolbar, "Edit", "tb", false)]);
    let next = page(&[(10, Role::Heading, "Files", "h", false), (12, Role::Text, "Saved", "t", false)]);
    let (text, ops) = text_of(&prev, &next);
    assert!(!ops.iter().any(|o| matches!(o, Op::Replace { .. })), "{ops:?}");
    insta::assert_snapshot!("another_kind", text);
}

#[test]
fn an_equal_node_made_again_says_only_its_new_ref() {
    let prev = page(&[(10, Role::Button, "Save", "b1", true), (11, Role::Text, "●", "t1", false)]);
    let next = page(&[(20, Role::Button, "Save", "b2", true), (21, Role::Text, "●", "t2", false)]);
    let (text, _) = text_of(&prev, &next);
    insta::assert_snapshot!("equal_made_again", text);
    assert!(!text.contains("replaced by"), "{text}");
    assert!(text.contains("is now e20"), "{text}");
    // The text has no ref to tell: nothing is said of it.
    assert!(!text.contains('●'), "{text}");
}

#[test]
fn a_text_made_again_reads_as_a_change_of_words() {
    let prev = page(&[(10, Role::Text, "Created untitled-1.rs", "t1", false)]);
    let next = page(&[(11, Role::Text, "Renamed untitled-1.rs to app.rs", "t2", false)]);
    let (text, _) = text_of(&prev, &next);
    insta::assert_snapshot!("text_made_again", text);
}

#[test]
fn a_long_name_that_changed_shows_the_change() {
    let long = |status: &str| {
        format!(
            "Order 4711 placed by Jane Doe on 12 March for three items, shipping to Berlin, \
             Status: {status}, total 149.90 EUR including taxes and shipping fees"
        )
    };
    let (a, b) = (long("open"), long("closed"));
    let prev = page(&[(10, Role::ListItem, &a, "li", true)]);
    let next = page(&[(10, Role::ListItem, &b, "li", true)]);
    let (text, _) = text_of(&prev, &next);
    insta::assert_snapshot!("long_name_change", text);
    assert!(text.contains("Status: closed"), "{text}");
    assert!(!text.contains(&a) && !text.contains(&b), "not both names whole:\n{text}");
}

#[test]
fn a_renamed_item_whose_text_was_made_again_reads_as_a_change_of_words() {
    let item = |text: &str, native: &str| {
        let mut t = page(&[(10, Role::Generic, "", "item", false)]);
        let id = t.preorder().map(|(id, _)| id).find(|id| t.node(*id).ref_id == Some(Ref(10))).unwrap();
        t.node_mut(id).states.set(axsnap_core::State::Focusable, true);
        let mut n = Node::new(Role::Text, text, NativeId::new("d", native));
        n.ref_id = Some(Ref(if native == "t1" { 11 } else { 12 }));
        t.append(id, n);
        t
    };
    let (text, _) = text_of(&item("untitled-1.rs", "t1"), &item("app.rs", "t2"));
    insta::assert_snapshot!("renamed_item", text);
    assert!(!text.contains("replaced by"), "{text}");
}

#[test]
fn additions_side_by_side_share_one_header() {
    // Three notices appear after the heading, one more at the end: two runs, two headers.
    let prev = page(&[(10, Role::Heading, "Posts", "h", false), (11, Role::Button, "Add", "b", true)]);
    let next = page(&[
        (10, Role::Heading, "Posts", "h", false),
        (20, Role::Text, "Saved", "t1", false),
        (21, Role::Link, "Undo", "l1", true),
        (22, Role::Text, "3 posts moved", "t2", false),
        (11, Role::Button, "Add", "b", true),
        (23, Role::Text, "Done", "t3", false),
    ]);
    let (text, ops) = text_of(&prev, &next);
    assert_eq!(ops.iter().filter(|o| matches!(o, Op::Add { .. })).count(), 4, "{ops:?}");
    insta::assert_snapshot!("additions_share_a_header", text);
    assert_eq!(text.matches("+ under").count(), 2, "{text}");
    assert!(text.contains("4 changes"), "every addition still counts: {text}");
}
