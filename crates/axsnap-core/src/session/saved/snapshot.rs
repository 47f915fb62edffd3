//! A snapshot written out and read back, for a saved session's baselines.
//!
//! The tree is the compact part of the form: its nodes in pre-order, each with its number of
//! children (the shape, with no ids to resolve), its fields under one-letter names and left
//! out when empty, its native scope by number in a table of the tree's scopes (a page has one
//! or a few, and a scope is a long string), its ref as a number. Nodes are read back with a
//! stack, never by recursion, and a count that promises more or fewer children than follow is
//! an error. Unlike the interchange form ([`crate::interchange`]), a native id may repeat (a
//! backend's bug the refs stage tolerates) and nothing is redacted again (a snapshot is
//! redacted already).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::project::ProjectStats;
use crate::refs::{Ref, TargetId};
use crate::role::Role;
use crate::snapshot::{Header, Snapshot};
use crate::state::{ActionSet, StateSet};
use crate::tree::{Folded, NativeId, Node, NodeId, RawFlags, Rect, Tree, ValueRange};

/// A [`Snapshot`] written out.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(in crate::session) struct SavedSnapshot {
    target: TargetId,
    seq: u64,
    header: Header,
    stats: ProjectStats,
    tree: SavedTree,
}

impl SavedSnapshot {
    /// The saved form of `snap`.
    pub fn of(snap: &Snapshot) -> SavedSnapshot {
        SavedSnapshot {
            target: snap.target.clone(),
            seq: snap.seq,
            header: snap.header.clone(),
            stats: snap.stats.clone(),
            tree: SavedTree::of(&snap.tree),
        }
    }

    /// The snapshot, or why its tree does not hold together.
    pub fn snapshot(self) -> Result<Snapshot, String> {
        Ok(Snapshot {
            target: self.target,
            seq: self.seq,
            header: self.header,
            tree: self.tree.tree()?,
            stats: self.stats,
        })
    }
}

/// A [`Tree`]'s reachable nodes in pre-order.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedTree {
    /// The native scopes of the nodes, named by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<String>,
    /// The nodes, root first, each before its descendants.
    nodes: Vec<SavedNode>,
}

/// One node: every field of [`Node`] but its links, and its number of children.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedNode {
    /// Number of children (the next nodes in pre-order start with the first).
    #[serde(rename = "c", default, skip_serializing_if = "is_zero")]
    children: u32,
    #[serde(rename = "r")]
    role: Role,
    #[serde(rename = "n", default, skip_serializing_if = "String::is_empty")]
    name: String,
    #[serde(rename = "v", default, skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    #[serde(rename = "d", default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(rename = "st", default, skip_serializing_if = "StateSet::is_none_set")]
    states: StateSet,
    #[serde(rename = "ac", default, skip_serializing_if = "ActionSet::is_none_set")]
    actions: ActionSet,
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    level: Option<u32>,
    #[serde(rename = "u", default, skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(rename = "o", default, skip_serializing_if = "Vec::is_empty")]
    options: Vec<String>,
    /// `[min, max, step]`, as `bounds` are written.
    #[serde(rename = "rg", default, skip_serializing_if = "Option::is_none")]
    range: Option<[Option<f64>; 3]>,
    /// `[x, y, w, h]`; a number JSON cannot hold (NaN) is written `null` and read as NaN.
    #[serde(rename = "b", default, skip_serializing_if = "Option::is_none")]
    bounds: Option<[Option<f64>; 4]>,
    #[serde(rename = "dv", default, skip_serializing_if = "Option::is_none")]
    dev_id: Option<String>,
    /// Index of the native id's scope in [`SavedTree::scopes`].
    #[serde(rename = "s", default, skip_serializing_if = "is_zero")]
    scope: u32,
    /// The native id within its scope.
    #[serde(rename = "i")]
    id: String,
    #[serde(rename = "e", default, skip_serializing_if = "Option::is_none")]
    ref_id: Option<u32>,
    /// [`RawFlags`] as bits (`FLAG_*`).
    #[serde(rename = "f", default, skip_serializing_if = "is_zero_u8")]
    flags: u8,
    #[serde(rename = "z", default, skip_serializing_if = "Option::is_none")]
    folded: Option<Folded>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

const FLAG_IGNORED: u8 = 1;
const FLAG_HIDDEN: u8 = 2;
const FLAG_EMBEDS_SECRET: u8 = 4;
const FLAG_BLOCK: u8 = 8;
const FLAG_PRE: u8 = 16;

