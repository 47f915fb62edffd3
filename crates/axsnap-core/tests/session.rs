//! Session tests: the full / reset / auto modes, the auto policy and the baseline bounds, run
//! through the real projection, refs, diff, render and token counting.

use std::time::{Duration, Instant};

use axsnap_core::backend::Capture;
use axsnap_core::diff::{apply, diff};
use axsnap_core::project::ProjectOptions;
use axsnap_core::refs::RefError;
use axsnap_core::render::{render_unchanged, Format};
use axsnap_core::session::{Answer, ClientId, FullReason, Mode, Policy, Request, Session, SessionError};
use axsnap_core::{Action, Header, NativeId, Node, Ref, Role, TargetId, Tree};

fn node(role: Role, name: &str, scope: &str, id: &str) -> Node {
    Node::new(role, name, NativeId::new(scope, id))
}

/// A shop page: a main region with a list of `n` items, each with a "Buy" button. `label`
/// makes the item names of one version.
fn shop(scope: &str, n: usize, label: impl Fn(usize) -> String) -> Tree {
    let mut t = Tree::with_root(node(Role::Document, "Shop", scope, "root"));
    let r = t.root().unwrap();
    let main = t.append(r, node(Role::Main, "Catalogue", scope, "main"));
    let list = t.append(main, node(Role::List, "Items", scope, "list"));
    for i in 0..n {
        let item = t.append(list, node(Role::ListItem, &label(i), scope, &format!("item{i}")));
        t.append(item, node(Role::Button, &format!("Buy {}", label(i)), scope, &format!("buy{i}")));
    }
    t
}

fn plain(i: usize) -> String {
    format!("Teapot model {i}")
}

fn capture(target: &str, tree: Tree) -> Capture {
    let header = Header { url: Some(format!("https://shop.example/{target}")), title: Some("Shop".into()) };
    Capture::new(TargetId(target.into()), header, tree, None)
}

fn auto() -> Request {
    Request { mode: Mode::Auto, ..Request::default() }
}

fn with_mode(mode: Mode) -> Request {
    Request { mode, ..Request::default() }
}

fn client(s: &str) -> ClientId {
    ClientId(s.into())
}

#[test]
fn first_call_is_full_and_nothing_changed_is_one_line() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let cap = capture("t", shop("d", 20, plain));
    let r1 = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    assert_eq!(r1.answer, Answer::Full { reason: Some(FullReason::NoBaseline) });
    assert!(r1.text.contains("Teapot model 19"), "{}", r1.text);
    assert_eq!(r1.snapshot.seq, 1);
    assert_eq!(r1.full_tokens, Some(r1.size.tokens_cl100k));
    assert!(r1.size.tokens_cl100k > 0 && r1.size.bytes == r1.text.len());

    let r2 = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    assert_eq!(r2.answer, Answer::Unchanged { since_seq: 1 });
    assert_eq!(r2.text, render_unchanged(1, Format::Text));
    assert_eq!(r2.text.lines().count(), 1);
    assert_eq!(r2.snapshot.seq, 2);
    // The baseline stays the snapshot the client has.
    assert_eq!(s.baseline_seq(&client("a"), &TargetId("t".into())), Some(1));
}

#[test]
fn a_small_change_is_sent_as_a_diff_that_applies() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let r1 = s.snapshot(&client("a"), &capture("t", shop("d", 40, plain)), &auto(), now).unwrap();
    let changed = shop("d", 40, |i| if i == 7 { "Teapot model 7 (sold out)".into() } else { plain(i) });
    let r2 = s.snapshot(&client("a"), &capture("t", changed), &auto(), now).unwrap();
    assert_eq!(r2.answer, Answer::Diff { from_seq: 1 });
    assert!(r2.text.contains("sold out"), "{}", r2.text);
    assert!(!r2.text.contains("Teapot model 30"), "a diff does not repeat unchanged items");
    let full = r2.full_tokens.unwrap();
    assert!((r2.size.tokens_cl100k as f64) < 0.8 * full as f64);
    // The diff the session sent is the one that takes the baseline to the new snapshot.
    let d = diff(&r1.snapshot.tree, &r2.snapshot.tree).unwrap();
    assert_eq!(apply(&r1.snapshot.tree, &d).unwrap(), r2.snapshot.tree);
    assert!(r2.text.contains(" 1 -> 2") || r2.text.contains("1 -> 2"), "{}", r2.text);
    assert_eq!(s.baseline_seq(&client("a"), &TargetId("t".into())), Some(2));
}

