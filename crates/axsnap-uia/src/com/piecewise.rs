//! A window read piece by piece, for when the whole-window cache request does not come in
//! time: one cache request per element (the element and its children), breadth first from
//! the window, until the deadline or the end of the tree.
//!
//! The whole-window request is one cross-process transaction, bounded by UI Automation's
//! transaction timeout: a very large tree (a big web page in a browser, an editor) or a busy
//! app runs past it and gives nothing. Small requests each fit in it, so the read gets as
//! much of the window as the deadline allows, and says what it left out.
//!
//! Breadth first so that a read cut short has the window's outline (its panes, toolbars and
//! the top of its document) rather than one deep branch; the result is then put in document
//! order, as the reader and the whole-window read give it.

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use axsnap_core::caps::thousands;
use windows::Win32::UI::Accessibility::*;

use super::{capture, error};
use crate::automation::{CallError, Read};
use crate::element::Elements;

/// The scope of each piece: an element and its children.
pub(crate) const SCOPE: TreeScope = TreeScope(TreeScope_Element.0 | TreeScope_Children.0);

/// What a piecewise read left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Missing {
    /// Elements whose children request failed (timed out, or the element went away): kept
    /// with no children.
    pub(crate) unanswered: usize,
    /// Elements whose children were not asked for before the deadline: kept with no
    /// children.
    pub(crate) unreached: usize,
}

/// Reads the window whose element is `root` piecewise with `request` (a cache request of
/// [`SCOPE`]) until `deadline`, keeping each live element read in `live`. Fails only when
/// the root itself cannot be read; `whole_ms` is how long the whole-window request was
/// given, for the words of [`Read::partial`].
pub(crate) fn read(
    root: &IUIAutomationElement,
    request: &IUIAutomationCacheRequest,
    deadline: Instant,
    whole_ms: u32,
    live: &mut HashMap<Vec<i64>, IUIAutomationElement>,
) -> Result<Read, CallError> {
    // The root is always read, even past the deadline (the whole request may have used it up):
    // a read with no root is no read.
    // SAFETY: a COM call on a live element with a live cache request.
    let root = unsafe { root.BuildUpdatedCache(request) }.map_err(|e| error(&e))?;
    let mut elements = Elements::default();
    let top = keep(&mut elements, None, &root, live);
    // Elements read (their properties came with their parent's request) whose children are
    // still to be asked for, oldest first.
    let mut queue: VecDeque<(IUIAutomationElement, usize)> = VecDeque::new();
    for kid in capture::children(&root) {
        let id = keep(&mut elements, Some(top), &kid, live);
        queue.push_back((kid, id));
    }
    let mut missing = Missing::default();
    while let Some((el, id)) = queue.pop_front() {
        if Instant::now() >= deadline {
            missing.unreached = queue.len() + 1;
            break;
        }
        // SAFETY: a COM call on a live element with a live cache request.
        let Ok(fresh) = (unsafe { el.BuildUpdatedCache(request) }) else {
            // Timed out, or gone since its parent was read: it stays, without its children,
            // and the rest of the window is still worth reading.
            missing.unanswered += 1;
            continue;
        };
        for kid in capture::children(&fresh) {
            let kid_id = keep(&mut elements, Some(id), &kid, live);
            queue.push_back((kid, kid_id));
        }
    }
    let partial = message(elements.len(), whole_ms, missing);
    Ok(Read { elements: document_order(&elements), partial })
}

/// Adds the cached element `el` under `parent` and keeps it live when it has a runtime id.
fn keep(
    elements: &mut Elements,
    parent: Option<usize>,
    el: &IUIAutomationElement,
    live: &mut HashMap<Vec<i64>, IUIAutomationElement>,
) -> usize {
    let element = capture::element(el);
    if !element.runtime_id.is_empty() {
        live.insert(element.runtime_id.clone(), el.clone());
    }
    elements.push(parent, element)
}

/// `elements` (any numbering with the root first) renumbered in document order: each element
/// before its children, children in order, as a depth-first walk meets them.
pub(crate) fn document_order(elements: &Elements) -> Elements {
    let mut out = Elements::default();
    if elements.is_empty() {
        return out;
    }
    // An explicit stack, not recursion: a window's tree can be deep.
    let mut stack: Vec<(usize, Option<usize>)> = vec![(0, None)];
    while let Some((old, parent)) = stack.pop() {
        let Some(element) = elements.nodes.get(old) else { continue };
        let new = out.push(parent, element.clone());
        let kids = elements.children.get(old).map(Vec::as_slice).unwrap_or_default();
        // Reversed onto the stack so that the first child comes out first.
        stack.extend(kids.iter().rev().map(|&k| (k, Some(new))));
    }
    out
}

