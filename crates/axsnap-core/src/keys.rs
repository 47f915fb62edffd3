//! Keys and chords as agents write them, read once for every backend.
//!
//! A chord is key names joined by `+`: the last is the key, the others modifiers
//! (`Control+A`, `Shift+ArrowDown`, `Control+Shift+End`; `Control++` is Control and the plus
//! key). Several chords are separated by whitespace (`"Tab Tab Enter"`). Key names follow the
//! DOM's `KeyboardEvent.key` values (`Enter`, `Tab`, `ArrowDown`, `F5`) with the aliases agents
//! use (`Return`, `Esc`, `Del`, `Up`, `Space`, `Menu`), or are one character. Modifiers are
//! `Shift`, `Control` (`Ctrl`), `Alt` (`Option`, `Mod1`) and `Meta` (`Cmd`, `Command`, `Super`,
//! `Win`), in any case.
//!
//! A backend turns a [`Chord`] into its platform's events (CDP key events, X keysyms); what a
//! name means, and which names are refused, is decided here, so the same `keys` does the same
//! on a page and in a desktop window.
//!
//! ```
//! use axsnap_core::keys::{parse, Key, Modifier, Named};
//!
//! let chords = parse("Control+Shift+Tab Enter").unwrap();
//! assert_eq!(chords[0].modifiers, vec![Modifier::Control, Modifier::Shift]);
//! assert_eq!(chords[0].key, Key::Named(Named::Tab));
//! assert_eq!(chords[1].key, Key::Named(Named::Enter));
//! assert!(parse("Hyper+x").is_err());
//! ```

use thiserror::Error;

/// A modifier key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// Shift.
    Shift,
    /// Control.
    Control,
    /// Alt (Option on a Mac keyboard).
    Alt,
    /// Meta (Command, Super, the Windows key).
    Meta,
}

impl Modifier {
    /// The modifier a name means (`ctrl`, `Option`, `cmd`), if it is one.
    pub fn from_name(name: &str) -> Option<Modifier> {
        Some(match name.to_ascii_lowercase().as_str() {
            "shift" => Modifier::Shift,
            "control" | "ctrl" => Modifier::Control,
            "alt" | "option" | "mod1" => Modifier::Alt,
            "meta" | "cmd" | "command" | "super" | "win" => Modifier::Meta,
            _ => return None,
        })
    }
}

/// A key with a name (not one that types a character).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Named {
    /// Enter (Return).
    Enter,
    /// Tab.
    Tab,
    /// Escape.
    Escape,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// The space bar.
    Space,
    /// Up.
    ArrowUp,
    /// Down.
    ArrowDown,
    /// Left.
    ArrowLeft,
    /// Right.
    ArrowRight,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// The context-menu key.
    ContextMenu,
}

/// One key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A named key.
    Named(Named),
    /// A function key, F1 to F24.
    Function(u8),
    /// A modifier pressed on its own.
    Modifier(Modifier),
    /// The key that types this character (its case as written; Shift held makes a letter
    /// upper case when a backend types it).
    Char(char),
}

impl Key {
    /// The key a name means, if any.
    pub fn from_name(name: &str) -> Option<Key> {
        let mut chars = name.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return Some(match c {
                '\n' | '\r' => Key::Named(Named::Enter),
                '\t' => Key::Named(Named::Tab),
                ' ' => Key::Named(Named::Space),
                c => Key::Char(c),
            });
        }
        let lower = name.to_ascii_lowercase();
        let named = match lower.as_str() {
            "enter" | "return" => Named::Enter,
            "tab" => Named::Tab,
            "escape" | "esc" => Named::Escape,
            "backspace" => Named::Backspace,
            "delete" | "del" => Named::Delete,
            "insert" => Named::Insert,
            "space" => Named::Space,
            "arrowup" | "up" => Named::ArrowUp,
            "arrowdown" | "down" => Named::ArrowDown,
            "arrowleft" | "left" => Named::ArrowLeft,
            "arrowright" | "right" => Named::ArrowRight,
            "home" => Named::Home,
            "end" => Named::End,
            "pageup" => Named::PageUp,
            "pagedown" => Named::PageDown,
            "contextmenu" | "menu" => Named::ContextMenu,
            _ => {
                if let Some(m) = Modifier::from_name(name) {
                    return Some(Key::Modifier(m));
                }
                let n: u8 = lower.strip_prefix('f')?.parse().ok()?;
                return (1..=24).contains(&n).then_some(Key::Function(n));
            }
        };
        Some(Key::Named(named))
    }
}

/// A key pressed with modifiers held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chord {
    /// The modifiers, each once, in the order written (the order they go down).
    pub modifiers: Vec<Modifier>,
    /// The key.
    pub key: Key,
}

impl Chord {
    /// Whether `m` is held.
    pub fn holds(&self, m: Modifier) -> bool {
        self.modifiers.contains(&m)
    }

