//! The workloads' report: per workload and arm, task success, tokens (cl100k and o200k) in
//! two client views and tool latency, medians over the runs; for `axsnap-auto` the median
//! per-step ratio to `axsnap-full` on the same step; every failure listed with its cause.
//!
//! The two views ([`crate::client_view`]): the text view (the answers' text content, what
//! text-first clients give the model) and the structured-first view (an answer's
//! `structuredContent` as JSON when it carries it and is no error: what Claude Code, Codex and
//! OpenCode give the model). They differ only for an arm that sends `structuredContent`.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::drive::RunRecord;

/// The median of `v` (the mean of the middle two for an even count); 0 for none.
pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// One workload × arm, summed up.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    /// Workload.
    pub workload: String,
    /// Arm.
    pub arm: String,
    /// Server name and version.
    pub server: String,
    /// Runs that succeeded, of all.
    pub succeeded: usize,
    /// Runs.
    pub runs: usize,
    /// Median over runs of the total cl100k tokens, text view.
    pub tokens_cl100k: f64,
    /// Median over runs of the total o200k tokens, text view.
    pub tokens_o200k: f64,
    /// Median over runs of the total cl100k tokens, structured-first view.
    pub structured_first_tokens_cl100k: f64,
    /// Median over runs of the total o200k tokens, structured-first view.
    pub structured_first_tokens_o200k: f64,
    /// Whether any answer of any run carried `structuredContent`.
    pub structured: bool,
    /// Median tool latency per step, over all steps of all runs (ms).
    pub step_latency_ms: f64,
    /// Median tool latency per call of the steps after the opening (one action and its
    /// answer each), over all runs (ms).
    pub call_latency_ms: f64,
    /// Per step: the median cl100k tokens over runs, text view.
    pub step_tokens: Vec<f64>,
    /// Per step: the median cl100k tokens over runs, structured-first view.
    pub structured_first_step_tokens: Vec<f64>,
}

/// Summaries of `runs`, by workload then arm (in the order the arms were given).
pub fn summarize(runs: &[RunRecord], arms: &[&str]) -> Vec<Summary> {
    let mut by: BTreeMap<(String, usize), Vec<&RunRecord>> = BTreeMap::new();
    for r in runs {
        let order = arms.iter().position(|a| *a == r.arm).unwrap_or(usize::MAX);
        by.entry((r.workload.clone(), order)).or_default().push(r);
    }
    by.into_values()
        .map(|rs| {
            let steps = rs.iter().map(|r| r.steps.len()).max().unwrap_or(0);
            let per_step = |f: fn(&crate::drive::StepRecord) -> usize| -> Vec<f64> {
                (0..steps)
                    .map(|i| median(rs.iter().filter_map(|r| r.steps.get(i)).map(|s| f(s) as f64).collect()))
                    .collect()
            };
            let total = |f: fn(&crate::drive::StepRecord) -> usize| {
                median(rs.iter().map(|r| r.steps.iter().map(f).sum::<usize>() as f64).collect())
            };
            Summary {
                workload: rs[0].workload.clone(),
                arm: rs[0].arm.clone(),
                server: rs[0].server.clone(),
                succeeded: rs.iter().filter(|r| r.success).count(),
                runs: rs.len(),
                tokens_cl100k: total(|s| s.tokens_cl100k),
                tokens_o200k: total(|s| s.tokens_o200k),
                structured_first_tokens_cl100k: total(|s| s.structured_first_tokens_cl100k),
                structured_first_tokens_o200k: total(|s| s.structured_first_tokens_o200k),
                structured: rs.iter().any(|r| r.steps.iter().any(|s| s.structured_answers > 0)),
                step_latency_ms: median(
                    rs.iter().flat_map(|r| r.steps.iter().map(|s| s.latency_ms)).collect(),
                ),
                call_latency_ms: median(
                    rs.iter()
                        .flat_map(|r| r.steps.iter().skip(1).flat_map(|s| s.calls_ms.iter().copied()))
                        .collect(),
                ),
                step_tokens: per_step(|s| s.tokens_cl100k),
                structured_first_step_tokens: per_step(|s| s.structured_first_tokens_cl100k),
            }
        })
        .collect()
}

