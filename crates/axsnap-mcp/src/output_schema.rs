//! Each tool's `outputSchema`, declared only with `--structured-content`: the shape of the
//! JSON form a result then carries in `structuredContent`, so a host can validate it.
//!
//! By default no result carries `structuredContent` and no tool declares a schema (the MCP
//! spec binds a server to structured results only for the tools that declare one): most
//! agent clients give the model `JSON.stringify(structuredContent)` instead of the text
//! whenever a result has it, at 10-14 times the text's tokens. README.md's table of members
//! is the long form of these schemas.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{json, Map, Value};

use crate::sessions::SESSION_ARG;
use crate::tool_name::ToolName;

/// Declares the output schema of every tool in `tools` (with `session` on each when
/// `handles`: an HTTP server's handle sessions).
pub fn declare(tools: &mut [Tool], handles: bool) {
    for t in tools.iter_mut() {
        // Every listed tool has a name; one that had none would get the members all share.
        t.output_schema = Some(Arc::new(schema(ToolName::parse(&t.name), handles)));
    }
}

/// The schema of one tool's structured result: an object with a `kind` and the members of
/// what the tool answers. Members a tool adds only sometimes are not required, and other
/// members are allowed (a later version may add some).
fn schema(tool: Option<ToolName>, handles: bool) -> JsonObject {
    let mut props = Map::new();
    props.insert("kind".into(), json!({"type": "string", "description": "what the answer is: full, diff, unchanged, find, tabs, screenshot, closed, ..."}));
    if handles {
        props.insert(SESSION_ARG.into(), json!({"type": "string", "description": "the session's handle"}));
    }
    for (name, schema) in members(tool) {
        props.insert((*name).into(), schema.clone());
    }
    let mut s = JsonObject::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), Value::Object(props));
    s.insert("required".into(), json!(["kind"]));
    s
}

/// The members one tool's answers may carry beside `kind` (and `session`).
fn members(tool: Option<ToolName>) -> Vec<(&'static str, Value)> {
    let Some(tool) = tool else {
        return vec![("message", string("the text of an answer that is only a message"))];
    };
    let mut m = match tool {
        ToolName::Find => vec![("hits", array("ref, role, name, path, score of each hit"))],
        ToolName::Screenshot => vec![
            ("bytes", integer("the PNG's size")),
            ("labels", array("with annotate: the ref and viewport box (x, y, w, h) of each label")),
        ],
        ToolName::Evaluate => vec![("value", json!({"description": "the expression's value"}))],
        ToolName::Pdf => vec![("path", string("")), ("bytes", integer(""))],
        ToolName::NetworkRequests => vec![
            ("total", integer("requests recorded")),
            ("matched", integer("requests the filter matched")),
            ("requests", array("")),
            ("request", object("with id: the request")),
            ("request_body", json!({"type": ["string", "null"]})),
            ("response_body", json!({"type": ["string", "null"]})),
        ],
        ToolName::Console => vec![("total", integer("")), ("matched", integer("")), ("messages", array(""))],
        ToolName::Storage => vec![
            ("path", string("")),
            ("cookies", integer("")),
            ("origins", integer("")),
            ("items", integer("")),
            ("skipped", array("sites the URL policy left out")),
        ],
        ToolName::Cookies => vec![
            ("total", integer("")),
            ("cookies", array("name, domain, path, value length, flags; never values")),
            ("cookie", object("the cookie set")),
        ],
        ToolName::Clipboard => vec![("text", string("")), ("chars", integer(""))],
        ToolName::DesktopLaunch => vec![("pid", integer("")), ("window", string("the new window's id"))],
        ToolName::DesktopWindows => vec![
            ("windows", array("id, app, title, frame, focused of each window")),
            ("not_answering", array("apps that did not answer")),
            ("window", string("")),
            ("action", string("")),
            ("before", object("")),
            ("after", nullable("object", "none when the window closed")),
            ("closed", boolean("")),
            ("already", boolean("")),
            ("window_manager", nullable("string", "")),
            ("opened_windows", array("")),
        ],
        _ => Vec::new(),
    };
    // Every tool that looks at or acts on a page or window answers with the auto response
    // (a full snapshot, a diff or `unchanged`); `tabs` lists or switches; `close` ends.
    if tool.answers_with_a_step() {
        m.extend(step_members());
    }
    if tool == ToolName::Tabs {
        m.push(("tabs", array("index, title, url, current of each tab")));
        m.push(("tab", integer("the tab selected")));
    }
    m.push(("message", string("the text of an answer that is only a message")));
    m
}

