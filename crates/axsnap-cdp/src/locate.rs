//! From a [`NativeId`] to a live element, and from the element to the point an input event
//! must hit.
//!
//! Resolution never guesses: the frame must still show the same document (loader id), the
//! backend node id must still resolve, and the node must still be connected to that document.
//! Anything else is [`CdpError::StaleElement`]; a look-alike is never used instead.
//!
//! Points are in the tab's viewport (what `Input.dispatchMouseEvent` on the tab session takes).
//! `DOM.getContentQuads` already answers in the tab's viewport for same-process iframes; for an
//! element in an out-of-process iframe the quads are in that iframe's viewport, so the content
//! box origin of every `<iframe>` on the way up is added.

use axsnap_core::backend::Refusal;
use axsnap_core::NativeId;
use serde_json::{json, Value};

use crate::conn::{str_field, CALL_TIMEOUT};
use crate::error::CdpError;
use crate::page::PageHandle;

/// A live element.
#[derive(Clone, Debug)]
pub struct Element {
    /// `scope/id`, for messages.
    pub native: String,
    /// The session whose renderer holds the node.
    pub session: String,
    /// Its backend node id.
    pub backend: i64,
    /// A remote object for it (main world of its frame).
    pub object: String,
    /// Short description: `button#save "Save"`.
    pub desc: String,
    /// Out-of-process iframe hops, innermost first: (parent session, `<iframe>` backend id).
    pub hops: Vec<(String, i64)>,
}

/// Describes an element for error messages: tag, id, role, label or text; never the text of a
/// secret (a password or one-time-code field, text masked by CSS: see `secrets.rs`).
pub(crate) const DESCRIBE_JS: &str = r#"function describe(el) {
  const secret = (n) => {
    const e = n && (n.nodeType === 1 ? n : n.parentElement);
    if (!e) return false;
    const ac = (e.getAttribute('autocomplete') || '').toLowerCase();
    return (e.type || '').toLowerCase() === 'password' || /(^|\s)(current-password|new-password|one-time-code)(\s|$)/.test(ac) ||
      ['disc', 'circle', 'square'].includes(getComputedStyle(e).webkitTextSecurity);
  };
  const text = (n) => secret(n) ? '' : (n.innerText || n.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  if (!el || el.nodeType !== 1) {
    const t = el ? text(el) : '';
    return t ? 'text "' + t + '"' : 'a node';
  }
  let d = el.tagName.toLowerCase();
  if (el.id) d += '#' + el.id;
  const role = el.getAttribute('role');
  if (role) d += ' role=' + role;
  const label = el.getAttribute('aria-label') || el.getAttribute('title') || el.getAttribute('alt') || text(el);
  if (label) d += ' "' + label + '"';
  return d;
}"#;

/// Calls `function` on `el` (as `this`) with JSON `args`, returning its value.
pub(crate) async fn call_on(
    page: &PageHandle,
    el: &Element,
    function: &str,
    args: &[Value],
) -> Result<Value, CdpError> {
    call_on_object(
        page,
        &el.session,
        &el.object,
        function,
        args.iter().map(|a| json!({"value": a})).collect(),
    )
    .await
}

/// Calls `function` on the remote object `object` of `session` with CDP call arguments.
pub(crate) async fn call_on_object(
    page: &PageHandle,
    session: &str,
    object: &str,
    function: &str,
    args: Vec<Value>,
) -> Result<Value, CdpError> {
    let r = page
        .raw()
        .call(
            Some(session),
            "Runtime.callFunctionOn",
            json!({
                "objectId": object,
                "functionDeclaration": function,
                "arguments": args,
                "returnByValue": true,
                "awaitPromise": true,
            }),
        )
        .await?;
    if let Some(ex) = r.get("exceptionDetails") {
        let text = ex
            .pointer("/exception/description")
            .and_then(Value::as_str)
            .or_else(|| str_field(ex, "text"))
            .unwrap_or("exception");
        return Err(CdpError::Protocol {
            method: "Runtime.callFunctionOn".into(),
            message: text.to_string(),
        });
    }
    Ok(r.pointer("/result/value").cloned().unwrap_or(Value::Null))
}

fn stale(native: &NativeId, reason: &str) -> CdpError {
    CdpError::StaleElement { element: format!("{}/{}", native.scope, native.id), reason: reason.to_string() }
}

