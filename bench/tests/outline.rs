//! The token budget on the largest real pages, through the agent the MCP server runs (real
//! Chromium, the toolchain's Rust docs on 127.0.0.1): the std `Vec` page (about 130,000
//! tokens whole) and the std index.
//!
//! - The first answer fits the default budget (10,000 cl100k): an outline of `Vec`, the std
//!   index whole (it fits since the leaner text form).
//! - Every heading and every interactive element of the page is reachable with at most two
//!   further calls that open folded parts: the outline's folds are opened through the agent
//!   (`snapshot ref=`, as an MCP client asks), and the folds those answers show are opened as
//!   the session opens them (the section and budget functions, on the page's projection),
//!   which keeps the test within minutes in a debug build.
//! - Each answer fits the budget.
//!
//! Figures: `cargo test -p axsnap-bench --test outline -- --nocapture`.

use std::collections::HashSet;
use std::time::Duration;

use axsnap_agent::{Agent, AgentOptions};
use axsnap_bench::serve::StaticServer;
use axsnap_bench::{docs, runtime};
use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::outline::{section, subtree, DEFAULT_MAX_TOKENS};
use axsnap_core::session::{fit_budget, Mode, Request};
use axsnap_core::{Node, NodeId, Ref, Role, Snapshot};

/// The refs a JSON answer shows, and those of its folded parts.
fn shown(json: &str) -> (HashSet<String>, Vec<String>) {
    let v: serde_json::Value = serde_json::from_str(json).expect("the answer's JSON");
    let nodes = v["nodes"].as_array().cloned().unwrap_or_default();
    let mut refs = HashSet::new();
    let mut folds = Vec::new();
    for n in nodes {
        if let Some(r) = n["ref"].as_str() {
            refs.insert(r.to_string());
            if !n["folded"].is_null() {
                folds.push(r.to_string());
            }
        }
    }
    (refs, folds)
}

/// What opening the fold `r` shows, as the session makes it: a section head's section, else
/// the subtree, outlined to the budget when over it.
fn open(whole: &Snapshot, r: &str) -> (HashSet<String>, Vec<String>) {
    let tree = &whole.tree;
    let id = tree
        .preorder()
        .map(|(id, _)| id)
        .find(|&id| tree.node(id).ref_id.map(|x| x.to_string()).as_deref() == Some(r));
    let id = id.expect("a fold names a node of the page");
    let part = section(tree, id).unwrap_or_else(|| subtree(tree, id));
    let snap = Snapshot { tree: part, ..whole.clone() };
    let shown_tree = fit_budget(&snap, DEFAULT_MAX_TOKENS).map(|(s, _)| s.tree).unwrap_or(snap.tree);
    let mut refs = HashSet::new();
    let mut folds = Vec::new();
    for (id, _) in shown_tree.preorder() {
        let n = shown_tree.node(id);
        if let Some(r) = n.ref_id {
            refs.insert(r.to_string());
            if n.folded.is_some() {
                folds.push(r.to_string());
            }
        }
    }
    (refs, folds)
}

