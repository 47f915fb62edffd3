//! JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): what one looks like when
//! it opens, and answering it.
//!
//! A dialog blocks the page's scripts until answered, so nothing that evaluates script may wait
//! on a page that shows one. [`crate::settle`] watches `Page.javascriptDialogOpening` while an
//! action runs and returns at once with the dialog in [`axsnap_core::backend::Outcome::dialog`];
//! the agent then calls [`answer`].

use serde_json::{json, Value};

use crate::conn::str_field;
use crate::error::CdpError;
use crate::page::PageHandle;
use crate::settle::{SettleOptions, Watcher};
use axsnap_core::backend::Outcome;

/// An open JavaScript dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    pub kind: String,
    /// Its message.
    pub message: String,
    /// A prompt's default text.
    pub default_prompt: Option<String>,
    /// The URL of the frame that opened it.
    pub url: String,
    /// The CDP session the dialog was reported on (answered on the same one).
    pub session: String,
}

impl Dialog {
    /// Reads a `Page.javascriptDialogOpening` event.
    pub fn from_event(session: &str, params: &Value) -> Dialog {
        Dialog {
            kind: str_field(params, "type").unwrap_or("alert").to_string(),
            message: str_field(params, "message").unwrap_or_default().to_string(),
            default_prompt: str_field(params, "defaultPrompt").filter(|s| !s.is_empty()).map(str::to_string),
            url: str_field(params, "url").unwrap_or_default().to_string(),
            session: session.to_string(),
        }
    }

    /// One line for the agent: `confirm "Delete the file?" (answer with accept or dismiss)`.
    pub fn describe(&self) -> String {
        let mut s = format!("{} {:?}", self.kind, self.message);
        if let Some(d) = &self.default_prompt {
            s.push_str(&format!(" (default text {d:?})"));
        }
        s.push_str(" is open; the page waits until it is accepted or dismissed");
        s
    }
}

/// How to answer a dialog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// OK (for a prompt, with this text; `None` keeps the default text).
    Accept(Option<String>),
    /// Cancel.
    Dismiss,
}

/// Answers the open dialog of `page` (on any of its sessions) and waits for the page to settle.
/// [`CdpError::NoDialog`] when none is open.
pub async fn answer(page: &PageHandle, answer: &Answer, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    let watcher = Watcher::start(page).await?;
    let mut params = json!({"accept": matches!(answer, Answer::Accept(_))});
    if let Answer::Accept(Some(text)) = answer {
        params["promptText"] = json!(text);
    }
    let sessions = page.watch().snapshot().sessions;
    let mut answered = false;
    for s in &sessions {
        match page.raw().call(Some(&s.session_id), "Page.handleJavaScriptDialog", params.clone()).await {
            Ok(_) => {
                answered = true;
                break;
            }
            // "No dialog is showing": try the next session.
            Err(CdpError::Protocol { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    if !answered {
        return Err(CdpError::NoDialog);
    }
    watcher.settle(opts, false).await
}
