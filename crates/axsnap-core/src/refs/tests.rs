//! Unit tests of the refs rules, one per rule.

use super::*;
use crate::role::Role;
use crate::tree::Node;

fn nd(role: Role, name: &str, scope: &str, id: &str) -> Node {
    Node::new(role, name, NativeId::new(scope, id))
}

fn tid(s: &str) -> TargetId {
    TargetId(s.to_string())
}

/// Refreshes with the projected tree a clone of the raw one; returns the projected tree.
fn refresh(space: &mut RefSpace, target: &str, raw: &Tree) -> (Tree, RefStats) {
    let mut p = raw.clone();
    let stats = space.refresh(&tid(target), raw, &mut p);
    (p, stats)
}

/// The ref written on the projected node with this native id.
fn ref_of(p: &Tree, scope: &str, id: &str) -> Ref {
    let native = NativeId::new(scope, id);
    p.preorder()
        .map(|(n, _)| p.node(n))
        .find(|n| n.native == native)
        .and_then(|n| n.ref_id)
        .unwrap_or_else(|| panic!("no ref on {scope}/{id}"))
}

fn find(t: &Tree, scope: &str, id: &str) -> NodeId {
    let native = NativeId::new(scope, id);
    t.preorder().map(|(n, _)| n).find(|n| t.node(*n).native == native).unwrap()
}

/// document > [nav > [link Home, link Docs], main > [heading Title, button Save]]
fn page(scope: &str) -> Tree {
    let mut t = Tree::with_root(nd(Role::Document, "Page", scope, "0"));
    let r = t.root().unwrap();
    let nav = t.append(r, nd(Role::Navigation, "", scope, "1"));
    t.append(nav, nd(Role::Link, "Home", scope, "2"));
    t.append(nav, nd(Role::Link, "Docs", scope, "3"));
    let main = t.append(r, nd(Role::Main, "", scope, "4"));
    t.append(main, nd(Role::Heading, "Title", scope, "5"));
    t.append(main, nd(Role::Button, "Save", scope, "6"));
    t
}

#[test]
fn first_refresh_numbers_shown_refs_first_each_in_document_order() {
    let mut s = RefSpace::new();
    let (p, st) = refresh(&mut s, "t", &page("d"));
    let refs: Vec<u32> = p.preorder().map(|(n, _)| p.node(n).ref_id.unwrap().0).collect();
    // document, nav, Home, Docs, main, heading, Save: the heading shows no ref, so it is
    // numbered after the nodes that do, and the refs an agent reads stay small.
    assert_eq!(refs, vec![1, 2, 3, 4, 5, 7, 6]);
    assert_eq!(st, RefStats { kept: 0, carried: 0, assigned: 7, staled: 0, returned: 0 });
    assert_eq!(s.resolve(&tid("t"), Ref(6)), Ok(&NativeId::new("d", "6")));
}

#[test]
fn refs_survive_rename_value_state_and_move() {
    let mut s = RefSpace::new();
    let raw = page("d");
    let (p0, _) = refresh(&mut s, "t", &raw);
    let save = ref_of(&p0, "d", "6");
    let mut raw = raw.clone();
    let b = find(&raw, "d", "6");
    raw.node_mut(b).name = "Save all".into();
    raw.node_mut(b).value = Some("x".into());
    raw.node_mut(b).states.set(crate::State::Disabled, true);
    raw.detach(b);
    let nav = find(&raw, "d", "1");
    raw.attach(nav, b, Some(0));
    let (p1, st) = refresh(&mut s, "t", &raw);
    assert_eq!(ref_of(&p1, "d", "6"), save);
    assert_eq!(st, RefStats { kept: 7, carried: 0, assigned: 0, staled: 0, returned: 0 });
    // A moved subtree still gets refs in document order only for new nodes: none here.
    assert_eq!(s.issued(), 7);
}

#[test]
fn removed_element_is_stale_forever_and_never_given_to_a_look_alike() {
    let mut s = RefSpace::new();
    let mut raw = page("d");
    let (p0, _) = refresh(&mut s, "t", &raw);
    let save = ref_of(&p0, "d", "6");
    let b = find(&raw, "d", "6");
    raw.detach(b);
    let (_, st) = refresh(&mut s, "t", &raw);
    assert_eq!(st.staled, 1);
    let stale = RefError::Stale { r: save, role: "button".into(), name: "Save".into() };
    assert_eq!(s.resolve(&tid("t"), save), Err(stale.clone()));
    // An identical button comes back with a new native id: a new ref, the old one stays stale.
    let main = find(&raw, "d", "4");
    raw.append(main, nd(Role::Button, "Save", "d", "60"));
    let (p2, st) = refresh(&mut s, "t", &raw);
    assert_eq!(st.assigned, 1);
    assert_ne!(ref_of(&p2, "d", "60"), save);
    assert_eq!(s.resolve(&tid("t"), save), Err(stale));
}

