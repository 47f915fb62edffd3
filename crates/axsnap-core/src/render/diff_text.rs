//! The text form of a diff.
//!
//! ```text
//! # diff 3 -> 4: 5 changes, 61 unchanged
//! + under e5 after e8:
//!   - alert [e31]: Wrong password
//!   - button "Retry" [e32]
//! - e12 button "Save"
//! ~ e7 textbox "Email": value "" -> "bob"; +invalid
//! > e14 to e2 after e13
//! = e20 list "Results" replaced by:
//!   - list "Results" [e40]
//! ```
//!
//! Additions side by side under one parent share one header (the first's place says where).
//! A replace that brings back the same content says only the new ref (`~ e12 button "Save" is
//! now e40`), or nothing when the ref is not shown; one that puts a text for a text reads as
//! the change of its words (`~ text in e9: "Ready" -> "Saved"`); a long name or text that
//! changed shows the change with some context (`"…Status: open…" -> "…Status: closed…"`).
//! Covers and states flipping on many nodes are said once (`diff_groups.rs`), and so are
//! siblings removed together (`diff_removed.rs`). Where an addition or a move goes is said by
//! the old tree, the one the agent was shown.
//!
//! Nodes are named by ref when the snapshot shows their ref, otherwise by role and name and
//! the nearest shown ref around them (`text "Total: 5" in e40`), since a ref the agent never
//! saw tells it nothing. Removed and updated nodes are described as they were in `prev`.
//! Changes the text form never shows (bounds, native ids, developer ids, actions, hidden
//! states) are left out, and so are operations made only of them; the header counts a node
//! updated only in such fields as unchanged.

use std::cell::OnceCell;
use std::fmt::Write;

use rustc_hash::FxHashMap;

use crate::caps::thousands;

use super::bound;
use super::diff_groups::Groups;
use super::diff_removed::Removals;
use super::layout;
use super::line::{self, LineCtx, Subtree};
use super::text_change;
use crate::diff::{Diff, FieldChange, Op};
use crate::refs::Ref;
use crate::role::Role;
use crate::state::{State, StateSet};
use crate::tree::{Node, NodeId, Tree};

/// Longest text shown to tell an unnamed node apart.
const HINT_CHARS: usize = 30;
/// Most descendants searched for that text.
const HINT_SEARCH_NODES: usize = 50;

/// One side of the diff with a ref index.
pub(super) struct Side<'t> {
    pub(super) tree: &'t Tree,
    pub(super) by_ref: FxHashMap<Ref, NodeId>,
    /// Each node's nearest ancestor whose ref the snapshot shows, by arena index: made on
    /// first use in one walk, since looking up each node's ancestors one by one is quadratic
    /// in a deep tree (a chain of 100,000 changed code spans).
    anchors: OnceCell<Vec<Option<Ref>>>,
}

impl<'t> Side<'t> {
    pub(super) fn new(tree: &'t Tree) -> Side<'t> {
        let mut by_ref = FxHashMap::with_capacity_and_hasher(tree.arena_len(), Default::default());
        by_ref.extend(tree.preorder().filter_map(|(id, _)| tree.node(id).ref_id.map(|r| (r, id))));
        Side { tree, by_ref, anchors: OnceCell::new() }
    }

    fn is_elided_root(&self, id: NodeId) -> bool {
        self.tree.root() == Some(id) && self.tree.node(id).role == Role::Document
    }

    pub(super) fn shows_ref(&self, id: NodeId) -> bool {
        let n = self.tree.node(id);
        let holds_more = n.children.iter().any(|c| self.tree.node(*c).role == Role::More);
        line::shows_ref(n, holds_more)
    }

    /// Whether the node `r` names on this side shows its URL on its line.
    fn shows_url(&self, r: Ref, ctx: &LineCtx) -> bool {
        self.by_ref.get(&r).is_some_and(|id| line::shown_url(self.tree.node(*id), ctx).is_some())
    }

    /// The first name or text inside `id`, looking at a bounded number of descendants.
    fn content_hint(&self, id: NodeId) -> Option<&'t str> {
        let mut stack: Vec<NodeId> = self.tree.node(id).children.iter().rev().copied().collect();
        let mut seen = 0;
        while let Some(c) = stack.pop() {
            seen += 1;
            if seen > HINT_SEARCH_NODES {
                break;
            }
            let n = self.tree.node(c);
            if !n.name.is_empty() && n.role != Role::More {
                return Some(&n.name);
            }
            stack.extend(n.children.iter().rev().copied());
        }
        None
    }

