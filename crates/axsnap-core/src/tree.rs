//! The tree model: an arena of [`Node`]s addressed by [`NodeId`].
//!
//! One type serves every stage: a backend's raw capture, the projected tree and the tree a diff
//! is applied to. Nodes are stored in a `Vec` and point at each other by index, never by `Rc`,
//! so trees are cheap to build, clone and compare, and walking them never recurses on input
//! depth (every traversal here is iterative).

use serde::{Deserialize, Serialize};

use crate::refs::Ref;
use crate::role::Role;
use crate::state::{ActionSet, StateSet};

/// The index of a node in its [`Tree`]'s arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The arena index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The platform's identity of an element, opaque to the core.
///
/// `scope` is the space the id lives in (a CDP frame/document, an AT-SPI bus name); `id` is the
/// element within it (a backend node id, an object path). The core only compares them: two
/// nodes are the same element iff their `NativeId`s are equal. When a whole scope disappears
/// (a navigation replaced the document), the refs stage may carry refs over by structure; when
/// the scope lives on but an id vanished, the element is gone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NativeId {
    /// The id space: document, frame, application.
    pub scope: String,
    /// The element within the scope.
    pub id: String,
}

impl NativeId {
    /// Builds a native id from its two parts.
    pub fn new(scope: impl Into<String>, id: impl Into<String>) -> NativeId {
        NativeId { scope: scope.into(), id: id.into() }
    }

    /// The id of a node a projection makes up and names after a node of the capture, `base`
    /// (a loose sentence's paragraph after its first piece): `{kind}:{base scope}:{base id}`
    /// in `scope`. The refs stage carries a ref held by such an id along with its base's when
    /// the base's document is replaced by an equal one (a reload).
    ///
    /// ```
    /// use axsnap_core::NativeId;
    /// let base = NativeId::new("frame:loader", "42");
    /// let made = NativeId::derived("axsnap:synthetic", "sentence", &base);
    /// assert_eq!(made.id, "sentence:frame:loader:42");
    /// assert_eq!(made.derived_kind(&base), Some("sentence"));
    /// assert_eq!(made.derived_kind(&NativeId::new("frame:loader", "2")), None);
    /// ```
    pub fn derived(scope: &str, kind: &str, base: &NativeId) -> NativeId {
        NativeId::new(scope, format!("{kind}:{}:{}", base.scope, base.id))
    }

    /// The kind this id was made with by [`NativeId::derived`] from `base`, if it was.
    pub fn derived_kind(&self, base: &NativeId) -> Option<&str> {
        let rest = self.id.strip_suffix(base.id.as_str())?.strip_suffix(':')?;
        let kind = rest.strip_suffix(base.scope.as_str())?.strip_suffix(':')?;
        (!kind.is_empty() && !kind.contains(':')).then_some(kind)
    }
}

/// A rectangle in CSS pixels (web) or screen pixels (desktop), origin top-left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// The centre point, where a click lands.
    pub fn center(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// The bounds of a ranged control: a slider, a spin button with limits, a progress bar, a
/// meter. Said beside the value (`slider "Volume" [e5]: 5 (0 to 10)`) so that an agent knows
/// what `fill` takes before it tries.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueRange {
    /// The least value.
    pub min: f64,
    /// The greatest value.
    pub max: f64,
    /// The step between values, when the control has one other than 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
}

impl ValueRange {
    /// A range from bounds a platform gave, when they make one: both finite, `min < max`
    /// (Chromium gives a number input with no bounds 0 to 0); a step only when finite,
    /// positive and not 1.
    ///
    /// ```
    /// use axsnap_core::ValueRange;
    ///
    /// let r = ValueRange::new(0.0, 10.0, Some(0.5)).unwrap();
    /// assert_eq!(r.to_string(), "0 to 10, step 0.5");
    /// assert_eq!(ValueRange::new(0.0, 100.0, Some(1.0)).unwrap().to_string(), "0 to 100");
    /// assert!(ValueRange::new(5.0, 1.0, None).is_none());
    /// assert!(ValueRange::new(0.0, 0.0, None).is_none());
    /// ```
    pub fn new(min: f64, max: f64, step: Option<f64>) -> Option<ValueRange> {
        (min.is_finite() && max.is_finite() && min < max).then(|| ValueRange {
            min,
            max,
            step: step.filter(|s| s.is_finite() && *s > 0.0 && *s != 1.0),
        })
    }

