//! The baselines a session diffs against: per (client, target), the last snapshot that client
//! was sent, and the last one of each of a few documents it saw before.
//!
//! An agent that goes back to a page it saw is shown that same document again when the
//! browser kept it (the back-forward cache restores it, with its elements and so their refs:
//! `refs::away`). The snapshot it was sent of that page is then the baseline that says least:
//! what changed since, often nothing. So when the current baseline is of another document, the
//! last snapshot sent of this one is diffed against instead. A document is known by its root's
//! native id (a page's frame and loader: a new load of the same URL is another document).

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use super::ClientId;
use crate::project::ProjectOptions;
use crate::refs::TargetId;
use crate::snapshot::Snapshot;
use crate::tree::NativeId;

mod saved;

pub(super) use saved::SavedBaselines;

/// Documents remembered per (client, target) besides the current one.
pub(super) const EARLIER_DOCUMENTS: usize = 4;

/// What a client was last sent for a target.
#[derive(Debug)]
pub(super) struct Baseline {
    /// What the client was shown (an outline when the page was over the budget).
    pub snapshot: Snapshot,
    pub options: ProjectOptions,
    pub partial: bool,
    /// The client was not shown what a modal dialog covers in this snapshot: a whole answer
    /// drew it as `… N elements behind the dialog`, and no answer since showed it. When the
    /// dialog goes, a diff's `no longer covered: e4, e5 …` would name refs it never saw.
    pub unseen_behind: bool,
    pub last_used: Instant,
}

impl Baseline {
    /// The document the snapshot shows: its root's native id. `None` for a part of a page
    /// (`snapshot ref=…`), whose root is an element, not a document.
    fn document(&self) -> Option<&NativeId> {
        match self.options.view.scope {
            Some(_) => None,
            None => document_of(&self.snapshot),
        }
    }
}

/// The document a snapshot shows: its root's native id.
pub(super) fn document_of(snapshot: &Snapshot) -> Option<&NativeId> {
    snapshot.tree.root().map(|r| &snapshot.tree.node(r).native)
}

type Key = (ClientId, TargetId);

/// What the client's last answer showed when an earlier baseline was made current again
/// ([`Baselines::back_to`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Back {
    /// Another document: the answer says the client is back on this one.
    FromAnotherDocument,
    /// A part of this page (`snapshot ref=…`): the client never left it.
    FromAPart,
}

/// All baselines of a session.
#[derive(Debug, Default)]
pub(super) struct Baselines {
    current: HashMap<Key, Baseline>,
    /// The last baseline of each earlier document, most recent last.
    earlier: HashMap<Key, VecDeque<Baseline>>,
}

impl Baselines {
    /// The current baseline of `key`.
    pub fn get(&self, key: &Key) -> Option<&Baseline> {
        self.current.get(key)
    }

    /// The current baseline of `key`, to mark it used.
    pub fn get_mut(&mut self, key: &Key) -> Option<&mut Baseline> {
        self.current.get_mut(key)
    }

    /// Makes `baseline` the current one of `key`. The one it replaces, when it shows another
    /// document, is kept as that document's last.
    pub fn insert(&mut self, key: Key, baseline: Baseline) {
        let document = baseline.document().cloned();
        if let Some(old) = self.current.insert(key.clone(), baseline) {
            if old.document().is_some() && old.document() != document.as_ref() {
                self.keep_earlier(key, old);
            }
        }
    }

    /// When the current baseline of `key` shows another document than `next`, or a part of a
    /// page, and the last one sent of `next`'s document was made with `options`, makes that
    /// one current again (the other is kept as its document's last) and says what the client
    /// was on. After a part, the page the client last saw whole is what it knows.
    pub fn back_to(&mut self, key: &Key, next: &Snapshot, options: &ProjectOptions) -> Option<Back> {
        let document = document_of(next)?;
        let current = self.current.get(key)?;
        if current.document() == Some(document) {
            return None;
        }
        let back = if current.document().is_some() { Back::FromAnotherDocument } else { Back::FromAPart };
        let list = self.earlier.get_mut(key)?;
        let at = list.iter().position(|b| b.document() == Some(document) && &b.options == options)?;
        let found = list.remove(at)?;
        if let Some(old) = self.current.insert(key.clone(), found) {
            self.keep_earlier(key.clone(), old);
        }
        Some(back)
    }

    fn keep_earlier(&mut self, key: Key, old: Baseline) {
        let list = self.earlier.entry(key).or_default();
        list.retain(|b| b.document() != old.document());
        list.push_back(old);
        while list.len() > EARLIER_DOCUMENTS {
            list.pop_front();
        }
    }

    /// Drops baselines not used for longer than `max_age`.
    pub fn expire(&mut self, now: Instant, max_age: Duration) {
        let fresh = |b: &Baseline| now.saturating_duration_since(b.last_used) <= max_age;
        self.current.retain(|_, b| fresh(b));
        self.earlier.retain(|_, list| {
            list.retain(fresh);
            !list.is_empty()
        });
    }

    /// Drops the least recently used current baselines (with their earlier documents) past
    /// `max`.
    pub fn evict(&mut self, max: usize) {
        while self.current.len() > max {
            let oldest = self.current.iter().min_by_key(|(_, b)| b.last_used).map(|(k, _)| k.clone());
            match oldest {
                Some(k) => {
                    self.current.remove(&k);
                    self.earlier.remove(&k);
                }
                None => break,
            }
        }
    }

    /// Drops what matches `keep == false`.
    pub fn retain(&mut self, keep: impl Fn(&Key) -> bool) {
        self.current.retain(|k, _| keep(k));
        self.earlier.retain(|k, _| keep(k));
    }

    /// Current baselines kept.
    pub fn len(&self) -> usize {
        self.current.len()
    }
}
