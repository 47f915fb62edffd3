//! [`Element`]: one UI Automation element as read, its properties and its control patterns'
//! state, and [`Elements`], a tree of them. This is what a recording is read into and what a
//! capture over COM fills from its cache request; [`crate::build()`] turns it into the core's
//! tree.

use axsnap_core::Rect;

/// A tree of [`Element`]s, in document order.
pub type Elements = axsnap_desktop::Flat<Element>;

/// One element: the properties axsnap reads (by UIA property id, see [`crate::ids`]) and its
/// patterns.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// `ControlType` (a [`crate::ids::control`] id), when given.
    pub control_type: Option<i32>,
    /// `LocalizedControlType`.
    pub localized_control_type: String,
    /// `Name`.
    pub name: String,
    /// `AutomationId`.
    pub automation_id: String,
    /// `ClassName`.
    pub class_name: String,
    /// `FrameworkId`.
    pub framework_id: String,
    /// `BoundingRectangle`, `None` when empty or not given.
    pub bounds: Option<Rect>,
    /// `IsEnabled` (true when not given).
    pub enabled: bool,
    /// `IsOffscreen`.
    pub offscreen: bool,
    /// `HasKeyboardFocus`.
    pub focused: bool,
    /// `IsKeyboardFocusable`.
    pub focusable: bool,
    /// `IsPassword`.
    pub password: bool,
    /// `IsControlElement` (true when not given).
    pub control_element: bool,
    /// `IsRequiredForForm`.
    pub required: bool,
    /// `HelpText`.
    pub help_text: String,
    /// `ItemStatus`.
    pub item_status: String,
    /// `HeadingLevel` as 1 to 9, `None` for none.
    pub heading_level: Option<u32>,
    /// `IsDialog`.
    pub dialog: bool,
    /// `RuntimeId`, empty when not given.
    pub runtime_id: Vec<i64>,
    /// `ProcessId`, when given.
    pub process_id: Option<u32>,
    /// The control patterns it supports, with their state.
    pub patterns: Patterns,
}

impl Default for Element {
    fn default() -> Self {
        Element {
            control_type: None,
            localized_control_type: String::new(),
            name: String::new(),
            automation_id: String::new(),
            class_name: String::new(),
            framework_id: String::new(),
            bounds: None,
            enabled: true,
            offscreen: false,
            focused: false,
            focusable: false,
            password: false,
            control_element: true,
            required: false,
            help_text: String::new(),
            item_status: String::new(),
            heading_level: None,
            dialog: false,
            runtime_id: Vec::new(),
            process_id: None,
            patterns: Patterns::default(),
        }
    }
}

/// The control patterns an element supports, each with the state axsnap reads; `None` (or
/// `false`) for a pattern it does not support.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Patterns {
    /// Invoke: it does one thing when activated.
    pub invoke: bool,
    /// Toggle, with its state.
    pub toggle: Option<ToggleState>,
    /// ExpandCollapse, with its state.
    pub expand_collapse: Option<ExpandState>,
    /// Value.
    pub value: Option<ValueState>,
    /// RangeValue.
    pub range_value: Option<RangeState>,
    /// Selection (a container whose items can be selected).
    pub selection: Option<SelectionState>,
    /// SelectionItem: whether the item is selected.
    pub selection_item: Option<bool>,
    /// Grid: its size.
    pub grid: Option<GridState>,
    /// GridItem (or TableItem): where the cell is.
    pub grid_item: Option<CellState>,
    /// Table.
    pub table: bool,
    /// Window.
    pub window: Option<WindowState>,
    /// Scroll: whether it can scroll either way.
    pub scroll: Option<ScrollState>,
    /// ScrollItem: it can be scrolled into view (no action of its own).
    pub scroll_item: bool,
    /// Text: its content is a text range (an editor, a document).
    pub text: bool,
    /// LegacyIAccessible: what MSAA says of it.
    pub legacy: Option<LegacyState>,
}

impl Patterns {
    /// Whether any pattern that acts on the element itself is there (Invoke, Toggle,
    /// ExpandCollapse short of a leaf, a writable Value, Selection, SelectionItem).
    pub fn acts(&self) -> bool {
        self.invoke
            || self.toggle.is_some()
            || self.expand_collapse.is_some_and(|e| e != ExpandState::LeafNode)
            || self.value.as_ref().is_some_and(|v| !v.read_only)
            || self.selection.is_some()
            || self.selection_item.is_some()
    }
}

/// `ToggleState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToggleState {
    /// Off (0).
    Off,
    /// On (1).
    On,
    /// Indeterminate (2).
    Indeterminate,
}

impl ToggleState {
    /// From UIA's number; `None` for one it does not define.
    pub fn from_uia(n: i64) -> Option<ToggleState> {
        Some(match n {
            0 => ToggleState::Off,
            1 => ToggleState::On,
            2 => ToggleState::Indeterminate,
            _ => return None,
        })
    }
}

/// `ExpandCollapseState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpandState {
    /// Collapsed (0).
    Collapsed,
    /// Expanded (1).
    Expanded,
    /// Partially expanded (2).
    PartiallyExpanded,
    /// A leaf: nothing to expand (3).
    LeafNode,
}

impl ExpandState {
    /// From UIA's number; `None` for one it does not define.
    pub fn from_uia(n: i64) -> Option<ExpandState> {
        Some(match n {
            0 => ExpandState::Collapsed,
            1 => ExpandState::Expanded,
            2 => ExpandState::PartiallyExpanded,
            3 => ExpandState::LeafNode,
            _ => return None,
        })
    }
}

/// The Value pattern's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueState {
    /// `Value`.
    pub value: String,
    /// `IsReadOnly`.
    pub read_only: bool,
}

/// The RangeValue pattern's state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RangeState {
    /// `Value`.
    pub value: f64,
    /// `Minimum`.
    pub minimum: f64,
    /// `Maximum`.
    pub maximum: f64,
    /// `IsReadOnly`.
    pub read_only: bool,
}

/// The Selection pattern's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelectionState {
    /// `CanSelectMultiple`.
    pub multiple: bool,
    /// `IsSelectionRequired`.
    pub required: bool,
}

/// The Grid pattern's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GridState {
    /// `RowCount`.
    pub rows: u32,
    /// `ColumnCount`.
    pub columns: u32,
}

/// The GridItem pattern's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellState {
    /// `Row`, from 0.
    pub row: u32,
    /// `Column`, from 0.
    pub column: u32,
}

/// The Window pattern's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WindowState {
    /// `IsModal`.
    pub modal: bool,
    /// `IsTopmost`.
    pub topmost: bool,
    /// `CanMaximize`.
    pub can_maximize: bool,
    /// `CanMinimize`.
    pub can_minimize: bool,
}

/// The Scroll pattern's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScrollState {
    /// `HorizontallyScrollable`.
    pub horizontal: bool,
    /// `VerticallyScrollable`.
    pub vertical: bool,
}

/// The LegacyIAccessible pattern's state (MSAA's view of the element).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegacyState {
    /// `DefaultAction`: what activating it does (`Press`, `Open`), empty for nothing.
    pub default_action: String,
    /// `State`: MSAA `STATE_SYSTEM_*` bits ([`crate::mapping::msaa`]).
    pub state: u32,
    /// `Value`.
    pub value: String,
}