#[test]
fn a_big_change_is_sent_full_because_the_diff_is_not_smaller() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    s.snapshot(&client("a"), &capture("t", shop("d", 30, plain)), &auto(), now).unwrap();
    let all_new = shop("d", 30, |i| format!("Kettle number {} in stainless steel", i * 7));
    let r = s.snapshot(&client("a"), &capture("t", all_new), &auto(), now).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: Some(FullReason::DiffNotSmaller) });
    assert!(r.text.contains("Kettle number 203"));
    assert_eq!(r.full_tokens, Some(r.size.tokens_cl100k));
}

#[test]
fn full_does_not_move_the_baseline_and_reset_does() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let t = TargetId("t".into());
    let a = client("a");
    s.snapshot(&a, &capture("t", shop("d", 20, plain)), &auto(), now).unwrap();
    let v2 = capture("t", shop("d", 20, |i| if i == 3 { "Changed".into() } else { plain(i) }));
    let f = s.snapshot(&a, &v2, &with_mode(Mode::Full), now).unwrap();
    assert_eq!(f.answer, Answer::Full { reason: None });
    assert_eq!(s.baseline_seq(&a, &t), Some(1));
    // Auto still diffs against snapshot 1, which the client holds as its baseline.
    let d = s.snapshot(&a, &v2, &auto(), now).unwrap();
    assert_eq!(d.answer, Answer::Diff { from_seq: 1 });
    assert_eq!(s.baseline_seq(&a, &t), Some(3));
    let r = s.snapshot(&a, &v2, &with_mode(Mode::Reset), now).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: None });
    assert_eq!(s.baseline_seq(&a, &t), Some(4));
    let u = s.snapshot(&a, &v2, &auto(), now).unwrap();
    assert_eq!(u.answer, Answer::Unchanged { since_seq: 4 });
}

#[test]
fn changed_options_mean_full() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let cap = capture("t", shop("d", 10, plain));
    s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    let mut opts = ProjectOptions::default();
    opts.view.interactive_only = true;
    let req = Request { options: opts, ..auto() };
    let r = s.snapshot(&client("a"), &cap, &req, now).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: Some(FullReason::OptionsChanged) });
    // Same options again: unchanged against the new baseline.
    let r = s.snapshot(&client("a"), &cap, &req, now).unwrap();
    assert_eq!(r.answer, Answer::Unchanged { since_seq: 2 });
}

#[test]
fn baselines_are_evicted_by_count_least_recently_used_first() {
    let policy = Policy { max_baselines: 2, ..Policy::default() };
    let mut s = Session::new(policy);
    let t0 = Instant::now();
    let cap = |t: &str| capture(t, shop(t, 5, plain));
    s.snapshot(&client("a"), &cap("x"), &auto(), t0).unwrap();
    s.snapshot(&client("a"), &cap("y"), &auto(), t0 + Duration::from_secs(1)).unwrap();
    // Use x again: y is now the least recently used.
    let r = s.snapshot(&client("a"), &cap("x"), &auto(), t0 + Duration::from_secs(2)).unwrap();
    assert!(matches!(r.answer, Answer::Unchanged { .. }));
    s.snapshot(&client("a"), &cap("z"), &auto(), t0 + Duration::from_secs(3)).unwrap();
    assert_eq!(s.baseline_count(), 2);
    let ry = s.snapshot(&client("a"), &cap("y"), &auto(), t0 + Duration::from_secs(4)).unwrap();
    assert_eq!(ry.answer, Answer::Full { reason: Some(FullReason::NoBaseline) });
    // Adding y evicted x (least recently used at that point); z stayed.
    assert_eq!(s.baseline_seq(&client("a"), &TargetId("x".into())), None);
    let rz = s.snapshot(&client("a"), &cap("z"), &auto(), t0 + Duration::from_secs(5)).unwrap();
    assert!(matches!(rz.answer, Answer::Unchanged { .. }));
}

