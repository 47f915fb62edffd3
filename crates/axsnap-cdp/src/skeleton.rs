//! The skeleton: a first answer for a page too large to capture within the deadline.
//!
//! On a page of [`BIG_PAGE_ELEMENTS`](crate::capture::BIG_PAGE_ELEMENTS) elements or more the
//! DOM snapshot (the fallback when the accessibility tree is out of reach) takes seconds, more
//! on a busy machine, and a capture that gets neither would show nothing below the page root.
//! Before the snapshot is asked for, one bounded walk in the page (`js/skeleton.js`, in the
//! `axsnap` world) picks what a first answer needs: the landmarks and headings, the controls
//! and text blocks in the viewport, and as many others as its bounds allow. Their backend node
//! ids are read from the elements themselves (`DOM.describeNode`), so the skeleton's nodes
//! carry the native ids a full capture gives the same elements, and their refs survive the
//! next, fuller capture. The assembler builds the page from the skeleton only when the
//! snapshot missed the deadline; the capture then says it is partial, and what it holds.
//!
//! The walk runs before the snapshot because the renderer runs a session's calls one after
//! another: queued behind the snapshot, it would arrive no sooner.

use std::time::Duration;

use axsnap_core::{Action, NativeId, Node, NodeId, Rect, Role, State, StateSet, Tree};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::ax::{actions_for, map_role, ActionFacts};
use crate::conn::RawCdp;
use crate::dom_tree;

/// The walk's source: a function expression, called with the bounds below.
const SKELETON_JS: &str = include_str!("js/skeleton.js");
/// Most elements the walk picks.
const MAX_NODES: usize = 3_000;
/// Most time the walk spends in the page, in milliseconds.
const MAX_MS: u64 = 1_500;
/// The object group the walk's array lives in, released once read.
const GROUP: &str = "axsnap-skeleton";

/// What the walk found.
#[derive(Debug, Default)]
pub(crate) struct Skeleton {
    /// The chosen elements, in document order.
    pub rows: Vec<Row>,
    /// Each row's backend node id, where the page still had the element when it was asked.
    pub backend: Vec<Option<i64>>,
    /// Texts masked as a password's: redacted wherever else they show.
    pub secrets: Vec<String>,
    /// The walk saw the whole page (no bound stopped it).
    pub complete: bool,
    /// Elements the walk saw.
    pub seen: u64,
    /// Elements outside the viewport left out for the bounds.
    pub dropped: u64,
    /// The document's title.
    pub title: String,
}

/// One chosen element, as the walk describes it.
#[derive(Debug, Deserialize)]
pub(crate) struct Row(
    /// Row of the nearest chosen ancestor, or -1.
    i64,
    /// Tag name (upper case).
    String,
    /// ARIA role attribute (its first token, lower case), or empty.
    String,
    /// An input's type (lower case), else empty.
    String,
    /// Name (or a text block's text), bounded.
    String,
    /// Heading level, or 0.
    u32,
    /// Flags: 1 href, 2 disabled, 4 checked, 8 expanded, 16 collapsed, 32 chosen as a control
    /// (focusable, or a widget by its tag or role).
    u32,
    f64,
    f64,
    f64,
    f64,
);

#[derive(Deserialize)]
struct Meta {
    rows: Vec<Row>,
    #[serde(default)]
    secrets: Vec<String>,
    #[serde(default)]
    complete: bool,
    #[serde(default)]
    seen: u64,
    #[serde(default)]
    dropped: u64,
    #[serde(default)]
    title: String,
}

/// Walks the page in execution context `context` of `session`, within `timeout` per call;
/// `None` when the page did not answer (the capture goes on without a skeleton).
pub(crate) async fn read(
    raw: &RawCdp,
    session: Option<&str>,
    context: i64,
    timeout: Duration,
) -> Option<Skeleton> {
    let expression = format!("({SKELETON_JS})({MAX_NODES}, {MAX_MS})");
    let array = raw
        .send(
            session,
            "Runtime.evaluate",
            json!({"expression": expression, "contextId": context, "objectGroup": GROUP, "returnByValue": false}),
            timeout,
        )
        .await
        .ok()?;
    let object = array.pointer("/result/objectId").and_then(Value::as_str).map(str::to_string);
    let skeleton = match object {
        Some(object) => elements(raw, session, &object, timeout).await,
        None => None,
    };
    // Whatever happened, the page keeps no reference to the elements.
    let release = raw.send(session, "Runtime.releaseObjectGroup", json!({"objectGroup": GROUP}), timeout);
    tokio::spawn(release);
    skeleton
}

