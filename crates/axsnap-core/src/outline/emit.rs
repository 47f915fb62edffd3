//! Building the shown tree from a plan: folded nodes marked with what they left out.

use super::{Cut, Kind, Outline, Show, Units};
use crate::role::Role;
use crate::tree::{Folded, Node, NodeId, Tree};

/// The native id (in the synthetic scope) of the closing `… N more parts` line.
pub(super) const REST_ID: &str = "outline-rest";

impl Units {
    /// Builds the shown tree, with the cut line last under its host.
    pub(super) fn emit(&self, tree: &Tree, shows: &[Show], cut: Option<Cut>) -> Outline {
        let mut out = Tree::with_capacity(tree.arena_len().min(1 << 16));
        let mut folds = 0;
        let mut folded_nodes = 0;
        let root = &self.units[self.root];
        let new_root = out.push(bare(tree.node(root.head)));
        out.set_root(new_root);
        for &k in tree.node(root.head).children.iter().take(root.lead as usize) {
            copy_subtree(tree, k, &mut out, new_root);
        }
        // The cut is of the host's last parts.
        let host = cut.map(|c| c.host);
        let shown = |u: usize| {
            let members = &self.units[u].members[..];
            match cut {
                Some(c) if c.host == u => &members[..members.len() - c.parts.min(members.len())],
                _ => members,
            }
        };
        // (what to emit, parent in `out`), in reverse so pops come in document order. The
        // cut line goes in when its host's last shown part is done: it is pushed first.
        let mut stack: Vec<(Emit, NodeId)> = Vec::new();
        if host.is_some_and(|h| h == self.root || self.units[h].kind == Kind::Section) {
            stack.push((Emit::Rest, new_root));
        }
        stack.extend(shown(self.root).iter().rev().map(|&m| (Emit::Unit(m), new_root)));
        while let Some((item, parent)) = stack.pop() {
            let u = match item {
                Emit::Unit(u) => u,
                Emit::Rest => {
                    if let Some(c) = cut {
                        out.append(parent, self.rest_line(tree, c));
                    }
                    continue;
                }
            };
            let x = &self.units[u];
            match (x.kind, shows[u]) {
                (Kind::Node, Show::Whole) => copy_subtree(tree, x.head, &mut out, parent),
                (Kind::Node, Show::Open) => {
                    let id = out.append(parent, bare(tree.node(x.head)));
                    // The children its line holds go with it.
                    for &k in tree.node(x.head).children.iter().take(x.lead as usize) {
                        copy_subtree(tree, k, &mut out, id);
                    }
                    if host == Some(u) && u != self.root {
                        stack.push((Emit::Rest, id));
                    }
                    stack.extend(shown(u).iter().rev().map(|&m| (Emit::Unit(m), id)));
                }
                (Kind::Section, Show::Open) => {
                    stack.extend(shown(u).iter().rev().map(|&m| (Emit::Unit(m), parent)))
                }
                (Kind::Section, Show::Whole) => {
                    for &m in &x.members {
                        self.emit_whole(tree, m, &mut out, parent);
                    }
                }
                (kind, Show::Fold) => {
                    folds += 1;
                    // A section folds what follows its head; the head stays whole (a heading's
                    // inline content is on its line).
                    let (head_id, hidden): (NodeId, Vec<usize>) = match kind {
                        Kind::Node => {
                            let id = out.append(parent, bare(tree.node(x.head)));
                            (id, x.members.clone())
                        }
                        Kind::Section => {
                            let heading = self.units[x.members[0]].head;
                            let id = copy_subtree_id(tree, heading, &mut out, parent);
                            (id, x.members[1..].to_vec())
                        }
                    };
                    let tokens = match kind {
                        Kind::Node => x.size - x.own as u64,
                        Kind::Section => x.size - self.units[x.members[0]].size,
                    };
                    let mut holds = Holds::default();
                    for &m in &hidden {
                        self.count_unit(tree, m, &mut holds);
                    }
                    folded_nodes += holds.nodes;
                    out.node_mut(head_id).folded =
                        Some(Folded { tokens: tokens.min(u32::MAX as u64) as u32, holds: holds.say() });
                }
            }
        }
        Outline { tree: out, folds, folded_nodes, cut: cut.map_or(0, |c| c.parts) }
    }