#[test]
fn an_element_re_created_equal_in_a_living_scope_keeps_its_refs() {
    let mut s = RefSpace::new();
    let mut raw = page("d");
    let (p0, _) = refresh(&mut s, "t", &raw);
    let old_main = ref_of(&p0, "d", "4");
    let old_save = ref_of(&p0, "d", "6");
    // The main region is re-rendered: same content, new native ids, same document (TodoMVC
    // rewrites its items; a spreadsheet re-creates its cells).
    let main = find(&raw, "d", "4");
    raw.detach(main);
    let r = raw.root().unwrap();
    let m = raw.append(r, nd(Role::Main, "", "d", "14"));
    raw.append(m, nd(Role::Heading, "Title", "d", "15"));
    let mut save = nd(Role::Button, "Save", "d", "16");
    save.value = Some("a value is not identity".into());
    raw.append(m, save);
    let (p1, st) = refresh(&mut s, "t", &raw);
    assert_eq!(st, RefStats { kept: 4, carried: 3, assigned: 0, staled: 0, returned: 0 });
    assert_eq!(ref_of(&p1, "d", "14"), old_main);
    assert_eq!(ref_of(&p1, "d", "16"), old_save);
    assert_eq!(s.resolve(&tid("t"), old_save), Ok(&NativeId::new("d", "16")));
}

#[test]
fn a_look_alike_the_view_left_out_still_keeps_a_re_creation_from_its_ref() {
    let mut raw = Tree::with_root(nd(Role::Document, "Page", "d", "0"));
    let r = raw.root().unwrap();
    let list = raw.append(r, nd(Role::List, "", "d", "1"));
    raw.append(list, nd(Role::ListItem, "A", "d", "i0"));
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &raw);
    let old = ref_of(&p0, "d", "i0");
    // Made again twice over; the view shows only the first (the other is off screen).
    raw.detach(find(&raw, "d", "i0"));
    raw.append(list, nd(Role::ListItem, "A", "d", "n0"));
    raw.append(list, nd(Role::ListItem, "A", "d", "n1"));
    let mut shown = raw.clone();
    shown.detach(find(&shown, "d", "n1"));
    s.refresh(&tid("t"), &raw, &mut shown);
    assert!(matches!(s.resolve(&tid("t"), old), Err(RefError::Stale { .. })), "two look-alikes now");
    assert_ne!(ref_of(&shown, "d", "n0"), old);
}

#[test]
fn another_element_in_an_elements_place_takes_none_of_its_refs() {
    // document > list > [item "A" > [text A, button Delete], item "B" > [text B, button Delete]]
    let mut raw = Tree::with_root(nd(Role::Document, "Page", "d", "0"));
    let r = raw.root().unwrap();
    let list = raw.append(r, nd(Role::List, "", "d", "1"));
    for (i, name) in ["A", "B"].iter().enumerate() {
        let item = raw.append(list, nd(Role::ListItem, "", "d", &format!("i{i}")));
        raw.append(item, nd(Role::Text, name, "d", &format!("t{i}")));
        raw.append(item, nd(Role::Button, "Delete", "d", &format!("b{i}")));
    }
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &raw);
    let (delete_a, delete_b) = (ref_of(&p0, "d", "b0"), ref_of(&p0, "d", "b1"));
    // The list is rewritten: A is gone, C stands in its place with an equal Delete button,
    // and B is made again as it was.
    for i in 0..2 {
        raw.detach(find(&raw, "d", &format!("i{i}")));
    }
    for (i, name) in ["C", "B"].iter().enumerate() {
        let item = raw.append(list, nd(Role::ListItem, "", "d", &format!("n{i}")));
        raw.append(item, nd(Role::Text, name, "d", &format!("nt{i}")));
        raw.append(item, nd(Role::Button, "Delete", "d", &format!("nb{i}")));
    }
    let (p1, _) = refresh(&mut s, "t", &raw);
    assert!(matches!(s.resolve(&tid("t"), delete_a), Err(RefError::Stale { .. })), "A's button is not C's");
    assert_ne!(ref_of(&p1, "d", "nb0"), delete_a);
    assert_eq!(ref_of(&p1, "d", "nb1"), delete_b, "B was made again equal");
    // Two equal items made again: look-alikes, so neither keeps a ref.
    let mut raw = Tree::with_root(nd(Role::Document, "Page", "e", "0"));
    let r = raw.root().unwrap();
    let list = raw.append(r, nd(Role::List, "", "e", "1"));
    for i in 0..2 {
        raw.append(list, nd(Role::ListItem, "Same", "e", &format!("i{i}")));
    }
    let (p0, _) = refresh(&mut s, "t", &raw);
    let twins = [ref_of(&p0, "e", "i0"), ref_of(&p0, "e", "i1")];
    for i in 0..2 {
        raw.detach(find(&raw, "e", &format!("i{i}")));
        raw.append(list, nd(Role::ListItem, "Same", "e", &format!("n{i}")));
    }
    let (p1, _) = refresh(&mut s, "t", &raw);
    for (i, old) in twins.iter().enumerate() {
        assert!(matches!(s.resolve(&tid("t"), *old), Err(RefError::Stale { .. })));
        assert!(!twins.contains(&ref_of(&p1, "e", &format!("n{i}"))));
    }
}

