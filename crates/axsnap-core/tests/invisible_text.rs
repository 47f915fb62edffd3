//! Characters no reader sees never reach an answer, through the real pipeline (project, refs,
//! render, diff): a block editor's `\u{feff}`-seeded title, zero-width spaces and soft hyphens
//! inside words, bidirectional marks, and icon-font glyphs from the Private Use Area, as real
//! pages send them (a WordPress title field, an admin menu of icon-font links, a button named by
//! its glyph with a `title` tooltip).

use axsnap_core::diff::diff;
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_diff, Format};
use axsnap_core::{Action, Role, State, TargetId, Tree};

#[path = "common/page.rs"]
mod page;
use page::Page;

/// Whether `s` holds a character this test's pages use to hide text.
fn hides(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{feff}' | '\u{200b}' | '\u{00ad}' | '\u{200e}' | '\u{2060}' | '\u{e000}'..='\u{f8ff}')
            || ('\u{f0000}'..='\u{10fffd}').contains(&c)
    })
}

fn editor_page(title_value: &str, icon_label: &str) -> Page {
    let mut page = Page::new("Add New Post");
    let root = page.root();
    // The title field: an editable whose value and only text are a byte-order mark.
    let title = page.add(root, Role::TextBox, "Add title", |n| {
        n.value = Some(title_value.to_string());
        n.states.set(State::Editable, true);
        n.states.set(State::Focusable, true);
        n.states.set(State::Multiline, true);
        n.actions.set(Action::SetValue, true);
    });
    page.add(title, Role::Text, title_value, |n| n.states.set(State::Editable, true));
    // An admin menu link: an icon-font glyph and a label.
    let nav = page.add(root, Role::Navigation, "Main menu", |_| {});
    page.add(nav, Role::Link, &format!("\u{f102} {icon_label}"), |n| {
        n.actions.set(Action::Click, true);
        n.url = Some("http://127.0.0.1/wp-admin/".into());
    });
    // A button whose only content is a glyph, with a tooltip (Chromium: the description).
    page.add(root, Role::Button, "\u{f158}", |n| {
        n.description = Some("Close panel".into());
        n.actions.set(Action::Click, true);
    });
    // A button with a glyph and no tooltip: it stays, unnamed.
    page.add(root, Role::Button, "\u{f0001}", |n| n.actions.set(Action::Click, true));
    // Running text with a zero-width space, a soft hyphen and a left-to-right mark.
    let p = page.add(root, Role::Paragraph, "", |n| n.flags.block = true);
    page.text(p, "co\u{00ad}operate with\u{200b}out \u{200e}delay\u{2060}");
    page
}

#[test]
fn invisible_characters_and_glyphs_never_reach_the_text() {
    let text = editor_page("\u{feff}", "Dashboard").render(&ProjectOptions::default());
    assert!(!hides(&text), "{text:?}");
    assert!(text.contains("[Dashboard](e"), "the glyph goes, the label stays:\n{text}");
    assert!(text.contains("button \"Close panel\""), "a glyph-only button is named by its tooltip:\n{text}");
    assert!(text.contains("cooperate without delay"), "{text}");
    // The empty title field has no value to say and no child line of nothing.
    let title_line = text.lines().find(|l| l.contains("\"Add title\"")).expect("the title field");
    assert!(!title_line.contains(':'), "{title_line}");
    let after: Vec<&str> =
        text.lines().skip_while(|l| !l.contains("\"Add title\"")).skip(1).take(1).collect();
    assert!(after.iter().all(|l| !l.trim().is_empty()), "no blank child line: {text}");
}

#[test]
fn preformatted_and_unjoined_text_leave_them_out_too() {
    let mut page = Page::new("Terminal");
    let root = page.root();
    let pre = page.add(root, Role::Generic, "", |n| {
        n.flags.pre = true;
        n.flags.block = true;
    });
    page.text(pre, "\u{e0b0} ~/src \u{e0a0} main\n$ ls\u{200b}\n");
    for opts in [ProjectOptions::default(), ProjectOptions { join_text: false, ..ProjectOptions::default() }]
    {
        let text = page.render(&opts);
        assert!(!hides(&text), "{text:?}");
        assert!(text.contains("~/src  main"), "{text}");
    }
}

/// Typing into the title replaces the mark with what was typed: the diff says the new value,
/// never the mark, and a glyph that comes or goes alone is no change at all.
#[test]
fn diffs_say_no_invisible_character() {
    let target = TargetId("T".into());
    let mut refs = RefSpace::new();
    let mut snap = |raw: &Tree| {
        let mut p = project(raw, &ProjectOptions::default());
        refs.refresh(&target, raw, &mut p.tree);
        p.tree
    };
    let before = snap(&editor_page("\u{feff}", "Dashboard").tree);
    let typed = snap(&editor_page("Hello", "Dashboard").tree);
    let d = diff(&before, &typed).expect("diff");
    let text = render_diff(&d, &before, &typed, Format::Text);
    assert!(text.contains("Hello"), "{text}");
    assert!(!hides(&text), "{text:?}");
    // The same page with the glyph swapped for another: nothing a reader sees changed.
    let mut swapped = editor_page("Hello", "Dashboard");
    let glyph_link =
        swapped.tree.preorder().map(|(id, _)| id).find(|&id| swapped.tree.node(id).role == Role::Link);
    let glyph_link = glyph_link.expect("the link");
    swapped.tree.node_mut(glyph_link).name = "\u{f103} Dashboard".into();
    let again = snap(&swapped.tree);
    let d = diff(&typed, &again).expect("diff");
    assert!(d.is_empty(), "a swapped glyph is no change: {d:?}");
}
