//! Sessions: baselines per (client, target), the full / reset / auto modes and the auto policy.
//!
//! - `full`: the complete projected snapshot; the baseline does not move.
//! - `reset`: a full snapshot that becomes the new baseline.
//! - `auto` (default): the first call is full; later calls send a diff against the last
//!   snapshot this client was sent for this target when the diff is safe (it applies back to
//!   exactly the new snapshot, and both were projected with the same options) and costs less
//!   than `diff_ratio` (default 0.8) of the full response in cl100k tokens; otherwise full.
//!   Nothing changed: a one-line answer.
//!
//! Baselines are bounded in number (least recently used goes first) and age.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::backend::Capture;
use crate::project::{ProjectOptions, ProjectStats};
use crate::refs::{RefError, RefSpace, RefStats, TargetId};
use crate::render::Format;
use crate::snapshot::Snapshot;
use crate::tokens::Size;
use crate::tree::NativeId;
use crate::Ref;

/// How a snapshot request is answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Diff when safe and smaller, else full; the baseline moves.
    #[default]
    Auto,
    /// Full; the baseline stays.
    Full,
    /// Full; the baseline moves.
    Reset,
}

/// The auto policy and the baseline bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// A diff is sent only when its tokens are below this fraction of the full response's.
    pub diff_ratio: f64,
    /// Most baselines kept (over all clients and targets).
    pub max_baselines: usize,
    /// Baselines older than this are dropped (the next auto answer is full).
    pub max_age: Duration,
    /// Check `apply(prev, diff) == next` before sending a diff.
    pub verify: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { diff_ratio: 0.8, max_baselines: 64, max_age: Duration::from_secs(30 * 60), verify: true }
    }
}

/// Who is asking: one MCP client, one CLI invocation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClientId(pub String);

/// A snapshot request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// The mode.
    pub mode: Mode,
    /// The format.
    pub format: Format,
    /// Projection rules and view.
    pub options: ProjectOptions,
}

/// What kind of answer was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Answer {
    /// A full snapshot.
    Full {
        /// Why full was chosen in auto mode (`None` when asked for).
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<FullReason>,
    },
    /// A diff relative to snapshot `from_seq`.
    Diff {
        /// The baseline.
        from_seq: u64,
    },
    /// Nothing changed since `since_seq`.
    Unchanged {
        /// The baseline.
        since_seq: u64,
    },
}

/// Why auto mode sent a full snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FullReason {
    /// No baseline for this client and target (first call, expired or evicted).
    NoBaseline,
    /// The view or projection options differ from the baseline's.
    OptionsChanged,
    /// The diff was not smaller than the policy's fraction of the full snapshot.
    DiffNotSmaller,
    /// The diff could not be made or did not apply back exactly.
    DiffUnsafe,
}

/// One answer to a snapshot request.
#[derive(Clone, Debug)]
pub struct Response {
    /// What was sent.
    pub answer: Answer,
    /// The rendered text sent to the client.
    pub text: String,
    /// Its size.
    pub size: Size,
    /// The size the full snapshot would have had (for savings reports).
    pub full_size: Size,
    /// The new snapshot (also when a diff or "unchanged" was sent).
    pub snapshot: Snapshot,
    /// What the refs stage did.
    pub refs: RefStats,
}

/// Why a session request failed.
#[derive(Debug, Error)]
pub enum SessionError {
    /// A ref could not be used.
    #[error(transparent)]
    Ref(#[from] RefError),
}

/// Baselines and refs of one session (one browser context or desktop, any number of clients).
#[derive(Debug, Default)]
pub struct Session {
    policy: Policy,
    refs: RefSpace,
    next_seq: u64,
    baselines: HashMap<(ClientId, TargetId), Baseline>,
}

#[derive(Debug)]
struct Baseline {
    snapshot: Snapshot,
    options: ProjectOptions,
    last_used: Instant,
}

impl Session {
    /// A session with a policy.
    pub fn new(policy: Policy) -> Session {
        Session { policy, ..Session::default() }
    }

    /// Answers a snapshot request for a fresh capture: project, assign refs, then render full,
    /// diff or unchanged by the request's mode and the policy.
    pub fn snapshot(
        &mut self,
        client: &ClientId,
        capture: &Capture,
        request: &Request,
        now: Instant,
    ) -> Result<Response, SessionError> {
        let _ = (
            client,
            capture,
            request,
            now,
            &self.policy,
            &mut self.refs,
            &mut self.next_seq,
            &mut self.baselines,
        );
        todo!("session helper")
    }

    /// The native id a ref names on `target`.
    pub fn resolve(&self, target: &TargetId, r: Ref) -> Result<&NativeId, RefError> {
        self.refs.resolve(target, r)
    }

    /// The refs (for find and scope resolution).
    pub fn refs(&self) -> &RefSpace {
        &self.refs
    }

    /// Drops a client's baselines (it disconnected).
    pub fn forget_client(&mut self, client: &ClientId) {
        self.baselines.retain(|(c, _), _| c != client);
    }

    /// Drops a target's baselines and refs (its tab closed).
    pub fn forget_target(&mut self, target: &TargetId) {
        self.baselines.retain(|(_, t), _| t != target);
        self.refs.forget_target(target);
    }

    /// Baselines currently kept.
    pub fn baseline_count(&self) -> usize {
        self.baselines.len()
    }

    #[allow(dead_code)]
    fn baseline_options(
        &self,
        client: &ClientId,
        target: &TargetId,
    ) -> Option<(&ProjectOptions, &ProjectStats, Instant)> {
        self.baselines
            .get(&(client.clone(), target.clone()))
            .map(|b| (&b.options, &b.snapshot.stats, b.last_used))
    }
}