#[test]
fn a_node_left_out_by_the_view_is_not_stale_and_unprojected_nodes_get_no_ref() {
    let mut s = RefSpace::new();
    let raw = page("d");
    let (p0, _) = refresh(&mut s, "t", &raw);
    let save = ref_of(&p0, "d", "6");
    // A view that shows only the nav.
    let mut view = raw.clone();
    let main = find(&view, "d", "4");
    view.detach(main);
    let st = s.refresh(&tid("t"), &raw, &mut view);
    assert_eq!(st.staled, 0);
    assert_eq!(s.resolve(&tid("t"), save), Ok(&NativeId::new("d", "6")));
    // A new raw node outside the view gets no ref; it gets one when it is shown.
    let mut raw2 = raw.clone();
    let main = find(&raw2, "d", "4");
    raw2.append(main, nd(Role::Button, "Cancel", "d", "7"));
    let mut view2 = raw2.clone();
    let main2 = find(&view2, "d", "4");
    view2.detach(main2);
    let st = s.refresh(&tid("t"), &raw2, &mut view2);
    assert_eq!((st.assigned, s.issued()), (0, 7));
    let (p3, st) = refresh(&mut s, "t", &raw2);
    assert_eq!(st.assigned, 1);
    assert_eq!(ref_of(&p3, "d", "6"), save);
    assert_eq!(ref_of(&p3, "d", "7"), Ref(8));
}

#[test]
fn scope_churn_carries_unique_matches_to_the_new_native_id() {
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &page("d1"));
    let (p1, st) = refresh(&mut s, "t", &page("d2"));
    assert_eq!(st, RefStats { kept: 0, carried: 7, assigned: 0, staled: 0, returned: 0 });
    for id in ["0", "1", "2", "3", "4", "5", "6"] {
        let r = ref_of(&p0, "d1", id);
        assert_eq!(ref_of(&p1, "d2", id), r);
        assert_eq!(s.resolve(&tid("t"), r), Ok(&NativeId::new("d2", id)));
    }
}

#[test]
fn scope_churn_never_carries_among_look_alikes() {
    // list > [item "x", item "x", item "y"]
    let build = |scope: &str| {
        let mut t = Tree::with_root(nd(Role::List, "", scope, "0"));
        let r = t.root().unwrap();
        t.append(r, nd(Role::ListItem, "x", scope, "1"));
        t.append(r, nd(Role::ListItem, "x", scope, "2"));
        t.append(r, nd(Role::ListItem, "y", scope, "3"));
        t
    };
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &build("d1"));
    let (p1, st) = refresh(&mut s, "t", &build("d2"));
    assert_eq!((st.carried, st.staled, st.assigned), (2, 2, 2));
    assert_eq!(ref_of(&p1, "d2", "0"), ref_of(&p0, "d1", "0"));
    assert_eq!(ref_of(&p1, "d2", "3"), ref_of(&p0, "d1", "3"));
    for id in ["1", "2"] {
        assert!(matches!(s.resolve(&tid("t"), ref_of(&p0, "d1", id)), Err(RefError::Stale { .. })));
        assert!(ref_of(&p1, "d2", id).0 > 4);
    }
}

#[test]
fn a_hidden_look_alike_in_the_old_capture_blocks_a_carry() {
    // Old: two "OK" buttons, only the first projected. New document: one "OK" button.
    let mut old = Tree::with_root(nd(Role::Document, "", "d1", "0"));
    let r = old.root().unwrap();
    old.append(r, nd(Role::Button, "OK", "d1", "1"));
    old.append(r, nd(Role::Button, "OK", "d1", "2"));
    let mut view = old.clone();
    let hidden = find(&view, "d1", "2");
    view.detach(hidden);
    let mut s = RefSpace::new();
    s.refresh(&tid("t"), &old, &mut view);
    let ok = ref_of(&view, "d1", "1");
    let mut new = Tree::with_root(nd(Role::Document, "", "d2", "0"));
    let r = new.root().unwrap();
    new.append(r, nd(Role::Button, "OK", "d2", "9"));
    let (p, st) = refresh(&mut s, "t", &new);
    assert_eq!((st.carried, st.staled), (1, 1), "only the document is carried");
    assert!(matches!(s.resolve(&tid("t"), ok), Err(RefError::Stale { .. })));
    assert_ne!(ref_of(&p, "d2", "9"), ok);
}

