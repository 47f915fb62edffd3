use super::*;
use crate::render::{render_snapshot, Format};
use crate::{Header, NativeId, Ref, Snapshot, State, TargetId};

fn nd(role: Role, name: &str, r: u32) -> Node {
    let mut n = Node::new(role, name, NativeId::new("d", format!("n{r}")));
    n.ref_id = Some(Ref(r));
    n
}

fn text(t: &Tree) -> String {
    let snap = Snapshot {
        target: TargetId("t".into()),
        seq: 1,
        header: Header::default(),
        tree: t.clone(),
        stats: Default::default(),
    };
    render_snapshot(&snap, Format::Text)
}

const PROSE: &str = "Ownership is a set of rules that govern how a Rust program manages memory, \
                     and every value has an owner that drops it when it goes out of scope.";

/// A chapter: a flat `main` of headings and paragraphs, offscreen except the first link.
fn chapter(sections: u32, paragraphs: u32) -> Tree {
    let mut t = Tree::with_root(nd(Role::Document, "Book", 1));
    let root = t.root().unwrap_or(NodeId(0));
    let mut r = 2;
    let mut next = || {
        r += 1;
        r
    };
    let nav = t.append(root, nd(Role::Navigation, "Chapters", next()));
    for i in 0..30 {
        t.append(nav, nd(Role::Link, &format!("Chapter {i}"), next()));
    }
    let main = t.append(root, nd(Role::Main, "", next()));
    for s in 0..sections {
        let mut h = nd(Role::Heading, &format!("Section {s}"), next());
        h.level = Some(2);
        t.append(main, h);
        for _ in 0..paragraphs {
            t.append(main, nd(Role::Paragraph, PROSE, next()));
        }
        let mut l = nd(Role::Link, &format!("Next after {s}"), next());
        l.states.set(State::Offscreen, true);
        t.append(main, l);
    }
    t
}

#[test]
fn a_long_chapter_folds_by_sections_under_its_headings() {
    let t = chapter(20, 12);
    let whole = crate::tokens::count_cl100k(&text(&t));
    let o = outline(&t, None, 2_000);
    let shown = text(&o.tree);
    assert!(whole > 8_000, "the chapter is long: {whole}");
    assert!(crate::tokens::count_cl100k(&shown) <= 2_000, "{shown}");
    // Every heading is there; the later sections are folded under theirs, each once.
    for s in 0..20 {
        assert!(shown.contains(&format!("h2 \"Section {s}\"")), "section {s} in:\n{shown}");
    }
    assert!(shown.lines().any(|l| l.starts_with("  h2 \"Section") && l.contains("] … folded")), "{shown}");
    assert!(o.folds > 0 && o.cut == 0);
    // Content comes in document order: the first section is whole.
    assert!(shown.contains("[Next after 0](e"), "{shown}");
}

#[test]
fn the_viewport_controls_and_an_open_dialog_are_always_shown() {
    let mut t = chapter(20, 12);
    let root = t.root().unwrap_or(NodeId(0));
    let mut d = nd(Role::Dialog, "Settings", 9_000);
    d.states.set(State::Modal, true);
    let d = t.append(root, d);
    for i in 0..5 {
        t.append(d, nd(Role::CheckBox, &format!("Option {i}"), 9_001 + i));
    }
    let shown = text(&outline(&t, None, 1_500).tree);
    assert!(shown.contains("dialog \"Settings\""), "{shown}");
    assert!(shown.contains("checkbox \"Option 4\""), "{shown}");
    // The navigation's links are in the viewport (not offscreen): each is shown.
    assert!(shown.contains("[Chapter 29](e"), "{shown}");
}

#[test]
fn a_heading_opens_exactly_what_its_fold_left_out() {
    let t = chapter(6, 12);
    let o = outline(&t, None, 1_200);
    let folded: Vec<&Node> =
        o.tree.preorder().map(|(id, _)| o.tree.node(id)).filter(|n| n.folded.is_some()).collect();
    let h = folded.iter().find(|n| n.role == Role::Heading).copied();
    let Some(h) = h else { panic!("a heading folds: {}", text(&o.tree)) };
    let id = t.preorder().map(|(id, _)| id).find(|&id| t.node(id).ref_id == h.ref_id);
    let part = section(&t, id.unwrap_or(NodeId(0))).unwrap_or_default();
    // The main, the heading, its 12 paragraphs and its link.
    assert_eq!(part.len(), 15, "{}", text(&part));
    let f = h.folded.clone().unwrap_or_default();
    assert_eq!(f.holds, "1 link");
    let left_out = crate::tokens::count_cl100k(&text(&part));
    // The fold's size counts the lines it stands for (the part's main line and heading aside).
    assert!((f.tokens as usize) < left_out && f.tokens as usize > left_out / 2, "{} vs {left_out}", f.tokens);
}

#[test]
fn the_same_page_gives_the_same_outline() {
    let t = chapter(20, 12);
    assert_eq!(text(&outline(&t, None, 2_000).tree), text(&outline(&t, None, 2_000).tree));
}

