//! Every construct pages nest, 100,000 levels deep, through the real `axsnap` binary: a
//! snapshot of each version, the diff between them and a search for the changed leaf. Nothing
//! may overflow a stack (the process would abort), every snapshot fits the default budget and
//! says what it left out, and the change deep down is found and shown.
//!
//! The constructs are the engine's depth tests' own (`axsnap-core/tests/common/deep.rs`),
//! written as recorded trees. `DEEP_KIND=word` runs only the constructs whose name holds
//! `word`.

#[allow(dead_code)] // The run's time is not read here.
#[path = "support/bounded.rs"]
mod bounded;
#[path = "../../axsnap-core/tests/common/deep.rs"]
mod deep;

use std::path::{Path, PathBuf};
use std::time::Instant;

use axsnap_core::interchange::{write_tree, TargetInfo};

/// The constructs whose levels join into one text (inline runs, preformatted lines).
const JOINED: [&str; 2] = ["inline runs", "preformatted"];

/// Most time one command may take: generous, for a debug build on a busy 2-core machine.
const RUN_SECS: u64 = 240;

/// Runs `axsnap args`, killing it past [`RUN_SECS`].
fn run(args: &[&str]) -> Result<bounded::Finished, String> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    bounded::run(&args, &[], RUN_SECS)
}

/// The head and the tail of a long output.
fn clip(s: &str) -> String {
    let n = s.chars().count();
    if n <= 1200 {
        return s.to_string();
    }
    let head: String = s.chars().take(500).collect();
    let tail: String = s.chars().skip(n - 500).collect();
    format!("{head}\n[… {} chars …]\n{tail}", n - 1000)
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("axsnap-deep-cli-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn write(dir: &Path, kind: &str, version: &str, leaf: &str) -> Result<String, String> {
    let tree = deep::construct(kind, leaf);
    let path = dir.join(format!("{}-{version}.json", kind.replace(' ', "_")));
    std::fs::write(&path, write_tree(&tree, &TargetInfo::default())).map_err(|e| e.to_string())?;
    Ok(path.to_string_lossy().into_owned())
}

/// One construct: the four commands and what each must answer.
fn check(kind: &str, dir: &Path) -> Result<(), String> {
    let before = write(dir, kind, "before", "leaf")?;
    let after = write(dir, kind, "after", "new leaf")?;
    let ok = |args: &[&str]| -> Result<String, String> {
        let r = run(args)?;
        if !r.ok {
            return Err(format!("`axsnap {}` failed: {}", args.join(" "), clip(&r.stderr)));
        }
        Ok(r.stdout)
    };
    for tree in [&before, &after] {
        let out = ok(&["snapshot", "--tree", tree])?;
        let tokens = axsnap_core::tokens::count_cl100k(&out);
        if tokens > axsnap_core::outline::DEFAULT_MAX_TOKENS {
            return Err(format!("a snapshot of {tokens} tokens, over the default budget"));
        }
        // What did not fit is folded under a ref, or, for text joined into one piece (inline
        // runs, preformatted lines), cut with the count of what was cut.
        if !out.contains("folded") && !out.contains("…+") {
            return Err(format!("a snapshot that says nothing of what it left out: {}", clip(&out)));
        }
    }
    let diff = ok(&["diff", &before, &after])?;
    if JOINED.contains(&kind) {
        // The leaf is the end of one long text, which projection cuts: the diff can only say
        // that the text changed and by how much (its cut markers differ).
        let line = diff.lines().find(|l| l.starts_with("~ text:")).unwrap_or_default();
        let markers: Vec<&str> =
            line.split(" -> ").filter_map(|side| side.rsplit_once("…+")).map(|m| m.1).collect();
        if markers.len() != 2 || markers[0] == markers[1] {
            return Err(format!("the diff does not show the long text's change: {}", clip(&diff)));
        }
    } else if !diff.contains("new leaf") {
        return Err(format!("the diff does not show the changed leaf: {}", clip(&diff)));
    }
    let found = ok(&["find", "--tree", &after, "new leaf", "--limit", "1"])?;
    if !found.contains("new leaf") {
        return Err(format!("find did not find the changed leaf: {}", clip(&found)));
    }
    Ok(())
}

#[test]
fn every_construct_100k_deep_through_the_cli() {
    let only = std::env::var("DEEP_KIND").ok();
    let dir = scratch();
    let kinds: Vec<&str> =
        deep::KINDS.into_iter().filter(|k| only.as_deref().is_none_or(|w| k.contains(w))).collect();
    // Two at a time: each run is one single-threaded process.
    let mut failed = Vec::new();
    for pair in kinds.chunks(2) {
        let results: Vec<(&str, Result<(), String>)> = std::thread::scope(|s| {
            let runs: Vec<_> = pair
                .iter()
                .map(|&kind| {
                    let dir = &dir;
                    s.spawn(move || {
                        let start = Instant::now();
                        let result = check(kind, dir);
                        let took = start.elapsed().as_secs_f64();
                        eprintln!("{kind}: {:?} in {took:.1} s", result.as_ref().map(|_| "ok"));
                        (kind, result)
                    })
                })
                .collect();
            runs.into_iter().map(|r| r.join().unwrap_or(("?", Err("the check panicked".into())))).collect()
        });
        failed.extend(results.into_iter().filter_map(|(kind, r)| r.err().map(|e| format!("{kind}: {e}"))));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
