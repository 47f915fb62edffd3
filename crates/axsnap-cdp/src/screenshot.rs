//! Screenshots of a tab's viewport or of one element, as PNG bytes, for agents that also look.

use axsnap_core::backend::Refusal;
use axsnap_core::NativeId;
use serde_json::{json, Value};

use crate::conn::str_field;
use crate::error::CdpError;
use crate::locate::{self, call_on};
use crate::page::PageHandle;

/// Largest element screenshot side, in CSS pixels: a huge element is clipped to this.
const MAX_SIDE: f64 = 4096.0;

/// A PNG of the viewport (`element` = `None`) or of one element, scrolled into view first.
///
/// Elements inside out-of-process iframes are shot through their frame's box in the page: the
/// clip is taken in the top page's coordinates.
pub async fn screenshot(page: &PageHandle, element: Option<&NativeId>) -> Result<Vec<u8>, CdpError> {
    let mut params = json!({"format": "png"});
    if let Some(native) = element {
        let el = locate::locate(page, native).await?;
        if !el.hops.is_empty() {
            return Err(CdpError::NotActionable {
                kind: Refusal::NotActionable,
                action: "screenshot".into(),
                target: el.desc.clone(),
                reason: "it lives in an out-of-process frame; take a screenshot of the viewport instead"
                    .into(),
            });
        }
        let rect = call_on(
            page,
            &el,
            "function() { this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
               const r = this.getBoundingClientRect();
               return {x: r.x + window.scrollX, y: r.y + window.scrollY, w: r.width, h: r.height}; }",
            &[],
        )
        .await?;
        let num = |k: &str| rect.get(k).and_then(Value::as_f64).unwrap_or(0.0);
        let (w, h) = (num("w").min(MAX_SIDE), num("h").min(MAX_SIDE));
        if w < 1.0 || h < 1.0 {
            return Err(CdpError::NotActionable {
                kind: Refusal::Hidden,
                action: "screenshot".into(),
                target: el.desc.clone(),
                reason: "it has no box on the page (hidden or empty)".into(),
            });
        }
        params["clip"] = json!({"x": num("x"), "y": num("y"), "width": w, "height": h, "scale": 1});
        params["captureBeyondViewport"] = json!(true);
    }
    let shot = page.call("Page.captureScreenshot", params).await?;
    let data = str_field(&shot, "data").ok_or_else(|| CdpError::BadResponse {
        method: "Page.captureScreenshot".into(),
        reason: "no image data".into(),
    })?;
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| CdpError::BadResponse {
        method: "Page.captureScreenshot".into(),
        reason: format!("image data is not base64: {e}"),
    })
}
