//! Desktop figures, in one run: capture time and size of gtk3- and gtk4-widget-factory, and
//! auto against full tokens over a four-action workload on gtk3-widget-factory.
//!
//! ```text
//! scripts/desktop-session -- cargo run --release -p axsnap-atspi --example desktop_figures [RUNS]
//! ```
//!
//! Starts each app itself in the session it runs in, and ends it afterwards.
#![cfg(target_os = "linux")]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axsnap_atspi::AtspiBackend;
use axsnap_core::backend::{Backend, Capture, ElementAction};
use axsnap_core::session::{Answer, ClientId, Mode, Policy, Request, Response, Session};
use axsnap_core::{Node, State, TargetId};

const DEADLINE: Duration = Duration::from_secs(30);

struct App(Child);

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(program: &str) -> App {
    let child = Command::new(program)
        .env("GSK_RENDERER", "cairo")
        .env("GDK_BACKEND", "x11")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    App(child)
}

async fn window(backend: &mut AtspiBackend, app: &str) -> TargetId {
    let start = Instant::now();
    loop {
        match backend.window(app, None).await {
            Ok(t) => return t,
            Err(e) if start.elapsed() > Duration::from_secs(60) => panic!("{app}: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn answer(session: &mut Session, capture: &Capture, mode: Mode) -> Response {
    let request = Request { mode, max_tokens: None, ..Request::default() };
    session.snapshot(&ClientId("figures".into()), capture, &request, Instant::now()).expect("an answer")
}

async fn capture_figures(backend: &mut AtspiBackend, app: &str, runs: usize) {
    let _running = start(app);
    let target = window(backend, app).await;
    // The first capture makes the toolkit create its accessible objects; time it apart.
    let t = Instant::now();
    let first = backend.capture(&target, DEADLINE).await.expect("a capture");
    let first_ms = t.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::new();
    let mut last = first;
    for _ in 0..runs {
        let t = Instant::now();
        last = backend.capture(&target, DEADLINE).await.expect("a capture");
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let mut session = Session::new(Policy::default());
    let r = answer(&mut session, &last, Mode::Full);
    println!(
        "| {app} | {} | {} | {:.0} ms | {:.0} ms | {} | {} |",
        last.tree.len(),
        r.snapshot.tree.len(),
        first_ms,
        median(times),
        r.size.tokens_cl100k,
        r.size.tokens_o200k,
    );
}

fn find(r: &Response, role: &str, pick: impl Fn(&Node) -> bool) -> String {
    let tree = &r.snapshot.tree;
    tree.preorder()
        .map(|(id, _)| tree.node(id))
        .find(|n| {
            n.role.as_str() == role && n.ref_id.is_some() && !n.states.contains(State::Disabled) && pick(n)
        })
        .and_then(|n| n.ref_id)
        .map(|r| r.to_string())
        .unwrap_or_else(|| panic!("no {role} to act on"))
}

async fn workload(backend: &mut AtspiBackend) {
    let _running = start("gtk3-widget-factory");
    let target = window(backend, "gtk3-widget-factory").await;
    let mut session = Session::new(Policy::default());
    let capture = backend.capture(&target, DEADLINE).await.expect("a capture");
    let first = answer(&mut session, &capture, Mode::Auto);
    println!("| first snapshot | full | {} | {} |", first.size.tokens_cl100k, first.size.tokens_cl100k);
    let mut auto_total = first.size.tokens_cl100k;
    let mut full_total = first.size.tokens_cl100k;
    let cb = find(&first, "checkbox", |n| {
        n.name == "checkbutton" && !n.states.contains(State::Checked) && !n.states.contains(State::Mixed)
    });
    let entry = find(&first, "textbox", |n| n.value.as_deref() == Some("entry"));
    let tab = find(&first, "tab", |n| n.name == "page 2");
    let menu = find(&first, "button", |n| n.name == "Menu");
    let steps: [(&str, &str, ElementAction); 4] = [
        ("check a check button", &cb, ElementAction::Check { on: true }),
        (
            "type into an entry",
            &entry,
            ElementAction::Type { text: "hello".into(), clear: true, submit: false },
        ),
        ("switch a notebook page", &tab, ElementAction::Click { count: 1 }),
        ("open the menu", &menu, ElementAction::Click { count: 1 }),
    ];
    for (what, r, action) in steps {
        let native = session.resolve(&target, r.parse().expect("a ref")).expect("a live ref").clone();
        backend.act(&target, &native, &action).await.expect("the action");
        let capture = backend.capture(&target, DEADLINE).await.expect("a capture");
        let auto = answer(&mut session, &capture, Mode::Auto);
        let kind = match auto.answer {
            Answer::Diff { .. } => "diff",
            Answer::Full { .. } => "full",
            Answer::Unchanged { .. } => "unchanged",
        };
        let full = auto.full_tokens.unwrap_or(auto.size.tokens_cl100k);
        println!("| {what} | {kind} | {} | {} |", auto.size.tokens_cl100k, full);
        auto_total += auto.size.tokens_cl100k;
        full_total += full;
    }
    println!(
        "| total | | {auto_total} | {full_total} ({:.1}% of full) |",
        100.0 * auto_total as f64 / full_total as f64
    );
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(7);
    let mut backend = axsnap_atspi::connect().await.unwrap_or_else(|e| panic!("{e}"));
    println!("Capture, medians of {runs} after a first (cl100k / o200k tokens of the full snapshot):\n");
    println!("| app | raw nodes | shown nodes | first capture | capture (median) | cl100k | o200k |");
    println!("|---|---|---|---|---|---|---|");
    capture_figures(&mut backend, "gtk3-widget-factory", runs).await;
    capture_figures(&mut backend, "gtk4-widget-factory", runs).await;
    println!("\nFour actions on gtk3-widget-factory, auto against full (cl100k):\n");
    println!("| step | auto answer | auto tokens | full tokens |");
    println!("|---|---|---|---|");
    workload(&mut backend).await;
}
