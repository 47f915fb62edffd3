//! A long value's change as its changed span ([`TextEdit`]), in both reading forms: the text
//! form's `value appended " and more"`, `value replaced "cat" with "car" at line 12 after
//! "…the black"`, and the JSON form's `{"field":"edit","of":"value","at":…}`. A 15,000-character
//! text area that gained a sentence answers the sentence, not the text twice.
//!
//! Short texts (both sides under [`SHORT_CHARS`]) keep the whole `old -> new` form: it reads
//! best and costs little. What the span shows is capped: the removed text at
//! [`REMOVED_CHARS`] (the reader was sent it before), the inserted text at the text cap with
//! a paged marker (`…+4,000 chars: from=2043`), so `snapshot ref=… from=…` reads the rest of
//! the new value.

use std::fmt::Write as _;

use super::line;
use crate::caps::{cap, cap_paged, TEXT_CHARS};
use crate::diff::{FieldChange, TextEdit, TextField};

/// A text change with both sides shorter than this (in characters) is shown whole.
pub(super) const SHORT_CHARS: usize = 80;
/// Most characters of the removed text a change shows.
const REMOVED_CHARS: usize = 200;
/// A change shorter than this (removed and inserted, in characters) in the middle of a text
/// gets a few words before it, to place it.
const PLACE_CHARS: usize = 40;
/// Words of context before a short change.
const CONTEXT_WORDS: usize = 3;

/// Whether a change from `old` to `new` is said as its span rather than whole.
pub(super) fn is_long(old: &Option<String>, new: &Option<String>) -> bool {
    match (old, new) {
        (Some(o), Some(n)) => is_long_text(o, n),
        _ => false,
    }
}

/// [`is_long`] of two present texts.
pub(super) fn is_long_text(old: &str, new: &str) -> bool {
    let long = |s: &str| s.len() > SHORT_CHARS && s.chars().count() > SHORT_CHARS;
    long(old) || long(new)
}

/// The span of the change from `old` to `new`, its texts capped for reading; `None` when the
/// change is not long ([`is_long`]) or there is none.
pub(super) fn shown_edit(old: &Option<String>, new: &Option<String>) -> Option<TextEdit> {
    shown_text_edit(old.as_deref()?, new.as_deref()?)
}

/// [`shown_edit`] of two present texts.
fn shown_text_edit(old: &str, new: &str) -> Option<TextEdit> {
    if !is_long_text(old, new) {
        return None;
    }
    let mut e = TextEdit::between(old, new)?;
    e.removed = cap(&e.removed, REMOVED_CHARS).into_owned();
    e.inserted = cap_paged(&e.inserted, TEXT_CHARS, e.at).into_owned();
    Some(e)
}

/// The JSON form's change for a long `Name`, `Value` or `Description` change: an
/// [`FieldChange::Edit`] with its texts capped; `None` to keep the change as it is.
pub(super) fn as_edit(c: &FieldChange) -> Option<FieldChange> {
    let (of, edit) = match c {
        FieldChange::Name { old, new } => (TextField::Name, shown_text_edit(old, new)?),
        FieldChange::Value { old, new } => (TextField::Value, shown_edit(old, new)?),
        FieldChange::Description { old, new } => (TextField::Description, shown_edit(old, new)?),
        _ => return None,
    };
    Some(FieldChange::Edit { of, edit })
}

