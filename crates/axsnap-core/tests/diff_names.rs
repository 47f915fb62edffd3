//! What the text of a diff names things by: a place by what the agent was shown before (never
//! by the part being added), and siblings removed together by the text that tells each apart,
//! with the refs that went. `apply` stays exact in every case.

use axsnap_core::diff::{apply, diff};
use axsnap_core::render::{render_diff, Format};
use axsnap_core::{Action, NativeId, Node, NodeId, Ref, Role, Tree};

/// A node of `role` named `name` with native id `native` and ref `r`.
fn node(role: Role, name: &str, native: &str, r: u32) -> Node {
    let mut n = Node::new(role, name, NativeId::new("d", native));
    n.ref_id = Some(Ref(r));
    n
}

fn clickable(role: Role, name: &str, native: &str, r: u32) -> Node {
    let mut n = node(role, name, native, r);
    n.actions.set(Action::Click, true);
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

/// A table of five rows, each `checkbox | [Edit] | <id> | <name>`; the rows kept are those
/// in `kept`.
fn table(kept: &[usize]) -> Tree {
    let names = ["Anchor", "Barometer", "Compass", "Deck brush", "Lantern"];
    let (mut t, main) = page();
    let table = t.append(main, node(Role::Table, "Products", "table", 3));
    for (i, name) in names.iter().enumerate() {
        if !kept.contains(&i) {
            continue;
        }
        let base = 10 + 10 * i as u32;
        let row = t.append(table, node(Role::Row, "", &format!("row{i}"), base));
        let c = t.append(row, node(Role::Cell, "", &format!("c{i}"), base + 1));
        t.append(c, clickable(Role::CheckBox, "", &format!("check{i}"), base + 2));
        let c = t.append(row, node(Role::Cell, "", &format!("e{i}"), base + 3));
        t.append(c, clickable(Role::Link, "Edit", &format!("edit{i}"), base + 4));
        t.append(row, clickable(Role::Cell, &(i + 1).to_string(), &format!("id{i}"), base + 5));
        t.append(row, clickable(Role::Cell, name, &format!("name{i}"), base + 6));
    }
    t
}

/// A filter hides four of five rows: one line names each by its telling cell (the name, not
/// the `Edit` every row begins with, nor the bare id) and lists the refs that went.
#[test]
fn filtered_rows_are_named_and_their_refs_said_gone() {
    let text = text_of(&table(&[0, 1, 2, 3, 4]), &table(&[4]));
    assert_eq!(
        text,
        "# diff 0 -> 0: 4 changes, 10 unchanged\n\
         - 4 rows in e3: \"Anchor\", \"Barometer\", \"Compass\", \"Deck brush\"; \
         refs e12, e14-e16, e22, e24-e26, e32, e34-e36, e42, e44-e46\n",
        "{text}"
    );
    // One row alone is said as before.
    let text = text_of(&table(&[0, 4]), &table(&[4]));
    assert!(text.contains("- row with \"Edit\" in e3\n"), "{text}");
}
