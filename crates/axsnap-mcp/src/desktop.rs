//! [`Desktop`]: one MCP session's desktop work, with `--desktop`. It owns the session's
//! [`Agent`] over the desktop's windows ([`AtspiBackend`]: its refs, baselines and window ids),
//! connected to the accessibility bus on the first call that needs it, and runs the calls
//! [`route`] sends it: `desktop_windows`, `desktop_launch`, and snapshot, find, `wait_for` and
//! the actions given a `window`.
//!
//! The desktop agent's refs are its own: a ref from a window's snapshot is used with that
//! window; a call without `window` goes to the browser as it always did. A failed connection
//! is that call's error, and the next desktop call tries again.

use std::collections::HashSet;
use std::sync::Arc;

use axsnap_atspi::clipboard::Clipboard;
#[cfg(test)]
use axsnap_atspi::DesktopWindow;
use axsnap_atspi::{AtspiBackend, Listing};
use axsnap_core::TargetId;
use rmcp::model::JsonObject;
use serde_json::json;

use crate::agent::{Agent, Step};
use crate::args::{ArgError, Args};
use crate::calls;
use crate::failure::{self, clip, clip_bytes, Failure, Window};
use crate::options::ServerOptions;
use crate::reply::{Happenings, Reply};
use crate::surface::{self, Call, Done};
use crate::tools::{CLIPBOARD, DESKTOP_LAUNCH, DESKTOP_WINDOWS, WINDOWED};

/// Longest a launch waits for the app's first window (less when `--max-wait` is less).
const LAUNCH_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// The argument that sends a call to a desktop window.
const WINDOW: &str = "window";

/// Where a call goes when it is the desktop's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Route {
    /// `desktop_windows`.
    Windows,
    /// `desktop_launch`.
    Launch,
    /// `clipboard`.
    Clipboard,
    /// A windowed tool, in this window.
    In(String),
}

/// Whether a call is the desktop's (only asked with `--desktop`): `desktop_windows`, or one of
/// the [`WINDOWED`] tools given a `window` (an empty one counts as none). `None`: the browser's.
pub(crate) fn route(tool: &str, args: Option<&JsonObject>) -> Result<Option<Route>, ArgError> {
    match tool {
        DESKTOP_WINDOWS => return Ok(Some(Route::Windows)),
        DESKTOP_LAUNCH => return Ok(Some(Route::Launch)),
        CLIPBOARD => return Ok(Some(Route::Clipboard)),
        _ => {}
    }
    let Some(name) = WINDOWED.iter().copied().find(|t| *t == tool) else { return Ok(None) };
    let window = Args::peek_str(name, args, WINDOW)?.map(str::trim).filter(|w| !w.is_empty());
    Ok(window.map(|w| Route::In(w.to_string())))
}

/// One session's desktop state.
pub struct Desktop {
    options: Arc<ServerOptions>,
    agent: Option<Agent<AtspiBackend>>,
    /// The session's clipboard, opened on first use; it serves what it set while it lives.
    clipboard: Option<Clipboard>,
    /// Window ids this session was given (listed, or opened by an action).
    known: HashSet<String>,
}

impl Desktop {
    /// A session's desktop; nothing connects until a call needs it.
    pub fn new(options: Arc<ServerOptions>) -> Desktop {
        Desktop { options, agent: None, clipboard: None, known: HashSet::new() }
    }

    /// Runs one call [`route`] sent here.
    pub(crate) async fn call(
        &mut self,
        route: Route,
        tool: &str,
        args: Option<&JsonObject>,
    ) -> Result<Reply, Failure> {
        match route {
            Route::Windows => {
                Args::new(DESKTOP_WINDOWS, args, &[])?;
                let listing = self.windows().await?;
                Ok(window_list(&listing))
            }
            Route::Launch => self.launch(args).await,
            Route::Clipboard => self.clipboard(args),
            Route::In(window) => self.in_window(&window, tool, args).await,
        }
    }

