//! [`Failure`]: why a tool call did not do what was asked, in words an agent can act on.
//! The browser's errors ([`CdpError`]) and the desktop's ([`DesktopError`], with `--desktop`,
//! the same on every platform) each get codes and next steps of their own.
//!
//! Two kinds, as MCP wants them: a call that reached the browser and failed is a tool result
//! with `isError: true` whose text says what to do next ([`Failure::Tool`]); a call the server
//! could not route (bad arguments) is a JSON-RPC error naming the bad field
//! ([`Failure::Protocol`]).

use axsnap_cdp::{CdpBackend, CdpError};
use axsnap_core::backend::{Backend, Refusal};
use axsnap_core::session::SessionError;
use axsnap_core::RefError;
use axsnap_desktop::DesktopError;
use rmcp::ErrorData;
use serde_json::json;

use crate::args::ArgError;
use crate::code::Code;
use crate::surface::Explain;
use crate::url_policy::UrlRefused;
use axsnap_agent::AgentError;

/// What ends the error of a browser that could not be started or reached, and of a desktop
/// that could not be reached: the first failing call points the user to the command that
/// says what this machine lacks. Only on those failures: elsewhere it would be noise.
pub const DOCTOR_HINT: &str = "run `axsnap doctor` to check this machine";

/// [`DOCTOR_HINT`] for the desktop: `--desktop` makes the doctor check it as required.
pub const DESKTOP_DOCTOR_HINT: &str = "run `axsnap doctor --desktop` to check this machine";

/// A failed call.
#[derive(Debug)]
pub enum Failure {
    /// A tool result with `isError: true`.
    Tool {
        /// A short, stable code for programs and the model (`stale_ref`, `dialog_open`, ...).
        code: Code,
        /// What went wrong and what to do next.
        message: String,
    },
    /// A JSON-RPC error.
    Protocol(ErrorData),
}

impl Failure {
    /// A tool error.
    pub fn tool(code: Code, message: impl Into<String>) -> Failure {
        Failure::Tool { code, message: message.into() }
    }
}

impl From<ArgError> for Failure {
    fn from(e: ArgError) -> Failure {
        let field = e.field().to_string();
        Failure::Protocol(ErrorData::invalid_params(e.to_string(), Some(json!({"field": field}))))
    }
}

impl From<UrlRefused> for Failure {
    fn from(e: UrlRefused) -> Failure {
        Failure::tool(Code::UrlRefused, e.to_string())
    }
}

/// A browser tab, as the place a failure happened ([`Explain`]).
pub(crate) struct Tab;

impl Explain<CdpError> for Tab {
    fn explain(&self, e: AgentError<CdpError>) -> Failure {
        Failure::from(e)
    }
}

/// A desktop window (its id), as the place a failure happened ([`Explain`]).
pub(crate) struct Window<'a>(pub &'a str);

impl Explain<DesktopError> for Window<'_> {
    fn explain(&self, e: AgentError<DesktopError>) -> Failure {
        from_desktop(e, self.0)
    }
}

/// The failure of a refusal ([`Backend::refusal`]): the same code for the same kind on every
/// surface, with the backend's words (what the element is, why not, what to do instead).
pub(crate) fn refused(kind: Refusal, text: String) -> Failure {
    let code = match kind {
        Refusal::Gone => {
            return Failure::tool(Code::StaleRef, format!("{text}; a ref is never moved to a look-alike"))
        }
        Refusal::Covered => Code::Obscured,
        Refusal::Disabled => Code::Disabled,
        Refusal::Hidden => Code::Hidden,
        Refusal::ReadOnly => Code::ReadOnly,
        Refusal::NotATextField => Code::NotATextField,
        Refusal::NoSuchOption => Code::NotFound,
        Refusal::BadKey => Code::BadKey,
        Refusal::NotActionable => Code::NotActionable,
    };
    Failure::tool(code, text)
}

/// A covered element's failure, with the cover the last view showed.
fn covered(failure: Failure, cover: Option<String>) -> Failure {
    match (failure, cover) {
        (Failure::Tool { code, message }, Some(c)) => {
            Failure::Tool { code, message: format!("{message}; in your last view, {c}") }
        }
        (other, _) => other,
    }
}

