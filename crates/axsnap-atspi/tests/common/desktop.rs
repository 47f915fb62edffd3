//! A private desktop session per test: its own X display (Xvfb), its own D-Bus session bus, the
//! AT-SPI bus with accessibility switched on, and apps started in it. std only.
//!
//! ```ignore
//! let desktop = Desktop::start().unwrap();
//! let app = desktop.spawn("gtk3-widget-factory", &[]).unwrap();
//! // ... read the tree on desktop.a11y_address() ...
//! app.stop().unwrap(); // SIGSTOP: the app hangs, for timeout tests
//! ```
//!
//! Nothing is shared between two `Desktop`s, so each test of a binary may start its own while
//! the others run: Xvfb picks a free display number itself (`-displayfd`; its lock files make
//! that race-free), the session bus listens in the desktop's own directory, and the AT-SPI bus
//! launcher puts its socket in the desktop's own runtime directory (`XDG_RUNTIME_DIR`).
//! Settings live in memory (`GSETTINGS_BACKEND=memory`), never in the user's dconf database.
//!
//! Processes: Xvfb, dbus-daemon and at-spi-bus-launcher share one process group, which what
//! they start (the AT-SPI bus's own dbus-daemon, at-spi2-registryd) inherits; each app gets a
//! group of its own. Dropping the `Desktop` or an `App` ends its group: SIGTERM, then SIGKILL
//! after 3 s. Each group also has a watchdog (`sh`, in a group of its own) reading a pipe from
//! this process: when the pipe closes without a word (the test binary aborted or was killed),
//! it kills the group (and removes the desktop's directory), so nothing is left either way.
//!
//! What the session needs is installed by `ensure_desktop` in `scripts/setup.sh` (scripts/test
//! calls it); when something is missing, `Desktop::start` fails and says what.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// How long each part of the session may take to start.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a process group has to exit on SIGTERM before it gets SIGKILL.
const STOP_TIMEOUT: Duration = Duration::from_secs(3);
/// The pause between two polls.
const POLL: Duration = Duration::from_millis(20);
/// The bound on one `dbus-send` call.
const CALL_TIMEOUT: Duration = Duration::from_secs(3);

/// Where distributions put the AT-SPI bus launcher (Debian's first).
const BUS_LAUNCHERS: [&str; 4] = [
    "/usr/libexec/at-spi-bus-launcher",
    "/usr/lib/at-spi2-core/at-spi-bus-launcher",
    "/usr/lib/at-spi2/at-spi-bus-launcher",
    "/usr/libexec/at-spi2/at-spi-bus-launcher",
];

/// Variables of this process's environment that would take an app out of the session.
const REMOVED_ENV: [&str; 3] = ["WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS", "DBUS_SESSION_BUS_PID"];

/// A running private desktop session; dropping it ends every process it started.
pub struct Desktop {
    dir: PathBuf,
    display: String,
    bus: String,
    a11y: String,
    /// Xvfb (the leader), dbus-daemon, at-spi-bus-launcher.
    group: Option<Group>,
    apps_started: AtomicU32,
    /// Whether to leave `dir` (and its logs) on drop.
    keep_dir: bool,
}

impl Desktop {
    /// `None` when a session can start here; else why not (which tool is missing). Tests should
    /// not skip on it: `Desktop::start` fails with the same message.
    pub fn available() -> Option<String> {
        let mut missing: Vec<String> = ["Xvfb", "dbus-daemon", "dbus-send", "sh"]
            .into_iter()
            .filter(|tool| find_in_path(tool).is_none())
            .map(|tool| format!("{tool} (not on PATH)"))
            .collect();
        if bus_launcher().is_none() {
            missing.push(format!("at-spi-bus-launcher (none of {})", BUS_LAUNCHERS.join(", ")));
        }
        if missing.is_empty() {
            return None;
        }
        Some(format!(
            "cannot start a desktop session: missing {}. scripts/test installs them \
             (ensure_desktop in scripts/setup.sh; Debian packages xvfb dbus-x11 at-spi2-core \
             libatk-adaptor)",
            missing.join(", ")
        ))
    }

