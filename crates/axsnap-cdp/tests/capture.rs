//! Capture against a real headless Chromium: forms, ARIA widgets, frames, shadow DOM, layout,
//! dynamic pages, a 50,000-element page, deadlines.

mod act_support;
mod common;

use std::time::{Duration, Instant};

use std::collections::HashSet;

use axsnap_cdp::{capture, capture_with, CaptureOptions, PageHandle};
use axsnap_core::{Action, Role, State, Tree, ValueRange};
use common::find::{dump, has_name, must, node};
use common::{browser, run, Server};

const DEADLINE: Duration = Duration::from_secs(30);

async fn open(path: &str) -> (PageHandle, Server) {
    let srv = Server::pages();
    let page = browser().await.new_page(&srv.url(path)).await.unwrap();
    (page, srv)
}

async fn tree_of(page: &PageHandle) -> Tree {
    let out = capture(page, DEADLINE).await.unwrap();
    assert!(out.capture.partial.is_none(), "unexpected partial: {:?}", out.capture.partial);
    out.capture.tree
}

#[test]
fn forms_with_every_input_type() {
    run(async {
        let (page, _srv) = open("forms.html").await;
        let out = capture(&page, DEADLINE).await.unwrap();
        let t = &out.capture.tree;
        assert_eq!(out.capture.header.title.as_deref(), Some("Forms"));
        assert!(out.capture.header.url.as_deref().unwrap().ends_with("/forms.html"));

        let text = must(t, Role::TextBox, "Text");
        assert_eq!(text.value.as_deref(), Some("hello"));
        assert_eq!(text.dev_id.as_deref(), Some("f-text"));
        assert!(text.actions.contains(Action::SetValue) && text.actions.contains(Action::Focus));
        assert!(text.bounds.is_some_and(|b| b.w > 0.0 && b.h > 0.0));
        assert_eq!(must(t, Role::SearchBox, "Search").dev_id.as_deref(), Some("search-box"));
        assert!(must(t, Role::TextBox, "Email").states.contains(State::Required));
        assert!(must(t, Role::TextBox, "Readonly").states.contains(State::Readonly));
        assert!(!must(t, Role::TextBox, "Readonly").actions.contains(Action::SetValue));
        assert!(must(t, Role::TextBox, "Disabled").states.contains(State::Disabled));
        assert!(must(t, Role::TextBox, "Invalid").states.contains(State::Invalid));
        assert_eq!(must(t, Role::SpinButton, "Number").value.as_deref(), Some("3"));
        assert_eq!(must(t, Role::Slider, "Range").value.as_deref(), Some("40"));
        let sub = must(t, Role::CheckBox, "Subscribe");
        assert!(sub.states.contains(State::Checked) && sub.actions.contains(Action::Toggle));
        assert!(must(t, Role::CheckBox, "Mixed").states.contains(State::Mixed));
        assert!(must(t, Role::Radio, "Large").states.contains(State::Checked));
        assert!(!must(t, Role::Radio, "Small").states.contains(State::Checked));
        let country = must(t, Role::ComboBox, "Country");
        assert_eq!(country.value.as_deref(), Some("Spain"));
        assert!(country.actions.contains(Action::Select));
        // A select's options are on its line, not lines (and refs) of their own; a list box's
        // options stay its children.
        assert_eq!(country.options, ["France", "Spain", "Italy"]);
        assert!(
            node(t, Role::Option, "France").is_none() && node(t, Role::ListBox, "").is_none(),
            "{}",
            dump(t)
        );
        let many = must(t, Role::ListBox, "Many");
        assert!(many.states.contains(State::Multiselectable) && many.options.is_empty());
        assert!(node(t, Role::Option, "A").is_some());
        let notes = must(t, Role::TextBox, "Notes");
        assert!(notes.states.contains(State::Multiline));
        assert!(must(t, Role::Button, "Bold").states.contains(State::Pressed));
        assert_eq!(must(t, Role::Button, "Go").dev_id.as_deref(), Some("go-btn"));
        assert_eq!(must(t, Role::Button, "QA").dev_id.as_deref(), Some("qa-btn"));
        assert!(must(t, Role::Button, "Send").actions.contains(Action::Click));
        assert!(node(t, Role::Generic, "Editor")
            .or_else(|| node(t, Role::TextBox, "Editor"))
            .is_some_and(|n| n.states.contains(State::Editable) && n.actions.contains(Action::SetValue)));
        for kind in ["File", "Tel", "URL"] {
            assert!(has_name(t, kind), "no node named {kind}");
        }
        // A picked input is one field of its kind, told apart by its type where the
        // accessibility tree calls month, week and datetime-local inputs all `DateTime`.
        for (name, role, value) in [
            ("Date", Role::Date, Some("2024-01-02")),
            ("Time", Role::Time, None),
            ("Datetime", Role::DateTime, None),
            ("Month", Role::Month, None),
            ("Week", Role::Week, None),
            ("Color", Role::Color, Some("#ff0000")),
        ] {
            let field = must(t, role.clone(), name);
            assert_eq!(field.value.as_deref(), value, "{role} {name}");
            assert!(field.actions.contains(Action::SetValue), "{role} {name} takes no fill");
        }
        // Every node carries a native identity scoped to its document.
        let (frame, loader) = page.main_frame().await.unwrap();
        let scope = format!("{frame}:{loader}");
        assert!(t.preorder().all(|(id, _)| t.node(id).native.scope == scope));
        assert_eq!(text.native.id.parse::<i64>().map(|n| n > 0), Ok(true));
        page.close().await.unwrap();
    })
}

