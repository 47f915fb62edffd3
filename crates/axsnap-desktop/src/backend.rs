//! [`DesktopBackend`]: the core's [`Backend`] over a [`Platform`]'s windows. It owns what is
//! the same on every system: window ids, the listing, the settle after an action, and which
//! windows an action opened.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, Refusal, TargetAction, TargetSummary};
use axsnap_core::{NativeId, TargetId};
use serde::Serialize;

use crate::apps::{find_app, find_window};
use crate::error::DesktopError;
use crate::platform::{AppInfo, Pass, Platform};

/// An app is settled after an action once it has sent no event for this long.
const QUIET: Duration = Duration::from_millis(150);
/// ... but the capture that follows an action may begin once it has been quiet this long: the
/// rest of [`QUIET`] is waited for while (and after) the window is read, and a window that
/// changed meanwhile is read again (see [`DesktopBackend::capture`]).
const FIRST_QUIET: Duration = Duration::from_millis(50);
/// ... or once this much time has passed.
const SETTLE_CAP: Duration = Duration::from_secs(3);

/// A window, as [`DesktopBackend::listing`] lists it.
#[derive(Clone, Debug, Serialize)]
pub struct DesktopWindow {
    /// The id to target it by (`w1`).
    pub id: String,
    /// Its app's name.
    pub app: String,
    /// Its title.
    pub title: String,
    /// Its role in the platform's words (`frame`, `dialog`).
    pub role: String,
    /// Whether it is the active window.
    pub active: bool,
}

/// What [`DesktopBackend::listing`] found.
#[derive(Clone, Debug, Serialize)]
pub struct Listing {
    /// Every window of the apps that answered.
    pub windows: Vec<DesktopWindow>,
    /// The apps that did not answer in time (busy or hung), by name.
    pub not_answering: Vec<String>,
}

/// The desktop backend: the windows of the apps a [`Platform`] lists.
///
/// Targets are windows, named `w1`, `w2`, ... in the order this backend first saw them; an id
/// keeps naming its window while the backend lives.
#[derive(Debug)]
pub struct DesktopBackend<P: Platform> {
    platform: P,
    ids: BTreeMap<String, P::Window>,
    by_window: HashMap<P::Window, String>,
    next_id: u32,
    /// Apps acted on whose settle is not yet over (they have been quiet for [`FIRST_QUIET`],
    /// not yet for [`QUIET`]), with when the action began.
    settling: HashMap<String, Instant>,
}

impl<P: Platform> DesktopBackend<P> {
    /// The backend over `platform`.
    pub fn new(platform: P) -> DesktopBackend<P> {
        DesktopBackend {
            platform,
            ids: BTreeMap::new(),
            by_window: HashMap::new(),
            next_id: 1,
            settling: HashMap::new(),
        }
    }

    /// The platform, to read.
    pub fn platform(&self) -> &P {
        &self.platform
    }

    /// The platform, to set up or to call directly.
    pub fn platform_mut(&mut self) -> &mut P {
        &mut self.platform
    }

    /// The apps and their windows, as the platform lists them.
    pub async fn apps(&mut self) -> Result<Vec<AppInfo<P::Window>>, DesktopError> {
        self.platform.apps().await
    }

    /// Every window of every app, with the ids to target them by.
    pub async fn windows(&mut self) -> Result<Vec<DesktopWindow>, DesktopError> {
        Ok(self.listing().await?.windows)
    }

    /// Every window of every app, with the ids to target them by, and the apps that did not
    /// answer (whose windows cannot be listed).
    pub async fn listing(&mut self) -> Result<Listing, DesktopError> {
        let apps = self.platform.apps().await?;
        let not_answering = apps.iter().filter(|a| !a.answering).map(|a| a.name.clone()).collect();
        let mut out = Vec::new();
        for app in &apps {
            for w in &app.windows {
                let id = self.id_of(&w.handle);
                out.push(DesktopWindow {
                    id,
                    app: app.name.clone(),
                    title: w.title.clone(),
                    role: w.role.clone(),
                    active: w.active,
                });
            }
        }
        // A window no longer listed (its app answered) is closed: what the platform kept of it
        // goes. A silent app's windows cannot be told closed, so theirs stays.
        let listed: HashSet<&str> = out.iter().map(|w| w.id.as_str()).collect();
        let silent: HashSet<&str> = apps.iter().filter(|a| !a.answering).map(|a| a.key.as_str()).collect();
        let keep: HashSet<String> = self
            .ids
            .iter()
            .filter(|(id, w)| {
                listed.contains(id.as_str()) || silent.contains(self.platform.app_key(w).as_str())
            })
            .map(|(id, _)| id.clone())
            .collect();
        self.platform.retain(&|t: &TargetId| keep.contains(&t.0));
        Ok(Listing { windows: out, not_answering })
    }

