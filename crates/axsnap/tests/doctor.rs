//! `axsnap doctor`, the real binary: with this machine's Chromium it is ready and says which
//! browser and how long a start took; with no browser, or a program that is not one, it exits
//! 1 saying what to do; its JSON form has the fields programs read; a desktop out of reach
//! warns (fails with --desktop), and in a private desktop session it lists the apps there.
//! And the first failing call points to it: `axsnap mcp` whose browser cannot start says so
//! with the hint.

// `run_command` here; `run` is the other suites'.
#[allow(dead_code)]
#[path = "support/bounded.rs"]
mod bounded;
#[cfg(target_os = "linux")]
#[path = "../../axsnap-atspi/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use bounded::Finished;
use serde_json::Value;

const AXSNAP: &str = env!("CARGO_BIN_EXE_axsnap");
/// Most seconds one doctor run may take (its trial launch has 60 s of its own).
const RUN_LIMIT: u64 = 90;

/// `axsnap doctor` with `args`, the browser left to be found as the server finds it (none of
/// the variables that would choose one or a pool).
fn doctor(args: &[&str], envs: &[(&str, &str)]) -> Finished {
    let mut cmd = Command::new(AXSNAP);
    cmd.arg("doctor").args(args);
    for v in ["AXSNAP_BROWSER", "AXSNAP_CDP_POOL", "AXSNAP_CDP_HEADER"] {
        cmd.env_remove(v);
    }
    cmd.envs(envs.iter().copied());
    finished(cmd, args)
}

fn finished(cmd: Command, args: &[&str]) -> Finished {
    let run = bounded::run_command(cmd, RUN_LIMIT).unwrap_or_else(|e| panic!("doctor {args:?}: {e}"));
    println!(
        "axsnap doctor {}: {:?}, ok={}\n{}{}",
        args.join(" "),
        run.elapsed,
        run.ok,
        run.stdout,
        run.stderr
    );
    run
}

/// The browser the server would launch here.
fn chromium() -> String {
    let path = axsnap_cdp::find_browser(None).expect("a Chromium for the doctor to find (/usr/bin/chromium)");
    path.display().to_string()
}

#[test]
fn with_this_machines_chromium_it_is_ready_and_says_which_and_how_fast() {
    let run = doctor(&[], &[]);
    assert!(run.ok, "it failed");
    let out = &run.stdout;
    let line = out.lines().find(|l| l.starts_with("ok    browser  ")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains(&format!("{}: ", chromium())), "no path: {line}");
    assert!(line.contains("Chromium ") || line.contains("Chrome "), "no version: {line}");
    let launch = out.lines().find(|l| l.starts_with("ok    launch   ")).unwrap_or_else(|| panic!("{out}"));
    assert!(launch.contains("started headless (Chrome/"), "{launch}");
    assert!(launch.contains("), opened about:blank, took a snapshot and closed in "), "{launch}");
    assert!(out.contains("running as root") || out.contains("not running as root"), "{out}");
    assert!(out.contains("ok    mcp      protocol revisions 2024-11-05, "), "{out}");
    assert!(out.lines().any(|l| l.starts_with("ready: the browser tools can run here")), "{out}");
}

#[test]
fn its_json_form_has_the_fields() {
    // A desktop out of reach, so the run is the same wherever the tests run.
    let run = doctor(&["--format", "json"], &[("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")]);
    assert!(run.ok, "it failed");
    let report: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e})"));
    assert_eq!(report["ok"], true);
    assert_eq!(report["axsnap"], env!("CARGO_PKG_VERSION"));
    let browser = &report["browser"];
    assert_eq!((&browser["status"], &browser["path"]), (&Value::from("ok"), &Value::from(chromium())));
    assert!(browser["version"].as_str().is_some_and(|v| v.contains("Chrom")), "{browser}");
    let launch = &report["launch"];
    assert_eq!(
        (&launch["status"], &launch["ok"], &launch["headless"]),
        (&"ok".into(), &true.into(), &true.into())
    );
    let seconds = launch["seconds"].as_f64().unwrap_or(-1.0);
    assert!(seconds > 0.0 && seconds < 60.0, "{launch}");
    assert!(
        launch["root"].is_boolean() && launch["product"].as_str().is_some_and(|p| p.contains('/')),
        "{launch}"
    );
    let desktop = &report["desktop"];
    assert_eq!((&desktop["reachable"], &desktop["required"]), (&false.into(), &false.into()), "{desktop}");
    let mcp = &report["mcp"];
    let versions: Vec<&str> =
        mcp["protocol_versions"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    assert!(versions.contains(&"2025-06-18") && versions.contains(&"2026-07-28"), "{mcp}");
    assert_eq!(mcp["transports"], serde_json::json!(["stdio", "streamable-http"]));
    for key in ["browser", "launch", "desktop", "mcp"] {
        assert!(report[key]["summary"].is_string() && report[key]["details"].is_array(), "{key}: {report}");
    }
}