    /// The nearest ancestor whose ref the snapshot shows (the page root does not count).
    fn anchor(&self, id: NodeId) -> Option<Ref> {
        let anchors = self.anchors.get_or_init(|| {
            let mut anchors = vec![None; self.tree.arena_len()];
            // Pre-order: a parent's entry is made before its children's. Each parent is
            // looked at once for all its children (`shows_ref` reads its children: asked per
            // child, a parent of 10,000 rows would be read 10,000 times).
            for (p, _) in self.tree.preorder() {
                let kids = &self.tree.node(p).children;
                if kids.is_empty() {
                    continue;
                }
                let anchor = if !self.is_elided_root(p) && self.shows_ref(p) {
                    self.tree.node(p).ref_id
                } else {
                    anchors[p.index()]
                };
                for k in kids {
                    anchors[k.index()] = anchor;
                }
            }
            anchors
        });
        anchors.get(id.index()).copied().flatten()
    }
}

/// How much a node reference says.
#[derive(Clone, Copy, PartialEq)]
enum Detail {
    /// Just enough to find it: `e12`, or role/name/anchor when its ref is not shown.
    Position,
    /// Also its role and name (`e12 button "Save"`), for what went or changed.
    Full,
    /// Role but no name (the name is part of the change shown).
    NoName,
}

/// Writes how the agent can recognize the node `r`, looked up in `first` then `second`.
fn push_node(out: &mut String, r: Ref, first: &Side, second: &Side, detail: Detail) {
    let found =
        first.by_ref.get(&r).map(|id| (first, *id)).or_else(|| second.by_ref.get(&r).map(|id| (second, *id)));
    let Some((side, id)) = found else {
        // Not in either tree: the diff is inconsistent with them; the ref is all there is.
        let _ = write!(out, "{r}");
        return;
    };
    if side.is_elided_root(id) {
        out.push_str("page");
        return;
    }
    let n = side.tree.node(id);
    if side.shows_ref(id) {
        let _ = write!(out, "{r}");
        if detail == Detail::Position {
            return;
        }
        out.push(' ');
        line::push_kind(out, n);
        if detail == Detail::Full && !n.name.is_empty() {
            out.push(' ');
            line::push_descriptor_name(out, &n.name);
        }
        return;
    }
    line::push_kind(out, n);
    if detail != Detail::NoName && !n.name.is_empty() {
        out.push(' ');
        line::push_descriptor_name(out, &n.name);
    } else if n.name.is_empty() {
        // An unnamed container ("paragraph") is told apart from its siblings by its text.
        if let Some(hint) = side.content_hint(id) {
            out.push_str(" with ");
            line::push_quoted(out, &line::clip(hint, HINT_CHARS));
        }
    }
    if let Some(a) = side.anchor(id) {
        let _ = write!(out, " in {a}");
    }
}

/// `e12` (or how to find it when its ref is not shown), looked up in `first` then `second`.
pub(super) fn push_node_position(out: &mut String, r: Ref, first: &Side, second: &Side) {
    push_node(out, r, first, second, Detail::Position);
}

