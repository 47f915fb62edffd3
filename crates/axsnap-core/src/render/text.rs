//! The text form of a full snapshot.

use std::fmt::Write;

use super::behind::Behind;
use super::bound;
use super::layout;
use super::line::{self, LineCtx};
use crate::role::Role;
use crate::snapshot::Snapshot;
use crate::tree::NodeId;

/// Renders `snap` as the header and one line per node.
pub(super) fn snapshot(snap: &Snapshot) -> String {
    let tree = &snap.tree;
    let mut out = String::new();
    let root = tree.root();
    // A page root is not drawn: its name is the page title, already in the header.
    let elided_root = root.filter(|r| tree.node(*r).role == Role::Document);
    let title = snap
        .header
        .title
        .as_deref()
        .filter(|t| !t.is_empty())
        .or_else(|| elided_root.map(|r| tree.node(r).name.as_str()).filter(|t| !t.is_empty()));
    let url = snap.header.url.as_deref().filter(|u| !u.is_empty());
    let (title, url_shown) = (title.map(bound::title), url.map(bound::url));
    let start = out.len();
    match (title, url_shown) {
        (Some(t), Some(u)) => {
            out.push_str("# ");
            line::push_tail(&mut out, &t);
            out.push_str(" — ");
            line::push_tail(&mut out, &u);
        }
        (Some(s), None) | (None, Some(s)) => {
            out.push_str("# ");
            line::push_tail(&mut out, &s);
        }
        (None, None) => {}
    }
    if out.len() > start {
        bound::end_line(&mut out, start);
        out.push('\n');
    }
    if let Some(r) = elided_root {
        // Page-wide states (busy while loading) would otherwise be lost with the root line.
        // That the page has focus says nothing an agent acts on.
        let states: Vec<_> =
            line::shown_states(tree.node(r)).filter(|s| *s != crate::state::State::Focused).collect();
        if !states.is_empty() {
            out.push_str("# page");
            for s in states {
                let _ = write!(out, " [{s}]");
            }
            out.push('\n');
        }
    }
    if snap.stats.scope_missing {
        out.push_str("# the scoped element is gone; showing nothing (take a snapshot without scope)\n");
    }
    // The interactive view leaves content out by design and marks nothing: no line for it.
    let marked = tree.preorder().any(|(id, _)| tree.node(id).role == Role::More);
    if snap.stats.cut_by_view > 0 && (marked || !snap.stats.interactive_only) {
        let _ = writeln!(out, "# partial view: {} nodes left out, marked with …", snap.stats.cut_by_view);
    }
    let mut ctx = LineCtx::for_tree(tree, url);
    if snap.stats.interactive_only {
        // Acting goes by ref: the URLs that tell same-named links apart ("Source" under each
        // method) are for reading. An unnamed link still shows its URL.
        ctx.ambiguous_links.clear();
    }
    let roots: Vec<NodeId> = match (root, elided_root) {
        (Some(r), Some(_)) => tree.node(r).children.clone(),
        (Some(r), None) => vec![r],
        (None, _) => {
            out.push_str("# empty\n");
            return out;
        }
    };
    match Behind::of(tree) {
        // Under a modal dialog, what it covers is a line a run (module `behind`).
        Some(behind) => {
            let folded = |id| behind.folded(id);
            let line = |refs| behind.line(refs);
            let mut i = 0;
            while i < roots.len() {
                // A run of page roots behind the dialog is one line too.
                let mut refs = None;
                while let Some(c) = roots.get(i).and_then(|&r| behind.folded(r)) {
                    refs = Some(refs.unwrap_or(0) + c);
                    i += 1;
                }
                match refs {
                    Some(refs) => {
                        out.push_str(&behind.line(refs));
                        out.push('\n');
                    }
                    None => {
                        layout::write_subtree_behind(&mut out, tree, roots[i], 0, &ctx, &folded, &line);
                        i += 1;
                    }
                }
            }
        }
        None => {
            for r in roots {
                layout::write_subtree(&mut out, &tree, r, 0, &ctx);
            }
        }
    }
    out
}
