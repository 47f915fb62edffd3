//! [`RecordedPlatform`]: a [`Platform`] that replays a [`Recording`], so every desktop tool
//! runs end to end on any machine, and a platform's upper half (everything above its system
//! calls) is tested here from trees recorded on the real system.
//!
//! What an action does is what a user's would do to the recorded tree, plus what the
//! recording's transitions say:
//! - a fill or type sets a text field's value (refused, as a platform would, on a disabled or
//!   read-only element, or one that takes no text); check and a click on a check box or switch
//!   set its checked state; select sets a list's value to one of its options;
//! - a transition matched by the action (or keys, or window request) shows, closes or replaces
//!   windows;
//! - window requests change the window's frame at once, within the sizes its app allows; with
//!   no window manager recorded, minimize, maximize and restore are refused as on X11.
//!
//! The platform hears its own changes, as AT-SPI's events tell a real one: a window nothing
//! changed answers without a capture.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axsnap_core::backend::{Capture, ElementAction, Refusal};
use axsnap_core::{NativeId, NodeId, Role, State, TargetId, Tree};

use crate::backend::header;
use crate::error::DesktopError;
use crate::launch::Spawned;
use crate::platform::{AppInfo, Pass, Platform, WindowControl, WindowInfo};
use crate::recording::{RecordedApp, Recording, Trigger};
use crate::window::{Frame, SizeLimits, WindowOp};

/// One window's state as the replay goes.
#[derive(Clone, Debug)]
struct Window {
    app: usize,
    id: String,
    title: String,
    role: String,
    shown: bool,
    frame: Frame,
    min_size: Option<(u32, u32)>,
    max_size: Option<(u32, u32)>,
    tree: Tree,
    /// Where it was before it was maximized, to restore.
    normal: Option<Frame>,
    /// Bumped on every change, for [`Platform::changed`].
    version: u64,
}

#[derive(Debug)]
struct Replay {
    recording: Recording,
    windows: Vec<Window>,
    next_pid: u32,
}

/// A platform replaying a recording. Its window handles are indexes into the recording's
/// windows; the state is shared with its [`RecordedControl`]s.
#[derive(Clone, Debug)]
pub struct RecordedPlatform {
    replay: Arc<Mutex<Replay>>,
    /// Per target, the version of its window its last capture read.
    captured: HashMap<TargetId, u64>,
}

impl RecordedPlatform {
    /// Replays the recording at `path`.
    pub fn open(path: &Path) -> Result<RecordedPlatform, DesktopError> {
        Ok(RecordedPlatform::new(Recording::open(path)?))
    }

    /// Replays `recording`.
    pub fn new(recording: Recording) -> RecordedPlatform {
        let mut windows = Vec::new();
        for (i, app) in recording.apps.iter().enumerate() {
            for w in &app.windows {
                windows.push(Window {
                    app: i,
                    id: w.id.clone(),
                    title: w.title.clone(),
                    role: w.role.clone(),
                    shown: !w.hidden,
                    frame: Frame { active: w.active, ..w.frame },
                    min_size: w.min_size,
                    max_size: w.max_size,
                    tree: w.tree.clone(),
                    normal: None,
                    version: 0,
                });
            }
        }
        let replay = Replay { recording, windows, next_pid: 40_000 };
        RecordedPlatform { replay: Arc::new(Mutex::new(replay)), captured: HashMap::new() }
    }

