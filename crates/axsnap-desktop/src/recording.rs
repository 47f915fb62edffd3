//! The recording a [`crate::RecordedPlatform`] replays: apps and their windows (each window's
//! tree in the core's interchange form, inline or in a file beside the recording), and the
//! transitions an action sets off.
//!
//! ```json
//! {
//!   "format": "axsnap-desktop-recording",
//!   "version": 1,
//!   "window_manager": "Openbox", "screen": [1280, 1024],
//!   "apps": [{
//!     "name": "gnome-calculator",
//!     "windows": [{
//!       "id": "main", "title": "Calculator", "role": "frame", "active": true,
//!       "frame": {"x": 0, "y": 0, "width": 360, "height": 616}, "min_size": [360, 400],
//!       "tree": "calculator.json"
//!     }, {
//!       "id": "about", "title": "About Calculator", "role": "dialog", "hidden": true,
//!       "tree": {"format": "axsnap-tree", "version": 1, "root": 0, "nodes": [...]}
//!     }]
//!   }],
//!   "transitions": [
//!     {"window": "main", "element": "/org/a11y/atspi/accessible/42", "action": "click",
//!      "show": ["about"]},
//!     {"window": "main", "keys": "Control+q", "close": ["main"]},
//!     {"window": "main", "request": "close", "show": ["save"]}
//!   ]
//! }
//! ```
//!
//! A window `hidden` at the start shows when a transition shows it, or when its app is
//! launched (`launch`: the command `desktop_launch` is given). A transition matches an
//! action on one element (by its native id), a key press, or a window request, and may
//! show windows, close windows and replace a window's tree (`tree`, with `into`: which
//! window, the acted-on one by default).

use std::path::{Path, PathBuf};

use axsnap_core::interchange::{read_tree, ReadLimits};
use axsnap_core::Tree;
use serde::Deserialize;
use serde_json::Value;

use crate::error::DesktopError;
use crate::window::Frame;

/// The format tag of a recording.
pub const FORMAT: &str = "axsnap-desktop-recording";

/// A recording, read and checked.
#[derive(Clone, Debug)]
pub struct Recording {
    /// The apps, in order.
    pub apps: Vec<RecordedApp>,
    /// What actions set off.
    pub transitions: Vec<Transition>,
    /// The window manager's name, `None` for a display without one.
    pub window_manager: Option<String>,
    /// The screen's size in pixels (what a maximized window fills).
    pub screen: (u32, u32),
}

/// An app of a recording.
#[derive(Clone, Debug)]
pub struct RecordedApp {
    /// Its name.
    pub name: String,
    /// The command that launches it (its name when not given).
    pub launch: String,
    /// Its windows.
    pub windows: Vec<RecordedWindow>,
}

/// A window of a recording.
#[derive(Clone, Debug)]
pub struct RecordedWindow {
    /// Its name in the recording (transitions use it).
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its role (`frame`, `dialog`).
    pub role: String,
    /// Whether it is active at the start.
    pub active: bool,
    /// Whether it waits to be shown (by a transition or a launch).
    pub hidden: bool,
    /// Where it is.
    pub frame: Frame,
    /// The smallest size its app allows.
    pub min_size: Option<(u32, u32)>,
    /// The largest.
    pub max_size: Option<(u32, u32)>,
    /// Its tree.
    pub tree: Tree,
}

/// What sets off a transition.
#[derive(Clone, Debug, PartialEq)]
pub enum Trigger {
    /// An action (`click`, `fill`, `check`, `select`, `type`, `press`, `focus`, `hover`, any)
    /// on the element with this native id.
    Element {
        /// The element's native id (its `id`; the scope is its window).
        element: String,
        /// The action's name, or `any`.
        action: String,
    },
    /// Keys pressed in the window (`Control+q`), as given.
    Keys(String),
    /// A window request (`close`, `minimize`, ...).
    Request(String),
}

