//! [`UiaPlatform`]: the desktop layer's [`Platform`] on UI Automation, over any
//! [`Automation`] — COM on Windows, a scripted recording here.
//!
//! What it decides, the same whichever automation is under it:
//! - apps are processes: their top-level windows grouped by process id, named after the
//!   executable (`notepad`), keyed by the process id for [`Platform::quiet_for`];
//! - a capture is one read of the window, built into the core's tree by [`crate::build()`];
//!   the read is kept to turn a ref's native id back into the element acted on;
//! - an action is [`crate::plan::plan`]'s calls, then a probe of what the plan says must show;
//! - a window is changed when its process was heard from since its last capture began, or
//!   when that process never sent an event at all: an app that does not raise UIA events
//!   (Electron at first contact) is polled, read again on every capture.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use axsnap_core::backend::{Capture, ElementAction, Refusal};
use axsnap_core::{NativeId, TargetId};
use axsnap_desktop::{
    AppInfo, DesktopError, Frame, Pass, Platform, SizeLimits, WindowControl, WindowInfo, WindowOp,
};

use crate::automation::{Automation, CallError, Heard, TopWindow};
use crate::build::build;
use crate::element::{Element, Elements};
use crate::plan::{describe, plan, Check};
use crate::worker::Worker;

/// How long a call that reads or lists may take before the app counts as hung.
const CALL_LIMIT: Duration = Duration::from_secs(10);

/// A top-level window: its handle and its process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UiaWindow {
    /// `HWND` as an integer.
    pub hwnd: i64,
    /// The process that owns it.
    pub process_id: u32,
}

/// A window's last read, to find the element a ref names.
#[derive(Debug)]
struct LastRead {
    elements: Elements,
    by_runtime: HashMap<Vec<i64>, usize>,
}

/// The Windows desktop on UI Automation (or any [`Automation`]).
#[derive(Debug)]
pub struct UiaPlatform {
    worker: Worker,
    hears: bool,
    /// Per process, when it was last heard from.
    heard: HashMap<u32, Instant>,
    /// Per target, its window and when its last capture began.
    captured: HashMap<TargetId, (i64, Instant)>,
    /// Per window, its last read.
    reads: HashMap<i64, LastRead>,
}

impl UiaPlatform {
    /// The platform over the automation `make` builds, on a thread of its own.
    pub async fn start<A, F>(make: F) -> Result<UiaPlatform, DesktopError>
    where
        A: Automation + 'static,
        F: FnOnce() -> Result<A, CallError> + Send + 'static,
    {
        let worker = Worker::start(make)?;
        let hears = worker.run("UI Automation's start", CALL_LIMIT, |a| a.hears_events()).await?;
        Ok(UiaPlatform {
            worker,
            hears,
            heard: HashMap::new(),
            captured: HashMap::new(),
            reads: HashMap::new(),
        })
    }

    /// The window `target` was last captured from, as UI Automation read it, written in
    /// Accessibility Insights' element JSON ([`crate::write_json`]): what `axsnap desktop
    /// snapshot --record` saves on Windows, which `--recording` replays on any system.
    /// `None` before the target's first capture.
    pub fn recorded(&self, target: &TargetId) -> Option<Vec<u8>> {
        let (hwnd, _) = self.captured.get(target)?;
        self.reads.get(hwnd).map(|read| crate::write_json(&read.elements))
    }

    /// Takes in the events heard since the last time.
    async fn listen(&mut self) -> Result<(), DesktopError> {
        if !self.hears {
            return Ok(());
        }
        let heard: Vec<Heard> =
            self.worker.run("reading UI Automation's events", CALL_LIMIT, |a| a.heard()).await?;
        for h in heard {
            let last = self.heard.entry(h.process_id).or_insert(h.at);
            *last = (*last).max(h.at);
        }
        Ok(())
    }

    async fn top_windows(&self) -> Result<Vec<TopWindow>, DesktopError> {
        self.worker
            .run("listing the windows", CALL_LIMIT, |a| a.windows())
            .await?
            .map_err(|e| call_error(e, "the desktop"))
    }

    /// The element `element` names in `window`'s last read.
    fn element_of(&self, window: &UiaWindow, element: &NativeId) -> Result<(&Elements, usize), DesktopError> {
        let stale = || {
            DesktopError::Gone(format!(
                "{} is not in the window as last read; take a new snapshot",
                element.id
            ))
        };
        let read = self.reads.get(&window.hwnd).ok_or_else(stale)?;
        let at = match element.id.strip_prefix("at:") {
            Some(n) => n.parse::<usize>().ok().filter(|&i| i < read.elements.len()),
            None => runtime_id(&element.id).and_then(|r| read.by_runtime.get(&r).copied()),
        };
        Ok((&read.elements, at.ok_or_else(stale)?))
    }
}

/// A runtime id back from a native id's text (`2a.1009e`).
fn runtime_id(text: &str) -> Option<Vec<i64>> {
    text.split('.').map(|part| i64::from_str_radix(part, 16).ok()).collect()
}

