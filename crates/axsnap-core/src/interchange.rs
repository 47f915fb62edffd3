//! The JSON interchange form of a raw tree: how trees are recorded from any backend, stored as
//! fixtures and fed to the CLI.
//!
//! The form is flat, so reading it never recurses on the tree's depth and a cycle or a shared
//! child is caught, not followed:
//!
//! ```json
//! {
//!   "format": "axsnap-tree",
//!   "version": 1,
//!   "target": { "kind": "page", "id": "T1", "url": "http://127.0.0.1:8000/", "title": "Shop" },
//!   "root": 0,
//!   "nodes": [
//!     { "id": 0, "role": "document", "name": "Shop", "native": { "scope": "d1", "id": "1" },
//!       "children": [1] },
//!     { "id": 1, "role": "button", "name": "Buy", "actions": ["click"],
//!       "native": { "scope": "d1", "id": "7" } }
//!   ]
//! }
//! ```
//!
//! Every node field of [`Node`] may appear (`value`, `description`, `states`, `actions`,
//! `level`, `url`, `options`, `range` as `{min,max,step}`, `bounds` as `{x,y,w,h}`, `dev_id`, `flags`); all but `id` and
//! `native` are optional. `role` takes any platform spelling ([`Role::parse`](crate::Role::parse)); unknown state
//! and action names are skipped. `id`s are local to the file and need not be dense.
//!
//! ```
//! use axsnap_core::interchange::{read_tree, write_tree, ReadLimits};
//!
//! let json = r#"{"format":"axsnap-tree","version":1,"root":0,"nodes":[
//!   {"id":0,"role":"RootWebArea","native":{"scope":"d","id":"1"},"children":[1]},
//!   {"id":1,"role":"button","name":"OK","native":{"scope":"d","id":"2"}}]}"#;
//! let rec = read_tree(json.as_bytes(), &ReadLimits::default()).unwrap();
//! assert_eq!(rec.tree.len(), 2);
//! let again = read_tree(write_tree(&rec.tree, &rec.target).as_bytes(), &ReadLimits::default()).unwrap();
//! assert!(again.tree == rec.tree);
//! ```

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::error::TreeError;
use crate::tree::{Node, NodeId, Tree};

/// The `format` tag of the interchange form.
pub const FORMAT: &str = "axsnap-tree";
/// The interchange version this build reads and writes.
pub const VERSION: u32 = 1;

/// What the tree was captured from. Informational; the core does not interpret it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetInfo {
    /// `page`, `window`, ...
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The backend's id of the target.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    /// URL of a page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Title of a page or window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Bounds on what [`read_tree`] accepts, so a hostile file cannot exhaust memory.
#[derive(Clone, Debug)]
pub struct ReadLimits {
    /// Most bytes of input.
    pub max_bytes: usize,
    /// Most nodes.
    pub max_nodes: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits { max_bytes: 1 << 30, max_nodes: 2_000_000 }
    }
}

/// A tree read from the interchange form, with its target.
#[derive(Clone, Debug)]
pub struct RecordedTree {
    /// The tree, laid out in pre-order.
    pub tree: Tree,
    /// What it was captured from.
    pub target: TargetInfo,
}

#[derive(Serialize, Deserialize)]
struct FileForm {
    format: String,
    version: u32,
    #[serde(default)]
    target: TargetInfo,
    root: u64,
    nodes: Vec<NodeForm>,
}

#[derive(Serialize, Deserialize)]
struct NodeForm {
    id: u64,
    #[serde(flatten)]
    node: Node,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    children: Vec<u64>,
}

