//! AX recordings as the recorded platform's input: one app with one window (the file's
//! tree), so `axsnap desktop snapshot --recording FILE` and `axsnap mcp --desktop --recording
//! FILE` take them as they take an `axsnap-desktop-recording`.
//!
//! A file is taken for an AX recording by its extension, [`EXTENSION`], or by its content
//! (`"format": "axsnap-ax-recording"`); anything else is read as an
//! `axsnap-desktop-recording` ([`Recording::open`]).

use std::path::Path;

use axsnap_core::{NativeId, Node, Role, Tree};
use axsnap_desktop::{DesktopError, Frame, Recording};

use crate::build::build_at;
use crate::element::Elements;
use crate::error::ReadError;
use crate::reader::{read_json, Limits, FORMAT};

/// The extension of an AX recording's file.
pub const EXTENSION: &str = "axjson";

/// Whether the file at `path` is an AX recording, by its extension or its first kilobyte
/// (false for a file that cannot be read: the reader it is then handed to says why).
pub fn is_ax_recording(path: &Path) -> bool {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(1024);
    let read = std::fs::File::open(path).and_then(|f| f.take(1024).read_to_end(&mut head));
    looks_like(path, if read.is_ok() { &head } else { &[] })
}

/// Whether `path` and its first bytes say it is an AX recording.
fn looks_like(path: &Path, head: &[u8]) -> bool {
    let by_name =
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case(EXTENSION));
    // The format field is near the top of a file written as documented; a look at the first
    // kilobyte spares parsing a large desktop recording twice.
    let needle = format!("\"{FORMAT}\"");
    by_name || head.windows(needle.len()).take(1024).any(|w| w == needle.as_bytes())
}

/// Reads the recording at `path`: an AX recording as one app with one window, anything else
/// as an `axsnap-desktop-recording` ([`Recording::open`]).
pub fn open_recording(path: &Path) -> Result<Recording, DesktopError> {
    let bad = |reason: String| DesktopError::Recording { path: path.display().to_string(), reason };
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    if !looks_like(path, &bytes) {
        return Recording::open(path);
    }
    from_bytes(&bytes, &app_name(path)).map_err(|e| bad(e.to_string()))
}

/// The recording of an AX recording's bytes; its app is the file's `app`, else `fallback`.
pub fn from_bytes(bytes: &[u8], fallback: &str) -> Result<Recording, ReadError> {
    let read = read_json(bytes, &Limits::default())?;
    Ok(recording_of(&read.elements, read.app.as_deref().unwrap_or(fallback)))
}

/// Where the window is in `elements`: the first `AXWindow` or `AXSheet` (a file saved from the
/// app element holds its windows), else the root.
pub fn window_at(elements: &Elements) -> usize {
    elements.nodes.iter().position(|e| matches!(e.role.as_str(), "AXWindow" | "AXSheet")).unwrap_or(0)
}

/// One app called `app` with one window holding `elements` (from [`window_at`]). The window's
/// title and frame are that element's; an untitled window takes the app's name.
pub fn recording_of(elements: &Elements, app: &str) -> Recording {
    let at = window_at(elements);
    let built = build_at(elements, at);
    let window = elements.nodes.get(at);
    let title = window.map(|w| w.title.trim()).filter(|t| !t.is_empty()).unwrap_or(app);
    let frame = window.and_then(|w| w.bounds).map(|b| Frame {
        x: b.x.round() as i32,
        y: b.y.round() as i32,
        width: b.w.round().max(1.0) as u32,
        height: b.h.round().max(1.0) as u32,
        ..Frame::default()
    });
    Recording::one_window(app, title, frame, with_root(built.tree))
}

/// A file with no elements still makes a window: the tree gets a root saying so.
fn with_root(tree: Tree) -> Tree {
    if tree.root().is_some() {
        return tree;
    }
    Tree::with_root(Node::new(Role::Window, "", NativeId::new("ax", "empty")))
}

/// The app's name when the file gives none: the file's name without its extension.
fn app_name(path: &Path) -> String {
    path.file_stem().and_then(|s| s.to_str()).filter(|s| !s.is_empty()).unwrap_or("recording").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_told_by_extension_or_format() {
        assert!(looks_like(Path::new("finder.axjson"), b""));
        assert!(looks_like(Path::new("finder.AXJSON"), b""));
        assert!(looks_like(Path::new("window.json"), br#"{"format": "axsnap-ax-recording", "version": 1}"#));
        assert!(!looks_like(Path::new("window.json"), br#"{"format": "axsnap-desktop-recording"}"#));
        assert!(!is_ax_recording(Path::new("/nonexistent/window.json")));
    }

    #[test]
    fn a_bare_window_is_one_app_with_one_window() {
        let text = br#"{"AXRole": "AXApplication", "AXTitle": "Notes", "AXChildren": [
            {"AXRole": "AXWindow", "AXTitle": "", "AXPosition": [10.4, 20.6], "AXSize": [300, 0]}]}"#;
        let r = from_bytes(text, "notes").expect("it reads");
        let w = &r.apps[0].windows[0];
        assert_eq!((r.apps[0].name.as_str(), w.title.as_str()), ("notes", "notes"));
        assert_eq!((w.frame.x, w.frame.y, w.frame.width, w.frame.height), (10, 21, 300, 1));
        // The window's subtree, not the app element around it.
        assert_eq!(w.tree.len(), 1);
    }

    #[test]
    fn a_reader_error_says_the_file() {
        let dir = std::env::temp_dir().join(format!("axsnap-ax-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let path = dir.join("broken.axjson");
        std::fs::write(&path, br#"{"AXRole": "AXButton", "AXTitle": 5}"#).expect("written");
        let e = open_recording(&path).expect_err("it is broken").to_string();
        assert!(e.contains("broken.axjson") && e.contains("`AXTitle` must be a string"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
