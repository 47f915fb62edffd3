//! One run of one workload through one arm: the app started fresh, the arm's server started,
//! the page opened, each step resolved against what the arm has shown and acted on with its
//! refs, every answer measured, and the task checked on the app at the end.

use std::path::Path;
use std::time::Duration;

use axsnap_core::tokens::Size;
use serde::Serialize;

use crate::agent_browser::AgentBrowserOptions;
use crate::apps::RunningApp;
use crate::arm_server::{ArmServer, Transcript};
use crate::arms::{Arm, Call, Tools};
use crate::error::BenchError;
use crate::mcp_client::{Answer, McpServer};
use crate::view::View;
use crate::workload::{Step, Target, Workload};

/// The longest any one call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(90);

/// How many times the agent looks again for a target it has not been shown yet.
const PATIENCE: usize = 3;

/// How long it waits before each of those looks.
const LOOK_PAUSE: Duration = Duration::from_secs(2);

/// One step as the agent paid for it.
#[derive(Clone, Debug, Serialize)]
pub struct StepRecord {
    /// What the step did (`open /tree`, `click link "next"`).
    pub label: String,
    /// Bytes of every answer the step took (the action's and any look after it), in the text
    /// view (text content only).
    pub bytes: usize,
    /// cl100k_base tokens of the text view.
    pub tokens_cl100k: usize,
    /// o200k_base tokens of the text view.
    pub tokens_o200k: usize,
    /// The same answers in the structured-first view (what Claude Code, Codex and OpenCode
    /// give the model: an answer's `structuredContent` as JSON when it carries it and is no
    /// error, else its text; [`crate::client_view`]): bytes.
    pub structured_first_bytes: usize,
    /// cl100k_base tokens of the structured-first view.
    pub structured_first_tokens_cl100k: usize,
    /// o200k_base tokens of the structured-first view.
    pub structured_first_tokens_o200k: usize,
    /// How many of the step's answers carried `structuredContent`.
    pub structured_answers: usize,
    /// Tool time, summed over the step's calls, in milliseconds.
    pub latency_ms: f64,
    /// Each call's tool time, in milliseconds (a fill and its Enter are two).
    pub calls_ms: Vec<f64>,
    /// The answer's kind where the server says it (axsnap: full, diff, unchanged, outline).
    pub kind: String,
}

/// One run.
#[derive(Clone, Debug, Serialize)]
pub struct RunRecord {
    /// The workload's name.
    pub workload: String,
    /// The arm's name.
    pub arm: String,
    /// Which run (0-based).
    pub run: usize,
    /// The server's name and version, as it said.
    pub server: String,
    /// The steps, the opening first.
    pub steps: Vec<StepRecord>,
    /// Whether every step was done and the check held.
    pub success: bool,
    /// Why not.
    pub failure: Option<String>,
}

impl RunRecord {
    /// A run that failed before its first step (the app or the server did not start).
    pub fn not_started(w: &Workload, arm: Arm, run: usize, why: String) -> RunRecord {
        RunRecord {
            workload: w.name.clone(),
            arm: arm.name().to_string(),
            run,
            server: String::new(),
            steps: Vec::new(),
            success: false,
            failure: Some(format!("did not start: {why}")),
        }
    }
}

