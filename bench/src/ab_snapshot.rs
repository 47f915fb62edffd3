//! A parser of agent-browser's snapshot text (what `agent-browser snapshot [-i]` prints) into
//! the same flat items as Playwright's ([`AriaSnapshot`]), so that [`crate::recall`] measures
//! both tools by the same rules.
//!
//! The form, one node a line, two spaces of indentation per level:
//!
//! ```text
//! - navigation "Table of contents" [ref=e1]
//!   - listitem [level=1]
//!     - link "Foreword" [ref=e23]
//! - heading "The Rust Programming Language" [level=1, ref=e5] clickable [cursor:pointer]
//! - button "Change theme" [expanded=false, ref=e3]
//!   - StaticText "Ownership is a set of rules"
//! - textbox "Search" [ref=e9]: typed value
//! ```
//!
//! A line is `- ROLE`, then optionally the name as a JSON string, then optionally the
//! properties in one bracket, comma-separated (`level=2`, `checked=true`, `expanded=false`,
//! `selected`, `disabled`, `required`, `ref=e5`), then optionally the marks of an element found
//! by its cursor or handlers (`clickable [cursor:pointer]`, `focusable [tabindex]`, `editable
//! [contenteditable]`), then optionally `: VALUE`, the value as it is (not quoted). A value that
//! holds a line break goes on over the next lines; a line that is not an item continues the
//! value above it.
//!
//! Roles are Chromium's accessibility roles (`StaticText`, `LabelText`, `ListMarker`,
//! `Figcaption`, ...) besides the ARIA ones. Mapped onto Playwright's items:
//! - `StaticText "T"` is a text node, [`ItemKind::Text`] (Playwright's `- text: T`);
//! - every other line is an [`ItemKind::Element`]: the properties become attributes
//!   (`[level=2, ref=e5]` as `level=2` and `ref=e5`), the cursor marks one more attribute named
//!   by the kind with the hints as its value (`clickable` = `cursor:pointer`), the value the
//!   inline value.
//!
//! `(empty page)` and `(no interactive elements)`, what it prints for a page without nodes,
//! parse as an empty snapshot.

use crate::aria::{json_string, AriaElement, AriaItem, AriaSnapshot, ItemKind};
use crate::error::BenchError;

/// The kinds of element agent-browser finds by cursor, handlers or `tabindex` rather than by
/// role, written after the properties (`clickable [cursor:pointer]`).
pub const CURSOR_KINDS: &[&str] = &["clickable", "focusable", "editable"];

/// Whether agent-browser marked `e` as found by its cursor or handlers.
pub fn cursor_interactive(e: &AriaElement) -> bool {
    e.attrs.iter().any(|(n, _)| CURSOR_KINDS.contains(&n.as_str()))
}

/// What agent-browser prints when a page has no node to show.
const EMPTY_ANSWERS: &[&str] = &["(empty page)", "(no interactive elements)"];

/// Parses agent-browser's snapshot text. Anything that is neither an item nor the
/// continuation of a value is an error that names its line.
pub fn parse(text: &str) -> Result<AriaSnapshot, BenchError> {
    if EMPTY_ANSWERS.contains(&text.trim()) {
        return Ok(AriaSnapshot::default());
    }
    let mut items: Vec<AriaItem> = Vec::new();
    // open[d]: the last item at depth d, and whether it may hold children (a text may not).
    let mut open: Vec<(usize, bool)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let err = |reason: String| BenchError::AgentBrowserParse { line: i + 1, reason };
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let body = line[spaces..].strip_prefix("- ");
        let Some(body) = body.filter(|_| spaces % 2 == 0 && spaces / 2 <= open.len()) else {
            // Not an item: the next line of the value above.
            match items.last_mut().map(|it| &mut it.kind) {
                Some(ItemKind::Element(AriaElement { inline: Some(v), .. })) => {
                    v.push('\n');
                    v.push_str(line);
                    continue;
                }
                _ if line.trim().is_empty() => continue,
                _ => return Err(err(format!("not an item: {line}"))),
            }
        };
        let depth = spaces / 2;
        open.truncate(depth);
        let parent = match depth.checked_sub(1).map(|d| open[d]) {
            Some((_, false)) => return Err(err("nested under a text".into())),
            Some((p, true)) => Some(p),
            None => None,
        };
        let element = parse_line(body).map_err(err)?;
        let kind = if element.role == "StaticText" && element.attrs.is_empty() && element.inline.is_none() {
            ItemKind::Text(element.name)
        } else {
            ItemKind::Element(element)
        };
        let holds = matches!(kind, ItemKind::Element(_));
        items.push(AriaItem { depth, parent, kind });
        open.push((items.len() - 1, holds));
    }
    Ok(AriaSnapshot { items })
}