#[test]
fn baselines_expire_by_age() {
    let policy = Policy { max_age: Duration::from_secs(10), ..Policy::default() };
    let mut s = Session::new(policy);
    let t0 = Instant::now();
    let cap = capture("t", shop("d", 5, plain));
    s.snapshot(&client("a"), &cap, &auto(), t0).unwrap();
    let r = s.snapshot(&client("a"), &cap, &auto(), t0 + Duration::from_secs(9)).unwrap();
    assert!(matches!(r.answer, Answer::Unchanged { .. }), "using a baseline keeps it fresh");
    let r = s.snapshot(&client("a"), &cap, &auto(), t0 + Duration::from_secs(18)).unwrap();
    assert!(matches!(r.answer, Answer::Unchanged { .. }));
    let r = s.snapshot(&client("a"), &cap, &auto(), t0 + Duration::from_secs(29)).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: Some(FullReason::NoBaseline) });
}

#[test]
fn clients_have_their_own_baselines() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let v1 = capture("t", shop("d", 30, plain));
    let v2 = capture("t", shop("d", 30, |i| if i == 1 { "Other".into() } else { plain(i) }));
    s.snapshot(&client("a"), &v1, &auto(), now).unwrap();
    let rb = s.snapshot(&client("b"), &v2, &auto(), now).unwrap();
    assert_eq!(rb.answer, Answer::Full { reason: Some(FullReason::NoBaseline) });
    let ra = s.snapshot(&client("a"), &v2, &auto(), now).unwrap();
    assert_eq!(ra.answer, Answer::Diff { from_seq: 1 });
    let rb = s.snapshot(&client("b"), &v2, &auto(), now).unwrap();
    assert_eq!(rb.answer, Answer::Unchanged { since_seq: 2 });
    s.forget_client(&client("a"));
    assert_eq!(s.baseline_count(), 1);
    // Refs are shared by the session: both clients saw the same refs.
    assert_eq!(ra.snapshot.tree, rb.snapshot.tree);
}

#[test]
fn a_ref_of_another_target_is_foreign() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let ra = s.snapshot(&client("a"), &capture("x", shop("dx", 3, plain)), &auto(), now).unwrap();
    s.snapshot(&client("a"), &capture("y", shop("dy", 3, plain)), &auto(), now).unwrap();
    let some_ref = ra.snapshot.tree.node(ra.snapshot.tree.root().unwrap()).ref_id.unwrap();
    let err = s.view_scope(&TargetId("y".into()), Some(some_ref)).unwrap_err();
    assert!(matches!(err, SessionError::Ref(RefError::Foreign { .. })), "{err}");
    assert!(matches!(s.resolve(&TargetId("y".into()), some_ref), Err(RefError::Foreign { .. })));
    assert!(matches!(
        s.view_scope(&TargetId("x".into()), Some(Ref(9999))),
        Err(SessionError::Ref(RefError::Unknown(_)))
    ));
    assert_eq!(s.view_scope(&TargetId("x".into()), None).unwrap(), None);
}

