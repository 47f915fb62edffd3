//! Writing results: the text itself, then the optional `--stats` line.

use std::io::Write;

use axsnap_core::tokens;

/// Prints `text` (with a trailing newline) and, when `stats` is set, one line with its size.
/// A reader that stops early (`axsnap ... | head`) ends the output quietly: `print!` would
/// panic on the closed pipe.
pub fn emit(text: &str, stats: bool) {
    let mut out = std::io::stdout().lock();
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    let mut written = out.write_all(text.as_bytes()).and_then(|_| out.write_all(newline.as_bytes()));
    if stats {
        written = written.and_then(|_| writeln!(out, "{}", stats_line(text)));
    }
    let _ = written.and_then(|_| out.flush());
}

/// `bytes=B tokens_cl100k=N tokens_o200k=M` for `text`.
pub fn stats_line(text: &str) -> String {
    let s = tokens::measure(text);
    format!("bytes={} tokens_cl100k={} tokens_o200k={}", s.bytes, s.tokens_cl100k, s.tokens_o200k)
}