    /// Whether a modifier other than Shift is held: the chord is a shortcut and types nothing.
    pub fn is_shortcut(&self) -> bool {
        self.modifiers.iter().any(|m| *m != Modifier::Shift)
    }
}

/// Why keys could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum KeyError {
    /// Nothing to press.
    #[error("no keys given; pass key names such as Enter or Tab, or chords such as Control+A")]
    Empty,
    /// A name that is no key.
    #[error(
        "unknown key {key:?} in {chord:?}; use key names such as Enter, Tab, Escape, Backspace, ArrowDown, \
         PageUp, F5, or a single character, with modifiers joined by + (Control+A, Shift+ArrowDown)"
    )]
    UnknownKey {
        /// The name.
        key: String,
        /// The chord it was in.
        chord: String,
    },
    /// A name before the key that is no modifier.
    #[error("{modifier:?} in {chord:?} is not a modifier; modifiers are Shift, Control, Alt and Meta")]
    NotAModifier {
        /// The name.
        modifier: String,
        /// The chord it was in.
        chord: String,
    },
}

/// Reads one chord (`Control+A`).
pub fn chord(spec: &str) -> Result<Chord, KeyError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(KeyError::Empty);
    }
    // "Control++" is Control and the plus key; a lone "+" is the plus key.
    let (mods, key) = match spec.strip_suffix("++") {
        Some(rest) => (Some(rest), "+"),
        None if spec == "+" => (None, "+"),
        None => match spec.rsplit_once('+') {
            Some((m, k)) => (Some(m), k),
            None => (None, spec),
        },
    };
    let mut modifiers = Vec::new();
    for name in mods.into_iter().flat_map(|m| m.split('+')) {
        let m = Modifier::from_name(name.trim())
            .ok_or_else(|| KeyError::NotAModifier { modifier: name.to_string(), chord: spec.to_string() })?;
        if !modifiers.contains(&m) {
            modifiers.push(m);
        }
    }
    let key = Key::from_name(key.trim())
        .ok_or_else(|| KeyError::UnknownKey { key: key.to_string(), chord: spec.to_string() })?;
    Ok(Chord { modifiers, key })
}

/// Reads chords separated by whitespace (`"Tab Tab Enter"`); at least one.
pub fn parse(spec: &str) -> Result<Vec<Chord>, KeyError> {
    let chords = spec.split_whitespace().map(chord).collect::<Result<Vec<_>, _>>()?;
    if chords.is_empty() {
        return Err(KeyError::Empty);
    }
    Ok(chords)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_aliases_and_chords() {
        let c = chord("ctrl+shift+End").unwrap();
        assert_eq!(c.modifiers, vec![Modifier::Control, Modifier::Shift]);
        assert_eq!(c.key, Key::Named(Named::End));
        assert!(c.is_shortcut() && c.holds(Modifier::Shift));
        assert_eq!(chord("Control++").unwrap().key, Key::Char('+'));
        assert_eq!(chord("+").unwrap(), Chord { modifiers: vec![], key: Key::Char('+') });
        assert_eq!(chord("Option+x").unwrap().modifiers, vec![Modifier::Alt]);
        assert_eq!(chord("Cmd+Win+a").unwrap().modifiers, vec![Modifier::Meta]);
        assert_eq!(chord("F24").unwrap().key, Key::Function(24));
        assert_eq!(chord("Shift").unwrap().key, Key::Modifier(Modifier::Shift));
        assert_eq!(chord("Return").unwrap().key, Key::Named(Named::Enter));
        assert_eq!(chord("menu").unwrap().key, Key::Named(Named::ContextMenu));
        assert_eq!(chord("é").unwrap().key, Key::Char('é'));
        assert_eq!(chord("A").unwrap().key, Key::Char('A'));
        assert!(!chord("Shift+a").unwrap().is_shortcut());
        assert_eq!(parse(" Tab  Tab Enter ").unwrap().len(), 3);
    }

    #[test]
    fn refuses_what_is_no_key_and_says_which_part() {
        assert_eq!(parse("   "), Err(KeyError::Empty));
        assert_eq!(chord(""), Err(KeyError::Empty));
        for bad in ["Foo", "F99", "F0", "Control+Nope", "Control+"] {
            assert!(matches!(chord(bad), Err(KeyError::UnknownKey { .. })), "{bad}");
        }
        let e = chord("Hyper+A").unwrap_err();
        assert!(matches!(&e, KeyError::NotAModifier { modifier, .. } if modifier == "Hyper"), "{e}");
        assert!(e.to_string().contains("Shift, Control, Alt and Meta"), "{e}");
        let e = parse("Tab Control+Nope").unwrap_err();
        assert!(e.to_string().contains("\"Nope\" in \"Control+Nope\""), "{e}");
    }
}
