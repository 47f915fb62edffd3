//! A tree built from the DOM snapshot alone (what a large page gets, `dom_first`) against the
//! browser's accessibility tree, on the fixture pages: both rendered as an agent reads them,
//! they must say the same, line for line, except where the snapshot cannot know (the browser's
//! own widgets inside date, time, colour and file inputs; a check box's script-set mixed
//! state), which each page's `unknowable` script takes out of both beforehand, and the list
//! markers the accessibility tree draws as text of their own.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use axsnap_cdp::{capture_with, CaptureOptions, PageHandle};
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_snapshot, Format};
use axsnap_core::{Header, Role, Snapshot, TargetId};
use common::{browser, run, Server};

const DEADLINE: Duration = Duration::from_secs(30);

/// Takes out what the snapshot cannot know: inputs drawn as the browser's own widgets, and
/// the mixed state a script sets on a check box (no attribute says it).
const UNKNOWABLE: &str = "document.querySelectorAll('input').forEach(i => { \
       if (['date','time','datetime-local','month','week','color','file'].includes(i.type)) \
         (i.closest('label') || i).remove(); \
       i.indeterminate = false; }); 1";

/// The page rendered from `opts`' capture, as `axsnap snapshot --max-tokens 0` prints it.
async fn render(page: &PageHandle, opts: &CaptureOptions) -> String {
    let out = capture_with(page, DEADLINE, opts).await.unwrap();
    let target = TargetId("fidelity".into());
    let mut p = project(&out.capture.tree, &ProjectOptions::default());
    RefSpace::new().refresh(&target, &out.capture.tree, &mut p.tree);
    let snap = Snapshot { target, seq: 1, header: Header::default(), tree: p.tree, stats: p.stats };
    render_snapshot(&snap, Format::Text)
}

/// A line that is only a list marker (`•`, `◦`, `▪`, `1.`).
fn marker(line: &str) -> bool {
    let t = line.trim();
    matches!(t, "•" | "◦" | "▪") || (t.ends_with('.') && t[..t.len() - 1].chars().all(|c| c.is_ascii_digit()))
}

fn check(root: PathBuf, pages: &[&str]) {
    run(async {
        let srv = Server::start(root);
        let mut failures = Vec::new();
        for path in pages {
            let page = browser().await.new_page(&srv.url(path)).await.unwrap();
            page.eval(UNKNOWABLE).await.unwrap();
            let ax = render(&page, &CaptureOptions { always_ax: true, ..CaptureOptions::default() }).await;
            let dom = render(&page, &CaptureOptions { dom_only: true, ..CaptureOptions::default() }).await;
            page.close().await.unwrap();
            let ax: Vec<&str> = ax.lines().filter(|l| !marker(l)).collect();
            let dom: Vec<&str> = dom.lines().collect();
            if ax != dom {
                let first = ax.iter().zip(&dom).position(|(a, d)| a != d).unwrap_or(ax.len().min(dom.len()));
                failures.push(format!(
                    "{path}: line {} differs\n  accessibility tree: {:?}\n  DOM snapshot:       {:?}\n--- whole, from the tree:\n{}\n--- whole, from the snapshot:\n{}",
                    first + 1,
                    ax.get(first),
                    dom.get(first),
                    ax.join("\n"),
                    dom.join("\n")
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    })
}

#[test]
fn the_dom_built_tree_reads_as_the_accessibility_tree_on_the_test_pages() {
    check(
        common::pages_dir(),
        &[
            "aria.html",
            "blocks.html",
            "cased.html",
            "change.html",
            "forms.html",
            "glyphs.html",
            "iframes.html",
            "index.html",
            "layout.html",
            "lumino_menu.html",
            "shadow.html",
            "sphinx.html",
            "virtual.html",
        ],
    );
}

/// A character the glyphs page hides text with: a byte-order mark, a zero-width space, a soft
/// hyphen, a left-to-right mark, a word joiner, or an icon font's Private Use Area glyph.
fn unseen(c: char) -> bool {
    matches!(c, '\u{feff}' | '\u{200b}' | '\u{00ad}' | '\u{200e}' | '\u{2060}')
        || ('\u{e000}'..='\u{f8ff}').contains(&c)
}

/// Icon-font glyphs, byte-order marks, zero-width spaces and soft hyphens reach neither tree's
/// text, and a button named by its glyph alone is named by its title.
#[test]
fn invisible_characters_and_glyphs_reach_neither_tree() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("glyphs.html")).await.unwrap();
        for (how, opts) in [
            ("accessibility tree", CaptureOptions { always_ax: true, ..CaptureOptions::default() }),
            ("DOM snapshot", CaptureOptions { dom_only: true, ..CaptureOptions::default() }),
        ] {
            let text = render(&page, &opts).await;
            let hidden: Vec<char> = text.chars().filter(|&c| unseen(c)).collect();
            assert!(hidden.is_empty(), "{how}: {hidden:?} in\n{text}");
            for line in ["[Dashboard](e", "[Posts](e", "button \"Close panel\"", "button \"Settings\""] {
                assert!(text.contains(line), "{how}: no {line} in\n{text}");
            }
            assert!(text.contains("cooperate without delay and a softhyphen"), "{how}:\n{text}");
            let title = text.lines().find(|l| l.contains("\"Add title\"")).unwrap_or_default();
            assert!(!title.contains(':'), "{how}: the empty title has no value: {title}");
        }
        page.close().await.unwrap();
    })
}

