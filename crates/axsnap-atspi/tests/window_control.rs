//! Window requests through the desktop backend on a private X display (`apps/login.py`'s
//! window). With no window manager, as Xvfb alone is, move, resize, focus and close are done
//! directly and minimize is refused, naming what is missing; once openbox runs on the display,
//! maximize, restore and minimize go through it. Each request answers with the window's frame
//! before and after, read back from the display, not assumed.
#![cfg(target_os = "linux")]

mod common;

use std::time::{Duration, Instant};

use axsnap_atspi::wm::Screen;
use axsnap_desktop::{DesktopError, WindowOp};
use common::desktop::Desktop;
use common::driver::Driver;

/// How long openbox may take to take over the display.
const WM_WAIT: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn window_requests_without_and_then_with_a_window_manager() {
    let desktop = Desktop::start().expect("a desktop session");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/apps/login.py");
    let app = desktop.spawn("/usr/bin/python3", &[script]).expect("the login form app");
    let mut d = Driver::start(&desktop, "login.py").await;
    d.backend.platform_mut().set_display(desktop.display());

    // No window manager: done by the backend itself.
    let c = d.backend.manage(&d.target, WindowOp::Move { x: 40, y: 30 }).await.expect("a move");
    assert_eq!(c.window_manager, None, "{c:?}");
    assert_eq!(c.title, "Log in");
    let after = c.after.expect("a frame after");
    assert_eq!((after.x, after.y), (40, 30), "{c:?}");
    assert!(!c.already && !c.closed, "{c:?}");
    let c =
        d.backend.manage(&d.target, WindowOp::Resize { width: 380, height: 240 }).await.expect("a resize");
    let after = c.after.expect("a frame after");
    assert_eq!((after.width, after.height, after.x, after.y), (380, 240, 40, 30), "{c:?}");
    let c = d.backend.manage(&d.target, WindowOp::Focus).await.expect("a focus");
    assert!(c.already || c.after.is_some_and(|f| f.active), "{c:?}");
    for op in [WindowOp::Minimize, WindowOp::Maximize] {
        let e = d.backend.manage(&d.target, op).await.expect_err("needs a window manager");
        assert!(matches!(e, DesktopError::NoWindowManager(_)), "{e:?}");
        assert!(e.to_string().contains("scripts/desktop-session starts openbox"), "{e}");
    }

    // openbox takes over the display and the window it already shows.
    let _wm = desktop.spawn("openbox", &["--sm-disable"]).expect("openbox (Debian: openbox)");
    let start = Instant::now();
    loop {
        let screen = Screen::open(Some(desktop.display())).expect("the display");
        if screen.window_manager().is_some() {
            break;
        }
        assert!(start.elapsed() < WM_WAIT, "openbox did not take the display in {WM_WAIT:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let c = d.backend.manage(&d.target, WindowOp::Maximize).await.expect("a maximize");
    assert!(c.window_manager.as_deref().is_some_and(|w| w.eq_ignore_ascii_case("openbox")), "{c:?}");
    let max = c.after.expect("a frame after");
    assert!(max.maximized && max.width > 380 && max.height > 240, "{c:?}");
    let c = d.backend.manage(&d.target, WindowOp::Maximize).await.expect("maximized already");
    assert!(c.already && c.after.is_none_or(|f| f == c.before), "{c:?}");
    let c = d.backend.manage(&d.target, WindowOp::Restore).await.expect("a restore");
    let restored = c.after.expect("a frame after");
    assert!(!restored.maximized && (restored.width, restored.height) == (380, 240), "{c:?}");
    let c = d.backend.manage(&d.target, WindowOp::Minimize).await.expect("a minimize");
    assert!(c.after.is_some_and(|f| f.minimized), "{c:?}");
    let c = d.backend.manage(&d.target, WindowOp::Focus).await.expect("a focus");
    assert!(c.after.is_some_and(|f| f.active && !f.minimized), "{c:?}");

    // Close: the window goes, and the app with it (login.py quits when its window is destroyed);
    // the backend forgets its last walk once a listing no longer shows it.
    d.snapshot().await;
    assert!(d.backend.platform().last_reused(&d.target).is_some(), "a walk is kept for the next capture");
    let c = d.backend.manage(&d.target, WindowOp::Close).await.expect("a close");
    assert!(c.closed && c.after.is_none(), "{c:?}");
    let start = Instant::now();
    while app.is_running() {
        assert!(start.elapsed() < Duration::from_secs(10), "login.py still runs after its window closed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let listed = d.backend.windows().await.expect("a listing");
    assert!(listed.iter().all(|w| w.id != d.target.0), "{listed:?}");
    assert_eq!(d.backend.platform().last_reused(&d.target), None, "the closed window's walk is kept");
    let e = d.backend.manage(&d.target, WindowOp::Focus).await.expect_err("the window is gone");
    assert!(matches!(e, DesktopError::Gone(_)), "{e:?}");
}