/// Renders `diff` between `prev` and `next` as text.
pub(super) fn diff(diff: &Diff, prev: &Tree, next: &Tree) -> String {
    let p = Side::new(prev);
    let n = Side::new(next);
    let ctx = LineCtx::for_tree(next, None);
    let mut body = String::new();
    let mut shown = 0usize;
    let mut hidden_updates = 0usize;
    let groups = Groups::find(diff, &p, &n);
    let removals = Removals::find(diff, &p);
    // The last addition written (its parent and root ref) and where the body ended after it:
    // an addition right after it, under the same parent, goes under the same header.
    let mut added: Option<(Ref, Ref, usize)> = None;
    for (i, op) in diff.ops.iter().enumerate() {
        if groups.is_member(i) || removals.is_member(i) {
            continue;
        }
        if let Some(run) = removals.led_by(i) {
            run.write(&mut body, &p, &n);
            shown += run.len();
            continue;
        }
        let before = body.len();
        match op {
            Op::Update { r, changes } if groups.strips_obscured(i) => {
                let changes: Vec<FieldChange> = changes
                    .iter()
                    .cloned()
                    .map(|c| match c {
                        FieldChange::States { mut old, mut new } => {
                            old.set(State::Obscured, false);
                            new.set(State::Obscured, false);
                            FieldChange::States { old, new }
                        }
                        c => c,
                    })
                    .collect();
                push_update(&mut body, *r, &changes, &p, &n, &ctx);
            }
            Op::Add { parent, after, subtree } => {
                let root = subtree.root().and_then(|r| r.ref_id);
                let follows = added.is_some_and(|(par, last, end)| {
                    par == *parent && *after == Some(last) && end == body.len()
                });
                if !follows {
                    body.push_str("+ under ");
                    // The place is said as the agent was shown it (the old tree), never by what
                    // this addition brings into it: a parent named by its content would
                    // otherwise be named by the new part's text. One added by an earlier op
                    // is only in the new tree.
                    push_node(&mut body, *parent, &p, &n, Detail::Position);
                    // Where among its siblings only when it is not the last: "after" is for a
                    // reader, the op holds the place exactly.
                    let last = root.and_then(|r| n.by_ref.get(&r)).is_some_and(|id| {
                        let t = n.tree;
                        t.node(*id).parent.is_some_and(|par| t.node(par).children.last() == Some(id))
                    });
                    if !last {
                        push_after(&mut body, *after, &n, &p);
                    }
                    body.push_str(":\n");
                }
                if !subtree.nodes.is_empty() {
                    layout::write_subtree(&mut body, &Subtree::new(subtree), 0, 1, &ctx);
                }
                added = root.map(|r| (*parent, r, body.len()));
            }
            Op::Remove { r } => {
                body.push_str("- ");
                push_node(&mut body, *r, &p, &n, Detail::Full);
                body.push('\n');
            }
            Op::Update { r, changes } => push_update(&mut body, *r, changes, &p, &n, &ctx),
            Op::Move { r, parent, after } => {
                body.push_str("> ");
                push_node(&mut body, *r, &p, &n, Detail::Position);
                body.push_str(" to ");
                push_node(&mut body, *parent, &p, &n, Detail::Position);
                push_after(&mut body, *after, &n, &p);
                body.push('\n');
            }
            Op::Replace { r, subtree } if same_content(&p, *r, subtree, &ctx) => {
                // Made again with the same content (a re-render): only new refs are news,
                // and only those the agent sees.
                let old = p.by_ref.get(r).map(|id| p.tree.subtree(*id)).unwrap_or_default();
                for (o, nn) in old.iter().zip(&subtree.nodes) {
                    let (or, nr) = (p.tree.node(*o).ref_id, nn.node.ref_id);
                    if let (Some(or), Some(nr), true) = (or, nr, p.shows_ref(*o)) {
                        if or != nr {
                            body.push_str("~ ");
                            push_node(&mut body, or, &p, &n, Detail::Full);
                            let _ = writeln!(body, " is now {nr}");
                        }
                    }
                }
            }
            Op::Replace { r, subtree } => {
                // A text made again with new words reads as the change of its words.
                if let Some((named, old, new)) = leaf_for_leaf(&p, *r, subtree) {
                    let start = body.len();
                    body.push_str("~ ");
                    push_node(&mut body, named, &p, &n, Detail::NoName);
                    body.push_str(": ");
                    let (old, new) = short_change(old.trim(), new.trim());
                    line::push_quoted(&mut body, &bound::text(&old));
                    body.push_str(" -> ");
                    line::push_quoted(&mut body, &bound::text(&new));
                    bound::end_line(&mut body, start);
                    body.push('\n');
                } else {
                    body.push_str("= ");
                    push_node(&mut body, *r, &p, &n, Detail::Full);
                    body.push_str(" replaced by:\n");
                    if !subtree.nodes.is_empty() {
                        layout::write_subtree(&mut body, &Subtree::new(subtree), 0, 1, &ctx);
                    }
                }
            }
        }
        if body.len() > before {
            shown += 1;
        } else if matches!(op, Op::Update { .. } | Op::Replace { .. }) {
            // Changed only in what the text never shows (a carried ref's new native id, its
            // bounds): unchanged, as far as the reader can tell.
            hidden_updates += 1;
        }
    }
    // After the ops, so that a cover is introduced (added, or its update shown) before what
    // it covers is said.
    for g in groups.iter() {
        g.write(&mut body, &p, &n);
        shown += g.len();
    }
    let mut out = String::with_capacity(body.len() + 64);
    let changes = if shown == 1 { "change" } else { "changes" };
    let _ = writeln!(
        out,
        "# diff {} -> {}: {shown} {changes}, {} unchanged",
        diff.from_seq,
        diff.to_seq,
        diff.unchanged + hidden_updates
    );
    out.push_str(&body);
    out
}

