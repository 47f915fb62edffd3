//! A handle on one tab: its target id and this backend's own CDP session to it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use crate::browser::Browser;
use crate::change::Baseline;
use crate::conn::{str_field, RawCdp};
use crate::error::CdpError;
use crate::frames::FrameWatch;

/// How long [`PageHandle::goto`] waits for the load event before returning anyway.
pub const LOAD_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a navigation's questions to the page (ready state, content type) may take: a
/// page that does not answer this quickly after its load wait is busy.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// One tab. Every call goes through the raw connection on this backend's own session, so it
/// works the same for a launched and a connected browser.
#[derive(Clone, Debug)]
pub struct PageHandle {
    raw: RawCdp,
    target_id: String,
    session_id: String,
    watch: Arc<FrameWatch>,
    baseline: Arc<Mutex<Option<Baseline>>>,
}

/// What a navigation did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Navigation {
    /// The main frame.
    pub frame_id: String,
    /// The new document's loader id (`None` for a same-document navigation).
    pub loader_id: Option<String>,
    /// Whether the load event fired within the timeout.
    pub loaded: bool,
}

impl PageHandle {
    /// Attaches a new session of `browser`'s raw connection to the tab `target_id` and enables
    /// the domains capture needs.
    pub(crate) async fn attach(browser: &Browser, target_id: &str) -> Result<PageHandle, CdpError> {
        let raw = browser.raw().clone();
        let attached = raw
            .call(None, "Target.attachToTarget", json!({"targetId": target_id, "flatten": true}))
            .await
            .map_err(|e| match e {
                CdpError::Protocol { .. } => CdpError::NoSuchTarget(target_id.to_string()),
                e => e,
            })?;
        let session_id = str_field(&attached, "sessionId")
            .ok_or_else(|| CdpError::BadResponse {
                method: "Target.attachToTarget".into(),
                reason: "no sessionId".into(),
            })?
            .to_string();
        let watch = FrameWatch::start(&raw, &session_id).await?;
        let page = PageHandle {
            raw,
            target_id: target_id.to_string(),
            session_id,
            watch: Arc::new(watch),
            baseline: Arc::new(Mutex::new(None)),
        };
        page.call("Page.setLifecycleEventsEnabled", json!({"enabled": true})).await?;
        if let Some((width, height)) = browser.viewport() {
            page.set_viewport(width, height).await;
        }
        Ok(page)
    }

    /// Gives the tab a viewport of `width` x `height` CSS pixels (and a screen of that size),
    /// for as long as this session is attached. A window's own size is no viewport: headless
    /// Chromium 156 draws a window of 1280x720 with a viewport of 1280x577, and a popup opened
    /// with window features gets its own size. A tab that does not take it keeps its size.
    pub async fn set_viewport(&self, width: u32, height: u32) {
        let params = json!({
            "width": width, "height": height, "deviceScaleFactor": 0, "mobile": false,
            "screenWidth": width, "screenHeight": height,
        });
        let r = self.call_within("Emulation.setDeviceMetricsOverride", params, Duration::from_secs(5)).await;
        if let Err(e) = r {
            tracing::debug!("setting the viewport of {} failed: {e}", self.target_id);
        }
    }

    /// The tab's CDP target id.
    pub fn target_id(&self) -> &str {
        &self.target_id
    }

    /// This backend's CDP session id on the tab.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// The raw connection.
    pub fn raw(&self) -> &RawCdp {
        &self.raw
    }

    /// The watcher of the tab's frames, sessions and contexts.
    pub fn watch(&self) -> &FrameWatch {
        &self.watch
    }

    /// The change-signal baseline of the last capture.
    pub(crate) fn baseline(&self) -> &Mutex<Option<Baseline>> {
        &self.baseline
    }

    /// Sends a raw CDP command on the tab's session.
    pub async fn call(&self, method: &str, params: Value) -> Result<Value, CdpError> {
        self.raw.call(Some(&self.session_id), method, params).await
    }

