//! `axsnap snapshot URL | --tree FILE`: the projected snapshot of a live page or a recorded tree.

use anyhow::Context;
use axsnap_core::interchange::{write_tree, TargetInfo};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::render_snapshot;
use axsnap_core::session::{Mode, Request};

use crate::cli::SnapshotArgs;
use crate::live::{self, Live};
use crate::{output, pipeline};

pub fn run(a: &SnapshotArgs) -> anyhow::Result<()> {
    let options = pipeline::options(&a.view);
    if let Some(tree) = &a.tree {
        let rec = pipeline::read(tree)?;
        let snap = pipeline::snapshot(&rec, &options, &mut RefSpace::new(), 1);
        output::emit(&render_snapshot(&snap, a.output.format.into()), a.output.stats);
        return Ok(());
    }
    let Some(url) = &a.url else { anyhow::bail!("give a URL or --tree FILE") };
    let request = Request { mode: Mode::Full, format: a.output.format.into(), options, ..Request::default() };
    live::runtime()?.block_on(async {
        let live = Live::open(&a.browser, url, &request).await?;
        let result = async {
            let step = &live.opened;
            if let Some(path) = &a.record {
                let capture = live.agent.last_capture().context("no capture to record")?;
                let info = TargetInfo {
                    kind: "page".into(),
                    id: capture.target.0.clone(),
                    url: capture.header.url.clone(),
                    title: capture.header.title.clone(),
                };
                std::fs::write(path, write_tree(&capture.tree, &info))
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            let mut text = String::new();
            if a.output.format == crate::cli::FormatArg::Text {
                for note in live.notes() {
                    text.push_str(&note);
                    text.push('\n');
                }
            } else {
                for note in live.notes() {
                    eprintln!("axsnap: {}", note.trim_start_matches("# "));
                }
            }
            text.push_str(&step.response.text);
            output::emit(&text, a.output.stats);
            anyhow::Ok(())
        }
        .await;
        let closed = live.close().await;
        result.and(closed)
    })
}
