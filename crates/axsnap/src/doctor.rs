//! `axsnap doctor`: what this machine has for axsnap, and what to do where it falls short, for
//! a user who just installed the binary. Each check runs the server's own code paths (the
//! browser as `axsnap mcp` finds and launches it, the desktop as it connects to it, the MCP
//! revisions from its handler), so what it says is what a session would meet.
//!
//! The verdict is the browser's: the browser tools are axsnap's main job, so a browser that
//! cannot start fails the run (exit 1); a desktop out of reach only warns, unless `--desktop`
//! asks for it.

mod browser;
mod desktop;

use std::time::Duration;

use serde_json::{json, Map, Value};

use crate::cli::{DoctorArgs, FormatArg};

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// What axsnap needs is there.
    Ok,
    /// Something is missing that only some tools need.
    Warn,
    /// The tools this run is for cannot work.
    Fail,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Warn => "warn",
            Status::Fail => "fail",
        }
    }
}

/// One check's outcome.
#[derive(Debug)]
pub struct Check {
    /// Its name, and the key of its object in the JSON form.
    name: &'static str,
    status: Status,
    /// What was found, on one line.
    summary: String,
    /// Facts that explain the status, a line each.
    details: Vec<String>,
    /// What to do, when the status is not ok.
    fix: Option<String>,
    /// What was found, for programs.
    fields: Map<String, Value>,
}

impl Check {
    fn new(name: &'static str, status: Status, summary: impl Into<String>) -> Check {
        Check { name, status, summary: summary.into(), details: Vec::new(), fix: None, fields: Map::new() }
    }

    fn fix(mut self, fix: impl Into<String>) -> Check {
        self.fix = Some(fix.into());
        self
    }

    fn detail(mut self, line: impl Into<String>) -> Check {
        self.details.push(line.into());
        self
    }

    fn field(mut self, key: &str, value: impl Into<Value>) -> Check {
        self.fields.insert(key.to_string(), value.into());
        self
    }

    fn to_json(&self) -> Value {
        let mut object = self.fields.clone();
        object.insert("status".into(), json!(self.status.as_str()));
        object.insert("summary".into(), json!(self.summary));
        object.insert("details".into(), json!(self.details));
        object.insert("fix".into(), json!(self.fix));
        Value::Object(object)
    }
}

/// Runs every check and prints the report; an error (exit 1) when the browser tools cannot
/// run here, or the desktop's with `--desktop`.
pub fn run(a: &DoctorArgs) -> anyhow::Result<()> {
    let rt = crate::live::runtime()?;
    let checks = rt.block_on(async {
        let (mut checks, desktop) = tokio::join!(browser::check(a), desktop::check(a.desktop));
        checks.push(desktop);
        checks.push(mcp());
        checks
    });
    // The trial browser is closed (or killed, on a timeout) by now; nothing left to wait for.
    rt.shutdown_timeout(Duration::from_secs(1));
    let ok = checks.iter().all(|c| c.status != Status::Fail);
    match a.format {
        FormatArg::Json => {
            let mut report = Map::new();
            report.insert("axsnap".into(), json!(env!("CARGO_PKG_VERSION")));
            report.insert("ok".into(), json!(ok));
            for c in &checks {
                report.insert(c.name.into(), c.to_json());
            }
            println!("{}", serde_json::to_string_pretty(&Value::Object(report))?);
        }
        FormatArg::Text => print!("{}", text(&checks, ok)),
    }
    if !ok {
        anyhow::bail!("doctor: axsnap cannot do its work on this machine yet (see what failed above)");
    }
    Ok(())
}

/// The report for people: a line per check, its details and fix indented under it.
fn text(checks: &[Check], ok: bool) -> String {
    const INDENT: &str = "               ";
    let mut out = format!("axsnap {} doctor\n", env!("CARGO_PKG_VERSION"));
    for c in checks {
        out.push_str(&format!("{:<5} {:<8} {}\n", c.status.as_str(), c.name, c.summary));
        for d in &c.details {
            out.push_str(&format!("{INDENT}{d}\n"));
        }
        if let Some(fix) = &c.fix {
            out.push_str(&format!("{INDENT}to fix: {fix}\n"));
        }
    }
    let warned: Vec<&str> = checks.iter().filter(|c| c.status == Status::Warn).map(|c| c.name).collect();
    out.push_str(&if !ok {
        "not ready: fix what failed above, then run `axsnap doctor` again\n".to_string()
    } else if warned.is_empty() {
        "ready: the browser tools can run here\n".to_string()
    } else {
        format!("ready: the browser tools can run here (see the warnings: {})\n", warned.join(", "))
    });
    out
}

/// What the MCP server speaks: its protocol revisions (the handler's own list) and transports.
fn mcp() -> Check {
    let versions = axsnap_mcp::protocol_versions();
    let summary = format!(
        "protocol revisions {}; transports: stdio (`axsnap mcp`) and streamable HTTP (`axsnap mcp --http \
         127.0.0.1:PORT`, path {})",
        versions.join(", "),
        axsnap_mcp::MCP_PATH
    );
    Check::new("mcp", Status::Ok, summary)
        .field("version", env!("CARGO_PKG_VERSION"))
        .field("protocol_versions", versions)
        .field("transports", vec!["stdio", "streamable-http"])
        .field("http_path", axsnap_mcp::MCP_PATH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_not_ready_and_a_warning_is_named() {
        let browser = Check::new("browser", Status::Ok, "/usr/bin/chromium");
        let desktop = Check::new("desktop", Status::Warn, "no bus").fix("start one");
        let report = text(&[browser, desktop], true);
        assert!(report.contains("warn  desktop  no bus\n"), "{report}");
        assert!(report.contains("to fix: start one\n"), "{report}");
        assert!(
            report.ends_with("ready: the browser tools can run here (see the warnings: desktop)\n"),
            "{report}"
        );
        let launch = Check::new("launch", Status::Fail, "could not start");
        assert!(text(&[launch], false)
            .ends_with("not ready: fix what failed above, then run `axsnap doctor` again\n"));
    }

    #[test]
    fn the_mcp_revisions_are_the_servers() {
        let c = mcp().to_json();
        let versions = c["protocol_versions"].as_array().map(Vec::len).unwrap_or_default();
        assert!(versions >= 2, "{c}");
        assert_eq!(c["status"], "ok");
    }
}
