//! [`ObjectRef`]: an accessible object's address, (bus name, object path), which is also its
//! native identity in a capture.

use std::fmt;

use axsnap_core::NativeId;
use zbus::zvariant::OwnedObjectPath;

/// The registry's desktop: the root whose children are the apps.
pub const REGISTRY: &str = "org.a11y.atspi.Registry";
/// The desktop's path.
pub const ROOT_PATH: &str = "/org/a11y/atspi/accessible/root";
/// AT-SPI's "no object" path.
const NULL_PATH: &str = "/org/a11y/atspi/null";

/// An accessible object: the unique bus name of its app and its object path.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectRef {
    /// The app's unique bus name (`:1.12`).
    pub bus: String,
    /// The object's path.
    pub path: String,
}

impl ObjectRef {
    /// An object at `path` on `bus`.
    pub fn new(bus: impl Into<String>, path: impl Into<String>) -> ObjectRef {
        ObjectRef { bus: bus.into(), path: path.into() }
    }

    /// The desktop, whose children are the apps.
    pub fn desktop() -> ObjectRef {
        ObjectRef::new(REGISTRY, ROOT_PATH)
    }

    /// Whether this is AT-SPI's null reference (no object).
    pub fn is_null(&self) -> bool {
        self.path == NULL_PATH || self.bus.is_empty()
    }

    /// The native id of the object in a capture.
    pub fn native(&self) -> NativeId {
        NativeId::new(self.bus.clone(), self.path.clone())
    }

    /// The object a native id names.
    pub fn from_native(id: &NativeId) -> ObjectRef {
        ObjectRef::new(id.scope.clone(), id.id.clone())
    }
}

impl From<(String, OwnedObjectPath)> for ObjectRef {
    fn from((bus, path): (String, OwnedObjectPath)) -> ObjectRef {
        ObjectRef { bus, path: path.as_str().to_string() }
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.bus, self.path)
    }
}
