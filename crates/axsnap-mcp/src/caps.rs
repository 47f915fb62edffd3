//! [`Caps`]: the opt-in tool groups (`--caps LIST`). Each adds its tools and nothing else, so
//! the default `tools/list` stays small (every agent pays for it on every start).

use std::fmt;

/// The groups this build offers, as `--caps` names them.
pub const GROUPS: &[&str] = &["vision", "pdf"];

/// Which opt-in groups are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    /// `mouse {x, y, action}`: the pointer at viewport coordinates.
    pub vision: bool,
    /// `pdf {path}`: the page printed to a PDF under `--output-dir`.
    pub pdf: bool,
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
                "vision" => caps.vision = true,
                "pdf" => caps.pdf = true,
                "all" => caps = Caps { vision: true, pdf: true },
                other => return Err(UnknownCap(other.chars().take(40).collect())),
            }
        }
        Ok(caps)
    }

    /// Whether the tool `name` of a group is on (tools of no group always are).
    pub fn allows(&self, name: &str) -> bool {
        match name {
            "mouse" => self.vision,
            "pdf" => self.pdf,
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_named_or_refused() {
        assert_eq!(Caps::parse(&["vision"]), Ok(Caps { vision: true, pdf: false }));
        assert_eq!(Caps::parse(&["all"]), Ok(Caps { vision: true, pdf: true }));
        assert_eq!(Caps::parse::<&str>(&[]), Ok(Caps::default()));
        let e = Caps::parse(&["vision", "telepathy"]).unwrap_err();
        assert!(e.to_string().contains("telepathy") && e.to_string().contains("vision, pdf"), "{e}");
        assert!(!Caps::default().allows("mouse") && Caps::default().allows("click"));
    }
}
