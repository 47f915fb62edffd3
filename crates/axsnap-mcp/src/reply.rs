//! [`Reply`]: what a tool call answers. Text for the model (the auto response, under at most
//! two lines of what else happened), complete on its own: it is all a client is sent by
//! default. With `--structured-content`, also `structuredContent` for programs (the same facts
//! as JSON, the snapshot or diff in its JSON form, and token counts; README.md documents the
//! shape), which the handler drops otherwise.

use axsnap_core::session::{Answer, FullReason};
use serde_json::{json, Map, Value};

use axsnap_agent::Step;

/// A successful answer.
#[derive(Debug, Default)]
pub struct Reply {
    /// Text content for the model.
    pub text: String,
    /// `structuredContent` for programs (an object), sent only with `--structured-content`.
    pub structured: Map<String, Value>,
    /// A base64 PNG image content, for `screenshot`.
    pub image: Option<String>,
}

/// What else an action caused, beside the page's changes.
#[derive(Debug, Default)]
pub struct Happenings {
    /// New tabs the action opened, as `(index, url)`.
    pub new_tabs: Vec<(usize, String)>,
    /// The last new tab is now the current one (an action led there; a page that opened
    /// popups as it loaded keeps the agent where it was).
    pub switched: bool,
    /// New console errors: count and the first message kept.
    pub console_errors: Option<(u64, Option<String>)>,
    /// New downloads (refused): count and the first name.
    pub downloads: Option<(u64, Option<String>)>,
    /// Downloads that ended (saved or failed) with `--output-dir`.
    pub saved: Vec<Fetched>,
    /// Downloads begun and not ended when the answer was made.
    pub downloading: u64,
    /// Anything else worth one clause (`waited 1.2 s for text "Saved"`).
    pub notes: Vec<String>,
}

/// A file an action fetched (a download), as the answer says it: backend-neutral, so the
/// reply knows no backend's types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fetched {
    /// Saved under the output directory.
    Saved {
        /// The name the site gave it.
        name: String,
        /// Its size in bytes.
        size: u64,
        /// Where it was saved.
        path: std::path::PathBuf,
    },
    /// It failed (cancelled, interrupted).
    Failed {
        /// The name the site gave it.
        name: String,
    },
}

impl Reply {
    /// A reply that is only text (and the same text as `message` for programs).
    pub fn message(kind: &str, text: impl Into<String>) -> Reply {
        let text = text.into();
        let mut structured = Map::new();
        structured.insert("kind".into(), json!(kind));
        structured.insert("message".into(), json!(text));
        Reply { text, structured, image: None }
    }

