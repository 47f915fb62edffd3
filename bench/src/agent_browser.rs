//! agent-browser's side: runs its CLI (npm `agent-browser`, whose package ships the native
//! binary, pinned by `agent-browser/package-lock.json` and installed with `npm ci
//! --ignore-scripts`) and reads its snapshots.
//!
//! The CLI sends each command to a daemon it starts on first use, which launches and keeps the
//! browser. Each page gets a session of its own, so that nothing carries over from one page to
//! the next (agent-browser's refs keep counting across pages within a session, where ours
//! start at `e1` on every page, as a fresh `axsnap snapshot URL` does): a fresh temporary
//! folder is its `HOME`, its socket folder (`AGENT_BROWSER_SOCKET_DIR`) and its working folder,
//! so no user or project config is read; the session gets a name of its own; then `open URL`
//! (which waits for `load`), `snapshot` and `snapshot -i` (`runs` times each, timed; the last
//! text is kept) and `close`, which stops the daemon and its browser. Should `close` fail, the
//! daemon is stopped by the pid it wrote, and an idle timeout ends it in any case.
//!
//! The browser is the given Chromium (`AGENT_BROWSER_EXECUTABLE_PATH`), headless, with the
//! network-quiet flags axsnap uses ([`BROWSER_ARGS`]) and agent-browser's own fresh temporary
//! profile; its viewport is agent-browser's default, 1280x720, as axsnap's. Every command is run
//! with `--json` and its answer (`{"success", "data", "error"}`) read: `data.snapshot` is the
//! exact text the CLI prints without `--json`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;

use crate::error::BenchError;

/// The Chromium flags agent-browser is asked to add (`AGENT_BROWSER_ARGS`): root needs no
/// sandbox, and the rest keep the browser off the network, as axsnap's launch does.
pub const BROWSER_ARGS: &[&str] = &[
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// A daemon left behind ends itself after this long without a command.
const IDLE_TIMEOUT_MS: u64 = 10 * 60 * 1000;

/// How to run agent-browser.
#[derive(Clone, Debug)]
pub struct AgentBrowserOptions {
    /// The native binary.
    pub binary: PathBuf,
    /// The Chromium it launches.
    pub browser: PathBuf,
    /// Snapshots taken per page and mode (timing); the text of the last one is kept.
    pub runs: usize,
    /// One command is stopped after this long.
    pub timeout: Duration,
}

impl AgentBrowserOptions {
    /// Defaults for `browser`: this crate's installed binary ([`default_binary`]), one run,
    /// five minutes a command.
    pub fn new(browser: PathBuf) -> AgentBrowserOptions {
        AgentBrowserOptions { binary: default_binary(), browser, runs: 1, timeout: Duration::from_secs(300) }
    }
}

/// This crate's `agent-browser/` folder (`package.json`, `package-lock.json`, and after `npm
/// ci --ignore-scripts` its `node_modules`).
pub fn default_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("agent-browser")
}

/// The native binary the npm package ships for this machine, under [`default_dir`].
pub fn default_binary() -> PathBuf {
    let arch = match std::env::consts::ARCH {
        "aarch64" => "arm64",
        _ => "x64",
    };
    default_dir().join(format!("node_modules/agent-browser/bin/agent-browser-linux-{arch}"))
}

/// agent-browser's snapshots of one page.
#[derive(Clone, Debug)]
pub struct AgentBrowserPage {
    /// The URL opened.
    pub url: String,
    /// What `snapshot` printed.
    pub full: String,
    /// What `snapshot -i` printed.
    pub interactive: String,
    /// Wall time of each `snapshot` command (the CLI's whole run: start, ask the daemon,
    /// print), in milliseconds.
    pub full_ms: Vec<f64>,
    /// The same for `snapshot -i`.
    pub interactive_ms: Vec<f64>,
}

