//! Sessions: baselines per (client, target), the full / reset / auto modes and the auto policy.
//!
//! - `full`: the complete projected snapshot; the baseline does not move.
//! - `reset`: a full snapshot that becomes the new baseline.
//! - `auto` (default): the first call is full; later calls send a diff against the last
//!   snapshot this client was sent for this target when the diff is safe (it applies back to
//!   exactly the new snapshot, and both were projected with the same options) and costs less
//!   than `diff_ratio` (default 0.8) of the full response in cl100k tokens; otherwise full.
//!   Nothing changed: a one-line answer.
//!
//! Baselines are bounded in number (least recently used goes first) and age (time since the
//! baseline was last sent or diffed against).
//!
//! A session can be saved and restored, by this process or another ([`Session::save`],
//! [`Session::restore`], module `saved`): a server hands its sessions to another through a
//! shared store.
//!
//! Decisions this module makes beyond DESIGN.md:
//! - **Partial captures** (a deadline or size cut the capture short) are never diffed, in
//!   either direction: a diff against a complete baseline would report the missing part as
//!   removed, and the next complete capture would report it as added. Auto answers full
//!   ([`FullReason::Partial`]) and the response text starts by saying the capture is partial
//!   (text form: a `# partial capture: ...` line; JSON: a leading `"partial"` member).
//!   A partial capture refreshes refs without making stale the ones of elements it missed.
//! - **Nothing changed** means the tree diff is empty and the header (URL, title) is the same;
//!   the baseline then stays the snapshot the client has, so later diffs name a snapshot it
//!   saw. A header change with no tree change is sent as an (empty) diff with the new header.
//! - **Header in diffs**: diffs carry trees only, so when the URL or title changed the diff
//!   text starts with the new header (text: `# page: title — url`; JSON: a leading `"header"`).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::backend::Capture;
use crate::diff::{apply, diff};
use crate::project::{project, ProjectOptions};
use crate::refs::{RefError, RefSpace, RefStats, TargetId};
use crate::render::{render_diff, render_snapshot, render_unchanged, Format};
use crate::snapshot::{Header, Snapshot};
use crate::tokens::{count_cl100k, measure, Size};
use crate::tree::NativeId;
use crate::Ref;

/// From this many raw nodes on, a capture is projected on a thread of its own while the refs
/// read it ([`RefSpace::read_raw`]); below, a thread costs more than it saves.
const PARALLEL_NODES: usize = 20_000;

mod baselines;
mod saved;
mod steady;

use baselines::{Baseline, Baselines};
pub use saved::{RestoreError, SavedSession};

/// How a snapshot request is answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Diff when safe and smaller, else full; the baseline moves.
    #[default]
    Auto,
    /// Full; the baseline stays.
    Full,
    /// Full; the baseline moves.
    Reset,
}

/// The auto policy and the baseline bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    /// A diff is sent only when its tokens are below this fraction of the full response's.
    pub diff_ratio: f64,
    /// Most baselines kept (over all clients and targets).
    pub max_baselines: usize,
    /// Baselines older than this are dropped (the next auto answer is full).
    pub max_age: Duration,
    /// Check `apply(prev, diff) == next` before sending a diff.
    pub verify: bool,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { diff_ratio: 0.8, max_baselines: 64, max_age: Duration::from_secs(30 * 60), verify: true }
    }
}

/// Who is asking: one MCP client, one CLI invocation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClientId(pub String);

/// A snapshot request. The default: auto mode, text, the default projection, and a budget of
/// [`DEFAULT_MAX_TOKENS`](crate::outline::DEFAULT_MAX_TOKENS).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The mode.
    pub mode: Mode,
    /// The format.
    pub format: Format,
    /// Projection rules and view.
    pub options: ProjectOptions,
    /// Also render the answer in JSON ([`Response::json`]) when `format` is text: programs
    /// read the JSON while a model reads the text (an MCP result carries both).
    pub also_json: bool,
    /// The token budget (cl100k, text form): a page over it is sent as an outline
    /// ([`crate::outline`]), and a diff over it as the outline of the new page. `None`: no
    /// budget.
    pub max_tokens: Option<usize>,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            mode: Mode::default(),
            format: Format::default(),
            options: ProjectOptions::default(),
            also_json: false,
            max_tokens: Some(crate::outline::DEFAULT_MAX_TOKENS),
        }
    }
}

