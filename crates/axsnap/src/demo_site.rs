//! The demo shop, bundled into the binary and served on 127.0.0.1.

use anyhow::Context;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// Every page shares one template (header, navigation, filters, dialog, footer): that shared
/// chrome is what makes a navigation between them a small diff.
const PAGE: &str = include_str!("../demo-site/page.html");

const ASSETS: &[(&str, &str, &str)] = &[
    ("/chrome.js", "text/javascript; charset=utf-8", include_str!("../demo-site/chrome.js")),
    ("/logo.svg", "image/svg+xml", include_str!("../demo-site/logo.svg")),
];

/// A product: name, price, sold out.
type Product = (&'static str, &'static str, bool);

/// The pages: path, title, intro line, products.
const PAGES: &[(&str, &str, &str, &[Product])] = &[
    (
        "/index.html",
        "Trail gear",
        "Our picks for the season.",
        &[
            ("Summit Boot GTX", "€189", false),
            ("Ridge Runner", "€129", true),
            ("Alpine Shell", "€249", false),
            ("Canyon Pack 30", "€99", false),
            ("Glacier Mitts", "€39", true),
            ("Forest Fleece", "€79", false),
            ("Valley Trail Sock", "€15", false),
            ("Storm Poncho", "€45", false),
            ("Peak Headlamp", "€35", true),
        ],
    ),
    (
        "/boots.html",
        "Boots",
        "Boots for every trail.",
        &[
            ("Summit Boot GTX", "€189", false),
            ("Ridge Runner", "€129", true),
            ("Scree Mid", "€159", false),
            ("Marsh Wader", "€99", false),
            ("Approach Lite", "€119", true),
            ("Winter Crest", "€209", false),
        ],
    ),
    (
        "/jackets.html",
        "Jackets",
        "Stay dry.",
        &[("Alpine Shell", "€249", false), ("Storm Poncho", "€45", false), ("Down Hoodie", "€199", true)],
    ),
    ("/help.html", "Help", "Shipping is free above €50. Returns within 30 days.", &[]),
    ("/cart.html", "Your cart", "Your cart is empty.", &[]),
];

/// The page at `path`, rendered from the template.
fn page(path: &str) -> Option<String> {
    let (_, title, intro, products) = PAGES.iter().find(|(p, ..)| *p == path)?;
    let cards: String = products
        .iter()
        .map(|(name, price, sold_out)| {
            let (class, stock, disabled) =
                if *sold_out { ("product sold-out", "Sold out", " disabled") } else { ("product", "In stock", "") };
            format!(
                "<article class=\"{class}\" aria-label=\"{name}\">\n  <h3><a href=\"/boots.html\">{name}</a></h3>\n  \
                 <p>{price} · {stock}</p>\n  <button class=\"add\" data-product=\"{name}\"{disabled}>Add {name} to cart</button>\n</article>\n"
            )
        })
        .collect();
    Some(PAGE.replace("{{title}}", title).replace("{{intro}}", intro).replace("{{products}}", &cards))
}

/// A running demo site; stops when dropped.
pub struct DemoSite {
    base: String,
    task: JoinHandle<()>,
}

impl DemoSite {
    /// Serves the site on an ephemeral loopback port.
    pub async fn start() -> anyhow::Result<DemoSite> {
        let listener = TcpListener::bind("127.0.0.1:0").await.context("cannot listen on 127.0.0.1")?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    // A client that hangs up mid-request is not our problem.
                    let _ = serve(stream).await;
                });
            }
        });
        Ok(DemoSite { base: format!("http://{addr}"), task })
    }

    /// The URL of `path` on the site.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for DemoSite {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(mut stream: TcpStream) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") && buf.len() < 64 * 1024 {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let path = head.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let path = if path == "/" { "/index.html" } else { path };
    let (status, ctype, body) = match (page(path), ASSETS.iter().find(|(p, _, _)| *p == path)) {
        (Some(html), _) => ("200 OK", "text/html; charset=utf-8", html),
        (None, Some((_, ctype, body))) => ("200 OK", *ctype, body.to_string()),
        (None, None) => ("404 Not Found", "text/plain; charset=utf-8", "not found".to_string()),
    };
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(header.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}
