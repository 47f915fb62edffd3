//! The contract a backend (CDP, AT-SPI, ...) fulfils, as plain data plus one trait.
//!
//! A backend captures a raw [`Tree`] for a target, performs an action on a native handle and
//! reports a cheap change signal. Everything else (what to show, refs, diffs) is the core's.
//! The trait uses `async fn` from `std` only: the core names no runtime.

use std::future::Future;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::refs::TargetId;
use crate::snapshot::Header;
use crate::tree::{NativeId, Tree};

/// A raw capture of one target. It is made only by [`Capture::new`] (or
/// [`Capture::with_secret_texts`]), which redacts its secrets, so no backend can hand one on
/// that shows a password.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Capture {
    /// The target captured.
    pub target: TargetId,
    /// URL and title.
    pub header: Header,
    /// The raw tree.
    pub tree: Tree,
    /// Set when the capture was cut short (deadline, size); says what is missing.
    pub partial: Option<String>,
}

impl Capture {
    /// A capture of `target` with its secrets redacted ([`crate::secret::redact`]): the values
    /// of nodes marked [`crate::State::Protected`], the text inside them, and any name that
    /// embeds them, the title included.
    ///
    /// ```
    /// use axsnap_core::backend::Capture;
    /// use axsnap_core::{Header, NativeId, Node, Role, State, TargetId, Tree};
    ///
    /// let mut tree = Tree::with_root(Node::new(Role::Window, "Log in", NativeId::new("w", "1")));
    /// let mut field = Node::new(Role::TextBox, "Password", NativeId::new("w", "2"));
    /// field.value = Some("hunter2 secret".into());
    /// field.states.set(State::Protected, true);
    /// let root = tree.root().unwrap();
    /// let id = tree.append(root, field);
    /// let capture = Capture::new(TargetId("w1".into()), Header::default(), tree, None);
    /// assert_eq!(capture.tree.node(id).value.as_deref(), Some(axsnap_core::secret::REDACTED));
    /// ```
    pub fn new(target: TargetId, header: Header, tree: Tree, partial: Option<String>) -> Capture {
        Capture::with_secret_texts(target, header, tree, partial, &[])
    }

    /// [`Capture::new`], also cutting out `known`: texts the backend read from its secrets
    /// outside the tree (a DOM value, the characters of masked text).
    pub fn with_secret_texts(
        target: TargetId,
        mut header: Header,
        mut tree: Tree,
        partial: Option<String>,
        known: &[String],
    ) -> Capture {
        let root_name = tree.root().map(|r| tree.node(r).name.clone());
        if crate::secret::redact(&mut tree, known) > 0 {
            // A title read from the root's name goes the way of the name.
            let now = tree.root().map(|r| tree.node(r).name.clone());
            if header.title.is_some() && header.title == root_name && now != root_name {
                header.title = now;
            }
        }
        Capture { target, header, tree, partial }
    }
}

/// A target a backend can capture (a tab, a window).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetSummary {
    /// Its id.
    pub id: TargetId,
    /// URL and title.
    pub header: Header,
    /// Whether it is the current one.
    pub active: bool,
}

/// An action on one element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum ElementAction {
    /// Click (`count` 2 for a double click).
    Click {
        /// Number of clicks.
        count: u8,
    },
    /// Click with a given mouse button (`count` 2 for a double click). `Click` is the left
    /// button's short form.
    ClickButton {
        /// The button.
        button: MouseButton,
        /// Number of clicks.
        count: u8,
    },
    /// Move the pointer over it.
    Hover,
    /// Type text into it.
    Type {
        /// The text.
        text: String,
        /// Clear the field first (fill) instead of appending.
        clear: bool,
        /// Press Enter afterwards.
        submit: bool,
    },
    /// Type text into it a key at a time, each character its own key press (keydown,
    /// keypress, input, keyup), after its current text: for pages that read keys one by one
    /// (a terminal, a game, an autocomplete listening to `keydown`).
    TypeKeys {
        /// The text.
        text: String,
        /// Press Enter afterwards.
        submit: bool,
    },
    /// Select options by label or value.
    Select {
        /// Labels or values.
        values: Vec<String>,
    },
    /// Put files into a file input (`<input type=file>`), as choosing them in its dialog
    /// would. The paths are the backend's to read: whoever builds this action has checked
    /// that they may be uploaded.
    SetFiles {
        /// Absolute paths of the files.
        paths: Vec<String>,
    },
    /// Drag it onto another element of the same target and drop it there (HTML5 drag and
    /// drop, or a drag a page follows with pointer events).
    DragTo {
        /// The element it is dropped on.
        to: NativeId,
    },
    /// Check or uncheck, verifying the resulting state.
    Check {
        /// The wanted state.
        on: bool,
    },
    /// Scroll it by a delta in pixels.
    Scroll {
        /// Horizontal delta.
        dx: f64,
        /// Vertical delta.
        dy: f64,
    },
    /// Give it focus.
    Focus,
    /// Press keys or a chord (`Enter`, `Control+A`) with it focused.
    Press {
        /// The key or chord.
        keys: String,
    },
}

/// A mouse button.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    /// The primary button.
    #[default]
    Left,
    /// The secondary button (a context menu).
    Right,
    /// The middle button (often: open a link in a new tab).
    Middle,
}

impl MouseButton {
    /// The name CDP and DOM events use.
    pub fn as_str(self) -> &'static str {
        match self {
            MouseButton::Left => "left",
            MouseButton::Right => "right",
            MouseButton::Middle => "middle",
        }
    }
}

