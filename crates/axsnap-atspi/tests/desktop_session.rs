//! The desktop session fixture (`common::desktop`) on its own: a GTK app started in a private
//! session shows up on that session's AT-SPI registry, apps can be made to hang and go on, and
//! nothing the session started outlives it. The tests run in parallel, each with its own
//! session, which is also how the backend's tests use it.
#![cfg(target_os = "linux")]

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use common::desktop::{self, App, Desktop};

/// How long an app may take to show up on the registry.
const APP_TIMEOUT: Duration = Duration::from_secs(15);

fn start() -> Desktop {
    Desktop::start().unwrap_or_else(|e| panic!("{e}"))
}

/// The registry's children, as `(bus name, object path)`, from `dbus-send --print-reply`.
fn registry_children(a11y: &str) -> Result<Vec<(String, String)>, String> {
    let output = desktop::output_within(
        Command::new("dbus-send").args([
            &format!("--bus={a11y}"),
            "--print-reply",
            "--reply-timeout=2000",
            "--dest=org.a11y.atspi.Registry",
            "/org/a11y/atspi/accessible/root",
            "org.a11y.atspi.Accessible.GetChildren",
        ]),
        Duration::from_secs(3),
    )?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).into_owned());
    }
    // array [ struct { string ":1.4" object path "/org/a11y/atspi/accessible/root" } ]
    let reply = String::from_utf8_lossy(&output.stdout).into_owned();
    let quoted = |line: &str| line.split('"').nth(1).map(str::to_string);
    let mut children = Vec::new();
    let mut bus_name = None;
    for line in reply.lines().map(str::trim) {
        if line.starts_with("string ") {
            bus_name = quoted(line);
        } else if line.starts_with("object path ") {
            let path = quoted(line).ok_or_else(|| format!("unreadable reply: {reply}"))?;
            children.push((bus_name.take().ok_or_else(|| format!("unreadable reply: {reply}"))?, path));
        }
    }
    Ok(children)
}

/// Polls the registry until it has an application, up to `APP_TIMEOUT`.
fn wait_for_app(desktop: &Desktop, app: &App) -> Vec<(String, String)> {
    let started = Instant::now();
    loop {
        let last = match registry_children(&desktop.a11y_address()) {
            Ok(children) if !children.is_empty() => return children,
            Ok(_) => "no children".to_string(),
            Err(e) => e,
        };
        assert!(app.is_running(), "{} exited; its log:\n{}", app.name(), app.log());
        assert!(
            started.elapsed() < APP_TIMEOUT,
            "{} not on the AT-SPI registry after {APP_TIMEOUT:?} (last answer: {last}); its log:\n{}",
            app.name(),
            app.log()
        );
        thread::sleep(Duration::from_millis(50));
    }
}

/// An accessible's Name property, with `timeout_ms` for the app to answer.
fn accessible_name(a11y: &str, bus_name: &str, path: &str, timeout_ms: u32) -> Result<String, String> {
    desktop::dbus_send(
        a11y,
        &[
            &format!("--dest={bus_name}"),
            &format!("--reply-timeout={timeout_ms}"),
            path,
            "org.freedesktop.DBus.Properties.Get",
            "string:org.a11y.atspi.Accessible",
            "string:Name",
        ],
    )
    .map(|reply| reply.trim().trim_start_matches("variant").trim().to_string())
}

#[test]
fn a_gtk_app_shows_up_on_the_session_registry_and_nothing_outlives_the_session() {
    let started = Instant::now();
    let desktop = start();
    let session_ms = started.elapsed().as_millis();
    let a11y = desktop.a11y_address();
    assert!(a11y.starts_with("unix:"), "{a11y}");
    // The AT-SPI bus's socket is in the session's own directory, not shared with another session.
    assert!(a11y.contains(&desktop.dir().to_string_lossy().into_owned()), "{a11y}");
    assert_eq!(registry_children(&a11y), Ok(vec![]), "a new session's registry has no app");

    let app = desktop.spawn("gtk3-widget-factory", &[]).unwrap();
    let children = wait_for_app(&desktop, &app);
    eprintln!(
        "session up in {session_ms} ms; app on the registry {} ms later",
        started.elapsed().as_millis()
    );
    assert_eq!(children.len(), 1, "one app, ours: {children:?}");
    let (bus_name, path) = &children[0];
    assert_eq!(accessible_name(&a11y, bus_name, path, 2000), Ok("gtk3-widget-factory".to_string()));

    let pids = desktop.pids();
    let names: Vec<&str> = pids.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["Xvfb", "dbus-daemon", "at-spi-bus-launcher"]);
    assert!(pids.iter().all(|&(_, pid)| desktop::process_alive(pid)), "{pids:?}");
    let pgid = desktop.pgid();
    let members = desktop::group_members(pgid);
    // Xvfb, the session bus, the launcher, the AT-SPI bus and its registry.
    assert!(members.len() >= 5, "{members:?}");
    let app_pid = app.pid();
    let dir: PathBuf = desktop.dir().to_path_buf();

    drop(app);
    assert!(desktop::group_members(app_pid).is_empty(), "{:?}", desktop::group_members(app_pid));
    drop(desktop);
    for (name, pid) in pids {
        assert!(!desktop::process_alive(pid), "{name} ({pid}) still runs");
    }
    assert!(desktop::group_members(pgid).is_empty(), "left running: {:?}", desktop::group_members(pgid));
    assert!(!dir.exists(), "{} was not removed", dir.display());
}

#[test]
fn a_stopped_app_does_not_answer_until_continued() {
    let desktop = start();
    let a11y = desktop.a11y_address();
    let app = desktop.spawn("gtk3-widget-factory", &[]).unwrap();
    let (bus_name, path) = wait_for_app(&desktop, &app).remove(0);
    assert!(accessible_name(&a11y, &bus_name, &path, 2000).is_ok());

    app.stop().unwrap();
    let err = accessible_name(&a11y, &bus_name, &path, 300).expect_err("a stopped app answered");
    assert!(err.contains("NoReply") || err.contains("did not receive a reply"), "{err}");
    assert!(app.is_running(), "a stopped app is still there");

    app.cont().unwrap();
    assert_eq!(accessible_name(&a11y, &bus_name, &path, 2000), Ok("gtk3-widget-factory".to_string()));

    // Killing a stopped app works too.
    app.stop().unwrap();
    let pid = app.pid();
    drop(app);
    assert!(!desktop::process_alive(pid));
}

#[test]
fn sessions_started_together_share_nothing() {
    let sessions: Vec<Desktop> = (0..3)
        .map(|_| thread::spawn(start))
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    for (i, a) in sessions.iter().enumerate() {
        for b in &sessions[i + 1..] {
            assert_ne!(a.display(), b.display());
            assert_ne!(a.session_bus(), b.session_bus());
            assert_ne!(a.a11y_address(), b.a11y_address());
            assert_ne!(a.pgid(), b.pgid());
        }
        let env = a.env();
        let get = |k: &str| env.iter().find(|(name, _)| name == k).map(|(_, v)| v.as_str());
        assert_eq!(get("DISPLAY"), Some(a.display()));
        assert_eq!(get("DBUS_SESSION_BUS_ADDRESS"), Some(a.session_bus()));
    }
    let groups: Vec<u32> = sessions.iter().map(Desktop::pgid).collect();
    drop(sessions);
    for pgid in groups {
        assert!(desktop::group_members(pgid).is_empty(), "{:?}", desktop::group_members(pgid));
    }
}
