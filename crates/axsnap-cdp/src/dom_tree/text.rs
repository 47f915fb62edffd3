//! Text helpers of the DOM tree: whitespace as the browser shows it, bounded lengths, link
//! resolution.

/// Longest name, in bytes (cut at a character boundary).
pub(super) const MAX_NAME: usize = 400;

/// ASCII whitespace collapsed and trimmed, at most [`MAX_NAME`] bytes. (A no-break space is
/// kept, as the browser keeps it in names.)
pub(super) fn normalize(s: &str) -> String {
    let out = collapse(s, MAX_NAME);
    match out.trim_matches(' ') {
        t if t.len() == out.len() => out,
        t => t.to_string(),
    }
}

/// ASCII whitespace runs made one space, ends kept (a text node keeps the space that
/// separates it from its neighbours, as the browser's static text does), at most `max`
/// bytes.
pub(super) fn collapse(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max));
    let mut space = false;
    for c in s.chars() {
        if c.is_ascii_whitespace() {
            space = true;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        if out.len() + c.len_utf8() > max {
            return out;
        }
        out.push(c);
    }
    if space && out.len() < max {
        out.push(' ');
    }
    out
}

/// `s` cut to at most `max` bytes, at a character boundary.
pub(super) fn bounded(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `href` resolved against the document URL, for the common forms (absolute, `#fragment`,
/// `?query`, `/path`, `//host`, relative path), with the dot segments of a relative path
/// removed as the browser removes them.
pub(super) fn resolve(base: &str, href: &str) -> String {
    let href = href.trim();
    let scheme_end = base.find("://").map(|p| p + 3);
    let has_scheme = href.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if has_scheme || base.is_empty() {
        return href.to_string();
    }
    let no_fragment = base.split('#').next().unwrap_or(base);
    let no_query = no_fragment.split('?').next().unwrap_or(no_fragment);
    let origin_end =
        scheme_end.map(|s| s + base[s..].find('/').unwrap_or(base.len() - s)).unwrap_or(no_query.len());
    if let Some(rest) = href.strip_prefix("//") {
        let scheme = base.split("://").next().unwrap_or("http");
        return format!("{scheme}://{rest}");
    }
    match href.chars().next() {
        Some('#') => format!("{no_fragment}{href}"),
        Some('?') => format!("{no_query}{href}"),
        Some('/') => without_dots(&format!("{}{href}", &base[..origin_end.min(base.len())]), origin_end),
        None => no_fragment.to_string(),
        _ => {
            let dir = no_query.rfind('/').filter(|&p| p + 1 > origin_end.min(no_query.len())).unwrap_or(0);
            if dir == 0 {
                without_dots(&format!("{}/{href}", &base[..origin_end.min(base.len())]), origin_end)
            } else {
                without_dots(&format!("{}{href}", &no_query[..=dir]), origin_end)
            }
        }
    }
}

/// `url` with the `.` and `..` segments of its path (from byte `path_start`, up to a query or
/// fragment) removed.
fn without_dots(url: &str, path_start: usize) -> String {
    let start = path_start.min(url.len());
    let (head, rest) = url.split_at(start);
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    let (path, tail) = rest.split_at(end);
    if !path.split('/').any(|seg| seg == "." || seg == "..") {
        return url.to_string();
    }
    let mut out: Vec<&str> = Vec::new();
    let segs: Vec<&str> = path.split('/').collect();
    for (k, seg) in segs.iter().enumerate() {
        let last = k + 1 == segs.len();
        match *seg {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    format!("{head}{}{tail}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalized_and_bounded() {
        assert_eq!(normalize("  a \n b\t"), "a b");
        assert_eq!(collapse("  a \n b\t", 10), " a b ");
        assert_eq!(normalize("a\u{a0} b"), "a\u{a0} b");
        let long = "é".repeat(300);
        let n = normalize(&long);
        assert!(n.len() <= MAX_NAME && n.chars().all(|c| c == 'é'));
        assert_eq!(bounded("aé", 2), "a");
        assert_eq!(bounded("  a\n", 9), "  a\n");
    }

    #[test]
    fn links_resolve_like_the_browser_for_common_forms() {
        let base = "http://h:1/dir/page.html?q=1#top";
        assert_eq!(resolve(base, "#i5"), "http://h:1/dir/page.html?q=1#i5");
        assert_eq!(resolve(base, "?x=2"), "http://h:1/dir/page.html?x=2");
        assert_eq!(resolve(base, "/a/b"), "http://h:1/a/b");
        assert_eq!(resolve(base, "other.html"), "http://h:1/dir/other.html");
        assert_eq!(resolve(base, "//cdn/x.js"), "http://cdn/x.js");
        assert_eq!(resolve(base, "https://e.org/"), "https://e.org/");
        assert_eq!(resolve(base, "mailto:a@b"), "mailto:a@b");
        assert_eq!(resolve("http://h:1", "x"), "http://h:1/x");
        assert_eq!(
            resolve("http://h:1/std/index.html", "../alloc/index.html"),
            "http://h:1/alloc/index.html"
        );
        assert_eq!(resolve("http://h:1/a/b/c.html", "./../x/./y.html#z"), "http://h:1/a/x/y.html#z");
        assert_eq!(resolve("http://h:1/a.html", "../../x"), "http://h:1/x");
        assert_eq!(resolve(base, "/a/../b/?q=../x"), "http://h:1/b/?q=../x");
    }
}
