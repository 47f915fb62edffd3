//! `axsnap-mcp`: what an agent can ask of axsnap, over any backend.
//!
//! [`Agent`] is the one place where a backend, a [`Session`](axsnap_core::session::Session)
//! and the auto policy meet: take a snapshot, find elements, act on a ref and answer with the
//! diff the action caused. The MCP server (tools, transports, security; a later stage) and the
//! CLI's `demo` both call it, so what a script shows is what an MCP client gets.

#![warn(missing_docs)]

mod agent;
mod error;

pub use agent::{Agent, AgentOptions, Step};
pub use error::AgentError;
