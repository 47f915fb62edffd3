//! Window management by window id: [`AtspiBackend::manage`] finds the X window behind an
//! accessible window (its app's process and its title), asks the window manager for the change
//! ([`crate::wm`]), and waits until the window shows it, so the answer says what changed.

use std::time::{Duration, Instant};

use axsnap_core::TargetId;
use serde::Serialize;

use crate::apps;
use crate::backend::{app_of, AtspiBackend};
use crate::bus::iface;
use crate::error::AtspiError;
use crate::object::ObjectRef;
use crate::wm::{Frame, Screen, WindowOp};

/// How long a change may take to show (window managers animate nothing here, but apps
/// re-lay out on a resize before they acknowledge it).
const SHOW_WAIT: Duration = Duration::from_secs(3);

/// How long a close may take: the app may first ask whether to save.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// How often the window is looked at while waiting.
const POLL: Duration = Duration::from_millis(30);

/// What a window request changed.
#[derive(Clone, Debug, Serialize)]
pub struct WindowChange {
    /// The request, as the tools name it.
    pub action: &'static str,
    /// The window's title.
    pub title: String,
    /// Where it was and its state before.
    pub before: Frame,
    /// After (none once it closed).
    pub after: Option<Frame>,
    /// Whether it was so already, so nothing was asked.
    pub already: bool,
    /// Whether it closed.
    pub closed: bool,
    /// Windows its app opened meanwhile (a close may open "Save changes?").
    #[serde(skip)]
    pub opened: Vec<TargetId>,
    /// The window manager that carried it out, when one runs.
    pub window_manager: Option<String>,
}

impl AtspiBackend {
    /// Asks for `op` on window `target` and waits until the window shows it (a close: until
    /// the window is gone or its app opens another, such as a question about saving).
    ///
    /// Fails with [`AtspiError::NotApplied`] when the window does not change in time,
    /// [`AtspiError::NoWindowManager`] for minimize, maximize and restore on a display with no
    /// window manager, and [`AtspiError::Display`] when there is no X display.
    pub async fn manage(&mut self, target: &TargetId, op: WindowOp) -> Result<WindowChange, AtspiError> {
        let obj = self.object_of(target)?;
        let closed = |why: String| AtspiError::Gone(format!("window {target} is closed ({why})"));
        let title = match self.bus().property::<String>(&obj, iface::ACCESSIBLE, "Name").await {
            Ok(t) => t,
            Err(AtspiError::Gone(why)) => return Err(closed(why)),
            Err(e) => return Err(e),
        };
        let pid = apps::process_id(self.bus(), &obj.bus).await;
        let screen = Screen::open(self.display())?;
        let window_manager = screen.window_manager().map(str::to_string);
        let xwin = screen.find(pid, &title).ok_or_else(|| {
            AtspiError::Unsupported(format!(
                "window {target} ({title:?}) has no X window of its own on this display that could be told \
                 from its app's others (it may be a Wayland window, or an app that draws all its windows in \
                 one)"
            ))
        })?;
        let before = screen.frame(xwin)?;
        let mut change = WindowChange {
            action: op.name(),
            title,
            before,
            after: Some(before),
            already: op.holds(&before),
            closed: false,
            opened: Vec::new(),
            window_manager,
        };
        if change.already {
            return Ok(change);
        }
        let windows_before = self.windows_of_app(&obj).await.unwrap_or_default();
        screen.request(xwin, op)?;
        let start = Instant::now();
        if op == WindowOp::Close {
            self.wait_closed(&screen, xwin, &obj, &windows_before, &mut change).await;
            if !change.closed && change.opened.is_empty() {
                return Err(AtspiError::NotApplied(format!(
                    "window {target} ({:?}) was asked to close and is still open after {} s; the app may be \
                     busy: snapshot it to see",
                    change.title,
                    CLOSE_WAIT.as_secs()
                )));
            }
            return Ok(change);
        }
        let mut last = before;
        let mut steady = 0;
        while start.elapsed() < SHOW_WAIT {
            tokio::time::sleep(POLL).await;
            let now = screen.frame(xwin).map_err(|e| match e {
                AtspiError::Gone(why) => closed(why),
                e => e,
            })?;
            // Done once it holds (or for a move or resize, once it changed: the app or window
            // manager may round a size to its own steps) and two looks agree.
            let moved = matches!(op, WindowOp::Move { .. } | WindowOp::Resize { .. }) && now != before;
            steady = if now == last { steady + 1 } else { 0 };
            last = now;
            if (op.holds(&now) || moved) && steady >= 2 {
                break;
            }
        }
        change.after = Some(last);
        // A move or resize the window manager or the app's size hints bent still changed it.
        let bent = matches!(op, WindowOp::Move { .. } | WindowOp::Resize { .. }) && last != before;
        if !(op.holds(&last) || bent) {
            let by = change.window_manager.as_deref().map(|w| format!(" by {w}")).unwrap_or_default();
            let limits = screen.size_limits(xwin);
            let limits = match (op, limits.min, limits.max) {
                (WindowOp::Resize { width, height }, Some((w, h)), _) if width < w || height < h => {
                    format!("; the app allows no size below {w}×{h}")
                }
                (WindowOp::Resize { width, height }, _, Some((w, h))) if width > w || height > h => {
                    format!("; the app allows no size above {w}×{h}")
                }
                _ => String::new(),
            };
            return Err(AtspiError::NotApplied(format!(
                "window {target} ({:?}) was asked to {}{by} and after {} s is still {last}{limits}",
                change.title,
                op.name(),
                SHOW_WAIT.as_secs()
            )));
        }
        change.opened = self.opened_since(&obj, &windows_before).await;
        Ok(change)
    }

    /// Waits for a closing window to go, or for its app to open another (a question).
    async fn wait_closed(
        &mut self,
        screen: &Screen,
        xwin: u32,
        obj: &ObjectRef,
        windows_before: &[ObjectRef],
        change: &mut WindowChange,
    ) {
        let start = Instant::now();
        while start.elapsed() < CLOSE_WAIT {
            tokio::time::sleep(POLL).await;
            let x_gone = matches!(screen.frame(xwin), Err(AtspiError::Gone(_)));
            let windows = match self.windows_of_app(obj).await {
                Ok(w) => w,
                // The app exited with its last window.
                Err(AtspiError::Gone(_)) => Vec::new(),
                Err(_) => continue,
            };
            if x_gone || !windows.contains(obj) {
                change.closed = true;
                change.after = None;
                return;
            }
            if windows.iter().any(|w| !windows_before.contains(w)) {
                // Let the question finish showing before it is named.
                tokio::time::sleep(Duration::from_millis(150)).await;
                change.opened = self.opened_since(obj, windows_before).await;
                change.after = screen.frame(xwin).ok();
                return;
            }
        }
    }

    /// The windows `obj`'s app has now that it did not have before, as ids.
    async fn opened_since(&mut self, obj: &ObjectRef, before: &[ObjectRef]) -> Vec<TargetId> {
        let now = self.windows_of_app(obj).await.unwrap_or_default();
        now.iter().filter(|w| !before.contains(w)).map(|w| self.target_of(w)).collect()
    }

    /// The top-level windows of `obj`'s app.
    async fn windows_of_app(&self, obj: &ObjectRef) -> Result<Vec<ObjectRef>, AtspiError> {
        let root = app_of(obj);
        let kids: Vec<(String, zbus::zvariant::OwnedObjectPath)> =
            self.bus().call(&root, iface::ACCESSIBLE, "GetChildren", &()).await?;
        Ok(kids.into_iter().map(ObjectRef::from).collect())
    }
}