    /// The closing `… N more parts … snapshot ref=eX from=K opens them` line of a cut.
    fn rest_line(&self, tree: &Tree, cut: Cut) -> Node {
        let members = &self.units[cut.host].members;
        let rest = &members[members.len() - cut.parts.min(members.len())..];
        let tokens: u64 = rest.iter().map(|&m| self.units[m].size).sum();
        let mut holds = Holds::default();
        for &m in rest {
            self.count_unit(tree, m, &mut holds);
        }
        // Where the cut starts among the element's children: `from=` opens the rest. A
        // section's parts are children of the element it is all of (the root).
        let element = match self.units[cut.host].kind {
            Kind::Node => self.units[cut.host].head,
            Kind::Section => self.units[self.root].head,
        };
        let first = rest.first().map(|&m| self.units[m].head);
        let at = tree.node(element).children.iter().position(|&c| Some(c) == first);
        let open = match (tree.node(element).ref_id, at) {
            (Some(r), Some(at)) => format!(": snapshot ref={r} from={} opens them", cut.from + at),
            _ => String::new(),
        };
        let name = format!(
            "{} more parts ({} tokens) do not fit in the budget{open}; find searches them",
            crate::caps::thousands(cut.parts),
            crate::caps::thousands(tokens as usize)
        );
        let native = crate::tree::NativeId::new(crate::project::SYNTHETIC_SCOPE, REST_ID);
        let mut line = Node::new(Role::More, name, native);
        // A diff matches by ref, and the line is never shown with one (nothing acts on it): a
        // ref of its own, from the top of the range, derived from its element's so that two
        // outlines of the page give it the same one (a panel opening over an outlined page is
        // then a diff, not the page again).
        line.ref_id = tree.node(element).ref_id.map(|r| crate::refs::Ref(u32::MAX - r.0));
        line
    }

    /// Emits a unit whole (a section: its members whole).
    fn emit_whole(&self, tree: &Tree, u: usize, out: &mut Tree, parent: NodeId) {
        match self.units[u].kind {
            Kind::Node => copy_subtree(tree, self.units[u].head, out, parent),
            Kind::Section => {
                let mut stack: Vec<usize> = self.units[u].members.iter().rev().copied().collect();
                while let Some(m) = stack.pop() {
                    match self.units[m].kind {
                        Kind::Node => copy_subtree(tree, self.units[m].head, out, parent),
                        Kind::Section => stack.extend(self.units[m].members.iter().rev().copied()),
                    }
                }
            }
        }
    }

    /// Counts what a unit holds (every node under it, its head included).
    fn count_unit(&self, tree: &Tree, u: usize, holds: &mut Holds) {
        let mut stack = vec![u];
        while let Some(v) = stack.pop() {
            let x = &self.units[v];
            match x.kind {
                Kind::Node => {
                    for id in tree.subtree(x.head) {
                        holds.add(tree.node(id));
                    }
                }
                Kind::Section => stack.extend(x.members.iter().copied()),
            }
        }
    }
}

/// One step of building the shown tree: a unit, or the cut line after its host's parts.
#[derive(Clone, Copy)]
enum Emit {
    Unit(usize),
    Rest,
}

/// What a folded part holds, counted by kind.
#[derive(Default)]
struct Holds {
    nodes: usize,
    links: usize,
    controls: usize,
    headings: usize,
}

impl Holds {
    fn add(&mut self, n: &Node) {
        self.nodes += 1;
        match n.role {
            Role::Link => self.links += 1,
            Role::Heading => self.headings += 1,
            _ if n.role.is_widget() || !n.actions.is_empty() => self.controls += 1,
            _ => {}
        }
    }

    /// `12 links, 3 controls, 2 headings` (kinds with none left out).
    fn say(&self) -> String {
        let mut parts = Vec::new();
        for (n, one, many) in [
            (self.links, "link", "links"),
            (self.controls, "control", "controls"),
            (self.headings, "heading", "headings"),
        ] {
            if n > 0 {
                parts.push(format!("{} {}", crate::caps::thousands(n), if n == 1 { one } else { many }));
            }
        }
        parts.join(", ")
    }
}

/// A copy of a node without its tree links.
pub(super) fn bare(n: &Node) -> Node {
    Node { children: Vec::new(), parent: None, ..n.clone() }
}

/// The subtree at `id` as a tree of its own (what a folded element's ref opens).
pub fn subtree(tree: &Tree, id: NodeId) -> Tree {
    let mut out = Tree::with_root(bare(tree.node(id)));
    if let Some(root) = out.root() {
        for &c in &tree.node(id).children {
            copy_subtree(tree, c, &mut out, root);
        }
    }
    out
}

/// The subtree at `id` with only its children from index `from` on (what an outline's
/// `… N more parts … from=N` line left out, when `id` is that outline's root).
pub fn subtree_from(tree: &Tree, id: NodeId, from: usize) -> Tree {
    let mut out = Tree::with_root(bare(tree.node(id)));
    if let Some(root) = out.root() {
        for &c in tree.node(id).children.iter().skip(from) {
            copy_subtree(tree, c, &mut out, root);
        }
    }
    out
}

/// Copies the subtree at `id` under `parent` in `out`. Iterative.
pub(super) fn copy_subtree(tree: &Tree, id: NodeId, out: &mut Tree, parent: NodeId) {
    copy_subtree_id(tree, id, out, parent);
}

/// [`copy_subtree`], returning the copy's root.
fn copy_subtree_id(tree: &Tree, id: NodeId, out: &mut Tree, parent: NodeId) -> NodeId {
    let top = out.append(parent, bare(tree.node(id)));
    let mut stack: Vec<(NodeId, NodeId)> = tree.node(id).children.iter().rev().map(|&c| (c, top)).collect();
    while let Some((src, dst_parent)) = stack.pop() {
        let new = out.append(dst_parent, bare(tree.node(src)));
        stack.extend(tree.node(src).children.iter().rev().map(|&c| (c, new)));
    }
    top
}