#[test]
fn password_value_never_leaves_the_backend() {
    run(async {
        let (page, _srv) = open("forms.html").await;
        // Also a value typed after load, not only the attribute.
        page.eval("document.getElementById('pw').value = 'typed-SECRET-42'; 1").await.unwrap();
        let t = tree_of(&page).await;
        let pw = must(&t, Role::TextBox, "Password");
        assert!(pw.states.contains(State::Protected));
        // Filled, and nothing more: not its characters, not their number.
        assert_eq!(pw.value.as_deref(), Some(axsnap_core::secret::REDACTED));
        let all = dump(&t);
        assert!(!all.contains("SECRET"), "a password leaked into the capture");
        assert!(!all.contains("hunter2"));
        assert!(!all.contains('•'), "the password's length leaked into the capture");
        page.close().await.unwrap();
    })
}

#[test]
fn aria_widgets() {
    run(async {
        let (page, _srv) = open("aria.html").await;
        let t = tree_of(&page).await;
        must(&t, Role::MenuBar, "Main menu");
        let file = must(&t, Role::MenuItem, "File");
        assert!(file.states.contains(State::Collapsed) && file.actions.contains(Action::Expand));
        assert!(must(&t, Role::MenuItemCheckbox, "Autosave").states.contains(State::Checked));
        must(&t, Role::MenuItemRadio, "Dark");
        let combo = must(&t, Role::ComboBox, "Fruit");
        assert!(combo.states.contains(State::Expanded));
        assert!(must(&t, Role::Option, "Apple").states.contains(State::Selected));
        assert!(must(&t, Role::Tab, "One").states.contains(State::Selected));
        assert!(!must(&t, Role::Tab, "Two").states.contains(State::Selected));
        must(&t, Role::TabPanel, "One");
        let src = must(&t, Role::TreeItem, "src");
        assert!(src.states.contains(State::Expanded));
        assert_eq!(src.level, Some(1));
        assert_eq!(must(&t, Role::TreeItem, "main.rs").level, Some(2));
        assert!(must(&t, Role::TreeItem, "docs").states.contains(State::Collapsed));
        assert!(must(&t, Role::Dialog, "Confirm").states.contains(State::Modal));
        must(&t, Role::Grid, "Scores");
        must(&t, Role::ColumnHeader, "Name");
        must(&t, Role::Cell, "Ann");
        assert_eq!(must(&t, Role::Slider, "Volume").value.as_deref(), Some("5"));
        assert_eq!(must(&t, Role::Heading, "Heading three").level, Some(3));
        let more = must(&t, Role::Button, "More");
        assert!(more.states.contains(State::Collapsed));
        page.close().await.unwrap();
    })
}

