//! The leaner text form (issue 10, item 4), through the real pipeline on raw trees built the
//! way Chromium reports pages: what only repeats something already said is not said again.

use axsnap_core::project::{ProjectOptions, View};
use axsnap_core::{Action, Role, State};

#[path = "common/page.rs"]
mod page;
use page::Page;

/// A chapter's scrollable wrapper whose platform name is its content, as Chromium names a
/// focusable scroller (all its text, the button's too): not a name, in the full view or the
/// interactive one; nor when the name was cut at the text limit.
#[test]
fn a_containers_content_is_not_its_name() {
    let content = "The issue with the tuple code is that we have to return the String to the caller. Copy";
    let mut page = Page::new("Page");
    let root = page.root();
    let main = page.add(root, Role::Generic, content, |n| {
        n.actions.set(Action::Scroll, true);
        n.states.set(State::Focusable, true);
    });
    let p = page.add(main, Role::Paragraph, "", |_| {});
    page.add(p, Role::Text, "The issue with the tuple code is that we have to return the ", |_| {});
    page.add(p, Role::Code, "", |_| {});
    let code = page.tree.node(p).children[1];
    page.add(code, Role::Text, "String", |_| {});
    page.add(p, Role::Text, " to the caller.", |_| {});
    page.add(main, Role::Button, "Copy", |n| n.actions.set(Action::Click, true));
    // The same wrapper with a click listener (mdBook's page wrapper) holds a button: its text
    // is its content, not what it does.
    let mut clickable = page.tree.clone();
    let id =
        clickable.preorder().map(|(id, _)| id).find(|id| clickable.node(*id).role == Role::Generic).unwrap();
    clickable.node_mut(id).actions.set(Action::Click, true);
    clickable.node_mut(id).name.clear();
    let full = page.render(&ProjectOptions::default());
    let interactive = page.render(&ProjectOptions {
        view: View { interactive_only: true, ..View::default() },
        ..ProjectOptions::default()
    });
    insta::assert_snapshot!("content_is_not_a_name_full", full);
    insta::assert_snapshot!("content_is_not_a_name_interactive", interactive);
    for text in [&full, &interactive] {
        assert!(!text.contains(&format!("\"{content}\"")), "{text}");
        assert!(text.contains("button \"Copy\""), "{text}");
    }
    let clicked = Page { tree: clickable, next: 0 }.render(&ProjectOptions {
        view: View { interactive_only: true, ..View::default() },
        ..ProjectOptions::default()
    });
    assert!(clicked.contains("\ngeneric [e2] [clickable]\n"), "{clicked}");
    // Cut at the limit (here 20 characters): the start still spells the content.
    let short = ProjectOptions { max_text_chars: 40, ..ProjectOptions::default() };
    let cut =
        page.render(&ProjectOptions { view: View { interactive_only: true, ..View::default() }, ..short });
    assert!(cut.starts_with("# Page\n") && cut.contains("\ngeneric [e"), "{cut}");
}

/// A text field as Chromium reports it: the browser's inner editor inside it repeats the
/// value, and a `<label for>` beside it (clickable: it focuses the field) repeats its name. An
/// inline counter in a span stays on its sentence's line.
#[test]
fn a_field_its_inner_editor_its_label_and_an_inline_run() {
    let mut page = Page::new("Page");
    let root = page.root();
    let form = page.add(root, Role::Group, "Rename", |_| {});
    let label = page.add(form, Role::Label, "", |n| n.actions.set(Action::Click, true));
    page.add(label, Role::Text, "New name", |_| {});
    let field = page.add(form, Role::TextBox, "New name", |n| {
        n.value = Some("untitled-1.rs".into());
        n.states.set(State::Editable, true);
        n.states.set(State::Focusable, true);
        n.actions.set(Action::SetValue, true);
    });
    let inner = page.add(field, Role::Generic, "", |n| n.states.set(State::Editable, true));
    page.add(inner, Role::Text, "untitled-1.rs", |n| n.states.set(State::Editable, true));
    // An empty field's inner editor holds nothing.
    let empty = page.add(form, Role::TextBox, "Note", |n| {
        n.value = Some(String::new());
        n.states.set(State::Editable, true);
    });
    page.add(empty, Role::Generic, "", |n| n.states.set(State::Editable, true));
    let p = page.add(root, Role::Paragraph, "", |_| {});
    page.add(p, Role::Text, "Refreshed ", |_| {});
    let counter = page.add(p, Role::Generic, "", |n| n.dev_id = Some("n".into()));
    page.add(counter, Role::Text, "0", |_| {});
    page.add(p, Role::Text, " times", |_| {});
    let text = page.render(&ProjectOptions::default());
    insta::assert_snapshot!("field_label_inline_run", text);
    assert_eq!(text.matches("New name").count(), 1, "{text}");
    assert_eq!(text.matches("untitled-1.rs").count(), 1, "{text}");
    assert!(text.contains("paragraph: Refreshed 0 times\n"), "{text}");
    assert!(!text.contains("[editable]"), "no inner editor:\n{text}");
}

/// A number field as Chromium reports Gradio's slider box (`<input type=number>`): its inner
/// editor repeats the value like a text field's does, and goes; the value stays on its line.
#[test]
fn a_number_fields_inner_editor_is_not_shown() {
    let mut page = Page::new("Page");
    let root = page.root();
    let field = page.add(root, Role::SpinButton, "number input for Times", |n| {
        n.value = Some("1".into());
        n.states.set(State::Editable, true);
        n.states.set(State::Focusable, true);
        n.actions.set(Action::SetValue, true);
        n.actions.set(Action::Click, true);
    });
    let inner = page.add(field, Role::Generic, "", |n| {
        n.states.set(State::Editable, true);
        n.actions.set(Action::SetValue, true);
    });
    page.add(inner, Role::Text, "1", |n| {
        n.states.set(State::Editable, true);
        n.actions.set(Action::SetValue, true);
    });
    // Gradio's empty status box before each component, kept by nothing but its test id.
    page.add(root, Role::Generic, "", |n| n.dev_id = Some("status-tracker".into()));
    let text = page.render(&ProjectOptions::default());
    assert!(text.contains("spinbutton \"number input for Times\" [e2] [editable]: 1\n"), "{text}");
    assert!(!text.contains("generic"), "no inner editor:\n{text}");
}

/// A docs page's table of contents: nested lists of links after a long run of prose. The
/// lists show no ref (nothing to do on a list), and the links' refs are numbered before the
/// prose that shows none: `e4`, not `e24`.
#[test]
fn lists_show_no_ref_and_shown_refs_stay_short() {
    let mut page = Page::new("Page");
    let root = page.root();
    let main = page.add(root, Role::Main, "", |_| {});
    for i in 0..20 {
        page.add(main, Role::Paragraph, &format!("Paragraph {i} of the chapter."), |_| {});
    }
    let list = page.add(main, Role::List, "", |_| {});
    for name in ["Ownership", "Borrowing"] {
        let li = page.add(list, Role::ListItem, "", |_| {});
        page.add(li, Role::Link, name, |n| n.actions.set(Action::Click, true));
    }
    let text = page.render(&ProjectOptions::default());
    insta::assert_snapshot!("lists_and_short_refs", text);
    // A plain list of bullets has no line of its own: its bullets say it.
    assert!(!text.contains("list") && text.contains("\n  * [Ownership](e3)\n"), "{text}");
    assert!(text.contains("[Ownership](e3)") && text.contains("[Borrowing](e4)"), "{text}");
}
