//! What a browser tab and a desktop window are alike to an agent, in one place, generic over
//! [`Backend`]: the agent's options, the calls both take (snapshot, scoped or not; find;
//! `wait_for`; the actions), read from their arguments once and run on an [`Agent`], and how a
//! failed call is explained ([`Explain`]). `browsing` and `desktop` keep only what is their
//! own: tabs, console and downloads, the URL policy; windows and their ids. A third backend
//! needs its platform calls, an [`Explain`] and a route here.

use std::time::{Duration, Instant};

use axsnap_core::backend::Backend;
use axsnap_core::find::Hit;
use axsnap_core::session::Request;
use rmcp::model::JsonObject;

use crate::args::ArgError;
use crate::calls::{self, auto_request, Op};
use crate::failure::Failure;
use crate::options::ServerOptions;
use crate::tool_name::ToolName;
use crate::wait;
use axsnap_agent::AgentError;
use axsnap_agent::{Agent, AgentOptions, Step};

/// How an agent's error on one surface becomes a failure the agent can act on: the refusal
/// kinds are coded alike everywhere ([`crate::failure::refused`]); what differs is the place
/// named in the advice (a tab, window `w3`).
pub(crate) trait Explain<E: std::error::Error + 'static> {
    /// The failure `e` is.
    fn explain(&self, e: AgentError<E>) -> Failure;
}

/// The options of a surface's agent under this server's options: actions answered in auto
/// mode within the token budget, captures bounded by the deadline.
pub(crate) fn agent_options(options: &ServerOptions) -> AgentOptions {
    AgentOptions {
        after_action: auto_request(options),
        capture_deadline: options.capture_deadline,
        ..AgentOptions::default()
    }
}

/// The agent in `slot`, started on `start`'s backend on first use (a session opens no
/// browser and connects to no desktop before a call needs one), and whether it started now.
pub(crate) async fn started<'a, B: Backend>(
    slot: &'a mut Option<Agent<B>>,
    options: &ServerOptions,
    start: impl AsyncFnOnce() -> Result<B, Failure>,
) -> Result<(&'a mut Agent<B>, bool), Failure> {
    Ok(match slot {
        Some(agent) => (agent, false),
        none => (none.insert(Agent::new(start().await?, None, agent_options(options))), true),
    })
}

/// A call both surfaces take, its arguments read.
pub(crate) enum Call {
    /// `snapshot`: the request, and the ref of the part asked for.
    Snapshot(Request, Option<String>),
    /// `find`: the query and the most hits.
    Find(String, usize),
    /// `wait_for`: the condition (`None`: only `seconds`), and `seconds`.
    Wait(Option<wait::Condition>, Option<f64>),
    /// An action on an element or on the target as a whole.
    Act(Op),
}

impl Call {
    /// Reads `tool`'s arguments when it is a call both surfaces take (`extra`: arguments the
    /// surface takes beside them, such as `window`). `None`: another tool.
    pub(crate) fn read(
        tool: ToolName,
        args: Option<&JsonObject>,
        extra: &[&'static str],
        options: &ServerOptions,
    ) -> Result<Option<Call>, ArgError> {
        Ok(Some(match tool {
            ToolName::Snapshot => {
                let (request, scope) = calls::snapshot_request(args, extra, options)?;
                Call::Snapshot(request, scope)
            }
            ToolName::Find => {
                let (query, limit) = calls::find_args(args, extra)?;
                Call::Find(query, limit)
            }
            ToolName::WaitFor => {
                let (condition, seconds) = wait::read_call(args, extra, options.max_wait)?;
                Call::Wait(condition, seconds)
            }
            _ => match calls::action(tool, args, extra)? {
                Some(op) => Call::Act(op),
                None => return Ok(None),
            },
        }))
    }
}

/// What a call did.
pub(crate) enum Done {
    /// A step (a snapshot, an action, a wait), with notes to say first.
    Step(Box<Step>, Vec<String>),
    /// `find`'s hits for the query.
    Found(String, Vec<Hit>),
    /// An action that closed its own target, and what else it did.
    Closed(Box<axsnap_core::backend::Outcome>),
}

/// Runs `call` on `agent`'s current target; `explain` says what a failure means there.
pub(crate) async fn run<B: Backend, X: Explain<B::Error>>(
    agent: &mut Agent<B>,
    call: Call,
    explain: &X,
    options: &ServerOptions,
) -> Result<Done, Failure> {
    let fail = |e| explain.explain(e);
    match call {
        Call::Snapshot(mut request, scope) => {
            if let Some(r) = scope {
                request.options.view.scope = Some(agent.resolve(&r).map_err(fail)?);
            }
            Ok(Done::Step(Box::new(agent.snapshot(&request).await.map_err(fail)?), Vec::new()))
        }
        Call::Find(query, limit) => {
            let hits = agent.find(&query, limit).await.map_err(fail)?;
            Ok(Done::Found(query, hits))
        }
        Call::Wait(condition, seconds) => {
            let started = Instant::now();
            let note = match condition {
                None => {
                    let s = seconds.unwrap_or_default();
                    axsnap_core::progress::report(|| format!("waiting {s} s, as asked"));
                    tokio::time::sleep(Duration::from_secs_f64(s)).await;
                    format!("waited {s} s")
                }
                Some(cond) => {
                    let limit = Duration::from_secs_f64(seconds.unwrap_or(wait::DEFAULT_SECONDS));
                    wait::until(agent, &cond, limit, fail).await?;
                    format!("waited {:.1} s for {}", started.elapsed().as_secs_f64(), cond.describe())
                }
            };
            let step = agent.snapshot(&auto_request(options)).await.map_err(fail)?;
            Ok(Done::Step(Box::new(step), vec![note]))
        }
        Call::Act(op) => match perform(agent, op).await {
            Ok(step) => Ok(Done::Step(Box::new(step), Vec::new())),
            Err(AgentError::TargetClosed { outcome }) => Ok(Done::Closed(outcome)),
            Err(e) => Err(fail(e)),
        },
    }
}

/// Carries out one operation on `agent` and answers with the step after it settled.
pub(crate) async fn perform<B: Backend>(agent: &mut Agent<B>, op: Op) -> Result<Step, AgentError<B::Error>> {
    match op {
        Op::Element { r, action } => agent.act(&r, &action).await,
        Op::Target(action) => agent.act_on_target(&action).await,
        Op::Open(url) => agent.open(&url).await,
    }
}
