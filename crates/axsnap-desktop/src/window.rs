//! Window operations: what can be asked of a window ([`WindowOp`]), where it is and in what
//! state ([`Frame`]), and [`DesktopBackend::manage`], which asks the window system for a change
//! and waits until the window shows it, so the answer says what changed.

use std::time::{Duration, Instant};

use axsnap_core::TargetId;
use serde::Serialize;

use crate::backend::DesktopBackend;
use crate::error::DesktopError;
use crate::platform::{Platform, WindowControl};

/// How long a change may take to show (window managers animate nothing here, but apps
/// re-lay out on a resize before they acknowledge it).
const SHOW_WAIT: Duration = Duration::from_secs(3);

/// How long a close may take: the app may first ask whether to save.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

/// How often the window is looked at while waiting.
const POLL: Duration = Duration::from_millis(30);

/// What can be asked of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowOp {
    /// Make it the active window (raised, with the keyboard focus).
    Focus,
    /// Ask it to close, as its title bar's close button does (the app may ask to save first).
    Close,
    /// Put its top-left corner (its frame's, when the window manager draws one) here.
    Move {
        /// Screen pixels from the left.
        x: i32,
        /// Screen pixels from the top.
        y: i32,
    },
    /// Make its content this size.
    Resize {
        /// Pixels.
        width: u32,
        /// Pixels.
        height: u32,
    },
    /// Minimize (iconify) it.
    Minimize,
    /// Maximize it.
    Maximize,
    /// Undo minimize and maximize.
    Restore,
}

impl WindowOp {
    /// Its name as the tools spell it.
    pub fn name(&self) -> &'static str {
        match self {
            WindowOp::Focus => "focus",
            WindowOp::Close => "close",
            WindowOp::Move { .. } => "move",
            WindowOp::Resize { .. } => "resize",
            WindowOp::Minimize => "minimize",
            WindowOp::Maximize => "maximize",
            WindowOp::Restore => "restore",
        }
    }

    /// Whether `frame` shows this op done (before it is asked: nothing to do).
    pub fn holds(&self, frame: &Frame) -> bool {
        match *self {
            WindowOp::Focus => frame.active && !frame.minimized,
            // Closing is seen on the accessibility bus, not here.
            WindowOp::Close => false,
            WindowOp::Move { x, y } => (frame.x, frame.y) == (x, y),
            WindowOp::Resize { width, height } => (frame.width, frame.height) == (width, height),
            WindowOp::Minimize => frame.minimized,
            WindowOp::Maximize => frame.maximized,
            WindowOp::Restore => !frame.minimized && !frame.maximized,
        }
    }

    /// Whether this op needs a window manager (nothing else would draw or restore a
    /// minimized or maximized window).
    pub fn needs_wm(&self) -> bool {
        matches!(self, WindowOp::Minimize | WindowOp::Maximize | WindowOp::Restore)
    }
}

/// The sizes an app allows its window, as width and height, when it says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SizeLimits {
    /// The smallest.
    pub min: Option<(u32, u32)>,
    /// The largest.
    pub max: Option<(u32, u32)>,
}

/// A window's place, size and state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Frame {
    /// Its top-left corner, its frame's when the window manager draws one: screen pixels.
    pub x: i32,
    /// Its top-left corner, from the top.
    pub y: i32,
    /// Its content's width.
    pub width: u32,
    /// Its content's height.
    pub height: u32,
    /// Whether it is minimized (iconic or hidden).
    pub minimized: bool,
    /// Whether it is maximized both ways.
    pub maximized: bool,
    /// Whether it is the active window.
    pub active: bool,
}

impl std::fmt::Display for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at {},{} size {}×{}", self.x, self.y, self.width, self.height)?;
        if self.minimized {
            f.write_str(", minimized")?;
        }
        if self.maximized {
            f.write_str(", maximized")?;
        }
        if self.active {
            f.write_str(", active")?;
        }
        Ok(())
    }
}

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

