//! Capturing a window: a breadth-first walk that reads a level's objects all at once
//! ([`fetch`]), under a deadline and a node cap, then [`crate::build`] turns what was read
//! into the core's raw tree.
//!
//! A slow or hung app gives a partial capture that says what is missing; only a window that
//! does not answer at all is an error. An object that vanishes during the walk (a window
//! closing, a menu folding) is left out; its siblings stay.

use std::time::{Duration, Instant};

use futures::StreamExt;

use crate::bus::Bus;
use crate::error::AtspiError;
use crate::fetch::{fetch, Children, RawObject};
use crate::mapping::role_name;
use crate::object::ObjectRef;

/// Limits of one capture.
#[derive(Clone, Copy, Debug)]
pub struct CaptureLimits {
    /// Stop walking after this long; what was read is kept.
    pub deadline: Duration,
    /// Stop after this many objects.
    pub max_nodes: usize,
    /// How many objects are read at the same time.
    pub concurrency: usize,
}

impl Default for CaptureLimits {
    fn default() -> Self {
        CaptureLimits { deadline: Duration::from_secs(10), max_nodes: 20_000, concurrency: 64 }
    }
}

/// What a walk read: objects in breadth-first order, each with its parent's index.
#[derive(Debug, Default)]
pub struct Walk {
    /// The objects; the first is the root.
    pub objects: Vec<RawObject>,
    /// Per object, its parent's index (`None` for the root).
    pub parents: Vec<Option<usize>>,
    /// Set when the walk was cut short: what is missing, in words.
    pub partial: Option<String>,
    /// How long it took.
    pub elapsed: Duration,
}

/// Walks the subtree at `root`.
pub async fn walk(bus: &Bus, root: &ObjectRef, limits: CaptureLimits) -> Result<Walk, AtspiError> {
    let start = Instant::now();
    let mut out = Walk::default();
    // (object, parent index, inside web content)
    let mut level: Vec<(ObjectRef, Option<usize>, bool)> = vec![(root.clone(), None, false)];
    let mut cut: Vec<String> = Vec::new();
    while !level.is_empty() {
        let left = limits.deadline.saturating_sub(start.elapsed());
        if left.is_zero() {
            cut.push(format!(
                "the capture reached its {:?} deadline; {} objects deeper were not read",
                limits.deadline,
                level.len()
            ));
            break;
        }
        if out.objects.len() + level.len() > limits.max_nodes {
            let room = limits.max_nodes.saturating_sub(out.objects.len());
            cut.push(format!(
                "the capture stopped at {} objects; {} more were not read",
                limits.max_nodes,
                level.len() - room
            ));
            level.truncate(room);
            if level.is_empty() {
                break;
            }
        }
        let jobs: Vec<(ObjectRef, Children)> = level
            .iter()
            .map(|(obj, _, web)| (obj.clone(), if *web { Children::Always } else { Children::IfShowing }))
            .collect();
        let reads = futures::stream::iter(jobs)
            .map(|(obj, children)| async move { fetch(bus, &obj, children).await })
            .buffered(limits.concurrency.max(1))
            .collect::<Vec<_>>();
        let results = match tokio::time::timeout(left, reads).await {
            Ok(r) => r,
            Err(_) => {
                cut.push(format!(
                    "the capture reached its {:?} deadline; {} objects were not read",
                    limits.deadline,
                    level.len()
                ));
                break;
            }
        };
        let mut next = Vec::new();
        let mut hung = 0usize;
        for ((obj, parent, web), result) in level.into_iter().zip(results) {
            let raw = match result {
                Ok(raw) => raw,
                Err(e) if parent.is_none() => return Err(e),
                Err(AtspiError::Timeout { .. }) => {
                    hung += 1;
                    continue;
                }
                // Gone during the walk, or a broken object: its siblings stay.
                Err(e) => {
                    tracing::debug!("left out {obj}: {e}");
                    continue;
                }
            };
            let index = out.objects.len();
            let web = web || is_web_document(&raw);
            next.extend(raw.children.iter().map(|c| (c.clone(), Some(index), web)));
            out.parents.push(parent);
            out.objects.push(raw);
        }
        if hung > 0 {
            cut.push(format!("{hung} objects did not answer in time (the app is busy or hung); they and their contents are missing"));
        }
        level = next;
    }
    out.partial = (!cut.is_empty()).then(|| cut.join("; "));
    out.elapsed = start.elapsed();
    Ok(out)
}

fn is_web_document(raw: &RawObject) -> bool {
    matches!(role_name(raw.role), Some("document web" | "document frame"))
}
