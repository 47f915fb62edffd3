//! What a session answer costs on a large page, end to end in the core: project, refs, fitting
//! the answer to the token budget (rendering and counting tokens), the auto decision and the
//! answer's measure. First a first snapshot, then the same page after a 1% edit (a diff).
//! Wall time: the first run alone ("cold": no line of the page counted before in this
//! process, as for a page an agent opens), then medians of the other runs ("warm": the lines
//! were counted before, as for the next steps on a page).
//!
//! `cargo run --release -p axsnap-core --example session_cost [SIZE…]` (default: 10000 100000)

#[path = "../benches/synth/mod.rs"]
mod synth;

use std::time::Instant;

use axsnap_core::backend::Capture;
use axsnap_core::session::{ClientId, Policy, Request, Session};
use axsnap_core::{Header, TargetId};

const RUNS: usize = 5;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut sizes: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![10_000, 100_000];
    }
    println!("nodes\tcold_first_ms\tcold_after_edit_ms\tfirst_ms\tafter_edit_ms\tfirst_tokens\tafter_edit_tokens\tanswer");
    for size in sizes {
        let raw = synth::web_tree(size);
        let edited = synth::edit_one_percent(&raw);
        let target = TargetId("t".into());
        let client = ClientId("c".into());
        let (mut first, mut after) = (Vec::new(), Vec::new());
        let mut shown = (0, 0, String::new());
        for _ in 0..RUNS {
            let mut session = Session::new(Policy::default());
            let request = Request::default();
            let a = Capture::new(target.clone(), Header::default(), raw.clone(), None);
            let b = Capture::new(target.clone(), Header::default(), edited.clone(), None);
            let t = Instant::now();
            let r1 = session.snapshot(&client, &a, &request, Instant::now());
            first.push(t.elapsed().as_secs_f64() * 1e3);
            let t = Instant::now();
            let r2 = session.snapshot(&client, &b, &request, Instant::now());
            after.push(t.elapsed().as_secs_f64() * 1e3);
            match (r1, r2) {
                (Ok(r1), Ok(r2)) => {
                    shown = (r1.size.tokens_cl100k, r2.size.tokens_cl100k, format!("{:?}", r2.answer));
                }
                (Err(e), _) | (_, Err(e)) => panic!("snapshot: {e}"),
            }
        }
        let (cold_first, cold_after) = (first[0], after[0]);
        println!(
            "{}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{}\t{}\t{}",
            raw.len(),
            cold_first,
            cold_after,
            median(first[1..].to_vec()),
            median(after[1..].to_vec()),
            shown.0,
            shown.1,
            shown.2
        );
    }
}