/// The members of an auto response to a step (README.md, "Results").
fn step_members() -> Vec<(&'static str, Value)> {
    vec![
        ("seq", integer("this answer's snapshot number")),
        ("from_seq", integer("the snapshot a diff is relative to")),
        ("since_seq", integer("the snapshot nothing changed since")),
        ("reason", string("why a full snapshot in auto mode")),
        ("url", string("")),
        ("title", string("")),
        ("settled", boolean("")),
        ("navigated", boolean("")),
        ("elapsed_ms", integer("")),
        ("unsettled", string("why the page did not settle")),
        ("dialog", json!({"description": "an open JavaScript dialog"})),
        ("browser_restarted", boolean("")),
        ("new_tabs", array("index and url of each tab the action opened")),
        ("console_errors", object("count and first")),
        ("downloads", object("count and first (refused)")),
        ("downloaded", object("files saved and still running")),
        ("partial", json!({"description": "why a capture was cut short"})),
        ("tokens", object("bytes, cl100k, o200k of the text; full_cl100k of the whole page")),
        ("captured", boolean("a new capture was taken")),
        ("capture_ms", integer("")),
        ("snapshot", json!({"description": "a full answer's JSON form"})),
        ("diff", json!({"description": "a diff's JSON form"})),
        ("unchanged", json!({"description": "an unchanged answer's JSON form"})),
    ]
}

fn typed(kind: &str, description: &str) -> Value {
    if description.is_empty() {
        json!({"type": kind})
    } else {
        json!({"type": kind, "description": description})
    }
}

/// A member that is `null` when it does not apply.
fn nullable(kind: &str, description: &str) -> Value {
    let mut v = typed(kind, description);
    v["type"] = json!([kind, "null"]);
    v
}

fn string(description: &str) -> Value {
    typed("string", description)
}

fn integer(description: &str) -> Value {
    typed("integer", description)
}

fn boolean(description: &str) -> Value {
    typed("boolean", description)
}

fn array(description: &str) -> Value {
    typed("array", description)
}

fn object(description: &str) -> Value {
    typed("object", description)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caps::Caps;

    /// Every tool of every group gets a schema that requires `kind`, and the answers the
    /// replies build validate against it (checked on constructed replies).
    #[test]
    fn every_tool_declares_an_object_with_a_kind() {
        let mut tools = crate::tools::list(true, true, true, Caps::all());
        declare(&mut tools, true);
        for t in &tools {
            let s = t.output_schema.as_ref().unwrap_or_else(|| panic!("{} has no outputSchema", t.name));
            assert_eq!(s.get("type"), Some(&json!("object")), "{}", t.name);
            assert_eq!(s.get("required"), Some(&json!(["kind"])), "{}", t.name);
            let props = s.get("properties").and_then(Value::as_object).expect("properties");
            assert!(props.contains_key("kind") && props.contains_key(SESSION_ARG), "{}", t.name);
        }
        let navigate = schema(Some(ToolName::Navigate), false);
        let props = navigate.get("properties").and_then(Value::as_object).expect("properties");
        assert!(
            props.contains_key("seq") && props.contains_key("snapshot") && !props.contains_key("session")
        );
        let find = schema(Some(ToolName::Find), false);
        let props = find.get("properties").and_then(Value::as_object).expect("properties");
        assert!(props.contains_key("hits") && !props.contains_key("seq"));
    }
}
