// scratch probe, not committed: open URL, run JS steps, record the raw tree and AX nodes.
use axsnap_cdp::{capture, Browser, LaunchOptions};
use axsnap_core::interchange::{write_tree, TargetInfo};
use serde_json::json;
use std::time::Duration;

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = args.next().unwrap();
    let out = args.next().unwrap();
    let js: Vec<String> = args.collect();
    let browser = Browser::launch(LaunchOptions::default()).await.expect("launch");
    let page = browser.new_page(&url).await.expect("open");
    tokio::time::sleep(Duration::from_secs(4)).await;
    for j in &js {
        if let Some(sel) = j.strip_prefix("click:") {
            let r = page.eval_within(&format!("(() => {{ const r = document.querySelector({sel:?}).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; }})()"), Duration::from_secs(20)).await.unwrap();
            let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
            for t in ["mouseMoved", "mousePressed", "mouseReleased"] {
                page.call(
                    "Input.dispatchMouseEvent",
                    json!({"type": t, "x": x, "y": y, "button": "left", "clickCount": 1}),
                )
                .await
                .unwrap();
            }
            println!("clicked {sel} at {x},{y}");
            tokio::time::sleep(Duration::from_millis(800)).await;
            continue;
        }
        if let Some(sel) = j.strip_prefix("hover:") {
            let r = page.eval_within(&format!("(() => {{ const r = document.querySelector({sel:?}).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; }})()"), Duration::from_secs(20)).await.unwrap();
            let (x, y) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
            page.call("Input.dispatchMouseEvent", json!({"type": "mouseMoved", "x": x, "y": y}))
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(800)).await;
            continue;
        }
        let v = page.eval_within(j, Duration::from_secs(20)).await;
        println!("js {j}: {v:?}");
        tokio::time::sleep(Duration::from_millis(800)).await;
    }
    let c = capture(&page, Duration::from_secs(30)).await.unwrap();
    std::fs::write(&out, write_tree(&c.capture.tree, &TargetInfo::default())).unwrap();
    let ax =
        page.call_within("Accessibility.getFullAXTree", json!({}), Duration::from_secs(60)).await.unwrap();
    std::fs::write(format!("{out}.ax.json"), serde_json::to_string_pretty(&ax).unwrap()).unwrap();
    println!("nodes {}", c.capture.tree.len());
}