/// One line's content after `- `.
fn parse_line(body: &str) -> Result<AriaElement, String> {
    let role_end = body.find(' ').unwrap_or(body.len());
    let (role, mut rest) = body.split_at(role_end);
    let mut element = AriaElement::default();
    // `- role: value`: a role with a value and nothing else.
    if let Some(role) = role.strip_suffix(':') {
        element.role = role.to_string();
        element.inline = Some(rest.strip_prefix(' ').unwrap_or(rest).to_string());
        return check_role(element);
    }
    element.role = role.to_string();
    if let Some(after) = rest.strip_prefix(' ').filter(|r| r.starts_with('"')) {
        let (name, used) = json_string(after)?;
        element.name = name;
        rest = &after[used..];
    }
    if let Some(inner) = rest.strip_prefix(" [") {
        let close = inner.find(']').ok_or_else(|| format!("unclosed properties in `{body}`"))?;
        for prop in inner[..close].split(", ").filter(|p| !p.is_empty()) {
            element.attrs.push(match prop.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (prop.to_string(), None),
            });
        }
        rest = &inner[close + 1..];
    }
    for kind in CURSOR_KINDS {
        if let Some(inner) =
            rest.strip_prefix(' ').and_then(|r| r.strip_prefix(kind)).and_then(|r| r.strip_prefix(" ["))
        {
            let close = inner.find(']').ok_or_else(|| format!("unclosed hints in `{body}`"))?;
            element.attrs.push((kind.to_string(), Some(inner[..close].to_string())));
            rest = &inner[close + 1..];
            break;
        }
    }
    if let Some(value) = rest.strip_prefix(": ") {
        element.inline = Some(value.to_string());
        rest = "";
    }
    if !rest.is_empty() {
        return Err(format!("unexpected `{rest}` in `{body}`"));
    }
    check_role(element)
}

fn check_role(element: AriaElement) -> Result<AriaElement, String> {
    if element.role.is_empty() || element.role.contains(['"', '[', ']']) {
        return Err(format!("no role in `{}`", element.role));
    }
    Ok(element)
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
    fn parses_the_forms_agent_browser_writes() {
        let text = r#"- generic
  - navigation "Table of contents" [ref=e1]
    - list
      - listitem [level=1]
        - link " Getting Started" [ref=e25]
        - link "The String Type" [ref=e177]
          - StaticText "The "
          - code
            - StaticText "String"
          - StaticText " Type"
  - LabelText "Toggle Table of Contents" [ref=e2] clickable [cursor:pointer]
  - button "Change theme" [expanded=false, ref=e3]
  - heading "Say \"hi\"" [level=1, ref=e5] clickable [cursor:pointer, onclick]
  - generic [ref=e51] clickable [cursor:pointer]
  - textbox "Search" [ref=e9]: a value: with colons
  - checkbox "On" [checked=true, disabled, ref=e10]
  - combobox: picked
- StaticText "let s = \"hello\";\n""#;
        let s = parse(text).unwrap();
        assert_eq!(s.items.len(), 18);
        let nav = element(&s.items[1]);
        assert_eq!(
            (nav.role.as_str(), nav.name.as_str(), nav.ref_id()),
            ("navigation", "Table of contents", Some("e1"))
        );
        assert_eq!(s.items[1].parent, Some(0));
        assert_eq!(element(&s.items[3]).attr("level"), Some(Some("1")));
        assert_eq!(s.items[6].kind, ItemKind::Text("The ".into()));
        assert_eq!(s.items[8].parent, Some(7));
        assert_eq!(s.content_text(5), "The  String  Type");
        let label = element(&s.items[10]);
        assert_eq!(label.attr("clickable"), Some(Some("cursor:pointer")));
        assert!(cursor_interactive(label));
        let button = element(&s.items[11]);
        assert_eq!(button.attr("expanded"), Some(Some("false")));
        assert!(!cursor_interactive(button));
        let heading = element(&s.items[12]);
        assert_eq!(heading.name, "Say \"hi\"");
        assert_eq!(heading.attr("clickable"), Some(Some("cursor:pointer, onclick")));
        assert_eq!((heading.attr("level"), heading.ref_id()), (Some(Some("1")), Some("e5")));
        assert_eq!(element(&s.items[13]).name, "");
        assert_eq!(element(&s.items[14]).inline.as_deref(), Some("a value: with colons"));
        let check = element(&s.items[15]);
        assert_eq!(check.attrs.len(), 3);
        assert_eq!(check.attr("disabled"), Some(None));
        let combo = element(&s.items[16]);
        assert_eq!((combo.role.as_str(), combo.inline.as_deref()), ("combobox", Some("picked")));
        assert_eq!(s.items[17 - 1].depth, 1);
        assert_eq!(s.items.last().map(|it| &it.kind), Some(&ItemKind::Text("let s = \"hello\";\n".into())));
    }

    #[test]
    fn a_value_goes_on_over_lines_that_are_not_items() {
        let s =
            parse("- textbox \"Notes\" [ref=e1]: first\nsecond line\n  - button \"Save\" [ref=e2]").unwrap();
        assert_eq!(element(&s.items[0]).inline.as_deref(), Some("first\nsecond line"));
        assert_eq!(s.items[1].parent, Some(0));
    }

    #[test]
    fn empty_answers_are_empty_snapshots() {
        assert!(parse("(no interactive elements)").unwrap().items.is_empty());
        assert!(parse("(empty page)\n").unwrap().items.is_empty());
    }

    #[test]
    fn rejects_what_is_not_its_form() {
        for bad in [
            "- link \"unterminated",
            "- link \"x\" [ref=e1",
            "- link \"x\" trailing",
            "hello",
            "- StaticText \"a\"\n  - link \"b\"",
            "- list\n      - listitem",
        ] {
            let e = parse(bad).expect_err(bad);
            assert!(matches!(e, BenchError::AgentBrowserParse { .. }), "{bad}: {e}");
        }
    }
}