#[test]
fn a_scope_ref_becomes_a_subtree_view() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let cap = capture("t", shop("d", 5, plain));
    let r = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    let tree = &r.snapshot.tree;
    let item2 = tree.preorder().map(|(id, _)| tree.node(id)).find(|n| n.name == "Teapot model 2").unwrap();
    let scope = s.view_scope(&cap.target, item2.ref_id).unwrap();
    assert_eq!(scope, Some(NativeId::new("d", "item2")));
    let mut options = ProjectOptions::default();
    options.view.scope = scope;
    let r = s.snapshot(&client("a"), &cap, &Request { options, ..auto() }, now).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: Some(FullReason::OptionsChanged) });
    assert!(r.text.contains("Buy Teapot model 2") && !r.text.contains("Teapot model 3"), "{}", r.text);
    // The scoped view kept the refs the full view gave.
    let buy2 = tree.preorder().map(|(id, _)| tree.node(id)).find(|n| n.name == "Buy Teapot model 2").unwrap();
    assert!(r.text.contains(&format!("[{}]", buy2.ref_id.unwrap())), "{}", r.text);
}

#[test]
fn partial_captures_say_so_and_are_never_diffed() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let mut cap = capture("t", shop("d", 10, plain));
    s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    cap.partial = Some("deadline reached after 10 nodes".into());
    let r = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: Some(FullReason::Partial) });
    assert!(r.text.starts_with("# partial capture: deadline reached after 10 nodes"), "{}", r.text);
    assert_eq!(r.partial.as_deref(), Some("deadline reached after 10 nodes"));
    // The next complete capture is not diffed against the partial one either.
    cap.partial = None;
    let r = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    assert_eq!(r.answer, Answer::Full { reason: Some(FullReason::Partial) });
    assert!(!r.text.contains("partial"));
    let r = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    assert!(matches!(r.answer, Answer::Unchanged { .. }));
    // JSON keeps valid JSON and says it too.
    cap.partial = Some("too many nodes".into());
    let req = Request { format: Format::Json, ..with_mode(Mode::Full) };
    let r = s.snapshot(&client("a"), &cap, &req, now).unwrap();
    let v: serde_json::Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(v["partial"], "too many nodes");
    assert_eq!(v["seq"], r.snapshot.seq);
}

#[test]
fn a_partial_capture_does_not_make_the_refs_it_missed_stale() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let whole = capture("t", shop("d", 10, plain));
    let r = s.snapshot(&client("a"), &whole, &auto(), now).unwrap();
    let t = &r.snapshot.tree;
    let buy = t.preorder().map(|(id, _)| t.node(id)).find(|n| n.name == "Buy Teapot model 7");
    let buy = buy.and_then(|n| n.ref_id).expect("a ref on the button");
    // Only the root made it before the deadline.
    let mut cut = capture("t", Tree::with_root(node(Role::Document, "Shop", "d", "root")));
    cut.partial = Some("deadline".into());
    s.snapshot(&client("a"), &cut, &auto(), now).unwrap();
    assert_eq!(s.resolve(&TargetId("t".into()), buy), Ok(&NativeId::new("d", "buy7")));
    let r = s.snapshot(&client("a"), &whole, &auto(), now).unwrap();
    assert!(r.text.contains(&format!("button \"Buy Teapot model 7\" [{buy}]")), "{}", r.text);
}

#[test]
fn a_header_change_alone_is_not_hidden() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let mut cap = capture("t", shop("d", 20, plain));
    s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    cap.header.url = Some("https://shop.example/t?page=2".into());
    let r = s.snapshot(&client("a"), &cap, &auto(), now).unwrap();
    assert_eq!(r.answer, Answer::Diff { from_seq: 1 });
    assert!(r.text.starts_with("# page: Shop — https://shop.example/t?page=2"), "{}", r.text);
    let req = Request { format: Format::Json, ..auto() };
    cap.header.title = Some("Shop, page 2".into());
    let r = s.snapshot(&client("b"), &cap, &req, now).unwrap();
    assert!(matches!(r.answer, Answer::Full { .. }));
    cap.header.title = Some("Shop, page 3".into());
    let r = s.snapshot(&client("b"), &cap, &req, now).unwrap();
    assert_eq!(r.answer, Answer::Diff { from_seq: 3 });
    let v: serde_json::Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(v["header"]["title"], "Shop, page 3");
    assert_eq!(v["from_seq"], 3);
}