    fn replay(&self) -> std::sync::MutexGuard<'_, Replay> {
        // A panic elsewhere cannot leave the replay half-changed in a way that matters more
        // than losing it: carry on with what is there.
        self.replay.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Replay {
    fn window(&self, w: usize) -> Result<&Window, DesktopError> {
        match self.windows.get(w) {
            Some(win) if win.shown => Ok(win),
            _ => Err(DesktopError::Gone(format!("recorded window {w} is closed"))),
        }
    }

    fn window_mut(&mut self, w: usize) -> Result<&mut Window, DesktopError> {
        match self.windows.get_mut(w) {
            Some(win) if win.shown => Ok(win),
            _ => Err(DesktopError::Gone(format!("recorded window {w} is closed"))),
        }
    }

    fn index(&self, id: &str) -> Option<usize> {
        self.windows.iter().position(|w| w.id == id)
    }

    /// Runs the transitions of window `w` that `matches` picks. Whether one ran.
    fn fire(&mut self, w: usize, matches: impl Fn(&Trigger) -> bool) -> bool {
        let own = self.windows[w].id.clone();
        let fired: Vec<_> = self
            .recording
            .transitions
            .iter()
            .filter(|t| t.window == own && matches(&t.trigger))
            .cloned()
            .collect();
        for t in &fired {
            for id in &t.close {
                if let Some(i) = self.index(id) {
                    self.close(i);
                }
            }
            for id in &t.show {
                if let Some(i) = self.index(id) {
                    self.windows[i].shown = true;
                    self.windows[i].version += 1;
                    self.activate(i);
                }
            }
            if let Some(tree) = &t.tree {
                let into = t.into.as_deref().and_then(|id| self.index(id)).unwrap_or(w);
                self.windows[into].tree = tree.clone();
                self.windows[into].version += 1;
            }
        }
        !fired.is_empty()
    }

    /// Closes window `w`; when it was the active one, the window manager makes another of
    /// its app (else any) active, as a closing dialog hands the focus back.
    fn close(&mut self, w: usize) {
        let was_active = self.windows[w].frame.active;
        self.windows[w].shown = false;
        self.windows[w].frame.active = false;
        self.windows[w].version += 1;
        if was_active {
            let app = self.windows[w].app;
            let shown = |x: &Window| x.shown && !x.frame.minimized;
            let next = self.windows.iter().position(|x| shown(x) && x.app == app);
            if let Some(n) = next.or_else(|| self.windows.iter().position(shown)) {
                self.activate(n);
            }
        }
    }

    fn activate(&mut self, w: usize) {
        for (i, win) in self.windows.iter_mut().enumerate() {
            win.frame.active = i == w;
        }
    }
}

/// The name a transition's `action` gives `action`.
fn action_name(action: &ElementAction) -> &'static str {
    match action {
        ElementAction::Click { .. } | ElementAction::ClickButton { .. } => "click",
        ElementAction::Hover => "hover",
        ElementAction::Type { clear: true, .. } => "fill",
        ElementAction::Type { .. } | ElementAction::TypeKeys { .. } => "type",
        ElementAction::Select { .. } => "select",
        ElementAction::SetFiles { .. } => "upload",
        ElementAction::DragTo { .. } => "drag",
        ElementAction::Check { .. } => "check",
        ElementAction::Scroll { .. } => "scroll",
        ElementAction::Focus => "focus",
        ElementAction::Press { .. } => "press",
    }
}

/// An element in words, for refusals: `textbox "Name"`.
fn said(tree: &Tree, id: NodeId) -> String {
    let n = tree.node(id);
    if n.name.is_empty() {
        n.role.to_string()
    } else {
        format!("{} {:?}", n.role, n.name)
    }
}

