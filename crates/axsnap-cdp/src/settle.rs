//! Settle: after an action, wait until the page is quiet, capped, and say what happened.
//!
//! Quiet means, for [`SettleOptions::quiet`] (default [`DEFAULT_QUIET`], 100 ms) in a row:
//! - no DOM mutation and no page event the change signal counts: the generation counter of
//!   `js/change.js` (isolated world `axsnap`, every frame of the tab) did not move, and every
//!   frame's counter could be read;
//! - no network request in flight on any of the tab's sessions (`Network.requestWillBeSent`
//!   without its `loadingFinished` / `loadingFailed`), and no frame loading
//!   (`Page.frameStartedLoading` without `frameStoppedLoading`). Requests that cannot block the
//!   page are not waited on: event streams (open for as long as the page is), beacons (sent
//!   after the page stops caring), `blob:` and `data:` URLs (read from memory; a worker's
//!   `blob:` script never reports its end to the page). Requests already open before the
//!   action (a long poll) are not seen at all.
//!
//! The wait stops at [`SettleOptions::cap`] (default [`DEFAULT_CAP`], 3 s) with
//! `settled = false`: a page with a running timer, a long poll or an endless animation never
//! settles. After a navigation, a page that still shows nothing at the cap (no rendered text,
//! control, link or canvas: JupyterLab's shell while its scripts build the interface) is waited for
//! up to [`SettleOptions::blank`], until it shows something: an empty answer is of no use. It stops at once when a JavaScript dialog opens (the page is then blocked until the
//! dialog is answered; `settled = true`, `dialog` says what is open).
//!
//! `navigated` is true when the main frame committed a new document or changed its URL within
//! the document (`history.pushState`, a fragment link). `opened` lists the new tabs (popups)
//! whose opener is this tab. `failed_navigation` names the network error of a main-frame
//! document request that failed (`net::ERR_CONNECTION_REFUSED`): the browser then shows its own
//! error page, whose `chrome-error:` URL says nothing of why.

use std::collections::{BTreeSet, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axsnap_core::backend::{FailedNavigation, Outcome};
use axsnap_core::progress;
use axsnap_core::TargetId;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;

use crate::conn::{str_field, RawEvent};
use crate::dialogs::Dialog;
use crate::error::CdpError;
use crate::page::{PageHandle, LOAD_TIMEOUT};

/// Default quiet period.
pub const DEFAULT_QUIET: Duration = Duration::from_millis(100);
/// Default cap on the whole wait.
pub const DEFAULT_CAP: Duration = Duration::from_secs(3);
/// Default [`SettleOptions::blank`].
pub const DEFAULT_BLANK: Duration = Duration::from_secs(10);
/// How often the mutation counters are read.
const POLL: Duration = Duration::from_millis(20);
/// How long one counter read may take (a page in a busy loop does not answer).
const READ_TIMEOUT: Duration = Duration::from_millis(300);

/// How long to wait for quiet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettleOptions {
    /// The quiet period that counts as settled.
    pub quiet: Duration,
    /// The most to wait.
    pub cap: Duration,
    /// The most a navigation waits for its load event (default [`LOAD_TIMEOUT`]); a page
    /// that has not loaded by then is captured as it is.
    pub load: Duration,
    /// The most a navigation waits, past the cap, while its page shows nothing at all (no
    /// text, no control or link, no canvas: an app's shell still building its interface); default
    /// [`DEFAULT_BLANK`].
    pub blank: Duration,
}

impl Default for SettleOptions {
    fn default() -> Self {
        SettleOptions { quiet: DEFAULT_QUIET, cap: DEFAULT_CAP, load: LOAD_TIMEOUT, blank: DEFAULT_BLANK }
    }
}

