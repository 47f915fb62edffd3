//! Focus targets that Chromium's accessibility tree leaves out, put back from the DOM snapshot.
//!
//! Seen on Chromium 156 with Lumino menus (JupyterLab, Notebook 7): a menu is a
//! `ul role="menu"`; its command items are `li role="menuitem"`, but its submenu openers
//! ("New", "Open Recent") are `li tabindex="0" aria-haspopup="true"` with no role. Chromium
//! drops such an `li` from the tree entirely when it is laid out as a table row (Lumino's
//! menus are CSS tables), hoisting its icon, label and shortcut `div`s into the menu, and marks
//! it ignored otherwise. Either way the agent sees the label as loose text with no ref, and
//! cannot open the submenu.
//!
//! An element a user can tab to (`tabindex` ≥ 0) or that says it opens a popup
//! (`aria-haspopup`), rendered, with no `role` of its own and some text inside, is a target.
//! [`restore`] makes every such element that the tree dropped or ignored a node again: a
//! `menuitem` named by its text when it sits in a menu (what the page meant), else a focusable
//! `generic`, with the actions its popup implies. A dropped element gets its node where its
//! first hoisted child was, and takes back the children that are its DOM descendants. The
//! node's native id is the element's backend node id, as a full capture gives it, so acting
//! on its ref reaches the element.

use std::collections::HashMap;

use axsnap_core::{Action, Node, Role, State};

use crate::ax::{actions_for, ActionFacts, AxDoc};
use crate::layout::SnapIndex;

/// How many nodes a name is read from, at most (a target is a menu item, not a page).
const NAME_NODES: usize = 256;
/// How far up the DOM a hoisted child is followed to find the target it came from.
const MAX_DOM_HOPS: usize = 512;

/// An element of the snapshot that a user can reach.
struct Target {
    backend: i64,
    has_popup: bool,
}

/// Puts back into `doc` the targets of snapshot document `d` that it dropped or ignored;
/// returns how many.
pub(crate) fn restore(doc: &mut AxDoc, snap: &SnapIndex, d: usize) -> usize {
    let found = targets(snap, d);
    if found.is_empty() {
        return 0;
    }
    let mut at: HashMap<i64, usize> =
        doc.backend.iter().enumerate().filter_map(|(i, b)| b.map(|b| (b, i))).collect();
    let mut kids: HashMap<usize, Vec<u32>> = HashMap::new();
    let mut restored = 0;
    for t in found {
        let done = match at.get(&t.backend) {
            Some(&i) => promote(doc, &kids, snap, &at, i, &t),
            None => wrap(doc, &mut kids, snap, &mut at, &t),
        };
        restored += usize::from(done);
    }
    if !kids.is_empty() {
        relink(doc, &kids);
    }
    restored
}

/// The targets of document `d`, in document order (an element before its descendants).
fn targets(snap: &SnapIndex, d: usize) -> Vec<Target> {
    let (tab, popup) = (snap.find_string("tabindex"), snap.find_string("aria-haspopup"));
    let Some(doc) = snap.doc(d) else { return Vec::new() };
    if tab.is_none() && popup.is_none() {
        return Vec::new();
    }
    let role = snap.find_string("role");
    let mut out = Vec::new();
    for (n, attrs) in doc.nodes.attributes.iter().enumerate() {
        let (mut reachable, mut has_popup, mut has_role) = (false, false, false);
        for p in attrs.chunks_exact(2) {
            let value = || snap.string(p[1]).unwrap_or("").trim();
            if Some(p[0]) == tab {
                reachable = value().parse::<i64>().is_ok_and(|v| v >= 0);
            } else if Some(p[0]) == popup {
                has_popup = !matches!(value(), "" | "false");
            } else if Some(p[0]) == role {
                has_role = true;
            }
        }
        let Some(&backend) = doc.nodes.backend_node_id.get(n) else { continue };
        if (reachable || has_popup) && !has_role && snap.layout_index(d, n).is_some() {
            out.push(Target { backend, has_popup });
        }
    }
    out
}

