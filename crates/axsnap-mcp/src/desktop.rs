//! [`Desktop`]: one MCP session's desktop work, with `--desktop`. It owns the session's
//! [`Agent`] over the desktop's windows ([`DesktopBackend`] on the [`Host`] platform: its refs,
//! baselines and window ids), connected on the first call that needs it, and runs the calls
//! [`route`] sends it: `desktop_windows`, `desktop_launch`, and snapshot, find, `wait_for` and
//! the actions given a `window`.
//!
//! The desktop agent's refs are its own: a ref from a window's snapshot is used with that
//! window; a call without `window` goes to the browser as it always did. A failed connection
//! is that call's error, and the next desktop call tries again.

use std::collections::HashSet;
use std::sync::Arc;

use axsnap_agent::{Agent, Step};
use axsnap_core::backend::Outcome;
use axsnap_core::TargetId;
#[cfg(test)]
use axsnap_desktop::DesktopWindow;
use axsnap_desktop::{Clipboard, DesktopBackend, DesktopError, Listing, WindowChange, WindowOp};
use rmcp::model::JsonObject;
use serde_json::json;

use crate::args::{ArgError, Args};
use crate::calls;
use crate::code::Code;
use crate::failure::{self, clip, clip_bytes, Failure, Window};
use crate::host::Host;
use crate::options::ServerOptions;
use crate::reply::{Happenings, Reply};
use crate::surface::{self, Call, Done};
use crate::tool_name::ToolName;

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
/// the [windowed](ToolName::windowed) tools given a `window` (an empty one counts as none). `None`: the browser's.
pub(crate) fn route(tool: ToolName, args: Option<&JsonObject>) -> Result<Option<Route>, ArgError> {
    match tool {
        ToolName::DesktopWindows => return Ok(Some(Route::Windows)),
        ToolName::DesktopLaunch => return Ok(Some(Route::Launch)),
        ToolName::Clipboard => return Ok(Some(Route::Clipboard)),
        t if !t.windowed() => return Ok(None),
        _ => {}
    }
    let window = Args::peek_str(tool.as_str(), args, WINDOW)?.map(str::trim).filter(|w| !w.is_empty());
    Ok(window.map(|w| Route::In(w.to_string())))
}

