//! Removed siblings said together: when several children of one parent, alike in role and
//! with no ref of their own shown, go in one diff (a table's filter hides 24 rows), they are
//! one line that names each by the text that tells it apart from the others and lists the
//! refs that went with them.
//!
//! ```text
//! - 24 rows in e96: "Anchor", "Barometer", "Compass", … ; refs e109-e125, e136-e323
//! ```
//!
//! Said one by one, each was named by its first text (`- row with "Edit" in e96`, the same
//! for every row): the agent could tell neither which rows went nor that the refs inside
//! them died. A row's name here is its text at the first position (the n-th named node in
//! it, in document order) where the removed rows all differ, words preferred to bare numbers
//! (a name over an id column); the refs are the ones the old snapshot showed inside them,
//! consecutive numbers written as a range. Everything is read from the old tree, which the
//! agent was shown. Only the text form groups; the diff keeps an op per node, so `apply`
//! stays exact.

use std::collections::HashMap;
use std::fmt::Write;

use super::diff_text::{push_node_position, Side};
use super::line;
use crate::diff::{Diff, Op};
use crate::tree::NodeId;

/// Fewest removed siblings drawn as one line.
const RUN_MIN: usize = 2;
/// Names written before `… N more`: the refs still say all that went.
const NAMES_SHOWN: usize = 30;
/// Longest name written for one sibling.
const NAME_CHARS: usize = 30;
/// Named nodes read from each sibling, and nodes looked at to find them: a row is read as far
/// as its first cells, not a whole subtree of thousands.
const TEXTS_READ: usize = 16;
const NODES_READ: usize = 200;

/// The runs of a diff's removals: for each op index, whether it leads a run (which draws its
/// line in its place) or is a member drawn by the lead's line.
#[derive(Default)]
pub(super) struct Removals {
    lead: HashMap<usize, Run>,
    member: Vec<bool>,
}

/// Removed siblings alike in role under one parent, in the diff's order.
pub(super) struct Run {
    /// The removed nodes, in the old tree.
    items: Vec<NodeId>,
}

impl Removals {
    /// Finds the runs among `diff`'s removals, read in the old tree `p`.
    pub(super) fn find(diff: &Diff, p: &Side) -> Removals {
        let mut by_key: HashMap<(NodeId, String), Vec<usize>> = HashMap::new();
        let mut order = Vec::new();
        for (i, op) in diff.ops.iter().enumerate() {
            let Op::Remove { r } = op else { continue };
            let Some(&id) = p.by_ref.get(r) else { continue };
            // A node whose ref is shown is told apart by it already.
            if p.shows_ref(id) {
                continue;
            }
            let node = p.tree.node(id);
            let Some(parent) = node.parent else { continue };
            let mut kind = String::new();
            line::push_kind(&mut kind, node);
            let key = (parent, kind);
            let slot = by_key.entry(key.clone()).or_default();
            if slot.is_empty() {
                order.push(key);
            }
            slot.push(i);
        }
        let mut runs = Removals { lead: HashMap::new(), member: vec![false; diff.ops.len()] };
        for key in order {
            let Some(ops) = by_key.remove(&key) else { continue };
            if ops.len() < RUN_MIN {
                continue;
            }
            let items =
                ops.iter().filter_map(|i| diff.ops[*i].target()).filter_map(|r| p.by_ref.get(&r).copied());
            let run = Run { items: items.collect() };
            for i in &ops[1..] {
                runs.member[*i] = true;
            }
            runs.lead.insert(ops[0], run);
        }
        runs
    }

    /// Whether op `i` is drawn by its run's line (not the run's first).
    pub(super) fn is_member(&self, i: usize) -> bool {
        self.member.get(i).copied().unwrap_or(false)
    }

    /// The run op `i` leads, drawn in its place.
    pub(super) fn led_by(&self, i: usize) -> Option<&Run> {
        self.lead.get(&i)
    }
}

