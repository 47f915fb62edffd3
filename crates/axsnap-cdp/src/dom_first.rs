//! Which tree a large document is built from. Chromium's `getFullAXTree` grows faster than the
//! page (its inline text boxes alone are half the nodes of a docs page), while the DOM snapshot
//! the capture takes anyway grows about linearly: on the std `Vec` page (16,000 elements) the
//! call takes 1.0-1.4 s and a tree built from the snapshot 0.47 s, against 0.6-0.8 s for
//! Playwright's in-page walk. So from [`DOM_FIRST_ELEMENTS`] elements on, a document is built
//! from its DOM snapshot (`dom_tree`) without asking for the accessibility tree; below, the
//! browser's own tree (names computed to spec) costs less than the walk would.
//!
//! The choice is made once per document and kept for its life, so a page that grows or
//! shrinks across the line does not change source between two captures (the two builds name
//! a few things differently, and every such difference would show as a change). A document
//! first built from its accessibility tree changes to the snapshot once it has grown to twice
//! the line, where the call's cost has run away.

use std::sync::Mutex;

/// From this many elements in a session's frames on, a new document is built from its DOM
/// snapshot. Measured here (2 cores, Chromium 156, quiet): at 3,000 elements `getFullAXTree`
/// (~140 ms) still beats Playwright's walk (~220 ms); at 5,000 (a list) it took 1.6 s, at
/// 16,000 (`Vec`) 1.0-1.4 s against the walk's 0.6-0.8 s.
pub const DOM_FIRST_ELEMENTS: u64 = 5_000;

/// Documents remembered at most (oldest forgotten first).
const REMEMBERED: usize = 256;

/// (document token from the change-signal script, built from the DOM snapshot).
static CHOSEN: Mutex<Vec<(String, bool)>> = Mutex::new(Vec::new());

/// Whether the document `token` (`None`: unknown, decided by size alone), now with
/// `elements` elements, is built from its DOM snapshot; remembers the answer.
pub(crate) fn dom_first(token: Option<&str>, elements: u64) -> bool {
    let by_size = elements >= DOM_FIRST_ELEMENTS;
    let Some(token) = token else { return by_size };
    let mut chosen = CHOSEN.lock().unwrap_or_else(|p| p.into_inner());
    let known = chosen.iter().position(|(t, _)| t == token);
    let dom = match known.map(|k| chosen[k].1) {
        Some(true) => true,
        Some(false) => elements >= 2 * DOM_FIRST_ELEMENTS,
        None => by_size,
    };
    if let Some(k) = known {
        chosen.remove(k);
    } else if chosen.len() >= REMEMBERED {
        chosen.remove(0);
    }
    chosen.push((token.to_string(), dom));
    dom
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_keeps_its_source_until_it_has_grown_far_past_the_line() {
        let line = DOM_FIRST_ELEMENTS;
        assert!(!dom_first(Some("small"), line - 1));
        assert!(!dom_first(Some("small"), line + 1), "grown past the line: still its own tree");
        assert!(dom_first(Some("small"), 2 * line), "grown to twice the line: the snapshot");
        assert!(dom_first(Some("small"), 10), "and it stays there");
        assert!(dom_first(Some("large"), line));
        assert!(dom_first(Some("large"), 1), "shrunk: still the snapshot");
        assert!(!dom_first(None, line - 1) && dom_first(None, line));
        for i in 0..REMEMBERED {
            dom_first(Some(&format!("other-{i}")), 1);
        }
        assert!(!dom_first(Some("large"), 1), "forgotten: decided by size again");
    }
}
