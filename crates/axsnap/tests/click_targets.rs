//! Click targets without ARIA roles, as web apps build them: the real `axsnap` binary on a
//! page served on 127.0.0.1 gives each its own line and ref, says it is clickable, and gives
//! nothing else a ref (text inside a target inherits its pointer cursor; plain text has none).

#[path = "hostile/serve.rs"]
mod serve;

use std::path::Path;
use std::process::Command;

use serve::Server;

fn snapshot(url: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_axsnap"))
        .args(["snapshot", url, "--capture-timeout", "20"])
        .output()
        .expect("run axsnap");
    assert!(out.status.success(), "axsnap failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The one line that holds `text`.
fn line<'t>(page: &'t str, text: &str) -> &'t str {
    let lines: Vec<&str> = page.lines().filter(|l| l.contains(text)).collect();
    assert_eq!(lines.len(), 1, "{text:?} should be on exactly one line of:\n{page}");
    lines[0]
}

fn is_target(l: &str) -> bool {
    l.contains(" [e") && l.contains("[clickable]")
}

#[test]
fn click_targets_without_roles_get_refs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/click_targets");
    let server = Server::start(root).expect("serve the page");
    let page = snapshot(&server.url("clickable.html"));
    // Menu items with only tabindex and aria-haspopup (the menu's one listener handles them).
    assert!(is_target(line(&page, "New")), "{page}");
    assert!(is_target(line(&page, "Open Recent")), "{page}");
    // A pointer cursor of its own; its neighbour with no signal at all is not joined to it.
    let close = line(&page, "Close");
    assert!(is_target(close) && !close.contains("Save"), "{page}");
    // A card with its own pointer cursor is one target: its texts inherit the cursor, so they
    // are its content, not targets of their own.
    let card = line(&page, "Notebook");
    assert!(is_target(card) && card.contains("Python 3"), "{page}");
    // A drag source.
    assert!(is_target(line(&page, "Console")), "{page}");
    // Plain text is not a target.
    let plain = line(&page, "Just text");
    assert!(!plain.contains("[clickable]") && !plain.contains(" [e"), "{page}");
    // A real button says nothing more than its role.
    assert!(
        !page.contains("button") || !page.lines().any(|l| l.contains("button") && l.contains("[clickable]"))
    );
}