/// ` after e13` or ` first`: the sibling looked up in the old tree first, like the parent.
fn push_after(out: &mut String, after: Option<Ref>, n: &Side, p: &Side) {
    match after {
        Some(a) => {
            out.push_str(" after ");
            push_node(out, a, p, n, Detail::Position);
        }
        None => out.push_str(" first"),
    }
}

/// `~ e7 textbox "Email": value "" -> "bob"; +invalid`, or nothing when no change is shown.
fn push_update(out: &mut String, r: Ref, changes: &[FieldChange], p: &Side, n: &Side, ctx: &LineCtx) {
    let node: Option<&Node> =
        p.by_ref.get(&r).map(|id| p.tree.node(*id)).or_else(|| n.by_ref.get(&r).map(|id| n.tree.node(*id)));
    let role = node.map(|n| n.role.clone()).unwrap_or(Role::Generic);
    let mut parts: Vec<String> = Vec::new();
    let mut renamed = false;
    for c in changes {
        let mut s = String::new();
        match c {
            FieldChange::Role { old, new } => {
                s.push_str("role ");
                line::push_role(&mut s, old);
                s.push_str(" -> ");
                line::push_role(&mut s, new);
            }
            FieldChange::Name { old, new } => {
                renamed = true;
                if role != Role::Text {
                    s.push_str("name ");
                }
                let (old, new) = short_change(old.trim(), new.trim());
                line::push_quoted(&mut s, &bound::text(&old));
                s.push_str(" -> ");
                line::push_quoted(&mut s, &bound::text(&new));
            }
            // A long text says only its changed span (`value appended "…"`).
            FieldChange::Value { old, new } => {
                if !text_change::push_long_change(&mut s, "value", old, new) {
                    push_opt_change(&mut s, "value", old, new);
                }
            }
            FieldChange::Description { old, new } => {
                if !text_change::push_long_change(&mut s, "desc", old, new) {
                    push_opt_change(&mut s, "desc", old, new);
                }
            }
            FieldChange::States { old, new } => push_states(&mut s, node, *old, *new),
            FieldChange::Level { old, new } if role == Role::Heading => {
                let _ = write!(s, "level {} -> {}", opt_num(*old), opt_num(*new));
            }
            // A link's new URL is news only where its line shows one: the text form leaves
            // out a named link's URL (Datasette rewrites every link's query on each page).
            FieldChange::Url { old, new }
                if role == Role::Document
                    || (role == Role::Link && [p, n].iter().any(|side| side.shows_url(r, ctx))) =>
            {
                s.push_str("url ");
                line::push_tail(
                    &mut s,
                    &bound::url(old.as_deref().map(|u| ctx.short_url(u)).unwrap_or("none")),
                );
                s.push_str(" -> ");
                line::push_tail(
                    &mut s,
                    &bound::url(new.as_deref().map(|u| ctx.short_url(u)).unwrap_or("none")),
                );
            }
            FieldChange::Options { new, .. } => {
                s.push_str("options now");
                line::push_options(&mut s, new);
            }
            FieldChange::Range { new, .. } => match new {
                Some(range) => {
                    let _ = write!(s, "range now {range}");
                }
                None => s.push_str("no range"),
            },
            FieldChange::Folded { old, new } => match (old, new) {
                (None, Some(f)) => {
                    s.push_str("now ");
                    line::push_folded(&mut s, f);
                }
                (Some(_), None) => s.push_str("no longer folded"),
                // A folded part whose size moved by less than a tenth says little (the
                // elements a dialog now covers, a counter): the JSON form has it.
                (Some(o), Some(f)) if o.tokens.abs_diff(f.tokens) * 10 < o.tokens.max(f.tokens) => {}
                (Some(o), Some(f)) if o.tokens != f.tokens => {
                    let (o, f) = (thousands(o.tokens as usize), thousands(f.tokens as usize));
                    let _ = write!(s, "folded part {o} -> {f} tokens");
                }
                (Some(_), Some(f)) => {
                    s.push_str("folded part now holds ");
                    s.push_str(&f.holds);
                }
                (None, None) => {}
            },
            // Not in the text form: programs get them in JSON.
            FieldChange::Level { .. }
            | FieldChange::Url { .. }
            | FieldChange::Actions { .. }
            | FieldChange::Bounds { .. }
            | FieldChange::DevId { .. }
            | FieldChange::Native { .. }
            | FieldChange::Flags { .. }
            // Only the JSON form's reading of a diff holds edits.
            | FieldChange::Edit { .. } => {}
        }
        if !s.is_empty() {
            parts.push(s);
        }
    }
    if parts.is_empty() {
        return;
    }
    let start = out.len();
    out.push_str("~ ");
    push_node(out, r, p, n, if renamed { Detail::NoName } else { Detail::Full });
    out.push_str(": ");
    out.push_str(&parts.join("; "));
    bound::end_line(out, start);
    out.push('\n');
}

