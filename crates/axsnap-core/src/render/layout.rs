//! Which nodes of a subtree get lines of their own, and at what depth: the walk that writes
//! a subtree as lines, and the same walk costing each line for the outline.
//!
//! A node's children are drawn on its line when they are an inline run ([`inline_tail`]); a
//! list item's first children when they are one and the rest are not (`* [Getting
//! Started](e8)` over its sub-list); and a plain list whose items are all bullets has no
//! line of its own: its bullets are drawn where it stands, as in Markdown. Both cost a line
//! and an indent for what the bullets already say (1.3% of a book chapter, whose table of
//! contents nests lists five deep).

use std::collections::HashMap;

use super::inline::inline_tail;
use super::line::{is_bullet, shows_ref, write_line, LineCtx, Source};
use super::row::row_tail;
use crate::role::Role;
use crate::tree::{NodeId, Tree};

/// How a node's line is drawn: its inline tail, and how many of its first children that
/// tail holds (all of them, some of a list item's, or none).
struct LineTail {
    tail: Option<String>,
    lead: usize,
}

/// The inline tail of `id`'s line ([`LineTail`]).
fn line_tail<'a, S: Source<'a>>(src: &S, id: S::Id, kids: &[S::Id], ctx: &LineCtx) -> LineTail {
    if let Some(tail) = inline_tail(src, id, kids, ctx).or_else(|| row_tail(src, id, kids, ctx)) {
        return LineTail { tail: Some(tail), lead: kids.len() };
    }
    // A list item's leading run (its link, then its sub-list) goes on the bullet's line.
    let n = src.node(id);
    if n.role == Role::ListItem && is_bullet(n, false, true) {
        let lead = kids
            .iter()
            .take_while(|&&k| {
                matches!(src.node(k).role, Role::Text | Role::Link | Role::Code | Role::Generic)
            })
            .count();
        if lead > 0 && lead < kids.len() {
            if let Some(tail) = inline_tail(src, id, &kids[..lead], ctx) {
                return LineTail { tail: Some(tail), lead };
            }
        }
    }
    LineTail { tail: None, lead: 0 }
}

/// Whether `kids[i]` is a plain list drawn without a line: unnamed, nothing to show, every
/// item a bullet, and no list beside it (two lists side by side stay two).
fn is_silent_list<'a, S: Source<'a>>(src: &S, kids: &[S::Id], i: usize) -> bool {
    let k = kids[i];
    let n = src.node(k);
    if n.role != Role::List {
        return false;
    }
    let items = src.children(k);
    let beside_a_list =
        |j: Option<usize>| j.and_then(|j| kids.get(j)).is_some_and(|&s| src.node(s).role == Role::List);
    !items.is_empty()
        && n.name.is_empty()
        && n.value.is_none()
        && n.description.is_none()
        && n.folded.is_none()
        && !shows_ref(n, false)
        && !beside_a_list(i.checked_sub(1))
        && !beside_a_list(Some(i + 1))
        && items.iter().all(|&it| {
            let grandkids = src.children(it);
            let holds_more = grandkids.iter().any(|g| src.node(*g).role == Role::More);
            is_bullet(src.node(it), holds_more, !grandkids.is_empty())
        })
}

/// Pushes `kids` (children drawn as lines) at `depth` on a stack popped in document order; a
/// silent list's items in its place. Returns the silent lists.
fn push_kids<'a, S: Source<'a>>(
    src: &S,
    kids: &[S::Id],
    depth: usize,
    stack: &mut Vec<(S::Id, usize)>,
) -> Vec<S::Id> {
    let mut silent = Vec::new();
    for i in (0..kids.len()).rev() {
        if is_silent_list(src, kids, i) {
            silent.push(kids[i]);
            stack.extend(src.children(kids[i]).into_iter().rev().map(|c| (c, depth)));
        } else {
            stack.push((kids[i], depth));
        }
    }
    silent
}

/// Writes the subtree at `root` as lines, the root at `depth`. Iterative.
pub(super) fn write_subtree<'a, S: Source<'a>>(
    out: &mut String,
    src: &S,
    root: S::Id,
    depth: usize,
    ctx: &LineCtx,
) {
    let mut stack = vec![(root, depth)];
    while let Some((id, d)) = stack.pop() {
        let kids = src.children(id);
        let holds_more = kids.iter().any(|k| src.node(*k).role == Role::More);
        let LineTail { tail, lead } = line_tail(src, id, &kids, ctx);
        let has_content = !kids.is_empty();
        write_line(out, src.node(id), d, ctx, holds_more, tail.as_deref(), has_content);
        push_kids(src, &kids[lead..], d + 1, &mut stack);
    }
}