/// Sessions whose network events are on (the setting lives as long as the session).
static NETWORK_ON: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// What the event task saw.
#[derive(Debug)]
struct Activity {
    /// Requests in flight: request id -> (frame id, loader id).
    inflight: std::collections::HashMap<String, (String, String)>,
    /// The same requests but documents: request id -> (method and URL, when it was sent), for
    /// saying which one the page waits on. (A document's own request reports its end only
    /// once its renderer is free, so a busy page would seem to wait on it.)
    requests: std::collections::HashMap<String, Request>,
    /// How many times the main frame committed a new document.
    documents: u32,
    /// Frames loading.
    loading: HashSet<String>,
    /// The last network or loading event.
    last: Instant,
    navigated: bool,
    dialog: Option<Dialog>,
    crashed: bool,
    /// Sessions of the tab known so far.
    sessions: HashSet<String>,
    /// The main frame's document requests in flight: request id -> URL, to name the one that
    /// fails.
    document_requests: std::collections::HashMap<String, String>,
    /// The last main-frame document request that failed on the network.
    failed_navigation: Option<FailedNavigation>,
}

/// A request in flight, for saying which one a page waits on.
#[derive(Debug)]
struct Request {
    /// Method and (bounded) URL.
    what: String,
    sent: Instant,
    /// Made by the page's scripts (XHR, fetch): a script may be blocked waiting on it.
    scripted: bool,
}

/// Watches a tab from just before an action until it settles. Create it with
/// [`Watcher::start`] before acting, so that nothing the action starts is missed.
#[derive(Debug)]
pub struct Watcher {
    page: PageHandle,
    state: Arc<Mutex<Activity>>,
    dialog_rx: watch::Receiver<bool>,
    task: tokio::task::JoinHandle<()>,
    /// The tabs before the action, asked for as the watch began and read when popups are
    /// looked for: the action need not wait a round trip for them.
    before: tokio::task::JoinHandle<Result<Value, CdpError>>,
    start: Instant,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.task.abort();
        self.before.abort();
    }
}