    /// Starts Xvfb on a free display, a session bus, and the AT-SPI bus with accessibility on;
    /// returns once the AT-SPI bus answers. Each step has `START_TIMEOUT`; an error names the
    /// step and ends with the last lines of its log.
    pub fn start() -> Result<Desktop, String> {
        if let Some(why) = Desktop::available() {
            return Err(why);
        }
        let mut desktop = Desktop {
            dir: private_dir().map_err(|e| format!("cannot make a temporary directory: {e}"))?,
            display: String::new(),
            bus: String::new(),
            a11y: String::new(),
            group: None,
            apps_started: AtomicU32::new(0),
            keep_dir: false,
        };
        // On an error, dropping `desktop` ends what had started; its logs stay.
        if let Err(e) = desktop.boot() {
            desktop.keep_dir = true;
            return Err(e);
        }
        Ok(desktop)
    }

    fn boot(&mut self) -> Result<(), String> {
        // Xvfb writes the display number it took to fd 1 once it accepts clients. `-noreset`:
        // an X server resets when its last client leaves (the AT-SPI bus launcher does, at
        // start), and an app that connects then can fail ("cannot open display", seen twice).
        let log = self.dir.join("xvfb.log");
        let mut xvfb = Command::new("Xvfb")
            .args(["-displayfd", "1", "-noreset", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file(&log)?)
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run Xvfb: {e}"))?;
        let out = xvfb.stdout.take().expect("piped stdout");
        let pgid = xvfb.id();
        self.group = Some(
            Group::new(xvfb, Some(&self.dir)).map_err(|e| format!("cannot start a watchdog (sh): {e}"))?,
        );
        let number = first_line(out, "its display number", START_TIMEOUT)
            .map_err(|why| format!("Xvfb {why}{}", log_tail(&log)))?;
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("Xvfb gave {number:?} for a display number{}", log_tail(&log)));
        }
        self.display = format!(":{number}");

        // A session bus listening in our directory; it prints its address once it listens.
        let log = self.dir.join("dbus.log");
        let listen = format!("--address=unix:dir={}", self.dir.display());
        let mut dbus = self
            .daemon_command("dbus-daemon")
            .args(["--session", "--nofork", "--nopidfile", "--print-address=1", &listen])
            .stdout(Stdio::piped())
            .stderr(log_file(&log)?)
            .process_group(pgid as i32)
            .spawn()
            .map_err(|e| format!("cannot run dbus-daemon: {e}"))?;
        let out = dbus.stdout.take().expect("piped stdout");
        self.group_mut().members.push(dbus);
        self.bus = first_line(out, "its address", START_TIMEOUT)
            .map_err(|why| format!("dbus-daemon {why}{}", log_tail(&log)))?;

        // The AT-SPI bus launcher, which starts the AT-SPI bus at once.
        let log = self.dir.join("at-spi.log");
        let launcher = self
            .daemon_command(bus_launcher().expect("checked by available()"))
            .arg("--launch-immediately")
            .env("DBUS_SESSION_BUS_ADDRESS", &self.bus)
            .stdout(log_file(&log)?)
            .stderr(log_file(&log)?)
            .process_group(pgid as i32)
            .spawn()
            .map_err(|e| format!("cannot run at-spi-bus-launcher: {e}"))?;
        let launcher_pid = launcher.id();
        self.group_mut().members.push(launcher);

