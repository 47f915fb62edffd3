//! Which tree a large document is built from. Chromium's `getFullAXTree` grows faster than the
//! page (its inline text boxes alone are half the nodes of a docs page), while the DOM snapshot
//! the capture takes anyway grows about linearly: on the std `Vec` page (16,000 elements) the
//! call takes 1.0-1.4 s and a tree built from the snapshot 0.47 s, against 0.6-0.8 s for
//! Playwright's in-page walk. So from [`DOM_FIRST_ELEMENTS`] elements on, a document is built
//! from its DOM snapshot (`dom_tree`) without asking for the accessibility tree; below, the
//! browser's own tree (names computed to spec) costs less than the walk would.
//!
//! A page that reads as a document rather than an app is built from its snapshot from
//! [`DOM_FIRST_DOCUMENT_ELEMENTS`] on: few of its elements carry ARIA roles, names or
//! relations or hold shadow roots (together under [`DOCUMENT_ARIA_SHARE`]; rustdoc's search
//! box is one web component, an app made of them has hundreds). There the call's fixed
//! cost already shows (the std index, 1,105 elements: `getFullAXTree` 82 ms, a whole capture
//! 103 ms, against Playwright's walk at 53-105 ms and a capture from the snapshot at 36 ms),
//! and the snapshot's build names such markup as the browser does (the `dom_fidelity` tests
//! compare the two renderings line by line). An app's ARIA (menus, grids, widgets built of
//! `div`s) is where the two builds could differ, so an app keeps the browser's tree up to
//! the first line. The pages of one site that read as documents are all built the same way,
//! as its first such page was (under the first line): a docs site whose chapters fall on both
//! sides of the document line would otherwise switch builds with every "next chapter", and
//! the two builds' small differences in naming would cost the sidebar its refs and each step
//! its diff.
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

/// From this many elements on, a page that reads as a document ([`Page::reads_as_document`])
/// is built from its DOM snapshot.
pub const DOM_FIRST_DOCUMENT_ELEMENTS: u64 = 1_000;

/// Most share of a document's elements that carry ARIA roles, names or relations or hold
/// shadow roots (measured: rustdoc's pages 0.2%, the Python docs under 1%, mdBook's chapters
/// 4.3-5.2%, so a book does not fall on both sides; Jupyter's file browser 20%).
pub const DOCUMENT_ARIA_SHARE: f64 = 0.10;

/// What the change-signal script's `begin()` counted in a session's frames.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Page {
    /// Elements.
    pub elements: u64,
    /// Elements carrying ARIA roles, names or relations (`None`: not counted, an older script).
    pub aria: Option<u64>,
    /// Shadow roots (open and closed) seen.
    pub shadow_roots: u64,
    /// The document's origin (`location.origin`), when the script said it.
    pub origin: Option<String>,
}

impl Page {
    /// A document, not an app: few elements bearing ARIA or shadow roots.
    pub fn reads_as_document(&self) -> bool {
        let Some(aria) = self.aria else { return false };
        ((aria + self.shadow_roots) as f64) <= DOCUMENT_ARIA_SHARE * self.elements as f64
    }

    /// Whether its size alone puts it on the DOM snapshot.
    fn past_the_line(&self) -> bool {
        self.elements >= DOM_FIRST_ELEMENTS
            || (self.elements >= DOM_FIRST_DOCUMENT_ELEMENTS && self.reads_as_document())
    }
}

/// Documents remembered at most (oldest forgotten first).
const REMEMBERED: usize = 256;

/// (document token from the change-signal script, built from the DOM snapshot).
static CHOSEN: Mutex<Vec<(String, bool)>> = Mutex::new(Vec::new());

/// (origin, built from the DOM snapshot): how the first page of a site that read as a
/// document, under [`DOM_FIRST_ELEMENTS`], was built.
static SITES: Mutex<Vec<(String, bool)>> = Mutex::new(Vec::new());

/// The site's way for a new page that reads as a document under the first line: as its first
/// such page was built, or `by_size` for the first (and remembered).
fn site_choice(page: &Page, by_size: bool) -> bool {
    let Some(origin) = page.origin.as_deref().filter(|o| !o.is_empty() && *o != "null") else {
        return by_size;
    };
    if page.elements >= DOM_FIRST_ELEMENTS || !page.reads_as_document() {
        return by_size;
    }
    let mut sites = SITES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&(_, dom)) = sites.iter().find(|(o, _)| o == origin) {
        return dom;
    }
    if sites.len() >= REMEMBERED {
        sites.remove(0);
    }
    sites.push((origin.to_string(), by_size));
    by_size
}