impl Run {
    /// How many removals the run holds.
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }

    /// Writes the run's line: `- 24 rows in e96: "Anchor", … ; refs e109-e125`.
    pub(super) fn write(&self, out: &mut String, p: &Side, n: &Side) {
        let Some(&first) = self.items.first() else { return };
        let node = p.tree.node(first);
        let _ = write!(out, "- {} ", self.items.len());
        let mut kind = String::new();
        line::push_kind(&mut kind, node);
        out.push_str(&plural(&kind));
        out.push_str(" in ");
        match node.parent.and_then(|par| p.tree.node(par).ref_id) {
            Some(par) => push_node_position(out, par, p, n),
            None => out.push_str("page"),
        }
        let names = self.names(p);
        let mut sep = ": ";
        if names.iter().any(Option::is_some) {
            for (k, name) in names.iter().take(NAMES_SHOWN).enumerate() {
                out.push_str(if k == 0 { sep } else { ", " });
                match name {
                    Some(s) => line::push_quoted(out, &line::clip(s.trim(), NAME_CHARS)),
                    None => out.push('?'),
                }
            }
            if names.len() > NAMES_SHOWN {
                let _ = write!(out, " … {} more", names.len() - NAMES_SHOWN);
            }
            sep = "; ";
        }
        let refs = self.shown_refs(p);
        if !refs.is_empty() {
            out.push_str(sep);
            out.push_str("refs ");
            push_ranges(out, &refs);
        }
        out.push('\n');
    }

    /// Each item's name: its text at the first position where the items differ.
    fn names<'t>(&self, p: &Side<'t>) -> Vec<Option<&'t str>> {
        let texts: Vec<Vec<&str>> = self.items.iter().map(|&id| texts(p, id)).collect();
        let width = texts.iter().map(Vec::len).max().unwrap_or(0);
        let column = |c: usize| texts.iter().map(move |t| t.get(c).map(|s| s.trim()));
        let distinct = |c: usize| {
            let mut seen = std::collections::HashSet::new();
            column(c).all(|s| s.is_some_and(|s| seen.insert(s)))
        };
        let differs = |c: usize| {
            let mut col = column(c);
            let first = col.next().flatten();
            col.any(|s| s != first)
        };
        let has_words = |c: usize| column(c).flatten().any(|s| s.chars().any(char::is_alphabetic));
        let pick = (0..width)
            .find(|&c| distinct(c) && has_words(c))
            .or_else(|| (0..width).find(|&c| distinct(c)))
            .or_else(|| (0..width).find(|&c| differs(c)));
        match pick {
            Some(c) => texts.iter().map(|t| t.get(c).copied()).collect(),
            None => vec![None; texts.len()],
        }
    }

    /// The refs the old snapshot showed inside the items, in number order.
    fn shown_refs(&self, p: &Side) -> Vec<u32> {
        let mut refs: Vec<u32> = self
            .items
            .iter()
            .flat_map(|&id| p.tree.subtree(id))
            .filter(|&d| p.shows_ref(d))
            .filter_map(|d| p.tree.node(d).ref_id)
            .map(|r| r.0)
            .collect();
        refs.sort_unstable();
        refs.dedup();
        refs
    }
}

/// The names inside `id` in document order (its own first), at most [`TEXTS_READ`] of them.
fn texts<'t>(p: &Side<'t>, id: NodeId) -> Vec<&'t str> {
    let mut out = Vec::new();
    let mut stack = vec![id];
    let mut seen = 0;
    while let Some(c) = stack.pop() {
        seen += 1;
        if seen > NODES_READ || out.len() >= TEXTS_READ {
            break;
        }
        let n = p.tree.node(c);
        if !n.name.trim().is_empty() && n.role != crate::role::Role::More {
            out.push(n.name.as_str());
        }
        stack.extend(n.children.iter().rev().copied());
    }
    out
}

/// `rows`, `checkboxes`: a role word made plural for a count.
fn plural(kind: &str) -> String {
    if kind.ends_with(['s', 'x']) {
        format!("{kind}es")
    } else {
        format!("{kind}s")
    }
}

/// `e109-e125, e130, e136-e323`: sorted ref numbers, each run of consecutive ones as a range.
fn push_ranges(out: &mut String, refs: &[u32]) {
    let mut k = 0;
    while k < refs.len() {
        let start = refs[k];
        let mut end = start;
        while k + 1 < refs.len() && refs[k + 1] == end + 1 {
            k += 1;
            end = refs[k];
        }
        if start != refs[0] {
            out.push_str(", ");
        }
        match end - start {
            0 => {
                let _ = write!(out, "e{start}");
            }
            1 => {
                let _ = write!(out, "e{start}, e{end}");
            }
            _ => {
                let _ = write!(out, "e{start}-e{end}");
            }
        }
        k += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::push_ranges;

    #[test]
    fn consecutive_refs_read_as_ranges() {
        let mut s = String::new();
        push_ranges(&mut s, &[3, 5, 6, 9, 10, 11, 12, 20]);
        assert_eq!(s, "e3, e5, e6, e9-e12, e20");
    }
}
