//! UI Automation's numbers: property, control type and control pattern identifiers.
//!
//! The values are Windows' own (`UIAutomationClient.h`, the `UIA_*Id` constants), the same on
//! every system, so recordings are read by them. Checked against Microsoft's documentation of
//! the identifiers and against the recordings themselves, which name each id beside its value
//! (`"30003": {"Id": 30003, "Name": "ControlType"}`); the tests below hold them to that.

/// Automation element property identifiers (`UIA_*PropertyId`).
pub mod property {
    /// `RuntimeId`: the element's identity while it lives, an array of integers.
    pub const RUNTIME_ID: i32 = 30000;
    /// `BoundingRectangle`: `[left, top, width, height]` in screen pixels.
    pub const BOUNDING_RECTANGLE: i32 = 30001;
    /// `ProcessId`: the process that provides the element.
    pub const PROCESS_ID: i32 = 30002;
    /// `ControlType`: one of the [`super::control`] ids.
    pub const CONTROL_TYPE: i32 = 30003;
    /// `LocalizedControlType`: the control type in the user's words (`button`, `datagrid`).
    pub const LOCALIZED_CONTROL_TYPE: i32 = 30004;
    /// `Name`.
    pub const NAME: i32 = 30005;
    /// `HasKeyboardFocus`.
    pub const HAS_KEYBOARD_FOCUS: i32 = 30008;
    /// `IsKeyboardFocusable`.
    pub const IS_KEYBOARD_FOCUSABLE: i32 = 30009;
    /// `IsEnabled`.
    pub const IS_ENABLED: i32 = 30010;
    /// `AutomationId`: the developer's id of the element.
    pub const AUTOMATION_ID: i32 = 30011;
    /// `ClassName`: the framework's class (`Button`, `Shell_TrayWnd`).
    pub const CLASS_NAME: i32 = 30012;
    /// `HelpText`: a tooltip-like description.
    pub const HELP_TEXT: i32 = 30013;
    /// `IsControlElement`: whether the element is in the control view.
    pub const IS_CONTROL_ELEMENT: i32 = 30016;
    /// `IsPassword`: the element holds a secret.
    pub const IS_PASSWORD: i32 = 30019;
    /// `IsOffscreen`: scrolled or collapsed out of view.
    pub const IS_OFFSCREEN: i32 = 30022;
    /// `FrameworkId`: `Win32`, `WPF`, `XAML`, `Chrome`, ...
    pub const FRAMEWORK_ID: i32 = 30024;
    /// `IsRequiredForForm`.
    pub const IS_REQUIRED_FOR_FORM: i32 = 30025;
    /// `ItemStatus`: the item's status in the app's words (`Available`, `Unread`).
    pub const ITEM_STATUS: i32 = 30026;
    /// `HeadingLevel`: `HeadingLevel_None` (80050) or `HeadingLevel1`..`9` (80051..80059).
    pub const HEADING_LEVEL: i32 = 30173;
    /// `IsDialog`: the element is a dialog (Windows 10 1809 on).
    pub const IS_DIALOG: i32 = 30174;
}

/// Control type identifiers (`UIA_*ControlTypeId`).
#[allow(missing_docs)]
pub mod control {
    pub const BUTTON: i32 = 50000;
    pub const CALENDAR: i32 = 50001;
    pub const CHECK_BOX: i32 = 50002;
    pub const COMBO_BOX: i32 = 50003;
    pub const EDIT: i32 = 50004;
    pub const HYPERLINK: i32 = 50005;
    pub const IMAGE: i32 = 50006;
    pub const LIST_ITEM: i32 = 50007;
    pub const LIST: i32 = 50008;
    pub const MENU: i32 = 50009;
    pub const MENU_BAR: i32 = 50010;
    pub const MENU_ITEM: i32 = 50011;
    pub const PROGRESS_BAR: i32 = 50012;
    pub const RADIO_BUTTON: i32 = 50013;
    pub const SCROLL_BAR: i32 = 50014;
    pub const SLIDER: i32 = 50015;
    pub const SPINNER: i32 = 50016;
    pub const STATUS_BAR: i32 = 50017;
    pub const TAB: i32 = 50018;
    pub const TAB_ITEM: i32 = 50019;
    pub const TEXT: i32 = 50020;
    pub const TOOL_BAR: i32 = 50021;
    pub const TOOL_TIP: i32 = 50022;
    pub const TREE: i32 = 50023;
    pub const TREE_ITEM: i32 = 50024;
    pub const CUSTOM: i32 = 50025;
    pub const GROUP: i32 = 50026;
    pub const THUMB: i32 = 50027;
    pub const DATA_GRID: i32 = 50028;
    pub const DATA_ITEM: i32 = 50029;
    pub const DOCUMENT: i32 = 50030;
    pub const SPLIT_BUTTON: i32 = 50031;
    pub const WINDOW: i32 = 50032;
    pub const PANE: i32 = 50033;
    pub const HEADER: i32 = 50034;
    pub const HEADER_ITEM: i32 = 50035;
    pub const TABLE: i32 = 50036;
    pub const TITLE_BAR: i32 = 50037;
    pub const SEPARATOR: i32 = 50038;
    pub const SEMANTIC_ZOOM: i32 = 50039;
    pub const APP_BAR: i32 = 50040;
}

