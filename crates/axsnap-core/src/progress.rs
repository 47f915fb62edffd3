//! What a long call is doing now, told by whichever layer knows it.
//!
//! A server that answers progress asks installs a [`Progress`] around one call's future with
//! [`scoped`]; code anywhere below it on that task (the server's dispatch, a browser's settle
//! wait and capture, a desktop window's settle, the agent's rendering) says its stage with
//! [`report`], and the server reads the latest with [`Progress::stage`] when it is time to
//! tell the client. Without a `Progress` installed, [`report`] does nothing and does not even
//! format its message.
//!
//! Why a scoped slot rather than a parameter: the places that know the stage are many calls
//! apart, in crates that must not know each other or the protocol; a reporter threaded through
//! the [`crate::backend::Backend`] contract would change every backend's signatures for a side
//! channel. Why here: the core is the one crate every backend and the server share. It names no
//! async runtime, so the slot is a plain thread-local that [`Scoped`] sets only while it polls
//! its future (restoring the previous one after): it follows the call across a multi-threaded
//! runtime's workers. Work spawned onto other tasks does not see it, and need not.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

/// The stage of one call: set by [`report`] while the call runs, read by whoever tells the
/// client. Cheap to clone (the clones share the stage).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    stage: Arc<Mutex<Option<String>>>,
}

impl Progress {
    /// A call that has said nothing yet.
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Says the call is now at `stage` (a short human sentence: "loading https://…").
    pub fn set(&self, stage: String) {
        *self.stage.lock().unwrap_or_else(|p| p.into_inner()) = Some(stage);
    }

    /// The stage last said, if any.
    pub fn stage(&self) -> Option<String> {
        self.stage.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

thread_local! {
    /// The progress of the call being polled on this thread, if it asked for one.
    static CURRENT: RefCell<Option<Progress>> = const { RefCell::new(None) };
}

/// Says the current call is at the stage `stage` describes; `stage` runs only when a
/// [`Progress`] is installed, so a detailed message costs nothing when nobody listens.
pub fn report(stage: impl FnOnce() -> String) {
    // Cloned out first: `stage` may itself look at the slot.
    let current = CURRENT.try_with(|c| c.borrow().clone()).ok().flatten();
    if let Some(progress) = current {
        progress.set(stage());
    }
}

/// Whether the current call has a [`Progress`] installed (for a stage whose details take
/// more than formatting to find).
pub fn active() -> bool {
    CURRENT.try_with(|c| c.borrow().is_some()).unwrap_or(false)
}

/// Runs `future` with `progress` installed for [`report`].
pub fn scoped<F: Future>(progress: Progress, future: F) -> Scoped<F> {
    Scoped { progress, future: Box::pin(future) }
}

/// A future with a [`Progress`] installed while it is polled; see [`scoped`].
pub struct Scoped<F> {
    progress: Progress,
    // Boxed so that this wrapper is `Unpin` without any unsafe pin projection.
    future: Pin<Box<F>>,
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        let _installed = Installed::new(this.progress.clone());
        this.future.as_mut().poll(cx)
    }
}

/// The slot's previous content, put back when dropped (also when the poll panics).
struct Installed(Option<Progress>);

impl Installed {
    fn new(progress: Progress) -> Installed {
        Installed(CURRENT.try_with(|c| c.replace(Some(progress))).ok().flatten())
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let previous = self.0.take();
        let _ = CURRENT.try_with(|c| *c.borrow_mut() = previous);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    /// Polls `f` once with a waker that does nothing.
    fn poll_once<F: Future + Unpin>(f: &mut F) -> Poll<F::Output> {
        Pin::new(f).poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn a_report_outside_any_call_goes_nowhere_and_is_not_formatted() {
        report(|| panic!("formatted with nobody listening"));
        assert!(!active());
    }

    #[test]
    fn reports_reach_the_progress_of_the_call_being_polled_and_only_then() {
        let progress = Progress::new();
        let mut call = scoped(progress.clone(), async {
            report(|| "loading".to_string());
            std::future::ready(()).await;
            report(|| "capturing".to_string());
            active()
        });
        assert_eq!(poll_once(&mut call), Poll::Ready(true));
        assert_eq!(progress.stage().as_deref(), Some("capturing"));
        // Between polls the slot is empty again.
        assert!(!active());
    }

    #[test]
    fn a_nested_call_reports_to_its_own_progress_and_the_outer_one_gets_its_slot_back() {
        let (outer, inner) = (Progress::new(), Progress::new());
        let inner2 = inner.clone();
        let mut call = scoped(outer.clone(), async move {
            scoped(inner2, async { report(|| "inner".to_string()) }).await;
            report(|| "outer".to_string());
        });
        assert_eq!(poll_once(&mut call), Poll::Ready(()));
        assert_eq!(inner.stage().as_deref(), Some("inner"));
        assert_eq!(outer.stage().as_deref(), Some("outer"));
    }

    #[test]
    fn a_pending_call_keeps_its_stage_and_leaves_the_slot_empty_while_parked() {
        let progress = Progress::new();
        let mut first = true;
        let mut call = scoped(
            progress.clone(),
            std::future::poll_fn(move |_| {
                report(|| "waiting".to_string());
                if std::mem::take(&mut first) {
                    Poll::Pending
                } else {
                    Poll::Ready(())
                }
            }),
        );
        assert_eq!(poll_once(&mut call), Poll::Pending);
        assert!(!active());
        assert_eq!(progress.stage().as_deref(), Some("waiting"));
        assert_eq!(poll_once(&mut call), Poll::Ready(()));
    }
}
