//! Text said once on phpMyAdmin 5.2.1's real pages (`fixtures/trees/phpmyadmin/`, recorded
//! with the bench's `record-workload`; what each shows is in its README).

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::interchange::{read_tree, RecordedTree};
use axsnap_core::session::{ClientId, Mode, Policy, Request, Response, Session};
use axsnap_core::tokens::count_cl100k;
use axsnap_core::{Header, TargetId};

fn recording(name: &str) -> RecordedTree {
    let path = format!("{}/../../fixtures/trees/phpmyadmin/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_tree(&bytes, &Default::default()).unwrap()
}

fn capture(name: &str) -> Capture {
    let rec = recording(name);
    let header = Header { url: rec.target.url.clone(), title: rec.target.title.clone() };
    Capture::new(TargetId("tab".into()), header, rec.tree, None)
}

/// The answers an agent gets for these recordings in turn, the first whole (no budget), the
/// others in auto mode.
fn answers(names: &[&str]) -> Vec<Response> {
    let mut s = Session::new(Policy::default());
    let client = ClientId("agent".into());
    let now = Instant::now();
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let mode = if i == 0 { Mode::Reset } else { Mode::Auto };
            let req = Request { mode, max_tokens: None, ..Request::default() };
            s.snapshot(&client, &capture(name), &req, now).unwrap()
        })
        .collect()
}

/// phpMyAdmin's action links and tabs are `<a><span><img alt="Edit">&nbsp;Edit</span></a>`,
/// which Chromium names "Edit Edit". Each says its name once, without the icon and label
/// lines under it; a link whose icon says something else keeps both.
#[test]
fn an_icon_link_says_its_name_once() {
    let [browse] = &answers(&["browse"])[..] else { unreachable!() };
    let text = &browse.text;
    for once in
        ["cell: [Edit](e", "cell: [Copy](e", "cell: [Delete](e", "* [Browse (current)](e", "* [SQL](e"]
    {
        assert!(text.contains(once), "no {once:?} in\n{text}");
    }
    for said_again in ["Edit Edit", "Copy Copy", "SQL SQL", "Browse Browse", "image \"Edit\"", "text: Edit\n"]
    {
        assert!(!text.contains(said_again), "{said_again:?} in\n{text}");
    }
    for line in [r#"image "Delete""#, r#"image "SQL""#, r#"image "Browse""#, r#"image "Home""#] {
        assert!(!text.contains(line), "{line:?} in\n{text}");
    }
    // The console's icon says "SQL Query Console" beside its label "Console": both stay.
    assert!(text.contains("image \"SQL Query Console\"\n          text: Console\n"), "{text}");
    // 5,637 cl100k before.
    let tokens = count_cl100k(text);
    assert!(tokens < 4_700, "{tokens} cl100k");
}

/// A cell Chromium names from the field it holds (the field's value, or an empty field's
/// placeholder) is not named: typing into the field is one line of a diff, the field's.
#[test]
fn typing_into_a_field_changes_the_field_alone() {
    let [edit, typed] = &answers(&["edit", "edit_typed"])[..] else { unreachable!() };
    for named in ["cell \"Paraffin", "cell \"Save\"", "cell \"12\"", "cell \"Lantern\""] {
        assert!(!edit.text.contains(named), "{named:?} in\n{}", edit.text);
    }
    assert!(edit.text.contains("[multiline]: Paraffin, the glass is smoked.\n"), "{}", edit.text);
    assert!(edit.text.contains("[options: \"Save\", "), "{}", edit.text);
    let changes: Vec<&str> = typed.text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(changes.len(), 1, "{}", typed.text);
    assert!(
        changes[0].contains("textbox: value \"Paraffin, the glass is smoked.\" -> \"Paraffin, new glass fitted in December.\""),
        "{}",
        typed.text
    );
    // The table's filter box: its cell was named "Filter rows: Search this table" (the box's
    // placeholder), then "Filter rows: Lantern" (what was typed).
    let [_, filtered] = &answers(&["browse", "browse_filtered"])[..] else { unreachable!() };
    assert!(!filtered.text.contains("Filter rows"), "{}", filtered.text);
    assert!(
        filtered.text.contains("textbox \"Search this table\": value none -> \"Lantern\""),
        "{}",
        filtered.text
    );
}

