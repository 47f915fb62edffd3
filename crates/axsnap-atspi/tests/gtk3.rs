//! gtk3-widget-factory through the desktop backend, under a private desktop session: what a
//! snapshot names, and the exact diff each action gives.
#![cfg(target_os = "linux")]

mod common;

use axsnap_core::backend::{Backend, ElementAction};
use axsnap_core::session::Response;
use axsnap_core::State;
use common::desktop::Desktop;
use common::driver::{is_diff, pick, Driver};

/// The diff's lines after its header.
fn body(r: &Response) -> String {
    assert!(is_diff(r), "not a diff:\n{}", r.text);
    r.text.lines().skip(1).collect::<Vec<_>>().join("\n")
}

/// The tests of this file run one at a time: each starts a desktop and an app, and three at
/// once on a two-core machine made apps miss their window's deadline.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn factory() -> (Desktop, common::desktop::App, Driver) {
    let desktop = Desktop::start().expect("a desktop session");
    let app = desktop.spawn("gtk3-widget-factory", &[]).expect("gtk3-widget-factory");
    let driver = Driver::start(&desktop, "gtk3-widget-factory").await;
    (desktop, app, driver)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_names_check_buttons_radio_buttons_and_notebook_pages() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_desktop, _app, mut d) = factory().await;
    let first = d.snapshot().await;
    let text = &first.text;
    assert!(first.partial.is_none(), "{:?}", first.partial);
    assert_eq!(text.matches("checkbox \"checkbutton\"").count(), 6, "{text}");
    assert_eq!(text.matches("radio \"radiobutton\"").count(), 6, "{text}");
    for page in ["page 1", "page 2", "page 3"] {
        assert!(text.contains(&format!("tab \"{page}\"")), "{text}");
    }
    assert!(text.contains("tab \"page 1\"") && text.contains("[selected]"), "{text}");
    // States as the app shows them: one of each kind checked, mixed and disabled.
    assert!(
        text.contains("checkbox \"checkbutton\" [")
            && text.contains("[mixed]")
            && text.contains("[disabled]")
    );
    assert!(text.contains("textbox") && text.contains(": entry"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_action_gives_its_exact_diff() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_desktop, _app, mut d) = factory().await;
    let first = d.snapshot().await;

    // Toggle a check button.
    let cb = pick(&first, "checkbox", |n| {
        n.name == "checkbutton" && !n.states.contains(State::Checked) && !n.states.contains(State::Mixed)
    });
    let r = d.act(&cb, ElementAction::Check { on: true }).await;
    assert_eq!(body(&r), format!("~ {cb} checkbox \"checkbutton\": +checked"));
    let r = d.act(&cb, ElementAction::Check { on: false }).await;
    assert_eq!(body(&r), format!("~ {cb} checkbox \"checkbutton\": -checked"));

    // Type into an entry (replacing its text): it takes the focus, as typing by hand does,
    // from the entry that had it.
    let focused = pick(&first, "textbox", |n| n.states.contains(State::Focused));
    let entry = pick(&first, "textbox", |n| n.value.as_deref() == Some("entry"));
    let r = d.act(&entry, ElementAction::Type { text: "hello".into(), clear: true, submit: false }).await;
    assert_eq!(
        body(&r),
        format!("~ {focused} textbox: -focused\n~ {entry} textbox: value \"entry\" -> \"hello\"; +focused")
    );

    // Switch a notebook page: the first notebook's tabs swap selection, and focus goes from
    // the entry that had it to the tab list.
    let page2 = pick(&first, "tab", |n| n.name == "page 2");
    let tree = &first.snapshot.tree;
    let page2_id = tree
        .preorder()
        .map(|(id, _)| id)
        .find(|id| tree.node(*id).ref_id.map(|r| r.to_string()) == Some(page2.clone()));
    let tabs = tree.node(tree.node(page2_id.expect("the tab")).parent.expect("its tab list"));
    let tablist = tabs.ref_id.expect("a ref").to_string();
    let page1 = tree.node(tabs.children[0]).ref_id.expect("a ref").to_string();
    let focused = pick(&r, "textbox", |n| n.states.contains(State::Focused));
    let r = d.act(&page2, ElementAction::Click { count: 1 }).await;
    assert_eq!(
        body(&r),
        [
            format!("~ {focused} textbox: -focused"),
            format!("~ {tablist} tablist: +focused"),
            format!("~ {page1} tab \"page 1\": -selected"),
            format!("~ {page2} tab \"page 2\": +selected"),
        ]
        .join("\n")
    );

    // Open the menu (a popover: a modal group added under the window), then close it with
    // Escape.
    let menu = d.find(&r, "button", "Menu");
    let window =
        r.snapshot.tree.root().and_then(|root| r.snapshot.tree.node(root).ref_id).expect("a ref").to_string();
    let r = d.act(&menu, ElementAction::Click { count: 1 }).await;
    let item = |name: &str, role: &str| d.find(&r, role, name);
    let expected = [
        format!("~ {menu} button \"Menu\": +pressed"),
        format!("~ {tablist} tablist: -focused"),
        format!("+ under {window}:"),
        "  generic [modal]".to_string(),
        format!("    button \"Get Busy\" [{}] [focused]", item("Get Busy", "button")),
        format!("    checkbox \"Dark Theme\" [{}]", item("Dark Theme", "checkbox")),
        format!("    checkbox \"Slide Pages\" [{}]", item("Slide Pages", "checkbox")),
        "    separator".to_string(),
        format!("    button \"Inspector\" [{}]", item("Inspector", "button")),
        format!("    button \"Keyboard Shortcuts\" [{}]", item("Keyboard Shortcuts", "button")),
        format!("    button \"About Widget Factory\" [{}]", item("About Widget Factory", "button")),
    ];
    assert_eq!(body(&r), expected.join("\n"));
    let r = d.act(&menu, ElementAction::Press { keys: "Escape".into() }).await;
    assert_eq!(
        body(&r),
        [
            format!("- generic with \"Get Busy\" in {window}"),
            format!("~ {menu} button \"Menu\": +focused -pressed")
        ]
        .join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unchanged_window_says_so_without_a_capture() {
    let _one = ONE_AT_A_TIME.lock().await;
    let (_desktop, _app, mut d) = factory().await;
    let mut first = d.snapshot().await;
    // Reading a window makes GTK create its accessible objects, with events: the second
    // capture is the one that reads a settled window.
    for _ in 0..3 {
        if !d.backend.changed(&d.target).await.expect("the change signal") {
            break;
        }
        first = d.snapshot().await;
    }
    assert!(!d.backend.changed(&d.target).await.expect("the change signal"), "nothing happened");
    // A change the app makes on its own (a focus move by key) is seen.
    let entry = pick(&first, "textbox", |n| n.value.as_deref() == Some("entry"));
    let native = d.session.resolve(&d.target, entry.parse().expect("a ref")).expect("live").clone();
    d.backend.act(&d.target, &native, &ElementAction::Focus).await.expect("focus");
    assert!(d.backend.changed(&d.target).await.expect("the change signal"), "focus moved");
    let r = d.snapshot().await;
    assert!(body(&r).contains(&format!("~ {entry} textbox: +focused")), "{}", r.text);
    assert!(!d.backend.changed(&d.target).await.expect("the change signal"));
}
