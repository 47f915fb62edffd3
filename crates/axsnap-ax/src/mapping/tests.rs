//! The mapping as tables: roles and subroles to roles, actions and settable attributes to
//! actions, attributes to states.

use axsnap_core::{Action, ActionSet, Role, State, StateSet};

use super::*;
use crate::element::{AxAction, Element, Settable};

fn of(role: &str, subrole: &str) -> Element {
    Element { role: role.into(), subrole: subrole.into(), ..Element::default() }
}

fn acts(list: &[Action]) -> ActionSet {
    list.iter().copied().collect()
}

fn has(list: &[State]) -> StateSet {
    list.iter().copied().collect()
}

fn with(mut e: Element, actions: &[AxAction], settable: &[&str]) -> Element {
    e.actions = actions.to_vec();
    for s in settable {
        e.settable.set(s);
    }
    e
}

#[test]
fn roles_and_subroles_to_roles() {
    let table = [
        ("AXWindow", "AXStandardWindow", Role::Window),
        ("AXWindow", "AXDialog", Role::Dialog),
        ("AXWindow", "AXSystemDialog", Role::Dialog),
        ("AXWindow", "AXFloatingWindow", Role::Window),
        ("AXSheet", "", Role::Dialog),
        ("AXApplication", "", Role::Application),
        ("AXButton", "", Role::Button),
        ("AXButton", "AXCloseButton", Role::Button),
        ("AXButton", "AXSortButton", Role::ColumnHeader),
        ("AXMenuButton", "", Role::Button),
        ("AXCheckBox", "", Role::CheckBox),
        ("AXCheckBox", "AXSwitch", Role::Switch),
        ("AXCheckBox", "AXToggle", Role::Button),
        ("AXRadioButton", "", Role::Radio),
        ("AXRadioButton", "AXTabButton", Role::Tab),
        ("AXRadioGroup", "", Role::Group),
        ("AXTextField", "", Role::TextBox),
        ("AXTextField", "AXSearchField", Role::SearchBox),
        ("AXTextField", "AXSecureTextField", Role::TextBox),
        ("AXSecureTextField", "", Role::TextBox),
        ("AXTextArea", "", Role::TextBox),
        ("AXStaticText", "", Role::Text),
        ("AXPopUpButton", "", Role::ComboBox),
        ("AXComboBox", "", Role::ComboBox),
        ("AXMenuBar", "", Role::MenuBar),
        ("AXMenu", "", Role::Menu),
        ("AXMenuBarItem", "", Role::MenuItem),
        ("AXOutline", "", Role::Tree),
        ("AXTable", "", Role::Table),
        ("AXGrid", "", Role::Grid),
        ("AXRow", "", Role::Row),
        ("AXCell", "", Role::Cell),
        ("AXColumn", "", Role::Generic),
        ("AXList", "", Role::List),
        ("AXScrollArea", "", Role::Generic),
        ("AXSplitGroup", "", Role::Generic),
        ("AXSplitter", "", Role::Separator),
        ("AXToolbar", "", Role::Toolbar),
        ("AXTabGroup", "", Role::TabList),
        ("AXSlider", "", Role::Slider),
        ("AXIncrementor", "", Role::SpinButton),
        ("AXProgressIndicator", "", Role::ProgressBar),
        ("AXBusyIndicator", "", Role::ProgressBar),
        ("AXLevelIndicator", "", Role::Meter),
        ("AXScrollBar", "", Role::ScrollBar),
        ("AXImage", "", Role::Image),
        ("AXLink", "", Role::Link),
        ("AXHeading", "", Role::Heading),
        ("AXWebArea", "", Role::Document),
        ("AXDisclosureTriangle", "", Role::Button),
        ("AXValueIndicator", "", Role::Generic),
        ("AXColorWell", "", Role::Color),
        ("AXHelpTag", "", Role::Tooltip),
        ("AXUnknown", "", Role::Generic),
        ("", "", Role::Generic),
    ];
    for (r, sub, want) in table {
        assert_eq!(role(&of(r, sub), None), want, "{r} {sub}");
    }
}

#[test]
fn context_decides_rows_tabs_and_cells() {
    let outline = of("AXOutline", "");
    let table = of("AXTable", "");
    let tabs = of("AXTabGroup", "");
    let outline_row = of("AXRow", "AXOutlineRow");
    assert_eq!(role(&of("AXRow", "AXOutlineRow"), Some(&outline)), Role::TreeItem);
    assert_eq!(role(&of("AXRow", "AXTableRow"), Some(&table)), Role::Row);
    assert_eq!(role(&of("AXRadioButton", ""), Some(&tabs)), Role::Tab);
    assert_eq!(role(&of("AXCell", ""), Some(&outline_row)), Role::Generic);
    assert_eq!(role(&of("AXCell", ""), Some(&of("AXRow", "AXTableRow"))), Role::Cell);
}