#[test]
fn with_no_browser_at_the_path_it_fails_saying_what_to_do() {
    let run = doctor(&["--browser", "/nonexistent/chrome"], &[]);
    assert!(!run.ok, "it succeeded");
    let out = &run.stdout;
    assert!(
        out.contains("fail  browser  browser path /nonexistent/chrome is not an executable file"),
        "{out}"
    );
    assert!(
        out.contains("to fix: pass the path of a Chromium or Chrome executable with --browser PATH"),
        "{out}"
    );
    assert!(out.contains("`apt install chromium`"), "{out}");
    assert!(out.contains("fail  launch   not tried"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("not ready: ")), "{out}");
    assert!(run.stderr.contains("axsnap: doctor: "), "{}", run.stderr);
    // The JSON form says the same.
    let run = doctor(&["--browser", "/nonexistent/chrome", "--format", "json"], &[]);
    let report: Value = serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e})"));
    assert!(!run.ok && report["ok"] == false && report["browser"]["status"] == "fail", "{report}");
    assert!(report["browser"]["fix"].as_str().is_some_and(|f| f.contains("--browser PATH")), "{report}");
}

#[cfg(unix)]
#[test]
fn a_program_that_is_not_a_browser_fails_its_launch_saying_why_and_what_to_do() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("axsnap-doctor-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let fake = dir.join("chrome");
    std::fs::write(&fake, "#!/bin/sh\necho 'this is no browser' >&2\nexit 1\n").expect("the fake browser");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let fake_path = fake.display().to_string();
    let run = doctor(&[], &[("AXSNAP_BROWSER", &fake_path)]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!run.ok, "it succeeded");
    let out = &run.stdout;
    // Found (AXSNAP_BROWSER is honoured), its --version refused, its launch failed with the reason.
    assert!(out.contains(&format!("warn  browser  {fake_path}\n")), "{out}");
    assert!(out.contains("--version` failed (exit status: 1): this is no browser"), "{out}");
    let launch = out
        .lines()
        .find(|l| l.starts_with("fail  launch   failed to start: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(launch.contains(&format!("could not launch the browser {fake_path}")), "{launch}");
    assert!(out.contains(&format!("to fix: check that `{fake_path} --version` runs; ")), "{out}");
    assert!(out.contains("running as root") || out.contains("not run as root"), "{out}");
    assert!(run.elapsed < Duration::from_secs(30), "took {:?}", run.elapsed);
}

#[test]
fn a_browser_that_cannot_start_under_mcp_points_to_the_doctor() {
    let mut server = Command::new(AXSNAP)
        .args(["mcp", "--browser", "/nonexistent/chrome"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("axsnap mcp");
    let mut stdin = server.stdin.take().expect("piped stdin");
    let stdout = server.stdout.take().expect("piped stdout");
    let messages = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"doctor-test","version":"0"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"navigate","arguments":{"url":"http://127.0.0.1:9/"}}}"#,
    ];
    for m in messages {
        writeln!(stdin, "{m}").expect("a request");
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let Ok(v) = serde_json::from_str::<Value>(&line) else { continue };
            if v["id"] == 2 {
                let _ = tx.send(v);
                return;
            }
        }
    });
    let answer = rx.recv_timeout(Duration::from_secs(30));
    drop(stdin);
    let _ = server.kill();
    let _ = server.wait();
    let answer = answer.expect("an answer to navigate within 30 s");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("browser_unavailable: browser path /nonexistent/chrome"), "{text}");
    assert!(text.ends_with("; run `axsnap doctor` to check this machine"), "{text}");
}

#[cfg(target_os = "linux")]
mod desktop {
    use std::time::Instant;

    use super::common::desktop::Desktop;
    use super::common::driver::APP_WAIT;
    use super::*;

    const FACTORY: &str = "gtk3-widget-factory";

    #[test]
    fn a_desktop_out_of_reach_warns_and_fails_when_required() {
        let bad_bus = [("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/bus")];
        let run = doctor(&[], &bad_bus);
        assert!(run.ok, "a desktop out of reach failed the run");
        let out = &run.stdout;
        assert!(out.contains("warn  desktop  cannot reach the desktop: no D-Bus session bus"), "{out}");
        assert!(out.contains("DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus"), "{out}");
        assert!(out.contains("to fix: install at-spi2-core"), "{out}");
        assert!(out.contains("(see the warnings: desktop)"), "{out}");
        // --desktop: required, so a failure.
        let run = doctor(&["--desktop"], &bad_bus);
        assert!(!run.ok, "it succeeded");
        assert!(run.stdout.contains("fail  desktop  cannot reach the desktop"), "{}", run.stdout);
    }

    #[test]
    fn in_a_desktop_session_it_lists_the_apps_there() {
        let desktop = Desktop::start().expect("a desktop session");
        let _app = desktop.spawn(FACTORY, &[]).expect(FACTORY);
        let start = Instant::now();
        loop {
            let mut cmd = desktop.command(AXSNAP);
            cmd.args(["doctor", "--desktop", "--format", "json"]);
            let run = finished(cmd, &["--desktop", "--format", "json"]);
            assert!(run.ok, "it failed");
            let report: Value =
                serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e})"));
            let d = &report["desktop"];
            assert_eq!(
                (&d["status"], &d["reachable"], &d["required"]),
                (&"ok".into(), &true.into(), &true.into())
            );
            let apps: Vec<&str> =
                d["apps"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            if apps.contains(&FACTORY) {
                let summary = d["summary"].as_str().unwrap_or_default();
                assert!(
                    summary.starts_with("the accessibility bus answers; ") && summary.contains(FACTORY),
                    "{d}"
                );
                break;
            }
            assert!(start.elapsed() < APP_WAIT, "{FACTORY} never listed: {d}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}