/// What an action sets off in a window.
#[derive(Clone, Debug)]
pub struct Transition {
    /// The window it happens in.
    pub window: String,
    /// What sets it off.
    pub trigger: Trigger,
    /// Windows it shows.
    pub show: Vec<String>,
    /// Windows it closes.
    pub close: Vec<String>,
    /// A new tree for a window.
    pub tree: Option<Tree>,
    /// The window that tree goes to (the transition's own when not given).
    pub into: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileForm {
    format: String,
    version: u32,
    apps: Vec<AppForm>,
    #[serde(default)]
    transitions: Vec<TransitionForm>,
    #[serde(default = "default_wm")]
    window_manager: Option<String>,
    #[serde(default = "default_screen")]
    screen: (u32, u32),
}

fn default_screen() -> (u32, u32) {
    (1280, 1024)
}

fn default_wm() -> Option<String> {
    Some("recorded".into())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AppForm {
    name: String,
    #[serde(default)]
    launch: Option<String>,
    windows: Vec<WindowForm>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WindowForm {
    id: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default = "default_role")]
    role: String,
    #[serde(default)]
    active: bool,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    frame: Option<FrameForm>,
    #[serde(default)]
    min_size: Option<(u32, u32)>,
    #[serde(default)]
    max_size: Option<(u32, u32)>,
    tree: Value,
}

fn default_role() -> String {
    "frame".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FrameForm {
    x: i32,
    y: i32,
    width: u32,
    height: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TransitionForm {
    window: String,
    #[serde(default)]
    element: Option<String>,
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    keys: Option<String>,
    #[serde(default)]
    request: Option<String>,
    #[serde(default)]
    show: Vec<String>,
    #[serde(default)]
    close: Vec<String>,
    #[serde(default)]
    tree: Option<Value>,
    #[serde(default)]
    into: Option<String>,
}

impl Recording {
    /// Reads the recording at `path` (trees named by path are read relative to its folder).
    pub fn open(path: &Path) -> Result<Recording, DesktopError> {
        let bad = |reason: String| DesktopError::Recording { path: path.display().to_string(), reason };
        let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Recording::parse(&text, &dir).map_err(bad)
    }

    /// A recording of one app with one window, shown and active, that no action changes (a
    /// window read from another tool's file: an Accessibility Insights recording). The frame
    /// is 800 by 600 at the origin when not given.
    pub fn one_window(app: &str, title: &str, frame: Option<Frame>, tree: Tree) -> Recording {
        let window = RecordedWindow {
            id: "main".into(),
            title: title.into(),
            role: default_role(),
            active: true,
            hidden: false,
            frame: frame.unwrap_or(Frame { width: 800, height: 600, ..Frame::default() }),
            min_size: None,
            max_size: None,
            tree,
        };
        Recording {
            apps: vec![RecordedApp { name: app.into(), launch: app.into(), windows: vec![window] }],
            transitions: Vec::new(),
            window_manager: default_wm(),
            screen: default_screen(),
        }
    }

    /// Reads a recording from its JSON text; trees named by path are read under `dir`.
    pub fn parse(text: &str, dir: &Path) -> Result<Recording, String> {
        let form: FileForm = serde_json::from_str(text).map_err(|e| format!("line {}: {e}", e.line()))?;
        if form.format != FORMAT || form.version != 1 {
            return Err(format!(
                "not a recording: format {:?} version {} (want {FORMAT:?} version 1)",
                form.format, form.version
            ));
        }
        let mut ids = std::collections::HashSet::new();
        let mut apps = Vec::new();
        for app in form.apps {
            let mut windows = Vec::new();
            for w in app.windows {
                if !ids.insert(w.id.clone()) {
                    return Err(format!("two windows are named {:?}", w.id));
                }
                let tree = tree_of(&w.tree, dir).map_err(|e| format!("window {:?}: {e}", w.id))?;
                let root_name = tree.root().map(|r| tree.node(r).name.clone()).unwrap_or_default();
                let frame = w.frame.map(|f| Frame {
                    x: f.x,
                    y: f.y,
                    width: f.width,
                    height: f.height,
                    ..Frame::default()
                });
                windows.push(RecordedWindow {
                    title: w.title.unwrap_or(root_name),
                    id: w.id,
                    role: w.role,
                    active: w.active,
                    hidden: w.hidden,
                    frame: frame.unwrap_or(Frame { width: 800, height: 600, ..Frame::default() }),
                    min_size: w.min_size,
                    max_size: w.max_size,
                    tree,
                });
            }
            apps.push(RecordedApp {
                launch: app.launch.unwrap_or_else(|| app.name.clone()),
                name: app.name,
                windows,
            });
        }
        let mut transitions = Vec::new();
        for (i, t) in form.transitions.into_iter().enumerate() {
            let at = |e: String| format!("transition {i}: {e}");
            let trigger = match (t.element, t.keys, t.request) {
                (Some(element), None, None) => {
                    Trigger::Element { element, action: t.action.unwrap_or_else(|| "any".into()) }
                }
                (None, Some(keys), None) => Trigger::Keys(keys),
                (None, None, Some(request)) => Trigger::Request(request),
                _ => return Err(at("give one of element, keys or request".into())),
            };
            for w in std::iter::once(&t.window).chain(&t.show).chain(&t.close).chain(t.into.iter()) {
                if !ids.contains(w) {
                    return Err(at(format!("no window {w:?} in the recording")));
                }
            }
            let tree = t.tree.as_ref().map(|v| tree_of(v, dir)).transpose().map_err(at)?;
            transitions.push(Transition {
                window: t.window,
                trigger,
                show: t.show,
                close: t.close,
                tree,
                into: t.into,
            });
        }
        Ok(Recording { apps, transitions, window_manager: form.window_manager, screen: form.screen })
    }
}

/// A window's tree: inline in the interchange form, or a path to a file holding it.
fn tree_of(v: &Value, dir: &Path) -> Result<Tree, String> {
    let bytes = match v {
        Value::String(p) => {
            let path: PathBuf = dir.join(p);
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?
        }
        Value::Object(_) => serde_json::to_vec(v).map_err(|e| e.to_string())?,
        _ => return Err("tree is neither a file name nor a tree".into()),
    };
    read_tree(&bytes, &ReadLimits::default()).map(|r| r.tree).map_err(|e| e.to_string())
}
