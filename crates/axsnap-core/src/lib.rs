//! `axsnap-core`: the pure perception engine of axsnap.
//!
//! It turns a raw accessibility tree (from any backend) into a compact semantic snapshot with
//! durable element refs, and turns two snapshots into an exact diff. It does no I/O and names
//! no async runtime; backends feed it [`Tree`]s and carry out actions on [`NativeId`]s.
//!
//! Data flows one way:
//!
//! ```text
//! raw Tree --project--> projected Tree --refs--> Snapshot --render--> text | JSON
//!                                                  \--diff(prev, next)--> Diff --render-->
//! ```
//!
//! - [`tree`], [`role`], [`state`]: the model; [`interchange`]: its JSON file form.
//! - [`project`]: projection rules and views.
//! - [`refs`]: durable refs and their lookup.
//! - [`diff`]: diff and apply.
//! - [`session`]: baselines and the auto / full / reset policy.
//! - [`render`], [`tokens`], [`find`]: output, sizes, search; [`caps`]: the longest text
//!   any output shows.
//! - [`secret`]: what never leaves a backend, and its redaction; [`cover`]: what covers what.
//! - [`backend`]: the contract a backend fulfils; [`keys`]: keys and chords as agents write
//!   them, read once for every backend.
//! - [`progress`]: what a long call is doing now, told by whichever layer knows it.

#![warn(missing_docs)]

pub mod backend;
pub mod caps;
pub mod cover;
pub mod diff;
pub mod error;
pub mod find;
pub mod interchange;
pub mod keys;
pub mod outline;
pub mod progress;
pub mod project;
pub mod refs;
pub mod render;
pub mod role;
pub mod secret;
pub mod session;
pub mod snapshot;
pub mod state;
pub mod tokens;
pub mod tree;

pub use error::TreeError;
pub use refs::{Ref, RefError, TargetId};
pub use role::Role;
pub use snapshot::{Header, Snapshot};
pub use state::{Action, ActionSet, State, StateSet};
pub use tree::{Folded, NativeId, Node, NodeId, RawFlags, Rect, Tree, ValueRange};
