//! Saved sessions: a session saved, written to JSON and read back (as another process would
//! from a shared store) answers every next step as the original does, and a corrupt or hostile
//! saved form is an error, never a panic.

use std::time::{Duration, Instant};

use axsnap_core::backend::Capture;
use axsnap_core::project::ProjectOptions;
use axsnap_core::refs::RefError;
use axsnap_core::render::Format;
use axsnap_core::session::{
    Answer, ClientId, FullReason, Mode, Policy, Request, Response, RestoreError, SavedSession, Session,
};
use axsnap_core::{Header, NativeId, Node, Ref, Role, TargetId, Tree};

fn node(role: Role, name: &str, scope: &str, id: &str) -> Node {
    Node::new(role, name, NativeId::new(scope, id))
}

/// A shop page: a list of items, each with a "Buy" button; `items` gives each item's number
/// and name.
fn shop(scope: &str, items: &[(usize, &str)]) -> Tree {
    let mut t = Tree::with_root(node(Role::Document, "Shop", scope, "root"));
    let r = t.root().unwrap();
    let main = t.append(r, node(Role::Main, "Catalogue", scope, "main"));
    let list = t.append(main, node(Role::List, "Items", scope, "list"));
    for &(i, name) in items {
        let item = t.append(list, node(Role::ListItem, name, scope, &format!("item{i}")));
        t.append(item, node(Role::Button, &format!("Buy {name}"), scope, &format!("buy{i}")));
    }
    t
}

const TEAPOTS: [&str; 8] =
    ["Brown Betty", "Yixing", "Tetsubin", "Kyusu", "Samovar", "Gaiwan", "Bodum", "Hario"];

