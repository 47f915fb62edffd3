//! Capturing a window: a walk that reads each object ([`fetch`]) as soon as its parent has
//! been read, under a deadline and a node cap, then [`crate::build`] turns what was read
//! into the core's raw tree.
//!
//! A slow or hung app gives a partial capture that says what is missing; only a window that
//! does not answer at all is an error. An object that vanishes during the walk (a window
//! closing, a menu folding) is left out; its siblings stay.

use std::time::{Duration, Instant};

use futures::StreamExt;

use crate::bus::Bus;
use crate::error::AtspiError;
use crate::fetch::{fetch, fetch_cell, Children, RawObject};
use crate::mapping::{bit, role_name};
use crate::object::ObjectRef;
use crate::reuse::{Lookup, Reuse};

/// Limits of one capture.
#[derive(Clone, Copy, Debug)]
pub struct CaptureLimits {
    /// Stop walking after this long; what was read is kept.
    pub deadline: Duration,
    /// Stop after this many objects.
    pub max_nodes: usize,
    /// How many objects are read at the same time.
    pub concurrency: usize,
    /// Whether a window's next capture reads again only what its app's events came from
    /// (the `reuse` module); off, every capture reads the window whole.
    pub incremental: bool,
}

impl Default for CaptureLimits {
    fn default() -> Self {
        CaptureLimits {
            deadline: Duration::from_secs(10),
            max_nodes: 20_000,
            concurrency: 64,
            incremental: true,
        }
    }
}

/// What a walk read: objects in the order they were read (a parent before its children),
/// each with its parent's index.
#[derive(Debug, Default)]
pub struct Walk {
    /// The objects; the first is the root.
    pub objects: Vec<RawObject>,
    /// Per object, its parent's index (`None` for the root).
    pub parents: Vec<Option<usize>>,
    /// Per object, its position among its parent's children (objects are read in whatever
    /// order they answer).
    pub positions: Vec<usize>,
    /// Whether the app marks what is on screen with `SHOWING` below its windows. GTK 3 and
    /// Qt do (a closed menu's items and a notebook's other pages are `VISIBLE` but not
    /// `SHOWING`); GTK 4.8 sets it only on windows, so there `VISIBLE` has to do.
    pub showing_reliable: bool,
    /// Set when the walk was cut short: what is missing, in words.
    pub partial: Option<String>,
    /// How long it took.
    pub elapsed: Duration,
    /// How many objects were taken from the last walk instead of read.
    pub reused: usize,
}

/// One object to read: where it sits and whether it is inside web content.
struct Job {
    obj: ObjectRef,
    parent: Option<usize>,
    position: usize,
    web: bool,
    /// A grid's cell: the grid's first cell, read whole ([`fetch_cell`]).
    template: Option<std::sync::Arc<RawObject>>,
    /// Read, with everything under it, whatever the last walk read (it is new since).
    fresh: bool,
}

impl Walk {
    /// Whether a cell of a grid (a container that manages its descendants) says it has the
    /// focus while an object outside it and its ancestors says so too: the focus moved, and
    /// a cell taken from the last walk still says it has it (Calc's cells lose the focus
    /// without an event).
    pub fn focus_conflict(&self) -> bool {
        let focused = |i: usize| self.objects[i].state(bit::FOCUSED);
        let in_grid =
            |i: usize| self.parents[i].is_some_and(|p| self.objects[p].state(bit::MANAGES_DESCENDANTS));
        let Some(cell) = (0..self.objects.len()).find(|&i| focused(i) && in_grid(i)) else { return false };
        let (mut line, mut at) = (vec![cell], cell);
        while let Some(p) = self.parents[at] {
            line.push(p);
            at = p;
        }
        (0..self.objects.len()).any(|i| focused(i) && !line.contains(&i))
    }
}

