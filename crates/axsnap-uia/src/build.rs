//! From [`Elements`] to the core's raw [`Tree`]: each element mapped ([`crate::mapping`]),
//! its native id made from its RuntimeId, its secrets redacted before the tree leaves here.
//!
//! Native ids (ARCHITECTURE.md, "Native identity"): the scope is `uia:<process id>` (a
//! restarted app gets a new process and new runtime ids together), the id the RuntimeId in
//! hex, dot-separated (`2a.1009e`), as unique on the desktop as UIA makes it while the
//! element lives. An element with no RuntimeId, or one a recording repeats, gets
//! `at:<position>` (its place in document order), which still names one node.

use std::collections::HashSet;

use axsnap_core::secret::{redact, REDACTED};
use axsnap_core::{NativeId, Node, NodeId, RawFlags, Role, Tree};

use crate::element::{Element, Elements};
use crate::mapping;

/// A raw tree built from elements, secrets redacted.
#[derive(Clone, Debug)]
pub struct Built {
    /// The tree.
    pub tree: Tree,
    /// The texts read from secrets (a password field's value): a capture passes them on
    /// ([`axsnap_core::backend::Capture::with_secret_texts`]) so that nothing else shows them.
    pub secret_texts: Vec<String>,
}

/// Builds the core's raw tree of `elements` (none when there are no elements).
pub fn build(elements: &Elements) -> Built {
    build_at(elements, 0)
}

/// Builds the core's raw tree of the subtree of element `start` (a window inside the desktop
/// a recording was saved from).
pub fn build_at(elements: &Elements, start: usize) -> Built {
    let mut tree = Tree::with_capacity(elements.len());
    let mut secret_texts = Vec::new();
    let mut seen = HashSet::with_capacity(elements.len());
    // (element, its parent's node, the process id it inherits)
    let mut stack: Vec<(usize, Option<NodeId>, Option<u32>)> = vec![(start, None, None)];
    while let Some((i, parent, inherited_pid)) = stack.pop() {
        let Some(e) = elements.nodes.get(i) else { continue };
        let pid = e.process_id.or(inherited_pid);
        let mut node = node_of(e, &mut secret_texts);
        node.native = native_id(e, pid, i, &mut seen);
        let id = match parent {
            Some(p) => tree.append(p, node),
            None => {
                let id = tree.push(node);
                tree.set_root(id);
                id
            }
        };
        for &c in elements.children.get(i).map(Vec::as_slice).unwrap_or_default().iter().rev() {
            stack.push((c, Some(id), pid));
        }
    }
    value_from_selection(&mut tree);
    if !secret_texts.is_empty() || axsnap_core::secret::needs_redaction(&tree) {
        redact(&mut tree, &secret_texts);
    }
    Built { tree, secret_texts }
}

/// The node of one element (its native id is the caller's). A secret's value is never copied:
/// it becomes [`REDACTED`] here (empty stays empty) and its text goes to `secrets`.
fn node_of(e: &Element, secrets: &mut Vec<String>) -> Node {
    let role = mapping::role(e);
    let actions = mapping::actions(e, &role);
    let states = mapping::states(e, &role, actions);
    let p = &e.patterns;
    let mut node = Node { role: role.clone(), name: e.name.clone(), actions, states, ..Node::default() };
    let mut value = p
        .value
        .as_ref()
        .map(|v| v.value.clone())
        .or_else(|| p.range_value.map(|r| mapping::range_text(r.value)));
    if mapping::is_secret(e) {
        let legacy = p.legacy.as_ref().map(|l| l.value.as_str());
        for text in [value.as_deref(), legacy].into_iter().flatten() {
            if !text.is_empty() {
                secrets.push(text.to_string());
            }
        }
        value = value.map(|v| if v.is_empty() { v } else { REDACTED.to_string() });
    }
    match role {
        // A hyperlink's Value is where it goes.
        Role::Link => node.url = value.filter(|v| !v.is_empty()),
        // A title bar's Value is its window's title: its name when it has none.
        Role::Banner if node.name.trim().is_empty() => node.name = value.unwrap_or_default(),
        Role::Banner => {}
        // A value that only repeats the name says nothing more (a text's Value of its own
        // words, a button's of its caption); a field keeps even an empty one.
        _ => node.value = value.filter(|v| mapping::is_text_input(&role) || (!v.is_empty() && *v != e.name)),
    }
    let help = e.help_text.trim();
    let status = e.item_status.trim();
    node.description =
        [help, status].into_iter().find(|d| !d.is_empty() && *d != e.name.trim()).map(str::to_string);
    node.level = e.heading_level;
    node.bounds = e.bounds;
    node.dev_id = Some(e.automation_id.clone()).filter(|a| !a.trim().is_empty());
    node.flags = RawFlags {
        // Outside the control view and nameless: the provider's plumbing (its children stay).
        ignored: !e.control_element && e.name.trim().is_empty(),
        // Each Text element is a label of its own, laid out apart: two of them side by side
        // are two texts, never one run joined without a space ("Current Animals:Weight:").
        block: role == Role::Text,
        ..RawFlags::default()
    };
    node
}