fn teapots(
    skip: Option<usize>,
    rename: Option<(usize, &'static str)>,
    add: bool,
) -> Vec<(usize, &'static str)> {
    let mut items: Vec<(usize, &str)> =
        TEAPOTS.iter().copied().enumerate().filter(|(i, _)| Some(*i) != skip).collect();
    if let Some((i, name)) = rename {
        for item in items.iter_mut().filter(|(j, _)| *j == i) {
            item.1 = name;
        }
    }
    if add {
        items.push((8, "Chatsford"));
    }
    items
}

/// A site page: a shared navigation and a page-specific article.
fn site_page(scope: &str, article: &str, words: &str) -> Tree {
    let mut t = Tree::with_root(node(Role::Document, "Docs", scope, "root"));
    let r = t.root().unwrap();
    let nav = t.append(r, node(Role::Navigation, "Chapters", scope, "nav"));
    for i in 0..6 {
        let mut link = node(Role::Link, &format!("Chapter {i}: on kettles"), scope, &format!("l{i}"));
        link.url = Some(format!("https://docs.example/{i}.html"));
        t.append(nav, link);
    }
    let main = t.append(r, node(Role::Main, "", scope, "main"));
    let mut h = node(Role::Heading, article, scope, "h1");
    h.level = Some(1);
    t.append(main, h);
    t.append(main, node(Role::Paragraph, &format!("All about {article}: {words}."), scope, "p1"));
    t.append(main, node(Role::TextBox, "Search", scope, "q"));
    t
}

/// Checkout: another document, with a form.
fn checkout(scope: &str) -> Tree {
    let mut t = Tree::with_root(node(Role::Document, "Checkout", scope, "root"));
    let r = t.root().unwrap();
    let form = t.append(r, node(Role::Form, "Pay", scope, "form"));
    t.append(form, node(Role::TextBox, "Card number", scope, "card"));
    t.append(form, node(Role::CheckBox, "Save card", scope, "save"));
    t.append(form, node(Role::Button, "Pay now", scope, "pay"));
    t
}

/// One step of a script: who asks, about what, when (seconds from the start).
struct Step {
    client: &'static str,
    target: &'static str,
    tree: Tree,
    partial: Option<&'static str>,
    request: Request,
    at: u64,
}

fn step(client: &'static str, target: &'static str, tree: Tree, at: u64) -> Step {
    Step { client, target, tree, partial: None, request: auto(), at }
}

fn auto() -> Request {
    Request { mode: Mode::Auto, ..Request::default() }
}

fn capture(target: &str, tree: Tree, partial: Option<&str>) -> Capture {
    let title = tree.root().map(|r| tree.node(r).name.clone());
    let header = Header { url: Some(format!("https://shop.example/{target}/{}", tree.arena_len())), title };
    Capture::new(TargetId(target.into()), header, tree, partial.map(str::to_string))
}

fn run(s: &mut Session, step: &Step, t0: Instant) -> Response {
    let cap = capture(step.target, step.tree.clone(), step.partial);
    let now = t0 + Duration::from_secs(step.at);
    s.snapshot(&ClientId(step.client.into()), &cap, &step.request, now).expect("a snapshot")
}

fn policy() -> Policy {
    Policy { max_age: Duration::from_secs(30), ..Policy::default() }
}

/// Two clients on two targets: items removed and added (stale refs), a navigation away (refs
/// away), a partial capture, a navigation within a site (carried refs), a full request, JSON.
fn before() -> Vec<Step> {
    let mut json = step("b", "t1", checkout("d2"), 7);
    json.request = Request { format: Format::Json, also_json: true, ..auto() };
    let mut partial = step("a", "t1", checkout("d2"), 4);
    partial.partial = Some("deadline reached after 3 nodes");
    partial.tree.detach(partial.tree.preorder().map(|(id, _)| id).nth(3).unwrap());
    let mut full = step("a", "t1", checkout("d2"), 6);
    full.request = Request { mode: Mode::Full, ..auto() };
    vec![
        step("a", "t1", shop("d1", &teapots(None, None, false)), 0),
        step("a", "t1", shop("d1", &teapots(Some(2), None, true)), 1),
        step("b", "t2", site_page("s1", "Kettles", "steel and copper"), 2),
        step("a", "t1", checkout("d2"), 3),
        partial,
        step("b", "t2", site_page("s2", "Teapots", "clay and cast iron"), 5),
        full,
        json,
    ]
}

/// What comes after the save: back on the shop (its refs come back), changes, a client new to
/// a target, a scoped and an interactive-only view, and a step after every baseline expired.
fn after() -> Vec<Step> {
    let mut json = step("b", "t1", checkout("d2"), 13);
    json.request = Request { format: Format::Json, also_json: true, ..auto() };
    let mut interactive = step("a", "t1", shop("d1", &teapots(Some(2), Some((5, "Gaiwan set")), true)), 14);
    interactive.request.options = ProjectOptions::default();
    interactive.request.options.view.interactive_only = true;
    let mut scoped = step("a", "t1", shop("d1", &teapots(Some(2), Some((5, "Gaiwan set")), true)), 15);
    scoped.request.options.view.scope = Some(NativeId::new("d1", "item4"));
    let mut text_only = step("b", "t2", site_page("s2", "Teapots", "clay only"), 16);
    text_only.request = Request { max_tokens: Some(60), ..auto() };
    vec![
        step("a", "t1", shop("d1", &teapots(Some(2), None, true)), 9),
        step("a", "t1", shop("d1", &teapots(Some(2), Some((5, "Gaiwan set")), true)), 10),
        step("b", "t2", site_page("s2", "Teapots", "clay, glass and cast iron"), 11),
        step("a", "t2", site_page("s2", "Teapots", "clay, glass and cast iron"), 12),
        json,
        interactive,
        scoped,
        text_only,
        step("a", "t1", checkout("d2"), 17),
        step("a", "t1", shop("d1", &teapots(Some(2), Some((5, "Gaiwan set")), true)), 60),
        step("b", "t2", site_page("s3", "Cups", "porcelain"), 61),
    ]
}

/// How every ref number (and one past the last) resolves on each target.
fn resolutions(s: &Session) -> Vec<Result<NativeId, RefError>> {
    let last = s.refs().issued() as u32 + 1;
    ["t1", "t2", "t3"]
        .iter()
        .flat_map(|t| (0..=last).map(move |i| s.resolve(&TargetId(t.to_string()), Ref(i)).cloned()))
        .collect()
}

/// Asserts that two sessions are in the same state, as far as anything can tell.
fn assert_same_state(a: &Session, b: &Session) {
    assert_eq!(a.refs().issued(), b.refs().issued());
    assert_eq!(a.refs().retained(), b.refs().retained());
    assert_eq!(resolutions(a), resolutions(b));
    assert_eq!(a.baseline_count(), b.baseline_count());
    for c in ["a", "b"] {
        for t in ["t1", "t2"] {
            let (c, t) = (ClientId(c.into()), TargetId(t.into()));
            assert_eq!(a.baseline_seq(&c, &t), b.baseline_seq(&c, &t), "{c:?} on {t}");
        }
    }
}

/// Asserts that two answers are the same in every part.
fn assert_same_answer(a: &Response, b: &Response, what: &str) {
    assert_eq!(a.answer, b.answer, "{what}");
    assert_eq!(a.text, b.text, "{what}");
    assert_eq!(a.size, b.size, "{what}");
    assert_eq!(a.full_tokens, b.full_tokens, "{what}");
    assert_eq!(a.snapshot, b.snapshot, "{what}");
    assert_eq!(a.outline, b.outline, "{what}");
    assert_eq!(a.refs, b.refs, "{what}");
    assert_eq!(a.partial, b.partial, "{what}");
    assert_eq!(a.json, b.json, "{what}");
}

/// Saves `s` at `now`, writes it to JSON bytes and reads it back, as the server's store does.
fn through_json(s: &Session, now: Instant) -> Session {
    let bytes = serde_json::to_vec(&s.save(now)).expect("a saved session is JSON");
    let saved: SavedSession = serde_json::from_slice(&bytes).expect("read back");
    Session::restore(policy(), saved, now).expect("restored")
}

fn ref_named(t: &Tree, name: &str) -> Option<Ref> {
    t.preorder().map(|(id, _)| t.node(id)).find(|n| n.name == name).and_then(|n| n.ref_id)
}

#[test]
fn a_restored_session_answers_every_next_step_as_the_original() {
    let t0 = Instant::now();
    let mut original = Session::new(policy());
    let answers: Vec<Response> = before().iter().map(|s| run(&mut original, s, t0)).collect();
    // What the script went through before the save.
    let yixing = ref_named(&answers[0].snapshot.tree, "Buy Yixing").unwrap();
    assert_eq!(answers[1].answer, Answer::Diff { from_seq: 1 }, "{}", answers[1].text);
    assert_eq!(
        original
            .resolve(&TargetId("t1".into()), ref_named(&answers[0].snapshot.tree, "Buy Tetsubin").unwrap()),
        Err(RefError::Stale {
            r: ref_named(&answers[0].snapshot.tree, "Buy Tetsubin").unwrap(),
            role: "button".into(),
            name: "Buy Tetsubin".into()
        })
    );
    assert!(matches!(original.resolve(&TargetId("t1".into()), yixing), Err(RefError::Stale { .. })), "away");
    assert_eq!(answers[4].answer, Answer::Full { reason: Some(FullReason::Partial) });
    assert!(answers[5].refs.carried >= 6, "{:?}", answers[5].refs);

    let saved_at = t0 + Duration::from_secs(8);
    let mut restored = through_json(&original, saved_at);
    assert_same_state(&original, &restored);
    for (i, s) in after().iter().enumerate() {
        let a = run(&mut original, s, t0);
        let b = run(&mut restored, s, t0);
        assert_same_answer(&a, &b, &format!("step {i} after the save: {}", a.text));
        assert_same_state(&original, &restored);
        if i == 0 {
            // Back on the shop: the same document, its refs back.
            assert_eq!(b.answer, Answer::Unchanged { since_seq: 2 }, "{}", b.text);
            assert!(b.text.starts_with("# back on Shop"), "{}", b.text);
            assert!(b.refs.returned >= 16, "{:?}", b.refs);
            assert_eq!(restored.resolve(&TargetId("t1".into()), yixing), Ok(&NativeId::new("d1", "buy1")));
        }
    }
    // Saving the restored session again gives the same form.
    let again = serde_json::to_string(&restored.save(saved_at)).unwrap();
    assert_eq!(again, serde_json::to_string(&original.save(saved_at)).unwrap());
}

#[test]
fn a_session_saved_after_every_step_answers_as_the_original() {
    let t0 = Instant::now();
    let mut original = Session::new(policy());
    let mut restored = Session::new(policy());
    for (i, s) in before().iter().chain(after().iter()).enumerate() {
        let now = t0 + Duration::from_secs(s.at);
        restored = through_json(&restored, now);
        assert_same_state(&original, &restored);
        let a = run(&mut original, s, t0);
        let b = run(&mut restored, s, t0);
        assert_same_answer(&a, &b, &format!("step {i}: {}", a.text));
    }
}

/// Pages of new elements, each a new document, until the oldest refs are forgotten: forgotten
/// refs stay forgotten, and the numbering goes on.
#[test]
fn forgotten_refs_stay_forgotten_and_numbering_goes_on() {
    let t0 = Instant::now();
    let page = |k: usize| {
        let scope = format!("doc{k}");
        let mut t = Tree::with_root(node(Role::Document, &format!("Page {k}"), &scope, "root"));
        let r = t.root().unwrap();
        for i in 0..4_200 {
            t.append(r, node(Role::Button, &format!("Button {i} of page {k}"), &scope, &i.to_string()));
        }
        t
    };
    let request = Request { max_tokens: Some(200), ..auto() };
    let mut original = Session::new(policy());
    for k in 0..17 {
        let cap = capture("t1", page(k), None);
        original.snapshot(&ClientId("a".into()), &cap, &request, t0).unwrap();
    }
    assert!(original.refs().retained() < original.refs().issued(), "some chunks were dropped");
    let target = TargetId("t1".into());
    assert_eq!(original.resolve(&target, Ref(2000)), Err(RefError::Forgotten(Ref(2000))));
    let bytes = serde_json::to_vec(&original.save(t0)).unwrap();
    let mut restored = Session::restore(policy(), serde_json::from_slice(&bytes).unwrap(), t0).unwrap();
    assert_same_state(&original, &restored);
    assert_eq!(restored.resolve(&target, Ref(2000)), Err(RefError::Forgotten(Ref(2000))));
    for k in 17..19 {
        let cap = capture("t1", page(k), None);
        let a = original.snapshot(&ClientId("a".into()), &cap, &request, t0).unwrap();
        let b = restored.snapshot(&ClientId("a".into()), &cap, &request, t0).unwrap();
        assert_same_answer(&a, &b, &format!("page {k}"));
        assert_same_state(&original, &restored);
    }
}

/// A session's saved form as JSON, after the script before the save.
fn saved_json() -> serde_json::Value {
    let t0 = Instant::now();
    let mut s = Session::new(policy());
    for step in before() {
        run(&mut s, &step, t0);
    }
    serde_json::to_value(s.save(t0 + Duration::from_secs(8))).unwrap()
}

fn restore_value(v: serde_json::Value) -> Result<Session, RestoreError> {
    let saved: SavedSession = serde_json::from_value(v).expect("still of the saved form's types");
    Session::restore(policy(), saved, Instant::now())
}

#[test]
fn an_inconsistent_saved_form_is_an_error() {
    let v = saved_json();
    assert!(restore_value(v.clone()).is_ok());
    let broken = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = v.clone();
        f(&mut v);
        restore_value(v)
    };
    // A ref of a target that is not saved.
    let err = broken(&|v| v["refs"]["slots"][0][0]["t"] = 7.into()).err();
    assert!(matches!(&err, Some(RestoreError::Refs(m)) if m.contains("target 7")), "{err:?}");
    // A native scope out of range.
    let err = broken(&|v| v["refs"]["slots"][0][0]["s"] = 99.into()).err();
    assert!(matches!(err, Some(RestoreError::Refs(_))), "{err:?}");
    // A target saved twice.
    let err = broken(&|v| {
        let first = v["refs"]["targets"][0].clone();
        v["refs"]["targets"].as_array_mut().unwrap().push(first);
    })
    .err();
    assert!(matches!(err, Some(RestoreError::Refs(_))), "{err:?}");
    // Two live refs on one element.
    let err = broken(&|v| {
        let first = v["refs"]["slots"][0][0].clone();
        v["refs"]["slots"][0][1] = first;
    })
    .err();
    assert!(matches!(&err, Some(RestoreError::Refs(m)) if m.contains("another live ref")), "{err:?}");
    // A chunk that is neither whole nor the last.
    let err = broken(&|v| {
        let chunk = v["refs"]["slots"][0].clone();
        v["refs"]["slots"].as_array_mut().unwrap().push(chunk);
    })
    .err();
    assert!(matches!(err, Some(RestoreError::Refs(_))), "{err:?}");
    // Structural ancestors that loop.
    let err = broken(&|v| {
        for slot in v["refs"]["slots"][0].as_array_mut().unwrap() {
            if slot.get("k").is_some() {
                slot["k"]["a"] = 1.into();
            }
        }
    })
    .err();
    assert!(matches!(&err, Some(RestoreError::Refs(m)) if m.contains("loop")), "{err:?}");
    // A tree whose child counts promise more than follows.
    let err =
        broken(&|v| v["baselines"]["current"][0][2]["snapshot"]["tree"]["nodes"][0]["c"] = 40.into()).err();
    assert!(matches!(err, Some(RestoreError::Baselines(_))), "{err:?}");
    // Counters at their end, another version.
    let err = broken(&|v| v["seq"] = u64::MAX.into()).err();
    assert_eq!(err, Some(RestoreError::Seq(u64::MAX)));
    let err = broken(&|v| v["refs"]["generation"] = u64::MAX.into()).err();
    assert!(matches!(err, Some(RestoreError::Refs(_))), "{err:?}");
    let err = broken(&|v| v["version"] = 2.into()).err();
    assert_eq!(err, Some(RestoreError::Version { found: 2, supported: 1 }));
}

