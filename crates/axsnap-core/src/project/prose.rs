//! Prose kept whole: the running text of a block-level box that was not kept becomes a
//! paragraph again when it would otherwise be drawn a line per piece.
//!
//! A box the platform leaves out (an ignored `div`, an anonymous wrapper) hands its pieces to
//! its parent. When the parent holds only inline pieces, the renderer draws them on the
//! parent's line. When the parent also holds blocks (a list item with a paragraph and a Sphinx
//! admonition whose `<p>`s are `display: inline`: `Note: When a binary … returns
//! <code>NotImplemented</code> the interpreter …`), each piece got its own line: `text: Note:
//! When a binary … returns`, `code: NotImplemented`, `the interpreter …`. Here, a run of two or
//! more inline pieces that starts a hoisted block's content, under a parent that also holds
//! blocks, goes into a [`Role::Paragraph`] standing for that block (its native id), which the
//! renderer draws on one line with its code spans and links inline.

use std::collections::{HashMap, HashSet};

use crate::role::Role;
use crate::tree::{NodeId, Tree};

/// Output nodes that begin the pieces hoisted out of a dropped block, with that block (raw).
pub(super) type BlockHeads = HashMap<NodeId, NodeId>;

/// `kids` with each hoisted block's leading inline run grouped into a paragraph made from the
/// raw block by `make` (which pushes it to `out`). Unchanged when every child is inline (the
/// renderer draws them on one line) or no run qualifies. Returns how many paragraphs it made.
pub(super) fn group(
    out: &mut Tree,
    kids: &mut Vec<NodeId>,
    heads: &BlockHeads,
    ends_block: &HashSet<NodeId>,
    make: &mut dyn FnMut(&mut Tree, NodeId) -> NodeId,
) -> usize {
    if kids.len() < 3 || heads.is_empty() || kids.iter().all(|&k| is_inline(out, k)) {
        return 0;
    }
    let mut made = 0;
    let mut grouped = Vec::with_capacity(kids.len());
    let mut i = 0;
    while i < kids.len() {
        let k = kids[i];
        let Some(&block) = heads.get(&k).filter(|_| is_inline(out, k)) else {
            grouped.push(k);
            i += 1;
            continue;
        };
        // The run: inline pieces from the head on, to the end of the block's pieces.
        let mut end = i + 1;
        if !ends_block.contains(&k) {
            while end < kids.len() && is_inline(out, kids[end]) && !heads.contains_key(&kids[end]) {
                end += 1;
                if ends_block.contains(&kids[end - 1]) {
                    break;
                }
            }
        }
        if end - i < 2 {
            grouped.push(k);
            i += 1;
            continue;
        }
        let p = make(out, block);
        out.node_mut(p).children = kids[i..end].to_vec();
        grouped.push(p);
        made += 1;
        i = end;
    }
    *kids = grouped;
    made
}

/// The texts among a parent's children that projection marked a block's edge (`block`,
/// `Builder::mark_block_edges`), by which edge: the one that begins a block box hoisted into
/// the parent, and the one that ends it.
#[derive(Default)]
pub(super) struct Edges {
    /// Texts that begin a block box (not as the parent's first child).
    pub(super) starts: HashSet<NodeId>,
    /// Texts that end a block box (not as the parent's last child).
    pub(super) ends: HashSet<NodeId>,
}

/// `kids` with each run of two or more inline pieces that holds text, under a parent that also
/// holds blocks, grouped into a paragraph made by `make` from the run's first piece: a
/// sentence written straight into a `<body>` beside its blocks (`Refreshed <span>2</span>
/// times`) read as three lines, `text: Refreshed`, `generic: 2`, `text: times`. A text that
/// begins a block (`edges.starts`) may begin a run and one that ends a block (`edges.ends`)
/// may end it: phpMyAdmin's query tools `[&nbsp;<a>Refresh</a>&nbsp;]` end their `div`, and
/// the closing bracket went to a line of its own. Returns how many paragraphs it made.
pub(super) fn group_loose(
    out: &mut Tree,
    kids: &mut Vec<NodeId>,
    edges: &Edges,
    make: &mut dyn FnMut(&mut Tree, NodeId) -> NodeId,
) -> usize {
    if kids.len() < 3 || kids.iter().all(|&k| is_inline(out, k)) {
        return 0;
    }
    let mut made = 0;
    let mut grouped = Vec::with_capacity(kids.len());
    let mut i = 0;
    while i < kids.len() {
        let mut end = i;
        // Whether the run stopped at a block's edge (before a text that begins a block, or
        // after one that ends it) rather than at a piece that is no part of a sentence: the
        // next run begins right after it.
        let mut at_edge = false;
        while end < kids.len() {
            let k = kids[end];
            if is_loose_piece(out, k) {
                end += 1;
                continue;
            }
            let (starts, ends) = (edges.starts.contains(&k), edges.ends.contains(&k));
            if !is_loose_text(out.node(k)) || starts == ends {
                break;
            }
            if starts {
                if end > i {
                    at_edge = true;
                    break;
                }
                end += 1;
                continue;
            }
            // It ends a block: the run ends with it.
            end += 1;
            at_edge = true;
            break;
        }
        let run = &kids[i..end];
        if run.len() >= 2 && run.iter().any(|&k| out.node(k).role == Role::Text) {
            let p = make(out, run[0]);
            out.node_mut(p).children = run.to_vec();
            // The run's ends are the paragraph's: their edge spaces go, as they would at any
            // parent's edge (projected again, the paragraph's own children would be trimmed).
            for (&k, start) in [(&run[0], true), (&run[run.len() - 1], false)] {
                let n = out.node_mut(k);
                if n.role == Role::Text && !n.flags.pre {
                    n.name =
                        if start { n.name.trim_start_matches(' ') } else { n.name.trim_end_matches(' ') }
                            .to_string();
                }
            }
            grouped.push(p);
            made += 1;
        } else {
            grouped.extend_from_slice(run);
        }
        if at_edge {
            i = end;
            continue;
        }
        if end < kids.len() {
            grouped.push(kids[end]);
        }
        i = end + 1;
    }
    *kids = grouped;
    made
}

/// A piece of a loose sentence: running text that is not preformatted and not a block's edge
/// (a text marked so is a block's content on its own), a link, a code span, a plain span
/// around something that one does not act on.
fn is_loose_piece(out: &Tree, k: NodeId) -> bool {
    let n = out.node(k);
    match n.role {
        Role::Text => !n.flags.block && is_loose_text(n),
        // A span around something (an empty one is no piece of a sentence).
        Role::Generic => !n.flags.block && n.actions.is_empty() && !n.children.is_empty(),
        Role::Code | Role::Link => !n.flags.block,
        _ => false,
    }
}

/// Plain text that says something, whether or not it is a block's edge (a text with a value
/// of its own is a field's).
fn is_loose_text(n: &crate::tree::Node) -> bool {
    n.role == Role::Text && !n.flags.pre && n.value.is_none() && !n.name.trim().is_empty()
}

/// A piece of running text: text (even one marked a block's edge: it is one block's
/// content), a code span, a link, a plain span, not laid out as a block.
fn is_inline(out: &Tree, k: NodeId) -> bool {
    let n = out.node(k);
    n.role == Role::Text || (!n.flags.block && matches!(n.role, Role::Code | Role::Link | Role::Generic))
}
