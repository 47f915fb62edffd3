//! Structural keys of a raw capture: what churn matching compares when native ids cannot.
//!
//! For every node reachable in a raw tree:
//! - `local`: a 128-bit hash of the node's own identifying fields (role, name, developer id,
//!   URL, level), deliberately not value or states, which change while an element lives;
//! - `full`: `local` plus the chain of all ancestors' (role, name), root first.
//!
//! Keys are hashes, 128 bits wide, so that an accidental collision (which could carry a ref to
//! a wrong element) is out of practical reach. The hasher is SipHash with fixed keys
//! ([`DefaultHasher::new`]), so keys computed in two refreshes of one process compare equal.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::tree::{NodeId, Tree};

/// A structural key.
pub(super) type Key = u128;

/// Two independent SipHash streams giving a 128-bit result.
struct Hasher128 {
    a: DefaultHasher,
    b: DefaultHasher,
}

impl Hasher128 {
    fn new() -> Hasher128 {
        let mut b = DefaultHasher::new();
        // A different prefix makes the second stream independent of the first.
        b.write_u64(0x9e37_79b9_7f4a_7c15);
        Hasher128 { a: DefaultHasher::new(), b }
    }

    fn finish128(&self) -> Key {
        ((self.a.finish() as u128) << 64) | self.b.finish() as u128
    }
}

impl Hasher for Hasher128 {
    fn write(&mut self, bytes: &[u8]) {
        self.a.write(bytes);
        self.b.write(bytes);
    }

    fn finish(&self) -> u64 {
        self.a.finish()
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

/// A map keyed by [`Key`].
pub(super) type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// The keys of every node reachable in one raw tree, indexed by arena index.
pub(super) struct Keys {
    /// Own identifying fields.
    pub local: Vec<Key>,
    /// Own fields plus the ancestors' (role, name) chain.
    pub full: Vec<Key>,
    /// How many reachable nodes share each `full` key.
    full_count: KeyMap<u32>,
    /// Whether no sibling shares the node's `local` key.
    pub sibling_unique: Vec<bool>,
}

impl Keys {
    /// Computes the keys of `raw` in one iterative pre-order walk.
    pub fn of(raw: &Tree) -> Keys {
        let n = raw.arena_len();
        let mut local = vec![0; n];
        let mut full = vec![0; n];
        // Chain of (role, name) from the root down to and including each node.
        let mut chain: Vec<Key> = vec![0; n];
        let mut full_count = KeyMap::default();
        full_count.reserve(n);
        for (id, _) in raw.preorder() {
            let node = raw.node(id);
            let mut h = Hasher128::new();
            node.role.hash(&mut h);
            node.name.hash(&mut h);
            let own = h.finish128();
            let mut h = Hasher128::new();
            own.hash(&mut h);
            node.dev_id.hash(&mut h);
            node.url.hash(&mut h);
            node.level.hash(&mut h);
            let loc = h.finish128();
            let above = node.parent.map_or(0, |p| chain[p.index()]);
            let mut h = Hasher128::new();
            above.hash(&mut h);
            own.hash(&mut h);
            chain[id.index()] = h.finish128();
            let mut h = Hasher128::new();
            above.hash(&mut h);
            loc.hash(&mut h);
            let f = h.finish128();
            local[id.index()] = loc;
            full[id.index()] = f;
            *full_count.entry(f).or_insert(0) += 1;
        }
        let sibling_unique = sibling_uniqueness(raw, &local);
        Keys { local, full, full_count, sibling_unique }
    }

    /// Whether exactly one reachable node has `id`'s full key.
    pub fn full_unique(&self, id: NodeId) -> bool {
        self.full_count.get(&self.full[id.index()]) == Some(&1)
    }
}

/// For each reachable node, whether none of its siblings shares its local key.
fn sibling_uniqueness(raw: &Tree, local: &[Key]) -> Vec<bool> {
    let mut unique = vec![false; local.len()];
    if let Some(root) = raw.root() {
        unique[root.index()] = true;
    }
    let mut buf: Vec<Key> = Vec::new();
    for (id, _) in raw.preorder() {
        let kids = &raw.node(id).children;
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
        let ka = Keys::of(&a);
        let kb = Keys::of(&b);
        assert_eq!(ka.full[xa.index()], kb.full[xb.index()]);
        assert_eq!(ka.local[xa.index()], ka.local[ya.index()]);
        assert_ne!(ka.full[xa.index()], ka.full[ya.index()], "different ancestors, different full key");
        assert!(ka.full_unique(xa) && ka.full_unique(ya));
    }

    #[test]
    fn sibling_uniqueness_counts_look_alikes() {
        let mut t = Tree::with_root(n(Role::List, "", "0"));
        let r = t.root().unwrap();
        let a = t.append(r, n(Role::ListItem, "x", "1"));
        let b = t.append(r, n(Role::ListItem, "x", "2"));
        let c = t.append(r, n(Role::ListItem, "y", "3"));
        let k = Keys::of(&t);
        assert!(!k.sibling_unique[a.index()] && !k.sibling_unique[b.index()]);
        assert!(k.sibling_unique[c.index()] && k.sibling_unique[r.index()]);
        assert!(!k.full_unique(a) && k.full_unique(c));
    }
}
