//! Lenient parsing of `Accessibility.getFullAXTree` and mapping of one AX node to the core's
//! [`Node`] content.
//!
//! Roles and property names are plain strings here, never enums: a browser newer than this
//! crate adds roles, properties and value types, and those must not fail a capture. Unknown
//! roles are kept verbatim ([`Role::Other`]); unknown properties are ignored.

use axsnap_core::{Action, ActionSet, Node, Role, State, StateSet};
use serde::Deserialize;
use serde_json::Value;

/// One node of `Accessibility.getFullAXTree`, with only the fields capture uses.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AxNode {
    /// The AX node id (unique within one answer).
    pub node_id: String,
    /// Whether the browser excludes it from the accessibility tree.
    pub ignored: bool,
    /// The role (`role` or `internalRole` type; the value is a string either way).
    pub role: Option<AxValue>,
    /// The accessible name.
    pub name: Option<AxValue>,
    /// The accessible description.
    pub description: Option<AxValue>,
    /// The value.
    pub value: Option<AxValue>,
    /// Properties (states, relations, level, url, ...).
    pub properties: Vec<AxProperty>,
    /// The parent's AX id.
    pub parent_id: Option<String>,
    /// Children's AX ids, in order.
    pub child_ids: Vec<String>,
    /// The DOM node it stands for.
    #[serde(rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<i64>,
    /// The frame of its document (set on document roots).
    pub frame_id: Option<String>,
}

/// A typed AX value; the type and value are kept as the browser sent them.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct AxValue {
    /// The value type (`computedString`, `tristate`, `booleanOrUndefined`, `role`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// The value itself (string, bool, number, list).
    pub value: Value,
}

impl AxValue {
    /// The value as text: strings as they are, numbers and booleans formatted, else `None`.
    pub fn text(&self) -> Option<String> {
        match &self.value {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// The value as a boolean; `"true"`/`"false"` strings count.
    pub fn truthy(&self) -> bool {
        match &self.value {
            Value::Bool(b) => *b,
            Value::String(s) => !s.is_empty() && s != "false",
            Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
            _ => false,
        }
    }
}

/// One AX property.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct AxProperty {
    /// Its name (`focused`, `checked`, `level`, ...).
    pub name: String,
    /// Its value.
    pub value: AxValue,
}

/// The answer of `Accessibility.getFullAXTree`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct AxTree {
    /// Every node, parents before children.
    pub nodes: Vec<AxNode>,
}

/// Parses a `getFullAXTree` result. Unknown roles, properties and value types are kept or
/// skipped, never an error; only a result that is not an object with a `nodes` list fails.
pub fn parse_full_tree(v: Value) -> Result<AxTree, serde_json::Error> {
    serde_json::from_value(v)
}

/// Maps a Chromium role name onto the core vocabulary, first fixing the Chromium-internal names
/// the vocabulary does not cover.
pub fn map_role(raw: &str) -> Role {
    match raw {
        // <summary>: a button that opens its <details>.
        "DisclosureTriangle" => Role::Button,
        // List bullets and numbers: presentation, like text runs.
        "ListMarker" => Role::TextRun,
        // Inline formatting and structure with no semantics an agent acts on.
        "strong" | "emphasis" | "mark" | "time" | "deletion" | "insertion" | "subscript" | "superscript"
        | "Abbr" | "Ruby" | "RubyAnnotation" | "Pre" | "Section" | "Span" | "Div" | "Figcaption"
        | "Caption" | "LineBreak" | "sectionheader" | "sectionfooter" => Role::Generic,
        "Legend" => Role::Label,
        "Iframe" | "IframePresentational" => Role::Document,
        "Canvas" => Role::Image,
        "graphics-symbol" | "graphics-document" => Role::Image,
        "graphics-object" => Role::Group,
        "MenuListPopup" => Role::ListBox,
        "MenuListOption" => Role::Option,
        other => Role::parse(other),
    }
}

/// The content of one AX node as the core's [`Node`] (native id, bounds and DOM facts are
/// filled by the caller).
pub fn to_node(ax: &AxNode) -> Node {
    let raw_role = ax.role.as_ref().and_then(AxValue::text).unwrap_or_default();
    let role = if raw_role.is_empty() { Role::Generic } else { map_role(&raw_role) };
    let mut node = Node { role, ..Node::default() };
    node.name = ax.name.as_ref().and_then(AxValue::text).unwrap_or_default();
    node.value = ax.value.as_ref().and_then(AxValue::text).filter(|s| !s.is_empty());
    node.description = ax.description.as_ref().and_then(AxValue::text).filter(|s| !s.is_empty());
    node.flags.ignored = ax.ignored;
    let mut states = StateSet::EMPTY;
    let mut has_popup = false;
    let mut expandable = false;
    let mut pressable = false;
    let mut checkable = false;
    for p in &ax.properties {
        let v = &p.value;
        match p.name.as_str() {
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
            "hidden" => node.flags.hidden |= v.truthy(),
            "checked" => {
                checkable = true;
                match v.text().as_deref() {
                    Some("mixed") => states.set(State::Mixed, true),
                    Some("true") => states.set(State::Checked, true),
                    _ => {}
                }
            }
            "pressed" => {
                pressable = true;
                match v.text().as_deref() {
                    Some("mixed") => states.set(State::Mixed, true),
                    Some("true") => states.set(State::Pressed, true),
                    _ => {}
                }
            }
            "expanded" => {
                expandable = true;
                states.set(if v.truthy() { State::Expanded } else { State::Collapsed }, true);
            }
            "hasPopup" => has_popup = v.text().is_some_and(|t| t != "false"),
            "level" => node.level = v.value.as_u64().and_then(|l| u32::try_from(l).ok()),
            "url" => node.url = v.text().filter(|s| !s.is_empty()),
            _ => {}
        }
    }
    node.states = states;
    node.actions = actions_for(&node.role, states, has_popup, expandable, pressable, checkable);
    node
}

