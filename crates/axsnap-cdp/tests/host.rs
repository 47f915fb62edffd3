//! One browser shared by many sessions ([`BrowserHost`]): each backend in its own context
//! (cookies, storage and tabs apart), started on first use, released on demand, restarted once
//! for everyone after the browser dies, and one session's busy page holds up no other.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use axsnap_cdp::{find_browser, BrowserHost, BrowserSource, CdpBackend, CdpError, Isolation, LaunchOptions};
use axsnap_core::backend::{Backend, TargetAction};
use axsnap_core::TargetId;
use common::{run, Server};
use serde_json::{json, Value};

const DEADLINE: Duration = Duration::from_secs(10);

/// A host that launches the test browser on first use.
fn host() -> BrowserHost {
    host_with(LaunchOptions::default())
}

fn host_with(opts: LaunchOptions) -> BrowserHost {
    assert!(
        find_browser(None).is_ok(),
        "no Chromium found; run the README's test command, which installs it"
    );
    BrowserHost::new(BrowserSource::Launch(opts))
}

/// The text of every node of a tab's capture, one line each.
async fn text(b: &mut CdpBackend, tab: &TargetId) -> String {
    let cap = b.capture(tab, DEADLINE).await.unwrap();
    cap.tree.preorder().map(|(id, _)| cap.tree.node(id).name.clone() + "\n").collect()
}

async fn eval(b: &mut CdpBackend, tab: &TargetId, expr: &str) -> Value {
    b.page(tab).await.unwrap().eval(expr).await.unwrap()
}

async fn ids(b: &mut CdpBackend) -> Vec<TargetId> {
    b.targets().await.unwrap().into_iter().map(|t| t.id).collect()
}

