//! `axsnap desktop ...`, the real binary: without a session bus it says what to do; in a
//! private desktop session (the AT-SPI backend's test support) it lists the apps there, prints
//! a window's snapshot, and names the apps there when asked for one that is not.
#![cfg(target_os = "linux")]

#[path = "../../axsnap-atspi/tests/common/mod.rs"]
mod common;

use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::desktop::{self, Desktop};
use common::driver::APP_WAIT;

const AXSNAP: &str = env!("CARGO_BIN_EXE_axsnap");
const FACTORY: &str = "gtk3-widget-factory";
/// The most one run may take.
const RUN_LIMIT: Duration = Duration::from_secs(20);

/// Runs `cmd` with `args`; its output and how long it took.
fn run(mut cmd: Command, args: &[&str]) -> (Output, Duration) {
    cmd.args(args);
    let t = Instant::now();
    let out = desktop::output_within(&mut cmd, RUN_LIMIT).unwrap_or_else(|e| panic!("axsnap {args:?}: {e}"));
    let took = t.elapsed();
    println!("axsnap {}: {took:?}, {}", args.join(" "), out.status);
    (out, took)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Fails (exit code not 0) within `limit`, saying in its error what to do about the bus.
fn fails_saying_what_to_do(cmd: Command, limit: Duration) -> String {
    let (out, took) = run(cmd, &["desktop", "apps"]);
    let err = text(&out.stderr);
    println!("{err}");
    assert!(!out.status.success(), "it succeeded: {}", text(&out.stdout));
    assert!(took < limit, "it took {took:?}");
    assert!(err.contains("scripts/desktop-session"), "{err}");
    err
}

#[test]
fn without_a_session_bus_it_says_to_start_a_desktop_session() {
    let mut cmd = Command::new(AXSNAP);
    cmd.env_remove("DBUS_SESSION_BUS_ADDRESS").env_remove("AT_SPI_BUS_ADDRESS");
    let err = fails_saying_what_to_do(cmd, Duration::from_secs(5));
    assert!(err.contains("DBUS_SESSION_BUS_ADDRESS is not set"), "{err}");

    // A session bus address where nothing listens.
    let mut cmd = Command::new(AXSNAP);
    cmd.env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus").env_remove("AT_SPI_BUS_ADDRESS");
    let err = fails_saying_what_to_do(cmd, Duration::from_secs(10));
    assert!(err.contains("no D-Bus session bus"), "{err}");
}

#[test]
fn in_a_desktop_session_it_lists_apps_snapshots_windows_and_names_the_apps_there() {
    let desktop = Desktop::start().expect("a desktop session");
    let app = desktop.spawn(FACTORY, &[]).expect("gtk3-widget-factory");

    // `apps`: the factory with its window, once it is up.
    let start = Instant::now();
    let listing = loop {
        let (out, took) = run(desktop.command(AXSNAP), &["desktop", "apps"]);
        let listing = text(&out.stdout);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(took < Duration::from_secs(10), "`desktop apps` took {took:?}");
        let mut lines = listing.lines().skip_while(|l| *l != FACTORY);
        if lines.next().is_some() && lines.next().is_some_and(|w| w.starts_with("  frame ")) {
            break listing;
        }
        assert!(start.elapsed() < APP_WAIT, "{FACTORY} never listed with a window:\n{listing}");
        std::thread::sleep(Duration::from_millis(100));
    };
    println!("{listing}");

    // `snapshot --app`: the window's check buttons.
    let (out, took) = run(desktop.command(AXSNAP), &["desktop", "snapshot", "--app", FACTORY]);
    let snapshot = text(&out.stdout);
    println!("{snapshot}");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(took < Duration::from_secs(15), "`desktop snapshot` took {took:?}");
    assert_eq!(snapshot.matches("checkbox \"checkbutton\"").count(), 6, "{snapshot}");
    assert!(snapshot.starts_with(&format!("# {FACTORY}")), "{snapshot}");

    // `--app nosuch`: an error naming the apps there.
    let (out, took) = run(desktop.command(AXSNAP), &["desktop", "snapshot", "--app", "nosuch"]);
    let err = text(&out.stderr);
    println!("{err}");
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(took < Duration::from_secs(10), "it took {took:?}");
    assert!(err.contains("no app named \"nosuch\""), "{err}");
    assert!(err.contains(&format!("apps there: \"{FACTORY}\"")), "{err}");

    // A hung app is listed as not answering, and asking for it says it does not answer.
    app.stop().expect("SIGSTOP");
    let (out, took) = run(desktop.command(AXSNAP), &["desktop", "apps"]);
    let listing = text(&out.stdout);
    println!("{listing}");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(took < Duration::from_secs(10), "`desktop apps` with a hung app took {took:?}");
    assert!(listing.contains(&format!("{FACTORY}\n  (not answering: busy or hung)\n")), "{listing}");
    let (out, took) = run(desktop.command(AXSNAP), &["desktop", "snapshot", "--app", FACTORY]);
    let err = text(&out.stderr);
    println!("{err}");
    assert!(!out.status.success(), "{}", text(&out.stdout));
    assert!(took < Duration::from_secs(10), "it took {took:?}");
    assert!(err.contains(&format!("{FACTORY} did not answer when its windows were listed")), "{err}");
    app.cont().expect("SIGCONT");
}

#[test]
fn a_recording_is_listed_snapshot_and_searched_with_no_desktop_at_all() {
    let recording = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/desktop/widget-factory.json");
    let bare = || {
        let mut cmd = Command::new(AXSNAP);
        cmd.env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus").env_remove("DISPLAY");
        cmd
    };
    let (out, _) = run(bare(), &["desktop", "apps", "--recording", recording]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "gtk3-widget-factory\n  frame \"\" [active]\n");
    let (out, _) = run(
        bare(),
        &["desktop", "snapshot", "--app", FACTORY, "--recording", recording, "--max-tokens", "0"],
    );
    let shot = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        shot.starts_with("# gtk3-widget-factory\nwindow [e1]\n") && shot.contains("checkbox \"checkbutton\""),
        "{shot}"
    );
    let (out, _) =
        run(bare(), &["desktop", "find", "--app", FACTORY, "--recording", recording, "Menu button"]);
    assert!(text(&out.stdout).starts_with("e5 button \"Menu\""), "{}", text(&out.stdout));
    // An app the recording does not have is named, with those it has.
    let (out, _) = run(bare(), &["desktop", "snapshot", "--app", "gedit", "--recording", recording]);
    assert!(
        !out.status.success() && text(&out.stderr).contains("\"gtk3-widget-factory\""),
        "{}",
        text(&out.stderr)
    );
}
