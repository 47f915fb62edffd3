//! Keyboard input through AT-SPI's device event controller (the registry synthesizes it with
//! XTest under X11): the core's [`axsnap_core::keys`] chords (which read what agents write,
//! for every backend) as X modifier masks and keysyms.

use axsnap_core::keys::{self as core_keys, Key, Modifier, Named};

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
    Ok(core_keys::parse(keys)?.iter().map(chord).collect())
}

/// The X form of a chord.
fn chord(c: &core_keys::Chord) -> Chord {
    Chord { modifiers: c.modifiers.iter().map(|m| mask(*m)).fold(0, |a, b| a | b), keysym: keysym(c.key) }
}

/// A modifier's X mask bit.
fn mask(m: Modifier) -> u32 {
    match m {
        Modifier::Shift => 1,
        Modifier::Control => 4,
        Modifier::Alt => 8,
        Modifier::Meta => 64,
    }
}

/// The X keysym of a key.
pub fn keysym(key: Key) -> u32 {
    match key {
        Key::Char(c) => char_keysym(c),
        Key::Function(n) => 0xffbe + u32::from(n) - 1,
        Key::Modifier(m) => match m {
            Modifier::Shift => 0xffe1,
            Modifier::Control => 0xffe3,
            Modifier::Alt => 0xffe9,
            Modifier::Meta => 0xffeb,
        },
        Key::Named(n) => match n {
            Named::Enter => 0xff0d,
            Named::Tab => 0xff09,
            Named::Escape => 0xff1b,
            Named::Backspace => 0xff08,
            Named::Delete => 0xffff,
            Named::Insert => 0xff63,
            Named::Home => 0xff50,
            Named::End => 0xff57,
            Named::PageUp => 0xff55,
            Named::PageDown => 0xff56,
            Named::ArrowLeft => 0xff51,
            Named::ArrowUp => 0xff52,
            Named::ArrowRight => 0xff53,
            Named::ArrowDown => 0xff54,
            Named::Space => 0x20,
            Named::ContextMenu => 0xff67,
        },
    }
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
        assert_eq!(parse("F1").unwrap()[0].keysym, 0xffbe);
        // Option is Alt here as in the browser: the core reads the names for both.
        assert_eq!(parse("Option+Left").unwrap(), vec![Chord { modifiers: 8, keysym: 0xff51 }]);
        for bad in ["Hyper+x", "NoSuchKey", "  ", "F25"] {
            assert!(matches!(parse(bad), Err(AtspiError::BadKey(_))), "{bad}");
        }
    }
}
