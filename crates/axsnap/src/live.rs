//! Live pages: launching or connecting to a browser and opening a page in it, within one
//! time budget, answering the JavaScript dialogs the page opens when asked to.

use std::time::{Duration, Instant};

use anyhow::Context;
use axsnap_agent::{Agent, AgentOptions, Step};
use axsnap_cdp::{CdpBackend, LaunchOptions, SettleOptions};
use axsnap_core::backend::{Backend, TargetAction};
use axsnap_core::session::Request;
use axsnap_core::TargetId;
use axsnap_mcp::{UrlPolicy, UrlRefused};

use crate::cli::{BrowserArgs, DialogAnswer};

/// Most dialogs `--dialog` answers in a row (a page may open one after another forever).
const MAX_DIALOGS: usize = 20;

/// A browser with one page open for this command.
pub struct Live {
    /// The agent over the browser, on the page this command opened.
    pub agent: Agent<CdpBackend>,
    /// The answer to the opening: the page as it stood when it settled (or the budget ran
    /// out), in the request the command asked for.
    pub opened: Step,
    target: TargetId,
    connected: bool,
}

/// How the command's time budget (`--capture-timeout`) is shared: the load wait gets this
/// part, the capture the rest but [`PROBES`] (the settle after the load fits in the load's
/// share).
const LOAD_SHARE: f64 = 0.35;
/// What the questions between the load wait and the capture may take on a page that does not
/// answer them (the ready-state probe, one settle read).
const PROBES: Duration = Duration::from_millis(1500);

impl Live {
    /// Launches (or connects to) a browser and opens `url` in a new tab; answers with `first`.
    /// The load and the capture share the `--capture-timeout` budget: a page that is still
    /// loading, busy in a script or waiting on the network is captured as it stands when its
    /// share runs out, and the answer says why it did not settle. A JavaScript dialog is
    /// reported, or answered with `--dialog`.
    pub async fn open(args: &BrowserArgs, url: &str, first: &Request) -> anyhow::Result<Live> {
        check_url(url)?;
        let budget = Duration::from_secs(args.capture_timeout.max(1));
        let started = match &args.cdp_endpoint {
            Some(endpoint) => CdpBackend::connect(endpoint).await.map(|b| (b, true)),
            None => {
                let opts = LaunchOptions { executable: args.browser.clone(), ..LaunchOptions::default() };
                CdpBackend::launch(opts).await.map(|b| (b, false))
            }
        };
        // A browser that cannot be started or reached is this machine's to fix, not the page's.
        let (mut backend, connected) =
            started.map_err(|e| anyhow::anyhow!("{e}; {}", axsnap_mcp::DOCTOR_HINT))?;
        // The budget starts once the browser is up: a launch has its own limit.
        let started = Instant::now();
        let load = budget.mul_f64(LOAD_SHARE).max(Duration::from_millis(500));
        let settle = SettleOptions::default();
        let blank = settle.blank.min(budget / 2);
        backend.set_settle_options(SettleOptions { load, cap: settle.cap.min(load), blank, ..settle });
        backend.set_ax_tree(args.ax_tree.into());
        let options = AgentOptions {
            after_action: first.clone(),
            capture_deadline: budget.saturating_sub(load + PROBES).max(Duration::from_secs(1)),
            ..AgentOptions::default()
        };
        let mut agent = Agent::new(backend, None, options);
        let opened = match agent.open(url).await {
            Ok(step) => step,
            Err(e) => {
                let mut backend = agent.into_backend();
                if connected {
                    if let Some(t) = backend.active() {
                        let _ = backend.close_target(&t).await;
                    }
                }
                let _ = backend.close().await;
                return Err(e).with_context(|| {
                    format!("cannot open {shown}", shown = axsnap_core::caps::cap(url, 200))
                });
            }
        };
        let target = agent.target().cloned().context("the page has no tab")?;
        let mut live = Live { agent, opened, target, connected };
        if let Some(answer) = args.dialog {
            live.answer_dialogs(answer, first, started, budget).await?;
        }
        // Later actions (the demo's) answer in auto mode with the full capture deadline.
        let opts = live.agent.options_mut();
        opts.after_action = Request::default();
        opts.capture_deadline = budget;
        Ok(live)
    }

    /// Answers the dialogs the page opens, one after another, while the budget lasts.
    async fn answer_dialogs(
        &mut self,
        answer: DialogAnswer,
        first: &Request,
        started: Instant,
        budget: Duration,
    ) -> anyhow::Result<()> {
        let mut answered = 0;
        while self.opened.outcome.as_ref().is_some_and(|o| o.dialog.is_some()) {
            if answered == MAX_DIALOGS || started.elapsed() >= budget {
                break;
            }
            let action = match answer {
                DialogAnswer::Accept => TargetAction::AcceptDialog { text: None },
                DialogAnswer::Dismiss => TargetAction::DismissDialog,
            };
            self.agent.options_mut().after_action = first.clone();
            self.opened = self.agent.act_on_target(&action).await.context("cannot answer the dialog")?;
            answered += 1;
        }
        Ok(())
    }

    /// Lines that say what else is true of the opened page: a dialog still open, a page
    /// that did not settle and why. Empty when the page settled with nothing open.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        let Some(o) = &self.opened.outcome else { return notes };
        if let Some(d) = &o.dialog {
            notes.push(format!(
                "# a JavaScript {d}: the page behind it is blocked; --dialog accept or --dialog dismiss answers it"
            ));
        }
        if !o.settled {
            let why = o.unsettled.as_deref().unwrap_or("it kept changing or loading");
            notes.push(format!(
                "# the page did not settle within {:.1} s: {why}; this is how it stood then",
                o.elapsed.as_secs_f64()
            ));
        }
        notes
    }

    /// Closes the page; a launched browser is closed, a connected one left running.
    pub async fn close(self) -> anyhow::Result<()> {
        let Live { agent, target, connected, .. } = self;
        let mut backend = agent.into_backend();
        if connected {
            backend.close_target(&target).await.context("cannot close the page in the connected browser")?;
        }
        backend.close().await.context("cannot close the browser")?;
        Ok(())
    }
}

/// Refuses, with the true reason, what is not a page: `javascript:` URLs, unknown schemes and
/// the browser's own pages. Local pages (`file:`, `data:`) are the user's to open here.
fn check_url(url: &str) -> anyhow::Result<()> {
    let shown = axsnap_core::caps::cap(url, 200);
    let policy = UrlPolicy { allow_local: true, ..UrlPolicy::default() };
    match policy.check(url) {
        Ok(()) => {}
        Err(UrlRefused::UnknownScheme { scheme }) => anyhow::bail!(
            "cannot open {shown}: unknown URL scheme {scheme:?}; axsnap opens web pages (http:, https:, file:, data:)"
        ),
        Err(e) => anyhow::bail!("cannot open {shown}: {e}"),
    }
    let scheme = url.trim().split(':').next().unwrap_or_default().to_ascii_lowercase();
    if matches!(scheme.as_str(), "chrome" | "chrome-untrusted" | "chrome-extension" | "devtools" | "edge") {
        anyhow::bail!(
            "cannot open {shown}: {scheme}: pages are the browser's own pages, not web pages; axsnap opens web pages \
             (http:, https:, file:, data:)"
        );
    }
    Ok(())
}

/// A runtime for the commands that drive a browser.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        // The engine is tested on a 512 KiB stack at 100,000 levels of nesting; workers get
        // 8 MiB (tokio's default is 2) so a recursion we have missed still has room before it
        // could end every session of the server.
        .thread_stack_size(8 * 1024 * 1024)
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}
