//! [`Automation`]: what UI Automation gives a desktop platform, as a few synchronous
//! primitives — list the top-level windows, read one window with one cache request, call a
//! pattern or send input, drive a window, hear the change events.
//!
//! Everything above them ([`crate::UiaPlatform`]: which call an action becomes, which window a
//! change event marks dirty, when to poll) is plain Rust tested here. Two implement it:
//! `ComAutomation` over COM on Windows (`cfg(windows)`), and [`crate::ScriptedAutomation`],
//! a recorded Windows tree replayed with a scripted sequence of changes on any system.
//!
//! An automation lives on a thread of its own (COM's multi-threaded apartment on Windows),
//! which the platform hands requests to; it need not be `Send` itself, only its maker.

use std::time::Instant;

use axsnap_core::backend::MouseButton;
use axsnap_core::keys::Chord;
use axsnap_desktop::{Frame, SizeLimits, WindowOp};
use thiserror::Error;

use crate::element::{Element, Elements};

/// A top-level window as the window system and UI Automation list it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TopWindow {
    /// The window's handle (`HWND` as an integer); unique while the window lives.
    pub hwnd: i64,
    /// Its title.
    pub title: String,
    /// Its window class (`Chrome_WidgetWin_1`, `#32770` for a dialog box).
    pub class_name: String,
    /// The process that owns it.
    pub process_id: u32,
    /// That process's executable name without its folder (`notepad.exe`).
    pub process_name: String,
    /// Whether it is the foreground window.
    pub active: bool,
    /// Whether it is visible (not hidden; a minimized window is visible).
    pub visible: bool,
    /// Whether it is a dialog (UIA's IsDialog, or a `#32770` window).
    pub dialog: bool,
}

/// A window read by one cache request.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// The window's element and everything under it, in the raw view: the platform filters.
    pub elements: Elements,
    /// Set when the read stopped before its end (the deadline, an app that stopped
    /// answering): what is missing, in words.
    pub partial: Option<String>,
}

/// A change event a handler heard, reduced to what marks a window dirty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Heard {
    /// The process of the element the event came from.
    pub process_id: u32,
    /// When it was heard.
    pub at: Instant,
    /// What kind of event it was.
    pub kind: EventKind,
}

/// The change events the platform listens to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// Elements were added, removed or reordered (StructureChanged).
    Structure,
    /// A property the capture reads changed (PropertyChanged).
    Property,
    /// The keyboard focus moved (FocusChanged).
    Focus,
    /// A window opened (Window_WindowOpened).
    WindowOpened,
}

/// What to do to one element, as UI Automation does it: a control pattern's method, or input
/// sent where the element is.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// InvokePattern.Invoke.
    Invoke,
    /// TogglePattern.Toggle.
    Toggle,
    /// SelectionItemPattern.Select.
    Select,
    /// SelectionItemPattern.AddToSelection (a list that takes several).
    AddToSelection,
    /// ExpandCollapsePattern.Expand.
    Expand,
    /// ExpandCollapsePattern.Collapse.
    Collapse,
    /// LegacyIAccessiblePattern.DoDefaultAction.
    DefaultAction,
    /// ValuePattern.SetValue.
    SetValue(String),
    /// RangeValuePattern.SetValue.
    SetRange(f64),
    /// ScrollItemPattern.ScrollIntoView.
    ScrollIntoView,
    /// ScrollPattern.Scroll by small steps (negative: up or left).
    ScrollSteps {
        /// Steps to the right.
        horizontal: i32,
        /// Steps down.
        vertical: i32,
    },
    /// IUIAutomationElement.SetFocus.
    Focus,
    /// A real click (SendInput) at a screen point, refused as covered when another element
    /// than this one (or one inside it) is on top there.
    ClickAt {
        /// Screen x.
        x: i32,
        /// Screen y.
        y: i32,
        /// The button.
        button: MouseButton,
        /// 1, or 2 for a double click.
        count: u8,
    },
    /// The pointer moved to a screen point.
    HoverAt {
        /// Screen x.
        x: i32,
        /// Screen y.
        y: i32,
    },
    /// The mouse wheel turned over a screen point, in pixels (one notch is 120 units, about
    /// 100 pixels).
    WheelAt {
        /// Screen x.
        x: i32,
        /// Screen y.
        y: i32,
        /// Pixels to the right.
        dx: f64,
        /// Pixels down.
        dy: f64,
    },
    /// Text typed as Unicode key presses (SendInput `KEYEVENTF_UNICODE`) to whatever has the
    /// keyboard focus.
    TypeText(String),
    /// Key chords pressed in order (`Control+a`, `Delete`) to whatever has the focus.
    Keys(Vec<Chord>),
}

/// Why a call failed.
#[derive(Debug, Error)]
pub enum CallError {
    /// The element is gone (its runtime id no longer resolves).
    #[error("the element is gone")]
    Gone,
    /// The element does not support the pattern the call needs (it changed since it was read).
    #[error("the element does not support {0}")]
    Unsupported(&'static str),
    /// Another element is on top where the click would land.
    #[error("covered by {0}")]
    Covered(String),
    /// The element is disabled now.
    #[error("the element is disabled")]
    Disabled,
    /// The app did not answer in time.
    #[error("the app did not answer within {0} ms")]
    Timeout(u64),
    /// UI Automation or Win32 failed: its words (an HRESULT and its message).
    #[error("{0}")]
    Platform(String),
}

/// The primitives of UI Automation a platform is built on. Each call may block (a COM call
/// into another process); the platform bounds how long it waits.
pub trait Automation {
    /// The visible top-level windows on the desktop, in z-order (front first).
    fn windows(&mut self) -> Result<Vec<TopWindow>, CallError>;

    /// Reads window `hwnd` with one cache request (TreeScope_Subtree over the raw view, every
    /// property and pattern state [`Element`] holds), keeping the live elements for calls.
    /// When that request does not come in time (a very large or busy app), the window is read
    /// piece by piece, stopping with a partial read at `deadline`.
    fn read(&mut self, hwnd: i64, deadline: Instant) -> Result<Read, CallError>;

    /// The element with runtime id `element` in window `hwnd` as it is now (one element's
    /// cache request), to check what a call did.
    fn probe(&mut self, hwnd: i64, element: &[i64]) -> Result<Element, CallError>;

    /// Carries out `call` on the element with runtime id `element` in window `hwnd`.
    fn call(&mut self, hwnd: i64, element: &[i64], call: &Call) -> Result<(), CallError>;

    /// Presses `keys` with whatever has the keyboard focus in window `hwnd` (brought to the
    /// front first).
    fn keys(&mut self, hwnd: i64, keys: &[Chord]) -> Result<(), CallError>;

    /// Window `hwnd`'s frame now ([`CallError::Gone`] once it closed).
    fn frame(&mut self, hwnd: i64) -> Result<Frame, CallError>;

    /// The sizes window `hwnd` allows (WM_GETMINMAXINFO's, when it says).
    fn size_limits(&mut self, hwnd: i64) -> SizeLimits;

    /// Asks window `hwnd` for `op`: WindowPattern where the window has it (close, minimize,
    /// maximize, restore), else Win32 (`SetForegroundWindow`, `SetWindowPos`, `ShowWindow`,
    /// `WM_CLOSE`).
    fn request(&mut self, hwnd: i64, op: WindowOp) -> Result<(), CallError>;

    /// Whether change events are heard at all (handlers registered).
    fn hears_events(&self) -> bool;

    /// The change events heard since the last call, oldest first. Handlers are registered
    /// once for the whole desktop and never removed while the automation lives.
    fn heard(&mut self) -> Vec<Heard>;
}
