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

/// Tool names, in the order they are listed.
pub const NAMES: &[&str] = &[
    "navigate",
    "back",
    "forward",
    "reload",
    "snapshot",
    "find",
    "click",
    "hover",
    "type",
    "fill",
    "press",
    "select",
    "check",
    "scroll",
    "drag",
    "upload",
    "tabs",
    "wait_for",
    "dialog",
    "screenshot",
    "close",
];

/// The tool run only with `--allow-eval`.
pub const EVALUATE: &str = "evaluate";

/// The tool offered only with `--desktop`: the desktop's windows.
pub const DESKTOP_WINDOWS: &str = "desktop_windows";

/// The tool that starts a desktop app (with `--desktop`).
pub const DESKTOP_LAUNCH: &str = "desktop_launch";

/// The tool that reads or sets the desktop's clipboard (with `--desktop`).
pub const CLIPBOARD: &str = "clipboard";

/// The tools that take a `window` (with `--desktop`): they then work in that desktop window.
pub const WINDOWED: &[&str] =
    &["snapshot", "find", "wait_for", "click", "hover", "type", "fill", "press", "select", "check", "scroll"];

/// The tools offered, `evaluate` included when `allow_eval`; with `handles` (an HTTP server),
/// each takes an optional `session` (the handle of a stateless client's session: over stdio
/// the process is the session, and the list stays as small as it was); with `desktop`, the
/// [`DESKTOP_WINDOWS`], [`DESKTOP_LAUNCH`] and [`CLIPBOARD`] tools and a `window` argument on
/// the [`WINDOWED`] tools; the tools of each group `caps` turns on. Without
/// `desktop` the list is exactly the browser's.
pub fn list(allow_eval: bool, desktop: bool, handles: bool, caps: Caps) -> Vec<Tool> {
    let mut tools = browser_tools(allow_eval);
    if caps.network {
        tools.push(tool(
            "network_requests",
            "Requests this tab made: method, status, type, size, time; newest last. id: one request with its bodies.",
            json!({
                "filter": {"type": "string", "description": "text the line contains: /api/, POST, fetch, 404, failed"},
                "limit": {"type": "integer", "description": "default 30"},
                "id": {"type": "integer"}
            }),
            &[],
        ));
        tools.push(tool(
            "console",
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
            "mouse",
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
            "pdf",
            "Print the page to a PDF file under the server's --output-dir.",
            json!({"path": {"type": "string"}}),
            &["path"],
        ));
    }
    if caps.storage {
        tools.push(tool(
            "storage",
            "Save this session's cookies and local storage to a file under --output-dir, or load such a file.",
            json!({"action": {"enum": ["save", "load"]}, "path": {"type": "string"}}),
            &["action", "path"],
        ));
        tools.push(tool(
            "cookies",
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
        for t in tools.iter_mut().filter(|t| WINDOWED.contains(&t.name.as_ref())) {
            let schema = Arc::make_mut(&mut t.input_schema);
            if let Some(Value::Object(props)) = schema.get_mut("properties") {
                props.insert("window".into(), json!({"type": "string"}));
            }
        }
        tools.push(tool(
            DESKTOP_WINDOWS,
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
            DESKTOP_LAUNCH,
            "Start a desktop app (a desktop entry such as libreoffice-calc, its Name, or a command) and answer with its first window.",
            json!({"app": {"type": "string"}, "args": {"type": "array", "items": {"type": "string"}}}),
            &["app"],
        ));
        tools.push(tool(
            CLIPBOARD,
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
        tool("navigate", "Open a URL in the current tab (opens the browser on first use).", json!({"url": {"type": "string"}}), &["url"]),
        tool("back", "Go back in the tab's history.", json!({}), &[]),
        tool("forward", "Go forward in the tab's history.", json!({}), &[]),
        tool("reload", "Reload the page.", json!({}), &[]),
        tool(
            "snapshot",
            "The page as a tree of roles and names; refs (e12) name elements to act on. Actions already answer with what changed; use this to look again or closer.",
            json!({
                "mode": {"enum": ["auto", "full", "reset"], "description": "auto (default): changes since your last view when smaller; full: whole page; reset: whole page, new baseline"},
                "ref": {"type": "string", "description": "only this element's subtree (a heading: its section); opens a folded part"},
                "from": {"type": "integer", "description": "with ref: its children from this index on"},
                "interactive": {"type": "boolean", "description": "only controls, with headings and landmarks"},
                "viewport": {"type": "boolean", "description": "only what is on screen"},
                "max_nodes": {"type": "integer"},
                "max_tokens": {"type": "integer", "description": "budget; a bigger page comes as an outline (default 10000, 0: none)"},
                "format": {"enum": ["text", "json"]}
            }),
            &[],
        ),
        tool(
            "find",
            "Find elements by name and kind, e.g. \"search box\", \"Save button\", \"plan pro\". Searches the whole page.",
            json!({"query": {"type": "string"}, "limit": {"type": "integer", "description": "default 5"}}),
            &["query"],
        ),
        tool(
            "click",
            "Click an element.",
            json!({"ref": r, "button": {"enum": ["left", "right", "middle"]}, "double": {"type": "boolean"}}),
            &["ref"],
        ),
        tool("hover", "Move the mouse over an element.", json!({"ref": r}), &["ref"]),
        tool(
            "type",
            "Type after a field's text; submit: then Enter; slowly: key by key.",
            json!({"ref": r, "text": {"type": "string"}, "submit": {"type": "boolean"}, "slowly": {"type": "boolean"}}),
            &["ref", "text"],
        ),
        tool("fill", "Replace a field's text.", json!({"ref": r, "text": {"type": "string"}}), &["ref", "text"]),
        tool(
            "press",
            "Press keys on the focused element: Enter, Shift+Tab, a sequence: Tab Tab Enter.",
            json!({"keys": {"type": "string"}}),
            &["keys"],
        ),
        tool(
            "select",
            "Select options of a select or listbox by label or value.",
            json!({"ref": r, "values": {"type": "array", "items": {"type": "string"}}}),
            &["ref", "values"],
        ),
        tool(
            "check",
            "Check (default) or uncheck a checkbox, radio or switch.",
            json!({"ref": r, "checked": {"type": "boolean"}}),
            &["ref"],
        ),
        tool(
            "scroll",
            "Scroll the page, or an element when ref is given.",
            json!({"ref": r, "direction": {"enum": ["down", "up", "left", "right"]}, "amount": {"type": "integer", "description": "pixels, default 600"}}),
            &["direction"],
        ),
        tool(
            "drag",
            "Drag an element and drop it on another.",
            json!({"from_ref": r, "to_ref": r}),
            &["from_ref", "to_ref"],
        ),
        tool(
            "upload",
            "Upload files (under --upload-root) into a file input.",
            json!({"ref": r, "paths": {"type": "array", "items": {"type": "string"}}}),
            &["ref", "paths"],
        ),
        tool(
            "tabs",
            "List, open (url), select or close (index) tabs.",
            json!({"action": {"enum": ["list", "new", "select", "close"]}, "index": {"type": "integer"}, "url": {"type": "string"}}),
            &["action"],
        ),
        tool(
            "wait_for",
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
            "dialog",
            "Accept or dismiss the open JavaScript dialog (alert, confirm, prompt).",
            json!({"accept": {"type": "boolean"}, "prompt_text": {"type": "string"}}),
            &["accept"],
        ),
        tool(
            "screenshot",
            "A PNG of the viewport, or of one element; annotate: label refs on it.",
            json!({"ref": r, "annotate": {"type": "boolean"}}),
            &[],
        ),
        tool("close", "Close this session's browser context: tabs, cookies, storage.", json!({}), &[]),
    ];
    if allow_eval {
        tools.push(tool(
            EVALUATE,
            "Run a JavaScript expression in the page and return its JSON value.",
            json!({"expression": {"type": "string"}}),
            &["expression"],
        ));
    }
    tools
}

fn tool(name: &'static str, description: &'static str, properties: Value, required: &[&str]) -> Tool {
    let mut schema = JsonObject::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), properties);
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    Tool::new(name, description, Arc::new(schema))
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert!(!Caps::default().allows(&t.name) && Caps::all().allows(&t.name), "{}", t.name);
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

    #[test]
    fn names_match_the_list() {
        let listed: Vec<String> =
            list(false, false, false, Caps::default()).iter().map(|t| t.name.to_string()).collect();
        assert_eq!(listed, NAMES.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert!(list(true, false, false, Caps::default()).iter().any(|t| t.name == EVALUATE));
        assert!(!list(true, false, false, Caps::default()).iter().any(|t| t.name == DESKTOP_WINDOWS));
    }

    #[test]
    fn desktop_adds_three_tools_and_a_window_argument() {
        let browser = list(false, false, false, Caps::default());
        let desktop = list(false, true, false, Caps::default());
        assert_eq!(desktop.len(), browser.len() + 3);
        let added: Vec<&str> = desktop[browser.len()..].iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(added, [DESKTOP_WINDOWS, DESKTOP_LAUNCH, CLIPBOARD]);
        for (b, d) in browser.iter().zip(&desktop) {
            let has_window = d.input_schema.get("properties").and_then(|p| p.get("window")).is_some();
            assert_eq!(has_window, WINDOWED.contains(&d.name.as_ref()), "{}", d.name);
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
