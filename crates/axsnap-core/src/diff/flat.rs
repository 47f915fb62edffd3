//! A tree laid out by pre-order position, with the links and sizes the diff needs, and an index
//! from ref to position.
//!
//! In pre-order a subtree is the contiguous range `pos .. pos + size[pos]`, so "is this node
//! under that one" and "sum over a subtree" are array look-ups and one reverse pass, never a
//! walk over depth.

use rustc_hash::FxHashMap;

use super::DiffError;
use crate::refs::Ref;
use crate::tree::{NodeId, Tree};

/// "No position" in the `u32` link arrays.
pub(super) const NONE: u32 = u32::MAX;

/// A tree by pre-order position.
pub(super) struct Flat<'t> {
    /// The tree.
    pub tree: &'t Tree,
    /// Arena id at each position.
    pub ids: Vec<NodeId>,
    /// Parent position ([`NONE`] for the root).
    pub parent: Vec<u32>,
    /// Previous sibling position ([`NONE`] for a first child).
    pub prev_sib: Vec<u32>,
    /// Subtree size, the node included.
    pub size: Vec<u32>,
    /// Depth (root = 0).
    pub depth: Vec<u32>,
    /// Ref at each position.
    pub refs: Vec<Ref>,
    /// Position of each ref.
    pub index: RefIndex,
}

impl<'t> Flat<'t> {
    /// Lays `tree` out, checking that every reachable node has a ref and no ref repeats.
    /// `which` names the tree in errors.
    pub fn build(tree: &'t Tree, which: &'static str) -> Result<Flat<'t>, DiffError> {
        let root = tree.root().ok_or(DiffError::Empty)?;
        let cap = tree.arena_len();
        let mut f = Flat {
            tree,
            ids: Vec::with_capacity(cap),
            parent: Vec::with_capacity(cap),
            prev_sib: Vec::new(),
            size: Vec::new(),
            depth: Vec::with_capacity(cap),
            refs: Vec::with_capacity(cap),
            index: RefIndex::default(),
        };
        let mut stack: Vec<(NodeId, u32, u32)> = vec![(root, NONE, 0)];
        while let Some((id, parent, depth)) = stack.pop() {
            let node = tree.node(id);
            let r = node.ref_id.ok_or(DiffError::MissingRef { which })?;
            // A node reached twice (a shared child or a cycle in a hand-built arena) repeats
            // its ref, so this also stops the walk on a malformed tree.
            if f.refs.len() > cap {
                return Err(DiffError::DuplicateRef { r, which });
            }
            let pos = f.ids.len() as u32;
            f.ids.push(id);
            f.parent.push(parent);
            f.depth.push(depth);
            f.refs.push(r);
            stack.extend(node.children.iter().rev().map(|c| (*c, pos, depth + 1)));
        }
        let n = f.ids.len();
        f.size = vec![1; n];
        for pos in (1..n).rev() {
            let p = f.parent[pos] as usize;
            f.size[p] += f.size[pos];
        }
        f.prev_sib = vec![NONE; n];
        for pos in 0..n {
            let end = pos + f.size[pos] as usize;
            let mut c = pos + 1;
            let mut prev = NONE;
            while c < end {
                f.prev_sib[c] = prev;
                prev = c as u32;
                c += f.size[c] as usize;
            }
        }
        f.index = RefIndex::new(&f.refs).map_err(|r| DiffError::DuplicateRef { r, which })?;
        Ok(f)
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// The end (exclusive) of `pos`'s subtree range.
    pub fn end(&self, pos: u32) -> u32 {
        pos + self.size[pos as usize]
    }

    /// The next sibling of `pos`, if any.
    pub fn next_sib(&self, pos: u32) -> u32 {
        let p = self.parent[pos as usize];
        let after = self.end(pos);
        if p != NONE && after < self.end(p) {
            after
        } else {
            NONE
        }
    }

    /// The children of `pos`, in order.
    pub fn children(&self, pos: u32) -> impl Iterator<Item = u32> + '_ {
        let end = self.end(pos);
        let mut c = pos + 1;
        std::iter::from_fn(move || {
            (c < end).then(|| {
                let out = c;
                c += self.size[c as usize];
                out
            })
        })
    }
}

/// Ref to position. Refs are numbered densely by the refs stage, so a plain vector serves
/// when they are small; a hash map otherwise.
#[derive(Default)]
pub(super) enum RefIndex {
    /// `dense[ref]` is the position, or [`NONE`].
    Dense(Vec<u32>),
    /// Sparse refs.
    Sparse(FxHashMap<Ref, u32>),
    /// Not built.
    #[default]
    Empty,
}

impl RefIndex {
    /// Indexes `refs` by position; the error is a repeated ref.
    fn new(refs: &[Ref]) -> Result<RefIndex, Ref> {
        let max = refs.iter().map(|r| r.0 as usize).max().unwrap_or(0);
        if max <= refs.len().saturating_mul(4) + 1024 {
            let mut dense = vec![NONE; max + 1];
            for (pos, r) in refs.iter().enumerate() {
                let slot = &mut dense[r.0 as usize];
                if *slot != NONE {
                    return Err(*r);
                }
                *slot = pos as u32;
            }
            Ok(RefIndex::Dense(dense))
        } else {
            let mut map = FxHashMap::with_capacity_and_hasher(refs.len(), Default::default());
            for (pos, r) in refs.iter().enumerate() {
                if map.insert(*r, pos as u32).is_some() {
                    return Err(*r);
                }
            }
            Ok(RefIndex::Sparse(map))
        }
    }

    /// The position of `r`, or [`NONE`].
    pub fn get(&self, r: Ref) -> u32 {
        match self {
            RefIndex::Dense(v) => v.get(r.0 as usize).copied().unwrap_or(NONE),
            RefIndex::Sparse(m) => m.get(&r).copied().unwrap_or(NONE),
            RefIndex::Empty => NONE,
        }
    }
}
