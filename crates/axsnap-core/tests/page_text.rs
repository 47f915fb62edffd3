//! The page's own characters, through the real pipeline (project, refs, render) on raw trees
//! built the way Chromium reports pages: text pieces carry the page's whitespace, preformatted
//! text and block-level boxes are marked by the backend. Code keeps its lines and
//! indentation, inline pieces get no added space, two blocks' texts are never joined, and an
//! editor's lines are each one line.

use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::{Action, Node, Role, State};

#[path = "common/page.rs"]
mod page;
use page::Page;

fn block(n: &mut Node) {
    n.flags.block = true;
}

#[test]
fn code_quotes_captions_and_an_editor() {
    let mut page = Page::new("Reading");
    let root = page.root();
    // A highlighted code block: `<pre><code>` of token spans (spans Chromium leaves out, so
    // their texts are the code's children).
    let pre = page.add(root, Role::Generic, "", |n| {
        n.flags.pre = true;
        n.flags.block = true;
        n.dev_id = Some("code-rust".into());
    });
    let code = page.add(pre, Role::Code, "", |n| n.flags.pre = true);
    for piece in
        ["fn", " ", "main", "() {\n    ", "let", " s1 = ", "String", "::", "from", "(", "\"hello\"", ");\n}"]
    {
        page.text(code, piece);
    }
    // Quotes split into spans, inline code, a span around one word, spans with no space.
    let p = page.add(root, Role::Paragraph, "", block);
    for piece in ["Press the ", "“", "Cancel", "”", " action, or use "] {
        page.text(p, piece);
    }
    let c = page.add(p, Role::Code, "", |_| {});
    page.text(c, "Vec::new");
    page.text(p, ", ");
    let em = page.add(p, Role::Generic, "", |_| {});
    page.text(em, "not");
    page.text(p, " this.");
    let p = page.add(root, Role::Paragraph, "", block);
    for piece in ["foo", "bar", " baz", "!"] {
        page.text(p, piece);
    }
    // Two captions, each a `div`: two texts, not "Output Launcher".
    let out = page.add(root, Role::Generic, "", block);
    page.text(out, "Output");
    let launch = page.add(root, Role::Generic, "", block);
    page.text(launch, "Launcher");
    // A code editor: a contenteditable of line `div`s made of token spans; its value is its
    // text, which its lines already show.
    let editor = page.add(root, Role::Generic, "", |n| {
        n.flags.pre = true;
        n.flags.block = true;
        n.value = Some("if x {\n    go();\n}".into());
        n.states.set(State::Editable, true);
        n.states.set(State::Focusable, true);
        n.actions.set(Action::SetValue, true);
    });
    for line in [&["if", " ", "x", " ", "{"][..], &["    ", "go", "();"], &["}"]] {
        let l = page.add(editor, Role::Generic, "", |n| {
            n.flags.block = true;
            n.states.set(State::Editable, true);
            n.actions.set(Action::SetValue, true);
        });
        for piece in line {
            page.add(l, Role::Text, piece, |n| {
                n.states.set(State::Editable, true);
                n.actions.set(Action::SetValue, true);
            });
        }
    }
    let text = page.render(&ProjectOptions::default());
    insta::assert_snapshot!("code_quotes_captions_editor", text);
    // Lines of code are drawn bare, their own indentation kept.
    assert!(
        text.contains("\n  code\n    fn main() {\n        let s1 = String::from(\"hello\");\n    }\n"),
        "{text}"
    );
    assert!(text.contains("paragraph: Press the “Cancel” action, or use `Vec::new`, not this.\n"), "{text}");
    assert!(text.contains("paragraph: foobar baz!\n"), "{text}");
    assert!(text.contains("text: Output\ntext: Launcher\n"), "{text}");
    assert!(text.contains("\n      go();\n"), "{text}");
    assert!(!text.contains("go(); }"), "the editor's value is not said again:\n{text}");
}

