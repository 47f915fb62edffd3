//! A ref space written out and read back: the refs part of a saved session
//! (`crate::session::SavedSession`), for a session handed to another process.
//!
//! The form holds what cannot be rebuilt: every slot (target, native id, role and name, the
//! structure churn matching compares), each target's refs given to a repeated native id, its
//! scopes and the documents away, and the refresh counter. The rest is rebuilt on reading: the
//! index of live refs by native id (every live ref of a target that is not one of its repeats:
//! the refresh keeps them so, and a collision of its 64-bit keys only ever sends a ref to the
//! repeats), the target index and the live counts of chunks. A slot's `seen` and `written`
//! marks are only compared with the refresh under way, whose number is past every saved one,
//! so they restart at 0. Native scopes are written once and slots name them by number;
//! structural keys are 22 characters of base64url.
//!
//! Reading checks what the engine relies on, so that a corrupt or hostile form is an error,
//! never a panic or an endless loop: targets in range and named once, chunks whole, scopes in
//! range, repeats live refs of their own target, no two live refs on one native id of a
//! target, no ref 0, no structure on a stale ref, no cycle of structural ancestors (churn
//! matching climbs them), counters that can still count.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use super::away::Away;
use super::keys::Key;
use super::slots::{Slots, CHUNK};
use super::{NativeIndex, Ref, RefSpace, Slot, Structure, TargetId, TargetRefs};
use crate::role::Role;
use crate::tree::NativeId;

/// Most refs a saved space may have given out (about 268 million): the engine keeps a flag
/// per ref number on some steps, so a corrupt count must not reach memory; a real session
/// stays far below.
const MAX_REFS: usize = (u32::MAX / 16) as usize;

/// A [`RefSpace`] written out ([`RefSpace::save`]), read back by [`RefSpace::restore`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct SavedRefs {
    /// The native scopes of the slots' native ids, named by index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<String>,
    /// Every slot by ref number, in chunks of `slots::CHUNK` (`None`: a chunk dropped).
    slots: Vec<Option<Vec<SavedSlot>>>,
    /// The targets, by index.
    targets: Vec<SavedTarget>,
    /// The refresh counter.
    generation: u64,
}

/// One ref.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedSlot {
    /// Index of the owning target.
    #[serde(rename = "t", default, skip_serializing_if = "is_zero")]
    target: u32,
    /// Index of the native id's scope in [`SavedRefs::scopes`] (with `id`).
    #[serde(rename = "s", default, skip_serializing_if = "is_zero")]
    scope: u32,
    /// The native id within its scope; `None`: stale.
    #[serde(rename = "i", default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    /// Role last shown.
    #[serde(rename = "r")]
    role: Role,
    /// Name last shown.
    #[serde(rename = "n", default, skip_serializing_if = "String::is_empty")]
    name: String,
    /// How the element sat in the last whole capture that had it.
    #[serde(rename = "k", default, skip_serializing_if = "Option::is_none")]
    structure: Option<SavedStructure>,
}

/// A [`Structure`], refs as numbers and keys as text, written short: a leaf's key among its
/// siblings is most often its content key (`l` is then [`SAME_AS_CONTENT`]), and the nearest
/// ancestor with a ref is the parent whenever the parent has one (`a` is then left out; it is
/// 0 for no ancestor beside a parent, which a capture never records).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedStructure {
    #[serde(rename = "f", default, skip_serializing_if = "Option::is_none", with = "key_text")]
    full: Option<Key>,
    /// The local key, or [`SAME_AS_CONTENT`].
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    local: Option<String>,
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    parent: Option<u32>,
    /// The ancestor, when it is not the parent (0: none).
    #[serde(rename = "a", default, skip_serializing_if = "Option::is_none")]
    ancestor: Option<u32>,
    #[serde(rename = "c", default, skip_serializing_if = "Option::is_none", with = "key_text")]
    content: Option<Key>,
    #[serde(rename = "u", default, skip_serializing_if = "Option::is_none", with = "key_text")]
    address: Option<Key>,
}

/// [`SavedStructure::local`] when it equals the content key.
const SAME_AS_CONTENT: &str = "=";

