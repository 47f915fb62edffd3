//! Keyboard input through AT-SPI's device event controller (the registry synthesizes it with
//! XTest under X11): keys and chords as agents write them (`Enter`, `Control+A`, `Shift+Tab`).

use crate::bus::Bus;
use crate::error::AtspiError;
use crate::object::{ObjectRef, REGISTRY};

const DEC_PATH: &str = "/org/a11y/atspi/registry/deviceeventcontroller";
const DEC: &str = "org.a11y.atspi.DeviceEventController";

/// `AtspiKeySynthType` values.
const KEY_SYM: u32 = 3;
const KEY_STRING: u32 = 4;
const LOCK_MODIFIERS: u32 = 5;
const UNLOCK_MODIFIERS: u32 = 6;

/// One chord: X modifier mask and the key's keysym.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chord {
    /// X modifier mask (Shift 1, Control 4, Alt 8, Super 64).
    pub modifiers: u32,
    /// The key's X keysym.
    pub keysym: u32,
}

/// Parses `keys`: chords separated by spaces, each `Mod+Mod+Key` (`Control+Shift+Tab`).
pub fn parse(keys: &str) -> Result<Vec<Chord>, AtspiError> {
    let mut out = Vec::new();
    for chord in keys.split_whitespace() {
        let parts: Vec<&str> = chord.split('+').collect();
        // `Control++` means Control and the plus key.
        let (mods, key) = match parts.as_slice() {
            [.., "", ""] if parts.len() >= 2 => (&parts[..parts.len() - 2], "+"),
            [mods @ .., key] => (mods, *key),
            [] => continue,
        };
        let mut modifiers = 0;
        for m in mods {
            modifiers |= match m.to_ascii_lowercase().as_str() {
                "shift" => 1,
                "control" | "ctrl" => 4,
                "alt" | "mod1" => 8,
                "super" | "meta" | "cmd" | "command" => 64,
                other => {
                    return Err(AtspiError::Unsupported(format!(
                        "unknown modifier {other:?} in {chord:?} (Shift, Control, Alt, Super)"
                    )))
                }
            };
        }
        out.push(Chord {
            modifiers,
            keysym: keysym(key)
                .ok_or_else(|| AtspiError::Unsupported(format!("unknown key {key:?} in {chord:?}")))?,
        });
    }
    if out.is_empty() {
        return Err(AtspiError::Unsupported("no keys to press".into()));
    }
    Ok(out)
}

/// The X keysym of a key name (`Enter`, `a`, `F5`) or a single character.
pub fn keysym(key: &str) -> Option<u32> {
    let named = match key.to_ascii_lowercase().as_str() {
        "enter" | "return" => 0xff0d,
        "tab" => 0xff09,
        "escape" | "esc" => 0xff1b,
        "backspace" => 0xff08,
        "delete" | "del" => 0xffff,
        "insert" => 0xff63,
        "home" => 0xff50,
        "end" => 0xff57,
        "pageup" => 0xff55,
        "pagedown" => 0xff56,
        "arrowleft" | "left" => 0xff51,
        "arrowup" | "up" => 0xff52,
        "arrowright" | "right" => 0xff53,
        "arrowdown" | "down" => 0xff54,
        "space" => 0x20,
        "menu" | "contextmenu" => 0xff67,
        f if f.len() >= 2 && f.starts_with('f') && f[1..].chars().all(|c| c.is_ascii_digit()) => {
            let n: u32 = f[1..].parse().ok()?;
            if !(1..=24).contains(&n) {
                return None;
            }
            0xffbe + n - 1
        }
        _ => {
            let mut chars = key.chars();
            let c = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            return Some(char_keysym(c));
        }
    };
    Some(named)
}

/// A character's keysym: Latin-1 is itself, the rest Unicode keysyms.
fn char_keysym(c: char) -> u32 {
    let cp = c as u32;
    if (0x20..0x7f).contains(&cp) || (0xa0..0x100).contains(&cp) {
        cp
    } else {
        0x0100_0000 + cp
    }
}

/// Presses `chords` in turn on whatever has keyboard focus.
pub async fn press(bus: &Bus, chords: &[Chord]) -> Result<(), AtspiError> {
    let dec = ObjectRef::new(REGISTRY, DEC_PATH);
    for c in chords {
        if c.modifiers != 0 {
            bus.call::<_, ()>(&dec, DEC, "GenerateKeyboardEvent", &(c.modifiers as i32, "", LOCK_MODIFIERS))
                .await?;
        }
        let pressed =
            bus.call::<_, ()>(&dec, DEC, "GenerateKeyboardEvent", &(c.keysym as i32, "", KEY_SYM)).await;
        if c.modifiers != 0 {
            bus.call::<_, ()>(
                &dec,
                DEC,
                "GenerateKeyboardEvent",
                &(c.modifiers as i32, "", UNLOCK_MODIFIERS),
            )
            .await?;
        }
        pressed?;
    }
    Ok(())
}

/// Types `text` as keystrokes on whatever has keyboard focus.
pub async fn type_string(bus: &Bus, text: &str) -> Result<(), AtspiError> {
    let dec = ObjectRef::new(REGISTRY, DEC_PATH);
    bus.call::<_, ()>(&dec, DEC, "GenerateKeyboardEvent", &(0i32, text, KEY_STRING)).await
}

/// A mouse event at screen point (`x`, `y`): `b1c` clicks button 1, `b1d` double-clicks,
/// `b3c` right-clicks, `abs` moves the pointer.
pub async fn mouse(bus: &Bus, x: i32, y: i32, event: &str) -> Result<(), AtspiError> {
    let dec = ObjectRef::new(REGISTRY, DEC_PATH);
    bus.call::<_, ()>(&dec, DEC, "GenerateMouseEvent", &(x, y, event)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chords_parse() {
        assert_eq!(parse("Enter").unwrap(), vec![Chord { modifiers: 0, keysym: 0xff0d }]);
        assert_eq!(parse("Control+Shift+Tab").unwrap(), vec![Chord { modifiers: 5, keysym: 0xff09 }]);
        assert_eq!(parse("Control++").unwrap(), vec![Chord { modifiers: 4, keysym: '+' as u32 }]);
        assert_eq!(parse("a F5").unwrap().len(), 2);
        assert_eq!(parse("é").unwrap()[0].keysym, 0xe9);
        assert_eq!(parse("€").unwrap()[0].keysym, 0x0100_20ac);
        assert!(parse("Hyper+x").is_err());
        assert!(parse("NoSuchKey").is_err());
        assert!(parse("  ").is_err());
    }
}
