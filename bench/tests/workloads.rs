//! The workload harness end to end, as CI runs it: the TodoMVC workload (npm `todomvc`, its
//! vanilla JS app) through `axsnap mcp` (auto and full) and Playwright MCP over stdio and
//! agent-browser's CLI, one run each, the task checked on the list the app stored, the report
//! and charts written; desktop workloads through axsnap and linux-desktop-mcp (GTK 4's widget
//! factory, Chromium over AT-SPI, LibreOffice Calc and Writer); the real apps of issue 45
//! (Monaco, CodeMirror 6, Django's admin, phpMyAdmin) through axsnap and Playwright MCP.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `axsnap` binary of this build (`cargo test --workspace` builds it beside the tests).
fn axsnap_bin() -> PathBuf {
    if let Some(p) = std::env::var_os("AXSNAP_BIN") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent().and_then(Path::parent).map(|d| d.join("axsnap")).expect("target dir")
}

/// Runs the bench on `workload` once through `arms` (with `extra` options), checks that it
/// exited well and that every arm finished the task; the report's summaries and its folder.
fn bench(workload: &str, arms: &[&str], extra: &[&std::ffi::OsStr]) -> (Vec<serde_json::Value>, PathBuf) {
    // One workload at a time: each starts its own apps, browsers and desktop session, and five
    // of them at once on a busy 2-core machine left Chromium's AT-SPI tree behind the agent's
    // patience (a checkbox not shown after three looks, once in a suite run with two hogs).
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let axsnap = axsnap_bin();
    assert!(axsnap.is_file(), "no axsnap at {}: build it (cargo build -p axsnap)", axsnap.display());
    let out = tempdir();
    let run = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args([workload, "--runs", "1", "--arms", &arms.join(",")])
        .arg("--out")
        .arg(&out)
        .arg("--axsnap")
        .arg(&axsnap)
        .args(extra)
        .output()
        .expect("run the bench");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "the bench failed:\n{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let summaries = report["summaries"].as_array().unwrap().clone();
    for name in arms {
        let s = summaries.iter().find(|s| s["arm"] == *name).unwrap_or_else(|| panic!("{name}: {report}"));
        assert_eq!(s["succeeded"], 1, "{name} did not finish the task:\n{stderr}");
    }
    (summaries, out)
}

/// `path` under the repository, which must be there: `what` is installed by scripts/test.
fn installed(path: &str, what: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    assert!(p.exists(), "{what} is not installed at {}: scripts/test installs it", p.display());
    p
}

/// The summary of arm `name`.
fn arm<'a>(summaries: &'a [serde_json::Value], name: &str) -> &'a serde_json::Value {
    summaries.iter().find(|s| s["arm"] == name).unwrap_or_else(|| panic!("no {name} in {summaries:?}"))
}

#[test]
fn todomvc_workload_through_axsnap_and_its_web_peers() {
    installed("bench/node/node_modules/@playwright/mcp/cli.js", "Playwright MCP");
    let node_modules = installed("bench/node/node_modules", "the bench's npm packages");
    let agent_browser = axsnap_bench::agent_browser::default_binary();
    assert!(
        agent_browser.is_file(),
        "agent-browser is not installed at {}: scripts/test installs it",
        agent_browser.display()
    );
    let (summaries, out) = bench(
        "todomvc",
        &["axsnap-auto", "axsnap-full", "playwright-mcp", "agent-browser"],
        &["--node-modules".as_ref(), node_modules.as_os_str()],
    );
    // Sizes, not speeds: the same on every machine. Diffs after each action cost less than
    // the page again (axsnap-full), and far less than Playwright MCP's snapshot after each.
    let tokens = |name: &str| arm(&summaries, name)["tokens_cl100k"].as_f64().unwrap();
    let (auto, full, theirs) = (tokens("axsnap-auto"), tokens("axsnap-full"), tokens("playwright-mcp"));
    assert!(auto < full && auto * 3.0 < theirs, "auto {auto}, full {full}, Playwright MCP {theirs}");
    let ab = tokens("agent-browser");
    assert!(auto < ab, "auto {auto}, agent-browser {ab}");
    // Both client views are reported; none of these arms sends structuredContent (axsnap not
    // without --structured-content), so what Claude Code or Codex would give the model is the
    // text here.
    for name in ["axsnap-auto", "axsnap-full", "playwright-mcp", "agent-browser"] {
        let s = arm(&summaries, name);
        assert_eq!(s["structured"], false, "{name}: {s}");
        assert_eq!(s["structured_first_tokens_cl100k"], s["tokens_cl100k"], "{name}: {s}");
        assert_eq!(s["structured_first_step_tokens"], s["step_tokens"], "{name}: {s}");
    }
    let ab_transcript = std::fs::read_to_string(out.join("todomvc-agent-browser-0/transcript.md")).unwrap();
    assert!(ab_transcript.contains("\"treeChange\""), "its deltas were asked for and read: {ab_transcript}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## todomvc") && md.contains("click checkbox \"\" by \"Walk the dog\""), "{md}");
    assert!(md.contains("| text cl100k | text o200k | structured-first cl100k |"), "both views: {md}");
    assert!(md.contains("(tokens-per-step-todomvc.svg)"), "the charts are linked: {md}");
    let chart = std::fs::read_to_string(out.join("tokens-per-step-todomvc.svg")).unwrap();
    assert!(chart.contains("axsnap-auto") && chart.contains("playwright-mcp"), "{chart}");
    let transcript = out.join("todomvc-axsnap-auto-0/transcript.md");
    assert!(std::fs::read_to_string(transcript).unwrap().contains("## click"), "every answer is recorded");
}

