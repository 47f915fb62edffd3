//! The calls a browser tab and a desktop window both take: snapshot, find, and the actions on
//! elements and keys. Their arguments are read here once, into a [`Request`] or an [`Op`], so
//! that `browsing` and `desktop` mean the same thing by the same arguments; `find`'s answer is
//! shaped here too.

use axsnap_core::backend::{ElementAction, MouseButton, TargetAction};
use axsnap_core::find::Hit;
use axsnap_core::render::Format;
use axsnap_core::session::{Mode, Request};
use rmcp::model::JsonObject;

use crate::args::{ArgError, Args};
use crate::failure::clip;
use crate::options::ServerOptions;
use crate::reply::Reply;
use crate::tool_name::ToolName;

/// Default scroll step in CSS pixels.
const SCROLL_STEP: i64 = 600;
/// Default `find` limit.
const FIND_LIMIT: i64 = 5;

/// What one element or target operation is.
pub(crate) enum Op {
    /// An action on the element a ref names.
    Element {
        /// The ref.
        r: String,
        /// The action.
        action: ElementAction,
    },
    /// An action on the target as a whole.
    Target(TargetAction),
    /// Open a new target (a tab) at a URL.
    Open(String),
}

/// The request that answers actions: auto mode, text for the model (and the JSON form for
/// `structuredContent` when the server sends it), within the server's token budget.
pub(crate) fn auto_request(options: &ServerOptions) -> Request {
    Request { also_json: options.structured_content, max_tokens: options.max_tokens, ..Request::default() }
}

