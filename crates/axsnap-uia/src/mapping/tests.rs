//! The mapping as tables: control types to roles, patterns to actions, state to states.

use axsnap_core::{Action, ActionSet, Role, State, StateSet};

use super::*;
use crate::element::{
    Element, ExpandState, LegacyState, Patterns, RangeState, SelectionState, ToggleState, ValueState,
};
use crate::ids::control;

fn of(control_type: i32, patterns: Patterns) -> Element {
    Element { control_type: Some(control_type), patterns, ..Element::default() }
}

fn acts(list: &[Action]) -> ActionSet {
    list.iter().copied().collect()
}

fn has(list: &[State]) -> StateSet {
    list.iter().copied().collect()
}

#[test]
fn control_types_to_roles() {
    let table = [
        (control::BUTTON, Role::Button),
        (control::SPLIT_BUTTON, Role::Button),
        (control::CALENDAR, Role::Grid),
        (control::CHECK_BOX, Role::CheckBox),
        (control::COMBO_BOX, Role::ComboBox),
        (control::EDIT, Role::TextBox),
        (control::HYPERLINK, Role::Link),
        (control::IMAGE, Role::Image),
        (control::LIST_ITEM, Role::ListItem),
        (control::LIST, Role::List),
        (control::MENU, Role::Menu),
        (control::MENU_BAR, Role::MenuBar),
        (control::MENU_ITEM, Role::MenuItem),
        (control::PROGRESS_BAR, Role::ProgressBar),
        (control::RADIO_BUTTON, Role::Radio),
        (control::SCROLL_BAR, Role::ScrollBar),
        (control::SLIDER, Role::Slider),
        (control::SPINNER, Role::SpinButton),
        (control::STATUS_BAR, Role::Status),
        (control::TAB, Role::TabList),
        (control::TAB_ITEM, Role::Tab),
        (control::TEXT, Role::Text),
        (control::TOOL_BAR, Role::Toolbar),
        (control::APP_BAR, Role::Toolbar),
        (control::TOOL_TIP, Role::Tooltip),
        (control::TREE, Role::Tree),
        (control::TREE_ITEM, Role::TreeItem),
        (control::GROUP, Role::Group),
        (control::THUMB, Role::Generic),
        (control::DATA_GRID, Role::Grid),
        (control::DATA_ITEM, Role::Row),
        (control::DOCUMENT, Role::Document),
        (control::WINDOW, Role::Window),
        (control::PANE, Role::Generic),
        (control::SEMANTIC_ZOOM, Role::Generic),
        (control::HEADER, Role::Row),
        (control::HEADER_ITEM, Role::ColumnHeader),
        (control::TABLE, Role::Table),
        (control::TITLE_BAR, Role::Banner),
        (control::SEPARATOR, Role::Separator),
    ];
    for (id, want) in table {
        assert_eq!(control_role(Some(id), "whatever"), want, "control type {id}");
    }
    // Custom and unknown types keep the platform's word, in English when it gives none.
    assert_eq!(control_role(Some(control::CUSTOM), "rating"), Role::Other("rating".into()));
    assert_eq!(control_role(Some(control::CUSTOM), ""), Role::Other("custom".into()));
    assert_eq!(control_role(Some(50_099), ""), Role::Other("control type 50099".into()));
    assert_eq!(control_role(None, "pane"), Role::Generic);
}

#[test]
fn patterns_refine_roles() {
    let selection = Patterns { selection: Some(SelectionState::default()), ..Patterns::default() };
    let item = Patterns { selection_item: Some(false), ..Patterns::default() };
    let toggle = Patterns { toggle: Some(ToggleState::Off), ..Patterns::default() };
    let table = [
        (of(control::LIST, selection.clone()), Role::ListBox),
        (of(control::LIST, Patterns::default()), Role::List),
        (of(control::LIST_ITEM, item.clone()), Role::Option),
        (of(control::LIST_ITEM, Patterns::default()), Role::ListItem),
        (of(control::MENU_ITEM, toggle), Role::MenuItemCheckbox),
        (of(control::MENU_ITEM, item), Role::MenuItemRadio),
        (Element { dialog: true, ..of(control::WINDOW, Patterns::default()) }, Role::Dialog),
        (Element { dialog: true, ..of(control::PANE, Patterns::default()) }, Role::Dialog),
        (Element { heading_level: Some(2), ..of(control::TEXT, Patterns::default()) }, Role::Heading),
        (Element { heading_level: Some(2), ..of(control::BUTTON, Patterns::default()) }, Role::Button),
    ];
    for (e, want) in table {
        assert_eq!(role(&e), want, "{e:?}");
    }
}