#[test]
fn same_origin_and_cross_site_iframes_are_stitched_in_place() {
    run(async {
        let srv = Server::pages();
        let srv2 = Server::pages();
        let url = format!("{}?port2={}", srv.url("iframes.html"), srv2.port);
        let page = browser().await.new_page(&url).await.unwrap();
        // The out-of-process frame attaches asynchronously; wait for its session.
        let t0 = Instant::now();
        while page.watch().snapshot().sessions.len() < 2 && t0.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Its document loads after that, later still on a loaded machine: capture until it
        // is there (or give up after 10 s and let the checks below say what is missing).
        let mut t = tree_of(&page).await;
        while !has_name(&t, "Remote link") && t0.elapsed() < Duration::from_secs(20) {
            tokio::time::sleep(Duration::from_millis(200)).await;
            t = tree_of(&page).await;
        }
        let outer = must(&t, Role::Button, "Outer button");
        let inner = must(&t, Role::Button, "Inner button");
        let remote = must(&t, Role::Link, "Remote link");
        assert_ne!(inner.native.scope, outer.native.scope);
        assert_ne!(remote.native.scope, outer.native.scope);
        assert_eq!(remote.dev_id.as_deref(), Some("oop-link"));
        // In place: the frames' content sits under their iframe nodes, between the outer
        // button and the text after the frames.
        let order: Vec<String> = t.preorder().map(|(id, _)| t.node(id).name.clone()).collect();
        let pos = |n: &str| order.iter().position(|x| x == n).unwrap_or_else(|| panic!("{n} missing"));
        assert!(pos("Outer button") < pos("Inner button"));
        assert!(pos("Inner button") < pos("Remote link"));
        assert!(pos("Remote link") < pos("After frames"));
        // Bounds are in the top-level viewport: inside their iframes.
        let frame_rect = |title: &str| must(&t, Role::Document, title).bounds.unwrap();
        for (btn, title) in [(inner, "Same origin"), (remote, "Cross site")] {
            let (b, f) = (btn.bounds.unwrap(), frame_rect(title));
            assert!(
                b.x >= f.x && b.y >= f.y && b.x + b.w <= f.x + f.w + 0.5 && b.y + b.h <= f.y + f.h + 0.5,
                "{b:?} not inside {f:?}"
            );
        }
        // The DOM fallback stitches the same frames in the same places, with the same ids.
        // (Here, not in a test of its own: two tabs loading cross-site frames of one site at
        // once sometimes leave one without its frame's session.)
        let out =
            capture_with(&page, DEADLINE, &CaptureOptions { dom_only: true, ..CaptureOptions::default() })
                .await
                .unwrap();
        let dom = &out.capture.tree;
        for (role, name) in
            [(Role::Button, "Outer button"), (Role::Button, "Inner button"), (Role::Link, "Remote link")]
        {
            let (a, b) = (must(&t, role.clone(), name), must(dom, role.clone(), name));
            assert_eq!(a.native, b.native, "{name}");
            let (ra, rb) = (a.bounds.unwrap(), b.bounds.unwrap());
            assert!((ra.x - rb.x).abs() < 1.0 && (ra.y - rb.y).abs() < 1.0, "{name}: {ra:?} vs {rb:?}");
        }
        page.close().await.unwrap();
    })
}

#[test]
fn open_shadow_roots_are_included() {
    run(async {
        let (page, _srv) = open("shadow.html").await;
        let t = tree_of(&page).await;
        assert_eq!(must(&t, Role::Button, "Shadow button").dev_id.as_deref(), Some("shadow-btn"));
        must(&t, Role::TextBox, "Shadow input");
        must(&t, Role::Button, "Declarative button");
        page.close().await.unwrap();
    })
}