/// Reads an action tool's arguments (`extra`: arguments the caller takes beside them, already
/// read). `None`: `tool` is not one of them.
pub(crate) fn action(
    tool: ToolName,
    args: Option<&JsonObject>,
    extra: &[&str],
) -> Result<Option<Op>, ArgError> {
    let known =
        |own: &[&'static str]| -> Vec<&str> { own.iter().copied().chain(extra.iter().copied()).collect() };
    let op = match tool {
        ToolName::Click => {
            let a = Args::new(tool.as_str(), args, &known(&["ref", "button", "double"]))?;
            let r = a.str("ref")?.to_string();
            let button = a.opt_choice("button", &["left", "right", "middle"])?.unwrap_or("left");
            let count = if a.opt_bool("double")?.unwrap_or(false) { 2 } else { 1 };
            let action = match button {
                "right" => ElementAction::ClickButton { button: MouseButton::Right, count },
                "middle" => ElementAction::ClickButton { button: MouseButton::Middle, count },
                _ => ElementAction::Click { count },
            };
            Op::Element { r, action }
        }
        ToolName::Hover => {
            let a = Args::new(tool.as_str(), args, &known(&["ref"]))?;
            Op::Element { r: a.str("ref")?.to_string(), action: ElementAction::Hover }
        }
        ToolName::Type => {
            let a = Args::new(tool.as_str(), args, &known(&["ref", "text", "submit", "slowly"]))?;
            let (text, submit) = (a.str("text")?.to_string(), a.opt_bool("submit")?.unwrap_or(false));
            let action = if a.opt_bool("slowly")?.unwrap_or(false) {
                ElementAction::TypeKeys { text, submit }
            } else {
                ElementAction::Type { text, clear: false, submit }
            };
            Op::Element { r: a.str("ref")?.to_string(), action }
        }
        ToolName::Fill => {
            let a = Args::new(tool.as_str(), args, &known(&["ref", "text"]))?;
            let action = ElementAction::Type { text: a.str("text")?.to_string(), clear: true, submit: false };
            Op::Element { r: a.str("ref")?.to_string(), action }
        }
        ToolName::Press => {
            let a = Args::new(tool.as_str(), args, &known(&["keys"]))?;
            Op::Target(TargetAction::Press { keys: a.str("keys")?.to_string() })
        }
        ToolName::Select => {
            let a = Args::new(tool.as_str(), args, &known(&["ref", "values"]))?;
            let action = ElementAction::Select { values: a.strings("values")? };
            Op::Element { r: a.str("ref")?.to_string(), action }
        }
        ToolName::Check => {
            let a = Args::new(tool.as_str(), args, &known(&["ref", "checked"]))?;
            let action = ElementAction::Check { on: a.opt_bool("checked")?.unwrap_or(true) };
            Op::Element { r: a.str("ref")?.to_string(), action }
        }
        ToolName::Scroll => {
            let a = Args::new(tool.as_str(), args, &known(&["ref", "direction", "amount"]))?;
            let direction = a.choice("direction", &["down", "up", "left", "right"])?;
            let amount = a.opt_int("amount", 1, 1_000_000)?.unwrap_or(SCROLL_STEP) as f64;
            let (dx, dy) = match direction {
                "up" => (0.0, -amount),
                "left" => (-amount, 0.0),
                "right" => (amount, 0.0),
                _ => (0.0, amount),
            };
            match a.opt_str("ref")? {
                Some(r) => Op::Element { r: r.to_string(), action: ElementAction::Scroll { dx, dy } },
                None => Op::Target(TargetAction::Scroll { dx, dy }),
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(op))
}

/// Reads `snapshot`'s arguments: the request, and the ref of the part asked for (resolved by
/// the caller's agent). The server's `options` give the budget when the call gives none, and
/// whether the JSON form is rendered too (for `structuredContent`).
pub(crate) fn snapshot_request(
    args: Option<&JsonObject>,
    extra: &[&str],
    options: &ServerOptions,
) -> Result<(Request, Option<String>), ArgError> {
    let default_tokens = options.max_tokens;
    let own = ["mode", "ref", "from", "interactive", "viewport", "max_nodes", "max_tokens", "format"];
    let known: Vec<&str> = own.iter().copied().chain(extra.iter().copied()).collect();
    let a = Args::new(ToolName::Snapshot.as_str(), args, &known)?;
    let mode = match a.opt_choice("mode", &["auto", "full", "reset"])?.unwrap_or("auto") {
        "full" => Mode::Full,
        "reset" => Mode::Reset,
        _ => Mode::Auto,
    };
    let format = match a.opt_choice("format", &["text", "json"])?.unwrap_or("text") {
        "json" => Format::Json,
        _ => Format::Text,
    };
    // 0 asks for no budget.
    let max_tokens = match a.opt_int("max_tokens", 0, i64::MAX)? {
        Some(0) => None,
        Some(n) => Some(n as usize),
        None => default_tokens,
    };
    let mut request =
        Request { mode, format, also_json: options.structured_content, max_tokens, ..Request::default() };
    request.options.view.interactive_only = a.opt_bool("interactive")?.unwrap_or(false);
    request.options.view.viewport = a.opt_bool("viewport")?.unwrap_or(false);
    request.options.view.max_nodes = a.opt_int("max_nodes", 1, i64::MAX)?.map(|n| n as usize);
    let scope = a.opt_str("ref")?.map(str::to_string);
    request.options.view.from = a.opt_int("from", 0, i64::MAX)?.map(|n| n as usize);
    if request.options.view.from.is_some() && scope.is_none() {
        return Err(ArgError::Missing {
            tool: ToolName::Snapshot.as_str(),
            field: "ref",
            expected: "the element whose children `from` counts, as the outline's line says".into(),
        });
    }
    Ok((request, scope))
}

/// Reads `find`'s arguments: the query and the most hits to give.
pub(crate) fn find_args(args: Option<&JsonObject>, extra: &[&str]) -> Result<(String, usize), ArgError> {
    let known: Vec<&str> = ["query", "limit"].iter().copied().chain(extra.iter().copied()).collect();
    let a = Args::new(ToolName::Find.as_str(), args, &known)?;
    let query = a.str("query")?.to_string();
    let limit = a.opt_int("limit", 1, 1000)?.unwrap_or(FIND_LIMIT) as usize;
    Ok((query, limit))
}

/// `find`'s answer: a line per hit (ref, role, name, where), and the hits for programs.
pub(crate) fn find_reply(query: &str, hits: &[Hit]) -> Reply {
    let mut text = String::new();
    if hits.is_empty() {
        text.push_str(&format!(
            "no element matches {:?}; try other words, or take a snapshot\n",
            clip(query)
        ));
    }
    for h in hits {
        text.push_str(&format!("{} {} {:?}", h.r, h.role, clip(&h.name)));
        if !h.path.is_empty() {
            text.push_str(" in ");
            text.push_str(&h.path.join(" > "));
        }
        if !h.missing.is_empty() {
            text.push_str(&format!(" [no match for: {}]", h.missing.join(" ")));
        }
        text.push('\n');
    }
    let mut reply = Reply::message("find", text);
    reply.structured.remove("message");
    reply.structured.insert("hits".into(), serde_json::to_value(hits).unwrap_or_default());
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(v: serde_json::Value) -> JsonObject {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn snapshot_takes_from_with_a_ref_only() {
        let args = obj(serde_json::json!({"ref": "e2", "from": 318}));
        let options = ServerOptions { max_tokens: Some(10_000), ..ServerOptions::default() };
        let (request, scope) = snapshot_request(Some(&args), &[], &options).expect("valid");
        assert_eq!((scope.as_deref(), request.options.view.from), (Some("e2"), Some(318)));
        let args = obj(serde_json::json!({"from": 318}));
        let err = snapshot_request(Some(&args), &[], &options).expect_err("from needs a ref");
        assert!(err.to_string().contains("missing argument `ref`"), "{err}");
        let args = obj(serde_json::json!({"ref": "e2", "from": -1}));
        assert!(snapshot_request(Some(&args), &[], &options).is_err());
    }
}
