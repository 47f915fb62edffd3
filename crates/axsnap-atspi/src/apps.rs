//! The apps on the accessibility bus and their windows.

use axsnap_desktop::{AppInfo, WindowInfo};
use futures::future::join_all;
use zbus::zvariant::OwnedObjectPath;

use crate::bus::{iface, Bus};
use crate::error::AtspiError;
use crate::mapping::{bit, role_name};
use crate::object::ObjectRef;

/// Lists the apps and their windows. An app that does not answer in time is listed with no
/// windows rather than holding up the others.
pub async fn list(bus: &Bus) -> Result<Vec<AppInfo<ObjectRef>>, AtspiError> {
    let desktop = ObjectRef::desktop();
    let roots: Vec<(String, OwnedObjectPath)> =
        bus.call(&desktop, iface::ACCESSIBLE, "GetChildren", &()).await?;
    let roots: Vec<ObjectRef> = roots.into_iter().map(ObjectRef::from).filter(|r| !r.is_null()).collect();
    Ok(join_all(roots.into_iter().map(|root| app(bus, root))).await.into_iter().flatten().collect())
}

async fn app(bus: &Bus, root: ObjectRef) -> Option<AppInfo<ObjectRef>> {
    let name = match bus.property::<String>(&root, iface::ACCESSIBLE, "Name").await {
        Ok(name) => name,
        // A hung app is still there: named after its program, so asking for it by name says
        // it does not answer rather than that there is no such app.
        Err(AtspiError::Timeout { .. }) => {
            let name = program_name(bus, &root.bus).await.unwrap_or_else(|| root.bus.clone());
            return Some(AppInfo { name, key: root.bus, windows: Vec::new(), answering: false });
        }
        Err(_) => return None,
    };
    let kids: Result<Vec<(String, OwnedObjectPath)>, _> =
        bus.call(&root, iface::ACCESSIBLE, "GetChildren", &()).await;
    let answering = !matches!(kids, Err(AtspiError::Timeout { .. }));
    let windows =
        join_all(kids.unwrap_or_default().into_iter().map(ObjectRef::from).map(|w| window(bus, w))).await;
    Some(AppInfo { name, key: root.bus, windows: windows.into_iter().flatten().collect(), answering })
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

async fn window(bus: &Bus, obj: ObjectRef) -> Option<WindowInfo<ObjectRef>> {
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
        handle: obj,
    })
}
