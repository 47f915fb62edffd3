//! `axsnap-mcp`: the Model Context Protocol server (tools, sessions, transports, security).
//!
//! Not built yet: a later stage fills it on top of `axsnap-core` and the backends.
