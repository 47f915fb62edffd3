//! [`PageLog`]: what a tab reported on the side while an agent worked: console errors,
//! uncaught exceptions and downloads. An agent's answer after an action names the new ones, so
//! a failing script or a refused download is not silent.
//!
//! The log listens to the tab's main session (`Runtime.enable` and `Page.enable` are already on
//! there, see [`crate::frames`]); it keeps a count and the first few messages, bounded, so a
//! page that logs in a loop costs nothing.

use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;

use crate::conn::str_field;
use crate::page::PageHandle;

/// Messages kept per kind; later ones are only counted.
const KEPT: usize = 16;
/// Longest message kept, in characters.
const MESSAGE_CHARS: usize = 300;

/// What a tab reported so far. Counts only grow; compare two [`PageLog::counts`] to see what is
/// new.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogState {
    /// Console errors and uncaught exceptions seen.
    pub errors: u64,
    /// The first [`KEPT`] of them, each with its number (1-based).
    pub error_messages: Vec<(u64, String)>,
    /// Downloads the page started (all refused: downloads never land on disk).
    pub downloads: u64,
    /// The first [`KEPT`] suggested file names or URLs, each with its number.
    pub download_names: Vec<(u64, String)>,
}

impl LogState {
    /// The first error message numbered above `seen`, if kept.
    pub fn first_error_after(&self, seen: u64) -> Option<&str> {
        self.error_messages.iter().find(|(n, _)| *n > seen).map(|(_, m)| m.as_str())
    }

    /// The first download name numbered above `seen`, if kept.
    pub fn first_download_after(&self, seen: u64) -> Option<&str> {
        self.download_names.iter().find(|(n, _)| *n > seen).map(|(_, m)| m.as_str())
    }
}

/// Listens to one tab's console errors, exceptions and downloads; stops when dropped.
#[derive(Debug)]
pub struct PageLog {
    state: Arc<Mutex<LogState>>,
    task: tokio::task::JoinHandle<()>,
    session: String,
}

impl Drop for PageLog {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl PageLog {
    /// Starts listening to `page` (events from now on).
    pub fn start(page: &PageHandle) -> PageLog {
        let state = Arc::new(Mutex::new(LogState::default()));
        let events = page.raw().subscribe();
        let session = page.session_id().to_string();
        let task = tokio::spawn(listen(events, session.clone(), state.clone()));
        PageLog { state, task, session }
    }

    /// The CDP session it listens to (a tab replaced under the same id has a new one).
    pub fn session_id(&self) -> &str {
        &self.session
    }

    /// What was seen so far.
    pub fn state(&self) -> LogState {
        lock(&self.state).clone()
    }

    /// `(errors, downloads)` seen so far.
    pub fn counts(&self) -> (u64, u64) {
        let st = lock(&self.state);
        (st.errors, st.downloads)
    }
}

fn lock(m: &Mutex<LogState>) -> MutexGuard<'_, LogState> {
    // Plain counters: a panic elsewhere cannot leave them half-written in a harmful way.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

async fn listen(
    mut events: tokio::sync::broadcast::Receiver<Arc<crate::conn::RawEvent>>,
    session: String,
    state: Arc<Mutex<LogState>>,
) {
    loop {
        let ev = match events.recv().await {
            Ok(ev) => ev,
            Err(RecvError::Lagged(_)) => continue,
            Err(RecvError::Closed) => break,
        };
        if ev.session_id.as_deref() != Some(session.as_str()) {
            continue;
        }
        let p = &ev.params;
        match ev.method.as_str() {
            "Runtime.exceptionThrown" => {
                let details = p.get("exceptionDetails").cloned().unwrap_or(Value::Null);
                let message = details
                    .pointer("/exception/description")
                    .and_then(Value::as_str)
                    .or_else(|| str_field(&details, "text"))
                    .unwrap_or("uncaught exception");
                note_error(&state, message);
            }
            "Runtime.consoleAPICalled" if str_field(p, "type") == Some("error") => {
                let args = p.get("args").and_then(Value::as_array).cloned().unwrap_or_default();
                let parts: Vec<String> = args.iter().map(console_arg).collect();
                note_error(&state, &parts.join(" "));
            }
            "Page.downloadWillBegin" => {
                let name = str_field(p, "suggestedFilename")
                    .filter(|s| !s.is_empty())
                    .or_else(|| str_field(p, "url"))
                    .unwrap_or("a file");
                let mut st = lock(&state);
                st.downloads += 1;
                let n = st.downloads;
                if st.download_names.len() < KEPT {
                    st.download_names.push((n, bounded(name)));
                }
            }
            _ => {}
        }
    }
}

fn note_error(state: &Mutex<LogState>, message: &str) {
    let mut st = lock(state);
    st.errors += 1;
    let n = st.errors;
    if st.error_messages.len() < KEPT {
        st.error_messages.push((n, bounded(message)));
    }
}

/// A console argument as text: its value when it is a primitive, else its description.
fn console_arg(arg: &Value) -> String {
    match arg.get("value") {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => str_field(arg, "description").or_else(|| str_field(arg, "type")).unwrap_or_default().to_string(),
    }
}

/// One line of at most [`MESSAGE_CHARS`] characters.
fn bounded(s: &str) -> String {
    one_line(s, MESSAGE_CHARS)
}

/// `s` on one line (runs of white space as one space), at most `max` characters, saying how
/// many more there were.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    let line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let total = line.chars().count();
    if total <= max {
        return line;
    }
    let cut: String = line.chars().take(max).collect();
    format!("{cut}…+{} chars", total - max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_bounded_line() {
        assert_eq!(bounded("a\n  b"), "a b");
        let long = "x".repeat(MESSAGE_CHARS + 5);
        assert_eq!(bounded(&long), format!("{}…+5 chars", "x".repeat(MESSAGE_CHARS)));
    }

    #[test]
    fn console_args_read_as_text() {
        assert_eq!(console_arg(&serde_json::json!({"type": "string", "value": "boom"})), "boom");
        assert_eq!(console_arg(&serde_json::json!({"type": "number", "value": 3})), "3");
        assert_eq!(
            console_arg(&serde_json::json!({"type": "object", "description": "Error: x"})),
            "Error: x"
        );
    }

    #[test]
    fn first_after_skips_seen() {
        let st = LogState {
            errors: 3,
            error_messages: vec![(1, "a".into()), (2, "b".into()), (3, "c".into())],
            ..LogState::default()
        };
        assert_eq!(st.first_error_after(1), Some("b"));
        assert_eq!(st.first_error_after(3), None);
    }
}
