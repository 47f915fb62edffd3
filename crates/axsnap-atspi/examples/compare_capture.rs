//! Incremental against whole captures of a desktop window, after each of a list of shell
//! steps: what each read, how long it took, and any line the two snapshots do not share.
//!
//! ```text
//! scripts/desktop-session -- sh -c 'soffice --writer & sleep 8; \
//!   cargo run --release -p axsnap-atspi --example compare_capture soffice Writer \
//!   "xdotool type Hello" "xdotool key ctrl+b" "xdotool key alt+o"'
//! ```
//!
//! Arguments: the app, a part of the window's title ("" for any), then the steps. Each step
//! runs, the app gets 1.5 s to settle, then the window is captured incrementally and at once
//! read whole, and both are shown as a fresh session's full snapshot. `CONCURRENCY=N` sets how
//! many objects a walk reads at once.
#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use axsnap_atspi::{AtspiBackend, CaptureLimits};
use axsnap_core::backend::Backend;
use axsnap_core::session::{ClientId, Mode, Policy, Request, Session};
use axsnap_core::TargetId;

async fn shown(backend: &mut AtspiBackend, target: &TargetId, incremental: bool) -> String {
    let concurrency = std::env::var("CONCURRENCY")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(CaptureLimits::default().concurrency);
    backend.platform_mut().set_limits(CaptureLimits { incremental, concurrency, ..CaptureLimits::default() });
    let capture = backend.capture(target, Duration::from_secs(10)).await.expect("a capture");
    let request = Request { mode: Mode::Full, max_tokens: None, ..Request::default() };
    let mut session = Session::new(Policy::default());
    session.snapshot(&ClientId("compare".into()), &capture, &request, Instant::now()).expect("an answer").text
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [app, title, steps @ ..] = args.as_slice() else {
        eprintln!("usage: compare_capture APP TITLE-PART STEP...");
        std::process::exit(2);
    };
    let mut backend = axsnap_atspi::connect().await.expect("the accessibility bus");
    let title = Some(title.as_str()).filter(|t| !t.is_empty());
    let target = backend.window(app, title).await.expect("the window");
    shown(&mut backend, &target, true).await;
    for step in steps {
        let status = std::process::Command::new("sh").arg("-c").arg(step).status().expect("sh");
        assert!(status.success(), "{step}: {status}");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let start = Instant::now();
        let part = shown(&mut backend, &target, true).await;
        let part_ms = start.elapsed().as_millis();
        let (reused, objects) = backend.platform().last_reused(&target).unwrap_or_default();
        let start = Instant::now();
        let whole = shown(&mut backend, &target, false).await;
        let whole_ms = start.elapsed().as_millis();
        println!(
            "{step}: incremental {part_ms} ms ({reused} of {objects} objects taken), whole {whole_ms} ms, {}",
            if part == whole { "the same" } else { "DIFFERENT" }
        );
        let (a, w): (Vec<&str>, Vec<&str>) = (part.lines().collect(), whole.lines().collect());
        for l in a.iter().filter(|l| !w.contains(l)) {
            println!("  only incremental: {l}");
        }
        for l in w.iter().filter(|l| !a.contains(l)) {
            println!("  only whole: {l}");
        }
    }
}
