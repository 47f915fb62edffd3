//! A desktop app for a workload: a private desktop session (`scripts/desktop-session --print`:
//! Xvfb, a D-Bus session bus, the AT-SPI bus) with the app started in it. The arms' servers get
//! the session's environment; the check reads the app's window from its accessibility tree
//! with `axsnap desktop snapshot`, not from any arm's answers.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::error::BenchError;
use crate::serve::StaticServer;
use crate::workload::DesktopSpec;

/// How long the app may take to show its window on the accessibility bus.
const WINDOW_TIMEOUT: Duration = Duration::from_secs(60);

/// How many times an app that exits at start is started.
const START_ATTEMPTS: usize = 3;

/// A desktop session with one app running in it; both end when it is dropped.
pub struct DesktopApp {
    /// The program, as it names itself on the bus.
    pub program: String,
    /// Variables a process needs to be in the session (DISPLAY, DBUS_SESSION_BUS_ADDRESS, …).
    pub env: Vec<(String, String)>,
    /// Variables it must not have (WAYLAND_DISPLAY, NO_AT_BRIDGE, …).
    pub unset: Vec<String>,
    session: PathBuf,
    script: PathBuf,
    child: Option<Child>,
    /// The site a browser app shows, served for the run.
    site: Option<StaticServer>,
}

