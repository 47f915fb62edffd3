//! [`Atspi`]: the desktop layer's [`Platform`] over AT-SPI, the accessibility bus of Linux
//! desktops. What is the same on every system (window ids, settling, window operations,
//! launching) is `axsnap-desktop`'s; this is the bus calls under it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axsnap_core::backend::{Capture, ElementAction};
use axsnap_core::{NativeId, TargetId};
use axsnap_desktop::{AppInfo, DesktopBackend, DesktopError, Pass, Platform};
use zbus::zvariant::OwnedObjectPath;

use crate::bus::{iface, Bus};
use crate::capture::{self, CaptureLimits, Walk};
use crate::error::AtspiError;
use crate::events::{Events, Mark};
use crate::object::ObjectRef;
use crate::reuse::Reuse;
use crate::wm::{Screen, XControl};
use crate::{act, apps, build, keys};

/// The desktop backend over AT-SPI.
pub type AtspiBackend = DesktopBackend<Atspi>;

/// Connects to the accessibility bus: the desktop backend over it.
pub async fn connect() -> Result<AtspiBackend, DesktopError> {
    Ok(DesktopBackend::new(Atspi::connect().await?))
}

/// The desktop backend on an accessibility bus already connected.
pub async fn on(bus: Bus) -> Result<AtspiBackend, DesktopError> {
    Ok(DesktopBackend::new(Atspi::on(bus).await?))
}

/// The accessibility bus, its change events, and what the last capture of each window read.
///
/// A window's handle is its object; an app's key is its bus name.
#[derive(Debug)]
pub struct Atspi {
    bus: Bus,
    /// `None` when the registry refused event registration: every window then counts as
    /// changed (recaptured on every call).
    events: Option<Events>,
    /// Per target, its app's event mark when its last capture began.
    marks: HashMap<String, Mark>,
    /// Per target, its last walk, for the next capture to take what did not change from.
    walks: HashMap<String, Arc<Walk>>,
    limits: CaptureLimits,
    /// The X display window requests go to; `None`: the one in `DISPLAY`.
    display: Option<String>,
}

impl Atspi {
    /// Connects to the accessibility bus and starts listening to its events.
    pub async fn connect() -> Result<Atspi, AtspiError> {
        Atspi::on(Bus::connect().await?).await
    }

    /// The platform on an accessibility bus already connected.
    pub async fn on(bus: Bus) -> Result<Atspi, AtspiError> {
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
        Ok(Atspi {
            bus,
            events,
            marks: HashMap::new(),
            walks: HashMap::new(),
            limits: CaptureLimits::default(),
            display: None,
        })
    }

    /// Sends window requests to X display `display` (`:99`) instead of the one in `DISPLAY`:
    /// for a bus reached by address, whose apps show elsewhere.
    pub fn set_display(&mut self, display: &str) {
        self.display = Some(display.to_string());
    }

    /// The connection.
    pub fn bus(&self) -> &Bus {
        &self.bus
    }

    /// Sets the limits of later captures (the deadline comes from each call).
    pub fn set_limits(&mut self, limits: CaptureLimits) {
        self.limits = limits;
    }

    /// How many objects the last capture of `target` took from the one before instead of
    /// reading them, and how many it holds; `None` before a first capture (or without an
    /// event stream). A window read whole took none.
    pub fn last_reused(&self, target: &TargetId) -> Option<(usize, usize)> {
        self.walks.get(&target.0).map(|w| (w.reused, w.objects.len()))
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
        let walk = capture::walk(&self.bus, obj, limits, reuse.as_ref()).await?;
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
}

impl Platform for Atspi {
    type Window = ObjectRef;
    type Control = XControl;

    async fn apps(&mut self) -> Result<Vec<AppInfo<ObjectRef>>, DesktopError> {
        Ok(apps::list(&self.bus).await?)
    }

    async fn app_windows(&mut self, window: &ObjectRef) -> Result<Vec<ObjectRef>, DesktopError> {
        Ok(self
            .bus
            .call::<_, Vec<(String, OwnedObjectPath)>>(&app_of(window), iface::ACCESSIBLE, "GetChildren", &())
            .await
            .map(|k| k.into_iter().map(ObjectRef::from).collect())?)
    }

