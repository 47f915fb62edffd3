//! Rendering: the compact text form for models and the JSON form for programs, of a full
//! snapshot and of a diff. Both are deterministic functions of the data.
//!
//! # The text form
//!
//! One line per node, indented two spaces per level:
//!
//! ```text
//! # Sign in · Acme — https://acme.example/login
//! banner [e2]: [Acme](e3)
//! main [e5]
//!   h1 "Sign in to Acme"
//!   Use your `work` email, or [sign up](e8).
//!   textbox "Email" [e9] [required] [invalid]: bob@
//!   checkbox "Remember me" [e12] [checked]
//!   list
//!     * Free for teams of five
//!     * [Pricing](e15)
//!   code
//!     curl -fsS https://acme.example/install.sh | sh
//!   [Terms](e18)
//!   link [e19] (#top)
//!   text: Footer
//!   … 120 more items
//! ```
//!
//! Every choice was measured with [`crate::tokens`] on the seven `fixtures/trees` through the
//! real pipeline (`cargo test -p axsnap-core --test golden token_variants -- --ignored
//! --nocapture` prints the table; figures are cl100k totals, o200k within 1%):
//! - No `- ` bullet before each line (Playwright's YAML form): indentation carries the
//!   structure, and every line starts with a role word (`h1`…`h6` for headings), `text:`,
//!   `*`, `…` or a link (`[name](e12)`), or is a line of the page's text drawn bare (prose,
//!   code), drawn so that it does not read as one of the others (a line that starts with a
//!   link reads the same either way), so nothing is ambiguous. The bullet costs
//!   11% more (3617 vs 3266 tokens).
//! - Prose is drawn bare: a plain paragraph or text is its text, at any level but the top.
//!   Like a code line, it keeps `text: ` (or `paragraph: `) if it could read as another kind
//!   of line. `paragraph: ` cost two tokens a paragraph: 2% of a book chapter, 1.5% of `Vec`.
//! - A heading says its level as its kind, `h2 "Examples"`: `heading "Examples" [level=2]`
//!   cost 4 tokens more a heading, 3% of `Vec` and 4% on the fixtures.
//! - A named link on its own line is drawn as it is inline, `[Source](e808)`, with its states
//!   after it: `link "Source" [e808]` cost two tokens more a link, 2% on the fixtures.
//! - An inline run that keeps the page's line breaks (a rustdoc signature's `where` clause,
//!   links in it) is drawn a line per line under its node, links inline; drawn a line per
//!   piece, the `where` clauses cost 6% of `Vec`.
//! - A plain list item (no name, ref, state or value) is a bullet, `* text`, or `*` over its
//!   own lines: `listitem: ` cost 9% more on the std index and 3% on a book chapter. Its
//!   leading link shares the bullet's line over its sub-list (`* [Getting Started](e8)`), and
//!   a plain list whose items are all bullets has no line of its own (unless another list is
//!   beside it), so nested lists read as Markdown: 1.3% of a book chapter, whose table of
//!   contents nests five deep.
//! - Preformatted text (a code block, an editor's lines) is drawn a line per line of code,
//!   its indentation kept, bare, never inline. A line that could read as another kind of line
//!   (`word:`, `word "…"`, `word [`, `word (`, a lone word, `*`, `…`) keeps a `text: ` before
//!   it, and so does every line at the top level. `text: ` on every line cost 7% more on
//!   the `Vec` page and 4% on a book chapter.
//! - The page root (a `document`) is not a line: its name is the header's title; page-wide
//!   states (`busy`) go in a `# page` header line.
//! - Refs (`[e7]`) only on nodes an agent can act on or scope to: nodes with actions, widget
//!   roles, focusable or editable nodes, landmarks, surfaces (dialog, menu, alert, listbox),
//!   collections (list, table, grid, tree, tablist, menubar, toolbar), tab panels, articles,
//!   frames, and any node holding a `… N more` marker (so the agent can scope into it). Text,
//!   paragraphs, headings, list items, cells, images and labels get none: a ref on every line
//!   cost 16% more (3796) and names nothing an agent can use.
//! - An unnamed node whose children are all inline leaves (text, code spans, links with no
//!   state or description to show) is one line: `paragraph: text `code` [link](e12) text`. A
//!   line per piece of running text cost an indent, a role word and a newline each, and a link
//!   alone in a list item or cell two lines for one. Measured on the Rust docs pages of the
//!   Playwright comparison (`bench/`, replayed raw captures): book chapter 10,771 -> 8,824
//!   cl100k tokens (-18%), std index 13,899 -> 11,456 (-18%), `Vec` 183,537 -> 163,854 (-11%),
//!   together with the next rule.
//! - A description that contains the node's name is not shown (rustdoc's `title="struct
//!   std::vec::Vec"` on every link named `Vec`): it repeats the name and adds little an agent
//!   acts on. Nor is the description of static content (a node without a ref that has a name,
//!   a value or children: rustdoc's `Stable since Rust version 1.0.0` tooltip on every
//!   `1.0.0` badge, 5% of the `Vec` page). The JSON form keeps both. An inline link shows its
//!   description as a title: `[Vec<T>](e83 "struct std::vec::Vec")`; code holding links is
//!   drawn inline as its pieces, without backticks.
//! - Inline pieces are joined with the page's own spaces (projection keeps them on the text);
//!   only between two elements (two links) is a space put by rule, and around an element laid
//!   out as a block.
//! - Text is `text: ...`, unquoted: quoting it (`"..."`) saved 0.4% but would mix two styles
//!   for content (`paragraph: ...` stays unquoted).
//! - States each in their own brackets in canonical order (`[e9] [required]`); one shared
//!   bracket saved 1.1% and reads worse. `focusable`, `offscreen`, `protected` and `editable`
//!   on text fields are not shown (implied or true of most of a page).
//! - Names are quoted with `"`, `\` and control characters escaped, so a name cannot break a
//!   line; text after `: ` runs to the end of the line with `\` and control characters
//!   escaped. A value and a collapsed text both follow `: `.
//! - Link URLs only where they add information: when the link has no name, or when the
//!   page's links of that name go to two or three different URLs (two `Result`s in a
//!   signature); shown relative to the page (`/path`, `#frag`). A name with more targets
//!   (`Source` under every method) is told apart by where it stands: its URLs cost 9% of the
//!   `Vec` page. Every URL would cost 12% more (3669), more on link-heavy pages.
//! - Descriptions say `[desc: "..."]`; select options
//!   `[options: "A", "B"]` (at most 25); cut markers `… N more items`.
//! - Lines deeper than 60 levels are drawn at 60 with `[depth N]`, so output stays linear in
//!   the number of nodes on any tree.
//! - Every piece is capped ([`crate::caps`]): names, values, descriptions and text at 2,000
//!   characters, the title at 500, URLs at 1,000, options at 200 each, each cut text ending
//!   with `…+N chars` (what was left out); children drawn inline stop being inline past 8,000
//!   bytes; and no line passes 16,000 characters (a backstop for escapes).
//!
//! # The JSON forms
//!
//! Flat, so Python's `json` and serde_json read them at any tree depth (see `json.rs`): a
//! snapshot is `{"target","seq","header","stats","root","nodes"}`, its nodes listed in
//! document order by id (their index), each with `parent` and `children` ids and its fields
//! `{"ref","role","name","value","description","states","actions","level","url","options",
//! "bounds","dev_id","native"}` (empty fields left out). A diff is the serde form of [`Diff`]
//! (its subtrees are flat lists with depths). Texts are capped as in the text form. Both are
//! written without recursion.

