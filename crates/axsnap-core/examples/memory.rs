//! Peak heap per node of the engine pipeline on synthetic trees (the DESIGN goal: ≤ 2 KB/node).
//!
//! `cargo run --release -p axsnap-core --example memory`
//!
//! A counting global allocator tracks live and peak heap bytes. The figure per node counts
//! everything live at the peak: the raw tree, the projected tree, the ref tables, the previous
//! snapshot kept as the diff baseline and the rendered text.

#[path = "../benches/synth/mod.rs"]
mod synth;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use axsnap_core::diff::diff;
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_diff, render_snapshot, Format};
use axsnap_core::{Header, Snapshot, TargetId, Tree};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Project and refs as the session runs them: on a page of 20,000 raw nodes or more (the
/// session's `PARALLEL_NODES`), the projection on a thread of its own while the refs read the
/// raw tree, then the refresh.
fn snapshot(raw: &Tree, refs: &mut RefSpace, seq: u64) -> Snapshot {
    let target = TargetId("mem".into());
    if raw.arena_len() < 20_000 {
        let mut p = project(raw, &ProjectOptions::default());
        refs.refresh_projection(&target, raw, &mut p);
        return Snapshot { target, seq, header: Header::default(), tree: p.tree, stats: p.stats };
    }
    let (mut p, read) = std::thread::scope(|s| {
        let projecting = s.spawn(|| project(raw, &ProjectOptions::default()));
        let read = refs.read_raw(&target, raw, true);
        (projecting.join().unwrap_or_else(|_| panic!("projection panicked")), read)
    });
    refs.refresh_read(read, &mut p, false);
    Snapshot { target, seq, header: Header::default(), tree: p.tree, stats: p.stats }
}

fn main() {
    println!("nodes\tpeak_bytes\tbytes_per_raw_node\tfull_ms\tdiff_ms");
    for size in [1_000usize, 10_000, 100_000] {
        let raw = synth::web_tree(size);
        let edited = synth::edit_one_percent(&raw);
        let n = raw.len();
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let t0 = Instant::now();
        let mut refs = RefSpace::new();
        let prev = snapshot(&raw, &mut refs, 1);
        let full = render_snapshot(&prev, Format::Text);
        let full_ms = t0.elapsed().as_secs_f64() * 1e3;
        let t1 = Instant::now();
        let next = snapshot(&edited, &mut refs, 2);
        let d = diff(&prev.tree, &next.tree).unwrap_or_else(|e| panic!("diff: {e}"));
        let text = render_diff(&d, &prev.tree, &next.tree, Format::Text);
        let diff_ms = t1.elapsed().as_secs_f64() * 1e3;
        // Raw trees were allocated before `base`; count them in, as a live session holds them.
        let raw_bytes = approx_tree_bytes(&raw) + approx_tree_bytes(&edited);
        let peak = PEAK.load(Ordering::Relaxed) - base + raw_bytes;
        println!("{n}\t{peak}\t{}\t{full_ms:.1}\t{diff_ms:.1}", peak / n);
        drop((full, text));
    }
}

/// Heap bytes of a tree, measured by building a copy under the counting allocator.
fn approx_tree_bytes(t: &Tree) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    let copy = t.clone();
    let bytes = LIVE.load(Ordering::Relaxed) - before;
    drop(copy);
    bytes
}