fn flag_bits(f: &RawFlags) -> u8 {
    let RawFlags { ignored, hidden, embeds_secret, block, pre } = *f;
    [
        (ignored, FLAG_IGNORED),
        (hidden, FLAG_HIDDEN),
        (embeds_secret, FLAG_EMBEDS_SECRET),
        (block, FLAG_BLOCK),
        (pre, FLAG_PRE),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .fold(0, |bits, (_, bit)| bits | bit)
}

fn flags_of(bits: u8) -> RawFlags {
    RawFlags {
        ignored: bits & FLAG_IGNORED != 0,
        hidden: bits & FLAG_HIDDEN != 0,
        embeds_secret: bits & FLAG_EMBEDS_SECRET != 0,
        block: bits & FLAG_BLOCK != 0,
        pre: bits & FLAG_PRE != 0,
    }
}

impl SavedTree {
    fn of(tree: &Tree) -> SavedTree {
        let mut scopes: Vec<String> = Vec::new();
        let mut scope_index: HashMap<&str, u32> = HashMap::new();
        let mut nodes = Vec::with_capacity(tree.arena_len());
        for (id, _) in tree.preorder() {
            // Every field named: a field added to `Node` must be added here too.
            let Node {
                role,
                name,
                value,
                description,
                states,
                actions,
                level,
                url,
                options,
                range,
                bounds,
                dev_id,
                native,
                ref_id,
                flags,
                folded,
                children,
                parent: _,
            } = tree.node(id);
            let next = scope_index.len() as u32;
            let scope = *scope_index.entry(native.scope.as_str()).or_insert_with(|| {
                scopes.push(native.scope.clone());
                next
            });
            nodes.push(SavedNode {
                children: children.len() as u32,
                role: role.clone(),
                name: name.clone(),
                value: value.clone(),
                description: description.clone(),
                states: *states,
                actions: *actions,
                level: *level,
                url: url.clone(),
                options: options.clone(),
                range: range.map(|r| [Some(r.min), Some(r.max), r.step]),
                bounds: bounds.map(|b| [Some(b.x), Some(b.y), Some(b.w), Some(b.h)]),
                dev_id: dev_id.clone(),
                scope,
                id: native.id.clone(),
                ref_id: ref_id.map(|r| r.0),
                flags: flag_bits(flags),
                folded: folded.clone(),
            });
        }
        SavedTree { scopes, nodes }
    }

    /// The tree, laid out in pre-order, or why the saved nodes do not make one.
    fn tree(self) -> Result<Tree, String> {
        let SavedTree { scopes, nodes } = self;
        let mut tree = Tree::with_capacity(nodes.len());
        // The nodes still open, with the children each still waits for.
        let mut open: Vec<(NodeId, u32)> = Vec::new();
        for (i, saved) in nodes.into_iter().enumerate() {
            let scope = scopes
                .get(saved.scope as usize)
                .ok_or_else(|| format!("node {i} names native scope {}, of {}", saved.scope, scopes.len()))?;
            let kids = saved.children;
            let node = saved.node(scope.clone());
            let id = if i == 0 {
                let id = tree.push(node);
                tree.set_root(id);
                id
            } else {
                while open.last().is_some_and(|&(_, left)| left == 0) {
                    open.pop();
                }
                let Some((parent, left)) = open.last_mut() else {
                    return Err(format!("node {i} follows a complete tree"));
                };
                *left -= 1;
                tree.append(*parent, node)
            };
            open.push((id, kids));
        }
        if open.iter().any(|&(_, left)| left > 0) {
            return Err("a node's children are missing".into());
        }
        tree.lay_out_in_preorder();
        Ok(tree)
    }
}

impl SavedNode {
    fn node(self, scope: String) -> Node {
        let nan = |v: Option<f64>| v.unwrap_or(f64::NAN);
        Node {
            role: self.role,
            name: self.name,
            value: self.value,
            description: self.description,
            states: self.states,
            actions: self.actions,
            level: self.level,
            url: self.url,
            options: self.options,
            range: self.range.map(|[min, max, step]| ValueRange { min: nan(min), max: nan(max), step }),
            bounds: self.bounds.map(|[x, y, w, h]| Rect { x: nan(x), y: nan(y), w: nan(w), h: nan(h) }),
            dev_id: self.dev_id,
            native: NativeId { scope, id: self.id },
            ref_id: self.ref_id.map(Ref),
            flags: flags_of(self.flags),
            folded: self.folded,
            children: Vec::new(),
            parent: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, State};

    fn snapshot(tree: Tree) -> Snapshot {
        Snapshot {
            target: TargetId("t".into()),
            seq: 7,
            header: Header { url: Some("https://a.example/".into()), title: Some("A".into()) },
            tree,
            stats: ProjectStats { raw_nodes: 9, output_nodes: 4, ..ProjectStats::default() },
        }
    }

    fn json_round_trip(snap: &Snapshot) -> Result<Snapshot, String> {
        let text = serde_json::to_string(&SavedSnapshot::of(snap)).map_err(|e| e.to_string())?;
        let saved: SavedSnapshot = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        saved.snapshot()
    }

    #[test]
    fn every_field_and_the_shape_read_back() {
        let mut root = Node::new(Role::Document, "Doc", NativeId::new("d", "0"));
        root.ref_id = Some(Ref(1));
        let mut t = Tree::with_root(root);
        let r = t.root().unwrap();
        let mut b = Node::new(Role::Button, "Buy", NativeId::new("frame:loader", "7"));
        b.value = Some("v".into());
        b.description = Some("d".into());
        b.states = StateSet::EMPTY.with(State::Focused).with(State::Offscreen);
        b.actions = ActionSet::EMPTY.with(Action::Click);
        b.level = Some(2);
        b.url = Some("u".into());
        b.options = vec!["a".into(), "b".into()];
        b.range = ValueRange::new(0.0, 10.0, Some(0.5));
        b.bounds = Some(Rect { x: 1.5, y: -2.0, w: 1e-7, h: 3e9 });
        b.dev_id = Some("buy".into());
        b.ref_id = Some(Ref(12));
        b.flags = RawFlags { ignored: true, hidden: false, embeds_secret: true, block: true, pre: true };
        b.folded = Some(Folded { tokens: 40, holds: "3 links".into() });
        let list = t.append(r, Node::new(Role::List, "", NativeId::new("d", "1")));
        t.append(list, b);
        t.append(list, Node::new(Role::Other("FancyWidget".into()), "", NativeId::new("d", "1")));
        t.append(r, Node::new(Role::Text, "end", NativeId::new("d", "9")));
        let snap = snapshot(t);
        let back = json_round_trip(&snap).unwrap();
        assert_eq!(back, snap);
        assert_eq!(back.tree.root(), Some(NodeId(0)));
        // An empty tree too.
        assert_eq!(json_round_trip(&snapshot(Tree::new())).unwrap(), snapshot(Tree::new()));
    }

    #[test]
    fn broken_shapes_and_scopes_are_errors() {
        let node = |c: u32, s: u32| SavedNode {
            children: c,
            role: Role::Generic,
            name: String::new(),
            value: None,
            description: None,
            states: StateSet::EMPTY,
            actions: ActionSet::EMPTY,
            level: None,
            url: None,
            options: Vec::new(),
            range: None,
            bounds: None,
            dev_id: None,
            scope: s,
            id: "x".into(),
            ref_id: None,
            flags: 0,
            folded: None,
        };
        let tree = |nodes| SavedTree { scopes: vec!["d".into()], nodes };
        assert!(tree(vec![node(1, 0), node(0, 0)]).tree().is_ok());
        assert!(tree(vec![node(2, 0), node(0, 0)]).tree().is_err(), "a child missing");
        assert!(tree(vec![node(u32::MAX, 0)]).tree().is_err(), "children missing");
        assert!(tree(vec![node(0, 0), node(0, 0)]).tree().is_err(), "a second root");
        assert!(tree(vec![node(1, 0), node(0, 1)]).tree().is_err(), "a scope out of range");
    }

    #[test]
    fn a_number_json_cannot_hold_reads_back_as_nan() {
        let mut n = Node::new(Role::Button, "b", NativeId::new("d", "0"));
        n.bounds = Some(Rect { x: f64::NAN, y: 0.0, w: 1.0, h: 1.0 });
        let back = json_round_trip(&snapshot(Tree::with_root(n))).unwrap();
        let b = back.tree.node(NodeId(0)).bounds.unwrap();
        assert!(b.x.is_nan() && b.w == 1.0);
    }
}