    /// `clipboard`: the clipboard's text, or with `text`, sets it (this session's clipboard
    /// then serves it to the desktop's apps while the session lives).
    fn clipboard(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(CLIPBOARD, args, &["text"])?;
        let set = a.opt_str("text")?;
        let clipboard = match &mut self.clipboard {
            Some(c) => c,
            none => none.insert(Clipboard::open()?),
        };
        let (text, held) = match set {
            Some(t) => {
                clipboard.set_text(t)?;
                let said = format!("the clipboard now holds {} characters: {:?}", t.chars().count(), clip(t));
                (said, t.to_string())
            }
            None => match clipboard.text()? {
                Some(t) => (clip_bytes(&t), t),
                None => ("the clipboard holds no text".to_string(), String::new()),
            },
        };
        let mut reply = Reply::message(CLIPBOARD, text);
        reply.structured.remove("message");
        reply.structured.insert("text".into(), json!(clip_bytes(&held)));
        reply.structured.insert("chars".into(), json!(held.chars().count()));
        Ok(reply)
    }

    /// `desktop_launch`: starts the app, waits for its first window, and answers with that
    /// window's snapshot.
    async fn launch(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(DESKTOP_LAUNCH, args, &["app", "args"])?;
        let app = a.str("app")?.to_string();
        let given = args.and_then(|m| m.get("args")).is_some_and(|v| !v.is_null());
        let extra = if given { a.strings("args")? } else { Vec::new() };
        let timeout = self.options.max_wait.min(LAUNCH_WAIT);
        let launched =
            axsnap_atspi::launch::launch(self.agent().await?.backend(), &app, &extra, timeout).await?;
        let window = launched.window.0.clone();
        self.known.insert(window.clone());
        let request = calls::auto_request(self.options.max_tokens);
        let agent = self.agent().await?;
        agent.set_target(launched.window.clone());
        let step = agent.snapshot(&request).await.map_err(|e| failure::from_desktop(e, &window))?;
        let note = format!(
            "launched {} (pid {}): its window is {window} ({:?}, app {:?}); pass window {window} to work in it",
            clip(&launched.argv.join(" ")),
            launched.pid,
            clip(&launched.title),
            clip(&launched.app)
        );
        let mut reply = self.step_reply(&window, &step, vec![note]);
        reply.structured.insert("pid".into(), json!(launched.pid));
        Ok(reply)
    }

    /// The agent, connected on first use.
    async fn agent(&mut self) -> Result<&mut Agent<AtspiBackend>, Failure> {
        if self.agent.is_none() {
            let backend = AtspiBackend::connect().await?;
            self.agent = Some(Agent::new(backend, None, surface::agent_options(&self.options)));
        }
        self.agent.as_mut().ok_or_else(|| Failure::tool("no_desktop", "the desktop could not be reached"))
    }

    /// Every window, noting their ids as known.
    async fn windows(&mut self) -> Result<Listing, Failure> {
        let listing = self.agent().await?.backend().listing().await?;
        self.known.extend(listing.windows.iter().map(|w| w.id.clone()));
        Ok(listing)
    }

    /// Runs a windowed tool in `window`.
    async fn in_window(
        &mut self,
        window: &str,
        tool: &str,
        args: Option<&JsonObject>,
    ) -> Result<Reply, Failure> {
        // Arguments first: a bad one is the caller's to fix whatever the desktop's state.
        let Some(call) = Call::read(tool, args, &[WINDOW], &self.options)? else {
            return Err(Failure::tool("unknown_tool", format!("{} takes no window", clip(tool))));
        };
        if !self.known.contains(window) {
            // An id this session was not given yet: the windows are listed (which numbers
            // them) before it counts as unknown.
            self.windows().await?;
            if !self.known.contains(window) {
                return Err(failure::no_window(window));
            }
        }
        let options = self.options.clone();
        let agent = self.agent().await?;
        agent.set_target(TargetId(window.to_string()));
        match surface::run(agent, call, &Window(window), &options).await? {
            Done::Found(query, hits) => {
                let mut reply = calls::find_reply(&query, &hits);
                reply.structured.insert(WINDOW.into(), json!(window));
                Ok(reply)
            }
            Done::Step(step, notes) => Ok(self.step_reply(window, &step, notes)),
        }
    }

