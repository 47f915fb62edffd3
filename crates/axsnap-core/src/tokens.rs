//! Token counting with real tokenizers (cl100k_base and o200k_base), loaded once, lazily.
//!
//! The vocabularies are compiled into `tiktoken-rs` (`include_str!` of its assets), so counting
//! works offline. Each tokenizer is built on first use (tens of milliseconds) through the
//! crate's `LazyLock` singletons and shared by every thread afterwards.
//!
//! Text is counted as ordinary text: a page that contains `<|endoftext|>` is counted the way an
//! API counts user content, not as one special token.

use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock};

use rustc_hash::{FxHashMap, FxHasher};
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
    count_text(Encoding::Cl100k, text)
}

/// Builds both tokenizers on a thread of its own, so that the first answer of a server that
/// has just started does not wait for them (about 150 ms together on a 2-core machine).
///
/// ```
/// axsnap_core::tokens::warm_in_background();
/// assert_eq!(axsnap_core::tokens::count_o200k("hello world"), 2);
/// ```
pub fn warm_in_background() {
    let spawned = std::thread::Builder::new().name("tokenizers".into()).spawn(|| {
        count_o200k("warm up");
        count_cl100k("warm up");
    });
    // Without a thread they are built on first use, as before.
    drop(spawned);
}

/// Tokens under o200k_base only.
pub fn count_o200k(text: &str) -> usize {
    count_text(Encoding::O200k, text)
}

/// Tokens under cl100k_base of one indented line of the text form: the same as
/// [`count_cl100k`] (kept as its own name for the outline's per-line costs).
pub fn count_cl100k_line(line: &str) -> usize {
    count_line(Encoding::Cl100k, line, &mut Encoding::Cl100k.cache())
}

/// The two tokenizers.
#[derive(Clone, Copy)]
enum Encoding {
    Cl100k,
    O200k,
}

impl Encoding {
    /// The tokenizer's own count.
    fn encode(self, text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        match self {
            Encoding::Cl100k => cl100k_base_singleton().encode_ordinary(text).len(),
            Encoding::O200k => o200k_base_singleton().encode_ordinary(text).len(),
        }
    }

    /// This tokenizer's line cache, locked (a poisoned lock only means a panic elsewhere
    /// mid-insert: the counts in it are still counts).
    fn cache(self) -> std::sync::MutexGuard<'static, LineCache> {
        static CL100K: OnceLock<Mutex<LineCache>> = OnceLock::new();
        static O200K: OnceLock<Mutex<LineCache>> = OnceLock::new();
        let cell = match self {
            Encoding::Cl100k => &CL100K,
            Encoding::O200k => &O200K,
        };
        cell.get_or_init(Mutex::default).lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tokens of `n` spaces alone, from a table made on first use.
    fn spaces(self, n: usize) -> usize {
        static CL100K: OnceLock<Vec<usize>> = OnceLock::new();
        static O200K: OnceLock<Vec<usize>> = OnceLock::new();
        let cell = match self {
            Encoding::Cl100k => &CL100K,
            Encoding::O200k => &O200K,
        };
        let table = cell.get_or_init(|| (0..SPACE_RUNS).map(|n| self.encode(&" ".repeat(n))).collect());
        table.get(n).copied().unwrap_or_else(|| self.encode(&" ".repeat(n)))
    }
}

/// Spaces the tables of [`Encoding::spaces`] hold counts for.
const SPACE_RUNS: usize = 256;

/// Counts `text` line by line, exactly as the tokenizer counts it whole, without tokenizing
/// indentation.
///
/// Both tokenizers first split text into pieces by a pattern, then encode each piece on its
/// own, so a text costs the sum of its pieces. A piece never spans the end of a line when the
/// next line holds something other than white space and does not start with `/` (only white
/// space runs and a punctuation run's trailing line breaks, or o200k's `/`, reach across), so
/// the text is cut there and each part counted alone. Within a line, `k` leading spaces before
/// a non-space are one piece of `k - 1` spaces (the last joins the word after it, as in
/// ` text`), whose cost comes from a table. The text form indents every line, 120 spaces past
/// 60 levels, and tokenizing that was most of an outline's time on deep pages.
fn count_text(enc: Encoding, text: &str) -> usize {
    let mut cache = enc.cache();
    let mut total = 0;
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices('\n') {
        let next = i + 1;
        if next < bytes.len() && cuts_cleanly(&text[next..]) {
            total += count_line(enc, &text[start..next], &mut cache);
            start = next;
        }
    }
    total + count_line(enc, &text[start..], &mut cache)
}

/// Whether a piece boundary falls at the start of `rest` (which follows a line break): its
/// first line holds a non-space and it does not start with `/` or a line break.
fn cuts_cleanly(rest: &str) -> bool {
    let line = rest.split('\n').next().unwrap_or("");
    !rest.starts_with(['/', '\r', '\n']) && line.contains(|c: char| !c.is_whitespace())
}

/// One line (or a run of lines the pattern does not cut), its leading spaces from the table
/// and the rest from `cache` when counted before.
fn count_line(enc: Encoding, line: &str, cache: &mut LineCache) -> usize {
    let k = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[k..];
    if k < 2 || rest.is_empty() || rest.starts_with(char::is_whitespace) {
        return cache.count(enc, line);
    }
    enc.spaces(k - 1) + cache.count(enc, &line[k - 1..])
}