/// Names and texts read as the document writes them, not as CSS `text-transform` draws them
/// (Chromium names a field from its label as rendered: `combobox "AUTHOR"`).
#[test]
fn names_and_texts_are_as_written_not_as_css_transforms_them() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("cased.html")).await.unwrap();
        for (how, opts) in [
            ("accessibility tree", CaptureOptions { always_ax: true, ..CaptureOptions::default() }),
            ("DOM snapshot", CaptureOptions { dom_only: true, ..CaptureOptions::default() }),
        ] {
            let out = capture_with(&page, DEADLINE, &opts).await.unwrap();
            let tree = &out.capture.tree;
            let named = |role: Role| -> Vec<String> {
                tree.preorder()
                    .map(|(id, _)| tree.node(id))
                    .filter(|n| n.role == role)
                    .map(|n| n.name.clone())
                    .collect()
            };
            assert_eq!(named(Role::ComboBox), ["Author"], "{how}");
            assert_eq!(named(Role::TextBox), ["Post address"], "{how}");
            assert_eq!(named(Role::Button), ["save draft"], "{how}");
            assert_eq!(named(Role::ColumnHeader), ["Size", "Default"], "{how}");
            assert!(named(Role::Heading).contains(&"Recent posts".to_string()), "{how}");
            // A text written as the transformed one is drawn stays as written: only the
            // transformed node itself changes.
            let text = render(&page, &opts).await;
            assert!(text.contains("nasa and NASA missions"), "{how}:\n{text}");
            for drawn in ["AUTHOR", "POST ADDRESS", "Save Draft", "RECENT POSTS", "SIZE", "DEFAULT"] {
                assert!(!text.contains(drawn), "{how}: {drawn} as CSS draws it in\n{text}");
            }
        }
        page.close().await.unwrap();
    })
}

#[test]
fn the_dom_built_tree_reads_as_the_accessibility_tree_on_the_app_fixtures() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    check(fixtures, &["pages/settings.html", "webapp/ide.html", "webapp/text.html"]);
}

/// The toolchain's own docs (`rustc --print sysroot`), as the bench reads them.
fn rust_docs() -> PathBuf {
    let out = std::process::Command::new("rustc").args(["--print", "sysroot"]).output().unwrap();
    PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("share/doc/rust/html")
}

/// (Not the std index: there the accessibility tree names a link broken by a `<wbr>` with a
/// space in it, `async_ iter`, and the snapshot's build reads it whole.)
#[test]
fn the_dom_built_tree_reads_as_the_accessibility_tree_on_a_book_chapter() {
    check(rust_docs(), &["book/ch04-01-what-is-ownership.html"]);
}

/// A link followed by a block's text reads as two pieces, not one word: MediaWiki's search
/// result (title link, snippet, data line) and an issue tracker's header (a link, then a
/// box's label); a sentence written into the body beside blocks reads as one line; through
/// both capture paths.
#[test]
fn blocks_beside_a_link_are_not_glued_to_it() {
    run(async {
        let srv = Server::pages();
        let page = browser().await.new_page(&srv.url("blocks.html")).await.unwrap();
        for (how, opts) in [
            ("accessibility tree", CaptureOptions { always_ax: true, ..CaptureOptions::default() }),
            ("DOM snapshot", CaptureOptions { dom_only: true, ..CaptureOptions::default() }),
        ] {
            let text = render(&page, &opts).await;
            for part in
                ["Lighthouse of Alexandria", "was a tower", "4 KB (712 words)", "New issue", "Actions"]
            {
                assert!(text.contains(part), "{how}: {part:?} missing in\n{text}");
            }
            assert!(!text.contains(")The"), "{how}: link glued to the snippet in\n{text}");
            assert!(!text.contains(")Actions"), "{how}: link glued to the next box in\n{text}");
            assert!(!text.contains("tower4 KB"), "{how}: two blocks glued in\n{text}");
            assert!(text.contains("Refreshed 2 times, see [the log]("), "{how}:\n{text}");
            assert!(text.contains("\nparagraph: Reloaded 4 times\n"), "{how}: a loose sentence in\n{text}");
        }
    });
}