/// Control pattern identifiers (`UIA_*PatternId`).
#[allow(missing_docs)]
pub mod pattern {
    pub const INVOKE: i32 = 10000;
    pub const SELECTION: i32 = 10001;
    pub const VALUE: i32 = 10002;
    pub const RANGE_VALUE: i32 = 10003;
    pub const SCROLL: i32 = 10004;
    pub const EXPAND_COLLAPSE: i32 = 10005;
    pub const GRID: i32 = 10006;
    pub const GRID_ITEM: i32 = 10007;
    pub const WINDOW: i32 = 10009;
    pub const SELECTION_ITEM: i32 = 10010;
    pub const TABLE: i32 = 10012;
    pub const TABLE_ITEM: i32 = 10013;
    pub const TEXT: i32 = 10014;
    pub const TOGGLE: i32 = 10015;
    pub const SCROLL_ITEM: i32 = 10017;
    pub const LEGACY_IACCESSIBLE: i32 = 10018;
}

/// The pattern id Accessibility Insights' name for a pattern stands for (`InvokePattern`), for
/// files that give the name without the id.
pub fn pattern_by_name(name: &str) -> Option<i32> {
    let name = name.trim();
    let name = name.strip_suffix("Pattern").unwrap_or(name);
    Some(match name {
        "Invoke" => pattern::INVOKE,
        "Selection" => pattern::SELECTION,
        "Value" => pattern::VALUE,
        "RangeValue" => pattern::RANGE_VALUE,
        "Scroll" => pattern::SCROLL,
        "ExpandCollapse" => pattern::EXPAND_COLLAPSE,
        "Grid" => pattern::GRID,
        "GridItem" => pattern::GRID_ITEM,
        "Window" => pattern::WINDOW,
        "SelectionItem" => pattern::SELECTION_ITEM,
        "Table" => pattern::TABLE,
        "TableItem" => pattern::TABLE_ITEM,
        "Text" => pattern::TEXT,
        "Toggle" => pattern::TOGGLE,
        "ScrollItem" => pattern::SCROLL_ITEM,
        "LegacyIAccessible" => pattern::LEGACY_IACCESSIBLE,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every id this crate reads, beside the name the recordings give it.
    #[test]
    fn ids_are_the_ones_the_recordings_name() {
        let named = [
            (property::RUNTIME_ID, "RuntimeId"),
            (property::BOUNDING_RECTANGLE, "BoundingRectangle"),
            (property::PROCESS_ID, "ProcessId"),
            (property::CONTROL_TYPE, "ControlType"),
            (property::LOCALIZED_CONTROL_TYPE, "LocalizedControlType"),
            (property::NAME, "Name"),
            (property::HAS_KEYBOARD_FOCUS, "HasKeyboardFocus"),
            (property::IS_KEYBOARD_FOCUSABLE, "IsKeyboardFocusable"),
            (property::IS_ENABLED, "IsEnabled"),
            (property::AUTOMATION_ID, "AutomationId"),
            (property::CLASS_NAME, "ClassName"),
            (property::HELP_TEXT, "HelpText"),
            (property::IS_CONTROL_ELEMENT, "IsControlElement"),
            (property::IS_PASSWORD, "IsPassword"),
            (property::IS_OFFSCREEN, "IsOffscreen"),
            (property::FRAMEWORK_ID, "FrameworkId"),
            (property::IS_REQUIRED_FOR_FORM, "IsRequiredForForm"),
            (property::ITEM_STATUS, "ItemStatus"),
            (property::HEADING_LEVEL, "HeadingLevel"),
            (property::IS_DIALOG, "IsDialog"),
        ];
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/desktop/uia/");
        let mut text = String::new();
        for f in ["Taskbar.snapshot", "A11yElementTest.hier", "A11yPatternTest.hier"] {
            text.push_str(&std::fs::read_to_string(format!("{dir}{f}")).unwrap_or_default());
        }
        let zip = std::fs::read(format!("{dir}WildlifeManagerTest.a11ytest")).unwrap_or_default();
        let json = crate::archive::snapshot_json(&zip, &crate::reader::Limits::default()).unwrap_or_default();
        text.push_str(&String::from_utf8_lossy(&json));
        for (id, name) in named {
            let said = format!("\"Id\": {id},\n");
            let at = text.find(&said).unwrap_or_else(|| panic!("{name} ({id}) is in no recording"));
            let around = &text[at..text.len().min(at + 80)];
            assert!(around.contains(&format!("\"Name\": \"{name}\"")), "{id} is not {name}: {around}");
        }
    }

    #[test]
    fn patterns_by_name() {
        assert_eq!(pattern_by_name("InvokePattern"), Some(pattern::INVOKE));
        assert_eq!(pattern_by_name("LegacyIAccessiblePattern"), Some(pattern::LEGACY_IACCESSIBLE));
        assert_eq!(pattern_by_name("DockPattern"), None);
    }
}
