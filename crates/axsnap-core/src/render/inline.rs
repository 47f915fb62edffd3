//! Inline runs: a node's children drawn on its own line (`paragraph: text `code` [link](e12)`)
//! instead of a line each, when they are all inline leaves.

use std::fmt::Write;

use super::bound;
use super::line::{shown_description, shown_states, shown_url, shows_ref, LineCtx, Source};
use crate::role::Role;
use crate::state::State;

/// Children drawn inline on their parent's line stop being drawn so (each gets its own line
/// again) when the line's inline part would pass this many bytes: a paragraph of 100,000
/// links is not one line.
const INLINE_BYTES: usize = 8_000;

/// How many code spans deep a run's pieces are read (a code span that holds links is drawn as
/// its pieces, and a piece may be a code span again). Deeper nesting is not drawn inline: each
/// level gets its line. This bounds the recursion, and the work each node's line costs, whatever
/// the page's depth (a chain of 100,000 nested code spans).
const INLINE_NESTING: usize = 16;

/// The content of `node`'s children drawn on its own line (`paragraph: text`), when they are
/// all inline leaves: text, code spans and links. A line per child would spend an indent, a
/// role word and a newline on each piece of running text (`text: the`, `code: s`,
/// `text: refers to`), and a link alone in a list item or a heading two lines for one. Inline,
/// a code span reads `` `s` `` and a link `[name](e12)`, its ref kept, so the agent can still act
/// on it, its description as a title (`[Vec](e12 "struct std::vec::Vec")`); code that holds
/// links is drawn as its pieces. The pieces are joined with single spaces (the whitespace
/// between them is not in the tree). A run whose preformatted text keeps the page's line
/// breaks (a rustdoc signature's `where` clause) comes back with them, and is drawn a line per
/// line under its node; text alone that keeps them (a code block) is not a run. Nothing else
/// is drawn inline: a link with a state, an element with children, a ref the line would lose,
/// a `More` marker.
pub(super) fn inline_tail<'a, S: Source<'a>>(
    src: &S,
    id: S::Id,
    kids: &[S::Id],
    ctx: &LineCtx,
) -> Option<String> {
    run(src, id, kids, ctx, INLINE_NESTING)
}

