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
    data_of(&shot, "Page.captureScreenshot")
}

/// The bytes of an answer's base64 `data` (a screenshot, a PDF).
fn data_of(answer: &Value, method: &str) -> Result<Vec<u8>, CdpError> {
    let bad = |reason: String| CdpError::BadResponse { method: method.into(), reason };
    let data = str_field(answer, "data").ok_or_else(|| bad("no data".into()))?;
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| bad(format!("data is not base64: {e}")))
}

/// An element's box to label on an annotated screenshot: its ref and its box in the page's
/// document coordinates (CSS pixels), as the capture read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// The label (`e12`).
    pub label: String,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// The colour of the boxes and label backgrounds: one a page rarely uses.
pub const MARK_COLOR: (u8, u8, u8) = (255, 0, 170);

/// Draws `marks` over the page (an overlay of its own, which takes no input), takes a PNG of
/// the viewport and removes the overlay. Returns the image and the marks drawn, in viewport
/// coordinates (those at least partly in view).
pub async fn annotated(page: &PageHandle, marks: &[Mark]) -> Result<(Vec<u8>, Vec<Mark>), CdpError> {
    let list: Vec<Value> =
        marks.iter().map(|m| json!({"label": m.label, "x": m.x, "y": m.y, "w": m.w, "h": m.h})).collect();
    let (r, g, b) = MARK_COLOR;
    let draw = format!(
        r#"((marks) => {{
  const old = document.getElementById('__axsnap_marks');
  if (old) old.remove();
  const root = document.createElement('div');
  root.id = '__axsnap_marks';
  root.setAttribute('aria-hidden', 'true');
  root.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none';
  const sx = window.scrollX, sy = window.scrollY, vw = window.innerWidth, vh = window.innerHeight;
  const drawn = [];
  for (const m of marks) {{
    if (m.w < 1 || m.h < 1 || m.x + m.w <= sx || m.y + m.h <= sy || m.x >= sx + vw || m.y >= sy + vh) continue;
    const box = document.createElement('div');
    box.style.cssText = `position:absolute;left:${{m.x}}px;top:${{m.y}}px;width:${{m.w}}px;height:${{m.h}}px;` +
      'box-sizing:border-box;border:2px solid rgb({r},{g},{b});pointer-events:none';
    const tag = document.createElement('div');
    tag.textContent = m.label;
    tag.style.cssText = 'position:absolute;left:-2px;top:-2px;transform:translateY(-100%);' +
      'background:rgb({r},{g},{b});color:#fff;font:bold 11px/13px monospace;padding:0 2px;white-space:nowrap';
    box.appendChild(tag);
    root.appendChild(box);
    drawn.push({{label: m.label, x: m.x - sx, y: m.y - sy, w: m.w, h: m.h}});
  }}
  document.documentElement.appendChild(root);
  return drawn;
}})({})"#,
        Value::Array(list)
    );
    let drawn = page.eval(&draw).await?;
    let shot = screenshot(page, None).await;
    let _ = page.eval("document.getElementById('__axsnap_marks')?.remove()").await;
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64).unwrap_or(0.0);
    let drawn = drawn
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| Mark {
                    label: str_field(m, "label").unwrap_or_default().to_string(),
                    x: num(m, "x"),
                    y: num(m, "y"),
                    w: num(m, "w"),
                    h: num(m, "h"),
                })
                .collect()
        })
        .unwrap_or_default();
    Ok((shot?, drawn))
}

/// The page printed to PDF (`Page.printToPDF`, backgrounds included), as bytes.
pub async fn pdf(page: &PageHandle) -> Result<Vec<u8>, CdpError> {
    let printed = page
        .call_within("Page.printToPDF", json!({"printBackground": true}), std::time::Duration::from_secs(60))
        .await?;
    data_of(&printed, "Page.printToPDF")
}