/// The query's tools `[&nbsp;<a>Refresh</a>&nbsp;]` end the `div` they are in; the closing
/// bracket stays on their line, not on one of its own.
#[test]
fn a_bracket_stays_on_its_line() {
    let [browse] = &answers(&["browse"])[..] else { unreachable!() };
    let text = &browse.text;
    let tools = text.lines().find(|l| l.contains("[Refresh](e")).unwrap_or_else(|| panic!("{text}"));
    assert!(tools.trim().starts_with("[ [Edit inline](e") && tools.ends_with(") ]"), "{tools:?}");
    assert!(!text.lines().any(|l| l.trim() == "]"), "{text}");
    // 4,604 cl100k before.
    assert!(count_cl100k(text) <= 4_603, "{}", count_cl100k(text));
}

/// After Go the query form holds a spacer (`<span id="togglequerybox_spacer">` around a line
/// break) and the "Show query box" button: the spacer is not a line.
#[test]
fn a_text_with_nothing_to_say_is_no_line() {
    let [_, done] = &answers(&["sql_typed", "sql_done"])[..] else { unreachable!() };
    let text = &done.text;
    assert!(!text.lines().any(|l| l.trim() == "text:"), "{text}");
    assert!(
        text.contains(
            "  form [e64]
    button \"Show query box\" [e"
        ),
        "{text}"
    );
    // 242 cl100k before.
    assert!(count_cl100k(text) <= 239, "{}", count_cl100k(text));
}

/// Clear adds phpMyAdmin's "unsaved changes" mark first into a box the agent saw: the box is
/// named by what it held, never by the mark's own text.
#[test]
fn an_added_part_is_placed_by_what_was_shown() {
    let [sql, cleared] = &answers(&["sql", "sql_cleared"])[..] else { unreachable!() };
    let text = &cleared.text;
    let place = text.lines().find(|l| l.starts_with("+ under ")).unwrap_or_else(|| panic!("{text}"));
    assert!(!place.contains("Indicates that you have made"), "{text}");
    // Whatever names the box was in the answer before.
    if let Some((_, hint)) = place.split_once(" with \"") {
        let hint = hint.split('"').next().unwrap_or_default().trim_end_matches('…');
        assert!(sql.text.contains(hint), "{hint:?} was never shown:\n{}", sql.text);
    }
    // 78 cl100k before.
    assert!(count_cl100k(text) <= 78, "{}", count_cl100k(text));
}

/// Typing `Lantern` into "Search this table" hides 24 of 25 rows: one line names them by the
/// cell that tells them apart and lists the refs that went, where there were 24 lines
/// `- row with "Edit" in e96`.
#[test]
fn filtered_rows_are_named_with_their_refs() {
    let [browse, filtered] = &answers(&["browse", "browse_filtered"])[..] else { unreachable!() };
    let text = &filtered.text;
    assert!(!text.contains("- row with \"Edit\""), "{text}");
    let gone: Vec<&str> = text.lines().filter(|l| l.starts_with("- ")).collect();
    assert_eq!(gone.len(), 1, "{text}");
    assert!(gone[0].starts_with("- 24 rows in e96: \"Anchor\", \"Barometer\", "), "{text}");
    assert!(!gone[0].contains("\"Lantern\""), "{text}");
    // Every ref shown in a hidden row is said gone: Anchor's row is e109 to e117.
    assert!(browse.text.contains("checkbox [e109]") && browse.text.contains("cell \"Anchor\" [e114]"));
    assert!(gone[0].contains("; refs e109-e"), "{text}");
    // 301 cl100k before.
    let tokens = count_cl100k(text);
    assert!(tokens < 301, "{tokens} cl100k");
}

#[test]
#[ignore = "prints the answers: cargo test -p axsnap-core --test phpmyadmin -- --ignored --nocapture"]
fn print_answers() {
    for seq in [
        &["browse"][..],
        &["edit", "edit_typed"],
        &["browse", "browse_filtered"],
        &["sql", "sql_cleared"],
        &["sql_typed", "sql_done"],
    ] {
        for (name, a) in seq.iter().zip(answers(seq)) {
            println!("===== {name}: {} cl100k\n{}", count_cl100k(&a.text), a.text);
        }
    }
}

#[test]
#[ignore = "prints cl100k figures: cargo test -p axsnap-core --test phpmyadmin -- --ignored --nocapture"]
fn print_figures() {
    for name in ["browse", "browsed", "saved", "edit", "sql", "sql_done"] {
        let [a] = &answers(&[name])[..] else { unreachable!() };
        println!("{name}: whole {} cl100k", count_cl100k(&a.text));
    }
    for pair in [
        ["edit", "edit_typed"],
        ["browse", "browse_filtered"],
        ["browsed", "saved"],
        ["saved", "sql"],
        ["sql", "sql_cleared"],
        ["sql_typed", "sql_done"],
    ] {
        let a = answers(&pair);
        println!("{} -> {}: {} cl100k ({:?})", pair[0], pair[1], count_cl100k(&a[1].text), a[1].answer);
    }
}
