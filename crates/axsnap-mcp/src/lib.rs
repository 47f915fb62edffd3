//! `axsnap-mcp`: axsnap's MCP server, built on `axsnap-agent`'s agents: one over the
//! browser's tabs (`axsnap-cdp`) and, with `--desktop`, one over the desktop's windows
//! (`axsnap-desktop`, on the system's platform or a recording).
//!
//! - The server: [`serve_stdio`] (one session) and [`serve_http`] (streamable HTTP, many
//!   sessions, each with its own browser context, refs and baselines). `tool_name` names
//!   every tool once, `tools` lists them, `args` reads their arguments (`calls`: those a tab and a window share),
//!   `surface` runs what a tab and a window share (generic over the backend), `browsing`
//!   one session's browser calls, `desktop` its desktop calls (`--desktop`),
//!   `reply` and `failure` shape the answers (text only, unless `--structured-content`
//!   adds the JSON form and `output_schema` declares its shape), `url_policy` says which URLs may be opened.
//!   `progress` tells a client that asked for it what a long call is doing.
//!
//! ```no_run
//! # async fn run() -> Result<(), axsnap_mcp::ServeError> {
//! let options = axsnap_mcp::ServerOptions::default();
//! axsnap_mcp::serve_stdio(options, std::future::pending()).await
//! # }
//! ```

#![warn(missing_docs)]

mod args;
mod browsers;
mod browsing;
mod calls;
mod caps;
mod code;
mod desktop;
mod failure;
mod handler;
pub mod host;
mod options;
mod output;
mod output_schema;
mod progress;
mod reply;
mod sessions;
pub mod storage_state;
mod store;
mod surface;
mod tool_name;
mod tools;
mod transport;
mod upload;
mod url_policy;
mod wait;

pub use args::MAX_STRING_BYTES;
pub use caps::{Caps, UnknownCap, GROUPS as CAP_GROUPS};
pub use code::Code;
pub use failure::{DESKTOP_DOCTOR_HINT, DOCTOR_HINT};
pub use handler::{protocol_versions, AxsnapServer, Shared};
pub use options::{BrowserOptions, ServerOptions};
pub use tool_name::{Offer, ToolName};
pub use tools::list as tool_list;
pub use transport::{serve_http, serve_stdio, HttpOptions, ServeError, MCP_PATH};
pub use upload::UploadRoot;
pub use url_policy::{UrlPolicy, UrlRefused};