#[test]
fn children_carry_inside_uniquely_matched_parents() {
    // Two forms told apart only by developer id, each with an "Email" box.
    let build = |scope: &str| {
        let mut t = Tree::with_root(nd(Role::Document, "", scope, "0"));
        let r = t.root().unwrap();
        for (i, dev) in ["login", "signup"].into_iter().enumerate() {
            let mut f = nd(Role::Form, "", scope, &format!("f{i}"));
            f.dev_id = Some(dev.into());
            let f = t.append(r, f);
            t.append(f, nd(Role::TextBox, "Email", scope, &format!("e{i}")));
        }
        t
    };
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &build("d1"));
    let (p1, st) = refresh(&mut s, "t", &build("d2"));
    assert_eq!(st, RefStats { kept: 0, carried: 5, assigned: 0, staled: 0, returned: 0 });
    for id in ["e0", "e1", "f0", "f1"] {
        assert_eq!(ref_of(&p1, "d2", id), ref_of(&p0, "d1", id));
    }
}

#[test]
fn churn_inside_a_kept_frame_element_carries_by_parent() {
    // The outer document lives; the frame's inner document navigates to a copy of itself.
    let build = |inner: &str| {
        let mut t = Tree::with_root(nd(Role::Document, "", "outer", "0"));
        let r = t.root().unwrap();
        for i in 0..2 {
            let frame = t.append(r, nd(Role::Generic, "", "outer", &format!("fr{i}")));
            let doc = t.append(frame, nd(Role::Document, "", &format!("{inner}{i}"), "0"));
            t.append(doc, nd(Role::Button, "Go", &format!("{inner}{i}"), "1"));
        }
        t
    };
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &build("a"));
    let (p1, st) = refresh(&mut s, "t", &build("b"));
    assert_eq!((st.kept, st.carried, st.staled), (3, 4, 0));
    assert_eq!(ref_of(&p1, "b1", "1"), ref_of(&p0, "a1", "1"));
    assert_eq!(ref_of(&p1, "b0", "1"), ref_of(&p0, "a0", "1"));
}

#[test]
fn churned_refs_go_only_to_nodes_of_new_scopes() {
    // The frame document vanishes and an identical button appears in the living outer document.
    let mut s = RefSpace::new();
    let mut t = Tree::with_root(nd(Role::Document, "", "outer", "0"));
    let r = t.root().unwrap();
    let fdoc = t.append(r, nd(Role::Document, "", "inner", "0"));
    t.append(fdoc, nd(Role::Button, "Go", "inner", "1"));
    let (p0, _) = refresh(&mut s, "t", &t);
    let go = ref_of(&p0, "inner", "1");
    let mut t2 = Tree::with_root(nd(Role::Document, "", "outer", "0"));
    let r = t2.root().unwrap();
    let fdoc = t2.append(r, nd(Role::Document, "", "outer", "5"));
    t2.append(fdoc, nd(Role::Button, "Go", "outer", "6"));
    let (p1, st) = refresh(&mut s, "t", &t2);
    assert_eq!((st.carried, st.staled), (0, 2));
    assert!(matches!(s.resolve(&tid("t"), go), Err(RefError::Stale { .. })));
    assert_ne!(ref_of(&p1, "outer", "6"), go);
}

#[test]
fn resolve_tells_unknown_foreign_stale_and_live_apart() {
    let mut s = RefSpace::new();
    let (pa, _) = refresh(&mut s, "a", &page("da"));
    let (pb, _) = refresh(&mut s, "b", &page("db"));
    let ra = ref_of(&pa, "da", "6");
    let rb = ref_of(&pb, "db", "6");
    assert_eq!((ra, rb), (Ref(6), Ref(13)), "one numbering across targets");
    assert_eq!(s.resolve(&tid("a"), ra), Ok(&NativeId::new("da", "6")));
    assert_eq!(s.resolve(&tid("a"), Ref(15)), Err(RefError::Unknown(Ref(15))));
    assert_eq!(s.resolve(&tid("a"), Ref(0)), Err(RefError::Unknown(Ref(0))));
    assert_eq!(s.resolve(&tid("a"), rb), Err(RefError::Foreign { r: rb, owner: tid("b"), asked: tid("a") }));
    // An unknown target asking: foreign too (the ref exists, on another target).
    assert!(matches!(s.resolve(&tid("zzz"), ra), Err(RefError::Foreign { .. })));
}

