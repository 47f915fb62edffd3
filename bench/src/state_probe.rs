//! Reading a browser app's own state from outside the browser, so a workload's check does not
//! trust any arm's answers: the bench's file server adds one script to the app's pages, which
//! reports the page's `localStorage` back to the server whenever it changes
//! (`GET /__bench/state?<json>`). TodoMVC keeps its list there; the check reads what the app
//! stored, not what a snapshot showed.
//!
//! The script is a `<script>` element with no content to show: it adds nothing to the page's
//! accessibility tree, so every arm reads the same page.

use std::sync::{Arc, Mutex, PoisonError};

/// The path the script reports to.
pub const STATE_PATH: &str = "/__bench/state";

/// Polls `localStorage` four times a second and reports it when it changed. A page sets its
/// storage by assignment (`localStorage[k] = v`) as often as by `setItem`, and neither fires an
/// event in the page that made the change, so polling is the one way that sees both. Each
/// answer's body is read: Chromium counts a fetch whose body nobody reads as still loading,
/// which would keep every arm's settle waiting on the probe.
const SCRIPT: &str = "<script>(function(){var last='';function report(){var s={};\
for(var i=0;i<localStorage.length;i++){var k=localStorage.key(i);s[k]=localStorage.getItem(k);}\
var j=JSON.stringify(s);if(j!==last){last=j;fetch('/__bench/state?'+encodeURIComponent(j),\
{cache:'no-store'}).then(function(r){return r.text();}).catch(function(){});}}\
setInterval(report,250);report();})();</script>";

/// The latest state a page reported; shared between the server's threads and the check.
#[derive(Clone, Debug, Default)]
pub struct StateProbe {
    latest: Arc<Mutex<Option<String>>>,
}

impl StateProbe {
    /// `html` with the reporting script added: after `<head…>` when there is one (so it runs
    /// before the app's own scripts can fail), else at the start.
    pub fn inject(html: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(html);
        let at = find_ci(&text, "<head").and_then(|h| text[h..].find('>').map(|e| h + e + 1)).unwrap_or(0);
        let mut out = String::with_capacity(text.len() + SCRIPT.len());
        out.push_str(&text[..at]);
        out.push_str(SCRIPT);
        out.push_str(&text[at..]);
        out.into_bytes()
    }

    /// Records a report; `query` is the request's query string, percent-encoded JSON.
    pub fn record(&self, json: String) {
        *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(json);
    }

    /// The latest state reported: a JSON object of storage keys to their string values.
    pub fn latest(&self) -> Option<serde_json::Value> {
        let text = self.latest.lock().unwrap_or_else(PoisonError::into_inner).clone()?;
        serde_json::from_str(&text).ok()
    }
}

/// The byte offset of `needle` (ASCII) in `hay`, ignoring ASCII case.
fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    (0..h.len().saturating_sub(n.len() - 1)).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_in_the_head_or_first() {
        let page = StateProbe::inject(b"<!doctype html><HTML><Head lang=x><title>t</title></head>");
        let page = String::from_utf8(page).unwrap();
        assert!(page.starts_with("<!doctype html><HTML><Head lang=x><script>"), "{page}");
        assert!(page.ends_with("</script><title>t</title></head>"), "{page}");
        let bare = String::from_utf8(StateProbe::inject(b"<p>x</p>")).unwrap();
        assert!(bare.starts_with("<script>") && bare.ends_with("</script><p>x</p>"), "{bare}");
    }

    #[test]
    fn keeps_the_latest_report() {
        let p = StateProbe::default();
        assert_eq!(p.latest(), None);
        p.record(r#"{"todos":"[]"}"#.into());
        p.clone().record(r#"{"todos":"[1]"}"#.into());
        assert_eq!(p.latest(), Some(serde_json::json!({"todos": "[1]"})));
        p.record("not json".into());
        assert_eq!(p.latest(), None);
    }
}
