//! The transports: stdio (one session) and streamable HTTP (many sessions, each with its own
//! browser context), with the HTTP security of the MCP spec's transport guidance:
//!
//! - it binds loopback unless told otherwise, and a non-loopback address needs an auth token;
//! - `Host` must name the bound address (DNS rebinding), and `Origin`, when a browser sends
//!   one, must be that same address;
//! - with a token, every request carries `Authorization: Bearer <token>`.

use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServiceExt;
use thiserror::Error;
use tokio_util::sync::CancellationToken;

use crate::handler::Shared;
use crate::options::ServerOptions;
use crate::store::{Store, StoreError};

/// The path the HTTP transport serves MCP on.
pub const MCP_PATH: &str = "/mcp";

/// Largest HTTP request body: above the tools' own argument cap, so an oversized argument is
/// refused by name rather than by size alone.
const MAX_BODY: usize = 16 * 1024 * 1024;

/// Why the server could not serve.
#[derive(Debug, Error)]
pub enum ServeError {
    /// A non-loopback address without a token.
    #[error("binding {0} exposes the browser beyond this machine; pass --auth-token TOKEN (clients then send Authorization: Bearer TOKEN), or bind 127.0.0.1")]
    NeedsToken(SocketAddr),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The MCP session over stdio failed to start or broke.
    #[error("MCP over stdio failed: {0}")]
    Stdio(String),
    /// The browser's persistent profile could not be claimed (another process holds it) or
    /// the browser could not start on it.
    #[error(transparent)]
    Browser(#[from] axsnap_cdp::CdpError),
    /// The state store (`--state`) could not be reached.
    #[error(transparent)]
    State(#[from] StoreError),
    /// The HTTP server failed.
    #[error("the HTTP server failed: {0}")]
    Http(#[source] std::io::Error),
}

/// How long a stopping HTTP server lets calls in flight finish before it closes the browsers
/// anyway (systemd and Kubernetes send SIGKILL 10 s after SIGTERM by default: the browsers
/// must be closed well before).
const GRACE: Duration = Duration::from_secs(3);

/// Serves one MCP session over stdin and stdout until the client closes them or `shutdown`
/// completes (a signal); either way the session's browser context and a launched browser are
/// closed before it returns.
pub async fn serve_stdio(
    options: ServerOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let shared = Shared::new(options, false, None);
    shared.claim_profile().await?;
    let server = shared.session(false);
    tokio::pin!(shutdown);
    let started = tokio::select! {
        s = server.serve(rmcp::transport::stdio()) => Some(s),
        () = &mut shutdown => None,
    };
    let ended = match started {
        None => Ok(()),
        Some(Err(e)) => Err(ServeError::Stdio(e.to_string())),
        Some(Ok(running)) => {
            let cancel = running.cancellation_token();
            let waiting = running.waiting();
            tokio::pin!(waiting);
            tokio::select! {
                ended = &mut waiting => ended.map(|_| ()).map_err(|e| ServeError::Stdio(e.to_string())),
                () = &mut shutdown => {
                    cancel.cancel();
                    let _ = tokio::time::timeout(GRACE, waiting).await;
                    Ok(())
                }
            }
        }
    };
    shared.stop(GRACE).await;
    ended
}

/// How the HTTP transport listens.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// The address to bind (port 0: any free port; the bound one is passed to `on_bound`).
    pub bind: SocketAddr,
    /// A bearer token every request must carry (required off loopback).
    pub auth_token: Option<String>,
    /// More `host:port` values requests may name in `Host` and `Origin`: a load balancer's
    /// address in front of this server.
    pub allowed_hosts: Vec<String>,
}

/// Serves MCP over streamable HTTP at [`MCP_PATH`] until `shutdown` completes. `on_bound`
/// learns the bound address (to print it) before the first request is taken.
pub async fn serve_http(
    options: ServerOptions,
    http: HttpOptions,
    on_bound: impl FnOnce(SocketAddr),
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    if !http.bind.ip().is_loopback() && http.auth_token.as_deref().is_none_or(str::is_empty) {
        return Err(ServeError::NeedsToken(http.bind));
    }
    let idle = options.idle_timeout;
    let store = match &options.state {
        Some(url) => Some(Store::connect(url).await?),
        None => None,
    };
    let shared = Shared::new(options, true, store);
    // Before listening: a server that accepts connections holds its profile.
    shared.claim_profile().await?;
    let listener = tokio::net::TcpListener::bind(http.bind)
        .await
        .map_err(|source| ServeError::Bind { addr: http.bind, source })?;
    let addr = listener.local_addr().map_err(|source| ServeError::Bind { addr: http.bind, source })?;
    let gate = Arc::new(Gate::new(addr, http.auth_token.clone(), &http.allowed_hosts));
    let cancel = CancellationToken::new();
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(idle);
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(gate.hosts.clone())
        .with_max_request_body_bytes(MAX_BODY)
        .with_cancellation_token(cancel.child_token());
    let factory = shared.clone();
    let service = StreamableHttpService::new(move || Ok(factory.session(true)), Arc::new(sessions), config);
    let app = axum::Router::new()
        .nest_service(MCP_PATH, service)
        .layer(axum::middleware::from_fn_with_state(gate, check_request));
    on_bound(addr);
    let stop = cancel.clone();
    let served = axum::serve(listener, app).with_graceful_shutdown(async move {
        shutdown.await;
        stop.cancel();
    });
    // A graceful stop waits for calls in flight, but not for long: a stuck page must not keep
    // the browsers alive until a supervisor's SIGKILL, which would leave them behind.
    let stopping = cancel.clone();
    let served = tokio::select! {
        served = served.into_future() => served,
        () = async move {
            stopping.cancelled().await;
            tokio::time::sleep(GRACE).await;
        } => {
            tracing::warn!("calls still running {GRACE:?} after the stop signal; closing the browsers anyway");
            Ok(())
        }
    };
    cancel.cancel();
    shared.stop(GRACE).await;
    served.map_err(ServeError::Http)
}

/// What a request must show to be let through.
#[derive(Debug)]
struct Gate {
    /// `Host` values (with port) that name this server.
    hosts: Vec<String>,
    token: Option<String>,
}

impl Gate {
    fn new(addr: SocketAddr, token: Option<String>, more: &[String]) -> Gate {
        let port = addr.port();
        let mut hosts = vec![addr.to_string()];
        hosts.extend(more.iter().map(|h| h.trim().to_ascii_lowercase()).filter(|h| !h.is_empty()));
        if addr.ip().is_loopback() {
            for h in ["127.0.0.1", "localhost", "[::1]"] {
                let h = format!("{h}:{port}");
                if !hosts.contains(&h) {
                    hosts.push(h);
                }
            }
        }
        Gate { hosts, token: token.filter(|t| !t.is_empty()) }
    }

    /// `Err((status, message))` for a request that may not pass.
    fn check(&self, headers: &HeaderMap) -> Result<(), (StatusCode, String)> {
        let host =
            headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default().to_ascii_lowercase();
        if !self.hosts.iter().any(|h| h.eq_ignore_ascii_case(&host)) {
            return Err((
                StatusCode::FORBIDDEN,
                format!("Host {:?} is not this server ({}); requests must name the address the server is bound to", clip(&host), self.hosts.join(", ")),
            ));
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or_default().to_ascii_lowercase();
            let ok = self
                .hosts
                .iter()
                .any(|h| origin == format!("http://{h}") || origin == format!("https://{h}"));
            if !ok {
                return Err((
                    StatusCode::FORBIDDEN,
                    format!("Origin {:?} may not call this server; only pages served by it may (DNS-rebinding protection)", clip(&origin)),
                ));
            }
        }
        if let Some(token) = &self.token {
            let given = headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "))
                .unwrap_or_default();
            if !same_secret(given.as_bytes(), token.as_bytes()) {
                return Err((
                    StatusCode::UNAUTHORIZED,
                    "missing or wrong bearer token: send Authorization: Bearer <the server's --auth-token>"
                        .into(),
                ));
            }
        }
        Ok(())
    }
}

async fn check_request(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    match gate.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err((status, message)) => {
            let mut r = (status, message).into_response();
            if status == StatusCode::UNAUTHORIZED {
                if let Ok(v) = "Bearer".parse() {
                    r.headers_mut().insert(header::WWW_AUTHENTICATE, v);
                }
            }
            r
        }
    }
}

/// Compares secrets in time that depends on their lengths only.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn clip(s: &str) -> String {
    crate::failure::clip(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn host_and_origin_must_name_the_server() {
        let g = Gate::new("127.0.0.1:8123".parse().unwrap(), None, &[]);
        assert!(g.check(&headers(&[(header::HOST, "127.0.0.1:8123")])).is_ok());
        assert!(g.check(&headers(&[(header::HOST, "localhost:8123")])).is_ok());
        assert_eq!(
            g.check(&headers(&[(header::HOST, "evil.example:8123")])).unwrap_err().0,
            StatusCode::FORBIDDEN
        );
        assert!(g
            .check(&headers(&[(header::HOST, "127.0.0.1:8123"), (header::ORIGIN, "http://localhost:8123")]))
            .is_ok());
        let bad = headers(&[(header::HOST, "127.0.0.1:8123"), (header::ORIGIN, "http://evil.example")]);
        assert_eq!(g.check(&bad).unwrap_err().0, StatusCode::FORBIDDEN);
    }

    #[test]
    fn a_load_balancers_address_may_be_allowed() {
        let g = Gate::new("127.0.0.1:8123".parse().unwrap(), None, &["lb.internal:80".into()]);
        assert!(g.check(&headers(&[(header::HOST, "LB.internal:80")])).is_ok());
        assert!(g
            .check(&headers(&[(header::HOST, "lb.internal:80"), (header::ORIGIN, "http://lb.internal:80")]))
            .is_ok());
        assert_eq!(
            g.check(&headers(&[(header::HOST, "lb.internal:81")])).unwrap_err().0,
            StatusCode::FORBIDDEN
        );
    }

    #[test]
    fn token_is_required_when_set() {
        let g = Gate::new("127.0.0.1:9".parse().unwrap(), Some("s3cret".into()), &[]);
        let host = (header::HOST, "127.0.0.1:9");
        assert_eq!(g.check(&headers(std::slice::from_ref(&host))).unwrap_err().0, StatusCode::UNAUTHORIZED);
        let wrong = headers(&[host.clone(), (header::AUTHORIZATION, "Bearer nope")]);
        assert_eq!(g.check(&wrong).unwrap_err().0, StatusCode::UNAUTHORIZED);
        assert!(g.check(&headers(&[host, (header::AUTHORIZATION, "Bearer s3cret")])).is_ok());
    }
}
