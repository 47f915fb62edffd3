//! The agent's errors.

use axsnap_core::backend::Outcome;
use axsnap_core::refs::RefError;
use axsnap_core::session::SessionError;
use thiserror::Error;

/// Why an agent operation failed. `E` is the backend's error.
#[derive(Debug, Error)]
pub enum AgentError<E: std::error::Error + 'static> {
    /// The backend failed (browser gone, navigation failed, element covered, ...).
    #[error(transparent)]
    Backend(E),
    /// The ref cannot be used (malformed, unknown, stale, foreign).
    #[error(transparent)]
    Ref(#[from] RefError),
    /// The element was there at the last snapshot but is gone now.
    #[error("ref {r} is stale: its element was removed or replaced since the last snapshot ({cause}); take a new snapshot")]
    Stale {
        /// The ref.
        r: String,
        /// What the backend said.
        cause: E,
    },
    /// The element is covered where the action would land.
    #[error("{cause}{}", cover.as_ref().map(|c| format!("; in your last view, {c}")).unwrap_or_default())]
    Covered {
        /// The ref.
        r: String,
        /// The cover as the last snapshot shows it (`e500 dialog "Settings"`), when it can be
        /// told.
        cover: Option<String>,
        /// What the backend said.
        cause: E,
    },
    /// The action ran and closed its own target (a dialog's Close button), opening no other:
    /// there is no snapshot to answer with; the outcome says what else happened.
    #[error("the action closed its target")]
    TargetClosed {
        /// What the action did.
        outcome: Box<Outcome>,
    },
    /// There is no target to work on.
    #[error("no page or window is open; navigate to a URL or open a target first")]
    NoTarget,
    /// The session refused the request.
    #[error(transparent)]
    Session(#[from] SessionError),
}
