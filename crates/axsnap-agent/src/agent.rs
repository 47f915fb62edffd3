//! [`Agent`]: snapshot, find and act by ref over one backend, answering with auto diffs.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, Refusal, TargetAction};
use axsnap_core::cover::Covers;
use axsnap_core::find::{find, Hit};
use axsnap_core::session::{ClientId, Policy, Request, Response, RestoreError, SavedSession, Session};
use axsnap_core::{NativeId, Ref, Snapshot, TargetId};

use serde::{Deserialize, Serialize};

use crate::error::AgentError;

/// How an [`Agent`] captures and answers.
#[derive(Clone, Debug)]
pub struct AgentOptions {
    /// The auto policy and baseline bounds.
    pub policy: Policy,
    /// The request used for the snapshot that answers an action (auto mode by default).
    pub after_action: Request,
    /// How long a capture may take before it returns a partial tree.
    pub capture_deadline: Duration,
}

impl Default for AgentOptions {
    fn default() -> Self {
        AgentOptions {
            policy: Policy::default(),
            after_action: Request::default(),
            capture_deadline: Duration::from_secs(10),
        }
    }
}

/// One answer: what the action did (if there was one) and the snapshot response.
#[derive(Clone, Debug)]
pub struct Step {
    /// The action's outcome (`None` for a plain snapshot).
    pub outcome: Option<Outcome>,
    /// The response (full, diff or unchanged) and its size.
    pub response: Response,
    /// Whether a new capture was taken (`false`: the change signal said nothing changed and
    /// the previous capture was reused).
    pub captured: bool,
    /// Time spent capturing (zero when the change signal answered).
    pub capture_time: Duration,
}

/// An agent written out to be carried on elsewhere ([`Agent::save`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedAgent {
    session: SavedSession,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target: Option<TargetId>,
}

/// An agent's view of one backend: one session, one client, a current target.
pub struct Agent<B: Backend> {
    backend: B,
    session: Session,
    client: ClientId,
    target: Option<TargetId>,
    captures: HashMap<TargetId, Capture>,
    last: HashMap<TargetId, Snapshot>,
    options: AgentOptions,
}

impl<B: Backend> Agent<B> {
    /// An agent over `backend`, working on `target` when given.
    pub fn new(backend: B, target: Option<TargetId>, options: AgentOptions) -> Agent<B> {
        Agent {
            session: Session::new(options.policy.clone()),
            backend,
            client: ClientId("agent".into()),
            target,
            captures: HashMap::new(),
            last: HashMap::new(),
            options,
        }
    }

    /// What another process needs to carry this agent on ([`Agent::resume`]): its session's
    /// refs and baselines and its current target. Its last captures are not kept: the next
    /// call captures afresh.
    pub fn save(&self, now: Instant) -> SavedAgent {
        SavedAgent { session: self.session.save(now), target: self.target.clone() }
    }

    /// An agent over `backend` that carries on from `saved`: the same refs, and answers diffed
    /// against what the client was last sent.
    pub fn resume(
        backend: B,
        saved: SavedAgent,
        options: AgentOptions,
        now: Instant,
    ) -> Result<Agent<B>, RestoreError> {
        Ok(Agent {
            session: Session::restore(options.policy.clone(), saved.session, now)?,
            backend,
            client: ClientId("agent".into()),
            target: saved.target,
            captures: HashMap::new(),
            last: HashMap::new(),
            options,
        })
    }

    /// How this agent captures and answers, to change between calls (the request that
    /// answers actions, the capture deadline).
    pub fn options_mut(&mut self) -> &mut AgentOptions {
        &mut self.options
    }

    /// Gives the backend back (to close it).
    pub fn into_backend(self) -> B {
        self.backend
    }

    /// The backend.
    pub fn backend(&mut self) -> &mut B {
        &mut self.backend
    }

    /// The backend, to read.
    pub fn backend_ref(&self) -> &B {
        &self.backend
    }

    /// The current target.
    pub fn target(&self) -> Option<&TargetId> {
        self.target.as_ref()
    }

