//! Text helpers of projection: whitespace normalization, cutting long texts, joining runs and
//! comparing texts the way a reader would (by words).
//!
//! Every helper is linear in what it reads and stops reading a long input as soon as the cut
//! is known, so a megabyte name costs no more than `max` characters.

/// What a cut text ends with (then `+N chars`, see [`crate::caps`]).
#[cfg(test)]
pub(super) const ELLIPSIS: char = crate::caps::MARK;

/// `s` with runs of whitespace made one space and the ends trimmed, cut to at most `max`
/// characters, the cut marker included. The flag says whether it was cut. Past the limit the
/// rest is only counted (for the marker), not copied.
pub(super) fn normalized(s: &str, max: usize) -> (String, bool) {
    let mut out = String::with_capacity(s.len().min(max.saturating_add(1).saturating_mul(4)));
    let mut chars = 0usize;
    let mut pending_space = false;
    let mut started = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = started;
            continue;
        }
        started = true;
        let full = chars > max;
        if pending_space {
            if !full {
                out.push(' ');
            }
            chars += 1;
            pending_space = false;
        }
        if !full {
            out.push(c);
        }
        chars += 1;
    }
    let cut = crate::caps::cut_counted(&mut out, chars, max);
    (out, cut)
}

/// [`normalized`], but a text that starts or ends with whitespace keeps one space there: a
/// piece of running text, whose edges say whether a space separates it from its neighbours
/// (`"Press the "` before a span `"“"`, none between `"foo"` and `"bar"`). Whitespace alone is
/// one space.
pub(super) fn normalized_edges(s: &str, max: usize) -> (String, bool) {
    let (mut out, cut) = normalized(s, max);
    let lead = s.starts_with(char::is_whitespace);
    let trail = s.ends_with(char::is_whitespace);
    if out.is_empty() {
        if lead {
            out.push(' ');
        }
        return (out, cut);
    }
    if lead {
        out.insert(0, ' ');
    }
    if trail && !cut {
        out.push(' ');
    }
    (out, cut)
}

/// `s` cut to at most `max` characters (marker included), whitespace kept as it is.
pub(super) fn limited(s: &str, max: usize) -> (String, bool) {
    match crate::caps::cap(s, max) {
        std::borrow::Cow::Borrowed(b) => (b.to_string(), false),
        std::borrow::Cow::Owned(o) => (o, true),
    }
}

/// Cuts `s` in place to at most `max` characters, marker included. Returns whether it cut. A
/// text of at most `max` characters is left alone, so cutting is idempotent.
pub(super) fn cut(s: &mut String, max: usize) -> bool {
    if s.len() <= max {
        return false;
    }
    let total = s.chars().count();
    crate::caps::cut_counted(s, total, max)
}

/// Number of characters of `s`.
pub(super) fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Whether `s` is empty or only whitespace.
pub(super) fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Whether an optional text is absent or blank.
pub(super) fn is_blank_opt(s: &Option<String>) -> bool {
    s.as_deref().is_none_or(is_blank)
}

/// `s` said once when it is the same words twice over (a launcher card whose name is computed
/// from its content and repeats its label: "Python 3 Python 3"). Halves of one short word are
/// left alone: "Bora Bora" and "Walla Walla" are names, not repeats.
pub(super) fn once(s: &str) -> Option<String> {
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.len() < 2 || words.len() % 2 != 0 {
        return None;
    }
    let (a, b) = words.split_at(words.len() / 2);
    if a != b || (a.len() == 1 && a[0].chars().count() < 6) {
        return None;
    }
    Some(a.join(" "))
}

/// Whether `a` and `b` read the same: the same words in the same order.
pub(super) fn same_words(a: &str, b: &str) -> bool {
    a.split_whitespace().eq(b.split_whitespace())
}

/// Whether the texts `parts` read together as `whole`: the same words in order, or the same
/// characters once whitespace is ignored (fragments split inside a word, `"Sa" "ve"`).
pub(super) fn parts_read_as<'a>(whole: &str, parts: impl Iterator<Item = &'a str> + Clone) -> bool {
    whole.split_whitespace().eq(parts.clone().flat_map(str::split_whitespace))
        || whole
            .chars()
            .filter(|c| !c.is_whitespace())
            .eq(parts.flat_map(str::chars).filter(|c| !c.is_whitespace()))
}

/// Whether a space belongs between `left` and `right` when they are joined: not when either is
/// empty, not before closing punctuation, not after opening punctuation.
pub(super) fn needs_space(left: &str, right: &str) -> bool {
    let (Some(l), Some(r)) = (left.chars().next_back(), right.chars().next()) else {
        return false;
    };
    !(l.is_whitespace()
        || r.is_whitespace()
        || matches!(r, ',' | '.' | ';' | ':' | '!' | '?' | ')' | ']' | '}' | '’' | '”' | '…')
        || matches!(l, '(' | '[' | '{' | '‘' | '“'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_whitespace() {
        assert_eq!(normalized("  a \n\t b  c ", 100), ("a b c".to_string(), false));
        assert_eq!(normalized(" \u{a0} ", 100), (String::new(), false));
    }

    #[test]
    fn cuts_at_char_boundary_with_ellipsis() {
        assert_eq!(normalized("ééééé", 3), ("éé…".to_string(), true));
        assert_eq!(normalized("ééé", 3), ("ééé".to_string(), false));
        assert_eq!(limited("ab  cd", 4), ("ab …".to_string(), true));
        assert_eq!(limited("abcd", 4), ("abcd".to_string(), false));
        let mut s = "日本語テキスト".to_string();
        assert!(cut(&mut s, 4));
        assert_eq!(s, "日本語…");
        assert!(!cut(&mut s, 4), "cutting twice changes nothing");
        // With room for it, the marker says how much was left out.
        let mut s = "0123456789".repeat(5);
        assert!(cut(&mut s, 20));
        assert_eq!(s, "0123456789…+40 chars");
        assert!(!cut(&mut s, 20));
    }

    #[test]
    fn megabyte_text_is_cut_with_its_whole_length_counted() {
        let big = "word ".repeat(200_000);
        let (s, was_cut) = normalized(&big, 50);
        assert!(was_cut);
        assert_eq!(char_len(&s), 50);
        // 999,999 characters once normalized (the trailing space goes), 35 kept.
        assert!(s.ends_with("…+999,964 chars"), "{s}");
        assert!(s.starts_with("word word"));
        assert_eq!(normalized("  a  b  ", 50), ("a b".to_string(), false));
        let _ = ELLIPSIS;
    }

    #[test]
    fn a_name_said_twice_is_said_once() {
        assert_eq!(once("Python 3 Python 3").as_deref(), Some("Python 3"));
        assert_eq!(once("Notebook  Notebook").as_deref(), Some("Notebook"));
        assert_eq!(once("Bora Bora"), None);
        assert_eq!(once("Save"), None);
        assert_eq!(once("a b c"), None);
        assert_eq!(once("New file New folder"), None);
    }

    #[test]
    fn compares_by_words() {
        assert!(same_words("Save  file", " Save file"));
        assert!(!same_words("Save", "Save file"));
        assert!(parts_read_as("Save file", ["Save", "file"].into_iter()));
        assert!(parts_read_as("Save", ["Sa", "ve"].into_iter()));
        assert!(!parts_read_as("Save", ["Sa", "v"].into_iter()));
    }

    #[test]
    fn spaces_only_where_needed() {
        assert!(needs_space("Hello", "world"));
        assert!(!needs_space("Note", ": text"));
        assert!(!needs_space("(", "a"));
        assert!(!needs_space("", "a"));
    }
}
