//! Typed errors of the engine.

use thiserror::Error;

/// A raw tree that cannot be read or is not a tree.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TreeError {
    /// The input is not UTF-8.
    #[error("the tree file is not valid UTF-8 (first bad byte at offset {offset}); record it again or fix its encoding")]
    Utf8 {
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
    /// The input is not the JSON the interchange form expects.
    #[error("the tree file is not valid axsnap-tree JSON at line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// The `format` tag is not `axsnap-tree`.
    #[error("the file's format is {found:?}, not \"axsnap-tree\"; is this a tree recorded by axsnap?")]
    Format {
        /// The tag found.
        found: String,
    },
    /// An interchange version this build cannot read.
    #[error("the tree file has version {found}; this axsnap reads version {supported}")]
    Version {
        /// The version found.
        found: u32,
        /// The version supported.
        supported: u32,
    },
    /// Over a size limit.
    #[error("the tree has too many {what}: {found}, the limit is {limit}")]
    TooLarge {
        /// What was counted.
        what: &'static str,
        /// The limit.
        limit: usize,
        /// How many were found.
        found: usize,
    },
    /// Two nodes share a file-local id.
    #[error("two nodes share the id {id}; ids in a tree file must be unique")]
    DuplicateId {
        /// The id.
        id: u64,
    },
    /// A node id is referenced but absent.
    #[error("node {id} is referenced{} but not present", referenced_by.map(|p| format!(" as a child of node {p}")).unwrap_or_else(|| " as the root".into()))]
    MissingNode {
        /// The missing id.
        id: u64,
        /// The node that referenced it (`None`: the root).
        referenced_by: Option<u64>,
    },
    /// A node listed as a child twice, or the root listed as a child: not a tree.
    #[error("node {id} is a child of both {} and {} (a cycle or a shared child): the input is not a tree", parents.0, parents.1)]
    SharedChild {
        /// The node.
        id: u64,
        /// Its two claimed parents.
        parents: (u64, u64),
    },
    /// Two nodes share a native id, so they cannot be told apart.
    #[error("two nodes share the native id {scope}/{id}; a backend must give each element its own identity")]
    DuplicateNative {
        /// Scope of the duplicated id.
        scope: String,
        /// The duplicated id.
        id: String,
    },
}
