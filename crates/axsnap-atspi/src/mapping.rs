//! From AT-SPI's vocabulary to the core's: roles, states and actions.
//!
//! AT-SPI roles and states are numbers with fixed meanings; a role number this crate does not
//! know is kept as `Role::Other("role 142")`, and state bits it does not know are ignored.

use axsnap_core::{Action, ActionSet, Role, State, StateSet};

use crate::fetch::RawObject;

/// AT-SPI state bits (`AtspiStateType`).
#[allow(missing_docs)]
pub mod bit {
    pub const ACTIVE: u32 = 1;
    pub const BUSY: u32 = 3;
    pub const CHECKED: u32 = 4;
    pub const EDITABLE: u32 = 7;
    pub const ENABLED: u32 = 8;
    pub const EXPANDABLE: u32 = 9;
    pub const EXPANDED: u32 = 10;
    pub const FOCUSABLE: u32 = 11;
    pub const FOCUSED: u32 = 12;
    pub const MODAL: u32 = 16;
    pub const MULTI_LINE: u32 = 17;
    pub const MULTISELECTABLE: u32 = 18;
    pub const PRESSED: u32 = 20;
    pub const SELECTABLE: u32 = 22;
    pub const SELECTED: u32 = 23;
    pub const SENSITIVE: u32 = 24;
    pub const SHOWING: u32 = 25;
    pub const VISIBLE: u32 = 30;
    pub const MANAGES_DESCENDANTS: u32 = 31;
    pub const INDETERMINATE: u32 = 32;
    pub const REQUIRED: u32 = 33;
    pub const INVALID_ENTRY: u32 = 36;
    pub const CHECKABLE: u32 = 41;
    pub const READ_ONLY: u32 = 43;
}

/// AT-SPI's name for role number `role` ("push button" is "button" here), or `None`.
pub fn role_name(role: u32) -> Option<&'static str> {
    atspi::Role::try_from(role).ok().map(|r| r.name())
}

/// The core role of `raw`; `parent` is its parent's AT-SPI role name, if any.
pub fn role(raw: &RawObject, parent: Option<&str>) -> Role {
    let Some(name) = role_name(raw.role) else {
        return Role::Other(format!("role {}", raw.role));
    };
    let editable = raw.state(bit::EDITABLE) || raw.has("EditableText");
    let mapped = match name {
        "text" if editable => Role::TextBox,
        "text" | "static" => Role::Text,
        "password text" => Role::TextBox,
        // GTK's boxes and grids: layout, named only when they group something.
        "panel" | "filler" | "grouping" if raw.name.is_empty() => Role::Generic,
        "panel" | "filler" | "grouping" => Role::Group,
        "section" | "embedded" | "root pane" | "glass pane" | "split pane" | "drawing area" | "canvas"
        | "html container" | "internal frame" | "desktop frame" | "option pane" | "redundant object"
        | "invalid" => Role::Generic,
        "toggle button" | "push button menu" => Role::Button,
        // A menu inside a menu bar or a menu is the item that opens it.
        "menu" if matches!(parent, Some("menu bar" | "menu" | "popup menu")) => Role::MenuItem,
        "tearoff menu item" => Role::MenuItem,
        "alert" | "notification" => Role::Alert,
        "info bar" => Role::Status,
        "level bar" => Role::Meter,
        "table cell" if parent == Some("tree table") => Role::Cell,
        "table column header" => Role::ColumnHeader,
        "table row header" => Role::RowHeader,
        "description term" => Role::ListItem,
        "description value" => Role::ListItem,
        "block quote" => Role::Blockquote,
        "document web"
        | "document frame"
        | "document text"
        | "document spreadsheet"
        | "document presentation"
        | "document email" => Role::Document,
        "title bar" => Role::Banner,
        other => Role::parse(other),
    };
    // Web content says its ARIA role (`xml-roles`); it tells landmarks and the like apart
    // where AT-SPI has one role for all of them.
    if matches!(
        mapped,
        Role::Generic | Role::Group | Role::Region | Role::Other(_) | Role::Banner | Role::ContentInfo
    ) {
        if let Some(aria) = raw.attributes.get("xml-roles").and_then(|r| r.split_whitespace().next()) {
            let aria = Role::parse(aria);
            if !matches!(aria, Role::Other(_) | Role::Generic | Role::None) {
                return aria;
            }
        }
    }
    mapped
}

