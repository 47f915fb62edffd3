//! `record-workload`: runs one workload of `bench/workloads` through axsnap's agent in this
//! process (the crates `axsnap mcp` is made of, with its default answers) and writes, after
//! every step, the page's raw tree in the interchange form (`NN-step.json`, what
//! `axsnap snapshot --record` writes, readable by `axsnap snapshot --tree`, `axsnap diff` and
//! the core's tests) beside the answer the agent was sent (`NN-step.txt`). For fixtures of
//! pages an agent reaches only by acting: a row's edit form after a login, a table filtered by
//! a key press.
//!
//! ```text
//! cargo run -p axsnap-bench --bin record-workload -- phpmyadmin --out target/record/phpmyadmin
//! ```
//!
//! Targets are found as the bench finds them for the `axsnap-auto` arm (`view`); `read`
//! steps are checked against the answers; the app is started and checked as the bench does.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use axsnap_agent::{Agent, AgentOptions, Step as AgentStep};
use axsnap_bench::apps::RunningApp;
use axsnap_bench::arms::{Dialect, Tools};
use axsnap_bench::check::check;
use axsnap_bench::runtime;
use axsnap_bench::view::{axsnap_kind, View};
use axsnap_bench::workload::{Step, Workload};
use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::backend::{ElementAction, TargetAction};
use axsnap_core::interchange::{write_tree, TargetInfo};
use axsnap_core::tokens::count_cl100k;
use clap::Parser;

/// Records the raw tree after each step of a workload.
#[derive(Parser, Debug)]
#[command(name = "record-workload")]
struct Args {
    /// The workload, by name (`phpmyadmin`), or a workload file of its own (`….json`: steps
    /// that only a recording needs, such as `fixtures/trees/phpmyadmin/filter-steps.json`).
    workload: String,
    /// Keep the browser's inline text boxes (the text runs' line pieces, which projection drops
    /// and which make a page's recording about a fifth larger).
    #[arg(long)]
    keep_inline_text: bool,
    /// Where to write the recordings (made if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The Chromium to drive (default: the one found on the machine).
    #[arg(long, value_name = "PATH", env = "AXSNAP_BROWSER")]
    browser: Option<PathBuf>,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("workloads");
    let file = if args.workload.ends_with(".json") {
        PathBuf::from(&args.workload)
    } else {
        dir.join(format!("{}.json", args.workload))
    };
    let w = Workload::load(&file)?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot make {}", args.out.display()))?;
    let scratch = args.out.join("app");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch)?;
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Only the web apps' starts read these; desktop workloads are not recorded here.
    let tools = Tools {
        axsnap: PathBuf::from("axsnap"),
        chromium: args.browser.clone().unwrap_or_default(),
        node_modules: here.join("node/node_modules"),
        desktop_venv: here.join("../target/bench-desktop-venv"),
        agent_browser: PathBuf::new(),
    };
    if w.app.desktop().is_some() {
        anyhow::bail!(
            "{} is a desktop workload: record its windows with `axsnap desktop snapshot --record`",
            w.name
        );
    }
    let app = RunningApp::start(&w.app, &w.start, &scratch, w.check.storage.is_some(), &tools)?;
    let rt = runtime()?;
    let result = rt.block_on(async {
        let opts = LaunchOptions { executable: args.browser.clone(), ..LaunchOptions::default() };
        let backend = CdpBackend::launch(opts).await?;
        let options = AgentOptions { capture_deadline: Duration::from_secs(20), ..AgentOptions::default() };
        let mut rec = Recorder {
            agent: Agent::new(backend, None, options),
            view: View::default(),
            out: &args.out,
            keep_inline_text: args.keep_inline_text,
        };
        let run = rec.run(&w, &app).await;
        let closed = rec.agent.into_backend().close().await;
        run.and(closed.map_err(anyhow::Error::from))
    });
    result?;
    match check(&w.check, &app, &tools.axsnap) {
        Ok(()) => println!("the check holds on the app"),
        Err(e) => println!("the check does not hold: {e}"),
    }
    Ok(())
}

/// The agent, what it was shown, and where its recordings go.
struct Recorder<'a> {
    agent: Agent<CdpBackend>,
    view: View,
    out: &'a Path,
    keep_inline_text: bool,
}

