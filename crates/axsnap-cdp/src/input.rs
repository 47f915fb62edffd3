//! Keys and chords as trusted key events (`Input.dispatchKeyEvent`).
//!
//! A chord is key names joined by `+`: the last is the key, the others modifiers
//! (`Control+A`, `Shift+ArrowDown`, `Control+Shift+End`). Names follow the DOM `KeyboardEvent.key`
//! values (`Enter`, `Tab`, `ArrowDown`, `a`), with a few aliases (`Ctrl`, `Cmd`, `Esc`, `Return`,
//! `Up`, `Space`). Several chords may be given separated by spaces (`"Tab Tab Enter"`).

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

/// The modifier bit of a modifier key name, if it is one.
fn modifier_bit(name: &str) -> Option<(Key, i64)> {
    Some(match name.to_ascii_lowercase().as_str() {
        "shift" => (named("Shift", "ShiftLeft", 16, None), modifiers::SHIFT),
        "control" | "ctrl" => (named("Control", "ControlLeft", 17, None), modifiers::CONTROL),
        "alt" | "option" => (named("Alt", "AltLeft", 18, None), modifiers::ALT),
        "meta" | "cmd" | "command" | "super" => (named("Meta", "MetaLeft", 91, None), modifiers::META),
        _ => return None,
    })
}

/// Reads one key name.
pub fn key(name: &str) -> Result<Key, CdpError> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Ok(char_key(c));
    }
    let lower = name.to_ascii_lowercase();
    let k = match lower.as_str() {
        "enter" | "return" => named("Enter", "Enter", 13, Some("\r")),
        "tab" => named("Tab", "Tab", 9, None),
        "escape" | "esc" => named("Escape", "Escape", 27, None),
        "backspace" => named("Backspace", "Backspace", 8, None),
        "delete" | "del" => named("Delete", "Delete", 46, None),
        "insert" => named("Insert", "Insert", 45, None),
        "space" => named(" ", "Space", 32, Some(" ")),
        "arrowup" | "up" => named("ArrowUp", "ArrowUp", 38, None),
        "arrowdown" | "down" => named("ArrowDown", "ArrowDown", 40, None),
        "arrowleft" | "left" => named("ArrowLeft", "ArrowLeft", 37, None),
        "arrowright" | "right" => named("ArrowRight", "ArrowRight", 39, None),
        "home" => named("Home", "Home", 36, None),
        "end" => named("End", "End", 35, None),
        "pageup" => named("PageUp", "PageUp", 33, None),
        "pagedown" => named("PageDown", "PageDown", 34, None),
        "contextmenu" => named("ContextMenu", "ContextMenu", 93, None),
        _ => {
            if let Some((k, _)) = modifier_bit(name) {
                return Ok(k);
            }
            // F1..F24.
            if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<i64>().ok()) {
                if (1..=24).contains(&n) {
                    let f = format!("F{n}");
                    return Ok(named(&f, &f, 111 + n, None));
                }
            }
            return Err(CdpError::UnknownKey(name.to_string()));
        }
    };
    Ok(k)
}

/// The key of one typed character (US layout codes; other characters type as themselves).
fn char_key(c: char) -> Key {
    let text = Some(c.to_string());
    let (code, key_code) = match c {
        'a'..='z' | 'A'..='Z' => {
            let up = c.to_ascii_uppercase();
            (format!("Key{up}"), up as i64)
        }
        '0'..='9' => (format!("Digit{c}"), c as i64),
        ' ' => ("Space".into(), 32),
        '\n' | '\r' => return named("Enter", "Enter", 13, Some("\r")),
        '\t' => return named("Tab", "Tab", 9, None),
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

/// Reads a chord such as `Control+A` or `Shift+ArrowDown` (a lone `+` is the plus key).
pub fn chord(spec: &str) -> Result<Chord, CdpError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(CdpError::UnknownKey(spec.to_string()));
    }
    // "Control++" means Control and the plus key.
    let (mods_part, key_part) = match spec.strip_suffix("++") {
        Some(rest) => (Some(rest), "+"),
        None if spec == "+" => (None, "+"),
        None => match spec.rsplit_once('+') {
            Some((m, k)) => (Some(m), k),
            None => (None, spec),
        },
    };
    let mut mods = Vec::new();
    let mut mask = 0;
    for name in mods_part.into_iter().flat_map(|m| m.split('+')) {
        let (k, bit) = modifier_bit(name.trim()).ok_or_else(|| CdpError::UnknownKey(spec.to_string()))?;
        if mask & bit == 0 {
            mask |= bit;
            mods.push(k);
        }
    }
    let mut k = key(key_part.trim()).map_err(|_| CdpError::UnknownKey(spec.to_string()))?;
    // Shift types the upper case of a letter; Control, Alt and Meta type nothing (a shortcut).
    // A letter's key value follows Shift, whatever case the chord was written in.
    if k.key.len() == 1 && k.key.chars().all(|c| c.is_ascii_alphabetic()) {
        let cased = if mask & modifiers::SHIFT != 0 {
            k.key.to_ascii_uppercase()
        } else {
            k.key.to_ascii_lowercase()
        };
        k.key.clone_from(&cased);
        k.text = Some(cased);
    }
    if mask & (modifiers::CONTROL | modifiers::ALT | modifiers::META) != 0 {
        k.text = None;
    }
    Ok(Chord { modifiers: mods, mask, key: k })
}

/// Reads a sequence of chords separated by whitespace (`"Tab Tab Enter"`).
pub fn chords(spec: &str) -> Result<Vec<Chord>, CdpError> {
    let list: Result<Vec<Chord>, CdpError> = spec.split_whitespace().map(chord).collect();
    let list = list?;
    if list.is_empty() {
        return Err(CdpError::UnknownKey(spec.to_string()));
    }
    Ok(list)
}

/// Presses `chord` on `session`: modifiers down, the key down and up, modifiers up.
pub async fn press(raw: &RawCdp, session: &str, chord: &Chord) -> Result<(), CdpError> {
    let s = Some(session);
    let mut mask = 0;
    for m in &chord.modifiers {
        mask |= modifier_bit(&m.key).map(|(_, b)| b).unwrap_or(0);
        raw.call(s, "Input.dispatchKeyEvent", key_params("rawKeyDown", m, mask)).await?;
    }
    let k = &chord.key;
    let down = if k.text.is_some() { "keyDown" } else { "rawKeyDown" };
    raw.call(s, "Input.dispatchKeyEvent", key_params(down, k, chord.mask)).await?;
    raw.call(s, "Input.dispatchKeyEvent", key_params("keyUp", k, chord.mask)).await?;
    for m in chord.modifiers.iter().rev() {
        mask &= !modifier_bit(&m.key).map(|(_, b)| b).unwrap_or(0);
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
        let c = chord("Ctrl++").unwrap();
        assert_eq!((c.mask, c.key.key.as_str()), (modifiers::CONTROL, "+"));
        assert_eq!(chord("F5").unwrap().key.key_code, 116);
        assert_eq!(chords("Tab Tab Enter").unwrap().len(), 3);
    }

    #[test]
    fn rejects_unknown_keys() {
        for bad in ["Foo", "Hyper+A", "", "F99", "Control+Nope"] {
            assert!(matches!(chord(bad), Err(CdpError::UnknownKey(_))), "{bad}");
        }
    }
}