/// The core states of `raw`, given its core role.
pub fn states(raw: &RawObject, role: &Role) -> StateSet {
    let mut s = StateSet::EMPTY;
    let on = |b| raw.state(b);
    let widget = role.is_widget() || on(bit::FOCUSABLE) || !raw.actions.is_empty();
    if widget && !(on(bit::ENABLED) || on(bit::SENSITIVE)) {
        s.set(State::Disabled, true);
    }
    s.set(State::Focused, on(bit::FOCUSED));
    s.set(State::Focusable, on(bit::FOCUSABLE));
    if *role == Role::Button {
        // A toggle button is "pressed" (GTK 3 says "checked" for it).
        s.set(State::Pressed, on(bit::PRESSED) || on(bit::CHECKED));
    } else if on(bit::INDETERMINATE) && (on(bit::CHECKABLE) || is_checkable(role)) {
        s.set(State::Mixed, true);
    } else {
        s.set(State::Checked, on(bit::CHECKED) && (is_checkable(role) || on(bit::CHECKABLE)));
    }
    s.set(State::Selected, on(bit::SELECTED) && on(bit::SELECTABLE));
    if on(bit::EXPANDABLE) {
        s.set(State::Expanded, on(bit::EXPANDED));
        s.set(State::Collapsed, !on(bit::EXPANDED));
    }
    s.set(State::Required, on(bit::REQUIRED));
    s.set(State::Readonly, on(bit::READ_ONLY));
    s.set(State::Invalid, on(bit::INVALID_ENTRY));
    s.set(State::Busy, on(bit::BUSY));
    s.set(State::Modal, on(bit::MODAL));
    // Only a container can hold a selection of several (Calc marks every cell so).
    let container =
        matches!(role, Role::List | Role::ListBox | Role::Table | Role::Grid | Role::Tree | Role::TreeGrid);
    s.set(State::Multiselectable, on(bit::MULTISELECTABLE) && container);
    s.set(State::Editable, on(bit::EDITABLE) && is_text_input(role));
    s.set(State::Multiline, on(bit::MULTI_LINE) && is_text_input(role));
    if role_name(raw.role) == Some("password text") {
        s.set(State::Protected, true);
    }
    s
}

fn is_checkable(role: &Role) -> bool {
    matches!(role, Role::CheckBox | Role::Radio | Role::Switch | Role::MenuItemCheckbox | Role::MenuItemRadio)
}

fn is_text_input(role: &Role) -> bool {
    matches!(role, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton)
}

/// What `raw` can be asked to do.
pub fn actions(raw: &RawObject, role: &Role) -> ActionSet {
    let mut a = ActionSet::EMPTY;
    // Chromium offers `doDefault` on every node of a page, so it says nothing.
    for name in &raw.actions {
        match name.as_str() {
            "click" | "press" | "activate" | "jump" | "open" | "invoke" | "select" => {
                a.set(Action::Click, true)
            }
            "toggle" => a.set(Action::Toggle, true),
            "expand or contract" | "expand" | "collapse" | "showmenu" => a.set(Action::Expand, true),
            _ => {}
        }
    }
    if is_checkable(role) && a.contains(Action::Click) {
        a.set(Action::Toggle, true);
    }
    if raw.has("Value") || raw.has("EditableText") && raw.state(bit::EDITABLE) {
        a.set(Action::SetValue, true);
    }
    if raw.state(bit::SELECTABLE) {
        a.set(Action::Select, true);
    }
    if raw.state(bit::FOCUSABLE) {
        a.set(Action::Focus, true);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(role: u32, states: &[u32]) -> RawObject {
        RawObject { role, states: states.iter().fold(0, |acc, b| acc | (1 << b)), ..RawObject::default() }
    }

    #[test]
    fn roles_map_by_number_and_context() {
        // 7 is "check box", 43 "push button", 61 "text", 33 "menu".
        assert_eq!(role(&raw(7, &[]), None), Role::CheckBox);
        assert_eq!(role(&raw(43, &[]), None), Role::Button);
        assert_eq!(role(&raw(61, &[bit::EDITABLE]), None), Role::TextBox);
        assert_eq!(role(&raw(61, &[]), None), Role::Text);
        assert_eq!(role(&raw(33, &[]), Some("menu bar")), Role::MenuItem);
        assert_eq!(role(&raw(33, &[]), None), Role::Menu);
        assert_eq!(role(&raw(9_999, &[]), None), Role::Other("role 9999".into()));
    }

    #[test]
    fn web_content_says_its_aria_role() {
        let mut r = raw(0, &[]);
        r.role = 110; // "landmark"
        r.attributes.insert("xml-roles".into(), "navigation".into());
        assert_eq!(role(&r, None), Role::Navigation);
    }

    #[test]
    fn states_follow_role() {
        let cb = raw(7, &[bit::CHECKED, bit::ENABLED, bit::SENSITIVE, bit::FOCUSABLE]);
        let s = states(&cb, &Role::CheckBox);
        assert!(s.contains(State::Checked) && !s.contains(State::Disabled));
        let off = raw(7, &[bit::FOCUSABLE]);
        assert!(states(&off, &Role::CheckBox).contains(State::Disabled));
        // A label is never "disabled" for lacking the enabled bit.
        assert!(!states(&raw(29, &[]), &Role::Label).contains(State::Disabled));
    }
}
