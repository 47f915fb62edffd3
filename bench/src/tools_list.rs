//! What an MCP server's `tools/list` costs an agent: the tokens of its result, which every
//! agent pays on every start.
//!
//! The server is any command that speaks MCP over stdio. A real client (rmcp's) does the
//! `initialize` handshake at protocol 2025-11-25, as the Python SDK and the MCP Inspector do
//! by default, then lists the tools, following `nextCursor` to the last page. The bytes the
//! server wrote are recorded as they pass, so what is counted is each response's `result`
//! exactly as it came over the wire (made compact when the server spaced it out), not the
//! client's re-serialization of its own parsed types, which drops unknown fields and reorders
//! keys.

use std::path::PathBuf;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axsnap_core::tokens::{measure, Size};
use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, PaginatedRequestParams, ProtocolVersion,
};
use rmcp::ServiceExt;
use serde::Deserialize;
use serde_json::value::RawValue;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::process::Command;

use crate::error::BenchError;

/// How to start the server and how long to give it.
#[derive(Clone, Debug)]
pub struct ServerCommand {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// The working folder (default: this process's).
    pub cwd: Option<PathBuf>,
    /// The handshake and the listing together must finish within this.
    pub timeout: Duration,
}

/// One server's `tools/list`, measured.
#[derive(Clone, Debug)]
pub struct ToolsList {
    /// The server's name and version from its `initialize` result.
    pub server: String,
    /// The protocol version the server agreed to.
    pub protocol_version: String,
    /// The tool names, in the server's order.
    pub tools: Vec<String>,
    /// Each page's `result` object as compact JSON, in order (one page unless the server
    /// paginates).
    pub pages: Vec<String>,
    /// The pages' sizes added up.
    pub size: Size,
}

/// Starts the server, lists its tools with a real MCP client and measures the results.
pub async fn measure_tools_list(cmd: &ServerCommand) -> Result<ToolsList, BenchError> {
    let command_line = cmd.argv.join(" ");
    let fail = |reason: String| BenchError::Mcp { command: command_line.clone(), reason };
    let (program, args) = cmd.argv.split_first().ok_or_else(|| fail("no command given".to_string()))?;
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
    if let Some(cwd) = &cmd.cwd {
        command.current_dir(cwd);
    }
    let mut child = command.spawn().map_err(|e| fail(format!("cannot start it: {e}")))?;
    let (Some(stdin), Some(stdout), Some(mut stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        return Err(fail("its standard streams were not piped".to_string()));
    };
    // The server's log, for the error message when something fails.
    let log = tokio::spawn(async move {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf).await;
        buf
    });

    let wire = Arc::new(Mutex::new(Vec::new()));
    let reader = Recorder { inner: stdout, wire: Arc::clone(&wire) };
    let run = list(reader, stdin, &wire);
    let outcome = match tokio::time::timeout(cmd.timeout, run).await {
        Ok(outcome) => outcome,
        Err(_) => Err(format!("no answer within {} s", cmd.timeout.as_secs())),
    };
    // Closing stdin (the client is dropped) ends a well-behaved server; kill the rest.
    let _ = child.start_kill();
    let _ = child.wait().await;
    match outcome {
        Ok(list) => Ok(list),
        Err(reason) => {
            let log = log.await.unwrap_or_default();
            let log = String::from_utf8_lossy(&log);
            let tail: String = log.trim_end().lines().rev().take(10).collect::<Vec<_>>().join("\n");
            let reason = if tail.is_empty() {
                reason
            } else {
                format!("{reason}; its stderr ends with:\n{}", reverse_lines(&tail))
            };
            Err(fail(reason))
        }
    }
}

fn reverse_lines(text: &str) -> String {
    text.lines().rev().collect::<Vec<_>>().join("\n")
}

