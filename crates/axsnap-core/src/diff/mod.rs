//! Diff and apply between two snapshots' trees (DESIGN.md, "Diffs and the auto policy").
//!
//! Nodes are matched by ref: the refs stage already decided identity (native id first,
//! structure second, unique matches only), so a kept ref is the same element and a new ref a
//! new one. [`diff`] lists operations in document order of the next tree; [`apply`] replays
//! them. The invariant, checked by property tests and fuzzing:
//! `apply(prev, &diff(prev, next)?)? == *next`, exactly (structural [`Tree`] equality).
//!
//! # Semantics
//!
//! [`apply`] runs the ops one after another on a working copy of the tree; each op names nodes
//! by ref *as the tree is at that moment* and is checked against it (see [`Op`]). [`diff`]
//! orders them so that this works:
//!
//! - every node of `next` is visited in pre-order; a kept node gets a `Move` (if its parent or
//!   its place among its siblings changed), then an `Update` or a `Replace`; a new node whose
//!   parent is kept gets an `Add` carrying it and its new descendants (a kept descendant of a
//!   new node is moved in by a later `Move`);
//! - a removed node whose parent is kept gets one `Remove`, placed right after the ops of its
//!   old parent's next position, or later, after the `Move`s that take its surviving
//!   descendants out of it;
//! - among the kept children that stay under the same parent, the longest run already in
//!   order (a longest increasing subsequence) stays put, so one reordered child is one `Move`.
//!
//! A `Replace` is used in two cases:
//! - *a removed node and a new node in the same place*: a removed node without surviving
//!   descendants, and the new node of the same role that in `next` follows the same kept,
//!   unmoved sibling (or is the first child) of the same parent. The op names the removed node; the subtree
//!   brings the new node's ref.
//! - *a kept node whose subtree mostly changed*: the node keeps its ref, no node crosses the
//!   border of its subtree in either direction, some node was added or removed in it, and
//!   sending it whole is cheaper. Costs count ops plus re-sent nodes: fine-grained, an update
//!   per changed node, a move per re-parented node, an add per new node under a kept one and
//!   a remove per removed node under a kept one; whole, one op plus the subtree's kept nodes
//!   (new nodes are sent either way). Subtrees are chosen bottom-up so that a replace is
//!   taken only where it beats the best choice for the subtrees below it. The subtree is the
//!   node's whole new subtree, kept refs included.
//!
//! `unchanged` counts kept nodes with no op of their own and not inside a replaced subtree.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::refs::Ref;
use crate::tree::{Node, Tree};

mod apply;
mod compute;
mod fields;
mod flat;
mod lis;
mod span;
#[cfg(test)]
mod tests;

pub use apply::apply;
pub use compute::diff;
pub use span::TextEdit;

/// A diff from one snapshot to the next.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// Sequence number of the snapshot the diff applies to.
    pub from_seq: u64,
    /// Sequence number of the snapshot it produces.
    pub to_seq: u64,
    /// Operations, in document order of the next tree.
    pub ops: Vec<Op>,
    /// Nodes present in both trees with no change of their own.
    pub unchanged: usize,
}

impl Diff {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// A node with its new descendants, as an add or a replace carries it: the nodes in pre-order,
/// each with its depth below the subtree's root.
///
/// Flat rather than nested so that a subtree 100,000 deep is built, cloned, compared, dropped
/// and (de)serialized without recursion.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewSubtree {
    /// The nodes in pre-order; the first is the subtree's root (depth 0). Each node's
    /// `ref_id` is set; its `children`/`parent` links are ignored.
    pub nodes: Vec<NewNode>,
}

/// One node of a [`NewSubtree`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NewNode {
    /// Depth below the subtree's root: 0 for the root, a child one more than its parent.
    /// A node is the child of the nearest earlier node one level up.
    pub depth: u32,
    /// The node's content.
    #[serde(flatten)]
    pub node: Node,
}

impl NewSubtree {
    /// The subtree's root node, if it has any node.
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first().map(|n| &n.node)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether it has no node (never so in a diff [`diff`] makes).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The subtree as a tree of its own (its root the tree's root), or `None` when the depths
    /// do not describe a tree.
    pub fn to_tree(&self) -> Option<Tree> {
        let mut tree = Tree::new();
        let mut path: Vec<crate::NodeId> = Vec::new();
        for (k, n) in self.nodes.iter().enumerate() {
            let d = n.depth as usize;
            if (k == 0) != (d == 0) || d > path.len() {
                return None;
            }
            path.truncate(d);
            let id = tree.push(n.node.clone());
            match path.last() {
                Some(p) => tree.attach(*p, id, None),
                None => tree.set_root(id),
            }
            path.push(id);
        }
        Some(tree)
    }
}

/// One change to one node's own fields: each variant holds the `old` and the `new` value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "field", rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum FieldChange {
    /// Role changed.
    Role { old: crate::Role, new: crate::Role },
    /// Name changed.
    Name { old: String, new: String },
    /// Value changed.
    Value { old: Option<String>, new: Option<String> },
    /// Description changed.
    Description { old: Option<String>, new: Option<String> },
    /// States changed.
    States { old: crate::StateSet, new: crate::StateSet },
    /// Actions changed.
    Actions { old: crate::ActionSet, new: crate::ActionSet },
    /// Level changed.
    Level { old: Option<u32>, new: Option<u32> },
    /// URL changed.
    Url { old: Option<String>, new: Option<String> },
    /// Options changed.
    Options { old: Vec<String>, new: Vec<String> },
    /// A ranged control's bounds changed.
    Range { old: Option<crate::ValueRange>, new: Option<crate::ValueRange> },
    /// Bounds changed.
    Bounds { old: Option<crate::Rect>, new: Option<crate::Rect> },
    /// Developer id changed.
    DevId { old: Option<String>, new: Option<String> },
    /// Native identity changed (a ref carried across a scope churn). Not shown to models.
    Native { old: crate::NativeId, new: crate::NativeId },
    /// Layout flags changed (projected trees keep only `pre` and `block`; here so that any two trees diff
    /// exactly). Not shown to models.
    Flags { old: crate::RawFlags, new: crate::RawFlags },
    /// What an outline folded under the node changed (folded, opened, or a folded part's size).
    Folded { old: Option<crate::tree::Folded>, new: Option<crate::tree::Folded> },
    /// A long text changed, said as its changed span: the reading form of a diff
    /// ([`crate::render`]) puts it in place of a long `Name`, `Value` or `Description` change,
    /// so that a program is not sent the whole text twice. [`diff`] never makes it; applied,
    /// it splices the span into the node's text.
    Edit {
        /// Which text.
        of: TextField,
        #[serde(flatten)]
        edit: TextEdit,
    },
}