    /// The same range, bit for bit (a NaN a backend bug let through equals itself).
    pub fn same(a: &Option<ValueRange>, b: &Option<ValueRange>) -> bool {
        let bits =
            |r: &Option<ValueRange>| r.map(|r| (r.min.to_bits(), r.max.to_bits(), r.step.map(f64::to_bits)));
        bits(a) == bits(b)
    }
}

impl std::fmt::Display for ValueRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} to {}", Number(self.min), Number(self.max))?;
        if let Some(step) = self.step {
            write!(f, ", step {}", Number(step))?;
        }
        Ok(())
    }
}

/// A number as a person writes it: no `.0` on a whole one.
struct Number(f64);

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.fract() == 0.0 && self.0.abs() < 1e15 {
            write!(f, "{}", self.0 as i64)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// Layout and accessibility facts a backend sets on raw nodes for projection. Projected trees
/// keep only what the renderer reads: `pre` on text and `block` (on text: the text begins or
/// ends a block-level box beside an inline neighbour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RawFlags {
    /// The platform marked the node ignored for accessibility.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ignored: bool,
    /// Not rendered (display:none, visibility:hidden, aria-hidden, zero size and no content).
    #[serde(default, skip_serializing_if = "is_false")]
    pub hidden: bool,
    /// The node's name or description was computed from a secret's content (an
    /// `aria-labelledby` or `aria-describedby` pointing at a password field, a label around
    /// one): [`crate::secret::redact`] cuts the secret's text out of it whatever its length.
    #[serde(default, skip_serializing_if = "is_false")]
    pub embeds_secret: bool,
    /// Laid out as a block-level box: its text is never joined with text outside it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub block: bool,
    /// Its text keeps its spaces and line breaks (a code block, a code editor): projection
    /// joins the text under it exactly, without normalizing whitespace.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pre: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One element of a user interface.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Normalized role.
    pub role: Role,
    /// Accessible name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Current value (text of a field, selected option of a combobox, slider position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Accessible description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// States.
    #[serde(default, skip_serializing_if = "crate::state::StateSet::is_none_set")]
    pub states: StateSet,
    /// Supported actions.
    #[serde(default, skip_serializing_if = "crate::state::ActionSet::is_none_set")]
    pub actions: ActionSet,
    /// Heading level, tree depth level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// Link target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Options of a select-like element that are not in the tree as children.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The bounds of a ranged control's value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<ValueRange>,
    /// Bounds on screen, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Rect>,
    /// The developer's id: DOM id, test id, AutomationId, AX identifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dev_id: Option<String>,
    /// The platform's identity of this element.
    pub native: NativeId,
    /// The ref the refs stage gave this node (`None` in raw trees).
    #[serde(default, rename = "ref", skip_serializing_if = "Option::is_none")]
    pub ref_id: Option<Ref>,
    /// Facts for projection (see [`RawFlags`]).
    #[serde(default, skip_serializing_if = "is_default_flags")]
    pub flags: RawFlags,
    /// Set on a node an outline shows folded: what was left out under it (its subtree, or for a
    /// heading the section it opens). `None` everywhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folded: Option<Folded>,
    /// Children, in document order. Maintained by [`Tree`]; do not edit directly.
    #[serde(skip)]
    pub children: Vec<NodeId>,
    /// Parent. Maintained by [`Tree`].
    #[serde(skip)]
    pub parent: Option<NodeId>,
}

/// What an outline left out under a folded node ([`crate::outline`]): its size and what it
/// holds, so an agent can judge whether to open it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Folded {
    /// cl100k tokens the left-out part takes in the text form.
    pub tokens: u32,
    /// What it holds, counted: `12 links, 3 headings`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub holds: String,
}

fn is_default_flags(f: &RawFlags) -> bool {
    *f == RawFlags::default()
}

impl Node {
    /// A node with a role, a name and a native id; everything else empty.
    pub fn new(role: Role, name: impl Into<String>, native: NativeId) -> Node {
        Node { role, name: name.into(), native, ..Node::default() }
    }

