//! From the AX vocabulary to the core's: roles and subroles to roles, actions and settable
//! attributes to actions, attributes to states.
//!
//! The mapping decides what an element *is*, never what the agent sees: unwrapping unnamed
//! groups, dropping blank images and repeated labels is the core's projection, shared by every
//! backend. So an unnamed `AXGroup` with no action of its own (the wrappers Electron and
//! WebKit nest pages in) maps to a `generic` the core unwraps, while a named group stays a
//! `group`.
//!
//! Two AX actions say nothing on their own: WebKit and Electron offer `AXShowMenu` (the
//! context menu) and `AXScrollToVisible` on nearly every element, so `AXShowMenu` counts only
//! on what opens a menu of its own (a pop-up button, a menu item, a menu button); and a
//! settable `AXFocused` is an action only where something else is, or on a widget, so that a
//! focusable wrapper is still a wrapper. `AXRaise` (a window's) and `AXCancel` have no core
//! action: raising is the desktop layer's window focus, cancelling the Escape key.

use axsnap_core::{Action, ActionSet, Role, State, StateSet, ValueRange};

use crate::element::{AxAction, Element};

/// The core role of `e`, whose parent is `parent` (an outline's row is a tree item, a tab
/// group's radio button a tab).
pub fn role(e: &Element, parent: Option<&Element>) -> Role {
    let parent_role = parent.map(|p| p.role.as_str()).unwrap_or_default();
    match (e.role.as_str(), e.subrole.as_str()) {
        (_, "AXSecureTextField") => Role::TextBox,
        (_, "AXSearchField") => Role::SearchBox,
        (_, "AXSwitch") => Role::Switch,
        (_, "AXToggle") => Role::Button,
        (_, "AXTabButton") => Role::Tab,
        // A table's header button sorts by its column.
        ("AXButton", "AXSortButton") => Role::ColumnHeader,
        ("AXWindow", "AXDialog" | "AXSystemDialog") => Role::Dialog,
        ("AXWindow", _) => Role::Window,
        ("AXSheet", _) => Role::Dialog,
        ("AXApplication", _) => Role::Application,
        ("AXButton" | "AXMenuButton", _) => Role::Button,
        ("AXCheckBox", _) => Role::CheckBox,
        ("AXRadioButton", _) if parent_role == "AXTabGroup" => Role::Tab,
        ("AXRadioButton", _) => Role::Radio,
        ("AXRadioGroup", _) => Role::Group,
        ("AXTextField" | "AXSecureTextField" | "AXTextArea", _) => Role::TextBox,
        ("AXStaticText", _) => Role::Text,
        ("AXPopUpButton" | "AXComboBox", _) => Role::ComboBox,
        ("AXMenuBar", _) => Role::MenuBar,
        ("AXMenu", _) => Role::Menu,
        ("AXMenuItem", _) if is_separator(e) => Role::Separator,
        ("AXMenuItem", _) if !e.mark.trim().is_empty() => Role::MenuItemCheckbox,
        ("AXMenuItem" | "AXMenuBarItem", _) => Role::MenuItem,
        ("AXOutline", _) => Role::Tree,
        ("AXRow", _) if parent_role == "AXOutline" => Role::TreeItem,
        ("AXTable", _) => Role::Table,
        ("AXGrid", _) => Role::Grid,
        ("AXRow", _) => Role::Row,
        // A one-column outline's cell is the row's plumbing, not a table's cell.
        ("AXCell", _) if parent.is_some_and(|p| p.subrole == "AXOutlineRow") => Role::Generic,
        ("AXCell", _) => Role::Cell,
        ("AXList", _) => Role::List,
        ("AXGroup", sub) => group_role(e, sub),
        ("AXToolbar", _) => Role::Toolbar,
        ("AXTabGroup", _) => Role::TabList,
        ("AXSlider", _) => Role::Slider,
        ("AXIncrementor" | "AXStepper", _) => Role::SpinButton,
        ("AXProgressIndicator" | "AXBusyIndicator", _) => Role::ProgressBar,
        ("AXLevelIndicator" | "AXRelevanceIndicator", _) => Role::Meter,
        ("AXScrollBar", _) => Role::ScrollBar,
        ("AXImage", _) => Role::Image,
        ("AXLink", _) => Role::Link,
        ("AXHeading", _) => Role::Heading,
        ("AXWebArea", _) => Role::Document,
        ("AXDisclosureTriangle", _) => Role::Button,
        ("AXColorWell", _) => Role::Color,
        ("AXHelpTag", _) => Role::Tooltip,
        ("AXSplitter", _) => Role::Separator,
        // Layout: a scroll area, a split view, a column (whose cells its rows hold), a
        // slider's thumb mean nothing until named.
        ("AXScrollArea" | "AXSplitGroup" | "AXLayoutArea" | "AXLayoutItem" | "AXMatte", _) => Role::Generic,
        ("AXColumn" | "AXValueIndicator" | "AXGrowArea" | "AXUnknown" | "", _) => Role::Generic,
        // Roles newer than this table: the platform's words for it.
        (other, _) => {
            let words = e.role_description.trim();
            Role::Other(if words.is_empty() {
                other.strip_prefix("AX").unwrap_or(other).to_string()
            } else {
                words.to_string()
            })
        }
    }
}

