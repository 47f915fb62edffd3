//! `axsnap-uia`: Windows UI Automation for axsnap, and the Windows trees recorded with
//! Accessibility Insights, read and replayed on any system.
//!
//! What is here builds and is tested everywhere, because it is plain data:
//! - [`element`]: a UI Automation element as read (properties by UIA property id, control
//!   patterns with their state) in a flat tree, [`Elements`];
//! - [`reader`] and [`archive`]: Accessibility Insights for Windows' element JSON (`.hier`,
//!   `.snapshot`, and the `el.snapshot` inside an `.a11ytest` zip) read into [`Elements`];
//! - [`writer`]: [`Elements`] written back as that JSON ([`write_json`]), so a captured window
//!   can be saved as a recording that reads back the same;
//! - [`mapping`]: control types to the core's roles, patterns to actions, state to states;
//! - [`build()`]: elements to the core's raw [`Tree`](axsnap_core::Tree), with native ids from
//!   RuntimeIds and secrets redacted there;
//! - [`recording`]: such a file as the recorded platform's input, one app with one window
//!   ([`open_recording`]), so every desktop tool runs on a real Windows tree anywhere;
//! - [`automation`]: the primitives UI Automation gives ([`Automation`]), and [`UiaPlatform`],
//!   the desktop layer's platform built on any of them: apps as processes, an action as
//!   [`plan`]'s pattern calls with a read-back, the change events marking windows dirty, an
//!   app that raises none polled;
//! - [`scripted`]: a recorded window as an [`Automation`] that changes as a script says, the
//!   platform's test bench.
//!
//! What projection makes of the tree (anonymous panes unwrapped, blank images and repeated
//! labels dropped, click points kept only where one can act) is the core's, as for every
//! backend. On Windows (`cfg(windows)`), `ComAutomation` is the [`Automation`] over UI
//! Automation's COM API: the capture with one cache request per window, pattern calls and
//! input, window requests and change events.
//!
//! ```
//! let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/desktop/uia"));
//! let recording = axsnap_uia::open_recording(&dir.join("A11yPatternTest.hier")).unwrap();
//! assert_eq!(recording.apps[0].name, "A11yPatternTest");
//! assert_eq!(recording.apps[0].windows[0].title, "Solution Configurations");
//! ```

#![warn(missing_docs)]

pub mod archive;
pub mod automation;
pub mod build;
#[cfg(windows)]
mod com;
pub mod element;
mod error;
pub mod ids;
pub mod mapping;
pub mod plan;
mod platform;
pub mod reader;
pub mod recording;
pub mod scripted;
mod worker;
pub mod writer;

pub use automation::{Automation, Call, CallError, EventKind, Heard, Read, TopWindow};
pub use build::{build, build_at, Built};
#[cfg(windows)]
pub use com::ComAutomation;
pub use element::{Element, Elements, Patterns};
pub use error::ReadError;
pub use platform::{resolve, UiaControl, UiaPlatform, UiaWindow};
pub use reader::{read_json, Limits};
pub use recording::{open, open_recording, read_elements, window_elements, Opened};
pub use scripted::{Script, ScriptedAutomation};
pub use writer::write_json;
