//! Where a snapshot's tokens go: per line kind (the role word that starts the line), plus what
//! indentation and ref markers cost across all lines.
//!
//! Lines are tokenized one at a time (newline included), so the sum is close to, not exactly,
//! the whole text's count; the shares are what this is for.

use std::collections::HashMap;

use axsnap_core::tokens::count_cl100k;

/// Which form the text is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// axsnap's text form: `role "name" [e5]`, `# ` header lines.
    Axsnap,
    /// Playwright's aria snapshot: `- role "name" [ref=e5]`, `- /url: ...`.
    Playwright,
}

/// The cost of one line kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindCost {
    /// The role word (`link`, `text`, `/url`, `# header`).
    pub kind: String,
    /// Lines of this kind.
    pub lines: usize,
    /// Their cl100k tokens.
    pub tokens: usize,
}

/// Where a text's tokens go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Costs {
    /// Sum of the per-line cl100k counts.
    pub tokens: usize,
    /// Tokens the leading indentation (and Playwright's `- `) costs.
    pub indent: usize,
    /// Tokens the ref markers cost (` [e5]`, ` [ref=e5]`, with ` [cursor=pointer]`).
    pub refs: usize,
    /// Per line kind, most expensive first.
    pub kinds: Vec<KindCost>,
}

/// Accounts for the tokens of `text`, written in `style`.
pub fn costs(text: &str, style: Style) -> Costs {
    let mut out = Costs::default();
    let mut kinds: HashMap<String, (usize, usize)> = HashMap::new();
    for line in text.lines() {
        let full = count_cl100k(&format!("{line}\n"));
        let body = line.trim_start_matches(' ');
        let body = match style {
            Style::Playwright => body.strip_prefix("- ").unwrap_or(body),
            Style::Axsnap => body,
        };
        out.tokens += full;
        out.indent += full.saturating_sub(count_cl100k(&format!("{body}\n")));
        let unref = strip_refs(line, style);
        if unref.len() != line.len() {
            out.refs += full.saturating_sub(count_cl100k(&format!("{unref}\n")));
        }
        let top = body.len() == line.len();
        let entry = kinds.entry(kind_of(body, top, style)).or_default();
        entry.0 += 1;
        entry.1 += full;
    }
    out.kinds = kinds.into_iter().map(|(kind, (lines, tokens))| KindCost { kind, lines, tokens }).collect();
    out.kinds.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.kind.cmp(&b.kind)));
    out
}

/// The role word a line starts with (`top`: the line is not indented). In axsnap's form a
/// bullet (`* `) is a list item, and a line that starts with no role word is a line of
/// preformatted text, drawn bare.
fn kind_of(body: &str, top: bool, style: Style) -> String {
    if style == Style::Axsnap {
        if top && body.starts_with('#') {
            return "# header".into();
        }
        if body == "*" || body.starts_with("* ") {
            return "listitem".into();
        }
    }
    let body = body.strip_prefix('\'').unwrap_or(body);
    let end = body.find([' ', ':', '[']).unwrap_or(body.len());
    let word = &body[..end];
    if word.is_empty() {
        return "(other)".into();
    }
    let known = !matches!(axsnap_core::Role::parse(word), axsnap_core::Role::Other(_));
    if style == Style::Axsnap && !known && !matches!(word, "text" | "…") {
        return "(code line)".into();
    }
    word.to_string()
}

/// `line` without its ref markers.
fn strip_refs(line: &str, style: Style) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(" [") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 2..];
        let Some(close) = tail.find(']') else {
            out.push_str(&rest[at..]);
            return out;
        };
        let inner = &tail[..close];
        let is_ref = match style {
            Style::Axsnap => is_our_ref(inner),
            Style::Playwright => inner.starts_with("ref=") || inner == "cursor=pointer",
        };
        if !is_ref {
            out.push_str(&rest[at..at + 2 + close + 1]);
        }
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `e` followed by digits.
fn is_our_ref(s: &str) -> bool {
    s.strip_prefix('e').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_refs() {
        let ours = "# Title — http://x/\nlist [e6]\n  *\n    link \"Foo\" [e8]\n    text: hi [e9x]\n  code\n    let x = 1;\n    # not a header\n";
        let c = costs(ours, Style::Axsnap);
        let kinds: Vec<_> = c.kinds.iter().map(|k| (k.kind.as_str(), k.lines)).collect();
        assert!(
            kinds.contains(&("# header", 1)) && kinds.contains(&("link", 1)) && kinds.contains(&("text", 1))
        );
        assert!(kinds.contains(&("listitem", 1)) && kinds.contains(&("(code line)", 2)), "{kinds:?}");
        assert!(c.refs > 0 && c.indent > 0 && c.tokens > c.refs + c.indent);
        assert_eq!(
            strip_refs("    link \"Foo\" [e8] [checked]", Style::Axsnap),
            "    link \"Foo\" [checked]"
        );
        assert_eq!(strip_refs("text: a [e9x] b [", Style::Axsnap), "text: a [e9x] b [");

        let theirs = "- list [ref=e5]:\n  - link \"Foo\" [ref=e8] [cursor=pointer]:\n    - /url: foo.html\n  - 'figure \"a: b\"'\n";
        let c = costs(theirs, Style::Playwright);
        let kinds: Vec<_> = c.kinds.iter().map(|k| k.kind.as_str()).collect();
        for k in ["list", "link", "/url", "figure"] {
            assert!(kinds.contains(&k), "{kinds:?}");
        }
        assert_eq!(
            strip_refs("  - link \"Foo\" [level=2] [ref=e8] [cursor=pointer]:", Style::Playwright),
            "  - link \"Foo\" [level=2]:"
        );
    }
}