/// Reads the walk's rows and each element's backend node id from the array `object`.
async fn elements(raw: &RawCdp, session: Option<&str>, object: &str, timeout: Duration) -> Option<Skeleton> {
    let props = raw
        .send(session, "Runtime.getProperties", json!({"objectId": object, "ownProperties": true}), timeout)
        .await
        .ok()?;
    let list = props.get("result").and_then(Value::as_array)?;
    let meta: Meta = list
        .iter()
        .find(|p| p.get("name").and_then(Value::as_str) == Some("meta"))
        .and_then(|p| p.pointer("/value/value"))
        .and_then(Value::as_str)
        .and_then(|s| serde_json::from_str(s).ok())?;
    let mut objects: Vec<Option<String>> = vec![None; meta.rows.len()];
    for p in list {
        let index = p.get("name").and_then(Value::as_str).and_then(|n| n.parse::<usize>().ok());
        let id = p.pointer("/value/objectId").and_then(Value::as_str);
        if let (Some(i), Some(id)) = (index, id) {
            if let Some(slot) = objects.get_mut(i) {
                *slot = Some(id.to_string());
            }
        }
    }
    let calls = objects.iter().map(|o| {
        let call =
            o.as_ref().map(|id| raw.send(session, "DOM.describeNode", json!({"objectId": id}), timeout));
        async move {
            match call {
                Some(c) => {
                    c.await.ok().and_then(|v| v.pointer("/node/backendNodeId").and_then(Value::as_i64))
                }
                None => None,
            }
        }
    });
    let backend = futures::future::join_all(calls).await;
    Some(Skeleton {
        rows: meta.rows,
        backend,
        secrets: meta.secrets,
        complete: meta.complete,
        seen: meta.seen,
        dropped: meta.dropped,
        title: meta.title,
    })
}

/// Builds the page under a document node named `title` (the tree's root when `parent` is
/// `None`); native ids in `scope`, like the DOM tree's. Returns the document node and the
/// nodes added. `viewport` marks what lies outside it offscreen.
pub(crate) fn build(
    tree: &mut Tree,
    parent: Option<NodeId>,
    sk: &Skeleton,
    scope: &str,
    title: &str,
    viewport: Option<(f64, f64)>,
) -> (NodeId, usize) {
    let doc = Node::new(Role::Document, title, NativeId::new(scope, "root"));
    let root = match parent {
        Some(p) => tree.append(p, doc),
        None => {
            let r = tree.push(doc);
            tree.set_root(r);
            r
        }
    };
    let mut added = 0;
    // Tree node of each row; a row without a backend id is left out and its rows go under its
    // nearest kept ancestor.
    let mut at: Vec<NodeId> = Vec::with_capacity(sk.rows.len());
    for (i, row) in sk.rows.iter().enumerate() {
        let up = usize::try_from(row.0).ok().and_then(|p| at.get(p).copied()).unwrap_or(root);
        let Some(Some(backend)) = sk.backend.get(i) else {
            at.push(up);
            continue;
        };
        let (node, text) = node_of(row, NativeId::new(scope, backend.to_string()), viewport);
        let id = tree.append(up, node);
        added += 1;
        if let Some(text) = text {
            tree.append(id, Node::new(Role::Text, text, NativeId::new(scope, format!("{backend}:text"))));
            added += 1;
        }
        at.push(id);
    }
    (root, added)
}

