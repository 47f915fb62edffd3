//! Resolving an `http://host:port` endpoint to its browser's WebSocket URL: one GET of
//! `/json/version`, by hand (one request, no client crate worth its weight), with the
//! endpoint's headers. Chromium answers with a `Content-Length`; a pool (browserless) answers
//! HTTP/1.1 with a chunked body, and a refusal with a status the error names.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::conn::str_field;
use crate::endpoint::Endpoint;
use crate::error::CdpError;

/// How long the whole exchange may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// Largest answer read: `/json/version` is a few hundred bytes.
const MAX_ANSWER: usize = 1 << 20;

/// GETs `http://host:port/json/version` (`rest`: the endpoint after `http://`) and returns its
/// `webSocketDebuggerUrl`.
pub(crate) async fn resolve_ws_url(endpoint: &Endpoint, rest: &str) -> Result<String, CdpError> {
    let fail = |reason: String, retry: bool| CdpError::ConnectFailed {
        endpoint: endpoint.redacted(),
        reason,
        retry,
    };
    // `host:port`, then a query the pool may want on every request (`?token=…`).
    let host_port = rest.split(['/', '?']).next().unwrap_or_default();
    if host_port.is_empty() {
        return Err(fail("no host:port in the endpoint".into(), false));
    }
    let query = rest.split_once('?').map(|(_, q)| format!("?{q}")).unwrap_or_default();
    if endpoint.headers().iter().any(|(n, v)| format!("{n}{v}").chars().any(|c| c == '\r' || c == '\n')) {
        return Err(fail("a header name or value has a line break".into(), false));
    }
    let io = async {
        let mut stream = tokio::net::TcpStream::connect(host_port).await?;
        let mut req =
            format!("GET /json/version{query} HTTP/1.1\r\nHost: {host_port}\r\nConnection: close\r\n");
        for (name, value) in endpoint.headers() {
            req.push_str(&format!("{name}: {value}\r\n"));
        }
        req.push_str("\r\n");
        stream.write_all(req.as_bytes()).await?;
        // Read until the answer is complete: the browser may keep the connection open.
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            let n = stream.read(&mut chunk).await?;
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
            if buf.len() > MAX_ANSWER || Answer::parse(&buf).is_some_and(|a| a.complete) {
                break;
            }
        }
        Ok::<_, std::io::Error>(buf)
    };
    let buf = tokio::time::timeout(TIMEOUT, io)
        .await
        .map_err(|_| fail(format!("no answer from /json/version within {} s", TIMEOUT.as_secs()), false))?
        .map_err(|e| fail(e.to_string(), true))?;
    let answer = Answer::parse(&buf).ok_or_else(|| fail("/json/version answered no HTTP".into(), true))?;
    if answer.status != 200 {
        let refused = matches!(answer.status, 401 | 403);
        return Err(fail(format!("/json/version answered HTTP {}", answer.status), !refused));
    }
    let v: Value = serde_json::from_slice(&answer.body)
        .map_err(|e| fail(format!("/json/version is not JSON: {e}"), false))?;
    let ws = str_field(&v, "webSocketDebuggerUrl")
        .ok_or_else(|| fail("/json/version has no webSocketDebuggerUrl".into(), false))?;
    Ok(ws.to_string())
}

/// An HTTP answer read so far.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    body: Vec<u8>,
    /// The body is all there (by its length, or its last chunk); else it runs to the end of
    /// the connection.
    complete: bool,
}

impl Answer {
    /// Reads `buf` as an answer, once its head is all there.
    fn parse(buf: &[u8]) -> Option<Answer> {
        let end = find(buf, b"\r\n\r\n")?;
        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
        let status = head.lines().next()?.split_whitespace().nth(1)?.parse().ok()?;
        let header = |name: &str| head.lines().find_map(|l| l.strip_prefix(name)).map(str::trim);
        let rest = &buf[end + 4..];
        if header("transfer-encoding:").is_some_and(|v| v.contains("chunked")) {
            let (body, complete) = dechunk(rest);
            return Some(Answer { status, body, complete });
        }
        match header("content-length:").and_then(|v| v.parse::<usize>().ok()) {
            Some(len) => {
                let complete = rest.len() >= len;
                Some(Answer { status, body: rest[..len.min(rest.len())].to_vec(), complete })
            }
            None => Some(Answer { status, body: rest.to_vec(), complete: false }),
        }
    }
}

/// A chunked body's data so far, and whether its last (empty) chunk came.
fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut body = Vec::new();
    loop {
        let Some(line_end) = find(rest, b"\r\n") else { return (body, false) };
        let size_text = String::from_utf8_lossy(&rest[..line_end]);
        let Ok(size) = usize::from_str_radix(size_text.split(';').next().unwrap_or_default().trim(), 16)
        else {
            return (body, false);
        };
        if size == 0 {
            return (body, true);
        }
        let data = &rest[line_end + 2..];
        // A size past what was read (or past any real answer) ends the body here.
        if size > MAX_ANSWER || data.len() < size + 2 {
            return (body, false);
        }
        body.extend_from_slice(&data[..size]);
        rest = &data[size + 2..];
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_length_delimited_answer() {
        let a = Answer::parse(b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n{\"a\"")
            .map(|a| (a.status, a.complete));
        assert_eq!(a, Some((200, true)));
        let partial = Answer::parse(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{}");
        assert_eq!(partial.map(|a| a.complete), Some(false));
        assert_eq!(Answer::parse(b"HTTP/1.1 200 OK\r\nContent-Le"), None, "the head is not all there");
    }

    #[test]
    fn a_chunked_answer() {
        let raw =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n5\r\n\":1}\n\r\n0\r\n\r\n";
        let a = Answer::parse(raw);
        assert_eq!(a, Some(Answer { status: 200, body: b"{\"a\":1}\n".to_vec(), complete: true }));
        let cut = &raw[..raw.len() - 7];
        assert_eq!(Answer::parse(cut).map(|a| a.complete), Some(false));
    }

    #[test]
    fn a_huge_chunk_size_is_no_panic() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{}\r\n0\r\n\r\n";
        assert_eq!(Answer::parse(raw).map(|a| a.complete), Some(false));
    }

    #[test]
    fn a_refusal_keeps_its_status() {
        let a = Answer::parse(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(a.map(|a| a.status), Some(401));
    }
}
