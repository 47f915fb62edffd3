//! [`ToolName`]: every tool the server knows, named once. The list (`tools`), the routing
//! (`handler`, `desktop`), the dispatch (`browsing`, `surface`, `calls`), the opt-in groups
//! (`caps`) and the answer shapes (`output_schema`) all match on this enum, so a tool added
//! here is a compile error everywhere it must be handled, and a name is spelt in one place.

use std::fmt;

/// A tool of this server, whether or not this run offers it (see [`ToolName::offer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolName {
    /// `navigate {url}`.
    Navigate,
    /// `back`.
    Back,
    /// `forward`.
    Forward,
    /// `reload`.
    Reload,
    /// `snapshot {mode, ref, …}`.
    Snapshot,
    /// `find {query, limit}`.
    Find,
    /// `click {ref, button, double}`.
    Click,
    /// `hover {ref}`.
    Hover,
    /// `type {ref, text, submit, slowly}`.
    Type,
    /// `fill {ref, text}`.
    Fill,
    /// `press {keys}`.
    Press,
    /// `select {ref, values}`.
    Select,
    /// `check {ref, checked}`.
    Check,
    /// `scroll {direction, ref, amount}`.
    Scroll,
    /// `drag {from_ref, to_ref}`.
    Drag,
    /// `upload {ref, paths}`.
    Upload,
    /// `tabs {action, index, url}`.
    Tabs,
    /// `wait_for {text, text_gone, ref, state, seconds}`.
    WaitFor,
    /// `dialog {accept, prompt_text}`.
    Dialog,
    /// `screenshot {ref, annotate}`.
    Screenshot,
    /// `close`.
    Close,
    /// `evaluate {expression}` (with `--allow-eval`).
    Evaluate,
    /// `network_requests` (the `network` group).
    NetworkRequests,
    /// `console` (the `network` group).
    Console,
    /// `mouse {x, y, action}` (the `vision` group).
    Mouse,
    /// `pdf {path}` (the `pdf` group).
    Pdf,
    /// `storage {action, path}` (the `storage` group).
    Storage,
    /// `cookies {action, …}` (the `storage` group).
    Cookies,
    /// `desktop_windows` (with `--desktop`).
    DesktopWindows,
    /// `desktop_launch {app, args}` (with `--desktop`).
    DesktopLaunch,
    /// `clipboard {text}` (with `--desktop`).
    Clipboard,
}

/// What makes a tool offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Always: the browser's tools.
    Always,
    /// With `--allow-eval`.
    Eval,
    /// With `--caps` naming this group.
    Group(&'static str),
    /// With `--desktop`.
    Desktop,
}

impl ToolName {
    /// Every tool, in the order `tools/list` gives them.
    pub const ALL: [ToolName; 31] = [
        ToolName::Navigate,
        ToolName::Back,
        ToolName::Forward,
        ToolName::Reload,
        ToolName::Snapshot,
        ToolName::Find,
        ToolName::Click,
        ToolName::Hover,
        ToolName::Type,
        ToolName::Fill,
        ToolName::Press,
        ToolName::Select,
        ToolName::Check,
        ToolName::Scroll,
        ToolName::Drag,
        ToolName::Upload,
        ToolName::Tabs,
        ToolName::WaitFor,
        ToolName::Dialog,
        ToolName::Screenshot,
        ToolName::Close,
        ToolName::Evaluate,
        ToolName::NetworkRequests,
        ToolName::Console,
        ToolName::Mouse,
        ToolName::Pdf,
        ToolName::Storage,
        ToolName::Cookies,
        ToolName::DesktopWindows,
        ToolName::DesktopLaunch,
        ToolName::Clipboard,
    ];

    /// The name clients call it by.
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolName::Navigate => "navigate",
            ToolName::Back => "back",
            ToolName::Forward => "forward",
            ToolName::Reload => "reload",
            ToolName::Snapshot => "snapshot",
            ToolName::Find => "find",
            ToolName::Click => "click",
            ToolName::Hover => "hover",
            ToolName::Type => "type",
            ToolName::Fill => "fill",
            ToolName::Press => "press",
            ToolName::Select => "select",
            ToolName::Check => "check",
            ToolName::Scroll => "scroll",
            ToolName::Drag => "drag",
            ToolName::Upload => "upload",
            ToolName::Tabs => "tabs",
            ToolName::WaitFor => "wait_for",
            ToolName::Dialog => "dialog",
            ToolName::Screenshot => "screenshot",
            ToolName::Close => "close",
            ToolName::Evaluate => "evaluate",
            ToolName::NetworkRequests => "network_requests",
            ToolName::Console => "console",
            ToolName::Mouse => "mouse",
            ToolName::Pdf => "pdf",
            ToolName::Storage => "storage",
            ToolName::Cookies => "cookies",
            ToolName::DesktopWindows => "desktop_windows",
            ToolName::DesktopLaunch => "desktop_launch",
            ToolName::Clipboard => "clipboard",
        }
    }

    /// The tool called `name`, if the server has one (offered or not).
    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// What makes this tool offered.
    pub const fn offer(self) -> Offer {
        match self {
            ToolName::Evaluate => Offer::Eval,
            ToolName::NetworkRequests | ToolName::Console => Offer::Group("network"),
            ToolName::Mouse => Offer::Group("vision"),
            ToolName::Pdf => Offer::Group("pdf"),
            ToolName::Storage | ToolName::Cookies => Offer::Group("storage"),
            ToolName::DesktopWindows | ToolName::DesktopLaunch | ToolName::Clipboard => Offer::Desktop,
            _ => Offer::Always,
        }
    }

    /// Whether the tool takes a `window` (with `--desktop`), and then works in that desktop
    /// window: the calls a tab and a window share.
    pub const fn windowed(self) -> bool {
        matches!(
            self,
            ToolName::Snapshot
                | ToolName::Find
                | ToolName::WaitFor
                | ToolName::Click
                | ToolName::Hover
                | ToolName::Type
                | ToolName::Fill
                | ToolName::Press
                | ToolName::Select
                | ToolName::Check
                | ToolName::Scroll
        )
    }

    /// Whether a call may run again after a browser restart without acting on a page whose
    /// state was lost: it only looks, or goes somewhere whole.
    pub const fn repeatable(self) -> bool {
        matches!(
            self,
            ToolName::Navigate
                | ToolName::Reload
                | ToolName::Snapshot
                | ToolName::Find
                | ToolName::Tabs
                | ToolName::WaitFor
                | ToolName::Screenshot
                | ToolName::NetworkRequests
                | ToolName::Console
        )
    }

    /// Whether its answer is a step (a full snapshot, a diff or `unchanged` after it looked
    /// or acted) rather than a report of its own.
    pub const fn answers_with_a_step(self) -> bool {
        !matches!(
            self,
            ToolName::Find
                | ToolName::Screenshot
                | ToolName::Evaluate
                | ToolName::Pdf
                | ToolName::NetworkRequests
                | ToolName::Console
                | ToolName::Storage
                | ToolName::Cookies
                | ToolName::Clipboard
                | ToolName::Close
        )
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for t in ToolName::ALL {
            assert!(seen.insert(t.as_str()), "{t} twice");
            assert_eq!(ToolName::parse(t.as_str()), Some(t));
        }
        assert_eq!(ToolName::parse("Click"), None);
        assert_eq!(ToolName::parse("nosuch"), None);
    }

    #[test]
    fn groups_are_the_caps_groups() {
        for t in ToolName::ALL {
            if let Offer::Group(g) = t.offer() {
                assert!(crate::caps::GROUPS.contains(&g), "{t}: {g}");
            }
        }
    }
}
