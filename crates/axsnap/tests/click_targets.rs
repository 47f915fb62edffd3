//! Click targets without ARIA roles, as web apps build them: the real `axsnap` binary on a
//! page served on 127.0.0.1 gives each its own line and ref, says it is clickable, and gives
//! nothing else a ref (text inside a target inherits its pointer cursor; plain text has none).

#[path = "support/page_lines.rs"]
mod page_lines;
#[path = "hostile/serve.rs"]
mod serve;

use std::path::Path;

use page_lines::{line, snapshot};
use serve::Server;

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

/// A page built the way Gradio builds one (`click_targets/gradio_like.html`): what no one can
/// aim at (1 px slivers with click listeners, a 1 px status region) gets no ref and makes
/// nothing "covering" or "obscured"; empty boxes kept only by a test id leave no lines; a
/// number box shows its value on its own line, not in an inner editor below it.
#[test]
fn a_gradio_like_page_says_only_what_can_be_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/click_targets");
    let server = Server::start(root).expect("serve the page");
    let page = snapshot(&server.url("gradio_like.html"));
    assert!(!page.contains("[covering]") && !page.contains("[obscured]"), "{page}");
    assert!(!page.lines().any(|l| l.trim() == "generic"), "no empty lines:\n{page}");
    assert!(!page.lines().any(|l| l.trim().starts_with("generic [e") && l.contains("[clickable]")), "{page}");
    assert!(line(&page, "number input for Times").ends_with(": 1"), "{page}");
    assert!(!page.contains("[editable]: 1\n") || page.matches(": 1").count() == 1, "{page}");
    assert!(line(&page, "tab \"Chat\"").contains(" [e"), "{page}");
    // A label's text beside a control of that name is said once, by the control.
    assert!(line(&page, "combobox \"Greeting\"").contains(": Hello"), "{page}");
    assert!(line(&page, "textbox \"Name\"").contains(" [e"), "{page}");
    for said in ["Greeting", "Name"] {
        assert_eq!(page.matches(said).count(), 1, "{said} said twice:\n{page}");
    }
}
