//! [`Either`]: one of two platforms, chosen at run time (the system's own, or a recording),
//! as one [`Platform`].

use std::time::Duration;

use axsnap_core::backend::{Capture, ElementAction};
use axsnap_core::{NativeId, TargetId};

use crate::error::DesktopError;
use crate::launch::Spawned;
use crate::platform::{AppInfo, Pass, Platform, WindowControl, WindowInfo};
use crate::window::{Frame, SizeLimits, WindowOp};

/// One of two things: a platform, a window handle or a window control of either.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Either<L, R> {
    /// The first kind.
    Left(L),
    /// The second kind.
    Right(R),
}

fn mismatch() -> DesktopError {
    DesktopError::Platform("a window of one platform was given to another".into())
}

fn left_apps<W, X>(apps: Vec<AppInfo<W>>, wrap: fn(W) -> X) -> Vec<AppInfo<X>> {
    apps.into_iter()
        .map(|a| AppInfo {
            name: a.name,
            key: a.key,
            answering: a.answering,
            windows: a
                .windows
                .into_iter()
                .map(|w| WindowInfo {
                    title: w.title,
                    role: w.role,
                    active: w.active,
                    showing: w.showing,
                    handle: wrap(w.handle),
                })
                .collect(),
        })
        .collect()
}

impl<L: WindowControl, R: WindowControl> WindowControl for Either<L, R> {
    fn manager(&self) -> Option<&str> {
        match self {
            Either::Left(c) => c.manager(),
            Either::Right(c) => c.manager(),
        }
    }
    fn frame(&self) -> Result<Frame, DesktopError> {
        match self {
            Either::Left(c) => c.frame(),
            Either::Right(c) => c.frame(),
        }
    }
    fn request(&self, op: WindowOp) -> Result<(), DesktopError> {
        match self {
            Either::Left(c) => c.request(op),
            Either::Right(c) => c.request(op),
        }
    }
    fn size_limits(&self) -> SizeLimits {
        match self {
            Either::Left(c) => c.size_limits(),
            Either::Right(c) => c.size_limits(),
        }
    }
}

/// Runs `$body` with `$p` the platform and `$w` its own window, or fails on a window of the
/// other platform.
macro_rules! both {
    ($self:expr, $window:expr, |$p:ident, $w:ident| $body:expr) => {
        match ($self, $window) {
            (Either::Left($p), Either::Left($w)) => $body,
            (Either::Right($p), Either::Right($w)) => $body,
            _ => Err(mismatch()),
        }
    };
}

impl<L: Platform, R: Platform> Platform for Either<L, R> {
    type Window = Either<L::Window, R::Window>;
    type Control = Either<L::Control, R::Control>;

    async fn apps(&mut self) -> Result<Vec<AppInfo<Self::Window>>, DesktopError> {
        match self {
            Either::Left(p) => Ok(left_apps(p.apps().await?, Either::Left)),
            Either::Right(p) => Ok(left_apps(p.apps().await?, Either::Right)),
        }
    }

    async fn app_windows(&mut self, window: &Self::Window) -> Result<Vec<Self::Window>, DesktopError> {
        match (self, window) {
            (Either::Left(p), Either::Left(w)) => {
                Ok(p.app_windows(w).await?.into_iter().map(Either::Left).collect())
            }
            (Either::Right(p), Either::Right(w)) => {
                Ok(p.app_windows(w).await?.into_iter().map(Either::Right).collect())
            }
            _ => Err(mismatch()),
        }
    }

    fn app_key(&self, window: &Self::Window) -> String {
        match (self, window) {
            (Either::Left(p), Either::Left(w)) => p.app_key(w),
            (Either::Right(p), Either::Right(w)) => p.app_key(w),
            _ => String::new(),
        }
    }

    fn hears_events(&self) -> bool {
        match self {
            Either::Left(p) => p.hears_events(),
            Either::Right(p) => p.hears_events(),
        }
    }

    async fn quiet_for(&self, app: &str) -> Option<Duration> {
        match self {
            Either::Left(p) => p.quiet_for(app).await,
            Either::Right(p) => p.quiet_for(app).await,
        }
    }

    async fn capture(
        &mut self,
        target: &TargetId,
        window: &Self::Window,
        deadline: Duration,
        pass: Pass,
    ) -> Result<Capture, DesktopError> {
        both!(self, window, |p, w| p.capture(target, w, deadline, pass).await)
    }

    async fn changed(&mut self, target: &TargetId, window: &Self::Window) -> Result<bool, DesktopError> {
        both!(self, window, |p, w| p.changed(target, w).await)
    }

    fn retain(&mut self, keep: &dyn Fn(&TargetId) -> bool) {
        match self {
            Either::Left(p) => p.retain(keep),
            Either::Right(p) => p.retain(keep),
        }
    }

    async fn act(
        &mut self,
        window: &Self::Window,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<(), DesktopError> {
        both!(self, window, |p, w| p.act(w, element, action).await)
    }

    async fn press(&mut self, window: &Self::Window, keys: &str) -> Result<(), DesktopError> {
        both!(self, window, |p, w| p.press(w, keys).await)
    }

    async fn title(&mut self, window: &Self::Window) -> Result<String, DesktopError> {
        both!(self, window, |p, w| p.title(w).await)
    }

    async fn control(
        &mut self,
        target: &TargetId,
        window: &Self::Window,
    ) -> Result<Self::Control, DesktopError> {
        match (self, window) {
            (Either::Left(p), Either::Left(w)) => Ok(Either::Left(p.control(target, w).await?)),
            (Either::Right(p), Either::Right(w)) => Ok(Either::Right(p.control(target, w).await?)),
            _ => Err(mismatch()),
        }
    }

    fn resolve(&self, app: &str) -> Result<Vec<String>, DesktopError> {
        match self {
            Either::Left(p) => p.resolve(app),
            Either::Right(p) => p.resolve(app),
        }
    }

    fn spawn(&mut self, argv: &[String]) -> Result<Spawned, DesktopError> {
        match self {
            Either::Left(p) => p.spawn(argv),
            Either::Right(p) => p.spawn(argv),
        }
    }
}
