//! The desktop layer over a recording of a real app (fixtures/desktop: gtk3-widget-factory and
//! a GTK login form, recorded over AT-SPI): window ids, the change signal, transitions, edits
//! and their refusals, window operations with their waits, and launching. Everything above a
//! platform's calls, on any machine.

use std::path::PathBuf;
use std::time::Duration;

use axsnap_core::backend::{Backend, ElementAction, Refusal};
use axsnap_core::{NativeId, Role, State, TargetId};
use axsnap_desktop::{DesktopBackend, DesktopError, RecordedPlatform, WindowOp};

const DEADLINE: Duration = Duration::from_secs(5);

fn recording() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/desktop/widget-factory.json")
}

fn desktop() -> DesktopBackend<RecordedPlatform> {
    DesktopBackend::new(RecordedPlatform::open(&recording()).expect("the recording"))
}

fn w(id: &str) -> TargetId {
    TargetId(id.into())
}

/// The native id of the first node of `role` named `name` in `target`'s capture.
async fn native(
    d: &mut DesktopBackend<RecordedPlatform>,
    target: &TargetId,
    role: Role,
    name: &str,
) -> NativeId {
    let c = d.capture(target, DEADLINE).await.expect("a capture");
    let t = &c.tree;
    let id = t.preorder().map(|(id, _)| id).find(|id| t.node(*id).role == role && t.node(*id).name == name);
    t.node(id.unwrap_or_else(|| panic!("no {role} {name:?}"))).native.clone()
}

#[tokio::test]
async fn windows_get_ids_that_last_and_a_capture_is_reused_until_something_changes() {
    let mut d = desktop();
    let listed = d.listing().await.unwrap();
    assert_eq!(listed.windows.len(), 1, "{listed:?}");
    assert_eq!(
        (listed.windows[0].id.as_str(), listed.windows[0].app.as_str()),
        ("w1", "gtk3-widget-factory")
    );
    assert!(listed.windows[0].active);
    let c = d.capture(&w("w1"), DEADLINE).await.unwrap();
    assert_eq!(c.header.title.as_deref(), Some("gtk3-widget-factory"));
    assert!(!d.changed(&w("w1")).await.unwrap(), "nothing happened since the capture");
    // An unknown id is said as such.
    assert!(matches!(d.capture(&w("w9"), DEADLINE).await, Err(DesktopError::NoSuchTarget(_))));
    assert_eq!(d.window("gtk3", None).await.unwrap(), w("w1"));
}

#[tokio::test]
async fn an_action_that_opens_a_window_says_so_and_one_that_closes_its_window_says_that() {
    let mut d = desktop();
    d.listing().await.unwrap();
    let menu = native(&mut d, &w("w1"), Role::Button, "Menu").await;
    let o = d.act(&w("w1"), &menu, &ElementAction::Click { count: 1 }).await.unwrap();
    assert!(o.settled && o.opened.is_empty() && !o.closed, "{o:?}");
    assert!(d.changed(&w("w1")).await.unwrap(), "the menu opened");
    let about = native(&mut d, &w("w1"), Role::Button, "About Widget Factory").await;
    let o = d.act(&w("w1"), &about, &ElementAction::Click { count: 1 }).await.unwrap();
    assert_eq!(o.opened, [w("w2")], "{o:?}");
    let windows = d.windows().await.unwrap();
    assert!(windows.iter().any(|x| x.id == "w2" && x.role == "dialog" && x.active), "{windows:?}");
    let close = native(&mut d, &w("w2"), Role::Button, "Close").await;
    let o = d.act(&w("w2"), &close, &ElementAction::Click { count: 1 }).await.unwrap();
    assert!(o.closed && o.opened.is_empty(), "{o:?}");
    let windows = d.windows().await.unwrap();
    assert_eq!(windows.iter().map(|x| (x.id.as_str(), x.active)).collect::<Vec<_>>(), [("w1", true)]);
    // The closed window's id names nothing to capture now.
    assert!(matches!(d.capture(&w("w2"), DEADLINE).await, Err(DesktopError::Gone(_))));
}

