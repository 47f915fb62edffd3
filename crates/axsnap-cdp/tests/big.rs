//! A 50,000-element page, in its own test binary: Chromium's full AX tree call on it can keep
//! the renderer busy for a long time, which would stall other tests sharing the renderer.

mod common;

use std::time::{Duration, Instant};

use axsnap_cdp::capture;
use axsnap_core::Role;
use common::find::must;
use common::{browser, run, Server};

#[test]
fn fifty_thousand_elements_capture_or_say_what_was_cut() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("big.html")).await.unwrap();
        let count = page.eval("document.getElementsByTagName('*').length").await.unwrap();
        assert!(count.as_u64().unwrap() >= 50_000, "{count}");
        let deadline = Duration::from_secs(20);
        let t0 = Instant::now();
        let out = capture(&page, deadline).await.unwrap();
        let took = t0.elapsed();
        eprintln!(
            "50k-element capture: {took:?}, {} AX nodes, {} tree nodes, partial: {:?}",
            out.stats.ax_nodes,
            out.capture.tree.len(),
            out.capture.partial
        );
        // Within the deadline (plus assembly), and either complete or saying what was cut.
        assert!(took < deadline + Duration::from_secs(5), "{took:?}");
        assert!(!out.capture.tree.is_empty());
        match &out.capture.partial {
            None => {
                must(&out.capture.tree, Role::Button, "Act 9999");
            }
            Some(why) => assert!(why.contains("did not"), "{why}"),
        }
        // The next call on another page works.
        let other = browser().await.new_page("about:blank").await.unwrap();
        other.goto(&Server::pages().url_other_site("index.html")).await.unwrap();
        let out = capture(&other, Duration::from_secs(30)).await.unwrap();
        assert!(out.capture.partial.is_none(), "{:?}", out.capture.partial);
        must(&out.capture.tree, Role::Heading, "Fixture index");
        other.close().await.unwrap();
        let _ = page.close().await;
    })
}