/// A call's error in the desktop's words; `what` is the element or window it was on.
fn call_error(e: CallError, what: &str) -> DesktopError {
    match e {
        CallError::Gone => DesktopError::Gone(what.to_string()),
        CallError::Unsupported(pattern) => DesktopError::refused(
            Refusal::NotActionable,
            format!("{what} no longer supports {pattern}; take a new snapshot"),
        ),
        CallError::Covered(by) => DesktopError::refused(
            Refusal::Covered,
            format!("{what} is covered by {by} where a click would land; close or move that first"),
        ),
        CallError::Disabled => DesktopError::refused(
            Refusal::Disabled,
            format!("{what} is disabled; enable it first or pick another element"),
        ),
        CallError::Timeout(ms) => {
            DesktopError::Timeout { what: format!("a call on {what}"), after: Duration::from_millis(ms) }
        }
        CallError::Platform(message) => DesktopError::Platform(format!("{what}: {message}")),
    }
}

/// Whether `now` shows what `check` asks.
fn holds(now: &Element, check: &Check) -> bool {
    match check {
        Check::Value(want) => now.patterns.value.as_ref().is_some_and(|v| v.value == *want),
        Check::Toggle(want) => now.patterns.toggle == Some(*want),
        Check::Selected => now.patterns.selection_item == Some(true),
    }
}

/// An app's name from its executable: `C:\...\Notepad.exe` is `Notepad` (apps are found by
/// name without regard to case).
fn app_name(process_name: &str, pid: u32) -> String {
    let file = process_name.rsplit(['\\', '/']).next().unwrap_or(process_name);
    let stem = file.strip_suffix(".exe").or_else(|| file.strip_suffix(".EXE")).unwrap_or(file);
    if stem.is_empty() {
        format!("process {pid}")
    } else {
        stem.to_string()
    }
}

impl Platform for UiaPlatform {
    type Window = UiaWindow;
    type Control = UiaControl;

    async fn apps(&mut self) -> Result<Vec<AppInfo<UiaWindow>>, DesktopError> {
        let mut apps: Vec<AppInfo<UiaWindow>> = Vec::new();
        for w in self.top_windows().await? {
            let info = WindowInfo {
                title: w.title.clone(),
                role: if w.dialog { "dialog" } else { "window" }.into(),
                active: w.active,
                showing: w.visible,
                handle: UiaWindow { hwnd: w.hwnd, process_id: w.process_id },
            };
            let key = w.process_id.to_string();
            match apps.iter_mut().find(|a| a.key == key) {
                Some(app) => app.windows.push(info),
                None => apps.push(AppInfo {
                    name: app_name(&w.process_name, w.process_id),
                    key,
                    windows: vec![info],
                    answering: true,
                }),
            }
        }
        Ok(apps)
    }

    async fn app_windows(&mut self, window: &UiaWindow) -> Result<Vec<UiaWindow>, DesktopError> {
        Ok(self
            .top_windows()
            .await?
            .into_iter()
            .filter(|w| w.process_id == window.process_id)
            .map(|w| UiaWindow { hwnd: w.hwnd, process_id: w.process_id })
            .collect())
    }

    fn app_key(&self, window: &UiaWindow) -> String {
        window.process_id.to_string()
    }

    fn hears_events(&self) -> bool {
        self.hears
    }

    async fn quiet_for(&self, app: &str) -> Option<Duration> {
        // `&self`: the events not yet taken in count at the next `changed`; what was taken in
        // is enough to tell how long the app has been quiet.
        let pid: u32 = app.parse().ok()?;
        self.heard.get(&pid).map(|at| at.elapsed())
    }

