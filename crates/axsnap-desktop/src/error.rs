//! [`DesktopError`]: what went wrong on the desktop, in the same words on every platform.

use std::time::Duration;

use axsnap_core::backend::Refusal;
use axsnap_core::keys::KeyError;
use thiserror::Error;

/// An error of the desktop layer or of a platform under it. Platforms turn their own errors
/// into these, so the server answers the same event with the same code whatever the system.
#[derive(Debug, Error)]
pub enum DesktopError {
    /// The platform's accessibility service cannot be reached (no session bus, no registry,
    /// no permission). The message says what to install or start.
    #[error("{0}")]
    Unavailable(String),
    /// A call to the platform failed for another reason.
    #[error("{0}")]
    Platform(String),
    /// A call got no answer in time: the app is busy or hung.
    #[error("{what} got no answer within {after:?}: the app is busy or hung; try again, or restart it")]
    Timeout {
        /// The call, in words.
        what: String,
        /// How long it waited.
        after: Duration,
    },
    /// The element or window (or its app) is gone: the app exited, the window closed, or the
    /// element was destroyed.
    #[error("the element is gone ({0}); take a new snapshot")]
    Gone(String),
    /// No app of that name exposes accessibility.
    #[error(
        "no app named {name:?} exposes accessibility (apps there: {known}); an app shows only when it \
         exposes accessibility (on Linux: GTK and Qt apps with their AT-SPI bridge, Chromium with \
         --force-renderer-accessibility)"
    )]
    NoSuchApp {
        /// The name asked for.
        name: String,
        /// The names there are.
        known: String,
    },
    /// The app has no window of that title (or no window at all).
    #[error("{app} has no window {wanted}(windows: {known})")]
    NoSuchWindow {
        /// The app.
        app: String,
        /// The title asked for, quoted with a trailing space, or empty for "any".
        wanted: String,
        /// The titles there are.
        known: String,
    },
    /// The app did not answer when its windows were listed (busy or hung).
    #[error("{0} did not answer when its windows were listed: it is busy or hung; try again, or restart it")]
    NotAnswering(String),
    /// No window of that id.
    #[error("no window {0}: list them with desktop_windows (CLI: `axsnap desktop apps`)")]
    NoSuchTarget(String),
    /// The element cannot do what was asked, for a reason every backend shares (it is
    /// disabled, not shown, not a text field, ...).
    #[error("{message}")]
    Refused {
        /// Which refusal it is.
        kind: Refusal,
        /// What the element is, why not, and what to do instead.
        message: String,
    },
    /// Keys that are no keys.
    #[error(transparent)]
    BadKey(#[from] KeyError),
    /// An app could not be launched, or showed no window.
    #[error("cannot launch {app:?}: {reason}")]
    LaunchFailed {
        /// The app as named.
        app: String,
        /// Why, and what to do instead.
        reason: String,
    },
    /// The clipboard could not be read or set.
    #[error("the clipboard: {0}")]
    Clipboard(String),
    /// The window or the platform cannot do what was asked (a desktop window has no URL).
    #[error("{0}")]
    Unsupported(String),
    /// The window system could not be reached or asked (window management); the message
    /// names it (`the X display: ...`).
    #[error("{0}")]
    WindowSystem(String),
    /// A window request that only a window manager can carry out, with none running.
    #[error("{0}")]
    NoWindowManager(String),
    /// A window request ran but the window did not change in time.
    #[error("{0}")]
    NotApplied(String),
    /// An edit of an element (fill, a value, check, select) did not take: read back, the
    /// element holds what it held, or something else.
    #[error("{0}")]
    NoEffect(String),
    /// A recording could not be read.
    #[error("the recording {path}: {reason}")]
    Recording {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
}

impl DesktopError {
    /// A refusal of `kind`, saying `message`.
    pub fn refused(kind: Refusal, message: impl Into<String>) -> DesktopError {
        DesktopError::Refused { kind, message: message.into() }
    }

    /// Whether this says the element, its window or its app no longer exists.
    pub fn is_gone(&self) -> bool {
        matches!(self, DesktopError::Gone(_))
    }

    /// What kind of refusal this is, when it is one an agent can act on: the core's
    /// [`Backend::refusal`](axsnap_core::backend::Backend::refusal) for every desktop platform.
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            DesktopError::Gone(_) => Some(Refusal::Gone),
            DesktopError::Refused { kind, .. } => Some(*kind),
            DesktopError::BadKey(_) => Some(Refusal::BadKey),
            _ => None,
        }
    }
}
