//! The `network` group: `network_requests` and `console`, read from the backend's record of the
//! current tab ([`axsnap_cdp::Recorder`]; every entry already redacted there).

use axsnap_cdp::record::{Bodies, Level, Message, Request};
use rmcp::model::JsonObject;
use serde_json::{json, Map, Value};

use super::Browsing;
use crate::args::Args;
use crate::code::Code;
use crate::failure::Failure;
use crate::reply::Reply;
use crate::tool_name::ToolName;

/// Entries listed when the call gives no limit.
const DEFAULT_LIMIT: usize = 30;
/// Most entries one call lists.
const MAX_LIMIT: i64 = 200;
/// Most characters of lines one listing shows (its structured form repeats them): about 6k
/// tokens, so an answer stays far inside what MCP clients accept however long the lines.
const LISTING_CHARS: usize = 24_000;
/// Longest URL shown in a line.
const URL_CHARS: usize = 240;
/// Longest request body shown.
const REQUEST_BODY_CHARS: usize = 2_000;
/// Longest response body shown.
const RESPONSE_BODY_CHARS: usize = 6_000;

impl Browsing {
    /// `network_requests {filter?, limit?, id?}`.
    pub(super) async fn network_requests(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::NetworkRequests.as_str(), args, &["filter", "limit", "id"])?;
        let filter = a.opt_str("filter")?.map(str::to_lowercase);
        let limit = a.opt_int("limit", 1, MAX_LIMIT)?.map_or(DEFAULT_LIMIT, |n| n as usize);
        let id = a.opt_int("id", 1, i64::MAX)?;
        let agent = self.agent_with_page()?;
        let target =
            agent.target().cloned().ok_or(axsnap_agent::AgentError::<axsnap_cdp::CdpError>::NoTarget)?;
        let tab = agent.backend_ref().tab_id(&target);
        if let Some(n) = id {
            let page = agent.backend().page(&target).await?;
            let rec = recorder(agent.backend_ref())?;
            let request = rec.request(n as u64).filter(|q| q.tab == tab).ok_or_else(|| {
                Failure::tool(
                    Code::NotFound,
                    format!("no request #{n} of this tab is kept; network_requests lists the ones that are"),
                )
            })?;
            let bodies = rec.bodies(&page, n as u64).await?.unwrap_or_default();
            return Ok(one_request(&request, &bodies));
        }
        let (all, dropped) = recorder(agent.backend_ref())?.requests(&tab);
        let matched: Vec<&Request> = all
            .iter()
            .filter(|q| filter.as_deref().is_none_or(|f| line(q).to_lowercase().contains(f)))
            .collect();
        let shown = newest_within(&matched, limit, |q| line(q).len());
        let narrowed = filter.as_deref().map(|f| format!("match {f:?}"));
        let mut text =
            listing_head("request", all.len(), matched.len(), shown.len(), narrowed.as_deref(), dropped);
        fit_note(&mut text, shown.len(), limit, matched.len());
        for q in shown {
            text.push('\n');
            text.push_str(&line(q));
        }
        if !shown.is_empty() {
            text.push_str("\n(id: N shows one request with its bodies)");
        }
        let mut s = Map::new();
        s.insert("kind".into(), json!("network_requests"));
        s.insert("total".into(), json!(all.len()));
        s.insert("matched".into(), json!(matched.len()));
        s.insert("requests".into(), Value::Array(shown.iter().map(|q| request_json(q)).collect()));
        Ok(Reply { text, structured: s, image: None })
    }

    /// `console {level?, filter?, limit?}`.
    pub(super) async fn console(&mut self, args: Option<&JsonObject>) -> Result<Reply, Failure> {
        let a = Args::new(ToolName::Console.as_str(), args, &["level", "filter", "limit"])?;
        let level = a
            .opt_choice("level", &["debug", "info", "warning", "error"])?
            .and_then(Level::parse)
            .unwrap_or(Level::Info);
        let filter = a.opt_str("filter")?.map(str::to_lowercase);
        let limit = a.opt_int("limit", 1, MAX_LIMIT)?.map_or(DEFAULT_LIMIT, |n| n as usize);
        let agent = self.agent_with_page()?;
        let target =
            agent.target().cloned().ok_or(axsnap_agent::AgentError::<axsnap_cdp::CdpError>::NoTarget)?;
        let tab = agent.backend_ref().tab_id(&target);
        let (all, dropped) = recorder(agent.backend_ref())?.messages(&tab);
        let matched: Vec<&Message> = all
            .iter()
            .filter(|m| m.level >= level)
            .filter(|m| filter.as_deref().is_none_or(|f| message_line(m).to_lowercase().contains(f)))
            .collect();
        let shown = newest_within(&matched, limit, |m| message_line(m).len());
        let mut narrowed = Vec::new();
        if level > Level::Debug {
            narrowed.push(format!("{level} and above"));
        }
        if let Some(f) = &filter {
            narrowed.push(format!("containing {f:?}"));
        }
        let narrowed = (!narrowed.is_empty()).then(|| format!("are {}", narrowed.join(", ")));
        let mut text = listing_head(
            "console message",
            all.len(),
            matched.len(),
            shown.len(),
            narrowed.as_deref(),
            dropped,
        );
        fit_note(&mut text, shown.len(), limit, matched.len());
        for m in shown {
            text.push('\n');
            text.push_str(&message_line(m));
        }
        if shown.is_empty() && level > Level::Debug && all.iter().any(|m| m.level < level) {
            text.push_str(" (level: debug lists them all)");
        }
        let mut s = Map::new();
        s.insert("kind".into(), json!("console"));
        s.insert("total".into(), json!(all.len()));
        s.insert("matched".into(), json!(matched.len()));
        let list: Vec<Value> = shown
            .iter()
            .map(|m| json!({"id": m.n, "level": m.level.to_string(), "source": m.source, "text": m.text, "location": m.location.as_deref().map(|l| short(l, URL_CHARS))}))
            .collect();
        s.insert("messages".into(), Value::Array(list));
        Ok(Reply { text, structured: s, image: None })
    }
}

