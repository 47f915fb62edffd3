//! Web apps as they are built, through axsnap's agent operations on a real headless Chromium
//! and pages served on 127.0.0.1 (`fixtures/webapp`):
//! - the 13-step IDE task succeeds with every element picked by the names the answers showed
//!   (click targets without roles, a menu bar and submenus of `li`s with one delegated
//!   listener, icon buttons, a code editor of token spans, modals without roles);
//! - a cover is said once: opening and closing a modal costs the same tokens over 100 and over
//!   1,000 controls, and no answer flips `obscured` element by element;
//! - text is the page's own characters: code blocks and an editor keep their lines and
//!   indentation, inline pieces get no added space; compared with the page's `innerText`.

use std::path::Path;

use axsnap_bench::serve::StaticServer;
use axsnap_bench::webapp::{Driver, StepFigure, IDE_WORKFLOW};

fn server() -> StaticServer {
    StaticServer::start(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/webapp"))
        .expect("serve the pages")
}

fn runtime() -> tokio::runtime::Runtime {
    axsnap_bench::runtime().expect("runtime")
}

/// No element is said to be covered on a line of its own.
fn assert_covers_said_once(f: &StepFigure) {
    let per_element = f.text.lines().filter(|l| l.starts_with("~ e") && l.contains("obscured")).count();
    assert_eq!(per_element, 0, "{}: obscured flips one by one:\n{}", f.label, f.text);
}

#[test]
fn the_ide_task_succeeds_by_the_names_shown() {
    let server = server();
    let rt = runtime();
    rt.block_on(async {
        let mut d = Driver::launch(None).await.expect("launch Chromium");
        let first = d.open(&server.url("ide.html")).await.expect("open");
        // Click targets without roles have refs; the icon buttons are drawn once, without
        // their wrappers and icon spans.
        for name in ["File", "Edit", "Run", "main.rs", "Notebook Python 3"] {
            assert!(
                first.text.lines().any(|l| l.contains(" [e") && l.ends_with(&format!(": {name}"))
                    || l.contains(&format!(": {name}×"))),
                "{name} has no line with a ref:\n{}",
                first.text
            );
        }
        assert!(first.text.contains("\n  button \"New Folder\" [e"), "{}", first.text);
        assert!(!first.text.lines().any(|l| l.trim() == "generic"), "bare wrappers:\n{}", first.text);
        // The editor's tokens are joined per line, its indentation kept.
        assert!(first.text.contains("\n      let s1 = String::from(\"hello\");\n"), "{}", first.text);
        let mut total = first.cl100k;
        for s in IDE_WORKFLOW {
            let f = d.step(s).await.unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(
                f.kind, "full",
                "{}: a full snapshot for a step inside one page:\n{}",
                f.label, f.text
            );
            assert_covers_said_once(&f);
            total += f.cl100k;
        }
        println!("13 steps: {total} cl100k tokens");
        // A launcher card: a `div` with a pointer cursor of its own, clicked by its text.
        let card = d.click(None, "Notebook Python 3").await.unwrap_or_else(|e| panic!("{e}"));
        assert!(card.text.contains("Launched Notebook"), "{}", card.text);
        d.close().await;
    });
}

/// Tokens of opening and of closing the settings dialog over `controls` controls.
async fn modal_tokens(server: &StaticServer, controls: u32) -> (StepFigure, StepFigure) {
    let mut d = Driver::launch(None).await.expect("launch Chromium");
    d.open(&server.url(&format!("ide.html?controls={controls}"))).await.expect("open");
    let open = d.click(Some("button"), "Open settings dialog").await.unwrap_or_else(|e| panic!("{e}"));
    let close = d.click(Some("button"), "Close").await.unwrap_or_else(|e| panic!("{e}"));
    d.close().await;
    (open, close)
}

#[test]
fn a_modal_costs_the_same_over_100_and_1000_controls() {
    let server = server();
    let rt = runtime();
    rt.block_on(async {
        let (open_100, close_100) = modal_tokens(&server, 100).await;
        let (open_1000, close_1000) = modal_tokens(&server, 1000).await;
        for f in [&open_100, &close_100, &open_1000, &close_1000] {
            assert_eq!(f.kind, "diff", "{}", f.text);
            assert_covers_said_once(f);
        }
        assert!(open_100.text.contains(" covers "), "{}", open_100.text);
        assert!(close_100.text.contains("no longer covered"), "{}", close_100.text);
        println!(
            "open: {} / {} tokens, close: {} / {} tokens (100 / 1,000 controls)",
            open_100.cl100k, open_1000.cl100k, close_100.cl100k, close_1000.cl100k
        );
        // Longer ref numbers may cost a token or two more; the controls under the cover none.
        assert!(open_1000.cl100k <= open_100.cl100k + 4, "{}\n---\n{}", open_100.text, open_1000.text);
        assert!(close_1000.cl100k <= close_100.cl100k + 4, "{}\n---\n{}", close_100.text, close_1000.text);
    });
}

/// A line of running text without its markup: `` `code` `` and `[link](e12 "title")` read as
/// `code` and `link`.
fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](e").map(|m| open + m) else { break };
        let Some(close) = rest[mid..].find(')').map(|c| mid + c) else { break };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..mid]);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out.replace('`', "")
}

