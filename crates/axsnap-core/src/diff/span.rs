//! The changed span of a text: what a long value lost and gained, and where, so that a diff
//! says only that (`appended " and more"`) instead of the whole old and new text.
//!
//! The span is the text between the longest common prefix and the longest common suffix
//! (not overlapping it), on character boundaries, then widened to whole words when it cuts
//! one (`"cat"` to `"car"` reads better than `"t"` to `"r"`), and to an end of the text when
//! fewer than three characters there are unchanged. It is exact: splicing
//! [`TextEdit::inserted`] in place of [`TextEdit::removed`] at [`TextEdit::at`] in the old
//! text gives the new one ([`TextEdit::apply`]). Linear in the texts' length.

use serde::{Deserialize, Serialize};

/// Characters a span is widened by at most on each side to reach a word's edge, so that a
/// long run without spaces (a base64 blob) does not widen it to everything.
const WIDEN_CHARS: usize = 40;

/// Fewer unchanged characters than this at either end are made part of the span.
const MIN_KEPT: usize = 3;

/// One change of a text: at character `at`, `removed` became `inserted`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextEdit {
    /// Characters before the change, the same in the old and the new text.
    pub at: usize,
    /// The line of the new text the change starts on (from 1), when either text has line
    /// breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What the old text had there (empty for an insertion).
    pub removed: String,
    /// What the new text has there (empty for a removal).
    pub inserted: String,
    /// Characters of the new text after the change (0: the change is at its end).
    pub after: usize,
}

impl TextEdit {
    /// The edit that makes `new` of `old`, or `None` when they are equal.
    pub fn between(old: &str, new: &str) -> Option<TextEdit> {
        if old == new {
            return None;
        }
        // Common prefix, in bytes of whole characters (equal characters have equal lengths).
        let mut pre = 0;
        for (a, b) in old.chars().zip(new.chars()) {
            if a != b {
                break;
            }
            pre += a.len_utf8();
        }
        // Common suffix, not reaching into the prefix of either text.
        let (old_rest, new_rest) = (&old[pre..], &new[pre..]);
        let mut suf = 0;
        for (a, b) in old_rest.chars().rev().zip(new_rest.chars().rev()) {
            if a != b {
                break;
            }
            suf += a.len_utf8();
        }
        let (mut start, mut old_end, mut new_end) = (pre, old.len() - suf, new.len() - suf);
        // An insertion or a removal inside repeated text could be placed several ways; slide
        // it back (the prefix is longest, so it can only go back) to start at a word's edge
        // when it can: `"one three"` to `"one two three"` inserts `"two "`, not `"wo t"`.
        let insertion = start == old_end;
        if insertion || start == new_end {
            let side = if insertion { new } else { old };
            let end = if insertion { &mut new_end } else { &mut old_end };
            for _ in 0..WIDEN_CHARS {
                let (Some(b), Some(l)) =
                    (side[..start].chars().next_back(), side[..*end].chars().next_back())
                else {
                    break;
                };
                // Only inside a word: a span after a space already starts at a word's edge.
                if b != l || !b.is_alphanumeric() {
                    break;
                }
                start -= b.len_utf8();
                *end -= b.len_utf8();
            }
            if insertion {
                old_end = start;
            } else {
                new_end = start;
            }
        }
        // Widen a span that cuts a word to the whole word (the same characters on both sides,
        // so the edit stays exact).
        let first_in_word = old[start..old_end].chars().next().is_some_and(char::is_alphanumeric)
            || new[start..new_end].chars().next().is_some_and(char::is_alphanumeric);
        if first_in_word {
            for c in old[..start].chars().rev().take(WIDEN_CHARS) {
                if !c.is_alphanumeric() {
                    break;
                }
                start -= c.len_utf8();
            }
        }
        let last_in_word = old[start..old_end].chars().next_back().is_some_and(char::is_alphanumeric)
            || new[start..new_end].chars().next_back().is_some_and(char::is_alphanumeric);
        if last_in_word {
            for c in old[old_end..].chars().take(WIDEN_CHARS) {
                if !c.is_alphanumeric() {
                    break;
                }
                old_end += c.len_utf8();
                new_end += c.len_utf8();
            }
        }
        // A sliver of text kept at an end (the final `.` of a text replaced whole) places
        // nothing: the span takes it.
        if old[..start].chars().nth(MIN_KEPT - 1).is_none() {
            start = 0;
        }
        if old[old_end..].chars().nth(MIN_KEPT - 1).is_none() {
            old_end = old.len();
            new_end = new.len();
        }
        let line = (old.contains('\n') || new.contains('\n')).then(|| new[..start].matches('\n').count() + 1);
        Some(TextEdit {
            at: new[..start].chars().count(),
            line,
            removed: old[start..old_end].to_string(),
            inserted: new[start..new_end].to_string(),
            after: new[new_end..].chars().count(),
        })
    }