/// What kind of answer was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Answer {
    /// A full snapshot.
    Full {
        /// Why full was chosen in auto mode (`None` when asked for).
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<FullReason>,
    },
    /// A diff relative to snapshot `from_seq`.
    Diff {
        /// The baseline.
        from_seq: u64,
    },
    /// Nothing changed since `since_seq`.
    Unchanged {
        /// The baseline.
        since_seq: u64,
    },
}

/// Why auto mode sent a full snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FullReason {
    /// No baseline for this client and target (first call, expired or evicted).
    NoBaseline,
    /// The view or projection options differ from the baseline's.
    OptionsChanged,
    /// The new capture or the baseline is partial (cut short); partial captures are not diffed.
    Partial,
    /// The diff was not smaller than the policy's fraction of the full snapshot.
    DiffNotSmaller,
    /// The diff could not be made (a new root: another document) or did not apply back exactly.
    DiffUnsafe,
    /// A modal dialog went from over a page the client was shown only as `… N elements
    /// behind the dialog`: a diff would name refs it never saw.
    Uncovered,
}

/// One answer to a snapshot request.
#[derive(Clone, Debug)]
pub struct Response {
    /// What was sent.
    pub answer: Answer,
    /// The rendered text sent to the client.
    pub text: String,
    /// Its size (bytes, cl100k and o200k tokens).
    pub size: Size,
    /// cl100k tokens of the full rendering, for savings reports: always set for full and diff
    /// answers (auto needs it to decide), `None` for "unchanged" (not rendered, to stay cheap).
    pub full_tokens: Option<usize>,
    /// The new snapshot, whole (also when an outline, a diff or "unchanged" was sent): what
    /// `find` searches and refs resolve in.
    pub snapshot: Snapshot,
    /// Set when the page was over the budget and what was sent is an outline of it.
    pub outline: Option<OutlineInfo>,
    /// What the refs stage did.
    pub refs: RefStats,
    /// Why the capture is partial, when it is (also said in `text`).
    pub partial: Option<String>,
    /// The same answer in JSON, when the request asked for it ([`Request::also_json`]) or its
    /// format is JSON.
    pub json: Option<String>,
}

/// What an outline answer left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineInfo {
    /// cl100k tokens of the whole page's text form.
    pub page_tokens: usize,
    /// The budget it was outlined to.
    pub budget: usize,
    /// Parts folded.
    pub folds: usize,
}

