//! The change signal, one test per kind of change: each shows `changed()` false on a quiet
//! page right after a capture, and true after the change.

mod common;

use std::time::{Duration, Instant};

use axsnap_cdp::{capture, changed, PageHandle};
use common::{browser, run, Server};
use serde_json::json;

/// Tabs of one browser compete for focus and visibility, which are changes too; these tests
/// run one at a time so that only their own actions change their page.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn fresh(path: &str) -> (PageHandle, Server) {
    let srv = Server::pages();
    let page = browser().await.new_page(&srv.url(path)).await.unwrap();
    (page, srv)
}

/// Captures and checks the quiet page reads as unchanged (also a little later).
async fn baseline(page: &PageHandle) {
    let out = capture(page, Duration::from_secs(30)).await.unwrap();
    assert!(out.capture.partial.is_none(), "{:?}", out.capture.partial);
    assert!(!changed(page).await, "a quiet page must read as unchanged right after a capture");
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(!changed(page).await, "a quiet page must stay unchanged");
}

/// Runs `js` in the page and checks the signal says changed.
async fn expect_change(page: &PageHandle, what: &str, js: &str) {
    baseline(page).await;
    page.eval(js).await.unwrap();
    assert!(changed(page).await, "{what}: not seen as a change");
}

async fn center_of(page: &PageHandle, id: &str) -> (f64, f64) {
    let v = page
        .eval(&format!(
            "(() => {{ const r = document.getElementById('{id}').getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()"
        ))
        .await
        .unwrap();
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

async fn mouse(page: &PageHandle, kind: &str, x: f64, y: f64) {
    page.call(
        "Input.dispatchMouseEvent",
        json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
    )
    .await
    .unwrap();
}

#[test]
fn dom_mutation() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        expect_change(
            &page,
            "appended node",
            "document.getElementById('list').append(document.createElement('li')); 1",
        )
        .await;
        expect_change(&page, "text edit", "document.querySelector('#list li').firstChild.data = 'uno'; 1")
            .await;
        expect_change(&page, "removed node", "document.querySelector('#list li').remove(); 1").await;
        page.close().await.unwrap();
    })
}

#[test]
fn attribute_and_class_change() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        expect_change(&page, "class", "document.getElementById('title').className = 'b'; 1").await;
        expect_change(
            &page,
            "aria attribute",
            "document.getElementById('btn').setAttribute('aria-pressed', 'true'); 1",
        )
        .await;
        expect_change(&page, "hidden property", "document.getElementById('btn').hidden = true; 1").await;
        page.close().await.unwrap();
    })
}

#[test]
fn typed_value() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        page.eval("document.getElementById('text').focus(); 1").await.unwrap();
        baseline(&page).await;
        page.call("Input.insertText", json!({"text": "abc"})).await.unwrap();
        assert!(changed(&page).await, "typed text not seen");
        // A value set from script fires no event and no mutation; still a change.
        expect_change(&page, "value set by script", "document.getElementById('text').value = 'zzz'; 1").await;
        page.close().await.unwrap();
    })
}

#[test]
fn checkbox_and_radio_toggle() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        baseline(&page).await;
        let (x, y) = center_of(&page, "cb").await;
        // Moving the mouse there is a change by itself (hover); settle that first.
        mouse(&page, "mouseMoved", x, y).await;
        baseline(&page).await;
        mouse(&page, "mousePressed", x, y).await;
        mouse(&page, "mouseReleased", x, y).await;
        assert!(changed(&page).await, "clicked checkbox not seen");
        assert_eq!(page.eval("document.getElementById('cb').checked").await.unwrap(), true);
        expect_change(&page, "checked set by script", "document.getElementById('cb').checked = false; 1")
            .await;
        expect_change(&page, "radio click", "document.getElementById('r2').click(); 1").await;
        expect_change(&page, "radio set by script", "document.getElementById('r1').checked = true; 1").await;
        page.close().await.unwrap();
    })
}

#[test]
fn select_change() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        expect_change(
            &page,
            "selectedIndex by script",
            "document.getElementById('sel').selectedIndex = 1; 1",
        )
        .await;
        expect_change(
            &page,
            "select with change event",
            "const s = document.getElementById('sel'); s.value = 'a'; s.dispatchEvent(new Event('change')); 1",
        )
        .await;
        page.close().await.unwrap();
    })
}

