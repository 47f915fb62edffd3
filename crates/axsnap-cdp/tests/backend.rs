//! The backend as the agent layer uses it ([`CdpBackend`] through the core's [`Backend`] trait
//! and [`Session`]): JavaScript dialogs whoever opens them, `beforeunload`, a renderer crash
//! and a killed browser; each gives a clear answer, and the next call works.

mod common;

use std::time::{Duration, Instant};

use axsnap_cdp::{CdpBackend, CdpError, LaunchOptions};
use axsnap_core::backend::{Backend, ElementAction, TargetAction};
use axsnap_core::session::{ClientId, Policy, Request, Response, Session};
use axsnap_core::{Ref, Role, TargetId};
use common::{launch_browser, run, Server};
use serde_json::json;

const DEADLINE: Duration = Duration::from_secs(10);

struct Fixture {
    backend: CdpBackend,
    session: Session,
    tab: TargetId,
    _srv: Server,
}

impl Fixture {
    async fn open(path: &str) -> Fixture {
        Fixture::open_in(CdpBackend::with_browser(launch_browser().await).await, path).await
    }

    async fn open_in(mut backend: CdpBackend, path: &str) -> Fixture {
        let srv = Server::pages();
        let tab = backend.open_target(&srv.url(path)).await.unwrap();
        Fixture { backend, session: Session::new(Policy::default()), tab, _srv: srv }
    }

    async fn snapshot(&mut self) -> Response {
        self.snapshot_within(DEADLINE).await
    }

    /// A snapshot that must come within `limit` (a blocked page must not be waited on).
    async fn snapshot_within(&mut self, limit: Duration) -> Response {
        let t0 = Instant::now();
        let cap = self.backend.capture(&self.tab, DEADLINE).await.unwrap();
        assert!(t0.elapsed() < limit, "capture took {:?}", t0.elapsed());
        self.session.snapshot(&ClientId("t".into()), &cap, &Request::default(), Instant::now()).unwrap()
    }

    fn ref_of(&self, r: &Response, role: Role, name: &str) -> Ref {
        let t = &r.snapshot.tree;
        t.preorder()
            .map(|(id, _)| t.node(id))
            .find(|n| n.role == role && n.name == name)
            .and_then(|n| n.ref_id)
            .unwrap_or_else(|| panic!("no {role:?} {name:?} in\n{}", r.text))
    }

    async fn act(
        &mut self,
        r: Ref,
        action: ElementAction,
    ) -> Result<axsnap_core::backend::Outcome, CdpError> {
        let native = self.session.resolve(&self.tab, r).unwrap().clone();
        self.backend.act(&self.tab, &native, &action).await
    }

    async fn on_tab(&mut self, action: TargetAction) -> Result<axsnap_core::backend::Outcome, CdpError> {
        self.backend.act_on_target(&self.tab, &action).await
    }

    async fn eval(&mut self, expr: &str) -> serde_json::Value {
        self.backend.page(&self.tab).await.unwrap().eval(expr).await.unwrap()
    }
}