    /// Sends a raw CDP command on the tab's session with an explicit timeout.
    pub async fn call_within(
        &self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, CdpError> {
        self.raw.call_within(Some(&self.session_id), method, params, timeout).await
    }

    /// Evaluates a JavaScript expression in the main frame's page world and returns its value
    /// as JSON.
    pub async fn eval(&self, expression: &str) -> Result<Value, CdpError> {
        self.eval_within(expression, crate::conn::CALL_TIMEOUT).await
    }

    /// [`PageHandle::eval`], giving up with [`CdpError::Timeout`] after `timeout` (a busy page
    /// does not answer).
    pub async fn eval_within(&self, expression: &str, timeout: Duration) -> Result<Value, CdpError> {
        let r = self
            .call_within(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
                timeout,
            )
            .await?;
        if let Some(ex) = r.get("exceptionDetails") {
            let text = ex
                .pointer("/exception/description")
                .and_then(Value::as_str)
                .or_else(|| str_field(ex, "text"))
                .unwrap_or("exception");
            return Err(CdpError::Protocol { method: "Runtime.evaluate".into(), message: text.to_string() });
        }
        Ok(r.pointer("/result/value").cloned().unwrap_or(Value::Null))
    }

    /// The main frame's id and current loader id.
    pub async fn main_frame(&self) -> Result<(String, String), CdpError> {
        let tree = self.call("Page.getFrameTree", json!({})).await?;
        let frame = tree.pointer("/frameTree/frame").ok_or_else(|| CdpError::BadResponse {
            method: "Page.getFrameTree".into(),
            reason: "no main frame".into(),
        })?;
        Ok((
            str_field(frame, "id").unwrap_or_default().to_string(),
            str_field(frame, "loaderId").unwrap_or_default().to_string(),
        ))
    }

    /// Navigates to `url` and waits for its load event (at most [`LOAD_TIMEOUT`]).
    ///
    /// Errors: [`CdpError::Unreachable`] when the browser cannot load it,
    /// [`CdpError::Download`] when it is a download, [`CdpError::NotHtml`] when it loaded but
    /// is not a web page (an image, plain text, JSON).
    pub async fn goto(&self, url: &str) -> Result<Navigation, CdpError> {
        self.goto_within(url, LOAD_TIMEOUT).await
    }

    /// [`PageHandle::goto`] with an explicit load timeout.
    pub async fn goto_within(&self, url: &str, load_timeout: Duration) -> Result<Navigation, CdpError> {
        let mut events = self.raw.subscribe();
        let r = self.call("Page.navigate", json!({"url": url})).await?;
        let frame_id = str_field(&r, "frameId").unwrap_or_default().to_string();
        let loader_id = str_field(&r, "loaderId").map(str::to_string);
        if let Some(err) = str_field(&r, "errorText").filter(|s| !s.is_empty()) {
            // A download aborts the navigation: Chromium reports ERR_ABORTED with no document.
            if err.contains("ERR_ABORTED") {
                return Err(CdpError::Download { url: url.to_string() });
            }
            return Err(CdpError::Unreachable { url: url.to_string(), reason: err.to_string() });
        }
        let Some(loader) = loader_id.clone() else {
            return Ok(Navigation { frame_id, loader_id: None, loaded: true });
        };
        axsnap_core::progress::report(|| {
            format!(
                "loading {}: the document arrived, waiting for its load event",
                axsnap_core::caps::cap(url, 200)
            )
        });
        let deadline = Instant::now() + load_timeout;
        let mut loaded = false;
        while !loaded {
            let left = deadline.saturating_duration_since(Instant::now());
            match tokio::time::timeout(left, events.recv()).await {
                Err(_) => break,
                Ok(Err(RecvError::Closed)) => return Err(CdpError::Disconnected),
                Ok(Err(RecvError::Lagged(_))) => {}
                Ok(Ok(ev)) => {
                    if ev.session_id.as_deref() != Some(self.session_id.as_str()) {
                        continue;
                    }
                    match ev.method.as_str() {
                        "Page.lifecycleEvent" => {
                            loaded = str_field(&ev.params, "name") == Some("load")
                                && str_field(&ev.params, "loaderId") == Some(loader.as_str());
                        }
                        "Inspector.targetCrashed" => return Err(CdpError::Crashed),
                        // The page is blocked until the dialog is answered: no load event,
                        // no script answers. Report the navigation as it stands.
                        "Page.javascriptDialogOpening" => {
                            return Ok(Navigation { frame_id, loader_id: Some(loader), loaded: false });
                        }
                        _ => {}
                    }
                }
            }
        }
        // The lifecycle event may have fired before we listened (fast pages); ask the page. A
        // page whose scripts do not answer now is busy (or blocked in a synchronous request):
        // it is captured as it is, within the caller's deadline, and the settle says why.
        if !loaded {
            match self.eval_within("document.readyState", PROBE_TIMEOUT).await {
                Ok(v) => loaded = v.as_str() == Some("complete"),
                Err(CdpError::Timeout { .. }) => {
                    return Ok(Navigation { frame_id, loader_id: Some(loader), loaded: false });
                }
                Err(_) => {}
            }
        }
        let content_type = match self.eval_within("document.contentType", PROBE_TIMEOUT).await {
            Ok(v) => v,
            // Busy since the load event: a document with scripts, so a web page.
            Err(CdpError::Timeout { .. }) => {
                return Ok(Navigation { frame_id, loader_id: Some(loader), loaded });
            }
            // The document went away under the question: the page navigated again (a page
            // that reloads or redirects itself), which only a web page does. The settle says so.
            Err(CdpError::Protocol { message, .. }) if message.contains("navigated") => {
                return Ok(Navigation { frame_id, loader_id: Some(loader), loaded: false });
            }
            Err(e) => return Err(e),
        };
        let content_type = content_type.as_str().unwrap_or_default();
        if !is_html(content_type) {
            return Err(CdpError::NotHtml { url: url.to_string(), content_type: content_type.to_string() });
        }
        Ok(Navigation { frame_id, loader_id: Some(loader), loaded })
    }

    /// The page's URL and title.
    pub async fn url_and_title(&self) -> Result<(String, String), CdpError> {
        let v = self.call("Target.getTargetInfo", json!({"targetId": self.target_id})).await?;
        let info = v.get("targetInfo").cloned().unwrap_or(Value::Null);
        Ok((
            str_field(&info, "url").unwrap_or_default().to_string(),
            str_field(&info, "title").unwrap_or_default().to_string(),
        ))
    }

    /// Closes the tab.
    pub async fn close(&self) -> Result<(), CdpError> {
        self.raw.call(None, "Target.closeTarget", json!({"targetId": self.target_id})).await?;
        Ok(())
    }
}

fn is_html(content_type: &str) -> bool {
    matches!(content_type, "text/html" | "application/xhtml+xml" | "image/svg+xml")
}