impl Recorder<'_> {
    /// Opens the workload's start page and runs its steps, recording after each.
    async fn run(&mut self, w: &Workload, app: &RunningApp) -> anyhow::Result<()> {
        let url = app.url(&w.start);
        let opened = self.agent.open(&url).await.with_context(|| format!("cannot open {url}"))?;
        self.record(0, &format!("open {}", w.start), &opened)?;
        for (k, step) in w.steps.iter().enumerate() {
            let label = step.label();
            let done = self.step(step).await.with_context(|| format!("step {}: {label}", k + 1))?;
            self.record(k + 1, &label, &done)?;
        }
        Ok(())
    }

    /// One step, its target found in what the agent was shown.
    async fn step(&mut self, step: &Step) -> anyhow::Result<AgentStep> {
        let target = match step.target() {
            Some(t) => {
                // The target, or failing that its `or` (the same thing as another arm shows it).
                let mut at = Some(&t);
                let mut found = None;
                while let (Some(t), None) = (at, found) {
                    found = self.view.find_in_row(&t.role, &t.name, t.near.as_deref(), t.row.as_deref());
                    at = t.or.as_deref();
                }
                Some(
                    found
                        .map(str::to_string)
                        .with_context(|| format!("no answer showed {} {:?}", t.role, t.name))?,
                )
            }
            None => None,
        };
        let element = match step {
            Step::Click(_) => Some(ElementAction::Click { count: 1 }),
            Step::Type { text, submit, replace, at_caret, .. } => Some(if *at_caret {
                ElementAction::TypeKeys { text: text.clone(), submit: *submit }
            } else {
                ElementAction::Type { text: text.clone(), clear: *replace, submit: *submit }
            }),
            Step::Select { option, .. } => Some(ElementAction::Select { values: vec![option.clone()] }),
            Step::Press { .. } | Step::Back | Step::Wait { .. } | Step::Read { .. } => None,
        };
        let done = match (target, element) {
            (Some(r), Some(action)) => self.agent.act(&r, &action).await?,
            _ => match step {
                Step::Press { keys } => {
                    let mut last = None;
                    for key in keys {
                        last =
                            Some(self.agent.act_on_target(&TargetAction::Press { keys: key.clone() }).await?);
                    }
                    last.context("no keys to press")?
                }
                Step::Back => self.agent.act_on_target(&TargetAction::Back).await?,
                Step::Wait { ms } => {
                    tokio::time::sleep(Duration::from_millis(*ms)).await;
                    self.agent.snapshot(&Default::default()).await?
                }
                Step::Read { text } => {
                    let done = self.agent.snapshot(&Default::default()).await?;
                    if !done.response.text.contains(text.as_str()) {
                        println!("note: the answer after `read` does not hold {text:?}");
                    }
                    done
                }
                _ => anyhow::bail!("nothing to act on"),
            },
        };
        Ok(done)
    }

    /// Writes step `k`'s capture and answer, and takes the answer into the view.
    fn record(&mut self, k: usize, label: &str, done: &AgentStep) -> anyhow::Result<()> {
        let text = &done.response.text;
        self.view.read(Dialect::Axsnap, text, Some(axsnap_kind(text)));
        let stem = format!("{k:02}-{}", slug(label));
        std::fs::write(self.out.join(format!("{stem}.txt")), text)?;
        let tokens = count_cl100k(text);
        match self.agent.last_capture() {
            Some(capture) => {
                let info = TargetInfo {
                    kind: "page".into(),
                    id: capture.target.0.clone(),
                    url: capture.header.url.clone(),
                    title: capture.header.title.clone(),
                };
                let mut json = write_tree(&capture.tree, &info);
                if !self.keep_inline_text {
                    json = without_inline_text(&json)?;
                }
                std::fs::write(self.out.join(format!("{stem}.json")), json)?;
                println!(
                    "{stem}: {} answer, {tokens} cl100k, {} nodes",
                    axsnap_kind(text),
                    capture.tree.len()
                );
            }
            None => println!("{stem}: {} answer, {tokens} cl100k, no capture", axsnap_kind(text)),
        }
        Ok(())
    }
}

/// A step's label as a file name: `click link "Browse"` -> `click-link-browse`.
fn slug(label: &str) -> String {
    let mut out = String::new();
    for c in label.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 48 {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The interchange form `json` without the browser's inline text boxes (role `inlinetextbox`:
/// the pieces a text run is laid out in, which projection drops), nor their ids in any
/// `children` list.
fn without_inline_text(json: &str) -> anyhow::Result<String> {
    let mut doc: serde_json::Value = serde_json::from_str(json).context("the recording is not JSON")?;
    let nodes = doc
        .get_mut("nodes")
        .and_then(serde_json::Value::as_array_mut)
        .context("the recording has no nodes")?;
    let inline = |n: &serde_json::Value| {
        n.get("role")
            .and_then(serde_json::Value::as_str)
            .is_some_and(|r| r.eq_ignore_ascii_case("inlinetextbox"))
    };
    let gone: std::collections::HashSet<u64> = nodes
        .iter()
        .filter(|n| inline(n))
        .filter_map(|n| n.get("id").and_then(serde_json::Value::as_u64))
        .collect();
    nodes.retain(|n| !inline(n));
    for node in nodes.iter_mut() {
        if let Some(children) = node.get_mut("children").and_then(serde_json::Value::as_array_mut) {
            children.retain(|c| c.as_u64().is_none_or(|id| !gone.contains(&id)));
            if children.is_empty() {
                if let Some(obj) = node.as_object_mut() {
                    obj.remove("children");
                }
            }
        }
    }
    Ok(serde_json::to_string(&doc)?)
}
