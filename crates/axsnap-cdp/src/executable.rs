//! Finding a browser's executable ([`find_browser`]): a path given, else a Chromium-family
//! browser on `PATH`, else where each system installs one — on Windows Chrome, Edge (always
//! there on Windows 10 and 11) and Chromium under Program Files or the user's own
//! `%LOCALAPPDATA%`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::error::CdpError;

/// Executable names looked up on `PATH`, in order (on Windows with `.exe`).
pub const BROWSER_NAMES: &[&str] =
    &["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "msedge"];

/// Usual install locations on Linux and macOS, tried after `PATH`.
pub const BROWSER_PATHS: &[&str] = &[
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/snap/bin/chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
];

/// Where Windows installs Chromium-family browsers, under each of the folders below: Chrome
/// first, then Edge, then Chromium.
const WINDOWS_INSTALLS: &[&str] = &[
    r"Google\Chrome\Application\chrome.exe",
    r"Microsoft\Edge\Application\msedge.exe",
    r"Chromium\Application\chrome.exe",
];

/// The folders Windows installs programs into, by environment variable: the machine's (64-
/// and 32-bit) and the user's own (Chrome installed without administrator rights).
const WINDOWS_ROOTS: &[&str] = &["ProgramFiles", "ProgramFiles(x86)", "LOCALAPPDATA"];

/// The install locations on Windows, given the environment `var` reads: each root with each
/// browser, roots the environment lacks left out.
pub fn windows_install_paths(var: impl Fn(&str) -> Option<OsString>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for install in WINDOWS_INSTALLS {
        for root in WINDOWS_ROOTS {
            if let Some(dir) = var(root).filter(|d| !d.is_empty()) {
                // Joined by hand: on Linux (where this is tested) `Path::join` would not split
                // the backslashes.
                let mut path = dir;
                path.push("\\");
                path.push(install);
                out.push(PathBuf::from(path));
            }
        }
    }
    out
}

/// Finds a browser: `override_path` when given (it must exist), else the names of
/// `BROWSER_NAMES` on `PATH`, else the usual install locations.
pub fn find_browser(override_path: Option<&Path>) -> Result<PathBuf, CdpError> {
    if let Some(p) = override_path {
        return if is_executable(p) {
            Ok(p.to_path_buf())
        } else {
            Err(CdpError::BrowserPathInvalid { path: p.to_path_buf() })
        };
    }
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    for name in BROWSER_NAMES {
        for dir in std::env::split_paths(&path_var) {
            let candidate = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    let installs: Vec<PathBuf> = if cfg!(windows) {
        windows_install_paths(|v| std::env::var_os(v))
    } else {
        BROWSER_PATHS.iter().map(PathBuf::from).collect()
    };
    if let Some(found) = installs.iter().find(|p| is_executable(p)) {
        return Ok(found.clone());
    }
    let listed: Vec<String> = installs.iter().map(|p| p.display().to_string()).collect();
    Err(CdpError::BrowserNotFound {
        searched: format!("{} on PATH, then {}", BROWSER_NAMES.join(", "), listed.join(", ")),
    })
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else { return false };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_must_exist() {
        let e = find_browser(Some(Path::new("/nonexistent/chrome"))).unwrap_err();
        assert!(matches!(e, CdpError::BrowserPathInvalid { .. }), "{e}");
        assert!(e.to_string().contains("--browser") || e.to_string().contains("Chromium"));
    }

    #[test]
    fn not_found_says_how_to_install() {
        let e = CdpError::BrowserNotFound { searched: "x".into() };
        let msg = e.to_string();
        assert!(msg.contains("apt-get install chromium") && msg.contains("--browser"), "{msg}");
    }

    #[test]
    fn windows_looks_for_chrome_then_edge_under_each_program_folder() {
        let env = |v: &str| match v {
            "ProgramFiles" => Some(OsString::from(r"C:\Program Files")),
            "ProgramFiles(x86)" => Some(OsString::from(r"C:\Program Files (x86)")),
            "LOCALAPPDATA" => Some(OsString::from(r"C:\Users\ada\AppData\Local")),
            _ => None,
        };
        let paths: Vec<String> = windows_install_paths(env).iter().map(|p| p.display().to_string()).collect();
        assert_eq!(paths[0], r"C:\Program Files\Google\Chrome\Application\chrome.exe");
        assert_eq!(paths[2], r"C:\Users\ada\AppData\Local\Google\Chrome\Application\chrome.exe");
        assert!(paths.contains(&r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe".to_string()));
        assert_eq!(paths.len(), 9);
        // A root the environment lacks (a 32-bit Windows has no ProgramFiles(x86)) is skipped.
        let lean =
            windows_install_paths(|v| (v == "ProgramFiles").then(|| OsString::from(r"C:\Program Files")));
        assert_eq!(lean.len(), 3);
    }
}
