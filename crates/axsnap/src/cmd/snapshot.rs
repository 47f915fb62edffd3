//! `axsnap snapshot --tree FILE`: the projected snapshot of a recorded tree.

use axsnap_core::refs::RefSpace;
use axsnap_core::render::render_snapshot;

use crate::cli::SnapshotArgs;
use crate::{output, pipeline};

pub fn run(a: &SnapshotArgs) -> anyhow::Result<()> {
    let rec = pipeline::read(&a.tree)?;
    let snap = pipeline::snapshot(&rec, &pipeline::options(&a.view), &mut RefSpace::new(), 1);
    output::emit(&render_snapshot(&snap, a.output.format.into()), a.output.stats);
    Ok(())
}
