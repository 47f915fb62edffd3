//! The constructs pages nest, built `DEPTH` levels deep as raw trees: what the depth tests
//! of the engine (`deep_constructs.rs`) and of the CLI (`crates/axsnap/tests/deep_cli.rs`,
//! which includes this file) run on.

#![allow(dead_code)] // Each test crate uses its part.

use axsnap_core::{Action, NativeId, Node, NodeId, Role, Tree};

/// Levels of nesting of each construct.
pub const DEPTH: usize = 100_000;

/// Every construct [`construct`] builds.
pub const KINDS: [&str; 9] = [
    "code spans",
    "links in code",
    "inline runs",
    "lists",
    "tables",
    "widgets",
    "sections",
    "preformatted",
    "shadow roots",
];

/// Builds a chain of `DEPTH` levels: `level` appends one level under the node it is given and
/// returns the node the next level goes under; the leaf text goes under the last.
struct Chain {
    tree: Tree,
    next_id: usize,
}

impl Chain {
    fn new() -> Chain {
        Chain {
            tree: Tree::with_root(Node::new(Role::Document, "Deep", NativeId::new("d", "0"))),
            next_id: 1,
        }
    }

    fn add(&mut self, parent: NodeId, mut node: Node) -> NodeId {
        node.native = NativeId::new("d", self.next_id.to_string());
        self.next_id += 1;
        self.tree.append(parent, node)
    }

    fn build(leaf: &str, level: impl Fn(&mut Chain, NodeId, usize) -> NodeId) -> Tree {
        let mut c = Chain::new();
        let mut at = c.tree.root().expect("a root");
        for i in 0..DEPTH {
            at = level(&mut c, at, i);
        }
        c.add(at, n(Role::Text, leaf));
        c.tree
    }
}

fn n(role: Role, name: &str) -> Node {
    Node::new(role, name, NativeId::new("d", ""))
}

fn link(name: &str) -> Node {
    let mut a = n(Role::Link, name);
    a.actions = [Action::Click].into_iter().collect();
    a.url = Some(format!("https://deep.example/{name}"));
    a
}

fn pre(mut node: Node) -> Node {
    node.flags.pre = true;
    node
}

/// One construct, as two versions of the page: the leaf's text is all that differs.
pub fn construct(kind: &str, leaf: &str) -> Tree {
    match kind {
        // A paragraph's code span holding a text and the next code span.
        "code spans" => Chain::build(leaf, |c, at, i| {
            let at = if i == 0 { c.add(at, n(Role::Paragraph, "")) } else { at };
            let code = c.add(at, n(Role::Code, ""));
            c.add(code, n(Role::Text, &format!("x{i} ")));
            code
        }),
        // Code spans holding a link and the next code span (rustdoc's signatures).
        "links in code" => Chain::build(leaf, |c, at, i| {
            let at = if i == 0 { c.add(at, n(Role::Paragraph, "")) } else { at };
            let code = c.add(at, n(Role::Code, ""));
            c.add(code, link(&format!("T{i}")));
            code
        }),
        // Inline spans, each a text and the next span.
        "inline runs" => Chain::build(leaf, |c, at, i| {
            let at = if i == 0 { c.add(at, n(Role::Paragraph, "")) } else { at };
            let span = c.add(at, n(Role::Generic, ""));
            c.add(span, n(Role::Text, &format!("x{i} ")));
            span
        }),
        // Nested lists: an item's link and the next list under it.
        "lists" => Chain::build(leaf, |c, at, i| {
            let list = c.add(at, n(Role::List, ""));
            let item = c.add(list, n(Role::ListItem, ""));
            c.add(item, link(&format!("item {i}")));
            item
        }),
        // Tables in cells.
        "tables" => Chain::build(leaf, |c, at, i| {
            let table = c.add(at, n(Role::Table, ""));
            let row = c.add(table, n(Role::Row, ""));
            c.add(row, n(Role::Cell, &format!("c{i}")))
        }),
        // Widgets in widgets (a button in a button, a menu in a menu).
        "widgets" => Chain::build(leaf, |c, at, i| {
            let mut b = n(Role::Button, &format!("b{i}"));
            b.actions = [Action::Click].into_iter().collect();
            c.add(at, b)
        }),
        // Headings holding links, each in a section (a document outline).
        "sections" => Chain::build(leaf, |c, at, i| {
            let section = c.add(at, n(Role::Region, &format!("s{i}")));
            let mut h = n(Role::Heading, "");
            h.level = Some(1 + (i % 6) as u32);
            let h = c.add(section, h);
            c.add(h, link(&format!("h{i}")));
            section
        }),
        // Preformatted lines, each a span with its line and the next span (an editor).
        "preformatted" => Chain::build(leaf, |c, at, i| {
            let span = c.add(at, pre(n(Role::Generic, "")));
            c.add(span, pre(n(Role::Text, &format!("line {i}\n"))));
            span
        }),
        // Custom elements, each host's shadow root holding a button and the next host (the
        // accessibility tree shows a shadow root's content under its host).
        "shadow roots" => Chain::build(leaf, |c, at, i| {
            let mut host = n(Role::Generic, "");
            host.dev_id = Some(format!("host-{i}"));
            let host = c.add(at, host);
            let mut b = n(Role::Button, &format!("part {i}"));
            b.actions = [Action::Click].into_iter().collect();
            c.add(host, b);
            host
        }),
        other => panic!("no construct {other}"),
    }
}