/// One session's desktop state.
pub struct Desktop {
    options: Arc<ServerOptions>,
    agent: Option<Agent<DesktopBackend<Host>>>,
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
        tool: ToolName,
        args: Option<&JsonObject>,
    ) -> Result<Reply, Failure> {
        match route {
            Route::Windows => {
                let a = Args::new(
                    ToolName::DesktopWindows.as_str(),
                    args,
                    &[WINDOW, "action", "x", "y", "width", "height"],
                )?;
                match window_op(&a)? {
                    None => Ok(window_list(&self.windows().await?)),
                    Some((window, op)) => self.manage(&window, op).await,
                }
            }
            Route::Launch => self.launch(args).await,
            Route::Clipboard => self.clipboard(args),
            Route::In(window) => self.in_window(&window, tool, args).await,
        }
    }

    /// `clipboard`: the clipboard's text, or with `text`, sets it (this session's clipboard
    /// then serves it to the desktop's apps while the session lives).
    fn clipboard(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Clipboard.as_str(), args, &["text"])?;
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
        let mut reply = Reply::message(ToolName::Clipboard.as_str(), text);
        reply.structured.remove("message");
        reply.structured.insert("text".into(), json!(clip_bytes(&held)));
        reply.structured.insert("chars".into(), json!(held.chars().count()));
        Ok(reply)
    }

    /// `desktop_launch`: starts the app, waits for its first window, and answers with that
    /// window's snapshot.
    async fn launch(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::DesktopLaunch.as_str(), args, &["app", "args"])?;
        let app = a.str("app")?.to_string();
        let given = args.and_then(|m| m.get("args")).is_some_and(|v| !v.is_null());
        let extra = if given { a.strings("args")? } else { Vec::new() };
        let timeout = self.options.max_wait.min(LAUNCH_WAIT);
        let launched = self.agent().await?.backend().launch(&app, &extra, timeout).await?;
        let window = launched.window.0.clone();
        self.known.insert(window.clone());
        let request = calls::auto_request(&self.options);
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

    /// `desktop_windows` with an action: asks for it, and answers with what changed.
    async fn manage(&mut self, window: &str, op: WindowOp) -> Result<Reply, Failure> {
        self.check_known(window).await?;
        let target = TargetId(window.to_string());
        let change = self.agent().await?.backend().manage(&target, op).await.map_err(|e| match e {
            DesktopError::Gone(_) => failure::window_gone(window),
            e => Failure::from(e),
        })?;
        let opened: Vec<String> = change.opened.iter().map(|t| t.0.clone()).collect();
        self.known.extend(opened.iter().cloned());
        let titles = if opened.is_empty() { None } else { Some(self.windows().await?) };
        let mut reply = Reply::message(
            ToolName::DesktopWindows.as_str(),
            change_text(window, op, &change, titles.as_ref()),
        );
        reply.structured.remove("message");
        let s = &mut reply.structured;
        s.insert(WINDOW.into(), json!(window));
        s.insert("action".into(), json!(change.action));
        s.insert("before".into(), json!(change.before));
        s.insert("after".into(), json!(change.after));
        s.insert("closed".into(), json!(change.closed));
        s.insert("already".into(), json!(change.already));
        s.insert("window_manager".into(), json!(change.window_manager));
        if !opened.is_empty() {
            s.insert("opened_windows".into(), json!(opened));
        }
        Ok(reply)
    }

    /// Fails unless `window` is an id this session was given (the windows are listed, which
    /// numbers them, before it counts as unknown).
    async fn check_known(&mut self, window: &str) -> Result<(), Failure> {
        if !self.known.contains(window) {
            self.windows().await?;
            if !self.known.contains(window) {
                return Err(failure::no_window(window));
            }
        }
        Ok(())
    }

    /// The agent, connected on first use.
    async fn agent(&mut self) -> Result<&mut Agent<DesktopBackend<Host>>, Failure> {
        let recording = self.options.desktop_recording.as_deref();
        let start = async || Ok(crate::host::connect(recording).await?);
        Ok(surface::started(&mut self.agent, &self.options, start).await?.0)
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
        tool: ToolName,
        args: Option<&JsonObject>,
    ) -> Result<Reply, Failure> {
        // Arguments first: a bad one is the caller's to fix whatever the desktop's state.
        let Some(call) = Call::read(tool, args, &[WINDOW], &self.options)? else {
            return Err(Failure::tool(Code::UnknownTool, format!("{tool} takes no window")));
        };
        self.check_known(window).await?;
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
            Done::Closed(outcome) => self.closed_reply(tool, window, &outcome).await,
        }
    }

    /// The answer to an action that closed its own window: it says so, then the windows now
    /// open (what the agent works in next).
    async fn closed_reply(
        &mut self,
        tool: ToolName,
        window: &str,
        outcome: &Outcome,
    ) -> Result<Reply, Failure> {
        let listing = self.windows().await?;
        let mut text = format!("{tool} closed window {window}");
        if !outcome.settled {
            text.push_str(" (its app had not settled)");
        }
        text.push_str("; the windows now:\n");
        text.push_str(&window_list(&listing).text);
        let mut reply = Reply::message(tool.as_str(), text);
        reply.structured.insert("kind".into(), json!("closed"));
        reply.structured.insert(WINDOW.into(), json!(window));
        reply.structured.insert("windows".into(), serde_json::to_value(&listing.windows).unwrap_or_default());
        Ok(reply)
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

/// The window actions `desktop_windows` takes.
const ACTIONS: &[&str] = &["focus", "close", "move", "resize", "minimize", "maximize", "restore"];

/// The largest coordinate or size X takes.
const X_MAX: i64 = 32_767;

/// `desktop_windows`'s window and action, when it is asked to change a window; `None`: a
/// listing. Coordinates go with move, sizes with resize, and nothing else takes them.
fn window_op(a: &Args) -> Result<Option<(String, WindowOp)>, ArgError> {
    let window = a.opt_str(WINDOW)?.map(str::trim).filter(|w| !w.is_empty());
    let action = a.opt_choice("action", ACTIONS)?;
    let (window, action) = match (window, action) {
        (None, None) => {
            for field in ["x", "y", "width", "height"] {
                if a.opt_int(field, i64::MIN, i64::MAX)?.is_some() {
                    return Err(a.missing("action", "move or resize, with which the coordinates go"));
                }
            }
            return Ok(None);
        }
        (Some(_), None) => {
            return Err(a.missing(
                "action",
                "what to do to the window: focus, close, move, resize, minimize, maximize or restore",
            ))
        }
        (None, Some(_)) => {
            return Err(a.missing(WINDOW, "the window to change, an id from desktop_windows (w3)"))
        }
        (Some(w), Some(action)) => (w.to_string(), action),
    };
    let x = a.opt_int("x", -X_MAX, X_MAX)?;
    let y = a.opt_int("y", -X_MAX, X_MAX)?;
    let width = a.opt_int("width", 1, X_MAX)?;
    let height = a.opt_int("height", 1, X_MAX)?;
    let want = |v: Option<i64>, field: &'static str, what: &str| {
        v.ok_or_else(|| a.missing(field, &format!("{what} (pixels) for {action}")))
    };
    let op = match action {
        "move" => WindowOp::Move {
            x: want(x, "x", "the left edge")? as i32,
            y: want(y, "y", "the top edge")? as i32,
        },
        "resize" => WindowOp::Resize {
            width: want(width, "width", "the width")? as u32,
            height: want(height, "height", "the height")? as u32,
        },
        "focus" => WindowOp::Focus,
        "close" => WindowOp::Close,
        "minimize" => WindowOp::Minimize,
        "maximize" => WindowOp::Maximize,
        _ => WindowOp::Restore,
    };
    let takes: &[&str] = match op {
        WindowOp::Move { .. } => &["x", "y"],
        WindowOp::Resize { .. } => &["width", "height"],
        _ => &[],
    };
    for (field, v) in [("x", x), ("y", y), ("width", width), ("height", height)] {
        if let (Some(v), false) = (v, takes.contains(&field)) {
            let goes = if field == "x" || field == "y" { "move" } else { "resize" };
            return Err(a.invalid(field, format!("given only with action {goes}, not {action}"), &json!(v)));
        }
    }
    Ok(Some((window, op)))
}

