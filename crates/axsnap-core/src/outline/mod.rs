//! Outlines: a snapshot that fits a token budget without silently dropping anything.
//!
//! A page whose text form is over the budget is sent as an outline of itself: the same tree
//! with some parts *folded*. A folded node keeps its line, with its ref and what it left out
//! (`navigation [e2] … folded 3,400 tokens: 310 links`), and `snapshot ref=e2` opens it. On
//! documentation pages content runs flat under one parent, sectioned by headings, so a heading
//! also folds its *section* (the siblings after it, up to the next heading of its level or
//! above): `h2 "Numeric Types" [e412] … folded 2,345 tokens: 12 links`, and
//! its ref opens that section ([`section`]).
//!
//! What an outline shows, in order, while it fits:
//! 1. always: the top surface (the last modal dialog, else open menu or alert), landmarks, and
//!    the interactive elements of the viewport; then headings, level by level (h1, h2, ...),
//!    while the outline stays within [`SKELETON_SHARE`] of the budget;
//! 2. folds too big to open in one answer are opened, largest first, while the skeleton's
//!    share lasts, so that each fold left opens whole in one call (or as an outline whose
//!    folds do): every part of a page is a call or two away;
//! 3. then, in document order, the parts left folded, each shown whole when it fits, else
//!    opened (its line, its parts folded) and filled the same way, until one does not fit.
//!
//! Everything a fold leaves out is under exactly one folded line, so an outline and the
//! sections its folds open hold every node of the page once (`tests/outline_props.rs`). The
//! outline is a deterministic function of the tree and the budget: the same page gives the
//! same outline, so diffs between outlines stay small. When even the first level of folds is
//! over the budget (a table of thousands of rows), the first parts are shown whole and the
//! tail is cut into one `… N more parts` line that says where it starts, `snapshot ref=e2
//! from=318`: [`subtree_from`] and [`outline_from`] show the rest, a page at a time, each part
//! on exactly one page; `find` still searches the whole page.

use crate::render::{line_costs, LineCost, LineCtx};
use crate::role::Role;
use crate::state::State;
use crate::tree::{Node, NodeId, Tree};

mod emit;
mod section;

pub use emit::{subtree, subtree_from};
pub use section::{section, section_level};

use emit::{bare, copy_subtree};
use section::heading_level;

/// The default budget, in cl100k tokens: well inside the 25,000 that common MCP clients
/// accept for one tool result, with room for the rest of the answer.
pub const DEFAULT_MAX_TOKENS: usize = 10_000;

/// Share of the budget the always-shown skeleton (landmarks, viewport controls, headings) may
/// take; the rest is for content in document order.
pub const SKELETON_SHARE: f64 = 0.75;

/// Share of the budget the first parts of the one fold that would hold nearly everything
/// take when it is opened with a `… N more parts … from=K` line for the rest: fixed, so the
/// cut does not move with the rest of the page.
pub const FIRST_PARTS_SHARE: f64 = 0.6;

/// Tokens set aside for the lines around the tree (the header, the outline's note).
const RESERVE: u32 = 120;

/// Tokens a fold's ` … folded 2,345 tokens: 12 links, 3 headings` costs, about.
const FOLD_SUFFIX: u32 = 14;

/// An outline of a tree.
#[derive(Clone, Debug)]
pub struct Outline {
    /// The tree as shown: folded nodes carry [`Node::folded`] and have lost what they fold.
    pub tree: Tree,
    /// Folded parts.
    pub folds: usize,
    /// Nodes of the page under folds (not in `tree`).
    pub folded_nodes: usize,
    /// Parts cut into the closing `… N more parts` line: the root's (a part with thousands of
    /// children), or those of the one element the outline opened with its first parts.
    pub cut: usize,
}

/// How one unit is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Show {
    /// Its line and everything under it.
    Whole,
    /// Its line; its parts each shown their own way.
    Open,
    /// Its line, marked folded; nothing under it.
    Fold,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A node and its drawn children.
    Node,
    /// A heading (its `members[0]`, a `Node` unit) and the siblings after it up to the next
    /// heading of its level or above.
    Section,
}

#[derive(Clone, Debug)]
struct Unit {
    kind: Kind,
    head: NodeId,
    /// How many of the head's first children its line holds (a `Node`'s inline run): shown
    /// with it, never units of their own.
    lead: u32,
    members: Vec<usize>,
    /// Tokens of the head's own line (`Node`), 0 for a section (its heading is a member).
    own: u32,
    /// Tokens of the unit shown folded.
    fold: u32,
    /// Tokens of the unit shown whole.
    size: u64,
    /// Always shown (at the current tier).
    must: bool,
    /// It or a part of it is always shown.
    needs: bool,
}

