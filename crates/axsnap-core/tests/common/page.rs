//! Raw pages built node by node for the text-form tests, rendered through the real pipeline
//! (project, refs, render).

use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_snapshot, Format};
use axsnap_core::{Header, NativeId, Node, NodeId, Role, Snapshot, TargetId, Tree};

/// A raw tree under a document titled as given, each node with a fresh native id.
pub struct Page {
    pub tree: Tree,
    pub next: u32,
}

#[allow(dead_code)] // Each test crate uses its part.
impl Page {
    pub fn new(title: &str) -> Page {
        Page { tree: Tree::with_root(Node::new(Role::Document, title, NativeId::new("d", "0"))), next: 1 }
    }

    pub fn root(&self) -> NodeId {
        self.tree.root().unwrap()
    }

    pub fn add(&mut self, parent: NodeId, role: Role, name: &str, f: impl FnOnce(&mut Node)) -> NodeId {
        let mut n = Node::new(role, name, NativeId::new("d", self.next.to_string()));
        self.next += 1;
        f(&mut n);
        self.tree.append(parent, n)
    }

    pub fn text(&mut self, parent: NodeId, s: &str) {
        self.add(parent, Role::Text, s, |_| {});
    }

    /// The text form of the page projected with `opts`.
    pub fn render(&self, opts: &ProjectOptions) -> String {
        let mut p = project(&self.tree, opts);
        let target = TargetId("T".into());
        RefSpace::new().refresh(&target, &self.tree, &mut p.tree);
        let snap = Snapshot { target, seq: 1, header: Header::default(), tree: p.tree, stats: p.stats };
        render_snapshot(&snap, Format::Text)
    }
}
