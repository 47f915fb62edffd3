//! State flips said once: updates of many nodes that change nothing but the same shown states
//! (a modal opens and every control under it becomes `obscured`; a form's controls all become
//! `disabled` while it submits) are drawn as one line instead of one line per node, after the
//! other changes.
//!
//! ```text
//! ~ e500 covers 73 elements: e20, e21, e22 … e93
//! ~ 73 elements no longer covered by e500: e20, e21, e22 … e93
//! ~ +disabled on 5 elements: e3, e4, e5, e6, e9
//! ```
//!
//! Covering is said by the cover: the capture marks the element drawn over the others
//! ([`State::Covering`]), and each newly obscured node is attributed to the last cover in
//! document order whose box holds the node's centre (or to the only cover). Its covered
//! elements are not all named: acting on one is refused with the cover's ref, and the count
//! says how many there are. Other flips name every element, which is what the agent needs to
//! act on them. Only the text form groups; the diff itself keeps an update per node, so
//! `apply` stays exact.

use std::collections::HashMap;
use std::fmt::Write;

use super::diff_text::{push_states, Side};
use crate::cover::Covers;
use crate::diff::{Diff, FieldChange, Op};
use crate::refs::Ref;
use crate::role::Role;
use crate::state::State;

/// Fewest nodes flipping alike that are drawn as one line.
pub(super) const GROUP_MIN: usize = 4;
/// Covered elements named before the `…` and the last one.
const COVERED_SHOWN: usize = 3;

/// The groups of a diff: for each op index, whether it leads a group or is a member of one
/// (drawn by the group's line), and whether only its `obscured` flip is (the rest of its
/// changes, a focus that moved, are drawn as its own line).
#[derive(Default)]
pub(super) struct Groups {
    lead: HashMap<usize, Group>,
    member: Vec<bool>,
    strip: Vec<bool>,
}

/// Nodes whose updates flip the same shown states.
pub(super) struct Group {
    /// `+obscured`, `-disabled +busy`, as the text form writes the flip.
    flip: String,
    /// For covering and uncovering: what covers (or covered) them, when known.
    cover: Option<Ref>,
    /// Whether the flip is covering (`+obscured`) or uncovering (`-obscured`).
    covering: Option<bool>,
    /// The nodes, in the diff's order.
    refs: Vec<Ref>,
}

impl Groups {
    /// Finds the groups of `diff`'s updates.
    pub(super) fn find(diff: &Diff, p: &Side, n: &Side) -> Groups {
        let mut by_key: HashMap<(String, Option<Ref>), Vec<usize>> = HashMap::new();
        let mut order: Vec<(String, Option<Ref>)> = Vec::new();
        let covers_next = Covers::of(n.tree);
        let covers_prev = Covers::of(p.tree);
        let cover_ref = |side: &Side, covers: &Covers, r: &Ref| {
            let id = side.by_ref.get(r)?;
            covers.cover_of(side.tree, *id).and_then(|c| side.tree.node(c).ref_id)
        };
        let mut partial = vec![false; diff.ops.len()];
        for (i, op) in diff.ops.iter().enumerate() {
            let Op::Update { r, changes } = op else { continue };
            // A covered element whose focus also moved: the cover says the one, its own line
            // the other.
            let flip = match (flip_only(*r, changes, p, n), obscured_flip(*r, changes, p, n)) {
                (Some(f), Some(o)) if f != o => {
                    partial[i] = true;
                    o.to_string()
                }
                (Some(f), _) => f,
                (None, Some(o)) => {
                    partial[i] = true;
                    o.to_string()
                }
                (None, None) => continue,
            };
            let cover = match flip.as_str() {
                "+obscured" => cover_ref(n, &covers_next, r),
                "-obscured" => cover_ref(p, &covers_prev, r),
                _ => None,
            };
            let key = (flip, cover);
            let slot = by_key.entry(key.clone()).or_default();
            if slot.is_empty() {
                order.push(key);
            }
            slot.push(i);
        }
        let mut groups = Groups {
            lead: HashMap::new(),
            member: vec![false; diff.ops.len()],
            strip: vec![false; diff.ops.len()],
        };
        for key in order {
            let Some(ops) = by_key.remove(&key) else { continue };
            if ops.len() < GROUP_MIN {
                continue;
            }
            let refs = ops.iter().filter_map(|i| diff.ops[*i].target()).collect();
            let covering = match key.0.as_str() {
                "+obscured" => Some(true),
                "-obscured" => Some(false),
                _ => None,
            };
            for i in &ops {
                if partial[*i] {
                    groups.strip[*i] = true;
                } else {
                    groups.member[*i] = true;
                }
            }
            groups.lead.insert(ops[0], Group { flip: key.0, cover: key.1, covering, refs });
        }
        groups
    }

