//! A parser of Playwright's aria snapshot text (the YAML-like form `ariaSnapshot()` returns) into
//! a flat list of items.
//!
//! The form, one item per line, two spaces of indentation per level:
//!
//! ```text
//! - navigation "Table of contents" [ref=e3]:
//!   - link "Foreword" [ref=e11] [cursor=pointer]:
//!     - /url: foreword.html
//!     - strong [aria-hidden] [ref=e18]: "1."
//!     - text: Foreword
//! - 'figure "Listing 4-1: A variable" [ref=e572]':
//! - textbox "Search" [ref=e9]: typed value
//! ```
//!
//! - `text: V` is a text node; `/name: V` a property of the parent (`/url`, `/placeholder`).
//! - Otherwise the line is a key, optionally followed by `: V` (the element's single text
//!   child, or a field's value) or by `:` (children follow on deeper lines). A key is the
//!   role, then the name as a JSON string, then attributes in brackets (`[level=2]`,
//!   `[checked]`, `[ref=e5]`, ...). A key that YAML would misread (it holds `: `, ` #`, ...) is
//!   wrapped in single quotes, `''` standing for `'`.
//! - A value is plain to the end of the line or a YAML double-quoted string (`\"`, `\\`,
//!   `\n`, `\t`, `\xNN`, ...). Playwright leaves out names longer than 900 characters.
//!
//! The result is flat (pre-order, each item with its depth and parent), so nothing here recurses
//! on the input's depth.

use crate::error::BenchError;

/// Marks a text or property line in the open-parents stack: nothing may nest under it.
const NOT_A_PARENT: usize = usize::MAX;

/// A parsed snapshot: its items in document (pre-)order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AriaSnapshot {
    /// The items, in the order of the lines.
    pub items: Vec<AriaItem>,
}

/// One line of the snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct AriaItem {
    /// Indentation level (0 at the top).
    pub depth: usize,
    /// Index of the enclosing element in [`AriaSnapshot::items`].
    pub parent: Option<usize>,
    /// What the line is.
    pub kind: ItemKind,
}

/// What a line is.
#[derive(Clone, Debug, PartialEq)]
pub enum ItemKind {
    /// An element (`- role "name" [attrs]`).
    Element(AriaElement),
    /// A text node (`- text: ...`).
    Text(String),
    /// A property of the enclosing element (`- /url: ...`), without the slash.
    Prop {
        /// Property name (`url`, `placeholder`).
        name: String,
        /// Its value.
        value: String,
    },
}

/// An element line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AriaElement {
    /// The ARIA role as Playwright wrote it (`link`, `heading`, `generic`, ...).
    pub role: String,
    /// The accessible name (empty when none was written).
    pub name: String,
    /// Bracketed attributes in order: `[level=2]` is `("level", Some("2"))`, `[checked]` is
    /// `("checked", None)`.
    pub attrs: Vec<(String, Option<String>)>,
    /// The value after `key: `: the element's single text child, or a field's value.
    pub inline: Option<String>,
}

impl AriaElement {
    /// The value of attribute `name` (`Some(None)` for a bare `[name]`).
    pub fn attr(&self, name: &str) -> Option<Option<&str>> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_deref())
    }

    /// Playwright's ref (`e5`), if the element has one.
    pub fn ref_id(&self) -> Option<&str> {
        self.attr("ref").flatten()
    }

    /// Whether Playwright showed it although it is `aria-hidden` (visible on screen).
    pub fn aria_hidden(&self) -> bool {
        self.attr("aria-hidden").is_some()
    }
}

