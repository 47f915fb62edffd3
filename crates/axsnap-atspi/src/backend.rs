//! [`AtspiBackend`]: the core's [`Backend`] over the desktop's windows.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, Refusal, TargetAction, TargetSummary};
use axsnap_core::{Header, NativeId, TargetId};
use serde::Serialize;
use zbus::zvariant::OwnedObjectPath;

use crate::apps::{self, AppInfo};
use crate::bus::{iface, Bus};
use crate::capture::{self, CaptureLimits, Walk};
use crate::error::AtspiError;
use crate::events::{Events, Mark};
use crate::object::ObjectRef;
use crate::reuse::Reuse;
use crate::{act, build, keys};

/// An app is settled after an action once it has sent no event for this long.
const QUIET: Duration = Duration::from_millis(150);
/// ... but the capture that follows an action may begin once it has been quiet this long: the
/// rest of [`QUIET`] is waited for while (and after) the window is read, and a window that
/// changed meanwhile is read again (see [`AtspiBackend::capture`]).
const FIRST_QUIET: Duration = Duration::from_millis(50);
/// ... or once this much time has passed.
const SETTLE_CAP: Duration = Duration::from_secs(3);

/// A window, as [`AtspiBackend::windows`] lists it.
#[derive(Clone, Debug, Serialize)]
pub struct DesktopWindow {
    /// The id to target it by (`w1`).
    pub id: String,
    /// Its app's name.
    pub app: String,
    /// Its title.
    pub title: String,
    /// AT-SPI role (`frame`, `dialog`).
    pub role: String,
    /// Whether it is the active window.
    pub active: bool,
}

/// What [`AtspiBackend::listing`] found.
#[derive(Clone, Debug, Serialize)]
pub struct Listing {
    /// Every window of the apps that answered.
    pub windows: Vec<DesktopWindow>,
    /// The apps that did not answer in time (busy or hung), by name.
    pub not_answering: Vec<String>,
}

/// The desktop backend: the windows of the apps on the accessibility bus.
///
/// Targets are windows, named `w1`, `w2`, ... in the order this backend first saw them; an id
/// keeps naming its window while the backend lives. A window's app is its object's bus name.
#[derive(Debug)]
pub struct AtspiBackend {
    bus: Bus,
    /// `None` when the registry refused event registration: every window then counts as
    /// changed (recaptured on every call).
    events: Option<Events>,
    ids: BTreeMap<String, ObjectRef>,
    by_obj: HashMap<ObjectRef, String>,
    next_id: u32,
    /// Per target, its app's event mark when its last capture began.
    marks: HashMap<String, Mark>,
    /// Per target, its last walk, for the next capture to take what did not change from.
    walks: HashMap<String, Arc<Walk>>,
    limits: CaptureLimits,
    /// The X display window requests go to; `None`: the one in `DISPLAY`.
    display: Option<String>,
    /// Apps acted on whose settle is not yet over (they have been quiet for [`FIRST_QUIET`],
    /// not yet for [`QUIET`]), with when the action began.
    settling: HashMap<String, Instant>,
}

impl AtspiBackend {
    /// Connects to the accessibility bus and starts listening to its events.
    pub async fn connect() -> Result<AtspiBackend, AtspiError> {
        AtspiBackend::on(Bus::connect().await?).await
    }

    /// The backend on an accessibility bus already connected.
    pub async fn on(bus: Bus) -> Result<AtspiBackend, AtspiError> {
        let events = match Events::listen(&bus).await {
            Ok(e) => Some(e),
            Err(e) => {
                tracing::warn!("no AT-SPI events ({e}); every window is recaptured on every call");
                None
            }
        };
        // Fail now, clearly, when no registry answers on the bus. The first call may start
        // the registry, so it gets longer than a call.
        bus.call_with::<_, Vec<(String, OwnedObjectPath)>>(
            &ObjectRef::desktop(),
            iface::ACCESSIBLE,
            "GetChildren",
            &(),
            Duration::from_secs(5),
        )
        .await
        .map_err(|e| match e {
            AtspiError::Timeout { .. } => e,
            AtspiError::Gone(detail) | AtspiError::Call { detail, .. } => {
                AtspiError::NoAccessibilityBus(format!("no AT-SPI registry answers on it: {detail}"))
            }
            e => AtspiError::NoAccessibilityBus(format!("no AT-SPI registry answers on it: {e}")),
        })?;
        Ok(AtspiBackend {
            bus,
            events,
            ids: BTreeMap::new(),
            by_obj: HashMap::new(),
            next_id: 1,
            marks: HashMap::new(),
            walks: HashMap::new(),
            limits: CaptureLimits::default(),
            display: None,
            settling: HashMap::new(),
        })
    }

