//! One node as one line of the text form (or a few: a code block's, a run's that keeps its
//! line breaks), with what it shows: kind, name, ref, states, URL, value, inline tail.
//!
//! Shared by the snapshot and the diff renderers, over either a [`Tree`] or a diff's
//! [`NewSubtree`], so an added subtree reads exactly like the same nodes in a snapshot.

use rustc_hash::FxHashMap;
use std::fmt::Write;

use super::bound;
use crate::diff::NewSubtree;
use crate::role::Role;
use crate::state::{Action, State};
use crate::tree::{Node, NodeId, Tree};

/// Deeper nodes are drawn at this indentation with their depth written out, so a
/// pathologically deep tree cannot make the output quadratic in size.
const MAX_INDENT: usize = 60;

/// Most options listed for a select-like element.
const MAX_OPTIONS: usize = 25;

/// A link name whose links go to this many different URLs or fewer (two `Result`s in a
/// signature, `std::result` and `std::io`) shows them, to say which is which; one that goes to
/// more (`Source` under each of 390 methods, each its own line of code) is told apart by where
/// it stands: its URLs cost 9% of the `Vec` page.
const AMBIGUOUS_TARGETS: usize = 3;

/// Longest name shown in a diff's context descriptor.
const DESCRIPTOR_NAME_CHARS: usize = 60;

/// A tree-shaped source of nodes: a snapshot's [`Tree`] or a diff's [`NewSubtree`].
pub(super) trait Source<'a> {
    /// How a node is addressed.
    type Id: Copy;
    /// The node.
    fn node(&self, id: Self::Id) -> &'a Node;
    /// Its children, in order.
    fn children(&self, id: Self::Id) -> Vec<Self::Id>;
}

impl<'a> Source<'a> for &'a Tree {
    type Id = NodeId;
    fn node(&self, id: NodeId) -> &'a Node {
        let t: &'a Tree = self;
        t.node(id)
    }
    fn children(&self, id: NodeId) -> Vec<NodeId> {
        self.node(id).children.clone()
    }
}

/// [`Source`] over a [`NewSubtree`] (flat, pre-order with depths), with its child lists built
/// once so a wide subtree renders in linear time.
pub(super) struct Subtree<'a> {
    sub: &'a NewSubtree,
    children: Vec<Vec<usize>>,
}

impl<'a> Subtree<'a> {
    /// Indexes the subtree's parent/child structure from its depths.
    pub(super) fn new(sub: &'a NewSubtree) -> Subtree<'a> {
        let mut children = vec![Vec::new(); sub.nodes.len()];
        // The open ancestors of the current node: stack[d] is the last node seen at depth d.
        let mut stack: Vec<usize> = Vec::new();
        for (i, n) in sub.nodes.iter().enumerate() {
            let d = n.depth as usize;
            stack.truncate(d);
            if let Some(p) = stack.last() {
                children[*p].push(i);
            }
            stack.push(i);
        }
        Subtree { sub, children }
    }
}

impl<'a> Source<'a> for Subtree<'a> {
    type Id = usize;
    fn node(&self, id: usize) -> &'a Node {
        &self.sub.nodes[id].node
    }
    fn children(&self, id: usize) -> Vec<usize> {
        self.children[id].clone()
    }
}

/// What a line needs to know beyond its node: the page URL (links are shown relative to it)
/// and which link names are ambiguous.
pub(crate) struct LineCtx {
    page: Option<UrlParts>,
    /// Link names whose links go to two or three different URLs.
    pub(super) ambiguous_links: std::collections::HashSet<String>,
}

impl LineCtx {
    /// Context for rendering nodes of `tree` (links compared across the whole tree).
    pub(crate) fn for_tree(tree: &Tree, page_url: Option<&str>) -> LineCtx {
        let root_url = tree.root().and_then(|r| tree.node(r).url.as_deref());
        let page = page_url.or(root_url).and_then(UrlParts::parse);
        // Up to `AMBIGUOUS_TARGETS + 1` distinct URLs per link name.
        let mut targets: FxHashMap<&str, Vec<&str>> = FxHashMap::default();
        for (id, _) in tree.preorder() {
            let n = tree.node(id);
            if n.role != Role::Link || n.name.is_empty() {
                continue;
            }
            let url = n.url.as_deref().unwrap_or("");
            let seen = targets.entry(n.name.as_str()).or_default();
            if seen.len() <= AMBIGUOUS_TARGETS && !seen.contains(&url) {
                seen.push(url);
            }
        }
        let ambiguous_links = targets
            .into_iter()
            .filter(|(_, urls)| (2..=AMBIGUOUS_TARGETS).contains(&urls.len()))
            .map(|(name, _)| name.to_string())
            .collect();
        LineCtx { page, ambiguous_links }
    }