impl<P: Platform> DesktopBackend<P> {
    /// Asks for `op` on window `target` and waits until the window shows it (a close: until
    /// the window is gone or its app opens another, such as a question about saving).
    ///
    /// Fails with [`DesktopError::NotApplied`] when the window does not change in time,
    /// [`DesktopError::NoWindowManager`] for minimize, maximize and restore with no window
    /// manager, [`DesktopError::WindowSystem`] when the window system cannot be reached, and
    /// [`DesktopError::Gone`] when the window closed.
    pub async fn manage(&mut self, target: &TargetId, op: WindowOp) -> Result<WindowChange, DesktopError> {
        let window = self.window_of(target)?;
        let closed = |why: String| DesktopError::Gone(format!("window {target} is closed ({why})"));
        let title = match self.platform_mut().title(&window).await {
            Ok(t) => t,
            Err(DesktopError::Gone(why)) => return Err(closed(why)),
            Err(e) => return Err(e),
        };
        let control = self.platform_mut().control(target, &window).await?;
        let before = control.frame()?;
        let mut change = WindowChange {
            action: op.name(),
            title,
            before,
            after: Some(before),
            already: op.holds(&before),
            closed: false,
            opened: Vec::new(),
            window_manager: control.manager().map(str::to_string),
        };
        if change.already {
            return Ok(change);
        }
        let windows_before = self.platform_mut().app_windows(&window).await.unwrap_or_default();
        control.request(op)?;
        let start = Instant::now();
        if op == WindowOp::Close {
            self.wait_closed(&control, &window, &windows_before, &mut change).await;
            if !change.closed && change.opened.is_empty() {
                return Err(DesktopError::NotApplied(format!(
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
            let now = control.frame().map_err(|e| match e {
                DesktopError::Gone(why) => closed(why),
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
            let limits = control.size_limits();
            let limits = match (op, limits.min, limits.max) {
                (WindowOp::Resize { width, height }, Some((w, h)), _) if width < w || height < h => {
                    format!("; the app allows no size below {w}×{h}")
                }
                (WindowOp::Resize { width, height }, _, Some((w, h))) if width > w || height > h => {
                    format!("; the app allows no size above {w}×{h}")
                }
                _ => String::new(),
            };
            return Err(DesktopError::NotApplied(format!(
                "window {target} ({:?}) was asked to {}{by} and after {} s is still {last}{limits}",
                change.title,
                op.name(),
                SHOW_WAIT.as_secs()
            )));
        }
        change.opened = self.opened_since(&window, &windows_before).await;
        Ok(change)
    }

    /// Waits for a closing window to go, or for its app to open another (a question).
    async fn wait_closed(
        &mut self,
        control: &P::Control,
        window: &P::Window,
        windows_before: &[P::Window],
        change: &mut WindowChange,
    ) {
        let start = Instant::now();
        while start.elapsed() < CLOSE_WAIT {
            tokio::time::sleep(POLL).await;
            let frame_gone = matches!(control.frame(), Err(DesktopError::Gone(_)));
            let windows = match self.platform_mut().app_windows(window).await {
                Ok(w) => w,
                // The app exited with its last window.
                Err(DesktopError::Gone(_)) => Vec::new(),
                Err(_) => continue,
            };
            if frame_gone || !windows.contains(window) {
                change.closed = true;
                change.after = None;
                return;
            }
            if windows.iter().any(|w| !windows_before.contains(w)) {
                // Let the question finish showing before it is named.
                tokio::time::sleep(Duration::from_millis(150)).await;
                change.opened = self.opened_since(window, windows_before).await;
                change.after = control.frame().ok();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(x: i32, y: i32, w: u32, h: u32) -> Frame {
        Frame { x, y, width: w, height: h, ..Frame::default() }
    }

    #[test]
    fn an_op_holds_when_the_frame_shows_it() {
        let before = frame(0, 0, 800, 600);
        assert!(WindowOp::Move { x: 10, y: 20 }.holds(&frame(10, 20, 800, 600)));
        assert!(!WindowOp::Move { x: 10, y: 20 }.holds(&before));
        assert!(WindowOp::Resize { width: 640, height: 480 }.holds(&frame(0, 0, 640, 480)));
        let max = Frame { maximized: true, ..before };
        assert!(WindowOp::Maximize.holds(&max));
        assert!(!WindowOp::Restore.holds(&max));
        assert!(WindowOp::Restore.holds(&before));
        let min = Frame { minimized: true, active: true, ..before };
        assert!(!WindowOp::Focus.holds(&min));
        assert!(!WindowOp::Restore.holds(&min));
        assert!(WindowOp::Focus.holds(&Frame { active: true, ..before }));
        assert!(!WindowOp::Close.holds(&before));
    }

    #[test]
    fn a_frame_says_where_it_is_and_its_state() {
        let f = Frame { maximized: true, active: true, ..frame(0, 0, 1280, 1000) };
        assert_eq!(f.to_string(), "at 0,0 size 1280×1000, maximized, active");
        assert_eq!(frame(-5, 3, 1, 2).to_string(), "at -5,3 size 1×2");
    }
}