impl AriaSnapshot {
    /// Parses a snapshot. Blank lines are skipped; anything else that is not an item of the
    /// form is an error that names its line.
    pub fn parse(text: &str) -> Result<AriaSnapshot, BenchError> {
        let mut items: Vec<AriaItem> = Vec::new();
        // open[d]: the index of the last element at depth d, the parent of items at d + 1.
        let mut open: Vec<usize> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let err = |reason: String| BenchError::AriaParse { line: i + 1, reason };
            if line.trim().is_empty() {
                continue;
            }
            let spaces = line.len() - line.trim_start_matches(' ').len();
            if spaces % 2 != 0 {
                return Err(err(format!("odd indentation ({spaces} spaces)")));
            }
            let depth = spaces / 2;
            if depth > open.len() {
                return Err(err(format!("indented to level {depth} under level {}", open.len())));
            }
            open.truncate(depth);
            let parent = match depth.checked_sub(1).map(|d| open[d]) {
                Some(NOT_A_PARENT) => return Err(err("nested under a text or a property".into())),
                p => p,
            };
            let body = line[spaces..].strip_prefix("- ").ok_or_else(|| err("no `- ` item marker".into()))?;
            let kind = parse_item(body).map_err(err)?;
            let is_element = matches!(kind, ItemKind::Element(_));
            if parent.is_none() && matches!(kind, ItemKind::Prop { .. }) {
                return Err(err("a property outside any element".into()));
            }
            items.push(AriaItem { depth, parent, kind });
            open.push(if is_element { items.len() - 1 } else { NOT_A_PARENT });
        }
        Ok(AriaSnapshot { items })
    }

    /// The elements, with their indices.
    pub fn elements(&self) -> impl Iterator<Item = (usize, &AriaElement)> {
        self.items.iter().enumerate().filter_map(|(i, it)| match &it.kind {
            ItemKind::Element(e) => Some((i, e)),
            _ => None,
        })
    }

    /// The text an element shows, as an accessible name computed from content would read it:
    /// its inline value, its descendants' texts and inline values, and the names of its
    /// descendant leaves (an image's alt text), joined by spaces in order. Names of elements
    /// with content are left out: they are computed from that same content.
    pub fn content_text(&self, index: usize) -> String {
        let Some(item) = self.items.get(index) else { return String::new() };
        let mut parts: Vec<&str> = Vec::new();
        if let ItemKind::Element(e) = &item.kind {
            if let Some(v) = &e.inline {
                parts.push(v);
            }
        }
        let below = &self.items[index + 1..];
        let end = below.iter().position(|it| it.depth <= item.depth).unwrap_or(below.len());
        for (k, it) in below[..end].iter().enumerate() {
            match &it.kind {
                ItemKind::Text(t) => parts.push(t),
                ItemKind::Element(e) => match &e.inline {
                    Some(v) => parts.push(v),
                    None => {
                        // A leaf holds nothing but properties (a link's `/url`).
                        let leaf = below[k + 1..end]
                            .iter()
                            .take_while(|next| next.depth > it.depth)
                            .all(|next| matches!(next.kind, ItemKind::Prop { .. }));
                        if leaf && !e.name.is_empty() {
                            parts.push(&e.name);
                        }
                    }
                },
                ItemKind::Prop { .. } => {}
            }
        }
        parts.join(" ")
    }
}

/// One line's content after `- `.
fn parse_item(body: &str) -> Result<ItemKind, String> {
    if let Some(v) = body.strip_prefix("text: ") {
        return Ok(ItemKind::Text(parse_value(v)?));
    }
    if body == "text:" {
        return Ok(ItemKind::Text(String::new()));
    }
    if let Some(rest) = body.strip_prefix('/') {
        let (name, value) = rest.split_once(':').ok_or_else(|| format!("property without `:`: {body}"))?;
        return Ok(ItemKind::Prop { name: name.to_string(), value: parse_value(value.trim_start())? });
    }
    let (key, after) = split_key(body)?;
    let mut element = parse_key(&key)?;
    element.inline = match after {
        After::Nothing | After::Children => None,
        After::Value(v) => Some(parse_value(v)?),
    };
    Ok(ItemKind::Element(element))
}

/// What follows a key.
enum After<'a> {
    /// The line ends with the key.
    Nothing,
    /// `key:`: children follow.
    Children,
    /// `key: value`.
    Value(&'a str),
}

/// Splits `key`, `key:` and `key: value`, unquoting a single-quoted key.
fn split_key(body: &str) -> Result<(String, After<'_>), String> {
    let (key, rest) = if let Some(quoted) = body.strip_prefix('\'') {
        // A single-quoted YAML scalar: `''` is a quote, the first lone `'` ends it.
        let mut key = String::new();
        let mut chars = quoted.char_indices().peekable();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                if chars.peek().map(|(_, c)| *c) == Some('\'') {
                    chars.next();
                    key.push('\'');
                } else {
                    end = Some(i + 1);
                    break;
                }
            } else {
                key.push(c);
            }
        }
        let end = end.ok_or_else(|| format!("unterminated quoted key: {body}"))?;
        (key, &quoted[end..])
    } else {
        // Unquoted, a key holds no `: ` and does not end with `:` (YAML would have needed quotes).
        match body.find(": ") {
            Some(i) => (body[..i].to_string(), &body[i..]),
            None => match body.strip_suffix(':') {
                Some(k) => (k.to_string(), ":"),
                None => (body.to_string(), ""),
            },
        }
    };
    let after = if rest.is_empty() {
        After::Nothing
    } else if rest == ":" {
        After::Children
    } else if let Some(v) = rest.strip_prefix(": ") {
        After::Value(v)
    } else {
        return Err(format!("unexpected text after the key: {rest}"));
    };
    Ok((key, after))
}

