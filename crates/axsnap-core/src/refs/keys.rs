//! Structural keys of a raw capture: what churn matching compares when native ids cannot.
//!
//! For every node reachable in a raw tree:
//! - `local`: a 128-bit hash of the node's own identifying fields (role, name, developer id,
//!   URL without its query, level), deliberately not value or states, which change while an element lives;
//! - `full`: `local` plus the chain of all ancestors' (role, name), root first;
//! - `sibling`: `local` plus the children's `local` keys, to tell look-alike siblings apart;
//! - `content`: `local` plus the children's `content` keys, the whole subtree's identity, to
//!   tell an element re-created equal from one replaced by another.
//!
//! Keys are hashes, 128 bits wide, so that an accidental collision (which could carry a ref to
//! a wrong element) is out of practical reach.
//! Keys use a fixed, unkeyed hash ([`Fast128`]), so keys of two refreshes compare equal.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::tree::{NodeId, Tree};

/// A structural key.
pub(super) type Key = u128;

/// The part of a link's URL its key holds: all but the query, which a site rewrites with every
/// page's state (Datasette's `json` link carries the page's filter and sort), so that the same
/// link on the next page keeps its ref. The fragment stays: it tells apart the `Source` links of
/// one file under each method of a rustdoc page.
fn url_key(url: Option<&str>) -> Option<(&str, &str)> {
    let url = url?;
    let (before, fragment) = url.find('#').map_or((url, ""), |f| url.split_at(f));
    Some((before.split_once('?').map_or(before, |(path, _)| path), fragment))
}

/// A fast 128-bit hasher: two 64-bit multiply-rotate lanes with different constants, each
/// finished with a strong avalanche. Not keyed: what it hashes (names, roles, native ids) is
/// not chosen to collide by anyone who could not simply make a look-alike instead, and the
/// refs stage must stay within a few milliseconds on 100,000 nodes, which SipHash did not.
#[derive(Clone, Copy)]
pub(super) struct Fast128 {
    a: u64,
    b: u64,
    len: u64,
}

impl Default for Fast128 {
    fn default() -> Fast128 {
        Fast128 { a: 0x243f_6a88_85a3_08d3, b: 0x1319_8a2e_0370_7344, len: 0 }
    }
}

const M1: u64 = 0x9e37_79b9_7f4a_7c15;
const M2: u64 = 0xc2b2_ae3d_27d4_eb4f;

/// The avalanche step of a 64-bit mixer: every input bit affects every output bit.
fn avalanche(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Fast128 {
    fn word(&mut self, w: u64) {
        self.a = (self.a ^ w).wrapping_mul(M1).rotate_left(29);
        self.b = (self.b.rotate_left(17) ^ w).wrapping_mul(M2);
    }

    /// The 128-bit result.
    pub fn finish128(&self) -> Key {
        let a = avalanche(self.a ^ self.len);
        let b = avalanche(self.b.wrapping_add(self.len.wrapping_mul(M1)) ^ a.rotate_left(32));
        ((a as u128) << 64) | b as u128
    }
}

impl Hasher for Fast128 {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            // The tail's length goes in too, so "a\0" and "a" differ.
            self.word(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
        self.len = self.len.wrapping_add(bytes.len() as u64);
    }

    fn write_u8(&mut self, i: u8) {
        self.word(i as u64 | 0x100);
        self.len = self.len.wrapping_add(1);
    }

    fn write_u32(&mut self, i: u32) {
        self.word(i as u64 | 0x1_0000_0000);
        self.len = self.len.wrapping_add(4);
    }

    fn write_u64(&mut self, i: u64) {
        self.word(i);
        self.len = self.len.wrapping_add(8);
    }

    fn write_u128(&mut self, i: u128) {
        self.word(i as u64);
        self.word((i >> 64) as u64);
        self.len = self.len.wrapping_add(16);
    }

    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }

    fn finish(&self) -> u64 {
        (self.finish128() >> 64) as u64
    }
}

/// A hasher for maps keyed by [`Key`]s, which are already uniformly distributed: it keeps the
/// low 64 bits instead of hashing them again.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only used for u128 keys (write_u128); fold anything else in for correctness.
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(29) ^ u64::from_le_bytes(buf);
        }
    }

    fn write_u128(&mut self, v: u128) {
        self.0 ^= v as u64;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`Fast128`] hashers: for maps and sets over native ids and refs on the refresh's
/// hot path, where SipHash's cost shows at 100,000 nodes (the same reasoning as [`Fast128`]).
pub(super) type FastState = BuildHasherDefault<Fast128>;

/// A map keyed by [`Key`].
pub(super) type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// The keys of every node reachable in one raw tree, indexed by arena index.
pub(super) struct Keys {
    /// Own fields plus the ancestors' (role, name) chain.
    pub full: Vec<Key>,
    /// Whether no other reachable node has the same `full` key, by arena index.
    full_unique: Vec<bool>,
    /// Own identifying fields plus the children's: what tells look-alike siblings apart.
    pub sibling: Vec<Key>,
    /// Whether no sibling shares the node's `sibling` key.
    pub sibling_unique: Vec<bool>,
    /// Own identifying fields plus the content keys of all children, in order: the whole
    /// subtree's identity (not its values or states), what tells an equal re-creation.
    pub content: Vec<Key>,
}

