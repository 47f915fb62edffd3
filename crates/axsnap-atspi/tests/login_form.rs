//! A GTK 3 login form (`apps/login.py`) through the desktop backend, under a private desktop
//! session: the password never leaves the capture (the raw tree, the answers in text and JSON,
//! a recorded tree, a typing step), and what the backend refuses is said as the kind of
//! refusal the browser gives for the same thing (disabled, not a text field, a bad key).
#![cfg(target_os = "linux")]

mod common;

use std::time::Duration;

use axsnap_atspi::AtspiBackend;
use axsnap_core::backend::{Backend, ElementAction, Refusal, TargetAction};
use axsnap_core::interchange::{write_tree, TargetInfo};
use axsnap_core::secret::REDACTED;
use axsnap_core::session::Response;
use axsnap_core::State;
use common::desktop::Desktop;
use common::driver::Driver;

/// What `apps/login.py` puts in its password entry.
const SECRET: &str = "hunter2-opensesame";

async fn login_form() -> (Desktop, common::desktop::App, Driver) {
    let desktop = Desktop::start().expect("a desktop session");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/apps/login.py");
    let app = desktop.spawn("/usr/bin/python3", &[script]).expect("the login form app");
    let driver = Driver::start(&desktop, "login.py").await;
    (desktop, app, driver)
}

/// The secret, or any piece of it long enough to tell it, in `text`.
fn leaks(text: &str) -> bool {
    text.contains(SECRET) || text.contains("hunter2") || text.contains("opensesame")
}

/// Every name, value and description of `response`'s whole snapshot, and its text and JSON.
fn everything(r: &Response) -> String {
    let tree = &r.snapshot.tree;
    let mut all = r.text.clone();
    all.push_str(r.json.as_deref().unwrap_or(""));
    for (id, _) in tree.preorder() {
        let n = tree.node(id);
        all.push_str(&format!("{} {:?} {:?}\n", n.name, n.value, n.description));
    }
    all
}

/// What the backend says when asked to do `action` on `r`, which it must refuse.
async fn refusal(d: &mut Driver, r: &str, action: ElementAction) -> (Option<Refusal>, String) {
    let native = d.session.resolve(&d.target, r.parse().expect("a ref")).expect("a live ref").clone();
    let e =
        d.backend.act(&d.target, &native, &action).await.expect_err(&format!("{action:?} on {r} refused"));
    (AtspiBackend::refusal(&e), e.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_password_never_leaves_the_capture_and_refusals_are_the_browsers_kinds() {
    let (_desktop, _app, mut d) = login_form().await;

    // The raw capture, as the backend hands it on: the entry is a protected text box whose
    // value is redacted, and nothing in the tree shows the password.
    let capture = d.backend.capture(&d.target, Duration::from_secs(10)).await.expect("a capture");
    let tree = &capture.tree;
    let secrets: Vec<_> = tree
        .preorder()
        .map(|(id, _)| tree.node(id))
        .filter(|n| n.states.contains(State::Protected))
        .collect();
    assert_eq!(secrets.len(), 1, "one password entry: {secrets:?}");
    assert_eq!(secrets[0].value.as_deref(), Some(REDACTED), "{:?}", secrets[0]);
    for (id, _) in tree.preorder() {
        let n = tree.node(id);
        let fields = format!("{} {:?} {:?}", n.name, n.value, n.description);
        assert!(!leaks(&fields), "the raw capture shows the password: {n:?}");
    }
    let info = TargetInfo { kind: "window".into(), id: d.target.0.clone(), url: None, title: None };
    let recorded = write_tree(tree, &info);
    assert!(!leaks(&recorded), "the recorded tree shows the password:\n{recorded}");

    // The answers, in text and JSON.
    let first = d.snapshot().await;
    assert!(!leaks(&everything(&first)), "{}", first.text);
    assert!(first.text.contains(REDACTED), "the field says it holds something:\n{}", first.text);
    let field = d.find(&first, "textbox", "Password");

    // Typing a new password: the step works (its length is checked) and says nothing of it.
    let r = d
        .act(&field, ElementAction::Type { text: "another-secret-77".into(), clear: true, submit: false })
        .await;
    assert!(!everything(&r).contains("another-secret"), "{}", r.text);

    // Refusals, coded as the browser codes them.
    let tree = &r.snapshot.tree;
    let sign_in = tree
        .preorder()
        .map(|(id, _)| tree.node(id))
        .find(|n| n.name == "Sign in")
        .and_then(|n| n.ref_id)
        .expect("the Sign in button has a ref");
    assert!(tree.preorder().any(|(id, _)| {
        let n = tree.node(id);
        n.name == "Sign in" && n.states.contains(State::Disabled)
    }));
    let cancel = d.find(&r, "button", "Cancel");
    let (kind, text) = refusal(&mut d, &sign_in.to_string(), ElementAction::Click { count: 1 }).await;
    assert_eq!(kind, Some(Refusal::Disabled), "{text}");
    assert!(text.contains("\"Sign in\"") && text.contains("disabled"), "{text}");
    let typing = ElementAction::Type { text: "hello".into(), clear: false, submit: false };
    let (kind, text) = refusal(&mut d, &cancel, typing).await;
    assert_eq!(kind, Some(Refusal::NotATextField), "{text}");
    assert!(text.contains("\"Cancel\"") && text.contains("not a text field"), "{text}");
    let e = d
        .backend
        .act_on_target(&d.target, &TargetAction::Press { keys: "Hyper+x".into() })
        .await
        .expect_err("not a key");
    assert_eq!(AtspiBackend::refusal(&e), Some(Refusal::BadKey), "{e}");
    // The words are the core's, the same a page's press gets.
    let core = axsnap_core::keys::parse("Hyper+x").expect_err("not a key");
    assert_eq!(e.to_string(), core.to_string());
}
