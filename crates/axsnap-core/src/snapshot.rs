//! A snapshot: the projected tree with refs, as one client was (or will be) sent it.

use serde::{Deserialize, Serialize};

use crate::project::ProjectStats;
use crate::refs::TargetId;
use crate::tree::Tree;

/// A projected tree with refs, numbered within its session.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// The target it shows.
    pub target: TargetId,
    /// Sequence number within the session (diffs name the two they connect).
    pub seq: u64,
    /// Page URL or window title line, when the backend gave one.
    pub header: Header,
    /// The projected tree; every reachable node carries a ref.
    pub tree: Tree,
    /// What projection removed and cut.
    pub stats: ProjectStats,
}

/// Context shown above a snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// URL of a page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Title of a page or window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}
