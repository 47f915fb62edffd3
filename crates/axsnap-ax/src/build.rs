//! From [`Elements`] to the core's raw [`Tree`]: each element mapped ([`crate::mapping`]),
//! named, given a native id, its secrets redacted before the tree leaves here.
//!
//! Native ids (ARCHITECTURE.md, "Native identity"): the scope is `ax:<pid>` (a restarted app
//! is a new process, and none of its elements are the old ones). AX has no id of its own for
//! an element: an `AXUIElement` is a handle that compares equal to another for the same
//! element while it lives, nothing more. A path of child indexes was the obvious id and is
//! not used: when a sibling is inserted, the path of the element after it names another
//! element, and a ref would follow it to a look-alike (DESIGN.md, "Refs"). So the id is
//! `n<serial>` when the capture gave the element a serial (from a registry of the handles it
//! has seen, never reusing one within a process), and `at:<position>` (the element's place in
//! document order) otherwise: a recording is one tree that never changes, where a position
//! names one element for good.
//!
//! Names, as VoiceOver reads them: the element's `AXTitle`; else the text of its
//! `AXTitleUIElement` (a label beside a field); else its `AXDescription` (an icon button's
//! label); else, for a field, its placeholder; a title-bar button with none of these, its
//! `AXRoleDescription` ("close button"). A static text's words are its `AXValue`, and a
//! heading's `AXValue` is its level.

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
    /// The texts read from secrets (a secure field's value): a capture passes them on
    /// ([`axsnap_core::backend::Capture::with_secret_texts`]) so that nothing else shows them.
    pub secret_texts: Vec<String>,
}

/// Builds the core's raw tree of `elements` (an empty tree when there are none).
pub fn build(elements: &Elements) -> Built {
    build_at(elements, 0)
}

/// Builds the core's raw tree of the subtree of element `start` (a window inside the app
/// element it was read under).
pub fn build_at(elements: &Elements, start: usize) -> Built {
    let mut tree = Tree::with_capacity(elements.len());
    let mut secret_texts = Vec::new();
    let mut seen = HashSet::with_capacity(elements.len());
    let mut stack = vec![Pending { element: start, parent_element: None, parent: None, pid: None }];
    while let Some(Pending { element: i, parent_element: parent_el, parent, pid: inherited_pid }) =
        stack.pop()
    {
        let Some(e) = elements.nodes.get(i) else { continue };
        let pid = e.pid.or(inherited_pid);
        let parent_e = parent_el.and_then(|p| elements.nodes.get(p));
        let mut node = node_of(elements, e, parent_e, &mut secret_texts);
        node.native = native_id(e, pid, i, &mut seen);
        let id = match parent {
            Some(p) => tree.append(p, node),
            None => {
                let id = tree.push(node);
                tree.set_root(id);
                id
            }
        };
        for &c in elements.children_of(i).iter().rev() {
            stack.push(Pending { element: c, parent_element: Some(i), parent: Some(id), pid });
        }
    }
    if !secret_texts.is_empty() || axsnap_core::secret::needs_redaction(&tree) {
        redact(&mut tree, &secret_texts);
    }
    Built { tree, secret_texts }
}

/// An element waiting on the build's stack.
struct Pending {
    /// Its index.
    element: usize,
    /// Its parent's index (roles depend on the parent's).
    parent_element: Option<usize>,
    /// Its parent's node.
    parent: Option<NodeId>,
    /// The process id it inherits.
    pid: Option<i32>,
}