#[test]
fn real_app_workloads_through_axsnap_and_playwright_mcp() {
    installed("bench/node/node_modules/@playwright/mcp/cli.js", "Playwright MCP");
    installed("tests/mcp/node/node_modules/monaco-editor/min/vs/loader.js", "Monaco");
    installed("tests/mcp/node/node_modules/codemirror", "CodeMirror");
    installed("target/bench-django-venv/bin/python", "Django (scripts/setup.sh: ensure_bench_apps django)");
    let node_modules = installed("bench/node/node_modules", "the bench's npm packages");
    // Each checked on the app (what Save posted, the Django app's database) by `bench`.
    for workload in ["monaco", "codemirror", "django-admin"] {
        let (summaries, _) = bench(
            workload,
            &["axsnap-auto", "playwright-mcp"],
            &["--node-modules".as_ref(), node_modules.as_os_str()],
        );
        let tokens = |name: &str| arm(&summaries, name)["tokens_cl100k"].as_f64().unwrap();
        let (ours, theirs) = (tokens("axsnap-auto"), tokens("playwright-mcp"));
        assert!(ours * 2.0 < theirs, "{workload}: axsnap {ours}, Playwright MCP {theirs}");
    }
}

/// phpMyAdmin (Debian's package, over a MariaDB server and PHP's built-in server the bench starts
/// for the run): log in, browse, open a row's edit form, change its text, save, run an UPDATE
/// from the SQL box; checked on the database by `bench`.
#[test]
fn phpmyadmin_workload_through_axsnap_and_playwright_mcp() {
    installed("bench/node/node_modules/@playwright/mcp/cli.js", "Playwright MCP");
    assert!(
        Path::new("/usr/share/phpmyadmin/index.php").is_file()
            || std::env::var_os(axsnap_bench::apps::PHPMYADMIN_ENV).is_some(),
        "phpMyAdmin is not installed: scripts/test installs it (scripts/setup.sh: ensure_bench_apps phpmyadmin)"
    );
    let node_modules = installed("bench/node/node_modules", "the bench's npm packages");
    let (summaries, out) = bench(
        "phpmyadmin",
        &["axsnap-auto", "playwright-mcp"],
        &["--node-modules".as_ref(), node_modules.as_os_str()],
    );
    let tokens = |name: &str| arm(&summaries, name)["tokens_cl100k"].as_f64().unwrap();
    let (ours, theirs) = (tokens("axsnap-auto"), tokens("playwright-mcp"));
    assert!(ours * 2.0 < theirs, "axsnap {ours}, Playwright MCP {theirs}");
    // The edit form axsnap opened is the one of the row that says Lantern: its text is the one replaced.
    let transcript = std::fs::read_to_string(out.join("phpmyadmin-axsnap-auto-0/transcript.md")).unwrap();
    assert!(
        transcript.contains(
            "value \"Paraffin, the glass is smoked.\" -> \"Paraffin, new glass fitted in December.\""
        ),
        "{transcript}"
    );
}

#[test]
fn desktop_workload_through_axsnap_and_linux_desktop_mcp() {
    installed("target/bench-desktop-venv/bin/linux-desktop-mcp", "linux-desktop-mcp");
    let venv = installed("target/bench-desktop-venv", "linux-desktop-mcp's venv");
    // Each run starts a desktop session of its own (scripts/desktop-session), whatever this
    // process's DISPLAY.
    let (summaries, _) = bench(
        "gtk4-widget-factory",
        &["axsnap-auto", "axsnap-full", "linux-desktop-mcp"],
        &["--desktop-venv".as_ref(), venv.as_os_str()],
    );
    // A tab switched is a few lines of diff; the window again is thousands of tokens.
    let steps = arm(&summaries, "axsnap-auto")["step_tokens"].as_array().unwrap().clone();
    let full = arm(&summaries, "axsnap-full")["step_tokens"].as_array().unwrap().clone();
    for (a, f) in steps.iter().zip(&full).skip(1) {
        assert!(a.as_f64().unwrap() * 10.0 < f.as_f64().unwrap(), "auto {steps:?}, full {full:?}");
    }
    let server = arm(&summaries, "linux-desktop-mcp")["server"].as_str().unwrap();
    assert!(server.starts_with("linux-desktop-mcp=="), "{server}");
}