/// A group's role from its subrole (web content says its landmark there); an unnamed group
/// with no action of its own is a wrapper.
fn group_role(e: &Element, subrole: &str) -> Role {
    match subrole {
        "AXLandmarkMain" => Role::Main,
        "AXLandmarkNavigation" => Role::Navigation,
        "AXLandmarkBanner" => Role::Banner,
        "AXLandmarkContentInfo" => Role::ContentInfo,
        "AXLandmarkComplementary" => Role::Complementary,
        "AXLandmarkSearch" => Role::Search,
        "AXLandmarkRegion" => Role::Region,
        "AXApplicationDialog" => Role::Dialog,
        "AXApplicationAlertDialog" => Role::AlertDialog,
        "AXApplicationAlert" => Role::Alert,
        "AXApplicationStatus" => Role::Status,
        "AXDocumentArticle" => Role::Article,
        "AXTabPanel" => Role::TabPanel,
        _ if e.title.trim().is_empty() && e.description.trim().is_empty() => Role::Generic,
        _ => Role::Group,
    }
}

/// A menu's separator: AppKit gives it as a menu item with no title, disabled, with nothing
/// under it (there is no separator role in AX).
fn is_separator(e: &Element) -> bool {
    e.role == "AXMenuItem" && e.title.trim().is_empty() && e.description.trim().is_empty() && !e.enabled
}

/// Whether `role` takes typed text.
pub fn is_text_input(role: &Role) -> bool {
    matches!(role, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton)
}

/// Whether an element of `role` is checked or not by its `AXValue` (0, 1, 2 for mixed).
pub fn is_checkable(e: &Element, role: &Role) -> bool {
    matches!(role, Role::CheckBox | Role::Radio | Role::Switch) || e.subrole == "AXToggle"
}

/// Whether `e` holds a secret: a secure text field, by role or subrole.
pub fn is_secret(e: &Element) -> bool {
    e.role == "AXSecureTextField" || e.subrole == "AXSecureTextField"
}

/// Whether `AXShowMenu` on an element of `role` opens a menu of its own (see the module doc).
fn owns_menu(e: &Element, role: &Role) -> bool {
    matches!(role, Role::ComboBox | Role::MenuItem | Role::MenuItemCheckbox) || e.role == "AXMenuButton"
}

/// What `e` (of `role`) can be asked to do.
pub fn actions(e: &Element, role: &Role) -> ActionSet {
    let mut a = ActionSet::EMPTY;
    let press = e.has(&AxAction::Press) || e.has(&AxAction::Pick);
    let confirm = e.has(&AxAction::Confirm) && !is_text_input(role);
    a.set(Action::Click, press || confirm);
    let checkable = is_checkable(e, role) || *role == Role::MenuItemCheckbox;
    a.set(Action::Toggle, checkable && (press || e.settable.value));
    let opens = e.has(&AxAction::ShowMenu) && owns_menu(e, role);
    a.set(Action::Expand, opens || e.settable.expanded || e.role == "AXDisclosureTriangle");
    a.set(Action::Select, e.settable.selected || (*role == Role::Tab && press));
    let steps = e.has(&AxAction::Increment) || e.has(&AxAction::Decrement);
    a.set(Action::SetValue, (e.settable.value && !checkable && e.role != "AXDisclosureTriangle") || steps);
    if e.settable.focused && e.enabled && (!a.is_empty() || role.is_widget()) {
        a.set(Action::Focus, true);
    }
    a
}

/// The core states of `e`, given its role and actions.
pub fn states(e: &Element, role: &Role, actions: ActionSet) -> StateSet {
    let mut s = StateSet::EMPTY;
    // Only what one could operate is disabled: a disabled group is no news.
    if !e.enabled && (role.is_widget() || !actions.is_empty()) {
        s.set(State::Disabled, true);
    }
    s.set(State::Focused, e.focused);
    s.set(State::Focusable, e.settable.focused);
    let number = e.value.as_deref().map(str::trim);
    if is_checkable(e, role) {
        let on = matches!(number, Some("1"));
        match role {
            Role::Button => s.set(State::Pressed, on),
            _ => s.set(State::Checked, on),
        }
        s.set(State::Mixed, matches!(number, Some("2")));
    }
    if *role == Role::MenuItemCheckbox {
        s.set(State::Checked, true);
    }
    // A tab says it is the one shown by its value, as the radio button it is.
    let selected = e.selected || (*role == Role::Tab && matches!(number, Some("1")));
    s.set(State::Selected, selected && !matches!(role, Role::Radio | Role::CheckBox | Role::Switch));
    let expanded = match e.expanded {
        Some(x) => Some(x),
        None if e.role == "AXDisclosureTriangle" => Some(matches!(number, Some("1"))),
        None => None,
    };
    match expanded {
        Some(true) => s.set(State::Expanded, true),
        Some(false) if actions.contains(Action::Expand) || *role == Role::TreeItem => {
            s.set(State::Collapsed, true)
        }
        _ => {}
    }
    s.set(State::Required, e.required);
    if is_text_input(role) || *role == Role::Document {
        // A field is read-only when its value cannot be set; a pop-up button is chosen from,
        // not typed into, and says so by having no settable value too.
        let fixed = e.value.is_some() && !e.settable.value && e.role != "AXPopUpButton";
        s.set(State::Readonly, fixed && *role != Role::Document);
        s.set(State::Editable, actions.contains(Action::SetValue) && !s.contains(State::Readonly));
    }
    s.set(State::Multiline, e.role == "AXTextArea");
    s.set(State::Modal, e.modal || e.role == "AXSheet");
    s.set(State::Busy, e.role == "AXBusyIndicator");
    s.set(State::Protected, is_secret(e));
    s
}

/// The bounds of a ranged control's value, for the roles that have one.
pub fn range(e: &Element, role: &Role) -> Option<ValueRange> {
    let ranged =
        matches!(role, Role::Slider | Role::SpinButton | Role::ProgressBar | Role::Meter | Role::ScrollBar);
    if !ranged {
        return None;
    }
    ValueRange::new(e.min_value?, e.max_value?, None)
}

#[cfg(test)]
mod tests;