/// Finds the live element `native` names, or says why it is stale.
pub async fn locate(page: &PageHandle, native: &NativeId) -> Result<Element, CdpError> {
    let (frame, loader) = native.scope.split_once(':').ok_or_else(|| CdpError::NotActionable {
        kind: Refusal::NotActionable,
        action: "find".into(),
        target: native.scope.clone(),
        reason: "this is not a native id of the CDP backend (scope must be frameId:loaderId)".into(),
    })?;
    let backend: i64 = native.id.parse().map_err(|_| CdpError::NotActionable {
        kind: Refusal::NotActionable,
        action: "act on".into(),
        target: native.id.clone(),
        reason: "it has no DOM element (generated text or the document itself); act on an element".into(),
    })?;
    let sessions = page.watch().snapshot().sessions;
    // Which session's renderer holds the frame, and what document the frame shows now.
    let trees: Vec<_> = sessions
        .iter()
        .map(|s| page.raw().call(Some(&s.session_id), "Page.getFrameTree", json!({})))
        .collect();
    let trees = futures::future::join_all(trees).await;
    let mut found: Option<(usize, String)> = None;
    // An out-of-process iframe's own session is the one that holds its nodes.
    let mut order: Vec<usize> = (0..sessions.len()).collect();
    order.sort_by_key(|&i| sessions[i].frame_id.as_deref() != Some(frame));
    for i in order {
        let Ok(tree) = &trees[i] else { continue };
        if let Some(l) = find_frame_loader(tree.get("frameTree"), frame) {
            found = Some((i, l));
            break;
        }
    }
    let Some((si, current_loader)) = found else {
        return Err(stale(native, "its frame is gone"));
    };
    if current_loader != loader {
        return Err(stale(native, "its frame has navigated to a new document"));
    }
    let session = sessions[si].session_id.clone();
    let resolved =
        page.raw().call(Some(&session), "DOM.resolveNode", json!({"backendNodeId": backend})).await.map_err(
            |e| match e {
                CdpError::Protocol { .. } => stale(native, "the element no longer exists"),
                e => e,
            },
        )?;
    let object = resolved
        .pointer("/object/objectId")
        .and_then(Value::as_str)
        .ok_or_else(|| stale(native, "the element no longer exists"))?
        .to_string();
    let mut el = Element {
        native: format!("{}/{}", native.scope, native.id),
        session,
        backend,
        object,
        desc: String::new(),
        hops: Vec::new(),
    };
    // A removed node may live on in memory; it is stale all the same.
    let check = format!(
        "function() {{ {DESCRIBE_JS}; return {{connected: this.isConnected, desc: describe(this)}}; }}"
    );
    let v = call_on(page, &el, &check, &[]).await?;
    if v.get("connected").and_then(Value::as_bool) != Some(true) {
        return Err(stale(native, "it was removed from the page"));
    }
    el.desc = str_field(&v, "desc").unwrap_or("the element").to_string();
    // The <iframe> of each out-of-process frame on the way up to the tab.
    let mut cur = si;
    while let (Some(parent), Some(fid)) = (sessions[cur].parent.clone(), sessions[cur].frame_id.clone()) {
        let owner = page.raw().call(Some(&parent), "DOM.getFrameOwner", json!({"frameId": fid})).await?;
        let id = owner.get("backendNodeId").and_then(Value::as_i64).ok_or_else(|| CdpError::BadResponse {
            method: "DOM.getFrameOwner".into(),
            reason: "no backendNodeId".into(),
        })?;
        el.hops.push((parent.clone(), id));
        match sessions.iter().position(|s| s.session_id == parent) {
            Some(p) => cur = p,
            None => break,
        }
    }
    Ok(el)
}

/// The loader id of `frame` in a `Page.getFrameTree` answer (iterative walk).
fn find_frame_loader(tree: Option<&Value>, frame: &str) -> Option<String> {
    let mut stack: Vec<&Value> = tree.into_iter().collect();
    while let Some(node) = stack.pop() {
        if let Some(f) = node.get("frame") {
            if str_field(f, "id") == Some(frame) {
                return Some(str_field(f, "loaderId").unwrap_or_default().to_string());
            }
        }
        if let Some(children) = node.get("childFrames").and_then(Value::as_array) {
            stack.extend(children.iter());
        }
    }
    None
}

