//! Recall of Playwright's snapshot in ours: does our projected tree hold every interactive
//! element and every piece of text that Playwright's AI snapshot shows?
//!
//! Both rules compare against the projected tree our text form renders (the default view, so
//! nothing is cut), through the fields the text form shows: role, name, value, description and
//! select options. Strings are compared whitespace-normalized: runs of whitespace (Unicode,
//! so no-break spaces too) become one space, ends trimmed.
//!
//! # Interactive recall
//!
//! Playwright's elements whose role is interactive ([`INTERACTIVE_ROLES`]) are matched as a
//! multiset against our nodes by (role, name): Playwright's role is mapped into our vocabulary
//! with [`Role::parse`], and each of our nodes matches at most one of Playwright's. Passes, each
//! only over what the earlier ones left unmatched:
//! 1. equal role and equal normalized name;
//! 2. an element Playwright shows without a name (it leaves out names over 900 characters, and
//!    some names it does not compute) matches by its content text (its texts and inline values,
//!    see [`AriaSnapshot::content_text`]) as the name;
//! 3. such an unnamed element matches one of our nodes of the same role without a name.
//!
//! Found / total counts Playwright's interactive elements.
//!
//! # Text recall
//!
//! Playwright's visible text is every string its snapshot shows as content: each `text:` line,
//! each inline value (`paragraph: ...`, `code: ...`, a field's value), each name of a
//! non-interactive element (headings, figures, landmarks, images) and each `/placeholder`.
//! `/url` is not text (it is not shown on the page). Each occurrence is one item.
//!
//! An item is found when, with all whitespace removed, it is a substring of our page text: our
//! strings (name, value, description, options of every node, in document order) concatenated,
//! whitespace removed too. Why this rule:
//! - our projection joins adjacent text (rule 3) and Playwright keeps one line per DOM text
//!   node, so a Playwright text is often a part of one of ours; conversely Playwright writes a
//!   `<code>` block's text content as one value where we keep one text per highlighted span,
//!   so a Playwright text may span several of ours. Substrings of the concatenation cover both;
//! - whitespace differs between the two at those joins (`let s = "hi";` against `let s =
//!   "hi" ;`), and is not content;
//! - our projection drops a text that repeats its parent's name (rule 4), where Playwright
//!   repeats it: presence, not a count of occurrences, is what recall asks.
//!
//! The weakness of the rule: a short text (`.`, `1`) is found almost anywhere, so it says
//! little for those; for the sentences and labels that make up most of a page it is exact.
//!
//! # Other tools
//!
//! agent-browser's snapshot parses into the same items ([`crate::ab_snapshot`]) and is measured
//! by the same rules with its own [`Rules`] ([`Rules::AGENT_BROWSER`]): its interactive
//! elements are those of an interactive role and those it found by their cursor or handlers
//! (`clickable`, `focusable`, `editable`: a `generic` with `cursor: pointer`), and its
//! `ListMarker` nodes (the `•` or `1.` a list item's marker draws) are decoration, not text.
//! In `snapshot -i` it names such a cursor element that has no accessible name by its text
//! content (`generic "Search"` for a `div` around a link "Search"), which is no name of the
//! page's: pass 3 takes those too, as unnamed.

use std::collections::HashMap;

use axsnap_core::{Role, Tree};

use crate::ab_snapshot::cursor_interactive;
use crate::aria::{AriaElement, AriaSnapshot, ItemKind};

/// Playwright roles counted as interactive (ARIA widget roles an agent operates).
pub const INTERACTIVE_ROLES: &[&str] = &[
    "button",
    "checkbox",
    "combobox",
    "link",
    "listbox",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "radio",
    "scrollbar",
    "searchbox",
    "slider",
    "spinbutton",
    "switch",
    "tab",
    "textbox",
    "treeitem",
];

/// Whether Playwright's `role` is one of [`INTERACTIVE_ROLES`].
pub fn is_interactive(role: &str) -> bool {
    INTERACTIVE_ROLES.contains(&role)
}