    /// A URL as shown: relative to the page when on the same origin.
    pub(super) fn short_url<'u>(&self, url: &'u str) -> &'u str {
        let Some(page) = &self.page else { return url };
        let Some(rest) = url.strip_prefix(page.origin.as_str()) else { return url };
        if !(rest.is_empty() || rest.starts_with(['/', '?', '#'])) {
            // `https://a.example` is a prefix of `https://a.example.org`: another origin.
            return url;
        }
        let (before_frag, frag) = match rest.find('#') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if !frag.is_empty() && before_frag == page.path_and_query {
            return frag;
        }
        if rest.is_empty() {
            "/"
        } else {
            rest
        }
    }
}

/// A page URL split into what links are compared against.
struct UrlParts {
    /// `scheme://authority`.
    origin: String,
    /// Path and query, without the fragment (`/` when empty).
    path_and_query: String,
}

impl UrlParts {
    fn parse(url: &str) -> Option<UrlParts> {
        let scheme_end = url.find("://")?;
        let after = &url[scheme_end + 3..];
        let auth_len = after.find(['/', '?', '#']).unwrap_or(after.len());
        let origin = url[..scheme_end + 3 + auth_len].to_string();
        let rest = &after[auth_len..];
        let rest = rest.split('#').next().unwrap_or("");
        let path_and_query = if rest.is_empty() { "/".to_string() } else { rest.to_string() };
        Some(UrlParts { origin, path_and_query })
    }
}

/// Whether a node shows its ref in the text form (see the module doc of `render`).
/// `holds_more`: the node has a `… N more` marker child, so the agent may want to scope into it.
pub(crate) fn shows_ref(node: &Node, holds_more: bool) -> bool {
    node.ref_id.is_some() && ref_worthy(node, holds_more)
}

/// Whether a node is one the text form shows a ref on once it has one: what an agent can act
/// on or scope to (the refs stage numbers these first, so the refs shown stay short).
pub(crate) fn ref_worthy(node: &Node, holds_more: bool) -> bool {
    if matches!(node.role, Role::Text | Role::TextRun | Role::More) {
        return false;
    }
    holds_more
        || !node.actions.is_empty()
        || node.role.is_widget()
        || node.role.is_landmark()
        || node.role.is_surface()
        || node.states.contains(State::Focusable)
        || node.states.contains(State::Editable)
        || node.states.contains(State::Covering)
        // A plain list is content, not something to act on (a docs page has hundreds); an
        // outline's fold still shows the ref that opens one.
        || matches!(
            node.role,
            Role::Table
                | Role::Grid
                | Role::Tree
                | Role::TreeGrid
                | Role::TabList
                | Role::TabPanel
                | Role::MenuBar
                | Role::Toolbar
                | Role::Article
                | Role::Document
                | Role::Window
                | Role::AlertDialog
        )
}

/// Whether the line says the node can be clicked: it can, and its role does not say so (a
/// `generic` or `listitem` that a page made a click target without a role, by a listener, a
/// pointer cursor of its own or a popup it opens). The document root is never one, and an
/// editable element says it is editable.
pub(crate) fn says_clickable(node: &Node) -> bool {
    node.actions.contains(Action::Click)
        && node.ref_id.is_some()
        && !node.role.is_widget()
        && !node.states.contains(State::Editable)
        // A role the engine does not know (`DisclosureTriangle`) may well say it already.
        && !matches!(
            node.role,
            Role::Document | Role::Window | Role::Text | Role::TextRun | Role::More | Role::Other(_)
        )
}

/// Whether a state is worth a model's tokens on this node.
fn shows_state(node: &Node, s: State) -> bool {
    match s {
        // Implied by the role, by `[redacted]`, or true of most of a page.
        State::Focusable | State::Offscreen | State::Protected => false,
        // Text in an editor: the editor says it.
        State::Editable => {
            !(matches!(node.role, Role::TextBox | Role::SearchBox | Role::Text) || node.role.is_picker())
        }
        _ => true,
    }
}

/// The states of `node` shown in the text form, in canonical order.
pub(super) fn shown_states(node: &Node) -> impl Iterator<Item = State> + '_ {
    node.states.iter().filter(move |s| shows_state(node, *s))
}

/// Writes what an outline left out under a node: `folded 2,345 tokens: 12 links, 3 headings`.
pub(crate) fn push_folded(out: &mut String, f: &crate::tree::Folded) {
    let _ = write!(out, "folded {} tokens", crate::caps::thousands(f.tokens as usize));
    if !f.holds.is_empty() {
        out.push_str(": ");
        push_tail(out, &f.holds);
    }
}

/// Writes one node's line (with its newline).
pub(super) fn write_line(
    out: &mut String,
    n: &Node,
    depth: usize,
    ctx: &LineCtx,
    holds_more: bool,
    tail: Option<&str>,
    has_content: bool,
) {
    let start = out.len();
    write_line_body(out, n, depth, ctx, holds_more, tail, has_content);
    bound::end_line(out, start);
    out.push('\n');
}