fn lock(m: &Mutex<Activity>) -> MutexGuard<'_, Activity> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Watcher {
    /// Starts watching `page`: subscribes to its events, enables network events on each of its
    /// sessions and notes the tabs that exist now (to find popups later).
    pub async fn start(page: &PageHandle) -> Result<Watcher, CdpError> {
        let events = page.raw().subscribe();
        let sessions: HashSet<String> =
            page.watch().snapshot().sessions.into_iter().map(|s| s.session_id).collect();
        // Once per session: a page blocked by a dialog would not answer it.
        let fresh: Vec<&String> = {
            let mut on = NETWORK_ON.lock().unwrap_or_else(|p| p.into_inner());
            sessions.iter().filter(|s| on.insert((*s).clone())).collect()
        };
        let enables: Vec<_> = fresh
            .iter()
            // The same settings as a recorder's (each enable replaces them: `{}` would lift
            // the request-body cap a recording tab relies on).
            .map(|s| {
                page.raw().send(
                    Some(s),
                    "Network.enable",
                    crate::record::network_enable(),
                    Duration::from_secs(5),
                )
            })
            .collect();
        // Queued now, so the browser lists the tabs before it sees the action's commands.
        let before =
            tokio::spawn(page.raw().send(None, "Target.getTargets", json!({}), Duration::from_secs(5)));
        for r in futures::future::join_all(enables).await {
            // A session that just went away (an iframe removed) is not an error here.
            if let Err(CdpError::Disconnected) = r {
                return Err(CdpError::Disconnected);
            }
        }
        let state = Arc::new(Mutex::new(Activity {
            inflight: Default::default(),
            requests: Default::default(),
            documents: 0,
            loading: HashSet::new(),
            last: Instant::now(),
            navigated: false,
            dialog: None,
            crashed: false,
            sessions,
            document_requests: Default::default(),
            failed_navigation: None,
        }));
        let (dialog_tx, dialog_rx) = watch::channel(false);
        let task = tokio::spawn(track(page.clone(), events, state.clone(), dialog_tx));
        Ok(Watcher { page: page.clone(), state, dialog_rx, task, before, start: Instant::now() })
    }

    /// Resolves when a JavaScript dialog opens (never, if none does).
    pub async fn dialog_opened(&self) {
        let mut rx = self.dialog_rx.clone();
        if rx.wait_for(|open| *open).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// Runs `action`, returning early (with `Ok(())`) if a dialog opens while it runs: input
    /// events that open a dialog may not be answered until the dialog is.
    pub async fn run<F, T>(&self, action: F) -> Result<Option<T>, CdpError>
    where
        F: std::future::Future<Output = Result<T, CdpError>>,
    {
        tokio::select! {
            r = action => r.map(Some),
            _ = self.dialog_opened() => Ok(None),
        }
    }

    /// Waits until the page settles (see the module docs) or the cap. With
    /// `expect_navigation`, the page does not count as settled before its main frame navigated.
    pub async fn settle(self, opts: &SettleOptions, expect_navigation: bool) -> Result<Outcome, CdpError> {
        self.settle_as(opts, expect_navigation, false).await
    }

    /// Settles a tab another one just opened (a popup), whose loading began before this watch:
    /// as a navigation (a page that shows nothing yet is given the blank budget), and with
    /// `pending` (it is still at `about:blank`) not before its first document commits.
    pub async fn settle_arrival(self, opts: &SettleOptions, pending: bool) -> Result<Outcome, CdpError> {
        self.settle_as(opts, pending, true).await
    }

    async fn settle_as(
        mut self,
        opts: &SettleOptions,
        expect_navigation: bool,
        arrival: bool,
    ) -> Result<Outcome, CdpError> {
        let mut last_gens: Option<Vec<(String, u64)>> = None;
        let mut last_change = Instant::now();
        let mut first = true;
        // Since when the page's scripts have not answered (a busy main thread).
        let mut silent_since: Option<Instant> = None;
        // Past the cap: when the page was last found to show nothing, and whether it was.
        let mut last_blank_check: Option<Instant> = None;
        let mut waited_for_content = false;
        // Whether the page's scripts have answered a read since the watch began.
        let mut answered = false;
        let settled = loop {
            {
                let st = lock(&self.state);
                if st.crashed {
                    return Err(CdpError::Crashed);
                }
                if st.dialog.is_some() {
                    break true;
                }
            }
            if !self.page.raw().is_open() {
                return Err(CdpError::Disconnected);
            }
            let gens = tokio::select! {
                g = read_gens(&self.page) => g,
                _ = self.dialog_opened() => continue,
            };
            let now = Instant::now();
            match &gens {
                None => {
                    // Silent from the first read on: silent since the watch began.
                    silent_since.get_or_insert(if first { self.start } else { now });
                }
                Some(_) => {
                    silent_since = None;
                    answered = true;
                }
            }
            if first || gens.is_none() || gens != last_gens {
                last_change = now;
                first = false;
            }
            last_gens = gens;
            {
                let st = lock(&self.state);
                let quiet_since = last_change.max(st.last);
                let idle = st.inflight.is_empty() && st.loading.is_empty();
                if idle
                    && (!expect_navigation || st.navigated)
                    && now.duration_since(quiet_since) >= opts.quiet
                {
                    break true;
                }
                progress::report(|| {
                    let silent = silent_since.map(|s| now.duration_since(s));
                    waiting_on(&st, silent, expect_navigation, waited_for_content.then_some(opts.cap))
                });
            }
            if now.duration_since(self.start) >= opts.cap {
                // A navigation whose page still shows nothing (an app's shell while its
                // scripts build the interface: JupyterLab) is given the load budget to show
                // something: an answer of an empty page is of no use to the agent.
                let navigation = expect_navigation || arrival || lock(&self.state).navigated;
                let blank_checked =
                    last_blank_check.is_some_and(|t: Instant| now.duration_since(t) < BLANK_EVERY);
                if !navigation || now.duration_since(self.start) >= opts.blank.max(opts.cap) {
                    break false;
                }
                if !blank_checked {
                    last_blank_check = Some(now);
                    match shows_nothing(&self.page).await {
                        Some(true) => {}
                        // Its scripts are busy this moment and cannot say (an app parsing its
                        // bundle between bursts of building: a fresh Jupyter on a busy machine).
                        // A page that has answered before is building something; one silent
                        // since the start is stuck, and is answered as it stands.
                        None if answered => {}
                        _ => break false,
                    }
                    waited_for_content = true;
                }
            }
            tokio::select! {
                _ = tokio::time::sleep(POLL) => {}
                _ = self.dialog_opened() => {}
            }
        };
        let elapsed = self.start.elapsed();
        let silent = silent_since.map(|s| s.elapsed());
        let opened = self.popups().await;
        let st = lock(&self.state);
        let unsettled = (!settled).then(|| {
            let why = why_unsettled(&st, silent);
            if waited_for_content {
                format!(
                    "{why}; it showed nothing for {:.1} s, so it was given longer",
                    opts.cap.as_secs_f64()
                )
            } else {
                why
            }
        });
        Ok(Outcome {
            settled,
            navigated: st.navigated,
            elapsed,
            dialog: st.dialog.as_ref().map(Dialog::describe),
            opened,
            // A tab the page closed is seen by the tab watch, not here.
            closed: false,
            unsettled,
            failed_navigation: st.failed_navigation.clone(),
        })
    }

    /// The dialog that opened while watching, if any.
    pub fn dialog(&self) -> Option<Dialog> {
        lock(&self.state).dialog.clone()
    }

    /// New tabs whose opener is this one (none when the tabs before the action could not be
    /// listed: no tab is then called new).
    async fn popups(&mut self) -> Vec<TargetId> {
        let now = self.page.raw().send(None, "Target.getTargets", json!({}), Duration::from_secs(5));
        let before = match (&mut self.before).await {
            Ok(Ok(v)) => page_ids(&v),
            _ => return Vec::new(),
        };
        let Ok(v) = now.await else {
            return Vec::new();
        };
        let infos = v.get("targetInfos").and_then(Value::as_array).cloned().unwrap_or_default();
        infos
            .iter()
            .filter(|t| str_field(t, "type") == Some("page"))
            .filter(|t| str_field(t, "openerId") == Some(self.page.target_id()))
            .filter_map(|t| str_field(t, "targetId"))
            .filter(|id| !before.contains(*id))
            .map(|id| TargetId(id.to_string()))
            .collect()
    }
}