/// [`write_subtree`] for a page a modal dialog covers: a run of siblings whose every shown ref
/// is behind it (`behind` gives a subtree's count of them) is one line, `fold_line(count)`.
pub(super) fn write_subtree_behind(
    out: &mut String,
    tree: &Tree,
    root: NodeId,
    depth: usize,
    ctx: &LineCtx,
    behind: &dyn Fn(NodeId) -> Option<u32>,
    fold_line: &dyn Fn(u32) -> String,
) {
    if let Some(count) = behind(root) {
        push_fold(out, depth, &fold_line(count));
        return;
    }
    let src = tree;
    let mut stack = vec![(root, depth)];
    // A run's first node stands for the run: its line is the fold's.
    let mut runs: HashMap<NodeId, u32> = HashMap::new();
    while let Some((id, d)) = stack.pop() {
        if let Some(count) = runs.remove(&id) {
            push_fold(out, d, &fold_line(count));
            continue;
        }
        let kids = src.children(id);
        let holds_more = kids.iter().any(|k| src.node(*k).role == Role::More);
        let LineTail { tail, lead } = line_tail(&src, id, &kids, ctx);
        write_line(out, src.node(id), d, ctx, holds_more, tail.as_deref(), !kids.is_empty());
        // The children drawn as lines, each run of folded ones down to its first.
        let mut shown: Vec<NodeId> = Vec::with_capacity(kids.len() - lead);
        let mut run: Option<(NodeId, u32)> = None;
        for &k in &kids[lead..] {
            match (behind(k), run.as_mut()) {
                (Some(c), Some((_, total))) => *total += c,
                (Some(c), None) => {
                    run = Some((k, c));
                    shown.push(k);
                }
                (None, _) => {
                    runs.extend(run.take());
                    shown.push(k);
                }
            }
        }
        runs.extend(run);
        for i in (0..shown.len()).rev() {
            let k = shown[i];
            if !runs.contains_key(&k) && is_silent_list(&src, &shown, i) {
                stack.extend(src.children(k).into_iter().rev().map(|c| (c, d + 1)));
            } else {
                stack.push((k, d + 1));
            }
        }
    }
}

/// Writes a fold's line at `depth`.
fn push_fold(out: &mut String, depth: usize, line: &str) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(line);
    out.push('\n');
}

/// What one node costs in the text form, for the outline's sizing ([`line_costs`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LineCost {
    /// cl100k tokens of the node's own line(s), with its inline tail; 0 for a node not drawn
    /// on a line of its own (a silent list).
    pub tokens: u32,
    /// Whether the node was reached by the walk; its children after `lead` then are drawn
    /// as lines.
    pub drawn: bool,
    /// How many of its first children are drawn on its line (all of an inline run).
    pub lead: u32,
    /// Tokens of the line drawn folded (no inline tail, its ref shown), without the
    /// `… folded N tokens` suffix.
    pub folded: u32,
}

/// The cost of each node's line in the text form of `tree` drawn from `roots` (indexed by
/// arena index), as [`write_subtree`] would draw each at `depth`. One walk; each line is
/// tokenized on its own, which counts within a few percent of the whole text.
pub(crate) fn line_costs(tree: &Tree, roots: &[NodeId], depth: usize, ctx: &LineCtx) -> Vec<LineCost> {
    let mut costs = vec![LineCost::default(); tree.arena_len()];
    let mut stack: Vec<(NodeId, usize)> = roots.iter().rev().map(|&r| (r, depth)).collect();
    let mut buf = String::new();
    let src = tree;
    while let Some((id, d)) = stack.pop() {
        let kids = src.children(id);
        let holds_more = kids.iter().any(|k| src.node(*k).role == Role::More);
        let LineTail { tail, lead } = line_tail(&src, id, &kids, ctx);
        let n = src.node(id);
        buf.clear();
        write_line(&mut buf, n, d, ctx, holds_more, tail.as_deref(), !kids.is_empty());
        let tokens = count_line(&buf);
        let folded = if kids.is_empty() {
            tokens
        } else {
            buf.clear();
            write_line(&mut buf, n, d, ctx, true, None, true);
            count_line(&buf)
        };
        costs[id.index()] = LineCost { tokens, drawn: true, lead: lead as u32, folded };
        for list in push_kids(&src, &kids[lead..], d + 1, &mut stack) {
            // Folded, it would have its line (with its ref) back.
            buf.clear();
            write_line(&mut buf, src.node(list), d + 1, ctx, true, None, true);
            let folded = count_line(&buf);
            costs[list.index()] = LineCost { tokens: 0, drawn: true, lead: 0, folded };
        }
    }
    costs
}

