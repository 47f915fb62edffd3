//! Keys and chords as trusted key events (`Input.dispatchKeyEvent`): the core's
//! [`axsnap_core::keys`] chords (which read what agents write, for every backend) as the
//! browser wants them, with DOM `key` and `code` values and Windows virtual key codes (US
//! layout; other characters type as themselves).

use axsnap_core::keys::{self as core_keys, Modifier, Named};
use serde_json::json;

use crate::conn::RawCdp;
use crate::error::CdpError;

/// Modifier bits as CDP wants them.
pub mod modifiers {
    /// Alt.
    pub const ALT: i64 = 1;
    /// Control.
    pub const CONTROL: i64 = 2;
    /// Meta (Command).
    pub const META: i64 = 4;
    /// Shift.
    pub const SHIFT: i64 = 8;
}

/// One key as the browser needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// `KeyboardEvent.key`.
    pub key: String,
    /// `KeyboardEvent.code`.
    pub code: String,
    /// The Windows virtual key code.
    pub key_code: i64,
    /// The text the key types (none for control keys).
    pub text: Option<String>,
}

/// A key with modifiers held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chord {
    /// Held modifiers, in press order.
    pub modifiers: Vec<Key>,
    /// The modifier bits.
    pub mask: i64,
    /// The key pressed.
    pub key: Key,
}

fn named(key: &str, code: &str, key_code: i64, text: Option<&str>) -> Key {
    Key { key: key.into(), code: code.into(), key_code, text: text.map(str::to_string) }
}

/// A modifier's key and its bit.
fn modifier(m: Modifier) -> (Key, i64) {
    match m {
        Modifier::Shift => (named("Shift", "ShiftLeft", 16, None), modifiers::SHIFT),
        Modifier::Control => (named("Control", "ControlLeft", 17, None), modifiers::CONTROL),
        Modifier::Alt => (named("Alt", "AltLeft", 18, None), modifiers::ALT),
        Modifier::Meta => (named("Meta", "MetaLeft", 91, None), modifiers::META),
    }
}

/// The browser's form of one key.
fn key_of(k: core_keys::Key) -> Key {
    match k {
        core_keys::Key::Char(c) => char_key(c),
        core_keys::Key::Modifier(m) => modifier(m).0,
        core_keys::Key::Function(n) => {
            let f = format!("F{n}");
            named(&f, &f, 111 + i64::from(n), None)
        }
        core_keys::Key::Named(n) => match n {
            Named::Enter => named("Enter", "Enter", 13, Some("\r")),
            Named::Tab => named("Tab", "Tab", 9, None),
            Named::Escape => named("Escape", "Escape", 27, None),
            Named::Backspace => named("Backspace", "Backspace", 8, None),
            Named::Delete => named("Delete", "Delete", 46, None),
            Named::Insert => named("Insert", "Insert", 45, None),
            Named::Space => named(" ", "Space", 32, Some(" ")),
            Named::ArrowUp => named("ArrowUp", "ArrowUp", 38, None),
            Named::ArrowDown => named("ArrowDown", "ArrowDown", 40, None),
            Named::ArrowLeft => named("ArrowLeft", "ArrowLeft", 37, None),
            Named::ArrowRight => named("ArrowRight", "ArrowRight", 39, None),
            Named::Home => named("Home", "Home", 36, None),
            Named::End => named("End", "End", 35, None),
            Named::PageUp => named("PageUp", "PageUp", 33, None),
            Named::PageDown => named("PageDown", "PageDown", 34, None),
            Named::ContextMenu => named("ContextMenu", "ContextMenu", 93, None),
        },
    }
}

/// The key of one typed character (US layout codes; other characters type as themselves).
/// The key press that types `c` as it is (`A` is a capital A), with no modifiers.
pub fn char_chord(c: char) -> Chord {
    Chord { modifiers: Vec::new(), mask: 0, key: char_key(c) }
}

fn char_key(c: char) -> Key {
    let text = Some(c.to_string());
    let (code, key_code) = match c {
        'a'..='z' | 'A'..='Z' => {
            let up = c.to_ascii_uppercase();
            (format!("Key{up}"), up as i64)
        }
        '0'..='9' => (format!("Digit{c}"), c as i64),
        '-' => ("Minus".into(), 189),
        '=' => ("Equal".into(), 187),
        ',' => ("Comma".into(), 188),
        '.' => ("Period".into(), 190),
        '/' => ("Slash".into(), 191),
        ';' => ("Semicolon".into(), 186),
        '\'' => ("Quote".into(), 222),
        '[' => ("BracketLeft".into(), 219),
        ']' => ("BracketRight".into(), 221),
        '\\' => ("Backslash".into(), 220),
        '`' => ("Backquote".into(), 192),
        _ => (String::new(), 0),
    };
    Key { key: c.to_string(), code, key_code, text }
}

