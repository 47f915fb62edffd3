//! `axsnap find --tree FILE QUERY`: ranked elements matching a query.

use axsnap_core::find::find;
use axsnap_core::project::ProjectOptions;
use axsnap_core::refs::RefSpace;

use crate::cli::{FindArgs, FormatArg};
use crate::pipeline;

pub fn run(a: &FindArgs) -> anyhow::Result<()> {
    let rec = pipeline::read(&a.tree)?;
    let snap = pipeline::snapshot(&rec, &ProjectOptions::default(), &mut RefSpace::new(), 1);
    let hits = find(&snap.tree, &a.query, a.limit);
    match a.format {
        FormatArg::Json => println!("{}", serde_json::to_string_pretty(&hits)?),
        FormatArg::Text if hits.is_empty() => println!("no element matches {:?}", a.query),
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