/// The refs of one target.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedTarget {
    id: TargetId,
    /// Refs given to a repeated native id (they go stale at the next refresh).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    extra: Vec<u32>,
    /// Native scopes in the last capture, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<String>,
    /// Documents away, oldest first: a scope with its refs and their native ids in it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    away: Vec<(String, Vec<(u32, String)>)>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl SavedStructure {
    fn of(s: &Structure) -> SavedStructure {
        let local = match s.local {
            Some(k) if s.content == Some(k) => Some(SAME_AS_CONTENT.to_string()),
            k => k.map(key_text::encode),
        };
        SavedStructure {
            full: s.full,
            local,
            parent: s.parent.map(|r| r.0),
            ancestor: (s.ancestor != s.parent).then(|| s.ancestor.map_or(0, |r| r.0)),
            content: s.content,
            address: s.address,
        }
    }

    fn structure(self) -> Result<Structure, String> {
        let local = match self.local.as_deref() {
            None => None,
            Some(SAME_AS_CONTENT) => Some(self.content.ok_or("a local key the same as no content key")?),
            Some(k) => Some(key_text::decode(k).ok_or("a structural key is not 22 base64url characters")?),
        };
        Ok(Structure {
            full: self.full,
            local,
            parent: self.parent.map(Ref),
            ancestor: match self.ancestor {
                Some(0) => None,
                Some(a) => Some(Ref(a)),
                None => self.parent.map(Ref),
            },
            content: self.content,
            address: self.address,
        })
    }
}

impl SavedSlot {
    /// The slot, checked against the scopes and the number of targets.
    fn slot(self, scopes: &[String], targets: usize) -> Result<Slot, String> {
        if self.target as usize >= targets {
            return Err(format!("a ref belongs to target {}, of {targets}", self.target));
        }
        let native = match self.id {
            Some(id) => {
                let scope = scopes
                    .get(self.scope as usize)
                    .ok_or_else(|| format!("a ref names native scope {}, of {}", self.scope, scopes.len()))?;
                Some(NativeId { scope: scope.clone(), id })
            }
            None => None,
        };
        if native.is_none() && self.structure.is_some() {
            return Err("a stale ref holds a structure".into());
        }
        Ok(Slot {
            target: self.target,
            native,
            role: self.role,
            name: self.name,
            structure: self.structure.map(SavedStructure::structure).transpose()?,
            seen: 0,
            written: 0,
        })
    }
}

impl RefSpace {
    /// Everything this space knows, to be read back by [`RefSpace::restore`].
    pub(crate) fn save(&self) -> SavedRefs {
        let mut scopes: Vec<String> = Vec::new();
        let mut scope_index: HashMap<&str, u32> = HashMap::new();
        let mut slots = Vec::with_capacity(self.slots.chunks().len());
        for chunk in self.slots.chunks() {
            let Some(chunk) = chunk else {
                slots.push(None);
                continue;
            };
            let mut saved = Vec::with_capacity(chunk.len());
            for s in chunk {
                let (scope, id) = match &s.native {
                    Some(n) => {
                        let next = scope_index.len() as u32;
                        let i = *scope_index.entry(n.scope.as_str()).or_insert_with(|| {
                            scopes.push(n.scope.clone());
                            next
                        });
                        (i, Some(n.id.clone()))
                    }
                    None => (0, None),
                };
                saved.push(SavedSlot {
                    target: s.target,
                    scope,
                    id,
                    role: s.role.clone(),
                    name: s.name.clone(),
                    structure: s.structure.as_ref().map(SavedStructure::of),
                });
            }
            slots.push(Some(saved));
        }
        let targets = self
            .targets
            .iter()
            .map(|t| {
                let mut scopes: Vec<String> = t.scopes.iter().cloned().collect();
                scopes.sort_unstable();
                let away = t
                    .away
                    .documents()
                    .map(|(scope, refs)| {
                        debug_assert!(
                            refs.iter().all(|(_, n)| n.scope == scope),
                            "an away ref of another scope"
                        );
                        (scope.to_string(), refs.iter().map(|(r, n)| (r.0, n.id.clone())).collect())
                    })
                    .collect();
                SavedTarget { id: t.id.clone(), extra: t.extra.iter().map(|r| r.0).collect(), scopes, away }
            })
            .collect();
        SavedRefs { scopes, slots, targets, generation: self.generation }
    }