impl From<AgentError<CdpError>> for Failure {
    fn from(e: AgentError<CdpError>) -> Failure {
        match e {
            AgentError::Ref(r) => from_ref(r),
            AgentError::Session(axsnap_core::session::SessionError::Ref(r)) => from_ref(r),
            AgentError::Stale { r, .. } => Failure::tool(
                Code::StaleRef,
                format!(
                    "ref {r} is stale: its element was removed or replaced since your last view, and a ref is \
                     never moved to a look-alike; take a snapshot and use a current ref"
                ),
            ),
            AgentError::Covered { cover, cause, .. } => covered(from_cdp(cause), cover),
            AgentError::NoTarget => {
                Failure::tool(Code::NoPage, "no page is open in this session; call navigate with a URL first")
            }
            AgentError::TargetClosed { .. } => {
                Failure::tool(Code::TabGone, "the action closed its tab; list the tabs with tabs and select one")
            }
            AgentError::Backend(e) => from_cdp(e),
        }
    }
}

impl From<CdpError> for Failure {
    fn from(e: CdpError) -> Failure {
        from_cdp(e)
    }
}

fn from_ref(r: RefError) -> Failure {
    match r {
        RefError::Malformed { .. } => Failure::tool(Code::BadRef, r.to_string()),
        RefError::Unknown(_) => Failure::tool(Code::UnknownRef, r.to_string()),
        RefError::Stale { .. } | RefError::Forgotten(_) => Failure::tool(Code::StaleRef, r.to_string()),
        RefError::Foreign { r, .. } => Failure::tool(
            Code::ForeignRef,
            format!("ref {r} belongs to another tab; select that tab with tabs, or use a ref from this tab's snapshot"),
        ),
    }
}

fn from_cdp(e: CdpError) -> Failure {
    let text = e.to_string();
    if let Some(kind) = CdpBackend::refusal(&e) {
        return refused(kind, text);
    }
    match e {
        CdpError::Disconnected => Failure::tool(
            Code::BrowserGone,
            "the browser is gone (it exited, crashed or was killed); it is started again on the next call, which \
             reopens this session's tabs at their last URLs, but their state (form input, cookies) was lost: take a \
             snapshot, then repeat what is still needed",
        ),
        CdpError::BrowserRestarted { .. } => Failure::tool(Code::BrowserRestarted, text),
        CdpError::DialogOpen { kind, message } => Failure::tool(
            Code::DialogOpen,
            format!(
                "a JavaScript {kind} dialog ({}) blocks the page; answer it with the dialog tool (accept true or false), \
                 then retry",
                quote(&message)
            ),
        ),
        CdpError::NoDialog => Failure::tool(Code::NoDialog, "no JavaScript dialog is open on this tab"),
        CdpError::Timeout { method, timeout } => Failure::tool(
            Code::Timeout,
            format!(
                "the page did not answer within {} s (waiting for the browser's {method}); it may be busy in a script \
                 or blocked; try reload or navigate elsewhere",
                timeout.as_secs()
            ),
        ),
        CdpError::Unreachable { url, reason } => Failure::tool(
            Code::NavigationFailed,
            format!("could not load {}: {reason}; check the URL and that the server is up", clip(&url)),
        ),
        CdpError::NotHtml { .. } | CdpError::Download { .. } => Failure::tool(Code::NavigationFailed, text),
        CdpError::CheckFailed { .. } | CdpError::NoEffect { .. } => {
            Failure::tool(Code::NoEffect, format!("{text}; a snapshot shows the field as it is now"))
        }
        CdpError::BadValue { .. } => Failure::tool(Code::BadValue, text),
        CdpError::NoHistory(_) => Failure::tool(Code::NoHistory, text),
        CdpError::Crashed => Failure::tool(
            Code::Crashed,
            "the page's renderer crashed; reload or navigate to get a new one (the page's state was lost)",
        ),
        CdpError::NoSuchTarget(_) => {
            Failure::tool(Code::TabGone, "that tab is closed; list the tabs with tabs and select one")
        }
        CdpError::BrowserNotFound { .. }
        | CdpError::BrowserPathInvalid { .. }
        | CdpError::LaunchFailed { .. }
        | CdpError::ConnectFailed { .. } => Failure::tool(Code::BrowserUnavailable, format!("{text}; {DOCTOR_HINT}")),
        _ => Failure::tool(Code::BrowserError, text),
    }
}

impl From<DesktopError> for Failure {
    fn from(e: DesktopError) -> Failure {
        from_desktop_error(e)
    }
}

