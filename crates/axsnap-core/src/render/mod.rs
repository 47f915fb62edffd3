//! Rendering: the compact text form for models and the JSON form for programs, of a full
//! snapshot and of a diff. Both are deterministic functions of the data.
//!
//! The text form is indented lines such as `- button "Save" [e7] [disabled]`: refs only where
//! an agent can use them, no noise characters.

use serde::{Deserialize, Serialize};

use crate::diff::Diff;
use crate::snapshot::Snapshot;
use crate::tree::Tree;

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Compact indented text, for models.
    #[default]
    Text,
    /// JSON, for programs.
    Json,
}

/// Renders a full snapshot.
pub fn render_snapshot(snap: &Snapshot, format: Format) -> String {
    let _ = (snap, format);
    todo!("render helper")
}

/// Renders a diff. `prev` and `next` are the trees it connects (for context lines such as the
/// parent an added node goes under).
pub fn render_diff(diff: &Diff, prev: &Tree, next: &Tree, format: Format) -> String {
    let _ = (diff, prev, next, format);
    todo!("render helper")
}

/// The one-line answer when nothing changed since snapshot `seq`.
pub fn render_unchanged(seq: u64, format: Format) -> String {
    let _ = (seq, format);
    todo!("render helper")
}