#[test]
fn groups_are_wrappers_until_named_or_landmarks() {
    let table = [
        ("", "", "", Role::Generic),
        ("Path bar", "", "", Role::Group),
        ("", "View", "", Role::Group),
        ("", "", "AXLandmarkMain", Role::Main),
        ("", "", "AXLandmarkNavigation", Role::Navigation),
        ("", "", "AXLandmarkBanner", Role::Banner),
        ("", "", "AXLandmarkContentInfo", Role::ContentInfo),
        ("", "", "AXLandmarkComplementary", Role::Complementary),
        ("", "", "AXLandmarkSearch", Role::Search),
        ("", "", "AXLandmarkRegion", Role::Region),
        ("", "", "AXApplicationDialog", Role::Dialog),
        ("", "", "AXApplicationAlertDialog", Role::AlertDialog),
        ("", "", "AXApplicationAlert", Role::Alert),
        ("", "", "AXApplicationStatus", Role::Status),
        ("", "", "AXDocumentArticle", Role::Article),
        ("", "", "AXTabPanel", Role::TabPanel),
    ];
    for (title, description, sub, want) in table {
        let e = Element { title: title.into(), description: description.into(), ..of("AXGroup", sub) };
        assert_eq!(role(&e, None), want, "{title:?} {description:?} {sub}");
    }
    // WebKit's wrappers offer the context menu and scrolling: still no action of their own.
    let wrapper = with(
        of("AXGroup", ""),
        &[AxAction::ShowMenu, AxAction::Other("AXScrollToVisible".into())],
        &["AXFocused"],
    );
    assert_eq!(actions(&wrapper, &role(&wrapper, None)), ActionSet::EMPTY);
}

#[test]
fn menu_items_checked_separators_and_unknown_roles() {
    let checked = Element { title: "Show Toolbar".into(), mark: "✓".into(), ..of("AXMenuItem", "") };
    assert_eq!(role(&checked, None), Role::MenuItemCheckbox);
    let plain = Element { title: "Zoom In".into(), ..of("AXMenuItem", "") };
    assert_eq!(role(&plain, None), Role::MenuItem);
    let separator = Element { enabled: false, ..of("AXMenuItem", "") };
    assert_eq!(role(&separator, None), Role::Separator);
    // An untitled item one can use is no separator.
    assert_eq!(role(&of("AXMenuItem", ""), None), Role::MenuItem);
    let well = Element { role_description: "date picker".into(), ..of("AXDateField", "") };
    assert_eq!(role(&well, None), Role::Other("date picker".into()));
    assert_eq!(role(&of("AXRuler", ""), None), Role::Other("Ruler".into()));
}

#[test]
fn actions_and_settable_attributes_to_actions() {
    use AxAction::*;
    let table: Vec<(Element, ActionSet)> = vec![
        (with(of("AXButton", ""), &[Press], &[]), acts(&[Action::Click])),
        (with(of("AXButton", ""), &[Press], &["AXFocused"]), acts(&[Action::Click, Action::Focus])),
        (with(of("AXCheckBox", ""), &[Press], &["AXValue"]), acts(&[Action::Click, Action::Toggle])),
        (with(of("AXCheckBox", "AXSwitch"), &[Press], &[]), acts(&[Action::Click, Action::Toggle])),
        (with(of("AXRadioButton", ""), &[Press], &[]), acts(&[Action::Click, Action::Toggle])),
        (with(of("AXRadioButton", "AXTabButton"), &[Press], &[]), acts(&[Action::Click, Action::Select])),
        (with(of("AXTextField", ""), &[Confirm], &["AXValue"]), acts(&[Action::SetValue])),
        (with(of("AXTextField", ""), &[], &[]), ActionSet::EMPTY),
        (with(of("AXPopUpButton", ""), &[Press, ShowMenu], &[]), acts(&[Action::Click, Action::Expand])),
        (with(of("AXSlider", ""), &[Increment, Decrement], &["AXValue"]), acts(&[Action::SetValue])),
        (with(of("AXIncrementor", ""), &[Increment, Decrement], &[]), acts(&[Action::SetValue])),
        (with(of("AXRow", ""), &[], &["AXSelected"]), acts(&[Action::Select])),
        (with(of("AXRow", "AXOutlineRow"), &[], &["AXDisclosing"]), acts(&[Action::Expand])),
        (
            with(of("AXDisclosureTriangle", ""), &[Press], &["AXValue"]),
            acts(&[Action::Click, Action::Expand]),
        ),
        (with(of("AXMenuItem", ""), &[Press, Cancel, Pick], &[]), acts(&[Action::Click])),
        (with(of("AXMenuItem", ""), &[Pick, ShowMenu], &[]), acts(&[Action::Click, Action::Expand])),
        (with(of("AXButton", "AXDefaultButton"), &[Confirm], &[]), acts(&[Action::Click])),
        (with(of("AXWindow", "AXStandardWindow"), &[Raise], &["AXFocused"]), ActionSet::EMPTY),
        (with(of("AXImage", ""), &[ShowMenu], &[]), ActionSet::EMPTY),
        (with(of("AXLink", ""), &[Press, ShowMenu], &["AXFocused"]), acts(&[Action::Click, Action::Focus])),
    ];
    for (e, want) in table {
        let r = role(&e, None);
        assert_eq!(actions(&e, &r), want, "{} {} {:?}", e.role, e.subrole, e.actions);
    }
}