    /// An answer to a step in `window`, with `notes` first, saying which window it shows and
    /// which it opened.
    fn step_reply(&mut self, window: &str, step: &Step, notes: Vec<String>) -> Reply {
        let opened: Vec<String> =
            step.outcome.iter().flat_map(|o| o.opened.iter()).map(|t| t.0.clone()).collect();
        self.known.extend(opened.iter().cloned());
        let shown = self.agent.as_ref().and_then(|a| a.target()).map(|t| t.0.clone());
        let shown = shown.unwrap_or_else(|| window.to_string());
        let mut happened = Happenings { notes, ..Happenings::default() };
        if let Some(last) = opened.last() {
            let now = if *last == shown { "shown below" } else { "not shown" };
            happened.notes.push(format!(
                "opened window {} ({now}); pass window {last} to work in it",
                opened.join(", ")
            ));
        }
        let mut reply = Reply::step(step, &happened);
        reply.structured.insert(WINDOW.into(), json!(shown));
        if !opened.is_empty() {
            reply.structured.insert("opened_windows".into(), json!(opened));
        }
        reply
    }
}

/// `desktop_windows`'s answer: a line per window, and the list for programs; then a line per
/// app that did not answer.
fn window_list(listing: &Listing) -> Reply {
    let windows = &listing.windows;
    let mut text = String::new();
    for w in windows {
        text.push_str(&format!("{} {} {:?} app {:?}", w.id, w.role, clip(&w.title), clip(&w.app)));
        if w.active {
            text.push_str(" (active)");
        }
        text.push('\n');
    }
    for app in &listing.not_answering {
        text.push_str(&format!(
            "app {:?} is not answering (busy or hung): its windows cannot be listed; try again\n",
            clip(app)
        ));
    }
    if windows.is_empty() && listing.not_answering.is_empty() {
        text.push_str(
            "no windows: no app on the accessibility bus shows one (GTK and Qt apps show there with their \
             AT-SPI bridge, Chromium with --force-renderer-accessibility)\n",
        );
    }
    let mut reply = Reply::message(DESKTOP_WINDOWS, text);
    reply.structured.remove("message");
    reply.structured.insert("windows".into(), serde_json::to_value(windows).unwrap_or_default());
    if !listing.not_answering.is_empty() {
        let apps = serde_json::to_value(&listing.not_answering).unwrap_or_default();
        reply.structured.insert("not_answering".into(), apps);
    }
    reply
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn obj(v: Value) -> JsonObject {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn only_windowed_calls_with_a_window_are_the_desktops() {
        let w = obj(json!({"ref": "e1", "window": "w2"}));
        assert_eq!(route("click", Some(&w)).unwrap(), Some(Route::In("w2".into())));
        assert_eq!(route("desktop_windows", None).unwrap(), Some(Route::Windows));
        assert_eq!(route("click", Some(&obj(json!({"ref": "e1"})))).unwrap(), None);
        assert_eq!(route("click", Some(&obj(json!({"ref": "e1", "window": " "})))).unwrap(), None);
        assert_eq!(route("click", Some(&obj(json!({"ref": "e1", "window": null})))).unwrap(), None);
        // Not a windowed tool: the browser's, which refuses the argument.
        assert_eq!(route("navigate", Some(&obj(json!({"url": "x", "window": "w1"})))).unwrap(), None);
        let e = route("find", Some(&obj(json!({"query": "x", "window": 3})))).unwrap_err();
        assert_eq!(e.field(), "window");
    }

    #[test]
    fn window_list_says_what_each_window_is() {
        let w = DesktopWindow {
            id: "w1".into(),
            app: "gtk3-widget-factory".into(),
            title: "Widget Factory".into(),
            role: "frame".into(),
            active: true,
        };
        let listing =
            |windows: Vec<DesktopWindow>, not_answering: Vec<String>| Listing { windows, not_answering };
        let r = window_list(&listing(vec![w.clone()], vec![]));
        assert_eq!(r.text, "w1 frame \"Widget Factory\" app \"gtk3-widget-factory\" (active)\n");
        assert_eq!(r.structured["windows"][0]["id"], json!("w1"));
        assert!(r.structured.get("not_answering").is_none());
        assert!(window_list(&listing(vec![], vec![])).text.starts_with("no windows"));
        // An app that does not answer is said, not left out.
        let r = window_list(&listing(vec![w], vec!["gedit".into()]));
        assert!(
            r.text.ends_with(
                "app \"gedit\" is not answering (busy or hung): its windows cannot be listed; try again\n"
            ),
            "{}",
            r.text
        );
        assert_eq!(r.structured["not_answering"], json!(["gedit"]));
    }
}