/// A table of `rows` rows under the document, each a cell and a button (offscreen).
fn wide_table(rows: u32) -> (Tree, NodeId) {
    let mut t = Tree::with_root(nd(Role::Document, "Inventory", 1));
    let root = t.root().unwrap_or(NodeId(0));
    let table = t.append(root, nd(Role::Table, "", 2));
    for i in 0..rows {
        let row = t.append(table, nd(Role::Row, "", 10 + 3 * i));
        t.append(row, nd(Role::Cell, &format!("Item {i} in stock"), 11 + 3 * i));
        let mut b = nd(Role::Button, &format!("Order {i}"), 12 + 3 * i);
        b.states.set(State::Offscreen, true);
        t.append(row, b);
    }
    (t, table)
}

#[test]
fn a_part_too_wide_for_one_answer_pages_through_from() {
    let (t, table) = wide_table(3_000);
    let budget = 2_000;
    // Page through the table as an agent would: open it, then follow each cut line's `from=`.
    let mut seen = vec![0u32; 3_000];
    let mut from = 0;
    let mut pages = 0;
    loop {
        pages += 1;
        assert!(pages < 100, "paging must end");
        let part = subtree_from(&t, table, from);
        let o = outline_from(&part, None, budget, from);
        let shown = text(&o.tree);
        assert!(crate::tokens::count_cl100k(&shown) <= budget + budget / 10, "{shown}");
        for l in shown.lines() {
            if let Some(i) = l.trim().strip_prefix("cell \"Item ").and_then(|r| r.split(' ').next()) {
                seen[i.parse::<usize>().unwrap_or(0)] += 1;
            }
        }
        // Rows are shown whole, not as a page of folds.
        assert!(!shown.contains("… folded"), "{shown}");
        if o.cut == 0 {
            break;
        }
        let next = shown
            .split("snapshot ref=e2 from=")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok());
        let next = next.unwrap_or_else(|| panic!("the cut line says where the rest starts:\n{shown}"));
        assert!(next > from, "from={next} after {from}");
        from = next;
    }
    assert!(pages > 2, "{pages} pages");
    assert!(
        seen.iter().all(|&n| n == 1),
        "every row on exactly one page: {:?}",
        seen.iter().position(|&n| n != 1)
    );
}

/// A page of one heading over `n` buttons, all in the viewport (as a capture from the DOM
/// snapshot has them): the heading's section is the whole page.
fn heading_over_buttons(n: u32) -> Tree {
    let mut t = Tree::with_root(nd(Role::Document, "Buttons", 1));
    let root = t.root().unwrap_or(NodeId(0));
    let mut h = nd(Role::Heading, "Buttons", 2);
    h.level = Some(1);
    t.append(root, h);
    for i in 0..n {
        t.append(root, nd(Role::Button, &format!("Button {i}"), 3 + i));
    }
    t
}

#[test]
fn a_heading_over_a_wide_page_shows_the_first_parts_whole_then_pages_from() {
    let n = 3_000;
    let t = heading_over_buttons(n);
    let root = t.root().unwrap_or(NodeId(0));
    let budget = 2_000;
    // Both the page and the view the heading's ref opens (the same section) start the same way.
    let opened = section(&t, NodeId(1)).unwrap_or_else(|| t.clone());
    for first in [&t, &opened] {
        let o = outline(first, None, budget);
        let shown = text(&o.tree);
        assert!(shown.contains("h1 \"Buttons\""), "{shown}");
        assert!(shown.contains("button \"Button 0\" [e3]"), "the first page is shown whole:\n{shown}");
        assert!(o.cut > 0 && !shown.contains("… folded"), "{shown}");
        assert!(crate::tokens::count_cl100k(&shown) <= budget + budget / 10, "{shown}");
    }
    // Page through as an agent would: every button on exactly one page, the pages moving on.
    let mut seen = vec![0u32; n as usize];
    let (mut from, mut pages) = (0, 0);
    loop {
        pages += 1;
        assert!(pages < 100, "paging must end");
        let part = if from == 0 { t.clone() } else { subtree_from(&t, root, from) };
        let o = outline_from(&part, None, budget, from);
        let shown = text(&o.tree);
        for l in shown.lines() {
            if let Some(i) = l.trim().strip_prefix("button \"Button ").and_then(|r| r.split('"').next()) {
                seen[i.parse::<usize>().unwrap_or(0)] += 1;
            }
        }
        if o.cut == 0 {
            break;
        }
        let next = shown.split("snapshot ref=e1 from=").nth(1).and_then(|r| r.split(' ').next());
        let next = next.and_then(|n| n.parse::<usize>().ok());
        let next = next.unwrap_or_else(|| panic!("the cut line says where the rest starts:\n{shown}"));
        assert!(next > from, "from={next} after {from}:\n{shown}");
        from = next;
    }
    assert!(pages > 2, "{pages} pages");
    assert!(seen.iter().all(|&s| s == 1), "every button once: {:?}", seen.iter().position(|&s| s != 1));
}

