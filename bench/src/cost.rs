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
    /// axsnap's form only: the tokens of its words alone ([`words_alone`]), the floor for
    /// any form that keeps them.
    pub words: usize,
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
    if style == Style::Axsnap {
        out.words = count_cl100k(&words_alone(text));
    }
    out
}

/// axsnap's text form reduced to the page's words, a string a line: no header, indentation,
/// ref, role word, state, bullet or link markup (`  * [Installation](e9) [selected]` reads
/// `Installation`). What is left is what no form that keeps the page's text and names can
/// drop: the floor of its size.
pub fn words_alone(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with('#') {
            continue;
        }
        let mut body = line.trim_start();
        body = body.strip_prefix("* ").unwrap_or(body);
        if body == "*" {
            continue;
        }
        // A role word, then a quoted name, a `: ` tail, brackets, or nothing.
        let word_end = body.find([' ', ':']).unwrap_or(body.len());
        let word = &body[..word_end];
        if is_kind_word(word) {
            body = &body[word_end..];
            body = body.strip_prefix(": ").or_else(|| body.strip_prefix(':')).unwrap_or(body);
            body = body.trim_start();
        }
        let mut words = String::new();
        let mut rest = body;
        while !rest.is_empty() {
            if let Some(r) =
                rest.strip_prefix(" [").or_else(|| rest.strip_prefix('[').filter(|_| words.is_empty()))
            {
                // A state or ref bracket (`[e5]`, `[checked]`) goes; a link's `[name](e5)`
                // keeps its name.
                if let Some(close) = r.find(']') {
                    let inner = &r[..close];
                    let after = &r[close + 1..];
                    if let Some(after_ref) = after.strip_prefix("(e") {
                        words.push_str(if rest.starts_with(' ') { " " } else { "" });
                        words.push_str(inner);
                        rest = after_ref.find(')').map_or("", |p| &after_ref[p + 1..]);
                        continue;
                    }
                    if !inner.contains(' ') || inner.starts_with("desc:") {
                        rest = after;
                        continue;
                    }
                }
            }
            if let Some(r) = rest.strip_prefix('[') {
                if let Some(close) = r.find("](e") {
                    words.push_str(&r[..close]);
                    let after = &r[close + 3..];
                    rest = after.find(')').map_or("", |p| &after[p + 1..]);
                    continue;
                }
            }
            let mut chars = rest.chars();
            if let Some(c) = chars.next() {
                words.push(c);
            }
            rest = chars.as_str();
        }
        let words = words.trim();
        let words = words.strip_prefix('"').and_then(|w| w.strip_suffix('"')).unwrap_or(words);
        if !words.is_empty() {
            out.push_str(words);
            out.push('\n');
        }
    }
    out
}

/// A role word of axsnap's form (`link`, `text`, `h2`).
fn is_kind_word(word: &str) -> bool {
    let heading =
        word.strip_prefix('h').is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    heading || word == "text" || !matches!(axsnap_core::Role::parse(word), axsnap_core::Role::Other(_))
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
        if body.starts_with('[') && body.contains("](e") {
            return "link".into();
        }
        let word = body.split([' ', ':']).next().unwrap_or("");
        if word.len() > 1
            && is_kind_word(word)
            && word.starts_with('h')
            && word[1..].bytes().all(|b| b.is_ascii_digit())
        {
            return "heading".into();
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
        return "(bare text)".into();
    }
    word.to_string()
}

/// `line` without its ref markers: ` [e5]`, and a link's `(e5)` in `[name](e5)` (its title,
/// if any, stays: `[name]("title")`).
fn strip_refs(line: &str, style: Style) -> String {
    let out = strip_bracket_refs(line, style);
    if style == Style::Playwright {
        return out;
    }
    let mut rest = out.as_str();
    let mut kept = String::with_capacity(out.len());
    while let Some(at) = rest.find("](e") {
        let digits = rest[at + 3..].bytes().take_while(u8::is_ascii_digit).count();
        let end = at + 3 + digits;
        kept.push_str(&rest[..at + 1]);
        match rest[end..].chars().next() {
            Some(')') if digits > 0 => rest = &rest[end + 1..],
            Some(' ') if digits > 0 => {
                kept.push('(');
                rest = &rest[end + 1..];
            }
            _ => rest = &rest[at + 1..],
        }
    }
    kept.push_str(rest);
    kept
}

/// `line` without its bracketed ref markers (` [e5]`, ` [ref=e5]`).
fn strip_bracket_refs(line: &str, style: Style) -> String {
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
    fn words_alone_keep_the_pages_words_and_nothing_else() {
        let ours = "# Title — http://x/\nnavigation \"Contents\" [e3]\n  * [Installation](e9)\n  *\n    [Intro](e13) [selected]\n    * [Hello, World!](e10)\n  h2 \"Ownership Rules\"\n  First, let's look at `s` and [Vec](e12 \"struct\").\n  text: where\n  code\n    let s = 1;\n  button \"Copy\" [e20] [desc: \"Copy to clipboard\"]\n  list\n";
        assert_eq!(
            words_alone(ours),
            "Contents\nInstallation\nIntro\nHello, World!\nOwnership Rules\nFirst, let's look at `s` and Vec.\nwhere\nlet s = 1;\nCopy\n"
        );
    }

    #[test]
    fn kinds_and_refs() {
        let ours = "# Title — http://x/\nlist [e6]\n  *\n    link \"Foo\" [e8]\n    text: hi [e9x]\n  code\n    let x = 1;\n    # not a header\n";
        let c = costs(ours, Style::Axsnap);
        let kinds: Vec<_> = c.kinds.iter().map(|k| (k.kind.as_str(), k.lines)).collect();
        assert!(
            kinds.contains(&("# header", 1)) && kinds.contains(&("link", 1)) && kinds.contains(&("text", 1))
        );
        assert!(kinds.contains(&("listitem", 1)) && kinds.contains(&("(bare text)", 2)), "{kinds:?}");
        assert!(c.refs > 0 && c.indent > 0 && c.tokens > c.refs + c.indent);
        assert_eq!(
            strip_refs("    link \"Foo\" [e8] [checked]", Style::Axsnap),
            "    link \"Foo\" [checked]"
        );
        assert_eq!(strip_refs("text: a [e9x] b [", Style::Axsnap), "text: a [e9x] b [");
        assert_eq!(
            strip_refs("  [Foo](e8) [checked], [Bar](e9 \"t\") [x](y)", Style::Axsnap),
            "  [Foo] [checked], [Bar](\"t\") [x](y)"
        );
        let c = costs("h2 \"Intro\"\n  [Foo](e8)\n  Some prose.\n", Style::Axsnap);
        let kinds: Vec<_> = c.kinds.iter().map(|k| k.kind.as_str()).collect();
        assert!(
            kinds.contains(&"heading") && kinds.contains(&"link") && kinds.contains(&"(bare text)"),
            "{kinds:?}"
        );
        assert!(c.refs > 0 && c.words > 0 && c.words < c.tokens);

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