/// What a settle waits on now, for the call's progress: `silent` as for [`why_unsettled`],
/// `blank`: the cap it still showed nothing at.
fn waiting_on(
    st: &Activity,
    silent: Option<Duration>,
    expect_navigation: bool,
    blank: Option<Duration>,
) -> String {
    if let Some(cap) = blank {
        return format!(
            "waiting for the page to show something (it showed nothing for {:.1} s)",
            cap.as_secs_f64()
        );
    }
    if expect_navigation && !st.navigated {
        return "waiting for the new page to arrive".to_string();
    }
    let why = if let Some(oldest) = st.requests.values().min_by_key(|r| r.sent) {
        let n = st.requests.len();
        let s = if n == 1 { "" } else { "s" };
        format!("{n} request{s} open: {}", oldest.what)
    } else if let Some(silent) = silent.filter(|s| *s >= Duration::from_millis(500)) {
        format!("its scripts have not answered for {:.1} s", silent.as_secs_f64())
    } else if !st.inflight.is_empty() || !st.loading.is_empty() {
        "a document or frame is loading".to_string()
    } else {
        "it keeps changing".to_string()
    };
    format!("waiting for the page to settle ({why})")
}

/// Why a page did not settle, from what the watcher saw: `silent` is how long the page's
/// scripts had not answered at the end (a main thread that is busy, or blocked in a
/// synchronous request).
fn why_unsettled(st: &Activity, silent: Option<Duration>) -> String {
    // A busy renderer reports no request's end, so while its scripts are silent only a
    // request they made (a synchronous XHR) explains the silence.
    let oldest = st
        .requests
        .values()
        .filter(|r| silent.is_none() || r.scripted)
        .filter(|r| r.sent.elapsed() >= Duration::from_millis(500))
        .min_by_key(|r| r.sent);
    if let Some(r) = oldest {
        let more = st.requests.len() - 1;
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        let blocked = if silent.is_some() { "; the page's scripts wait on it" } else { "" };
        return format!(
            "waiting on the network: {}{more} got no answer in {:.1} s{blocked}",
            r.what,
            r.sent.elapsed().as_secs_f64()
        );
    }
    if st.documents >= 2 {
        return format!(
            "the page kept loading new documents ({} while waiting): it reloads or redirects itself",
            st.documents
        );
    }
    if let Some(silent) = silent {
        return format!(
            "the page is busy: it did not answer for {:.1} s (a long or endless script, or a page this \
             large still being laid out)",
            silent.as_secs_f64()
        );
    }
    if !st.loading.is_empty() {
        return "a frame kept loading".to_string();
    }
    "the page kept changing (timers or animations)".to_string()
}