#[test]
fn a_dialog_the_page_opens_by_itself_is_shown_blocks_actions_and_can_be_answered() {
    run(async {
        let mut f = Fixture::open("act/leave.html").await;
        let first = f.snapshot().await;
        let save = f.ref_of(&first, Role::Button, "Save");
        f.eval("later('confirm'); 1").await;
        tokio::time::sleep(Duration::from_millis(600)).await;

        // The snapshot answers at once with the dialog, and says the page below is not shown.
        let r = f.snapshot_within(Duration::from_secs(2)).await;
        assert!(
            r.text.contains("# partial capture: a JavaScript confirm dialog blocks the page"),
            "{}",
            r.text
        );
        assert!(r.text.contains("alertdialog \"Leave the draft?\""), "{}", r.text);
        assert!(!r.text.contains("Save"), "the page below is not captured: {}", r.text);
        assert!(f.backend.changed(&f.tab).await.unwrap(), "a blocked page always reads as changed");

        // Acting on the page is refused with what to do; the button's ref is still live.
        let e = f.act(save, ElementAction::Click { count: 1 }).await.unwrap_err();
        assert!(matches!(e, CdpError::DialogOpen { .. }), "{e}");
        assert!(e.to_string().contains("accept or dismiss it first"), "{e}");
        let e = f.on_tab(TargetAction::Reload).await.unwrap_err();
        assert!(matches!(e, CdpError::DialogOpen { .. }), "{e}");

        let out = f.on_tab(TargetAction::DismissDialog).await.unwrap();
        assert!(out.dialog.is_none(), "{out:?}");
        let r = f.snapshot().await;
        assert!(r.partial.is_none(), "{}", r.text);
        assert!(r.text.contains("answered false"), "the page's script went on: {}", r.text);
        assert_eq!(f.ref_of(&r, Role::Button, "Save"), save, "refs survive the blocked capture");
        f.act(save, ElementAction::Click { count: 1 }).await.unwrap();
        assert_eq!(f.eval("document.getElementById('state').textContent").await, json!("saved"));

        // An alert from a timer, accepted.
        f.eval("later('alert'); 1").await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let r = f.snapshot().await;
        assert!(r.text.contains("alertdialog \"Autosave failed\""), "{}", r.text);
        f.on_tab(TargetAction::AcceptDialog { text: None }).await.unwrap();
        assert_eq!(f.eval("document.getElementById('state').textContent").await, json!("answered ok"));
        f.backend.close().await.unwrap();
    })
}

#[test]
fn a_dialog_that_opens_during_a_capture_is_answered_at_once_not_at_the_deadline() {
    run(async {
        let mut f = Fixture::open("dialog_mid_capture.html").await;
        f.snapshot().await;
        // The page opens an alert when the capture's marks change an attribute: after the
        // first calls of the capture, before the DOM snapshot, which then waits on it.
        f.eval("arm(); 1").await;
        let r = f.snapshot_within(Duration::from_secs(4)).await;
        assert!(r.text.contains("alertdialog \"Opened mid-capture\""), "{}", r.text);
        assert!(r.partial.is_some(), "{}", r.text);
        f.on_tab(TargetAction::AcceptDialog { text: None }).await.unwrap();
        let r = f.snapshot().await;
        assert!(r.partial.is_none(), "{}", r.text);
        assert!(r.text.contains("button \"Go\""), "{}", r.text);
        f.backend.close().await.unwrap();
    })
}

#[test]
fn beforeunload_asks_and_the_answer_decides_whether_the_tab_leaves() {
    run(async {
        let mut f = Fixture::open("act/leave.html").await;
        let first = f.snapshot().await;
        // Chromium asks only on a page the user has interacted with: type into the draft.
        let draft = f.ref_of(&first, Role::TextBox, "Draft text");
        f.act(draft, ElementAction::Type { text: "half a thought".into(), clear: true, submit: false })
            .await
            .unwrap();
        let away = f._srv.url("act/inner.html");

        let out = f.on_tab(TargetAction::Navigate { url: away.clone() }).await.unwrap();
        let d = out.dialog.clone().unwrap_or_else(|| panic!("no beforeunload dialog: {out:?}"));
        assert!(d.starts_with("beforeunload"), "{d}");
        assert!(!out.navigated, "the tab has not left yet: {out:?}");
        let r = f.snapshot().await;
        assert!(r.text.contains("JavaScript beforeunload"), "{}", r.text);

        // Dismissed: the tab stays, with the draft.
        f.on_tab(TargetAction::DismissDialog).await.unwrap();
        assert_eq!(f.eval("document.getElementById('draft').value").await, json!("half a thought"));
        assert!(f.eval("location.pathname").await.as_str().is_some_and(|p| p.ends_with("leave.html")));

        // Accepted: the tab leaves.
        let out = f.on_tab(TargetAction::Navigate { url: away }).await.unwrap();
        assert!(out.dialog.as_deref().is_some_and(|d| d.starts_with("beforeunload")), "{out:?}");
        let out = f.on_tab(TargetAction::AcceptDialog { text: None }).await.unwrap();
        assert!(out.navigated, "{out:?}");
        let r = f.snapshot().await;
        assert!(r.partial.is_none() && !r.text.contains("Draft"), "{}", r.text);
        f.backend.close().await.unwrap();
    })
}