    /// `old` with this edit made, or `None` when `old` does not hold [`Self::removed`] at
    /// [`Self::at`].
    pub fn apply(&self, old: &str) -> Option<String> {
        let start = old.char_indices().nth(self.at).map_or(old.len(), |(i, _)| i);
        if old[..start].chars().count() != self.at {
            return None;
        }
        let rest = old[start..].strip_prefix(self.removed.as_str())?;
        let mut out = String::with_capacity(old.len() + self.inserted.len());
        out.push_str(&old[..start]);
        out.push_str(&self.inserted);
        out.push_str(rest);
        Some(out)
    }

    /// Up to `words` words of the new text (`new`) just before the change, for a reader to
    /// place a short change that could be anywhere; empty at the start.
    pub fn context_before(&self, new: &str, words: usize) -> String {
        let start = new.char_indices().nth(self.at).map_or(new.len(), |(i, _)| i);
        let before = &new[..start];
        let mut seen = 0;
        let mut from = 0;
        let mut in_word = false;
        // Walk back over at most `words` words and at most 60 characters.
        for (n, (i, c)) in before.char_indices().rev().enumerate() {
            if n >= 60 {
                from = i + c.len_utf8();
                break;
            }
            if c.is_whitespace() {
                if in_word {
                    seen += 1;
                    if seen == words {
                        from = i + c.len_utf8();
                        break;
                    }
                }
                in_word = false;
            } else {
                in_word = true;
            }
        }
        before[from..].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn edit(old: &str, new: &str) -> TextEdit {
        TextEdit::between(old, new).unwrap()
    }

    #[test]
    fn an_appended_sentence_is_the_span() {
        let old = "x".repeat(5_000) + " The end.";
        let new = old.clone() + " One more sentence.";
        let e = edit(&old, &new);
        assert_eq!((e.removed.as_str(), e.inserted.as_str(), e.after), ("", " One more sentence.", 0));
        assert_eq!(e.at, old.chars().count());
        assert_eq!(e.line, None);
        assert_eq!(e.apply(&old).as_deref(), Some(new.as_str()));
    }

    #[test]
    fn a_changed_letter_is_widened_to_its_word() {
        let e = edit("the black cat sat", "the black car sat");
        assert_eq!((e.removed.as_str(), e.inserted.as_str()), ("cat", "car"));
        assert_eq!(e.at, 10);
        assert_eq!(e.context_before("the black car sat", 2), "the black ");
        // A word inserted before a space is not widened into its neighbours.
        let e = edit("one three", "one two three");
        assert_eq!((e.removed.as_str(), e.inserted.as_str()), ("", "two "));
        assert_eq!(e.apply("one three").as_deref(), Some("one two three"));
    }

    #[test]
    fn lines_and_multibyte_text() {
        let old = "première ligne\nzweite Zeile\n第三行 😀 ok";
        let new = "première ligne\nzweite Zeile\n第三行 😁 ok";
        let e = edit(old, new);
        assert_eq!(e.line, Some(3));
        assert_eq!((e.removed.as_str(), e.inserted.as_str()), ("😀", "😁"));
        assert_eq!(e.apply(old).as_deref(), Some(new));
        // Fewer than three characters kept at an end place nothing: the span takes them.
        let e = edit("a few words😀!", "a few words😁!");
        assert_eq!((e.removed.as_str(), e.inserted.as_str(), e.after), ("😀!", "😁!", 0));
        assert_eq!(TextEdit::between("same", "same"), None);
        // A removal at the start.
        let e = edit("Hello world", "world");
        assert_eq!((e.at, e.removed.as_str(), e.inserted.as_str()), (0, "Hello ", ""));
    }

    #[test]
    fn apply_refuses_a_text_it_does_not_fit() {
        let e = edit("abc def", "abc xyz");
        assert_eq!(e.apply("abc ghi"), None);
        assert_eq!(e.apply("ab"), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn the_span_applied_to_the_old_text_gives_the_new(
            old in "[ab é😀\n]{0,40}",
            new in "[ab é😀\n]{0,40}",
        ) {
            match TextEdit::between(&old, &new) {
                None => prop_assert_eq!(&old, &new),
                Some(e) => {
                    prop_assert_eq!(e.apply(&old), Some(new.clone()));
                    prop_assert_eq!(e.at + e.inserted.chars().count() + e.after, new.chars().count());
                    prop_assert!(e.removed != e.inserted);
                }
            }
        }

        #[test]
        fn an_edit_in_a_long_text_is_found_small(
            base in "[a-z ]{200,400}",
            at in 0usize..200,
            ins in "[A-Z]{1,10}",
        ) {
            let cut = base.char_indices().nth(at).map_or(base.len(), |(i, _)| i);
            let new = format!("{}{}{}", &base[..cut], ins, &base[cut..]);
            let e = TextEdit::between(&base, &new).unwrap();
            prop_assert_eq!(e.apply(&base), Some(new.clone()));
            // The word it lands in at most: never the whole text.
            prop_assert!(e.inserted.chars().count() <= ins.chars().count() + 2 * WIDEN_CHARS);
        }
    }
}