/// Carries out an edit on node `id` of `tree`, as a platform would (refusing what it would).
fn edit(tree: &mut Tree, id: NodeId, action: &ElementAction) -> Result<(), DesktopError> {
    let who = said(tree, id);
    let node = tree.node(id);
    let (disabled, readonly) = (node.states.contains(State::Disabled), node.states.contains(State::Readonly));
    let text_field = matches!(node.role, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton)
        || node.states.contains(State::Editable);
    let checkable = matches!(
        node.role,
        Role::CheckBox | Role::Switch | Role::Radio | Role::MenuItemCheckbox | Role::MenuItemRadio
    );
    let edits = !matches!(action, ElementAction::Hover | ElementAction::Focus | ElementAction::Scroll { .. });
    if disabled && edits {
        return Err(DesktopError::refused(
            Refusal::Disabled,
            format!("{who} is disabled; enable it first or pick another element"),
        ));
    }
    match action {
        ElementAction::Type { text, .. } | ElementAction::TypeKeys { text, .. } => {
            if !text_field {
                return Err(DesktopError::refused(
                    Refusal::NotATextField,
                    format!("{who} does not take text: it is not a text field; click it, or type into a text field"),
                ));
            }
            if readonly {
                return Err(DesktopError::refused(Refusal::ReadOnly, format!("{who} is read-only")));
            }
            let clear = matches!(action, ElementAction::Type { clear: true, .. });
            let node = tree.node_mut(id);
            let old = if clear { String::new() } else { node.value.clone().unwrap_or_default() };
            node.value = Some(old + text);
            focus(tree, id);
        }
        ElementAction::Check { on } => {
            if !checkable {
                return Err(DesktopError::refused(
                    Refusal::NotActionable,
                    format!("{who} cannot be checked"),
                ));
            }
            if *on || node.role != Role::Radio {
                tree.node_mut(id).states.set(State::Checked, *on);
            }
        }
        ElementAction::Click { .. } | ElementAction::ClickButton { .. } if checkable => {
            let on = node.role == Role::Radio
                || node.role == Role::MenuItemRadio
                || !node.states.contains(State::Checked);
            tree.node_mut(id).states.set(State::Checked, on);
        }
        ElementAction::Select { values } => {
            let options = options_of(tree, id);
            if !matches!(node.role, Role::ComboBox | Role::ListBox) || options.is_empty() {
                return Err(DesktopError::refused(
                    Refusal::NotActionable,
                    format!("{who} has no options to select"),
                ));
            }
            let Some(chosen) = values.iter().find_map(|v| options.iter().find(|o| o.eq_ignore_ascii_case(v)))
            else {
                return Err(DesktopError::refused(
                    Refusal::NoSuchOption,
                    format!("{who} has no option {values:?} (options: {})", options.join(", ")),
                ));
            };
            tree.node_mut(id).value = Some(chosen.clone());
        }
        ElementAction::Focus => focus(tree, id),
        ElementAction::SetFiles { .. } | ElementAction::DragTo { .. } => {
            return Err(DesktopError::Unsupported(format!(
                "a recorded window cannot {}",
                action_name(action)
            )))
        }
        _ => {}
    }
    Ok(())
}

/// The options of a list: its own, else its option-like descendants' names.
fn options_of(tree: &Tree, id: NodeId) -> Vec<String> {
    let own = &tree.node(id).options;
    if !own.is_empty() {
        return own.clone();
    }
    tree.subtree(id)
        .into_iter()
        .map(|d| tree.node(d))
        .filter(|n| matches!(n.role, Role::Option | Role::MenuItem | Role::ListItem) && !n.name.is_empty())
        .map(|n| n.name.clone())
        .collect()
}

/// Moves the focus to `id`.
fn focus(tree: &mut Tree, id: NodeId) {
    let all: Vec<NodeId> = tree.preorder().map(|(n, _)| n).collect();
    for n in all {
        tree.node_mut(n).states.set(State::Focused, n == id);
    }
}

/// A recorded window as the window system would see it.
#[derive(Debug)]
pub struct RecordedControl {
    replay: Arc<Mutex<Replay>>,
    window: usize,
    manager: Option<String>,
}

