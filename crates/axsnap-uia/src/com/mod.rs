//! [`ComAutomation`]: the [`Automation`] primitives over UI Automation's COM API, on Windows.
//!
//! One object lives on the platform's own thread, in COM's multi-threaded apartment: it
//! reads a window with one cache request (the whole raw subtree in one cross-process
//! transaction; piecewise when that does not come within the transaction timeout), keeps
//! the live elements of the last read of each window for calls and probes, and hears change
//! events through handlers registered once on the desktop root.
//!
//! - `capture`: the cache request and a cached element read into [`Element`];
//! - `piecewise`: the fallback read, one element and its children at a time, when the
//!   whole window does not come within the transaction timeout;
//! - `variant`: VARIANTs from another process, read strictly by type;
//! - `call`: a [`Call`] carried out by its control pattern, or as input after a hit test;
//! - `input`: `SendInput` clicks, wheel, text and key chords;
//! - `toplevel`: top-level windows through Win32;
//! - `events`: the change-event handlers.

mod call;
mod capture;
mod events;
mod input;
mod piecewise;
mod toplevel;
mod variant;

use std::collections::HashMap;
use std::time::Instant;

use axsnap_core::keys::Chord;
use axsnap_desktop::{Frame, SizeLimits, WindowOp};
use windows::core::{Interface, HRESULT};
use windows::Win32::Foundation::{
    CO_E_OBJNOTCONNECTED, ERROR_TIMEOUT, RPC_E_CHANGED_MODE, RPC_E_DISCONNECTED,
};
use windows::Win32::System::Com::{
    CoCreateInstance, CoInitializeEx, CoUninitialize, CLSCTX_INPROC_SERVER, COINIT_MULTITHREADED,
};
use windows::Win32::UI::Accessibility::*;
use windows::Win32::UI::HiDpi::{SetThreadDpiAwarenessContext, DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2};

use crate::automation::{Automation, Call, CallError, Heard, Read, TopWindow};
use crate::element::Element;

/// How long UI Automation waits to connect to an app's provider.
const CONNECTION_TIMEOUT_MS: u32 = 2_000;
/// How long one cross-process request (a whole cache request) may take.
const TRANSACTION_TIMEOUT_MS: u32 = 5_000;

/// UI Automation over COM: the [`Automation`] a Windows desktop platform is built on.
///
/// Made and used on one thread (COM's multi-threaded apartment is entered on the thread
/// that calls [`ComAutomation::new`]); the event handlers are called on UI Automation's own
/// threads and only fill a queue this drains.
pub struct ComAutomation {
    automation: IUIAutomation,
    /// The cache request of a whole window: every property, the raw subtree, live elements.
    subtree: IUIAutomationCacheRequest,
    /// The same for one element and its children: a piece of a piecewise read.
    piece: IUIAutomationCacheRequest,
    /// The same for one element (a probe).
    one: IUIAutomationCacheRequest,
    /// The live elements of each window's last read, by runtime id.
    live: HashMap<i64, HashMap<Vec<i64>, IUIAutomationElement>>,
    /// What the handlers heard.
    sink: events::Sink,
    /// Whether the handlers registered.
    hears: bool,
    /// Last, so that COM is left only after every interface above was released.
    _com: Apartment,
}

/// COM entered on this thread, left on drop when the entering counted.
struct Apartment(bool);

impl Drop for Apartment {
    fn drop(&mut self) {
        if self.0 {
            // SAFETY: balances the CoInitializeEx that succeeded on this same thread (the
            // automation is not Send); every interface was released before.
            unsafe { CoUninitialize() };
        }
    }
}