/// Scrolls `el` into view (its out-of-process iframes first) and returns the point at the
/// centre of its visible box, in the tab's viewport, after checking that nothing covers it.
pub async fn clickable_point(page: &PageHandle, el: &Element, action: &str) -> Result<(f64, f64), CdpError> {
    let raw = page.raw();
    for (session, owner) in el.hops.iter().rev() {
        let _ = raw.call(Some(session), "DOM.scrollIntoViewIfNeeded", json!({"backendNodeId": owner})).await;
    }
    // Both at once: the element's session runs DOM commands in order, so the quads are read
    // after the scroll (one round trip, which counts with a remote browser).
    let node = json!({"backendNodeId": el.backend});
    let scrolled = raw.send(Some(&el.session), "DOM.scrollIntoViewIfNeeded", node.clone(), CALL_TIMEOUT);
    let quads = raw.send(Some(&el.session), "DOM.getContentQuads", node, CALL_TIMEOUT);
    let _ = scrolled.await;
    let quads = quads.await.map_err(|e| match e {
        CdpError::Protocol { .. } => {
            not_actionable(Refusal::Hidden, action, el, "it has no box (hidden or not rendered)")
        }
        e => e,
    })?;
    let metrics = raw.call(Some(&el.session), "Page.getLayoutMetrics", json!({})).await?;
    let vw = metrics.pointer("/cssLayoutViewport/clientWidth").and_then(Value::as_f64).unwrap_or(f64::MAX);
    let vh = metrics.pointer("/cssLayoutViewport/clientHeight").and_then(Value::as_f64).unwrap_or(f64::MAX);
    let (x, y) = quads
        .get("quads")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|q| visible_centre(q, vw, vh))
        .next()
        .ok_or_else(|| {
            not_actionable(
                Refusal::Hidden,
                action,
                el,
                "it has no visible area in the viewport (hidden, zero size or clipped)",
            )
        })?;
    hit_test(page, &el.session, x, y, Some(el), &metrics, &el.desc).await?;
    // Up through the out-of-process iframes: each must be what is hit at the point there.
    let (mut gx, mut gy) = (x, y);
    for (session, owner) in &el.hops {
        let bm = raw.call(Some(session), "DOM.getBoxModel", json!({"backendNodeId": owner})).await?;
        let content = bm.pointer("/model/content").and_then(Value::as_array).cloned().unwrap_or_default();
        let ox = content.first().and_then(Value::as_f64).unwrap_or(0.0);
        let oy = content.get(1).and_then(Value::as_f64).unwrap_or(0.0);
        gx += ox;
        gy += oy;
        let hit = node_at(page, session, gx, gy, None).await?;
        if hit != Some(*owner) {
            let cover = describe_backend(page, session, hit).await;
            return Err(CdpError::Covered { target: el.desc.clone(), cover });
        }
    }
    Ok((gx, gy))
}

/// The centre of the part of a quad inside the viewport.
fn visible_centre(q: &Value, vw: f64, vh: f64) -> Option<(f64, f64)> {
    let pts: Vec<f64> = q.as_array()?.iter().filter_map(Value::as_f64).collect();
    if pts.len() != 8 {
        return None;
    }
    let xs = [pts[0], pts[2], pts[4], pts[6]];
    let ys = [pts[1], pts[3], pts[5], pts[7]];
    let min = |a: [f64; 4]| a.iter().copied().fold(f64::MAX, f64::min);
    let max = |a: [f64; 4]| a.iter().copied().fold(f64::MIN, f64::max);
    let (x0, x1) = (min(xs).max(0.0), max(xs).min(vw));
    let (y0, y1) = (min(ys).max(0.0), max(ys).min(vh));
    if x1 - x0 < 1.0 || y1 - y0 < 1.0 {
        return None;
    }
    Some(((x0 + x1) / 2.0, (y0 + y1) / 2.0))
}