impl Keys {
    /// Computes the keys of `raw`, whose reachable nodes in pre-order are `order`.
    ///
    /// Only the first pass reads the nodes (large structs, spread over a large arena); it
    /// copies each node's child list into one flat array, and the later passes read only
    /// that and the key arrays, which keeps 100,000-node trees in cache.
    pub fn of(raw: &Tree, order: &[NodeId]) -> Keys {
        let n = raw.arena_len();
        let mut local = vec![0; n];
        let mut full = vec![0; n];
        // Chain of (role, name) from the root down to and including each node.
        let mut chain: Vec<Key> = vec![0; n];
        // Children of the node at each position of `order`: `kids[starts[i]..starts[i + 1]]`.
        let mut starts: Vec<u32> = Vec::with_capacity(order.len() + 1);
        let mut kids: Vec<NodeId> = Vec::with_capacity(order.len());
        for &id in order {
            let node = raw.node(id);
            starts.push(kids.len() as u32);
            kids.extend_from_slice(&node.children);
            // The root is the document: its name (the title) and URL change with every
            // navigation while the page's chrome stays, so they stay out of its key and out of
            // every chain below it. It is still unique: no other node has an empty chain.
            let is_root = node.parent.is_none();
            let mut own = Fast128::default();
            node.role.hash(&mut own);
            if !is_root {
                node.name.hash(&mut own);
            }
            let mut h = own;
            node.dev_id.hash(&mut h);
            if !is_root {
                url_key(node.url.as_deref()).hash(&mut h);
            }
            node.level.hash(&mut h);
            let loc = h.finish128();
            let above = node.parent.map_or(0, |p| chain[p.index()]);
            let mut h = own;
            h.write_u128(above);
            chain[id.index()] = h.finish128();
            let mut h = Fast128::default();
            h.write_u128(above);
            h.write_u128(loc);
            let f = h.finish128();
            local[id.index()] = loc;
            full[id.index()] = f;
        }
        starts.push(kids.len() as u32);
        drop(chain);
        let children = |i: usize| &kids[starts[i] as usize..starts[i + 1] as usize];
        // Look-alike siblings (unnamed list items, rows) are told apart by what they hold:
        // the sibling key adds the children's own keys, one level down.
        let mut sibling = vec![0; n];
        for (i, &id) in order.iter().enumerate() {
            let mut h = Fast128::default();
            h.write_u128(local[id.index()]);
            for c in children(i) {
                h.write_u128(local[c.index()]);
            }
            sibling[id.index()] = h.finish128();
        }
        let sibling_unique = sibling_uniqueness(raw, order, children, &sibling);
        // Bottom-up: a node's children come after it in pre-order.
        let mut content = vec![0; n];
        for (i, &id) in order.iter().enumerate().rev() {
            let mut h = Fast128::default();
            h.write_u128(local[id.index()]);
            for c in children(i) {
                h.write_u128(content[c.index()]);
            }
            content[id.index()] = h.finish128();
        }
        let full_unique = unique_keys(n, order.iter().map(|id| id.index()), |i| full[i]);
        Keys { full, full_unique, sibling, sibling_unique, content }
    }

    /// Whether exactly one reachable node has `id`'s full key.
    pub fn full_unique(&self, id: NodeId) -> bool {
        self.full_unique.get(id.index()).copied().unwrap_or(false)
    }
}

/// For each index below `len`, whether it is among `members` and no other member has its
/// key (`key(i)`); indexes outside `members` are `false`.
///
/// By sorting, not by a map: counting 100,000 keys in a hash map took most of the keys' time
/// (a cache miss per key), where a sort of (key, index) pairs runs through memory in order.
pub(super) fn unique_keys(
    len: usize,
    members: impl Iterator<Item = usize>,
    key: impl Fn(usize) -> Key,
) -> Vec<bool> {
    let mut unique = vec![false; len];
    // The high half of each key first: pairs of 16 bytes sort faster than pairs holding the
    // whole key; a run sharing the high half is then told apart by the whole key.
    let mut pairs: Vec<(u64, u32)> = members.map(|i| ((key(i) >> 64) as u64, i as u32)).collect();
    pairs.sort_unstable();
    let mut run: Vec<(Key, u32)> = Vec::new();
    for group in pairs.chunk_by(|a, b| a.0 == b.0) {
        if let [(_, only)] = group {
            unique[*only as usize] = true;
            continue;
        }
        run.clear();
        run.extend(group.iter().map(|&(_, i)| (key(i as usize), i)));
        run.sort_unstable();
        for same in run.chunk_by(|a, b| a.0 == b.0) {
            if let [(_, only)] = same {
                unique[*only as usize] = true;
            }
        }
    }
    unique
}