#[test]
fn layout_bounds_offscreen_and_obscured() {
    run(async {
        let (page, _srv) = open("layout.html").await;
        let t = tree_of(&page).await;
        let b1 = must(&t, Role::Button, "Visible");
        let r = b1.bounds.unwrap();
        assert!((r.x - 10.0).abs() < 1.0 && (r.y - 20.0).abs() < 1.0 && (r.w - 100.0).abs() < 1.0, "{r:?}");
        assert!(!b1.states.contains(State::Offscreen) && !b1.states.contains(State::Obscured));
        assert!(must(&t, Role::Button, "Covered").states.contains(State::Obscured));
        let far = must(&t, Role::Button, "Far below");
        assert!(far.states.contains(State::Offscreen) && !far.states.contains(State::Obscured));
        // Scrollable: overflow auto with content larger than the box; not a box whose content
        // fits, not one that clips (overflow hidden), not the text inside.
        assert!(must(&t, Role::Region, "Overflows").actions.contains(Action::Scroll));
        let fits = must(&t, Role::Region, "Fits");
        assert!(!fits.actions.contains(Action::Scroll), "{:?}", fits.actions);
        assert!(!must(&t, Role::Region, "Clipped").actions.contains(Action::Scroll));
        assert!(t
            .preorder()
            .map(|(id, _)| t.node(id))
            .filter(|n| n.role == Role::Text)
            .all(|n| !n.actions.contains(Action::Scroll)));
        // The page root can scroll; after scrolling, bounds follow the viewport.
        assert!(t.node(t.root().unwrap()).actions.contains(Action::Scroll));
        let sy = page.eval("window.scrollTo(0, 2900); window.scrollY").await.unwrap().as_f64().unwrap();
        assert!(sy > 2000.0, "{sy}");
        let t = tree_of(&page).await;
        let far = must(&t, Role::Button, "Far below");
        assert!((far.bounds.unwrap().y - (3000.0 - sy)).abs() < 1.0, "{:?} at scroll {sy}", far.bounds);
        assert!(!far.states.contains(State::Offscreen));
        assert!(must(&t, Role::Button, "Visible").states.contains(State::Offscreen));
        // The marks the capture set are gone from the page.
        let marks = page
            .eval("document.querySelectorAll('[data-axsnap-cover],[data-axsnap-scroll],[data-axsnap-scroll-checked]').length")
            .await
            .unwrap();
        assert_eq!(marks, 0);
        page.close().await.unwrap();
    })
}

#[test]
fn virtualized_list_shows_the_rendered_rows() {
    run(async {
        let (page, _srv) = open("virtual.html").await;
        let t = tree_of(&page).await;
        assert!(has_name(&t, "Row 0") && has_name(&t, "Row 9") && !has_name(&t, "Row 10"));
        assert!(must(&t, Role::List, "Rows").actions.contains(Action::Scroll));
        page.eval("const v = document.getElementById('vp'); v.scrollTop = 4000; v.dispatchEvent(new Event('scroll')); 1")
            .await
            .unwrap();
        let t = tree_of(&page).await;
        assert!(has_name(&t, "Row 100") && !has_name(&t, "Row 0"));
        page.close().await.unwrap();
    })
}

#[test]
fn dynamic_updates_show_in_the_next_capture() {
    run(async {
        let (page, _srv) = open("change.html").await;
        let t = tree_of(&page).await;
        assert!(!has_name(&t, "added later"));
        page.eval(
            "const li = document.createElement('li'); li.textContent = 'added later'; \
             document.getElementById('list').appendChild(li); \
             document.getElementById('btn').textContent = 'Renamed'; 1",
        )
        .await
        .unwrap();
        let t = tree_of(&page).await;
        assert!(has_name(&t, "added later"));
        must(&t, Role::Button, "Renamed");
        page.close().await.unwrap();
    })
}

#[test]
fn a_busy_page_gives_a_partial_tree_then_recovers() {
    run(async {
        let (page, _srv) = open("index.html").await;
        // Block the renderer for 4 s.
        page.eval("setTimeout(() => { const t = Date.now(); while (Date.now() - t < 4000) {} }, 0); 1")
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t0 = Instant::now();
        let out = capture(&page, Duration::from_millis(800)).await.unwrap();
        assert!(t0.elapsed() < Duration::from_secs(3), "deadline not kept: {:?}", t0.elapsed());
        let why = out.capture.partial.expect("a partial capture");
        assert!(why.contains("did not"), "{why}");
        tokio::time::sleep(Duration::from_secs(4)).await;
        let t = tree_of(&page).await;
        must(&t, Role::Heading, "Fixture index");
        page.close().await.unwrap();
    })
}