        // Call the launcher only once it owns its name: a call to org.a11y.Bus while nobody owns
        // it would make the bus start a second launcher through D-Bus activation.
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let owned = dbus_send(
                &self.bus,
                &[
                    "--dest=org.freedesktop.DBus",
                    "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner",
                    "string:org.a11y.Bus",
                ],
            );
            if owned.is_ok_and(|reply| reply.contains("true")) {
                break;
            }
            if !process_alive(launcher_pid) {
                return Err(format!("at-spi-bus-launcher exited{}", log_tail(&log)));
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "at-spi-bus-launcher did not take the name org.a11y.Bus within {START_TIMEOUT:?}{}",
                    log_tail(&log)
                ));
            }
            thread::sleep(POLL);
        }
        dbus_send(
            &self.bus,
            &[
                "--dest=org.a11y.Bus",
                "/org/a11y/bus",
                "org.freedesktop.DBus.Properties.Set",
                "string:org.a11y.Status",
                "string:IsEnabled",
                "variant:boolean:true",
            ],
        )
        .map_err(|e| format!("cannot switch accessibility on (org.a11y.Status.IsEnabled): {e}"))?;

        // The AT-SPI bus is up once the launcher gives its address and the bus itself answers.
        loop {
            let last_error = match dbus_send(
                &self.bus,
                &["--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
            ) {
                Ok(reply) if !reply.trim().is_empty() => {
                    let address = reply.trim();
                    match dbus_send(
                        address,
                        &[
                            "--dest=org.freedesktop.DBus",
                            "/org/freedesktop/DBus",
                            "org.freedesktop.DBus.GetId",
                        ],
                    ) {
                        Ok(_) => {
                            self.a11y = address.to_string();
                            return Ok(());
                        }
                        Err(e) => format!("the AT-SPI bus at {address}: {e}"),
                    }
                }
                Ok(_) => "GetAddress gave an empty address".to_string(),
                Err(e) => format!("GetAddress: {e}"),
            };
            if Instant::now() >= deadline {
                return Err(format!(
                    "the AT-SPI bus did not answer within {START_TIMEOUT:?} ({last_error}){}",
                    log_tail(&log)
                ));
            }
            thread::sleep(POLL);
        }
    }

    /// What an app started in this session needs: the display, the session bus, the private
    /// runtime directory, and what turns accessibility on in GTK, Qt and Chromium (which also
    /// needs `--force-renderer-accessibility`); plus a fixed theme, renderer and locale, so trees
    /// are the same on every machine. GTK 4 gets the cairo renderer: with its GL renderer on
    /// Xvfb's software GL, gtk4-widget-factory was still not on the AT-SPI bus after 50 s.
    /// [`Desktop::command`] also removes `REMOVED_ENV` (Wayland, a foreign AT-SPI bus).
    pub fn env(&self) -> Vec<(String, String)> {
        let runtime = self.runtime_dir().to_string_lossy().into_owned();
        [
            ("DISPLAY", self.display.as_str()),
            ("DBUS_SESSION_BUS_ADDRESS", self.bus.as_str()),
            ("XDG_RUNTIME_DIR", runtime.as_str()),
            ("GSETTINGS_BACKEND", "memory"),
            ("GDK_BACKEND", "x11"),
            ("QT_QPA_PLATFORM", "xcb"),
            ("NO_AT_BRIDGE", "0"),
            ("GTK_A11Y", "atspi"),
            ("ACCESSIBILITY_ENABLED", "1"),
            ("QT_ACCESSIBILITY", "1"),
            ("GTK_THEME", "Adwaita"),
            ("GSK_RENDERER", "cairo"),
            ("LC_ALL", "C.UTF-8"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    /// The X display, like `:3`.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The session bus's address.
    pub fn session_bus(&self) -> &str {
        &self.bus
    }

    /// The AT-SPI bus's address, as the launcher gave it (`org.a11y.Bus.GetAddress`) once the bus
    /// answered.
    pub fn a11y_address(&self) -> String {
        self.a11y.clone()
    }

    /// The desktop's temporary directory: logs (`xvfb.log`, `dbus.log`, `at-spi.log`, `apps/`),
    /// sockets. Removed on drop, unless the thread is panicking (a failed test keeps its logs);
    /// a `start` that failed keeps it too.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The process group of Xvfb, dbus-daemon, at-spi-bus-launcher and what they started.
    pub fn pgid(&self) -> u32 {
        self.group.as_ref().map_or(0, |g| g.pgid)
    }

    /// The processes this desktop started itself: `("Xvfb", pid)`, `("dbus-daemon", pid)`,
    /// `("at-spi-bus-launcher", pid)`.
    pub fn pids(&self) -> Vec<(&'static str, u32)> {
        let names = ["Xvfb", "dbus-daemon", "at-spi-bus-launcher"];
        let members = self.group.as_ref().map(|g| g.members.as_slice()).unwrap_or_default();
        names.into_iter().zip(members.iter().map(Child::id)).collect()
    }

    /// A command for `program` in this session: its environment (`env()`, less `REMOVED_ENV`),
    /// stdin from /dev/null. Start it with [`Desktop::spawn_command`].
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        for name in REMOVED_ENV {
            cmd.env_remove(name);
        }
        cmd.envs(self.env()).stdin(Stdio::null());
        cmd
    }

    /// Starts `program args` in this session (see [`Desktop::command`]); its stdout and stderr
    /// go to a log file in `dir()/apps`.
    pub fn spawn(&self, program: &str, args: &[&str]) -> io::Result<App> {
        let mut cmd = self.command(program);
        cmd.args(args);
        self.spawn_command(cmd)
    }

    /// Starts `cmd` (from [`Desktop::command`], with more arguments or variables) in a process
    /// group of its own, with its stdout and stderr to a log file in `dir()/apps`.
    pub fn spawn_command(&self, mut cmd: Command) -> io::Result<App> {
        let program = cmd.get_program().to_string_lossy().into_owned();
        let name =
            Path::new(&program).file_name().map_or(program.clone(), |n| n.to_string_lossy().into_owned());
        let apps = self.dir.join("apps");
        fs::create_dir_all(&apps)?;
        let n = self.apps_started.fetch_add(1, Ordering::Relaxed);
        let log = apps.join(format!("{n}-{name}.log"));
        let out = File::create(&log)?;
        let child = cmd.stdout(out.try_clone()?).stderr(out).process_group(0).spawn()?;
        let pid = child.id();
        Ok(App { name, pid, log, group: Some(Group::new(child, None)?) })
    }

    fn runtime_dir(&self) -> PathBuf {
        self.dir.join("runtime")
    }

    fn group_mut(&mut self) -> &mut Group {
        self.group.as_mut().expect("the group starts with Xvfb")
    }

    /// A command for one of the session's own daemons.
    fn daemon_command(&self, program: &str) -> Command {
        let mut cmd = Command::new(program);
        for name in REMOVED_ENV.iter().chain(&["DBUS_SESSION_BUS_ADDRESS"]) {
            cmd.env_remove(name);
        }
        cmd.env("DISPLAY", &self.display)
            .env("XDG_RUNTIME_DIR", self.runtime_dir())
            .env("GSETTINGS_BACKEND", "memory")
            .stdin(Stdio::null());
        cmd
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        // Dropping the group ends it.
        self.group = None;
        if thread::panicking() || self.keep_dir {
            eprintln!("desktop session {}: logs kept in {}", self.display, self.dir.display());
        } else {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

/// An app started in a [`Desktop`], in a process group of its own; dropping it ends the group.
pub struct App {
    name: String,
    pid: u32,
    log: PathBuf,
    group: Option<Group>,
}

impl App {
    /// Its process id (also its process group's).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The program's file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Where its stdout and stderr go.
    pub fn log_path(&self) -> &Path {
        &self.log
    }

    /// What it wrote so far.
    pub fn log(&self) -> String {
        fs::read(&self.log).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
    }

    /// Whether it still runs (a stopped app does).
    pub fn is_running(&self) -> bool {
        self.group.is_some() && process_alive(self.pid)
    }

    /// Stops its whole process group (SIGSTOP), so it hangs: it answers no D-Bus call until
    /// [`App::cont`].
    pub fn stop(&self) -> io::Result<()> {
        self.signal("STOP")
    }

    /// Continues it after [`App::stop`] (SIGCONT).
    pub fn cont(&self) -> io::Result<()> {
        self.signal("CONT")
    }

    /// Ends its process group (SIGTERM, then SIGKILL after 3 s; a stopped app too) and reaps it.
    pub fn kill(&mut self) {
        // Dropping the group ends it.
        self.group = None;
    }

    fn signal(&self, signal: &str) -> io::Result<()> {
        match &self.group {
            Some(group) => group.signal(signal),
            None => Err(io::Error::other(format!("{} was killed", self.name))),
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A process group this module started: the children of ours in it (the first is the leader,
/// whose pid is the group's id), and its watchdog. Dropping it ends the group.
struct Group {
    pgid: u32,
    members: Vec<Child>,
    watchdog: Option<(Child, ChildStdin)>,
}

impl Group {
    /// The group led by `leader`; its watchdog also removes `dir`, if given.
    fn new(leader: Child, dir: Option<&Path>) -> io::Result<Group> {
        let pgid = leader.id();
        let mut group = Group { pgid, members: vec![leader], watchdog: None };
        // On an error, dropping `group` ends the leader.
        group.watchdog = Some(watchdog(pgid, dir)?);
        Ok(group)
    }

    /// Sends `signal` (a name: TERM, STOP, ...) to every process in the group.
    fn signal(&self, signal: &str) -> io::Result<()> {
        let status = Command::new("sh")
            .args(["-c", "kill -s \"$1\" -- \"-$2\" 2>/dev/null", "sh", signal, &self.pgid.to_string()])
            .stdin(Stdio::null())
            .status()?;
        if status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!("kill -s {signal} -- -{} failed", self.pgid)))
        }
    }

    /// Ends the group: SIGTERM (and SIGCONT, for stopped members) to all of it, up to
    /// `STOP_TIMEOUT` for our children to exit, then SIGKILL to what is left; reaps our children.
    /// Our children are reaped only at the end, so the group's id can't have been reused by then.
    fn end(&mut self) {
        if let Some((mut child, mut stdin)) = self.watchdog.take() {
            // A line tells it to exit without killing.
            let _ = stdin.write_all(b"\n");
            drop(stdin);
            let _ = child.wait();
        }
        let _ = self.signal("TERM");
        let _ = self.signal("CONT");
        let deadline = Instant::now() + STOP_TIMEOUT;
        while Instant::now() < deadline && self.members.iter().any(|c| process_alive(c.id())) {
            thread::sleep(POLL);
        }
        let _ = self.signal("KILL");
        for child in &mut self.members {
            let _ = child.wait();
        }
        // A member that is not our child (the bus daemon dbus-launch forks) dies of the SIGKILL
        // a moment later; on a busy machine, later than our children's reaping. The group is
        // ended when none of it is left.
        let deadline = Instant::now() + STOP_TIMEOUT;
        while Instant::now() < deadline && !group_members(self.pgid).is_empty() {
            thread::sleep(POLL);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.end();
    }
}

/// A shell in a process group of its own that waits for a line on its stdin: a line (or its
/// being killed) lets it exit quietly; end of input (this process died without ending the
/// group) makes it SIGKILL group `pgid` and remove `dir`.
fn watchdog(pgid: u32, dir: Option<&Path>) -> io::Result<(Child, ChildStdin)> {
    let script =
        "read -r line || { kill -s KILL -- \"-$1\" 2>/dev/null; [ -z \"$2\" ] || rm -rf -- \"$2\"; }";
    let mut child = Command::new("sh")
        .args(["-c", script, "axsnap-watchdog"])
        .arg(pgid.to_string())
        .arg(dir.map_or(Default::default(), Path::as_os_str))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()?;
    let stdin = child.stdin.take().expect("piped stdin");
    Ok((child, stdin))
}

/// Runs `cmd` (stdin from /dev/null, output captured), killing it if it takes over `timeout`.
pub fn output_within(cmd: &mut Command, timeout: Duration) -> Result<Output, String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let stdout = read_to_end_in_thread(child.stdout.take().expect("piped stdout"));
    let stderr = read_to_end_in_thread(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{program} did not finish within {timeout:?}"));
            }
            Err(e) => return Err(format!("waiting for {program}: {e}")),
        }
    };
    Ok(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    })
}

/// One method call with `dbus-send --print-reply=literal` on the bus at `address`; its reply,
/// or why not.
pub fn dbus_send(address: &str, args: &[&str]) -> Result<String, String> {
    let mut cmd = Command::new("dbus-send");
    cmd.arg(format!("--bus={address}")).args(["--print-reply=literal", "--reply-timeout=2000"]).args(args);
    let output = output_within(&mut cmd, CALL_TIMEOUT)?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!("dbus-send {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim()))
    }
}

/// Whether process `pid` exists and has not exited (a zombie has).
pub fn process_alive(pid: u32) -> bool {
    proc_stat(pid).is_some_and(|(state, _)| state != 'Z' && state != 'X')
}

/// The live processes of process group `pgid`: `(pid, name)`.
pub fn group_members(pgid: u32) -> Vec<(u32, String)> {
    let Ok(entries) = fs::read_dir("/proc") else { return Vec::new() };
    let mut members: Vec<(u32, String)> = entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| proc_stat(pid).is_some_and(|(state, pg)| pg == pgid && state != 'Z' && state != 'X'))
        .map(|pid| {
            let name = fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            (pid, name.trim().to_string())
        })
        .collect();
    members.sort();
    members
}

/// A process's state letter and process group, from /proc/PID/stat.
fn proc_stat(pid: u32) -> Option<(char, u32)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
    let state = fields.next()?.chars().next()?;
    let pgrp = fields.nth(1)?.parse().ok()?;
    Some((state, pgrp))
}

