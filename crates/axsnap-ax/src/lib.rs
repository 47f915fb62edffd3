//! `axsnap-ax`: macOS accessibility (AX) for axsnap, and macOS trees recorded as AX
//! recordings (`.axjson`), read and replayed on any system.
//!
//! What is here builds and is tested everywhere, because it is plain data:
//! - [`element`]: an AX element as read (its attributes, actions, settable attributes) in a
//!   flat tree, [`Elements`];
//! - [`reader`]: the AX recording format (JSON of nested elements keyed by AX attribute
//!   names) read into [`Elements`], with limits and errors that say what to fix;
//! - [`mapping`]: AX roles and subroles to the core's roles, actions and settable attributes
//!   to actions, attributes to states;
//! - [`build()`]: elements to the core's raw [`Tree`](axsnap_core::Tree), with native ids
//!   and secrets (secure text fields) redacted there;
//! - [`recording`]: such a file as the recorded platform's input, one app with one window
//!   ([`open_recording`]), so every desktop tool runs on a macOS tree anywhere.
//!
//! What projection makes of the tree (unnamed groups unwrapped, blank images and repeated
//! labels dropped) is the core's, as for every backend. The capture over the AX API, acting,
//! the change observer and window operations (macOS only) are yet to come.
//!
//! ```
//! let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/desktop/ax"));
//! let recording = axsnap_ax::open_recording(&dir.join("login.axjson")).unwrap();
//! assert_eq!(recording.apps[0].windows[0].title, "Sign In");
//! ```

#![warn(missing_docs)]

pub mod build;
pub mod element;
mod error;
pub mod mapping;
pub mod reader;
pub mod recording;

pub use build::{build, build_at, Built};
pub use element::{AxAction, Element, Elements, Settable};
pub use error::ReadError;
pub use reader::{read_json, AxRecording, Limits};
pub use recording::{from_bytes, is_ax_recording, open_recording, recording_of, EXTENSION};