/// Texts longer than this together are shown as their change with some context around it.
const LONG_CHANGE_CHARS: usize = 120;
/// Characters of unchanged context kept on each side of a change (to a word's edge).
const CHANGE_CONTEXT_CHARS: usize = 24;

/// `old` and `new` as shown in a change: whole when short, else the part that changed with up
/// to [`CHANGE_CONTEXT_CHARS`] of context on each side, cut at word edges and marked with `…`
/// (a long list item whose status word changed: `"…Status: open…" -> "…Status: closed…"`).
fn short_change(old: &str, new: &str) -> (String, String) {
    let (o, n): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    if o.len() + n.len() <= LONG_CHANGE_CHARS {
        return (old.to_string(), new.to_string());
    }
    let prefix = o.iter().zip(&n).take_while(|(a, b)| a == b).count();
    let max_suffix = o.len().min(n.len()) - prefix;
    let suffix = o.iter().rev().zip(n.iter().rev()).take(max_suffix).take_while(|(a, b)| a == b).count();
    // Context starts at a word edge at most CHANGE_CONTEXT_CHARS before the change.
    let mut from = prefix.saturating_sub(CHANGE_CONTEXT_CHARS);
    while from > 0 && from < prefix && !o[from - 1].is_whitespace() {
        from += 1;
    }
    let cut = |s: &[char], end_keep: usize| -> String {
        // `end_keep`: where the unchanged tail starts in `s`.
        let mut to = (end_keep + CHANGE_CONTEXT_CHARS).min(s.len());
        while to < s.len() && to > end_keep && !s[to].is_whitespace() {
            to -= 1;
        }
        let mut t = String::new();
        if from > 0 {
            t.push('…');
        }
        t.extend(&s[from..to]);
        if to < s.len() {
            t.push('…');
        }
        t
    };
    let (so, sn) = (cut(&o, o.len() - suffix), cut(&n, n.len() - suffix));
    // Not worth it when the change is most of the text.
    if so.chars().count() + sn.chars().count() + LONG_CHANGE_CHARS / 2 > o.len() + n.len() {
        return (old.to_string(), new.to_string());
    }
    (so, sn)
}