fn read_to_end_in_thread(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// The first line a daemon writes on `pipe` (`what` it tells), trimmed, within `timeout`; or why
/// not, to follow the daemon's name. The pipe is then drained until the daemon closes it, so a
/// later write can't fail.
fn first_line(pipe: impl Read + Send + 'static, what: &str, timeout: Duration) -> Result<String, String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut line = String::new();
        let _ = reader.read_line(&mut line);
        let _ = tx.send(line);
        let _ = io::copy(&mut reader, &mut io::sink());
    });
    match rx.recv_timeout(timeout) {
        Ok(line) if !line.trim().is_empty() => Ok(line.trim().to_string()),
        Ok(_) | Err(mpsc::RecvTimeoutError::Disconnected) => Err(format!("exited before it wrote {what}")),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!("did not write {what} within {timeout:?}")),
    }
}

/// A fresh directory only we can read, under the system's temporary directory.
fn private_dir() -> io::Result<PathBuf> {
    static STARTED: AtomicU32 = AtomicU32::new(0);
    loop {
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("axsnap-desktop-{}-{n}", std::process::id()));
        match fs::DirBuilder::new().mode(0o700).create(&dir) {
            // A directory left by an earlier process with the same pid: take the next name.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
            Ok(()) => {
                fs::DirBuilder::new().mode(0o700).create(dir.join("runtime"))?;
                return Ok(dir);
            }
        }
    }
}

fn log_file(path: &Path) -> Result<File, String> {
    File::options()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot create {}: {e}", path.display()))
}

/// The last lines of a log, to end an error message with.
fn log_tail(path: &Path) -> String {
    let text = fs::read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return format!(" ({} is empty)", path.display());
    }
    let last = &lines[lines.len().saturating_sub(10)..];
    format!("; the end of {}:\n    {}", path.display(), last.join("\n    "))
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

fn bus_launcher() -> Option<&'static str> {
    BUS_LAUNCHERS
        .into_iter()
        .find(|path| fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}