/// Makes the ignored node `i` the target it stands for, when it is one.
fn promote(
    doc: &mut AxDoc,
    kids: &HashMap<usize, Vec<u32>>,
    snap: &SnapIndex,
    at: &HashMap<i64, usize>,
    i: usize,
    t: &Target,
) -> bool {
    let Some(node) = doc.nodes.get(i) else { return false };
    if !node.flags.ignored || node.flags.hidden || !matches!(node.role, Role::None | Role::Generic) {
        return false;
    }
    let inside = children_of(doc, kids, i).to_vec();
    let name = text_of(doc, kids, snap, &inside);
    if name.is_empty() {
        return false;
    }
    let role = role_in(doc, snap, at, t.backend);
    let Some(node) = doc.nodes.get_mut(i) else { return false };
    node.flags.ignored = false;
    fill(node, role, name, t);
    true
}

/// Puts the dropped target `t` back under its nearest ancestor in the tree, over the children
/// of that ancestor that are its DOM descendants.
fn wrap(
    doc: &mut AxDoc,
    kids: &mut HashMap<usize, Vec<u32>>,
    snap: &SnapIndex,
    at: &mut HashMap<i64, usize>,
    t: &Target,
) -> bool {
    let Some((parent, parent_backend)) = ancestor_in(snap, at, t.backend) else { return false };
    let list = children_of(doc, kids, parent).to_vec();
    let mine: Vec<u32> = list
        .iter()
        .copied()
        .filter(|&c| {
            doc.backend
                .get(c as usize)
                .copied()
                .flatten()
                .is_some_and(|b| descends_from(snap, b, t.backend, parent_backend))
        })
        .collect();
    let name = text_of(doc, kids, snap, &mine);
    if mine.is_empty() || name.is_empty() {
        return false;
    }
    let role = role_in(doc, snap, at, t.backend);
    let mut node = Node::default();
    fill(&mut node, role, name, t);
    let k = doc.nodes.len();
    doc.nodes.push(node);
    doc.backend.push(Some(t.backend));
    doc.native_id.push(t.backend.to_string());
    let mut placed = false;
    let rest: Vec<u32> = list
        .into_iter()
        .filter_map(|c| match mine.contains(&c) {
            false => Some(c),
            true if !placed => {
                placed = true;
                Some(k as u32)
            }
            true => None,
        })
        .collect();
    kids.insert(parent, rest);
    kids.insert(k, mine);
    at.insert(t.backend, k);
    true
}

/// Role, name, states and actions of a restored target.
fn fill(node: &mut Node, role: Role, name: String, t: &Target) {
    let mut states = node.states;
    states.set(State::Focusable, true);
    let facts = ActionFacts { has_popup: t.has_popup, ..ActionFacts::default() };
    let mut actions = actions_for(&role, states, facts);
    actions.set(Action::Focus, true);
    node.states = states;
    node.actions = actions;
    // A generic shows its text as children; a menu item is named by it, as its siblings are.
    if role == Role::MenuItem {
        node.name = name;
    }
    node.role = role;
}

/// `menuitem` inside a menu (the only thing a menu holds), `generic` elsewhere.
fn role_in(doc: &AxDoc, snap: &SnapIndex, at: &HashMap<i64, usize>, backend: i64) -> Role {
    let mut b = backend;
    for _ in 0..MAX_DOM_HOPS {
        let Some(up) = snap.parent_of(b) else { break };
        if let Some(node) = at.get(&up).and_then(|&i| doc.nodes.get(i)).filter(|n| !n.flags.ignored) {
            return match node.role {
                Role::Menu | Role::MenuBar => Role::MenuItem,
                _ => Role::Generic,
            };
        }
        b = up;
    }
    Role::Generic
}

/// The nearest DOM ancestor of `backend` that is in the tree: its index and backend id.
fn ancestor_in(snap: &SnapIndex, at: &HashMap<i64, usize>, backend: i64) -> Option<(usize, i64)> {
    let mut b = backend;
    for _ in 0..MAX_DOM_HOPS {
        b = snap.parent_of(b)?;
        if let Some(&i) = at.get(&b) {
            return Some((i, b));
        }
    }
    None
}

/// Whether DOM node `b` is inside `target`, looking up no further than `stop`.
fn descends_from(snap: &SnapIndex, mut b: i64, target: i64, stop: i64) -> bool {
    for _ in 0..MAX_DOM_HOPS {
        match snap.parent_of(b) {
            Some(up) if up == target => return true,
            Some(up) if up != stop => b = up,
            _ => return false,
        }
    }
    false
}