/// `role "name" [attr] [attr=value]...`.
fn parse_key(key: &str) -> Result<AriaElement, String> {
    let role_end = key.find(' ').unwrap_or(key.len());
    let role = &key[..role_end];
    if role.is_empty() {
        return Err(format!("no role in `{key}`"));
    }
    let mut element = AriaElement { role: role.to_string(), ..AriaElement::default() };
    let mut rest = key[role_end..].trim_start();
    if rest.starts_with('"') {
        let (name, used) = json_string(rest)?;
        element.name = name;
        rest = rest[used..].trim_start();
    }
    while let Some(inner) = rest.strip_prefix('[') {
        let close = inner.find(']').ok_or_else(|| format!("unclosed attribute in `{key}`"))?;
        let attr = &inner[..close];
        element.attrs.push(match attr.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (attr.to_string(), None),
        });
        rest = inner[close + 1..].trim_start();
    }
    if !rest.is_empty() {
        return Err(format!("unexpected `{rest}` in key `{key}`"));
    }
    Ok(element)
}

/// A JSON string at the start of `s`: its value and the bytes it took (agent-browser writes
/// names the same way, so its parser uses this too).
pub(crate) fn json_string(s: &str) -> Result<(String, usize), String> {
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => {
                let lit = &s[..=i];
                let v: String = serde_json::from_str(lit).map_err(|e| format!("bad name {lit}: {e}"))?;
                return Ok((v, i + 1));
            }
            _ => {}
        }
    }
    Err(format!("unterminated name: {s}"))
}

/// A value: plain, YAML double-quoted or single-quoted.
fn parse_value(v: &str) -> Result<String, String> {
    if let Some(inner) = v.strip_prefix('"') {
        let inner = inner.strip_suffix('"').ok_or_else(|| format!("unterminated quoted value: {v}"))?;
        return unescape_double(inner);
    }
    if let Some(inner) = v.strip_prefix('\'') {
        let inner = inner.strip_suffix('\'').ok_or_else(|| format!("unterminated quoted value: {v}"))?;
        return Ok(inner.replace("''", "'"));
    }
    Ok(v.to_string())
}