#[test]
fn forget_target_stales_its_refs_only() {
    let mut s = RefSpace::new();
    let (pa, _) = refresh(&mut s, "a", &page("da"));
    let (pb, _) = refresh(&mut s, "b", &page("db"));
    s.forget_target(&tid("a"));
    let err = s.resolve(&tid("a"), ref_of(&pa, "da", "2")).unwrap_err();
    assert_eq!(err, RefError::Stale { r: Ref(3), role: "link".into(), name: "Home".into() });
    assert!(s.resolve(&tid("b"), ref_of(&pb, "db", "2")).is_ok());
    // The target comes back with the same document ids: new refs, old ones stay stale.
    let (pa2, st) = refresh(&mut s, "a", &page("da"));
    assert_eq!(st.assigned, 7);
    assert_eq!(ref_of(&pa2, "da", "2"), Ref(17));
    assert!(s.resolve(&tid("a"), Ref(3)).is_err());
}

#[test]
fn synthetic_projected_nodes_get_refs_and_keep_them() {
    let raw = page("d");
    let mut view = raw.clone();
    let r = view.root().unwrap();
    view.append(r, nd(Role::More, "3 more items", "axsnap:synthetic", "more-0"));
    let mut s = RefSpace::new();
    s.refresh(&tid("t"), &raw, &mut view);
    let more = ref_of(&view, "axsnap:synthetic", "more-0");
    let mut view2 = raw.clone();
    let r = view2.root().unwrap();
    view2.append(r, nd(Role::More, "4 more items", "axsnap:synthetic", "more-0"));
    let st = s.refresh(&tid("t"), &raw, &mut view2);
    assert_eq!(ref_of(&view2, "axsnap:synthetic", "more-0"), more);
    assert_eq!(st, RefStats { kept: 8, carried: 0, assigned: 0, staled: 0, returned: 0 });
    // The marker goes away: stale (its scope vanished, and nothing new can take it).
    let mut view3 = raw.clone();
    let st = s.refresh(&tid("t"), &raw, &mut view3);
    assert_eq!(st.staled, 1);
}

#[test]
fn a_repeated_native_id_gets_distinct_refs() {
    let mut raw = Tree::with_root(nd(Role::Document, "", "d", "0"));
    let r = raw.root().unwrap();
    raw.append(r, nd(Role::Button, "A", "d", "1"));
    raw.append(r, nd(Role::Button, "B", "d", "1"));
    let mut s = RefSpace::new();
    let (p, st) = refresh(&mut s, "t", &raw);
    let refs: Vec<Ref> = p.preorder().map(|(n, _)| p.node(n).ref_id.unwrap()).collect();
    assert_eq!(refs, vec![Ref(1), Ref(2), Ref(3)]);
    assert_eq!(st.assigned, 3);
    let (p2, st) = refresh(&mut s, "t", &raw);
    let refs: Vec<Ref> = p2.preorder().map(|(n, _)| p2.node(n).ref_id.unwrap()).collect();
    assert_eq!(refs, vec![Ref(1), Ref(2), Ref(4)]);
    assert_eq!((st.staled, st.assigned), (1, 1));
}

#[test]
fn deep_trees_do_not_overflow() {
    let build = |scope: &str| {
        let mut t = Tree::with_root(nd(Role::Generic, "", scope, "0"));
        let mut p = t.root().unwrap();
        for i in 1..100_000 {
            p = t.append(p, nd(Role::Generic, "", scope, &i.to_string()));
        }
        t
    };
    let mut s = RefSpace::new();
    refresh(&mut s, "t", &build("a"));
    let (_, st) = refresh(&mut s, "t", &build("b"));
    assert_eq!(st.carried, 100_000);
}

#[test]
fn a_partial_capture_leaves_the_refs_of_what_it_missed_alone() {
    let mut s = RefSpace::new();
    let raw = page("d");
    let (p0, _) = refresh(&mut s, "t", &raw);
    let save = ref_of(&p0, "d", "6");
    let home = ref_of(&p0, "d", "2");
    // A partial capture (a blocking dialog): the root and a node of its own, nothing else.
    let mut cut = Tree::with_root(nd(Role::Document, "Page", "d", "0"));
    let r = cut.root().unwrap();
    cut.append(r, nd(Role::AlertDialog, "Sure?", "d", "js-dialog"));
    let mut pc = cut.clone();
    let st = s.refresh_partial(&tid("t"), &cut, &mut pc);
    assert_eq!((st.kept, st.assigned, st.staled, st.carried), (1, 1, 0, 0));
    assert_eq!(s.resolve(&tid("t"), save), Ok(&NativeId::new("d", "6")));
    // The whole capture after it: the page's refs are the same, the dialog's ref is stale.
    let dialog = ref_of(&pc, "d", "js-dialog");
    let (p2, st) = refresh(&mut s, "t", &raw);
    assert_eq!((st.staled, st.assigned), (1, 0));
    assert_eq!(ref_of(&p2, "d", "6"), save);
    assert_eq!(ref_of(&p2, "d", "2"), home);
    assert!(matches!(s.resolve(&tid("t"), dialog), Err(RefError::Stale { .. })));
}

