//! Bad input for the desktop backend, each case in a private desktop session: an app that
//! hangs during a capture, an app that exits between a snapshot and an action, a window that
//! closes while it is captured, no accessibility bus, and apps that expose no accessibility.
//! Each gets a clear error (or a partial capture that says what is missing) within a bound,
//! and the next call works.
#![cfg(target_os = "linux")]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use axsnap_atspi::object::ObjectRef;
use axsnap_atspi::{act, AtspiBackend, AtspiError, Bus};
use axsnap_core::backend::{Backend, Capture, ElementAction, Refusal};
use axsnap_core::session::Response;
use axsnap_core::TargetId;
use axsnap_desktop::DesktopError;
use common::desktop::{self, App, Desktop};
use common::driver::{Driver, APP_WAIT};

const FACTORY: &str = "gtk3-widget-factory";
/// The deadline every capture here is given.
const DEADLINE: Duration = Duration::from_secs(10);

/// Nodes of `role` named `name` in the whole snapshot of `r` (whatever answer was sent).
fn count(r: &Response, role: &str, name: &str) -> usize {
    let tree = &r.snapshot.tree;
    tree.preorder().map(|(id, _)| tree.node(id)).filter(|n| n.role.as_str() == role && n.name == name).count()
}

/// Nodes of `role` named `name` in a raw capture.
fn raw_count(c: &Capture, role: &str, name: &str) -> usize {
    c.tree
        .preorder()
        .map(|(id, _)| c.tree.node(id))
        .filter(|n| n.role.as_str() == role && n.name == name)
        .count()
}

/// Whether the backend says `e` means the element is gone (the agent then calls its ref stale).
fn gone(e: &DesktopError) -> bool {
    AtspiBackend::refusal(e) == Some(Refusal::Gone)
}

/// A backend on `desktop`'s accessibility bus.
async fn backend(desktop: &Desktop) -> AtspiBackend {
    let bus = Bus::at(&desktop.a11y_address()).await.expect("the desktop's AT-SPI bus");
    axsnap_atspi::on(bus).await.expect("a backend on the bus")
}