/// Writes `field appended "…"` (or inserted, removed, replaced, placed by line and context)
/// when the change is long; returns false, writing nothing, when it is not.
pub(super) fn push_long_change(
    s: &mut String,
    field: &str,
    old: &Option<String>,
    new: &Option<String>,
) -> bool {
    let Some(e) = shown_edit(old, new) else { return false };
    let Some(new) = new.as_deref() else { return false };
    s.push_str(field);
    s.push(' ');
    match (e.removed.is_empty(), e.inserted.is_empty()) {
        (true, _) if e.after == 0 => {
            s.push_str("appended ");
            line::push_quoted(s, &e.inserted);
            return true;
        }
        (true, _) => {
            s.push_str("inserted ");
            line::push_quoted(s, &e.inserted);
        }
        (false, true) => {
            s.push_str("removed ");
            line::push_quoted(s, &e.removed);
        }
        (false, false) => {
            s.push_str("replaced ");
            line::push_quoted(s, &e.removed);
            s.push_str(" with ");
            line::push_quoted(s, &e.inserted);
        }
    }
    if let Some(l) = e.line {
        let _ = write!(s, " at line {l}");
    }
    if e.at == 0 && e.after == 0 {
        // The whole text was replaced: no place to say.
    } else if e.at == 0 {
        s.push_str(" at the start");
    } else if e.after == 0 {
        s.push_str(" at the end");
    } else if e.removed.chars().count() + e.inserted.chars().count() < PLACE_CHARS {
        // A short change could be anywhere: the words before it place it.
        let before = e.context_before(new, CONTEXT_WORDS);
        let ellipsis = before.chars().count() < e.at;
        s.push_str(" after ");
        line::push_quoted(s, &if ellipsis { format!("…{before}") } else { before });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(old: &str, new: &str) -> String {
        let mut s = String::new();
        if !push_long_change(&mut s, "value", &Some(old.into()), &Some(new.into())) {
            s.push_str("(whole)");
        }
        s
    }

    #[test]
    fn long_changes_say_their_span() {
        let text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(90);
        let end = text.trim_end().to_string();
        assert_eq!(
            said(&end, &format!("{end} One more sentence.")),
            r#"value appended " One more sentence.""#
        );
        assert_eq!(said(&format!("Intro. {end}"), &end), r#"value removed "Intro. " at the start"#);
        let mid = end.replacen("elit. Lorem ipsum dolor sit", "elit. Lorem ipsum dolor sat", 1);
        assert_eq!(said(&end, &mid), r#"value replaced "sit" with "sat" after "…Lorem ipsum dolor ""#);
        let first = end.replacen("dolor sit", "dolor sat", 1);
        assert_eq!(said(&end, &first), r#"value replaced "sit" with "sat" after "Lorem ipsum dolor ""#);
        let lines = "line one\nline two\nline three is here and long enough to matter\n".repeat(3);
        let changed = lines.replacen("three", "3", 3).replacen("3", "three", 2);
        assert_eq!(
            said(&lines, &changed),
            r#"value replaced "three" with "3" at line 9 after "…line two\nline ""#
        );
        let cut = end.strip_suffix(" adipiscing elit.").unwrap();
        assert_eq!(said(&end, cut), r#"value removed " adipiscing elit." at the end"#);
        // All of it replaced: the old text cut short, the new one whole.
        let all = said(&end, "Cleared.");
        assert!(
            all.starts_with(r#"value replaced "Lorem ipsum"#) && all.ends_with(r#" chars" with "Cleared.""#),
            "{all}"
        );
        assert!(all.len() < 300, "{all}");
        // Short values: whole.
        assert_eq!(said("bob", "bob@"), "(whole)");
    }

    #[test]
    fn a_long_insertion_is_paged_from_where_it_starts() {
        let old = "a ".repeat(100);
        let new = format!("{old}{}", "b".repeat(5_000));
        let e = shown_edit(&Some(old.clone()), &Some(new)).unwrap();
        assert!(e.inserted.chars().count() <= TEXT_CHARS);
        let from: usize = e.inserted.rsplit("from=").next().unwrap().parse().unwrap();
        let shown = e.inserted.chars().take_while(|c| *c == 'b').count();
        assert_eq!(from, old.chars().count() + shown);
    }

    #[test]
    fn json_changes_of_long_values_are_edits() {
        let old = Some("x".repeat(5_000));
        let new = Some(format!("{} tail", "x".repeat(5_000)));
        let c = as_edit(&FieldChange::Value { old, new }).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"field":"edit","of":"value","at":5000,"removed":"","inserted":" tail","after":0}"#
        );
        assert!(as_edit(&FieldChange::Value { old: Some("a".into()), new: Some("b".into()) }).is_none());
        // A long name (a list item's text) too.
        let old = format!("{} status: open", "Issue title words ".repeat(10));
        let new = old.replace("open", "closed");
        let c = as_edit(&FieldChange::Name { old, new }).unwrap();
        let json = serde_json::to_string(&c).unwrap();
        assert!(
            json.contains(r#""of":"name""#) && json.contains(r#""removed":"open","inserted":"closed""#),
            "{json}"
        );
    }
}
