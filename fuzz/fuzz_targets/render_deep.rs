//! Pages built from the input bytes as runs of the constructs pages nest (code spans, links,
//! inline spans, lists, tables, widgets, headings, preformatted text), deep and wide, through
//! every rendering an agent gets: the auto answer at a budget from the input (projection, refs,
//! the outline), the auto answer to a changed page, both whole forms, the diff in both forms.
//! Never a panic or an overflow; the JSON forms read back; `apply(prev, diff) == next`.
#![no_main]

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::diff::{apply, diff};
use axsnap_core::render::{render_diff, render_snapshot, Format};
use axsnap_core::session::{ClientId, Mode, Policy, Request, Session};
use axsnap_core::{Action, Header, NativeId, Node, NodeId, Rect, Role, State, TargetId, Tree};
use libfuzzer_sys::fuzz_target;

#[path = "bytes.rs"]
mod bytes;
use bytes::Bytes;

/// Most levels one run of a construct nests; runs follow each other, so a page can be deep.
const RUN_LEVELS: usize = 400;
/// Most nodes of a page.
const MAX_NODES: usize = 20_000;

struct Page {
    tree: Tree,
    next: usize,
}

impl Page {
    fn add(&mut self, parent: NodeId, role: Role, name: &str) -> NodeId {
        let mut n = Node::new(role, name, NativeId::new("d", self.next.to_string()));
        self.next += 1;
        if matches!(n.role, Role::Link | Role::Button | Role::CheckBox) {
            n.actions = [Action::Click].into_iter().collect();
            n.bounds = Some(Rect { x: 5.0, y: (self.next % 700) as f64, w: 50.0, h: 10.0 });
        }
        self.tree.append(parent, n)
    }

    /// One level of construct `kind` under `at`; returns where the next level goes.
    fn level(&mut self, at: NodeId, kind: u8, i: usize, word: &str) -> NodeId {
        match kind % 8 {
            0 => {
                let code = self.add(at, Role::Code, "");
                self.add(code, Role::Text, &format!("{word}{i} "));
                code
            }
            1 => {
                let code = self.add(at, Role::Code, "");
                self.add(code, Role::Link, &format!("T{i}"));
                code
            }
            2 => {
                let span = self.add(at, Role::Generic, "");
                self.add(span, Role::Text, word);
                span
            }
            3 => {
                let list = self.add(at, Role::List, "");
                let item = self.add(list, Role::ListItem, "");
                self.add(item, Role::Link, &format!("{word} {i}"));
                item
            }
            4 => {
                let table = self.add(at, Role::Table, "");
                let row = self.add(table, Role::Row, "");
                self.add(row, Role::Cell, word)
            }
            5 => self.add(at, Role::Button, &format!("{word}{i}")),
            6 => {
                let h = self.add(at, Role::Heading, "");
                self.tree.node_mut(h).level = Some(1 + (i % 6) as u32);
                self.add(h, Role::Link, word);
                self.add(at, Role::Region, word)
            }
            _ => {
                let span = self.add(at, Role::Generic, "");
                self.tree.node_mut(span).flags.pre = true;
                let t = self.add(span, Role::Text, &format!("{word}\n"));
                self.tree.node_mut(t).flags.pre = true;
                span
            }
        }
    }
}

/// A page from the bytes: runs of (construct, levels, siblings each level).
fn build(bytes: &mut Bytes, word: &str) -> Tree {
    let mut page =
        Page { tree: Tree::with_root(Node::new(Role::Document, "Fuzz", NativeId::new("d", "0"))), next: 1 };
    let root = page.tree.root().unwrap_or(NodeId(0));
    let mut at = root;
    while bytes.left() > 0 && page.tree.len() < MAX_NODES {
        let kind = bytes.byte();
        let levels = 1 + bytes.byte() as usize * RUN_LEVELS / 256;
        let wide = bytes.byte() as usize % 8;
        for i in 0..levels {
            if page.tree.len() >= MAX_NODES {
                break;
            }
            for w in 0..wide {
                page.level(at, kind.wrapping_add(w as u8), i, word);
            }
            at = page.level(at, kind, i, word);
        }
        // Sometimes the next run starts back at the top (a wide page), else it goes deeper.
        if bytes.byte() & 3 == 0 {
            at = root;
        }
    }
    page.tree
}

fn capture(tree: Tree) -> Capture {
    Capture {
        target: TargetId("t".into()),
        header: Header { url: Some("https://fuzz.example/".into()), title: Some("Fuzz".into()) },
        tree,
        partial: None,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let budget = 50 + bytes.byte() as usize * 40;
    let change = bytes.byte();
    let rest = bytes.0;
    let prev = build(&mut Bytes(rest), "a");
    // The same page with its words changed where the input says.
    let mut next = build(&mut Bytes(rest), if change & 1 == 0 { "a" } else { "b" });
    if change & 2 != 0 {
        // A modal over the page.
        let ids: Vec<NodeId> = next.preorder().map(|(id, _)| id).collect();
        for id in ids {
            let n = next.node_mut(id);
            if !n.actions.is_empty() {
                n.states.set(State::Obscured, true);
            }
        }
        let root = next.root().unwrap_or(NodeId(0));
        let mut dialog = Node::new(Role::Dialog, "Modal", NativeId::new("d", "modal"));
        dialog.bounds = Some(Rect { x: 0.0, y: 0.0, w: 1280.0, h: 720.0 });
        dialog.states.set(State::Covering, true);
        next.append(root, dialog);
    }

    let mut session = Session::new(Policy::default());
    let client = ClientId("a".into());
    let req = Request { mode: Mode::Auto, also_json: true, max_tokens: Some(budget), ..Request::default() };
    let now = Instant::now();
    let first = session.snapshot(&client, &capture(prev), &req, now).expect("a snapshot");
    let second = session.snapshot(&client, &capture(next), &req, now).expect("a second snapshot");
    for r in [&first, &second] {
        if let Some(json) = &r.json {
            serde_json::from_str::<serde_json::Value>(json).expect("the answer's JSON reads back");
        }
    }
    let (a, b) = (&first.snapshot.tree, &second.snapshot.tree);
    for s in [&first.snapshot, &second.snapshot] {
        let _ = render_snapshot(s, Format::Text);
        serde_json::from_str::<serde_json::Value>(&render_snapshot(s, Format::Json))
            .expect("JSON reads back");
    }
    let d = diff(a, b).expect("a diff");
    assert!(apply(a, &d).expect("it applies") == *b, "apply(prev, diff) != next");
    let _ = render_diff(&d, a, b, Format::Text);
    serde_json::from_str::<serde_json::Value>(&render_diff(&d, a, b, Format::Json)).expect("diff JSON");
});
