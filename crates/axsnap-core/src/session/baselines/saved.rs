//! The baselines written out and read back: the baselines part of a saved session
//! (`crate::session::SavedSession`).
//!
//! Every baseline is kept with its snapshot (in the compact form of `saved::snapshot`), its
//! options, whether it was partial and its age: the time since it was last used, in
//! milliseconds, at the `now` it was saved, read back as that long before the `now` it is
//! restored (an `Instant` means nothing in another process). Entries are written sorted by
//! (client, target), so one session always saves the same way.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::{Baseline, Baselines, Key};
use crate::project::ProjectOptions;
use crate::refs::TargetId;
use crate::session::saved::snapshot::SavedSnapshot;
use crate::session::ClientId;

/// [`Baselines`] written out ([`Baselines::save`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(in crate::session) struct SavedBaselines {
    /// The current baseline of each (client, target).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    current: Vec<(ClientId, TargetId, SavedBaseline)>,
    /// The last baselines of earlier documents of each (client, target), most recent last.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    earlier: Vec<(ClientId, TargetId, Vec<SavedBaseline>)>,
}

/// One [`Baseline`].
#[derive(Clone, Debug, Serialize, Deserialize)]
struct SavedBaseline {
    snapshot: SavedSnapshot,
    options: ProjectOptions,
    #[serde(default, skip_serializing_if = "is_false")]
    partial: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    unseen_behind: bool,
    /// Milliseconds since it was last used, at the `now` it was saved.
    age_ms: u64,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl SavedBaseline {
    fn of(b: &Baseline, now: Instant) -> SavedBaseline {
        let age = now.saturating_duration_since(b.last_used).as_millis();
        SavedBaseline {
            snapshot: SavedSnapshot::of(&b.snapshot),
            options: b.options.clone(),
            partial: b.partial,
            unseen_behind: b.unseen_behind,
            age_ms: u64::try_from(age).unwrap_or(u64::MAX),
        }
    }

    /// The baseline, last used `age_ms` before `now`; `None` when `now` is too early an
    /// instant to go back that far and the baseline is older than `max_age` (the next step
    /// would drop it).
    fn baseline(self, now: Instant, max_age: Duration) -> Result<Option<Baseline>, String> {
        let age = Duration::from_millis(self.age_ms);
        let last_used = match now.checked_sub(age) {
            Some(t) => t,
            None if age > max_age => return Ok(None),
            None => now,
        };
        let snapshot = self.snapshot.snapshot()?;
        let (options, partial, unseen_behind) = (self.options, self.partial, self.unseen_behind);
        Ok(Some(Baseline { snapshot, options, partial, unseen_behind, last_used }))
    }
}

impl Baselines {
    /// Every baseline, with ages relative to `now`.
    pub(in crate::session) fn save(&self, now: Instant) -> SavedBaselines {
        let mut current: Vec<_> = self
            .current
            .iter()
            .map(|((c, t), b)| (c.clone(), t.clone(), SavedBaseline::of(b, now)))
            .collect();
        current.sort_unstable_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let mut earlier: Vec<_> = self
            .earlier
            .iter()
            .map(|((c, t), list)| {
                (c.clone(), t.clone(), list.iter().map(|b| SavedBaseline::of(b, now)).collect())
            })
            .collect();
        earlier.sort_unstable_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        SavedBaselines { current, earlier }
    }

    /// The baselines `saved` holds, last used as long before `now` as they were before the
    /// `now` they were saved at; `max_age` is the policy's (see [`SavedBaseline::baseline`]).
    /// `Err` says what does not hold together.
    pub(in crate::session) fn restore(
        saved: SavedBaselines,
        now: Instant,
        max_age: Duration,
    ) -> Result<Baselines, String> {
        let mut current: HashMap<Key, Baseline> = HashMap::with_capacity(saved.current.len());
        let mut seen: HashSet<Key> = HashSet::with_capacity(saved.current.len());
        for (client, target, b) in saved.current {
            let key = (client, target);
            if !seen.insert(key.clone()) {
                return Err(format!("client {:?} on target {} has two baselines", key.0 .0, key.1));
            }
            if let Some(b) = b.baseline(now, max_age)? {
                current.insert(key, b);
            }
        }
        let mut earlier: HashMap<Key, VecDeque<Baseline>> = HashMap::with_capacity(saved.earlier.len());
        seen.clear();
        for (client, target, list) in saved.earlier {
            let key = (client, target);
            if !seen.insert(key.clone()) {
                return Err(format!(
                    "client {:?} on target {} has two lists of earlier documents",
                    key.0 .0, key.1
                ));
            }
            let mut kept = VecDeque::with_capacity(list.len());
            for b in list {
                if let Some(b) = b.baseline(now, max_age)? {
                    kept.push_back(b);
                }
            }
            if !kept.is_empty() {
                earlier.insert(key, kept);
            }
        }
        Ok(Baselines { current, earlier })
    }
}
