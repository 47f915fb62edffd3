//! Launching a desktop app and finding its first window: an app is named by its desktop
//! entry (`org.gnome.Calculator`, `libreoffice-calc`, or the entry's `Name`, "LibreOffice
//! Calc"), by a command on `PATH` (`gtk3-widget-factory`), or by a path. The app runs in the
//! caller's desktop session (its `DISPLAY` and session bus), detached from the caller, and is
//! left running; the window it shows first on the accessibility bus is the answer.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use axsnap_core::TargetId;

use crate::backend::AtspiBackend;
use crate::error::AtspiError;

/// How often the bus is asked for the new window.
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
    /// That window's app, as the bus names it.
    pub app: String,
    /// That window's title.
    pub title: String,
}

/// Launches `app` with `args` and waits up to `timeout` for a window that was not on the bus
/// before. An app that hands its work to a running instance (LibreOffice, many GNOME apps)
/// exits at once: the window the running instance opens is still the answer.
pub async fn launch(
    backend: &mut AtspiBackend,
    app: &str,
    args: &[String],
    timeout: Duration,
) -> Result<Launched, AtspiError> {
    let mut argv = resolve(app)?;
    argv.extend(args.iter().cloned());
    let before: Vec<String> = backend.listing().await?.windows.into_iter().map(|w| w.id).collect();
    let failed = |reason: String| AtspiError::LaunchFailed { app: app.to_string(), reason };
    let (exe, rest) = argv.split_first().ok_or_else(|| failed("its desktop entry runs nothing".into()))?;
    // Its output goes to a log of its own: a pipe nobody reads would stall it, or end it once
    // this call returned.
    let log_path = std::env::temp_dir().join(format!("axsnap-launch-{}-{}.log", std::process::id(), stamp()));
    let log = std::fs::File::create(&log_path).map_err(|e| failed(format!("cannot write its log: {e}")))?;
    let log_err = log.try_clone().map_err(|e| failed(format!("cannot write its log: {e}")))?;
    let mut cmd = Command::new(exe);
    cmd.args(rest).stdin(Stdio::null()).stdout(log).stderr(log_err);
    // Its own process group: a signal to the server's group does not end the app.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().map_err(|e| failed(format!("cannot start {exe}: {e}")))?;
    let pid = child.id();
    let started = Instant::now();
    let outcome = loop {
        let listing = match backend.listing().await {
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
        if let Ok(Some(status)) = child.try_wait() {
            if !status.success() {
                let log = std::fs::read_to_string(&log_path).unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(3).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                break Err(failed(format!("it exited ({status}) without a window: {}", tail.join(" / "))));
            }
        }
        if started.elapsed() >= timeout {
            break Err(failed(format!(
                "it is running (pid {pid}) but showed no window on the accessibility bus within {} s; \
                 call desktop_windows later, or check that it exposes accessibility (its output is in {})",
                timeout.as_secs(),
                log_path.display()
            )));
        }
        tokio::time::sleep(POLL).await;
    };
    // The app outlives the call; its exit is waited for so it leaves no zombie behind.
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    outcome
}

/// A number that tells this launch's log from the others of this process.
fn stamp() -> u64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The command line `app` names: a path, a desktop entry, or a command on `PATH`.
pub fn resolve(app: &str) -> Result<Vec<String>, AtspiError> {
    let app = app.trim();
    let missing = |reason: String| AtspiError::LaunchFailed { app: app.to_string(), reason };
    if app.is_empty() {
        return Err(missing("no app named".into()));
    }
    if app.contains('/') {
        let p = Path::new(app);
        return if p.is_file() {
            Ok(vec![app.to_string()])
        } else {
            Err(missing(format!("{app} is not a file")))
        };
    }
    if let Some(exec) = desktop_entry(app) {
        return Ok(exec);
    }
    if let Some(p) = on_path(app) {
        return Ok(vec![p.display().to_string()]);
    }
    Err(missing(
        "no desktop entry (in the XDG data dirs' applications folders) and no command on PATH has that name; \
         name a desktop entry (libreoffice-calc), its Name (LibreOffice Calc), or a command"
            .into(),
    ))
}

/// The folders desktop entries live in, by the XDG base directory rules.
fn entry_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    match std::env::var_os("XDG_DATA_HOME") {
        Some(d) if !d.is_empty() => dirs.push(PathBuf::from(d)),
        _ => {
            if let Some(home) = std::env::var_os("HOME") {
                dirs.push(PathBuf::from(home).join(".local/share"));
            }
        }
    }
    let data = std::env::var("XDG_DATA_DIRS").ok().filter(|d| !d.is_empty());
    let data = data.unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    dirs.extend(data.split(':').filter(|d| !d.is_empty()).map(PathBuf::from));
    dirs.into_iter().map(|d| d.join("applications")).collect()
}