/// Token counts of lines already counted, by a 64-bit hash of the line, per tokenizer.
///
/// An agent's next answer on a page is mostly the lines of the last one (a diff is decided by
/// counting the whole page again; an outline sizes every line of it), and tokenizing them was
/// most of an answer's time on a large page; a hit costs a hash. Lines are counted without
/// their indentation, so a line keeps its entry at any depth. A hash collision (about one in
/// 10^7 at the table's size) can only make a count off by a line's tokens; the table is
/// emptied when full, so it stays under about 10 MB per tokenizer.
#[derive(Default)]
struct LineCache(FxHashMap<u64, u32>);

/// Entries a [`LineCache`] holds before it is emptied.
const LINE_CACHE_ENTRIES: usize = 1 << 19;

/// Lines this long or longer are counted, not cached (they rarely repeat, and hashing them
/// costs a good part of counting them).
const LINE_CACHE_MAX_BYTES: usize = 512;

impl LineCache {
    fn count(&mut self, enc: Encoding, line: &str) -> usize {
        if line.len() >= LINE_CACHE_MAX_BYTES {
            return enc.encode(line);
        }
        let mut h = FxHasher::default();
        line.hash(&mut h);
        let key = h.finish();
        if let Some(&n) = self.0.get(&key) {
            return n as usize;
        }
        let n = enc.encode(line);
        if self.0.len() >= LINE_CACHE_ENTRIES {
            self.0.clear();
        }
        self.0.insert(key, n as u32);
        n
    }
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
    fn a_cached_line_counts_as_it_did_and_a_full_cache_starts_over() {
        let mut cache = LineCache::default();
        let lines = ["- button \"Save\" [e7]", "text: Привет", "  - link \"Next\" [e9]", ""];
        for _ in 0..2 {
            for line in lines {
                assert_eq!(cache.count(Encoding::Cl100k, line), Encoding::Cl100k.encode(line));
            }
        }
        assert_eq!(cache.0.len(), lines.len());
        let long = "word ".repeat(LINE_CACHE_MAX_BYTES);
        assert_eq!(cache.count(Encoding::O200k, &long), Encoding::O200k.encode(&long));
        assert_eq!(cache.0.len(), lines.len(), "long lines are counted, not kept");
        for i in 0..LINE_CACHE_ENTRIES {
            cache.0.insert(i as u64, 1);
        }
        assert_eq!(cache.count(Encoding::Cl100k, "text: after"), Encoding::Cl100k.encode("text: after"));
        assert_eq!(cache.0.len(), 1, "a full table is emptied, then takes the new line");
    }

    #[test]
    fn a_line_counts_the_same_without_tokenizing_its_indentation() {
        let bodies = [
            "text: x",
            "[depth 61] code: `x` leaf",
            "* [item 3](e5)",
            "h2 \"Examples\"",
            "button \"Save\" [e7] [disabled]\n",
            "12 numbers first",
            "Привет, мир",
            "'s quoted start",
            "\ttab after the spaces",
            "…+12 chars",
        ];
        for body in bodies {
            for k in [0, 1, 2, 3, 7, 60, 119, 120, 121, 255, 256, 300] {
                let line = format!("{}{body}", " ".repeat(k));
                assert_eq!(count_cl100k_line(&line), Encoding::Cl100k.encode(&line), "{k} spaces, {body:?}");
                assert_eq!(count_o200k(&line), Encoding::O200k.encode(&line), "{k} spaces, {body:?}");
            }
        }
        assert_eq!(count_cl100k_line("    "), Encoding::Cl100k.encode("    "));
        assert_eq!(count_cl100k_line(""), 0);
    }

    /// Texts cut line by line count as the tokenizers count them whole: every kind of line
    /// the text form and pages have, in every order, with the breaks that may not be cut.
    #[test]
    fn a_text_counts_the_same_cut_at_its_lines() {
        let lines = [
            "# outline: the page is 1,234 tokens",
            "  text: x",
            "      [depth 61] code: `x` leaf",
            "    * [item 3](e5)",
            "h2 \"Examples\"",
            "",
            "   ",
            "  \t",
            "/usr/bin/env",
            "  /path",
            "end with punctuation.",
            "end with spaces   ",
            "  12 numbers first",
            "Привет, мир!",
            "'s quoted start",
            "\r",
            "…+12 chars",
            "                                                                                                                        [depth 99982] text: x99980",
        ];
        // Every ordered pair and triple of lines, joined both ways.
        let mut texts = Vec::new();
        for a in lines {
            for b in lines {
                texts.push(format!("{a}\n{b}"));
                texts.push(format!("{a}\n{b}\n"));
                for c in lines {
                    texts.push(format!("{a}\n{b}\n{c}"));
                }
            }
        }
        for t in &texts {
            assert_eq!(count_cl100k(t), Encoding::Cl100k.encode(t), "{t:?}");
            assert_eq!(count_o200k(t), Encoding::O200k.encode(t), "{t:?}");
        }
        for golden in
            std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/snapshots")).into_iter().flatten()
        {
            let Ok(text) = std::fs::read_to_string(golden.map(|g| g.path()).unwrap_or_default()) else {
                continue;
            };
            assert_eq!(count_cl100k(&text), Encoding::Cl100k.encode(&text));
            assert_eq!(count_o200k(&text), Encoding::O200k.encode(&text));
        }
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