    /// The latest raw capture of the current target, if one was taken.
    pub fn last_capture(&self) -> Option<&Capture> {
        self.target.as_ref().and_then(|t| self.captures.get(t))
    }

    /// Makes `target` the current one.
    pub fn set_target(&mut self, target: TargetId) {
        self.target = Some(target);
    }

    /// A snapshot of the current target, answered by `request`'s mode (auto by default).
    pub async fn snapshot(&mut self, request: &Request) -> Result<Step, AgentError<B::Error>> {
        self.respond(None, request).await
    }

    /// Acts on the element `r` names and answers with the snapshot after the target settled.
    pub async fn act(&mut self, r: &str, action: &ElementAction) -> Result<Step, AgentError<B::Error>> {
        let target = self.current()?;
        let r: Ref = r.parse()?;
        let native = self.session.resolve(&target, r)?.clone();
        let outcome = match self.backend.act(&target, &native, action).await {
            Ok(o) => o,
            Err(e) if B::refusal(&e) == Some(Refusal::Gone) => {
                return Err(AgentError::Stale { r: r.to_string(), cause: e })
            }
            Err(e) if B::refusal(&e) == Some(Refusal::Covered) => {
                let cover = self.cover_of(&target, r);
                return Err(AgentError::Covered { r: r.to_string(), cover, cause: e });
            }
            Err(e) => return Err(AgentError::Backend(e)),
        };
        if let Some(opened) = outcome.opened.last() {
            // A link or button that opened a tab took the agent there.
            self.target = Some(opened.clone());
        }
        self.closed(&target, &outcome)?;
        let request = self.options.after_action.clone();
        self.respond(Some(outcome), &request).await
    }

    /// When `outcome` says the action closed `target`: forgets it, and fails with
    /// [`AgentError::TargetClosed`] unless the action also opened a target to answer with.
    fn closed(&mut self, target: &TargetId, outcome: &Outcome) -> Result<(), AgentError<B::Error>> {
        if !outcome.closed {
            return Ok(());
        }
        let next = self.target.clone().filter(|t| t != target);
        self.forget_target(target);
        match next {
            Some(t) => {
                self.target = Some(t);
                Ok(())
            }
            None => Err(AgentError::TargetClosed { outcome: Box::new(outcome.clone()) }),
        }
    }

    /// Acts on the current target as a whole (navigate, back, keys, ...) and answers with the
    /// snapshot after it settled.
    pub async fn act_on_target(&mut self, action: &TargetAction) -> Result<Step, AgentError<B::Error>> {
        let target = self.current()?;
        let outcome = self.backend.act_on_target(&target, action).await.map_err(AgentError::Backend)?;
        let goes_somewhere = matches!(
            action,
            TargetAction::Navigate { .. } | TargetAction::Reload | TargetAction::Back | TargetAction::Forward
        );
        if let Some(opened) = outcome.opened.last().filter(|_| !goes_somewhere) {
            // A popup becomes the current target: that is where the agent's action led (a key
            // press on a link). A page that opens popups as it loads does not take the agent
            // away from the page it asked for; the popups are reported as new tabs.
            self.target = Some(opened.clone());
        }
        self.closed(&target, &outcome)?;
        let request = self.options.after_action.clone();
        self.respond(Some(outcome), &request).await
    }

    /// Opens a new target (a tab) at `url`, makes it the current one, and answers with its
    /// snapshot after it settled. The target opens blank first, so loading `url` is an ordinary
    /// navigation: it settles, and a dialog it opens is reported, not waited on.
    pub async fn open(&mut self, url: &str) -> Result<Step, AgentError<B::Error>> {
        let target = self.backend.open_target("about:blank").await.map_err(AgentError::Backend)?;
        self.target = Some(target);
        self.act_on_target(&TargetAction::Navigate { url: url.to_string() }).await
    }

    /// The current target's snapshot as it is now (a new capture only when the change signal
    /// says the page may have changed), without moving any baseline: for polling conditions.
    pub async fn look(&mut self) -> Result<&Snapshot, AgentError<B::Error>> {
        let target = self.current()?;
        if !self.last.contains_key(&target) || self.may_have_changed(&target).await? {
            // Only the whole snapshot is used: no text to fit.
            let request =
                Request { mode: axsnap_core::session::Mode::Full, max_tokens: None, ..Request::default() };
            self.respond(None, &request).await?;
        }
        self.last.get(&target).ok_or(AgentError::NoTarget)
    }

