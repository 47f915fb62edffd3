//! From UI Automation's vocabulary to the core's: control types to roles, patterns to
//! actions, properties and pattern state to states.
//!
//! The mapping decides what an element *is*, never what the agent sees: unwrapping anonymous
//! panes, dropping blank images and repeated labels, and leaving click points off leaves are
//! the core's projection rules, which every backend shares. So an unnamed Pane maps to a
//! `generic` with no action (the core unwraps it), while a pane with an AutomationId, a name
//! or a pattern that acts (Invoke, Toggle, ExpandCollapse, Selection, SelectionItem, a
//! writable Value) keeps something of its own and stays. Focusability alone is not an action
//! here: nearly every Win32 pane is keyboard-focusable, and a pane one can only focus is
//! still a wrapper. ScrollItem is no action either (it scrolls the item into view, which
//! acting does anyway).

use axsnap_core::{Action, ActionSet, Role, State, StateSet};

use crate::element::{Element, ExpandState, ToggleState};
use crate::ids::control;

/// MSAA `STATE_SYSTEM_*` bits, as LegacyIAccessible's `State` gives them.
pub mod msaa {
    /// Pressed (a toggle button, the taskbar button of the active window).
    pub const PRESSED: u32 = 0x8;
    /// Read-only.
    pub const READONLY: u32 = 0x40;
    /// Busy.
    pub const BUSY: u32 = 0x800;
    /// Protected: a password field.
    pub const PROTECTED: u32 = 0x2000_0000;
}

/// The core role of control type `id` (`localized` is the element's LocalizedControlType,
/// kept for a control type the core has no role for), before the element's patterns refine it
/// ([`role`]).
pub fn control_role(id: Option<i32>, localized: &str) -> Role {
    let Some(id) = id else { return Role::Generic };
    match id {
        control::BUTTON | control::SPLIT_BUTTON => Role::Button,
        control::CALENDAR => Role::Grid,
        control::CHECK_BOX => Role::CheckBox,
        control::COMBO_BOX => Role::ComboBox,
        control::EDIT => Role::TextBox,
        control::HYPERLINK => Role::Link,
        control::IMAGE => Role::Image,
        control::LIST_ITEM => Role::ListItem,
        control::LIST => Role::List,
        control::MENU => Role::Menu,
        control::MENU_BAR => Role::MenuBar,
        control::MENU_ITEM => Role::MenuItem,
        control::PROGRESS_BAR => Role::ProgressBar,
        control::RADIO_BUTTON => Role::Radio,
        control::SCROLL_BAR => Role::ScrollBar,
        control::SLIDER => Role::Slider,
        control::SPINNER => Role::SpinButton,
        control::STATUS_BAR => Role::Status,
        control::TAB => Role::TabList,
        control::TAB_ITEM => Role::Tab,
        control::TEXT => Role::Text,
        control::TOOL_BAR | control::APP_BAR => Role::Toolbar,
        control::TOOL_TIP => Role::Tooltip,
        control::TREE => Role::Tree,
        control::TREE_ITEM => Role::TreeItem,
        control::GROUP => Role::Group,
        // A scroll bar's or a slider's drag handle: nothing of its own to name or invoke.
        control::THUMB => Role::Generic,
        control::DATA_GRID => Role::Grid,
        control::DATA_ITEM => Role::Row,
        control::DOCUMENT => Role::Document,
        control::WINDOW => Role::Window,
        // Win32's and XAML's layout boxes: a pane means nothing until it is named.
        control::PANE | control::SEMANTIC_ZOOM => Role::Generic,
        // A table's or list view's row of column headers.
        control::HEADER => Role::Row,
        control::HEADER_ITEM => Role::ColumnHeader,
        control::TABLE => Role::Table,
        // As AT-SPI's "title bar": the strip with the window's title and its buttons.
        control::TITLE_BAR => Role::Banner,
        control::SEPARATOR => Role::Separator,
        // Custom, and control types newer than this table: the platform's own word.
        _ if !localized.trim().is_empty() => Role::Other(localized.trim().to_string()),
        control::CUSTOM => Role::Other("custom".into()),
        other => Role::Other(format!("control type {other}")),
    }
}

/// The core role of `e`: its control type's, refined by what its patterns and properties say
/// (a list whose items are selected is a list box, a window that is a dialog a dialog).
pub fn role(e: &Element) -> Role {
    let base = control_role(e.control_type, &e.localized_control_type);
    let p = &e.patterns;
    match base {
        Role::List if p.selection.is_some() => Role::ListBox,
        Role::ListItem if p.selection_item.is_some() => Role::Option,
        Role::MenuItem if p.toggle.is_some() => Role::MenuItemCheckbox,
        Role::MenuItem if p.selection_item.is_some() => Role::MenuItemRadio,
        Role::Window | Role::Generic | Role::Group if e.dialog || p.window.is_some_and(|w| w.modal) => {
            Role::Dialog
        }
        r if e.heading_level.is_some() && !r.is_widget() => Role::Heading,
        r => r,
    }
}

/// Whether `role` takes typed text.
pub fn is_text_input(role: &Role) -> bool {
    matches!(role, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton)
}