impl RecordedControl {
    fn replay(&self) -> std::sync::MutexGuard<'_, Replay> {
        self.replay.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl WindowControl for RecordedControl {
    fn manager(&self) -> Option<&str> {
        self.manager.as_deref()
    }

    fn frame(&self) -> Result<Frame, DesktopError> {
        Ok(self.replay().window(self.window)?.frame)
    }

    fn request(&self, op: WindowOp) -> Result<(), DesktopError> {
        if op.needs_wm() && self.manager.is_none() {
            return Err(DesktopError::NoWindowManager(format!(
                "cannot {} a window: the recording has no window manager",
                op.name()
            )));
        }
        let mut replay = self.replay();
        let w = self.window;
        replay.window(w)?;
        if replay.fire(w, |t| *t == Trigger::Request(op.name().to_string())) {
            return Ok(());
        }
        let screen = replay.recording.screen;
        let win = replay.window_mut(w)?;
        let f = &mut win.frame;
        match op {
            WindowOp::Focus => {
                f.minimized = false;
                replay.activate(w);
            }
            WindowOp::Close => {}
            WindowOp::Move { x, y } => (f.x, f.y) = (x, y),
            WindowOp::Resize { width, height } => {
                let (lo, hi) = (win.min_size.unwrap_or((1, 1)), win.max_size.unwrap_or((u32::MAX, u32::MAX)));
                f.width = width.clamp(lo.0, hi.0.max(lo.0));
                f.height = height.clamp(lo.1, hi.1.max(lo.1));
            }
            WindowOp::Minimize => {
                f.minimized = true;
                f.active = false;
            }
            WindowOp::Maximize => {
                win.normal = Some(*f);
                *f = Frame { x: 0, y: 0, width: screen.0, height: screen.1, maximized: true, ..*f };
            }
            WindowOp::Restore => {
                if f.maximized {
                    let normal = win.normal.take().unwrap_or(*f);
                    (f.x, f.y, f.width, f.height) = (normal.x, normal.y, normal.width, normal.height);
                }
                (f.minimized, f.maximized) = (false, false);
            }
        }
        if op == WindowOp::Close {
            replay.close(w);
        } else if let Some(win) = replay.windows.get_mut(w) {
            win.version += 1;
        }
        Ok(())
    }

    fn size_limits(&self) -> SizeLimits {
        let replay = self.replay();
        let win = replay.windows.get(self.window);
        SizeLimits { min: win.and_then(|w| w.min_size), max: win.and_then(|w| w.max_size) }
    }
}

impl Platform for RecordedPlatform {
    type Window = usize;
    type Control = RecordedControl;

    async fn apps(&mut self) -> Result<Vec<AppInfo<usize>>, DesktopError> {
        let replay = self.replay();
        Ok(replay
            .recording
            .apps
            .iter()
            .enumerate()
            .map(|(i, app)| AppInfo {
                name: app.name.clone(),
                key: app.name.clone(),
                answering: true,
                windows: replay
                    .windows
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.app == i && w.shown)
                    .map(|(h, w)| WindowInfo {
                        title: w.title.clone(),
                        role: w.role.clone(),
                        active: w.frame.active,
                        showing: !w.frame.minimized,
                        handle: h,
                    })
                    .collect(),
            })
            .filter(|a| !a.windows.is_empty())
            .collect())
    }

    async fn app_windows(&mut self, window: &usize) -> Result<Vec<usize>, DesktopError> {
        let replay = self.replay();
        let app = replay.windows.get(*window).map(|w| w.app);
        Ok(replay
            .windows
            .iter()
            .enumerate()
            .filter(|(_, w)| Some(w.app) == app && w.shown)
            .map(|(i, _)| i)
            .collect())
    }

    fn app_key(&self, window: &usize) -> String {
        let replay = self.replay();
        let app = replay.windows.get(*window).map(|w| w.app);
        app.and_then(|a| replay.recording.apps.get(a)).map(|a| a.name.clone()).unwrap_or_default()
    }

    fn hears_events(&self) -> bool {
        true
    }

    async fn quiet_for(&self, _app: &str) -> Option<Duration> {
        // A replay changes nothing after the action that changed it.
        None
    }

    async fn capture(
        &mut self,
        target: &TargetId,
        window: &usize,
        _: Duration,
        _: Pass,
    ) -> Result<Capture, DesktopError> {
        let (capture, version) = {
            let replay = self.replay();
            let w = replay.window(*window)?;
            let app = replay.recording.apps.get(w.app).map(|a| a.name.as_str()).unwrap_or_default();
            (Capture::new(target.clone(), header(app, &w.title), w.tree.clone(), None), w.version)
        };
        self.captured.insert(target.clone(), version);
        Ok(capture)
    }