/// The client's side: handshake, every page of `tools/list`, then the raw results.
async fn list<R, W>(reader: R, writer: W, wire: &Mutex<Vec<u8>>) -> Result<ToolsList, String>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("axsnap-bench", env!("CARGO_PKG_VERSION")),
    )
    .with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE);
    let client = info.serve((reader, writer)).await.map_err(|e| format!("the MCP handshake failed: {e}"))?;
    let (server, protocol_version) = match client.peer_info() {
        Some(peer) => {
            let name = peer
                .server_info
                .as_ref()
                .map(|s| format!("{} {}", s.name, s.version))
                .unwrap_or_else(|| "(unnamed)".to_string());
            (name, peer.protocol_version.as_str().to_string())
        }
        None => ("(unnamed)".to_string(), String::new()),
    };

    let mut tools = Vec::new();
    let mut cursor = None;
    let mut pages_seen = 0usize;
    loop {
        let params = cursor.take().map(|c| PaginatedRequestParams::default().with_cursor(Some(c)));
        let page = client.list_tools(params).await.map_err(|e| format!("tools/list failed: {e}"))?;
        pages_seen += 1;
        tools.extend(page.tools.iter().map(|t| t.name.to_string()));
        match page.next_cursor {
            Some(next) if pages_seen < MAX_PAGES => cursor = Some(next),
            Some(_) => return Err(format!("more than {MAX_PAGES} pages of tools")),
            None => break,
        }
    }
    let _ = client.cancel().await;

    let recorded = wire.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let pages = tools_list_results(&recorded)?;
    if pages.len() != pages_seen {
        return Err(format!(
            "found {} tools/list results on the wire for {pages_seen} requests",
            pages.len()
        ));
    }
    let mut size = Size::default();
    for page in &pages {
        let s = measure(page);
        size.bytes += s.bytes;
        size.tokens_cl100k += s.tokens_cl100k;
        size.tokens_o200k += s.tokens_o200k;
    }
    Ok(ToolsList { server, protocol_version, tools, pages, size })
}

/// A server that pages forever is a bug; stop there.
const MAX_PAGES: usize = 100;

#[derive(Deserialize)]
struct WireMessage<'a> {
    #[serde(borrow, default)]
    result: Option<&'a RawValue>,
}

/// The `result` of every response on the server's side of the wire (JSON lines) that is a
/// tools/list result (an object with a `tools` array), each made compact, in order.
///
/// The client's own request ids are not needed: a `result` holding `tools` is a tools/list
/// result, and the client sent nothing else that returns one.
fn tools_list_results(wire: &[u8]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for line in wire.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() {
            continue;
        }
        // Not every line needs to be ours to read (a server may log to stdout by mistake);
        // only a JSON-RPC response with a tools result counts.
        let Ok(msg) = serde_json::from_slice::<WireMessage>(line) else { continue };
        let Some(result) = msg.result else { continue };
        #[derive(Deserialize)]
        struct Tools<'a> {
            #[serde(borrow)]
            tools: Option<&'a RawValue>,
        }
        match serde_json::from_str::<Tools>(result.get()) {
            Ok(Tools { tools: Some(_) }) => out.push(compact(result.get())),
            _ => continue,
        }
    }
    if out.is_empty() {
        return Err("no tools/list result found in what the server wrote".to_string());
    }
    Ok(out)
}

/// `json` without the whitespace between tokens (strings untouched), keeping the server's key
/// order and number spelling, which a parse and re-serialization would not.
pub fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
        }
    }
    out
}

/// Reads from `inner` and keeps a copy of every byte read (the server's side of the wire, as
/// the client reads it).
pub(crate) struct Recorder<R> {
    inner: R,
    wire: Arc<Mutex<Vec<u8>>>,
}

