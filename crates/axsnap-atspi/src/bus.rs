//! [`Bus`]: the connection to the accessibility bus, and the one way every call goes through
//! it (a timeout on each, errors sorted into "gone", "hung" and "failed").
//!
//! Calls are plain D-Bus method calls rather than zbus proxies: a proxy caches properties and
//! subscribes to their changes, which costs a round trip and a match rule per object, and a
//! capture makes thousands of objects. Replies are read leniently by the callers (roles and
//! states as numbers, interfaces as names), so an app that speaks a newer AT-SPI than ours
//! still gives a tree.

use std::time::Duration;

use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, Type};
use zbus::Connection;

use crate::error::AtspiError;
use crate::object::ObjectRef;

/// How long one call may take before its app counts as hung.
pub const CALL_TIMEOUT: Duration = Duration::from_millis(1500);

/// How long connecting (session bus, then accessibility bus) may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// At most this many calls wait for their replies at once; the rest queue for a turn. zbus
/// hands every reply to each pending call to match, so a wide burst (a walk's 64 objects with
/// five calls each, a grid's 700 cells) costs more CPU per reply than the app takes to answer:
/// on a 2-core machine reading Calc whole took 670-740 ms with ~320 pending, 390-405 with 24
/// (8: 470-500, 48: 430-470).
pub const MAX_PENDING: usize = 24;

/// The accessibility bus's interfaces.
pub mod iface {
    /// Every object.
    pub const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";
    /// Things to do.
    pub const ACTION: &str = "org.a11y.atspi.Action";
    /// Geometry and focus.
    pub const COMPONENT: &str = "org.a11y.atspi.Component";
    /// Text content.
    pub const TEXT: &str = "org.a11y.atspi.Text";
    /// Editable text.
    pub const EDITABLE_TEXT: &str = "org.a11y.atspi.EditableText";
    /// A number in a range.
    pub const VALUE: &str = "org.a11y.atspi.Value";
    /// Selectable children.
    pub const SELECTION: &str = "org.a11y.atspi.Selection";
    /// D-Bus properties.
    pub const PROPERTIES: &str = "org.freedesktop.DBus.Properties";
}

/// A connection to the accessibility bus.
#[derive(Clone, Debug)]
pub struct Bus {
    conn: Connection,
    timeout: Duration,
    /// Turns to have a call pending ([`MAX_PENDING`]).
    turns: std::sync::Arc<tokio::sync::Semaphore>,
}

impl Bus {
    /// Connects to the accessibility bus: the address in `AT_SPI_BUS_ADDRESS` if set, else the
    /// one the session bus's `org.a11y.Bus` gives (starting the bus launcher if it is
    /// activatable). Also switches accessibility on for the session, so toolkits that check
    /// (GTK 4, Qt) expose their apps from their next start.
    pub async fn connect() -> Result<Bus, AtspiError> {
        let address = match std::env::var("AT_SPI_BUS_ADDRESS") {
            Ok(a) if !a.is_empty() => a,
            _ => a11y_address().await?,
        };
        Bus::at(&address).await
    }

    /// Connects to the accessibility bus at `address` (a D-Bus address such as
    /// `unix:path=/tmp/at-spi/bus`).
    pub async fn at(address: &str) -> Result<Bus, AtspiError> {
        let build = async { zbus::connection::Builder::address(address)?.build().await };
        let conn = tokio::time::timeout(CONNECT_TIMEOUT, build)
            .await
            .map_err(|_| {
                AtspiError::NoAccessibilityBus(format!("{address} did not answer within {CONNECT_TIMEOUT:?}"))
            })?
            .map_err(|e| AtspiError::NoAccessibilityBus(format!("connecting to {address}: {e}")))?;
        Ok(Bus {
            conn,
            timeout: CALL_TIMEOUT,
            turns: std::sync::Arc::new(tokio::sync::Semaphore::new(MAX_PENDING)),
        })
    }

    /// The zbus connection (for match rules and signal streams).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// Calls `method` of `iface` on `obj` with `body` and reads the reply as `R`.
    pub async fn call<B, R>(
        &self,
        obj: &ObjectRef,
        iface: &str,
        method: &str,
        body: &B,
    ) -> Result<R, AtspiError>
    where
        B: serde::Serialize + DynamicType,
        R: DeserializeOwned + Type,
    {
        self.call_with(obj, iface, method, body, self.timeout).await
    }

