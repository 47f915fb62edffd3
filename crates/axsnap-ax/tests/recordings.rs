//! macOS trees (fixtures/desktop/ax, written from AppKit's documented roles: see its
//! NOTICE.md) through the whole desktop path: read, mapped, replayed by the recorded platform,
//! projected and rendered as `axsnap desktop snapshot --recording FILE` prints them.
//!
//! The goldens are the product: review a changed one line by line against its recording
//! (`cargo insta review`). What each must hold is also asserted below, so a golden accepted
//! without a look still cannot lose a ref on a pressable element, let an unnamed wrapper back
//! in, or show a secret.

use std::collections::HashSet;
use std::path::PathBuf;

use axsnap_agent::{Agent, AgentOptions};
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::session::{Mode, Request};
use axsnap_core::{Action, NativeId, Role, Tree};
use axsnap_desktop::{DesktopBackend, RecordedPlatform};

fn fixture(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/desktop/ax").join(file)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a runtime")
}

/// An agent on the recording's one window, as the CLI opens it.
async fn agent(file: &str) -> Agent<DesktopBackend<RecordedPlatform>> {
    let recording = axsnap_ax::open_recording(&fixture(file)).expect("the recording");
    let app = recording.apps[0].name.clone();
    let mut backend = DesktopBackend::new(RecordedPlatform::new(recording));
    let target = backend.window(&app, None).await.expect("its window");
    Agent::new(backend, Some(target), AgentOptions { after_action: full(), ..AgentOptions::default() })
}

fn full() -> Request {
    Request { mode: Mode::Full, ..Request::default() }
}

/// The capture the agent's last snapshot came from, and it projected as the snapshot was.
fn projected(agent: &Agent<DesktopBackend<RecordedPlatform>>) -> (Tree, Tree) {
    let raw = agent.last_capture().expect("a capture").tree.clone();
    let shown = project(&raw, &ProjectOptions::default()).tree;
    (raw, shown)
}

/// What holds for every recording: every element one can press, toggle, expand, select or
/// type into is shown, with a ref on its line (`names` are some of them, checked in the
/// text); no container is left that has no name, developer id or action of its own.
fn check(file: &str, names: &[&str]) -> String {
    runtime().block_on(async {
        let mut agent = agent(file).await;
        let text = agent.snapshot(&full()).await.expect("a snapshot").response.text;
        let (raw, shown) = projected(&agent);
        let kept: HashSet<&NativeId> = shown.preorder().map(|(n, _)| &shown.node(n).native).collect();
        let acts = [Action::Click, Action::Toggle, Action::Expand, Action::Select, Action::SetValue];
        for (id, _) in raw.preorder() {
            let n = raw.node(id);
            if acts.iter().any(|a| n.actions.contains(*a)) {
                assert!(kept.contains(&n.native), "{file}: {} {:?} is not shown", n.role, n.name);
            }
        }
        let root = shown.root();
        for (id, _) in shown.preorder().filter(|(id, _)| Some(*id) != root) {
            let n = shown.node(id);
            if matches!(n.role, Role::Generic | Role::Group | Role::Other(_)) {
                let own = !n.name.is_empty() || n.dev_id.is_some() || !n.actions.is_empty();
                assert!(own, "{file}: an unnamed wrapper survives: {n:?}");
            }
        }
        for name in names {
            let line = line_of(&text, name);
            assert!(line.contains("[e") || line.contains("](e"), "{file}: {name:?} has no ref: {line}");
        }
        text
    })
}

/// The line that names `name` (`button "Save"`, or a link's `[Acme](e5)`).
fn line_of<'a>(text: &'a str, name: &str) -> &'a str {
    let quoted = format!("\"{name}\"");
    let link = format!("[{name}](e");
    text.lines()
        .find(|l| l.contains(&quoted) || l.contains(&link))
        .unwrap_or_else(|| panic!("no line names {name:?}:\n{text}"))
}

#[test]
fn finder_window() {
    let text = check(
        "finder.axjson",
        &["close button", "Back", "Forward", "as List", "Search", "Recents", "Downloads", "Name", "Users"],
    );
    insta::assert_snapshot!("finder", text);
    assert!(line_of(&text, "Forward").contains("disabled"), "{text}");
    assert!(line_of(&text, "as List").contains("checked"), "{text}");
    assert!(!text.contains("_NS:"), "AppKit's made-up identifiers are no developer ids:\n{text}");
}

#[test]
fn save_sheet() {
    let text = check(
        "save-sheet.axjson",
        &["Save As:", "Where:", "File Format:", "Hide extension", "Cancel", "Save"],
    );
    insta::assert_snapshot!("save_sheet", text);
    // The label elements name their fields.
    assert!(
        line_of(&text, "Save As:").starts_with("    textbox")
            || line_of(&text, "Save As:").contains("textbox")
    );
    assert!(line_of(&text, "Where:").contains("Documents"), "{text}");
}

#[test]
fn open_menu() {
    let text = check(
        "menu.axjson",
        &["View", "Show Toolbar", "Show Favorites Bar", "Zoom In", "Text Encoding", "Default"],
    );
    insta::assert_snapshot!("menu", text);
    assert!(line_of(&text, "Show Toolbar").contains("checked"), "{text}");
    assert!(!line_of(&text, "Show Favorites Bar").contains("checked"), "{text}");
    assert!(line_of(&text, "Zoom Out").contains("disabled"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("separator")), "no separator:\n{text}");
}

#[test]
fn login_secret_never_shows() {
    let text = check("login.axjson", &["Email", "Password", "Remember me", "Sign In"]);
    insta::assert_snapshot!("login", text);
    assert!(!text.contains("correct-horse-battery"), "the secret leaked:\n{text}");
    assert!(line_of(&text, "Password").contains("[redacted]"), "{text}");
    assert!(line_of(&text, "Email").contains("ada@example.com"), "{text}");
}

#[test]
fn electron_window() {
    let text = check(
        "electron.axjson",
        &["Acme", "Channels", "# general", "# random", "Add reaction", "Message #general", "Send now"],
    );
    insta::assert_snapshot!("electron", text);
    assert!(line_of(&text, "Send now").contains("disabled"), "{text}");
}

/// Each recorded window's tokens (cl100k) shown whole with every projection rule off, and
/// with the rules (wrappers unwrapped, repeated labels and blank images dropped). Printed
/// (`--nocapture`). The rules must save where there is something for them to remove
/// (wrappers, labels that repeat a field's name, blank images); the menu and the sign-in
/// dialog have none, and must at least not grow.
#[test]
fn the_rules_make_every_recording_smaller() {
    let files = [
        ("finder.axjson", true),
        ("save-sheet.axjson", true),
        ("menu.axjson", false),
        ("login.axjson", false),
        ("electron.axjson", true),
    ];
    for (file, saves) in files {
        let (raw, ruled) = runtime().block_on(async {
            let mut agent = agent(file).await;
            let whole = Request { options: ProjectOptions::raw(), ..full() };
            let raw = agent.snapshot(&whole).await.expect("a snapshot").response.text;
            let ruled = agent.snapshot(&full()).await.expect("a snapshot").response.text;
            (raw, ruled)
        });
        let (r, p) = (axsnap_core::tokens::count_cl100k(&raw), axsnap_core::tokens::count_cl100k(&ruled));
        println!("{file}: {r} tokens with no rule, {p} with the rules ({}% saved)", 100 - p * 100 / r.max(1));
        assert!(p < r || (!saves && p == r), "{file}: {p} with the rules, {r} without");
    }
}
