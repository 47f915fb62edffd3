//! The engine pipeline as the CLI runs it: read a recorded tree, project, assign refs.

use std::path::Path;

use anyhow::Context;
use axsnap_core::interchange::{read_tree, ReadLimits, RecordedTree};
use axsnap_core::project::{project, ProjectOptions, View};
use axsnap_core::refs::RefSpace;
use axsnap_core::{Header, Snapshot, TargetId};

use crate::cli::ViewArgs;

/// Reads a recorded tree file.
pub fn read(path: &Path) -> anyhow::Result<RecordedTree> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    read_tree(&bytes, &ReadLimits::default()).with_context(|| format!("cannot load {}", path.display()))
}

/// Projection options from the view flags.
pub fn options(view: &ViewArgs) -> ProjectOptions {
    ProjectOptions {
        view: View {
            interactive_only: view.interactive,
            top_surface: view.top_surface,
            viewport: view.viewport,
            max_depth: view.max_depth,
            max_nodes: view.max_nodes,
            scope: None,
            from: None,
        },
        ..ProjectOptions::default()
    }
}

/// Projects a recorded tree and gives its nodes refs in `refs`, as snapshot `seq`.
pub fn snapshot(rec: &RecordedTree, opts: &ProjectOptions, refs: &mut RefSpace, seq: u64) -> Snapshot {
    let target = TargetId("cli".into());
    let mut p = project(&rec.tree, opts);
    refs.refresh_projection(&target, &rec.tree, &mut p);
    Snapshot {
        target,
        seq,
        header: Header { url: rec.target.url.clone(), title: rec.target.title.clone() },
        tree: p.tree,
        stats: p.stats,
    }
}