/// What a window request changed, in words.
fn change_text(window: &str, op: WindowOp, c: &WindowChange, listing: Option<&Listing>) -> String {
    let who = format!("{window} {:?}", clip(&c.title));
    let after = c.after.unwrap_or(c.before);
    if c.already {
        let state = match op {
            WindowOp::Focus => "the active window".to_string(),
            WindowOp::Move { .. } | WindowOp::Resize { .. } => "there".to_string(),
            WindowOp::Minimize => "minimized".to_string(),
            WindowOp::Maximize => "maximized".to_string(),
            _ => "neither minimized nor maximized".to_string(),
        };
        return format!("{who} is already {state}, so nothing was done: {}", c.before);
    }
    if !c.opened.is_empty() {
        let named: Vec<String> = c
            .opened
            .iter()
            .map(|t| {
                let w = listing.and_then(|l| l.windows.iter().find(|w| w.id == t.0));
                match w {
                    Some(w) => format!("{} {} {:?}", t.0, w.role, clip(&w.title)),
                    None => t.0.clone(),
                }
            })
            .collect();
        let first = &c.opened[0].0;
        let verb = if c.closed {
            "closed, and its app opened"
        } else if op == WindowOp::Close {
            "is still open: its app opened"
        } else {
            "changed, and its app opened"
        };
        return format!("{who} {verb} {}; pass window {first} to work in it", named.join(", "));
    }
    match op {
        WindowOp::Close => format!("{who} closed"),
        WindowOp::Focus => format!("{who} is now the active window ({after})"),
        WindowOp::Move { x, y } => {
            let asked =
                if (after.x, after.y) == (x, y) { String::new() } else { format!(" (asked {x},{y})") };
            format!("{who} moved from {},{} to {},{}{asked}", c.before.x, c.before.y, after.x, after.y)
        }
        WindowOp::Resize { width, height } => {
            let asked = if (after.width, after.height) == (width, height) {
                String::new()
            } else {
                format!(" (asked {width}×{height}; the app or window manager chose this)")
            };
            format!(
                "{who} resized from {}×{} to {}×{}{asked}",
                c.before.width, c.before.height, after.width, after.height
            )
        }
        WindowOp::Minimize => format!("{who} minimized (was {})", c.before),
        WindowOp::Maximize => format!("{who} maximized: {after}"),
        WindowOp::Restore => format!("{who} restored: {after}"),
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
    let mut reply = Reply::message(ToolName::DesktopWindows.as_str(), text);
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
        assert_eq!(route(ToolName::Click, Some(&w)).unwrap(), Some(Route::In("w2".into())));
        assert_eq!(route(ToolName::DesktopWindows, None).unwrap(), Some(Route::Windows));
        assert_eq!(route(ToolName::Click, Some(&obj(json!({"ref": "e1"})))).unwrap(), None);
        assert_eq!(route(ToolName::Click, Some(&obj(json!({"ref": "e1", "window": " "})))).unwrap(), None);
        assert_eq!(route(ToolName::Click, Some(&obj(json!({"ref": "e1", "window": null})))).unwrap(), None);
        // Not a windowed tool: the browser's, which refuses the argument.
        assert_eq!(route(ToolName::Navigate, Some(&obj(json!({"url": "x", "window": "w1"})))).unwrap(), None);
        let e = route(ToolName::Find, Some(&obj(json!({"query": "x", "window": 3})))).unwrap_err();
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
