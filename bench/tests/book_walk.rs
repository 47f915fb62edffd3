//! Navigation diffs on the Rust book: five chapters walked in order through the agent the MCP
//! server runs (real Chromium, the toolchain's Rust docs on 127.0.0.1), as an agent reads a
//! book. mdBook rebuilds its sidebar and chrome on every page; the refs of the parts that
//! match keep their refs, so each navigation is answered with a diff that says what changed.
//!
//! Each navigation's answer is a diff (auto picks it, so `apply(prev, diff) == next` held: the
//! session checks it before sending one), and it costs at most the new chapter's own tokens
//! (its `main`) plus 10% of the full snapshot.
//!
//! Figures: `cargo test -p axsnap-bench --test book_walk -- --nocapture`.

use std::time::Duration;

use axsnap_agent::{Agent, AgentOptions};
use axsnap_bench::serve::StaticServer;
use axsnap_bench::{docs, runtime};
use axsnap_cdp::{CdpBackend, LaunchOptions};
use axsnap_core::backend::TargetAction;
use axsnap_core::outline::subtree;
use axsnap_core::render::{render_snapshot, Format};
use axsnap_core::session::{Answer, Request};
use axsnap_core::tokens::count_cl100k;
use axsnap_core::{Role, Snapshot};

/// The five chapters, in reading order.
const CHAPTERS: &[&str] = &[
    "book/ch04-01-what-is-ownership.html",
    "book/ch04-02-references-and-borrowing.html",
    "book/ch04-03-slices.html",
    "book/ch05-00-structs.html",
    "book/ch05-01-defining-structs.html",
];

/// cl100k tokens of the page's `main` landmark drawn on its own.
fn main_tokens(s: &Snapshot) -> usize {
    let t = &s.tree;
    let Some(main) = t.preorder().map(|(id, _)| id).find(|&id| t.node(id).role == Role::Main) else {
        return 0;
    };
    let part = Snapshot { tree: subtree(t, main), header: Default::default(), ..s.clone() };
    count_cl100k(&render_snapshot(&part, Format::Text))
}

#[test]
fn each_chapter_is_a_diff_of_about_its_own_size() {
    let root = docs::rust_docs().expect("the toolchain's Rust docs");
    let server = StaticServer::start(&root).expect("a static server");
    runtime().expect("runtime").block_on(async {
        let backend = CdpBackend::launch(LaunchOptions::default()).await.expect("Chromium launches");
        let options = AgentOptions {
            after_action: Request::default(),
            capture_deadline: Duration::from_secs(60),
            ..AgentOptions::default()
        };
        let mut agent = Agent::new(backend, None, options);
        let first = agent.open(&server.url(CHAPTERS[0])).await.expect("the first chapter opens");
        println!("{}: full {} tokens", CHAPTERS[0], first.response.size.tokens_cl100k);
        let mut failures = Vec::new();
        let (mut sent, mut full) = (first.response.size.tokens_cl100k, first.response.size.tokens_cl100k);
        for page in &CHAPTERS[1..] {
            let step = agent
                .act_on_target(&TargetAction::Navigate { url: server.url(page) })
                .await
                .expect("the chapter opens");
            let r = &step.response;
            let full_tokens = r.full_tokens.unwrap_or(0);
            let own = main_tokens(&r.snapshot);
            let limit = own + full_tokens / 10;
            println!(
                "{page}: {:?} {} tokens (full {full_tokens}, the chapter's own {own}, limit {limit})",
                r.answer, r.size.tokens_cl100k
            );
            sent += r.size.tokens_cl100k;
            full += full_tokens;
            if !matches!(r.answer, Answer::Diff { .. }) {
                failures.push(format!("{page}: {:?}", r.answer));
            } else if r.size.tokens_cl100k > limit {
                failures.push(format!("{page}: diff {} over {limit}:\n{}", r.size.tokens_cl100k, r.text));
            }
        }
        println!("five chapters: {sent} tokens sent, {full} as full snapshots");
        agent.into_backend().close().await.ok();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}