    /// The space `saved` was written from, or what in it does not hold together.
    pub(crate) fn restore(saved: SavedRefs) -> Result<RefSpace, String> {
        let SavedRefs { scopes, slots, targets: saved_targets, generation } = saved;
        if generation == u64::MAX {
            return Err("the refresh counter is at its end".into());
        }
        let mut targets: Vec<TargetRefs> = Vec::with_capacity(saved_targets.len());
        let mut target_index: HashMap<TargetId, u32> = HashMap::with_capacity(saved_targets.len());
        for t in saved_targets {
            let i = u32::try_from(targets.len()).map_err(|_| "too many targets".to_string())?;
            if target_index.insert(t.id.clone(), i).is_some() {
                return Err(format!("target {} is saved twice", t.id));
            }
            let mut away = Vec::with_capacity(t.away.len());
            for (scope, refs) in t.away {
                let refs = refs
                    .into_iter()
                    .map(|(r, id)| match r {
                        0 => Err("a document away holds ref 0".to_string()),
                        r => Ok((Ref(r), NativeId { scope: scope.clone(), id })),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                away.push((scope, refs));
            }
            targets.push(TargetRefs {
                id: t.id,
                by_native: NativeIndex::default(),
                extra: t.extra.into_iter().map(Ref).collect(),
                scopes: t.scopes.into_iter().collect(),
                away: Away::from_documents(away),
            });
        }

        let chunks = slots
            .into_iter()
            .map(|chunk| {
                chunk
                    .map(|c| {
                        c.into_iter().map(|s| s.slot(&scopes, targets.len())).collect::<Result<Vec<_>, _>>()
                    })
                    .transpose()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let slots = Slots::from_chunks(chunks, MAX_REFS)?;

        // Repeats: live refs of their own target, each once.
        let mut extra: HashSet<Ref> = HashSet::new();
        for (ti, t) in targets.iter().enumerate() {
            for &r in &t.extra {
                let slot = held(&slots, r).ok_or_else(|| format!("repeat ref {r} was never given out"))?;
                if slot.native.is_none() || slot.target as usize != ti || !extra.insert(r) {
                    return Err(format!("repeat ref {r} is stale, of another target or listed twice"));
                }
            }
        }
        // The index of live refs by native id.
        for (c, chunk) in slots.chunks().iter().enumerate() {
            for (k, slot) in chunk.iter().flatten().enumerate() {
                let Some(native) = &slot.native else { continue };
                let r = Ref((c * CHUNK + k + 1) as u32);
                if extra.contains(&r) {
                    continue;
                }
                let Some(t) = targets.get_mut(slot.target as usize) else {
                    return Err(format!("ref {r} belongs to a target not saved"));
                };
                if !t.by_native.insert(native, r) {
                    return Err(format!("ref {r} names an element another live ref of its target names"));
                }
            }
        }
        check_ancestors(&slots)?;
        Ok(RefSpace { slots, targets, target_index, generation })
    }
}

/// The slot of `r`, when given out and held.
fn held(slots: &Slots, r: Ref) -> Option<&Slot> {
    slots.get(r.0.checked_sub(1)? as usize)
}

/// Checks that no chain of structural ancestors loops (churn matching climbs them; a capture
/// records them from one tree, so they never do).
fn check_ancestors(slots: &Slots) -> Result<(), String> {
    // false: on the chain being climbed; true: climbed before, ends well.
    let mut state: HashMap<u32, bool> = HashMap::new();
    let mut chain: Vec<u32> = Vec::new();
    for (c, chunk) in slots.chunks().iter().enumerate() {
        for (k, slot) in chunk.iter().flatten().enumerate() {
            if slot.structure.is_none() {
                continue;
            }
            let mut r = (c * CHUNK + k + 1) as u32;
            loop {
                match state.get(&r) {
                    Some(true) => break,
                    Some(false) => return Err(format!("the structural ancestors of ref e{r} loop")),
                    None => {}
                }
                let Some(s) = held(slots, Ref(r)).and_then(|s| s.structure) else { break };
                state.insert(r, false);
                chain.push(r);
                match s.ancestor {
                    Some(a) => r = a.0,
                    None => break,
                }
            }
            for r in chain.drain(..) {
                state.insert(r, true);
            }
        }
    }
    Ok(())
}

/// Structural keys as 22 characters of base64url (URL-safe alphabet, no padding), most
/// significant first: shorter in JSON than the 39-digit number, and a string survives any
/// JSON reader (a number past 64 bits does not).
mod key_text {
    use std::borrow::Cow;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Key;

    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const LEN: usize = 22;

    pub(super) fn encode(k: Key) -> String {
        (0..LEN).map(|i| DIGITS[((k >> (6 * (LEN - 1 - i))) & 63) as usize] as char).collect()
    }

    pub(super) fn decode(s: &str) -> Option<Key> {
        if s.len() != LEN {
            return None;
        }
        let mut k: Key = 0;
        for (i, b) in s.bytes().enumerate() {
            let d = match b {
                b'A'..=b'Z' => b - b'A',
                b'a'..=b'z' => b - b'a' + 26,
                b'0'..=b'9' => b - b'0' + 52,
                b'-' => 62,
                b'_' => 63,
                _ => return None,
            };
            // The first character holds the top 2 bits only.
            if i == 0 && d >= 4 {
                return None;
            }
            k = (k << 6) | Key::from(d);
        }
        Some(k)
    }

    pub(super) fn serialize<S: Serializer>(k: &Option<Key>, s: S) -> Result<S::Ok, S::Error> {
        match k {
            Some(k) => s.serialize_some(&encode(*k)),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Key>, D::Error> {
        let text = Option::<Cow<'de, str>>::deserialize(d)?;
        text.map(|t| {
            decode(&t).ok_or_else(|| D::Error::custom("a structural key is not 22 base64url characters"))
        })
        .transpose()
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn keys_read_back_as_written() {
            for k in [0, 1, 63, 64, u128::MAX, u128::MAX >> 1, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210] {
                assert_eq!(encode(k).len(), LEN);
                assert_eq!(decode(&encode(k)), Some(k), "{k:x}");
            }
            assert_eq!(decode("E".repeat(LEN).as_str()), None, "the first character holds 2 bits");
            assert_eq!(decode("A"), None);
            assert_eq!(decode(&"=".repeat(LEN)), None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Node, Tree};

    fn page(scope: &str, twin: bool) -> Tree {
        let n = |role: Role, name: &str, id: &str| Node::new(role, name, NativeId::new(scope, id));
        let mut t = Tree::with_root(n(Role::Document, "Page", "0"));
        let r = t.root().unwrap();
        let nav = t.append(r, n(Role::Navigation, "", "1"));
        t.append(nav, n(Role::Link, "Home", "2"));
        t.append(nav, n(Role::Link, "Docs", "3"));
        let main = t.append(r, n(Role::Main, "", "4"));
        t.append(main, n(Role::Heading, "Title", "5"));
        t.append(main, n(Role::Button, "Save", "6"));
        if twin {
            // A repeated native id: its second ref is kept aside (`extra`).
            t.append(main, n(Role::Button, "Save again", "6"));
        }
        t
    }

    fn refresh(space: &mut RefSpace, target: &str, raw: &Tree) {
        let mut p = raw.clone();
        space.refresh(&TargetId(target.into()), raw, &mut p);
    }

    /// Everything a space holds but the `seen` and `written` marks, in a comparable form.
    fn state(space: &RefSpace) -> String {
        let slots: Vec<_> = space
            .slots
            .chunks()
            .iter()
            .map(|c| {
                c.as_ref().map(|c| {
                    c.iter()
                        .map(|s| {
                            format!("{} {:?} {} {:?} {:?}", s.target, s.native, s.role, s.name, s.structure)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut index: Vec<_> = space.target_index.iter().collect();
        index.sort();
        let targets: Vec<_> = space
            .targets
            .iter()
            .map(|t| {
                let mut by_native: Vec<_> = t.by_native.0.iter().map(|(k, r)| (*k, *r)).collect();
                by_native.sort();
                let mut scopes: Vec<_> = t.scopes.iter().collect();
                scopes.sort();
                let away: Vec<_> = t.away.documents().collect();
                format!("{} {by_native:?} {:?} {scopes:?} {away:?}", t.id, t.extra)
            })
            .collect();
        format!("{slots:?}\n{index:?}\n{targets:?}\n{}", space.generation)
    }

    #[test]
    fn a_space_reads_back_whole_its_index_rebuilt() {
        let mut space = RefSpace::new();
        refresh(&mut space, "t1", &page("d1", false));
        refresh(&mut space, "t2", &page("e1", true));
        // A navigation: the document's refs are carried or away.
        let mut other = page("d2", false);
        let extra = other.root().unwrap();
        other.append(extra, Node::new(Role::Button, "Checkout", NativeId::new("d2", "9")));
        let heading = other.preorder().map(|(id, _)| id).find(|&id| other.node(id).name == "Title").unwrap();
        other.node_mut(heading).name = "Another title".into();
        refresh(&mut space, "t1", &other);
        let saved = serde_json::to_string(&space.save()).unwrap();
        let back = RefSpace::restore(serde_json::from_str(&saved).unwrap()).unwrap();
        assert_eq!(state(&back), state(&space));
        assert!(!space.targets[1].extra.is_empty(), "the twin's ref is kept aside");
        assert!(space.targets[0].away.documents().count() == 1, "the heading's ref is away");
        assert!(space.slots.chunks()[0].as_ref().unwrap().iter().all(|s| s.seen <= space.generation));
    }
}
