//! `axsnap-atspi`: the Linux desktop backend over AT-SPI, the accessibility bus of GTK, Qt,
//! LibreOffice and Chromium (with renderer accessibility on).
//!
//! - [`bus`]: the connection to the accessibility bus, and every call's timeout and error;
//!   [`object`]: an object's address, which is also its native identity.
//! - [`apps`]: the apps on the bus and their windows.
//! - [`fetch`]: reading one object; [`grid`]: a spreadsheet's cells on screen, through its
//!   Table interface; [`capture`]: walking a window under a deadline;
//!   [`build`]: the core's raw tree from what was read ([`twins`]: a menu bar exposed twice
//!   is shown once); [`mapping`]: AT-SPI's roles, states
//!   and actions in the core's words.
//! - [`act`]: actions by ref, verified where they can be; [`keys`]: keyboard and pointer input
//!   through the registry's device event controller.
//! - [`events`]: the change signal; [`backend`]: all of it behind the core's `Backend`;
//!   [`launch`]: starting an app and finding its first window; [`clipboard`]: the session's
//!   clipboard as text; [`wm`]: a window's place, size and state, changed through the X
//!   display's window manager (focus, close, move, resize, minimize, maximize).
//!
//! # Native identity
//!
//! A node's [`axsnap_core::NativeId`] is (`scope` = the app's unique bus name, `id` = the
//! object path). Both last as long as the object: a destroyed widget's path is not reused
//! while its app runs, and a restarted app has a new bus name, so its refs do not carry over
//! by identity. Text that AT-SPI keeps in a parent (not in an object of its own) gets the
//! parent's path with `#textN`.

#![warn(missing_docs)]

pub mod act;
pub mod apps;
pub mod backend;
pub mod build;
pub mod bus;
pub mod capture;
pub mod clipboard;
pub mod error;
pub mod events;
pub mod fetch;
pub mod grid;
pub mod keys;
pub mod launch;
pub mod mapping;
pub mod object;
pub mod reuse;
pub mod twins;
mod window_ops;
pub mod wm;

pub use apps::{AppInfo, WindowInfo};
pub use backend::{AtspiBackend, DesktopWindow, Listing};
pub use bus::Bus;
pub use capture::{CaptureLimits, Walk};
pub use error::AtspiError;
pub use object::ObjectRef;
pub use window_ops::WindowChange;
