//! Computing a diff: match by ref, decide each node's ops in linear passes over the two
//! pre-order layouts, then emit them in document order of the next tree.
//!
//! The ordering rules that make the ops replay exactly are in the module docs of
//! [`crate::diff`]; the comments here say which pass establishes which part.

use super::fields::{self, detached};
use super::flat::{Flat, NONE};
use super::lis::longest_increasing;
use super::{Diff, DiffError, FieldChange, NewNode, NewSubtree, Op};
use crate::tree::{Node, Tree};

/// The diff from `prev` to `next`. Both trees must have a ref on every reachable node, unique
/// within the tree, and the same root ref. Runs in O(n log n) time (the log from sibling
/// reorders) and never recurses.
pub fn diff(prev: &Tree, next: &Tree) -> Result<Diff, DiffError> {
    let p = Flat::build(prev, "prev")?;
    let n = Flat::build(next, "next")?;
    if p.refs[0] != n.refs[0] {
        return Err(DiffError::RootChanged { prev: p.refs[0], next: n.refs[0] });
    }
    Ok(Plan::new(&p, &n).emit())
}

/// Everything decided about the two trees before ops are written out.
struct Plan<'a, 't> {
    p: &'a Flat<'t>,
    n: &'a Flat<'t>,
    /// Next position -> prev position of the same ref, or NONE for a new node.
    to_prev: Vec<u32>,
    /// Prev position -> next position, or NONE for a removed node.
    to_next: Vec<u32>,
    /// Field changes of kept nodes (by next position).
    changes: Vec<Vec<FieldChange>>,
    /// Kept node whose parent ref differs (by next position).
    reparented: Vec<bool>,
    /// Kept node that gets a Move.
    moved: Vec<bool>,
    /// Kept node whose subtree is replaced whole.
    replaced: Vec<bool>,
    /// New node that replaces this removed prev node (prev position, or NONE).
    replaces: Vec<u32>,
    /// Prev node inside a replaced subtree (below its root): it needs no op of its own.
    absorbed: Vec<bool>,
    /// Topmost removed nodes with their place in the op order: (next position after whose
    /// ops the remove goes, prev position).
    removes: Vec<(u32, u32)>,
}

impl<'a, 't> Plan<'a, 't> {
    fn new(p: &'a Flat<'t>, n: &'a Flat<'t>) -> Plan<'a, 't> {
        let to_prev: Vec<u32> = n.refs.iter().map(|r| p.index.get(*r)).collect();
        let mut to_next = vec![NONE; p.len()];
        for (i, &j) in to_prev.iter().enumerate() {
            if j != NONE {
                to_next[j as usize] = i as u32;
            }
        }
        let mut plan = Plan {
            p,
            n,
            changes: vec![Vec::new(); n.len()],
            reparented: vec![false; n.len()],
            moved: vec![false; n.len()],
            replaced: vec![false; n.len()],
            replaces: vec![NONE; n.len()],
            absorbed: vec![false; p.len()],
            removes: Vec::new(),
            to_prev,
            to_next,
        };
        plan.compare_kept();
        plan.choose_replaced();
        plan.choose_moves();
        plan.place_removes();
        plan
    }

    fn kept(&self, i: u32) -> bool {
        self.to_prev[i as usize] != NONE
    }