/// Every value of the saved form replaced, array by array element dropped or repeated: the
/// restore fails or succeeds, and a session it gives goes through the next steps; nothing
/// panics.
#[test]
fn no_corruption_of_the_saved_form_makes_a_panic() {
    let v = saved_json();
    let mut paths: Vec<Vec<Key>> = Vec::new();
    leaves(&v, &mut Vec::new(), &mut paths);
    let next = after();
    let mut restored = 0;
    let mut tried = 0;
    for path in &paths {
        for edit in edits(&v, path) {
            let mut w = v.clone();
            let Some(at) = at_path(&mut w, path) else { continue };
            match edit {
                Edit::Set(x) => *at = x,
                Edit::Drop | Edit::Repeat => {
                    let Some(list) = at.as_array_mut() else { continue };
                    match (edit, list.first().cloned()) {
                        (Edit::Drop, Some(_)) => {
                            list.remove(0);
                        }
                        (Edit::Repeat, Some(first)) => list.push(first),
                        _ => continue,
                    }
                }
            }
            let Ok(saved) = serde_json::from_value::<SavedSession>(w) else { continue };
            tried += 1;
            let t0 = Instant::now();
            let Ok(mut s) = Session::restore(policy(), saved, t0) else { continue };
            restored += 1;
            for step in &next {
                run(&mut s, step, t0);
                resolutions(&s);
            }
            // And saved again.
            serde_json::to_vec(&s.save(t0)).unwrap();
        }
    }
    println!("{} paths, {tried} tried, {restored} restored", paths.len());
    assert!(tried > 1_000 && restored > 100, "{tried} tried, {restored} restored");
}

