//! The MCP servers a workload runs through, and how each is spoken to: its tool names, the
//! arguments of an action, and what the agent must call to see the page after an action.
//!
//! - `axsnap-auto`: `axsnap mcp` as shipped; an action's answer is the agent's view (a diff, the
//!   page, or "unchanged").
//! - `axsnap-full`: the same server, and after every action a `snapshot {mode: full}`: what a
//!   tool that re-sends the page each step costs. The step is counted at that snapshot.
//! - `playwright-mcp`: Playwright MCP (npm `@playwright/mcp`, pinned by
//!   `tests/mcp/node/package-lock.json`). Its answers link the snapshot as a file rather than
//!   hold it, so after each action the agent calls `browser_snapshot`, counted with it.
//!
//! Every arm runs the same Chromium with a 1280×720 viewport.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// One arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arm {
    /// axsnap's default answers.
    AxsnapAuto,
    /// axsnap with a full snapshot after every action.
    AxsnapFull,
    /// Playwright MCP, reading `browser_snapshot` after each action.
    PlaywrightMcp,
}

/// What the arms are started from.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The `axsnap` binary.
    pub axsnap: PathBuf,
    /// The Chromium every arm drives.
    pub chromium: PathBuf,
    /// Playwright MCP's `cli.js`.
    pub playwright_mcp: PathBuf,
}

impl Arm {
    /// Every arm, in the default order.
    pub const ALL: [Arm; 3] = [Arm::AxsnapAuto, Arm::AxsnapFull, Arm::PlaywrightMcp];

    /// Its name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Arm::AxsnapAuto => "axsnap-auto",
            Arm::AxsnapFull => "axsnap-full",
            Arm::PlaywrightMcp => "playwright-mcp",
        }
    }

    /// The arm of that name.
    pub fn parse(s: &str) -> Option<Arm> {
        Arm::ALL.into_iter().find(|a| a.name() == s)
    }

    /// Whether this arm speaks axsnap's tools.
    pub fn is_axsnap(self) -> bool {
        matches!(self, Arm::AxsnapAuto | Arm::AxsnapFull)
    }

    /// The server's command line and working folder; `out` takes the files it writes.
    pub fn command(self, tools: &Tools, out: &Path) -> (Vec<String>, Option<PathBuf>) {
        let s = |p: &Path| p.display().to_string();
        match self {
            Arm::AxsnapAuto | Arm::AxsnapFull => (
                vec![
                    s(&tools.axsnap),
                    "mcp".into(),
                    "--browser".into(),
                    s(&tools.chromium),
                    "--viewport".into(),
                    "1280x720".into(),
                ],
                None,
            ),
            Arm::PlaywrightMcp => {
                let argv = vec![
                    "node".into(),
                    s(&tools.playwright_mcp),
                    "--headless".into(),
                    "--isolated".into(),
                    "--no-sandbox".into(),
                    "--executable-path".into(),
                    s(&tools.chromium),
                    "--viewport-size".into(),
                    "1280x720".into(),
                    "--output-dir".into(),
                    s(&out.join("playwright-mcp")),
                ];
                (argv, tools.playwright_mcp.parent().map(Path::to_path_buf))
            }
        }
    }

    /// The call that opens `url`.
    pub fn open(self, url: &str) -> (&'static str, Value) {
        match self {
            Arm::PlaywrightMcp => ("browser_navigate", json!({"url": url})),
            _ => ("navigate", json!({"url": url})),
        }
    }

    /// The call that clicks `r` (described as `what`, which Playwright asks for).
    pub fn click(self, r: &str, what: &str) -> (&'static str, Value) {
        match self {
            Arm::PlaywrightMcp => ("browser_click", json!({"element": what, "target": r})),
            _ => ("click", json!({"ref": r})),
        }
    }

    /// The call that types `text` into `r`.
    pub fn type_into(self, r: &str, what: &str, text: &str, submit: bool) -> (&'static str, Value) {
        match self {
            Arm::PlaywrightMcp => {
                ("browser_type", json!({"element": what, "target": r, "text": text, "submit": submit}))
            }
            _ => ("type", json!({"ref": r, "text": text, "submit": submit})),
        }
    }

    /// The call the agent makes to see the page after an action, if it must make one.
    pub fn look_after(self, answer: &str) -> Option<(&'static str, Value)> {
        match self {
            Arm::AxsnapAuto => None,
            Arm::AxsnapFull => Some(("snapshot", json!({"mode": "full"}))),
            Arm::PlaywrightMcp => playwright_yaml(answer).is_none().then(|| ("browser_snapshot", json!({}))),
        }
    }

    /// The call that looks again without acting (after a wait).
    pub fn look(self) -> (&'static str, Value) {
        match self {
            Arm::AxsnapAuto => ("snapshot", json!({})),
            Arm::AxsnapFull => ("snapshot", json!({"mode": "full"})),
            Arm::PlaywrightMcp => ("browser_snapshot", json!({})),
        }
    }
}

/// The snapshot a Playwright MCP answer holds inline (its fenced YAML block), if any.
pub fn playwright_yaml(answer: &str) -> Option<&str> {
    let start = answer.find("```yaml\n")? + "```yaml\n".len();
    let len = answer[start..].find("\n```")?;
    Some(&answer[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_yaml_is_found() {
        for a in Arm::ALL {
            assert_eq!(Arm::parse(a.name()), Some(a));
        }
        let answer = "### Page\n- Page URL: x\n### Snapshot\n```yaml\n- link \"a\" [ref=e1]\n```\n";
        assert_eq!(playwright_yaml(answer), Some("- link \"a\" [ref=e1]"));
        assert_eq!(playwright_yaml("### Snapshot\n- [Snapshot](x.yml)"), None);
        assert!(Arm::PlaywrightMcp.look_after("- [Snapshot](x.yml)").is_some());
        assert!(Arm::PlaywrightMcp.look_after(answer).is_none());
        assert!(Arm::AxsnapAuto.look_after("").is_none());
    }
}