    /// Forgets a target that is gone (its tab closed): its captures, baselines and refs. The
    /// current target is cleared when it is this one.
    pub fn forget_target(&mut self, target: &TargetId) {
        self.session.forget_target(target);
        self.captures.remove(target);
        self.last.remove(target);
        if self.target.as_ref() == Some(target) {
            self.target = None;
        }
    }

    /// Forgets every target (the browser context was released).
    pub fn forget_all(&mut self) {
        let targets: Vec<TargetId> = self.captures.keys().chain(self.last.keys()).cloned().collect();
        for t in targets {
            self.forget_target(&t);
        }
        self.target = None;
    }

    /// The native id a ref names on the current target (for backend calls the agent does not
    /// wrap, such as a screenshot of one element).
    pub fn resolve(&self, r: &str) -> Result<NativeId, AgentError<B::Error>> {
        let target = self.current()?;
        let r: Ref = r.parse()?;
        Ok(self.session.resolve(&target, r)?.clone())
    }

    /// Ranks elements of the current target's latest snapshot against `query`.
    pub async fn find(&mut self, query: &str, limit: usize) -> Result<Vec<Hit>, AgentError<B::Error>> {
        let target = self.current()?;
        if !self.last.contains_key(&target) || self.may_have_changed(&target).await? {
            // Only the whole snapshot is used: no text to fit.
            let request =
                Request { mode: axsnap_core::session::Mode::Full, max_tokens: None, ..Request::default() };
            self.respond(None, &request).await?;
        }
        Ok(self.last.get(&target).map(|s| find(&s.tree, query, limit)).unwrap_or_default())
    }

    /// What covers `r` in the last snapshot of `target`: `e500 dialog "Settings"`.
    fn cover_of(&self, target: &TargetId, r: Ref) -> Option<String> {
        let tree = &self.last.get(target)?.tree;
        let id = tree.preorder().map(|(id, _)| id).find(|id| tree.node(*id).ref_id == Some(r))?;
        let c = tree.node(Covers::of(tree).cover_of(tree, id)?);
        let mut s = format!("{} is covered by {}", r, c.ref_id?);
        s.push(' ');
        s.push_str(&c.role.to_string());
        if !c.name.is_empty() {
            s.push_str(&format!(" {:?}", axsnap_core::caps::cap(&c.name, 80)));
        }
        Some(s)
    }

    fn current(&self) -> Result<TargetId, AgentError<B::Error>> {
        self.target.clone().ok_or(AgentError::NoTarget)
    }

    async fn may_have_changed(&mut self, target: &TargetId) -> Result<bool, AgentError<B::Error>> {
        if !self.captures.contains_key(target) {
            return Ok(true);
        }
        // A signal the backend cannot read counts as a change: never serve a stale view.
        Ok(self.backend.changed(target).await.unwrap_or(true))
    }

    async fn respond(
        &mut self,
        outcome: Option<Outcome>,
        request: &Request,
    ) -> Result<Step, AgentError<B::Error>> {
        let target = self.current()?;
        let started = Instant::now();
        let captured = self.may_have_changed(&target).await?;
        if captured {
            let capture = self
                .backend
                .capture(&target, self.options.capture_deadline)
                .await
                .map_err(AgentError::Backend)?;
            self.captures.insert(target.clone(), capture);
        }
        let capture_time = if captured { started.elapsed() } else { Duration::ZERO };
        let Some(capture) = self.captures.get(&target) else { return Err(AgentError::NoTarget) };
        axsnap_core::progress::report(|| {
            format!(
                "rendering the snapshot ({} nodes captured)",
                axsnap_core::caps::thousands(capture.tree.len())
            )
        });
        let response = self.session.snapshot(&self.client, capture, request, Instant::now())?;
        self.last.insert(target, response.snapshot.clone());
        Ok(Step { outcome, response, captured, capture_time })
    }
}
