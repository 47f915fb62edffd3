//! Holes in Chromium's accessibility tree that the DOM snapshot can fill.
//!
//! Seen on Chromium 156: now and then one open `<details>` element of a large page (rustdoc's
//! method toggles on the `Vec` page, a different one on each load, in about one load of
//! three) is in the accessibility tree with its `<summary>` only. Its content is rendered and
//! in the DOM snapshot, and every later `getFullAXTree` call leaves it out the same way until
//! the element is toggled. Toggling would change the page, so the capture builds the missing
//! content from the DOM snapshot instead ([`super::build_under`]), under the details node,
//! with the native ids a full capture gives.

use super::tags::{Tag, A};
use super::{Builder, ELEMENT};
use crate::layout::SnapIndex;

/// The content of one open `<details>` that the accessibility tree left out.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Gap {
    /// The `<details>` element's backend node id (it is in the accessibility tree).
    pub details: i64,
    /// Its children after the `<summary>`, as node indices of the snapshot's document.
    pub content: Vec<usize>,
}

/// The open `<details>` elements of document `d` that are in the accessibility tree
/// (`in_ax` says which backend node ids are) while none of their rendered content is.
pub(crate) fn details_gaps(snap: &SnapIndex, d: usize, in_ax: &dyn Fn(i64) -> bool) -> Vec<Gap> {
    // Most pages have none: do not index the document for nothing.
    if snap.find_string("DETAILS").is_none() || snap.find_string("open").is_none() {
        return Vec::new();
    }
    let Some(doc) = snap.doc(d) else { return Vec::new() };
    let mut b = Builder::new(snap, doc, d);
    let mut gaps = Vec::new();
    for i in 0..b.n {
        if b.kind(i) != ELEMENT || b.tag(i) != Tag::Details || b.attr(i, A::Open).is_none() {
            continue;
        }
        let name = doc.nodes.node_name.get(i).and_then(|&s| snap.string(s)).unwrap_or_default();
        let backend = doc.nodes.backend_node_id[i];
        if !name.eq_ignore_ascii_case("DETAILS") || !in_ax(backend) || b.excluded(i) {
            continue;
        }
        let mut content = Vec::new();
        let mut summary_seen = false;
        let mut rendered = false;
        let mut covered = false;
        for &c in b.children(i).to_vec().iter() {
            let c = c as usize;
            if !summary_seen && b.kind(c) == ELEMENT && b.tag(c) == Tag::Summary {
                summary_seen = true;
                continue;
            }
            let (shown, present) = subtree_state(&mut b, c, in_ax);
            rendered |= shown;
            covered |= present;
            content.push(c);
        }
        if rendered && !covered {
            gaps.push(Gap { details: backend, content });
        }
    }
    gaps
}

/// Whether the subtree of `c` has a rendered node, and whether any of its nodes is in the
/// accessibility tree.
fn subtree_state(b: &mut Builder<'_>, c: usize, in_ax: &dyn Fn(i64) -> bool) -> (bool, bool) {
    let (mut shown, mut present) = (false, false);
    let mut stack = vec![c];
    while let Some(i) = stack.pop() {
        if b.excluded(i) {
            continue;
        }
        if in_ax(b.doc.nodes.backend_node_id[i]) {
            present = true;
            break;
        }
        shown |= b.has_layout(i);
        stack.extend(b.children(i).iter().map(|&k| k as usize));
    }
    (shown, present)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// document > html > body > [details open > summary, div > p > "text"], and a closed one.
    fn snapshot() -> SnapIndex {
        let strings =
            ["#document", "HTML", "BODY", "DETAILS", "SUMMARY", "DIV", "P", "#text", "open", "", "Doc"];
        let v = json!({
            "strings": strings,
            "documents": [{
                "frameId": 0,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3, 3, 5, 6, 2, 8, 8],
                    "nodeType":    [9, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1],
                    "nodeName":    [0, 1, 2, 3, 4, 5, 6, 7, 3, 4, 5],
                    "backendNodeId": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                    "attributes": [[], [], [], [8, 9], [], [], [], [], [], [], []]
                },
                "layout": {
                    "nodeIndex": [1, 2, 3, 4, 5, 6, 7, 8, 9],
                    "bounds": [[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1],[0,0,1,1]],
                    "text": [-1, -1, -1, -1, -1, -1, 10, -1, -1]
                }
            }]
        });
        SnapIndex::parse(&v).unwrap()
    }

    #[test]
    fn finds_open_details_whose_content_is_missing() {
        let snap = snapshot();
        // The AX tree has the details and its summary only: the div is the gap.
        let gaps = details_gaps(&snap, 0, &|b| matches!(b, 1..=5 | 9 | 10));
        assert_eq!(gaps, vec![Gap { details: 4, content: vec![5] }]);
    }

    #[test]
    fn no_gap_when_any_of_the_content_is_there() {
        let snap = snapshot();
        // Only the text node of the content is in the tree: not a gap.
        assert!(details_gaps(&snap, 0, &|b| matches!(b, 1..=5 | 8)).is_empty());
        // The details itself is not in the tree (hidden, or a closed one): nothing to graft on.
        assert!(details_gaps(&snap, 0, &|b| matches!(b, 1..=3)).is_empty());
    }
}