/// For each reachable node, whether none of its siblings shares its key in `keys`.
/// `children(i)` are the children of `order[i]`.
fn sibling_uniqueness<'k>(
    raw: &Tree,
    order: &[NodeId],
    children: impl Fn(usize) -> &'k [NodeId],
    local: &[Key],
) -> Vec<bool> {
    let mut unique = vec![false; local.len()];
    if let Some(root) = raw.root() {
        unique[root.index()] = true;
    }
    let mut buf: Vec<Key> = Vec::new();
    for i in 0..order.len() {
        let kids = children(i);
        match kids.len() {
            0 => {}
            1 => unique[kids[0].index()] = true,
            _ => {
                buf.clear();
                buf.extend(kids.iter().map(|k| local[k.index()]));
                buf.sort_unstable();
                for k in kids {
                    let key = local[k.index()];
                    let first = buf.partition_point(|x| *x < key);
                    unique[k.index()] = buf.get(first + 1) != Some(&key);
                }
            }
        }
    }
    unique
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::role::Role;
    use crate::tree::{NativeId, Node};

    fn order(t: &Tree) -> Vec<NodeId> {
        t.preorder().map(|(id, _)| id).collect()
    }

    fn n(role: Role, name: &str, id: &str) -> Node {
        Node::new(role, name, NativeId::new("doc", id))
    }

    #[test]
    fn keys_ignore_native_ids_and_values_but_see_ancestors() {
        let mut a = Tree::with_root(n(Role::Document, "", "0"));
        let ra = a.root().unwrap();
        let fa = a.append(ra, n(Role::Form, "Login", "1"));
        let xa = a.append(fa, n(Role::TextBox, "Email", "2"));
        let ya = a.append(ra, n(Role::TextBox, "Email", "3"));
        let mut b = Tree::with_root(n(Role::Document, "", "x0"));
        let rb = b.root().unwrap();
        let fb = b.append(rb, n(Role::Form, "Login", "x1"));
        let mut field = n(Role::TextBox, "Email", "x2");
        field.value = Some("typed".into());
        let xb = b.append(fb, field);
        let ka = Keys::of(&a, &order(&a));
        let kb = Keys::of(&b, &order(&b));
        assert_eq!(ka.full[xa.index()], kb.full[xb.index()]);
        assert_eq!(ka.sibling[xa.index()], ka.sibling[ya.index()]);
        assert_ne!(ka.full[xa.index()], ka.full[ya.index()], "different ancestors, different full key");
        assert!(ka.full_unique(xa) && ka.full_unique(ya));
    }

    #[test]
    fn fast_keys_do_not_collide_on_similar_inputs() {
        let key = |s: &str| {
            let mut h = Fast128::default();
            s.hash(&mut h);
            h.finish128()
        };
        let mut seen = std::collections::HashSet::new();
        for i in 0..200_000u32 {
            assert!(seen.insert(key(&format!("item {i}"))));
            assert!(seen.insert(key(&i.to_string())));
        }
        for s in ["", "a", "a\0", "\0a", "aaaaaaaa", "aaaaaaaaa", "aaaaaaaa\0"] {
            assert!(seen.insert(key(s)), "{s:?}");
        }
        let pair = |a: &str, b: &str| {
            let mut h = Fast128::default();
            a.hash(&mut h);
            b.hash(&mut h);
            h.finish128()
        };
        assert_ne!(pair("ab", "c"), pair("a", "bc"));
    }

    #[test]
    fn sibling_uniqueness_counts_look_alikes() {
        let mut t = Tree::with_root(n(Role::List, "", "0"));
        let r = t.root().unwrap();
        let a = t.append(r, n(Role::ListItem, "x", "1"));
        let b = t.append(r, n(Role::ListItem, "x", "2"));
        let c = t.append(r, n(Role::ListItem, "y", "3"));
        let k = Keys::of(&t, &order(&t));
        assert!(!k.sibling_unique[a.index()] && !k.sibling_unique[b.index()]);
        assert!(k.sibling_unique[c.index()] && k.sibling_unique[r.index()]);
        assert!(!k.full_unique(a) && k.full_unique(c));
    }

    #[test]
    fn a_links_query_is_not_in_its_key_but_its_path_and_fragment_are() {
        let mut t = Tree::with_root(n(Role::Document, "", "0"));
        let r = t.root().unwrap();
        let link = |t: &mut Tree, id: &str, url: &str| {
            let mut l = n(Role::Link, "json", id);
            l.url = Some(url.into());
            t.append(r, l)
        };
        let a = link(&mut t, "1", "/data/books.json?_sort=id");
        let b = link(&mut t, "2", "/data/books.json?_sort=year&author=x");
        let c = link(&mut t, "3", "/data/books.json?_sort=id#top");
        let d = link(&mut t, "4", "/data/other.json?_sort=id");
        let k = Keys::of(&t, &order(&t));
        assert_eq!(k.full[a.index()], k.full[b.index()]);
        assert_ne!(k.full[a.index()], k.full[c.index()]);
        assert_ne!(k.full[a.index()], k.full[d.index()]);
        assert_eq!(url_key(Some("/p?q=1#f")), Some(("/p", "#f")));
        assert_eq!(url_key(Some("/p#f?x")), Some(("/p", "#f?x")));
    }
}
