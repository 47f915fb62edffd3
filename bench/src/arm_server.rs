//! The server a run talks to, whatever it is: an MCP server over stdio, or agent-browser's
//! CLI, which agents drive from a shell (each command a call, its printed text the answer).
//! Both answer a call with an [`Answer`], and both keep a transcript of the run.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::agent_browser::{AgentBrowserOptions, Shell};
use crate::error::BenchError;
use crate::mcp_client::{Answer, McpServer};

/// The tool name of a shell command in a [`crate::arms::Call`]; its arguments are
/// `{"argv": ["click", "@e3"]}`.
pub const SHELL: &str = "shell";

/// A running server of one arm.
pub enum ArmServer {
    /// An MCP server (boxed: its child process and wire record make it far larger than the
    /// shell's handle).
    Mcp(Box<McpServer>),
    /// agent-browser's CLI, one session.
    Shell {
        /// The session; each command runs on a blocking thread, one at a time.
        shell: Arc<Mutex<Shell>>,
        /// Its version, as `--version` says it.
        version: String,
    },
}

impl ArmServer {
    /// agent-browser's CLI in a fresh session.
    pub fn shell(opts: &AgentBrowserOptions) -> Result<ArmServer, BenchError> {
        let version = crate::agent_browser::version(opts)?;
        Ok(ArmServer::Shell { shell: Arc::new(Mutex::new(Shell::start(opts)?)), version })
    }

    /// The server's name and version, as it says them.
    pub fn name(&self) -> String {
        match self {
            ArmServer::Mcp(s) => s.server.clone(),
            ArmServer::Shell { version, .. } => version.clone(),
        }
    }

    /// Calls `tool` with `args`, waiting at most `timeout` (a shell command has its own
    /// timeout, set when the session was made).
    pub async fn call(&self, tool: &str, args: Value, timeout: Duration) -> Result<Answer, BenchError> {
        match self {
            ArmServer::Mcp(s) => s.call(tool, args, timeout).await,
            ArmServer::Shell { shell, .. } => {
                let argv: Vec<String> = match args.get("argv").and_then(Value::as_array) {
                    Some(a) if tool == SHELL => {
                        a.iter().filter_map(Value::as_str).map(str::to_string).collect()
                    }
                    _ => {
                        return Err(BenchError::AgentBrowserOutput(format!(
                            "the shell runs commands ({SHELL} {{argv}}), not the tool {tool} {args}"
                        )))
                    }
                };
                let shell = Arc::clone(shell);
                let started = Instant::now();
                let ran = tokio::task::spawn_blocking(move || match shell.lock() {
                    Ok(mut s) => s.run(&argv),
                    Err(_) => Err(BenchError::AgentBrowserOutput("an earlier command panicked".into())),
                })
                .await
                .map_err(|e| BenchError::AgentBrowserOutput(format!("the command's thread failed: {e}")))?;
                let (ok, text) = ran?;
                // Printed text, no `structuredContent`: every client view is the text.
                Ok(Answer::text_only(text, !ok, started.elapsed()))
            }
        }
    }

    /// Ends the session: the MCP server's stdin closes; agent-browser's session is closed.
    pub async fn stop(self) {
        match self {
            ArmServer::Mcp(s) => s.stop().await,
            ArmServer::Shell { shell, .. } => {
                // Dropping the last handle closes the session (a blocking command).
                let _ = tokio::task::spawn_blocking(move || drop(shell)).await;
            }
        }
    }
}

/// The file a run's calls and answers are appended to (markdown).
pub struct Transcript(pub PathBuf);

impl Transcript {
    /// Appends one call and its answer.
    pub fn add(&self, call: &str, answer: &str) {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(&self.0) {
            let _ = writeln!(f, "## {call}\n\n```text\n{answer}\n```\n");
        }
    }
}
