//! `axsnap-desktop`: the desktop layer no platform owns. Desktop systems differ in how they
//! list windows, read a window's accessibility tree, act on an element and move a window;
//! everything built on those primitives is the same on every system and lives here.
//!
//! - [`Platform`]: the primitives a system offers (list apps and windows, capture a window,
//!   act on an element, press keys, how long since an app was last heard from, a window's
//!   frame and requests to change it, resolve and spawn an app). `axsnap-atspi` is the Linux
//!   implementation; Windows (UI Automation) and macOS (AX) are next.
//! - [`DesktopBackend`]: the core's [`Backend`](axsnap_core::backend::Backend) over any
//!   platform: window ids (`w1`, `w2`, ...) and the listing, the settle after an action,
//!   which windows an action opened ([`backend`]); window operations and the wait until they
//!   hold ([`window`]); launching and the wait for the first window ([`launch`]).
//! - [`Clipboard`]: the session's clipboard as text.
//! - [`RecordedPlatform`]: a platform that replays a [`Recording`], so the desktop tools run
//!   end to end on any machine from trees recorded on a real one.
//! - [`Either`]: one of two platforms chosen at run time; [`NoPlatform`]: a system without one.
//! - [`DesktopError`]: one error vocabulary for every platform.
//!
//! ```
//! use axsnap_desktop::{DesktopBackend, Recording, RecordedPlatform};
//! use axsnap_core::backend::Backend;
//!
//! let json = r#"{"format": "axsnap-desktop-recording", "version": 1, "apps": [{"name": "notes",
//!   "windows": [{"id": "main", "title": "Notes", "tree": {"format": "axsnap-tree", "version": 1,
//!   "root": 0, "nodes": [{"id": 0, "role": "frame", "name": "Notes", "native": {"scope": "n", "id": "0"}}]}}]}]}"#;
//! let recording = Recording::parse(json, std::path::Path::new(".")).unwrap();
//! let mut desktop = DesktopBackend::new(RecordedPlatform::new(recording));
//! let rt = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
//! let windows = rt.block_on(desktop.windows()).unwrap();
//! assert_eq!((windows[0].id.as_str(), windows[0].title.as_str()), ("w1", "Notes"));
//! ```

#![warn(missing_docs)]

mod apps;
pub mod backend;
mod clipboard;
pub mod deep_json;
mod either;
mod error;
mod flat;
pub mod launch;
mod platform;
mod recorded;
mod recording;
pub mod window;

pub use apps::{find_app, find_window};
pub use backend::{DesktopBackend, DesktopWindow, Listing};
pub use clipboard::Clipboard;
pub use either::Either;
pub use error::DesktopError;
pub use flat::Flat;
pub use launch::{spawn_process, Launched, Spawned};
pub use platform::{AppInfo, NoPlatform, Pass, Platform, WindowControl, WindowInfo};
pub use recorded::{RecordedControl, RecordedPlatform};
pub use recording::{RecordedApp, RecordedWindow, Recording, Transition, Trigger, FORMAT};
pub use window::{Frame, SizeLimits, WindowChange, WindowOp};