/// A page whose buttons sit in a `div` after its `h1`, behind a chain of wrappers: one fold
/// would hold nearly everything. The outline opens the chain and shows the first buttons
/// whole, the budget used, with a `from=` line for the rest; the element's ref and `from=`
/// then page through every button once.
#[test]
fn one_fold_holding_nearly_everything_is_opened_with_its_first_parts() {
    let n = 3_000u32;
    let mut t = Tree::with_root(nd(Role::Document, "Buttons", 1));
    let root = t.root().unwrap_or(NodeId(0));
    let mut h = nd(Role::Heading, "Fifty thousand buttons", 2);
    h.level = Some(1);
    t.append(root, h);
    let outer = t.append(root, nd(Role::Generic, "", 3));
    let inner = t.append(outer, nd(Role::Generic, "", 4));
    for i in 0..n {
        let mut b = nd(Role::Button, &format!("Button {i}"), 5 + i);
        b.states.set(State::Offscreen, i > 40);
        t.append(inner, b);
    }
    let budget = 2_000;
    let o = outline(&t, None, budget);
    let shown = text(&o.tree);
    let tokens = crate::tokens::count_cl100k(&shown);
    assert!(shown.contains("button \"Button 0\" [e5]"), "{shown}");
    assert!(tokens > budget / 2 && tokens <= budget + budget / 10, "{tokens} tokens:\n{shown}");
    assert!(o.cut > 0, "{shown}");
    // Page on from the element the cut line names, as an agent would.
    let mut seen = vec![0u32; n as usize];
    let (mut part, mut from, mut pages) = (t.clone(), 0, 0);
    loop {
        pages += 1;
        assert!(pages < 100, "paging must end");
        let o = outline_from(&part, None, budget, from);
        let shown = text(&o.tree);
        for l in shown.lines() {
            if let Some(i) = l.trim().strip_prefix("button \"Button ").and_then(|r| r.split('"').next()) {
                seen[i.parse::<usize>().unwrap_or(0)] += 1;
            }
        }
        if o.cut == 0 {
            break;
        }
        let next = shown.split("snapshot ref=e4 from=").nth(1).and_then(|r| r.split(' ').next());
        let next = next.and_then(|n| n.parse::<usize>().ok());
        let next = next
            .unwrap_or_else(|| panic!("the cut line names the element and where the rest starts:\n{shown}"));
        assert!(next > from, "from={next} after {from}:\n{shown}");
        from = next;
        part = subtree_from(&t, inner, from);
    }
    assert!(pages > 2, "{pages} pages");
    assert!(seen.iter().all(|&s| s == 1), "every button once: {:?}", seen.iter().position(|&s| s != 1));
}

/// A page whose outline already uses most of its budget leaves the first fold that does not
/// fit folded: its ref opens it whole.
#[test]
fn a_fold_after_a_full_outline_stays_folded() {
    let t = chapter(20, 12);
    let o = outline(&t, None, 2_000);
    assert_eq!(o.cut, 0, "{}", text(&o.tree));
}

/// The buttons an outline shows, by name.
fn buttons_shown(t: &Tree) -> Vec<String> {
    t.preorder()
        .map(|(id, _)| t.node(id))
        .filter(|n| n.role == Role::Button && n.name.starts_with("Button "))
        .map(|n| n.name.clone())
        .collect()
}

/// The first parts of one big fold take a fixed share of the budget, not what the rest of the
/// page leaves: a dialog opening over the page (or anything else added elsewhere) does not
/// move the cut, so the answer is a diff of the dialog, not of the parts shown.
#[test]
fn the_first_parts_shown_do_not_move_when_a_dialog_opens() {
    let page = |dialog: bool| {
        let mut t = Tree::with_root(nd(Role::Document, "Buttons", 1));
        let root = t.root().unwrap_or(NodeId(0));
        let mut h = nd(Role::Heading, "Many buttons", 2);
        h.level = Some(1);
        t.append(root, h);
        let outer = t.append(root, nd(Role::Generic, "", 3));
        for i in 0..3_000u32 {
            let mut b = nd(Role::Button, &format!("Button {i}"), 10 + i);
            b.states.set(State::Offscreen, i > 40);
            t.append(outer, b);
        }
        if dialog {
            let mut d = nd(Role::Dialog, "Settings", 5);
            d.states.set(State::Modal, true);
            let d = t.append(root, d);
            for i in 0..12u32 {
                t.append(d, nd(Role::CheckBox, &format!("Setting number {i} of the editor"), 6_000 + i));
            }
        }
        t
    };
    let (closed, open) = (outline(&page(false), None, 2_000), outline(&page(true), None, 2_000));
    assert!(closed.cut > 0 && open.cut > 0, "{}", text(&open.tree));
    assert!(text(&open.tree).contains("Setting number 11"), "{}", text(&open.tree));
    assert_eq!(buttons_shown(&closed.tree), buttons_shown(&open.tree), "{}", text(&open.tree));
}