    /// Whether the node's own content (everything but links to other nodes) equals `other`'s.
    pub fn same_content(&self, other: &Node) -> bool {
        self.role == other.role
            && self.name == other.name
            && self.value == other.value
            && self.description == other.description
            && self.states == other.states
            && self.actions == other.actions
            && self.level == other.level
            && self.url == other.url
            && self.options == other.options
            && ValueRange::same(&self.range, &other.range)
            && self.bounds == other.bounds
            && self.dev_id == other.dev_id
            && self.native == other.native
            && self.flags == other.flags
            && self.folded == other.folded
            && self.ref_id == other.ref_id
    }
}

/// An arena tree with one root.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    root: Option<NodeId>,
    /// The arena is exactly the reachable nodes, in pre-order, root first (set by
    /// [`Tree::lay_out_in_preorder`] and [`Tree::compacted`], cleared by any change of shape):
    /// a walk then reads the arena in order instead of following each node's child list,
    /// which on a large tree is a cache miss per node.
    laid_out: bool,
}

impl Tree {
    /// An empty tree (no root yet).
    pub fn new() -> Tree {
        Tree::default()
    }

    /// An empty tree with room for `n` nodes (building a large tree without regrowing).
    pub fn with_capacity(n: usize) -> Tree {
        Tree { nodes: Vec::with_capacity(n), root: None, laid_out: false }
    }

    /// A tree of one root node.
    pub fn with_root(node: Node) -> Tree {
        let mut t = Tree::new();
        let id = t.push(node);
        t.root = Some(id);
        t
    }

    /// Adds a detached node and returns its id. Its `children`/`parent` are reset.
    pub fn push(&mut self, mut node: Node) -> NodeId {
        self.laid_out = false;
        node.children.clear();
        node.parent = None;
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(node);
        id
    }

    /// Adds `node` as the last child of `parent`.
    pub fn append(&mut self, parent: NodeId, node: Node) -> NodeId {
        let id = self.push(node);
        self.attach(parent, id, None);
        id
    }

    /// Attaches the detached node `child` under `parent`, at `index` among its children (at the
    /// end for `None` or an index past the end).
    pub fn attach(&mut self, parent: NodeId, child: NodeId, index: Option<usize>) {
        self.laid_out = false;
        self.nodes[child.index()].parent = Some(parent);
        let kids = &mut self.nodes[parent.index()].children;
        match index {
            Some(i) if i <= kids.len() => kids.insert(i, child),
            _ => kids.push(child),
        }
    }

    /// Detaches `id` from its parent (its subtree stays in the arena, unreachable from the
    /// root until attached again).
    pub fn detach(&mut self, id: NodeId) {
        self.laid_out = false;
        if let Some(p) = self.nodes[id.index()].parent.take() {
            self.nodes[p.index()].children.retain(|c| *c != id);
        }
    }

    /// Sets the root.
    pub fn set_root(&mut self, id: NodeId) {
        self.laid_out = false;
        self.root = Some(id);
    }

    /// The root, if the tree has one.
    pub fn root(&self) -> Option<NodeId> {
        self.root
    }

    /// The node at `id`. Panics on an id from another tree (a programming error, never input).
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The node at `id`, mutably. Its `children` and `parent` are the tree's to maintain
    /// (through [`Tree::attach`] and [`Tree::detach`]); walks rely on them.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.index()]
    }

    /// The node at `id`, or `None` for an id outside the arena.
    pub fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.index())
    }

    /// Number of nodes in the arena (including detached ones).
    pub fn arena_len(&self) -> usize {
        self.nodes.len()
    }

    /// Iterates the nodes reachable from the root in document order (pre-order), with depth
    /// (root = 0). Iterative: safe on any depth.
    pub fn preorder(&self) -> Preorder<'_> {
        if self.laid_out {
            return Preorder { tree: self, stack: Vec::new(), linear: Some(Linear::default()) };
        }
        Preorder { tree: self, stack: self.root.map(|r| vec![(r, 0)]).unwrap_or_default(), linear: None }
    }

    /// Number of nodes reachable from the root.
    pub fn len(&self) -> usize {
        if self.laid_out {
            return self.nodes.len();
        }
        self.preorder().count()
    }

    /// Whether no node is reachable.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The ancestors of `id`, nearest first.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.nodes[id.index()].parent, move |p| self.nodes[p.index()].parent)
    }

    /// Ids of the subtree rooted at `id`, in pre-order.
    pub fn subtree(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.nodes[n.index()].children.iter().rev().copied());
        }
        out
    }

    /// A copy holding only the nodes reachable from the root, laid out in pre-order, so that
    /// two trees with the same shape and content compare equal with `==`.
    pub fn compacted(&self) -> Tree {
        let mut out = Tree::new();
        let Some(root) = self.root else { return out };
        let mut map: Vec<Option<NodeId>> = vec![None; self.nodes.len()];
        for (id, _) in self.preorder() {
            let new = out.push(self.nodes[id.index()].clone());
            map[id.index()] = Some(new);
            if let Some(p) = self.nodes[id.index()].parent {
                if let Some(np) = map[p.index()] {
                    out.nodes[new.index()].parent = Some(np);
                    out.nodes[np.index()].children.push(new);
                }
            }
        }
        out.root = map[root.index()];
        out.laid_out = true;
        out
    }
}

