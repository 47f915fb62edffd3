//! What the text of a diff names things by: a place by what the agent was shown before (never
//! by the part being added). `apply` stays exact in every case.

use axsnap_core::diff::{apply, diff};
use axsnap_core::render::{render_diff, Format};
use axsnap_core::{NativeId, Node, NodeId, Ref, Role, Tree};

/// A node of `role` named `name` with native id `native` and ref `r`.
fn node(role: Role, name: &str, native: &str, r: u32) -> Node {
    let mut n = Node::new(role, name, NativeId::new("d", native));
    n.ref_id = Some(Ref(r));
    n
}

/// A page whose `main` (e2) is the returned parent.
fn page() -> (Tree, NodeId) {
    let mut t = Tree::with_root(node(Role::Document, "App", "root", 1));
    let top = t.root().unwrap();
    let main = t.append(top, node(Role::Main, "", "main", 2));
    (t, main)
}

fn text_of(prev: &Tree, next: &Tree) -> String {
    let d = diff(prev, next).expect("diff");
    assert!(apply(prev, &d).expect("apply") == next.compacted(), "apply is exact");
    render_diff(&d, prev, next, Format::Text)
}

/// A mark added first into an unnamed box: the box is named by the text the agent saw in it,
/// not by the mark's own.
#[test]
fn an_added_part_is_placed_by_what_was_there() {
    let build = |marked: bool| {
        let (mut t, main) = page();
        let bar = t.append(main, node(Role::Generic, "", "bar", 3));
        if marked {
            t.append(bar, node(Role::Image, "You have unsaved changes", "mark", 9));
        }
        t.append(bar, node(Role::Text, "Run SQL query", "title", 4));
        t
    };
    let text = text_of(&build(false), &build(true));
    assert!(text.contains("+ under generic with \"Run SQL query\" in e2 first:\n"), "{text}");
    assert!(!text.contains("with \"You have"), "{text}");
}
