//! JavaScript dialogs: an action that opens one returns at once and says so; the dialog can be
//! accepted or dismissed (with prompt text), and the page goes on.

mod act_support;
mod common;

use std::time::Duration;

use act_support::{eval, native};
use axsnap_cdp::dialogs::{answer, Answer};
use axsnap_cdp::{act, CdpError, PageHandle, SettleOptions};
use axsnap_core::backend::ElementAction;
use common::{browser, run, Server};
use serde_json::json;

async fn click(page: &PageHandle, id: &str) -> axsnap_core::backend::Outcome {
    let el = native(page, &format!("document.getElementById('{id}')")).await;
    act(page, &el, &ElementAction::Click { count: 1 }).await.unwrap()
}

#[test]
fn alert_confirm_prompt() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("act/settle.html")).await.unwrap();
        let opts = SettleOptions::default();
        let e = answer(&page, &Answer::Dismiss, &opts).await.unwrap_err();
        assert!(matches!(e, CdpError::NoDialog), "{e}");

        let out = click(&page, "alert").await;
        let d = out.dialog.clone().unwrap_or_else(|| panic!("no dialog reported: {out:?}"));
        assert!(d.contains("alert") && d.contains("Hello there"), "{d}");
        assert!(out.elapsed < Duration::from_secs(10), "must not hang: {out:?}");
        let out = answer(&page, &Answer::Accept(None), &opts).await.unwrap();
        assert!(out.dialog.is_none() && out.settled, "{out:?}");
        assert_eq!(eval(&page, "document.title").await, json!("after alert"), "the script went on");

        let out = click(&page, "confirm").await;
        assert!(
            out.dialog.as_deref().is_some_and(|d| d.contains("confirm") && d.contains("Delete it?")),
            "{out:?}"
        );
        answer(&page, &Answer::Dismiss, &opts).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('answer').textContent").await, json!("no"));
        click(&page, "confirm").await;
        answer(&page, &Answer::Accept(None), &opts).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('answer').textContent").await, json!("yes"));

        let out = click(&page, "prompt").await;
        assert!(out.dialog.as_deref().is_some_and(|d| d.contains("prompt") && d.contains("anon")), "{out:?}");
        answer(&page, &Answer::Accept(Some("Bob".into())), &opts).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('answer').textContent").await, json!("Bob"));

        // The tab works normally afterwards.
        let out = click(&page, "quiet").await;
        assert!(out.settled && out.dialog.is_none(), "{out:?}");
        page.close().await.unwrap();
    })
}