/// The units of a tree: the drawn nodes, with headings' sections grouped.
struct Units {
    units: Vec<Unit>,
    root: usize,
    /// Which nodes head a section (by arena index): their ref opens the section, so they never
    /// fold themselves.
    headings: Vec<bool>,
}

/// Outlines `tree` (a snapshot tree, refs assigned) to fit `budget` cl100k tokens of text.
/// `page_url` is the page's URL, as the renderer shortens links with it. A tree that fits is
/// returned whole (`folds == 0`).
pub fn outline(tree: &Tree, page_url: Option<&str>, budget: usize) -> Outline {
    outline_from(tree, page_url, budget, 0)
}

/// [`outline`] of a part whose root shows its element's children from index `from` on
/// ([`subtree_from`]): the cut line's `from=` counts from the element's first child.
pub fn outline_from(tree: &Tree, page_url: Option<&str>, budget: usize, from: usize) -> Outline {
    outline_within(tree, page_url, Fitting { room: budget, budget, from, kept: None })
}

/// Where an earlier outline of the same document cut the one big fold it opened with its first
/// parts ([`kept_of`]): the element, and how many of its children came before the cut line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    /// The element whose first parts were shown.
    pub host: crate::tree::NativeId,
    /// Its children shown before the cut (the cut line's `from=`).
    pub children: usize,
}

/// The cut an outline (as shown) made in one big fold it opened, if any: what the next outline
/// of the same document keeps while it still fits ([`outline_within`]).
pub fn kept_of(shown: &Tree) -> Option<Kept> {
    let root = shown.root()?;
    shown.preorder().map(|(id, _)| id).find_map(|id| {
        let n = shown.node(id);
        let parent = n.parent?;
        let is_cut = n.role == Role::More
            && n.native.scope == crate::project::SYNTHETIC_SCOPE
            && n.native.id == emit::REST_ID;
        (is_cut && parent != root).then(|| Kept {
            host: shown.node(parent).native.clone(),
            children: shown.node(parent).children.len().saturating_sub(1),
        })
    })
}

/// How [`outline_within`] fits a tree.
#[derive(Clone, Copy, Debug)]
pub struct Fitting<'a> {
    /// Tokens the tree may take.
    pub room: usize,
    /// The answer's budget, which fixed shares are of: a caller that makes an outline again
    /// with less room, because the whole text came out over the budget, keeps them where they
    /// were, so the same page still cuts at the same part.
    pub budget: usize,
    /// The index among its element's children of the root's first child (a part shown `from=`).
    pub from: usize,
    /// The cut the last outline of this document showed the client: kept while it fits, so a
    /// change elsewhere (a dialog opening, a state's few tokens more on each part) does not
    /// move it.
    pub kept: Option<&'a Kept>,
}

