//! The real comparison on the book chapter: real Chromium, real playwright-core (`npm ci` in
//! bench/playwright, which scripts/test does), the toolchain's Rust docs.
//!
//! Every interactive element of Playwright's AI snapshot must be in ours, and all of its
//! visible text but two explained gaps:
//! - text inside `aria-hidden` elements that are visible (the book's chapter numbers `1.1.`):
//!   Playwright's AI mode shows what is visible even when hidden from assistive technology;
//!   Chromium's accessibility tree, which axsnap captures, leaves those subtrees out entirely
//!   (the text is only in the DOM snapshot). A capture-side gap, allowed here until the
//!   capture recovers that text;
//! - `✓`: CSS `::before` content of the selected theme in mdBook's theme menu, which is
//!   `display: none`. Playwright reports it; it is not visible, and we rightly leave it out.

use axsnap_bench::compare::{compare, CompareOptions};
use axsnap_bench::{docs, runtime};

#[test]
fn book_chapter_recall_against_playwright() {
    let root = docs::rust_docs().expect("the toolchain's Rust docs");
    let page = docs::PAGES[0];
    let c = runtime()
        .expect("runtime")
        .block_on(compare(&root, &[page], &CompareOptions::default()))
        .expect("both sides ran (Chromium installed, `npm ci` done in bench/playwright)");
    let p = &c.pages[0];
    let (interactive, text) = (&p.recall.interactive, &p.recall.text);
    assert!(interactive.total > 100, "Playwright's snapshot has the book's links: {interactive:?}");
    assert_eq!(interactive.found, interactive.total, "interactive misses: {:#?}", interactive.misses);

    let unexplained: Vec<_> = text.misses.iter().filter(|m| !m.aria_hidden && m.text != "✓").collect();
    assert!(unexplained.is_empty(), "text misses outside aria-hidden: {unexplained:#?}");
    assert!(text.total > 500, "Playwright's snapshot has the chapter's text: {}", text.total);
    // Of what Playwright shows outside aria-hidden, everything is there.
    let hidden = text.misses.iter().filter(|m| m.aria_hidden).count();
    assert!(
        text.found + hidden + 1 >= text.total,
        "{} found, {hidden} hidden, {} total",
        text.found,
        text.total
    );

    // Smaller than Playwright's, by a margin that catches a regression.
    let (cl100k, o200k) = p.ratios();
    assert!(cl100k < 0.65 && o200k < 0.65, "ours/theirs: {cl100k:.3} (cl100k), {o200k:.3} (o200k)");
}