/// Runs `w` once through `arm`; `out` holds this run's scratch files.
pub async fn run_once(
    w: &Workload,
    arm: Arm,
    run: usize,
    tools: &Tools,
    out: &Path,
) -> Result<RunRecord, BenchError> {
    let scratch = out.join(format!("{}-{}-{run}", w.name, arm.name()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(BenchError::Serve)?;
    let app = RunningApp::start(&w.app, &w.start, &scratch, w.check.storage.is_some(), tools)?;
    let server = match arm.command(tools, &scratch, app.desktop().is_some()) {
        Some((argv, cwd)) => {
            let mut env: Vec<(&str, &str)> = arm.env();
            if let Some(d) = app.desktop() {
                env.extend(d.env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            }
            ArmServer::Mcp(Box::new(McpServer::start(&argv, cwd.as_deref(), &env, CALL_TIMEOUT).await?))
        }
        None => {
            let mut opts = AgentBrowserOptions::new(tools.chromium.clone());
            opts.binary = tools.agent_browser.clone();
            opts.timeout = CALL_TIMEOUT;
            ArmServer::shell(&opts)?
        }
    };
    let transcript = Transcript(scratch.join("transcript.md"));
    let mut rec = RunRecord {
        workload: w.name.clone(),
        arm: arm.name().to_string(),
        run,
        server: match peer_version(arm, tools) {
            Some(v) => format!("{v} ({})", server.name()),
            None => server.name(),
        },
        steps: Vec::new(),
        success: false,
        failure: None,
    };
    let outcome = steps(w, arm, &app, &server, &transcript, &mut rec).await;
    if w.check.storage.is_some() {
        // The page reports its storage every 250 ms (`state_probe`): a fast arm may end the
        // run before the last change was reported. Three reports' time, then the browser
        // may go.
        tokio::time::sleep(Duration::from_millis(750)).await;
    }
    server.stop().await;
    match outcome {
        Ok(()) => match crate::check::check(&w.check, &app, &tools.axsnap) {
            Ok(()) => rec.success = true,
            Err(why) => rec.failure = Some(why),
        },
        Err(why) => rec.failure = Some(why),
    }
    Ok(rec)
}

/// The steps; an `Err` is the arm's failure at that step.
async fn steps(
    w: &Workload,
    arm: Arm,
    app: &RunningApp,
    server: &ArmServer,
    transcript: &Transcript,
    rec: &mut RunRecord,
) -> Result<(), String> {
    let mut view = View::default();
    let mut server = Session { server, transcript, arm, aim: None };
    let server = &mut server;
    let mut opening = Vec::new();
    let (label, first) = match app.desktop() {
        Some(d) => {
            let (aim, looked) = find_window(server, &d.program).await?;
            opening = looked;
            server.aim = Some(aim);
            let (tool, args) = arm.open(&d.program);
            (format!("open {}", d.program), call(server, tool, args).await?)
        }
        None => {
            let (tool, args) = arm.open(&app.url(&w.start));
            (format!("open {}", w.start), call(server, tool, args).await?)
        }
    };
    let server = &*server;
    let mut answers = look_after(arm, server, first, &mut view).await?;
    // The text of the last step's answers: what a `read` step reads.
    let mut shown = texts(&answers);
    answers.extend(opening);
    rec.steps.push(record(label, &answers));
    for (i, step) in w.steps.iter().enumerate() {
        let label = step.label();
        // Looks the agent took before acting, counted with the step.
        let mut extra: Vec<Answer> = Vec::new();
        let calls: Vec<Call> = match step {
            Step::Wait { ms } => {
                tokio::time::sleep(Duration::from_millis(*ms)).await;
                vec![arm.look()]
            }
            Step::Read { text } => {
                // Shown by the last step, or by a look after a pause, as for a target.
                for _ in 0..PATIENCE {
                    if holds(&shown, text) {
                        break;
                    }
                    tokio::time::sleep(LOOK_PAUSE).await;
                    let (tool, args) = arm.look();
                    let look = call(server, tool, args).await?;
                    read(arm, &look, &mut view);
                    shown = look.text.clone();
                    extra.push(look);
                }
                if !holds(&shown, text) {
                    return Err(format!(
                        "step {} ({label}): this arm did not show {text:?}, even after looking {PATIENCE} more times",
                        i + 1
                    ));
                }
                rec.steps.push(record(label, &extra));
                continue;
            }
            Step::Press { keys } => arm.press(keys),
            Step::Back => vec![arm.back()],
            Step::Click(_) | Step::Type { .. } | Step::Select { .. } => {
                let Some(t) = step.target() else { continue };
                // As a patient agent would: not there yet, so wait a little and look again,
                // a few times, before giving up. The looks are counted with the step.
                for _ in 0..PATIENCE {
                    if resolve(&view, &t).is_some() {
                        break;
                    }
                    tokio::time::sleep(LOOK_PAUSE).await;
                    let (tool, args) = arm.look();
                    let look = call(server, tool, args).await?;
                    read(arm, &look, &mut view);
                    extra.push(look);
                }
                let Some((r, t)) = resolve(&view, &t).map(|(r, t)| (r.to_string(), t.clone())) else {
                    return Err(format!(
                        "step {} ({label}): no {} {:?} in what this arm showed ({} elements), even after looking {PATIENCE} more times",
                        i + 1,
                        t.role,
                        t.name,
                        view.len()
                    ));
                };
                match step {
                    Step::Type { text, at_caret: true, .. } => arm.type_at_caret(&r, &t.name, text),
                    Step::Type { text, submit, replace, .. } => {
                        arm.type_into(&r, &t.name, text, *submit, *replace)
                    }
                    Step::Select { option, .. } => vec![arm.select(&r, &t.name, option)],
                    _ => vec![arm.click(&r, &t.name)],
                }
            }
        };
        // Every call but the last is a step's first half (a fill before its Enter): counted,
        // and it must not fail.
        let mut answer = None;
        for (tool, args) in calls {
            let a = call(server, tool, args).await?;
            if a.is_error {
                return Err(format!("step {} ({label}) failed: {}", i + 1, first_line(&a.text)));
            }
            if let Some(before) = answer.replace(a) {
                extra.push(before);
            }
        }
        let Some(answer) = answer else { continue };
        let mut answers = if matches!(step, Step::Wait { .. }) {
            read(arm, &answer, &mut view);
            vec![answer]
        } else {
            look_after(arm, server, answer, &mut view).await?
        };
        shown = texts(&answers);
        answers.extend(extra);
        rec.steps.push(record(label, &answers));
    }
    Ok(())
}

/// The ref `t` has in what the arm showed, or failing that its `or`'s, and the target found.
fn resolve<'a, 't>(view: &'a View, t: &'t Target) -> Option<(&'a str, &'t Target)> {
    let mut at = Some(t);
    while let Some(t) = at {
        if let Some(r) = view.find_in_row(&t.role, &t.name, t.near.as_deref(), t.row.as_deref()) {
            return Some((r, t));
        }
        at = t.or.as_deref();
    }
    None
}

/// The answers' texts, one after another.
fn texts(answers: &[Answer]) -> String {
    answers.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// Whether `shown` holds `text`, runs of white space in either counting as one space (an arm
/// may collapse them, and YAML may quote a line).
fn holds(shown: &str, text: &str) -> bool {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    squash(shown).contains(&squash(text))
}

/// The action's answer and, where the arm needs one, the look after it; the view reads the
/// one that shows the page.
async fn look_after(
    arm: Arm,
    server: &Session<'_>,
    answer: Answer,
    view: &mut View,
) -> Result<Vec<Answer>, String> {
    match arm.look_after(&answer.text) {
        Some((tool, args)) => {
            let look = call(server, tool, args).await?;
            read(arm, &look, view);
            // The full arm's tokens are its snapshot alone (that is what it sends instead);
            // its time is both calls'.
            Ok(if arm == Arm::AxsnapFull {
                let elapsed = answer.elapsed + look.elapsed;
                vec![Answer { elapsed, ..look }]
            } else {
                vec![answer, look]
            })
        }
        None => {
            read(arm, &answer, view);
            Ok(vec![answer])
        }
    }
}

fn read(arm: Arm, answer: &Answer, view: &mut View) {
    view.read(arm.dialect(), &answer.text, answer.kind.as_deref());
}

/// The server as this run speaks to it: on a desktop workload every call aimed at the app's
/// window.
struct Session<'a> {
    server: &'a ArmServer,
    transcript: &'a Transcript,
    arm: Arm,
    /// The desktop app and its window id, once found.
    aim: Option<(String, String)>,
}

async fn call(server: &Session<'_>, tool: &'static str, args: serde_json::Value) -> Result<Answer, String> {
    let (tool, args) = match &server.aim {
        Some((app, window)) => server.arm.at_window((tool, args), app, window),
        None => (tool, args),
    };
    let shown = args.to_string();
    let mut answer = server.server.call(tool, args, CALL_TIMEOUT).await.map_err(|e| e.to_string())?;
    // axsnap says what an answer is in its text (its `structuredContent`, which said it too,
    // is sent only with --structured-content): read as the model reads it.
    if server.arm.is_axsnap() && answer.kind.is_none() && !answer.is_error {
        answer.kind = Some(crate::view::axsnap_kind(&answer.text).to_string());
    }
    server.transcript.add(&format!("{tool} {shown}"), &answer.text);
    Ok(answer)
}

/// The window of desktop app `program` (axsnap: its id from `desktop_windows`, asked until
/// the app shows one; linux-desktop-mcp names apps, not windows), and the answers that took.
async fn find_window(server: &Session<'_>, program: &str) -> Result<((String, String), Vec<Answer>), String> {
    if !server.arm.is_axsnap() {
        return Ok(((program.to_string(), String::new()), Vec::new()));
    }
    let mut answers = Vec::new();
    for _ in 0..=PATIENCE {
        let a = call(server, "desktop_windows", serde_json::json!({})).await?;
        let id = a.text.lines().find_map(|l| {
            let (id, rest) = l.split_once(' ')?;
            (rest.starts_with("frame ") && rest.contains(&format!("app {program:?}"))).then(|| id.to_string())
        });
        answers.push(a);
        if let Some(id) = id {
            return Ok(((program.to_string(), id), answers));
        }
        tokio::time::sleep(LOOK_PAUSE).await;
    }
    Err(format!("no window of {program} in desktop_windows, even after looking {PATIENCE} more times"))
}

fn record(label: String, answers: &[Answer]) -> StepRecord {
    let add = |into: &mut Size, s: Size| {
        into.bytes += s.bytes;
        into.tokens_cl100k += s.tokens_cl100k;
        into.tokens_o200k += s.tokens_o200k;
    };
    let (mut size, mut structured_first) = (Size::default(), Size::default());
    let calls_ms: Vec<f64> = answers.iter().map(|a| a.elapsed.as_secs_f64() * 1000.0).collect();
    for a in answers {
        add(&mut size, a.size);
        add(&mut structured_first, a.structured_first);
    }
    let kind = answers.iter().rev().find_map(|a| a.kind.clone()).unwrap_or_default();
    StepRecord {
        label,
        bytes: size.bytes,
        tokens_cl100k: size.tokens_cl100k,
        tokens_o200k: size.tokens_o200k,
        structured_first_bytes: structured_first.bytes,
        structured_first_tokens_cl100k: structured_first.tokens_cl100k,
        structured_first_tokens_o200k: structured_first.tokens_o200k,
        structured_answers: answers.iter().filter(|a| a.structured).count(),
        latency_ms: calls_ms.iter().sum(),
        calls_ms,
        kind,
    }
}

/// The peer's package and version as installed (npm's package.json, pip's dist-info): the
/// servers' own `initialize` answers name their SDK's version, not theirs.
fn peer_version(arm: Arm, tools: &Tools) -> Option<String> {
    if arm == Arm::LinuxDesktopMcp {
        let lib = std::fs::read_dir(tools.desktop_venv.join("lib")).ok()?.filter_map(Result::ok).next()?;
        let site = std::fs::read_dir(lib.path().join("site-packages")).ok()?;
        return site.filter_map(Result::ok).find_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let v = name.strip_prefix("linux_desktop_mcp-")?.strip_suffix(".dist-info")?;
            Some(format!("linux-desktop-mcp=={v}"))
        });
    }
    npm_version(&arm.package(tools)?)
}

/// `name@version` of the npm package in `dir`, from its package.json.
fn npm_version(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(format!("{}@{}", v.get("name")?.as_str()?, v.get("version")?.as_str()?))
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_text_is_found_whatever_its_spacing() {
        assert!(holds("  120│def greet(name):  # line 120\n", "def greet(name): # line 120"));
        assert!(holds("- text: \"def greet(name):\n  # line 120\"", "def greet(name):  # line 120"));
        assert!(!holds("def greet(name):  # line 12", "def greet(name):  # line 120 "));
        assert!(!holds("", "x"));
    }

    #[test]
    fn a_target_not_shown_falls_back_to_its_or() {
        let mut view = View::default();
        view.read(crate::arms::Dialect::Axsnap, "# T — http://x/\nbutton \"Save\" [e4]\n", None);
        let or = Target { role: "button".into(), name: "Save".into(), near: None, row: None, or: None };
        let t = Target {
            role: "textbox".into(),
            name: "Editor content".into(),
            near: None,
            row: None,
            or: Some(Box::new(or)),
        };
        let (r, found) = resolve(&view, &t).unwrap();
        assert_eq!((r, found.name.as_str()), ("e4", "Save"));
        let alone = Target { or: None, ..t.clone() };
        assert!(resolve(&view, &alone).is_none());
    }
}