#[test]
fn a_new_document_root_is_sent_full() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    s.snapshot(&client("a"), &capture("t", shop("d1", 5, plain)), &auto(), now).unwrap();
    // Navigation to another page: new document scope, nothing structurally shared at the root.
    let mut other = Tree::with_root(node(Role::Document, "Checkout", "d2", "root"));
    let r0 = other.root().unwrap();
    other.append(r0, node(Role::Button, "Pay", "d2", "pay"));
    let r = s.snapshot(&client("a"), &capture("t", other), &auto(), now).unwrap();
    assert!(
        matches!(
            r.answer,
            Answer::Full { reason: Some(FullReason::DiffUnsafe | FullReason::DiffNotSmaller) }
        ),
        "{:?}",
        r.answer
    );
    assert!(r.text.contains("Pay"));
}

/// A site page: a shared navigation of 30 links and a page-specific article.
fn site_page(scope: &str, article: &str) -> Tree {
    let mut t = Tree::with_root(node(Role::Document, "Docs", scope, "root"));
    let r = t.root().unwrap();
    let nav = t.append(r, node(Role::Navigation, "Chapters", scope, "nav"));
    for i in 0..30 {
        t.append(
            nav,
            node(Role::Link, &format!("Chapter {i}: on kettles and teapots"), scope, &format!("l{i}")),
        );
    }
    let main = t.append(r, node(Role::Main, "", scope, "main"));
    t.append(main, node(Role::Heading, article, scope, "h1"));
    t.append(main, node(Role::Paragraph, &format!("All about {article}."), scope, "p1"));
    t
}

#[test]
fn navigation_within_a_site_carries_shared_refs_and_sends_a_diff() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let r1 = s.snapshot(&client("a"), &capture("t", site_page("doc1", "Kettles")), &auto(), now).unwrap();
    // The browser replaced the document: every native id is new.
    let r2 = s.snapshot(&client("a"), &capture("t", site_page("doc2", "Teapots")), &auto(), now).unwrap();
    assert!(r2.refs.carried >= 31, "{:?}", r2.refs);
    assert_eq!(r2.answer, Answer::Diff { from_seq: 1 }, "{}", r2.text);
    assert!(r2.text.contains("Teapots") && !r2.text.contains("Chapter 12"), "{}", r2.text);
    let link = |t: &Tree| {
        t.preorder().map(|(id, _)| t.node(id)).find(|n| n.name.starts_with("Chapter 5:")).unwrap().ref_id
    };
    assert_eq!(link(&r1.snapshot.tree), link(&r2.snapshot.tree));
    assert_eq!(
        s.resolve(&TargetId("t".into()), link(&r2.snapshot.tree).unwrap()).unwrap(),
        &NativeId::new("doc2", "l5")
    );
}

/// A page of `n` sections of prose under headings, for the budget.
fn long_page(n: usize, changed: bool) -> Capture {
    let mut t = Tree::with_root(Node::new(Role::Document, "Long", NativeId::new("doc", "root")));
    let root = t.root().unwrap();
    let main = t.append(root, Node::new(Role::Main, "", NativeId::new("doc", "main")));
    for s in 0..n {
        let mut h = Node::new(Role::Heading, format!("Part {s}"), NativeId::new("doc", format!("h{s}")));
        h.level = Some(2);
        t.append(main, h);
        for p in 0..10 {
            let words = if changed && s == n - 1 && p == 0 { "changed words" } else { "the same words" };
            let text =
                format!("Paragraph {p} of part {s} says {words} about ownership, borrowing and lifetimes.");
            t.append(main, Node::new(Role::Paragraph, text, NativeId::new("doc", format!("p{s}-{p}"))));
        }
    }
    Capture::new(TargetId("t1".into()), Header::default(), t, None)
}

