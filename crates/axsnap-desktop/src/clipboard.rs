//! The desktop session's clipboard, read and set as text. On X11 the clipboard's content lives
//! in the process that set it: a [`Clipboard`] serves what it set (on a thread of its own) for
//! as long as it lives, so the caller keeps one per session. Windows and macOS keep it in the
//! system.

use crate::error::DesktopError;

/// The clipboard of the desktop session.
pub struct Clipboard {
    inner: arboard::Clipboard,
}

impl std::fmt::Debug for Clipboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Clipboard")
    }
}

/// A clipboard error in words.
fn failed(e: arboard::Error) -> DesktopError {
    DesktopError::Clipboard(match e {
        arboard::Error::ContentNotAvailable => "it holds no text".into(),
        arboard::Error::ClipboardNotSupported => {
            "this session has no clipboard (on Linux: is DISPLAY set to an X server?)".into()
        }
        other => other.to_string(),
    })
}

impl Clipboard {
    /// Connects to the clipboard of the desktop session (on Linux, the one in `DISPLAY`).
    pub fn open() -> Result<Clipboard, DesktopError> {
        Ok(Clipboard { inner: arboard::Clipboard::new().map_err(failed)? })
    }

    /// The text it holds; `None` when it holds none (empty, or only images or files).
    pub fn text(&mut self) -> Result<Option<String>, DesktopError> {
        match self.inner.get_text() {
            Ok(t) if t.is_empty() => Ok(None),
            Ok(t) => Ok(Some(t)),
            Err(arboard::Error::ContentNotAvailable) => Ok(None),
            Err(e) => Err(failed(e)),
        }
    }

    /// Puts `text` on it, for every app of the session to paste.
    pub fn set_text(&mut self, text: &str) -> Result<(), DesktopError> {
        self.inner.set_text(text.to_string()).map_err(failed)
    }
}