#[derive(Clone, Debug)]
enum Key {
    Field(String),
    Index(usize),
}

#[derive(Clone)]
enum Edit {
    Set(serde_json::Value),
    Drop,
    Repeat,
}

/// The paths of every leaf and every array in `v`.
fn leaves(v: &serde_json::Value, path: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                path.push(Key::Field(k.clone()));
                leaves(x, path, out);
                path.pop();
            }
        }
        serde_json::Value::Array(a) => {
            out.push(path.clone());
            // The first few elements of long arrays: enough of each kind.
            for (i, x) in a.iter().enumerate().take(3) {
                path.push(Key::Index(i));
                leaves(x, path, out);
                path.pop();
            }
        }
        _ => out.push(path.clone()),
    }
}

fn at_path<'v>(v: &'v mut serde_json::Value, path: &[Key]) -> Option<&'v mut serde_json::Value> {
    let mut at = v;
    for k in path {
        at = match k {
            Key::Field(f) => at.get_mut(f.as_str())?,
            Key::Index(i) => at.get_mut(*i)?,
        };
    }
    Some(at)
}

/// What to try at `path`: other numbers or strings for a leaf, dropping or repeating an
/// element of an array.
fn edits(v: &serde_json::Value, path: &[Key]) -> Vec<Edit> {
    let mut v = v.clone();
    let Some(at) = at_path(&mut v, path) else { return Vec::new() };
    match at {
        serde_json::Value::Array(_) => vec![Edit::Drop, Edit::Repeat],
        serde_json::Value::Number(_) => [0u64, 1, 2, 3, 5, 1023, 1024, 1025, u64::from(u32::MAX), u64::MAX]
            .into_iter()
            .map(|n| Edit::Set(n.into()))
            .collect(),
        serde_json::Value::String(_) => ["", "e1", "AAAAAAAAAAAAAAAAAAAAAB", "d1", "root", "button"]
            .into_iter()
            .map(|s| Edit::Set(s.into()))
            .collect(),
        serde_json::Value::Bool(b) => vec![Edit::Set((!*b).into())],
        _ => Vec::new(),
    }
}

