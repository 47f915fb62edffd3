//! `axsnap-bench`: axsnap's workloads and side-by-side harness.
//!
//! Every figure axsnap claims against another tool is measured here, both tools on the same
//! pages with the same Chromium in one run, tokens counted with real tokenizers
//! (`axsnap_core::tokens`: cl100k_base and o200k_base), timings as medians.
//!
//! It holds two comparisons on the local Rust docs: `vs-playwright`, the size and recall of
//! axsnap's snapshot against Playwright's AI snapshot (`page.ariaSnapshot({ mode: 'ai' })`), and
//! `vs-agent-browser`, the same against agent-browser's `snapshot` and `snapshot -i` in both
//! tools' full and interactive modes. The pieces are meant for the multi-step workloads to come
//! (axsnap against Playwright MCP over the same agent steps):
//! - [`serve`]: a static file server on 127.0.0.1 for the workload pages;
//! - [`docs`]: where the toolchain's Rust docs are, and the pages used;
//! - [`playwright`]: runs the Node.js side (`playwright/snapshot.mjs`, playwright-core pinned
//!   by `playwright/package-lock.json`);
//! - [`aria`]: parses Playwright's snapshot text into items;
//! - [`agent_browser`]: runs agent-browser's CLI (npm `agent-browser`, its native binary pinned
//!   by `agent-browser/package-lock.json`), a fresh session per page;
//! - [`ab_snapshot`]: parses agent-browser's snapshot text into the same items;
//! - [`ours`]: axsnap's side through the library crates, as `axsnap snapshot URL` does it;
//! - [`recall`]: how much of Playwright's snapshot ours holds (the rules are documented there);
//! - [`cost`]: where a snapshot's tokens go;
//! - [`compare`]: one side-by-side run; [`report`]: its markdown;
//! - [`vs_agent_browser`]: the run against agent-browser, both modes, and its markdown;
//! - [`tools_list`]: what an MCP server's `tools/list` costs in tokens (`tools-list-tokens`);
//! - [`webapp`]: an agent's workflow through a web app built without ARIA roles
//!   (`webapp-workflow`), step by step beside Playwright's AI snapshot of the same page.
//!
//! The workloads over MCP (`bench`, `scripts/bench`): [`workload`] reads the data files in
//! `bench/workloads/`; [`apps`] starts the app each runs on (a static site, Jupyter);
//! [`arms`] says how each MCP server is spoken to; [`mcp_client`] drives one over stdio and
//! counts each answer in both [`client_view`]s (the text, and what Claude Code and Codex give
//! the model: `structuredContent` as JSON when present);
//! [`view`] keeps what an arm has shown, to resolve a step to that arm's ref; [`drive`] runs
//! one workload through one arm and checks the task on the app; [`workload_report`] sums the
//! runs up. `record-workload` runs a workload's steps through axsnap's agent in process and
//! writes the raw tree after each step (fixtures of pages reached only by acting, such as
//! `fixtures/trees/phpmyadmin/`).
//!
//! [`client_view_table`] (`client-view`): one navigation to real docs pages through axsnap
//! (with and without `--structured-content`) and Playwright MCP, in both client views.

#![warn(missing_docs)]

pub mod ab_snapshot;
pub mod agent_browser;
pub mod apps;
pub mod aria;
pub mod arm_server;
pub mod arms;
pub mod charts;
pub mod check;
pub mod client_view;
pub mod client_view_table;
pub mod compare;
pub mod cost;
pub mod desktop_app;
pub mod docs;
pub mod drive;
pub mod error;
pub mod mcp_client;
pub mod ours;
pub mod playwright;
pub mod recall;
pub mod report;
pub mod serve;
pub mod state_probe;
pub mod tools_list;
pub mod view;
pub mod vs_agent_browser;
pub mod webapp;
pub mod workload;
pub mod workload_report;

pub use error::BenchError;

/// A runtime for the async side (two workers: the machines this runs on have two cores).
pub fn runtime() -> Result<tokio::runtime::Runtime, BenchError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(BenchError::Runtime)
}
