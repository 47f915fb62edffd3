//! Documents whose accessibility tree missed a capture deadline. Chromium cannot cancel a
//! `getFullAXTree` call: one that misses the deadline keeps the renderer busy until it is
//! done (over a minute on a 50,000-element page), and asking again would do the same to the
//! next capture. So later captures of the same document, while it is about as large, build
//! from the DOM snapshot without asking (and say so); a new document asks again.

use std::sync::Mutex;

/// Documents remembered at most (oldest forgotten first).
const REMEMBERED: usize = 64;

/// (document token from the change-signal script, elements when the call missed).
static SLOW: Mutex<Vec<(String, u64)>> = Mutex::new(Vec::new());

/// Whether the document `token`, now with `elements` elements, missed before at no more than
/// twice as many.
pub(crate) fn known(token: &str, elements: u64) -> bool {
    let slow = SLOW.lock().unwrap_or_else(|p| p.into_inner());
    slow.iter().any(|(t, then)| t == token && elements.saturating_mul(2) >= *then)
}

/// Remembers that the document `token` missed with `elements` elements.
pub(crate) fn remember(token: &str, elements: u64) {
    let mut slow = SLOW.lock().unwrap_or_else(|p| p.into_inner());
    slow.retain(|(t, _)| t != token);
    if slow.len() >= REMEMBERED {
        slow.remove(0);
    }
    slow.push((token.to_string(), elements));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_a_document_while_it_stays_large() {
        remember("doc-a", 50_000);
        assert!(known("doc-a", 50_000) && known("doc-a", 25_000));
        assert!(!known("doc-a", 24_999) && !known("doc-b", 50_000));
        for i in 0..REMEMBERED {
            remember(&format!("other-{i}"), 1);
        }
        assert!(!known("doc-a", 50_000), "the oldest is forgotten");
    }
}
