//! Caps on every piece of output: the most characters of each kind of text that a rendering
//! shows, and the visible marker a cut text ends with (`…+123,456 chars`, the characters
//! left out).
//!
//! A hostile page can make any text huge (a 500,000-character `document.title`, a 1 MB
//! `aria-label`, a data URL); an agent pays for every character it is sent. Projection cuts
//! names, values and descriptions at its own limit ([`crate::project::ProjectOptions`]) with
//! the same marker; rendering caps every text again with the limits below, so a snapshot
//! built any other way is bounded too, and caps what projection does not touch (the header's
//! title and URL, link URLs, select options). Limits count characters (Unicode scalar
//! values), not bytes, and include the marker: a capped text is at most its limit long.
//!
//! | text | limit |
//! | --- | --- |
//! | name, value, description, text | [`TEXT_CHARS`] (2,000, projection's default) |
//! | page title | [`TITLE_CHARS`] (500) |
//! | URL (page, link) | [`URL_CHARS`] (1,000) |
//! | one select option | [`OPTION_CHARS`] (200) |
//! | developer id, role, native id part | [`ID_CHARS`] (200) |
//! | one line of the text form | [`LINE_CHARS`] (16,000) |
//!
//! The line limit is a backstop: fields already capped fit in it, unless escaping blows them
//! up (a name made of control characters is written `\u{1}` each).

use std::borrow::Cow;

/// Most characters of a name, value, description or text.
pub const TEXT_CHARS: usize = 2_000;
/// Most characters of a page or window title.
pub const TITLE_CHARS: usize = 500;
/// Most characters of a URL.
pub const URL_CHARS: usize = 1_000;
/// Most characters of one select option.
pub const OPTION_CHARS: usize = 200;
/// Most characters of an identifier the backend made up or the page chose (developer id,
/// platform role, a part of a native id).
pub const ID_CHARS: usize = 200;
/// Most characters of one line of the text form, its marker included.
pub const LINE_CHARS: usize = 16_000;

/// What every cut marker starts with.
pub const MARK: char = '…';

/// The marker for `left_out` characters cut: `…+1,234 chars`.
pub fn marker(left_out: usize) -> String {
    format!("{MARK}+{} chars", thousands(left_out))
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `s` cut to at most `max` characters, marker included, when it is longer; borrowed when it
/// fits. Reads `s` once.
pub fn cap(s: &str, max: usize) -> Cow<'_, str> {
    // Fewer bytes than the limit: fewer characters too.
    if s.len() <= max {
        return Cow::Borrowed(s);
    }
    let total = s.chars().count();
    if total <= max {
        return Cow::Borrowed(s);
    }
    let keep = kept_chars(total, max);
    let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
    let mut out = String::with_capacity(end + 24);
    out.push_str(&s[..end]);
    push_marker(&mut out, total - keep, max);
    Cow::Owned(out)
}

/// Cuts `s` in place to at most `max` characters (marker included), where the whole text had
/// `total` characters of which `s` holds the first ones (at least `max + 1`, or all of them).
/// Returns whether it cut.
pub fn cut_counted(s: &mut String, total: usize, max: usize) -> bool {
    if total <= max {
        return false;
    }
    let keep = kept_chars(total, max);
    let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
    s.truncate(end);
    push_marker(s, total - keep, max);
    true
}

/// How many characters of a `total`-character text to keep so that they and their marker
/// take at most `max` characters. A limit too small for the marker keeps `max - 1` and a bare
/// [`MARK`] (a limit of 0 keeps the bare mark).
fn kept_chars(total: usize, max: usize) -> usize {
    let mut keep = max;
    // Each step shortens the kept part by the marker's length, which only grows with what is
    // left out; two or three steps settle it.
    loop {
        let m = marker_chars(total - keep);
        if m >= max {
            return max.saturating_sub(1);
        }
        if keep + m <= max {
            return keep;
        }
        keep = max - m;
    }
}

/// The marker, or a bare [`MARK`] when the limit is too small for it (even a limit of 0: a
/// cut text never reads as empty).
fn push_marker(out: &mut String, left_out: usize, max: usize) {
    let m = marker(left_out);
    if m.chars().count() >= max {
        out.push(MARK);
    } else {
        out.push_str(&m);
    }
}

fn marker_chars(left_out: usize) -> usize {
    let digits = left_out.to_string().len();
    // `…+` + digits with separators + ` chars`.
    2 + digits + (digits - 1) / 3 + 6
}

/// Whether `s` ends with a cut marker (so a second cut can tell it was cut already).
pub fn is_cut(s: &str) -> bool {
    let Some(rest) = s.strip_suffix(" chars") else { return s.ends_with(MARK) };
    match rest.rfind("…+") {
        Some(i) => rest[i + "…+".len()..].chars().all(|c| c.is_ascii_digit() || c == ','),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_count_what_is_left_out() {
        assert_eq!(marker(5), "…+5 chars");
        assert_eq!(marker(123_456), "…+123,456 chars");
        assert_eq!(marker(1_000), "…+1,000 chars");
        for n in [0, 9, 10, 999, 1_000, 99_999, 1_000_000, 12_345_678] {
            assert_eq!(marker_chars(n), marker(n).chars().count(), "{n}");
        }
    }

    #[test]
    fn caps_include_their_marker() {
        let s = "x".repeat(500_000);
        let c = cap(&s, 500);
        assert_eq!(c.chars().count(), 500);
        assert!(c.ends_with("…+499,515 chars"), "{}", &c[480..]);
        assert_eq!(c.chars().take_while(|c| *c == 'x').count() + 499_515, 500_000);
        assert!(is_cut(&c));
        // A text that fits is borrowed as it is, however many bytes its characters take.
        assert!(matches!(cap("ééé", 3), Cow::Borrowed("ééé")));
        assert_eq!(cap(&"é".repeat(100), 20), format!("{}…+90 chars", "é".repeat(10)));
        // A limit too small for the marker.
        assert_eq!(cap("abcdef", 4), "abc…");
        assert_eq!(cap("abcdef", 0), "…");
        // Capping twice changes nothing.
        assert_eq!(cap(&c, 500), c);
    }

    #[test]
    fn counted_cuts_say_the_whole_length() {
        let mut s = "y".repeat(60);
        assert!(cut_counted(&mut s, 10_060, 40));
        assert_eq!(s, format!("{}…+10,034 chars", "y".repeat(26)));
        assert!(!cut_counted(&mut s, 40, 40));
    }

    #[test]
    fn cut_texts_are_recognized() {
        assert!(is_cut("abc…+1,234 chars"));
        assert!(is_cut("abc…"));
        assert!(!is_cut("3 chars"));
        assert!(!is_cut("abc…+x chars"));
    }
}
