//! [`Message`]: one console message of a tab with its level and where it came from, from
//! `Runtime.consoleAPICalled` (the page's `console.*`), `Runtime.exceptionThrown` (uncaught
//! errors) and `Log.entryAdded` (the browser's own: failed loads, violations, CSP).

use std::fmt;

use serde_json::Value;

use crate::conn::str_field;
use crate::page_log::one_line;

/// Longest message text kept, in characters.
pub(super) const TEXT_CHARS: usize = 2_000;

/// How severe a message is; ordered, so a filter keeps a level and those above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// `console.debug`, the browser's verbose entries.
    Debug,
    /// `console.log`, `info`, `dir`, `table`, ...
    Info,
    /// `console.warn` and the browser's warnings.
    Warning,
    /// `console.error`, failed assertions, uncaught exceptions, failed loads.
    Error,
}

impl Level {
    /// The level named `name` (`debug`, `info`, `warning`/`warn`, `error`).
    pub fn parse(name: &str) -> Option<Level> {
        match name {
            "debug" | "verbose" => Some(Level::Debug),
            "info" | "log" => Some(Level::Info),
            "warning" | "warn" => Some(Level::Warning),
            "error" => Some(Level::Error),
            _ => None,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Error => "error",
        })
    }
}

/// One console message.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// Its number in the recorder, from 1.
    pub n: u64,
    /// The CDP id of the tab it came from.
    pub tab: String,
    /// How severe it is.
    pub level: Level,
    /// Where it came from: `console.log`, `exception`, or the browser's source (`network`,
    /// `violation`, `security`, ...).
    pub source: String,
    /// Its text, one line, at most `TEXT_CHARS` characters (unredacted: the recorder
    /// redacts on the way out).
    pub text: String,
    /// `url:line:column` (1-based) of the code that logged it, when known.
    pub location: Option<String>,
}

impl Message {
    /// The message an event carries, if it is one.
    pub(super) fn from_event(n: u64, tab: &str, method: &str, p: &Value) -> Option<Message> {
        let (level, source, text, location) = match method {
            "Runtime.consoleAPICalled" => {
                let kind = str_field(p, "type").unwrap_or("log");
                let level = match kind {
                    "error" | "assert" => Level::Error,
                    "warning" => Level::Warning,
                    "debug" => Level::Debug,
                    _ => Level::Info,
                };
                let args = p.get("args").and_then(Value::as_array).cloned().unwrap_or_default();
                let text = args.iter().map(arg_text).collect::<Vec<_>>().join(" ");
                let frame = p.pointer("/stackTrace/callFrames/0");
                (level, format!("console.{kind}"), text, frame.and_then(location))
            }
            "Runtime.exceptionThrown" => {
                let d = p.get("exceptionDetails")?;
                let text = d
                    .pointer("/exception/description")
                    .and_then(Value::as_str)
                    .or_else(|| str_field(d, "text"))
                    .unwrap_or("uncaught exception");
                let at = d.pointer("/stackTrace/callFrames/0").and_then(location).or_else(|| location(d));
                (Level::Error, "exception".to_string(), text.to_string(), at)
            }
            "Log.entryAdded" => {
                let e = p.get("entry")?;
                let level = Level::parse(str_field(e, "level").unwrap_or("info")).unwrap_or(Level::Info);
                let text = str_field(e, "text").unwrap_or_default().to_string();
                let at =
                    location(e).or_else(|| str_field(e, "url").filter(|u| !u.is_empty()).map(str::to_string));
                (level, str_field(e, "source").unwrap_or("browser").to_string(), text, at)
            }
            _ => return None,
        };
        Some(Message { n, tab: tab.to_string(), level, source, text: one_line(&text, TEXT_CHARS), location })
    }
}

/// `url:line:column`, 1-based, from an object with `url`, `lineNumber` and `columnNumber`
/// (0-based, as CDP gives them).
fn location(v: &Value) -> Option<String> {
    let url = str_field(v, "url").filter(|u| !u.is_empty())?;
    let line = v.get("lineNumber").and_then(Value::as_u64)?;
    let column = v.get("columnNumber").and_then(Value::as_u64).unwrap_or(0);
    Some(format!("{url}:{}:{}", line + 1, column + 1))
}

/// A console argument as text: its value when it is a primitive, else the preview or
/// description the browser gives.
fn arg_text(arg: &Value) -> String {
    match arg.get("value") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => {
            if let Some(props) = arg.pointer("/preview/properties").and_then(Value::as_array) {
                let open = if str_field(arg, "subtype") == Some("array") { ('[', ']') } else { ('{', '}') };
                let fields: Vec<String> = props
                    .iter()
                    .map(|p| {
                        let v = str_field(p, "value").unwrap_or("…");
                        if open.0 == '[' {
                            v.to_string()
                        } else {
                            format!("{}: {v}", str_field(p, "name").unwrap_or("?"))
                        }
                    })
                    .collect();
                return format!("{}{}{}", open.0, fields.join(", "), open.1);
            }
            str_field(arg, "description").or_else(|| str_field(arg, "type")).unwrap_or_default().to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn console_calls_exceptions_and_browser_entries() {
        let log = json!({"type": "warning", "args": [{"type": "string", "value": "low"}, {"type": "number", "value": 3},
            {"type": "object", "preview": {"properties": [{"name": "a", "value": "1"}]}}],
            "stackTrace": {"callFrames": [{"url": "http://a/app.js", "lineNumber": 9, "columnNumber": 4}]}});
        let m = Message::from_event(1, "T", "Runtime.consoleAPICalled", &log).unwrap();
        assert_eq!(
            (m.level, m.source.as_str(), m.text.as_str()),
            (Level::Warning, "console.warning", "low 3 {a: 1}")
        );
        assert_eq!(m.location.as_deref(), Some("http://a/app.js:10:5"));
        let ex = json!({"exceptionDetails": {"text": "Uncaught", "url": "http://a/x.js", "lineNumber": 0, "columnNumber": 0,
            "exception": {"description": "TypeError: x is not a function\n    at y"}}});
        let m = Message::from_event(2, "T", "Runtime.exceptionThrown", &ex).unwrap();
        assert_eq!((m.level, m.text.as_str()), (Level::Error, "TypeError: x is not a function at y"));
        assert_eq!(m.location.as_deref(), Some("http://a/x.js:1:1"));
        let entry = json!({"entry": {"source": "network", "level": "error", "text": "Failed to load resource: 404", "url": "http://a/missing.png"}});
        let m = Message::from_event(3, "T", "Log.entryAdded", &entry).unwrap();
        assert_eq!(
            (m.level, m.source.as_str(), m.location.as_deref()),
            (Level::Error, "network", Some("http://a/missing.png"))
        );
        assert!(Message::from_event(4, "T", "Page.loadEventFired", &json!({})).is_none());
    }

    #[test]
    fn levels_are_ordered_and_named() {
        assert!(Level::Debug < Level::Info && Level::Warning < Level::Error);
        assert_eq!(Level::parse("warn"), Some(Level::Warning));
        assert_eq!(Level::parse("loud"), None);
        assert_eq!(Level::Error.to_string(), "error");
    }
}
