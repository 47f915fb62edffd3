//! The workload harness end to end, as CI runs it: the Sphinx docs workload (Python's docs,
//! Debian python3-doc) through `axsnap mcp` and Playwright MCP over stdio, one run each, the
//! task checked on the app, the report written.

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

#[test]
fn sphinx_docs_workload_through_axsnap_and_playwright_mcp() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let playwright = repo.join("tests/mcp/node/node_modules/@playwright/mcp/cli.js");
    assert!(playwright.is_file(), "Playwright MCP is not installed: scripts/test installs it");
    let axsnap = axsnap_bin();
    assert!(axsnap.is_file(), "no axsnap at {}: build it (cargo build -p axsnap)", axsnap.display());
    let out = tempdir();
    let run = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["python-docs-next", "--runs", "1", "--arms", "axsnap-auto,playwright-mcp"])
        .arg("--out")
        .arg(&out)
        .arg("--axsnap")
        .arg(&axsnap)
        .arg("--playwright-mcp")
        .arg(&playwright)
        .output()
        .expect("run the bench");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "the bench failed:\n{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    let summaries = report["summaries"].as_array().unwrap();
    let arm = |name: &str| {
        summaries.iter().find(|s| s["arm"] == name).unwrap_or_else(|| panic!("{name}: {report}"))
    };
    for name in ["axsnap-auto", "playwright-mcp"] {
        assert_eq!(arm(name)["succeeded"], 1, "{name} did not finish the task:\n{stderr}");
    }
    // Python's stdtypes page alone is 151,000 tokens in Playwright's snapshot; axsnap answers
    // it within its 10,000-token budget. Not a speed: a size, the same on every machine.
    let ours = arm("axsnap-auto")["tokens_cl100k"].as_f64().unwrap();
    let theirs = arm("playwright-mcp")["tokens_cl100k"].as_f64().unwrap();
    assert!(ours < theirs, "axsnap {ours} tokens, Playwright MCP {theirs}");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## python-docs-next") && md.contains("click link \"next\""), "{md}");
    let transcript = out.join("python-docs-next-axsnap-auto-0/transcript.md");
    assert!(std::fs::read_to_string(transcript).unwrap().contains("## click"), "every answer is recorded");
}

fn tempdir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("axsnap-bench-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
