//! Real Windows trees (fixtures/desktop/uia, recorded with Accessibility Insights) through the
//! whole desktop path: read, mapped, replayed by the recorded platform, projected and
//! rendered as `axsnap desktop snapshot --recording FILE` prints them.
//!
//! The goldens are the product: review a changed one line by line against its recording
//! (`cargo insta review`). What each must hold is also asserted below, so a golden accepted
//! without a look still cannot lose a ref on an invokable element or let an unnamed wrapper
//! back in.

use std::collections::HashSet;
use std::path::PathBuf;

use axsnap_agent::{Agent, AgentOptions};
use axsnap_core::backend::ElementAction;
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::session::{Mode, Request};
use axsnap_core::{Action, NativeId, Role, Tree};
use axsnap_desktop::{DesktopBackend, RecordedPlatform};

fn fixture(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/desktop/uia").join(file)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a runtime")
}

/// An agent on the recording's one window, as the CLI opens it, answering actions with
/// `after`.
async fn agent(file: &str, after: Request) -> Agent<DesktopBackend<RecordedPlatform>> {
    let recording = axsnap_uia::open_recording(&fixture(file)).expect("the recording");
    let app = recording.apps[0].name.clone();
    let mut backend = DesktopBackend::new(RecordedPlatform::new(recording));
    let target = backend.window(&app, None).await.expect("its window");
    Agent::new(backend, Some(target), AgentOptions { after_action: after, ..AgentOptions::default() })
}

fn full() -> Request {
    Request { mode: Mode::Full, ..Request::default() }
}

/// The capture the agent's last snapshot came from, projected as the snapshot was.
fn projected(agent: &Agent<DesktopBackend<RecordedPlatform>>) -> (Tree, Tree) {
    let raw = agent.last_capture().expect("a capture").tree.clone();
    let shown = project(&raw, &ProjectOptions::default()).tree;
    (raw, shown)
}

/// What holds for every recording: every element one can invoke, toggle, expand, select or
/// type into is shown, with a ref on its line (`names` are some of them, checked in the
/// text); no container is left that has no name, developer id (AutomationId) or action of its
/// own; and no two labels were joined into one.
fn check(file: &str, names: &[&str]) -> String {
    runtime().block_on(async {
        let mut agent = agent(file, full()).await;
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
            let line = text
                .lines()
                .find(|l| l.contains(&format!("\"{name}\"")))
                .unwrap_or_else(|| panic!("{file}: no line names {name:?}:\n{text}"));
            assert!(line.contains("[e"), "{file}: {name:?} has no ref: {line}");
        }
        text
    })
}

#[test]
fn taskbar() {
    let text = check(
        "Taskbar.snapshot",
        &[
            "Start",
            "Type here to search",
            "Start Listening",
            "Task View",
            "Microsoft Edge - 1 running window",
            "Windows Command Processor - 3 running windows",
            "Axe.Windows - 1 running window",
            "Notification Chevron",
            "Speakers (USB): 25%",
            "Action Center",
            "Show desktop",
        ],
    );
    insta::assert_snapshot!("taskbar", text);
}

#[test]
fn visual_studio_editor() {
    let text = check(
        "A11yElementTest.hier",
        &["Text Editor", "5 references", "John Alkire, 10 days ago", "1 author, 2 changes"],
    );
    insta::assert_snapshot!("visual_studio_editor", text);
}

#[test]
fn visual_studio_combo_box() {
    let text = check(
        "A11yPatternTest.hier",
        &["Solution Configurations", "Debug", "Release", "Configuration Manager..."],
    );
    insta::assert_snapshot!("visual_studio_combo_box", text);
}

#[test]
fn wildlife_manager() {
    let text = check(
        "WildlifeManagerTest.a11ytest",
        &["Minimize", "Close", "Beetle", "Owl", "Mouse", "Species", "Weight", "Flags", "Help"],
    );
    insta::assert_snapshot!("wildlife_manager", text);
    // Four labels side by side stay four.
    for label in ["Wildlife Manager", "Current Animals:", "Weight:", "Species:"] {
        // (A text ending in a colon is said as one, `text: Weight:`, so it reads as no field.)
        let own = |l: &str| l.trim() == label || l.trim() == format!("text: {label}");
        assert!(text.lines().any(own), "{label:?} is not a line of its own:\n{text}");
    }
}

/// The recorded platform acts on a Windows tree as on any: a list item selected, an edit
/// field filled, and each answered as a diff of what changed.
#[test]
fn actions_on_a_recorded_windows_tree_answer_with_what_changed() {
    runtime().block_on(async {
        let auto = Request { mode: Mode::Auto, ..Request::default() };
        let mut agent = agent("WildlifeManagerTest.a11ytest", auto.clone()).await;
        let first = agent.snapshot(&auto).await.expect("a snapshot").response.text;
        let field = ref_of(&first, "textbox");
        let step = agent
            .act(&field, &ElementAction::Type { text: "Otter".into(), clear: true, submit: false })
            .await
            .expect("a fill");
        let said = step.response.text;
        assert!(said.contains("Otter"), "{said}");
        assert!(said.lines().count() < first.lines().count(), "not a diff:\n{said}");
    });
}

/// The ref on the first line with `role` (`textbox [e12]` gives `e12`).
fn ref_of(text: &str, role: &str) -> String {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(role))
        .unwrap_or_else(|| panic!("no {role}:\n{text}"));
    let at = line.find("[e").unwrap_or_else(|| panic!("no ref: {line}"));
    line[at + 1..].split(']').next().unwrap_or_default().to_string()
}

/// The figures of issue 46: each recorded window's tokens (cl100k) shown whole with every
/// projection rule off, and with the rules (the seeds' compaction: wrappers unwrapped,
/// repeated labels and blank images dropped). Printed (`--nocapture`); the rules must save.
#[test]
fn the_rules_make_every_recording_smaller() {
    let files =
        ["Taskbar.snapshot", "A11yElementTest.hier", "A11yPatternTest.hier", "WildlifeManagerTest.a11ytest"];
    for file in files {
        let (raw, ruled) = runtime().block_on(async {
            let mut agent = agent(file, full()).await;
            let whole = Request { options: ProjectOptions::raw(), ..full() };
            let raw = agent.snapshot(&whole).await.expect("a snapshot").response.text;
            let ruled = agent.snapshot(&full()).await.expect("a snapshot").response.text;
            (raw, ruled)
        });
        use axsnap_core::tokens::{count_cl100k, count_o200k};
        let (r, p) = (count_cl100k(&raw), count_cl100k(&ruled));
        let (ro, po) = (count_o200k(&raw), count_o200k(&ruled));
        println!(
            "{file}: cl100k {r} with no rule, {p} with the rules ({}% saved); o200k {ro} -> {po}",
            100 - p * 100 / r.max(1)
        );
        assert!(p < r, "{file}: {p} >= {r}");
        assert!(po < ro, "{file}: {po} >= {ro}");
    }
}