/// A line of code that would read as a node's line (`name: axsnap`, a lone word) or a bullet
/// keeps a `text: ` before it; the others are bare.
#[test]
fn code_lines_that_read_as_other_lines_say_text() {
    let mut page = Page::new("Config");
    let root = page.root();
    let pre = page.add(root, Role::Generic, "", |n| {
        n.flags.pre = true;
        n.flags.block = true;
    });
    let code = page.add(pre, Role::Code, "", |n| n.flags.pre = true);
    page.text(code, "name: axsnap\nversion = 1\nitems:\n  * one\nmain\n# done");
    let text = page.render(&ProjectOptions::default());
    assert!(
        text.ends_with(
            "\ncode\n  text: name: axsnap\n  version = 1\n  text: items:\n  text:   * one\n  text: main\n  # done\n"
        ),
        "{text}"
    );
}

#[test]
fn projecting_twice_changes_nothing() {
    let mut page = Page::new("Reading");
    let root = page.root();
    let p = page.add(root, Role::Paragraph, "", block);
    for piece in ["Refreshed ", "0", " times, see "] {
        page.text(p, piece);
    }
    page.add(p, Role::Link, "the guide", |n| n.actions.set(Action::Click, true));
    page.text(p, ".");
    let once = project(&page.tree, &ProjectOptions::default()).tree;
    let twice = project(&once, &ProjectOptions::default()).tree;
    assert!(once == twice, "{once:#?}\n---\n{twice:#?}");
}

/// A link followed by a block's text (a search result's title and its snippet, a button row's
/// link and the next box's label) reads as two pieces, not one word, also once projected
/// again; inline pieces inside one block stay as the page joins them.
#[test]
fn blocks_beside_inline_pieces_stay_apart() {
    let mut page = Page::new("Search");
    let root = page.root();
    let list = page.add(root, Role::List, "", block);
    let item = page.add(list, Role::ListItem, "", block);
    page.add(item, Role::Link, "Lighthouse of Alexandria", |n| n.actions.set(Action::Click, true));
    let snippet = page.add(item, Role::Generic, "", block);
    page.text(snippet, "The ");
    page.text(snippet, "Lighthouse");
    page.text(snippet, " was a tower, see");
    page.add(snippet, Role::Link, "Pharos", |n| n.actions.set(Action::Click, true));
    page.text(snippet, ".");
    let row = page.add(root, Role::Generic, "", block);
    page.add(row, Role::Link, "New issue", |n| n.actions.set(Action::Click, true));
    let label = page.add(row, Role::Generic, "", block);
    page.text(label, "Actions");
    // A block's text first, then a link after the block: apart on that side too.
    let note = page.add(root, Role::Paragraph, "", block);
    let lead = page.add(note, Role::Generic, "", block);
    page.text(lead, "Read more");
    page.add(note, Role::Link, "here", |n| n.actions.set(Action::Click, true));
    let text = page.render(&ProjectOptions::default());
    assert!(
        text.contains("* [Lighthouse of Alexandria](e2) The Lighthouse was a tower, see [Pharos](e3).\n"),
        "{text}"
    );
    assert!(text.contains("paragraph: [New issue](e4) Actions\n"), "{text}");
    assert!(text.contains("paragraph: Read more [here](e5)\n"), "{text}");
    let once = project(&page.tree, &ProjectOptions::default()).tree;
    let twice = project(&once, &ProjectOptions::default()).tree;
    assert!(once == twice, "{once:#?}\n---\n{twice:#?}");
}

/// A sentence written straight into a parent that also holds blocks (`Refreshed <span>2</span>
/// times` in a `<body>` beside a heading and a button) is one line, not three; the same pieces
/// under a parent of inline pieces alone stay on the parent's line.
#[test]
fn a_loose_sentence_beside_blocks_is_one_line() {
    let mut page = Page::new("Counter");
    let root = page.root();
    page.add(root, Role::Heading, "Counter", |n| {
        n.level = Some(1);
        n.flags.block = true;
    });
    page.text(root, "Refreshed ");
    let count = page.add(root, Role::Generic, "", |_| {});
    page.text(count, "2");
    page.text(root, " times by ");
    page.add(root, Role::Link, "bob", |n| n.actions.set(Action::Click, true));
    page.add(root, Role::Button, "Refresh", |n| {
        n.actions.set(Action::Click, true);
        n.flags.block = true;
    });
    let text = page.render(&ProjectOptions::default());
    assert!(
        text.contains("\nparagraph: Refreshed 2 times by [bob](e2)\nbutton \"Refresh\" [e3]\n"),
        "{text}"
    );
    let once = project(&page.tree, &ProjectOptions::default()).tree;
    let twice = project(&once, &ProjectOptions::default()).tree;
    assert!(once == twice, "{once:#?}\n---\n{twice:#?}");
}

