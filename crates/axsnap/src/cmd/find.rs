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
            let mut live = Live::open(&a.browser, url).await?;
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

fn print_hits(hits: &[Hit], query: &str, format: FormatArg) -> anyhow::Result<()> {
    match format {
        FormatArg::Json => println!("{}", serde_json::to_string_pretty(hits)?),
        FormatArg::Text if hits.is_empty() => println!("no element matches {query:?}"),
        FormatArg::Text => {
            for h in hits {
                let path =
                    if h.path.is_empty() { String::new() } else { format!("  (in {})", h.path.join(" > ")) };
                println!("{} {} {:?}{}", h.r, h.role, h.name, path);
            }
        }
    }
    Ok(())
}
