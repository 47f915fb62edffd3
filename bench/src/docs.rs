//! The local Rust documentation that ships with the toolchain: real, large, offline pages.
//!
//! `rustc --print sysroot` + `share/doc/rust/html` (the `rust-docs` component), or the folder
//! named by `AXSNAP_RUST_DOCS`.

use std::path::PathBuf;
use std::process::Command;

use crate::error::BenchError;

/// The environment variable that overrides where the docs are.
pub const DOCS_ENV: &str = "AXSNAP_RUST_DOCS";

/// The pages of the Playwright comparison, relative to the docs root: a book chapter (prose
/// and code), the std index (a rustdoc item list) and the `Vec` page (16,000 elements).
pub const PAGES: &[&str] =
    &["book/ch04-01-what-is-ownership.html", "std/index.html", "std/vec/struct.Vec.html"];

/// Five chapters of the book (ownership, references, slices, structs), the pages of the
/// agent-browser comparison's book figures.
pub const BOOK_CHAPTERS: &[&str] = &[
    "book/ch04-01-what-is-ownership.html",
    "book/ch04-02-references-and-borrowing.html",
    "book/ch04-03-slices.html",
    "book/ch05-00-structs.html",
    "book/ch05-01-defining-structs.html",
];

/// The docs root: `AXSNAP_RUST_DOCS` when set, else the toolchain's. It must hold the first
/// page of [`PAGES`].
pub fn rust_docs() -> Result<PathBuf, BenchError> {
    let root = match std::env::var_os(DOCS_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => sysroot()?.join("share/doc/rust/html"),
    };
    if root.join(PAGES[0]).is_file() {
        Ok(root)
    } else {
        Err(BenchError::DocsMissing { path: root })
    }
}

/// The active toolchain's sysroot.
fn sysroot() -> Result<PathBuf, BenchError> {
    // Cargo sets RUSTC for build scripts only; a plain `rustc` is what rustup resolves.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| BenchError::NoSysroot { reason: format!("{}: {e}", rustc.to_string_lossy()) })?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || text.is_empty() {
        return Err(BenchError::NoSysroot {
            reason: format!("exit {}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim()),
        });
    }
    Ok(PathBuf::from(text))
}