fn reach(page: &str) {
    let root = docs::rust_docs().expect("the toolchain's Rust docs");
    let server = StaticServer::start(&root).expect("a static server");
    let url = server.url(page);
    runtime().expect("runtime").block_on(async {
        let backend = CdpBackend::launch(LaunchOptions::default()).await.expect("Chromium launches");
        let options = AgentOptions {
            after_action: Request { also_json: true, ..Request::default() },
            capture_deadline: Duration::from_secs(120),
            ..AgentOptions::default()
        };
        let mut agent = Agent::new(backend, None, options);
        let first = agent.open(&url).await.expect("the page opens");
        let r = &first.response;
        assert!(r.size.tokens_cl100k <= DEFAULT_MAX_TOKENS, "first answer {} tokens", r.size.tokens_cl100k);
        assert!(!r.snapshot.stats.scope_missing && first.response.partial.is_none(), "a whole capture");
        let whole = r.snapshot.clone();
        let (mut reached, folds0) = shown(r.json.as_deref().expect("JSON asked for"));
        match r.outline {
            Some(o) => println!(
                "{page}: whole {} tokens; outline {} tokens, {} folds",
                o.page_tokens,
                r.size.tokens_cl100k,
                folds0.len()
            ),
            None => println!("{page}: whole, {} tokens", r.size.tokens_cl100k),
        }

        // One call: open each fold through the agent.
        let mut level2 = Vec::new();
        let mut biggest = 0;
        for f in &folds0 {
            let mut req = Request { mode: Mode::Full, also_json: true, ..Request::default() };
            req.options.view.scope = Some(agent.resolve(f).expect("a fold's ref resolves"));
            let step = agent.snapshot(&req).await.expect("a fold opens");
            let tokens = step.response.size.tokens_cl100k;
            assert!(tokens <= DEFAULT_MAX_TOKENS, "opening {f}: {tokens} tokens");
            biggest = biggest.max(tokens);
            let (refs, folds) = shown(step.response.json.as_deref().expect("JSON asked for"));
            reached.extend(refs);
            level2.extend(folds);
        }
        // Two calls: open each fold those answers show.
        let mut opened2 = 0;
        for f in &level2 {
            let (refs, _) = open(&whole, f);
            reached.extend(refs);
            opened2 += 1;
        }
        let targets: Vec<(Ref, &Node)> = whole
            .tree
            .preorder()
            .map(|(id, _)| whole.tree.node(id))
            .filter(|n| n.role == Role::Heading || n.role.is_widget() || !n.actions.is_empty())
            .filter_map(|n| n.ref_id.map(|r| (r, n)))
            .collect();
        let missed: Vec<String> = targets
            .iter()
            .filter(|(r, _)| !reached.contains(&r.to_string()))
            .map(|(r, n)| format!("{r} {} {:?}", n.role, n.name))
            .collect();
        println!(
            "  {} headings and interactive elements; {} folds opened in one call (largest answer {biggest} tokens), {opened2} in two",
            targets.len(),
            folds0.len()
        );
        assert!(targets.len() > 100, "the page has many targets");
        if let Some((r, _)) = targets.iter().find(|(r, _)| !reached.contains(&r.to_string())) {
            // Where the first miss sits: its ancestors, and which of them were shown or opened.
            let t = &whole.tree;
            let id = t.preorder().map(|(id, _)| id).find(|&id| t.node(id).ref_id == Some(*r));
            let chain: Vec<NodeId> = id.map(|id| t.ancestors(id).collect()).unwrap_or_default();
            // Section heads before it among its ancestors' siblings: the folds that hold it.
            for &a in id.iter().chain(chain.iter()) {
                let Some(p) = t.node(a).parent else { continue };
                let sibs = &t.node(p).children;
                let at = sibs.iter().position(|&c| c == a).unwrap_or(0);
                for &b in sibs[..at].iter().rev().take(40) {
                    if axsnap_core::outline::section_level(t, b).is_some() {
                        let br = t.node(b).ref_id.map(|x| x.to_string()).unwrap_or_default();
                        eprintln!(
                            "  head {br} level {:?}: shown {}, fold {}, in two {}",
                            axsnap_core::outline::section_level(t, b),
                            reached.contains(&br),
                            folds0.contains(&br),
                            level2.contains(&br)
                        );
                    }
                }
            }
            for a in chain {
                let n = t.node(a);
                let ar = n.ref_id.map(|x| x.to_string()).unwrap_or_default();
                eprintln!(
                    "  ancestor {ar} {} {:?}: shown {}, fold {}, opened in two {}",
                    n.role,
                    axsnap_core::caps::cap(&n.name, 40),
                    reached.contains(&ar),
                    folds0.contains(&ar),
                    level2.contains(&ar)
                );
            }
        }
        assert!(missed.is_empty(), "{} not reachable in two calls: {:?}", missed.len(), &missed[..missed.len().min(10)]);
        agent.into_backend().close().await.ok();
    });
}

#[test]
fn vec_page_fits_the_budget_and_everything_is_two_calls_away() {
    reach("std/vec/struct.Vec.html");
}

#[test]
fn std_index_fits_the_budget_and_everything_is_two_calls_away() {
    reach("std/index.html");
}