/// [`outline_from`] as a session fits an answer ([`Fitting`]).
pub fn outline_within(tree: &Tree, page_url: Option<&str>, fitting: Fitting<'_>) -> Outline {
    let Fitting { room, budget: answer_budget, from, kept } = fitting;
    let first = FirstParts { budget: answer_budget as u64, kept };
    let budget = room;
    let Some(root) = tree.root() else {
        return Outline { tree: tree.clone(), folds: 0, folded_nodes: 0, cut: 0 };
    };
    let ctx = LineCtx::for_tree(tree, page_url);
    // The renderer does not draw a document root: its children start at depth 0.
    let elided = tree.node(root).role == Role::Document;
    let costs = if elided {
        let mut all = line_costs(tree, &tree.node(root).children, 0, &ctx);
        all[root.index()] = LineCost { tokens: 0, drawn: true, lead: 0, folded: 0 };
        all
    } else {
        line_costs(tree, &[root], 0, &ctx)
    };
    let mut units = Units::build(tree, root, &costs);
    let budget = (budget as u32).saturating_sub(RESERVE).max(1);
    let skeleton = (budget as f64 * SKELETON_SHARE) as u32;

    // The tiers of what is always shown, from most to least: each later tier drops a class.
    let surface = top_surface(tree);
    let in_surface = surface.map(|s| subtree_marks(tree, s)).unwrap_or_default();
    // The top surface is shown whole: every node in it is required.
    let base = |n: &Node, id: NodeId, viewport: bool, landmarks: bool| {
        in_surface.get(id.index()).copied().unwrap_or(false)
            || (landmarks && n.role.is_landmark())
            || (viewport && in_viewport(n))
    };
    let mut plan = None;
    'tiers: for (viewport, landmarks) in [(true, true), (false, true), (false, false)] {
        let mut best: Option<(Vec<Show>, u64)> = None;
        for level in 0..=6u32 {
            units.mark(tree, |n, id| {
                base(n, id, viewport, landmarks) || (n.role == Role::Heading && heading_level(n) <= level)
            });
            let shows = units.minimal();
            let cost = units.cost(&shows);
            if cost > skeleton as u64 {
                break;
            }
            best = Some((shows, cost));
        }
        if let Some(b) = best {
            plan = Some(b);
            break 'tiers;
        }
    }
    let (mut shows, cost, mut cut) = match plan {
        Some((s, c)) => (s, c, None),
        None => {
            units.mark(tree, |_, _| false);
            let mut shows = units.minimal();
            let host = units.cut_host();
            let parts = units.cut_tail(&mut shows, budget as u64);
            let cost = units.cost(&shows);
            (shows, cost, (parts > 0).then_some(Cut { host, parts, from }))
        }
    };
    let mut left = (budget as u64).saturating_sub(cost);
    if cut.is_none() {
        // Folds too big to open in one answer are opened first, largest first, while the
        // skeleton's share lasts: then each fold left opens whole in one call, or as an
        // outline whose folds do.
        let mut share = (skeleton as u64).saturating_sub(cost);
        let before = share;
        units.balance(&mut shows, &mut share, budget as u64);
        left = left.saturating_sub(before - share);
        cut = units.fill(tree, &mut shows, &mut left, first);
    }
    units.emit(tree, &shows, cut)
}

/// The parts of one unit cut into a closing `… N more parts … from=K` line: the last `parts`
/// members of `host`. `from` is the index among its element's children of the host's first
/// shown child (not 0 only for the root of a part shown `from=`).
#[derive(Clone, Copy, Debug)]
struct Cut {
    host: usize,
    parts: usize,
    from: usize,
}

/// Whether a node is an element an agent acts on that is in the viewport.
fn in_viewport(n: &Node) -> bool {
    (!n.actions.is_empty() || n.role.is_widget()) && !n.states.contains(State::Offscreen)
}

/// The last modal dialog in document order, else the last open menu or alert.
fn top_surface(tree: &Tree) -> Option<NodeId> {
    let order: Vec<NodeId> = tree.preorder().map(|(id, _)| id).collect();
    let modal =
        |n: &Node| n.role == Role::AlertDialog || (n.role == Role::Dialog && n.states.contains(State::Modal));
    let root = tree.root();
    let last = |p: &dyn Fn(&Node) -> bool| {
        order.iter().rev().copied().find(|&id| Some(id) != root && p(tree.node(id)))
    };
    last(&modal).or_else(|| last(&|n| matches!(n.role, Role::Menu | Role::Alert)))
}

/// Marks `id` and everything under it.
fn subtree_marks(tree: &Tree, id: NodeId) -> Vec<bool> {
    let mut marks = vec![false; tree.arena_len()];
    for d in tree.subtree(id) {
        marks[d.index()] = true;
    }
    marks
}

