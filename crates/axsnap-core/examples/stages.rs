//! Where the engine's time goes, stage by stage, on the synthetic web-like trees of the
//! benches: project, refs refresh, render (text) for a first snapshot, then for the same page
//! after a 1% edit plus the diff and its rendering. Medians of `RUNS` runs, wall time.
//!
//! `cargo run --release -p axsnap-core --example stages [SIZE…]` (default: 1000 10000 100000)

#[path = "../benches/synth/mod.rs"]
mod synth;

use std::time::Instant;

use axsnap_core::diff::diff;
use axsnap_core::project::{project, ProjectOptions};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_diff, render_snapshot, Format};
use axsnap_core::{Header, Snapshot, TargetId, Tree};

const RUNS: usize = 7;

/// Milliseconds of each stage of one run.
#[derive(Default, Clone, Copy)]
struct Stages {
    project: f64,
    refresh: f64,
    render: f64,
    project2: f64,
    refresh2: f64,
    diff: f64,
    render_diff: f64,
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn snapshot(
    raw: &Tree,
    refs: &mut RefSpace,
    seq: u64,
    project_ms: &mut f64,
    refresh_ms: &mut f64,
) -> Snapshot {
    let target = TargetId("stages".into());
    let t = Instant::now();
    let mut p = project(raw, &ProjectOptions::default());
    *project_ms = ms(t);
    let t = Instant::now();
    refs.refresh_projection(&target, raw, &mut p);
    *refresh_ms = ms(t);
    Snapshot { target, seq, header: Header::default(), tree: p.tree, stats: p.stats }
}

fn run(raw: &Tree, edited: &Tree) -> Stages {
    let mut s = Stages::default();
    let mut refs = RefSpace::new();
    let prev = snapshot(raw, &mut refs, 1, &mut s.project, &mut s.refresh);
    let t = Instant::now();
    let text = render_snapshot(&prev, Format::Text);
    s.render = ms(t);
    let next = snapshot(edited, &mut refs, 2, &mut s.project2, &mut s.refresh2);
    let t = Instant::now();
    let d = diff(&prev.tree, &next.tree).unwrap_or_else(|e| panic!("diff: {e}"));
    s.diff = ms(t);
    let t = Instant::now();
    let dt = render_diff(&d, &prev.tree, &next.tree, Format::Text);
    s.render_diff = ms(t);
    drop((text, dt));
    s
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!("nodes\tproject\trefresh\trender\t| full\t| project2\trefresh2\tdiff\trender_diff\t| diff path");
    let mut sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![1_000, 10_000, 100_000];
    }
    for size in sizes {
        let raw = synth::web_tree(size);
        let edited = synth::edit_one_percent(&raw);
        let runs: Vec<Stages> = (0..RUNS).map(|_| run(&raw, &edited)).collect();
        let m = |f: fn(&Stages) -> f64| median(runs.iter().map(f).collect());
        let full = median(runs.iter().map(|s| s.project + s.refresh + s.render).collect());
        let path = median(runs.iter().map(|s| s.project2 + s.refresh2 + s.diff + s.render_diff).collect());
        println!(
            "{}\t{:.2}\t{:.2}\t{:.2}\t| {:.2}\t| {:.2}\t{:.2}\t{:.2}\t{:.2}\t| {:.2}",
            raw.len(),
            m(|s| s.project),
            m(|s| s.refresh),
            m(|s| s.render),
            full,
            m(|s| s.project2),
            m(|s| s.refresh2),
            m(|s| s.diff),
            m(|s| s.render_diff),
            path,
        );
    }
}
