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
        // Pressed and moving: the button stays down through the moves.
        let moved = |x: f64, y: f64| {
            let mut p = mouse("mouseMoved", x, y, MouseButton::Left, 0);
            p["button"] = json!("left");
            p["buttons"] = json!(1);
            p
        };
        // A few pixels first: where an HTML5 drag starts.
        send(moved(x0 + 6.0, y0 + 6.0)).await?;
        let started = tokio::time::timeout(DRAG_START_WAIT, async {
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
            None => {
                for i in 1..=DRAG_STEPS {
                    let f = f64::from(i) / f64::from(DRAG_STEPS);
                    send(moved(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)).await?;
                }
            }
        }
        send(mouse("mouseReleased", x1, y1, MouseButton::Left, 1)).await.map(|_| ())
    }
    .await;
    let _ = intercept(false).await;
    result
}
