//! `axsnap diff OLD NEW`: what changed between two recorded trees, as the agent would be sent it.

use anyhow::Context;
use axsnap_core::diff::{apply, diff};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_diff, render_unchanged};

use crate::cli::DiffArgs;
use crate::{output, pipeline};

pub fn run(a: &DiffArgs) -> anyhow::Result<()> {
    let old = pipeline::read(&a.old)?;
    let new = pipeline::read(&a.new)?;
    let opts = pipeline::options(&a.view);
    let mut refs = RefSpace::new();
    let prev = pipeline::snapshot(&old, &opts, &mut refs, 1);
    let next = pipeline::snapshot(&new, &opts, &mut refs, 2);
    let mut d = diff(&prev.tree, &next.tree).context("cannot diff these trees")?;
    d.from_seq = prev.seq;
    d.to_seq = next.seq;
    // The invariant every diff we print must hold; a failure here is a bug worth reporting.
    let back = apply(&prev.tree, &d).context("internal error: the diff does not apply")?;
    anyhow::ensure!(back == next.tree, "internal error: the diff does not reproduce the new tree");
    let format = a.output.format.into();
    let text = if d.is_empty() {
        render_unchanged(prev.seq, format)
    } else {
        render_diff(&d, &prev.tree, &next.tree, format)
    };
    output::emit(&text, a.output.stats);
    Ok(())
}
