//! `axsnap tokens`: what a text costs a model, counted with the tokenizers axsnap's budgets
//! use (cl100k_base, o200k_base), for scripts and tests that compare answers (the Python
//! tests have no tokenizer of their own: tiktoken fetches its tables at run time).

use std::io::Read;

use anyhow::Context;
use axsnap_core::tokens::measure;

use crate::cli::TokensArgs;

pub fn run(a: &TokensArgs) -> anyhow::Result<()> {
    let stdin = [std::path::PathBuf::from("-")];
    let files = if a.files.is_empty() { &stdin[..] } else { &a.files[..] };
    for f in files {
        let text = if f.as_os_str() == "-" {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s).context("reading standard input (is it UTF-8?)")?;
            s
        } else {
            std::fs::read_to_string(f)
                .with_context(|| format!("reading {} (is it UTF-8 text?)", f.display()))?
        };
        let size = measure(&text);
        if a.json {
            println!(
                "{}",
                serde_json::json!({"bytes": size.bytes, "cl100k": size.tokens_cl100k, "o200k": size.tokens_o200k})
            );
        } else {
            println!(
                "{} bytes, {} cl100k, {} o200k{}",
                size.bytes,
                size.tokens_cl100k,
                size.tokens_o200k,
                if files.len() > 1 { format!(": {}", f.display()) } else { String::new() }
            );
        }
    }
    Ok(())
}