#[test]
fn patterns_to_actions() {
    let legacy = |a: &str| Some(LegacyState { default_action: a.into(), ..LegacyState::default() });
    let value = |read_only| Some(ValueState { value: "x".into(), read_only });
    let table: Vec<(i32, Patterns, &[Action])> = vec![
        (control::BUTTON, Patterns { invoke: true, ..Patterns::default() }, &[Action::Click]),
        (
            control::CHECK_BOX,
            Patterns { toggle: Some(ToggleState::On), ..Patterns::default() },
            &[Action::Toggle],
        ),
        (
            control::MENU_ITEM,
            Patterns { expand_collapse: Some(ExpandState::Collapsed), ..Patterns::default() },
            &[Action::Expand],
        ),
        // A leaf of an ExpandCollapse has nothing to expand.
        (
            control::MENU_ITEM,
            Patterns { expand_collapse: Some(ExpandState::LeafNode), ..Patterns::default() },
            &[],
        ),
        (
            control::LIST_ITEM,
            Patterns { selection_item: Some(true), ..Patterns::default() },
            &[Action::Select],
        ),
        (
            control::LIST,
            Patterns { selection: Some(SelectionState::default()), ..Patterns::default() },
            &[Action::Select],
        ),
        (control::EDIT, Patterns { value: value(false), ..Patterns::default() }, &[Action::SetValue]),
        (control::EDIT, Patterns { value: value(true), ..Patterns::default() }, &[]),
        // A title bar's value is its window's title, a link's its address: no field.
        (control::TITLE_BAR, Patterns { value: value(false), ..Patterns::default() }, &[]),
        (
            control::HYPERLINK,
            Patterns { value: value(false), invoke: true, ..Patterns::default() },
            &[Action::Click],
        ),
        (
            control::SLIDER,
            Patterns {
                range_value: Some(RangeState { read_only: false, ..RangeState::default() }),
                ..Patterns::default()
            },
            &[Action::SetValue],
        ),
        (control::PANE, Patterns { legacy: legacy("Press"), ..Patterns::default() }, &[Action::Click]),
        (control::PANE, Patterns { legacy: legacy(""), ..Patterns::default() }, &[]),
        // ScrollItem is no action; Scroll is one only where it can scroll.
        (control::LIST_ITEM, Patterns { scroll_item: true, ..Patterns::default() }, &[]),
        (
            control::PANE,
            Patterns {
                scroll: Some(crate::element::ScrollState { horizontal: false, vertical: true }),
                ..Patterns::default()
            },
            &[Action::Scroll],
        ),
        (
            control::PANE,
            Patterns { scroll: Some(crate::element::ScrollState::default()), ..Patterns::default() },
            &[],
        ),
        // Visual Studio's editor: Text, no Value, focusable: it takes keys.
        (control::EDIT, Patterns { text: true, ..Patterns::default() }, &[]),
    ];
    for (ct, patterns, want) in table {
        let e = of(ct, patterns);
        assert_eq!(actions(&e, &role(&e)), acts(want), "{e:?}");
    }
    let editor =
        Element { focusable: true, ..of(control::EDIT, Patterns { text: true, ..Patterns::default() }) };
    assert_eq!(actions(&editor, &Role::TextBox), acts(&[Action::SetValue, Action::Focus]));
}