/// The old and new names when a replace puts one leaf without a shown ref for another of the
/// same role (a text node the page made again with other words), with the ref that names
/// the old leaf; also when the replaced node itself is unchanged and only its one leaf child
/// was made again (a file list item renamed).
fn leaf_for_leaf<'t>(
    p: &Side<'t>,
    r: Ref,
    subtree: &'t crate::diff::NewSubtree,
) -> Option<(Ref, &'t str, &'t str)> {
    let id = *p.by_ref.get(&r)?;
    let (old_id, new) = match subtree.nodes.as_slice() {
        [new] => (id, &new.node),
        [root, child] if child.depth == 1 => {
            let old = p.tree.node(id);
            let [c] = old.children.as_slice() else { return None };
            let (a, b) = (old, &root.node);
            // Being covered comes and goes with a cover, which says so itself.
            let (mut sa, mut sb) = (a.states, b.states);
            sa.set(State::Obscured, false);
            sb.set(State::Obscured, false);
            let same_root = a.ref_id == b.ref_id
                && a.role == b.role
                && a.name == b.name
                && a.value == b.value
                && sa == sb
                && a.actions == b.actions;
            if !same_root {
                return None;
            }
            (*c, &child.node)
        }
        _ => return None,
    };
    let old = p.tree.node(old_id);
    let plain = old.children.is_empty()
        && old.role == new.role
        && !p.shows_ref(old_id)
        && !line::shows_ref(new, false)
        && old.value == new.value
        && old.states == new.states
        && old.name != new.name;
    plain.then_some((old.ref_id?, old.name.as_str(), new.name.as_str()))
}

/// Whether a replace brings back the same content: the new subtree has the replaced node's
/// shape and every node's fields but refs, native ids, bounds and the URLs no line shows.
pub(super) fn same_content(p: &Side, r: Ref, subtree: &crate::diff::NewSubtree, ctx: &LineCtx) -> bool {
    let Some(&id) = p.by_ref.get(&r) else { return false };
    let old = p.tree.subtree(id);
    if old.len() != subtree.nodes.len() {
        return false;
    }
    // Depths below `id`, from the parents' (pre-order puts a parent first): no walk up.
    let mut depth: FxHashMap<NodeId, u32> =
        FxHashMap::with_capacity_and_hasher(old.len(), Default::default());
    old.iter().zip(&subtree.nodes).all(|(o, nn)| {
        let (a, b) = (p.tree.node(*o), &nn.node);
        let d = if *o == id { 0 } else { a.parent.and_then(|q| depth.get(&q)).map_or(u32::MAX, |d| d + 1) };
        depth.insert(*o, d);
        d == nn.depth
            && a.role == b.role
            && a.name == b.name
            && a.value == b.value
            && a.description == b.description
            && a.states == b.states
            && a.actions == b.actions
            && a.level == b.level
            && (a.url == b.url || (line::shown_url(a, ctx).is_none() && line::shown_url(b, ctx).is_none()))
            && a.options == b.options
            && crate::ValueRange::same(&a.range, &b.range)
    })
}

fn push_opt_change(s: &mut String, field: &str, old: &Option<String>, new: &Option<String>) {
    // A new value past the cap says where to read on, as a snapshot's line does.
    fn cap<'a>(field: &str, t: &'a str) -> std::borrow::Cow<'a, str> {
        if field == "value" {
            bound::value(t)
        } else {
            bound::text(t)
        }
    }
    s.push_str(field);
    s.push(' ');
    match old {
        Some(o) => line::push_quoted(s, &bound::text(o)),
        None => s.push_str("none"),
    }
    s.push_str(" -> ");
    match new {
        Some(v) => line::push_quoted(s, &cap(field, v)),
        None => s.push_str("none"),
    }
}

/// `+checked -mixed`, over the states the text form shows.
pub(super) fn push_states(s: &mut String, node: Option<&Node>, old: StateSet, new: StateSet) {
    let mut probe = node.cloned().unwrap_or_default();
    for (set, sign) in [(new, '+'), (old, '-')] {
        let other = if sign == '+' { old } else { new };
        probe.states = set;
        let shown: Vec<_> = line::shown_states(&probe).filter(|f| !other.contains(*f)).collect();
        for f in shown {
            if !s.is_empty() {
                s.push(' ');
            }
            let _ = write!(s, "{sign}{f}");
        }
    }
}

fn opt_num(n: Option<u32>) -> String {
    n.map_or_else(|| "none".to_string(), |n| n.to_string())
}