/// The node of one row, and the text to show under it (a text block's).
fn node_of(row: &Row, native: NativeId, viewport: Option<(f64, f64)>) -> (Node, Option<String>) {
    let Row(_, tag, role_attr, input_type, name, level, flags, x, y, w, h) = row;
    let role = if role_attr.is_empty() {
        map_role(dom_tree::tag_role(tag, input_type, flags & 1 != 0))
    } else {
        map_role(role_attr)
    };
    let mut states = StateSet::default();
    let mut facts = ActionFacts::default();
    states.set(State::Disabled, flags & 2 != 0);
    if flags & 4 != 0 || matches!(role, Role::CheckBox | Role::Radio | Role::Switch) {
        facts.checkable = true;
        states.set(State::Checked, flags & 4 != 0);
    }
    if flags & 24 != 0 {
        facts.expandable = true;
        states.set(if flags & 8 != 0 { State::Expanded } else { State::Collapsed }, true);
    }
    let editable = matches!(role, Role::TextBox | Role::SearchBox | Role::ComboBox) && tag != "SELECT";
    states.set(State::Editable, editable);
    let control = flags & 32 != 0;
    let enabled = flags & 2 == 0;
    states.set(State::Focusable, control && enabled);
    let bounds = Rect { x: *x, y: *y, w: *w, h: *h };
    if let Some((vw, vh)) = viewport {
        if bounds.x + bounds.w <= 0.0 || bounds.y + bounds.h <= 0.0 || bounds.x >= vw || bounds.y >= vh {
            states.set(State::Offscreen, true);
        }
    }
    // A text block's text shows as its content, as a full capture shows it.
    let text_block = matches!(role, Role::Paragraph | Role::ListItem | Role::Cell | Role::Blockquote)
        || matches!(tag.as_str(), "PRE" | "FIGCAPTION" | "LABEL" | "CAPTION" | "LEGEND");
    let (name, text) = if text_block && !name.is_empty() {
        (String::new(), Some(name.clone()))
    } else {
        (name.clone(), None)
    };
    let mut node = Node::new(role, name, native);
    node.level = (*level > 0).then_some(*level);
    node.bounds = Some(bounds);
    node.actions = actions_for(&node.role, states, facts);
    // Every enabled control takes a click (a text field's focuses it), as the DOM snapshot
    // says of them in a full capture.
    if control && enabled {
        node.actions.set(Action::Click, true);
    }
    node.states = states;
    (node, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(up: i64, tag: &str, role: &str, name: &str, level: u32, flags: u32, y: f64) -> Row {
        Row(up, tag.into(), role.into(), String::new(), name.into(), level, flags, 0.0, y, 100.0, 20.0)
    }

    #[test]
    fn rows_become_a_tree_with_the_native_ids_of_a_full_capture() {
        let sk = Skeleton {
            rows: vec![
                row(-1, "H1", "", "Title", 1, 0, 10.0),
                row(-1, "NAV", "", "", 0, 0, 40.0),
                row(1, "A", "", "Home", 0, 33, 40.0),
                row(1, "DIV", "button", "Gone", 0, 32, 40.0),
                row(3, "BUTTON", "", "Inside gone", 0, 34, 40.0),
                row(-1, "P", "", "Some text", 0, 0, 2000.0),
            ],
            backend: vec![Some(5), Some(6), Some(7), None, Some(9), Some(10)],
            complete: true,
            ..Skeleton::default()
        };
        let mut tree = Tree::new();
        let (root, added) = build(&mut tree, None, &sk, "F:L", "Big", Some((1280.0, 720.0)));
        assert_eq!(tree.root(), Some(root));
        assert_eq!(added, 6, "five rows with ids and the paragraph's text");
        let kids: Vec<&Node> = tree.node(root).children.iter().map(|&c| tree.node(c)).collect();
        assert_eq!(kids.len(), 3);
        assert_eq!(
            (kids[0].role.clone(), kids[0].level, kids[0].name.as_str()),
            (Role::Heading, Some(1), "Title")
        );
        assert_eq!(kids[0].native, NativeId::new("F:L", "5"));
        let nav = tree.node(root).children[1];
        let in_nav: Vec<&Node> = tree.node(nav).children.iter().map(|&c| tree.node(c)).collect();
        // The row without a backend id is left out; its button goes under the nav.
        assert_eq!(in_nav.len(), 2);
        assert_eq!(in_nav[0].role, Role::Link);
        assert!(in_nav[0].actions.contains(Action::Click));
        assert_eq!(in_nav[1].name, "Inside gone");
        assert!(in_nav[1].states.contains(State::Disabled));
        assert!(!in_nav[1].states.contains(State::Focusable), "a disabled button is not focusable");
        // A paragraph below the viewport: offscreen, its text as its content.
        assert_eq!(kids[2].role, Role::Paragraph);
        assert!(kids[2].states.contains(State::Offscreen));
        let text = &tree.node(tree.node(root).children[2]).children;
        assert_eq!(tree.node(text[0]).name, "Some text");
    }
}