    async fn capture(
        &mut self,
        target: &TargetId,
        window: &UiaWindow,
        deadline: Duration,
        _: Pass,
    ) -> Result<Capture, DesktopError> {
        self.listen().await?;
        let began = Instant::now();
        let hwnd = window.hwnd;
        let read = self
            .worker
            .run("reading the window", deadline + CALL_LIMIT, move |a| a.read(hwnd, began + deadline))
            .await?
            .map_err(|e| call_error(e, "the window"))?;
        let built = build(&read.elements);
        let title = read.elements.root().map(|r| r.name.trim().to_string()).unwrap_or_default();
        let app = self
            .top_windows()
            .await
            .ok()
            .and_then(|ws| ws.into_iter().find(|w| w.hwnd == hwnd))
            .map(|w| app_name(&w.process_name, w.process_id))
            .unwrap_or_default();
        let by_runtime = read
            .elements
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.runtime_id.is_empty())
            .map(|(i, e)| (e.runtime_id.clone(), i))
            .collect();
        self.reads.insert(hwnd, LastRead { elements: read.elements, by_runtime });
        self.captured.insert(target.clone(), (hwnd, began));
        Ok(Capture::with_secret_texts(
            target.clone(),
            axsnap_desktop::backend::header(&app, &title),
            built.tree,
            read.partial,
            &built.secret_texts,
        ))
    }

    async fn changed(&mut self, target: &TargetId, window: &UiaWindow) -> Result<bool, DesktopError> {
        self.listen().await?;
        let Some(&(hwnd, began)) = self.captured.get(target) else { return Ok(true) };
        if !self.hears || hwnd != window.hwnd {
            return Ok(true);
        }
        Ok(match self.heard.get(&window.process_id) {
            // Never heard from: this app does not raise events (yet), so it is polled.
            None => true,
            Some(at) => *at >= began,
        })
    }

    fn retain(&mut self, keep: &dyn Fn(&TargetId) -> bool) {
        self.captured.retain(|t, _| keep(t));
        let live: HashSet<i64> = self.captured.values().map(|(hwnd, _)| *hwnd).collect();
        self.reads.retain(|hwnd, _| live.contains(hwnd));
    }

    async fn act(
        &mut self,
        window: &UiaWindow,
        element: &NativeId,
        action: &ElementAction,
    ) -> Result<(), DesktopError> {
        let (elements, at) = self.element_of(window, element)?;
        let what = describe(&elements.nodes[at]);
        let plan = plan(elements, at, action)?;
        let hwnd = window.hwnd;
        let steps = plan.steps.clone();
        self.worker
            .run("acting", CALL_LIMIT, move |a| {
                for step in &steps {
                    a.call(hwnd, &step.target, &step.call)?;
                }
                Ok(())
            })
            .await?
            .map_err(|e| call_error(e, &what))?;
        let Some((target, check)) = plan.check else { return Ok(()) };
        // An app may apply the change a moment later (a list's selection, a bound value).
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            let id = target.clone();
            let now = self
                .worker
                .run("reading the element back", CALL_LIMIT, move |a| a.probe(hwnd, &id))
                .await?
                .map_err(|e| call_error(e, &what))?;
            if holds(&now, &check) {
                return Ok(());
            }
            if Instant::now() >= until {
                let shows = match &check {
                    Check::Value(_) => {
                        format!("holds {:?}", now.patterns.value.map(|v| v.value).unwrap_or_default())
                    }
                    Check::Toggle(_) => format!("is {:?}", now.patterns.toggle),
                    Check::Selected => "is not selected".into(),
                };
                return Err(DesktopError::NoEffect(format!("{what} did not take it: read back, it {shows}")));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn press(&mut self, window: &UiaWindow, keys: &str) -> Result<(), DesktopError> {
        let chords = axsnap_core::keys::parse(keys)?;
        let hwnd = window.hwnd;
        self.worker
            .run("pressing keys", CALL_LIMIT, move |a| a.keys(hwnd, &chords))
            .await?
            .map_err(|e| call_error(e, "the window"))
    }

    async fn title(&mut self, window: &UiaWindow) -> Result<String, DesktopError> {
        self.top_windows()
            .await?
            .into_iter()
            .find(|w| w.hwnd == window.hwnd)
            .map(|w| w.title)
            .ok_or_else(|| DesktopError::Gone("the window closed".into()))
    }

    async fn control(&mut self, _: &TargetId, window: &UiaWindow) -> Result<UiaControl, DesktopError> {
        Ok(UiaControl { worker: self.worker.clone(), hwnd: window.hwnd })
    }

    fn resolve(&self, app: &str) -> Result<Vec<String>, DesktopError> {
        resolve(app)
    }
}

/// The command line that starts `app` on Windows: an app id (`Microsoft.WindowsCalculator_
/// 8wekyb3d8bbwe!App`, as `Get-StartApps` lists them) through the shell's apps folder, else
/// an executable by path or by name (`notepad`, found on `PATH` by Windows).
pub fn resolve(app: &str) -> Result<Vec<String>, DesktopError> {
    let app = app.trim();
    if app.is_empty() {
        return Err(DesktopError::LaunchFailed { app: app.into(), reason: "no app named".into() });
    }
    if app.contains('!') && !app.contains(['\\', '/', ' ']) {
        return Ok(vec!["explorer.exe".into(), format!("shell:AppsFolder\\{app}")]);
    }
    Ok(vec![app.to_string()])
}

/// A window as the window system sees it, asked through the automation's thread.
#[derive(Clone, Debug)]
pub struct UiaControl {
    worker: Worker,
    hwnd: i64,
}

impl WindowControl for UiaControl {
    fn manager(&self) -> Option<&str> {
        // Windows' own window manager (DWM) always runs and carries out every request.
        Some("Windows")
    }

    fn frame(&self) -> Result<Frame, DesktopError> {
        let hwnd = self.hwnd;
        self.worker
            .run_blocking("reading the window's frame", CALL_LIMIT, move |a| a.frame(hwnd))?
            .map_err(|e| call_error(e, "the window"))
    }

    fn request(&self, op: WindowOp) -> Result<(), DesktopError> {
        let hwnd = self.hwnd;
        self.worker
            .run_blocking("asking the window", CALL_LIMIT, move |a| a.request(hwnd, op))?
            .map_err(|e| call_error(e, "the window"))
    }

    fn size_limits(&self) -> SizeLimits {
        let hwnd = self.hwnd;
        self.worker
            .run_blocking("reading the window's size limits", CALL_LIMIT, move |a| a.size_limits(hwnd))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
