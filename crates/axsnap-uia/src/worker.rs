//! [`Worker`]: the thread an [`Automation`] lives on, and the requests handed to it.
//!
//! COM objects belong to the apartment that made them, and a call into a hung app blocks its
//! thread: so the automation gets a thread of its own (on Windows, joined to the
//! multi-threaded apartment by `ComAutomation::new`), the platform's futures hand it closures
//! and wait for the answer with a time limit, and a hang costs a caller that limit, not the
//! server.

use std::sync::mpsc;
use std::time::Duration;

use axsnap_desktop::DesktopError;

use crate::automation::{Automation, CallError};

type Job = Box<dyn FnOnce(&mut dyn Automation) + Send>;

/// A handle to the automation's thread; clones share it. The thread ends when the last handle
/// is dropped.
#[derive(Clone, Debug)]
pub struct Worker {
    jobs: mpsc::Sender<Job>,
}

impl Worker {
    /// Starts the thread and makes the automation on it with `make` (so it never leaves that
    /// thread), failing with what `make` said.
    pub fn start<A, F>(make: F) -> Result<Worker, DesktopError>
    where
        A: Automation + 'static,
        F: FnOnce() -> Result<A, CallError> + Send + 'static,
    {
        let (jobs, queue) = mpsc::channel::<Job>();
        let (ready, made) = mpsc::channel::<Result<(), CallError>>();
        std::thread::Builder::new()
            .name("axsnap-uia".into())
            .spawn(move || {
                let mut automation = match make() {
                    Ok(a) => {
                        let _ = ready.send(Ok(()));
                        a
                    }
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                while let Ok(job) = queue.recv() {
                    job(&mut automation);
                }
            })
            .map_err(|e| DesktopError::Platform(format!("cannot start UI Automation's thread: {e}")))?;
        match made.recv() {
            Ok(Ok(())) => Ok(Worker { jobs }),
            Ok(Err(e)) => Err(DesktopError::Unavailable(format!("UI Automation cannot be started: {e}"))),
            Err(_) => Err(DesktopError::Unavailable("UI Automation's thread ended as it started".into())),
        }
    }

    /// Runs `f` on the automation and waits up to `limit` for its answer; `what` names the
    /// call in the error when the answer does not come.
    pub async fn run<R, F>(&self, what: &str, limit: Duration, f: F) -> Result<R, DesktopError>
    where
        R: Send + 'static,
        F: FnOnce(&mut dyn Automation) -> R + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Box::new(move |a| {
                let _ = tx.send(f(a));
            }))
            .map_err(|_| ended())?;
        match tokio::time::timeout(limit, rx).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(_)) => Err(ended()),
            Err(_) => Err(DesktopError::Timeout { what: what.to_string(), after: limit }),
        }
    }

    /// [`Worker::run`] for a caller that cannot await (a window's frame, read synchronously).
    pub fn run_blocking<R, F>(&self, what: &str, limit: Duration, f: F) -> Result<R, DesktopError>
    where
        R: Send + 'static,
        F: FnOnce(&mut dyn Automation) -> R + Send + 'static,
    {
        let (tx, rx) = mpsc::channel();
        self.jobs
            .send(Box::new(move |a| {
                let _ = tx.send(f(a));
            }))
            .map_err(|_| ended())?;
        match rx.recv_timeout(limit) {
            Ok(answer) => Ok(answer),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                Err(DesktopError::Timeout { what: what.to_string(), after: limit })
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(ended()),
        }
    }
}

fn ended() -> DesktopError {
    DesktopError::Platform("UI Automation's thread ended (a call on it panicked); restart axsnap".into())
}