/// [`write_line`] without the newline and the line cap.
fn write_line_body(
    out: &mut String,
    n: &Node,
    depth: usize,
    ctx: &LineCtx,
    holds_more: bool,
    tail: Option<&str>,
    has_content: bool,
) {
    for _ in 0..depth.min(MAX_INDENT) {
        out.push_str("  ");
    }
    if depth > MAX_INDENT {
        let _ = write!(out, "[depth {depth}] ");
    }
    match n.role {
        Role::Text if n.flags.pre => {
            push_bare_lines(out, &bound::text(&n.name), depth);
            return;
        }
        Role::Text => {
            // Prose is drawn bare, as code lines are: `text: ` only where the line could
            // read as another kind of line, at the top level, or on an empty text.
            let text = bound::text(&n.name);
            let text = text.trim();
            if text.is_empty() {
                out.push_str("text:");
            } else if depth == 0 || reads_as_other_line(text) {
                out.push_str("text: ");
            }
            push_tail(out, text);
            return;
        }
        Role::More => {
            let name = n.name.trim_start_matches(['…', '.', ' ']);
            out.push_str("… ");
            push_tail(out, &bound::text(if name.is_empty() { "more items" } else { name }));
            return;
        }
        _ => {}
    }
    // A folded node shows its ref: it is how the agent opens it.
    let holds_more = holds_more || n.folded.is_some();
    if is_bullet(n, holds_more, has_content) {
        // A plain list item is a bullet: `* text`, or `*` over its own lines.
        out.push('*');
        match tail.filter(|t| !t.is_empty()) {
            Some(t) if t.contains('\n') => push_run_lines(out, t, depth),
            Some(t) => {
                out.push(' ');
                push_tail(out, t);
            }
            None => {}
        }
        return;
    }
    if n.role == Role::Paragraph && depth > 0 && is_plain(n, holds_more, has_content) {
        // A plain paragraph is its text, bare, like a text's (`paragraph: ` cost two tokens a
        // paragraph, 2% of a book chapter).
        let bare = tail.filter(|t| {
            !t.is_empty()
                && !t.contains('\n')
                && !t.starts_with(char::is_whitespace)
                && !reads_as_other_line(t)
        });
        if let Some(t) = bare {
            push_tail(out, t);
            return;
        }
    }
    let shown_ref = n.ref_id.filter(|_| shows_ref(n, holds_more));
    // A named link is drawn as it is inline, `[name](e12)`, its description as a title:
    // `link "name" [e12]` cost two tokens more a link.
    // A description with a quote in it cannot be a title: the link keeps its role word.
    let markdown_link =
        n.role == Role::Link && !n.name.is_empty() && shown_description(n).is_none_or(|d| !d.contains('"'));
    match shown_ref {
        Some(r) if markdown_link => {
            out.push('[');
            push_tail(out, &bound::text(&n.name));
            let _ = write!(out, "]({r}");
            if let Some(d) = shown_description(n) {
                out.push_str(" \"");
                push_tail(out, &bound::text(d));
                out.push('"');
            }
            out.push(')');
        }
        _ => {
            push_kind(out, n);
            if !n.name.is_empty() {
                out.push(' ');
                push_quoted(out, &bound::text(&n.name));
            }
            if let Some(r) = shown_ref {
                let _ = write!(out, " [{r}]");
            }
        }
    }
    if says_clickable(n) {
        out.push_str(" [clickable]");
    }
    for s in shown_states(n) {
        let _ = write!(out, " [{s}]");
    }
    if let Some(url) = shown_url(n, ctx) {
        out.push_str(" (");
        push_tail(out, &bound::url(url));
        out.push(')');
    }
    if !n.options.is_empty() {
        push_options(out, &n.options);
    }
    // A tooltip on static content (rustdoc's "Stable since Rust version 1.0.0" on `1.0.0`)
    // is not shown: the content is, and the agent acts on nothing there. A node it can act on
    // or scope to keeps it, and so does one with nothing else to say what it is.
    let labels_itself = n.name.is_empty() && n.value.is_none() && !has_content;
    // A markdown link has shown its description as its title.
    let titled = markdown_link && shown_ref.is_some();
    let described = (shows_ref(n, holds_more) && !titled) || labels_itself;
    if let (Some(d), true) = (shown_description(n), described) {
        out.push_str(" [desc: ");
        push_quoted(out, &bound::text(d));
        out.push(']');
    }
    let value = n.value.as_deref().filter(|v| !v.is_empty());
    // The inline tail is bounded by `INLINE_BYTES` as it is built.
    match (value, tail) {
        (Some(v), _) => {
            out.push_str(": ");
            push_tail(out, &bound::value(v));
            // A ranged control says its bounds: `slider "Volume" [e5]: 5 (0 to 10)`.
            if let Some(range) = n.range {
                let _ = write!(out, " ({range})");
            }
        }
        (None, _) if n.range.is_some() => {
            if let Some(range) = n.range {
                let _ = write!(out, ": empty ({range})");
            }
        }
        // An empty picked field says what `fill` takes: `date "Due" [e3]: empty (yyyy-mm-dd)`.
        (None, _) if n.role.is_picker() => {
            if let Some(format) = n.role.value_format() {
                let _ = write!(out, ": empty ({format})");
            }
        }
        // A run that keeps the page's line breaks: its lines under the node, as a code
        // block's are.
        (None, Some(t)) if t.contains('\n') => push_run_lines(out, t, depth),
        (None, Some(t)) => {
            out.push_str(": ");
            push_tail(out, t);
        }
        (None, None) => {}
    }
    if let Some(f) = &n.folded {
        out.push_str(" … ");
        push_folded(out, f);
    }
}