    /// Whether op `i` is drawn by its group's line.
    pub(super) fn is_member(&self, i: usize) -> bool {
        self.member.get(i).copied().unwrap_or(false)
    }

    /// Whether op `i`'s `obscured` flip is drawn by a group's line, the rest by its own.
    pub(super) fn strips_obscured(&self, i: usize) -> bool {
        self.strip.get(i).copied().unwrap_or(false)
    }

    /// The groups, in the order of their first ops.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Group> {
        let mut leads: Vec<_> = self.lead.iter().collect();
        leads.sort_by_key(|(i, _)| **i);
        leads.into_iter().map(|(_, g)| g)
    }
}

impl Group {
    /// How many nodes the group holds.
    pub(super) fn len(&self) -> usize {
        self.refs.len()
    }

    /// Writes the group's line.
    pub(super) fn write(&self, out: &mut String, p: &Side, n: &Side) {
        let count = self.refs.len();
        match (self.covering, self.cover) {
            (Some(true), Some(c)) => {
                out.push_str("~ ");
                super::diff_text::push_node_position(out, c, n, p);
                let _ = write!(out, " covers {count} elements: ");
                push_some(out, &self.refs);
            }
            (Some(false), Some(c)) => {
                let _ = write!(out, "~ {count} elements no longer covered by ");
                super::diff_text::push_node_position(out, c, p, n);
                out.push_str(": ");
                push_some(out, &self.refs);
            }
            (Some(true), None) => {
                let _ = write!(out, "~ {count} elements now covered: ");
                push_some(out, &self.refs);
            }
            (Some(false), None) => {
                let _ = write!(out, "~ {count} elements no longer covered: ");
                push_some(out, &self.refs);
            }
            (None, _) => {
                let _ = write!(out, "~ {} on {count} elements: ", self.flip);
                push_all(out, &self.refs);
            }
        }
        out.push('\n');
    }
}

/// `e20, e21, e22 … e93`: the first few and the last.
fn push_some(out: &mut String, refs: &[Ref]) {
    if refs.len() <= COVERED_SHOWN + 2 {
        push_all(out, refs);
        return;
    }
    push_all(out, &refs[..COVERED_SHOWN]);
    if let Some(last) = refs.last() {
        let _ = write!(out, " … {last}");
    }
}

fn push_all(out: &mut String, refs: &[Ref]) {
    for (k, r) in refs.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{r}");
    }
}

/// `+obscured` or `-obscured` when the update flips that state of a node whose ref the text
/// form shows, along with other changes.
fn obscured_flip(r: Ref, changes: &[FieldChange], p: &Side, n: &Side) -> Option<&'static str> {
    let (side, id) = match p.by_ref.get(&r) {
        Some(id) => (p, *id),
        None => (n, *n.by_ref.get(&r)?),
    };
    if !side.shows_ref(id) {
        return None;
    }
    changes.iter().find_map(|c| match c {
        FieldChange::States { old, new }
            if old.contains(State::Obscured) != new.contains(State::Obscured) =>
        {
            Some(if new.contains(State::Obscured) { "+obscured" } else { "-obscured" })
        }
        _ => None,
    })
}

/// The shown flip of an update that changes nothing else the text form shows, on a node whose
/// ref the text form shows; `None` for any other update.
fn flip_only(r: Ref, changes: &[FieldChange], p: &Side, n: &Side) -> Option<String> {
    let (side, id) = match p.by_ref.get(&r) {
        Some(id) => (p, *id),
        None => (n, *n.by_ref.get(&r)?),
    };
    if !side.shows_ref(id) {
        return None;
    }
    let node = side.tree.node(id);
    let mut flip = None;
    for c in changes {
        match c {
            FieldChange::States { old, new } => {
                let mut s = String::new();
                push_states(&mut s, Some(node), *old, *new);
                if s.is_empty() {
                    continue;
                }
                flip = Some(s);
            }
            FieldChange::Level { .. } if node.role != Role::Heading => {}
            FieldChange::Url { .. } if !matches!(node.role, Role::Link | Role::Document) => {}
            FieldChange::Actions { .. }
            | FieldChange::Bounds { .. }
            | FieldChange::DevId { .. }
            | FieldChange::Native { .. }
            | FieldChange::Flags { .. } => {}
            _ => return None,
        }
    }
    flip
}
