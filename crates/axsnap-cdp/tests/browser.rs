//! Launch, connect and navigation against a real headless Chromium.

mod common;

use axsnap_cdp::{Browser, CdpError};
use common::{browser, run, Server};

#[test]
fn goto_loads_a_page() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("index.html")).await.unwrap();
        let (url, title) = page.url_and_title().await.unwrap();
        assert_eq!(url, srv.url("index.html"));
        assert_eq!(title, "Fixture index");
        let nav = page.goto(&srv.url("index.html?again")).await.unwrap();
        assert!(nav.loaded);
        assert!(nav.loader_id.is_some());
        page.close().await.unwrap();
    })
}

#[test]
fn unreachable_url_is_a_clear_error() {
    run(async {
        // A port nobody listens on: bind, note the port, close.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let page = browser().await.new_page("about:blank").await.unwrap();
        let e = page.goto(&format!("http://127.0.0.1:{port}/")).await.unwrap_err();
        assert!(matches!(e, CdpError::Unreachable { .. }), "{e:?}");
        assert!(e.to_string().contains("ERR_CONNECTION_REFUSED"), "{e}");
        // The page still works afterwards.
        let srv = Server::pages();
        page.goto(&srv.url("index.html")).await.unwrap();
        page.close().await.unwrap();
    })
}

#[test]
fn non_html_and_download_are_refused() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page("about:blank").await.unwrap();
        let e = page.goto(&srv.url("plain.txt")).await.unwrap_err();
        assert!(
            matches!(&e, CdpError::NotHtml { content_type, .. } if content_type == "text/plain"),
            "{e:?}"
        );
        let e = page.goto(&srv.url("__json")).await.unwrap_err();
        assert!(matches!(&e, CdpError::NotHtml { .. }), "{e:?}");
        let e = page.goto(&srv.url("__download")).await.unwrap_err();
        assert!(matches!(&e, CdpError::Download { .. }), "{e:?}");
        page.goto(&srv.url("index.html")).await.unwrap();
        page.close().await.unwrap();
    })
}

#[test]
fn connect_by_http_endpoint_and_leave_running() {
    run(async {
        let launched = browser().await;
        let host_port = launched.ws_url().trim_start_matches("ws://").split('/').next().unwrap().to_string();
        let connected = Browser::connect(&format!("http://{host_port}")).await.unwrap();
        assert!(!connected.launched());
        let srv = Server::pages();
        let page = connected.new_page(&srv.url("index.html")).await.unwrap();
        let id = page.target_id().to_string();
        assert!(connected.page_targets().await.unwrap().iter().any(|(t, _, _)| *t == id));
        connected.close().await.unwrap();
        // The browser is still up and the tab still there.
        assert!(launched.page_targets().await.unwrap().iter().any(|(t, _, _)| *t == id));
        launched.attach_page(&id).await.unwrap().close().await.unwrap();
    })
}

#[test]
fn connect_to_nothing_fails_clearly() {
    run(async {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let e = Browser::connect(&format!("http://127.0.0.1:{port}")).await.unwrap_err();
        assert!(matches!(e, CdpError::ConnectFailed { .. }), "{e:?}");
        let e = Browser::connect("ftp://x").await.unwrap_err();
        assert!(e.to_string().contains("ws://"), "{e}");
    })
}

/// A value nested past the JSON reader's depth limit (128) but within what Chromium sends (its
/// own limit is about 300) fails its call at once with a reason, instead of being dropped and
/// leaving the caller to wait out the call's timeout.
#[test]
fn a_too_deeply_nested_answer_fails_its_call_and_the_page_goes_on() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("index.html")).await.unwrap();
        let deep = "(() => { let v = []; for (let i = 0; i < 200; i++) v = [v]; return v; })()";
        let e = page.eval_within(deep, std::time::Duration::from_secs(120)).await.unwrap_err();
        assert!(matches!(&e, CdpError::BadResponse { .. }), "{e:?}");
        assert!(e.to_string().contains("nested too deeply"), "{e}");
        // The connection and the page still work.
        assert_eq!(page.eval("1 + 1").await.unwrap(), serde_json::json!(2));
        page.close().await.unwrap();
    })
}
