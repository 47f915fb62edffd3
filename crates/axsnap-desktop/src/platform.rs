//! [`Platform`]: the primitives a desktop system offers, and nothing more. Everything built on
//! them (window ids, settling, window operations, launching) is [`crate::DesktopBackend`]'s,
//! the same on every system.

use std::fmt::Debug;
use std::future::Future;
use std::hash::Hash;
use std::time::Duration;

use axsnap_core::backend::{Capture, ElementAction};
use axsnap_core::{NativeId, TargetId};
use serde::Serialize;

use crate::error::DesktopError;
use crate::launch::Spawned;
use crate::window::{Frame, SizeLimits, WindowOp};

/// An app that exposes accessibility, as the platform lists it.
#[derive(Clone, Debug, Serialize)]
#[serde(bound(serialize = ""))]
pub struct AppInfo<W> {
    /// Its name (usually its program name).
    pub name: String,
    /// The name [`Platform::app_key`] gives its windows (AT-SPI: its bus name).
    #[serde(skip)]
    pub key: String,
    /// Its top-level windows (none when it did not answer).
    pub windows: Vec<WindowInfo<W>>,
    /// False when the app did not answer in time (busy or hung): it is listed, named after its
    /// program, with no windows.
    pub answering: bool,
}

/// A top-level window (a frame, a dialog) of an app.
#[derive(Clone, Debug, Serialize)]
#[serde(bound(serialize = ""))]
pub struct WindowInfo<W> {
    /// Its title.
    pub title: String,
    /// Its role, in the platform's words (`frame`, `dialog`, `window`).
    pub role: String,
    /// Whether it is the active window.
    pub active: bool,
    /// Whether it is on screen.
    pub showing: bool,
    /// Its native handle.
    #[serde(skip)]
    pub handle: W,
}

/// Which read of a window a capture is. After an action a window is read once its app has been
/// quiet briefly; if the app changed it while it was read, it is read [`Pass::Again`], and a
/// platform may take from the first read what no event touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The first read of this capture.
    First,
    /// A read right after one the app changed under.
    Again,
}

/// A desktop system's accessibility API and window system, as primitives.
///
/// The methods return futures that are `Send`, like the core's
/// [`Backend`](axsnap_core::backend::Backend): the server runs them on a multi-threaded
/// runtime. A platform keeps per-window caches keyed by [`TargetId`] (what it may reuse from
/// the last capture); [`Platform::retain`] says which windows still exist.
pub trait Platform: Send + Sync {
    /// A window's native handle (AT-SPI: its object; UI Automation: its runtime id).
    type Window: Clone + Eq + Hash + Debug + Send + Sync + 'static;
    /// A window as the window system sees it, to read its frame and send it requests.
    type Control: WindowControl + Send;

    /// The apps that expose accessibility, with their top-level windows. An app that does not
    /// answer in time is listed with `answering: false` rather than holding up the others.
    fn apps(&mut self) -> impl Future<Output = Result<Vec<AppInfo<Self::Window>>, DesktopError>> + Send;

    /// The top-level windows `window`'s app has now (to see which an action opened).
    fn app_windows(
        &mut self,
        window: &Self::Window,
    ) -> impl Future<Output = Result<Vec<Self::Window>, DesktopError>> + Send;

    /// A name of `window`'s app that stays the same while the app runs (AT-SPI: its bus name),
    /// for [`Platform::quiet_for`].
    fn app_key(&self, window: &Self::Window) -> String;

    /// Whether the platform hears the apps' change events. Without them nothing tells a
    /// capture that an app changed meanwhile: every settle waits its whole period, and every
    /// window counts as changed.
    fn hears_events(&self) -> bool;

    /// How long since `app` (an [`Platform::app_key`]) was last heard from; `None` when it
    /// sent nothing yet.
    fn quiet_for(&self, app: &str) -> impl Future<Output = Option<Duration>> + Send;

    /// Reads window `window` (as `target`) into a capture, giving up with a partial tree at
    /// `deadline`.
    fn capture(
        &mut self,
        target: &TargetId,
        window: &Self::Window,
        deadline: Duration,
        pass: Pass,
    ) -> impl Future<Output = Result<Capture, DesktopError>> + Send;

    /// Whether `window` may have changed since its last capture began. `false` must mean
    /// "certainly unchanged"; when in doubt, `true`.
    fn changed(
        &mut self,
        target: &TargetId,
        window: &Self::Window,
    ) -> impl Future<Output = Result<bool, DesktopError>> + Send;

    /// Keeps the caches of these windows only (the others closed).
    fn retain(&mut self, keep: &dyn Fn(&TargetId) -> bool);

