//! `axsnap find URL QUERY | --tree FILE QUERY`: ranked elements matching a query.

use axsnap_core::find::{find, Hit};
use axsnap_core::project::ProjectOptions;
use axsnap_core::refs::RefSpace;

use crate::cli::{FindArgs, FormatArg};
use crate::live::{self, Live};
use crate::pipeline;

pub fn run(a: &FindArgs) -> anyhow::Result<()> {
    let hits = match (&a.tree, a.args.as_slice()) {
        (Some(tree), [query]) => {
            let rec = pipeline::read(tree)?;
            let snap = pipeline::snapshot(&rec, &ProjectOptions::default(), &mut RefSpace::new(), 1);
            find(&snap.tree, query, a.limit)
        }
        (None, [url, query]) => live::runtime()?.block_on(async {
            let mut live = Live::open(&a.browser, url, &Default::default()).await?;
            for note in live.notes() {
                eprintln!("axsnap: {}", note.trim_start_matches("# "));
            }
            let hits = live.agent.find(query, a.limit).await.map_err(anyhow::Error::from);
            let closed = live.close().await;
            let hits = hits?;
            closed?;
            anyhow::Ok(hits)
        })?,
        (Some(_), _) => anyhow::bail!("with --tree, give just the QUERY"),
        (None, _) => anyhow::bail!("give a URL and a QUERY (or --tree FILE QUERY)"),
    };
    print_hits(&hits, a.args.last().map(String::as_str).unwrap_or_default(), a.format)
}

pub(crate) fn print_hits(hits: &[Hit], query: &str, format: FormatArg) -> anyhow::Result<()> {
    match format {
        FormatArg::Json => println!("{}", serde_json::to_string_pretty(hits)?),
        FormatArg::Text if hits.is_empty() => println!("no element matches {query:?}"),
        FormatArg::Text => {
            for h in hits {
                println!("{}", hit_line(h));
            }
        }
    }
    Ok(())
}

/// One hit as a line: `e72 radio "Pro"  (in form "Settings" > group "Plan")`, and the query
/// words it does not answer, if any. Every piece of a hit is bounded by `find`, so the line is.
fn hit_line(h: &Hit) -> String {
    let mut line = format!("{} {} {:?}", h.r, h.role, h.name);
    if !h.path.is_empty() {
        line.push_str(&format!("  (in {})", h.path.join(" > ")));
    }
    if !h.missing.is_empty() {
        line.push_str(&format!("  [no match for: {}]", h.missing.join(" ")));
    }
    line
}