    async fn changed(&mut self, target: &TargetId, window: &usize) -> Result<bool, DesktopError> {
        let now = self.replay().windows.get(*window).map(|w| (w.version, w.shown));
        Ok(match (now, self.captured.get(target)) {
            (Some((v, true)), Some(seen)) => v != *seen,
            _ => true,
        })
    }

    fn retain(&mut self, keep: &dyn Fn(&TargetId) -> bool) {
        self.captured.retain(|t, _| keep(t));
    }

    async fn act(
        &mut self,
        window: &usize,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<(), DesktopError> {
        let mut replay = self.replay();
        let w = *window;
        let win = replay.window_mut(w)?;
        let found = win.tree.preorder().map(|(id, _)| id).find(|id| win.tree.node(*id).native == *element);
        let Some(id) = found else {
            return Err(DesktopError::Gone(format!(
                "element {} is no longer in window {:?}",
                element.id, win.id
            )));
        };
        edit(&mut win.tree, id, action)?;
        win.version += 1;
        let name = action_name(action);
        let keys = match action {
            ElementAction::Press { keys } => Some(keys.clone()),
            ElementAction::Type { submit: true, .. } | ElementAction::TypeKeys { submit: true, .. } => {
                Some("Enter".to_string())
            }
            _ => None,
        };
        replay.fire(w, |t| match t {
            Trigger::Element { element: e, action } => {
                *e == element.id && (action == name || action == "any")
            }
            Trigger::Keys(k) => keys.as_deref() == Some(k.as_str()),
            Trigger::Request(_) => false,
        });
        Ok(())
    }

    async fn press(&mut self, window: &usize, keys: &str) -> Result<(), DesktopError> {
        axsnap_core::keys::parse(keys)?;
        let mut replay = self.replay();
        replay.window(*window)?;
        replay.fire(*window, |t| *t == Trigger::Keys(keys.to_string()));
        Ok(())
    }

    async fn title(&mut self, window: &usize) -> Result<String, DesktopError> {
        Ok(self.replay().window(*window)?.title.clone())
    }

    async fn control(&mut self, _: &TargetId, window: &usize) -> Result<RecordedControl, DesktopError> {
        let manager = {
            let replay = self.replay();
            replay.window(*window)?;
            replay.recording.window_manager.clone()
        };
        Ok(RecordedControl { replay: self.replay.clone(), window: *window, manager })
    }

    fn resolve(&self, app: &str) -> Result<Vec<String>, DesktopError> {
        // An app launches when it is not running at the start: all its windows wait hidden.
        let replay = self.replay();
        let idle: Vec<&RecordedApp> = replay
            .recording
            .apps
            .iter()
            .filter(|a| !a.windows.is_empty() && a.windows.iter().all(|w| w.hidden))
            .collect();
        match idle.iter().find(|a| a.launch == app.trim() || a.name == app.trim()) {
            Some(a) => Ok(vec![a.launch.clone()]),
            None => {
                let known: Vec<&str> = idle.iter().map(|a| a.launch.as_str()).collect();
                let known = if known.is_empty() { "nothing".to_string() } else { known.join(", ") };
                Err(DesktopError::LaunchFailed {
                    app: app.to_string(),
                    reason: format!("the recording launches only {known}"),
                })
            }
        }
    }

    fn spawn(&mut self, argv: &[String]) -> Result<Spawned, DesktopError> {
        let mut replay = self.replay();
        let launch = argv.first().cloned().unwrap_or_default();
        let app = replay.recording.apps.iter().position(|a| a.launch == launch);
        // Its first hidden window shows, as the app's first window would.
        let first = replay.windows.iter().position(|w| Some(w.app) == app && !w.shown);
        if let Some(i) = first {
            replay.windows[i].shown = true;
            replay.windows[i].version += 1;
            replay.activate(i);
        }
        replay.next_pid += 1;
        Ok(Spawned::without_process(replay.next_pid))
    }
}