#[test]
fn a_partial_capture_of_a_new_document_carries_nothing_and_stales_nothing() {
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &page("a"));
    let save = ref_of(&p0, "a", "6");
    // A partial capture of another document that looks alike: no carry on partial evidence.
    let mut cut = page("b");
    let mut pc = cut.clone();
    let st = s.refresh_partial(&tid("t"), &cut, &mut pc);
    assert_eq!((st.carried, st.staled, st.assigned), (0, 0, 7));
    assert_eq!(s.resolve(&tid("t"), save), Ok(&NativeId::new("a", "6")));
    // The next whole capture shows "a" is gone for good: its refs go stale (the b nodes have
    // refs of their own already, so nothing is left to carry to).
    cut = page("b");
    let (_, st) = refresh(&mut s, "t", &cut);
    assert_eq!((st.kept, st.staled, st.carried), (7, 7, 0));
    assert!(matches!(s.resolve(&tid("t"), save), Err(RefError::Stale { .. })));
}

#[test]
fn a_long_session_forgets_long_stale_refs_and_stays_bounded() {
    let mut s = RefSpace::new();
    // Site chrome that lives throughout, then 300 pages of 1,000 new elements each.
    let mut first: Option<Ref> = None;
    let mut chrome: Option<Ref> = None;
    let mut recent: Option<Ref> = None;
    for page_no in 0..300 {
        let scope = format!("doc{page_no}");
        let mut t = Tree::with_root(nd(Role::Document, "Site", "chrome", "0"));
        let r = t.root().unwrap();
        t.append(r, nd(Role::Link, "Home", "chrome", "1"));
        let main = t.append(r, nd(Role::Main, "", &scope, "m"));
        for i in 0..1000 {
            t.append(main, nd(Role::Button, &format!("Item {page_no}.{i}"), &scope, &i.to_string()));
        }
        let (p, _) = refresh(&mut s, "t", &t);
        chrome.get_or_insert(ref_of(&p, "chrome", "1"));
        first.get_or_insert(ref_of(&p, &scope, "0"));
        if page_no == 290 {
            recent = Some(ref_of(&p, &scope, "0"));
        }
    }
    assert!(s.issued() > 300_000);
    assert!(
        s.retained() <= (slots::KEEP_RECENT_CHUNKS + 1) * slots::CHUNK + 1_002,
        "{} of {} retained",
        s.retained(),
        s.issued()
    );
    let (chrome, first, recent) = (chrome.unwrap(), first.unwrap(), recent.unwrap());
    assert_eq!(s.resolve(&tid("t"), chrome), Ok(&NativeId::new("chrome", "1")), "live refs stay");
    // The first page's chunk also holds the chrome's live refs, so it is kept with its details.
    assert!(matches!(s.resolve(&tid("t"), first), Err(RefError::Stale { .. })));
    let old = Ref(5_000);
    assert_eq!(s.resolve(&tid("t"), old), Err(RefError::Forgotten(old)));
    let err = s.resolve(&tid("t"), recent).unwrap_err();
    assert!(matches!(&err, RefError::Stale { name, .. } if name == "Item 290.0"), "{err}");
    assert_eq!(s.resolve(&tid("t"), Ref(10_000_000)), Err(RefError::Unknown(Ref(10_000_000))));
}

/// A sidebar as mdBook builds it: nested unnamed lists, the current chapter's sections listed
/// under it. `current` picks which chapter is expanded.
fn sidebar(scope: &str, current: usize) -> Tree {
    let mut t = Tree::with_root(nd(Role::Document, "Book", scope, "0"));
    let r = t.root().unwrap();
    let nav = t.append(r, nd(Role::Navigation, "", scope, "nav"));
    let outer = t.append(nav, nd(Role::List, "", scope, "outer"));
    for c in 0..3 {
        let li = t.append(outer, nd(Role::ListItem, "", scope, &format!("li{c}")));
        t.append(li, nd(Role::Link, &format!("Chapter {c}"), scope, &format!("ch{c}")));
        let inner = t.append(li, nd(Role::List, "", scope, &format!("inner{c}")));
        for s in 0..3 {
            let sli = t.append(inner, nd(Role::ListItem, "", scope, &format!("s{c}-{s}")));
            t.append(sli, nd(Role::Link, &format!("Part {c}.{s}"), scope, &format!("p{c}-{s}")));
            if c == current && s == 0 {
                // The current page's own sections, under its entry.
                let sub = t.append(sli, nd(Role::List, "", scope, "sub"));
                t.append(sub, nd(Role::Link, &format!("Section of {c}"), scope, "sec"));
            }
        }
    }
    t
}

