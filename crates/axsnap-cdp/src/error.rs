//! The backend's error type: what went wrong and what to do next.

use std::path::PathBuf;
use std::time::Duration;

use axsnap_core::backend::Refusal;
use axsnap_core::keys::KeyError;
use thiserror::Error;

/// An error of the CDP backend. Every message says what happened and, where there is one, the
/// next step.
#[derive(Debug, Error)]
pub enum CdpError {
    /// No Chromium or Chrome executable was found.
    #[error(
        "no Chromium or Chrome browser found (looked for {searched}); install one (Debian/Ubuntu: \
         `apt-get install chromium`) or pass --browser PATH, or connect to a running browser with \
         --cdp-endpoint ws://... or http://host:port"
    )]
    BrowserNotFound {
        /// The names and paths that were tried.
        searched: String,
    },
    /// The `--browser` path does not name an executable file.
    #[error("browser path {path} is not an executable file; pass the path of a Chromium or Chrome binary")]
    BrowserPathInvalid {
        /// The path given.
        path: PathBuf,
    },
    /// The browser process could not be started or did not open its DevTools endpoint.
    #[error(
        "could not launch the browser {path}: {reason}; check that it runs (`{path} --version`), \
         or connect to a running one with --cdp-endpoint"
    )]
    LaunchFailed {
        /// The executable.
        path: PathBuf,
        /// What failed.
        reason: String,
    },
    /// The persistent profile directory is in use by another browser.
    #[error(
        "the browser profile {dir} is in use by process {pid} (another browser, or another axsnap server \
         on it); one server per profile: stop that one, or give this one another --user-data-dir"
    )]
    ProfileInUse {
        /// The profile directory.
        dir: PathBuf,
        /// The process holding it.
        pid: u32,
    },
    /// A running browser could not be reached at the endpoint.
    #[error(
        "could not connect to the browser at {endpoint}: {reason}; check that it runs there (a browser \
         started with --remote-debugging-port=PORT: ws://HOST:PORT/devtools/browser/ID or http://HOST:PORT; \
         a pool: its URL, and its token in the URL or a --cdp-header)"
    )]
    ConnectFailed {
        /// The endpoint given (without its query, where a pool's token travels).
        endpoint: String,
        /// What failed.
        reason: String,
        /// Whether trying again may help: the browser could not be reached, or its pool
        /// answered with a passing error. Not after a malformed endpoint, a refused credential
        /// (401, 403) or an attempt that already waited out its timeout.
        retry: bool,
    },
    /// The connection to the browser is gone (it exited, crashed or was killed).
    #[error(
        "the browser connection is closed (the browser exited, crashed or was killed); a browser axsnap \
         launched is started again on the next call, with this session's tabs reopened at their last \
         URLs but their page state (form input, cookies, storage) lost; a browser it connected to must \
         be restarted by whoever started it (the next call connects again)"
    )]
    Disconnected,
    /// The browser had died (or the connection to it was lost) and was started (or connected to)
    /// again before this call, which did not run.
    #[error(
        "the browser was gone (it exited, crashed or was killed, or the connection to it was lost) and \
         has been started or connected to again: this session's {tabs} tab(s) were reopened at their \
         last URLs, but their page state (form input, cookies, storage, scroll positions) is lost; take \
         a new snapshot, then repeat what is still needed"
    )]
    BrowserRestarted {
        /// How many tabs were reopened.
        tabs: usize,
    },
    /// A CDP call failed.
    #[error("the browser refused {method}: {message}")]
    Protocol {
        /// The CDP method.
        method: String,
        /// The browser's error message.
        message: String,
    },
    /// A CDP call got no answer in time.
    #[error(
        "the browser did not answer {method} within {timeout:?}; the page may be hung (an infinite loop?)"
    )]
    Timeout {
        /// The CDP method.
        method: String,
        /// How long we waited.
        timeout: Duration,
    },
    /// The browser answered with something this backend cannot read.
    #[error("unexpected answer to {method}: {reason}")]
    BadResponse {
        /// The CDP method.
        method: String,
        /// What was wrong.
        reason: String,
    },
    /// Navigation could not reach the URL.
    #[error("could not load {url}: {reason}; check the URL and that the server is up")]
    Unreachable {
        /// The URL.
        url: String,
        /// The browser's network error (`net::ERR_CONNECTION_REFUSED`, ...).
        reason: String,
    },
    /// The URL answered with something that is not a web page.
    #[error("{url} is not an HTML page (content type {content_type}); open a web page instead")]
    NotHtml {
        /// The URL.
        url: String,
        /// The document's content type.
        content_type: String,
    },
    /// The URL started a download instead of showing a page.
    #[error("{url} is a download, not a page; downloads are refused, open a web page instead")]
    Download {
        /// The URL.
        url: String,
    },
    /// No page (tab) with this id.
    #[error("no tab with id {0}; list the tabs to see the current ids")]
    NoSuchTarget(String),
    /// The renderer of the page crashed.
    #[error("the page's renderer crashed; reload the page or open a new tab")]
    Crashed,
    /// Something this version does not do yet.
    #[error("{0} is not implemented yet in the CDP backend")]
    NotImplemented(&'static str),
    /// A local I/O failure (temporary profile, process).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The element an action names no longer exists in the page (removed, replaced, or its
    /// document navigated away). Never retargeted to a look-alike.
    #[error("stale element {element}: {reason}; take a new snapshot and use a current ref")]
    StaleElement {
        /// The native id acted on (`scope/id`).
        element: String,
        /// Why it is stale.
        reason: String,
    },
    /// Another element covers the target at the point an action would hit.
    #[error(
        "{target} is covered by {cover} at its centre; close or move the covering element (a dialog, banner or overlay) first, then retry"
    )]
    Covered {
        /// The target, described.
        target: String,
        /// The covering element: tag, id, text, role.
        cover: String,
    },
    /// The element cannot take this action (no box, disabled, wrong kind of element).
    #[error("cannot {action} {target}: {reason}")]
    NotActionable {
        /// Which refusal it is.
        kind: Refusal,
        /// The action.
        action: String,
        /// The target, described.
        target: String,
        /// Why not, and what to do instead.
        reason: String,
    },
    /// No option of a select matched a wanted label or value.
    #[error("{target} has no option {wanted:?}; available options: {available:?}")]
    NoSuchOption {
        /// The select, described.
        target: String,
        /// The labels or values that matched nothing.
        wanted: Vec<String>,
        /// The options' labels (and values where they differ).
        available: Vec<String>,
    },
    /// An edit (fill, type, select) did not take: the field holds what it held, or nothing.
    #[error(
        "{action} {wanted:?} into {target} had no effect{}: {why}",
        holds.as_deref().map(|h| format!("; it holds {h:?}")).unwrap_or_default()
    )]
    NoEffect {
        /// `fill`, `type`, `select`.
        action: String,
        /// The element, described.
        target: String,
        /// What was asked.
        wanted: String,
        /// What the element holds now, when known.
        holds: Option<String>,
        /// Why, when known (disabled, read-only, a script reverted it).
        why: String,
    },
    /// A value the input's type cannot hold (`2011-13-45` into a date), refused before anything
    /// was written.
    #[error(
        "{value:?} is not a value a {kind} input takes; it takes {format}; the field was left as it was"
    )]
    BadValue {
        /// The element, described.
        target: String,
        /// The input's type.
        kind: String,
        /// What was given.
        value: String,
        /// The format it takes.
        format: String,
    },
    /// A check or uncheck did not produce the wanted state.
    #[error("{target} is still {actual} after the click; the page did not let it become {wanted}")]
    CheckFailed {
        /// The element, described.
        target: String,
        /// The state asked for (`checked` / `unchecked`).
        wanted: String,
        /// The state it has.
        actual: String,
    },
    /// A key name or chord could not be read.
    #[error(transparent)]
    UnknownKey(#[from] KeyError),
    /// There is no JavaScript dialog to accept or dismiss.
    #[error("no JavaScript dialog is open on this tab")]
    NoDialog,
    /// A JavaScript dialog blocks the page, so it cannot take this action.
    #[error("a JavaScript {kind} dialog ({message:?}) blocks the page; accept or dismiss it first")]
    DialogOpen {
        /// `alert`, `confirm`, `prompt` or `beforeunload`.
        kind: String,
        /// Its message.
        message: String,
    },
    /// Back or forward has no history entry to go to.
    #[error("cannot go {0}: there is no history entry in that direction")]
    NoHistory(&'static str),
}

impl CdpError {
    /// Wraps an I/O error with what was being done.
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> CdpError {
        CdpError::Io { context: context.into(), source }
    }
}