/// An inline run that keeps the page's line breaks, drawn under its node's line (at `depth`).
fn push_run_lines(out: &mut String, run: &str, depth: usize) {
    out.push('\n');
    for _ in 0..(depth + 1).min(MAX_INDENT) {
        out.push_str("  ");
    }
    push_bare_lines(out, run, depth + 1);
}

/// Preformatted text (a code block, an editor's lines, a run that keeps its line breaks) a
/// line per line at `depth`, the first line's indentation already written: each line's own
/// indentation kept, bare. A `text:` on every line of code cost 7% of the `Vec` page. A line
/// that could read as another kind of line keeps the `text: `, and so does every line at the
/// top level and a first line that is empty (so no line is only indentation).
fn push_bare_lines(out: &mut String, text: &str, depth: usize) {
    for (i, l) in text.trim_end().lines().enumerate() {
        let l = l.trim_end();
        if i > 0 {
            out.push('\n');
            if l.is_empty() && depth > 0 {
                continue;
            }
            for _ in 0..depth.min(MAX_INDENT) {
                out.push_str("  ");
            }
        }
        if depth == 0 || reads_as_other_line(l) || (i == 0 && l.is_empty()) {
            out.push_str(if l.is_empty() { "text:" } else { "text: " });
        }
        push_tail(out, l);
    }
}

/// Whether a list item is drawn as a bullet (`* text`): one with nothing to show but its
/// content. `listitem: ` cost two tokens more a line (9% of the std index, 3% of a book
/// chapter); a list item with a name, a ref, a state, a value or a fold keeps its role word.
pub(super) fn is_bullet(n: &Node, holds_more: bool, has_content: bool) -> bool {
    n.role == Role::ListItem && is_plain(n, holds_more, has_content)
}

/// Whether a node has nothing to show but its content: no name, value, fold, ref, state or
/// description.
fn is_plain(n: &Node, holds_more: bool, has_content: bool) -> bool {
    n.name.is_empty()
        && n.value.as_deref().is_none_or(str::is_empty)
        && n.folded.is_none()
        && !shows_ref(n, holds_more)
        && !says_clickable(n)
        && shown_states(n).next().is_none()
        && (has_content || shown_description(n).is_none())
}

/// Whether a line of the page's text, drawn bare, could be read as another kind of line: a
/// node's (`word`, then `:`, ` "`, ` [`, ` (` or the end), a bullet (`*`), a marker (`…`) or
/// one that says it is text (`text:`). Such a line keeps its `text: ` (`paragraph: `). A line
/// that starts with a link (`[Pricing](e15) and more`) reads the same either way: a link, ref
/// e15, then text.
fn reads_as_other_line(line: &str) -> bool {
    let l = line.trim_start();
    if l.is_empty() {
        return false;
    }
    if l.starts_with('…') || l == "*" || l.starts_with("* ") {
        return true;
    }
    let word = l.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'-').count();
    if word == 0 || !l.as_bytes()[0].is_ascii_alphabetic() {
        return false;
    }
    let rest = &l[word..];
    rest.is_empty()
        || rest.starts_with(':')
        || rest.starts_with(" \"")
        || rest.starts_with(" [")
        || rest.starts_with(" (")
}

/// The description a line shows: not one that only adds to the name it contains (rustdoc's
/// `title="struct std::vec::Vec"` on a link named `Vec`), which costs tokens on every link of
/// a page and tells the agent little it needs to act.
pub(super) fn shown_description(n: &Node) -> Option<&str> {
    let d = n.description.as_deref().filter(|d| !d.trim().is_empty())?;
    // Said once: a description that holds the name, or a name computed from content that
    // holds the description (a card's button named "Notebook Python 3", described
    // "Python 3"), is not said twice.
    (n.name.is_empty() || !(d.contains(n.name.as_str()) || n.name.contains(d.trim()))).then_some(d)
}

/// The URL a link line shows, if any (see the module doc of `render`).
pub(super) fn shown_url<'n>(n: &'n Node, ctx: &LineCtx) -> Option<&'n str> {
    if n.role != Role::Link {
        return None;
    }
    let url = n.url.as_deref().filter(|u| !u.is_empty())?;
    (n.name.is_empty() || ctx.ambiguous_links.contains(&n.name)).then(|| ctx.short_url(url))
}