/// Whether the document `token` (`None`: unknown, decided by size alone), now as `page`
/// counts it, is built from its DOM snapshot; remembers the answer.
pub(crate) fn dom_first(token: Option<&str>, page: &Page) -> bool {
    let elements = page.elements;
    let by_size = page.past_the_line();
    let Some(token) = token else { return by_size };
    let mut chosen = CHOSEN.lock().unwrap_or_else(|p| p.into_inner());
    let known = chosen.iter().position(|(t, _)| t == token);
    let dom = match known.map(|k| chosen[k].1) {
        Some(true) => true,
        Some(false) => elements >= 2 * DOM_FIRST_ELEMENTS,
        // A new document follows its site's way.
        None => site_choice(page, by_size),
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

    /// A page of `n` elements, every one of them ARIA-bearing: an app.
    fn app(n: u64) -> Page {
        Page { elements: n, aria: Some(n), shadow_roots: 0, origin: None }
    }

    #[test]
    fn a_document_keeps_its_source_until_it_has_grown_far_past_the_line() {
        let line = DOM_FIRST_ELEMENTS;
        assert!(!dom_first(Some("small"), &app(line - 1)));
        assert!(!dom_first(Some("small"), &app(line + 1)), "grown past the line: still its own tree");
        assert!(dom_first(Some("small"), &app(2 * line)), "grown to twice the line: the snapshot");
        assert!(dom_first(Some("small"), &app(10)), "and it stays there");
        assert!(dom_first(Some("large"), &app(line)));
        assert!(dom_first(Some("large"), &app(1)), "shrunk: still the snapshot");
        assert!(!dom_first(None, &app(line - 1)) && dom_first(None, &app(line)));
        for i in 0..REMEMBERED {
            dom_first(Some(&format!("other-{i}")), &app(1));
        }
        assert!(!dom_first(Some("large"), &app(1)), "forgotten: decided by size again");
    }

    #[test]
    fn a_page_that_reads_as_a_document_goes_to_the_snapshot_sooner() {
        let n = DOM_FIRST_DOCUMENT_ELEMENTS;
        let doc =
            |elements: u64, aria: u64| Page { elements, aria: Some(aria), shadow_roots: 0, origin: None };
        // The std index: 1,105 elements, none with ARIA.
        assert!(dom_first(None, &doc(1_105, 0)));
        assert!(dom_first(None, &doc(n, n / 10)), "at the share");
        assert!(!dom_first(None, &doc(n, n / 10 + 1)), "past the share: an app");
        assert!(!dom_first(None, &doc(n - 1, 0)), "below the line: the browser's tree");
        let page = |elements, aria, shadow_roots| Page { elements, aria, shadow_roots, origin: None };
        assert!(dom_first(None, &page(1_105, Some(1), 1)), "one search box");
        assert!(!dom_first(None, &page(n, Some(0), n / 5)), "web components");
        assert!(!dom_first(None, &page(2 * n, None, 0)), "not counted");
        assert!(dom_first(None, &app(DOM_FIRST_ELEMENTS)), "an app past the first line");
    }

    #[test]
    fn the_pages_of_a_site_that_read_as_documents_are_built_as_its_first_was() {
        let at = |origin: &str, elements: u64| Page {
            elements,
            aria: Some(0),
            shadow_roots: 0,
            origin: Some(origin.to_string()),
        };
        // A book whose first chapter opened is past the document line: every chapter after it
        // from the snapshot, the small ones too.
        assert!(dom_first(Some("book-1"), &at("http://book.test", 1_318)));
        assert!(dom_first(Some("book-2"), &at("http://book.test", 700)));
        // A site whose first page is small: its larger pages stay on the accessibility tree,
        // up to the first line.
        assert!(!dom_first(Some("docs-1"), &at("http://docs.test", 400)));
        assert!(!dom_first(Some("docs-2"), &at("http://docs.test", 1_500)));
        assert!(dom_first(Some("docs-3"), &at("http://docs.test", DOM_FIRST_ELEMENTS)));
        // An app on the same site is decided by itself.
        let app_page = Page { aria: Some(700), ..at("http://book.test", 700) };
        assert!(!dom_first(Some("book-app"), &app_page));
    }
}