/// A desktop agent's failure in `window` (the id the call gave), with what to do next.
pub(crate) fn from_desktop(e: AgentError<DesktopError>, window: &str) -> Failure {
    match e {
        AgentError::Ref(r) | AgentError::Session(SessionError::Ref(r)) => from_desktop_ref(r, window),
        AgentError::Stale { r, .. } => Failure::tool(
            Code::StaleRef,
            format!(
                "ref {r} is stale: its element in window {window} was removed or replaced since your last view, and \
                 a ref is never moved to a look-alike; take a snapshot with window {window} and use a current ref"
            ),
        ),
        AgentError::Covered { cover, cause, .. } => covered(from_desktop_error(cause), cover),
        AgentError::NoTarget => no_window(window),
        AgentError::TargetClosed { .. } => window_gone(window),
        AgentError::Backend(DesktopError::Gone(_)) => window_gone(window),
        AgentError::Backend(e) => from_desktop_error(e),
    }
}

/// A ref the desktop agent cannot use in `window`.
fn from_desktop_ref(r: RefError, window: &str) -> Failure {
    match r {
        RefError::Unknown(r) => Failure::tool(
            Code::UnknownRef,
            format!(
                "ref {r} was never given out for a desktop window; take a snapshot with window {window} and use a ref \
                 from it (refs from browser pages are used without window)"
            ),
        ),
        RefError::Foreign { r, owner, .. } => Failure::tool(
            Code::ForeignRef,
            format!("ref {r} is from window {owner}'s snapshot; pass window {owner}, or use a ref from window {window}"),
        ),
        RefError::Stale { .. } | RefError::Forgotten(_) => {
            Failure::tool(Code::StaleRef, format!("{r} (snapshot with window {window})"))
        }
        RefError::Malformed { .. } => Failure::tool(Code::BadRef, r.to_string()),
    }
}

/// A call of a tool this run does not offer: a protocol error, as the MCP spec has it.
pub(crate) fn unknown_tool(name: &str) -> Failure {
    Failure::Protocol(rmcp::ErrorData::invalid_params(
        format!("unknown tool {:?}; tools/list names the tools this server offers", clip(name)),
        Some(serde_json::json!({"field": "name"})),
    ))
}

/// No window of that id in this session.
pub(crate) fn no_window(window: &str) -> Failure {
    Failure::tool(
        Code::NoWindow,
        format!("there is no window {}; call desktop_windows for the open windows' ids", quote(window)),
    )
}

/// The window closed, or its app exited.
pub(crate) fn window_gone(window: &str) -> Failure {
    Failure::tool(
        Code::WindowGone,
        format!(
            "window {window} is gone (closed, or its app exited); call desktop_windows for the open windows"
        ),
    )
}

fn from_desktop_error(e: DesktopError) -> Failure {
    let text = e.to_string();
    // An object gone outside an action is the window's or the app's (said by the caller); in
    // an action the agent has made it a stale ref already.
    if let Some(kind) = e.refusal().filter(|k| *k != Refusal::Gone) {
        return refused(kind, text);
    }
    match e {
        DesktopError::Unavailable(_) => Failure::tool(
            Code::NoDesktop,
            format!(
                "cannot reach the desktop: {text}. On Linux the server needs DISPLAY and DBUS_SESSION_BUS_ADDRESS of \
                 a session with an AT-SPI bus (e.g. start it under `scripts/desktop-session -- axsnap mcp --desktop`); \
                 the next desktop call tries again; {DESKTOP_DOCTOR_HINT}"
            ),
        ),
        DesktopError::Recording { .. } => Failure::tool(Code::NoDesktop, text),
        DesktopError::NoSuchTarget(w) => no_window(&w),
        DesktopError::Gone(_) => Failure::tool(Code::Gone, text),
        DesktopError::Timeout { .. } | DesktopError::NotAnswering(_) => Failure::tool(Code::Timeout, text),
        DesktopError::Unsupported(_) => Failure::tool(Code::Unsupported, text),
        DesktopError::LaunchFailed { .. } => Failure::tool(Code::LaunchFailed, text),
        DesktopError::Clipboard(_) => Failure::tool(Code::ClipboardError, text),
        DesktopError::NotApplied(_) => Failure::tool(Code::NotApplied, text),
        DesktopError::NoEffect(_) => Failure::tool(Code::NoEffect, text),
        DesktopError::WindowSystem(_) => Failure::tool(Code::DisplayError, text),
        DesktopError::NoWindowManager(_) => Failure::tool(Code::NoWindowManager, text),
        _ => Failure::tool(Code::DesktopError, text),
    }
}

fn quote(s: &str) -> String {
    format!("{:?}", clip(s))
}

/// At most 200 characters of `s`, with the rest counted.
pub(crate) fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= 200 {
        return s.to_string();
    }
    let head: String = s.chars().take(200).collect();
    format!("{head}…+{} chars", n - 200)
}

