//! `axsnap-agent`: an agent's view of one backend. [`Agent`] holds one session (its refs and
//! baselines) over any [`Backend`](axsnap_core::backend::Backend): a browser's tabs, a
//! desktop's windows, a recording. It snapshots the current target, finds elements, acts by
//! ref and answers each action with what changed (a diff when that is safe and smaller, a
//! full snapshot when not), reusing the last capture when the backend's change signal says
//! nothing changed.
//!
//! It names no runtime and no protocol: the CLI drives it directly and the MCP server wraps
//! its answers in tool results. Its errors ([`AgentError`]) keep the backend's error, so each
//! surface says what went wrong in its own words.

#![warn(missing_docs)]

mod agent;
mod error;

pub use agent::{Agent, AgentOptions, SavedAgent, Step};
pub use error::AgentError;