#[test]
fn a_page_over_the_budget_is_an_outline_and_diffs_stay_on_what_was_shown() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let req = Request { max_tokens: Some(3_000), ..auto() };
    let first = s.snapshot(&client("a"), &long_page(60, false), &req, now).unwrap();
    let o = first.outline.expect("over the budget");
    assert!(o.page_tokens > 5_000 && o.folds > 0, "{o:?}");
    assert!(first.size.tokens_cl100k <= 3_000, "{}", first.text);
    assert!(first.text.contains("h2 \"Part 59\""), "every heading is shown: {}", first.text);
    assert!(first.text.starts_with("# outline: the page is"), "{}", first.text);
    // The whole page is still what refs and find see.
    assert_eq!(first.snapshot.tree.len(), 2 + 60 * 11);

    // A small change under a fold: a diff (applied exactly) whose text is its header alone:
    // the fold's size moved by less than a tenth, which the JSON form says.
    let second = s.snapshot(&client("a"), &long_page(60, true), &req, now).unwrap();
    assert!(matches!(second.answer, Answer::Diff { .. }), "{:?}: {}", second.answer, second.text);
    assert_eq!(second.text.lines().count(), 1, "{}", second.text);
    assert!(second.json.is_none() || second.json.as_deref().is_some_and(|j| j.contains("folded")));

    // Without a budget, the whole page.
    let whole =
        s.snapshot(&client("b"), &long_page(60, true), &Request { max_tokens: None, ..auto() }, now).unwrap();
    assert!(whole.outline.is_none() && whole.size.tokens_cl100k > 5_000);
}

/// A page large enough that the session projects it while the refs read it (two threads):
/// the refs and answers are those of the one-thread pipeline, through a change, a partial
/// capture and a re-creation of part of the page.
#[test]
fn a_large_page_read_while_projected_gets_the_refs_of_one_thread() {
    use axsnap_core::project::project;
    use axsnap_core::refs::RefSpace;
    let n = 12_000; // 24,004 raw nodes
    let v1 = shop("d", n, plain);
    let v2 = shop("d", n, |i| if i % 97 == 0 { format!("Kettle {i}") } else { plain(i) });
    // Items 0..50 re-created: equal content under new native ids.
    let mut v3 = shop("d", n, |i| if i % 97 == 0 { format!("Kettle {i}") } else { plain(i) });
    for i in 0..50 {
        let id =
            v3.preorder().map(|(id, _)| id).find(|&id| v3.node(id).native.id == format!("item{i}")).unwrap();
        v3.node_mut(id).native.id = format!("again{i}");
    }
    let steps: Vec<(Tree, Option<String>)> =
        vec![(v1, None), (v2.clone(), None), (v2, Some("cut".into())), (v3, None)];
    let mut session = Session::new(Policy::default());
    let mut refs = RefSpace::new();
    let target = TargetId("t1".into());
    let request = Request { max_tokens: None, ..auto() };
    for (tree, partial) in steps {
        assert!(tree.arena_len() >= 20_000);
        let mut cap = capture("t1", tree.clone());
        cap.partial = partial.clone();
        let answer = session.snapshot(&ClientId("c".into()), &cap, &request, Instant::now()).unwrap();
        let mut p = project(&cap.tree, &ProjectOptions::default());
        if partial.is_some() {
            refs.refresh_projection_partial(&target, &cap.tree, &mut p);
        } else {
            refs.refresh_projection(&target, &cap.tree, &mut p);
        }
        let shown = |t: &Tree| {
            t.preorder().map(|(id, _)| (t.node(id).native.clone(), t.node(id).ref_id)).collect::<Vec<_>>()
        };
        assert_eq!(shown(&answer.snapshot.tree), shown(&p.tree));
    }
}

