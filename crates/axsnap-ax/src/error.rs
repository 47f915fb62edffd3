//! [`ReadError`]: why an AX recording could not be read, and what to do about it.

use thiserror::Error;

/// Why an AX recording (`.axjson`, see [`crate::reader`]) could not be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// The text is not JSON.
    #[error(
        "not JSON at line {line}, column {column}: {message} (an AX recording is JSON; fix the text there)"
    )]
    Json {
        /// The line of the fault.
        line: usize,
        /// Its column.
        column: usize,
        /// What the JSON parser said.
        message: String,
    },
    /// The JSON is neither an AX recording nor an element.
    #[error(
        "not an AX recording: {0} (expected {{\"format\": \"axsnap-ax-recording\", \"version\": 1, \"root\": \
         {{\"AXRole\": ...}}}} or a bare element with an `AXRole`)"
    )]
    NotARecording(String),
    /// A recording of a version this reader does not know.
    #[error(
        "an AX recording of version {0}, and this axsnap reads version 1 (update axsnap, or save it again)"
    )]
    Version(u64),
    /// An attribute holds the wrong kind of value.
    #[error("{at}: `{attribute}` {expected} (fix that attribute, or leave it out)")]
    Attribute {
        /// Where the element is (`root.AXChildren[2]`).
        at: String,
        /// The attribute.
        attribute: String,
        /// What it should hold.
        expected: &'static str,
    },
    /// `AXTitleUIElement` names an `id` no element has.
    #[error("{at}: `AXTitleUIElement` names {id:?}, which no element has as its `id` (give the label element that `id`)")]
    UnknownTitleElement {
        /// Where the element is.
        at: String,
        /// The id it names.
        id: String,
    },
    /// Two elements share an `id`.
    #[error("{at}: the `id` {id:?} is already another element's (each `id` names one element)")]
    DuplicateId {
        /// Where the second element is.
        at: String,
        /// The id.
        id: String,
    },
    /// The file is larger than the reader takes.
    #[error("{what} is over the limit of {limit} (a window's tree is far smaller: is this the right file?)")]
    TooLarge {
        /// What is too large (`the file`, `the element count`, `the nesting of elements`).
        what: &'static str,
        /// The limit.
        limit: usize,
    },
}
