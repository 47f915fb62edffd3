//! `wait_for`: conditions on the page the agent sees, polled on fresh views.
//!
//! A poll captures only when the backend's change signal says the page may have changed, so
//! waiting on a quiet page costs one cheap round trip per poll. Views taken while waiting move
//! no baseline: the answer after the wait is the auto diff against what the agent last saw.

use std::time::{Duration, Instant};

use axsnap_core::backend::Backend;
use axsnap_core::{Ref, Snapshot, State};

use crate::args::{ArgError, Args};
use crate::code::Code;
use crate::failure::{clip, Failure};
use crate::tool_name::ToolName;
use axsnap_agent::Agent;
use axsnap_agent::AgentError;

/// How long a condition is waited for when the call names no `seconds`.
pub const DEFAULT_SECONDS: f64 = 10.0;
/// Pause between polls.
const POLL: Duration = Duration::from_millis(150);

/// A state an element can be waited into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementState {
    /// In the page's tree (not hidden).
    Visible,
    /// Not in the page's tree: hidden or removed.
    Hidden,
    /// Not disabled.
    Enabled,
    /// Disabled.
    Disabled,
    /// Checked.
    Checked,
    /// Not checked.
    Unchecked,
    /// Focused.
    Focused,
}

/// What to wait for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Condition {
    /// Text appears in a name, value or description.
    Text(String),
    /// Text no longer appears anywhere.
    TextGone(String),
    /// An element reaches a state.
    Element(String, ElementState),
}

impl Condition {
    /// Reads the condition of a `wait_for` call (`None`: only `seconds`).
    pub fn read(a: &Args<'_>) -> Result<Option<Condition>, ArgError> {
        let states = &["visible", "hidden", "enabled", "disabled", "checked", "unchecked", "focused"];
        let text = a.opt_str("text")?;
        let gone = a.opt_str("text_gone")?;
        let r = a.opt_str("ref")?;
        let state = a.opt_choice("state", states)?;
        let given = [text.is_some(), gone.is_some(), r.is_some()].iter().filter(|b| **b).count();
        if given > 1 {
            return Err(ArgError::Invalid {
                tool: ToolName::WaitFor.as_str(),
                field: "text".into(),
                expected: "given alone: one of text, text_gone or ref (with state) per call".into(),
                got: "several".into(),
            });
        }
        if state.is_some() && r.is_none() {
            return Err(ArgError::Missing {
                tool: ToolName::WaitFor.as_str(),
                field: "ref",
                expected: "the element whose state to wait for".into(),
            });
        }
        Ok(if let Some(t) = text {
            Some(Condition::Text(t.to_string()))
        } else if let Some(t) = gone {
            Some(Condition::TextGone(t.to_string()))
        } else if let Some(r) = r {
            let state = match state.unwrap_or("visible") {
                "hidden" => ElementState::Hidden,
                "enabled" => ElementState::Enabled,
                "disabled" => ElementState::Disabled,
                "checked" => ElementState::Checked,
                "unchecked" => ElementState::Unchecked,
                "focused" => ElementState::Focused,
                _ => ElementState::Visible,
            };
            Some(Condition::Element(r.to_string(), state))
        } else {
            None
        })
    }

    /// The condition in words: `text "Saved"`, `e12 to be checked`.
    pub fn describe(&self) -> String {
        match self {
            Condition::Text(t) => format!("text {:?}", clip(t)),
            Condition::TextGone(t) => format!("text {:?} to go", clip(t)),
            Condition::Element(r, s) => format!("{r} to be {}", format!("{s:?}").to_lowercase()),
        }
    }

    /// Whether the condition holds on `snap`.
    fn holds(&self, snap: &Snapshot) -> Result<bool, Failure> {
        Ok(match self {
            Condition::Text(t) => contains_text(snap, t),
            Condition::TextGone(t) => !contains_text(snap, t),
            Condition::Element(r, state) => {
                let r: Ref = r
                    .parse()
                    .map_err(|e: axsnap_core::RefError| Failure::tool(Code::BadRef, e.to_string()))?;
                let node =
                    snap.tree.preorder().map(|(id, _)| snap.tree.node(id)).find(|n| n.ref_id == Some(r));
                match (node, state) {
                    (None, ElementState::Hidden) => true,
                    (None, _) => false,
                    (Some(_), ElementState::Visible) => true,
                    (Some(_), ElementState::Hidden) => false,
                    (Some(n), ElementState::Enabled) => !n.states.contains(State::Disabled),
                    (Some(n), ElementState::Disabled) => n.states.contains(State::Disabled),
                    (Some(n), ElementState::Checked) => n.states.contains(State::Checked),
                    (Some(n), ElementState::Unchecked) => !n.states.contains(State::Checked),
                    (Some(n), ElementState::Focused) => n.states.contains(State::Focused),
                }
            }
        })
    }
}

/// Reads a `wait_for` call: what to wait for (`None`: only `seconds`) and `seconds` (at most
/// `max_wait`), one of them given. `extra` names arguments the caller also takes (`window`).
pub fn read_call(
    args: Option<&rmcp::model::JsonObject>,
    extra: &[&'static str],
    max_wait: Duration,
) -> Result<(Option<Condition>, Option<f64>), ArgError> {
    let mut known = vec!["text", "text_gone", "ref", "state", "seconds"];
    known.extend_from_slice(extra);
    let a = Args::new(ToolName::WaitFor.as_str(), args, &known)?;
    let seconds = a.opt_number("seconds", 0.0, max_wait.as_secs_f64())?;
    let condition = Condition::read(&a)?;
    if condition.is_none() && seconds.is_none() {
        return Err(ArgError::Missing {
            tool: ToolName::WaitFor.as_str(),
            field: "text",
            expected: "one of text, text_gone, ref (with state) or seconds".into(),
        });
    }
    Ok((condition, seconds))
}

/// Polls `agent`'s current target until `cond` holds or `limit` passes (a `timeout` failure
/// that says what was waited for); its errors are made failures by `fail` (the desktop's name
/// the window).
pub async fn until<B: Backend>(
    agent: &mut Agent<B>,
    cond: &Condition,
    limit: Duration,
    fail: impl Fn(AgentError<B::Error>) -> Failure,
) -> Result<(), Failure> {
    let started = Instant::now();
    loop {
        let snap = agent.look().await.map_err(&fail)?;
        if cond.holds(snap)? {
            return Ok(());
        }
        if started.elapsed() >= limit {
            return Err(Failure::tool(
                Code::Timeout,
                format!(
                    "waited {:.1} s for {} and it did not happen; look at the page with snapshot, or wait longer with seconds",
                    limit.as_secs_f64(),
                    cond.describe()
                ),
            ));
        }
        axsnap_core::progress::report(|| {
            format!(
                "waiting for {} (not yet after {:.1} of {:.1} s)",
                cond.describe(),
                started.elapsed().as_secs_f64(),
                limit.as_secs_f64()
            )
        });
        tokio::time::sleep(POLL.min(limit.saturating_sub(started.elapsed()))).await;
    }
}

/// Whether any node's name, value or description contains `text` (case and spacing ignored).
fn contains_text(snap: &Snapshot, text: &str) -> bool {
    let needle = normalize(text);
    if needle.is_empty() {
        return true;
    }
    snap.tree.preorder().any(|(id, _)| {
        let n = snap.tree.node(id);
        [Some(n.name.as_str()), n.value.as_deref(), n.description.as_deref()]
            .into_iter()
            .flatten()
            .any(|s| normalize(s).contains(&needle))
    })
}

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}