#[test]
fn rebuilt_unnamed_containers_keep_their_refs_by_their_matched_contents() {
    let mut s = RefSpace::new();
    let (p1, _) = refresh(&mut s, "t", &sidebar("page1", 0));
    // The next page rebuilds the sidebar: every native id is new, another chapter is expanded.
    let (p2, st) = refresh(&mut s, "t", &sidebar("page2", 1));
    for c in 0..3 {
        // An unnamed list is unique by neither key, but its links were carried: it follows them.
        assert_eq!(
            ref_of(&p2, "page2", &format!("inner{c}")),
            ref_of(&p1, "page1", &format!("inner{c}")),
            "list {c}"
        );
        assert_eq!(
            ref_of(&p2, "page2", &format!("li{c}")),
            ref_of(&p1, "page1", &format!("li{c}")),
            "item {c}"
        );
    }
    assert_eq!(ref_of(&p2, "page2", "outer"), ref_of(&p1, "page1", "outer"));
    assert!(st.carried > 20, "{st:?}");
}

#[test]
fn a_container_without_a_majority_of_its_contents_on_both_sides_is_not_carried() {
    let mut s = RefSpace::new();
    let (p1, _) = refresh(&mut s, "t", &sidebar("page1", 9));
    // Next page: the parts regrouped. List A holds two parts of chapter 0 and two of
    // chapter 1; list B one of each of those and all three of chapter 2.
    let mut t = Tree::with_root(nd(Role::Document, "Book", "page2", "0"));
    let r = t.root().unwrap();
    let nav = t.append(r, nd(Role::Navigation, "", "page2", "nav"));
    let outer = t.append(nav, nd(Role::List, "", "page2", "outer"));
    let groups: [(&str, &[&str]); 2] =
        [("A", &["0-0", "0-1", "1-0", "1-1"]), ("B", &["0-2", "1-2", "2-0", "2-1", "2-2"])];
    for (c, (list, parts)) in groups.iter().enumerate() {
        let li = t.append(outer, nd(Role::ListItem, "", "page2", &format!("li{c}")));
        t.append(li, nd(Role::Link, &format!("Chapter {c}"), "page2", &format!("ch{c}")));
        let inner = t.append(li, nd(Role::List, "", "page2", list));
        for part in parts.iter() {
            let sli = t.append(inner, nd(Role::ListItem, "", "page2", &format!("s{part}")));
            t.append(
                sli,
                nd(Role::Link, &format!("Part {}", part.replace('-', ".")), "page2", &format!("p{part}")),
            );
        }
    }
    let (p2, _) = refresh(&mut s, "t", &t);
    assert_eq!(ref_of(&p2, "page2", "p1-1"), ref_of(&p1, "page1", "p1-1"), "the links carry");
    // A: half of old list 0 and half of old list 1, a majority of neither: a new ref.
    let a = ref_of(&p2, "page2", "A");
    for c in 0..3 {
        assert_ne!(a, ref_of(&p1, "page1", &format!("inner{c}")), "A took list {c}'s ref");
    }
    // B: all of old list 2, and those are most of B: it keeps list 2's ref.
    assert_eq!(ref_of(&p2, "page2", "B"), ref_of(&p1, "page1", "inner2"));
}

/// The shape the never-retarget property found (issue 18): two nested look-alike containers
/// (unnamed buttons) around the same matched contents, beside look-alikes that make neither
/// key unique. Their contents cannot tell the outer from the inner, so neither is carried: a
/// guess would hand each one's ref to the other (the inner ref landed on the outer button).
#[test]
fn nested_look_alikes_around_the_same_contents_are_not_carried_by_them() {
    // document > [button > [button > [generic]], button > [button], button]
    let build = |scope: &str| {
        let mut t = Tree::with_root(nd(Role::Document, "", scope, "doc"));
        let r = t.root().unwrap();
        let outer = t.append(r, nd(Role::Button, "", scope, "outer"));
        let inner = t.append(outer, nd(Role::Button, "", scope, "inner"));
        t.append(inner, nd(Role::Generic, "", scope, "x"));
        let other = t.append(r, nd(Role::Button, "", scope, "other"));
        t.append(other, nd(Role::Button, "", scope, "other-inner"));
        t.append(r, nd(Role::Button, "", scope, "last"));
        t
    };
    let mut s = RefSpace::new();
    let (p0, _) = refresh(&mut s, "t", &build("d1"));
    let (p1, _) = refresh(&mut s, "t", &build("d2"));
    // The contents are unique by their whole-tree key and carry.
    assert_eq!(ref_of(&p1, "d2", "x"), ref_of(&p0, "d1", "x"));
    for id in ["outer", "inner"] {
        let was = ref_of(&p0, "d1", id);
        assert!(matches!(s.resolve(&tid("t"), was), Err(RefError::Stale { .. })), "{id}");
        for now in ["outer", "inner"] {
            assert_ne!(ref_of(&p1, "d2", now), was, "{id}'s ref went to {now}");
        }
    }
}