/// At most 20,000 bytes of `s`, the rest counted: for values that may be whole documents (a
/// script's result, the clipboard).
pub(crate) fn clip_bytes(s: &str) -> String {
    const MAX: usize = 20_000;
    if s.len() <= MAX {
        return s.to_string();
    }
    let mut cut = MAX;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}…+{} bytes", &s[..cut], s.len() - cut)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axsnap_core::keys::KeyError;

    fn code(f: &Failure) -> &'static str {
        match f {
            Failure::Tool { code, .. } => code.as_str(),
            Failure::Protocol(_) => "protocol",
        }
    }

    fn message(f: &Failure) -> String {
        match f {
            Failure::Tool { message, .. } => message.clone(),
            Failure::Protocol(e) => e.message.to_string(),
        }
    }

    #[test]
    fn a_refusal_has_one_code_whatever_the_backend() {
        let page = |kind| {
            Failure::from(CdpError::NotActionable {
                kind,
                action: "type into".into(),
                target: "button \"Go\"".into(),
                reason: "it will not".into(),
            })
        };
        let window = |kind| Failure::from(DesktopError::refused(kind, "button \"Go\" will not"));
        let kinds = [
            (Refusal::Covered, "obscured"),
            (Refusal::Disabled, "disabled"),
            (Refusal::Hidden, "hidden"),
            (Refusal::ReadOnly, "read_only"),
            (Refusal::NotATextField, "not_a_text_field"),
            (Refusal::NoSuchOption, "not_found"),
            (Refusal::NotActionable, "not_actionable"),
        ];
        for (kind, want) in kinds {
            assert_eq!((code(&page(kind)), code(&window(kind))), (want, want), "{kind:?}");
        }
        // A bad key: the same code and the core's words on both.
        let bad = axsnap_core::keys::parse("Hyper+x").expect_err("no key");
        let (p, w) =
            (Failure::from(CdpError::from(bad.clone())), Failure::from(DesktopError::from(bad.clone())));
        assert_eq!((code(&p), code(&w)), ("bad_key", "bad_key"));
        assert_eq!((message(&p), message(&w)), (bad.to_string(), bad.to_string()));
        assert!(matches!(bad, KeyError::NotAModifier { .. }));
        // A cover the last view showed is named on both.
        let cover = Some("e500 dialog \"Settings\"".to_string());
        let on_page = Failure::from(AgentError::Covered {
            r: "e3".into(),
            cover: cover.clone(),
            cause: CdpError::Covered { target: "button \"Go\"".into(), cover: "div#modal".into() },
        });
        let in_window = from_desktop(
            AgentError::Covered {
                r: "e3".into(),
                cover,
                cause: DesktopError::refused(Refusal::Covered, "button \"Go\" is covered"),
            },
            "w2",
        );
        for f in [&on_page, &in_window] {
            assert_eq!(code(f), "obscured");
            assert!(message(f).ends_with("in your last view, e500 dialog \"Settings\""), "{}", message(f));
        }
        // Gone, outside an action, is the window's own failure, not a stale ref.
        let gone = from_desktop(AgentError::Backend(DesktopError::Gone("closed".into())), "w2");
        assert_eq!(code(&gone), "window_gone");
    }

    #[test]
    fn only_a_browser_or_desktop_out_of_reach_points_to_the_doctor() {
        let launch =
            Failure::from(CdpError::LaunchFailed { path: "/bin/false".into(), reason: "exited".into() });
        assert_eq!(code(&launch), "browser_unavailable");
        assert!(message(&launch).ends_with(DOCTOR_HINT), "{}", message(&launch));
        let missing = Failure::from(CdpError::BrowserPathInvalid { path: "/nonexistent/chrome".into() });
        assert!(message(&missing).ends_with(DOCTOR_HINT), "{}", message(&missing));
        let bus = Failure::from(DesktopError::Unavailable("no D-Bus session bus".into()));
        assert_eq!(code(&bus), "no_desktop");
        assert!(message(&bus).ends_with(DESKTOP_DOCTOR_HINT), "{}", message(&bus));
        // A page's own failures are not the machine's.
        let others = [
            Failure::from(CdpError::Crashed),
            Failure::from(CdpError::Unreachable { url: "http://x/".into(), reason: "refused".into() }),
            Failure::from(DesktopError::Gone("closed".into())),
        ];
        for f in others {
            assert!(!message(&f).contains("axsnap doctor"), "{}", message(&f));
        }
    }
}