/// The actions an element supports, from its role and properties.
fn actions_for(
    role: &Role,
    states: StateSet,
    has_popup: bool,
    expandable: bool,
    pressable: bool,
    checkable: bool,
) -> ActionSet {
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
    a.set(Action::Click, clickable || has_popup);
    a.set(
        Action::Toggle,
        checkable
            || pressable
            || matches!(role, Role::CheckBox | Role::Switch | Role::MenuItemCheckbox | Role::Radio),
    );
    a.set(Action::Expand, expandable || has_popup);
    a.set(
        Action::Select,
        matches!(role, Role::Option | Role::Tab | Role::TreeItem | Role::ComboBox | Role::ListBox)
            || (matches!(role, Role::Row | Role::Cell) && states.contains(State::Selected)),
    );
    let editable = states.contains(State::Editable)
        || matches!(role, Role::TextBox | Role::SearchBox | Role::Slider | Role::SpinButton);
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
             "childIds": ["2", "3"], "backendDOMNodeId": 5, "frameId": "F", "chromeRole": {"type": "internalRole", "value": 144},
             "somethingElse": [1, 2, 3]},
            {"nodeId": "2", "ignored": false, "role": {"type": "role", "value": "hyperwidget"},
             "name": {"type": "computedString", "value": "Fancy"}, "parentId": "1",
             "properties": [{"name": "checked", "value": {"type": "tristate", "value": "mixed"}},
                            {"name": "expanded", "value": {"type": "booleanOrUndefined", "value": false}}],
             "backendDOMNodeId": 7},
            {"nodeId": "3", "ignored": true, "ignoredReasons": [{"name": "newReason", "value": {"type": "idref"}}],
             "role": {"type": "role", "value": "none"}, "parentId": "1"}
        ]});
        let tree = parse_full_tree(blob).unwrap();
        assert_eq!(tree.nodes.len(), 3);
        let root = to_node(&tree.nodes[0]);
        assert_eq!(root.role, Role::Document);
        assert_eq!(root.name, "Doc");
        assert!(root.states.contains(State::Focusable));
        let fancy = to_node(&tree.nodes[1]);
        assert_eq!(fancy.role, Role::Other("hyperwidget".into()));
        assert!(fancy.states.contains(State::Mixed) && fancy.states.contains(State::Collapsed));
        assert!(fancy.actions.contains(Action::Toggle) && fancy.actions.contains(Action::Expand));
        assert!(to_node(&tree.nodes[2]).flags.ignored);
    }

    #[test]
    fn states_and_actions_of_common_widgets() {
        let n: AxNode = serde_json::from_value(json!({"nodeId": "1",
            "role": {"type": "role", "value": "textbox"},
            "properties": [{"name": "focusable", "value": {"type": "booleanOrUndefined", "value": true}},
                           {"name": "editable", "value": {"type": "token", "value": "plaintext"}},
                           {"name": "required", "value": {"type": "boolean", "value": true}},
                           {"name": "invalid", "value": {"type": "token", "value": "false"}}]}))
        .unwrap();
        let node = to_node(&n);
        assert_eq!(node.role, Role::TextBox);
        assert!(node.states.contains(State::Editable) && node.states.contains(State::Required));
        assert!(!node.states.contains(State::Invalid));
        assert!(node.actions.contains(Action::SetValue) && node.actions.contains(Action::Focus));
        assert!(!node.actions.contains(Action::Click));

        let h: AxNode = serde_json::from_value(json!({"nodeId": "2",
            "role": {"type": "role", "value": "heading"},
            "properties": [{"name": "level", "value": {"type": "integer", "value": 2}}]}))
        .unwrap();
        assert_eq!(to_node(&h).level, Some(2));
        assert!(to_node(&h).actions.is_empty());
    }

    #[test]
    fn a_result_without_nodes_is_empty_not_an_error() {
        assert!(parse_full_tree(json!({})).unwrap().nodes.is_empty());
        assert!(parse_full_tree(json!("nope")).is_err());
    }
}