/// How a tool's snapshot is read: which of its elements are interactive, and which roles draw
/// decoration rather than text.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Whether an element counts as interactive (matched by role and name, its name not text).
    pub interactive: fn(&AriaElement) -> bool,
    /// Roles whose names are not visible text (list markers).
    pub decoration: &'static [&'static str],
    /// Whether the tool may have named an element from its text content where the page gives
    /// it no accessible name: such an element also matches one of our nodes of its role
    /// without a name (pass 3), as an unnamed one does.
    pub content_named: fn(&AriaElement) -> bool,
}

impl Rules {
    /// Playwright's AI snapshot: an element is interactive by its role alone.
    pub const PLAYWRIGHT: Rules =
        Rules { interactive: |e| is_interactive(&e.role), decoration: &[], content_named: |_| false };

    /// agent-browser's snapshot: by its role, or marked found by cursor or handlers; its
    /// `ListMarker` nodes are decoration; in `snapshot -i` an element found by cursor or
    /// handlers that has no accessible name is named by its text content.
    pub const AGENT_BROWSER: Rules = Rules {
        interactive: |e| is_interactive(&e.role) || cursor_interactive(e),
        decoration: &["ListMarker"],
        content_named: cursor_interactive,
    };
}

/// Found out of total, and what was not found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Score {
    /// Items found in ours.
    pub found: usize,
    /// Items in Playwright's snapshot.
    pub total: usize,
    /// The items not found, in Playwright's document order.
    pub misses: Vec<Miss>,
}

impl Score {
    /// Found / total as a percentage (100 when there is nothing to find).
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            100.0
        } else {
            100.0 * self.found as f64 / self.total as f64
        }
    }
}

/// One item of Playwright's snapshot that ours lacks.
#[derive(Clone, Debug, PartialEq)]
pub struct Miss {
    /// How Playwright showed it: `link "Foo"` for an element, `text in paragraph`, `name of
    /// heading`, ...
    pub what: String,
    /// The normalized string that was looked for.
    pub text: String,
    /// Playwright's ref of the element (or of the text's parent), for finding it in its
    /// snapshot.
    pub ref_id: Option<String>,
    /// Inside an element Playwright marks `[aria-hidden]`: shown on screen, hidden from
    /// assistive technology.
    pub aria_hidden: bool,
    /// For an interactive miss: the name of one of our unmatched nodes of the same role that
    /// differs from Playwright's only in whitespace (Chromium reads a `<wbr>` as a space).
    pub near: Option<String>,
}

/// Both recalls of one page.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recall {
    /// Interactive elements by (role, name).
    pub interactive: Score,
    /// Visible text.
    pub text: Score,
}

/// Measures how much of Playwright's snapshot `pw` our projected tree `ours` holds.
pub fn recall(pw: &AriaSnapshot, ours: &Tree) -> Recall {
    recall_by(&Rules::PLAYWRIGHT, pw, ours)
}

/// Measures how much of another tool's snapshot `theirs`, read by `rules`, our projected tree
/// `ours` holds.
pub fn recall_by(rules: &Rules, theirs: &AriaSnapshot, ours: &Tree) -> Recall {
    Recall { interactive: interactive(rules, theirs, ours), text: text(rules, theirs, ours) }
}

/// Whitespace runs to one space, ends trimmed.
pub fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// All whitespace removed.
fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether item `index` of `pw` lies inside an element marked `[aria-hidden]`.
fn under_aria_hidden(pw: &AriaSnapshot, index: usize) -> bool {
    let mut at = Some(index);
    while let Some(i) = at {
        let item = &pw.items[i];
        if matches!(&item.kind, ItemKind::Element(e) if e.aria_hidden()) {
            return true;
        }
        at = item.parent;
    }
    false
}

