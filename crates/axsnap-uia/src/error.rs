//! [`ReadError`]: why a recording could not be read, and what to do about it.

use thiserror::Error;

/// Why an Accessibility Insights file could not be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// The text is not JSON (or nests deeper than the JSON reader goes).
    #[error(
        "not Accessibility Insights JSON at line {line}, column {column}: {message} (save the element again \
         with Accessibility Insights for Windows, or record the window with `axsnap desktop snapshot --record`)"
    )]
    Json {
        /// The line of the fault.
        line: usize,
        /// Its column.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// The JSON is not an element (no `Properties`, no `Children`).
    #[error(
        "not an Accessibility Insights element: {0} (expected a `.hier`, `.snapshot` or `.a11ytest` file as \
         Accessibility Insights for Windows saves it)"
    )]
    NotAnElement(String),
    /// The `.a11ytest` zip could not be opened, or holds no element tree.
    #[error("not an Accessibility Insights test file (.a11ytest): {0}")]
    Archive(String),
    /// The file is larger than the reader takes.
    #[error("{what} is over the limit of {limit} (a window's tree is far smaller: is this the right file?)")]
    TooLarge {
        /// What is too large (`the file`, `the element count`).
        what: &'static str,
        /// The limit.
        limit: usize,
    },
}