impl ComAutomation {
    /// Enters COM's multi-threaded apartment on this thread, makes UI Automation's client
    /// (`CUIAutomation8`, else `CUIAutomation` before Windows 8) with bounded timeouts, and
    /// registers the change-event handlers on the desktop (structure, properties the capture
    /// reads, focus, windows opened). Handlers that cannot be registered leave
    /// [`Automation::hears_events`] false; the platform then polls.
    pub fn new() -> Result<ComAutomation, CallError> {
        // SAFETY: enters COM on this thread; undone by `Apartment` when it counted.
        let hr = unsafe { CoInitializeEx(None, COINIT_MULTITHREADED) };
        // S_FALSE (already entered the same way) counts and must be balanced too; a thread
        // already in a single-threaded apartment keeps it (UI Automation works there too).
        let com = Apartment(hr.is_ok());
        if hr.is_err() && hr != RPC_E_CHANGED_MODE {
            return Err(CallError::Platform(format!("CoInitializeEx: {}", windows::core::Error::from(hr))));
        }
        // Screen points in physical pixels on every monitor for everything this thread does
        // (bounding rectangles, hit tests, the pointer, window rectangles), whatever the
        // process's own DPI awareness: otherwise a scaled monitor shifts clicks. Only this
        // thread, which is the automation's own.
        // SAFETY: sets this thread's DPI awareness; the previous one it returns is not needed.
        let _ = unsafe { SetThreadDpiAwarenessContext(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2) };
        // SAFETY: creating an in-process COM object by its class id.
        let automation: IUIAutomation = unsafe {
            CoCreateInstance(&CUIAutomation8, None, CLSCTX_INPROC_SERVER)
                .or_else(|_| CoCreateInstance(&CUIAutomation, None, CLSCTX_INPROC_SERVER))
        }
        .map_err(|e| CallError::Platform(format!("creating UI Automation: {e}")))?;
        if let Ok(two) = automation.cast::<IUIAutomation2>() {
            // SAFETY: setters with values. Without them (Windows 7) an app that hangs holds a
            // read for UI Automation's own defaults.
            unsafe {
                let _ = two.SetConnectionTimeout(CONNECTION_TIMEOUT_MS);
                let _ = two.SetTransactionTimeout(TRANSACTION_TIMEOUT_MS);
            }
        }
        let subtree = capture::cache_request(&automation, TreeScope_Subtree).map_err(|e| error(&e))?;
        let piece = capture::cache_request(&automation, piecewise::SCOPE).map_err(|e| error(&e))?;
        let one = capture::cache_request(&automation, TreeScope_Element).map_err(|e| error(&e))?;
        let sink = events::Sink::default();
        // SAFETY: a COM call with no argument.
        let hears = match unsafe { automation.GetRootElement() } {
            Ok(root) => events::register(&automation, &root, &sink).is_ok(),
            Err(_) => false,
        };
        Ok(ComAutomation { automation, subtree, piece, one, live: HashMap::new(), sink, hears, _com: com })
    }

    /// The live element `element` of window `hwnd`'s last read.
    fn live(&self, hwnd: i64, element: &[i64]) -> Result<&IUIAutomationElement, CallError> {
        self.live.get(&hwnd).and_then(|m| m.get(element)).ok_or(CallError::Gone)
    }

    /// WindowPattern.Close on window `hwnd`'s element, when it has the pattern and it answers.
    fn close_by_pattern(&self, hwnd: i64) -> bool {
        // SAFETY: COM calls on live interfaces with values.
        unsafe {
            let Ok(el) = self.automation.ElementFromHandle(toplevel::hwnd(hwnd)) else { return false };
            let Ok(window) = el.GetCurrentPatternAs::<IUIAutomationWindowPattern>(UIA_WindowPatternId) else {
                return false;
            };
            window.Close().is_ok()
        }
    }
}

impl Drop for ComAutomation {
    fn drop(&mut self) {
        // Removes whatever was registered, all of it or part (harmless when nothing was).
        // SAFETY: a COM call with no argument, on the thread that registered them.
        let _ = unsafe { self.automation.RemoveAllEventHandlers() };
    }
}

/// The failure `e` is to a caller: the element gone (or its app), disabled, a timeout, or
/// the platform's own words.
fn error(e: &windows::core::Error) -> CallError {
    const GONE: [HRESULT; 4] = [
        HRESULT(UIA_E_ELEMENTNOTAVAILABLE as i32),
        RPC_E_DISCONNECTED,
        CO_E_OBJNOTCONNECTED,
        // The app's process is gone: RPC_S_SERVER_UNAVAILABLE as an HRESULT.
        HRESULT(0x800706BA_u32 as i32),
    ];
    let code = e.code();
    if GONE.contains(&code) {
        CallError::Gone
    } else if code == HRESULT(UIA_E_ELEMENTNOTENABLED as i32) {
        CallError::Disabled
    } else if code == HRESULT(UIA_E_TIMEOUT as i32) || code == ERROR_TIMEOUT.to_hresult() {
        CallError::Timeout(u64::from(TRANSACTION_TIMEOUT_MS))
    } else {
        CallError::Platform(format!("{e} ({:#010x})", code.0 as u32))
    }
}

impl Automation for ComAutomation {
    fn windows(&mut self) -> Result<Vec<TopWindow>, CallError> {
        Ok(toplevel::list())
    }

    fn read(&mut self, hwnd: i64, deadline: Instant) -> Result<Read, CallError> {
        if !toplevel::exists(hwnd) {
            self.live.remove(&hwnd);
            return Err(CallError::Gone);
        }
        // The elements of windows that closed since are let go.
        self.live.retain(|h, _| toplevel::exists(*h));
        // SAFETY: a COM call with a window handle.
        let el = unsafe { self.automation.ElementFromHandle(toplevel::hwnd(hwnd)) }.map_err(|e| error(&e))?;
        let mut live = HashMap::new();
        // SAFETY: a COM call on a live element with a live cache request.
        let read = match unsafe { el.BuildUpdatedCache(&self.subtree) }.map_err(|e| error(&e)) {
            Ok(root) => capture::walk(root, deadline, &mut live),
            // Too big or too slow for one transaction: as much as the deadline allows, in
            // pieces that each fit in one, rather than nothing.
            Err(CallError::Timeout(_)) => {
                piecewise::read(&el, &self.piece, deadline, TRANSACTION_TIMEOUT_MS, &mut live)?
            }
            Err(e) => return Err(e),
        };
        self.live.insert(hwnd, live);
        Ok(read)
    }