#[test]
fn focus_alone_keeps_no_wrapper() {
    let pane = Element { focusable: true, ..of(control::PANE, Patterns::default()) };
    assert!(actions(&pane, &Role::Generic).is_empty());
    let button = Element { focusable: true, ..of(control::BUTTON, Patterns::default()) };
    assert_eq!(actions(&button, &Role::Button), acts(&[Action::Focus]));
}

#[test]
fn state_to_states() {
    let legacy_state = |bits| Some(LegacyState { state: bits, ..LegacyState::default() });
    let table: Vec<(Element, &[State])> = vec![
        (
            of(control::CHECK_BOX, Patterns { toggle: Some(ToggleState::On), ..Patterns::default() }),
            &[State::Checked],
        ),
        (of(control::CHECK_BOX, Patterns { toggle: Some(ToggleState::Off), ..Patterns::default() }), &[]),
        (
            of(
                control::CHECK_BOX,
                Patterns { toggle: Some(ToggleState::Indeterminate), ..Patterns::default() },
            ),
            &[State::Mixed],
        ),
        (
            of(control::BUTTON, Patterns { toggle: Some(ToggleState::On), ..Patterns::default() }),
            &[State::Pressed],
        ),
        // The taskbar's button of the active window: pressed by MSAA's word.
        (
            of(control::BUTTON, Patterns { legacy: legacy_state(0x4000_0008), ..Patterns::default() }),
            &[State::Pressed],
        ),
        (
            of(control::RADIO_BUTTON, Patterns { selection_item: Some(true), ..Patterns::default() }),
            &[State::Checked],
        ),
        (
            of(control::LIST_ITEM, Patterns { selection_item: Some(true), ..Patterns::default() }),
            &[State::Selected],
        ),
        (
            of(
                control::COMBO_BOX,
                Patterns { expand_collapse: Some(ExpandState::Collapsed), ..Patterns::default() },
            ),
            &[State::Collapsed],
        ),
        (
            of(
                control::TREE_ITEM,
                Patterns { expand_collapse: Some(ExpandState::PartiallyExpanded), ..Patterns::default() },
            ),
            &[State::Expanded],
        ),
        (
            of(
                control::EDIT,
                Patterns {
                    value: Some(ValueState { read_only: true, ..ValueState::default() }),
                    ..Patterns::default()
                },
            ),
            &[State::Readonly],
        ),
        (
            of(control::EDIT, Patterns { value: Some(ValueState::default()), ..Patterns::default() }),
            &[State::Editable],
        ),
        (
            of(
                control::LIST,
                Patterns {
                    selection: Some(SelectionState { multiple: true, required: false }),
                    ..Patterns::default()
                },
            ),
            &[State::Multiselectable],
        ),
        (
            of(
                control::WINDOW,
                Patterns {
                    window: Some(crate::element::WindowState { modal: true, ..Default::default() }),
                    ..Patterns::default()
                },
            ),
            &[State::Modal],
        ),
        (Element { password: true, ..of(control::EDIT, Patterns::default()) }, &[State::Protected]),
        (
            of(control::EDIT, Patterns { legacy: legacy_state(msaa::PROTECTED), ..Patterns::default() }),
            &[State::Protected],
        ),
        (Element { enabled: false, ..of(control::BUTTON, Patterns::default()) }, &[State::Disabled]),
        // A disabled pane is no news; an offscreen or focused one says where it is.
        (Element { enabled: false, ..of(control::PANE, Patterns::default()) }, &[]),
        (
            Element { enabled: false, focusable: true, ..of(control::PANE, Patterns::default()) },
            &[State::Focusable],
        ),
        (
            Element { offscreen: true, focused: true, ..of(control::PANE, Patterns::default()) },
            &[State::Focused, State::Offscreen],
        ),
        (Element { required: true, ..of(control::EDIT, Patterns::default()) }, &[State::Required]),
    ];
    for (e, want) in table {
        let r = role(&e);
        assert_eq!(states(&e, &r, actions(&e, &r)), has(want), "{e:?}");
    }
}

#[test]
fn range_values_read_plainly() {
    assert_eq!(range_text(50.0), "50");
    assert_eq!(range_text(0.25), "0.25");
    assert_eq!(range_text(-3.0), "-3");
}
