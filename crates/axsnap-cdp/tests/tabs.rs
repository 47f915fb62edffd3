//! Tabs: list, switch, open, close; popups from window.open and target=_blank links show up as
//! tabs and in the action's outcome.

mod act_support;
mod common;

use act_support::{eval, native};
use axsnap_cdp::{act, tabs, CdpError};
use axsnap_core::backend::ElementAction;
use common::{browser, run, Server};
use serde_json::json;

/// Switching tabs puts the others in the background (throttled) and both tests count tabs: one
/// at a time.
static TABS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

#[test]
fn popups_become_tabs() {
    run(async {
        let _one = TABS.lock().await;
        let srv = Server::pages();
        let b = browser().await;
        let page = b.new_page(&srv.url("act/settle.html")).await.unwrap();
        for id in ["popup", "blank"] {
            let el = native(&page, &format!("document.getElementById('{id}')")).await;
            let out = act(&page, &el, &ElementAction::Click { count: 1 }).await.unwrap();
            assert_eq!(out.opened.len(), 1, "{id}: {out:?}");
            assert!(out.settled, "{id}: {out:?}");
            let new = &out.opened[0].0;
            let list = tabs::list(b).await.unwrap();
            let tab =
                list.iter().find(|t| &t.id == new).unwrap_or_else(|| panic!("{id}: not listed: {list:?}"));
            assert_eq!(tab.opener.as_deref(), Some(page.target_id()));
            // The agent can use it like any tab.
            let popup = b.attach_page(new).await.unwrap();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            while eval(&popup, "document.title").await != json!("Inner") {
                assert!(std::time::Instant::now() < deadline, "{id}: popup did not load");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            tabs::close(b, new).await.unwrap();
        }
        // A click that opens nothing reports nothing.
        let el = native(&page, "document.getElementById('quiet')").await;
        let out = act(&page, &el, &ElementAction::Click { count: 1 }).await.unwrap();
        assert!(out.opened.is_empty(), "{out:?}");
        page.close().await.unwrap();
    })
}

#[test]
fn list_switch_open_close() {
    run(async {
        let _one = TABS.lock().await;
        let srv = Server::pages();
        let b = browser().await;
        let one = tabs::open(b, &srv.url("act/inner.html")).await.unwrap();
        let two = tabs::open(b, &srv.url("act/settle.html")).await.unwrap();
        let list = tabs::list(b).await.unwrap();
        let t1 = list.iter().find(|t| t.id == one.target_id()).expect("first tab listed");
        assert_eq!(t1.title, "Inner");
        assert!(t1.url.ends_with("act/inner.html"));
        assert!(list.iter().any(|t| t.id == two.target_id() && t.title == "Settle"));
        tabs::switch(b, one.target_id()).await.unwrap();
        assert_eq!(eval(&one, "document.visibilityState").await, json!("visible"));
        let e = tabs::switch(b, "NOPE").await.unwrap_err();
        assert!(matches!(e, CdpError::NoSuchTarget(_)), "{e}");
        // An unreachable URL opens no tab.
        let before: Vec<String> = tabs::list(b).await.unwrap().into_iter().map(|t| t.id).collect();
        let e = tabs::open(b, "http://127.0.0.1:9/").await.unwrap_err();
        assert!(matches!(e, CdpError::Unreachable { .. }), "{e}");
        // (Other tests open tabs meanwhile; theirs are popups or fixture pages.)
        let leftover: Vec<_> = tabs::list(b)
            .await
            .unwrap()
            .into_iter()
            .filter(|t| !before.contains(&t.id) && t.opener.is_none() && !t.url.contains("/act/"))
            .collect();
        assert!(leftover.is_empty(), "the failed tab stays open: {leftover:?}");
        tabs::close(b, two.target_id()).await.unwrap();
        let list = tabs::list(b).await.unwrap();
        assert!(!list.iter().any(|t| t.id == two.target_id()), "closed tab still listed");
        let e = tabs::close(b, two.target_id()).await.unwrap_err();
        assert!(matches!(e, CdpError::NoSuchTarget(_)), "{e}");
        tabs::close(b, one.target_id()).await.unwrap();
    })
}
