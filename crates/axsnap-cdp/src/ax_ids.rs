//! The AX id index of one `getFullAXTree` answer: id -> position, for linking children.

use std::borrow::Cow;
use std::collections::HashMap;

/// AX id -> position in the answer. Chromium's ids are decimal integers in two dense runs
/// (small positive ones for DOM nodes, negative ones from -1,000,000,000 down for text boxes),
/// so two plain vectors serve: hashing 60,000 string ids cost as much as all the rest of the
/// linking. Anything else falls back to a map. A repeated id names its last node.
pub(crate) struct IdIndex<'v>(Index<'v>);

enum Index<'v> {
    Dense { pos: Run, neg: Run },
    Map(HashMap<Cow<'v, str>, u32>),
}

/// Positions of the ids `base..base + slots.len()`.
#[derive(Default)]
struct Run {
    base: i64,
    slots: Vec<u32>,
}

impl Run {
    fn new(ids: impl Iterator<Item = i64> + Clone, budget: usize) -> Option<Run> {
        let (Some(min), Some(max)) = (ids.clone().min(), ids.max()) else { return Some(Run::default()) };
        let len = usize::try_from(max.checked_sub(min)?).ok()?.checked_add(1)?;
        (len <= budget).then(|| Run { base: min, slots: vec![u32::MAX; len] })
    }

    fn slot(&mut self, id: i64) -> Option<&mut u32> {
        let k = usize::try_from(id.checked_sub(self.base)?).ok()?;
        self.slots.get_mut(k)
    }

    fn get(&self, id: i64) -> Option<u32> {
        let k = usize::try_from(id.checked_sub(self.base)?).ok()?;
        self.slots.get(k).copied().filter(|&i| i != u32::MAX)
    }
}

impl<'v> IdIndex<'v> {
    /// Indexes `ids` by position.
    pub(crate) fn new(ids: &[Cow<'v, str>]) -> IdIndex<'v> {
        let nums: Option<Vec<i64>> = ids.iter().map(|id| canonical_number(id)).collect();
        let budget = ids.len().saturating_mul(8).saturating_add(1024);
        if let Some(nums) = nums {
            let pos = Run::new(nums.iter().copied().filter(|&k| k >= 0), budget);
            let neg = Run::new(nums.iter().copied().filter(|&k| k < 0), budget);
            if let (Some(mut pos), Some(mut neg)) = (pos, neg) {
                for (i, &k) in nums.iter().enumerate() {
                    let run = if k >= 0 { &mut pos } else { &mut neg };
                    if let Some(slot) = run.slot(k) {
                        *slot = i as u32;
                    }
                }
                return IdIndex(Index::Dense { pos, neg });
            }
        }
        IdIndex(Index::Map(ids.iter().enumerate().map(|(i, id)| (id.clone(), i as u32)).collect()))
    }

    /// The position of `id`.
    pub(crate) fn get(&self, id: &str) -> Option<u32> {
        match &self.0 {
            Index::Dense { pos, neg } => {
                let k = canonical_number(id)?;
                if k >= 0 {
                    pos.get(k)
                } else {
                    neg.get(k)
                }
            }
            Index::Map(m) => m.get(id).copied(),
        }
    }
}

/// `id` as a number when it is written the one canonical way (so two spellings never meet).
/// By hand: it runs for every id and every child link.
fn canonical_number(id: &str) -> Option<i64> {
    let (negative, digits) = match id.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    // 18 digits always fit an i64.
    if digits.is_empty() || digits.len() > 18 || (digits.len() > 1 && digits[0] == b'0') {
        return None;
    }
    let mut n: i64 = 0;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    match (negative, n) {
        (true, 0) => None,
        (true, n) => Some(-n),
        (false, n) => Some(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_canonical_numbers_are_numbers() {
        assert_eq!(canonical_number("0"), Some(0));
        assert_eq!(canonical_number("5257"), Some(5257));
        assert_eq!(canonical_number("-1000059184"), Some(-1000059184));
        for id in ["", "-", "-0", "07", "+7", "1a", "1234567890123456789", " 1"] {
            assert_eq!(canonical_number(id), None, "{id:?}");
        }
    }
}
