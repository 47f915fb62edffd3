//! `axsnap demo`: drives the bundled demo shop as an agent would, through the same
//! [`axsnap_agent::Agent`] the MCP server uses, and prints every answer with its cost.

use anyhow::Context;
use axsnap_agent::Step;
use axsnap_core::backend::ElementAction;
use axsnap_core::render::{render_snapshot, Format};
use axsnap_core::session::{Answer, Request};
use axsnap_core::tokens;

use crate::cli::DemoArgs;
use crate::demo_site::DemoSite;
use crate::live::{self, Live};

/// One scripted step: find an element by a query, then act on it.
pub(super) struct Scripted {
    pub what: &'static str,
    pub query: &'static str,
    pub action: ElementAction,
}

pub(super) fn script() -> Vec<Scripted> {
    vec![
        Scripted {
            what: "search for boot",
            query: "search box",
            action: ElementAction::Type { text: "boot".into(), clear: true, submit: true },
        },
        Scripted {
            what: "show only what is in stock",
            query: "Only in stock checkbox",
            action: ElementAction::Check { on: true },
        },
        Scripted {
            what: "add a boot to the cart",
            query: "Add Summit Boot GTX to cart button",
            action: ElementAction::Click { count: 1 },
        },
        Scripted {
            what: "close the cart dialog",
            query: "Continue shopping button",
            action: ElementAction::Click { count: 1 },
        },
        Scripted {
            what: "go to the Boots page",
            query: "Boots link",
            action: ElementAction::Click { count: 1 },
        },
    ]
}

#[derive(Default)]
struct Totals {
    sent: usize,
    full: usize,
}

pub fn run(a: &DemoArgs) -> anyhow::Result<()> {
    live::runtime()?.block_on(async {
        let site = DemoSite::start().await?;
        let start = site.url("/index.html");
        println!("demo shop on {start}\n");
        if a.mcp {
            return super::demo_mcp::drive(&a.browser, &start, a.show).await;
        }
        let mut live = Live::open(&a.browser, &start, &Request::default()).await?;
        let result = drive(&mut live, a.show).await;
        let closed = live.close().await;
        result.and(closed)
    })
}

async fn drive(live: &mut Live, show: bool) -> anyhow::Result<()> {
    let mut totals = Totals::default();
    let first = live.opened.clone();
    report(0, "first look at the page", &first, show, &mut totals);
    for (i, s) in script().into_iter().enumerate() {
        let hits = live.agent.find(s.query, 1).await?;
        let hit =
            hits.first().with_context(|| format!("the demo page has no element matching {:?}", s.query))?;
        println!("# find {:?} -> {} {} {:?}", s.query, hit.r, hit.role, hit.name);
        let step = live.agent.act(&hit.r.to_string(), &s.action).await?;
        report(i + 1, s.what, &step, show, &mut totals);
    }
    let again = live.agent.snapshot(&Request::default()).await?;
    report(99, "look again without acting", &again, show, &mut totals);
    let saved = 100.0 * (1.0 - totals.sent as f64 / totals.full.max(1) as f64);
    println!(
        "total: {} tokens sent (cl100k) where full snapshots every step would be {}: {saved:.0}% saved",
        totals.sent, totals.full
    );
    Ok(())
}

fn report(n: usize, what: &str, step: &Step, show: bool, totals: &mut Totals) {
    let r = &step.response;
    let full =
        r.full_tokens.unwrap_or_else(|| tokens::count_cl100k(&render_snapshot(&r.snapshot, Format::Text)));
    let kind = match r.answer {
        Answer::Full { reason: None } => "full".to_string(),
        Answer::Full { reason: Some(why) } => format!("full ({why:?})"),
        Answer::Diff { from_seq } => format!("diff against snapshot {from_seq}"),
        Answer::Unchanged { .. } => "unchanged".to_string(),
    };
    let label = if n == 99 { "last".to_string() } else { format!("step {n}") };
    println!("== {label}: {what}");
    if let Some(o) = &step.outcome {
        println!(
            "   settled={} navigated={} in {} ms{}",
            o.settled,
            o.navigated,
            o.elapsed.as_millis(),
            o.dialog.as_deref().map(|d| format!(", dialog: {d}")).unwrap_or_default()
        );
    }
    if show {
        for line in r.text.lines() {
            println!("   | {line}");
        }
    }
    let saved = 100.0 * (1.0 - r.size.tokens_cl100k as f64 / full.max(1) as f64);
    println!(
        "   answer: {kind}; {} bytes, {} tokens cl100k, {} o200k; a full snapshot: {full} tokens; saved {saved:.0}%{}\n",
        r.size.bytes,
        r.size.tokens_cl100k,
        r.size.tokens_o200k,
        if step.captured { format!("; capture {} ms", step.capture_time.as_millis()) } else { "; no capture needed".into() }
    );
    totals.sent += r.size.tokens_cl100k;
    totals.full += full;
}
