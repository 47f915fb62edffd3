//! Text helpers of projection: whitespace normalization, characters no reader sees, cutting
//! long texts, joining runs and comparing texts the way a reader would (by words).
//!
//! Every helper is linear in what it reads and stops reading a long input as soon as the cut
//! is known, so a megabyte name costs no more than `max` characters.

/// What a cut text ends with (then `+N chars`, see [`crate::caps`]).
#[cfg(test)]
pub(super) const ELLIPSIS: char = crate::caps::MARK;

/// Whether `c` shows a reader nothing a model can use, so that it never reaches an answer:
/// zero-width spaces and the byte-order mark (editors seed empty fields with `\u{feff}`), the
/// word joiner and invisible operators, the soft hyphen, bidirectional marks and controls, and
/// Private Use Area code points, which icon fonts draw as pictures (`\u{f102}` is a house to the
/// eye and a meaningless code point to a model). The zero-width joiner and non-joiner stay: emoji
/// sequences and several scripts need them.
pub(crate) fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
            | '\u{E000}'..='\u{F8FF}'
            | '\u{F0000}'..='\u{FFFFD}'
            | '\u{100000}'..='\u{10FFFD}'
    )
}

/// Whether `s` holds a character [`is_invisible`] leaves out.
pub(super) fn has_invisible(s: &str) -> bool {
    s.chars().any(is_invisible)
}

