//! Synthetic web-like raw trees for the engine benches, and a 1% edit of them.
//!
//! Shaped like what Chromium sends: generic wrappers, ignored nodes, static text repeating a
//! parent's name, inline text boxes, landmarks, sections of headings, paragraphs, link lists,
//! form fields and tables. Deterministic (a fixed linear congruential sequence).

#![allow(dead_code)]

use axsnap_core::{Action, ActionSet, NativeId, Node, NodeId, RawFlags, Role, State, StateSet, Tree};

/// A tiny deterministic generator (no dependency, stable across runs).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

struct Builder {
    tree: Tree,
    next_id: u64,
    rng: Lcg,
}

impl Builder {
    fn node(&mut self, role: Role, name: &str) -> Node {
        self.next_id += 1;
        Node::new(role, name, NativeId::new("doc1", self.next_id.to_string()))
    }
    fn add(&mut self, parent: NodeId, role: Role, name: &str) -> NodeId {
        let n = self.node(role, name);
        self.tree.append(parent, n)
    }
    fn text(&mut self, parent: NodeId, s: &str) {
        let t = self.add(parent, Role::Text, s);
        self.add(t, Role::TextRun, s);
    }
    fn wrapper(&mut self, parent: NodeId) -> NodeId {
        let mut n = self.node(Role::Generic, "");
        if self.rng.below(3) == 0 {
            n.flags = RawFlags { ignored: true, hidden: false, ..RawFlags::default() };
        }
        self.tree.append(parent, n)
    }
    fn link(&mut self, parent: NodeId, name: &str) {
        let mut n = self.node(Role::Link, name);
        n.actions = ActionSet::EMPTY.with(Action::Click).with(Action::Focus);
        n.url = Some(format!("/docs/{}", name.replace(' ', "-")));
        let l = self.tree.append(parent, n);
        self.text(l, name);
    }
}

/// A raw tree of about `target` nodes.
pub fn web_tree(target: usize) -> Tree {
    let mut b = Builder { tree: Tree::new(), next_id: 0, rng: Lcg::new(42) };
    let root = b.node(Role::Document, "Synthetic page");
    let root = b.tree.push(root);
    b.tree.set_root(root);
    let banner = b.add(root, Role::Banner, "");
    let nav = b.add(banner, Role::Navigation, "Main");
    for i in 0..12 {
        let w = b.wrapper(nav);
        b.link(w, &format!("Section {i}"));
    }
    let main = b.add(root, Role::Main, "");
    let mut section = 0;
    while b.tree.arena_len() < target {
        section += 1;
        let region = b.wrapper(main);
        let h = b.add(region, Role::Heading, &format!("Chapter {section}"));
        b.tree.node_mut(h).level = Some(2);
        b.text(h, &format!("Chapter {section}"));
        for p in 0..3 {
            let para = b.add(region, Role::Paragraph, "");
            let words = 6 + b.rng.below(20) as usize;
            let s: Vec<String> =
                (0..words).map(|w| format!("word{}", (section * 7 + p * 3 + w) % 97)).collect();
            b.text(para, &s.join(" "));
            if b.rng.below(2) == 0 {
                b.link(para, &format!("ref {section}.{p}"));
            }
        }
        match section % 3 {
            0 => {
                let list = b.add(region, Role::List, "");
                for i in 0..8 {
                    let li = b.add(list, Role::ListItem, "");
                    b.link(li, &format!("Item {section}.{i}"));
                }
            }
            1 => {
                let form = b.add(region, Role::Form, &format!("Form {section}"));
                for i in 0..3 {
                    let mut tb = b.node(Role::TextBox, &format!("Field {i}"));
                    tb.actions = ActionSet::EMPTY.with(Action::SetValue).with(Action::Focus);
                    tb.states = StateSet::EMPTY.with(State::Editable).with(State::Focusable);
                    tb.value = Some(String::new());
                    b.tree.append(form, tb);
                }
                let mut btn = b.node(Role::Button, "Submit");
                btn.actions = ActionSet::EMPTY.with(Action::Click);
                let btn = b.tree.append(form, btn);
                b.text(btn, "Submit");
            }
            _ => {
                let table = b.add(region, Role::Table, &format!("Table {section}"));
                for r in 0..4 {
                    let row = b.add(table, Role::Row, "");
                    for c in 0..3 {
                        let cell = b.add(row, Role::Cell, "");
                        b.text(cell, &format!("r{r}c{c}"));
                    }
                }
            }
        }
    }
    let footer = b.add(root, Role::ContentInfo, "");
    b.text(footer, "Copyright");
    b.tree
}

/// A copy of `tree` with about 1% of its nodes edited: text renamed, field values typed,
/// some nodes removed and some added.
pub fn edit_one_percent(tree: &Tree) -> Tree {
    let mut t = tree.compacted();
    let mut rng = Lcg::new(7);
    let ids: Vec<NodeId> = t.preorder().map(|(id, _)| id).collect();
    let edits = (ids.len() / 100).max(1);
    let mut next_native = 10_000_000u64;
    for k in 0..edits {
        let id = ids[1 + rng.below(ids.len() as u64 - 1) as usize];
        // Skip nodes an earlier edit detached.
        if t.preorder().next().is_none() || (t.node(id).parent.is_none() && t.root() != Some(id)) {
            continue;
        }
        match k % 4 {
            0 | 1 => {
                let n = t.node_mut(id);
                if n.role == Role::TextBox {
                    n.value = Some(format!("typed {k}"));
                } else {
                    n.name = format!("{} (edited {k})", n.name);
                }
            }
            2 => {
                if t.root() != Some(id) && t.node(id).children.len() < 4 {
                    t.detach(id);
                }
            }
            _ => {
                next_native += 1;
                let n = Node::new(
                    Role::Text,
                    format!("new text {k}"),
                    NativeId::new("doc1", next_native.to_string()),
                );
                if let Some(p) = t.node(id).parent {
                    let c = t.push(n);
                    t.attach(p, c, Some(0));
                }
            }
        }
    }
    t.compacted()
}
