//! Element actions against a real headless Chromium: each test reads the effect back from the
//! page (counters, values, checked state, selection, scroll position, focus).

mod act_support;
mod common;

use std::time::Duration;

use act_support::{eval, native};
use axsnap_cdp::{act, CdpError, PageHandle};
use axsnap_core::backend::ElementAction;
use common::{browser, run, Server};
use serde_json::json;

async fn open(path: &str) -> (PageHandle, Server) {
    let srv = Server::pages();
    let page = browser().await.new_page(&srv.url(path)).await.unwrap();
    (page, srv)
}

fn click() -> ElementAction {
    ElementAction::Click { count: 1 }
}

fn fill(text: &str) -> ElementAction {
    ElementAction::Type { text: text.into(), clear: true, submit: false }
}

#[test]
fn click_and_double_click_reach_the_element() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let b = native(&page, "document.getElementById('counter')").await;
        let out = act(&page, &b, &click()).await.unwrap();
        assert!(out.settled && !out.navigated && out.dialog.is_none(), "{out:?}");
        assert_eq!(eval(&page, "log.clicks").await, json!(1));
        act(&page, &b, &click()).await.unwrap();
        assert_eq!(eval(&page, "log.clicks").await, json!(2));
        let d = native(&page, "document.getElementById('dbl')").await;
        act(&page, &d, &ElementAction::Click { count: 2 }).await.unwrap();
        assert_eq!(eval(&page, "log.dbl").await, json!(1));
        // Far below the fold: scrolled into view first, then clicked.
        let far = native(&page, "document.getElementById('far')").await;
        act(&page, &far, &click()).await.unwrap();
        assert_eq!(eval(&page, "log.clicks").await, json!(12));
        assert!(eval(&page, "window.scrollY").await.as_f64().unwrap() > 500.0);
        page.close().await.unwrap();
    })
}

#[test]
fn covered_and_disabled_elements_are_refused() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let c = native(&page, "document.getElementById('covered')").await;
        let e = act(&page, &c, &click()).await.unwrap_err();
        match &e {
            CdpError::Covered { target, cover } => {
                assert!(target.contains("covered"), "{e}");
                assert!(cover.contains("div#overlay") && cover.contains("Cookie banner"), "{e}");
            }
            other => panic!("expected Covered, got {other:?}"),
        }
        // A cover whose text is masked (a secret) is named without its text.
        eval(&page, "overlay.style.webkitTextSecurity = 'disc'; overlay.textContent = 'cover-SECRET-1'; 1")
            .await;
        let e = act(&page, &c, &click()).await.unwrap_err();
        assert!(matches!(&e, CdpError::Covered { cover, .. } if cover.contains("div#overlay")), "{e}");
        assert!(!e.to_string().contains("SECRET"), "a secret's text in an error: {e}");
        eval(&page, "overlay.style.webkitTextSecurity = ''; overlay.textContent = 'Cookie banner'; 1").await;
        let off = native(&page, "document.getElementById('off')").await;
        let e = act(&page, &off, &click()).await.unwrap_err();
        assert!(matches!(e, CdpError::NotActionable { .. }) && e.to_string().contains("disabled"), "{e}");
        assert_eq!(eval(&page, "log.clicks").await, json!(0), "nothing was clicked");
        // Once the overlay goes, the same element clicks.
        eval(&page, "document.getElementById('overlay').remove()").await;
        act(&page, &c, &click()).await.unwrap();
        assert_eq!(eval(&page, "log.clicks").await, json!(1000));
        page.close().await.unwrap();
    })
}

#[test]
fn a_tick_drawn_as_its_own_pseudo_element_does_not_cover_it() {
    run(async {
        let (page, _s) = open("act/pseudo_tick.html").await;
        let tick = native(&page, "document.getElementById('tick')").await;
        act(&page, &tick, &click()).await.unwrap();
        assert_eq!(eval(&page, "tick.checked").await, json!(true));
        // Another element's pseudo-element over a button still covers it, named by its element.
        let under = native(&page, "document.getElementById('under')").await;
        let e = act(&page, &under, &click()).await.unwrap_err();
        assert!(matches!(&e, CdpError::Covered { cover, .. } if cover.contains("div#shield")), "{e}");
        assert_eq!(eval(&page, "window.underClicks || 0").await, json!(0));
        page.close().await.unwrap();
    })
}

