//! The comparison as markdown: the size and recall table, the timing table, the misses and the
//! token accounting.

use std::fmt::Write;

use crate::compare::{median, Comparison};
use crate::cost::{costs, Costs, Style};
use crate::recall::{visible_text, Score};
use axsnap_core::tokens::count_cl100k;

/// `12345` as `12,345`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn score(s: &Score) -> String {
    let near = s.misses.iter().filter(|m| m.near.is_some()).count();
    let near = if near > 0 { format!("; {near} more differ only in whitespace") } else { String::new() };
    format!("{}/{} ({:.1}%{near})", thousands(s.found), thousands(s.total), s.percent())
}

/// The size and recall table, one row per page.
pub fn size_table(c: &Comparison) -> String {
    let mut out = String::from(
        "| page | Playwright tokens (cl100k / o200k) | Playwright bytes | axsnap tokens (cl100k / o200k) \
         | axsnap bytes | ours / theirs (cl100k / o200k) | interactive recall | text recall | text missed \
         inside `[aria-hidden]` |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for p in &c.pages {
        let (t, o) = (&p.theirs.size, &p.ours.size);
        let (rc, ro) = p.ratios();
        let _ = writeln!(
            out,
            "| {} | {} / {} | {} | {} / {} | {} | {:.1}% / {:.1}% | {} | {} | {} |",
            p.page,
            thousands(t.tokens_cl100k),
            thousands(t.tokens_o200k),
            thousands(t.bytes),
            thousands(o.tokens_cl100k),
            thousands(o.tokens_o200k),
            thousands(o.bytes),
            rc * 100.0,
            ro * 100.0,
            score(&p.recall.interactive),
            score(&p.recall.text),
            p.recall.text.misses.iter().filter(|m| m.aria_hidden).count(),
        );
    }
    out
}

/// The timing table: medians of the runs.
pub fn time_table(c: &Comparison) -> String {
    let mut out = format!(
        "| page | Playwright `ariaSnapshot` (median of {n}) | axsnap capture (median of {n}) | axsnap capture + \
         project + render |\n| --- | --- | --- | --- |\n",
        n = c.runs
    );
    for p in &c.pages {
        let _ = writeln!(
            out,
            "| {} | {:.0} ms | {:.0} ms | {:.0} ms |",
            p.page,
            median(&p.theirs.times_ms),
            median(&p.ours.capture_ms),
            median(&p.ours.total_ms),
        );
    }
    out
}

/// What each page's recall missed, with Playwright's refs to find it in its snapshot.
pub fn misses(c: &Comparison) -> String {
    let mut out = String::new();
    for p in &c.pages {
        for (kind, s) in [("interactive", &p.recall.interactive), ("text", &p.recall.text)] {
            let hidden = s.misses.iter().filter(|m| m.aria_hidden).count();
            let _ = writeln!(
                out,
                "{} — {kind}: {} missed ({hidden} inside [aria-hidden])",
                p.page,
                thousands(s.misses.len())
            );
            for m in &s.misses {
                let text =
                    if m.what.contains(&m.text) { String::new() } else { format!(": {}", cut(&m.text, 100)) };
                let _ = writeln!(
                    out,
                    "  - {}{}{}{}{}",
                    m.what,
                    m.ref_id.as_deref().map(|r| format!(" [{r}]")).unwrap_or_default(),
                    if m.aria_hidden { " [aria-hidden]" } else { "" },
                    text,
                    m.near.as_deref().map(|n| format!(" (ours: {n:?})")).unwrap_or_default()
                );
            }
        }
    }
    out
}

/// Where each side's tokens go, per page: the most expensive line kinds.
pub fn cost_report(c: &Comparison, top: usize) -> String {
    let mut out = String::new();
    for p in &c.pages {
        // The floor for a snapshot that keeps all of Playwright's text: that text alone.
        let floor = count_cl100k(&visible_text(&p.theirs.parsed).join("\n"));
        let _ = writeln!(
            out,
            "{}: Playwright's visible text alone, one string a line: {} tokens ({:.1}% of its snapshot)",
            p.page,
            thousands(floor),
            pct(floor, p.theirs.size.tokens_cl100k)
        );
        for (side, text, style) in
            [("axsnap", &p.ours.text, Style::Axsnap), ("Playwright", &p.theirs.text, Style::Playwright)]
        {
            let k = costs(text, style);
            let _ = writeln!(out, "  {side}: {}", summary(&k));
            for kind in k.kinds.iter().take(top) {
                let _ = writeln!(
                    out,
                    "    {:<18} {:>7} lines {:>8} tokens ({:.1}%)",
                    kind.kind,
                    thousands(kind.lines),
                    thousands(kind.tokens),
                    pct(kind.tokens, k.tokens)
                );
            }
        }
    }
    out
}

fn summary(k: &Costs) -> String {
    let mut s = format!(
        "{} tokens by line; indentation {} ({:.1}%), refs {} ({:.1}%)",
        thousands(k.tokens),
        thousands(k.indent),
        pct(k.indent, k.tokens),
        thousands(k.refs),
        pct(k.refs, k.tokens)
    );
    if k.words > 0 {
        s.push_str(&format!("; its words alone {} ({:.1}%)", thousands(k.words), pct(k.words, k.tokens)));
    }
    s
}

fn pct(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// `s` cut to `max` characters with `…`.
pub fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers_and_cuts() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(cut("héllo", 2), "hé…");
        assert_eq!(cut("hi", 2), "hi");
    }
}