/// The `Exec` line of the desktop entry `app` names (its file id, or its `Name`), split.
fn desktop_entry(app: &str) -> Option<Vec<String>> {
    let id = app.strip_suffix(".desktop").unwrap_or(app);
    let dirs = entry_dirs();
    for d in &dirs {
        if let Ok(text) = std::fs::read_to_string(d.join(format!("{id}.desktop"))) {
            if let Some(exec) = parse_entry(&text).map(|(_, exec)| exec) {
                return Some(exec);
            }
        }
    }
    // By the name people see, in any case.
    for d in &dirs {
        let Ok(entries) = std::fs::read_dir(d) else { continue };
        for e in entries.flatten() {
            let Ok(text) = std::fs::read_to_string(e.path()) else { continue };
            if let Some((name, exec)) = parse_entry(&text) {
                if name.eq_ignore_ascii_case(app) {
                    return Some(exec);
                }
            }
        }
    }
    None
}

/// A desktop entry's `Name` and its `Exec` split into words, field codes left out.
fn parse_entry(text: &str) -> Option<(String, Vec<String>)> {
    let mut in_entry = false;
    let (mut name, mut exec) = (None, None);
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_entry = line == "[Desktop Entry]";
            continue;
        }
        if !in_entry {
            continue;
        }
        if let Some(v) = line.strip_prefix("Name=") {
            name.get_or_insert_with(|| v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("Exec=") {
            exec.get_or_insert_with(|| split_exec(v));
        }
    }
    let exec = exec.filter(|e: &Vec<String>| !e.is_empty())?;
    Some((name.unwrap_or_default(), exec))
}

/// An `Exec` value's words: double quotes group, `\` escapes within them, field codes (`%f`,
/// `%U`, ...) go, and `%%` is a `%`.
fn split_exec(v: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if quoted => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            c if c.is_whitespace() && !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            // A field code (`%f`, `%U`) stands for files or URLs the caller passes: none here.
            '%' => {
                if chars.next() == Some('%') {
                    word.push('%');
                }
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words.retain(|w| !w.is_empty());
    words
}

/// `name` found on `PATH`, if it is an executable file there.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            p.is_file()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_lines_split_as_the_spec_says() {
        assert_eq!(split_exec("libreoffice --calc %U"), ["libreoffice", "--calc"]);
        assert_eq!(split_exec("\"/opt/My App/run\" --flag=\"a b\" %f"), ["/opt/My App/run", "--flag=a b"]);
        assert_eq!(split_exec("echo 100%% done"), ["echo", "100%", "done"]);
        assert_eq!(split_exec("  "), Vec::<String>::new());
    }

    #[test]
    fn an_entry_gives_its_name_and_command() {
        let text = "# c\n[Desktop Entry]\nName=LibreOffice Calc\nName[fr]=Calc\nExec=libreoffice --calc %U\n\
                    [Desktop Action New]\nExec=libreoffice --calc private:factory/scalc\n";
        let (name, exec) = parse_entry(text).expect("an entry");
        assert_eq!(name, "LibreOffice Calc");
        assert_eq!(exec, ["libreoffice", "--calc"]);
        assert!(parse_entry("[Desktop Entry]\nName=Nothing\n").is_none());
    }

    #[test]
    fn names_resolve_to_commands_or_say_what_to_name() {
        assert!(resolve("sh").expect("sh is on PATH")[0].ends_with("/sh"));
        assert_eq!(resolve("/bin/sh").unwrap(), ["/bin/sh"]);
        for bad in ["", "no-such-app-anywhere-here", "/no/such/file"] {
            let e = resolve(bad).expect_err(bad);
            assert!(matches!(e, AtspiError::LaunchFailed { .. }), "{e}");
        }
        let e = resolve("no-such-app-anywhere-here").unwrap_err().to_string();
        assert!(e.contains("desktop entry") && e.contains("PATH"), "{e}");
    }
}