impl<R> Recorder<R> {
    /// Reads from `inner`, appending every byte read to `wire`.
    pub(crate) fn new(inner: R, wire: Arc<Mutex<Vec<u8>>>) -> Recorder<R> {
        Recorder { inner, wire }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Recorder<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let poll = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = poll {
            let new = &buf.filled()[before..];
            self.wire.lock().unwrap_or_else(PoisonError::into_inner).extend_from_slice(new);
        }
        poll
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{ListToolsResult, ServerCapabilities, ServerConfig, Tool};
    use rmcp::service::RequestContext;
    use rmcp::{ErrorData, RoleServer, ServerHandler};

    /// A real rmcp server with two pages of tools.
    #[derive(Clone)]
    struct TwoPages;

    impl ServerHandler for TwoPages {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
                .with_server_info(Implementation::new("two-pages", "1.2.3"))
        }

        async fn list_tools(
            &self,
            request: Option<PaginatedRequestParams>,
            _context: RequestContext<RoleServer>,
        ) -> Result<ListToolsResult, ErrorData> {
            let schema = Arc::new(serde_json::Map::from_iter([(
                "type".to_string(),
                serde_json::Value::from("object"),
            )]));
            let second = request.and_then(|r| r.cursor).is_some();
            let mut page = ListToolsResult::with_all_items(vec![Tool::new(
                if second { "second" } else { "first" },
                "A tool.",
                schema,
            )]);
            if !second {
                page.next_cursor = Some("page-2".to_string());
            }
            Ok(page)
        }
    }

    #[tokio::test]
    async fn lists_every_page_through_a_real_server_and_counts_the_wire_bytes() {
        let (client_end, server_end) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(server_end);
        let server = tokio::spawn(async move {
            let running = TwoPages.serve((server_read, server_write)).await.map_err(std::io::Error::other)?;
            running.waiting().await.map_err(std::io::Error::other)?;
            Ok::<_, std::io::Error>(())
        });
        let (client_read, client_write) = tokio::io::split(client_end);
        let wire = Arc::new(Mutex::new(Vec::new()));
        let reader = Recorder { inner: client_read, wire: Arc::clone(&wire) };
        let list = list(reader, client_write, &wire).await.unwrap();
        assert_eq!(list.server, "two-pages 1.2.3");
        assert_eq!(list.protocol_version, "2025-11-25");
        assert_eq!(list.tools, vec!["first", "second"]);
        // Exactly as rmcp's server wrote them (its key order, not the client's).
        assert_eq!(
            list.pages,
            vec![
                r#"{"nextCursor":"page-2","tools":[{"name":"first","description":"A tool.","inputSchema":{"type":"object"}}]}"#,
                r#"{"tools":[{"name":"second","description":"A tool.","inputSchema":{"type":"object"}}]}"#,
            ]
        );
        // The sizes are those of the recorded pages, added up.
        let expected: usize = list.pages.iter().map(|p| p.len()).sum();
        assert_eq!(list.size.bytes, expected);
        assert!(list.size.tokens_o200k > 10 && list.size.tokens_cl100k > 10);
        drop(server);
    }

    #[test]
    fn compact_drops_spacing_outside_strings_only() {
        let spaced = "{ \"a\" : [ 1, 2 ],\n  \"b\": \"x y \\\" z\" }";
        assert_eq!(compact(spaced), "{\"a\":[1,2],\"b\":\"x y \\\" z\"}");
        let already = r#"{"tools":[{"name":"t","description":"a \\ b"}]}"#;
        assert_eq!(compact(already), already);
    }

    #[test]
    fn finds_tools_results_and_keeps_their_bytes() {
        let wire = concat!(
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}"#,
            "\n",
            "not json at all\n",
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"2"}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","id":2,"result":{ "tools": [] }}"#,
            "\n"
        );
        let pages = tools_list_results(wire.as_bytes()).unwrap();
        assert_eq!(
            pages,
            vec![
                r#"{"tools":[{"name":"b","inputSchema":{"type":"object"}}],"nextCursor":"2"}"#.to_string(),
                r#"{"tools":[]}"#.to_string(),
            ]
        );
        assert!(tools_list_results(b"{\"id\":0,\"result\":{}}\n").is_err());
    }
}
