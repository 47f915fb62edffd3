//! `axsnap-atspi`: the Linux desktop backend over AT-SPI, the accessibility bus of GTK, Qt,
//! LibreOffice and Chromium (with renderer accessibility on).
//!
//! It is the Linux implementation of `axsnap-desktop`'s [`Platform`](axsnap_desktop::Platform)
//! and nothing else: window ids, settling, window operations, launching and the clipboard are
//! the desktop layer's, the same on every system.
//!
//! - [`bus`]: the connection to the accessibility bus, and every call's timeout and error;
//!   [`object`]: an object's address, which is also its native identity.
//! - `apps`: the apps on the bus and their windows.
//! - [`fetch`]: reading one object; `grid`: a spreadsheet's cells on screen, through its
//!   Table interface; `capture`: walking a window under a deadline (`reuse`: what a
//!   capture may take from the last one); `build`: the core's raw tree from what was read
//!   (`twins`: a menu bar exposed twice is shown once); `mapping`: AT-SPI's roles, states
//!   and actions in the core's words.
//! - [`act`]: actions by ref, verified where they can be; `keys`: keyboard and pointer input
//!   through the registry's device event controller.
//! - `events`: the change signal; [`Atspi`]: all of it as the desktop layer's platform
//!   ([`AtspiBackend`] is the desktop backend over it); `entries`: what an app's name
//!   stands for (desktop entries, `PATH`); [`wm`]: a window's place, size and state, changed
//!   through the X display's window manager.
//!
//! # Native identity
//!
//! A node's [`axsnap_core::NativeId`] is (`scope` = the app's unique bus name, `id` = the
//! object path). Both last as long as the object: a destroyed widget's path is not reused
//! while its app runs, and a restarted app has a new bus name, so its refs do not carry over
//! by identity. Text that AT-SPI keeps in a parent (not in an object of its own) gets the
//! parent's path with `#textN`.

#![warn(missing_docs)]
// AT-SPI is Linux's: elsewhere the crate is empty (the desktop layer has no platform there yet).
#![cfg(target_os = "linux")]

pub mod act;
mod apps;
mod build;
pub mod bus;
mod capture;
mod entries;
mod error;
mod events;
pub mod fetch;
mod grid;
mod keys;
mod mapping;
pub mod object;
mod platform;
mod reuse;
mod twins;
pub mod wm;

pub use bus::Bus;
pub use capture::{CaptureLimits, Walk};
pub use error::AtspiError;
pub use object::ObjectRef;
pub use platform::{connect, on, Atspi, AtspiBackend};