/// Whether `role` is a radio, checked by being selected (UIA's radio buttons select).
pub(crate) fn is_radio(role: &Role) -> bool {
    matches!(role, Role::Radio | Role::MenuItemRadio)
}

/// Whether the Value pattern of an element of `role` is a field one can write: a title bar's
/// holds its window's title and a hyperlink's its address, neither typed into.
pub(crate) fn value_is_a_field(role: &Role) -> bool {
    !matches!(role, Role::Banner | Role::Link)
}

/// Whether `e` (of `role`) is an editor that takes keys although it has no writable Value: an
/// Edit or Document with the Text pattern that takes the keyboard focus (Visual Studio's
/// editor, a rich text box).
pub(crate) fn is_key_editor(e: &Element, role: &Role) -> bool {
    matches!(role, Role::TextBox | Role::Document)
        && e.patterns.value.is_none()
        && e.patterns.text
        && e.focusable
        && e.enabled
}

/// What `e` (of `role`) can be asked to do.
pub fn actions(e: &Element, role: &Role) -> ActionSet {
    let p = &e.patterns;
    let mut a = ActionSet::EMPTY;
    let default_action = p.legacy.as_ref().is_some_and(|l| !l.default_action.trim().is_empty());
    a.set(Action::Click, p.invoke || default_action);
    a.set(Action::Toggle, p.toggle.is_some());
    a.set(Action::Expand, p.expand_collapse.is_some_and(|s| s != ExpandState::LeafNode));
    a.set(Action::Select, p.selection_item.is_some() || p.selection.is_some());
    let writable_value = p.value.as_ref().is_some_and(|v| !v.read_only) && value_is_a_field(role);
    let writable_range = p.range_value.is_some_and(|r| !r.read_only);
    a.set(Action::SetValue, writable_value || writable_range || is_key_editor(e, role));
    a.set(Action::Scroll, p.scroll.is_some_and(|s| s.horizontal || s.vertical));
    // Focus is offered where something else is: on a bare pane it would keep a wrapper.
    if e.focusable && e.enabled && (!a.is_empty() || role.is_widget()) {
        a.set(Action::Focus, true);
    }
    a
}

/// The core states of `e`, given its role and actions.
pub fn states(e: &Element, role: &Role, actions: ActionSet) -> StateSet {
    let p = &e.patterns;
    let legacy = p.legacy.as_ref().map(|l| l.state).unwrap_or(0);
    let mut s = StateSet::EMPTY;
    // Only what one could operate is disabled: a disabled pane is no news (and focusability
    // does not count, as for actions: a disabled Win32 pane takes focus too).
    if !e.enabled && (role.is_widget() || !actions.is_empty()) {
        s.set(State::Disabled, true);
    }
    s.set(State::Focused, e.focused);
    s.set(State::Focusable, e.focusable);
    s.set(State::Offscreen, e.offscreen);
    match p.toggle {
        Some(ToggleState::Indeterminate) => s.set(State::Mixed, true),
        Some(ToggleState::On) if *role == Role::Button => s.set(State::Pressed, true),
        Some(ToggleState::On) => s.set(State::Checked, true),
        Some(ToggleState::Off) | None => {}
    }
    // A button with no Toggle pattern that MSAA says is pressed: the taskbar's button of the
    // active window.
    if *role == Role::Button && p.toggle.is_none() && legacy & msaa::PRESSED != 0 {
        s.set(State::Pressed, true);
    }
    if let Some(selected) = p.selection_item {
        if is_radio(role) {
            s.set(State::Checked, selected);
        } else {
            s.set(State::Selected, selected);
        }
    }
    match p.expand_collapse {
        Some(ExpandState::Collapsed) => s.set(State::Collapsed, true),
        Some(ExpandState::Expanded | ExpandState::PartiallyExpanded) => s.set(State::Expanded, true),
        Some(ExpandState::LeafNode) | None => {}
    }
    s.set(State::Required, e.required);
    let value_readonly = p.value.as_ref().is_some_and(|v| v.read_only) || legacy & msaa::READONLY != 0;
    let range_readonly = p.range_value.is_some_and(|r| r.read_only);
    if is_text_input(role) && p.value.is_some() {
        s.set(State::Readonly, value_readonly);
    } else if matches!(role, Role::Slider | Role::SpinButton) && p.range_value.is_some() {
        s.set(State::Readonly, range_readonly);
    }
    if is_text_input(role) || *role == Role::Document {
        s.set(State::Editable, actions.contains(Action::SetValue) && !s.contains(State::Readonly));
    }
    s.set(State::Busy, legacy & msaa::BUSY != 0);
    s.set(State::Modal, p.window.is_some_and(|w| w.modal));
    s.set(State::Multiselectable, p.selection.is_some_and(|x| x.multiple));
    s.set(State::Protected, is_secret(e));
    s
}

/// Whether `e` holds a secret: UIA's `IsPassword`, or MSAA's protected state.
pub fn is_secret(e: &Element) -> bool {
    e.password || e.patterns.legacy.as_ref().is_some_and(|l| l.state & msaa::PROTECTED != 0)
}

/// A RangeValue number as a value: whole numbers without a fraction (`50`, not `50.0`).
pub fn range_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests;
