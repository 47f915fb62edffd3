//! The web-app workflow: an agent drives `fixtures/webapp/ide.html` (an IDE built the way
//! single-page apps are, without ARIA roles) through axsnap's agent operations, step by step
//! with the auto answers, and picks every element it acts on by the names it was shown, with
//! the refs from the answers: never from the page's source.
//!
//! [`Driver`] is the agent's side: it keeps every answer and finds a ref the way a model
//! reads one, in the newest answer that shows the element. [`IDE_WORKFLOW`] is the 13-step
//! task (open a menu, a submenu, a dialog; type code into the editor; run; rename), each step
//! with the text its answer must hold. The `webapp-workflow` binary prints its figures beside
//! Playwright's AI snapshot of the same page at each step; `tests/webapp.rs` checks it.

use std::path::PathBuf;
use std::time::Duration;

use axsnap_agent::{Agent, AgentOptions, Step};
use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::backend::ElementAction;
use axsnap_core::session::Answer;
use axsnap_core::tokens::{count_cl100k, count_o200k};

use crate::error::BenchError;

/// What an answer cost and held.
#[derive(Clone, Debug)]
pub struct StepFigure {
    /// What the step did.
    pub label: String,
    /// `full`, `diff` or `unchanged`.
    pub kind: &'static str,
    /// Tokens of the answer's text, cl100k and o200k.
    pub cl100k: usize,
    /// o200k tokens.
    pub o200k: usize,
    /// cl100k tokens of the full snapshot at this step.
    pub full_cl100k: Option<usize>,
    /// The answer's text.
    pub text: String,
}

/// How the agent names what it acts on.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The line that starts with `role` (any role when `None`) and is named or reads `name`.
    Named(Option<&'static str>, &'static str),
    /// The code editor: the outermost `[editable]` line that is not a text field.
    Editor,
}

/// One step of a workflow.
#[derive(Clone, Copy, Debug)]
pub enum Act {
    /// A click.
    Click(Target),
    /// Typing text, first clearing the field when `clear`.
    Type(Target, &'static str, bool),
}

/// One step and what its answer must hold.
#[derive(Clone, Copy, Debug)]
pub struct WorkflowStep {
    /// What the step does, for the report.
    pub label: &'static str,
    /// The action.
    pub act: Act,
    /// Texts the answer must hold.
    pub expect: &'static [&'static str],
}

const fn click(role: Option<&'static str>, name: &'static str) -> Act {
    Act::Click(Target::Named(role, name))
}

/// The IDE task after opening the page: a new file from the File menu's New submenu, code
/// typed into the editor and run, the file renamed through a modal dialog, a setting changed
/// in another dialog.
pub const IDE_WORKFLOW: &[WorkflowStep] = &[
    WorkflowStep {
        label: "open the File menu",
        act: click(None, "File"),
        expect: &["Open Recent", "Rename…"],
    },
    WorkflowStep { label: "open its New submenu", act: click(None, "New"), expect: &["Folder"] },
    WorkflowStep { label: "New > File", act: click(None, "File"), expect: &["untitled-1.rs"] },
    WorkflowStep {
        label: "type code into the editor",
        act: Act::Type(Target::Editor, "let answer = 42;", false),
        expect: &["let answer = 42;"],
    },
    WorkflowStep {
        label: "run it (toolbar)",
        act: click(Some("button"), "Run"),
        expect: &["Ran untitled-1.rs: 1 line, 0 errors"],
    },
    WorkflowStep { label: "open the File menu", act: click(None, "File"), expect: &["Rename…"] },
    WorkflowStep {
        label: "File > Rename…", act: click(None, "Rename…"), expect: &["Rename file", "covers"]
    },
    WorkflowStep {
        label: "type the new name",
        act: Act::Type(Target::Named(Some("textbox"), "New name"), "app.rs", true),
        expect: &["app.rs"],
    },
    WorkflowStep {
        label: "confirm the rename",
        act: click(Some("button"), "Rename"),
        expect: &["Renamed untitled-1.rs to app.rs", "no longer covered"],
    },
    WorkflowStep {
        label: "open the settings dialog",
        act: click(Some("button"), "Open settings dialog"),
        expect: &["Dark mode", "covers"],
    },
    WorkflowStep {
        label: "tick Dark mode",
        act: click(Some("checkbox"), "Dark mode"),
        expect: &["+checked"],
    },
    WorkflowStep {
        label: "close the dialog",
        act: click(Some("button"), "Close"),
        expect: &["no longer covered"],
    },
];

