//! One MCP server over stdio, driven as an agent drives it: a real client (rmcp's) calls its
//! tools and keeps what each answer cost (text, tokens, bytes, time).

use std::path::Path;
use std::time::{Duration, Instant};

use axsnap_core::tokens::{measure, Size};
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use tokio::process::Command;

use crate::error::BenchError;

/// A running server with its client session.
pub struct McpServer {
    client: RunningService<RoleClient, ()>,
    command: String,
    /// The server's name and version from its `initialize` answer.
    pub server: String,
}

/// One tool call's answer as the agent receives it.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The text content, blocks joined by newlines: what a client hands the model.
    pub text: String,
    /// `kind` from the structured content, when the server gives one (axsnap: full, diff,
    /// unchanged, outline).
    pub kind: Option<String>,
    /// The call failed (a tool error, not a protocol one).
    pub is_error: bool,
    /// Tokens and bytes of `text`.
    pub size: Size,
    /// From request to answer.
    pub elapsed: Duration,
}

impl McpServer {
    /// Starts `argv` in `cwd` with `env` added and does the `initialize` handshake.
    pub async fn start(
        argv: &[String],
        cwd: Option<&Path>,
        env: &[(&str, &str)],
        timeout: Duration,
    ) -> Result<McpServer, BenchError> {
        let command = argv.join(" ");
        let fail = |reason: String| BenchError::Mcp { command: command.clone(), reason };
        let (program, args) = argv.split_first().ok_or_else(|| fail("no command given".to_string()))?;
        let mut cmd = Command::new(program);
        cmd.args(args);
        cmd.envs(env.iter().copied());
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        let transport = TokioChildProcess::new(cmd).map_err(|e| fail(format!("cannot start it: {e}")))?;
        let client = match tokio::time::timeout(timeout, ().serve(transport)).await {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => return Err(fail(format!("the MCP handshake failed: {e}"))),
            Err(_) => return Err(fail(format!("no handshake within {} s", timeout.as_secs()))),
        };
        let server = client
            .peer_info()
            .and_then(|p| p.server_info.as_ref().map(|s| format!("{} {}", s.name, s.version)))
            .unwrap_or_else(|| "(unnamed)".to_string());
        Ok(McpServer { client, command, server })
    }

    /// Calls `tool` with `args` (a JSON object), waiting at most `timeout`.
    pub async fn call(&self, tool: &str, args: Value, timeout: Duration) -> Result<Answer, BenchError> {
        let args: JsonObject = args.as_object().cloned().unwrap_or_default();
        let started = Instant::now();
        let request =
            self.client.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args));
        let result = match tokio::time::timeout(timeout, request).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => return Err(self.fail(format!("{tool} failed: {e}"))),
            Err(_) => return Err(self.fail(format!("{tool} gave no answer within {} s", timeout.as_secs()))),
        };
        Ok(answer(&result, started.elapsed()))
    }

    /// Ends the session; the server exits when its stdin closes.
    pub async fn stop(self) {
        let _ = self.client.cancel().await;
    }

    fn fail(&self, reason: String) -> BenchError {
        BenchError::Mcp { command: self.command.clone(), reason }
    }
}

fn answer(r: &CallToolResult, elapsed: Duration) -> Answer {
    let text =
        r.content.iter().filter_map(|c| c.as_text().map(|t| t.text.as_str())).collect::<Vec<_>>().join("\n");
    let kind =
        r.structured_content.as_ref().and_then(|s| s.get("kind")).and_then(Value::as_str).map(str::to_string);
    Answer { size: measure(&text), text, kind, is_error: r.is_error == Some(true), elapsed }
}