/// The node of one element (its native id is the caller's). A secret's value is never copied:
/// it becomes [`REDACTED`] here (empty stays empty) and its text goes to `secrets`.
fn node_of(all: &Elements, e: &Element, parent: Option<&Element>, secrets: &mut Vec<String>) -> Node {
    let role = mapping::role(e, parent);
    let actions = mapping::actions(e, &role);
    let states = mapping::states(e, &role, actions);
    let mut node = Node { role: role.clone(), actions, states, ..Node::default() };
    let value = e.value.clone();
    let label = e.title_element.and_then(|t| all.nodes.get(t)).map(label_text).unwrap_or_default();
    let candidates = [e.title.trim(), label.trim(), e.description.trim()];
    let mut name = candidates.into_iter().find(|n| !n.is_empty()).unwrap_or_default().to_string();
    // A window's title-bar buttons have no title or description; their role description
    // ("close button") is what VoiceOver says.
    if name.is_empty() && WINDOW_BUTTONS.contains(&e.subrole.as_str()) {
        name = e.role_description.trim().to_string();
    }
    let mut used_placeholder = false;
    if name.is_empty() && mapping::is_text_input(&role) && !e.placeholder.trim().is_empty() {
        name = e.placeholder.trim().to_string();
        used_placeholder = true;
    }
    match role {
        // A static text's words are its value.
        Role::Text if name.is_empty() => name = value.unwrap_or_default(),
        Role::Text => {}
        // WebKit gives a heading's level as its value.
        Role::Heading => {
            node.level = value.and_then(|v| v.trim().parse().ok()).filter(|l| (1..=9).contains(l))
        }
        // A splitter's value is where it is dragged to, which says nothing to act on.
        Role::Separator => {}
        Role::Link => node.url = Some(e.url.clone()).filter(|u| !u.trim().is_empty()),
        // A check box's or a tab's number is its state, a disclosure triangle's too.
        _ if mapping::is_checkable(e, &role) || role == Role::Tab || e.role == "AXDisclosureTriangle" => {}
        _ if mapping::is_secret(e) => {
            let v = value.unwrap_or_default();
            if !v.is_empty() {
                secrets.push(v);
                node.value = Some(REDACTED.to_string());
            } else {
                node.value = Some(String::new());
            }
        }
        // A field keeps even an empty value: the agent sees it still needs filling.
        Role::TextBox | Role::SearchBox => node.value = Some(value.unwrap_or_default()),
        // A value that only repeats the name says nothing more.
        _ => node.value = value.filter(|v| !v.trim().is_empty() && v.trim() != name),
    }
    node.range = mapping::range(e, &role);
    let placeholder = if used_placeholder { "" } else { e.placeholder.trim() };
    let described_by = [e.description.trim(), e.help.trim(), placeholder];
    node.description =
        described_by.into_iter().find(|d| !d.is_empty() && *d != name.trim()).map(str::to_string);
    node.name = name;
    node.bounds = e.bounds;
    // AppKit makes up `_NS:123` identifiers for views the developer did not name; they change
    // between builds and name nothing the developer chose.
    node.dev_id = Some(e.identifier.trim().to_string()).filter(|i| !i.is_empty() && !i.starts_with("_NS:"));
    node.flags = RawFlags {
        // Each static text is laid out apart: two side by side are two texts, never one run.
        block: role == Role::Text,
        ..RawFlags::default()
    };
    node
}

/// The subroles of a window's title-bar buttons.
const WINDOW_BUTTONS: [&str; 4] = ["AXCloseButton", "AXMinimizeButton", "AXZoomButton", "AXFullScreenButton"];

/// What a label element says: its title, else its words (a static text's value).
fn label_text(label: &Element) -> String {
    [label.title.trim(), label.value.as_deref().unwrap_or_default().trim(), label.description.trim()]
        .into_iter()
        .find(|t| !t.is_empty())
        .unwrap_or_default()
        .to_string()
}

fn native_id(e: &Element, pid: Option<i32>, position: usize, seen: &mut HashSet<u64>) -> NativeId {
    let scope = match pid {
        Some(pid) => format!("ax:{pid}"),
        None => "ax".to_string(),
    };
    let id = match e.serial {
        Some(serial) if seen.insert(serial) => format!("n{serial}"),
        // No serial, or one repeated by mistake: the position still names one element.
        _ => format!("at:{position}"),
    };
    NativeId::new(scope, id)
}

#[cfg(test)]
mod tests;
