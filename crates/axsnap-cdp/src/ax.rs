//! Lenient parsing of `Accessibility.getFullAXTree` into the core's [`Node`] content.
//!
//! Roles and property names are plain strings here, never enums: a browser newer than this
//! crate adds roles, properties and value types, and those must not fail a capture. Unknown
//! roles are kept verbatim ([`Role::Other`]); unknown properties are ignored.
//!
//! The answer is read in place (borrowed from the JSON value, skipping every field capture
//! does not use) and converted in one pass: on a 60,000-node page the answer is 20 MB, and
//! copying it into owned structs first cost as much as the conversion itself.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use axsnap_core::{Action, ActionSet, Node, Role, State, StateSet, ValueRange};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use crate::ax_ids::IdIndex;
use crate::json::{Scalar, Text};

/// One node of the answer, with only the fields capture uses.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct RawNode<'a> {
    #[serde(borrow)]
    node_id: Text<'a>,
    ignored: bool,
    #[serde(borrow)]
    role: Option<RawValue<'a>>,
    #[serde(borrow)]
    name: Option<RawValue<'a>>,
    #[serde(borrow)]
    description: Option<RawValue<'a>>,
    #[serde(borrow)]
    value: Option<RawValue<'a>>,
    properties: Props,
    #[serde(borrow)]
    parent_id: Option<Text<'a>>,
    #[serde(borrow)]
    child_ids: Vec<Text<'a>>,
    #[serde(rename = "backendDOMNodeId")]
    backend_dom_node_id: Option<i64>,
}

/// A typed AX value; only the value itself matters (its type name is not needed to read it).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawValue<'a> {
    #[serde(borrow)]
    value: Scalar<'a>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RawProperty<'a> {
    #[serde(borrow)]
    name: Text<'a>,
    #[serde(borrow)]
    value: RawValue<'a>,
}

/// One document's accessibility tree as core nodes, in answer order, with its structure.
/// Native ids, bounds and DOM facts are filled when the tree is placed.
#[derive(Debug, Default)]
pub struct AxDoc {
    /// Node content.
    pub nodes: Vec<Node>,
    /// Per node: the DOM node it stands for.
    pub backend: Vec<Option<i64>>,
    /// Per node: the id part of its native id (the backend node id, or `ax:<AX id>` for a
    /// node without a DOM node), made here, off the assembly's critical path.
    pub native_id: Vec<String>,
    /// Node `i`'s children are `child_list[child_start[i]..child_start[i + 1]]`.
    pub child_start: Vec<u32>,
    /// See `child_start`.
    pub child_list: Vec<u32>,
    /// The root's index.
    pub root: usize,
}