#[test]
fn a_replaced_element_is_stale_and_its_twin_untouched() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let old = native(&page, "document.getElementById('twin')").await;
        // An identical twin: same markup, same place.
        eval(&page, "(() => { const b = document.getElementById('twin-box'); b.innerHTML = b.innerHTML; return 1 })()")
            .await;
        for action in [click(), ElementAction::Hover, ElementAction::Focus, fill("x")] {
            let e = act(&page, &old, &action).await.unwrap_err();
            assert!(matches!(e, CdpError::StaleElement { .. }), "{action:?}: {e}");
            assert!(e.to_string().contains("new snapshot"), "{e}");
        }
        assert_eq!(eval(&page, "log.twin").await, json!(0), "the twin must not be clicked");
        // The twin itself, by its own id, works.
        let twin = native(&page, "document.getElementById('twin')").await;
        act(&page, &twin, &click()).await.unwrap();
        assert_eq!(eval(&page, "log.twin").await, json!(1));
        // A removed element kept alive by script is stale too.
        eval(&page, "window.kept = document.getElementById('twin'); kept.remove(); 1").await;
        let e = act(&page, &twin, &click()).await.unwrap_err();
        assert!(matches!(e, CdpError::StaleElement { .. }), "{e}");
        // After a reload every old id is stale (new document), even for the same markup.
        let counter = native(&page, "document.getElementById('counter')").await;
        page.call("Page.reload", json!({})).await.unwrap();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let e = act(&page, &counter, &click()).await.unwrap_err();
        assert!(matches!(e, CdpError::StaleElement { .. }), "{e}");
        assert_eq!(eval(&page, "log.clicks").await, json!(0));
        page.close().await.unwrap();
    })
}

#[test]
fn hover_moves_the_pointer_over_the_element() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let h = native(&page, "document.getElementById('hover-box')").await;
        act(&page, &h, &ElementAction::Hover).await.unwrap();
        assert_eq!(eval(&page, "log.hovers").await, json!(1));
        assert_eq!(
            eval(&page, "getComputedStyle(document.getElementById('hover-menu')).display").await,
            json!("block")
        );
        page.close().await.unwrap();
    })
}

#[test]
fn type_fill_append_submit() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let name = native(&page, "document.getElementById('name')").await;
        act(&page, &name, &fill("new")).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('name').value").await, json!("new"));
        assert!(eval(&page, "log.inputs").await.as_i64().unwrap() >= 2, "typing fires input events");
        let append = ElementAction::Type { text: " more".into(), clear: false, submit: true };
        act(&page, &name, &append).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('name').value").await, json!("new more"));
        assert_eq!(eval(&page, "log.submitted").await, json!(1), "Enter submits the form");

        let pw = native(&page, "document.getElementById('pw')").await;
        act(&page, &pw, &fill("s3cret pass")).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('pw').value").await, json!("s3cret pass"));

        let num = native(&page, "document.getElementById('num')").await;
        act(&page, &num, &fill("7")).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('num').value").await, json!("7"));

        let notes = native(&page, "document.getElementById('notes')").await;
        act(&page, &notes, &ElementAction::Type { text: " two".into(), clear: false, submit: false })
            .await
            .unwrap();
        assert_eq!(eval(&page, "document.getElementById('notes').value").await, json!("line two"));

        let ed = native(&page, "document.getElementById('editor')").await;
        act(&page, &ed, &fill("rewritten")).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('editor').textContent").await, json!("rewritten"));

        let ro = native(&page, "document.getElementById('ro')").await;
        let e = act(&page, &ro, &fill("no")).await.unwrap_err();
        assert!(e.to_string().contains("read-only"), "{e}");
        assert_eq!(eval(&page, "document.getElementById('ro').value").await, json!("fixed"));
        let p = native(&page, "document.getElementById('para')").await;
        let e = act(&page, &p, &fill("no")).await.unwrap_err();
        assert!(matches!(e, CdpError::NotActionable { .. }), "{e}");
        page.close().await.unwrap();
    })
}