#[test]
fn attributes_to_states() {
    let s = |e: Element| {
        let r = role(&e, None);
        let a = actions(&e, &r);
        states(&e, &r, a)
    };
    let value = |e: Element, v: &str| Element { value: Some(v.into()), ..e };
    let press = |e: Element| with(e, &[AxAction::Press], &[]);
    assert_eq!(s(value(press(of("AXCheckBox", "")), "1")), has(&[State::Checked]));
    assert_eq!(s(value(press(of("AXCheckBox", "")), "0")), StateSet::EMPTY);
    assert_eq!(s(value(press(of("AXCheckBox", "")), "2")), has(&[State::Mixed]));
    assert_eq!(s(value(press(of("AXRadioButton", "")), "1")), has(&[State::Checked]));
    assert_eq!(s(value(press(of("AXCheckBox", "AXSwitch")), "1")), has(&[State::Checked]));
    assert_eq!(s(value(press(of("AXCheckBox", "AXToggle")), "1")), has(&[State::Pressed]));
    assert_eq!(s(value(press(of("AXRadioButton", "AXTabButton")), "1")), has(&[State::Selected]));
    assert_eq!(s(Element { enabled: false, ..press(of("AXButton", "")) }), has(&[State::Disabled]));
    // A disabled group is no news.
    assert_eq!(s(Element { enabled: false, ..of("AXGroup", "") }), StateSet::EMPTY);
    assert_eq!(
        s(Element { focused: true, ..of("AXTextArea", "") }),
        has(&[State::Focused, State::Multiline])
    );
    let field = with(value(of("AXTextField", ""), ""), &[], &["AXValue", "AXFocused"]);
    assert_eq!(s(field), has(&[State::Focusable, State::Editable]));
    assert_eq!(s(value(of("AXTextField", ""), "x")), has(&[State::Readonly]));
    let secure = with(value(of("AXTextField", "AXSecureTextField"), "pw"), &[], &["AXValue"]);
    assert_eq!(s(secure), has(&[State::Editable, State::Protected]));
    let row = Element { expanded: Some(false), selected: true, ..of("AXRow", "") };
    let outline = of("AXOutline", "");
    let r = role(&row, Some(&outline));
    assert_eq!(states(&row, &r, actions(&row, &r)), has(&[State::Selected, State::Collapsed]));
    let popup = Element { expanded: Some(true), ..press(value(of("AXPopUpButton", ""), "Documents")) };
    assert_eq!(s(popup), has(&[State::Expanded]));
    let triangle = press(value(of("AXDisclosureTriangle", ""), "0"));
    assert_eq!(s(triangle), has(&[State::Collapsed]));
    assert_eq!(s(of("AXSheet", "")), has(&[State::Modal]));
    assert_eq!(s(Element { modal: true, ..of("AXWindow", "AXDialog") }), has(&[State::Modal]));
    assert_eq!(
        s(Element { mark: "✓".into(), title: "Bold".into(), ..of("AXMenuItem", "") }),
        has(&[State::Checked])
    );
    assert_eq!(s(Element { required: true, ..of("AXTextField", "") }), has(&[State::Required]));
    assert_eq!(s(of("AXBusyIndicator", "")), has(&[State::Busy]));
}

#[test]
fn ranges_for_ranged_roles_only() {
    let slider = Element { min_value: Some(0.0), max_value: Some(10.0), ..of("AXSlider", "") };
    assert_eq!(range(&slider, &Role::Slider).map(|r| r.to_string()).as_deref(), Some("0 to 10"));
    assert_eq!(range(&slider, &Role::Button), None);
    assert_eq!(range(&Element { max_value: None, ..slider.clone() }, &Role::Slider), None);
    assert_eq!(Settable::default(), of("AXButton", "").settable);
}
