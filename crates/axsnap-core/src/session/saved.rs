//! A session saved and restored, maybe by another process: a session handed from one server
//! to another through a shared store.
//!
//! [`Session::save`] writes out everything the session knows: its refs (every ref's native id,
//! its role and name for the stale error, the structure churn matching compares, the documents
//! away that may come back, the refresh counter; `refs::saved`), its baselines with their
//! snapshots (trees in a compact form, `saved::snapshot`; `baselines::saved`) and its sequence
//! number. Not the policy: that is the server's configuration, given to [`Session::restore`].
//! The form is meant to be stored as JSON (`serde_json::to_vec`); instants are written as ages
//! (milliseconds) at the `now` it is saved and read back as that long before the `now` it is
//! restored. What can be rebuilt (the ref index by native id, the target index) is not written.
//!
//! A restored session answers as the original would: the next new ref gets the number the
//! original's would, live refs name the same elements, stale ones say the same role and name,
//! forgotten ones stay forgotten, documents away still come back with their refs, and the next
//! answer (diff, unchanged or full, back on an earlier document) is the same, with the same
//! sequence numbers (`tests/session_saved.rs`; `tests/refs_props.rs` restores a session before
//! every step of random edit scripts and compares every answer and every ref). Two differences,
//! both at the edges: ages are kept to the millisecond (two baselines last used less than a
//! millisecond apart may be evicted in the other order), and a baseline past the policy's
//! `max_age` whose age reaches back before the earliest instant the restoring process can
//! represent is dropped at once, not at the next step.
//!
//! Restoring checks the form so that a corrupt or hostile store gives a [`RestoreError`],
//! never a panic: indexes in range, trees whole, counters that can still count (see the
//! modules named above).

use std::time::Instant;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::baselines::{Baselines, SavedBaselines};
use super::{Policy, Session};
use crate::refs::{RefSpace, SavedRefs};

pub(super) mod snapshot;

/// The version of the saved form this build writes and reads.
const VERSION: u32 = 1;

/// A session written out to be read back, maybe by another process ([`Session::save`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedSession {
    /// The form's version ([`VERSION`]).
    version: u32,
    /// The last snapshot's sequence number.
    seq: u64,
    refs: SavedRefs,
    baselines: SavedBaselines,
}

/// Why a saved session could not be restored: its form is of another version, or does not
/// hold together (a corrupt or hostile store).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum RestoreError {
    /// Saved by a build that writes another version of the form.
    #[error("the saved session is of version {found}; this build reads version {supported}")]
    Version {
        /// The version found.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The sequence number cannot go on.
    #[error("the saved session's sequence number {0} is at its end")]
    Seq(u64),
    /// The refs do not hold together.
    #[error("the saved session's refs do not hold together: {0}")]
    Refs(String),
    /// A baseline does not hold together.
    #[error("the saved session's baselines do not hold together: {0}")]
    Baselines(String),
}

impl Session {
    /// Everything the session knows (refs, baselines, sequence numbers), to be read back by
    /// [`Session::restore`], in this process or another. Ages are kept relative to `now`.
    pub fn save(&self, now: Instant) -> SavedSession {
        SavedSession {
            version: VERSION,
            seq: self.next_seq,
            refs: self.refs.save(),
            baselines: self.baselines.save(now),
        }
    }

    /// A session from a saved one, with `policy` (not saved: it is the server's
    /// configuration). Fails with a typed error when the saved form is inconsistent (a hostile
    /// or corrupt store).
    pub fn restore(policy: Policy, saved: SavedSession, now: Instant) -> Result<Session, RestoreError> {
        let SavedSession { version, seq, refs, baselines } = saved;
        if version != VERSION {
            return Err(RestoreError::Version { found: version, supported: VERSION });
        }
        if seq == u64::MAX {
            return Err(RestoreError::Seq(seq));
        }
        let refs = RefSpace::restore(refs).map_err(RestoreError::Refs)?;
        let baselines =
            Baselines::restore(baselines, now, policy.max_age).map_err(RestoreError::Baselines)?;
        Ok(Session { policy, refs, next_seq: seq, baselines, steady: Default::default() })
    }
}