impl DesktopApp {
    /// Starts a session and the app in it, and waits until its window is on the bus
    /// (`axsnap` reads it: the same binary the check uses). An app may find the session's
    /// display gone on a busy machine ("cannot open display" as one session ends and the next
    /// takes its display number): one that exits at start gets a new session, a few times.
    /// A browser app (a spec with a `site`) gets that site served, with the state probe, and
    /// opens `start` on it.
    pub fn start(
        spec: &DesktopSpec,
        axsnap: &Path,
        scratch: &Path,
        start: &str,
    ) -> Result<DesktopApp, BenchError> {
        let mut exits = Vec::new();
        for attempt in 0..START_ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(Duration::from_secs(1));
            }
            let site = match spec.site() {
                Some(dir) => {
                    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("apps").join(dir);
                    Some(StaticServer::start_with(root, Some(crate::state_probe::StateProbe::default()))?)
                }
                None => None,
            };
            match DesktopApp::start_once(spec, axsnap, scratch, start, site) {
                Ok(app) => return Ok(app),
                Err(Exited(why)) => exits.push(why),
                Err(NoWindow(e)) => return Err(e),
            }
        }
        Err(BenchError::Workload(format!(
            "{} exited at start {START_ATTEMPTS} times, each in a new desktop session: {}",
            spec.app(),
            exits.join("; ")
        )))
    }

    fn start_once(
        spec: &DesktopSpec,
        axsnap: &Path,
        scratch: &Path,
        start: &str,
        site: Option<StaticServer>,
    ) -> Result<DesktopApp, StartFailure> {
        let program = spec.app();
        let url = site.as_ref().map(|s| s.url(start)).unwrap_or_default();
        let argv = spec.command(&url, &scratch.display().to_string());
        let (exe, args) =
            argv.split_first().ok_or_else(|| BenchError::Workload(format!("{program}: no command")))?;
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/desktop-session");
        let fail = |why: String| BenchError::Workload(format!("desktop session for {program}: {why}"));
        let out = Command::new(&script)
            .arg("--print")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| fail(format!("cannot run {}: {e}", script.display())))?;
        if !out.status.success() {
            return Err(NoWindow(fail(format!(
                "{} --print failed: {}",
                script.display(),
                String::from_utf8_lossy(&out.stderr)
            ))));
        }
        let (env, unset) = parse_exports(&String::from_utf8_lossy(&out.stdout));
        let session = env
            .iter()
            .find(|(k, _)| k == "AXSNAP_DESKTOP_SESSION")
            .map(|(_, v)| PathBuf::from(v))
            .ok_or_else(|| fail("the session script printed no AXSNAP_DESKTOP_SESSION".into()))?;
        let mut app =
            DesktopApp { program: program.to_string(), env, unset, session, script, child: None, site };
        let log =
            std::fs::File::create(scratch.join("app.log")).map_err(|e| NoWindow(BenchError::Serve(e)))?;
        let out = log.try_clone().map_err(|e| NoWindow(BenchError::Serve(e)))?;
        let child = app
            .command(exe)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(log)
            .spawn()
            .map_err(|e| NoWindow(fail(format!("cannot start it: {e}"))))?;
        app.child = Some(child);
        app.wait_for_window(axsnap).map_err(|e| match e {
            Exited(status) => {
                let log = std::fs::read_to_string(scratch.join("app.log")).unwrap_or_default();
                Exited(format!("{status}: {}", log.trim()))
            }
            other => other,
        })?;
        Ok(app)
    }

    /// What the page of a browser app last stored (its site's state probe).
    pub fn app_state(&self) -> Option<serde_json::Value> {
        self.site.as_ref().and_then(StaticServer::app_state)
    }

    /// A command that runs `program` in the session.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        for k in &self.unset {
            cmd.env_remove(k);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// The app's window as `axsnap desktop snapshot` reads it, whole.
    pub fn window_text(&self, axsnap: &Path) -> Result<String, String> {
        let out = self
            .command(axsnap)
            .args(["desktop", "snapshot", "--app", &self.program, "--max-tokens", "0"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", axsnap.display()))?;
        if !out.status.success() {
            return Err(format!(
                "axsnap desktop snapshot failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn wait_for_window(&mut self, axsnap: &Path) -> Result<(), StartFailure> {
        let started = Instant::now();
        let mut last = String::new();
        while started.elapsed() < WINDOW_TIMEOUT {
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                return Err(StartFailure::Exited(status.to_string()));
            }
            match self.window_text(axsnap) {
                Ok(text) if text.lines().count() > 3 => return Ok(()),
                Ok(text) => last = text,
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        Err(StartFailure::NoWindow(BenchError::Workload(format!(
            "{} showed no window on the accessibility bus within {} s: {last}",
            self.program,
            WINDOW_TIMEOUT.as_secs()
        ))))
    }
}

/// Why an app did not come up.
enum StartFailure {
    /// It exited (its status).
    Exited(String),
    /// It ran but showed no window.
    NoWindow(BenchError),
}

use StartFailure::{Exited, NoWindow};

impl From<BenchError> for StartFailure {
    fn from(e: BenchError) -> StartFailure {
        NoWindow(e)
    }
}

impl Drop for DesktopApp {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = Command::new(&self.script)
            .arg("--stop")
            .arg(&self.session)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// `export K=V …;` and `unset K …;` lines, as `desktop-session --print` writes them (values
/// shell-quoted: a backslash escapes the next character, single quotes quote).
pub fn parse_exports(script: &str) -> (Vec<(String, String)>, Vec<String>) {
    let (mut env, mut unset) = (Vec::new(), Vec::new());
    for line in script.lines() {
        let words = shell_words(line.trim().trim_end_matches(';'));
        match words.split_first() {
            Some((w, rest)) if w == "export" => {
                for kv in rest {
                    if let Some((k, v)) = kv.split_once('=') {
                        env.push((k.to_string(), v.to_string()));
                    }
                }
            }
            Some((w, rest)) if w == "unset" => unset.extend(rest.iter().cloned()),
            _ => {}
        }
    }
    (env, unset)
}

fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut cur, mut in_word) = (Vec::new(), String::new(), false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cur.extend(chars.next());
                in_word = true;
            }
            '\'' => {
                cur.extend(chars.by_ref().take_while(|&q| q != '\''));
                in_word = true;
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// `text` as a desktop check compares it: refs (`[e12]`) left out, each line trimmed.
pub fn normalized(text: &str) -> String {
    text.lines()
        .map(|l| {
            let mut out = String::with_capacity(l.len());
            let mut rest = l.trim();
            while let Some(at) = rest.find("[e") {
                let tail = &rest[at + 2..];
                let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
                if digits > 0 && tail[digits..].starts_with(']') {
                    out.push_str(rest[..at].trim_end());
                    rest = &tail[digits + 1..];
                } else {
                    out.push_str(&rest[..at + 2]);
                    rest = tail;
                }
            }
            out.push_str(rest);
            out
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_session_script() {
        let (env, unset) = parse_exports(
            "export DISPLAY=:3;\nexport DBUS_SESSION_BUS_ADDRESS=unix:path=/tmp/x/dbus\\,guid=ab;\nexport A=1 B='two words';\nunset WAYLAND_DISPLAY NO_AT_BRIDGE;\n",
        );
        let get = |k: &str| env.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("DISPLAY"), Some(":3"));
        assert_eq!(get("DBUS_SESSION_BUS_ADDRESS"), Some("unix:path=/tmp/x/dbus,guid=ab"));
        assert_eq!((get("A"), get("B")), (Some("1"), Some("two words")));
        assert_eq!(unset, ["WAYLAND_DISPLAY", "NO_AT_BRIDGE"]);
    }

    #[test]
    fn a_check_ignores_refs_and_indentation() {
        let window =
            "  tablist \"Tab list\" [e90]\n    tab \"Tab\" [e92] [selected]\n      label \"page 2\"\n";
        assert!(
            normalized(window).contains("tab \"Tab\" [selected]\nlabel \"page 2\""),
            "{}",
            normalized(window)
        );
        assert_eq!(normalized("a [e] [e1x] b"), "a [e] [e1x] b");
    }
}
