//! The JSON forms. A snapshot's nested nodes are written iteratively (serde's derived
//! serializers recurse once per level, and a tree can be 100,000 levels deep); a diff is
//! serde's own form, which is flat.

use serde::Serialize;

use crate::diff::Diff;
use crate::refs::Ref;
use crate::role::Role;
use crate::snapshot::Snapshot;
use crate::state::{ActionSet, StateSet};
use crate::tree::{NativeId, Node, NodeId, Rect, Tree};

/// A node's own fields in the snapshot JSON, `ref` first.
#[derive(Serialize)]
struct Fields<'a> {
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
    bounds: Option<Rect>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dev_id: Option<&'a str>,
    native: &'a NativeId,
}

impl<'a> Fields<'a> {
    fn of(n: &'a Node) -> Fields<'a> {
        Fields {
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
            bounds: n.bounds,
            dev_id: n.dev_id.as_deref(),
            native: &n.native,
        }
    }
}

/// Serializes plain data; it has no maps with non-string keys and no failing impls, so this
/// cannot fail, but a failure would give `null`, never a panic.
fn to_json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_string())
}

/// An object's JSON without its closing brace, so more members can follow.
fn open_object(json: &str) -> &str {
    json.strip_suffix('}').unwrap_or(json)
}

enum Step<'a, I> {
    Enter(I, bool),
    Close(&'a str),
}

/// Writes a tree of nested objects iteratively. `head(id)` is a node's JSON object without
/// children; children go in `"children":[...]` when there are any.
fn write_nested<'a, I: Copy>(
    out: &mut String,
    root: I,
    head: impl Fn(I) -> String,
    children: impl Fn(I) -> Vec<I>,
    close: &'a str,
) {
    let mut stack: Vec<Step<'a, I>> = vec![Step::Enter(root, true)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Close(s) => out.push_str(s),
            Step::Enter(id, first) => {
                if !first {
                    out.push(',');
                }
                let h = head(id);
                let kids = children(id);
                if kids.is_empty() {
                    out.push_str(&h);
                    continue;
                }
                out.push_str(open_object(&h));
                out.push_str(",\"children\":[");
                stack.push(Step::Close(close));
                for (i, k) in kids.into_iter().enumerate().rev() {
                    stack.push(Step::Enter(k, i == 0));
                }
            }
        }
    }
}

/// `{"target","seq","header","stats","tree"}`.
pub(super) fn snapshot(snap: &Snapshot) -> String {
    let tree: &Tree = &snap.tree;
    let mut out = String::new();
    out.push_str("{\"target\":");
    out.push_str(&to_json(&snap.target));
    out.push_str(",\"seq\":");
    out.push_str(&snap.seq.to_string());
    out.push_str(",\"header\":");
    out.push_str(&to_json(&snap.header));
    out.push_str(",\"stats\":");
    out.push_str(&to_json(&snap.stats));
    out.push_str(",\"tree\":");
    match tree.root() {
        Some(r) => write_nested(
            &mut out,
            r,
            |id: NodeId| to_json(&Fields::of(tree.node(id))),
            |id: NodeId| tree.node(id).children.clone(),
            "]}",
        ),
        None => out.push_str("null"),
    }
    out.push('}');
    out
}

/// The serde form of [`Diff`]. Its subtrees are flat, so serde does not recurse on depth.
pub(super) fn diff(diff: &Diff) -> String {
    to_json(diff)
}
