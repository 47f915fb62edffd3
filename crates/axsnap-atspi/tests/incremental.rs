//! Incremental capture on gtk3-widget-factory, under a private desktop session: after each
//! action the window's capture reads again only what its app's events came from, and what it
//! shows is exactly what reading the whole window shows.
#![cfg(target_os = "linux")]

mod common;

use std::time::{Duration, Instant};

use axsnap_atspi::CaptureLimits;
use axsnap_core::backend::{Backend, ElementAction};
use axsnap_core::session::{ClientId, Mode, Policy, Request, Session};
use axsnap_core::State;
use common::desktop::Desktop;
use common::driver::{pick, Driver};

/// The window's whole snapshot as a fresh session shows it, from a capture that reads it
/// whole (`incremental` off) or one that may take from the last.
async fn shown(d: &mut Driver, incremental: bool) -> String {
    d.backend.platform_mut().set_limits(CaptureLimits { incremental, ..CaptureLimits::default() });
    let capture = d.backend.capture(&d.target, Duration::from_secs(10)).await.expect("a capture");
    d.backend.platform_mut().set_limits(CaptureLimits::default());
    let request = Request { mode: Mode::Full, max_tokens: None, ..Request::default() };
    let mut session = Session::new(Policy::default());
    session.snapshot(&ClientId("compare".into()), &capture, &request, Instant::now()).expect("an answer").text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_capture_after_an_action_reads_only_what_changed_and_shows_the_whole_window() {
    let desktop = Desktop::start().expect("a desktop session");
    let _app = desktop.spawn("gtk3-widget-factory", &[]).expect("gtk3-widget-factory");
    let mut d = Driver::start(&desktop, "gtk3-widget-factory").await;
    let first = d.first_snapshot().await;

    let checkbox = pick(&first, "checkbox", |n| {
        n.name == "checkbutton" && !n.states.contains(State::Checked) && !n.states.contains(State::Mixed)
    });
    let entry = pick(&first, "textbox", |n| n.value.as_deref() == Some("entry"));
    let page2 = pick(&first, "tab", |n| n.name == "page 2");
    let menu = d.find(&first, "button", "Menu");
    let steps: Vec<(&str, String, ElementAction)> = vec![
        ("check", checkbox.clone(), ElementAction::Check { on: true }),
        ("type", entry.clone(), ElementAction::Type { text: "hello".into(), clear: true, submit: false }),
        ("switch a page", page2, ElementAction::Click { count: 1 }),
        ("open the menu", menu.clone(), ElementAction::Click { count: 1 }),
        ("close the menu", menu, ElementAction::Press { keys: "Escape".into() }),
        ("uncheck", checkbox, ElementAction::Check { on: false }),
    ];
    let mut reused_any = false;
    for (what, r, action) in steps {
        let native = d.session.resolve(&d.target, r.parse().expect("a ref")).expect("a live ref").clone();
        d.backend.act(&d.target, &native, &action).await.unwrap_or_else(|e| panic!("{what}: {e}"));
        let part = shown(&mut d, true).await;
        let (reused, objects) = d.backend.platform().last_reused(&d.target).expect("a walk");
        assert!(reused < objects, "{what}: nothing was read again ({reused} of {objects} reused)");
        eprintln!("{what}: {reused} of {objects} objects taken from the last walk");
        reused_any |= reused > 0;
        // Nothing happens between the two: the app settled after the action.
        let whole = shown(&mut d, false).await;
        assert_eq!(
            d.backend.platform().last_reused(&d.target).map(|(r, _)| r),
            Some(0),
            "{what}: read whole"
        );
        assert_eq!(part, whole, "{what}: the incremental capture differs from the whole one");
        // The driver's own session follows along.
        d.snapshot().await;
    }
    assert!(reused_any, "no capture took anything from the one before");
}