#[test]
fn a_value_the_type_refuses_leaves_the_field_as_it_was() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        // Fields holding a value, each counting the events the page hears.
        eval(
            &page,
            "document.body.insertAdjacentHTML('beforeend', `<input id=d type=date value=2011-10-11>
               <input id=n type=number value=42><input id=c type=color value=#00ff00>
               <input id=rd type=date readonly value=2020-01-01>`);
             window.heard = 0;
             for (const e of document.querySelectorAll('#d, #n, #c, #rd'))
               for (const k of ['input', 'change']) e.addEventListener(k, () => heard++);
             1",
        )
        .await;
        for (id, bad, holds) in
            [("d", "2011-13-45", "2011-10-11"), ("n", "abc", "42"), ("c", "nonsense", "#00ff00")]
        {
            let el = native(&page, &format!("document.getElementById('{id}')")).await;
            let e = act(&page, &el, &fill(bad)).await.unwrap_err();
            assert!(
                matches!(e, CdpError::BadValue { .. }) && e.to_string().contains("left as it was"),
                "{e}"
            );
            assert_eq!(eval(&page, &format!("document.getElementById('{id}').value")).await, json!(holds));
        }
        let rd = native(&page, "document.getElementById('rd')").await;
        let e = act(&page, &rd, &fill("2011-10-11")).await.unwrap_err();
        assert!(
            matches!(&e, CdpError::NotActionable { kind: axsnap_core::backend::Refusal::ReadOnly, .. }),
            "{e:?}"
        );
        assert_eq!(eval(&page, "document.getElementById('rd').value").await, json!("2020-01-01"));
        assert_eq!(eval(&page, "heard").await, json!(0), "a refused fill sent events");
        // A colour name lands as #rrggbb, and filling it again is no error.
        let c = native(&page, "document.getElementById('c')").await;
        for _ in 0..2 {
            act(&page, &c, &fill("red")).await.unwrap();
            assert_eq!(eval(&page, "document.getElementById('c').value").await, json!("#ff0000"));
        }
        page.close().await.unwrap();
    })
}

#[test]
fn press_keys_and_chords() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let k = native(&page, "document.getElementById('keys')").await;
        for keys in ["a", "Shift+ArrowDown", "Control+A", "Enter", "Tab"] {
            act(&page, &k, &ElementAction::Press { keys: keys.into() }).await.unwrap();
            if keys == "Tab" {
                break;
            }
        }
        assert_eq!(
            eval(&page, "log.keys").await,
            json!(["a", "S-Shift", "S-ArrowDown", "C-Control", "C-a", "Enter", "Tab"])
        );
        assert_eq!(eval(&page, "document.getElementById('keys').value").await, json!("a"));
        // Tab moved the focus on.
        assert_ne!(eval(&page, "document.activeElement.id").await, json!("keys"));
        // Control+A selects all, Backspace deletes it: a real editing chord.
        let name = native(&page, "document.getElementById('name')").await;
        act(&page, &name, &ElementAction::Press { keys: "Control+A Backspace".into() }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('name').value").await, json!(""));
        let e = act(&page, &k, &ElementAction::Press { keys: "Hyper+Q".into() }).await.unwrap_err();
        assert!(matches!(e, CdpError::UnknownKey(_)), "{e}");
        page.close().await.unwrap();
    })
}

#[test]
fn select_by_label_or_value() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let f = native(&page, "document.getElementById('fruit')").await;
        act(&page, &f, &ElementAction::Select { values: vec!["Banana".into()] }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('fruit').value").await, json!("b"));
        assert_eq!(eval(&page, "log.changes").await, json!(1), "change fired");
        act(&page, &f, &ElementAction::Select { values: vec!["c".into()] }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('fruit').value").await, json!("c"));
        // Asked again by its value, the option already chosen is no error: the read-back looks
        // for its label (JupyterLab's settings form gives options their index as value, and
        // `3` chose the option `4` the field held, which was said to be a script's doing).
        act(&page, &f, &ElementAction::Select { values: vec!["c".into()] }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('fruit').value").await, json!("c"));
        let e = act(&page, &f, &ElementAction::Select { values: vec!["Durian".into()] }).await.unwrap_err();
        match &e {
            CdpError::NoSuchOption { wanted, available, .. } => {
                assert_eq!(wanted, &vec!["Durian".to_string()]);
                assert!(available.iter().any(|a| a.starts_with("Apple")) && available.len() == 3, "{e}");
            }
            other => panic!("expected NoSuchOption, got {other:?}"),
        }
        assert_eq!(
            eval(&page, "document.getElementById('fruit').value").await,
            json!("c"),
            "unchanged on error"
        );
        let m = native(&page, "document.getElementById('many')").await;
        act(&page, &m, &ElementAction::Select { values: vec!["Red".into(), "b".into()] }).await.unwrap();
        assert_eq!(
            eval(&page, "[...document.getElementById('many').selectedOptions].map(o => o.value)").await,
            json!(["r", "b"])
        );
        let name = native(&page, "document.getElementById('name')").await;
        let e = act(&page, &name, &ElementAction::Select { values: vec!["x".into()] }).await.unwrap_err();
        assert!(e.to_string().contains("not a <select>"), "{e}");
        page.close().await.unwrap();
    })
}

#[test]
fn check_and_uncheck_verify_the_state() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let agree = native(&page, "document.getElementById('agree')").await;
        act(&page, &agree, &ElementAction::Check { on: true }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('agree').checked").await, json!(true));
        // Already checked: no click, still checked.
        act(&page, &agree, &ElementAction::Check { on: true }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('agree').checked").await, json!(true));
        act(&page, &agree, &ElementAction::Check { on: false }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('agree').checked").await, json!(false));
        // A checkbox the page will not let change.
        let stuck = native(&page, "document.getElementById('stuck')").await;
        let e = act(&page, &stuck, &ElementAction::Check { on: true }).await.unwrap_err();
        assert!(matches!(e, CdpError::CheckFailed { .. }), "{e}");
        // Radios: check the other one; unchecking one is refused.
        let r2 = native(&page, "document.getElementById('r2')").await;
        act(&page, &r2, &ElementAction::Check { on: true }).await.unwrap();
        assert_eq!(eval(&page, "[r1.checked, r2.checked]").await, json!([false, true]));
        let e = act(&page, &r2, &ElementAction::Check { on: false }).await.unwrap_err();
        assert!(e.to_string().contains("radio"), "{e}");
        // An ARIA switch.
        let sw = native(&page, "document.getElementById('switch')").await;
        act(&page, &sw, &ElementAction::Check { on: true }).await.unwrap();
        assert_eq!(
            eval(&page, "document.getElementById('switch').getAttribute('aria-checked')").await,
            json!("true")
        );
        page.close().await.unwrap();
    })
}

#[test]
fn scroll_an_element_or_the_page_and_focus() {
    run(async {
        let (page, _s) = open("act/controls.html").await;
        let sc = native(&page, "document.getElementById('scroller')").await;
        act(&page, &sc, &ElementAction::Scroll { dx: 0.0, dy: 300.0 }).await.unwrap();
        assert_eq!(eval(&page, "document.getElementById('scroller').scrollTop").await, json!(300));
        assert_eq!(eval(&page, "window.scrollY").await, json!(0), "only the element scrolled");
        // Something that does not scroll itself scrolls the page.
        let p = native(&page, "document.getElementById('para')").await;
        act(&page, &p, &ElementAction::Scroll { dx: 0.0, dy: 400.0 }).await.unwrap();
        assert_eq!(eval(&page, "window.scrollY").await, json!(400));
        // The document node scrolls the page.
        let (frame, loader) = page.main_frame().await.unwrap();
        let root = axsnap_core::NativeId::new(format!("{frame}:{loader}"), "root");
        act(&page, &root, &ElementAction::Scroll { dx: 0.0, dy: -100.0 }).await.unwrap();
        assert_eq!(eval(&page, "window.scrollY").await, json!(300));

        let name = native(&page, "document.getElementById('name')").await;
        act(&page, &name, &ElementAction::Focus).await.unwrap();
        assert_eq!(eval(&page, "document.activeElement.id").await, json!("name"));
        let e = act(&page, &p, &ElementAction::Focus).await.unwrap_err();
        assert!(e.to_string().contains("focus"), "{e}");
        page.close().await.unwrap();
    })
}