/// An action on a target as a whole (a page or window), not on one element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum TargetAction {
    /// Load a URL.
    Navigate {
        /// The URL.
        url: String,
    },
    /// Go back in history.
    Back,
    /// Go forward in history.
    Forward,
    /// Reload.
    Reload,
    /// Press keys or a chord with whatever has focus.
    Press {
        /// The key or chord.
        keys: String,
    },
    /// Scroll the target's viewport by a delta in pixels.
    Scroll {
        /// Horizontal delta.
        dx: f64,
        /// Vertical delta.
        dy: f64,
    },
    /// Accept the open JavaScript dialog (with text for a prompt).
    AcceptDialog {
        /// Text for a prompt dialog.
        text: Option<String>,
    },
    /// Dismiss the open JavaScript dialog.
    DismissDialog,
    /// A mouse event at a point of the viewport (CSS pixels from its top left), for what the
    /// tree does not describe (a canvas, a custom widget).
    Pointer {
        /// Horizontal position.
        x: f64,
        /// Vertical position.
        y: f64,
        /// What the mouse does there.
        does: PointerAction,
    },
}

/// What [`TargetAction::Pointer`] does at its point.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PointerAction {
    /// Move there, press and release the left button.
    Click,
    /// Move there.
    Move,
    /// Move there and press the left button.
    Down,
    /// Move there and release the left button.
    Up,
    /// Turn the wheel there by a delta in pixels.
    Wheel {
        /// Horizontal delta.
        dx: f64,
        /// Vertical delta.
        dy: f64,
    },
}

/// What happened after an action.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The page went quiet within the cap.
    pub settled: bool,
    /// The action caused a navigation.
    pub navigated: bool,
    /// Time from the action to settle (or to the cap).
    pub elapsed: Duration,
    /// A JavaScript dialog or similar that is now open, described.
    pub dialog: Option<String>,
    /// Targets the action opened (popups).
    pub opened: Vec<TargetId>,
    /// The action closed its own target (a dialog's Close button, a window's Quit): there is
    /// nothing left of it to capture.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub closed: bool,
    /// When the page did not settle: what kept it from settling, in words (a script that
    /// kept it busy, a request the network left pending, a page that kept changing or
    /// navigating).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsettled: Option<String>,
    /// A navigation the action started that the network failed (the browser then shows an
    /// error page of its own, whose URL says nothing of why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_navigation: Option<FailedNavigation>,
}

/// A navigation that failed on the network: where it went and the browser's error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedNavigation {
    /// The URL the navigation asked for (secret query values cut).
    pub url: String,
    /// The browser's network error, as it names it (`net::ERR_CONNECTION_REFUSED`).
    pub error: String,
}

/// Why a backend would not carry out an action on an element, in kinds every backend shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Refusal {
    /// The element no longer exists (removed or replaced): the ref is stale.
    Gone,
    /// Another element covers it where the action would land (a modal, an open menu).
    Covered,
    /// It is disabled.
    Disabled,
    /// It is not shown (hidden, collapsed, scrolled out of reach, zero size).
    Hidden,
    /// It is a field that cannot be changed.
    ReadOnly,
    /// It takes no text (a button, a link, a label).
    NotATextField,
    /// None of its options is the one asked for.
    NoSuchOption,
    /// The keys asked for are not keys ([`crate::keys::KeyError`]).
    BadKey,
    /// It cannot take this action for another reason, which the error says.
    NotActionable,
}

/// A backend.
pub trait Backend {
    /// The backend's error.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The targets it can capture.
    fn targets(&mut self) -> impl Future<Output = Result<Vec<TargetSummary>, Self::Error>> + Send;

    /// Captures a raw tree of `target`, giving up with a partial tree at `deadline`.
    fn capture(
        &mut self,
        target: &TargetId,
        deadline: Duration,
    ) -> impl Future<Output = Result<Capture, Self::Error>> + Send;

    /// Performs an action on an element and waits for the target to settle.
    fn act(
        &mut self,
        target: &TargetId,
        element: &NativeId,
        action: &ElementAction,
    ) -> impl Future<Output = Result<Outcome, Self::Error>> + Send;

    /// Performs an action on a target as a whole and waits for it to settle.
    fn act_on_target(
        &mut self,
        target: &TargetId,
        action: &TargetAction,
    ) -> impl Future<Output = Result<Outcome, Self::Error>> + Send;

    /// Opens a new target (a tab at `url`) and returns its id.
    fn open_target(&mut self, url: &str) -> impl Future<Output = Result<TargetId, Self::Error>> + Send;

    /// Closes a target.
    fn close_target(&mut self, target: &TargetId) -> impl Future<Output = Result<(), Self::Error>> + Send;

    /// What kind of refusal `error` is, when it is one an agent can act on (a stale ref, a
    /// cover to close, a disabled or hidden element, a field that takes no text, a key that is
    /// none). `None`: any other failure. Backends say it for their own errors, so the server
    /// answers the same refusal with the same code and advice whatever the platform.
    fn refusal(error: &Self::Error) -> Option<Refusal> {
        let _ = error;
        None
    }

    /// Whether the target may have changed since its last capture. `false` must mean "certainly
    /// unchanged"; when in doubt, `true`.
    fn changed(&mut self, target: &TargetId) -> impl Future<Output = Result<bool, Self::Error>> + Send;
}
