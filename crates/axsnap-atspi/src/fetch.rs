//! Reading one object: [`fetch`] asks for everything a capture maps, in two rounds of calls
//! that run at the same time (the object's own properties, then what its interfaces offer).

use std::collections::HashMap;
use std::sync::Arc;

use zbus::zvariant::{OwnedObjectPath, OwnedValue};

use crate::bus::{iface, Bus};
use crate::error::AtspiError;
use crate::grid::{self, GridWindow};
use crate::object::ObjectRef;

/// Above this many children a container is read by index, not with `GetChildren`, and only
/// its first [`MANY_CHILDREN`] (a spreadsheet can report 2,147,483,647).
pub const MANY_CHILDREN: i32 = 500;

/// Texts longer than this are read only up to it.
pub const MAX_TEXT: i32 = 20_000;

/// Which children [`fetch`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Children {
    /// None.
    Never,
    /// Those of an object that is `VISIBLE` or `SHOWING` (what is neither holds nothing
    /// shown; whether a visible object is on screen is the walk's call, see
    /// [`crate::capture::Walk::showing_reliable`]).
    IfVisible,
    /// All (web content marks nodes scrolled out of view as not showing).
    Always,
}

/// What one object says of itself, as AT-SPI gives it.
#[derive(Clone, Debug, Default)]
pub struct RawObject {
    /// Its address.
    pub obj: ObjectRef,
    /// AT-SPI role number.
    pub role: u32,
    /// Accessible name.
    pub name: String,
    /// Accessible description.
    pub description: String,
    /// The toolkit's id for it (GtkBuildable ids), if any.
    pub accessible_id: String,
    /// State bits (AT-SPI's two 32-bit words as one).
    pub states: u64,
    /// Interface names, without the `org.a11y.atspi.` prefix.
    pub interfaces: Vec<String>,
    /// Object attributes (`xml-roles`, `level`, toolkit ids).
    pub attributes: HashMap<String, String>,
    /// Children in order (at most [`MANY_CHILDREN`] when there were more).
    pub children: Vec<ObjectRef>,
    /// The child count the app reported.
    pub child_count: i32,
    /// Screen extents (x, y, w, h), when it has a Component.
    pub extents: Option<(i32, i32, i32, i32)>,
    /// Its text, when it has the Text interface (cut at [`MAX_TEXT`]).
    pub text: Option<String>,
    /// (current, minimum, maximum), when it has the Value interface.
    pub value: Option<(f64, f64, f64)>,
    /// Action names (not localized), in index order.
    pub actions: Vec<String>,
    /// For a table that manages its descendants, the window on screen whose cells are its
    /// `children` (module `grid`).
    pub grid: Option<GridWindow>,
    /// For such a table whose cells are a spreadsheet's (`lite_cells`), its first cell on
    /// screen, read whole: the other cells are read by `fetch_cell` with it.
    pub cell_template: Option<Arc<RawObject>>,
}

impl RawObject {
    /// Whether it implements `name` (`"Text"`, `"Action"`).
    pub fn has(&self, name: &str) -> bool {
        self.interfaces.iter().any(|i| i == name)
    }

    /// Whether AT-SPI state bit `bit` is set.
    pub fn state(&self, bit: u32) -> bool {
        self.states & (1u64 << bit) != 0
    }
}

