//! Documents that left and may come back: the refs their elements held, by native id.
//!
//! A navigation makes the old document's refs stale (the ones not carried to the new page).
//! But a browser may keep the document itself: Chromium's back-forward cache restores the
//! same document, the same elements with the same native ids, when the agent goes back. Those
//! are the elements the refs named, not look-alikes, so their refs come back with them, and
//! the agent's earlier view of the page is good again.
//!
//! While its document is away a ref is stale like any other (an action on it is refused); it
//! is live again only on the native id it last named, in a scope (document) that had left
//! the captures and is back. A scope is remembered while it is among the last
//! [`MAX_SCOPES`] to leave, and only [`MAX_REFS`] refs in all, so a long session's memory stays
//! bounded; a ref whose slot was forgotten meanwhile does not come back.

use std::collections::{HashMap, HashSet, VecDeque};

use super::Ref;
use crate::tree::NativeId;

/// Most documents remembered per target (the agent's recent history).
pub(super) const MAX_SCOPES: usize = 8;
/// Most refs remembered per target over all of them.
pub(super) const MAX_REFS: usize = 200_000;

/// The refs of documents that left one target's captures, most recent last.
#[derive(Debug, Default)]
pub(super) struct Away {
    scopes: VecDeque<(String, Vec<(Ref, NativeId)>)>,
    refs: usize,
}

impl Away {
    /// Remembers refs that went stale because their scope left the captures.
    pub(super) fn record(&mut self, left: Vec<(Ref, NativeId)>) {
        let mut by_scope: HashMap<String, Vec<(Ref, NativeId)>> = HashMap::new();
        for (r, native) in left {
            by_scope.entry(native.scope.clone()).or_default().push((r, native));
        }
        let mut scopes: Vec<_> = by_scope.into_iter().collect();
        scopes.sort_by(|a, b| a.0.cmp(&b.0));
        for (scope, refs) in scopes {
            // A scope that left twice (it came back partly, then left again) keeps both sets.
            match self.scopes.iter_mut().find(|(s, _)| *s == scope) {
                Some((_, had)) => {
                    self.refs += refs.len();
                    had.extend(refs);
                }
                None => {
                    self.refs += refs.len();
                    self.scopes.push_back((scope, refs));
                }
            }
        }
        while self.scopes.len() > MAX_SCOPES || (self.refs > MAX_REFS && self.scopes.len() > 1) {
            if let Some((_, refs)) = self.scopes.pop_front() {
                self.refs -= refs.len();
            }
        }
        if self.refs > MAX_REFS {
            // One document over the bound on its own: it is not kept.
            self.scopes.clear();
            self.refs = 0;
        }
    }

    /// Whether no scope is remembered (the common case: nothing to look for).
    pub(super) fn is_empty(&self) -> bool {
        self.scopes.is_empty()
    }

    /// Takes the refs of the remembered scopes that are in `present`, by native id.
    pub(super) fn take_back(&mut self, present: &HashSet<&str>) -> HashMap<NativeId, Ref> {
        let mut back = HashMap::new();
        let mut i = 0;
        while i < self.scopes.len() {
            if present.contains(self.scopes[i].0.as_str()) {
                if let Some((_, refs)) = self.scopes.remove(i) {
                    self.refs -= refs.len();
                    back.extend(refs.into_iter().map(|(r, n)| (n, r)));
                }
            } else {
                i += 1;
            }
        }
        back
    }

    /// The documents remembered, oldest first: each scope with its refs and the native ids
    /// they named (all in that scope), for saving (module `saved`).
    pub(super) fn documents(&self) -> impl Iterator<Item = (&str, &[(Ref, NativeId)])> {
        self.scopes.iter().map(|(scope, refs)| (scope.as_str(), refs.as_slice()))
    }

    /// The documents [`Away::documents`] gave, oldest first.
    pub(super) fn from_documents(documents: Vec<(String, Vec<(Ref, NativeId)>)>) -> Away {
        let refs = documents.iter().map(|(_, refs)| refs.len()).sum();
        Away { scopes: documents.into(), refs }
    }

    /// Forgets everything (the target closed).
    pub(super) fn clear(&mut self) {
        self.scopes.clear();
        self.refs = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(scope: &str, id: &str) -> NativeId {
        NativeId::new(scope, id)
    }

    #[test]
    fn a_scope_comes_back_once_and_others_stay() {
        let mut away = Away::default();
        away.record(vec![(Ref(1), n("a", "1")), (Ref(2), n("b", "1")), (Ref(3), n("a", "2"))]);
        let present: HashSet<&str> = ["a"].into_iter().collect();
        let back = away.take_back(&present);
        assert_eq!(back.len(), 2);
        assert_eq!(back[&n("a", "2")], Ref(3));
        assert!(away.take_back(&present).is_empty(), "taken once");
        let b: HashSet<&str> = ["b"].into_iter().collect();
        assert_eq!(away.take_back(&b).len(), 1);
        assert!(away.is_empty());
    }

    #[test]
    fn only_the_most_recent_scopes_are_kept() {
        let mut away = Away::default();
        for s in 0..MAX_SCOPES + 3 {
            away.record(vec![(Ref(s as u32 + 1), n(&format!("s{s}"), "1"))]);
        }
        let first: HashSet<&str> = ["s0", "s1", "s2"].into_iter().collect();
        assert!(away.take_back(&first).is_empty(), "the oldest went first");
        let last = format!("s{}", MAX_SCOPES + 2);
        let present: HashSet<&str> = [last.as_str()].into_iter().collect();
        assert_eq!(away.take_back(&present).len(), 1);
        assert_eq!(away.refs, MAX_SCOPES - 1);
    }

    #[test]
    fn the_ref_bound_drops_whole_documents() {
        let mut away = Away::default();
        let big = |scope: &str, from: u32| -> Vec<(Ref, NativeId)> {
            (0..MAX_REFS as u32 / 2 + 1).map(|i| (Ref(from + i), n(scope, &i.to_string()))).collect()
        };
        away.record(big("a", 1));
        away.record(big("b", 1_000_000));
        assert_eq!(away.scopes.len(), 1, "a went to make room for b");
        assert!(away.refs <= MAX_REFS);
        away.record((0..MAX_REFS as u32 + 1).map(|i| (Ref(i + 1), n("c", &i.to_string()))).collect());
        assert!(away.is_empty() && away.refs == 0, "a document over the bound alone is not kept");
    }
}