/// ` [options: "A", "B", … 3 more]`.
pub(super) fn push_options(out: &mut String, options: &[String]) {
    out.push_str(" [options: ");
    for (i, o) in options.iter().take(MAX_OPTIONS).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_quoted(out, &bound::option(o));
    }
    if options.len() > MAX_OPTIONS {
        let _ = write!(out, ", … {} more", options.len() - MAX_OPTIONS);
    }
    out.push(']');
}

/// A role's name, reduced to characters that cannot break the line (platform roles outside
/// the vocabulary are kept verbatim by the model).
/// A node's kind word: `h1`, `h2`, … for a heading with a level (`heading "Examples"
/// [level=5]` cost 4 tokens more a heading: 3% of the `Vec` page), else its role.
pub(super) fn push_kind(out: &mut String, n: &Node) {
    match (&n.role, n.level) {
        (Role::Heading, Some(l)) => {
            let _ = write!(out, "h{l}");
        }
        (role, _) => push_role(out, role),
    }
}

pub(super) fn push_role(out: &mut String, role: &Role) {
    let s = bound::id(role.as_str());
    if s.is_empty() {
        out.push_str("unknown");
        return;
    }
    out.extend(s.chars().map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' }));
}

/// `"text"` with `"`, `\` and control characters escaped.
pub(super) fn push_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            _ => push_escaped_char(out, c),
        }
    }
    out.push('"');
}

/// Text that runs to the end of the line: `\` and control characters escaped.
pub(super) fn push_tail(out: &mut String, s: &str) {
    for c in s.chars() {
        push_escaped_char(out, c);
    }
}

fn push_escaped_char(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        // Line and paragraph separators end lines in some readers.
        c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// `s` cut to at most `max` characters, with `…` when cut.
pub(super) fn clip(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]).into(),
        None => s.into(),
    }
}

