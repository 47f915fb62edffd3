//! Files the tools write (`pdf`, `storage save`) go under `--output-dir` only, never over a
//! file; files they read (`storage load`) come from there too.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::code::Code;
use crate::failure::Failure;

/// Most bytes a file read from the output directory may have.
const MAX_READ: u64 = 16 * 1024 * 1024;

/// Writes `bytes` as `given` (a file name, or a path under `dir`) inside `dir`: a name that is
/// taken becomes `stem (1).ext`, and nothing outside `dir` is ever written. Returns the name
/// written and its path.
pub fn write_new(dir: &Path, given: &str, bytes: &[u8]) -> Result<(String, PathBuf), Failure> {
    write_file(dir, given, bytes, false)
}

/// [`write_new`] for a file that holds secrets (cookies): readable by its owner only.
pub fn write_private(dir: &Path, given: &str, bytes: &[u8]) -> Result<(String, PathBuf), Failure> {
    write_file(dir, given, bytes, true)
}

/// Reads `given` (a path under `dir`, as [`write_new`] takes it): a regular file of at most
/// 16 MiB, never one outside `dir` (links included).
pub fn read_under(dir: &Path, given: &str) -> Result<(PathBuf, Vec<u8>), Failure> {
    let (shown, rel) = relative(dir, given)?;
    let outside = || outside(dir, &shown);
    let cannot =
        |e: std::io::Error| Failure::tool(Code::NoSuchFile, format!("{shown:?} could not be read: {e}"));
    let root = dir.canonicalize().map_err(cannot)?;
    let path = root.join(rel).canonicalize().map_err(cannot)?;
    if !path.starts_with(&root) {
        return Err(outside());
    }
    let meta = std::fs::metadata(&path).map_err(cannot)?;
    if !meta.is_file() {
        return Err(Failure::tool(Code::NoSuchFile, format!("{shown:?} is not a regular file")));
    }
    if meta.len() > MAX_READ {
        return Err(Failure::tool(
            Code::FileTooBig,
            format!("{shown:?} has {} bytes; at most {MAX_READ}", meta.len()),
        ));
    }
    let bytes = std::fs::read(&path).map_err(cannot)?;
    Ok((path, bytes))
}

/// `given` as it is shown in errors (at most 200 characters) and as a path: one relative to
/// the output directory with no `..`, else the call's `outside_output_dir` error.
fn relative<'a>(dir: &Path, given: &'a str) -> Result<(String, &'a Path), Failure> {
    let shown: String = given.chars().take(200).collect();
    let rel = Path::new(given.trim());
    if rel.as_os_str().is_empty()
        || rel.is_absolute()
        || rel.components().any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(outside(dir, &shown));
    }
    Ok((shown, rel))
}

fn outside(dir: &Path, shown: &str) -> Failure {
    Failure::tool(
        Code::OutsideOutputDir,
        format!(
            "{shown:?} is not a path under the output directory {}; give a file name there",
            dir.display()
        ),
    )
}

fn write_file(dir: &Path, given: &str, bytes: &[u8], private: bool) -> Result<(String, PathBuf), Failure> {
    let (shown, rel) = relative(dir, given)?;
    let outside = || outside(dir, &shown);
    let cannot =
        |e: std::io::Error| Failure::tool(Code::WriteFailed, format!("{shown:?} could not be written: {e}"));
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
        let mut open = std::fs::OpenOptions::new();
        open.write(true).create_new(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            open.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        match open.open(&path) {
            Ok(mut f) => {
                f.write_all(bytes).map_err(cannot)?;
                return Ok((name, path));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(cannot(e)),
        }
    }
    Err(Failure::tool(Code::WriteFailed, format!("{shown:?}: a thousand files of that name already")))
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
                matches!(write_new(&dir, bad, b"4"), Err(Failure::Tool { code: Code::OutsideOutputDir, .. })),
                "{bad}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_stay_in_the_directory() {
        let dir = std::env::temp_dir().join(format!("axsnap-read-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let (_, path) = write_private(&dir, "state.json", b"{}").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert_eq!(read_under(&dir, "state.json").unwrap().1, b"{}");
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/hostname", dir.join("out.json")).unwrap();
        for (bad, code) in [
            ("../x", "outside_output_dir"),
            ("/etc/hostname", "outside_output_dir"),
            ("missing.json", "no_such_file"),
            ("sub", "no_such_file"),
        ] {
            assert!(
                matches!(read_under(&dir, bad), Err(Failure::Tool { code: c, .. }) if c.as_str() == code),
                "{bad}"
            );
        }
        #[cfg(unix)]
        assert!(matches!(
            read_under(&dir, "out.json"),
            Err(Failure::Tool { code: Code::OutsideOutputDir, .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