/// Reads `obj`. Calls of the second round that fail leave their field empty (an app may list
/// an interface it then does not answer on); a failure of the first round is the object's.
pub async fn fetch(bus: &Bus, obj: &ObjectRef, children: Children) -> Result<RawObject, AtspiError> {
    let props =
        bus.call::<_, HashMap<String, OwnedValue>>(obj, iface::PROPERTIES, "GetAll", &(iface::ACCESSIBLE,));
    let role = bus.call::<_, u32>(obj, iface::ACCESSIBLE, "GetRole", &());
    let states = bus.call::<_, Vec<u32>>(obj, iface::ACCESSIBLE, "GetState", &());
    let interfaces = bus.call::<_, Vec<String>>(obj, iface::ACCESSIBLE, "GetInterfaces", &());
    let attributes = bus.call::<_, HashMap<String, String>>(obj, iface::ACCESSIBLE, "GetAttributes", &());
    let (props, role, states, interfaces, attributes) =
        futures::join!(props, role, states, interfaces, attributes);
    let props = props?;
    let states = states?;
    let mut raw = RawObject {
        obj: obj.clone(),
        role: role?,
        name: string_prop(&props, "Name"),
        description: string_prop(&props, "Description"),
        accessible_id: string_prop(&props, "AccessibleId"),
        states: state_bits(&states),
        interfaces: interfaces?
            .into_iter()
            .map(|i| i.trim_start_matches("org.a11y.atspi.").to_string())
            .collect(),
        attributes: attributes.unwrap_or_default(),
        child_count: props.get("ChildCount").and_then(|v| i32::try_from(v.clone()).ok()).unwrap_or(0),
        ..RawObject::default()
    };

    let children = async {
        use crate::mapping::bit;
        let shown = raw.state(bit::SHOWING) || raw.state(bit::VISIBLE) || children == Children::Always;
        let managed = raw.child_count > MANY_CHILDREN || raw.state(bit::MANAGES_DESCENDANTS);
        if children == Children::Never || !shown || raw.child_count <= 0 {
            Ok((Vec::new(), None, None))
        } else if managed && raw.has("Table") {
            match grid::visible_cells(bus, obj).await? {
                Some((window, cells)) => {
                    let template = match cells.first() {
                        Some(first) => Box::pin(fetch(bus, first, Children::Never)).await.ok(),
                        None => None,
                    };
                    let template = template.filter(lite_cells).map(Arc::new);
                    Ok((cells, Some(window), template))
                }
                None => children_by_index(bus, obj, raw.child_count.min(MANY_CHILDREN))
                    .await
                    .map(|c| (c, None, None)),
            }
        } else if raw.child_count > MANY_CHILDREN {
            children_by_index(bus, obj, MANY_CHILDREN).await.map(|c| (c, None, None))
        } else {
            bus.call::<_, Vec<(String, OwnedObjectPath)>>(obj, iface::ACCESSIBLE, "GetChildren", &())
                .await
                .map(|c| (c.into_iter().map(ObjectRef::from).filter(|c| !c.is_null()).collect(), None, None))
        }
    };
    let extents = async {
        if !raw.has("Component") {
            return None;
        }
        bus.call::<_, (i32, i32, i32, i32)>(obj, iface::COMPONENT, "GetExtents", &(0u32,)).await.ok()
    };
    let text = async {
        if !raw.has("Text") {
            return None;
        }
        let count: i32 = bus.property(obj, iface::TEXT, "CharacterCount").await.ok()?;
        if count <= 0 {
            return Some(String::new());
        }
        bus.call::<_, String>(obj, iface::TEXT, "GetText", &(0i32, count.min(MAX_TEXT))).await.ok()
    };
    let value = async {
        if !raw.has("Value") {
            return None;
        }
        let all = bus
            .call::<_, HashMap<String, OwnedValue>>(obj, iface::PROPERTIES, "GetAll", &(iface::VALUE,))
            .await
            .ok()?;
        let num = |k: &str| all.get(k).and_then(|v| f64::try_from(v.clone()).ok());
        Some((
            num("CurrentValue")?,
            num("MinimumValue").unwrap_or(f64::NAN),
            num("MaximumValue").unwrap_or(f64::NAN),
        ))
    };
    let actions = async {
        if !raw.has("Action") {
            return Vec::new();
        }
        // GetActions gives localized names ("Click", "Klicken"); GetName the ones to match.
        let Ok(count) = bus.property::<i32>(obj, iface::ACTION, "NActions").await else { return Vec::new() };
        let names = (0..count.clamp(0, 32)).map(|i| async move {
            bus.call::<_, String>(obj, iface::ACTION, "GetName", &(i,)).await.unwrap_or_default()
        });
        futures::future::join_all(names).await
    };
    let (children, extents, text, value, actions) = futures::join!(children, extents, text, value, actions);
    (raw.children, raw.grid, raw.cell_template) = children?;
    raw.extents = extents;
    raw.text = text;
    raw.value = value;
    raw.actions = actions;
    Ok(raw)
}