impl Units {
    /// One unit per drawn node, children grouped into heading sections. Iterative.
    fn build(tree: &Tree, root: NodeId, costs: &[LineCost]) -> Units {
        let mut units: Vec<Unit> = Vec::new();
        let mut unit_of: Vec<usize> = vec![usize::MAX; tree.arena_len()];
        // Drawn nodes in pre-order; built in reverse so children come first.
        let mut order = Vec::new();
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            order.push(id);
            let c = costs[id.index()];
            if c.drawn {
                stack.extend(tree.node(id).children.iter().skip(c.lead as usize).rev().copied());
            }
        }
        for &id in order.iter().rev() {
            let c = costs[id.index()];
            let n = tree.node(id);
            let kids: Vec<usize> = n.children[(c.lead as usize).min(n.children.len())..]
                .iter()
                .map(|k| unit_of[k.index()])
                .filter(|&u| u != usize::MAX)
                .collect();
            let members = group(&mut units, tree, kids);
            let size = c.tokens as u64;
            units.push(Unit {
                kind: Kind::Node,
                head: id,
                lead: c.lead,
                members,
                own: c.tokens,
                fold: c.folded + FOLD_SUFFIX,
                size,
                must: false,
                needs: false,
            });
            unit_of[id.index()] = units.len() - 1;
        }
        let root = unit_of[root.index()];
        let mut headings = vec![false; tree.arena_len()];
        for x in &units {
            if x.kind == Kind::Section {
                headings[x.head.index()] = true;
            }
        }
        let mut u = Units { units, root, headings };
        // Sizes bottom-up (members before their unit in a post-order).
        for i in u.postorder() {
            let s: u64 = u.units[i].members.iter().map(|&m| u.units[m].size).sum();
            u.units[i].size += s;
            if u.units[i].kind == Kind::Section {
                // Folded, a section still shows its heading whole.
                let heading = u.units[u.units[i].members[0]].size;
                u.units[i].fold = (heading + FOLD_SUFFIX as u64).min(u32::MAX as u64) as u32;
            }
        }
        u
    }

    /// Units in post-order from the root (every member before its unit). Iterative.
    fn postorder(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.units.len());
        let mut stack = vec![(self.root, false)];
        while let Some((u, done)) = stack.pop() {
            if done {
                out.push(u);
                continue;
            }
            stack.push((u, true));
            stack.extend(self.units[u].members.iter().rev().map(|&m| (m, false)));
        }
        out
    }

    /// Sets `must` by `pred` on each unit's head (a section by its heading) and `needs`.
    fn mark(&mut self, tree: &Tree, pred: impl Fn(&Node, NodeId) -> bool) {
        for i in self.postorder() {
            let head = self.units[i].head;
            let must = self.units[i].kind == Kind::Node && pred(tree.node(head), head);
            let needs = must || self.units[i].members.iter().any(|&m| self.units[m].needs);
            self.units[i].must = must;
            self.units[i].needs = needs;
        }
    }

    /// The cheapest way to show a unit that is not opened: whole when that is no dearer than
    /// its fold line (or it has nothing to fold), else folded.
    fn least(&self, u: usize) -> Show {
        let x = &self.units[u];
        // A heading's ref opens its section, so a heading itself never folds.
        if x.members.is_empty() || x.size <= x.fold as u64 || self.is_heading(u) {
            Show::Whole
        } else {
            Show::Fold
        }
    }

    /// The plan that shows every `must` unit: their ancestors opened, everything else least.
    fn minimal(&self) -> Vec<Show> {
        let mut shows = vec![Show::Fold; self.units.len()];
        let mut stack = vec![self.root];
        while let Some(u) = stack.pop() {
            let x = &self.units[u];
            // A required heading shows on its section's fold line: only what follows it
            // opens the section.
            let skip = usize::from(x.kind == Kind::Section);
            let inner_needs = x.members.iter().skip(skip).any(|&m| self.units[m].needs);
            // The root opens, and so does a section that is all of it (the view a heading's
            // ref opened): folded again, it would only say itself.
            let is_view = u == self.root || self.sole_section(u);
            if is_view || inner_needs {
                shows[u] = Show::Open;
                stack.extend(x.members.iter().copied());
            } else {
                shows[u] = self.least(u);
            }
        }
        shows
    }

    /// Whether `u` is the own unit of a section's head (not its section).
    fn is_heading(&self, u: usize) -> bool {
        self.units[u].kind == Kind::Node && self.headings[self.units[u].head.index()]
    }

    /// Whether `u` is a section that is the root's only part.
    fn sole_section(&self, u: usize) -> bool {
        let root = &self.units[self.root];
        self.units[u].kind == Kind::Section && root.members.len() == 1 && root.members[0] == u
    }

    /// Tokens of the tree shown by `shows`.
    fn cost(&self, shows: &[Show]) -> u64 {
        let mut total = 0u64;
        let mut stack = vec![self.root];
        while let Some(u) = stack.pop() {
            let x = &self.units[u];
            match shows[u] {
                Show::Whole => total += x.size,
                Show::Fold => total += x.fold as u64,
                Show::Open => {
                    total += x.own as u64;
                    stack.extend(x.members.iter().copied());
                }
            }
        }
        total
    }

    /// The unit whose parts a cut line cuts: the root, or the section that is all of it (a
    /// page whose one heading heads 50,000 buttons, or the view a heading's ref opened). Its
    /// parts' heads are all children of the root's element, so `from=` counts among those.
    fn cut_host(&self) -> usize {
        match self.units[self.root].members.as_slice() {
            &[s] if self.sole_section(s) => s,
            _ => self.root,
        }
    }

    /// With nothing required, the host's parts ([`Self::cut_host`], folded) can still be too
    /// many: keeps those that fit, in document order, each whole (a page of rows reads better
    /// than a page of folded rows; a part too big for any page is folded), and cuts the rest,
    /// returning how many were cut. The cut line says where the rest starts (`from=`): a page
    /// away.
    fn cut_tail(&self, shows: &mut [Show], budget: u64) -> usize {
        let root = &self.units[self.root];
        let host = &self.units[self.cut_host()];
        let room = budget.saturating_sub(FOLD_SUFFIX as u64);
        let mut used = root.own as u64;
        // A section host's heading is its first part: the rest must not start there again.
        let first = usize::from(host.kind == Kind::Section);
        for (i, &m) in host.members.iter().enumerate() {
            let x = &self.units[m];
            if shows[m] == Show::Fold && used + x.size <= room {
                shows[m] = Show::Whole;
                used += x.size;
                continue;
            }
            // One that would fit whole on a page of its own goes whole to the next page; only
            // one too big for any page is folded (its ref opens it).
            if shows[m] == Show::Fold && root.own as u64 + x.size <= room && i > first {
                return host.members.len() - i;
            }
            let c = match shows[m] {
                Show::Whole => x.size,
                _ => x.fold as u64,
            };
            if used + c > room && i >= first.max(1) {
                return host.members.len() - i;
            }
            used += c;
        }
        0
    }

    /// Opens the folds larger than `part` tokens (which would not open whole in one answer),
    /// the largest first, while their parts' lines fit in `left`. Deterministic: ties go to
    /// the earlier unit.
    fn balance(&self, shows: &mut [Show], left: &mut u64, part: u64) {
        let mut heap: std::collections::BinaryHeap<(u64, std::cmp::Reverse<usize>)> = self
            .visible(shows)
            .into_iter()
            .filter(|&u| shows[u] == Show::Fold && self.units[u].size > part)
            .map(|u| (self.units[u].size, std::cmp::Reverse(u)))
            .collect();
        while let Some((_, std::cmp::Reverse(u))) = heap.pop() {
            let x = &self.units[u];
            let open = self.open_cost(u);
            if open > *left {
                continue;
            }
            *left -= open;
            shows[u] = Show::Open;
            for &m in &x.members {
                shows[m] = self.least(m);
                if shows[m] == Show::Fold && self.units[m].size > part {
                    heap.push((self.units[m].size, std::cmp::Reverse(m)));
                }
            }
        }
    }

    /// What opening the folded unit `u` adds: its line and its parts shown least, less its
    /// fold line.
    fn open_cost(&self, u: usize) -> u64 {
        let x = &self.units[u];
        let parts: u64 = x
            .members
            .iter()
            .map(|&m| match self.least(m) {
                Show::Whole => self.units[m].size,
                _ => self.units[m].fold as u64,
            })
            .sum();
        (x.own as u64 + parts).saturating_sub(x.fold as u64)
    }

    /// The units the plan shows a line for, in document order.
    fn visible(&self, shows: &[Show]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![self.root];
        while let Some(u) = stack.pop() {
            out.push(u);
            if shows[u] == Show::Open {
                stack.extend(self.units[u].members.iter().rev().copied());
            }
        }
        out
    }

    /// Shows more, in document order, while it fits in `left` tokens: a folded unit whole if
    /// it fits, else opened with its parts least, and so on inside it; stops at the first
    /// that does not fit. When that one would leave most of the budget unused (a page whose
    /// 50,000 buttons sit in one `div` after its `h1`: the outline was the heading and one
    /// fold line, 111 tokens of 10,000), it is opened with its first parts and a cut line for
    /// the rest ([`Self::open_first_parts`]).
    fn fill(&self, tree: &Tree, shows: &mut [Show], left: &mut u64, first: FirstParts<'_>) -> Option<Cut> {
        let mut stack = vec![self.root];
        while let Some(u) = stack.pop() {
            let x = &self.units[u];
            match shows[u] {
                Show::Whole => {}
                Show::Open => stack.extend(x.members.iter().rev().copied()),
                Show::Fold => {
                    let whole = x.size.saturating_sub(x.fold as u64);
                    if whole <= *left {
                        *left -= whole;
                        shows[u] = Show::Whole;
                        continue;
                    }
                    let open = self.open_cost(u);
                    if open > *left {
                        return self.open_first_parts(tree, shows, u, left, first);
                    }
                    *left -= open;
                    shows[u] = Show::Open;
                    for &m in &x.members {
                        shows[m] = self.least(m);
                    }
                    stack.extend(x.members.iter().rev().copied());
                }
            }
        }
        None
    }

    /// Opens the folded element unit `u` with as many of its first parts as fit in
    /// [`FIRST_PARTS_SHARE`] of the budget (each shown least: whole, or folded when that is
    /// cheaper), the rest cut into one line that its ref and `from=` open. None (and nothing
    /// changed) when that share is more than `left`, `u` is not an element with a ref, or no
    /// part fits, or nothing would be cut.
    fn open_first_parts(
        &self,
        tree: &Tree,
        shows: &mut [Show],
        u: usize,
        left: &mut u64,
        first: FirstParts<'_>,
    ) -> Option<Cut> {
        let x = &self.units[u];
        let head = tree.node(x.head);
        if x.kind != Kind::Node || head.ref_id.is_none() {
            return None;
        }
        // The parts get a fixed share of the budget, not what the rest of the page left: the
        // cut then stays where it was when something else on the page changes (a dialog
        // opening over it is a diff of the dialog, not of the parts shown). The cut line costs
        // about what a fold line does, and the element's line replaces its fold.
        let room = (first.budget as f64 * FIRST_PARTS_SHARE) as u64;
        let have = (*left + x.fold as u64).checked_sub(x.own as u64 + 2 * FOLD_SUFFIX as u64)?;
        let cost = |m: usize| match self.least(m) {
            Show::Whole => self.units[m].size,
            _ => self.units[m].fold as u64,
        };
        // The cut the client was shown last stays while it fits: a few tokens more on each
        // part (each control now `[obscured]`) must not move it.
        let kept = first.kept.filter(|k| k.host == head.native).map(|k| {
            let before = |m: &&usize| {
                let at = head.children.iter().position(|&c| c == self.units[**m].head);
                at.is_some_and(|at| at < k.children)
            };
            x.members.iter().take_while(before).count()
        });
        let kept = kept.filter(|&n| {
            let used: u64 = x.members[..n].iter().map(|&m| cost(m)).sum();
            n > 0 && n < x.members.len() && used <= have.min(room + room / 4)
        });
        if kept.is_none() && have < room {
            return None;
        }
        let keep = kept.unwrap_or_else(|| {
            let mut used = 0u64;
            x.members
                .iter()
                .take_while(|&&m| {
                    used += cost(m);
                    used <= room
                })
                .count()
        });
        if keep == 0 || keep == x.members.len() {
            return None;
        }
        let used: u64 = x.members[..keep].iter().map(|&m| cost(m)).sum();
        shows[u] = Show::Open;
        for &m in &x.members[..keep] {
            shows[m] = self.least(m);
        }
        *left = have.saturating_sub(used);
        Some(Cut { host: u, parts: x.members.len() - keep, from: 0 })
    }
}