/// `agent-browser --version`, as it says it (`agent-browser 0.41.2`).
pub fn version(opts: &AgentBrowserOptions) -> Result<String, BenchError> {
    check_installed(opts)?;
    let command = format!("{} --version", opts.binary.display());
    let fail = |reason: String| BenchError::AgentBrowser { command: command.clone(), reason };
    let out = Command::new(&opts.binary)
        .arg("--version")
        .env("AGENT_BROWSER_NO_VERSION_CHECK", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| fail(e.to_string()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || text.is_empty() {
        return Err(fail(format!("{}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(text)
}

/// Opens `url` in a fresh session and takes its snapshots: `snapshot`, then `snapshot -i`,
/// `opts.runs` times each. The session is closed (its daemon and browser stopped) whatever
/// happens.
pub fn snapshot_page(opts: &AgentBrowserOptions, url: &str) -> Result<AgentBrowserPage, BenchError> {
    check_installed(opts)?;
    let mut session = CliSession::start(opts)?;
    let result = session.snapshots(url);
    let closed = session.close();
    let page = result?;
    closed?;
    Ok(page)
}

/// One agent-browser session driven as an agent with a shell drives it: each command's
/// printed text (stdout, then stderr) is its answer, exactly as a terminal shows it. The
/// session (its daemon and browser) is closed when the shell is dropped.
#[derive(Debug)]
pub struct Shell {
    session: CliSession,
}

impl Shell {
    /// A fresh session of its own (folder, name, profile); the browser starts with the first
    /// command.
    pub fn start(opts: &AgentBrowserOptions) -> Result<Shell, BenchError> {
        check_installed(opts)?;
        Ok(Shell { session: CliSession::start(opts)? })
    }

    /// Runs one command (`["click", "@e3"]`): whether it succeeded (exit status 0), and what
    /// it printed. Only a command that cannot be run or does not end is an `Err`.
    pub fn run(&mut self, args: &[String]) -> Result<(bool, String), BenchError> {
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let (status, stdout, stderr) =
            self.session.spawn(&argv).map_err(|reason| BenchError::AgentBrowser {
                command: format!("{} {}", self.session.opts.binary.display(), args.join(" ")),
                reason,
            })?;
        let mut text = stdout.trim_end().to_string();
        if !stderr.trim().is_empty() {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(stderr.trim_end());
        }
        Ok((status.success(), text))
    }
}

fn check_installed(opts: &AgentBrowserOptions) -> Result<(), BenchError> {
    if opts.binary.is_file() {
        return Ok(());
    }
    Err(BenchError::AgentBrowser {
        command: opts.binary.display().to_string(),
        reason: format!(
            "agent-browser is not installed: run `npm ci --ignore-scripts` in {} and make the binary \
             executable (scripts/bench-agent-browser does both)",
            default_dir().display()
        ),
    })
}

/// The answer of a command run with `--json`.
#[derive(Debug, Deserialize)]
struct Answer {
    success: bool,
    #[serde(default)]
    data: Value,
    #[serde(default)]
    error: Value,
}

/// One agent-browser session: its folder, its name, and whether it was closed.
#[derive(Debug)]
struct CliSession {
    opts: AgentBrowserOptions,
    dir: PathBuf,
    name: String,
    closed: bool,
}

impl CliSession {
    /// A fresh folder and session name; the daemon starts with the first command.
    fn start(opts: &AgentBrowserOptions) -> Result<CliSession, BenchError> {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!("axsnap-bench-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(&name);
        let made = std::fs::create_dir_all(dir.join("home"))
            .and_then(|()| std::fs::create_dir_all(dir.join("sock")));
        made.map_err(|e| BenchError::AgentBrowser {
            command: opts.binary.display().to_string(),
            reason: format!("cannot make its folder {}: {e}", dir.display()),
        })?;
        Ok(CliSession { opts: opts.clone(), dir, name, closed: false })
    }

    fn snapshots(&mut self, url: &str) -> Result<AgentBrowserPage, BenchError> {
        let opened = self.run(&["open", url])?;
        if let Some(origin) = opened.get("url").and_then(Value::as_str) {
            if origin != url {
                return Err(BenchError::AgentBrowserOutput(format!(
                    "asked to open {url}, it is at {origin}"
                )));
            }
        }
        let (full, full_ms) = self.snapshot(&["snapshot"])?;
        let (interactive, interactive_ms) = self.snapshot(&["snapshot", "-i"])?;
        Ok(AgentBrowserPage { url: url.to_string(), full, interactive, full_ms, interactive_ms })
    }

    /// `args` `runs` times: the last snapshot text and every run's wall time.
    fn snapshot(&mut self, args: &[&str]) -> Result<(String, Vec<f64>), BenchError> {
        let (mut text, mut times) = (String::new(), Vec::new());
        for _ in 0..self.opts.runs.max(1) {
            let t0 = Instant::now();
            let data = self.run(args)?;
            times.push(t0.elapsed().as_secs_f64() * 1e3);
            text = data.get("snapshot").and_then(Value::as_str).map(str::to_string).ok_or_else(|| {
                BenchError::AgentBrowserOutput(format!("`{}` answered no snapshot: {data}", args.join(" ")))
            })?;
        }
        Ok((text, times))
    }

    /// Runs one command with `--json` and gives its `data`.
    fn run(&mut self, args: &[&str]) -> Result<Value, BenchError> {
        let command = format!("{} --json {}", self.opts.binary.display(), args.join(" "));
        let fail = |reason: String| BenchError::AgentBrowser { command: command.clone(), reason };
        let mut argv = vec!["--json"];
        argv.extend_from_slice(args);
        let (status, stdout, stderr) = self.spawn(&argv).map_err(&fail)?;
        let answer: Answer = match serde_json::from_str(stdout.trim()) {
            Ok(a) => a,
            Err(e) => {
                return Err(fail(format!(
                    "{status}; its answer is not JSON ({e}): {}{}",
                    cut(stdout.trim(), 300),
                    if stderr.trim().is_empty() {
                        String::new()
                    } else {
                        format!("; stderr: {}", cut(stderr.trim(), 300))
                    }
                )))
            }
        };
        if !answer.success {
            let said = match &answer.error {
                Value::String(s) => s.clone(),
                Value::Null => "no error said".into(),
                other => other.to_string(),
            };
            return Err(fail(format!("{status}: {said}")));
        }
        Ok(answer.data)
    }

    /// Runs the binary with `args` until it exits (or is stopped at the timeout): its status,
    /// stdout and stderr.
    fn spawn(&mut self, args: &[&str]) -> Result<(std::process::ExitStatus, String, String), String> {
        // The answer goes to files, not pipes: the daemon the first command starts must not
        // hold a pipe this side waits on.
        let (out_path, err_path) = (self.dir.join("stdout.txt"), self.dir.join("stderr.txt"));
        let out = std::fs::File::create(&out_path)
            .map_err(|e| format!("cannot make {}: {e}", out_path.display()))?;
        let err = std::fs::File::create(&err_path)
            .map_err(|e| format!("cannot make {}: {e}", err_path.display()))?;
        let mut cmd = Command::new(&self.opts.binary);
        cmd.args(args);
        self.environment(&mut cmd);
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot start it: {e}"))?;
        let deadline = Instant::now() + self.opts.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "no answer within {} s; it was stopped",
                        self.opts.timeout.as_secs()
                    ));
                }
                // Short sleeps: the wait is part of the time measured.
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return Err(format!("cannot wait for it: {e}")),
            }
        };
        let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
        let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
        Ok((status, stdout, stderr))
    }

    /// The environment of every command: nothing agent-browser reads from this process's own
    /// environment, then this session's.
    fn environment(&self, cmd: &mut Command) {
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("AGENT_BROWSER_") {
                cmd.env_remove(key);
            }
        }
        cmd.current_dir(&self.dir)
            .env("HOME", self.dir.join("home"))
            .env("AGENT_BROWSER_SOCKET_DIR", self.dir.join("sock"))
            .env("AGENT_BROWSER_SESSION", &self.name)
            .env("AGENT_BROWSER_EXECUTABLE_PATH", &self.opts.browser)
            .env("AGENT_BROWSER_ARGS", BROWSER_ARGS.join(","))
            .env("AGENT_BROWSER_NO_VERSION_CHECK", "1")
            .env("AGENT_BROWSER_IDLE_TIMEOUT_MS", IDLE_TIMEOUT_MS.to_string());
    }

    /// `close`: stops the daemon and its browser.
    fn close(&mut self) -> Result<(), BenchError> {
        self.closed = true;
        self.run(&["close"]).map(drop)
    }

    /// The daemon's pid, while its pid file is there (it removes it when it stops).
    fn daemon_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.dir.join("sock").join(format!("{}.pid", self.name))).ok()?;
        text.trim().parse().ok()
    }
}