#[tokio::test]
async fn edits_land_and_refusals_are_the_platforms() {
    let mut d = desktop();
    d.listing().await.unwrap();
    let c = d.capture(&w("w1"), DEADLINE).await.unwrap();
    let t = &c.tree;
    let find = |pred: &dyn Fn(&axsnap_core::Node) -> bool| {
        let id = t.preorder().map(|(id, _)| id).find(|id| pred(t.node(*id))).expect("a node");
        t.node(id).native.clone()
    };
    let entry = find(&|n| {
        n.role == Role::TextBox && n.value.as_deref() == Some("entry") && !n.states.contains(State::Disabled)
    });
    let disabled = find(&|n| n.role == Role::CheckBox && n.states.contains(State::Disabled));
    let check = find(&|n| {
        n.role == Role::CheckBox
            && !n.states.contains(State::Disabled)
            && !n.states.contains(State::Mixed)
            && !n.states.contains(State::Checked)
    });
    let button = find(&|n| n.role == Role::Button && n.name == "Minimize");

    d.act(&w("w1"), &entry, &ElementAction::Type { text: "typed".into(), clear: true, submit: false })
        .await
        .unwrap();
    d.act(&w("w1"), &check, &ElementAction::Check { on: true }).await.unwrap();
    let c = d.capture(&w("w1"), DEADLINE).await.unwrap();
    let node = |n: &NativeId| {
        c.tree
            .preorder()
            .map(|(id, _)| c.tree.node(id))
            .find(|x| x.native == *n)
            .expect("still there")
            .clone()
    };
    assert_eq!(node(&entry).value.as_deref(), Some("typed"));
    assert!(node(&check).states.contains(State::Checked));

    let refusal = |r: Result<_, DesktopError>| r.err().and_then(|e| e.refusal());
    let typed = ElementAction::Type { text: "x".into(), clear: false, submit: false };
    assert_eq!(refusal(d.act(&w("w1"), &button, &typed).await), Some(Refusal::NotATextField));
    assert_eq!(
        refusal(d.act(&w("w1"), &disabled, &ElementAction::Click { count: 1 }).await),
        Some(Refusal::Disabled)
    );
    let gone = NativeId::new(":1.1", "/no/such/object");
    assert_eq!(
        refusal(d.act(&w("w1"), &gone, &ElementAction::Click { count: 1 }).await),
        Some(Refusal::Gone)
    );
    let e = d
        .act_on_target(&w("w1"), &axsnap_core::backend::TargetAction::Press { keys: "Hyper+x".into() })
        .await;
    assert_eq!(refusal(e), Some(Refusal::BadKey));
}

#[tokio::test]
async fn launching_shows_the_apps_window_and_window_requests_wait_until_they_hold() {
    let mut d = desktop();
    let launched = d.launch("/usr/bin/python3", &["login.py".into()], Duration::from_secs(5)).await.unwrap();
    assert_eq!((launched.app.as_str(), launched.title.as_str()), ("login.py", "Log in"));
    let login = launched.window;
    let e = d.launch("gedit", &[], Duration::from_secs(1)).await.unwrap_err();
    assert!(e.to_string().contains("launches only /usr/bin/python3"), "{e}");

    let c = d.manage(&login, WindowOp::Move { x: 120, y: 80 }).await.unwrap();
    assert_eq!((c.before.x, c.before.y), (502, 450));
    assert_eq!(c.after.map(|f| (f.x, f.y)), Some((120, 80)));
    assert_eq!(c.window_manager.as_deref(), Some("Openbox (recorded)"));
    let c = d.manage(&login, WindowOp::Resize { width: 420, height: 260 }).await.unwrap();
    assert_eq!(c.after.map(|f| (f.width, f.height)), Some((420, 260)));
    // Below the app's minimum: bent to it, then refused naming the limit.
    let c = d.manage(&login, WindowOp::Resize { width: 50, height: 40 }).await.unwrap();
    assert_eq!(c.after.map(|f| (f.width, f.height)), Some((276, 138)));
    let e = d.manage(&login, WindowOp::Resize { width: 50, height: 40 }).await.unwrap_err();
    assert!(
        matches!(e, DesktopError::NotApplied(_)) && e.to_string().contains("no size below 276×138"),
        "{e}"
    );
    let c = d.manage(&login, WindowOp::Maximize).await.unwrap();
    assert!(c.after.is_some_and(|f| f.maximized && f.width == 1280));
    assert!(d.manage(&login, WindowOp::Maximize).await.unwrap().already);
    let c = d.manage(&login, WindowOp::Restore).await.unwrap();
    assert_eq!(c.after.map(|f| (f.width, f.height, f.maximized)), Some((276, 138, false)));
    let c = d.manage(&login, WindowOp::Minimize).await.unwrap();
    assert!(c.after.is_some_and(|f| f.minimized && !f.active), "{c:?}");
    let c = d.manage(&login, WindowOp::Focus).await.unwrap();
    assert!(c.after.is_some_and(|f| f.active && !f.minimized), "{c:?}");
    let c = d.manage(&login, WindowOp::Close).await.unwrap();
    assert!(c.closed && c.after.is_none(), "{c:?}");
    assert!(matches!(d.manage(&login, WindowOp::Focus).await, Err(DesktopError::Gone(_))));
}

#[test]
fn a_recording_that_is_wrong_says_where() {
    let dir = std::path::Path::new(".");
    let e = axsnap_desktop::Recording::parse(r#"{"format": "axsnap-tree", "version": 1, "apps": []}"#, dir)
        .unwrap_err();
    assert!(e.contains("not a recording"), "{e}");
    let e = axsnap_desktop::Recording::parse(
        r#"{"format": "axsnap-desktop-recording", "version": 1, "apps": [],
            "transitions": [{"window": "nope", "keys": "Escape"}]}"#,
        dir,
    )
    .unwrap_err();
    assert!(e.contains("transition 0") && e.contains("no window \"nope\""), "{e}");
    let e = axsnap_desktop::Recording::parse(
        r#"{"format": "axsnap-desktop-recording", "version": 1, "apps": [], "extra": 1}"#,
        dir,
    )
    .unwrap_err();
    assert!(e.contains("extra"), "{e}");
}