/// The tree a capture falls back to when the accessibility tree misses its deadline: built
/// from the DOM snapshot, with the native ids a full capture gives (so refs survive the next
/// full capture), real roles and names, and no password value.
#[test]
fn dom_fallback_matches_the_full_capture_where_it_counts() {
    run(async {
        let (page, _srv) = open("forms.html").await;
        page.eval("document.getElementById('pw').value = 'typed-SECRET-42'; 1").await.unwrap();
        let full = tree_of(&page).await;
        let out =
            capture_with(&page, DEADLINE, &CaptureOptions { dom_only: true, ..CaptureOptions::default() })
                .await
                .unwrap();
        let why = out.capture.partial.clone().expect("a DOM-only capture is partial");
        assert!(why.contains("DOM snapshot"), "{why}");
        let dom = &out.capture.tree;
        assert!(out.stats.dom_nodes > 40, "{:?}", out.stats);
        assert_eq!(out.capture.header.title.as_deref(), Some("Forms"));
        let pairs = [
            (Role::Heading, "Every input type"),
            (Role::Form, "Sign up"),
            (Role::TextBox, "Text"),
            (Role::SearchBox, "Search"),
            (Role::TextBox, "Email"),
            (Role::SpinButton, "Number"),
            (Role::Slider, "Range"),
            (Role::CheckBox, "Subscribe"),
            (Role::Radio, "Large"),
            (Role::ComboBox, "Country"),
            (Role::ListBox, "Many"),
            (Role::TextBox, "Notes"),
            (Role::TextBox, "Password"),
            (Role::Button, "Send"),
            (Role::Button, "Bold"),
            (Role::Button, "Go"),
        ];
        for (role, name) in pairs {
            let (a, b) = (must(&full, role.clone(), name), must(dom, role.clone(), name));
            assert_eq!(a.native, b.native, "{role} {name:?}: native ids differ");
            assert_eq!(a.dev_id, b.dev_id, "{role} {name:?}");
            assert_eq!(a.actions, b.actions, "{role} {name:?}");
            assert!(b.bounds.is_some_and(|r| r.w > 0.0), "{role} {name:?} has no bounds");
        }
        let text = must(dom, Role::TextBox, "Text");
        assert_eq!(text.value.as_deref(), Some("hello"));
        assert!(must(dom, Role::CheckBox, "Subscribe").states.contains(State::Checked));
        assert!(must(dom, Role::Radio, "Large").states.contains(State::Checked));
        assert!(!must(dom, Role::Radio, "Small").states.contains(State::Checked));
        let country = must(dom, Role::ComboBox, "Country");
        assert_eq!(country.value.as_deref(), Some("Spain"));
        assert_eq!(country.options, must(&full, Role::ComboBox, "Country").options);
        assert!(must(dom, Role::Button, "Bold").states.contains(State::Pressed));
        assert!(must(dom, Role::TextBox, "Readonly").states.contains(State::Readonly));
        assert!(must(dom, Role::TextBox, "Disabled").states.contains(State::Disabled));
        let pw = must(dom, Role::TextBox, "Password");
        // That it holds something is said as the full capture says it, never what.
        assert!(pw.states.contains(State::Protected), "{pw:?}");
        assert_eq!(pw.value.as_deref(), Some(axsnap_core::secret::REDACTED));
        assert_eq!(pw.value, must(&full, Role::TextBox, "Password").value);
        let all = dump(dom);
        assert!(!all.contains("SECRET") && !all.contains("hunter2"), "a password leaked into the DOM tree");
        assert!(!all.contains("hidden-value"), "a hidden input showed");
        // Every node of the DOM tree names an element the full capture knows too (a space
        // between two inline boxes aside: the accessibility tree drops some that separate
        // nothing on screen, which changes nothing an agent reads).
        let known: HashSet<_> = full.preorder().map(|(id, _)| full.node(id).native.clone()).collect();
        let foreign: Vec<_> = dom
            .preorder()
            .map(|(id, _)| dom.node(id))
            .filter(|n| !(n.role == Role::Text && n.name.trim().is_empty()))
            .filter(|n| !known.contains(&n.native))
            .map(|n| format!("{} {:?} {}", n.role, n.name, n.native.id))
            .collect();
        assert!(foreign.is_empty(), "not in the full capture: {foreign:?}");
        page.close().await.unwrap();
    })
}

