//! Writing results: the text itself, then the optional `--stats` line.

use axsnap_core::tokens;

/// Prints `text` (with a trailing newline) and, when `stats` is set, one line with its size.
pub fn emit(text: &str, stats: bool) {
    if text.ends_with('\n') {
        print!("{text}");
    } else {
        println!("{text}");
    }
    if stats {
        println!("{}", stats_line(text));
    }
}

/// `bytes=B tokens_cl100k=N tokens_o200k=M` for `text`.
pub fn stats_line(text: &str) -> String {
    let s = tokens::measure(text);
    format!("bytes={} tokens_cl100k={} tokens_o200k={}", s.bytes, s.tokens_cl100k, s.tokens_o200k)
}