    /// Sends window requests ([`AtspiBackend::manage`]) to X display `display` (`:99`) instead
    /// of the one in `DISPLAY`: for a bus reached by address, whose apps show elsewhere.
    pub fn set_display(&mut self, display: &str) {
        self.display = Some(display.to_string());
    }

    /// The X display window requests go to, when set (else `DISPLAY`'s).
    pub(crate) fn display(&self) -> Option<&str> {
        self.display.as_deref()
    }

    /// What a capture of `target` may take from its last walk: `None` when it reads the
    /// window whole (the first capture, no event stream, incremental capture off, or
    /// [`Reuse::plan`] cannot tell).
    async fn reuse(&self, target: &TargetId, obj: &ObjectRef, grids: bool) -> Option<Reuse> {
        if !self.limits.incremental {
            return None;
        }
        let (events, mark, prev) =
            (self.events.as_ref()?, self.marks.get(&target.0)?, self.walks.get(&target.0)?);
        let sources = events.sources_since(&self.bus, &obj.bus, obj, *mark).await?;
        Reuse::plan(&self.bus, prev.clone(), &sources, grids).await
    }

    /// How many objects the last capture of `target` took from the one before instead of
    /// reading them, and how many it holds; `None` before a first capture (or without an
    /// event stream). A window read whole took none.
    pub fn last_reused(&self, target: &TargetId) -> Option<(usize, usize)> {
        self.walks.get(&target.0).map(|w| (w.reused, w.objects.len()))
    }

    /// The connection.
    pub fn bus(&self) -> &Bus {
        &self.bus
    }

    /// Sets the limits of later captures (the deadline comes from each call).
    pub fn set_limits(&mut self, limits: CaptureLimits) {
        self.limits = limits;
    }

    /// The apps on the bus and their windows.
    pub async fn apps(&self) -> Result<Vec<AppInfo>, AtspiError> {
        apps::list(&self.bus).await
    }

    /// Every window of every app, with the ids to target them by.
    pub async fn windows(&mut self) -> Result<Vec<DesktopWindow>, AtspiError> {
        Ok(self.listing().await?.windows)
    }

    /// Every window of every app, with the ids to target them by, and the apps that did not
    /// answer (whose windows cannot be listed).
    pub async fn listing(&mut self) -> Result<Listing, AtspiError> {
        let apps = self.apps().await?;
        let not_answering = apps.iter().filter(|a| !a.answering).map(|a| a.name.clone()).collect();
        let mut out = Vec::new();
        for app in &apps {
            for w in &app.windows {
                let id = self.id_of(&w.obj);
                out.push(DesktopWindow {
                    id,
                    app: app.name.clone(),
                    title: w.title.clone(),
                    role: w.role.clone(),
                    active: w.active,
                });
            }
        }
        // A window no longer listed (its app answered) is closed: its last walk goes.
        let listed: HashSet<&str> = out.iter().map(|w| w.id.as_str()).collect();
        let silent: HashSet<&str> =
            apps.iter().filter(|a| !a.answering).map(|a| a.root.bus.as_str()).collect();
        let ids = &self.ids;
        self.walks.retain(|id, _| {
            listed.contains(id.as_str()) || ids.get(id).is_some_and(|o| silent.contains(o.bus.as_str()))
        });
        Ok(Listing { windows: out, not_answering })
    }

    /// The id of `app`'s window titled `title` (or its active or first window).
    pub async fn window(&mut self, app: &str, title: Option<&str>) -> Result<TargetId, AtspiError> {
        let apps = self.apps().await?;
        let app = apps::find_app(&apps, app)?;
        let w = apps::find_window(app, title)?;
        Ok(TargetId(self.id_of(&w.obj)))
    }

    fn id_of(&mut self, obj: &ObjectRef) -> String {
        if let Some(id) = self.by_obj.get(obj) {
            return id.clone();
        }
        let id = format!("w{}", self.next_id);
        self.next_id += 1;
        self.ids.insert(id.clone(), obj.clone());
        self.by_obj.insert(obj.clone(), id.clone());
        id
    }

    fn obj(&self, target: &TargetId) -> Result<ObjectRef, AtspiError> {
        self.ids.get(&target.0).cloned().ok_or_else(|| AtspiError::NoSuchTarget(target.0.clone()))
    }

    /// The window object an id names.
    pub(crate) fn object_of(&self, target: &TargetId) -> Result<ObjectRef, AtspiError> {
        self.obj(target)
    }

    /// The id of a window object, given one now if it has none.
    pub(crate) fn target_of(&mut self, obj: &ObjectRef) -> TargetId {
        TargetId(self.id_of(obj))
    }

    /// The windows (top-level children) of `window`'s app.
    async fn app_windows(&self, window: &ObjectRef) -> Result<Vec<ObjectRef>, AtspiError> {
        self.bus
            .call::<_, Vec<(String, OwnedObjectPath)>>(&app_of(window), iface::ACCESSIBLE, "GetChildren", &())
            .await
            .map(|k| k.into_iter().map(ObjectRef::from).collect())
    }

