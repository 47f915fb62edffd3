//! Text helpers of projection: whitespace normalization, cutting long texts, joining runs and
//! comparing texts the way a reader would (by words).
//!
//! Every helper is linear in what it reads and stops reading a long input as soon as the cut
//! is known, so a megabyte name costs no more than `max` characters.

/// What a cut text ends with.
pub(super) const ELLIPSIS: char = '…';

/// `s` with runs of whitespace made one space and the ends trimmed, cut to at most `max`
/// characters (with [`ELLIPSIS`]). The flag says whether it was cut.
pub(super) fn normalized(s: &str, max: usize) -> (String, bool) {
    let mut out = String::with_capacity(s.len().min(max.saturating_add(1).saturating_mul(4)));
    let mut chars = 0usize;
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            out.push(' ');
            chars += 1;
            pending_space = false;
        }
        out.push(c);
        chars += 1;
        // One character past the limit is enough to know a cut is needed.
        if chars > max {
            break;
        }
    }
    let cut = cut(&mut out, max);
    (out, cut)
}

/// `s` cut to at most `max` characters (with [`ELLIPSIS`]), whitespace kept as it is.
pub(super) fn limited(s: &str, max: usize) -> (String, bool) {
    if s.len() <= max {
        return (s.to_string(), false);
    }
    match s.char_indices().nth(max) {
        None => (s.to_string(), false),
        Some(_) => {
            let end = s.char_indices().nth(max.saturating_sub(1)).map_or(0, |(i, _)| i);
            let end = if max == 0 { 0 } else { end };
            let mut out = String::with_capacity(end + ELLIPSIS.len_utf8());
            out.push_str(&s[..end]);
            out.push(ELLIPSIS);
            (out, true)
        }
    }
}

/// Cuts `s` in place to at most `max` characters: `max - 1` of its own and [`ELLIPSIS`].
/// Returns whether it cut. A text of exactly `max` characters is left alone, so cutting is
/// idempotent.
pub(super) fn cut(s: &mut String, max: usize) -> bool {
    if s.len() <= max {
        return false;
    }
    if s.char_indices().nth(max).is_none() {
        return false;
    }
    let end = if max == 0 { 0 } else { s.char_indices().nth(max - 1).map_or(0, |(i, _)| i) };
    s.truncate(end);
    s.push(ELLIPSIS);
    true
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
    }

    #[test]
    fn megabyte_text_reads_only_the_limit() {
        let big = "word ".repeat(200_000);
        let (s, was_cut) = normalized(&big, 50);
        assert!(was_cut);
        assert_eq!(char_len(&s), 50);
        assert!(s.ends_with(ELLIPSIS));
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