#[test]
fn dom_fallback_includes_shadow_roots() {
    run(async {
        let (page, _srv) = open("shadow.html").await;
        let out =
            capture_with(&page, DEADLINE, &CaptureOptions { dom_only: true, ..CaptureOptions::default() })
                .await
                .unwrap();
        let t = &out.capture.tree;
        assert_eq!(must(t, Role::Button, "Shadow button").dev_id.as_deref(), Some("shadow-btn"));
        must(t, Role::TextBox, "Shadow input");
        must(t, Role::Button, "Declarative button");
        page.close().await.unwrap();
    })
}

/// CSS generated content (`::before`, `::after`) is text the page shows: the tree built from
/// the DOM snapshot has it where the full capture has it, in drawing order (the snapshot lists
/// an `::after` before its element's own text), and list markers are left out of both alike.
#[test]
fn dom_fallback_reads_generated_content_in_order() {
    run(async {
        let (page, _srv) = open("generated.html").await;
        let full = tree_of(&page).await;
        let out =
            capture_with(&page, DEADLINE, &CaptureOptions { dom_only: true, ..CaptureOptions::default() })
                .await
                .unwrap();
        let dom = &out.capture.tree;
        // Text of a tree in document order, the words joined by single spaces.
        let words = |t: &Tree| {
            let texts: Vec<String> = t
                .preorder()
                .map(|(id, _)| t.node(id))
                .filter(|n| n.role == Role::Text || n.role == Role::TextRun)
                .map(|n| n.name.clone())
                .collect();
            texts.join(" ").split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let (f, d) = (words(&full), words(dom));
        for shown in ["Collapse", "Unstable API (nightly)", "First item"] {
            assert!(d.contains(shown), "{shown:?} in the DOM-built tree:\n{}", dump(dom));
        }
        assert!(!d.contains("* First"), "a list marker is not text: {d}");
        assert_eq!(d.contains("Collapse"), f.contains("Collapse"), "full: {f}\ndom: {d}");
        page.close().await.unwrap();
    })
}

/// A Lumino menu (JupyterLab, Notebook 7; `lumino_menu.html` has its real structure): the
/// submenu openers are `li tabindex="0" aria-haspopup="true"` with no role, which Chromium
/// drops from its tree (a table row in a menu) or ignores. They come back as menu items named
/// by their label, over their own cells, with the element's native id: a click on one opens
/// its submenu.
#[test]
fn a_menu_opener_without_a_role_is_a_menu_item() {
    run(async {
        let (page, _srv) = open("lumino_menu.html").await;
        let t = tree_of(&page).await;
        let new = must(&t, Role::MenuItem, "New");
        for a in [Action::Click, Action::Expand, Action::Focus] {
            assert!(new.actions.contains(a), "{a:?} on {new:?}");
        }
        assert!(new.states.contains(State::Focusable));
        let stats = capture(&page, DEADLINE).await.unwrap().stats;
        assert_eq!(stats.restored_targets, 3, "New, Open Recent, Share: {stats:?}");
        // Its label is inside it, not loose in the menu beside it.
        let new_id = t.preorder().map(|(id, _)| id).find(|&id| std::ptr::eq(t.node(id), new)).unwrap();
        let label = t.preorder().map(|(id, _)| id).find(|&id| {
            let n = t.node(id);
            n.role == Role::Text && n.name == "New"
        });
        let label = label.expect("the label's text");
        assert!(t.ancestors(label).any(|a| a == new_id), "the label sits under its item:\n{}", dump(&t));
        must(&t, Role::MenuItem, "Open Recent");
        must(&t, Role::MenuItem, "Open…");
        must(&t, Role::MenuItem, "Save Ctrl+S");
        // Outside a table layout Chromium keeps the opener, ignored: it is an item too.
        must(&t, Role::MenuItem, "Share");
        // The focusable separator holds no text: it stays out.
        let unnamed = t.preorder().filter(|(id, _)| {
            let n = t.node(*id);
            n.role == Role::MenuItem && n.name.is_empty()
        });
        assert_eq!(unnamed.count(), 0, "{}", dump(&t));
        // The restored item's native id is the element's: acting on it opens the submenu.
        let opener = act_support::native(&page, "document.getElementById('new')").await;
        assert_eq!(new.native, opener);
        axsnap_cdp::act(&page, &new.native, &axsnap_core::backend::ElementAction::Click { count: 1 })
            .await
            .unwrap();
        let after = tree_of(&page).await;
        must(&after, Role::MenuItem, "Notebook");
        // The tree built from the DOM snapshot alone (a page too large for the AX tree) says
        // the same of the opener.
        let out =
            capture_with(&page, DEADLINE, &CaptureOptions { dom_only: true, ..CaptureOptions::default() })
                .await
                .unwrap();
        let dom = &out.capture.tree;
        let opener = must(dom, Role::MenuItem, "New");
        assert!(opener.actions.contains(Action::Click) && opener.states.contains(State::Focusable));
        must(dom, Role::MenuItem, "Open Recent");
        page.close().await.unwrap();
    })
}

/// A page too large to capture in time is shown from its skeleton: the elements a first answer
/// needs, with the native ids a full capture gives them (so their refs live on), their roles,
/// names and states, and no value at all (a password's least of all).
#[test]
fn skeleton_fallback_keeps_the_full_captures_ids_and_leaks_nothing() {
    run(async {
        let (page, _srv) = open("forms.html").await;
        page.eval("document.getElementById('pw').value = 'typed-SECRET-42'; 1").await.unwrap();
        let full = tree_of(&page).await;
        let opts = CaptureOptions { skeleton_only: true, ..CaptureOptions::default() };
        let out = capture_with(&page, DEADLINE, &opts).await.unwrap();
        let why = out.capture.partial.clone().expect("a skeleton is partial");
        assert!(why.contains("skeleton was read instead"), "{why}");
        assert_eq!(out.capture.header.title.as_deref(), Some("Forms"));
        let sk = &out.capture.tree;
        let pairs = [
            (Role::Heading, "Every input type"),
            (Role::Form, "Sign up"),
            (Role::TextBox, "Text"),
            (Role::SearchBox, "Search"),
            (Role::SpinButton, "Number"),
            (Role::Slider, "Range"),
            (Role::CheckBox, "Subscribe"),
            (Role::Radio, "Large"),
            (Role::ComboBox, "Country"),
            (Role::TextBox, "Password"),
            (Role::Button, "Send"),
            (Role::Button, "Go"),
        ];
        for (role, name) in pairs {
            let (a, b) = (must(&full, role.clone(), name), must(sk, role.clone(), name));
            assert_eq!(a.native, b.native, "{role} {name:?}: native ids differ");
            assert!(b.bounds.is_some_and(|r| r.w > 0.0), "{role} {name:?} has no bounds");
            if !matches!(role, Role::Heading | Role::Form) {
                assert_eq!(
                    a.actions.contains(Action::Click),
                    b.actions.contains(Action::Click),
                    "{role} {name:?}"
                );
                assert_eq!(
                    a.actions.contains(Action::SetValue),
                    b.actions.contains(Action::SetValue),
                    "{role} {name:?}"
                );
            }
        }
        must(sk, Role::ListBox, "Many");
        assert!(must(sk, Role::CheckBox, "Subscribe").states.contains(State::Checked));
        assert!(!must(sk, Role::Radio, "Small").states.contains(State::Checked));
        assert!(must(sk, Role::TextBox, "Disabled").states.contains(State::Disabled));
        let all = dump(sk);
        assert!(!all.contains("SECRET") && !all.contains("hunter2"), "a password leaked into the skeleton");
        // Every element node of the skeleton is one the full capture knows (text children
        // aside, which carry their block's id).
        let known: HashSet<_> = full.preorder().map(|(id, _)| full.node(id).native.clone()).collect();
        let foreign: Vec<_> = sk
            .preorder()
            .map(|(id, _)| sk.node(id))
            .filter(|n| n.role != Role::Text && n.native.id != "root" && !known.contains(&n.native))
            .map(|n| format!("{} {:?} {}", n.role, n.name, n.native.id))
            .collect();
        assert!(foreign.is_empty(), "not in the full capture: {foreign:?}");
        page.close().await.unwrap();
    })
}

/// The skeleton reads open shadow roots, and never text masked as a password's.
#[test]
fn skeleton_reads_shadow_roots_and_no_masked_text() {
    run(async {
        let (page, _srv) = open("shadow.html").await;
        page.eval(
            "const p = document.createElement('p'); p.id = 'masked-p'; \
             p.innerHTML = 'Code: <span style=\"-webkit-text-security: disc\">MASKED-SECRET-7</span> ok'; \
             document.body.prepend(p); 1",
        )
        .await
        .unwrap();
        let opts = CaptureOptions { skeleton_only: true, ..CaptureOptions::default() };
        let out = capture_with(&page, DEADLINE, &opts).await.unwrap();
        let t = &out.capture.tree;
        must(t, Role::Button, "Shadow button");
        must(t, Role::Button, "Declarative button");
        let all = dump(t);
        assert!(all.contains("Code:") && all.contains("ok"), "the paragraph's text is missing: {all}");
        assert!(!all.contains("MASKED-SECRET"), "masked text leaked: {all}");
        page.close().await.unwrap();
    })
}

/// A page nested past the HTML parser's limit (lists 300 deep, 900 elements: under the line
/// where a document is built from its snapshot by design) is built from its DOM snapshot
/// without asking for the accessibility tree, and says why; 1,000 lists deep (3,000 elements,
/// no ARIA, where `getFullAXTree` takes about 18 s) reads as a document and is built from the
/// snapshot whole; one nested 280 elements deep (140 lists) takes its snapshot first and still
/// gets the full tree.
#[test]
fn deep_pages_plan_by_their_depth() {
    run(async {
        let (page, _srv) = open("deep_lists.html?levels=300").await;
        let start = Instant::now();
        let out = capture_with(&page, DEADLINE, &CaptureOptions::default()).await.unwrap();
        let took = start.elapsed();
        let why = out.capture.partial.clone().expect("a DOM-built capture is partial");
        assert!(why.contains("nests elements 512 levels deep or more"), "{why}");
        let t = &out.capture.tree;
        must(t, Role::Heading, "Deep lists");
        must(t, Role::Button, "After");
        must(t, Role::Link, "item 299");
        assert_eq!(out.stats.ax_nodes, 0, "the accessibility tree was asked for");
        // Not a speed check: the renderer was never kept busy by a call that takes minutes.
        assert!(took < DEADLINE, "{took:?}");
        page.close().await.unwrap();

        let (page, _srv) = open("deep_lists.html?levels=1000").await;
        let out = capture_with(&page, DEADLINE, &CaptureOptions::default()).await.unwrap();
        assert!(
            out.capture.partial.is_none(),
            "a document built by design is whole: {:?}",
            out.capture.partial
        );
        assert_eq!(out.stats.ax_nodes, 0, "the accessibility tree was asked for");
        must(&out.capture.tree, Role::Link, "item 999");
        page.close().await.unwrap();

        let (page, _srv) = open("deep_lists.html?levels=140").await;
        let out = capture_with(&page, DEADLINE, &CaptureOptions::default()).await.unwrap();
        assert!(out.capture.partial.is_none(), "{:?}", out.capture.partial);
        assert!(out.stats.ax_nodes > 0);
        must(&out.capture.tree, Role::Link, "item 139");
        page.close().await.unwrap();
    })
}

#[test]
fn ranged_controls_carry_their_bounds_on_both_capture_paths() {
    run(async {
        let (page, _srv) = open("ranges.html").await;
        let ax = tree_of(&page).await;
        let dom =
            capture_with(&page, DEADLINE, &CaptureOptions { dom_only: true, ..CaptureOptions::default() })
                .await
                .unwrap()
                .capture
                .tree;
        let range = |min: f64, max: f64, step: Option<f64>| ValueRange::new(min, max, step);
        let cases = [
            (Role::Slider, "Volume", range(0.0, 10.0, Some(0.5))),
            (Role::Slider, "Balance", range(0.0, 100.0, None)),
            (Role::SpinButton, "Guests", range(1.0, 12.0, None)),
            (Role::SpinButton, "Free count", None),
            (Role::Slider, "Zoom", range(0.0, 100.0, None)),
            (Role::SpinButton, "Seats", range(1.0, 9.0, None)),
            (Role::ProgressBar, "Upload", range(0.0, 200.0, None)),
            (Role::Meter, "Fuel", range(0.0, 1.0, None)),
        ];
        for (t, path) in [(&ax, "accessibility tree"), (&dom, "DOM")] {
            for (role, name, want) in &cases {
                let n = must(t, role.clone(), name);
                assert_eq!(n.range, *want, "{name} from the {path}");
            }
        }
        page.close().await.unwrap();
    })
}