/// What [`Read::partial`] says of a piecewise read of `read` elements: none when nothing is
/// missing (the tree ended before the deadline and every piece came).
pub(crate) fn message(read: usize, whole_ms: u32, missing: Missing) -> Option<String> {
    let Missing { unanswered, unreached } = missing;
    if unanswered == 0 && unreached == 0 {
        return None;
    }
    let mut why = Vec::new();
    if unreached > 0 {
        why.push(format!("{} not reached by the deadline", thousands(unreached)));
    }
    if unanswered > 0 {
        why.push(format!("{} that did not answer", thousands(unanswered)));
    }
    // "Of them": an element kept without its children may well have had none (a leaf met at
    // the deadline), so the words do not claim that anything under it was lost.
    Some(format!(
        "the window's whole tree did not come within {} (a very large or busy app): read \
         piecewise, {} element{} by the deadline; the children of {} of them were not read ({})",
        seconds(whole_ms),
        thousands(read),
        plural(read),
        thousands(unanswered + unreached),
        why.join(", "),
    ))
}

/// `ms` as seconds in words: `5 s`, `2.5 s`.
fn seconds(ms: u32) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", f64::from(ms) / 1000.0)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::Element;

    fn named(name: &str) -> Element {
        Element { name: name.to_string(), ..Element::default() }
    }

    /// The names of `elements` in index order, and each one's children's names.
    fn shape(elements: &Elements) -> Vec<(String, Vec<String>)> {
        let name = |i: usize| elements.nodes[i].name.clone();
        (0..elements.len())
            .map(|i| (name(i), elements.children[i].iter().map(|&k| name(k)).collect()))
            .collect()
    }

    #[test]
    fn breadth_first_numbering_is_put_in_document_order() {
        // w ─ a ─ a1
        //   │   └ a2 ─ a2x
        //   └ b ─ b1
        // numbered as a breadth-first walk meets them.
        let mut bfs = Elements::default();
        let w = bfs.push(None, named("w"));
        let a = bfs.push(Some(w), named("a"));
        let b = bfs.push(Some(w), named("b"));
        let _a1 = bfs.push(Some(a), named("a1"));
        let a2 = bfs.push(Some(a), named("a2"));
        let _b1 = bfs.push(Some(b), named("b1"));
        let _a2x = bfs.push(Some(a2), named("a2x"));

        // The same tree as a depth-first walk (the reader, the whole read) numbers it.
        let mut dfs = Elements::default();
        let w = dfs.push(None, named("w"));
        let a = dfs.push(Some(w), named("a"));
        dfs.push(Some(a), named("a1"));
        let a2 = dfs.push(Some(a), named("a2"));
        dfs.push(Some(a2), named("a2x"));
        let b = dfs.push(Some(w), named("b"));
        dfs.push(Some(b), named("b1"));

        let ordered = document_order(&bfs);
        assert_eq!(ordered, dfs, "{:?}", shape(&ordered));
        // Already in document order: unchanged.
        assert_eq!(document_order(&dfs), dfs);
        assert!(document_order(&Elements::default()).is_empty());
    }

    #[test]
    fn says_what_a_piecewise_read_left_out() {
        assert_eq!(message(40, 5_000, Missing::default()), None);
        assert_eq!(
            message(1_234, 5_000, Missing { unanswered: 0, unreached: 56 }).as_deref(),
            Some(
                "the window's whole tree did not come within 5 s (a very large or busy app): read \
                 piecewise, 1,234 elements by the deadline; the children of 56 of them were not \
                 read (56 not reached by the deadline)"
            )
        );
        assert_eq!(
            message(1, 2_500, Missing { unanswered: 1, unreached: 0 }).as_deref(),
            Some(
                "the window's whole tree did not come within 2.5 s (a very large or busy app): \
                 read piecewise, 1 element by the deadline; the children of 1 of them were not \
                 read (1 that did not answer)"
            )
        );
        let both = message(1_000_000, 5_000, Missing { unanswered: 2, unreached: 1_001 });
        assert!(
            both.as_deref().is_some_and(|m| m.ends_with(
                "1,000,000 elements by the deadline; the children of 1,003 of them were not read \
                 (1,001 not reached by the deadline, 2 that did not answer)"
            )),
            "{both:?}"
        );
    }
}