/// Polls until `app` shows a window on the bus.
async fn wait_window(backend: &mut AtspiBackend, app: &str) -> TargetId {
    let start = Instant::now();
    loop {
        match backend.window(app, None).await {
            Ok(t) => return t,
            Err(e) if start.elapsed() > APP_WAIT => panic!("{app} never showed a window: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// The apps `windows()` lists.
async fn listed(backend: &mut AtspiBackend) -> Vec<String> {
    let t = Instant::now();
    let windows = backend.windows().await.expect("listing windows");
    assert!(t.elapsed() < Duration::from_secs(5), "listing windows took {:?}", t.elapsed());
    windows.into_iter().map(|w| w.app).collect()
}

/// Ends `app` (SIGTERM to its group, waiting for it to exit) without blocking the runtime.
fn kill(app: &mut App) {
    tokio::task::block_in_place(|| app.kill());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_that_hangs_gives_a_bounded_answer_and_works_again_once_it_goes_on() {
    let desktop = Desktop::start().expect("a desktop session");
    let app = desktop.spawn(FACTORY, &[]).expect("gtk3-widget-factory");
    let mut d = Driver::start(&desktop, FACTORY).await;
    let first = d.snapshot().await;
    assert_eq!(count(&first, "checkbox", "checkbutton"), 6, "{}", first.text);
    let cb = d.find(&first, "checkbox", "checkbutton");
    let native = d.session.resolve(&d.target, cb.parse().unwrap()).unwrap().clone();

    app.stop().expect("SIGSTOP");
    // A capture: an error saying the app hangs, or a partial capture saying what is missing.
    let t = Instant::now();
    let r = d.backend.capture(&d.target, DEADLINE).await;
    let took = t.elapsed();
    println!("capture of a hung app: {took:?}: {:?}", r.as_ref().map(|c| &c.partial));
    assert!(took < DEADLINE, "the capture of a hung app took {took:?}");
    match r {
        Err(e @ DesktopError::Timeout { .. }) => {
            assert!(e.to_string().contains("busy or hung"), "{e}");
            assert!(!gone(&e), "a hung app is not gone: {e}");
        }
        Ok(c) => {
            let why = c.partial.expect("a capture of a hung app that is not partial");
            assert!(why.contains("did not answer"), "{why}");
        }
        Err(e) => panic!("the capture of a hung app failed with something else than a timeout: {e:?}"),
    }
    // An action: the same.
    let t = Instant::now();
    let e = d.backend.act(&d.target, &native, &ElementAction::Check { on: true }).await.unwrap_err();
    println!("action on a hung app: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < DEADLINE, "an action on a hung app took {:?}", t.elapsed());
    assert!(matches!(e, DesktopError::Timeout { .. }), "{e:?}");
    // Listing windows does not wait for the hung app.
    let t = Instant::now();
    let apps = listed(&mut d.backend).await;
    println!("listing windows with a hung app: {:?}: {apps:?}", t.elapsed());
    assert!(!apps.iter().any(|a| a == FACTORY), "a window of a hung app is listed: {apps:?}");
    // The app itself is listed, as not answering, and asking for its window by name says so.
    let listing = d.backend.listing().await.expect("listing");
    assert_eq!(listing.not_answering, [FACTORY], "{listing:?}");
    let t = Instant::now();
    let e = d.backend.window(FACTORY, None).await.unwrap_err();
    println!("a hung app's window by name: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < DEADLINE, "{:?}", t.elapsed());
    assert!(matches!(e, DesktopError::NotAnswering(_)) && e.to_string().contains(FACTORY), "{e:?}");

    app.cont().expect("SIGCONT");
    let t = Instant::now();
    let again = d.snapshot().await;
    println!("capture after SIGCONT: {:?}", t.elapsed());
    assert!(again.partial.is_none(), "{:?}", again.partial);
    assert_eq!(count(&again, "checkbox", "checkbutton"), 6, "{}", again.text);
    // The action failed before it did anything: the box is as it was.
    let checked = |r: &Response| {
        let tree = &r.snapshot.tree;
        let node = tree
            .preorder()
            .map(|(id, _)| tree.node(id))
            .find(|n| n.ref_id.is_some_and(|x| x.to_string() == cb));
        node.expect("the check button's ref").states.contains(axsnap_core::State::Checked)
    };
    assert_eq!(checked(&again), checked(&first), "{}", again.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_that_exited_after_the_snapshot_says_its_element_is_gone() {
    let desktop = Desktop::start().expect("a desktop session");
    let mut app = desktop.spawn(FACTORY, &[]).expect("gtk3-widget-factory");
    let mut d = Driver::start(&desktop, FACTORY).await;
    let first = d.snapshot().await;
    let cb = d.find(&first, "checkbox", "checkbutton");
    let native = d.session.resolve(&d.target, cb.parse().unwrap()).unwrap().clone();

    kill(&mut app);
    let t = Instant::now();
    let e = d.backend.act(&d.target, &native, &ElementAction::Check { on: true }).await.unwrap_err();
    println!("action on an exited app: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(3), "the action took {:?}", t.elapsed());
    assert!(gone(&e), "{e:?}");
    assert!(e.to_string().contains("gone") && e.to_string().contains("new snapshot"), "{e}");

    let t = Instant::now();
    let e = d.backend.capture(&d.target, DEADLINE).await.unwrap_err();
    println!("capture of an exited app: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(3), "the capture took {:?}", t.elapsed());
    assert!(gone(&e), "{e:?}");
    assert!(e.to_string().contains(&format!("window {} is closed", d.target)), "{e}");

    // The next calls work, and no longer list it.
    let apps = listed(&mut d.backend).await;
    assert!(!apps.iter().any(|a| a == FACTORY), "{apps:?}");
    let e = d.backend.window(FACTORY, None).await.unwrap_err();
    assert!(matches!(e, DesktopError::NoSuchApp { .. }), "{e:?}");
    let _again = desktop.spawn(FACTORY, &[]).expect("gtk3-widget-factory");
    let target = wait_window(&mut d.backend, FACTORY).await;
    assert_ne!(target, d.target, "a new app's window is a new target");
    let c = d.backend.capture(&target, DEADLINE).await.expect("a capture of the new app");
    assert!(c.partial.is_none(), "{:?}", c.partial);
    assert_eq!(raw_count(&c, "checkbox", "checkbutton"), 6);
}

/// How a window is closed while it is captured.
#[derive(Clone, Copy, Debug)]
enum Close {
    /// Its Close button is clicked (the app quits with its last window) as the capture starts.
    Button,
    /// The app crashes (SIGKILL) this many eighths of a capture's time into the capture.
    Kill(u32),
    /// The app hangs (SIGSTOP), then crashes 300 ms into the capture: the calls it left
    /// unanswered must end then, not at their timeout.
    HangThenKill,
}

/// SIGKILL to `app`'s process group.
async fn crash(app: &App) {
    let pgid = format!("-{}", app.pid());
    let status = tokio::process::Command::new("kill").args(["-s", "KILL", "--", &pgid]).status().await;
    assert!(status.is_ok_and(|s| s.success()), "kill -s KILL -- {pgid}");
}

/// How a capture of a window closed during it ended.
struct Ended {
    way: Close,
    /// Whether it was a whole capture (not partial, no error).
    full: bool,
    /// Nodes it gave (0 for an error).
    nodes: usize,
    /// Nodes a whole capture of the window gives.
    whole: usize,
}

/// Closes a new window of the factory in each of `ways` while it is captured. Each capture
/// must end within the deadline with a whole tree, a partial one or "gone", and the calls
/// after it work (listing, capturing a new window).
async fn close_mid_capture(ways: &[Close]) -> Vec<Ended> {
    let desktop = Desktop::start().expect("a desktop session");
    let mut backend = backend(&desktop).await;
    let bus = backend.platform().bus().clone();
    let mut ended = Vec::new();
    for &way in ways {
        let mut app = desktop.spawn(FACTORY, &[]).expect("gtk3-widget-factory");
        let target = wait_window(&mut backend, FACTORY).await;
        // A whole capture: the window's Close button; a second one: how long one takes.
        let whole = backend.capture(&target, DEADLINE).await.expect("a capture");
        assert!(whole.partial.is_none(), "{:?}", whole.partial);
        let close = whole
            .tree
            .preorder()
            .map(|(id, _)| whole.tree.node(id))
            .find(|n| n.role.as_str() == "button" && n.name == "Close")
            .map(|n| ObjectRef::from_native(&n.native))
            .expect("the window's Close button");
        let t = Instant::now();
        let again = backend.capture(&target, DEADLINE).await.expect("a capture");
        let one = t.elapsed();
        assert_eq!(again.tree.len(), whole.tree.len(), "two captures of the same window differ");

        let delay = match way {
            Close::Button => Duration::ZERO,
            Close::Kill(eighths) => one * eighths / 8,
            Close::HangThenKill => Duration::from_millis(300),
        };
        if let Close::HangThenKill = way {
            app.stop().expect("SIGSTOP");
        }
        let closing = async {
            tokio::time::sleep(delay).await;
            match way {
                // The app may quit before it answers: any outcome but a hang will do.
                Close::Button => {
                    let r = act::act(&bus, &close, &ElementAction::Click { count: 1 }).await;
                    println!("close button: {r:?}");
                }
                Close::Kill(_) | Close::HangThenKill => crash(&app).await,
            }
        };
        let t = Instant::now();
        let (r, ()) = tokio::join!(backend.capture(&target, DEADLINE), closing);
        let took = t.elapsed();
        // How it ended: a full capture, a partial one, or "gone"; nothing else.
        let gone = matches!(&r, Err(e) if gone(e));
        let (how, nodes) = match &r {
            Ok(c) if c.partial.is_none() => ("full".to_string(), c.tree.len()),
            Ok(c) => (format!("partial ({})", c.partial.clone().unwrap_or_default()), c.tree.len()),
            Err(e) if gone => (format!("gone ({e})"), 0),
            Err(e) => panic!("{way:?}: the capture failed with something else than gone: {e:?}"),
        };
        let whole = whole.tree.len();
        println!("{way:?}: closed {delay:?} into a capture that takes {one:?}: {how}, {nodes} of {whole} nodes, in {took:?}");
        assert!(took < DEADLINE, "{way:?}: the capture took {took:?}");
        if let Close::HangThenKill = way {
            assert!(gone && took < axsnap_atspi::bus::CALL_TIMEOUT, "{way:?}: {how} in {took:?}");
        }
        ended.push(Ended { way, full: matches!(&r, Ok(c) if c.partial.is_none()), nodes, whole });
        // The app is gone (the Close button quits it); the next listing does not show it.
        let start = Instant::now();
        while app.is_running() {
            assert!(start.elapsed() < Duration::from_secs(5), "{way:?}: the app did not quit");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        kill(&mut app);
        let apps = listed(&mut backend).await;
        assert!(!apps.iter().any(|a| a == FACTORY), "{way:?}: {apps:?}");
    }
    // The next call, on a new window, works.
    let _app = desktop.spawn(FACTORY, &[]).expect("gtk3-widget-factory");
    let target = wait_window(&mut backend, FACTORY).await;
    let c = backend.capture(&target, DEADLINE).await.expect("a capture of the new app");
    assert!(c.partial.is_none(), "{:?}", c.partial);
    assert_eq!(raw_count(&c, "checkbox", "checkbutton"), 6);
    ended
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_closed_mid_capture_ends_the_capture_promptly() {
    let ways =
        [Close::Button, Close::Kill(1), Close::Kill(3), Close::Kill(5), Close::Kill(7), Close::HangThenKill];
    close_mid_capture(&ways).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_cut_short_by_a_crash_does_not_say_it_is_whole() {
    // Crashes early in the walk: the root is read, the rest is not. (A crash after the walk
    // ended gives a whole capture, rightly: this test cannot fail by mistimed kills.)
    let ended = close_mid_capture(&[Close::Kill(1), Close::Kill(2), Close::Kill(3)]).await;
    for e in ended {
        assert!(
            !e.full || e.nodes == e.whole,
            "{:?}: a capture of {} of {} nodes says it is whole",
            e.way,
            e.nodes,
            e.whole
        );
    }
}

/// An error about a missing bus says what to do.
fn says_what_to_do(e: &dyn std::error::Error) {
    assert!(e.to_string().contains("scripts/desktop-session"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_accessibility_bus_says_so_and_what_to_do() {
    // No socket at all.
    let t = Instant::now();
    let e = Bus::at("unix:path=/nonexistent/bus").await.unwrap_err();
    println!("no socket: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    assert!(matches!(e, AtspiError::NoAccessibilityBus(_)), "{e:?}");
    assert!(e.to_string().contains("/nonexistent/bus"), "{e}");
    says_what_to_do(&e);

    // A socket nobody answers on (connections wait in its backlog, never accepted).
    let dir = std::env::temp_dir().join(format!("axsnap-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mute");
    let _ = std::fs::remove_file(&path);
    let _mute = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let t = Instant::now();
    let e = Bus::at(&format!("unix:path={}", path.display())).await.unwrap_err();
    println!("a mute socket: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(8), "{:?}", t.elapsed());
    assert!(matches!(e, AtspiError::NoAccessibilityBus(_)), "{e:?}");
    assert!(e.to_string().contains("did not answer"), "{e}");
    says_what_to_do(&e);
    let _ = std::fs::remove_dir_all(&dir);

    // The next call works.
    let desktop = Desktop::start().expect("a desktop session");
    let mut b = backend(&desktop).await;
    assert!(listed(&mut b).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bus_without_a_registry_says_it_is_no_accessibility_bus() {
    // A D-Bus bus, but not the accessibility bus: the desktop's session bus.
    let desktop = Desktop::start().expect("a desktop session");
    let bus = Bus::at(desktop.session_bus()).await.expect("a connection to the session bus");
    let t = Instant::now();
    let e = axsnap_atspi::on(bus).await.unwrap_err();
    println!("the session bus as the accessibility bus: {:?}: {e}", t.elapsed());
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(!gone(&e), "no registry is not an element gone: {e:?}");
    assert!(matches!(e, DesktopError::Unavailable(_)), "{e:?}");
    says_what_to_do(&e);
}

/// Waits until an X window of class `class` is mapped on `desktop`'s display.
fn wait_x_window(desktop: &Desktop, class: &str) {
    let mut cmd: Command = desktop.command("xdotool");
    cmd.args(["search", "--sync", "--onlyvisible", "--classname", class]);
    let out =
        desktop::output_within(&mut cmd, APP_WAIT).unwrap_or_else(|e| panic!("{class} has no window: {e}"));
    assert!(out.status.success(), "xdotool search {class}: {}", String::from_utf8_lossy(&out.stderr));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_app_without_accessibility_is_no_such_app_naming_those_there() {
    let desktop = Desktop::start().expect("a desktop session");
    let _demo = desktop.spawn("gtk3-demo", &[]).expect("gtk3-demo");
    let mut mute = desktop.command(FACTORY);
    mute.env("NO_AT_BRIDGE", "1").env("GTK_A11Y", "none");
    let _mute = desktop.spawn_command(mute).expect("gtk3-widget-factory without accessibility");
    // An X app with no toolkit accessibility at all (x11-utils).
    let _xmessage = desktop
        .spawn("xmessage", &["no accessibility here"])
        .expect("xmessage (Debian package x11-utils) to run an X app without accessibility");
    let mut b = backend(&desktop).await;
    wait_window(&mut b, "gtk3-demo").await;
    // Both are up on the display (GTK starts its bridge before it maps a window).
    wait_x_window(&desktop, FACTORY);
    wait_x_window(&desktop, "xmessage");

    for name in [FACTORY, "xmessage"] {
        let t = Instant::now();
        let e = b.window(name, None).await.unwrap_err();
        println!("{name}: {:?}: {e}", t.elapsed());
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        match &e {
            DesktopError::NoSuchApp { name: asked, known } => {
                assert_eq!(asked, name);
                assert_eq!(known, "\"gtk3-demo\"", "{e}");
            }
            _ => panic!("{name}: not NoSuchApp: {e:?}"),
        }
        assert!(e.to_string().contains("exposes accessibility"), "{e}");
    }
    // The next call works.
    let target = b.window("gtk3-demo", None).await.expect("gtk3-demo's window");
    let c = b.capture(&target, DEADLINE).await.expect("a capture of gtk3-demo");
    assert!(c.partial.is_none(), "{:?}", c.partial);
    assert!(c.tree.len() > 20, "{} nodes", c.tree.len());
}