    fn next_node(&self, i: u32) -> &'t Node {
        self.n.tree.node(self.n.ids[i as usize])
    }

    /// Field changes and re-parenting of every kept node.
    fn compare_kept(&mut self) {
        for i in 0..self.n.len() {
            let j = self.to_prev[i];
            if j == NONE {
                continue;
            }
            let old = self.p.tree.node(self.p.ids[j as usize]);
            self.changes[i] = fields::changes(old, self.next_node(i as u32));
            if i != 0 {
                let old_parent = self.p.parent[j as usize];
                self.reparented[i] =
                    old_parent == NONE || self.to_next[old_parent as usize] != self.n.parent[i];
            }
        }
    }

    /// Picks the kept nodes whose subtree is sent whole (see the module docs).
    ///
    /// Costs are counted in ops plus re-sent nodes. Without a replace, a subtree costs its
    /// fine-grained ops: an update per changed node, a move per re-parented one, an add per
    /// new node under a kept one, a remove per removed node under a kept one (sibling
    /// reorders are left out: they cost the same either way). A replace costs one op plus its
    /// kept nodes re-sent (new nodes are sent either way), plus the node's own move. A
    /// bottom-up pass keeps, per subtree, the cheaper of the two given the best choice below;
    /// a top-down pass then takes the replaces that choice made.
    fn choose_replaced(&mut self) {
        let (p, n) = (self.p, self.n);
        // Prev side: kept and removed nodes per subtree, removed children per kept node.
        let mut kept_p = vec![0u32; p.len()];
        let mut removed_p = vec![0u32; p.len()];
        let mut removed_children = vec![0u32; p.len()];
        for j in (0..p.len()).rev() {
            let par = p.parent[j];
            if self.to_next[j] != NONE {
                kept_p[j] += 1;
            } else {
                removed_p[j] += 1;
                if par != NONE && self.to_next[par as usize] != NONE {
                    removed_children[par as usize] += 1;
                }
            }
            if par != NONE {
                kept_p[par as usize] += kept_p[j];
                removed_p[par as usize] += removed_p[j];
            }
        }
        // Next side, bottom-up: kept and new counts, the range of prev positions of the kept
        // nodes, and the best cost of each subtree.
        let mut kept_n = vec![0u32; n.len()];
        let mut new_n = vec![0u32; n.len()];
        let mut min_p = vec![NONE; n.len()];
        let mut max_p = vec![0u32; n.len()];
        let mut below = vec![0u64; n.len()];
        let mut pick = vec![false; n.len()];
        for i in (0..n.len()).rev() {
            let j = self.to_prev[i];
            let mut best = below[i];
            if j != NONE {
                let ju = j as usize;
                kept_n[i] += 1;
                min_p[i] = min_p[i].min(j);
                max_p[i] = max_p[i].max(j);
                let own_move = u64::from(self.reparented[i]);
                // An update that only renews the native id (a navigation carried the ref) or
                // moves bounds costs a model nothing to read: it must not tip a subtree into a
                // replace, or a navigation would re-send the page's unchanged chrome.
                let shown = self.changes[i].iter().any(|c| {
                    !matches!(
                        c,
                        super::FieldChange::Native { .. }
                            | super::FieldChange::Bounds { .. }
                            | super::FieldChange::Flags { .. }
                    )
                });
                let fine = best + u64::from(shown) + own_move + u64::from(removed_children[ju]);
                best = fine;
                // No kept node crosses the subtree's border: as many kept nodes on both
                // sides, and every next-side one comes from inside the prev-side range.
                let closed = kept_n[i] == kept_p[ju] && min_p[i] >= j && max_p[i] < p.end(j);
                let structural = new_n[i] + removed_p[ju] > 0;
                let whole = 1 + u64::from(kept_n[i]) + own_move;
                if closed && structural && whole < fine {
                    pick[i] = true;
                    best = whole;
                }
            } else {
                new_n[i] += 1;
                best += u64::from(self.kept(n.parent[i]));
            }
            let par = n.parent[i];
            if par != NONE {
                let par = par as usize;
                kept_n[par] += kept_n[i];
                new_n[par] += new_n[i];
                min_p[par] = min_p[par].min(min_p[i]);
                max_p[par] = max_p[par].max(max_p[i]);
                below[par] += best;
            }
        }
        let mut i = 0u32;
        while (i as usize) < n.len() {
            let iu = i as usize;
            if pick[iu] {
                self.replaced[iu] = true;
                let j = self.to_prev[iu] as usize;
                for a in &mut self.absorbed[j + 1..p.end(j as u32) as usize] {
                    *a = true;
                }
                i = n.end(i);
            } else {
                i += 1;
            }
        }
    }

    /// Which kept nodes move: all re-parented ones, and among the kept children that stay
    /// under the same parent, those outside a longest run already in prev order.
    fn choose_moves(&mut self) {
        let n = self.n;
        let mut keys: Vec<u32> = Vec::new();
        let mut who: Vec<u32> = Vec::new();
        let mut i = 0u32;
        while (i as usize) < n.len() {
            if self.replaced[i as usize] {
                // Its children are inside the replaced subtree.
                i = n.end(i);
                continue;
            }
            keys.clear();
            who.clear();
            for c in n.children(i) {
                let cu = c as usize;
                if !self.kept(c) {
                    continue;
                }
                if self.reparented[cu] {
                    self.moved[cu] = true;
                } else {
                    keys.push(self.to_prev[cu]);
                    who.push(c);
                }
            }
            for (c, stays) in who.iter().zip(longest_increasing(&keys)) {
                self.moved[*c as usize] = !stays;
            }
            i += 1;
        }
    }

    /// Places each topmost removed node's Remove, or pairs it with a new node in its place.
    fn place_removes(&mut self) {
        let (p, n) = (self.p, self.n);
        // Latest next position (plus one; 0 for none) of a kept node not inside a replaced
        // subtree, per prev subtree: a Remove must come after the Moves taking them out.
        let mut latest = vec![0u32; p.len()];
        let mut has_kept = vec![false; p.len()];
        for j in (0..p.len()).rev() {
            let k = self.to_next[j];
            if k != NONE {
                has_kept[j] = true;
                if !self.absorbed[j] {
                    latest[j] = latest[j].max(k + 1);
                }
            }
            let par = p.parent[j];
            if par != NONE {
                latest[par as usize] = latest[par as usize].max(latest[j]);
                has_kept[par as usize] |= has_kept[j];
            }
        }
        for j in 1..p.len() {
            if self.to_next[j] != NONE || self.absorbed[j] {
                continue;
            }
            let np = self.to_next[p.parent[j] as usize];
            if np == NONE {
                continue; // under a removed node: goes with it
            }
            if !has_kept[j] {
                let y = self.same_place(j as u32, np);
                // Only a node of the same kind stands in: a toolbar is not "replaced by" the
                // text that appeared next to it.
                if y != NONE
                    && !self.kept(y)
                    && self.replaces[y as usize] == NONE
                    && self.next_node(y).role == p.tree.node(p.ids[j]).role
                {
                    self.replaces[y as usize] = j as u32;
                    continue;
                }
            }
            let after_moves = latest[j].saturating_sub(1);
            self.removes.push((np.max(after_moves), j as u32));
        }
        self.removes.sort_unstable();
        let _ = n;
    }

    /// The next node that, when prev node `j` (under the kept node now at `np`) is taken out,
    /// lands where `j` stood: the first child of `np` if `j` was first, or the node following
    /// `j`'s previous sibling if that sibling stays put under the same parent. NONE otherwise.
    fn same_place(&self, j: u32, np: u32) -> u32 {
        let (p, n) = (self.p, self.n);
        let a = p.prev_sib[j as usize];
        if a == NONE {
            return if n.size[np as usize] > 1 { np + 1 } else { NONE };
        }
        let na = self.to_next[a as usize];
        if na == NONE || n.parent[na as usize] != np || self.moved[na as usize] {
            return NONE;
        }
        n.next_sib(na)
    }

    /// Writes the ops out in pre-order of the next tree.
    fn emit(mut self) -> Diff {
        let (p, n) = (self.p, self.n);
        let mut ops = Vec::new();
        let mut unchanged = 0usize;
        let mut next_remove = 0usize;
        let mut i = 0u32;
        while (i as usize) < n.len() {
            let iu = i as usize;
            let mut step = i + 1;
            if !self.kept(i) {
                let parent = n.parent[iu];
                if self.kept(parent) {
                    let subtree = self.new_only_subtree(i);
                    let stand_in = self.replaces[iu];
                    ops.push(if stand_in != NONE {
                        Op::Replace { r: p.refs[stand_in as usize], subtree }
                    } else {
                        Op::Add { parent: n.refs[parent as usize], after: self.sibling_before(i), subtree }
                    });
                }
                // A new node under a new node travels in its ancestor's subtree.
            } else {
                if self.moved[iu] {
                    ops.push(Op::Move {
                        r: n.refs[iu],
                        parent: n.refs[n.parent[iu] as usize],
                        after: self.sibling_before(i),
                    });
                }
                if self.replaced[iu] {
                    ops.push(Op::Replace { r: n.refs[iu], subtree: self.whole_subtree(i) });
                    step = n.end(i);
                } else if !self.changes[iu].is_empty() {
                    ops.push(Op::Update { r: n.refs[iu], changes: std::mem::take(&mut self.changes[iu]) });
                } else if !self.moved[iu] {
                    unchanged += 1;
                }
            }
            while next_remove < self.removes.len() && self.removes[next_remove].0 <= i {
                ops.push(Op::Remove { r: p.refs[self.removes[next_remove].1 as usize] });
                next_remove += 1;
            }
            i = step;
        }
        for &(_, j) in &self.removes[next_remove..] {
            ops.push(Op::Remove { r: p.refs[j as usize] });
        }
        Diff { from_seq: 0, to_seq: 0, ops, unchanged }
    }

    fn sibling_before(&self, i: u32) -> Option<crate::Ref> {
        let s = self.n.prev_sib[i as usize];
        (s != NONE).then(|| self.n.refs[s as usize])
    }

    /// New node `i` and its descendants reachable through new nodes only.
    fn new_only_subtree(&self, i: u32) -> NewSubtree {
        let n = self.n;
        let base = n.depth[i as usize];
        let mut nodes = Vec::new();
        let mut stack = vec![i];
        let mut kids: Vec<u32> = Vec::new();
        while let Some(c) = stack.pop() {
            nodes.push(NewNode { depth: n.depth[c as usize] - base, node: detached(self.next_node(c)) });
            kids.clear();
            kids.extend(n.children(c).filter(|k| !self.kept(*k)));
            stack.extend(kids.iter().rev());
        }
        NewSubtree { nodes }
    }

    /// Node `i`'s whole next subtree.
    fn whole_subtree(&self, i: u32) -> NewSubtree {
        let n = self.n;
        let base = n.depth[i as usize];
        let nodes = (i..n.end(i))
            .map(|c| NewNode { depth: n.depth[c as usize] - base, node: detached(self.next_node(c)) })
            .collect();
        NewSubtree { nodes }
    }
}