/// A text field of a node, as an [`FieldChange::Edit`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextField {
    /// The name.
    Name,
    /// The value.
    Value,
    /// The description.
    Description,
}

/// One diff operation. Each names nodes by ref as the tree is when the op runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// A new subtree, inserted under `parent` right after `after` (first child when `None`).
    /// Its refs must all be absent from the tree.
    Add {
        /// The parent.
        parent: Ref,
        /// The preceding sibling, a child of `parent`.
        after: Option<Ref>,
        /// The new nodes.
        subtree: NewSubtree,
    },
    /// A node and everything still under it are gone (descendants that live on were moved
    /// out by earlier ops). Not the root.
    Remove {
        /// The node.
        r: Ref,
    },
    /// Fields of a node changed; each change's `old` must match the node.
    Update {
        /// The node.
        r: Ref,
        /// Its changes (at least one).
        changes: Vec<FieldChange>,
    },
    /// A node, with its subtree, moved to another parent or among its siblings. Not the root,
    /// and not under itself.
    Move {
        /// The node.
        r: Ref,
        /// The new parent.
        parent: Ref,
        /// The new preceding sibling, a child of `parent` other than `r`; first when `None`.
        after: Option<Ref>,
    },
    /// A node and everything under it give way to `subtree`, which takes the node's place
    /// (the root's too). The subtree's refs must be absent from the tree once the node's
    /// subtree is gone; so it may reuse `r` and the refs of `r`'s descendants.
    Replace {
        /// The node replaced.
        r: Ref,
        /// What stands in its place.
        subtree: NewSubtree,
    },
}

impl Op {
    /// The ref of the node the op is about (for an add, its subtree's root).
    pub fn target(&self) -> Option<Ref> {
        match self {
            Op::Add { subtree, .. } => subtree.root().and_then(|n| n.ref_id),
            Op::Remove { r } | Op::Update { r, .. } | Op::Move { r, .. } | Op::Replace { r, .. } => Some(*r),
        }
    }
}

/// Why two trees cannot be diffed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum DiffError {
    /// A node has no ref (refs stage not run).
    #[error("a node of the {which} tree has no ref; run the refs stage before diffing")]
    MissingRef {
        /// `prev` or `next`.
        which: &'static str,
    },
    /// Two nodes share a ref.
    #[error("ref {r} appears twice in the {which} tree")]
    DuplicateRef {
        /// The ref.
        r: Ref,
        /// `prev` or `next`.
        which: &'static str,
    },
    /// The roots differ (a new document): a diff would be a full re-send.
    #[error("the roots differ ({prev} vs {next}); send a full snapshot")]
    RootChanged {
        /// Root ref before.
        prev: Ref,
        /// Root ref after.
        next: Ref,
    },
    /// An empty tree.
    #[error("an empty tree cannot be diffed")]
    Empty,
}

/// Why a diff cannot be applied.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ApplyError {
    /// An operation names a ref the tree does not have.
    #[error("operation {index} names {r}, which the tree does not have")]
    UnknownRef {
        /// Operation index.
        index: usize,
        /// The ref.
        r: Ref,
    },
    /// An operation's preceding sibling is not a child of its parent.
    #[error("operation {index}: {after} is not a child of {parent}")]
    BadPosition {
        /// Operation index.
        index: usize,
        /// The parent.
        parent: Ref,
        /// The sibling.
        after: Ref,
    },
    /// An add brings a ref the tree already has, or a move makes a cycle.
    #[error("operation {index} is inconsistent with the tree: {reason}")]
    Inconsistent {
        /// Operation index.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// The tree the diff is applied to names two nodes with one ref, so ops cannot address
    /// them.
    #[error("the tree to apply the diff to has ref {r} twice; it is not a snapshot's tree")]
    DuplicateRef {
        /// The ref.
        r: Ref,
    },
    /// A field change's `old` does not match the tree.
    #[error("operation {index} expects {field} to be something else; the diff is for another snapshot")]
    OldMismatch {
        /// Operation index.
        index: usize,
        /// The field.
        field: &'static str,
    },
}