/// The ref of the node named `name`.
fn ref_named(t: &Tree, name: &str) -> Option<Ref> {
    t.preorder().map(|(id, _)| t.node(id)).find(|n| n.name == name).and_then(|n| n.ref_id)
}

/// Another page of the shop: a different document with other items.
fn other_page(scope: &str) -> Tree {
    shop(scope, 12, |i| format!("Kettle model {i}"))
}

#[test]
fn back_on_a_page_kept_by_the_browser_is_diffed_against_what_was_shown_of_it() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let a = client("a");
    let first = s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &auto(), now).unwrap();
    let buy = ref_named(&first.snapshot.tree, "Buy Teapot model 3");
    let elsewhere = s.snapshot(&a, &capture("t", other_page("d2")), &auto(), now).unwrap();
    assert!(matches!(elsewhere.answer, Answer::Full { .. } | Answer::Diff { .. }));
    // Back: the same document (scope d1, its native ids), unchanged.
    let back = s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &auto(), now).unwrap();
    assert_eq!(back.answer, Answer::Unchanged { since_seq: first.snapshot.seq }, "{}", back.text);
    assert!(back.text.starts_with("# back on Shop — https://shop.example/t, the same page"), "{}", back.text);
    assert!(back.text.contains("unchanged since you last saw it"), "{}", back.text);
    assert_eq!(back.text.lines().count(), 1);
    assert_eq!(
        back.refs.returned,
        back.snapshot.tree.preorder().count() - back.refs.carried - back.refs.kept
    );
    // Its refs work again.
    assert_eq!(ref_named(&back.snapshot.tree, "Buy Teapot model 3"), buy);
    let r = buy.unwrap();
    assert_eq!(s.resolve(&TargetId("t".into()), r), Ok(&NativeId::new("d1", "buy3")));

    // Forward, then back on a page that changed while it was away: a diff against the first
    // answer, that applies to it.
    s.snapshot(&a, &capture("t", other_page("d2")), &auto(), now).unwrap();
    let changed = shop("d1", 30, |i| if i == 4 { "Teapot model 4 (sold out)".into() } else { plain(i) });
    let back = s.snapshot(&a, &capture("t", changed), &auto(), now).unwrap();
    assert_eq!(back.answer, Answer::Diff { from_seq: first.snapshot.seq }, "{}", back.text);
    let mut lines = back.text.lines();
    assert!(lines.next().unwrap().ends_with("its refs work again; what changed since you last saw it:"));
    assert!(back.text.contains("(sold out)"), "{}", back.text);
    let d = diff(&first.snapshot.tree, &back.snapshot.tree).unwrap();
    assert_eq!(apply(&first.snapshot.tree, &d).unwrap(), back.snapshot.tree);

    // A new load of the same page is another document: answered as any navigation.
    let reload = s.snapshot(&a, &capture("t", shop("d3", 30, plain)), &auto(), now).unwrap();
    assert!(!reload.text.starts_with("# back on"), "{}", reload.text);
}

/// A look at a part of the page (`snapshot ref=…`) leaves the page: the next answer about the
/// whole page is diffed against what the client last saw of it whole, with no "back on" note
/// (Gradio and JupyterLab answered `# back on <title>, the same page as before` after one).
#[test]
fn a_part_of_the_page_is_not_another_page() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let a = client("a");
    let first = s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &auto(), now).unwrap();
    let mut part = auto();
    part.options.view.scope = Some(NativeId::new("d1", "list"));
    let list = s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &part, now).unwrap();
    assert!(list.text.contains("Teapot model 3"), "{}", list.text);
    let again = s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &auto(), now).unwrap();
    assert_eq!(again.answer, Answer::Unchanged { since_seq: first.snapshot.seq }, "{}", again.text);
    assert!(!again.text.contains("back on"), "{}", again.text);
    s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &part, now).unwrap();
    let changed = shop("d1", 30, |i| if i == 4 { "Teapot model 4 (sold out)".into() } else { plain(i) });
    let after = s.snapshot(&a, &capture("t", changed), &auto(), now).unwrap();
    assert_eq!(after.answer, Answer::Diff { from_seq: first.snapshot.seq }, "{}", after.text);
    assert!(!after.text.contains("back on") && after.text.contains("(sold out)"), "{}", after.text);
    // Another page, then back: that is still said.
    s.snapshot(&a, &capture("t", other_page("d2")), &auto(), now).unwrap();
    let back = s.snapshot(&a, &capture("t", shop("d1", 30, plain)), &auto(), now).unwrap();
    assert!(back.text.starts_with("# back on"), "{}", back.text);
}