/// The lines of preformatted text right under line `at`, joined by line breaks, their own
/// indentation kept: drawn bare, or after `text: ` where a line could read as another kind.
fn block_under(lines: &[&str], at: usize) -> Option<String> {
    let indent = lines[at].len() - lines[at].trim_start().len();
    let mut out: Vec<&str> = Vec::new();
    for l in &lines[at + 1..] {
        if l.is_empty() {
            out.push("");
            continue;
        }
        if l.len() - l.trim_start().len() <= indent {
            break;
        }
        let body = l.get(indent + 2..)?;
        out.push(body.strip_prefix("text: ").or((body == "text:").then_some("")).unwrap_or(body));
    }
    while out.last() == Some(&"") {
        out.pop();
    }
    Some(out.join("\n"))
}

#[test]
fn text_is_the_pages_own_characters() {
    let server = server();
    let rt = runtime();
    rt.block_on(async {
        let mut d = Driver::launch(None).await.expect("launch Chromium");
        let page = d.open(&server.url("text.html")).await.expect("open").text;
        let inner = |id: &str| format!("document.getElementById('{id}').innerText");
        // Highlighted code: one text line per code line, spaces and indentation as rendered.
        let mut codes = Vec::new();
        for id in ["code-rust", "code-html"] {
            codes.push(d.eval(&inner(id)).await.expect("innerText"));
        }
        let lines: Vec<&str> = page.lines().collect();
        let blocks: Vec<String> = (0..lines.len())
            .filter(|i| lines[*i].trim() == "code")
            .map(|i| block_under(&lines, i).expect("the code block's lines"))
            .collect();
        assert_eq!(blocks, codes, "{page}");
        // Running text: quotes split into spans, inline code, a counter in a span, spans with
        // no space between them.
        for id in ["p-quotes", "p-refreshed", "p-joined"] {
            let want = d.eval(&inner(id)).await.expect("innerText");
            assert!(
                page.lines()
                    .map(|l| l.trim_start())
                    .map(|l| l.strip_prefix("paragraph: ").unwrap_or(l))
                    .any(|l| plain(l) == want),
                "no paragraph reads {want:?}:\n{page}"
            );
        }
        // An editor made of line elements: its lines, each once.
        let want = d.eval(&inner("editable")).await.expect("innerText");
        let lines: Vec<&str> = want.lines().collect();
        for l in &lines {
            assert_eq!(page.matches(l).count(), 1, "{l:?} once:\n{page}");
        }
        d.close().await;
    });
}

#[test]
fn markup_is_read_back_as_plain_text() {
    assert_eq!(plain("see [the guide](e18 \"x\"), or `Vec::new`."), "see the guide, or Vec::new.");
    assert_eq!(
        block_under(&["code", "  a", "", "      b", "  text: main", "next"], 0).as_deref(),
        Some("a\n\n    b\nmain")
    );
}