    /// The app's windows before an action: a hung or gone app fails the action at once (it
    /// would not answer the action either); any other failure only costs the list of windows
    /// the action opened.
    async fn windows_before(&self, window: &ObjectRef) -> Result<Vec<ObjectRef>, AtspiError> {
        match self.app_windows(window).await {
            Ok(w) => Ok(w),
            Err(e @ (AtspiError::Timeout { .. } | AtspiError::Gone(_))) => Err(e),
            Err(_) => Ok(Vec::new()),
        }
    }

    /// Waits until `app` has been quiet for `quiet` and that long has passed since `start` (or
    /// [`SETTLE_CAP`] passed since `start`: then `false`).
    async fn settle(&self, app: &str, start: Instant, quiet: Duration) -> bool {
        let Some(events) = &self.events else {
            tokio::time::sleep(quiet.saturating_sub(start.elapsed())).await;
            return true;
        };
        loop {
            let since = events.quiet_for(app).await.unwrap_or(Duration::MAX);
            if since >= quiet && start.elapsed() >= quiet {
                return true;
            }
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

    /// Reads window `obj` (as `target`), taking from its last walk what no event touched, and
    /// keeps the walk and the event mark from before it for the next capture. `grids`: see
    /// [`Reuse::plan`].
    async fn walk(
        &mut self,
        target: &TargetId,
        obj: &ObjectRef,
        deadline: Duration,
        grids: bool,
    ) -> Result<Arc<Walk>, AtspiError> {
        // Events that came during the walk may tell a change the walk read before it
        // happened, so the mark is the one from before; reading objects makes some toolkits
        // create them, with events, so a first capture is often followed by a second.
        // The new mark is taken before the last one is compared: an event in between is then
        // both read now (if the walk gets there) and seen by the next capture.
        let before = self.events.as_ref().map(|e| e.mark(&obj.bus));
        let reuse = self.reuse(target, obj, grids).await;
        self.marks.remove(&target.0);
        self.walks.remove(&target.0);
        let limits = CaptureLimits { deadline, ..self.limits };
        let walk = capture::walk(&self.bus, obj, limits, reuse.as_ref()).await.map_err(|e| match e {
            AtspiError::Gone(why) => AtspiError::Gone(format!("window {target} is closed ({why})")),
            e => e,
        })?;
        tracing::debug!(
            objects = walk.objects.len(),
            reused = walk.reused,
            marked = reuse.as_ref().map(Reuse::marked),
            elapsed = ?walk.elapsed,
            "captured {target}"
        );
        let walk = Arc::new(walk);
        if let Some(before) = before {
            self.marks.insert(target.0.clone(), before);
            self.walks.insert(target.0.clone(), walk.clone());
        }
        Ok(walk)
    }

    async fn after(&mut self, window: &ObjectRef, before: Vec<ObjectRef>, start: Instant) -> Outcome {
        let acted = start.elapsed();
        // Without events nothing tells a capture that the app changed meanwhile: it waits
        // the whole settle here.
        let first = if self.events.is_some() { FIRST_QUIET } else { QUIET };
        let settled = self.settle(&window.bus, start, first).await;
        if settled && self.events.is_some() {
            self.settling.insert(window.bus.clone(), start);
        }
        tracing::debug!(acted = ?acted, quiet_after = ?start.elapsed(), "acted on {window}");
        let now = self.app_windows(window).await.unwrap_or_default();
        let opened = now.iter().filter(|w| !before.contains(w)).map(|w| TargetId(self.id_of(w))).collect();
        Outcome {
            settled,
            elapsed: start.elapsed(),
            opened,
            unsettled: (!settled).then(|| format!("the app kept sending events for {SETTLE_CAP:?}")),
            ..Outcome::default()
        }
    }
}

impl Backend for AtspiBackend {
    type Error = AtspiError;

    async fn targets(&mut self) -> Result<Vec<TargetSummary>, AtspiError> {
        Ok(self
            .windows()
            .await?
            .into_iter()
            .map(|w| TargetSummary { id: TargetId(w.id), header: header(&w.app, &w.title), active: w.active })
            .collect())
    }

    async fn capture(&mut self, target: &TargetId, deadline: Duration) -> Result<Capture, AtspiError> {
        let obj = self.obj(target)?;
        let began = Instant::now();
        let mut walk = self.walk(target, &obj, deadline, true).await?;
        // Right after an action the window was read once its app had been quiet for
        // FIRST_QUIET; the rest of the settle runs now. A window that changed meanwhile (the
        // app was not done) is read again, from this walk, once: an app that keeps sending
        // events is then captured as it stands, as without the head start. The grids this
        // walk just read are read again only if events came from them, or if the focus left
        // one of their cells (which Calc does without an event from the cell).
        if self.finish_settle(&obj.bus).await && self.changed(target).await? {
            tracing::debug!("{target} changed while it was read after an action: read again");
            walk = self.walk(target, &obj, deadline.saturating_sub(began.elapsed()), false).await?;
            if walk.focus_conflict() {
                tracing::debug!("{target}: the focus left a grid's cell: its cells are read again");
                walk = self.walk(target, &obj, deadline.saturating_sub(began.elapsed()), true).await?;
            }
        }
        let tree = build::build(&walk);
        let app =
            self.bus.property::<String>(&app_of(&obj), iface::ACCESSIBLE, "Name").await.unwrap_or_default();
        let title = walk.objects.first().map(|r| r.name.clone()).unwrap_or_default();
        // The constructor redacts what the mapping marked protected (password entries).
        Ok(Capture::new(target.clone(), header(&app, &title), tree, walk.partial.clone()))
    }

    async fn act(
        &mut self,
        target: &TargetId,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<Outcome, AtspiError> {
        let window = self.obj(target)?;
        let obj = ObjectRef::from_native(element);
        if obj.bus != window.bus || obj.path.contains('#') {
            return Err(AtspiError::Unsupported(format!(
                "{obj} is not an element of window {target} that can be acted on"
            )));
        }
        let before = self.windows_before(&window).await?;
        let start = Instant::now();
        act::act(&self.bus, &obj, action).await?;
        Ok(self.after(&window, before, start).await)
    }

    async fn act_on_target(
        &mut self,
        target: &TargetId,
        action: &TargetAction,
    ) -> Result<Outcome, AtspiError> {
        let window = self.obj(target)?;
        let before = self.windows_before(&window).await?;
        let start = Instant::now();
        match action {
            TargetAction::Press { keys: k } => keys::press(&self.bus, &keys::parse(k)?).await?,
            TargetAction::Scroll { .. } => {
                return Err(AtspiError::Unsupported(
                    "scroll an element of the window (scroll ref=...)".into(),
                ))
            }
            TargetAction::Pointer { .. } => {
                return Err(AtspiError::Unsupported(
                    "a desktop window is acted on by its elements' refs, not by coordinates".into(),
                ))
            }
            TargetAction::Navigate { .. }
            | TargetAction::Back
            | TargetAction::Forward
            | TargetAction::Reload => {
                return Err(AtspiError::Unsupported("a desktop window has no URL or history".into()))
            }
            TargetAction::AcceptDialog { .. } | TargetAction::DismissDialog => {
                return Err(AtspiError::Unsupported(
                    "desktop dialogs are windows: snapshot the dialog's window and click its buttons".into(),
                ))
            }
        }
        Ok(self.after(&window, before, start).await)
    }

    async fn open_target(&mut self, url: &str) -> Result<TargetId, AtspiError> {
        Err(AtspiError::Unsupported(format!("cannot open {url:?}: desktop windows are opened by their apps")))
    }

    async fn close_target(&mut self, target: &TargetId) -> Result<(), AtspiError> {
        Err(AtspiError::Unsupported(format!("cannot close window {target}: close it with its own controls")))
    }

    fn refusal(error: &AtspiError) -> Option<Refusal> {
        match error {
            AtspiError::Gone(_) => Some(Refusal::Gone),
            AtspiError::Refused { kind, .. } => Some(*kind),
            AtspiError::BadKey(_) => Some(Refusal::BadKey),
            _ => None,
        }
    }

    async fn changed(&mut self, target: &TargetId) -> Result<bool, AtspiError> {
        let obj = self.obj(target)?;
        let (Some(events), Some(mark)) = (&self.events, self.marks.get(&target.0)) else { return Ok(true) };
        let mark = *mark;
        if events.changed_since(&self.bus, &obj.bus, &obj, mark).await {
            return Ok(true);
        }
        // Not yet settled after an action: what it did may still be on its way.
        if !self.finish_settle(&obj.bus).await {
            return Ok(false);
        }
        let Some(events) = &self.events else { return Ok(true) };
        Ok(events.changed_since(&self.bus, &obj.bus, &obj, mark).await)
    }
}

fn header(app: &str, title: &str) -> Header {
    let title = match (app.is_empty(), title.is_empty()) {
        (_, true) => app.to_string(),
        (true, false) => title.to_string(),
        (false, false) => format!("{title} ({app})"),
    };
    Header { url: None, title: (!title.is_empty()).then_some(title) }
}

/// The app root of the app `obj` belongs to.
pub(crate) fn app_of(obj: &ObjectRef) -> ObjectRef {
    ObjectRef::new(obj.bus.clone(), crate::object::ROOT_PATH)
}