/// The newest `limit` entries of `matched`, fewer when their lines would pass
/// [`LISTING_CHARS`] (at least one).
fn newest_within<'a, T>(matched: &'a [&'a T], limit: usize, chars: impl Fn(&T) -> usize) -> &'a [&'a T] {
    let mut used = 0;
    let mut n = 0;
    for entry in matched.iter().rev().take(limit) {
        used += chars(entry) + 1;
        if n > 0 && used > LISTING_CHARS {
            break;
        }
        n += 1;
    }
    &matched[matched.len() - n..]
}

/// Says when fewer entries are shown than asked for because no more fit in one answer.
fn fit_note(text: &mut String, shown: usize, limit: usize, matched: usize) {
    if shown < limit.min(matched) {
        text.push_str(" (as many as fit in one answer: filter or id narrows)");
    }
}

fn recorder(backend: &axsnap_cdp::CdpBackend) -> Result<&axsnap_cdp::Recorder, Failure> {
    backend.recorder().ok_or_else(|| {
        Failure::tool(
            Code::NotRecording,
            "this session does not record its tabs; start the server with --caps network",
        )
    })
}

/// `12 requests on this tab (3 match "api"); the last 2:` and a note of what was let go;
/// `narrowed` says how the matched ones were chosen.
fn listing_head(
    what: &str,
    total: usize,
    matched: usize,
    shown: usize,
    narrowed: Option<&str>,
    dropped: u64,
) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut text = format!("{total} {what}{} on this tab", plural(total));
    if let Some(how) = narrowed {
        text.push_str(&format!(" ({matched} {how})"));
    }
    if shown == 0 {
        text.push('.');
    } else if shown < matched {
        text.push_str(&format!("; the last {shown}:"));
    } else {
        text.push(':');
    }
    if dropped > 0 {
        text.push_str(&format!(" (this session let {dropped} older ones go)"));
    }
    text
}

/// `#12 POST 200 Fetch 1.2 kB 35 ms http://…`.
fn line(q: &Request) -> String {
    let status = match (&q.failed, q.status) {
        (Some(why), _) => format!("failed {why}"),
        (None, Some(s)) => s.to_string(),
        (None, None) if q.pending() => "pending".into(),
        (None, None) => "-".into(),
    };
    let mut parts = vec![format!("#{}", q.n), q.method.clone(), status, q.kind.clone()];
    if let Some(size) = q.size {
        parts.push(bytes(size));
    }
    if let Some(ms) = q.millis {
        parts.push(format!("{ms:.0} ms"));
    }
    if q.cached {
        parts.push("cached".into());
    }
    parts.push(short(&q.url, URL_CHARS));
    parts.join(" ")
}

