//! `axsnap-cdp`: the Chromium backend over the Chrome DevTools Protocol.
//!
//! - `browser`: find, launch (headless, temporary profile, off the network) or connect to a
//!   browser; `host`: one browser shared by many sessions, each in its own context, started
//!   on first use; [`page`]: a handle on one tab, navigation with clear errors.
//! - `conn`: the raw CDP client every capture call goes through (untyped JSON, any session).
//! - `frames`: a tab's sessions (out-of-process iframes included), isolated-world contexts
//!   and structural epoch; `change`: the change signal built on them.
//! - `ax`: lenient accessibility-tree parsing; `layout`: the DOM snapshot join; a large
//!   document is built from that snapshot alone (`dom_first`, `dom_tree`).
//! - `page_log`: console errors and downloads a tab reported; [`screenshot`]: PNGs.
//!
//! # Native identity
//!
//! Every node of a capture carries a [`axsnap_core::NativeId`]:
//! - `scope` = `"<frameId>:<loaderId>"` of the document the node belongs to. The loader id
//!   changes when a frame navigates to a new document, so a navigation shows as a scope churn
//!   (the core may then carry refs over structurally), while a same-document change (DOM
//!   edits, `history.pushState`) keeps the scope and thus every ref.
//! - `id` = the DOM backend node id as a decimal string. Backend node ids are stable for the
//!   life of a DOM node and never reused within a renderer, so a removed element replaced by an
//!   identical twin gets a new id.
//! - An accessibility node with no DOM node (a pseudo element's text, a list marker) gets
//!   `id` = `"ax:<AX node id>"`, derived from the browser's AX node id.

#![warn(missing_docs)]

mod act;
mod assemble;
mod ax;
mod ax_ids;
mod backend;
mod browser;
mod capture;
mod cased;
mod change;
mod conn;
pub mod dialogs;
mod dom_first;
mod dom_tree;
pub mod downloads;
mod endpoint;
mod error;
mod executable;
mod frames;
mod host;
mod input;
mod json;
mod json_version;
mod layout;
pub mod locate;
mod lost_targets;
pub mod nav;
pub mod page;
mod page_log;
pub mod record;
pub mod screenshot;
mod secrets;
pub mod settle;
mod skeleton;
mod slow_ax;
pub mod storage;
pub mod tabs;

pub use act::{act, act_with, LOOKUP_QUIET};
pub use backend::{CdpBackend, Handoff};
pub use browser::{running_as_root, Browser, LaunchOptions};
pub use capture::{capture, capture_with, AxTree, CaptureOptions, CaptureOutput, CaptureStats};
pub use change::changed;
pub use dom_first::DOM_FIRST_ELEMENTS;
pub use downloads::{Download, Downloads};
pub use endpoint::Endpoint;
pub use error::CdpError;
pub use executable::find_browser;
pub use host::{BrowserHost, BrowserSource, Isolation};
pub use page::{Navigation, PageHandle};
pub use page_log::PageLog;
pub use record::Recorder;
pub use settle::SettleOptions;