/// Why a session request failed.
#[derive(Debug, Error)]
pub enum SessionError {
    /// A ref could not be used.
    #[error(transparent)]
    Ref(#[from] RefError),
}

/// Baselines and refs of one session (one browser context or desktop, any number of clients).
#[derive(Debug, Default)]
pub struct Session {
    policy: Policy,
    refs: RefSpace,
    next_seq: u64,
    baselines: Baselines,
    steady: steady::SteadyCovers,
}

impl Session {
    /// A session with a policy.
    pub fn new(policy: Policy) -> Session {
        Session { policy, ..Session::default() }
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Turns an optional scope ref (as an agent gives it) into the native id a
    /// [`View::scope`](crate::project::View::scope) wants.
    pub fn view_scope(
        &self,
        target: &TargetId,
        scope: Option<Ref>,
    ) -> Result<Option<NativeId>, SessionError> {
        match scope {
            None => Ok(None),
            Some(r) => Ok(Some(self.refs.resolve(target, r)?.clone())),
        }
    }

    /// Answers a snapshot request for a fresh capture: project, assign refs, then render full,
    /// diff or unchanged by the request's mode and the policy.
    pub fn snapshot(
        &mut self,
        client: &ClientId,
        capture: &Capture,
        request: &Request,
        now: Instant,
    ) -> Result<Response, SessionError> {
        self.expire(now);
        let partial_capture = capture.partial.is_some();
        // A cover that was already in place says it covers from its second capture on.
        let held = self.steady.held_back(&capture.target, &capture.tree);
        let steadied;
        let raw = if held.is_empty() {
            &capture.tree
        } else {
            let mut copy = capture.tree.clone();
            crate::cover::quiet(&mut copy, &held);
            steadied = copy;
            &steadied
        };
        let project_it = || match scoped_part(raw, &request.options) {
            Some(part) => part,
            None => project(raw, &request.options),
        };
        let refs = if raw.arena_len() >= PARALLEL_NODES {
            // Projecting and reading the raw tree for the refs are independent and take about
            // as long on a large page: side by side where a second core is free.
            let (projection, read) = std::thread::scope(|s| {
                let projecting = s.spawn(project_it);
                let read = self.refs.read_raw(&capture.target, raw, !partial_capture);
                // A panic while projecting is a bug; project here to report it as such.
                (projecting.join().unwrap_or_else(|_| project_it()), read)
            });
            let mut projection = projection;
            let stats = self.refs.refresh_read(read, &mut projection, partial_capture);
            (projection, stats)
        } else {
            let mut projection = project_it();
            let stats = if partial_capture {
                self.refs.refresh_projection_partial(&capture.target, raw, &mut projection)
            } else {
                self.refs.refresh_projection(&capture.target, raw, &mut projection)
            };
            (projection, stats)
        };
        let (projection, refs) = refs;
        self.next_seq += 1;
        let snapshot = Snapshot {
            target: capture.target.clone(),
            seq: self.next_seq,
            header: capture.header.clone(),
            tree: projection.tree,
            stats: projection.stats,
        };
        let format = request.format;
        let partial = capture.partial.clone();
        let key = (client.clone(), capture.target.clone());
        // What the client is shown: the snapshot, or its outline when over the budget. Fitting
        // renders the text form once; the answer reuses it.
        // A part shown from a later child on numbers its cut line's `from=` from the element's
        // first child.
        let from = request.options.view.scope.as_ref().and(request.options.view.from).unwrap_or(0);
        // The cut this client was last shown of this document stays where it was while it
        // fits (a part shown `from=` is a page of its own).
        let kept = (from == 0)
            .then(|| self.baselines.get(&key).and_then(|b| crate::outline::kept_of(&b.snapshot.tree)))
            .flatten();
        let fitted = request.max_tokens.map(|b| fit(&snapshot, b, partial.as_deref(), from, kept.as_ref()));
        let (outlined, rendered) = match fitted {
            Some(f) => (f.outline, (format == Format::Text).then_some((f.text, f.tokens))),
            None => (None, None),
        };
        let (shown, outline) = match &outlined {
            Some((s, info)) => (s, Some(*info)),
            None => (&snapshot, None),
        };
        let lead = Lead { partial: partial.as_deref(), outline: outline.as_ref() };

        let mut full_tokens = None;
        let mut diff_json = None;
        let mut prev_unseen = false;
        let (answer, text) = match request.mode {
            Mode::Full | Mode::Reset => {
                let text = rendered.map_or_else(|| full_text(shown, format, &lead), |(t, _)| t);
                (Answer::Full { reason: None }, text)
            }
            Mode::Auto => {
                // Back on a document this client saw before (the browser kept it): diffed
                // against what it was last sent of it.
                // After a part of the page (`snapshot ref=…`) the page is diffed against what
                // the client last saw of it whole, with no note: it never left.
                let back = self.baselines.back_to(&key, shown, &request.options)
                    == Some(baselines::Back::FromAnotherDocument);
                let baseline = self.baselines.get(&key);
                prev_unseen = baseline.is_some_and(|b| b.unseen_behind);
                let note = |text: String, unchanged: bool, format: Format| match back {
                    true => with_back_note(text, &shown.header, unchanged, format),
                    false => text,
                };
                match self.auto(baseline, shown, request, &lead, rendered) {
                    Auto::Unchanged { since_seq } => {
                        if let Some(b) = self.baselines.get_mut(&key) {
                            b.last_used = now;
                        }
                        let text = match (back, format) {
                            (true, Format::Text) => note(String::new(), true, format),
                            _ => note(render_unchanged(since_seq, format), true, format),
                        };
                        let size = measure(&text);
                        let json = match format {
                            Format::Json => Some(text.clone()),
                            Format::Text if request.also_json => {
                                Some(note(render_unchanged(since_seq, Format::Json), true, Format::Json))
                            }
                            Format::Text => None,
                        };
                        return Ok(Response {
                            answer: Answer::Unchanged { since_seq },
                            text,
                            size,
                            full_tokens: None,
                            snapshot,
                            outline,
                            refs,
                            partial,
                            json,
                        });
                    }
                    Auto::Diff { from_seq, text, full, json } => {
                        full_tokens = Some(full);
                        diff_json = json.map(|j| note(j, false, Format::Json));
                        (Answer::Diff { from_seq }, note(text, false, format))
                    }
                    Auto::Full { reason, text, full } => {
                        full_tokens = full;
                        (Answer::Full { reason: Some(reason) }, text)
                    }
                }
            }
        };
        let size = measure(&text);
        let full_tokens = Some(full_tokens.unwrap_or(size.tokens_cl100k));
        let json = match (format, &answer) {
            (Format::Json, _) => Some(text.clone()),
            (Format::Text, _) if !request.also_json => None,
            (Format::Text, Answer::Diff { .. }) => diff_json,
            (Format::Text, _) => Some(full_text(shown, Format::Json, &lead)),
        };
        if request.mode != Mode::Full {
            // A whole answer in text drew what a modal covers as one line: the client knows
            // it only if an earlier answer showed it (its refs are in the baseline, seen). A
            // diff keeps what the client knew.
            let hidden = crate::render::hidden_behind_modal(&shown.tree);
            let unseen_behind = !hidden.is_empty()
                && match answer {
                    Answer::Diff { .. } => prev_unseen,
                    _ if format != Format::Text || outline.is_some() => false,
                    _ => {
                        prev_unseen
                            || !self.baselines.get(&key).is_some_and(|b| {
                                let t = &b.snapshot.tree;
                                let known: std::collections::HashSet<Ref> =
                                    t.preorder().filter_map(|(id, _)| t.node(id).ref_id).collect();
                                hidden.iter().all(|r| known.contains(r))
                            })
                    }
                };
            let baseline = Baseline {
                snapshot: shown.clone(),
                options: request.options.clone(),
                partial: partial.is_some(),
                unseen_behind,
                last_used: now,
            };
            self.baselines.insert(key, baseline);
            self.evict();
        }
        Ok(Response { answer, text, size, full_tokens, snapshot, outline, refs, partial, json })
    }

    /// The auto policy: what to send for `next` given the client's baseline. `rendered` is
    /// `next`'s full text in the request's format with its cl100k tokens, when already made.
    fn auto(
        &self,
        baseline: Option<&Baseline>,
        next: &Snapshot,
        request: &Request,
        lead: &Lead<'_>,
        rendered: Option<(String, usize)>,
    ) -> Auto {
        let format = request.format;
        let whole = |rendered: Option<(String, usize)>| match rendered {
            Some((text, tokens)) => (text, Some(tokens)),
            None => (full_text(next, format, lead), None),
        };
        let full = |reason, rendered| {
            let (text, full) = whole(rendered);
            Auto::Full { reason, text, full }
        };
        let Some(base) = baseline else { return full(FullReason::NoBaseline, rendered) };
        if base.options != request.options {
            return full(FullReason::OptionsChanged, rendered);
        }
        if base.partial || lead.partial.is_some() {
            return full(FullReason::Partial, rendered);
        }
        if base.unseen_behind && !crate::render::folds_behind_modal(&next.tree) {
            return full(FullReason::Uncovered, rendered);
        }
        let prev = &base.snapshot;
        let Ok(mut d) = diff(&prev.tree, &next.tree) else { return full(FullReason::DiffUnsafe, rendered) };
        let header_changed = prev.header != next.header;
        // Only a carried ref's new native id or bounds (an app that re-creates its objects, a
        // reload), or a part made again as it was whose refs the agent was never shown: no
        // change, in every form the answer takes.
        if !header_changed && crate::render::diff_unseen(&d, &prev.tree, &next.tree) {
            return Auto::Unchanged { since_seq: prev.seq };
        }
        d.from_seq = prev.seq;
        d.to_seq = next.seq;
        if self.policy.verify && !matches!(apply(&prev.tree, &d), Ok(t) if t == next.tree) {
            return full(FullReason::DiffUnsafe, rendered);
        }
        let mut diff_text = match (header_changed, format) {
            // The header line says the page's new title and URL: the root's own change of them
            // would say it twice.
            (true, Format::Text) => {
                render_diff(&without_root_title(&d, &next.tree), &prev.tree, &next.tree, format)
            }
            _ => render_diff(&d, &prev.tree, &next.tree, format),
        };
        if header_changed {
            diff_text = with_header(diff_text, &next.header, format);
        }
        let (text, tokens) = whole(rendered);
        let full_tokens = tokens.unwrap_or_else(|| count_cl100k(&text));
        let diff_tokens = count_cl100k(&diff_text);
        // A diff over the budget gives way to the (outlined) new page, which fits.
        let fits = request.max_tokens.is_none_or(|b| diff_tokens <= b);
        if fits && (diff_tokens as f64) < self.policy.diff_ratio * full_tokens as f64 {
            let json = (format == Format::Text && request.also_json).then(|| {
                let json = render_diff(&d, &prev.tree, &next.tree, Format::Json);
                if header_changed {
                    with_header(json, &next.header, Format::Json)
                } else {
                    json
                }
            });
            Auto::Diff { from_seq: prev.seq, text: diff_text, full: full_tokens, json }
        } else {
            Auto::Full { reason: FullReason::DiffNotSmaller, text, full: Some(full_tokens) }
        }
    }

    /// Drops baselines older than the policy's age.
    fn expire(&mut self, now: Instant) {
        self.baselines.expire(now, self.policy.max_age);
    }

    /// Drops least recently used baselines past the policy's count.
    fn evict(&mut self) {
        self.baselines.evict(self.policy.max_baselines);
    }

    /// The native id a ref names on `target`.
    pub fn resolve(&self, target: &TargetId, r: Ref) -> Result<&NativeId, RefError> {
        self.refs.resolve(target, r)
    }

    /// The refs (for find and scope resolution).
    pub fn refs(&self) -> &RefSpace {
        &self.refs
    }

    /// Drops a client's baselines (it disconnected).
    pub fn forget_client(&mut self, client: &ClientId) {
        self.baselines.retain(|(c, _)| c != client);
    }

    /// Drops a target's baselines and refs (its tab closed).
    pub fn forget_target(&mut self, target: &TargetId) {
        self.baselines.retain(|(_, t)| t != target);
        self.refs.forget_target(target);
        self.steady.forget(target);
    }

    /// Baselines currently kept.
    pub fn baseline_count(&self) -> usize {
        self.baselines.len()
    }

    /// The sequence number of the baseline kept for `client` on `target`, if any.
    pub fn baseline_seq(&self, client: &ClientId, target: &TargetId) -> Option<u64> {
        self.baselines.get(&(client.clone(), target.clone())).map(|b| b.snapshot.seq)
    }
}

/// What the auto policy chose.
enum Auto {
    Unchanged { since_seq: u64 },
    Diff { from_seq: u64, text: String, full: usize, json: Option<String> },
    Full { reason: FullReason, text: String, full: Option<usize> },
}

/// What a full answer says before the tree: that the capture is partial, that it is an
/// outline.
struct Lead<'a> {
    partial: Option<&'a str>,
    outline: Option<&'a OutlineInfo>,
}

/// The full rendering, saying first when the capture is partial and when it is an outline.
fn full_text(snap: &Snapshot, format: Format, lead: &Lead<'_>) -> String {
    let mut text = render_snapshot(snap, format);
    if let Some(o) = lead.outline {
        text = match format {
            Format::Text => format!("{}\n{text}", outline_note(o)),
            Format::Json => {
                json_lead(text, "outline", &serde_json::to_value(o).unwrap_or(serde_json::Value::Null))
            }
        };
    }
    // The reason can quote the page (a dialog's message).
    let partial = lead.partial.map(|p| crate::caps::cap(p, crate::caps::TEXT_CHARS));
    let partial = partial.as_deref();
    match partial {
        None => text,
        Some(why) => match format {
            Format::Text => format!("# partial capture: {}; some content is missing\n{text}", one_line(why)),
            Format::Json => json_lead(text, "partial", &serde_json::Value::String(why.to_string())),
        },
    }
}

/// The text form's first line for an outline: what it is and how to see the rest.
fn outline_note(o: &OutlineInfo) -> String {
    use crate::caps::thousands;
    format!(
        "# outline: the page is {} tokens, over the {} budget; a line ending \"… folded N tokens\" stands for what is under it: snapshot with its ref opens that part (a heading's ref: its section), and find searches the whole page",
        thousands(o.page_tokens),
        thousands(o.budget)
    )
}

/// The outline of `snap` that fits `budget` cl100k tokens as the session sends it (text form,
/// with its header and note lines), or `None` when the whole snapshot fits: what a snapshot
/// request with [`Request::max_tokens`] shows.
pub fn fit_budget(snap: &Snapshot, budget: usize) -> Option<(Snapshot, OutlineInfo)> {
    fit(snap, budget, None, 0, None).outline
}

/// What fitting a snapshot to a budget gave: the outline when the page is over it, and the text
/// form of what is shown (the page or the outline) with its cl100k tokens.
struct Fit {
    outline: Option<(Snapshot, OutlineInfo)>,
    text: String,
    tokens: usize,
}

/// Fits `snap` to `budget`. The outline's own sizing counts each line alone; the whole text is
/// counted here, and the outline is made again with less room while it does not fit. `from`:
/// the index among the element's children of the root's first child (a part shown `from=`).
/// `kept`: the cut the client was last shown of this document ([`crate::outline::Fitting`]).
fn fit(
    snap: &Snapshot,
    budget: usize,
    partial: Option<&str>,
    from: usize,
    kept: Option<&crate::outline::Kept>,
) -> Fit {
    let text = full_text(snap, Format::Text, &Lead { partial, outline: None });
    let page_tokens = count_cl100k(&text);
    if page_tokens <= budget {
        return Fit { outline: None, text, tokens: page_tokens };
    }
    let mut room = budget;
    let mut last = Fit { outline: None, text, tokens: page_tokens };
    for _ in 0..4 {
        let fitting = crate::outline::Fitting { room, budget, from, kept };
        let o = crate::outline::outline_within(&snap.tree, snap.header.url.as_deref(), fitting);
        let info = OutlineInfo { page_tokens, budget, folds: o.folds };
        let shown = Snapshot {
            target: snap.target.clone(),
            seq: snap.seq,
            header: snap.header.clone(),
            tree: o.tree,
            stats: snap.stats.clone(),
        };
        let text = full_text(&shown, Format::Text, &Lead { partial, outline: Some(&info) });
        let tokens = count_cl100k(&text);
        last = Fit { outline: Some((shown, info)), text, tokens };
        if tokens <= budget {
            break;
        }
        // Over by a little: try again with that much less room, and a margin.
        room = room.saturating_sub(tokens - budget + budget / 50).max(1);
    }
    last
}

/// A scoped request shows the part of the page an outline would fold there: a section head's
/// section ([`crate::outline::section`]), else the element's subtree, both cut from the whole
/// page's projection (so the part holds exactly what a fold of it left out); with `from`, the
/// element's children from that index on (what an outline's cut line left out). `None` when the
/// element is not in that projection: the scoped projection then says so.
fn scoped_part(raw: &crate::tree::Tree, options: &ProjectOptions) -> Option<crate::project::Projection> {
    let scope = options.view.scope.as_ref()?;
    let mut whole = options.clone();
    whole.view.scope = None;
    let mut page = project(raw, &whole);
    let tree = &page.tree;
    let id = tree.preorder().map(|(id, _)| id).find(|&id| &tree.node(id).native == scope)?;
    let part = match options.view.from {
        // A value past the text cap is paged by character: the element, its value from there.
        Some(from) if pages_value(tree.node(id)) => {
            let mut part = crate::outline::subtree(tree, id);
            if let Some(root) = part.root() {
                let n = part.node_mut(root);
                n.value = n.value.as_deref().map(|v| crate::caps::page(v, from, crate::caps::TEXT_CHARS));
            }
            part
        }
        // The rest of a part an outline cut: the element's own children from there on.
        Some(from) => crate::outline::subtree_from(tree, id, from),
        None => crate::outline::section(tree, id).unwrap_or_else(|| crate::outline::subtree(tree, id)),
    };
    page.stats.output_nodes = part.len();
    page.tree = part;
    // The part is a new tree: the whole page's origins do not index it.
    page.origin.clear();
    Some(page)
}

/// Whether `from` on this element pages its value (longer than the text cap, so shown cut
/// with a `from=` marker) rather than its children.
fn pages_value(n: &crate::tree::Node) -> bool {
    n.value
        .as_deref()
        .is_some_and(|v| v.len() > crate::caps::TEXT_CHARS && v.chars().count() > crate::caps::TEXT_CHARS)
}

/// `d` without the root's name and URL changes (a document's title and address), for a text
/// that starts with the new header.
fn without_root_title(d: &crate::diff::Diff, next: &crate::tree::Tree) -> crate::diff::Diff {
    use crate::diff::{FieldChange, Op};
    let root = next.root().and_then(|r| next.node(r).ref_id);
    let mut out = d.clone();
    out.ops.retain_mut(|op| match op {
        Op::Update { r, changes } if Some(*r) == root => {
            changes.retain(|c| !matches!(c, FieldChange::Name { .. } | FieldChange::Url { .. }));
            !changes.is_empty()
        }
        _ => true,
    });
    out
}

/// A diff rendering preceded by the new header.
fn with_header(text: String, header: &Header, format: Format) -> String {
    match format {
        Format::Text => {
            let shown = page_words(header).unwrap_or_else(|| "(no title or URL)".to_string());
            format!("# page: {shown}\n{text}")
        }
        Format::Json => {
            let capped = Header {
                title: header
                    .title
                    .as_deref()
                    .map(|t| crate::caps::cap(t, crate::caps::TITLE_CHARS).into_owned()),
                url: header.url.as_deref().map(|u| crate::caps::cap(u, crate::caps::URL_CHARS).into_owned()),
            };
            let value = serde_json::to_value(&capped).unwrap_or(serde_json::Value::Null);
            json_lead(text, "header", &value)
        }
    }
}

/// An answer against the last snapshot of a document the client had left and is back on
/// (module `baselines`), preceded by a line that says so: the agent's last answer was of
/// another page. `unchanged`: the answer says nothing changed.
fn with_back_note(text: String, header: &Header, unchanged: bool, format: Format) -> String {
    match format {
        Format::Text => {
            let page = page_words(header).unwrap_or_else(|| "a page".to_string());
            let what = if unchanged {
                "unchanged since you last saw it"
            } else {
                "what changed since you last saw it:"
            };
            format!("# back on {page}, the same page as before: its refs work again; {what}\n{text}")
        }
        Format::Json => json_lead(text, "back", &serde_json::Value::Bool(true)),
    }
}

/// `TITLE — URL` of a header, capped and on one line; `None` when it has neither.
fn page_words(header: &Header) -> Option<String> {
    let title = header.title.as_deref().map(|t| crate::caps::cap(t, crate::caps::TITLE_CHARS));
    let url = header.url.as_deref().map(|u| crate::caps::cap(u, crate::caps::URL_CHARS));
    let parts: Vec<&str> =
        [title.as_deref(), url.as_deref()].into_iter().flatten().filter(|s| !s.is_empty()).collect();
    (!parts.is_empty()).then(|| one_line(&parts.join(" — ")))
}

/// `s` on one line (newlines would break the text form's line structure).
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Puts `"key": value` first in the JSON object `text` (render's output is an object; anything
/// else is wrapped).
fn json_lead(text: String, key: &str, value: &serde_json::Value) -> String {
    let member = format!("{}:{}", serde_json::Value::String(key.to_string()), value);
    match text.strip_prefix('{') {
        Some(rest) if rest.trim_start().starts_with('}') => format!("{{{member}{rest}"),
        Some(rest) => format!("{{{member},{rest}"),
        None => format!("{{{member},\"body\":{text}}}"),
    }
}