impl Drop for CliSession {
    fn drop(&mut self) {
        if !self.closed {
            let _ = self.close();
        }
        // A daemon still there after `close` (or without one) is stopped by its pid.
        if let Some(pid) = self.daemon_pid() {
            let deadline = Instant::now() + Duration::from_secs(5);
            while Path::new(&format!("/proc/{pid}")).exists() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            if self.daemon_pid() == Some(pid) && Path::new(&format!("/proc/{pid}")).exists() {
                let _ = Command::new("kill").arg(pid.to_string()).status();
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `s` cut to `max` characters with `…`.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_when_it_is_not_installed() {
        let mut opts = AgentBrowserOptions::new(PathBuf::from("/usr/bin/chromium"));
        opts.binary = std::env::temp_dir().join("axsnap-bench-no-such-agent-browser");
        let e = snapshot_page(&opts, "http://127.0.0.1:1/").unwrap_err();
        assert!(e.to_string().contains("npm ci --ignore-scripts"), "{e}");
        assert!(version(&opts).is_err());
    }

    #[test]
    fn reads_its_answers() {
        let a: Answer = serde_json::from_str(
            r#"{"success":true,"data":{"snapshot":"- link \"a\" [ref=e1]"},"error":null}"#,
        )
        .unwrap();
        assert!(a.success);
        assert_eq!(a.data["snapshot"], "- link \"a\" [ref=e1]");
        let a: Answer = serde_json::from_str(r#"{"success":false,"error":"no page"}"#).unwrap();
        assert!(!a.success && a.error == "no page" && a.data.is_null());
    }

    #[test]
    fn a_command_that_fails_says_so_and_leaves_no_folder() {
        // `false` stands in for the binary: it answers nothing.
        let mut opts = AgentBrowserOptions::new(PathBuf::from("/usr/bin/chromium"));
        opts.binary = PathBuf::from("/bin/false");
        let mut s = CliSession::start(&opts).unwrap();
        let dir = s.dir.clone();
        let e = s.run(&["open", "http://127.0.0.1:1/"]).unwrap_err();
        assert!(e.to_string().contains("not JSON"), "{e}");
        drop(s);
        assert!(!dir.exists());
    }
}