    /// Carries out `action` on `element` of `window`, checking what it can (an edit's value
    /// read back: [`DesktopError::NoEffect`] when it did not take). Settling is the caller's.
    fn act(
        &mut self,
        window: &Self::Window,
        element: &NativeId,
        action: &ElementAction,
    ) -> impl Future<Output = Result<(), DesktopError>> + Send;

    /// Presses keys (`Control+s`, `Tab Tab Enter`) with whatever has the keyboard focus.
    fn press(
        &mut self,
        window: &Self::Window,
        keys: &str,
    ) -> impl Future<Output = Result<(), DesktopError>> + Send;

    /// `window`'s title now ([`DesktopError::Gone`] once it closed).
    fn title(&mut self, window: &Self::Window) -> impl Future<Output = Result<String, DesktopError>> + Send;

    /// The window system's handle of `window`, to read its frame and send it requests.
    fn control(
        &mut self,
        target: &TargetId,
        window: &Self::Window,
    ) -> impl Future<Output = Result<Self::Control, DesktopError>> + Send;

    /// The command line `app` names (a desktop entry, a command, a path).
    fn resolve(&self, app: &str) -> Result<Vec<String>, DesktopError>;

    /// Starts `argv`, detached from the caller (it outlives the call).
    fn spawn(&mut self, argv: &[String]) -> Result<Spawned, DesktopError> {
        crate::launch::spawn_process(argv)
    }
}

/// A window as the window system sees it (X11: its X window on the display).
pub trait WindowControl {
    /// The window manager that carries out requests, when one runs.
    fn manager(&self) -> Option<&str>;
    /// Where the window is and its state ([`DesktopError::Gone`] once it closed).
    fn frame(&self) -> Result<Frame, DesktopError>;
    /// Asks for `op`. Refused with [`DesktopError::NoWindowManager`] when only a window manager
    /// could carry it out and none runs.
    fn request(&self, op: WindowOp) -> Result<(), DesktopError>;
    /// The sizes the app allows its window, when it says.
    fn size_limits(&self) -> SizeLimits;
}

/// A desktop with no platform: every call says that this system has no desktop backend yet.
/// The server uses it where no platform is built (Windows and macOS for now), so the browser
/// tools work and the desktop's say why they cannot.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPlatform;

impl NoPlatform {
    fn none() -> DesktopError {
        DesktopError::Unavailable(format!(
            "axsnap has no desktop backend for {} yet (Linux has AT-SPI); a recording can be replayed anywhere \
             (--recording)",
            std::env::consts::OS
        ))
    }
}

impl WindowControl for NoPlatform {
    fn manager(&self) -> Option<&str> {
        None
    }
    fn frame(&self) -> Result<Frame, DesktopError> {
        Err(NoPlatform::none())
    }
    fn request(&self, _: WindowOp) -> Result<(), DesktopError> {
        Err(NoPlatform::none())
    }
    fn size_limits(&self) -> SizeLimits {
        SizeLimits::default()
    }
}

impl Platform for NoPlatform {
    type Window = u32;
    type Control = NoPlatform;

    async fn apps(&mut self) -> Result<Vec<AppInfo<u32>>, DesktopError> {
        Err(NoPlatform::none())
    }
    async fn app_windows(&mut self, _: &u32) -> Result<Vec<u32>, DesktopError> {
        Err(NoPlatform::none())
    }
    fn app_key(&self, _: &u32) -> String {
        String::new()
    }
    fn hears_events(&self) -> bool {
        false
    }
    async fn quiet_for(&self, _: &str) -> Option<Duration> {
        None
    }
    async fn capture(
        &mut self,
        _: &TargetId,
        _: &u32,
        _: Duration,
        _: Pass,
    ) -> Result<Capture, DesktopError> {
        Err(NoPlatform::none())
    }
    async fn changed(&mut self, _: &TargetId, _: &u32) -> Result<bool, DesktopError> {
        Ok(true)
    }
    fn retain(&mut self, _: &dyn Fn(&TargetId) -> bool) {}
    async fn act(&mut self, _: &u32, _: &NativeId, _: &ElementAction) -> Result<(), DesktopError> {
        Err(NoPlatform::none())
    }
    async fn press(&mut self, _: &u32, _: &str) -> Result<(), DesktopError> {
        Err(NoPlatform::none())
    }
    async fn title(&mut self, _: &u32) -> Result<String, DesktopError> {
        Err(NoPlatform::none())
    }
    async fn control(&mut self, _: &TargetId, _: &u32) -> Result<NoPlatform, DesktopError> {
        Err(NoPlatform::none())
    }
    fn resolve(&self, _: &str) -> Result<Vec<String>, DesktopError> {
        Err(NoPlatform::none())
    }
}