/// The node at `(x, y)` of `session`'s viewport. `DOM.getNodeForLocation` takes document
/// coordinates, so the frame's scroll offset is added: from `metrics` (`Page.getLayoutMetrics`
/// read since the last scroll) when given, else read now.
async fn node_at(
    page: &PageHandle,
    session: &str,
    x: f64,
    y: f64,
    metrics: Option<&Value>,
) -> Result<Option<i64>, CdpError> {
    let read;
    let m = match metrics {
        Some(m) => m,
        None => {
            read = page.raw().call(Some(session), "Page.getLayoutMetrics", json!({})).await?;
            &read
        }
    };
    let x = x + m.pointer("/cssLayoutViewport/pageX").and_then(Value::as_f64).unwrap_or(0.0);
    let y = y + m.pointer("/cssLayoutViewport/pageY").and_then(Value::as_f64).unwrap_or(0.0);
    let r = page
        .raw()
        .call(
            Some(session),
            "DOM.getNodeForLocation",
            json!({"x": x.round() as i64, "y": y.round() as i64, "includeUserAgentShadowDOM": false}),
        )
        .await;
    match r {
        Ok(v) => Ok(v.get("backendNodeId").and_then(Value::as_i64)),
        // "No node found at given location".
        Err(CdpError::Protocol { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

async fn describe_backend(page: &PageHandle, session: &str, backend: Option<i64>) -> String {
    let Some(b) = backend else { return "nothing (the point is outside the page)".into() };
    let Ok(r) = page.raw().call(Some(session), "DOM.resolveNode", json!({"backendNodeId": b})).await else {
        return format!("node {b}");
    };
    let Some(obj) = r.pointer("/object/objectId").and_then(Value::as_str) else { return format!("node {b}") };
    let f = format!("function() {{ {DESCRIBE_JS}; return describe(this); }}");
    call_on_object(page, session, obj, &f, Vec::new())
        .await
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("node {b}"))
}

/// Checks that the point `(x, y)` of `session`'s viewport hits `el` (itself, something inside
/// it, one of its labels, or an ancestor it lets pointer events through to).
async fn hit_test(
    page: &PageHandle,
    session: &str,
    x: f64,
    y: f64,
    el: Option<&Element>,
    metrics: &Value,
    target: &str,
) -> Result<(), CdpError> {
    let Some(el) = el else { return Ok(()) };
    let hit = node_at(page, session, x, y, Some(metrics)).await?;
    let Some(hit) = hit else {
        return Err(CdpError::Covered {
            target: target.to_string(),
            cover: "nothing (the point is outside the page)".into(),
        });
    };
    if hit == el.backend {
        return Ok(());
    }
    let r = page.raw().call(Some(session), "DOM.resolveNode", json!({"backendNodeId": hit})).await?;
    let Some(obj) = r.pointer("/object/objectId").and_then(Value::as_str) else {
        return Err(CdpError::Covered { target: target.to_string(), cover: format!("node {hit}") });
    };
    // Composed ancestry: shadow content counts as inside its host. A hit on a `::before` or
    // `::after` box is a CSSPseudoElement, which is not a node: it stands for its element
    // (TodoMVC draws its checkboxes' ticks as `::after`).
    let f = format!(
        "function(h) {{ {DESCRIBE_JS};
          if (h && h.nodeType === undefined && h.element) h = h.element;
          const within = (n, of) => {{ for (; n; n = n.parentNode || n.host) if (n === of) return true; return false; }};
          if (within(h, this)) return {{ok: true}};
          if (this.labels && [...this.labels].some((l) => within(h, l))) return {{ok: true}};
          if (h.nodeType === 1 && (h.tagName === 'IFRAME' || h.tagName === 'FRAME') && h.contentDocument &&
              h.contentDocument === this.ownerDocument) return {{ok: true}};
          if (within(this, h)) return {{ok: true}};
          return {{ok: false, cover: describe(h)}};
        }}"
    );
    let v = call_on_object(page, session, &el.object, &f, vec![json!({"objectId": obj})]).await?;
    if v.get("ok").and_then(Value::as_bool) == Some(true) {
        return Ok(());
    }
    Err(CdpError::Covered {
        target: target.to_string(),
        cover: str_field(&v, "cover").unwrap_or("another element").to_string(),
    })
}

/// A [`CdpError::NotActionable`] for `el`.
pub(crate) fn not_actionable(kind: Refusal, action: &str, el: &Element, reason: &str) -> CdpError {
    CdpError::NotActionable {
        kind,
        action: action.to_string(),
        target: el.desc.clone(),
        reason: reason.to_string(),
    }
}