fn native_id(e: &Element, pid: Option<u32>, position: usize, seen: &mut HashSet<String>) -> NativeId {
    let scope = match pid {
        Some(pid) => format!("uia:{pid}"),
        None => "uia".to_string(),
    };
    let runtime = e.runtime_id.iter().map(|n| format!("{n:x}")).collect::<Vec<_>>().join(".");
    let id = if runtime.is_empty() || !seen.insert(format!("{scope} {runtime}")) {
        format!("at:{position}")
    } else {
        runtime
    };
    NativeId::new(scope, id)
}

/// A combo box with no Value pattern (WPF's, when it is not editable) shows the option that
/// is selected in it: that is its value.
fn value_from_selection(tree: &mut Tree) {
    let boxes: Vec<NodeId> = tree
        .preorder()
        .filter(|(id, _)| {
            let n = tree.node(*id);
            n.role == Role::ComboBox && n.value.is_none()
        })
        .map(|(id, _)| id)
        .collect();
    for b in boxes {
        let chosen = tree.subtree(b).into_iter().map(|d| tree.node(d)).find(|n| {
            n.role == Role::Option && n.states.contains(axsnap_core::State::Selected) && !n.name.is_empty()
        });
        if let Some(name) = chosen.map(|n| n.name.clone()) {
            tree.node_mut(b).value = Some(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::{Patterns, ValueState};
    use crate::ids::control;

    fn el(ct: i32, name: &str, rid: &[i64]) -> Element {
        Element { control_type: Some(ct), name: name.into(), runtime_id: rid.to_vec(), ..Element::default() }
    }

    #[test]
    fn native_ids_from_runtime_ids_unique_even_when_repeated() {
        let mut t = Elements::default();
        let root = t.push(None, Element { process_id: Some(7064), ..el(control::PANE, "", &[42, 65694]) });
        t.push(Some(root), el(control::BUTTON, "A", &[42, 10]));
        t.push(Some(root), el(control::BUTTON, "B", &[42, 10]));
        t.push(Some(root), el(control::BUTTON, "C", &[]));
        let b = build(&t).tree;
        let ids: Vec<(String, String)> =
            b.preorder().map(|(n, _)| b.node(n).native.clone()).map(|n| (n.scope, n.id)).collect();
        let want =
            [("uia:7064", "2a.1009e"), ("uia:7064", "2a.a"), ("uia:7064", "at:2"), ("uia:7064", "at:3")];
        assert_eq!(ids, want.map(|(s, i)| (s.to_string(), i.to_string())));
    }

    #[test]
    fn a_password_value_never_leaves() {
        let mut t = Elements::default();
        let root = t.push(None, el(control::WINDOW, "Sign in", &[1]));
        let field = Element {
            password: true,
            patterns: Patterns {
                value: Some(ValueState { value: "hunter2secret".into(), read_only: false }),
                ..Patterns::default()
            },
            ..el(control::EDIT, "Password", &[2])
        };
        t.push(Some(root), field);
        // A label elsewhere that happens to show the secret.
        t.push(Some(root), el(control::TEXT, "typed: hunter2secret", &[3]));
        let built = build(&t);
        let all: String = built.tree.preorder().map(|(n, _)| format!("{:?}", built.tree.node(n))).collect();
        assert!(!all.contains("hunter2secret"), "{all}");
        assert_eq!(built.secret_texts, ["hunter2secret"]);
    }

    #[test]
    fn values_links_and_title_bars() {
        let mut t = Elements::default();
        let value = |v: &str| Patterns {
            value: Some(ValueState { value: v.into(), read_only: true }),
            ..Patterns::default()
        };
        let root = t.push(None, el(control::WINDOW, "W", &[1]));
        t.push(Some(root), Element { patterns: value("W"), ..el(control::TITLE_BAR, "", &[2]) });
        t.push(
            Some(root),
            Element { patterns: value("https://example.com/"), ..el(control::HYPERLINK, "Home", &[3]) },
        );
        t.push(Some(root), Element { patterns: value("Same"), ..el(control::TEXT, "Same", &[4]) });
        t.push(Some(root), Element { patterns: value(""), ..el(control::EDIT, "Empty", &[5]) });
        let b = build(&t).tree;
        let nodes: Vec<&Node> = b.preorder().map(|(n, _)| b.node(n)).collect();
        assert_eq!((nodes[1].name.as_str(), nodes[1].value.as_deref()), ("W", None));
        assert_eq!(nodes[2].url.as_deref(), Some("https://example.com/"));
        assert_eq!(nodes[3].value, None);
        assert_eq!(nodes[4].value.as_deref(), Some(""));
    }
}