    /// The answer to a step: its happenings line, then the auto response.
    pub fn step(step: &Step, happened: &Happenings) -> Reply {
        let r = &step.response;
        let mut s = Map::new();
        match r.answer {
            Answer::Full { reason } => {
                s.insert("kind".into(), json!("full"));
                if let Some(reason) = reason {
                    s.insert("reason".into(), json!(reason_name(reason)));
                }
            }
            Answer::Diff { from_seq } => {
                s.insert("kind".into(), json!("diff"));
                s.insert("from_seq".into(), json!(from_seq));
            }
            Answer::Unchanged { since_seq } => {
                s.insert("kind".into(), json!("unchanged"));
                s.insert("since_seq".into(), json!(since_seq));
            }
        }
        s.insert("seq".into(), json!(r.snapshot.seq));
        if let Some(url) = &r.snapshot.header.url {
            s.insert("url".into(), json!(url));
        }
        if let Some(title) = &r.snapshot.header.title {
            s.insert("title".into(), json!(title));
        }
        let mut clauses = Vec::new();
        if let Some(o) = &step.outcome {
            let ms = o.elapsed.as_millis() as u64;
            s.insert("settled".into(), json!(o.settled));
            s.insert("navigated".into(), json!(o.navigated));
            s.insert("elapsed_ms".into(), json!(ms));
            // A step that settled says nothing of it in the text (its time is in the
            // structured content): on a small page that line was a twelfth of every answer.
            if !o.settled {
                let why = o.unsettled.as_deref().unwrap_or("the page kept changing or loading");
                s.insert("unsettled".into(), json!(why));
                clauses.push(format!("did not settle within {ms} ms ({why})"));
            }
            if let Some(d) = &o.dialog {
                s.insert("dialog".into(), json!(d));
                clauses.push(format!("dialog: {d}; answer it with the dialog tool"));
            }
        }
        if !happened.new_tabs.is_empty() {
            let tabs: Vec<Value> =
                happened.new_tabs.iter().map(|(i, u)| json!({"index": i, "url": u})).collect();
            s.insert("new_tabs".into(), Value::Array(tabs));
            let (i, u) = &happened.new_tabs[happened.new_tabs.len() - 1];
            let now = if happened.switched { "now current" } else { "select it with tabs to use it" };
            clauses.push(format!("opened tab {i} ({}), {now}", crate::failure::clip(u)));
        }
        if let Some((n, first)) = &happened.console_errors {
            s.insert("console_errors".into(), json!({"count": n, "first": first}));
            let first = first.as_deref().map(|f| format!(", first: {f}")).unwrap_or_default();
            clauses.push(format!("{n} new console error{}{first}", if *n == 1 { "" } else { "s" }));
        }
        if let Some((n, first)) = &happened.downloads {
            s.insert("downloads".into(), json!({"count": n, "first": first}));
            let first = first.as_deref().map(|f| format!(": {f}")).unwrap_or_default();
            clauses.push(format!("{n} download{} refused{first}", if *n == 1 { "" } else { "s" }));
        }
        if !happened.saved.is_empty() || happened.downloading > 0 {
            let list: Vec<Value> = happened
                .saved
                .iter()
                .map(|d| match d {
                    Fetched::Saved { name, size, path } => {
                        clauses.push(format!("downloaded {name} ({size} bytes) to {}", path.display()));
                        json!({"name": name, "size": size, "path": path.to_string_lossy()})
                    }
                    Fetched::Failed { name } => {
                        clauses.push(format!("the download of {name} failed"));
                        json!({"name": name, "failed": true})
                    }
                })
                .collect();
            if happened.downloading > 0 {
                clauses.push(format!("{} download(s) still running", happened.downloading));
            }
            s.insert("downloaded".into(), json!({"files": list, "running": happened.downloading}));
        }
        clauses.extend(happened.notes.iter().cloned());
        if let Some(p) = &r.partial {
            s.insert("partial".into(), json!(p));
        }
        s.insert(
            "tokens".into(),
            json!({
                "bytes": r.size.bytes,
                "cl100k": r.size.tokens_cl100k,
                "o200k": r.size.tokens_o200k,
                "full_cl100k": r.full_tokens,
            }),
        );
        s.insert("captured".into(), json!(step.captured));
        if step.captured {
            s.insert("capture_ms".into(), json!(step.capture_time.as_millis() as u64));
        }
        let body_key = match r.answer {
            Answer::Full { .. } => "snapshot",
            Answer::Diff { .. } => "diff",
            Answer::Unchanged { .. } => "unchanged",
        };
        if let Some(json) = &r.json {
            let v = serde_json::from_str::<Value>(json).unwrap_or_else(|_| Value::String(json.clone()));
            s.insert(body_key.into(), v);
        }
        let mut text = String::new();
        if !clauses.is_empty() {
            text.push_str("# ");
            text.push_str(&clauses.join("; "));
            text.push('\n');
        }
        text.push_str(&r.text);
        Reply { text, structured: s, image: None }
    }
}

fn reason_name(r: FullReason) -> &'static str {
    match r {
        FullReason::NoBaseline => "no_baseline",
        FullReason::OptionsChanged => "options_changed",
        FullReason::Partial => "partial",
        FullReason::DiffNotSmaller => "diff_not_smaller",
        FullReason::DiffUnsafe => "diff_unsafe",
        FullReason::Uncovered => "uncovered",
    }
}