    /// The id of `app`'s window titled `title` (or its active or first window).
    pub async fn window(&mut self, app: &str, title: Option<&str>) -> Result<TargetId, DesktopError> {
        let apps = self.platform.apps().await?;
        let app = find_app(&apps, app)?;
        let w = find_window(app, title)?;
        let handle = w.handle.clone();
        Ok(TargetId(self.id_of(&handle)))
    }

    fn id_of(&mut self, window: &P::Window) -> String {
        if let Some(id) = self.by_window.get(window) {
            return id.clone();
        }
        let id = format!("w{}", self.next_id);
        self.next_id += 1;
        self.ids.insert(id.clone(), window.clone());
        self.by_window.insert(window.clone(), id.clone());
        id
    }

    /// The native window an id names.
    pub fn window_of(&self, target: &TargetId) -> Result<P::Window, DesktopError> {
        self.ids.get(&target.0).cloned().ok_or_else(|| DesktopError::NoSuchTarget(target.0.clone()))
    }

    /// The windows `window`'s app has now that it did not have in `before`, as ids.
    pub(crate) async fn opened_since(&mut self, window: &P::Window, before: &[P::Window]) -> Vec<TargetId> {
        let now = self.platform.app_windows(window).await.unwrap_or_default();
        now.iter().filter(|w| !before.contains(w)).map(|w| TargetId(self.id_of(w))).collect()
    }

    /// The app's windows before an action: a hung or gone app fails the action at once (it
    /// would not answer the action either); any other failure only costs the list of windows
    /// the action opened.
    async fn windows_before(&mut self, window: &P::Window) -> Result<Vec<P::Window>, DesktopError> {
        match self.platform.app_windows(window).await {
            Ok(w) => Ok(w),
            Err(e @ (DesktopError::Timeout { .. } | DesktopError::Gone(_))) => Err(e),
            Err(_) => Ok(Vec::new()),
        }
    }

    /// Waits until `app` has been quiet for `quiet` and that long has passed since `start` (or
    /// [`SETTLE_CAP`] passed since `start`: then `false`).
    async fn settle(&self, app: &str, start: Instant, quiet: Duration) -> bool {
        if !self.platform.hears_events() {
            tokio::time::sleep(quiet.saturating_sub(start.elapsed())).await;
            return true;
        }
        loop {
            let since = self.platform.quiet_for(app).await.unwrap_or(Duration::MAX);
            if since >= quiet && start.elapsed() >= quiet {
                return true;
            }
            axsnap_core::progress::report(|| match since {
                Duration::MAX => "waiting for the app to settle".to_string(),
                since => format!(
                    "waiting for the app to settle (its last event came {} ms ago)",
                    since.as_millis()
                ),
            });
            if start.elapsed() >= SETTLE_CAP {
                return false;
            }
            let wait = quiet.saturating_sub(since.min(start.elapsed()));
            tokio::time::sleep(wait.clamp(Duration::from_millis(5), Duration::from_millis(20))).await;
        }
    }

    /// Ends the settle of `app` that an action began, if one is pending: waits out the rest
    /// of [`QUIET`] (the action's outcome already said whether the app settled). Whether one
    /// was pending.
    async fn finish_settle(&mut self, app: &str) -> bool {
        let Some(start) = self.settling.remove(app) else { return false };
        self.settle(app, start, QUIET).await;
        true
    }

    /// The outcome of an action on `window` that began at `start`, once its app settled:
    /// whether it did, and which windows it opened.
    async fn after(&mut self, window: &P::Window, before: Vec<P::Window>, start: Instant) -> Outcome {
        let acted = start.elapsed();
        let app = self.platform.app_key(window);
        // Without events nothing tells a capture that the app changed meanwhile: it waits
        // the whole settle here.
        let events = self.platform.hears_events();
        let first = if events { FIRST_QUIET } else { QUIET };
        let settled = self.settle(&app, start, first).await;
        if settled && events {
            self.settling.insert(app, start);
        }
        tracing::debug!(acted = ?acted, quiet_after = ?start.elapsed(), "acted on {window:?}");
        // The app's windows now: those not there before were opened by the action, and the
        // acted-on window missing was closed by it (an app gone with it closed it too).
        let (now, closed) = match self.platform.app_windows(window).await {
            Ok(now) => {
                let closed = !now.contains(window);
                (now, closed)
            }
            Err(DesktopError::Gone(_)) => (Vec::new(), true),
            Err(_) => (Vec::new(), false),
        };
        let opened = now.iter().filter(|w| !before.contains(w)).map(|w| TargetId(self.id_of(w))).collect();
        Outcome {
            settled,
            elapsed: start.elapsed(),
            opened,
            closed,
            unsettled: (!settled).then(|| format!("the app kept sending events for {SETTLE_CAP:?}")),
            ..Outcome::default()
        }
    }
}