/// `#3 error (exception) TypeError: … @ http://…/app.js:10:5`; a plain `console.*` call's
/// source goes without saying.
fn message_line(m: &Message) -> String {
    let plain = matches!(
        m.source.as_str(),
        "console.log" | "console.info" | "console.warning" | "console.error" | "console.debug"
    );
    let mut s = if plain {
        format!("#{} {} {}", m.n, m.level, m.text)
    } else {
        format!("#{} {} ({}) {}", m.n, m.level, m.source, m.text)
    };
    if let Some(at) = &m.location {
        s.push_str(&format!(" @ {}", short(at, URL_CHARS)));
    }
    s
}

fn request_json(q: &Request) -> Value {
    json!({
        "id": q.n, "method": q.method, "url": short(&q.url, URL_CHARS), "type": q.kind, "status": q.status,
        "mime": q.mime, "size": q.size, "ms": q.millis.map(f64::round), "failed": q.failed, "cached": q.cached,
    })
}

/// One request with its bodies.
fn one_request(q: &Request, b: &Bodies) -> Reply {
    let mut text = line(q);
    if let Some(body) = &b.request {
        let kind = q.request_type.as_deref().unwrap_or("no type");
        text.push_str(&format!(
            "\nrequest body ({kind}, {} chars):\n{}",
            body.chars().count(),
            short(body, REQUEST_BODY_CHARS)
        ));
        if b.request_cut {
            text.push_str(" (longer than the browser kept)");
        }
    }
    match (&b.response, &b.response_note) {
        (Some(body), _) => {
            let kind = q.mime.as_deref().unwrap_or("no type");
            let size = b.response_bytes.map(|n| bytes(n as u64)).unwrap_or_default();
            text.push_str(&format!(
                "\nresponse body ({kind}, {size}):\n{}",
                short(body, RESPONSE_BODY_CHARS)
            ));
        }
        (None, Some(note)) => text.push_str(&format!("\nresponse body: {note}")),
        (None, None) => {}
    }
    let mut s = Map::new();
    s.insert("kind".into(), json!("network_request"));
    s.insert("request".into(), request_json(q));
    s.insert("request_body".into(), json!(b.request.as_deref().map(|t| short(t, REQUEST_BODY_CHARS))));
    s.insert("response_body".into(), json!(b.response.as_deref().map(|t| short(t, RESPONSE_BODY_CHARS))));
    s.insert("response_bytes".into(), json!(b.response_bytes));
    Reply { text, structured: s, image: None }
}

fn bytes(n: u64) -> String {
    match n {
        n if n < 1_000 => format!("{n} B"),
        n if n < 1_000_000 => format!("{:.1} kB", n as f64 / 1e3),
        n => format!("{:.1} MB", n as f64 / 1e6),
    }
}

/// At most `max` characters, saying how many more there were.
fn short(s: &str, max: usize) -> String {
    let total = s.chars().count();
    if total <= max {
        return s.to_string();
    }
    let cut: String = s.chars().take(max).collect();
    format!("{cut}…+{} chars", total - max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_say_what_is_shown() {
        assert_eq!(listing_head("request", 12, 12, 12, None, 0), "12 requests on this tab:");
        assert_eq!(
            listing_head("request", 12, 3, 2, Some("match \"api\""), 5),
            "12 requests on this tab (3 match \"api\"); the last 2: (this session let 5 older ones go)"
        );
        assert_eq!(listing_head("console message", 0, 0, 0, None, 0), "0 console messages on this tab.");
    }

    #[test]
    fn listings_keep_to_their_budget() {
        let long = "x".repeat(5_000);
        let lines: Vec<&String> = std::iter::repeat_n(&long, 50).collect();
        assert_eq!(newest_within(&lines, 30, |l| l.len()).len(), LISTING_CHARS / 5_001);
        let short = "y".to_string();
        let few: Vec<&String> = vec![&short; 10];
        assert_eq!(newest_within(&few, 30, |l| l.len()).len(), 10);
        assert_eq!(newest_within(&few, 3, |l| l.len()).len(), 3);
        let huge = "z".repeat(LISTING_CHARS * 2);
        assert_eq!(newest_within(&[&huge], 30, |l| l.len()).len(), 1);
    }

    #[test]
    fn sizes_and_cuts() {
        assert_eq!(
            (bytes(999), bytes(1_250), bytes(2_500_000)),
            ("999 B".into(), "1.2 kB".into(), "2.5 MB".into())
        );
        assert_eq!(short("abcdef", 3), "abc…+3 chars");
        assert_eq!(short("abc", 3), "abc");
    }
}
