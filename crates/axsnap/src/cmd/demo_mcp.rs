//! `axsnap demo --mcp`: the demo's steps through `axsnap mcp` over stdio, with a real MCP
//! client (rmcp's), exactly as an agent would call the tools. Each answer is printed with its
//! cost; the tokens are counted on the answer without its first line of what else happened
//! (settle time and the like), so they compare one to one with `axsnap demo`.

use anyhow::Context;
use axsnap_core::backend::ElementAction;
use axsnap_core::tokens;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Value};

use crate::cli::BrowserArgs;

pub async fn drive(browser: &BrowserArgs, start: &str, show: bool) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("cannot find the axsnap executable to run `axsnap mcp`")?;
    let mut cmd = tokio::process::Command::new(exe);
    // A program reading the answers' JSON (the hits' refs, the full page's tokens) asks for
    // it; the text it prints is what every client's model reads either way.
    cmd.arg("mcp")
        .arg("--structured-content")
        .arg("--capture-timeout")
        .arg(browser.capture_timeout.to_string());
    if let Some(b) = &browser.browser {
        cmd.arg("--browser").arg(b);
    }
    if let Some(e) = &browser.cdp_endpoint {
        cmd.arg("--cdp-endpoint").arg(e);
    }
    let client = ().serve(TokioChildProcess::new(cmd).context("cannot start `axsnap mcp`")?).await?;
    let result = steps(&client, start, show).await;
    let closed = client.cancel().await;
    result?;
    closed.context("closing the MCP session")?;
    Ok(())
}

async fn steps(client: &RunningService<RoleClient, ()>, start: &str, show: bool) -> anyhow::Result<()> {
    let tools = client.list_all_tools().await?;
    let listed = serde_json::to_string(&json!({"tools": tools}))?;
    println!(
        "# tools/list: {} tools, {} tokens o200k, {} cl100k\n",
        tools.len(),
        tokens::count_o200k(&listed),
        tokens::count_cl100k(&listed)
    );
    let mut sent = 0;
    let mut full = 0;
    let first = call(client, "navigate", json!({"url": start})).await?;
    report(0, "first look at the page", &first, show, &mut sent, &mut full)?;
    for (i, s) in super::demo::script().into_iter().enumerate() {
        let found = call(client, "find", json!({"query": s.query, "limit": 1})).await?;
        let hit = structured(&found)
            .get("hits")
            .and_then(|h| h.get(0))
            .cloned()
            .with_context(|| format!("the demo page has no element matching {:?}", s.query))?;
        let r = hit.get("ref").and_then(Value::as_str).unwrap_or_default().to_string();
        println!(
            "# find {:?} -> {r} {} {:?}",
            s.query,
            hit.get("role").and_then(Value::as_str).unwrap_or_default(),
            hit.get("name").and_then(Value::as_str).unwrap_or_default()
        );
        let (tool, args) = match s.action {
            // The demo types into empty fields, so typing after the (empty) text replaces it.
            ElementAction::Type { text, clear: true, submit: false } => {
                ("fill", json!({"ref": r, "text": text}))
            }
            ElementAction::Type { text, submit, .. } => {
                ("type", json!({"ref": r, "text": text, "submit": submit}))
            }
            ElementAction::Check { on } => ("check", json!({"ref": r, "checked": on})),
            ElementAction::Click { count } => ("click", json!({"ref": r, "double": count >= 2})),
            other => anyhow::bail!("the demo script has an action the MCP path does not map: {other:?}"),
        };
        let answer = call(client, tool, args).await?;
        report(i + 1, s.what, &answer, show, &mut sent, &mut full)?;
    }
    let again = call(client, "snapshot", json!({})).await?;
    report(99, "look again without acting", &again, show, &mut sent, &mut full)?;
    let saved = 100.0 * (1.0 - sent as f64 / full.max(1) as f64);
    println!("total: {sent} tokens sent (cl100k) where full snapshots every step would be {full}: {saved:.0}% saved");
    Ok(())
}

async fn call(
    client: &RunningService<RoleClient, ()>,
    tool: &'static str,
    args: Value,
) -> anyhow::Result<CallToolResult> {
    let args: JsonObject = args.as_object().cloned().unwrap_or_default();
    let result = client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args))
        .await
        .with_context(|| format!("MCP call {tool} failed"))?;
    if result.is_error == Some(true) {
        anyhow::bail!("{tool} answered with an error: {}", text(&result));
    }
    Ok(result)
}

fn structured(r: &CallToolResult) -> Value {
    r.structured_content.clone().unwrap_or(Value::Null)
}

fn text(r: &CallToolResult) -> String {
    r.content.iter().filter_map(|c| c.as_text().map(|t| t.text.clone())).collect::<Vec<_>>().join("\n")
}

fn report(
    n: usize,
    what: &str,
    r: &CallToolResult,
    show: bool,
    sent: &mut usize,
    full: &mut usize,
) -> anyhow::Result<()> {
    let s = structured(r);
    let all = text(r);
    // The first line of an action's answer says what else happened; the rest is the answer
    // the agent path prints.
    let answer = match all.split_once('\n') {
        Some((first, rest)) if first.starts_with("# settled") || first.starts_with("# did not settle") => {
            rest
        }
        _ => all.as_str(),
    };
    let kind = s.get("kind").and_then(Value::as_str).unwrap_or("?");
    let tokens_answer = tokens::count_cl100k(answer);
    let tokens_all = tokens::count_cl100k(&all);
    let full_tokens =
        s.pointer("/tokens/full_cl100k").and_then(Value::as_u64).map(|v| v as usize).unwrap_or(tokens_answer);
    let label = if n == 99 { "last".to_string() } else { format!("step {n}") };
    println!("== {label}: {what}");
    if show {
        for line in all.lines() {
            println!("   | {line}");
        }
    }
    let saved = 100.0 * (1.0 - tokens_answer as f64 / full_tokens.max(1) as f64);
    println!(
        "   answer: {kind}; {tokens_answer} tokens cl100k ({tokens_all} with the report line); a full snapshot: {full_tokens} tokens; saved {saved:.0}%\n"
    );
    *sent += tokens_answer;
    *full += full_tokens;
    Ok(())
}
