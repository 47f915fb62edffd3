//! [`Code`]: every failure code a tool result can carry, declared once. An error's text starts
//! with its code (`stale_ref: ...`), the same code for the same event whatever the backend;
//! the README's error table lists them all (a test keeps it so).

use std::fmt;

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $means:literal; )*) => {
        /// A failure's code: short, stable, for programs and for the model alike.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in the README's order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// How the code is spelled (`stale_ref`).
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }

            /// What it means, in a few words (the README's table).
            pub fn means(self) -> &'static str {
                match self { $( Code::$variant => $means, )* }
            }
        }
    };
}

codes! {
    /// A ref that is no ref (`e12` is one).
    BadRef => "bad_ref", "the ref is not of the form e12";
    /// A ref never given out.
    UnknownRef => "unknown_ref", "no snapshot gave out this ref; take one and use its refs";
    /// A ref whose element was removed or replaced.
    StaleRef => "stale_ref", "the element is gone since the last view; take a snapshot";
    /// A ref from another tab or window.
    ForeignRef => "foreign_ref", "the ref belongs to another tab or window";
    /// Another element covers the one acted on.
    Obscured => "obscured", "something covers the element (a modal, a menu): close it first";
    /// The element is disabled.
    Disabled => "disabled", "the element is disabled";
    /// The element is not shown.
    Hidden => "hidden", "the element is not shown (hidden, collapsed, out of reach)";
    /// The field cannot be changed.
    ReadOnly => "read_only", "the field is read-only";
    /// The element takes no text.
    NotATextField => "not_a_text_field", "the element takes no text (a button, a link)";
    /// No element, option or entry matches.
    NotFound => "not_found", "no option, element or entry matches what was asked";
    /// The keys asked for are not keys.
    BadKey => "bad_key", "a key or modifier that is none";
    /// The element cannot take this action for another reason.
    NotActionable => "not_actionable", "the element cannot take this action (the message says why)";
    /// An edit that did not take.
    NoEffect => "no_effect", "the edit did not take: the field holds something else";
    /// A value the field's type refuses.
    BadValue => "bad_value", "the field's type does not take that value (the message says its format)";
    /// The page or app did not answer in time.
    Timeout => "timeout", "no answer in time, or a wait's condition did not happen";
    /// A URL that could not be loaded.
    NavigationFailed => "navigation_failed", "the URL could not be loaded";
    /// A URL the server's policy refuses.
    UrlRefused => "url_refused", "the URL is outside what the server may open";
    /// A JavaScript dialog blocks the page.
    DialogOpen => "dialog_open", "a JavaScript dialog blocks the page: answer it with dialog";
    /// No JavaScript dialog is open.
    NoDialog => "no_dialog", "no JavaScript dialog is open";
    /// No history entry that way.
    NoHistory => "no_history", "no page to go back or forward to";
    /// No page is open in the session.
    NoPage => "no_page", "no page is open: navigate first";
    /// The tab is closed.
    TabGone => "tab_gone", "the tab is closed: list the tabs";
    /// The page's renderer crashed.
    Crashed => "crashed", "the page crashed: reload or navigate";
    /// The browser is gone.
    BrowserGone => "browser_gone", "the browser exited; the next call starts it again";
    /// The browser was started again and the call not repeated.
    BrowserRestarted => "browser_restarted", "the browser was started again; repeat the call if needed";
    /// No browser could be started or reached.
    BrowserUnavailable => "browser_unavailable", "no browser could be started or reached";
    /// Another browser failure.
    BrowserError => "browser_error", "the browser failed otherwise (the message says how)";
    /// The desktop cannot be reached.
    NoDesktop => "no_desktop", "the desktop (or its recording) cannot be reached";
    /// No window of that id.
    NoWindow => "no_window", "no window of that id: list them with desktop_windows";
    /// The window closed or its app exited.
    WindowGone => "window_gone", "the window closed or its app exited";
    /// An object gone outside an action.
    Gone => "gone", "what was asked about is gone";
    /// The window or platform cannot do that.
    Unsupported => "unsupported", "the window or platform cannot do that";
    /// An app that could not be launched.
    LaunchFailed => "launch_failed", "the app could not be launched or showed no window";
    /// A window request that did not take.
    NotApplied => "not_applied", "the window did not change as asked";
    /// No window manager for the request.
    NoWindowManager => "no_window_manager", "only a window manager can do that, and none runs";
    /// The window system cannot be reached.
    DisplayError => "display_error", "the window system cannot be reached";
    /// The clipboard cannot be read or set.
    ClipboardError => "clipboard_error", "the clipboard cannot be read or set";
    /// Another desktop failure.
    DesktopError => "desktop_error", "the desktop failed otherwise (the message says how)";
    /// A tool this server does not have (or not in this place).
    UnknownTool => "unknown_tool", "no such tool here";
    /// An argument the call cannot take.
    BadArgument => "bad_argument", "an argument is wrong (the message names it)";
    /// A session handle that names no session.
    UnknownSession => "unknown_session", "the session handle names no session: start a new one";
    /// Too many sessions at once.
    TooManySessions => "too_many_sessions", "the server holds as many sessions as it may";
    /// The shared state store cannot be reached.
    StateUnavailable => "state_unavailable", "the shared state store cannot be reached";
    /// The shared state could not be read.
    StateUnreadable => "state_unreadable", "the session's shared state could not be read";
    /// The call was cancelled.
    Cancelled => "cancelled", "the client cancelled the call";
    /// A fault of the server's own.
    Internal => "internal", "a fault of the server's own (please report it)";
    /// Saving needs an output directory.
    NoOutputDir => "no_output_dir", "the server has no --output-dir to save into";
    /// A path outside the output directory.
    OutsideOutputDir => "outside_output_dir", "the file would be outside --output-dir";
    /// A file that could not be written.
    WriteFailed => "write_failed", "the file could not be written";
    /// A file bigger than the server takes.
    FileTooBig => "file_too_big", "the file is bigger than the server takes";
    /// No such file.
    NoSuchFile => "no_such_file", "no such file";
    /// Uploads are off.
    UploadsOff => "uploads_off", "the server has no --upload-root";
    /// A file outside the upload root.
    OutsideUploadRoot => "outside_upload_root", "the file is outside --upload-root";
    /// A storage state file that cannot be read.
    BadStorageFile => "bad_storage_file", "the storage state file cannot be read";
    /// Storage could not be saved or loaded.
    StorageStateFailed => "storage_state_failed", "the storage state could not be saved or loaded";
    /// A cookie that was not deleted.
    NotDeleted => "not_deleted", "the cookie or storage entry was not deleted";
    /// A record that is not being kept.
    NotRecording => "not_recording", "that record is not being kept (its --caps group is off)";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_snake_case_and_each_in_the_readmes_table() {
        let readme = include_str!("../../../README.md");
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "{s} twice");
            assert!(s.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'), "{s}");
            let row = format!("| `{s}` | {} |", c.means());
            assert!(readme.contains(&row), "README's error table lacks the row {row}");
        }
    }
}