/// A short quoted name for a diff's context lines.
pub(super) fn push_descriptor_name(out: &mut String, name: &str) {
    push_quoted(out, &clip(name.trim(), DESCRIPTOR_NAME_CHARS));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refs::Ref;
    use crate::render::layout::write_subtree;
    use crate::state::{Action, StateSet};
    use crate::tree::NativeId;

    fn ctx(url: &str) -> LineCtx {
        LineCtx { page: UrlParts::parse(url), ambiguous_links: Default::default() }
    }

    fn line(n: &Node) -> String {
        let mut s = String::new();
        write_line(&mut s, n, 1, &ctx("https://a.example/x"), false, None, false);
        s
    }

    #[test]
    fn quotes_and_newlines_cannot_break_a_line() {
        let mut n = Node::new(Role::Button, "Say \"hi\"\nthen \\ go", NativeId::new("d", "1"));
        n.ref_id = Some(Ref(3));
        n.actions = [Action::Click].into_iter().collect();
        n.value = Some("a\nb\u{2028}c".into());
        assert_eq!(line(&n), "  button \"Say \\\"hi\\\"\\nthen \\\\ go\" [e3]: a\\nb\\u{2028}c\n");
        assert_eq!(line(&n).lines().count(), 1);
    }

    #[test]
    fn a_description_the_name_holds_is_not_said_again() {
        let mut n = Node::new(Role::Button, "Notebook Python 3", NativeId::new("d", "1"));
        n.ref_id = Some(Ref(4));
        n.actions = [Action::Click].into_iter().collect();
        n.description = Some("Python 3".into());
        assert_eq!(line(&n), "  button \"Notebook Python 3\" [e4]\n");
        n.description = Some("Opens a Python 3 notebook".into());
        assert!(line(&n).contains("[desc: \"Opens a Python 3 notebook\"]"), "{}", line(&n));
    }

    #[test]
    fn clickable_is_said_only_where_the_role_does_not_say_it() {
        let click = |role: Role| {
            let mut n = Node::new(role, "", NativeId::new("d", "1"));
            n.ref_id = Some(Ref(7));
            n.actions = [Action::Click].into_iter().collect();
            n
        };
        assert_eq!(line(&click(Role::Generic)), "  generic [e7] [clickable]\n");
        assert_eq!(line(&click(Role::ListItem)), "  listitem [e7] [clickable]\n");
        assert_eq!(line(&click(Role::Button)), "  button [e7]\n");
        assert_eq!(line(&click(Role::Other("DisclosureTriangle".into()))), "  DisclosureTriangle [e7]\n");
        let mut editable = click(Role::Generic);
        editable.states.set(State::Editable, true);
        assert_eq!(line(&editable), "  generic [e7] [editable]\n");
        let mut no_ref = click(Role::Generic);
        no_ref.ref_id = None;
        assert!(!line(&no_ref).contains("clickable"));
    }

    #[test]
    fn states_hide_noise() {
        let mut n = Node::new(Role::TextBox, "Email", NativeId::new("d", "1"));
        n.ref_id = Some(Ref(1));
        n.states = StateSet::EMPTY
            .with(State::Focusable)
            .with(State::Editable)
            .with(State::Required)
            .with(State::Offscreen)
            .with(State::Invalid);
        n.value = Some("bob".into());
        assert_eq!(line(&n), "  textbox \"Email\" [e1] [required] [invalid]: bob\n");
    }

    #[test]
    fn a_picked_field_says_its_value_or_the_form_it_takes() {
        let mut n = Node::new(Role::Date, "Due date", NativeId::new("d", "1"));
        n.ref_id = Some(Ref(3));
        n.states = StateSet::EMPTY.with(State::Focusable).with(State::Editable);
        assert_eq!(line(&n), "  date \"Due date\" [e3]: empty (yyyy-mm-dd)\n");
        n.value = Some("2026-12-07".into());
        assert_eq!(line(&n), "  date \"Due date\" [e3]: 2026-12-07\n");
        n.role = Role::Week;
        n.value = Some(String::new());
        assert_eq!(line(&n), "  week \"Due date\" [e3]: empty (yyyy-Www)\n");
        let mut t = Node::new(Role::TextBox, "Note", NativeId::new("d", "2"));
        t.ref_id = Some(Ref(4));
        assert_eq!(line(&t), "  textbox \"Note\" [e4]\n", "a text field says nothing of a format");
    }

    #[test]
    fn a_ranged_control_says_its_bounds_beside_its_value() {
        let mut n = Node::new(Role::Slider, "Volume", NativeId::new("d", "1"));
        n.ref_id = Some(Ref(5));
        n.value = Some("5".into());
        n.range = crate::ValueRange::new(0.0, 10.0, Some(0.5));
        assert_eq!(line(&n), "  slider \"Volume\" [e5]: 5 (0 to 10, step 0.5)\n");
        n.value = None;
        n.range = crate::ValueRange::new(-1.5, 1e3, None);
        assert_eq!(line(&n), "  slider \"Volume\" [e5]: empty (-1.5 to 1000)\n");
        n.range = None;
        assert_eq!(line(&n), "  slider \"Volume\" [e5]\n");
    }

    #[test]
    fn urls_shorten_relative_to_the_page() {
        let c = ctx("https://a.example/docs/x.html?v=1#top");
        assert_eq!(c.short_url("https://a.example/docs/y.html"), "/docs/y.html");
        assert_eq!(c.short_url("https://a.example/docs/x.html?v=1#sec"), "#sec");
        assert_eq!(c.short_url("https://a.example.org/docs"), "https://a.example.org/docs");
        assert_eq!(c.short_url("https://a.example"), "/");
        assert_eq!(c.short_url("http://a.example/docs"), "http://a.example/docs");
        assert_eq!(ctx("not a url").short_url("https://a.example/z"), "https://a.example/z");
    }

    #[test]
    fn odd_platform_roles_stay_one_token_run() {
        let mut s = String::new();
        push_role(&mut s, &Role::Other("Fancy \"widget\"\n".into()));
        assert_eq!(s, "Fancy__widget__");
    }

    #[test]
    fn very_deep_lines_say_their_depth() {
        let n = Node::new(Role::Group, "g", NativeId::new("d", "1"));
        let mut s = String::new();
        write_line(&mut s, &n, 1000, &ctx("https://a.example/"), false, None, false);
        assert!(s.len() < 2 * MAX_INDENT + 40, "{s}");
        assert!(s.contains("[depth 1000] group \"g\""));
    }

    fn nd(role: Role, name: &str, id: &str) -> Node {
        Node::new(role, name, NativeId::new("d", id))
    }

    fn link(name: &str, id: &str, r: u32) -> Node {
        let mut n = nd(Role::Link, name, id);
        n.ref_id = Some(Ref(r));
        n.actions = [Action::Click].into_iter().collect();
        n
    }

    fn render(t: &Tree) -> String {
        let mut s = String::new();
        write_subtree(&mut s, &t, t.root().unwrap(), 0, &LineCtx::for_tree(t, Some("https://a.example/")));
        s
    }

    #[test]
    fn running_text_code_and_links_share_their_parents_line() {
        let mut t = Tree::with_root(nd(Role::Paragraph, "", "p"));
        let p = t.root().unwrap();
        // Text keeps the page's spaces at its edges (projection leaves them).
        t.append(p, nd(Role::Text, "The variable ", "t1"));
        let code = t.append(p, nd(Role::Code, "", "c"));
        t.append(code, nd(Role::Text, "s", "ct"));
        t.append(p, nd(Role::Text, ", see ", "t2"));
        t.append(p, link("Deref<Target=[T]>", "l", 7));
        t.append(p, nd(Role::Text, ".", "t3"));
        assert_eq!(render(&t), "paragraph: The variable `s`, see [Deref<Target=[T]>](e7).\n");

        // A link the ambiguity rule gives a URL keeps it.
        let mut t = Tree::with_root(nd(Role::ListItem, "", "li"));
        let li = t.root().unwrap();
        let mut a = link("Result", "a", 1);
        a.url = Some("https://a.example/result.html".into());
        let mut b = link("Result", "b", 2);
        b.url = Some("https://a.example/io/result.html".into());
        t.append(li, a);
        t.append(li, b);
        assert_eq!(render(&t), "* [Result](e1) (/result.html) [Result](e2) (/io/result.html)\n");

        // A name with more than three targets (`Source` under each method) shows none.
        let mut t = Tree::with_root(nd(Role::List, "", "ul"));
        let ul = t.root().unwrap();
        for i in 0..4 {
            let mut a = link("Source", &format!("s{i}"), i + 1);
            a.url = Some(format!("https://a.example/src/lib.rs.html#{}", 10 * i));
            t.append(ul, a);
        }
        let text = render(&t);
        assert_eq!(text, "list: [Source](e1) [Source](e2) [Source](e3) [Source](e4)\n");
        // Three targets still do.
        t.node_mut(t.node(ul).children[3]).url = Some("https://a.example/src/lib.rs.html#0".into());
        assert!(render(&t).ends_with("[Source](e4) (/src/lib.rs.html#0)\n"), "{}", render(&t));
    }

    #[test]
    fn a_run_that_keeps_its_line_breaks_is_drawn_a_line_per_line() {
        // rustdoc's signature with a `where` clause: its links stay inline, its lines are
        // the page's, under the heading's line.
        let mut h = nd(Role::Heading, "", "h");
        h.level = Some(4);
        let mut t = Tree::with_root(h);
        let h = t.root().unwrap();
        t.append(h, pre("pub fn "));
        t.append(h, link("retain_mut", "l1", 1));
        t.append(h, pre("<F>(&mut self, f: F)\nwhere\n    F: "));
        t.append(h, link("FnMut", "l2", 2));
        t.append(h, pre("(&mut T) -> bool,"));
        assert_eq!(
            render(&t),
            "h4\n  pub fn [retain_mut](e1)<F>(&mut self, f: F)\n  text: where\n  text:     F: [FnMut](e2)(&mut T) -> bool,\n"
        );
        // Drawn under a bullet too.
        let mut t = Tree::with_root(nd(Role::ListItem, "", "li"));
        let li = t.root().unwrap();
        t.append(li, link("a", "l1", 1));
        t.append(li, pre(" b\n c d"));
        assert_eq!(render(&t), "*\n  [a](e1) b\n   c d\n");
        // A run of text alone that keeps its breaks is a code block's: its own lines, as before.
        let mut t = Tree::with_root(nd(Role::Code, "", "c"));
        let c = t.root().unwrap();
        t.append(c, pre("fn a() {\n}"));
        assert_eq!(render(&t), "code\n  fn a() {\n  }\n");
        // A break that is not the page's (text that is not preformatted) is escaped on one
        // line, never a line of its own.
        let mut t = Tree::with_root(nd(Role::Paragraph, "", "p"));
        let p = t.root().unwrap();
        t.append(p, link("a", "l1", 1));
        t.append(p, nd(Role::Text, " x\ny", "t"));
        t.append(p, pre(" z\nw"));
        assert!(!render(&t).contains("\n  y"), "{}", render(&t));
    }

    #[test]
    fn headings_say_their_level_as_their_kind() {
        let mut h = nd(Role::Heading, "Examples", "h");
        h.level = Some(5);
        assert_eq!(line(&h), "  h5 \"Examples\"\n");
        h.level = None;
        assert_eq!(line(&h), "  heading \"Examples\"\n");
    }

    #[test]
    fn anything_but_inline_leaves_keeps_its_own_lines() {
        // A button, a link with a state, a named parent, nested content: each line stays.
        let mut t = Tree::with_root(nd(Role::Paragraph, "", "p"));
        let p = t.root().unwrap();
        t.append(p, nd(Role::Text, "Go", "t"));
        let mut b = nd(Role::Button, "Now", "b");
        b.ref_id = Some(Ref(2));
        t.append(p, b);
        assert_eq!(render(&t), "paragraph\n  text: Go\n  button \"Now\" [e2]\n");

        let mut t = Tree::with_root(nd(Role::ListItem, "", "li"));
        let li = t.root().unwrap();
        let mut l = link("Home", "l", 3);
        l.states = StateSet::EMPTY.with(State::Selected);
        t.append(li, l);
        assert_eq!(render(&t), "*\n  [Home](e3) [selected]\n");

        let mut t = Tree::with_root(nd(Role::Heading, "Intro", "h"));
        let h = t.root().unwrap();
        t.append(h, link("Intro", "l", 4));
        assert_eq!(render(&t), "heading \"Intro\"\n  [Intro](e4)\n");

        // A description that only adds to the name is not shown; another one is the link's
        // title.
        let item_with_link = |description: &str| {
            let mut t = Tree::with_root(nd(Role::ListItem, "", "li"));
            let li = t.root().unwrap();
            let mut v = link("Vec", "v", 5);
            v.description = Some(description.into());
            t.append(li, v);
            render(&t)
        };
        assert_eq!(item_with_link("struct std::vec::Vec"), "* [Vec](e5)\n");
        assert_eq!(item_with_link("A growable array"), "* [Vec](e5 \"A growable array\")\n");
        // A description with a quote in it cannot be a title: the link keeps its own line.
        assert_eq!(
            item_with_link("A \"growable\" array"),
            "*\n  link \"Vec\" [e5] [desc: \"A \\\"growable\\\" array\"]\n"
        );
    }

    #[test]
    fn descriptions_of_static_content_are_not_shown() {
        // rustdoc's version badge: a tooltip on text the line already shows.
        let mut t = Tree::with_root(nd(Role::Generic, "", "g"));
        let g = t.root().unwrap();
        t.node_mut(g).description = Some("Stable since Rust version 1.61.0".into());
        t.append(g, nd(Role::Text, "1.61.0", "t"));
        assert_eq!(render(&t), "generic: 1.61.0\n");
        // A control keeps it, and so does a node with nothing else to say what it is.
        let mut b = nd(Role::Button, "Summary", "b");
        b.ref_id = Some(Ref(1));
        b.description = Some("Collapse sections".into());
        let t = Tree::with_root(b);
        assert_eq!(render(&t), "button \"Summary\" [e1] [desc: \"Collapse sections\"]\n");
        let mut i = nd(Role::Image, "", "i");
        i.description = Some("A crab".into());
        let t = Tree::with_root(i);
        assert_eq!(render(&t), "image [desc: \"A crab\"]\n");
    }

    #[test]
    fn code_holding_links_goes_inline_without_backticks() {
        let mut t = Tree::with_root(nd(Role::Paragraph, "", "p"));
        let p = t.root().unwrap();
        t.append(p, nd(Role::Text, "reallocates if ", "t1"));
        let code = t.append(p, nd(Role::Code, "", "c"));
        t.append(code, link("len", "l1", 1));
        t.append(code, nd(Role::Text, " == ", "t2"));
        t.append(code, link("capacity", "l2", 2));
        t.append(p, nd(Role::Text, ".", "t3"));
        assert_eq!(render(&t), "paragraph: reallocates if [len](e1) == [capacity](e2).\n");
    }

    #[test]
    fn clip_counts_chars_not_bytes() {
        assert_eq!(clip("ééééé", 3), "ééé…");
        assert_eq!(clip("abc", 3), "abc");
    }

    fn pre(text: &str) -> Node {
        let mut n = Node::new(Role::Text, text, NativeId::new("d", "1"));
        n.flags.pre = true;
        n
    }

    #[test]
    fn preformatted_lines_are_bare_unless_they_read_as_another_line() {
        let code = pre("fn main() {\n    let s = 1;\n\n    #[cfg(x)] * 2\n}");
        assert_eq!(line(&code), "  fn main() {\n      let s = 1;\n\n      #[cfg(x)] * 2\n  }\n");
        // Lines that would read as a node, a bullet, a marker or a text keep `text: `; the
        // page's own indentation stays after it.
        for (l, other) in [
            ("main", true),
            ("name: axsnap", true),
            ("  button \"x\"", true),
            ("link [a]", true),
            ("item (x)", true),
            ("* a", true),
            ("*", true),
            ("… 3 more", true),
            ("text: x", true),
            ("main() {", false),
            ("button clicked", false),
            ("*p = 1;", false),
            ("# heading", false),
            ("2: x", false),
            ("", false),
        ] {
            assert_eq!(reads_as_other_line(l), other, "{l:?}");
        }
        assert_eq!(line(&pre("  button \"x\"\nok();")), "  text:   button \"x\"\n  ok();\n");
        // A first line that is empty is not a line of indentation only.
        assert_eq!(line(&pre("\nx = 1")), "  text:\n  x = 1\n");
        // At the top level every line says `text:` (a header line starts with `#`).
        let mut top = String::new();
        write_line(&mut top, &pre("# a\n\nb"), 0, &ctx("https://a.example/x"), false, None, false);
        assert_eq!(top, "text: # a\ntext:\ntext: b\n");
    }

    #[test]
    fn a_plain_list_item_is_a_bullet() {
        let item = Node::new(Role::ListItem, "", NativeId::new("d", "1"));
        let mut s = String::new();
        write_line(&mut s, &item, 1, &ctx("https://a.example/x"), false, Some("Free [Pricing](e5)"), true);
        assert_eq!(s, "  * Free [Pricing](e5)\n");
        assert_eq!(line(&item), "  *\n");
        let mut named = item.clone();
        named.name = "Pricing".into();
        assert_eq!(line(&named), "  listitem \"Pricing\"\n");
        let mut selected = item.clone();
        selected.states.set(State::Selected, true);
        assert!(line(&selected).starts_with("  listitem [selected]"), "{}", line(&selected));
        let mut acts = item.clone();
        acts.ref_id = Some(Ref(9));
        acts.actions = [Action::Click].into_iter().collect();
        assert_eq!(line(&acts), "  listitem [e9] [clickable]\n");
    }
}