/// A request's URL as answers and progress name it: secret query values cut, bounded.
fn shown_url(url: &str) -> String {
    let url = crate::record::Redactor::new(Vec::new()).url(url);
    axsnap_core::caps::cap(&url, 200).into_owned()
}

/// Whether a request (the params of `Network.requestWillBeSent`) is one a page never waits on:
/// an event stream stays open for the page's life, a beacon is sent for a page that no longer
/// cares, and `blob:`/`data:` URLs are read from memory (a worker started from a `blob:` URL
/// never reports its script's end to the page).
fn cannot_block(p: &Value) -> bool {
    let url = p.pointer("/request/url").and_then(Value::as_str).unwrap_or_default();
    matches!(str_field(p, "type"), Some("EventSource" | "Ping" | "CSPViolationReport"))
        || url.starts_with("blob:")
        || url.starts_with("data:")
}

fn page_ids(v: &Value) -> HashSet<String> {
    v.get("targetInfos")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|t| str_field(t, "targetId")).map(str::to_string).collect())
        .unwrap_or_default()
}

/// Reads the generation counter of every frame of the tab, in one pipelined batch. `None` when
/// any frame (or the main frame's world) cannot be read: then the page is not known to be quiet.
/// How often, past the cap, a navigation's page is asked whether it shows anything yet.
const BLANK_EVERY: Duration = Duration::from_millis(250);

/// Whether the main document shows nothing an agent could read or use: no rendered text, no
/// control or link, no canvas, video or frame (a logo or an icon alone is a shell's), and no
/// shadow root (whose text the body's `innerText` may not hold). Asked in the capture's isolated world; a page that cannot be asked
/// counts as showing something (the cap then holds).
async fn shows_nothing(page: &PageHandle) -> Option<bool> {
    let snap = page.watch().snapshot();
    let Some(session) = snap.sessions.first() else { return Some(false) };
    let Some(&ctx) = session.contexts.get(page.target_id()) else { return Some(false) };
    let expr = "(() => { const b = document.body; if (!b) return true; \
        if (b.innerText.trim() !== '') return false; \
        const all = b.querySelectorAll('*'); for (const e of all) if (e.shadowRoot) return false; \
        const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; }; \
        return ![...b.querySelectorAll('input, button, select, textarea, a[href], canvas, video, iframe')].some(seen); })()";
    let asked = page.raw().send(
        Some(&session.session_id),
        "Runtime.evaluate",
        json!({"expression": expr, "contextId": ctx, "returnByValue": true}),
        READ_TIMEOUT,
    );
    match asked.await {
        Ok(v) => Some(v.pointer("/result/value").and_then(Value::as_bool).unwrap_or(false)),
        // No answer in time: its scripts are busy.
        Err(CdpError::Timeout { .. }) => None,
        Err(_) => Some(false),
    }
}

async fn read_gens(page: &PageHandle) -> Option<Vec<(String, u64)>> {
    let snap = page.watch().snapshot();
    let main = page.target_id();
    if !snap.sessions.first().is_some_and(|s| s.contexts.contains_key(main)) {
        return None;
    }
    let mut frames: Vec<(String, String, i64)> = snap
        .sessions
        .iter()
        .flat_map(|s| s.contexts.iter().map(move |(f, c)| (f.clone(), s.session_id.clone(), *c)))
        .collect();
    frames.sort();
    let reads: Vec<_> = frames
        .iter()
        .map(|(_, session, ctx)| {
            page.raw().send(
                Some(session),
                "Runtime.evaluate",
                json!({
                    "expression": "window.__axsnap ? window.__axsnap.gen : null",
                    "contextId": ctx,
                    "returnByValue": true
                }),
                READ_TIMEOUT,
            )
        })
        .collect();
    let results = futures::future::join_all(reads).await;
    let mut out = Vec::with_capacity(frames.len());
    for ((frame, _, _), r) in frames.into_iter().zip(results) {
        let gen = r.ok()?.pointer("/result/value").and_then(Value::as_u64)?;
        out.push((frame, gen));
    }
    Some(out)
}