/// A window's header line: its title and its app.
pub fn header(app: &str, title: &str) -> axsnap_core::Header {
    let title = match (app.is_empty(), title.is_empty()) {
        (_, true) => app.to_string(),
        (true, false) => title.to_string(),
        (false, false) => format!("{title} ({app})"),
    };
    axsnap_core::Header { url: None, title: (!title.is_empty()).then_some(title) }
}

impl<P: Platform> Backend for DesktopBackend<P> {
    type Error = DesktopError;

    async fn targets(&mut self) -> Result<Vec<TargetSummary>, DesktopError> {
        Ok(self
            .windows()
            .await?
            .into_iter()
            .map(|w| TargetSummary { id: TargetId(w.id), header: header(&w.app, &w.title), active: w.active })
            .collect())
    }

    async fn capture(&mut self, target: &TargetId, deadline: Duration) -> Result<Capture, DesktopError> {
        let window = self.window_of(target)?;
        axsnap_core::progress::report(|| format!("capturing window {target}"));
        let began = Instant::now();
        let closed = |e| match e {
            DesktopError::Gone(why) => DesktopError::Gone(format!("window {target} is closed ({why})")),
            e => e,
        };
        let mut capture =
            self.platform.capture(target, &window, deadline, Pass::First).await.map_err(closed)?;
        // Right after an action the window was read once its app had been quiet for
        // FIRST_QUIET; the rest of the settle runs now. A window that changed meanwhile (the
        // app was not done) is read again, once: an app that keeps sending events is then
        // captured as it stands, as without the head start.
        let app = self.platform.app_key(&window);
        if self.finish_settle(&app).await && self.platform.changed(target, &window).await? {
            tracing::debug!("{target} changed while it was read after an action: read again");
            let left = deadline.saturating_sub(began.elapsed());
            capture = self.platform.capture(target, &window, left, Pass::Again).await.map_err(closed)?;
        }
        Ok(capture)
    }

    async fn act(
        &mut self,
        target: &TargetId,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<Outcome, DesktopError> {
        let window = self.window_of(target)?;
        let before = self.windows_before(&window).await?;
        let start = Instant::now();
        self.platform.act(&window, element, action).await?;
        Ok(self.after(&window, before, start).await)
    }

    async fn act_on_target(
        &mut self,
        target: &TargetId,
        action: &TargetAction,
    ) -> Result<Outcome, DesktopError> {
        let window = self.window_of(target)?;
        let unsupported = |why: &str| Err(DesktopError::Unsupported(why.to_string()));
        let keys = match action {
            TargetAction::Press { keys } => keys,
            TargetAction::Scroll { .. } => {
                return unsupported("scroll an element of the window (scroll ref=...)")
            }
            TargetAction::Pointer { .. } => {
                return unsupported("a desktop window is acted on by its elements' refs, not by coordinates")
            }
            TargetAction::Navigate { .. }
            | TargetAction::Back
            | TargetAction::Forward
            | TargetAction::Reload => return unsupported("a desktop window has no URL or history"),
            TargetAction::AcceptDialog { .. } | TargetAction::DismissDialog => {
                return unsupported(
                    "desktop dialogs are windows: snapshot the dialog's window and click its buttons",
                )
            }
        };
        let before = self.windows_before(&window).await?;
        let start = Instant::now();
        self.platform.press(&window, keys).await?;
        Ok(self.after(&window, before, start).await)
    }

    async fn open_target(&mut self, url: &str) -> Result<TargetId, DesktopError> {
        Err(DesktopError::Unsupported(format!(
            "cannot open {url:?}: desktop windows are opened by their apps"
        )))
    }

    async fn close_target(&mut self, target: &TargetId) -> Result<(), DesktopError> {
        Err(DesktopError::Unsupported(format!(
            "cannot close window {target} this way: use desktop_windows with action close"
        )))
    }

    fn refusal(error: &DesktopError) -> Option<Refusal> {
        error.refusal()
    }

    async fn changed(&mut self, target: &TargetId) -> Result<bool, DesktopError> {
        let window = self.window_of(target)?;
        if self.platform.changed(target, &window).await? {
            return Ok(true);
        }
        // Not yet settled after an action: what it did may still be on its way.
        let app = self.platform.app_key(&window);
        if !self.finish_settle(&app).await {
            return Ok(false);
        }
        self.platform.changed(target, &window).await
    }
}
