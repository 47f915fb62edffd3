//! [`UploadRoot`]: which files the `upload` tool may hand to a page (`--upload-root DIR`).
//!
//! An agent that can upload any file the server can read can send a page the server's keys
//! and configuration, so uploads are off unless a directory is named, and then only regular
//! files under it (after resolving symbolic links and `..`) may go.

use std::path::{Path, PathBuf};

use crate::code::Code;
use crate::failure::Failure;

/// Most files one `upload` takes.
pub const MAX_FILES: usize = 32;

/// The directory uploads come from; `None`: uploads are off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UploadRoot(pub Option<PathBuf>);

impl UploadRoot {
    /// The absolute paths of `paths` (each absolute, or relative to the root), when every one
    /// is a regular file under the root; otherwise the failure that says which is not and why.
    pub fn check(&self, paths: &[String]) -> Result<Vec<String>, Failure> {
        let Some(root) = &self.0 else {
            return Err(Failure::tool(
                Code::UploadsOff,
                "this server takes no uploads: start it with --upload-root DIR and give paths under DIR",
            ));
        };
        if paths.is_empty() || paths.len() > MAX_FILES {
            return Err(Failure::tool(
                Code::BadArgument,
                format!("paths must name 1 to {MAX_FILES} files; {} were given", paths.len()),
            ));
        }
        let root = root.canonicalize().map_err(|e| {
            Failure::tool(
                Code::UploadsOff,
                format!("the upload root {} cannot be read ({e})", root.display()),
            )
        })?;
        paths.iter().map(|p| one(&root, p)).collect()
    }
}

fn one(root: &Path, given: &str) -> Result<String, Failure> {
    let shown: String = given.chars().take(200).collect();
    let path = Path::new(given);
    let path = if path.is_absolute() { path.to_path_buf() } else { root.join(path) };
    let real = path.canonicalize().map_err(|e| {
        Failure::tool(
            Code::NoSuchFile,
            format!(
                "{shown:?} cannot be uploaded: {} ({e}); give a file under {}",
                path.display(),
                root.display()
            ),
        )
    })?;
    if !real.starts_with(root) {
        return Err(Failure::tool(
            Code::OutsideUploadRoot,
            format!(
                "{shown:?} is outside the upload root {}; only files under it may be uploaded",
                root.display()
            ),
        ));
    }
    if !real.is_file() {
        return Err(Failure::tool(
            Code::NoSuchFile,
            format!("{shown:?} is not a regular file; give a file, not a directory"),
        ));
    }
    real.to_str().map(str::to_string).ok_or_else(|| {
        Failure::tool(
            Code::NoSuchFile,
            format!("{shown:?} has a path that is not UTF-8, which the browser cannot take"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<Vec<String>, Failure>) -> &'static str {
        match r {
            Ok(_) => "ok",
            Err(Failure::Tool { code, .. }) => code.as_str(),
            Err(Failure::Protocol(_)) => "protocol",
        }
    }

    #[test]
    fn only_regular_files_under_the_root_go() {
        let base = std::env::temp_dir().join(format!("axsnap-upload-{}", std::process::id()));
        let root = base.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("a.txt"), "a").unwrap();
        std::fs::write(root.join("sub/b.txt"), "b").unwrap();
        std::fs::write(base.join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(base.join("secret"), root.join("link")).unwrap();
        let up = UploadRoot(Some(root.clone()));
        let got = up.check(&["a.txt".into(), root.join("sub/b.txt").to_string_lossy().into()]).unwrap();
        assert_eq!(got.len(), 2);
        assert!(got[0].ends_with("/root/a.txt"), "{got:?}");
        assert_eq!(code(up.check(&["../secret".into()])), "outside_upload_root");
        assert_eq!(code(up.check(&[base.join("secret").to_string_lossy().into()])), "outside_upload_root");
        assert_eq!(code(up.check(&["link".into()])), "outside_upload_root", "a link out of the root");
        assert_eq!(code(up.check(&["missing.txt".into()])), "no_such_file");
        assert_eq!(code(up.check(&["sub".into()])), "no_such_file");
        assert_eq!(code(up.check(&[])), "bad_argument");
        assert_eq!(code(UploadRoot(None).check(&["a.txt".into()])), "uploads_off");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