fn interactive(rules: &Rules, pw: &AriaSnapshot, ours: &Tree) -> Score {
    // Our nodes by (role, name), as counts still available to match.
    let mut available: HashMap<(String, String), usize> = HashMap::new();
    for (id, _) in ours.preorder() {
        let n = ours.node(id);
        *available.entry((n.role.as_str().to_string(), normalize(&n.name))).or_default() += 1;
    }
    let wanted: Vec<(usize, String, String)> = pw
        .elements()
        .filter(|(_, e)| (rules.interactive)(e))
        .map(|(i, e)| (i, Role::parse(&e.role).as_str().to_string(), normalize(&e.name)))
        .collect();
    let mut matched = vec![false; wanted.len()];
    let mut take = |key: (String, String)| match available.get_mut(&key) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    };
    // Pass 1: role and name.
    for (k, (_, role, name)) in wanted.iter().enumerate() {
        matched[k] = take((role.clone(), name.clone()));
    }
    // Pass 2: unnamed in Playwright's, named by its content.
    for (k, (i, role, name)) in wanted.iter().enumerate() {
        if !matched[k] && name.is_empty() {
            let content = normalize(&pw.content_text(*i));
            matched[k] = !content.is_empty() && take((role.clone(), content));
        }
    }
    // Pass 3: unnamed on both sides (theirs unnamed, or named by the tool from its content).
    for (k, (i, role, name)) in wanted.iter().enumerate() {
        let content_named = matches!(&pw.items[*i].kind, ItemKind::Element(e) if (rules.content_named)(e));
        if !matched[k] && (name.is_empty() || content_named) {
            matched[k] = take((role.clone(), String::new()));
        }
    }
    // Not a match, a diagnosis: which misses our unmatched nodes hold with other whitespace.
    let mut near: HashMap<(String, String), Vec<String>> = HashMap::new();
    for ((role, name), left) in &available {
        if *left > 0 && !name.is_empty() {
            let names = near.entry((role.clone(), squeeze(name))).or_default();
            names.extend(std::iter::repeat_n(name.clone(), *left));
        }
    }
    let mut score = Score { total: wanted.len(), ..Score::default() };
    for (k, (i, role, name)) in wanted.iter().enumerate() {
        if matched[k] {
            score.found += 1;
            continue;
        }
        let ItemKind::Element(e) = &pw.items[*i].kind else { continue };
        let what = if name.is_empty() { e.role.clone() } else { format!("{} {:?}", e.role, name) };
        let said = if name.is_empty() { normalize(&pw.content_text(*i)) } else { name.clone() };
        let near = match near.get_mut(&(role.clone(), squeeze(&said))) {
            Some(names) if !said.is_empty() => names.pop(),
            _ => None,
        };
        score.misses.push(Miss {
            what,
            text: name.clone(),
            ref_id: e.ref_id().map(str::to_string),
            aria_hidden: under_aria_hidden(pw, *i),
            near,
        });
    }
    score
}

/// Playwright's text items: (what, normalized text, index of the item that holds it).
fn text_items(rules: &Rules, pw: &AriaSnapshot) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let role_of = |i: Option<usize>| match i.map(|i| &pw.items[i].kind) {
        Some(ItemKind::Element(e)) => e.role.as_str(),
        _ => "page",
    };
    for (i, item) in pw.items.iter().enumerate() {
        match &item.kind {
            ItemKind::Text(t) => out.push((format!("text in {}", role_of(item.parent)), normalize(t), i)),
            ItemKind::Prop { name, value } if name == "placeholder" => {
                out.push((format!("placeholder of {}", role_of(item.parent)), normalize(value), i));
            }
            ItemKind::Prop { .. } => {}
            ItemKind::Element(e) => {
                if !e.name.is_empty()
                    && !(rules.interactive)(e)
                    && !rules.decoration.contains(&e.role.as_str())
                {
                    out.push((format!("name of {}", e.role), normalize(&e.name), i));
                }
                if let Some(v) = &e.inline {
                    out.push((format!("text of {}", e.role), normalize(v), i));
                }
            }
        }
    }
    out.retain(|(_, t, _)| !t.is_empty());
    out
}

/// Playwright's visible text items (the ones text recall looks for), normalized, in order.
pub fn visible_text(pw: &AriaSnapshot) -> Vec<String> {
    visible_text_by(&Rules::PLAYWRIGHT, pw)
}

/// A tool's visible text items, read by `rules`, normalized, in order.
pub fn visible_text_by(rules: &Rules, theirs: &AriaSnapshot) -> Vec<String> {
    text_items(rules, theirs).into_iter().map(|(_, t, _)| t).collect()
}

