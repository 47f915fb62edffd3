//! [`Caps`]: the opt-in tool groups (`--caps LIST`). Each adds its tools and nothing else, so
//! the default `tools/list` stays small (every agent pays for it on every start).

use std::fmt;

use crate::tool_name::{Offer, ToolName};

/// The groups this build offers, as `--caps` names them.
pub const GROUPS: &[&str] = &["network", "vision", "pdf", "storage"];

/// Which opt-in groups are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    /// `network_requests` and `console`: what the page loaded and logged.
    pub network: bool,
    /// `mouse {x, y, action}`: the pointer at viewport coordinates.
    pub vision: bool,
    /// `pdf {path}`: the page printed to a PDF under `--output-dir`.
    pub pdf: bool,
    /// `storage {action: save|load, path}` and `cookies {action, …}`.
    pub storage: bool,
}

/// A `--caps` value naming no group of this build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCap(pub String);

impl fmt::Display for UnknownCap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no tool group {:?}; the groups are {}", self.0, GROUPS.join(", "))
    }
}

impl std::error::Error for UnknownCap {}

impl Caps {
    /// The groups named in `names` (`all` turns every one on).
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Caps, UnknownCap> {
        let mut caps = Caps::default();
        for name in names.iter().map(|n| n.as_ref().trim()).filter(|n| !n.is_empty()) {
            match name {
                "network" => caps.network = true,
                "vision" => caps.vision = true,
                "pdf" => caps.pdf = true,
                "storage" => caps.storage = true,
                "all" => caps = Caps::all(),
                other => return Err(UnknownCap(other.chars().take(40).collect())),
            }
        }
        Ok(caps)
    }

    /// Every group on.
    pub fn all() -> Caps {
        Caps { network: true, vision: true, pdf: true, storage: true }
    }

    /// Whether `tool` is on as far as the groups go (tools of no group always are).
    pub fn allows(&self, tool: ToolName) -> bool {
        match tool.offer() {
            Offer::Group("network") => self.network,
            Offer::Group("vision") => self.vision,
            Offer::Group("pdf") => self.pdf,
            Offer::Group("storage") => self.storage,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_named_or_refused() {
        assert_eq!(Caps::parse(&["vision"]), Ok(Caps { vision: true, ..Caps::default() }));
        assert_eq!(
            Caps::parse(&["network", " storage"]),
            Ok(Caps { network: true, storage: true, ..Caps::default() })
        );
        assert_eq!(Caps::parse(&["all"]), Ok(Caps::all()));
        assert_eq!(Caps::parse::<&str>(&[]), Ok(Caps::default()));
        let e = Caps::parse(&["vision", "telepathy"]).unwrap_err();
        assert!(
            e.to_string().contains("telepathy") && e.to_string().contains("network, vision, pdf, storage"),
            "{e}"
        );
        assert!(!Caps::default().allows(ToolName::Mouse) && Caps::default().allows(ToolName::Click));
        assert!(!Caps::default().allows(ToolName::Console) && Caps::all().allows(ToolName::Cookies));
    }
}
