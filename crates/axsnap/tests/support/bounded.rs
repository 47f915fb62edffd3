//! The real `axsnap` binary run with a bound on its time: killed past it, both pipes read on
//! threads so a large answer cannot block it.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A finished run.
pub struct Finished {
    /// It exited with success.
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `axsnap args` with `envs` set, killing it after `secs` seconds (an error then).
pub fn run(args: &[String], envs: &[(&str, &str)], secs: u64) -> Result<Finished, String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_axsnap"));
    cmd.args(args).envs(envs.iter().copied());
    run_command(cmd, secs)
}

/// Runs `cmd` (the binary with its arguments and environment set), killing it after `secs`
/// seconds (an error then).
pub fn run_command(mut cmd: Command, secs: u64) -> Result<Finished, String> {
    let start = Instant::now();
    let args: Vec<String> = cmd.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start axsnap: {e}"))?;
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let mut err = child.stderr.take().ok_or("no stderr")?;
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let deadline = start + Duration::from_secs(secs);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("`axsnap {}` took more than {secs} s", args.join(" ")));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    Ok(Finished { ok: status.success(), stdout, stderr, elapsed })
}