#[test]
fn focus_change() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        expect_change(&page, "focus", "document.getElementById('btn').focus(); 1").await;
        expect_change(&page, "blur", "document.getElementById('btn').blur(); 1").await;
        page.close().await.unwrap();
    })
}

#[test]
fn scroll() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        expect_change(&page, "window scroll", "window.scrollTo(0, 400); 1").await;
        page.close().await.unwrap();
    })
}

#[test]
fn navigation() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, srv) = fresh("change.html").await;
        baseline(&page).await;
        page.goto(&srv.url("index.html")).await.unwrap();
        assert!(changed(&page).await, "navigation not seen");
        baseline(&page).await;
        page.eval("history.pushState({}, '', '#pushed'); 1").await.unwrap();
        assert!(changed(&page).await, "same-document navigation not seen");
        page.close().await.unwrap();
    })
}

#[test]
fn css_hover_visibility() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        mouse(&page, "mouseMoved", 1.0, 1.0).await;
        baseline(&page).await;
        let (x, y) = center_of(&page, "hover-target").await;
        mouse(&page, "mouseMoved", x, y).await;
        assert!(changed(&page).await, "hover not seen");
        let shown = page.eval("getComputedStyle(document.querySelector('.menu')).display").await.unwrap();
        assert_eq!(shown, "block", "the hover menu should be open now");
        page.close().await.unwrap();
    })
}

#[test]
fn shadow_dom_mutation() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("shadow.html").await;
        expect_change(
            &page,
            "inside an open shadow root",
            "document.getElementById('host').shadowRoot.getElementById('shadow-btn').textContent = 'x'; 1",
        )
        .await;
        expect_change(
            &page,
            "a new host element",
            "const h = document.createElement('div'); h.id = 'late'; document.body.append(h); 1",
        )
        .await;
        // A root attached to an element already in the page, then filled.
        baseline(&page).await;
        page.eval("document.getElementById('late').attachShadow({mode: 'open'}); 1").await.unwrap();
        assert!(changed(&page).await);
        baseline(&page).await;
        page.eval("document.getElementById('late').shadowRoot.innerHTML = '<b>new</b>'; 1").await.unwrap();
        assert!(changed(&page).await, "content of a late shadow root not seen");
        page.close().await.unwrap();
    })
}

#[test]
fn running_animation_reads_as_changed() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("change.html").await;
        baseline(&page).await;
        page.eval(
            "document.getElementById('btn').animate([{opacity: 0}, {opacity: 1}], {duration: 5000}); 1",
        )
        .await
        .unwrap();
        assert!(changed(&page).await);
        page.close().await.unwrap();
    })
}

#[test]
fn unchanged_check_is_fast() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("forms.html").await;
        baseline(&page).await;
        let mut times = Vec::new();
        for _ in 0..30 {
            let t0 = Instant::now();
            assert!(!changed(&page).await);
            times.push(t0.elapsed());
        }
        times.sort();
        let median = times[times.len() / 2];
        eprintln!("unchanged-page check: median {median:?}, max {:?}", times.last().unwrap());
        // 10 ms is the goal on a quiet machine; leave room for a loaded CI box.
        assert!(median < Duration::from_millis(25), "median {median:?}");
        page.close().await.unwrap();
    })
}

/// Shadow roots nested deeper than the page script's stack (12,000 levels, built detached and
/// put in the page at once, hidden so the renderer need not lay them out) are all watched: a
/// change in the innermost one is a change. (A recursive walk of the roots stopped at the
/// stack's end, and this change read as none: a stale view.)
#[test]
fn shadow_roots_nested_past_the_script_stack_are_all_watched() {
    run(async {
        let _one = ONE_AT_A_TIME.lock().await;
        let (page, _s) = fresh("shadow.html").await;
        page.eval(
            "(() => { const top = document.createElement('div'); top.hidden = true; let at = top; \
             for (let i = 0; i < 12000; i++) { const h = document.createElement('span'); \
             at.append(h); at = h.attachShadow({mode: 'open'}); } \
             at.innerHTML = '<b id=\"bottom\">x</b>'; window.__bottom = at; \
             document.body.append(top); return 1; })()",
        )
        .await
        .unwrap();
        baseline(&page).await;
        page.eval("window.__bottom.getElementById('bottom').textContent = 'y'; 1").await.unwrap();
        assert!(changed(&page).await, "a change 12,000 shadow roots down was not seen");
        page.close().await.unwrap();
    })
}
