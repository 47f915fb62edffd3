//! The real `axsnap` binary's snapshot of a live page, and its lines, for tests that read the
//! text form as an agent does.

use std::process::Command;

/// `axsnap snapshot URL` with a generous capture timeout; panics with stderr if it fails.
pub fn snapshot(url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_axsnap"))
        .args(["snapshot", url, "--capture-timeout", "30"])
        .output()
        .expect("run axsnap");
    assert!(out.status.success(), "axsnap failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The one line that holds `text`.
pub fn line<'t>(page: &'t str, text: &str) -> &'t str {
    let lines: Vec<&str> = page.lines().filter(|l| l.contains(text)).collect();
    assert_eq!(lines.len(), 1, "{text:?} should be on exactly one line of:\n{page}");
    lines[0]
}