/// Monaco's context menu as Chromium gives it (read over CDP from monaco-editor 0.58): each
/// item named from its content, holding its label as a span with an `aria-label` (drawn over
/// the editor the menu covers) and its key binding's text; separators are focusable empty
/// items marked disabled. An item reads once, with one ref; a separator is a separator.
#[test]
fn a_menu_item_says_its_label_and_key_once_and_separators_are_separators() {
    let mut page = Page::new("Workbench");
    let root = page.root();
    let menu = page.add(root, Role::Menu, "", |n| {
        n.flags.block = true;
        n.states.set(State::Focusable, true);
    });
    let item = |page: &mut Page, label: &str, key: Option<&str>| {
        let name = match key {
            Some(k) => format!("{label} {k}"),
            None => label.to_string(),
        };
        let it = page.add(menu, Role::MenuItem, &name, |n| {
            n.actions.set(Action::Click, true);
            n.states.set(State::Focusable, true);
        });
        let span = page.add(it, Role::Generic, label, |n| n.states.set(State::Covering, true));
        page.text(span, label);
        if let Some(k) = key {
            page.text(it, k);
        }
    };
    let separator = |page: &mut Page| {
        page.add(menu, Role::Generic, "", |n| {
            n.states.set(State::Disabled, true);
            n.states.set(State::Focusable, true);
            n.actions.set(Action::Focus, true);
        });
    };
    item(&mut page, "Change All Occurrences", Some("Ctrl+F2"));
    separator(&mut page);
    item(&mut page, "Cut", None);
    separator(&mut page);
    item(&mut page, "Command Palette", Some("F1"));
    let text = page.render(&ProjectOptions::default());
    assert!(
        text.contains(concat!(
            "  menuitem \"Change All Occurrences Ctrl+F2\" [e3]\n",
            "  separator\n",
            "  menuitem \"Cut\" [e4]\n",
            "  separator\n",
            "  menuitem \"Command Palette F1\" [e5]\n"
        )),
        "{text}"
    );
    let once = project(&page.tree, &ProjectOptions::default()).tree;
    let twice = project(&once, &ProjectOptions::default()).tree;
    assert!(once == twice, "{once:#?}\n---\n{twice:#?}");
}

/// Monaco's command palette as Chromium gives it: each option named `label, keys`, holding a
/// clickable label row with the label's text and a clickable key binding named by its
/// `aria-label` over its keys drawn one per span (`Ctrl`, `+`, `K`). One line per option.
#[test]
fn a_palette_option_is_said_once_with_its_keys() {
    let mut page = Page::new("Workbench");
    let root = page.root();
    let list = page.add(root, Role::ListBox, "Type to narrow down results.", |n| n.flags.block = true);
    for (label, keys) in
        [("Add Line Comment", Some(["Ctrl", "K", "Ctrl", "C"])), ("Add Cursors to Top", None)]
    {
        let name = match keys {
            Some(_) => format!("{label}, Control+K Control+C"),
            None => label.to_string(),
        };
        let opt = page.add(list, Role::Option, &name, |n| n.actions.set(Action::Click, true));
        let row = page.add(opt, Role::Label, "", |n| n.actions.set(Action::Click, true));
        page.text(row, label);
        if let Some(keys) = keys {
            let binding =
                page.add(row, Role::Generic, "Control+K Control+C", |n| n.actions.set(Action::Click, true));
            for (i, k) in keys.iter().enumerate() {
                page.add(binding, Role::Text, k, |_| {});
                if i % 2 == 0 {
                    page.text(binding, "+");
                }
            }
        }
    }
    let text = page.render(&ProjectOptions::default());
    assert!(
        text.ends_with(concat!(
            "  option \"Add Line Comment, Control+K Control+C\" [e3]\n",
            "  option \"Add Cursors to Top\" [e4]\n"
        )),
        "{text}"
    );
}

