//! `axsnap desktop apps | snapshot | find`: desktop apps' windows (AT-SPI on Linux, or a
//! recording anywhere).

use std::time::Duration;

use anyhow::Context;
use axsnap_agent::{Agent, AgentOptions};
use axsnap_core::interchange::{write_tree, TargetInfo};
use axsnap_core::session::{Mode, Request};
use axsnap_desktop::{DesktopBackend, DesktopError};
use axsnap_mcp::host::{self, Host};

use crate::cli::{DesktopCommand, DesktopFindArgs, DesktopSnapshotArgs, FormatArg, WindowArgs};
use crate::{live, output, pipeline};

pub fn run(c: &DesktopCommand) -> anyhow::Result<()> {
    live::runtime()?.block_on(async {
        match c {
            DesktopCommand::Apps { format, recording } => apps(*format, recording.as_deref()).await,
            DesktopCommand::Snapshot(a) => snapshot(a).await,
            DesktopCommand::Find(a) => find(a).await,
        }
    })
}

async fn apps(format: FormatArg, recording: Option<&std::path::Path>) -> anyhow::Result<()> {
    let mut backend = connect(recording).await?;
    let apps = backend.apps().await?;
    if format == FormatArg::Json {
        println!("{}", serde_json::to_string_pretty(&apps)?);
        return Ok(());
    }
    if apps.is_empty() {
        println!("no app on the accessibility bus exposes accessibility");
    }
    for app in &apps {
        println!("{}", app.name);
        if !app.answering {
            println!("  (not answering: busy or hung)");
        } else if app.windows.is_empty() {
            println!("  (no windows)");
        }
        for w in &app.windows {
            let mut line = format!("  {} {:?}", w.role, w.title);
            if w.active {
                line.push_str(" [active]");
            }
            if !w.showing {
                line.push_str(" [hidden]");
            }
            println!("{line}");
        }
    }
    Ok(())
}

/// The desktop, or the recording; a desktop out of reach points to `axsnap doctor --desktop`.
async fn connect(recording: Option<&std::path::Path>) -> anyhow::Result<DesktopBackend<Host>> {
    match host::connect(recording).await {
        Ok(backend) => Ok(backend),
        Err(e @ DesktopError::Unavailable(_)) if recording.is_none() => {
            anyhow::bail!("{e}; {}", axsnap_mcp::DESKTOP_DOCTOR_HINT)
        }
        Err(e) => Err(e.into()),
    }
}

/// An agent on the window `w` names.
async fn open(w: &WindowArgs, first: Request) -> anyhow::Result<Agent<DesktopBackend<Host>>> {
    let mut backend = connect(w.recording.as_deref()).await?;
    let target = backend.window(&w.app, w.window.as_deref()).await?;
    let options = AgentOptions {
        after_action: first,
        capture_deadline: Duration::from_secs(w.capture_timeout.max(1)),
        ..AgentOptions::default()
    };
    Ok(Agent::new(backend, Some(target), options))
}

async fn snapshot(a: &DesktopSnapshotArgs) -> anyhow::Result<()> {
    let request = Request {
        mode: Mode::Full,
        format: a.output.format.into(),
        options: pipeline::options(&a.view),
        max_tokens: (a.max_tokens > 0).then_some(a.max_tokens),
        ..Request::default()
    };
    let mut agent = open(&a.window, request.clone()).await?;
    let mut step = agent.snapshot(&request).await?;
    if let Some(r) = &a.scope {
        let mut scoped = request.clone();
        scoped.options.view.scope = Some(agent.resolve(r)?);
        step = agent.snapshot(&scoped).await?;
    }
    if let Some(path) = &a.record {
        let capture = agent.last_capture().context("no capture to record")?;
        let info = TargetInfo {
            kind: "window".into(),
            id: capture.target.0.clone(),
            url: None,
            title: capture.header.title.clone(),
        };
        let bytes = native_recording(&agent, &capture.target)
            .unwrap_or_else(|| write_tree(&capture.tree, &info).into_bytes());
        std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(partial) = agent.last_capture().and_then(|c| c.partial.clone()) {
        eprintln!("axsnap: partial window: {partial}");
    }
    output::emit(&step.response.text, a.output.stats);
    Ok(())
}

/// The window as the platform itself read it, where the platform has a recording form of its
/// own: UI Automation's elements as Accessibility Insights saves them (on Windows, and for a
/// Windows tree replayed anywhere).
fn native_recording(agent: &Agent<DesktopBackend<Host>>, target: &axsnap_core::TargetId) -> Option<Vec<u8>> {
    use axsnap_desktop::Either;
    match agent.backend_ref().platform() {
        Either::Right(Either::Right(uia)) => uia.recorded(target),
        #[cfg(windows)]
        Either::Left(uia) => uia.recorded(target),
        _ => None,
    }
}

async fn find(a: &DesktopFindArgs) -> anyhow::Result<()> {
    let mut agent = open(&a.window, Request::default()).await?;
    let hits = agent.find(&a.query, a.limit).await?;
    super::find::print_hits(&hits, &a.query, a.format)
}