#[test]
fn a_renderer_crash_is_a_clear_error_and_a_reload_recovers() {
    run(async {
        let mut f = Fixture::open("act/leave.html").await;
        f.snapshot().await;
        let page = f.backend.page(&f.tab).await.unwrap();
        // chrome://crash makes the renderer crash, as a real bug in a page would.
        let _ = page.call_within("Page.navigate", json!({"url": "chrome://crash"}), DEADLINE).await;
        let until = Instant::now() + Duration::from_secs(10);
        while !page.watch().crashed() && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let t0 = Instant::now();
        let e = f.backend.capture(&f.tab, DEADLINE).await.unwrap_err();
        assert!(matches!(e, CdpError::Crashed), "{e}");
        assert!(e.to_string().contains("reload"), "{e}");
        assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
        assert!(f.backend.changed(&f.tab).await.unwrap());

        f.on_tab(TargetAction::Reload).await.unwrap();
        let r = f.snapshot().await;
        assert!(r.partial.is_none(), "{}", r.text);
        let save = f.ref_of(&r, Role::Button, "Save");
        f.act(save, ElementAction::Click { count: 1 }).await.unwrap();
        assert_eq!(f.eval("document.getElementById('state').textContent").await, json!("saved"));
        f.backend.close().await.unwrap();
    })
}

#[test]
fn a_browser_killed_mid_call_is_a_clear_error_and_the_next_call_starts_a_new_one() {
    run(async {
        let backend = CdpBackend::launch(LaunchOptions::default()).await.unwrap();
        let mut f = Fixture::open_in(backend, "act/leave.html").await;
        let first = f.snapshot().await;
        let save = f.ref_of(&first, Role::Button, "Save");
        let pid = f.backend.host().pid().expect("a launched browser has a pid");

        // Kill it while a capture waits on a busy page.
        f.eval("setTimeout(() => { const t = Date.now(); while (Date.now() - t < 5000) {} }, 0); 1").await;
        let killer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            std::process::Command::new("kill").args(["-9", &pid.to_string()]).status()
        });
        let t0 = Instant::now();
        let e = f.backend.capture(&f.tab, DEADLINE).await.unwrap_err();
        assert!(killer.join().unwrap().unwrap().success());
        assert!(matches!(e, CdpError::Disconnected), "{e}");
        assert!(e.to_string().contains("started again on the next call"), "{e}");
        assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());

        // The next call starts a new browser and reopens the tab under the same id; the page's
        // refs carry over to it.
        let r = f.snapshot().await;
        assert!(r.partial.is_none(), "{}", r.text);
        assert_ne!(f.backend.host().pid(), Some(pid));
        assert_eq!(f.ref_of(&r, Role::Button, "Save"), save, "{}", r.text);
        f.act(save, ElementAction::Click { count: 1 }).await.unwrap();
        assert_eq!(f.eval("document.getElementById('state').textContent").await, json!("saved"));
        let tabs = f.backend.targets().await.unwrap();
        assert!(tabs.iter().any(|t| t.id == f.tab && t.active), "{tabs:?}");
        f.backend.close().await.unwrap();
    })
}

#[test]
fn a_page_in_an_infinite_loop_gives_a_bounded_partial_snapshot_and_the_tab_can_leave_it() {
    run(async {
        let mut f = Fixture::open("index.html").await;
        f.snapshot().await;
        f.eval("setTimeout(() => { for (;;) {} }, 0); 1").await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t0 = Instant::now();
        let cap = f.backend.capture(&f.tab, Duration::from_secs(2)).await.unwrap();
        assert!(t0.elapsed() < Duration::from_secs(4), "{:?}", t0.elapsed());
        assert!(cap.partial.as_deref().is_some_and(|p| p.contains("did not")), "{:?}", cap.partial);

        // Leaving for another site gets a fresh renderer; the next snapshot is whole again.
        let t0 = Instant::now();
        let away = f._srv.url_other_site("act/leave.html");
        let out = f.on_tab(TargetAction::Navigate { url: away }).await.unwrap();
        assert!(out.navigated, "{out:?}");
        assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
        let r = f.snapshot().await;
        assert!(r.partial.is_none() && r.text.contains("Draft"), "{}", r.text);
        f.backend.close().await.unwrap();
    })
}