/// The agent's side of a workflow.
pub struct Driver {
    agent: Agent<CdpBackend>,
    answers: Vec<String>,
    view: View,
}

/// Which refs the answers so far leave standing, as a model reading them would track it: a
/// full snapshot shows the page; a diff's removals and replacements take the elements (and
/// what was drawn under them) away; adds bring new ones.
#[derive(Default)]
struct View {
    parent: std::collections::HashMap<String, Option<String>>,
    children: std::collections::HashMap<String, Vec<String>>,
}

impl View {
    fn alive(&self, r: &str) -> bool {
        self.parent.contains_key(r)
    }

    fn remove(&mut self, r: &str) {
        let mut stack = vec![r.to_string()];
        while let Some(x) = stack.pop() {
            self.parent.remove(&x);
            if let Some(kids) = self.children.remove(&x) {
                stack.extend(kids);
            }
        }
    }

    fn add(&mut self, r: String, parent: Option<String>) {
        if let Some(p) = &parent {
            self.children.entry(p.clone()).or_default().push(r.clone());
        }
        self.parent.insert(r, parent);
    }

    /// Reads lines drawn as a tree (a snapshot, or a diff's subtree), `base` their indent,
    /// under `root`.
    fn read_tree<'a>(&mut self, lines: impl Iterator<Item = &'a str>, base: usize, root: Option<String>) {
        let mut path: Vec<(usize, String)> = Vec::new();
        for l in lines {
            let indent = l.len() - l.trim_start().len();
            if indent < base {
                break;
            }
            while path.last().is_some_and(|(d, _)| *d >= indent) {
                path.pop();
            }
            if let Some(r) = ref_on(l) {
                let parent = path.last().map(|(_, p)| p.clone()).or_else(|| root.clone());
                self.add(r.clone(), parent);
                path.push((indent, r));
            }
        }
    }

    /// Takes in one answer.
    fn read(&mut self, text: &str) {
        let lines: Vec<&str> = text.lines().collect();
        if lines.first().is_some_and(|l| !l.starts_with("# diff") && !l.starts_with("# no change")) {
            *self = View::default();
            self.read_tree(lines.iter().copied().filter(|l| !l.starts_with('#')), 0, None);
            return;
        }
        for (i, l) in lines.iter().enumerate() {
            let word = |k: usize| l.split(' ').nth(k).unwrap_or("").trim_end_matches(':').to_string();
            let body = || lines[i + 1..].iter().copied();
            if l.starts_with("- ") {
                self.remove(&word(1));
            } else if l.starts_with("+ under ") {
                let p = word(2);
                let parent = if p == "page" { None } else { Some(p) };
                self.read_tree(body(), 2, parent);
            } else if l.starts_with("= ") && l.ends_with("replaced by:") {
                let r = word(1);
                let parent = self.parent.get(&r).cloned().flatten();
                self.remove(&r);
                self.read_tree(body(), 2, parent);
            } else if l.starts_with("~ ") && l.contains(" is now ") {
                let (old, new) = (word(1), l.rsplit(' ').next().unwrap_or("").to_string());
                let parent = self.parent.get(&old).cloned().flatten();
                let kids = self.children.remove(&old).unwrap_or_default();
                self.parent.remove(&old);
                self.add(new.clone(), parent);
                for k in &kids {
                    self.parent.insert(k.clone(), Some(new.clone()));
                }
                self.children.insert(new, kids);
            } else if l.starts_with("> ") {
                let (r, p) = (word(1), word(3));
                self.parent.insert(r.clone(), (p != "page").then_some(p));
            }
        }
    }
}

/// The `eN` of a line's `[eN]`, or of a link line's `[name](eN)`.
fn ref_on(line: &str) -> Option<String> {
    let is_ref = |r: &str| r.len() > 1 && r.starts_with('e') && r[1..].chars().all(|c| c.is_ascii_digit());
    if let Some(start) = line.find(" [e") {
        let r = line[start + 2..].split(']').next()?;
        if is_ref(r) {
            return Some(r.to_string());
        }
    }
    let body = line.trim_start();
    let after = &body[body.find("](e").filter(|_| body.starts_with('['))? + 2..];
    let r = &after[..after.find([')', ' ']).unwrap_or(after.len())];
    is_ref(r).then(|| r.to_string())
}

