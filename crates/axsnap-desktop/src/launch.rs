//! Launching a desktop app and finding its first window: the platform says what command an
//! app's name stands for ([`Platform::resolve`]) and starts it ([`Platform::spawn`]); the
//! window that shows first that was not there before is the answer. The app runs in the
//! caller's desktop session, detached from the caller, and is left running.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axsnap_core::TargetId;

use crate::backend::DesktopBackend;
use crate::error::DesktopError;
use crate::platform::Platform;

/// How often the platform is asked for the new window.
const POLL: Duration = Duration::from_millis(200);

/// A launched app and the window it showed.
#[derive(Clone, Debug)]
pub struct Launched {
    /// The command line that ran.
    pub argv: Vec<String>,
    /// Its process id.
    pub pid: u32,
    /// The first window it showed.
    pub window: TargetId,
    /// That window's app, as the platform names it.
    pub app: String,
    /// That window's title.
    pub title: String,
}

/// A started app: its process, and where its output goes.
#[derive(Debug)]
pub struct Spawned {
    /// Its process id.
    pub pid: u32,
    child: Option<Child>,
    log: Option<PathBuf>,
}

impl Spawned {
    /// An app that runs without a process of this machine's (a recorded one).
    pub fn without_process(pid: u32) -> Spawned {
        Spawned { pid, child: None, log: None }
    }

    /// Why the app is over without having shown a window, if it is: it exited with a failure
    /// (the last lines of its output say why). An app that exited successfully may have
    /// handed its work to a running instance, whose window is still awaited.
    fn failed(&mut self) -> Option<String> {
        let status = self.child.as_mut()?.try_wait().ok()??;
        if status.success() {
            return None;
        }
        let log = self.log.as_ref().and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(3).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        Some(format!("it exited ({status}) without a window: {}", tail.join(" / ")))
    }

    /// Lets the app outlive the call; its exit is waited for so it leaves no zombie behind.
    fn release(self) {
        if let Some(mut child) = self.child {
            std::thread::spawn(move || {
                let _ = child.wait();
            });
        }
    }
}

/// Starts `argv` detached from the caller: no input, its output to a log file of its own (a
/// pipe nobody reads would stall it, or end it once the call returned), and on Unix a process
/// group of its own (a signal to the server's group does not end the app).
pub fn spawn_process(argv: &[String]) -> Result<Spawned, DesktopError> {
    let failed = |reason: String| DesktopError::Platform(reason);
    let (exe, rest) = argv.split_first().ok_or_else(|| failed("nothing to run".into()))?;
    let log_path = std::env::temp_dir().join(format!("axsnap-launch-{}-{}.log", std::process::id(), stamp()));
    let log = std::fs::File::create(&log_path).map_err(|e| failed(format!("cannot write its log: {e}")))?;
    let log_err = log.try_clone().map_err(|e| failed(format!("cannot write its log: {e}")))?;
    let mut cmd = Command::new(exe);
    cmd.args(rest).stdin(Stdio::null()).stdout(log).stderr(log_err);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let child = cmd.spawn().map_err(|e| failed(format!("cannot start {exe}: {e}")))?;
    Ok(Spawned { pid: child.id(), child: Some(child), log: Some(log_path) })
}

/// A number that tells this launch's log from the others of this process.
fn stamp() -> u64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl<P: Platform> DesktopBackend<P> {
    /// Launches `app` with `args` and waits up to `timeout` for a window that was not listed
    /// before. An app that hands its work to a running instance (LibreOffice, many GNOME
    /// apps) exits at once: the window the running instance opens is still the answer.
    pub async fn launch(
        &mut self,
        app: &str,
        args: &[String],
        timeout: Duration,
    ) -> Result<Launched, DesktopError> {
        let failed = |reason: String| DesktopError::LaunchFailed { app: app.to_string(), reason };
        let mut argv = self.platform().resolve(app)?;
        if argv.is_empty() {
            return Err(failed("its desktop entry runs nothing".into()));
        }
        argv.extend(args.iter().cloned());
        let before: Vec<String> = self.listing().await?.windows.into_iter().map(|w| w.id).collect();
        let mut spawned = self.platform_mut().spawn(&argv).map_err(|e| failed(e.to_string()))?;
        let pid = spawned.pid;
        let started = Instant::now();
        let outcome = loop {
            let listing = match self.listing().await {
                Ok(l) => l,
                Err(e) => break Err(e),
            };
            if let Some(w) = listing.windows.into_iter().find(|w| !before.contains(&w.id)) {
                break Ok(Launched {
                    argv: argv.clone(),
                    pid,
                    window: TargetId(w.id),
                    app: w.app,
                    title: w.title,
                });
            }
            if let Some(why) = spawned.failed() {
                break Err(failed(why));
            }
            if started.elapsed() >= timeout {
                let log = spawned.log.as_ref().map(|p| format!(" (its output is in {})", p.display()));
                break Err(failed(format!(
                    "it is running (pid {pid}) but showed no window within {} s; call desktop_windows later, or \
                     check that it exposes accessibility{}",
                    timeout.as_secs(),
                    log.unwrap_or_default()
                )));
            }
            tokio::time::sleep(POLL).await;
        };
        spawned.release();
        outcome
    }
}