#[test]
fn back_is_per_client_and_a_full_request_moves_nothing() {
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let (a, b) = (client("a"), client("b"));
    s.snapshot(&a, &capture("t", shop("d1", 10, plain)), &auto(), now).unwrap();
    s.snapshot(&a, &capture("t", other_page("d2")), &auto(), now).unwrap();
    // Client b never saw d1: its first answer is full.
    let rb = s.snapshot(&b, &capture("t", shop("d1", 10, plain)), &auto(), now).unwrap();
    assert_eq!(rb.answer, Answer::Full { reason: Some(FullReason::NoBaseline) });
    let full = s.snapshot(&a, &capture("t", shop("d1", 10, plain)), &with_mode(Mode::Full), now).unwrap();
    assert!(matches!(full.answer, Answer::Full { reason: None }));
    let ra = s.snapshot(&a, &capture("t", shop("d1", 10, plain)), &auto(), now).unwrap();
    assert!(matches!(ra.answer, Answer::Unchanged { .. }), "{}", ra.text);
    assert!(ra.text.starts_with("# back on"));
}

/// A grid whose app re-creates every cell object on each read (LibreOffice Calc's sheet): the
/// cells keep their refs under new native ids, and a look with nothing else new says
/// unchanged, not a diff of no change.
#[test]
fn objects_re_created_as_they_were_are_no_change() {
    let grid = |generation: u32, value: &str| {
        let mut t = Tree::with_root(Node::new(Role::Window, "Sheet", NativeId::new("app", "root")));
        let root = t.root().unwrap();
        let table = t.append(root, Node::new(Role::Table, "Sheet1", NativeId::new("app", "table")));
        for (name, v) in [("A1", "Total"), ("B3", value)] {
            let mut cell =
                Node::new(Role::Cell, name, NativeId::new("app", format!("cell-{generation}-{name}")));
            cell.value = Some(v.into());
            cell.actions.set(Action::Click, true);
            t.append(table, cell);
        }
        Capture::new(TargetId("t1".into()), Header::default(), t, None)
    };
    let mut s = Session::new(Policy::default());
    let now = Instant::now();
    let first = s.snapshot(&client("a"), &grid(1, "12"), &auto(), now).unwrap();
    let b3 = |text: &str| text.lines().find(|l| l.contains("cell \"B3\"")).map(str::to_string);
    let again = s.snapshot(&client("a"), &grid(2, "12"), &auto(), now).unwrap();
    assert_eq!(again.answer, Answer::Unchanged { since_seq: 1 }, "{}", again.text);
    assert_eq!(again.text, render_unchanged(1, Format::Text));
    // The ref now names the new object.
    let r: Ref = b3(&first.text).and_then(|l| l.split('[').nth(1)?.split(']').next()?.parse().ok()).unwrap();
    assert_eq!(s.resolve(&TargetId("t1".into()), r).unwrap(), &NativeId::new("app", "cell-2-B3"));
    // A real change on a third generation is a diff under the same ref.
    let changed = s.snapshot(&client("a"), &grid(3, "5"), &auto(), now).unwrap();
    assert!(matches!(changed.answer, Answer::Diff { .. }), "{}", changed.text);
    assert!(changed.text.contains(&format!("~ {r} cell \"B3\": value \"12\" -> \"5\"")), "{}", changed.text);
}