/// The escapes of a YAML double-quoted scalar.
fn unescape_double(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next().ok_or("a lone `\\` at the end of a value")?;
        match e {
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            '/' => out.push('/'),
            '0' => out.push('\0'),
            'a' => out.push('\u{7}'),
            'b' => out.push('\u{8}'),
            't' => out.push('\t'),
            'n' => out.push('\n'),
            'v' => out.push('\u{b}'),
            'f' => out.push('\u{c}'),
            'r' => out.push('\r'),
            'e' => out.push('\u{1b}'),
            ' ' => out.push(' '),
            'N' => out.push('\u{85}'),
            '_' => out.push('\u{a0}'),
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = chars.by_ref().take(n).collect();
                let code = u32::from_str_radix(&hex, 16).map_err(|_| format!("bad escape \\{e}{hex}"))?;
                out.push(char::from_u32(code).ok_or_else(|| format!("bad code point \\{e}{hex}"))?);
            }
            other => return Err(format!("unknown escape \\{other}")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(item: &AriaItem) -> &AriaElement {
        match &item.kind {
            ItemKind::Element(e) => e,
            other => panic!("not an element: {other:?}"),
        }
    }

    #[test]
    fn parses_the_forms_playwright_writes() {
        let text = r#"- generic [ref=e2]:
  - navigation "Table of contents" [ref=e3]:
    - link "Getting Started" [ref=e17] [cursor=pointer]:
      - /url: ch01-00-getting-started.html
      - strong [aria-hidden] [ref=e18]: "1."
      - text: Getting Started
  - heading "Ownership" [level=2] [ref=e529]
  - 'figure "Listing 4-1: A variable" [ref=e572]':
    - code [ref=e575]: "{ let s = \"hello\"; }\tx\x41"
  - checkbox "It's on" [checked] [ref=e9]
  - paragraph [ref=e10]: 'single'' quoted'
  - textbox "Name" [ref=e11]: bob
"#;
        let s = AriaSnapshot::parse(text).unwrap();
        assert_eq!(s.items.len(), 12);
        let nav = element(&s.items[1]);
        assert_eq!(
            (nav.role.as_str(), nav.name.as_str(), nav.ref_id()),
            ("navigation", "Table of contents", Some("e3"))
        );
        assert_eq!(s.items[1].parent, Some(0));
        let link = element(&s.items[2]);
        assert_eq!(link.attr("cursor"), Some(Some("pointer")));
        assert_eq!(link.inline, None);
        assert_eq!(
            s.items[3].kind,
            ItemKind::Prop { name: "url".into(), value: "ch01-00-getting-started.html".into() }
        );
        assert_eq!(s.items[3].parent, Some(2));
        let strong = element(&s.items[4]);
        assert!(strong.aria_hidden());
        assert_eq!(strong.inline.as_deref(), Some("1."));
        assert_eq!(s.items[5].kind, ItemKind::Text("Getting Started".into()));
        let heading = element(&s.items[6]);
        assert_eq!(heading.attr("level"), Some(Some("2")));
        assert_eq!(s.items[6].parent, Some(0));
        let figure = element(&s.items[7]);
        assert_eq!(figure.name, "Listing 4-1: A variable");
        assert_eq!(element(&s.items[8]).inline.as_deref(), Some("{ let s = \"hello\"; }\txA"));
        let checkbox = element(&s.items[9]);
        assert_eq!(checkbox.name, "It's on");
        assert_eq!(checkbox.attr("checked"), Some(None));
        assert_eq!(element(&s.items[10]).inline.as_deref(), Some("single' quoted"));
        assert_eq!(element(&s.items[11]).inline.as_deref(), Some("bob"));
        assert_eq!(s.content_text(2), "1. Getting Started");
        let img = AriaSnapshot::parse(
            "- button [ref=e1]:\n  - link \"Home\" [ref=e3]:\n    - /url: x.html\n  - img \"Logo\" [ref=e2]\n- text: after",
        )
        .unwrap();
        assert_eq!(img.content_text(0), "Home Logo");
        assert_eq!(
            s.content_text(0),
            "1. Getting Started Ownership { let s = \"hello\"; }\txA It's on single' quoted bob"
        );
    }

    #[test]
    fn names_with_escapes_and_keys_with_quotes() {
        let s = AriaSnapshot::parse(
            "- 'link \"it''s \\\"x\\\": y\" [ref=e1]':\n  - /url: \"#a: b\"\n- button \"a\\\\b\\u00e9\"",
        )
        .unwrap();
        assert_eq!(element(&s.items[0]).name, "it's \"x\": y");
        assert_eq!(s.items[1].kind, ItemKind::Prop { name: "url".into(), value: "#a: b".into() });
        assert_eq!(element(&s.items[2]).name, "a\\bé");
    }

    #[test]
    fn unnamed_and_bare_elements() {
        let s = AriaSnapshot::parse("- generic [ref=e567] [cursor=pointer]\n- list:\n  - listitem: one\n")
            .unwrap();
        let g = element(&s.items[0]);
        assert_eq!((g.name.as_str(), g.inline.as_deref()), ("", None));
        assert_eq!(g.attrs.len(), 2);
        assert_eq!(element(&s.items[2]).inline.as_deref(), Some("one"));
        assert_eq!(s.items[2].parent, Some(1));
    }

    #[test]
    fn rejects_what_is_not_the_form() {
        for bad in [
            "no marker",
            "   - odd: indent",
            "- a:\n    - b: skipped a level",
            "- /url: x",
            "- text: a\n  - text: under a text",
            "- link \"unterminated [ref=e1]",
            "- 'unterminated key",
            "- code: \"unterminated",
            "- code: \"bad \\q escape\"",
            "- link \"x\" junk",
        ] {
            assert!(AriaSnapshot::parse(bad).is_err(), "accepted: {bad:?}");
        }
        let e = AriaSnapshot::parse("- a\n- b \"x").unwrap_err();
        assert!(e.to_string().starts_with("line 2 of Playwright's snapshot"), "{e}");
    }

    #[test]
    fn deep_input_does_not_recurse() {
        let text: String = (0..3_000).map(|d| format!("{}- group:\n", "  ".repeat(d))).collect();
        let s = AriaSnapshot::parse(&text).unwrap();
        assert_eq!(s.items.len(), 3_000);
        assert_eq!(s.items[2_999].parent, Some(2_998));
    }
}