/// The browser's form of a chord: Shift types the upper case of a letter; Control, Alt and
/// Meta type nothing (a shortcut). A letter's key value follows Shift, whatever case the
/// chord was written in.
fn from_core(c: &core_keys::Chord) -> Chord {
    let mut mods = Vec::new();
    let mut mask = 0;
    for m in &c.modifiers {
        let (k, bit) = modifier(*m);
        mask |= bit;
        mods.push(k);
    }
    let mut k = key_of(c.key);
    if k.key.len() == 1 && k.key.chars().all(|c| c.is_ascii_alphabetic()) {
        // Shift makes a capital; a shortcut (Control+A) names its key in lower case; a letter
        // alone types as written (`press "A"` types A, as the agent wrote it).
        let cased = if c.holds(Modifier::Shift) {
            k.key.to_ascii_uppercase()
        } else if c.is_shortcut() {
            k.key.to_ascii_lowercase()
        } else {
            k.key.clone()
        };
        k.key.clone_from(&cased);
        k.text = Some(cased);
    }
    if c.is_shortcut() {
        k.text = None;
    }
    Chord { modifiers: mods, mask, key: k }
}

/// Reads a chord such as `Control+A` or `Shift+ArrowDown` (a lone `+` is the plus key).
pub fn chord(spec: &str) -> Result<Chord, CdpError> {
    Ok(from_core(&core_keys::chord(spec)?))
}

/// Reads a sequence of chords separated by whitespace (`"Tab Tab Enter"`).
pub fn chords(spec: &str) -> Result<Vec<Chord>, CdpError> {
    Ok(core_keys::parse(spec)?.iter().map(from_core).collect())
}

/// The bit of a modifier key's `key` value, if it is one.
fn modifier_bit(key: &str) -> Option<i64> {
    Modifier::from_name(key).map(|m| modifier(m).1)
}

/// Presses `chord` on `session`: modifiers down, the key down and up, modifiers up.
pub async fn press(raw: &RawCdp, session: &str, chord: &Chord) -> Result<(), CdpError> {
    let s = Some(session);
    let mut mask = 0;
    for m in &chord.modifiers {
        mask |= modifier_bit(&m.key).unwrap_or(0);
        raw.call(s, "Input.dispatchKeyEvent", key_params("rawKeyDown", m, mask)).await?;
    }
    let k = &chord.key;
    let down = if k.text.is_some() { "keyDown" } else { "rawKeyDown" };
    raw.call(s, "Input.dispatchKeyEvent", key_params(down, k, chord.mask)).await?;
    raw.call(s, "Input.dispatchKeyEvent", key_params("keyUp", k, chord.mask)).await?;
    for m in chord.modifiers.iter().rev() {
        mask &= !modifier_bit(&m.key).unwrap_or(0);
        raw.call(s, "Input.dispatchKeyEvent", key_params("keyUp", m, mask)).await?;
    }
    Ok(())
}

fn key_params(kind: &str, k: &Key, mask: i64) -> serde_json::Value {
    let mut p = json!({
        "type": kind,
        "key": k.key,
        "code": k.code,
        "windowsVirtualKeyCode": k.key_code,
        "nativeVirtualKeyCode": k.key_code,
        "modifiers": mask,
    });
    if kind == "keyDown" {
        if let Some(t) = &k.text {
            p["text"] = json!(t);
            p["unmodifiedText"] = json!(t);
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_chords() {
        let c = chord("Control+A").unwrap();
        assert_eq!(c.mask, modifiers::CONTROL);
        assert_eq!(c.key.key, "a");
        assert_eq!(c.key.code, "KeyA");
        assert_eq!(c.key.key_code, 65);
        assert_eq!(c.key.text, None);
        let c = chord("Shift+ArrowDown").unwrap();
        assert_eq!((c.mask, c.key.key.as_str(), c.key.key_code), (modifiers::SHIFT, "ArrowDown", 40));
        let c = chord("Enter").unwrap();
        assert_eq!(c.key.text.as_deref(), Some("\r"));
        let c = chord("shift+a").unwrap();
        assert_eq!(c.key.text.as_deref(), Some("A"));
        // A letter alone keeps its case; a shortcut's is lower.
        assert_eq!(chord("A").unwrap().key.text.as_deref(), Some("A"));
        assert_eq!(chord("b").unwrap().key.text.as_deref(), Some("b"));
        assert_eq!(chord("Control+B").unwrap().key.key, "b");
        assert_eq!(char_chord('Q').key.text.as_deref(), Some("Q"));
        let c = chord("Ctrl++").unwrap();
        assert_eq!((c.mask, c.key.key.as_str()), (modifiers::CONTROL, "+"));
        assert_eq!(chord("F5").unwrap().key.key_code, 116);
        assert_eq!(chords("Tab Tab Enter").unwrap().len(), 3);
        // Option is Alt here as on the desktop: the core reads the names for both.
        assert_eq!(chord("Option+Left").unwrap().mask, modifiers::ALT);
    }

    #[test]
    fn rejects_unknown_keys() {
        for bad in ["Foo", "Hyper+A", "", "F99", "Control+Nope", "   "] {
            assert!(matches!(chord(bad), Err(CdpError::UnknownKey(_))), "{bad}");
        }
    }
}
