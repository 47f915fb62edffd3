//! Helpers for the action tests: native ids of elements picked by script, and reading back.
#![allow(dead_code)]

use axsnap_cdp::PageHandle;
use axsnap_core::NativeId;
use serde_json::{json, Value};

/// The native id (as capture forms it) of the element `expr` evaluates to in the main frame.
pub async fn native(page: &PageHandle, expr: &str) -> NativeId {
    let (frame, loader) = page.main_frame().await.unwrap();
    native_in(page, page.session_id(), expr, &format!("{frame}:{loader}")).await
}

/// The native id of the element `expr` evaluates to on `session`, in the document `scope`.
pub async fn native_in(page: &PageHandle, session: &str, expr: &str, scope: &str) -> NativeId {
    let raw = page.raw();
    let r = raw.call(Some(session), "Runtime.evaluate", json!({"expression": expr})).await.unwrap();
    let obj = r.pointer("/result/objectId").and_then(Value::as_str).unwrap_or_else(|| panic!("{expr}: {r}"));
    let d = raw.call(Some(session), "DOM.describeNode", json!({"objectId": obj})).await.unwrap();
    let id = d.pointer("/node/backendNodeId").and_then(Value::as_i64).unwrap();
    NativeId::new(scope, id.to_string())
}

/// Evaluates `expr` in the main frame.
pub async fn eval(page: &PageHandle, expr: &str) -> Value {
    page.eval(expr).await.unwrap()
}
