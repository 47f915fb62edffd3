//! Settle after actions and navigation: quiet pages settle fast, busy ones are waited for,
//! pages that never go quiet stop at the cap with `settled = false`, navigations are reported.

mod act_support;
mod common;

use std::time::Duration;

use act_support::{eval, native};
use axsnap_cdp::settle::{SettleOptions, DEFAULT_BLANK, DEFAULT_CAP, DEFAULT_QUIET};
use axsnap_cdp::{act_with, nav, CdpError, PageHandle};
use axsnap_core::backend::ElementAction;
use common::{browser, run, Server};
use serde_json::json;

/// The tests of this file run one at a time: a tab that never settles (`forever`) shares the
/// browser, and under a loaded machine its churn kept a neighbour's settle from ending in time.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn open(srv: &Server) -> PageHandle {
    browser().await.new_page(&srv.url("act/settle.html")).await.unwrap()
}

async fn click(page: &PageHandle, id: &str, opts: &SettleOptions) -> axsnap_core::backend::Outcome {
    let el = native(page, &format!("document.getElementById('{id}')")).await;
    act_with(page, &el, &ElementAction::Click { count: 1 }, opts).await.unwrap()
}

#[test]
fn defaults_are_documented_values() {
    assert_eq!(DEFAULT_QUIET, Duration::from_millis(100));
    assert_eq!(DEFAULT_CAP, Duration::from_secs(3));
    assert_eq!(
        SettleOptions::default(),
        SettleOptions {
            quiet: DEFAULT_QUIET,
            cap: DEFAULT_CAP,
            load: axsnap_cdp::page::LOAD_TIMEOUT,
            blank: DEFAULT_BLANK
        }
    );
}

#[test]
fn quiet_and_busy_pages() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let page = open(&srv).await;
        let opts = SettleOptions::default();
        let out = click(&page, "quiet", &opts).await;
        assert!(out.settled && !out.navigated, "{out:?}");
        // Settled by quiet, not by the cap (how fast is a figure, not a test).
        assert!(out.elapsed >= opts.quiet && out.elapsed < opts.cap, "{out:?}");

        // Eight mutations 50 ms apart: settle waits for the last one.
        let out = click(&page, "burst", &opts).await;
        assert!(out.settled, "{out:?}");
        assert!(out.elapsed >= Duration::from_millis(350), "{out:?}");
        assert_eq!(eval(&page, "document.querySelectorAll('#out li').length").await, json!(9));

        // A fetch: settle waits for the response and what the page does with it.
        let out = click(&page, "fetch", &opts).await;
        assert!(out.settled, "{out:?}");
        assert_eq!(
            eval(&page, "document.querySelector('#out li:last-child').textContent").await,
            json!("fetched")
        );
        page.close().await.unwrap();
    })
}

#[test]
fn a_search_field_is_given_its_debounce_to_show_what_it_found() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let page = open(&srv).await;
        let opts = SettleOptions::default();
        let typed = |text: &str| ElementAction::Type { text: text.into(), clear: false, submit: false };
        let search = native(&page, "document.getElementById('search')").await;
        let out = act_with(&page, &search, &typed("Vec"), &opts).await.unwrap();
        assert!(out.settled, "{out:?}");
        // The results are in when the action answers (the answer's capture comes after it).
        assert_eq!(
            eval(&page, "[...document.querySelectorAll('#found li')].map(l => l.textContent)").await,
            json!(["search found Vec"])
        );
        assert!(out.elapsed >= axsnap_cdp::LOOKUP_QUIET, "{out:?}");
        page.close().await.unwrap();
    })
}

#[test]
fn never_settling_pages_stop_at_the_cap() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let opts = SettleOptions {
            quiet: Duration::from_millis(100),
            cap: Duration::from_millis(800),
            ..SettleOptions::default()
        };
        // A request that never answers.
        let page = open(&srv).await;
        let out = click(&page, "hang", &opts).await;
        assert!(!out.settled, "{out:?}");
        assert!(out.elapsed >= opts.cap && out.elapsed < opts.cap + Duration::from_secs(3), "{out:?}");
        page.close().await.unwrap();
        // Mutations forever.
        let page = open(&srv).await;
        let out = click(&page, "forever", &opts).await;
        assert!(!out.settled, "{out:?}");
        assert!(out.elapsed >= opts.cap && out.elapsed < opts.cap + Duration::from_secs(3), "{out:?}");
        page.close().await.unwrap();
    })
}

#[test]
fn requests_a_page_never_waits_on_do_not_hold_the_settle() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let opts = SettleOptions::default();
        // Each on a page of its own: what one leaves open must not excuse the next.
        for (button, shown) in
            [("stream", "streamed hello"), ("beacon", "beaconed"), ("worker", "worker ready")]
        {
            let page = open(&srv).await;
            let out = click(&page, button, &opts).await;
            assert!(out.settled, "{button}: {out:?}");
            assert!(out.elapsed < opts.cap, "{button}: {out:?}");
            let texts =
                eval(&page, "[...document.querySelectorAll('#out li')].map((l) => l.textContent)").await;
            assert!(texts.as_array().unwrap().iter().any(|t| t == shown), "{button}: {texts}");
            page.close().await.unwrap();
        }
    })
}