/// The size of a saved session after one snapshot of a page of about 1,000 elements (run with
/// `--nocapture` to see it): what the server writes to its store after every step.
#[test]
fn the_saved_form_of_a_thousand_element_page_is_small() {
    // A documentation-like page: a navigation of 100 links, 40 sections of a heading, a
    // paragraph with a link, and a list of 12 items of a link and a button.
    let scope = "5F3C2A9D1B7E4F60A8C1D2E3F4A5B6C7:9A8B7C6D5E4F3A2B1C0D9E8F7A6B5C4D";
    let mut t = Tree::with_root(node(Role::Document, "Reference", scope, "1"));
    let root = t.root().unwrap();
    let mut next = 2;
    let mut id = || {
        next += 1;
        (next - 1).to_string()
    };
    let nav = t.append(root, node(Role::Navigation, "Contents", scope, &id()));
    for i in 0..100 {
        let mut l = node(Role::Link, &format!("Chapter {i}"), scope, &id());
        l.url = Some(format!("https://docs.example/book/ch{i:02}.html"));
        t.append(nav, l);
    }
    let main = t.append(root, node(Role::Main, "", scope, &id()));
    for s in 0..40 {
        let mut h = node(Role::Heading, &format!("Section {s}: settings and options"), scope, &id());
        h.level = Some(2);
        t.append(main, h);
        let p = t.append(main, node(Role::Paragraph, "", scope, &id()));
        t.append(
            p,
            node(Role::Text, &format!("Section {s} explains how the options work; see "), scope, &id()),
        );
        let mut l = node(Role::Link, "the guide", scope, &id());
        l.url = Some(format!("https://docs.example/guide#s{s}"));
        t.append(p, l);
        let list = t.append(main, node(Role::List, "", scope, &id()));
        for k in 0..6 {
            let item = t.append(list, node(Role::ListItem, "", scope, &id()));
            let mut l = node(Role::Link, &format!("Option {s}.{k}"), scope, &id());
            l.url = Some(format!("https://docs.example/opt/{s}/{k}"));
            t.append(item, l);
            t.append(item, node(Role::Button, "Copy", scope, &id()));
        }
    }
    let raw_nodes = t.len();
    assert!((950..1_200).contains(&raw_nodes), "{raw_nodes}");
    for (what, max_tokens) in [("default budget", Some(10_000)), ("2,000-token budget", Some(2_000))] {
        let mut s = Session::new(Policy::default());
        let now = Instant::now();
        let cap = capture("t1", t.clone(), None);
        let r = s.snapshot(&ClientId("a".into()), &cap, &Request { max_tokens, ..auto() }, now).unwrap();
        let started = Instant::now();
        let bytes = serde_json::to_vec(&s.save(now)).unwrap();
        let saving = started.elapsed();
        let started = Instant::now();
        Session::restore(Policy::default(), serde_json::from_slice(&bytes).unwrap(), now).unwrap();
        let restoring = started.elapsed();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let part = |p: &str| serde_json::to_vec(&v[p]).unwrap().len();
        println!(
            "{what}: {raw_nodes} raw nodes, {} projected, {} refs, outline: {}, response {} bytes; \
             saved {} bytes (refs {}, baselines {}); save and write {saving:?}, read and restore \
             {restoring:?}",
            r.snapshot.tree.len(),
            s.refs().issued(),
            r.outline.is_some(),
            r.text.len(),
            bytes.len(),
            part("refs"),
            part("baselines"),
        );
        assert!(bytes.len() < 250 * raw_nodes, "{} bytes", bytes.len());
    }
}