/// The children of `i`, as rewritten so far.
fn children_of<'a>(doc: &'a AxDoc, kids: &'a HashMap<usize, Vec<u32>>, i: usize) -> &'a [u32] {
    kids.get(&i).map_or_else(|| doc.children(i), Vec::as_slice)
}

/// The text inside the subtrees of `roots`, pieces joined by a space (as Chromium names a menu
/// item from its label and shortcut cells); list markers left out.
fn text_of(doc: &AxDoc, kids: &HashMap<usize, Vec<u32>>, snap: &SnapIndex, roots: &[u32]) -> String {
    let mut out = String::new();
    let mut stack: Vec<u32> = roots.iter().rev().copied().collect();
    let mut seen = 0;
    while let Some(c) = stack.pop() {
        let c = c as usize;
        seen += 1;
        let Some(node) = doc.nodes.get(c).filter(|_| seen <= NAME_NODES) else { break };
        if node.flags.hidden || doc.backend.get(c).copied().flatten().is_some_and(|b| snap.is_marker(b)) {
            continue;
        }
        if node.role == Role::Text {
            for word in node.name.split_whitespace() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(word);
            }
            continue;
        }
        stack.extend(children_of(doc, kids, c).iter().rev());
    }
    out
}

/// Rebuilds `doc`'s child lists with the rewritten ones.
fn relink(doc: &mut AxDoc, kids: &HashMap<usize, Vec<u32>>) {
    let n = doc.nodes.len();
    let mut start = Vec::with_capacity(n + 1);
    let mut list = Vec::with_capacity(doc.child_list.len() + kids.len());
    for i in 0..n {
        start.push(list.len() as u32);
        list.extend_from_slice(children_of(doc, kids, i));
    }
    start.push(list.len() as u32);
    doc.child_start = start;
    doc.child_list = list;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ax::parse_doc;
    use serde_json::{json, Value};

    /// document > [ul role=menu > [li tabindex=0 aria-haspopup > div > "New",
    /// li tabindex=0 role=presentation > div, li tabindex=0 > div (no text)],
    /// div > [span tabindex=0 > "Go"]]. Backend id = index + 1.
    fn snapshot() -> SnapIndex {
        let strings = [
            "#document",
            "UL",
            "LI",
            "DIV",
            "#text",
            "role",
            "menu",
            "tabindex",
            "0",
            "aria-haspopup",
            "true",
            "presentation",
            "SPAN",
            "New",
            "Go",
        ];
        let v = json!({
            "strings": strings,
            "documents": [{
                "frameId": 0,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3, 1, 5, 1, 7, 0, 9, 10],
                    "nodeType":    [9, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 3],
                    "nodeName":    [0, 1, 2, 3, 4, 2, 3, 2, 3, 3, 12, 4],
                    "backendNodeId": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                    "attributes": [[], [5, 6], [7, 8, 9, 10], [], [], [7, 8, 5, 11], [], [7, 8], [], [], [7, 8], []]
                },
                "layout": {
                    "nodeIndex": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                    "bounds": [[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1]],
                    "text": [-1, -1, -1, 13, -1, -1, -1, -1, -1, -1, 14]
                }
            }]
        });
        SnapIndex::parse(&v).unwrap()
    }

    fn ax(id: i64, role: &str, name: &str, kids: &[i64]) -> Value {
        let kids: Vec<String> = kids.iter().map(|k| k.to_string()).collect();
        json!({"nodeId": id.to_string(), "backendDOMNodeId": id, "role": {"value": role},
               "name": {"value": name}, "childIds": kids})
    }

    fn ignored(id: i64, kids: &[i64]) -> Value {
        let mut v = ax(id, "none", "", kids);
        v["ignored"] = json!(true);
        v
    }

    /// Role, name, backend and children's backends of a node.
    type Shape = (Role, String, Option<i64>, Vec<Option<i64>>);

    /// The [`Shape`] of each node reachable from the root, in document order.
    fn shape(doc: &AxDoc) -> Vec<Shape> {
        let mut out = Vec::new();
        let mut stack = vec![doc.root];
        while let Some(i) = stack.pop() {
            let kids = doc.children(i);
            out.push((
                doc.nodes[i].role.clone(),
                doc.nodes[i].name.clone(),
                doc.backend[i],
                kids.iter().map(|&c| doc.backend[c as usize]).collect(),
            ));
            stack.extend(kids.iter().rev().map(|&c| c as usize));
        }
        out
    }

    #[test]
    fn a_dropped_opener_comes_back_over_its_cells() {
        let snap = snapshot();
        // Chromium's tree: the opener (3) is gone and its cell (4) sits in the menu; the
        // separator (6) is gone too, its empty cell (7) in the menu; the empty target (8) is gone.
        let mut doc = parse_doc(&json!({"nodes": [
            ax(1, "RootWebArea", "", &[2, 10]),
            ax(2, "menu", "", &[4, 7, 9]),
            ax(4, "generic", "", &[5]),
            ax(5, "StaticText", "New", &[]),
            ax(7, "generic", "", &[]),
            ax(9, "generic", "", &[]),
            ax(10, "generic", "", &[11]),
            ax(11, "generic", "", &[12]),
            ax(12, "StaticText", "Go", &[]),
        ]}))
        .unwrap();
        assert_eq!(restore(&mut doc, &snap, 0), 1, "the opener only: the span is in the tree");
        let s = shape(&doc);
        let menu = s.iter().find(|n| n.0 == Role::Menu).unwrap();
        assert_eq!(menu.3, vec![Some(3), Some(7), Some(9)], "the item where its cell was");
        let item = s.iter().find(|n| n.2 == Some(3)).unwrap();
        assert_eq!((&item.0, item.1.as_str(), &item.3), (&Role::MenuItem, "New", &vec![Some(4)]));
        let i = doc.backend.iter().position(|b| *b == Some(3)).unwrap();
        let n = &doc.nodes[i];
        assert_eq!(doc.native_id[i], "3");
        assert!(n.states.contains(State::Focusable));
        for a in [Action::Click, Action::Expand, Action::Focus] {
            assert!(n.actions.contains(a), "{a:?}");
        }
    }

    #[test]
    fn an_ignored_target_is_promoted_a_generic_outside_a_menu() {
        let snap = snapshot();
        let mut doc = parse_doc(&json!({"nodes": [
            ax(1, "RootWebArea", "", &[2, 10]),
            ax(2, "menu", "", &[3]),
            ignored(3, &[4]),
            ax(4, "generic", "", &[5]),
            ax(5, "StaticText", "New", &[]),
            ax(10, "generic", "", &[11]),
            ignored(11, &[12]),
            ax(12, "StaticText", "Go", &[]),
        ]}))
        .unwrap();
        assert_eq!(restore(&mut doc, &snap, 0), 2);
        let at = |b: i64| doc.backend.iter().position(|x| *x == Some(b)).unwrap();
        let item = &doc.nodes[at(3)];
        assert_eq!((&item.role, item.name.as_str(), item.flags.ignored), (&Role::MenuItem, "New", false));
        let span = &doc.nodes[at(11)];
        // A generic shows its text as its children do; it is only focusable (no popup).
        assert_eq!((&span.role, span.name.as_str(), span.flags.ignored), (&Role::Generic, "", false));
        assert!(span.states.contains(State::Focusable) && span.actions.contains(Action::Focus));
        assert!(!span.actions.contains(Action::Click), "the DOM facts say whether it clicks");
    }

    #[test]
    fn a_tree_that_kept_its_targets_is_left_alone() {
        let snap = snapshot();
        let nodes = json!({"nodes": [
            ax(1, "RootWebArea", "", &[2, 10]),
            ax(2, "menu", "", &[3]),
            ax(3, "menuitem", "New", &[4]),
            ax(4, "generic", "", &[5]),
            ax(5, "StaticText", "New", &[]),
            ax(10, "generic", "", &[11]),
            ax(11, "generic", "", &[12]),
            ax(12, "StaticText", "Go", &[]),
        ]});
        let mut doc = parse_doc(&nodes).unwrap();
        let before = shape(&doc);
        assert_eq!(restore(&mut doc, &snap, 0), 0);
        assert_eq!(shape(&doc), before);
    }
}