    /// [`Bus::call`] with its own timeout.
    pub async fn call_with<B, R>(
        &self,
        obj: &ObjectRef,
        iface: &str,
        method: &str,
        body: &B,
        timeout: Duration,
    ) -> Result<R, AtspiError>
    where
        B: serde::Serialize + DynamicType,
        R: DeserializeOwned + Type,
    {
        let what = || format!("{method} on {obj}");
        // The timeout counts from the call's turn: a call queued behind others is not late.
        let _turn = self
            .turns
            .acquire()
            .await
            .map_err(|e| AtspiError::Call { what: what(), detail: e.to_string() })?;
        let call =
            self.conn.call_method(Some(obj.bus.as_str()), obj.path.as_str(), Some(iface), method, body);
        let reply = match tokio::time::timeout(timeout, call).await {
            Err(_) => return Err(AtspiError::Timeout { what: what(), after: timeout }),
            Ok(r) => r.map_err(|e| sort_error(what(), e))?,
        };
        reply
            .body()
            .deserialize::<R>()
            .map_err(|e| AtspiError::Call { what: what(), detail: format!("unexpected reply: {e}") })
    }

    /// Reads one property of `iface` on `obj`.
    pub async fn property<R>(&self, obj: &ObjectRef, iface: &str, name: &str) -> Result<R, AtspiError>
    where
        R: TryFrom<zbus::zvariant::OwnedValue>,
    {
        let value: zbus::zvariant::OwnedValue =
            self.call(obj, iface::PROPERTIES, "Get", &(iface, name)).await?;
        R::try_from(value).map_err(|_| AtspiError::Call {
            what: format!("property {name} of {obj}"),
            detail: "a value of another type".into(),
        })
    }
}

/// Sorts a zbus error: an object or app that no longer exists is [`AtspiError::Gone`].
fn sort_error(what: String, e: zbus::Error) -> AtspiError {
    let (name, detail) = match &e {
        zbus::Error::MethodError(name, detail, _) => {
            (name.as_str().to_string(), detail.clone().unwrap_or_default())
        }
        zbus::Error::FDO(f) => (zbus::DBusError::name(f.as_ref()).to_string(), f.to_string()),
        _ => (String::new(), e.to_string()),
    };
    // GTK answers a call on a destroyed object with UnknownObject (or UnknownMethod, when the
    // path no longer has the interface); a gone app's name has no owner.
    let gone = [
        "org.freedesktop.DBus.Error.ServiceUnknown",
        "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.UnknownObject",
        "org.freedesktop.DBus.Error.NoReply",
        "org.freedesktop.DBus.Error.Disconnected",
    ];
    if gone.contains(&name.as_str()) {
        return AtspiError::Gone(format!("{what}: {}", if detail.is_empty() { name } else { detail }));
    }
    AtspiError::Call { what, detail: if detail.is_empty() { name } else { format!("{name}: {detail}") } }
}

/// Asks the session bus for the accessibility bus's address.
async fn a11y_address() -> Result<String, AtspiError> {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_none() {
        return Err(AtspiError::NoSessionBus("DBUS_SESSION_BUS_ADDRESS is not set".into()));
    }
    let ask = async {
        let session = Connection::session().await.map_err(|e| AtspiError::NoSessionBus(e.to_string()))?;
        let reply = session
            .call_method(Some("org.a11y.Bus"), "/org/a11y/bus", Some("org.a11y.Bus"), "GetAddress", &())
            .await
            .map_err(|e| AtspiError::NoAccessibilityBus(e.to_string()))?;
        let address: String =
            reply.body().deserialize().map_err(|e| AtspiError::NoAccessibilityBus(e.to_string()))?;
        // Best effort: toolkits that check the session's switch expose their apps.
        let _ = session
            .call_method(
                Some("org.a11y.Bus"),
                "/org/a11y/bus",
                Some(iface::PROPERTIES),
                "Set",
                &("org.a11y.Status", "IsEnabled", zbus::zvariant::Value::from(true)),
            )
            .await;
        Ok::<_, AtspiError>(address)
    };
    tokio::time::timeout(CONNECT_TIMEOUT, ask).await.map_err(|_| {
        AtspiError::NoSessionBus(format!("the session bus did not answer within {CONNECT_TIMEOUT:?}"))
    })?
}
