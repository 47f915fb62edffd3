//! JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): what one looks like when
//! it opens, and answering it.
//!
//! A dialog blocks the page until answered: while one is open the renderer answers no call that
//! needs its main thread (not even `Accessibility.getFullAXTree`). So:
//! - [`crate::settle`] watches `Page.javascriptDialogOpening` while an action runs and returns
//!   at once with the dialog in [`axsnap_core::backend::Outcome::dialog`];
//! - `FrameWatch` (frames.rs) tracks the open dialog whoever opened it (a timer, a page
//!   script, a navigation's `beforeunload`), so a capture of a blocked tab answers at once with
//!   [`blocked_capture`] and an action is refused with [`CdpError::DialogOpen`];
//! - the agent then calls [`answer`].

use serde_json::{json, Value};

use crate::conn::str_field;
use crate::error::CdpError;
use crate::page::PageHandle;
use crate::settle::{SettleOptions, Watcher};
use axsnap_core::backend::{Capture, Outcome};
use axsnap_core::{Header, NativeId, Node, Role, State, TargetId, Tree};

/// The native id (within the document's scope) of the node that stands for an open dialog.
pub const DIALOG_NODE_ID: &str = "js-dialog";

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
        // The page writes the message: bounded like any text it writes.
        let mut s = format!("{} {:?}", self.kind, axsnap_core::caps::cap(&self.message, 500));
        if let Some(d) = &self.default_prompt {
            s.push_str(&format!(" (default text {:?})", axsnap_core::caps::cap(d, 200)));
        }
        s.push_str(" is open; the page waits until it is accepted or dismissed");
        s
    }

    /// The error for an action the dialog does not let through.
    pub fn blocks(&self) -> CdpError {
        CdpError::DialogOpen { kind: self.kind.clone(), message: self.message.clone() }
    }
}

/// What a capture of a tab that `dialog` blocks can truthfully show: the document's root (with
/// `root`, the native id the last whole capture gave it, so refs stay put) and the dialog, as
/// an `alertdialog` node. It is marked partial: the page below the dialog cannot be read, and
/// a partial capture leaves the refs of what it does not show alone.
pub fn blocked_capture(target: &TargetId, header: Header, root: NativeId, dialog: &Dialog) -> Capture {
    let title = header.title.clone().unwrap_or_default();
    let scope = root.scope.clone();
    let mut tree = Tree::with_root(Node::new(Role::Document, title, root));
    let mut node = Node::new(Role::AlertDialog, dialog.message.clone(), NativeId::new(scope, DIALOG_NODE_ID));
    node.description = Some(format!("JavaScript {}: accept or dismiss it", dialog.kind));
    node.value = dialog.default_prompt.clone();
    node.states.set(State::Modal, true);
    if let Some(r) = tree.root() {
        tree.append(r, node);
    }
    let partial = format!(
        "a JavaScript {} dialog blocks the page, so only the dialog is shown; accept or dismiss it to see \
         the page",
        dialog.kind
    );
    Capture::new(target.clone(), header, tree, Some(partial))
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
    match answer {
        Answer::Accept(Some(text)) => params["promptText"] = json!(text),
        // Chromium would answer a prompt with an empty text: keep its default, as a person
        // pressing OK would.
        Answer::Accept(None) => {
            if let Some(default) = page.watch().dialog().and_then(|d| d.default_prompt) {
                params["promptText"] = json!(default);
            }
        }
        Answer::Dismiss => {}
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
