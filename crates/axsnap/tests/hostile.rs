//! The hostile-page suite: pages that try to leak secrets, blow up the output or break JSON
//! readers, each served on 127.0.0.1 (or a generated recorded tree) and run through the real
//! `axsnap` binary, each run with a bound on its time and its output size and a check of the
//! answer. Every run has `RUST_LOG=trace`, so secrets are looked for in the logs too.
//!
//! One table, [`CASES`]. To add a case: a page under `tests/hostile/pages/` (or a tree
//! generator), and a row naming it, the command lines to run (`{url}`, `{record}`, `{tree}`,
//! `{tree2}` are filled in), the bounds and a check. `HOSTILE_CASE=word` runs only the cases
//! whose name contains `word`; `HOSTILE_JOBS=n` runs n at a time (default 2).

#[path = "support/bounded.rs"]
mod bounded;
#[path = "hostile/serve.rs"]
mod serve;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serve::Server;

/// The longest line the text form may print, its cut marker included (`axsnap_core::caps`).
const LINE_CHARS: usize = 16_000;

/// One hostile case.
struct Case {
    name: &'static str,
    input: Input,
    /// Command lines (after `axsnap`), run one after the other.
    runs: &'static [&'static [&'static str]],
    /// Most seconds one run may take.
    secs: u64,
    /// Most bytes one run may print on stdout.
    max_bytes: usize,
    /// The runs must fail (exit non-zero) rather than succeed: a refusal with its reason.
    fails: bool,
    check: fn(&[Run]) -> Result<(), String>,
}

/// What a case runs against.
enum Input {
    /// A page under `tests/hostile/pages/`, as `{url}`.
    Page(&'static str),
    /// Recorded trees written to temporary files, as `{tree}` and `{tree2}`.
    Trees(fn() -> Vec<String>),
    /// A URL as it is, as `{url}` (schemes that are not pages).
    Url(&'static str),
}

/// One finished run.
struct Run {
    args: Vec<String>,
    ok: bool,
    stdout: String,
    stderr: String,
    /// The `--record` file, when the run wrote one.
    record: Option<String>,
    elapsed: Duration,
}

impl Run {
    fn json(&self) -> bool {
        self.args.iter().any(|a| a == "json")
    }

    /// Everything the run left: output, logs, record.
    fn everything(&self) -> String {
        format!("{}\n{}\n{}", self.stdout, self.stderr, self.record.as_deref().unwrap_or(""))
    }
}

const SNAP: &[&str] = &["snapshot", "{url}", "--capture-timeout", "10"];
const SNAP_RECORD: &[&str] =
    &["snapshot", "{url}", "--capture-timeout", "10", "--record", "{record}", "--max-tokens", "0"];
const SNAP_JSON: &[&str] =
    &["snapshot", "{url}", "--capture-timeout", "10", "--format", "json", "--max-tokens", "0"];
/// The whole page however big (the cases that check caps and content, not the budget).
const SNAP_WHOLE: &[&str] = &["snapshot", "{url}", "--capture-timeout", "10", "--max-tokens", "0"];
/// [`SNAP_RECORD`] with a deadline for pages Chromium itself is slow to lay out and read.
const SNAP_RECORD_SLOW: &[&str] =
    &["snapshot", "{url}", "--capture-timeout", "60", "--record", "{record}", "--max-tokens", "0"];
/// The JSON form of what the previous run recorded (the same raw capture; no browser).
const RECORD_JSON: &[&str] = &["snapshot", "--tree", "{record}", "--format", "json", "--max-tokens", "0"];
/// A short budget for the pages that never finish loading: their answer comes within it.
const SNAP_SHORT: &[&str] = &["snapshot", "{url}", "--capture-timeout", "6"];
/// Every page built from its DOM snapshot, as a large page is (`--ax-tree never`).
const SNAP_DOM: &[&str] = &[
    "snapshot",
    "{url}",
    "--capture-timeout",
    "10",
    "--ax-tree",
    "never",
    "--record",
    "{record}",
    "--max-tokens",
    "0",
];
const SNAP_ACCEPT: &[&str] = &["snapshot", "{url}", "--capture-timeout", "10", "--dialog", "accept"];
const SNAP_DISMISS: &[&str] = &["snapshot", "{url}", "--capture-timeout", "10", "--dialog", "dismiss"];
/// Most seconds a run with [`SNAP_SHORT`] may take: its budget, a launch and a close.
const SHORT_SECS: u64 = 15;
const KB: usize = 1024;
/// Most seconds a run that drives a browser may take: a launch, one page, one capture, a
/// close. A hang shows as this bound, not as a stuck suite.
const LIVE_SECS: u64 = 45;

/// `secret_css.html`'s secrets (masked by CSS only) redacted wherever they show, the button
/// named from the field by `aria-labelledby` too.
fn css_secrets_redacted(r: &[Run]) -> Result<(), String> {
    absent(r, &["css-SECRET-777", "note-SECRET-888", "SECRET", "••", "■■"])?;
    has(&r[0].stdout, "textbox \"PIN\"", ": [redacted]")?;
    has(&r[0].stdout, "textbox \"Note\"", ": [redacted]")?;
    has_str(&r[0].stdout, "button \"Show [redacted]\"")
}

/// `password_record.html`: the filled password redacted, its length nowhere, and the empty
/// field with no value at all.
fn passwords_redacted(r: &[Run]) -> Result<(), String> {
    absent(r, &["hunter2", "•"])?;
    has(&r[0].stdout, "textbox \"Password\"", ": [redacted]")?;
    let empty = line_with(&r[0].stdout, "textbox \"Empty\"")?;
    if empty.contains(": ") {
        return Err(format!("the empty field shows a value: {empty}"));
    }
    Ok(())
}

const CASES: &[Case] = &[
    Case {
        name: "secret_autocomplete_current_password",
        input: Input::Page("secret_current.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            absent(r, &["curr-SECRET-4242", "SECRET"])?;
            has(&r[0].stdout, "textbox \"Password\"", ": [redacted]")?;
            // Nothing else is redacted.
            has(&r[0].stdout, "textbox \"User\"", ": alice")?;
            has_str(r[0].record.as_deref().unwrap_or(""), "[redacted]")?;
            json_node(&r[1].stdout, "textbox", "Password", |n| field(n, "value") == Some("[redacted]"))
        },
    },
    Case {
        name: "secret_autocomplete_new_password",
        input: Input::Page("secret_new.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            absent(r, &["new-SECRET-5353", "SECRET"])?;
            has(&r[0].stdout, "textbox \"New password\"", ": [redacted]")?;
            has(&r[0].stdout, "textbox \"Repeat\"", ": [redacted]")
        },
    },
    Case {
        name: "secret_one_time_code",
        input: Input::Page("secret_otp.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            absent(r, &["739201"])?;
            has(&r[0].stdout, "textbox \"Code\"", ": [redacted]")?;
            has_str(&r[0].stdout, "Enter the code we sent you.")
        },
    },
    Case {
        name: "secret_masked_by_css",
        input: Input::Page("secret_css.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: css_secrets_redacted,
    },
    Case {
        name: "secrets_built_from_the_dom_snapshot",
        input: Input::Page("secret_css.html"),
        runs: &[SNAP_DOM],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            has_str(&r[0].stdout, "a DOM-only capture")?;
            css_secrets_redacted(r)
        },
    },
    Case {
        name: "passwords_built_from_the_dom_snapshot",
        input: Input::Page("password_record.html"),
        runs: &[SNAP_DOM],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: passwords_redacted,
    },
    Case {
        name: "password_length_not_in_record",
        input: Input::Page("password_record.html"),
        runs: &[SNAP_RECORD],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            has_str(r[0].record.as_deref().unwrap_or(""), "\"[redacted]\"")?;
            passwords_redacted(r)
        },
    },
    Case {
        name: "names_from_a_password_field",
        input: Input::Page("labelledby_password.html"),
        runs: &[SNAP_RECORD, SNAP_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            absent(r, &["abcdefgh", "zyxwvuts", "•"])?;
            has_str(&r[0].stdout, "button \"Code [redacted]\"")?;
            has_str(&r[0].stdout, "button \"Wrapped [redacted]\"")?;
            json_node(&r[1].stdout, "button", "Copy", |n| field(n, "description") == Some("[redacted]"))
        },
    },
    Case {
        name: "secret_repeated_by_the_page",
        input: Input::Page("secret_title.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            absent(r, &["title-SECRET-99", "SECRET"])?;
            let first = r[0].stdout.lines().next().unwrap_or("");
            if !first.starts_with("# Hello [redacted] — ") {
                return Err(format!("header: {first}"));
            }
            has_str(&r[0].stdout, "You typed [redacted]")
        },
    },
    Case {
        name: "secrets_in_shadow_roots_and_frames",
        input: Input::Page("secret_shadow.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            absent(r, &["shadow-SECRET-21", "frame-SECRET-31", "SECRET", "•"])?;
            has_str(&r[0].stdout, "button \"Key [redacted]\"")?;
            has(&r[0].stdout, "textbox \"One-time code\"", ": [redacted]")
        },
    },
    Case {
        name: "huge_title",
        input: Input::Page("huge_title.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 8 * KB,
        fails: false,
        check: |r| {
            let first = r[0].stdout.lines().next().unwrap_or("");
            if first.chars().count() > 600 || !first.contains("…+499,5") {
                return Err(format!("header line of {} chars: {}", first.chars().count(), clip(first)));
            }
            has_str(&r[0].stdout, "button \"After the title\"")?;
            let v = parse(&r[1].stdout)?;
            let title = v["header"]["title"].as_str().unwrap_or("");
            if title.chars().count() != 500 || !title.ends_with(" chars") {
                return Err(format!("JSON title of {} chars", title.chars().count()));
            }
            Ok(())
        },
    },
    Case {
        name: "huge_aria_label_and_description",
        input: Input::Page("huge_label.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 16 * KB,
        fails: false,
        check: |r| {
            let b = line_with(&r[0].stdout, "button \"LLL")?;
            if b.chars().count() > 2_100 || !b.contains("…+1,046,") {
                return Err(format!("label line of {} chars: {}", b.chars().count(), clip(b)));
            }
            let d = line_with(&r[0].stdout, "button \"described\"")?;
            if d.chars().count() > 2_200 || !d.contains("[desc: \"DDD") || !d.contains("…+1,046,") {
                return Err(format!("description line of {} chars: {}", d.chars().count(), clip(d)));
            }
            json_node(&r[1].stdout, "button", "described", |n| {
                field(n, "description").is_some_and(|d| d.chars().count() <= 2_000 && d.ends_with(" chars"))
            })
        },
    },
    Case {
        name: "huge_values",
        input: Input::Page("huge_value.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 256 * KB,
        fails: false,
        check: |r| {
            let i = line_with(&r[0].stdout, "textbox \"Line\"")?;
            if i.chars().count() > 2_100 || !i.contains("WWW…+298,") {
                return Err(format!("value line of {} chars: {}", i.chars().count(), clip(i)));
            }
            let t = line_with(&r[0].stdout, "textbox \"Body\"")?;
            if t.chars().count() > 2_100 || !t.contains("VVV…+48,") {
                return Err(format!("value line of {} chars: {}", t.chars().count(), clip(t)));
            }
            // Capped, with where to read on (`…+298,010 chars: from=1990`).
            json_node(&r[1].stdout, "textbox", "Line", |n| {
                field(n, "value").is_some_and(|v| {
                    v.chars().count() <= 2_000
                        && v.rsplit_once(" chars: from=").is_some_and(|(_, n)| n.parse::<usize>().is_ok())
                })
            })
        },
    },
    Case {
        name: "huge_url_and_options",
        input: Input::Page("huge_url.html"),
        runs: &[SNAP_RECORD, RECORD_JSON],
        secs: LIVE_SECS,
        max_bytes: 256 * KB,
        fails: false,
        check: |r| {
            let link = line_with(&r[0].stdout, "link [e")?;
            // Chromium itself keeps 10,000 characters of a URL.
            if link.chars().count() > 1_100 || !link.contains("qqq…+") || !link.ends_with(" chars)") {
                return Err(format!("link line of {} chars: {}", link.chars().count(), clip(link)));
            }
            // The select's options are on its line, each cut, the first 25 of 50 shown and
            // the rest counted.
            let select = line_with(&r[0].stdout, "combobox \"Pick\"")?;
            let shown = select.matches("ooo…+4,8").count();
            if select.chars().count() > 8_000 || shown != 25 || !select.contains(", … 25 more]") {
                return Err(format!("select line of {} chars: {}", select.chars().count(), clip(select)));
            }
            json_node(&r[1].stdout, "link", "", |n| {
                field(n, "url").is_some_and(|u| u.chars().count() == 1_000 && u.ends_with(" chars"))
            })
        },
    },
    Case {
        name: "huge_inline_paragraph",
        input: Input::Page("huge_inline.html"),
        runs: &[SNAP_WHOLE, SNAP],
        secs: LIVE_SECS,
        max_bytes: 256 * KB,
        fails: false,
        check: |r| {
            // Too long for one line: every link is still there, each on its own line.
            has_str(&r[0].stdout, "[link1499](e")?;
            has_str(&r[0].stdout, "[link0](e")?;
            // Within the default budget: an outline that says what it folded.
            let tokens = axsnap_core::tokens::count_cl100k(&r[1].stdout);
            if tokens > axsnap_core::outline::DEFAULT_MAX_TOKENS {
                return Err(format!("{tokens} tokens over the budget"));
            }
            has_str(&r[1].stdout, "# outline: the page is")?;
            has_str(&r[1].stdout, "folded")
        },
    },
    Case {
        name: "wide_table_pages_through_from",
        input: Input::Page("wide_table.html"),
        runs: &[
            &["snapshot", "{url}", "--capture-timeout", "10", "--max-tokens", "2000", "--ref", "e2"],
            &[
                "snapshot",
                "{url}",
                "--capture-timeout",
                "10",
                "--max-tokens",
                "2000",
                "--ref",
                "e2",
                "--from",
                "2490",
            ],
        ],
        secs: LIVE_SECS,
        max_bytes: 64 * KB,
        fails: false,
        check: |r| {
            // The table is too wide even folded: its first rows, then a line that says how to
            // open the rest, which the second run does from row 2,490 to the last.
            for run in r {
                let tokens = axsnap_core::tokens::count_cl100k(&run.stdout);
                if tokens > 2_000 {
                    return Err(format!("{tokens} tokens over the budget"));
                }
            }
            has_str(&r[0].stdout, "cell \"Item 0\"")?;
            has(&r[0].stdout, "more parts", "do not fit in the budget: snapshot ref=e2 from=")?;
            no_str(&r[1].stdout, "\"Item 2489\"")?;
            has_str(&r[1].stdout, "cell \"Item 2490\"")?;
            has_str(&r[1].stdout, "cell \"Item 2499\"")?;
            no_str(&r[1].stdout, "more parts")
        },
    },
    Case {
        name: "control_characters_cannot_break_lines",
        input: Input::Page("control_chars.html"),
        runs: &[SNAP],
        secs: LIVE_SECS,
        max_bytes: 8 * KB,
        fails: false,
        check: |r| {
            let out = &r[0].stdout;
            has_str(out, r#"button "one two \u{1}three \"quoted\" \\ back""#)?;
            has(out, "textbox \"Notes\"", r#": line one line two three four\u{7}five"#)?;
            if !out.starts_with("# Title with # bell — ") {
                return Err(format!("header: {}", out.lines().next().unwrap_or("")));
            }
            let breaker = |c: char| (c.is_control() && c != '\n') || c == '\u{2028}' || c == '\u{2029}';
            if out.contains(breaker) || out.lines().any(|l| l.starts_with("two") || l.starts_with("line two"))
            {
                return Err("a control character reached the output".into());
            }
            Ok(())
        },
    },
    Case {
        name: "deep_page_json_reads_anywhere",
        input: Input::Page("deep.html"),
        // Chromium takes seconds over 1,500 levels, many on a busy machine: a deadline that
        // holds there (the deadline is what this case is not about).
        runs: &[SNAP_RECORD_SLOW, RECORD_JSON],
        secs: 2 * LIVE_SECS,
        max_bytes: 2048 * KB,
        fails: false,
        check: |r| {
            // Indentation stops at 60 levels; the depth is written out past it.
            let bottom = line_with(&r[0].stdout, "button \"Bottom\"")?;
            if !bottom.trim_start().starts_with("[depth 150") || bottom.len() > 200 {
                return Err(format!("bottom line: {bottom}"));
            }
            let v = parse(&r[1].stdout)?;
            let nodes = v["nodes"].as_array().map_or(0, Vec::len);
            if nodes < 1_500 {
                return Err(format!("{nodes} nodes"));
            }
            python_reads(&r[1].stdout)
        },
    },
    Case {
        name: "deep_tree_100k_json_reads_anywhere",
        input: Input::Trees(|| vec![deep_tree(100_000, "leaf"), deep_tree(100_000, "new leaf")]),
        runs: &[
            &["snapshot", "--tree", "{tree}", "--format", "json", "--max-tokens", "0"],
            &["snapshot", "--tree", "{tree}", "--max-tokens", "0"],
            &["diff", "{tree}", "{tree2}", "--format", "json"],
            &["snapshot", "--tree", "{tree}"],
        ],
        secs: 60,
        max_bytes: 32 * 1024 * KB,
        fails: false,
        check: |r| {
            let v = parse(&r[0].stdout)?;
            let nodes = v["nodes"].as_array().map_or(0, Vec::len);
            if nodes != 100_000 {
                return Err(format!("{nodes} nodes in the JSON"));
            }
            python_reads(&r[0].stdout)?;
            // The document root is the header, not a line: the leaf is 99,998 levels down.
            has_str(&r[1].stdout, "[depth 99998] group \"leaf\"")?;
            let d = parse(&r[2].stdout)?;
            if !r[2].stdout.contains("new leaf") || d["ops"].as_array().map_or(0, Vec::len) != 1 {
                return Err(format!("diff: {}", clip(&r[2].stdout)));
            }
            python_reads(&r[2].stdout)?;
            // Within the default budget, 100,000 levels deep: an outline.
            let tokens = axsnap_core::tokens::count_cl100k(&r[3].stdout);
            if tokens > axsnap_core::outline::DEFAULT_MAX_TOKENS {
                return Err(format!("outline of {tokens} tokens"));
            }
            has_str(&r[3].stdout, "folded")
        },
    },
    // A paragraph holding a chain of nested code spans, each with a text or a link and the
    // next span: the text form's inline runs recursed into them and overflowed the stack.
    Case {
        name: "code_spans_100k_deep_text_diff_find",
        input: Input::Trees(|| {
            vec![code_chain(100_000, "leaf", false), code_chain(100_000, "new leaf", true)]
        }),
        runs: &[
            &["snapshot", "--tree", "{tree}"],
            &["snapshot", "--tree", "{tree2}"],
            &["diff", "{tree}", "{tree2}"],
            &["find", "--tree", "{tree2}", "new leaf", "--limit", "1"],
        ],
        secs: 120,
        // The CLI diff of two recorded trees is whole: 100,000 pieces changed.
        max_bytes: 8 * 1024 * KB,
        fails: false,
        check: |r| {
            for run in &r[..2] {
                let tokens = axsnap_core::tokens::count_cl100k(&run.stdout);
                if tokens > axsnap_core::outline::DEFAULT_MAX_TOKENS {
                    return Err(format!("outline of {tokens} tokens"));
                }
                has_str(&run.stdout, "folded")?;
            }
            has_str(&r[1].stdout, "[T0](e")?;
            has_str(&r[2].stdout, "new leaf")?;
            line_with(&r[3].stdout, "text \"new leaf\"").map(|_| ())
        },
    },
    Case {
        name: "find_in_a_100k_deep_tree_prints_a_short_path",
        input: Input::Trees(|| vec![deep_tree(100_000, "leaf")]),
        runs: &[&["find", "--tree", "{tree}", "leaf", "--limit", "1"]],
        secs: 60,
        max_bytes: 2 * KB,
        fails: false,
        check: |r| {
            let line = line_with(&r[0].stdout, "group \"leaf\"")?;
            if !line.contains('…') {
                return Err(format!("the ancestor path is not shortened: {}", clip(line)));
            }
            Ok(())
        },
    },
    // The renderer blocked while the page loads, and pages that never settle: each answers
    // within its budget and says why.
    Case {
        name: "alert_while_loading_is_reported",
        input: Input::Page("alert_on_load.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| {
            has_str(&r[0].stdout, "alertdialog \"hello\"")?;
            has_str(&r[0].stdout, "--dialog accept")
        },
    },
    Case {
        name: "alert_while_loading_accepted",
        input: Input::Page("alert_on_load.html"),
        runs: &[SNAP_ACCEPT],
        secs: LIVE_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| {
            has_str(&r[0].stdout, "button \"After the alert\"")?;
            no_str(&r[0].stdout, "alertdialog")
        },
    },
    Case {
        name: "confirm_while_loading_dismissed",
        input: Input::Page("confirm_on_load.html"),
        runs: &[SNAP_DISMISS],
        secs: LIVE_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| has_str(&r[0].stdout, "paragraph: dismissed"),
    },
    Case {
        name: "prompt_while_loading_accepted_with_its_default",
        input: Input::Page("prompt_on_load.html"),
        runs: &[SNAP_ACCEPT],
        secs: LIVE_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| has_str(&r[0].stdout, "Hello guest"),
    },
    Case {
        name: "alert_right_after_load_is_reported",
        input: Input::Page("alert_after_load.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| has_str(&r[0].stdout, "alertdialog \"later on\""),
    },
    Case {
        name: "endless_script_while_loading",
        input: Input::Page("busy_on_load.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| {
            has(&r[0].stdout, "did not settle", "the page is busy")?;
            has_str(&r[0].stdout, "partial capture")
        },
    },
    Case {
        name: "endless_script_after_load",
        input: Input::Page("busy_after_load.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| has(&r[0].stdout, "did not settle", "the page is busy"),
    },
    Case {
        name: "synchronous_request_never_answered",
        input: Input::Page("sync_xhr_hang.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| has(&r[0].stdout, "waiting on the network", "/hang/sync-request"),
    },
    Case {
        name: "popup_running_an_endless_script",
        input: Input::Page("popup_js_loop.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        // The popup shares its opener's renderer when Chromium puts them in one process: then
        // the opener is busy too and the answer says so; otherwise the opener is captured whole.
        check: |r| {
            has_str(&r[0].stdout, "h1 \"Opener\"").or_else(|_| has(&r[0].stdout, "did not settle", "busy"))
        },
    },
    Case {
        name: "page_that_reloads_itself_forever",
        input: Input::Page("reload_forever.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| {
            has(&r[0].stdout, "did not settle", "reloads or redirects itself")?;
            has_str(&r[0].stdout, "h1 \"Again\"")
        },
    },
    Case {
        name: "ten_thousand_push_states",
        input: Input::Page("pushstate_10k.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| has_str(&r[0].stdout, "* pushed 10000 states"),
    },
    Case {
        name: "timer_that_never_stops",
        input: Input::Page("timer_forever.html"),
        runs: &[SNAP_SHORT],
        secs: SHORT_SECS,
        max_bytes: 4 * KB,
        fails: false,
        check: |r| {
            has(&r[0].stdout, "did not settle", "kept changing")?;
            has_str(&r[0].stdout, "h1 \"Clock\"")
        },
    },
    // Not pages: refused with the true reason, before any browser starts.
    Case {
        name: "unknown_scheme_refused",
        input: Input::Url("foo://bar/baz"),
        runs: &[SNAP],
        secs: 10,
        max_bytes: KB,
        fails: true,
        check: |r| has_str(&r[0].stderr, "unknown URL scheme \"foo\""),
    },
    Case {
        name: "javascript_url_refused",
        input: Input::Url("javascript:alert(1)"),
        runs: &[SNAP],
        secs: 10,
        max_bytes: KB,
        fails: true,
        check: |r| has_str(&r[0].stderr, "javascript: URLs are scripts"),
    },
    Case {
        name: "browser_internal_page_refused",
        input: Input::Url("chrome://crash"),
        runs: &[SNAP],
        secs: 10,
        max_bytes: KB,
        fails: true,
        check: |r| has_str(&r[0].stderr, "the browser's own pages"),
    },
    Case {
        name: "data_url_is_a_page",
        input: Input::Url("data:text/html,<title>Inline</title><h1>Inline page</h1>"),
        runs: &[SNAP],
        secs: LIVE_SECS,
        max_bytes: KB,
        fails: false,
        check: |r| has_str(&r[0].stdout, "h1 \"Inline page\""),
    },
];

// ---------------------------------------------------------------------------------------------
// Checks.

/// None of `secrets` in any run's output, logs or record.
fn absent(runs: &[Run], secrets: &[&str]) -> Result<(), String> {
    for run in runs {
        let all = run.everything();
        for s in secrets {
            if let Some(at) = all.find(s) {
                let from = all[..at].char_indices().rev().nth(80).map_or(0, |(i, _)| i);
                return Err(format!("{s:?} leaked in `{}`: …{}", run.args.join(" "), clip(&all[from..])));
            }
        }
    }
    Ok(())
}

fn no_str(text: &str, unwanted: &str) -> Result<(), String> {
    match text.contains(unwanted) {
        true => Err(format!("found {unwanted:?} in:\n{}", clip(text))),
        false => Ok(()),
    }
}

fn has_str(text: &str, want: &str) -> Result<(), String> {
    if text.contains(want) {
        Ok(())
    } else {
        Err(format!("{want:?} not in:\n{}", clip(text)))
    }
}

/// The first line containing `what`.
fn line_with<'t>(text: &'t str, what: &str) -> Result<&'t str, String> {
    text.lines()
        .find(|l| l.contains(what))
        .ok_or_else(|| format!("no line with {what:?} in:\n{}", clip(text)))
}

/// A line containing `what` also contains `then`.
fn has(text: &str, what: &str, then: &str) -> Result<(), String> {
    let l = line_with(text, what)?;
    if l.contains(then) {
        Ok(())
    } else {
        Err(format!("{then:?} not in the line {l:?}"))
    }
}

/// The JSON, read by serde_json with its default limits.
fn parse(json: &str) -> Result<serde_json::Value, String> {
    serde_json::from_str(json).map_err(|e| format!("serde_json cannot read it: {e}"))
}

/// Python's `json` module reads it.
fn python_reads(json: &str) -> Result<(), String> {
    let mut child = Command::new("python3")
        .args(["-c", "import json,sys; json.load(sys.stdin)"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = json.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let _ = writer.join();
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("python's json cannot read it: {}", clip(&String::from_utf8_lossy(&out.stderr))))
    }
}

/// The first node of a snapshot's JSON with this role and name (`""`: no name) passes `test`.
fn json_node(
    json: &str,
    role: &str,
    name: &str,
    test: impl Fn(&serde_json::Value) -> bool,
) -> Result<(), String> {
    let v = parse(json)?;
    let nodes = v["nodes"].as_array().ok_or("no nodes")?;
    let named = |n: &&serde_json::Value| n["name"].as_str().unwrap_or("") == name;
    let n = nodes
        .iter()
        .find(|n| n["role"] == role && named(n))
        .ok_or_else(|| format!("no {role} named {name:?}"))?;
    if test(n) {
        Ok(())
    } else {
        Err(format!("node {name:?}: {}", clip(&n.to_string())))
    }
}

fn field<'v>(n: &'v serde_json::Value, key: &str) -> Option<&'v str> {
    n.get(key).and_then(|v| v.as_str())
}

/// At most 400 characters of `s`, for error messages.
fn clip(s: &str) -> String {
    match s.char_indices().nth(400) {
        Some((i, _)) => format!("{}… ({} bytes)", &s[..i], s.len()),
        None => s.to_string(),
    }
}

/// A recorded tree (interchange form) of `depth` nested groups, the last named `leaf`.
fn deep_tree(depth: usize, leaf: &str) -> String {
    let mut out = String::from(r#"{"format":"axsnap-tree","version":1,"root":0,"nodes":["#);
    for i in 0..depth {
        if i > 0 {
            out.push(',');
        }
        let name = if i + 1 == depth { leaf.to_string() } else { format!("g{i}") };
        let role = if i == 0 { "document" } else { "group" };
        out.push_str(&format!(
            r#"{{"id":{i},"role":"{role}","name":"{name}","native":{{"scope":"d","id":"{i}"}}"#
        ));
        if i + 1 < depth {
            out.push_str(&format!(r#","children":[{}]"#, i + 1));
        }
        out.push('}');
    }
    out.push_str("]}");
    out
}

/// A recorded tree of a paragraph holding `depth` nested code spans, each with a text (or a
/// link, with `links`) and the next span; the last holds the text `leaf`.
fn code_chain(depth: usize, leaf: &str, links: bool) -> String {
    let mut nodes = vec![
        r#"{"id":0,"role":"document","name":"Deep","native":{"scope":"d","id":"0"},"children":[1]}"#
            .to_string(),
        r#"{"id":1,"role":"paragraph","native":{"scope":"d","id":"1"},"children":[2]}"#.to_string(),
    ];
    // Code span i is node 2 + 2i, its piece node 3 + 2i.
    for i in 0..depth {
        let (code, piece) = (2 + 2 * i, 3 + 2 * i);
        let next = if i + 1 < depth { format!(",{}", code + 2) } else { format!(",{}", 2 + 2 * depth) };
        nodes.push(format!(
            r#"{{"id":{code},"role":"code","native":{{"scope":"d","id":"{code}"}},"children":[{piece}{next}]}}"#
        ));
        nodes.push(if links {
            format!(
                r#"{{"id":{piece},"role":"link","name":"T{i}","actions":["click"],"url":"https://d.example/{i}","native":{{"scope":"d","id":"{piece}"}}}}"#
            )
        } else {
            format!(r#"{{"id":{piece},"role":"text","name":"x{i} ","native":{{"scope":"d","id":"{piece}"}}}}"#)
        });
    }
    let last = 2 + 2 * depth;
    nodes.push(format!(
        r#"{{"id":{last},"role":"text","name":"{leaf}","native":{{"scope":"d","id":"{last}"}}}}"#
    ));
    format!(r#"{{"format":"axsnap-tree","version":1,"root":0,"nodes":[{}]}}"#, nodes.join(","))
}

// ---------------------------------------------------------------------------------------------
// The runner.

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("axsnap-hostile-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Runs `axsnap args` with a deadline (every run logs at trace level: secrets are looked for
/// in the logs too).
fn run_bin(args: Vec<String>, record: Option<&Path>, secs: u64) -> Result<Run, String> {
    let done = bounded::run(&args, &[("RUST_LOG", "trace")], secs)?;
    let record = record.and_then(|p| std::fs::read_to_string(p).ok());
    Ok(Run { args, ok: done.ok, stdout: done.stdout, stderr: done.stderr, record, elapsed: done.elapsed })
}

/// Runs one case: every command line, the bounds every run must keep, then its check.
fn run_case(case: &Case, server: &Server) -> Result<Vec<Duration>, String> {
    let dir = scratch_dir();
    let record = dir.join(format!("{}.record.json", case.name));
    let mut trees = Vec::new();
    if let Input::Trees(make) = &case.input {
        for (i, t) in make().into_iter().enumerate() {
            let p = dir.join(format!("{}.tree{i}.json", case.name));
            std::fs::write(&p, t).map_err(|e| e.to_string())?;
            trees.push(p.display().to_string());
        }
    }
    let url = match &case.input {
        Input::Page(p) => server.url(p),
        Input::Url(u) => u.to_string(),
        Input::Trees(_) => String::new(),
    };
    let mut runs = Vec::new();
    for cmd in case.runs {
        let records = cmd.contains(&"--record");
        if records {
            let _ = std::fs::remove_file(&record);
        }
        let args: Vec<String> = cmd
            .iter()
            .map(|a| match *a {
                "{url}" => url.clone(),
                "{record}" => record.display().to_string(),
                "{tree}" => trees.first().cloned().unwrap_or_default(),
                "{tree2}" => trees.get(1).cloned().unwrap_or_default(),
                a => a.to_string(),
            })
            .collect();
        let run = run_bin(args, records.then_some(record.as_path()), case.secs)?;
        let line = run.args.join(" ");
        if !run.ok && !case.fails {
            return Err(format!("`axsnap {line}` failed: {}", clip(&run.stderr)));
        }
        if run.ok && case.fails {
            return Err(format!("`axsnap {line}` succeeded; it should refuse: {}", clip(&run.stdout)));
        }
        if run.stdout.len() > case.max_bytes {
            return Err(format!(
                "`axsnap {line}` printed {} bytes (bound {})",
                run.stdout.len(),
                case.max_bytes
            ));
        }
        if !run.json() {
            if let Some(l) = run.stdout.lines().find(|l| l.chars().count() > LINE_CHARS) {
                return Err(format!("`axsnap {line}` printed a line of {} chars", l.chars().count()));
            }
        }
        if records && run.record.is_none() {
            return Err(format!("`axsnap {line}` wrote no record"));
        }
        runs.push(run);
    }
    (case.check)(&runs)?;
    Ok(runs.iter().map(|r| r.elapsed).collect())
}

#[test]
fn hostile_pages() {
    let pages = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/pages");
    let server = Server::start(pages).expect("serve the pages on 127.0.0.1");
    let filter = std::env::var("HOSTILE_CASE").unwrap_or_default();
    let cases: Vec<&Case> = CASES.iter().filter(|c| c.name.contains(&filter)).collect();
    assert!(!cases.is_empty(), "no case matches HOSTILE_CASE={filter}");
    let jobs = std::env::var("HOSTILE_JOBS").ok().and_then(|j| j.parse().ok()).unwrap_or(2usize).max(1);
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::SeqCst)) {
                    match run_case(case, &server) {
                        Ok(times) => eprintln!("ok   {} {:?}", case.name, times),
                        Err(e) => {
                            eprintln!("FAIL {}: {e}", case.name);
                            if let Ok(mut f) = failures.lock() {
                                f.push(format!("{}: {e}", case.name));
                            }
                        }
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(scratch_dir());
    let failures = failures.into_inner().unwrap_or_default();
    assert!(
        failures.is_empty(),
        "{} of {} hostile cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn the_table_is_sound() {
    let pages = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile/pages");
    let mut names = std::collections::HashSet::new();
    for c in CASES {
        assert!(names.insert(c.name), "two cases named {}", c.name);
        if let Input::Page(p) = c.input {
            assert!(pages.join(p).is_file(), "{}: no page {p}", c.name);
        }
        assert!(!c.runs.is_empty() && c.secs > 0 && c.max_bytes > 0, "{}", c.name);
    }
    assert!(CASES.len() >= 30);
}
