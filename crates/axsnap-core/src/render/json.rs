//! The JSON forms. Both are flat, so any reader can read them whatever the tree's depth
//! (Python's `json` and serde_json stop at 1,000 and 128 levels of nesting): a snapshot lists
//! its nodes by id, each naming its parent and children, like the interchange form; a diff is
//! serde's form of [`Diff`], whose subtrees are flat lists with depths. Nesting never passes
//! six levels. Texts are capped as in the text form ([`crate::caps`]).
//!
//! A snapshot:
//!
//! ```json
//! {"target":"T1","seq":2,"header":{"url":"https://a.example/","title":"Shop"},
//!  "stats":{...},"root":0,
//!  "nodes":[{"id":0,"ref":"e1","role":"document","name":"Shop","native":{...},"children":[1]},
//!           {"id":1,"parent":0,"ref":"e2","role":"button","name":"Buy","actions":["click"],
//!            "native":{...}}]}
//! ```
//!
//! - `nodes` is in document order (pre-order); a node's `id` is its index in `nodes`, `root`
//!   is `0` (`null`, with no nodes, when the tree is empty).
//! - Each node: `id`, `parent` (left out on the root), then its fields in this order: `ref`,
//!   `role`, `name`, `value`, `description`, `states`, `actions`, `level`, `url`, `options`,
//!   `bounds`, `dev_id`, `native`, `folded` (an outline's folded part), and last `children` (ids, in order). Empty fields are left
//!   out.

use std::borrow::Cow;

use serde::Serialize;

use super::bound;
use crate::diff::Diff;
use crate::refs::Ref;
use crate::role::Role;
use crate::snapshot::Snapshot;
use crate::state::{ActionSet, StateSet};
use crate::tree::{Folded, NativeId, Node, Rect, Tree, ValueRange};

/// A node in the snapshot JSON: its place, then its own fields.
#[derive(Serialize)]
struct Entry<'a> {
    id: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<usize>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    r: Option<Ref>,
    role: &'a Role,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "StateSet::is_none_set")]
    states: StateSet,
    #[serde(skip_serializing_if = "ActionSet::is_none_set")]
    actions: ActionSet,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    options: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    range: Option<ValueRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bounds: Option<Rect>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dev_id: Option<&'a str>,
    native: &'a NativeId,
    #[serde(skip_serializing_if = "Option::is_none")]
    folded: Option<&'a Folded>,
    #[serde(skip_serializing_if = "<[usize]>::is_empty")]
    children: &'a [usize],
}

impl<'a> Entry<'a> {
    fn of(id: usize, parent: Option<usize>, n: &'a Node, children: &'a [usize]) -> Entry<'a> {
        Entry {
            id,
            parent,
            r: n.ref_id,
            role: &n.role,
            name: &n.name,
            value: n.value.as_deref(),
            description: n.description.as_deref(),
            states: n.states,
            actions: n.actions,
            level: n.level,
            url: n.url.as_deref(),
            options: &n.options,
            range: n.range,
            bounds: n.bounds,
            dev_id: n.dev_id.as_deref(),
            native: &n.native,
            folded: n.folded.as_ref(),
            children,
        }
    }
}

/// Serializes plain data; it has no maps with non-string keys and no failing impls, so this
/// cannot fail, but a failure would give `null`, never a panic.
fn to_json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

/// `{"target","seq","header","stats","root","nodes"}`, the nodes flat (see the module doc).
pub(super) fn snapshot(snap: &Snapshot) -> String {
    let tree: &Tree = &snap.tree;
    let mut out = String::new();
    out.push_str("{\"target\":");
    out.push_str(&to_json(&snap.target));
    out.push_str(",\"seq\":");
    out.push_str(&snap.seq.to_string());
    out.push_str(",\"header\":");
    out.push_str(&to_json(&*bound::header(&snap.header)));
    out.push_str(",\"stats\":");
    out.push_str(&to_json(&snap.stats));
    // Ids are positions in document order, whatever the arena's layout.
    let order: Vec<_> = tree.preorder().map(|(id, _)| id).collect();
    let mut pos: Vec<usize> = vec![usize::MAX; tree.arena_len()];
    for (i, id) in order.iter().enumerate() {
        pos[id.index()] = i;
    }
    out.push_str(if order.is_empty() { ",\"root\":null" } else { ",\"root\":0" });
    out.push_str(",\"nodes\":[");
    let mut children: Vec<usize> = Vec::new();
    for (i, &id) in order.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let n: Cow<Node> = bound::node(tree.node(id));
        let parent = (i > 0).then(|| n.parent.map(|p| pos[p.index()])).flatten();
        children.clear();
        children.extend(tree.node(id).children.iter().map(|c| pos[c.index()]));
        out.push_str(&to_json(&Entry::of(i, parent, &n, &children)));
    }
    out.push_str("]}");
    out
}

/// The serde form of [`Diff`], texts capped. Its subtrees are flat, so serde does not recurse
/// on depth.
pub(super) fn diff(diff: &Diff) -> String {
    to_json(&*bound::diff(diff))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::ProjectStats;
    use crate::refs::TargetId;
    use crate::snapshot::Header;

    fn snap(tree: Tree) -> Snapshot {
        Snapshot {
            target: TargetId("T".into()),
            seq: 1,
            header: Header { url: Some(format!("https://a.example/{}", "p".repeat(5_000))), title: None },
            tree,
            stats: ProjectStats::default(),
        }
    }

    #[test]
    fn nodes_are_flat_with_parent_and_children() {
        let mut t = Tree::with_root(Node::new(Role::Document, "Doc", NativeId::new("d", "0")));
        let r = t.root().unwrap();
        let list = t.append(r, Node::new(Role::List, "", NativeId::new("d", "1")));
        t.append(list, Node::new(Role::ListItem, "a", NativeId::new("d", "2")));
        t.append(r, Node::new(Role::Button, "b", NativeId::new("d", "3")));
        let v: serde_json::Value = serde_json::from_str(&snapshot(&snap(t))).unwrap();
        assert_eq!(v["root"], 0);
        let nodes = v["nodes"].as_array().unwrap();
        assert_eq!(nodes.len(), 4);
        assert_eq!(nodes[0]["children"], serde_json::json!([1, 3]));
        assert!(nodes[0].get("parent").is_none());
        assert_eq!((nodes[2]["parent"].clone(), nodes[2]["name"].clone()), (1.into(), "a".into()));
        assert_eq!(nodes[3]["parent"], 0);
        assert!(nodes[3].get("children").is_none());
        // The header's URL is capped like the text form's.
        let url = v["header"]["url"].as_str().unwrap();
        assert_eq!(url.chars().count(), crate::caps::URL_CHARS);
        assert!(url.ends_with(" chars"));
        let empty: serde_json::Value = serde_json::from_str(&snapshot(&snap(Tree::new()))).unwrap();
        assert_eq!(
            (empty["root"].clone(), empty["nodes"].clone()),
            (serde_json::Value::Null, serde_json::json!([]))
        );
    }
}
