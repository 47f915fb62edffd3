//! The apps on the accessibility bus and their windows.

use futures::future::join_all;
use serde::Serialize;
use zbus::zvariant::OwnedObjectPath;

use crate::bus::{iface, Bus};
use crate::error::AtspiError;
use crate::mapping::{bit, role_name};
use crate::object::ObjectRef;

/// An app that exposes accessibility.
#[derive(Clone, Debug, Serialize)]
pub struct AppInfo {
    /// Its name (usually its program name).
    pub name: String,
    /// Its root object.
    #[serde(skip)]
    pub root: ObjectRef,
    /// Its top-level windows (none when it did not answer).
    pub windows: Vec<WindowInfo>,
    /// False when the app did not answer in time (busy or hung): it is listed, named after its
    /// program, with no windows.
    pub answering: bool,
}

/// A top-level window (a frame, a dialog) of an app.
#[derive(Clone, Debug, Serialize)]
pub struct WindowInfo {
    /// Its title.
    pub title: String,
    /// Its AT-SPI role name (`frame`, `dialog`, `window`).
    pub role: String,
    /// Whether it is the active window.
    pub active: bool,
    /// Whether it is on screen.
    pub showing: bool,
    /// Its object.
    #[serde(skip)]
    pub obj: ObjectRef,
}

/// Lists the apps and their windows. An app that does not answer in time is listed with no
/// windows rather than holding up the others.
pub async fn list(bus: &Bus) -> Result<Vec<AppInfo>, AtspiError> {
    let desktop = ObjectRef::desktop();
    let roots: Vec<(String, OwnedObjectPath)> =
        bus.call(&desktop, iface::ACCESSIBLE, "GetChildren", &()).await?;
    let roots: Vec<ObjectRef> = roots.into_iter().map(ObjectRef::from).filter(|r| !r.is_null()).collect();
    Ok(join_all(roots.into_iter().map(|root| app(bus, root))).await.into_iter().flatten().collect())
}

async fn app(bus: &Bus, root: ObjectRef) -> Option<AppInfo> {
    let name = match bus.property::<String>(&root, iface::ACCESSIBLE, "Name").await {
        Ok(name) => name,
        // A hung app is still there: named after its program, so asking for it by name says
        // it does not answer rather than that there is no such app.
        Err(AtspiError::Timeout { .. }) => {
            let name = program_name(bus, &root.bus).await.unwrap_or_else(|| root.bus.clone());
            return Some(AppInfo { name, root, windows: Vec::new(), answering: false });
        }
        Err(_) => return None,
    };
    let kids: Result<Vec<(String, OwnedObjectPath)>, _> =
        bus.call(&root, iface::ACCESSIBLE, "GetChildren", &()).await;
    let answering = !matches!(kids, Err(AtspiError::Timeout { .. }));
    let windows =
        join_all(kids.unwrap_or_default().into_iter().map(ObjectRef::from).map(|w| window(bus, w))).await;
    Some(AppInfo { name, root, windows: windows.into_iter().flatten().collect(), answering })
}

/// The program behind a connection of the accessibility bus (its process's first argument),
/// asked of the bus daemon, which answers for a hung app.
async fn program_name(bus: &Bus, unique_name: &str) -> Option<String> {
    let pid = process_id(bus, unique_name).await?;
    let cmdline = tokio::fs::read(format!("/proc/{pid}/cmdline")).await.ok()?;
    let argv0 = cmdline.split(|b| *b == 0).next()?;
    let name = String::from_utf8_lossy(argv0).rsplit('/').next()?.to_string();
    (!name.is_empty()).then_some(name)
}

/// The process behind a connection of the accessibility bus, asked of the bus daemon.
pub(crate) async fn process_id(bus: &Bus, unique_name: &str) -> Option<u32> {
    let daemon = ObjectRef::new("org.freedesktop.DBus", "/org/freedesktop/DBus");
    bus.call(&daemon, "org.freedesktop.DBus", "GetConnectionUnixProcessID", &(unique_name,)).await.ok()
}

async fn window(bus: &Bus, obj: ObjectRef) -> Option<WindowInfo> {
    let title = bus.property::<String>(&obj, iface::ACCESSIBLE, "Name");
    let role = bus.call::<_, u32>(&obj, iface::ACCESSIBLE, "GetRole", &());
    let states = bus.call::<_, Vec<u32>>(&obj, iface::ACCESSIBLE, "GetState", &());
    let (title, role, states) = futures::join!(title, role, states);
    let states = states.ok()?;
    let word = |b: u32| states.get((b / 32) as usize).is_some_and(|w| w & (1 << (b % 32)) != 0);
    Some(WindowInfo {
        title: title.unwrap_or_default(),
        role: role.ok().and_then(role_name).unwrap_or("window").to_string(),
        active: word(bit::ACTIVE),
        showing: word(bit::SHOWING),
        obj,
    })
}

/// Finds the app named `name` (exactly, else case-insensitively, else the one name that holds
/// it).
pub fn find_app<'a>(apps: &'a [AppInfo], name: &str) -> Result<&'a AppInfo, AtspiError> {
    let lower = name.to_lowercase();
    let exact = apps.iter().find(|a| a.name == name);
    let folded = || apps.iter().find(|a| a.name.to_lowercase() == lower);
    let holding = || {
        let mut it = apps.iter().filter(|a| a.name.to_lowercase().contains(&lower));
        match (it.next(), it.next()) {
            (Some(a), None) => Some(a),
            _ => None,
        }
    };
    exact.or_else(folded).or_else(holding).ok_or_else(|| AtspiError::NoSuchApp {
        name: name.to_string(),
        known: names(apps.iter().map(|a| a.name.as_str())),
    })
}

/// Finds a window of `app`: the one titled `title` (exactly, else the one title that holds
/// it), or without a title the active window, else the first one showing, else the first.
pub fn find_window<'a>(app: &'a AppInfo, title: Option<&str>) -> Result<&'a WindowInfo, AtspiError> {
    if !app.answering {
        return Err(AtspiError::Timeout {
            what: format!("listing the windows of {}", app.name),
            after: crate::bus::CALL_TIMEOUT,
        });
    }
    let found = match title {
        Some(t) => app.windows.iter().find(|w| w.title == t).or_else(|| {
            let lower = t.to_lowercase();
            let mut it = app.windows.iter().filter(|w| w.title.to_lowercase().contains(&lower));
            match (it.next(), it.next()) {
                (Some(w), None) => Some(w),
                _ => None,
            }
        }),
        None => app
            .windows
            .iter()
            .find(|w| w.active)
            .or_else(|| app.windows.iter().find(|w| w.showing))
            .or(app.windows.first()),
    };
    found.ok_or_else(|| AtspiError::NoSuchWindow {
        app: app.name.clone(),
        wanted: title.map(|t| format!("{t:?} ")).unwrap_or_default(),
        known: names(app.windows.iter().map(|w| w.title.as_str())),
    })
}

fn names<'a>(it: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<String> = it.map(|n| format!("{n:?}")).collect();
    if all.is_empty() {
        "none".into()
    } else {
        all.join(", ")
    }
}