#[test]
fn a_navigation_the_network_fails_is_reported_with_its_error() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let page = open(&srv).await;
        // A port nothing listens on: bound a moment ago, then let go.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let url = format!("http://127.0.0.1:{port}/gone");
        eval(&page, &format!("document.getElementById('dead').href = '{url}'")).await;
        let out = click(&page, "dead", &SettleOptions::default()).await;
        let failed = out.failed_navigation.clone().expect("the failed navigation is reported");
        assert_eq!(
            (failed.url.as_str(), failed.error.as_str()),
            (url.as_str(), "net::ERR_CONNECTION_REFUSED"),
            "{out:?}"
        );
        page.close().await.unwrap();
        // A navigation that works reports none.
        let page = open(&srv).await;
        let out = click(&page, "link", &SettleOptions::default()).await;
        assert!(out.navigated && out.failed_navigation.is_none(), "{out:?}");
        page.close().await.unwrap();
    })
}

#[test]
fn navigation_is_reported() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let page = open(&srv).await;
        let opts = SettleOptions::default();
        let out = click(&page, "push", &opts).await;
        assert!(out.settled && out.navigated, "same-document navigation: {out:?}");
        let out = click(&page, "link", &opts).await;
        assert!(out.settled && out.navigated, "{out:?}");
        assert_eq!(eval(&page, "document.title").await, json!("Inner"), "settled on the new page");
        page.close().await.unwrap();
    })
}

/// A navigation to an app's shell that shows nothing while its DOM churns (JupyterLab's) is not
/// answered at the cap with an empty page: it is waited for until the interface shows, within
/// the blank budget. A page that shows something and keeps changing still stops at the cap.
#[test]
fn a_navigation_to_a_blank_shell_waits_for_its_interface() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        // Generous: the interface comes at 3 s, the cap is 1 s, the blank budget 60 s.
        let opts = SettleOptions {
            cap: Duration::from_secs(1),
            blank: Duration::from_secs(60),
            ..SettleOptions::default()
        };
        let page = browser().await.new_page("about:blank").await.unwrap();
        let out = nav::navigate(&page, &srv.url("act/shell.html?after=3000"), &opts).await.unwrap();
        assert!(!out.settled && out.navigated, "it never goes quiet: {out:?}");
        assert_eq!(eval(&page, "!!document.getElementById('ready')").await, json!(true), "{out:?}");
        let why = out.unsettled.as_deref().unwrap_or_default();
        assert!(why.contains("showed nothing"), "{why}");
        // With the interface shown, the same churn stops at the cap.
        let out = nav::navigate(&page, &srv.url("act/shell.html?after=0"), &opts).await.unwrap();
        assert!(!out.settled, "{out:?}");
        assert!(!out.unsettled.as_deref().unwrap_or_default().contains("showed nothing"), "{out:?}");
        // A shell whose scripts hold the main thread in bursts cannot say at the cap whether
        // it shows anything: it answered before, so it is building, and is waited for too.
        let out = nav::navigate(&page, &srv.url("act/shell.html?after=3000&busy=1"), &opts).await.unwrap();
        assert_eq!(eval(&page, "!!document.getElementById('ready')").await, json!(true), "{out:?}");
        // Without a blank budget past the cap, the shell is answered as it stands at the cap.
        let opts = SettleOptions { blank: Duration::ZERO, ..opts };
        nav::navigate(&page, &srv.url("act/shell.html?after=60000"), &opts).await.unwrap();
        assert_eq!(eval(&page, "!!document.getElementById('ready')").await, json!(false));
        page.close().await.unwrap();
    })
}

#[test]
fn navigate_back_forward_reload() {
    let _serial = one_at_a_time();
    run(async {
        let srv = Server::pages();
        let opts = SettleOptions::default();
        let page = browser().await.new_page("about:blank").await.unwrap();
        let e = nav::back(&page, &opts).await.unwrap_err();
        assert!(matches!(e, CdpError::NoHistory("back")), "{e}");
        let out = nav::navigate(&page, &srv.url("act/settle.html"), &opts).await.unwrap();
        assert!(out.navigated && out.settled, "{out:?}");
        nav::navigate(&page, &srv.url("act/inner.html"), &opts).await.unwrap();
        let out = nav::back(&page, &opts).await.unwrap();
        assert!(out.navigated && out.settled, "{out:?}");
        assert_eq!(eval(&page, "document.title").await, json!("Settle"));
        let out = nav::forward(&page, &opts).await.unwrap();
        assert!(out.navigated, "{out:?}");
        assert_eq!(eval(&page, "document.title").await, json!("Inner"));
        let e = nav::forward(&page, &opts).await.unwrap_err();
        assert!(matches!(e, CdpError::NoHistory("forward")), "{e}");
        eval(&page, "window.marker = 1").await;
        let out = nav::reload(&page, &opts).await.unwrap();
        assert!(out.navigated && out.settled, "{out:?}");
        assert_eq!(eval(&page, "typeof window.marker").await, json!("undefined"), "a fresh document");
        // Errors of goto come through.
        let e = nav::navigate(&page, "http://127.0.0.1:9/", &opts).await.unwrap_err();
        assert!(matches!(e, CdpError::Unreachable { .. }), "{e}");
        let e = nav::navigate(&page, &srv.url("plain.txt"), &opts).await.unwrap_err();
        assert!(matches!(e, CdpError::NotHtml { .. }), "{e}");
        page.close().await.unwrap();
    })
}
