//! Reading again only what changed: a window's next capture takes the objects of its last
//! walk that no event touched, and reads again the subtrees events came from.
//!
//! The change signal ([`crate::events`]) keeps the object each of an app's latest events came
//! from. [`Reuse::plan`] turns those into the subtrees to read again:
//!
//! - an event from an object the last walk read marks it and its **parent** (it may be gone,
//!   which only the parent's children list tells);
//! - an event from an object it did not read (new since, or inside something hidden) is
//!   placed by following its `Parent` up to an object it read, which is marked; one that is
//!   gone when asked was never shown (shown objects were read) and changes nothing; one
//!   whose chain leaves the window belongs to another window;
//! - a marked object is read again, children list included; a child the last walk read is
//!   taken unless marked itself, and one it did not read is read with everything under it.
//!
//! Some things are read every time the window changed at all: ranges (scroll bars, sliders,
//! spin buttons, progress and level bars: LibreOffice moves its scroll bars' values without an
//! event), and a container that manages its descendants (a spreadsheet's sheet) with all it
//! holds: AT-SPI calls those descendants transient, and Calc moves the focus off a cell
//! without an event from it.
//!
//! When that cannot be known the window is read whole: the log no longer reaches back to the
//! last capture, the last walk was partial, more than [`MAX_UNPLACED`] events came from
//! objects it did not read, or a chain could not be followed. Bounds changes are not events
//! here (see [`crate::events`]): a reused object keeps the extents it was read with, as an
//! unchanged window already does.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use zbus::zvariant::OwnedObjectPath;

use crate::bus::{iface, Bus};
use crate::capture::Walk;
use crate::fetch::RawObject;
use crate::mapping::{bit, role_name};
use crate::object::{ObjectRef, ROOT_PATH};

/// Above this many objects the last walk did not read that events came from, placing them
/// costs more than reading the window whole. (Calc rebuilds its hidden sidebar panels on the
/// first value typed into a sheet: a few hundred objects with a few ancestors in common.)
pub const MAX_UNPLACED: usize = 2_000;

/// At most this many `Parent` calls are spent placing them (each round asks every object of
/// the round at once, and an ancestor they share once).
const MAX_PLACE_CALLS: usize = 4_000;

/// How far up an unread object's parents are followed.
const MAX_DEPTH: usize = 24;

/// What a capture may take from the window's last walk.
#[derive(Debug)]
pub struct Reuse {
    prev: Arc<Walk>,
    /// The last walk's objects by address, to their index.
    index: HashMap<ObjectRef, usize>,
    /// The last walk's objects read again (each alone: its children decide for themselves).
    marked: HashSet<usize>,
}

/// What a walk does with an object, given the last walk.
pub enum Lookup<'a> {
    /// Takes the last walk's reading.
    Keep(&'a RawObject),
    /// Reads it again; its children decide for themselves.
    Reread,
    /// Reads it and everything under it: the last walk did not read it.
    New,
}

impl Reuse {
    /// What the next capture of `prev`'s window may reuse, given the paths of the objects
    /// its app's events came from since `prev` began; `None`: read the window whole.
    ///
    /// With `grids` false, a container that manages its descendants is read again only when an
    /// event came from it or from under it: for the read that follows another by a moment
    /// (see [`crate::AtspiBackend`]'s settle), where the focus leaving a cell is caught after
    /// the walk instead ([`Walk::focus_conflict`]).
    pub async fn plan(bus: &Bus, prev: Arc<Walk>, sources: &HashSet<String>, grids: bool) -> Option<Reuse> {
        let root = prev.objects.first()?.obj.clone();
        if prev.partial.is_some() {
            return None;
        }
        let index: HashMap<ObjectRef, usize> =
            prev.objects.iter().enumerate().map(|(i, raw)| (raw.obj.clone(), i)).collect();
        let mut marked: HashSet<usize> = prev
            .objects
            .iter()
            .enumerate()
            .filter(|(_, raw)| always_read(raw, grids))
            .map(|(i, _)| i)
            .collect();
        let mut unplaced = Vec::new();
        for path in sources {
            let obj = ObjectRef::new(root.bus.clone(), path.clone());
            match index.get(&obj) {
                Some(&i) => {
                    marked.insert(i);
                    marked.extend(prev.parents[i]);
                }
                None => unplaced.push(obj),
            }
        }
        if unplaced.len() > MAX_UNPLACED {
            return None;
        }
        marked.extend(place(bus, unplaced, &index).await?);
        Some(Reuse { prev, index, marked })
    }

    /// What to do with `obj`, met where the last walk's reading of its parent put it (or a
    /// new reading of it).
    pub fn lookup(&self, obj: &ObjectRef) -> Lookup<'_> {
        match self.index.get(obj) {
            Some(i) if self.marked.contains(i) => Lookup::Reread,
            Some(&i) => Lookup::Keep(&self.prev.objects[i]),
            None => Lookup::New,
        }
    }

    /// How many objects are read again for events.
    pub fn marked(&self) -> usize {
        self.marked.len()
    }
}

/// What is read whenever the window changed: a control whose value is a number in a range,
/// which apps move without telling, and a container of transient descendants.
fn always_read(raw: &RawObject, grids: bool) -> bool {
    (grids && raw.state(bit::MANAGES_DESCENDANTS))
        || matches!(
            role_name(raw.role),
            Some("scroll bar" | "slider" | "spin button" | "progress bar" | "level bar")
        )
}

/// The objects of the last walk under which objects it did not read (`unread`) sit, found by
/// following their parents a round at a time: `None` when that cannot be told (a call failed,
/// a chain ran past [`MAX_DEPTH`], or [`MAX_PLACE_CALLS`] ran out). An object gone before it
/// could be asked was never shown (shown objects were read) and changes nothing; one whose
/// chain leaves the window belongs to another window.
async fn place(bus: &Bus, unread: Vec<ObjectRef>, index: &HashMap<ObjectRef, usize>) -> Option<Vec<usize>> {
    let mut under = Vec::new();
    let mut seen: HashSet<ObjectRef> = unread.iter().cloned().collect();
    let mut round: Vec<ObjectRef> = seen.iter().cloned().collect();
    let mut calls = 0;
    for depth in 0..MAX_DEPTH {
        if round.is_empty() {
            return Some(under);
        }
        calls += round.len();
        if calls > MAX_PLACE_CALLS {
            return None;
        }
        let parents = futures::future::join_all(
            round.iter().map(|o| bus.property::<(String, OwnedObjectPath)>(o, iface::ACCESSIBLE, "Parent")),
        )
        .await;
        let mut next = Vec::new();
        for (obj, parent) in round.iter().zip(parents) {
            let parent: ObjectRef = match parent {
                Ok(p) => p.into(),
                Err(e) if depth == 0 && e.is_gone() => continue,
                Err(_) => return None,
            };
            if let Some(&i) = index.get(&parent) {
                under.push(i);
            } else if parent.is_null() || parent.path == ROOT_PATH || parent.bus != obj.bus {
                // Up to its app without passing the window (or detached): another window's.
            } else if seen.insert(parent.clone()) {
                next.push(parent);
            }
        }
        round = next;
    }
    round.is_empty().then_some(under)
}