/// Walks the subtree at `root`: each object is read as soon as its parent has been (up to
/// `concurrency` at a time), so a deep tree costs no round trip per level. The root's
/// children are the exception: whether `SHOWING` can be trusted is known once they are all
/// in, and until then their own children wait. With `reuse`, what the last walk read and no
/// event touched is taken from it instead of read.
pub async fn walk(
    bus: &Bus,
    root: &ObjectRef,
    limits: CaptureLimits,
    reuse: Option<&Reuse>,
) -> Result<Walk, AtspiError> {
    let start = Instant::now();
    let deadline = tokio::time::Instant::now() + limits.deadline;
    let mut out = Walk::default();
    let mut queue = std::collections::VecDeque::from([Job {
        obj: root.clone(),
        parent: None,
        position: 0,
        web: false,
        template: None,
        fresh: false,
    }]);
    let mut inflight = futures::stream::FuturesUnordered::new();
    let mut scheduled = 0usize;
    // Root children still being read, and those read whose children wait for the verdict.
    let mut first_level_left: Option<usize> = None;
    let mut held: Vec<(usize, bool, bool)> = Vec::new();
    let (mut hung, mut vanished, mut cut) = (0usize, 0usize, Vec::new());
    loop {
        while inflight.len() < limits.concurrency.max(1) {
            let Some(mut job) = queue.pop_front() else { break };
            if scheduled >= limits.max_nodes {
                cut.push(format!(
                    "the capture stopped at {} objects; {} more were not read",
                    limits.max_nodes,
                    queue.len() + 1
                ));
                queue.clear();
                break;
            }
            scheduled += 1;
            let children = if job.web { Children::Always } else { Children::IfVisible };
            let kept = match reuse {
                None => {
                    job.fresh = true;
                    None
                }
                Some(_) if job.fresh => None,
                Some(r) => match r.lookup(&job.obj) {
                    Lookup::Keep(raw) => Some(raw.clone()),
                    Lookup::Reread => None,
                    // New since the last walk: all it holds is new too.
                    Lookup::New => {
                        job.fresh = true;
                        None
                    }
                },
            };
            out.reused += usize::from(kept.is_some());
            inflight.push(async move {
                let result = match (kept, &job.template) {
                    (Some(raw), _) => Ok(raw),
                    (None, Some(template)) => fetch_cell(bus, &job.obj, template).await,
                    (None, None) => fetch(bus, &job.obj, children).await,
                };
                (job, result)
            });
        }
        let (job, result) = match tokio::time::timeout_at(deadline, inflight.next()).await {
            Ok(Some(done)) => done,
            Ok(None) => break,
            Err(_) => {
                cut.push(format!(
                    "the capture reached its {:?} deadline; {} objects and what they hold were not read",
                    limits.deadline,
                    inflight.len() + queue.len()
                ));
                break;
            }
        };
        let first_level = job.parent == Some(0);
        let raw = match result {
            Ok(raw) => Some(raw),
            Err(e) if job.parent.is_none() => return Err(e),
            Err(AtspiError::Timeout { .. }) => {
                hung += 1;
                None
            }
            // Gone during the walk: its siblings stay, and the capture says it is not whole.
            Err(e) => {
                tracing::debug!("left out {}: {e}", job.obj);
                if e.is_gone() {
                    vanished += 1;
                }
                None
            }
        };
        if let Some(raw) = raw {
            let index = out.objects.len();
            let web = job.web || is_web_document(&raw);
            out.parents.push(job.parent);
            out.positions.push(job.position);
            if job.parent.is_none() {
                first_level_left = Some(raw.children.len());
                queue.extend(children_of(&raw, index, web, job.fresh));
            } else if first_level {
                out.showing_reliable |= raw.state(bit::SHOWING);
                held.push((index, web, job.fresh));
            } else if shown(&raw, web, out.showing_reliable) {
                queue.extend(children_of(&raw, index, web, job.fresh));
            }
            out.objects.push(raw);
        }
        if first_level {
            let left = first_level_left.map_or(0, |n| n.saturating_sub(1));
            first_level_left = Some(left);
            if left == 0 {
                for (index, web, fresh) in held.drain(..) {
                    let raw = &out.objects[index];
                    if shown(raw, web, out.showing_reliable) {
                        queue.extend(children_of(raw, index, web, fresh));
                    }
                }
            }
        }
    }
    if hung > 0 {
        cut.push(format!(
            "{hung} objects did not answer in time (the app is busy or hung); they and their contents are missing"
        ));
    }
    if vanished > 0 {
        cut.push(format!(
            "{vanished} objects vanished while the window was read (it changed or closed); take a new snapshot"
        ));
    }
    // An app that dies while it is read can answer its last calls from a half torn down
    // tree (no children) before it stops answering; with the rest taken from the last walk,
    // nothing would fail. It must still answer once all is read.
    let after = bus.call::<_, u32>(root, crate::bus::iface::ACCESSIBLE, "GetRole", &()).await;
    if after.is_err_and(|e| e.is_gone()) {
        cut.push("the window closed while it was read; take a new snapshot".to_string());
    }
    out.partial = (!cut.is_empty()).then(|| cut.join("; "));
    out.elapsed = start.elapsed();
    Ok(out)
}

/// Whether the children of an object are read.
fn shown(raw: &RawObject, web: bool, showing_reliable: bool) -> bool {
    web || if showing_reliable { raw.state(bit::SHOWING) } else { raw.state(bit::VISIBLE) }
}

fn children_of(raw: &RawObject, index: usize, web: bool, fresh: bool) -> impl Iterator<Item = Job> + '_ {
    let last = raw.children.len().saturating_sub(1);
    // A container's transient descendants are read again with it (see `crate::reuse`).
    let fresh = fresh || raw.state(bit::MANAGES_DESCENDANTS);
    raw.children.iter().enumerate().map(move |(position, c)| Job {
        obj: c.clone(),
        parent: Some(index),
        position,
        web,
        // A grid's corner cells are read whole: the grid's note names them.
        template: raw.cell_template.clone().filter(|_| position != 0 && position != last),
        fresh,
    })
}

fn is_web_document(raw: &RawObject) -> bool {
    matches!(role_name(raw.role), Some("document web" | "document frame"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(states: &[u32]) -> RawObject {
        RawObject { states: states.iter().fold(0u64, |s, b| s | (1u64 << b)), ..RawObject::default() }
    }

    /// window > document (focused, as LibreOffice marks it) > sheet (manages descendants) >
    /// cells, and a text box beside the document.
    fn sheet(cell: &[u32], text_box: &[u32]) -> Walk {
        Walk {
            objects: vec![
                object(&[]),
                object(&[bit::FOCUSED]),
                object(&[bit::MANAGES_DESCENDANTS]),
                object(cell),
                object(&[]),
                object(text_box),
            ],
            parents: vec![None, Some(0), Some(1), Some(2), Some(2), Some(0)],
            positions: vec![0, 0, 0, 0, 1, 1],
            ..Walk::default()
        }
    }

    #[test]
    fn a_focused_cell_and_its_focused_ancestors_are_no_conflict() {
        assert!(!sheet(&[bit::FOCUSED], &[]).focus_conflict());
        assert!(!sheet(&[], &[bit::FOCUSED]).focus_conflict());
    }

    #[test]
    fn a_cell_still_focused_beside_another_focused_object_is_a_conflict() {
        assert!(sheet(&[bit::FOCUSED], &[bit::FOCUSED]).focus_conflict());
    }
}