    fn app_key(&self, window: &ObjectRef) -> String {
        window.bus.clone()
    }

    fn hears_events(&self) -> bool {
        self.events.is_some()
    }

    async fn quiet_for(&self, app: &str) -> Option<Duration> {
        self.events.as_ref()?.quiet_for(app).await
    }

    async fn capture(
        &mut self,
        target: &TargetId,
        obj: &ObjectRef,
        deadline: Duration,
        pass: Pass,
    ) -> Result<Capture, DesktopError> {
        let began = Instant::now();
        // A first read reads the grids on screen; a read right after one the app changed
        // under reads again only the grids events came from, unless the focus left one of
        // their cells (which Calc does without an event from the cell).
        let mut walk = self.walk(target, obj, deadline, pass == Pass::First).await?;
        if pass == Pass::Again && walk.focus_conflict() {
            tracing::debug!("{target}: the focus left a grid's cell: its cells are read again");
            walk = self.walk(target, obj, deadline.saturating_sub(began.elapsed()), true).await?;
        }
        let tree = build::build(&walk);
        let app =
            self.bus.property::<String>(&app_of(obj), iface::ACCESSIBLE, "Name").await.unwrap_or_default();
        let title = walk.objects.first().map(|r| r.name.clone()).unwrap_or_default();
        // The constructor redacts what the mapping marked protected (password entries).
        Ok(Capture::new(
            target.clone(),
            axsnap_desktop::backend::header(&app, &title),
            tree,
            walk.partial.clone(),
        ))
    }

    async fn changed(&mut self, target: &TargetId, obj: &ObjectRef) -> Result<bool, DesktopError> {
        let (Some(events), Some(mark)) = (&self.events, self.marks.get(&target.0)) else { return Ok(true) };
        Ok(events.changed_since(&self.bus, &obj.bus, obj, *mark).await)
    }

    fn retain(&mut self, keep: &dyn Fn(&TargetId) -> bool) {
        self.walks.retain(|id, _| keep(&TargetId(id.clone())));
        self.marks.retain(|id, _| keep(&TargetId(id.clone())));
    }

    async fn act(
        &mut self,
        window: &ObjectRef,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<(), DesktopError> {
        let obj = ObjectRef::from_native(element);
        if obj.bus != window.bus || obj.path.contains('#') {
            return Err(DesktopError::Unsupported(format!(
                "{obj} is not an element of window {window} that can be acted on"
            )));
        }
        Ok(act::act(&self.bus, &obj, action).await?)
    }

    async fn press(&mut self, _window: &ObjectRef, k: &str) -> Result<(), DesktopError> {
        Ok(keys::press(&self.bus, &keys::parse(k)?).await?)
    }

    async fn title(&mut self, window: &ObjectRef) -> Result<String, DesktopError> {
        Ok(self.bus.property::<String>(window, iface::ACCESSIBLE, "Name").await?)
    }

    async fn control(&mut self, target: &TargetId, window: &ObjectRef) -> Result<XControl, DesktopError> {
        let title = self.title(window).await?;
        let pid = apps::process_id(&self.bus, &window.bus).await;
        let screen = Screen::open(self.display.as_deref())?;
        let xwin = screen.find(pid, &title).ok_or_else(|| {
            DesktopError::Unsupported(format!(
                "window {target} ({title:?}) has no X window of its own on this display that could be told \
                 from its app's others (it may be a Wayland window, or an app that draws all its windows in \
                 one)"
            ))
        })?;
        Ok(XControl::new(screen, xwin))
    }

    fn resolve(&self, app: &str) -> Result<Vec<String>, DesktopError> {
        crate::entries::resolve(app)
    }
}

/// The app root of the app `obj` belongs to.
pub(crate) fn app_of(obj: &ObjectRef) -> ObjectRef {
    ObjectRef::new(obj.bus.clone(), crate::object::ROOT_PATH)
}