/// The report in markdown.
pub fn markdown(runs: &[RunRecord], summaries: &[Summary], command: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Workloads over MCP\n\n`{command}`\n");
    let _ = writeln!(
        out,
        "Tokens are those of every tool answer the step took (for Playwright MCP the action's answer and the `browser_snapshot` after it; for `axsnap-full` the full snapshot after the action), medians over runs, in two client views: *text*, the answers' text content (what text-first clients such as Kimi Code give the model), and *structured-first*, an answer's `structuredContent` as compact JSON when it carries it and is no error, else its text (what Claude Code, Codex and OpenCode give the model). The two differ only for an arm that sends `structuredContent`. Latency is the tool time per step, median over all steps, and per call (one action and its answer; a fill and its Enter are two), median over the calls after the opening.\n"
    );
    let mut workloads: Vec<&str> = summaries.iter().map(|s| s.workload.as_str()).collect();
    workloads.dedup();
    for w in workloads {
        let rows: Vec<&Summary> = summaries.iter().filter(|s| s.workload == w).collect();
        let _ = writeln!(out, "## {w}\n");
        let _ = writeln!(
            out,
            "| arm | server | success | structuredContent | text cl100k | text o200k | structured-first cl100k | structured-first o200k | step latency ms | call latency ms |"
        );
        let _ = writeln!(out, "|{}", " --- |".repeat(10));
        for s in &rows {
            let _ = writeln!(
                out,
                "| {} | {} | {}/{} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} |",
                s.arm,
                s.server,
                s.succeeded,
                s.runs,
                if s.structured { "yes" } else { "no" },
                s.tokens_cl100k,
                s.tokens_o200k,
                s.structured_first_tokens_cl100k,
                s.structured_first_tokens_o200k,
                s.step_latency_ms,
                s.call_latency_ms
            );
        }
        let labels: Vec<String> = runs
            .iter()
            .filter(|r| r.workload == w)
            .max_by_key(|r| r.steps.len())
            .map(|r| r.steps.iter().map(|s| s.label.clone()).collect())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "\nTokens (cl100k) per step, medians, structured-first view (the text view in brackets where it differs):\n"
        );
        let _ = write!(out, "| step |");
        for s in &rows {
            let _ = write!(out, " {} |", s.arm);
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "|{}", " --- |".repeat(rows.len() + 1));
        for (i, l) in labels.iter().enumerate() {
            let _ = write!(out, "| {l} |");
            for s in &rows {
                match (s.structured_first_step_tokens.get(i), s.step_tokens.get(i)) {
                    (Some(sf), Some(t)) if sf != t => {
                        let _ = write!(out, " {sf:.0} ({t:.0}) |");
                    }
                    (Some(sf), _) => {
                        let _ = write!(out, " {sf:.0} |");
                    }
                    (None, _) => out.push_str(" – |"),
                }
            }
            let _ = writeln!(out);
        }
        if let Some(r) = auto_to_full(runs, w) {
            let _ = writeln!(
                out,
                "\n`axsnap-auto` / `axsnap-full`, median per-step ratio after the opening (text view): {:.2}",
                r
            );
        }
        let failures: Vec<&RunRecord> = runs.iter().filter(|r| r.workload == w && !r.success).collect();
        if !failures.is_empty() {
            let _ = writeln!(out, "\nFailures:\n");
            for f in failures {
                let _ = writeln!(out, "- {} run {}: {}", f.arm, f.run, f.failure.as_deref().unwrap_or("?"));
            }
        }
        let _ = writeln!(out);
    }
    out
}

