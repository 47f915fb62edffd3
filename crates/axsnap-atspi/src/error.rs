//! [`AtspiError`]: what went wrong talking to the desktop, and what to do next.

use std::time::Duration;

use axsnap_core::backend::Refusal;
use axsnap_core::keys::KeyError;
use axsnap_desktop::DesktopError;
use thiserror::Error;

/// An error of the AT-SPI backend.
#[derive(Debug, Error)]
pub enum AtspiError {
    /// No D-Bus session bus to ask for the accessibility bus.
    #[error(
        "no D-Bus session bus ({0}): run inside a desktop session, or start one with \
         `dbus-run-session -- COMMAND` on a display (Xvfb makes a virtual one; in a clone of \
         axsnap, `scripts/desktop-session -- COMMAND` starts Xvfb, a session bus and AT-SPI)"
    )]
    NoSessionBus(String),
    /// The session bus has no accessibility bus.
    #[error(
        "no accessibility bus on the session bus ({0}): install at-spi2-core (Debian: \
         `apt-get install at-spi2-core`), which the session bus then starts (in a clone of \
         axsnap, `scripts/desktop-session` starts one)"
    )]
    NoAccessibilityBus(String),
    /// A D-Bus call failed.
    #[error("{what} failed: {detail}")]
    Call {
        /// The call, in words (`GetChildren on :1.5/org/a11y/atspi/accessible/12`).
        what: String,
        /// What D-Bus said.
        detail: String,
    },
    /// A call got no answer in time: the app is busy or hung.
    #[error("{what} got no answer within {after:?}: the app is busy or hung; try again, or restart it")]
    Timeout {
        /// The call, in words.
        what: String,
        /// How long it waited.
        after: Duration,
    },
    /// The element (or its app) is gone: the app exited, the window closed, or the element was
    /// destroyed.
    #[error("the element is gone ({0}); take a new snapshot")]
    Gone(String),
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
    /// The window or the backend cannot do what was asked (a desktop window has no URL).
    #[error("{0}")]
    Unsupported(String),
    /// The X display could not be reached or asked (window management).
    #[error("the X display: {0}")]
    Display(String),
    /// A window request that only a window manager can carry out, with none running.
    #[error("{0}")]
    NoWindowManager(String),
    /// The action ran but its effect could not be seen.
    #[error("{0}")]
    NotApplied(String),
    /// An edit of an element (fill, a value, check, select) did not take: read back over the
    /// bus, the element holds what it held, or something else.
    #[error("{0}")]
    NoEffect(String),
}

impl AtspiError {
    /// A refusal of `kind`, saying `message`.
    pub fn refused(kind: Refusal, message: impl Into<String>) -> AtspiError {
        AtspiError::Refused { kind, message: message.into() }
    }

    /// Whether this says the element or its app no longer exists.
    pub fn is_gone(&self) -> bool {
        matches!(self, AtspiError::Gone(_))
    }
}

/// The desktop layer's words for what went wrong on the bus: the same as every platform's.
impl From<AtspiError> for DesktopError {
    fn from(e: AtspiError) -> DesktopError {
        let text = e.to_string();
        match e {
            AtspiError::NoSessionBus(_) | AtspiError::NoAccessibilityBus(_) => {
                DesktopError::Unavailable(text)
            }
            AtspiError::Call { .. } => DesktopError::Platform(text),
            AtspiError::Timeout { what, after } => DesktopError::Timeout { what, after },
            AtspiError::Gone(why) => DesktopError::Gone(why),
            AtspiError::Refused { kind, message } => DesktopError::Refused { kind, message },
            AtspiError::BadKey(k) => DesktopError::BadKey(k),
            AtspiError::Unsupported(why) => DesktopError::Unsupported(why),
            AtspiError::Display(_) => DesktopError::WindowSystem(text),
            AtspiError::NoWindowManager(why) => DesktopError::NoWindowManager(why),
            AtspiError::NotApplied(why) => DesktopError::NotApplied(why),
            AtspiError::NoEffect(why) => DesktopError::NoEffect(why),
        }
    }
}