/// A partial capture may miss an element's look-alikes, so it does not show a key unique: the
/// structure churn matching compares stays that of the last whole capture.
#[test]
fn a_partial_capture_does_not_make_a_key_unique() {
    // document > [group "A" > [button "OK"], group "A" > [button "OK"]]
    let build = |scope: &str, groups: &[&str]| {
        let mut t = Tree::with_root(nd(Role::Document, "", scope, "doc"));
        let r = t.root().unwrap();
        for g in groups {
            let group = t.append(r, nd(Role::Group, "A", scope, &format!("g{g}")));
            t.append(group, nd(Role::Button, "OK", scope, &format!("b{g}")));
        }
        t
    };
    let mut s = RefSpace::new();
    let whole = build("d1", &["1", "2"]);
    let (p0, _) = refresh(&mut s, "t", &whole);
    // A capture cut short: the second group was not read.
    let part = build("d1", &["1"]);
    let mut view = part.clone();
    s.refresh_partial(&tid("t"), &part, &mut view);
    // The first button goes, and the document is replaced by a copy of what is left.
    let (p1, _) = refresh(&mut s, "t", &build("d2", &["2"]));
    let gone = ref_of(&p0, "d1", "b1");
    assert!(matches!(s.resolve(&tid("t"), gone), Err(RefError::Stale { .. })));
    assert_ne!(ref_of(&p1, "d2", "b2"), gone, "the gone button's ref went to its look-alike");
}

/// Twin buttons (no unique key: nothing carries them) on a page the agent leaves and comes
/// back to, restored as it was (the back-forward cache: the same scope and native ids).
fn page_with_twins(scope: &str, first: &str) -> Tree {
    let mut t = Tree::with_root(nd(Role::Document, "Page", scope, "0"));
    let r = t.root().unwrap();
    t.append(r, nd(Role::Button, first, scope, "1"));
    t.append(r, nd(Role::Button, "More", scope, "2"));
    t.append(r, nd(Role::Button, "More", scope, "3"));
    t
}

#[test]
fn a_document_that_comes_back_brings_its_refs_back_and_the_page_between_goes() {
    let mut s = RefSpace::new();
    let (p1, _) = refresh(&mut s, "t", &page_with_twins("d1", "Results"));
    let (twin_a, twin_b) = (ref_of(&p1, "d1", "2"), ref_of(&p1, "d1", "3"));
    // Away: another document; the twins cannot be carried, so their refs go stale.
    let (p2, st) = refresh(&mut s, "t", &page_with_twins("d2", "Details"));
    assert!(st.staled >= 2, "{st:?}");
    assert!(matches!(s.resolve(&tid("t"), twin_a), Err(RefError::Stale { .. })));
    let details_twin = ref_of(&p2, "d2", "3");
    // Back: the same document, so the same elements with the same refs.
    let (p3, st) = refresh(&mut s, "t", &page_with_twins("d1", "Results"));
    // The twins and the first button; the document's own ref was carried both ways.
    assert_eq!((st.returned, st.carried), (3, 1), "{st:?}");
    assert_eq!((ref_of(&p3, "d1", "2"), ref_of(&p3, "d1", "3")), (twin_a, twin_b));
    assert_eq!(s.resolve(&tid("t"), twin_b), Ok(&NativeId::new("d1", "3")));
    assert!(matches!(s.resolve(&tid("t"), details_twin), Err(RefError::Stale { .. })));
    // Forward: the page between comes back in turn.
    let (p4, st) = refresh(&mut s, "t", &page_with_twins("d2", "Details"));
    assert_eq!(ref_of(&p4, "d2", "3"), details_twin);
    assert!(st.returned >= 2, "{st:?}");
    // A new load of the first page is another document: its twins are new elements.
    let (p5, _) = refresh(&mut s, "t", &page_with_twins("d3", "Results"));
    assert_ne!(ref_of(&p5, "d3", "2"), twin_a);
    assert!(matches!(s.resolve(&tid("t"), twin_a), Err(RefError::Stale { .. })));
}

#[test]
fn an_element_removed_while_its_document_was_away_stays_stale() {
    let mut s = RefSpace::new();
    let (p1, _) = refresh(&mut s, "t", &page_with_twins("d1", "Results"));
    let (kept, removed) = (ref_of(&p1, "d1", "2"), ref_of(&p1, "d1", "3"));
    refresh(&mut s, "t", &page_with_twins("d2", "Details"));
    let mut back = page_with_twins("d1", "Results");
    let gone = find(&back, "d1", "3");
    back.detach(gone);
    let (p3, st) = refresh(&mut s, "t", &back);
    assert_eq!(st.returned, 2, "{st:?}");
    assert_eq!(ref_of(&p3, "d1", "2"), kept);
    assert!(matches!(s.resolve(&tid("t"), removed), Err(RefError::Stale { .. })));
}