/// What the first parts of one big fold are fitted by ([`Units::open_first_parts`]).
#[derive(Clone, Copy, Debug)]
struct FirstParts<'a> {
    /// The answer's budget, [`FIRST_PARTS_SHARE`] of which they take.
    budget: u64,
    /// The cut the client was shown last.
    kept: Option<&'a Kept>,
}

/// Groups a node's child units into heading sections: a heading takes the siblings after it
/// up to the next heading of its level or above, nested by level.
fn group(units: &mut Vec<Unit>, tree: &Tree, kids: Vec<usize>) -> Vec<usize> {
    let mut top: Vec<usize> = Vec::new();
    // Open sections: (level, unit).
    let mut open: Vec<(u32, usize)> = Vec::new();
    for k in kids {
        if let Some(level) = section_level(tree, units[k].head) {
            while open.last().is_some_and(|(l, _)| *l >= level) {
                open.pop();
            }
            units.push(Unit {
                kind: Kind::Section,
                head: units[k].head,
                lead: 0,
                members: vec![k],
                own: 0,
                fold: 0,
                size: 0,
                must: false,
                needs: false,
            });
            let s = units.len() - 1;
            match open.last() {
                Some(&(_, p)) => units[p].members.push(s),
                None => top.push(s),
            }
            open.push((level, s));
        } else {
            match open.last() {
                Some(&(_, p)) => units[p].members.push(k),
                None => top.push(k),
            }
        }
    }
    top
}

#[cfg(test)]
mod tests;
