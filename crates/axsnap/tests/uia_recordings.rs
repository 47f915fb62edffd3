//! `axsnap desktop ... --recording FILE` on Windows trees saved by Accessibility Insights
//! (fixtures/desktop/uia): the real binary lists each file as one app with one window, prints
//! its snapshot and finds in it, on any system, served by the Windows platform over a scripted
//! automation; `--record` saves the window as UI Automation read it, which replays the same. The snapshots' content is held line by line by
//! the goldens of `crates/axsnap-uia/tests/recordings.rs`.

use std::path::PathBuf;
use std::process::Command;

const AXSNAP: &str = env!("CARGO_BIN_EXE_axsnap");

fn fixture(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/desktop/uia").join(file);
    p.display().to_string()
}

/// Runs axsnap with `args`; its standard output, after checking it succeeded.
fn run(args: &[&str]) -> String {
    let out = Command::new(AXSNAP).args(args).output().expect("axsnap runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "axsnap {args:?}: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn each_recording_is_an_app_with_a_window_that_snapshots_and_finds() {
    let cases = [
        ("Taskbar.snapshot", "Taskbar", "button \"Start\""),
        ("A11yElementTest.hier", "A11yElementTest", "textbox \"Text Editor\""),
        ("A11yPatternTest.hier", "A11yPatternTest", "combobox \"Solution Configurations\""),
        ("WildlifeManagerTest.a11ytest", "WildlifeManagerTest", "window \"Wildlife Manager 2.0\""),
    ];
    for (file, app, line) in cases {
        let path = fixture(file);
        let apps = run(&["desktop", "apps", "--recording", &path]);
        assert!(apps.starts_with(&format!("{app}\n  window ")), "{file}: {apps}");
        let text = run(&["desktop", "snapshot", "--recording", &path, "--app", app]);
        assert!(text.lines().any(|l| l.trim_start().starts_with(line)), "{file}: no {line}:\n{text}");
    }
    let found = run(&[
        "desktop",
        "find",
        "--recording",
        &fixture("Taskbar.snapshot"),
        "--app",
        "Taskbar",
        "show desktop button",
    ]);
    assert!(found.lines().next().is_some_and(|l| l.contains("Show desktop")), "{found}");
}

#[test]
fn a_window_recorded_with_record_replays_the_same() {
    let dir = std::env::temp_dir().join(format!("axsnap-uia-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let saved = dir.join("wildlife.hier");
    let path = fixture("WildlifeManagerTest.a11ytest");
    let live = run(&[
        "desktop",
        "snapshot",
        "--recording",
        &path,
        "--app",
        "WildlifeManagerTest",
        "--record",
        &saved.display().to_string(),
    ]);
    let json = std::fs::read_to_string(&saved).expect("the recording was written");
    assert!(
        json.contains("\"Properties\"") && json.contains("Wildlife Manager 2.0"),
        "not element JSON: {}",
        &json[..json.len().min(300)]
    );
    let replayed =
        run(&["desktop", "snapshot", "--recording", &saved.display().to_string(), "--app", "wildlife"]);
    std::fs::remove_dir_all(&dir).ok();
    let body = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(body(&replayed), body(&live));
}

#[test]
fn a_file_that_is_neither_says_what_it_expected() {
    let dir = std::env::temp_dir().join(format!("axsnap-uia-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let bad = dir.join("broken.hier");
    std::fs::write(&bad, "{\"Properties\": ").expect("a file");
    let out = Command::new(AXSNAP)
        .args(["desktop", "apps", "--recording", &bad.display().to_string()])
        .output()
        .expect("axsnap runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    std::fs::remove_dir_all(&dir).ok();
    assert!(!out.status.success());
    assert!(err.contains("broken.hier") && err.contains("Accessibility Insights"), "{err}");
}
