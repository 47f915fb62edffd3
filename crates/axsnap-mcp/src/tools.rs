//! The tools the server offers: names, one-line descriptions and input schemas.
//!
//! Every agent pays for this list on every start, so descriptions are short and exact and the
//! schemas carry no titles or boilerplate (the goal: the whole `tools/list` result
//! within 1,500 o200k tokens; README.md has the measured figure). Argument names are part of
//! the interface: they are checked by [`crate::args`] with errors that name the bad field.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool};
use serde_json::{json, Value};

use crate::caps::Caps;
use crate::sessions::SESSION_ARG;
use crate::tool_name::ToolName;

/// The tools offered, `evaluate` included when `allow_eval`; with `handles` (an HTTP server),
/// each takes an optional `session` (the handle of a stateless client's session: over stdio
/// the process is the session, and the list stays as small as it was); with `desktop`, the
/// `desktop_windows`, `desktop_launch` and `clipboard` tools and a `window` argument on the
/// [windowed](ToolName::windowed) tools; the tools of each group `caps` turns on. Without
/// `desktop` the list is exactly the browser's.
pub fn list(allow_eval: bool, desktop: bool, handles: bool, caps: Caps) -> Vec<Tool> {
    let mut tools = browser_tools(allow_eval);
    if caps.network {
        tools.push(tool(
            ToolName::NetworkRequests,
            "Requests this tab made: method, status, type, size, time; newest last. id: one request with its bodies.",
            json!({
                "filter": {"type": "string", "description": "text the line contains: /api/, POST, fetch, 404, failed"},
                "limit": {"type": "integer", "description": "default 30"},
                "id": {"type": "integer"}
            }),
            &[],
        ));
        tools.push(tool(
            ToolName::Console,
            "This tab's console messages with their source locations, newest last.",
            json!({
                "level": {"enum": ["debug", "info", "warning", "error"], "description": "and above; default info"},
                "filter": {"type": "string"},
                "limit": {"type": "integer", "description": "default 30"}
            }),
            &[],
        ));
    }
    if caps.vision {
        tools.push(tool(
            ToolName::Mouse,
            "Mouse at viewport pixels (a canvas, a widget without refs): click, move, down, up, or wheel by dx, dy.",
            json!({
                "x": {"type": "number"}, "y": {"type": "number"},
                "action": {"enum": ["click", "move", "down", "up", "wheel"]},
                "dx": {"type": "number"}, "dy": {"type": "number"}
            }),
            &["x", "y", "action"],
        ));
    }
    if caps.pdf {
        tools.push(tool(
            ToolName::Pdf,
            "Print the page to a PDF file under the server's --output-dir.",
            json!({"path": {"type": "string"}}),
            &["path"],
        ));
    }
    if caps.storage {
        tools.push(tool(
            ToolName::Storage,
            "Save this session's cookies and local storage to a file under --output-dir, or load such a file.",
            json!({"action": {"enum": ["save", "load"]}, "path": {"type": "string"}}),
            &["action", "path"],
        ));
        tools.push(tool(
            ToolName::Cookies,
            "List (values hidden), set, delete or clear this session's cookies.",
            json!({
                "action": {"enum": ["list", "set", "delete", "clear"]},
                "name": {"type": "string"}, "value": {"type": "string"},
                "url": {"type": "string", "description": "or domain and path"},
                "domain": {"type": "string"}, "path": {"type": "string"},
                "expires": {"type": "number", "description": "epoch seconds; none: a session cookie"},
                "http_only": {"type": "boolean"}, "secure": {"type": "boolean"}
            }),
            &["action"],
        ));
    }
    if desktop {
        for t in tools.iter_mut().filter(|t| ToolName::parse(&t.name).is_some_and(ToolName::windowed)) {
            let schema = Arc::make_mut(&mut t.input_schema);
            if let Some(Value::Object(props)) = schema.get_mut("properties") {
                props.insert("window".into(), json!({"type": "string"}));
            }
        }
        tools.push(tool(
            ToolName::DesktopWindows,
            "List desktop app windows; pass an id (w3) as window to snapshot, find, wait_for and actions. With window and action, change that window.",
            json!({
                "window": {"type": "string"},
                "action": {"enum": ["focus", "close", "move", "resize", "minimize", "maximize", "restore"]},
                "x": {"type": "integer"}, "y": {"type": "integer"},
                "width": {"type": "integer"}, "height": {"type": "integer"}
            }),
            &[],
        ));
        tools.push(tool(
            ToolName::DesktopLaunch,
            "Start a desktop app (a desktop entry such as libreoffice-calc, its Name, or a command) and answer with its first window.",
            json!({"app": {"type": "string"}, "args": {"type": "array", "items": {"type": "string"}}}),
            &["app"],
        ));
        tools.push(tool(
            ToolName::Clipboard,
            "Read the desktop clipboard's text, or set it to text.",
            json!({"text": {"type": "string"}}),
            &[],
        ));
    }
    // Over HTTP every tool takes the session handle a stateless (2026-07-28) client passes
    // back; the server's instructions say when to.
    if handles {
        for t in &mut tools {
            let schema = Arc::make_mut(&mut t.input_schema);
            if let Some(Value::Object(props)) = schema.get_mut("properties") {
                props.insert(SESSION_ARG.into(), json!({"type": "string"}));
            }
        }
    }
    tools
}