/// Chromium as a desktop app (the Electron analogue) over AT-SPI, on the bench's notes page:
/// the task done through axsnap, checked on what the page stored, and each text said once
/// (Chromium gives a text run both as its parent's text and as a child of its own).
#[test]
fn chromium_over_atspi_workload_through_axsnap() {
    let (_, out) = bench("chromium-atspi-notes", &["axsnap-auto"], &[]);
    let transcript =
        std::fs::read_to_string(out.join("chromium-atspi-notes-axsnap-auto-0/transcript.md")).unwrap();
    assert!(transcript.contains("checkbox \"Done: Buy milk\""), "{transcript}");
    assert!(
        !transcript.contains("Buy milkBuy milk") && !transcript.contains("New note New note"),
        "{transcript}"
    );
}

/// LibreOffice Calc over AT-SPI: the sheet's cells on screen are read through its Table
/// interface (not the first 500 of the 2,147,483,647 children it reports), the Name Box takes
/// the agent to B3 and back to A1, a number typed there and a formula under it are read back
/// (the formula as its result), the cell Calc
/// re-creates on every change keeps its ref, and the menu bar it exposes twice is shown once.
#[test]
fn calc_workload_through_axsnap() {
    let (_, out) = bench("calc", &["axsnap-auto"], &[]);
    let transcript = std::fs::read_to_string(out.join("calc-axsnap-auto-0/transcript.md")).unwrap();
    assert!(transcript.contains("cells A1 to "), "{transcript}");
    assert!(!transcript.contains("children not read"), "{transcript}");
    // The cell the Name Box went to, with the ref it was shown with, then its result under
    // that same ref.
    let shown = transcript
        .lines()
        .find_map(|l| l.trim().strip_prefix("cell \"B3\" [").and_then(|r| r.split(']').next()))
        .unwrap_or_else(|| panic!("B3 never shown:\n{transcript}"));
    assert!(transcript.contains(&format!("~ {shown} cell \"B3\": value none -> \"12\"")), "{transcript}");
    // The formula under it, read back as its result; the label typed after going back to A1.
    assert!(transcript.contains("cell \"B4\": value none -> \"20\""), "{transcript}");
    assert!(transcript.contains("cell \"A1\"") && transcript.contains("\"Total\""), "{transcript}");
    // The menu bar once (Calc shows GTK's and VCL's, item for item), and no ref of what the
    // steps left alone (the toolbars, the sidebar, the other cells) handed out again.
    assert_eq!(transcript.matches("menubar [").count(), 1, "{transcript}");
    assert!(!transcript.contains(" is now e"), "{transcript}");
}

/// LibreOffice Writer over AT-SPI: typing a paragraph is a one-line diff of exactly that
/// text, Bold the button's pressed state, a paragraph style applied through the style box is the paragraph's role changing,
/// the menu bar it exposes twice is shown once, and no ref of what the steps left alone is
/// handed out again.
#[test]
fn writer_workload_through_axsnap() {
    let (_, out) = bench("writer", &["axsnap-auto"], &[]);
    let transcript = std::fs::read_to_string(out.join("writer-axsnap-auto-0/transcript.md")).unwrap();
    let typed = transcript
        .split("## type ")
        .nth(1)
        .and_then(|s| s.split("```text\n").nth(1))
        .and_then(|s| s.split("```").next())
        .unwrap_or_else(|| panic!("no typing step:\n{transcript}"));
    let changes: Vec<&str> = typed.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).collect();
    assert_eq!(changes.len(), 1, "{typed}");
    assert!(changes[0].ends_with("paragraph: value \"\" -> \"A quiet morning by the sea\""), "{typed}");
    // Bold is the button's state, and what is typed after it joins the paragraph.
    assert!(
        transcript
            .lines()
            .any(|l| l.starts_with("~ ") && l.contains("button \"Bold\"") && l.contains("+pressed")),
        "{transcript}"
    );
    assert!(transcript.contains("-> \"A quiet morning by the sea, and a bold wind\""), "{transcript}");
    assert!(transcript.contains("paragraph: role paragraph -> heading"), "{transcript}");
    assert_eq!(transcript.matches("menubar [").count(), 1, "{transcript}");
    assert!(!transcript.contains(" is now e"), "{transcript}");
}

fn tempdir() -> PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("axsnap-bench-test-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