async fn track(
    page: PageHandle,
    mut events: tokio::sync::broadcast::Receiver<Arc<RawEvent>>,
    state: Arc<Mutex<Activity>>,
    dialog_tx: watch::Sender<bool>,
) {
    let tab = page.session_id().to_string();
    let main = page.target_id().to_string();
    loop {
        let ev = match events.recv().await {
            Ok(ev) => ev,
            Err(RecvError::Lagged(_)) => {
                lock(&state).last = Instant::now();
                continue;
            }
            Err(RecvError::Closed) => break,
        };
        let Some(session) = ev.session_id.as_deref() else { continue };
        let known = lock(&state).sessions.contains(session);
        if !known {
            // An iframe session attached after we started.
            let now_known = page.watch().snapshot().sessions.iter().any(|s| s.session_id == session);
            if !now_known {
                continue;
            }
            lock(&state).sessions.insert(session.to_string());
        }
        let p = &ev.params;
        let mut st = lock(&state);
        match ev.method.as_str() {
            "Network.requestWillBeSent" => {
                st.last = Instant::now();
                let Some(id) = str_field(p, "requestId") else { continue };
                if cannot_block(p) {
                    continue;
                }
                let frame = str_field(p, "frameId").unwrap_or_default().to_string();
                let loader = str_field(p, "loaderId").unwrap_or_default().to_string();
                if str_field(p, "type") == Some("Document") {
                    if session == tab && frame == main {
                        let url = p.pointer("/request/url").and_then(Value::as_str).unwrap_or_default();
                        st.document_requests.insert(id.to_string(), url.to_string());
                    }
                } else {
                    let method = p.pointer("/request/method").and_then(Value::as_str).unwrap_or("GET");
                    let url = p.pointer("/request/url").and_then(Value::as_str).unwrap_or_default();
                    let what = format!("{method} {}", shown_url(url));
                    let scripted = matches!(str_field(p, "type"), Some("XHR" | "Fetch"));
                    st.requests.insert(id.to_string(), Request { what, sent: Instant::now(), scripted });
                }
                st.inflight.insert(id.to_string(), (frame, loader));
            }
            "Network.loadingFinished" | "Network.loadingFailed" => {
                if let Some(id) = str_field(p, "requestId") {
                    st.inflight.remove(id);
                    st.requests.remove(id);
                    let url = st.document_requests.remove(id);
                    if let Some(url) = url.filter(|_| ev.method == "Network.loadingFailed") {
                        // An aborted or canceled load was replaced or stopped, not failed.
                        let error = str_field(p, "errorText").unwrap_or_default();
                        let canceled = p.get("canceled").and_then(Value::as_bool).unwrap_or(false);
                        if !canceled && !error.is_empty() && error != "net::ERR_ABORTED" {
                            st.failed_navigation =
                                Some(FailedNavigation { url: shown_url(&url), error: error.to_string() });
                        }
                    }
                }
                st.last = Instant::now();
            }
            "Page.frameStartedLoading" => {
                if let Some(f) = str_field(p, "frameId") {
                    st.loading.insert(f.to_string());
                }
                st.last = Instant::now();
            }
            "Page.frameStoppedLoading" => {
                if let Some(f) = str_field(p, "frameId") {
                    st.loading.remove(f);
                }
                st.last = Instant::now();
            }
            "Page.frameDetached" => {
                if let Some(f) = str_field(p, "frameId") {
                    st.loading.remove(f);
                    st.inflight.retain(|_, (frame, _)| frame != f);
                    let Activity { inflight, requests, .. } = &mut *st;
                    requests.retain(|r, _| inflight.contains_key(r));
                }
                st.last = Instant::now();
            }
            "Page.frameNavigated" => {
                let frame = p.get("frame").cloned().unwrap_or(Value::Null);
                let id = str_field(&frame, "id").unwrap_or_default().to_string();
                let loader = str_field(&frame, "loaderId").unwrap_or_default().to_string();
                // Requests of the frame's old document will never report their end.
                st.inflight.retain(|_, (f, l)| *f != id || *l == loader);
                let Activity { inflight, requests, .. } = &mut *st;
                requests.retain(|r, _| inflight.contains_key(r));
                if session == tab && frame.get("parentId").is_none() {
                    st.navigated = true;
                    st.documents += 1;
                }
                st.last = Instant::now();
            }
            "Page.navigatedWithinDocument" => {
                if session == tab && str_field(p, "frameId") == Some(main.as_str()) {
                    st.navigated = true;
                }
                st.last = Instant::now();
            }
            "Page.javascriptDialogOpening" => {
                st.dialog = Some(Dialog::from_event(session, p));
                let _ = dialog_tx.send(true);
            }
            "Page.javascriptDialogClosed" => {
                st.dialog = None;
                let _ = dialog_tx.send(false);
                st.last = Instant::now();
            }
            "Inspector.targetCrashed" => st.crashed = true,
            "Page.backForwardCacheNotUsed" => {
                // Why going back loaded the page again instead of restoring it (with its refs).
                let reasons: Vec<&str> = p
                    .get("notRestoredExplanations")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|e| str_field(e, "reason")).collect())
                    .unwrap_or_default();
                tracing::debug!(?reasons, "back-forward cache not used");
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet_activity() -> Activity {
        Activity {
            inflight: Default::default(),
            requests: Default::default(),
            documents: 0,
            loading: HashSet::new(),
            last: Instant::now(),
            navigated: true,
            dialog: None,
            crashed: false,
            sessions: HashSet::new(),
            document_requests: Default::default(),
            failed_navigation: None,
        }
    }

    #[test]
    fn streams_beacons_and_memory_urls_cannot_block_a_page() {
        let req = |ty: &str, url: &str| json!({"type": ty, "request": {"url": url, "method": "GET"}});
        assert!(cannot_block(&req("EventSource", "http://127.0.0.1/events")));
        assert!(cannot_block(&req("Ping", "http://127.0.0.1/beacon")));
        assert!(cannot_block(&req("Other", "blob:http://127.0.0.1/4f2a")));
        assert!(cannot_block(&req("Image", "data:image/png;base64,AAAA")));
        assert!(!cannot_block(&req("Fetch", "http://127.0.0.1/api")));
        assert!(!cannot_block(&req("XHR", "http://127.0.0.1/poll")));
        assert!(!cannot_block(&req("Document", "http://127.0.0.1/next")));
    }

    #[test]
    fn a_settle_says_the_oldest_request_it_waits_on_and_how_many() {
        let mut st = quiet_activity();
        let now = Instant::now();
        for (id, what, ago) in [("1", "GET http://a/slow", 900), ("2", "POST http://a/api", 100)] {
            st.inflight.insert(id.into(), ("f".into(), "l".into()));
            let sent = now - Duration::from_millis(ago);
            st.requests.insert(id.into(), Request { what: what.into(), sent, scripted: true });
        }
        assert_eq!(
            waiting_on(&st, None, false, None),
            "waiting for the page to settle (2 requests open: GET http://a/slow)"
        );
    }

    #[test]
    fn a_settle_says_what_else_holds_it() {
        let mut st = quiet_activity();
        assert_eq!(waiting_on(&st, None, false, None), "waiting for the page to settle (it keeps changing)");
        assert!(waiting_on(&st, Some(Duration::from_secs(2)), false, None).contains("not answered for 2.0 s"));
        assert!(waiting_on(&st, None, false, Some(DEFAULT_CAP))
            .starts_with("waiting for the page to show something"));
        st.navigated = false;
        assert_eq!(waiting_on(&st, None, true, None), "waiting for the new page to arrive");
    }
}
