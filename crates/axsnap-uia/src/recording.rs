//! Accessibility Insights files as the recorded platform's input: one app (named after the
//! file) with one window (the file's tree), so `axsnap desktop snapshot --recording FILE` and
//! `axsnap mcp --desktop --recording FILE` take them as they take an
//! `axsnap-desktop-recording`.
//!
//! Which a file is, is told by its extension (`.hier`, `.snapshot`, `.a11ytest`) or, failing
//! that, by its content: a zip, or JSON whose top is an element rather than a recording.

use std::path::Path;

use axsnap_core::{Role, Tree};
use axsnap_desktop::{DesktopError, Frame, Recording};

use crate::archive;
use crate::build::build_at;
use crate::element::Elements;
use crate::error::ReadError;
use crate::ids::control;
use crate::reader::{read_json, Limits};

/// The extensions Accessibility Insights for Windows saves elements under.
pub const EXTENSIONS: [&str; 3] = ["hier", "snapshot", "a11ytest"];

/// A recording as read: an Accessibility Insights file's window (served by the Windows
/// platform itself over a [`crate::ScriptedAutomation`]), or an `axsnap-desktop-recording`.
#[derive(Debug)]
pub enum Opened {
    /// A Windows tree: the window's elements and the app it is served as.
    Windows {
        /// The window ([`window_elements`] of the file's tree).
        elements: Elements,
        /// The app's name (the file's name without its extension).
        app: String,
    },
    /// Any other recording.
    Recording(Recording),
}

/// Reads the recording at `path`: an Accessibility Insights file (by its extension, a zip, or
/// JSON whose top is an element) as a Windows window, anything else as an
/// `axsnap-desktop-recording` ([`Recording::open`]).
pub fn open(path: &Path) -> Result<Opened, DesktopError> {
    let bad = |reason: String| DesktopError::Recording { path: path.display().to_string(), reason };
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
    let by_name = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)));
    let windows =
        |elements: Elements| Opened::Windows { elements: window_elements(&elements), app: app_name(path) };
    if by_name || archive::is_zip(&bytes) {
        return read_elements(&bytes, &Limits::default()).map(windows).map_err(|e| bad(e.to_string()));
    }
    match Recording::open(path) {
        Ok(recording) => Ok(Opened::Recording(recording)),
        // Not a recording: an element tree under another name is still one.
        Err(e) => match read_json(&bytes, &Limits::default()) {
            Ok(elements) => Ok(windows(elements)),
            Err(ReadError::NotAnElement(_) | ReadError::Json { .. }) => Err(e),
            Err(other) => Err(bad(other.to_string())),
        },
    }
}

/// Reads the recording at `path` for the recorded platform: an Accessibility Insights file
/// as one app with one window, anything else as an `axsnap-desktop-recording`.
pub fn open_recording(path: &Path) -> Result<Recording, DesktopError> {
    Ok(match open(path)? {
        Opened::Windows { elements, app } => recording_of(&elements, &app),
        Opened::Recording(recording) => recording,
    })
}

/// The elements of an Accessibility Insights file's bytes: a `.a11ytest` zip or the JSON of a
/// `.hier` or `.snapshot`.
pub fn read_elements(bytes: &[u8], limits: &Limits) -> Result<Elements, ReadError> {
    if archive::is_zip(bytes) {
        read_json(&archive::snapshot_json(bytes, limits)?, limits)
    } else {
        read_json(bytes, limits)
    }
}

/// The recording of an Accessibility Insights file's bytes, its app called `app`.
pub fn from_bytes(bytes: &[u8], app: &str) -> Result<Recording, ReadError> {
    Ok(recording_of(&read_elements(bytes, &Limits::default())?, app))
}

/// The window a recording holds: the first Window element's subtree when there is one (a
/// window saved with the desktop pane around it), else the whole tree.
pub fn window_elements(elements: &Elements) -> Elements {
    let at = elements.nodes.iter().position(|e| e.control_type == Some(control::WINDOW)).unwrap_or(0);
    let mut out = Elements::default();
    let mut stack = vec![(at, None)];
    while let Some((i, parent)) = stack.pop() {
        let Some(e) = elements.nodes.get(i) else { continue };
        let id = out.push(parent, e.clone());
        for &c in elements.children.get(i).map(Vec::as_slice).unwrap_or_default().iter().rev() {
            stack.push((c, Some(id)));
        }
    }
    out
}

/// One app called `app` with one window holding `elements`: the first Window element's
/// subtree when there is one (a window saved with the desktop pane around it is that window,
/// as a capture of it would read it), else the whole tree. The window's title and frame are
/// that element's; an untitled window takes the app's name.
pub fn recording_of(elements: &Elements, app: &str) -> Recording {
    let at = elements.nodes.iter().position(|e| e.control_type == Some(control::WINDOW)).unwrap_or(0);
    let built = build_at(elements, at);
    let window = elements.nodes.get(at);
    let title = window.map(|w| w.name.trim()).filter(|t| !t.is_empty()).unwrap_or(app);
    let frame = window.and_then(|w| w.bounds).map(|b| Frame {
        x: b.x.round() as i32,
        y: b.y.round() as i32,
        width: b.w.round().max(1.0) as u32,
        height: b.h.round().max(1.0) as u32,
        ..Frame::default()
    });
    Recording::one_window(app, title, frame, with_root(built.tree))
}

/// An empty file still makes a window: the tree gets a root saying so.
fn with_root(tree: Tree) -> Tree {
    if tree.root().is_some() {
        return tree;
    }
    Tree::with_root(axsnap_core::Node::new(Role::Window, "", axsnap_core::NativeId::new("uia", "empty")))
}

/// The app's name: the file's name without its extension (`Taskbar` for `Taskbar.snapshot`).
fn app_name(path: &Path) -> String {
    path.file_stem().and_then(|s| s.to_str()).filter(|s| !s.is_empty()).unwrap_or("recording").to_string()
}