/// [`inline_tail`] with `nesting` more levels of code spans that may be read.
fn run<'a, S: Source<'a>>(
    src: &S,
    id: S::Id,
    kids: &[S::Id],
    ctx: &LineCtx,
    nesting: usize,
) -> Option<String> {
    let n = src.node(id);
    if kids.is_empty() || matches!(n.role, Role::Text | Role::More) || !n.name.is_empty() || n.value.is_some()
    {
        return None;
    }
    // An editor's lines stay lines: two texts side by side are two blocks.
    let editor = n.states.contains(State::Editable);
    let mut out = String::new();
    // Whether the piece before was text: text carries its own spaces (projection kept the
    // page's), so only between two elements is a space put by rule.
    let mut after_text = true;
    // Whether the piece before was a block-level element (a link laid out as a block): the
    // page breaks the line there, which one line draws as a space.
    let mut after_block = false;
    // A code line's indentation is the page's.
    let leading_pre = kids.first().is_some_and(|k| src.node(*k).flags.pre);
    // Line breaks of preformatted text in the run (a rustdoc signature's `where` clause): the
    // run is then drawn a line per line under its node ([`write_line`]). Only those breaks may
    // end a line; any other is a reason to draw the pieces as lines of their own.
    let mut pre_breaks = 0;
    // Whether a piece is an element (a link, a code span): a run of text alone that keeps
    // its line breaks is a code block's or an editor's, drawn as its own lines.
    let mut has_element = false;
    for &k in kids {
        let c = src.node(k);
        let grandkids = src.children(k);
        if c.value.is_some() || shown_states(c).next().is_some() {
            return None;
        }
        if c.role == Role::Text && c.flags.pre {
            pre_breaks += c.name.matches('\n').count();
        }
        let is_text = c.role == Role::Text;
        has_element |= !is_text;
        // A link's description goes inline as its title: `[Vec<T>](e83 "struct std::vec::Vec")`.
        let title = shown_description(c);
        let titled_link = c.role == Role::Link && grandkids.is_empty() && c.ref_id.is_some();
        if title.is_some_and(|t| !titled_link || t.contains('"')) {
            return None;
        }
        // No space before closing punctuation or after an opening bracket: `u32`. not `u32` .
        let glued = c.name.starts_with(['.', ',', ';', ':', '!', '?', ')', ']', '}']);
        // Two texts side by side were not joined: a block's edge is between them.
        if editor && after_text && is_text && !out.is_empty() {
            return None;
        }
        let apart =
            (!after_text && !is_text && !glued) || (after_text && is_text) || after_block || c.flags.block;
        if !out.is_empty() && apart && !out.ends_with(['(', '[', '{', ' ']) && !c.name.starts_with(' ') {
            out.push(' ');
        }
        after_text = is_text;
        after_block = c.flags.block;
        if out.len() > INLINE_BYTES {
            return None;
        }
        match c.role {
            Role::Text if grandkids.is_empty() => out.push_str(&bound::text(&c.name)),
            // A code span is often an element around one text node.
            Role::Code if !shows_ref(c, false) => {
                let text = match grandkids.as_slice() {
                    [] => c.name.as_str(),
                    [t] if c.name.is_empty()
                        && src.node(*t).role == Role::Text
                        && src.children(*t).is_empty() =>
                    {
                        let t = src.node(*t);
                        // A code block keeps its lines.
                        if t.flags.pre && t.name.contains('\n') {
                            return None;
                        }
                        t.name.as_str().trim()
                    }
                    // Code that holds links (rustdoc's `[len](e1) == [capacity](e2)`): its
                    // pieces inline, without backticks, which would make the links read as
                    // code.
                    _ => {
                        let inner = run(src, k, &grandkids, ctx, nesting.checked_sub(1)?)?;
                        out.push_str(&inner);
                        continue;
                    }
                };
                if text.is_empty() {
                    return None;
                }
                out.push('`');
                out.push_str(&bound::text(text));
                out.push('`');
            }
            // A plain span around one text (a counter: "Refreshed `0` times" reads as one).
            Role::Generic
                if c.name.is_empty()
                    && !shows_ref(c, false)
                    && c.description.is_none()
                    && matches!(grandkids.as_slice(), [t] if src.node(*t).role == Role::Text
                        && src.children(*t).is_empty()
                        && shown_states(src.node(*t)).next().is_none()
                        && !(src.node(*t).flags.pre && src.node(*t).name.contains('\n'))) =>
            {
                out.push_str(&bound::text(&src.node(grandkids[0]).name));
            }
            _ if !grandkids.is_empty() => return None,
            Role::Link if !c.name.is_empty() => {
                // Brackets inside the name stay as they are: an escape would be doubled by the
                // line's own escaping of `\`, and a reader pairs `[T]` inside fine.
                out.push('[');
                out.push_str(&bound::text(&c.name));
                out.push(']');
                match (c.ref_id, shows_ref(c, false)) {
                    (Some(r), true) => {
                        let _ = write!(out, "({r}");
                        if let Some(t) = title {
                            let _ = write!(out, " \"{}\"", bound::text(t));
                        }
                        out.push(')');
                    }
                    (Some(_), false) => return None,
                    (None, _) => {}
                }
                if let Some(url) = shown_url(c, ctx) {
                    out.push_str(" (");
                    out.push_str(&bound::url(url));
                    out.push(')');
                }
            }
            _ => return None,
        }
    }
    if pre_breaks > 0 && (!has_element || out.matches('\n').count() != pre_breaks) {
        return None;
    }
    let out = if leading_pre { out.trim_end() } else { out.trim() };
    let out = out.trim_start_matches('\n');
    (!out.is_empty() && out.len() <= INLINE_BYTES).then(|| out.to_string())
}
