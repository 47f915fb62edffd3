//! Token counting with real tokenizers (cl100k_base and o200k_base), loaded once, lazily.
//!
//! The vocabularies are compiled into `tiktoken-rs` (`include_str!` of its assets), so counting
//! works offline. Each tokenizer is built on first use (tens of milliseconds) through the
//! crate's `LazyLock` singletons and shared by every thread afterwards.
//!
//! Text is counted as ordinary text: a page that contains `<|endoftext|>` is counted the way an
//! API counts user content, not as one special token.

use serde::{Deserialize, Serialize};
use tiktoken_rs::{cl100k_base_singleton, o200k_base_singleton};

/// The size of a response.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    /// UTF-8 bytes.
    pub bytes: usize,
    /// Tokens under cl100k_base.
    pub tokens_cl100k: usize,
    /// Tokens under o200k_base.
    pub tokens_o200k: usize,
}

/// Above this many bytes [`measure`] runs the two tokenizers on two threads (about 0.4 ms per
/// KB each; a thread costs tens of microseconds).
const PARALLEL_BYTES: usize = 16 * 1024;

/// Measures `text` in bytes and in both tokenizers' tokens.
pub fn measure(text: &str) -> Size {
    let (tokens_cl100k, tokens_o200k) = if text.len() >= PARALLEL_BYTES {
        std::thread::scope(|s| {
            let o = s.spawn(|| count_o200k(text));
            let c = count_cl100k(text);
            // A panic in the tokenizer thread is a bug in it; count on this thread instead.
            (c, o.join().unwrap_or_else(|_| count_o200k(text)))
        })
    } else {
        (count_cl100k(text), count_o200k(text))
    };
    Size { bytes: text.len(), tokens_cl100k, tokens_o200k }
}

/// Tokens under cl100k_base only (what the auto policy compares).
pub fn count_cl100k(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    cl100k_base_singleton().encode_ordinary(text).len()
}

/// Tokens under o200k_base only.
pub fn count_o200k(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    o200k_base_singleton().encode_ordinary(text).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_known_strings() {
        // Reference counts from OpenAI's tiktoken for these two encodings.
        assert_eq!(count_cl100k("hello world"), 2);
        assert_eq!(count_o200k("hello world"), 2);
        assert_eq!(count_cl100k(""), 0);
        let s = measure("- button \"Save\" [e7]");
        assert_eq!(s.bytes, 20);
        assert!(s.tokens_cl100k >= 5 && s.tokens_cl100k <= 10, "{s:?}");
        assert!(s.tokens_o200k >= 5 && s.tokens_o200k <= 10, "{s:?}");
    }

    #[test]
    fn the_two_tokenizers_differ() {
        // o200k has a larger vocabulary: on non-English text it needs fewer tokens.
        let text = "Привет, как дела? これはテストです。";
        assert!(count_o200k(text) < count_cl100k(text));
    }

    #[test]
    fn special_tokens_are_ordinary_text() {
        assert!(count_cl100k("<|endoftext|>") > 1);
    }

    #[test]
    fn parallel_measure_matches_serial_counts() {
        let text = "- link \"Docs\" [e9]\n".repeat(2000);
        assert!(text.len() >= PARALLEL_BYTES);
        let s = measure(&text);
        assert_eq!(s.tokens_cl100k, count_cl100k(&text));
        assert_eq!(s.tokens_o200k, count_o200k(&text));
        assert_eq!(s.bytes, text.len());
    }

    #[test]
    fn counts_from_many_threads() {
        let handles: Vec<_> =
            (0..4).map(|i| std::thread::spawn(move || count_cl100k(&"ab ".repeat(i + 1)))).collect();
        let counts: Vec<usize> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(
            counts,
            vec![
                count_cl100k("ab "),
                count_cl100k("ab ab "),
                count_cl100k("ab ab ab "),
                count_cl100k("ab ab ab ab ")
            ]
        );
    }
}