    fn probe(&mut self, hwnd: i64, element: &[i64]) -> Result<Element, CallError> {
        let el = self.live(hwnd, element)?;
        // SAFETY: a COM call on a live element with a live cache request.
        let fresh = unsafe { el.BuildUpdatedCache(&self.one) }.map_err(|e| error(&e))?;
        Ok(capture::element(&fresh))
    }

    fn call(&mut self, hwnd: i64, element: &[i64], call: &Call) -> Result<(), CallError> {
        let el = self.live(hwnd, element)?;
        call::call(&self.automation, el, call)
    }

    fn keys(&mut self, hwnd: i64, keys: &[Chord]) -> Result<(), CallError> {
        // Keys sent while another window is in front would go to it: refused instead.
        toplevel::bring_to_front(hwnd)?;
        input::chords(keys)
    }

    fn frame(&mut self, hwnd: i64) -> Result<Frame, CallError> {
        toplevel::frame(hwnd)
    }

    fn size_limits(&mut self, _hwnd: i64) -> SizeLimits {
        // WM_GETMINMAXINFO cannot be asked of another process's window (its answer is a
        // pointer into the asker's memory); the limits are left unknown.
        SizeLimits::default()
    }

    fn request(&mut self, hwnd: i64, op: WindowOp) -> Result<(), CallError> {
        match op {
            WindowOp::Close if !toplevel::exists(hwnd) => Err(CallError::Gone),
            WindowOp::Close if self.close_by_pattern(hwnd) => Ok(()),
            op => toplevel::request(hwnd, op),
        }
    }

    fn hears_events(&self) -> bool {
        self.hears
    }

    fn heard(&mut self) -> Vec<Heard> {
        match self.sink.lock() {
            Ok(mut q) => q.drain(..).collect(),
            // A handler panicked while holding the lock (it should not): what is there is
            // still sound data.
            Err(poisoned) => poisoned.into_inner().drain(..).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// The whole path on a real desktop: run on Windows with
    /// `cargo test -p axsnap-uia -- --ignored`.
    #[test]
    #[ignore = "needs an interactive Windows desktop"]
    fn reads_and_probes_the_front_window() {
        let mut a = ComAutomation::new().expect("UI Automation is there");
        let windows = a.windows().expect("windows are listed");
        let Some(w) = windows.first() else { return };
        let read = a.read(w.hwnd, Instant::now() + Duration::from_secs(10)).expect("the window reads");
        let root = read.elements.root().expect("a read has its root");
        assert!(!root.runtime_id.is_empty(), "{root:?}");
        let probed = a.probe(w.hwnd, &root.runtime_id).expect("the root probes");
        assert_eq!(probed.runtime_id, root.runtime_id);
        assert!(matches!(a.probe(w.hwnd, &[-1]), Err(CallError::Gone)));
        a.frame(w.hwnd).expect("its frame");
        let _ = a.heard();
    }

    /// The piecewise read forced on the front window (which, small enough for one request,
    /// would never fall back to it): the whole read's elements in the same order when the
    /// window holds still, and past the deadline still the root with its children.
    #[test]
    #[ignore = "needs an interactive Windows desktop"]
    fn reads_the_front_window_piecewise() {
        let mut a = ComAutomation::new().expect("UI Automation is there");
        let windows = a.windows().expect("windows are listed");
        let Some(w) = windows.first() else { return };
        let whole = a.read(w.hwnd, Instant::now() + Duration::from_secs(10)).expect("the window reads");
        // SAFETY: a COM call with a window handle.
        let el = unsafe { a.automation.ElementFromHandle(toplevel::hwnd(w.hwnd)) }.expect("its element");
        let ids = |r: &Read| r.elements.nodes.iter().map(|e| e.runtime_id.clone()).collect::<Vec<_>>();

        let mut live = HashMap::new();
        let later = Instant::now() + Duration::from_secs(60);
        let read = piecewise::read(&el, &a.piece, later, TRANSACTION_TIMEOUT_MS, &mut live)
            .expect("the window reads piecewise");
        assert_eq!(read.partial, None);
        assert_eq!(ids(&read), ids(&whole));
        assert_eq!(read.elements.children, whole.elements.children);
        let root = read.elements.root().expect("a read has its root");
        assert!(live.contains_key(&root.runtime_id));

        let late = piecewise::read(&el, &a.piece, Instant::now(), TRANSACTION_TIMEOUT_MS, &mut live)
            .expect("the root reads past the deadline");
        let kids = whole.elements.children.first().map_or(0, Vec::len);
        assert_eq!(late.elements.len(), 1 + kids);
        assert_eq!(late.partial.is_some(), kids > 0, "{:?}", late.partial);
    }
}
