//! Running text as real documentation pages lay it out: the real `axsnap` binary on a page with
//! the structure of a Sphinx page (Python's docs) keeps each paragraph on one line, its code
//! spans and links inline, and reads a `<br>` as the break between two sentences.

#[path = "support/page_lines.rs"]
mod page_lines;
#[path = "hostile/serve.rs"]
mod serve;

use std::path::Path;

use page_lines::{line, snapshot};
use serve::Server;

#[test]
fn an_admonition_reads_as_paragraphs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prose");
    let server = Server::start(root).expect("serve the page");
    let page = snapshot(&server.url("sphinx.html"));
    // The title, its generated colon and the inline paragraph: one line, the code inline.
    let note = line(&page, "When a binary");
    assert!(
        note.contains(
            "Note: When a binary (or in-place) method returns `NotImplemented` the interpreter will try"
        ),
        "{page}"
    );
    // The block paragraph after it keeps its own line.
    assert!(!line(&page, "Implementing the arithmetic").contains("When a binary"), "{page}");
    // A note that opens with code.
    let second = line(&page, "are not interchangeable");
    assert!(
        second.contains("Note: `NotImplementedError` and `NotImplemented` are not interchangeable."),
        "{page}"
    );
    // No piece of either note is drawn on a line of its own.
    assert!(!page.lines().any(|l| l.trim() == "code: NotImplemented"), "{page}");
}

#[test]
fn a_line_break_separates_the_sentences_it_ends() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/prose");
    let server = Server::start(root).expect("serve the page");
    let page = snapshot(&server.url("sphinx.html"));
    let footer = line(&page, "Python Software Foundation.");
    assert!(footer.contains("Foundation. This page is licensed"), "{page}");
    assert!(footer.contains("Version 2. See [History and License]"), "{page}");
}
