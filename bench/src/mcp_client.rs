//! One MCP server over stdio, driven as an agent drives it: a real client (rmcp's) calls its
//! tools and keeps what each answer cost (text, tokens, bytes, time), in both client views
//! ([`crate::client_view`]).
//!
//! The server's stdout is recorded as the client reads it, so a result's `structuredContent`
//! is counted as the server wrote it (its key order), as `JSON.stringify` in a client would
//! give it; rmcp's parsed value has its keys sorted.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axsnap_core::tokens::Size;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use tokio::process::{Child, Command};

use crate::client_view::ClientViews;
use crate::error::BenchError;
use crate::tools_list::Recorder;

/// How long a server has to exit after its stdin closes, and again after SIGTERM (rmcp's own
/// child transport waits as long).
const EXIT_WAIT: Duration = Duration::from_secs(3);

/// A running server with its client session.
pub struct McpServer {
    client: RunningService<RoleClient, ()>,
    child: Child,
    /// What the server wrote since the current call began.
    wire: Arc<Mutex<Vec<u8>>>,
    /// One call at a time, so the bytes recorded during a call hold that call's result.
    turn: tokio::sync::Mutex<()>,
    command: String,
    /// The server's name and version from its `initialize` answer.
    pub server: String,
}

/// One tool call's answer as the agent receives it.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The text content, blocks joined by newlines: the text view, which the bench's view of
    /// the page reads.
    pub text: String,
    /// `kind` from the structured content, when the server gives one (axsnap: full, diff,
    /// unchanged, outline).
    pub kind: Option<String>,
    /// The call failed (a tool error, not a protocol one).
    pub is_error: bool,
    /// Tokens and bytes of `text` (the text view).
    pub size: Size,
    /// Tokens and bytes of the structured-first view (Claude Code, Codex, OpenCode): the
    /// `structuredContent` JSON of a successful result that carries it, else `size`.
    pub structured_first: Size,
    /// The result carried `structuredContent`.
    pub structured: bool,
    /// From request to answer.
    pub elapsed: Duration,
}

impl Answer {
    /// An answer that is text only (a shell command's output, a result without
    /// `structuredContent`): both views are the text.
    pub fn text_only(text: String, is_error: bool, elapsed: Duration) -> Answer {
        let size = axsnap_core::tokens::measure(&text);
        Answer { text, kind: None, is_error, size, structured_first: size, structured: false, elapsed }
    }
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
        // Its log goes to ours, as with rmcp's child transport; a failed start kills it.
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).kill_on_drop(true);
        let mut child = cmd.spawn().map_err(|e| fail(format!("cannot start it: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(fail("its standard streams were not piped".to_string()));
        };
        let wire = Arc::new(Mutex::new(Vec::new()));
        let reader = Recorder::new(stdout, Arc::clone(&wire));
        let client = match tokio::time::timeout(timeout, ().serve((reader, stdin))).await {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => return Err(fail(format!("the MCP handshake failed: {e}"))),
            Err(_) => return Err(fail(format!("no handshake within {} s", timeout.as_secs()))),
        };
        let server = client
            .peer_info()
            .and_then(|p| p.server_info.as_ref().map(|s| format!("{} {}", s.name, s.version)))
            .unwrap_or_else(|| "(unnamed)".to_string());
        Ok(McpServer { client, child, wire, turn: tokio::sync::Mutex::new(()), command, server })
    }

    /// Calls `tool` with `args` (a JSON object), waiting at most `timeout`.
    pub async fn call(&self, tool: &str, args: Value, timeout: Duration) -> Result<Answer, BenchError> {
        Ok(self.call_with_views(tool, args, timeout).await?.0)
    }

    /// As [`McpServer::call`], with the answer's two views themselves.
    pub async fn call_with_views(
        &self,
        tool: &str,
        args: Value,
        timeout: Duration,
    ) -> Result<(Answer, ClientViews), BenchError> {
        let args: JsonObject = args.as_object().cloned().unwrap_or_default();
        let _turn = self.turn.lock().await;
        // Earlier messages were read whole before the last call returned; what is left is at
        // most a notification, not a result.
        self.wire.lock().unwrap_or_else(PoisonError::into_inner).clear();
        let started = Instant::now();
        let request =
            self.client.call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args));
        let result = match tokio::time::timeout(timeout, request).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => return Err(self.fail(format!("{tool} failed: {e}"))),
            Err(_) => return Err(self.fail(format!("{tool} gave no answer within {} s", timeout.as_secs()))),
        };
        let elapsed = started.elapsed();
        let wire = std::mem::take(&mut *self.wire.lock().unwrap_or_else(PoisonError::into_inner));
        let raw = structured_on_wire(&wire);
        Ok(answer(&result, raw.as_deref(), elapsed))
    }

    /// Ends the session: its stdin closes and the server exits; one that does not within 3 s
    /// is sent SIGTERM, then killed.
    pub async fn stop(self) {
        let McpServer { client, mut child, .. } = self;
        let _ = client.cancel().await;
        if tokio::time::timeout(EXIT_WAIT, child.wait()).await.is_ok() {
            return;
        }
        if let Some(pid) = child.id() {
            let _ = tokio::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .await;
            if tokio::time::timeout(EXIT_WAIT, child.wait()).await.is_ok() {
                return;
            }
        }
        let _ = child.kill().await;
    }

    fn fail(&self, reason: String) -> BenchError {
        BenchError::Mcp { command: self.command.clone(), reason }
    }
}

/// The `structuredContent` of the last tool result among the server's JSON lines in `wire`,
/// as written; `None` when there is none (no such result, or one without it).
fn structured_on_wire(wire: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow, default)]
        result: Option<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct ToolResult<'a> {
        #[serde(borrow, default)]
        content: Option<&'a RawValue>,
        #[serde(borrow, default, rename = "structuredContent")]
        structured: Option<&'a RawValue>,
    }
    let mut last = None;
    for line in wire.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        // Notifications, the odd log line on stdout and a message cut at the call's start are
        // not results: skipped.
        let Ok(Message { result: Some(result) }) = serde_json::from_slice::<Message>(line) else { continue };
        match serde_json::from_str::<ToolResult>(result.get()) {
            Ok(ToolResult { content: Some(_), structured }) => {
                last = Some(structured.map(|s| s.get().to_string()))
            }
            _ => continue,
        }
    }
    last.flatten()
}

fn answer(r: &CallToolResult, wire_structured: Option<&str>, elapsed: Duration) -> (Answer, ClientViews) {
    let views = ClientViews::of(r, wire_structured);
    let (size, structured_first) = views.sizes();
    let kind =
        r.structured_content.as_ref().and_then(|s| s.get("kind")).and_then(Value::as_str).map(str::to_string);
    let answer = Answer {
        size,
        structured_first,
        structured: views.structured.is_some(),
        text: views.text.clone(),
        kind,
        is_error: views.is_error,
        elapsed,
    };
    (answer, views)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_results_structured_content_as_written() {
        let wire = concat!(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"x\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],",
            "\"structuredContent\":{\"z\":1, \"a\":[2]}}}\n",
            "not json\n"
        );
        assert_eq!(structured_on_wire(wire.as_bytes()).as_deref(), Some("{\"z\":1, \"a\":[2]}"));
        let plain = "{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{\"content\":[]}}\n";
        assert_eq!(structured_on_wire(plain.as_bytes()), None);
        // A message cut at the start of the recording is skipped.
        assert_eq!(structured_on_wire(b"ontent\":{\"a\":1}}}\n"), None);
    }
}
