//! `.a11ytest` files: the zip Accessibility Insights for Windows saves a test in, holding the
//! element tree as `el.snapshot` beside a screenshot and metadata. Only the tree is read.

use std::io::{Cursor, Read};

use crate::error::ReadError;
use crate::reader::Limits;

/// The zip entry that holds the element tree.
pub const SNAPSHOT_ENTRY: &str = "el.snapshot";

/// Whether `bytes` begin as a zip file does (a local file header).
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The element tree's JSON inside an `.a11ytest` zip, inflated to at most `limits.max_bytes`.
pub fn snapshot_json(bytes: &[u8], limits: &Limits) -> Result<Vec<u8>, ReadError> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| ReadError::Archive(e.to_string()))?;
    let entry = zip.by_name(SNAPSHOT_ENTRY).map_err(|e| match e {
        zip::result::ZipError::FileNotFound => {
            ReadError::Archive(format!("it holds no {SNAPSHOT_ENTRY} (the element tree)"))
        }
        other => ReadError::Archive(format!("cannot open {SNAPSHOT_ENTRY}: {other}")),
    })?;
    let mut out = Vec::new();
    // One byte over the limit tells a file at the limit from one past it, whatever the
    // entry's header claims its size is.
    entry
        .take(limits.max_bytes as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| ReadError::Archive(format!("cannot inflate {SNAPSHOT_ENTRY}: {e}")))?;
    if out.len() > limits.max_bytes {
        return Err(ReadError::TooLarge { what: "the inflated el.snapshot", limit: limits.max_bytes });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zip_without_the_tree_says_so() {
        // An empty zip: just the end-of-central-directory record.
        let mut empty = b"PK\x05\x06".to_vec();
        empty.extend_from_slice(&[0; 18]);
        let e = snapshot_json(&empty, &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("el.snapshot"), "{e}");
        let e = snapshot_json(b"PK\x03\x04 not really", &Limits::default()).unwrap_err();
        assert!(matches!(e, ReadError::Archive(_)), "{e}");
    }
}