/// The browser's tools, `evaluate` included when `allow_eval`.
fn browser_tools(allow_eval: bool) -> Vec<Tool> {
    let r = json!({"type": "string", "description": "element ref, e.g. e12"});
    let mut tools = vec![
        tool(ToolName::Navigate, "Open a URL in the current tab (opens the browser on first use).", json!({"url": {"type": "string"}}), &["url"]),
        tool(ToolName::Back, "Go back in the tab's history.", json!({}), &[]),
        tool(ToolName::Forward, "Go forward in the tab's history.", json!({}), &[]),
        tool(ToolName::Reload, "Reload the page.", json!({}), &[]),
        tool(
            ToolName::Snapshot,
            "The page as a tree of roles and names; refs (e12) name elements to act on. Actions already answer with what changed; use this to look again or closer.",
            json!({
                "mode": {"enum": ["auto", "full", "reset"], "description": "auto (default): changes since your last view when smaller; full: whole page; reset: whole page, new baseline"},
                "ref": {"type": "string", "description": "only this element's subtree (a heading: its section); opens a folded part"},
                "from": {"type": "integer", "description": "with ref: children or cut value from index"},
                "interactive": {"type": "boolean", "description": "only controls, with headings and landmarks"},
                "viewport": {"type": "boolean", "description": "only what is on screen"},
                "max_nodes": {"type": "integer"},
                "max_tokens": {"type": "integer", "description": "budget; a bigger page comes as an outline (default 10000, 0: none)"},
                "format": {"enum": ["text", "json"]}
            }),
            &[],
        ),
        tool(
            ToolName::Find,
            "Find elements by name and kind, e.g. \"search box\", \"Save button\", \"plan pro\". Searches the whole page.",
            json!({"query": {"type": "string"}, "limit": {"type": "integer", "description": "default 5"}}),
            &["query"],
        ),
        tool(
            ToolName::Click,
            "Click an element.",
            json!({"ref": r, "button": {"enum": ["left", "right", "middle"]}, "double": {"type": "boolean"}}),
            &["ref"],
        ),
        tool(ToolName::Hover, "Move the mouse over an element.", json!({"ref": r}), &["ref"]),
        tool(
            ToolName::Type,
            "Type after a field's text; submit: then Enter; slowly: key by key.",
            json!({"ref": r, "text": {"type": "string"}, "submit": {"type": "boolean"}, "slowly": {"type": "boolean"}}),
            &["ref", "text"],
        ),
        tool(ToolName::Fill, "Replace a field's text.", json!({"ref": r, "text": {"type": "string"}}), &["ref", "text"]),
        tool(
            ToolName::Press,
            "Press keys on the focused element: Enter, Shift+Tab, a sequence: Tab Tab Enter.",
            json!({"keys": {"type": "string"}}),
            &["keys"],
        ),
        tool(
            ToolName::Select,
            "Select options of a native <select> by label or value.",
            json!({"ref": r, "values": {"type": "array", "items": {"type": "string"}}}),
            &["ref", "values"],
        ),
        tool(
            ToolName::Check,
            "Check (default) or uncheck a checkbox, radio or switch.",
            json!({"ref": r, "checked": {"type": "boolean"}}),
            &["ref"],
        ),
        tool(
            ToolName::Scroll,
            "Scroll the page, or an element when ref is given.",
            json!({"ref": r, "direction": {"enum": ["down", "up", "left", "right"]}, "amount": {"type": "integer", "description": "pixels, default 600"}}),
            &["direction"],
        ),
        tool(
            ToolName::Drag,
            "Drag an element and drop it on another.",
            json!({"from_ref": r, "to_ref": r}),
            &["from_ref", "to_ref"],
        ),
        tool(
            ToolName::Upload,
            "Upload files (under --upload-root) into a file input.",
            json!({"ref": r, "paths": {"type": "array", "items": {"type": "string"}}}),
            &["ref", "paths"],
        ),
        tool(
            ToolName::Tabs,
            "List, open (url), select or close (index) tabs.",
            json!({"action": {"enum": ["list", "new", "select", "close"]}, "index": {"type": "integer"}, "url": {"type": "string"}}),
            &["action"],
        ),
        tool(
            ToolName::WaitFor,
            "Wait until text appears or is gone, an element reaches a state, or seconds pass.",
            json!({
                "text": {"type": "string"},
                "text_gone": {"type": "string"},
                "ref": r,
                "state": {"enum": ["visible", "hidden", "enabled", "disabled", "checked", "unchecked", "focused"]},
                "seconds": {"type": "number", "description": "most to wait (default 10), or the pause alone"}
            }),
            &[],
        ),
        tool(
            ToolName::Dialog,
            "Accept or dismiss the open JavaScript dialog (alert, confirm, prompt).",
            json!({"accept": {"type": "boolean"}, "prompt_text": {"type": "string"}}),
            &["accept"],
        ),
        tool(
            ToolName::Screenshot,
            "A PNG of the viewport, or of one element; annotate: label refs on it.",
            json!({"ref": r, "annotate": {"type": "boolean"}}),
            &[],
        ),
        tool(ToolName::Close, "Close this session's browser context: tabs, cookies, storage.", json!({}), &[]),
    ];
    if allow_eval {
        tools.push(tool(
            ToolName::Evaluate,
            "Run a JavaScript expression in the page and return its JSON value.",
            json!({"expression": {"type": "string"}}),
            &["expression"],
        ));
    }
    tools
}

