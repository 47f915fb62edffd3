//! `axsnap snapshot URL | --tree FILE`: the projected snapshot of a live page or a recorded tree.

use std::time::Instant;

use anyhow::Context;
use axsnap_core::backend::Capture;
use axsnap_core::interchange::{write_tree, TargetInfo};
use axsnap_core::session::{ClientId, Mode, Policy, Request, Session};
use axsnap_core::{Header, Ref, TargetId};

use crate::cli::SnapshotArgs;
use crate::live::{self, Live};
use crate::{output, pipeline};

pub fn run(a: &SnapshotArgs) -> anyhow::Result<()> {
    let mut options = pipeline::options(&a.view);
    options.view.from = a.from;
    let max_tokens = (a.max_tokens > 0).then_some(a.max_tokens);
    let scope: Option<Ref> = a.scope.as_deref().map(str::parse).transpose()?;
    let request = Request {
        mode: Mode::Full,
        format: a.output.format.into(),
        options,
        max_tokens,
        ..Request::default()
    };
    if let Some(tree) = &a.tree {
        let rec = pipeline::read(tree)?;
        let header = Header { url: rec.target.url.clone(), title: rec.target.title.clone() };
        let capture = Capture::new(TargetId("cli".into()), header, rec.tree, None);
        let mut session = Session::new(Policy::default());
        let client = ClientId("cli".into());
        let mut response = session.snapshot(&client, &capture, &request, Instant::now())?;
        if let Some(r) = scope {
            // Refs are given in page order: the whole page first, then the part.
            let mut scoped = request.clone();
            scoped.options.view.scope = Some(session.resolve(&capture.target, r)?.clone());
            response = session.snapshot(&client, &capture, &scoped, Instant::now())?;
        }
        output::emit(&response.text, a.output.stats);
        return Ok(());
    }
    let Some(url) = &a.url else { anyhow::bail!("give a URL or --tree FILE") };
    live::runtime()?.block_on(async {
        let mut live = Live::open(&a.browser, url, &request).await?;
        let result = async {
            // The notes on the opened page (it did not settle, a dialog is open) are printed
            // above the answer in the text form, so they come out of its budget.
            let text_form = a.output.format == crate::cli::FormatArg::Text;
            let notes = live.notes();
            let note_tokens = if text_form && !notes.is_empty() {
                axsnap_core::tokens::count_cl100k(&notes.join("\n")) + 1
            } else {
                0
            };
            let mut req = request.clone();
            req.max_tokens = request.max_tokens.map(|b| b.saturating_sub(note_tokens).max(1));
            let answered;
            let step = match scope {
                None => {
                    let over = |text: &str| {
                        request
                            .max_tokens
                            .is_some_and(|b| axsnap_core::tokens::count_cl100k(text) + note_tokens > b)
                    };
                    if note_tokens > 0 && over(&live.opened.response.text) {
                        answered = live.agent.snapshot(&req).await?;
                        &answered
                    } else {
                        &live.opened
                    }
                }
                Some(r) => {
                    req.options.view.scope = Some(live.agent.resolve(&r.to_string())?);
                    answered = live.agent.snapshot(&req).await?;
                    &answered
                }
            };
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
            if text_form {
                for note in &notes {
                    text.push_str(note);
                    text.push('\n');
                }
            } else {
                for note in &notes {
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
