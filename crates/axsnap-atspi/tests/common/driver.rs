//! An agent's loop over the desktop backend, as the MCP server runs it: capture, answer in
//! auto mode through a core session, act by ref, answer again.

use std::time::{Duration, Instant};

use axsnap_atspi::{AtspiBackend, Bus};
use axsnap_core::backend::{Backend, Capture, ElementAction};
use axsnap_core::session::{Answer, ClientId, Policy, Request, Response, Session};
use axsnap_core::TargetId;

use super::desktop::Desktop;

/// How long an app may take to show its window on the bus.
pub const APP_WAIT: Duration = Duration::from_secs(30);

/// One agent on one window.
pub struct Driver {
    /// The backend.
    pub backend: AtspiBackend,
    /// The core session answering.
    pub session: Session,
    client: ClientId,
    /// The window.
    pub target: TargetId,
    /// The last capture.
    pub capture: Option<Capture>,
}

impl Driver {
    /// Connects to `desktop`'s bus and waits until `app` shows a window there.
    pub async fn start(desktop: &Desktop, app: &str) -> Driver {
        let bus = Bus::at(&desktop.a11y_address()).await.expect("the desktop's AT-SPI bus");
        let mut backend = axsnap_atspi::on(bus).await.expect("a backend on the bus");
        let start = Instant::now();
        let target = loop {
            match backend.window(app, None).await {
                Ok(t) => break t,
                Err(e) if start.elapsed() > APP_WAIT => panic!("{app} never showed a window: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        Driver {
            backend,
            session: Session::new(Policy::default()),
            client: ClientId("test".into()),
            target,
            capture: None,
        }
    }

    /// A new capture answered in auto mode (no budget: tests read whole windows).
    pub async fn snapshot(&mut self) -> Response {
        let capture = self.backend.capture(&self.target, Duration::from_secs(10)).await.expect("a capture");
        let request = Request { max_tokens: None, ..Request::default() };
        let response =
            self.session.snapshot(&self.client, &capture, &request, Instant::now()).expect("an answer");
        self.capture = Some(capture);
        response
    }

    /// The first answer on the window, once the events its reading caused have stopped:
    /// reading a window makes GTK create its accessible objects, with events, so a later look
    /// would capture again (up to three more captures, answered in the same session).
    pub async fn first_snapshot(&mut self) -> Response {
        let first = self.snapshot().await;
        for _ in 0..3 {
            if !self.backend.changed(&self.target).await.expect("the change signal") {
                break;
            }
            self.snapshot().await;
        }
        first
    }

    /// The ref of the first enabled node of `role` named `name` in the last answer's snapshot.
    pub fn find(&self, response: &Response, role: &str, name: &str) -> String {
        let tree = &response.snapshot.tree;
        tree.preorder()
            .map(|(id, _)| tree.node(id))
            .find(|n| {
                n.role.as_str() == role
                    && n.name == name
                    && n.ref_id.is_some()
                    && !n.states.contains(axsnap_core::State::Disabled)
            })
            .and_then(|n| n.ref_id.map(|r| r.to_string()))
            .unwrap_or_else(|| panic!("no {role} {name:?} with a ref in:\n{}", response.text))
    }

    /// Acts on `r` and answers in auto mode.
    pub async fn act(&mut self, r: &str, action: ElementAction) -> Response {
        let native =
            self.session.resolve(&self.target, r.parse().expect("a ref")).expect("a live ref").clone();
        self.backend
            .act(&self.target, &native, &action)
            .await
            .unwrap_or_else(|e| panic!("{action:?} on {r}: {e}"));
        self.snapshot().await
    }
}

/// Whether `response` is a diff.
pub fn is_diff(response: &Response) -> bool {
    matches!(response.answer, Answer::Diff { .. })
}

/// The ref of the first enabled node of `role` in `r`'s snapshot that `pick` takes.
pub fn pick(r: &Response, role: &str, pick: impl Fn(&axsnap_core::Node) -> bool) -> String {
    let tree = &r.snapshot.tree;
    tree.preorder()
        .map(|(id, _)| tree.node(id))
        .find(|n| {
            n.role.as_str() == role
                && n.ref_id.is_some()
                && !n.states.contains(axsnap_core::State::Disabled)
                && pick(n)
        })
        .and_then(|n| n.ref_id)
        .map(|r| r.to_string())
        .unwrap_or_else(|| panic!("no such {role} in:\n{}", r.text))
}