impl Driver {
    /// Launches a headless Chromium (`browser`, else the one found on the machine).
    pub async fn launch(browser: Option<PathBuf>) -> Result<Driver, BenchError> {
        let opts = LaunchOptions { executable: browser, ..LaunchOptions::default() };
        let backend = CdpBackend::launch(opts).await?;
        let options = AgentOptions { capture_deadline: Duration::from_secs(20), ..AgentOptions::default() };
        Ok(Driver { agent: Agent::new(backend, None, options), answers: Vec::new(), view: View::default() })
    }

    /// The browser's DevTools WebSocket URL, for another client to read the same page.
    pub fn ws_url(&self) -> Option<String> {
        self.agent.backend_ref().browser().map(|b| b.ws_url().to_string())
    }

    /// Opens `url` in a new tab: the first answer, a full snapshot.
    pub async fn open(&mut self, url: &str) -> Result<StepFigure, BenchError> {
        let step = self.agent.open(url).await.map_err(|e| BenchError::Workflow(e.to_string()))?;
        Ok(self.record(format!("open {url}"), step))
    }

    /// The string a script expression gives on the current page (a test's view of the page
    /// itself, such as an element's `innerText`).
    pub async fn eval(&mut self, expression: &str) -> Result<String, BenchError> {
        let target =
            self.agent.target().cloned().ok_or_else(|| BenchError::Workflow("no page is open".into()))?;
        let page = self.agent.backend().page(&target).await?;
        let v = page.eval(expression).await?;
        Ok(v.as_str().map_or_else(|| v.to_string(), str::to_string))
    }

    /// Runs one step and checks its answer.
    pub async fn step(&mut self, s: &WorkflowStep) -> Result<StepFigure, BenchError> {
        let (target, action) = match s.act {
            Act::Click(t) => (t, ElementAction::Click { count: 1 }),
            Act::Type(t, text, clear) => {
                (t, ElementAction::Type { text: text.to_string(), clear, submit: false })
            }
        };
        let r = self.ref_of(target)?;
        let step = self
            .agent
            .act(&r, &action)
            .await
            .map_err(|e| BenchError::Workflow(format!("{}: {r}: {e}", s.label)))?;
        let fig = self.record(s.label.to_string(), step);
        for e in s.expect {
            if !fig.text.contains(e) {
                return Err(BenchError::Workflow(format!(
                    "{}: the answer does not hold {e:?}:\n{}",
                    s.label, fig.text
                )));
            }
        }
        Ok(fig)
    }

    /// Clicks the element named `name` (with role `role`).
    pub async fn click(
        &mut self,
        role: Option<&'static str>,
        name: &'static str,
    ) -> Result<StepFigure, BenchError> {
        self.step(&WorkflowStep { label: name, act: Act::Click(Target::Named(role, name)), expect: &[] })
            .await
    }

    /// The ref of `target` as the newest answer that shows it gives it.
    pub fn ref_of(&self, target: Target) -> Result<String, BenchError> {
        for answer in self.answers.iter().rev() {
            if let Some(r) = answer.lines().filter_map(|l| matches(l, target)).find(|r| self.view.alive(r)) {
                return Ok(r);
            }
        }
        Err(BenchError::Workflow(format!("no answer so far shows {target:?} with a ref")))
    }

    fn record(&mut self, label: String, step: Step) -> StepFigure {
        let r = &step.response;
        let kind = match r.answer {
            Answer::Full { .. } => "full",
            Answer::Diff { .. } => "diff",
            Answer::Unchanged { .. } => "unchanged",
        };
        self.answers.push(r.text.clone());
        self.view.read(&r.text);
        StepFigure {
            label,
            kind,
            cl100k: count_cl100k(&r.text),
            o200k: count_o200k(&r.text),
            full_cl100k: r.full_tokens,
            text: r.text.clone(),
        }
    }

    /// Closes the browser.
    pub async fn close(self) {
        let _ = self.agent.into_backend().close().await;
    }
}

/// Playwright's AI snapshot of the page the [`Driver`] drives (`playwright/follow.mjs`,
/// connected to the same browser over CDP), taken at each step for the side-by-side figures.
pub struct Follower {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    /// The playwright-core version.
    pub version: String,
}