/// Our page text, whitespace removed: names and values of every node in document order, then
/// (after a separator no text holds) descriptions and options. They go apart because a
/// description sits between a link's name and the text after it (`link "Vec" [desc: "struct
/// std::vec::Vec"]`), where a Playwright text running across the link must find them adjacent.
fn page_text(ours: &Tree) -> String {
    let (mut main, mut side) = (String::new(), String::new());
    let push = |out: &mut String, s: &str| out.extend(s.chars().filter(|c| !c.is_whitespace()));
    for (id, _) in ours.preorder() {
        let n = ours.node(id);
        push(&mut main, &n.name);
        if let Some(v) = &n.value {
            push(&mut main, v);
        }
        if let Some(d) = &n.description {
            push(&mut side, d);
            side.push('\0');
        }
        for o in &n.options {
            push(&mut side, o);
            side.push('\0');
        }
    }
    main.push('\0');
    main.push_str(&side);
    main
}

/// How far past the last match a search looks first: most texts come in the same order on
/// both sides, so the whole page is searched only for the rest.
const NEAR_BYTES: usize = 64 * 1024;

fn text(rules: &Rules, pw: &AriaSnapshot, ours: &Tree) -> Score {
    let hay = page_text(ours);
    let items = text_items(rules, pw);
    let mut score = Score { total: items.len(), ..Score::default() };
    let mut cursor = 0;
    for (what, text, i) in items {
        let needle = squeeze(&text);
        if let Some(at) = find_near(&hay, &needle, cursor) {
            score.found += 1;
            cursor = at + needle.len();
            continue;
        }
        let holder = match &pw.items[i].kind {
            ItemKind::Element(_) => Some(i),
            _ => pw.items[i].parent,
        };
        let ref_id = holder.and_then(|h| match &pw.items[h].kind {
            ItemKind::Element(e) => e.ref_id().map(str::to_string),
            _ => None,
        });
        score.misses.push(Miss { what, text, ref_id, aria_hidden: under_aria_hidden(pw, i), near: None });
    }
    score
}