/// `s` without the characters [`is_invisible`] leaves out; borrowed when it has none.
pub(super) fn visible(s: &str) -> std::borrow::Cow<'_, str> {
    if has_invisible(s) {
        std::borrow::Cow::Owned(s.chars().filter(|&c| !is_invisible(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// `s` with runs of whitespace made one space, the ends trimmed and invisible characters
/// ([`is_invisible`]) left out, cut to at most `max` characters, the cut marker included. The
/// flag says whether it was cut. Past the limit the rest is only counted (for the marker), not
/// copied.
pub(super) fn normalized(s: &str, max: usize) -> (String, bool) {
    let mut out = String::with_capacity(s.len().min(max.saturating_add(1).saturating_mul(4)));
    let mut chars = 0usize;
    let mut pending_space = false;
    let mut started = false;
    for c in s.chars() {
        if is_invisible(c) {
            continue;
        }
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

/// `s` cut to at most `max` characters (marker included), whitespace kept as it is and
/// invisible characters ([`is_invisible`]) left out.
pub(super) fn limited(s: &str, max: usize) -> (String, bool) {
    let s = visible(s);
    match crate::caps::cap(&s, max) {
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

/// Whether `s` is empty or only whitespace and invisible characters ([`is_invisible`]).
pub(super) fn is_blank(s: &str) -> bool {
    s.chars().all(|c| c.is_whitespace() || is_invisible(c))
}

/// Whether an optional text is absent or blank.
pub(super) fn is_blank_opt(s: &Option<String>) -> bool {
    s.as_deref().is_none_or(is_blank)
}

/// `s` said once when it is the same words twice over (a launcher card whose name is computed
/// from its content and repeats its label: "Python 3 Python 3"). Halves of one short word are
/// left alone: "Bora Bora" and "Walla Walla" are names, not repeats.
pub(super) fn once(s: &str) -> Option<String> {
    let words: Vec<_> = words(s).collect();
    if words.len() < 2 || words.len() % 2 != 0 {
        return None;
    }
    let (a, b) = words.split_at(words.len() / 2);
    if a != b || (a.len() == 1 && a[0].chars().count() < 6) {
        return None;
    }
    Some(a.join(" "))
}

/// The words of `s` as a reader sees them: split at whitespace, invisible characters left out
/// (a word of nothing but those is no word).
fn words(s: &str) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
    s.split_whitespace().map(visible).filter(|w| !w.is_empty())
}

/// Whether `a` and `b` read the same: the same words in the same order.
pub(super) fn same_words(a: &str, b: &str) -> bool {
    words(a).eq(words(b))
}

/// Whether the texts `parts` read together as `whole`: the same words in order, or the same
/// characters once whitespace is ignored (fragments split inside a word, `"Sa" "ve"`).
pub(super) fn parts_read_as<'a>(whole: &str, parts: impl Iterator<Item = &'a str> + Clone) -> bool {
    let shown = |c: &char| !c.is_whitespace() && !is_invisible(*c);
    words(whole).eq(parts.clone().flat_map(words))
        || whole.chars().filter(shown).eq(parts.flat_map(str::chars).filter(shown))
}

/// Whether the texts `parts` read together as `whole` word for word (not split inside a word).
pub(super) fn words_read_as<'a>(whole: &str, parts: impl Iterator<Item = &'a str>) -> bool {
    words(whole).eq(parts.flat_map(words))
}

/// Whether `s` begins (`at_end` false) or ends (`at_end` true) with the words of `part`,
/// whole words each.
pub(super) fn has_words_at(s: &str, part: &str, at_end: bool) -> bool {
    let (s, part): (Vec<_>, Vec<_>) = (words(s).collect(), words(part).collect());
    !part.is_empty() && if at_end { s.ends_with(&part) } else { s.starts_with(&part) }
}

/// The words of `parts` in order, one space between each.
pub(super) fn joined_words<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    parts.flat_map(words).collect::<Vec<_>>().join(" ")
}

/// Whether the texts `parts` hold, together, exactly the letters and digits of `whole`, in
/// order: punctuation and spaces a name puts between what its parts draw (`Add Line Comment,
/// Control+K`) are not compared. Empty on both sides is not a match.
pub(super) fn same_letters<'a>(whole: &str, parts: impl Iterator<Item = &'a str>) -> bool {
    let mut any = false;
    let mut theirs = parts.flat_map(str::chars).filter(|c| c.is_alphanumeric());
    for c in whole.chars().filter(|c| c.is_alphanumeric()) {
        any = true;
        if theirs.next() != Some(c) {
            return false;
        }
    }
    any && theirs.next().is_none()
}

/// Whether `parts` end with a cut text (cut at the text cap) and, but for whitespace and
/// invisible characters, are the beginning of `whole`: an editor's text that repeats a value
/// kept far longer than a text ([`super::ProjectOptions::max_value_chars`]). Its whitespace
/// may differ (preformatted text keeps its line breaks, a value's are made spaces), so the
/// cut falls elsewhere in each; what is shown of the parts is compared, marker left out.
pub(super) fn cut_parts_begin(whole: &str, parts: &[&str]) -> bool {
    let Some((last, head)) = parts.split_last() else { return false };
    if !crate::caps::is_cut(last) {
        return false;
    }
    let Some(mark) = last.rfind(crate::caps::MARK) else { return false };
    let shown = |c: &char| !c.is_whitespace() && !is_invisible(*c);
    let mut whole = whole.chars().filter(shown);
    head.iter()
        .copied()
        .chain([&last[..mark]])
        .flat_map(str::chars)
        .filter(shown)
        .all(|c| whole.next() == Some(c))
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
    fn same_letters_ignores_what_a_name_puts_between_its_parts() {
        assert!(same_letters(
            "Add Line Comment, Control+K Control+C",
            ["Add Line Comment", "Control+K Control+C"].into_iter()
        ));
        assert!(same_letters("Rename... F2", ["Rename...", "F2"].into_iter()));
        assert!(!same_letters("Rename F2", ["Rename"].into_iter()), "a part left out");
        assert!(!same_letters("Rename", ["Rename", "F2"].into_iter()), "a part more");
        assert!(!same_letters("...", ["..."].into_iter()), "nothing to compare");
        assert!(same_letters("Größe ändern", ["Größe", "ändern"].into_iter()));
    }

    #[test]
    fn a_cut_editor_text_begins_its_value() {
        let value = "one two three four five six";
        assert!(cut_parts_begin(value, &["one\n\ntwo th…+13 chars"]));
        assert!(cut_parts_begin(value, &["one", "two th…+13 chars"]));
        assert!(!cut_parts_begin(value, &["one\n\ntwo th"]), "not cut: compared whole elsewhere");
        assert!(!cut_parts_begin(value, &["one three…+13 chars"]));
        assert!(!cut_parts_begin("one", &["one two…+9 chars"]), "longer than the value");
    }

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
    fn invisible_characters_are_left_out() {
        assert_eq!(normalized("\u{feff}", 100), (String::new(), false));
        assert_eq!(normalized("\u{f102} My Blog", 100), ("My Blog".to_string(), false));
        assert_eq!(
            normalized("co\u{ad}op with\u{200b}out \u{200e}x\u{2060}", 100),
            ("coop without x".to_string(), false)
        );
        assert_eq!(limited("\u{e0b0} main\u{feff}", 100), (" main".to_string(), false));
        // They take no room under a limit either.
        assert_eq!(normalized(&format!("{}abc", "\u{200b}".repeat(50)), 3), ("abc".to_string(), false));
        // Emoji sequences and scripts that need the joiners keep them.
        assert_eq!(
            normalized("👩\u{200d}💻 \u{0645}\u{200c}\u{0627}", 100).0,
            "👩\u{200d}💻 \u{0645}\u{200c}\u{0627}"
        );
        assert!(is_blank("\u{feff} \u{f0001}"));
        assert!(same_words("\u{f102} Dashboard", "Dashboard"));
        assert!(parts_read_as("Save", ["Sa\u{200b}", "ve"].into_iter()));
        assert_eq!(
            once("\u{f102} Posts Posts").as_deref(),
            None,
            "two words and a glyph: not a repeat of one"
        );
        assert_eq!(once("New file \u{f102} New file").as_deref(), Some("New file"));
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
