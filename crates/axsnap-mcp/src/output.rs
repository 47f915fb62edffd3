//! Files the tools write (`pdf`) go under `--output-dir` only, never over a file.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::failure::Failure;

/// Writes `bytes` as `given` (a file name, or a path under `dir`) inside `dir`: a name that is
/// taken becomes `stem (1).ext`, and nothing outside `dir` is ever written. Returns the name
/// written and its path.
pub fn write_new(dir: &Path, given: &str, bytes: &[u8]) -> Result<(String, PathBuf), Failure> {
    let shown: String = given.chars().take(200).collect();
    let rel = Path::new(given.trim());
    let outside = || {
        Failure::tool(
            "outside_output_dir",
            format!("{shown:?} is not a path under the output directory {}; give a file name", dir.display()),
        )
    };
    if rel.as_os_str().is_empty()
        || rel.is_absolute()
        || rel.components().any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(outside());
    }
    let cannot =
        |e: std::io::Error| Failure::tool("write_failed", format!("{shown:?} could not be written: {e}"));
    let root = dir.canonicalize().map_err(cannot)?;
    let target = root.join(rel);
    let parent = target.parent().map(Path::to_path_buf).unwrap_or_else(|| root.clone());
    std::fs::create_dir_all(&parent).map_err(cannot)?;
    // A link inside the directory must not lead out of it.
    if !parent.canonicalize().map_err(cannot)?.starts_with(&root) {
        return Err(outside());
    }
    let file = target.file_name().and_then(|f| f.to_str()).unwrap_or("output").to_string();
    for name in axsnap_cdp::downloads::numbered(&file) {
        let path = parent.join(&name);
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(bytes).map_err(cannot)?;
                return Ok((name, path));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(cannot(e)),
        }
    }
    Err(Failure::tool("write_failed", format!("{shown:?}: a thousand files of that name already")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_stay_in_the_directory_and_are_never_replaced() {
        let dir = std::env::temp_dir().join(format!("axsnap-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, _) = write_new(&dir, "page.pdf", b"1").unwrap();
        let (b, path) = write_new(&dir, "page.pdf", b"2").unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("page.pdf", "page (1).pdf"));
        assert_eq!(std::fs::read(dir.join("page.pdf")).unwrap(), b"1");
        assert_eq!(std::fs::read(path).unwrap(), b"2");
        assert!(write_new(&dir, "sub/x.pdf", b"3").is_ok());
        for bad in ["../x.pdf", "/tmp/x.pdf", "", "a/../../x.pdf"] {
            assert!(
                matches!(write_new(&dir, bad, b"4"), Err(Failure::Tool { code: "outside_output_dir", .. })),
                "{bad}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