/// Whether the cells of a grid whose first cell is `template` can be read by [`fetch_cell`]:
/// a spreadsheet's (a table cell with Text and Value, holding no objects of its own), whose
/// text says whether it holds anything. Other grids' cells (a tree view's, whose text may be
/// their name) are read whole.
fn lite_cells(template: &RawObject) -> bool {
    crate::mapping::role_name(template.role) == Some("table cell")
        && template.has("Text")
        && template.has("Value")
        && template.child_count == 0
}

/// Reads a cell of a grid whose first cell `template` is a spreadsheet's (a
/// [`RawObject::cell_template`]): its states and the length of its text first, and when it is
/// empty and neither focused nor selected (what a grid lists only as a count: most of a
/// sheet's screen), nothing more; any other cell is read whole. Two calls instead of about ten
/// for each empty cell, which is most of a spreadsheet's capture.
pub(crate) async fn fetch_cell(
    bus: &Bus,
    obj: &ObjectRef,
    template: &RawObject,
) -> Result<RawObject, AtspiError> {
    use crate::mapping::bit;
    let states = bus.call::<_, Vec<u32>>(obj, iface::ACCESSIBLE, "GetState", &());
    let count = bus.property::<i32>(obj, iface::TEXT, "CharacterCount");
    let (states, count) = futures::join!(states, count);
    let states = state_bits(&states?);
    let on = |b: u32| states & (1u64 << b) != 0;
    if count.ok() != Some(0) || on(bit::FOCUSED) || on(bit::SELECTED) {
        return fetch(bus, obj, Children::IfVisible).await;
    }
    Ok(RawObject {
        obj: obj.clone(),
        role: template.role,
        interfaces: template.interfaces.clone(),
        states,
        text: Some(String::new()),
        ..RawObject::default()
    })
}

/// The first `limit` children, one `GetChildAtIndex` each (all at once): never a walk over a
/// count the app reports.
async fn children_by_index(bus: &Bus, obj: &ObjectRef, limit: i32) -> Result<Vec<ObjectRef>, AtspiError> {
    let calls = (0..limit).map(|i| async move {
        bus.call::<_, (String, OwnedObjectPath)>(obj, iface::ACCESSIBLE, "GetChildAtIndex", &(i,)).await
    });
    objects_of(futures::future::join_all(calls).await)
}

/// The objects a batch of calls answered, in order: AT-SPI's null reference and an object that
/// failed (gone meanwhile) are left out; a timeout fails the batch (the app is hung).
pub(crate) fn objects_of(
    replies: Vec<Result<(String, OwnedObjectPath), AtspiError>>,
) -> Result<Vec<ObjectRef>, AtspiError> {
    let mut out = Vec::new();
    for r in replies {
        match r {
            Ok(c) => {
                let c = ObjectRef::from(c);
                if !c.is_null() {
                    out.push(c);
                }
            }
            Err(e @ AtspiError::Timeout { .. }) => return Err(e),
            Err(_) => {}
        }
    }
    Ok(out)
}

/// AT-SPI's two 32-bit state words as one.
fn state_bits(words: &[u32]) -> u64 {
    u64::from(words.first().copied().unwrap_or(0)) | (u64::from(words.get(1).copied().unwrap_or(0)) << 32)
}

fn string_prop(props: &HashMap<String, OwnedValue>, key: &str) -> String {
    props.get(key).and_then(|v| String::try_from(v.clone()).ok()).unwrap_or_default()
}
