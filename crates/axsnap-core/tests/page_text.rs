//! The page's own characters, through the real pipeline (project, refs, render) on raw trees
//! built the way Chromium reports pages: text pieces carry the page's whitespace, preformatted
//! text and block-level boxes are marked by the backend. Code keeps its lines and
//! indentation, inline pieces get no added space, two blocks' texts are never joined, and an
//! editor's lines are each one line.

use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_snapshot, Format};
use axsnap_core::{Action, Header, NativeId, Node, NodeId, Role, Snapshot, State, TargetId, Tree};

struct Page {
    tree: Tree,
    next: u32,
}

impl Page {
    fn new() -> Page {
        Page { tree: Tree::with_root(Node::new(Role::Document, "Reading", NativeId::new("d", "0"))), next: 1 }
    }

    fn root(&self) -> NodeId {
        self.tree.root().unwrap()
    }

    fn add(&mut self, parent: NodeId, role: Role, name: &str, f: impl FnOnce(&mut Node)) -> NodeId {
        let mut n = Node::new(role, name, NativeId::new("d", self.next.to_string()));
        self.next += 1;
        f(&mut n);
        self.tree.append(parent, n)
    }

    fn text(&mut self, parent: NodeId, s: &str) {
        self.add(parent, Role::Text, s, |_| {});
    }

    fn render(&self) -> String {
        let mut p = project(&self.tree, &ProjectOptions::default());
        let target = TargetId("T".into());
        RefSpace::new().refresh(&target, &self.tree, &mut p.tree);
        let snap = Snapshot { target, seq: 1, header: Header::default(), tree: p.tree, stats: p.stats };
        render_snapshot(&snap, Format::Text)
    }
}

fn block(n: &mut Node) {
    n.flags.block = true;
}

#[test]
fn code_quotes_captions_and_an_editor() {
    let mut page = Page::new();
    let root = page.root();
    // A highlighted code block: `<pre><code>` of token spans (spans Chromium leaves out, so
    // their texts are the code's children).
    let pre = page.add(root, Role::Generic, "", |n| {
        n.flags.pre = true;
        n.flags.block = true;
        n.dev_id = Some("code-rust".into());
    });
    let code = page.add(pre, Role::Code, "", |n| n.flags.pre = true);
    for piece in
        ["fn", " ", "main", "() {\n    ", "let", " s1 = ", "String", "::", "from", "(", "\"hello\"", ");\n}"]
    {
        page.text(code, piece);
    }
    // Quotes split into spans, inline code, a span around one word, spans with no space.
    let p = page.add(root, Role::Paragraph, "", block);
    for piece in ["Press the ", "“", "Cancel", "”", " action, or use "] {
        page.text(p, piece);
    }
    let c = page.add(p, Role::Code, "", |_| {});
    page.text(c, "Vec::new");
    page.text(p, ", ");
    let em = page.add(p, Role::Generic, "", |_| {});
    page.text(em, "not");
    page.text(p, " this.");
    let p = page.add(root, Role::Paragraph, "", block);
    for piece in ["foo", "bar", " baz", "!"] {
        page.text(p, piece);
    }
    // Two captions, each a `div`: two texts, not "Output Launcher".
    let out = page.add(root, Role::Generic, "", block);
    page.text(out, "Output");
    let launch = page.add(root, Role::Generic, "", block);
    page.text(launch, "Launcher");
    // A code editor: a contenteditable of line `div`s made of token spans; its value is its
    // text, which its lines already show.
    let editor = page.add(root, Role::Generic, "", |n| {
        n.flags.pre = true;
        n.flags.block = true;
        n.value = Some("if x {\n    go();\n}".into());
        n.states.set(State::Editable, true);
        n.states.set(State::Focusable, true);
        n.actions.set(Action::SetValue, true);
    });
    for line in [&["if", " ", "x", " ", "{"][..], &["    ", "go", "();"], &["}"]] {
        let l = page.add(editor, Role::Generic, "", |n| {
            n.flags.block = true;
            n.states.set(State::Editable, true);
            n.actions.set(Action::SetValue, true);
        });
        for piece in line {
            page.add(l, Role::Text, piece, |n| {
                n.states.set(State::Editable, true);
                n.actions.set(Action::SetValue, true);
            });
        }
    }
    let text = page.render();
    insta::assert_snapshot!("code_quotes_captions_editor", text);
    assert!(text.contains("    text:     let s1 = String::from(\"hello\");\n"), "{text}");
    assert!(text.contains("paragraph: Press the “Cancel” action, or use `Vec::new`, not this.\n"), "{text}");
    assert!(text.contains("paragraph: foobar baz!\n"), "{text}");
    assert!(text.contains("text: Output\ntext: Launcher\n"), "{text}");
    assert!(text.contains("\n  text:     go();\n"), "{text}");
    assert!(!text.contains("go(); }"), "the editor's value is not said again:\n{text}");
}

#[test]
fn projecting_twice_changes_nothing() {
    let mut page = Page::new();
    let root = page.root();
    let p = page.add(root, Role::Paragraph, "", block);
    for piece in ["Refreshed ", "0", " times, see "] {
        page.text(p, piece);
    }
    page.add(p, Role::Link, "the guide", |n| n.actions.set(Action::Click, true));
    page.text(p, ".");
    let once = project(&page.tree, &ProjectOptions::default()).tree;
    let twice = project(&once, &ProjectOptions::default()).tree;
    assert!(once == twice, "{once:#?}\n---\n{twice:#?}");
}
