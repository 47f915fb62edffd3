//! The slot table: one slot per ref ever given, kept in fixed-size chunks so that a long
//! session's memory follows what lives, not everything it ever saw.
//!
//! Every navigation to new content gives new refs and makes the old ones stale. A stale slot
//! is kept for its error message ("the button "Save" it named is gone"), but only while it is
//! recent: a chunk whose refs are all stale and that lies behind the last
//! [`KEEP_RECENT_CHUNKS`] chunks is dropped, and its refs then read as forgotten (still stale,
//! without the role and name). Live refs keep their chunk, so a site's chrome that lives for the
//! whole session pins at most the chunks it was numbered in.

use std::ops::{Index, IndexMut};

use super::Slot;
use crate::tree::NativeId;

/// Slots per chunk.
pub(super) const CHUNK: usize = 1024;
/// The most recent chunks are kept even when all their refs are stale, so that a ref that went
/// stale recently still says what it named.
pub(super) const KEEP_RECENT_CHUNKS: usize = 64;

/// The slots, indexed by ref number - 1.
#[derive(Debug, Default)]
pub(super) struct Slots {
    /// `None` once dropped.
    chunks: Vec<Option<Vec<Slot>>>,
    /// Live slots (with a native id) per chunk.
    live: Vec<u32>,
    len: usize,
}

impl Slots {
    /// Number of slots ever pushed (refs given out).
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Slots still held in memory.
    pub(super) fn retained(&self) -> usize {
        self.chunks.iter().flatten().map(Vec::len).sum()
    }

    /// Appends a slot; its index is the old [`Slots::len`].
    pub(super) fn push(&mut self, slot: Slot) {
        if self.len % CHUNK == 0 {
            self.chunks.push(Some(Vec::with_capacity(CHUNK)));
            self.live.push(0);
        }
        let c = self.chunks.len() - 1;
        if slot.native.is_some() {
            self.live[c] += 1;
        }
        if let Some(chunk) = &mut self.chunks[c] {
            chunk.push(slot);
        }
        self.len += 1;
    }

    /// The slot at `i`; `None` when out of range or forgotten.
    pub(super) fn get(&self, i: usize) -> Option<&Slot> {
        self.chunks.get(i / CHUNK)?.as_ref()?.get(i % CHUNK)
    }

    /// Marks slot `i` stale, returning the native id it named.
    pub(super) fn make_stale(&mut self, i: usize) -> Option<NativeId> {
        let slot = &mut self[i];
        slot.structure = None;
        let native = slot.native.take();
        if native.is_some() {
            self.live[i / CHUNK] -= 1;
        }
        native
    }

    /// Points slot `i` at another native id (a carried ref), returning the old one.
    pub(super) fn repoint(&mut self, i: usize, native: NativeId) -> Option<NativeId> {
        let old = self[i].native.replace(native);
        if old.is_none() {
            self.live[i / CHUNK] += 1;
        }
        old
    }

    /// The chunks, in order (`None`: dropped), for saving (module `saved`).
    pub(super) fn chunks(&self) -> &[Option<Vec<Slot>>] {
        &self.chunks
    }

    /// Slots from chunks as [`Slots::chunks`] gave them (module `saved`): every chunk but the
    /// last holds [`CHUNK`] slots or was dropped, and the last is held with 1 to [`CHUNK`]
    /// (so a push lands in a held chunk). At most `max_len` slots in all. `Err` says what is
    /// wrong.
    pub(super) fn from_chunks(chunks: Vec<Option<Vec<Slot>>>, max_len: usize) -> Result<Slots, String> {
        let last = chunks.len().saturating_sub(1);
        let mut live = Vec::with_capacity(chunks.len());
        let mut len: usize = 0;
        for (c, chunk) in chunks.iter().enumerate() {
            let held = chunk.as_ref().map(Vec::len);
            match held {
                None if c == last => return Err("the last chunk of refs is missing".into()),
                Some(n) if c == last && !(1..=CHUNK).contains(&n) => {
                    return Err(format!("the last chunk of refs holds {n}, not 1 to {CHUNK}"));
                }
                Some(n) if c != last && n != CHUNK => {
                    return Err(format!("chunk {c} of refs holds {n}, not {CHUNK}"));
                }
                _ => {}
            }
            len = len.saturating_add(held.unwrap_or(CHUNK));
            if len > max_len {
                return Err(format!("more than {max_len} refs"));
            }
            let alive = chunk.iter().flatten().filter(|s| s.native.is_some()).count();
            live.push(alive as u32);
        }
        Ok(Slots { chunks, live, len })
    }

    /// Drops the chunks that hold only stale refs and are not among the most recent; returns
    /// how many slots that freed.
    pub(super) fn forget_old(&mut self) -> usize {
        let old = self.chunks.len().saturating_sub(KEEP_RECENT_CHUNKS);
        let mut freed = 0;
        for (chunk, &live) in self.chunks[..old].iter_mut().zip(&self.live) {
            if live == 0 {
                if let Some(c) = chunk.take() {
                    freed += c.len();
                }
            }
        }
        freed
    }
}

impl Index<usize> for Slots {
    type Output = Slot;

    /// Only for slots known to be held: a live ref's, or one given out since the last
    /// [`Slots::forget_old`] (a dropped chunk holds no live ref).
    fn index(&self, i: usize) -> &Slot {
        match self.get(i) {
            Some(s) => s,
            None => panic!("slot {i} is not held (out of range or forgotten)"),
        }
    }
}

impl IndexMut<usize> for Slots {
    fn index_mut(&mut self, i: usize) -> &mut Slot {
        match self.chunks.get_mut(i / CHUNK).and_then(Option::as_mut).and_then(|c| c.get_mut(i % CHUNK)) {
            Some(s) => s,
            None => panic!("slot {i} is not held (out of range or forgotten)"),
        }
    }
}
