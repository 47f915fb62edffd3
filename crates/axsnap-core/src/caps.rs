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
//!
//! A value is the one text an agent may need whole (a document in a text area), so it is
//! kept whole up to [`VALUE_CHARS`] and paged when shown: its marker says where the next page
//! starts, in characters (`…+515 chars: from=1985`), and `snapshot ref=… from=1985` reads on
//! ([`cap_paged`], [`page`]).

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

/// Most characters of a value a snapshot keeps (projection's default): past the text cap a
/// value is paged, not sent whole, so this only bounds what a session holds.
pub const VALUE_CHARS: usize = 1_000_000;

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

/// The marker of a paged text: `left_out` characters cut, the next page starting at character
/// `from` of the whole text: `…+1,234 chars: from=2000` (the offset unseparated, as a tool
/// argument is written).
pub fn paged_marker(left_out: usize, from: usize) -> String {
    format!("{}: from={from}", marker(left_out))
}

/// `s`, the text from its character `offset` on, cut to at most `max` characters with a
/// [`paged_marker`] that says where to read on (borrowed when it fits). Falls back to a bare
/// [`MARK`] when the limit is too small for the marker.
pub fn cap_paged(s: &str, max: usize, offset: usize) -> Cow<'_, str> {
    if s.len() <= max {
        return Cow::Borrowed(s);
    }
    let total = s.chars().count();
    if total <= max {
        return Cow::Borrowed(s);
    }
    // The longest the marker can be: what is left out is at most `total`, the next page starts
    // at most at `offset + max`; a character or two of slack beats a fixed-point search.
    let longest = paged_marker(total, offset + max).chars().count();
    if longest >= max {
        return cap(s, max);
    }
    let keep = max - longest;
    let end = s.char_indices().nth(keep).map_or(s.len(), |(i, _)| i);
    let mut out = String::with_capacity(end + longest + 4);
    out.push_str(&s[..end]);
    out.push_str(&paged_marker(total - keep, offset + keep));
    Cow::Owned(out)
}

/// The page of `s` that starts at character `from`, at most `max` characters: a leading
/// [`MARK`] when it starts past the beginning, and the [`paged_marker`] of the next page when
/// more follows. Past the end, a bare mark and the text's length.
pub fn page(s: &str, from: usize, max: usize) -> String {
    if from == 0 {
        return cap_paged(s, max, 0).into_owned();
    }
    let Some((start, _)) = s.char_indices().nth(from) else {
        return format!("{MARK} (ends at {} chars)", thousands(s.chars().count()));
    };
    let mut out = String::new();
    out.push(MARK);
    out.push_str(&cap_paged(&s[start..], max.saturating_sub(1), from));
    out
}

/// Whether `s` ends with a cut marker (so a second cut can tell it was cut already).
pub fn is_cut(s: &str) -> bool {
    let s = match s.rfind(": from=") {
        Some(i)
            if !s[i + ": from=".len()..].is_empty()
                && s[i + ": from=".len()..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            &s[..i]
        }
        _ => s,
    };
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
    fn paged_caps_say_where_the_next_page_starts() {
        let s = format!("{}{}", "a".repeat(1_990), "b".repeat(515));
        let c = cap_paged(&s, 2_000, 0);
        assert!(c.chars().count() <= 2_000);
        let from: usize = c.rsplit("from=").next().unwrap().parse().unwrap();
        let shown = c.chars().take_while(|c| *c != MARK).count();
        assert_eq!(from, shown);
        assert!(c.ends_with(&paged_marker(2_505 - shown, shown)), "{}", &c[1_900..]);
        assert!(is_cut(&c));
        // Fits: as it is.
        assert!(matches!(cap_paged("short", 10, 0), Cow::Borrowed("short")));
        // A page from the middle starts with the mark and counts from the whole text.
        let p = page(&s, from, 2_000);
        assert!(p.starts_with(MARK) && !p.contains("from="), "{p}");
        assert_eq!(p.chars().count(), 1 + 2_505 - from);
        // Read to the end, page by page, multibyte text included.
        let long: String = (0..30_000).map(|i| ['é', 'x', '😀', ' '][i % 4]).collect();
        let (mut at, mut read) = (0, String::new());
        loop {
            let p = page(&long, at, 2_000);
            assert!(p.chars().count() <= 2_000);
            let body = if at > 0 { p.strip_prefix(MARK).unwrap() } else { &p };
            match body.rfind(": from=") {
                Some(i) => {
                    let next: usize = body[i + 7..].parse().unwrap();
                    let text = &body[..body[..i].rfind(MARK).unwrap()];
                    read.push_str(text);
                    assert_eq!(read.chars().count(), next);
                    at = next;
                }
                None => {
                    read.push_str(body);
                    break;
                }
            }
        }
        assert_eq!(read, long);
        assert_eq!(page("abc", 3, 10), "… (ends at 3 chars)");
    }

    #[test]
    fn cut_texts_are_recognized() {
        assert!(is_cut("abc…+1,234 chars: from=12"));
        assert!(!is_cut("see: from=12"));
        assert!(is_cut("abc…+1,234 chars"));
        assert!(is_cut("abc…"));
        assert!(!is_cut("3 chars"));
        assert!(!is_cut("abc…+x chars"));
    }
}
