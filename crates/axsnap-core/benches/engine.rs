//! Engine benches: project + refs + render of a full snapshot, and diff + render after a 1%
//! edit, on synthetic web-like trees of 1k, 10k and 100k nodes.
//!
//! `cargo bench -p axsnap-core --bench engine`

mod synth;

use std::hint::black_box;

use axsnap_core::diff::diff;
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_diff, render_snapshot, Format};
use axsnap_core::{Header, Snapshot, TargetId, Tree};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn snapshot(raw: &Tree, refs: &mut RefSpace, seq: u64) -> Snapshot {
    let target = TargetId("bench".into());
    let mut p = project(raw, &ProjectOptions::default());
    refs.refresh_projection(&target, raw, &mut p);
    Snapshot { target, seq, header: Header::default(), tree: p.tree, stats: p.stats }
}

fn engine(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    g.sample_size(20);
    for size in [1_000usize, 10_000, 100_000] {
        let raw = synth::web_tree(size);
        let edited = synth::edit_one_percent(&raw);
        g.bench_with_input(BenchmarkId::new("project+refs+render", size), &raw, |b, raw| {
            b.iter(|| {
                let mut refs = RefSpace::new();
                let s = snapshot(raw, &mut refs, 1);
                black_box(render_snapshot(&s, Format::Text))
            })
        });
        // The steady state: refs already known from the previous snapshot.
        let mut refs = RefSpace::new();
        let prev = snapshot(&raw, &mut refs, 1);
        let next = snapshot(&edited, &mut refs, 2);
        g.bench_with_input(BenchmarkId::new("diff+render", size), &(prev, next), |b, (prev, next)| {
            b.iter(|| {
                let d = diff(&prev.tree, &next.tree).unwrap_or_else(|e| panic!("bench trees diff: {e}"));
                black_box(render_diff(&d, &prev.tree, &next.tree, Format::Text))
            })
        });
        g.bench_with_input(
            BenchmarkId::new("refresh-after-edit+project+render", size),
            &edited,
            |b, edited| {
                b.iter_batched(
                    || {
                        let mut refs = RefSpace::new();
                        snapshot(&raw, &mut refs, 1);
                        refs
                    },
                    |mut refs| {
                        let s = snapshot(edited, &mut refs, 2);
                        black_box(render_snapshot(&s, Format::Text))
                    },
                    criterion::BatchSize::LargeInput,
                )
            },
        );
    }
    g.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
