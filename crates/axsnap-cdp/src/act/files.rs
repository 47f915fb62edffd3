//! Files into a file input, directly or through the file chooser a button opens.

use axsnap_core::backend::{MouseButton, Refusal};
use serde_json::{json, Value};

use super::{click, ensure_enabled};
use crate::error::CdpError;
use crate::locate::{call_on, not_actionable, Element};
use crate::page::PageHandle;

/// How long a control an upload clicks may take to open its file chooser.
const CHOOSER_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Puts files into a file input (`DOM.setFileInputFiles` fires its `input` and `change`
/// events, as a choice in the file dialog does). A button or label that opens a file chooser
/// (a page that hides its input behind one) is clicked with the chooser intercepted, and the
/// files go into the input it opened for.
pub(super) async fn set_files(
    page: &PageHandle,
    el: &Element,
    paths: &[String],
    name: &str,
) -> Result<(), CdpError> {
    ensure_enabled(page, el, name, true).await?;
    let v = call_on(
        page,
        el,
        "function() {
           if (this instanceof HTMLInputElement && this.type === 'file') return this.multiple ? 'multiple' : 'single';
           const role = this.getAttribute && this.getAttribute('role');
           return (this instanceof HTMLButtonElement || this instanceof HTMLLabelElement || role === 'button')
             ? 'opener' : 'no'; }",
        &[],
    )
    .await?;
    let (multiple, backend) = match v.as_str() {
        Some("multiple") => (true, el.backend),
        Some("single") => (false, el.backend),
        Some("opener") => chooser(page, el, name).await?,
        _ => return Err(not_actionable(
            Refusal::NotActionable,
            name,
            el,
            "it is neither a file input (<input type=file>) nor a button that opens a file chooser; upload \
                 into the file input, or the button or label that opens it",
        )),
    };
    if !multiple && paths.len() > 1 {
        return Err(not_actionable(
            Refusal::NotActionable,
            name,
            el,
            &format!("it takes one file and {} were given; upload one", paths.len()),
        ));
    }
    // On the element's own session: an input in an out-of-process frame lives there.
    let params = json!({"files": paths, "backendNodeId": backend});
    page.raw().call(Some(&el.session), "DOM.setFileInputFiles", params).await.map(|_| ())
}

/// Clicks `el` with file choosers intercepted; the chooser it opened: whether it takes
/// several files, and its input's backend node id.
async fn chooser(page: &PageHandle, el: &Element, name: &str) -> Result<(bool, i64), CdpError> {
    let raw = page.raw();
    let mut events = raw.subscribe();
    let intercept =
        |on: bool| raw.call(Some(&el.session), "Page.setInterceptFileChooserDialog", json!({"enabled": on}));
    intercept(true).await?;
    let clicked = click(page, el, MouseButton::Left, 1, name).await;
    let opened = async {
        while clicked.is_ok() {
            match events.recv().await {
                Ok(e)
                    if e.method == "Page.fileChooserOpened"
                        && e.session_id.as_deref() == Some(&el.session) =>
                {
                    return Some(e.params.clone());
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                _ => {}
            }
        }
        None
    };
    let opened = tokio::time::timeout(CHOOSER_WAIT, opened).await.ok().flatten();
    let _ = intercept(false).await;
    clicked?;
    let backend = opened.as_ref().and_then(|p| p.get("backendNodeId")).and_then(Value::as_i64);
    match (opened.as_ref(), backend) {
        (Some(p), Some(b)) => Ok((p.get("mode").and_then(Value::as_str) == Some("selectMultiple"), b)),
        _ => Err(not_actionable(
            Refusal::NotActionable,
            name,
            el,
            &format!(
                "clicking it opened no file chooser within {} s; upload into the file input itself",
                CHOOSER_WAIT.as_secs()
            ),
        )),
    }
}
