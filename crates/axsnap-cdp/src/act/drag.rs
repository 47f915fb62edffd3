//! Dragging an element onto another: an HTML5 drag the browser intercepts and carries with
//! drag events, or pointer moves for a page that follows the pointer itself.

use axsnap_core::backend::{MouseButton, Refusal};
use axsnap_core::NativeId;
use serde_json::{json, Value};

use super::{ensure_enabled, mouse};
use crate::error::CdpError;
use crate::locate::{self, clickable_point, not_actionable, Element};
use crate::page::PageHandle;

/// Pointer moves between a drag's start and its drop: pages that follow the pointer (sortable
/// lists) look at the moves in between, not only the last.
const DRAG_STEPS: u32 = 8;

/// How long a drag waits to learn whether the page started an HTML5 drag.
const DRAG_START_WAIT: std::time::Duration = std::time::Duration::from_millis(300);

/// Whether an HTML5 drag can start from the element: it, an element around it (across shadow
/// roots) or one inside it is draggable (`draggable=true`, or a link or image, draggable by
/// default). When none is, once pressed, the drag is the page's own and needs no wait for a
/// `dragstart`.
const MAY_DRAG_JS: &str = "function() { \
  for (let e = this; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) { if (e.draggable) return true; } \
  return !!this.querySelector('[draggable=true], a[href], img'); }";

/// Drags `el` onto the element `to`. The browser's drags are intercepted: when the page starts
/// an HTML5 drag (`dragstart`), its data is carried to the target with drag events
/// (`dragenter`, `dragover`, `drop`); otherwise the pointer moves there in steps and is
/// released (a drag the page follows with mouse or pointer events).
pub(super) async fn drag(page: &PageHandle, el: &Element, to: &NativeId, name: &str) -> Result<(), CdpError> {
    ensure_enabled(page, el, name, true).await?;
    let target = match locate::locate(page, to).await {
        Ok(t) => t,
        Err(CdpError::StaleElement { .. }) => {
            return Err(not_actionable(
                Refusal::Gone,
                name,
                el,
                "the element to drop it on is gone (its ref is stale); take a new snapshot",
            ))
        }
        Err(e) => return Err(e),
    };
    let (x0, y0) = clickable_point(page, el, name).await?;
    let (x1, y1) = clickable_point(page, &target, "drop onto").await?;
    let raw = page.raw();
    let session = page.session_id();
    let mut events = raw.subscribe();
    let intercept = |on: bool| raw.call(Some(session), "Input.setInterceptDrags", json!({"enabled": on}));
    intercept(true).await?;
    let result = async {
        let send = |p: Value| page.call("Input.dispatchMouseEvent", p);
        send(mouse("mouseMoved", x0, y0, MouseButton::Left, 0)).await?;
        send(mouse("mousePressed", x0, y0, MouseButton::Left, 1)).await?;
        // A few pixels first: where an HTML5 drag starts.
        send(moved(x0 + 6.0, y0 + 6.0)).await?;
        // Asked after the press: a page may make the element draggable as it is pressed
        // (SortableJS does). Nothing draggable there: no dragstart is coming.
        let wait = if may_drag(page, el).await { DRAG_START_WAIT } else { std::time::Duration::ZERO };
        let started = tokio::time::timeout(wait, async {
            loop {
                match events.recv().await {
                    Ok(e)
                        if e.method == "Input.dragIntercepted"
                            && e.session_id.as_deref() == Some(session) =>
                    {
                        return e.params.get("data").cloned();
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
                    _ => {}
                }
            }
        })
        .await
        .ok()
        .flatten();
        match started {
            Some(data) => {
                for kind in ["dragEnter", "dragOver", "drop"] {
                    let p = json!({"type": kind, "x": x1, "y": y1, "data": data});
                    page.call("Input.dispatchDragEvent", p).await?;
                }
            }
            None => steps(page, (x0, y0), (x1, y1)).await?,
        }
        send(mouse("mouseReleased", x1, y1, MouseButton::Left, 1)).await.map(|_| ())
    }
    .await;
    let _ = intercept(false).await;
    result
}

/// A mouse move with the left button held.
fn moved(x: f64, y: f64) -> Value {
    let mut p = mouse("mouseMoved", x, y, MouseButton::Left, 0);
    p["button"] = json!("left");
    p["buttons"] = json!(1);
    p
}

/// The pointer's moves from `from` to `to`, button held, in [`DRAG_STEPS`] steps.
async fn steps(page: &PageHandle, from: (f64, f64), to: (f64, f64)) -> Result<(), CdpError> {
    for i in 1..=DRAG_STEPS {
        let f = f64::from(i) / f64::from(DRAG_STEPS);
        page.call(
            "Input.dispatchMouseEvent",
            moved(from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f),
        )
        .await?;
    }
    Ok(())
}

/// Whether the page may start an HTML5 drag from `el` ([`MAY_DRAG_JS`]); when it cannot be
/// told, it may.
async fn may_drag(page: &PageHandle, el: &Element) -> bool {
    let asked = page
        .raw()
        .call(
            Some(&el.session),
            "Runtime.callFunctionOn",
            json!({"objectId": el.object, "functionDeclaration": MAY_DRAG_JS, "returnByValue": true}),
        )
        .await;
    asked.ok().and_then(|v| v.pointer("/result/value").and_then(Value::as_bool)).unwrap_or(true)
}
