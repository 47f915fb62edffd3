//! Counts the tokens of standard input with the real tokenizers (cl100k_base, o200k_base):
//! how the figures of an answer's size are measured.
//!
//! ```text
//! axsnap snapshot URL | cargo run --release -p axsnap-core --example tokens
//! ```

use std::io::Read;

use axsnap_core::tokens::{count_cl100k, count_o200k};

fn main() -> std::io::Result<()> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    println!(
        "{} chars, {} cl100k tokens, {} o200k tokens",
        text.chars().count(),
        count_cl100k(&text),
        count_o200k(&text)
    );
    Ok(())
}