/// The ids of the browser's non-default contexts.
async fn contexts(host: &BrowserHost) -> Vec<String> {
    let v =
        host.browser().await.unwrap().raw().call(None, "Target.getBrowserContexts", json!({})).await.unwrap();
    v["browserContextIds"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

async fn wait_until(what: &str, mut cond: impl AsyncFnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(10);
    while !cond().await {
        assert!(Instant::now() < until, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[test]
fn two_contexts_share_no_cookies_storage_or_tabs() {
    run(async {
        let srv = Server::pages();
        let host = host();
        let mut a = host.backend(Isolation::Context);
        let mut b = host.backend(Isolation::Context);
        let ta = a.open_target(&srv.url("__cookie?set=alice")).await.unwrap();
        let tb = b.open_target(&srv.url("__cookie?set=bob")).await.unwrap();
        assert_ne!(a.context_id(), b.context_id());

        // Each context sends its own cookie and reads its own storage, on the same origin.
        a.act_on_target(&ta, &TargetAction::Navigate { url: srv.url("__cookie") }).await.unwrap();
        b.act_on_target(&tb, &TargetAction::Navigate { url: srv.url("__cookie") }).await.unwrap();
        let (sa, sb) = (text(&mut a, &ta).await, text(&mut b, &tb).await);
        assert!(sa.contains("cookie: who=alice") && sa.contains("storage: alice"), "{sa}");
        assert!(sb.contains("cookie: who=bob") && sb.contains("storage: bob"), "{sb}");
        // A third context starts empty.
        let mut c = host.backend(Isolation::Context);
        let tc = c.open_target(&srv.url("__cookie")).await.unwrap();
        let sc = text(&mut c, &tc).await;
        assert!(sc.contains("cookie: none") && sc.contains("storage: none"), "{sc}");

        // Each sees only its own tabs, popups included; another's tab is no tab of its own.
        let popup = eval(&mut a, &ta, "window.open(location.href + '?popup') ? 1 : 0").await;
        assert_eq!(popup, json!(1));
        wait_until("the popup is listed", async || ids(&mut a).await.len() == 2).await;
        assert_eq!(ids(&mut b).await, vec![tb.clone()]);
        assert_eq!(ids(&mut c).await, vec![tc.clone()]);
        assert!(ids(&mut a).await.contains(&ta));
        for e in [
            a.page(&tb).await.unwrap_err(),
            a.capture(&tb, DEADLINE).await.unwrap_err(),
            a.act_on_target(&tb, &TargetAction::Reload).await.unwrap_err(),
            a.close_target(&tb).await.unwrap_err(),
        ] {
            assert!(matches!(&e, CdpError::NoSuchTarget(id) if *id == tb.0), "{e}");
        }
        // The default context's backend sees none of them.
        let mut shared = host.backend(Isolation::Shared);
        let listed = ids(&mut shared).await;
        assert!(!listed.iter().any(|t| [&ta, &tb, &tc].contains(&t)), "{listed:?}");
        assert!(matches!(shared.page(&ta).await.unwrap_err(), CdpError::NoSuchTarget(_)));
        b.close_target(&tb).await.unwrap();
        assert!(ids(&mut b).await.is_empty());
        host.shutdown().await;
    })
}

#[test]
fn release_disposes_the_context_and_its_tabs_and_drop_does_too() {
    run(async {
        let srv = Server::pages();
        let host = host();
        let mut a = host.backend(Isolation::Context);
        let one = a.open_target(&srv.url("index.html")).await.unwrap();
        let two = a.open_target(&srv.url("act/inner.html")).await.unwrap();
        let ctx = a.context_id().unwrap().to_string();
        assert!(contexts(&host).await.contains(&ctx));
        let browser = host.browser().await.unwrap();

        a.release().await.unwrap();
        assert!(!contexts(&host).await.contains(&ctx), "the context outlived the release");
        let left: Vec<String> = browser.page_targets().await.unwrap().into_iter().map(|t| t.0).collect();
        assert!(!left.contains(&one.0) && !left.contains(&two.0), "{left:?}");
        // Idempotent, and the backend starts afresh afterwards.
        a.release().await.unwrap();
        assert!(a.targets().await.unwrap().is_empty());
        assert!(a.context_id().is_none());
        let three = a.open_target(&srv.url("index.html")).await.unwrap();
        assert_ne!(a.context_id(), Some(ctx.as_str()));
        assert_eq!(ids(&mut a).await, vec![three]);

        // A backend dropped without a release lets its context go all the same.
        let ctx = a.context_id().unwrap().to_string();
        drop(a);
        wait_until("the dropped backend's context is gone", async || !contexts(&host).await.contains(&ctx))
            .await;

        // A shared backend closes the tabs it opened, not the others of the default context.
        let mut s1 = host.backend(Isolation::Shared);
        let mut s2 = host.backend(Isolation::Shared);
        let mine = s1.open_target(&srv.url("index.html")).await.unwrap();
        let theirs = s2.open_target(&srv.url("index.html")).await.unwrap();
        assert!(ids(&mut s1).await.contains(&theirs), "the default context is shared");
        s1.capture(&theirs, DEADLINE).await.unwrap();
        s1.release().await.unwrap();
        let left: Vec<String> = browser.page_targets().await.unwrap().into_iter().map(|t| t.0).collect();
        assert!(!left.contains(&mine.0) && left.contains(&theirs.0), "{left:?}");
        s2.capture(&theirs, DEADLINE).await.unwrap();
        assert!(host.is_running(), "a release never closes the browser");
        drop(browser);
        host.shutdown().await;
        assert!(!host.is_running());
    })
}

/// A launcher script that notes each start in `marker`, then runs Chromium; or, when `fail`,
/// exits at once.
fn launcher(dir: &Path, marker: &Path, fail: bool) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("chromium-launcher");
    let chromium = find_browser(None).unwrap();
    let body = if fail {
        format!("#!/bin/sh\necho failed >> {}\nexit 1\n", marker.display())
    } else {
        format!("#!/bin/sh\necho started >> {}\nexec {} \"$@\"\n", marker.display(), chromium.display())
    };
    // Written aside and renamed, so a launch never reads a half-written script.
    let tmp = dir.join("launcher.tmp");
    std::fs::write(&tmp, body).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    path
}

fn starts(marker: &Path) -> Vec<String> {
    std::fs::read_to_string(marker).unwrap_or_default().lines().map(str::to_string).collect()
}

#[test]
fn the_browser_starts_on_first_use_and_a_failed_start_is_retried() {
    run(async {
        let srv = Server::pages();
        let dir = std::env::temp_dir().join(format!("axsnap-host-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let marker = dir.join("starts");
        let exe = launcher(&dir, &marker, true);
        let opts = LaunchOptions {
            executable: Some(exe),
            launch_timeout: Duration::from_secs(5),
            ..Default::default()
        };
        let host = host_with(opts);

        // Backends, listing their (no) tabs, shutting down: nothing starts a browser.
        let mut a = host.backend(Isolation::Context);
        let mut s = host.backend(Isolation::Shared);
        assert!(a.targets().await.unwrap().is_empty());
        assert!(s.targets().await.unwrap().is_empty());
        a.release().await.unwrap();
        assert!(!host.is_running() && host.pid().is_none());
        assert!(starts(&marker).is_empty(), "{:?}", starts(&marker));

        // The first call that needs it starts it; a failure is that call's error.
        let t0 = Instant::now();
        let e = a.open_target(&srv.url("index.html")).await.unwrap_err();
        assert!(matches!(e, CdpError::LaunchFailed { .. }), "{e}");
        assert!(t0.elapsed() < Duration::from_secs(6), "{:?}", t0.elapsed());
        assert_eq!(starts(&marker), ["failed"]);
        assert!(!host.is_running());

        // The next call tries again.
        launcher(&dir, &marker, false);
        let tab = a.open_target(&srv.url("index.html")).await.unwrap();
        assert_eq!(starts(&marker), ["failed", "started"]);
        assert!(host.is_running() && host.pid().is_some());
        assert!(text(&mut a, &tab).await.contains("Fixture index"));
        // The tab the browser opens at start is closed: the default context starts empty.
        assert!(s.targets().await.unwrap().is_empty());
        // Other backends use the same browser.
        let mut b = host.backend(Isolation::Context);
        b.open_target(&srv.url("index.html")).await.unwrap();
        assert_eq!(starts(&marker).len(), 2);
        host.shutdown().await;
        assert!(!host.is_running());
        let _ = std::fs::remove_dir_all(&dir);
    })
}

fn kill(pid: u32) {
    // SAFETY: a plain syscall on a process id this test launched.
    let r = unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    assert_eq!(r, 0, "kill {pid}");
}

#[test]
fn a_killed_browser_is_started_again_once_and_every_session_gets_its_tabs_back() {
    run(async {
        let srv = Server::pages();
        let host = host();
        let mut a = host.backend(Isolation::Context);
        let mut b = host.backend(Isolation::Context);
        let ta = a.open_target(&srv.url("__cookie?set=alice")).await.unwrap();
        a.act_on_target(&ta, &TargetAction::Navigate { url: srv.url("__cookie") }).await.unwrap();
        assert!(text(&mut a, &ta).await.contains("cookie: who=alice"));
        let tb = b.open_target(&srv.url("index.html")).await.unwrap();
        let tb2 = b.open_target(&srv.url("act/inner.html")).await.unwrap();
        b.capture(&tb2, DEADLINE).await.unwrap();
        let old_ctx = a.context_id().unwrap().to_string();

        let pid = host.pid().unwrap();
        kill(pid);
        wait_until("the host sees the browser gone", async || !host.is_running()).await;

        // Each session's next call restarts (the first) or finds restarted (the second) the
        // browser, reopens its tabs, and says once that their state is lost.
        let e = a.capture(&ta, DEADLINE).await.unwrap_err();
        assert!(matches!(e, CdpError::BrowserRestarted { tabs: 1 }), "{e}");
        assert!(e.to_string().contains("state") && e.to_string().contains("lost"), "{e}");
        let new_pid = host.pid().unwrap();
        assert_ne!(new_pid, pid);
        let e = b.targets().await.unwrap_err();
        assert!(matches!(e, CdpError::BrowserRestarted { tabs: 2 }), "{e}");
        assert_eq!(host.pid(), Some(new_pid), "started once for both");

        // The tabs are back under their ids, at their last URLs, in fresh contexts.
        let sa = text(&mut a, &ta).await;
        assert!(sa.contains("cookie: none"), "the cookie died with the old browser: {sa}");
        assert_ne!(a.context_id(), Some(old_ctx.as_str()));
        assert_eq!(ids(&mut a).await, vec![ta.clone()]);
        let mut listed = ids(&mut b).await;
        listed.sort_by(|x, y| x.0.cmp(&y.0));
        let mut want = vec![tb.clone(), tb2.clone()];
        want.sort_by(|x, y| x.0.cmp(&y.0));
        assert_eq!(listed, want);
        assert!(text(&mut b, &tb2).await.contains("Inner"));
        assert!(text(&mut b, &tb).await.contains("Fixture index"));
        // A backend that had no tab yet simply starts in the new browser.
        let mut c = host.backend(Isolation::Context);
        c.open_target(&srv.url("index.html")).await.unwrap();
        assert_eq!(host.pid(), Some(new_pid));
        host.shutdown().await;
    })
}

#[test]
fn a_connected_browser_is_left_running_and_never_started_by_us() {
    run(async {
        let srv = Server::pages();
        let own = common::launch_browser().await;
        let host = BrowserHost::new(BrowserSource::Connect(own.ws_url().into()));
        let mut a = host.backend(Isolation::Context);
        let ta = a.open_target(&srv.url("index.html")).await.unwrap();
        let ctx = a.context_id().unwrap().to_string();
        let own_contexts = async || {
            let v = own.raw().call(None, "Target.getBrowserContexts", json!({})).await.unwrap();
            v["browserContextIds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        assert!(own_contexts().await.contains(&ctx));

        // Shutting the host down only disconnects; the browser then disposes our contexts.
        host.shutdown().await;
        assert!(!host.is_running());
        wait_until("the context goes with the connection", async || !own_contexts().await.contains(&ctx))
            .await;
        assert!(own.is_open(), "the connected browser runs on");

        // The next call connects again, and the session's tab is back in a new context.
        let e = a.capture(&ta, DEADLINE).await.unwrap_err();
        assert!(matches!(e, CdpError::BrowserRestarted { tabs: 1 }), "{e}");
        assert!(text(&mut a, &ta).await.contains("Fixture index"));

        // When the browser goes away, nothing starts another: the calls fail clearly.
        kill(own.pid().unwrap());
        let e = a.capture(&ta, DEADLINE).await.unwrap_err();
        assert!(matches!(e, CdpError::Disconnected | CdpError::ConnectFailed { .. }), "{e}");
        let e = a.open_target(&srv.url("index.html")).await.unwrap_err();
        assert!(matches!(e, CdpError::ConnectFailed { .. }), "{e}");
        assert!(!host.is_running() && host.pid().is_none());
    })
}

/// One session's steps: open a tab, capture it, navigate, capture again; how long they took.
async fn steps(b: &mut CdpBackend, srv: &Server) -> Duration {
    let t0 = Instant::now();
    let tab = b.open_target(&srv.url("index.html")).await.unwrap();
    assert!(text(b, &tab).await.contains("Fixture index"));
    let out =
        b.act_on_target(&tab, &TargetAction::Navigate { url: srv.url("act/inner.html") }).await.unwrap();
    assert!(out.navigated && out.settled, "{out:?}");
    assert!(text(b, &tab).await.contains("Inner"));
    t0.elapsed()
}

#[test]
fn a_busy_page_in_one_session_holds_up_no_other() {
    run(async {
        let srv = Server::pages();
        let host = host();
        let mut busy = host.backend(Isolation::Context);
        let tb = busy.open_target(&srv.url("index.html")).await.unwrap();
        let calm = steps(&mut host.backend(Isolation::Context), &srv).await;

        // Its renderer spins for 30 s; a capture of it waits until its 10 s deadline.
        eval(
            &mut busy,
            &tb,
            "setTimeout(() => { const t = Date.now(); while (Date.now() - t < 30000) {} }, 0); 1",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let stuck = tokio::spawn(async move {
            let t0 = Instant::now();
            let cap = busy.capture(&tb, Duration::from_secs(10)).await.unwrap();
            (cap.partial, t0.elapsed())
        });
        // Meanwhile another session goes through its steps as fast as with no busy page.
        let beside = steps(&mut host.backend(Isolation::Context), &srv).await;
        assert!(!stuck.is_finished(), "the busy capture ended before the other session's steps did");
        eprintln!("open, capture, navigate, capture: {calm:?} alone, {beside:?} beside a busy page");
        assert!(beside < Duration::from_secs(6), "the other session waited: {beside:?}");

        let (partial, busy_took) = stuck.await.unwrap();
        assert!(partial.is_some(), "the busy page's capture is partial");
        assert!(busy_took >= Duration::from_secs(9), "{busy_took:?}");
        host.shutdown().await;
    })
}

#[test]
fn every_tab_in_every_context_gets_the_viewport() {
    run(async {
        let srv = Server::pages();
        const SIZE: &str = "[innerWidth, innerHeight]";
        for (opts, want) in [
            (LaunchOptions::default(), json!([1280, 720])),
            (LaunchOptions { window: (800, 600), ..Default::default() }, json!([800, 600])),
        ] {
            let host = host_with(opts);
            let mut a = host.backend(Isolation::Context);
            let ta = a.open_target(&srv.url("index.html")).await.unwrap();
            assert_eq!(eval(&mut a, &ta, SIZE).await, want, "a context's tab");
            // A popup the page opens.
            eval(&mut a, &ta, "window.open(location.href + '?popup') ? 1 : 0").await;
            wait_until("the popup is listed", async || ids(&mut a).await.len() == 2).await;
            let popup = ids(&mut a).await.into_iter().find(|t| *t != ta).unwrap();
            assert_eq!(eval(&mut a, &popup, SIZE).await, want, "a popup");
            // A second tab of the context, and a tab of the default context.
            let ta2 = a.open_target(&srv.url("index.html")).await.unwrap();
            assert_eq!(eval(&mut a, &ta2, SIZE).await, want, "a second tab");
            let mut s = host.backend(Isolation::Shared);
            let ts = s.open_target(&srv.url("index.html")).await.unwrap();
            assert_eq!(eval(&mut s, &ts, SIZE).await, want, "a default-context tab");
            host.shutdown().await;
        }
    })
}

/// A measurement, not a gate: the raw connection parses every answer into JSON on its one
/// pump task, so a big capture's answers (tens of MB) hold up the other sessions' answers for
/// as long as that parse takes. Run with `-- --ignored --nocapture` to see how long.
#[test]
#[ignore]
fn a_long_capture_in_one_session_holds_up_no_other() {
    run(async {
        let srv = Server::pages();
        let host = host();
        let mut big = host.backend(Isolation::Context);
        let tb = big.open_target(&srv.url("index.html")).await.unwrap();
        let n = eval(
            &mut big,
            &tb,
            "document.body.innerHTML = Array.from({length: 5000}, (_, i) => \
             `<p>row ${i} <a href='#${i}'>link ${i}</a> <input aria-label='field ${i}'></p>`).join(''); \
             document.getElementsByTagName('*').length",
        )
        .await;
        assert!(n.as_u64().unwrap() > 15_000, "{n}");
        let mut other = host.backend(Isolation::Context);
        let to = other.open_target(&srv.url("index.html")).await.unwrap();
        text(&mut other, &to).await;

        let capture = tokio::spawn(async move {
            let t0 = Instant::now();
            let out = big.capture_with_stats(&tb, Duration::from_secs(30)).await.unwrap();
            (out.capture.tree.len(), t0.elapsed())
        });
        // One round trip of the other session at a time, for as long as the capture runs.
        let mut slowest = Duration::ZERO;
        let mut calls = 0;
        while !capture.is_finished() {
            let t0 = Instant::now();
            other.changed(&to).await.unwrap();
            slowest = slowest.max(t0.elapsed());
            calls += 1;
        }
        let (nodes, took) = capture.await.unwrap();
        eprintln!(
            "a {nodes}-node capture took {took:?}; the other session's slowest of {calls} calls: {slowest:?}"
        );
        assert!(calls > 5, "{calls}");
        assert!(slowest < Duration::from_millis(1000), "{slowest:?}");
        host.shutdown().await;
    })
}