impl Tree {
    /// Lays the tree out in pre-order in place: afterwards the arena holds exactly the nodes
    /// reachable from the root, the root at index 0 and each node before its descendants.
    /// Returns, for each old arena index, the node's new id (`None`: it was unreachable and is
    /// gone).
    ///
    /// Unlike [`Tree::compacted`], nothing is copied into a new arena: nodes are swapped into
    /// place (each at most once), so a large tree is laid out without touching fresh memory.
    pub fn lay_out_in_preorder(&mut self) -> Vec<Option<NodeId>> {
        let len = self.nodes.len();
        let order: Vec<NodeId> = self.preorder().map(|(id, _)| id).collect();
        let mut new_of: Vec<Option<NodeId>> = vec![None; len];
        for (pos, id) in order.iter().enumerate() {
            new_of[id.index()] = Some(NodeId(pos as u32));
        }
        // The child lists say the shape (a builder may have set them without the parents).
        if let Some(&root) = order.first() {
            self.nodes[root.index()].parent = None;
        }
        for (pos, id) in order.iter().enumerate() {
            let kids = std::mem::take(&mut self.nodes[id.index()].children);
            for &c in &kids {
                self.nodes[c.index()].parent = Some(NodeId(pos as u32));
            }
            let node = &mut self.nodes[id.index()];
            node.children = kids;
            for c in node.children.iter_mut() {
                // A reachable node's children are reachable.
                if let Some(n) = new_of[c.index()] {
                    *c = n;
                }
            }
        }
        // Where each arena slot goes: reachable nodes to their pre-order place, the rest after.
        let mut dest: Vec<usize> = Vec::with_capacity(len);
        let mut spare = order.len();
        for slot in &new_of {
            dest.push(match slot {
                Some(n) => n.index(),
                None => {
                    spare += 1;
                    spare - 1
                }
            });
        }
        // Follow each cycle of the permutation: every swap puts one node in its final place.
        for i in 0..len {
            while dest[i] != i {
                let j = dest[i];
                self.nodes.swap(i, j);
                dest.swap(i, j);
            }
        }
        self.nodes.truncate(order.len());
        self.nodes.shrink_to_fit();
        self.root = if order.is_empty() { None } else { Some(NodeId(0)) };
        self.laid_out = true;
        new_of
    }
}

impl PartialEq for Tree {
    /// Structural equality: same shape, same node content, in document order. Arena layout
    /// and detached nodes do not matter.
    fn eq(&self, other: &Tree) -> bool {
        let mut a = self.preorder();
        let mut b = other.preorder();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some((x, dx)), Some((y, dy))) => {
                    let (nx, ny) = (self.node(x), other.node(y));
                    if dx != dy || nx.children.len() != ny.children.len() || !nx.same_content(ny) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
}

/// Pre-order iterator over a [`Tree`]; see [`Tree::preorder`].
pub struct Preorder<'t> {
    tree: &'t Tree,
    stack: Vec<(NodeId, usize)>,
    /// Set for a tree laid out in pre-order: the walk runs through the arena.
    linear: Option<Linear>,
}

/// A walk through a laid-out arena: the next index, and the depth of each node passed.
#[derive(Default)]
struct Linear {
    next: usize,
    depth: Vec<u32>,
}