/// A position of `needle` in `hay`: looked for first in the window after `cursor`, then
/// anywhere, so it is found exactly when a plain search finds it, only sooner.
fn find_near(hay: &str, needle: &str, cursor: usize) -> Option<usize> {
    let start = floor_char_boundary(hay, cursor.min(hay.len()));
    let end = floor_char_boundary(hay, start.saturating_add(NEAR_BYTES + needle.len()).min(hay.len()));
    if let Some(at) = hay[start..end].find(needle) {
        return Some(start + at);
    }
    hay.find(needle)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use axsnap_core::{NativeId, Node};

    use super::*;

    /// A tree from (depth, role, name) rows in pre-order.
    fn tree(rows: &[(usize, Role, &str)]) -> Tree {
        let mut t = Tree::new();
        let mut open: Vec<axsnap_core::NodeId> = Vec::new();
        for (k, (depth, role, name)) in rows.iter().enumerate() {
            let node = Node::new(role.clone(), *name, NativeId::new("s", k.to_string()));
            open.truncate(*depth);
            let id = match open.last() {
                Some(p) => t.append(*p, node),
                None => {
                    let id = t.push(node);
                    t.set_root(id);
                    id
                }
            };
            open.push(id);
        }
        t
    }

    fn pw(text: &str) -> AriaSnapshot {
        AriaSnapshot::parse(text).unwrap()
    }

    #[test]
    fn interactive_matches_role_and_normalized_name_as_a_multiset() {
        let ours = tree(&[
            (0, Role::Document, "Page"),
            (1, Role::Link, "Home"),
            (1, Role::Link, "Docs  and\u{a0}more"),
            (1, Role::Button, "Go"),
            (1, Role::SearchBox, "Search"),
        ]);
        let snap = pw(r##"- link "Home" [ref=e1]
- link "Home" [ref=e2]
- link "Docs and more" [ref=e3]
- button "Go" [ref=e4]
- searchbox "Search" [ref=e5]
- button "Missing" [ref=e6]
- heading "Not interactive" [level=1]
"##);
        let r = recall(&snap, &ours);
        assert_eq!((r.interactive.found, r.interactive.total), (4, 6));
        let misses: Vec<_> = r.interactive.misses.iter().map(|m| m.what.as_str()).collect();
        // The second "Home": our one "Home" link matches only one of Playwright's.
        assert_eq!(misses, ["link \"Home\"", "button \"Missing\""]);
        assert_eq!(r.interactive.misses[0].ref_id.as_deref(), Some("e2"));
    }

    #[test]
    fn unnamed_elements_match_by_content_then_by_role() {
        let ours = tree(&[
            (0, Role::Document, ""),
            (1, Role::Link, "The String Type"),
            (1, Role::Button, ""),
            (1, Role::Link, "Other"),
        ]);
        let snap = pw(r##"- link [ref=e1]:
  - /url: "#the-string-type"
  - text: The
  - code [ref=e2]: String
  - text: Type
- button [ref=e3]
- link [ref=e4]
"##);
        let r = recall(&snap, &ours);
        // e1 by content, e3 unnamed on both sides; e4 has no content and our only other link
        // has a name, so it is not taken.
        assert_eq!((r.interactive.found, r.interactive.total), (2, 3));
        assert_eq!(r.interactive.misses[0].what, "link");
    }

    #[test]
    fn text_is_found_across_joins_and_splits() {
        let ours = tree(&[
            (0, Role::Document, "T"),
            (1, Role::Heading, "Ownership"),
            (1, Role::Paragraph, ""),
            (2, Role::Text, "Ownership is a set of rules. Keep at it!"),
            (1, Role::Code, ""),
            (2, Role::Text, "let"),
            (2, Role::Text, "s ="),
            (2, Role::Text, "\"hello\""),
            (2, Role::Text, ";"),
            (1, Role::Link, "Getting Started"),
        ]);
        let snap = pw(r##"- heading "Ownership" [level=2]
- paragraph:
  - emphasis: Ownership
  - text: is a set of   rules.
- paragraph: Keep at it!
- code: let s = "hello";
- link "Getting Started" [ref=e1]:
  - text: Getting Started
- paragraph: Not in ours
- strong [aria-hidden]: "1."
"##);
        let r = recall(&snap, &ours);
        let misses: Vec<_> = r.text.misses.iter().map(|m| (m.what.as_str(), m.text.as_str())).collect();
        assert_eq!(misses, [("text of paragraph", "Not in ours"), ("text of strong", "1.")]);
        assert!(r.text.misses[1].aria_hidden && !r.text.misses[0].aria_hidden);
        // heading name, emphasis, text, paragraph, code, link's text, 2 misses.
        assert_eq!((r.text.found, r.text.total), (6, 8));
        assert_eq!(r.interactive.found, 1);
    }

    #[test]
    fn text_counts_values_descriptions_options_and_placeholders() {
        let mut ours =
            tree(&[(0, Role::Document, ""), (1, Role::TextBox, "Email"), (1, Role::ComboBox, "Size")]);
        let ids: Vec<_> = ours.preorder().map(|(id, _)| id).collect();
        ours.node_mut(ids[1]).value = Some("bob@example.org".into());
        ours.node_mut(ids[1]).description = Some("Type your email".into());
        ours.node_mut(ids[2]).options = vec!["Small".into(), "Large".into()];
        let snap = pw(r##"- textbox "Email" [ref=e1]: bob@example.org
- paragraph: Type your email
- combobox "Size" [ref=e2]:
  - option "Large"
- textbox "Name" [ref=e3]:
  - /placeholder: Your name
  - /url: not-text.html
"##);
        let r = recall(&snap, &ours);
        let misses: Vec<_> = r.text.misses.iter().map(|m| m.what.as_str()).collect();
        assert_eq!(misses, ["placeholder of textbox"]);
        assert_eq!(r.text.total, 3);
        // An option is an element in Playwright's snapshot and only a listed string in ours: an
        // interactive miss, like the unnamed-in-ours "Name" textbox.
        assert_eq!((r.interactive.found, r.interactive.total), (2, 4));
    }

    #[test]
    fn descriptions_do_not_break_text_running_across_a_link() {
        let mut ours = tree(&[
            (0, Role::Document, ""),
            (1, Role::Heading, ""),
            (2, Role::Text, "pub fn len() ->"),
            (2, Role::Link, "Vec"),
            (2, Role::Text, "<T>"),
            (1, Role::Link, "assert_ eq"),
        ]);
        let ids: Vec<_> = ours.preorder().map(|(id, _)| id).collect();
        ours.node_mut(ids[3]).description = Some("struct std::vec::Vec".into());
        let snap = pw(r##"- heading "pub fn len() -> Vec<T>" [level=4]
- paragraph: struct std::vec::Vec
- link "assert_eq" [ref=e1]
"##);
        let r = recall(&snap, &ours);
        assert_eq!((r.text.found, r.text.total), (2, 2), "{:?}", r.text.misses);
        // Chromium's `<wbr>` space: a miss, with our near name said.
        assert_eq!(r.interactive.found, 0);
        assert_eq!(r.interactive.misses[0].near.as_deref(), Some("assert_ eq"));
    }

    #[test]
    fn agent_browser_rules_count_cursor_elements_and_skip_list_markers() {
        let ours = tree(&[
            (0, Role::Document, ""),
            (1, Role::Heading, "The Book"),
            (1, Role::Link, "The String Type"),
            (1, Role::ListItem, ""),
            (2, Role::Text, "Each value has an owner."),
            (1, Role::Generic, ""),
            (1, Role::Generic, ""),
        ]);
        let snap = crate::ab_snapshot::parse(
            r#"- heading "The Book" [level=1, ref=e1] clickable [cursor:pointer]
- link "The String Type" [ref=e2]
  - StaticText "The "
  - code
    - StaticText "String"
  - StaticText " Type"
- generic "Search" [ref=e4] clickable [cursor:pointer]
- generic [ref=e3] clickable [cursor:pointer]
- listitem [level=1]
  - ListMarker "• "
  - StaticText "Each value has an owner.""#,
        )
        .unwrap();
        let r = recall_by(&Rules::AGENT_BROWSER, &snap, &ours);
        // The clickable heading matches ours by role and name, the unnamed generic one of our
        // unnamed generics, and the generic it named "Search" from its content the other.
        assert_eq!((r.interactive.found, r.interactive.total), (4, 4), "{:?}", r.interactive.misses);
        let mut one_generic = ours.clone();
        let last = one_generic.preorder().map(|(id, _)| id).last().unwrap();
        one_generic.detach(last);
        let r1 = recall_by(&Rules::AGENT_BROWSER, &snap, &one_generic);
        assert_eq!(r1.interactive.misses.len(), 1);
        assert_eq!(r1.interactive.misses[0].ref_id.as_deref(), Some("e4"));
        // The link's texts, the list item's text; not the marker, not the heading's name (a
        // clickable heading is interactive here).
        assert_eq!((r.text.found, r.text.total), (4, 4), "{:?}", r.text.misses);
        // Read as Playwright's, the names of the heading, the marker and "Search" would be text.
        let r = recall(&snap, &ours);
        assert_eq!(r.interactive.total, 1);
        assert_eq!(r.text.total, 7);
    }

    #[test]
    fn empty_snapshot_is_full_recall() {
        let r = recall(&AriaSnapshot::default(), &tree(&[(0, Role::Document, "")]));
        assert_eq!(r.interactive.percent(), 100.0);
        assert_eq!(r.text.percent(), 100.0);
    }

    #[test]
    fn near_search_equals_plain_search() {
        let hay = format!("{}needle{}é{}", "a".repeat(70_000), "b".repeat(10), "c".repeat(70_000));
        for cursor in [0, 69_999, 70_003, 70_017, 80_000, hay.len(), hay.len() + 5] {
            assert_eq!(find_near(&hay, "needle", cursor), hay.find("needle"));
            assert_eq!(find_near(&hay, "bé", cursor), hay.find("bé"));
            assert_eq!(find_near(&hay, "zz", cursor), None);
        }
        // After the cursor first: a later occurrence may be the one reported.
        let twice = "xx ab yy ab";
        assert_eq!(find_near(twice, "ab", 5), Some(9));
        assert_eq!(find_near(twice, "ab", 0), Some(3));
    }
}