/// The median over the steps after the opening of auto's tokens over full's on the same step
/// of the same run number.
fn auto_to_full(runs: &[RunRecord], w: &str) -> Option<f64> {
    let mut ratios = Vec::new();
    for a in runs.iter().filter(|r| r.workload == w && r.arm == "axsnap-auto") {
        let Some(f) = runs.iter().find(|r| r.workload == w && r.arm == "axsnap-full" && r.run == a.run)
        else {
            continue;
        };
        for (sa, sf) in a.steps.iter().zip(&f.steps).skip(1) {
            if sf.tokens_cl100k > 0 {
                ratios.push(sa.tokens_cl100k as f64 / sf.tokens_cl100k as f64);
            }
        }
    }
    (!ratios.is_empty()).then(|| median(ratios))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drive::StepRecord;

    fn run(arm: &str, run: usize, tokens: &[usize], success: bool) -> RunRecord {
        structured_run(arm, run, tokens, 1, success)
    }

    /// A run whose answers cost `factor` times their text in the structured-first view (1: no
    /// `structuredContent`).
    fn structured_run(arm: &str, run: usize, tokens: &[usize], factor: usize, success: bool) -> RunRecord {
        RunRecord {
            workload: "w".into(),
            arm: arm.into(),
            run,
            server: "s 1".into(),
            steps: tokens
                .iter()
                .map(|&t| StepRecord {
                    label: "step".into(),
                    bytes: t * 4,
                    tokens_cl100k: t,
                    tokens_o200k: t,
                    structured_first_bytes: t * 4 * factor,
                    structured_first_tokens_cl100k: t * factor,
                    structured_first_tokens_o200k: t * factor,
                    structured_answers: usize::from(factor > 1),
                    latency_ms: 10.0,
                    calls_ms: vec![t as f64],
                    kind: String::new(),
                })
                .collect(),
            success,
            failure: (!success).then(|| "no link".into()),
        }
    }

    #[test]
    fn medians_and_ratios() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), 2.5);
        let runs = vec![
            run("axsnap-auto", 0, &[100, 10, 20], true),
            run("axsnap-full", 0, &[100, 100, 100], true),
            run("axsnap-auto", 1, &[100, 30, 20], true),
            run("axsnap-full", 1, &[100, 100, 100], false),
        ];
        let s = summarize(&runs, &["axsnap-auto", "axsnap-full"]);
        assert_eq!((s[0].arm.as_str(), s[0].tokens_cl100k, s[0].succeeded), ("axsnap-auto", 140.0, 2));
        assert_eq!(s[0].step_tokens, vec![100.0, 20.0, 20.0]);
        // Calls after the opening only: 10, 20, 30, 20.
        assert_eq!(s[0].call_latency_ms, 20.0);
        assert_eq!(auto_to_full(&runs, "w"), Some(0.2));
        let md = markdown(&runs, &s, "bench");
        assert!(md.contains("| axsnap-full | s 1 | 1/2 |"), "{md}");
        assert!(md.contains("- axsnap-full run 1: no link"), "{md}");
        // Without structuredContent both views are the same.
        assert_eq!(s[0].structured_first_tokens_cl100k, s[0].tokens_cl100k);
        assert!(!s[0].structured);
    }

    #[test]
    fn both_views_are_reported_side_by_side() {
        let runs = vec![
            structured_run("axsnap-auto", 0, &[100, 10], 1, true),
            structured_run("peer", 0, &[100, 20], 10, true),
            structured_run("peer", 1, &[300, 20], 10, true),
        ];
        let s = summarize(&runs, &["axsnap-auto", "peer"]);
        assert_eq!(s[1].arm, "peer");
        // Medians over runs of the totals: 120 and 320 in text, ten times that as JSON.
        assert_eq!((s[1].tokens_cl100k, s[1].structured_first_tokens_cl100k), (220.0, 2200.0));
        assert_eq!(s[1].structured_first_tokens_o200k, 2200.0);
        assert_eq!(s[1].step_tokens, vec![200.0, 20.0]);
        assert_eq!(s[1].structured_first_step_tokens, vec![2000.0, 200.0]);
        assert!(s[1].structured && !s[0].structured);
        let md = markdown(&runs, &s, "bench");
        assert!(
            md.contains("| structuredContent | text cl100k | text o200k | structured-first cl100k |"),
            "{md}"
        );
        assert!(md.contains("| peer | s 1 | 2/2 | yes | 220 | 220 | 2200 | 2200 |"), "{md}");
        assert!(md.contains("| axsnap-auto | s 1 | 1/1 | no | 110 | 110 | 110 | 110 |"), "{md}");
        // Per step: the structured-first view, the text in brackets where it differs.
        assert!(md.contains("| step | 100 | 2000 (200) |"), "{md}");
        let json = serde_json::to_value(&s[1]).expect("json");
        assert_eq!(json["structured_first_tokens_cl100k"], 2200.0);
        assert_eq!(json["structured_first_step_tokens"][1], 200.0);
        let step = serde_json::to_value(&runs[1].steps[0]).expect("json");
        assert_eq!(
            (step["tokens_cl100k"].as_u64(), step["structured_first_tokens_cl100k"].as_u64()),
            (Some(100), Some(1000))
        );
        assert_eq!(step["structured_answers"], 1);
    }
}
