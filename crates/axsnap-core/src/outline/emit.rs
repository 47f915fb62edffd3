//! Building the shown tree from a plan: folded nodes marked with what they left out.

use super::{Kind, Outline, Show, Units};
use crate::role::Role;
use crate::tree::{Folded, Node, NodeId, Tree};

impl Units {
    /// Builds the shown tree. `from`: the index among its element's children of the root's
    /// first child, for the cut line's `from=`.
    pub(super) fn emit(&self, tree: &Tree, shows: &[Show], cut: usize, from: usize) -> Outline {
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
        let host = self.cut_host();
        let hosted = &self.units[host].members;
        let keep = hosted.len() - cut.min(hosted.len());
        let shown =
            |u: usize| if u == host { &self.units[u].members[..keep] } else { &self.units[u].members[..] };
        // (unit, parent in `out`), in reverse so pops come in document order.
        let mut stack: Vec<(usize, NodeId)> = shown(self.root).iter().rev().map(|&m| (m, new_root)).collect();
        while let Some((u, parent)) = stack.pop() {
            let x = &self.units[u];
            match (x.kind, shows[u]) {
                (Kind::Node, Show::Whole) => copy_subtree(tree, x.head, &mut out, parent),
                (Kind::Node, Show::Open) => {
                    let id = out.append(parent, bare(tree.node(x.head)));
                    // The children its line holds go with it.
                    for &k in tree.node(x.head).children.iter().take(x.lead as usize) {
                        copy_subtree(tree, k, &mut out, id);
                    }
                    stack.extend(x.members.iter().rev().map(|&m| (m, id)));
                }
                (Kind::Section, Show::Open) => stack.extend(shown(u).iter().rev().map(|&m| (m, parent))),
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
        if cut > 0 {
            let rest = &hosted[keep..];
            let tokens: u64 = rest.iter().map(|&m| self.units[m].size).sum();
            let mut holds = Holds::default();
            for &m in rest {
                self.count_unit(tree, m, &mut holds);
            }
            // Where the cut starts among the root's children: `from=` opens the rest.
            let first = self.units[rest[0]].head;
            let at = tree.node(root.head).children.iter().position(|&c| c == first);
            let open = match (tree.node(root.head).ref_id, at) {
                (Some(r), Some(at)) => format!(": snapshot ref={r} from={} opens them", from + at),
                _ => String::new(),
            };
            let name = format!(
                "{} more parts ({} tokens) do not fit in the budget{open}; find searches them",
                crate::caps::thousands(cut),
                crate::caps::thousands(tokens as usize)
            );
            let native = crate::tree::NativeId::new(crate::project::SYNTHETIC_SCOPE, "outline-rest");
            out.append(new_root, Node::new(Role::More, name, native));
        }
        Outline { tree: out, folds, folded_nodes, cut }
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
