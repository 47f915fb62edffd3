//! [`Element`]: one macOS accessibility (AX) element as read, its attributes, actions and
//! which attributes can be set, and [`Elements`], a tree of them. This is what a recording is
//! read into (and what the capture over the AX API will fill); [`crate::build()`] turns it
//! into the core's tree.

use axsnap_core::Rect;

/// A tree of [`Element`]s, in document order.
pub type Elements = axsnap_desktop::Flat<Element>;

/// One element: the AX attributes axsnap reads (named in the field docs), its actions, and
/// which of its attributes are settable.
#[derive(Clone, Debug, PartialEq)]
pub struct Element {
    /// `AXRole` (`AXButton`); empty when not given.
    pub role: String,
    /// `AXSubrole` (`AXCloseButton`, `AXSecureTextField`), empty for none.
    pub subrole: String,
    /// `AXRoleDescription`: the role in the user's words (`button`, `color well`).
    pub role_description: String,
    /// `AXTitle`.
    pub title: String,
    /// `AXDescription`: the label of a control with no visible title (an icon button's).
    pub description: String,
    /// `AXValue` as text: a string as it is, a number without a needless fraction (`1`, not
    /// `1.0`), a boolean as `1` or `0` (what a check box's number says); `None` when absent.
    pub value: Option<String>,
    /// `AXHelp`: the tooltip.
    pub help: String,
    /// `AXPlaceholderValue`: the hint an empty field shows.
    pub placeholder: String,
    /// `AXIdentifier`: the developer's id.
    pub identifier: String,
    /// `AXURL`: where a link goes.
    pub url: String,
    /// `AXMenuItemMarkChar`: the mark a checked menu item shows (`✓`), empty for none.
    pub mark: String,
    /// `AXEnabled` (true when not given).
    pub enabled: bool,
    /// `AXFocused`.
    pub focused: bool,
    /// `AXSelected`.
    pub selected: bool,
    /// `AXExpanded`, or an outline row's `AXDisclosing`; `None` when it has neither.
    pub expanded: Option<bool>,
    /// `AXModal`.
    pub modal: bool,
    /// `AXRequired` (web content).
    pub required: bool,
    /// `AXPosition` and `AXSize` together, in screen points; `None` unless both are given.
    pub bounds: Option<Rect>,
    /// `AXMinValue`.
    pub min_value: Option<f64>,
    /// `AXMaxValue`.
    pub max_value: Option<f64>,
    /// The action names (`AXUIElementCopyActionNames`), in the order given.
    pub actions: Vec<AxAction>,
    /// Which of the attributes axsnap acts through can be set.
    pub settable: Settable,
    /// `AXTitleUIElement`: the element whose text labels this one, as an index into the same
    /// [`Elements`].
    pub title_element: Option<usize>,
    /// The process id (`AXUIElementGetPid`), when given; children inherit their parent's.
    pub pid: Option<i32>,
    /// An identity the capture gave the element, never reused within its process (see
    /// [`crate::build`](mod@crate::build)); `None` in a recording.
    pub serial: Option<u64>,
}

impl Default for Element {
    fn default() -> Self {
        Element {
            role: String::new(),
            subrole: String::new(),
            role_description: String::new(),
            title: String::new(),
            description: String::new(),
            value: None,
            help: String::new(),
            placeholder: String::new(),
            identifier: String::new(),
            url: String::new(),
            mark: String::new(),
            enabled: true,
            focused: false,
            selected: false,
            expanded: None,
            modal: false,
            required: false,
            bounds: None,
            min_value: None,
            max_value: None,
            actions: Vec::new(),
            settable: Settable::default(),
            title_element: None,
            pid: None,
            serial: None,
        }
    }
}

impl Element {
    /// Whether it offers `action`.
    pub fn has(&self, action: &AxAction) -> bool {
        self.actions.contains(action)
    }
}

/// An AX action name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AxAction {
    /// `AXPress`: what a click does.
    Press,
    /// `AXIncrement`: one step up.
    Increment,
    /// `AXDecrement`: one step down.
    Decrement,
    /// `AXConfirm`: the Return key's meaning (submit a field, the default button).
    Confirm,
    /// `AXShowMenu`: open the element's menu (its context menu, or a pop-up's list).
    ShowMenu,
    /// `AXPick`: choose the element (a menu item).
    Pick,
    /// `AXRaise`: bring a window to the front.
    Raise,
    /// `AXCancel`: the Escape key's meaning.
    Cancel,
    /// Any other name (`AXScrollToVisible`, an app's own), kept as given.
    Other(String),
}

impl AxAction {
    /// The action of an AX action name.
    pub fn parse(name: &str) -> AxAction {
        match name {
            "AXPress" => AxAction::Press,
            "AXIncrement" => AxAction::Increment,
            "AXDecrement" => AxAction::Decrement,
            "AXConfirm" => AxAction::Confirm,
            "AXShowMenu" => AxAction::ShowMenu,
            "AXPick" => AxAction::Pick,
            "AXRaise" => AxAction::Raise,
            "AXCancel" => AxAction::Cancel,
            other => AxAction::Other(other.to_string()),
        }
    }

    /// The AX name of the action.
    pub fn as_str(&self) -> &str {
        match self {
            AxAction::Press => "AXPress",
            AxAction::Increment => "AXIncrement",
            AxAction::Decrement => "AXDecrement",
            AxAction::Confirm => "AXConfirm",
            AxAction::ShowMenu => "AXShowMenu",
            AxAction::Pick => "AXPick",
            AxAction::Raise => "AXRaise",
            AxAction::Cancel => "AXCancel",
            AxAction::Other(s) => s,
        }
    }
}

/// Which attributes can be set (`AXUIElementIsAttributeSettable`), of those axsnap acts
/// through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settable {
    /// `AXValue`: a field one types into, a slider one moves, a check box one sets.
    pub value: bool,
    /// `AXFocused`: it can take the keyboard focus.
    pub focused: bool,
    /// `AXSelected`: it can be selected (a row, a tab).
    pub selected: bool,
    /// `AXExpanded` or `AXDisclosing`: it can be opened and closed.
    pub expanded: bool,
}

impl Settable {
    /// Marks the attribute called `name` settable; false for one this struct does not keep.
    pub fn set(&mut self, name: &str) -> bool {
        let slot = match name {
            "AXValue" => &mut self.value,
            "AXFocused" => &mut self.focused,
            "AXSelected" => &mut self.selected,
            "AXExpanded" | "AXDisclosing" => &mut self.expanded,
            _ => return false,
        };
        *slot = true;
        true
    }
}