impl Iterator for Preorder<'_> {
    type Item = (NodeId, usize);

    fn next(&mut self) -> Option<(NodeId, usize)> {
        if let Some(lin) = &mut self.linear {
            let i = lin.next;
            let node = self.tree.nodes.get(i)?;
            lin.next += 1;
            // A parent comes before its children.
            let depth = node.parent.and_then(|p| lin.depth.get(p.index())).map_or(0, |d| d + 1);
            debug_assert!(
                node.parent.is_some_and(|p| p.index() < i) || i == 0,
                "a laid-out tree's node {i} is not after its parent: children edited directly"
            );
            debug_assert!(
                node.children.first().is_none_or(|c| c.index() == i + 1),
                "a laid-out tree's node {i} is not followed by its first child: children edited directly"
            );
            lin.depth.push(depth);
            return Some((NodeId(i as u32), depth as usize));
        }
        let (id, depth) = self.stack.pop()?;
        let kids = &self.tree.nodes[id.index()].children;
        self.stack.extend(kids.iter().rev().map(|c| (*c, depth + 1)));
        Some((id, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(role: Role, name: &str, id: &str) -> Node {
        Node::new(role, name, NativeId::new("doc", id))
    }

    #[test]
    fn preorder_is_document_order() {
        let mut t = Tree::with_root(n(Role::Document, "", "0"));
        let r = t.root().unwrap();
        let a = t.append(r, n(Role::List, "", "1"));
        t.append(a, n(Role::ListItem, "x", "2"));
        t.append(r, n(Role::Button, "ok", "3"));
        let names: Vec<_> = t.preorder().map(|(id, d)| (t.node(id).native.id.clone(), d)).collect();
        assert_eq!(names, vec![("0".into(), 0), ("1".into(), 1), ("2".into(), 2), ("3".into(), 1)]);
    }

    #[test]
    fn laying_out_in_preorder_keeps_the_walk_and_drops_the_unreachable() {
        // Built out of order: children pushed before parents, a detached node in between.
        let mut t = Tree::new();
        let c = t.push(n(Role::Button, "c", "3"));
        let gone = t.push(n(Role::Text, "gone", "9"));
        let b = t.push(n(Role::ListItem, "b", "2"));
        let a = t.push(n(Role::List, "a", "1"));
        let r = t.push(n(Role::Document, "", "0"));
        t.attach(a, b, None);
        t.attach(b, c, None);
        t.attach(r, a, None);
        let d = t.push(n(Role::Button, "d", "4"));
        t.attach(r, d, None);
        t.set_root(r);
        t.attach(r, gone, None);
        t.detach(gone);
        let walk = |t: &Tree| -> Vec<(String, usize)> {
            t.preorder().map(|(id, depth)| (t.node(id).native.id.clone(), depth)).collect()
        };
        let before = walk(&t);
        let map = t.lay_out_in_preorder();
        assert_eq!(walk(&t), before, "the same walk, now through the arena");
        assert_eq!(t.arena_len(), 5);
        assert_eq!(t.len(), 5);
        assert_eq!(t.root(), Some(NodeId(0)));
        assert_eq!(map[gone.index()], None);
        assert_eq!(t.node(map[c.index()].unwrap()).name, "c");
        assert_eq!(t.node(map[c.index()].unwrap()).parent, map[b.index()]);
        assert_eq!(t, t.compacted());
        // A change of shape ends the arena walk: the tree is walked by its child lists again.
        let e = t.append(map[a.index()].unwrap(), n(Role::Button, "e", "5"));
        assert_eq!(walk(&t)[..4], [("0".into(), 0), ("1".into(), 1), ("2".into(), 2), ("3".into(), 3)]);
        assert_eq!(walk(&t)[4], ("5".to_string(), 2), "{e:?}");
    }

    #[test]
    fn deep_chain_does_not_overflow() {
        let mut t = Tree::with_root(n(Role::Generic, "", "0"));
        let mut p = t.root().unwrap();
        for i in 1..200_000 {
            p = t.append(p, n(Role::Generic, "", &i.to_string()));
        }
        assert_eq!(t.len(), 200_000);
        let c = t.compacted();
        assert!(c == t);
        drop(c);
    }

    #[test]
    fn equality_ignores_arena_layout() {
        let mut a = Tree::with_root(n(Role::Document, "", "0"));
        let ra = a.root().unwrap();
        let stray = a.push(n(Role::Button, "stray", "9"));
        let _ = stray;
        a.append(ra, n(Role::Button, "ok", "1"));
        let mut b = Tree::with_root(n(Role::Document, "", "0"));
        let rb = b.root().unwrap();
        b.append(rb, n(Role::Button, "ok", "1"));
        assert!(a == b);
        b.node_mut(NodeId(1)).name = "cancel".into();
        assert!(a != b);
    }
}
