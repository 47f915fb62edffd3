//! Actions inside iframes: a same-process one (quads already in the tab's viewport) and an
//! out-of-process one (another site: its own session, offsets added up the frame chain).

mod act_support;
mod common;

use std::time::{Duration, Instant};

use act_support::{eval, native_in};
use axsnap_cdp::{act, PageHandle};
use axsnap_core::backend::ElementAction;
use common::{browser, run, Server};
use serde_json::{json, Value};

/// Evaluates `expr` on `session`'s main world.
async fn eval_in(page: &PageHandle, session: &str, expr: &str) -> Value {
    let r = page
        .raw()
        .call(Some(session), "Runtime.evaluate", json!({"expression": expr, "returnByValue": true}))
        .await
        .unwrap();
    r.pointer("/result/value").cloned().unwrap_or(Value::Null)
}

fn child_frame(tree: &Value, host: &str) -> Option<(String, String)> {
    let kids = tree.pointer("/frameTree/childFrames")?.as_array()?;
    kids.iter().map(|k| &k["frame"]).find(|f| f["url"].as_str().is_some_and(|u| u.contains(host))).map(|f| {
        (
            f["id"].as_str().unwrap_or_default().to_string(),
            f["loaderId"].as_str().unwrap_or_default().to_string(),
        )
    })
}

#[test]
fn click_and_type_inside_iframes() {
    run(async {
        let srv = Server::pages();
        let url = srv.url(&format!("act/frames.html?port2={}", srv.port));
        let page = browser().await.new_page(&url).await.unwrap();
        let click = ElementAction::Click { count: 1 };

        // Same process.
        let tree = page.call("Page.getFrameTree", json!({})).await.unwrap();
        let (fid, loader) = child_frame(&tree, "127.0.0.1").expect("same-process frame");
        let scope = format!("{fid}:{loader}");
        let doc = "document.getElementById('same').contentDocument";
        let btn =
            native_in(&page, page.session_id(), &format!("{doc}.getElementById('inner-btn')"), &scope).await;
        act(&page, &btn, &click).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('same').contentWindow.hits").await, json!(1));
        let text =
            native_in(&page, page.session_id(), &format!("{doc}.getElementById('inner-text')"), &scope).await;
        act(&page, &text, &ElementAction::Type { text: "hi".into(), clear: true, submit: false })
            .await
            .unwrap();
        assert_eq!(eval(&page, &format!("{doc}.getElementById('inner-text').value")).await, json!("hi"));

        // Out of process: wait for its session and document.
        let deadline = Instant::now() + Duration::from_secs(10);
        let session = loop {
            let s = page.watch().snapshot().sessions.into_iter().find(|s| s.frame_id.is_some());
            if let Some(s) = s {
                if eval_in(&page, &s.session_id, "document.readyState").await == json!("complete") {
                    break s;
                }
            }
            assert!(Instant::now() < deadline, "the out-of-process frame never loaded");
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let sid = session.session_id.clone();
        let tree = page.raw().call(Some(&sid), "Page.getFrameTree", json!({})).await.unwrap();
        let loader = tree.pointer("/frameTree/frame/loaderId").and_then(Value::as_str).unwrap().to_string();
        let scope = format!("{}:{loader}", session.frame_id.clone().unwrap());
        let btn = native_in(&page, &sid, "document.getElementById('inner-btn')", &scope).await;
        act(&page, &btn, &click).await.unwrap();
        act(&page, &btn, &click).await.unwrap();
        assert_eq!(
            eval_in(&page, &sid, "window.hits").await,
            json!(2),
            "clicks reached the out-of-process button"
        );
        assert_eq!(
            eval(&page, "document.getElementById('same').contentWindow.hits").await,
            json!(1),
            "not the other frame"
        );
        let text = native_in(&page, &sid, "document.getElementById('inner-text')", &scope).await;
        act(&page, &text, &ElementAction::Type { text: "far away".into(), clear: true, submit: false })
            .await
            .unwrap();
        assert_eq!(
            eval_in(&page, &sid, "document.getElementById('inner-text').value").await,
            json!("far away")
        );

        // Covering the out-of-process frame from the parent is seen.
        eval(
            &page,
            "(() => { const d = document.createElement('div'); d.id = 'veil'; d.textContent = 'Veil';
               d.style = 'position:fixed;inset:0;background:rgba(0,0,0,.2)'; document.body.append(d); return 1 })()",
        )
        .await;
        let e = act(&page, &btn, &click).await.unwrap_err();
        assert!(e.to_string().contains("div#veil"), "{e}");
        assert_eq!(eval_in(&page, &sid, "window.hits").await, json!(2));
        page.close().await.unwrap();
    })
}