/// cl100k tokens of one drawn line.
fn count_line(line: &str) -> u32 {
    crate::tokens::count_cl100k_line(line) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refs::Ref;
    use crate::state::{Action, State};
    use crate::tree::{NativeId, Node};

    fn nd(role: Role, name: &str, id: &str) -> Node {
        Node::new(role, name, NativeId::new("d", id))
    }

    fn render(t: &Tree) -> String {
        let mut s = String::new();
        write_subtree(&mut s, &t, t.root().unwrap(), 0, &LineCtx::for_tree(t, Some("https://a.example/")));
        s
    }

    /// A list of `items` under `parent`, each a link (refs from `first`), the item named
    /// `nested` holding a sub-list of one link.
    fn list(t: &mut Tree, parent: NodeId, items: &[&str], first: u32) -> NodeId {
        let ul = t.append(parent, nd(Role::List, "", &format!("ul{first}")));
        for (i, name) in items.iter().enumerate() {
            let li = t.append(ul, nd(Role::ListItem, "", &format!("li{first}-{i}")));
            let mut a = nd(Role::Link, name, &format!("a{first}-{i}"));
            a.ref_id = Some(Ref(first + i as u32));
            a.actions = [Action::Click].into_iter().collect();
            t.append(li, a);
            if name.starts_with("Nested") {
                list(t, li, &["Inner"], first + 100);
            }
        }
        ul
    }

    #[test]
    fn nested_lists_of_bullets_read_as_markdown() {
        let mut t = Tree::with_root(nd(Role::Navigation, "Contents", "nav"));
        let nav = t.root().unwrap();
        list(&mut t, nav, &["One", "Nested two"], 1);
        assert_eq!(
            render(&t),
            "navigation \"Contents\"\n  * [One](e1)\n  * [Nested two](e2)\n    * [Inner](e101)\n"
        );
    }

    #[test]
    fn lists_keep_their_line_where_they_say_something() {
        // Two lists side by side stay two.
        let mut t = Tree::with_root(nd(Role::Navigation, "", "nav"));
        let nav = t.root().unwrap();
        list(&mut t, nav, &["A"], 1);
        list(&mut t, nav, &["B"], 2);
        assert_eq!(render(&t), "navigation\n  list\n    * [A](e1)\n  list\n    * [B](e2)\n");
        // A named list, and a list whose item is not a plain bullet.
        let mut t = Tree::with_root(nd(Role::Navigation, "", "nav"));
        let nav = t.root().unwrap();
        let ul = list(&mut t, nav, &["A"], 1);
        t.node_mut(ul).name = "Chapters".into();
        assert!(render(&t).contains("  list \"Chapters\"\n"), "{}", render(&t));
        t.node_mut(ul).name.clear();
        let li = t.node(ul).children[0];
        t.node_mut(li).states.set(State::Selected, true);
        assert!(render(&t).contains("  list\n"), "{}", render(&t));
    }

    #[test]
    fn the_outline_costs_a_silent_list_nothing_and_its_items_where_they_are_drawn() {
        let mut t = Tree::with_root(nd(Role::Navigation, "Contents", "nav"));
        let nav = t.root().unwrap();
        let ul = list(&mut t, nav, &["One", "Nested two"], 1);
        let ctx = LineCtx::for_tree(&t, None);
        let costs = line_costs(&t, &[nav], 0, &ctx);
        assert_eq!((costs[ul.index()].tokens, costs[ul.index()].drawn), (0, true));
        assert!(costs[ul.index()].folded > 0, "folded, the list has its line back");
        // The nested item's line holds its link; its sub-list is not on it.
        let nested = t.node(ul).children[1];
        assert_eq!(costs[nested.index()].lead, 1);
        let total: u32 = costs.iter().map(|c| c.tokens).sum();
        let whole = crate::tokens::count_cl100k(&render(&t)) as u32;
        assert!(total.abs_diff(whole) <= whole / 10, "{total} against {whole}");
    }
}