/// A `<label>` around its control (`<label>Due date <input type=date></label>`): its text
/// named the control and a click on it is one on the control, so it is not a line and a ref
/// of its own (`label [e2] [clickable]` over `textbox "Due date" [e3]`).
#[test]
fn a_label_around_its_control_is_the_control() {
    let mut page = Page::new("Form");
    let root = page.root();
    for (name, value) in [("Due date", None), ("Start", Some("09:30"))] {
        let label = page.add(root, Role::Label, "", |n| {
            n.actions.set(Action::Click, true);
            n.flags.block = true;
        });
        page.text(label, name);
        let role = if value.is_some() { Role::Time } else { Role::Date };
        page.add(label, role, name, |n| {
            n.value = value.map(str::to_string);
            n.actions.set(Action::SetValue, true);
            n.states.set(State::Editable, true);
        });
    }
    let text = page.render(&ProjectOptions::default());
    assert!(
        text.ends_with("date \"Due date\" [e2]: empty (yyyy-mm-dd)\ntime \"Start\" [e3]: 09:30\n"),
        "{text}"
    );
}

/// Tools written as `<div><form>…</form> [&nbsp;<a>Refresh</a>&nbsp;]</div>` before a table
/// (phpMyAdmin's query tools): the `div` is dropped, its closing text ends a block and is
/// marked so, yet it closes the sentence it belongs to. The bracket stays on its line.
#[test]
fn a_text_that_ends_a_block_ends_its_sentence() {
    let mut page = Page::new("Browse");
    let root = page.root();
    let tools = page.add(root, Role::Generic, "", block);
    let form = page.add(tools, Role::Form, "", |_| {});
    page.add(form, Role::CheckBox, "Profiling", |n| n.actions.set(Action::Click, true));
    page.text(tools, " [\u{a0}");
    page.add(tools, Role::Link, "Edit", |n| n.actions.set(Action::Click, true));
    page.text(tools, "\u{a0}] [\u{a0}");
    page.add(tools, Role::Link, "Refresh", |n| n.actions.set(Action::Click, true));
    page.text(tools, "\u{a0}]");
    page.add(root, Role::Table, "", block);
    // And a block whose text begins it, after a link: the text begins a sentence of its own.
    page.add(root, Role::Link, "Home", |n| n.actions.set(Action::Click, true));
    let note = page.add(root, Role::Generic, "", block);
    page.text(note, "Read the ");
    page.add(note, Role::Link, "guide", |n| n.actions.set(Action::Click, true));
    page.add(root, Role::Heading, "End", |n| {
        n.level = Some(2);
        n.flags.block = true;
    });
    let text = page.render(&ProjectOptions::default());
    assert!(text.contains("\nparagraph: [ [Edit](e4) ] [ [Refresh](e5) ]\n"), "{text}");
    assert!(!text.lines().any(|l| l.trim() == "]"), "{text}");
    assert!(text.contains("\n[Home](e6)\nparagraph: Read the [guide](e7)\n"), "{text}");
    let once = project(&page.tree, &ProjectOptions::default()).tree;
    let twice = project(&once, &ProjectOptions::default()).tree;
    assert!(once == twice, "{once:#?}\n---\n{twice:#?}");
}

/// A text that is whitespace alone and that no run took (it has a developer id, phpMyAdmin's
/// `<span id="togglequerybox_spacer">`) beside no other text is not drawn: `text:` says
/// nothing.
#[test]
fn a_text_with_nothing_to_say_is_not_drawn() {
    let mut page = Page::new("SQL");
    let root = page.root();
    let form = page.add(root, Role::Form, "", |n| n.dev_id = Some("sqlqueryform".into()));
    page.add(form, Role::Text, " \n", |n| n.dev_id = Some("spacer".into()));
    page.add(form, Role::Button, "Show query box", |n| n.actions.set(Action::Click, true));
    page.add(form, Role::Text, "\u{200b}", |n| n.dev_id = Some("end".into()));
    let text = page.render(&ProjectOptions::default());
    assert!(!text.contains("text"), "{text}");
    assert!(text.contains("form [e2]\n  button \"Show query box\" [e3]\n"), "{text}");
    // Beside a text it may be the space between two words: it stays.
    let p = page.add(root, Role::Generic, "", block);
    page.text(p, "two");
    page.add(p, Role::Text, " ", |n| n.dev_id = Some("gap".into()));
    page.text(p, "words");
    let text = page.render(&ProjectOptions::default());
    assert!(text.contains("two words"), "{text}");
}
