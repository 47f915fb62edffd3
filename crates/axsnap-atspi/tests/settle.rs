//! The settle after an action on a desktop app, under a private desktop session: the capture
//! that follows an action may begin before the app is done (it starts once the app has been
//! quiet for a moment), so what the app finishes a little later (`apps/late.py`: a status
//! label set at once, then twice more 80 ms apart) must still be in the answer.
#![cfg(target_os = "linux")]

mod common;

use axsnap_core::backend::{Backend, ElementAction};
use common::desktop::Desktop;
use common::driver::Driver;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_an_app_finishes_shortly_after_an_action_is_in_its_answer() {
    let desktop = Desktop::start().expect("a desktop session");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/apps/late.py");
    let _app = desktop.spawn("/usr/bin/python3", &[script]).expect("the late app");
    let mut d = Driver::start(&desktop, "late.py").await;
    let first = d.first_snapshot().await;
    assert!(first.text.contains("Status: idle"), "{}", first.text);
    let start = d.find(&first, "button", "Start");

    // As the MCP agent does it: ask whether the window changed, then capture.
    let native = d.session.resolve(&d.target, start.parse().expect("a ref")).expect("a live ref").clone();
    let outcome =
        d.backend.act(&d.target, &native, &ElementAction::Click { count: 1 }).await.expect("a click");
    assert!(outcome.settled, "{outcome:?}");
    assert!(d.backend.changed(&d.target).await.expect("the change signal"), "the click changed the window");
    let after = d.snapshot().await;
    assert!(
        after.text.contains("Status: done") && !after.text.contains("Status: working"),
        "the answer must show what the app finished 160 ms after the click:\n{}",
        after.text
    );
    // Nothing more came: the next look is unchanged.
    assert!(!d.backend.changed(&d.target).await.expect("the change signal"), "{}", after.text);
}