impl AxDoc {
    /// The children of node `i`, in order.
    pub fn children(&self, i: usize) -> &[u32] {
        let (a, b) = (self.child_start.get(i), self.child_start.get(i + 1));
        match (a, b) {
            (Some(&a), Some(&b)) => self.child_list.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Parses and converts a `getFullAXTree` result. Unknown roles, properties and value types
/// are kept or skipped, never an error; only a result that is not an object with a `nodes`
/// list of objects fails.
pub fn parse_doc(v: &Value) -> Result<AxDoc, serde_json::Error> {
    let items: &[Value] = match v {
        Value::Object(m) => match m.get("nodes") {
            Some(Value::Array(a)) => a,
            None | Some(Value::Null) => &[],
            Some(_) => return Err(de::Error::custom("`nodes` is not a list")),
        },
        _ => return Err(de::Error::custom("the answer is not an object")),
    };
    // Two halves on two threads when it pays: the conversion is on a capture's critical path.
    let part = if items.len() >= PARALLEL_FROM {
        let (a, b) = items.split_at(items.len() / 2);
        let (first, second) = std::thread::scope(|s| {
            let first = s.spawn(|| Part::read(a));
            (first.join(), Part::read(b))
        });
        let first = first.map_err(|_| de::Error::custom("a parse thread failed"))?;
        let mut part = first?;
        part.append(second?);
        part
    } else {
        Part::read(items)?
    };
    let index = IdIndex::new(&part.ids);
    let n = part.ids.len();
    let mut doc = AxDoc {
        nodes: part.nodes,
        backend: part.backend,
        native_id: part.native_id,
        child_start: Vec::with_capacity(n + 1),
        child_list: Vec::with_capacity(part.kids.len()),
        root: 0,
    };
    doc.root =
        part.parents.iter().position(|p| p.as_deref().is_none_or(|p| index.get(p).is_none())).unwrap_or(0);
    // A `<select>`'s popup is folded into its combobox (see `fold_select_popups`).
    let folded: Vec<(usize, usize)> = part
        .popups
        .iter()
        .filter_map(|&p| {
            let parent = part.parents.get(p)?.as_deref().and_then(|id| index.get(id))? as usize;
            (doc.nodes.get(parent)?.role == Role::ComboBox).then_some((p, parent))
        })
        .collect();
    let mut cut = vec![false; if folded.is_empty() { 0 } else { n }];
    for &(p, _) in &folded {
        cut[p] = true;
    }
    let mut picker = vec![false; if part.pickers.is_empty() { 0 } else { n }];
    for &p in &part.pickers {
        picker[p] = true;
    }
    for (i, w) in part.kid_start.windows(2).enumerate() {
        doc.child_start.push(doc.child_list.len() as u32);
        // A picker input is one field: its inner parts are the browser's own widgets.
        let list = if picker.get(i).copied().unwrap_or(false) {
            &[]
        } else {
            part.kids.get(w[0]..w[1]).unwrap_or(&[])
        };
        doc.child_list.extend(
            list.iter()
                .filter_map(|c| index.get(c))
                .filter(|&c| !cut.get(c as usize).copied().unwrap_or(false)),
        );
    }
    doc.child_start.push(doc.child_list.len() as u32);
    fold_select_popups(&mut doc, &folded);
    Ok(doc)
}

/// Puts the options of each `<select>`'s popup on its combobox as `options`; the popup itself
/// is already out of the combobox's children. A native select is operated by the `select`
/// action, by option label, never by clicking an option, so its options need no lines or refs
/// of their own: drawn as a line each (`option "≤" [e26]`) a Datasette filter form's two
/// selects took 27 lines, and every choice came back as two option state changes in the diff.
/// Most options kept of one `<select>` (the text form shows the first 25).
const MAX_SELECT_OPTIONS: usize = 10_000;

fn fold_select_popups(doc: &mut AxDoc, folded: &[(usize, usize)]) {
    for &(popup, combobox) in folded {
        let mut options = Vec::new();
        let mut stack = vec![popup];
        // A malformed answer may link a node twice; each is read once.
        let mut seen = std::collections::HashSet::new();
        while let Some(i) = stack.pop() {
            if !seen.insert(i) || options.len() >= MAX_SELECT_OPTIONS {
                continue;
            }
            let Some(node) = doc.nodes.get(i) else { continue };
            if node.role == Role::Option {
                options.push(node.name.trim().to_string());
            }
            stack.extend(doc.children(i).iter().rev().map(|&c| c as usize));
        }
        if let Some(c) = doc.nodes.get_mut(combobox) {
            c.options = options;
        }
    }
}

/// Answers with this many nodes are read on two threads.
const PARALLEL_FROM: usize = 2_000;

/// A run of nodes read, not yet linked (ids stay borrowed from the JSON value).
struct Part<'v> {
    nodes: Vec<Node>,
    backend: Vec<Option<i64>>,
    native_id: Vec<String>,
    ids: Vec<Cow<'v, str>>,
    parents: Vec<Option<Cow<'v, str>>>,
    kids: Vec<Cow<'v, str>>,
    /// Node `i`'s child ids are `kids[kid_start[i]..kid_start[i + 1]]`.
    kid_start: Vec<usize>,
    /// The nodes that are a `<select>`'s popup (`MenuListPopup`).
    popups: Vec<usize>,
    /// The nodes that are a native picker input (see [`PICKER_ROLES`]).
    pickers: Vec<usize>,
}

impl<'v> Part<'v> {
    /// Node by node, straight from the JSON value, with no list of raw nodes in between.
    fn read(items: &'v [Value]) -> Result<Part<'v>, serde_json::Error> {
        let n = items.len();
        let mut roles: HashMap<Cow<str>, Role> = HashMap::new();
        let mut p = Part {
            nodes: Vec::with_capacity(n),
            backend: Vec::with_capacity(n),
            native_id: Vec::with_capacity(n),
            ids: Vec::with_capacity(n),
            parents: Vec::with_capacity(n),
            kids: Vec::with_capacity(n),
            kid_start: Vec::with_capacity(n + 1),
            popups: Vec::new(),
            pickers: Vec::new(),
        };
        for item in items {
            let r = RawNode::deserialize(item)?;
            if r.role.as_ref().is_some_and(|v| matches!(&v.value, Scalar::Str(s) if s == "MenuListPopup")) {
                p.popups.push(p.nodes.len());
            }
            if r.role
                .as_ref()
                .is_some_and(|v| matches!(&v.value, Scalar::Str(s) if PICKER_ROLES.contains(&s.as_ref())))
            {
                p.pickers.push(p.nodes.len());
            }
            p.nodes.push(to_node(&r, &mut roles));
            p.backend.push(r.backend_dom_node_id);
            p.native_id.push(match r.backend_dom_node_id {
                Some(b) => b.to_string(),
                None => format!("ax:{}", &*r.node_id),
            });
            p.ids.push(r.node_id.0);
            p.parents.push(r.parent_id.map(|p| p.0));
            p.kid_start.push(p.kids.len());
            p.kids.extend(r.child_ids.into_iter().map(|c| c.0));
        }
        p.kid_start.push(p.kids.len());
        Ok(p)
    }

    /// `next` after this run.
    fn append(&mut self, next: Part<'v>) {
        let base = self.kids.len();
        let first = self.nodes.len();
        self.popups.extend(next.popups.into_iter().map(|i| i + first));
        self.pickers.extend(next.pickers.into_iter().map(|i| i + first));
        self.kid_start.pop();
        self.kid_start.extend(next.kid_start.into_iter().map(|k| k + base));
        self.nodes.extend(next.nodes);
        self.backend.extend(next.backend);
        self.native_id.extend(next.native_id);
        self.ids.extend(next.ids);
        self.parents.extend(next.parents);
        self.kids.extend(next.kids);
    }
}

/// Chromium's roles for the inputs whose value is picked (date, time, datetime-local, month,
/// week, color): each is one field of the core's picker roles ([`Role::is_picker`]) holding its
/// value in ISO form, which `fill` sets. Their inner parts (a spin field per part with its
/// placeholder, separators, the picker button) are the browser's own widgets: drawn, they took
/// 12 lines for one date, named twice ("Month Month"), and a ref of one of them was what `find`
/// gave for the field. `DateTime` is also what Chromium calls a month or week input; the DOM's
/// input type tells them apart (`assemble.rs`).
pub const PICKER_ROLES: &[&str] = &["Date", "DateTime", "InputTime", "ColorWell"];

/// Maps a Chromium role name onto the core vocabulary, first fixing the Chromium-internal names
/// the vocabulary does not cover.
pub fn map_role(raw: &str) -> Role {
    match raw {
        "Date" => Role::Date,
        "DateTime" => Role::DateTime,
        "InputTime" => Role::Time,
        "ColorWell" => Role::Color,
        // <summary>: a button that opens its <details>.
        "DisclosureTriangle" => Role::Button,
        // List bullets and numbers: presentation, like text runs.
        "ListMarker" => Role::TextRun,
        // Inline formatting and structure with no semantics an agent acts on.
        "strong" | "emphasis" | "mark" | "time" | "deletion" | "insertion" | "subscript" | "superscript"
        | "Abbr" | "Ruby" | "RubyAnnotation" | "Pre" | "Section" | "Span" | "Div" | "Figcaption"
        | "Caption" | "sectionheader" | "sectionfooter" => Role::Generic,
        // `<br>`: its text is the line break, a space in running text (`Foundation.This page`
        // read glued when it was an empty generic).
        "LineBreak" => Role::Text,
        "Legend" => Role::Label,
        "Iframe" | "IframePresentational" => Role::Document,
        "Canvas" => Role::Image,
        "graphics-symbol" | "graphics-document" => Role::Image,
        "graphics-object" => Role::Group,
        "MenuListPopup" => Role::ListBox,
        "MenuListOption" => Role::Option,
        // A media element: a group of its player's controls.
        "Audio" | "Video" | "EmbeddedObject" | "PluginObject" => Role::Group,
        other => Role::parse(other),
    }
}

/// The content of one AX node as the core's [`Node`]; `roles` caches role mapping (a page
/// has few distinct roles).
fn to_node<'v>(ax: &RawNode<'v>, roles: &mut HashMap<Cow<'v, str>, Role>) -> Node {
    let role = match ax.role.as_ref().map(|r| &r.value) {
        Some(Scalar::Str(s)) if !s.is_empty() => match roles.get(s.as_ref()) {
            Some(r) => r.clone(),
            None => {
                let r = map_role(s);
                roles.insert(s.clone(), r.clone());
                r
            }
        },
        _ => Role::Generic,
    };
    let mut node = Node { role, ..Node::default() };
    node.name = ax.name.as_ref().and_then(|v| v.value.text()).unwrap_or_default();
    node.value = ax.value.as_ref().and_then(|v| v.value.text()).filter(|s| !s.is_empty());
    node.description = ax.description.as_ref().and_then(|v| v.value.text()).filter(|s| !s.is_empty());
    node.flags.ignored = ax.ignored;
    let p = &ax.properties;
    node.flags.hidden = p.hidden;
    node.level = p.level;
    node.url = p.url.clone();
    // A scroll bar's bounds are pixels of a layout, not a value anyone sets.
    if node.role != Role::ScrollBar {
        node.range = p.min.zip(p.max).and_then(|(min, max)| ValueRange::new(min, max, None));
    }
    let (states, facts) = (p.states, p.facts);
    node.states = states;
    node.actions = actions_for(&node.role, states, facts);
    node
}

/// A node's properties, folded as they are read (no list of them is built).
#[derive(Debug, Default)]
struct Props {
    states: StateSet,
    hidden: bool,
    level: Option<u32>,
    url: Option<String>,
    /// A ranged control's bounds.
    min: Option<f64>,
    max: Option<f64>,
    facts: ActionFacts,
}

impl Props {
    fn add(&mut self, p: &RawProperty) {
        let v = &p.value.value;
        let states = &mut self.states;
        match &*p.name {
            "focused" => states.set(State::Focused, v.truthy()),
            "disabled" => states.set(State::Disabled, v.truthy()),
            "focusable" => states.set(State::Focusable, v.truthy()),
            "editable" => states.set(State::Editable, v.truthy()),
            "readonly" => states.set(State::Readonly, v.truthy()),
            "required" => states.set(State::Required, v.truthy()),
            "invalid" => states.set(State::Invalid, v.truthy()),
            "busy" => states.set(State::Busy, v.truthy()),
            "modal" => states.set(State::Modal, v.truthy()),
            "multiselectable" => states.set(State::Multiselectable, v.truthy()),
            "multiline" => states.set(State::Multiline, v.truthy()),
            "selected" => states.set(State::Selected, v.truthy()),
            "hidden" => self.hidden |= v.truthy(),
            "checked" => {
                self.facts.checkable = true;
                tristate(v, states, State::Checked);
            }
            "pressed" => {
                self.facts.pressable = true;
                tristate(v, states, State::Pressed);
            }
            "expanded" => {
                self.facts.expandable = true;
                states.set(if v.truthy() { State::Expanded } else { State::Collapsed }, true);
            }
            "hasPopup" => self.facts.has_popup = v.text().is_some_and(|t| t != "false"),
            "level" => self.level = v.as_u32(),
            "valuemin" => self.min = v.as_f64(),
            "valuemax" => self.max = v.as_f64(),
            "url" => self.url = v.text().filter(|s| !s.is_empty()),
            _ => {}
        }
    }
}

impl<'de> Deserialize<'de> for Props {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Props;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of properties")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Props, A::Error> {
                let mut props = Props::default();
                while let Some(p) = seq.next_element::<RawProperty<'de>>()? {
                    props.add(&p);
                }
                Ok(props)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Props, E> {
                Ok(Props::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// `true` sets `on`, `mixed` sets [`State::Mixed`].
fn tristate(v: &Scalar, states: &mut StateSet, on: State) {
    match v {
        Scalar::Str(s) if s == "mixed" => states.set(State::Mixed, true),
        Scalar::Str(s) if s == "true" => states.set(on, true),
        Scalar::Bool(true) => states.set(on, true),
        _ => {}
    }
}

/// What, besides role and states, decides an element's actions.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ActionFacts {
    /// It opens a popup (menu, listbox, dialog).
    pub has_popup: bool,
    /// It has an expanded state.
    pub expandable: bool,
    /// It has a pressed state.
    pub pressable: bool,
    /// It has a checked state.
    pub checkable: bool,
}

/// The actions an element supports, from its role and properties.
pub(crate) fn actions_for(role: &Role, states: StateSet, f: ActionFacts) -> ActionSet {
    let mut a = ActionSet::EMPTY;
    let clickable = matches!(
        role,
        Role::Button
            | Role::Link
            | Role::CheckBox
            | Role::Radio
            | Role::Switch
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::Tab
            | Role::TreeItem
            | Role::Option
            | Role::ComboBox
    );
    a.set(Action::Click, clickable || f.has_popup);
    a.set(
        Action::Toggle,
        f.checkable
            || f.pressable
            || matches!(role, Role::CheckBox | Role::Switch | Role::MenuItemCheckbox | Role::Radio),
    );
    a.set(Action::Expand, f.expandable || f.has_popup);
    a.set(
        Action::Select,
        matches!(role, Role::Option | Role::Tab | Role::TreeItem | Role::ComboBox | Role::ListBox)
            || (matches!(role, Role::Row | Role::Cell) && states.contains(State::Selected)),
    );
    let editable = states.contains(State::Editable)
        || matches!(role, Role::TextBox | Role::SearchBox | Role::Slider | Role::SpinButton)
        || role.is_picker();
    a.set(Action::SetValue, editable && !states.contains(State::Readonly));
    a.set(Action::Focus, states.contains(State::Focusable));
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_roles_properties_and_value_types_do_not_fail() {
        let blob = json!({"nodes": [
            {"nodeId": "1", "ignored": false, "role": {"type": "internalRole", "value": "RootWebArea"},
             "name": {"type": "computedString", "value": "Doc", "sources": [{"type": "weird", "superNew": 1}]},
             "properties": [{"name": "focusable", "value": {"type": "booleanOrUndefined", "value": true}},
                            {"name": "brandNewProperty", "value": {"type": "brandNewType", "value": {"x": [1, 2]}}}],
             "childIds": ["2", "3", "99"], "backendDOMNodeId": 5, "frameId": "F", "chromeRole": {"type": "internalRole", "value": 144},
             "somethingElse": [1, 2, 3]},
            {"nodeId": "2", "ignored": false, "role": {"type": "role", "value": "hyperwidget"},
             "name": {"type": "computedString", "value": "Fancy"}, "parentId": "1",
             "properties": [{"name": "checked", "value": {"type": "tristate", "value": "mixed"}},
                            {"name": "expanded", "value": {"type": "booleanOrUndefined", "value": false}}],
             "backendDOMNodeId": 7},
            {"nodeId": "3", "ignored": true, "ignoredReasons": [{"name": "newReason", "value": {"type": "idref"}}],
             "role": {"type": "role", "value": "none"}, "parentId": "1"}
        ]});
        let doc = parse_doc(&blob).unwrap();
        assert_eq!(doc.nodes.len(), 3);
        assert_eq!(doc.root, 0);
        assert_eq!(doc.children(0), &[1, 2]);
        assert_eq!(doc.backend, vec![Some(5), Some(7), None]);
        assert_eq!(doc.native_id, vec!["5", "7", "ax:3"]);
        let root = &doc.nodes[0];
        assert_eq!(root.role, Role::Document);
        assert_eq!(root.name, "Doc");
        assert!(root.states.contains(State::Focusable));
        let fancy = &doc.nodes[1];
        assert_eq!(fancy.role, Role::Other("hyperwidget".into()));
        assert!(fancy.states.contains(State::Mixed) && fancy.states.contains(State::Collapsed));
        assert!(fancy.actions.contains(Action::Toggle) && fancy.actions.contains(Action::Expand));
        assert!(doc.nodes[2].flags.ignored);
    }

    #[test]
    fn states_and_actions_of_common_widgets() {
        let doc = parse_doc(&json!({"nodes": [
            {"nodeId": "1", "role": {"type": "role", "value": "textbox"},
             "properties": [{"name": "focusable", "value": {"type": "booleanOrUndefined", "value": true}},
                            {"name": "editable", "value": {"type": "token", "value": "plaintext"}},
                            {"name": "required", "value": {"type": "boolean", "value": true}},
                            {"name": "invalid", "value": {"type": "token", "value": "false"}}]},
            {"nodeId": "2", "role": {"type": "role", "value": "heading"},
             "properties": [{"name": "level", "value": {"type": "integer", "value": 2}}]},
            {"nodeId": "3", "role": {"type": "role", "value": "slider"},
             "value": {"type": "number", "value": 40}},
            {"nodeId": "4", "role": {"type": "role", "value": "slider"},
             "value": {"type": "number", "value": 2.5}}
        ]}))
        .unwrap();
        let node = &doc.nodes[0];
        assert_eq!(node.role, Role::TextBox);
        assert!(node.states.contains(State::Editable) && node.states.contains(State::Required));
        assert!(!node.states.contains(State::Invalid));
        assert!(node.actions.contains(Action::SetValue) && node.actions.contains(Action::Focus));
        assert!(!node.actions.contains(Action::Click));
        assert_eq!(doc.nodes[1].level, Some(2));
        assert!(doc.nodes[1].actions.is_empty());
        assert_eq!(doc.nodes[2].value.as_deref(), Some("40"));
        assert_eq!(doc.nodes[3].value.as_deref(), Some("2.5"));
    }

    #[test]
    fn a_large_answer_read_in_two_halves_links_across_them() {
        let n = PARALLEL_FROM + 1;
        let nodes: Vec<Value> = (0..n)
            .map(|i| {
                let kids: Vec<String> =
                    if i == 0 { (1..n).rev().map(|k| k.to_string()).collect() } else { vec![] };
                json!({"nodeId": i.to_string(), "childIds": kids, "backendDOMNodeId": i + 10,
                       "role": {"type": "role", "value": if i % 2 == 0 { "button" } else { "link" }}})
            })
            .collect();
        let doc = parse_doc(&json!({ "nodes": nodes })).unwrap();
        assert_eq!(doc.nodes.len(), n);
        let kids: Vec<u32> = (1..n as u32).rev().collect();
        assert_eq!(doc.children(0), &kids[..]);
        assert!((1..n).all(|i| doc.children(i).is_empty()));
        assert_eq!(doc.native_id[n - 1], (n + 9).to_string());
        assert_eq!(doc.nodes[n - 1].role, if (n - 1) % 2 == 0 { Role::Button } else { Role::Link });
    }

    #[test]
    fn a_picker_input_is_one_field() {
        let role = |r: &str| json!({"type": "role", "value": r});
        let doc = parse_doc(&json!({"nodes": [
            {"nodeId": "1", "role": role("RootWebArea"), "childIds": ["2", "5"]},
            {"nodeId": "2", "role": role("Date"), "parentId": "1", "childIds": ["3", "4"],
             "name": {"type": "computedString", "value": "Due"}, "value": {"type": "string", "value": "2011-10-11"}},
            {"nodeId": "3", "role": role("spinbutton"), "parentId": "2", "name": {"type": "computedString", "value": "Month Month"}},
            {"nodeId": "4", "role": role("button"), "parentId": "2", "name": {"type": "computedString", "value": "Show date picker"}},
            {"nodeId": "5", "role": role("Video"), "parentId": "1", "childIds": []}
        ]}))
        .unwrap();
        assert_eq!(
            (doc.nodes[1].role.clone(), doc.nodes[1].value.as_deref()),
            (Role::Date, Some("2011-10-11"))
        );
        assert!(doc.children(1).is_empty(), "its parts are the browser's own widgets");
        assert_eq!(doc.nodes[4].role, Role::Group);
    }

    #[test]
    fn a_selects_popup_becomes_its_comboboxs_options() {
        let role = |r: &str| json!({"type": "role", "value": r});
        let doc = parse_doc(&json!({"nodes": [
            {"nodeId": "1", "role": role("RootWebArea"), "childIds": ["2", "6"]},
            {"nodeId": "2", "role": role("combobox"), "parentId": "1", "childIds": ["3"],
             "value": {"type": "string", "value": "="}},
            {"nodeId": "3", "role": role("MenuListPopup"), "parentId": "2", "childIds": ["4", "5", "4"]},
            {"nodeId": "4", "role": role("MenuListOption"), "parentId": "3", "name": {"type": "computedString", "value": "="}},
            {"nodeId": "5", "role": role("group"), "parentId": "3", "childIds": ["7"]},
            {"nodeId": "7", "role": role("MenuListOption"), "parentId": "5", "name": {"type": "computedString", "value": " != "}},
            // A popup anywhere else (a malformed answer) is left as it is.
            {"nodeId": "6", "role": role("MenuListPopup"), "parentId": "1", "childIds": []}
        ]}))
        .unwrap();
        assert_eq!(doc.children(0), &[1, 6]);
        assert!(doc.children(1).is_empty(), "the popup is out of the tree");
        assert_eq!(doc.nodes[1].options, vec!["=", "!="], "each option once, in order, trimmed");
        assert_eq!(doc.nodes[1].value.as_deref(), Some("="));
    }

    #[test]
    fn a_result_without_nodes_is_empty_not_an_error() {
        assert!(parse_doc(&json!({})).unwrap().nodes.is_empty());
        assert!(parse_doc(&json!("nope")).is_err());
    }

    #[test]
    fn owned_strings_parse_too() {
        // A string with escapes cannot be borrowed from JSON text.
        let node: RawNode = serde_json::from_str(
            r#"{"nodeId": "a\"b", "name": {"type": "computedString", "value": "x\ny"}}"#,
        )
        .unwrap();
        assert_eq!(&*node.node_id, "a\"b");
        assert_eq!(node.name.as_ref().map(|n| n.value.clone()), Some(Scalar::Str("x\ny".into())));
    }

    #[test]
    fn ids_that_are_not_small_numbers_still_link() {
        let doc = parse_doc(&json!({"nodes": [
            {"nodeId": "root", "childIds": ["07", "99999999999"]},
            {"nodeId": "07", "parentId": "root"},
            {"nodeId": "99999999999", "parentId": "root"}
        ]}))
        .unwrap();
        assert_eq!((doc.root, doc.children(0)), (0, &[1, 2][..]));
        let doc = parse_doc(&json!({"nodes": [
            {"nodeId": "7", "childIds": ["12", "-1000000005", "-0", "3"]}, {"nodeId": "3"}, {"nodeId": "12"},
            {"nodeId": "-1000000005"}
        ]}))
        .unwrap();
        assert_eq!(doc.children(0), &[2, 3, 1]);
    }
}