impl Follower {
    /// Starts `node playwright/follow.mjs WS_URL URL_PART`.
    pub fn start(node: &std::path::Path, ws_url: &str, url_part: &str) -> Result<Follower, BenchError> {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let dir = crate::playwright::default_dir();
        let command = format!("{} follow.mjs {ws_url} {url_part}", node.display());
        let fail = |reason: String| BenchError::Playwright { command: command.clone(), reason };
        if !dir.join("node_modules/playwright-core/package.json").is_file() {
            return Err(fail(format!("no playwright-core in {}: run `npm ci` there", dir.display())));
        }
        let mut child = Command::new(node)
            .arg("follow.mjs")
            .args([ws_url, url_part])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| fail(format!("cannot start {}: {e} (install Node.js >= 20)", node.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(fail("no pipes to the script".into()));
        };
        let mut stdout = std::io::BufReader::new(stdout);
        let mut first = String::new();
        stdout.read_line(&mut first).map_err(|e| fail(e.to_string()))?;
        let v: serde_json::Value =
            serde_json::from_str(&first).map_err(|_| BenchError::PlaywrightOutput(first.clone()))?;
        let version = v.get("playwright_core").and_then(|v| v.as_str()).unwrap_or("?").to_string();
        Ok(Follower { child, stdin, stdout, version })
    }

    /// Playwright's AI snapshot of the page now.
    pub fn snapshot(&mut self) -> Result<String, BenchError> {
        use std::io::{BufRead, Write};
        writeln!(self.stdin, "snap").map_err(|e| BenchError::PlaywrightOutput(e.to_string()))?;
        let mut line = String::new();
        self.stdout.read_line(&mut line).map_err(|e| BenchError::PlaywrightOutput(e.to_string()))?;
        let v: serde_json::Value =
            serde_json::from_str(&line).map_err(|_| BenchError::PlaywrightOutput(line.clone()))?;
        match (v.get("snapshot").and_then(|s| s.as_str()), v.get("error").and_then(|s| s.as_str())) {
            (Some(s), _) => Ok(s.to_string()),
            (None, Some(e)) => Err(BenchError::PlaywrightOutput(e.to_string())),
            (None, None) => Err(BenchError::PlaywrightOutput(line)),
        }
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The ref on `line` when the line shows `target`.
fn matches(line: &str, target: Target) -> Option<String> {
    let body = line.trim_start();
    // Snapshot lines only: a diff's `- e12 …` or `~ e12 …` names an element without `[eN]`.
    let start = body.find("[e")?;
    let end = start + body[start..].find(']')?;
    let r = &body[start + 1..end];
    if !r[1..].chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let role = body.split([' ', ':']).next().unwrap_or("");
    match target {
        Target::Editor => (body.contains("[editable]")
            && !matches!(role, "textbox" | "searchbox" | "combobox")
            && body.starts_with("generic"))
        .then(|| r.to_string()),
        Target::Named(want, name) => {
            if want.is_some_and(|w| w != role) {
                return None;
            }
            let quoted = format!("\"{name}\"");
            let head = &body[..start];
            let tail = body[end..].split_once(": ").map(|(_, t)| t.trim());
            let named = head.contains(&quoted)
                || tail.is_some_and(|t| {
                    t == name || t.strip_prefix(name).is_some_and(|rest| rest.starts_with(' '))
                });
            named.then(|| r.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_are_read_from_role_lines_and_link_lines() {
        assert_eq!(ref_on("  button \"Run\" [e12] [clickable]").as_deref(), Some("e12"));
        assert_eq!(ref_on("    [Open](e7) [selected]").as_deref(), Some("e7"));
        assert_eq!(ref_on("  [Docs](e9 \"the docs\")").as_deref(), Some("e9"));
        assert_eq!(ref_on("  see [Docs](e9) here"), None);
        assert_eq!(ref_on("  code [x] here"), None);
    }

    #[test]
    fn lines_are_matched_by_role_and_name() {
        let t = Target::Named(Some("button"), "Run");
        assert_eq!(matches("  button \"Run\" [e18]", t).as_deref(), Some("e18"));
        assert_eq!(matches("    listitem [e8] [clickable]: Run", t), None);
        let any = Target::Named(None, "Run");
        assert_eq!(matches("    listitem [e8] [clickable]: Run", any).as_deref(), Some("e8"));
        assert_eq!(matches("    listitem [e8] [clickable]: Running", any), None);
        assert_eq!(matches("~ e8 listitem: +expanded", any), None);
        assert_eq!(matches("generic [e33] [editable]", Target::Editor).as_deref(), Some("e33"));
        assert_eq!(matches("textbox \"New name\" [e40]: a", Target::Editor), None);
    }
}