fn tool(name: ToolName, description: &'static str, properties: Value, required: &[&str]) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), properties);
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    Tool::new(name.as_str(), description, Arc::new(schema))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool_name::Offer;

    /// The budget: the tools/list result within 1,500 o200k tokens, over stdio and over
    /// HTTP (where every tool takes `session`), without the opt-in tools. Prints the counts.
    #[test]
    fn the_list_fits_its_budget() {
        for (what, handles) in [("stdio", false), ("http", true)] {
            let result = json!({"tools": list(false, false, handles, Caps::default())}).to_string();
            let (o200k, cl100k) =
                (axsnap_core::tokens::count_o200k(&result), axsnap_core::tokens::count_cl100k(&result));
            println!("tools/list over {what}: {o200k} o200k, {cl100k} cl100k tokens");
            assert!(o200k <= 1_500, "tools/list over {what} is {o200k} o200k tokens");
        }
    }

    /// What each group adds, measured (printed); the groups are opt-in, so only the default
    /// list has a budget.
    #[test]
    fn groups_add_their_tools_only() {
        let base = list(false, false, true, Caps::default());
        let all = list(false, false, true, Caps::all());
        let added: Vec<&str> = all.iter().skip(base.len()).map(|t| t.name.as_ref()).collect();
        assert_eq!(added, ["network_requests", "console", "mouse", "pdf", "storage", "cookies"]);
        for t in &all[base.len()..] {
            let name = ToolName::parse(&t.name).unwrap_or_else(|| panic!("{} unnamed", t.name));
            assert!(!Caps::default().allows(name) && Caps::all().allows(name), "{}", t.name);
        }
        for group in crate::caps::GROUPS {
            let caps = Caps::parse(&[group]).unwrap();
            let result = json!({"tools": list(false, false, true, caps)}).to_string();
            let (o, c) =
                (axsnap_core::tokens::count_o200k(&result), axsnap_core::tokens::count_cl100k(&result));
            println!("tools/list over http with --caps {group}: {o} o200k, {c} cl100k tokens");
        }
        let result = json!({"tools": all}).to_string();
        let (o, c) = (axsnap_core::tokens::count_o200k(&result), axsnap_core::tokens::count_cl100k(&result));
        println!("tools/list over http with --caps all: {o} o200k, {c} cl100k tokens");
    }

    /// Every tool is listed exactly when its offer is on, in [`ToolName::ALL`]'s order.
    #[test]
    fn the_list_is_the_names_each_offered_when_it_should_be() {
        let names = |tools: Vec<Tool>| -> Vec<ToolName> {
            tools
                .iter()
                .map(|t| ToolName::parse(&t.name).unwrap_or_else(|| panic!("{} unnamed", t.name)))
                .collect()
        };
        assert_eq!(names(list(true, true, false, Caps::all())), ToolName::ALL);
        let always: Vec<ToolName> =
            ToolName::ALL.into_iter().filter(|t| t.offer() == Offer::Always).collect();
        assert_eq!(names(list(false, false, false, Caps::default())), always);
        let evaluated = names(list(true, false, false, Caps::default()));
        assert!(evaluated.contains(&ToolName::Evaluate) && !evaluated.contains(&ToolName::DesktopWindows));
        for group in crate::caps::GROUPS {
            let caps = Caps::parse(&[group]).unwrap_or_default();
            let added: Vec<ToolName> = names(list(false, false, false, caps))
                .into_iter()
                .filter(|t| t.offer() != Offer::Always)
                .collect();
            assert!(!added.is_empty(), "{group}");
            assert!(added.iter().all(|t| t.offer() == Offer::Group(group)), "{group}: {added:?}");
        }
    }

    #[test]
    fn desktop_adds_three_tools_and_a_window_argument() {
        let browser = list(false, false, false, Caps::default());
        let desktop = list(false, true, false, Caps::default());
        assert_eq!(desktop.len(), browser.len() + 3);
        let added: Vec<&str> = desktop[browser.len()..].iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(added, ["desktop_windows", "desktop_launch", "clipboard"]);
        for (b, d) in browser.iter().zip(&desktop) {
            let has_window = d.input_schema.get("properties").and_then(|p| p.get("window")).is_some();
            assert_eq!(has_window, ToolName::parse(&d.name).is_some_and(ToolName::windowed), "{}", d.name);
            assert!(b.input_schema.get("properties").and_then(|p| p.get("window")).is_none(), "{}", b.name);
        }
    }

    #[test]
    fn http_adds_a_session_argument_to_every_tool() {
        let stdio = list(true, true, false, Caps::default());
        let http = list(true, true, true, Caps::default());
        assert_eq!(stdio.len(), http.len());
        for (s, h) in stdio.iter().zip(&http) {
            let has = |t: &Tool| t.input_schema.get("properties").and_then(|p| p.get(SESSION_ARG)).is_some();
            assert!(!has(s) && has(h), "{}", h.name);
        }
    }

    #[test]
    fn required_fields_are_properties() {
        for t in list(true, true, false, Caps::default()) {
            let props =
                t.input_schema.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
            let required =
                t.input_schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
            for r in required {
                assert!(props.contains_key(r.as_str().unwrap_or_default()), "{}: {r}", t.name);
            }
        }
    }
}
