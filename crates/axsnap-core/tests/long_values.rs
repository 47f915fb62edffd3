//! Long values through a session: a value past the text cap is shown cut with a marker that
//! says where to read on, `snapshot ref=… from=…` reads it page by page to its end, and a
//! change to it answers only the changed span, in the text and in the JSON form.

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::caps::{MARK, TEXT_CHARS};
use axsnap_core::session::{Answer, ClientId, Mode, Policy, Request, Session};
use axsnap_core::{Header, NativeId, Node, Role, TargetId, Tree};

/// A page with a heading and a text area holding `value`.
fn page(value: &str) -> Tree {
    let mut t = Tree::with_root(Node::new(Role::Document, "Wiki", NativeId::new("d", "root")));
    let r = t.root().unwrap();
    t.append(r, Node::new(Role::Heading, "Edit page", NativeId::new("d", "h")));
    let mut area = Node::new(Role::TextBox, "Content", NativeId::new("d", "area"));
    area.value = Some(value.to_string());
    t.append(r, area);
    t
}

fn capture(tree: Tree) -> Capture {
    let header = Header { url: Some("https://wiki.example/edit".into()), title: Some("Wiki".into()) };
    Capture::new(TargetId("t".into()), header, tree, None)
}

/// Sentences that differ, so that a page read twice or out of order would show.
fn long_text(chars: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.chars().count() < chars {
        s.push_str(&format!("Sentence {i} says ünïcödé things. "));
        i += 1;
    }
    s.trim_end().to_string()
}

/// The value on the text area's line of a text answer.
fn shown_value(text: &str) -> &str {
    let line = text.lines().find(|l| l.contains("textbox \"Content\"")).expect("the text area's line");
    line.split_once("]: ").map_or("", |(_, v)| v)
}

#[test]
fn a_cut_value_is_read_to_its_end_page_by_page() {
    let value = long_text(12_345);
    let mut s = Session::new(Policy::default());
    let client = ClientId("a".into());
    let cap = capture(page(&value));
    let now = Instant::now();
    let r = s.snapshot(&client, &cap, &Request { mode: Mode::Full, ..Request::default() }, now).unwrap();
    let first = shown_value(&r.text);
    assert!(first.chars().count() <= TEXT_CHARS, "the default view keeps the cap");
    assert!(first.contains(" chars: from="), "the cut says how to read on: {}", &first[first.len() - 40..]);
    // The text area's ref, from its line (`textbox "Content" [e3]: …`).
    let line = r.text.lines().find(|l| l.contains("textbox")).unwrap();
    let at = line.find("[e").unwrap();
    let area = axsnap_core::Ref(line[at + 2..].split(']').next().unwrap().parse().unwrap());
    let native = s.resolve(&TargetId("t".into()), area).unwrap().clone();

    let mut read = String::new();
    let mut shown = first.to_string();
    let mut pages = 1;
    loop {
        let body = if read.is_empty() { shown.as_str() } else { shown.strip_prefix(MARK).unwrap() };
        let Some(i) = body.rfind(": from=") else {
            read.push_str(body);
            break;
        };
        let next: usize = body[i + ": from=".len()..].parse().unwrap();
        read.push_str(&body[..body[..i].rfind(MARK).unwrap()]);
        assert_eq!(read.chars().count(), next, "each page starts where the last one stopped");
        let mut req = Request { mode: Mode::Full, ..Request::default() };
        req.options.view.scope = Some(native.clone());
        req.options.view.from = Some(next);
        let part = s.snapshot(&client, &cap, &req, now).unwrap();
        shown = shown_value(&part.text).to_string();
        assert!(shown.chars().count() <= TEXT_CHARS, "a page keeps the cap");
        pages += 1;
        assert!(pages < 20, "paging ends");
    }
    assert_eq!(read, value, "the pages put together are the whole value");
    assert_eq!(pages, 7);
}

#[test]
fn an_appended_sentence_answers_the_sentence() {
    let old = long_text(5_000);
    let new = format!("{old} One more sentence at the end.");
    let mut s = Session::new(Policy::default());
    let client = ClientId("a".into());
    let now = Instant::now();
    let auto = Request { mode: Mode::Auto, also_json: true, ..Request::default() };
    s.snapshot(&client, &capture(page(&old)), &auto, now).unwrap();
    let r = s.snapshot(&client, &capture(page(&new)), &auto, now).unwrap();
    assert!(matches!(r.answer, Answer::Diff { .. }), "{:?}", r.answer);
    assert!(r.text.contains(r#"value appended " One more sentence at the end.""#), "{}", r.text);
    assert!(r.size.tokens_cl100k < 40, "{} tokens: {}", r.size.tokens_cl100k, r.text);
    let json = r.json.expect("the JSON form");
    assert!(json.contains(r#""field":"edit","of":"value""#), "{json}");
    assert!(json.contains("One more sentence at the end.") && json.len() < 400, "{json}");

    // A word changed in the middle: the word, placed by line-free context.
    let mid = new.replacen("Sentence 40 says", "Sentence 40 said", 1);
    let r = s.snapshot(&client, &capture(page(&mid)), &auto, now).unwrap();
    assert!(
        r.text.contains(r#"value replaced "says" with "said" after "…things. Sentence 40 ""#),
        "{}",
        r.text
    );
}