mod behind;
mod bound;
mod diff_groups;
mod diff_removed;
mod diff_text;
mod inline;
mod json;
mod layout;
mod line;
mod row;
mod text;
mod text_change;
mod unseen;

pub(crate) use layout::{line_costs, LineCost};
pub(crate) use line::{ref_worthy, shows_ref, LineCtx};

use serde::{Deserialize, Serialize};

use crate::diff::Diff;
use crate::snapshot::Snapshot;
use crate::tree::{NodeId, Tree};

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Compact indented text, for models.
    #[default]
    Text,
    /// JSON, for programs.
    Json,
}

/// Renders a full snapshot.
pub fn render_snapshot(snap: &Snapshot, format: Format) -> String {
    match format {
        Format::Text => text::snapshot(snap),
        Format::Json => json::snapshot(snap),
    }
}

/// Renders a diff. `prev` and `next` are the trees it connects (for context lines such as the
/// parent an added node goes under).
pub fn render_diff(diff: &Diff, prev: &Tree, next: &Tree, format: Format) -> String {
    match format {
        Format::Text => diff_text::diff(diff, prev, next),
        Format::Json => json::diff(diff),
    }
}

pub use unseen::unseen as diff_unseen;

/// Whether the text form of a whole snapshot of `tree` draws part of it as `… N elements
/// behind the dialog "…"`: a modal dialog covers the page (module `behind`).
pub fn folds_behind_modal(tree: &Tree) -> bool {
    behind::Behind::of(tree).is_some_and(|b| b.folds_any())
}

/// The refs the text form of a whole snapshot of `tree` leaves out behind a modal dialog
/// ([`folds_behind_modal`]): the elements to act on under it, in document order.
pub fn hidden_behind_modal(tree: &Tree) -> Vec<crate::refs::Ref> {
    behind::hidden_refs(tree)
}

/// Whether node `id` of a projected tree shows its ref in the text form: what an agent sees
/// a ref on (an annotated screenshot labels these).
pub fn ref_shown(tree: &Tree, id: NodeId) -> bool {
    let node = tree.node(id);
    let holds_more = node.children.iter().any(|c| tree.node(*c).role == crate::role::Role::More);
    line::shows_ref(node, holds_more)
}

/// The one-line answer when nothing changed since snapshot `seq`.
pub fn render_unchanged(seq: u64, format: Format) -> String {
    match format {
        Format::Text => format!("# no change since snapshot {seq}\n"),
        Format::Json => format!("{{\"unchanged\":true,\"seq\":{seq}}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_is_one_line() {
        assert_eq!(render_unchanged(4, Format::Text), "# no change since snapshot 4\n");
        let v: serde_json::Value = serde_json::from_str(&render_unchanged(4, Format::Json)).unwrap();
        assert_eq!(v["seq"], 4);
        assert_eq!(v["unchanged"], true);
    }
}