/// Reads a tree from its JSON interchange form, checking its structure: one root, every child
/// present, no node with two parents, no cycle, no duplicate native id.
///
/// Invalid UTF-8, malformed JSON, a wrong format tag and every structural fault give a
/// [`TreeError`] that says where. Nodes not reachable from the root are dropped.
pub fn read_tree(bytes: &[u8], limits: &ReadLimits) -> Result<RecordedTree, TreeError> {
    if bytes.len() > limits.max_bytes {
        return Err(TreeError::TooLarge { what: "bytes", limit: limits.max_bytes, found: bytes.len() });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| TreeError::Utf8 { offset: e.valid_up_to() })?;
    let file: FileForm = serde_json::from_str(text).map_err(|e| TreeError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    if file.format != FORMAT {
        return Err(TreeError::Format { found: file.format });
    }
    if file.version != VERSION {
        return Err(TreeError::Version { found: file.version, supported: VERSION });
    }
    if file.nodes.len() > limits.max_nodes {
        return Err(TreeError::TooLarge { what: "nodes", limit: limits.max_nodes, found: file.nodes.len() });
    }

    let mut index: HashMap<u64, usize> = HashMap::with_capacity(file.nodes.len());
    for (i, n) in file.nodes.iter().enumerate() {
        if index.insert(n.id, i).is_some() {
            return Err(TreeError::DuplicateId { id: n.id });
        }
    }
    let root = *index.get(&file.root).ok_or(TreeError::MissingNode { id: file.root, referenced_by: None })?;

    let mut parent: Vec<Option<u64>> = vec![None; file.nodes.len()];
    for n in &file.nodes {
        for c in &n.children {
            let ci = *index.get(c).ok_or(TreeError::MissingNode { id: *c, referenced_by: Some(n.id) })?;
            if ci == root || parent[ci].is_some() {
                return Err(TreeError::SharedChild { id: *c, parents: (parent[ci].unwrap_or(*c), n.id) });
            }
            parent[ci] = Some(n.id);
        }
    }

    // With one parent each and the root parentless, what the root reaches is a tree; nodes
    // on a cycle are unreachable from it and dropped with the rest.
    let mut nodes: Vec<Option<NodeForm>> = file.nodes.into_iter().map(Some).collect();
    let mut tree = Tree::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<(usize, Option<NodeId>)> = vec![(root, None)];
    while let Some((i, p)) = stack.pop() {
        let Some(form) = nodes[i].take() else { continue };
        if !seen.insert(form.node.native.clone()) {
            return Err(TreeError::DuplicateNative {
                scope: form.node.native.scope.clone(),
                id: form.node.native.id.clone(),
            });
        }
        let id = tree.push(form.node);
        match p {
            Some(p) => tree.attach(p, id, None),
            None => tree.set_root(id),
        }
        for c in form.children.iter().rev() {
            if let Some(ci) = index.get(c) {
                stack.push((*ci, Some(id)));
            }
        }
    }
    Ok(RecordedTree { tree, target: file.target })
}

/// Writes a tree in the JSON interchange form (pretty-printed, deterministic). File ids are the
/// nodes' pre-order positions.
pub fn write_tree(tree: &Tree, target: &TargetInfo) -> String {
    // A recorded tree is output too: a secret still showing is redacted on a copy.
    let redacted;
    let tree = if crate::secret::needs_redaction(tree) {
        let mut copy = tree.clone();
        crate::secret::redact(&mut copy, &[]);
        redacted = copy;
        &redacted
    } else {
        tree
    };
    let order: Vec<NodeId> = tree.preorder().map(|(id, _)| id).collect();
    let mut pos: HashMap<NodeId, u64> = HashMap::with_capacity(order.len());
    for (i, id) in order.iter().enumerate() {
        pos.insert(*id, i as u64);
    }
    let nodes = order
        .iter()
        .map(|id| {
            let n = tree.node(*id);
            NodeForm {
                id: pos[id],
                node: n.clone(),
                children: n.children.iter().filter_map(|c| pos.get(c).copied()).collect(),
            }
        })
        .collect();
    let file = FileForm { format: FORMAT.into(), version: VERSION, target: target.clone(), root: 0, nodes };
    // Serializing plain data to a string cannot fail.
    serde_json::to_string_pretty(&file).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(nodes: &str) -> String {
        format!(r#"{{"format":"axsnap-tree","version":1,"root":0,"nodes":[{nodes}]}}"#)
    }

    #[test]
    fn rejects_cycles_and_shared_children() {
        let f = file(
            r#"{"id":0,"role":"generic","native":{"scope":"d","id":"0"},"children":[1]},
               {"id":1,"role":"generic","native":{"scope":"d","id":"1"},"children":[0]}"#,
        );
        assert!(matches!(
            read_tree(f.as_bytes(), &ReadLimits::default()),
            Err(TreeError::SharedChild { .. })
        ));
        let f = file(
            r#"{"id":0,"role":"generic","native":{"scope":"d","id":"0"},"children":[1,2]},
               {"id":1,"role":"generic","native":{"scope":"d","id":"1"},"children":[2]},
               {"id":2,"role":"generic","native":{"scope":"d","id":"2"}}"#,
        );
        assert!(matches!(
            read_tree(f.as_bytes(), &ReadLimits::default()),
            Err(TreeError::SharedChild { .. })
        ));
    }

    #[test]
    fn rejects_duplicates_missing_and_bad_utf8() {
        let f = file(
            r#"{"id":0,"role":"generic","native":{"scope":"d","id":"0"},"children":[1]},
               {"id":1,"role":"generic","native":{"scope":"d","id":"0"}}"#,
        );
        assert!(matches!(
            read_tree(f.as_bytes(), &ReadLimits::default()),
            Err(TreeError::DuplicateNative { .. })
        ));
        let f = file(r#"{"id":0,"role":"generic","native":{"scope":"d","id":"0"},"children":[5]}"#);
        assert!(matches!(
            read_tree(f.as_bytes(), &ReadLimits::default()),
            Err(TreeError::MissingNode { .. })
        ));
        let mut bytes =
            file(r#"{"id":0,"role":"generic","name":"XX","native":{"scope":"d","id":"0"}}"#).into_bytes();
        let at = bytes.iter().position(|b| *b == b'X').unwrap();
        bytes[at] = 0xff;
        assert!(matches!(read_tree(&bytes, &ReadLimits::default()), Err(TreeError::Utf8 { .. })));
    }

    #[test]
    fn deep_nesting_reads_iteratively() {
        let depth = 100_000;
        let mut s = String::new();
        for i in 0..depth {
            if i > 0 {
                s.push(',');
            }
            let kids = if i + 1 < depth { format!(r#","children":[{}]"#, i + 1) } else { String::new() };
            s.push_str(&format!(
                r#"{{"id":{i},"role":"generic","native":{{"scope":"d","id":"{i}"}}{kids}}}"#
            ));
        }
        let rec = read_tree(file(&s).as_bytes(), &ReadLimits::default()).unwrap();
        assert_eq!(rec.tree.preorder().map(|(_, d)| d).max(), Some(depth - 1));
    }
}
